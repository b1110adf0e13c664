//! Reading boards files (spec §1.1, B1–B5): boards separated by empty lines, each a header
//! `name|id|key=value…` and 8 rows of tile characters.
//!
//! Every rejection names the file and line. A bad board becomes one error entry and the other
//! boards of the file still parse.

use std::collections::HashMap;

use super::rules::{Grid, SIDE, Tile};
use crate::games::{LevelEntry, SingleLevelFile, Source};

/// One capture board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// The monster's name: the level name.
    pub name: String,
    /// The game's monster id, unique within its file.
    pub id: String,
    /// `moves=N`: at most N swaps; `None` without a limit.
    pub move_limit: Option<u32>,
    pub grid: Grid,
}

/// A run of non-empty lines: (1-based line number, text).
type Block<'a> = Vec<(usize, &'a str)>;

/// Parses every board of a file.
pub fn parse(source: &Source) -> Vec<LevelEntry<Level>> {
    let mut entries = Vec::new();
    let mut first_line_of_id: HashMap<String, usize> = HashMap::new();
    for block in blocks(source.text) {
        let header_line = block[0].0;
        let header = Header::parse(block[0].1);
        let name = match &header {
            Ok(h) => h.name.to_string(),
            Err(_) => format!("{}:{header_line}", source.stem),
        };
        let level = header
            .map_err(|message| source.error(Some(header_line), message))
            .and_then(|header| {
                if let Some(first) = first_line_of_id.get(header.id) {
                    return Err(source.error(
                        Some(header_line),
                        format!("duplicate id `{}` (first on line {first})", header.id),
                    ));
                }
                first_line_of_id.insert(header.id.to_string(), header_line);
                let grid = parse_grid(&block).map_err(|(line, message)| {
                    source.error(Some(line), format!("board `{}`: {message}", header.name))
                })?;
                Ok(Level {
                    name: header.name.to_string(),
                    id: header.id.to_string(),
                    move_limit: header.move_limit,
                    grid,
                })
            });
        let alone = SingleLevelFile::of_lines(source, block.iter().map(|&(_, line)| line));
        entries.push(LevelEntry { name, level, alone });
    }
    entries
}

/// The file's lines (a CR before the LF dropped) grouped into runs of non-empty lines (B1).
fn blocks(text: &str) -> Vec<Block<'_>> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut current: Block = Vec::new();
    for (index, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            if !current.is_empty() {
                blocks.push(std::mem::take(&mut current));
            }
        } else {
            current.push((index + 1, line));
        }
    }
    if !current.is_empty() {
        blocks.push(current);
    }
    blocks
}

/// A board's header line (B3).
struct Header<'a> {
    name: &'a str,
    id: &'a str,
    move_limit: Option<u32>,
}

impl<'a> Header<'a> {
    fn parse(line: &'a str) -> Result<Header<'a>, String> {
        let mut fields = line.split('|');
        let name = fields.next().unwrap_or("");
        let Some(id) = fields.next() else {
            return Err(format!(
                "expected a board header `name|id|moves=...`, found `{line}`"
            ));
        };
        if name.trim().is_empty() {
            return Err(format!("header `{line}`: the name is empty"));
        }
        if id.trim().is_empty() {
            return Err(format!("header `{line}`: the id is empty"));
        }
        let mut keys: Vec<&str> = Vec::new();
        let mut move_limit = None;
        for field in fields {
            let Some((key, value)) = field.split_once('=') else {
                return Err(format!(
                    "header field `{field}` is not of the form key=value"
                ));
            };
            if keys.contains(&key) {
                return Err(format!("header field `{key}` is repeated"));
            }
            keys.push(key);
            if key == "moves" {
                move_limit = parse_moves(value)?;
            }
        }
        Ok(Header {
            name,
            id,
            move_limit,
        })
    }
}

/// `moves=none` or `moves=N` (decimal, N ≥ 0).
fn parse_moves(value: &str) -> Result<Option<u32>, String> {
    if value == "none" {
        return Ok(None);
    }
    let number = value
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| value.parse::<u32>().ok())
        .flatten();
    match number {
        Some(n) => Ok(Some(n)),
        None => Err(format!(
            "moves=`{value}`: expected `none` or a number of swaps"
        )),
    }
}

/// The 8 rows after the header (B2, B4), then the floating-gem and ready-line checks (B5).
/// Errors carry the line they are about.
fn parse_grid(block: &Block) -> Result<Grid, (usize, String)> {
    let rows = &block[1..];
    if rows.len() < SIDE {
        let (last, _) = block[block.len() - 1];
        return Err((
            last,
            format!(
                "has {} rows, expected {SIDE} (boards are separated by empty lines)",
                rows.len()
            ),
        ));
    }
    if let Some(&(line, text)) = rows.get(SIDE) {
        return Err((
            line,
            format!("expected an empty line after its {SIDE} rows, found `{text}`"),
        ));
    }
    let mut grid = Grid::EMPTY;
    for (r, &(line, text)) in rows.iter().enumerate() {
        let count = text.chars().count();
        if count != SIDE {
            return Err((
                line,
                format!("row {r} has {count} characters, expected {SIDE}"),
            ));
        }
        for (c, ch) in text.chars().enumerate() {
            grid.cells[r][c] = Tile::from_char(ch).ok_or_else(|| {
                (
                    line,
                    format!(
                        "row {r}, column {c}: `{ch}` is not a tile (expected one of {})",
                        Tile::CHARS
                            .chars()
                            .map(String::from)
                            .collect::<Vec<_>>()
                            .join(" ")
                    ),
                )
            })?;
        }
    }
    if let Some((r, c, hole)) = grid.floating_gem() {
        return Err((
            rows[r].0,
            format!(
                "row {r}, column {c}: the gem `{}` floats above the empty cell in row {hole}",
                grid.cells[r][c].to_char()
            ),
        ));
    }
    let lines = grid.lines();
    if let Some((r, c)) = (0..SIDE).find_map(|r| (0..SIDE).find(|&c| lines[r][c]).map(|c| (r, c))) {
        return Err((
            rows[r].0,
            format!(
                "row {r}, column {c}: the board starts with a line of 3 or more `{}` (boards must be stable)",
                grid.cells[r][c].to_char()
            ),
        ));
    }
    Ok(grid)
}

/// Whether a line is a board header followed by a row: content detection for `sniff`.
pub fn looks_like_boards(text: &str) -> bool {
    let mut lines = text
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter(|l| !l.trim().is_empty());
    let (Some(header), Some(row)) = (lines.next(), lines.next()) else {
        return false;
    };
    Header::parse(header).is_ok()
        && row.chars().count() == SIDE
        && row.chars().all(|c| Tile::from_char(c).is_some())
}

/// Whether a file is a table of known solutions (`# comments`, then `name|id|tag|swaps`), the
/// companion of a boards file that a directory walk skips.
pub fn looks_like_solutions(text: &str) -> bool {
    let Some(first) = text.lines().map(str::trim).find(|l| !l.is_empty()) else {
        return true;
    };
    if first.starts_with('#') {
        return true;
    }
    let fields: Vec<&str> = first.split('|').collect();
    fields.len() >= 4
        && fields[fields.len() - 1].split_whitespace().all(|swap| {
            let parts: Vec<&str> = swap.split(',').collect();
            parts.len() == 3
                && parts[0].parse::<u8>().is_ok()
                && parts[1].parse::<u8>().is_ok()
                && matches!(parts[2], "U" | "D" | "L" | "R")
        })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::games::puzzle_quest::PuzzleQuest;
    use crate::games::puzzle_quest::testing::grid;
    use crate::games::{Game, LevelError};

    /// The levels (or errors) of a boards file.
    fn parse(text: &str) -> Vec<Result<Level, LevelError>> {
        let source = Source {
            path: Path::new("boards.txt"),
            stem: "boards",
            text,
        };
        super::parse(&source)
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

    // ---- Boards files (spec §1.1) ---------------------------------------------------------------

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
        assert_eq!(super::parse(&source)[0].name, "boards:1");
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
}
