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
//! - [`explore_frontier`]: the same, keeping only the last two layers of a reversible space
//!   (Korf's frontier search), so that memory follows the widest layers, not the whole space: a
//!   level of 1.6 G states took 4.4 GB rather than 25. Each layer is handed to a callback while
//!   it is stored.
//! - [`analyze`]: both, for one level (`frontier analyze`): states, layers, eccentricity, goal
//!   states, the optimum and the number of optimal solutions.
//!
//! A space with a move budget ([`MoveBudget::max_depth`]) is explored up to its budget: the
//! states beyond it are not part of the level. A search stopped by a limit still says how far
//! it got: [`Unfinished`] holds the layers it completed, which are exact.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::bfs::{Layer, Target, chunk_size, expand_layer, full};
use super::bounded::Bounded;
use super::serial::SerialExploration;
use super::visited::{ScratchPool, Visited};
use super::{Layout, Limit, MoveBudget, SearchControl, Space, Stored, forward};

/// The layers of an exhausted search: every state reachable from the sources, by distance.
pub struct Exploration<S> {
    visited: Visited<S>,
    /// The first layer still stored (0 unless a frontier exploration dropped older ones).
    first: usize,
    /// Where each stored layer's indices begin, then the end of the last one.
    bounds: Vec<u32>,
    /// States per layer (the arena's holes are not states).
    layers: Vec<u64>,
    /// Whether goal states were expanded.
    expand_goals: bool,
}

/// An exploration stopped by a limit: the limit, and the sizes of the layers completed before
/// it (exact: every state of those layers was found; the last one is not among them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished {
    pub limit: Limit,
    pub layers: Vec<u64>,
}

/// Stopped before its first layer (while the space was being built, say).
impl From<Limit> for Unfinished {
    fn from(limit: Limit) -> Unfinished {
        Unfinished {
            limit,
            layers: Vec::new(),
        }
    }
}

impl From<Unfinished> for Limit {
    fn from(unfinished: Unfinished) -> Limit {
        unfinished.limit
    }
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
    fn successors(&self, state: &P::State, out: &mut Vec<P::State>) {
        if self.expand_goals || !self.space.is_goal(state) {
            self.space.successors(state, out);
        }
    }
    fn is_goal(&self, _: &P::State) -> bool {
        false
    }
    fn canonical(&self, state: P::State) -> P::State {
        self.space.canonical(state)
    }
}

impl<P: Stored> Stored for Exhaustive<'_, P> {
    fn layout(&self) -> Layout {
        let layout = self.space.layout();
        Layout {
            // Goals left unexpanded would be dead ends.
            reversible: self.expand_goals && layout.reversible,
            ..layout
        }
    }
    fn move_tag(&self, state: &P::State, parent: &P::State) -> Option<u8> {
        self.space.move_tag(state, parent)
    }
    fn successors_after(&self, state: &P::State, came_by: Option<u8>, out: &mut Vec<P::State>) {
        if self.expand_goals || !self.space.is_goal(state) {
            self.space.successors_after(state, came_by, out);
        }
    }
}

forward!(impl[P: MoveBudget] MoveBudget for Exhaustive<'_, P> => space);

/// Explores everything reachable from `sources` (at least one), goals expanded like any state
/// unless `expand_goals` is false (a game that ends at its goal), and keeps every layer; returns
/// the limit and the layers completed instead when `ctl` stops it first.
pub fn explore<P: Stored + MoveBudget>(
    space: &P,
    sources: &[P::State],
    expand_goals: bool,
    ctl: &SearchControl,
) -> Result<Exploration<P::State>, Unfinished> {
    explore_frontier(space, sources, expand_goals, ctl, |_, _| false)
}

/// [`explore`] that may keep only the last two layers of a reversible space, so that its
/// memory follows the widest layers rather than the whole space (Korf's frontier search): there
/// a successor of a layer-d state lies in layer d - 1, d or d + 1, so the older layers are never
/// looked up again. `each_layer(exploration, d)` sees every layer d once, complete, while it is
/// still stored, and says whether the layers before the last two may go from now on. In a
/// space that is not reversible every layer is kept.
pub fn explore_frontier<P: Stored + MoveBudget>(
    space: &P,
    sources: &[P::State],
    expand_goals: bool,
    ctl: &SearchControl,
    each_layer: impl FnMut(&Exploration<P::State>, u32) -> bool,
) -> Result<Exploration<P::State>, Unfinished> {
    let canonical: Vec<P::State> = sources.iter().map(|&s| space.canonical(s)).collect();
    let untagged = std::iter::repeat(None);
    let seed = std::iter::once((canonical.as_slice(), untagged));
    explore_from(space, seed, expand_goals, ctl, each_layer)
}

/// [`explore`] that goes on from the layers that [`SerialExplorer`] completed before it
/// stopped, rather than exploring them again.
///
/// [`SerialExplorer`]: super::serial::SerialExplorer
pub fn explore_further<P: Stored + MoveBudget>(
    space: &P,
    explored: &SerialExploration<P::State>,
    expand_goals: bool,
    ctl: &SearchControl,
) -> Result<Exploration<P::State>, Unfinished> {
    explore_from(space, explored.layers(), expand_goals, ctl, |_, _| false)
}

/// The exploration from `seed`: its first layers, complete and canonical, each with the tags of
/// the moves that reached its states (the sources alone, untagged, most often).
fn explore_from<'s, P: Stored + MoveBudget, T: Iterator<Item = Option<u8>>>(
    space: &P,
    seed: impl Iterator<Item = (&'s [P::State], T)>,
    expand_goals: bool,
    ctl: &SearchControl,
    mut each_layer: impl FnMut(&Exploration<P::State>, u32) -> bool,
) -> Result<Exploration<P::State>, Unfinished>
where
    P::State: 's,
{
    let exhaustive = Exhaustive {
        space,
        expand_goals,
    };
    let reversible = exhaustive.layout().reversible;
    let scratch = ScratchPool::new();
    let mut exploration = Exploration {
        bounds: vec![0],
        visited: Visited::for_space(&exhaustive, false),
        first: 0,
        layers: Vec::new(),
        expand_goals,
    };
    let mut may_drop = false;
    for (states, tags) in seed {
        let stored = exploration.visited.insert_layer(states, tags);
        ctl.progress.add(stored, 0);
        exploration.bounds.push(exploration.visited.len() as u32);
        exploration.layers.push(stored);
        let depth = exploration.layers.len() as u32 - 1;
        may_drop = each_layer(&exploration, depth) || may_drop;
    }
    assert!(!exploration.layers.is_empty(), "a search starts somewhere");
    let budget = space.max_depth().map_or(usize::MAX, |d| d as usize);
    while exploration.layers.len() <= budget {
        let last = exploration.layers.len() - 1;
        let layer = Layer {
            indices: exploration.indices(last),
            states: exploration.layers[last],
            before: last.checked_sub(1).map_or(0, |d| exploration.layers[d]),
        };
        ctl.progress.set_depth(last as u64 + 1);
        let target = Target::Goal { only: false };
        let visited = &exploration.visited;
        let (next, _) = expand_layer(&exhaustive, visited, &scratch, &layer, ctl, &target);
        ctl.progress.set_bytes(visited.bytes() + scratch.bytes());
        // A layer cut short by a limit is not counted.
        if let Err(limit) = ctl.check().and(full(visited)) {
            return Err(Unfinished {
                limit,
                layers: exploration.layers,
            });
        }
        if next.states == 0 {
            break;
        }
        exploration.bounds.push(next.indices.end);
        exploration.layers.push(next.states);
        may_drop = each_layer(&exploration, last as u32 + 1) || may_drop;
        if may_drop && reversible {
            exploration.drop_old_layers(&exhaustive, &scratch, ctl);
        }
    }
    Ok(exploration)
}

/// Counts the states reachable from the start, the start included, by exhausting the space.
/// With `expand_goals` false, goal states are counted but not expanded (the reachable set of a
/// game that ends at its goal). Returns the limit instead when `ctl` stops the search first.
pub fn count_reachable<P: Stored + MoveBudget>(
    space: &P,
    expand_goals: bool,
    ctl: &SearchControl,
) -> Result<u64, Limit> {
    let start = [space.start()];
    Ok(explore_frontier(space, &start, expand_goals, ctl, |_, _| true)?.states())
}

/// The layers of an exhausted search, however it ran: this module's parallel one, or
/// [`super::serial`]'s on one thread, for a caller that reads the result of either.
pub trait Layers<S> {
    /// The distance of the farthest state from the sources.
    fn eccentricity(&self) -> u32;
    /// Every state reached, the sources included.
    fn states(&self) -> u64;
    /// The states `depth` moves from the nearest source.
    fn layer(&self, depth: u32) -> impl Iterator<Item = S> + '_;
}

impl<S: bytemuck::Pod + Eq + std::hash::Hash + Send + Sync> Layers<S> for Exploration<S> {
    fn eccentricity(&self) -> u32 {
        Exploration::eccentricity(self)
    }
    fn states(&self) -> u64 {
        Exploration::states(self)
    }
    fn layer(&self, depth: u32) -> impl Iterator<Item = S> + '_ {
        Exploration::layer(self, depth)
    }
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
        assert!(
            d >= self.first,
            "layer {d} was dropped by a frontier exploration"
        );
        self.bounds[d - self.first]..self.bounds[d - self.first + 1]
    }

    /// The number of shortest paths from the sources to the goals of layer `optimum` (the first
    /// with one): distinct optimal solutions, saturating at `u64::MAX`.
    fn optimal_paths<P: Stored<State = S> + MoveBudget>(
        &self,
        space: &P,
        optimum: u32,
        ctl: &SearchControl,
    ) -> Result<u64, Limit> {
        let counts = self.path_counts(space, optimum, ctl)?;
        Ok(self
            .layer_indices(optimum as usize)
            .filter(|&i| space.is_goal(&self.visited.state(i)))
            .fold(0u64, |sum, i| sum.saturating_add(counts[i as usize])))
    }

    /// How many states of layer `depth` satisfy `accept`, counted in parallel.
    pub fn count_in_layer(&self, depth: u32, accept: impl Fn(&S) -> bool + Sync) -> u64 {
        let range = self.indices(depth as usize);
        let holes = self.visited.holes_within(&range);
        let chunk = chunk_size(range.len()) as u32;
        let chunks = (range.len() as u32).div_ceil(chunk);
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let from = range.start + c * chunk;
                (from..(from + chunk).min(range.end))
                    .filter(|i| !holes.iter().any(|h| h.contains(i)))
                    .filter(|&i| accept(&self.visited.state(i)))
                    .count() as u64
            })
            .sum()
    }

    /// Keeps only the last two layers (the ones the next expansion looks up) once the older ones
    /// hold at least as many states, by copying those two, with their move tags, into a fresh
    /// set: each copy moves at most as many states as were added since the one before, so the
    /// copies cost at most one more insertion per state, and the set never holds much more than
    /// twice the two widest consecutive layers.
    fn drop_old_layers<P: Stored<State = S> + MoveBudget>(
        &mut self,
        space: &P,
        scratch: &ScratchPool<S>,
        ctl: &SearchControl,
    ) {
        let n = self.layers.len();
        let stored: u64 = self.layers[self.first..].iter().sum();
        let kept: u64 = self.layers[n.saturating_sub(2)..].iter().sum();
        if n < 3 || stored - kept < kept {
            return;
        }
        let fresh = Visited::for_space(space, false);
        fresh.reserve(kept as usize);
        let mut bounds = vec![0];
        for d in n - 2..n {
            let range = self.indices(d);
            let holes = self.visited.holes_within(&range);
            let chunk = chunk_size(range.len()) as u32;
            let chunks = (range.len() as u32).div_ceil(chunk);
            (0..chunks).into_par_iter().for_each(|c| {
                let from = range.start + c * chunk;
                scratch.with(|s| {
                    for i in (from..(from + chunk).min(range.end))
                        .filter(|i| !holes.iter().any(|h| h.contains(i)))
                    {
                        let came_by = self.visited.came_by(i);
                        s.batch.push(self.visited.state(i), u32::MAX, came_by, 0, 0);
                        if s.batch.is_full() {
                            fresh.insert_batch(&mut s.batch, |_, _, _, _| ());
                        }
                    }
                    fresh.insert_batch(&mut s.batch, |_, _, _, _| ());
                });
            });
            // The next layer's indices must not fall inside this one's range.
            scratch.release_reservations(&fresh);
            bounds.push(fresh.len() as u32);
            ctl.progress
                .set_bytes(self.visited.bytes() + fresh.bytes() + scratch.bytes());
        }
        self.visited = fresh;
        self.bounds = bounds;
        self.first = n - 2;
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
    pub fn path_counts<P: Stored<State = S> + MoveBudget>(
        &self,
        space: &P,
        last: u32,
        ctl: &SearchControl,
    ) -> Result<Vec<u64>, Limit> {
        assert_eq!(self.first, 0, "path counts need every layer");
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
                        space.successors_after(&state, self.visited.came_by(p), &mut s.successors);
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
        ctl.progress
            .raise_peak_bytes(self.visited.bytes() + scratch.bytes() + counts.len() as u64 * 8);
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

/// How many states [`analyze`] keeps whole while no goal is found, so that it counts the optimal
/// solutions in one pass (2^26: about 1 GB of sliding-block positions); beyond, it keeps the
/// frontier and counts them in a second pass up to the optimum.
pub const HOLD_STATES: u64 = 1 << 26;

/// Explores the whole space reachable from the start of `space` and measures it; goal states
/// are expanded unless `expand_goals` is false (a game that ends at its goal). Stopped by a
/// limit, it returns the layers it completed.
///
/// A reversible space is explored keeping only its frontier ([`explore_frontier`]) once the
/// optimal solutions are counted, at the optimum's layer, or once it holds more than
/// [`HOLD_STATES`] states; in that case they are counted afterwards, over the layers up to the
/// optimum explored again.
pub fn analyze<P: Stored + MoveBudget>(
    space: &P,
    expand_goals: bool,
    ctl: &SearchControl,
) -> Result<Analysis<P::State>, Unfinished> {
    analyze_holding(space, expand_goals, HOLD_STATES, ctl)
}

/// [`analyze`], keeping every layer while no goal is found only up to `hold` states.
pub(crate) fn analyze_holding<P: Stored + MoveBudget>(
    space: &P,
    expand_goals: bool,
    hold: u64,
    ctl: &SearchControl,
) -> Result<Analysis<P::State>, Unfinished> {
    let start = [space.start()];
    let (mut goals, mut optimum, mut paths) = (0, None, None);
    let exploration = explore_frontier(space, &start, expand_goals, ctl, |e, d| {
        let here = e.count_in_layer(d, |s| space.is_goal(s));
        goals += here;
        if here > 0 && optimum.is_none() {
            optimum = Some(d);
            if e.first == 0 {
                paths = Some(e.optimal_paths(space, d, ctl));
            }
        }
        optimum.is_some() || e.states() > hold
    })?;
    let farthest = exploration
        .layer(exploration.eccentricity())
        .min_by(|a, b| bytemuck::bytes_of(a).cmp(bytemuck::bytes_of(b)))
        .expect("every layer kept has a state");
    ctl.progress.raise_peak_bytes(exploration.bytes());
    let unfinished = |limit| Unfinished {
        limit,
        layers: exploration.layers.clone(),
    };
    let optimal_paths = match (optimum, paths) {
        (None, _) => 0,
        (Some(_), Some(paths)) => paths.map_err(unfinished)?,
        (Some(optimum), None) => {
            let bounded = Bounded {
                space,
                max_depth: optimum,
            };
            explore(&bounded, &start, expand_goals, ctl)
                .map_err(|u| unfinished(u.limit))?
                .optimal_paths(space, optimum, ctl)
                .map_err(unfinished)?
        }
    };
    Ok(Analysis {
        layers: exploration.layers,
        goals,
        optimum,
        optimal_paths,
        farthest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Bounded;
    use crate::engine::control::Limits;
    use crate::engine::testing::{
        EightPuzzle, HARDEST, SOLVED, brute_force_shortest_solutions, pack, with_threads,
    };

    #[test]
    fn exploring_the_eight_puzzle_from_its_goal_gives_every_layer() {
        for threads in [1, 4] {
            let space = EightPuzzle::new(SOLVED, false);
            let ctl = SearchControl::unlimited();
            let analysis = with_threads(threads, || analyze(&space, true, &ctl)).unwrap();
            assert_eq!(analysis.states(), 181_440);
            assert_eq!(analysis.eccentricity(), 31);
            assert_eq!(analysis.layers.last(), Some(&2));
            assert_eq!(analysis.layers[..4], [1, 2, 4, 8]);
            assert_eq!((analysis.goals, analysis.optimum), (1, Some(0)));
            assert_eq!(analysis.optimal_paths, 1);
            // One of the two hardest positions, the same on every run.
            let hardest = [pack(HARDEST), pack([6, 4, 7, 8, 5, 0, 3, 2, 1])];
            assert!(hardest.contains(&analysis.farthest));
        }
    }

    #[test]
    fn a_multi_source_search_puts_every_source_at_depth_zero() {
        let space = EightPuzzle::new(SOLVED, false);
        let ctl = SearchControl::unlimited();
        let sources = [pack(SOLVED), pack(HARDEST), pack(SOLVED)];
        let both = explore(&space, &sources, true, &ctl).unwrap();
        assert_eq!(both.layers()[0], 2, "equal sources are one state");
        assert_eq!(both.states(), 181_440);
        assert!(both.eccentricity() < 31);
        // Every state is as far as the nearer source: the hardest position is in layer 0.
        assert!(both.layer(0).any(|s| s == pack(HARDEST)));
    }

    #[test]
    fn a_frontier_exploration_keeps_the_last_layers_only_and_finds_the_same_ones() {
        let space = EightPuzzle::new(SOLVED, false);
        let ctl = SearchControl::unlimited();
        let whole = explore(&space, &[pack(SOLVED)], true, &ctl).unwrap();
        for threads in [1, 4] {
            let mut seen = Vec::new();
            let frontier = with_threads(threads, || {
                explore_frontier(&space, &[pack(SOLVED)], true, &ctl, |e, d| {
                    seen.push(e.count_in_layer(d, |_| true));
                    true
                })
            })
            .unwrap();
            // Every layer was seen whole, in order, and counted as the exploration that keeps
            // them all counts it: a state's move tag survives the copies (a wrong one would skip
            // a move that leads somewhere new).
            assert_eq!(frontier.layers(), whole.layers());
            assert_eq!(seen, whole.layers());
            for depth in [30, 31] {
                let mut kept: Vec<u64> = frontier.layer(depth).collect();
                let mut all: Vec<u64> = whole.layer(depth).collect();
                kept.sort_unstable();
                all.sort_unstable();
                assert_eq!(kept, all);
            }
            // The older layers are gone: the 8-puzzle's last two layers hold 223 states.
            assert!(
                frontier.bytes() * 10 < whole.bytes(),
                "{} B",
                frontier.bytes()
            );
        }
    }

    /// A 6x6 torus: a step in any of four directions, wrapping around; the goal is the cell
    /// opposite the start, (3, 3) from (0, 0).
    struct Torus;

    impl Space for Torus {
        type State = u32;
        fn start(&self) -> u32 {
            0
        }
        fn successors(&self, &cell: &u32, out: &mut Vec<u32>) {
            let (row, col) = (cell / 6, cell % 6);
            for (r, c) in [
                (row + 1, col),
                (row + 5, col),
                (row, col + 1),
                (row, col + 5),
            ] {
                out.push(r % 6 * 6 + c % 6);
            }
        }
        fn is_goal(&self, &cell: &u32) -> bool {
            cell == 3 * 6 + 3
        }
    }

    impl Stored for Torus {
        fn layout(&self) -> Layout {
            Layout {
                reversible: true,
                ..Layout::plain::<u32>()
            }
        }
    }

    impl MoveBudget for Torus {}

    #[test]
    fn analyze_counts_the_optimal_solutions_after_dropping_the_layers_that_hold_them() {
        let ctl = SearchControl::unlimited();
        let one_pass = analyze(&Torus, true, &ctl).unwrap();
        assert_eq!(one_pass.layers, [1, 4, 8, 10, 8, 4, 1]);
        // Three steps each way, each either way round, in any order: 2 x 2 x (6 choose 3).
        assert_eq!((one_pass.optimum, one_pass.optimal_paths), (Some(6), 80));
        // Holding nothing, the frontier exploration drops layers 0 to 3 after layer 5, before
        // the goal's layer: the solutions are counted over those layers explored again.
        let again = SearchControl::unlimited();
        let second_pass = analyze_holding(&Torus, true, 0, &again).unwrap();
        assert_eq!(second_pass, one_pass);
        assert_eq!(
            (ctl.progress.states(), again.progress.states()),
            (36, 36 + 36)
        );
    }

    #[test]
    fn shortest_path_counts_agree_with_a_brute_force() {
        let from_goal = explore(
            &EightPuzzle::new(SOLVED, false),
            &[pack(SOLVED)],
            true,
            &SearchControl::unlimited(),
        )
        .unwrap();
        for depth in [1, 6, 11, 14] {
            // The smallest state of the layer: the same on every run.
            let start = from_goal.layer(depth).min().unwrap();
            let space = EightPuzzle {
                start,
                ..EightPuzzle::new(SOLVED, false)
            };
            let analysis = analyze(&space, true, &SearchControl::unlimited()).unwrap();
            let brute = brute_force_shortest_solutions(&space, depth);
            assert_eq!(
                Some((analysis.optimum.unwrap(), analysis.optimal_paths)),
                brute,
                "{depth}"
            );
            assert!(analysis.optimal_paths >= 1);
        }
    }

    #[test]
    fn a_move_budget_ends_the_exploration_and_a_limit_stops_it() {
        let puzzle = EightPuzzle::new(SOLVED, false);
        let space = Bounded {
            space: &puzzle,
            max_depth: 5,
        };
        let ctl = SearchControl::unlimited();
        let analysis = analyze(&space, true, &ctl).unwrap();
        assert_eq!(analysis.eccentricity(), 5);
        assert_eq!(analysis.layers, [1, 2, 4, 8, 16, 20]);
        let limits = Limits {
            max_states: Some(1_000),
            ..Limits::default()
        };
        let space = EightPuzzle::new(SOLVED, false);
        let whole = analyze(&space, true, &SearchControl::unlimited()).unwrap();
        let unfinished = analyze(&space, true, &SearchControl::new(limits)).unwrap_err();
        assert_eq!(unfinished.limit, Limit::States(1_000));
        // Layers 0 to 10 hold 706 states and layer 11 another 396: the limit strikes inside layer
        // 11, so the layers reported are the eleven before it, exact.
        assert_eq!(unfinished.layers, whole.layers[..11]);
    }
}
