//! Ice Tower (氷塔), per `specs/ice-tower.md`: push ice into fires; walking is free, a move is
//! a push.
//!
//! - [`level`]: the multi-level file format (`level NAME` lines, grids, L1–L6).
//! - [`rules`]: the simulator (walking, pushes, slides, recyclers, golden ice, arrows): the
//!   single source of truth, used by `check` and by the reference space.
//! - [`notation`]: reading and writing `r,c,D` pushes, and the checker.
//! - [`draw`]: pictures of the level and of a replayed solution (`frontier show`).
//! - [`bits`], [`board`]: board bit sets, packed keys, the cropped cell numbering and the
//!   precomputed rays and neighbourhoods.
//! - [`space`]: the packed search space of levels without arrows (the fast path).
//! - [`bounds`]: relaxed push distances, dead states and the admissible bound for A*.
//! - [`runs`]: the golden-run bound (golden blocks alternate row and column runs).
//! - [`sim_space`]: the simulator-driven space of levels with arrows (exact magician cell).

pub mod bits;
pub mod board;
pub mod bounds;
pub mod draw;
pub mod level;
pub mod notation;
pub mod rules;
pub mod runs;
pub mod sim_space;
pub mod space;

#[cfg(test)]
mod tests;

use std::path::Path;
use std::time::Duration;

use board::{MAX_WORDS, Numbering};
use level::Puzzle;
use rules::{Dir, Ice};
use sim_space::SimSpace;
use space::{IceSpace, KeyLayout};

use crate::engine::astar::astar;
use crate::engine::beam;
use crate::engine::control::{self, Limits};
use crate::engine::{SearchControl, SearchOutcome, Space};
use crate::games::{Answer, Game, GameId, LevelEntry, Replay, Source, Verdict};

pub struct IceTower;

impl Game for IceTower {
    const ID: GameId = GameId::IceTower;
    type Level = Puzzle;

    fn is_level_path(path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "txt")
    }

    fn holds_levels(text: &str) -> bool {
        level::looks_like_levels(text)
    }

    fn sniff(text: &str) -> bool {
        level::looks_like_levels(text)
    }

    fn parse(source: &Source) -> Vec<LevelEntry<Puzzle>> {
        level::parse_file(source)
    }

    fn solve(puzzle: &Puzzle, ctl: &SearchControl) -> Answer {
        let keys = key_layout(puzzle);
        if puzzle.grid.has_arrows() {
            // Arrow levels are small: one board size, three key sizes.
            return match keys.words() {
                1..=2 => solve_arrows::<2>(puzzle, ctl),
                3..=4 => solve_arrows::<4>(puzzle, ctl),
                _ => solve_arrows::<13>(puzzle, ctl),
            };
        }
        // Board words N and key words K: K lies in N..=3N+1 (a key holds the regular ice as a
        // board set and at most two more board-sized fields), so four sizes per N cover all.
        let (n, k) = (Numbering::new(&puzzle.grid).words(), keys.words());
        macro_rules! by_size {
            ($(($n:literal, $($k:literal)*))*) => {
                match (n, k) {
                    $($((n, k) if n == $n && k <= $k => solve_packed::<$n, $k>(puzzle, ctl),)*)*
                    _ => unreachable!("a 20x14 level needs at most 4 board words"),
                }
            };
        }
        by_size!((1, 1 2 3 4) (2, 2 3 4 7) (3, 3 4 5 10) (4, 4 5 6 13))
    }

    fn check(puzzle: &Puzzle, solution: &str) -> Result<Verdict, String> {
        notation::replay(puzzle, solution).map(Verdict::moves)
    }

    fn show(puzzle: &Puzzle, solution: Option<&str>) -> Replay {
        draw::replay(puzzle, solution)
    }
}

/// The key layout of a level.
pub fn key_layout(puzzle: &Puzzle) -> KeyLayout {
    let num = Numbering::new(&puzzle.grid);
    let golden = puzzle
        .start
        .ice
        .iter()
        .filter(|&&i| i == Some(Ice::Golden))
        .count();
    let fires = puzzle
        .grid
        .tiles
        .iter()
        .filter(|&&t| t == rules::Tile::Fire)
        .count();
    KeyLayout::new(&num, golden, fires)
}

/// Optimal A* over the packed space with `N`-word boards and `K`-word keys.
fn solve_packed<const N: usize, const K: usize>(puzzle: &Puzzle, ctl: &SearchControl) -> Answer {
    let space = IceSpace::<N, K>::new(puzzle);
    answer(&space, astar(&space, ctl), ctl, |path| {
        space.pushes_of(path)
    })
}

/// Optimal A* over the simulator's space, the magician's exact cell kept (X8).
fn solve_arrows<const K: usize>(puzzle: &Puzzle, ctl: &SearchControl) -> Answer {
    let space = SimSpace::<MAX_WORDS, K>::new(puzzle, true);
    answer(&space, astar(&space, ctl), ctl, |path| {
        space.pushes_of(path)
    })
}

/// How long the search for some solution may run once the optimal search stopped at a limit,
/// unless the user says otherwise (`--anytime`); at most the level's `--timeout` again.
const ANYTIME_BUDGET: Duration = Duration::from_secs(60);
/// The memory it may use.
const ANYTIME_MEMORY: u64 = 4 << 30;
/// Its first beam width (each next one three times wider).
const ANYTIME_FIRST_WIDTH: usize = 1_000;

/// The answer of a search outcome, its path written as pushes. A search stopped by a limit
/// still proves something: A* had expanded every state with a smaller f than the one it was
/// working on (`ctl.depth()`), so no solution is shorter than that. It then still deserves a
/// solution: beams over the same space ([`beam::anytime`]) look for one, and the row is
/// `solved`, not optimal, with the optimum's bounds.
fn answer<P: Space>(
    space: &P,
    outcome: SearchOutcome<P::State>,
    ctl: &SearchControl,
    pushes_of: impl Fn(&[P::State]) -> Vec<(usize, usize, Dir)>,
) -> Answer {
    let solved = |path: &[P::State], optimal: bool, detail: String| {
        let pushes: Vec<notation::Push> = pushes_of(path)
            .into_iter()
            .map(|(row, col, dir)| notation::Push { row, col, dir })
            .collect();
        let moves = pushes.len() as u64;
        Answer::Solved {
            moves,
            optimal,
            score: moves,
            solution: notation::format(&pushes),
            detail,
        }
    };
    match outcome {
        SearchOutcome::Found(path) => solved(&path, true, String::new()),
        SearchOutcome::Exhausted => Answer::Unsolvable,
        SearchOutcome::Stopped(limit) if control::interrupted() => Answer::Limit(format!(
            "{limit}; no solution has fewer than {} pushes",
            ctl.depth()
        )),
        SearchOutcome::Stopped(limit) => {
            let lower = ctl.depth();
            // The user's budget, or the default; at most as long again as the timeout.
            let limits = ctl.limits();
            let budget = limits.anytime.unwrap_or(ANYTIME_BUDGET);
            let budget = limits.timeout.map_or(budget, |t| t.min(budget));
            // Counted into the level's states (and progress) as it runs.
            let anytime_ctl = ctl.child(Limits {
                timeout: Some(budget),
                max_bytes: Some(ANYTIME_MEMORY),
                ..Limits::default()
            });
            let found = beam::anytime(space, ANYTIME_FIRST_WIDTH, lower, budget, &anytime_ctl);
            match found {
                // Proven shortest: by a beam that dropped nothing, or by the lower bound.
                Some((path, true)) => solved(&path, true, String::new()),
                Some((path, false)) => {
                    let upper = path.len() - 1;
                    solved(
                        &path,
                        false,
                        format!("{limit}; optimum between {lower} and {upper} pushes"),
                    )
                }
                None => Answer::Limit(format!(
                    "{limit}; no solution has fewer than {lower} pushes"
                )),
            }
        }
    }
}
