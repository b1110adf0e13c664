//! `frontier generate sliding-blocks` against an independent brute force: every arrangement of
//! a small board is a start, solved by a plain BFS of its own (own arrangements, own moves, own
//! goal test), and the hardest start per piece count must be what `generate` reports. Also
//! the generated rows re-proven by `solve`, Bickford's bandaged 15-puzzle (131 moves), runs
//! that stop and go on from their journal, and runs on a cluster (`--distributed`), which must
//! write the table of a local run.

mod common;

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{binary, hostfile, scratch, str, text, wait_for};
use frontier::distributed::{self, Cluster};
use frontier::engine::control::Limits;
use frontier::games::sliding_blocks::generate::{Board, Goal};
use frontier::harness::generate::{
    GenerateError, GenerateOptions, Record, UNIT_CLASSES, generate, to_tsv,
};
use frontier::harness::results::Status;
use frontier::harness::solve_paths;

/// A position: the goal piece's cells and the other pieces' cells, sorted (equal shapes are
/// interchangeable, so only the set of masks matters).
#[derive(Clone, PartialEq, Eq, Hash)]
struct Position {
    goal: u64,
    others: Vec<u64>,
}

struct Brute {
    width: usize,
    height: usize,
}

impl Brute {
    fn cells(&self) -> usize {
        self.width * self.height
    }

    fn connected(&self, mask: u64) -> bool {
        let first = mask.trailing_zeros() as usize;
        let mut seen = 1u64 << first;
        let mut stack = vec![first];
        while let Some(c) = stack.pop() {
            let (r, col) = (c / self.width, c % self.width);
            let mut next = Vec::new();
            if r > 0 {
                next.push(c - self.width);
            }
            if r + 1 < self.height {
                next.push(c + self.width);
            }
            if col > 0 {
                next.push(c - 1);
            }
            if col + 1 < self.width {
                next.push(c + 1);
            }
            for n in next {
                if mask >> n & 1 == 1 && seen >> n & 1 == 0 {
                    seen |= 1 << n;
                    stack.push(n);
                }
            }
        }
        seen == mask
    }

    /// Every arrangement: each cell empty or in a piece; pieces labelled in order of first
    /// cell (a restricted growth string), kept when every piece is connected.
    fn arrangements(&self) -> Vec<Vec<u64>> {
        fn assign(brute: &Brute, cell: usize, pieces: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
            if cell == brute.cells() {
                if pieces.iter().all(|&p| brute.connected(p)) {
                    out.push(pieces.clone());
                }
                return;
            }
            assign(brute, cell + 1, pieces, out);
            for i in 0..pieces.len() {
                pieces[i] |= 1 << cell;
                assign(brute, cell + 1, pieces, out);
                pieces[i] &= !(1 << cell);
            }
            pieces.push(1 << cell);
            assign(brute, cell + 1, pieces, out);
            pieces.pop();
        }
        let mut out = Vec::new();
        assign(self, 0, &mut Vec::new(), &mut out);
        out
    }

    /// `mask` moved one step (`None` off the board).
    fn step(&self, mask: u64, dir: usize) -> Option<u64> {
        let mut moved = 0;
        for c in (0..self.cells()).filter(|c| mask >> c & 1 == 1) {
            let (r, col) = (c / self.width, c % self.width);
            let to = match dir {
                0 if r > 0 => c - self.width,
                1 if r + 1 < self.height => c + self.width,
                2 if col > 0 => c - 1,
                3 if col + 1 < self.width => c + 1,
                _ => return None,
            };
            moved |= 1 << to;
        }
        Some(moved)
    }

    /// Every place one piece reaches by unit steps among the others.
    fn reach(&self, piece: u64, blocked: u64) -> Vec<u64> {
        let mut seen = HashSet::from([piece]);
        let mut queue = VecDeque::from([piece]);
        while let Some(p) = queue.pop_front() {
            for dir in 0..4 {
                if let Some(q) = self.step(p, dir)
                    && q & blocked == 0
                    && seen.insert(q)
                {
                    queue.push_back(q);
                }
            }
        }
        seen.remove(&piece);
        seen.into_iter().collect()
    }

    fn neighbours(&self, p: &Position) -> Vec<Position> {
        let all = p.others.iter().fold(p.goal, |a, &m| a | m);
        let mut out = Vec::new();
        for to in self.reach(p.goal, all & !p.goal) {
            out.push(Position {
                goal: to,
                others: p.others.clone(),
            });
        }
        for (i, &m) in p.others.iter().enumerate() {
            for to in self.reach(m, all & !m) {
                let mut others = p.others.clone();
                others[i] = to;
                others.sort_unstable();
                out.push(Position {
                    goal: p.goal,
                    others,
                });
            }
        }
        out
    }

    /// The fewest moves until the goal piece covers the lower-right cell.
    fn solve(&self, start: Position) -> Option<u32> {
        let corner = 1u64 << (self.cells() - 1);
        let mut seen = HashSet::from([start.clone()]);
        let mut layer = vec![start];
        for depth in 0.. {
            if layer.iter().any(|p| p.goal & corner != 0) {
                return Some(depth);
            }
            let mut next = Vec::new();
            for p in &layer {
                for n in self.neighbours(p) {
                    if seen.insert(n.clone()) {
                        next.push(n);
                    }
                }
            }
            if next.is_empty() {
                return None;
            }
            layer = next;
        }
        unreachable!()
    }

    /// By piece count: the most moves of a solvable start, and how many solvable starts.
    fn table(&self) -> BTreeMap<usize, (u32, u64)> {
        let mut table = BTreeMap::new();
        for pieces in self.arrangements() {
            let Some(goal) = pieces.iter().copied().find(|p| p & 1 == 1) else {
                continue;
            };
            let mut others: Vec<u64> = pieces.iter().copied().filter(|&p| p != goal).collect();
            others.sort_unstable();
            if let Some(moves) = self.solve(Position { goal, others }) {
                let entry = table.entry(pieces.len()).or_insert((0, 0));
                entry.0 = entry.0.max(moves);
                entry.1 += 1;
            }
        }
        table
    }
}

/// The options of a quiet run of `board` without limits; `journal`: where its journal goes.
fn options(board: &str, goal: Goal, journal: Option<PathBuf>) -> GenerateOptions {
    GenerateOptions {
        board: board.parse().unwrap(),
        pieces: None,
        goal,
        quiet: true,
        memory_budget: None,
        journal,
        any_build: false,
    }
}

fn generated(width: usize, height: usize) -> BTreeMap<usize, (u32, u64)> {
    let board = Board { width, height }.to_string();
    let records = generate(&options(&board, Goal::Cell, None))
        .expect("no limits")
        .records;
    records
        .iter()
        .map(|r| (r.pieces, (r.moves, r.puzzles)))
        .collect()
}

#[test]
fn generate_agrees_with_a_brute_force_on_small_boards() {
    for (width, height) in [(2, 2), (2, 3), (3, 2), (3, 3)] {
        let brute = Brute { width, height }.table();
        assert_eq!(generated(width, height), brute, "{width}x{height}");
    }
}

#[test]
fn generated_puzzles_are_reproven_by_solve() {
    let records = generate(&options("3x3", Goal::Box, None))
        .expect("no limits")
        .records;
    assert_eq!(records.len(), 8);
    let dir = std::env::temp_dir().join(format!("frontier-generate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("3x3.tsv");
    std::fs::write(&path, to_tsv(&records)).unwrap();
    let rows = solve_paths(&[path], None, Limits::default()).expect("the puzzles load");
    std::fs::remove_dir_all(&dir).unwrap();
    for (row, record) in rows.iter().zip(&records) {
        assert_eq!(row.status, Status::Solved, "{}", row.detail());
        assert!(row.optimal);
        assert_eq!(row.moves, Some(u64::from(record.moves)), "{}", record.name);
    }
}

/// The tables committed under `corpora/` (made by `scripts/generate-table.sh`): `solve`
/// proves every row optimal with exactly the moves the row states.
#[test]
fn the_committed_tables_are_reproven_by_solve() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpora/sliding-blocks");
    let mut tables: Vec<PathBuf> = fs::read_dir(&corpus)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("hardest-")
        })
        .collect();
    tables.sort();
    assert!(
        tables.contains(&corpus.join("hardest-4x4.tsv")),
        "{tables:?}"
    );
    for path in tables {
        let stated: Vec<u64> = csv::ReaderBuilder::new()
            .delimiter(b'\t')
            .from_path(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .deserialize::<BTreeMap<String, String>>()
            .map(|row| row.unwrap()["moves"].parse().unwrap())
            .collect();
        assert!(!stated.is_empty(), "{}", path.display());
        let rows = solve_paths(&[path], None, Limits::default()).expect("the table loads");
        assert_eq!(rows.len(), stated.len());
        for (row, moves) in rows.iter().zip(stated) {
            common::assert_solved_optimally(row);
            assert_eq!(row.moves, Some(moves), "{}", row.level);
        }
    }
}

#[test]
fn bickfords_bandaged_fifteen_puzzle_takes_131_moves() {
    let dir = std::env::temp_dir().join(format!("frontier-bandaged-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bandaged.tsv");
    std::fs::write(
        &path,
        "name\tstart\tgoal\nbandaged\tAAEb\\nFcEE\\nFD.g\\n.Dhi\t....\\n....\\n....\\n..AA\n",
    )
    .unwrap();
    let rows = solve_paths(&[path], None, Limits::default()).expect("the puzzle loads");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(rows[0].status, Status::Solved, "{}", rows[0].detail());
    assert_eq!(rows[0].moves, Some(131));
}

#[test]
fn bad_boards_are_refused_with_a_reason() {
    for bad in ["4", "4x", "x4", "0x3", "4x-1", "8x8", "axb"] {
        let err = bad.parse::<Board>().expect_err(bad);
        assert!(err.contains(bad), "{err}");
    }
}

/// What a table answers, which a resumed run must give again: per row its name, start, goal,
/// pieces and moves, and the counts summed over every class (a resumed run searches each class
/// once, in this run or an earlier one).
fn answers(records: &[Record]) -> Vec<String> {
    let tsv = to_tsv(records);
    tsv.lines()
        .map(|line| line.rsplit_once('\t').unwrap().0.to_string())
        .collect()
}

#[test]
fn a_run_resumed_from_part_of_its_journal_gives_the_same_table() {
    let dir = scratch("resume");
    let journal = dir.join("4x4.journal");
    let options = GenerateOptions {
        pieces: Some(3),
        ..options("4x4", Goal::Cell, Some(journal.clone()))
    };
    let whole = generate(&options).unwrap();
    assert_eq!(whole.resumed, 0);
    let text = fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // The header and one record per unit: a goal shape's classes, UNIT_CLASSES at a time.
    let units = lines.len() - 1;
    assert!(
        units as u64 >= whole.classes / UNIT_CLASSES as u64 && units > 10,
        "{units}"
    );
    // A run stopped after a third of its units, killed while writing the next record.
    let kept = units / 3;
    let torn = &lines[kept + 1][..lines[kept + 1].len() / 2];
    fs::write(&journal, format!("{}\n{torn}", lines[..=kept].join("\n"))).unwrap();
    let resumed = generate(&options).unwrap();
    assert!(0 < resumed.resumed && resumed.resumed < whole.classes);
    assert_eq!(answers(&resumed.records), answers(&whole.records));
    // The torn record was dropped and every unit recorded once.
    let text = fs::read_to_string(&journal).unwrap();
    assert_eq!(text.lines().count(), 1 + units);
    let again = generate(&options).unwrap();
    assert_eq!(again.resumed, whole.classes);
    assert_eq!(answers(&again.records), answers(&whole.records));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_journal_of_other_arguments_is_refused() {
    let dir = scratch("refused");
    let journal = dir.join("3x3.journal");
    generate(&options("3x3", Goal::Cell, Some(journal.clone()))).unwrap();
    let before = fs::read_to_string(&journal).unwrap();
    for other in [
        options("3x3", Goal::Box, Some(journal.clone())),
        options("3x2", Goal::Cell, Some(journal.clone())),
    ] {
        match generate(&other) {
            Err(GenerateError::Journal(e)) => assert!(e.contains("belongs to other work"), "{e}"),
            Err(e) => panic!("{e:?}"),
            Ok(_) => panic!("another run's journal was used"),
        }
    }
    assert_eq!(
        fs::read_to_string(&journal).unwrap(),
        before,
        "left as it was"
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// The binary's `generate` of a 4x4 board at `pieces` pieces, quiet, two threads, with `args`.
fn generate_4x4(pieces: &str, args: &[&str]) -> Command {
    let mut command = binary();
    command
        .args([
            "generate",
            "sliding-blocks",
            "--board",
            "4x4",
            "--pieces",
            pieces,
        ])
        .args(["--threads", "2", "--quiet"])
        .args(args);
    command
}

/// Every column of a table but the search's time: name, start, goal, pieces, moves, classes,
/// puzzles, states.
fn columns(tsv: &str) -> Vec<String> {
    tsv.lines()
        .map(|line| line.split('\t').take(8).collect::<Vec<_>>().join("\t"))
        .collect()
}

/// Waits until the journal at `path` holds `units` units.
fn wait_for_units(path: &Path, units: usize) {
    let started = Instant::now();
    while fs::read_to_string(path).map_or(0, |t| t.lines().count()) < units + 1 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no units journaled"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// `frontier generate` killed outright (SIGKILL) part way, then run again with the same
/// arguments: it goes on from its journal and writes the table an uninterrupted run writes.
#[test]
fn generate_killed_outright_goes_on_from_its_journal() {
    let dir = scratch("kill");
    let run = |out: &PathBuf| generate_4x4("4", &["--out", str(out)]);
    let (whole, killed) = (dir.join("whole.tsv"), dir.join("killed.tsv"));
    assert!(run(&whole).status().unwrap().success());
    let journal = dir.join("killed.tsv.journal");
    let mut child = run(&killed).spawn().unwrap();
    // Killed once its journal holds a few units.
    wait_for_units(&journal, 3);
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "killed before it finished");
    assert!(!killed.exists() && journal.exists());
    let output = run(&killed).output().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(!journal.exists(), "removed once the table is written");
    let table = |path: &PathBuf| columns(&fs::read_to_string(path).unwrap());
    assert_eq!(table(&killed), table(&whole));
    fs::remove_dir_all(&dir).unwrap();
}

/// Process `process` of the cluster of `hosts`, generating a 4x4 board at `pieces` pieces with
/// `args` (output captured).
fn start(hosts: &Path, process: usize, pieces: &str, args: &[&str]) -> Child {
    generate_4x4(pieces, args)
        .args(["--distributed", "--hostfile", str(hosts)])
        .args(["--process", &process.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

#[test]
fn two_processes_write_the_table_of_one() {
    let dir = scratch("two");
    let (hosts, _) = hostfile(&dir, 2);
    let local = generate_4x4("3", &["--out", "-"]).output().unwrap();
    assert!(local.status.success(), "{}", text(&local.stderr));
    let children: Vec<Child> = (0..2)
        .map(|p| start(&hosts, p, "3", &["--out", "-"]))
        .collect();
    let two: Vec<_> = children
        .into_iter()
        .map(|c| wait_for(c, Duration::from_secs(120)).0)
        .collect();
    for (process, output) in two.iter().enumerate() {
        let message = text(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(0),
            "process {process}: {message}"
        );
    }
    let table = columns(&text(&two[0].stdout));
    assert!(table.len() > 1, "{table:?}");
    assert_eq!(table, columns(&text(&local.stdout)));
    assert!(two[1].stdout.is_empty(), "only process 0 writes the table");
    fs::remove_dir_all(&dir).unwrap();
}

/// A journal of part of a run, as a run stopped after a third of its units leaves it; the
/// whole run's records, and how many units it has.
fn partial_journal(options: &GenerateOptions, journal: &Path) -> (Vec<Record>, usize) {
    let whole = generate(options).unwrap();
    let text = fs::read_to_string(journal).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let units = lines.len() - 1;
    fs::write(journal, lines[..=units / 3].join("\n") + "\n").unwrap();
    (whole.records, units)
}

#[test]
fn a_cluster_resumed_from_process_0s_journal_gives_the_same_table() {
    let dir = scratch("cluster-resume");
    let journal = dir.join("4x4.journal");
    let options = GenerateOptions {
        pieces: Some(3),
        ..options("4x4", Goal::Cell, Some(journal.clone()))
    };
    let (whole, units) = partial_journal(&options, &journal);
    let clusters = Cluster::localhost(2, 1).expect("processes on localhost connect");
    // Every process given the same options, the journal's path too: only process 0 opens it.
    // Each ends the run and closes its connections in its own thread, as a process would.
    let options = &options;
    let runs: Vec<_> = std::thread::scope(|scope| {
        let runs: Vec<_> = clusters
            .into_iter()
            .map(|cluster| {
                scope.spawn(move || {
                    let generated = distributed::generate::generate(&cluster, options);
                    cluster.finish().expect("every process reaches the end");
                    generated.expect("no limits")
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    assert!(0 < runs[0].resumed, "{}", runs[0].resumed);
    assert_eq!(answers(&runs[0].records), answers(&whole));
    assert!(runs[1].records.is_empty(), "process 0 merges the table");
    // Every unit journaled once: none of the journal's was searched again.
    let text = fs::read_to_string(&journal).unwrap();
    assert_eq!(text.lines().count(), 1 + units);
    fs::remove_dir_all(&dir).unwrap();
}

/// Two processes of the binary: process 1 killed part way; process 0 names it and keeps its
/// journal, and the same command run again by both goes on from there to the whole table.
#[test]
fn a_killed_process_is_named_and_the_cluster_goes_on_from_the_journal() {
    let dir = scratch("cluster-kill");
    let (hosts, addresses) = hostfile(&dir, 2);
    let whole = generate_4x4("4", &["--out", "-"]).output().unwrap();
    let out = dir.join("4x4.tsv");
    let journal = dir.join("4x4.tsv.journal");
    let args = ["--out", str(&out)];
    let mut children: Vec<Child> = (0..2).map(|p| start(&hosts, p, "4", &args)).collect();
    wait_for_units(&journal, 3);
    children[1].kill().unwrap();
    let (output, _) = wait_for(children.remove(0), Duration::from_secs(30));
    let message = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{message}");
    let lost = format!("lost process 1 ({})", addresses[1]);
    assert!(message.contains(&lost), "{message}");
    assert!(message.contains(str(&journal)), "{message}");
    assert!(!out.exists() && journal.exists());
    children[0].wait().unwrap();
    let again: Vec<Child> = (0..2).map(|p| start(&hosts, p, "4", &args)).collect();
    for (process, child) in again.into_iter().enumerate() {
        let (output, _) = wait_for(child, Duration::from_secs(120));
        let message = text(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(0),
            "process {process}: {message}"
        );
    }
    assert!(!journal.exists(), "removed once the table is written");
    let table = columns(&fs::read_to_string(&out).unwrap());
    assert_eq!(table, columns(&text(&whole.stdout)));
    fs::remove_dir_all(&dir).unwrap();
}

/// Ctrl-C of one process stops them all as a local run stops: status 130, the journal kept.
#[test]
fn an_interrupt_of_one_process_stops_them_all() {
    let dir = scratch("cluster-interrupt");
    let (hosts, _) = hostfile(&dir, 2);
    let out = dir.join("4x4.tsv");
    let journal = dir.join("4x4.tsv.journal");
    let args = ["--out", str(&out)];
    let children: Vec<Child> = (0..2).map(|p| start(&hosts, p, "4", &args)).collect();
    wait_for_units(&journal, 3);
    // SAFETY: `kill` on a child's process id, which is ours until we wait for it.
    assert_eq!(
        unsafe { libc::kill(children[1].id() as i32, libc::SIGINT) },
        0
    );
    for (process, child) in children.into_iter().enumerate() {
        let (output, _) = wait_for(child, Duration::from_secs(30));
        let message = text(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(130),
            "process {process}: {message}"
        );
        assert!(message.contains("interrupted"), "{message}");
    }
    assert!(!out.exists() && journal.exists());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn distributed_options_are_checked() {
    let dir = scratch("options");
    let (hosts, _) = hostfile(&dir, 2);
    let bad = dir.join("bad-hosts");
    fs::write(&bad, "127.0.0.1:4100\nnot an address\n").unwrap();
    let cases: [(&[&str], &str); 6] = [
        (
            &["--hostfile", str(&hosts), "--process", "0"],
            "--distributed",
        ),
        (&["--workers", "2"], "--distributed"),
        (&["--distributed", "--process", "0"], "--hostfile"),
        (&["--distributed", "--hostfile", str(&hosts)], "--process"),
        (
            &["--distributed", "--hostfile", str(&hosts), "--process", "2"],
            "lists 2 processes",
        ),
        (
            &["--distributed", "--hostfile", str(&bad), "--process", "0"],
            "2: expected one `host:port`",
        ),
    ];
    for (args, says) in cases {
        let output = generate_4x4("3", &["--out", "-"])
            .args(args)
            .output()
            .unwrap();
        let message = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {message}");
        assert!(message.contains(says), "{args:?}: {message}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    fs::remove_dir_all(&dir).unwrap();
}
