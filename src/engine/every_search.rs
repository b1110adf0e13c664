//! Tests that hold for every search: the same optimum on any number of threads, the same
//! counts, exhaustion, limits, move budgets, and paths rebuilt with parent links or without.

use super::astar::{self, astar};
use super::bfs::{self, bfs};
use super::bidirectional::bidirectional;
use super::control::Limits;
use super::explore::count_reachable;
use super::testing::{
    EightPuzzle, HARDEST, OneWay, SOLVED, checked_length, moves, one_way_distances, with_threads,
};
use super::{Heuristic, Layout, Limit, MoveBudget, SearchControl, SearchOutcome, Space, Stored};

/// A search of the 8-puzzle.
type Search = fn(&EightPuzzle, &SearchControl) -> SearchOutcome<u64>;

#[test]
fn every_search_finds_the_31_move_optimum_on_any_number_of_threads() {
    for threads in [1, 4] {
        let blind = EightPuzzle::new(HARDEST, false);
        let informed = EightPuzzle::new(HARDEST, true);
        let runs: [(&str, &EightPuzzle, Search); 3] = [
            ("bfs", &blind, |s, c| bfs(s, c)),
            ("astar", &informed, |s, c| astar(s, c)),
            ("bidirectional", &blind, |s, c| bidirectional(s, s.goal, c)),
        ];
        for (name, space, search) in runs {
            let ctl = SearchControl::unlimited();
            let SearchOutcome::Found(path) = with_threads(threads, || search(space, &ctl)) else {
                panic!("{name} on {threads} threads found nothing")
            };
            assert_eq!(
                checked_length(space, &path),
                31,
                "{name} on {threads} threads"
            );
        }
    }
}

#[test]
fn counts_do_not_depend_on_the_number_of_threads() {
    let counts = |threads| {
        let space = EightPuzzle::new(HARDEST, true);
        let (bfs_ctl, astar_ctl) = (SearchControl::unlimited(), SearchControl::unlimited());
        with_threads(threads, || {
            bfs(&space, &bfs_ctl);
            astar(&space, &astar_ctl);
        });
        (
            bfs_ctl.progress.stats().states,
            bfs_ctl.progress.stats().expanded,
            astar_ctl.progress.stats().states,
            astar_ctl.progress.stats().expanded,
        )
    };
    let one = counts(1);
    assert_eq!(one, counts(4));
    assert!(
        one.2 < one.0 / 4,
        "Manhattan A* stores far fewer states than BFS: {one:?}"
    );
}

#[test]
fn exhausting_the_space_counts_every_reachable_position() {
    let space = EightPuzzle::new(HARDEST, false);
    let ctl = SearchControl::unlimited();
    assert_eq!(
        with_threads(4, || count_reachable(&space, true, &ctl)),
        Ok(181_440)
    );
    // Swapping two tiles gives the other parity class: no search reaches the goal.
    let unsolvable = EightPuzzle::new([2, 1, 3, 4, 5, 6, 7, 8, 0], true);
    for search in [bfs::<EightPuzzle>, astar::<EightPuzzle>] {
        let ctl = SearchControl::unlimited();
        assert_eq!(search(&unsolvable, &ctl), SearchOutcome::Exhausted);
    }
    let ctl = SearchControl::unlimited();
    assert_eq!(bfs(&unsolvable, &ctl), SearchOutcome::Exhausted);
    assert_eq!(ctl.progress.states(), 181_440);
    let ctl = SearchControl::unlimited();
    assert_eq!(
        bidirectional(&unsolvable, unsolvable.goal, &ctl),
        SearchOutcome::Exhausted
    );
}

#[test]
fn a_state_limit_stops_every_search() {
    let space = EightPuzzle::new(HARDEST, false);
    let limits = Limits {
        max_states: Some(5_000),
        ..Limits::default()
    };
    let stopped = SearchOutcome::Stopped(Limit::States(5_000));
    assert_eq!(bfs(&space, &SearchControl::new(limits)), stopped);
    assert_eq!(astar(&space, &SearchControl::new(limits)), stopped);
    assert_eq!(
        bidirectional(&space, space.goal, &SearchControl::new(limits)),
        stopped
    );
    let ctl = SearchControl::new(limits);
    assert_eq!(
        count_reachable(&space, true, &ctl),
        Err(Limit::States(5_000))
    );
}

#[test]
fn the_start_can_be_the_goal() {
    let space = EightPuzzle::new(SOLVED, true);
    for search in [bfs::<EightPuzzle>, astar::<EightPuzzle>] {
        assert_eq!(
            search(&space, &SearchControl::unlimited()),
            SearchOutcome::Found(vec![space.goal])
        );
    }
}

/// States 0..=10 on a line, each move +1 or +2; the goal is 10 (5 moves at best).
struct Line {
    max_depth: Option<u32>,
}

impl Space for Line {
    type State = u32;
    fn start(&self) -> u32 {
        0
    }
    fn successors(&self, state: &u32, out: &mut Vec<u32>) {
        out.extend([state + 1, state + 2].into_iter().filter(|&s| s <= 10));
    }
    fn is_goal(&self, state: &u32) -> bool {
        *state == 10
    }
}

impl Stored for Line {}

impl Heuristic for Line {
    fn heuristic(&self, state: &u32) -> Option<u32> {
        Some((10 - state).div_ceil(2))
    }
}

impl MoveBudget for Line {
    fn max_depth(&self) -> Option<u32> {
        self.max_depth
    }
}

#[test]
fn a_depth_bound_keeps_solutions_within_it_and_excludes_longer_ones() {
    for search in [
        bfs::bfs::<Line>,
        astar::astar::<Line>,
        astar::ordered_astar::<Line>,
    ] {
        for (max_depth, expected) in [(None, Some(5)), (Some(5), Some(5)), (Some(4), None)] {
            let ctl = SearchControl::unlimited();
            assert_eq!(moves(search(&Line { max_depth }, &ctl)), expected);
        }
    }
    // Bounded at 2 moves, BFS stores the start and layer 1 (states 1 and 2) and of layer
    // 2 only goals (none).
    let ctl = SearchControl::unlimited();
    let bounded = Line { max_depth: Some(2) };
    assert_eq!(moves(bfs::bfs(&bounded, &ctl)), None);
    assert_eq!(ctl.progress.states(), 3);
}

type OneWaySearch = fn(&OneWay, &SearchControl) -> SearchOutcome<u32>;

#[test]
fn paths_are_rebuilt_from_parent_indices_in_a_space_without_reverse_moves() {
    let limit = 100_000;
    let dist = one_way_distances(limit);
    for target in [2, 97, 4_095, 77_777, 99_991] {
        for informed in [false, true] {
            let space = OneWay {
                target,
                limit,
                informed,
            };
            let runs: [(&str, OneWaySearch); 2] =
                [("bfs", |s, c| bfs(s, c)), ("astar", |s, c| astar(s, c))];
            for (name, search) in runs {
                for threads in [1, 4] {
                    let ctl = SearchControl::unlimited();
                    let SearchOutcome::Found(path) = with_threads(threads, || search(&space, &ctl))
                    else {
                        panic!("{name} found no path to {target}");
                    };
                    assert_eq!(path.first(), Some(&1));
                    assert_eq!(path.last(), Some(&target));
                    for pair in path.windows(2) {
                        let mut next = Vec::new();
                        space.successors(&pair[0], &mut next);
                        assert!(next.contains(&pair[1]), "{name}: {pair:?} is not a move");
                    }
                    assert_eq!(
                        path.len() as u32 - 1,
                        dist[target as usize],
                        "{name} to {target}, informed {informed}, {threads} threads"
                    );
                }
            }
        }
    }
}

/// A maze on a grid: cells numbered row by row from 0 (the start), moves to the four
/// neighbours that are not walls, the goal the last cell. Every move can be undone; whether the
/// engine is told so is `reversible`. A cell number takes two bytes.
struct Maze {
    width: u32,
    walls: Vec<bool>,
    reversible: bool,
}

impl Maze {
    /// Walls across every other row but the last, each with one gap, at alternate ends: a
    /// single winding corridor, with a shortest path of about `side * side / 2` moves.
    fn winding(side: u32) -> Maze {
        let walls = (0..side * side)
            .map(|cell| {
                let (row, col) = (cell / side, cell % side);
                let gap = if row % 4 == 1 { side - 1 } else { 0 };
                row % 2 == 1 && row < side - 1 && col != gap
            })
            .collect();
        Maze {
            width: side,
            walls,
            reversible: true,
        }
    }

    /// About one cell in four a wall, scattered by a fixed hash; start and goal are free.
    fn scattered(side: u32) -> Maze {
        let walls = (0..side * side)
            .map(|cell| {
                let hash = u64::from(cell).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
                hash % 4 == 0 && cell != 0 && cell != side * side - 1
            })
            .collect();
        Maze {
            width: side,
            walls,
            reversible: true,
        }
    }

    fn goal(&self) -> u32 {
        self.walls.len() as u32 - 1
    }

    /// The fewest moves from the start to the goal, by a plain queue: the reference.
    fn distance(&self) -> Option<usize> {
        let mut dist = vec![usize::MAX; self.walls.len()];
        let mut queue = std::collections::VecDeque::from([0u32]);
        dist[0] = 0;
        let mut next = Vec::new();
        while let Some(cell) = queue.pop_front() {
            next.clear();
            self.successors(&cell, &mut next);
            for &n in &next {
                if dist[n as usize] == usize::MAX {
                    dist[n as usize] = dist[cell as usize] + 1;
                    queue.push_back(n);
                }
            }
        }
        Some(dist[self.goal() as usize]).filter(|&d| d != usize::MAX)
    }
}

impl Space for Maze {
    type State = u32;

    fn start(&self) -> u32 {
        0
    }
    fn successors(&self, state: &Self::State, out: &mut Vec<Self::State>) {
        self.successors_after(state, None, out)
    }

    fn is_goal(&self, &cell: &u32) -> bool {
        cell == self.goal()
    }
}

impl Stored for Maze {
    fn layout(&self) -> Layout {
        Layout {
            bytes: 2,
            reversible: self.reversible,
            tagged: true,
        }
    }

    /// Every step but back to where the last one came from.
    fn successors_after(&self, &cell: &u32, came_by: Option<u8>, out: &mut Vec<u32>) {
        let (w, cells) = (self.width, self.walls.len() as u32);
        let neighbours = [
            (cell >= w).then(|| cell - w),
            (cell + w < cells).then(|| cell + w),
            (cell % w > 0).then(|| cell - 1),
            (cell % w < w - 1).then(|| cell + 1),
        ];
        let back = came_by.map(|step| neighbours[usize::from(step ^ 1)]);
        out.extend(
            neighbours
                .into_iter()
                .flatten()
                .filter(|&n| !self.walls[n as usize] && back != Some(Some(n))),
        );
    }

    /// The step's direction, as its index among the neighbours (up, down, left, right: the
    /// opposite of step `d` is `d ^ 1`).
    fn move_tag(&self, &cell: &u32, &parent: &u32) -> Option<u8> {
        let w = self.width;
        Some(if cell + w == parent {
            0
        } else if cell == parent + w {
            1
        } else if cell + 1 == parent {
            2
        } else {
            3
        })
    }
}

impl Heuristic for Maze {
    /// Manhattan distance: consistent, and weak enough in a maze that A* meets many states
    /// again by shorter ways.
    fn heuristic(&self, &cell: &u32) -> Option<u32> {
        let goal = self.goal();
        let w = self.width;
        Some((cell / w).abs_diff(goal / w) + (cell % w).abs_diff(goal % w))
    }
}

impl MoveBudget for Maze {}

type MazeSearch = fn(&Maze, &SearchControl) -> SearchOutcome<u32>;

#[test]
fn reversible_spaces_rebuild_paths_without_parents_beyond_256_moves() {
    let runs: [(&str, MazeSearch); 3] = [
        ("bfs", |s, c| bfs(s, c)),
        ("astar", |s, c| astar(s, c)),
        ("bidirectional", |s, c| bidirectional(s, s.goal(), c)),
    ];
    for maze in [Maze::winding(48), Maze::scattered(160)] {
        let shortest = maze.distance().expect("a way through the maze");
        assert!(shortest > 256, "the depths wrap around: {shortest} moves");
        for (name, search) in runs {
            let mut results = Vec::new();
            for (reversible, threads) in [(false, 1), (true, 1), (true, 4)] {
                let maze = Maze {
                    reversible,
                    walls: maze.walls.clone(),
                    ..maze
                };
                let ctl = SearchControl::unlimited();
                let SearchOutcome::Found(path) = with_threads(threads, || search(&maze, &ctl))
                else {
                    panic!("{name} found no way through the maze");
                };
                assert_eq!(path.first(), Some(&0));
                assert_eq!(path.last(), Some(&maze.goal()));
                for pair in path.windows(2) {
                    let mut next = Vec::new();
                    maze.successors(&pair[0], &mut next);
                    assert!(next.contains(&pair[1]), "{name}: {pair:?} is not a move");
                }
                let stats = ctl.progress.stats();
                results.push((path.len() - 1, stats.states, stats.expanded));
            }
            // Parent links or none, one thread or four: the same shortest length, and (but for
            // the bidirectional search, whose meeting layer depends on the threads) the same
            // counts.
            assert!(
                results.iter().all(|r| r.0 == shortest),
                "{name}: {results:?}"
            );
            if name != "bidirectional" {
                assert!(
                    results.iter().all(|r| *r == results[0]),
                    "{name}: {results:?}"
                );
            }
        }
    }
}
