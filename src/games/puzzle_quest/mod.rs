//! Puzzle Quest "Capture" boards, per `specs/puzzle-quest.md`: empty an 8×8 match-3 board with
//! the fewest swaps, with cascades, flaming-skull blasts and no refill.
//!
//! - [`level`]: the boards file format (B1–B5).
//! - [`rules`]: the reference simulator on a plain grid (the source of truth for `check`).
//! - [`board`]: the board packed into four 64-bit planes and the fast simulator the search uses.
//! - [`space`]: the engine's [`crate::engine::Space`]: successors, mirror merging, dead states.
//! - [`notation`]: reading and replaying `r,c,D` swaps, and writing them from a search path.

pub mod board;
pub mod bound;
pub mod level;
pub mod notation;
pub mod rules;
pub mod space;
#[cfg(test)]
mod tests;
pub mod upper;

use std::path::Path;

use space::{CaptureSpace, Reductions};

use crate::engine::astar::ordered_astar;
use crate::engine::{SearchControl, SearchOutcome};
use crate::games::{Answer, Game, GameId, LevelEntry, Source, Verdict};

pub use level::Level;

pub struct PuzzleQuest;

/// Every swap removes at least 3 of at most 64 gems (spec §4).
const MAX_SWAPS: u32 = 64 / 3;
/// Boards kept per layer by the beam search for a first solution.
const BEAM_WIDTH: usize = 2000;

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

    fn check(level: &Level, solution: &str) -> Result<Verdict, String> {
        notation::replay(level, solution).map(Verdict::moves)
    }
}

/// A beam search for a short solution, then A* (admissible heuristic) for a shorter one: when
/// A* finds none, the beam's solution has the fewest swaps.
pub fn solve_with(level: &Level, reductions: Reductions, ctl: &SearchControl) -> Answer {
    let mut space = CaptureSpace::new(level, reductions);
    let max_swaps = level.move_limit.unwrap_or(MAX_SWAPS);
    let known = match upper::solution(&space, BEAM_WIDTH, max_swaps, ctl) {
        Ok(known) => known,
        Err(limit) => return Answer::Limit(limit.to_string()),
    };
    if let Some(path) = &known {
        space.shorter_than(path.len() as u32 - 1);
    }
    let path = match ordered_astar(&space, ctl) {
        SearchOutcome::Found(path) => path,
        SearchOutcome::Exhausted => match known {
            Some(path) => path,
            None => return Answer::Unsolvable,
        },
        SearchOutcome::Stopped(limit) => return Answer::Limit(limit.to_string()),
    };
    let moves = path.len() as u64 - 1;
    Answer::Solved {
        moves,
        optimal: true,
        score: moves,
        solution: space.notation(&path),
    }
}
