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
//! [`ordered_astar`] is the variant for spaces with a large branching factor and a weak
//! heuristic, where the last f layer is by far the largest, yet the game can tell which states
//! are likelier to finish ([`Space::tiebreak`], smaller first). Any goal met at the current f
//! is optimal, and at f the goals are the successors of the states in bucket (f, f − 1); so:
//! - Those states are first only searched for a goal among their successors, nothing stored;
//!   then each is queued again in bucket (f + 1, f − 1), with the smallest tiebreak among its
//!   successors as its priority, for a full expansion should the search get there.
//! - Within a layer, buckets are expanded in waves of increasing priority (1024 states, then
//!   doubling), and after each wave of bucket (f, g) the states it queued in (f, g + 1) are
//!   searched first, recursively: depth first by waves. The search stops at the first wave
//!   that meets a goal, usually long before the last layer is through. The order within a
//!   layer costs nothing when no goal is there: with a consistent heuristic a state has one g
//!   per f (g = f − h), so it is never reached again with a smaller g in the same layer.
//!
//! Waves are cut from a deterministic order (priority, then state hash), so the counts still
//! do not depend on thread timing.
//!
//! Memory is reported to the [`SearchControl`] after every chunk, not only after a bucket: one
//! bucket of a large search can queue gigabytes, and the memory budget must see them coming.

use std::collections::BTreeMap;
use std::hash::BuildHasher;
use std::mem::size_of;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::bfs::chunk_size;
use super::visited::{Scratch, ScratchPool, StateHasher, Visited};
use super::{SearchControl, SearchOutcome, Space};

/// What the visited map stores per state.
#[derive(Clone, Copy)]
struct Node<S> {
    parent: S,
    g: u32,
}

/// A queued state: itself, its parent (the start is its own) and its priority (ordered search
/// only, else 0).
type Entry<S> = (S, S, u32);

/// What one chunk produced: successors queued by f minus the bucket's f, states of a goals-only
/// expansion queued again for bucket (f + 1, g), and the first optimal goal met.
struct ChunkResult<S> {
    queued: Vec<Vec<Entry<S>>>,
    deferred: Vec<Entry<S>>,
    goal: Option<S>,
}

impl<S> ChunkResult<S> {
    fn empty() -> Self {
        ChunkResult {
            queued: Vec::new(),
            deferred: Vec::new(),
            goal: None,
        }
    }

    fn bytes(&self) -> u64 {
        let entries: usize = self.queued.iter().map(Vec::capacity).sum();
        ((entries + self.deferred.capacity()) * size_of::<Entry<S>>()) as u64
    }
}

/// How the states of a bucket are expanded.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expansion {
    /// Every successor is offered to the visited map.
    Full,
    /// Only goals among the successors are stored; the state is queued again.
    GoalsOnly,
}

/// Finds a shortest path from `space.start()` to a goal, or proves there is none.
pub fn astar<P: Space>(space: &P, ctl: &SearchControl) -> SearchOutcome<P::State> {
    Search::new(space, ctl, false).run()
}

/// [`astar`] with partial expansion and the last moves searched likeliest first (see the
/// module doc).
pub fn ordered_astar<P: Space>(space: &P, ctl: &SearchControl) -> SearchOutcome<P::State> {
    Search::new(space, ctl, true).run()
}

struct Search<'a, P: Space> {
    space: &'a P,
    ctl: &'a SearchControl,
    ordered: bool,
    visited: Visited<P::State, Node<P::State>>,
    scratch: ScratchPool<P::State, Node<P::State>>,
    open: BTreeMap<(u32, u32), Vec<Entry<P::State>>>,
}

impl<'a, P: Space> Search<'a, P> {
    fn new(space: &'a P, ctl: &'a SearchControl, ordered: bool) -> Self {
        Search {
            space,
            ctl,
            ordered,
            visited: Visited::new(),
            scratch: ScratchPool::new(),
            open: BTreeMap::new(),
        }
    }

    fn run(mut self) -> SearchOutcome<P::State> {
        let space = self.space;
        let start = space.canonical(space.start());
        let Some(h0) = space.heuristic(&start) else {
            return SearchOutcome::Exhausted;
        };
        self.visited.insert_new(
            start,
            Node {
                parent: start,
                g: 0,
            },
        );
        self.ctl.add(1, 0);
        self.open.insert((h0, 0), vec![(start, start, 0)]);
        while let Some(((f, g), bucket)) = self.open.pop_first() {
            if let Err(limit) = self.ctl.check() {
                return SearchOutcome::Stopped(limit);
            }
            if space.max_depth().is_some_and(|max| f > max) {
                return SearchOutcome::Exhausted;
            }
            self.ctl.set_depth(u64::from(f));
            // A goal queued earlier with this f: every smaller f is done.
            if let Some(&(goal, _, _)) = bucket.iter().find(|(s, _, _)| space.is_goal(s)) {
                return self.found(goal);
            }
            let goal = if self.ordered {
                self.in_waves(bucket, (f, g))
            } else {
                self.expand(&bucket, (f, g), Expansion::Full)
            };
            if let Some(goal) = goal {
                return self.found(goal);
            }
            if let Err(limit) = self.ctl.check() {
                return SearchOutcome::Stopped(limit);
            }
        }
        SearchOutcome::Exhausted
    }

    fn found(&self, goal: P::State) -> SearchOutcome<P::State> {
        SearchOutcome::Found(self.visited.path_to(goal, |n| n.parent))
    }

    /// Heap bytes of the open buckets, by capacity (the slack of a growing vector is memory too).
    fn open_bytes(&self) -> u64 {
        let entries: usize = self.open.values().map(Vec::capacity).sum();
        (entries * size_of::<Entry<P::State>>()) as u64
    }

    /// Expands a bucket in waves of increasing priority, searching after each wave the bucket
    /// (f, g + 1) it fed (in waves too, recursively) before the next wave: depth first within
    /// the layer. States one move from a goal (g = f − 1) are only searched for a goal.
    fn in_waves(
        &mut self,
        mut bucket: Vec<Entry<P::State>>,
        (f, g): (u32, u32),
    ) -> Option<P::State> {
        let expansion = if f == g + 1 {
            Expansion::GoalsOnly
        } else {
            Expansion::Full
        };
        let hasher = StateHasher::default();
        bucket.par_sort_unstable_by_key(|&(s, _, priority)| (priority, hasher.hash_one(s)));
        let (mut done, mut size) = (0, 1024);
        while done < bucket.len() {
            let end = (done + size).min(bucket.len());
            if let Some(goal) = self.expand(&bucket[done..end], (f, g), expansion) {
                return Some(goal);
            }
            done = end;
            size *= 2;
            // Between waves, as between buckets: a state limit stops at a reproducible point.
            if self.ctl.check().is_err() {
                return None;
            }
            if let Some(next) = self.open.remove(&(f, g + 1))
                && let Some(goal) = self.in_waves(next, (f, g + 1))
            {
                return Some(goal);
            }
        }
        None
    }

    /// Expands `states` of bucket (f, g) in parallel and queues what they produced.
    fn expand(
        &mut self,
        states: &[Entry<P::State>],
        (f, g): (u32, u32),
        expansion: Expansion,
    ) -> Option<P::State> {
        let (space, ctl, ordered) = (self.space, self.ctl, self.ordered);
        let (visited, scratch) = (&self.visited, &self.scratch);
        let waiting = self.open_bytes() + std::mem::size_of_val(states) as u64;
        let in_flight = AtomicU64::new(0);
        let expand = |chunk: &[Entry<P::State>]| {
            if ctl.is_stopped() {
                return ChunkResult::empty();
            }
            let result = scratch.with(|s| {
                expand_chunk(space, visited, ctl, chunk, (f, g), (expansion, ordered), s)
            });
            let queued = result.bytes();
            let in_flight = in_flight.fetch_add(queued, Ordering::Relaxed) + queued;
            ctl.set_bytes(waiting + visited.bytes() + in_flight);
            let _ = ctl.check_mid_layer();
            result
        };
        let chunk = chunk_size(states.len());
        // A single chunk is expanded on the calling thread, without a round trip through the pool.
        let chunks: Vec<ChunkResult<P::State>> = if states.len() <= chunk {
            vec![expand(states)]
        } else {
            states.par_chunks(chunk).map(expand).collect()
        };
        // Buckets grown to their exact size: the slack of doubling would be memory too.
        let mut arriving = Vec::<usize>::new();
        for chunk in &chunks {
            arriving.resize(arriving.len().max(chunk.queued.len()), 0);
            for (count, states) in arriving.iter_mut().zip(&chunk.queued) {
                *count += states.len();
            }
        }
        for (delta, count) in (0..).zip(arriving) {
            if count > 0 {
                self.open
                    .entry((f + delta, g + 1))
                    .or_default()
                    .reserve_exact(count);
            }
        }
        let mut goal = None;
        for chunk in chunks {
            goal = goal.or(chunk.goal);
            for (delta, states) in (0..).zip(chunk.queued) {
                if !states.is_empty() {
                    self.open
                        .entry((f + delta, g + 1))
                        .or_default()
                        .extend(states);
                }
            }
            if !chunk.deferred.is_empty() {
                self.open
                    .entry((f + 1, g))
                    .or_default()
                    .extend(chunk.deferred);
            }
        }
        ctl.set_bytes(self.visited.bytes() + self.open_bytes());
        goal
    }
}

/// Expands the states of one chunk of bucket (f, g) with a worker's reused buffers; `ordered`
/// adds priorities to what is queued.
fn expand_chunk<P: Space>(
    space: &P,
    visited: &Visited<P::State, Node<P::State>>,
    ctl: &SearchControl,
    chunk: &[Entry<P::State>],
    (f, g): (u32, u32),
    (expansion, ordered): (Expansion, bool),
    Scratch { successors, batch }: &mut Scratch<P::State, Node<P::State>>,
) -> ChunkResult<P::State> {
    let mut result = ChunkResult::empty();
    // Successors at the depth bound matter only if they are goals.
    let last_layer = space.max_depth().is_some_and(|max| g + 1 >= max);
    let goals_only = last_layer || expansion == Expansion::GoalsOnly;
    for &(state, parent, _) in chunk {
        successors.clear();
        space.successors(&state, Some(&parent).filter(|p| **p != state), successors);
        let mut best = u32::MAX;
        for &next in successors.iter() {
            let next = space.canonical(next);
            let node = Node {
                parent: state,
                g: g + 1,
            };
            if goals_only {
                if space.is_goal(&next) {
                    batch.push(next, node, f);
                } else {
                    best = best.min(space.tiebreak(&next));
                }
            } else if let Some(h) = space.heuristic(&next) {
                batch.push(next, node, (g + 1 + h).max(f));
            }
        }
        if expansion == Expansion::GoalsOnly && !last_layer && best != u32::MAX {
            result.deferred.push((state, parent, best));
        }
    }
    let mut stored = 0;
    // The heuristic is computed before the visited map is asked, so that dead states are never
    // stored: in the games with strong dead-state tests (Ice Tower) they outnumber the live
    // ones. Each candidate carries its f as the batch tag.
    visited.insert_batch(
        batch,
        |old, new| old.g > new.g,
        |next, node, f_next, was_new| {
            stored += u64::from(was_new);
            if f_next == f && result.goal.is_none() && space.is_goal(&next) {
                result.goal = Some(next);
            }
            let priority = if ordered { space.tiebreak(&next) } else { 0 };
            let delta = (f_next - f) as usize;
            if result.queued.len() <= delta {
                result.queued.resize_with(delta + 1, Vec::new);
            }
            result.queued[delta].push((next, node.parent, priority));
        },
    );
    ctl.add(stored, chunk.len() as u64);
    result
}
