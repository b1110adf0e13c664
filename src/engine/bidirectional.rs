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
//!
//! The moves being reversible, neither side keeps parent links: each rebuilds its half of the
//! path backwards from the meeting state, by its layers' depths ([`Visited::path_to`]).

use super::arena::{Depths, Storage};
use super::bfs::{Layer, Target, expand_layer, full, layer_depth};
use super::visited::{ScratchPool, Visited};
use super::{SearchControl, SearchOutcome, Space, Stored};

/// One direction of the search.
struct Side<S> {
    visited: Visited<S>,
    frontier: Layer,
    /// Where each layer's indices begin.
    starts: Vec<u32>,
    depth: u64,
}

impl<S: bytemuck::Pod + Eq + std::hash::Hash> Side<S> {
    fn new<P: Stored<State = S>>(space: &P, root: S) -> Self {
        let layout = space.layout();
        let visited = Visited::new(Storage {
            width: layout.bytes,
            parents: false,
            depths: Depths::None,
            tags: layout.tagged,
        });
        let root = visited.insert_root(root);
        Side {
            visited,
            frontier: Layer::root(root),
            starts: vec![root],
            depth: 0,
        }
    }

    /// The states from this side's root to `state`, which it holds.
    fn path_to<P: Space<State = S>>(&self, space: &P, state: &S) -> Vec<S> {
        let index = self
            .visited
            .index_of(state)
            .expect("both sides hold the meeting state");
        self.visited
            .path_to(space, index, |i| layer_depth(&self.starts, i))
    }
}

/// Finds a shortest path from `space.start()` to `goal`, or proves there is none. The moves of
/// `space` must be reversible; its `is_goal` is not consulted.
pub fn bidirectional<P: Stored>(
    space: &P,
    goal: P::State,
    ctl: &SearchControl,
) -> SearchOutcome<P::State> {
    let start = space.canonical(space.start());
    let goal = space.canonical(goal);
    if start == goal {
        ctl.progress.add(1, 0);
        return SearchOutcome::Found(vec![start]);
    }
    let mut forward = Side::new(space, start);
    let mut backward = Side::new(space, goal);
    // One set of worker buffers for both sides: a layer's expansion gives back the arena
    // indices its workers reserved, so the next layer may be the other side's.
    let scratch = ScratchPool::new();
    ctl.progress.add(2, 0);
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
            &scratch,
            &side.frontier,
            ctl,
            &Target::KnownTo(&other.visited),
        );
        side.starts.push(next.indices.start);
        side.frontier = next;
        let meeting = meeting.map(|i| side.visited.state(i));
        ctl.progress.set_depth(forward.depth + backward.depth);
        ctl.progress
            .set_bytes(forward.visited.bytes() + backward.visited.bytes() + scratch.bytes());
        if let Some(meeting) = meeting {
            let mut path = forward.path_to(space, &meeting);
            let mut rest = backward.path_to(space, &meeting);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::{EightPuzzle, HARDEST, checked_length, with_threads};

    #[test]
    fn paths_are_rebuilt_from_both_sides_of_a_reversible_space() {
        // The 8-puzzle's moves are reversible: the bidirectional search joins two paths rebuilt
        // backwards from the meeting state, one of them reversed.
        for threads in [1, 2, 4] {
            let space = EightPuzzle::new(HARDEST, false);
            let ctl = SearchControl::unlimited();
            let SearchOutcome::Found(path) =
                with_threads(threads, || bidirectional(&space, space.goal, &ctl))
            else {
                panic!("no path");
            };
            assert_eq!(checked_length(&space, &path), 31);
        }
    }
}
