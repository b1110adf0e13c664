//! Ice Tower benchmarks: whole optimal solves of the hardest official levels that take seconds or
//! less, and the flood fill of the magician's region with hand-packed words against
//! `bitvec::array::BitArray` (the measurement behind the choice in `bits.rs`).

use std::path::Path;

use bitvec::array::BitArray;
use criterion::{Criterion, black_box, criterion_group, criterion_main};

use frontier::engine::{SearchControl, Space};
use frontier::games::ice_tower::IceTower;
use frontier::games::ice_tower::bits::Bits;
use frontier::games::ice_tower::level::Puzzle;
use frontier::games::ice_tower::space::IceSpace;
use frontier::games::{Answer, Game, read_level};

fn official_level(name: &str) -> Puzzle {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/official/ice-tower/qits.txt");
    read_level::<IceTower>(&path, name).unwrap_or_else(|e| panic!("{e}"))
}

fn solves(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for name in ["c99-2", "w21", "c99", "qits001"] {
        let puzzle = official_level(name);
        group.bench_function(name, |b| {
            b.iter(|| {
                let answer = IceTower::solve(&puzzle, &SearchControl::unlimited());
                assert!(matches!(answer, Answer::Solved { .. }));
            })
        });
    }
    group.finish();
}

type BitBoard = BitArray<[u64; 3]>;

/// The same fill as `Board::fill`, with `BitArray` shifts.
fn fill_bitvec(seed: BitBoard, walk: BitBoard, pitch: usize) -> BitBoard {
    let mut region = seed;
    loop {
        let mut grown = region;
        for by in [1, pitch] {
            let mut towards_zero = region;
            towards_zero.shift_start(by);
            let mut away = region;
            away.shift_end(by);
            grown |= towards_zero;
            grown |= away;
        }
        grown &= walk;
        if grown == region {
            return region;
        }
        region = grown;
    }
}

fn fills(c: &mut Criterion) {
    // The magician's region at the start of W-21: the open hall.
    let puzzle = official_level("w21");
    let space = IceSpace::<3, 4>::new(&puzzle);
    let start = space.unpack(&space.start());
    let board = &space.board;
    let walk = board
        .standable
        .minus(start.regular | start.golden | start.burning);
    let seed = Bits::single(start.magician);
    let as_bitvec = |b: Bits<3>| BitBoard::new(b.0);
    let expected = board.fill(seed, walk);
    assert_eq!(
        fill_bitvec(as_bitvec(seed), as_bitvec(walk), board.num.pitch).into_inner(),
        expected.0
    );
    let mut group = c.benchmark_group("fill");
    group.bench_function("hand-packed words", |b| {
        b.iter(|| board.fill(black_box(seed), black_box(walk)))
    });
    group.bench_function("bitvec BitArray", |b| {
        b.iter(|| fill_bitvec(black_box(as_bitvec(seed)), as_bitvec(walk), board.num.pitch))
    });
    group.finish();
}

criterion_group!(benches, fills, solves);
criterion_main!(benches);
