//! The command line: what each command does with its arguments, between clap and the library.
//!
//! - [`args`]: every command's arguments (clap), with their help text and value parsers.
//! - [`config`]: the one conversion from `solve`'s flags to the run's configuration: limits,
//!   batch options, the provenance sidecar's settings and the cluster's fingerprint.
//! - [`output`]: where a command's output goes (`--out FILE`, `--out -`, the default file).
//! - One module per command: [`solve`], [`check`], [`show`], [`compare`], [`report`],
//!   [`generate`], [`analyze`], each with a `run` that returns the process's exit status.
//!
//! The logic a command shares with tests and tools (choosing levels, the compare policy, the
//! gallery's levels) is in [`frontier::harness`].

pub mod analyze;
pub mod args;
pub mod check;
mod cluster;
pub mod compare;
mod config;
pub mod generate;
mod output;
pub mod report;
pub mod show;
pub mod solve;

use std::process::ExitCode;

use frontier::harness;

/// Exit status for usage errors.
const USAGE: u8 = 2;
/// Exit status of an interrupted run (128 + SIGINT, the shells' convention).
const INTERRUPTED: u8 = 130;

/// The first SIGINT or SIGTERM stops every search at its next check: `solve` then writes every
/// row (those cut short say "interrupted") and exits with [`INTERRUPTED`]. A second one quits
/// promptly with [`INTERRUPTED`], after the write of the results under way, if any, and after
/// writing the rows finished so far (see [`harness::interrupt`]).
fn stop_cleanly_on_interrupt() {
    harness::interrupt::install(INTERRUPTED.into());
}

/// Says a usage error and gives its exit status.
fn usage_error(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("frontier: {message}");
    ExitCode::from(USAGE)
}

/// Builds rayon's global pool with `threads` threads, if given.
fn set_threads(threads: Option<usize>) -> Result<(), String> {
    match threads {
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .map_err(|e| format!("--threads {threads}: {e}")),
        None => Ok(()),
    }
}
