//! `frontier analyze`: each level's whole reachable space explored ([`crate::engine::explore`])
//! and measured, one CSV row per level, and optionally the size of every BFS layer.
//!
//! Levels run one at a time, each with every thread and its own limits (`--max-states`,
//! `--timeout`); a limit gives a `limit` row. The CSVs are written whole, like `solve`'s
//! results (temporary file and rename).

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use super::registry::LevelTask;
use super::results;
use crate::engine::control::Limits;
use crate::engine::{Limit, SearchControl};
use crate::words;

/// One level's row of the analysis CSV.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysisRow {
    pub game: String,
    pub level: String,
    /// `analyzed`, `limit` (a limit stopped the exploration) or `error` (the level could not
    /// be read, or its game has no space to explore).
    pub status: &'static str,
    /// States reachable from the start, the start included (as far as the search got, for a
    /// `limit` row).
    pub states: u64,
    /// The distance of the farthest reachable state.
    pub eccentricity: Option<u32>,
    /// Goal states among them.
    pub goals: Option<u64>,
    /// The fewest moves to a goal (empty: none is reachable).
    pub optimum: Option<u32>,
    /// Distinct optimal solutions: shortest paths of states from the start to a goal (moves
    /// that lead to the same state are one); 18446744073709551615 means at least that many.
    pub optimal_solutions: Option<u64>,
    #[serde(serialize_with = "three_decimals")]
    pub millis: f64,
    #[serde(serialize_with = "one_decimal")]
    pub bytes_per_state: f64,
    #[serde(serialize_with = "as_text")]
    pub detail: Detail,
}

/// Why a level is not `analyzed`; written as text only in the CSV.
#[derive(Clone, Debug, PartialEq)]
pub enum Detail {
    None,
    /// The level could not be read: why (with the game, whose page gives the format).
    Unreadable {
        game: String,
        why: String,
    },
    /// The game's answer is not a path in a space of positions (Bender's programs).
    NoSpace {
        game: String,
    },
    /// A limit stopped the exploration after `layers` complete layers holding `states`.
    Stopped {
        limit: Limit,
        layers: usize,
        states: u64,
    },
}

impl fmt::Display for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Detail::None => Ok(()),
            Detail::Unreadable { game, why } => write!(f, "{why} (the format: docs/{game}.md)"),
            Detail::NoSpace { game } => write!(
                f,
                "{game} has no space of positions to explore (its answer is a program)"
            ),
            Detail::Stopped {
                limit,
                layers,
                states,
            } => write!(
                f,
                "{limit} after {} ({})",
                words::count(*layers, "complete layer"),
                words::count(*states, "state")
            ),
        }
    }
}

fn as_text<S: serde::Serializer>(detail: &Detail, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(detail)
}

/// One record of the layers CSV: how many states lie `distance` moves from the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LayerRow {
    pub game: String,
    pub level: String,
    pub distance: u32,
    pub states: u64,
}

/// What `analyze` found for one level.
pub struct LevelAnalysis {
    pub row: AnalysisRow,
    /// States per layer (empty unless analyzed).
    pub layers: Vec<u64>,
    /// The farthest state as a level file, where the game writes one.
    pub farthest: Option<String>,
}

fn three_decimals<S: serde::Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{value:.3}"))
}

fn one_decimal<S: serde::Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{value:.1}"))
}

/// Explores one level under `limits`.
pub fn analyze_level(task: &dyn LevelTask, limits: Limits) -> LevelAnalysis {
    analyze_under(task, &SearchControl::new(limits))
}

/// Explores one level under `ctl`.
fn analyze_under(task: &dyn LevelTask, ctl: &SearchControl) -> LevelAnalysis {
    let started = Instant::now();
    let analyzed = task.analyze(ctl);
    let millis = started.elapsed().as_secs_f64() * 1e3;
    let stats = ctl.progress.stats();
    let mut row = AnalysisRow {
        game: task.game().to_string(),
        level: task.name().to_string(),
        status: "error",
        states: stats.states,
        eccentricity: None,
        goals: None,
        optimum: None,
        optimal_solutions: None,
        millis,
        bytes_per_state: if stats.states == 0 {
            0.0
        } else {
            stats.peak_bytes as f64 / stats.states as f64
        },
        detail: Detail::None,
    };
    let (mut layers, mut farthest) = (Vec::new(), None);
    match analyzed {
        Err(why) => {
            let game = row.game.clone();
            row.detail = Detail::Unreadable { game, why }
        }
        Ok(None) => {
            let game = row.game.clone();
            row.detail = Detail::NoSpace { game }
        }
        Ok(Some(Err(unfinished))) => {
            row.status = "limit";
            row.detail = Detail::Stopped {
                limit: unfinished.limit,
                layers: unfinished.layers.len(),
                states: unfinished.layers.iter().sum(),
            };
            layers = unfinished.layers;
        }
        Ok(Some(Ok(analysis))) => {
            row.status = "analyzed";
            row.states = analysis.states();
            row.eccentricity = Some(analysis.eccentricity());
            row.goals = Some(analysis.goals);
            row.optimum = analysis.optimum;
            row.optimal_solutions = Some(analysis.optimal_paths);
            if stats.states > 0 {
                row.bytes_per_state = stats.peak_bytes as f64 / analysis.states() as f64;
            }
            farthest = analysis.farthest;
            layers = analysis.layers;
        }
    }
    LevelAnalysis {
        row,
        layers,
        farthest,
    }
}

/// Explores every level in turn, with a progress bar over the levels unless `quiet`.
/// `limits.max_bytes` is the memory the process may hold: each level's exploration stops at
/// its next check once its own allocations reach it, and once the process's resident memory
/// exceeds it ([`super::guard_memory`]).
pub fn analyze_all(
    tasks: &[Box<dyn LevelTask>],
    limits: Limits,
    quiet: bool,
) -> Vec<LevelAnalysis> {
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        let bar =
            ProgressBar::with_draw_target(Some(tasks.len() as u64), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} levels {msg}")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        bar.enable_steady_tick(Duration::from_millis(500));
        bar
    };
    let running = super::Guarded::default();
    let analyses = super::guard_memory(
        limits.max_bytes,
        &running,
        || {},
        || {
            tasks
                .iter()
                .map(|task| {
                    bar.set_message(task.name().to_string());
                    let ctl = Arc::new(SearchControl::new(limits));
                    *running.lock().unwrap_or_else(|e| e.into_inner()) = vec![Arc::clone(&ctl)];
                    let analysis = analyze_under(task.as_ref(), &ctl);
                    running.lock().unwrap_or_else(|e| e.into_inner()).clear();
                    bar.inc(1);
                    analysis
                })
                .collect()
        },
    );
    bar.finish_and_clear();
    analyses
}

/// A CSV of serialisable records, header first (an empty list: no header).
fn to_csv<R: Serialize>(records: impl IntoIterator<Item = R>) -> String {
    results::records_text(&csv::WriterBuilder::new(), records)
}

/// The analysis CSV: one row per level.
pub fn rows_csv(analyses: &[LevelAnalysis]) -> String {
    to_csv(analyses.iter().map(|a| &a.row))
}

/// The layers CSV: one row per layer of every analyzed level.
pub fn layers_csv(analyses: &[LevelAnalysis]) -> String {
    to_csv(analyses.iter().flat_map(|a| {
        a.layers.iter().enumerate().map(|(d, &states)| LayerRow {
            game: a.row.game.clone(),
            level: a.row.level.clone(),
            distance: d as u32,
            states,
        })
    }))
}

/// A file name for a level's farthest position: its name with path separators and control
/// characters replaced.
pub fn farthest_file_name(level: &str) -> String {
    let name: String = level
        .chars()
        .map(|c| {
            if c == '/' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    format!("{name}.txt")
}
