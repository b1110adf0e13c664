//! Sliding-block puzzles (Klotski, Professor Layton), per `docs/sliding-blocks.md`.
//!
//! - [`level`]: the `.tsv` and `.txt` formats and the grids inside them.
//! - [`rules`]: the puzzle model and unit-step simulator (the source of truth for `check`).
//! - [`bits`], [`space`]: bitboards and their masked unit step, placement tables and the
//!   engine's search space (its keys are the shared ones of `games/packed/`).
//! - [`notation`]: reading and replaying `a:RRD` move lists.
//! - [`draw`]: pictures of the board and of a replayed solution (`frontier show`).

pub mod bits;
pub mod draw;
pub mod generate;
pub mod level;
pub mod notation;
pub mod rules;
pub mod space;

use std::path::Path;

use bits::{Bits, Wide};
use rules::Puzzle;
use space::{Layout, SlidingSpace};

use crate::engine::{Limit, SearchControl};
use crate::games::{Analyzed, Answer, Game, GameId, LevelEntry, Replay, Source, Verdict};
use crate::search::bidirectional;
use crate::search::{analyze, astar, count_reachable};

pub struct SlidingBlocks;

/// A parsed puzzle with its search layout.
pub struct Level {
    pub puzzle: Puzzle,
    layout: Layout,
}

impl Level {
    /// Checks that the search can represent the puzzle.
    pub fn new(puzzle: Puzzle) -> Result<Level, String> {
        let layout = Layout::new(&puzzle);
        match layout.unsupported() {
            Some(why) => Err(why),
            None => Ok(Level { puzzle, layout }),
        }
    }
}

impl Game for SlidingBlocks {
    const ID: GameId = GameId::SlidingBlocks;
    type Level = Level;

    fn is_level_path(path: &Path) -> bool {
        matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("tsv" | "txt")
        )
    }

    fn holds_levels(text: &str) -> bool {
        // A `.txt` puzzle has no tab-separated header; a `.tsv` needs the puzzle columns.
        !text.lines().next().unwrap_or("").contains('\t') || level::tsv_holds_puzzles(text)
    }

    fn sniff(text: &str) -> bool {
        level::tsv_holds_puzzles(text)
    }

    fn parse(source: &Source) -> Vec<LevelEntry<Level>> {
        let entries = if source.path.extension().is_some_and(|e| e == "tsv") {
            level::parse_tsv(source)
        } else {
            level::parse_txt(source)
        };
        entries
            .into_iter()
            .map(|LevelEntry { name, level, alone }| LevelEntry {
                name,
                alone,
                level: level.and_then(|p| Level::new(p).map_err(|why| source.error(None, why))),
            })
            .collect()
    }

    fn solve(level: &Level, ctl: &SearchControl) -> Answer {
        with_space(
            level,
            Solve {
                puzzle: &level.puzzle,
                ctl,
            },
        )
    }

    fn analyze(level: &Level, ctl: &SearchControl) -> Option<Analyzed> {
        Some(with_space(
            level,
            Analyze {
                puzzle: &level.puzzle,
                ctl,
            },
        ))
    }

    fn check(level: &Level, solution: &str) -> Result<Verdict, String> {
        notation::replay(&level.puzzle, solution).map(Verdict::moves)
    }

    fn show(level: &Level, solution: Option<&str>) -> Replay {
        draw::replay(&level.puzzle, solution)
    }
}

/// Something to do with a puzzle's search space, whatever its bitboard and key types (the
/// solver, the reachable-state count, benchmarks against other search libraries).
pub trait WithSpace {
    type Output;
    fn run<M: Bits, const N: usize>(self, space: SlidingSpace<'_, M, N>) -> Self::Output;
}

/// Builds the level's space with the smallest bitboard and key types that fit, from a fixed
/// menu of instantiations, and hands it to `user`.
pub fn with_space<U: WithSpace>(level: &Level, user: U) -> U::Output {
    with_layout(&level.layout, user)
}

/// [`with_space`] for a layout that [`Layout::unsupported`] accepts.
fn with_layout<U: WithSpace>(layout: &Layout, user: U) -> U::Output {
    match (layout.grid, layout.key_words) {
        (..=64, 1) => user.run(SlidingSpace::<u64, 1>::new(layout)),
        (..=64, 2) => user.run(SlidingSpace::<u64, 2>::new(layout)),
        (..=128, 1) => user.run(SlidingSpace::<u128, 1>::new(layout)),
        (..=128, 2) => user.run(SlidingSpace::<u128, 2>::new(layout)),
        (..=128, 3..=4) => user.run(SlidingSpace::<u128, 4>::new(layout)),
        (..=256, ..=4) => user.run(SlidingSpace::<Wide<4>, 4>::new(layout)),
        _ => user.run(SlidingSpace::<Wide<16>, { space::MAX_KEY_WORDS }>::new(
            layout,
        )),
    }
}

/// Solving: bidirectional BFS when the goal fixes every block (moves are reversible, so the
/// search can grow from both ends), else A* with the admissible block-count heuristic.
struct Solve<'a> {
    puzzle: &'a Puzzle,
    ctl: &'a SearchControl,
}

impl WithSpace for Solve<'_> {
    type Output = Answer;
    fn run<M: Bits, const N: usize>(self, space: SlidingSpace<'_, M, N>) -> Answer {
        let outcome = match space.unique_goal() {
            Some(goal) => bidirectional(&space, goal, self.ctl),
            None => astar(&space, self.ctl),
        };
        Answer::of_optimal(outcome, |path| space.notation(self.puzzle, path))
    }
}

/// Exploring every position reachable from the start (`frontier analyze`); the farthest one
/// becomes a one-puzzle `.txt` file with the level's goal.
struct Analyze<'a> {
    puzzle: &'a Puzzle,
    ctl: &'a SearchControl,
}

impl WithSpace for Analyze<'_> {
    type Output = Analyzed;
    fn run<M: Bits, const N: usize>(self, space: SlidingSpace<'_, M, N>) -> Analyzed {
        // Positions go on after the goal: a puzzle's space includes what lies beyond it.
        analyze(&space, true, self.ctl)
            .map(|a| a.map(|farthest| Some(space.level_file(self.puzzle, &farthest))))
    }
}

/// Counting every position reachable from the start (spec §4's Klotski figure).
struct CountReachable<'a> {
    ctl: &'a SearchControl,
}

impl WithSpace for CountReachable<'_> {
    type Output = Result<u64, Limit>;
    fn run<M: Bits, const N: usize>(self, space: SlidingSpace<'_, M, N>) -> Result<u64, Limit> {
        count_reachable(&space, true, self.ctl)
    }
}

/// The number of positions reachable from the start (same-shape free blocks identical).
pub fn reachable_positions(level: &Level, ctl: &SearchControl) -> Result<u64, Limit> {
    with_space(level, CountReachable { ctl })
}

#[cfg(test)]
mod tests;
