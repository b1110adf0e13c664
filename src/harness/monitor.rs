//! What the batch's monitor thread does every tick, in three parts that know nothing of each
//! other:
//!
//! - [`Progress`]: the progress bars (indicatif): one overall bar, and a line with its rates
//!   for each level that has run a while;
//! - [`MemoryGuard`]: the process's memory budget, held against its resident set by stopping
//!   the largest running search;
//! - [`Checkpoints`]: the rows finished so far, written to the results file every few seconds.
//!
//! [`Monitor`] holds what they read (the running levels and the finished rows) and drives all
//! three from one [`Monitor::tick`].

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::batch::BatchOptions;
use super::interrupt;
use super::registry::LevelTask;
use super::results::{self, Row, Status};
use crate::engine::{Limit, SearchControl};
use crate::games;

/// How often the monitor wakes.
pub const TICK: Duration = Duration::from_millis(200);
/// A level shows its own progress line once it has run this long.
const SHOW_AFTER: Duration = Duration::from_secs(1);
/// The states/s of a progress line are those of about the last this long.
const RATE_WINDOW: Duration = Duration::from_secs(2);
/// How long after a memory stop the budget waits before stopping another search (the
/// allocator returns freed memory to the OS within a fraction of a second).
const MEMORY_SETTLES: Duration = Duration::from_secs(2);
/// How often finished rows are checkpointed to the results file.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(10);

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

/// The running levels and the finished rows, and the three parts that watch them.
pub struct Monitor {
    running: Mutex<Vec<Running>>,
    /// Shared with a second interrupt, which writes the finished ones before it quits.
    rows: Arc<Mutex<Vec<Option<Row>>>>,
    progress: Progress,
    guard: Option<MemoryGuard>,
    checkpoints: Option<Checkpoints>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Monitor {
    pub fn new(total: usize, options: &BatchOptions) -> Monitor {
        let rows = Arc::new(Mutex::new(vec![None; total]));
        if let Some(path) = &options.checkpoint {
            let rows = Arc::clone(&rows);
            interrupt::track(path, move || finished_csv(&lock(&rows)));
        }
        Monitor {
            running: Mutex::new(Vec::new()),
            rows,
            progress: Progress::new(total, options.quiet),
            guard: options.memory_budget.map(MemoryGuard::new),
            checkpoints: options.checkpoint.clone().map(Checkpoints::new),
        }
    }

    /// A level's run begins (again, when it is repeated: its line then follows the new run).
    pub fn started(&self, index: usize, task: &dyn LevelTask, ctl: &Arc<SearchControl>) {
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
        self.progress.now_running(&running);
    }

    pub fn finished(&self, index: usize, row: Row) {
        let mut running = lock(&self.running);
        if let Some(pos) = running.iter().position(|r| r.index == index) {
            let level = running.swap_remove(pos);
            self.progress.finished(level, &row);
        }
        self.progress.now_running(&running);
        drop(running);
        lock(&self.rows)[index] = Some(row);
    }

    /// Refreshes the progress lines, holds the memory budget, checkpoints.
    pub fn tick(&self) {
        let now = Instant::now();
        let mut running = lock(&self.running);
        self.progress.tick(&mut running, now);
        if let Some(guard) = &self.guard {
            guard.tick(&running, now);
        }
        drop(running);
        if let Some(checkpoints) = &self.checkpoints {
            checkpoints.tick(&self.rows, now);
        }
    }

    /// The rows in task order; a level never started (the run was interrupted) gets a `limit`
    /// row saying so, unless the run ended because its cluster broke: then it gets none.
    pub fn into_rows(self, tasks: &[Box<dyn LevelTask>], cluster_broke: bool) -> Vec<Row> {
        self.progress.overall.finish_and_clear();
        // A copy: until the last write, a second interrupt writes the rows finished.
        lock(&self.rows)
            .clone()
            .into_iter()
            .zip(tasks)
            .filter_map(|(row, task)| match row {
                Some(row) => Some(row),
                None if cluster_broke => None,
                None => Some(Row::limit(
                    task.game(),
                    task.name(),
                    games::Limit::NotStarted,
                )),
            })
            .collect()
    }
}

/// The progress bars: the overall one, and a line for each level that has run a while.
struct Progress {
    /// `--quiet`: no bars, and no line per `error` or `limit` row either.
    quiet: bool,
    multi: MultiProgress,
    overall: ProgressBar,
}

impl Progress {
    fn new(total: usize, quiet: bool) -> Progress {
        let target = if quiet {
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
        Progress {
            quiet,
            multi,
            overall,
        }
    }

    /// The overall bar names the levels being solved now.
    fn now_running(&self, running: &[Running]) {
        let names: Vec<&str> = running.iter().map(|r| r.name.as_str()).collect();
        self.overall.set_message(if names.is_empty() {
            String::new()
        } else {
            format!("now: {}", names.join(", "))
        });
    }

    /// A level's line goes; an `error`, `limit` or `wrong` row is printed in its place.
    fn finished(&self, level: Running, row: &Row) {
        if let Some(bar) = level.bar {
            bar.finish_and_clear();
            self.multi.remove(&bar);
        }
        if matches!(row.status, Status::Error | Status::Limit | Status::Wrong) && !self.quiet {
            let line = format!(
                "{} {}: {}: {}",
                row.game,
                row.level,
                row.status,
                row.detail()
            );
            // Where no bars are drawn (standard error is not a terminal), the bars' println
            // would drop the line: an error row's reason must reach the user all the same.
            if self.multi.is_hidden() {
                eprintln!("{line}");
            } else {
                self.overall.println(line);
            }
        }
        self.overall.inc(1);
    }

    fn tick(&self, running: &mut [Running], now: Instant) {
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
            let (states, expanded) = (r.ctl.progress.states(), r.ctl.progress.expanded());
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
                r.ctl.progress.latest_depth(),
                human(states as f64),
                rate(states, states_then),
                rate(expanded, expanded_then),
                r.ctl.progress.bytes() >> 20,
                (now - r.started).as_secs_f64()
            ));
            bar.tick();
        }
    }
}

/// The process's memory budget (`--max-memory`), held against its resident set.
struct MemoryGuard {
    budget: u64,
    /// The memory held at the last tick.
    last_held: Mutex<u64>,
    /// When the budget last stopped a search.
    last_stop: Mutex<Option<Instant>>,
}

impl MemoryGuard {
    fn new(budget: u64) -> MemoryGuard {
        MemoryGuard {
            budget,
            last_held: Mutex::new(0),
            last_stop: Mutex::new(None),
        }
    }

    /// Stops the largest running search when what the process holds, and may add before the
    /// next tick, passes the budget.
    fn tick(&self, running: &[Running], now: Instant) {
        let budget = self.budget;
        let searches: u64 = running.iter().map(|r| r.ctl.progress.bytes()).sum();
        let held = super::resident_bytes().unwrap_or(searches).max(searches);
        // What the searches may add before they notice a stop: twice what they added in the
        // last tick (one tick to the next check, and the chunks under way), the hash tables
        // about to double, and 2% of the budget for what a stopping search still allocates
        // (measured: the whole official set peaked 7 MiB under a 16,873 MiB budget without).
        let growth = 2 * held.saturating_sub(std::mem::replace(&mut *lock(&self.last_held), held));
        let imminent: u64 = running
            .iter()
            .map(|r| r.ctl.progress.imminent_bytes())
            .sum();
        // One stop at a time: while a stopped search winds down, and for a moment after,
        // until the allocator has handed its memory back, nothing else is stopped for it.
        // Only while it winds down: once the level has moved on to its next search (a
        // child control), that one may be stopped too (`is_stopped` on the level's own
        // control would stay true for the rest of the level, and keep the guard off).
        let mut last_stop = lock(&self.last_stop);
        let settling = running.iter().any(|r| r.ctl.stop.pending())
            || last_stop.is_some_and(|t| now - t < MEMORY_SETTLES);
        if held + growth + imminent + budget / 50 > budget
            && !settling
            && let Some(largest) = running.iter().max_by_key(|r| r.ctl.progress.bytes())
        {
            largest.ctl.stop.request(Limit::Memory(budget));
            *last_stop = Some(now);
        }
    }
}

/// The finished rows written to the results file every [`CHECKPOINT_EVERY`], when more have
/// finished since the last time.
struct Checkpoints {
    path: PathBuf,
    /// When the last checkpoint was written, and how many rows it held.
    last: Mutex<(Instant, usize)>,
}

impl Checkpoints {
    fn new(path: PathBuf) -> Checkpoints {
        Checkpoints {
            path,
            last: Mutex::new((Instant::now(), 0)),
        }
    }

    fn tick(&self, rows: &Mutex<Vec<Option<Row>>>, now: Instant) {
        let mut last = lock(&self.last);
        let rows = lock(rows);
        let finished = rows.iter().filter(|r| r.is_some()).count();
        if now - last.0 < CHECKPOINT_EVERY || finished == last.1 {
            return;
        }
        let csv = finished_csv(&rows);
        drop(rows);
        // Under the results lock (a second interrupt waits for it). A failed checkpoint is
        // retried at the next one; the final write reports errors.
        let _ = interrupt::write(&self.path, &csv);
        *last = (now, finished);
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
