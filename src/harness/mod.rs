//! The batch harness: everything between the command line and the games.
//!
//! - [`discover`]: finding level files under paths and deciding their game.
//! - [`levels`]: the levels a command works on (`--level`), or the one level of a file.
//! - [`registry`]: the table of games and the type-erased [`registry::LevelTask`].
//! - [`batch`]: solving levels in parallel, and [`monitor`]: its progress bars, memory guard
//!   and checkpoints, driven by one tick.
//! - [`results`]: the results CSV, written atomically, and read back.
//! - [`runs`]: a results file, or a folder of runs of the same levels read as one.
//! - [`provenance`]: the sidecar of a results file: build, command, levels, settings, machine,
//!   time.
//! - [`compare`], [`report`]: regression checks between results files, and an HTML report;
//!   [`comparable`]: their policy on tolerances, and on when two runs' times compare at all.
//! - [`gallery`]: the report's animations of every solved level.
//! - [`analyze`]: `frontier analyze`, each level's whole space measured, its rows and layers.
//! - [`generate`]: `frontier generate`, the parallel search for a board's hardest puzzles,
//!   and [`journal`]: the record of its finished classes that a stopped run resumes from.
//! - [`interrupt`]: SIGINT and SIGTERM, and the lock every write of the results file holds.

pub mod analyze;
pub mod batch;
pub mod comparable;
pub mod compare;
pub mod discover;
pub mod gallery;
pub mod generate;
pub mod interrupt;
pub mod journal;
pub mod levels;
mod monitor;
pub mod provenance;
pub mod registry;
pub mod report;
pub mod results;
pub mod runs;

use std::path::Path;

use discover::LevelFile;
use registry::LevelTask;
use results::Row;

use crate::engine::SearchControl;
use crate::games::{Analyzed, GameId, Replay, SingleLevelFile, Source, Verdict};

/// Parses every file into its levels, in order; a file that could not be read is one level
/// that ends as an `error` row.
pub fn load_tasks(files: &[LevelFile]) -> Result<Vec<Box<dyn LevelTask>>, String> {
    let mut tasks = Vec::new();
    for file in files {
        let stem = file_stem(&file.path);
        match &file.text {
            Ok(text) => {
                let source = Source {
                    path: &file.path,
                    stem: &stem,
                    text,
                };
                tasks.extend((registry::game(file.game)?.load)(&source));
            }
            Err(e) => tasks.push(Box::new(Unreadable {
                game: file.game,
                name: stem,
                detail: e.clone(),
            })),
        }
    }
    Ok(tasks)
}

/// Which levels of a run to solve (`solve --level`): `=NAME` is exactly one name (as
/// [`listed_name`] writes it: what `solve --list` prints), a pattern with `*`, `?` or `[` a glob
/// over the whole level name (`1-*`), any other a substring of it (`h4`). A name that starts
/// with an emoji and a space (the official sliding-block sets' `🎩 The Time Machine`) matches
/// `=NAME` and globs with or without them ([`bare_name`]).
#[derive(Clone, Debug)]
pub enum LevelPattern {
    Exact(String),
    Glob(glob::Pattern),
    Substring(String),
}

impl LevelPattern {
    pub fn new(pattern: &str) -> Result<LevelPattern, String> {
        if let Some(name) = pattern.strip_prefix('=') {
            Ok(LevelPattern::Exact(name.to_string()))
        } else if pattern.contains(['*', '?', '[']) {
            glob::Pattern::new(pattern)
                .map(LevelPattern::Glob)
                .map_err(|e| format!("--level {pattern}: {e}"))
        } else {
            Ok(LevelPattern::Substring(pattern.to_string()))
        }
    }

    pub fn matches(&self, name: &str) -> bool {
        let bare = bare_name(name);
        match self {
            LevelPattern::Exact(listed) => {
                listed_name(name) == *listed || listed_name(bare) == *listed
            }
            LevelPattern::Glob(glob) => glob.matches(name) || glob.matches(bare),
            LevelPattern::Substring(part) => name.contains(part.as_str()),
        }
    }
}

/// A level's name without the emoji and spaces it may start with (`🎩 The Time Machine` is
/// `The Time Machine`): what a user types. Emoji are the leading characters that are neither
/// ASCII nor letters or digits (pictographs, their variation selectors and joiners).
pub fn bare_name(name: &str) -> &str {
    let rest = name.trim_start_matches(|c: char| !c.is_ascii() && !c.is_alphanumeric());
    if rest.len() == name.len() {
        name
    } else {
        rest.trim_start()
    }
}

/// A level's name on one line (`solve --list`): backslashes, line breaks and tabs written as
/// `\\`, `\n`, `\r` and `\t` (a TSV name may hold them), so that a script can read the list
/// line by line and hand each back as `--level =NAME`.
pub fn listed_name(name: &str) -> String {
    let mut listed = String::with_capacity(name.len());
    for c in name.chars() {
        match c {
            '\\' => listed.push_str("\\\\"),
            '\n' => listed.push_str("\\n"),
            '\r' => listed.push_str("\\r"),
            '\t' => listed.push_str("\\t"),
            c => listed.push(c),
        }
    }
    listed
}

/// The stem of a path, lossily as UTF-8.
pub fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A file that could not be read: it yields one `error` row.
struct Unreadable {
    game: GameId,
    name: String,
    detail: String,
}

impl LevelTask for Unreadable {
    fn game(&self) -> GameId {
        self.game
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn solve(&self, _ctl: &SearchControl) -> Row {
        Row::error(self.game, &self.name, self.detail.clone())
    }

    fn analyze(&self, _ctl: &SearchControl) -> Result<Option<Analyzed>, String> {
        Err(self.detail.clone())
    }

    fn check(&self, _solution: &str) -> Result<Verdict, String> {
        Err(self.detail.clone())
    }

    fn show(&self, _solution: Option<&str>) -> Result<Replay, String> {
        Err(self.detail.clone())
    }

    fn alone(&self) -> Result<&SingleLevelFile, String> {
        Err(self.detail.clone())
    }
}

/// A default for the memory all searches may use together: 70% of the machine's (or the
/// control group's) memory, when it can be read.
pub fn default_memory_budget() -> Option<u64> {
    total_memory().map(|total| total / 10 * 7)
}

/// The machine's (or the control group's) memory in bytes, when it can be read.
pub fn total_memory() -> Option<u64> {
    let mut total = proc_kib("/proc/meminfo", "MemTotal:")? * 1024;
    if let Some(cgroup) = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
    {
        total = total.min(cgroup);
    }
    Some(total)
}

/// The bytes of memory the process holds (its resident set), when the OS says (Linux's
/// `/proc/self/status`). The memory budget is held against this, not against the searches'
/// own count: what the OS would run out of is resident memory, allocator slack included.
pub fn resident_bytes() -> Option<u64> {
    Some(proc_kib("/proc/self/status", "VmRSS:")? * 1024)
}

/// The value of the line `key   N kB` of a Linux `/proc` file, in KiB.
fn proc_kib(path: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(key))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// The searches a [`guard_memory`] watches: those running now.
pub(crate) type Guarded = std::sync::Mutex<Vec<std::sync::Arc<SearchControl>>>;

/// Runs `work` while a thread holds the process to `budget` bytes of resident memory (none:
/// no guard): at once and then every 200 ms, past it, each search in `running` whose stop is
/// not already pending is asked to stop with [`crate::engine::Limit::Memory`], and `over` is
/// called, for the work between searches (`generate` halts: no class starts after it). For the
/// commands without `solve`'s batch monitor (`analyze`, `generate`); a search's own
/// `Limits::max_bytes` stops it at its next check, this catches what the searches do not count.
/// (Why at once too: a run shorter than the period, or one between searches at each sample,
/// would otherwise pass its budget unseen.)
pub(crate) fn guard_memory<R>(
    budget: Option<u64>,
    running: &Guarded,
    over: impl Fn() + Send,
    work: impl FnOnce() -> R,
) -> R {
    use std::sync::mpsc::{self, RecvTimeoutError};
    let Some(budget) = budget else { return work() };
    let (done, finished) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            loop {
                if resident_bytes().is_some_and(|held| held > budget) {
                    let running = running.lock().unwrap_or_else(|e| e.into_inner());
                    for ctl in running.iter().filter(|c| !c.stop.pending()) {
                        ctl.stop.request(crate::engine::Limit::Memory(budget));
                    }
                    // Released first: `over` may take the same lock (`generate`'s halt does).
                    drop(running);
                    over();
                }
                let next = finished.recv_timeout(std::time::Duration::from_millis(200));
                if !matches!(next, Err(RecvTimeoutError::Timeout)) {
                    break;
                }
            }
        });
        let result = work();
        drop(done);
        result
    })
}

/// Finds, parses and solves every level under `paths` without progress bars: the library
/// entry point behind `frontier solve`, for tests and tools.
pub fn solve_paths(
    paths: &[std::path::PathBuf],
    game: Option<GameId>,
    limits: crate::engine::control::Limits,
) -> Result<Vec<Row>, String> {
    let files = discover::discover(paths, game)?.files;
    let tasks = load_tasks(&files)?;
    let options = batch::BatchOptions {
        limits,
        quiet: true,
        ..batch::BatchOptions::default()
    };
    Ok(batch::solve_all(&tasks, &options).rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_names_are_one_line_and_match_only_themselves() {
        let name = "a\\b\tc\nd";
        assert_eq!(listed_name(name), "a\\\\b\\tc\\nd");
        let exact = LevelPattern::new(&format!("={}", listed_name(name))).unwrap();
        assert!(exact.matches(name));
        assert!(!exact.matches("a\\b\tc\nd e"), "a longer name");
        assert!(!LevelPattern::new("=own").unwrap().matches("own-switch"));
        assert!(LevelPattern::new("own").unwrap().matches("own-switch"));
    }

    #[test]
    fn a_leading_emoji_may_be_left_out_of_exact_names_and_globs() {
        let name = "🎩 The Time Machine";
        assert_eq!(bare_name(name), "The Time Machine");
        assert_eq!(bare_name("🧬\u{fe0f}  Shapes"), "Shapes");
        assert_eq!(bare_name("Élan 2"), "Élan 2", "a letter is not an emoji");
        for pattern in [
            "=The Time Machine",
            "=🎩 The Time Machine",
            "The Time*",
            "*Machine",
        ] {
            assert!(
                LevelPattern::new(pattern).unwrap().matches(name),
                "{pattern}"
            );
        }
        assert!(!LevelPattern::new("=Time Machine").unwrap().matches(name));
        assert!(!LevelPattern::new("Time*").unwrap().matches(name));
    }
}
