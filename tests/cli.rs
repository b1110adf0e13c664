//! The command line end to end: exit statuses, error and limit rows, game detection, `check`,
//! `compare` and `report`, run as a user would run them.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{frontier, scratch, str, text};

#[test]
fn a_bad_level_gives_an_error_row_and_the_batch_goes_on() {
    let dir = scratch("bad").join("sliding-blocks");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("good.txt"), "A..\n\n..A\n").unwrap();
    fs::write(dir.join("bad.txt"), "aa\n\na.\n").unwrap();
    fs::write(dir.join("notes.md"), "skipped\n").unwrap();
    let out = dir.join("out.csv");
    let run = frontier(&["solve", "--quiet", "--out", str(&out), str(&dir)]);
    assert_eq!(
        run.status.code(),
        Some(1),
        "an error row makes the exit status 1"
    );
    let csv = fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[1].starts_with("sliding-blocks,bad,error,"), "{csv}");
    assert!(
        lines[1].contains("bad.txt:2: shape mismatch for `a`"),
        "{csv}"
    );
    assert!(
        lines[2].starts_with("sliding-blocks,good,solved,1,yes,1,"),
        "{csv}"
    );
}

#[test]
fn limits_give_limit_rows() {
    let klotski = common::own("sliding-blocks/klotski.txt");
    let run = frontier(&[
        "solve",
        "--quiet",
        "--max-states",
        "500",
        "--out",
        "-",
        str(&klotski),
    ]);
    assert_eq!(run.status.code(), Some(1));
    let csv = text(&run.stdout);
    assert!(csv.contains(",klotski,limit,,no,,"), "{csv}");
    assert!(
        csv.contains("max-states limit of 500 states reached"),
        "{csv}"
    );
    let run = frontier(&[
        "solve",
        "--quiet",
        "--timeout",
        "0.000001",
        "--out",
        "-",
        str(&klotski),
    ]);
    assert!(
        text(&run.stdout).contains("timeout of"),
        "{}",
        text(&run.stdout)
    );
    // Every level has a time budget unless it is removed, and the sidecar records which.
    let dir = scratch("budget");
    for (given, recorded) in [(None, "30.0"), (Some("none"), "null"), (Some("0"), "null")] {
        let out = dir.join("klotski.csv");
        let mut args = vec!["solve", "--quiet", "--out", str(&out)];
        args.extend(given.iter().flat_map(|t| ["--timeout", t]));
        args.push(str(&klotski));
        let run = frontier(&args);
        assert!(run.status.success(), "{run:?}");
        let sidecar = fs::read_to_string(dir.join("klotski.csv.json")).unwrap();
        assert!(
            sidecar.contains(&format!("\"timeout_s\": {recorded}")),
            "{given:?}: {sidecar}"
        );
    }
    for bad in ["-1", "soon", "inf"] {
        let run = frontier(&["solve", &format!("--timeout={bad}"), str(&klotski)]);
        assert_eq!(run.status.code(), Some(2), "--timeout {bad}");
        assert!(text(&run.stderr).contains("--timeout"), "{run:?}");
    }
}

#[test]
fn solved_and_unsolvable_levels_exit_zero_and_the_csv_goes_to_stdout() {
    let run = frontier(&[
        "solve",
        "--quiet",
        "--out",
        "-",
        str(&common::own("sliding-blocks/unsolvable.txt")),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let csv = text(&run.stdout);
    // The spec's twelve columns, then the range of times of repeated runs, then an external
    // solver's peak memory and CPU time.
    assert!(csv.starts_with("game,level,status,moves,optimal,score,states,expanded,millis,bytes_per_state,solution,detail,millis_min,millis_max,peak_kib,cpu_millis\n"));
    assert!(
        csv.contains("sliding-blocks,unsolvable,unsolvable,"),
        "{csv}"
    );
}

#[test]
fn a_file_of_no_known_game_is_a_usage_error() {
    let dir = scratch("unknown");
    let file = dir.join("mystery.txt");
    fs::write(&file, "hello\n").unwrap();
    let run = frontier(&["solve", "--quiet", "--out", "-", str(&file)]);
    assert_eq!(run.status.code(), Some(2));
    let err = text(&run.stderr);
    assert!(
        err.contains("mystery.txt") && err.contains("--game"),
        "{err}"
    );
    // --game decides: the file is then a malformed level of that game, an error row.
    let run = frontier(&[
        "solve",
        "--quiet",
        "--game",
        "sliding-blocks",
        "--out",
        "-",
        str(&file),
    ]);
    assert_eq!(run.status.code(), Some(1));
    let csv = text(&run.stdout);
    assert!(
        csv.contains(",mystery,error,") && csv.contains("mismatched bounds"),
        "{csv}"
    );
    let run = frontier(&["solve", "--game", "chess", str(&file)]);
    assert_eq!(run.status.code(), Some(2));
}

#[test]
fn check_replays_a_solution_and_says_why_one_fails() {
    let level = common::own("sliding-blocks/two-goals.txt");
    let ok = frontier(&["check", str(&level), "X:DDDRRR Y:LLL"]);
    assert_eq!(ok.status.code(), Some(0));
    assert_eq!(text(&ok.stdout), "solved in 2 moves\n");
    let bad = frontier(&["check", str(&level), "X:R"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        text(&bad.stdout).starts_with("after 1 move the goal"),
        "{}",
        text(&bad.stdout)
    );
    let mut stdin = Command::new(env!("CARGO_BIN_EXE_frontier"))
        .args(["check", str(&level), "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    stdin
        .stdin
        .take()
        .unwrap()
        .write_all(b"X:DDDRRR\nY:LLL\n")
        .unwrap();
    let piped = stdin.wait_with_output().unwrap();
    assert_eq!(text(&piped.stdout), "solved in 2 moves\n");
}

#[test]
fn check_picks_a_level_of_a_multi_level_file() {
    let file = common::own("sliding-blocks/small-cases.tsv");
    let run = frontier(&["check", str(&file), "A:RR"]);
    assert_eq!(run.status.code(), Some(2), "which level is ambiguous");
    assert!(text(&run.stderr).contains("--level"));
    let run = frontier(&["check", "--level", "slide right", str(&file), "A:RR"]);
    assert_eq!(
        (run.status.code(), text(&run.stdout)),
        (Some(0), "solved in 1 move\n".into())
    );
}

#[test]
fn check_and_show_select_a_level_as_solve_does() {
    let layton = common::official("sliding-blocks/layton-puzzles.tsv");
    // A part of the name, as `solve --level` takes it.
    let run = frontier(&["show", "--level", "Time Machine", str(&layton)]);
    assert!(run.status.success(), "{run:?}");
    assert!(text(&run.stdout).starts_with("start\n"), "{run:?}");
    // Several levels match: each is named, and none is drawn.
    let run = frontier(&["show", "--level", "*Greatest*", str(&layton)]);
    assert_eq!(run.status.code(), Some(2));
    let said = text(&run.stderr);
    assert!(
        said.contains("2 levels match")
            && said.contains("The Greatest Escape 1")
            && said.contains("The Greatest Escape 2"),
        "{said}"
    );
    assert!(run.stdout.is_empty());
    // A level named exactly as the pattern wins over the others it is part of (c99-1, c99-2).
    let qits = common::official("ice-tower/qits.txt");
    let run = frontier(&["check", "--level", "c99", str(&qits), "1,1,R"]);
    assert_eq!(run.status.code(), Some(1), "{run:?}");
    assert!(text(&run.stdout).starts_with("move 1"), "{run:?}");
    // `=NAME`, and a pattern that matches nothing.
    let run = frontier(&["check", "--level", "=c99-1", str(&qits), "1,1,R"]);
    assert_eq!(run.status.code(), Some(1), "{run:?}");
    let run = frontier(&["check", "--level", "=c99-", str(&qits), "1,1,R"]);
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(text(&run.stderr).contains("no level matches"), "{run:?}");
}

#[test]
fn compare_passes_on_identical_results_and_fails_on_a_regression() {
    let dir = scratch("compare");
    let base = dir.join("base.csv");
    let run = frontier(&[
        "solve",
        "--quiet",
        "--out",
        str(&base),
        str(&common::own("sliding-blocks")),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let same = frontier(&["compare", str(&base), str(&base)]);
    assert_eq!(same.status.code(), Some(0));
    let same = text(&same.stdout);
    assert!(
        same.contains("\ntimes compared: same settings and machine\nOK: "),
        "{same}"
    );
    // Inject a worse answer: klotski in 82 moves.
    let worse = fs::read_to_string(&base)
        .unwrap()
        .replace(",klotski,solved,81,yes,81,", ",klotski,solved,82,yes,82,");
    let new = dir.join("new.csv");
    fs::write(&new, worse).unwrap();
    let run = frontier(&["compare", str(&base), str(&new)]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        text(&run.stdout).contains("[answer worse] sliding-blocks klotski: moves 81 -> 82"),
        "{}",
        text(&run.stdout)
    );
    let page = dir.join("report.html");
    let run = frontier(&["report", "--out", str(&page), str(&base), str(&new)]);
    assert!(run.status.success());
    let html = fs::read_to_string(&page).unwrap();
    assert!(html.contains("<svg") && html.contains("REGRESSED"));
}

#[test]
fn an_interrupt_stops_the_searches_and_writes_every_row() {
    // A search far longer than the test (the 15-puzzle turned around), then a small level.
    let dir = scratch("interrupt");
    let out = dir.join("results.csv");
    let fifteen = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/levels/fifteen.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_frontier"))
        .args(["solve", "--quiet", "--game", "sliding-blocks"])
        .args([
            "--parallel-levels",
            "1",
            "--max-memory",
            "1500",
            "--timeout",
            "120",
        ])
        .args(["--out", str(&out), str(&fifteen)])
        .arg(common::own("sliding-blocks/klotski.txt"))
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the binary runs");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: `kill` on the child's process id, which is ours until we wait for it.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed().as_secs() < 30,
            "no exit 30 s after SIGINT"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(130));
    let rows = fs::read_to_string(&out).unwrap();
    let rows: Vec<&str> = rows.lines().collect();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(
        rows[1].starts_with("sliding-blocks,fifteen,limit,")
            && rows[1].contains(",interrupted after "),
        "{}",
        rows[1]
    );
    assert!(
        rows[2].starts_with("sliding-blocks,klotski,limit,")
            && rows[2].contains(",interrupted before it started,"),
        "{}",
        rows[2]
    );
}

#[test]
fn a_symlink_loop_is_walked_once_and_each_level_gets_one_row() {
    let dir = scratch("loop").join("sliding-blocks");
    fs::create_dir_all(&dir).unwrap();
    for name in ["donut.txt", "stairs.txt"] {
        fs::copy(
            common::own(&format!("sliding-blocks/{name}")),
            dir.join(name),
        )
        .unwrap();
    }
    std::os::unix::fs::symlink("..", dir.join("loop")).unwrap();
    std::os::unix::fs::symlink("donut.txt", dir.join("z-donut-again.txt")).unwrap();
    let run = frontier(&["solve", "--quiet", "--out", "-", str(dir.parent().unwrap())]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let csv = text(&run.stdout);
    let levels: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(levels, ["donut", "stairs"], "{csv}");
    let stderr = text(&run.stderr);
    assert_eq!(stderr.matches("a link back to").count(), 1, "{stderr}");
}

#[test]
fn levels_come_from_standard_input_with_a_dash() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_frontier"))
        .args([
            "solve",
            "--quiet",
            "--game",
            "sliding-blocks",
            "--out",
            "-",
            "-",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let level = fs::read(common::own("sliding-blocks/donut.txt")).unwrap();
    child.stdin.take().unwrap().write_all(&level).unwrap();
    let run = child.wait_with_output().unwrap();
    assert_eq!(run.status.code(), Some(0));
    let csv = text(&run.stdout);
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("sliding-blocks,stdin,solved,24,yes,"),
        "{csv}"
    );
}

#[test]
fn level_selects_levels_by_substring_or_glob() {
    let names = |pattern: &str| {
        let (run, names) = solve_selected(pattern, &common::own("sliding-blocks"));
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
        names
    };
    assert_eq!(names("lotsk"), ["klotski"]);
    assert_eq!(names("[dk]*"), ["disconnected", "donut", "klotski"]);
    let none = frontier(&[
        "solve",
        "--quiet",
        "--level",
        "zzz",
        str(&common::own("sliding-blocks")),
    ]);
    assert_eq!(none.status.code(), Some(2));
    assert!(
        text(&none.stderr).contains("no level"),
        "{}",
        text(&none.stderr)
    );
}

#[test]
fn list_names_every_level_and_an_exact_name_selects_just_that_one() {
    let dir = common::own("bender4");
    let run = frontier(&["solve", "--list", str(&dir)]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let listed: Vec<String> = text(&run.stdout).lines().map(String::from).collect();
    assert_eq!(listed.len(), 6, "{listed:?}");
    // "switch" is part of two names; "=own-switch" is one of them.
    assert!(listed.iter().filter(|n| n.contains("switch")).count() > 1);
    for name in &listed {
        let exact = format!("={name}");
        let (run, names) = solve_selected(&exact, &dir);
        assert!(
            run.status.code().is_some_and(|c| c <= 1),
            "{}",
            text(&run.stderr)
        );
        assert_eq!(names, [name.as_str()], "--level {exact}");
    }
}

/// `solve --level PATTERN DIR` with the CSV on standard output: the run and the level names of
/// its rows.
fn solve_selected(pattern: &str, dir: &Path) -> (Output, Vec<String>) {
    let run = frontier(&[
        "solve",
        "--quiet",
        "--out",
        "-",
        "--level",
        pattern,
        str(dir),
    ]);
    let names = text(&run.stdout)
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap_or_default().to_string())
        .collect();
    (run, names)
}

#[test]
fn compare_prints_both_settings_and_does_not_time_runs_made_differently() {
    use frontier::harness::results::{parse_csv, to_csv};
    let dir = scratch("provenance");
    let (base, new) = (dir.join("base.csv"), dir.join("new.csv"));
    let corpus = common::own("sliding-blocks");
    for (out, levels) in [(&base, "1"), (&new, "2")] {
        let run = frontier(&[
            "solve",
            "--quiet",
            "--parallel-levels",
            levels,
            "--out",
            str(out),
            str(&corpus),
        ]);
        assert!(run.status.success(), "{}", text(&run.stderr));
        let sidecar = fs::read_to_string(format!("{}.json", str(out))).unwrap();
        assert!(sidecar.contains("\"parallel_levels\""), "{sidecar}");
    }
    // Two levels at a time, each on a pool of its own, answer as one at a time does.
    let answers = |path: &PathBuf| -> Vec<_> {
        parse_csv(&fs::read_to_string(path).unwrap())
            .unwrap()
            .into_iter()
            .map(|r| (r.level, r.status, r.moves, r.optimal, r.states))
            .collect()
    };
    assert_eq!(answers(&base), answers(&new));
    // Every level long enough to be timed alone, and ten times slower in the new run.
    for (path, millis) in [(&base, 20.0), (&new, 200.0)] {
        let mut rows = parse_csv(&fs::read_to_string(path).unwrap()).unwrap();
        for row in &mut rows {
            row.millis = millis;
        }
        fs::write(path, to_csv(&rows)).unwrap();
    }
    let run = frontier(&["compare", str(&base), str(&new)]);
    let out = text(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{out}");
    assert!(out.starts_with("baseline: frontier "), "{out}");
    assert!(out.contains("\nnew:      frontier "), "{out}");
    assert!(
        out.contains("times not compared: the runs differ in levels at a time 1 vs 2"),
        "{out}"
    );
    let forced = frontier(&["compare", "--force-times", str(&base), str(&new)]);
    assert_eq!(forced.status.code(), Some(1), "{}", text(&forced.stdout));
}

#[test]
fn short_levels_are_timed_warm_until_their_runs_add_up() {
    use frontier::harness::results::parse_csv;
    let dir = scratch("warm");
    let level = common::own("sliding-blocks/unsolvable.txt");
    let solve = |warm_below: &str, out: &Path| {
        let run = frontier(&[
            "solve",
            "--quiet",
            "--warm-below",
            warm_below,
            "--out",
            str(out),
            str(&level),
        ]);
        assert!(run.status.success(), "{}", text(&run.stderr));
        let rows = parse_csv(&fs::read_to_string(out).unwrap()).unwrap();
        let sidecar = fs::read_to_string(format!("{}.json", str(out))).unwrap();
        (rows.into_iter().next().unwrap(), sidecar)
    };
    // A level of well under 200 ms, one run asked: its first run is not counted, and it runs
    // again until the timed runs add up to 200 ms; the row gives their median and range.
    let (warm, sidecar) = solve("200", &dir.join("warm.csv"));
    let (lo, hi) = (warm.millis_min.unwrap(), warm.millis_max.unwrap());
    assert!(
        lo <= warm.millis && warm.millis <= hi && lo < hi,
        "{warm:?}"
    );
    assert!(warm.millis < 100.0, "{warm:?}");
    assert!(sidecar.contains("\"warm_below_ms\": 200.0"), "{sidecar}");
    // Below a threshold it never meets, it is timed as usual: one run, no range.
    let (cold, sidecar) = solve("0.000001", &dir.join("cold.csv"));
    assert_eq!((cold.millis_min, cold.millis_max), (None, None));
    assert_eq!(cold.states, warm.states);
    assert!(sidecar.contains("\"warm_below_ms\": 1e-6"), "{sidecar}");
}

#[test]
fn effort_runs_more_bender_programs_and_is_recorded() {
    use frontier::harness::results::parse_csv;
    let dir = scratch("effort");
    let level = common::own("bender4/corridor.txt");
    let solve = |effort: Option<&str>, out: &Path| {
        let mut args = vec!["solve", "--quiet", "--out", str(out), str(&level)];
        args.extend(effort.map(|e| ["--effort", e]).into_iter().flatten());
        let run = frontier(&args);
        assert!(run.status.success(), "{}", text(&run.stderr));
        let row = parse_csv(&fs::read_to_string(out).unwrap())
            .unwrap()
            .remove(0);
        let sidecar = fs::read_to_string(format!("{}.json", str(out))).unwrap();
        let detail = row.note.clone();
        let programs: u64 = detail
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{detail}"));
        (row, programs, sidecar)
    };
    let (plain, plain_programs, sidecar) = solve(None, &dir.join("plain.csv"));
    assert!(!sidecar.contains("\"effort\""), "{sidecar}");
    let (more, more_programs, sidecar) = solve(Some("2"), &dir.join("more.csv"));
    assert!(sidecar.contains("\"effort\": 2"), "{sidecar}");
    assert!(
        more_programs > plain_programs,
        "{plain_programs} vs {more_programs}"
    );
    assert_eq!(plain.status, more.status);
    let zero = frontier(&["solve", "--effort", "0", str(&level)]);
    assert!(!zero.status.success());
    assert!(
        text(&zero.stderr).contains("--effort"),
        "{}",
        text(&zero.stderr)
    );
}

#[test]
fn analyze_measures_the_eight_puzzle_and_writes_its_layers() {
    let dir = scratch("analyze");
    let level = dir.join("eight.txt");
    fs::write(&level, "123\n456\n78.\n\n123\n456\n78.\n").unwrap();
    let (out, layers_path, far) = (dir.join("a.csv"), dir.join("L.csv"), dir.join("far"));
    let run = frontier(&[
        "analyze",
        "--quiet",
        "--game",
        "sliding-blocks",
        "--out",
        str(&out),
        "--layers",
        str(&layers_path),
        "--farthest",
        str(&far),
        str(&level),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let rows = fs::read_to_string(&out).unwrap();
    let mut lines = rows.lines();
    assert_eq!(
        lines.next(),
        Some(
            "game,level,status,states,eccentricity,goals,optimum,optimal_solutions,millis,bytes_per_state,detail"
        )
    );
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("sliding-blocks,eight,analyzed,181440,31,1,0,1,")
    );
    let layers = fs::read_to_string(&layers_path).unwrap();
    assert_eq!(layers.lines().count(), 1 + 32);
    assert_eq!(layers.lines().last(), Some("sliding-blocks,eight,31,2"));
    let farthest = fs::read_to_string(far.join("sliding-blocks/eight.txt")).unwrap();
    assert!(farthest.ends_with("\n\n123\n456\n78.\n"), "{farthest}");
    // A limit gives a `limit` row and exit status 1, and the layers completed before it (0 to
    // 10, 706 states: the limit strikes inside layer 11); a game without a space an `error` row.
    let limited = frontier(&[
        "analyze",
        "--quiet",
        "--game",
        "sliding-blocks",
        "--max-states",
        "1000",
        "--out",
        "-",
        "--layers",
        str(&layers_path),
        str(&level),
    ]);
    assert_eq!(limited.status.code(), Some(1));
    assert!(
        text(&limited.stdout).contains(",limit,")
            && text(&limited.stdout).contains("after 11 complete layers (706 states"),
        "{}",
        text(&limited.stdout)
    );
    let partial = fs::read_to_string(&layers_path).unwrap();
    assert_eq!(partial.lines().count(), 1 + 11);
    assert_eq!(partial.lines().last(), Some("sliding-blocks,eight,10,286"));
    let bender = frontier(&[
        "analyze",
        "--quiet",
        "--out",
        "-",
        str(&common::own("bender4/corridor.txt")),
    ]);
    assert_eq!(bender.status.code(), Some(1));
    assert!(text(&bender.stdout).contains("bender4,corridor,error,"));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn generate_writes_a_tsv_that_solve_reads_and_refuses_bad_boards() {
    let dir = scratch("generate");
    let out = dir.join("2x3.tsv");
    let run = frontier(&[
        "generate",
        "sliding-blocks",
        "--board",
        "2x3",
        "--quiet",
        "--out",
        str(&out),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let tsv = fs::read_to_string(&out).unwrap();
    assert!(tsv.starts_with("name\tstart\tgoal\tpieces\tmoves\t"));
    assert_eq!(tsv.lines().count(), 1 + 5);
    let solved = frontier(&["solve", "--quiet", "--out", "-", str(&out)]);
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    for bad in [
        &["generate", "sliding-blocks", "--board", "9x9"][..],
        &["generate", "ice-tower", "--board", "3x3"],
        &[
            "generate",
            "sliding-blocks",
            "--board",
            "3x3",
            "--pieces",
            "0",
        ],
    ] {
        let refused = frontier(bad);
        assert_eq!(refused.status.code(), Some(2), "{bad:?}");
        assert!(
            text(&refused.stderr).contains("frontier") || text(&refused.stderr).contains("error")
        );
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_solution_that_starts_with_a_dash_is_taken_as_the_csv_holds_it() {
    // "The Greatest Escape 1" has a block named `-`: its solution starts `-:D`.
    let baseline = common::own("../results/baselines/official-sliding-blocks.csv");
    let csv = fs::read_to_string(&baseline).unwrap();
    let solution = csv
        .lines()
        .find(|l| l.contains("Greatest Escape 1,solved"))
        .and_then(|l| l.split(',').nth(10))
        .expect("the baseline row")
        .to_string();
    assert!(solution.starts_with("-:D "), "{solution}");
    let layton = common::official("sliding-blocks/layton-puzzles.tsv");
    let level = ["--level", "Greatest Escape 1", str(&layton)];
    let run = frontier(&[&["check"][..], &level, &[&solution]].concat());
    assert_eq!(
        (run.status.code(), text(&run.stdout)),
        (Some(0), "solved in 71 moves\n".into()),
        "{}",
        text(&run.stderr)
    );
    let run = frontier(&[&["show", "--step", "1"][..], &level, &[&solution]].concat());
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
}

#[test]
fn names_match_with_or_without_their_leading_emoji() {
    let layton = common::official("sliding-blocks/layton-puzzles.tsv");
    for pattern in [
        "=The Time Machine",
        "=🎩 The Time Machine",
        "The Time*",
        "Time Machine",
    ] {
        let run = frontier(&["solve", "--list", "--level", pattern, str(&layton)]);
        assert_eq!(
            (run.status.code(), text(&run.stdout)),
            (Some(0), "🎩 The Time Machine\n".into()),
            "{pattern}: {}",
            text(&run.stderr)
        );
    }
    let run = frontier(&["check", "--level", "=The Time Machine", str(&layton), "x:R"]);
    assert_eq!(
        run.status.code(),
        Some(1),
        "the level is found, the move fails"
    );
}

#[test]
fn numbers_out_of_range_are_usage_errors_that_say_what_is_expected() {
    let level = common::own("sliding-blocks/two-goals.txt");
    for (flag, value) in [
        ("--timeout", "-5"),
        ("--threads", "-1"),
        ("--threads", "0"),
        ("--parallel-levels", "0"),
        ("--max-memory", "0"),
        ("--max-states", "0"),
        ("--max-states", "-3"),
    ] {
        let run = frontier(&["solve", "--out", "-", flag, value, str(&level)]);
        let said = text(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{flag} {value}: {said}");
        assert!(
            said.contains(&format!("'{value}' for '{flag}")) && !said.contains("tip:"),
            "{flag} {value}: {said}"
        );
    }
    let run = frontier(&["analyze", "--out", "-", "--threads", "0", str(&level)]);
    assert_eq!(run.status.code(), Some(2));
}

#[test]
fn paths_without_levels_are_usage_errors() {
    let empty = scratch("no-levels");
    let readme_only = empty.join("docs");
    fs::create_dir_all(&readme_only).unwrap();
    fs::write(readme_only.join("README.md"), "# notes\n").unwrap();
    for path in [&readme_only, &empty] {
        let out = path.join("out.csv");
        let run = frontier(&["solve", "--out", str(&out), str(path)]);
        assert_eq!(run.status.code(), Some(2), "{run:?}");
        assert!(text(&run.stderr).contains("no levels found"), "{run:?}");
        assert!(!out.exists(), "nothing written");
        let run = frontier(&["analyze", "--out", "-", str(path)]);
        assert_eq!(run.status.code(), Some(2), "{run:?}");
    }
}

#[test]
fn error_rows_are_said_on_standard_error_unless_quiet() {
    let dir = scratch("error-lines").join("sliding-blocks");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("bad.txt"), "aa\n\na.\n").unwrap();
    fs::write(dir.join("good.txt"), "A..\n\n..A\n").unwrap();
    let run = frontier(&["solve", "--out", "-", str(&dir)]);
    assert_eq!(run.status.code(), Some(1));
    let said = text(&run.stderr);
    assert!(
        said.contains("sliding-blocks bad: error: ")
            && said.contains("bad.txt:2: shape mismatch for `a`")
            && said.contains("2 levels in "),
        "{said}"
    );
    let run = frontier(&["solve", "--quiet", "--out", "-", str(&dir)]);
    assert_eq!(text(&run.stderr), "", "--quiet says nothing");
    // One level is one level.
    let good = dir.join("good.txt");
    let run = frontier(&["solve", "--out", "-", str(&good)]);
    assert!(text(&run.stderr).contains("1 level in "), "{run:?}");
}

#[test]
fn generate_refuses_a_piece_count_the_board_cannot_hold() {
    let run = frontier(&[
        "generate",
        "sliding-blocks",
        "--board",
        "3x3",
        "--pieces",
        "20",
        "--out",
        "-",
    ]);
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(
        text(&run.stderr).contains("--pieces 20: a 3x3 board holds at most 8 pieces"),
        "{run:?}"
    );
    assert!(run.stdout.is_empty());
}

#[test]
fn analyze_writes_the_farthest_positions_as_levels_that_solve_reads() {
    let dir = scratch("farthest");
    let farthest = dir.join("far");
    let small = common::own("sliding-blocks/small-cases.tsv");
    let run = frontier(&[
        "analyze",
        "--quiet",
        "--out",
        str(&dir.join("a.csv")),
        "--farthest",
        str(&farthest),
        str(&small),
    ]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    assert!(farthest.join("sliding-blocks/slide right.txt").is_file());
    // Read without --game: the folder names the game, as in corpora/.
    let run = frontier(&["solve", "--quiet", "--out", "-", str(&farthest)]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let csv = text(&run.stdout);
    assert!(csv.contains("sliding-blocks,slide right,solved,"), "{csv}");
}
