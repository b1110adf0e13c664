//! The frames of a replayed solution (`frontier show`), made alike for both packed games: the
//! start alone without a solution, else every position the checker's replay passes through,
//! the last one held. A game hands over its checker with an observer (`notation::replay_seen`,
//! the replay `check` makes) and how it draws one position, so a frame is never made by other
//! code than the one that judges the solution, and the verdict is the checker's.

use crate::games::{Replay, Verdict};
use crate::show::{self, Frame};

/// The frames of `solution` (or of `start` alone without one). `replay_seen` replays a solution
/// showing its observer every position and the move that reached it (`None` at the start);
/// `frame` draws one: the position, that move, its number and the number of moves.
pub fn replay<'s, S, M>(
    start: &S,
    solution: Option<&'s str>,
    replay_seen: impl FnOnce(&'s str, &mut dyn FnMut(&S, Option<M>)) -> Result<u64, String>,
    frame: impl Fn(&S, Option<M>, usize, usize) -> Frame,
) -> Replay {
    let Some(solution) = solution else {
        return Replay {
            frames: vec![frame(start, None, 0, 0)],
            verdict: None,
        };
    };
    let total = solution.split_whitespace().count();
    let mut frames = Vec::new();
    let verdict = replay_seen(solution, &mut |position, moved| {
        frames.push(frame(position, moved, frames.len(), total));
    })
    .map(Verdict::moves);
    show::hold_last(&mut frames);
    Replay {
        frames,
        verdict: Some(verdict),
    }
}
