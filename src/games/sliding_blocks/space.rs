//! The packed search space of a puzzle: precomputed shape tables on a bitboard, and the engine's
//! [`Space`].
//!
//! Cells are numbered row-major over the board's bounding box (`stride` = its width); shifts by one
//! are masked so they never wrap from one row's end into the next row's start. A block's
//! **anchor** is the grid index of its first cell. Per distinct shape the tables hold the cell
//! offsets from the anchor, the set of anchors that keep the whole block on the board (its
//! in-bounds table), and the cell mask of every such placement (its collision table: two
//! placements collide exactly when their masks intersect). The valid anchors of a shape, in grid
//! order, are numbered densely: that **placement index** is what a state stores, in as few bits
//! as the shape's placements need.
//!
//! A state stores one placement index per block slot. Slots are ordered goal blocks first, then free
//! blocks grouped by shape; each group of interchangeable free blocks is kept sorted (successors
//! are generated in that canonical form directly, so the engine's `canonical` hook is not
//! needed), and permutations of identical blocks are one state (spec R6).
//!
//! One block's moves are computed bit-parallel: the anchors where it fits among the other blocks
//! are the intersection of the free cells shifted by each of its cell offsets; a flood fill of
//! that set by (masked) shifts of ±1 and ±stride from its anchor gives every placement it can reach by
//! unit steps (any-path moves, spec R2). Each reached placement but the start is one successor.

use std::collections::{HashMap, VecDeque};

use super::bits::{Bits, Field, Key, Steps};
use super::rules::{Cell, Dir, Puzzle};
use crate::engine::{self, Heuristic, MoveBudget, Space, Stored};

/// The most grid cells (board width times height) the search supports.
pub const MAX_GRID: usize = 1024;
/// The most key words the search supports.
pub const MAX_KEY_WORDS: usize = 16;

/// One distinct shape's placements, independent of the bitboard type.
struct ShapePlacements {
    /// Grid offsets of the cells from the anchor (the first cell, so all are ≥ 0).
    offsets: Vec<usize>,
    /// Anchors (grid indices) that keep every cell on the board.
    anchors: Vec<usize>,
}

/// Everything about a puzzle's state space that does not depend on the bitboard type.
pub struct Layout {
    stride: usize,
    /// Grid cells: `width * height`.
    pub grid: usize,
    /// Grid indices of the board cells.
    board: Vec<usize>,
    shapes: Vec<ShapePlacements>,
    /// Block index of each slot.
    slot_block: Vec<usize>,
    /// Shape index of each slot.
    slot_shape: Vec<usize>,
    /// Slot ranges of interchangeable free blocks (two or more of one shape).
    groups: Vec<(usize, usize)>,
    /// Start anchor of each block.
    start: Vec<u32>,
    /// Target anchor of each goal block (by block index).
    targets: Vec<Option<u32>>,
    /// Bits of each slot's field.
    slot_width: Vec<u32>,
    /// Words a key needs.
    pub key_words: usize,
}

/// A block as [`Layout::of_blocks`] takes it: its shape's index, its start anchor and, for a
/// goal block, its target anchor.
pub struct BlockAt {
    pub shape: usize,
    pub start: u32,
    pub target: Option<u32>,
}

impl Layout {
    pub fn new(puzzle: &Puzzle) -> Layout {
        let stride = puzzle.width;
        let index = |c: Cell| c.row as usize * stride + c.col as usize;
        let board: Vec<usize> = (0..puzzle.height as i32)
            .flat_map(|row| (0..puzzle.width as i32).map(move |col| Cell { row, col }))
            .filter(|&c| puzzle.is_board(c))
            .map(index)
            .collect();
        let mut shapes: Vec<(Vec<Cell>, ShapePlacements)> = Vec::new();
        let blocks: Vec<BlockAt> = puzzle
            .blocks
            .iter()
            .map(|block| {
                let cells = block.shape();
                let shape = shapes
                    .iter()
                    .position(|(s, _)| *s == cells)
                    .unwrap_or_else(|| {
                        let anchors = (0..puzzle.height as i32)
                            .flat_map(|row| {
                                (0..puzzle.width as i32).map(move |col| Cell { row, col })
                            })
                            .filter(|&a| cells.iter().all(|&c| puzzle.is_board(a.plus(c))))
                            .map(index)
                            .collect();
                        let offsets = cells
                            .iter()
                            .map(|c| (c.row as usize * stride).wrapping_add_signed(c.col as isize))
                            .collect();
                        shapes.push((cells, ShapePlacements { offsets, anchors }));
                        shapes.len() - 1
                    });
                BlockAt {
                    shape,
                    start: index(block.cells[0]) as u32,
                    target: block.target.map(|t| index(block.cells[0].plus(t)) as u32),
                }
            })
            .collect();
        let shapes = shapes.into_iter().map(|(_, s)| s).collect();
        Layout::assemble(stride, puzzle.height, board, shapes, &blocks)
    }

    /// The layout of a board of `width` × `height` cells without walls whose shapes are given
    /// as each one's cells with its first cell (its anchor) at cell 0, and each one's anchors:
    /// what `generate` knows of its millions of classes, whose puzzles it would be slower to
    /// build. `blocks` number the shapes in order of first appearance, as [`Layout::new`]
    /// does, so that both give one puzzle the same keys.
    pub fn of_blocks(
        width: usize,
        height: usize,
        shapes: &[(u64, u64)],
        blocks: &[BlockAt],
    ) -> Layout {
        let bits = |mut mask: u64| std::iter::from_fn(move || mask.pop_lowest());
        let shapes = shapes
            .iter()
            .map(|&(cells, anchors)| ShapePlacements {
                offsets: bits(cells).collect(),
                anchors: bits(anchors).collect(),
            })
            .collect();
        Layout::assemble(width, height, (0..width * height).collect(), shapes, blocks)
    }

    fn assemble(
        stride: usize,
        height: usize,
        board: Vec<usize>,
        shapes: Vec<ShapePlacements>,
        blocks: &[BlockAt],
    ) -> Layout {
        // Slots: goal blocks, then free blocks grouped by shape.
        let is_goal = |b: &usize| blocks[*b].target.is_some();
        let mut slot_block: Vec<usize> = (0..blocks.len()).filter(is_goal).collect();
        let mut groups = Vec::new();
        for shape in 0..shapes.len() {
            let first = slot_block.len();
            slot_block
                .extend((0..blocks.len()).filter(|b| !is_goal(b) && blocks[*b].shape == shape));
            if slot_block.len() - first > 1 {
                groups.push((first, slot_block.len() - first));
            }
        }
        let slot_shape: Vec<usize> = slot_block.iter().map(|&b| blocks[b].shape).collect();
        let slot_width: Vec<u32> = slot_shape
            .iter()
            .map(|&s| usize::BITS - (shapes[s].anchors.len() - 1).leading_zeros())
            .collect();
        let (_, key_words) = Field::layout(&slot_width);
        Layout {
            stride,
            grid: stride * height,
            board,
            shapes,
            slot_block,
            slot_shape,
            groups,
            start: blocks.iter().map(|b| b.start).collect(),
            targets: blocks.iter().map(|b| b.target).collect(),
            slot_width,
            key_words,
        }
    }

    /// The slot holding `block` in keys before canonicalisation.
    fn slot_of(&self, block: usize) -> usize {
        self.slot_block
            .iter()
            .position(|&b| b == block)
            .expect("every block has a slot")
    }

    /// Why the search cannot handle this puzzle, if it cannot.
    pub fn unsupported(&self) -> Option<String> {
        if self.grid > MAX_GRID {
            Some(format!(
                "unsupported: the board needs {} grid cells, the solver handles at most {MAX_GRID}",
                self.grid
            ))
        } else if self.key_words > MAX_KEY_WORDS {
            Some(format!(
                "unsupported: a position needs {} bits, the solver handles at most {}",
                self.key_words * 64,
                MAX_KEY_WORDS * 64
            ))
        } else {
            None
        }
    }
}

/// One shape's tables as bitboards.
struct ShapeTable<M> {
    offsets: Vec<usize>,
    /// Anchors that keep the block on the board.
    anchors: M,
    /// The anchor of each placement index.
    anchor_of: Vec<u32>,
    /// The placement index of each anchor (grid index); `u32::MAX` off `anchors`.
    placement_of: Vec<u32>,
    /// Cells covered, by placement.
    masks: Vec<M>,
    /// Board cells next to the block but not under it, by placement: a block with no free cell
    /// there cannot move, which most blocks of a crowded puzzle cannot.
    halos: Vec<M>,
    /// By placement: whether the block covers a cell of some goal block's target there.
    on_targets: Vec<bool>,
}

/// Where a slot's entries start in [`SlidingSpace::must_move`].
type TableOffset = usize;

/// A slot's shape and field, its group of interchangeable slots (itself alone for most), and
/// for a goal block its target placement.
#[derive(Clone, Copy)]
struct Slot {
    shape: usize,
    field: Field,
    group: (usize, usize),
    target: Option<u32>,
}

/// The engine's view of a puzzle: `M` holds grid cells, keys have `N` words.
pub struct SlidingSpace<'a, M, const N: usize> {
    layout: &'a Layout,
    board: M,
    /// Unit steps on the grid, for the flood fill of a block's moves.
    steps: Steps<M>,
    shapes: Vec<ShapeTable<M>>,
    slots: Vec<Slot>,
    start: Key<N>,
    goal_mask: Key<N>,
    goal_value: Key<N>,
    /// Per slot (from its offset), by placement: 1 when the block there must still move at
    /// least once (a goal block off its target, a free block on a target cell), else 0.
    must_move: Vec<u8>,
    must_move_at: Vec<TableOffset>,
    /// The slot owning each bit of a key (the last slot for unused bits).
    slot_at_bit: Vec<u8>,
}

impl<'a, M: Bits, const N: usize> SlidingSpace<'a, M, N> {
    pub fn new(layout: &'a Layout) -> Self {
        assert!(layout.grid <= M::CAPACITY && layout.key_words <= N);
        let set = |cells: &mut dyn Iterator<Item = usize>| {
            let mut m = M::empty();
            cells.for_each(|c| m.insert(c));
            m
        };
        let board = set(&mut layout.board.iter().copied());
        let steps = Steps::new(layout.grid, layout.stride);
        let cover = |shape: &ShapePlacements, anchor: usize| {
            set(&mut shape.offsets.iter().map(|o| anchor + o))
        };
        let mut target_cells = M::empty();
        for (block, target) in layout.targets.iter().enumerate() {
            if let Some(t) = target {
                let shape = &layout.shapes[layout.slot_shape[layout.slot_of(block)]];
                target_cells = target_cells.or(cover(shape, *t as usize));
            }
        }
        let shapes: Vec<ShapeTable<M>> = layout
            .shapes
            .iter()
            .map(|s| {
                let masks: Vec<M> = s.anchors.iter().map(|&a| cover(s, a)).collect();
                let mut placement_of = vec![u32::MAX; layout.grid];
                for (p, &a) in s.anchors.iter().enumerate() {
                    placement_of[a] = p as u32;
                }
                ShapeTable {
                    halos: masks
                        .iter()
                        .map(|&m| steps.around(m).and(board).and_not(m))
                        .collect(),
                    offsets: s.offsets.clone(),
                    anchors: set(&mut s.anchors.iter().copied()),
                    anchor_of: s.anchors.iter().map(|&a| a as u32).collect(),
                    placement_of,
                    on_targets: masks
                        .iter()
                        .map(|m| !m.and(target_cells).is_empty())
                        .collect(),
                    masks,
                }
            })
            .collect();
        let (fields, _) = Field::layout(&layout.slot_width);
        let slots: Vec<Slot> = (0..layout.slot_block.len())
            .zip(fields)
            .map(|(slot, field)| Slot {
                shape: layout.slot_shape[slot],
                field,
                group: layout
                    .groups
                    .iter()
                    .copied()
                    .find(|&(first, len)| (first..first + len).contains(&slot))
                    .unwrap_or((slot, 1)),
                target: layout.targets[layout.slot_block[slot]]
                    .map(|t| shapes[layout.slot_shape[slot]].placement_of[t as usize]),
            })
            .collect();
        let mut slot_at_bit = vec![(slots.len() - 1) as u8; N * 64];
        for (i, slot) in slots.iter().enumerate().rev() {
            let first = slot.field.word as usize * 64 + slot.field.shift as usize;
            let width = slot.field.mask.count_ones() as usize;
            slot_at_bit[first..first + width].fill(i as u8);
        }
        let mut space = SlidingSpace {
            layout,
            board,
            steps,
            shapes,
            slots,
            start: Key::ZERO,
            goal_mask: Key::ZERO,
            goal_value: Key::ZERO,
            must_move: Vec::new(),
            must_move_at: Vec::new(),
            slot_at_bit,
        };
        for slot in &space.slots {
            space.must_move_at.push(space.must_move.len());
            let on_targets = &space.shapes[slot.shape].on_targets;
            space
                .must_move
                .extend((0..on_targets.len()).map(|p| match slot.target {
                    Some(t) => u8::from(p != t as usize),
                    None => u8::from(on_targets[p]),
                }));
        }
        space.start = space.key_of(&layout.start);
        for slot in &space.slots {
            if let Some(target) = slot.target {
                space.goal_mask.set(slot.field, u32::MAX);
                space.goal_value.set(slot.field, target);
            }
        }
        space
    }

    /// The one goal state, when every block is a goal block.
    pub fn unique_goal(&self) -> Option<Key<N>> {
        self.slots
            .iter()
            .all(|s| s.target.is_some())
            .then_some(self.goal_value)
    }

    /// The canonical key of a concrete position (an anchor per block, in the puzzle's block
    /// order): each group of interchangeable blocks sorted.
    pub fn key_of(&self, anchors: &[u32]) -> Key<N> {
        let mut key = Key::ZERO;
        for (slot, s) in self.slots.iter().enumerate() {
            let block = self.layout.slot_block[slot];
            key.set(
                s.field,
                self.shapes[s.shape].placement_of[anchors[block] as usize],
            );
        }
        // Each group sorted where it lies, by insertion: a generated class's positions come
        // with their groups sorted already, and allocate nothing here.
        for &(first, len) in &self.layout.groups {
            for slot in first + 1..first + len {
                let mut at = slot;
                let placement = key.get(self.slots[at].field);
                while at > first && key.get(self.slots[at - 1].field) > placement {
                    key.set(self.slots[at].field, key.get(self.slots[at - 1].field));
                    at -= 1;
                }
                key.set(self.slots[at].field, placement);
            }
        }
        key
    }

    /// The anchor of every block in `state`, in the puzzle's block order (blocks of one
    /// interchangeable group in any order among themselves).
    pub fn anchors(&self, state: &Key<N>) -> Vec<u32> {
        let mut anchors = vec![0; self.slots.len()];
        for (slot, s) in self.slots.iter().enumerate() {
            anchors[self.layout.slot_block[slot]] =
                self.shapes[s.shape].anchor_of[state.get(s.field) as usize];
        }
        anchors
    }

    /// `state` as a one-puzzle `.txt` file (docs/sliding-blocks.md): its grid, an empty line,
    /// and the puzzle's goal grid. Off-board cells are spaces.
    pub fn level_file(&self, puzzle: &Puzzle, state: &Key<N>) -> String {
        let stride = self.layout.stride;
        let draw = |at: &dyn Fn(usize) -> Vec<usize>, goals_only: bool| {
            let mut grid: Vec<char> = (0..self.layout.grid)
                .map(|i| if self.board.contains(i) { '.' } else { ' ' })
                .collect();
            for (b, block) in puzzle.blocks.iter().enumerate() {
                if !goals_only || block.is_goal() {
                    for cell in at(b) {
                        grid[cell] = block.name;
                    }
                }
            }
            grid.chunks(stride)
                .map(|row| row.iter().collect::<String>())
                .collect::<Vec<_>>()
                .join("\n")
        };
        let anchors = self.anchors(state);
        let placed = |b: usize| {
            let shape = self.shape_of_block(b);
            shape
                .offsets
                .iter()
                .map(|o| anchors[b] as usize + o)
                .collect()
        };
        let target = |b: usize| {
            let block = &puzzle.blocks[b];
            let to = block.target.unwrap_or(Cell::ZERO);
            let index = |c: Cell| c.row as usize * stride + c.col as usize;
            block.cells.iter().map(|&c| index(c.plus(to))).collect()
        };
        format!("{}\n\n{}\n", draw(&placed, false), draw(&target, true))
    }

    /// The anchor of the first goal block in `state`, if the puzzle has one (goal blocks hold
    /// the first slots).
    #[inline]
    pub fn first_goal_anchor(&self, state: &Key<N>) -> Option<u32> {
        let slot = self.slots.first().filter(|s| s.target.is_some())?;
        Some(self.shapes[slot.shape].anchor_of[state.get(slot.field) as usize])
    }

    /// `state` with the block of `slot` moved to placement `to`, its group kept sorted (spec
    /// R6): the other placements of the group are sorted already, so `to` bubbles into place.
    #[inline]
    fn moved(&self, state: &Key<N>, slot: usize, to: u32) -> Key<N> {
        let (first, len) = self.slots[slot].group;
        let mut key = *state;
        let field = |i: usize| self.slots[i].field;
        let mut j = slot;
        while j > first && key.get(field(j - 1)) > to {
            key.set(field(j), key.get(field(j - 1)));
            j -= 1;
        }
        while j + 1 < first + len && key.get(field(j + 1)) < to {
            key.set(field(j), key.get(field(j + 1)));
            j += 1;
        }
        key.with(field(j), to)
    }

    /// The anchors where `shape` lies entirely on `free` cells.
    #[inline]
    fn fits(&self, shape: &ShapeTable<M>, free: M) -> M {
        shape
            .offsets
            .iter()
            .fold(shape.anchors, |fit, &o| fit.and(free.shr(o)))
    }

    /// Every anchor of `fit` connected to `from` by unit steps inside `fit` (`from` included).
    #[inline]
    fn flood(&self, from: usize, fit: M) -> M {
        let mut reached = M::empty();
        reached.insert(from);
        loop {
            let grown = self.steps.around(reached).and(fit).or(reached);
            if grown == reached {
                return reached;
            }
            reached = grown;
        }
    }

    /// The cells of every block of a concrete position but `except`.
    fn occupied_except(&self, anchors: &[u32], except: Option<usize>) -> M {
        (0..anchors.len())
            .filter(|&b| Some(b) != except)
            .fold(M::empty(), |occ, b| {
                let shape = self.shape_of_block(b);
                occ.or(shape.masks[shape.placement_of[anchors[b] as usize] as usize])
            })
    }

    fn shape_of_block(&self, block: usize) -> &ShapeTable<M> {
        &self.shapes[self.slots[self.layout.slot_of(block)].shape]
    }

    /// The slot of `state` holding the block that moved from `parent` to `state`.
    ///
    /// Without a loop over the group: only one group's fields change (a move moves one block,
    /// and [`Self::moved`] keeps its group sorted by shifting the blocks between the old and
    /// the new slot by one), fields lie in slot order, so the lowest and the highest differing
    /// bits name the ends of the changed run of slots. The moved block is at the high end if it
    /// went up (the low slot now holds a larger placement than before), else at the low end.
    #[inline]
    fn moved_slot(&self, state: &Key<N>, parent: &Key<N>) -> Option<usize> {
        let diff: [u64; N] = std::array::from_fn(|w| state.0[w] ^ parent.0[w]);
        let low_word = diff.iter().position(|&d| d != 0)?;
        let high_word = diff.iter().rposition(|&d| d != 0)?;
        let low = self.slot_at_bit[low_word * 64 + diff[low_word].trailing_zeros() as usize];
        let high = self.slot_at_bit[high_word * 64 + 63 - diff[high_word].leading_zeros() as usize];
        let field = self.slots[usize::from(low)].field;
        let up = low != high && state.get(field) > parent.get(field);
        Some(usize::from(if up { high } else { low }))
    }

    /// Turns a path of keys into the notation: each move as the real block's name and a
    /// shortest chain of unit steps, tried in the order U, D, L, R (spec §3).
    pub fn notation(&self, puzzle: &Puzzle, path: &[Key<N>]) -> String {
        let mut anchors = self.layout.start.clone();
        let mut tokens = Vec::with_capacity(path.len().saturating_sub(1));
        for next in path.iter().skip(1) {
            let (block, to) = self
                .find_move(&anchors, next)
                .expect("consecutive states of a search path differ by one move");
            let steps = self.step_path(block, &anchors, to);
            tokens.push(format!("{}:{}", puzzle.blocks[block].name, steps));
            anchors[block] = to;
        }
        tokens.join(" ")
    }

    /// The block and anchor that turn the concrete position into `next`.
    fn find_move(&self, anchors: &[u32], next: &Key<N>) -> Option<(usize, u32)> {
        (0..anchors.len()).find_map(|block| {
            let shape = self.shape_of_block(block);
            let free = self
                .board
                .and_not(self.occupied_except(anchors, Some(block)));
            let from = anchors[block] as usize;
            let mut reached = self.flood(from, self.fits(shape, free));
            std::iter::from_fn(|| reached.pop_lowest())
                .filter(|&to| to != from)
                .find(|&to| {
                    let mut moved = anchors.to_vec();
                    moved[block] = to as u32;
                    self.key_of(&moved) == *next
                })
                .map(|to| (block, to as u32))
        })
    }

    /// A shortest chain of unit steps for `block` to `to`, breadth-first in the order U, D, L, R.
    fn step_path(&self, block: usize, anchors: &[u32], to: u32) -> String {
        let shape = self.shape_of_block(block);
        let fit = self.fits(
            shape,
            self.board
                .and_not(self.occupied_except(anchors, Some(block))),
        );
        let stride = self.layout.stride;
        let from = anchors[block] as usize;
        let mut came_from: HashMap<usize, (usize, Dir)> = HashMap::new();
        let mut queue = VecDeque::from([from]);
        while let Some(p) = queue.pop_front() {
            if p == to as usize {
                break;
            }
            let neighbours = [
                (p.checked_sub(stride), Dir::Up),
                (Some(p + stride), Dir::Down),
                ((p % stride != 0).then(|| p - 1), Dir::Left),
                ((p % stride != stride - 1).then_some(p + 1), Dir::Right),
            ];
            for (q, dir) in neighbours {
                let Some(q) = q.filter(|&q| q < self.layout.grid) else {
                    continue;
                };
                if q != from && fit.contains(q) && !came_from.contains_key(&q) {
                    came_from.insert(q, (p, dir));
                    queue.push_back(q);
                }
            }
        }
        let mut steps = Vec::new();
        let mut at = to as usize;
        while at != from {
            let (prev, dir) = came_from[&at];
            steps.push(dir.letter());
            at = prev;
        }
        steps.iter().rev().collect()
    }
}

impl<M: Bits, const N: usize> Space for SlidingSpace<'_, M, N> {
    type State = Key<N>;

    fn start(&self) -> Key<N> {
        self.start
    }

    /// Every move of every block ([`Stored::successors_after`] with no move before).
    #[inline]
    fn successors(&self, state: &Key<N>, out: &mut Vec<Key<N>>) {
        self.successors_after(state, None, out)
    }

    #[inline]
    fn is_goal(&self, state: &Key<N>) -> bool {
        state.and(&self.goal_mask) == self.goal_value
    }
}

impl<M: Bits, const N: usize> Stored for SlidingSpace<'_, M, N> {
    /// A block can always go back the way it came: the engine keeps no parent links. Only the
    /// bytes up to the last field's last bit are stored: the rest of a key is always zero. The
    /// moves are tagged with the block that moved.
    fn layout(&self) -> engine::Layout {
        let bits = self
            .slots
            .iter()
            .map(|slot| {
                let field = slot.field;
                usize::from(field.word) * 64
                    + usize::from(field.shift)
                    + field.mask.count_ones() as usize
            })
            .max()
            .unwrap_or(0);
        engine::Layout {
            bytes: bits.div_ceil(8).max(1),
            reversible: true,
            tagged: true,
        }
    }

    /// The slot of the block that moved (slots past 254 are not tagged: their moves are never
    /// skipped).
    #[inline]
    fn move_tag(&self, state: &Key<N>, parent: &Key<N>) -> Option<u8> {
        self.moved_slot(state, parent)
            .and_then(|slot| u8::try_from(slot).ok())
    }

    /// Every move of every block but the one just moved (`came_by`, its slot): moving it again
    /// only reaches positions one move from the parent (spec R5).
    #[inline]
    fn successors_after(&self, state: &Key<N>, came_by: Option<u8>, out: &mut Vec<Key<N>>) {
        let occupied = self.slots.iter().fold(M::empty(), |occ, slot| {
            occ.or(self.shapes[slot.shape].masks[state.get(slot.field) as usize])
        });
        let free = self.board.and_not(occupied);
        let skip = came_by.map(usize::from);
        // First, without branches, which blocks have a free cell next to them (whether a block
        // can move is unpredictable, so a branch per block would often be mispredicted); then
        // the moves of those only.
        for base in (0..self.slots.len()).step_by(64) {
            let slots = &self.slots[base..self.slots.len().min(base + 64)];
            let mut movable = slots.iter().enumerate().fold(0u64, |bits, (i, slot)| {
                let placement = state.get(slot.field) as usize;
                let free_next = !self.shapes[slot.shape].halos[placement]
                    .and(free)
                    .is_empty();
                bits | u64::from(free_next) << i
            });
            if let Some(skip) = skip.filter(|s| (base..base + 64).contains(s)) {
                movable &= !(1 << (skip - base));
            }
            while movable != 0 {
                let i = movable.trailing_zeros() as usize;
                movable &= movable - 1;
                let slot = &slots[i];
                let shape = &self.shapes[slot.shape];
                let placement = state.get(slot.field) as usize;
                let fit = self.fits(shape, free.or(shape.masks[placement]));
                let from = shape.anchor_of[placement] as usize;
                let mut reached = self.flood(from, fit);
                while let Some(to) = reached.pop_lowest() {
                    if to != from {
                        out.push(self.moved(state, base + i, shape.placement_of[to]));
                    }
                }
            }
        }
    }
}

impl<M: Bits, const N: usize> Heuristic for SlidingSpace<'_, M, N> {
    /// Blocks that must still move at least once: goal blocks off their target and free blocks
    /// covering a target cell. A move moves one block, so this never overestimates and changes
    /// by at most 1 per move (admissible and consistent).
    #[inline]
    fn heuristic(&self, state: &Key<N>) -> Option<u32> {
        let h = self
            .slots
            .iter()
            .zip(&self.must_move_at)
            .map(|(slot, &at)| u32::from(self.must_move[at + state.get(slot.field) as usize]))
            .sum();
        Some(h)
    }
}

impl<M: Bits, const N: usize> MoveBudget for SlidingSpace<'_, M, N> {}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::engine::SearchControl;
    use crate::games::sliding_blocks::tests::level;
    use crate::games::sliding_blocks::{WithSpace, reachable_positions, with_space};

    #[test]
    fn interchangeable_blocks_are_one_state_but_goal_blocks_never_are() {
        let ctl = SearchControl::unlimited();
        // Two free 1x1 blocks on a 1x3 strip: 3 positions. As goal blocks they are distinct, but
        // cannot pass each other on the strip: again 3.
        assert_eq!(reachable_positions(&level("ab.", "..."), &ctl), Ok(3));
        let ctl = SearchControl::unlimited();
        assert_eq!(reachable_positions(&level("ab.", "ab."), &ctl), Ok(3));
        // On a 2x3 board: 6 * 5 ordered placements of distinct blocks, 15 of identical ones.
        let ctl = SearchControl::unlimited();
        assert_eq!(
            reachable_positions(&level("ab.\n...", "ab.\n..."), &ctl),
            Ok(30)
        );
        let ctl = SearchControl::unlimited();
        assert_eq!(
            reachable_positions(&level("ab.\n...", "...\n..."), &ctl),
            Ok(15)
        );
    }

    /// Walks every position reachable from the start and checks the move tag's one promise at each
    /// move: skipping the tagged block's moves (spec R5) skips the way back, and otherwise only
    /// positions one move from the parent. Returns the positions walked.
    struct SkipOnlyReturns;

    impl WithSpace for SkipOnlyReturns {
        type Output = usize;
        fn run<M: Bits, const N: usize>(self, space: SlidingSpace<'_, M, N>) -> usize {
            let mut seen = HashSet::from([space.start()]);
            let mut todo = vec![space.start()];
            let (mut near, mut all, mut kept) = (Vec::new(), Vec::new(), Vec::new());
            while let Some(parent) = todo.pop() {
                near.clear();
                space.successors(&parent, &mut near);
                for &state in &near {
                    let tag = space.move_tag(&state, &parent);
                    all.clear();
                    space.successors(&state, &mut all);
                    kept.clear();
                    space.successors_after(&state, tag, &mut kept);
                    assert!(!kept.contains(&parent), "tag {tag:?} keeps the way back");
                    for skipped in all.iter().filter(|s| !kept.contains(s)) {
                        assert!(
                            *skipped == parent || near.contains(skipped),
                            "tag {tag:?} skips a position two moves from the parent"
                        );
                    }
                    if seen.insert(state) {
                        todo.push(state);
                    }
                }
            }
            seen.len()
        }
    }

    #[test]
    fn the_move_tag_names_the_block_that_moved() {
        // Five interchangeable 1x1 blocks (kept sorted in the key, so a move may shift the others'
        // slots) beside a 2x1 and a 1x2 block.
        let walked = with_space(
            &level("aab.\nc.d.\ne.fg\n..hg", "....\n....\n....\n...."),
            SkipOnlyReturns,
        );
        assert!(walked > 1000, "{walked} positions");
    }
}
