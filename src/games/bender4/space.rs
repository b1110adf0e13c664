//! Routes with pushes through the engine: the packed state (Bender's cell, field mask, ball
//! cells) and the engine's [`Space`], moved by the rules' own [`Board::step_parts`].
//!
//! Packing: cells are numbered over the floor only (walls never hold anything), so a cell takes
//! `b = ceil(log2(floor cells))` bits; a state is Bender's cell, the mask (one bit per switch)
//! and the ball cells in increasing order (balls are interchangeable, so sorting makes every
//! layout one state), all in one `u128`. A corpus map needs at most 9 + 11 + 10 * 9 = 110 bits,
//! against 361 bits for a bit set over the interior, which is why the balls are a sorted list
//! here and not a bit array. Maps whose state does not fit are searched without pushes.
//!
//! The heuristic is the walk distance to Fry over the walls alone (balls and fields ignored):
//! admissible and consistent, since a move changes Bender's cell by at most one step. A weight
//! above 1 turns the search into weighted A* (faster, no longer shortest) for the maps where
//! the exact search does not finish within its budget.

use std::collections::VecDeque;

use super::rules::{Balls, Board, DIRECTIONS, Effect};
use crate::engine::{Heuristic, MoveBudget, Space, Stored};

/// The most balls a packed state holds.
pub const MAX_BALLS: usize = 24;
const NONE: u16 = u16::MAX;

/// Ball cells as a short list (linear scans beat any table for a dozen balls).
#[derive(Clone, Copy)]
struct BallList {
    cells: [u16; MAX_BALLS],
    len: usize,
}

impl Balls for BallList {
    #[inline]
    fn has(&self, cell: u16) -> bool {
        self.cells[..self.len].contains(&cell)
    }
    #[inline]
    fn roll(&mut self, from: u16, to: u16) {
        if let Some(slot) = self.cells[..self.len].iter_mut().find(|c| **c == from) {
            *slot = to;
        }
    }
}

/// The packed state space of a map with pushes.
pub struct PushSpace<'a> {
    board: &'a Board,
    /// Floor number of each cell (`NONE` for walls), and the cell of each floor number.
    floor_of: Vec<u16>,
    cell_of: Vec<u16>,
    cell_bits: u32,
    balls: usize,
    /// Walk distance to Fry over the walls alone, per cell.
    walk: Vec<u16>,
    weight: u32,
    start: u128,
}

impl<'a> PushSpace<'a> {
    /// The space of `board` with heuristic weight `weight` (1: shortest routes), or `None`
    /// when its states do not fit 128 bits.
    pub fn new(board: &'a Board, weight: u32) -> Option<Self> {
        let mut floor_of = vec![NONE; board.cells()];
        let mut cell_of = Vec::new();
        for cell in 0..board.cells() as u16 {
            if !board.is_wall(cell) {
                floor_of[cell as usize] = cell_of.len() as u16;
                cell_of.push(cell);
            }
        }
        let cell_bits = usize::BITS - (cell_of.len() - 1).leading_zeros();
        let balls = board.initial_balls().iter().count();
        let bits = cell_bits as usize * (1 + balls) + board.switches;
        if balls > MAX_BALLS || bits > 128 {
            return None;
        }
        let mut walk = vec![u16::MAX; board.cells()];
        walk[board.target as usize] = 0;
        let mut queue = VecDeque::from([board.target]);
        while let Some(c) = queue.pop_front() {
            for dir in 0..4 {
                let n = board.neighbour(c, dir);
                if !board.is_wall(n) && walk[n as usize] == u16::MAX {
                    walk[n as usize] = walk[c as usize] + 1;
                    queue.push_back(n);
                }
            }
        }
        let mut space = PushSpace {
            board,
            floor_of,
            cell_of,
            cell_bits,
            balls,
            walk,
            weight,
            start: 0,
        };
        let mut list = BallList {
            cells: [0; MAX_BALLS],
            len: balls,
        };
        for (slot, cell) in list.cells.iter_mut().zip(board.initial_balls().iter()) {
            *slot = cell;
        }
        space.start = space.pack(board.start, board.initial_mask(), list);
        Some(space)
    }

    fn pack(&self, cell: u16, mask: u32, mut balls: BallList) -> u128 {
        let b = self.cell_bits;
        let list = &mut balls.cells[..balls.len];
        list.sort_unstable();
        let mut key = 0u128;
        for &c in list.iter().rev() {
            key = key << b | u128::from(self.floor_of[c as usize]);
        }
        key = key << self.board.switches | u128::from(mask);
        key << b | u128::from(self.floor_of[cell as usize])
    }

    fn unpack(&self, key: u128) -> (u16, u32, BallList) {
        let b = self.cell_bits;
        let field = |key: u128, bits: u32| (key & ((1u128 << bits) - 1)) as usize;
        let cell = self.cell_of[field(key, b)];
        let mut rest = key >> b;
        let mask = field(rest, self.board.switches as u32) as u32;
        rest >>= self.board.switches;
        let mut balls = BallList {
            cells: [0; MAX_BALLS],
            len: self.balls,
        };
        for slot in &mut balls.cells[..self.balls] {
            *slot = self.cell_of[field(rest, b)];
            rest >>= b;
        }
        (cell, mask, balls)
    }

    /// The move from `state` that leads to `next`, if any.
    fn move_between(&self, state: u128, next: u128) -> Option<usize> {
        let unpacked = self.unpack(state);
        (0..4).find(|&dir| self.apply(unpacked, dir) == Some(next))
    }

    /// The state after a move from the unpacked state, `None` when it is blocked or loses.
    #[inline]
    fn apply(
        &self,
        (mut cell, mut mask, mut balls): (u16, u32, BallList),
        dir: usize,
    ) -> Option<u128> {
        let effect = self.board.step_parts(&mut cell, &mut mask, &mut balls, dir);
        let survives = effect != Effect::Blocked
            && !self.board.is_deadly_at(cell, mask)
            && !self.board.squashes_fry(effect);
        survives.then(|| self.pack(cell, mask, balls))
    }

    /// A path of states as a move string.
    pub fn moves(&self, path: &[u128]) -> String {
        path.windows(2)
            .map(|w| {
                let dir = self
                    .move_between(w[0], w[1])
                    .expect("consecutive states of a path are one move apart");
                DIRECTIONS[dir] as char
            })
            .collect()
    }
}

impl Space for PushSpace<'_> {
    type State = u128;

    fn start(&self) -> u128 {
        self.start
    }

    fn successors(&self, state: &u128, out: &mut Vec<u128>) {
        let unpacked = self.unpack(*state);
        out.extend((0..4).filter_map(|dir| self.apply(unpacked, dir)));
    }

    fn is_goal(&self, state: &u128) -> bool {
        let cell = self.cell_of[(*state & ((1u128 << self.cell_bits) - 1)) as usize];
        cell == self.board.target
    }
}

impl Stored for PushSpace<'_> {}

impl MoveBudget for PushSpace<'_> {}

impl Heuristic for PushSpace<'_> {
    fn heuristic(&self, state: &u128) -> Option<u32> {
        let cell = self.cell_of[(*state & ((1u128 << self.cell_bits) - 1)) as usize];
        let d = self.walk[cell as usize];
        (d != u16::MAX).then_some(u32::from(d) * self.weight)
    }
}
