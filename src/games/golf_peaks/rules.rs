//! The simulator of spec §2: one play of a card, step by step. It is the single source of truth
//! for the search ([`super::space`]) and the checker ([`super::notation`]).
//!
//! A [`Board`] holds the tiles with precomputed tables (what a roll does on each cell in each
//! direction, warp partners, coordinates), so a roll step is one table lookup. [`Board::play`]
//! resolves PLAY (§2.3) with ROLL (§2.4), JUMP (§2.5) and SLIDE (§2.6) on a [`Position`] and
//! allocates nothing (the slide memory is a small inline set).

use std::hash::{Hash, Hasher};

/// A cell of the grid, row-major (`y * width + x`). Grids have at most [`MAX_CELLS`] cells.
pub type Cell = u16;

/// The most cells a grid may have: a cell index fits a `u16`, with one value left for [`NO_CELL`].
pub const MAX_CELLS: usize = u16::MAX as usize;

/// "No cell": off the grid or a cell without a tile in the neighbour table.
pub const NO_CELL: Cell = Cell::MAX;

/// A direction of the file grid (§1.2). The discriminants make `opposite` an xor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    Up = 0,
    Right = 1,
    Down = 2,
    Left = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];

    pub fn from_index(index: usize) -> Dir {
        Dir::ALL[index & 3]
    }

    #[inline]
    pub fn opposite(self) -> Dir {
        Dir::from_index(self as usize ^ 2)
    }

    /// Neither equal nor opposite.
    #[inline]
    pub fn is_perpendicular(self, other: Dir) -> bool {
        (self as u8 ^ other as u8) & 1 == 1
    }

    /// (dx, dy) of one step.
    pub fn delta(self) -> (i64, i64) {
        match self {
            Dir::Up => (0, -1),
            Dir::Right => (1, 0),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
        }
    }

    /// The on-screen arrow of the notation (§1.2).
    pub fn arrow(self) -> char {
        match self {
            Dir::Up => '↗',
            Dir::Right => '↘',
            Dir::Down => '↙',
            Dir::Left => '↖',
        }
    }

    pub fn from_arrow(arrow: char) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.arrow() == arrow)
    }
}

/// The corner of an angle (bumper); its two closed sides are the sides it names (§1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    TopLeft,
    TopRight,
    BottomLeft,
    BottomRight,
}

impl Corner {
    /// The direction a ball on the angle leaves in when about to roll in `dir`, if it reflects.
    #[inline]
    pub fn reflect(self, dir: Dir) -> Option<Dir> {
        use Dir::*;
        match (self, dir) {
            (Corner::TopLeft, Up) => Some(Right),
            (Corner::TopLeft, Left) => Some(Down),
            (Corner::TopRight, Up) => Some(Left),
            (Corner::TopRight, Right) => Some(Down),
            (Corner::BottomLeft, Down) => Some(Right),
            (Corner::BottomLeft, Left) => Some(Up),
            (Corner::BottomRight, Down) => Some(Left),
            (Corner::BottomRight, Right) => Some(Up),
            _ => None,
        }
    }

    /// Whether a ball moving in `dir` enters the angle's cell through a closed side.
    #[inline]
    pub fn closed_to(self, dir: Dir) -> bool {
        use Dir::*;
        matches!(
            (self, dir),
            (Corner::TopLeft | Corner::TopRight, Down)
                | (Corner::BottomLeft | Corner::BottomRight, Up)
                | (Corner::TopLeft | Corner::BottomLeft, Right)
                | (Corner::TopRight | Corner::BottomRight, Left)
        )
    }
}

/// What a tile is (§2.1); its height lives in [`Tile`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// No tile: a hole (`x`) or a cell missing from a short row.
    Void,
    /// Plain ground; the flag and start cells are plain.
    Plain,
    /// A slope with its downhill direction.
    Slope(Dir),
    Angle(Corner),
    IceAngle(Corner),
    Ice,
    Sand,
    Quicksand,
    Water,
    Spring,
    /// A warp with its pair index.
    Warp(u32),
    /// A belt with the direction it pushes.
    Belt(Dir),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    pub height: u32,
    pub kind: Kind,
}

impl Tile {
    pub const VOID: Tile = Tile {
        height: 0,
        kind: Kind::Void,
    };

    /// ROLL records these as `last_safe` (R1).
    #[inline]
    fn is_roll_safe(self) -> bool {
        matches!(
            self.kind,
            Kind::Plain | Kind::Angle(_) | Kind::Sand | Kind::Spring | Kind::Ice
        )
    }

    /// JUMP records these as `last_safe` on take-off (J1).
    #[inline]
    fn is_jump_safe(self) -> bool {
        matches!(
            self.kind,
            Kind::Plain | Kind::Angle(_) | Kind::Sand | Kind::Spring
        )
    }

    #[inline]
    fn is_icy(self) -> bool {
        matches!(self.kind, Kind::Ice | Kind::IceAngle(_))
    }

    /// Whether SLIDE moves a ball resting here (S1, S2); elsewhere it does nothing (S3).
    #[inline]
    fn slides(self) -> bool {
        matches!(
            self.kind,
            Kind::Ice | Kind::IceAngle(_) | Kind::Slope(_) | Kind::Belt(_)
        )
    }
}

/// One step of a card: a roll of strength `n` or a jump of distance `n` (§1.1 F10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub jump: bool,
    pub n: u32,
}

/// What is kept between plays (§2.1), apart from the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub ball: Cell,
    pub last_safe: Cell,
    pub last_move: Dir,
}

impl Hash for Position {
    /// One word instead of three fields: positions are interned in a hash map per level.
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(
            self.ball as u64 | (self.last_safe as u64) << 16 | (self.last_move as u64) << 32,
        );
    }
}

/// Why a play has no successor (G1), where and in which direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Illegal {
    pub reason: Reason,
    pub at: Cell,
    pub dir: Dir,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A roll would enter a cell without a tile or leave the grid (R6).
    RollsOff,
    /// A jump of this distance would land on a cell without a tile or off the grid (J2).
    LandsOff(u32),
    /// A roll with strength left crosses a slope sideways (R3).
    AcrossSlope,
    /// SLIDE met a (cell, direction) pair it had already slid from (§2.6).
    SlideLoop,
    /// The ball comes to rest on quicksand (P4).
    Quicksand,
}

impl Illegal {
    /// A sentence for `check`, with the cell as `x,y`.
    pub fn describe(&self, board: &Board) -> String {
        let (x, y) = board.xy(self.at);
        let arrow = self.dir.arrow();
        match self.reason {
            Reason::RollsOff => format!("the ball rolls off the tiles from {x},{y} going {arrow}"),
            Reason::LandsOff(n) => {
                format!("a jump of {n} from {x},{y} going {arrow} lands off the tiles")
            }
            Reason::AcrossSlope => {
                format!("the ball rolls across the slope at {x},{y} going {arrow}")
            }
            Reason::SlideLoop => {
                format!("the ball slides in a loop (again from {x},{y} going {arrow})")
            }
            Reason::Quicksand => format!("the ball comes to rest on quicksand at {x},{y}"),
        }
    }
}

/// What ROLL does on a cell about to roll in a direction with strength left (R3–R11). It
/// depends only on the board, so [`Board::new`] tabulates it per (cell, direction) and a roll
/// is a walk through the table. Dynamic state (`last_safe`, `n`) is applied by [`Play::roll`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RollStep {
    /// R3: the ball is on a slope and rolls across it: the play fails.
    AcrossSlope,
    /// R4: sand keeps the ball; the remaining strength is lost.
    Sand,
    /// R5: the angle under the ball turns it into this direction; strength is kept.
    Reflect(Dir),
    /// R6: no tile ahead: the play fails.
    Off,
    /// R7, R10: step to the cell, one strength used.
    Step(Cell),
    /// R7: sideways onto a lower slope: step to the cell and the roll ends.
    StepAndStop(Cell),
    /// R8: onto a spring: step there; the rest of the strength is a jump.
    Spring(Cell),
    /// R10: a higher tile ahead: the ball reverses, one strength used.
    Bounce,
    /// R10 on a spring: a higher tile ahead: the rest is a jump back.
    SpringBounce,
    /// R11: water ahead: the ball goes back to `last_safe` and the roll ends.
    Water,
}

/// R3–R11 for a ball on `cell` about to roll in `dir` with strength left.
fn roll_step(tiles: &[Tile], neighbours: &[[Cell; 4]], cell: usize, dir: Dir) -> RollStep {
    let here = tiles[cell];
    // R3, with R4 and R5 (which apply to tiles that are not slopes).
    let e = match here.kind {
        Kind::Slope(s) if s == dir => here.height,
        Kind::Slope(s) if s == dir.opposite() => here.height + 1,
        Kind::Slope(_) => return RollStep::AcrossSlope,
        Kind::Sand => return RollStep::Sand,
        Kind::Angle(corner) | Kind::IceAngle(corner) => match corner.reflect(dir) {
            Some(reflected) => return RollStep::Reflect(reflected),
            None => here.height,
        },
        _ => here.height,
    };
    // R6
    let next = neighbours[cell][dir as usize];
    if next == NO_CELL {
        return RollStep::Off;
    }
    let there = tiles[next as usize];
    let u = match there.kind {
        // R7
        Kind::Slope(s) => {
            let along = s == dir || s == dir.opposite();
            if (there.height == e && s == dir)
                || (there.height == e + 1 && s == dir.opposite())
                || (there.height < e && along)
            {
                return RollStep::Step(next);
            }
            if there.height < e {
                return RollStep::StepAndStop(next);
            }
            there.height
        }
        // R8
        Kind::Spring if there.height <= e => return RollStep::Spring(next),
        // R9
        Kind::Angle(corner) | Kind::IceAngle(corner) if corner.closed_to(dir) => there.height + 1,
        // R11
        Kind::Water => return RollStep::Water,
        _ => there.height,
    };
    // R10
    match (u <= e, here.kind) {
        (true, _) => RollStep::Step(next),
        (false, Kind::Spring) => RollStep::SpringBounce,
        (false, _) => RollStep::Bounce,
    }
}

/// The grid with its precomputed tables.
#[derive(Clone, Debug)]
pub struct Board {
    pub width: usize,
    pub height: usize,
    tiles: Vec<Tile>,
    /// Per cell: (x, y).
    coordinates: Vec<(u16, u16)>,
    /// Per cell and direction: what ROLL does there (R3–R11).
    roll_steps: Vec<[RollStep; 4]>,
    /// Per cell: whether ROLL records it as `last_safe` (R1: roll-safe and not the flag).
    roll_records: Vec<bool>,
    /// Per warp cell, its partner (the other cell of its index); other cells map to themselves.
    warp_partner: Vec<Cell>,
    pub flag: Cell,
    pub start: Cell,
}

impl Board {
    /// Builds the tables. `tiles` is row-major with `width * height <= MAX_CELLS` entries; the
    /// flag, start and warp pairs were checked by the parser (F9).
    pub fn new(width: usize, height: usize, tiles: Vec<Tile>, flag: Cell, start: Cell) -> Board {
        debug_assert_eq!(tiles.len(), width * height);
        let coordinates: Vec<(u16, u16)> = (0..tiles.len())
            .map(|cell| ((cell % width) as u16, (cell / width) as u16))
            .collect();
        let neighbours: Vec<[Cell; 4]> = coordinates
            .iter()
            .map(|&(x, y)| {
                Dir::ALL.map(|d| {
                    let (dx, dy) = d.delta();
                    let (x, y) = (x as i64 + dx, y as i64 + dy);
                    let inside = (0..width as i64).contains(&x) && (0..height as i64).contains(&y);
                    let cell = (y * width as i64 + x) as usize;
                    if inside && tiles[cell].kind != Kind::Void {
                        cell as Cell
                    } else {
                        NO_CELL
                    }
                })
            })
            .collect();
        let roll_steps = (0..tiles.len())
            .map(|cell| Dir::ALL.map(|d| roll_step(&tiles, &neighbours, cell, d)))
            .collect();
        let roll_records = (0..tiles.len())
            .map(|cell| tiles[cell].is_roll_safe() && cell != flag as usize)
            .collect();
        let warp_partner = (0..tiles.len())
            .map(|cell| match tiles[cell].kind {
                Kind::Warp(k) => (0..tiles.len())
                    .find(|&other| other != cell && tiles[other].kind == Kind::Warp(k))
                    .unwrap_or(cell) as Cell,
                _ => cell as Cell,
            })
            .collect();
        Board {
            width,
            height,
            tiles,
            coordinates,
            roll_steps,
            roll_records,
            warp_partner,
            flag,
            start,
        }
    }

    /// The tile of a cell (void for cells without one).
    #[inline]
    pub fn tile(&self, cell: Cell) -> Tile {
        self.tiles[cell as usize]
    }

    /// The cell's (x, y).
    pub fn xy(&self, cell: Cell) -> (usize, usize) {
        let (x, y) = self.coordinates[cell as usize];
        (x as usize, y as usize)
    }

    /// The cell count of the grid (tiles and voids).
    pub fn cells(&self) -> usize {
        self.tiles.len()
    }

    /// The position before the first play (§2.1).
    pub fn start_position(&self) -> Position {
        Position {
            ball: self.start,
            last_safe: self.start,
            last_move: Dir::Up,
        }
    }

    /// `cell + n·dir` when that cell has a tile (J2).
    #[inline]
    fn jump_target(&self, cell: Cell, dir: Dir, n: u32) -> Option<Cell> {
        let (x, y) = self.coordinates[cell as usize];
        let (dx, dy) = dir.delta();
        let (x, y) = (x as i64 + dx * n as i64, y as i64 + dy * n as i64);
        if !(0..self.width as i64).contains(&x) || !(0..self.height as i64).contains(&y) {
            return None;
        }
        let target = (y as usize * self.width + x as usize) as Cell;
        (self.tile(target).kind != Kind::Void).then_some(target)
    }

    /// PLAY(card, d) of §2.3 from `position`: the position after the play, or why it is illegal.
    #[inline]
    pub fn play(&self, position: Position, steps: &[Step], dir: Dir) -> Result<Position, Illegal> {
        let mut play = Play {
            board: self,
            at: position,
        };
        play.run(steps, dir)?;
        Ok(play.at)
    }
}

/// One play in progress: the board and the position it changes.
struct Play<'a> {
    board: &'a Board,
    at: Position,
}

impl Play<'_> {
    /// P1–P5.
    #[inline]
    fn run(&mut self, steps: &[Step], mut dir: Dir) -> Result<(), Illegal> {
        let mut spring_mode = false;
        for step in steps {
            if step.jump || spring_mode {
                self.jump(dir, step.n)?;
            } else {
                self.roll(dir, step.n)?;
            }
            match self.board.tile(self.at.ball).kind {
                Kind::Slope(downhill) => dir = downhill,
                Kind::Water => {
                    self.at.ball = self.at.last_safe;
                    return Ok(());
                }
                Kind::Spring => spring_mode = true,
                Kind::Warp(_) => self.teleport(),
                _ => {}
            }
            if self.at.ball == self.board.flag {
                return Ok(());
            }
        }
        if self.board.tile(self.at.ball).slides() {
            self.slide()?;
        }
        if self.board.tile(self.at.ball).kind == Kind::Quicksand {
            return Err(self.illegal(Reason::Quicksand, dir));
        }
        Ok(())
    }

    #[cold]
    fn illegal(&self, reason: Reason, dir: Dir) -> Illegal {
        Illegal {
            reason,
            at: self.at.ball,
            dir,
        }
    }

    /// "Step to N".
    #[inline]
    fn step_to(&mut self, cell: Cell, dir: Dir) {
        self.at.ball = cell;
        self.at.last_move = dir;
    }

    #[inline]
    fn teleport(&mut self) {
        self.at.ball = self.board.warp_partner[self.at.ball as usize];
    }

    /// ROLL(dir, n) of §2.4, through the table of [`roll_step`].
    fn roll(&mut self, mut dir: Dir, mut n: u32) -> Result<(), Illegal> {
        let board = self.board;
        loop {
            let ball = self.at.ball;
            // R1
            if board.roll_records[ball as usize] {
                self.at.last_safe = ball;
            }
            // R2
            if n == 0 {
                return Ok(());
            }
            match board.roll_steps[ball as usize][dir as usize] {
                RollStep::AcrossSlope => return Err(self.illegal(Reason::AcrossSlope, dir)),
                RollStep::Sand => return Ok(()),
                RollStep::Reflect(reflected) => {
                    dir = reflected;
                    self.at.last_move = dir;
                }
                RollStep::Off => return Err(self.illegal(Reason::RollsOff, dir)),
                RollStep::Step(next) => {
                    self.step_to(next, dir);
                    n -= 1;
                }
                RollStep::StepAndStop(next) => {
                    self.step_to(next, dir);
                    return Ok(());
                }
                RollStep::Spring(next) => {
                    self.at.last_move = dir;
                    self.at.last_safe = ball;
                    self.at.ball = next;
                    return self.jump(dir, n - 1);
                }
                RollStep::Bounce => {
                    dir = dir.opposite();
                    self.at.last_move = dir;
                    n -= 1;
                }
                RollStep::SpringBounce => return self.jump(dir.opposite(), n - 1),
                RollStep::Water => {
                    self.at.ball = self.at.last_safe;
                    return Ok(());
                }
            }
        }
    }

    /// JUMP(dir, n) of §2.5.
    #[inline]
    fn jump(&mut self, dir: Dir, n: u32) -> Result<(), Illegal> {
        let ball = self.at.ball;
        if self.board.tile(ball).is_jump_safe() {
            self.at.last_safe = ball;
        }
        match self.board.jump_target(ball, dir, n) {
            Some(landing) => {
                self.step_to(landing, dir);
                Ok(())
            }
            None => Err(self.illegal(Reason::LandsOff(n), dir)),
        }
    }

    /// SLIDE of §2.6, with its slide memory M.
    fn slide(&mut self) -> Result<(), Illegal> {
        let mut memory = SlideMemory::default();
        let mut remember = |at: &Self, dir: Dir| match memory.insert(at.at.ball, dir) {
            true => Ok(()),
            false => Err(at.illegal(Reason::SlideLoop, dir)),
        };
        loop {
            // S1
            if self.board.tile(self.at.ball).is_icy() {
                while self.board.tile(self.at.ball).is_icy() {
                    remember(self, self.at.last_move)?;
                    let before = self.at.ball;
                    self.roll(self.at.last_move, 1)?;
                    if self.at.ball == before {
                        break;
                    }
                }
                if matches!(self.board.tile(self.at.ball).kind, Kind::Warp(_)) {
                    self.teleport();
                }
            }
            // S2
            let push = match self.board.tile(self.at.ball).kind {
                Kind::Slope(s) | Kind::Belt(s) => s,
                // S3
                _ => return Ok(()),
            };
            remember(self, push)?;
            self.roll(push, 1)?;
            if matches!(self.board.tile(self.at.ball).kind, Kind::Warp(_)) {
                self.teleport();
            }
        }
    }
}

/// The slide memory M: a set of (cell, direction) pairs, inline while small (slides are short)
/// so that a play allocates nothing; a long slide spills into a vector.
#[derive(Default)]
struct SlideMemory {
    inline: [u32; SlideMemory::INLINE],
    len: usize,
    spill: Vec<u32>,
}

impl SlideMemory {
    const INLINE: usize = 16;

    /// Adds the pair; false when it was already present.
    #[inline]
    fn insert(&mut self, cell: Cell, dir: Dir) -> bool {
        let key = (cell as u32) << 2 | dir as u32;
        if self.inline[..self.len].contains(&key) || self.spill.contains(&key) {
            return false;
        }
        if self.len < Self::INLINE {
            self.inline[self.len] = key;
            self.len += 1;
        } else {
            self.spill.push(key);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::games::Source;
    use crate::games::golf_peaks::Level;
    use crate::games::golf_peaks::level::parse_without_flag;
    use crate::games::golf_peaks::testing::{level, play_all, rest};

    /// A hand-made level of spec §2.7 as written there, where several have no flag.
    fn spec_level(text: &str) -> Level {
        let source = Source {
            path: Path::new("t.txt"),
            stem: "t",
            text,
        };
        parse_without_flag(&source).unwrap_or_else(|e| panic!("{e}"))
    }

    fn solved(level: &Level, plays: &str) -> bool {
        play_all(level, plays).is_ok_and(|p| p.ball == level.board.flag)
    }

    fn reason(level: &Level, plays: &str) -> Reason {
        play_all(level, plays).expect_err("an illegal play").reason
    }

    // §2.7, the table of hand-made levels, row by row.

    #[test]
    fn a_roll_crosses_the_flag_with_strength_left() {
        let l = level("4x1\n0,ball 0,flag 0 0\n\n2- 1-");
        assert_eq!(rest(&l, "2-↘"), (2, 0));
        assert!(!solved(&l, "2-↘"));
        assert_eq!(rest(&l, "1-↘"), (1, 0));
        assert!(solved(&l, "1-↘"));
    }

    #[test]
    fn sand_stops_a_roll_and_a_roll_from_sand_stays() {
        let l = level("4x1\n0,ball 0,sand 0 0,flag\n\n2- 1- 2/");
        assert_eq!(rest(&l, "2-↘"), (1, 0));
        assert_eq!(rest(&l, "2-↘ 1-↘"), (1, 0));
        assert!(solved(&l, "2-↘ 1-↘ 2/↘"));
    }

    #[test]
    fn a_higher_tile_bounces_the_ball_back() {
        let l = spec_level("3x1\n0,ball 0 1\n\n2- 3-");
        let p = play_all(&l, "2-↘").unwrap();
        assert_eq!(l.board.xy(p.ball), (1, 0));
        assert_eq!(p.last_move, Dir::Left);
        assert_eq!(rest(&l, "3-↘"), (0, 0));
    }

    #[test]
    fn water_returns_the_ball_to_last_safe() {
        let l = level("4x1\n0,ball 0 0,water 0,flag\n\n3- 3/ 2/");
        assert_eq!(rest(&l, "3-↘"), (1, 0));
        assert!(solved(&l, "3/↘"));
        assert_eq!(rest(&l, "2/↘"), (0, 0));
    }

    #[test]
    fn up_a_ramp_and_back_down_or_over_the_top() {
        let l = level("3x1\n0,ball 1,left 1,flag\n\n1- 2-");
        assert_eq!(rest(&l, "1-↘"), (0, 0));
        assert!(solved(&l, "2-↘"));
    }

    #[test]
    fn ice_slides_until_a_bounce() {
        let l = spec_level("4x1\n0,ball 0,ice 0,ice 1\n\n1-");
        let p = play_all(&l, "1-↘").unwrap();
        assert_eq!(l.board.xy(p.ball), (2, 0));
        assert_eq!(p.last_move, Dir::Left);
    }

    #[test]
    fn a_slide_into_water_returns_to_the_same_cell_and_stops() {
        let l = spec_level("5x1\n0,ball 0 0,ice 0,ice 0,water\n\n2/");
        let p = play_all(&l, "2/↘").unwrap();
        assert_eq!(l.board.xy(p.ball), (3, 0));
        assert_eq!(l.board.xy(p.last_safe), (3, 0));
    }

    #[test]
    fn a_belt_loop_is_illegal() {
        let l = level("3x2\n0,*e 0,*s 0,flag\n0,*n 0,*w 0,ball\n\n1-");
        assert_eq!(reason(&l, "1-↖"), Reason::SlideLoop);
    }

    #[test]
    fn quicksand_kills_a_rest_not_a_crossing() {
        let l = level("4x1\n0,ball 0,quick 0 0,flag\n\n1- 3-");
        assert_eq!(reason(&l, "1-↘"), Reason::Quicksand);
        assert!(solved(&l, "3-↘"));
    }

    #[test]
    fn a_spring_turns_the_rest_of_a_roll_into_a_jump() {
        let l = level("5x1\n0,ball 0,boing 0,water 0 0,flag\n\n3- 4-");
        let p = play_all(&l, "3-↘").unwrap();
        assert_eq!(l.board.xy(p.ball), (3, 0));
        assert_eq!(l.board.xy(p.last_safe), (1, 0));
        assert!(solved(&l, "4-↘"));
    }

    #[test]
    fn a_warp_teleports_to_its_partner() {
        let l = level("4x1\n0,ball 0,warp 0,flag 0,warp\n\n1- 1-");
        assert_eq!(rest(&l, "1-↘"), (3, 0));
        assert!(solved(&l, "1-↘ 1-↖"));
    }

    #[test]
    fn an_angle_reflects_onto_the_flag() {
        let l = level("2x2\n0 0,flag\n0,ball 0,/br\n\n2- 1-");
        assert!(solved(&l, "2-↘"));
        assert_eq!(rest(&l, "1-↘"), (1, 1));
    }

    #[test]
    fn entering_an_angle_through_a_closed_side_bounces() {
        let l = spec_level("3x1\n0,ball 0 0,/tl\n\n2-");
        assert_eq!(rest(&l, "2-↘"), (1, 0));
    }

    #[test]
    fn rolling_off_a_slope_sideways_or_sliding_off_the_grid_is_illegal() {
        let l = spec_level("3x1\n0,ball 0,down 0\n\n2- 1-");
        assert_eq!(reason(&l, "2-↘"), Reason::AcrossSlope);
        assert_eq!(reason(&l, "1-↘"), Reason::RollsOff);
    }

    #[test]
    fn a_jump_then_a_roll() {
        let l = level("3x1\n0,ball 0 0,flag\n\n1/1-");
        assert!(solved(&l, "1/1-↘"));
    }

    // §2.7, the bulleted consequences.

    #[test]
    fn rolls_never_climb_but_drops_are_free_and_jumps_and_warps_ignore_heights() {
        // A higher plain tile bounces; a slope entered as in R7 is climbed.
        let l = level("3x1\n0,ball 1 0,flag\n\n1- 2/");
        assert_eq!(rest(&l, "1-↘"), (0, 0));
        assert!(solved(&l, "2/↘"));
        let l = level("3x1\n0,ball 1,left 1,flag\n\n2-");
        assert!(solved(&l, "2-↘"));
        // A drop of any size.
        let l = level("3x1\n8,ball 0 0,flag\n\n2-");
        assert!(solved(&l, "2-↘"));
        // A warp to a higher partner.
        let l = level("3x2\n0,ball 0,warp x\nx 7,warp 7,flag\n\n1- 1-");
        assert_eq!(rest(&l, "1-↘"), (1, 1));
        assert!(solved(&l, "1-↘ 1-↘"));
    }

    #[test]
    fn leaving_a_slope_uses_its_effective_height() {
        // Downhill: E = h, so a tile of height h passes and h + 1 bounces.
        let l = level("3x1\n1,ball 1,right 1,flag\n\n2-");
        assert!(solved(&l, "2-↘"));
        // (Bounced back onto the slope, the ball slides down it into the wall again: a loop.)
        let l = level("3x1\n1,ball 1,right 2,flag\n\n2-");
        assert_eq!(reason(&l, "2-↘"), Reason::SlideLoop);
        // Uphill: E = h + 1, so a tile of height h + 1 passes and h + 2 bounces.
        let l = level("3x1\n0,ball 1,left 2,flag\n\n2-");
        assert!(solved(&l, "2-↘"));
        let l = level("3x1\n0,ball 1,left 3,flag\n\n2-");
        assert_eq!(rest(&l, "2-↘"), (0, 0));
    }

    #[test]
    fn sideways_onto_a_slope_at_the_same_height() {
        let l = level("3x2\n0,ball 0,down 0,flag\nx 0 x\n\n1- 2-");
        // With no strength left SLIDE rolls the ball down the slope.
        assert_eq!(rest(&l, "1-↘"), (1, 1));
        // With strength left the next iteration fails (R3).
        assert_eq!(reason(&l, "2-↘"), Reason::AcrossSlope);
    }

    #[test]
    fn a_bounce_costs_one_strength_and_the_ball_rolls_back() {
        let l = level("4x1\n0,flag 0 0,ball 1\n\n1- 2- 3-");
        assert_eq!(rest(&l, "1-↘"), (2, 0));
        assert_eq!(rest(&l, "2-↘"), (1, 0));
        assert_eq!(rest(&l, "3-↘"), (0, 0));
    }

    #[test]
    fn after_a_roll_into_water_the_card_goes_on_and_slide_runs() {
        // The jump of `1-2/` still runs from last_safe after the roll met water.
        let l = level("4x1\n0 0,ball 0,water 0,flag\n\n1-2/");
        assert!(solved(&l, "1-2/↘"));
        // SLIDE runs from last_safe (ice), meets the water again and stops there.
        let l = level("4x1\n0,ball 0,ice 0,water 0,flag\n\n2-");
        assert_eq!(rest(&l, "2-↘"), (1, 0));
    }

    #[test]
    fn a_jump_into_water_ends_the_play_at_last_safe() {
        // Were the roll of `2/1-` played after the splash, the ball would end on (1,0).
        let l = level("5x1\n0,ball 0 0,water 0 0,flag\n\n2/1-");
        let p = play_all(&l, "2/1-↘").unwrap();
        assert_eq!(l.board.xy(p.ball), (0, 0));
    }

    #[test]
    fn rolls_never_record_the_flag_as_last_safe_but_jumps_do() {
        let l = level("4x1\n0,ball 0,flag 0,water 0\n\n2- 1/");
        assert_eq!(rest(&l, "2-↘"), (0, 0));
        // A position with the ball on the flag: only reachable by direct construction.
        let board = &l.board;
        let on_flag = Position {
            ball: board.flag,
            last_safe: board.start,
            last_move: Dir::Up,
        };
        let jump = &l.hand[l.card_named("1/").unwrap()].steps;
        let after = board.play(on_flag, jump, Dir::Right).unwrap();
        assert_eq!(after.ball, board.flag, "the jump took off from the flag");
        let roll = &l.hand[l.card_named("2-").unwrap()].steps;
        let after = board.play(on_flag, roll, Dir::Right).unwrap();
        assert_eq!(
            after.ball, board.start,
            "a roll from the flag keeps the old last_safe"
        );
    }

    #[test]
    fn a_step_ending_on_the_partner_warp_again_teleports_back() {
        let l = level("5x1\n0,ball 0,warp 0,warp 1 0,flag\n\n1- 1-");
        assert_eq!(rest(&l, "1-↘"), (2, 0));
        // The bounce off the higher tile ends on the warp: back to its partner.
        assert_eq!(rest(&l, "1-↘ 1-↘"), (1, 0));
    }

    #[test]
    fn quicksand_only_matters_at_rest_after_slide() {
        // A belt pushes the ball onto quicksand: it rests there.
        let l = level("4x1\n0,ball 0,*e 0,quick 0,flag\n\n1- 3/");
        assert_eq!(reason(&l, "1-↘"), Reason::Quicksand);
        // A jump that lands on quicksand.
        let l = level("4x1\n0,ball 0 0,quick 0,flag\n\n2/");
        assert_eq!(reason(&l, "2/↘"), Reason::Quicksand);
        // An ice slide leaves the ice onto quicksand and ends there.
        let l = level("5x1\n0,ball 0,ice 0,quick 0 0,flag\n\n1-");
        assert_eq!(reason(&l, "1-↘"), Reason::Quicksand);
    }

    // The rules one by one, beyond §2.7.

    #[test]
    fn the_reflection_and_closed_side_tables() {
        use Corner::*;
        use Dir::*;
        let table = [
            (TopLeft, [Some(Right), None, None, Some(Down)]),
            (TopRight, [Some(Left), Some(Down), None, None]),
            (BottomLeft, [None, None, Some(Right), Some(Up)]),
            (BottomRight, [None, Some(Up), Some(Left), None]),
        ];
        for (corner, reflections) in table {
            for (dir, expected) in Dir::ALL.into_iter().zip(reflections) {
                assert_eq!(corner.reflect(dir), expected, "{corner:?} {dir:?}");
            }
        }
        let closed = [
            (TopLeft, [Down, Right]),
            (TopRight, [Down, Left]),
            (BottomLeft, [Up, Right]),
            (BottomRight, [Up, Left]),
        ];
        for (corner, dirs) in closed {
            for dir in Dir::ALL {
                assert_eq!(
                    corner.closed_to(dir),
                    dirs.contains(&dir),
                    "{corner:?} {dir:?}"
                );
            }
        }
    }

    #[test]
    fn a_closed_side_counts_one_higher() {
        // From height 1 the closed side of a height-0 angle (effective 1) is entered.
        let l = level("4x1\n1,ball 1 0,/tl 0,flag\n\n2-");
        assert_eq!(rest(&l, "2-↘"), (2, 0));
        // An open side at the same height is entered and the angle turns the ball.
        let l = level("3x2\n0,ball 0 0,/tr\nx x 0,flag\n\n2- 3-");
        assert_eq!(rest(&l, "2-↘"), (2, 0));
        assert!(solved(&l, "3-↘"));
    }

    #[test]
    fn an_ice_angle_turns_a_sliding_ball() {
        let l = level("3x2\n0,ball 0,ice 0,icetr\nx x 0,flag\n\n1-");
        assert!(solved(&l, "1-↘"));
    }

    #[test]
    fn a_ring_of_ice_angles_is_a_slide_loop() {
        let l = level("2x3\n0,icetl 0,icetr\n0,icebl 0,icebr\n0,ball 0,flag\n\n2/");
        assert_eq!(reason(&l, "2/↗"), Reason::SlideLoop);
    }

    #[test]
    fn a_ramp_facing_a_higher_wall_is_a_slide_loop() {
        let l = level("4x1\n0,ball 0,right 1 0,flag\n\n1-");
        assert_eq!(reason(&l, "1-↘"), Reason::SlideLoop);
    }

    #[test]
    fn a_belt_into_a_wall_is_a_slide_loop_and_belts_chain() {
        let l = level("4x1\n0,ball 0,*e 1 0,flag\n\n1-");
        assert_eq!(reason(&l, "1-↘"), Reason::SlideLoop);
        let l = level("4x2\n0,ball 0,*e 0,*s x\nx x 0,*e 0,flag\n\n1-");
        assert!(solved(&l, "1-↘"));
    }

    #[test]
    fn slopes_chain_downhill() {
        let l = level("4x1\n3,ball 2,right 1,right 0,flag\n\n1-");
        assert!(solved(&l, "1-↘"));
    }

    #[test]
    fn spring_mode_turns_later_rolls_into_jumps() {
        // The roll reaches the spring with no strength left: a jump of 0 lands in place; the
        // card's second roll is then a jump over the water.
        let l = level("5x1\n0,ball 0,boing 0,water 0,flag 0\n\n1-2-");
        assert!(solved(&l, "1-2-↘"));
    }

    #[test]
    fn a_spring_higher_than_the_ball_is_a_wall() {
        let l = level("4x1\n0,ball 0 1,boing 0,flag\n\n3-");
        assert_eq!(rest(&l, "3-↘"), (0, 0));
    }

    #[test]
    fn a_bounce_from_a_spring_jumps_back() {
        // A roll reaching a spring with no strength left jumps 0: it rests on the spring.
        let l = level("4x1\n0,flag 0,ball 0,boing 1\n\n1- 3-");
        assert_eq!(rest(&l, "1-↘"), (2, 0));
        // Resting on the spring, the roll meets a higher tile: a jump of 2 back.
        assert!(solved(&l, "1-↘ 3-↘"));
    }

    #[test]
    fn a_slide_onto_a_warp_teleports() {
        let l = level("5x2\n0,ball 0,ice 0,warp1 1 x\n0,flag 0 0 0,warp1 x\n\n1-");
        assert_eq!(rest(&l, "1-↘"), (3, 1));
    }

    #[test]
    fn jumps_land_off_the_tiles_or_off_the_grid() {
        let l = level("4x1\n0,ball 0 x 0,flag\n\n2/ 4/");
        assert_eq!(reason(&l, "2/↘"), Reason::LandsOff(2));
        assert_eq!(reason(&l, "4/↘"), Reason::LandsOff(4));
        assert_eq!(reason(&l, "2/↖"), Reason::LandsOff(2));
    }
}
