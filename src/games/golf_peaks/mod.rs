//! Golf Peaks, per `docs/golf-peaks.md`: card-based minigolf on tiles with heights.
//!
//! - [`level`]: the level file format (size line, rows of cell tokens, the hand).
//! - [`rules`]: the board with its neighbour tables and the simulator of one play (§2), the single
//!   source of truth for both the search and `check`.
//! - [`space`]: the table of plays over the reachable positions, the fewest plays from each to
//!   the flag, the state packed into one `u64`, and the engine's search space (breadth-first:
//!   every play costs 1; successors that cannot reach the flag with the cards left are cut).
//! - [`notation`]: reading and replaying `1/2-↘ 1-↗` solutions.
//! - [`draw`]: pictures of the level and of a replayed solution (`frontier show`).

pub mod draw;
pub mod level;
pub mod notation;
pub mod rules;
pub mod space;

#[cfg(test)]
mod testing;
#[cfg(test)]
mod tests;

use std::path::Path;

use space::GolfSpace;

use crate::engine::SearchControl;
use crate::engine::explore::Unfinished;
use crate::games::{
    Analyzed, Answer, Game, GameId, LevelEntry, Replay, SingleLevelFile, Source, Verdict,
};
use crate::search::{analyze, bfs};

pub use level::Level;

pub struct GolfPeaks;

impl Game for GolfPeaks {
    const ID: GameId = GameId::GolfPeaks;
    type Level = Level;

    fn is_level_path(path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "txt")
    }

    fn sniff(text: &str) -> bool {
        let first = text.lines().next().unwrap_or("").trim_end();
        first.split_once('x').is_some_and(|(w, h)| {
            [w, h]
                .iter()
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
    }

    fn parse(source: &Source) -> Vec<LevelEntry<Level>> {
        let level = level::parse(source).and_then(|level| match space::max_state_bits(&level) {
            bits if bits <= 64 => Ok(level),
            bits => Err(source.error(
                None,
                format!(
                    "the level needs up to {bits} bits of search state (grid and hand); at most 64 are supported"
                ),
            )),
        });
        vec![LevelEntry {
            name: source.stem.to_string(),
            level,
            alone: SingleLevelFile::whole(source),
        }]
    }

    fn solve(level: &Level, ctl: &SearchControl) -> Answer {
        let space = match GolfSpace::new(level, ctl) {
            Ok(space) => space,
            Err(limit) => return Answer::limit(limit),
        };
        Answer::of_optimal(bfs(&space, ctl), |path| space.notation(path))
    }

    fn analyze(level: &Level, ctl: &SearchControl) -> Option<Analyzed> {
        // Every legal play (no pruning), and the ball in the hole ends the level.
        let analyzed = GolfSpace::exhaustive(level, ctl)
            .map_err(Unfinished::from)
            .and_then(|space| analyze(&space, false, ctl));
        Some(analyzed.map(|a| a.map(|_| None)))
    }

    fn check(level: &Level, solution: &str) -> Result<Verdict, String> {
        notation::replay(level, solution).map(Verdict::moves)
    }

    fn show(level: &Level, solution: Option<&str>) -> Replay {
        draw::replay(level, solution)
    }
}
