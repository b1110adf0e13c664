//! The swap notation `r,c,D` (spec §3): reading it, the checker that replays it on the reference
//! simulator, and turning a search path back into swaps.

use super::level::Level;
use super::rules::{Dir, Grid, Marks, SIDE, Swap, SwapError};

/// Reads one `r,c,D` token.
pub fn parse_swap(token: &str) -> Result<Swap, String> {
    let expected = || format!("`{token}` is not a swap (expected row,col,D with D one of U D L R)");
    let mut parts = token.split(',');
    let (Some(row), Some(col), Some(dir), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(expected());
    };
    let number = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_digit() || b == b'-')
            .then(|| s.parse::<i32>().ok())
            .flatten()
    };
    let mut letters = dir.chars();
    match (number(row), number(col), letters.next(), letters.next()) {
        (Some(row), Some(col), Some(letter), None) => Dir::from_letter(letter)
            .map(|dir| Swap { row, col, dir })
            .ok_or_else(expected),
        _ => Err(expected()),
    }
}

/// Replays a solution with the reference rules alone and returns its swap count: every token
/// must parse, name a gem on the board with its neighbour on the board, and make a legal swap;
/// the swaps must not exceed the board's limit; the board must end empty.
pub fn replay(level: &Level, solution: &str) -> Result<u64, String> {
    replay_seen(level, solution, |_| {})
}

/// What [`replay_seen`] shows: the start, each removal step of a swap (the board after the
/// exchange or a fall, with the cells in lines before they go), and the board a swap leaves.
pub enum Seen<'a> {
    Start(&'a Grid),
    Removing {
        n: usize,
        swap: Swap,
        grid: &'a Grid,
        lines: &'a Marks,
    },
    Swapped {
        n: usize,
        swap: Swap,
        grid: &'a Grid,
    },
}

/// [`replay`], showing `seen` every board the rules pass through (`frontier show` draws them).
pub fn replay_seen(
    level: &Level,
    solution: &str,
    mut seen: impl FnMut(Seen),
) -> Result<u64, String> {
    let mut grid = level.grid;
    let mut swaps = 0;
    seen(Seen::Start(&grid));
    for (index, token) in solution.split_whitespace().enumerate() {
        let n = index + 1;
        let swap = parse_swap(token).map_err(|why| format!("move {n}: {why}"))?;
        if let Some(limit) = level
            .move_limit
            .filter(|&limit| n as u64 > u64::from(limit))
        {
            return Err(format!(
                "move {n} ({swap}): the board allows at most {limit} swaps"
            ));
        }
        grid = grid
            .swap_with(swap, |grid, lines| {
                seen(Seen::Removing {
                    n,
                    swap,
                    grid,
                    lines,
                })
            })
            .map_err(|why| match why {
                SwapError::NoGem => {
                    format!("move {n} ({swap}): no gem at {},{}", swap.row, swap.col)
                }
                other => format!("move {n} ({swap}): {other}"),
            })?;
        swaps += 1;
        seen(Seen::Swapped {
            n,
            swap,
            grid: &grid,
        });
    }
    match grid.gem_count() {
        0 => Ok(swaps),
        left => Err(format!(
            "board not cleared: {left} gems left after {swaps} swaps"
        )),
    }
}

/// The swap that turns `grid` into a board `reaches` accepts, in reading order of the moved
/// gem and then D, R, U, L (so gem–gem swaps are written from the upper or left gem).
pub fn find_swap(grid: &Grid, reaches: impl Fn(&Grid) -> bool) -> Option<(Swap, Grid)> {
    (0..SIDE as i32)
        .flat_map(|row| (0..SIDE as i32).map(move |col| (row, col)))
        .flat_map(|(row, col)| {
            [Dir::Down, Dir::Right, Dir::Up, Dir::Left].map(|dir| Swap { row, col, dir })
        })
        .find_map(|swap| {
            grid.swap(swap)
                .ok()
                .filter(|next| reaches(next))
                .map(|next| (swap, next))
        })
}

#[cfg(test)]
mod tests {
    use crate::games::Game;
    use crate::games::puzzle_quest::PuzzleQuest;
    use crate::games::puzzle_quest::testing::{grid, level_of};

    // ---- Notation and check (spec §3) -----------------------------------------------------------

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
}
