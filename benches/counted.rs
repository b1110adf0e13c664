//! Counted benchmarks: a fixed set of one-thread searches whose instructions
//! `scripts/count.sh` counts under Valgrind (cachegrind), for `scripts/regression-check.sh`.
//!
//! An instruction count is the same from run to run on a busy machine, where wall time is not.
//! So every benchmark here is deterministic: one thread (a rayon pool of its own), limits in
//! states and candidates only (never time), the library called directly (no monitor thread,
//! whose ticks would make the count depend on wall time). Together they run every game's
//! successor generator and every search: BFS, bidirectional BFS, A*, the ordered A*, the beams,
//! the visited set, the arena and path rebuilding (then each solution is replayed by the
//! game's checker, as `solve` does).
//!
//!   counted --list     the benchmarks' names, one a line, each with what it covers
//!   counted NAME       runs one, and prints its answer and states on one line (no commas:
//!                      a CSV field as it is)
//!
//! `cargo bench --bench counted -- NAME` runs one natively; a plain `cargo bench` runs none.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use frontier::engine::beam;
use frontier::engine::control::Limits;
use frontier::engine::{Layout, MoveBudget, SearchControl, SearchOutcome, Space, Stored};
use frontier::games::bender4::search::{self, Budget};
use frontier::games::bender4::space::PushSpace;
use frontier::games::bender4::{Bender4, Level};
use frontier::games::ice_tower::board::Numbering;
use frontier::games::ice_tower::level::Puzzle;
use frontier::games::ice_tower::space::IceSpace;
use frontier::games::ice_tower::{IceTower, key_layout};
use frontier::games::{Answer, Game, Source};
use frontier::harness::discover::discover;
use frontier::harness::load_tasks;
use frontier::harness::results::Status;
use frontier::search::{astar, bfs};

/// The binary's allocator, so that the instructions counted are the ones `frontier` runs.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Bench {
    name: &'static str,
    /// The game, the searches and the parts of the engine it runs.
    covers: &'static str,
    /// Runs it and says what it found (answer and states), for comparing builds.
    run: fn() -> String,
}

const BENCHES: &[Bench] = &[
    Bench {
        name: "engine-bfs",
        covers: "engine: BFS over a lattice of cheap moves: visited set, arena, layers, both path rebuilds",
        run: engine_bfs,
    },
    Bench {
        name: "golf-peaks-official",
        covers: "golf-peaks: play tables, BFS, parent links; all 121 official levels",
        run: || solve_all("corpora/official/golf-peaks"),
    },
    Bench {
        name: "sliding-bidirectional",
        covers: "sliding-blocks: bidirectional BFS, reversible path rebuild; Jewel Swap, The Time Machine",
        run: || {
            let file = "corpora/official/sliding-blocks/layton-puzzles.tsv";
            format!(
                "{} {}",
                solve_one(file, "🎩 Jewel Swap", None),
                solve_one(file, "🎩 The Time Machine", Some(TIME_MACHINE_STATES))
            )
        },
    },
    Bench {
        name: "sliding-astar",
        covers: "sliding-blocks: A*, depths modulo 256, reversible path rebuild; Garbage Disposal",
        run: || {
            let file = "corpora/official/sliding-blocks/layton-puzzles.tsv";
            solve_one(file, "🎩 Garbage Disposal", None)
        },
    },
    Bench {
        name: "puzzle-quest-ordered",
        covers: "puzzle-quest: ordered A* (waves by gems left), bound tables, parent links; Goblin",
        run: || solve_one("corpora/official/puzzle-quest", "Goblin", None),
    },
    Bench {
        name: "ice-tower-own",
        covers: "ice-tower: first beam (exact: a BFS), arrow levels' simulator space, unsolvable; own levels",
        run: || solve_all("corpora/ice-tower"),
    },
    Bench {
        name: "ice-tower-astar",
        covers: "ice-tower: first beam (finds none), A* with the bound, parent links; W-21 (capped)",
        run: || {
            let ctl = SearchControl::new(Limits {
                max_states: Some(W21_STATES),
                // No beams after the cap: their budget is time.
                anytime: Some(Duration::ZERO),
                ..Limits::default()
            });
            solve_with("corpora/official/ice-tower", "w21", &ctl)
        },
    },
    Bench {
        name: "ice-tower-anytime",
        covers: "ice-tower: anytime beams of growing width, their paths, bounds; C-99 (capped)",
        run: ice_tower_anytime,
    },
    Bench {
        name: "bender4-program",
        covers: "bender4: plain routes, compression, annealing run by the judge (small budget); own corridor",
        run: bender4_program,
    },
    Bench {
        name: "bender4-pushes",
        covers: "bender4: A* with pushes (u128 states), parent links; official 40-validator10",
        run: bender4_pushes,
    },
];

/// Where The Time Machine's bidirectional search stops (it meets at 756,195): the two sides'
/// layers, at a count a regression cannot move.
const TIME_MACHINE_STATES: u64 = 60_000;
/// Where W-21's A* stops (it proves 21 pushes at 494,897).
const W21_STATES: u64 = 30_000;
/// Where C-99's beams stop: beams 30, 90, 270 and 810 wide, each finding 12 pushes.
const C99_BEAM_STATES: u64 = 8_000;

fn main() -> ExitCode {
    // Cargo passes `--bench` to every bench target it runs; it names nothing here.
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let by_cargo = args.iter().any(|a| a == "--bench");
    args.retain(|a| a != "--bench");
    let bench = match args.as_slice() {
        [flag] if flag == "--list" => {
            for bench in BENCHES {
                println!("{}\t{}", bench.name, bench.covers);
            }
            return ExitCode::SUCCESS;
        }
        [name] => BENCHES.iter().find(|b| b.name == name),
        _ => None,
    };
    match bench {
        Some(bench) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .expect("a one-thread pool");
            println!("{}", pool.install(bench.run));
            ExitCode::SUCCESS
        }
        // A plain `cargo bench` (criterion's options and filters included) runs every bench
        // target: this one has nothing to time, and must not fail the others' run.
        None if by_cargo => {
            eprintln!(
                "counted: counted by scripts/count.sh; `counted --list` names the benchmarks"
            );
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("usage: counted --list | counted NAME (--list names them)");
            ExitCode::from(2)
        }
    }
}

/// A path of the repository the benchmark runs in (cargo runs benches in the package's root,
/// `scripts/count.sh` too), not of the one it was built in: the baselines' build, compiled in a
/// worktree of its own, reads the same levels as this one.
fn repo(relative: &str) -> PathBuf {
    PathBuf::from(relative)
}

/// Solves every level under `path` as `frontier solve` does (each checked), one control each.
fn solve_all(path: &str) -> String {
    let tasks = tasks(path);
    let (mut solved, mut moves, mut states) = (0, 0, 0);
    for task in &tasks {
        let row = task.solve(&SearchControl::unlimited());
        solved += u64::from(row.status == Status::Solved);
        moves += row.moves.unwrap_or(0);
        states += row.states;
    }
    format!(
        "levels={} solved={solved} moves={moves} states={states}",
        tasks.len()
    )
}

/// Solves the level named `name` under `path` as `frontier solve --max-states MAX` does.
fn solve_one(path: &str, name: &str, max_states: Option<u64>) -> String {
    let ctl = SearchControl::new(Limits {
        max_states,
        ..Limits::default()
    });
    solve_with(path, name, &ctl)
}

/// Solves the level named `name` under `path` under `ctl`, as `frontier solve` does (checked).
fn solve_with(path: &str, name: &str, ctl: &SearchControl) -> String {
    let task = tasks(path)
        .into_iter()
        .find(|t| t.name() == name)
        .unwrap_or_else(|| panic!("no level {name:?} under {path}"));
    let row = task.solve(ctl);
    format!(
        "status={:?} moves={} score={} states={} expanded={}",
        row.status,
        row.moves.unwrap_or(0),
        row.score.unwrap_or(0),
        row.states,
        row.expanded
    )
}

fn tasks(path: &str) -> Vec<Box<dyn frontier::harness::registry::LevelTask>> {
    let found = discover(&[repo(path)], None).expect("the levels are in the repository");
    load_tasks(&found.files).expect("every game is known")
}

/// C-99's beams as `solve` runs them on a level whose A* stopped at a limit (there from 3,000
/// wide), narrower, and stopped by a state count instead of the time budget.
fn ice_tower_anytime() -> String {
    let path = repo("corpora/official/ice-tower/qits.txt");
    let text = std::fs::read_to_string(&path).expect("the official Ice Tower set");
    let source = Source {
        path: &path,
        stem: "qits",
        text: &text,
    };
    let puzzle: Puzzle = IceTower::parse(&source)
        .into_iter()
        .find(|e| e.name == "c99")
        .and_then(|e| e.level.ok())
        .expect("C-99 parses");
    // The sizes `IceTower::solve` picks for C-99: board and key words.
    let words = (
        Numbering::new(&puzzle.grid).words(),
        key_layout(&puzzle).words(),
    );
    assert_eq!(words, (2, 2), "C-99's board and key words changed");
    let space = IceSpace::<2, 2>::new(&puzzle);
    let ctl = SearchControl::new(Limits {
        max_states: Some(C99_BEAM_STATES),
        ..Limits::default()
    });
    // No time budget: the beams end when the states do.
    let best = beam::anytime(&space, 30, 0, None, Duration::MAX, &ctl);
    let pushes = match best {
        Some((path, _)) => space.pushes_of(&path).len(),
        None => 0,
    };
    format!(
        "best={pushes} states={} expanded={}",
        ctl.progress.states(),
        ctl.progress.expanded()
    )
}

fn bender4_level(path: &str) -> Level {
    let text = std::fs::read_to_string(repo(path)).expect("the Bender map");
    Level::parse_text(&text).expect("a valid map")
}

/// The program search of a map without balls to push, on the tests' smaller budget (the
/// default's runs five times as many candidates, over a billion instructions here), checked.
fn bender4_program() -> String {
    let level = bender4_level("corpora/bender4/corridor.txt");
    let ctl = SearchControl::unlimited();
    match search::solve(&level.board, &ctl, &Budget::small()) {
        Answer::Solved {
            moves,
            score,
            solution,
            ..
        } => {
            let verdict = Bender4::check(&level, &solution).expect("the program wins");
            assert_eq!((verdict.moves, verdict.score), (moves, score));
            format!(
                "moves={moves} score={score} states={}",
                ctl.progress.states()
            )
        }
        other => panic!("{other:?}"),
    }
}

/// The shortest routes with pushes of maps with balls: the engine's A* over `PushSpace`.
fn bender4_pushes() -> String {
    let mut found = Vec::new();
    for map in ["24-test19", "40-validator10", "53-validator23"] {
        let level = bender4_level(&format!("corpora/official/bender4/{map}.txt"));
        let space = PushSpace::new(&level.board, 1).expect("a map with balls");
        let ctl = SearchControl::unlimited();
        match astar(&space, &ctl) {
            SearchOutcome::Found(path) => found.push(format!(
                "{map}: moves={} states={} expanded={}",
                space.moves(&path).len(),
                ctl.progress.states(),
                ctl.progress.expanded()
            )),
            other => panic!("{other:?}"),
        }
    }
    found.join(" ")
}

/// A square of cells, four moves from each: its successors cost a few instructions, so nearly
/// all of a search of it is the engine's own work (the visited set above all), which the games'
/// benchmarks dilute (an extra hash per insert adds 0.2-1.5% to them).
struct Lattice {
    side: u64,
    /// Whether paths are rebuilt without parent links (`Visited::path_to`) or from them.
    reversible: bool,
}

impl Space for Lattice {
    /// The column in the high half, the row in the low half.
    type State = u64;

    fn start(&self) -> u64 {
        0
    }

    fn successors(&self, state: &u64, out: &mut Vec<u64>) {
        let (x, y) = (state >> 32, state & u64::from(u32::MAX));
        if x > 0 {
            out.push(state - (1 << 32));
        }
        if x + 1 < self.side {
            out.push(state + (1 << 32));
        }
        if y > 0 {
            out.push(state - 1);
        }
        if y + 1 < self.side {
            out.push(state + 1);
        }
    }

    fn is_goal(&self, state: &u64) -> bool {
        *state == ((self.side - 1) << 32 | (self.side - 1))
    }
}

impl Stored for Lattice {
    fn layout(&self) -> Layout {
        Layout {
            reversible: self.reversible,
            ..Layout::plain::<u64>()
        }
    }
}

impl MoveBudget for Lattice {}

/// States `0..n`, moves `s -> 4s + k mod n` for `k` in `0..4`: layers grow fourfold, so a BFS
/// of it is a few wide layers (the lattice's are hundreds of narrow ones, where the work per
/// layer weighs), and every state is met four times.
struct Spread {
    n: u64,
}

impl Space for Spread {
    type State = u64;

    fn start(&self) -> u64 {
        0
    }

    fn successors(&self, state: &u64, out: &mut Vec<u64>) {
        out.extend((0..4).map(|k| (state * 4 + k) % self.n));
    }

    fn is_goal(&self, state: &u64) -> bool {
        *state == self.n - 1
    }
}

impl Stored for Spread {}

impl MoveBudget for Spread {}

/// BFS from one corner of a 200 x 200 lattice to the other (the goal's layer is the last), with
/// and without parent links, then across the 200,003 states of [`Spread`] (n - 1 is in its last
/// layer).
fn engine_bfs() -> String {
    let mut found = Vec::new();
    let mut record = |outcome: SearchOutcome<u64>, what: &str, ctl: &SearchControl| match outcome {
        SearchOutcome::Found(path) => found.push(format!(
            "{what}: moves={} states={}",
            path.len() - 1,
            ctl.progress.states()
        )),
        other => panic!("{other:?}"),
    };
    for reversible in [true, false] {
        let space = Lattice {
            side: 200,
            reversible,
        };
        let ctl = SearchControl::unlimited();
        record(
            bfs(&space, &ctl),
            &format!("lattice reversible={reversible}"),
            &ctl,
        );
    }
    let ctl = SearchControl::unlimited();
    record(bfs(&Spread { n: 200_003 }, &ctl), "spread", &ctl);
    found.join(" ")
}
