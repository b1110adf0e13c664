//! The rules of one move (spec §2.1): the board's precomputed tables and the position a move
//! changes. This is the single source of truth for moves; the interpreter ([`super::program`]),
//! the route searches and the program search all move Bender through [`Board::step`].
//!
//! Cells are row-major indices `y * width + x` (`u16`). The balls are a bit set over those
//! cells, hand-packed into words rather than a `bitvec::BitVec`: the program search runs this
//! move hundreds of millions of times and needs a plain load, test and xor per ball check.

use super::level::{Map, Xy};

/// Move characters in the referee's direction order (U, D, R, L).
pub const DIRECTIONS: [u8; 4] = *b"UDRL";

/// The direction index of a move character.
#[inline]
pub fn direction(c: u8) -> Option<usize> {
    match c {
        b'U' => Some(0),
        b'D' => Some(1),
        b'R' => Some(2),
        b'L' => Some(3),
        _ => None,
    }
}

/// The opposite direction index.
pub const fn opposite(dir: usize) -> usize {
    dir ^ 1
}

/// A set of cells as bits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CellSet(Vec<u64>);

impl CellSet {
    pub fn new(cells: usize) -> Self {
        CellSet(vec![0; cells.div_ceil(64)])
    }
    #[inline]
    pub fn contains(&self, cell: u16) -> bool {
        self.0[cell as usize >> 6] >> (cell & 63) & 1 != 0
    }
    #[inline]
    pub fn insert(&mut self, cell: u16) {
        self.0[cell as usize >> 6] |= 1 << (cell & 63);
    }
    #[inline]
    pub fn remove(&mut self, cell: u16) {
        self.0[cell as usize >> 6] &= !(1 << (cell & 63));
    }
    /// The words of the set (for snapshots).
    pub fn words(&self) -> &[u64] {
        &self.0
    }
    pub fn words_mut(&mut self) -> &mut [u64] {
        &mut self.0
    }
    /// The cells in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some((w * 64 + b) as u16)
            })
        })
    }
}

/// The balls, in whatever representation a user of [`Board::step_parts`] keeps them.
pub trait Balls {
    /// Whether a ball lies on `cell`.
    fn has(&self, cell: u16) -> bool;
    /// Moves the ball on `from` to the free cell `to`.
    fn roll(&mut self, from: u16, to: u16);
}

impl Balls for CellSet {
    #[inline]
    fn has(&self, cell: u16) -> bool {
        self.contains(cell)
    }
    #[inline]
    fn roll(&mut self, from: u16, to: u16) {
        self.remove(from);
        self.insert(to);
    }
}

/// Where things are after some moves: Bender, the active fields and the balls.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pos {
    pub cell: u16,
    /// Bit i set: the field of switch i is active.
    pub mask: u32,
    pub balls: CellSet,
}

/// What one move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A wall or an unpushable ball: nothing happened (M1, M2).
    Blocked,
    /// Bender moved to a free cell.
    Walked,
    /// Bender moved and pushed the ball ahead of him onto cell `to`.
    Pushed { to: u16 },
}

/// A map turned into lookup tables.
#[derive(Clone, Debug)]
pub struct Board {
    pub width: usize,
    pub height: usize,
    wall: Vec<bool>,
    /// Per cell, the neighbour in each direction (U, D, R, L). Border cells, which are walls
    /// and never entered, point at themselves.
    next: Vec<[u16; 4]>,
    /// Per cell, the mask bit that entering it toggles (0: not a switch cell).
    toggle: Vec<u32>,
    /// Per cell, the mask bit of the field on it (0: not a field cell).
    field: Vec<u32>,
    pub start: u16,
    pub target: u16,
    pub switches: usize,
    initial_mask: u32,
    initial_balls: CellSet,
}

impl Board {
    pub fn new(map: &Map) -> Board {
        let (w, h) = (map.width, map.height);
        let index = |p: Xy| (p.y * w + p.x) as u16;
        let cells = w * h;
        let mut next = vec![[0u16; 4]; cells];
        for (i, n) in next.iter_mut().enumerate() {
            let (x, y) = (i % w, i / w);
            let border = x == 0 || y == 0 || x == w - 1 || y == h - 1;
            *n = if border {
                [i as u16; 4]
            } else {
                [i - w, i + w, i + 1, i - 1].map(|c| c as u16)
            };
        }
        let mut toggle = vec![0; cells];
        let mut field = vec![0; cells];
        let mut initial_mask = 0;
        for (i, s) in map.switches.iter().enumerate() {
            toggle[index(s.at) as usize] = 1 << i;
            field[index(s.field) as usize] = 1 << i;
            initial_mask |= u32::from(s.active) << i;
        }
        let mut initial_balls = CellSet::new(cells);
        for (i, &c) in map.grid.iter().enumerate() {
            if c == b'+' {
                initial_balls.insert(i as u16);
            }
        }
        Board {
            width: w,
            height: h,
            wall: map.grid.iter().map(|&c| c == b'#').collect(),
            next,
            toggle,
            field,
            start: index(map.start),
            target: index(map.target),
            switches: map.switches.len(),
            initial_mask,
            initial_balls,
        }
    }

    pub fn cells(&self) -> usize {
        self.wall.len()
    }

    /// `x,y` of a cell, for messages.
    pub fn xy(&self, cell: u16) -> Xy {
        Xy {
            x: cell as usize % self.width,
            y: cell as usize / self.width,
        }
    }

    #[inline]
    pub fn is_wall(&self, cell: u16) -> bool {
        self.wall[cell as usize]
    }

    #[inline]
    pub fn neighbour(&self, cell: u16, dir: usize) -> u16 {
        self.next[cell as usize][dir]
    }

    /// The mask bit toggled by entering `cell` (0 if it is not a switch cell).
    #[inline]
    pub fn toggle(&self, cell: u16) -> u32 {
        self.toggle[cell as usize]
    }

    /// The mask bit of the field on `cell` (0 if it is not a field cell).
    #[inline]
    pub fn field(&self, cell: u16) -> u32 {
        self.field[cell as usize]
    }

    pub fn initial_balls(&self) -> &CellSet {
        &self.initial_balls
    }

    pub fn initial_mask(&self) -> u32 {
        self.initial_mask
    }

    /// The position before the first move.
    pub fn start_pos(&self) -> Pos {
        Pos {
            cell: self.start,
            mask: self.initial_mask,
            balls: self.initial_balls.clone(),
        }
    }

    /// Resets `pos` to the start without allocating.
    pub fn reset(&self, pos: &mut Pos) {
        pos.cell = self.start;
        pos.mask = self.initial_mask;
        pos.balls.0.copy_from_slice(&self.initial_balls.0);
    }

    /// One move in direction `dir` (M1–M4). Whether Bender survives it is [`Board::is_deadly`]
    /// and [`Board::squashes_fry`] (M5, M6).
    #[inline(always)]
    pub fn step(&self, pos: &mut Pos, dir: usize) -> Effect {
        self.step_parts(&mut pos.cell, &mut pos.mask, &mut pos.balls, dir)
    }

    /// [`Board::step`] on a position held in parts, with any representation of the balls.
    #[inline(always)]
    pub fn step_parts<B: Balls>(
        &self,
        cell: &mut u16,
        mask: &mut u32,
        balls: &mut B,
        dir: usize,
    ) -> Effect {
        let n = self.neighbour(*cell, dir);
        if self.is_wall(n) {
            return Effect::Blocked;
        }
        if balls.has(n) {
            let to = self.neighbour(n, dir);
            if self.is_wall(to) || balls.has(to) {
                return Effect::Blocked;
            }
            // M3: Bender enters n (a toggle if it is a switch), then the ball lands on `to`.
            *mask ^= self.toggle(n) ^ self.toggle(to);
            balls.roll(n, to);
            *cell = n;
            return Effect::Pushed { to };
        }
        *mask ^= self.toggle(n);
        *cell = n;
        Effect::Walked
    }

    /// Whether Bender stands on an active field (M5).
    #[inline]
    pub fn is_deadly(&self, pos: &Pos) -> bool {
        self.is_deadly_at(pos.cell, pos.mask)
    }

    /// Whether `cell` is a field that `mask` makes active.
    #[inline]
    pub fn is_deadly_at(&self, cell: u16, mask: u32) -> bool {
        mask & self.field(cell) != 0
    }

    /// Whether the move's effect put a ball on Fry (M6).
    #[inline]
    pub fn squashes_fry(&self, effect: Effect) -> bool {
        effect == Effect::Pushed { to: self.target }
    }
}

#[cfg(test)]
mod tests {
    use crate::games::bender4::notation::loss;
    use crate::games::bender4::program::Loss;
    use crate::games::bender4::testing::{INTRO2, INTRO3, INTRO5, MAP_A, level, lost, steps};

    #[test]
    fn entering_an_active_field_loses() {
        assert_eq!(lost(INTRO2, "RRRRR"), (4, Loss::Field(7 + 3 * 10)));
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
    fn entering_a_field_while_pushing_its_ball_onto_its_switch_survives() {
        assert_eq!(steps(MAP_A, "RRDR"), Ok(4));
        let elsewhere = MAP_A.replace("4 1 3 1 1", "6 2 3 1 1");
        let board = level(&elsewhere).board;
        assert_eq!(loss(&board, "RRDR"), Some((2, Loss::Field(3 + 8))));
    }
}
