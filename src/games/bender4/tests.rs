//! Unit tests: every edge case of spec §2.4, the parser's rejections, the interpreter against a
//! plain re-implementation, and the search's judge against the referee's run.

use super::Level;
use super::notation::{check, loss};
use super::program::{Action, Code, Loss, Machine, Program};

const INTRO1: &str = "10 10\n##########\n#...#....#\n###.##.#.#\n#.#..###.#\n#.##.#...#\n#..#.###.#\n#.##...#.#\n#..###.#.#\n#........#\n##########\n1 1\n8 8\n0\n";
const INTRO2: &str = "10 10\n##########\n#........#\n#.######.#\n#........#\n########.#\n#..#.###.#\n#.##...#.#\n#..###.#.#\n#........#\n##########\n3 3\n8 3\n1\n2 3 7 3 1\n";
const INTRO3: &str = "10 10\n##########\n#........#\n#.#+####.#\n#........#\n########.#\n#..#.###.#\n#.##...#.#\n#..###.#.#\n#........#\n##########\n3 3\n8 3\n1\n3 1 7 3 1\n";
const INTRO4: &str = "10 10\n##########\n#........#\n#.######.#\n#..+.....#\n####.###.#\n#..#.###.#\n#.##...#.#\n#..###.#.#\n#........#\n##########\n2 3\n4 4\n1\n3 1 7 3 1\n";
const INTRO5: &str = "10 10\n##########\n#........#\n#.####...#\n#...+....#\n########.#\n#.#....#.#\n#.#.####.#\n#.#.#..#.#\n#........#\n##########\n3 3\n5 3\n0\n";
/// Map A of spec §2.4.
const MAP_A: &str = "8 4\n########\n#.+....#\n#......#\n########\n1 1\n4 2\n1\n4 1 3 1 1\n";

fn level(text: &str) -> Level {
    Level::parse_text(text).expect("a valid map")
}

fn steps(text: &str, program: &str) -> Result<u64, String> {
    check(&level(text).board, program).map(|v| v.moves)
}

fn lost(text: &str, program: &str) -> (u32, Loss) {
    loss(&level(text).board, program).expect("the program loses")
}

#[test]
fn intro_hints_win_as_the_spec_says() {
    assert_eq!(steps(INTRO1, "1;DR1"), Ok(33));
    assert_eq!(steps(INTRO2, "LRRRRRR"), Ok(7));
    assert_eq!(steps(INTRO3, "UDRRRRR"), Ok(7));
    assert_eq!(steps(INTRO4, "RRD"), Ok(3));
}

#[test]
fn check_reports_steps_and_score() {
    let v = check(&level(INTRO1).board, "1;DR1").unwrap();
    assert_eq!((v.moves, v.score), (33, 5));
    assert_eq!(v.message, "won in 33 steps, score 5");
}

#[test]
fn entering_an_active_field_loses() {
    assert_eq!(lost(INTRO2, "RRRRR"), (4, Loss::Field(7 + 3 * 10)));
}

#[test]
fn the_step_after_arrival_runs_and_a_missing_call_there_loses() {
    assert_eq!(steps(INTRO2, "LRRRRRRU"), Ok(7));
    assert_eq!(lost(INTRO2, "LRRRRRR1"), (8, Loss::Missing(1)));
}

#[test]
fn arrival_at_step_998_wins_and_at_999_loses() {
    let program = |pad: usize| format!("{}LRRRRRR", "0".repeat(pad));
    assert_eq!(steps(INTRO2, &program(991)), Ok(998));
    assert_eq!(lost(INTRO2, &program(992)), (999, Loss::TurnLimit));
}

#[test]
fn a_pushed_ball_toggles_the_switch_it_lands_on() {
    assert_eq!(steps(INTRO3, "UDRRRRR"), Ok(7));
}

#[test]
fn a_blocked_push_is_a_step_that_changes_nothing() {
    // The second U pushes the ball, already on the switch, against the wall.
    assert_eq!(steps(INTRO3, "UUDRRRRR"), Ok(8));
}

#[test]
fn pushing_a_ball_onto_fry_loses() {
    assert_eq!(lost(INTRO5, "RR"), (1, Loss::Squashed));
}

#[test]
fn a_missing_function_loses_at_once() {
    assert_eq!(lost(INTRO1, "2;DR1"), (1, Loss::Missing(2)));
}

#[test]
fn trailing_empty_pieces_are_dropped() {
    let v = check(&level(INTRO1).board, "1;DR1;").unwrap();
    assert_eq!((v.moves, v.score), (33, 6));
}

#[test]
fn a_line_of_only_separators_has_no_main() {
    assert_eq!(lost(INTRO1, ";;;"), (0, Loss::NoMain));
    assert_eq!(Program::parse(";;;").unwrap().pieces(), 0);
    assert_eq!(Program::parse("").unwrap().pieces(), 1);
    assert_eq!(Program::parse(";R").unwrap().pieces(), 2);
    assert_eq!(Program::parse("R;;U;;").unwrap().pieces(), 3);
}

#[test]
fn entering_a_field_while_pushing_its_ball_onto_its_switch_survives() {
    assert_eq!(steps(MAP_A, "RRDR"), Ok(4));
    let elsewhere = MAP_A.replace("4 1 3 1 1", "6 2 3 1 1");
    let board = level(&elsewhere).board;
    assert_eq!(loss(&board, "RRDR"), Some((2, Loss::Field(3 + 8))));
}

#[test]
fn check_rejects_unprintable_characters_and_accepts_no_ops() {
    let board = level(INTRO4).board;
    assert!(
        check(&board, "RR\tD")
            .unwrap_err()
            .contains("printable ASCII")
    );
    assert_eq!(
        check(&board, "R xR0D").map(|v| (v.moves, v.score)),
        Ok((6, 6))
    );
    assert_eq!(check(&board, "RRD\n").map(|v| v.score), Ok(3));
}

#[test]
fn calls_and_returns_are_steps() {
    // Call, R, return, call, R, return, D.
    assert_eq!(steps(INTRO4, "11D;R"), Ok(7));
    // An empty function costs a call and a return.
    assert_eq!(
        steps(INTRO4, "1RRD;"),
        Err("step 1: call of function 1, which does not exist".into())
    );
    assert_eq!(steps(INTRO4, "1RRD;;R"), Ok(5));
}

#[test]
fn a_program_that_ends_early_loses() {
    // R, R, main returns, the stack is empty.
    assert_eq!(lost(INTRO4, "RR"), (4, Loss::Ended));
    // Call, R, function 1 returns, main returns, the stack is empty.
    assert_eq!(lost(INTRO4, "1;R"), (5, Loss::Ended));
}

#[test]
fn endless_recursion_stops_at_the_turn_limit() {
    assert_eq!(lost(INTRO4, "1;L1"), (999, Loss::TurnLimit));
    assert_eq!(lost(INTRO4, "1;11"), (999, Loss::TurnLimit));
}

/// The referee's interpreter without tail calls: one frame per call.
fn plain_trace(code: &Program, steps: usize) -> Vec<Action> {
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    let mut out = Vec::new();
    for _ in 0..steps {
        let action = match stack.last_mut() {
            None => Action::End,
            Some(top) => {
                let piece = code.piece(top.0);
                if top.1 == piece.len() {
                    stack.pop();
                    Action::Return
                } else {
                    let c = piece[top.1];
                    top.1 += 1;
                    match c {
                        b'U' => Action::Move(0),
                        b'D' => Action::Move(1),
                        b'R' => Action::Move(2),
                        b'L' => Action::Move(3),
                        b'1'..=b'9' if usize::from(c - b'0') >= code.pieces() => {
                            Action::Missing(c - b'0')
                        }
                        b'1'..=b'9' => {
                            stack.push((usize::from(c - b'0'), 0));
                            Action::Call
                        }
                        _ => Action::Nothing,
                    }
                }
            }
        };
        out.push(action);
        if matches!(action, Action::Missing(_)) {
            break;
        }
    }
    out
}

#[test]
fn tail_calls_keep_the_referees_step_sequence() {
    let mut rng = super::Rng::new(7);
    let alphabet = b"UDRL123;;x";
    for _ in 0..3000 {
        let len = 1 + rng.below(14);
        let line: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())] as char)
            .collect();
        let program = Program::parse(&line).unwrap();
        if program.pieces() == 0 {
            continue;
        }
        let expected = plain_trace(&program, 300);
        let mut machine = Machine::default();
        machine.reset(&program);
        let got: Vec<Action> = (0..expected.len())
            .map(|_| machine.next(&program))
            .collect();
        assert_eq!(got, expected, "program {line}");
    }
}

#[test]
fn the_parser_names_the_line_of_each_error() {
    let cases: &[(&str, usize, &str)] = &[
        ("10\n", 1, "`W H`"),
        ("4 x\n", 1, "not a decimal number"),
        ("4  3\n", 1, "`W H`"),
        ("4 3\n####\n#..#\n", 4, "file ends early"),
        ("4 3\n####\n#...#\n####\n", 3, "5 characters, expected 4"),
        ("4 3\n####\n#.a#\n####\n", 3, "unexpected `a`"),
        ("4 3\n####\n#...\n####\n", 3, "border"),
        ("4 3\n####\n#..#\n####\n0 0\n", 5, "is a wall"),
        ("4 3\n####\n#..#\n####\n1 1\n5 1\n", 6, "outside"),
        (
            "4 3\n####\n#+.#\n####\n1 1\n2 1\n0\n",
            5,
            "start is on a ball",
        ),
        ("4 3\n####\n#.+#\n####\n1 1\n2 1\n0\n", 6, "on a ball"),
        (
            "4 3\n####\n#..#\n####\n1 1\n1 1\n0\n",
            6,
            "target is the start",
        ),
        (
            "4 3\n####\n#..#\n####\n1 1\n2 1\n1\n1 1 2 1 2\n",
            8,
            "expected 0 or 1",
        ),
        (
            "5 3\n#####\n#...#\n#####\n1 1\n3 1\n2\n2 1 3 1 0\n2 1 1 1 0\n",
            9,
            "already the switch cell of line 8",
        ),
        (
            "5 3\n#####\n#...#\n#####\n1 1\n3 1\n2\n2 1 3 1 0\n1 1 3 1 0\n",
            9,
            "already the field cell",
        ),
        (
            "5 3\n#####\n#...#\n#####\n1 1\n3 1\n1\n2 1 2 1 0\n",
            8,
            "already the switch cell",
        ),
        ("4 3\n####\n#..#\n####\n1 1\n2 1\n1\n", 8, "file ends early"),
        (
            "4 3\n####\n#..#\n####\n1 1\n2 1\n0\n\nx\n",
            9,
            "unexpected text",
        ),
        (
            "4 3\n####\n#..#\n####\n1 1\n2 1\n-1\n",
            7,
            "not a decimal number",
        ),
    ];
    for &(text, line, message) in cases {
        match Level::parse_text(text) {
            Ok(_) => panic!("accepted {text:?}"),
            Err((l, m)) => {
                assert_eq!(l, line, "line of {text:?}: {m}");
                assert!(m.contains(message), "message of {text:?}: {m}");
            }
        }
    }
    assert!(Level::parse_text("4 3\r\n####\r\n#..#\r\n####\r\n1 1\r\n2 1\r\n0").is_ok());
    assert!(Level::parse_text("4 3\n####\n#..#\n####\n1 1\n2 1\n0\n\n\n").is_ok());
}

/// The maps of the repository's own corpus, and the intro-like maps above.
fn judge_maps() -> Vec<Level> {
    [
        include_str!("../../../corpora/bender4/corridor.txt"),
        include_str!("../../../corpora/bender4/field.txt"),
        include_str!("../../../corpora/bender4/push-onto-switch.txt"),
        include_str!("../../../corpora/bender4/squash.txt"),
        include_str!("../../../corpora/bender4/own-switch.txt"),
        INTRO1,
        INTRO2,
        INTRO3,
        INTRO5,
        MAP_A,
    ]
    .iter()
    .map(|text| level(text))
    .collect()
}

#[test]
fn the_judge_agrees_with_the_referee_on_random_programs_and_their_children() {
    use super::anneal::{Genome, changes, mutate};
    use super::judge::{Judge, Record};
    use super::program::{Machine, Outcome, run};
    use super::routes::PlainGraph;
    let mut rng = super::Rng::new(11);
    for level in judge_maps() {
        let board = &level.board;
        let graph = PlainGraph::new(board).unwrap();
        let mut judge = Judge::new(std::slice::from_ref(&graph));
        let (mut parent_rec, mut child_rec, mut fresh_rec) =
            (Record::default(), Record::default(), Record::default());
        let mut changed = Vec::new();
        let mut pos = board.start_pos();
        for _ in 0..20 {
            let pieces: Vec<Vec<u8>> = (0..1 + rng.below(4))
                .map(|_| {
                    (0..rng.below(9))
                        .map(|_| b"UDRLUDRL1232"[rng.below(12)])
                        .collect()
                })
                .collect();
            let mut parent = Genome::new(&pieces);
            judge.run(&parent, &mut parent_rec);
            for _ in 0..150 {
                let mut child = parent.clone();
                if !mutate(&mut child, &mut rng) {
                    continue;
                }
                changes(&parent, &child, &mut changed);
                let resumed = judge.run_child(&child, &parent_rec, &changed, &mut child_rec);
                let fresh = judge.run(&child, &mut fresh_rec);
                assert_eq!(resumed, fresh, "program {}", child.line());
                let program = Program::parse(&child.line()).unwrap();
                let referee = run(board, &program, &mut Machine::default(), &mut pos);
                let won = match referee {
                    Outcome::Won { steps } => Some(steps),
                    Outcome::Lost { .. } => None,
                };
                assert_eq!(fresh.won, won, "program {}", child.line());
                if rng.chance(0.5) {
                    parent = child;
                    std::mem::swap(&mut parent_rec, &mut child_rec);
                }
            }
        }
    }
}
