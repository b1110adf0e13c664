//! Pictures of a Bender map (`frontier show`): the maze, Fry, the garbage balls, every switch
//! and its magnetic field in a colour of their own (an active field filled, an inactive one
//! dashed), Bender and the path he has walked so far; each frame's caption gives the step, its
//! instruction and the program with the character being run marked. The frames are the
//! positions [`notation::check_seen`] passes through, the run `check` makes: one per step of
//! the interpreter (calls and returns are steps too).

use super::Level;
use super::notation;
use super::program::{Action, Step};
use super::rules::{DIRECTIONS, Pos};
use crate::games::Replay;
use crate::show::{self, Board, Cell, Frame, Line, Rgb, Shape, Span};

const WALL: Rgb = Rgb(64, 64, 76);
const FLOOR: Rgb = Rgb(244, 242, 236);
const PATH: Rgb = Rgb(252, 226, 180);
const BALL: Rgb = Rgb(96, 96, 96);
const BENDER: Rgb = Rgb(149, 165, 166);
const FRY: Rgb = Rgb(230, 126, 34);
/// The colours of switches and their fields, by switch.
const SWITCHES: [Rgb; 6] = [
    Rgb(41, 128, 185),
    Rgb(192, 57, 43),
    Rgb(39, 174, 96),
    Rgb(142, 68, 173),
    Rgb(211, 84, 0),
    Rgb(22, 160, 133),
];
/// The whole loop of a run lasts about this long, each step between the two bounds below.
const RUN_MILLIS: u32 = 40_000;
const STEP_MILLIS: (u32, u32) = (90, 400);

/// One step as recorded during the run.
struct Record {
    step: Option<Step>,
    pos: Pos,
}

/// The map, and with a program every step of its run.
pub fn replay(level: &Level, solution: Option<&str>) -> Replay {
    let Some(solution) = solution else {
        let start = level.board.start_pos();
        let frame = picture(level, &start, &[start.cell], false);
        return Replay {
            frames: vec![Frame {
                board: frame,
                step: 0,
                caption: vec![show::line("start")],
                millis: show::START_MILLIS,
            }],
            verdict: None,
        };
    };
    let line = notation::program_line(solution);
    let mut records = Vec::new();
    let verdict = notation::check_seen(&level.board, line, |step, pos| {
        records.push(Record {
            step: step.copied(),
            pos: pos.clone(),
        });
    });
    if records.is_empty() {
        // The program could not be read: the run never started; the map is all there is.
        records.push(Record {
            step: None,
            pos: level.board.start_pos(),
        });
    }
    let steps = records.len().saturating_sub(1);
    let millis = (RUN_MILLIS / steps.max(1) as u32).clamp(STEP_MILLIS.0, STEP_MILLIS.1);
    let mut path: Vec<u16> = Vec::new();
    let mut frames = Vec::new();
    for record in &records {
        if path.last() != Some(&record.pos.cell) {
            path.push(record.pos.cell);
        }
        let moved = matches!(
            record.step,
            Some(Step {
                action: Action::Move(_),
                ..
            })
        );
        let (what, step) = match &record.step {
            None => (format!("start ({steps} steps)"), 0),
            Some(s) => (
                format!("step {}/{steps}: {}", s.step, action(s.action)),
                s.step,
            ),
        };
        frames.push(Frame {
            board: picture(level, &record.pos, &path, moved),
            step,
            caption: vec![
                show::line(what),
                program(line, record.step.and_then(|s| s.read)),
            ],
            millis: if step == 0 {
                show::START_MILLIS
            } else {
                millis
            },
        });
    }
    show::hold_last(&mut frames);
    Replay {
        frames,
        verdict: Some(verdict),
    }
}

fn action(action: Action) -> String {
    match action {
        Action::Move(dir) => format!("move {}", DIRECTIONS[dir] as char),
        Action::Nothing => "no-op".into(),
        Action::Call => "call".into(),
        Action::Missing(k) => format!("call of missing function {k}"),
        Action::Return => "return".into(),
        Action::End => "end".into(),
    }
}

/// `program: 1;DR1` with the character at (piece, position) strong.
fn program(line: &str, read: Option<(u8, u16)>) -> Line {
    let at = read.and_then(|(piece, pos)| {
        let start: usize = line
            .split(';')
            .take(usize::from(piece))
            .map(|p| p.len() + 1)
            .sum();
        let at = start + usize::from(pos);
        (at < line.len()).then_some(at)
    });
    let span = |text: &str, strong| Span {
        text: text.to_string(),
        strong,
    };
    let mut out = vec![span("program: ", false)];
    match at {
        // The program is printable ASCII (checked when it was parsed), so bytes are chars.
        Some(at) if line.is_char_boundary(at) && line.is_char_boundary(at + 1) => {
            out.push(span(&line[..at], false));
            out.push(span(&line[at..at + 1], true));
            out.push(span(&line[at + 1..], false));
        }
        _ => out.push(span(line, false)),
    }
    out
}

/// The map at `pos`, the cells of `path` tinted, Bender outlined when he just moved.
fn picture(level: &Level, pos: &Pos, path: &[u16], moved: bool) -> Board {
    let board = &level.board;
    let mut picture = Board::new(board.width, board.height);
    let switch_of = |bit: u32| bit.trailing_zeros() as usize;
    for cell in 0..board.cells() as u16 {
        let mut drawn = if board.is_wall(cell) {
            Cell::ground(WALL).glyph("#")
        } else if path.contains(&cell) {
            Cell::ground(PATH).glyph(":")
        } else {
            Cell::ground(FLOOR).glyph(".")
        };
        let field = board.field(cell);
        if field != 0 {
            let i = switch_of(field);
            let colour = SWITCHES[i % SWITCHES.len()];
            drawn = if pos.mask & field != 0 {
                Cell::ground(FLOOR.mix(colour, 0.55))
                    .text("⚡")
                    .glyph(format!("!{i}"))
            } else {
                drawn.outline(colour).glyph(format!("f{i}"))
            };
        }
        let toggle = board.toggle(cell);
        if toggle != 0 {
            let i = switch_of(toggle);
            drawn = drawn
                .token(Shape::Diamond, SWITCHES[i % SWITCHES.len()])
                .glyph(format!("s{i}"));
        }
        if pos.balls.contains(cell) {
            drawn = drawn.token(Shape::Disc, BALL).glyph("+");
        }
        if cell == board.target {
            drawn = drawn.token(Shape::Disc, FRY).text("F");
        }
        if cell == pos.cell {
            drawn = drawn.token(Shape::Disc, BENDER).text("B").highlight(moved);
        }
        let xy = board.xy(cell);
        picture.set(xy.y, xy.x, drawn);
    }
    picture
}
