//! Routes without pushes (spec §3 "Routes"): the graph of (Bender's cell, field mask) with the
//! balls as walls, searched breadth-first forwards (the shortest plain route, `plain_len`) and
//! backwards from Fry (an exact distance table over every state, which guides the program
//! search and draws random shortest routes).
//!
//! A state is the index `mask * cells + cell`; tables are dense arrays over all of them. The
//! program search reads distances millions of times a second, so it gets its own copy indexed
//! over the floor cells only and saturated to a byte, small enough to stay in cache.

use std::collections::VecDeque;

use super::rules::{Board, CellSet, DIRECTIONS, opposite};
use crate::games::TooLarge;

/// Distance of a state that cannot reach Fry (or cannot be reached).
pub const FAR: u16 = u16::MAX;

/// The most states a dense table may hold.
pub const MAX_STATES: usize = 1 << 27;

/// The (cell, mask) graph of a board with a layout of balls frozen as walls.
pub struct PlainGraph<'a> {
    pub board: &'a Board,
    /// The balls, as walls.
    balls: CellSet,
    cells: usize,
    /// Per state, moves still needed to reach Fry without pushing (`FAR`: impossible).
    to_fry: Vec<u16>,
    /// Floor number of each cell (walls: 0, never looked up).
    floor_of: Vec<u16>,
    floors: usize,
    /// `to_fry` by (mask, floor number), saturated at [`NEAR_FAR`].
    near: Vec<u8>,
}

/// The saturated distance of [`PlainGraph::near`].
pub const NEAR_FAR: u8 = u8::MAX;

/// The result of the forward search from the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlainRoute {
    /// The shortest move string that never pushes, if any.
    pub moves: Option<String>,
    /// States discovered (start included) when the search stopped at Fry or ran out.
    pub states: u64,
}

impl<'a> PlainGraph<'a> {
    /// The graph of the map's own balls, or why the map is too large for a distance table.
    pub fn new(board: &'a Board) -> Result<Self, TooLarge> {
        Self::with_balls(board, board.initial_balls().clone())
    }

    /// The graph with the balls of `balls` as walls (a layout reached by pushing).
    pub fn with_balls(board: &'a Board, balls: CellSet) -> Result<Self, TooLarge> {
        let cells = board.cells();
        let total = cells
            .checked_shl(board.switches as u32)
            .unwrap_or(usize::MAX);
        if board.switches >= 32 || total > MAX_STATES {
            return Err(TooLarge::DistanceTable);
        }
        let mut floor_of = vec![0; cells];
        let mut floors = 0;
        for (cell, f) in floor_of.iter_mut().enumerate() {
            if !board.is_wall(cell as u16) {
                *f = floors as u16;
                floors += 1;
            }
        }
        let mut graph = PlainGraph {
            board,
            balls,
            cells,
            to_fry: vec![FAR; total],
            floor_of,
            floors,
            near: Vec::new(),
        };
        graph.fill_distances();
        graph.near = vec![NEAR_FAR; floors << board.switches];
        for (i, &d) in graph.to_fry.iter().enumerate() {
            let (mask, cell) = (i / cells, i % cells);
            if !board.is_wall(cell as u16) {
                graph.near[mask * floors + graph.floor_of[cell] as usize] = d.min(255) as u8;
            }
        }
        Ok(graph)
    }

    /// Bytes of the distance tables.
    pub fn bytes(&self) -> u64 {
        (self.to_fry.len() * std::mem::size_of::<u16>() + self.near.len()) as u64
    }

    /// [`PlainGraph::to_fry`] saturated at [`NEAR_FAR`], from the compact table.
    #[inline]
    pub fn near(&self, cell: u16, mask: u32) -> u8 {
        self.near[mask as usize * self.floors + self.floor_of[cell as usize] as usize]
    }

    #[inline]
    fn index(&self, cell: u16, mask: u32) -> usize {
        mask as usize * self.cells + cell as usize
    }

    /// Moves still needed from (cell, mask) to Fry without pushing (`FAR`: impossible).
    #[inline]
    pub fn to_fry(&self, cell: u16, mask: u32) -> u16 {
        self.to_fry[self.index(cell, mask)]
    }

    /// A plain move: `None` when it is blocked (wall or ball) or deadly.
    #[inline]
    pub fn step(&self, cell: u16, mask: u32, dir: usize) -> Option<(u16, u32)> {
        let b = self.board;
        let n = b.neighbour(cell, dir);
        if b.is_wall(n) || self.balls.contains(n) {
            return None;
        }
        let mask = mask ^ b.toggle(n);
        (mask & b.field(n) == 0).then_some((n, mask))
    }

    /// Backward breadth-first search from every live state on Fry's cell.
    fn fill_distances(&mut self) {
        let b = self.board;
        let mut queue = VecDeque::new();
        for mask in 0..1u32 << b.switches {
            if mask & b.field(b.target) == 0 {
                let i = self.index(b.target, mask);
                self.to_fry[i] = 0;
                queue.push_back((b.target, mask));
            }
        }
        while let Some((n, after)) = queue.pop_front() {
            let d = self.to_fry[self.index(n, after)];
            // Entering n toggled its switch: undo it to get the mask before the move.
            let before = after ^ b.toggle(n);
            for dir in 0..4 {
                let p = b.neighbour(n, opposite(dir));
                if p == b.target || b.is_wall(p) || self.balls.contains(p) {
                    continue;
                }
                if before & b.field(p) != 0 {
                    continue;
                }
                let i = self.index(p, before);
                if self.to_fry[i] == FAR {
                    self.to_fry[i] = d + 1;
                    queue.push_back((p, before));
                }
            }
        }
    }

    /// The balls this graph treats as walls.
    pub fn balls(&self) -> &CellSet {
        &self.balls
    }

    /// The forward breadth-first search from the start (the corpus's `plain_len` and
    /// `plain_states`): states are counted when discovered, and the search stops when Fry is
    /// taken from the queue.
    pub fn shortest_from_start(&self) -> PlainRoute {
        let b = self.board;
        let total = self.to_fry.len();
        let mut parent: Vec<u32> = vec![u32::MAX; total];
        let start = self.index(b.start, b.initial_mask());
        parent[start] = start as u32;
        let mut queue = VecDeque::from([(b.start, b.initial_mask())]);
        let mut states = 1;
        let mut goal = None;
        if b.is_deadly(&b.start_pos()) {
            queue.clear();
        }
        while let Some((cell, mask)) = queue.pop_front() {
            if cell == b.target {
                goal = Some(self.index(cell, mask));
                break;
            }
            let here = self.index(cell, mask) as u32;
            for dir in 0..4 {
                if let Some((n, m)) = self.step(cell, mask, dir) {
                    let i = self.index(n, m);
                    if parent[i] == u32::MAX {
                        parent[i] = here;
                        states += 1;
                        queue.push_back((n, m));
                    }
                }
            }
        }
        let moves = goal.map(|mut i| {
            let mut moves = Vec::new();
            while parent[i] as usize != i {
                let p = parent[i] as usize;
                let (from, to) = ((p % self.cells) as u16, (i % self.cells) as u16);
                let dir = (0..4)
                    .find(|&d| b.neighbour(from, d) == to)
                    .expect("consecutive states are neighbours");
                moves.push(DIRECTIONS[dir]);
                i = p;
            }
            moves.reverse();
            String::from_utf8(moves).expect("move letters")
        });
        PlainRoute { moves, states }
    }

    /// A shortest plain route drawn at random: at every state one of the moves that brings
    /// Fry one step closer, keeping the previous direction with probability `keep`.
    pub fn random_shortest(&self, rng: &mut super::Rng, keep: f64) -> Option<String> {
        let b = self.board;
        let (mut cell, mut mask) = (b.start, b.initial_mask());
        let mut d = self.to_fry(cell, mask);
        if d == FAR {
            return None;
        }
        let mut moves = Vec::with_capacity(d as usize);
        let mut last: Option<usize> = None;
        while d > 0 {
            let mut options = [0usize; 4];
            let mut count = 0;
            for dir in 0..4 {
                if let Some((n, m)) = self.step(cell, mask, dir)
                    && self.to_fry(n, m) == d - 1
                {
                    options[count] = dir;
                    count += 1;
                }
            }
            let options = &options[..count];
            let dir = match last.filter(|l| options.contains(l)) {
                Some(l) if rng.chance(keep) => l,
                _ => options[rng.below(count)],
            };
            (cell, mask) = self.step(cell, mask, dir).expect("a listed move");
            moves.push(DIRECTIONS[dir]);
            last = Some(dir);
            d -= 1;
        }
        Some(String::from_utf8(moves).expect("move letters"))
    }
}
