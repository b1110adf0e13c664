//! A quick beam search for a short solution: the upper bound that lets the exact search stop
//! one swap earlier.
//!
//! Proving that a board needs n swaps means exhausting every state within f ≤ n − 1; finding
//! an n-swap solution by A* also means expanding the states with f = n until a goal turns up,
//! and that last layer is by far the largest (the heuristic rarely rules out a board one swap
//! from the goal). So [`super::solve_with`] first runs this beam search: keep, layer by layer,
//! the `width` most promising boards (fewest gems left, then the smallest lower bound). When it
//! finds a solution of n swaps, the exact search only has to show that none has fewer.

use std::collections::{HashMap, HashSet};

use super::board::Board;
use crate::engine::{Limit, SearchControl, Space};

/// A board of a layer with the index of its parent in the previous layer.
#[derive(Clone, Copy)]
struct Node {
    board: Board,
    parent: u32,
    /// Gems left, then the lower bound: smaller is more promising.
    rank: (u32, u32),
}

/// The states of a solution, start and empty board included, of at most `max_depth` swaps,
/// if the beam meets one. Reports its states into `ctl` and stops at its limits.
pub fn solution<P: Space<State = Board>>(
    space: &P,
    width: usize,
    max_depth: u32,
    ctl: &SearchControl,
) -> Result<Option<Vec<Board>>, Limit> {
    let start = space.canonical(space.start());
    let mut layers: Vec<Vec<Node>> = vec![vec![Node {
        board: start,
        parent: 0,
        rank: (0, 0),
    }]];
    let mut seen: HashSet<Board> = HashSet::from([start]);
    let mut children = Vec::new();
    let mut successors = Vec::new();
    for _ in 0..max_depth {
        ctl.check()?;
        let layer = layers.last().expect("the start layer");
        children.clear();
        for (index, node) in layer.iter().enumerate() {
            successors.clear();
            space.successors(&node.board, None, &mut successors);
            for &next in &successors {
                let next = space.canonical(next);
                if !seen.insert(next) {
                    continue;
                }
                if space.is_goal(&next) {
                    return Ok(Some(path(&layers, index, next)));
                }
                if let Some(h) = space.heuristic(&next) {
                    children.push(Node {
                        board: next,
                        parent: index as u32,
                        rank: (next.occupied().count_ones(), h),
                    });
                }
            }
        }
        ctl.add(children.len() as u64, layer.len() as u64);
        if children.is_empty() {
            return Ok(None);
        }
        if children.len() > width {
            children.select_nth_unstable_by_key(width, |n| n.rank);
            children.truncate(width);
        }
        layers.push(children.clone());
    }
    Ok(None)
}

/// The boards from the start to `goal`, reached from node `index` of the last layer.
fn path(layers: &[Vec<Node>], mut index: usize, goal: Board) -> Vec<Board> {
    let mut boards = vec![goal];
    for layer in layers.iter().rev() {
        let node = layer[index];
        boards.push(node.board);
        index = node.parent as usize;
    }
    boards.reverse();
    boards
}

/// How a bounded depth-first search ended.
pub enum Probe {
    /// A solution within the bound: its states, start and empty board included.
    Found(Vec<Board>),
    /// Every state within the bound was searched: no solution has that few swaps.
    Exhausted,
    /// The expansion budget ran out first.
    OutOfBudget,
}

/// A depth-first search for a solution of at most `bound` swaps, pruned by the lower bound
/// (`g + h ≤ bound`), trying the most promising boards first and skipping boards already
/// searched from as few swaps. Gives up after `budget` expansions.
pub fn probe<P: Space<State = Board>>(
    space: &P,
    bound: u32,
    budget: u64,
    ctl: &SearchControl,
) -> Result<Probe, Limit> {
    let mut dfs = Dfs {
        space,
        bound,
        budget,
        ctl,
        best_depth: HashMap::new(),
        expanded: 0,
        reported: (0, 0),
        path: Vec::new(),
    };
    let start = space.canonical(space.start());
    let found = dfs.visit(start, 0)?;
    dfs.report();
    Ok(if found {
        dfs.path.reverse();
        Probe::Found(dfs.path)
    } else if dfs.expanded >= budget {
        Probe::OutOfBudget
    } else {
        Probe::Exhausted
    })
}

struct Dfs<'a, P> {
    space: &'a P,
    bound: u32,
    budget: u64,
    ctl: &'a SearchControl,
    /// The fewest swaps each searched board was reached with.
    best_depth: HashMap<Board, u32>,
    expanded: u64,
    /// States and expansions already reported to `ctl`.
    reported: (u64, u64),
    /// The solution, goal first, once found.
    path: Vec<Board>,
}

impl<P: Space<State = Board>> Dfs<'_, P> {
    /// Searches below `board`, reached in `depth` swaps; true when a solution was found.
    fn visit(&mut self, board: Board, depth: u32) -> Result<bool, Limit> {
        if self.space.is_goal(&board) {
            self.path.push(board);
            return Ok(true);
        }
        if self.expanded >= self.budget
            || self.best_depth.get(&board).is_some_and(|&d| d <= depth)
        {
            return Ok(false);
        }
        self.best_depth.insert(board, depth);
        self.expanded += 1;
        if self.expanded % 4096 == 0 {
            self.report();
            self.ctl.check()?;
        }
        let mut successors = Vec::new();
        self.space.successors(&board, None, &mut successors);
        let mut children: Vec<((u32, u32), Board)> = successors
            .into_iter()
            .filter_map(|next| {
                let next = self.space.canonical(next);
                let h = self.space.heuristic(&next)?;
                (depth + 1 + h <= self.bound).then(|| ((h, next.occupied().count_ones()), next))
            })
            .collect();
        children.sort_unstable_by_key(|&(rank, _)| rank);
        for (_, child) in children {
            if self.visit(child, depth + 1)? {
                self.path.push(board);
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn report(&mut self) {
        let states = self.best_depth.len() as u64;
        self.ctl
            .add(states - self.reported.0, self.expanded - self.reported.1);
        self.reported = (states, self.expanded);
    }
}
