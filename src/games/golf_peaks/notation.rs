//! The notation of plays (spec §3: `1/2-↘ 1-↗`) and the checker that replays it on the
//! simulator alone, independently of the search's packed states.

use super::level::{Level, parse_card};
use super::rules::{Dir, Position};

/// Replays a solution and returns its number of plays.
///
/// Every token must be a card followed by an arrow; the card must still be in the hand (copies
/// count); every play must be legal; no play may follow the one that solves the level; the
/// ball must end on the flag. The empty solution is never valid.
pub fn replay(level: &Level, solution: &str) -> Result<u64, String> {
    replay_seen(level, solution, |_, _, _| {})
}

/// [`replay`], showing `seen` the start (with `None`) and every legal play: the position, the
/// play's token and the copies of each hand card still to play.
pub fn replay_seen(
    level: &Level,
    solution: &str,
    mut seen: impl FnMut(&Position, Option<&str>, &[u32]),
) -> Result<u64, String> {
    let board = &level.board;
    let mut position = board.start_position();
    let mut left: Vec<u32> = level.hand.iter().map(|c| c.count).collect();
    seen(&position, None, &left);
    let mut moves = 0;
    for (index, token) in solution.split_whitespace().enumerate() {
        let n = index + 1;
        if position.ball == board.flag {
            return Err(format!(
                "move {n} (`{token}`): the level is already solved after move {}",
                n - 1
            ));
        }
        let (text, dir) = split_play(token).ok_or_else(|| {
            format!("move {n} (`{token}`): expected a card followed by one of the arrows ↗ ↘ ↙ ↖ (or UR DR DL UL)")
        })?;
        parse_card(text).map_err(|why| format!("move {n} (`{token}`): not a card: {why}"))?;
        let card = level
            .card_named(text)
            .ok_or_else(|| format!("move {n} (`{token}`): no `{text}` card in the hand"))?;
        if left[card] == 0 {
            return Err(format!(
                "move {n} (`{token}`): every `{text}` card ({} dealt) is already played",
                level.hand[card].count
            ));
        }
        left[card] -= 1;
        position = board
            .play(position, &level.hand[card].steps, dir)
            .map_err(|why| {
                format!(
                    "move {n} (`{token}`): illegal play: {}",
                    why.describe(board)
                )
            })?;
        moves += 1;
        seen(&position, Some(token), &left);
    }
    if moves == 0 {
        return Err("empty solution: the ball is not on the flag".into());
    }
    if position.ball != board.flag {
        let (x, y) = board.xy(position.ball);
        return Err(format!(
            "ball not on the flag after {} (it rests at {x},{y})",
            crate::words::count(moves, "move")
        ));
    }
    Ok(moves)
}

/// `1/2-↘` as (`1/2-`, Right). Each arrow may also be written in ASCII as the way it points on
/// screen, for keyboards and terminals without them: `UR` ↗, `DR` ↘, `DL` ↙, `UL` ↖ (either
/// case: `1/2-dr`).
fn split_play(token: &str) -> Option<(&str, Dir)> {
    let arrow = token.chars().next_back()?;
    if let Some(dir) = Dir::from_arrow(arrow) {
        return Some((&token[..token.len() - arrow.len_utf8()], dir));
    }
    let split = token
        .len()
        .checked_sub(2)
        .filter(|&at| token.is_char_boundary(at))?;
    let (card, ascii) = token.split_at(split);
    let arrow = match ascii.to_ascii_uppercase().as_str() {
        "UR" => '↗',
        "DR" => '↘',
        "DL" => '↙',
        "UL" => '↖',
        _ => return None,
    };
    Some((card, Dir::from_arrow(arrow)?))
}

#[cfg(test)]
mod tests {
    use crate::games::Game;
    use crate::games::golf_peaks::GolfPeaks;
    use crate::games::golf_peaks::testing::{check, level};

    #[test]
    fn the_checker_accepts_a_solution_with_any_whitespace() {
        let l = level("4x1\n0,ball 0,sand 0 0,flag\n\n2- 1- 2/");
        assert_eq!(check(&l, "2-↘ 1-↘ 2/↘"), Ok(3));
        assert_eq!(check(&l, "  2-↘\t1-↘\n 2/↘ "), Ok(3));
        assert_eq!(
            GolfPeaks::check(&l, "2-↘ 1-↘ 2/↘").unwrap().message,
            "solved in 3 moves"
        );
    }

    #[test]
    fn the_checker_takes_ascii_arrows_as_well() {
        let l = level("4x1\n0,ball 0,sand 0 0,flag\n\n2- 1- 2/");
        assert_eq!(check(&l, "2-DR 1-dr 2/↘"), Ok(3));
        let up = level("1x3\n0,flag\n0\n0,ball\n\n2-");
        assert_eq!(check(&up, "2-UR"), Ok(1));
        let left = level("3x1\n0,flag 0 0,ball\n\n2-");
        assert_eq!(check(&left, "2-UL"), Ok(1));
        let down = level("1x3\n0,ball\n0\n0,flag\n\n2-");
        assert_eq!(check(&down, "2-DL"), Ok(1));
        let why = check(&l, "2-RD").expect_err("RD is no arrow");
        assert!(why.contains("(or UR DR DL UL)"), "{why}");
    }

    #[test]
    fn the_checker_rejects_bad_solutions_naming_the_move() {
        let l = level("5x1\n0,ball 0 0 0 0,flag\n\n1- 1- 4-");
        let rejected = |solution: &str, needle: &str| {
            let why = check(&l, solution).expect_err(solution);
            assert!(
                why.contains(needle),
                "{solution}: {why} (expected `{needle}`)"
            );
        };
        rejected("", "empty solution");
        rejected(
            "1-",
            "move 1 (`1-`): expected a card followed by one of the arrows",
        );
        rejected("1-→", "move 1");
        rejected("1x↘", "move 1 (`1x↘`): not a card");
        rejected("3-↘", "move 1 (`3-↘`): no `3-` card in the hand");
        rejected(
            "1-↘ 1-↘ 1-↘",
            "move 3 (`1-↘`): every `1-` card (2 dealt) is already played",
        );
        rejected(
            "1-↖",
            "move 1 (`1-↖`): illegal play: the ball rolls off the tiles from 0,0 going ↖",
        );
        rejected("1-↘", "ball not on the flag after 1 move (it rests at 1,0)");
        rejected(
            "4-↘ 1-↖",
            "move 2 (`1-↖`): the level is already solved after move 1",
        );
        assert_eq!(check(&l, "4-↘"), Ok(1));
        assert_eq!(
            check(&l, "1-↘ 1-↘ 4-↖"),
            Err(
                "move 3 (`4-↖`): illegal play: the ball rolls off the tiles from 0,0 going ↖"
                    .into()
            )
        );
    }
}
