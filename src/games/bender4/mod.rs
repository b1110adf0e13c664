//! Bender – Episode 4 (CodinGame optimisation puzzle), per `docs/bender4.md`.
//!
//! - [`level`]: the strict map parser (§1.1).
//! - [`rules`]: board tables and one move (§2.1), the single source of truth for moves.
//! - [`program`]: program lines, the call-stack interpreter and the win/loss timeline (§2.2–2.3).
//! - [`notation`]: `check`, replaying a program line with the rules alone.
//! - [`draw`]: pictures of the map and of a program's run, step by step (`frontier show`).
//! - [`prove`]: the shortest program proven, by running every shorter canonical program.
//! - [`routes`]: the (cell, field mask) graph without pushes: shortest route, distance table.
//! - [`rng`]: the deterministic random numbers of the searches.

pub mod anneal;
pub mod compress;
pub mod draw;
pub mod judge;
pub mod level;
pub mod notation;
pub mod program;
pub mod prove;
pub mod rng;
pub mod routes;
pub mod rules;
pub mod search;
pub mod space;

#[cfg(test)]
mod testing;
#[cfg(test)]
mod tests;

use std::path::Path;

use crate::engine::SearchControl;
use crate::games::{Answer, Game, GameId, LevelEntry, Replay, SingleLevelFile, Source, Verdict};
pub use rng::Rng;
use rules::Board;

pub struct Bender4;

/// A parsed map with its board tables.
pub struct Level {
    pub map: level::Map,
    pub board: Board,
}

impl Level {
    pub fn new(map: level::Map) -> Level {
        let board = Board::new(&map);
        Level { map, board }
    }

    /// Parses map text (for tests and tools).
    pub fn parse_text(text: &str) -> Result<Level, (usize, String)> {
        level::parse_text(text).map(Level::new)
    }
}

impl Game for Bender4 {
    const ID: GameId = GameId::Bender4;
    type Level = Level;

    fn is_level_path(path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "txt")
    }

    fn sniff(text: &str) -> bool {
        level::parse_text(text).is_ok()
    }

    fn parse(source: &Source) -> Vec<LevelEntry<Level>> {
        vec![LevelEntry {
            name: source.stem.to_string(),
            level: level::parse(source).map(Level::new),
            alone: SingleLevelFile::whole(source),
        }]
    }

    fn solve(level: &Level, ctl: &SearchControl) -> Answer {
        let effort = ctl.budget.limits.effort.unwrap_or(1);
        search::solve(
            &level.board,
            ctl,
            &search::Budget::default().with_effort(effort),
        )
    }

    fn check(level: &Level, solution: &str) -> Result<Verdict, String> {
        notation::check(&level.board, solution)
    }

    fn show(level: &Level, solution: Option<&str>) -> Replay {
        draw::replay(level, solution)
    }
}
