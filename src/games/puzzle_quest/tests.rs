//! Unit tests of the capture rules, the packed simulator, the lower bound, the parser, the
//! notation and the search.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::Path;

use super::board::Board;
use super::bound::{self, NEVER, Tables};
use super::level::{self, Level};
use super::rules::{Dir, Grid, SIDE, Swap, SwapError, Tile};
use super::space::{CaptureSpace, Reductions};
use super::{PuzzleQuest, notation, solve_with};
use crate::engine::{Heuristic, SearchControl};
use crate::games::{Answer, Game, LevelError, Proof, Source};

/// A grid from its bottom rows (the rows above are empty).
fn grid(rows: &[&str]) -> Grid {
    Grid::from_rows(rows).expect("valid rows")
}

fn swap(token: &str) -> Swap {
    notation::parse_swap(token).expect("a swap")
}

/// The board after a swap, and the number of removal steps it took.
fn swap_counting_steps(board: &Grid, token: &str) -> Result<(Grid, u32), SwapError> {
    let mut steps = 0;
    board
        .swap_with(swap(token), |_, _| steps += 1)
        .map(|after| (after, steps))
}

fn level_of(grid: Grid, move_limit: Option<u32>) -> Level {
    Level {
        name: "test".into(),
        id: "TEST".into(),
        move_limit,
        grid,
    }
}

/// The levels (or errors) of a boards file.
fn parse(text: &str) -> Vec<Result<Level, LevelError>> {
    let source = Source {
        path: Path::new("boards.txt"),
        stem: "boards",
        text,
    };
    level::parse(&source)
        .into_iter()
        .map(|entry| entry.level)
        .collect()
}

fn error_of(text: &str) -> LevelError {
    parse(text)
        .into_iter()
        .find_map(Result::err)
        .expect("a parse error")
}

// ---- Rules (spec §2) -------------------------------------------------------------------------

#[test]
fn a_line_of_five_is_removed_and_spawns_nothing() {
    let board = grid(&["__r_____", "rrbrr___"]);
    let (after, steps) = swap_counting_steps(&board, "6,2,D").unwrap();
    assert_eq!(after, grid(&["__b_____"]));
    assert_eq!(steps, 1);
}

#[test]
fn an_l_shaped_double_line_is_removed_as_one_union() {
    // Moving the red into the corner completes row 7 (cols 2-4) and column 2 (rows 5-7).
    let board = grid(&["__r_____", "__r_____", "_rbrr___"]);
    let (after, steps) = swap_counting_steps(&board, "7,1,R").unwrap();
    assert_eq!(after, grid(&["_b______"]));
    assert_eq!(steps, 1);
}

#[test]
fn flaming_skull_blasts_chain() {
    // Spec §4: the line ssSs fires the S at (7,2), whose blast fires the S at (6,3), whose
    // blast alone reaches the y at (7,4).
    let board = grid(&["_gSS____", "ssbsy___"]);
    let marks = {
        let mut swapped = board;
        swapped.cells[6][2] = Tile::Blue;
        swapped.cells[7][2] = Tile::FlamingSkull;
        swapped.with_blasts(swapped.lines())
    };
    assert!(marks[7][4], "the second blast reaches (7,4)");
    assert_eq!(board.swap(swap("7,2,U")).unwrap(), Grid::EMPTY);
    assert_eq!(board.swap(swap("6,2,D")).unwrap(), Grid::EMPTY);
}

#[test]
fn a_cascade_of_three_levels() {
    // r r r across row 3, then g g g falls together in column 0, then b b b.
    let board = grid(&[
        "b_______", "g_______", "rrcr____", "gpyp____", "gypy____", "bpyp____", "bypy____",
    ]);
    let (after, steps) = swap_counting_steps(&board, "3,3,L").unwrap();
    assert_eq!(steps, 3);
    assert_eq!(
        after,
        grid(&["___c____", "_pyp____", "_ypy____", "_pyp____", "_ypy____"])
    );
}

#[test]
fn a_swap_that_makes_no_line_is_illegal_and_changes_nothing() {
    let board = grid(&["__g_____", "rrbyr___"]);
    assert_eq!(board.swap(swap("6,2,D")), Err(SwapError::NoLine));
    // Two gems of one kind, the two skulls included, never make a legal swap.
    let skulls = grid(&["_s______", "sSb_____"]);
    assert_eq!(skulls.swap(swap("7,0,R")), Err(SwapError::NoLine));
}

#[test]
fn a_swap_that_makes_a_line_only_after_the_gem_falls_is_illegal() {
    // The r moved over the hole at (7,2) is alone in row 6 where it lands; it would complete
    // `rrr` in row 7 only after falling.
    let board = grid(&["___r____", "rr_y____"]);
    assert_eq!(board.swap(swap("6,3,L")), Err(SwapError::NoLine));
}

// ---- Spec §4 small cases ---------------------------------------------------------------------

#[test]
fn small_case_line_in_mid_air() {
    let board = grid(&["r_r_____", "grg_____"]);
    assert_eq!(board.swap(swap("7,1,U")).unwrap(), grid(&["g_g_____"]));
}

#[test]
fn small_case_moved_sideways_over_a_hole() {
    let board = grid(&["rr_r____", "gb_y____"]);
    assert_eq!(board.swap(swap("6,3,L")).unwrap(), grid(&["gb_y____"]));
}

#[test]
fn small_case_skull_chain_clears_the_board() {
    let board = grid(&["_gSS____", "ssbsy___"]);
    assert!(board.swap(swap("7,2,U")).unwrap().is_empty());
}

#[test]
fn small_case_line_of_five() {
    let board = grid(&["__r_____", "rrbrr___"]);
    assert_eq!(board.swap(swap("6,2,D")).unwrap(), grid(&["__b_____"]));
}

#[test]
fn small_case_two_lines_then_a_cascade() {
    let board = grid(&["_rr_____", "_yrr____", "yryr____"]);
    let (after, steps) = swap_counting_steps(&board, "6,1,D").unwrap();
    assert!(after.is_empty());
    assert_eq!(steps, 2);
}

#[test]
fn small_case_no_line() {
    let board = grid(&["__g_____", "rrbyr___"]);
    assert_eq!(board.swap(swap("6,2,D")), Err(SwapError::NoLine));
}

#[test]
fn small_case_no_gem() {
    let board = grid(&["__g_____", "rrbyr___"]);
    assert_eq!(board.swap(swap("6,1,D")), Err(SwapError::NoGem));
}

#[test]
fn small_case_off_the_board() {
    let board = grid(&["__g_____", "rrbyr___"]);
    assert_eq!(board.swap(swap("7,0,L")), Err(SwapError::OffBoard((7, -1))));
}

/// The board after the exchange of `swap` and gravity, nothing removed: what a rule judging
/// lines after the moved gem falls would look at.
fn exchanged_and_fallen(board: &Grid, swap: Swap) -> Grid {
    let (tr, tc) = swap.target();
    let mut moved = *board;
    moved.cells[tr as usize][tc as usize] = board.cells[swap.row as usize][swap.col as usize];
    moved.cells[swap.row as usize][swap.col as usize] = board.cells[tr as usize][tc as usize];
    let mut fallen = Grid::EMPTY;
    for col in 0..SIDE {
        let gems = (0..SIDE)
            .rev()
            .map(|r| moved.cells[r][col])
            .filter(|t| t.is_gem());
        for (i, gem) in gems.enumerate() {
            fallen.cells[SIDE - 1 - i][col] = gem;
        }
    }
    fallen
}

#[test]
fn the_first_two_small_cases_are_illegal_under_the_rejected_variants() {
    for (rows, token) in [
        (&["r_r_____", "grg_____"][..], "7,1,U"),
        (&["rr_r____", "gb_y____"][..], "6,3,L"),
    ] {
        let board = grid(rows);
        let s = swap(token);
        let (tr, tc) = s.target();
        // Swaps into empty cells forbidden: the gem moves into an empty cell.
        assert_eq!(board.get(tr, tc), Some(Tile::Empty));
        // Lines judged after the fall: none.
        assert!(!exchanged_and_fallen(&board, s).has_line());
        assert!(board.swap(s).is_ok());
    }
}

// ---- The packed simulator against the reference --------------------------------------------

/// Every result of a legal swap by the reference rules, each gem moved in every direction.
fn reference_successors(g: &Grid) -> HashSet<Board> {
    let mut out = HashSet::new();
    for row in 0..SIDE as i32 {
        for col in 0..SIDE as i32 {
            for dir in Dir::ALL {
                if let Ok(next) = g.swap(Swap { row, col, dir }) {
                    out.insert(Board::from_grid(&next));
                }
            }
        }
    }
    out
}

fn packed_successors(b: &Board) -> HashSet<Board> {
    let mut out = HashSet::new();
    b.for_each_swap(|next, _, _| {
        out.insert(next);
    });
    out
}

/// Walks up to `limit` boards reachable from `start`, breadth-first, and asserts that the
/// packed simulator and the reference give the same successors at each.
fn assert_simulators_agree(start: &Grid, limit: usize) {
    let mut seen = HashSet::from([Board::from_grid(start)]);
    let mut queue = VecDeque::from([*start]);
    let mut visited = 0;
    while let Some(g) = queue.pop_front() {
        visited += 1;
        if visited > limit {
            break;
        }
        let packed = Board::from_grid(&g);
        assert_eq!(packed.to_grid(), g, "packing round trip");
        let expected = reference_successors(&g);
        let got = packed_successors(&packed);
        let show = |set: &HashSet<Board>, other: &HashSet<Board>| {
            set.difference(other)
                .map(|b| b.to_grid().to_string())
                .collect::<Vec<_>>()
                .join("\n\n")
        };
        assert!(
            got == expected,
            "successors of\n{g}\npacked only:\n{}\nreference only:\n{}",
            show(&got, &expected),
            show(&expected, &got)
        );
        for next in expected {
            if seen.insert(next) {
                queue.push_back(next.to_grid());
            }
        }
    }
}

/// A deterministic pseudo-random stable board: columns of random heights (up to `tallest`)
/// filled from `alphabet`, redrawn until no line is on it.
fn random_board(seed: &mut u64, alphabet: &[u8], tallest: usize) -> Grid {
    let mut next = |n: usize| {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed % n as u64) as usize
    };
    loop {
        let mut g = Grid::EMPTY;
        for col in 0..SIDE {
            let height = next(tallest + 1);
            for row in SIDE - height..SIDE {
                g.cells[row][col] = Tile::from_char(alphabet[next(alphabet.len())] as char)
                    .expect("a tile character");
            }
        }
        if !g.has_line() {
            return g;
        }
    }
}

#[test]
fn packed_and_reference_simulators_agree_on_reachable_boards() {
    let alphabets: [&[u8]; 4] = [b"ybgrpcsS", b"gsSSS", b"yrsS", b"bgs"];
    let mut seed = 0x9E37_79B9_7F4A_7C15;
    for round in 0..60 {
        let start = random_board(&mut seed, alphabets[round % alphabets.len()], SIDE);
        assert_simulators_agree(&start, 300);
    }
}

#[test]
fn a_mirrored_board_has_the_mirrored_successors() {
    let mut seed = 7;
    for _ in 0..200 {
        let board = Board::from_grid(&random_board(&mut seed, b"ybgsS", SIDE));
        let mirrored: HashSet<Board> = packed_successors(&board)
            .iter()
            .map(Board::mirrored)
            .collect();
        assert_eq!(packed_successors(&board.mirrored()), mirrored);
    }
}

// ---- Dead states and the lower bound ---------------------------------------------------------

fn is_dead(rows: &[&str]) -> bool {
    let board = Board::from_grid(&grid(rows));
    board.is_dead(&board.kinds())
}

#[test]
fn dead_state_tests_of_spec_section_4() {
    // One or two skulls (s and S together): dead, flaming or not.
    assert!(is_dead(&["rrbrb___", "bbrsr___"]));
    assert!(is_dead(&["rrbrb___", "bbSsr___"]));
    // A kind with one or two gems and no flaming skull: dead.
    assert!(is_dead(&["rrbsssy_"]));
    // ... but a flaming skull might blast them.
    assert!(!is_dead(&["rrbssSy_"]));
    assert!(!is_dead(&["rrbbrrbb"]));
    assert!(!is_dead(&[]));
}

/// Every board reachable from `start` with its successors, or `None` past `limit` boards.
fn reachable(start: Board, limit: usize) -> Option<HashMap<Board, Vec<Board>>> {
    let mut graph = HashMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(board) = queue.pop_front() {
        if graph.contains_key(&board) {
            continue;
        }
        if graph.len() >= limit {
            return None;
        }
        let successors: Vec<Board> = packed_successors(&board).into_iter().collect();
        queue.extend(successors.iter().copied());
        graph.insert(board, successors);
    }
    Some(graph)
}

/// The exact number of swaps from each board of `graph` to the empty board (absent: never).
fn distances(graph: &HashMap<Board, Vec<Board>>) -> HashMap<Board, u32> {
    let mut predecessors: HashMap<Board, Vec<Board>> = HashMap::new();
    for (&board, successors) in graph {
        for &next in successors {
            predecessors.entry(next).or_default().push(board);
        }
    }
    let mut distance = HashMap::from([(Board::EMPTY, 0)]);
    let mut queue = VecDeque::from([Board::EMPTY]);
    while let Some(board) = queue.pop_front() {
        let d = distance[&board];
        for &p in predecessors.get(&board).into_iter().flatten() {
            if let std::collections::hash_map::Entry::Vacant(e) = distance.entry(p) {
                e.insert(d + 1);
                queue.push_back(p);
            }
        }
    }
    distance
}

/// A deterministic pseudo-random stable board of `groups` groups of three gems of one kind of
/// `alphabet`, each group dropped into columns near a random centre (a gem or two may have to
/// travel to line up with the others), in random order.
fn grouped_board(seed: &mut u64, alphabet: &[u8], groups: usize) -> Grid {
    let mut next = |n: usize| {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed % n as u64) as usize
    };
    loop {
        let mut drops = Vec::new();
        for _ in 0..groups {
            let kind = alphabet[next(alphabet.len())];
            let centre = next(SIDE);
            for _ in 0..3 {
                let col = (centre + next(5)).saturating_sub(2).min(SIDE - 1);
                drops.push((next(1000), kind, col));
            }
        }
        drops.sort_unstable();
        let mut g = Grid::EMPTY;
        let mut heights = [0; SIDE];
        for (_, kind, col) in drops {
            if heights[col] < SIDE {
                heights[col] += 1;
                g.cells[SIDE - heights[col]][col] = Tile::from_char(kind as char).unwrap();
            }
        }
        if !g.has_line() {
            return g;
        }
    }
}

#[test]
fn dead_states_and_the_lower_bound_are_sound_on_whole_small_state_spaces() {
    // On random boards (with and without flaming skulls) every reachable board is checked: a
    // dead board is never one from which the empty board can be reached, and the bound drops
    // by at most 1 per swap (consistent), which with 0 on the empty board makes it admissible;
    // on the boards that can be emptied, it is also checked against the exact distance.
    let level = level_of(Grid::EMPTY, None);
    let space = CaptureSpace::new(&level, Reductions::default());
    let alphabets: [&[u8]; 4] = [b"rgb", b"rgbs", b"rgsS", b"ypsS"];
    let mut seed = 0x2545_F491_4F6C_DD1D;
    let (mut boards, mut edges, mut solvable, mut above_one, mut exact) = (0, 0, 0, 0, 0);
    for round in 0..1000 {
        let alphabet = alphabets[round % alphabets.len()];
        let start = Board::from_grid(&grouped_board(&mut seed, alphabet, 6 + round % 4));
        let Some(graph) = reachable(start, 20_000) else {
            continue;
        };
        let distance = distances(&graph);
        for (board, successors) in &graph {
            boards += 1;
            let h = space.heuristic(board);
            match (h, distance.get(board)) {
                (None, Some(d)) => panic!("dead but {d} swaps from empty:\n{}", board.to_grid()),
                (Some(h), Some(&d)) => {
                    assert!(h <= d, "bound {h} > distance {d}:\n{}", board.to_grid());
                    solvable += 1;
                    above_one += usize::from(h >= 2);
                    exact += usize::from(h >= 2 && h == d);
                }
                _ => {}
            }
            for next in successors {
                if let (Some(h), Some(h_next)) = (h, space.heuristic(next)) {
                    edges += 1;
                    assert!(
                        h <= h_next + 1,
                        "bound {h} then {h_next} after one swap:\n{}\n\n{}",
                        board.to_grid(),
                        next.to_grid()
                    );
                }
            }
        }
    }
    assert_eq!(space.heuristic(&Board::EMPTY), Some(0));
    assert!(
        boards >= 50_000 && edges >= 100_000,
        "{boards} boards, {edges} swaps"
    );
    assert!(
        solvable >= 1000 && above_one >= 100 && exact >= 20,
        "{solvable} boards that can be emptied, {above_one} with a bound of 2 or more, {exact} exact"
    );
}

#[test]
fn the_table_value_falls_by_at_most_one_per_move_and_never_on_a_removal() {
    let tables = Tables::get();
    let value = |c: &[u8; 8]| tables.of_counts(c);
    for counts in bound::all_vectors() {
        let here = value(&counts);
        // A real move of one gem one column: a column at 3 holds 3 or more, so it may stay at
        // 3 or drop to 2.
        for from in 0..8 {
            if counts[from] == 0 {
                continue;
            }
            for to in [from.wrapping_sub(1), from + 1]
                .into_iter()
                .filter(|&t| t < 8)
            {
                for left in [counts[from] - 1, counts[from]] {
                    if left == counts[from] && counts[from] < 3 {
                        continue;
                    }
                    let mut next = counts;
                    next[from] = left;
                    next[to] = (next[to] + 1).min(3);
                    assert!(
                        here == NEVER || value(&next) == NEVER || here <= value(&next) + 1,
                        "{counts:?} ({here}) -> {next:?} ({})",
                        value(&next)
                    );
                }
            }
        }
        // Removing one line: a column of 3 or more losing 3 (leaving anything), or one gem
        // from each column of a run of 3 or more occupied columns.
        for x in 0..8 {
            if counts[x] == 3 {
                for left in 0..=3 {
                    let mut next = counts;
                    next[x] = left;
                    assert!(here <= value(&next), "{counts:?} -> {next:?}");
                }
            }
        }
        for start in 0..8 {
            for end in start + 3..=8 {
                if counts[start..end].iter().all(|&c| c > 0) {
                    let mut next = counts;
                    for c in &mut next[start..end] {
                        *c = if *c == 3 { 2 } else { *c - 1 };
                    }
                    assert!(here <= value(&next), "{counts:?} -> {next:?}");
                }
            }
        }
    }
}

#[test]
fn the_table_knows_simple_vectors() {
    let tables = Tables::get();
    assert_eq!(tables.of_counts(&[0; 8]), 0);
    assert_eq!(tables.of_counts(&[3, 0, 0, 0, 0, 0, 0, 0]), 0);
    assert_eq!(tables.of_counts(&[1, 1, 1, 0, 0, 0, 0, 0]), 0);
    assert_eq!(tables.of_counts(&[1, 0, 1, 1, 0, 0, 0, 0]), 1);
    assert_eq!(tables.of_counts(&[2, 0, 0, 0, 0, 0, 0, 1]), 6);
    assert_eq!(tables.of_counts(&[1, 1, 0, 0, 0, 0, 0, 0]), NEVER);
    assert_eq!(
        bound::capped_counts(0x0000_0000_0107_0F01),
        [1, 3, 3, 1, 0, 0, 0, 0]
    );
}

// ---- Boards files (spec §1.1) ----------------------------------------------------------------

const GOOD: &str = "Giant Bat|MBAT|moves=none\n________\n________\n________\n________\n\
________\n________\n_rr_____\n_brr____\n";

#[test]
fn a_board_is_read_with_its_name_id_and_limit() {
    let text = format!(
        "\n\n{GOOD}\r\nOgre|MOGR|moves=3|note=x\n{}",
        &GOOD[GOOD.find('\n').unwrap() + 1..]
    );
    let levels = parse(&text);
    assert_eq!(levels.len(), 2);
    let first = levels[0].as_ref().unwrap();
    assert_eq!(
        (first.name.as_str(), first.id.as_str()),
        ("Giant Bat", "MBAT")
    );
    assert_eq!(first.move_limit, None);
    assert_eq!(first.grid, grid(&["_rr_____", "_brr____"]));
    assert_eq!(levels[1].as_ref().unwrap().move_limit, Some(3));
    let no_moves_field = parse(
        "Imp|MIMP\n________\n________\n________\n________\n________\n________\n________\nrgb_____\n",
    );
    assert_eq!(no_moves_field[0].as_ref().unwrap().move_limit, None);
}

#[test]
fn parser_errors_name_the_line() {
    let rows = "________\n".repeat(7);
    let cases = [
        (format!("Bat|MBAT\n{rows}"), 8, "has 7 rows"),
        (
            format!("Bat|MBAT\n{rows}rr_r____\nxxxxxxxx\n"),
            10,
            "expected an empty line",
        ),
        (
            format!("Bat|MBAT\n{rows}rr_r___\n"),
            9,
            "row 7 has 7 characters",
        ),
        (
            format!("Bat|MBAT\n{rows}rr_q____\n"),
            9,
            "`q` is not a tile",
        ),
        (
            format!("Bat|MBAT\n{}r_______\n________\n", "________\n".repeat(6)),
            8,
            "floats",
        ),
        (
            format!("Bat|MBAT\n{rows}rrr_____\n"),
            9,
            "starts with a line",
        ),
        (
            format!("Bat\n{rows}________\n"),
            1,
            "expected a board header",
        ),
        (format!("|MBAT\n{rows}________\n"), 1, "the name is empty"),
        (format!("Bat||x=1\n{rows}________\n"), 1, "the id is empty"),
        (
            format!("Bat|MBAT|moves\n{rows}________\n"),
            1,
            "not of the form key=value",
        ),
        (
            format!("Bat|MBAT|a=1|a=2\n{rows}________\n"),
            1,
            "`a` is repeated",
        ),
        (
            format!("Bat|MBAT|moves=-1\n{rows}________\n"),
            1,
            "expected `none` or a number",
        ),
    ];
    for (text, line, message) in cases {
        let error = error_of(&text);
        assert_eq!(error.line, Some(line), "{error}");
        assert!(error.message.contains(message), "{error}");
        assert!(
            error
                .to_string()
                .starts_with(&format!("boards.txt:{line}: "))
        );
    }
}

#[test]
fn a_bad_board_spoils_only_itself_and_duplicate_ids_are_errors() {
    let bad = "Rat|MRAT\n________\n";
    let text = format!("{GOOD}\n{bad}\n{GOOD}");
    let levels = parse(&text);
    assert_eq!(levels.len(), 3);
    assert!(levels[0].is_ok());
    assert_eq!(levels[1].as_ref().unwrap_err().line, Some(12));
    let duplicate = levels[2].as_ref().unwrap_err();
    assert_eq!(duplicate.line, Some(14));
    assert!(
        duplicate
            .message
            .contains("duplicate id `MBAT` (first on line 1)")
    );
    // The entry of a board whose header cannot be read is named after the file and line.
    let source = Source {
        path: Path::new("boards.txt"),
        stem: "boards",
        text: "no header here\n",
    };
    assert_eq!(level::parse(&source)[0].name, "boards:1");
}

#[test]
fn boards_files_and_solution_tables_are_told_apart() {
    assert!(PuzzleQuest::sniff(GOOD));
    assert!(PuzzleQuest::holds_levels(GOOD));
    let answers = "# Known solutions\nGiant Bat|MBAT|shortest=1|7,1,R\n";
    assert!(!PuzzleQuest::holds_levels(answers));
    assert!(!PuzzleQuest::holds_levels(
        "Giant Bat|MBAT|valid=2|7,1,R 6,0,D\n"
    ));
    assert!(!PuzzleQuest::sniff(answers));
    assert!(!PuzzleQuest::sniff("name\tstart\tgoal\n"));
}

// ---- Notation and check (spec §3) ------------------------------------------------------------

#[test]
fn check_accepts_a_solution_written_from_either_gem() {
    let level = level_of(grid(&["_gSS____", "ssbsy___"]), None);
    for solution in ["7,2,U", "6,2,D", "  6,2,D \n"] {
        let verdict = PuzzleQuest::check(&level, solution).unwrap();
        assert_eq!((verdict.moves, verdict.score), (1, 1));
        assert_eq!(verdict.message, "solved in 1 move");
    }
}

#[test]
fn check_names_the_failing_move() {
    let stuck = level_of(grid(&["__g_____", "rrbyr___"]), None);
    let mid_air = level_of(grid(&["r_r_____", "grg_____"]), None);
    let limited = level_of(grid(&["_rr_____", "_yrr____", "yryr____"]), Some(0));
    let cases = [
        (&stuck, "6,2,D", "move 1 (6,2,D): illegal swap"),
        (&stuck, "6,1,D", "move 1 (6,1,D): no gem at 6,1"),
        (&stuck, "7,0,L", "move 1 (7,0,L): 7,-1 is off the board"),
        (&stuck, "9,0,L", "move 1 (9,0,L): 9,0 is off the board"),
        (&stuck, "7,0", "move 1: `7,0` is not a swap"),
        (&stuck, "7,0,X", "move 1: `7,0,X` is not a swap"),
        (&stuck, "", "board not cleared: 6 gems left after 0 swaps"),
        (
            &mid_air,
            "7,1,U",
            "board not cleared: 2 gems left after 1 swaps",
        ),
        (&mid_air, "7,1,U 7,0,R", "move 2 (7,0,R): illegal swap"),
        (
            &limited,
            "6,1,D",
            "move 1 (6,1,D): the board allows at most 0 swaps",
        ),
    ];
    for (level, solution, expected) in cases {
        let error = PuzzleQuest::check(level, solution).unwrap_err();
        assert!(error.starts_with(expected), "{solution}: {error}");
    }
}

// ---- Search ------------------------------------------------------------------------------------

fn solve(level: &Level, reductions: Reductions) -> Answer {
    solve_with(level, reductions, &SearchControl::unlimited())
}

#[test]
fn the_search_finds_the_fewest_swaps_and_check_accepts_them() {
    // One swap clears the cascade board; the L board needs two (the blue left over must go).
    let one = level_of(grid(&["_rr_____", "_yrr____", "yryr____"]), None);
    let Answer::Solved {
        moves,
        proof,
        solution,
        ..
    } = solve(&one, Reductions::default())
    else {
        panic!("solvable");
    };
    assert_eq!((moves, proof), (1, Proof::Optimal));
    assert_eq!(PuzzleQuest::check(&one, &solution).unwrap().moves, 1);
    assert_eq!(
        solve(&level_of(Grid::EMPTY, None), Reductions::default()),
        Answer::optimal(0, String::new())
    );
}

#[test]
fn a_move_limit_is_a_budget() {
    // Two separate clusters: the cascade of the small cases on the left, `bb_b` on the right.
    let board = grid(&["_rr_____", "_yrr____", "yryrbb_b"]);
    let unlimited = solve(&level_of(board, None), Reductions::default());
    let Answer::Solved { moves, .. } = unlimited else {
        panic!("solvable: {unlimited:?}");
    };
    assert_eq!(moves, 2);
    let limit = moves as u32;
    assert!(matches!(
        solve(&level_of(board, Some(limit)), Reductions::default()),
        Answer::Solved { moves: m, .. } if m == moves
    ));
    assert_eq!(
        solve(&level_of(board, Some(limit - 1)), Reductions::default()),
        Answer::Unsolvable
    );
}

#[test]
fn a_board_that_cannot_be_cleared_is_unsolvable_with_and_without_reductions() {
    let board = level_of(grid(&["rrgrr___", "ggbgg___"]), None);
    for reductions in all_reductions() {
        assert_eq!(solve(&board, reductions), Answer::Unsolvable);
    }
}

fn all_reductions() -> Vec<Reductions> {
    let mut all = Vec::new();
    for mirror in [false, true] {
        for dead_states in [false, true] {
            for column_bound in [false, true] {
                all.push(Reductions {
                    mirror,
                    dead_states,
                    column_bound,
                });
            }
        }
    }
    all
}

#[test]
fn reductions_never_change_the_optimum_on_random_boards() {
    let mut seed = 99;
    for round in 0..40 {
        let board = random_board(&mut seed, [&b"rgbs"[..], b"rgsS"][round % 2], 5);
        let level = level_of(board, None);
        let answers: Vec<Option<u64>> = all_reductions()
            .into_iter()
            .map(|r| match solve(&level, r) {
                Answer::Solved { moves, .. } => Some(moves),
                Answer::Unsolvable => None,
                Answer::Limit { limit, .. } => panic!("{limit}"),
            })
            .collect();
        assert!(
            answers.iter().all(|a| *a == answers[0]),
            "{answers:?}\n{board}"
        );
    }
}

#[test]
fn analyze_counts_the_optimal_solutions_a_brute_force_enumerates() {
    let boards: [&[&str]; 3] = [
        &["_rr_____", "_yrr____", "yryr____"],
        &["_rr_____", "_yrr____", "yryrbb_b"],
        &["rr_r____", "gb_y____", "ggbb_b__"],
    ];
    for rows in boards {
        let level = level_of(grid(rows), None);
        let analysis = PuzzleQuest::analyze(&level, &SearchControl::unlimited())
            .expect("puzzle-quest has a space")
            .expect("no limits");
        let space = CaptureSpace::new(&level, Reductions::default());
        let brute = crate::engine::testing::brute_force_shortest_solutions(&space, 6);
        let analyzed = analysis.optimum.map(|o| (o, analysis.optimal_paths));
        assert_eq!(analyzed, brute, "{rows:?}");
    }
}
