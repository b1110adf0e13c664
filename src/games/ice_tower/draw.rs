//! Pictures of an Ice Tower level (`frontier show`): walls, the floor the magician can walk to
//! (lighter), ice, golden ice, burning and put-out fires, recyclers, arrows and the magician;
//! after every push the block outlined where it ended (or where a fire or a recycler took it)
//! and its cell before the push dashed. The frames are the positions
//! [`notation::replay_seen`] passes through, the replay `check` makes.

use super::level::Puzzle;
use super::notation::{self, Push};
use super::rules::{Ice, Position, SlideEnd, Tile};
use crate::games::{Replay, packed};
use crate::show::{self, Board, Cell, Frame, Rgb, Shape};

const WALL: Rgb = Rgb(52, 73, 94);
const FLOOR: Rgb = Rgb(214, 219, 223);
const WALKABLE: Rgb = Rgb(240, 243, 246);
const RECYCLER: Rgb = Rgb(127, 140, 141);
const ICE: Rgb = Rgb(133, 193, 233);
const GOLDEN: Rgb = Rgb(241, 196, 15);
const FIRE: Rgb = Rgb(235, 87, 33);
const ASH: Rgb = Rgb(160, 150, 140);
const MAGICIAN: Rgb = Rgb(142, 68, 173);

/// The start, and with a solution the position after every push.
pub fn replay(puzzle: &Puzzle, solution: Option<&str>) -> Replay {
    packed::draw::replay(
        &puzzle.start,
        solution,
        |solution, seen| notation::replay_seen(puzzle, solution, seen),
        |position, push, n, of| frame(puzzle, position, push, n, of),
    )
}

fn frame(
    puzzle: &Puzzle,
    position: &Position,
    push: Option<(Push, SlideEnd)>,
    n: usize,
    of: usize,
) -> Frame {
    let grid = &puzzle.grid;
    let walkable = grid.reachable(position);
    let mut board = Board::new(grid.width, grid.height);
    for cell in 0..grid.tiles.len() {
        let mut drawn = match grid.tiles[cell] {
            Tile::Wall => Cell::ground(WALL).glyph("#"),
            Tile::Recycler => Cell::ground(RECYCLER).text("♻").glyph("-"),
            tile => {
                let floor = Cell::ground(if walkable[cell] { WALKABLE } else { FLOOR });
                match tile {
                    Tile::Fire if position.burning[cell] => {
                        floor.token(Shape::Diamond, FIRE).glyph("*")
                    }
                    Tile::Fire => floor.text("·").ink(ASH),
                    Tile::Arrow(d) => floor.text(d.arrow()).ink(WALL),
                    _ => floor.glyph("."),
                }
            }
        };
        match position.ice[cell] {
            Some(Ice::Regular) => drawn = drawn.token(Shape::Square, ICE).text("").glyph("%"),
            Some(Ice::Golden) => drawn = drawn.token(Shape::Square, GOLDEN).text("").glyph("$"),
            None => {}
        }
        if cell == position.magician {
            drawn = drawn.token(Shape::Disc, MAGICIAN).text("@");
        }
        if let Some((push, end)) = push {
            if grid.cell(push.row, push.col) == cell {
                drawn = drawn.outline(MAGICIAN);
            }
            let (SlideEnd::Rests(at) | SlideEnd::Destroyed(at)) = end;
            drawn = drawn.highlight(at == cell);
        }
        let (row, col) = grid.row_col(cell);
        board.set(row, col, drawn);
    }
    let fires = position.burning.iter().filter(|&&b| b).count();
    let notation = match push {
        Some((push, SlideEnd::Rests(_))) => push.to_string(),
        Some((push, SlideEnd::Destroyed(at))) => {
            let (r, c) = grid.row_col(at);
            let by = if grid.tiles[at] == Tile::Recycler {
                "recycled"
            } else {
                "melted"
            };
            format!("{push} ({by} at {r},{c})")
        }
        None => String::new(),
    };
    Frame {
        board,
        step: n as u32,
        caption: vec![
            show::move_caption(n, of, &notation),
            show::line(format!("fires burning: {fires}")),
        ],
        millis: show::frame_millis(n),
    }
}
