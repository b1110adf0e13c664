//! Puzzle Quest solved whole: the fewest swaps found and checked, move limits, boards that
//! cannot be cleared, the reductions never changing an optimum, and the analysis against a
//! brute-force count of the shortest solutions.

use super::rules::Grid;
use super::space::{CaptureSpace, Reductions};
use super::testing::{grid, level_of, random_board};
use super::{Level, PuzzleQuest, solve_with};
use crate::engine::SearchControl;
use crate::games::{Answer, Game, Proof};

// ---- Search ------------------------------------------------------------------------------------

fn solve(level: &Level, reductions: Reductions) -> Answer {
    solve_with(level, reductions, &SearchControl::unlimited())
}

#[test]
fn the_search_finds_the_fewest_swaps_and_check_accepts_them() {
    // One swap clears the cascade board; the L board needs two (the blue left over must go).
    let one = level_of(grid(&["_rr_____", "_yrr____", "yryr____"]), None);
    let Answer::Solved {
        moves,
        proof,
        solution,
        ..
    } = solve(&one, Reductions::default())
    else {
        panic!("solvable");
    };
    assert_eq!((moves, proof), (1, Proof::Optimal));
    assert_eq!(PuzzleQuest::check(&one, &solution).unwrap().moves, 1);
    assert_eq!(
        solve(&level_of(Grid::EMPTY, None), Reductions::default()),
        Answer::optimal(0, String::new())
    );
}

#[test]
fn a_move_limit_is_a_budget() {
    // Two separate clusters: the cascade of the small cases on the left, `bb_b` on the right.
    let board = grid(&["_rr_____", "_yrr____", "yryrbb_b"]);
    let unlimited = solve(&level_of(board, None), Reductions::default());
    let Answer::Solved { moves, .. } = unlimited else {
        panic!("solvable: {unlimited:?}");
    };
    assert_eq!(moves, 2);
    let limit = moves as u32;
    assert!(matches!(
        solve(&level_of(board, Some(limit)), Reductions::default()),
        Answer::Solved { moves: m, .. } if m == moves
    ));
    assert_eq!(
        solve(&level_of(board, Some(limit - 1)), Reductions::default()),
        Answer::Unsolvable
    );
}

#[test]
fn a_board_that_cannot_be_cleared_is_unsolvable_with_and_without_reductions() {
    let board = level_of(grid(&["rrgrr___", "ggbgg___"]), None);
    for reductions in all_reductions() {
        assert_eq!(solve(&board, reductions), Answer::Unsolvable);
    }
}

fn all_reductions() -> Vec<Reductions> {
    let mut all = Vec::new();
    for mirror in [false, true] {
        for dead_states in [false, true] {
            for column_bound in [false, true] {
                all.push(Reductions {
                    mirror,
                    dead_states,
                    column_bound,
                });
            }
        }
    }
    all
}

#[test]
fn reductions_never_change_the_optimum_on_random_boards() {
    let mut seed = 99;
    for round in 0..40 {
        let board = random_board(&mut seed, [&b"rgbs"[..], b"rgsS"][round % 2], 5);
        let level = level_of(board, None);
        let answers: Vec<Option<u64>> = all_reductions()
            .into_iter()
            .map(|r| match solve(&level, r) {
                Answer::Solved { moves, .. } => Some(moves),
                Answer::Unsolvable => None,
                Answer::Limit { limit, .. } => panic!("{limit}"),
            })
            .collect();
        assert!(
            answers.iter().all(|a| *a == answers[0]),
            "{answers:?}\n{board}"
        );
    }
}

#[test]
fn analyze_counts_the_optimal_solutions_a_brute_force_enumerates() {
    let boards: [&[&str]; 3] = [
        &["_rr_____", "_yrr____", "yryr____"],
        &["_rr_____", "_yrr____", "yryrbb_b"],
        &["rr_r____", "gb_y____", "ggbb_b__"],
    ];
    for rows in boards {
        let level = level_of(grid(rows), None);
        let analysis = PuzzleQuest::analyze(&level, &SearchControl::unlimited())
            .expect("puzzle-quest has a space")
            .expect("no limits");
        let space = CaptureSpace::new(&level, Reductions::default());
        let brute = crate::engine::testing::brute_force_shortest_solutions(&space, 6);
        let analyzed = analysis.optimum.map(|o| (o, analysis.optimal_paths));
        assert_eq!(analyzed, brute, "{rows:?}");
    }
}
