//! Whole-space exploration: a breadth-first search that never stops at a goal, from one start or
//! from many sources at once, that keeps its layers, and counts shortest paths over them.
//!
//! - [`explore`]: multi-source BFS; every source is at depth 0, so a state's layer is its
//!   distance to the nearest source. From all the solved positions of a puzzle class it gives
//!   every position's fewest moves in one pass (`frontier generate`). It reuses the parallel
//!   layer expansion of [`super::bfs`] and its [`Visited`] set: a layer is the range of arena
//!   indices stored while the one before was expanded, so [`Exploration`] keeps only where
//!   each layer begins.
//! - [`Exploration::path_counts`]: the number of shortest paths from the sources to every state
//!   of the first layers, by forward accumulation over the layer graph: `count[s]` is the sum of
//!   `count[p]` over the distinct predecessors `p` of `s` one layer up (sources count 1). Paths
//!   are sequences of states, so two moves that lead to the same state are one. Counts
//!   saturate at `u64::MAX` (a count that reached it means "at least that many").
//! - [`analyze`]: both, for one level (`frontier analyze`): states, layers, eccentricity, goal
//!   states, the optimum and the number of optimal solutions.
//!
//! A space with a move budget ([`Space::max_depth`]) is explored up to its budget: the states
//! beyond it are not part of the level.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::bfs::{Layer, Target, chunk_size, expand_layer, full};
use super::visited::{ScratchPool, Visited};
use super::{Limit, SearchControl, Space};

/// The layers of an exhausted search: every state reachable from the sources, by distance.
pub struct Exploration<S> {
    visited: Visited<S>,
    /// Where each layer's indices begin, then the end of the last one.
    bounds: Vec<u32>,
    /// States per layer (the arena's holes are not states).
    layers: Vec<u64>,
    /// Whether goal states were expanded.
    expand_goals: bool,
}

/// `space` with no goals, so that a layer's expansion never stops at one, and with its goal
/// states left unexpanded unless `expand_goals`.
struct Exhaustive<'a, P> {
    space: &'a P,
    expand_goals: bool,
}

impl<P: Space> Space for Exhaustive<'_, P> {
    type State = P::State;
    fn start(&self) -> P::State {
        self.space.start()
    }
    const TAGS_MOVES: bool = P::TAGS_MOVES;
    fn successors(&self, state: &P::State, came_by: Option<u8>, out: &mut Vec<P::State>) {
        if self.expand_goals || !self.space.is_goal(state) {
            self.space.successors(state, came_by, out);
        }
    }
    fn move_tag(&self, state: &P::State, parent: &P::State) -> Option<u8> {
        self.space.move_tag(state, parent)
    }
    fn is_goal(&self, _: &P::State) -> bool {
        false
    }
    fn canonical(&self, state: P::State) -> P::State {
        self.space.canonical(state)
    }
    fn max_depth(&self) -> Option<u32> {
        self.space.max_depth()
    }
    fn reversible(&self) -> bool {
        // Goals left unexpanded would be dead ends.
        self.expand_goals && self.space.reversible()
    }
    fn state_bytes(&self) -> usize {
        self.space.state_bytes()
    }
}

/// Explores everything reachable from `sources` (at least one), goals expanded like any state
/// unless `expand_goals` is false (a game that ends at its goal); returns the limit instead when
/// `ctl` stops it first.
pub fn explore<P: Space>(
    space: &P,
    sources: &[P::State],
    expand_goals: bool,
    ctl: &SearchControl,
) -> Result<Exploration<P::State>, Limit> {
    let exhaustive = Exhaustive {
        space,
        expand_goals,
    };
    let visited = Visited::for_space(&exhaustive, false);
    let scratch = ScratchPool::new();
    let canonical: Vec<P::State> = sources.iter().map(|&s| space.canonical(s)).collect();
    let roots = visited.insert_roots(&canonical);
    ctl.add(roots, 0);
    let mut layer = Layer {
        indices: 0..visited.len() as u32,
        states: roots,
        before: 0,
    };
    let mut bounds = vec![0];
    let mut layers = vec![roots];
    let budget = space.max_depth().map_or(usize::MAX, |d| d as usize);
    while layers.len() <= budget {
        ctl.check()?;
        ctl.set_depth(layers.len() as u64);
        let target = Target::Goal { only: false };
        let (next, _) = expand_layer(&exhaustive, &visited, &scratch, &layer, ctl, &target);
        ctl.set_bytes(visited.bytes() + scratch.bytes());
        ctl.check().and(full(&visited))?;
        if next.states == 0 {
            break;
        }
        bounds.push(next.indices.start);
        layers.push(next.states);
        layer = next;
    }
    bounds.push(visited.len() as u32);
    Ok(Exploration {
        visited,
        bounds,
        layers,
        expand_goals,
    })
}

/// Counts the states reachable from the start, the start included, by exhausting the space.
/// With `expand_goals` false, goal states are counted but not expanded (the reachable set of a
/// game that ends at its goal). Returns the limit instead when `ctl` stops the search first.
pub fn count_reachable<P: Space>(
    space: &P,
    expand_goals: bool,
    ctl: &SearchControl,
) -> Result<u64, Limit> {
    explore(space, &[space.start()], expand_goals, ctl).map(|e| e.states())
}

impl<S: bytemuck::Pod + Eq + std::hash::Hash + Send + Sync> Exploration<S> {
    /// States per layer: `layers()[d]` states are `d` moves from the nearest source.
    pub fn layers(&self) -> &[u64] {
        &self.layers
    }

    /// Every state reached, the sources included.
    pub fn states(&self) -> u64 {
        self.layers.iter().sum()
    }

    /// The distance of the farthest state from the sources.
    pub fn eccentricity(&self) -> u32 {
        self.layers.len() as u32 - 1
    }

    /// Heap bytes of the visited set (arena and tables).
    pub fn bytes(&self) -> u64 {
        self.visited.bytes()
    }

    /// The arena indices of layer `d`, holes included.
    fn indices(&self, d: usize) -> Range<u32> {
        self.bounds[d]..self.bounds[d + 1]
    }

    /// The states of layer `depth`, in arena order (which depends on thread timing).
    pub fn layer(&self, depth: u32) -> impl Iterator<Item = S> + '_ {
        self.layer_indices(depth as usize)
            .map(|i| self.visited.state(i))
    }

    /// The indices of the states of layer `d` (its holes skipped).
    fn layer_indices(&self, d: usize) -> impl Iterator<Item = u32> + '_ {
        let range = self.indices(d);
        let holes = self.visited.holes_within(&range);
        range.filter(move |i| !holes.iter().any(|h| h.contains(i)))
    }

    /// The number of shortest paths from the sources to each state of layers `0..=last`, by
    /// arena index (`u64::MAX`: at least that many); 0 for holes and deeper states.
    pub fn path_counts<P: Space<State = S>>(
        &self,
        space: &P,
        last: u32,
        ctl: &SearchControl,
    ) -> Result<Vec<u64>, Limit> {
        let space = &Exhaustive {
            space,
            expand_goals: self.expand_goals,
        };
        let last = (last as usize).min(self.layers.len() - 1);
        let counts: Vec<AtomicU64> = (0..self.bounds[last + 1])
            .map(|_| AtomicU64::new(0))
            .collect();
        for i in self.layer_indices(0) {
            counts[i as usize].store(1, Ordering::Relaxed);
        }
        let scratch = ScratchPool::new();
        for d in 0..last {
            ctl.check()?;
            let layer = self.indices(d);
            let next = self.indices(d + 1);
            let holes = self.visited.holes_within(&layer);
            let chunk = chunk_size(layer.len()) as u32;
            let chunks = (layer.len() as u32).div_ceil(chunk);
            (0..chunks).into_par_iter().for_each(|c| {
                let from = layer.start + c * chunk;
                let indices = from..(from + chunk).min(layer.end);
                scratch.with(|s| {
                    for p in indices.filter(|i| !holes.iter().any(|h| h.contains(i))) {
                        let state = self.visited.state(p);
                        s.successors.clear();
                        space.successors(&state, self.visited.came_by(p), &mut s.successors);
                        for next in s.successors.iter_mut() {
                            *next = space.canonical(*next);
                        }
                        // A state reached by two moves of `p` is one path through `p`.
                        s.successors.sort_unstable_by(|a, b| {
                            bytemuck::bytes_of(a).cmp(bytemuck::bytes_of(b))
                        });
                        s.successors.dedup();
                        for &next in s.successors.iter() {
                            s.batch.push(next, 0, None, 0, p);
                        }
                        if s.batch.is_full() {
                            self.accumulate(&mut s.batch, &counts, &next);
                        }
                    }
                    self.accumulate(&mut s.batch, &counts, &next);
                });
            });
        }
        ctl.raise_peak_bytes(self.visited.bytes() + scratch.bytes() + counts.len() as u64 * 8);
        Ok(counts.into_iter().map(AtomicU64::into_inner).collect())
    }

    /// Adds each candidate's parent count (its token) to the count of the state it reaches,
    /// where that state lies in the `next` layer.
    fn accumulate(
        &self,
        batch: &mut super::visited::Batch<S>,
        counts: &[AtomicU64],
        next: &Range<u32>,
    ) {
        self.visited.probe_batch(batch, |parent, index| {
            if next.contains(&index) {
                let add = counts[parent as usize].load(Ordering::Relaxed);
                // Never fails: the closure always returns a value.
                let _ = counts[index as usize].fetch_update(
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                    |c| Some(c.saturating_add(add)),
                );
            }
        });
    }
}

/// What [`analyze`] measures of a level's whole space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis<S> {
    /// States per layer, from the start's (1) on.
    pub layers: Vec<u64>,
    /// Goal states reached.
    pub goals: u64,
    /// The fewest moves to a goal, if one is reached.
    pub optimum: Option<u32>,
    /// Distinct shortest solutions: paths of states from the start to a goal at the optimum
    /// (0 without one; `u64::MAX`: at least that many).
    pub optimal_paths: u64,
    /// A state of the last layer (the smallest by its bytes, so the same on every run).
    pub farthest: S,
}

impl<S> Analysis<S> {
    /// The same figures with the farthest state turned into something else (a level file).
    pub fn map<T>(self, f: impl FnOnce(S) -> T) -> Analysis<T> {
        Analysis {
            layers: self.layers,
            goals: self.goals,
            optimum: self.optimum,
            optimal_paths: self.optimal_paths,
            farthest: f(self.farthest),
        }
    }

    pub fn states(&self) -> u64 {
        self.layers.iter().sum()
    }

    /// The distance of the farthest reachable state.
    pub fn eccentricity(&self) -> u32 {
        self.layers.len() as u32 - 1
    }
}

/// Explores the whole space reachable from the start of `space` and measures it; goal states
/// are expanded unless `expand_goals` is false (a game that ends at its goal).
pub fn analyze<P: Space>(
    space: &P,
    expand_goals: bool,
    ctl: &SearchControl,
) -> Result<Analysis<P::State>, Limit> {
    let exploration = explore(space, &[space.start()], expand_goals, ctl)?;
    let mut goals = 0;
    let mut optimum = None;
    for d in 0..exploration.layers.len() {
        let here = exploration
            .layer(d as u32)
            .filter(|s| space.is_goal(s))
            .count() as u64;
        if here > 0 && optimum.is_none() {
            optimum = Some(d as u32);
        }
        goals += here;
    }
    let optimal_paths = match optimum {
        None => 0,
        Some(optimum) => {
            let counts = exploration.path_counts(space, optimum, ctl)?;
            exploration
                .layer_indices(optimum as usize)
                .filter(|&i| space.is_goal(&exploration.visited.state(i)))
                .fold(0u64, |sum, i| sum.saturating_add(counts[i as usize]))
        }
    };
    let farthest = exploration
        .layer(exploration.eccentricity())
        .min_by(|a, b| bytemuck::bytes_of(a).cmp(bytemuck::bytes_of(b)))
        .expect("every layer kept has a state");
    ctl.raise_peak_bytes(exploration.bytes());
    Ok(Analysis {
        layers: exploration.layers,
        goals,
        optimum,
        optimal_paths,
        farthest,
    })
}
