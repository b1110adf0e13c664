//! The `frontier` command line: `solve` and `check` (see `specs/cli.md` and the README).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand};

use frontier::engine::control::Limits;
use frontier::games::GameId;
use frontier::harness::batch::{self, BatchOptions};
use frontier::harness::results::{self, Status};
use frontier::harness::{self, discover};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "frontier",
    version,
    about = "Parallel batch solver and benchmark harness for grid puzzle games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve every level under the paths and write one CSV row per level.
    Solve(SolveArgs),
    /// Replay a solution on a level with the rules alone.
    Check(CheckArgs),
}

#[derive(Args)]
struct SolveArgs {
    /// Force the game (golf-peaks, sliding-blocks, puzzle-quest, ice-tower, bender4).
    #[arg(long)]
    game: Option<GameId>,
    /// Where the CSV goes (`-`: standard output). Default: results/<first path's name>.csv.
    #[arg(long)]
    out: Option<String>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Per level: stop with status `limit` once this many states are stored.
    #[arg(long)]
    max_states: Option<u64>,
    /// Per level: stop with status `limit` after this many seconds.
    #[arg(long)]
    timeout: Option<f64>,
    /// Memory all running searches may use together, in MiB (default: 70% of the machine's).
    #[arg(long)]
    max_memory: Option<u64>,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
    /// Level files and directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

#[derive(Args)]
struct CheckArgs {
    /// Force the game.
    #[arg(long)]
    game: Option<GameId>,
    /// The level of a multi-level file.
    #[arg(long)]
    level: Option<String>,
    /// The level file.
    level_path: PathBuf,
    /// The solution in the game's notation (`-`: read it from standard input).
    solution: String,
}

/// Exit status for usage errors.
const USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Solve(args) => solve(args),
        Command::Check(args) => check(args),
    }
}

fn usage_error(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("frontier: {message}");
    ExitCode::from(USAGE)
}

fn solve(args: SolveArgs) -> ExitCode {
    if let Some(threads) = args.threads
        && let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
    {
        return usage_error(format!("--threads {threads}: {e}"));
    }
    if let Some(t) = args.timeout.filter(|t| !(t.is_finite() && *t > 0.0)) {
        return usage_error(format!(
            "--timeout {t}: expected a positive number of seconds"
        ));
    }
    let started = Instant::now();
    let files = match discover::discover(&args.paths, args.game) {
        Ok(files) => files,
        Err(e) => return usage_error(e),
    };
    let tasks = match harness::load_tasks(&files) {
        Ok(tasks) => tasks,
        Err(e) => return usage_error(e),
    };
    let out = match args.out.as_deref() {
        Some("-") => None,
        Some(path) => Some(PathBuf::from(path)),
        None => Some(default_out(&args.paths[0])),
    };
    let options = BatchOptions {
        limits: Limits {
            max_states: args.max_states,
            timeout: args.timeout.map(Duration::from_secs_f64),
            max_bytes: None,
        },
        memory_budget: args
            .max_memory
            .map(|m| m << 20)
            .or_else(harness::default_memory_budget),
        quiet: args.quiet,
        checkpoint: out.clone(),
    };
    let rows = batch::solve_all(&tasks, &options);
    let csv = results::to_csv(&rows);
    match &out {
        None => print!("{csv}"),
        Some(path) => {
            if let Err(e) = results::write_atomically(path, &csv) {
                eprintln!("frontier: cannot write {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
    }
    let count = |s: Status| rows.iter().filter(|r| r.status == s).count();
    if !args.quiet {
        eprintln!(
            "{} levels in {:.3} s: {} solved, {} unsolvable, {} limit, {} error{}",
            rows.len(),
            started.elapsed().as_secs_f64(),
            count(Status::Solved),
            count(Status::Unsolvable),
            count(Status::Limit),
            count(Status::Error),
            out.map(|p| format!(" -> {}", p.display()))
                .unwrap_or_default()
        );
    }
    if rows.iter().all(|r| r.status.is_decided()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `results/<name>.csv`, named after the first path (a file's stem, a directory's name).
fn default_out(first: &Path) -> PathBuf {
    let named = if first.is_dir() {
        std::fs::canonicalize(first)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
    } else {
        Some(harness::file_stem(first))
    };
    PathBuf::from("results").join(format!("{}.csv", named.unwrap_or_else(|| "results".into())))
}

fn check(args: CheckArgs) -> ExitCode {
    let solution = if args.solution == "-" {
        let mut text = String::new();
        if let Err(e) = std::io::stdin().read_to_string(&mut text) {
            return usage_error(format!("cannot read the solution from standard input: {e}"));
        }
        text
    } else {
        args.solution
    };
    let file = match discover::discover(std::slice::from_ref(&args.level_path), args.game) {
        Ok(mut files) => files.remove(0),
        Err(e) => return usage_error(e),
    };
    let tasks = match harness::load_tasks(std::slice::from_ref(&file)) {
        Ok(tasks) => tasks,
        Err(e) => return usage_error(e),
    };
    let task = match (&args.level, tasks.len()) {
        (Some(name), _) => match tasks.iter().find(|t| t.name() == name) {
            Some(t) => t,
            None => {
                let names: Vec<&str> = tasks.iter().map(|t| t.name()).collect();
                return usage_error(format!(
                    "{}: no level named `{name}` (levels: {})",
                    args.level_path.display(),
                    names.join(", ")
                ));
            }
        },
        (None, 1) => &tasks[0],
        (None, _) => {
            let names: Vec<&str> = tasks.iter().map(|t| t.name()).collect();
            return usage_error(format!(
                "{} holds {} levels; pick one with --level (levels: {})",
                args.level_path.display(),
                names.len(),
                names.join(", ")
            ));
        }
    };
    match task.check(&solution) {
        Ok(verdict) => {
            println!("{}", verdict.message);
            ExitCode::SUCCESS
        }
        Err(why) => {
            println!("{why}");
            ExitCode::FAILURE
        }
    }
}
