//! Limits, live progress counters and results shared by every search.
//!
//! A [`SearchControl`] is created per level by the harness, in three parts: its [`Budget`] (the
//! limits and the clock), its [`Progress`] (counters the searches add to in batches, never per
//! state, to keep cache lines quiet, and the harness reads for progress bars and the memory
//! guard) and its [`StopToken`] (stops requested from outside, and the first limit hit).
//! [`SearchControl::check`] holds them against each other: a search learns there whether a
//! limit has been reached.
//!
//! A control also carries the backend its level's searches run on, when that is not this
//! process's threads: a [`Backend`], which the engine only carries and never looks into.
//! [`crate::search`] knows the backends and picks one, so that a game calls one entry point
//! whatever the backend, and the engine knows nothing built above it.

use std::any::Any;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::words::count;

/// A backend that runs a level's searches somewhere other than this process's threads (the
/// distributed backend's cluster). Opaque here: [`crate::search`] recognises it by its type.
pub trait Backend: Any + Send + Sync + fmt::Debug {}

/// Per-level limits. `None` means unlimited.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop once this many distinct states are stored.
    pub max_states: Option<u64>,
    /// Stop once this much wall time has passed since the control was created.
    pub timeout: Option<Duration>,
    /// Stop once the estimated search memory exceeds this many bytes.
    pub max_bytes: Option<u64>,
    /// How long a game may look for some solution, without proof, after a limit stopped its
    /// optimal search: `None` for the game's default, zero for not at all.
    pub anytime: Option<Duration>,
    /// How many times its default candidates a search that only bounds its answer (Bender's
    /// program search) runs: `None` for once. A count, so its answers are the same every run.
    pub effort: Option<u32>,
}

/// Why a search stopped before finishing. Serialisable: the workers of a distributed search
/// agree on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Limit {
    States(u64),
    Time(Duration),
    Memory(u64),
    /// The user interrupted the run ([`interrupt`]) after this many states.
    Interrupted(u64),
}

/// Set once the user interrupts the run (SIGINT or SIGTERM, caught by the command line): every
/// search of the process then stops at its next check. Process-wide because an interrupt is.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Stops every search of the process at its next check, with [`Limit::Interrupted`].
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// Whether [`interrupt`] was called.
#[inline]
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::States(n) => write!(f, "max-states limit of {} reached", count(*n, "state")),
            Limit::Time(d) => write!(f, "timeout of {:.3} s reached", d.as_secs_f64()),
            Limit::Memory(b) => write!(f, "memory limit of {} MiB reached", b >> 20),
            Limit::Interrupted(n) => write!(f, "interrupted after {}", count(*n, "state")),
        }
    }
}

impl std::str::FromStr for Limit {
    type Err = ();

    /// The limit that [`Limit`]'s `Display` wrote (a results file read back; a memory limit
    /// to the MiB, a timeout to the millisecond).
    fn from_str(text: &str) -> Result<Self, ()> {
        let between = |prefix: &str, suffix: &str| {
            text.strip_prefix(prefix)
                .and_then(|rest| rest.strip_suffix(suffix))
        };
        let states = |n: &str| {
            let n = n
                .strip_suffix(" states")
                .or_else(|| n.strip_suffix(" state"))?;
            n.parse::<u64>().ok()
        };
        if let Some(n) = between("max-states limit of ", " reached").and_then(states) {
            return Ok(Limit::States(n));
        }
        if let Some(seconds) = between("timeout of ", " s reached") {
            let seconds: f64 = seconds.parse().map_err(drop)?;
            return Duration::try_from_secs_f64(seconds)
                .map(Limit::Time)
                .map_err(drop);
        }
        if let Some(mib) = between("memory limit of ", " MiB reached") {
            return mib
                .parse::<u64>()
                .map(|m| Limit::Memory(m << 20))
                .map_err(drop);
        }
        between("interrupted after ", "")
            .and_then(states)
            .map(Limit::Interrupted)
            .ok_or(())
    }
}

/// One search's control, in three parts that the searches and the harness use apart: what it
/// may use ([`Budget`]), what the level's searches have done so far ([`Progress`]), and whether
/// to stop ([`StopToken`]); beside them, the backend its searches run on. [`Self::check`]
/// holds the three against each other; [`Self::child`] makes the control of a search that
/// follows this one in the same level.
#[derive(Debug)]
pub struct SearchControl {
    pub budget: Budget,
    pub progress: Progress,
    pub stop: StopToken,
    /// The backend that runs this level's searches; `None`: this process's threads.
    backend: Option<Arc<dyn Backend>>,
}

/// What a search may use: its limits, from the moment its control was made.
#[derive(Debug)]
pub struct Budget {
    pub limits: Limits,
    started: Instant,
}

impl Budget {
    fn new(limits: Limits) -> Self {
        Budget {
            limits,
            started: Instant::now(),
        }
    }

    /// Wall time since the control was created.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// What a level's searches have done: counters shared by a control and its
/// [children](SearchControl::child), which searches update in batches (never per state, to
/// keep cache lines quiet) and the harness reads for progress bars and the memory guard, and
/// the depth and cut of this control's own search.
#[derive(Debug)]
pub struct Progress {
    level: Arc<LevelCounters>,
    /// This control's own search's depth (a child's is its own): a stopped A* proves its f.
    depth: AtomicU64,
    /// Successors its searches dropped for the space's move budget (see [`Self::add_cut`]).
    cut: AtomicU64,
}

/// What a level's searches count together.
#[derive(Debug, Default)]
struct LevelCounters {
    states: AtomicU64,
    expanded: AtomicU64,
    bytes: AtomicU64,
    peak_bytes: AtomicU64,
    /// What the search running now is about to allocate in one step.
    imminent_bytes: AtomicU64,
    /// The depth the search running now last reported, whichever control it runs under.
    latest_depth: AtomicU64,
}

impl Progress {
    fn of_level(level: Arc<LevelCounters>) -> Self {
        Progress {
            level,
            depth: AtomicU64::new(0),
            cut: AtomicU64::new(0),
        }
    }

    /// Distinct states stored so far (all searches of this level together).
    pub fn states(&self) -> u64 {
        self.level.states.load(Ordering::Relaxed)
    }

    /// States whose successors were generated so far.
    pub fn expanded(&self) -> u64 {
        self.level.expanded.load(Ordering::Relaxed)
    }

    /// The deepest layer (or f-bound) this control's search has reached.
    pub fn depth(&self) -> u64 {
        self.depth.load(Ordering::Relaxed)
    }

    /// The depth the level's search running now (this control's or a child's) last reported:
    /// what progress shows.
    pub fn latest_depth(&self) -> u64 {
        self.level.latest_depth.load(Ordering::Relaxed)
    }

    /// Peak estimated bytes of search memory.
    pub fn peak_bytes(&self) -> u64 {
        self.level.peak_bytes.load(Ordering::Relaxed)
    }

    /// Adds a batch of newly stored and expanded states.
    #[inline]
    pub fn add(&self, new_states: u64, new_expanded: u64) {
        if new_states != 0 {
            self.level.states.fetch_add(new_states, Ordering::Relaxed);
        }
        if new_expanded != 0 {
            self.level
                .expanded
                .fetch_add(new_expanded, Ordering::Relaxed);
        }
    }

    /// Counts successors dropped because the space's move budget ([`super::MoveBudget::max_depth`])
    /// leaves them no room: with a larger budget the search would have gone on. Counted by the
    /// local [`super::astar::astar`], for [`super::astar::in_rounds`].
    pub fn add_cut(&self, dropped: u64) {
        if dropped != 0 {
            self.cut.fetch_add(dropped, Ordering::Relaxed);
        }
    }

    /// Successors dropped for the move budget so far (see [`Self::add_cut`]).
    pub fn cut(&self) -> u64 {
        self.cut.load(Ordering::Relaxed)
    }

    /// Records the current memory estimate of the searches in progress.
    pub fn set_bytes(&self, bytes: u64) {
        self.level.bytes.store(bytes, Ordering::Relaxed);
        self.level.peak_bytes.fetch_max(bytes, Ordering::Relaxed);
    }

    /// Raises the peak memory to `bytes` without changing the current figure: a distributed
    /// search's allocations on all its machines together, which this process's memory budget
    /// must not be held against.
    pub fn raise_peak_bytes(&self, bytes: u64) {
        self.level.peak_bytes.fetch_max(bytes, Ordering::Relaxed);
    }

    /// Records what the search is about to allocate in one step (hash tables about to double),
    /// for a memory budget to keep room for. Shared with children, so that the level's memory
    /// budget sees a child search's too.
    pub fn set_imminent_bytes(&self, bytes: u64) {
        self.level.imminent_bytes.store(bytes, Ordering::Relaxed);
    }

    /// See [`Self::set_imminent_bytes`].
    pub fn imminent_bytes(&self) -> u64 {
        self.level.imminent_bytes.load(Ordering::Relaxed)
    }

    pub fn set_depth(&self, depth: u64) {
        self.depth.store(depth, Ordering::Relaxed);
        self.level.latest_depth.store(depth, Ordering::Relaxed);
    }

    /// Current estimated bytes of search memory.
    pub fn bytes(&self) -> u64 {
        self.level.bytes.load(Ordering::Relaxed)
    }

    /// Statistics of everything reported so far.
    pub fn stats(&self) -> SearchStats {
        SearchStats {
            states: self.states(),
            expanded: self.expanded(),
            peak_bytes: self.peak_bytes(),
        }
    }
}

/// Whether a search should stop: the first limit it hit, and stops requested from outside (the
/// harness's memory guard) for its level, which reach the child search running at that moment
/// and none started later.
#[derive(Debug)]
pub struct StopToken {
    level: Arc<LevelStops>,
    stopped: AtomicBool,
    /// The limit that stopped the search: requested from outside or the first one
    /// [`SearchControl::check`] found.
    first: Mutex<Option<Limit>>,
    /// Outside requests made before this control was created are not its own: a search that
    /// follows a stopped one of the same level starts afresh.
    requests_before: u64,
}

/// The stops requested for a level, shared by a control and its children.
#[derive(Debug, Default)]
struct LevelStops {
    /// Stops requested from outside ([`StopToken::request`]): how many so far, and the last
    /// one's limit. Shared, so that a request made while a child search runs stops it.
    requests: AtomicU64,
    last_request: Mutex<Option<Limit>>,
    /// Child controls created so far, and how many there were at the last request: a child
    /// created after a request means the search it was meant for has ended.
    children: AtomicU64,
    children_at_request: AtomicU64,
}

impl StopToken {
    fn of_level(level: Arc<LevelStops>) -> Self {
        StopToken {
            requests_before: level.requests.load(Ordering::Relaxed),
            level,
            stopped: AtomicBool::new(false),
            first: Mutex::new(None),
        }
    }

    /// Asks the search to stop at its next check, reporting `limit`: this control's search, or
    /// the [child](SearchControl::child) search running for it.
    pub fn request(&self, limit: Limit) {
        *lock(&self.level.last_request) = Some(limit);
        self.level.children_at_request.store(
            self.level.children.load(Ordering::Acquire),
            Ordering::Relaxed,
        );
        self.level.requests.fetch_add(1, Ordering::Release);
    }

    /// Whether a stop was [requested](Self::request) for this level and the search it was
    /// meant for may still be running: no child control was created since (a search of the
    /// level that follows runs under one). The harness's memory guard stops nothing else while
    /// one is pending, and stops the level's next search again if it is needed.
    pub fn pending(&self) -> bool {
        self.level.requests.load(Ordering::Acquire) > 0
            && self.level.children.load(Ordering::Acquire)
                == self.level.children_at_request.load(Ordering::Relaxed)
    }

    /// The last stop requested from outside since this control was created.
    fn outside_request(&self) -> Option<Limit> {
        (self.level.requests.load(Ordering::Acquire) > self.requests_before)
            .then(|| *lock(&self.level.last_request))
            .flatten()
    }

    /// Whether some search of this level already hit a limit (cheap; for inner loops).
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
            || interrupted()
            || self.level.requests.load(Ordering::Relaxed) > self.requests_before
    }

    /// Records `limit` unless an earlier one was; returns the first.
    fn hit(&self, limit: Limit) -> Limit {
        let first = *lock(&self.first).get_or_insert(limit);
        self.stopped.store(true, Ordering::Relaxed);
        first
    }

    /// The first limit recorded, once one was (the lock is only taken then).
    fn first(&self) -> Option<Limit> {
        if self.stopped.load(Ordering::Relaxed) {
            *lock(&self.first)
        } else {
            None
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl SearchControl {
    pub fn new(limits: Limits) -> Self {
        Self::of_level(limits, Arc::default(), Arc::default())
    }

    pub fn unlimited() -> Self {
        Self::new(Limits::default())
    }

    /// A control with limits of its own that counts into this one's states, expansions and
    /// memory: for a search that follows another of the same level once that one has ended
    /// and freed its memory (a solution looked for after the optimal search stopped at a
    /// limit), so that the level's progress, states and peak memory include it while it runs.
    /// The child's limits are checked against those shared counts (its memory from zero), its
    /// time from its own creation. It runs on the same backend as this one.
    ///
    /// Its memory limit is never above this one's: the level's memory budget holds in every
    /// search that follows (the smaller of `limits.max_bytes` and this control's).
    pub fn child(&self, limits: Limits) -> Self {
        let counters = &self.progress.level;
        counters.bytes.store(0, Ordering::Relaxed);
        counters.imminent_bytes.store(0, Ordering::Relaxed);
        self.stop.level.children.fetch_add(1, Ordering::AcqRel);
        let limits = Limits {
            max_bytes: match (limits.max_bytes, self.budget.limits.max_bytes) {
                (Some(own), Some(parent)) => Some(own.min(parent)),
                (own, parent) => own.or(parent),
            },
            ..limits
        };
        Self::of_level(
            limits,
            Arc::clone(&self.progress.level),
            Arc::clone(&self.stop.level),
        )
        .on_backend(self.backend.clone())
    }

    fn of_level(limits: Limits, counters: Arc<LevelCounters>, stops: Arc<LevelStops>) -> Self {
        SearchControl {
            budget: Budget::new(limits),
            progress: Progress::of_level(counters),
            stop: StopToken::of_level(stops),
            backend: None,
        }
    }

    /// This control with its searches run by `backend` (`None`: by this process's threads).
    pub fn on_backend(mut self, backend: Option<Arc<dyn Backend>>) -> Self {
        self.backend = backend;
        self
    }

    /// The backend that runs this level's searches, if it is not this process's threads.
    pub fn backend(&self) -> Option<&dyn Backend> {
        self.backend.as_deref()
    }

    /// Checks every limit; once one is hit, every later call reports it too.
    pub fn check(&self) -> Result<(), Limit> {
        self.check_limits(true)
    }

    /// [`Self::check`] for the workers inside a layer or bucket: every limit but `max_states`,
    /// which the searches check only between layers (and buckets, and waves), so that a search
    /// stopped by it has always stored the same states, whatever the threads' timing. Time and
    /// memory must stop a large layer while it grows; a state count may finish it.
    pub fn check_mid_layer(&self) -> Result<(), Limit> {
        self.check_limits(false)
    }

    fn check_limits(&self, states_too: bool) -> Result<(), Limit> {
        let limits = &self.budget.limits;
        let limit = self
            .stop
            .first()
            .or_else(|| self.stop.outside_request())
            .or_else(|| interrupted().then(|| Limit::Interrupted(self.progress.states())))
            .or_else(|| {
                (limits.max_states)
                    .filter(|&m| states_too && self.progress.states() >= m)
                    .map(Limit::States)
            })
            .or_else(|| {
                (limits.timeout)
                    .filter(|&t| self.budget.elapsed() >= t)
                    .map(Limit::Time)
            })
            .or_else(|| {
                (limits.max_bytes)
                    .filter(|&b| self.progress.bytes() >= b)
                    .map(Limit::Memory)
            });
        // The first limit hit is the one every later call reports, even when the measure
        // behind it falls back (memory is freed as a search winds down).
        match limit {
            Some(l) => Err(self.stop.hit(l)),
            None => Ok(()),
        }
    }
}

/// Counters of a finished search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Distinct states stored in the visited set(s).
    pub states: u64,
    /// States whose successors were generated.
    pub expanded: u64,
    /// Peak estimated bytes of search memory.
    pub peak_bytes: u64,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchOutcome<S> {
    /// A shortest path, start and goal included.
    Found(Vec<S>),
    /// Every reachable state was visited and none is a goal.
    Exhausted,
    /// A limit ended the search first.
    Stopped(Limit),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::astar::astar;
    use crate::engine::testing::{EightPuzzle, HARDEST, found_path};

    #[test]
    fn a_stop_requested_for_a_level_reaches_its_running_child_search_only() {
        let level = SearchControl::unlimited();
        let first = level.child(Limits::default());
        assert!(!first.stop.is_stopped());
        // The harness's memory guard stops the level while `first` runs for it.
        level.stop.request(Limit::Memory(1));
        assert!(first.stop.is_stopped());
        assert_eq!(first.check(), Err(Limit::Memory(1)));
        // A search started afterwards (the level's anytime search) runs, until asked again.
        let second = level.child(Limits::default());
        assert_eq!(second.check(), Ok(()));
        assert_eq!(
            found_path(astar(&EightPuzzle::new(HARDEST, true), &second)).len(),
            32
        );
        level.stop.request(Limit::Memory(2));
        assert_eq!(second.check(), Err(Limit::Memory(2)));
        // A child's own limits are its own: the level is not stopped by them.
        let third = level.child(Limits {
            max_states: Some(1),
            ..Limits::default()
        });
        assert_eq!(third.check(), Err(Limit::States(1)));
        assert_eq!(level.child(Limits::default()).check(), Ok(()));
    }

    #[test]
    fn a_memory_stop_is_pending_until_the_level_moves_on_to_its_next_search() {
        let level = SearchControl::unlimited();
        let first = level.child(Limits::default());
        assert!(!level.stop.pending());
        level.stop.request(Limit::Memory(1));
        // While `first` winds down the guard stops nothing else; the level's control itself says
        // stopped for good, which is why the guard does not ask it.
        assert!(level.stop.pending() && first.stop.pending());
        assert!(level.stop.is_stopped());
        // The next search of the level: the stop was not meant for it, and it may be stopped.
        let second = level.child(Limits::default());
        assert!(!level.stop.pending() && !second.stop.pending());
        level.stop.request(Limit::Memory(1));
        assert!(second.stop.pending());
        assert_eq!(second.check(), Err(Limit::Memory(1)));
    }

    #[test]
    fn a_child_search_never_has_more_memory_than_its_level() {
        let level = SearchControl::new(Limits {
            max_bytes: Some(1000),
            ..Limits::default()
        });
        let at_most = |own: Option<u64>| {
            level
                .child(Limits {
                    max_bytes: own,
                    ..Limits::default()
                })
                .budget
                .limits
                .max_bytes
        };
        assert_eq!(at_most(None), Some(1000));
        assert_eq!(at_most(Some(4 << 30)), Some(1000));
        assert_eq!(at_most(Some(10)), Some(10));
        assert_eq!(
            SearchControl::unlimited()
                .child(Limits {
                    max_bytes: Some(10),
                    ..Limits::default()
                })
                .budget
                .limits
                .max_bytes,
            Some(10)
        );
        // It stops at the level's budget as soon as it counts that much.
        let child = level.child(Limits::default());
        child.progress.set_bytes(999);
        assert_eq!(child.check(), Ok(()));
        child.progress.set_bytes(1000);
        assert_eq!(child.check(), Err(Limit::Memory(1000)));
    }

    #[test]
    fn a_limit_once_hit_stays_hit_when_memory_falls_back() {
        let ctl = SearchControl::new(Limits {
            max_bytes: Some(100),
            ..Limits::default()
        });
        assert_eq!(ctl.check(), Ok(()));
        ctl.progress.set_bytes(200);
        assert_eq!(ctl.check(), Err(Limit::Memory(100)));
        ctl.progress.set_bytes(50);
        assert_eq!(ctl.check(), Err(Limit::Memory(100)));
        assert!(ctl.stop.is_stopped());
    }
}
