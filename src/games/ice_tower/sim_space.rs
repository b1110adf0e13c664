//! A search space that runs the simulator itself on every push: the space of levels with arrows,
//! whose directed walking (X6–X8) the fast tables do not model, and the reference that the fast
//! space is tested against.
//!
//! Keys have the layout of [`IceSpace`]. With arrows the magician field holds his exact cell
//! (X8); otherwise it holds his region id, the lowest bit of the region the simulator walks.
//! The bound is the safe one of spec §4: without golden ice every push puts out at most one
//! fire, so at least as many pushes as burning fires remain (and fewer regular blocks than
//! fires is dead); with golden ice one push while a fire burns.

use super::bits::{Bits, Key};
use super::level::Puzzle;
use super::rules::{Dir, Ice, Position};
use super::space::{IceSpace, PushMove, Unpacked, pushes_along};
use crate::engine::{Heuristic, MoveBudget, Space, Stored};

pub struct SimSpace<'a, const N: usize, const K: usize> {
    puzzle: &'a Puzzle,
    /// For the key layout and packing.
    packed: IceSpace<N, K>,
    /// Keep the magician's exact cell instead of his region id.
    exact: bool,
    has_golden: bool,
}

impl<'a, const N: usize, const K: usize> SimSpace<'a, N, K> {
    pub fn new(puzzle: &'a Puzzle, exact: bool) -> Self {
        SimSpace {
            puzzle,
            packed: IceSpace::new(puzzle),
            exact,
            has_golden: puzzle.start.ice.contains(&Some(Ice::Golden)),
        }
    }

    /// The simulator's position of a key.
    pub fn position(&self, key: &Key<K>) -> Position {
        let u = self.packed.unpack(key);
        let num = &self.packed.board.num;
        let cells = self.puzzle.grid.tiles.len();
        let mut pos = Position {
            ice: vec![None; cells],
            burning: vec![false; cells],
            magician: num.cell(u.magician),
        };
        for b in u.regular.ones() {
            pos.ice[num.cell(b)] = Some(Ice::Regular);
        }
        for b in u.golden.ones() {
            pos.ice[num.cell(b)] = Some(Ice::Golden);
        }
        for b in u.burning.ones() {
            pos.burning[num.cell(b)] = true;
        }
        pos
    }

    /// The key of a simulator position.
    pub fn key(&self, pos: &Position) -> Key<K> {
        let num = &self.packed.board.num;
        let bit = |cell: usize| num.bit(cell).expect("things lie on open cells");
        let magician = if self.exact {
            bit(pos.magician)
        } else {
            let reach = self.puzzle.grid.reachable(pos);
            (0..reach.len())
                .filter(|&c| reach[c])
                .map(bit)
                .min()
                .expect("the magician reaches his own cell")
        };
        let mut u = Unpacked {
            regular: Bits::EMPTY,
            golden: Bits::EMPTY,
            burning: Bits::EMPTY,
            fire_set: Bits::EMPTY,
            magician,
        };
        for (cell, ice) in pos.ice.iter().enumerate() {
            match ice {
                Some(Ice::Regular) => u.regular.set(bit(cell)),
                Some(Ice::Golden) => u.golden.set(bit(cell)),
                None => {}
            }
        }
        for (j, &f) in self.packed.fire_cell.iter().enumerate() {
            if pos.burning[num.cell(f as usize)] {
                u.fire_set.set(j);
            }
        }
        self.packed.pack(&u)
    }

    /// Calls `visit` with every legal push of `key` and the successor key.
    pub fn for_each_push(&self, key: &Key<K>, mut visit: impl FnMut(PushMove, Key<K>)) {
        let grid = &self.puzzle.grid;
        let pos = self.position(key);
        let reach = grid.reachable(&pos);
        for cell in (0..pos.ice.len()).filter(|&c| pos.ice[c].is_some()) {
            for dir in Dir::ALL {
                if let Ok((next, _)) = grid.push(&pos, &reach, cell, dir) {
                    let block = self
                        .packed
                        .board
                        .num
                        .bit(cell)
                        .expect("ice is on the board");
                    visit(PushMove { block, dir }, self.key(&next));
                }
            }
        }
    }

    /// The pushes between consecutive keys of a path, as (row, col, dir) of the grid.
    pub fn pushes_of(&self, path: &[Key<K>]) -> Vec<(usize, usize, Dir)> {
        pushes_along(
            path,
            &self.packed.board.num,
            |key, visit| self.for_each_push(key, visit),
            |key| key,
        )
    }
}

impl<const N: usize, const K: usize> Space for SimSpace<'_, N, K> {
    type State = Key<K>;

    fn start(&self) -> Key<K> {
        self.key(&self.puzzle.start)
    }

    fn successors(&self, state: &Key<K>, out: &mut Vec<Key<K>>) {
        self.for_each_push(state, |_, next| out.push(next));
    }

    fn is_goal(&self, state: &Key<K>) -> bool {
        self.packed.is_goal(state)
    }
}

impl<const N: usize, const K: usize> Stored for SimSpace<'_, N, K> {}

impl<const N: usize, const K: usize> MoveBudget for SimSpace<'_, N, K> {}

impl<const N: usize, const K: usize> Heuristic for SimSpace<'_, N, K> {
    /// Fires still burning: what beams keep fewest of first.
    fn work_left(&self, state: &Key<K>) -> u32 {
        self.packed.work_left(state)
    }

    fn heuristic(&self, state: &Key<K>) -> Option<u32> {
        let burning = self.packed.fire_set_of(state).count();
        if self.has_golden {
            Some(u32::from(burning > 0))
        } else {
            (self.packed.regular_of(state).count() >= burning).then_some(burning)
        }
    }
}
