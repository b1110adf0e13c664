//! Whole-space exploration of a small space on the calling thread: the multi-source BFS of
//! [`super::explore`], for callers that run many small spaces side by side on their own
//! threads. `frontier generate` searches millions of puzzle classes, most of a few dozen
//! positions, a unit of classes per thread: there the parallel search's sharded visited set,
//! its parent links and its per-worker buffers cost more to set up and tear down than the
//! search itself (on 4×5 at 4 pieces the parallel search took 45% of the run, its set's
//! inserts, setup and teardown a half of that; this search made the run 1.45x faster).
//!
//! Here a state is stored once in a hash set and once in a vector in layer order, with the tag
//! of the move that reached it, and nothing else; a [`SerialExplorer`] keeps both from one
//! exploration to the next. A caller gives the most states it accepts:
//! past them the exploration stops and hands over the layers it completed, from which
//! [`super::explore::explore_further`] goes on in parallel, so that a large space is not
//! explored twice and this one's memory stays small. A space that fits gives the same layers
//! as [`super::explore`]: the same states at the same depths (the order within a layer may
//! differ).

use std::hash::Hash;

use hashbrown::HashSet;

use super::explore::Layers;
use super::visited::StateHasher;
use super::{MoveBudget, Stored};

/// The layers of a small space explored by [`SerialExplorer::explore`].
pub struct SerialExploration<S> {
    /// Every state reached, layer after layer.
    states: Vec<S>,
    /// The tag of the move that reached each state ([`NO_TAG`] for none).
    tags: Vec<u8>,
    /// Where each layer begins in `states`, then the end of the last one.
    bounds: Vec<usize>,
}

/// A move tag as stored: `NO_TAG` for none ([`Stored::move_tag`]'s `None`).
const NO_TAG: u8 = u8::MAX;

/// The set and vectors of serial explorations, kept from one to the next: a caller that
/// explores millions of spaces of a few dozen states one after another (`generate`) would
/// otherwise allocate and grow them afresh for each.
pub struct SerialExplorer<S> {
    seen: HashSet<S, StateHasher>,
    explored: SerialExploration<S>,
    successors: Vec<S>,
}

/// Buckets of the set past which it is dropped after an exploration rather than cleared:
/// clearing costs its capacity, which one large space would otherwise impose on every small
/// one after it.
const KEPT_BUCKETS: usize = 1 << 12;

impl<S> Default for SerialExplorer<S> {
    fn default() -> Self {
        SerialExplorer {
            seen: HashSet::with_hasher(StateHasher::default()),
            explored: SerialExploration {
                states: Vec::new(),
                tags: Vec::new(),
                bounds: Vec::new(),
            },
            successors: Vec::new(),
        }
    }
}

impl<S: Copy + Eq + Hash> SerialExplorer<S> {
    /// Explores everything reachable from `sources` (at least one) on this thread, goals
    /// expanded like any state unless `expand_goals` is false, up to the space's move budget.
    /// Once more than `most` states are reached: `Err` with the layers completed before (the
    /// sources at least), for [`super::explore::explore_further`]. The layers are valid until
    /// the next exploration.
    pub fn explore<P: Stored<State = S> + MoveBudget>(
        &mut self,
        space: &P,
        sources: &[S],
        expand_goals: bool,
        most: usize,
    ) -> Result<&SerialExploration<S>, &SerialExploration<S>> {
        if self.seen.capacity() > KEPT_BUCKETS {
            self.seen = HashSet::with_hasher(StateHasher::default());
        } else {
            self.seen.clear();
        }
        let SerialExplorer {
            seen,
            explored,
            successors,
        } = self;
        let SerialExploration {
            states,
            tags,
            bounds,
        } = explored;
        states.clear();
        tags.clear();
        bounds.clear();
        for &source in sources {
            let source = space.canonical(source);
            if seen.insert(source) {
                states.push(source);
                tags.push(NO_TAG);
            }
        }
        bounds.extend([0, states.len()]);
        let budget = space.max_depth().map_or(usize::MAX, |d| d as usize);
        while bounds.len() - 2 < budget {
            let layer = bounds[bounds.len() - 2]..bounds[bounds.len() - 1];
            for i in layer {
                let state = states[i];
                if !expand_goals && space.is_goal(&state) {
                    continue;
                }
                successors.clear();
                let came_by = Some(tags[i]).filter(|&t| t != NO_TAG);
                space.successors_after(&state, came_by, successors);
                for &next in successors.iter() {
                    let next = space.canonical(next);
                    if seen.insert(next) {
                        if states.len() == most {
                            let complete = bounds[bounds.len() - 1];
                            states.truncate(complete);
                            tags.truncate(complete);
                            return Err(explored);
                        }
                        states.push(next);
                        tags.push(space.move_tag(&next, &state).unwrap_or(NO_TAG));
                    }
                }
            }
            if states.len() == bounds[bounds.len() - 1] {
                break;
            }
            bounds.push(states.len());
        }
        Ok(explored)
    }
}

impl<S: Copy> SerialExploration<S> {
    /// The layers completed: each one's states, with the tag of the move that reached each.
    pub fn layers(&self) -> impl Iterator<Item = (&[S], impl Iterator<Item = Option<u8>> + '_)> {
        self.bounds.windows(2).map(|w| {
            let tags = self.tags[w[0]..w[1]].iter();
            (
                &self.states[w[0]..w[1]],
                tags.map(|&t| Some(t).filter(|&t| t != NO_TAG)),
            )
        })
    }
}

impl<S: Copy> Layers<S> for SerialExploration<S> {
    fn eccentricity(&self) -> u32 {
        self.bounds.len() as u32 - 2
    }

    fn states(&self) -> u64 {
        self.states.len() as u64
    }

    fn layer(&self, depth: u32) -> impl Iterator<Item = S> + '_ {
        let d = depth as usize;
        self.states[self.bounds[d]..self.bounds[d + 1]]
            .iter()
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SearchControl;
    use crate::engine::explore::{explore, explore_further};
    use crate::engine::testing::{EightPuzzle, HARDEST, SOLVED, pack};

    /// The layers as sorted sets, so that two explorations compare whatever the order within
    /// a layer.
    fn sorted(layers: &impl Layers<u64>) -> Vec<Vec<u64>> {
        (0..=layers.eccentricity())
            .map(|d| {
                let mut layer: Vec<u64> = layers.layer(d).collect();
                layer.sort_unstable();
                layer
            })
            .collect()
    }

    #[test]
    fn gives_the_layers_of_the_parallel_exploration() {
        let space = EightPuzzle::new(SOLVED, false);
        let ctl = SearchControl::unlimited();
        // From the goal and the hardest position at once; from the hardest position with the
        // goal a dead end.
        for (sources, expand_goals) in [
            (vec![pack(SOLVED), pack(HARDEST), pack(SOLVED)], true),
            (vec![pack(HARDEST)], false),
        ] {
            let mut explorer = SerialExplorer::default();
            let Ok(serial) = explorer.explore(&space, &sources, expand_goals, usize::MAX) else {
                panic!("no bound on the states");
            };
            let parallel = explore(&space, &sources, expand_goals, &ctl).unwrap();
            assert_eq!(sorted(serial), sorted(&parallel));
            assert_eq!(serial.states(), parallel.states());
        }
    }

    #[test]
    fn stops_past_the_most_states_and_the_parallel_search_goes_on() {
        let space = EightPuzzle::new(SOLVED, false);
        let sources = [pack(SOLVED), pack(HARDEST)];
        let ctl = SearchControl::unlimited();
        let whole = explore(&space, &sources, true, &ctl).unwrap();
        // One explorer for all: each exploration starts afresh whatever the one before held.
        let mut explorer = SerialExplorer::default();
        for most in [2, 3, 1_000, 181_439] {
            let Err(partial) = explorer.explore(&space, &sources, true, most) else {
                panic!("{most} states are fewer than the space's");
            };
            assert!(partial.states() <= most as u64);
            let further = explore_further(&space, partial, true, &ctl).unwrap();
            assert_eq!(sorted(&further), sorted(&whole), "after {most} states");
        }
        let all = explorer
            .explore(&space, &sources[..1], true, 181_440)
            .map(|e| e.states());
        assert_eq!(all.ok(), Some(181_440));
    }
}
