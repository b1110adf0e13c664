//! The engine's view of a capture board: the packed [`Board`] is the state.
//!
//! - Successors: every legal swap with its whole resolution, duplicates dropped (different
//!   swaps often leave the same board).
//! - Canonical form: a board and its left–right mirror image are one state (the smaller of the
//!   two). The rules and the goal (the empty board) are mirror-symmetric, so both are the same
//!   number of swaps from the goal; many capture boards are drawn symmetric, which halves them.
//! - Heuristic: `None` for the §4 dead states ([`Board::is_dead`]), which are then never
//!   stored; 0 on the empty board; else at least 1, and on boards with at most one flaming
//!   skull the column-travel bound of [`super::bound`] (one swap can clear any amount through
//!   cascades, so the count of gems gives nothing; how far gems must still travel sideways,
//!   one swap at a time, does).
//! - Tiebreak (for [`crate::engine::astar::ordered_astar`]): fewer gems first.
//! - Depth bound ([`MoveBudget::max_depth`]): the board's move budget (`moves=N`).

use super::board::Board;
use super::bound::Tables;
use super::level::Level;
use super::notation::find_swap;
use crate::engine::{Heuristic, MoveBudget, Space, Stored};

/// Which of the sound reductions a search uses (all on by default; the tests turn them off to
/// show that they never change an answer).
#[derive(Clone, Copy, Debug)]
pub struct Reductions {
    /// Merge each board with its mirror image.
    pub mirror: bool,
    /// Drop the §4 dead states.
    pub dead_states: bool,
    /// Use the column-travel lower bound of [`super::bound`] (else 1 on any non-empty board).
    pub column_bound: bool,
}

impl Default for Reductions {
    fn default() -> Self {
        Reductions {
            mirror: true,
            dead_states: true,
            column_bound: true,
        }
    }
}

/// The most swaps a board offers: every pair of neighbouring cells.
const MAX_SWAPS: usize = 2 * 8 * 7;

pub struct CaptureSpace<'a> {
    level: &'a Level,
    start: Board,
    reductions: Reductions,
    tables: &'static Tables,
}

impl<'a> CaptureSpace<'a> {
    pub fn new(level: &'a Level, reductions: Reductions) -> Self {
        CaptureSpace {
            level,
            start: Board::from_grid(&level.grid),
            reductions,
            tables: Tables::get(),
        }
    }

    /// Turns a path of states (as stored: canonical) into swaps, replaying it on the reference
    /// simulator from the level's grid. Each step looks for the swap whose result has the next
    /// state's canonical form (with mirroring, the real board may be the mirror of the stored
    /// one; its successors are then the mirrors of the stored successors). Should the packed
    /// and the reference simulators ever disagree, the swaps stop with a `no-such-swap` token,
    /// which `check` rejects, so the level ends as an error row rather than a crash.
    pub fn notation(&self, path: &[Board]) -> String {
        let mut grid = self.level.grid;
        let mut swaps = Vec::with_capacity(path.len().saturating_sub(1));
        for next in path.iter().skip(1) {
            match find_swap(&grid, |g| self.canonical(Board::from_grid(g)) == *next) {
                Some((swap, after)) => {
                    swaps.push(swap.to_string());
                    grid = after;
                }
                None => {
                    swaps.push("no-such-swap".to_string());
                    break;
                }
            }
        }
        swaps.join(" ")
    }
}

impl Space for CaptureSpace<'_> {
    type State = Board;

    fn start(&self) -> Board {
        self.start
    }

    #[inline]
    fn successors(&self, state: &Board, out: &mut Vec<Board>) {
        // Fingerprints of the boards pushed so far, compared before whole boards.
        let mut seen = [0u64; MAX_SWAPS];
        let first = out.len();
        state.for_each_swap(|next, _, _| {
            let print = next.fingerprint();
            let pushed = &seen[..out.len() - first];
            if !pushed
                .iter()
                .zip(&out[first..])
                .any(|(&p, board)| p == print && *board == next)
            {
                seen[out.len() - first] = print;
                out.push(next);
            }
        });
    }

    #[inline]
    fn is_goal(&self, state: &Board) -> bool {
        state.is_empty()
    }

    #[inline]
    fn canonical(&self, state: Board) -> Board {
        if self.reductions.mirror {
            state.min(state.mirrored())
        } else {
            state
        }
    }
}

impl Stored for CaptureSpace<'_> {}

impl Heuristic for CaptureSpace<'_> {
    #[inline]
    fn heuristic(&self, state: &Board) -> Option<u32> {
        if state.is_empty() {
            return Some(0);
        }
        let kinds = state.kinds();
        if self.reductions.dead_states && state.is_dead(&kinds) {
            return None;
        }
        if !self.reductions.column_bound {
            return Some(1);
        }
        match self.tables.lower_bound(&kinds, state.flaming()) {
            Some(h) => Some(h.max(1)),
            None if self.reductions.dead_states => None,
            None => Some(1),
        }
    }

    /// Fewer gems first: a board one swap from empty is almost always a small one.
    #[inline]
    fn work_left(&self, state: &Board) -> u32 {
        state.occupied().count_ones()
    }
}

impl MoveBudget for CaptureSpace<'_> {
    /// The board's move budget (`moves=N`).
    fn max_depth(&self) -> Option<u32> {
        self.level.move_limit
    }
}
