//! The symmetries of a level without arrows: the reflections and rotations of the box of its
//! non-wall cells that map every wall, floor, fire and recycler, and every block of the start,
//! onto one of its own kind.
//!
//! Such a map takes every position to one whose pushes are its pushes mapped, with the same
//! number of burning fires after each: the two positions are equally far from a goal. So the
//! search stores one position per class, the least of its images
//! ([`super::space::IceSpace`]), and finds a solution's pushes again on the positions
//! themselves ([`super::space::pushes_along`]). The caller keeps only the symmetries that map
//! the start, the magician's region included, onto itself, so that the bound's tables (built
//! from the start) are symmetric too and every image of a position has its bound.
//!
//! H-49 has one: the reflection in the diagonal through the centre of its fire pattern
//! (`(r, c) → (16 − c, 16 − r)`), which halves the positions its A* stores.

use super::bits::Bits;
use super::board::Numbering;
use super::level::Puzzle;
use super::rules::Tile;

/// One symmetry, as permutations of the board bits and of the fire indices.
pub struct Symmetry {
    /// Per board bit, its image (bits outside the open cells map to themselves).
    bit: Vec<u16>,
    /// The board bits in the order of their images.
    by_image: Vec<u16>,
    /// Per fire index, its image.
    fire: Vec<u8>,
}

/// A map of a box of `h` rows and `w` columns onto itself, as (row, column) within the box.
type BoxMap = fn(usize, usize, usize, usize) -> (usize, usize);

/// The seven maps of a box other than the identity; the last four exchange rows and columns,
/// so they apply to square boxes only.
const BOX_MAPS: [BoxMap; 7] = [
    |i, j, _, w| (i, w - 1 - j),
    |i, j, h, _| (h - 1 - i, j),
    |i, j, h, w| (h - 1 - i, w - 1 - j),
    |i, j, _, _| (j, i),
    |i, j, h, w| (w - 1 - j, h - 1 - i),
    |i, j, h, _| (j, h - 1 - i),
    |i, j, _, w| (w - 1 - j, i),
];

impl Symmetry {
    /// The maps of `puzzle`'s box (other than the identity) under which every cell holds the
    /// same tile and the same start ice as its image. Levels with arrows get none (an arrow's
    /// image would need its direction turned).
    pub fn of_level(puzzle: &Puzzle, num: &Numbering, fire_cell: &[u8]) -> Vec<Symmetry> {
        let grid = &puzzle.grid;
        let open: Vec<usize> = (0..grid.tiles.len())
            .filter(|&c| grid.tiles[c] != Tile::Wall)
            .collect();
        if open.is_empty() || grid.tiles.iter().any(|t| matches!(t, Tile::Arrow(_))) {
            return Vec::new();
        }
        let (rows, cols) = (
            open.iter().map(|&c| c / grid.width),
            open.iter().map(|&c| c % grid.width),
        );
        let (r0, r1) = (rows.clone().min().unwrap(), rows.max().unwrap());
        let (c0, c1) = (cols.clone().min().unwrap(), cols.max().unwrap());
        let (h, w) = (r1 - r0 + 1, c1 - c0 + 1);
        BOX_MAPS
            .iter()
            .take(if h == w { 7 } else { 3 })
            .filter_map(|map| {
                let image = |cell: usize| {
                    let (i, j) = map(cell / grid.width - r0, cell % grid.width - c0, h, w);
                    (r0 + i) * grid.width + c0 + j
                };
                let in_box = (r0..=r1).flat_map(|r| (c0..=c1).map(move |c| r * grid.width + c));
                let alike = |cell: usize, to: usize| {
                    grid.tiles[cell] == grid.tiles[to]
                        && puzzle.start.ice[cell] == puzzle.start.ice[to]
                };
                if !in_box.clone().all(|cell| alike(cell, image(cell))) {
                    return None;
                }
                let mut bit: Vec<u16> = (0..num.bits as u16).collect();
                for cell in in_box.filter(|&c| grid.tiles[c] != Tile::Wall) {
                    let (from, to) = (num.bit(cell)?, num.bit(image(cell))?);
                    bit[from] = to as u16;
                }
                let fire = fire_cell
                    .iter()
                    .map(|&b| {
                        let to = bit[usize::from(b)];
                        fire_cell.iter().position(|&f| u16::from(f) == to)
                    })
                    .collect::<Option<Vec<usize>>>()?
                    .into_iter()
                    .map(|j| j as u8)
                    .collect();
                let mut by_image: Vec<u16> = (0..num.bits as u16).collect();
                by_image.sort_by_key(|&b| bit[usize::from(b)]);
                Some(Symmetry {
                    bit,
                    by_image,
                    fire,
                })
            })
            .collect()
    }

    /// The image of a set of board bits.
    #[inline]
    pub fn map_bits<const N: usize>(&self, set: &Bits<N>) -> Bits<N> {
        permuted(&self.bit, set)
    }

    /// The lowest bit of the image of a set (a region id), without mapping the whole set.
    #[inline]
    pub fn lowest_image<const N: usize>(&self, set: &Bits<N>) -> Option<usize> {
        self.by_image
            .iter()
            .find(|&&b| set.has(usize::from(b)))
            .map(|&b| usize::from(self.bit[usize::from(b)]))
    }

    /// The image of a set of fire indices.
    #[inline]
    pub fn map_fires<const N: usize>(&self, set: &Bits<N>) -> Bits<N> {
        permuted(&self.fire, set)
    }
}

/// The image of `set` under the permutation `image` of its indices.
#[inline]
fn permuted<const N: usize, T: Copy + Into<usize>>(image: &[T], set: &Bits<N>) -> Bits<N> {
    let mut mapped = Bits::EMPTY;
    for i in set.ones() {
        mapped.set(image[i].into());
    }
    mapped
}
