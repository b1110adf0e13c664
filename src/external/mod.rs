//! Another program as the solver of `frontier solve` (`--solver 'COMMAND'`): frontier hands it
//! each level, holds it to the run's limits, checks its answer with the game's own rules and
//! writes the row that frontier's own search would have written, with what the operating
//! system measured of it. The contract is in docs/cli.md ("External solvers").
//!
//! For each level the command is run by `/bin/sh -c`, with `{level}` replaced by the path of a
//! temporary file that holds the level alone in its game's format (without `{level}`, the file's
//! text is the command's standard input), `{game}` by the game's id and `{name}` by the level's
//! name. Its standard output is its answer: a solution in frontier's notation, or `unsolvable`.
//! The harness knows this module only as a [`LevelSolver`]; the process and its limits are
//! [`process`]'s.

pub mod process;

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::engine::SearchControl;
use crate::engine::control::{self, Limit};
use crate::games::GameId;
use crate::harness::batch::LevelSolver;
use crate::harness::registry::LevelTask;
use crate::harness::results::{Row, Status};
use crate::harness::runs;
use crate::words;
use process::{Ended, ProcessLimits};

/// What a solver prints to say that a level has no solution.
pub const UNSOLVABLE: &str = "unsolvable";

/// An external solver: its command, and what its answers are judged against.
#[derive(Debug)]
pub struct ExternalSolver {
    command: String,
    reference: Reference,
    /// Where the levels' files are written, one per level run, removed after it.
    scratch: PathBuf,
    next_file: AtomicU64,
}

impl ExternalSolver {
    /// A solver run as `command`, its answers judged against `reference`; the levels' files go
    /// to a folder of the system's temporary directory, made now.
    pub fn new(command: String, reference: Reference) -> Result<ExternalSolver, String> {
        let scratch = std::env::temp_dir().join(format!("frontier-solver-{}", std::process::id()));
        fs::create_dir_all(&scratch)
            .map_err(|e| format!("cannot make {}: {e}", scratch.display()))?;
        Ok(ExternalSolver {
            command,
            reference,
            scratch,
            next_file: AtomicU64::new(0),
        })
    }

    /// The first line the command prints when given `--version` alone in place of its
    /// placeholders' arguments (`None`: it printed nothing, or failed), for the provenance.
    pub fn version(&self) -> Option<String> {
        let program = self.command.split_whitespace().next()?;
        let run = process::run(
            &format!("{program} --version"),
            None,
            ProcessLimits {
                wall: Some(std::time::Duration::from_secs(5)),
                memory: None,
            },
            || false,
        )
        .ok()?;
        let succeeded = matches!(run.ended, Ended::Exited(status) if status.success());
        let text = String::from_utf8_lossy(&run.stdout);
        let first = text.lines().map(str::trim).find(|l| !l.is_empty())?;
        succeeded.then(|| first.to_string())
    }

    /// The command line for one level: its placeholders replaced, each value quoted for the
    /// shell.
    fn command_for(&self, task: &dyn LevelTask, file: &Path) -> String {
        self.command
            .replace("{level}", &quoted(&file.display().to_string()))
            .replace("{game}", &quoted(task.game().as_str()))
            .replace("{name}", &quoted(task.name()))
    }

    /// Runs the solver on one level and judges its answer: the level's row.
    fn run_level(&self, task: &dyn LevelTask, ctl: &SearchControl) -> Row {
        let (game, name) = (task.game(), task.name());
        let alone = match task.alone() {
            Ok(alone) => alone,
            Err(e) => return Row::error(game, name, e),
        };
        let by_file = self.command.contains("{level}");
        let file = self.scratch.join(format!(
            "level-{}.{}",
            self.next_file.fetch_add(1, Ordering::Relaxed),
            alone.extension
        ));
        if by_file && let Err(e) = fs::write(&file, &alone.text) {
            return Row::error(game, name, format!("cannot write {}: {e}", file.display()));
        }
        let limits = ctl.budget.limits;
        let run = process::run(
            &self.command_for(task, &file),
            (!by_file).then(|| alone.text.clone().into_bytes()),
            ProcessLimits {
                wall: limits.timeout,
                memory: limits.max_bytes,
            },
            || control::interrupted() || ctl.stop.pending(),
        );
        if by_file {
            let _ = fs::remove_file(&file);
        }
        let run = match run {
            Ok(run) => run,
            Err(e) => return Row::error(game, name, format!("cannot run the solver: {e}")),
        };
        let measured = Row {
            millis: run.wall.as_secs_f64() * 1e3,
            states: run.states.unwrap_or(0),
            peak_kib: Some(run.peak_kib),
            cpu_millis: Some(run.cpu.as_secs_f64() * 1e3),
            ..Row::error(game, name, String::new())
        };
        let limit = |limit: Limit| Row {
            status: Status::Limit,
            limit: Some(limit.into()),
            ..measured.clone()
        };
        match run.ended {
            Ended::Time => limit(Limit::Time(limits.timeout.unwrap_or_default())),
            Ended::Memory => limit(Limit::Memory(limits.max_bytes.unwrap_or_default())),
            Ended::Interrupted => limit(Limit::Interrupted(measured.states)),
            Ended::Exited(status) if !status.success() => Row {
                note: failure(&status, &run.stderr_tail),
                ..measured
            },
            Ended::Exited(_) => self.judge(task, &run.stdout, run.stdout_cut, measured),
        }
    }

    /// The row of a solver's answer, `stdout`, checked by the game's rules and against the
    /// reference.
    fn judge(&self, task: &dyn LevelTask, stdout: &[u8], cut: bool, measured: Row) -> Row {
        let error = |note: String| Row {
            note,
            ..measured.clone()
        };
        let answer = match std::str::from_utf8(stdout) {
            Ok(text) if !cut && !text.chars().any(|c| c.is_control() && !c.is_whitespace()) => {
                text.trim()
            }
            _ => return error("the solver's output is not text: expected a solution".into()),
        };
        let reference = self.reference.get(task.game(), task.name());
        let noun = task.game().move_noun();
        if answer.is_empty() {
            return error("the solver printed no answer".into());
        }
        if answer == UNSOLVABLE {
            return match reference {
                Some(Known::Unsolvable) => Row {
                    status: Status::Unsolvable,
                    optimal: true,
                    ..measured
                },
                Some(Known::Optimum { moves, .. }) => Row {
                    status: Status::Wrong,
                    note: format!(
                        "the solver says unsolvable; the reference solves it in {}",
                        words::count(moves, noun)
                    ),
                    ..measured
                },
                None => Row {
                    status: Status::Unsolvable,
                    note: "the solver's claim: no reference proves it".into(),
                    ..measured
                },
            };
        }
        let verdict = match task.check(answer) {
            Ok(verdict) => verdict,
            Err(why) => {
                return Row {
                    status: Status::Wrong,
                    solution: answer.to_string(),
                    note: why,
                    ..measured
                };
            }
        };
        let (optimal, note) = match reference {
            Some(Known::Optimum { moves, score }) => {
                let reached = verdict.moves <= moves && verdict.score <= score;
                let beats = verdict.moves < moves || verdict.score < score;
                let note = if beats {
                    format!(
                        "shorter than the reference's proven optimum of {}",
                        words::count(moves, noun)
                    )
                } else {
                    String::new()
                };
                (reached, note)
            }
            Some(Known::Unsolvable) => (
                false,
                "solved, yet the reference proves it unsolvable".to_string(),
            ),
            None => (false, String::new()),
        };
        Row {
            status: Status::Solved,
            moves: Some(verdict.moves),
            score: Some(verdict.score),
            optimal,
            solution: answer.to_string(),
            note,
            ..measured
        }
    }
}

impl LevelSolver for ExternalSolver {
    fn solve(&self, task: &dyn LevelTask, ctl: &SearchControl) -> Row {
        self.run_level(task, ctl)
    }
}

impl Drop for ExternalSolver {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.scratch);
    }
}

/// An `error` row's note for a solver that failed: its exit status and its last words.
fn failure(status: &std::process::ExitStatus, stderr_tail: &str) -> String {
    use std::os::unix::process::ExitStatusExt;
    let how = match (status.code(), status.signal()) {
        // The shell that runs the command reports a command killed by signal N as 128 + N.
        (Some(code @ 129..=192), _) => format!(
            "the solver exited with status {code} (killed by signal {}, as the shell says)",
            code - 128
        ),
        (Some(code), _) => format!("the solver exited with status {code}"),
        (None, Some(signal)) => format!("the solver was killed by signal {signal}"),
        (None, None) => "the solver failed".to_string(),
    };
    // The last lines, on one line of the CSV.
    let last: Vec<&str> = stderr_tail.lines().rev().take(5).collect();
    let said: Vec<&str> = last.into_iter().rev().collect();
    if said.is_empty() {
        how
    } else {
        format!("{how}: {}", said.join(" | "))
    }
}

/// `text` as one word for `/bin/sh`: single-quoted, its own single quotes escaped.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// What a reference says of a level: its proven optimum, or that it has no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    Optimum { moves: u64, score: u64 },
    Unsolvable,
}

/// The proven answers of the reference results files (`--reference`): their `optimal=yes`
/// rows, by game and level.
#[derive(Debug, Default)]
pub struct Reference {
    known: HashMap<(GameId, String), Known>,
}

impl Reference {
    /// The proven answers of the results files (or folders of runs) at `paths`.
    pub fn read(paths: &[PathBuf]) -> Result<Reference, String> {
        let mut known = HashMap::new();
        for path in paths {
            for row in runs::read(path)? {
                let answer = match (row.status, row.optimal, row.moves) {
                    (Status::Solved, true, Some(moves)) => Known::Optimum {
                        moves,
                        score: row.score.unwrap_or(moves),
                    },
                    (Status::Unsolvable, true, _) => Known::Unsolvable,
                    _ => continue,
                };
                known.insert((row.game, row.level), answer);
            }
        }
        Ok(Reference { known })
    }

    fn get(&self, game: GameId, level: &str) -> Option<Known> {
        self.known.get(&(game, level.to_string())).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_word_survives_the_shell() {
        let word = "it's a \"level\" $HOME `x`";
        let run = process::run(
            &format!("printf %s {}", quoted(word)),
            None,
            ProcessLimits::default(),
            || false,
        )
        .unwrap();
        assert_eq!(String::from_utf8_lossy(&run.stdout), word);
    }

    #[test]
    fn a_failure_names_the_status_and_the_last_lines() {
        use std::os::unix::process::ExitStatusExt;
        let status = std::process::ExitStatus::from_raw(2 << 8);
        assert_eq!(
            failure(&status, "a\nb"),
            "the solver exited with status 2: a | b"
        );
        let killed = std::process::ExitStatus::from_raw(9);
        assert_eq!(failure(&killed, ""), "the solver was killed by signal 9");
        let by_the_shell = std::process::ExitStatus::from_raw(134 << 8);
        assert_eq!(
            failure(&by_the_shell, ""),
            "the solver exited with status 134 (killed by signal 6, as the shell says)"
        );
    }
}
