//! The puzzle class of `frontier generate sliding-blocks`: every arrangement of polyominoes and
//! empty cells on a W×H board without internal walls, whose goal piece covers the upper-left
//! cell and must reach the lower-right corner: cover the lower-right cell ([`Goal::Cell`],
//! Bickford's class), or only have its bounding box touch the bottom and right edges
//! ([`Goal::Box`]). Pieces of equal shape are interchangeable; the goal piece is not
//! interchangeable with free pieces of its shape. A puzzle's difficulty is its fewest moves.
//!
//! The positions sharing a goal shape and a multiset of free shapes (a **class**) form one
//! search space, independent of every other class. This module lists the classes through their
//! solved positions: for each goal shape that covers its bounding box's upper-left cell (any
//! other could never cover the board's), the goal is put in the lower-right corner and the
//! rest of the board is tiled with pieces and empty cells, the first undecided cell (row-major)
//! being either empty or the first cell of a piece placed there (each tiling found once). The
//! listing keeps each class's piece set only ([`Shapes::class_sets`]); a class's solved
//! positions are tiled again, with exactly its pieces, when it is searched ([`Shapes::class`]),
//! so that memory holds the positions of the classes being searched and of no other. A
//! class's hardest puzzle comes from one multi-source breadth-first search from all its solved
//! positions ([`crate::engine::explore`]): it reaches exactly the solvable positions, each in
//! the layer of its fewest moves, and the answer is the deepest layer holding a position whose
//! goal piece covers cell 0. The driver that runs classes in parallel, and records each
//! finished one, is `harness/generate.rs`; this module knows no threads.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::str::FromStr;

use foldhash::fast::FixedState;
use serde::{Deserialize, Serialize};

use super::bits::{Bits, Key, Steps};
use super::rules::{Block, Cell, Puzzle};
use super::space::SlidingSpace;
use super::{Level, WithSpace, with_space};
use crate::engine::{Limit, SearchControl};
use crate::search::{Layers, explore, explore_serial};

/// When the goal piece has reached the lower-right corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// It covers the lower-right cell (Bickford's class: the goal piece goes from the
    /// upper-left cell to the lower-right cell). Its bounding box then touches the bottom and
    /// right edges, and its shape covers both corners of its box.
    Cell,
    /// Its bounding box touches the bottom and right edges, whether or not it covers the
    /// corner cell: goal shapes without their box's lower-right cell count too.
    Box,
}

/// The most board cells `generate` handles: a piece is a bit mask of one word, and the pieces
/// are named by distinct characters.
pub const MAX_CELLS: usize = 60;

/// A board of `width` × `height` cells, no walls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub width: usize,
    pub height: usize,
}

impl FromStr for Board {
    type Err = String;
    fn from_str(s: &str) -> Result<Board, String> {
        let bad = || format!("board `{s}`: expected WIDTHxHEIGHT, e.g. 4x4");
        let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
        let width: usize = w.trim().parse().map_err(|_| bad())?;
        let height: usize = h.trim().parse().map_err(|_| bad())?;
        if width == 0 || height == 0 {
            return Err(format!("board `{s}`: width and height must be at least 1"));
        }
        if width * height > MAX_CELLS {
            return Err(format!(
                "board `{s}`: {} cells, generate handles at most {MAX_CELLS}",
                width * height
            ));
        }
        Ok(Board { width, height })
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl Board {
    fn cells(&self) -> usize {
        self.width * self.height
    }

    fn all(&self) -> u64 {
        u64::MAX >> (64 - self.cells())
    }

    /// The cells of `mask` one unit step away from it, on the board.
    fn neighbours(&self, mask: u64) -> u64 {
        Steps::new(self.cells(), self.width).around(mask) & self.all() & !mask
    }

    /// `mask` moved so that its bounding box touches the top and left edges.
    fn normalised(&self, mask: u64) -> u64 {
        let rows = (0..self.height).find(|r| mask >> (r * self.width) & self.row_mask() != 0);
        let col = (0..self.width)
            .find(|c| (0..self.height).any(|r| mask >> (r * self.width + c) & 1 != 0));
        mask >> (rows.unwrap_or(0) * self.width + col.unwrap_or(0))
    }

    fn row_mask(&self) -> u64 {
        (1u64 << self.width) - 1
    }

    /// The height and width of the bounding box of a normalised mask.
    fn extent(&self, normalised: u64) -> (usize, usize) {
        let rows = (0..self.height)
            .filter(|r| normalised >> (r * self.width) & self.row_mask() != 0)
            .count();
        let cols = (0..self.width)
            .filter(|c| (0..self.height).any(|r| normalised >> (r * self.width + c) & 1 != 0))
            .count();
        (rows, cols)
    }
}

/// A shape's index in [`Shapes`].
pub type ShapeId = u32;

/// Every polyomino that fits on the board: its normalised mask, and by first cell every
/// placement of every shape.
pub struct Shapes {
    pub board: Board,
    /// Normalised masks (bounding box at the upper-left), by shape id.
    masks: Vec<u64>,
    /// By cell: the placements whose first (lowest) cell it is, with their shape.
    starting_at: Vec<Vec<(u64, ShapeId)>>,
    /// By shape: its placements, with their first cell.
    placements: Vec<Vec<(u64, u8)>>,
}

impl Shapes {
    /// Lists every connected set of cells by its lowest cell, growing sets one neighbour
    /// above that cell at a time.
    pub fn new(board: Board) -> Shapes {
        let mut ids: HashMap<u64, ShapeId> = HashMap::new();
        let mut masks = Vec::new();
        let mut starting_at = vec![Vec::new(); board.cells()];
        for (first, placements) in starting_at.iter_mut().enumerate() {
            let above = board.all() & !((1u64 << first) - 1);
            let mut seen: HashSet<u64> = HashSet::from([1 << first]);
            let mut stack = vec![1u64 << first];
            while let Some(set) = stack.pop() {
                let mut grow = board.neighbours(set) & above;
                while grow != 0 {
                    let cell = grow & grow.wrapping_neg();
                    grow &= grow - 1;
                    if seen.insert(set | cell) {
                        stack.push(set | cell);
                    }
                }
            }
            let mut sets: Vec<u64> = seen.into_iter().collect();
            sets.sort_unstable();
            for set in sets {
                let shape = *ids.entry(board.normalised(set)).or_insert_with(|| {
                    masks.push(board.normalised(set));
                    (masks.len() - 1) as ShapeId
                });
                placements.push((set, shape));
            }
        }
        let mut placements = vec![Vec::new(); masks.len()];
        for (first, starting) in starting_at.iter().enumerate() {
            for &(cells, shape) in starting {
                placements[shape as usize].push((cells, first as u8));
            }
        }
        Shapes {
            board,
            masks,
            starting_at,
            placements,
        }
    }

    /// The cells of `shape`.
    pub fn size(&self, shape: ShapeId) -> u32 {
        self.masks[shape as usize].count_ones()
    }

    /// The shapes that can be goal pieces under `goal`: those covering their bounding box's
    /// upper-left cell (only they can cover the board's), and unless the goal is
    /// [`Goal::Box`], its lower-right cell too.
    pub fn goal_shapes(&self, goal: Goal) -> Vec<ShapeId> {
        let covers_lower_right = |m: u64| {
            let (rows, cols) = self.board.extent(m);
            m >> ((rows - 1) * self.board.width + cols - 1) & 1 != 0
        };
        (0..self.masks.len() as ShapeId)
            .map(|s| (s, self.masks[s as usize]))
            .filter(|&(_, m)| m & 1 != 0 && (goal == Goal::Box || covers_lower_right(m)))
            .map(|(s, _)| s)
            .collect()
    }

    /// The cells of `shape` at the anchor (its lowest cell) `anchor`.
    fn placed(&self, shape: ShapeId, anchor: u32) -> u64 {
        let mask = self.masks[shape as usize];
        mask >> mask.trailing_zeros() << anchor
    }

    /// The cells of `shape` in the lower-right corner.
    fn in_corner(&self, shape: ShapeId) -> u64 {
        let (rows, cols) = self.board.extent(self.masks[shape as usize]);
        let w = self.board.width;
        self.masks[shape as usize] << ((self.board.height - rows) * w + w - cols)
    }

    /// The normalised cells of `shape` (bounding box at the upper-left), which name it
    /// independently of the order in which shapes were listed.
    pub fn mask(&self, shape: ShapeId) -> u64 {
        self.masks[shape as usize]
    }

    /// The classes whose goal piece has shape `goal`, with exactly `pieces` pieces (the goal
    /// piece included; `None`: any number), each as its free shapes, sorted. Only the piece
    /// sets are kept, not their solved positions: [`Shapes::class`] tiles a class's positions
    /// again when it is searched, so a search holds its own class's positions and no other's.
    pub fn class_sets(&self, goal: ShapeId, pieces: Option<usize>) -> Vec<Vec<ShapeId>> {
        let max_free = pieces.map_or(self.board.cells(), |p| p.saturating_sub(1));
        let mut found: HashSet<Vec<ShapeId>, FixedState> = HashSet::default();
        let mut key: Vec<ShapeId> = Vec::new();
        let mut tiling = Tiling {
            starting_at: &self.starting_at,
            budget: None,
            empty_left: usize::MAX,
            max_free,
            placed: Vec::new(),
            complete: |placed: &[(ShapeId, u8)]| {
                if pieces.is_some_and(|p| placed.len() + 1 != p) {
                    return;
                }
                key.clear();
                key.extend(placed.iter().map(|&(s, _)| s));
                key.sort_unstable();
                if !found.contains(key.as_slice()) {
                    found.insert(key.clone());
                }
            },
        };
        tiling.tile(self.board.all() & !self.in_corner(goal));
        let mut sets: Vec<Vec<ShapeId>> = found.into_iter().collect();
        sets.sort_unstable();
        sets
    }

    /// The class of goal shape `goal` and free shapes `free` (sorted), with all its solved
    /// positions: the tilings of the board outside the goal piece in its corner by exactly
    /// these pieces, in the order the tiling of [`Shapes::class_sets`] meets them.
    pub fn class(&self, goal: ShapeId, free: Vec<ShapeId>) -> Class {
        let corner = self.in_corner(goal);
        // The class's tiling runs on its own shape numbers, its distinct shapes in order
        // (so sorting by them sorts by shape), with a budget of pieces each.
        let mut distinct = free.clone();
        distinct.dedup();
        let budget: Vec<u8> = distinct
            .iter()
            .map(|&shape| free.iter().filter(|&&f| f == shape).count() as u8)
            .collect();
        // Only the class's own shapes' placements, in the order of the whole list.
        let mut starting_at: Vec<Vec<(u64, ShapeId)>> = vec![Vec::new(); self.board.cells()];
        for (own, &shape) in distinct.iter().enumerate() {
            for &(cells, first) in &self.placements[shape as usize] {
                starting_at[usize::from(first)].push((cells, own as ShapeId));
            }
        }
        for placements in &mut starting_at {
            placements.sort_unstable();
        }
        let covered: u32 = free.iter().map(|&s| self.size(s)).sum::<u32>() + self.size(goal);
        let mut solved = Vec::new();
        let mut sorted: Vec<(ShapeId, u8)> = Vec::new();
        let mut tiling = Tiling {
            starting_at: &starting_at,
            budget: Some(budget),
            empty_left: self.board.cells() - covered as usize,
            max_free: free.len(),
            placed: Vec::new(),
            complete: |placed: &[(ShapeId, u8)]| {
                if placed.len() == free.len() {
                    sorted.clear();
                    sorted.extend_from_slice(placed);
                    sorted.sort_unstable();
                    solved.extend(sorted.iter().map(|&(_, a)| a));
                }
            },
        };
        tiling.tile(self.board.all() & !corner);
        Class {
            goal,
            goal_anchor: corner.trailing_zeros() as u8,
            free,
            solved,
        }
    }
}

/// The recursion that tiles the cells left by the goal piece: the first undecided cell
/// (row-major) is either empty or the first cell of a piece placed there, so each tiling is met
/// once; `complete` is called with the pieces of each (shape and anchor, in placing order).
struct Tiling<'a, C: FnMut(&[(ShapeId, u8)])> {
    /// By cell: the placements that may start there.
    starting_at: &'a [Vec<(u64, ShapeId)>],
    /// Per shape (as the placements number them): how many more pieces of it may be placed
    /// (`None`: any number).
    budget: Option<Vec<u8>>,
    /// How many more cells may stay empty.
    empty_left: usize,
    max_free: usize,
    /// The free pieces placed so far: shape and anchor.
    placed: Vec<(ShapeId, u8)>,
    complete: C,
}

impl<C: FnMut(&[(ShapeId, u8)])> Tiling<'_, C> {
    fn tile(&mut self, undecided: u64) {
        if undecided == 0 {
            (self.complete)(&self.placed);
            return;
        }
        let first = undecided.trailing_zeros() as usize;
        if self.empty_left > 0 {
            self.empty_left -= 1;
            self.tile(undecided & !(1 << first));
            self.empty_left += 1;
        }
        if self.placed.len() == self.max_free {
            return;
        }
        let placements = self.starting_at;
        for &(cells, shape) in &placements[first] {
            if cells & !undecided != 0
                || self.budget.as_ref().is_some_and(|b| b[shape as usize] == 0)
            {
                continue;
            }
            if let Some(budget) = &mut self.budget {
                budget[shape as usize] -= 1;
            }
            self.placed.push((shape, first as u8));
            self.tile(undecided & !cells);
            self.placed.pop();
            if let Some(budget) = &mut self.budget {
                budget[shape as usize] += 1;
            }
        }
    }
}

/// A goal shape and a multiset of free shapes, with all their solved positions.
pub struct Class {
    pub goal: ShapeId,
    goal_anchor: u8,
    /// The free pieces' shapes, sorted.
    pub free: Vec<ShapeId>,
    /// The free pieces' anchors of every solved position, `free.len()` per position.
    solved: Vec<u8>,
}

/// The hardest puzzle of a class, and what its search measured.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hardest {
    /// Pieces, the goal piece included.
    pub pieces: usize,
    /// The fewest moves of the hardest start; `None` when no position of the class has its
    /// goal piece on the upper-left cell and is solvable.
    pub moves: Option<u32>,
    /// The hardest start and the goal, as grids (rows joined by `\n`; the goal piece is `A`,
    /// the others `b`, `c`, ... in reading order).
    pub start: String,
    pub goal: String,
    /// Positions the search stored: every solvable position of the class.
    pub states: u64,
    /// Solvable positions whose goal piece covers the upper-left cell: the class's puzzles.
    pub puzzles: u64,
}

impl Class {
    pub fn pieces(&self) -> usize {
        self.free.len() + 1
    }

    /// The class as a puzzle: its first solved position, the goal piece `A` with its target
    /// where it stands, the free pieces `b`, `c`, ... in the order of [`Class::free`].
    fn puzzle(&self, shapes: &Shapes) -> Puzzle {
        let board = shapes.board;
        let cells_of = |mask: u64| -> Vec<Cell> {
            (0..board.cells())
                .filter(|&i| mask >> i & 1 != 0)
                .map(|i| Cell {
                    row: (i / board.width) as i32,
                    col: (i % board.width) as i32,
                })
                .collect()
        };
        let goal = Block {
            name: 'A',
            cells: cells_of(shapes.placed(self.goal, u32::from(self.goal_anchor))),
            target: Some(Cell::ZERO),
        };
        let free = self.free.iter().zip(&self.solved).zip(piece_names());
        Puzzle {
            width: board.width,
            height: board.height,
            board: vec![true; board.cells()],
            blocks: std::iter::once(goal)
                .chain(free.map(|((&shape, &anchor), name)| Block {
                    name,
                    cells: cells_of(shapes.placed(shape, u32::from(anchor))),
                    target: None,
                }))
                .collect(),
        }
    }

    /// Searches the class from all its solved positions at once and returns its hardest
    /// puzzle; the limit instead when `ctl` stops the search.
    pub fn hardest(&self, shapes: &Shapes, ctl: &SearchControl) -> Result<Hardest, Limit> {
        let level = Level::new(self.puzzle(shapes))
            .expect("a board of at most MAX_CELLS cells and its pieces fit the search's keys");
        with_space(
            &level,
            SearchClass {
                class: self,
                puzzle: &level.puzzle,
                shapes,
                ctl,
            },
        )
    }
}

/// Names of free pieces: lowercase letters (`A` is the goal piece), then the other capitals,
/// then digits.
fn piece_names() -> impl Iterator<Item = char> {
    ('b'..='z')
        .chain('a'..='a')
        .chain('B'..='Z')
        .chain('0'..='9')
}

/// The search of one class, on the bitboard and key types its puzzle needs.
struct SearchClass<'a> {
    class: &'a Class,
    puzzle: &'a Puzzle,
    shapes: &'a Shapes,
    ctl: &'a SearchControl,
}

impl WithSpace for SearchClass<'_> {
    type Output = Result<Hardest, Limit>;
    fn run<M: Bits, const N: usize>(self, space: SlidingSpace<'_, M, N>) -> Self::Output {
        let class = self.class;
        let free = class.free.len();
        let mut anchors = vec![u32::from(class.goal_anchor); free + 1];
        let sources: Vec<Key<N>> = if free == 0 {
            vec![space.key_of(&anchors)]
        } else {
            class
                .solved
                .chunks_exact(free)
                .map(|position| {
                    for (a, &p) in anchors[1..].iter_mut().zip(position) {
                        *a = u32::from(p);
                    }
                    space.key_of(&anchors)
                })
                .collect()
        };
        // Most classes are small: they are explored on this thread, and only a large one by
        // the engine's parallel search (which its memory budget follows).
        Ok(
            match explore_serial(&space, &sources, true, SERIAL_STATES) {
                Some(layers) => {
                    // The serial search has no checks of its own: an interrupt or the memory
                    // guard's request stops the run here, between classes.
                    self.ctl.check()?;
                    self.hardest_of(&space, &sources[0], &layers)
                }
                None => {
                    let layers = explore(&space, &sources, true, self.ctl)?;
                    self.hardest_of(&space, &sources[0], &layers)
                }
            },
        )
    }
}

/// The most positions of a class explored on one thread: past them, the class is explored
/// again by the parallel search, which loses a fraction of a second (a thread's work on this
/// many positions) and holds the serial search's memory to a few MiB per thread.
const SERIAL_STATES: usize = 1 << 18;

impl SearchClass<'_> {
    /// The hardest puzzle of the class explored in `layers`, whose sources include `solved`.
    fn hardest_of<M: Bits, const N: usize>(
        &self,
        space: &SlidingSpace<'_, M, N>,
        solved: &Key<N>,
        layers: &impl Layers<Key<N>>,
    ) -> Hardest {
        let is_puzzle = |s: &Key<N>| space.first_goal_anchor(s) == Some(0);
        let mut moves = None;
        let mut puzzles = 0;
        let mut hardest: Option<Key<N>> = None;
        for depth in (0..=layers.eccentricity()).rev() {
            let here = layers.layer(depth).filter(is_puzzle);
            if moves.is_none() {
                let (count, least) =
                    here.fold((0, None), |(n, least): (u64, Option<Key<N>>), s| {
                        (n + 1, Some(least.map_or(s, |l| l.min(s))))
                    });
                puzzles += count;
                hardest = least;
                moves = least.map(|_| depth);
            } else {
                puzzles += here.count() as u64;
            }
        }
        let board = self.shapes.board;
        Hardest {
            pieces: self.class.pieces(),
            moves,
            start: hardest
                .map(|key| grid(board, self.puzzle, &space.anchors(&key), false))
                .unwrap_or_default(),
            goal: grid(board, self.puzzle, &space.anchors(solved), true),
            states: layers.states(),
            puzzles,
        }
    }
}

/// A position as rows of characters joined by `\n`: the goal piece `A`, the others (unless
/// `goal_only`) named in reading order, empty cells `.`.
fn grid(board: Board, puzzle: &Puzzle, anchors: &[u32], goal_only: bool) -> String {
    let mut owner: Vec<Option<usize>> = vec![None; board.cells()];
    for (b, block) in puzzle.blocks.iter().enumerate() {
        if goal_only && b > 0 {
            break;
        }
        let at = anchors[b] as usize;
        let anchor = Cell {
            row: (at / board.width) as i32,
            col: (at % board.width) as i32,
        };
        for c in block.shape() {
            let cell = anchor.plus(c);
            owner[cell.row as usize * board.width + cell.col as usize] = Some(b);
        }
    }
    let mut names: HashMap<usize, char> = HashMap::from([(0, 'A')]);
    let mut next = piece_names();
    let mut text = String::new();
    for (i, cell) in owner.iter().enumerate() {
        if i > 0 && i % board.width == 0 {
            text.push('\n');
        }
        text.push(match cell {
            None => '.',
            Some(b) => *names
                .entry(*b)
                .or_insert_with(|| next.next().expect("fewer pieces than names")),
        });
    }
    text
}
