//! The engine's test fixtures, shared by the tests of every search, of the distributed backend
//! and of the games: the 3x3 sliding-tile puzzle, whose 181,440 reachable positions and
//! 31-move hardest position are classic results; toy spaces with known figures (one-way
//! moves, a fan-out that outgrows any memory limit); and the checks those tests repeat (a path
//! is made of moves, a limit stops near its value, shortest solutions counted by brute force).

use rayon::ThreadPoolBuilder;

use super::control::Limits;
use super::{Heuristic, Layout, Limit, MoveBudget, SearchControl, SearchOutcome, Space, Stored};

/// The 8-puzzle: tile (0 = blank) of each cell, 4 bits per cell, cells row-major.
pub(crate) struct EightPuzzle {
    pub(crate) start: u64,
    pub(crate) goal: u64,
    /// Whether A* may use the Manhattan distance (else it searches blind).
    pub(crate) manhattan: bool,
}

/// The state of the tiles `tiles`, cell by cell.
pub(crate) fn pack(tiles: [u64; 9]) -> u64 {
    tiles.iter().enumerate().map(|(i, t)| t << (4 * i)).sum()
}

fn tile(state: u64, cell: usize) -> u64 {
    state >> (4 * cell) & 0xf
}

fn blank(state: u64) -> usize {
    (0..9).find(|&c| tile(state, c) == 0).expect("a blank")
}

/// The goal: tiles in order, the blank last.
pub(crate) const SOLVED: [u64; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 0];

/// A hardest position: 31 moves from `SOLVED`.
pub(crate) const HARDEST: [u64; 9] = [8, 6, 7, 2, 5, 4, 3, 0, 1];

impl EightPuzzle {
    pub(crate) fn new(start: [u64; 9], manhattan: bool) -> Self {
        EightPuzzle {
            start: pack(start),
            goal: pack(SOLVED),
            manhattan,
        }
    }
}

impl Space for EightPuzzle {
    type State = u64;

    fn start(&self) -> u64 {
        self.start
    }
    fn successors(&self, state: &Self::State, out: &mut Vec<Self::State>) {
        self.successors_after(state, None, out)
    }

    fn is_goal(&self, state: &u64) -> bool {
        *state == self.goal
    }
}

impl Stored for EightPuzzle {
    /// Sliding a tile back undoes a move: no parent links, paths rebuilt backwards.
    /// Nine 4-bit cells: 36 bits, 5 bytes.
    fn layout(&self) -> Layout {
        Layout {
            bytes: 5,
            reversible: true,
            tagged: true,
        }
    }

    /// Every slide but the one undoing the last (the blank going back where it came from).
    fn successors_after(&self, state: &u64, came_by: Option<u8>, out: &mut Vec<u64>) {
        let blank = blank(*state);
        let (row, col) = (blank / 3, blank % 3);
        let neighbours = [
            (row > 0).then(|| blank - 3),
            (row < 2).then(|| blank + 3),
            (col > 0).then(|| blank - 1),
            (col < 2).then(|| blank + 1),
        ];
        for cell in neighbours.into_iter().flatten() {
            if came_by == Some(cell as u8) {
                continue;
            }
            let t = tile(*state, cell);
            out.push(state - (t << (4 * cell)) + (t << (4 * blank)));
        }
    }

    /// Where the blank came from.
    fn move_tag(&self, _state: &u64, parent: &u64) -> Option<u8> {
        Some(blank(*parent) as u8)
    }
}

impl Heuristic for EightPuzzle {
    fn heuristic(&self, state: &u64) -> Option<u32> {
        if !self.manhattan {
            return Some(0);
        }
        let distance = (0..9)
            .filter(|&c| tile(*state, c) != 0)
            .map(|c| {
                let home = (tile(*state, c) - 1) as usize;
                (home / 3).abs_diff(c / 3) + (home % 3).abs_diff(c % 3)
            })
            .sum::<usize>();
        Some(distance as u32)
    }
}

impl MoveBudget for EightPuzzle {}

/// Runs `f` on a pool of `threads` workers.
pub(crate) fn with_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(f)
}

/// Checks that `path` runs from the start to the goal by single moves and returns its length.
pub(crate) fn checked_length(space: &EightPuzzle, path: &[u64]) -> usize {
    assert_eq!(path.first(), Some(&space.start));
    assert_eq!(path.last(), Some(&space.goal));
    for pair in path.windows(2) {
        let mut next = Vec::new();
        space.successors(&pair[0], &mut next);
        assert!(next.contains(&pair[1]), "not one move apart");
    }
    path.len() - 1
}

/// The length of a path found, `None` when the space was exhausted.
pub(crate) fn moves(outcome: SearchOutcome<u32>) -> Option<usize> {
    match outcome {
        SearchOutcome::Found(path) => Some(path.len() - 1),
        SearchOutcome::Exhausted => None,
        SearchOutcome::Stopped(limit) => panic!("stopped: {limit}"),
    }
}

/// The path of a search that found one.
pub(crate) fn found_path<S: std::fmt::Debug>(outcome: SearchOutcome<S>) -> Vec<S> {
    match outcome {
        SearchOutcome::Found(path) => path,
        other => panic!("no path: {other:?}"),
    }
}

/// States fanning out a thousandfold per move, without a goal: the second layer (or A* bucket)
/// is a million states generated from a thousand.
pub(crate) struct Fan;

impl Space for Fan {
    type State = u64;

    fn start(&self) -> u64 {
        0
    }

    fn successors(&self, state: &u64, out: &mut Vec<u64>) {
        out.extend((1..=1000).map(|i| state * 1000 + i));
    }

    fn is_goal(&self, _state: &u64) -> bool {
        false
    }
}

impl Stored for Fan {}

/// No bound: A* searches it blind.
impl Heuristic for Fan {
    fn heuristic(&self, _: &u64) -> Option<u32> {
        Some(0)
    }
}

impl MoveBudget for Fan {}

/// Runs a search under a memory limit: it must stop for memory, and within a hash-table
/// doubling of the limit rather than after the whole second layer (tens of megabytes).
pub(crate) fn assert_stops_near(limit: u64, search: impl Fn(&SearchControl) -> SearchOutcome<u64>) {
    let ctl = SearchControl::new(Limits {
        max_bytes: Some(limit),
        ..Limits::default()
    });
    assert_eq!(search(&ctl), SearchOutcome::Stopped(Limit::Memory(limit)));
    assert!(
        ctl.progress.states() < 1_000_000,
        "{} states",
        ctl.progress.states()
    );
    assert!(
        ctl.progress.peak_bytes() < 2 * limit,
        "peak {} for a limit of {limit}",
        ctl.progress.peak_bytes()
    );
}

/// Numbers reached from 1 by one-way moves (+1, ×2, ×3), none above `limit`: no move can be
/// undone, so a path exists only through the parent links the search stored.
pub(crate) struct OneWay {
    pub(crate) target: u32,
    pub(crate) limit: u32,
    /// A* with an admissible bound (halvings and thirds still needed) instead of none.
    pub(crate) informed: bool,
}

impl Space for OneWay {
    type State = u32;

    fn start(&self) -> u32 {
        1
    }

    fn successors(&self, state: &u32, out: &mut Vec<u32>) {
        out.extend(
            [state + 1, state * 2, state * 3]
                .into_iter()
                .filter(|&n| n <= self.limit),
        );
    }

    fn is_goal(&self, state: &u32) -> bool {
        *state == self.target
    }
}

impl Stored for OneWay {}

impl Heuristic for OneWay {
    fn heuristic(&self, state: &u32) -> Option<u32> {
        if *state > self.target {
            return None;
        }
        // Each move at most triples: at least log3(target / state) moves remain.
        let mut bound = 0;
        let mut reach = u64::from(*state);
        while self.informed && reach < u64::from(self.target) {
            reach *= 3;
            bound += 1;
        }
        Some(bound)
    }
}

impl MoveBudget for OneWay {}

/// Fewest moves from 1 to each number up to `limit`, by dynamic programming over the
/// (increasing) moves.
pub(crate) fn one_way_distances(limit: u32) -> Vec<u32> {
    let mut dist = vec![u32::MAX; limit as usize + 1];
    dist[1] = 0;
    for n in 1..=limit as usize {
        let d = dist[n] + 1;
        for next in [n + 1, n * 2, n * 3] {
            if next <= limit as usize && d < dist[next] {
                dist[next] = d;
            }
        }
    }
    dist
}

/// Counts the shortest solutions of `space` by brute force: every sequence of moves from the
/// start (distinct successor states at each step, no move tags), depth first, one length after
/// another until some end on a goal. Returns the optimum and how many such sequences reach a
/// goal; `None` beyond `max` moves.
pub(crate) fn brute_force_shortest_solutions<P: Space>(space: &P, max: u32) -> Option<(u32, u64)> {
    fn walk<P: Space>(space: &P, state: P::State, left: u32) -> u64 {
        if left == 0 {
            return u64::from(space.is_goal(&state));
        }
        if space.is_goal(&state) {
            return 0;
        }
        let mut next = Vec::new();
        space.successors(&state, &mut next);
        let mut distinct: Vec<P::State> = Vec::new();
        for n in next.into_iter().map(|n| space.canonical(n)) {
            if !distinct.contains(&n) {
                distinct.push(n);
            }
        }
        distinct.into_iter().map(|n| walk(space, n, left - 1)).sum()
    }
    let start = space.canonical(space.start());
    (0..=max)
        .map(|moves| (moves, walk(space, start, moves)))
        .find(|&(_, count)| count > 0)
}
