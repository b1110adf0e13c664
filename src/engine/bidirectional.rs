//! Parallel bidirectional breadth-first search, for spaces whose moves are all reversible (every
//! move can be undone by one move, so a state's predecessors are exactly its successors) and
//! whose goal is one known state.
//!
//! Two level-synchronous searches ([`super::bfs::expand_layer`]) grow from the start and from
//! the goal; each step expands the side with the smaller frontier by one whole layer. The first
//! layer that produces a state already stored by the other side closes the gap: if the sides
//! have reached depths a and b without meeting, every path is longer than a + b, and a state of
//! the new layer a + 1 known to the other side lies on a path of length a + 1 + b, which is
//! therefore shortest. Both maps together hold about twice the states within half the solution
//! depth instead of every state within the whole depth.

use super::bfs::{Layer, expand_layer, layer_bytes};
use super::visited::{ScratchPool, Visited};
use super::{SearchControl, SearchOutcome, Space};

/// One direction of the search.
struct Side<S> {
    visited: Visited<S, S>,
    frontier: Layer<S>,
    depth: u64,
}

impl<S: Copy + Eq + std::hash::Hash> Side<S> {
    fn new(root: S) -> Self {
        let visited = Visited::new();
        visited.insert_new(root, root);
        Side {
            visited,
            frontier: vec![(root, root)],
            depth: 0,
        }
    }

    fn bytes(&self) -> u64 {
        self.visited.bytes() + layer_bytes(&self.frontier)
    }
}

/// Finds a shortest path from `space.start()` to `goal`, or proves there is none. The moves of
/// `space` must be reversible; its `is_goal` is not consulted.
pub fn bidirectional<P: Space>(
    space: &P,
    goal: P::State,
    ctl: &SearchControl,
) -> SearchOutcome<P::State> {
    let start = space.canonical(space.start());
    let goal = space.canonical(goal);
    if start == goal {
        ctl.add(1, 0);
        return SearchOutcome::Found(vec![start]);
    }
    let mut forward = Side::new(start);
    let mut backward = Side::new(goal);
    let scratch = ScratchPool::new();
    ctl.add(2, 0);
    loop {
        if let Err(limit) = ctl.check() {
            return SearchOutcome::Stopped(limit);
        }
        let forward_turn = forward.frontier.len() <= backward.frontier.len();
        let (side, other) = if forward_turn {
            (&mut forward, &backward)
        } else {
            (&mut backward, &forward)
        };
        if side.frontier.is_empty() {
            return SearchOutcome::Exhausted;
        }
        side.depth += 1;
        let meets_other = |s: &P::State| other.visited.get(s).is_some();
        let (next, meeting) = expand_layer(
            space,
            &side.visited,
            &scratch,
            &side.frontier,
            ctl,
            meets_other,
            false,
        );
        side.frontier = next;
        ctl.set_depth(forward.depth + backward.depth);
        ctl.set_bytes(forward.bytes() + backward.bytes());
        if let Some(meeting) = meeting {
            let mut path = forward.visited.path_to(meeting, |&p| p);
            let mut rest = backward.visited.path_to(meeting, |&p| p);
            rest.pop();
            path.extend(rest.into_iter().rev());
            return SearchOutcome::Found(path);
        }
        if let Err(limit) = ctl.check() {
            return SearchOutcome::Stopped(limit);
        }
    }
}
