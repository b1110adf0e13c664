//! Programs (spec §2.2–2.3): splitting a line into pieces with Java's rule, the call-stack
//! interpreter that executes one step at a time, and the timeline that decides win or loss.
//!
//! [`run`] is the referee that `check` uses. The program search ([`super::judge`]) drives the
//! same [`Machine`] and [`Board::step`] in its own resumable loop; a test holds the two to the
//! same verdicts.

use std::fmt;

use super::rules::{Board, Effect, Pos, direction};

/// The last step at which an arrival still wins (T2: 1000 turns, the state after step k is
/// examined at turn k + 1 and the win declared at turn k + 2).
pub const LAST_WINNING_STEP: u32 = 998;

/// The pieces of a program: piece 0 is main, piece k is function k.
pub trait Code {
    fn pieces(&self) -> usize;
    fn piece(&self, index: usize) -> &[u8];
}

/// A program line split into pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pieces: Vec<Vec<u8>>,
    /// Characters of the line (the score).
    len: usize,
}

impl Program {
    /// Splits a line at `;` (I1): empty pieces at the end are dropped, others kept. Only
    /// printable ASCII is accepted (spec §3).
    pub fn parse(line: &str) -> Result<Program, String> {
        if let Some((i, c)) = line.char_indices().find(|(_, c)| !(' '..='~').contains(c)) {
            return Err(format!(
                "character {} of the program is {c:?}: only printable ASCII (space to `~`) is allowed",
                i + 1
            ));
        }
        let mut pieces: Vec<Vec<u8>> = line.split(';').map(|p| p.as_bytes().to_vec()).collect();
        // Java's String.split keeps a lone empty string when there is no separator at all.
        if line.contains(';') {
            while pieces.last().is_some_and(Vec::is_empty) {
                pieces.pop();
            }
        }
        Ok(Program {
            pieces,
            len: line.len(),
        })
    }

    /// The score: the number of characters of the line.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Code for Program {
    fn pieces(&self) -> usize {
        self.pieces.len()
    }
    fn piece(&self, index: usize) -> &[u8] {
        &self.pieces[index]
    }
}

/// What one step of the interpreter did (I2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move character, by direction index.
    Move(usize),
    /// Any character that is neither a move nor a digit 1–9.
    Nothing,
    /// A call of an existing function.
    Call,
    /// A call of a function that does not exist (a loss).
    Missing(u8),
    /// The top frame reached its end and was popped.
    Return,
    /// The stack is empty: the program is over.
    End,
}

/// One frame of the call stack.
///
/// A call from the last character of a piece (a tail call) replaces the caller's frame instead
/// of stacking on it: the caller has nothing left but its return, so the frame only counts it
/// in `pending`. Returns are still steps of their own (each pending return is one), so the
/// step sequence is exactly the referee's, while endless tail recursion keeps the stack short.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    pub piece: u8,
    /// The position of the next character.
    pub pos: u16,
    /// Finished callers below this frame that still have to return.
    pub pending: u16,
}

/// The interpreter's call stack.
#[derive(Clone, Debug, Default)]
pub struct Machine {
    stack: Vec<Frame>,
}

impl Machine {
    /// Starts `code` at the beginning of main (an empty stack if there is no piece at all).
    pub fn reset(&mut self, code: &impl Code) {
        self.stack.clear();
        if code.pieces() > 0 {
            self.stack.push(Frame {
                piece: 0,
                pos: 0,
                pending: 0,
            });
        }
    }

    /// The frames, bottom first.
    pub fn frames(&self) -> &[Frame] {
        &self.stack
    }

    /// Continues from frames saved with [`Machine::frames`].
    pub fn restore(&mut self, frames: &[Frame]) {
        self.stack.clear();
        self.stack.extend_from_slice(frames);
    }

    /// Executes the interpreter's part of one step.
    #[inline]
    pub fn next(&mut self, code: &impl Code) -> Action {
        self.next_traced(code, &mut |_, _| {})
    }

    /// [`Machine::next`], telling `read` every (piece, position) the step depends on: the
    /// character read, a piece's end when it returns (or when a tail call makes its return
    /// certain), and position 0 of a called piece (whether it exists).
    #[inline]
    pub fn next_traced(&mut self, code: &impl Code, read: &mut impl FnMut(u8, u16)) -> Action {
        let pieces = code.pieces();
        let Some(top) = self.stack.last_mut() else {
            return Action::End;
        };
        let piece = code.piece(top.piece as usize);
        let Some(&c) = piece.get(top.pos as usize) else {
            read(top.piece, piece.len() as u16);
            if top.pending > 0 {
                top.pending -= 1;
            } else {
                self.stack.pop();
            }
            return Action::Return;
        };
        read(top.piece, top.pos);
        top.pos += 1;
        if let Some(dir) = direction(c) {
            return Action::Move(dir);
        }
        if !(b'1'..=b'9').contains(&c) {
            return Action::Nothing;
        }
        let k = c - b'0';
        read(k, 0);
        if usize::from(k) >= pieces {
            return Action::Missing(k);
        }
        if usize::from(top.pos) == piece.len() {
            read(top.piece, top.pos);
            *top = Frame {
                piece: k,
                pos: 0,
                pending: top.pending + 1,
            };
        } else {
            self.stack.push(Frame {
                piece: k,
                pos: 0,
                pending: 0,
            });
        }
        Action::Call
    }

    /// Finishes the call just made, its return included, as if its steps had run (for a
    /// caller that knows what they do): a plain call's frame is popped; a tail call's frame,
    /// which holds the caller's pending return, is left at its end with one return fewer.
    pub fn skip_call(&mut self, code: &impl Code) {
        let top = self.stack.last_mut().expect("a call was just made");
        if top.pending > 0 {
            top.pos = code.piece(top.piece as usize).len() as u16;
            top.pending -= 1;
        } else {
            self.stack.pop();
        }
    }
}

/// Why a program loses (T3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// The line has no piece at all (only `;`).
    NoMain,
    /// Bender starts on an active field.
    StartsOnField,
    /// Bender entered an active field at this cell.
    Field(u16),
    /// A ball was pushed onto Fry.
    Squashed,
    /// A call of this missing function.
    Missing(u8),
    /// The program ended before Bender reached Fry.
    Ended,
    /// No arrival by step 998.
    TurnLimit,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Bender reached Fry after this step.
    Won { steps: u32 },
    /// The program lost at this step (0: before the first step).
    Lost { step: u32, why: Loss },
}

impl Outcome {
    pub fn is_won(&self) -> bool {
        matches!(self, Outcome::Won { .. })
    }
}

/// Runs `code` from the board's start (T1–T3). `machine` and `pos` are reused buffers.
pub fn run(board: &Board, code: &impl Code, machine: &mut Machine, pos: &mut Pos) -> Outcome {
    run_seen(board, code, machine, pos, |_, _| {})
}

/// One step of a run, as [`run_seen`] shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The step's number, from 1.
    pub step: u32,
    pub action: Action,
    /// The piece and the position in it that the step read first: the character it ran, or
    /// the piece's end for a return.
    pub read: Option<(u8, u16)>,
}

/// [`run`], showing `seen` the start (with `None`) and the position after every step the
/// program takes, the losing one included (`frontier show` draws them).
pub fn run_seen(
    board: &Board,
    code: &impl Code,
    machine: &mut Machine,
    pos: &mut Pos,
    mut seen: impl FnMut(Option<&Step>, &Pos),
) -> Outcome {
    board.reset(pos);
    seen(None, pos);
    machine.reset(code);
    if code.pieces() == 0 {
        return Outcome::Lost {
            step: 0,
            why: Loss::NoMain,
        };
    }
    if board.is_deadly(pos) {
        return Outcome::Lost {
            step: 0,
            why: Loss::StartsOnField,
        };
    }
    for step in 1..=LAST_WINNING_STEP {
        let lost = |why| Outcome::Lost { step, why };
        let mut read = None;
        let action = machine.next_traced(code, &mut |piece, at| {
            read.get_or_insert((piece, at));
        });
        let dir = match action {
            Action::Move(dir) => dir,
            Action::Nothing | Action::Call | Action::Return => {
                seen(Some(&Step { step, action, read }), pos);
                continue;
            }
            Action::Missing(k) => return lost(Loss::Missing(k)),
            Action::End => return lost(Loss::Ended),
        };
        let effect = board.step(pos, dir);
        seen(Some(&Step { step, action, read }), pos);
        if effect == Effect::Blocked {
            continue;
        }
        if board.is_deadly(pos) {
            return lost(Loss::Field(pos.cell));
        }
        if board.squashes_fry(effect) {
            return lost(Loss::Squashed);
        }
        if pos.cell == board.target {
            // The win is locked in, but the next step still runs: a missing call loses.
            return match machine.next(code) {
                Action::Missing(k) => Outcome::Lost {
                    step: step + 1,
                    why: Loss::Missing(k),
                },
                _ => Outcome::Won { steps: step },
            };
        }
    }
    Outcome::Lost {
        step: LAST_WINNING_STEP + 1,
        why: Loss::TurnLimit,
    }
}

/// Describes a loss for `frontier check`.
pub struct LossReport<'a> {
    pub board: &'a Board,
    pub step: u32,
    pub why: Loss,
}

impl fmt::Display for LossReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let step = self.step;
        match self.why {
            Loss::NoMain => write!(f, "the program has no main routine (only `;`)"),
            Loss::StartsOnField => write!(f, "Bender starts on an active magnetic field"),
            Loss::Field(cell) => {
                let p = self.board.xy(cell);
                write!(
                    f,
                    "step {step}: Bender entered the active magnetic field at {},{}",
                    p.x, p.y
                )
            }
            Loss::Squashed => write!(f, "step {step}: a ball was pushed onto Fry"),
            Loss::Missing(k) => {
                write!(f, "step {step}: call of function {k}, which does not exist")
            }
            Loss::Ended => write!(
                f,
                "step {step}: the program ended before Bender reached Fry"
            ),
            Loss::TurnLimit => write!(
                f,
                "turn limit: Bender has not reached Fry by step {LAST_WINNING_STEP}"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bender4::Rng;
    use crate::games::bender4::notation::check;
    use crate::games::bender4::testing::{INTRO1, INTRO2, INTRO4, level, lost, steps};

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
        let mut rng = Rng::new(7);
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
}
