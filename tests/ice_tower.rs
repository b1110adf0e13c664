//! Ice Tower on the shared corpus (`../shared/corpora/ice-tower/`) and on the repository's own
//! levels (`corpora/ice-tower/`): known answers reproduced and re-checked, example solutions
//! replayed, the packed space compared with the simulator, and every prune shown to keep the
//! optimum (plain BFS, which prunes nothing, finds the same push count).

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use frontier::engine::bfs::bfs;
use frontier::engine::control::Limits;
use frontier::engine::{SearchControl, SearchOutcome, Space};
use frontier::games::ice_tower::IceTower;
use frontier::games::ice_tower::bits::Key;
use frontier::games::ice_tower::level::Puzzle;
use frontier::games::ice_tower::sim_space::SimSpace;
use frontier::games::ice_tower::space::IceSpace;
use frontier::games::{Answer, Game, Source};
use frontier::harness::results::Status;
use frontier::harness::solve_paths;

/// The levels of a file by name.
fn levels(path: &Path) -> Vec<(String, Puzzle)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let source = Source {
        path,
        stem: "levels",
        text: &text,
    };
    IceTower::parse(&source)
        .into_iter()
        .map(|e| (e.name, e.level.expect("the corpus parses")))
        .collect()
}

fn level(path: &Path, name: &str) -> Puzzle {
    levels(path)
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no level {name}"))
        .1
}

/// Rows of a `known-answers.tsv`: file, level, optimum (`None`: unsolvable), example.
fn known_answers(path: &Path) -> Vec<(PathBuf, String, Option<u64>, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let dir = path.parent().unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let optimum = (f[2] != "none").then(|| f[2].parse().unwrap());
            (
                dir.join(f[0]),
                f[1].to_string(),
                optimum,
                f.get(3).unwrap_or(&"").to_string(),
            )
        })
        .collect()
}

fn shared_answers() -> Vec<(PathBuf, String, Option<u64>, String)> {
    known_answers(&common::shared("corpora/ice-tower/known-answers.tsv"))
}

fn own_answers() -> Vec<(PathBuf, String, Option<u64>, String)> {
    known_answers(&common::own("ice-tower/known-answers.tsv"))
}

#[test]
fn every_example_solution_replays() {
    for (file, name, optimum, example) in shared_answers().into_iter().chain(own_answers()) {
        let Some(optimum) = optimum else { continue };
        let verdict = IceTower::check(&level(&file, &name), &example)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(verdict.moves, optimum, "{name}");
    }
}

/// Solves one level and checks the answer against a known optimum.
fn assert_optimum(puzzle: &Puzzle, name: &str, optimum: Option<u64>) {
    let answer = IceTower::solve(puzzle, &SearchControl::unlimited());
    match (answer, optimum) {
        (
            Answer::Solved {
                moves,
                optimal,
                solution,
                ..
            },
            Some(best),
        ) => {
            assert!(optimal, "{name}");
            assert_eq!(moves, best, "{name}: {solution}");
            assert_eq!(IceTower::check(puzzle, &solution).unwrap().moves, moves);
        }
        (Answer::Unsolvable, None) => {}
        (other, _) => panic!("{name}: expected {optimum:?}, got {other:?}"),
    }
}

#[test]
fn the_known_optima_of_the_shared_corpus() {
    // W-21 needs 21 pushes: fewer would mean the magician's reachability is wrong.
    for (file, name, optimum, _) in shared_answers() {
        assert_optimum(&level(&file, &name), &name, optimum);
    }
}

#[test]
fn the_repository_corpus_solves_as_recorded() {
    for (file, name, optimum, _) in own_answers() {
        assert_optimum(&level(&file, &name), &name, optimum);
    }
}

#[test]
fn the_shared_corpus_end_to_end_without_h49() {
    // `original.txt` whole through the harness (search, check, CSV row), and every `qits.txt`
    // level but H-49 (see the ignored test below) by itself.
    let rows = solve_paths(
        &[common::shared("corpora/ice-tower/original.txt")],
        None,
        Limits::default(),
    )
    .unwrap();
    assert_eq!(rows.len(), 10);
    assert!(rows.iter().all(|r| r.status == Status::Solved && r.optimal));
    let qits = common::shared("corpora/ice-tower/qits.txt");
    for (name, puzzle) in levels(&qits) {
        if name == "h49" {
            continue;
        }
        let answer = IceTower::solve(&puzzle, &SearchControl::unlimited());
        match answer {
            Answer::Solved {
                optimal, solution, ..
            } => {
                assert!(optimal, "{name}");
                IceTower::check(&puzzle, &solution).unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            Answer::Unsolvable => assert_eq!(name, "qits003"),
            Answer::Limit(why) => panic!("{name}: {why}"),
        }
    }
}

/// Every state within `depth` pushes: the fast space's successors equal the simulator's.
fn compare_with_simulator<const K: usize>(puzzle: &Puzzle, depth: usize, max_states: usize) {
    let fast = IceSpace::<4, K>::new(puzzle);
    let sim = SimSpace::<4, K>::new(puzzle, false);
    assert_eq!(fast.start(), sim.start());
    let mut seen = HashSet::from([fast.start()]);
    let mut layer = vec![fast.start()];
    for _ in 0..depth {
        let mut next = Vec::new();
        for state in &layer {
            let (mut a, mut b): (Vec<Key<K>>, Vec<Key<K>>) = (Vec::new(), Vec::new());
            fast.successors(state, None, &mut a);
            sim.successors(state, None, &mut b);
            a.sort();
            b.sort();
            assert_eq!(a, b, "successors of {:?}", sim.position(state));
            next.extend(b.into_iter().filter(|k| seen.insert(*k)));
            if seen.len() > max_states {
                return;
            }
        }
        layer = next;
    }
}

#[test]
fn the_packed_space_matches_the_simulator_on_the_corpus() {
    let qits = common::shared("corpora/ice-tower/qits.txt");
    for (name, puzzle) in levels(&qits) {
        compare_with_simulator::<4>(&puzzle, 6, 20_000);
        let _ = name;
    }
    let original = common::shared("corpora/ice-tower/original.txt");
    for (_, puzzle) in levels(&original) {
        compare_with_simulator::<2>(&puzzle, 8, 5_000);
    }
}

/// The push count of plain breadth-first search over the same space: no bound, no dead-state
/// prune.
/// With arrows, the simulator's space with the magician's exact cell.
fn bfs_optimum<const K: usize>(puzzle: &Puzzle) -> Option<u64> {
    let outcome = if puzzle.grid.has_arrows() {
        bfs(
            &SimSpace::<4, K>::new(puzzle, true),
            &SearchControl::unlimited(),
        )
    } else {
        bfs(&IceSpace::<4, K>::new(puzzle), &SearchControl::unlimited())
    };
    match outcome {
        SearchOutcome::Found(path) => Some(path.len() as u64 - 1),
        SearchOutcome::Exhausted => None,
        SearchOutcome::Stopped(_) => unreachable!("no limits"),
    }
}

#[test]
fn pruning_keeps_the_optimum_where_plain_bfs_finishes() {
    // Every corpus level whose whole space plain BFS searches in seconds; W-21 and C-99 too.
    let shared = |f: &str| common::shared(&format!("corpora/ice-tower/{f}"));
    let mut cases: Vec<(String, Puzzle)> = levels(&shared("original.txt"));
    for name in ["w21", "c99", "c99-1", "c99-2", "qits002", "qits003"] {
        cases.push((name.into(), level(&shared("qits.txt"), name)));
    }
    for (file, name, _, _) in own_answers() {
        cases.push((name.clone(), level(&file, &name)));
    }
    for (name, puzzle) in cases {
        let astar = match IceTower::solve(&puzzle, &SearchControl::unlimited()) {
            Answer::Solved { moves, .. } => Some(moves),
            Answer::Unsolvable => None,
            Answer::Limit(why) => panic!("{name}: {why}"),
        };
        assert_eq!(bfs_optimum::<4>(&puzzle), astar, "{name}");
    }
}

#[test]
#[ignore = "H-49: minutes of search and gigabytes of memory; run with --ignored"]
fn h49() {
    let puzzle = level(&common::shared("corpora/ice-tower/qits.txt"), "h49");
    let answer = IceTower::solve(&puzzle, &SearchControl::unlimited());
    let Answer::Solved {
        moves,
        optimal,
        solution,
        ..
    } = answer
    else {
        panic!("{answer:?}")
    };
    assert!(optimal);
    assert_eq!(IceTower::check(&puzzle, &solution).unwrap().moves, moves);
}
