//! Parallel level-synchronous frontier breadth-first search.
//!
//! Layer d (all states at distance d) is split into chunks that rayon hands to its workers. A
//! worker generates the successors of its chunk's states into one reused buffer, canonicalises
//! them and offers them as one batch to the shared [`Visited`] map with their parent; the states
//! that were new form the worker's part of layer d + 1. The layer in which a goal first appears
//! is finished before the search stops, so the counts (`states`, `expanded`) do not depend on
//! thread timing.
//!
//! Memory per state: one (state, parent) bucket of the map plus its place in a frontier vector.
//! The estimate reaches the [`SearchControl`] after every chunk, the part of the next layer built
//! so far included, so that a memory budget stops a large layer while it grows.
//!
//! With a move budget ([`Space::max_depth`]) the layer at the bound is searched for goals only:
//! nothing else of it is stored.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::visited::{Scratch, ScratchPool, Visited};
use super::{Limit, SearchControl, SearchOutcome, Space};

/// A layer: states with the state each was first reached from.
pub(crate) type Layer<S> = Vec<(S, S)>;

/// The part of the next layer one chunk produced, with its first target state.
type ChunkResult<S> = (Layer<S>, Option<S>);

/// Finds a shortest path from `space.start()` to a goal, or proves there is none.
pub fn bfs<P: Space>(space: &P, ctl: &SearchControl) -> SearchOutcome<P::State> {
    let visited: Visited<P::State, P::State> = Visited::new();
    let scratch = ScratchPool::new();
    let start = space.canonical(space.start());
    visited.insert_new(start, start);
    ctl.add(1, 0);
    if space.is_goal(&start) {
        return SearchOutcome::Found(vec![start]);
    }
    // Each frontier entry carries its parent (the start is its own) for `Space::successors`.
    let mut frontier = vec![(start, start)];
    let mut depth = 0;
    while !frontier.is_empty() {
        if let Err(limit) = ctl.check() {
            return SearchOutcome::Stopped(limit);
        }
        depth += 1;
        let max_depth = space.max_depth().map(u64::from);
        if max_depth.is_some_and(|max| depth > max) {
            return SearchOutcome::Exhausted;
        }
        ctl.set_depth(depth);
        let is_goal = |s: &P::State| space.is_goal(s);
        let last_layer = max_depth == Some(depth);
        let (next, goal) = expand_layer(
            space, &visited, &scratch, &frontier, ctl, is_goal, last_layer,
        );
        ctl.set_bytes(visited.bytes() + layer_bytes(&frontier) + layer_bytes(&next));
        if let Some(goal) = goal {
            return SearchOutcome::Found(visited.path_to(goal, |&parent| parent));
        }
        if let Err(limit) = ctl.check() {
            return SearchOutcome::Stopped(limit);
        }
        frontier = next;
    }
    SearchOutcome::Exhausted
}

/// Heap bytes of a layer.
pub(crate) fn layer_bytes<S>(layer: &Layer<S>) -> u64 {
    (layer.capacity() * std::mem::size_of::<(S, S)>()) as u64
}

/// Expands every state of `frontier` in parallel: stores each new successor in `visited` with
/// its parent and returns them as the next layer, with the first new state (in layer order)
/// for which `is_target` holds; with `targets_only`, the other successors are not stored. Stops
/// early, with a partial layer, once `ctl` is stopped.
pub(crate) fn expand_layer<P: Space>(
    space: &P,
    visited: &Visited<P::State, P::State>,
    scratch: &ScratchPool<P::State, P::State>,
    frontier: &Layer<P::State>,
    ctl: &SearchControl,
    is_target: impl Fn(&P::State) -> bool + Sync,
    targets_only: bool,
) -> (Layer<P::State>, Option<P::State>) {
    let chunk = chunk_size(frontier.len());
    let frontier_bytes = layer_bytes(frontier);
    let built = AtomicU64::new(0);
    let expand = |chunk: &[(P::State, P::State)]| {
        if ctl.is_stopped() {
            return (Vec::new(), None);
        }
        let result =
            scratch.with(|s| expand_chunk(space, visited, chunk, s, (&is_target, targets_only)));
        ctl.add(result.0.len() as u64, chunk.len() as u64);
        let part = layer_bytes(&result.0);
        let built = built.fetch_add(part, Ordering::Relaxed) + part;
        ctl.set_bytes(visited.bytes() + frontier_bytes + built);
        // Sets the shared stop flag that the other workers poll.
        let _ = ctl.check_mid_layer();
        result
    };
    if frontier.len() <= chunk {
        // One chunk: expanded on the calling thread, without a round trip through the pool.
        return expand(frontier);
    }
    let chunks: Vec<ChunkResult<P::State>> = frontier.par_chunks(chunk).map(expand).collect();
    let mut next = Vec::with_capacity(chunks.iter().map(|c| c.0.len()).sum());
    let mut target = None;
    for (states, found) in &chunks {
        next.extend_from_slice(states);
        target = target.or(*found);
    }
    (next, target)
}

/// States handed to a worker at a time: enough per worker to balance the load, and large enough
/// that a chunk's successors form long per-shard groups in the visited set.
pub(crate) fn chunk_size(layer: usize) -> usize {
    (layer / (rayon::current_num_threads() * 8)).clamp(32, 1024)
}

/// Expands one chunk of a layer with a worker's reused buffers.
fn expand_chunk<P: Space>(
    space: &P,
    visited: &Visited<P::State, P::State>,
    chunk: &[(P::State, P::State)],
    Scratch { successors, batch }: &mut Scratch<P::State, P::State>,
    (is_target, targets_only): (impl Fn(&P::State) -> bool, bool),
) -> ChunkResult<P::State> {
    for (state, parent) in chunk {
        successors.clear();
        space.successors(state, Some(parent).filter(|p| *p != state), successors);
        for &next in successors.iter() {
            let next = space.canonical(next);
            if !targets_only || is_target(&next) {
                batch.push(next, *state, 0);
            }
        }
    }
    let mut new_states = Vec::with_capacity(chunk.len());
    let mut target = None;
    visited.insert_batch(
        batch,
        |_, _| false,
        |next, parent, _, _| {
            new_states.push((next, parent));
            if target.is_none() && is_target(&next) {
                target = Some(next);
            }
        },
    );
    (new_states, target)
}

/// Counts the states reachable from the start, the start included, by exhausting the space.
/// With `expand_goals` false, goal states are counted but not expanded (the reachable set of a
/// game that ends at its goal). Returns the limit instead when `ctl` stops the search first.
pub fn count_reachable<P: Space>(
    space: &P,
    expand_goals: bool,
    ctl: &SearchControl,
) -> Result<u64, Limit> {
    /// `space` with no goal, so that breadth-first search exhausts it.
    struct Exhaustive<'a, P> {
        space: &'a P,
        expand_goals: bool,
    }
    impl<P: Space> Space for Exhaustive<'_, P> {
        type State = P::State;
        fn start(&self) -> P::State {
            self.space.start()
        }
        fn successors(&self, state: &P::State, parent: Option<&P::State>, out: &mut Vec<P::State>) {
            if self.expand_goals || !self.space.is_goal(state) {
                self.space.successors(state, parent, out);
            }
        }
        fn is_goal(&self, _: &P::State) -> bool {
            false
        }
        fn canonical(&self, state: P::State) -> P::State {
            self.space.canonical(state)
        }
    }
    let before = ctl.states();
    match bfs(
        &Exhaustive {
            space,
            expand_goals,
        },
        ctl,
    ) {
        SearchOutcome::Stopped(limit) => Err(limit),
        _ => Ok(ctl.states() - before),
    }
}
