//! The rules of a capture board (spec §2) on a plain 8×8 grid of tiles: the reference simulator.
//!
//! This is the single source of truth for what a swap does. `check` replays solutions with it
//! alone, and the packed bitboard simulator of [`super::board`] is tested against it state by
//! state. It is written for clarity, not speed: one array of tiles, each rule one small step.

use std::fmt;

/// The side of the board.
pub const SIDE: usize = 8;

/// What one cell holds (spec B4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    Empty,
    Yellow,
    Blue,
    Green,
    Red,
    Purple,
    Coin,
    Skull,
    /// The +5 ("flaming") skull: a skull for lines, and it explodes when removed (R4).
    FlamingSkull,
}

impl Tile {
    /// Every tile, in the order of [`Tile::CHARS`].
    pub const ALL: [Tile; 9] = [
        Tile::Yellow,
        Tile::Blue,
        Tile::Green,
        Tile::Red,
        Tile::Purple,
        Tile::Coin,
        Tile::Skull,
        Tile::FlamingSkull,
        Tile::Empty,
    ];
    /// The file characters of [`Tile::ALL`].
    pub const CHARS: &'static str = "ybgrpcsS_";

    pub fn from_char(c: char) -> Option<Tile> {
        Tile::CHARS
            .chars()
            .position(|x| x == c)
            .map(|i| Tile::ALL[i])
    }

    pub fn to_char(self) -> char {
        let i = Tile::ALL.iter().position(|&t| t == self).unwrap_or(8);
        Tile::CHARS.as_bytes()[i] as char
    }

    pub fn is_gem(self) -> bool {
        self != Tile::Empty
    }

    /// The kind that decides lines: the two skulls are one kind; an empty cell has none.
    pub fn line_kind(self) -> Option<Tile> {
        match self {
            Tile::Empty => None,
            Tile::FlamingSkull => Some(Tile::Skull),
            gem => Some(gem),
        }
    }
}

/// A swap direction is where the named gem moves (spec §3).
pub use crate::games::dir::Dir;

/// One swap as written: the gem at (row, col) moves one cell toward `dir`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Swap {
    pub row: i32,
    pub col: i32,
    pub dir: Dir,
}

impl Swap {
    /// The cell the gem moves to.
    pub fn target(self) -> (i32, i32) {
        let (dr, dc) = self.dir.delta();
        (self.row + dr, self.col + dc)
    }
}

impl fmt::Display for Swap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{}", self.row, self.col, self.dir.letter())
    }
}

/// Why a swap cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwapError {
    /// (row, col) or the cell it moves to is outside the board.
    OffBoard((i32, i32)),
    /// (row, col) is empty.
    NoGem,
    /// No line contains a swapped cell that holds a gem (R2).
    NoLine,
}

impl fmt::Display for SwapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwapError::OffBoard((r, c)) => write!(f, "{r},{c} is off the board"),
            SwapError::NoGem => f.write_str("no gem there"),
            SwapError::NoLine => {
                f.write_str("illegal swap: it makes no line of 3 with a moved gem")
            }
        }
    }
}

/// A board: `cells[row][col]`, row 0 at the top; gravity pulls toward row 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    pub cells: [[Tile; SIDE]; SIDE],
}

/// A set of cells, `[row][col]`.
pub type Marks = [[bool; SIDE]; SIDE];

impl Grid {
    pub const EMPTY: Grid = Grid {
        cells: [[Tile::Empty; SIDE]; SIDE],
    };

    /// A grid from rows of tile characters, top to bottom (test and error-message helper);
    /// `None` if a row is not 8 tile characters or there are more than 8 rows. Missing top rows
    /// are empty: the given rows are the bottom ones.
    pub fn from_rows(rows: &[&str]) -> Option<Grid> {
        if rows.len() > SIDE {
            return None;
        }
        let mut grid = Grid::EMPTY;
        let top = SIDE - rows.len();
        for (i, row) in rows.iter().enumerate() {
            if row.chars().count() != SIDE {
                return None;
            }
            for (c, ch) in row.chars().enumerate() {
                grid.cells[top + i][c] = Tile::from_char(ch)?;
            }
        }
        Some(grid)
    }

    pub fn get(&self, row: i32, col: i32) -> Option<Tile> {
        let on = (0..SIDE as i32).contains(&row) && (0..SIDE as i32).contains(&col);
        on.then(|| self.cells[row as usize][col as usize])
    }

    pub fn gem_count(&self) -> usize {
        self.cells.iter().flatten().filter(|t| t.is_gem()).count()
    }

    pub fn is_empty(&self) -> bool {
        self.gem_count() == 0
    }

    /// Every cell in a line: a run of 3 or more cells of one line kind, across or down (R3).
    pub fn lines(&self) -> Marks {
        let mut marks = [[false; SIDE]; SIDE];
        let kind = |r: usize, c: usize| self.cells[r][c].line_kind();
        for across in [true, false] {
            for outer in 0..SIDE {
                let at = |i: usize| if across { (outer, i) } else { (i, outer) };
                let mut start = 0;
                while start < SIDE {
                    let (r, c) = at(start);
                    let mut end = start + 1;
                    while end < SIDE && kind(r, c).is_some() && {
                        let (r2, c2) = at(end);
                        kind(r2, c2) == kind(r, c)
                    } {
                        end += 1;
                    }
                    if kind(r, c).is_some() && end - start >= 3 {
                        for i in start..end {
                            let (r2, c2) = at(i);
                            marks[r2][c2] = true;
                        }
                    }
                    start = end;
                }
            }
        }
        marks
    }

    /// Whether any line is on the board.
    pub fn has_line(&self) -> bool {
        self.lines().iter().flatten().any(|&m| m)
    }

    /// The first gem above an empty cell, as (row, col) of the gem and row of the hole.
    pub fn floating_gem(&self) -> Option<(usize, usize, usize)> {
        for c in 0..SIDE {
            for r in 0..SIDE {
                if !self.cells[r][c].is_gem() {
                    continue;
                }
                if let Some(hole) = (r + 1..SIDE).find(|&h| !self.cells[h][c].is_gem()) {
                    return Some((r, c, hole));
                }
            }
        }
        None
    }

    /// Makes one swap with its whole resolution (R1–R6).
    pub fn swap(&self, swap: Swap) -> Result<Grid, SwapError> {
        self.swap_with(swap, |_, _| {})
    }

    /// [`Grid::swap`], showing `each_step` every removal step (the swap's lines, then each
    /// cascade): the board and the cells in lines, before they are removed.
    pub fn swap_with(
        &self,
        swap: Swap,
        mut each_step: impl FnMut(&Grid, &Marks),
    ) -> Result<Grid, SwapError> {
        let (r, c) = (swap.row, swap.col);
        let (tr, tc) = swap.target();
        let from = self.get(r, c).ok_or(SwapError::OffBoard((r, c)))?;
        self.get(tr, tc).ok_or(SwapError::OffBoard((tr, tc)))?;
        if !from.is_gem() {
            return Err(SwapError::NoGem);
        }
        let (r, c, tr, tc) = (r as usize, c as usize, tr as usize, tc as usize);
        let mut next = *self;
        next.cells[r][c] = self.cells[tr][tc];
        next.cells[tr][tc] = from;
        // R2: judged right after the exchange, before anything falls.
        let mut lines = next.lines();
        let moved_in_line = [(r, c), (tr, tc)]
            .iter()
            .any(|&(r, c)| lines[r][c] && next.cells[r][c].is_gem());
        if !moved_in_line {
            return Err(SwapError::NoLine);
        }
        // R3–R6: remove the lines with their blasts, let the gems fall, repeat while lines form.
        while lines.iter().flatten().any(|&m| m) {
            each_step(&next, &lines);
            let removed = next.with_blasts(lines);
            for (row, marks) in next.cells.iter_mut().zip(removed) {
                for (cell, marked) in row.iter_mut().zip(marks) {
                    if marked {
                        *cell = Tile::Empty;
                    }
                }
            }
            next.fall();
            lines = next.lines();
        }
        Ok(next)
    }

    /// The marked cells plus everything the marked flaming skulls blast, transitively (R4).
    pub fn with_blasts(&self, mut marks: Marks) -> Marks {
        let mut pending: Vec<(usize, usize)> = (0..SIDE)
            .flat_map(|r| (0..SIDE).map(move |c| (r, c)))
            .filter(|&(r, c)| marks[r][c] && self.cells[r][c] == Tile::FlamingSkull)
            .collect();
        while let Some((r, c)) = pending.pop() {
            for dr in -1..=1 {
                for dc in -1..=1 {
                    let (nr, nc) = (r as i32 + dr, c as i32 + dc);
                    let Some(tile) = self.get(nr, nc).filter(|t| t.is_gem()) else {
                        continue;
                    };
                    let (nr, nc) = (nr as usize, nc as usize);
                    if !marks[nr][nc] {
                        marks[nr][nc] = true;
                        if tile == Tile::FlamingSkull {
                            pending.push((nr, nc));
                        }
                    }
                }
            }
        }
        marks
    }

    /// Compacts every column downward, keeping the order of its gems (R5).
    fn fall(&mut self) {
        for c in 0..SIDE {
            let gems: Vec<Tile> = (0..SIDE)
                .rev()
                .map(|r| self.cells[r][c])
                .filter(|t| t.is_gem())
                .collect();
            for r in 0..SIDE {
                self.cells[SIDE - 1 - r][c] = gems.get(r).copied().unwrap_or(Tile::Empty);
            }
        }
    }
}

impl fmt::Display for Grid {
    /// The 8 rows, top to bottom, one per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, row) in self.cells.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            for tile in row {
                write!(f, "{}", tile.to_char())?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puzzle_quest::testing::{grid, swap};

    /// The board after a swap, and the number of removal steps it took.
    fn swap_counting_steps(board: &Grid, token: &str) -> Result<(Grid, u32), SwapError> {
        let mut steps = 0;
        board
            .swap_with(swap(token), |_, _| steps += 1)
            .map(|after| (after, steps))
    }

    // ---- Rules (spec §2) ------------------------------------------------------------------------

    #[test]
    fn a_line_of_five_is_removed_and_spawns_nothing() {
        let board = grid(&["__r_____", "rrbrr___"]);
        let (after, steps) = swap_counting_steps(&board, "6,2,D").unwrap();
        assert_eq!(after, grid(&["__b_____"]));
        assert_eq!(steps, 1);
    }

    #[test]
    fn an_l_shaped_double_line_is_removed_as_one_union() {
        // Moving the red into the corner completes row 7 (cols 2-4) and column 2 (rows 5-7).
        let board = grid(&["__r_____", "__r_____", "_rbrr___"]);
        let (after, steps) = swap_counting_steps(&board, "7,1,R").unwrap();
        assert_eq!(after, grid(&["_b______"]));
        assert_eq!(steps, 1);
    }

    #[test]
    fn flaming_skull_blasts_chain() {
        // Spec §4: the line ssSs fires the S at (7,2), whose blast fires the S at (6,3), whose
        // blast alone reaches the y at (7,4).
        let board = grid(&["_gSS____", "ssbsy___"]);
        let marks = {
            let mut swapped = board;
            swapped.cells[6][2] = Tile::Blue;
            swapped.cells[7][2] = Tile::FlamingSkull;
            swapped.with_blasts(swapped.lines())
        };
        assert!(marks[7][4], "the second blast reaches (7,4)");
        assert_eq!(board.swap(swap("7,2,U")).unwrap(), Grid::EMPTY);
        assert_eq!(board.swap(swap("6,2,D")).unwrap(), Grid::EMPTY);
    }

    #[test]
    fn a_cascade_of_three_levels() {
        // r r r across row 3, then g g g falls together in column 0, then b b b.
        let board = grid(&[
            "b_______", "g_______", "rrcr____", "gpyp____", "gypy____", "bpyp____", "bypy____",
        ]);
        let (after, steps) = swap_counting_steps(&board, "3,3,L").unwrap();
        assert_eq!(steps, 3);
        assert_eq!(
            after,
            grid(&["___c____", "_pyp____", "_ypy____", "_pyp____", "_ypy____"])
        );
    }

    #[test]
    fn a_swap_that_makes_no_line_is_illegal_and_changes_nothing() {
        let board = grid(&["__g_____", "rrbyr___"]);
        assert_eq!(board.swap(swap("6,2,D")), Err(SwapError::NoLine));
        // Two gems of one kind, the two skulls included, never make a legal swap.
        let skulls = grid(&["_s______", "sSb_____"]);
        assert_eq!(skulls.swap(swap("7,0,R")), Err(SwapError::NoLine));
    }

    #[test]
    fn a_swap_that_makes_a_line_only_after_the_gem_falls_is_illegal() {
        // The r moved over the hole at (7,2) is alone in row 6 where it lands; it would complete
        // `rrr` in row 7 only after falling.
        let board = grid(&["___r____", "rr_y____"]);
        assert_eq!(board.swap(swap("6,3,L")), Err(SwapError::NoLine));
    }

    // ---- Spec §4 small cases --------------------------------------------------------------------

    #[test]
    fn small_case_line_in_mid_air() {
        let board = grid(&["r_r_____", "grg_____"]);
        assert_eq!(board.swap(swap("7,1,U")).unwrap(), grid(&["g_g_____"]));
    }

    #[test]
    fn small_case_moved_sideways_over_a_hole() {
        let board = grid(&["rr_r____", "gb_y____"]);
        assert_eq!(board.swap(swap("6,3,L")).unwrap(), grid(&["gb_y____"]));
    }

    #[test]
    fn small_case_skull_chain_clears_the_board() {
        let board = grid(&["_gSS____", "ssbsy___"]);
        assert!(board.swap(swap("7,2,U")).unwrap().is_empty());
    }

    #[test]
    fn small_case_line_of_five() {
        let board = grid(&["__r_____", "rrbrr___"]);
        assert_eq!(board.swap(swap("6,2,D")).unwrap(), grid(&["__b_____"]));
    }

    #[test]
    fn small_case_two_lines_then_a_cascade() {
        let board = grid(&["_rr_____", "_yrr____", "yryr____"]);
        let (after, steps) = swap_counting_steps(&board, "6,1,D").unwrap();
        assert!(after.is_empty());
        assert_eq!(steps, 2);
    }

    #[test]
    fn small_case_no_line() {
        let board = grid(&["__g_____", "rrbyr___"]);
        assert_eq!(board.swap(swap("6,2,D")), Err(SwapError::NoLine));
    }

    #[test]
    fn small_case_no_gem() {
        let board = grid(&["__g_____", "rrbyr___"]);
        assert_eq!(board.swap(swap("6,1,D")), Err(SwapError::NoGem));
    }

    #[test]
    fn small_case_off_the_board() {
        let board = grid(&["__g_____", "rrbyr___"]);
        assert_eq!(board.swap(swap("7,0,L")), Err(SwapError::OffBoard((7, -1))));
    }

    /// The board after the exchange of `swap` and gravity, nothing removed: what a rule judging
    /// lines after the moved gem falls would look at.
    fn exchanged_and_fallen(board: &Grid, swap: Swap) -> Grid {
        let (tr, tc) = swap.target();
        let mut moved = *board;
        moved.cells[tr as usize][tc as usize] = board.cells[swap.row as usize][swap.col as usize];
        moved.cells[swap.row as usize][swap.col as usize] = board.cells[tr as usize][tc as usize];
        let mut fallen = Grid::EMPTY;
        for col in 0..SIDE {
            let gems = (0..SIDE)
                .rev()
                .map(|r| moved.cells[r][col])
                .filter(|t| t.is_gem());
            for (i, gem) in gems.enumerate() {
                fallen.cells[SIDE - 1 - i][col] = gem;
            }
        }
        fallen
    }

    #[test]
    fn the_first_two_small_cases_are_illegal_under_the_rejected_variants() {
        for (rows, token) in [
            (&["r_r_____", "grg_____"][..], "7,1,U"),
            (&["rr_r____", "gb_y____"][..], "6,3,L"),
        ] {
            let board = grid(rows);
            let s = swap(token);
            let (tr, tc) = s.target();
            // Swaps into empty cells forbidden: the gem moves into an empty cell.
            assert_eq!(board.get(tr, tc), Some(Tile::Empty));
            // Lines judged after the fall: none.
            assert!(!exchanged_and_fallen(&board, s).has_line());
            assert!(board.swap(s).is_ok());
        }
    }
}
