//! The distributed backend: the engine's breadth-first search and A* on timely dataflow workers,
//! in one process or across processes and hosts, for state spaces larger than one machine's
//! memory. Games reach it only through [`crate::search`] and the [`Space`] trait and its
//! capabilities; a state needs nothing more than serde ([`Portable`]).
//!
//! - [`cluster`]: the workers (threads holding timely workers for the whole run), connecting
//!   processes, agreeing on each search, and faults (a lost peer ends the run with its name).
//! - `rounds`: the dataflow of one search: offers exchanged by owner, reports to everyone,
//!   driven round by round by timely's progress tracking.
//! - `store`: one worker's states: stored once, linked to parents anywhere in the cluster.
//! - `bfs`, `astar`, `bidirectional`: the searches.
//! - [`hostfile`]: `host:port` lines, one per process.
//! - [`generate`]: not a search but `frontier generate`'s run, its units dealt to the processes
//!   and carried to process 0 on the same rounds.
//!
//! **Partition.** Every state has one owner among all workers of the cluster: the worker its
//! owner hash picks (timely's exchange). Only the owner stores it, in its own store, so memory
//! divides evenly over the workers and, with them, over the machines. A worker expands its own
//! states and sends each successor to its owner, with a [`store::Link`] to its parent (worker,
//! index).
//!
//! **Layers.** A round is what the local engine calls a layer (BFS depth d) or bucket (A*'s
//! (f, g)): every worker expands its share of it, then timely's progress tracking says when all
//! successors have reached their owners; then every worker reports to every other (states
//! stored, expanded, its next layer or least bucket, a goal met, a limit hit) and all take the
//! same decision. The rounds are the local engine's layers and buckets, taken in the same order
//! and finished whole before a goal ends them, so `states` and `expanded` are those of the local
//! engine's search of the same kind, for any number of workers and processes (tested).
//!
//! **Paths** are rebuilt by following links from the goal: each step, the owner of the current
//! state reports its chain of states down to the first parent owned elsewhere.
//!
//! **Limits** hold across the cluster: `--max-states` against the total the reports add up,
//! time, memory (each process's own budget) and interrupts reported by any worker stop all of
//! them at the end of the round, with the same limit; an interrupt of one process interrupts
//! every process.
//!
//! The stores keep parent links, not move tags: a state is expanded with the tag of the move
//! that reached it when the same worker holds its parent, else without (`Stored::successors_after`
//! gets `None`): a game's shortcut only skips successors that are stored already, so its
//! absence costs messages, never answers.

pub mod cluster;
pub mod generate;
pub mod hostfile;

mod astar;
mod bfs;
mod bidirectional;
mod rounds;
mod store;

#[cfg(test)]
mod tests;

use std::hash::{BuildHasher, Hash};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub use cluster::{Cluster, Hosts};

use crate::engine::control::{self, Limit};
use crate::engine::{Heuristic, MoveBudget, SearchControl, SearchOutcome, Space, Stored};
use cluster::Fault;
use rounds::Rounds;
use store::{Link, Store};

/// What a state needs to travel between workers: serde, on top of what [`Space`] asks.
pub trait Portable:
    Copy + Eq + Hash + Send + Sync + Serialize + DeserializeOwned + 'static
{
}

impl<T: Copy + Eq + Hash + Send + Sync + Serialize + DeserializeOwned + 'static> Portable for T {}

/// Finds a shortest path from `space.start()` to a goal on the cluster's workers, or proves
/// there is none: the engine's [`crate::engine::bfs::bfs`], distributed.
pub fn bfs<P: Stored + MoveBudget>(
    cluster: &Cluster,
    space: &P,
    ctl: &SearchControl,
) -> SearchOutcome<P::State>
where
    P::State: Portable,
{
    search(cluster, space, ctl, "bfs", |rounds, local| {
        bfs::run(rounds, space, ctl, local)
    })
}

/// A* on the cluster's workers: the engine's [`crate::engine::astar::astar`], distributed.
pub fn astar<P: Heuristic + MoveBudget>(
    cluster: &Cluster,
    space: &P,
    ctl: &SearchControl,
) -> SearchOutcome<P::State>
where
    P::State: Portable,
{
    search(cluster, space, ctl, "astar", |rounds, local| {
        astar::run(rounds, space, ctl, local)
    })
}

/// Bidirectional BFS from the start to `goal` (a reversible space) on the cluster's workers:
/// the engine's [`crate::engine::bidirectional::bidirectional`], distributed.
pub fn bidirectional<P: Stored>(
    cluster: &Cluster,
    space: &P,
    goal: P::State,
    ctl: &SearchControl,
) -> SearchOutcome<P::State>
where
    P::State: Portable,
{
    search(cluster, space, ctl, "bidirectional", |rounds, local| {
        bidirectional::run(rounds, space, goal, ctl, local)
    })
}

/// An offer: a successor, its parent's link, and its f (A*) or side (bidirectional).
type Offer<S> = (S, Link, u32);

/// The dataflow of a search with states `S`.
type SearchRounds<'w, S> = Rounds<'w, Offer<S>, Mail<S>>;

/// Runs one search on every worker of the cluster; a broken cluster ends it as interrupted
/// (the harness turns the level's row into an error naming the lost process).
fn search<P: Space>(
    cluster: &Cluster,
    space: &P,
    ctl: &SearchControl,
    kind: &str,
    run: impl Fn(&mut SearchRounds<P::State>, &Local) -> Result<SearchOutcome<P::State>, Fault> + Sync,
) -> SearchOutcome<P::State>
where
    P::State: Portable,
{
    let start = space.canonical(space.start());
    let what = OWNER.hash_one((kind, std::any::type_name::<P::State>(), start));
    let local = Local::new(cluster.workers());
    let outcome = cluster.run(what, |worker, faults| {
        let mut rounds = Rounds::new(worker, faults, owner::<P::State>);
        let outcome = run(&mut rounds, &local)?;
        rounds.close()?;
        Ok(outcome)
    });
    outcome.unwrap_or_else(|_| SearchOutcome::Stopped(Limit::Interrupted(ctl.progress.states())))
}

/// The hash that picks a state's owner. Fixed, so that every process picks the same; seeded
/// apart from the stores' table hash.
const OWNER: foldhash::fast::FixedState = foldhash::fast::FixedState::with_seed(0x6f77_6e65_7273);

fn owner<S: Hash>(offer: &Offer<S>) -> u64 {
    OWNER.hash_one(&offer.0)
}

/// What the workers of one process share during a search: their memory, for the process's
/// figure (its memory budget is its own).
struct Local {
    bytes: Vec<AtomicU64>,
}

impl Local {
    fn new(workers: usize) -> Self {
        Local {
            bytes: (0..workers).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Records worker `me`'s bytes (its index in the cluster) and the process's total in `ctl`.
    fn set_bytes(&self, me: usize, bytes: u64, ctl: &SearchControl) {
        self.bytes[me % self.bytes.len()].store(bytes, Ordering::Relaxed);
        ctl.progress
            .set_bytes(self.bytes.iter().map(|b| b.load(Ordering::Relaxed)).sum());
    }

    /// Whether worker `me` is its process's first, which keeps the process's counters.
    fn keeps_counts(&self, me: usize) -> bool {
        me.is_multiple_of(self.bytes.len())
    }
}

/// What travels on the broadcast channel.
#[derive(Clone, Serialize, Deserialize)]
enum Mail<S> {
    /// A worker's account of a round.
    Round(Report),
    /// A piece of the path being rebuilt: the owner's chain of states and the link below it.
    Path(Vec<S>, Link),
}

/// A worker's account of a round, sent to every worker.
#[derive(Clone, Default, Serialize, Deserialize)]
struct Report {
    /// States it stored for the first time, and states it expanded.
    stored: u64,
    expanded: u64,
    /// Its peak bytes so far.
    peak_bytes: u64,
    /// A limit its process hit, or a full store (as many states as indices).
    limit: Option<Limit>,
    /// A goal it stored (BFS) or queued at the bucket's f (A*) in the round; bidirectional: a
    /// state both sides hold, and (`meeting`) its link in the goal's side.
    goal: Option<Link>,
    meeting: Option<Link>,
    /// BFS: the states of its next layer (bidirectional: of each side's frontier).
    frontiers: [u64; 2],
    /// A*: its least open bucket, and a goal queued there.
    bucket: Option<((u32, u32), Option<Link>)>,
    /// A*: successors it dropped for the move budget since its last report (the rounds of
    /// [`crate::engine::astar::in_rounds`] end when a whole round dropped none).
    cut: u64,
}

impl Report {
    /// The part of a round's report every search fills alike: the states stored since the last
    /// report (taken, so that the next counts afresh), expanded, the peak bytes, and a limit its
    /// process hit or its full store.
    fn of_round(
        stored: &mut u64,
        expanded: u64,
        peak_bytes: u64,
        full: bool,
        ctl: &SearchControl,
    ) -> Report {
        Report {
            stored: std::mem::take(stored),
            expanded,
            peak_bytes,
            limit: (ctl.check_mid_layer().err())
                .or(full.then_some(Limit::States(store::MAX_STATES))),
            ..Report::default()
        }
    }
}

/// The decision every worker takes alike from the reports of a round.
struct Round {
    peak_bytes: u64,
    goal: Option<Link>,
    limit: Option<Limit>,
}

impl Round {
    /// Sends `report`, gathers everyone's, and adds them up. The process's first worker keeps
    /// the counts in `ctl`; `states` is the level's total (every worker keeps its own, so that
    /// all check the state limit against the same number).
    fn gather<S: Portable>(
        rounds: &mut SearchRounds<S>,
        report: Report,
        states: &mut u64,
        ctl: &SearchControl,
        local: &Local,
    ) -> Result<(Round, Vec<Report>), Fault> {
        let reports: Vec<Report> = rounds
            .gather(Mail::Round(report))?
            .into_iter()
            .map(|mail| match mail {
                Mail::Round(report) => report,
                Mail::Path(..) => unreachable!("paths are rebuilt after the last round"),
            })
            .collect();
        let sum = |f: fn(&Report) -> u64| reports.iter().map(f).sum::<u64>();
        let (stored, expanded) = (sum(|r| r.stored), sum(|r| r.expanded));
        if local.keeps_counts(rounds.index()) {
            ctl.progress.add(stored, expanded);
            ctl.progress.add_cut(sum(|r| r.cut));
        }
        *states += stored;
        let states_limit = ctl
            .budget
            .limits
            .max_states
            .filter(|&max| *states >= max)
            .map(Limit::States);
        let round = Round {
            peak_bytes: sum(|r| r.peak_bytes),
            goal: reports.iter().find_map(|r| r.goal),
            limit: reports.iter().find_map(|r| r.limit).or(states_limit),
        };
        Ok((round, reports))
    }

    /// Ends the search with this round's goal or limit, if it has one (a goal first, as the
    /// local engine finishes the layer in which it meets one).
    fn verdict<S: Portable>(
        &self,
        rounds: &mut SearchRounds<S>,
        store: &Store<S>,
        ctl: &SearchControl,
        local: &Local,
    ) -> Result<Option<SearchOutcome<S>>, Fault> {
        if let Some(goal) = self.goal {
            return Ok(Some(self.found(rounds, store, goal, ctl, local)?));
        }
        Ok(self
            .limit
            .map(|limit| self.stopped(limit, rounds.index(), ctl, local)))
    }

    /// The search ends with a goal: its path, rebuilt across workers.
    fn found<S: Portable>(
        &self,
        rounds: &mut SearchRounds<S>,
        store: &Store<S>,
        goal: Link,
        ctl: &SearchControl,
        local: &Local,
    ) -> Result<SearchOutcome<S>, Fault> {
        self.finish(rounds.index(), ctl, local);
        Ok(SearchOutcome::Found(path_to(rounds, store, goal)?))
    }

    /// The search ends with `limit`, the same on every process: later checks of each process's
    /// control report it, and an interrupt of one process interrupts all. The control's own
    /// budget of states is not recorded: every process counts the same states, and a search
    /// run as a [child](SearchControl::child) under a cap of its own (the plain A* before
    /// [`crate::engine::astar::in_rounds`]) must not stop the search it runs for.
    fn stopped<S>(
        &self,
        limit: Limit,
        me: usize,
        ctl: &SearchControl,
        local: &Local,
    ) -> SearchOutcome<S> {
        let own_states_budget =
            matches!(limit, Limit::States(max) if ctl.budget.limits.max_states == Some(max));
        if local.keeps_counts(me) && !own_states_budget {
            ctl.stop.request(limit);
            if matches!(limit, Limit::Interrupted(_)) {
                control::interrupt();
            }
        }
        self.finish(me, ctl, local);
        SearchOutcome::Stopped(limit)
    }

    /// The search ends for want of states.
    fn exhausted<S>(&self, me: usize, ctl: &SearchControl, local: &Local) -> SearchOutcome<S> {
        self.finish(me, ctl, local);
        SearchOutcome::Exhausted
    }

    /// The peak memory of the whole cluster, for the level's bytes per state.
    fn finish(&self, me: usize, ctl: &SearchControl, local: &Local) {
        if local.keeps_counts(me) {
            ctl.progress.raise_peak_bytes(self.peak_bytes);
        }
    }
}

/// The states from the start to `goal`, gathered from their owners: each step, the owner of
/// the current link sends its chain of states down to the first parent stored elsewhere.
fn path_to<S: Portable>(
    rounds: &mut SearchRounds<S>,
    store: &Store<S>,
    goal: Link,
) -> Result<Vec<S>, Fault> {
    let me = rounds.index();
    let mut path = Vec::new();
    let mut at = goal;
    while at != Link::ROOT {
        let mut chain = Vec::new();
        let mut below = at;
        if at.worker() == me {
            loop {
                chain.push(store.state(below.index()));
                below = store.parent(below.index());
                if below == Link::ROOT || below.worker() != me {
                    break;
                }
            }
        }
        let mut mails = rounds.gather(Mail::Path(chain, below))?;
        let Mail::Path(chain, below) = mails.swap_remove(at.worker()) else {
            unreachable!("every worker sends a path piece in a path round")
        };
        path.extend(chain);
        at = below;
    }
    path.reverse();
    Ok(path)
}
