//! Golf Peaks solved whole: the fewest plays found and written in the notation, levels that
//! cannot be won, limits, and the analysis against a brute-force count of the shortest
//! solutions.

use super::GolfPeaks;
use super::space::GolfSpace;
use super::testing::{check, level, reachable};
use crate::engine::SearchControl;
use crate::engine::control::Limits;
use crate::games::{Answer, Game};

// The search (§3).

#[test]
fn the_search_finds_the_fewest_plays_in_the_notation() {
    let l = level("4x1\n0,ball 0,sand 0 0,flag\n\n2- 1- 2/ 3/");
    let answer = GolfPeaks::solve(&l, &SearchControl::unlimited());
    assert_eq!(answer, Answer::optimal(1, "3/↘".into()));
    let l = level("4x1\n0,ball 0,sand 0 0,flag\n\n2- 1- 2/");
    let Answer::Solved { solution, .. } = GolfPeaks::solve(&l, &SearchControl::unlimited()) else {
        panic!("solvable");
    };
    assert_eq!(check(&l, &solution), Ok(2));
}

#[test]
fn a_level_that_cannot_be_won_is_unsolvable_and_limits_stop_the_search() {
    let l = level("5x1\n0,ball 0 1 x 0,flag\n\n1- 1- 2- 1/");
    assert_eq!(
        GolfPeaks::solve(&l, &SearchControl::unlimited()),
        Answer::Unsolvable
    );
    let l = level("5x1\n0,ball 0 0 0 0,flag\n\n1- 1- 1- 1-");
    let limited = SearchControl::new(Limits {
        max_states: Some(2),
        ..Limits::default()
    });
    assert!(matches!(
        GolfPeaks::solve(&l, &limited),
        Answer::Limit {
            limit: crate::games::Limit::Search(crate::engine::Limit::States(_)),
            lower: None
        }
    ));
}

#[test]
fn analyze_counts_the_optimal_solutions_a_brute_force_enumerates() {
    for text in [
        "4x1\n0,ball 0,flag 0 0\n\n2- 1-",
        "4x1\n0,ball 0,sand 0 0,flag\n\n2- 1- 2/",
        "3x2\n0,ball 0,warp x\nx 7,warp 7,flag\n\n1- 1-",
        "3x3\n0,ball 0 0\n0 0 0\n0 0 0,flag\n\n1- 1- 2- 2- 1/",
    ] {
        let l = level(text);
        let analysis = GolfPeaks::analyze(&l, &SearchControl::unlimited())
            .expect("golf-peaks has a space")
            .expect("no limits");
        let space = GolfSpace::exhaustive(&l, &SearchControl::unlimited()).unwrap();
        let brute = crate::engine::testing::brute_force_shortest_solutions(&space, 5);
        let analyzed = analysis.optimum.map(|o| (o, analysis.optimal_paths));
        assert_eq!(analyzed, brute, "{text}");
        assert_eq!(analysis.states(), reachable(&space), "{text}");
    }
}
