//! The searches a game calls. Each runs on the backend its level's [`SearchControl`] names: this
//! process's threads ([`crate::engine`], the default) or a cluster of timely workers across
//! threads, processes and hosts ([`crate::distributed`], `solve --distributed`). A game calls
//! these and never learns which backend answered.
//!
//! The distributed backend runs breadth-first search, bidirectional BFS and A*, each with the
//! local engine's layers and counts. The ordered A* (Puzzle Quest) is a plain A* there: the
//! same answers (shortest paths), with the `states` of a local plain A*. Beams, which prove
//! nothing and hold little, and whole-space exploration run on this process's threads on
//! either backend.
//!
//! Each search requires of a space the capabilities it uses ([`engine::space`]), and of its
//! states what they need to travel between workers ([`Portable`]).

use std::any::Any;

use crate::distributed::{self, Cluster};
use crate::engine::{self, Heuristic, MoveBudget, SearchControl, SearchOutcome, Stored};

pub use crate::distributed::Portable;
// Beams and whole-space exploration run on this process's threads whatever the backend.
pub use crate::engine::beam::{anytime, beam};
pub use crate::engine::explore::{Layers, analyze, count_reachable, explore, explore_further};
pub use crate::engine::serial::SerialExplorer;

/// The cluster a level's control names as its backend; `None`: this process's threads.
fn cluster(ctl: &SearchControl) -> Option<&Cluster> {
    ctl.backend()
        .and_then(|backend| (backend as &dyn Any).downcast_ref::<Cluster>())
}

/// Breadth-first search: see [`engine::bfs::bfs`].
pub fn bfs<P: Stored + MoveBudget>(space: &P, ctl: &SearchControl) -> SearchOutcome<P::State>
where
    P::State: Portable,
{
    match cluster(ctl) {
        None => engine::bfs::bfs(space, ctl),
        Some(cluster) => distributed::bfs(cluster, space, ctl),
    }
}

/// A*: see [`engine::astar::astar`].
pub fn astar<P: Heuristic + MoveBudget>(space: &P, ctl: &SearchControl) -> SearchOutcome<P::State>
where
    P::State: Portable,
{
    match cluster(ctl) {
        None => engine::astar::astar(space, ctl),
        Some(cluster) => distributed::astar(cluster, space, ctl),
    }
}

/// A* in rounds of growing f-bounds, storing about what it expands, after a plain A* of up to
/// `plain_states` states: see [`engine::astar::in_rounds`]. On a cluster each round is one
/// distributed A*, and the rounds' decisions read only what every process has alike (the
/// outcome, the cluster's counts of states and of successors dropped for the budget).
pub fn astar_in_rounds<P: Heuristic + MoveBudget>(
    space: &P,
    ctl: &SearchControl,
    plain_states: u64,
) -> SearchOutcome<P::State>
where
    P::State: Portable,
{
    engine::astar::in_rounds(space, ctl, plain_states, |round, ctl| match cluster(ctl) {
        None => engine::astar::astar(round, ctl),
        Some(cluster) => distributed::astar(cluster, round, ctl),
    })
}

/// A* with the likeliest last moves first: see [`engine::astar::ordered_astar`]; a plain A* on
/// a cluster.
pub fn ordered_astar<P: Heuristic + MoveBudget>(
    space: &P,
    ctl: &SearchControl,
) -> SearchOutcome<P::State>
where
    P::State: Portable,
{
    match cluster(ctl) {
        None => engine::astar::ordered_astar(space, ctl),
        Some(cluster) => distributed::astar(cluster, space, ctl),
    }
}

/// Bidirectional BFS to one goal state: see [`engine::bidirectional::bidirectional`].
pub fn bidirectional<P: Stored>(
    space: &P,
    goal: P::State,
    ctl: &SearchControl,
) -> SearchOutcome<P::State>
where
    P::State: Portable,
{
    match cluster(ctl) {
        None => engine::bidirectional::bidirectional(space, goal, ctl),
        Some(cluster) => distributed::bidirectional(cluster, space, goal, ctl),
    }
}
