//! Pictures of a sliding-block puzzle (`frontier show`): the board, every block in a colour of
//! its own with its name, the goal blocks in warm colours and their targets outlined, and the
//! block a move moved outlined. The frames are the positions [`notation::replay_seen`] passes
//! through, the replay `check` makes.

use super::notation::{self, Moved};
use super::rules::{Cell as At, Position, Puzzle};
use crate::games::{Replay, packed};
use crate::show::{self, Board, Cell, Frame, Rgb, Shape};

const FLOOR: Rgb = Rgb(233, 226, 210);
/// Goal blocks (warm) and free blocks (cool and muted), by order of appearance.
const GOAL: [Rgb; 4] = [
    Rgb(214, 69, 65),
    Rgb(230, 126, 34),
    Rgb(192, 57, 143),
    Rgb(241, 196, 15),
];
const FREE: [Rgb; 8] = [
    Rgb(52, 101, 164),
    Rgb(78, 154, 6),
    Rgb(117, 80, 123),
    Rgb(46, 134, 171),
    Rgb(143, 89, 2),
    Rgb(96, 125, 139),
    Rgb(22, 160, 133),
    Rgb(85, 87, 83),
];

/// The start, and with a solution the position after every move.
pub fn replay(puzzle: &Puzzle, solution: Option<&str>) -> Replay {
    packed::draw::replay(
        &puzzle.start(),
        solution,
        |solution, seen| notation::replay_seen(puzzle, solution, seen),
        |position, moved, n, of| frame(puzzle, position, moved, n, of),
    )
}

fn colour(puzzle: &Puzzle, block: usize) -> Rgb {
    let before = puzzle.blocks[..block]
        .iter()
        .filter(|b| b.is_goal() == puzzle.blocks[block].is_goal())
        .count();
    if puzzle.blocks[block].is_goal() {
        GOAL[before % GOAL.len()]
    } else {
        FREE[before % FREE.len()]
    }
}

fn frame(puzzle: &Puzzle, position: &Position, moved: Option<Moved>, n: usize, of: usize) -> Frame {
    let mut board = Board::new(puzzle.width, puzzle.height);
    for row in 0..puzzle.height {
        for col in 0..puzzle.width {
            let at = At {
                row: row as i32,
                col: col as i32,
            };
            if puzzle.is_board(at) {
                board.set(row, col, Cell::ground(FLOOR).glyph("."));
            }
        }
    }
    // Targets first, so that a block on its target keeps the outline.
    for (b, block) in puzzle.blocks.iter().enumerate() {
        if let Some(target) = block.target {
            for c in &block.cells {
                let to = c.plus(target);
                let cell = board.at(to.row as usize, to.col as usize).clone();
                board.set(
                    to.row as usize,
                    to.col as usize,
                    cell.outline(colour(puzzle, b)).glyph(":"),
                );
            }
        }
    }
    for (b, block) in puzzle.blocks.iter().enumerate() {
        let offset = position.offsets[b];
        for c in &block.cells {
            let to = c.plus(offset);
            let (row, col) = (to.row as usize, to.col as usize);
            let cell = board
                .at(row, col)
                .clone()
                .token(Shape::Square, colour(puzzle, b))
                .text(block.name.to_string())
                .group(b as u32)
                .highlight(moved.as_ref().is_some_and(|m| m.block == b));
            board.set(row, col, cell);
        }
    }
    let notation = moved.as_ref().map_or("", |m| m.token);
    Frame {
        board,
        step: n as u32,
        caption: vec![show::move_caption(n, of, notation)],
        millis: show::frame_millis(n),
    }
}
