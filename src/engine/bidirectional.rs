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

use super::bfs::{Layer, Target, expand_layer, full};
use super::visited::{ScratchPool, Visited};
use super::{SearchControl, SearchOutcome, Space};

/// One direction of the search.
struct Side<S> {
    visited: Visited<S>,
    /// The workers' buffers, which hold arena indices reserved in this side's arena.
    scratch: ScratchPool<S>,
    frontier: Layer,
    depth: u64,
}

impl<S: Copy + Eq + std::hash::Hash> Side<S> {
    fn new(root: S) -> Self {
        let visited = Visited::new(false);
        let root = visited.insert_root(root);
        Side {
            visited,
            scratch: ScratchPool::new(),
            frontier: Layer::root(root),
            depth: 0,
        }
    }
}

impl<S: Copy + Eq + std::hash::Hash> Side<S> {
    fn bytes(&self) -> u64 {
        self.visited.bytes() + self.scratch.bytes()
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
    ctl.add(2, 0);
    loop {
        if let Err(limit) = ctl.check() {
            return SearchOutcome::Stopped(limit);
        }
        let forward_turn = forward.frontier.states <= backward.frontier.states;
        let (side, other) = if forward_turn {
            (&mut forward, &backward)
        } else {
            (&mut backward, &forward)
        };
        if side.frontier.states == 0 {
            return SearchOutcome::Exhausted;
        }
        side.depth += 1;
        let (next, meeting) = expand_layer(
            space,
            &side.visited,
            &side.scratch,
            &side.frontier,
            ctl,
            &Target::KnownTo(&other.visited),
        );
        side.frontier = next;
        let meeting = meeting.map(|i| side.visited.state(i));
        ctl.set_depth(forward.depth + backward.depth);
        ctl.set_bytes(forward.bytes() + backward.bytes());
        if let Some(meeting) = meeting {
            let on = |side: &Side<P::State>| {
                let index = side
                    .visited
                    .index_of(&meeting)
                    .expect("both sides hold the meeting state");
                side.visited.path_to(index)
            };
            let mut path = on(&forward);
            let mut rest = on(&backward);
            rest.pop();
            path.extend(rest.into_iter().rev());
            return SearchOutcome::Found(path);
        }
        if let Err(limit) = ctl
            .check()
            .and(full(&forward.visited))
            .and(full(&backward.visited))
        {
            return SearchOutcome::Stopped(limit);
        }
    }
}
