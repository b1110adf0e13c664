//! Bender's test fixtures, shared by the tests of its modules: the maps of the spec's intro
//! hints and its map A, and a program run on a map by the referee (its steps when it wins, its
//! loss when it loses).

use super::Level;
use super::notation::{check, loss};
use super::program::Loss;

/// The maps of the spec's intro hints.
pub(super) const INTRO1: &str = "10 10\n##########\n#...#....#\n###.##.#.#\n#.#..###.#\n#.##.#...#\n#..#.###.#\n#.##...#.#\n#..###.#.#\n#........#\n##########\n1 1\n8 8\n0\n";
pub(super) const INTRO2: &str = "10 10\n##########\n#........#\n#.######.#\n#........#\n########.#\n#..#.###.#\n#.##...#.#\n#..###.#.#\n#........#\n##########\n3 3\n8 3\n1\n2 3 7 3 1\n";
pub(super) const INTRO3: &str = "10 10\n##########\n#........#\n#.#+####.#\n#........#\n########.#\n#..#.###.#\n#.##...#.#\n#..###.#.#\n#........#\n##########\n3 3\n8 3\n1\n3 1 7 3 1\n";
pub(super) const INTRO4: &str = "10 10\n##########\n#........#\n#.######.#\n#..+.....#\n####.###.#\n#..#.###.#\n#.##...#.#\n#..###.#.#\n#........#\n##########\n2 3\n4 4\n1\n3 1 7 3 1\n";
pub(super) const INTRO5: &str = "10 10\n##########\n#........#\n#.####...#\n#...+....#\n########.#\n#.#....#.#\n#.#.####.#\n#.#.#..#.#\n#........#\n##########\n3 3\n5 3\n0\n";

/// Map A of spec §2.4.
pub(super) const MAP_A: &str =
    "8 4\n########\n#.+....#\n#......#\n########\n1 1\n4 2\n1\n4 1 3 1 1\n";

/// A map, which must be valid.
pub(super) fn level(text: &str) -> Level {
    Level::parse_text(text).expect("a valid map")
}

/// The steps of `program` on a map, or why the checker rejects it.
pub(super) fn steps(text: &str, program: &str) -> Result<u64, String> {
    check(&level(text).board, program).map(|v| v.moves)
}

/// The step at which `program` loses on a map, and why.
pub(super) fn lost(text: &str, program: &str) -> (u32, Loss) {
    loss(&level(text).board, program).expect("the program loses")
}
