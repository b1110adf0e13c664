//! Pictures of a capture board (`frontier show`): gems as discs in their colours, coins and
//! skulls, and for every swap the boards its resolution passes through: the exchange (the two
//! swapped cells outlined, the cells about to go, flaming skulls' blasts included, ringed),
//! each cascade, and the settled board. The frames are the boards [`notation::replay_seen`]
//! passes through, the replay `check` makes.

use super::level::Level;
use super::notation::{self, Seen};
use super::rules::{Grid, Marks, SIDE, Swap, Tile};
use crate::games::{Replay, Verdict};
use crate::show::{self, Board, Cell, Frame, Rgb, Shape};

const BOARD: Rgb = Rgb(44, 62, 80);
/// How long a removal step is shown.
const CASCADE_MILLIS: u32 = 450;

/// The start, and with a solution every board of every swap.
pub fn replay(level: &Level, solution: Option<&str>) -> Replay {
    let Some(solution) = solution else {
        return Replay {
            frames: vec![start(&level.grid, 0)],
            verdict: None,
        };
    };
    let total = solution.split_whitespace().count();
    let mut frames = Vec::new();
    let mut cascade = 0;
    let verdict = notation::replay_seen(level, solution, |seen| match seen {
        Seen::Start(grid) => frames.push(start(grid, total)),
        Seen::Removing {
            n,
            swap,
            grid,
            lines,
        } => {
            cascade += 1;
            let going = grid.with_blasts(*lines);
            let swapped = (cascade == 1).then_some(swap);
            let what = if cascade == 1 {
                "lines".to_string()
            } else {
                format!("cascade {cascade}")
            };
            let caption = show::move_caption(n, total, &format!("{swap} ({what})"));
            frames.push(Frame {
                board: picture(grid, Some(&going), swapped),
                step: n as u32,
                caption: vec![caption],
                millis: CASCADE_MILLIS,
            });
        }
        Seen::Swapped { n, swap, grid } => {
            cascade = 0;
            let left = grid.gem_count();
            frames.push(Frame {
                board: picture(grid, None, None),
                step: n as u32,
                caption: vec![show::move_caption(
                    n,
                    total,
                    &format!("{swap}: {left} gems left"),
                )],
                millis: show::MOVE_MILLIS,
            });
        }
    })
    .map(Verdict::moves);
    show::hold_last(&mut frames);
    Replay {
        frames,
        verdict: Some(verdict),
    }
}

fn start(grid: &Grid, total: usize) -> Frame {
    Frame {
        board: picture(grid, None, None),
        step: 0,
        caption: vec![show::move_caption(0, total, "")],
        millis: show::START_MILLIS,
    }
}

/// The board, with the cells about to go ringed and the two swapped cells outlined.
fn picture(grid: &Grid, going: Option<&Marks>, swapped: Option<Swap>) -> Board {
    let mut board = Board::new(SIDE, SIDE);
    let swapped_cells: Vec<(usize, usize)> = swapped
        .map(|s| {
            let (tr, tc) = s.target();
            vec![(s.row as usize, s.col as usize), (tr as usize, tc as usize)]
        })
        .unwrap_or_default();
    for row in 0..SIDE {
        for col in 0..SIDE {
            let tile = grid.cells[row][col];
            let mut cell = Cell::ground(BOARD).glyph(".");
            if tile.is_gem() {
                let (colour, label) = look(tile);
                cell = cell
                    .token(Shape::Disc, colour)
                    .text(label)
                    .glyph(tile.to_char().to_string());
            }
            if going.is_some_and(|g| g[row][col]) {
                cell = cell
                    .outline(Rgb::WHITE)
                    .glyph(format!("{}*", tile.to_char()));
            }
            board.set(
                row,
                col,
                cell.highlight(swapped_cells.contains(&(row, col))),
            );
        }
    }
    board
}

/// A gem's colour and the SVG's text on it.
fn look(tile: Tile) -> (Rgb, &'static str) {
    match tile {
        Tile::Yellow => (Rgb(241, 196, 15), ""),
        Tile::Blue => (Rgb(52, 152, 219), ""),
        Tile::Green => (Rgb(46, 204, 113), ""),
        Tile::Red => (Rgb(231, 76, 60), ""),
        Tile::Purple => (Rgb(155, 89, 182), ""),
        Tile::Coin => (Rgb(212, 160, 23), "$"),
        Tile::Skull => (Rgb(236, 240, 241), "☠"),
        Tile::FlamingSkull => (Rgb(230, 126, 34), "☠"),
        Tile::Empty => (BOARD, ""),
    }
}
