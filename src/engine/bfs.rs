//! Parallel level-synchronous frontier breadth-first search.
//!
//! Layer d (all states at distance d) is split into chunks that rayon hands to its workers. A
//! worker generates the successors of its chunk's states into one reused buffer, canonicalises
//! them and offers them as one batch to the shared [`Visited`] set with their parent's index;
//! the states that were new are appended to the set's arena, so layer d + 1 is simply the range
//! of indices appended while layer d was expanded: no frontier vector is kept. The layer in
//! which a goal first appears is finished before the search stops, so the counts (`states`,
//! `expanded`) do not depend on thread timing.
//!
//! Memory per state: its arena slot (the packed state and a 4-byte parent index) and a 4-byte
//! bucket of the set. The search's allocations reach the [`SearchControl`] after every chunk,
//! so that a memory budget stops a large layer while it grows.
//!
//! With a move budget ([`Space::max_depth`]) the layer at the bound is searched for goals only:
//! nothing else of it is stored.

use std::ops::Range;

use rayon::prelude::*;

use super::visited::{Scratch, ScratchPool, Visited};
use super::{Limit, SearchControl, SearchOutcome, Space};

/// Finds a shortest path from `space.start()` to a goal, or proves there is none.
pub fn bfs<P: Space>(space: &P, ctl: &SearchControl) -> SearchOutcome<P::State> {
    let visited = Visited::new(false);
    let scratch = ScratchPool::new();
    let start = space.canonical(space.start());
    let root = visited.insert_root(start);
    ctl.add(1, 0);
    if space.is_goal(&start) {
        return SearchOutcome::Found(vec![start]);
    }
    let mut layer = root..root + 1;
    let mut depth = 0;
    while !layer.is_empty() {
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
        let (next, goal) = expand_layer(space, &visited, &scratch, layer, ctl, is_goal, last_layer);
        ctl.set_bytes(visited.bytes() + scratch.bytes());
        if let Some(goal) = goal {
            return SearchOutcome::Found(visited.path_to(goal));
        }
        if let Err(limit) = ctl.check().and(full(&visited)) {
            return SearchOutcome::Stopped(limit);
        }
        layer = next;
    }
    SearchOutcome::Exhausted
}

/// The limit a search reports when its arena cannot index another state.
pub(crate) fn full<S: Copy + Eq + std::hash::Hash>(visited: &Visited<S>) -> Result<(), Limit> {
    if visited.is_full() {
        Err(Limit::States(super::arena::MAX_STATES))
    } else {
        Ok(())
    }
}

/// Expands every state of `layer` (a range of indices of `visited`) in parallel: stores each
/// new successor in `visited` with its parent and returns the range of the new states, with the
/// index of the first (in chunk order) for which `is_target` holds; with `targets_only`, the
/// other successors are not stored. Stops early, with a partial layer, once `ctl` is stopped.
pub(crate) fn expand_layer<P: Space>(
    space: &P,
    visited: &Visited<P::State>,
    scratch: &ScratchPool<P::State>,
    layer: Range<u32>,
    ctl: &SearchControl,
    is_target: impl Fn(&P::State) -> bool + Sync,
    targets_only: bool,
) -> (Range<u32>, Option<u32>) {
    let chunk = chunk_size(layer.len()) as u32;
    let expand = |chunk: Range<u32>| {
        if ctl.is_stopped() {
            return None;
        }
        let (stored, target) = scratch
            .with(|s| expand_chunk(space, visited, chunk.clone(), s, (&is_target, targets_only)));
        ctl.add(stored, chunk.len() as u64);
        ctl.set_bytes(visited.bytes() + scratch.bytes());
        // Sets the shared stop flag that the other workers poll.
        let _ = ctl.check_mid_layer();
        target
    };
    let end = layer.end;
    let target = if layer.len() <= chunk as usize {
        // One chunk: expanded on the calling thread, without a round trip through the pool.
        expand(layer)
    } else {
        let chunks = (layer.len() as u32).div_ceil(chunk);
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let from = layer.start + c * chunk;
                expand(from..(from + chunk).min(end))
            })
            .collect::<Vec<_>>()
            .into_iter()
            .flatten()
            .next()
    };
    (end..visited.len() as u32, target)
}

/// States handed to a worker at a time: enough per worker to balance the load, and large enough
/// that a chunk's successors form long per-shard groups in the visited set.
pub(crate) fn chunk_size(layer: usize) -> usize {
    (layer / (rayon::current_num_threads() * 8)).clamp(32, 1024)
}

/// Expands one chunk of a layer with a worker's reused buffers; returns the number of new
/// states and the first new target's index.
fn expand_chunk<P: Space>(
    space: &P,
    visited: &Visited<P::State>,
    chunk: Range<u32>,
    Scratch { successors, batch }: &mut Scratch<P::State>,
    (is_target, targets_only): (impl Fn(&P::State) -> bool, bool),
) -> (u64, Option<u32>) {
    for index in chunk {
        let state = visited.state(index);
        let parent = visited.parent(index);
        let parent = (parent != index).then(|| visited.state(parent));
        successors.clear();
        space.successors(&state, parent.as_ref(), successors);
        for &next in successors.iter() {
            let next = space.canonical(next);
            if !targets_only || is_target(&next) {
                batch.push(next, index, 0, 0);
            }
        }
    }
    let mut stored = 0;
    let mut target = None;
    visited.insert_batch(batch, |next, index, _, _| {
        stored += 1;
        if target.is_none() && is_target(&next) {
            target = Some(index);
        }
    });
    (stored, target)
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
