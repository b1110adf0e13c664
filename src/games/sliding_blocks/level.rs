//! Reading sliding-block puzzles: the `.tsv` corpus format, one-puzzle `.txt` files, and the
//! grids inside both (spec §1).

use std::collections::HashMap;

use super::rules::{Block, Cell, Puzzle};
use crate::games::{LevelEntry, SingleLevelFile, Source};

/// The largest cropped grid side (spec §1.4).
const MAX_SIDE: usize = 255;

/// Parses a `.tsv` file: one puzzle per record, columns found by header name (spec T1–T3).
pub fn parse_tsv(source: &Source) -> Vec<LevelEntry<Puzzle>> {
    let whole_file_error = |line, message: String| {
        vec![LevelEntry {
            name: source.stem.to_string(),
            level: Err(source.error(Some(line), message)),
            alone: SingleLevelFile::whole(source),
        }]
    };
    let mut lines = source
        .text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l));
    let Some(header) = lines.next() else {
        return whole_file_error(1, "empty file: expected a header line".into());
    };
    let columns: Vec<&str> = header.split('\t').collect();
    let column = |name: &str| columns.iter().position(|c| *c == name);
    let (Some(name_col), Some(start_col), Some(goal_col)) =
        (column("name"), column("start"), column("goal"))
    else {
        return whole_file_error(
            1,
            format!(
                "header must name the columns `name`, `start` and `goal`, found `{}`",
                columns.join("`, `")
            ),
        );
    };
    let mut entries = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (index, line) in lines.enumerate() {
        let line_no = index + 2;
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let name = fields
            .get(name_col)
            .filter(|n| !n.is_empty())
            .map_or_else(|| format!("{}:{line_no}", source.stem), |n| n.to_string());
        let level = if fields.len() != columns.len() {
            Err(source.error(
                Some(line_no),
                format!(
                    "expected {} tab-separated fields as in the header, found {}",
                    columns.len(),
                    fields.len()
                ),
            ))
        } else if let Some(first) = seen.get(&name) {
            Err(source.error(
                Some(line_no),
                format!("duplicate puzzle name `{name}` (first on line {first})"),
            ))
        } else {
            unescape(fields[start_col])
                .and_then(|start| Ok((start, unescape(fields[goal_col])?)))
                .and_then(|(start, goal)| parse_puzzle(&start, &goal))
                .map_err(|message| source.error(Some(line_no), message))
        };
        seen.entry(name.clone()).or_insert(line_no);
        let alone = SingleLevelFile::of_lines(source, [header, line]);
        entries.push(LevelEntry { name, level, alone });
    }
    entries
}

/// Parses a one-puzzle `.txt` file: the start grid, an empty line, the goal grid (spec §1.2).
pub fn parse_txt(source: &Source) -> Vec<LevelEntry<Puzzle>> {
    let lines: Vec<&str> = source
        .text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let level = match lines.iter().position(|l| l.is_empty()) {
        None => Err(source.error(
            None,
            "expected the start grid, one empty line, then the goal grid; found no empty line",
        )),
        Some(sep) => parse_puzzle(&lines[..sep].join("\n"), &lines[sep + 1..].join("\n"))
            .map_err(|message| source.error(Some(sep + 1), message)),
    };
    vec![LevelEntry {
        name: source.stem.to_string(),
        level,
        alone: SingleLevelFile::whole(source),
    }]
}

/// Whether a TSV file holds puzzles (it has `start` and `goal` columns) rather than, say,
/// a table of known answers.
pub fn tsv_holds_puzzles(text: &str) -> bool {
    let header = text.lines().next().unwrap_or("");
    let columns: Vec<&str> = header.split('\t').collect();
    columns.contains(&"start") && columns.contains(&"goal")
}

/// Decodes `\n`, `\t` and `\\` (spec T2).
fn unescape(field: &str) -> Result<String, String> {
    let mut out = String::with_capacity(field.len());
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                return Err(format!(
                    "unknown escape `\\{other}` (expected \\n, \\t or \\\\)"
                ));
            }
            None => return Err("lone backslash at the end of a grid".into()),
        }
    }
    Ok(out)
}

/// A grid cropped to the bounding box of its board cells (spec G1–G5).
struct Grid {
    width: usize,
    height: usize,
    /// Row-major; `None` is off the board, `Some('.')` empty, else a block's name.
    cells: Vec<Option<char>>,
}

impl Grid {
    fn parse(text: &str) -> Result<Grid, String> {
        let rows: Vec<Vec<char>> = text.split('\n').map(|l| l.chars().collect()).collect();
        let on_board = |c: &char| !c.is_whitespace();
        let used_rows: Vec<usize> = (0..rows.len())
            .filter(|&r| rows[r].iter().any(on_board))
            .collect();
        let (Some(&top), Some(&bottom)) = (used_rows.first(), used_rows.last()) else {
            return Ok(Grid {
                width: 0,
                height: 0,
                cells: Vec::new(),
            });
        };
        let left = (top..=bottom)
            .filter_map(|r| rows[r].iter().position(on_board))
            .min()
            .unwrap_or(0);
        let right = (top..=bottom)
            .filter_map(|r| rows[r].iter().rposition(on_board))
            .max()
            .unwrap_or(0);
        let (width, height) = (right - left + 1, bottom - top + 1);
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(format!(
                "grid of {width}x{height} cells is too large (at most {MAX_SIDE} per side)"
            ));
        }
        let mut cells = Vec::with_capacity(width * height);
        for row in &rows[top..=bottom] {
            for col in left..=right {
                cells.push(row.get(col).copied().filter(on_board));
            }
        }
        Ok(Grid {
            width,
            height,
            cells,
        })
    }

    /// Cells of each block name, in order of first appearance (row-major).
    fn blocks(&self) -> Vec<(char, Vec<Cell>)> {
        let mut blocks: Vec<(char, Vec<Cell>)> = Vec::new();
        for (i, cell) in self.cells.iter().enumerate() {
            let Some(name) = cell.filter(|&c| c != '.') else {
                continue;
            };
            let at = Cell {
                row: (i / self.width) as i32,
                col: (i % self.width) as i32,
            };
            match blocks.iter_mut().find(|(n, _)| *n == name) {
                Some((_, cells)) => cells.push(at),
                None => blocks.push((name, vec![at])),
            }
        }
        blocks
    }
}

/// Builds a puzzle from its start and goal grids (spec §1.3–1.4).
pub fn parse_puzzle(start: &str, goal: &str) -> Result<Puzzle, String> {
    let start = Grid::parse(start).map_err(|e| format!("start grid: {e}"))?;
    let goal = Grid::parse(goal).map_err(|e| format!("goal grid: {e}"))?;
    if start.cells.is_empty() && goal.cells.is_empty() {
        return Err("empty puzzle: neither grid has a board cell".into());
    }
    let same_board = start.width == goal.width
        && start.height == goal.height
        && start
            .cells
            .iter()
            .zip(&goal.cells)
            .all(|(a, b)| a.is_some() == b.is_some());
    if !same_board {
        return Err(format!(
            "mismatched bounds: the start board ({}x{}) and the goal board ({}x{}) differ",
            start.width, start.height, goal.width, goal.height
        ));
    }
    let mut blocks: Vec<Block> = start
        .blocks()
        .into_iter()
        .map(|(name, cells)| Block {
            name,
            cells,
            target: None,
        })
        .collect();
    for (name, goal_cells) in goal.blocks() {
        let Some(block) = blocks.iter_mut().find(|b| b.name == name) else {
            return Err(format!("goal block `{name}` missing from start"));
        };
        let offset = goal_cells[0].minus(block.cells[0]);
        let same_shape = goal_cells.len() == block.cells.len()
            && block
                .cells
                .iter()
                .zip(&goal_cells)
                .all(|(s, g)| g.minus(*s) == offset);
        if !same_shape {
            return Err(format!(
                "shape mismatch for `{name}` between start and goal"
            ));
        }
        block.target = Some(offset);
    }
    Ok(Puzzle {
        width: start.width,
        height: start.height,
        board: start.cells.iter().map(Option::is_some).collect(),
        blocks,
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::games::sliding_blocks::SlidingBlocks;
    use crate::games::sliding_blocks::rules::Cell;
    use crate::games::{Game, Source};

    fn parse_error(start: &str, goal: &str) -> String {
        match parse_puzzle(start, goal) {
            Ok(_) => panic!("{start:?} / {goal:?} parsed"),
            Err(e) => e,
        }
    }

    /// The error of an entry that must not parse.
    fn error_of<L, E: std::fmt::Display>(level: &Result<L, E>) -> String {
        level.as_ref().err().expect("an error").to_string()
    }

    #[test]
    fn malformed_puzzles_are_rejected_with_the_reason() {
        assert!(parse_error("a.", "a").contains("mismatched bounds"));
        assert!(parse_error("aa", "a.").contains("shape mismatch for `a`"));
        assert!(parse_error("a", "b").contains("goal block `b` missing from start"));
        assert!(parse_error("", "").contains("empty puzzle"));
        assert!(parse_error("a.", "").contains("mismatched bounds"));
        let wide = ".".repeat(256);
        assert!(parse_error(&wide, &wide).contains("too large"));
    }

    #[test]
    fn grids_are_cropped_and_may_hold_any_characters() {
        // Leading blank lines and common indentation do not matter; tabs are off the board.
        let p = parse_puzzle("\n\n   ★.\n\t  ..", "★.\n..").unwrap();
        assert_eq!((p.width, p.height), (2, 2));
        assert_eq!(p.blocks[0].name, '★');
        assert!(p.blocks[0].is_goal());
        // A disconnected block moves as one.
        let p = parse_puzzle("x.x\n...", "...\nx.x").unwrap();
        assert_eq!(p.blocks.len(), 1);
        assert_eq!(p.blocks[0].cells.len(), 2);
    }

    #[test]
    fn tsv_files_unescape_fields_and_report_bad_records_by_line() {
        let text = "name\tstart\tgoal\tnote\n\
                    ok\tA.\\\\\\n..\t.A\\\\\\n..\tx\n\
                    \n\
                    short\tA.\n\
                    bad escape\tA\\q\tA\tx\n\
                    ok\tA.\tA.\tx\n";
        let source = Source {
            path: Path::new("p.tsv"),
            stem: "p",
            text,
        };
        let entries = SlidingBlocks::parse(&source);
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["ok", "short", "bad escape", "ok"]);
        let first = entries[0]
            .level
            .as_ref()
            .expect("`\\\\` is a backslash block, `\\n` a newline");
        assert_eq!(
            first
                .puzzle
                .blocks
                .iter()
                .map(|b| b.name)
                .collect::<String>(),
            "A\\"
        );
        let expected = [
            ("p.tsv:4:", "expected 4 tab-separated fields"),
            ("p.tsv:5:", "unknown escape `\\q`"),
            ("p.tsv:6:", "duplicate puzzle name `ok`"),
        ];
        assert_eq!(entries.len(), 1 + expected.len());
        for (entry, (line, says)) in entries[1..].iter().zip(expected) {
            let error = error_of(&entry.level);
            assert!(error.starts_with(line) && error.contains(says), "{error}");
        }
    }

    #[test]
    fn tsv_files_need_the_puzzle_columns() {
        let source = Source {
            path: Path::new("answers.tsv"),
            stem: "answers",
            text: "name\tmin_moves\nx\t3\n",
        };
        let entries = SlidingBlocks::parse(&source);
        assert_eq!(entries.len(), 1);
        assert!(error_of(&entries[0].level).contains("answers.tsv:1: header must name"));
        assert!(
            !SlidingBlocks::holds_levels(source.text),
            "a walk skips answer tables"
        );
    }

    #[test]
    fn txt_files_need_a_separating_empty_line() {
        let source = Source {
            path: Path::new("one.txt"),
            stem: "one",
            text: "A.\n..",
        };
        let entries = SlidingBlocks::parse(&source);
        assert_eq!(entries[0].name, "one");
        assert!(error_of(&entries[0].level).contains("no empty line"));
        let source = Source {
            path: Path::new("two.txt"),
            stem: "two",
            text: "A.\r\n  \r\n\r\n.A\r\n\r\n",
        };
        // A row of spaces is part of the start grid; the first empty line separates.
        let entries = SlidingBlocks::parse(&source);
        let level = entries[0].level.as_ref().expect("valid");
        assert_eq!(level.puzzle.blocks[0].target, Some(Cell { row: 0, col: 1 }));
    }
}
