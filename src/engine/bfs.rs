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
//! The estimate reaches the [`SearchControl`] after every chunk, the part of the next layer
//! built so far included, so that a memory budget stops a large layer while it grows.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::visited::{Batch, Visited};
use super::{SearchControl, SearchOutcome, Space};

/// The part of the next layer one chunk produced: new states with their parents.
struct ChunkResult<S> {
    new_states: Vec<(S, S)>,
    goal: Option<S>,
}

/// Finds a shortest path from `space.start()` to a goal, or proves there is none.
pub fn bfs<P: Space>(space: &P, ctl: &SearchControl) -> SearchOutcome<P::State> {
    let visited: Visited<P::State, P::State> = Visited::new();
    let start = space.canonical(space.start());
    visited.insert_new(start, start);
    ctl.add(1, 0);
    if space.is_goal(&start) {
        return SearchOutcome::Found(vec![start]);
    }
    let entry_size = std::mem::size_of::<(P::State, P::State)>() as u64;
    // Each frontier entry carries its parent (the start is its own) for `Space::successors`.
    let mut frontier = vec![(start, start)];
    let mut depth = 0;
    while !frontier.is_empty() {
        if let Err(limit) = ctl.check() {
            return SearchOutcome::Stopped(limit);
        }
        depth += 1;
        ctl.set_depth(depth);
        let frontier_bytes = frontier.capacity() as u64 * entry_size;
        let in_flight = AtomicU64::new(0);
        let chunks: Vec<ChunkResult<P::State>> = frontier
            .par_chunks(chunk_size(frontier.len()))
            .map_init(
                || (Vec::new(), Batch::new()),
                |(successors, batch), chunk| {
                    if ctl.is_stopped() {
                        return ChunkResult {
                            new_states: Vec::new(),
                            goal: None,
                        };
                    }
                    let result = expand_chunk(space, &visited, chunk, successors, batch);
                    ctl.add(result.new_states.len() as u64, chunk.len() as u64);
                    let built = result.new_states.capacity() as u64 * entry_size;
                    let built = in_flight.fetch_add(built, Ordering::Relaxed) + built;
                    ctl.set_bytes(visited.bytes() + frontier_bytes + built);
                    // Sets the shared stop flag that the other workers poll.
                    let _ = ctl.check();
                    result
                },
            )
            .collect();
        let next_len = chunks.iter().map(|c| c.new_states.len()).sum();
        let mut next = Vec::with_capacity(next_len);
        let mut goal = None;
        for chunk in &chunks {
            next.extend_from_slice(&chunk.new_states);
            goal = goal.or(chunk.goal);
        }
        drop(chunks);
        ctl.set_bytes(visited.bytes() + frontier_bytes + next.capacity() as u64 * entry_size);
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

/// States handed to a worker at a time: enough per worker to balance the load, and large enough
/// that a chunk's successors form long per-shard groups in the visited set.
pub(crate) fn chunk_size(layer: usize) -> usize {
    (layer / (rayon::current_num_threads() * 8)).clamp(32, 1024)
}

/// Expands one chunk of a layer with the worker's reused buffers.
fn expand_chunk<P: Space>(
    space: &P,
    visited: &Visited<P::State, P::State>,
    chunk: &[(P::State, P::State)],
    successors: &mut Vec<P::State>,
    batch: &mut Batch<P::State, P::State>,
) -> ChunkResult<P::State> {
    for (state, parent) in chunk {
        successors.clear();
        space.successors(state, Some(parent).filter(|p| *p != state), successors);
        for &next in successors.iter() {
            batch.push(space.canonical(next), *state, 0);
        }
    }
    let mut result = ChunkResult {
        new_states: Vec::with_capacity(batch.len() / 2),
        goal: None,
    };
    visited.insert_batch(
        batch,
        |_, _| false,
        |next, parent, _, _| {
            result.new_states.push((next, parent));
            if result.goal.is_none() && space.is_goal(&next) {
                result.goal = Some(next);
            }
        },
    );
    result
}
