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

use std::collections::BTreeMap;

use rayon::prelude::*;

use super::bfs::chunk_size;
use super::visited::{Scratch, ScratchPool, Visited};
use super::{SearchControl, SearchOutcome, Space};

/// Queued states with their parents, by (f, g).
type Open<S> = BTreeMap<(u32, u32), Vec<(S, S)>>;

/// What the visited map stores per state.
#[derive(Clone, Copy)]
struct Node<S> {
    parent: S,
    g: u32,
}

/// The successors one chunk queued with their parents, by f minus the bucket's f, and the
/// first optimal goal it met.
struct ChunkResult<S> {
    queued: Vec<Vec<(S, S)>>,
    goal: Option<S>,
}

/// Finds a shortest path from `space.start()` to a goal, or proves there is none.
pub fn astar<P: Space>(space: &P, ctl: &SearchControl) -> SearchOutcome<P::State> {
    let visited: Visited<P::State, Node<P::State>> = Visited::new();
    let scratch = ScratchPool::new();
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
    let entry_size = std::mem::size_of::<(P::State, P::State)>() as u64;
    let mut open_len = 1;
    while let Some(((f, g), bucket)) = open.pop_first() {
        if let Err(limit) = ctl.check() {
            return SearchOutcome::Stopped(limit);
        }
        ctl.set_depth(u64::from(f));
        // A goal queued earlier with this f: every smaller f is done.
        if let Some((goal, _)) = bucket.iter().find(|(s, _)| space.is_goal(s)) {
            return SearchOutcome::Found(visited.path_to(*goal, |n| n.parent));
        }
        let expand = |chunk: &[(P::State, P::State)]| {
            if ctl.is_stopped() {
                return ChunkResult {
                    queued: Vec::new(),
                    goal: None,
                };
            }
            let result = scratch.with(|s| expand_chunk(space, &visited, ctl, chunk, (f, g), s));
            let _ = ctl.check();
            result
        };
        let chunk = chunk_size(bucket.len());
        // A single chunk is expanded on the calling thread, without a round trip through the pool.
        let chunks: Vec<ChunkResult<P::State>> = if bucket.len() <= chunk {
            vec![expand(&bucket)]
        } else {
            bucket.par_chunks(chunk).map(expand).collect()
        };
        open_len -= bucket.len();
        let mut goal = None;
        for chunk in chunks {
            goal = goal.or(chunk.goal);
            for (delta, states) in (0..).zip(chunk.queued) {
                if !states.is_empty() {
                    open_len += states.len();
                    open.entry((f + delta, g + 1)).or_default().extend(states);
                }
            }
        }
        ctl.set_bytes(visited.bytes() + (open_len + bucket.len()) as u64 * entry_size);
        if let Some(goal) = goal {
            return SearchOutcome::Found(visited.path_to(goal, |n| n.parent));
        }
    }
    SearchOutcome::Exhausted
}

/// Expands the states of one chunk of bucket (f, g) with a worker's reused buffers.
fn expand_chunk<P: Space>(
    space: &P,
    visited: &Visited<P::State, Node<P::State>>,
    ctl: &SearchControl,
    chunk: &[(P::State, P::State)],
    (f, g): (u32, u32),
    Scratch { successors, batch }: &mut Scratch<P::State, Node<P::State>>,
) -> ChunkResult<P::State> {
    for (state, parent) in chunk {
        successors.clear();
        space.successors(state, Some(parent).filter(|p| *p != state), successors);
        for &next in successors.iter() {
            let node = Node {
                parent: *state,
                g: g + 1,
            };
            batch.push(space.canonical(next), node, 0);
        }
    }
    let mut result = ChunkResult {
        queued: Vec::new(),
        goal: None,
    };
    let mut stored = 0;
    // The heuristic is computed only for states that are new or reached by a shorter path: most
    // successors are known already and need none.
    visited.insert_batch(
        batch,
        |old, new| old.g > new.g,
        |next, node, _, was_new| {
            stored += u64::from(was_new);
            let Some(h) = space.heuristic(&next) else {
                return;
            };
            let f_next = (node.g + h).max(f);
            if f_next == f && result.goal.is_none() && space.is_goal(&next) {
                result.goal = Some(next);
            }
            let delta = (f_next - f) as usize;
            if result.queued.len() <= delta {
                result.queued.resize_with(delta + 1, Vec::new);
            }
            result.queued[delta].push((next, node.parent));
        },
    );
    ctl.add(stored, chunk.len() as u64);
    result
}
