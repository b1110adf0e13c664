//! `frontier generate sliding-blocks`: the parallel driver of the exhaustive search for the
//! hardest puzzles of a board (the class and its enumeration: `games/sliding_blocks/generate.rs`).
//!
//! Goal shapes are handed to rayon's workers, and within a goal shape its classes (one piece set
//! each): classes are independent searches. Each class's search is itself the engine's
//! parallel BFS, which runs its larger layers in parallel and its small ones on the calling
//! thread. The best puzzle per piece count is kept; ties go to the smaller start grid as text,
//! so the output is the same on every run. Progress: one bar over the goal shapes.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use crate::engine::control::Limits;
use crate::engine::{Limit, SearchControl};
use crate::games::sliding_blocks::generate::{Board, Class, Goal, Hardest, Shapes};

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
    /// The time of those classes' searches, summed over the threads that ran them.
    pub search_millis: u64,
}

/// The tally of one piece count.
#[derive(Default)]
struct Tally {
    best: Option<Hardest>,
    classes: u64,
    puzzles: u64,
    states: u64,
    search: Duration,
}

/// Searches every class of the board; returns one record per piece count that has a
/// solvable puzzle, by piece count, or the limit that stopped a search (an interrupt, or the
/// memory budget).
pub fn generate(options: &GenerateOptions) -> Result<Vec<Record>, Limit> {
    let shapes = Shapes::new(options.board);
    let mut goals = shapes.goal_shapes(options.goal);
    // Smaller goal pieces leave more of the board to tile: more classes, larger ones. They
    // go first, so that the last goal shapes, run while threads fall idle, are small.
    goals.sort_by_key(|&g| shapes.size(g));
    let max_pieces = options
        .pieces
        .unwrap_or(options.board.width * options.board.height);
    let bar = progress(goals.len() as u64, options.quiet);
    let tallies: Mutex<BTreeMap<usize, Tally>> = Mutex::new(BTreeMap::new());
    let states = std::sync::atomic::AtomicU64::new(0);
    // The classes being searched, for the memory guard, and the limit that stopped one.
    let running = super::Guarded::default();
    let stopped = OnceLock::new();
    let searched = |class: &Class| -> Result<(), Limit> {
        if options.pieces.is_some_and(|p| p != class.pieces()) {
            return Ok(());
        }
        // A stop of one class ends the run: the classes not yet searched stop at once.
        if let Some(&limit) = stopped.get() {
            return Err(limit);
        }
        let started = Instant::now();
        let ctl = Arc::new(SearchControl::new(Limits {
            max_bytes: options.memory_budget,
            ..Limits::default()
        }));
        lock(&running).push(Arc::clone(&ctl));
        let hardest = class.hardest(&shapes, &ctl);
        lock(&running).retain(|c| !Arc::ptr_eq(c, &ctl));
        let hardest = hardest.inspect_err(|&limit| {
            let _ = stopped.set(limit);
        })?;
        let elapsed = started.elapsed();
        let total = states.fetch_add(hardest.states, std::sync::atomic::Ordering::Relaxed);
        bar.set_message(format!("{} positions", total + hardest.states));
        let mut tallies = tallies.lock().unwrap_or_else(|e| e.into_inner());
        let tally = tallies.entry(class.pieces()).or_default();
        tally.classes += 1;
        tally.puzzles += hardest.puzzles;
        tally.states += hardest.states;
        tally.search += elapsed;
        if hardest.moves.is_some() && tally.best.as_ref().is_none_or(|b| better(&hardest, b)) {
            tally.best = Some(hardest);
        }
        Ok(())
    };
    super::guard_memory(options.memory_budget, &running, || {
        goals.par_iter().try_for_each(|&goal| {
            if let Some(&limit) = stopped.get() {
                return Err(limit);
            }
            let classes = shapes.classes(goal, max_pieces);
            let done = classes.par_iter().try_for_each(searched);
            bar.inc(1);
            done
        })
    })?;
    bar.finish_and_clear();
    let tallies = tallies.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(tallies
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
                search_millis: tally.search.as_millis() as u64,
            })
        })
        .collect())
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
