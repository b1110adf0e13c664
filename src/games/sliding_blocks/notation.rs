//! The move notation `a:RRD` (spec §3) and the checker that replays it on the simulator.

use super::rules::{Dir, Position, Puzzle};

/// Replays a solution with the unit-step rules alone and returns its move count.
///
/// Every token must name a block, every unit step must be legal (spec R2), no move may end where
/// it started (R3), and the final position must be solved (R4).
pub fn replay(puzzle: &Puzzle, solution: &str) -> Result<u64, String> {
    replay_seen(puzzle, solution, |_, _| {})
}

/// A move as [`replay_seen`] shows it: its token and the block it moved.
pub struct Moved<'a> {
    pub token: &'a str,
    pub block: usize,
}

/// [`replay`], showing `seen` the start position (with `None`) and the position after each
/// legal move (`frontier show` draws them).
pub fn replay_seen<'s>(
    puzzle: &Puzzle,
    solution: &'s str,
    mut seen: impl FnMut(&Position, Option<Moved<'s>>),
) -> Result<u64, String> {
    let mut position = puzzle.start();
    seen(&position, None);
    let mut moves = 0;
    for (index, token) in solution.split_whitespace().enumerate() {
        let n = index + 1;
        let mut chars = token.chars();
        let (Some(name), Some(':')) = (chars.next(), chars.next()) else {
            return Err(format!(
                "move {n} (`{token}`): expected a block name, `:` and steps"
            ));
        };
        let steps = chars.as_str();
        if steps.is_empty() {
            return Err(format!("move {n} (`{token}`): no steps after `:`"));
        }
        let block = puzzle
            .block_named(name)
            .ok_or_else(|| format!("move {n} (`{token}`): no block named `{name}`"))?;
        let from = position.offsets[block];
        for (i, letter) in steps.chars().enumerate() {
            let dir = Dir::from_letter(letter).ok_or_else(|| {
                format!("move {n} (`{token}`): `{letter}` is not a step (expected U, D, L or R)")
            })?;
            if !puzzle.can_step(&position, block, dir) {
                return Err(format!(
                    "move {n} (`{token}`): step {} ({dir}) leaves the board or hits another block",
                    i + 1
                ));
            }
            let offset = &mut position.offsets[block];
            *offset = offset.step(dir);
        }
        if position.offsets[block] == from {
            return Err(format!(
                "move {n} (`{token}`): the block ends where it started"
            ));
        }
        moves += 1;
        seen(&position, Some(Moved { token, block }));
    }
    if puzzle.is_solved(&position) {
        Ok(moves)
    } else {
        Err(format!(
            "after {} the goal blocks are not all on their targets",
            crate::words::count(moves, "move")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::sliding_blocks::level::parse_puzzle;

    #[test]
    fn the_checker_replays_legal_solutions() {
        let p = parse_puzzle("ab.\n...", "..a\n...").unwrap();
        assert_eq!(replay(&p, "a:DRRU"), Ok(1));
        assert_eq!(
            replay(&p, "  a:D   a:RRU "),
            Ok(2),
            "any whitespace between tokens"
        );
        let p = parse_puzzle(":..", "..:").unwrap();
        assert_eq!(replay(&p, "::RR"), Ok(1), "the name is the first character");
    }

    #[test]
    fn the_checker_rejects_illegal_paths() {
        let p = parse_puzzle("ab.\n...", "..a\n...").unwrap();
        let err = |s: &str| replay(&p, s).unwrap_err();
        assert!(err("a:R").contains("step 1 (R)"), "{}", err("a:R"));
        assert!(err("c:D").contains("no block named `c`"));
        assert!(err("a:DU").contains("ends where it started"));
        assert!(err("a:").contains("no steps"));
        assert!(err("aR").contains("expected a block name"));
        assert!(err("a:DX").contains("`X` is not a step"));
        assert!(err("a:D").contains("not all on their targets"));
        assert!(err("").contains("after 0 moves"));
    }
}
