//! Parallel A* in f-layers, for spaces with an admissible, consistent [`Heuristic::heuristic`].
//!
//! Open states live in buckets keyed by (f, g). Buckets are taken in increasing f, and within one
//! f in increasing g: with unit moves and a consistent heuristic a successor of a state in
//! (f, g) lands in (f' ≥ f, g + 1), so every bucket is complete when it is taken and its states
//! can be expanded in parallel exactly like a BFS layer. The visited set's arena keeps each
//! state with its parent's index and its g (in a reversible space: no parent, and g modulo 256,
//! see [`super::arena::Depths`]), and the buckets hold only indices; a state reached
//! again with a smaller g is improved and re-queued. Its older queue entry is not looked up
//! again (that would cost a map probe per expansion): expanding it once more only meets states
//! already stored with smaller g, so it changes nothing.
//!
//! The first goal met with f equal to the bound being worked on is optimal: every state with a
//! smaller f has been expanded. As in [`super::bfs`], the bucket in which it is met is finished
//! first so the counts do not depend on thread timing. With a heuristic that is always 0 this is
//! breadth-first search with a little more memory per state.
//!
//! [`ordered_astar`] is the variant for spaces with a large branching factor and a weak
//! heuristic, where the last f layer is by far the largest, yet the game can tell which states
//! are likelier to finish ([`Heuristic::work_left`], smaller first). Any goal met at the current f
//! is optimal, and at f the goals are the successors of the states in bucket (f, f − 1); so:
//! - Those states are first only searched for a goal among their successors, nothing stored;
//!   then each is queued again in bucket (f + 1, f − 1), with the least work left among its
//!   successors as its priority, for a full expansion should the search get there.
//! - Within a layer, buckets are expanded in waves of increasing priority (1024 states, then
//!   doubling), and after each wave of bucket (f, g) the states it queued in (f, g + 1) are
//!   searched first, recursively: depth first by waves. The search stops at the first wave
//!   that meets a goal, usually long before the last layer is through. The order within a
//!   layer costs nothing when no goal is there: with a consistent heuristic a state has one g
//!   per f (g = f − h), so it is never reached again with a smaller g in the same layer.
//!
//! Waves are cut from a deterministic order (priority, then state hash), so the counts still
//! do not depend on thread timing. A queued state's priority is its own work left, computed again
//! when its bucket is sorted; only a state queued again after a goals-only expansion carries
//! one (the best of its successors').
//!
//! Memory is reported to the [`SearchControl`] after every chunk, not only after a bucket: one
//! bucket of a large search can queue gigabytes, and the memory budget must see them coming.

use std::collections::BTreeMap;
use std::hash::BuildHasher;
use std::mem::size_of;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::bfs::{chunk_size, full, grow_ahead};
use super::control::{Limit, Limits};
use super::visited::{Batch, Scratch, ScratchPool, StateHasher, Visited};
use super::{Bounded, Heuristic, MoveBudget, SearchControl, SearchOutcome, Space};

/// The states queued for one (f, g): indices into the visited set's arena, in the parts the
/// chunks that queued them produced, (ordered search only) states queued again after a
/// goals-only expansion, each with its priority, and the goals among the parts in queue order.
///
/// Why parts: a bucket of a large search holds tens of millions of indices, and one vector
/// grown as chunks arrive would be copied at every growth, briefly holding twice its size.
/// Why goals apart: they are noted as they are queued, when their state is at hand; looking
/// for them when the bucket is taken would read every queued state back from the arena, on one
/// thread, between two parallel expansions. (A state queued again is never a goal: it was
/// taken once already, and the search would have ended then.)
#[derive(Default)]
struct Bucket {
    parts: Vec<Vec<u32>>,
    ranked: Vec<(u32, u32)>,
    goals: Vec<u32>,
}

impl Bucket {
    fn bytes(&self) -> u64 {
        let indices = self.parts.iter().map(Vec::capacity).sum::<usize>() + self.goals.capacity();
        (indices * size_of::<u32>()
            + self.parts.capacity() * size_of::<Vec<u32>>()
            + self.ranked.capacity() * size_of::<(u32, u32)>()) as u64
    }
}

/// What one chunk produced: successors queued by f minus the bucket's f, the goals among them
/// queued for a larger f (with that difference), states of a goals-only expansion queued again
/// for bucket (f + 1, g) with their priority, and the first optimal goal met.
struct ChunkResult {
    queued: Vec<Vec<u32>>,
    later_goals: Vec<(u32, u32)>,
    deferred: Vec<(u32, u32)>,
    goal: Option<u32>,
}

impl ChunkResult {
    fn empty() -> Self {
        ChunkResult {
            queued: Vec::new(),
            later_goals: Vec::new(),
            deferred: Vec::new(),
            goal: None,
        }
    }

    fn bytes(&self) -> u64 {
        let entries: usize = self.queued.iter().map(Vec::capacity).sum();
        let pairs = self.later_goals.capacity() + self.deferred.capacity();
        (entries * size_of::<u32>() + pairs * size_of::<(u32, u32)>()) as u64
    }
}

/// How the states of a bucket are expanded.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expansion {
    /// Every successor is offered to the visited set.
    Full,
    /// Only goals among the successors are stored; the state is queued again.
    GoalsOnly,
}

/// Finds a shortest path from `space.start()` to a goal, or proves there is none.
pub fn astar<P: Heuristic + MoveBudget>(space: &P, ctl: &SearchControl) -> SearchOutcome<P::State> {
    Search::new(space, ctl, false).run()
}

/// An A* in rounds of growing f-bounds, for searches that memory stops before time does.
///
/// Round `t` is an A* from scratch (`round`: [`astar`] under the control it is given) with a
/// move budget of `t` ([`Bounded`]): a successor whose f is above `t` is dropped as it is
/// generated, not stored. The first round that meets a goal has the optimum. A round that ends
/// without one proves that no solution has `t` moves or fewer, which the control's depth then
/// says; if it dropped nothing for its budget ([`SearchControl::cut`]), it searched the whole
/// space, and there is no solution at all. The rounds go up to the space's own
/// [`MoveBudget::max_depth`], if any.
///
/// Small searches are better off as one A*, which does nothing twice: so the first round is
/// plain [`astar`] under the space's own budget, stopped once it has stored `plain_states`
/// states (none: `0`). Only if that stops it do the rounds begin, at the f it had reached.
///
/// Why rounds: a single A* stores every successor whose f is within the space's budget, and in
/// a space with a weak bound most of them are never expanded (Ice Tower H-49, proving 16
/// pushes: 1.12 G states stored, 162 M expanded). A round stores about what it expands. The
/// price is expanding the earlier rounds' states again: a fraction of about 1/(b − 1) more,
/// where each f-layer holds b times the one before.
pub fn in_rounds<P: Heuristic + MoveBudget>(
    space: &P,
    ctl: &SearchControl,
    plain_states: u64,
    mut round: impl FnMut(&Bounded<'_, P>, &SearchControl) -> SearchOutcome<P::State>,
) -> SearchOutcome<P::State> {
    let Some(start_bound) = space.heuristic(&space.canonical(space.start())) else {
        return SearchOutcome::Exhausted;
    };
    let last = space.max_depth().unwrap_or(u32::MAX);
    let mut first = start_bound;
    if plain_states > 0 {
        let limits = ctl.budget.limits;
        let cap = ctl.progress.states().saturating_add(plain_states);
        let plain = ctl.child(Limits {
            max_states: Some(limits.max_states.map_or(cap, |own| own.min(cap))),
            timeout: limits
                .timeout
                .map(|t| t.saturating_sub(ctl.budget.elapsed())),
            ..limits
        });
        let outcome = round(
            &Bounded {
                space,
                max_depth: last,
            },
            &plain,
        );
        ctl.progress.set_depth(plain.progress.depth());
        match outcome {
            // Stopped by the cap alone: the rounds go on from the f it reached. Decided from
            // the count of states, which every process of a cluster holds alike; a limit of the
            // level's own that struck meanwhile stops the first round at its first look.
            SearchOutcome::Stopped(Limit::States(_))
                if limits
                    .max_states
                    .is_none_or(|own| ctl.progress.states() < own) =>
            {
                first = plain.progress.depth() as u32
            }
            done => return done,
        }
    }
    for bound in first..=last {
        let cut = ctl.progress.cut();
        match round(
            &Bounded {
                space,
                max_depth: bound,
            },
            ctl,
        ) {
            SearchOutcome::Exhausted if ctl.progress.cut() == cut => break,
            // Each round starts its depth again from the start's bound.
            SearchOutcome::Exhausted => ctl.progress.set_depth(u64::from(bound) + 1),
            SearchOutcome::Stopped(limit) => {
                ctl.progress
                    .set_depth(ctl.progress.depth().max(u64::from(bound)));
                return SearchOutcome::Stopped(limit);
            }
            found => return found,
        }
    }
    SearchOutcome::Exhausted
}

/// [`astar`] with partial expansion and the last moves searched likeliest first (see the
/// module doc).
pub fn ordered_astar<P: Heuristic + MoveBudget>(
    space: &P,
    ctl: &SearchControl,
) -> SearchOutcome<P::State> {
    Search::new(space, ctl, true).run()
}

struct Search<'a, P: Heuristic + MoveBudget> {
    space: &'a P,
    ctl: &'a SearchControl,
    ordered: bool,
    visited: Visited<P::State>,
    scratch: ScratchPool<P::State>,
    open: BTreeMap<(u32, u32), Bucket>,
    /// States expanded so far: with the states stored, what a bucket is expected to add.
    expanded: u64,
}

impl<'a, P: Heuristic + MoveBudget> Search<'a, P> {
    fn new(space: &'a P, ctl: &'a SearchControl, ordered: bool) -> Self {
        Search {
            space,
            ctl,
            ordered,
            visited: Visited::for_space(space, true),
            scratch: ScratchPool::new(),
            open: BTreeMap::new(),
            expanded: 0,
        }
    }

    fn run(mut self) -> SearchOutcome<P::State> {
        let space = self.space;
        let start = space.canonical(space.start());
        let Some(h0) = space.heuristic(&start) else {
            return SearchOutcome::Exhausted;
        };
        let root = self.visited.insert_root(start);
        self.ctl.progress.add(1, 0);
        if space.is_goal(&start) {
            return self.found(root);
        }
        // No solution is shorter than the start's bound: what a limit reached before the first
        // bucket still proves.
        self.ctl.progress.set_depth(u64::from(h0));
        self.open.entry((h0, 0)).or_default().parts.push(vec![root]);
        while let Some(((f, g), bucket)) = self.open.pop_first() {
            if let Err(limit) = self.ctl.check().and(full(&self.visited)) {
                return SearchOutcome::Stopped(limit);
            }
            if space.max_depth().is_some_and(|max| f > max) {
                return SearchOutcome::Exhausted;
            }
            self.ctl.progress.set_depth(u64::from(f));
            // A goal queued earlier with this f: every smaller f is done.
            if let Some(&goal) = bucket.goals.first() {
                return self.found(goal);
            }
            let goal = if self.ordered {
                self.in_waves(bucket, (f, g))
            } else {
                let parts: Vec<&[u32]> = bucket.parts.iter().map(Vec::as_slice).collect();
                self.expand(&parts, (f, g), Expansion::Full)
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

    fn found(&self, goal: u32) -> SearchOutcome<P::State> {
        let visited = &self.visited;
        SearchOutcome::Found(visited.path_to(self.space, goal, |i| visited.depth(i)))
    }

    /// Heap bytes of the open buckets, by capacity (the slack of a growing vector is memory too).
    fn open_bytes(&self) -> u64 {
        self.open.values().map(Bucket::bytes).sum()
    }

    /// Everything the search holds: the visited set, the open buckets, the workers' buffers.
    fn bytes(&self) -> u64 {
        self.visited.bytes() + self.open_bytes() + self.scratch.bytes()
    }

    /// Expands a bucket in waves of increasing priority, searching after each wave the bucket
    /// (f, g + 1) it fed (in waves too, recursively) before the next wave: depth first within
    /// the layer. States one move from a goal (g = f − 1) are only searched for a goal.
    fn in_waves(&mut self, bucket: Bucket, (f, g): (u32, u32)) -> Option<u32> {
        let expansion = if f == g + 1 {
            Expansion::GoalsOnly
        } else {
            Expansion::Full
        };
        let bucket = self.sorted(bucket);
        let (mut done, mut size) = (0, 1024);
        while done < bucket.len() {
            let end = (done + size).min(bucket.len());
            if let Some(goal) = self.expand(&[&bucket[done..end]], (f, g), expansion) {
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

    /// The states of a bucket by (priority, state hash): a deterministic order.
    fn sorted(&self, bucket: Bucket) -> Vec<u32> {
        let (space, visited) = (self.space, &self.visited);
        let hasher = StateHasher::default();
        let key = |index: u32, priority: Option<u32>| {
            let state = visited.state(index);
            let priority = priority.unwrap_or_else(|| space.work_left(&state));
            (priority, hasher.hash_one(state), index)
        };
        let mut keyed: Vec<(u32, u64, u32)> = bucket
            .parts
            .par_iter()
            .flat_map_iter(|part| part.iter().map(|&i| key(i, None)))
            .chain(bucket.ranked.par_iter().map(|&(i, p)| key(i, Some(p))))
            .collect();
        drop(bucket);
        keyed.par_sort_unstable();
        keyed.into_iter().map(|(_, _, index)| index).collect()
    }

    /// Expands the states of bucket (f, g) in `parts`, in parallel, and queues what they
    /// produced.
    fn expand(
        &mut self,
        parts: &[&[u32]],
        (f, g): (u32, u32),
        expansion: Expansion,
    ) -> Option<u32> {
        let (space, ctl, ordered) = (self.space, self.ctl, self.ordered);
        let (visited, scratch) = (&self.visited, &self.scratch);
        let len: usize = parts.iter().map(|p| p.len()).sum();
        if self.expanded > 0 {
            let per_state = visited.len() as f64 / self.expanded as f64;
            grow_ahead(visited, (len as f64 * per_state) as usize);
        }
        self.expanded += len as u64;
        let waiting = self.open_bytes() + (len * size_of::<u32>()) as u64;
        let in_flight = AtomicU64::new(0);
        let expand = |chunk: &[&[u32]]| {
            if ctl.stop.is_stopped() {
                return ChunkResult::empty();
            }
            let result = scratch.with(|s| {
                expand_chunk(space, visited, ctl, chunk, (f, g), (expansion, ordered), s)
            });
            let queued = result.bytes();
            let in_flight = in_flight.fetch_add(queued, Ordering::Relaxed) + queued;
            ctl.progress
                .set_bytes(waiting + visited.bytes() + scratch.bytes() + in_flight);
            ctl.progress.set_imminent_bytes(visited.imminent_growth());
            let _ = ctl.check_mid_layer();
            result
        };
        let chunk = chunk_size(len);
        // A single chunk is expanded on the calling thread, without a round trip through the pool.
        let results: Vec<ChunkResult> = if len <= chunk {
            vec![expand(parts)]
        } else {
            chunks_across(parts, chunk)
                .par_iter()
                .map(|c| expand(c))
                .collect()
        };
        let mut goal = None;
        for chunk in results {
            goal = goal.or(chunk.goal);
            for (delta, states) in (0..).zip(chunk.queued) {
                if !states.is_empty() {
                    self.open
                        .entry((f + delta, g + 1))
                        .or_default()
                        .parts
                        .push(states);
                }
            }
            for (delta, index) in chunk.later_goals {
                self.open
                    .entry((f + delta, g + 1))
                    .or_default()
                    .goals
                    .push(index);
            }
            if !chunk.deferred.is_empty() {
                self.open
                    .entry((f + 1, g))
                    .or_default()
                    .ranked
                    .extend(chunk.deferred);
            }
        }
        ctl.progress.set_bytes(self.bytes());
        goal
    }
}

/// The states of a bucket's `parts` cut into chunks of `size` states, each chunk a list of
/// pieces of consecutive parts.
///
/// Why across parts: a bucket's parts are what the chunks that fed it queued for it, each a
/// share of one chunk's successors, so they are often smaller than a chunk. A chunk per part
/// would shrink from one bucket to the next, and with it the batches the visited set takes
/// (longer batches overlap more memory misses and take each shard's lock fewer times).
fn chunks_across<'p>(parts: &[&'p [u32]], size: usize) -> Vec<Vec<&'p [u32]>> {
    let mut chunks = Vec::new();
    let mut chunk = Vec::new();
    let mut room = size;
    for &part in parts {
        let mut part = part;
        while !part.is_empty() {
            let (piece, rest) = part.split_at(room.min(part.len()));
            chunk.push(piece);
            room -= piece.len();
            part = rest;
            if room == 0 {
                chunks.push(std::mem::take(&mut chunk));
                room = size;
            }
        }
    }
    if !chunk.is_empty() {
        chunks.push(chunk);
    }
    chunks
}

/// Expands the states of one chunk of bucket (f, g) with a worker's reused buffers; `ordered`
/// searches defer goals-only expansions with a priority.
fn expand_chunk<P: Heuristic + MoveBudget>(
    space: &P,
    visited: &Visited<P::State>,
    ctl: &SearchControl,
    chunk: &[&[u32]],
    (f, g): (u32, u32),
    (expansion, ordered): (Expansion, bool),
    Scratch {
        successors,
        bounded,
        batch,
        ..
    }: &mut Scratch<P::State>,
) -> ChunkResult {
    let mut result = ChunkResult::empty();
    let len: usize = chunk.iter().map(|piece| piece.len()).sum();
    // Nothing deeper than the arena can store (16-bit depths) is queued.
    if g >= visited.max_depth() {
        ctl.progress.add_cut(len as u64);
        return result;
    }
    // Successors at the depth bound matter only if they are goals, and none whose f is above
    // it is stored (a known solution's length less one prunes this way: [`super::Bounded`]).
    let max_depth = space.max_depth();
    let last_layer = max_depth.is_some_and(|max| g + 1 >= max);
    let goals_only = last_layer || expansion == Expansion::GoalsOnly;
    let (mut stored, mut cut) = (0, 0);
    for &index in chunk.iter().flat_map(|piece| piece.iter()) {
        let state = visited.state(index);
        if goals_only {
            successors.clear();
            space.successors_after(&state, visited.came_by(index), successors);
            let mut best = u32::MAX;
            // Only goals are stored here, so only they are made canonical (a class is alike
            // in goals and tie-breaks).
            for &next in successors.iter() {
                if space.is_goal(&next) {
                    let next = space.canonical(next);
                    batch.push(next, index, space.move_tag(&next, &state), g + 1, f);
                } else {
                    if ordered {
                        best = best.min(space.work_left(&next));
                    }
                    cut += u64::from(last_layer);
                }
            }
            if expansion == Expansion::GoalsOnly && !last_layer && best != u32::MAX {
                result.deferred.push((index, best));
            }
        } else {
            // Not the last layer: g + 1 < max, and a successor's f is within the budget when
            // its bound is within what the budget leaves.
            let limit = max_depth.map_or(u32::MAX, |max| max - g - 1);
            bounded.clear();
            cut +=
                space.successors_within(&state, visited.came_by(index), limit, successors, bounded);
            for &(next, h) in bounded.iter() {
                let f_next = (g + 1 + h).max(f);
                batch.push(next, index, space.move_tag(&next, &state), g + 1, f_next);
            }
        }
        if batch.is_full() {
            stored += settle(space, visited, batch, f, &mut result);
        }
    }
    stored += settle(space, visited, batch, f, &mut result);
    // The slack of doubling would be memory too; the worker drops it, not the thread that
    // queues every chunk's states one after another.
    for states in &mut result.queued {
        states.shrink_to_fit();
    }
    // A state searched only for goals and queued again is counted as expanded once, when its
    // expansion is completed: `expanded` never exceeds `states`.
    ctl.progress
        .add(stored, (len - result.deferred.len()) as u64);
    ctl.progress.add_cut(cut);
    result
}

/// Hands a batch of successors of bucket (f, _) to the set, and queues the ones it stored (new,
/// or reached with a smaller g) by their f less `f`, noting the goals among them (the first at
/// f, which is optimal, and those of a larger f for their buckets); returns how many were new.
///
/// The heuristic was computed before the visited set is asked, so that dead states are never
/// stored: in the games with strong dead-state tests (Ice Tower) they outnumber the live ones.
/// Each candidate carries its f as the batch tag.
fn settle<P: Space>(
    space: &P,
    visited: &Visited<P::State>,
    batch: &mut Batch<P::State>,
    f: u32,
    result: &mut ChunkResult,
) -> u64 {
    let mut new = 0;
    let ChunkResult {
        queued,
        later_goals,
        goal,
        ..
    } = result;
    visited.insert_batch(batch, |state, index, f_next, was_new| {
        new += u64::from(was_new);
        let delta = f_next - f;
        if queued.len() <= delta as usize {
            queued.resize_with(delta as usize + 1, Vec::new);
        }
        queued[delta as usize].push(index);
        if space.is_goal(&state) {
            if delta > 0 {
                later_goals.push((delta, index));
            } else if goal.is_none() {
                *goal = Some(index);
            }
        }
    });
    new
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Bounded;
    use crate::engine::control::Limits;
    use crate::engine::testing::{
        EightPuzzle, Fan, HARDEST, assert_stops_near, checked_length, found_path, moves,
    };
    use crate::engine::{Heuristic, MoveBudget, Space, Stored};

    #[test]
    fn a_limit_before_the_first_bucket_still_proves_the_start_bound() {
        // The root alone reaches `max_states`: nothing is expanded, yet no solution is shorter than
        // the start's Manhattan distance, and that is the depth the search reports.
        let space = EightPuzzle::new(HARDEST, true);
        let h0 = space.heuristic(&space.start()).unwrap();
        assert!(h0 > 0);
        for search in [astar::<EightPuzzle>, ordered_astar::<EightPuzzle>] {
            let ctl = SearchControl::new(Limits {
                max_states: Some(1),
                ..Limits::default()
            });
            assert_eq!(
                search(&space, &ctl),
                SearchOutcome::Stopped(Limit::States(1))
            );
            assert_eq!(ctl.progress.depth(), u64::from(h0));
        }
    }

    /// From the start (5000) every state 0..5000 is one move away; only 4321 leads on, to the
    /// goal (5001).
    struct Wide {
        prefer: bool,
    }

    impl Space for Wide {
        type State = u32;
        fn start(&self) -> u32 {
            5000
        }
        fn successors(&self, state: &u32, out: &mut Vec<u32>) {
            match *state {
                5000 => out.extend(0..5000),
                4321 => out.push(5001),
                _ => {}
            }
        }
        fn is_goal(&self, state: &u32) -> bool {
            *state == 5001
        }
    }

    impl Stored for Wide {}

    impl Heuristic for Wide {
        fn heuristic(&self, state: &u32) -> Option<u32> {
            Some(u32::from(*state != 5001))
        }
        fn work_left(&self, state: &u32) -> u32 {
            u32::from(self.prefer && *state != 4321)
        }
    }

    impl MoveBudget for Wide {}

    #[test]
    fn ordered_astar_expands_the_preferred_states_first_and_stops_at_a_goal() {
        let preferred = SearchControl::unlimited();
        let outcome = ordered_astar(&Wide { prefer: true }, &preferred);
        assert_eq!(moves(outcome), Some(2));
        // The start (searched at f = 1 for goals only, deferred, then expanded in full at f = 2:
        // counted once, when complete), then the first wave of 1024 states of the last bucket.
        assert_eq!(preferred.progress.expanded(), 1 + 1024);
        // Plain A* expands the whole bucket.
        let plain = SearchControl::unlimited();
        assert_eq!(moves(astar(&Wide { prefer: true }, &plain)), Some(2));
        assert_eq!(plain.progress.expanded(), 1 + 5000);
    }

    #[test]
    fn a_known_solution_prunes_astar_and_proves_itself_optimal() {
        // The 8-puzzle's hardest position (31 moves). With a budget of 30 moves A* ends without a
        // solution, which proves a known 31-move one optimal, and stores none of the states it
        // would store unbounded whose f is above 30.
        let space = EightPuzzle::new(HARDEST, true);
        let run = |max_depth| {
            let ctl = SearchControl::unlimited();
            let outcome = match max_depth {
                Some(max_depth) => astar(
                    &Bounded {
                        space: &space,
                        max_depth,
                    },
                    &ctl,
                ),
                None => astar(&space, &ctl),
            };
            (outcome, ctl.progress.states())
        };
        let (free, all) = run(None);
        assert_eq!(checked_length(&space, &found_path(free)), 31);
        let (found, at_optimum) = run(Some(31));
        assert_eq!(checked_length(&space, &found_path(found)), 31);
        let (none, below) = run(Some(30));
        assert_eq!(none, SearchOutcome::Exhausted);
        assert!(
            below < at_optimum && at_optimum < all,
            "{below} {at_optimum} {all}"
        );
    }

    /// [`in_rounds`] with the local A* for each round.
    fn rounds_of_astar<P: Heuristic + MoveBudget>(
        space: &P,
        ctl: &SearchControl,
        plain_states: u64,
    ) -> SearchOutcome<P::State> {
        in_rounds(space, ctl, plain_states, |round, ctl| astar(round, ctl))
    }

    #[test]
    fn astar_in_rounds_finds_the_optimum_holding_only_states_within_each_round() {
        // The 8-puzzle's hardest position (31 moves) under a loose budget of 45 moves. One A*
        // stores successors with f up to 45 that it never expands; the rounds (from the start's
        // bound of 21) never hold one above the round's bound, so their peak is smaller.
        let space = EightPuzzle::new(HARDEST, true);
        let loose = Bounded {
            space: &space,
            max_depth: 45,
        };
        let once = SearchControl::unlimited();
        assert_eq!(
            checked_length(&space, &found_path(astar(&loose, &once))),
            31
        );
        let rounds = SearchControl::unlimited();
        let found = rounds_of_astar(&loose, &rounds, 0);
        assert_eq!(checked_length(&space, &found_path(found)), 31);
        assert!(
            rounds.progress.peak_bytes() < once.progress.peak_bytes(),
            "{} against {}",
            rounds.progress.peak_bytes(),
            once.progress.peak_bytes()
        );
        // A plain A* first: one that finishes within its states is the single A*, count for
        // count; one that the cap stops hands on to the rounds at the f it reached.
        let plain = SearchControl::unlimited();
        let found = rounds_of_astar(&loose, &plain, 1 << 20);
        assert_eq!(checked_length(&space, &found_path(found)), 31);
        assert_eq!(plain.progress.states(), once.progress.states());
        let capped = SearchControl::unlimited();
        let found = rounds_of_astar(&loose, &capped, 1_000);
        assert_eq!(checked_length(&space, &found_path(found)), 31);
        assert!(
            capped.progress.states() > 1_000,
            "{}",
            capped.progress.states()
        );
        // Below the optimum every round ends, and the last proves that no solution has 30 moves
        // or fewer.
        let tight = Bounded {
            space: &space,
            max_depth: 30,
        };
        let ctl = SearchControl::unlimited();
        let none = rounds_of_astar(&tight, &ctl, 0);
        assert_eq!((none, ctl.progress.depth()), (SearchOutcome::Exhausted, 31));
        // Without a budget, the rounds end when one drops nothing: here the half of the 8-puzzle's
        // positions that cannot reach the goal (two tiles swapped), whole.
        let unsolvable = EightPuzzle::new([2, 1, 3, 4, 5, 6, 7, 8, 0], true);
        let whole = SearchControl::unlimited();
        let none = rounds_of_astar(&unsolvable, &whole, 0);
        assert_eq!(none, SearchOutcome::Exhausted);
        let once = SearchControl::unlimited();
        assert_eq!(astar(&unsolvable, &once), SearchOutcome::Exhausted);
        assert_eq!(once.progress.states(), 181_440);
        // A limit inside a round keeps what the rounds before it proved.
        let ctl = SearchControl::new(Limits {
            max_states: Some(ctl.progress.states() - 1),
            ..Limits::default()
        });
        let stopped = rounds_of_astar(&tight, &ctl, 0);
        assert!(matches!(stopped, SearchOutcome::Stopped(Limit::States(_))));
        assert_eq!(ctl.progress.depth(), 30);
    }

    #[test]
    fn chunks_are_cut_across_parts_in_order() {
        let parts: [&[u32]; 4] = [&[1, 2, 3], &[4], &[], &[5, 6, 7, 8, 9]];
        let chunks = chunks_across(&parts, 4);
        let expected: [&[&[u32]]; 3] = [&[&[1, 2, 3], &[4]], &[&[5, 6, 7, 8]], &[&[9]]];
        assert_eq!(chunks, expected);
        assert!(chunks_across(&[&[]], 4).is_empty());
    }

    #[test]
    fn a_memory_limit_stops_a_growing_astar_bucket() {
        assert_stops_near(8 << 20, |ctl| astar(&Fan, ctl));
    }
}
