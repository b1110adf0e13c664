//! Fuzzed parsers: property tests (proptest) that feed every level parser, every solution
//! notation and the results reader inputs nobody wrote by hand, arbitrary text and mutations of
//! real level files, and check that they never panic, that a level that cannot be read says
//! which file (and, where one line is at fault, which line), and that valid solutions survive a
//! round trip through their notation.
//!
//! In `cargo test` each property runs a few hundred cases with a fixed seed (reproducible, a
//! few seconds in all). With `FUZZ_SECONDS=N` each property runs with fresh seeds until N
//! seconds have passed and prints the cases it tried: `scripts/fuzz.sh` runs them that way, one
//! parser at a time. `FUZZ_ONLY=name` runs the properties whose name contains `name`.

mod common;

use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};

use frontier::engine::control;
use frontier::games::bender4::Bender4;
use frontier::games::golf_peaks::GolfPeaks;
use frontier::games::ice_tower::IceTower;
use frontier::games::puzzle_quest::PuzzleQuest;
use frontier::games::sliding_blocks::SlidingBlocks;
use frontier::games::{Game, GameId, LevelEntry, Limit, Source, TooLarge};
use frontier::harness::results::{Row, Status, parse_csv, to_csv};

/// Runs `property` on values of `strategy`: a few hundred cases with a fixed seed, or, with
/// `FUZZ_SECONDS`, batches with fresh seeds until the time is up. A failure panics with
/// proptest's smallest failing input.
fn fuzz<S: Strategy>(
    name: &str,
    strategy: S,
    property: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: Debug,
{
    if std::env::var("FUZZ_ONLY").is_ok_and(|only| !name.contains(&only)) {
        return;
    }
    let budget = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .map(Duration::from_secs_f64);
    let started = Instant::now();
    let mut cases = 0u64;
    for batch in 0u64.. {
        let config = Config {
            cases: if budget.is_some() { 1000 } else { 200 },
            failure_persistence: None,
            max_shrink_iters: 10_000,
            ..Config::default()
        };
        let mut seed = [0u8; 32];
        let fresh = if budget.is_some() {
            started.elapsed().as_nanos() as u64 ^ std::process::id() as u64
        } else {
            0
        };
        seed[..8].copy_from_slice(&batch.to_le_bytes());
        seed[8..16].copy_from_slice(&fresh.to_le_bytes());
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
        let mut runner = TestRunner::new_with_rng(config.clone(), rng);
        if let Err(e) = runner.run(&strategy, &property) {
            panic!("{name}: {e}");
        }
        cases += u64::from(config.cases);
        if budget.is_none_or(|b| started.elapsed() >= b) {
            break;
        }
    }
    if budget.is_some() {
        println!(
            "fuzz {name}: {cases} cases in {:.0} s, no failure",
            started.elapsed().as_secs_f64()
        );
    }
}

/// Every level file of a game: the repository's own, and the official ones when given.
fn level_files<G: Game>(own: &str, official: Option<&str>) -> Vec<(PathBuf, String)> {
    let mut dirs = vec![common::own(own)];
    if let Some(official) = official {
        dirs.push(common::official(official));
    }
    let mut files = Vec::new();
    for dir in dirs {
        for entry in walk(&dir) {
            let Ok(text) = std::fs::read_to_string(&entry) else {
                continue;
            };
            if G::is_level_path(&entry)
                && G::holds_levels(&text)
                && entry.extension().is_some_and(|e| e != "md")
            {
                files.push((entry, text));
            }
        }
    }
    assert!(!files.is_empty(), "no level files of {own}");
    files
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Parses `text` as a file of game `G` and checks what a parser owes its user: no panic, and
/// every level it cannot read named after the file, with a line when the fault has one.
fn parse_checked<G: Game>(path: &Path, text: &str) -> Result<Vec<G::Level>, TestCaseError> {
    let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
    let source = Source {
        path,
        stem: &stem,
        text,
    };
    let mut levels = Vec::new();
    for LevelEntry { name, level, .. } in G::parse(&source) {
        match level {
            Ok(level) => levels.push(level),
            Err(e) => {
                let shown = e.to_string();
                prop_assert!(
                    shown.starts_with(&path.display().to_string()) && !e.message.is_empty(),
                    "level {name}: error without the file or a message: {shown}"
                );
            }
        }
    }
    Ok(levels)
}

/// Text a level file may hold, and then some: the characters of every game's format.
fn level_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[ #@$%*.,:;|=+<>^v/\\\\\\-_0-9a-zA-Z\\t\\n↘↗↙↖]{0,600}",
        proptest::collection::vec(any::<u8>(), 0..600)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

/// One edit of a text: a line deleted, duplicated, swapped with the next, truncated or
/// replaced, or characters inserted, replaced or deleted.
#[derive(Clone, Debug)]
enum Edit {
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize),
    TruncateLine(usize, usize),
    ReplaceLine(usize, String),
    Insert(usize, char),
    Replace(usize, char),
    Delete(usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let index = any::<usize>();
    let char = prop_oneof![
        "[ #@$%*.,:0-9a-zA-Z\\t\\n-]".prop_map(|s| s.chars().next().unwrap()),
        any::<char>(),
    ];
    prop_oneof![
        index.prop_map(Edit::DeleteLine),
        index.prop_map(Edit::DuplicateLine),
        index.prop_map(Edit::SwapLines),
        (index, 0..40usize).prop_map(|(i, n)| Edit::TruncateLine(i, n)),
        (index, "[ #@$%*.,:0-9a-zA-Z\\t-]{0,30}").prop_map(|(i, s)| Edit::ReplaceLine(i, s)),
        (index, char.clone()).prop_map(|(i, c)| Edit::Insert(i, c)),
        (index, char).prop_map(|(i, c)| Edit::Replace(i, c)),
        index.prop_map(Edit::Delete),
        index.prop_map(Edit::Truncate),
    ]
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut lines: Vec<String> = text.split('\n').map(String::from).collect();
    let n = lines.len();
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize, len: usize| if len == 0 { 0 } else { i % len };
    match edit {
        Edit::DeleteLine(i) => {
            lines.remove(at(*i, n));
        }
        Edit::DuplicateLine(i) => {
            let i = at(*i, n);
            lines.insert(i, lines[i].clone());
        }
        Edit::SwapLines(i) if n > 1 => {
            let i = at(*i, n - 1);
            lines.swap(i, i + 1);
        }
        Edit::SwapLines(_) => {}
        Edit::TruncateLine(i, keep) => {
            let i = at(*i, n);
            lines[i] = lines[i].chars().take(*keep).collect();
        }
        Edit::ReplaceLine(i, s) => {
            let i = at(*i, n);
            lines[i] = s.clone();
        }
        Edit::Insert(i, c) => {
            let mut chars = chars;
            chars.insert(at(*i, chars.len() + 1), *c);
            return chars.into_iter().collect();
        }
        Edit::Replace(i, c) if !chars.is_empty() => {
            let mut chars = chars;
            let i = at(*i, chars.len());
            chars[i] = *c;
            return chars.into_iter().collect();
        }
        Edit::Delete(i) if !chars.is_empty() => {
            let mut chars = chars;
            chars.remove(at(*i, chars.len()));
            return chars.into_iter().collect();
        }
        Edit::Truncate(i) => return chars[..at(*i, chars.len() + 1)].iter().collect(),
        Edit::Replace(..) | Edit::Delete(_) => {}
    }
    lines.join("\n")
}

/// The level parser of `G` on arbitrary text (as files of each extension) and on mutated real
/// files.
fn fuzz_levels<G: Game>(name: &str, own: &str, official: &str, extensions: &[&str]) {
    for extension in extensions {
        let path = PathBuf::from(format!("fuzzed.{extension}"));
        fuzz(
            &format!("{name} levels, arbitrary .{extension} text"),
            level_text(),
            |text| parse_checked::<G>(&path, &text).map(|_| ()),
        );
    }
    let files = level_files::<G>(own, Some(official));
    fuzz(
        &format!("{name} levels, mutated files"),
        (0..files.len(), proptest::collection::vec(edit(), 1..6)),
        |(file, edits)| {
            let (path, text) = &files[file];
            let text = edits.iter().fold(text.clone(), |t, e| apply(&t, e));
            parse_checked::<G>(path, &text).map(|_| ())
        },
    );
}

/// The notation of `G` on arbitrary solutions, replayed on the repository's levels; `show`
/// replays them too, draws the frames up to the first illegal move and says what `check` says.
fn fuzz_notation<G: Game>(name: &str, own: &str, tokens: &'static str) {
    let levels: Vec<G::Level> = level_files::<G>(own, None)
        .iter()
        .flat_map(|(path, text)| parse_checked::<G>(path, text).unwrap())
        .collect();
    let solution = prop_oneof![
        any::<String>(),
        proptest::collection::vec(tokens, 0..40).prop_map(|t| t.join(" ")),
    ];
    fuzz(
        &format!("{name} notation"),
        (0..levels.len(), solution),
        |(level, solution)| {
            let verdict = G::check(&levels[level], &solution);
            if let Err(why) = &verdict {
                prop_assert!(!why.is_empty(), "an empty reason for {solution:?}");
            }
            let replay = G::show(&levels[level], Some(&solution));
            prop_assert_eq!(replay.verdict, Some(verdict));
            prop_assert!(!replay.frames.is_empty(), "the start is always drawn");
            let text = frontier::show::text::frames(&replay.frames, true);
            prop_assert_eq!(text.len(), replay.frames.len());
            let options = frontier::show::svg::Options {
                id: "f",
                title: &solution,
                cell: 10.0,
            };
            prop_assert!(
                frontier::show::svg::animation(&replay.frames, &options).ends_with("</svg>\n")
            );
            Ok(())
        },
    );
}

#[test]
fn sliding_blocks() {
    fuzz_levels::<SlidingBlocks>(
        "sliding-blocks",
        "sliding-blocks",
        "sliding-blocks",
        &["txt", "tsv"],
    );
    fuzz_notation::<SlidingBlocks>(
        "sliding-blocks",
        "sliding-blocks",
        "[a-zA-Z0-9]{1,2}:[UDLR]{1,4}",
    );
}

#[test]
fn golf_peaks() {
    fuzz_levels::<GolfPeaks>("golf-peaks", "golf-peaks", "golf-peaks", &["txt"]);
    fuzz_notation::<GolfPeaks>("golf-peaks", "golf-peaks", "[0-9]{1,2}(/[0-9])?-[↘↗↙↖UDLR]");
}

#[test]
fn puzzle_quest() {
    fuzz_levels::<PuzzleQuest>("puzzle-quest", "puzzle-quest", "puzzle-quest", &["txt"]);
    fuzz_notation::<PuzzleQuest>(
        "puzzle-quest",
        "puzzle-quest",
        "-?[0-9]{1,2},-?[0-9]{1,2},[UDLRX]",
    );
}

#[test]
fn ice_tower() {
    fuzz_levels::<IceTower>("ice-tower", "ice-tower", "ice-tower", &["txt"]);
    fuzz_notation::<IceTower>("ice-tower", "ice-tower", "[0-9]{1,2},[0-9]{1,2},[UDLRX]");
}

#[test]
fn bender4() {
    fuzz_levels::<Bender4>("bender4", "bender4", "bender4", &["txt"]);
    fuzz_notation::<Bender4>("bender4", "bender4", "[NSEW0-9A-Z;]{1,8}");
}

#[test]
fn notations_round_trip() {
    use frontier::games::ice_tower::notation::Push;
    use frontier::games::puzzle_quest::notation::parse_swap;
    use frontier::games::puzzle_quest::rules::{Dir, Swap};
    fuzz(
        "ice-tower notation, push round trip",
        (0..64usize, 0..64usize, 0..4usize),
        |(row, col, dir)| {
            let token = format!("{row},{col},{}", ["U", "D", "L", "R"][dir]);
            let push = Push::parse(&token);
            prop_assert!(push.is_some(), "{token} does not parse");
            prop_assert_eq!(push.unwrap().to_string(), token);
            Ok(())
        },
    );
    fuzz(
        "puzzle-quest notation, swap round trip",
        (-9i32..20, -9i32..20, 0..4usize),
        |(row, col, dir)| {
            let dir = [Dir::Up, Dir::Down, Dir::Left, Dir::Right][dir];
            let swap = Swap { row, col, dir };
            prop_assert_eq!(parse_swap(&swap.to_string()), Ok(swap));
            Ok(())
        },
    );
}

/// A limit as a search or a solver reports it (times to the millisecond and memory to the MiB,
/// as the CSV writes them).
fn limit() -> impl Strategy<Value = Limit> {
    let n = 0..u64::MAX / 2;
    prop_oneof![
        n.clone()
            .prop_map(|n| Limit::Search(control::Limit::States(n))),
        (0..100_000_000u64)
            .prop_map(|ms| Limit::Search(control::Limit::Time(Duration::from_millis(ms)))),
        (0..1u64 << 30).prop_map(|mib| Limit::Search(control::Limit::Memory(mib << 20))),
        n.prop_map(|n| Limit::Search(control::Limit::Interrupted(n))),
        Just(Limit::NotStarted),
        Just(Limit::Budget),
        Just(Limit::TooLarge(TooLarge::PushStates)),
    ]
}

/// A results row with arbitrary names, solutions, limits, bounds and notes.
fn row() -> impl Strategy<Value = Row> {
    let text = prop_oneof![any::<String>(), "[a-z ,\"\\n\\r🧊↘]{0,20}"];
    (
        (text.clone(), text.clone(), text),
        (0..4usize, 0..GameId::ALL.len()),
        proptest::option::of(0..1_000_000u64),
        any::<bool>(),
        0..u64::MAX / 2,
        0..1_000_000_000u32,
        proptest::option::of((limit(), proptest::option::of(0..1_000u64))),
    )
        .prop_map(
            |((level, solution, note), (status, game), moves, optimal, states, micros, limit)| {
                Row {
                    status: [
                        Status::Solved,
                        Status::Unsolvable,
                        Status::Limit,
                        Status::Error,
                    ][status],
                    moves,
                    optimal,
                    score: moves,
                    states,
                    expanded: states / 2,
                    millis: f64::from(micros) / 1000.0,
                    bytes_per_state: f64::from(micros % 100_000) / 10.0,
                    solution,
                    limit: limit.map(|(limit, _)| limit),
                    lower: limit.and_then(|(_, lower)| lower),
                    ..Row::error(GameId::ALL[game], &level, note)
                }
            },
        )
}

#[test]
fn results_csv() {
    fuzz(
        "results csv round trip",
        proptest::collection::vec(row(), 0..8),
        |rows| {
            let back = parse_csv(&to_csv(&rows));
            prop_assert_eq!(back.as_ref(), Ok(&rows));
            Ok(())
        },
    );
    fuzz("results csv, arbitrary text", level_text(), |text| {
        if let Err(e) = parse_csv(&text) {
            prop_assert!(e.starts_with("line "), "{e}");
        }
        Ok(())
    });
    let real = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("results/baselines/corpora.csv"),
    )
    .unwrap();
    fuzz(
        "results csv, mutated file",
        proptest::collection::vec(edit(), 1..6),
        |edits| {
            let text = edits.iter().fold(real.clone(), |t, e| apply(&t, e));
            if let Err(e) = parse_csv(&text) {
                prop_assert!(e.starts_with("line "), "{e}");
            }
            Ok(())
        },
    );
}
