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
//! Memory per state: its arena slot (the packed state, and a 4-byte parent index unless the space
//! is reversible: then a path is rebuilt backwards, by the layers' depths) and a 4-byte bucket of
//! the set. The search's allocations reach the [`SearchControl`] after every chunk,
//! so that a memory budget stops a large layer while it grows.
//!
//! With a move budget ([`MoveBudget::max_depth`]) the layer at the bound is searched for goals
//! only: nothing else of it is stored.

use std::ops::Range;

use rayon::prelude::*;

use std::sync::atomic::{AtomicU64, Ordering};

use super::visited::{Batch, Scratch, ScratchPool, Visited};
use super::{Limit, MoveBudget, SearchControl, SearchOutcome, Stored};

/// Finds a shortest path from `space.start()` to a goal, or proves there is none.
pub fn bfs<P: Stored + MoveBudget>(space: &P, ctl: &SearchControl) -> SearchOutcome<P::State> {
    let visited = Visited::for_space(space, false);
    let scratch = ScratchPool::new();
    let start = space.canonical(space.start());
    let root = visited.insert_root(start);
    ctl.progress.add(1, 0);
    if space.is_goal(&start) {
        return SearchOutcome::Found(vec![start]);
    }
    let mut layer = Layer::root(root);
    let mut starts = vec![root];
    let mut depth = 0;
    while layer.states > 0 {
        if let Err(limit) = ctl.check() {
            return SearchOutcome::Stopped(limit);
        }
        depth += 1;
        let max_depth = space.max_depth().map(u64::from);
        if max_depth.is_some_and(|max| depth > max) {
            return SearchOutcome::Exhausted;
        }
        ctl.progress.set_depth(depth);
        let target = Target::Goal {
            only: max_depth == Some(depth),
        };
        let (next, goal) = expand_layer(space, &visited, &scratch, &layer, ctl, &target);
        ctl.progress.set_bytes(visited.bytes() + scratch.bytes());
        starts.push(next.indices.start);
        if let Some(goal) = goal {
            let depth = |i| layer_depth(&starts, i);
            return SearchOutcome::Found(visited.path_to(space, goal, depth));
        }
        if let Err(limit) = ctl.check().and(full(&visited)) {
            return SearchOutcome::Stopped(limit);
        }
        layer = next;
    }
    SearchOutcome::Exhausted
}

/// The limit a search reports when its arena cannot index another state.
pub(crate) fn full<S: bytemuck::Pod + Eq + std::hash::Hash>(
    visited: &Visited<S>,
) -> Result<(), Limit> {
    if visited.is_full() {
        Err(Limit::States(super::arena::MAX_STATES))
    } else {
        Ok(())
    }
}

/// The depth of index `i` in a search whose layer d began at index `starts[d]`.
pub(crate) fn layer_depth(starts: &[u32], i: u32) -> u32 {
    (starts.partition_point(|&start| start <= i) - 1) as u32
}

/// A layer: the range of arena indices its states were given (with a few holes: indices a worker
/// reserved and did not use), and how many states it has.
pub(crate) struct Layer {
    pub indices: Range<u32>,
    pub states: u64,
    /// The states of the layer before (0 for the first).
    pub before: u64,
}

impl Layer {
    /// The first layer: one state.
    pub fn root(index: u32) -> Layer {
        Layer {
            indices: index..index + 1,
            states: 1,
            before: 0,
        }
    }
}

/// What a layer's expansion looks for among the states it stores.
pub(crate) enum Target<'a, S> {
    /// Goals of the space; with `only`, nothing else is stored (the layer at a move budget).
    Goal { only: bool },
    /// States another set holds (the other side of a bidirectional search).
    KnownTo(&'a Visited<S>),
}

/// Expands every state of `layer` (a range of indices of `visited`) in parallel: stores each
/// new successor in `visited` with its parent and returns the layer of the new states, with the
/// index of a target among them (the first of its chunk, of the first chunk that has one).
/// Stops early, with a partial layer, once `ctl` is stopped.
pub(crate) fn expand_layer<P: Stored>(
    space: &P,
    visited: &Visited<P::State>,
    scratch: &ScratchPool<P::State>,
    layer: &Layer,
    ctl: &SearchControl,
    target: &Target<P::State>,
) -> (Layer, Option<u32>) {
    // The next layer is expected to grow as this one did; the tables grow for it now, at most
    // doubling (as they would while it arrives), so that a memory budget still sees them grow.
    // Small layers skip it: a round of the thread pool costs more than their few insertions.
    if layer.before > 0 {
        let growth = layer.states as f64 / layer.before as f64;
        grow_ahead(visited, (layer.states as f64 * growth) as usize);
    }
    let layer_states = layer.states;
    let layer = layer.indices.clone();
    let holes = visited.holes_within(&layer);
    let chunk = chunk_size(layer.len()) as u32;
    let stored = AtomicU64::new(0);
    let expand = |chunk: Range<u32>| {
        if ctl.stop.is_stopped() {
            return None;
        }
        let (new, expanded, target) =
            scratch.with(|s| expand_chunk(space, visited, chunk.clone(), &holes, s, target));
        stored.fetch_add(new, Ordering::Relaxed);
        ctl.progress.add(new, expanded);
        ctl.progress.set_bytes(visited.bytes() + scratch.bytes());
        ctl.progress.set_imminent_bytes(visited.imminent_growth());
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
    scratch.release_reservations(visited);
    let next = Layer {
        indices: end..visited.len() as u32,
        states: stored.into_inner(),
        before: layer_states,
    };
    (next, target)
}

/// The smallest expected layer for which the tables are grown ahead of it.
const RESERVE_FROM: usize = 1 << 14;

/// Grows the tables of `visited` now for `expected` new states, at most doubling them (as they
/// would while the states arrive, so that a memory budget still sees them grow). Why: a table
/// that grows while the workers insert is rehashed under its shard's write lock, and a worker
/// that needs the shard meanwhile waits (on two cores, a fifth of an A*'s time had one core
/// idle so); here every worker rehashes shards at once. Small growths skip it: a round of the
/// thread pool costs more than their few insertions.
pub(crate) fn grow_ahead<S: bytemuck::Pod + Eq + std::hash::Hash + Send + Sync>(
    visited: &Visited<S>,
    expected: usize,
) {
    if expected >= RESERVE_FROM {
        visited.reserve(expected.min(visited.len()));
    }
}

/// States handed to a worker at a time: enough per worker to balance the load, and large enough
/// that a chunk's successors form long per-shard groups in the visited set.
pub(crate) fn chunk_size(layer: usize) -> usize {
    (layer / (rayon::current_num_threads() * 8)).clamp(32, 1024)
}

/// Expands one chunk of a layer (whose holes are `holes`) with a worker's reused buffers;
/// returns the number of new states, of states expanded (the chunk's indices less its holes)
/// and the first new target.
fn expand_chunk<P: Stored>(
    space: &P,
    visited: &Visited<P::State>,
    chunk: Range<u32>,
    holes: &[Range<u32>],
    Scratch {
        successors,
        batch,
        stored,
        ..
    }: &mut Scratch<P::State>,
    target: &Target<P::State>,
) -> (u64, u64, Option<u32>) {
    let (mut expanded, mut new, mut found) = (0, 0, None);
    for index in chunk {
        // A layer has a hole or two per worker: a scan is cheaper than anything cleverer.
        if holes.iter().any(|hole| hole.contains(&index)) {
            continue;
        }
        expanded += 1;
        let state = visited.state(index);
        successors.clear();
        space.successors_after(&state, visited.came_by(index), successors);
        for &next in successors.iter() {
            let next = space.canonical(next);
            if !matches!(target, Target::Goal { only: true }) || space.is_goal(&next) {
                batch.push(next, index, space.move_tag(&next, &state), 0, 0);
            }
        }
        if batch.is_full() {
            new += settle(space, visited, batch, stored, target, &mut found);
        }
    }
    new += settle(space, visited, batch, stored, target, &mut found);
    (new, expanded, found)
}

/// Hands a batch of successors to the set; returns how many were new, and sets `found` to the
/// first target among them if it has none yet.
fn settle<P: Stored>(
    space: &P,
    visited: &Visited<P::State>,
    batch: &mut Batch<P::State>,
    stored: &mut Vec<(P::State, u32)>,
    target: &Target<P::State>,
    found: &mut Option<u32>,
) -> u64 {
    // Targets are looked for after the set's locks are released: in the bidirectional search
    // the test is a lookup in the other side's set, too long to hold a write lock for.
    stored.clear();
    visited.insert_batch(batch, |next, index, _, _| stored.push((next, index)));
    if found.is_none() {
        *found = match target {
            Target::Goal { .. } => stored
                .iter()
                .find(|(s, _)| space.is_goal(s))
                .map(|&(_, i)| i),
            Target::KnownTo(other) => {
                for &(state, index) in stored.iter() {
                    batch.push(state, 0, None, 0, index);
                }
                let mut first = None;
                other.probe_batch(batch, |index, _| {
                    first = first.min(Some(index)).or(Some(index))
                });
                first
            }
        };
    }
    stored.len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::{Fan, assert_stops_near};

    #[test]
    fn a_memory_limit_stops_a_growing_bfs_layer() {
        assert_stops_near(8 << 20, |ctl| bfs(&Fan, ctl));
    }
}
