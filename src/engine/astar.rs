//! Parallel A* in f-layers, for spaces with an admissible, consistent [`Space::heuristic`].
//!
//! Open states live in buckets keyed by (f, g). Buckets are taken in increasing f, and within one
//! f in increasing g: with unit moves and a consistent heuristic a successor of a state in
//! (f, g) lands in (f' ≥ f, g + 1), so every bucket is complete when it is taken and its states
//! can be expanded in parallel exactly like a BFS layer. The visited map stores (parent, g); a
//! state reached again with a smaller g is improved and re-queued. Its older queue entry is not
//! looked up again (that would cost a map probe per expansion): expanding it once more only
//! meets states already stored with smaller g, so it changes nothing.
//!
//! The first goal met with f equal to the bound being worked on is optimal: every state with a
//! smaller f has been expanded. As in [`super::bfs`], the bucket in which it is met is finished
//! first so the counts do not depend on thread timing. With the default heuristic (always 0) this
//! is breadth-first search with a little more memory per state.
//!
//! Memory is reported to the [`SearchControl`] after every chunk, not only after a bucket: one
//! bucket of a large search can queue gigabytes, and the memory budget must see them coming.
//! The estimate counts the capacity of every vector (the slack of a growing vector is memory
//! too), the visited map, and the successors queued by the chunks of the bucket in progress.

use std::collections::BTreeMap;
use std::mem::size_of;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::bfs::chunk_size;
use super::visited::{Batch, Visited};
use super::{SearchControl, SearchOutcome, Space};

/// What the visited map stores per state.
#[derive(Clone, Copy)]
struct Node<S> {
    parent: S,
    g: u32,
}

/// Queued states with their parents, by (f, g).
type Open<S> = BTreeMap<(u32, u32), Vec<(S, S)>>;

/// The successors one chunk queued, with their f and parent, and the first optimal goal it met.
struct ChunkResult<S> {
    queued: Vec<(u32, S, S)>,
    goal: Option<S>,
}

/// Finds a shortest path from `space.start()` to a goal, or proves there is none.
pub fn astar<P: Space>(space: &P, ctl: &SearchControl) -> SearchOutcome<P::State> {
    let visited: Visited<P::State, Node<P::State>> = Visited::new();
    let start = space.canonical(space.start());
    let Some(h0) = space.heuristic(&start) else {
        return SearchOutcome::Exhausted;
    };
    visited.insert_new(
        start,
        Node {
            parent: start,
            g: 0,
        },
    );
    ctl.add(1, 0);
    // Queued states with their parents (the start is its own), by (f, g).
    let mut open: Open<P::State> = BTreeMap::new();
    open.insert((h0, 0), vec![(start, start)]);
    let entry_size = size_of::<(P::State, P::State)>() as u64;
    let queued_size = size_of::<(u32, P::State, P::State)>() as u64;
    let open_bytes = |open: &Open<P::State>| -> u64 {
        open.values().map(|b| b.capacity() as u64).sum::<u64>() * entry_size
    };
    while let Some(((f, g), bucket)) = open.pop_first() {
        if let Err(limit) = ctl.check() {
            return SearchOutcome::Stopped(limit);
        }
        ctl.set_depth(u64::from(f));
        // A goal queued earlier with this f: every smaller f is done.
        if let Some((goal, _)) = bucket.iter().find(|(s, _)| space.is_goal(s)) {
            return SearchOutcome::Found(visited.path_to(*goal, |n| n.parent));
        }
        let waiting = open_bytes(&open) + bucket.capacity() as u64 * entry_size;
        let in_flight = AtomicU64::new(0);
        let chunks: Vec<ChunkResult<P::State>> = bucket
            .par_chunks(chunk_size(bucket.len()))
            .map_init(
                || (Vec::new(), Batch::new()),
                |(successors, batch), chunk| {
                    if ctl.is_stopped() {
                        return ChunkResult {
                            queued: Vec::new(),
                            goal: None,
                        };
                    }
                    let result =
                        expand_chunk(space, &visited, ctl, chunk, (f, g), successors, batch);
                    let queued = result.queued.capacity() as u64 * queued_size;
                    let in_flight = in_flight.fetch_add(queued, Ordering::Relaxed) + queued;
                    ctl.set_bytes(waiting + visited.bytes() + in_flight);
                    let _ = ctl.check();
                    result
                },
            )
            .collect();
        // Buckets grown to their exact size: the slack of doubling would be memory too.
        let mut arriving: BTreeMap<u32, usize> = BTreeMap::new();
        for (f_next, _, _) in chunks.iter().flat_map(|c| &c.queued) {
            *arriving.entry(*f_next).or_default() += 1;
        }
        for (f_next, count) in arriving {
            open.entry((f_next, g + 1))
                .or_default()
                .reserve_exact(count);
        }
        let mut goal = None;
        for chunk in chunks {
            goal = goal.or(chunk.goal);
            for (f_next, state, parent) in chunk.queued {
                open.entry((f_next, g + 1))
                    .or_default()
                    .push((state, parent));
            }
        }
        ctl.set_bytes(open_bytes(&open) + visited.bytes());
        if let Some(goal) = goal {
            return SearchOutcome::Found(visited.path_to(goal, |n| n.parent));
        }
    }
    SearchOutcome::Exhausted
}

/// Expands the states of one chunk of bucket (f, g) with the worker's reused buffers.
fn expand_chunk<P: Space>(
    space: &P,
    visited: &Visited<P::State, Node<P::State>>,
    ctl: &SearchControl,
    chunk: &[(P::State, P::State)],
    (f, g): (u32, u32),
    successors: &mut Vec<P::State>,
    batch: &mut Batch<P::State, Node<P::State>>,
) -> ChunkResult<P::State> {
    for (state, parent) in chunk {
        successors.clear();
        space.successors(state, Some(parent).filter(|p| *p != state), successors);
        for &next in successors.iter() {
            let next = space.canonical(next);
            if let Some(h) = space.heuristic(&next) {
                let node = Node {
                    parent: *state,
                    g: g + 1,
                };
                batch.push(next, node, (g + 1 + h).max(f));
            }
        }
    }
    let mut result = ChunkResult {
        queued: Vec::with_capacity(batch.len() / 2),
        goal: None,
    };
    let mut stored = 0;
    visited.insert_batch(
        batch,
        |old, new| old.g > new.g,
        |next, node, f_next, was_new| {
            stored += u64::from(was_new);
            if f_next == f && result.goal.is_none() && space.is_goal(&next) {
                result.goal = Some(next);
            }
            result.queued.push((f_next, next, node.parent));
        },
    );
    ctl.add(stored, chunk.len() as u64);
    result
}
