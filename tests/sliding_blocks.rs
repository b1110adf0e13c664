//! Sliding blocks end to end: the Layton corpus solved with its known minima, classic Klotski,
//! the repository's own puzzles, and `check` on every solution.

mod common;

use std::collections::HashMap;
use std::path::Path;

use frontier::engine::SearchControl;
use frontier::engine::control::Limits;
use frontier::games::sliding_blocks::{SlidingBlocks, reachable_positions};
use frontier::games::{Game, Source};
use frontier::harness::results::{Row, Status};
use frontier::harness::solve_paths;

fn solve(path: &Path) -> Vec<Row> {
    let rows =
        solve_paths(&[path.to_path_buf()], None, Limits::default()).expect("the puzzles load");
    common::assert_expanded_within_states(&rows);
    rows
}

/// Replays a row's solution on its puzzle with the checker alone.
fn check(path: &Path, row: &Row) -> u64 {
    let text = std::fs::read_to_string(path).unwrap();
    let stem = frontier::harness::file_stem(path);
    let source = Source {
        path,
        stem: &stem,
        text: &text,
    };
    let entry = SlidingBlocks::parse(&source)
        .into_iter()
        .find(|e| e.name == row.level)
        .expect("the row's puzzle");
    let level = entry.level.expect("a valid puzzle");
    SlidingBlocks::check(&level, &row.solution)
        .unwrap_or_else(|e| panic!("{}: {e}", row.level))
        .moves
}

#[test]
fn layton_puzzles_are_solved_with_their_known_minimum_moves() {
    let corpus = common::official("sliding-blocks/layton-puzzles.tsv");
    let known: HashMap<String, u64> =
        std::fs::read_to_string(common::official("sliding-blocks/known-min-moves.tsv"))
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| {
                let (name, moves) = l.split_once('\t').unwrap();
                (name.to_string(), moves.parse().unwrap())
            })
            .collect();
    assert_eq!(known.len(), 12);
    let rows = solve(&corpus);
    assert_eq!(rows.len(), 24);
    for row in &rows {
        common::assert_solved_optimally(row);
        assert_eq!(check(&corpus, row), row.moves.unwrap(), "{}", row.level);
        if let Some(&min) = known.get(&row.level) {
            assert_eq!(row.moves, Some(min), "{}", row.level);
        }
    }
    let time_machine = rows
        .iter()
        .find(|r| r.level == "🎩 The Time Machine")
        .unwrap();
    assert_eq!(time_machine.moves, Some(39));
}

#[test]
fn classic_klotski_takes_81_moves_among_25955_positions() {
    let path = common::own("sliding-blocks/klotski.txt");
    let rows = solve(&path);
    assert_eq!((rows[0].status, rows[0].moves), (Status::Solved, Some(81)));
    assert_eq!(check(&path, &rows[0]), 81);
    let text = std::fs::read_to_string(&path).unwrap();
    let source = Source {
        path: &path,
        stem: "klotski",
        text: &text,
    };
    let level = SlidingBlocks::parse(&source).remove(0).level.unwrap();
    assert_eq!(
        reachable_positions(&level, &SearchControl::unlimited()),
        Ok(25_955)
    );
}

#[test]
fn the_repository_puzzles_end_as_designed() {
    let rows = solve(&common::own("sliding-blocks"));
    let status: HashMap<&str, (Status, Option<u64>)> = rows
        .iter()
        .map(|r| (r.level.as_str(), (r.status, r.moves)))
        .collect();
    assert!(rows.iter().all(|r| r.status != Status::Error), "{rows:?}");
    assert_eq!(status["unsolvable"], (Status::Unsolvable, None));
    assert_eq!(status["klotski"], (Status::Solved, Some(81)));
    assert_eq!(status["swap two goals"], (Status::Solved, Some(3)));
    assert_eq!(status["already solved"], (Status::Solved, Some(0)));
    assert!(rows.len() >= 14);
}

/// `frontier analyze` on the Layton set: every level's whole space is explored and reports the
/// optimum `solve` proves. About a quarter of an hour on two cores, in under 3 GB ("The
/// Diabolical Box Reopened" alone holds 1.6 G positions): run with `--ignored`.
#[test]
#[ignore]
fn analyze_reports_the_optimum_solve_proves_on_the_layton_set() {
    use frontier::harness::analyze::analyze_all;
    let corpus = common::official("sliding-blocks/layton-puzzles.tsv");
    let solved = solve(&corpus);
    let files = frontier::harness::discover::discover(&[corpus], None).unwrap();
    let tasks = frontier::harness::load_tasks(&files.files).unwrap();
    let analyses = analyze_all(&tasks, Limits::default(), true);
    let mut analyzed = 0;
    for (analysis, row) in analyses.iter().zip(&solved) {
        assert_eq!(analysis.row.level, row.level);
        if analysis.row.status == "analyzed" {
            analyzed += 1;
            assert_eq!(
                analysis.row.optimum.map(u64::from),
                row.moves,
                "{}",
                row.level
            );
        }
    }
    assert_eq!(analyzed, 24, "{analyzed} of 24 analyzed");
}
