//! Reading level files (spec §1.1, L1–L6): `level NAME` lines, each followed by a grid up to the
//! first empty line. A bad level becomes one error entry naming its line; the others still parse.

use std::collections::HashMap;

use super::rules::{Dir, Grid, Ice, Position, Tile};
use crate::games::{LevelEntry, LevelError, SingleLevelFile, Source};

/// The largest grid, border included (L4: the original game's limit).
pub const MAX_COLS: usize = 20;
pub const MAX_ROWS: usize = 14;

/// A parsed level: the static grid and the start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub grid: Grid,
    pub start: Position,
}

/// Splits a file into its levels (L1–L3).
pub fn parse_file(source: &Source) -> Vec<LevelEntry<Puzzle>> {
    let lines: Vec<&str> = source
        .text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut entries = Vec::new();
    let mut first_line_of: HashMap<String, usize> = HashMap::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let line_no = i + 1;
        i += 1;
        if line.trim().is_empty() || line.starts_with(';') {
            continue;
        }
        let Some(name) = level_name(line) else {
            entries.push(LevelEntry {
                name: format!("{}:{line_no}", source.stem),
                alone: SingleLevelFile::of_lines(source, [line]),
                level: Err(source.error(
                    Some(line_no),
                    format!(
                        "expected `level NAME`, a `;` comment or an empty line, found `{line}`"
                    ),
                )),
            });
            continue;
        };
        // The grid: the following lines up to the first empty one (L4).
        let first_row = i;
        while i < lines.len() && !lines[i].trim().is_empty() {
            i += 1;
        }
        let level = match &name {
            Err(message) => Err(source.error(Some(line_no), message.clone())),
            Ok(name) => match first_line_of.get(*name) {
                Some(first) => Err(source.error(
                    Some(line_no),
                    format!("duplicate level name `{name}` (first on line {first})"),
                )),
                None => parse_grid(&lines[first_row..i], first_row + 1)
                    .map_err(|(line, message)| source.error(Some(line), message)),
            },
        };
        let name = match name {
            Ok(name) => {
                first_line_of.entry(name.to_string()).or_insert(line_no);
                name.to_string()
            }
            Err(_) => format!("{}:{line_no}", source.stem),
        };
        // The `level NAME` line and the grid.
        let alone = SingleLevelFile::of_lines(source, lines[line_no - 1..i].iter().copied());
        entries.push(LevelEntry { name, level, alone });
    }
    entries
}

/// The NAME of a `level NAME` line (L3): `None` if the line is not a level line at all.
fn level_name(line: &str) -> Option<Result<&str, String>> {
    let rest = line.strip_prefix("level")?;
    if !rest.is_empty() && !rest.starts_with(' ') {
        return None;
    }
    let name = rest.trim_start_matches(' ').trim_end();
    Some(if name.is_empty() {
        Err("expected a level name after `level`".to_string())
    } else if name.contains(char::is_whitespace) {
        Err(format!("a level name has no whitespace, found `{name}`"))
    } else {
        Ok(name)
    })
}

/// Parses a grid whose first row is on line `first_line` (L4–L6). Errors carry their line.
pub fn parse_grid(rows: &[&str], first_line: usize) -> Result<Puzzle, (usize, String)> {
    let last_line = first_line + rows.len().saturating_sub(1);
    if rows.len() < 3 {
        return Err((
            first_line.saturating_sub(1).max(1),
            format!(
                "expected a grid of at least 3 rows after the `level` line, found {}",
                rows.len()
            ),
        ));
    }
    if rows.len() > MAX_ROWS {
        return Err((
            first_line + MAX_ROWS,
            format!(
                "a grid has at most {MAX_ROWS} rows, found {} (a level ends at an empty line)",
                rows.len()
            ),
        ));
    }
    let width = rows[0].chars().count();
    if width < 3 {
        return Err((
            first_line,
            format!("expected rows of at least 3 cells, found {width}"),
        ));
    }
    if width > MAX_COLS {
        return Err((
            first_line,
            format!("a grid has at most {MAX_COLS} columns, found {width}"),
        ));
    }
    let height = rows.len();
    let mut tiles = Vec::with_capacity(width * height);
    let mut ice = Vec::with_capacity(width * height);
    let mut magicians = Vec::new();
    let mut dispenser = None;
    for (r, row) in rows.iter().enumerate() {
        let line = first_line + r;
        let cells: Vec<char> = row.chars().collect();
        if cells.len() != width {
            return Err((
                line,
                format!(
                    "every row must have {width} cells like the first one, found {}",
                    cells.len()
                ),
            ));
        }
        for (c, &ch) in cells.iter().enumerate() {
            let (tile, block) = match ch {
                '#' => (Tile::Wall, None),
                ' ' | '.' => (Tile::Floor, None),
                '%' => (Tile::Floor, Some(Ice::Regular)),
                '$' => (Tile::Floor, Some(Ice::Golden)),
                '*' => (Tile::Fire, None),
                '-' => (Tile::Recycler, None),
                '@' => {
                    magicians.push((line, r * width + c));
                    (Tile::Floor, None)
                }
                '^' => (Tile::Arrow(Dir::Up), None),
                'v' => (Tile::Arrow(Dir::Down), None),
                '<' => (Tile::Arrow(Dir::Left), None),
                '>' => (Tile::Arrow(Dir::Right), None),
                '+' => {
                    dispenser.get_or_insert(line);
                    (Tile::Floor, None)
                }
                other => {
                    return Err((
                        line,
                        format!(
                            "invalid cell `{}` at column {c} (expected one of `# .%$*-@^v<>`)",
                            other.escape_default()
                        ),
                    ));
                }
            };
            let on_border = r == 0 || r == height - 1 || c == 0 || c == width - 1;
            if on_border && tile != Tile::Wall {
                return Err((
                    line,
                    format!("the outer ring must be wall `#`, found `{ch}` at column {c}"),
                ));
            }
            tiles.push(tile);
            ice.push(block);
        }
    }
    if let Some(line) = dispenser {
        return Err((line, "unsupported: dispenser".to_string()));
    }
    let magician = match magicians.as_slice() {
        [(_, cell)] => *cell,
        [] => {
            return Err((
                last_line,
                "expected exactly one magician `@`, found none".into(),
            ));
        }
        [_, (line, _), ..] => {
            return Err((
                *line,
                format!(
                    "expected exactly one magician `@`, found {}",
                    magicians.len()
                ),
            ));
        }
    };
    let burning = tiles.iter().map(|&t| t == Tile::Fire).collect();
    Ok(Puzzle {
        grid: Grid {
            width,
            height,
            tiles,
        },
        start: Position {
            ice,
            burning,
            magician,
        },
    })
}

/// Whether text looks like Ice Tower levels: a `level NAME` line followed by a walled grid.
pub fn looks_like_levels(text: &str) -> bool {
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if matches!(level_name(line), Some(Ok(_))) {
            return lines
                .next()
                .is_some_and(|row| !row.is_empty() && row.trim_end().chars().all(|c| c == '#'));
        }
    }
    false
}

/// Checks a level's grid alone, for tests and tools: rows separated by `/` as in spec §4.
pub fn parse_rows(rows: &str) -> Result<Puzzle, LevelError> {
    let rows: Vec<&str> = rows.split('/').map(str::trim).collect();
    parse_grid(&rows, 1).map_err(|(line, message)| LevelError {
        file: "<grid>".into(),
        line: Some(line),
        message,
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::games::ice_tower::IceTower;
    use crate::games::ice_tower::rules::Ice;
    use crate::games::ice_tower::tests::ice_at;
    use crate::games::{Game, Source};

    fn parse(text: &str) -> Vec<(String, Result<Puzzle, String>)> {
        let source = Source {
            path: Path::new("levels.txt"),
            stem: "levels",
            text,
        };
        IceTower::parse(&source)
            .into_iter()
            .map(|e| (e.name, e.level.map_err(|e| e.to_string())))
            .collect()
    }

    /// The error of the first entry of a file.
    fn parse_error(text: &str) -> String {
        parse(text)[0].1.clone().expect_err("an error")
    }

    #[test]
    fn parses_several_levels_with_comments_and_crlf() {
        let text = "; first\r\nlevel a\r\n#####\r\n#@%*#\r\n#####\r\n\r\n;second\nlevel  b\n#####\n#.@*#\n#%..#\n#####\n";
        let entries = parse(text);
        let names: Vec<&str> = entries.iter().map(|e| e.0.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        let b = entries[1].1.as_ref().unwrap();
        assert_eq!((b.grid.width, b.grid.height), (5, 4));
        assert_eq!(b.start.magician, b.grid.cell(1, 2));
        assert_eq!(ice_at(b, &b.start, 2, 1), Some(Ice::Regular));
    }

    #[test]
    fn a_bad_level_does_not_spoil_the_others() {
        let text = "level bad\n#####\n#@&*#\n#####\n\nlevel good\n#####\n#@%*#\n#####\n";
        let entries = parse(text);
        assert_eq!(entries.len(), 2);
        assert_eq!(
            entries[0].1.as_ref().unwrap_err(),
            "levels.txt:3: invalid cell `&` at column 2 (expected one of `# .%$*-@^v<>`)"
        );
        assert!(entries[1].1.is_ok());
    }

    #[test]
    fn parser_errors_name_the_line() {
        let cases = [
            (
                "hello\nlevel a\n###\n#@#\n###\n",
                "levels.txt:1: expected `level NAME`",
            ),
            (
                "level\n###\n#@#\n###\n",
                "levels.txt:1: expected a level name",
            ),
            (
                "level a b\n###\n#@#\n###\n",
                "levels.txt:1: a level name has no whitespace",
            ),
            (
                "level a\n###\n#@#\n",
                "levels.txt:1: expected a grid of at least 3 rows",
            ),
            (
                "level a\n####\n#@#\n####\n",
                "levels.txt:3: every row must have 4 cells",
            ),
            (
                "level a\n##\n##\n##\n",
                "levels.txt:2: expected rows of at least 3 cells",
            ),
            (
                "level a\n#####\n#@\t*#\n#####\n",
                "levels.txt:3: invalid cell `\\t` at column 2",
            ),
            (
                "level a\n#####\n#@;*#\n#####\n",
                "levels.txt:3: invalid cell `;`",
            ),
            (
                "level a\n#####\n@ %*#\n#####\n",
                "levels.txt:3: the outer ring must be wall",
            ),
            (
                "level a\n#####\n# %*#\n#####\n",
                "levels.txt:4: expected exactly one magician `@`, found none",
            ),
            (
                "level a\n#####\n#@@*#\n#####\n",
                "levels.txt:3: expected exactly one magician `@`, found 2",
            ),
            (
                "level a\n####\n#@+#\n####\n",
                "levels.txt:3: unsupported: dispenser",
            ),
        ];
        for (text, expected) in cases {
            let error = parse_error(text);
            assert!(error.starts_with(expected), "{text:?}: {error}");
        }
        let wide = format!(
            "level a\n{}\n#@{}#\n{}\n",
            "#".repeat(21),
            " ".repeat(18),
            "#".repeat(21)
        );
        assert!(parse_error(&wide).contains("at most 20 columns, found 21"));
        let tall = format!("level a\n###\n{}###\n", "#@#\n".repeat(13));
        assert!(parse_error(&tall).starts_with("levels.txt:16: a grid has at most 14 rows"));
    }

    #[test]
    fn duplicate_names_are_errors_but_the_first_stays() {
        let text = "level a\n###\n#@#\n###\n\nlevel a\n###\n#@#\n###\n";
        let entries = parse(text);
        assert!(entries[0].1.is_ok());
        assert_eq!(
            entries[1].1.as_ref().unwrap_err(),
            "levels.txt:6: duplicate level name `a` (first on line 1)"
        );
    }

    #[test]
    fn a_level_line_inside_a_grid_is_a_bad_row() {
        // The grid runs to the first empty line, so `level b` is a row of level a.
        let entries = parse("level a\n###\n#@#\n###\nlevel b\n###\n#@#\n###\n");
        assert_eq!(entries.len(), 1);
        assert!(
            entries[0]
                .1
                .as_ref()
                .unwrap_err()
                .starts_with("levels.txt:5:")
        );
    }

    #[test]
    fn sniffs_level_files_only() {
        assert!(looks_like_levels("; c\nlevel a\n###\n#@#\n###\n"));
        assert!(!looks_like_levels("file\tlevel\toptimal_pushes\n"));
        assert!(!looks_like_levels("name\tstart\tgoal\n"));
    }

    #[test]
    fn case_dispenser_is_unsupported() {
        let error = parse_rows("#### / #@+# / ####").unwrap_err();
        assert_eq!(error.message, "unsupported: dispenser");
    }
}
