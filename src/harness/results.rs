//! The results CSV (spec `cli.md`): one [`Row`] per level, written and read per RFC 4180, and
//! always written whole (temporary file, then rename).

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::str::FromStr;

/// The columns, in order.
pub const HEADER: [&str; 12] = [
    "game",
    "level",
    "status",
    "moves",
    "optimal",
    "score",
    "states",
    "expanded",
    "millis",
    "bytes_per_state",
    "solution",
    "detail",
];

/// How a level ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    Solved,
    Unsolvable,
    Limit,
    Error,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Limit => "limit",
            Status::Error => "error",
        }
    }

    /// Whether the level was decided (solved or proven unsolvable).
    pub fn is_decided(self) -> bool {
        matches!(self, Status::Solved | Status::Unsolvable)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Status {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        [
            Status::Solved,
            Status::Unsolvable,
            Status::Limit,
            Status::Error,
        ]
        .into_iter()
        .find(|st| st.as_str() == s)
        .ok_or_else(|| format!("unknown status `{s}`"))
    }
}

/// One level's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub game: String,
    pub level: String,
    pub status: Status,
    pub moves: Option<u64>,
    pub optimal: bool,
    pub score: Option<u64>,
    pub states: u64,
    pub expanded: u64,
    pub millis: f64,
    pub bytes_per_state: f64,
    pub solution: String,
    /// Why, for `error` and `limit` rows; for a `solved` row that is not optimal, which limit
    /// stopped the optimal search and the bounds it proved (empty when no limit was hit).
    pub detail: String,
}

impl Row {
    /// Whether a limit stopped this level's search: a `limit` row, or a solution found after
    /// the optimal search stopped (not optimal, with the limit in `detail`). Its states and
    /// time measure the limit, not the solver.
    pub fn hit_limit(&self) -> bool {
        self.status == Status::Limit
            || (self.status == Status::Solved && !self.optimal && !self.detail.is_empty())
    }

    /// A row for a level that ended before any search (an `error` row).
    pub fn error(game: &str, level: &str, detail: String) -> Row {
        Row {
            game: game.to_string(),
            level: level.to_string(),
            status: Status::Error,
            moves: None,
            optimal: false,
            score: None,
            states: 0,
            expanded: 0,
            millis: 0.0,
            bytes_per_state: 0.0,
            solution: String::new(),
            detail,
        }
    }

    /// A row for a level that a limit ended before any search (e.g. an interrupted run).
    pub fn limit(game: &str, level: &str, detail: String) -> Row {
        Row {
            status: Status::Limit,
            ..Row::error(game, level, detail)
        }
    }

    fn fields(&self) -> [String; 12] {
        let opt = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
        [
            self.game.clone(),
            self.level.clone(),
            self.status.to_string(),
            opt(self.moves),
            if self.optimal { "yes" } else { "no" }.to_string(),
            opt(self.score),
            self.states.to_string(),
            self.expanded.to_string(),
            format!("{:.3}", self.millis),
            format!("{:.1}", self.bytes_per_state),
            self.solution.clone(),
            self.detail.clone(),
        ]
    }

    fn from_fields(f: &[String]) -> Result<Row, String> {
        let int = |i: usize| -> Result<u64, String> {
            f[i].parse()
                .map_err(|_| format!("column `{}`: `{}` is not a whole number", HEADER[i], f[i]))
        };
        let opt = |i: usize| {
            if f[i].is_empty() {
                Ok(None)
            } else {
                int(i).map(Some)
            }
        };
        let float = |i: usize| -> Result<f64, String> {
            f[i].parse()
                .map_err(|_| format!("column `{}`: `{}` is not a number", HEADER[i], f[i]))
        };
        Ok(Row {
            game: f[0].clone(),
            level: f[1].clone(),
            status: f[2].parse()?,
            moves: opt(3)?,
            optimal: match f[4].as_str() {
                "yes" => true,
                "no" => false,
                other => return Err(format!("column `optimal`: `{other}` is not yes or no")),
            },
            score: opt(5)?,
            states: int(6)?,
            expanded: int(7)?,
            millis: float(8)?,
            bytes_per_state: float(9)?,
            solution: f[10].clone(),
            detail: f[11].clone(),
        })
    }
}

/// Quotes a field when it holds a comma, a quote or a line break (RFC 4180).
fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// The whole CSV text for `rows`.
pub fn to_csv(rows: &[Row]) -> String {
    let mut out = HEADER.join(",");
    out.push('\n');
    for row in rows {
        let fields: Vec<String> = row.fields().iter().map(|f| quote(f)).collect();
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// Writes `text` to `path` through a temporary file beside it and a rename, so a reader sees
/// the old file or the new one, never half of one. A path that exists and is not a regular
/// file (`--out /dev/null`, a pipe) is written in place: a rename would replace the device or
/// pipe with a regular file, and as root that turns /dev/null into a file every later reader
/// of /dev/null reads back.
pub fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
    if fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return fs::OpenOptions::new()
            .write(true)
            .open(path)?
            .write_all(text.as_bytes());
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("results.csv");
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Splits CSV text into records of fields (RFC 4180: quoted fields may hold commas, quotes and
/// line breaks).
fn records(text: &str) -> Result<Vec<(usize, Vec<String>)>, String> {
    let mut records = Vec::new();
    let mut fields = Vec::new();
    let mut field = String::new();
    let (mut line, mut record_line) = (1, 1);
    let mut chars = text.chars().peekable();
    let mut in_quotes = false;
    while let Some(c) = chars.next() {
        match (in_quotes, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => in_quotes = false,
            (true, c) => {
                if c == '\n' {
                    line += 1;
                }
                field.push(c);
            }
            (false, '"') if field.is_empty() => in_quotes = true,
            (false, ',') => fields.push(std::mem::take(&mut field)),
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n') => {
                fields.push(std::mem::take(&mut field));
                records.push((record_line, std::mem::take(&mut fields)));
                line += 1;
                record_line = line;
            }
            (false, c) => field.push(c),
        }
    }
    if in_quotes {
        return Err(format!("line {record_line}: unterminated quoted field"));
    }
    if !field.is_empty() || !fields.is_empty() {
        fields.push(field);
        records.push((record_line, fields));
    }
    Ok(records)
}

/// Reads a results CSV written by frontier (extra columns at the end are ignored).
pub fn parse_csv(text: &str) -> Result<Vec<Row>, String> {
    let records = records(text)?;
    let Some((_, header)) = records.first() else {
        return Err("empty file: expected the results header".into());
    };
    if header.len() < HEADER.len() || header[..HEADER.len()] != HEADER {
        return Err(format!(
            "line 1: expected the header `{}`",
            HEADER.join(",")
        ));
    }
    records[1..]
        .iter()
        .filter(|(_, f)| !(f.len() == 1 && f[0].is_empty()))
        .map(|(line, f)| {
            if f.len() < HEADER.len() {
                return Err(format!(
                    "line {line}: expected {} fields, found {}",
                    HEADER.len(),
                    f.len()
                ));
            }
            Row::from_fields(f).map_err(|e| format!("line {line}: {e}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(level: &str, solution: &str) -> Row {
        Row {
            game: "golf-peaks".into(),
            level: level.into(),
            status: Status::Solved,
            moves: Some(2),
            optimal: true,
            score: Some(2),
            states: 10,
            expanded: 4,
            millis: 1.25,
            bytes_per_state: 17.5,
            solution: solution.into(),
            detail: String::new(),
        }
    }

    #[test]
    fn fields_with_commas_quotes_and_newlines_round_trip() {
        let rows = vec![
            row("plain", "1-↘ 1/2-↗"),
            row("a,b", "3,6,R 3,12,D"),
            row("say \"hi\"", "line\nbreak"),
        ];
        let text = to_csv(&rows);
        assert!(text.contains("\"3,6,R 3,12,D\""));
        assert!(text.contains("\"say \"\"hi\"\"\""));
        assert_eq!(parse_csv(&text).unwrap(), rows);
    }

    #[test]
    fn a_wrong_header_is_rejected() {
        assert!(parse_csv("a,b\n1,2\n").unwrap_err().contains("header"));
    }

    #[test]
    fn atomic_write_replaces_the_whole_file() {
        let dir = std::env::temp_dir().join(format!("frontier-csv-{}", std::process::id()));
        let path = dir.join("out.csv");
        write_atomically(&path, "old\n").unwrap();
        write_atomically(&path, &to_csv(&[row("x", "")])).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("game,level,status"));
        let leftovers = fs::read_dir(&dir).unwrap().count();
        assert_eq!(leftovers, 1, "no temporary file stays behind");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_device_is_written_in_place_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let null = Path::new("/dev/null");
        let is_device = |p: &Path| fs::metadata(p).is_ok_and(|m| m.file_type().is_char_device());
        if !is_device(null) {
            return; // nothing to protect on this machine
        }
        write_atomically(null, "game,level\n").unwrap();
        assert!(is_device(null), "/dev/null was replaced by a file");
        assert_eq!(fs::read(null).unwrap(), b"");
    }
}
