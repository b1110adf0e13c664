//! The packed board and the fast one-swap simulator the search runs on.
//!
//! A [`Board`] is four 64-bit bit planes (32 bytes). Bit `col * 8 + height` is cell
//! (row = 7 − height, col): each column is one byte with its bottom cell in bit 0, so a move one
//! cell sideways is a shift by 8, one cell up a shift by 1, and a left–right mirror is a byte
//! swap. Planes 0–2 hold the cell's line kind as a 3-bit code (1 yellow … 6 coin, 7 skull; 0 is
//! an empty cell), plane 3 marks the flaming skulls. Hand-packed integers rather than `bitvec`:
//! every rule below is a handful of whole-word shifts and masks on these exact bit positions
//! (lines, blasts, the column-wise gravity), which a generic bit array would only wrap.
//!
//! The rules are those of [`super::rules`] (the reference the tests compare this with):
//! legality judged right after the exchange, all lines removed at once, flaming-skull blasts
//! (transitive), gravity without refill, cascades until stable.

use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};

use super::rules::{Grid, SIDE, Tile};

/// Every byte (column) with the same bits.
const fn per_column(byte: u64) -> u64 {
    byte * 0x0101_0101_0101_0101
}

/// Cells whose cell above is on the board (height ≤ 6).
const BELOW_TOP: u64 = per_column(0x7F);
/// Cells with two cells above on the board (height ≤ 5).
const BELOW_TOP2: u64 = per_column(0x3F);
/// Cells with a cell below (height ≥ 1).
const ABOVE_BOTTOM: u64 = per_column(0xFE);
/// Cells with two cells below (height ≥ 2).
const ABOVE_BOTTOM2: u64 = per_column(0xFC);

/// The line kinds, by code (index + 1).
pub const KINDS: usize = 7;
/// The code of the skull kind (both skulls).
const SKULL: usize = 7;

/// The bit of cell (row, col).
#[inline]
pub const fn bit(row: usize, col: usize) -> u32 {
    (col * SIDE + (SIDE - 1 - row)) as u32
}

/// The (row, col) of a bit.
#[inline]
pub const fn cell(bit: u32) -> (usize, usize) {
    let bit = bit as usize;
    (SIDE - 1 - bit % SIDE, bit / SIDE)
}

/// A board packed into four bit planes (see the module doc). Serialisable for the distributed
/// backend, which sends states between workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(transparent)]
pub struct Board {
    planes: [u64; 4],
}

// SAFETY: a transparent wrapper of `[u64; 4]`: no padding, and any bits are a board (the engine
// stores boards as bytes).
unsafe impl bytemuck::Zeroable for Board {}
unsafe impl bytemuck::Pod for Board {}

impl Hash for Board {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        for word in self.planes {
            state.write_u64(word);
        }
    }
}

/// The 3-bit line-kind code and the flaming flag of a tile.
fn code(tile: Tile) -> (u64, bool) {
    match tile {
        Tile::Empty => (0, false),
        Tile::Yellow => (1, false),
        Tile::Blue => (2, false),
        Tile::Green => (3, false),
        Tile::Red => (4, false),
        Tile::Purple => (5, false),
        Tile::Coin => (6, false),
        Tile::Skull => (7, false),
        Tile::FlamingSkull => (7, true),
    }
}

/// Every cell where a gem of the kind whose cells are `k` would be in a line of 3 or more with
/// the others: a superset filter for legal swaps.
#[inline]
fn completing(k: u64) -> u64 {
    let (right, right2, left, left2) = (k >> 8, k >> 16, k << 8, k << 16);
    let up = (k >> 1) & BELOW_TOP;
    let up2 = (k >> 2) & BELOW_TOP2;
    let down = (k << 1) & ABOVE_BOTTOM;
    let down2 = (k << 2) & ABOVE_BOTTOM2;
    (right & right2) | (left & right) | (left & left2) | (up & up2) | (down & up) | (down & down2)
}

/// The cells around each cell of `cells` (and the cells themselves): the reach of a blast.
#[inline]
fn around(cells: u64) -> u64 {
    let column = cells | ((cells << 1) & ABOVE_BOTTOM) | ((cells >> 1) & BELOW_TOP);
    column | column << 8 | column >> 8
}

impl Board {
    pub const EMPTY: Board = Board { planes: [0; 4] };

    pub fn from_grid(grid: &Grid) -> Board {
        let mut board = Board::EMPTY;
        for row in 0..SIDE {
            for col in 0..SIDE {
                let (kind, flaming) = code(grid.cells[row][col]);
                let b = bit(row, col);
                for (plane, word) in board.planes.iter_mut().enumerate().take(3) {
                    *word |= (kind >> plane & 1) << b;
                }
                board.planes[3] |= u64::from(flaming) << b;
            }
        }
        board
    }

    pub fn to_grid(&self) -> Grid {
        let mut grid = Grid::EMPTY;
        for row in 0..SIDE {
            for col in 0..SIDE {
                let b = bit(row, col);
                let kind = (0..3).fold(0, |k, p| k | (self.planes[p] >> b & 1) << p);
                let flaming = self.planes[3] >> b & 1 == 1;
                grid.cells[row][col] = Tile::ALL
                    .into_iter()
                    .find(|&t| code(t) == (kind, flaming))
                    .unwrap_or(Tile::Empty);
            }
        }
        grid
    }

    /// The occupied cells.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.planes[0] | self.planes[1] | self.planes[2]
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.occupied() == 0
    }

    /// The flaming skulls.
    #[inline]
    pub fn flaming(&self) -> u64 {
        self.planes[3]
    }

    /// The cells of each line kind, by code − 1.
    #[inline]
    pub fn kinds(&self) -> [u64; KINDS] {
        let [p0, p1, p2, _] = self.planes;
        let (n0, n1, n2) = (!p0, !p1, !p2);
        [
            p0 & n1 & n2,
            n0 & p1 & n2,
            p0 & p1 & n2,
            n0 & n1 & p2,
            p0 & n1 & p2,
            n0 & p1 & p2,
            p0 & p1 & p2,
        ]
    }

    /// The board mirrored left–right.
    #[inline]
    pub fn mirrored(&self) -> Board {
        Board {
            planes: self.planes.map(u64::swap_bytes),
        }
    }

    /// Every cell in a line of 3 or more of one kind, across or down, found for all kinds at
    /// once: cells whose right (upper) neighbour holds the same kind, then runs of two such.
    #[inline]
    pub fn lines(&self) -> u64 {
        let [p0, p1, p2, _] = self.planes;
        let occupied = p0 | p1 | p2;
        let differs = |shift: u32| (p0 ^ p0 >> shift) | (p1 ^ p1 >> shift) | (p2 ^ p2 >> shift);
        let same_right = !differs(8) & occupied & occupied >> 8;
        let across = same_right & same_right >> 8;
        let same_up = !differs(1) & occupied & occupied >> 1 & BELOW_TOP;
        let down = same_up & same_up >> 1;
        across | across << 8 | across << 16 | down | down << 1 | down << 2
    }

    /// Calls `emit(board, a, b)` for every legal swap of the cells at bits `a` < `b` (`b` is
    /// the cell to the right of or above `a`) with the board after its whole resolution.
    #[inline]
    pub fn for_each_swap(&self, mut emit: impl FnMut(Board, u32, u32)) {
        // Pairs (a, a + 8) and (a, a + 1) where a gem could complete a line by the swap: a
        // superset of the legal swaps, each then tried for real.
        let mut across = 0;
        let mut down = 0;
        for k in self.kinds() {
            let hot = completing(k);
            across |= (k & hot >> 8) | (k >> 8 & hot);
            down |= (k & hot >> 1 & BELOW_TOP) | (k >> 1 & BELOW_TOP & hot);
        }
        self.try_swaps::<8>(across, &mut emit);
        self.try_swaps::<1>(down, &mut emit);
    }

    /// Makes each swap of the cells at bits `a` and `a + STEP` for `a` in `pairs` that is legal.
    #[inline(always)]
    fn try_swaps<const STEP: u32>(&self, mut pairs: u64, emit: &mut impl FnMut(Board, u32, u32)) {
        while pairs != 0 {
            let a = pairs.trailing_zeros();
            pairs &= pairs - 1;
            let moved = (1 | 1 << STEP) << a;
            let mut next = *self;
            for word in &mut next.planes {
                // Flip both bits where the two cells differ.
                let differ = (*word ^ *word >> STEP) >> a & 1;
                *word ^= moved & differ.wrapping_neg();
            }
            // R2: legal when a swapped cell holding a gem is in a line right away (an empty
            // swapped cell is never in a line).
            let lines = next.lines();
            if lines & moved != 0 {
                // A gem that moved into an empty cell left a hole to fall into.
                let vacated = moved & !next.occupied();
                next.resolve(lines, vacated);
                emit(next, a, a + STEP);
            }
        }
    }

    /// R3–R6: removes `lines` with their blasts, lets the gems fall into the removed cells and
    /// the `holes` (empty cells under gems), and repeats while lines form.
    #[inline]
    fn resolve(&mut self, mut lines: u64, mut holes: u64) {
        while lines != 0 {
            let removed = self.with_blasts(lines);
            for word in &mut self.planes {
                *word &= !removed;
            }
            self.fall(removed | holes);
            holes = 0;
            lines = self.lines();
        }
    }

    /// R4: `marked` plus everything its flaming skulls blast, transitively.
    #[inline]
    fn with_blasts(&self, mut marked: u64) -> u64 {
        let occupied = self.occupied();
        let mut fired = 0;
        loop {
            let firing = marked & self.planes[3] & !fired;
            if firing == 0 {
                return marked;
            }
            fired |= firing;
            marked |= around(firing) & occupied;
        }
    }

    /// R5: compacts each column down over the cells `removed` (empty cells, the removed gems
    /// and any hole). Their heights are taken from the top down, so the lower ones keep their
    /// place until their turn.
    #[inline]
    fn fall(&mut self, removed: u64) {
        let mut heights = removed;
        heights |= heights >> 32;
        heights |= heights >> 16;
        heights |= heights >> 8;
        let mut heights = heights & 0xFF;
        while heights != 0 {
            let h = 63 - heights.leading_zeros();
            heights ^= 1 << h;
            // 0xFF in each column with a removed cell at height h.
            let columns = (removed >> h & per_column(1)) * 0xFF;
            let below = per_column((1 << h) - 1);
            let stay = !columns | below;
            let from_above = columns & !below & BELOW_TOP;
            for word in &mut self.planes {
                *word = (*word & stay) | (*word >> 1 & from_above);
            }
        }
    }

    /// §4 dead-state tests, given the board's [`Board::kinds`]: a board that meets one can
    /// never be emptied. One or two skulls never form a skull line, so none of them is removed
    /// and no flaming skull ever fires; without flaming skulls, a kind with one or two gems can
    /// never be removed at all.
    #[inline]
    pub fn is_dead(&self, kinds: &[u64; KINDS]) -> bool {
        let few = |cells: &u64| matches!(cells.count_ones(), 1 | 2);
        few(&kinds[SKULL - 1]) || (self.flaming() == 0 && kinds[..SKULL - 1].iter().any(few))
    }

    /// A 64-bit digest of the board, to tell most different boards apart with one comparison.
    #[inline]
    pub fn fingerprint(&self) -> u64 {
        let [p0, p1, p2, p3] = self.planes;
        p0 ^ p1.rotate_left(17) ^ p2.rotate_left(31) ^ p3.rotate_left(47)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{HashSet, VecDeque};

    use super::*;
    use crate::games::puzzle_quest::rules::{Dir, Swap};
    use crate::games::puzzle_quest::testing::{grid, packed_successors, random_board};

    // ---- The packed simulator against the reference --------------------------------------------

    /// Every result of a legal swap by the reference rules, each gem moved in every direction.
    fn reference_successors(g: &Grid) -> HashSet<Board> {
        let mut out = HashSet::new();
        for row in 0..SIDE as i32 {
            for col in 0..SIDE as i32 {
                for dir in Dir::ALL {
                    if let Ok(next) = g.swap(Swap { row, col, dir }) {
                        out.insert(Board::from_grid(&next));
                    }
                }
            }
        }
        out
    }

    /// Walks up to `limit` boards reachable from `start`, breadth-first, and asserts that the
    /// packed simulator and the reference give the same successors at each.
    fn assert_simulators_agree(start: &Grid, limit: usize) {
        let mut seen = HashSet::from([Board::from_grid(start)]);
        let mut queue = VecDeque::from([*start]);
        let mut visited = 0;
        while let Some(g) = queue.pop_front() {
            visited += 1;
            if visited > limit {
                break;
            }
            let packed = Board::from_grid(&g);
            assert_eq!(packed.to_grid(), g, "packing round trip");
            let expected = reference_successors(&g);
            let got = packed_successors(&packed);
            let show = |set: &HashSet<Board>, other: &HashSet<Board>| {
                set.difference(other)
                    .map(|b| b.to_grid().to_string())
                    .collect::<Vec<_>>()
                    .join("\n\n")
            };
            assert!(
                got == expected,
                "successors of\n{g}\npacked only:\n{}\nreference only:\n{}",
                show(&got, &expected),
                show(&expected, &got)
            );
            for next in expected {
                if seen.insert(next) {
                    queue.push_back(next.to_grid());
                }
            }
        }
    }

    #[test]
    fn packed_and_reference_simulators_agree_on_reachable_boards() {
        let alphabets: [&[u8]; 4] = [b"ybgrpcsS", b"gsSSS", b"yrsS", b"bgs"];
        let mut seed = 0x9E37_79B9_7F4A_7C15;
        for round in 0..60 {
            let start = random_board(&mut seed, alphabets[round % alphabets.len()], SIDE);
            assert_simulators_agree(&start, 300);
        }
    }

    #[test]
    fn a_mirrored_board_has_the_mirrored_successors() {
        let mut seed = 7;
        for _ in 0..200 {
            let board = Board::from_grid(&random_board(&mut seed, b"ybgsS", SIDE));
            let mirrored: HashSet<Board> = packed_successors(&board)
                .iter()
                .map(Board::mirrored)
                .collect();
            assert_eq!(packed_successors(&board.mirrored()), mirrored);
        }
    }

    // ---- Dead states ----------------------------------------------------------------------------

    fn is_dead(rows: &[&str]) -> bool {
        let board = Board::from_grid(&grid(rows));
        board.is_dead(&board.kinds())
    }

    #[test]
    fn dead_state_tests_of_spec_section_4() {
        // One or two skulls (s and S together): dead, flaming or not.
        assert!(is_dead(&["rrbrb___", "bbrsr___"]));
        assert!(is_dead(&["rrbrb___", "bbSsr___"]));
        // A kind with one or two gems and no flaming skull: dead.
        assert!(is_dead(&["rrbsssy_"]));
        // ... but a flaming skull might blast them.
        assert!(!is_dead(&["rrbssSy_"]));
        assert!(!is_dead(&["rrbbrrbb"]));
        assert!(!is_dead(&[]));
    }
}
