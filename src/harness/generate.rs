//! `frontier generate sliding-blocks`: the parallel driver of the exhaustive search for the
//! hardest puzzles of a board (the class and its enumeration: `games/sliding_blocks/generate.rs`).
//!
//! Goal shapes are handed to rayon's workers. A worker lists its goal shape's classes (piece
//! sets, without their positions) and cuts the list into **units** of [`UNIT_CLASSES`] classes,
//! in the listing's order, which are handed to workers in turn. A unit's classes are tiled and
//! searched one after another; each class's search is itself the engine's parallel BFS, which
//! runs its larger layers in parallel and its small ones on the calling thread. A unit's result
//! is one [`Tally`] per piece count: the best puzzle and what its classes' searches counted.
//!
//! Each finished unit is recorded in the run's journal ([`super::journal`]) as it finishes, so
//! a run that stops goes on from there when it is started again: the journal's tallies and the
//! units searched now add up to the tallies of an uninterrupted run. The best puzzle per piece
//! count is kept; ties go to the smaller start grid as text, so the output is the same on every
//! run, whichever units an earlier run finished. Progress: one bar over the goal shapes.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::journal::Journal;
use crate::engine::control::Limits;
use crate::engine::{Limit, SearchControl};
use crate::games::sliding_blocks::generate::{Board, Goal, Hardest, ShapeId, Shapes};

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
    /// A search stopped (an interrupt, or the memory budget); the units finished before it
    /// are in the journal.
    Stopped {
        limit: Limit,
        /// Classes finished, the journal's included.
        finished: u64,
        journal: Option<PathBuf>,
    },
    /// The journal cannot be used or written: the message says why.
    Journal(String),
}

/// What a journal of `generate` holds the answers of: the arguments that decide the units
/// and their answers.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Work {
    command: String,
    board: String,
    pieces: Option<usize>,
    goal: String,
    unit_classes: usize,
}

/// A finished unit, as the journal records it.
#[derive(Serialize, Deserialize)]
struct Finished {
    /// The unit: its goal shape's normalised cells (hexadecimal), which name the shape
    /// whatever order shapes are listed in, and its place in the goal shape's list of units.
    unit: String,
    /// By piece count.
    tallies: Vec<(usize, Tally)>,
}

/// What the classes of one piece count found: their best puzzle and their counts.
#[derive(Default, Serialize, Deserialize)]
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
    let shapes = Shapes::new(options.board);
    let mut goals = shapes.goal_shapes(options.goal);
    // Smaller goal pieces leave more of the board to tile: more classes, larger ones. They
    // go first, so that the last goal shapes, run while threads fall idle, are small.
    goals.sort_by_key(|&g| shapes.size(g));
    let (journal, journaled) = open_journal(options)?;
    let tallies: Mutex<Tallies> = Mutex::new(Tallies::new());
    let resumed: u64 = journaled.values().flatten().map(|(_, t)| t.classes).sum();
    // The journal's units, taken as this run meets them (any left over at the end were not
    // this run's).
    let journaled = Mutex::new(journaled);
    let bar = progress(goals.len() as u64, options.quiet);
    let states = AtomicU64::new(0);
    let finished = AtomicU64::new(resumed);
    // The classes being searched, for the memory guard, and why the run stopped.
    let running = super::Guarded::default();
    let stopped: OnceLock<Result<Limit, String>> = OnceLock::new();
    let search_unit = |unit: String, goal: ShapeId, classes: &[Vec<ShapeId>]| {
        if let Some(tallies_found) = lock(&journaled).remove(&unit) {
            merge_all(&mut lock(&tallies), tallies_found);
            return;
        }
        let mut found = Tallies::new();
        for free in classes {
            // A stop of one class ends the run: the classes not yet searched stop at once.
            if stopped.get().is_some() {
                return;
            }
            let started = Instant::now();
            let class = shapes.class(goal, free.clone());
            let ctl = Arc::new(SearchControl::new(Limits {
                max_bytes: options.memory_budget,
                ..Limits::default()
            }));
            lock(&running).push(Arc::clone(&ctl));
            let hardest = class.hardest(&shapes, &ctl);
            lock(&running).retain(|c| !Arc::ptr_eq(c, &ctl));
            let hardest = match hardest {
                Ok(hardest) => hardest,
                Err(limit) => {
                    let _ = stopped.set(Ok(limit));
                    return;
                }
            };
            let total = states.fetch_add(hardest.states, Ordering::Relaxed) + hardest.states;
            bar.set_message(format!("{total} positions"));
            found
                .entry(hardest.pieces)
                .or_default()
                .add(hardest, started.elapsed());
        }
        let record = Finished {
            unit,
            tallies: found.into_iter().collect(),
        };
        if let Some(journal) = &journal
            && let Err(e) = journal.append(&record)
        {
            let _ = stopped.set(Err(e));
            return;
        }
        finished.fetch_add(classes.len() as u64, Ordering::Relaxed);
        merge_all(&mut lock(&tallies), record.tallies);
    };
    super::guard_memory(options.memory_budget, &running, || {
        goals.par_iter().for_each(|&goal| {
            if stopped.get().is_some() {
                return;
            }
            let classes = shapes.class_sets(goal, options.pieces);
            let units: Vec<&[Vec<ShapeId>]> = classes.chunks(UNIT_CLASSES).collect();
            units.into_par_iter().enumerate().for_each(|(i, classes)| {
                let unit = format!("{:x}#{i}", shapes.mask(goal));
                search_unit(unit, goal, classes);
            });
            bar.inc(1);
        })
    });
    bar.finish_and_clear();
    match stopped.into_inner() {
        Some(Ok(limit)) => {
            return Err(GenerateError::Stopped {
                limit,
                finished: finished.into_inner(),
                journal: journal.map(|j| j.path().to_path_buf()),
            });
        }
        Some(Err(e)) => return Err(GenerateError::Journal(e)),
        None => {}
    }
    let left = journaled.into_inner().unwrap_or_else(|e| e.into_inner());
    if let (Some(journal), Some(unit)) = (&journal, left.keys().next()) {
        return Err(GenerateError::Journal(format!(
            "journal {}: unit {unit} is not one of this run's ({} such)",
            journal.path().display(),
            left.len()
        )));
    }
    let tallies = tallies.into_inner().unwrap_or_else(|e| e.into_inner());
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
        resumed,
        journal,
    })
}

/// The tallies of the units a journal holds, by unit.
type JournaledUnits = HashMap<String, Vec<(usize, Tally)>>;

/// Opens the run's journal, if it has one; returns it with the tallies of the units it holds,
/// by unit. A unit recorded twice (two runs that shared a journal) counts once.
fn open_journal(
    options: &GenerateOptions,
) -> Result<(Option<Journal>, JournaledUnits), GenerateError> {
    let Some(path) = &options.journal else {
        return Ok((None, HashMap::new()));
    };
    let work = Work {
        command: "generate sliding-blocks".into(),
        board: options.board.to_string(),
        pieces: options.pieces,
        goal: match options.goal {
            Goal::Cell => "cell".into(),
            Goal::Box => "box".into(),
        },
        unit_classes: UNIT_CLASSES,
    };
    let opened = Journal::open::<_, Finished>(path, &work, options.any_build)
        .map_err(GenerateError::Journal)?;
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
