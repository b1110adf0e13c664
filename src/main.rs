//! The `frontier` command line: `solve`, `check`, `show`, `compare`, `report`, `generate` and
//! `analyze` (see `docs/cli.md`, the contract, and the README).

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand, ValueEnum};

use frontier::distributed::{Cluster, Hosts, hostfile};
use frontier::engine::control::{self, Limits};
use frontier::games::GameId;
use frontier::games::sliding_blocks::generate::{Board, Goal};
use frontier::harness::analyze;
use frontier::harness::batch::{self, BatchOptions};
use frontier::harness::comparable::{settings_check, tolerance};
use frontier::harness::compare::{self, Tolerance};
use frontier::harness::gallery;
use frontier::harness::generate::{self, GenerateOptions};
use frontier::harness::levels::{one_level, selected_levels};
use frontier::harness::provenance::{Levels, Provenance, Settings};
use frontier::harness::registry::LevelTask;
use frontier::harness::report::{self, Baseline, Compared, Named};
use frontier::harness::results::{self, Status};
use frontier::harness::{self, discover, runs};
use frontier::show;
use frontier::words;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Turns off mimalloc's eager commit of its arenas. Why: with it on (mimalloc's default on
/// Linux), memory the searches free (hash tables outgrown as they double) stays committed and
/// resident, and The Time Machine peaks at 55-65 MB of RSS for 15 MB of live heap; with it off,
/// at 28 MB. The option's number is its place in `mi_option_e` of mimalloc v3's `mimalloc.h`
/// (the Rust bindings' constants predate v3).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static KEEP_MEMORY_UNCOMMITTED: extern "C" fn() = keep_memory_uncommitted_until_used;
extern "C" fn keep_memory_uncommitted_until_used() {
    const MI_OPTION_ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
    // SAFETY: setting an option is allowed at any time; it affects arenas reserved after it.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0) };
}

#[derive(Parser)]
#[command(
    name = "frontier",
    version,
    about = "Parallel batch solver and benchmark harness for grid puzzle games",
    after_help = "The command line and the results CSV: docs/cli.md. Each game's file format, \
                  rules and notation: docs/<game>.md (golf-peaks, sliding-blocks, puzzle-quest, \
                  ice-tower, bender4). The official level sets: corpora/official/."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve every level under the paths and write one CSV row per level.
    #[command(allow_negative_numbers = true)]
    Solve(SolveArgs),
    /// Replay a solution on a level with the rules alone.
    #[command(allow_negative_numbers = true)]
    Check(CheckArgs),
    /// Draw a level, or replay a solution and draw every step (terminal, or an animated SVG).
    #[command(allow_negative_numbers = true)]
    Show(ShowArgs),
    /// Compare a baseline results CSV with a new one; exit 1 on any regression.
    #[command(allow_negative_numbers = true)]
    Compare(CompareArgs),
    /// Write a self-contained HTML page of charts from results CSVs (two: before and after).
    #[command(allow_negative_numbers = true)]
    Report(ReportArgs),
    /// Find the hardest puzzles of a board by exhaustive search, one per piece count
    /// (sliding-blocks); writes a `.tsv` that `solve` reads.
    #[command(allow_negative_numbers = true)]
    Generate(GenerateArgs),
    /// Explore each level's whole reachable space: states, eccentricity, goal states, the
    /// optimum and the number of optimal solutions, one CSV row per level.
    #[command(allow_negative_numbers = true)]
    Analyze(AnalyzeArgs),
}

#[derive(Args)]
struct AnalyzeArgs {
    /// Force the game (golf-peaks, sliding-blocks, puzzle-quest, ice-tower).
    #[arg(long)]
    game: Option<GameId>,
    /// Analyze only the levels whose name contains this, or matches it as a glob; `=NAME`:
    /// only the level named exactly NAME (as for solve).
    #[arg(long, value_name = "PATTERN")]
    level: Option<String>,
    /// Where the CSV goes (`-`: standard output). Default: results/<first path's name>-analysis.csv.
    #[arg(long)]
    out: Option<String>,
    /// Also write the size of every BFS layer of every level to this CSV (game, level,
    /// distance, states).
    #[arg(long, value_name = "FILE")]
    layers: Option<PathBuf>,
    /// Write each level's position farthest from the start (not necessarily far from the goal)
    /// as a level file, DIR/GAME/LEVEL.txt, which `solve DIR` reads (games that write one:
    /// sliding-blocks).
    #[arg(long, value_name = "DIR")]
    farthest: Option<PathBuf>,
    /// Per level: stop with status `limit` once this many states are stored (1 or more).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_states: Option<u64>,
    /// Per level: the wall-time budget in seconds; `0` or `none`: no budget.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = time_budget)]
    timeout: TimeBudget,
    /// Memory the process may hold (resident), in MiB, 1 or more (default: 70% of the
    /// machine's); past it the level's exploration stops with a `limit` row.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    max_memory: Option<u64>,
    /// Worker threads, 1 or more (default: all cores).
    #[arg(long, value_parser = at_least_one)]
    threads: Option<usize>,
    /// No progress bar, no summary line.
    #[arg(long)]
    quiet: bool,
    /// Level files and directories (`-`: one file's levels from standard input).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

#[derive(Args)]
struct GenerateArgs {
    /// The game: sliding-blocks (the only one with a generator).
    game: GameId,
    /// The board, WIDTHxHEIGHT (e.g. 4x4), with no internal walls.
    #[arg(long)]
    board: Board,
    /// Only puzzles of exactly this many pieces, the goal piece included.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pieces: Option<u16>,
    /// The goal piece need only lie in the lower-right corner (its bounding box touching the
    /// bottom and right edges), not cover the lower-right cell: goal shapes without their
    /// box's lower-right cell count too.
    #[arg(long)]
    box_goal: bool,
    /// Where the `.tsv` goes (`-`: standard output). Default: results/generated-WxH.tsv.
    #[arg(long)]
    out: Option<String>,
    /// Memory the process may hold (resident), in MiB, 1 or more (default: 70% of the
    /// machine's); past it the run stops, writes nothing and exits with status 1.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    max_memory: Option<u64>,
    /// Worker threads, 1 or more (default: all cores).
    #[arg(long, value_parser = at_least_one)]
    threads: Option<usize>,
    /// No progress bar, no summary line.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args)]
struct CompareArgs {
    /// A level is slower when new/baseline time exceeds this ratio.
    #[arg(long, default_value_t = 1.25)]
    time_tolerance: f64,
    /// Levels whose baseline time is under this many milliseconds are timed in aggregate.
    #[arg(long, default_value_t = 10.0)]
    small_millis: f64,
    /// Compare times even when the two runs' settings or machines differ.
    #[arg(long)]
    force_times: bool,
    /// A results CSV, or a folder of runs of the same levels (merged: median time, whole range).
    baseline: PathBuf,
    /// The same for the new results.
    new: PathBuf,
}

#[derive(Args)]
struct ReportArgs {
    /// Where the page goes.
    #[arg(long, default_value = "results/report.html")]
    out: PathBuf,
    /// The tolerance of the before/after comparison.
    #[arg(long, default_value_t = 1.25)]
    time_tolerance: f64,
    /// Compare each file with the file of the same name in this folder (e.g. results/baselines).
    #[arg(long, value_name = "DIR")]
    baseline: Option<PathBuf>,
    /// Where the levels of the results are, for the gallery of solutions (default: the paths
    /// each file's `solve` was given, from its provenance, when they are still there).
    #[arg(long, value_name = "PATH", num_args = 1..)]
    levels: Vec<PathBuf>,
    /// No gallery of solutions.
    #[arg(long)]
    no_gallery: bool,
    /// Results CSVs (or folders of runs of the same levels); without --baseline, two are
    /// "before" and "after".
    #[arg(required = true)]
    csvs: Vec<PathBuf>,
}

#[derive(Args)]
struct SolveArgs {
    /// Force the game (golf-peaks, sliding-blocks, puzzle-quest, ice-tower, bender4).
    #[arg(long)]
    game: Option<GameId>,
    /// Where the CSV goes (`-`: standard output). Default: results/<first path's name>.csv.
    #[arg(long)]
    out: Option<String>,
    /// Worker threads, 1 or more (default: all cores).
    #[arg(long, value_parser = at_least_one)]
    threads: Option<usize>,
    /// Solve each level this many times: the CSV gives the median time and the range.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    repeat: u16,
    /// Levels whose first run takes under MS milliseconds are timed warm: that run is not
    /// counted, and the level is solved again (a thread pool, heap and caches in use) until
    /// its timed runs add up to MS (at least `--repeat` of them, at most 1,000).
    #[arg(long, value_name = "MS")]
    warm_below: Option<f64>,
    /// Solve only the levels whose name contains this, or matches it as a glob (`*`, `?`, `[`);
    /// `=NAME`: only the level named exactly NAME (as `--list` prints it).
    #[arg(long, value_name = "PATTERN")]
    level: Option<String>,
    /// Print the names of the levels that would be solved, one a line (line breaks, tabs and
    /// backslashes in a name as `\n`, `\t`, `\\`: what `--level =NAME` takes), and solve none.
    #[arg(long)]
    list: bool,
    /// Per level: stop with status `limit` once this many states are stored (checked between
    /// search layers, so the count where it stops is the same on every run); 1 or more.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_states: Option<u64>,
    /// Per level: the wall-time budget of all its searches, in seconds; past it the level ends
    /// with status `limit` (Ice Tower: with the best solution found and the optimum's bounds).
    /// `0` or `none`: no budget.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = time_budget)]
    timeout: TimeBudget,
    /// Memory the process may hold (resident), in MiB (default: 70% of the machine's); past it
    /// the largest running search stops with a `limit` row. 1 or more.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    max_memory: Option<u64>,
    /// Per level, the seconds of its budget kept for finding a better solution, not proven
    /// shortest, once a limit stopped the optimal search (Ice Tower; default: a quarter of
    /// --timeout, 60 without one; 0: none).
    #[arg(long, value_name = "SECONDS")]
    anytime: Option<f64>,
    /// No progress bars, no line per `error` or `limit` row, no summary line.
    #[arg(long)]
    quiet: bool,
    /// Levels solved at a time (default 1: each level has every thread, and its time is its
    /// own); N > 1 splits the threads among N levels, each level on its own share.
    #[arg(long, value_name = "N", value_parser = at_least_one)]
    parallel_levels: Option<usize>,
    /// Search on timely dataflow workers: in this process, or with --hostfile across processes
    /// and hosts. Levels are solved one at a time, each spread over every worker.
    #[arg(long)]
    distributed: bool,
    /// Timely workers in this process (default: --threads, else all cores); every process of a
    /// cluster needs the same.
    #[arg(long, requires = "distributed", value_parser = clap::value_parser!(u16).range(1..))]
    workers: Option<u16>,
    /// The cluster's processes, one `host:port` a line (this process is line --process, from 0).
    /// Every process is given the same paths and options; process 0 writes the CSV.
    #[arg(long, value_name = "FILE", requires_all = ["distributed", "process"])]
    hostfile: Option<PathBuf>,
    /// This process's index in the hostfile.
    #[arg(long, value_name = "I", requires = "hostfile")]
    process: Option<usize>,
    /// How long a process waits for every other process of the hostfile to connect.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 60.0,
        requires = "hostfile"
    )]
    connect_timeout: f64,
    /// Level files and directories (`-`: one file's levels from standard input).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

#[derive(Args)]
struct CheckArgs {
    /// Force the game.
    #[arg(long)]
    game: Option<GameId>,
    /// The level of a multi-level file, chosen as `solve --level` chooses (a part of its name,
    /// a glob, or `=NAME`); a level named exactly PATTERN wins, else one level must match.
    #[arg(long, value_name = "PATTERN")]
    level: Option<String>,
    /// The level file (`-`: standard input).
    level_path: PathBuf,
    /// The solution in the game's notation, as the CSV's `solution` column holds it (it may
    /// start with `-`); `-` alone: read it from standard input.
    #[arg(allow_hyphen_values = true)]
    solution: String,
}

#[derive(Args)]
struct ShowArgs {
    /// Force the game.
    #[arg(long)]
    game: Option<GameId>,
    /// The level of a multi-level file, chosen as `solve --level` chooses (a part of its name,
    /// a glob, or `=NAME`); a level named exactly PATTERN wins, else one level must match.
    #[arg(long, value_name = "PATTERN")]
    level: Option<String>,
    /// Take the solution from the level's solved row in this results CSV.
    #[arg(long, value_name = "CSV", conflicts_with = "solution")]
    from: Option<PathBuf>,
    /// Show only the frames of move N (0: the start; Bender: step N).
    #[arg(long, value_name = "N")]
    step: Option<u32>,
    /// Write the replay as one looping animated SVG to FILE instead of printing it.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Colours in the terminal: auto (when standard output is a terminal and NO_COLOR is
    /// unset), always or never.
    #[arg(long, value_enum, default_value_t = Colour::Auto)]
    color: Colour,
    /// The level file (`-`: standard input).
    level_path: PathBuf,
    /// The solution in the game's notation, as the CSV's `solution` column holds it (it may
    /// start with `-`); `-` alone: read it from standard input. Without one, the level is
    /// drawn.
    #[arg(allow_hyphen_values = true)]
    solution: Option<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Colour {
    Auto,
    Always,
    Never,
}

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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Solve(args) => solve(args),
        Command::Check(args) => check(args),
        Command::Show(args) => show(args),
        Command::Compare(args) => compare(args),
        Command::Report(args) => report(args),
        Command::Generate(args) => generate(args),
        Command::Analyze(args) => analyze(args),
    }
}

fn analyze(args: AnalyzeArgs) -> ExitCode {
    if let Err(e) = set_threads(args.threads) {
        return usage_error(e);
    }
    let tasks = match selected_levels(&args.paths, args.game, args.level.as_deref()) {
        Ok(tasks) => tasks,
        Err(e) => return usage_error(e),
    };
    let out = match args.out.as_deref() {
        Some("-") => None,
        Some(path) => Some(PathBuf::from(path)),
        None => {
            let mut path = default_out(&args.paths[0]);
            let stem = harness::file_stem(&path);
            path.set_file_name(format!("{stem}-analysis.csv"));
            Some(path)
        }
    };
    stop_cleanly_on_interrupt();
    let limits = Limits {
        max_states: args.max_states,
        timeout: args.timeout.0.map(Duration::from_secs_f64),
        max_bytes: args
            .max_memory
            .map(|m| m << 20)
            .or_else(harness::default_memory_budget),
        ..Limits::default()
    };
    let analyses = analyze::analyze_all(&tasks, limits, args.quiet);
    let mut written = vec![(out.clone(), analyze::rows_csv(&analyses))];
    if let Some(layers) = &args.layers {
        written.push((Some(layers.clone()), analyze::layers_csv(&analyses)));
    }
    for (path, csv) in written {
        if let Err(failure) = emit(path.as_deref(), &csv) {
            return failure;
        }
    }
    if let Some(dir) = &args.farthest {
        // In a folder named after the game, which is how `solve` tells a level file's game.
        let files = analyses.iter().filter_map(|a| {
            let text = a.farthest.as_ref()?;
            let folder = dir.join(&a.row.game);
            let path = folder.join(analyze::farthest_file_name(&a.row.level));
            Some((folder, path, text))
        });
        for (folder, path, text) in files {
            let written = std::fs::create_dir_all(&folder)
                .and_then(|()| results::write_atomically(&path, text));
            if let Err(e) = written {
                eprintln!("frontier: cannot write {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
    }
    let analyzed = analyses
        .iter()
        .filter(|a| a.row.status == "analyzed")
        .count();
    if !args.quiet {
        eprintln!(
            "{}, {analyzed} analyzed{}",
            words::count(analyses.len(), "level"),
            out.map(|p| format!(" -> {}", p.display()))
                .unwrap_or_default()
        );
    }
    if control::interrupted() {
        ExitCode::from(INTERRUPTED)
    } else if analyzed == analyses.len() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
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

fn generate(args: GenerateArgs) -> ExitCode {
    if args.game != GameId::SlidingBlocks {
        return usage_error(format!(
            "generate: no generator for {} (only sliding-blocks has one)",
            args.game
        ));
    }
    // A puzzle needs an empty cell to move into, so every piece count above this has none.
    let most = args.board.width * args.board.height - 1;
    if let Some(pieces) = args.pieces.filter(|&p| usize::from(p) > most) {
        return usage_error(format!(
            "--pieces {pieces}: a {} board holds at most {most} pieces with a cell left empty",
            args.board
        ));
    }
    if let Err(e) = set_threads(args.threads) {
        return usage_error(e);
    }
    let out = match args.out.as_deref() {
        Some("-") => None,
        Some(path) => Some(PathBuf::from(path)),
        None => Some(PathBuf::from(format!(
            "results/generated-{}.tsv",
            args.board
        ))),
    };
    stop_cleanly_on_interrupt();
    let started = Instant::now();
    let options = GenerateOptions {
        board: args.board,
        pieces: args.pieces.map(usize::from),
        goal: if args.box_goal { Goal::Box } else { Goal::Cell },
        quiet: args.quiet,
        memory_budget: args
            .max_memory
            .map(|m| m << 20)
            .or_else(harness::default_memory_budget),
    };
    let records = match generate::generate(&options) {
        Ok(records) => records,
        Err(limit @ control::Limit::Memory(_)) => {
            eprintln!("frontier: generate stopped: {limit}; nothing written");
            return ExitCode::FAILURE;
        }
        Err(limit) => {
            eprintln!("frontier: generate stopped: {limit}; nothing written");
            return ExitCode::from(INTERRUPTED);
        }
    };
    if let Err(failure) = emit(out.as_deref(), &generate::to_tsv(&records)) {
        return failure;
    }
    if !args.quiet {
        eprintln!(
            "{} of {} in {:.3} s{}",
            words::count(records.len(), "piece count"),
            args.board,
            started.elapsed().as_secs_f64(),
            out.map(|p| format!(" -> {}", p.display()))
                .unwrap_or_default()
        );
    }
    ExitCode::SUCCESS
}

fn usage_error(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("frontier: {message}");
    ExitCode::from(USAGE)
}

fn solve(args: SolveArgs) -> ExitCode {
    if let Err(e) = set_threads(args.threads) {
        return usage_error(e);
    }
    if args.distributed && args.parallel_levels.is_some_and(|n| n != 1) {
        return usage_error("--parallel-levels: a distributed run solves one level at a time");
    }
    if !(args.connect_timeout.is_finite() && args.connect_timeout > 0.0) {
        return usage_error(format!(
            "--connect-timeout {}: expected a positive number of seconds",
            args.connect_timeout
        ));
    }
    if let Some(t) = args.anytime.filter(|t| !(t.is_finite() && *t >= 0.0)) {
        return usage_error(format!(
            "--anytime {t}: expected a number of seconds, 0 or more"
        ));
    }
    let started = Instant::now();
    // Before the levels are read and anything is written: an interrupt from here on is caught
    // (one during start-up solves no level, and every level gets its `limit` row).
    stop_cleanly_on_interrupt();
    let tasks = match selected_levels(&args.paths, args.game, args.level.as_deref()) {
        Ok(tasks) => tasks,
        Err(e) => return usage_error(e),
    };
    if args.list {
        for task in &tasks {
            println!("{}", harness::listed_name(task.name()));
        }
        return ExitCode::SUCCESS;
    }
    let out = match args.out.as_deref() {
        Some("-") => None,
        Some(path) => Some(PathBuf::from(path)),
        None => Some(default_out(&args.paths[0])),
    };
    let hosts = match (&args.hostfile, args.process) {
        (Some(path), Some(process)) => match hostfile::read(path) {
            Ok(addresses) if process < addresses.len() => Some(Hosts { addresses, process }),
            Ok(addresses) => {
                return usage_error(format!(
                    "--process {process}: {} lists {} processes (0 to {})",
                    path.display(),
                    addresses.len(),
                    addresses.len() - 1
                ));
            }
            Err(e) => return usage_error(e),
        },
        _ => None,
    };
    let cluster = match join_cluster(&args, hosts, &tasks) {
        Ok(cluster) => cluster.map(Arc::new),
        Err(e) => {
            eprintln!("frontier: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Of a cluster's processes, the first writes the results and shows progress.
    let lead = cluster.as_ref().is_none_or(|c| c.process() == 0);
    let options = BatchOptions {
        limits: Limits {
            max_states: args.max_states,
            timeout: args.timeout.0.map(Duration::from_secs_f64),
            // Every search of a level stops at its next check once its own allocations reach
            // the budget (the guard holds the whole process to it every tick).
            max_bytes: args
                .max_memory
                .map(|m| m << 20)
                .or_else(harness::default_memory_budget),
            anytime: args.anytime.map(Duration::from_secs_f64),
        },
        memory_budget: args
            .max_memory
            .map(|m| m << 20)
            .or_else(harness::default_memory_budget),
        quiet: args.quiet || !lead,
        parallel_levels: args.parallel_levels,
        checkpoint: out.clone().filter(|_| lead),
        repeat: args.repeat.into(),
        warm_below: args.warm_below.map(|ms| Duration::from_secs_f64(ms / 1e3)),
        cluster: cluster.clone(),
    };
    if let Some(path) = out.as_ref().filter(|_| lead) {
        let levels = Levels {
            paths: args.paths.clone(),
            game: args.game.map(|game| game.as_str().into()),
        };
        let provenance = Provenance::now(
            levels,
            Settings {
                threads: rayon::current_num_threads(),
                parallel_levels: batch::levels_at_a_time(&options, tasks.len()),
                repeat: options.repeat,
                warm_below_ms: args.warm_below,
                max_states: options.limits.max_states,
                timeout_s: args.timeout.0,
                max_memory_mib: options.memory_budget.map(|b| b >> 20),
                anytime_s: args.anytime,
                distributed: cluster
                    .as_ref()
                    .map(|c| format!("{} processes x {} workers", c.processes(), c.workers())),
            },
        );
        // Written first, so that a checkpointed file has its provenance too, and with it a
        // whole CSV (the header alone) under the results lock: from the moment the sidecar
        // exists a whole CSV is beside it, whenever an interrupt comes. Neither beside nor
        // into a device or pipe (`--out /dev/null`), which gets the last write only.
        let regular = std::fs::metadata(path).map(|m| m.is_file()).unwrap_or(true);
        let begun = harness::interrupt::begin(|| {
            if !regular {
                return Ok(());
            }
            provenance
                .write_beside(path)
                .map_err(|e| format!("cannot write the provenance of {}: {e}", path.display()))?;
            results::write_atomically(path, &results::to_csv(&[]))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        });
        if let Err(e) = begun {
            eprintln!("frontier: {e}");
            return ExitCode::FAILURE;
        }
    }
    let rows = batch::solve_all(&tasks, &options);
    // A cluster that broke, or whose processes do not all reach the end together.
    let failure = cluster
        .as_ref()
        .and_then(|c| c.failure().or_else(|| c.finish().err()));
    if !lead {
        if let Some(failure) = &failure {
            eprintln!("frontier: {failure}");
        }
        return exit_status(&rows, failure.is_some());
    }
    // The last write: a second interrupt waits for it, then quits without writing again.
    let csv = results::to_csv(&rows);
    let written = match out.as_deref() {
        Some(path) => harness::interrupt::write_last(path, &csv)
            .map_err(|e| eprintln!("frontier: cannot write {}: {e}", path.display())),
        None => emit(None, &csv).map_err(drop),
    };
    if written.is_err() {
        return ExitCode::FAILURE;
    }
    if let Some(failure) = &failure {
        eprintln!(
            "frontier: {failure}; the results hold the {} finished before",
            words::count(
                rows.iter()
                    .filter(|r| !r.detail.contains(failure.as_str()))
                    .count(),
                "level"
            )
        );
    }
    let count = |s: Status| rows.iter().filter(|r| r.status == s).count();
    if !args.quiet {
        eprintln!(
            "{} in {:.3} s: {} solved, {} unsolvable, {} limit, {} error{}",
            words::count(rows.len(), "level"),
            started.elapsed().as_secs_f64(),
            count(Status::Solved),
            count(Status::Unsolvable),
            count(Status::Limit),
            count(Status::Error),
            out.map(|p| format!(" -> {}", p.display()))
                .unwrap_or_default()
        );
    }
    exit_status(&rows, failure.is_some())
}

/// 1 when a cluster broke, else 130 when interrupted, else 0 when every level was decided.
fn exit_status(rows: &[results::Row], cluster_broke: bool) -> ExitCode {
    if cluster_broke {
        ExitCode::FAILURE
    } else if control::interrupted() {
        ExitCode::from(INTERRUPTED)
    } else if rows.iter().all(|r| r.status.is_decided()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The cluster of a `--distributed` run (`None` without): this process's workers, connected to
/// the other processes of the hostfile.
fn join_cluster(
    args: &SolveArgs,
    hosts: Option<Hosts>,
    tasks: &[Box<dyn LevelTask>],
) -> Result<Option<Cluster>, String> {
    if !args.distributed {
        return Ok(None);
    }
    let workers = args
        .workers
        .map_or_else(rayon::current_num_threads, usize::from);
    let Some(hosts) = hosts else {
        return Cluster::local(workers).map(Some);
    };
    let timeout = Duration::from_secs_f64(args.connect_timeout);
    Cluster::connect(&hosts, workers, run_fingerprint(args, tasks), timeout).map(Some)
}

/// Writes a command's output whole: to `path` (a temporary file, then renamed), or to standard
/// output without one; a file that cannot be written is said and ends the command.
fn emit(path: Option<&Path>, text: &str) -> Result<(), ExitCode> {
    match path {
        None => print!("{text}"),
        Some(path) => {
            if let Err(e) = results::write_atomically(path, text) {
                eprintln!("frontier: cannot write {}: {e}", path.display());
                return Err(ExitCode::FAILURE);
            }
        }
    }
    Ok(())
}

/// What every process of a cluster must agree on: the build, the levels in order and the
/// options that shape the searches (not the output, nor the memory budget, which is each
/// machine's own).
fn run_fingerprint(args: &SolveArgs, tasks: &[Box<dyn LevelTask>]) -> u64 {
    use std::hash::{Hash, Hasher};
    // SipHash with fixed keys: the same in every process of the same build.
    let mut hasher = std::hash::DefaultHasher::new();
    (env!("CARGO_PKG_VERSION"), env!("FRONTIER_COMMIT")).hash(&mut hasher);
    for task in tasks {
        (task.game().as_str(), task.name()).hash(&mut hasher);
    }
    (args.max_states, args.repeat).hash(&mut hasher);
    for seconds in [args.timeout.0, args.anytime, args.warm_below] {
        seconds.map(f64::to_bits).hash(&mut hasher);
    }
    hasher.finish()
}

/// A count that must be 1 or more (`--threads`, `--parallel-levels`): 0 would mean nothing
/// the user could want.
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("expected a whole number, 1 or more".into()),
    }
}

/// A level's wall-time budget in seconds (`--timeout`); `None`: no budget.
#[derive(Clone, Copy, Debug)]
struct TimeBudget(Option<f64>);

/// `--timeout`'s value: seconds, or `0` or `none` for no budget.
fn time_budget(text: &str) -> Result<TimeBudget, String> {
    if text.eq_ignore_ascii_case("none") {
        return Ok(TimeBudget(None));
    }
    match text.parse::<f64>() {
        Ok(0.0) => Ok(TimeBudget(None)),
        Ok(t) if t.is_finite() && t > 0.0 => Ok(TimeBudget(Some(t))),
        _ => Err("expected a number of seconds, or 0 or `none` for no budget".into()),
    }
}

/// `results/<name>.csv`, named after the first path (a file's stem, a directory's name).
fn default_out(first: &Path) -> PathBuf {
    let named = if first.as_os_str() == discover::STDIN {
        Some("stdin".into())
    } else if first.is_dir() {
        std::fs::canonicalize(first)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
    } else {
        Some(harness::file_stem(first))
    };
    PathBuf::from("results").join(format!("{}.csv", named.unwrap_or_else(|| "results".into())))
}

/// A solution given on the command line, or read from standard input for `-`.
fn solution_text(solution: String, level_path: &Path) -> Result<String, ExitCode> {
    if solution != "-" {
        return Ok(solution);
    }
    if level_path.as_os_str() == discover::STDIN {
        return Err(usage_error(
            "the level and the solution cannot both come from standard input",
        ));
    }
    let mut text = String::new();
    match std::io::stdin().read_to_string(&mut text) {
        Ok(_) => Ok(text),
        Err(e) => Err(usage_error(format!(
            "cannot read the solution from standard input: {e}"
        ))),
    }
}

fn check(args: CheckArgs) -> ExitCode {
    let solution = match solution_text(args.solution, &args.level_path) {
        Ok(solution) => solution,
        Err(code) => return code,
    };
    let task = match one_level(&args.level_path, args.game, args.level.as_deref()) {
        Ok(task) => task,
        Err(e) => return usage_error(e),
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

fn show(args: ShowArgs) -> ExitCode {
    let solution = match args.solution {
        Some(solution) => match solution_text(solution, &args.level_path) {
            Ok(solution) => Some(solution),
            Err(code) => return code,
        },
        None => None,
    };
    let task = match one_level(&args.level_path, args.game, args.level.as_deref()) {
        Ok(task) => task,
        Err(e) => return usage_error(e),
    };
    let solution = match (&args.from, solution) {
        (Some(csv), _) => match runs::solution(csv, task.as_ref()) {
            Ok(solution) => Some(solution),
            Err(e) => return usage_error(e),
        },
        (None, solution) => solution,
    };
    let replay = match task.show(solution.as_deref()) {
        Ok(replay) => replay,
        Err(e) => return usage_error(e),
    };
    let mut frames = replay.frames;
    if let Some(n) = args.step {
        let last = frames.last().map_or(0, |f| f.step);
        frames.retain(|f| f.step == n);
        if frames.is_empty() {
            return usage_error(format!("--step {n}: the replay has steps 0 to {last}"));
        }
    }
    let verdict = match &replay.verdict {
        None => None,
        Some(Ok(verdict)) => Some(verdict.message.clone()),
        Some(Err(why)) => Some(why.clone()),
    };
    if let Some(path) = &args.svg {
        let title = match &verdict {
            Some(verdict) => format!("{} ({}): {verdict}", task.name(), task.game()),
            None => format!("{} ({})", task.name(), task.game()),
        };
        let options = show::svg::Options {
            id: "f",
            title: &title,
            cell: 32.0,
        };
        let svg = show::svg::animation(&frames, &options);
        if let Err(e) = results::write_atomically(path, &svg) {
            eprintln!("frontier: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        eprintln!(
            "animation of {} frames ({} KiB) written to {}",
            frames.len(),
            svg.len().div_ceil(1024),
            path.display()
        );
    } else {
        let colour = match args.color {
            Colour::Always => true,
            Colour::Never => false,
            Colour::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        };
        print!("{}", show::text::frames(&frames, colour).join("\n"));
    }
    match (&replay.verdict, verdict) {
        (Some(Ok(_)), Some(line)) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        (Some(Err(_)), Some(line)) => {
            println!("{line}");
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    }
}

fn compare(args: CompareArgs) -> ExitCode {
    let tolerance = match tolerance(args.time_tolerance, args.small_millis) {
        Ok(t) => t,
        Err(e) => return usage_error(e),
    };
    let (base, new) = match (runs::read(&args.baseline), runs::read(&args.new)) {
        (Ok(b), Ok(n)) => (b, n),
        (Err(e), _) | (_, Err(e)) => return usage_error(e),
    };
    let tolerance = match settings_check(&args.baseline, &args.new, tolerance, args.force_times) {
        Ok((tolerance, lines)) => {
            for line in lines {
                println!("{line}");
            }
            tolerance
        }
        Err(e) => return usage_error(e),
    };
    let paired = match runs::paired_times(&args.baseline, &args.new) {
        Ok(paired) => paired,
        Err(e) => return usage_error(e),
    };
    let result = compare::compare(&base, &new, &paired, tolerance);
    print!(
        "{}",
        result.render(
            &args.baseline.display().to_string(),
            &args.new.display().to_string(),
            tolerance
        )
    );
    if result.regressed() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn report(args: ReportArgs) -> ExitCode {
    let tolerance = match tolerance(args.time_tolerance, Tolerance::default().small_millis) {
        Ok(t) => t,
        Err(e) => return usage_error(e),
    };
    // Each file with its baseline, if any: the same name in --baseline DIR, or, for two files
    // without it, the first for the second.
    let pairs: Vec<(Option<PathBuf>, &PathBuf)> = match (&args.baseline, args.csvs.as_slice()) {
        (Some(dir), csvs) => csvs
            .iter()
            .map(|csv| {
                let base = csv.file_name().map(|name| dir.join(name));
                (base.filter(|b| b.exists()), csv)
            })
            .collect(),
        (None, [before, after]) => vec![(Some(before.clone()), after)],
        (None, csvs) => csvs.iter().map(|csv| (None, csv)).collect(),
    };
    let mut loaded = Vec::new();
    for (base, csv) in &pairs {
        let rows = match runs::read(csv) {
            Ok(rows) => rows,
            Err(e) => return usage_error(e),
        };
        let baseline = match base {
            None => None,
            Some(base) => {
                let checked = settings_check(base, csv, tolerance, false);
                match (runs::read(base), runs::paired_times(base, csv), checked) {
                    (Ok(rows), Ok(paired), Ok((tolerance, _))) => {
                        Some((base.display().to_string(), rows, paired, tolerance))
                    }
                    (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return usage_error(e),
                }
            }
        };
        loaded.push((csv.display().to_string(), rows, baseline));
    }
    let files: Vec<Compared> = loaded
        .iter()
        .map(|(name, rows, baseline)| Compared {
            file: Named { name, rows },
            baseline: baseline
                .as_ref()
                .map(|(name, rows, paired, tolerance)| Baseline {
                    file: Named { name, rows },
                    paired,
                    tolerance: *tolerance,
                }),
        })
        .collect();
    let mut budget = gallery::Budget::default();
    let mut animations = Vec::new();
    if !args.no_gallery {
        for (csv, rows, _) in &loaded {
            let tasks = gallery::levels(&args.levels, Path::new(csv));
            animations.extend(gallery::animations(csv, rows, &tasks, &mut budget));
        }
    }
    let page = report::html(&files, &animations);
    if let Err(e) = results::write_atomically(&args.out, &page) {
        eprintln!("frontier: cannot write {}: {e}", args.out.display());
        return ExitCode::FAILURE;
    }
    eprintln!("report written to {}", args.out.display());
    ExitCode::SUCCESS
}
