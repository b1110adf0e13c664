//! Sliding blocks: frontier's engine on Layton puzzles with one thread and with every core,
//! beside the same puzzles (same packed states, same move generator) searched by the
//! `pathfinding` crate, what a Rust user would otherwise reach for.
//!
//! `cargo bench --bench sliding_blocks`; compare runs with criterion's `--save-baseline NAME` and
//! `--baseline NAME`.

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use frontier::engine::{SearchControl, Space};
use frontier::games::sliding_blocks::bits::Bits;
use frontier::games::sliding_blocks::space::SlidingSpace;
use frontier::games::sliding_blocks::{Level, SlidingBlocks, WithSpace, with_space};
use frontier::games::{Answer, Game, read_level};
use rayon::ThreadPoolBuilder;

/// Puzzles and their fewest moves: bidirectional search (one goal state) and A* (free blocks).
const PUZZLES: [(&str, u64); 4] = [
    ("🎩 The Time Machine", 39),
    ("🎩 The Diabolical Box", 78),
    ("🎩 Garbage Disposal", 31),
    ("🎩 Trapped Treasure", 128),
];

fn load(name: &str) -> Level {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora/official/sliding-blocks/layton-puzzles.tsv");
    read_level::<SlidingBlocks>(&path, name).unwrap_or_else(|e| panic!("{e}"))
}

fn frontier_moves(level: &Level) -> u64 {
    match SlidingBlocks::solve(level, &SearchControl::unlimited()) {
        Answer::Solved { moves, .. } => moves,
        other => panic!("{other:?}"),
    }
}

/// The same space searched by `pathfinding`: bidirectional BFS where the goal is one state
/// (as frontier does), else plain BFS.
struct Pathfinding;

impl WithSpace for Pathfinding {
    type Output = u64;
    fn run<M: Bits, const N: usize>(self, space: SlidingSpace<'_, M, N>) -> u64 {
        let successors = |s: &_| {
            let mut next = Vec::new();
            space.successors(s, &mut next);
            next
        };
        let start = space.start();
        let path = match space.unique_goal() {
            Some(goal) => {
                pathfinding::directed::bfs::bfs_bidirectional(&start, &goal, successors, successors)
            }
            None => pathfinding::directed::bfs::bfs(&start, successors, |s| space.is_goal(s)),
        };
        path.expect("solvable").len() as u64 - 1
    }
}

fn bench(c: &mut Criterion) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pools: Vec<(String, rayon::ThreadPool)> = [1, cores]
        .into_iter()
        .map(|n| {
            (
                format!("frontier-{n}-threads"),
                ThreadPoolBuilder::new().num_threads(n).build().unwrap(),
            )
        })
        .collect();
    for (name, moves) in PUZZLES {
        let level = load(name);
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        for (label, pool) in &pools {
            group.bench_function(label.as_str(), |b| {
                b.iter(|| assert_eq!(pool.install(|| frontier_moves(&level)), moves));
            });
        }
        group.bench_function("pathfinding", |b| {
            b.iter(|| assert_eq!(with_space(&level, Pathfinding), moves));
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
