//! Sliding-block puzzles (Klotski, Professor Layton), per `specs/sliding-blocks.md`.
//!
//! - [`level`]: the `.tsv` and `.txt` formats and the grids inside them.
//! - [`rules`]: the puzzle model and unit-step simulator (the source of truth for `check`).
//! - [`bits`], [`space`]: packed keys, placement tables and the engine's search space.
//! - [`notation`]: reading and replaying `a:RRD` move lists.

pub mod bits;
pub mod level;
pub mod notation;
pub mod rules;
pub mod space;

use std::path::Path;

use bits::{CellSet, Wide};
use rules::Puzzle;
use space::{Layout, SlidingSpace};

use crate::engine::astar::astar;
use crate::engine::{SearchControl, SearchOutcome};
use crate::games::{Answer, Game, GameId, LevelEntry, Source, Verdict};

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
            .map(|LevelEntry { name, level }| LevelEntry {
                name,
                level: level.and_then(|p| Level::new(p).map_err(|why| source.error(None, why))),
            })
            .collect()
    }

    fn solve(level: &Level, ctl: &SearchControl) -> Answer {
        let (puzzle, layout) = (&level.puzzle, &level.layout);
        match (layout.cell_count <= 128, layout.key_words) {
            (true, 1) => solve_with::<u128, 1>(puzzle, layout, ctl),
            (true, 2) => solve_with::<u128, 2>(puzzle, layout, ctl),
            (true, 3 | 4) => solve_with::<u128, 4>(puzzle, layout, ctl),
            (true, _) => solve_with::<u128, { space::MAX_KEY_WORDS }>(puzzle, layout, ctl),
            (false, 1..=4) => solve_with::<Wide<16>, 4>(puzzle, layout, ctl),
            (false, _) => solve_with::<Wide<16>, { space::MAX_KEY_WORDS }>(puzzle, layout, ctl),
        }
    }

    fn check(level: &Level, solution: &str) -> Result<Verdict, String> {
        notation::replay(&level.puzzle, solution).map(Verdict::moves)
    }
}

/// A* search (admissible block-count heuristic) with `M` as the cell set and `N`-word keys.
fn solve_with<M: CellSet, const N: usize>(
    puzzle: &Puzzle,
    layout: &Layout,
    ctl: &SearchControl,
) -> Answer {
    let space = SlidingSpace::<M, N>::new(layout);
    match astar(&space, ctl) {
        SearchOutcome::Found(path) => Answer::Solved {
            moves: path.len() as u64 - 1,
            optimal: true,
            score: path.len() as u64 - 1,
            solution: space.notation(puzzle, &path),
        },
        SearchOutcome::Exhausted => Answer::Unsolvable,
        SearchOutcome::Stopped(limit) => Answer::Limit(limit.to_string()),
    }
}
