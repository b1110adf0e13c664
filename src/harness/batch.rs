//! Solving a whole set of levels: driver threads take levels in turn, each level's search is
//! itself parallel, and a monitor thread ([`super::monitor`]) draws progress bars, guards the
//! memory budget and checkpoints finished rows to the results file.
//!
//! A level's `millis` must be its own time. By default one level runs at a time with every
//! thread (rayon's global pool). With `--parallel-levels N` the threads are split: each of the N
//! drivers has a pool of its own, so that no level's parallel work ever waits in a queue behind
//! another level's (in one shared pool a small level's jobs queued behind a large search's
//! chunks: a 0.2 s capture board took 22 s beside H-49).
//!
//! An interrupt ([`control::interrupt`]) stops the running searches at their next check and
//! starts no new level; every level still gets its row (`limit`, "interrupted ..."), so the
//! results file stays complete.
//!
//! On a cluster (`solve --distributed`) levels are solved one at a time, each search spread over
//! the cluster's workers. When the cluster breaks (a lost process), the level cut short gets an
//! `error` row naming the lost process and the levels never started get none: the results hold
//! the rows finished before, and nothing that was not.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use super::monitor::{Monitor, TICK};
use super::registry::LevelTask;
use super::results::{self, Row, Status};
use crate::distributed::Cluster;
use crate::engine::control::{self, Limits};
use crate::engine::{Limit, SearchControl};

/// How a batch runs.
#[derive(Clone, Debug, Default)]
pub struct BatchOptions {
    /// Per-level limits.
    pub limits: Limits,
    /// Memory the process may hold (its resident set, where the OS tells it; else the
    /// searches' own count of their allocations); past it the largest running search stops
    /// with a `limit` row.
    pub memory_budget: Option<u64>,
    /// Draw no progress bars.
    pub quiet: bool,
    /// How many levels are solved at a time (default 1: each level with every thread, its
    /// `millis` without interference from the others); more split the threads among them.
    pub parallel_levels: Option<usize>,
    /// Where to checkpoint the rows finished so far during long runs.
    pub checkpoint: Option<PathBuf>,
    /// Runs of each level (0 counts as 1): the row gives the median time and the range.
    pub repeat: usize,
    /// Levels whose first run is shorter are timed warm (see [`solve_timed`]).
    pub warm_below: Option<Duration>,
    /// The cluster that runs every search (levels then one at a time); `None`: this process.
    pub cluster: Option<Arc<Cluster>>,
    /// What solves each level in place of its game's own search (`solve --solver`: another
    /// program); `None`: frontier's search.
    pub solver: Option<Arc<dyn LevelSolver>>,
}

/// A solver of levels other than their games' own searches: it answers each level with its
/// row, under the limits and the interrupt of `ctl`.
pub trait LevelSolver: Send + Sync + std::fmt::Debug {
    fn solve(&self, task: &dyn LevelTask, ctl: &SearchControl) -> Row;
}

/// The most timed runs of a level timed warm (`BatchOptions::warm_below`).
const MAX_WARM_RUNS: usize = 1000;

/// The rows of a batch, in task order.
pub struct Batch {
    pub rows: Vec<Row>,
    /// How many of them are errors because the cluster broke while their level ran.
    pub lost: usize,
}

/// Solves every task.
pub fn solve_all(tasks: &[Box<dyn LevelTask>], options: &BatchOptions) -> Batch {
    let monitor = Monitor::new(tasks.len(), options);
    let lost = AtomicUsize::new(0);
    // Dropping the sender wakes the monitor at once when the last level is done.
    let (done, finished) = mpsc::channel::<()>();
    let next = AtomicUsize::new(0);
    let pools = driver_pools(levels_at_a_time(options, tasks.len()));
    std::thread::scope(|scope| {
        let monitor = &monitor;
        scope.spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(TICK) {
                monitor.tick();
            }
        });
        // Each driver thread takes the next level and runs it on its own pool (or, alone, on
        // the global one). Levels are not rayon jobs themselves, so a worker waiting inside one
        // level's layer never picks up a whole other level, which would stall the first
        // level's clock for the second's whole run.
        let (next, lost) = (&next, &lost);
        let drivers: Vec<_> = pools
            .iter()
            .map(|pool| {
                scope.spawn(move || {
                    while !control::interrupted() {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(task) = tasks.get(index) else { break };
                        let solve = || solve_timed(task.as_ref(), index, monitor, options);
                        let (mut row, ctl) = match pool {
                            Some(pool) => pool.install(solve),
                            None => solve(),
                        };
                        let says_interrupted = row.status == Status::Limit
                            && row.limit.is_some_and(|limit| limit.is_interrupt());
                        if control::interrupted() && !proven(&row) && !says_interrupted {
                            // Whatever the search answered after it was cut short (a
                            // program search's best so far, a solution found after a limit)
                            // is not its answer; proofs found before the interrupt stand.
                            row = Row {
                                status: Status::Limit,
                                moves: None,
                                optimal: false,
                                score: None,
                                solution: String::new(),
                                limit: Some(Limit::Interrupted(ctl.progress.states()).into()),
                                lower: None,
                                note: String::new(),
                                ..row
                            };
                        }
                        if let Some(why) = options.cluster.as_ref().and_then(|c| c.failure()) {
                            row = Row::error(row.game, &row.level, why);
                            lost.fetch_add(1, Ordering::Relaxed);
                        }
                        monitor.finished(index, row);
                    }
                })
            })
            .collect();
        for driver in drivers {
            driver.join().expect("a level's solver does not panic");
        }
        drop(done);
    });
    let cluster_broke = options
        .cluster
        .as_ref()
        .is_some_and(|c| c.failure().is_some());
    Batch {
        rows: monitor.into_rows(tasks, cluster_broke),
        lost: lost.into_inner(),
    }
}

/// How many levels are solved at a time: one unless told, one on a cluster (whose searches
/// each take all its workers).
pub fn levels_at_a_time(options: &BatchOptions, levels: usize) -> usize {
    if options.cluster.is_some() {
        return 1;
    }
    options.parallel_levels.unwrap_or(1).clamp(1, levels.max(1))
}

/// The pool of each of `drivers` driver threads: none (the global pool) for one driver; else
/// the global pool's threads split among them, at least one each.
fn driver_pools(drivers: usize) -> Vec<Option<rayon::ThreadPool>> {
    if drivers == 1 {
        return vec![None];
    }
    let threads = (rayon::current_num_threads() / drivers).max(1);
    (0..drivers)
        .map(|driver| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(move |i| format!("level-{driver}-{i}"))
                .build()
                // Without a pool of its own (the OS refused threads) a driver shares the
                // global one: slower to start levels beside others, never wrong.
                .ok()
        })
        .collect()
}

/// Solves one level `options.repeat` times (once when a limit stopped it): the row of its first
/// run, with the median time and the range of all runs (the answer and the counts are the same
/// every time). A level whose first run is shorter than `options.warm_below` is too short to
/// time cold (a capture board of 2 ms takes 20-33 ms alone in its process): that run is not
/// counted, and the level runs again until its timed runs add up to `warm_below` (at least
/// `repeat` runs, at most [`MAX_WARM_RUNS`]). Returns the control of the last run.
fn solve_timed(
    task: &dyn LevelTask,
    index: usize,
    monitor: &Monitor,
    options: &BatchOptions,
) -> (Row, Arc<SearchControl>) {
    let run = || {
        let backend = options
            .cluster
            .clone()
            .map(|cluster| cluster as Arc<dyn control::Backend>);
        let ctl = Arc::new(SearchControl::new(options.limits).on_backend(backend));
        monitor.started(index, task, &ctl);
        let row = match &options.solver {
            Some(solver) => solver.solve(task, &ctl),
            None => task.solve(&ctl),
        };
        (row, ctl)
    };
    let (mut row, mut ctl) = run();
    let warm_below = options.warm_below.map_or(0.0, |d| d.as_secs_f64() * 1e3);
    let warm = row.millis < warm_below && !row.hit_limit();
    let mut times = if warm { vec![] } else { vec![row.millis] };
    let more = |times: &[f64]| {
        times.len() < options.repeat
            || (warm && times.len() < MAX_WARM_RUNS && times.iter().sum::<f64>() < warm_below)
    };
    // A level stopped by a limit is not repeated: its time measures the limit.
    while more(&times) && !row.hit_limit() && !control::interrupted() {
        let (again, again_ctl) = run();
        times.push(again.millis);
        ctl = again_ctl;
        if warm && times.len() == 1 {
            row = again;
        }
    }
    if times.is_empty() {
        times.push(row.millis);
    }
    if times.len() > 1 {
        row.millis = results::median(&mut times);
        row.millis_min = times.first().copied();
        row.millis_max = times.last().copied();
    }
    (row, ctl)
}

/// Whether a row is an answer that no limit could have changed: an optimal solution, a proof
/// that there is none, or a level that could not be read.
fn proven(row: &Row) -> bool {
    match row.status {
        Status::Solved => row.optimal,
        Status::Unsolvable | Status::Error | Status::Wrong => true,
        Status::Limit => false,
    }
}
