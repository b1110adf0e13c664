//! Puzzle Quest "Capture" boards, per `docs/puzzle-quest.md`: empty an 8×8 match-3 board with
//! the fewest swaps, with cascades, flaming-skull blasts and no refill.
//!
//! - [`level`]: the boards file format (B1–B5).
//! - [`rules`]: the reference simulator on a plain grid (the source of truth for `check`).
//! - [`board`]: the board packed into four 64-bit planes and the fast simulator the search uses.
//! - [`bound`]: the lower bound on the swaps left, from how far gems must travel sideways.
//! - [`space`]: the engine's [`crate::engine::Space`]: successors, mirror merging, dead states,
//!   the bound, the work left that orders the last swaps.
//! - [`notation`]: reading and replaying `r,c,D` swaps, and writing them from a search path.
//! - [`draw`]: pictures of the board and of a replayed solution (`frontier show`).
//!
//! The search is [`crate::engine::astar::ordered_astar`]: optimal, and it finds the last swap of
//! a solution among the boards with the fewest gems first.

pub mod board;
pub mod bound;
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

use space::{CaptureSpace, Reductions};

use crate::engine::SearchControl;
use crate::games::{Analyzed, Answer, Game, GameId, LevelEntry, Replay, Source, Verdict};
use crate::search::{analyze, ordered_astar};

pub use level::Level;

pub struct PuzzleQuest;

impl Game for PuzzleQuest {
    const ID: GameId = GameId::PuzzleQuest;
    type Level = Level;

    fn is_level_path(path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "txt")
    }

    /// Skips the known-solutions table that sits beside the boards.
    fn holds_levels(text: &str) -> bool {
        !level::looks_like_solutions(text)
    }

    fn sniff(text: &str) -> bool {
        level::looks_like_boards(text)
    }

    fn parse(source: &Source) -> Vec<LevelEntry<Level>> {
        level::parse(source)
    }

    fn solve(level: &Level, ctl: &SearchControl) -> Answer {
        solve_with(level, Reductions::default(), ctl)
    }

    fn analyze(level: &Level, ctl: &SearchControl) -> Option<Analyzed> {
        let space = CaptureSpace::new(level, Reductions::default());
        // A cleared board ends the level.
        Some(analyze(&space, false, ctl).map(|a| a.map(|_| None)))
    }

    fn check(level: &Level, solution: &str) -> Result<Verdict, String> {
        notation::replay(level, solution).map(Verdict::moves)
    }

    fn show(level: &Level, solution: Option<&str>) -> Replay {
        draw::replay(level, solution)
    }
}

/// Ordered A* (admissible, consistent heuristic; the likeliest last swaps first) over the packed
/// boards with the given reductions: the first solution it meets has the fewest swaps.
pub fn solve_with(level: &Level, reductions: Reductions, ctl: &SearchControl) -> Answer {
    let space = CaptureSpace::new(level, reductions);
    Answer::of_optimal(ordered_astar(&space, ctl), |path| space.notation(path))
}
