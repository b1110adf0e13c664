//! Engine tests on a toy space with known figures: the 3x3 sliding-tile puzzle, whose 181,440
//! reachable positions and 31-move hardest position are classic results. The puzzle is also the
//! fixture of the distributed backend's tests, which compare its counts with the engine's.

use rayon::ThreadPoolBuilder;

use super::astar::{self, astar};
use super::beam;
use super::bfs::{self, bfs};
use super::bidirectional::bidirectional;
use super::control::Limits;
use super::explore::{self, count_reachable};
use super::{
    Bounded, Heuristic, Layout, Limit, MoveBudget, SearchControl, SearchOutcome, Space, Stored,
};

/// The 8-puzzle: tile (0 = blank) of each cell, 4 bits per cell, cells row-major.
pub(crate) struct EightPuzzle {
    pub(crate) start: u64,
    pub(crate) goal: u64,
    /// Whether A* may use the Manhattan distance (else it searches blind).
    manhattan: bool,
}

fn pack(tiles: [u64; 9]) -> u64 {
    tiles.iter().enumerate().map(|(i, t)| t << (4 * i)).sum()
}

fn tile(state: u64, cell: usize) -> u64 {
    state >> (4 * cell) & 0xf
}

fn blank(state: u64) -> usize {
    (0..9).find(|&c| tile(state, c) == 0).expect("a blank")
}

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

/// A search of the 8-puzzle.
type Search = fn(&EightPuzzle, &SearchControl) -> SearchOutcome<u64>;

/// Runs `f` on a pool of `threads` workers.
fn with_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
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

#[test]
fn a_bounded_space_forwards_every_capability_but_its_budget() {
    let space = EightPuzzle::new(HARDEST, true);
    let bounded = Bounded {
        space: &space,
        max_depth: 40,
    };
    assert_eq!(bounded.layout(), space.layout());
    assert_eq!(bounded.max_depth(), Some(40));
    let start = space.start();
    let (mut plain, mut laid) = (Vec::new(), Vec::new());
    space.successors(&start, &mut plain);
    bounded.successors(&start, &mut laid);
    assert_eq!(laid, plain);
    for &next in &plain {
        assert_eq!(
            bounded.move_tag(&next, &start),
            space.move_tag(&next, &start)
        );
        let tag = space.move_tag(&next, &start);
        let (mut plain_after, mut laid_after) = (Vec::new(), Vec::new());
        space.successors_after(&next, tag, &mut plain_after);
        bounded.successors_after(&next, tag, &mut laid_after);
        assert_eq!(laid_after, plain_after);
        assert!(!laid_after.contains(&start), "the tag skips the move back");
        assert_eq!(bounded.heuristic(&next), space.heuristic(&next));
        assert_eq!(bounded.work_left(&next), space.work_left(&next));
    }
}

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
fn a_limit_before_the_first_bucket_still_proves_the_start_bound() {
    // The root alone reaches `max_states`: nothing is expanded, yet no solution is shorter than
    // the start's Manhattan distance, and that is the depth the search reports.
    let space = EightPuzzle::new(HARDEST, true);
    let h0 = space.heuristic(&space.start()).unwrap();
    assert!(h0 > 0);
    for search in [astar::<EightPuzzle>, astar::ordered_astar::<EightPuzzle>] {
        let ctl = SearchControl::new(Limits {
            max_states: Some(1),
            ..Limits::default()
        });
        assert_eq!(
            search(&space, &ctl),
            SearchOutcome::Stopped(Limit::States(1))
        );
        assert_eq!(ctl.progress.depth(), u64::from(h0));
    }
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

fn moves(outcome: SearchOutcome<u32>) -> Option<usize> {
    match outcome {
        SearchOutcome::Found(path) => Some(path.len() - 1),
        SearchOutcome::Exhausted => None,
        SearchOutcome::Stopped(limit) => panic!("stopped: {limit}"),
    }
}

/// From the start (5000) every state 0..5000 is one move away; only 4321 leads on, to the
/// goal (5001).
struct Wide {
    prefer: bool,
}

impl Space for Wide {
    type State = u32;
    fn start(&self) -> u32 {
        5000
    }
    fn successors(&self, state: &u32, out: &mut Vec<u32>) {
        match *state {
            5000 => out.extend(0..5000),
            4321 => out.push(5001),
            _ => {}
        }
    }
    fn is_goal(&self, state: &u32) -> bool {
        *state == 5001
    }
}

impl Stored for Wide {}

impl Heuristic for Wide {
    fn heuristic(&self, state: &u32) -> Option<u32> {
        Some(u32::from(*state != 5001))
    }
    fn work_left(&self, state: &u32) -> u32 {
        u32::from(self.prefer && *state != 4321)
    }
}

impl MoveBudget for Wide {}

#[test]
fn ordered_astar_expands_the_preferred_states_first_and_stops_at_a_goal() {
    let preferred = SearchControl::unlimited();
    let outcome = astar::ordered_astar(&Wide { prefer: true }, &preferred);
    assert_eq!(moves(outcome), Some(2));
    // The start (searched at f = 1 for goals only, deferred, then expanded in full at f = 2:
    // counted once, when complete), then the first wave of 1024 states of the last bucket.
    assert_eq!(preferred.progress.expanded(), 1 + 1024);
    // Plain A* expands the whole bucket.
    let plain = SearchControl::unlimited();
    assert_eq!(moves(astar::astar(&Wide { prefer: true }, &plain)), Some(2));
    assert_eq!(plain.progress.expanded(), 1 + 5000);
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

/// The path of a search that found one.
fn found_path<S: std::fmt::Debug>(outcome: SearchOutcome<S>) -> Vec<S> {
    match outcome {
        SearchOutcome::Found(path) => path,
        other => panic!("no path: {other:?}"),
    }
}

#[test]
fn a_known_solution_prunes_astar_and_proves_itself_optimal() {
    // The 8-puzzle's hardest position (31 moves). With a budget of 30 moves A* ends without a
    // solution, which proves a known 31-move one optimal, and stores none of the states it
    // would store unbounded whose f is above 30.
    let space = EightPuzzle::new(HARDEST, true);
    let run = |max_depth| {
        let ctl = SearchControl::unlimited();
        let outcome = match max_depth {
            Some(max_depth) => astar(
                &Bounded {
                    space: &space,
                    max_depth,
                },
                &ctl,
            ),
            None => astar(&space, &ctl),
        };
        (outcome, ctl.progress.states())
    };
    let (free, all) = run(None);
    assert_eq!(checked_length(&space, &found_path(free)), 31);
    let (found, at_optimum) = run(Some(31));
    assert_eq!(checked_length(&space, &found_path(found)), 31);
    let (none, below) = run(Some(30));
    assert_eq!(none, SearchOutcome::Exhausted);
    assert!(
        below < at_optimum && at_optimum < all,
        "{below} {at_optimum} {all}"
    );
}

/// [`astar::in_rounds`] with the local A* for each round.
fn rounds_of_astar<P: Heuristic + MoveBudget>(
    space: &P,
    ctl: &SearchControl,
    plain_states: u64,
) -> SearchOutcome<P::State> {
    astar::in_rounds(space, ctl, plain_states, |round, ctl| astar(round, ctl))
}

#[test]
fn astar_in_rounds_finds_the_optimum_holding_only_states_within_each_round() {
    // The 8-puzzle's hardest position (31 moves) under a loose budget of 45 moves. One A*
    // stores successors with f up to 45 that it never expands; the rounds (from the start's
    // bound of 21) never hold one above the round's bound, so their peak is smaller.
    let space = EightPuzzle::new(HARDEST, true);
    let loose = Bounded {
        space: &space,
        max_depth: 45,
    };
    let once = SearchControl::unlimited();
    assert_eq!(
        checked_length(&space, &found_path(astar(&loose, &once))),
        31
    );
    let rounds = SearchControl::unlimited();
    let found = rounds_of_astar(&loose, &rounds, 0);
    assert_eq!(checked_length(&space, &found_path(found)), 31);
    assert!(
        rounds.progress.peak_bytes() < once.progress.peak_bytes(),
        "{} against {}",
        rounds.progress.peak_bytes(),
        once.progress.peak_bytes()
    );
    // A plain A* first: one that finishes within its states is the single A*, count for
    // count; one that the cap stops hands on to the rounds at the f it reached.
    let plain = SearchControl::unlimited();
    let found = rounds_of_astar(&loose, &plain, 1 << 20);
    assert_eq!(checked_length(&space, &found_path(found)), 31);
    assert_eq!(plain.progress.states(), once.progress.states());
    let capped = SearchControl::unlimited();
    let found = rounds_of_astar(&loose, &capped, 1_000);
    assert_eq!(checked_length(&space, &found_path(found)), 31);
    assert!(
        capped.progress.states() > 1_000,
        "{}",
        capped.progress.states()
    );
    // Below the optimum every round ends, and the last proves that no solution has 30 moves
    // or fewer.
    let tight = Bounded {
        space: &space,
        max_depth: 30,
    };
    let ctl = SearchControl::unlimited();
    let none = rounds_of_astar(&tight, &ctl, 0);
    assert_eq!((none, ctl.progress.depth()), (SearchOutcome::Exhausted, 31));
    // Without a budget, the rounds end when one drops nothing: here the half of the 8-puzzle's
    // positions that cannot reach the goal (two tiles swapped), whole.
    let unsolvable = EightPuzzle::new([2, 1, 3, 4, 5, 6, 7, 8, 0], true);
    let whole = SearchControl::unlimited();
    let none = rounds_of_astar(&unsolvable, &whole, 0);
    assert_eq!(none, SearchOutcome::Exhausted);
    let once = SearchControl::unlimited();
    assert_eq!(astar(&unsolvable, &once), SearchOutcome::Exhausted);
    assert_eq!(once.progress.states(), 181_440);
    // A limit inside a round keeps what the rounds before it proved.
    let ctl = SearchControl::new(Limits {
        max_states: Some(ctl.progress.states() - 1),
        ..Limits::default()
    });
    let stopped = rounds_of_astar(&tight, &ctl, 0);
    assert!(matches!(stopped, SearchOutcome::Stopped(Limit::States(_))));
    assert_eq!(ctl.progress.depth(), 30);
}

#[test]
fn a_stop_requested_for_a_level_reaches_its_running_child_search_only() {
    let level = SearchControl::unlimited();
    let first = level.child(Limits::default());
    assert!(!first.stop.is_stopped());
    // The harness's memory guard stops the level while `first` runs for it.
    level.stop.request(Limit::Memory(1));
    assert!(first.stop.is_stopped());
    assert_eq!(first.check(), Err(Limit::Memory(1)));
    // A search started afterwards (the level's anytime search) runs, until asked again.
    let second = level.child(Limits::default());
    assert_eq!(second.check(), Ok(()));
    assert_eq!(
        found_path(astar(&EightPuzzle::new(HARDEST, true), &second)).len(),
        32
    );
    level.stop.request(Limit::Memory(2));
    assert_eq!(second.check(), Err(Limit::Memory(2)));
    // A child's own limits are its own: the level is not stopped by them.
    let third = level.child(Limits {
        max_states: Some(1),
        ..Limits::default()
    });
    assert_eq!(third.check(), Err(Limit::States(1)));
    assert_eq!(level.child(Limits::default()).check(), Ok(()));
}

#[test]
fn a_memory_stop_is_pending_until_the_level_moves_on_to_its_next_search() {
    let level = SearchControl::unlimited();
    let first = level.child(Limits::default());
    assert!(!level.stop.pending());
    level.stop.request(Limit::Memory(1));
    // While `first` winds down the guard stops nothing else; the level's control itself says
    // stopped for good, which is why the guard does not ask it.
    assert!(level.stop.pending() && first.stop.pending());
    assert!(level.stop.is_stopped());
    // The next search of the level: the stop was not meant for it, and it may be stopped.
    let second = level.child(Limits::default());
    assert!(!level.stop.pending() && !second.stop.pending());
    level.stop.request(Limit::Memory(1));
    assert!(second.stop.pending());
    assert_eq!(second.check(), Err(Limit::Memory(1)));
}

#[test]
fn a_child_search_never_has_more_memory_than_its_level() {
    let level = SearchControl::new(Limits {
        max_bytes: Some(1000),
        ..Limits::default()
    });
    let at_most = |own: Option<u64>| {
        level
            .child(Limits {
                max_bytes: own,
                ..Limits::default()
            })
            .budget
            .limits
            .max_bytes
    };
    assert_eq!(at_most(None), Some(1000));
    assert_eq!(at_most(Some(4 << 30)), Some(1000));
    assert_eq!(at_most(Some(10)), Some(10));
    assert_eq!(
        SearchControl::unlimited()
            .child(Limits {
                max_bytes: Some(10),
                ..Limits::default()
            })
            .budget
            .limits
            .max_bytes,
        Some(10)
    );
    // It stops at the level's budget as soon as it counts that much.
    let child = level.child(Limits::default());
    child.progress.set_bytes(999);
    assert_eq!(child.check(), Ok(()));
    child.progress.set_bytes(1000);
    assert_eq!(child.check(), Err(Limit::Memory(1000)));
}

/// Numbers from 0, each move +1 or +3, up to 30; the goal is 30. The heuristic says nothing
/// (0); the work left (`work_left`) is the distance to 30.
struct Ranked;

impl Space for Ranked {
    type State = u32;
    fn start(&self) -> u32 {
        0
    }
    fn successors(&self, state: &u32, out: &mut Vec<u32>) {
        out.extend([state + 1, state + 3].into_iter().filter(|&s| s <= 30));
    }
    fn is_goal(&self, state: &u32) -> bool {
        *state == 30
    }
}

impl Stored for Ranked {}

impl Heuristic for Ranked {
    fn heuristic(&self, _: &u32) -> Option<u32> {
        Some(0)
    }
    fn work_left(&self, state: &u32) -> u32 {
        30 - state
    }
}

impl MoveBudget for Ranked {}

#[test]
fn a_beam_keeps_the_states_with_the_least_work_left() {
    // A beam of one keeps the largest number of each layer: +3 ten times.
    let ctl = SearchControl::unlimited();
    let found = found_path(beam::beam(&Ranked, 1, &ctl).outcome);
    assert_eq!(found, (0..=30).step_by(3).collect::<Vec<_>>());
}

/// States fanning out a thousandfold per move, without a goal: the second layer (or A* bucket)
/// is a million states generated from a thousand.
struct Fan;

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
fn assert_stops_near(limit: u64, search: impl Fn(&SearchControl) -> SearchOutcome<u64>) {
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

#[test]
fn a_memory_limit_stops_a_growing_astar_bucket() {
    assert_stops_near(8 << 20, |ctl| astar(&Fan, ctl));
}

#[test]
fn a_memory_limit_stops_a_growing_bfs_layer() {
    assert_stops_near(8 << 20, |ctl| bfs(&Fan, ctl));
}

#[test]
fn a_limit_once_hit_stays_hit_when_memory_falls_back() {
    let ctl = SearchControl::new(Limits {
        max_bytes: Some(100),
        ..Limits::default()
    });
    assert_eq!(ctl.check(), Ok(()));
    ctl.progress.set_bytes(200);
    assert_eq!(ctl.check(), Err(Limit::Memory(100)));
    ctl.progress.set_bytes(50);
    assert_eq!(ctl.check(), Err(Limit::Memory(100)));
    assert!(ctl.stop.is_stopped());
}

/// Numbers reached from 1 by one-way moves (+1, ×2, ×3), none above `limit`: no move can be
/// undone, so a path exists only through the parent links the search stored.
struct OneWay {
    target: u32,
    limit: u32,
    /// A* with an admissible bound (halvings and thirds still needed) instead of none.
    informed: bool,
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
fn one_way_distances(limit: u32) -> Vec<u32> {
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

#[test]
fn paths_are_rebuilt_from_both_sides_of_a_reversible_space() {
    // The 8-puzzle's moves are reversible: the bidirectional search joins two paths rebuilt
    // backwards from the meeting state, one of them reversed.
    for threads in [1, 2, 4] {
        let space = EightPuzzle::new(HARDEST, false);
        let ctl = SearchControl::unlimited();
        let SearchOutcome::Found(path) =
            with_threads(threads, || bidirectional(&space, space.goal, &ctl))
        else {
            panic!("no path");
        };
        assert_eq!(checked_length(&space, &path), 31);
    }
}

#[test]
fn beams_find_valid_paths_and_wider_beams_find_shorter_ones() {
    // The 8-puzzle with Manhattan ranking: a narrow beam finds some path, the anytime search
    // with growing widths one no longer, and none is shorter than the optimum.
    let space = EightPuzzle::new(HARDEST, true);
    let narrow = match beam::beam(&space, 10, &SearchControl::unlimited()).outcome {
        SearchOutcome::Found(path) => checked_length(&space, &path),
        other => panic!("a beam of 10 found nothing: {other:?}"),
    };
    assert!(narrow >= 31);
    let best = with_threads(4, || {
        beam::anytime(
            &space,
            10,
            31,
            None,
            std::time::Duration::from_secs(60),
            &SearchControl::unlimited(),
        )
    })
    .expect("a path");
    assert!(best.1, "a beam as wide as the space is exact");
    let best = checked_length(&space, &best.0);
    assert!((31..=narrow).contains(&best), "{best} against {narrow}");
    // A beam as wide as the space is breadth-first search: optimal.
    assert_eq!(best, 31);
}

#[test]
fn beams_after_a_known_solution_look_only_for_shorter_ones() {
    // The 8-puzzle's hardest start (31 moves) with Manhattan ranking. A beam of 20 finds a
    // longer path. Given it, the anytime search keeps no state that its heuristic says cannot
    // finish shorter: it stores fewer states before a beam wide enough to drop nothing proves
    // the optimum.
    let space = EightPuzzle::new(HARDEST, true);
    let narrow = found_path(beam::beam(&space, 20, &SearchControl::unlimited()).outcome);
    assert!(
        checked_length(&space, &narrow) > 31,
        "a beam of 20 found the optimum"
    );
    let run = |known: Option<Vec<u64>>| {
        let ctl = SearchControl::unlimited();
        let (path, proven) =
            beam::anytime(&space, 20, 0, known, std::time::Duration::MAX, &ctl).expect("a path");
        assert!(proven, "the widths grow until a beam drops nothing");
        (checked_length(&space, &path), ctl.progress.states())
    };
    let (alone, alone_states) = run(None);
    let (bounded, bounded_states) = run(Some(narrow));
    assert_eq!((alone, bounded), (31, 31));
    assert!(
        bounded_states < alone_states,
        "{bounded_states} against {alone_states}"
    );
    // Given an optimal path, a beam wide enough to drop nothing searched every shorter path,
    // found none, and so proves it optimal with no lower bound given.
    let optimal = found_path(astar(&space, &SearchControl::unlimited()));
    let proof = beam::anytime(
        &space,
        1 << 20,
        0,
        Some(optimal.clone()),
        std::time::Duration::MAX,
        &SearchControl::unlimited(),
    );
    assert_eq!(proof, Some((optimal, true)));
}

#[test]
fn a_beam_follows_one_way_moves_and_its_counts_do_not_depend_on_threads() {
    let space = OneWay {
        target: 77_777,
        limit: 100_000,
        informed: true,
    };
    let run = |threads| {
        let ctl = SearchControl::unlimited();
        let outcome = with_threads(threads, || beam::beam(&space, 50, &ctl));
        (outcome.outcome, ctl.progress.states())
    };
    let (one, states) = run(1);
    assert_eq!(run(4), (one.clone(), states));
    let SearchOutcome::Found(path) = one else {
        panic!("no path")
    };
    assert_eq!((path[0], *path.last().unwrap()), (1, 77_777));
    for pair in path.windows(2) {
        let mut next = Vec::new();
        space.successors(&pair[0], &mut next);
        assert!(next.contains(&pair[1]), "{pair:?} is not a move");
    }
    assert!(path.len() as u32 > one_way_distances(100_000)[77_777]);
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

#[test]
fn exploring_the_eight_puzzle_from_its_goal_gives_every_layer() {
    for threads in [1, 4] {
        let space = EightPuzzle::new(SOLVED, false);
        let ctl = SearchControl::unlimited();
        let analysis = with_threads(threads, || explore::analyze(&space, true, &ctl)).unwrap();
        assert_eq!(analysis.states(), 181_440);
        assert_eq!(analysis.eccentricity(), 31);
        assert_eq!(analysis.layers.last(), Some(&2));
        assert_eq!(analysis.layers[..4], [1, 2, 4, 8]);
        assert_eq!((analysis.goals, analysis.optimum), (1, Some(0)));
        assert_eq!(analysis.optimal_paths, 1);
        // One of the two hardest positions, the same on every run.
        let hardest = [pack(HARDEST), pack([6, 4, 7, 8, 5, 0, 3, 2, 1])];
        assert!(hardest.contains(&analysis.farthest));
    }
}

#[test]
fn a_multi_source_search_puts_every_source_at_depth_zero() {
    let space = EightPuzzle::new(SOLVED, false);
    let ctl = SearchControl::unlimited();
    let sources = [pack(SOLVED), pack(HARDEST), pack(SOLVED)];
    let both = explore::explore(&space, &sources, true, &ctl).unwrap();
    assert_eq!(both.layers()[0], 2, "equal sources are one state");
    assert_eq!(both.states(), 181_440);
    assert!(both.eccentricity() < 31);
    // Every state is as far as the nearer source: the hardest position is in layer 0.
    assert!(both.layer(0).any(|s| s == pack(HARDEST)));
}

#[test]
fn a_frontier_exploration_keeps_the_last_layers_only_and_finds_the_same_ones() {
    let space = EightPuzzle::new(SOLVED, false);
    let ctl = SearchControl::unlimited();
    let whole = explore::explore(&space, &[pack(SOLVED)], true, &ctl).unwrap();
    for threads in [1, 4] {
        let mut seen = Vec::new();
        let frontier = with_threads(threads, || {
            explore::explore_frontier(&space, &[pack(SOLVED)], true, &ctl, |e, d| {
                seen.push(e.count_in_layer(d, |_| true));
                true
            })
        })
        .unwrap();
        // Every layer was seen whole, in order, and counted as the exploration that keeps
        // them all counts it: a state's move tag survives the copies (a wrong one would skip
        // a move that leads somewhere new).
        assert_eq!(frontier.layers(), whole.layers());
        assert_eq!(seen, whole.layers());
        for depth in [30, 31] {
            let mut kept: Vec<u64> = frontier.layer(depth).collect();
            let mut all: Vec<u64> = whole.layer(depth).collect();
            kept.sort_unstable();
            all.sort_unstable();
            assert_eq!(kept, all);
        }
        // The older layers are gone: the 8-puzzle's last two layers hold 223 states.
        assert!(
            frontier.bytes() * 10 < whole.bytes(),
            "{} B",
            frontier.bytes()
        );
    }
}

/// A 6x6 torus: a step in any of four directions, wrapping around; the goal is the cell
/// opposite the start, (3, 3) from (0, 0).
struct Torus;

impl Space for Torus {
    type State = u32;
    fn start(&self) -> u32 {
        0
    }
    fn successors(&self, &cell: &u32, out: &mut Vec<u32>) {
        let (row, col) = (cell / 6, cell % 6);
        for (r, c) in [
            (row + 1, col),
            (row + 5, col),
            (row, col + 1),
            (row, col + 5),
        ] {
            out.push(r % 6 * 6 + c % 6);
        }
    }
    fn is_goal(&self, &cell: &u32) -> bool {
        cell == 3 * 6 + 3
    }
}

impl Stored for Torus {
    fn layout(&self) -> Layout {
        Layout {
            reversible: true,
            ..Layout::plain::<u32>()
        }
    }
}

impl MoveBudget for Torus {}

#[test]
fn analyze_counts_the_optimal_solutions_after_dropping_the_layers_that_hold_them() {
    let ctl = SearchControl::unlimited();
    let one_pass = explore::analyze(&Torus, true, &ctl).unwrap();
    assert_eq!(one_pass.layers, [1, 4, 8, 10, 8, 4, 1]);
    // Three steps each way, each either way round, in any order: 2 x 2 x (6 choose 3).
    assert_eq!((one_pass.optimum, one_pass.optimal_paths), (Some(6), 80));
    // Holding nothing, the frontier exploration drops layers 0 to 3 after layer 5, before
    // the goal's layer: the solutions are counted over those layers explored again.
    let again = SearchControl::unlimited();
    let second_pass = explore::analyze_holding(&Torus, true, 0, &again).unwrap();
    assert_eq!(second_pass, one_pass);
    assert_eq!(
        (ctl.progress.states(), again.progress.states()),
        (36, 36 + 36)
    );
}

#[test]
fn shortest_path_counts_agree_with_a_brute_force() {
    let from_goal = explore::explore(
        &EightPuzzle::new(SOLVED, false),
        &[pack(SOLVED)],
        true,
        &SearchControl::unlimited(),
    )
    .unwrap();
    for depth in [1, 6, 11, 14] {
        // The smallest state of the layer: the same on every run.
        let start = from_goal.layer(depth).min().unwrap();
        let space = EightPuzzle {
            start,
            ..EightPuzzle::new(SOLVED, false)
        };
        let analysis = explore::analyze(&space, true, &SearchControl::unlimited()).unwrap();
        let brute = brute_force_shortest_solutions(&space, depth);
        assert_eq!(
            Some((analysis.optimum.unwrap(), analysis.optimal_paths)),
            brute,
            "{depth}"
        );
        assert!(analysis.optimal_paths >= 1);
    }
}

#[test]
fn a_move_budget_ends_the_exploration_and_a_limit_stops_it() {
    let puzzle = EightPuzzle::new(SOLVED, false);
    let space = Bounded {
        space: &puzzle,
        max_depth: 5,
    };
    let ctl = SearchControl::unlimited();
    let analysis = explore::analyze(&space, true, &ctl).unwrap();
    assert_eq!(analysis.eccentricity(), 5);
    assert_eq!(analysis.layers, [1, 2, 4, 8, 16, 20]);
    let limits = Limits {
        max_states: Some(1_000),
        ..Limits::default()
    };
    let space = EightPuzzle::new(SOLVED, false);
    let whole = explore::analyze(&space, true, &SearchControl::unlimited()).unwrap();
    let unfinished = explore::analyze(&space, true, &SearchControl::new(limits)).unwrap_err();
    assert_eq!(unfinished.limit, Limit::States(1_000));
    // Layers 0 to 10 hold 706 states and layer 11 another 396: the limit strikes inside layer
    // 11, so the layers reported are the eleven before it, exact.
    assert_eq!(unfinished.layers, whole.layers[..11]);
}
