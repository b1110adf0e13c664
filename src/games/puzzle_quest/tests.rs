//! Unit tests of the capture rules, the packed simulator, the parser and the notation.

use std::collections::{HashSet, VecDeque};

use super::board::Board;
use super::rules::{Dir, Grid, SIDE, Swap, Tile};

fn grid(rows: &[&str]) -> Grid {
    Grid::from_rows(rows).expect("valid rows")
}

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

fn packed_successors(b: &Board) -> HashSet<Board> {
    let mut out = HashSet::new();
    b.for_each_swap(|next, _, _| {
        out.insert(next);
    });
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

/// A deterministic pseudo-random stable board: columns of random heights filled from
/// `alphabet`, redrawn until no line is on it.
fn random_board(seed: &mut u64, alphabet: &[u8]) -> Grid {
    let mut next = |n: usize| {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed % n as u64) as usize
    };
    loop {
        let mut g = Grid::EMPTY;
        for col in 0..SIDE {
            let height = next(SIDE + 1);
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

#[test]
fn packed_and_reference_simulators_agree_on_reachable_boards() {
    let alphabets: [&[u8]; 4] = [b"ybgrpcsS", b"gsSSS", b"yrsS", b"bgs"];
    let mut seed = 0x9E37_79B9_7F4A_7C15;
    for round in 0..60 {
        let start = random_board(&mut seed, alphabets[round % alphabets.len()]);
        assert_simulators_agree(&start, 300);
    }
}
