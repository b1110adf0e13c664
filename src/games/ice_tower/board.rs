//! The board in bits: a cropped cell numbering and the static tables of the fast search.
//!
//! **Numbering.** The grid is cropped to the bounding box of its non-wall cells plus one wall
//! column that serves as the right border of a row and the left border of the next, so a bit
//! index is `(row - r0) * pitch + (col - c0)` and a step is ±1 (left/right) or ±`pitch`
//! (up/down). Bits above the first or below the last row fall off the set; the shared wall
//! column keeps rows apart. The largest grid (20×14) needs 12 × 19 = 228 bits (four words).
//! Bit order is row-major order, so the lowest set bit of a region is its smallest row-major
//! cell (the magician's region id of spec §3).
//!
//! **Tables** (built once per level from the [`Grid`]): open and standable cells, recyclers,
//! fires, for every cell and direction the ray of cells a slide can cross before a wall and
//! its last cell, each cell's four neighbours, and its ring of eight neighbours.

use super::bits::Bits;
use super::rules::{Dir, Grid, Tile};

/// The largest board, in 64-bit words.
pub const MAX_WORDS: usize = 4;

/// How grid cells map to bits.
#[derive(Clone, Debug)]
pub struct Numbering {
    pub grid_width: usize,
    pub r0: usize,
    pub c0: usize,
    pub pitch: usize,
    /// Number of bits in use: rows × pitch.
    pub bits: usize,
}

impl Numbering {
    pub fn new(grid: &Grid) -> Numbering {
        let open: Vec<usize> = (0..grid.tiles.len())
            .filter(|&c| grid.tiles[c] != Tile::Wall)
            .collect();
        if open.is_empty() {
            // A grid of walls: one bit, never set.
            return Numbering {
                grid_width: grid.width,
                r0: 0,
                c0: 0,
                pitch: 1,
                bits: 1,
            };
        }
        let rows = open.iter().map(|&c| c / grid.width);
        let cols = open.iter().map(|&c| c % grid.width);
        let (r0, r1) = (rows.clone().min().unwrap(), rows.max().unwrap());
        let (c0, c1) = (cols.clone().min().unwrap(), cols.max().unwrap());
        let pitch = c1 - c0 + 2;
        Numbering {
            grid_width: grid.width,
            r0,
            c0,
            pitch,
            bits: (r1 - r0 + 1) * pitch,
        }
    }

    pub fn words(&self) -> usize {
        self.bits.div_ceil(64)
    }

    /// The grid cell of a bit (the shared wall column maps to real wall cells).
    pub fn cell(&self, bit: usize) -> usize {
        (self.r0 + bit / self.pitch) * self.grid_width + self.c0 + bit % self.pitch
    }

    /// The bit of a grid cell, if it lies in the cropped box.
    pub fn bit(&self, cell: usize) -> Option<usize> {
        let (r, c) = (cell / self.grid_width, cell % self.grid_width);
        let (r, c) = (r.checked_sub(self.r0)?, c.checked_sub(self.c0)?);
        (c < self.pitch && r * self.pitch + c < self.bits).then_some(r * self.pitch + c)
    }

    /// The bit one step away, or `None` outside the cropped box (a wall).
    pub fn step(&self, bit: usize, dir: Dir) -> Option<usize> {
        match dir {
            Dir::Up => bit.checked_sub(self.pitch),
            Dir::Down => Some(bit + self.pitch).filter(|&b| b < self.bits),
            Dir::Left => bit.checked_sub(1),
            Dir::Right => Some(bit + 1).filter(|&b| b < self.bits),
        }
    }

    /// Whether a direction moves to higher bits.
    pub fn forward(dir: Dir) -> bool {
        matches!(dir, Dir::Down | Dir::Right)
    }
}

/// The static tables of a level for boards of `N` words.
pub struct Board<const N: usize> {
    pub num: Numbering,
    /// Non-wall cells.
    pub open: Bits<N>,
    /// Cells the magician may ever stand on: open cells that are not recyclers.
    pub standable: Bits<N>,
    pub recyclers: Bits<N>,
    /// The fires of the start position.
    pub fires: Bits<N>,
    /// Per direction and cell: the cells a slide from the cell crosses before a wall.
    pub ray: [Vec<Bits<N>>; 4],
    /// Per direction and cell: the last cell of the ray (the cell itself if the ray is empty).
    pub ray_end: [Vec<u8>; 4],
    /// The four neighbours of each cell.
    pub around: Vec<Bits<N>>,
    /// The eight neighbours of each cell in ring order N, NE, E, SE, S, SW, W, NW (a wall bit
    /// outside the box).
    pub ring: Vec<[u8; 8]>,
}

impl<const N: usize> Board<N> {
    pub fn new(grid: &Grid) -> Board<N> {
        let num = Numbering::new(grid);
        assert!(num.bits <= 64 * N, "the board fits {N} words");
        let tile = |bit: usize| grid.tiles[num.cell(bit)];
        let set_of = |keep: &dyn Fn(Tile) -> bool| {
            let mut b = Bits::EMPTY;
            (0..num.bits)
                .filter(|&i| keep(tile(i)))
                .for_each(|i| b.set(i));
            b
        };
        let open = set_of(&|t| t != Tile::Wall);
        let recyclers = set_of(&|t| t == Tile::Recycler);
        let fires = set_of(&|t| t == Tile::Fire);
        let standable = open.minus(recyclers);
        let is_open = |bit: Option<usize>| bit.is_some_and(|b| open.has(b));
        let mut ray: [Vec<Bits<N>>; 4] = Default::default();
        let mut ray_end: [Vec<u8>; 4] = Default::default();
        for dir in Dir::ALL {
            for start in 0..num.bits {
                let (mut cells, mut end) = (Bits::EMPTY, start);
                let mut next = num.step(start, dir);
                while is_open(next) {
                    end = next.unwrap();
                    cells.set(end);
                    next = num.step(end, dir);
                }
                ray[dir.index()].push(cells);
                ray_end[dir.index()].push(end as u8);
            }
        }
        // Any bit outside the open cells stands for a wall outside the box.
        let wall_bit = num.pitch - 1;
        let around = (0..num.bits)
            .map(|i| {
                let mut b = Bits::EMPTY;
                Dir::ALL
                    .iter()
                    .filter_map(|&d| num.step(i, d))
                    .for_each(|j| b.set(j));
                b
            })
            .collect();
        let ring = (0..num.bits)
            .map(|i| {
                let go = |a: Option<usize>, d: Dir| a.and_then(|a| num.step(a, d));
                let n = num.step(i, Dir::Up);
                let s = num.step(i, Dir::Down);
                [
                    n,
                    go(n, Dir::Right),
                    num.step(i, Dir::Right),
                    go(s, Dir::Right),
                    s,
                    go(s, Dir::Left),
                    num.step(i, Dir::Left),
                    go(n, Dir::Left),
                ]
                .map(|b| b.unwrap_or(wall_bit) as u8)
            })
            .collect();
        Board {
            num,
            open,
            standable,
            recyclers,
            fires,
            ray,
            ray_end,
            around,
            ring,
        }
    }

    /// A whole set shifted one step towards `dir`: bit i of the result is bit i − dir.
    #[inline]
    pub fn toward(&self, set: Bits<N>, dir: Dir) -> Bits<N> {
        match dir {
            Dir::Up => set >> self.num.pitch as u32,
            Dir::Down => set << self.num.pitch as u32,
            Dir::Left => set >> 1,
            Dir::Right => set << 1,
        }
    }

    /// The cells of `walk` connected to `seed` (4-neighbourhood).
    #[inline]
    pub fn fill(&self, seed: Bits<N>, walk: Bits<N>) -> Bits<N> {
        let pitch = self.num.pitch as u32;
        let mut region = seed;
        loop {
            let grown =
                (region | region << 1 | region >> 1 | region << pitch | region >> pitch) & walk;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// Whether removing `cell` from `walk ∪ {cell}` keeps its walkable neighbours connected
    /// through its ring of eight (a sufficient test that no region splits).
    #[inline]
    pub fn is_simple(&self, cell: usize, walk: &Bits<N>) -> bool {
        let ring = &self.ring[cell];
        let mut pattern = 0u8;
        for (k, &b) in ring.iter().enumerate() {
            pattern |= u8::from(walk.has(b as usize)) << k;
        }
        SIMPLE[pattern as usize]
    }
}

/// For each ring pattern (bit k: ring cell k walkable, k even = the four neighbours): whether the
/// walkable neighbours all lie in one run of consecutive walkable ring cells.
static SIMPLE: [bool; 256] = {
    let mut table = [false; 256];
    let mut p = 0;
    while p < 256 {
        // Count runs of walkable ring cells that hold a neighbour (even position).
        let mut runs_with_neighbour = 0;
        let mut k = 0;
        while k < 8 {
            let on = p >> k & 1 == 1;
            let prev_on = p >> ((k + 7) % 8) & 1 == 1;
            if on && !prev_on {
                // A run starts at k: walk it and see whether it holds a neighbour.
                let mut j = k;
                let mut has_neighbour = false;
                while p >> (j % 8) & 1 == 1 && j < k + 8 {
                    if j % 2 == 0 {
                        has_neighbour = true;
                    }
                    j += 1;
                }
                if has_neighbour {
                    runs_with_neighbour += 1;
                }
            }
            k += 1;
        }
        // A full ring has no start: one run.
        table[p] = runs_with_neighbour <= 1;
        p += 1;
    }
    table
};
