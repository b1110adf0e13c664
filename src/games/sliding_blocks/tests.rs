//! Whole-game tests: the small cases of the spec solved through the engine, the solutions it
//! writes, limits, and `analyze` against a brute force; and [`level`], the fixture the modules'
//! tests share. Each module's own rules are tested at its bottom.

use super::bits::Bits;
use super::level::parse_puzzle;
use super::notation::replay;
use super::space::SlidingSpace;
use super::{Level, SlidingBlocks, WithSpace, with_space};
use crate::engine::SearchControl;
use crate::games::{Answer, Game};

pub(super) fn level(start: &str, goal: &str) -> Level {
    Level::new(parse_puzzle(start, goal).expect("a valid puzzle")).expect("a supported puzzle")
}

fn solve(start: &str, goal: &str) -> Answer {
    SlidingBlocks::solve(&level(start, goal), &SearchControl::unlimited())
}

fn moves(answer: &Answer) -> Option<u64> {
    match answer {
        Answer::Solved { moves, proof, .. } => {
            assert!(proof.is_optimal());
            Some(*moves)
        }
        _ => None,
    }
}

#[test]
fn small_cases_of_the_spec() {
    assert_eq!(moves(&solve("A..", "..A")), Some(1));
    assert_eq!(moves(&solve("ab.\n...", "..a\n...")), Some(1));
    assert_eq!(moves(&solve("A.B\n...", "B.A\n...")), Some(3));
    assert_eq!(solve("AB", "BA"), Answer::Unsolvable);
    let solved = solve("A.\n.B", "A.\n.B");
    assert_eq!(moves(&solved), Some(0));
    assert!(matches!(solved, Answer::Solved { ref solution, .. } if solution.is_empty()));
}

#[test]
fn solutions_name_real_blocks_and_shortest_step_chains() {
    // Two interchangeable 1x1 free blocks: the written path must name the one that moved.
    let answer = solve("Gxy\n...", "..G\n...");
    let Answer::Solved {
        solution, moves, ..
    } = answer
    else {
        panic!("solvable")
    };
    assert_eq!(moves, 3);
    let p = parse_puzzle("Gxy\n...", "..G\n...").unwrap();
    assert_eq!(replay(&p, &solution), Ok(3));
    // Writers take the U, D, L, R order among shortest chains.
    let Answer::Solved { solution, .. } = solve("a.\n..", "..\n.a") else {
        panic!("solvable")
    };
    assert_eq!(solution, "a:DR");
}

#[test]
fn limits_end_the_search_with_a_limit_answer() {
    let klotski = "aBBc\naBBc\ndEEf\ndghf\ni..j";
    let goal = "....\n....\n....\n.BB.\n.BB.";
    let limits = crate::engine::control::Limits {
        max_states: Some(1000),
        ..Default::default()
    };
    let answer = SlidingBlocks::solve(&level(klotski, goal), &SearchControl::new(limits));
    assert!(
        matches!(
            answer,
            Answer::Limit {
                limit: crate::games::Limit::Search(crate::engine::Limit::States(_)),
                ..
            }
        ),
        "{answer:?}"
    );
}

#[test]
fn analyze_counts_the_optimal_solutions_a_brute_force_enumerates() {
    struct BruteForce;
    impl WithSpace for BruteForce {
        type Output = Option<(u32, u64)>;
        fn run<M: Bits, const N: usize>(self, space: SlidingSpace<'_, M, N>) -> Self::Output {
            crate::engine::testing::brute_force_shortest_solutions(&space, 12)
        }
    }
    for (start, goal) in [
        (" A..\naab.\n .bc", " ...\n....\n .A."),
        ("A.B\n...", "B.A\n..."),
        ("Ab.\ncdd\n.dd", "...\n...\n..A"),
        ("A.b\nccb\nc..", "...\n...\n..A"),
    ] {
        let l = level(start, goal);
        let analysis = SlidingBlocks::analyze(&l, &SearchControl::unlimited())
            .expect("sliding-blocks has a space")
            .expect("no limits");
        let analyzed = analysis.optimum.map(|o| (o, analysis.optimal_paths));
        assert_eq!(analyzed, with_space(&l, BruteForce), "{start}");
        // The farthest position is a level file of the same puzzle.
        let farthest = analysis.farthest.expect("a level file");
        let (far_start, far_goal) = farthest.split_once("\n\n").unwrap();
        assert_eq!(level(far_start, far_goal).puzzle.board, l.puzzle.board);
    }
}
