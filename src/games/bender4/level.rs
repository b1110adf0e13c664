//! Reading a map file (spec §1.1), strictly: every malformed or odd input is an error naming the
//! line and what was expected, never a panic and never the referee's silent repair.

use crate::games::Source;

/// The most cells a map may have (cell indices are `u16`).
pub const MAX_CELLS: usize = 1 << 16;
/// The most switches a map may have (a field mask is a `u32`).
pub const MAX_SWITCHES: usize = 32;

/// A grid coordinate: x = column, y = row, origin top-left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Xy {
    pub x: usize,
    pub y: usize,
}

/// One switch and the magnetic field it controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switch {
    pub at: Xy,
    pub field: Xy,
    /// Whether the field starts active (deadly).
    pub active: bool,
}

/// A map as written in its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    pub width: usize,
    pub height: usize,
    /// Row-major: `b'#'` wall, `b'.'` floor, `b'+'` a ball on floor.
    pub grid: Vec<u8>,
    pub start: Xy,
    pub target: Xy,
    /// Switch i is bit i of a field mask.
    pub switches: Vec<Switch>,
}

impl Map {
    pub fn at(&self, p: Xy) -> u8 {
        self.grid[p.y * self.width + p.x]
    }
}

/// The lines of a file, 1-based, with a CR before each LF dropped.
struct Lines<'a> {
    lines: Vec<&'a str>,
    next: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        let mut lines: Vec<&str> = text
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        // The empty piece after a final newline is not a line.
        if text.ends_with('\n') {
            lines.pop();
        }
        Lines { lines, next: 0 }
    }

    /// The next line and its 1-based number, or an error saying what was expected there.
    fn take(&mut self, expected: &str) -> Result<(usize, &'a str), (usize, String)> {
        let number = self.next + 1;
        match self.lines.get(self.next) {
            Some(line) => {
                self.next += 1;
                Ok((number, line))
            }
            None => Err((number, format!("file ends early: expected {expected}"))),
        }
    }
}

/// Parses one map file into its one level.
pub fn parse(source: &Source) -> Result<Map, crate::games::LevelError> {
    parse_text(source.text).map_err(|(line, message)| source.error(Some(line), message))
}

/// Parses a map; the error is (1-based line, message).
pub fn parse_text(text: &str) -> Result<Map, (usize, String)> {
    let mut lines = Lines::new(text);
    let (n, line) = lines.take("`W H` (width and height)")?;
    let [width, height] = numbers::<2>(line, "`W H` (width and height)").map_err(|e| (n, e))?;
    if width < 3 || height < 3 {
        return Err((
            n,
            format!("a {width}x{height} map has no floor inside its wall border (at least 3x3)"),
        ));
    }
    if width * height > MAX_CELLS {
        return Err((
            n,
            format!("a {width}x{height} map is too large (at most {MAX_CELLS} cells)"),
        ));
    }
    let mut grid = Vec::with_capacity(width * height);
    for y in 0..height {
        let (n, row) = lines.take(&format!("grid row {y} of {height}"))?;
        if let Some((x, c)) = row
            .chars()
            .enumerate()
            .find(|(_, c)| !matches!(c, '#' | '.' | '+'))
        {
            return Err((
                n,
                format!("grid row {y}, column {x}: unexpected `{c}` (expected `#`, `.` or `+`)"),
            ));
        }
        if row.len() != width {
            return Err((
                n,
                format!(
                    "grid row {y} has {} characters, expected {width}",
                    row.len()
                ),
            ));
        }
        for (x, c) in row.bytes().enumerate() {
            let border = x == 0 || y == 0 || x == width - 1 || y == height - 1;
            if border && c != b'#' {
                return Err((
                    n,
                    format!("grid row {y}, column {x}: the border must be wall `#`"),
                ));
            }
            grid.push(c);
        }
    }
    let mut map = Map {
        width,
        height,
        grid,
        start: Xy { x: 0, y: 0 },
        target: Xy { x: 0, y: 0 },
        switches: Vec::new(),
    };
    let (n, line) = lines.take("`startX startY`")?;
    map.start = cell(&map, line, "`startX startY`", "start").map_err(|e| (n, e))?;
    if map.at(map.start) == b'+' {
        return Err((n, "the start is on a ball".into()));
    }
    let (n, line) = lines.take("`targetX targetY`")?;
    map.target = cell(&map, line, "`targetX targetY`", "target").map_err(|e| (n, e))?;
    if map.at(map.target) == b'+' {
        return Err((n, "the target (Fry) is on a ball".into()));
    }
    if map.target == map.start {
        return Err((n, "the target is the start".into()));
    }
    let (n, line) = lines.take("the number of switches")?;
    let [count] = numbers::<1>(line, "the number of switches").map_err(|e| (n, e))?;
    if count > MAX_SWITCHES {
        return Err((
            n,
            format!("{count} switches: at most {MAX_SWITCHES} are supported"),
        ));
    }
    // Switch and field cells, with the line that claimed each.
    let mut used: Vec<(Xy, usize, &str)> = Vec::new();
    for i in 0..count {
        let expected = format!(
            "switch line {} of {count}: `switchX switchY fieldX fieldY initial`",
            i + 1
        );
        let (n, line) = lines.take(&expected)?;
        let [sx, sy, fx, fy, initial] = numbers::<5>(line, &expected).map_err(|e| (n, e))?;
        let at = on_floor(&map, Xy { x: sx, y: sy }, "switch").map_err(|e| (n, e))?;
        let field = on_floor(&map, Xy { x: fx, y: fy }, "field").map_err(|e| (n, e))?;
        if initial > 1 {
            return Err((n, format!("initial state {initial}: expected 0 or 1")));
        }
        for (p, what) in [(at, "switch"), (field, "field")] {
            if let Some((_, first, first_what)) = used.iter().find(|(q, _, _)| *q == p) {
                return Err((
                    n,
                    format!(
                        "{what} cell {} {} is already the {first_what} cell of line {first}",
                        p.x, p.y
                    ),
                ));
            }
            used.push((p, n, what));
        }
        map.switches.push(Switch {
            at,
            field,
            active: initial == 1,
        });
    }
    while let Ok((n, line)) = lines.take("") {
        if !line.is_empty() {
            return Err((
                n,
                format!(
                    "unexpected text after the {count} switch lines (only empty lines may follow)"
                ),
            ));
        }
    }
    Ok(map)
}

/// Exactly `N` decimal numbers separated by single spaces.
fn numbers<const N: usize>(line: &str, expected: &str) -> Result<[usize; N], String> {
    let parts: Vec<&str> = line.split(' ').collect();
    if parts.len() != N {
        return Err(format!("expected {expected}, found `{line}`"));
    }
    let mut out = [0; N];
    for (slot, part) in out.iter_mut().zip(&parts) {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) || part.len() > 9 {
            return Err(format!(
                "`{part}` is not a decimal number (expected {expected}, found `{line}`)"
            ));
        }
        *slot = part.parse().expect("at most nine decimal digits");
    }
    Ok(out)
}

/// A cell given as `x y`, inside the grid and not a wall.
fn cell(map: &Map, line: &str, expected: &str, what: &str) -> Result<Xy, String> {
    let [x, y] = numbers::<2>(line, expected)?;
    on_floor(map, Xy { x, y }, what)
}

fn on_floor(map: &Map, p: Xy, what: &str) -> Result<Xy, String> {
    if p.x >= map.width || p.y >= map.height {
        return Err(format!(
            "the {what} cell {} {} is outside the {}x{} grid",
            p.x, p.y, map.width, map.height
        ));
    }
    if map.at(p) == b'#' {
        return Err(format!("the {what} cell {} {} is a wall", p.x, p.y));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use crate::games::bender4::Level;

    #[test]
    fn the_parser_names_the_line_of_each_error() {
        let cases: &[(&str, usize, &str)] = &[
            ("10\n", 1, "`W H`"),
            ("4 x\n", 1, "not a decimal number"),
            ("4  3\n", 1, "`W H`"),
            ("4 3\n####\n#..#\n", 4, "file ends early"),
            ("4 3\n####\n#...#\n####\n", 3, "5 characters, expected 4"),
            ("4 3\n####\n#.a#\n####\n", 3, "unexpected `a`"),
            ("4 3\n####\n#...\n####\n", 3, "border"),
            ("4 3\n####\n#..#\n####\n0 0\n", 5, "is a wall"),
            ("4 3\n####\n#..#\n####\n1 1\n5 1\n", 6, "outside"),
            (
                "4 3\n####\n#+.#\n####\n1 1\n2 1\n0\n",
                5,
                "start is on a ball",
            ),
            ("4 3\n####\n#.+#\n####\n1 1\n2 1\n0\n", 6, "on a ball"),
            (
                "4 3\n####\n#..#\n####\n1 1\n1 1\n0\n",
                6,
                "target is the start",
            ),
            (
                "4 3\n####\n#..#\n####\n1 1\n2 1\n1\n1 1 2 1 2\n",
                8,
                "expected 0 or 1",
            ),
            (
                "5 3\n#####\n#...#\n#####\n1 1\n3 1\n2\n2 1 3 1 0\n2 1 1 1 0\n",
                9,
                "already the switch cell of line 8",
            ),
            (
                "5 3\n#####\n#...#\n#####\n1 1\n3 1\n2\n2 1 3 1 0\n1 1 3 1 0\n",
                9,
                "already the field cell",
            ),
            (
                "5 3\n#####\n#...#\n#####\n1 1\n3 1\n1\n2 1 2 1 0\n",
                8,
                "already the switch cell",
            ),
            ("4 3\n####\n#..#\n####\n1 1\n2 1\n1\n", 8, "file ends early"),
            (
                "4 3\n####\n#..#\n####\n1 1\n2 1\n0\n\nx\n",
                9,
                "unexpected text",
            ),
            (
                "4 3\n####\n#..#\n####\n1 1\n2 1\n-1\n",
                7,
                "not a decimal number",
            ),
        ];
        for &(text, line, message) in cases {
            match Level::parse_text(text) {
                Ok(_) => panic!("accepted {text:?}"),
                Err((l, m)) => {
                    assert_eq!(l, line, "line of {text:?}: {m}");
                    assert!(m.contains(message), "message of {text:?}: {m}");
                }
            }
        }
        assert!(Level::parse_text("4 3\r\n####\r\n#..#\r\n####\r\n1 1\r\n2 1\r\n0").is_ok());
        assert!(Level::parse_text("4 3\n####\n#..#\n####\n1 1\n2 1\n0\n\n\n").is_ok());
    }
}
