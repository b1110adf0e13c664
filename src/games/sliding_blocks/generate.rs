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
//! listing keeps each class's piece set only, and comes in parts that can be listed apart
//! ([`Shapes::listing_parts`], [`Shapes::list_part`]); a class's solved
//! positions are tiled again, with exactly its pieces, when it is searched ([`Shapes::class`]),
//! so that memory holds the positions of the classes being searched and of no other. A
//! class's hardest puzzle comes from one multi-source breadth-first search from all its solved
//! positions ([`crate::engine::explore`]): it reaches exactly the solvable positions, each in
//! the layer of its fewest moves, and the answer is the deepest layer holding a position whose
//! goal piece covers cell 0. The driver that runs classes in parallel, and records each
//! finished one, is `harness/generate.rs`; this module knows no threads.

use std::any::Any;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::bits::{Bits, Key, Steps};
use super::space::{BlockAt, Layout, SlidingSpace};
use super::{WithSpace, with_layout};
use crate::engine::{Limit, SearchControl};
use crate::search::{Layers, SerialExplorer, explore_further};

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
    /// By shape: where it can be placed ([`Placed`]).
    placed_at: Vec<Placed>,
    /// Every placement, for the listing.
    trie: PlacementTrie,
}

/// A node where no placement ends ([`TrieNode::shape`]).
const NO_SHAPE: ShapeId = ShapeId::MAX;

/// Every placement as a path from its first cell through its other cells in increasing
/// order, shared prefixes shared, so that the placements lying inside a set of undecided cells
/// are found by walking only the paths inside it. The listing meets cells with tens of
/// thousands of placements starting there (4×5), of which a few fit the cells left: scanning
/// them all was most of its time.
struct PlacementTrie {
    /// The roots by first cell, then every other node; a node's children are consecutive.
    nodes: Vec<TrieNode>,
}

#[derive(Clone, Copy)]
struct TrieNode {
    cell: u8,
    /// The shape of the placement whose cells are the path's, or [`NO_SHAPE`].
    shape: ShapeId,
    /// The children's index range in [`PlacementTrie::nodes`].
    children: (u32, u32),
}

impl PlacementTrie {
    fn new(starting_at: &[Vec<(u64, ShapeId)>]) -> PlacementTrie {
        let mut nodes: Vec<TrieNode> = (0..starting_at.len())
            .map(|first| TrieNode {
                cell: first as u8,
                shape: NO_SHAPE,
                children: (0, 0),
            })
            .collect();
        for (first, placements) in starting_at.iter().enumerate() {
            // Each placement as its cells after the first, increasing: sorted so, the
            // placements sharing a prefix are consecutive, the prefix's own first.
            let mut paths: Vec<(Vec<u8>, ShapeId)> = placements
                .iter()
                .map(|&(cells, shape)| (cells_of(cells & !(1 << first)), shape))
                .collect();
            paths.sort_unstable();
            let mut rest = paths.as_slice();
            if let Some(((path, shape), longer)) = rest.split_first()
                && path.is_empty()
            {
                nodes[first].shape = *shape;
                rest = longer;
            }
            nodes[first].children = Self::grow(&mut nodes, rest, 0);
        }
        PlacementTrie { nodes }
    }

    /// Adds the children of a node, whose placements beyond it are `paths` (each with more
    /// than `depth` cells after the first), one per cell `depth` of theirs; their index range.
    fn grow(nodes: &mut Vec<TrieNode>, paths: &[(Vec<u8>, ShapeId)], depth: usize) -> (u32, u32) {
        let groups: Vec<&[(Vec<u8>, ShapeId)]> =
            paths.chunk_by(|a, b| a.0[depth] == b.0[depth]).collect();
        let start = nodes.len();
        nodes.extend(groups.iter().map(|group| TrieNode {
            cell: group[0].0[depth],
            shape: NO_SHAPE,
            children: (0, 0),
        }));
        for (k, mut group) in groups.iter().copied().enumerate() {
            if group[0].0.len() == depth + 1 {
                nodes[start + k].shape = group[0].1;
                group = &group[1..];
            }
            nodes[start + k].children = Self::grow(nodes, group, depth + 1);
        }
        (start as u32, (start + groups.len()) as u32)
    }

    /// Appends to `out` every placement starting at `first` whose cells are all `undecided`
    /// (`first` among them), with its shape.
    fn fitting(&self, first: usize, undecided: u64, out: &mut Vec<(u64, ShapeId)>) {
        self.walk(first, 1 << first, undecided, out);
    }

    fn walk(&self, node: usize, cells: u64, undecided: u64, out: &mut Vec<(u64, ShapeId)>) {
        let TrieNode {
            shape, children, ..
        } = self.nodes[node];
        if shape != NO_SHAPE {
            out.push((cells, shape));
        }
        for child in children.0 as usize..children.1 as usize {
            let cell = self.nodes[child].cell;
            if undecided >> cell & 1 != 0 {
                self.walk(child, cells | 1 << cell, undecided, out);
            }
        }
    }
}

/// The cells of `mask`, increasing.
fn cells_of(mut mask: u64) -> Vec<u8> {
    let mut cells = Vec::with_capacity(mask.count_ones() as usize);
    while mask != 0 {
        cells.push(mask.trailing_zeros() as u8);
        mask &= mask - 1;
    }
    cells
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
        let mut placed_at = vec![Placed::default(); masks.len()];
        for (first, starting) in starting_at.iter().enumerate() {
            for &(cells, shape) in starting {
                let placed = &mut placed_at[shape as usize];
                placed.firsts |= 1 << first;
                placed.cells = cells >> first;
            }
        }
        Shapes {
            board,
            masks,
            trie: PlacementTrie::new(&starting_at),
            placed_at,
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

    /// The listing of the classes whose goal piece has shape `goal`, with exactly `pieces`
    /// pieces (the goal piece included; `None`: any number), cut into parts that can be listed
    /// apart: the tilings that place a first piece on one of the first cells, those before it
    /// left empty, one part per such placement, and one for the tilings leaving the first
    /// [`SPLIT_EMPTY`] cells empty. Every tiling of the listing is in exactly one part.
    pub fn listing_parts(&self, goal: ShapeId, pieces: Option<usize>) -> Vec<ListingPart> {
        let mut parts = Vec::new();
        let mut tiling = Tiling::listing(self, pieces, true, |undecided, placed| {
            parts.push(ListingPart {
                undecided,
                placed: placed.to_vec(),
            })
        });
        tiling.tile(self.board.all() & !self.in_corner(goal), 0);
        parts
    }

    /// Calls `found` with the free shapes, sorted, of every tiling of `part` with the listing's
    /// number of pieces: each class of the part as often as it has solved positions there. Only
    /// the piece sets are kept, not their positions: [`Shapes::class`] tiles a class's
    /// positions again when it is searched, so a search holds its own class's positions and no
    /// other's.
    pub fn list_part(
        &self,
        part: &ListingPart,
        pieces: Option<usize>,
        mut found: impl FnMut(&[ShapeId]),
    ) {
        let mut key: Vec<ShapeId> = Vec::new();
        let mut tiling = Tiling::listing(self, pieces, false, |_, placed| {
            if pieces.is_none_or(|p| placed.len() + 1 == p) {
                key.clear();
                key.extend(placed.iter().map(|&(s, _)| s));
                key.sort_unstable();
                found(&key);
            }
        });
        tiling.placed.clone_from(&part.placed);
        tiling.tile(part.undecided, part.placed.len());
    }

    /// The class of goal shape `goal` and free shapes `free` (sorted), with all its solved
    /// positions: the tilings of the board outside the goal piece in its corner by exactly
    /// these pieces.
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
        let placed_at: Vec<Placed> = distinct
            .iter()
            .map(|&shape| self.placed_at[shape as usize])
            .collect();
        let covered: u32 = free.iter().map(|&s| self.size(s)).sum::<u32>() + self.size(goal);
        let mut solved = Vec::new();
        let mut sorted: Vec<(ShapeId, u8)> = Vec::new();
        let mut tiling = Tiling {
            placements: Placements::Few(&placed_at),
            budget: Some(budget),
            empty_left: self.board.cells() - covered as usize,
            max_free: free.len(),
            least_free: free.len(),
            split: false,
            placed: Vec::new(),
            fitting: Vec::new(),
            visit: |_, placed: &[(ShapeId, u8)]| {
                if placed.len() == free.len() {
                    sorted.clear();
                    sorted.extend_from_slice(placed);
                    sorted.sort_unstable();
                    solved.extend(sorted.iter().map(|&(_, a)| a));
                }
            },
        };
        tiling.tile(self.board.all() & !corner, 0);
        Class {
            goal,
            goal_anchor: corner.trailing_zeros() as u8,
            free,
            solved,
        }
    }
}

/// Cells that the parts of a listing may leave empty before the part's first piece
/// ([`Shapes::listing_parts`]): the tilings leaving the first cells empty are many, so they
/// are parted again at each of the first few cells, and the part that leaves them all empty
/// holds a small share of the listing.
const SPLIT_EMPTY: usize = 3;

/// A part of a goal shape's listing ([`Shapes::listing_parts`]): the tilings that begin with
/// these pieces and leave the cells before the first undecided one empty.
pub struct ListingPart {
    undecided: u64,
    placed: Vec<(ShapeId, u8)>,
}

/// Where a tiling finds the placements that start at a cell.
enum Placements<'a> {
    /// Every shape's, in the trie.
    Trie(&'a PlacementTrie),
    /// A few shapes', by shape.
    Few(&'a [Placed]),
}

/// Where a shape can be placed: the cells that can be its first (lowest) cell, and its cells
/// when its first cell is cell 0 (all its other cells come later in row-major order, so the
/// placement at first cell `f` is `cells << f`).
#[derive(Clone, Copy, Default)]
struct Placed {
    firsts: u64,
    cells: u64,
}

impl Placed {
    /// Whether one of its placements lies on `cells`: where each of its cells is in `cells`
    /// when its first cell is.
    fn fits_in(&self, cells: u64) -> bool {
        let mut relative = self.cells;
        let mut firsts = self.firsts;
        while relative != 0 && firsts != 0 {
            firsts &= cells >> relative.trailing_zeros();
            relative &= relative - 1;
        }
        firsts != 0
    }
}

/// The recursion that tiles the cells left by the goal piece: the first undecided cell
/// (row-major) is either empty or the first cell of a piece placed there, so each tiling is met
/// once; `visit` is called with the pieces of each (shape and anchor, in placing order), and
/// when the tiling is `split` into parts, with the undecided cells and the pieces of each part
/// instead.
struct Tiling<'a, V: FnMut(u64, &[(ShapeId, u8)])> {
    placements: Placements<'a>,
    /// Per shape (as the placements number them): how many more pieces of it may be placed
    /// (`None`: any number).
    budget: Option<Vec<u8>>,
    /// How many more cells may stay empty.
    empty_left: usize,
    max_free: usize,
    /// The fewest free pieces a tiling must have: one with fewer pieces placed than that less
    /// the cells left, each of which could hold one, is abandoned.
    least_free: usize,
    /// Whether a tiling stops at its first piece or after [`SPLIT_EMPTY`] empty cells, as a
    /// part.
    split: bool,
    /// The free pieces placed so far: shape and anchor.
    placed: Vec<(ShapeId, u8)>,
    /// The placements fitting at the cells being decided, one run per level of the
    /// recursion: reused, so that a tiling allocates nothing once it is deep enough.
    fitting: Vec<(u64, ShapeId)>,
    visit: V,
}

impl<'a, V: FnMut(u64, &[(ShapeId, u8)])> Tiling<'a, V> {
    /// The listing's tiling: any shapes, as many cells empty as may be, at most the pieces
    /// asked for.
    fn listing(shapes: &'a Shapes, pieces: Option<usize>, split: bool, visit: V) -> Self {
        let max_free = pieces.map_or(shapes.board.cells(), |p| p.saturating_sub(1));
        Tiling {
            placements: Placements::Trie(&shapes.trie),
            budget: None,
            empty_left: usize::MAX,
            max_free,
            least_free: pieces.map_or(0, |_| max_free),
            split,
            placed: Vec::new(),
            fitting: Vec::new(),
            visit,
        }
    }

    /// Tiles `undecided`, `decided` cells having been decided before.
    fn tile(&mut self, undecided: u64, decided: usize) {
        if self.placed.len() + (undecided.count_ones() as usize) < self.least_free {
            return;
        }
        // A class's piece still to place that fits nowhere in the undecided cells ends the
        // tiling here rather than cells later: the dead ends were most of a class's tiling.
        if let (Placements::Few(shapes), Some(budget)) = (&self.placements, &self.budget)
            && (shapes.iter().zip(budget))
                .any(|(placed, &left)| left > 0 && !placed.fits_in(undecided))
        {
            return;
        }
        if undecided == 0 || self.split && (!self.placed.is_empty() || decided == SPLIT_EMPTY) {
            (self.visit)(undecided, &self.placed);
            return;
        }
        let first = undecided.trailing_zeros() as usize;
        if self.empty_left > 0 {
            self.empty_left -= 1;
            self.tile(undecided & !(1 << first), decided + 1);
            self.empty_left += 1;
        }
        if self.placed.len() == self.max_free {
            return;
        }
        let from = self.fitting.len();
        match self.placements {
            Placements::Trie(trie) => trie.fitting(first, undecided, &mut self.fitting),
            Placements::Few(shapes) => {
                self.fitting
                    .extend(shapes.iter().zip(0..).filter_map(|(placed, shape)| {
                        let cells = placed.cells << first;
                        (placed.firsts >> first & 1 != 0 && cells & !undecided == 0)
                            .then_some((cells, shape))
                    }))
            }
        }
        for k in from..self.fitting.len() {
            let (cells, shape) = self.fitting[k];
            if self.budget.as_ref().is_some_and(|b| b[shape as usize] == 0) {
                continue;
            }
            if let Some(budget) = &mut self.budget {
                budget[shape as usize] -= 1;
            }
            self.placed.push((shape, first as u8));
            self.tile(undecided & !cells, decided + 1);
            self.placed.pop();
            if let Some(budget) = &mut self.budget {
                budget[shape as usize] += 1;
            }
        }
        self.fitting.truncate(from);
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
    /// the others `b`, `c`, ... in reading order); both empty when the class has no puzzle,
    /// or fewer moves than the caller's floor ([`Class::hardest`]).
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

    /// The shape of each piece: the goal piece's, then the free pieces' in the order of
    /// [`Class::free`].
    fn shapes(&self) -> impl Iterator<Item = ShapeId> + '_ {
        std::iter::once(self.goal).chain(self.free.iter().copied())
    }

    /// The class's layout: its first solved position the start, the goal piece's target
    /// where it stands.
    fn layout(&self, shapes: &Shapes) -> Layout {
        let mut distinct: Vec<ShapeId> = Vec::with_capacity(self.pieces());
        let blocks: Vec<BlockAt> = self
            .shapes()
            .zip(std::iter::once(self.goal_anchor).chain(self.solved.iter().copied()))
            .enumerate()
            .map(|(b, (shape, anchor))| BlockAt {
                shape: distinct
                    .iter()
                    .position(|&d| d == shape)
                    .unwrap_or_else(|| {
                        distinct.push(shape);
                        distinct.len() - 1
                    }),
                start: u32::from(anchor),
                target: (b == 0).then_some(u32::from(anchor)),
            })
            .collect();
        let placed: Vec<(u64, u64)> = distinct
            .iter()
            .map(|&shape| {
                let placed = shapes.placed_at[shape as usize];
                (placed.cells, placed.firsts)
            })
            .collect();
        let board = shapes.board;
        Layout::of_blocks(board.width, board.height, &placed, &blocks)
    }

    /// Searches the class from all its solved positions at once and returns its hardest
    /// puzzle; the limit instead when `ctl` stops the search. A puzzle of fewer moves than
    /// `floor` (the best the caller holds) cannot replace the caller's, so it is not drawn:
    /// drawing every class's puzzle took a tenth of a run.
    pub fn hardest(
        &self,
        shapes: &Shapes,
        floor: Option<u32>,
        scratch: &mut Scratch,
        ctl: &SearchControl,
    ) -> Result<Hardest, Limit> {
        let layout = self.layout(shapes);
        debug_assert!(
            layout.unsupported().is_none(),
            "MAX_CELLS fits the search's keys"
        );
        with_layout(
            &layout,
            SearchClass {
                drawing: Drawing {
                    class: self,
                    shapes,
                    floor,
                },
                buffers: scratch,
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
    drawing: Drawing<'a>,
    buffers: &'a mut Scratch,
    ctl: &'a SearchControl,
}

/// How a class's search becomes its [`Hardest`].
struct Drawing<'a> {
    class: &'a Class,
    shapes: &'a Shapes,
    /// Puzzles of fewer moves are not drawn ([`Class::hardest`]).
    floor: Option<u32>,
}

impl WithSpace for SearchClass<'_> {
    type Output = Result<Hardest, Limit>;
    fn run<M: Bits, const N: usize>(self, space: SlidingSpace<'_, M, N>) -> Self::Output {
        let SearchClass {
            drawing,
            buffers,
            ctl,
        } = self;
        let class = drawing.class;
        let free = class.free.len();
        let ClassBuffers { explorer, sources } = buffers.of_keys::<N>();
        let mut anchors = [u32::from(class.goal_anchor); MAX_CELLS];
        let anchors = &mut anchors[..=free];
        sources.clear();
        if free == 0 {
            sources.push(space.key_of(anchors));
        } else {
            sources.extend(class.solved.chunks_exact(free).map(|position| {
                for (a, &p) in anchors[1..].iter_mut().zip(position) {
                    *a = u32::from(p);
                }
                space.key_of(anchors)
            }));
        }
        // Most classes are small: they are explored on this thread, and only a large one by
        // the engine's parallel search (which its memory budget follows), from the layers
        // explored here.
        Ok(
            match explorer.explore(&space, sources, true, SERIAL_STATES) {
                Ok(layers) => {
                    // The serial search has no checks of its own: an interrupt or the memory
                    // guard's request stops the run here, between classes.
                    ctl.check()?;
                    drawing.hardest_of(&space, &sources[0], layers)
                }
                Err(begun) => {
                    let layers = explore_further(&space, begun, true, ctl)?;
                    drawing.hardest_of(&space, &sources[0], &layers)
                }
            },
        )
    }
}

/// What the searches of one thread's classes keep from one class to the next, so that a
/// class allocates nothing it could reuse: the buffers of the last class's key type (a
/// unit's classes mostly share one).
#[derive(Default)]
pub struct Scratch {
    buffers: Option<Box<dyn Any + Send>>,
}

/// The buffers of classes whose keys have `N` words.
struct ClassBuffers<const N: usize> {
    explorer: SerialExplorer<Key<N>>,
    sources: Vec<Key<N>>,
}

impl Scratch {
    fn of_keys<const N: usize>(&mut self) -> &mut ClassBuffers<N> {
        let buffers = self.buffers.get_or_insert_with(|| Box::new(()));
        if !buffers.is::<ClassBuffers<N>>() {
            *buffers = Box::new(ClassBuffers::<N> {
                explorer: SerialExplorer::default(),
                sources: Vec::new(),
            });
        }
        buffers.downcast_mut().expect("buffers of this key type")
    }
}

/// The most positions of a class explored on one thread: past them, the parallel search goes
/// on from the layers completed, and the serial search's memory stays a few MiB per thread.
const SERIAL_STATES: usize = 1 << 18;

impl Drawing<'_> {
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
        let drawn = hardest.filter(|_| moves >= self.floor);
        let draw = |key: &Key<N>, goal_only| self.grid(&space.anchors(key), goal_only);
        Hardest {
            pieces: self.class.pieces(),
            moves,
            start: drawn.map(|key| draw(&key, false)).unwrap_or_default(),
            goal: drawn.map(|_| draw(solved, true)).unwrap_or_default(),
            states: layers.states(),
            puzzles,
        }
    }
}

impl Drawing<'_> {
    /// A position of the class (an anchor per piece, the goal piece first) as rows of
    /// characters joined by `\n`: the goal piece `A`, the others (unless `goal_only`) named in
    /// reading order, empty cells `.`.
    fn grid(&self, anchors: &[u32], goal_only: bool) -> String {
        let board = self.shapes.board;
        let mut owner: Vec<Option<usize>> = vec![None; board.cells()];
        let pieces = self.class.shapes().zip(anchors).enumerate();
        for (b, (shape, &anchor)) in pieces.take(if goal_only { 1 } else { usize::MAX }) {
            let mut cells = self.shapes.placed_at[shape as usize].cells << anchor;
            while let Some(cell) = cells.pop_lowest() {
                owner[cell] = Some(b);
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The listing meets a class once per solved position, with a tiling that knows nothing of
    /// the class's pieces: the class's own tiling, which gives up a branch where a piece left
    /// fits nowhere, must find as many positions, all distinct.
    #[test]
    fn a_class_tiling_finds_every_solved_position_the_listing_meets() {
        let shapes = Shapes::new(Board {
            width: 4,
            height: 3,
        });
        let mut classes = 0;
        for goal in shapes.goal_shapes(Goal::Box) {
            let mut met: HashMap<Vec<ShapeId>, usize> = HashMap::new();
            for part in shapes.listing_parts(goal, None) {
                shapes.list_part(&part, None, |free| {
                    *met.entry(free.to_vec()).or_default() += 1
                });
            }
            for (free, times) in met.into_iter().filter(|(free, _)| !free.is_empty()) {
                let class = shapes.class(goal, free.clone());
                let positions: HashSet<&[u8]> = class.solved.chunks(free.len()).collect();
                assert_eq!(class.solved.len(), times * free.len(), "{goal} {free:?}");
                assert_eq!(positions.len(), times, "{goal} {free:?}");
                classes += 1;
            }
        }
        assert!(classes > 1000, "{classes} classes");
    }
}
