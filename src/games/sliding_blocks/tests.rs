//! Unit tests: the parser's rejections, the rules of a move, the checker, and the small cases of
//! the spec solved through the engine.

use std::path::Path;

use std::collections::HashSet;

use super::bits::Bits;
use super::level::parse_puzzle;
use super::notation::replay;
use super::rules::{Cell, Dir};
use super::space::SlidingSpace;
use super::{Level, SlidingBlocks, WithSpace, reachable_positions, with_space};
use crate::engine::{SearchControl, Space, Stored};
use crate::games::{Answer, Game, Source};

fn level(start: &str, goal: &str) -> Level {
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

fn parse_error(start: &str, goal: &str) -> String {
    match parse_puzzle(start, goal) {
        Ok(_) => panic!("{start:?} / {goal:?} parsed"),
        Err(e) => e,
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
fn malformed_puzzles_are_rejected_with_the_reason() {
    assert!(parse_error("a.", "a").contains("mismatched bounds"));
    assert!(parse_error("aa", "a.").contains("shape mismatch for `a`"));
    assert!(parse_error("a", "b").contains("goal block `b` missing from start"));
    assert!(parse_error("", "").contains("empty puzzle"));
    assert!(parse_error("a.", "").contains("mismatched bounds"));
    let wide = ".".repeat(256);
    assert!(parse_error(&wide, &wide).contains("too large"));
}

#[test]
fn grids_are_cropped_and_may_hold_any_characters() {
    // Leading blank lines and common indentation do not matter; tabs are off the board.
    let p = parse_puzzle("\n\n   ★.\n\t  ..", "★.\n..").unwrap();
    assert_eq!((p.width, p.height), (2, 2));
    assert_eq!(p.blocks[0].name, '★');
    assert!(p.blocks[0].is_goal());
    // A disconnected block moves as one.
    let p = parse_puzzle("x.x\n...", "...\nx.x").unwrap();
    assert_eq!(p.blocks.len(), 1);
    assert_eq!(p.blocks[0].cells.len(), 2);
}

#[test]
fn a_unit_step_needs_board_cells_free_of_other_blocks() {
    let p = parse_puzzle("ab.\n. .", "...\n. .").unwrap();
    let start = p.start();
    assert!(!p.can_step(&start, 0, Dir::Right), "b is in the way");
    assert!(p.can_step(&start, 0, Dir::Down));
    assert!(
        !p.can_step(&start, 1, Dir::Down),
        "the cell below b is off the board"
    );
    assert!(p.can_step(&start, 1, Dir::Right));
    assert!(!p.can_step(&start, 0, Dir::Up), "off the grid");
    // A block never obstructs itself.
    let p = parse_puzzle("aa.", "aa.").unwrap();
    assert!(p.can_step(&p.start(), 0, Dir::Right));
}

#[test]
fn the_checker_replays_legal_solutions() {
    let p = parse_puzzle("ab.\n...", "..a\n...").unwrap();
    assert_eq!(replay(&p, "a:DRRU"), Ok(1));
    assert_eq!(
        replay(&p, "  a:D   a:RRU "),
        Ok(2),
        "any whitespace between tokens"
    );
    let p = parse_puzzle(":..", "..:").unwrap();
    assert_eq!(replay(&p, "::RR"), Ok(1), "the name is the first character");
}

#[test]
fn the_checker_rejects_illegal_paths() {
    let p = parse_puzzle("ab.\n...", "..a\n...").unwrap();
    let err = |s: &str| replay(&p, s).unwrap_err();
    assert!(err("a:R").contains("step 1 (R)"), "{}", err("a:R"));
    assert!(err("c:D").contains("no block named `c`"));
    assert!(err("a:DU").contains("ends where it started"));
    assert!(err("a:").contains("no steps"));
    assert!(err("aR").contains("expected a block name"));
    assert!(err("a:DX").contains("`X` is not a step"));
    assert!(err("a:D").contains("not all on their targets"));
    assert!(err("").contains("after 0 moves"));
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
fn interchangeable_blocks_are_one_state_but_goal_blocks_never_are() {
    let ctl = SearchControl::unlimited();
    // Two free 1x1 blocks on a 1x3 strip: 3 positions. As goal blocks they are distinct, but
    // cannot pass each other on the strip: again 3.
    assert_eq!(reachable_positions(&level("ab.", "..."), &ctl), Ok(3));
    let ctl = SearchControl::unlimited();
    assert_eq!(reachable_positions(&level("ab.", "ab."), &ctl), Ok(3));
    // On a 2x3 board: 6 * 5 ordered placements of distinct blocks, 15 of identical ones.
    let ctl = SearchControl::unlimited();
    assert_eq!(
        reachable_positions(&level("ab.\n...", "ab.\n..."), &ctl),
        Ok(30)
    );
    let ctl = SearchControl::unlimited();
    assert_eq!(
        reachable_positions(&level("ab.\n...", "...\n..."), &ctl),
        Ok(15)
    );
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
fn tsv_files_unescape_fields_and_report_bad_records_by_line() {
    let text = "name\tstart\tgoal\tnote\n\
                ok\tA.\\\\\\n..\t.A\\\\\\n..\tx\n\
                \n\
                short\tA.\n\
                bad escape\tA\\q\tA\tx\n\
                ok\tA.\tA.\tx\n";
    let source = Source {
        path: Path::new("p.tsv"),
        stem: "p",
        text,
    };
    let entries = SlidingBlocks::parse(&source);
    let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["ok", "short", "bad escape", "ok"]);
    let first = entries[0]
        .level
        .as_ref()
        .expect("`\\\\` is a backslash block, `\\n` a newline");
    assert_eq!(
        first
            .puzzle
            .blocks
            .iter()
            .map(|b| b.name)
            .collect::<String>(),
        "A\\"
    );
    let errors: Vec<String> = entries[1..]
        .iter()
        .map(|e| e.level.as_ref().err().unwrap().to_string())
        .collect();
    assert!(
        errors[0].starts_with("p.tsv:4:") && errors[0].contains("expected 4 tab-separated fields"),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].starts_with("p.tsv:5:") && errors[1].contains("unknown escape `\\q`"),
        "{}",
        errors[1]
    );
    assert!(
        errors[2].starts_with("p.tsv:6:") && errors[2].contains("duplicate puzzle name `ok`"),
        "{}",
        errors[2]
    );
}

#[test]
fn tsv_files_need_the_puzzle_columns() {
    let source = Source {
        path: Path::new("answers.tsv"),
        stem: "answers",
        text: "name\tmin_moves\nx\t3\n",
    };
    let entries = SlidingBlocks::parse(&source);
    assert_eq!(entries.len(), 1);
    assert!(
        entries[0]
            .level
            .as_ref()
            .err()
            .unwrap()
            .to_string()
            .contains("answers.tsv:1: header must name")
    );
    assert!(
        !SlidingBlocks::holds_levels(source.text),
        "a walk skips answer tables"
    );
}

#[test]
fn txt_files_need_a_separating_empty_line() {
    let source = Source {
        path: Path::new("one.txt"),
        stem: "one",
        text: "A.\n..",
    };
    let entries = SlidingBlocks::parse(&source);
    assert_eq!(entries[0].name, "one");
    assert!(
        entries[0]
            .level
            .as_ref()
            .err()
            .unwrap()
            .to_string()
            .contains("no empty line")
    );
    let source = Source {
        path: Path::new("two.txt"),
        stem: "two",
        text: "A.\r\n  \r\n\r\n.A\r\n\r\n",
    };
    // A row of spaces is part of the start grid; the first empty line separates.
    let entries = SlidingBlocks::parse(&source);
    let level = entries[0].level.as_ref().expect("valid");
    assert_eq!(level.puzzle.blocks[0].target, Some(Cell { row: 0, col: 1 }));
}

/// Walks every position reachable from the start and checks the move tag's one promise at each
/// move: skipping the tagged block's moves (spec R5) skips the way back, and otherwise only
/// positions one move from the parent. Returns the positions walked.
struct SkipOnlyReturns;

impl WithSpace for SkipOnlyReturns {
    type Output = usize;
    fn run<M: Bits, const N: usize>(self, space: SlidingSpace<'_, M, N>) -> usize {
        let mut seen = HashSet::from([space.start()]);
        let mut todo = vec![space.start()];
        let (mut near, mut all, mut kept) = (Vec::new(), Vec::new(), Vec::new());
        while let Some(parent) = todo.pop() {
            near.clear();
            space.successors(&parent, &mut near);
            for &state in &near {
                let tag = space.move_tag(&state, &parent);
                all.clear();
                space.successors(&state, &mut all);
                kept.clear();
                space.successors_after(&state, tag, &mut kept);
                assert!(!kept.contains(&parent), "tag {tag:?} keeps the way back");
                for skipped in all.iter().filter(|s| !kept.contains(s)) {
                    assert!(
                        *skipped == parent || near.contains(skipped),
                        "tag {tag:?} skips a position two moves from the parent"
                    );
                }
                if seen.insert(state) {
                    todo.push(state);
                }
            }
        }
        seen.len()
    }
}

#[test]
fn the_move_tag_names_the_block_that_moved() {
    // Five interchangeable 1x1 blocks (kept sorted in the key, so a move may shift the others'
    // slots) beside a 2x1 and a 1x2 block.
    let walked = with_space(
        &level("aab.\nc.d.\ne.fg\n..hg", "....\n....\n....\n...."),
        SkipOnlyReturns,
    );
    assert!(walked > 1000, "{walked} positions");
}

#[test]
fn analyze_counts_the_optimal_solutions_a_brute_force_enumerates() {
    struct BruteForce;
    impl WithSpace for BruteForce {
        type Output = Option<(u32, u64)>;
        fn run<M: Bits, const N: usize>(self, space: SlidingSpace<'_, M, N>) -> Self::Output {
            crate::engine::tests::brute_force_shortest_solutions(&space, 12)
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
