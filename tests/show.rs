//! `frontier show`: the frames come from each game's own replay (the same as `check`, so the
//! last frame of a solution is a solved state, checked here on the picture too), the terminal
//! text of a small level of every game matches a reviewed snapshot (`tests/snapshots/`), colour
//! appears only when asked for, and `--svg` writes well-formed, self-contained XML.
//!
//! The levels are the repository's own (`corpora/`), so these tests run on a fresh clone.
//! `UPDATE_SNAPSHOTS=1 cargo test --release --test show` rewrites the snapshots after a
//! deliberate change; review the diff before committing it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use frontier::games::GameId;
use frontier::harness::{self, discover};
use frontier::show::{Frame, Shape};

/// One small level per game with a known shortest solution.
struct Case {
    game: GameId,
    file: &'static str,
    level: Option<&'static str>,
    solution: &'static str,
    /// Frames of the replay: the start and one per move (a capture board shows its cascades
    /// too; Bender one per step).
    frames: usize,
    moves: u32,
}

const CASES: [Case; 5] = [
    Case {
        game: GameId::SlidingBlocks,
        file: "corpora/sliding-blocks/l-blocks.txt",
        level: None,
        solution: "c:DR A:DRR d:UUU c:LLL A:DDR",
        frames: 6,
        moves: 5,
    },
    Case {
        game: GameId::GolfPeaks,
        file: "corpora/golf-peaks/slopes.txt",
        level: None,
        solution: "2-↘ 1-↘ 1-↙",
        frames: 4,
        moves: 3,
    },
    Case {
        game: GameId::PuzzleQuest,
        file: "corpora/puzzle-quest/authored-boards.txt",
        level: Some("Hollow Step"),
        solution: "6,3,L 7,3,L",
        frames: 5,
        moves: 2,
    },
    Case {
        game: GameId::IceTower,
        file: "corpora/ice-tower/elements.txt",
        level: Some("wall-stop"),
        solution: "3,3,U 1,3,R",
        frames: 3,
        moves: 2,
    },
    Case {
        game: GameId::Bender4,
        file: "corpora/bender4/own-switch.txt",
        level: None,
        solution: "RRRRD",
        frames: 6,
        moves: 5,
    },
];

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn frontier(args: &[&str]) -> Output {
    common::binary()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("frontier runs")
}

fn show_args<'a>(case: &'a Case, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["show"];
    if let Some(level) = case.level {
        args.extend(["--level", level]);
    }
    args.extend(extra);
    args.extend([case.file, case.solution]);
    args
}

/// The replay of a case through the library, as `frontier show` makes it.
fn replay(case: &Case) -> frontier::games::Replay {
    let files = discover::discover(&[repo(case.file)], None).unwrap().files;
    let tasks = harness::load_tasks(&files).unwrap();
    let task = tasks
        .iter()
        .find(|t| case.level.is_none_or(|l| t.name() == l))
        .expect("the level");
    assert_eq!(task.game(), case.game);
    let replay = task.show(Some(case.solution)).unwrap();
    // The same verdict as `check`: the frames are the check's own replay.
    assert_eq!(
        replay.verdict.clone().unwrap(),
        task.check(case.solution),
        "{}",
        case.file
    );
    replay
}

/// Whether a frame pictures a solved state, by the game's goal, read off the picture.
fn pictures_solved(game: GameId, frame: &Frame) -> bool {
    let cells = &frame.board.cells;
    match game {
        // Every target cell is covered by a block of its goal block's colour.
        GameId::SlidingBlocks => cells
            .iter()
            .filter_map(|c| c.outline.map(|o| (o, c.token)))
            .all(|(outline, token)| token.is_some_and(|t| t.colour == outline)),
        // The ball (a disc) lies on the flag.
        GameId::GolfPeaks => cells
            .iter()
            .any(|c| c.token.is_some_and(|t| t.shape == Shape::Disc) && c.label == "⚑"),
        // No gem is left.
        GameId::PuzzleQuest => cells.iter().all(|c| c.token.is_none()),
        // No fire burns.
        GameId::IceTower => cells
            .iter()
            .all(|c| !c.token.is_some_and(|t| t.shape == Shape::Diamond)),
        // Bender stands where Fry was: Fry is no longer to be seen.
        GameId::Bender4 => {
            cells.iter().any(|c| c.label == "B") && !cells.iter().any(|c| c.label == "F")
        }
    }
}

#[test]
fn frames_come_from_the_replay_and_the_last_one_is_solved() {
    for case in &CASES {
        let replay = replay(case);
        let frames = &replay.frames;
        assert_eq!(frames.len(), case.frames, "{}", case.file);
        assert_eq!(frames[0].step, 0);
        assert_eq!(frames.last().unwrap().step, case.moves, "{}", case.file);
        assert!(
            frames.windows(2).all(|w| w[0].step <= w[1].step),
            "{}: steps in order",
            case.file
        );
        assert!(
            !pictures_solved(case.game, &frames[0]),
            "{}: the start is not solved",
            case.file
        );
        assert!(
            pictures_solved(case.game, frames.last().unwrap()),
            "{}: the last frame pictures a solved state",
            case.file
        );
    }
}

#[test]
fn an_illegal_move_ends_the_frames_and_says_why() {
    let out = frontier(&[
        "show",
        "--color",
        "never",
        "corpora/sliding-blocks/l-blocks.txt",
        "c:DR A:UUUU",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("move 1/2: c:DR"), "{text}");
    assert!(!text.contains("move 2/2"), "{text}");
    assert!(
        text.ends_with("move 2 (`A:UUUU`): step 1 (U) leaves the board or hits another block\n"),
        "{text}"
    );
}

#[test]
fn terminal_text_matches_the_reviewed_snapshots() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    for case in &CASES {
        let out = frontier(&show_args(case, &["--color", "never"]));
        assert!(out.status.success(), "{}: {out:?}", case.file);
        let text = String::from_utf8(out.stdout).unwrap();
        let snapshot = repo(&format!("tests/snapshots/show-{}.txt", case.game));
        if update {
            std::fs::write(&snapshot, &text).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&snapshot)
            .unwrap_or_else(|e| panic!("{}: {e}", snapshot.display()));
        assert_eq!(
            text,
            expected,
            "`frontier {}` differs from {} (UPDATE_SNAPSHOTS=1 rewrites it)",
            show_args(case, &["--color", "never"]).join(" "),
            snapshot.display()
        );
        assert!(!text.contains('\x1b'), "no escapes in plain text");
    }
}

#[test]
fn colour_only_when_asked_and_a_pipe_gets_plain_text() {
    let case = &CASES[0];
    let coloured = frontier(&show_args(case, &["--color", "always"]));
    let text = String::from_utf8(coloured.stdout).unwrap();
    assert!(text.contains("\x1b[48;2;"), "24-bit backgrounds: {text}");
    // A test's standard output is a pipe: auto means plain.
    let auto = frontier(&show_args(case, &[]));
    assert!(!String::from_utf8(auto.stdout).unwrap().contains('\x1b'));
}

#[test]
fn one_step_and_the_level_alone() {
    let case = &CASES[3];
    let out = frontier(&show_args(case, &["--color", "never", "--step", "1"]));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("move 1/2: 3,3,U\n"), "{text}");
    assert!(!text.contains("move 2/2"), "{text}");
    let out = frontier(&show_args(case, &["--step", "3"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("steps 0 to 2")
    );
    // Without a solution: the level, one frame.
    let out = frontier(&["show", "--color", "never", "corpora/golf-peaks/slopes.txt"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("start\ncards left: 2- 1- 1-\n"), "{text}");
    assert_eq!(text.matches("start").count(), 1);
}

#[test]
fn the_solution_of_a_results_row() {
    let dir = tempdir("from");
    let csv = dir.join("r.csv");
    std::fs::write(
        &csv,
        "game,level,status,moves,optimal,score,states,expanded,millis,bytes_per_state,solution,detail\n\
         golf-peaks,slopes,solved,3,yes,3,7,7,0.1,20.0,2-↘ 1-↘ 1-↙,\n\
         golf-peaks,plain,limit,,no,,7,7,0.1,20.0,,timeout\n",
    )
    .unwrap();
    let csv = csv.to_str().unwrap();
    let out = frontier(&[
        "show",
        "--color",
        "never",
        "--from",
        csv,
        "corpora/golf-peaks/slopes.txt",
    ]);
    assert!(out.status.success(), "{out:?}");
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .ends_with("solved in 3 moves\n")
    );
    let out = frontier(&["show", "--from", csv, "corpora/golf-peaks/plain.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("is limit, not solved")
    );
}

#[test]
fn svg_animations_are_well_formed_and_self_contained() {
    let dir = tempdir("svg");
    for case in &CASES {
        let path = dir.join(format!("{}.svg", case.game));
        let out = frontier(&show_args(case, &["--svg", path.to_str().unwrap()]));
        assert!(out.status.success(), "{}: {out:?}", case.file);
        let text = std::fs::read_to_string(&path).unwrap();
        let doc = roxmltree::Document::parse(&text)
            .unwrap_or_else(|e| panic!("{}: not well-formed XML: {e}", case.file));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        assert!(
            text.contains("@keyframes") && text.contains("infinite"),
            "it loops"
        );
        assert!(!text.contains("<script"), "no script");
        for node in doc.descendants() {
            if let Some(href) = node.attribute("href") {
                assert!(href.starts_with('#'), "{}: fetches {href}", case.file);
            }
        }
        // Every <use> names a drawing of the file itself.
        let ids: Vec<&str> = doc
            .descendants()
            .filter_map(|n| n.attribute("id"))
            .collect();
        for node in doc.descendants().filter(|n| n.has_tag_name("use")) {
            let target = &node.attribute("href").unwrap()[1..];
            assert!(ids.contains(&target), "{}: #{target} is missing", case.file);
        }
    }
}

#[test]
fn the_report_is_a_gallery_of_the_solved_levels() {
    let dir = tempdir("report");
    let csv = dir.join("golf.csv");
    let out = frontier(&[
        "solve",
        "--quiet",
        "--out",
        csv.to_str().unwrap(),
        "corpora/golf-peaks",
    ]);
    assert!(out.status.success(), "{out:?}");
    let solved = std::fs::read_to_string(&csv)
        .unwrap()
        .matches(",solved,")
        .count();
    assert!(solved >= 10);
    // The levels are found through the results' provenance: the paths `solve` was given.
    let page = dir.join("page.html");
    let out = frontier(&[
        "report",
        "--out",
        page.to_str().unwrap(),
        csv.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<figure><svg").count(), solved);
    assert!(html.contains(&format!("{solved} of {solved} animations are on this page")));
    // Each animation's names are its own.
    assert!(html.contains("@keyframes g1-") && html.contains(&format!("@keyframes g{solved}-")));
    let out = frontier(&[
        "report",
        "--no-gallery",
        "--out",
        page.to_str().unwrap(),
        csv.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert!(!std::fs::read_to_string(&page).unwrap().contains("<figure>"));
}

/// A fresh folder under the target directory.
fn tempdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("show-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_official_known_solution_replays_to_a_solved_picture() {
    // Two official sets with their known answers: every solution's replay ends solved.
    let known = [
        (
            GameId::GolfPeaks,
            "golf-peaks",
            answers(&common::official("golf-peaks/answers.tsv"), 0, 2),
        ),
        (
            GameId::IceTower,
            "ice-tower",
            answers(&common::official("ice-tower/known-answers.tsv"), 1, 3),
        ),
    ];
    for (game, dir, solutions) in known {
        let root = common::official(dir);
        let files = discover::discover(&[root], Some(game)).unwrap().files;
        let tasks = harness::load_tasks(&files).unwrap();
        let mut replayed = 0;
        for (level, solution) in &solutions {
            let Some(task) = tasks.iter().find(|t| t.name() == level) else {
                continue;
            };
            let replay = task.show(Some(solution)).unwrap();
            assert!(
                matches!(replay.verdict, Some(Ok(_))),
                "{level}: {:?}",
                replay.verdict
            );
            assert!(
                pictures_solved(game, replay.frames.last().unwrap()),
                "{level}"
            );
            replayed += 1;
        }
        assert!(replayed >= 10, "{game}: {replayed} solutions replayed");
    }
}

/// (level, first solution) of a tab-separated answers file, by column.
fn answers(path: &Path, level: usize, solutions: usize) -> Vec<(String, String)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let first = fields.get(solutions)?.split(" | ").next()?.trim();
            (!first.is_empty()).then(|| (fields[level].to_string(), first.to_string()))
        })
        .collect()
}
