//! Bender – Episode 4 against the official corpus (`corpora/official/bender4`): the known
//! routes replay as winning programs, the plain route search reproduces `index.tsv`, the push
//! search finds the known shortest pushes where they are cheap, the program search wins on a
//! few maps, and the repository's own maps solve end to end.

mod common;

use std::collections::HashMap;

use frontier::engine::SearchControl;
use frontier::engine::SearchOutcome;
use frontier::engine::astar::astar;
use frontier::engine::control::Limits;
use frontier::games::Answer;
use frontier::games::bender4::search::{self, Budget};
use frontier::games::bender4::space::PushSpace;
use frontier::games::bender4::{Level, notation, routes::PlainGraph};
use frontier::harness::results::Status;

fn corpus(file: &str) -> String {
    std::fs::read_to_string(common::official(&format!("bender4/{file}")))
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn level(file: &str) -> Level {
    Level::parse_text(&corpus(file)).unwrap_or_else(|(line, e)| panic!("{file}:{line}: {e}"))
}

/// A TSV file as rows of column name -> value.
fn table(file: &str) -> Vec<HashMap<String, String>> {
    let text = corpus(file);
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap()
        .split('\t')
        .map(String::from)
        .collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split('\t').map(String::from))
                .collect()
        })
        .collect()
}

#[test]
fn every_reference_route_wins_in_as_many_steps_as_moves() {
    let rows = table("reference-paths.tsv");
    assert_eq!(rows.len(), 60);
    for row in rows {
        let level = level(&row["file"]);
        for column in ["plain_path", "push_path"] {
            let route = &row[column];
            if route.is_empty() {
                continue;
            }
            let verdict = notation::check(&level.board, route)
                .unwrap_or_else(|e| panic!("{} {column}: {e}", row["file"]));
            assert_eq!(
                verdict.moves,
                route.len() as u64,
                "{} {column}",
                row["file"]
            );
        }
    }
}

#[test]
fn the_plain_search_reproduces_plain_len_and_plain_states() {
    for row in table("index.tsv") {
        let level = level(&row["file"]);
        let graph = PlainGraph::new(&level.board).unwrap();
        let route = graph.shortest_from_start();
        let moves = route.moves.expect("every corpus map has a plain route");
        assert_eq!(moves.len().to_string(), row["plain_len"], "{}", row["file"]);
        assert_eq!(
            route.states.to_string(),
            row["plain_states"],
            "{}",
            row["file"]
        );
        assert!(notation::wins(&level.board, &moves), "{}", row["file"]);
        // The distance table agrees with the forward search.
        let start = (level.board.start, level.board.initial_mask());
        assert_eq!(usize::from(graph.to_fry(start.0, start.1)), moves.len());
    }
}

#[test]
fn the_intro_hints_behave_as_their_titles_say() {
    for row in table("index.tsv").iter().filter(|r| !r["hint"].is_empty()) {
        let level = level(&row["file"]);
        let hint = &row["hint"];
        match hint.split_once('(') {
            // `RR(loses:squashes Fry)`
            Some((program, _)) => assert!(!notation::wins(&level.board, program), "{hint}"),
            None => assert!(notation::wins(&level.board, hint), "{hint}"),
        }
    }
}

#[test]
fn the_push_search_finds_the_known_shortest_routes_where_they_are_cheap() {
    let mut checked = 0;
    for row in table("index.tsv") {
        let Ok(known) = row["push_len"].parse::<usize>() else {
            continue;
        };
        let level = level(&row["file"]);
        let space = PushSpace::new(&level.board, 1).unwrap();
        let ctl = SearchControl::new(Limits {
            max_states: Some(20_000),
            ..Limits::default()
        });
        if let SearchOutcome::Found(path) = astar(&space, &ctl) {
            let route = space.moves(&path);
            assert_eq!(route.len(), known, "{}", row["file"]);
            assert!(notation::wins(&level.board, &route), "{}", row["file"]);
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} maps checked");
}

#[test]
fn the_program_search_wins_with_programs_far_shorter_than_routes() {
    // No proof here: this is the search's own test (the proofs have theirs, below).
    let budget = Budget {
        proof_score: 0,
        ..Budget::small()
    };
    for file in [
        "01-intro1.txt",
        "24-test19.txt",
        "39-validator09.txt",
        "43-validator13.txt",
    ] {
        let level = level(file);
        let ctl = SearchControl::unlimited();
        let Answer::Solved {
            moves,
            score,
            solution,
            proof,
            ..
        } = search::solve(&level.board, &ctl, &budget)
        else {
            panic!("{file}: not solved");
        };
        let verdict = notation::check(&level.board, &solution).unwrap();
        assert_eq!((verdict.moves, verdict.score), (moves, score), "{file}");
        assert!(!proof.is_optimal());
        let plain = PlainGraph::new(&level.board)
            .unwrap()
            .shortest_from_start()
            .moves
            .unwrap();
        assert!(
            score * 2 < plain.len() as u64,
            "{file}: {solution} vs {plain}"
        );
    }
}

#[test]
fn the_tutorials_test_19_and_validator_9_are_proven_shortest() {
    // Every shorter canonical program is run and loses (prove.rs; its own tests hold the
    // canonical forms to a brute force over every character).
    for (file, best) in [
        ("01-intro1.txt", 5),
        ("02-intro2.txt", 5),
        ("03-intro3.txt", 6),
        ("04-intro4.txt", 3),
        ("05-intro5.txt", 11),
        ("24-test19.txt", 10),
        ("39-validator09.txt", 9),
    ] {
        let level = level(file);
        let ctl = SearchControl::unlimited();
        let Answer::Solved {
            score,
            solution,
            proof,
            note,
            ..
        } = search::solve(&level.board, &ctl, &Budget::default())
        else {
            panic!("{file}: not solved");
        };
        assert!(notation::wins(&level.board, &solution), "{file}");
        assert_eq!(score, best, "{file}: {solution}");
        assert!(proof.is_optimal(), "{file}: {note}");
        assert!(
            note.ends_with(&format!(
                "every program of at most {} characters loses",
                best - 1
            )),
            "{file}: {note}"
        );
    }
    // A program past what the budget can prove keeps the bound it reached: with 300,000
    // programs, the 279,992 canonical programs of up to 8 characters, not those of 9.
    let level = level("05-intro5.txt");
    let ctl = SearchControl::unlimited();
    let budget = Budget {
        proof_programs: 300_000,
        ..Budget::default()
    };
    let Answer::Solved { proof, note, .. } = search::solve(&level.board, &ctl, &budget) else {
        panic!("05-intro5: not solved");
    };
    assert!(!proof.is_optimal());
    assert!(
        note.ends_with("no program of at most 8 characters wins"),
        "{note}"
    );
}

#[test]
fn the_own_corpus_solves_end_to_end() {
    let rows =
        frontier::harness::solve_paths(&[common::own("bender4")], None, Limits::default()).unwrap();
    assert_eq!(rows.len(), 6);
    common::assert_expanded_within_states(&rows);
    for row in &rows {
        let expected = if row.level == "unwinnable" {
            Status::Unsolvable
        } else {
            Status::Solved
        };
        assert_eq!(row.status, expected, "{}: {}", row.level, row.detail());
        assert_eq!(row.game, frontier::games::GameId::Bender4);
    }
}
