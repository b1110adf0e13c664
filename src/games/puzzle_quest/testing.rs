//! Puzzle Quest's test fixtures, shared by the tests of its modules: grids and swaps written
//! as in the notation, a level of a grid, deterministic random boards, and the packed
//! simulator's successors as a set.

use std::collections::HashSet;

use super::board::Board;
use super::level::Level;
use super::notation;
use super::rules::{Grid, SIDE, Swap, Tile};

/// A grid from its bottom rows (the rows above are empty).
pub(super) fn grid(rows: &[&str]) -> Grid {
    Grid::from_rows(rows).expect("valid rows")
}

/// A swap written in the notation (`r,c,D`).
pub(super) fn swap(token: &str) -> Swap {
    notation::parse_swap(token).expect("a swap")
}

/// A level of `grid`, with `move_limit` swaps at most.
pub(super) fn level_of(grid: Grid, move_limit: Option<u32>) -> Level {
    Level {
        name: "test".into(),
        id: "TEST".into(),
        move_limit,
        grid,
    }
}

/// Every board one legal swap away, by the packed simulator.
pub(super) fn packed_successors(b: &Board) -> HashSet<Board> {
    let mut out = HashSet::new();
    b.for_each_swap(|next, _, _| {
        out.insert(next);
    });
    out
}

/// A deterministic pseudo-random stable board: columns of random heights (up to `tallest`)
/// filled from `alphabet`, redrawn until no line is on it.
pub(super) fn random_board(seed: &mut u64, alphabet: &[u8], tallest: usize) -> Grid {
    let mut next = |n: usize| {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed % n as u64) as usize
    };
    loop {
        let mut g = Grid::EMPTY;
        for col in 0..SIDE {
            let height = next(tallest + 1);
            for row in SIDE - height..SIDE {
                g.cells[row][col] = Tile::from_char(alphabet[next(alphabet.len())] as char)
                    .expect("a tile character");
            }
        }
        if !g.has_line() {
            return g;
        }
    }
}
