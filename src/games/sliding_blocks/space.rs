//! The packed search space of a puzzle: precomputed placement tables and the engine's [`Space`].
//!
//! For every distinct block shape, a **placement** is a translation that keeps all its cells on
//! the board. Per shape the tables hold each placement's cell mask (its in-bounds and collision
//! table: two placements collide exactly when their masks intersect) and its four neighbouring
//! placements (U, D, L, R; `NONE` off the board). A state stores one placement index per block
//! slot. Slots are ordered goal blocks first, then free blocks grouped by shape; each group of
//! interchangeable free blocks is kept sorted ([`Space::canonical`]), so permutations of
//! identical blocks are one state (spec R6).
//!
//! A move of one block is a flood fill over its placements that avoids the other blocks: every
//! placement reached, other than the start, is one successor (any-path moves, spec R2).

use std::collections::HashMap;
use std::collections::VecDeque;

use super::bits::{CellSet, Field, Key};
use super::rules::{Cell, Dir, Puzzle};
use crate::engine::Space;

/// No neighbouring placement in that direction.
const NONE: u32 = u32::MAX;

/// The most board cells the search supports (a placement set must fit a cell set).
pub const MAX_CELLS: usize = 1024;
/// The most key bits the search supports.
pub const MAX_KEY_WORDS: usize = 16;

/// One shape's placements, independent of the bit-set type.
struct ShapePlacements {
    /// Cells relative to the shape's first cell.
    cells: Vec<Cell>,
    /// The board cell of the shape's first cell, per placement.
    anchors: Vec<Cell>,
    /// Neighbouring placement per direction (U, D, L, R).
    neighbours: Vec<[u32; 4]>,
    /// Board cell indices covered, per placement.
    covers: Vec<Vec<usize>>,
}

/// Everything about a puzzle's state space that does not depend on the bit-set types.
pub struct Layout {
    shapes: Vec<ShapePlacements>,
    /// Block index of each slot.
    slot_block: Vec<usize>,
    /// Shape index of each slot.
    slot_shape: Vec<usize>,
    /// Bit width of each slot's field.
    slot_width: Vec<u32>,
    /// Slot ranges of interchangeable free blocks (two or more of one shape).
    groups: Vec<(usize, usize)>,
    /// Start placement of each block.
    start: Vec<u32>,
    /// Target placement of each goal block (by block index).
    targets: Vec<Option<u32>>,
    /// Board cells of the puzzle.
    pub cell_count: usize,
    /// Words a key needs.
    pub key_words: usize,
}

impl Layout {
    pub fn new(puzzle: &Puzzle) -> Layout {
        let mut cell_index = HashMap::new();
        for row in 0..puzzle.height as i32 {
            for col in 0..puzzle.width as i32 {
                let cell = Cell { row, col };
                if puzzle.is_board(cell) {
                    let next = cell_index.len();
                    cell_index.insert(cell, next);
                }
            }
        }
        // Shapes, in order of first use; goal blocks never share a group but may share a table.
        let mut shapes: Vec<ShapePlacements> = Vec::new();
        let block_shape: Vec<usize> = puzzle
            .blocks
            .iter()
            .map(|block| {
                let cells = block.shape();
                shapes
                    .iter()
                    .position(|s| s.cells == cells)
                    .unwrap_or_else(|| {
                        shapes.push(ShapePlacements::new(cells, &cell_index));
                        shapes.len() - 1
                    })
            })
            .collect();
        let placement = |block: usize, offset: Cell| -> u32 {
            let anchor = puzzle.blocks[block].cells[0].plus(offset);
            let shape = &shapes[block_shape[block]];
            shape
                .anchors
                .iter()
                .position(|&a| a == anchor)
                .expect("a block lies on the board") as u32
        };
        let start: Vec<u32> = (0..puzzle.blocks.len())
            .map(|b| placement(b, Cell::ZERO))
            .collect();
        let targets: Vec<Option<u32>> = (0..puzzle.blocks.len())
            .map(|b| puzzle.blocks[b].target.map(|t| placement(b, t)))
            .collect();
        // Slots: goal blocks, then free blocks grouped by shape.
        let mut slot_block: Vec<usize> = (0..puzzle.blocks.len())
            .filter(|&b| puzzle.blocks[b].is_goal())
            .collect();
        let mut groups = Vec::new();
        for shape in 0..shapes.len() {
            let first = slot_block.len();
            slot_block.extend(
                (0..puzzle.blocks.len())
                    .filter(|&b| !puzzle.blocks[b].is_goal() && block_shape[b] == shape),
            );
            if slot_block.len() - first > 1 {
                groups.push((first, slot_block.len() - first));
            }
        }
        let slot_shape: Vec<usize> = slot_block.iter().map(|&b| block_shape[b]).collect();
        let slot_width: Vec<u32> = slot_shape
            .iter()
            .map(|&s| usize::BITS - (shapes[s].anchors.len() - 1).leading_zeros())
            .collect();
        let (_, key_words) = Field::layout(&slot_width);
        Layout {
            shapes,
            slot_block,
            slot_shape,
            slot_width,
            groups,
            start,
            targets,
            cell_count: cell_index.len(),
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
        if self.cell_count > MAX_CELLS {
            Some(format!(
                "unsupported: the board has {} cells, the solver handles at most {MAX_CELLS}",
                self.cell_count
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

impl ShapePlacements {
    fn new(cells: Vec<Cell>, cell_index: &HashMap<Cell, usize>) -> ShapePlacements {
        let mut anchors: Vec<Cell> = cell_index
            .keys()
            .copied()
            .filter(|&a| cells.iter().all(|&c| cell_index.contains_key(&a.plus(c))))
            .collect();
        anchors.sort();
        let index: HashMap<Cell, u32> = anchors
            .iter()
            .enumerate()
            .map(|(i, &a)| (a, i as u32))
            .collect();
        let neighbours = anchors
            .iter()
            .map(|&a| Dir::ALL.map(|d| index.get(&a.plus(d.delta())).copied().unwrap_or(NONE)))
            .collect();
        let covers = anchors
            .iter()
            .map(|&a| cells.iter().map(|&c| cell_index[&a.plus(c)]).collect())
            .collect();
        ShapePlacements {
            cells,
            anchors,
            neighbours,
            covers,
        }
    }
}

/// One shape's tables in the search's bit-set type.
struct ShapeTable<M> {
    masks: Vec<M>,
    neighbours: Vec<[u32; 4]>,
    /// Placements that cover a cell of some goal block's target.
    on_targets: M,
}

/// A slot's shape and field, its group of interchangeable slots (itself alone for most), and
/// for a goal block its target placement.
#[derive(Clone, Copy)]
struct Slot {
    shape: usize,
    field: Field,
    group: (usize, usize),
    target: Option<u32>,
}

/// The engine's view of a puzzle: `M` holds board cells, keys have `N` words.
pub struct SlidingSpace<'a, M, const N: usize> {
    layout: &'a Layout,
    shapes: Vec<ShapeTable<M>>,
    slots: Vec<Slot>,
    start: Key<N>,
    goal_mask: Key<N>,
    goal_value: Key<N>,
}

impl<'a, M: CellSet, const N: usize> SlidingSpace<'a, M, N> {
    pub fn new(layout: &'a Layout) -> Self {
        assert!(layout.cell_count <= M::CAPACITY && layout.key_words <= N);
        let mut target_cells = M::empty();
        for (block, target) in layout.targets.iter().enumerate() {
            if let Some(t) = target {
                let shape = &layout.shapes[layout.slot_shape[layout.slot_of(block)]];
                shape.covers[*t as usize]
                    .iter()
                    .for_each(|&c| target_cells.insert(c));
            }
        }
        let shapes = layout
            .shapes
            .iter()
            .map(|s| ShapeTable {
                masks: s
                    .covers
                    .iter()
                    .map(|cells| {
                        let mut m = M::empty();
                        cells.iter().for_each(|&c| m.insert(c));
                        m
                    })
                    .collect(),
                neighbours: s.neighbours.clone(),
                on_targets: {
                    let mut on = M::empty();
                    for (p, cells) in s.covers.iter().enumerate() {
                        if cells.iter().any(|&c| target_cells.contains(c)) {
                            on.insert(p);
                        }
                    }
                    on
                },
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
                target: layout.targets[layout.slot_block[slot]],
            })
            .collect();
        let mut space = SlidingSpace {
            layout,
            shapes,
            slots,
            start: Key::ZERO,
            goal_mask: Key::ZERO,
            goal_value: Key::ZERO,
        };
        space.start = space.key_of(&layout.start);
        for slot in &space.slots {
            if let Some(target) = slot.target {
                space.goal_mask.set(slot.field, u32::MAX);
                space.goal_value.set(slot.field, target);
            }
        }
        space
    }

    /// The canonical key of a concrete position (a placement per block).
    fn key_of(&self, placements: &[u32]) -> Key<N> {
        let mut key = Key::ZERO;
        for (slot, &block) in self.layout.slot_block.iter().enumerate() {
            key.set(self.slots[slot].field, placements[block]);
        }
        self.canonical(key)
    }

    /// The cells covered by every block of `key`.
    #[inline]
    fn occupied(&self, key: &Key<N>) -> M {
        self.slots.iter().fold(M::empty(), |occ, slot| {
            occ.union(self.shapes[slot.shape].masks[key.get(slot.field) as usize])
        })
    }

    /// Calls `visit` with every placement the shape can reach from `from` by unit steps
    /// without touching `others` (not `from` itself).
    #[inline]
    fn reachable(&self, shape: usize, from: u32, others: M, mut visit: impl FnMut(u32)) {
        let table = &self.shapes[shape];
        let mut reached = M::empty();
        reached.insert(from as usize);
        let mut todo = reached;
        while let Some(p) = todo.pop_lowest() {
            for q in table.neighbours[p] {
                if q != NONE
                    && !reached.contains(q as usize)
                    && table.masks[q as usize].is_disjoint(&others)
                {
                    reached.insert(q as usize);
                    todo.insert(q as usize);
                    visit(q);
                }
            }
        }
    }

    /// The slot of `state` holding the block that moved from `parent` to `state`.
    #[inline]
    fn moved_slot(&self, state: &Key<N>, parent: &Key<N>) -> Option<usize> {
        let changed = (0..self.slots.len())
            .find(|&i| state.get(self.slots[i].field) != parent.get(self.slots[i].field))?;
        let (first, len) = self.slots[changed].group;
        if len == 1 {
            return Some(changed);
        }
        // In a sorted group the moved block is the placement the parent did not have.
        let group = first..first + len;
        group.clone().find(|&i| {
            let p = state.get(self.slots[i].field);
            group.clone().all(|j| parent.get(self.slots[j].field) != p)
        })
    }

    /// Turns a path of keys into the notation: each move as the real block's name and a
    /// shortest chain of unit steps, tried in the order U, D, L, R (spec §3).
    pub fn notation(&self, puzzle: &Puzzle, path: &[Key<N>]) -> String {
        let mut placements = self.layout.start.clone();
        let mut tokens = Vec::with_capacity(path.len().saturating_sub(1));
        for next in path.iter().skip(1) {
            let (block, to) = self
                .find_move(&placements, next)
                .expect("consecutive states of a search path differ by one move");
            let steps = self.step_path(block, &placements, to);
            tokens.push(format!("{}:{}", puzzle.blocks[block].name, steps));
            placements[block] = to;
        }
        tokens.join(" ")
    }

    /// The block and placement that turn the concrete position into `next`.
    fn find_move(&self, placements: &[u32], next: &Key<N>) -> Option<(usize, u32)> {
        let occupied = self.masks_of(placements).fold(M::empty(), M::union);
        let mut found = None;
        for (block, &from) in placements.iter().enumerate() {
            let shape = self.shape_of_block(block);
            let others = occupied.xor(self.shapes[shape].masks[from as usize]);
            self.reachable(shape, from, others, |to| {
                if found.is_none() {
                    let mut moved = placements.to_vec();
                    moved[block] = to;
                    if self.key_of(&moved) == *next {
                        found = Some((block, to));
                    }
                }
            });
            if found.is_some() {
                break;
            }
        }
        found
    }

    fn shape_of_block(&self, block: usize) -> usize {
        self.slots[self.layout.slot_of(block)].shape
    }

    fn masks_of<'s>(&'s self, placements: &'s [u32]) -> impl Iterator<Item = M> + 's {
        placements
            .iter()
            .enumerate()
            .map(|(b, &p)| self.shapes[self.shape_of_block(b)].masks[p as usize])
    }

    /// A shortest chain of unit steps for `block` to `to`, breadth-first in the order U, D, L, R.
    fn step_path(&self, block: usize, placements: &[u32], to: u32) -> String {
        let shape = self.shape_of_block(block);
        let table = &self.shapes[shape];
        let from = placements[block];
        let others = self
            .masks_of(placements)
            .enumerate()
            .filter(|&(b, _)| b != block)
            .fold(M::empty(), |acc, (_, m)| acc.union(m));
        let mut came_from: HashMap<u32, (u32, Dir)> = HashMap::new();
        let mut queue = VecDeque::from([from]);
        while let Some(p) = queue.pop_front() {
            if p == to {
                break;
            }
            for (dir, q) in Dir::ALL.into_iter().zip(table.neighbours[p as usize]) {
                if q != NONE
                    && q != from
                    && !came_from.contains_key(&q)
                    && table.masks[q as usize].is_disjoint(&others)
                {
                    came_from.insert(q, (p, dir));
                    queue.push_back(q);
                }
            }
        }
        let mut steps = Vec::new();
        let mut at = to;
        while at != from {
            let (prev, dir) = came_from[&at];
            steps.push(dir.letter());
            at = prev;
        }
        steps.iter().rev().collect()
    }
}

impl<M: CellSet, const N: usize> Space for SlidingSpace<'_, M, N> {
    type State = Key<N>;

    fn start(&self) -> Key<N> {
        self.start
    }

    /// Every move of every block but the one just moved: moving it again only reaches positions
    /// one move from the parent (spec R5).
    #[inline]
    fn successors(&self, state: &Key<N>, parent: Option<&Key<N>>, out: &mut Vec<Key<N>>) {
        let occupied = self.occupied(state);
        let skip = parent.and_then(|p| self.moved_slot(state, p));
        for (i, slot) in self.slots.iter().enumerate() {
            if Some(i) == skip {
                continue;
            }
            let from = state.get(slot.field);
            let others = occupied.xor(self.shapes[slot.shape].masks[from as usize]);
            self.reachable(slot.shape, from, others, |to| {
                out.push(state.with(slot.field, to))
            });
        }
    }

    /// Blocks that must still move at least once: goal blocks off their target and free blocks
    /// covering a target cell. A move moves one block, so this never overestimates and changes
    /// by at most 1 per move (admissible and consistent).
    #[inline]
    fn heuristic(&self, state: &Key<N>) -> Option<u32> {
        let mut h = 0;
        for slot in &self.slots {
            let p = state.get(slot.field);
            h += match slot.target {
                Some(t) => u32::from(p != t),
                None => u32::from(self.shapes[slot.shape].on_targets.contains(p as usize)),
            };
        }
        Some(h)
    }

    #[inline]
    fn is_goal(&self, state: &Key<N>) -> bool {
        state.and(&self.goal_mask) == self.goal_value
    }

    /// Sorts each group of interchangeable blocks (insertion sort: at most one field is out of
    /// place after a move).
    #[inline]
    fn canonical(&self, mut state: Key<N>) -> Key<N> {
        for &(first, len) in &self.layout.groups {
            for i in first + 1..first + len {
                let value = state.get(self.slots[i].field);
                let mut j = i;
                while j > first && state.get(self.slots[j - 1].field) > value {
                    let prev = state.get(self.slots[j - 1].field);
                    state.set(self.slots[j].field, prev);
                    j -= 1;
                }
                state.set(self.slots[j].field, value);
            }
        }
        state
    }
}
