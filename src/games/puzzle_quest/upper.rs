//! A quick beam search for a short solution: the upper bound that lets the exact search stop
//! one swap earlier.
//!
//! Proving that a board needs n swaps means exhausting every state within f ≤ n − 1; finding
//! an n-swap solution by A* also means expanding the states with f = n until a goal turns up,
//! and that last layer is by far the largest (the heuristic rarely rules out a board one swap
//! from the goal). So [`super::solve_with`] first runs this beam search: keep, layer by layer,
//! the `width` most promising boards (fewest gems left, then the smallest lower bound). When it
//! finds a solution of n swaps, the exact search only has to show that none has fewer.

use std::collections::HashSet;

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
