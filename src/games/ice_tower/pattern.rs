//! The golden-pattern table: a pattern database of a level with one or two golden blocks. It
//! holds the exact push distances of an abstraction that keeps the golden blocks and a pattern
//! of fires and forgets the regular ice, computed once when the level is loaded and looked up
//! per state in one read.
//!
//! **The abstraction.** An abstract state is the cells of the golden blocks and the burning
//! fires of the pattern `P`. Here `P` is every fire of the level, and a table is built only
//! where it has at most [`MAX_ENTRIES`] states (a few milliseconds of building at most). Its
//! moves:
//! - *a melt*, cost 1: any burning fire of `P` that regular ice can reach from the cells of
//!   the start's regular blocks (relaxed push distances, [`super::bounds`]) goes out;
//! - *a golden push*, cost 1: a golden block at `a` moves towards `d` when the push cell `a − d`
//!   is a cell the magician may stand on and holds neither a burning fire of `P` nor the other
//!   golden block, and `a + d` is open and not the other golden block. It slides, putting out
//!   the fires of `P` it crosses, and rests on a cell `x` of its ray (never past the other
//!   golden block) such that `x + d` is a wall, the other golden block, or a cell where a
//!   regular block can rest (in the relaxed regular reach of the start's regular blocks, so
//!   never a recycler) that is not a burning fire of `P`.
//!
//! **Admissible and consistent.** Map a real state to its golden cells and its burning fires of
//! `P`. Every real push is an abstract move of cost 1 or a stay of cost 0: a regular push that
//! melts a fire of `P` is a melt (the fire is in reach of regular ice); any other regular push
//! changes neither the golden cells nor the fires of `P`; a golden push is an abstract golden
//! push, because the real one needs a walkable push cell (no block, no burning fire: not the
//! other golden block, not a burning fire of `P`), a free cell in front, and rests in front of
//! a wall or a block: the other golden block, or a regular block, which stands on a cell of the
//! relaxed regular reach and never on a recycler or a burning fire; it crosses the same fires.
//! A real goal (nothing burns) maps to an abstract goal. So the abstract distance of a state is
//! at most its real distance, and it drops by at most 1 per real push. An abstract state with no
//! way to a goal is a real state with none: [`PatternTable::bound`] calls it dead.
//!
//! **Its limit** (docs/h49.md): a melt costs 1, so no table says more than the number of
//! pattern fires that burn. A table over a part of a large level's fires was measured on H-49
//! (3 of its 25 fires fit: worth 3 where the bound says 9) and on C-99 (5 of 10: no state fewer)
//! and cost up to 18 ms to build, so a level gets a table only when every fire fits.
//!
//! **Building** ([`PatternTable::new`]): burning sets are taken in increasing order (a push only
//! puts fires out, and a subset is a smaller number), so moves that put a fire out lead to
//! distances already final; the golden pushes that put none out are then relaxed within the set
//! until nothing changes.

use super::bits::{Bits, FireSet};
use super::board::Board;
use super::bounds::{NEVER, relaxed_distances};
use super::rules::Dir;

/// The most entries (one byte each) of a table: it is built in milliseconds at level load.
pub const MAX_ENTRIES: usize = 1 << 18;

/// The most golden blocks a table keeps.
pub const MAX_GOLDEN: usize = 2;

/// No abstract way to a goal.
const UNREACHABLE: u8 = u8::MAX;

/// Not a cell a golden block can be on, or not a fire of the pattern.
const NONE: u16 = u16::MAX;

/// The table of a level, with fire sets of type `F` (indices of the fires of the start).
pub struct PatternTable<F> {
    /// Per pattern bit: its fire, as a set of one fire index.
    pattern: Vec<F>,
    /// Per board bit: its index among the cells a golden block can ever be on ([`NONE`]).
    golden_index: Vec<u16>,
    /// How many cells a golden block can ever be on.
    cells: usize,
    /// Distances, indexed by golden position (the cell index, or `first * cells + second` for
    /// two blocks, `first < second`) times `2^|P|` plus the burning pattern fires.
    dist: Vec<u8>,
}

/// What the abstract moves need of the level.
struct Abstraction<'a, const N: usize> {
    board: &'a Board<N>,
    /// Cells where a regular block can ever rest.
    stoppers: Bits<N>,
    /// Per board bit: its pattern bit ([`NONE`]).
    pattern_bit: Vec<u16>,
    /// The board bit of each golden cell index.
    golden_cells: Vec<usize>,
}

impl<const N: usize> Abstraction<'_, N> {
    /// Whether `cell` holds a fire of the pattern that burns in `burning`.
    #[inline]
    fn burns(&self, cell: usize, burning: u32) -> bool {
        let bit = self.pattern_bit[cell];
        bit != NONE && burning >> bit & 1 == 1
    }

    /// Calls `visit(block, to, put_out)` with every golden push of the abstraction from golden
    /// cells `cells` (board bits) with `burning` pattern fires.
    fn golden_pushes(
        &self,
        cells: &[usize],
        burning: u32,
        mut visit: impl FnMut(usize, usize, u32),
    ) {
        let (board, num) = (self.board, &self.board.num);
        for (block, &from) in cells.iter().enumerate() {
            let other = (cells.len() == 2).then(|| cells[1 - block]);
            for dir in Dir::ALL {
                let standable = num.step(from, dir.opposite()).is_some_and(|p| {
                    board.standable.has(p) && Some(p) != other && !self.burns(p, burning)
                });
                if !standable {
                    continue;
                }
                let mut at = from;
                let mut put_out = 0u32;
                while let Some(next) = num
                    .step(at, dir)
                    .filter(|&n| board.open.has(n) && Some(n) != other)
                {
                    at = next;
                    if self.burns(at, burning) {
                        put_out |= 1 << self.pattern_bit[at];
                    }
                    // A regular block beyond may stop it here; a wall or the other golden
                    // block beyond stops it when the loop ends.
                    let stopper = num.step(at, dir).is_some_and(|b| {
                        self.stoppers.has(b) && Some(b) != other && !self.burns(b, burning)
                    });
                    if stopper {
                        visit(block, at, put_out);
                    }
                }
                // Here a wall or the other golden block is beyond.
                if at != from {
                    visit(block, at, put_out);
                }
            }
        }
    }
}

impl<F: FireSet> PatternTable<F> {
    /// The table of a level whose start has regular blocks on `regular` and golden blocks on
    /// `golden`, its pattern every fire; `None` without golden blocks or fires, with more
    /// than [`MAX_GOLDEN`] golden blocks, or when the table would exceed [`MAX_ENTRIES`].
    pub fn new<const N: usize>(
        board: &Board<N>,
        fire_cell: &[u8],
        regular: &Bits<N>,
        golden: &Bits<N>,
    ) -> Option<PatternTable<F>> {
        let golden_count = golden.count() as usize;
        if golden_count == 0 || golden_count > MAX_GOLDEN || fire_cell.is_empty() {
            return None;
        }
        let bits = board.num.bits;
        let reach = |starts: &Bits<N>, is_golden: bool| {
            let mut cells = Bits::<N>::EMPTY;
            for s in starts.ones() {
                for (cell, &d) in relaxed_distances(board, s, is_golden).iter().enumerate() {
                    if d != NEVER {
                        cells.set(cell);
                    }
                }
            }
            cells
        };
        let stoppers = reach(regular, false);
        let golden_cells: Vec<usize> = reach(golden, true).ones().collect();
        let cells = golden_cells.len();
        let positions = cells.checked_pow(golden_count as u32)?;
        let size = fire_cell.len();
        if size > MAX_ENTRIES.ilog2() as usize || positions << size > MAX_ENTRIES {
            return None;
        }
        let mut pattern_bit = vec![NONE; bits];
        let mut meltable = 0u32;
        for (bit, &cell) in fire_cell.iter().enumerate() {
            let cell = usize::from(cell);
            pattern_bit[cell] = bit as u16;
            if stoppers.has(cell) {
                meltable |= 1 << bit;
            }
        }
        let mut golden_index = vec![NONE; bits];
        for (i, &cell) in golden_cells.iter().enumerate() {
            golden_index[cell] = i as u16;
        }
        let abstraction = Abstraction {
            board,
            stoppers,
            pattern_bit,
            golden_cells,
        };
        let dist = distances(&abstraction, golden_count, size, meltable, &golden_index);
        Some(PatternTable {
            pattern: (0..size)
                .map(|j| {
                    let mut f = F::EMPTY;
                    f.insert(j);
                    f
                })
                .collect(),
            golden_index,
            cells,
            dist,
        })
    }

    /// The abstract distance of a state with golden blocks on `golden` and `fires` burning
    /// (`None`: no abstract way to a goal, so none in the level either).
    #[inline]
    pub fn bound<const N: usize>(&self, golden: &Bits<N>, fires: F) -> Option<u32> {
        let mut position = 0;
        for g in golden.ones() {
            // Golden blocks never leave the relaxed reach of their start cells.
            let i = self.golden_index.get(g).copied().unwrap_or(NONE);
            if i == NONE {
                return Some(0);
            }
            position = position * self.cells + usize::from(i);
        }
        let mut burning = 0usize;
        for (bit, fire) in self.pattern.iter().enumerate() {
            if fires.intersects(fire) {
                burning |= 1 << bit;
            }
        }
        let d = self.dist[position << self.pattern.len() | burning];
        (d != UNREACHABLE).then_some(u32::from(d))
    }
}

/// The table's distances (see [`PatternTable::dist`]).
fn distances<const N: usize>(
    abstraction: &Abstraction<'_, N>,
    golden: usize,
    size: usize,
    meltable: u32,
    golden_index: &[u16],
) -> Vec<u8> {
    let cells = abstraction.golden_cells.len();
    let sets = 1usize << size;
    let positions: Vec<(usize, [usize; 2])> = if golden == 1 {
        (0..cells).map(|a| (a, [a, 0])).collect()
    } else {
        (0..cells)
            .flat_map(|a| (a + 1..cells).map(move |b| (a * cells + b, [a, b])))
            .collect()
    };
    let position_of = |mut pair: [usize; 2]| {
        if golden == 1 {
            pair[0]
        } else {
            if pair[0] > pair[1] {
                pair.swap(0, 1);
            }
            pair[0] * cells + pair[1]
        }
    };
    let mut dist = vec![UNREACHABLE; cells.pow(golden as u32) * sets];
    for &(p, _) in &positions {
        dist[p * sets] = 0;
    }
    // Golden pushes that put out nothing: (from, to) positions, relaxed within one set.
    let mut stays: Vec<(u32, u32)> = Vec::new();
    let via = |d: u8| {
        if d == UNREACHABLE {
            u32::MAX
        } else {
            u32::from(d) + 1
        }
    };
    for burning in 1..sets as u32 {
        stays.clear();
        for &(p, pair) in &positions {
            let mut best = u32::MAX;
            let mut melts = burning & meltable;
            while melts != 0 {
                let bit = melts.trailing_zeros();
                melts &= melts - 1;
                best = best.min(via(dist[p * sets + (burning & !(1 << bit)) as usize]));
            }
            let on_board = [
                abstraction.golden_cells[pair[0]],
                abstraction.golden_cells[pair[1]],
            ];
            abstraction.golden_pushes(&on_board[..golden], burning, |block, to, put_out| {
                let mut next = pair;
                next[block] = usize::from(golden_index[to]);
                let q = position_of(next);
                if put_out == 0 {
                    stays.push((p as u32, q as u32));
                } else {
                    best = best.min(via(dist[q * sets + (burning & !put_out) as usize]));
                }
            });
            dist[p * sets + burning as usize] = best.min(u32::from(UNREACHABLE)) as u8;
        }
        loop {
            let mut changed = false;
            for &(from, to) in &stays {
                let through = via(dist[to as usize * sets + burning as usize]);
                let at = &mut dist[from as usize * sets + burning as usize];
                if through < u32::from(*at) {
                    *at = through as u8;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use crate::engine::{Heuristic, Space};
    use crate::games::Answer;
    use crate::games::ice_tower::space::{FireBounds, IceSpace};
    use crate::games::ice_tower::tests::{puzzle, solve, solved_in};

    /// The golden-pattern table's distance of a level's start.
    fn pattern_distance(rows: &str) -> Option<u32> {
        let space = IceSpace::<1, 2>::new(&puzzle(rows));
        let start = space.start();
        let FireBounds::Narrow(bounds) = &space.bounds else {
            panic!("at most 64 fires")
        };
        let table = bounds.pattern.as_ref().expect("one golden block: a table");
        table.bound(
            &space.golden_of(&start),
            start.get_at(space.keys.fires_offset, space.keys.fire_count),
        )
    }

    #[test]
    fn the_golden_pattern_table_holds_exact_abstract_distances() {
        // Two fires in the golden block's row: one push.
        assert_eq!(
            pattern_distance("######### / #@$ * * # / #       # / #########"),
            Some(1)
        );
        // The sampler of docs/ice-tower.md: a row run puts out 3,7 and stops at the wall, a column
        // run puts out 1,8; or the regular block melts in a fire: 2 either way.
        let sampler = "########## / #@      *# / #   %    # / # $ -  * # / #        # / ##########";
        assert_eq!(pattern_distance(sampler), Some(2));
        assert_eq!(solved_in(sampler), 2);
        // No regular ice, and a fire whose row and column no golden slide can enter: the block
        // rests only against walls, so on the rim of the room or in its own row and column. The
        // golden-run bound lets it turn anywhere (2 runs); the table calls the start dead, and so
        // it is.
        let room = "######## / #@     # / # $    # / #   *  # / #      # / #      # / ########";
        assert_eq!(pattern_distance(room), None);
        let space = IceSpace::<1, 2>::new(&puzzle(room));
        assert_eq!(space.heuristic(&space.start()), None);
        assert!(matches!(solve(room), Answer::Unsolvable));
    }
}
