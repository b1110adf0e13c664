//! Solving a whole set of levels: driver threads take levels in turn, each level's search is
//! itself parallel, and a monitor thread draws progress bars, guards the memory budget and
//! checkpoints finished rows to the results file.
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

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::interrupt;
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
}

/// A level shows its own progress line once it has run this long.
const SHOW_AFTER: Duration = Duration::from_secs(1);
/// How often the monitor wakes.
const TICK: Duration = Duration::from_millis(200);
/// The states/s of a progress line are those of about the last this long.
const RATE_WINDOW: Duration = Duration::from_secs(2);
/// How long after a memory stop the budget waits before stopping another search (the
/// allocator returns freed memory to the OS within a fraction of a second).
const MEMORY_SETTLES: Duration = Duration::from_secs(2);
/// The most timed runs of a level timed warm (`BatchOptions::warm_below`).
const MAX_WARM_RUNS: usize = 1000;
/// How often finished rows are checkpointed to the results file.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(10);

/// Solves every task and returns the rows in task order.
pub fn solve_all(tasks: &[Box<dyn LevelTask>], options: &BatchOptions) -> Vec<Row> {
    let monitor = Monitor::new(tasks.len(), options);
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
        let next = &next;
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
                        let says_interrupted =
                            row.status == Status::Limit && row.detail.starts_with("interrupted");
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
                                detail: Limit::Interrupted(ctl.states()).to_string(),
                                ..row
                            };
                        }
                        if let Some(lost) = options.cluster.as_ref().and_then(|c| c.failure()) {
                            row = Row::error(&row.game, &row.level, lost);
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
    monitor.into_rows(tasks, cluster_broke)
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
        (task.solve(&ctl), ctl)
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
        Status::Unsolvable | Status::Error => true,
        Status::Limit => false,
    }
}

/// A level being solved.
struct Running {
    index: usize,
    name: String,
    ctl: Arc<SearchControl>,
    started: Instant,
    bar: Option<ProgressBar>,
    /// Recent (time, states, expanded) samples, oldest first, for the rates.
    samples: VecDeque<(Instant, u64, u64)>,
}

struct Monitor {
    /// `--quiet`: no bars, and no line per `error` or `limit` row either.
    quiet: bool,
    multi: MultiProgress,
    overall: ProgressBar,
    running: Mutex<Vec<Running>>,
    /// Shared with a second interrupt, which writes the finished ones before it quits.
    rows: Arc<Mutex<Vec<Option<Row>>>>,
    memory_budget: Option<u64>,
    /// The memory held at the last tick.
    last_held: Mutex<u64>,
    /// When the memory budget last stopped a search.
    last_memory_stop: Mutex<Option<Instant>>,
    checkpoint: Option<PathBuf>,
    last_checkpoint: Mutex<(Instant, usize)>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Monitor {
    fn new(total: usize, options: &BatchOptions) -> Monitor {
        let rows = Arc::new(Mutex::new(vec![None; total]));
        if let Some(path) = &options.checkpoint {
            let rows = Arc::clone(&rows);
            interrupt::track(path, move || finished_csv(&lock(&rows)));
        }
        let target = if options.quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let multi = MultiProgress::with_draw_target(target);
        let overall = multi.add(ProgressBar::new(total as u64));
        overall.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} levels  {msg}")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        Monitor {
            quiet: options.quiet,
            multi,
            overall,
            running: Mutex::new(Vec::new()),
            rows,
            memory_budget: options.memory_budget,
            last_held: Mutex::new(0),
            last_memory_stop: Mutex::new(None),
            checkpoint: options.checkpoint.clone(),
            last_checkpoint: Mutex::new((Instant::now(), 0)),
        }
    }

    /// A level's run begins (again, when it is repeated: its line then follows the new run).
    fn started(&self, index: usize, task: &dyn LevelTask, ctl: &Arc<SearchControl>) {
        let now = Instant::now();
        let mut running = lock(&self.running);
        if let Some(previous) = running.iter_mut().find(|r| r.index == index) {
            previous.ctl = Arc::clone(ctl);
            previous.samples = VecDeque::from([(now, 0, 0)]);
            return;
        }
        running.push(Running {
            index,
            name: format!("{} {}", task.game(), task.name()),
            ctl: Arc::clone(ctl),
            started: now,
            bar: None,
            samples: VecDeque::from([(now, 0, 0)]),
        });
        self.overall.set_message(running_names(&running));
    }

    fn finished(&self, index: usize, row: Row) {
        let mut running = lock(&self.running);
        if let Some(pos) = running.iter().position(|r| r.index == index) {
            let r = running.swap_remove(pos);
            if let Some(bar) = r.bar {
                bar.finish_and_clear();
                self.multi.remove(&bar);
            }
        }
        self.overall.set_message(running_names(&running));
        drop(running);
        if matches!(row.status, Status::Error | Status::Limit) && !self.quiet {
            let line = format!("{} {}: {}: {}", row.game, row.level, row.status, row.detail);
            // Where no bars are drawn (standard error is not a terminal), the bars' println
            // would drop the line: an error row's reason must reach the user all the same.
            if self.multi.is_hidden() {
                eprintln!("{line}");
            } else {
                self.overall.println(line);
            }
        }
        self.overall.inc(1);
        lock(&self.rows)[index] = Some(row);
    }

    /// Refreshes the per-level lines, enforces the memory budget, checkpoints.
    fn tick(&self) {
        let mut running = lock(&self.running);
        let now = Instant::now();
        for r in running.iter_mut() {
            if now - r.started < SHOW_AFTER {
                continue;
            }
            let bar = r.bar.get_or_insert_with(|| {
                let bar = self.multi.add(ProgressBar::new_spinner());
                bar.set_style(
                    ProgressStyle::with_template("  {spinner} {msg}").expect("a valid template"),
                );
                bar
            });
            let (states, expanded) = (r.ctl.states(), r.ctl.expanded());
            // Rates over the last RATE_WINDOW, not one tick: a search stores a layer's states
            // in steps (a beam at the end of each layer).
            while r.samples.len() > 1 && now - r.samples[1].0 >= RATE_WINDOW {
                r.samples.pop_front();
            }
            let (then, states_then, expanded_then) = r.samples[0];
            r.samples.push_back((now, states, expanded));
            let dt = (now - then).as_secs_f64().max(1e-3);
            let rate = |n: u64, then: u64| human(n.saturating_sub(then) as f64 / dt);
            bar.set_message(format!(
                "{}: depth {}, {} states, {}/s, {} expanded/s, {} MiB, {:.0} s",
                r.name,
                r.ctl.latest_depth(),
                human(states as f64),
                rate(states, states_then),
                rate(expanded, expanded_then),
                r.ctl.bytes() >> 20,
                (now - r.started).as_secs_f64()
            ));
            bar.tick();
        }
        if let Some(budget) = self.memory_budget {
            let searches: u64 = running.iter().map(|r| r.ctl.bytes()).sum();
            let held = super::resident_bytes().unwrap_or(searches).max(searches);
            // What the searches may add before they notice a stop: twice what they added in the
            // last tick (one tick to the next check, and the chunks under way), the hash tables
            // about to double, and 2% of the budget for what a stopping search still allocates
            // (measured: the whole official set peaked 7 MiB under a 16,873 MiB budget without).
            let growth =
                2 * held.saturating_sub(std::mem::replace(&mut *lock(&self.last_held), held));
            let imminent: u64 = running.iter().map(|r| r.ctl.imminent_bytes()).sum();
            // One stop at a time: while a stopped search winds down, and for a moment after,
            // until the allocator has handed its memory back, nothing else is stopped for it.
            // Only while it winds down: once the level has moved on to its next search (a
            // child control), that one may be stopped too (`is_stopped` on the level's own
            // control would stay true for the rest of the level, and keep the guard off).
            let mut last_stop = lock(&self.last_memory_stop);
            let settling = running.iter().any(|r| r.ctl.stop_pending())
                || last_stop.is_some_and(|t| now - t < MEMORY_SETTLES);
            if held + growth + imminent + budget / 50 > budget
                && !settling
                && let Some(largest) = running.iter().max_by_key(|r| r.ctl.bytes())
            {
                largest.ctl.request_stop(Limit::Memory(budget));
                *last_stop = Some(now);
            }
        }
        drop(running);
        self.checkpoint_if_due(now);
    }

    fn checkpoint_if_due(&self, now: Instant) {
        let Some(path) = &self.checkpoint else { return };
        let mut last = lock(&self.last_checkpoint);
        let rows = lock(&self.rows);
        let finished = rows.iter().filter(|r| r.is_some()).count();
        if now - last.0 < CHECKPOINT_EVERY || finished == last.1 {
            return;
        }
        let csv = finished_csv(&rows);
        drop(rows);
        // Under the results lock (a second interrupt waits for it). A failed checkpoint is
        // retried at the next one; the final write reports errors.
        let _ = interrupt::write(path, &csv);
        *last = (now, finished);
    }

    /// The rows in task order; a level never started (the run was interrupted) gets a `limit`
    /// row saying so, unless the run ended because its cluster broke: then it gets none.
    fn into_rows(self, tasks: &[Box<dyn LevelTask>], cluster_broke: bool) -> Vec<Row> {
        self.overall.finish_and_clear();
        // A copy: until the last write, a second interrupt writes the rows finished.
        lock(&self.rows)
            .clone()
            .into_iter()
            .zip(tasks)
            .filter_map(|(row, task)| match row {
                Some(row) => Some(row),
                None if cluster_broke => None,
                None => Some(Row::limit(
                    task.game().as_str(),
                    task.name(),
                    "interrupted before it started".into(),
                )),
            })
            .collect()
    }
}

/// The overall bar's message: the levels being solved now.
fn running_names(running: &[Running]) -> String {
    let names: Vec<&str> = running.iter().map(|r| r.name.as_str()).collect();
    if names.is_empty() {
        String::new()
    } else {
        format!("now: {}", names.join(", "))
    }
}

/// The rows finished so far, in task order, as a whole CSV.
fn finished_csv(rows: &[Option<Row>]) -> String {
    results::to_csv(&rows.iter().flatten().cloned().collect::<Vec<_>>())
}

/// 1234567 as `1.23M`.
fn human(n: f64) -> String {
    match n {
        n if n >= 1e9 => format!("{:.2}G", n / 1e9),
        n if n >= 1e6 => format!("{:.2}M", n / 1e6),
        n if n >= 1e3 => format!("{:.1}k", n / 1e3),
        n => format!("{n:.0}"),
    }
}
