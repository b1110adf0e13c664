//! Golf Peaks over the official corpus (`corpora/official/golf-peaks`): the whole
//! corpus as `frontier solve` runs it (levels in parallel, each re-checked), the table of plays
//! alone, and the largest level (`10-12`). Run with `cargo bench --bench golf_peaks`.

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};

use frontier::engine::SearchControl;
use frontier::engine::control::Limits;
use frontier::games::golf_peaks::space::GolfSpace;
use frontier::games::golf_peaks::{GolfPeaks, Level};
use frontier::games::{Answer, Game, read_level};
use frontier::harness::results::Status;
use frontier::harness::solve_paths;

fn official_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpora/official/golf-peaks")
}

/// The official levels, in name order.
fn official_levels() -> Vec<(String, Level)> {
    let dir = official_dir();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    paths.iter().map(|path| (stem(path), load(path))).collect()
}

fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

fn load(path: &Path) -> Level {
    read_level::<GolfPeaks>(path, &stem(path)).unwrap_or_else(|e| panic!("{e}"))
}

fn solve(level: &Level) -> u64 {
    match GolfPeaks::solve(level, &SearchControl::unlimited()) {
        Answer::Solved { moves, .. } => moves,
        other => panic!("not solved: {other:?}"),
    }
}

fn bench(c: &mut Criterion) {
    let levels = official_levels();
    assert_eq!(levels.len(), 121);
    let mut group = c.benchmark_group("golf_peaks");
    group.sample_size(20);
    group.bench_function("solve official corpus (121 levels, as the CLI)", |b| {
        b.iter(|| {
            let rows = solve_paths(
                std::slice::from_ref(&official_dir()),
                None,
                Limits::default(),
            )
            .expect("the corpus is found");
            assert!(rows.iter().all(|r| r.status == Status::Solved));
            rows.len()
        })
    });
    group.bench_function("table of plays, official corpus", |b| {
        b.iter(|| {
            levels
                .iter()
                .map(|(_, level)| {
                    let space = GolfSpace::new(level, &SearchControl::unlimited()).unwrap();
                    space.position(0).ball as u64
                })
                .sum::<u64>()
        })
    });
    let (_, largest) = levels.iter().find(|(name, _)| name == "10-12").unwrap();
    group.bench_function("solve 10-12", |b| b.iter(|| solve(largest)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
