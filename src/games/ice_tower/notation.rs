//! The push notation `r,c,D` (spec §3) and the checker that replays it on the simulator.

use super::level::Puzzle;
use super::rules::{Dir, Grid, Position, PushError, SlideEnd};

/// One push: the block's cell and the direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Push {
    pub row: usize,
    pub col: usize,
    pub dir: Dir,
}

impl Push {
    /// Parses `r,c,D`.
    pub fn parse(token: &str) -> Option<Push> {
        let mut parts = token.split(',');
        let (row, col, dir) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        let mut letters = dir.chars();
        let dir = Dir::from_letter(letters.next()?).filter(|_| letters.next().is_none())?;
        Some(Push {
            row: row.parse().ok()?,
            col: col.parse().ok()?,
            dir,
        })
    }
}

impl std::fmt::Display for Push {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{},{}", self.row, self.col, self.dir)
    }
}

/// Writes pushes separated by single spaces.
pub fn format(pushes: &[Push]) -> String {
    pushes
        .iter()
        .map(Push::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Replays a solution with the simulator alone and returns its push count: every token must
/// parse, every push must be legal (P1, X5, X7), and no fire may burn at the end (G1). A push
/// after the last fire went out is rejected: the level is over then.
pub fn replay(puzzle: &Puzzle, solution: &str) -> Result<u64, String> {
    replay_seen(puzzle, solution, |_, _| {})
}

/// [`replay`], showing `seen` the start (with `None`) and the position after every legal push,
/// with the push and where its block ended.
pub fn replay_seen(
    puzzle: &Puzzle,
    solution: &str,
    mut seen: impl FnMut(&Position, Option<(Push, SlideEnd)>),
) -> Result<u64, String> {
    let grid = &puzzle.grid;
    let mut pos = puzzle.start.clone();
    let mut moves = 0;
    seen(&pos, None);
    for (index, token) in solution.split_whitespace().enumerate() {
        let n = index + 1;
        let push = Push::parse(token).ok_or_else(|| {
            format!("move {n} (`{token}`): expected row,col,D with D one of U, D, L, R")
        })?;
        if pos.is_solved() {
            return Err(format!(
                "move {n} ({push}): the level was already solved after move {}",
                n - 1
            ));
        }
        let end;
        (pos, end) = apply(grid, &pos, push).map_err(|why| format!("move {n} ({push}): {why}"))?;
        moves += 1;
        seen(&pos, Some((push, end)));
    }
    if pos.is_solved() {
        Ok(moves)
    } else {
        let burning: Vec<usize> = (0..pos.burning.len()).filter(|&c| pos.burning[c]).collect();
        let (r, c) = grid.row_col(burning[0]);
        Err(format!(
            "after {moves} pushes {} fire(s) still burn (the first at {r},{c})",
            burning.len()
        ))
    }
}

/// One push on the simulator, with the reason in words when it is illegal: the position after
/// it and where the block ended.
pub fn apply(grid: &Grid, pos: &Position, push: Push) -> Result<(Position, SlideEnd), String> {
    let Push { row, col, dir } = push;
    if row >= grid.height || col >= grid.width {
        return Err(format!("{row},{col} is outside the grid"));
    }
    let block = grid.cell(row, col);
    let at = |cell: usize| {
        let (r, c) = grid.row_col(cell);
        format!("{r},{c}")
    };
    let reachable = grid.reachable(pos);
    match grid.push(pos, &reachable, block, dir) {
        Ok(done) => Ok(done),
        Err(PushError::NoIce) => Err(format!("no ice at {row},{col}")),
        Err(PushError::Unreachable { push_cell }) => Err(format!(
            "the magician cannot reach the push cell {}",
            at(push_cell)
        )),
        Err(PushError::ArrowElsewhere { push_cell }) => Err(format!(
            "the push cell {} is an arrow pointing elsewhere",
            at(push_cell)
        )),
        Err(PushError::Blocked { first }) => Err(format!(
            "the cell {} beyond the ice is a wall or holds ice",
            at(first)
        )),
        Err(PushError::EndlessSlide) => {
            Err("the slide would enter the same arrow twice and never end".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ice_tower::tests::puzzle;

    #[test]
    fn checker_messages_name_the_move() {
        let p = puzzle("######## / #@%* %*# / #      # / ########");
        for (solution, error) in [
            ("1,2,R 2,1,R", "move 2 (2,1,R): no ice at 2,1"),
            (
                "1,2,X",
                "move 1 (`1,2,X`): expected row,col,D with D one of U, D, L, R",
            ),
            ("9,9,R", "move 1 (9,9,R): 9,9 is outside the grid"),
            (
                "1,2,R",
                "after 1 pushes 1 fire(s) still burn (the first at 1,6)",
            ),
        ] {
            assert_eq!(replay(&p, solution), Err(error.into()), "{solution}");
        }
        assert_eq!(replay(&p, " 1,2,R \n\t 1,5,R  "), Ok(2));
    }
}
