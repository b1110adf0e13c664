//! `frontier solve --solver`: another program solves the levels, under limits frontier holds,
//! and frontier checks every answer. The solvers are the tests' own (`tests/solvers/tiny.rs`,
//! compiled here with `rustc`): one answers from frontier's own results, one wrongly, one
//! sleeps, one allocates, one crashes, one prints garbage, one leaves a child behind.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::{frontier, official, scratch, str, text};
use frontier::harness::levels::selected_levels;
use frontier::harness::results::{Row, Status, parse_csv};

/// Four Golf Peaks levels of one to four cards.
const LEVELS: &str = "1-1*";

/// The tiny solvers, compiled once.
fn tiny() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = scratch("tiny-solver");
        let binary = dir.join("tiny");
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/solvers/tiny.rs");
        let built = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
            .args(["--edition", "2021", "-O", "-o", str(&binary), str(&source)])
            .output()
            .expect("rustc runs");
        assert!(built.status.success(), "{}", text(&built.stderr));
        binary
    })
}

/// frontier's own answers for the levels, as `name<TAB>solution` lines, for the solvers that
/// answer from them.
fn answers(dir: &Path) -> PathBuf {
    let reference =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("results/baselines/official-golf-peaks.csv");
    let rows = parse_csv(&fs::read_to_string(reference).unwrap()).unwrap();
    let lines: String = rows
        .iter()
        .map(|row| format!("{}\t{}\n", row.level, row.solution))
        .collect();
    let path = dir.join("answers.tsv");
    fs::write(&path, lines).unwrap();
    path
}

/// `solve --solver COMMAND` over the levels, with `extra` arguments; the rows, the exit
/// status and the time it took.
fn solve(dir: &Path, command: &str, extra: &[&str]) -> (Vec<Row>, Option<i32>, Duration) {
    let out = dir.join("results.csv");
    let golf = official("golf-peaks");
    let reference =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("results/baselines/official-golf-peaks.csv");
    let mut args = vec![
        "solve",
        "--solver",
        command,
        "--reference",
        str(&reference),
        "--level",
        LEVELS,
        "--quiet",
        "--out",
        str(&out),
    ];
    args.extend_from_slice(extra);
    args.push(str(&golf));
    let started = Instant::now();
    let output = frontier(&args);
    let took = started.elapsed();
    let rows = parse_csv(&fs::read_to_string(&out).unwrap_or_else(|e| {
        panic!("{e}: {}", text(&output.stderr));
    }))
    .unwrap();
    assert_eq!(rows.len(), 4, "{}", text(&output.stderr));
    (rows, output.status.code(), took)
}

fn command(mode: &str, dir: &Path) -> String {
    format!(
        "{} {mode} {} {{name}}",
        tiny().display(),
        answers(dir).display()
    )
}

#[test]
fn answers_that_reach_the_known_optimum_are_solved_and_optimal() {
    let dir = scratch("answers");
    let (rows, status, _) = solve(&dir, &command("answers", &dir), &[]);
    for row in &rows {
        common::assert_solved_optimally(row);
        assert!(row.peak_kib.is_some_and(|kib| kib > 0), "{row:?}");
        assert!(row.cpu_millis.is_some(), "{row:?}");
    }
    assert_eq!(status, Some(0));
    // The sidecar records the solver.
    let sidecar = fs::read_to_string(dir.join("results.csv.json")).unwrap();
    assert!(sidecar.contains("\"solver\""), "{sidecar}");
    assert!(sidecar.contains("tiny answers"), "{sidecar}");
}

#[test]
fn the_states_a_solver_reports_are_its_row_s() {
    let dir = scratch("states");
    let (rows, _, _) = solve(&dir, &command("states 77", &dir), &[]);
    assert!(rows.iter().all(|r| r.states == 77), "{rows:?}");
}

#[test]
fn a_wrong_answer_is_a_wrong_row_with_the_checker_s_reason() {
    let dir = scratch("wrong");
    let (rows, status, _) = solve(&dir, &command("wrong", &dir), &[]);
    for row in &rows {
        assert_eq!(row.status, Status::Wrong, "{row:?}");
        assert!(!row.note.is_empty(), "{row:?}");
    }
    assert_eq!(status, Some(1));
    // compare: every level worse than frontier's own run, and exit 1.
    let base =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("results/baselines/official-golf-peaks.csv");
    let compared = frontier(&["compare", str(&base), str(&dir.join("results.csv"))]);
    assert_eq!(
        compared.status.code(),
        Some(1),
        "{}",
        text(&compared.stdout)
    );
    let report = text(&compared.stdout);
    for row in &rows {
        assert!(report.contains(&row.level), "{report}");
    }
}

#[test]
fn a_solver_past_the_timeout_is_killed_with_a_limit_row() {
    let dir = scratch("sleep");
    let command = format!("{} sleep", tiny().display());
    let (rows, _, took) = solve(&dir, &command, &["--timeout", "0.3"]);
    for row in &rows {
        assert_eq!(row.status, Status::Limit, "{row:?}");
        assert!(row.detail().starts_with("timeout of 0.300 s"), "{row:?}");
    }
    assert!(took < Duration::from_secs(20), "{took:?}");
}

#[test]
fn a_solver_past_the_memory_limit_is_killed_within_a_second() {
    let dir = scratch("alloc");
    let command = format!("{} alloc 2048", tiny().display());
    let (rows, _, _) = solve(&dir, &command, &["--max-memory", "500", "--timeout", "30"]);
    for row in &rows {
        assert_eq!(row.status, Status::Limit, "{row:?}");
        assert!(
            row.detail().starts_with("memory limit of 500 MiB"),
            "{row:?}"
        );
        // Touching 2 GiB takes about a second (three on a loaded machine); it was stopped soon
        // after crossing 500 MiB, and long before its minute of sleep.
        assert!(row.millis < 10_000.0, "{row:?}");
        let peak = row.peak_kib.unwrap();
        assert!((500 << 10..800 << 10).contains(&peak), "{row:?}");
    }
}

#[test]
fn the_measured_peak_is_within_ten_percent_of_what_the_solver_holds() {
    let dir = scratch("hold");
    let (rows, _, _) = solve(&dir, &command("hold 300", &dir), &[]);
    for row in &rows {
        common::assert_solved_optimally(row);
        let peak = row.peak_kib.unwrap() as f64 / 1024.0;
        assert!((300.0..330.0).contains(&peak), "{peak} MiB: {row:?}");
    }
}

#[test]
fn a_crash_and_garbage_are_error_rows() {
    let dir = scratch("crash");
    let (rows, _, _) = solve(&dir, &format!("{} crash", tiny().display()), &[]);
    for row in &rows {
        assert_eq!(row.status, Status::Error, "{row:?}");
        assert!(row.note.contains("killed by signal 6"), "{row:?}");
    }
    let (rows, _, _) = solve(&dir, &format!("{} garbage", tiny().display()), &[]);
    for row in &rows {
        assert_eq!(row.status, Status::Error, "{row:?}");
        assert!(row.note.contains("not text"), "{row:?}");
    }
}

#[test]
fn no_process_outlives_its_level() {
    let dir = scratch("fork");
    let marker = format!("frontier-fork-test-{}", std::process::id());
    let (rows, _, _) = solve(&dir, &command(&format!("fork {marker}"), &dir), &[]);
    rows.iter().for_each(common::assert_solved_optimally);
    // Every process's command line, from /proc (the marker is in the left child's).
    let left: Vec<String> = fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| fs::read(entry.path().join("cmdline")).ok())
        .map(|cmdline| text(&cmdline).replace('\0', " "))
        .filter(|cmdline| cmdline.contains(&marker))
        .collect();
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn the_level_comes_as_a_file_or_on_standard_input() {
    let dir = scratch("input");
    // `cat` of the file, or of standard input, is the level's text: a wrong answer, whose
    // checker's reason shows the solver was run; the file is the level's own.
    for command in ["cat {level}", "cat"] {
        let (rows, _, _) = solve(&dir, command, &[]);
        for row in &rows {
            assert_eq!(row.status, Status::Wrong, "{command}: {row:?}");
        }
    }
}

/// Each level of a file of several levels is handed over alone, in a file that frontier
/// itself reads as that one level.
#[test]
fn each_level_alone_is_a_file_of_its_game_holding_it() {
    let dir = scratch("alone");
    for set in [
        "ice-tower/original.txt",
        "puzzle-quest/capture-boards.txt",
        "sliding-blocks/layton-puzzles.tsv",
        "golf-peaks/1-1.txt",
        "bender4/01-intro1.txt",
    ] {
        let tasks = selected_levels(&[official(set)], None, None).unwrap();
        assert!(!tasks.is_empty(), "{set}");
        for (i, task) in tasks.iter().enumerate() {
            let alone = task.alone().unwrap();
            let path = dir.join(format!("{i}.{}", alone.extension));
            fs::write(&path, &alone.text).unwrap();
            let again = selected_levels(&[path], Some(task.game()), None).unwrap();
            assert_eq!(again.len(), 1, "{set} {}", task.name());
            assert!(again[0].alone().is_ok(), "{set} {}", task.name());
            // Files of one level name it by their stem; the others' levels keep their names.
            if !set.starts_with("golf-peaks") && !set.starts_with("bender4") {
                assert_eq!(again[0].name(), task.name(), "{set}");
            }
        }
    }
}
