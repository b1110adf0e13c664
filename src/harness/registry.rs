//! The table of games and the type-erased level the harness schedules.
//!
//! Each game's [`Game`] implementation is turned into a [`GameEntry`] of plain function pointers
//! and its levels into boxed [`LevelTask`]s, so the rest of the harness is written once for all
//! games. Adding a game is one line in [`games`].

use std::path::Path;
use std::time::Instant;

use super::results::{Row, Status};
use crate::engine::SearchControl;
use crate::games::bender4::Bender4;
use crate::games::golf_peaks::GolfPeaks;
use crate::games::ice_tower::IceTower;
use crate::games::puzzle_quest::PuzzleQuest;
use crate::games::sliding_blocks::SlidingBlocks;
use crate::games::{
    Analyzed, Answer, Game, GameId, LevelEntry, LevelError, Replay, SingleLevelFile, Source,
    Verdict,
};

/// A game's file recognition and loading, as plain functions.
#[derive(Clone, Copy)]
pub struct GameEntry {
    pub id: GameId,
    pub is_level_path: fn(&Path) -> bool,
    pub holds_levels: fn(&str) -> bool,
    pub sniff: fn(&str) -> bool,
    pub load: fn(&Source) -> Vec<Box<dyn LevelTask>>,
}

fn entry<G: Game>() -> GameEntry {
    GameEntry {
        id: G::ID,
        is_level_path: G::is_level_path,
        holds_levels: G::holds_levels,
        sniff: G::sniff,
        load: load::<G>,
    }
}

/// Every game frontier can solve.
pub fn games() -> Vec<GameEntry> {
    vec![
        entry::<SlidingBlocks>(),
        entry::<GolfPeaks>(),
        entry::<PuzzleQuest>(),
        entry::<IceTower>(),
        entry::<Bender4>(),
    ]
}

/// The entry of one game, or why there is none.
pub fn game(id: GameId) -> Result<GameEntry, String> {
    games()
        .into_iter()
        .find(|g| g.id == id)
        .ok_or_else(|| format!("game `{id}` is not implemented in this build"))
}

/// A level of some game, ready to be solved or checked.
pub trait LevelTask: Send + Sync {
    fn game(&self) -> GameId;
    fn name(&self) -> &str;
    /// Solves the level, re-checks the solution with the simulator alone, and returns its row.
    fn solve(&self, ctl: &SearchControl) -> Row;
    /// Explores the level's whole space (`frontier analyze`): `Ok(None)` where the game has no
    /// such space, `Err` for a level that could not be read.
    fn analyze(&self, ctl: &SearchControl) -> Result<Option<Analyzed>, String>;
    /// Replays a solution (`frontier check`).
    fn check(&self, solution: &str) -> Result<Verdict, String>;
    /// Draws the level, and a solution replayed step by step (`frontier show`).
    fn show(&self, solution: Option<&str>) -> Result<Replay, String>;
    /// The level alone as a file of its game's format, or why it could not be read (an
    /// external solver is handed the file: `solve --solver`).
    fn alone(&self) -> Result<&SingleLevelFile, String>;
}

struct Task<G: Game> {
    name: String,
    level: Result<G::Level, LevelError>,
    alone: SingleLevelFile,
}

fn load<G: Game>(source: &Source) -> Vec<Box<dyn LevelTask>> {
    G::parse(source)
        .into_iter()
        .map(|LevelEntry { name, level, alone }| {
            Box::new(Task::<G> { name, level, alone }) as Box<dyn LevelTask>
        })
        .collect()
}

impl<G: Game> LevelTask for Task<G> {
    fn game(&self) -> GameId {
        G::ID
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn solve(&self, ctl: &SearchControl) -> Row {
        let game = G::ID;
        let level = match &self.level {
            Ok(level) => level,
            Err(e) => {
                // The row says what was wrong; the game's page says what is expected.
                let message = format!("{e} (the format: docs/{game}.md)");
                return Row::error(game, &self.name, message);
            }
        };
        let started = Instant::now();
        let answer = G::solve(level, ctl);
        let millis = started.elapsed().as_secs_f64() * 1e3;
        let stats = ctl.progress.stats();
        let mut row = Row {
            millis,
            states: stats.states,
            expanded: stats.expanded,
            bytes_per_state: if stats.states == 0 {
                0.0
            } else {
                stats.peak_bytes as f64 / stats.states as f64
            },
            ..Row::error(game, &self.name, String::new())
        };
        match answer {
            Answer::Solved {
                moves,
                score,
                solution,
                proof,
                note,
            } => match G::check(level, &solution) {
                Ok(v) if v.moves == moves && v.score == score => {
                    row.status = Status::Solved;
                    row.moves = Some(moves);
                    row.optimal = proof.is_optimal();
                    row.score = Some(score);
                    row.solution = solution;
                    row.limit = proof.limit();
                    row.lower = proof.lower();
                    row.note = note;
                }
                Ok(v) => {
                    row.note = format!(
                        "internal error: the search reported {moves} moves (score {score}) but check replayed {} (score {}): {solution}",
                        v.moves, v.score
                    )
                }
                Err(why) => {
                    row.note = format!(
                        "internal error: check rejected the search's solution ({why}): {solution}"
                    )
                }
            },
            Answer::Unsolvable => {
                row.status = Status::Unsolvable;
                row.optimal = true;
            }
            Answer::Limit { limit, lower } => {
                row.status = Status::Limit;
                row.limit = Some(limit);
                row.lower = lower;
            }
        }
        row
    }

    fn check(&self, solution: &str) -> Result<Verdict, String> {
        match &self.level {
            Ok(level) => G::check(level, solution),
            Err(e) => Err(e.to_string()),
        }
    }

    fn analyze(&self, ctl: &SearchControl) -> Result<Option<Analyzed>, String> {
        match &self.level {
            Ok(level) => Ok(G::analyze(level, ctl)),
            Err(e) => Err(e.to_string()),
        }
    }

    fn show(&self, solution: Option<&str>) -> Result<Replay, String> {
        match &self.level {
            Ok(level) => Ok(G::show(level, solution)),
            Err(e) => Err(e.to_string()),
        }
    }

    fn alone(&self) -> Result<&SingleLevelFile, String> {
        match &self.level {
            Ok(_) => Ok(&self.alone),
            Err(e) => Err(format!("{e} (the format: docs/{}.md)", G::ID)),
        }
    }
}
