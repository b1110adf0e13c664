//! Beam search: breadth-first, but each layer keeps only the `width` states that look closest to
//! done: the smallest [`Heuristic::work_left`] (a game's measure of the work left, such as fires
//! still burning), then the smallest heuristic. It finds solutions quickly in spaces far too
//! large to search whole, and proves nothing about them: its answer is an upper bound, which an
//! optimal search can then use to prune. [`anytime`] runs beams of growing width and keeps the
//! best solution.
//!
//! Why the work left before the heuristic: an admissible heuristic is a bound, often a loose
//! one, and a beam ranked by it alone keeps states whose bound is low because some relaxation
//! is cheap, not because they are close to a goal (Ice Tower H-49: 33 pushes after 5 minutes
//! ranked by the bound, 23 pushes in 30 s ranked by fires left).
//!
//! A layer is expanded in parallel chunks like a BFS layer. The successors are looked up in the
//! visited set without being stored ([`Visited::probe_batch`]); the new ones, deduplicated,
//! are ranked by (work left, heuristic, state hash), a deterministic order, and only the best
//! `width` are stored, with their parent, and form the next layer. So the set holds at most
//! `width` states per layer, and a run's counts do not depend on the threads.

use std::hash::BuildHasher;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::arena::{Depths, Storage};
use super::bfs::chunk_size;
use super::visited::{Batch, Scratch, ScratchPool, StateHasher, Visited};
use super::{Bounded, Heuristic, MoveBudget, SearchControl, SearchOutcome};

/// A successor waiting to be ranked: (work left, heuristic, hash) orders it.
type Ranked<S> = (u32, u32, u64, S, u32);

/// What a beam found, and whether it was exact: a beam that never had to drop a state was a
/// breadth-first search, so its path is a shortest one and `Exhausted` proves there is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Beam<S> {
    pub outcome: SearchOutcome<S>,
    pub exact: bool,
}

/// Searches `space` with beams of width `width`; finds a path, not always a shortest one.
/// `Exhausted` means only that the beam lost every state, unless the beam was exact.
pub fn beam<P: Heuristic + MoveBudget>(
    space: &P,
    width: usize,
    ctl: &SearchControl,
) -> Beam<P::State> {
    let mut exact = true;
    let outcome = beam_search(space, width, ctl, &mut exact);
    Beam { outcome, exact }
}

fn beam_search<P: Heuristic + MoveBudget>(
    space: &P,
    width: usize,
    ctl: &SearchControl,
    exact: &mut bool,
) -> SearchOutcome<P::State> {
    // A beam's layers are not every state at their depth, so a path is rebuilt by parents.
    let layout = space.layout();
    let visited = Visited::new(Storage {
        width: layout.bytes,
        parents: true,
        depths: Depths::None,
        tags: layout.tagged,
    });
    let scratch = ScratchPool::new();
    let start = space.canonical(space.start());
    if space.heuristic(&start).is_none() {
        return SearchOutcome::Exhausted;
    }
    let root = visited.insert_root(start);
    ctl.progress.add(1, 0);
    if space.is_goal(&start) {
        return SearchOutcome::Found(vec![start]);
    }
    let hasher = StateHasher::default();
    let mut layer = vec![root];
    let mut depth = 0u32;
    while !layer.is_empty() {
        if let Err(limit) = ctl.check() {
            return SearchOutcome::Stopped(limit);
        }
        depth += 1;
        if space.max_depth().is_some_and(|max| depth > max) {
            return SearchOutcome::Exhausted;
        }
        let chunk = chunk_size(layer.len());
        // Expansions are counted as they happen, so that progress moves within a wide layer.
        let expand = |chunk: &[u32]| {
            ctl.progress.add(0, chunk.len() as u64);
            scratch.with(|s| successors_of(space, &visited, chunk, depth, &hasher, s))
        };
        let mut ranked: Vec<Ranked<P::State>> = if layer.len() <= chunk {
            expand(&layer)
        } else {
            layer.par_chunks(chunk).flat_map_iter(expand).collect()
        };
        ranked.par_sort_unstable_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
        // Equal states rank alike, so they are neighbours now.
        ranked.dedup_by(|a, b| a.3 == b.3);
        if let Some(&(_, _, _, goal, parent)) = ranked.iter().find(|r| space.is_goal(&r.3)) {
            // Parents are kept, so no depth is asked for.
            let mut path = visited.path_to(space, parent, |_| 0);
            path.push(goal);
            return SearchOutcome::Found(path);
        }
        *exact &= ranked.len() <= width;
        ranked.truncate(width);
        let mut batch = Batch::new();
        for &(_, _, _, state, parent) in &ranked {
            let move_tag = if layout.tagged {
                space.move_tag(&state, &visited.state(parent))
            } else {
                None
            };
            batch.push(state, parent, move_tag, 0, 0);
        }
        let mut next = Vec::with_capacity(ranked.len());
        visited.insert_batch(&mut batch, |_, index, _, _| next.push(index));
        ctl.progress.add(next.len() as u64, 0);
        ctl.progress.set_depth(u64::from(depth));
        ctl.progress.set_bytes(
            visited.bytes()
                + scratch.bytes()
                + (ranked.capacity() * size_of::<Ranked<P::State>>()) as u64,
        );
        layer = next;
    }
    SearchOutcome::Exhausted
}

/// The successors of a chunk of a layer that the visited set does not hold yet, with their
/// ranks, `depth` moves from the start. Dead states (no heuristic) are left out, and so are
/// those whose heuristic says they cannot reach a goal within the space's move budget, as
/// [`super::astar`] leaves them out: the game is asked for the successors within what the
/// budget leaves ([`Heuristic::successors_within`]), so that it can drop them before the rest of
/// their work.
fn successors_of<P: Heuristic + MoveBudget>(
    space: &P,
    visited: &Visited<P::State>,
    chunk: &[u32],
    depth: u32,
    hasher: &StateHasher,
    Scratch {
        successors,
        bounded,
        batch,
        stored,
    }: &mut Scratch<P::State>,
) -> Vec<Ranked<P::State>> {
    let max_depth = space.max_depth();
    let limit = max_depth.map_or(u32::MAX, |max| max.saturating_sub(depth));
    bounded.clear();
    stored.clear();
    for &index in chunk {
        let state = visited.state(index);
        let first = bounded.len();
        space.successors_within(&state, visited.came_by(index), limit, successors, bounded);
        for &(next, _) in &bounded[first..] {
            batch.push(next, index, None, 0, stored.len() as u32);
            stored.push((next, index));
        }
    }
    let mut known = vec![false; stored.len()];
    visited.probe_batch(batch, |i, _| known[i as usize] = true);
    stored
        .iter()
        .zip(bounded.iter())
        .zip(known)
        .filter(|&((&(_, _), &(_, h)), known)| {
            !known && max_depth.is_none_or(|max| depth + h <= max)
        })
        .map(|((&(state, parent), &(_, h)), _)| {
            (
                space.work_left(&state),
                h,
                hasher.hash_one(state),
                state,
                parent,
            )
        })
        .collect()
}

/// The best solution [`beam`] finds with widths growing threefold from `first_width` until the
/// time `budget` is spent, `ctl` stops it, a beam is exact, or a solution of `lower_bound`
/// moves is found. Once a solution is known (`known`, or a beam's), the next beams look only
/// for shorter ones: they run [`Bounded`] by it, so a state whose heuristic says it cannot
/// finish in fewer moves is dropped before it takes a place in the beam. Returns the shortest
/// path known, if any, and whether it is proven shortest: by the lower bound, or by an exact
/// beam (one that dropped nothing for its width searched everything shorter).
pub fn anytime<P: Heuristic + MoveBudget>(
    space: &P,
    first_width: usize,
    lower_bound: u64,
    known: Option<Vec<P::State>>,
    budget: Duration,
    ctl: &SearchControl,
) -> Option<(Vec<P::State>, bool)> {
    let started = Instant::now();
    let mut best = known;
    let mut width = first_width;
    while started.elapsed() < budget && !ctl.stop.is_stopped() {
        let run = match &best {
            Some(path) if path.len() as u64 - 1 <= lower_bound => break,
            Some(path) => {
                let max_depth = (path.len() - 2) as u32;
                beam(&Bounded { space, max_depth }, width, ctl)
            }
            None => beam(space, width, ctl),
        };
        match run.outcome {
            // A bounded beam finds only shorter paths.
            SearchOutcome::Found(path) => best = Some(path),
            SearchOutcome::Exhausted => {}
            SearchOutcome::Stopped(_) => break,
        }
        if run.exact {
            return best.map(|b| (b, true));
        }
        width = width.saturating_mul(3);
    }
    best.map(|b| {
        let proven = b.len() as u64 - 1 <= lower_bound;
        (b, proven)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::astar::astar;
    use crate::engine::testing::{
        EightPuzzle, HARDEST, OneWay, checked_length, found_path, one_way_distances, with_threads,
    };
    use crate::engine::{MoveBudget, Space, Stored};

    /// Numbers from 0, each move +1 or +3, up to 30; the goal is 30. The heuristic says nothing
    /// (0); the work left (`work_left`) is the distance to 30.
    struct Ranked;

    impl Space for Ranked {
        type State = u32;
        fn start(&self) -> u32 {
            0
        }
        fn successors(&self, state: &u32, out: &mut Vec<u32>) {
            out.extend([state + 1, state + 3].into_iter().filter(|&s| s <= 30));
        }
        fn is_goal(&self, state: &u32) -> bool {
            *state == 30
        }
    }

    impl Stored for Ranked {}

    impl Heuristic for Ranked {
        fn heuristic(&self, _: &u32) -> Option<u32> {
            Some(0)
        }
        fn work_left(&self, state: &u32) -> u32 {
            30 - state
        }
    }

    impl MoveBudget for Ranked {}

    #[test]
    fn a_beam_keeps_the_states_with_the_least_work_left() {
        // A beam of one keeps the largest number of each layer: +3 ten times.
        let ctl = SearchControl::unlimited();
        let found = found_path(beam(&Ranked, 1, &ctl).outcome);
        assert_eq!(found, (0..=30).step_by(3).collect::<Vec<_>>());
    }

    #[test]
    fn beams_find_valid_paths_and_wider_beams_find_shorter_ones() {
        // The 8-puzzle with Manhattan ranking: a narrow beam finds some path, the anytime search
        // with growing widths one no longer, and none is shorter than the optimum.
        let space = EightPuzzle::new(HARDEST, true);
        let narrow = match beam(&space, 10, &SearchControl::unlimited()).outcome {
            SearchOutcome::Found(path) => checked_length(&space, &path),
            other => panic!("a beam of 10 found nothing: {other:?}"),
        };
        assert!(narrow >= 31);
        let best = with_threads(4, || {
            anytime(
                &space,
                10,
                31,
                None,
                std::time::Duration::from_secs(60),
                &SearchControl::unlimited(),
            )
        })
        .expect("a path");
        assert!(best.1, "a beam as wide as the space is exact");
        let best = checked_length(&space, &best.0);
        assert!((31..=narrow).contains(&best), "{best} against {narrow}");
        // A beam as wide as the space is breadth-first search: optimal.
        assert_eq!(best, 31);
    }

    #[test]
    fn beams_after_a_known_solution_look_only_for_shorter_ones() {
        // The 8-puzzle's hardest start (31 moves) with Manhattan ranking. A beam of 20 finds a
        // longer path. Given it, the anytime search keeps no state that its heuristic says cannot
        // finish shorter: it stores fewer states before a beam wide enough to drop nothing proves
        // the optimum.
        let space = EightPuzzle::new(HARDEST, true);
        let narrow = found_path(beam(&space, 20, &SearchControl::unlimited()).outcome);
        assert!(
            checked_length(&space, &narrow) > 31,
            "a beam of 20 found the optimum"
        );
        let run = |known: Option<Vec<u64>>| {
            let ctl = SearchControl::unlimited();
            let (path, proven) =
                anytime(&space, 20, 0, known, std::time::Duration::MAX, &ctl).expect("a path");
            assert!(proven, "the widths grow until a beam drops nothing");
            (checked_length(&space, &path), ctl.progress.states())
        };
        let (alone, alone_states) = run(None);
        let (bounded, bounded_states) = run(Some(narrow));
        assert_eq!((alone, bounded), (31, 31));
        assert!(
            bounded_states < alone_states,
            "{bounded_states} against {alone_states}"
        );
        // Given an optimal path, a beam wide enough to drop nothing searched every shorter path,
        // found none, and so proves it optimal with no lower bound given.
        let optimal = found_path(astar(&space, &SearchControl::unlimited()));
        let proof = anytime(
            &space,
            1 << 20,
            0,
            Some(optimal.clone()),
            std::time::Duration::MAX,
            &SearchControl::unlimited(),
        );
        assert_eq!(proof, Some((optimal, true)));
    }

    #[test]
    fn a_beam_follows_one_way_moves_and_its_counts_do_not_depend_on_threads() {
        let space = OneWay {
            target: 77_777,
            limit: 100_000,
            informed: true,
        };
        let run = |threads| {
            let ctl = SearchControl::unlimited();
            let outcome = with_threads(threads, || beam(&space, 50, &ctl));
            (outcome.outcome, ctl.progress.states())
        };
        let (one, states) = run(1);
        assert_eq!(run(4), (one.clone(), states));
        let SearchOutcome::Found(path) = one else {
            panic!("no path")
        };
        assert_eq!((path[0], *path.last().unwrap()), (1, 77_777));
        for pair in path.windows(2) {
            let mut next = Vec::new();
            space.successors(&pair[0], &mut next);
            assert!(next.contains(&pair[1]), "{pair:?} is not a move");
        }
        assert!(path.len() as u32 > one_way_distances(100_000)[77_777]);
    }
}
