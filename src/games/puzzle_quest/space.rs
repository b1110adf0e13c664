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

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, VecDeque};

    use super::*;
    use crate::games::puzzle_quest::rules::{Grid, SIDE, Tile};
    use crate::games::puzzle_quest::testing::{level_of, packed_successors};

    /// Every board reachable from `start` with its successors, or `None` past `limit` boards.
    fn reachable(start: Board, limit: usize) -> Option<HashMap<Board, Vec<Board>>> {
        let mut graph = HashMap::new();
        let mut queue = VecDeque::from([start]);
        while let Some(board) = queue.pop_front() {
            if graph.contains_key(&board) {
                continue;
            }
            if graph.len() >= limit {
                return None;
            }
            let successors: Vec<Board> = packed_successors(&board).into_iter().collect();
            queue.extend(successors.iter().copied());
            graph.insert(board, successors);
        }
        Some(graph)
    }

    /// The exact number of swaps from each board of `graph` to the empty board (absent: never).
    fn distances(graph: &HashMap<Board, Vec<Board>>) -> HashMap<Board, u32> {
        let mut predecessors: HashMap<Board, Vec<Board>> = HashMap::new();
        for (&board, successors) in graph {
            for &next in successors {
                predecessors.entry(next).or_default().push(board);
            }
        }
        let mut distance = HashMap::from([(Board::EMPTY, 0)]);
        let mut queue = VecDeque::from([Board::EMPTY]);
        while let Some(board) = queue.pop_front() {
            let d = distance[&board];
            for &p in predecessors.get(&board).into_iter().flatten() {
                if let std::collections::hash_map::Entry::Vacant(e) = distance.entry(p) {
                    e.insert(d + 1);
                    queue.push_back(p);
                }
            }
        }
        distance
    }

    /// A deterministic pseudo-random stable board of `groups` groups of three gems of one kind of
    /// `alphabet`, each group dropped into columns near a random centre (a gem or two may have to
    /// travel to line up with the others), in random order.
    fn grouped_board(seed: &mut u64, alphabet: &[u8], groups: usize) -> Grid {
        let mut next = |n: usize| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            (*seed % n as u64) as usize
        };
        loop {
            let mut drops = Vec::new();
            for _ in 0..groups {
                let kind = alphabet[next(alphabet.len())];
                let centre = next(SIDE);
                for _ in 0..3 {
                    let col = (centre + next(5)).saturating_sub(2).min(SIDE - 1);
                    drops.push((next(1000), kind, col));
                }
            }
            drops.sort_unstable();
            let mut g = Grid::EMPTY;
            let mut heights = [0; SIDE];
            for (_, kind, col) in drops {
                if heights[col] < SIDE {
                    heights[col] += 1;
                    g.cells[SIDE - heights[col]][col] = Tile::from_char(kind as char).unwrap();
                }
            }
            if !g.has_line() {
                return g;
            }
        }
    }

    #[test]
    fn dead_states_and_the_lower_bound_are_sound_on_whole_small_state_spaces() {
        // On random boards (with and without flaming skulls) every reachable board is checked: a
        // dead board is never one from which the empty board can be reached, and the bound drops
        // by at most 1 per swap (consistent), which with 0 on the empty board makes it admissible;
        // on the boards that can be emptied, it is also checked against the exact distance.
        let level = level_of(Grid::EMPTY, None);
        let space = CaptureSpace::new(&level, Reductions::default());
        let alphabets: [&[u8]; 4] = [b"rgb", b"rgbs", b"rgsS", b"ypsS"];
        let mut seed = 0x2545_F491_4F6C_DD1D;
        let (mut boards, mut edges, mut solvable, mut above_one, mut exact) = (0, 0, 0, 0, 0);
        for round in 0..1000 {
            let alphabet = alphabets[round % alphabets.len()];
            let start = Board::from_grid(&grouped_board(&mut seed, alphabet, 6 + round % 4));
            let Some(graph) = reachable(start, 20_000) else {
                continue;
            };
            let distance = distances(&graph);
            for (board, successors) in &graph {
                boards += 1;
                let h = space.heuristic(board);
                match (h, distance.get(board)) {
                    (None, Some(d)) => {
                        panic!("dead but {d} swaps from empty:\n{}", board.to_grid())
                    }
                    (Some(h), Some(&d)) => {
                        assert!(h <= d, "bound {h} > distance {d}:\n{}", board.to_grid());
                        solvable += 1;
                        above_one += usize::from(h >= 2);
                        exact += usize::from(h >= 2 && h == d);
                    }
                    _ => {}
                }
                for next in successors {
                    if let (Some(h), Some(h_next)) = (h, space.heuristic(next)) {
                        edges += 1;
                        assert!(
                            h <= h_next + 1,
                            "bound {h} then {h_next} after one swap:\n{}\n\n{}",
                            board.to_grid(),
                            next.to_grid()
                        );
                    }
                }
            }
        }
        assert_eq!(space.heuristic(&Board::EMPTY), Some(0));
        assert!(
            boards >= 50_000 && edges >= 100_000,
            "{boards} boards, {edges} swaps"
        );
        assert!(
            solvable >= 1000 && above_one >= 100 && exact >= 20,
            "{solvable} boards that can be emptied, {above_one} with a bound of 2 or more, {exact} exact"
        );
    }
}
