//! `frontier generate sliding-blocks`: the parallel driver of the exhaustive search for the
//! hardest puzzles of a board (the class and its enumeration: `games/sliding_blocks/generate.rs`).
//!
//! A run has two sides, which the local driver ([`generate`]) joins in one process and
//! `distributed/generate.rs` spreads over a cluster's processes:
//!
//! - [`Searcher`] lists the units and searches them. Goal shapes are handed to rayon's
//!   workers. A worker lists its goal shape's classes (piece sets, without their positions) and
//!   cuts the list into **units** of [`UNIT_CLASSES`] classes, in the listing's order, which are
//!   handed to workers in turn. A unit's classes are tiled and searched one after another; each
//!   class's search is itself the engine's parallel BFS, which runs its larger layers in
//!   parallel and its small ones on the calling thread. A unit's result ([`Finished`]) is one
//!   [`Tally`] per piece count: the best puzzle and what its classes' searches counted.
//! - [`Merger`] records each finished unit in the run's journal ([`super::journal`]) as it
//!   finishes, so a run that stops goes on from there when it is started again: the journal's
//!   tallies and the units searched now add up to the tallies of an uninterrupted run. The best
//!   puzzle per piece count is kept; ties go to the smaller start grid as text, so the output is
//!   the same on every run, whichever units an earlier run finished, in whatever order units
//!   finish.
//!
//! Progress: one bar over the goal shapes.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use foldhash::fast::FixedState;
use hashbrown::HashSet;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::journal::Journal;
use crate::engine::control::Limits;
use crate::engine::{Limit, SearchControl};
use crate::games::sliding_blocks::generate::{Board, Goal, Hardest, Scratch, ShapeId, Shapes};

/// Classes per unit of work: enough that the journal holds one line per few hundred
/// classes (4×5 at 7 pieces has 13.6 M classes), few enough that a stop loses seconds of work.
pub const UNIT_CLASSES: usize = 512;

/// What a run of `generate` searches.
pub struct GenerateOptions {
    pub board: Board,
    /// Only classes of exactly this many pieces (the goal piece included).
    pub pieces: Option<usize>,
    /// When the goal piece has arrived.
    pub goal: Goal,
    pub quiet: bool,
    /// Memory the process may hold, in bytes (`None`: no budget): past it, or once one class's
    /// search has allocated it, the run stops with [`Limit::Memory`].
    pub memory_budget: Option<u64>,
    /// Where each finished unit is recorded, and where a stopped run's units are read back
    /// from (`None`: no journal, a stop loses the run).
    pub journal: Option<PathBuf>,
    /// Resume from a journal that another build wrote.
    pub any_build: bool,
}

/// One row of the output: the hardest puzzle of a piece count, as a sliding-blocks `.tsv`
/// record (`name`, `start`, `goal`, read by `frontier solve`) with what the search measured.
#[derive(Clone, Debug, Serialize)]
pub struct Record {
    pub name: String,
    /// The grids with `\n` between rows (the `.tsv` escape).
    pub start: String,
    pub goal: String,
    pub pieces: usize,
    pub moves: u32,
    /// Piece sets (goal shape and free shapes) with this many pieces.
    pub classes: u64,
    /// Solvable positions whose goal piece covers the upper-left cell, over those classes.
    pub puzzles: u64,
    /// Positions searched (stored) over those classes.
    pub states: u64,
    /// The time of those classes' searches, summed over the threads that ran them (and over
    /// the runs that a journal joins).
    pub search_millis: u64,
}

/// A finished run.
pub struct Generated {
    /// One record per piece count that has a solvable puzzle, by piece count.
    pub records: Vec<Record>,
    /// The run's classes, and how many of them a journal held when it started.
    pub classes: u64,
    pub resumed: u64,
    /// The journal, complete, which the caller removes once the records are written.
    pub journal: Option<Journal>,
}

/// Why a run did not finish.
#[derive(Debug)]
pub enum GenerateError {
    /// The searches stopped, or the cluster broke; the units finished before are in the
    /// journal.
    Stopped {
        why: Stop,
        /// Classes finished, the journal's included.
        finished: u64,
        journal: Option<PathBuf>,
    },
    /// The journal cannot be used or written: the message says why.
    Journal(String),
}

/// What stopped a run before its end.
#[derive(Debug)]
pub enum Stop {
    /// A search's limit: an interrupt, or the memory budget (on a cluster, of any process).
    Limit(Limit),
    /// The cluster broke (a process was lost): the message names the process.
    Cluster(String),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Limit(limit) => limit.fmt(f),
            Stop::Cluster(why) => f.write_str(why),
        }
    }
}

/// Why the searches stop before the end. On a cluster, the process where it happens tells the
/// others, so that all stop alike.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum Halt {
    /// A class's search stopped: an interrupt, or the memory budget.
    Limit(Limit),
    /// A finished unit could not be journaled.
    Journal(String),
}

/// What a journal of `generate` holds the answers of: the arguments that decide the units
/// and their answers.
#[derive(Debug, PartialEq, Hash, Serialize, Deserialize)]
pub(crate) struct Work {
    command: String,
    board: String,
    pieces: Option<usize>,
    goal: String,
    unit_classes: usize,
}

impl GenerateOptions {
    /// The work these options ask for: what a journal is checked against, and what the
    /// processes of a cluster must agree on.
    pub(crate) fn work(&self) -> Work {
        Work {
            command: "generate sliding-blocks".into(),
            board: self.board.to_string(),
            pieces: self.pieces,
            goal: match self.goal {
                Goal::Cell => "cell".into(),
                Goal::Box => "box".into(),
            },
            unit_classes: UNIT_CLASSES,
        }
    }
}

/// A finished unit, as the journal records it (and as a cluster's processes send it to
/// process 0).
#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct Finished {
    /// The unit's name ([`Unit::name`]).
    unit: String,
    /// By piece count.
    tallies: Vec<(usize, Tally)>,
}

impl Finished {
    fn classes(&self) -> u64 {
        self.tallies.iter().map(|(_, t)| t.classes).sum()
    }
}

/// What the classes of one piece count found: their best puzzle and their counts.
#[derive(Clone, Default, Serialize, Deserialize)]
struct Tally {
    classes: u64,
    puzzles: u64,
    states: u64,
    search_micros: u64,
    best: Option<Hardest>,
}

impl Tally {
    /// Adds one class's search.
    fn add(&mut self, hardest: Hardest, search: Duration) {
        self.merge(Tally {
            classes: 1,
            puzzles: hardest.puzzles,
            states: hardest.states,
            search_micros: search.as_micros() as u64,
            best: Some(hardest).filter(|h| h.moves.is_some()),
        });
    }

    fn merge(&mut self, other: Tally) {
        self.classes += other.classes;
        self.puzzles += other.puzzles;
        self.states += other.states;
        self.search_micros += other.search_micros;
        if let Some(best) = other.best
            && self.best.as_ref().is_none_or(|b| better(&best, b))
        {
            self.best = Some(best);
        }
    }
}

/// Tallies by piece count.
type Tallies = BTreeMap<usize, Tally>;

fn merge_all(into: &mut Tallies, tallies: impl IntoIterator<Item = (usize, Tally)>) {
    for (pieces, tally) in tallies {
        into.entry(pieces).or_default().merge(tally);
    }
}

/// Searches every class of the board that the journal does not hold; returns one record per
/// piece count that has a solvable puzzle, or why the run stopped.
pub fn generate(options: &GenerateOptions) -> Result<Generated, GenerateError> {
    let merger = Merger::open(options).map_err(GenerateError::Journal)?;
    let searcher = Searcher::new(options, options.quiet);
    searcher.search(
        |unit| !merger.resumes(&unit.name),
        |finished| {
            if let Err(e) = merger.record(finished) {
                searcher.halt(Halt::Journal(e));
            }
        },
    );
    merger.finish(options, searcher.halted().cloned())
}

/// A unit of work: up to [`UNIT_CLASSES`] classes of one goal shape, consecutive in the list
/// of its classes.
pub(crate) struct Unit<'c> {
    /// `{mask:x}#{index}`: the goal shape's normalised cells (hexadecimal), which name the
    /// shape whatever order shapes are listed in, and the unit's place among its goal shape's
    /// units.
    pub name: String,
    /// The goal shape's place in the run's order of goal shapes.
    pub goal_rank: usize,
    pub index: usize,
    goal: ShapeId,
    classes: &'c [Box<[ShapeId]>],
}

/// The searching side of a run: it lists the units, searches those it is given, in parallel
/// on rayon's pool and under the memory budget, and stops when asked ([`Searcher::halt`]).
pub(crate) struct Searcher<'o> {
    options: &'o GenerateOptions,
    shapes: Shapes,
    /// The goal shapes, in the order their units are listed.
    goals: Vec<ShapeId>,
    /// The classes being searched, for the memory guard and a halt.
    running: super::Guarded,
    halted: OnceLock<Halt>,
    /// Positions searched so far, for the progress bar.
    states: AtomicU64,
    bar: ProgressBar,
}

impl<'o> Searcher<'o> {
    /// `quiet`: no progress bar.
    pub(crate) fn new(options: &'o GenerateOptions, quiet: bool) -> Self {
        let shapes = Shapes::new(options.board);
        let mut goals = shapes.goal_shapes(options.goal);
        // Smaller goal pieces leave more of the board to tile: more classes, larger ones. They
        // go first, so that the last goal shapes, run while threads fall idle, are small.
        goals.sort_by_key(|&g| shapes.size(g));
        let bar = progress(goals.len() as u64, quiet);
        Searcher {
            options,
            shapes,
            goals,
            running: super::Guarded::default(),
            halted: OnceLock::new(),
            states: AtomicU64::new(0),
            bar,
        }
    }

    /// Lists every unit of the run, in the same order on every run, and searches those that
    /// `take` accepts, handing each finished one to `found`. Once halted, no unit starts.
    pub(crate) fn search(
        &self,
        take: impl Fn(&Unit) -> bool + Sync,
        found: impl Fn(Finished) + Sync,
    ) {
        let budget = self.options.memory_budget;
        let over = || self.halt(Halt::Limit(Limit::Memory(budget.unwrap_or(0))));
        super::guard_memory(budget, &self.running, over, || {
            // Every goal shape and every unit a task of its own (`with_max_len(1)`): rayon's
            // default leaves runs of them to one worker, whose long unit then kept the other
            // worker idle, waiting for the run to end, for seconds at a time.
            let goals = self.goals.par_iter().enumerate().with_max_len(1);
            goals.for_each(|(goal_rank, &goal)| {
                if self.halted().is_some() {
                    return;
                }
                let classes = self.list(goal);
                let units: Vec<&[Box<[ShapeId]>]> = classes.chunks(UNIT_CLASSES).collect();
                units
                    .into_par_iter()
                    .enumerate()
                    .with_max_len(1)
                    .for_each(|(index, classes)| {
                        let unit = Unit {
                            name: format!("{:x}#{index}", self.shapes.mask(goal)),
                            goal_rank,
                            index,
                            goal,
                            classes,
                        };
                        if take(&unit)
                            && let Some(finished) = self.search_unit(unit)
                        {
                            found(finished);
                        }
                    });
                self.bar.inc(1);
            })
        });
        self.bar.finish_and_clear();
    }

    /// The classes of goal shape `goal`, each as its free shapes, sorted: the parts of the
    /// listing are listed in parallel, each worker into a set of its own (a class is met once
    /// per solved position, so most meetings are lookups, which a shared set made a tenth of
    /// the run), and the workers' classes are sorted together (in parallel) and counted once,
    /// so that the units are the same on every run.
    fn list(&self, goal: ShapeId) -> Vec<Box<[ShapeId]>> {
        type ClassSet = HashSet<Box<[ShapeId]>, FixedState>;
        let pieces = self.options.pieces;
        let parts = self.shapes.listing_parts(goal, pieces);
        let mut classes = parts
            .par_iter()
            .fold(ClassSet::default, |mut found, part| {
                self.shapes.list_part(part, pieces, |free| {
                    if !found.contains(free) {
                        found.insert(free.into());
                    }
                });
                found
            })
            .map(|found| found.into_iter().collect::<Vec<_>>())
            .reduce(Vec::new, |mut a, mut b| {
                a.append(&mut b);
                a
            });
        classes.par_sort_unstable();
        classes.dedup();
        classes
    }

    /// Searches a unit's classes one after another: its tallies, or `None` when the run was
    /// halted before the unit's end.
    fn search_unit(&self, unit: Unit) -> Option<Finished> {
        let Unit {
            name,
            goal,
            classes,
            ..
        } = unit;
        let (options, shapes) = (self.options, &self.shapes);
        let mut found = Tallies::new();
        let mut scratch = Scratch::default();
        for free in classes {
            // A stop of one class ends the run: the classes not yet searched stop at once.
            if self.halted().is_some() {
                return None;
            }
            let started = Instant::now();
            let class = shapes.class(goal, free.to_vec());
            let ctl = Arc::new(SearchControl::new(Limits {
                max_bytes: options.memory_budget,
                ..Limits::default()
            }));
            lock(&self.running).push(Arc::clone(&ctl));
            let floor = found
                .get(&class.pieces())
                .and_then(|t| t.best.as_ref()?.moves);
            let hardest = class.hardest(shapes, floor, &mut scratch, &ctl);
            lock(&self.running).retain(|c| !Arc::ptr_eq(c, &ctl));
            let hardest = match hardest {
                Ok(hardest) => hardest,
                Err(limit) => {
                    self.halt(Halt::Limit(limit));
                    return None;
                }
            };
            found
                .entry(hardest.pieces)
                .or_default()
                .add(hardest, started.elapsed());
        }
        // The progress once per unit: once per class, its shared counter and message were a
        // few percent of the run.
        let states: u64 = found.values().map(|t| t.states).sum();
        let total = self.states.fetch_add(states, Ordering::Relaxed) + states;
        self.bar.set_message(format!("{total} positions"));
        Some(Finished {
            unit: name,
            tallies: found.into_iter().collect(),
        })
    }

    /// Stops the run: no class starts after this, and when `why` is a search's limit (on a
    /// cluster, maybe another process's), the classes being searched stop with it. The first
    /// halt is the one kept.
    pub(crate) fn halt(&self, why: Halt) {
        let limit = match &why {
            Halt::Limit(limit) => Some(*limit),
            Halt::Journal(_) => None,
        };
        let _ = self.halted.set(why);
        if let Some(limit) = limit {
            for ctl in lock(&self.running).iter().filter(|c| !c.stop.pending()) {
                ctl.stop.request(limit);
            }
        }
    }

    pub(crate) fn halted(&self) -> Option<&Halt> {
        self.halted.get()
    }

    /// Positions searched so far.
    pub(crate) fn states(&self) -> u64 {
        self.states.load(Ordering::Relaxed)
    }
}

/// The merging side of a run (on a cluster, process 0's): the journal, the units it held, and
/// the tallies of every unit finished, in this run or an earlier one.
pub(crate) struct Merger {
    journal: Option<Journal>,
    /// The journal's units that this run has not met yet (any left at the end were not this
    /// run's).
    journaled: Mutex<JournaledUnits>,
    tallies: Mutex<Tallies>,
    /// Classes the journal held when the run started, and those and the classes finished
    /// since.
    resumed: u64,
    finished: AtomicU64,
}

impl Merger {
    /// Opens the run's journal, if it has one, with the units it holds; the error says why it
    /// cannot be used.
    pub(crate) fn open(options: &GenerateOptions) -> Result<Merger, String> {
        let (journal, journaled) = open_journal(options)?;
        Ok(Merger::with(journal, journaled))
    }

    /// The merger of a process that merges nothing (a cluster's processes after the first):
    /// it knows the units of process 0's journal by name only, so that they are not searched
    /// again.
    pub(crate) fn skipping(units: Vec<String>) -> Merger {
        let journaled = units.into_iter().map(|unit| (unit, Vec::new())).collect();
        Merger::with(None, journaled)
    }

    fn with(journal: Option<Journal>, journaled: JournaledUnits) -> Merger {
        let resumed = journaled.values().flatten().map(|(_, t)| t.classes).sum();
        Merger {
            journal,
            journaled: Mutex::new(journaled),
            tallies: Mutex::new(Tallies::new()),
            resumed,
            finished: AtomicU64::new(resumed),
        }
    }

    /// The names of the units the journal holds and the run has not met yet.
    pub(crate) fn journaled(&self) -> Vec<String> {
        lock(&self.journaled).keys().cloned().collect()
    }

    /// Whether the journal holds `unit`; if so, its tallies are merged (once: the unit is
    /// met).
    pub(crate) fn resumes(&self, unit: &str) -> bool {
        let Some(tallies) = lock(&self.journaled).remove(unit) else {
            return false;
        };
        merge_all(&mut lock(&self.tallies), tallies);
        true
    }

    /// Journals a finished unit, then merges its tallies.
    pub(crate) fn record(&self, finished: Finished) -> Result<(), String> {
        if let Some(journal) = &self.journal {
            journal.append(&finished)?;
        }
        self.finished
            .fetch_add(finished.classes(), Ordering::Relaxed);
        merge_all(&mut lock(&self.tallies), finished.tallies);
        Ok(())
    }

    /// The run's end: one record per piece count that has a solvable puzzle, or why the run
    /// stopped (`halted`).
    pub(crate) fn finish(
        self,
        options: &GenerateOptions,
        halted: Option<Halt>,
    ) -> Result<Generated, GenerateError> {
        match halted {
            Some(Halt::Limit(limit)) => return Err(self.stopped(Stop::Limit(limit))),
            Some(Halt::Journal(e)) => return Err(GenerateError::Journal(e)),
            None => {}
        }
        let left = self
            .journaled
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        if let (Some(journal), Some(unit)) = (&self.journal, left.keys().next()) {
            return Err(GenerateError::Journal(format!(
                "journal {}: unit {unit} is not one of this run's ({} such)",
                journal.path().display(),
                left.len()
            )));
        }
        let tallies = self.tallies.into_inner().unwrap_or_else(|e| e.into_inner());
        let classes = tallies.values().map(|t| t.classes).sum();
        let records = tallies
            .into_iter()
            .filter_map(|(pieces, tally)| {
                let best = tally.best?;
                let moves = best.moves?;
                Some(Record {
                    name: format!("{} {pieces} pieces {moves} moves", options.board),
                    start: best.start.replace('\n', "\\n"),
                    goal: best.goal.replace('\n', "\\n"),
                    pieces,
                    moves,
                    classes: tally.classes,
                    puzzles: tally.puzzles,
                    states: tally.states,
                    search_millis: tally.search_micros / 1000,
                })
            })
            .collect();
        Ok(Generated {
            records,
            classes,
            resumed: self.resumed,
            journal: self.journal,
        })
    }

    /// The run stopped for `why`: the error that says so, with the classes the journal holds.
    pub(crate) fn stopped(self, why: Stop) -> GenerateError {
        GenerateError::Stopped {
            why,
            finished: self.finished.into_inner(),
            journal: self.journal.map(|j| j.path().to_path_buf()),
        }
    }
}

/// The tallies of the units a journal holds, by unit.
type JournaledUnits = HashMap<String, Vec<(usize, Tally)>>;

/// Opens the run's journal, if it has one; returns it with the tallies of the units it holds,
/// by unit. A unit recorded twice (two runs that shared a journal) counts once.
fn open_journal(options: &GenerateOptions) -> Result<(Option<Journal>, JournaledUnits), String> {
    let Some(path) = &options.journal else {
        return Ok((None, HashMap::new()));
    };
    let opened = Journal::open::<_, Finished>(path, &options.work(), options.any_build)?;
    let units = opened
        .records
        .into_iter()
        .map(|record| (record.unit, record.tallies))
        .collect();
    Ok((Some(opened.journal), units))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether `a` replaces `b` as the best of its piece count: more moves, or as many and a
/// smaller start grid.
fn better(a: &Hardest, b: &Hardest) -> bool {
    (a.moves, std::cmp::Reverse(&a.start)) > (b.moves, std::cmp::Reverse(&b.start))
}

fn progress(goal_shapes: u64, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(goal_shapes), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} goal shapes, {msg} (eta {eta})",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

/// The records as a sliding-blocks `.tsv`: tab-separated, a header, no quoting (the grids'
/// line breaks are escaped as `\n`, and no field holds a tab).
pub fn to_tsv(records: &[Record]) -> String {
    let mut writer = csv::WriterBuilder::new();
    writer.delimiter(b'\t').quote_style(csv::QuoteStyle::Never);
    super::results::records_text(&writer, records)
}
