//! The rules of sliding-block puzzles (spec §2): the puzzle model and the unit-step simulator.
//!
//! This is the single source of truth: `check` replays solutions with it, and the packed search
//! tables of [`super::space`] are built from [`Puzzle::is_board`] and block shapes alone.

/// A cell, or a translation between cells, in the cropped start grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub row: i32,
    pub col: i32,
}

impl Cell {
    pub const ZERO: Cell = Cell { row: 0, col: 0 };

    /// The neighbouring cell towards `dir`.
    pub fn step(self, dir: Dir) -> Cell {
        let (row, col) = dir.delta();
        self.plus(Cell { row, col })
    }

    pub fn plus(self, other: Cell) -> Cell {
        Cell {
            row: self.row + other.row,
            col: self.col + other.col,
        }
    }

    pub fn minus(self, other: Cell) -> Cell {
        Cell {
            row: self.row - other.row,
            col: self.col - other.col,
        }
    }
}

pub use crate::games::dir::Dir;

/// One block: its name, its cells in the start position, and for a goal block the translation
/// that puts it on its target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub name: char,
    /// Row-major cells in the start position.
    pub cells: Vec<Cell>,
    pub target: Option<Cell>,
}

impl Block {
    /// The cells relative to the first one: equal shapes have equal keys (blocks never rotate).
    pub fn shape(&self) -> Vec<Cell> {
        self.cells.iter().map(|c| c.minus(self.cells[0])).collect()
    }

    pub fn is_goal(&self) -> bool {
        self.target.is_some()
    }
}

/// A puzzle: the board (any shape) and its blocks, in order of first appearance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub width: usize,
    pub height: usize,
    /// Row-major: whether each cell of the cropped grid is on the board.
    pub board: Vec<bool>,
    pub blocks: Vec<Block>,
}

/// A position: the translation of every block from its start cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub offsets: Vec<Cell>,
}

impl Puzzle {
    pub fn is_board(&self, cell: Cell) -> bool {
        (0..self.height as i32).contains(&cell.row)
            && (0..self.width as i32).contains(&cell.col)
            && self.board[cell.row as usize * self.width + cell.col as usize]
    }

    pub fn start(&self) -> Position {
        Position {
            offsets: vec![Cell::ZERO; self.blocks.len()],
        }
    }

    /// Every goal block on its target (spec R4).
    pub fn is_solved(&self, position: &Position) -> bool {
        self.blocks
            .iter()
            .zip(&position.offsets)
            .all(|(b, &o)| b.target.is_none_or(|t| t == o))
    }

    /// Whether `block` can take one unit step in `dir`: every cell it would cover is on the
    /// board and not covered by another block (spec R2).
    pub fn can_step(&self, position: &Position, block: usize, dir: Dir) -> bool {
        let offset = position.offsets[block].step(dir);
        self.blocks[block].cells.iter().all(|&c| {
            let to = c.plus(offset);
            self.is_board(to) && self.owner(position, to, Some(block)).is_none()
        })
    }

    /// The block covering `cell`, ignoring `except`.
    pub fn owner(&self, position: &Position, cell: Cell, except: Option<usize>) -> Option<usize> {
        (0..self.blocks.len())
            .filter(|&b| Some(b) != except)
            .find(|&b| {
                let o = position.offsets[b];
                self.blocks[b].cells.iter().any(|&c| c.plus(o) == cell)
            })
    }

    pub fn block_named(&self, name: char) -> Option<usize> {
        self.blocks.iter().position(|b| b.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::sliding_blocks::level::parse_puzzle;

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
}
