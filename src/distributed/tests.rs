//! The distributed searches against the local engine's on the same spaces: the same outcome
//! kind, path length, `states` and `expanded`, for one worker, several workers in one process,
//! and two processes connected over TCP on localhost (two clusters of this test process, each
//! on its own threads, talking through timely's network layer as separate processes would).

use std::net::TcpListener;
use std::time::Duration;

use super::{Cluster, Hosts, astar, bfs, bidirectional};
use crate::engine::control::Limits;
use crate::engine::testing::{EightPuzzle, HARDEST, SOLVED, checked_length};
use crate::engine::{
    self, Bounded, Heuristic, Limit, MoveBudget, SearchControl, SearchOutcome, Space, Stored,
};

/// Clusters that act as one: a single process, or the processes of a localhost cluster.
struct Setup {
    name: String,
    clusters: Vec<Cluster>,
}

impl Setup {
    fn local(workers: usize) -> Setup {
        Setup {
            name: format!("1 process x {workers} workers"),
            clusters: vec![Cluster::local(workers).expect("a local cluster")],
        }
    }

    fn localhost(processes: usize, workers: usize) -> Setup {
        let clusters =
            Cluster::localhost(processes, workers).expect("processes on localhost connect");
        Setup {
            name: format!("{processes} processes x {workers} workers"),
            clusters,
        }
    }

    /// Runs `search` on every process at once, each with its own control made by `ctl`;
    /// returns each process's outcome and statistics.
    fn run<R: Send>(
        &self,
        ctl: impl Fn() -> SearchControl + Sync,
        search: impl Fn(&Cluster, &SearchControl) -> R + Sync,
    ) -> Vec<(R, engine::SearchStats)> {
        std::thread::scope(|scope| {
            let runs: Vec<_> = self
                .clusters
                .iter()
                .map(|cluster| {
                    let (ctl, search) = (&ctl, &search);
                    scope.spawn(move || {
                        let ctl = ctl();
                        (search(cluster, &ctl), ctl.progress.stats())
                    })
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        })
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        // The processes of a cluster end the run and close their connections together.
        std::thread::scope(|scope| {
            for cluster in self.clusters.drain(..) {
                scope.spawn(move || {
                    cluster.finish().expect("every process reaches the end");
                    drop(cluster)
                });
            }
        });
    }
}

fn setups() -> Vec<Setup> {
    vec![
        Setup::local(1),
        Setup::local(3),
        Setup::localhost(2, 1),
        Setup::localhost(2, 2),
    ]
}

/// The outcome's kind and path length (paths differ among equally short ones).
fn shape<S>(outcome: &SearchOutcome<S>) -> (String, usize) {
    match outcome {
        SearchOutcome::Found(path) => ("found".into(), path.len()),
        SearchOutcome::Exhausted => ("exhausted".into(), 0),
        SearchOutcome::Stopped(limit) => (format!("{limit}"), 0),
    }
}

type Local = fn(&EightPuzzle, &SearchControl) -> SearchOutcome<u64>;

/// Checks every setup against the local engine on `space` with `limits`.
fn same_as_local(
    space: &EightPuzzle,
    limits: Limits,
    local: impl Fn(&EightPuzzle, &SearchControl) -> SearchOutcome<u64>,
    distributed: impl Fn(&Cluster, &EightPuzzle, &SearchControl) -> SearchOutcome<u64> + Sync,
) {
    let ctl = SearchControl::new(limits);
    let expected = local(space, &ctl);
    let expected_stats = ctl.progress.stats();
    if let SearchOutcome::Found(path) = &expected {
        checked_length(space, path);
    }
    for setup in setups() {
        for (outcome, stats) in setup.run(
            || SearchControl::new(limits),
            |c, ctl| distributed(c, space, ctl),
        ) {
            assert_eq!(shape(&outcome), shape(&expected), "{}", setup.name);
            if let SearchOutcome::Found(path) = &outcome {
                checked_length(space, path);
            }
            assert_eq!(
                (stats.states, stats.expanded),
                (expected_stats.states, expected_stats.expanded),
                "{}: states, expanded",
                setup.name
            );
            assert!(stats.peak_bytes > 0, "{}", setup.name);
        }
    }
}

#[test]
fn bfs_finds_the_optimum_with_the_engines_counts() {
    let space = EightPuzzle::new(HARDEST, false);
    same_as_local(&space, Limits::default(), engine::bfs::bfs, bfs);
}

#[test]
fn astar_finds_the_optimum_with_the_engines_counts() {
    let space = EightPuzzle::new(HARDEST, true);
    same_as_local(&space, Limits::default(), engine::astar::astar, astar);
}

/// [`engine::astar::in_rounds`] on `space`, each round a local A* or (`cluster`) a
/// distributed one.
fn rounds<P: Heuristic<State = u64> + MoveBudget>(
    cluster: Option<&Cluster>,
    space: &P,
    plain_states: u64,
    ctl: &SearchControl,
) -> SearchOutcome<u64> {
    engine::astar::in_rounds(space, ctl, plain_states, |round, ctl| match cluster {
        None => engine::astar::astar(round, ctl),
        Some(cluster) => astar(cluster, round, ctl),
    })
}

/// [`rounds`] under a move budget (`None`: the space's own).
fn rounds_within(
    cluster: Option<&Cluster>,
    space: &EightPuzzle,
    budget: Option<u32>,
    plain_states: u64,
    ctl: &SearchControl,
) -> SearchOutcome<u64> {
    match budget {
        None => rounds(cluster, space, plain_states, ctl),
        Some(max_depth) => rounds(cluster, &Bounded { space, max_depth }, plain_states, ctl),
    }
}

#[test]
fn astar_in_rounds_matches_the_engine_round_for_round() {
    // Rounds from the start's bound; after a plain A* that its cap stops; below the optimum
    // (31 moves), where every round ends and the last proves the bound; and without a budget
    // on the unsolvable half of the positions, where the rounds end only once a whole round,
    // on every worker, dropped nothing for its budget.
    let hardest = EightPuzzle::new(HARDEST, true);
    let mut swapped = SOLVED;
    swapped.swap(0, 1);
    let unsolvable = EightPuzzle::new(swapped, true);
    for (space, budget, plain_states) in [
        (&hardest, Some(45), 0),
        (&hardest, Some(45), 1_000),
        (&hardest, Some(30), 0),
        (&unsolvable, None, 0),
    ] {
        same_as_local(
            space,
            Limits::default(),
            |s, c| rounds_within(None, s, budget, plain_states, c),
            |cl, s, c| rounds_within(Some(cl), s, budget, plain_states, c),
        );
    }
}

#[test]
fn bidirectional_search_finds_the_optimum_with_the_engines_counts() {
    let space = EightPuzzle::new(HARDEST, false);
    same_as_local(
        &space,
        Limits::default(),
        |s, c| engine::bidirectional::bidirectional(s, s.goal, c),
        |cl, s, c| bidirectional(cl, s, s.goal, c),
    );
}

#[test]
fn exhausted_spaces_and_state_limits_match_the_engine() {
    // Two tiles swapped: the other half of the permutations, none of them solved.
    let mut unsolvable = SOLVED;
    unsolvable.swap(0, 1);
    let space = EightPuzzle::new(unsolvable, true);
    let bfs_local: Local = engine::bfs::bfs;
    let astar_local: Local = engine::astar::astar;
    same_as_local(&space, Limits::default(), bfs_local, bfs);
    same_as_local(&space, Limits::default(), astar_local, astar);
    let limits = Limits {
        max_states: Some(5_000),
        ..Limits::default()
    };
    same_as_local(&space, limits, bfs_local, bfs);
    same_as_local(&space, limits, astar_local, astar);
    // The goal is unreachable: both sides of the bidirectional search run dry.
    same_as_local(
        &space,
        Limits::default(),
        |s, c| engine::bidirectional::bidirectional(s, s.goal, c),
        |cl, s, c| bidirectional(cl, s, s.goal, c),
    );
}

/// A space without reverse moves, with dead states and a move budget: paths are rebuilt from
/// parent links alone, and dead states are never sent.
struct OneWay {
    max_depth: Option<u32>,
}

const MODULUS: u64 = 1_000_003;

impl Space for OneWay {
    type State = u64;

    fn start(&self) -> u64 {
        1
    }

    fn successors(&self, state: &u64, out: &mut Vec<u64>) {
        out.extend([
            (state * 3 + 1) % MODULUS,
            (state * 7) % MODULUS,
            (state + 11) % MODULUS,
        ]);
    }

    fn is_goal(&self, state: &u64) -> bool {
        *state == 4_242
    }
}

impl Stored for OneWay {}

impl Heuristic for OneWay {
    fn heuristic(&self, state: &u64) -> Option<u32> {
        // Dead: a sixth of the states; else no information.
        (state % 6 != 5).then_some(0)
    }
}

impl MoveBudget for OneWay {
    fn max_depth(&self) -> Option<u32> {
        self.max_depth
    }
}

#[test]
fn one_way_spaces_with_dead_states_and_budgets_match_the_engine() {
    for max_depth in [None, Some(6)] {
        let space = OneWay { max_depth };
        let local_bfs = {
            let ctl = SearchControl::unlimited();
            (
                shape(&engine::bfs::bfs(&space, &ctl)),
                ctl.progress.states(),
            )
        };
        let local_astar = {
            let ctl = SearchControl::unlimited();
            (
                shape(&engine::astar::astar(&space, &ctl)),
                ctl.progress.states(),
            )
        };
        for setup in setups() {
            let bfs_runs = setup.run(SearchControl::unlimited, |c, ctl| {
                shape(&bfs(c, &space, ctl))
            });
            for (bfs_shape, stats) in bfs_runs {
                assert_eq!(
                    (bfs_shape, stats.states),
                    local_bfs,
                    "{} bfs {max_depth:?}",
                    setup.name
                );
            }
            let astar_runs = setup.run(SearchControl::unlimited, |c, ctl| {
                shape(&astar(c, &space, ctl))
            });
            for (astar_shape, stats) in astar_runs {
                assert_eq!(
                    (astar_shape, stats.states),
                    local_astar,
                    "{} astar {max_depth:?}",
                    setup.name
                );
            }
        }
    }
}

#[test]
fn a_limit_hit_by_one_process_stops_every_process_with_it() {
    let setup = Setup::localhost(2, 1);
    let space = EightPuzzle::new(HARDEST, false);
    // Process 0's control is stopped from outside (a memory guard would do this); process 1's
    // is not, yet stops with the same limit.
    let runs = setup.run(SearchControl::unlimited, |cluster, ctl| {
        if cluster.process() == 0 {
            ctl.stop.request(Limit::Memory(1 << 20));
        }
        bfs(cluster, &space, ctl)
    });
    for (outcome, _) in runs {
        assert_eq!(outcome, SearchOutcome::Stopped(Limit::Memory(1 << 20)));
    }
}

#[test]
fn processes_with_other_options_or_workers_are_refused_by_name() {
    let free = || {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("127.0.0.1:{}", listener.local_addr().unwrap().port())
    };
    let addresses = vec![free(), free()];
    let errors: Vec<String> = std::thread::scope(|scope| {
        let connecting: Vec<_> = [(0, 1, 7), (1, 2, 7)]
            .into_iter()
            .map(|(process, workers, fingerprint)| {
                let hosts = Hosts {
                    addresses: addresses.clone(),
                    process,
                };
                scope.spawn(move || {
                    Cluster::connect(&hosts, workers, fingerprint, Duration::from_secs(10)).err()
                })
            })
            .collect();
        connecting
            .into_iter()
            .map(|c| c.join().unwrap().expect("refused"))
            .collect()
    });
    assert!(
        errors[0].contains("process 1") && errors[0].contains("--workers"),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].contains("process 0") && errors[1].contains("--workers"),
        "{}",
        errors[1]
    );
}

#[test]
fn a_missing_process_is_named_after_the_timeout() {
    let free = TcpListener::bind("127.0.0.1:0").unwrap();
    let missing = format!("127.0.0.1:{}", free.local_addr().unwrap().port());
    drop(free);
    let mine = TcpListener::bind("127.0.0.1:0").unwrap();
    let me = format!("127.0.0.1:{}", mine.local_addr().unwrap().port());
    drop(mine);
    let hosts = Hosts {
        addresses: vec![missing.clone(), me],
        process: 1,
    };
    let started = std::time::Instant::now();
    let error = Cluster::connect(&hosts, 1, 0, Duration::from_millis(500)).expect_err("no peer");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(error.contains(&format!("process 0 ({missing})")), "{error}");
}
