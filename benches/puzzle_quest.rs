//! Criterion benchmark: the hardest capture boards of the official corpus, each solved to a
//! proven optimum (beam search, then ordered A*), and the one-swap simulator on its own.
//!
//! Run with `cargo bench --bench puzzle_quest`; the corpus is read from `corpora/official/puzzle-quest`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use frontier::engine::SearchControl;
use frontier::games::puzzle_quest::board::Board;
use frontier::games::puzzle_quest::space::Reductions;
use frontier::games::puzzle_quest::{Level, PuzzleQuest, solve_with};
use frontier::games::{Answer, read_levels};

/// The boards that take the most search, by monster id.
const HARDEST: [&str; 5] = ["MMIK", "MARB", "MSWO", "MGWA", "MDOO"];

fn corpus() -> Vec<Level> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("corpora/official/puzzle-quest/capture-boards.txt");
    read_levels::<PuzzleQuest>(&path)
        .expect("the official capture boards")
        .into_iter()
        .map(|e| e.level.expect("corpus boards parse"))
        .collect()
}

fn solve(c: &mut Criterion) {
    let levels = corpus();
    let mut group = c.benchmark_group("puzzle-quest/solve");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for id in HARDEST {
        let level = levels.iter().find(|l| l.id == id).expect("a corpus board");
        group.bench_function(format!("{id} {}", level.name), |b| {
            b.iter(|| {
                let answer = solve_with(level, Reductions::default(), &SearchControl::unlimited());
                assert!(matches!(answer, Answer::Solved { proof, .. } if proof.is_optimal()));
                black_box(answer)
            })
        });
    }
    group.finish();
}

fn simulate(c: &mut Criterion) {
    let levels = corpus();
    let boards: Vec<Board> = levels.iter().map(|l| Board::from_grid(&l.grid)).collect();
    c.bench_function("puzzle-quest/every swap of the 52 start boards", |b| {
        b.iter(|| {
            let mut results = 0u64;
            for board in &boards {
                board.for_each_swap(|next, _, _| results += u64::from(next.is_empty()) + 1);
            }
            black_box(results)
        })
    });
}

criterion_group!(benches, solve, simulate);
criterion_main!(benches);
