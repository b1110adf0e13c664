//! The distributed backend end to end: levels of every game solved on a cluster give the local
//! engine's answers and counts (one worker, two workers in one process, two processes), two
//! processes of the binary on localhost answer as one, and a lost or missing process ends the
//! run promptly with its name.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::sync::Arc;
use std::time::Duration;

use common::{binary, hostfile, scratch, str, wait_for};
use frontier::distributed::Cluster;
use frontier::engine::SearchControl;
use frontier::engine::control::{Backend, Limits};
use frontier::games::puzzle_quest::space::{CaptureSpace, Reductions};
use frontier::games::puzzle_quest::{Level, level};
use frontier::games::{GameId, Source};
use frontier::harness::discover::discover;
use frontier::harness::load_tasks;
use frontier::harness::registry::LevelTask;
use frontier::harness::results::{Row, parse_csv};

/// One or two levels of every game from the repository's own corpora, searched by BFS,
/// bidirectional BFS, A* and ordered A*, solved and unsolvable.
fn own_levels() -> Vec<PathBuf> {
    [
        "sliding-blocks/klotski.txt",
        "sliding-blocks/small-cases.tsv",
        "golf-peaks/springs-slopes-sand.txt",
        "golf-peaks/unsolvable.txt",
        "puzzle-quest/authored-boards.txt",
        "ice-tower/combined.txt",
        "bender4/push-onto-switch.txt",
    ]
    .iter()
    .map(|p| common::own(p))
    .collect()
}

fn tasks(paths: &[PathBuf]) -> Vec<Box<dyn LevelTask>> {
    load_tasks(&discover(paths, None).expect("the levels are found").files).expect("they load")
}

/// The processes of one cluster, as clusters of this test process, each used from its own
/// threads as a separate process would.
struct Processes(Vec<Arc<Cluster>>);

impl Processes {
    fn local(workers: usize) -> Processes {
        Processes(vec![Arc::new(Cluster::local(workers).unwrap())])
    }

    fn localhost(processes: usize) -> Processes {
        let clusters = Cluster::localhost(processes, 1).expect("processes on localhost connect");
        Processes(clusters.into_iter().map(Arc::new).collect())
    }

    /// Every process solves every task in order; the rows of process 0.
    fn solve(&self, tasks: &[Box<dyn LevelTask>]) -> Vec<Row> {
        std::thread::scope(|scope| {
            let runs: Vec<_> = self
                .0
                .iter()
                .map(|cluster| {
                    scope.spawn(move || {
                        tasks
                            .iter()
                            .map(|task| {
                                let ctl = SearchControl::new(Limits::default())
                                    .on_backend(Some(Arc::clone(cluster) as Arc<dyn Backend>));
                                task.solve(&ctl)
                            })
                            .collect::<Vec<Row>>()
                    })
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).next().unwrap()
        })
    }
}

impl Drop for Processes {
    fn drop(&mut self) {
        // The processes of a cluster end the run and close their connections together.
        std::thread::scope(|scope| {
            for cluster in self.0.drain(..) {
                scope.spawn(move || {
                    cluster.finish().expect("every process reaches the end");
                    drop(cluster)
                });
            }
        });
    }
}

/// What must not change with the backend: status, moves, optimality, states.
fn answers(rows: &[Row]) -> Vec<String> {
    rows.iter()
        .map(|r| {
            format!(
                "{} {} {} {:?} {} {}",
                r.game, r.level, r.status, r.moves, r.optimal, r.states
            )
        })
        .collect()
}

/// The states of a local plain A* (what the cluster runs for the ordered A*) on each authored
/// capture board.
fn plain_astar_states(boards: &Path) -> Vec<(String, u64)> {
    let text = fs::read_to_string(boards).unwrap();
    let source = Source {
        path: boards,
        stem: "authored-boards",
        text: &text,
    };
    level::parse(&source)
        .into_iter()
        .map(|entry| {
            let board: Level = entry.level.expect("authored boards parse");
            let ctl = SearchControl::unlimited();
            frontier::engine::astar::astar(&CaptureSpace::new(&board, Reductions::default()), &ctl);
            (entry.name, ctl.progress.states())
        })
        .collect()
}

#[test]
fn every_game_answers_on_a_cluster_as_the_local_engine_does() {
    let tasks = tasks(&own_levels());
    let local: Vec<Row> = tasks
        .iter()
        .map(|t| t.solve(&SearchControl::unlimited()))
        .collect();
    // The ordered A* of the capture boards is a plain A* on a cluster: its states are those of
    // a local plain A*.
    let mut expected = local.clone();
    let plain = plain_astar_states(&common::own("puzzle-quest/authored-boards.txt"));
    for row in expected
        .iter_mut()
        .filter(|r| r.game == GameId::PuzzleQuest)
    {
        row.states = plain.iter().find(|(name, _)| *name == row.level).unwrap().1;
    }
    assert!(local.iter().all(|r| r.status.is_decided()));
    for (name, processes) in [
        ("1 worker", Processes::local(1)),
        ("2 workers", Processes::local(2)),
        ("2 processes", Processes::localhost(2)),
    ] {
        let rows = processes.solve(&tasks);
        assert_eq!(answers(&rows), answers(&expected), "{name}");
    }
}

/// Starts process `process` of the cluster of `hosts` on `args` (output captured).
fn start(hosts: &Path, process: usize, args: &[&str]) -> Child {
    binary()
        .args(["solve", "--quiet", "--distributed", "--workers", "1"])
        .args(["--hostfile", str(hosts), "--process", &process.to_string()])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// Runs every process of the cluster of `hosts` on `args`; their outputs in process order.
fn run_cluster(hosts: &Path, processes: usize, args: &[&str]) -> Vec<Output> {
    let children: Vec<Child> = (0..processes).map(|p| start(hosts, p, args)).collect();
    children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect()
}

fn rows(csv: &[u8]) -> Vec<Row> {
    parse_csv(&String::from_utf8_lossy(csv)).expect("a results CSV")
}

#[test]
fn two_processes_of_the_binary_answer_as_one() {
    let dir = scratch("two");
    let (hosts, _) = hostfile(&dir, 2);
    let paths: Vec<PathBuf> = own_levels();
    let paths: Vec<&str> = paths.iter().map(|p| str(p)).collect();
    let one = binary()
        .args([
            "solve",
            "--quiet",
            "--distributed",
            "--workers",
            "1",
            "--out",
            "-",
        ])
        .args(&paths)
        .output()
        .unwrap();
    assert_eq!(
        one.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    let mut args = vec!["--out", "-"];
    args.extend(&paths);
    let two = run_cluster(&hosts, 2, &args);
    for (process, output) in two.iter().enumerate() {
        assert_eq!(
            output.status.code(),
            Some(0),
            "process {process}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    assert_eq!(answers(&rows(&two[0].stdout)), answers(&rows(&one.stdout)));
    assert!(
        two[1].stdout.is_empty(),
        "only process 0 writes the results"
    );
}

#[test]
fn the_official_levels_of_the_issue_match_the_local_run() {
    let dir = scratch("official");
    let (hosts, _) = hostfile(&dir, 2);
    let runs = [
        (
            "sliding-blocks/layton-puzzles.tsv",
            "The Time Machine",
            true,
        ),
        ("ice-tower/qits.txt", "w21", true),
        // An ordered A* locally, a plain A* on the cluster: the same answer, other counts.
        ("puzzle-quest/capture-boards.txt", "Goblin", false),
    ];
    for (file, level, same_states) in runs {
        let path = common::official(file);
        let args = ["--level", level, "--out", "-", str(&path)];
        let local = binary()
            .args(["solve", "--quiet"])
            .args(args)
            .output()
            .unwrap();
        let two = run_cluster(&hosts, 2, &args);
        assert_eq!(
            two[0].status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&two[0].stderr)
        );
        let (local, two) = (rows(&local.stdout), rows(&two[0].stdout));
        assert_eq!(local.len(), 1, "{level}");
        let answer = |r: &Row| (r.status, r.moves, r.optimal);
        assert_eq!(answer(&two[0]), answer(&local[0]), "{level}");
        if same_states {
            assert_eq!(two[0].states, local[0].states, "{level}");
        }
    }
}

/// A level no search finishes soon: the 15-puzzle turned around, searched from both ends.
fn endless_level(dir: &Path) -> PathBuf {
    let levels = dir.join("sliding-blocks");
    fs::create_dir_all(&levels).unwrap();
    fs::write(levels.join("1-quick.txt"), "A..\n\n..A\n").unwrap();
    fs::write(
        levels.join("2-fifteen.txt"),
        "ABCD\nEFGH\nIJKL\nMNO.\n\n.ONM\nLKJI\nHGFE\nDCBA\n",
    )
    .unwrap();
    levels
}

#[test]
fn a_killed_process_ends_the_others_with_its_name() {
    for killed in [1, 0] {
        let dir = scratch(&format!("kill{killed}"));
        let levels = endless_level(&dir);
        let (hosts, addresses) = hostfile(&dir, 2);
        let out = dir.join("out.csv");
        let args = [
            "--max-states",
            "20000000",
            "--timeout",
            "60",
            "--out",
            str(&out),
            str(&levels),
        ];
        let mut children: Vec<Child> = (0..2).map(|p| start(&hosts, p, &args)).collect();
        // Both are connected and searching the endless level well before this.
        std::thread::sleep(Duration::from_millis(1500));
        let mut victim = children.remove(killed);
        victim.kill().unwrap();
        victim.wait().unwrap();
        let survivor = children.remove(0);
        let (output, took) = wait_for(survivor, Duration::from_secs(30));
        let message = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{message}");
        let lost = format!("lost process {killed} ({})", addresses[killed]);
        assert!(message.contains(&lost), "{message}");
        assert!(took < Duration::from_secs(30));
        if killed == 1 {
            // Process 0 wrote the level finished before, and the one cut short as an error.
            let rows = rows(&fs::read(&out).unwrap());
            assert_eq!(rows.len(), 2, "{rows:?}");
            assert_eq!(
                (rows[0].level.as_str(), rows[0].moves),
                ("1-quick", Some(1))
            );
            assert_eq!(rows[1].level, "2-fifteen");
            assert!(rows[1].note.contains(&lost), "{}", rows[1].note);
        } else {
            // Only process 0 writes results: the header it wrote at the start, before it was
            // killed, and nothing from the survivor.
            let written = fs::read(&out).map(|csv| rows(&csv)).unwrap_or_default();
            assert!(written.is_empty(), "{written:?}");
        }
    }
}

#[test]
fn an_interrupt_of_one_process_interrupts_them_all() {
    let dir = scratch("interrupt");
    let levels = endless_level(&dir);
    let (hosts, _) = hostfile(&dir, 2);
    let out = dir.join("out.csv");
    let args = ["--timeout", "60", "--out", str(&out), str(&levels)];
    let children: Vec<Child> = (0..2).map(|p| start(&hosts, p, &args)).collect();
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: `kill` on a child's process id, which is ours until we wait for it.
    assert_eq!(
        unsafe { libc::kill(children[1].id() as i32, libc::SIGINT) },
        0
    );
    for (process, child) in children.into_iter().enumerate() {
        let (output, _) = wait_for(child, Duration::from_secs(30));
        let message = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(130),
            "process {process}: {message}"
        );
    }
    let rows = rows(&fs::read(&out).unwrap());
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[0].moves, Some(1));
    assert!(
        rows[1].limit.is_some_and(|limit| limit.is_interrupt()),
        "{}",
        rows[1].detail()
    );
}

#[test]
fn a_process_that_never_comes_is_named_after_the_connect_timeout() {
    let dir = scratch("alone");
    let (hosts, addresses) = hostfile(&dir, 2);
    let out = dir.join("out.csv");
    let level = common::own("sliding-blocks/donut.txt");
    let alone = start(
        &hosts,
        0,
        &["--connect-timeout", "1", "--out", str(&out), str(&level)],
    );
    let (output, took) = wait_for(alone, Duration::from_secs(20));
    let message = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(
        message.contains(&format!("process 1 ({})", addresses[1])),
        "{message}"
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert!(!out.exists());
}

#[test]
fn processes_given_other_options_refuse_each_other() {
    let dir = scratch("options");
    let (hosts, _) = hostfile(&dir, 2);
    let level = common::own("sliding-blocks/donut.txt");
    let children = [
        start(
            &hosts,
            0,
            &["--max-states", "100", "--out", "-", str(&level)],
        ),
        start(
            &hosts,
            1,
            &["--max-states", "200", "--out", "-", str(&level)],
        ),
    ];
    for (process, child) in children.into_iter().enumerate() {
        let (output, _) = wait_for(child, Duration::from_secs(20));
        let message = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(1),
            "process {process}: {message}"
        );
        assert!(message.contains("other levels or options"), "{message}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn distributed_options_are_checked() {
    let level = common::own("sliding-blocks/donut.txt");
    for args in [
        vec!["--workers", "2"],
        vec!["--distributed", "--hostfile", "hosts"],
        vec!["--distributed", "--parallel-levels", "2"],
    ] {
        let output = binary()
            .args(["solve", "--quiet", "--out", "-"])
            .args(&args)
            .arg(str(&level))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
    let dir = scratch("hostfile");
    let bad = dir.join("hosts");
    fs::write(&bad, "127.0.0.1:4100\nnot an address\n").unwrap();
    let output = binary()
        .args([
            "solve",
            "--quiet",
            "--distributed",
            "--process",
            "0",
            "--hostfile",
            str(&bad),
        ])
        .arg(str(&level))
        .output()
        .unwrap();
    let message = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(
        message.contains(&format!("{}:2: expected one `host:port`", bad.display())),
        "{message}"
    );
}
