//! `frontier generate sliding-blocks` against an independent brute force: every arrangement of
//! a small board is a start, solved by a plain BFS of its own (own arrangements, own moves, own
//! goal test), and the hardest start per piece count must be what `generate` reports. Also
//! the generated rows re-proven by `solve`, and Bickford's bandaged 15-puzzle (131 moves).

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::fs;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

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
    for board in ["4x4", "4x5"] {
        let path = corpus.join(format!("hardest-{board}.tsv"));
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
            assert_eq!(row.status, Status::Solved, "{}: {}", row.level, row.detail());
            assert!(row.optimal, "{}", row.level);
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

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("frontier-gen-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
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

/// `frontier generate` killed outright (SIGKILL) part way, then run again with the same
/// arguments: it goes on from its journal and writes the table an uninterrupted run writes.
#[test]
fn generate_killed_outright_goes_on_from_its_journal() {
    let dir = scratch("kill");
    let run = |out: &PathBuf| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_frontier"));
        command
            .args([
                "generate",
                "sliding-blocks",
                "--board",
                "4x4",
                "--pieces",
                "4",
            ])
            .args(["--threads", "2", "--quiet", "--out"])
            .arg(out);
        command
    };
    let (whole, killed) = (dir.join("whole.tsv"), dir.join("killed.tsv"));
    assert!(run(&whole).status().unwrap().success());
    let journal = dir.join("killed.tsv.journal");
    let mut child = run(&killed).spawn().unwrap();
    // Killed once its journal holds a few classes.
    let started = Instant::now();
    while fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 4 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no classes journaled"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "killed before it finished");
    assert!(!killed.exists() && journal.exists());
    let output = run(&killed).output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!journal.exists(), "removed once the table is written");
    // Every column but the search's time.
    let columns = |path: &PathBuf| -> Vec<String> {
        let text = fs::read_to_string(path).unwrap();
        text.lines()
            .map(|line| line.split('\t').take(8).collect::<Vec<_>>().join("\t"))
            .collect()
    };
    assert_eq!(columns(&killed), columns(&whole));
    fs::remove_dir_all(&dir).unwrap();
}
