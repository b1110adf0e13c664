//! Ice Tower (氷塔), per `docs/ice-tower.md`: push ice into fires; walking is free, a move is
//! a push.
//!
//! - [`level`]: the multi-level file format (`level NAME` lines, grids, L1–L6).
//! - [`rules`]: the simulator (walking, pushes, slides, recyclers, golden ice, arrows): the
//!   single source of truth, used by `check` and by the reference space.
//! - [`notation`]: reading and writing `r,c,D` pushes, and the checker.
//! - [`draw`]: pictures of the level and of a replayed solution (`frontier show`).
//! - [`bits`], [`board`]: board bit sets and packed keys (the shared ones of `games/packed/`),
//!   fire sets, the cropped cell numbering and the precomputed rays and neighbourhoods.
//! - [`keys`]: the key layout, each field sized to what it can hold.
//! - [`space`]: the packed search space of levels without arrows (the fast path).
//! - [`bounds`]: relaxed push distances, dead states and the admissible bound for A*.
//! - [`runs`]: the golden-run bound (golden blocks alternate row and column runs).
//! - [`pattern`]: the golden-pattern table (exact distances of the golden blocks and a pattern
//!   of fires, regular ice forgotten), built at level load.
//! - [`symmetry`]: the level's reflections and rotations; a symmetric level's search stores one
//!   position per class of images.
//! - [`sim_space`]: the simulator-driven space of levels with arrows (exact magician cell).

pub mod bits;
pub mod board;
pub mod bounds;
pub mod draw;
pub mod keys;
pub mod level;
pub mod notation;
pub mod pattern;
pub mod rules;
pub mod runs;
pub mod sim_space;
pub mod space;
pub mod symmetry;

#[cfg(test)]
mod tests;

use std::path::Path;
use std::time::Duration;

use board::{MAX_WORDS, Numbering};
use keys::KeyLayout;
use level::Puzzle;
use rules::{Dir, Ice};
use sim_space::SimSpace;
use space::IceSpace;

use crate::engine::control::{self, Limits};
use crate::engine::{Bounded, Heuristic, Limit, MoveBudget, SearchControl, SearchOutcome};
use crate::games::{Analyzed, Answer, Game, GameId, LevelEntry, Proof, Replay, Source, Verdict};
use crate::search::{self, Portable, astar_in_rounds};

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
        with_space(puzzle, Solve { ctl })
    }

    fn analyze(puzzle: &Puzzle, ctl: &SearchControl) -> Option<Analyzed> {
        Some(with_space(puzzle, Analyze { ctl }))
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
    KeyLayout::new(&puzzle.grid, &num, golden, fires)
}

/// Something to do with a level's search space, whatever its packed types: the packed space
/// of levels without arrows, or the simulator's space of levels with arrows.
trait WithSpace {
    type Output;
    /// Runs on `space`, whose paths `pushes_of` turns into pushes.
    fn run<P: Heuristic + MoveBudget>(
        self,
        space: &P,
        pushes_of: impl Fn(&[P::State]) -> Vec<(usize, usize, Dir)>,
    ) -> Self::Output
    where
        P::State: Portable;
}

/// Builds the level's space with the smallest board and key words that fit and hands it to
/// `user`: the simulator's space, the magician's exact cell kept (X8), for levels with arrows,
/// else the packed space with `N`-word boards and `K`-word keys.
fn with_space<U: WithSpace>(puzzle: &Puzzle, user: U) -> U::Output {
    fn packed<const N: usize, const K: usize, U: WithSpace>(puzzle: &Puzzle, user: U) -> U::Output {
        let space = IceSpace::<N, K>::new(puzzle);
        user.run(&space, |path| space.pushes_of(path))
    }
    fn arrows<const K: usize, U: WithSpace>(puzzle: &Puzzle, user: U) -> U::Output {
        let space = SimSpace::<MAX_WORDS, K>::new(puzzle, true);
        user.run(&space, |path| space.pushes_of(path))
    }
    let keys = key_layout(puzzle);
    if puzzle.grid.has_arrows() {
        // Arrow levels are small: one board size, three key sizes.
        return match keys.words() {
            1..=2 => arrows::<2, U>(puzzle, user),
            3..=4 => arrows::<4, U>(puzzle, user),
            _ => arrows::<13, U>(puzzle, user),
        };
    }
    // Board words N and key words K: K is at most 3N+1 (a key holds regular ice, golden ice
    // and fires, each at most a board set, and the magician), so four sizes per N cover
    // all; a smaller K takes the first size that fits.
    let (n, k) = (Numbering::new(&puzzle.grid).words(), keys.words());
    macro_rules! by_size {
        ($(($n:literal, $($k:literal)*))*) => {
            match (n, k) {
                $($((n, k) if n == $n && k <= $k => packed::<$n, $k, U>(puzzle, user),)*)*
                _ => unreachable!("a 20x14 level needs at most 4 board words"),
            }
        };
    }
    by_size!((1, 1 2 3 4) (2, 2 3 4 7) (3, 3 4 5 10) (4, 4 5 6 13))
}

/// Solving, in the three steps of [`solve_space`].
struct Solve<'a> {
    ctl: &'a SearchControl,
}

impl WithSpace for Solve<'_> {
    type Output = Answer;
    fn run<P: Heuristic + MoveBudget>(
        self,
        space: &P,
        pushes_of: impl Fn(&[P::State]) -> Vec<(usize, usize, Dir)>,
    ) -> Answer
    where
        P::State: Portable,
    {
        solve_space(space, self.ctl, pushes_of)
    }
}

/// Exploring every state reachable from the start (`frontier analyze`).
struct Analyze<'a> {
    ctl: &'a SearchControl,
}

impl WithSpace for Analyze<'_> {
    type Output = Analyzed;
    fn run<P: Heuristic + MoveBudget>(
        self,
        space: &P,
        _: impl Fn(&[P::State]) -> Vec<(usize, usize, Dir)>,
    ) -> Analyzed
    where
        P::State: Portable,
    {
        // The last fire put out ends the level.
        search::analyze(space, false, self.ctl).map(|a| a.map(|_| None))
    }
}

/// The width of the beam that looks for a first solution before the optimal search.
const FIRST_BEAM_WIDTH: usize = 1_000;
/// The states a single A* may store before the proof goes on in rounds of growing f-bounds
/// ([`astar_in_rounds`]): every official level but H-49 is proven within it, as one A* (the
/// rounds would expand their states again: w21, 21 pushes, took 3.4 times as long), and
/// H-49 reaches it within seconds.
const PLAIN_ASTAR_STATES: u64 = 1 << 22;
/// How long the search for a better solution may run once the optimal search stopped at a
/// limit, when the level has no time budget and the user says nothing (`--anytime`).
const ANYTIME_BUDGET: Duration = Duration::from_secs(60);
/// The part of a level's time budget kept for that search (one in this many) unless the user
/// says otherwise.
const ANYTIME_SHARE: u32 = 4;
/// The memory it may use.
const ANYTIME_MEMORY: u64 = 4 << 30;

/// How much of the level's time the search for a better solution gets: the user's
/// `--anytime`, else a quarter of the level's time budget, else [`ANYTIME_BUDGET`].
fn anytime_reserve(limits: Limits) -> Duration {
    match (limits.anytime, limits.timeout) {
        (Some(anytime), _) => anytime,
        (None, Some(timeout)) => timeout / ANYTIME_SHARE,
        (None, None) => ANYTIME_BUDGET,
    }
}

/// Solves a level in three steps:
/// 1. A narrow beam ([`search::beam`], fires burning first) looks for some solution. On a small
///    level it never drops a state, and then it was a breadth-first search: its answer is the
///    optimum (or proves there is none).
/// 2. A* proves the optimum. A solution of `n` pushes from the beam prunes it ([`Bounded`]):
///    nothing with f above `n − 1` is stored, and A* ending without a shorter solution proves
///    the beam's optimal. Past [`PLAIN_ASTAR_STATES`] it goes on in rounds of growing f-bounds
///    ([`astar_in_rounds`]), each storing only states within its bound: on a level too large
///    to finish (H-49) that is about a seventh of what a single A* would hold at the same
///    proven bound.
/// 3. When a limit stops A*, it has still proven something: every state with a smaller f than
///    the one it was working on (its control's `depth`) was expanded, so no solution is
///    shorter. Beams of growing width ([`search::anytime`]) then look for a better solution than
///    the first beam's, and the row is `solved`, not optimal, with the optimum's bounds.
///
/// The level's time budget (`--timeout`) covers all three: A* stops early enough to leave the
/// beams their reserve ([`anytime_reserve`]), and the beams stop when the budget is spent.
fn solve_space<P: Heuristic + MoveBudget>(
    space: &P,
    ctl: &SearchControl,
    pushes_of: impl Fn(&[P::State]) -> Vec<(usize, usize, Dir)>,
) -> Answer
where
    P::State: Portable,
{
    let solved = |path: &[P::State], proof: Proof| {
        let pushes: Vec<notation::Push> = pushes_of(path)
            .into_iter()
            .map(|(row, col, dir)| notation::Push { row, col, dir })
            .collect();
        let moves = pushes.len() as u64;
        Answer::Solved {
            moves,
            score: moves,
            solution: notation::format(&pushes),
            proof,
            note: String::new(),
        }
    };
    // Counted into the level's states (and progress) as it runs; its width bounds its memory,
    // and the level's memory budget too (a child's limit is never above its parent's).
    let first = search::beam(space, FIRST_BEAM_WIDTH, &ctl.child(Limits::default()));
    let known = match first.outcome {
        SearchOutcome::Found(path) if first.exact => return solved(&path, Proof::Optimal),
        SearchOutcome::Exhausted if first.exact => return Answer::Unsolvable,
        // Not even the narrow beam fits the memory budget: neither would A* nor wider beams.
        SearchOutcome::Stopped(limit @ Limit::Memory(_)) => return Answer::limit(limit),
        SearchOutcome::Found(path) => Some(path),
        _ => None,
    };
    let limits = ctl.budget.limits;
    let reserve = anytime_reserve(limits);
    let proof_ctl = ctl.child(Limits {
        timeout: limits.timeout.map(|budget| {
            budget
                .saturating_sub(reserve)
                .saturating_sub(ctl.budget.elapsed())
        }),
        ..limits
    });
    let outcome = match &known {
        Some(path) => {
            let max_depth = (path.len() - 2) as u32;
            astar_in_rounds(
                &Bounded { space, max_depth },
                &proof_ctl,
                PLAIN_ASTAR_STATES,
            )
        }
        None => astar_in_rounds(space, &proof_ctl, PLAIN_ASTAR_STATES),
    };
    let limit = match outcome {
        SearchOutcome::Found(path) => return solved(&path, Proof::Optimal),
        SearchOutcome::Exhausted => {
            return match known {
                Some(path) => solved(&path, Proof::Optimal),
                None => Answer::Unsolvable,
            };
        }
        // The proof stopped early to leave the beams their time: what the row reports is the
        // level's budget.
        SearchOutcome::Stopped(Limit::Time(stopped)) => {
            Limit::Time(limits.timeout.unwrap_or(stopped))
        }
        SearchOutcome::Stopped(limit) => limit,
    };
    let lower = proof_ctl.progress.depth();
    let mut best = known;
    if !control::interrupted() {
        // The reserve, and never past the level's budget.
        let budget = limits.timeout.map_or(reserve, |t| {
            reserve.min(t.saturating_sub(ctl.budget.elapsed()))
        });
        // Within the level's memory budget too, when that is smaller (see `child`).
        let anytime_ctl = ctl.child(Limits {
            timeout: Some(budget),
            max_bytes: Some(ANYTIME_MEMORY),
            ..Limits::default()
        });
        let wider = 3 * FIRST_BEAM_WIDTH;
        // The first beam's solution bounds the wider beams: they look for shorter ones only.
        match search::anytime(space, wider, lower, best.take(), budget, &anytime_ctl) {
            // Proven shortest: by a beam that dropped nothing, or by the lower bound.
            Some((path, true)) => return solved(&path, Proof::Optimal),
            found => best = found.map(|(path, _)| path),
        }
    }
    match best {
        Some(path) if path.len() as u64 - 1 <= lower => solved(&path, Proof::Optimal),
        // Answers found after an interrupt are dropped by the harness; only the bound stands.
        Some(path) if !control::interrupted() => solved(
            &path,
            Proof::Bounded {
                limit: limit.into(),
                lower,
            },
        ),
        _ => Answer::Limit {
            limit: limit.into(),
            lower: Some(lower),
        },
    }
}
