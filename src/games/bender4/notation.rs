//! The checker: a program line replayed by the referee's rules alone ([`super::program::run`]),
//! independent of every search structure.

use super::program::{Loss, LossReport, Machine, Outcome, Program, Step, run, run_seen};
use super::rules::{Board, Pos};
use crate::games::Verdict;

/// Replays `line` on `board`: `won in N steps, score S`, or why it loses. One trailing line
/// break is not part of the program (the referee reads one line).
pub fn check(board: &Board, line: &str) -> Result<Verdict, String> {
    check_seen(board, line, |_, _| {})
}

/// The program of a solution: the line without one trailing line break.
pub fn program_line(line: &str) -> &str {
    line.strip_suffix('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .unwrap_or(line)
}

/// [`check`], showing `seen` the start and every step ([`run_seen`]).
pub fn check_seen(
    board: &Board,
    line: &str,
    seen: impl FnMut(Option<&Step>, &Pos),
) -> Result<Verdict, String> {
    let line = program_line(line);
    let program = Program::parse(line)?;
    let mut pos = board.start_pos();
    match run_seen(board, &program, &mut Machine::default(), &mut pos, seen) {
        Outcome::Won { steps } => Ok(Verdict {
            moves: u64::from(steps),
            score: program.len() as u64,
            message: format!(
                "won in {}, score {}",
                crate::words::count(steps, "step"),
                program.len()
            ),
        }),
        Outcome::Lost { step, why } => Err(LossReport { board, step, why }.to_string()),
    }
}

/// Whether `line` wins on `board` (for tests and the search's final re-check).
pub fn wins(board: &Board, line: &str) -> bool {
    check(board, line).is_ok()
}

/// The loss of a losing line, if it loses by the rules (for tests).
pub fn loss(board: &Board, line: &str) -> Option<(u32, Loss)> {
    let program = Program::parse(line).ok()?;
    let mut pos = board.start_pos();
    match run(board, &program, &mut Machine::default(), &mut pos) {
        Outcome::Lost { step, why } => Some((step, why)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bender4::testing::{INTRO1, INTRO4, level};

    #[test]
    fn check_reports_steps_and_score() {
        let v = check(&level(INTRO1).board, "1;DR1").unwrap();
        assert_eq!((v.moves, v.score), (33, 5));
        assert_eq!(v.message, "won in 33 steps, score 5");
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
}
