//! Puzzle Quest capture boards against the official corpus in `corpora/official/puzzle-quest`
//! (52 boards, known solutions) and the boards authored in `corpora/puzzle-quest`.

mod common;

use std::collections::HashMap;
use std::path::PathBuf;

use frontier::engine::SearchControl;
use frontier::engine::control::Limits;
use frontier::games::puzzle_quest::rules::Grid;
use frontier::games::puzzle_quest::space::Reductions;
use frontier::games::puzzle_quest::{Level, PuzzleQuest, notation, solve_with};
use frontier::games::{Answer, Game, GameId, read_level, read_levels};
use frontier::harness::discover::discover;
use frontier::harness::results::{Row, Status};
use frontier::harness::solve_paths;

fn corpus(file: &str) -> PathBuf {
    common::official(&format!("puzzle-quest/{file}"))
}

/// The 52 capture boards, by monster id.
fn boards() -> HashMap<String, Level> {
    let path = corpus("capture-boards.txt");
    read_levels::<PuzzleQuest>(&path)
        .expect("the capture boards")
        .into_iter()
        .map(|entry| {
            let level = entry.level.expect("every corpus board parses");
            (level.id.clone(), level)
        })
        .collect()
}

/// One line of `known-solutions.txt`: `name|id|shortest=n|swaps` or `…|valid=n|…`.
struct Known {
    id: String,
    shortest: bool,
    swaps: u64,
    solution: String,
}

fn known_solutions() -> Vec<Known> {
    let text = std::fs::read_to_string(corpus("known-solutions.txt")).expect("known solutions");
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('|').collect();
            assert_eq!(fields.len(), 4, "{line}");
            let (tag, swaps) = fields[2].split_once('=').expect("tag=n");
            Known {
                id: fields[1].to_string(),
                shortest: tag == "shortest",
                swaps: swaps.parse().expect("a swap count"),
                solution: fields[3].to_string(),
            }
        })
        .collect()
}

#[test]
fn every_known_solution_replays_to_an_empty_board() {
    let boards = boards();
    assert_eq!(boards.len(), 52);
    let known = known_solutions();
    assert_eq!(known.len(), 29);
    for k in &known {
        let verdict = PuzzleQuest::check(&boards[&k.id], &k.solution)
            .unwrap_or_else(|why| panic!("{}: {why}", k.id));
        assert_eq!(verdict.moves, k.swaps, "{}", k.id);
    }
    // A solution cut short does not clear its board.
    let first = &known[0];
    let shorter: Vec<&str> = first.solution.split_whitespace().collect();
    let shorter = shorter[..shorter.len() - 1].join(" ");
    assert!(PuzzleQuest::check(&boards[&first.id], &shorter).is_err());
}

#[test]
fn the_whole_corpus_is_solved_with_the_fewest_swaps() {
    let rows = solve_paths(&[corpus("capture-boards.txt")], None, Limits::default())
        .expect("the corpus is found");
    assert_eq!(rows.len(), 52);
    common::assert_expanded_within_states(&rows);
    let boards = boards();
    let by_name: HashMap<&str, &Level> = boards.values().map(|l| (l.name.as_str(), l)).collect();
    let moves_of: HashMap<&str, u64> = rows
        .iter()
        .map(|row| (row.level.as_str(), row.moves.unwrap_or(0)))
        .collect();
    for row in &rows {
        assert_eq!(row.game, frontier::games::GameId::PuzzleQuest);
        common::assert_solved_optimally(row);
        let verdict = PuzzleQuest::check(by_name[row.level.as_str()], &row.solution)
            .unwrap_or_else(|why| panic!("{}: {why}", row.level));
        assert_eq!(Some(verdict.moves), row.moves, "{}", row.level);
    }
    // The corpus's per-board facts: name, gems and kinds, and what every solution
    // needs (a gem moved into an empty cell, a line of 5 or more), which ours must show.
    let facts = board_facts();
    assert_eq!(facts.len(), 52);
    let (mut with_empty, mut with_five) = (0, 0);
    for fact in &facts {
        let level = &boards[&fact.id];
        assert_eq!(level.name, fact.name);
        assert_eq!(level.grid.gem_count(), fact.gems, "{}", fact.id);
        let mut kinds: Vec<char> = level
            .grid
            .to_string()
            .replace(['_', '\n'], "")
            .chars()
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        let mut expected: Vec<char> = fact.kinds.chars().collect();
        expected.sort_unstable();
        assert_eq!(kinds, expected, "{}", fact.id);
        let row = rows.iter().find(|r| r.level == fact.name).expect("a row");
        let (into_empty, longest) = replay_features(level, &row.solution);
        assert!(
            !fact.needs_empty || into_empty,
            "{}: no swap into an empty cell",
            fact.id
        );
        assert!(
            !fact.needs_five || longest >= 5,
            "{}: no line of 5",
            fact.id
        );
        with_empty += usize::from(into_empty);
        with_five += usize::from(longest >= 5);
    }
    // Not every solution has them: the replay tells them apart.
    assert!(
        with_empty < 52 && with_five < 52,
        "{with_empty}, {with_five}"
    );
    for k in known_solutions() {
        let found = moves_of[boards[&k.id].name.as_str()];
        if k.shortest {
            assert_eq!(found, k.swaps, "{}: the proven fewest", k.id);
        } else {
            assert!(found <= k.swaps, "{}: {found} > a known {}", k.id, k.swaps);
        }
    }
}

/// A row of the corpus's per-board facts (`board-facts.tsv`).
struct Facts {
    id: String,
    name: String,
    gems: usize,
    kinds: String,
    needs_empty: bool,
    needs_five: bool,
}

fn board_facts() -> Vec<Facts> {
    let text = std::fs::read_to_string(corpus("board-facts.tsv")).expect("the board facts");
    text.lines()
        .skip(1)
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(cells.len(), 6, "{line}");
            Facts {
                id: cells[0].to_string(),
                name: cells[1].to_string(),
                gems: cells[2].parse().expect("a gem count"),
                kinds: cells[3].to_string(),
                needs_empty: cells[4] == "yes",
                needs_five: cells[5] == "yes",
            }
        })
        .collect()
}

/// Whether a solution moves a gem into an empty cell, and the longest line it makes.
fn replay_features(level: &Level, solution: &str) -> (bool, usize) {
    let mut grid = level.grid;
    let (mut into_empty, mut longest) = (false, 0);
    for token in solution.split_whitespace() {
        let swap = notation::parse_swap(token).expect("a swap");
        let (r, c) = swap.target();
        into_empty |= grid.get(r, c).is_some_and(|t| !t.is_gem());
        grid = grid
            .swap_with(swap, |board, lines| {
                longest = longest.max(longest_line(board, lines))
            })
            .expect("a legal swap");
    }
    (into_empty, longest)
}

/// The longest run of marked cells of one kind across or down.
fn longest_line(board: &Grid, lines: &[[bool; 8]; 8]) -> usize {
    let mut longest = 0;
    for across in [true, false] {
        for outer in 0..8 {
            let mut run = 0;
            let mut kind = None;
            for inner in 0..8 {
                let (r, c) = if across {
                    (outer, inner)
                } else {
                    (inner, outer)
                };
                let here = lines[r][c].then(|| board.cells[r][c].line_kind()).flatten();
                run = if here.is_some() && here == kind {
                    run + 1
                } else {
                    usize::from(here.is_some())
                };
                kind = here;
                longest = longest.max(run);
            }
        }
    }
    longest
}

#[test]
fn a_directory_walk_reads_the_boards_and_skips_the_solutions_table() {
    let files = discover(&[common::official("puzzle-quest")], None)
        .expect("found")
        .files;
    let names: Vec<&str> = files
        .iter()
        .map(|f| f.path.file_name().and_then(|n| n.to_str()).unwrap_or(""))
        .collect();
    assert_eq!(names, ["capture-boards.txt"]);
    assert_eq!(files[0].game, GameId::PuzzleQuest);
}

/// The authored boards: (name, fewest swaps, or `None` for unsolvable).
const AUTHORED: [(&str, Option<u64>); 8] = [
    ("Ember Chain", Some(1)),
    ("Three Falls", Some(4)),
    ("Hollow Step", Some(2)),
    ("Five in a Row", Some(1)),
    ("Twin Towers", Some(9)),
    ("Stalemate", None),
    ("Tight Budget", Some(2)),
    ("Too Tight", None),
];

#[test]
fn the_authored_boards_solve_as_documented() {
    let rows: Vec<Row> = solve_paths(&[common::own("puzzle-quest")], None, Limits::default())
        .expect("the authored boards are found");
    common::assert_expanded_within_states(&rows);
    let got: Vec<(&str, Status, Option<u64>)> = rows
        .iter()
        .map(|r| (r.level.as_str(), r.status, r.moves))
        .collect();
    let expected: Vec<(&str, Status, Option<u64>)> = AUTHORED
        .iter()
        .map(|&(name, moves)| {
            let status = if moves.is_some() {
                Status::Solved
            } else {
                Status::Unsolvable
            };
            (name, status, moves)
        })
        .collect();
    assert_eq!(got, expected);
    assert!(rows.iter().all(|r| r.optimal));
}

/// The authored board `name`.
fn authored(name: &str) -> Level {
    read_level::<PuzzleQuest>(&common::own("puzzle-quest/authored-boards.txt"), name)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn swaps(answer: Answer) -> Option<u64> {
    match answer {
        Answer::Solved { moves, .. } => Some(moves),
        Answer::Unsolvable => None,
        Answer::Limit { limit, .. } => panic!("{limit}"),
    }
}

#[test]
fn every_reduction_keeps_the_optimum() {
    // Each reduction (mirror merging, dead states, the column-travel bound) switched off in
    // turn must give the same answer, on the authored boards and on the corpus boards small
    // enough to search without them.
    let variants = [
        Reductions {
            mirror: false,
            ..Reductions::default()
        },
        Reductions {
            dead_states: false,
            ..Reductions::default()
        },
        Reductions {
            column_bound: false,
            ..Reductions::default()
        },
    ];
    let limits = Limits {
        max_states: Some(50_000),
        ..Limits::default()
    };
    let mut levels: Vec<Level> = AUTHORED.iter().map(|&(name, _)| authored(name)).collect();
    levels.extend(boards().into_values());
    levels.sort_by(|a, b| a.id.cmp(&b.id));
    let mut compared = 0;
    for level in &levels {
        let reference = solve_with(level, Reductions::default(), &SearchControl::new(limits));
        if let Answer::Limit { .. } = reference {
            continue;
        }
        let reference = swaps(reference);
        for variant in variants {
            let answer = solve_with(level, variant, &SearchControl::new(limits));
            if let Answer::Limit { .. } = answer {
                continue;
            }
            assert_eq!(swaps(answer), reference, "{} with {variant:?}", level.name);
            compared += 1;
        }
    }
    // Three variants of each board, most of the boards finishing within the limit.
    assert!(compared >= 150, "only {compared} comparisons finished");
}
