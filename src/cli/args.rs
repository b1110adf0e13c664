//! The command line's definition (clap): every command's arguments, with their help text,
//! and the parsers of the values that need more than their type (`--threads`, `--timeout`).
//! What the commands do with them is in the command's own module.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use frontier::games::GameId;
use frontier::games::sliding_blocks::generate::Board;

#[derive(Parser)]
#[command(
    name = "frontier",
    version,
    about = "Parallel batch solver and benchmark harness for grid puzzle games",
    after_help = "The command line and the results CSV: docs/cli.md. Each game's file format, \
                  rules and notation: docs/<game>.md (golf-peaks, sliding-blocks, puzzle-quest, \
                  ice-tower, bender4). The official level sets: corpora/official/."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
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
pub struct AnalyzeArgs {
    /// Force the game (golf-peaks, sliding-blocks, puzzle-quest, ice-tower).
    #[arg(long)]
    pub game: Option<GameId>,
    /// Analyze only the levels whose name contains this, or matches it as a glob; `=NAME`:
    /// only the level named exactly NAME (as for solve).
    #[arg(long, value_name = "PATTERN")]
    pub level: Option<String>,
    /// Where the CSV goes (`-`: standard output). Default: results/<first path's name>-analysis.csv.
    #[arg(long)]
    pub out: Option<String>,
    /// Also write the size of every BFS layer of every level to this CSV (game, level,
    /// distance, states).
    #[arg(long, value_name = "FILE")]
    pub layers: Option<PathBuf>,
    /// Write each level's position farthest from the start (not necessarily far from the goal)
    /// as a level file, DIR/GAME/LEVEL.txt, which `solve DIR` reads (games that write one:
    /// sliding-blocks).
    #[arg(long, value_name = "DIR")]
    pub farthest: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Worker threads, 1 or more (default: all cores).
    #[arg(long, value_parser = at_least_one)]
    pub threads: Option<usize>,
    /// No progress bar, no summary line.
    #[arg(long)]
    pub quiet: bool,
    /// Level files and directories (`-`: one file's levels from standard input).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

#[derive(Args)]
pub struct GenerateArgs {
    /// The game: sliding-blocks (the only one with a generator).
    pub game: GameId,
    /// The board, WIDTHxHEIGHT (e.g. 4x4), with no internal walls.
    #[arg(long)]
    pub board: Board,
    /// Only puzzles of exactly this many pieces, the goal piece included.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub pieces: Option<u16>,
    /// The goal piece need only lie in the lower-right corner (its bounding box touching the
    /// bottom and right edges), not cover the lower-right cell: goal shapes without their
    /// box's lower-right cell count too.
    #[arg(long)]
    pub box_goal: bool,
    /// Where the `.tsv` goes (`-`: standard output). Default: results/generated-WxH.tsv.
    #[arg(long)]
    pub out: Option<String>,
    /// Where each finished class is recorded as it finishes (default: the output's path and
    /// `.journal`; none with `--out -`). Run the same command again after any stop and it
    /// goes on from there; the journal is removed once the `.tsv` is written.
    #[arg(long, value_name = "FILE")]
    pub journal: Option<PathBuf>,
    /// Go on from a journal that another build wrote (refused otherwise: a fix between the
    /// builds may change a class's answer).
    #[arg(long)]
    pub resume_any_build: bool,
    /// Memory the process may hold (resident), in MiB, 1 or more (default: 70% of the
    /// machine's); past it the run stops, writes nothing and exits with status 1.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_memory: Option<u64>,
    /// Worker threads, 1 or more (default: all cores).
    #[arg(long, value_parser = at_least_one)]
    pub threads: Option<usize>,
    /// No progress bar, no summary line.
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub cluster: ClusterArgs,
}

#[derive(Args)]
pub struct CompareArgs {
    /// A level is slower when new/baseline time exceeds this ratio.
    #[arg(long, default_value_t = 1.25)]
    pub time_tolerance: f64,
    /// Levels whose baseline time is under this many milliseconds are timed in aggregate.
    #[arg(long, default_value_t = 10.0)]
    pub small_millis: f64,
    /// Compare times even when the two runs' settings or machines differ.
    #[arg(long)]
    pub force_times: bool,
    /// A results CSV, or a folder of runs of the same levels (merged: median time, whole range).
    pub baseline: PathBuf,
    /// The same for the new results.
    pub new: PathBuf,
}

#[derive(Args)]
pub struct ReportArgs {
    /// Where the page goes.
    #[arg(long, default_value = "results/report.html")]
    pub out: PathBuf,
    /// The tolerance of the before/after comparison.
    #[arg(long, default_value_t = 1.25)]
    pub time_tolerance: f64,
    /// Compare each file with the file of the same name in this folder (e.g. results/baselines).
    #[arg(long, value_name = "DIR")]
    pub baseline: Option<PathBuf>,
    /// Where the levels of the results are, for the gallery of solutions (default: the paths
    /// each file's `solve` was given, from its provenance, when they are still there).
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub levels: Vec<PathBuf>,
    /// No gallery of solutions.
    #[arg(long)]
    pub no_gallery: bool,
    /// Results CSVs (or folders of runs of the same levels); without --baseline, two are
    /// "before" and "after".
    #[arg(required = true)]
    pub csvs: Vec<PathBuf>,
}

#[derive(Args)]
pub struct SolveArgs {
    /// Force the game (golf-peaks, sliding-blocks, puzzle-quest, ice-tower, bender4).
    #[arg(long)]
    pub game: Option<GameId>,
    /// Where the CSV goes (`-`: standard output). Default: results/<first path's name>.csv.
    #[arg(long)]
    pub out: Option<String>,
    /// Worker threads, 1 or more (default: all cores).
    #[arg(long, value_parser = at_least_one)]
    pub threads: Option<usize>,
    /// Solve each level this many times: the CSV gives the median time and the range.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    pub repeat: u16,
    /// Levels whose first run takes under MS milliseconds are timed warm: that run is not
    /// counted, and the level is solved again (a thread pool, heap and caches in use) until
    /// its timed runs add up to MS (at least `--repeat` of them, at most 1,000).
    #[arg(long, value_name = "MS")]
    pub warm_below: Option<f64>,
    /// Solve only the levels whose name contains this, or matches it as a glob (`*`, `?`, `[`);
    /// `=NAME`: only the level named exactly NAME (as `--list` prints it).
    #[arg(long, value_name = "PATTERN")]
    pub level: Option<String>,
    /// Print the names of the levels that would be solved, one a line (line breaks, tabs and
    /// backslashes in a name as `\n`, `\t`, `\\`: what `--level =NAME` takes), and solve none.
    #[arg(long)]
    pub list: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Per level, the seconds of its budget kept for finding a better solution, not proven
    /// shortest, once a limit stopped the optimal search (Ice Tower; default: a quarter of
    /// --timeout, 60 without one; 0: none).
    #[arg(long, value_name = "SECONDS")]
    pub anytime: Option<f64>,
    /// Per level, N times the default candidates for a search that only bounds its answer
    /// (Bender's programs; default 1): shorter programs, N times the program search's time.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub effort: Option<u32>,
    /// No progress bars, no line per `error` or `limit` row, no summary line.
    #[arg(long)]
    pub quiet: bool,
    /// Levels solved at a time (default 1: each level has every thread, and its time is its
    /// own); N > 1 splits the threads among N levels, each level on its own share.
    #[arg(long, value_name = "N", value_parser = at_least_one)]
    pub parallel_levels: Option<usize>,
    #[command(flatten)]
    pub cluster: ClusterArgs,
    /// Solve with another program instead of frontier's search, run by `/bin/sh -c` once per
    /// level: `{level}` is replaced by a file holding the level alone in its game's format
    /// (without it, the file comes on standard input), `{game}` by the game and `{name}` by the
    /// level's name. Its standard output is its answer (a solution, or `unsolvable`), checked
    /// by the game's rules; --timeout and --max-memory are held by killing its process group
    /// (docs/cli.md, "External solvers").
    #[arg(long, value_name = "COMMAND", conflicts_with = "distributed")]
    pub solver: Option<String>,
    /// Results files (or folders of runs) whose proven answers (`optimal=yes`) the solver's
    /// are held against: `optimal` says whether it reached them, and a claim of `unsolvable`
    /// against a known solution is `wrong`. E.g. results/baselines/official-golf-peaks.csv.
    #[arg(long, value_name = "CSV", num_args = 1.., requires = "solver")]
    pub reference: Vec<PathBuf>,
    /// Level files and directories (`-`: one file's levels from standard input).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

/// Where `solve`'s searches and `generate`'s units run with `--distributed`: timely dataflow
/// workers in this process, or across the processes of a hostfile.
#[derive(Args)]
pub struct ClusterArgs {
    /// Run on timely dataflow workers: in this process, or with --hostfile across processes
    /// and hosts (solve: levels one at a time, each search spread over every worker; generate:
    /// the units dealt to the processes, each searching its own on --threads).
    #[arg(long)]
    pub distributed: bool,
    /// Timely workers in this process (solve: default --threads, else all cores; generate, whose
    /// workers only carry finished units to process 0: default 1); every process of a cluster
    /// needs the same.
    #[arg(long, requires = "distributed", value_parser = clap::value_parser!(u16).range(1..))]
    pub workers: Option<u16>,
    /// The cluster's processes, one `host:port` a line (this process is line --process, from 0).
    /// Every process is given the same arguments; process 0 writes the output.
    #[arg(long, value_name = "FILE", requires_all = ["distributed", "process"])]
    pub hostfile: Option<PathBuf>,
    /// This process's index in the hostfile.
    #[arg(long, value_name = "I", requires = "hostfile")]
    pub process: Option<usize>,
    /// How long a process waits for every other process of the hostfile to connect.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 60.0,
        requires = "hostfile"
    )]
    pub connect_timeout: f64,
}

/// Each level's limits, as `solve` and `analyze` take them.
#[derive(Args)]
pub struct LimitArgs {
    /// Per level: stop with status `limit` once this many states are stored (checked between
    /// search layers, so the count where it stops is the same on every run); 1 or more.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_states: Option<u64>,
    /// Per level: the wall-time budget of all its searches, in seconds; past it the level ends
    /// with status `limit` (Ice Tower's `solve`: with the best solution found and the
    /// optimum's bounds). `0` or `none`: no budget.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = time_budget)]
    pub timeout: TimeBudget,
    /// Memory the process may hold (resident), in MiB (default: 70% of the machine's); past it
    /// the largest running search stops with a `limit` row. 1 or more.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_memory: Option<u64>,
}

#[derive(Args)]
pub struct CheckArgs {
    /// Force the game.
    #[arg(long)]
    pub game: Option<GameId>,
    /// The level of a multi-level file, chosen as `solve --level` chooses (a part of its name,
    /// a glob, or `=NAME`); a level named exactly PATTERN wins, else one level must match.
    #[arg(long, value_name = "PATTERN")]
    pub level: Option<String>,
    /// The level file (`-`: standard input).
    pub level_path: PathBuf,
    /// The solution in the game's notation, as the CSV's `solution` column holds it (it may
    /// start with `-`); `-` alone: read it from standard input.
    #[arg(allow_hyphen_values = true)]
    pub solution: String,
}

#[derive(Args)]
pub struct ShowArgs {
    /// Force the game.
    #[arg(long)]
    pub game: Option<GameId>,
    /// The level of a multi-level file, chosen as `solve --level` chooses (a part of its name,
    /// a glob, or `=NAME`); a level named exactly PATTERN wins, else one level must match.
    #[arg(long, value_name = "PATTERN")]
    pub level: Option<String>,
    /// Take the solution from the level's solved row in this results CSV.
    #[arg(long, value_name = "CSV", conflicts_with = "solution")]
    pub from: Option<PathBuf>,
    /// Show only the frames of move N (0: the start; Bender: step N).
    #[arg(long, value_name = "N")]
    pub step: Option<u32>,
    /// Write the replay as one looping animated SVG to FILE instead of printing it.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Colours in the terminal: auto (when standard output is a terminal and NO_COLOR is
    /// unset), always or never.
    #[arg(long, value_enum, default_value_t = Colour::Auto)]
    pub color: Colour,
    /// The level file (`-`: standard input).
    pub level_path: PathBuf,
    /// The solution in the game's notation, as the CSV's `solution` column holds it (it may
    /// start with `-`); `-` alone: read it from standard input. Without one, the level is
    /// drawn.
    #[arg(allow_hyphen_values = true)]
    pub solution: Option<String>,
}

/// Whether `show` colours the terminal (`--color`).
#[derive(Clone, Copy, ValueEnum)]
pub enum Colour {
    Auto,
    Always,
    Never,
}

/// A count that must be 1 or more (`--threads`, `--parallel-levels`): 0 would mean nothing
/// the user could want.
pub fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("expected a whole number, 1 or more".into()),
    }
}

/// A level's wall-time budget in seconds (`--timeout`); `None`: no budget.
#[derive(Clone, Copy, Debug)]
pub struct TimeBudget(pub Option<f64>);

/// `--timeout`'s value: seconds, or `0` or `none` for no budget.
pub fn time_budget(text: &str) -> Result<TimeBudget, String> {
    if text.eq_ignore_ascii_case("none") {
        return Ok(TimeBudget(None));
    }
    match text.parse::<f64>() {
        Ok(0.0) => Ok(TimeBudget(None)),
        Ok(t) if t.is_finite() && t > 0.0 => Ok(TimeBudget(Some(t))),
        _ => Err("expected a number of seconds, or 0 or `none` for no budget".into()),
    }
}
