//! Golf Peaks against the official corpus (`corpora/official/golf-peaks/`): every verified
//! solution replays, the whole corpus solves end to end with exactly `fewest_plays`, and the
//! reachable state counts of spec §4 match. The authored levels (`corpora/golf-peaks/`) solve as
//! their answer table says.

mod common;

use std::collections::HashMap;
use std::path::Path;

use frontier::engine::SearchControl;
use frontier::engine::control::Limits;
use frontier::engine::explore::count_reachable;
use frontier::games::golf_peaks::space::GolfSpace;
use frontier::games::golf_peaks::{GolfPeaks, Level};
use frontier::games::{Game, GameId, Source};
use frontier::harness::results::Status;
use frontier::harness::solve_paths;

/// `level -> (fewest_plays, verified solutions)` from an `answers.tsv` (`None`: unsolvable).
fn answers_at(path: &Path) -> HashMap<String, (Option<u64>, Vec<String>)> {
    let text = std::fs::read_to_string(path).expect("answers.tsv is readable");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("level\tfewest_plays\tverified_solutions")
    );
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "answers.tsv row `{line}`");
            let solutions = fields[2]
                .split(" | ")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            let fewest = match fields[1] {
                "unsolvable" => None,
                n => Some(n.parse().expect("fewest_plays is a number")),
            };
            (fields[0].to_string(), (fewest, solutions))
        })
        .collect()
}

fn answers() -> HashMap<String, (Option<u64>, Vec<String>)> {
    answers_at(&common::official("golf-peaks/answers.tsv"))
}

/// Every official level, by name.
fn official_levels() -> Vec<(String, Level)> {
    let dir = common::official("golf-peaks");
    let mut levels: Vec<(String, Level)> = std::fs::read_dir(&dir)
        .expect("the official corpus is readable")
        .map(|entry| entry.expect("a directory entry").path())
        // The level files; `answers.tsv` lies beside them.
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .map(|path| {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).expect("a level is readable");
            (stem, parse(&path, &text))
        })
        .collect();
    levels.sort_by(|a, b| a.0.cmp(&b.0));
    levels
}

fn parse(path: &Path, text: &str) -> Level {
    let stem = path.file_stem().unwrap().to_string_lossy();
    let source = Source {
        path,
        stem: &stem,
        text,
    };
    let mut entries = GolfPeaks::parse(&source);
    assert_eq!(entries.len(), 1);
    entries
        .remove(0)
        .level
        .unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()))
}

/// Distinct states reachable from the start, goal states counted but not expanded (spec §4).
fn reachable_states(level: &Level) -> usize {
    let ctl = SearchControl::unlimited();
    let space = GolfSpace::exhaustive(level, &ctl).expect("no limits");
    count_reachable(&space, false, &ctl).expect("no limits") as usize
}

#[test]
fn every_verified_solution_replays() {
    let answers = answers();
    let levels = official_levels();
    assert_eq!(levels.len(), 121);
    let mut replayed = 0;
    for (name, level) in &levels {
        let (fewest, solutions) = &answers[name];
        for solution in solutions {
            let verdict = GolfPeaks::check(level, solution)
                .unwrap_or_else(|why| panic!("{name}: `{solution}` rejected: {why}"));
            assert!(Some(verdict.moves) >= *fewest, "{name}: `{solution}`");
            replayed += 1;
        }
    }
    assert_eq!(replayed, 220);
}

#[test]
fn reachable_state_counts_match_the_spec() {
    let levels = official_levels();
    let counts: HashMap<&str, usize> = levels
        .iter()
        .map(|(name, level)| (name.as_str(), reachable_states(level)))
        .collect();
    assert_eq!(counts["10-12"], 4_112);
    assert_eq!(counts.values().sum::<usize>(), 56_922);
}

#[test]
fn the_official_corpus_solves_with_the_fewest_plays() {
    let answers = answers();
    let rows = solve_paths(&[common::official("golf-peaks")], None, Limits::default())
        .expect("the corpus is found");
    assert_eq!(rows.len(), 121);
    common::assert_expanded_within_states(&rows);
    for row in &rows {
        assert_eq!(row.game, GameId::GolfPeaks);
        common::assert_solved_optimally(row);
        assert_eq!(row.moves, answers[&row.level].0, "{}", row.level);
    }
}

#[test]
fn the_authored_levels_solve_as_intended() {
    let dir = common::own("golf-peaks");
    let answers = answers_at(&dir.join("answers.tsv"));
    let rows = solve_paths(std::slice::from_ref(&dir), None, Limits::default())
        .expect("the authored levels are found");
    assert_eq!(rows.len(), answers.len());
    for row in &rows {
        let (fewest, solutions) = &answers[&row.level];
        match fewest {
            Some(moves) => {
                common::assert_solved(row);
                assert_eq!(row.moves, Some(*moves), "{}", row.level);
            }
            None => assert_eq!(row.status, Status::Unsolvable, "{}", row.level),
        }
        assert!(row.optimal, "{}", row.level);
        let path = dir.join(format!("{}.txt", row.level));
        let level = parse(&path, &std::fs::read_to_string(&path).unwrap());
        for solution in solutions {
            let verdict = GolfPeaks::check(&level, solution)
                .unwrap_or_else(|why| panic!("{}: `{solution}` rejected: {why}", row.level));
            assert_eq!(Some(verdict.moves), *fewest, "{}: `{solution}`", row.level);
        }
    }
}
