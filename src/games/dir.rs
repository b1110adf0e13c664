//! The four grid directions and their letters, shared by the games whose notation writes moves
//! as `U D L R` (sliding blocks, Puzzle Quest, Ice Tower).

use std::fmt;

/// A direction on a grid of rows (down is +1) and columns (right is +1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    /// In the writers' order U, D, L, R, which is also [`Dir::index`] order.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// (row, column) change of one step.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
        }
    }

    /// An arrow pointing this way on a grid drawn rows down.
    pub fn arrow(self) -> &'static str {
        ["↑", "↓", "←", "→"][self.index()]
    }

    pub fn letter(self) -> char {
        ['U', 'D', 'L', 'R'][self.index()]
    }

    pub fn from_letter(c: char) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.letter() == c)
    }

    /// Position in [`Dir::ALL`], for per-direction tables.
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}
