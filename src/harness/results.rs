//! The results CSV (spec `cli.md`): one [`Row`] per level, written and read per RFC 4180 by the
//! `csv` crate through the row's serde derive, and always written whole (temporary file, then
//! rename).

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::games::{GameId, Limit};
use crate::words;

/// The columns, in order: the spec's twelve, then the fastest and slowest of a level's runs
/// (`solve --repeat`; `millis` is then their median), then what the operating system measured
/// of an external solver's processes (`solve --solver`): peak resident memory and CPU time.
pub const HEADER: [&str; 16] = [
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
    "millis_min",
    "millis_max",
    "peak_kib",
    "cpu_millis",
];

/// The columns every results file has (spec `cli.md`).
const SPEC_COLUMNS: usize = 12;

/// How a level ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Solved,
    Unsolvable,
    Limit,
    Error,
    /// An external solver's answer that the checker rejected (`solve --solver`).
    Wrong,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Limit => "limit",
            Status::Error => "error",
            Status::Wrong => "wrong",
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
            Status::Wrong,
        ]
        .into_iter()
        .find(|st| st.as_str() == s)
        .ok_or_else(|| format!("unknown status `{s}`"))
    }
}

/// One level's result, typed: a record of the CSV once [`Record`] has written its limit, bound
/// and note as the `detail` text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "Record", try_from = "Record")]
pub struct Row {
    pub game: GameId,
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
    /// What stopped the level's search: a `limit` row's cause, or, for a `solved` row that is
    /// not optimal, the limit that stopped its proof or its search (`None`: nothing did).
    pub limit: Option<Limit>,
    /// The bound a stopped proof showed: no solution has fewer moves.
    pub lower: Option<u64>,
    /// Text for people: an `error` row's message, a solver's note. Nothing decides on it.
    pub note: String,
    /// The fastest and slowest of the level's runs when it was solved more than once (absent in
    /// files written before `--repeat`: read as `millis`).
    pub millis_min: Option<f64>,
    pub millis_max: Option<f64>,
    /// An external solver's peak resident memory in KiB, all its processes together, as the
    /// operating system measured it (absent for frontier's own searches, and in older files).
    pub peak_kib: Option<u64>,
    /// An external solver's CPU time (user and system, all its processes), milliseconds.
    pub cpu_millis: Option<f64>,
}

/// A row as the CSV holds it, its fields in the order of [`HEADER`]: [`Row`]'s limit, bound
/// and note in one `detail` text.
#[derive(Serialize, Deserialize)]
struct Record {
    game: String,
    level: String,
    status: Status,
    moves: Option<u64>,
    #[serde(with = "yes_no")]
    optimal: bool,
    score: Option<u64>,
    states: u64,
    expanded: u64,
    #[serde(serialize_with = "three_decimals")]
    millis: f64,
    #[serde(serialize_with = "one_decimal")]
    bytes_per_state: f64,
    solution: String,
    detail: String,
    #[serde(default, serialize_with = "three_decimals_or_empty")]
    millis_min: Option<f64>,
    #[serde(default, serialize_with = "three_decimals_or_empty")]
    millis_max: Option<f64>,
    #[serde(default)]
    peak_kib: Option<u64>,
    #[serde(default, serialize_with = "three_decimals_or_empty")]
    cpu_millis: Option<f64>,
}

/// The bound after a `limit` row's limit, and after a stopped proof's solved row's.
const NO_SOLUTION_BELOW: &str = "no solution has fewer than ";
const OPTIMUM_BETWEEN: &str = "optimum between ";

impl From<Row> for Record {
    fn from(row: Row) -> Record {
        let detail = row.detail();
        Record {
            game: row.game.as_str().to_string(),
            level: row.level,
            status: row.status,
            moves: row.moves,
            optimal: row.optimal,
            score: row.score,
            states: row.states,
            expanded: row.expanded,
            millis: row.millis,
            bytes_per_state: row.bytes_per_state,
            solution: row.solution,
            detail,
            millis_min: row.millis_min,
            millis_max: row.millis_max,
            peak_kib: row.peak_kib,
            cpu_millis: row.cpu_millis,
        }
    }
}

impl TryFrom<Record> for Row {
    type Error = String;

    fn try_from(record: Record) -> Result<Row, String> {
        let (limit, lower, note) = read_detail(&record.detail);
        Ok(Row {
            game: record.game.parse()?,
            level: record.level,
            status: record.status,
            moves: record.moves,
            optimal: record.optimal,
            score: record.score,
            states: record.states,
            expanded: record.expanded,
            millis: record.millis,
            bytes_per_state: record.bytes_per_state,
            solution: record.solution,
            limit,
            lower,
            note,
            millis_min: record.millis_min,
            millis_max: record.millis_max,
            peak_kib: record.peak_kib,
            cpu_millis: record.cpu_millis,
        })
    }
}

/// A `detail` text's limit, bound and note, as [`Record`] wrote them; text that names no
/// limit is all note (an error's message, or a file of another version).
fn read_detail(detail: &str) -> (Option<Limit>, Option<u64>, String) {
    let (first, rest) = detail.split_once("; ").unwrap_or((detail, ""));
    let Ok(limit) = first.parse::<Limit>() else {
        return (None, None, detail.to_string());
    };
    let (bound, note) = rest.split_once("; ").unwrap_or((rest, ""));
    let number = |text: &str| text.split(' ').next().and_then(|n| n.parse::<u64>().ok());
    let lower = bound
        .strip_prefix(NO_SOLUTION_BELOW)
        .or_else(|| bound.strip_prefix(OPTIMUM_BETWEEN))
        .and_then(number);
    match lower {
        Some(lower) => (Some(limit), Some(lower), note.to_string()),
        None => (Some(limit), None, rest.to_string()),
    }
}

/// The median of run times (of a level solved several times); sorts them.
pub fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    let middle = times.len() / 2;
    if times.len() % 2 == 1 {
        times[middle]
    } else {
        (times[middle - 1] + times[middle]) / 2.0
    }
}

impl Row {
    /// Whether a limit stopped this level's search: a `limit` row, or a solution found after
    /// the optimal search stopped (not optimal, with the limit in `detail`). Its states and
    /// time measure the limit, not the solver.
    pub fn hit_limit(&self) -> bool {
        self.status == Status::Limit || (self.status == Status::Solved && self.limit.is_some())
    }

    /// The `detail` column: the limit, the bound it left, then the note.
    pub fn detail(&self) -> String {
        let noun = self.game.move_noun();
        let mut parts = Vec::new();
        if let Some(limit) = self.limit {
            parts.push(limit.to_string());
        }
        match (self.lower, self.status) {
            (Some(lower), Status::Solved) => parts.push(format!(
                "{OPTIMUM_BETWEEN}{lower} and {} {}",
                self.moves.unwrap_or(lower),
                words::plural(noun)
            )),
            (Some(lower), _) => {
                parts.push(format!("{NO_SOLUTION_BELOW}{}", words::count(lower, noun)))
            }
            (None, _) => {}
        }
        if !self.note.is_empty() {
            parts.push(self.note.clone());
        }
        parts.join("; ")
    }

    /// Whether `states` counts something: not for an external solver that reported no count
    /// (its row has the kernel's measures, `peak_kib`, and 0 states), which compares with no
    /// other run's states.
    pub fn states_known(&self) -> bool {
        self.states > 0 || self.peak_kib.is_none()
    }

    /// The range of the level's run times: one run's time, or the fastest and slowest of
    /// several.
    pub fn millis_range(&self) -> (f64, f64) {
        (
            self.millis_min.unwrap_or(self.millis),
            self.millis_max.unwrap_or(self.millis),
        )
    }

    /// A row for a level that ended before any search (an `error` row): why, for people.
    pub fn error(game: GameId, level: &str, message: String) -> Row {
        Row {
            game,
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
            limit: None,
            lower: None,
            note: message,
            millis_min: None,
            millis_max: None,
            peak_kib: None,
            cpu_millis: None,
        }
    }

    /// A row for a level that a limit ended before any search (e.g. an interrupted run).
    pub fn limit(game: GameId, level: &str, limit: Limit) -> Row {
        Row {
            status: Status::Limit,
            limit: Some(limit),
            ..Row::error(game, level, String::new())
        }
    }
}

/// `optimal` as the spec writes it.
mod yes_no {
    use super::*;

    pub fn serialize<S: Serializer>(value: &bool, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(if *value { "yes" } else { "no" })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        match <&str>::deserialize(d)? {
            "yes" => Ok(true),
            "no" => Ok(false),
            other => Err(serde::de::Error::custom(format!(
                "column `optimal`: `{other}` is not yes or no"
            ))),
        }
    }
}

/// Milliseconds to the microsecond: finer is noise.
fn three_decimals<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&format_args!("{value:.3}"))
}

fn three_decimals_or_empty<S: Serializer>(value: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => three_decimals(v, s),
        None => s.serialize_none(),
    }
}

/// Bytes per state to a tenth of a byte.
fn one_decimal<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&format_args!("{value:.1}"))
}

/// Serialisable records written by `writer` (its delimiter and quoting), header first from the
/// first record's fields (no records: no header).
pub fn records_text<R: Serialize>(
    writer: &csv::WriterBuilder,
    records: impl IntoIterator<Item = R>,
) -> String {
    let mut writer = writer.from_writer(Vec::new());
    for record in records {
        writer
            .serialize(record)
            .expect("writing to memory cannot fail");
    }
    String::from_utf8(writer.into_inner().expect("writing to memory cannot fail"))
        .expect("the fields are text")
}

/// The whole CSV text for `rows`.
pub fn to_csv(rows: &[Row]) -> String {
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    // Written by hand so that an empty file still has its header.
    writer.write_record(HEADER).expect("writing to memory");
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(writer.into_inner().expect("writing to memory"));
    for row in rows {
        writer.serialize(row).expect("a row serialises to CSV");
    }
    String::from_utf8(writer.into_inner().expect("writing to memory")).expect("rows are UTF-8")
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

/// Reads a results CSV written by frontier, by column name (extra columns, e.g. of later
/// versions, are ignored). Errors name the line.
pub fn parse_csv(text: &str) -> Result<Vec<Row>, String> {
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let header = reader
        .headers()
        .map_err(|e| format!("line 1: {e}"))?
        .clone();
    // The spec's twelve columns must lead; later ones may be missing (older files).
    if header.len() < SPEC_COLUMNS
        || header
            .iter()
            .take(SPEC_COLUMNS)
            .ne(HEADER[..SPEC_COLUMNS].iter().copied())
    {
        return Err(format!(
            "line 1: expected the header `{}`",
            HEADER[..SPEC_COLUMNS].join(",")
        ));
    }
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| error_at_line(&e))?;
        // A blank line (a file hand-edited with a trailing empty line) is not a row.
        if record.len() == 1 && record[0].is_empty() {
            continue;
        }
        let line = record.position().map_or(0, |p| p.line());
        if record.len() < SPEC_COLUMNS {
            return Err(format!(
                "line {line}: expected {} fields, found {}",
                header.len(),
                record.len()
            ));
        }
        rows.push(
            record
                .deserialize(Some(&header))
                .map_err(|e| format!("line {line}: {}", what_went_wrong(&e)))?,
        );
    }
    Ok(rows)
}

/// A reader's error as "line N: what".
fn error_at_line(e: &csv::Error) -> String {
    match e.position() {
        Some(p) => format!("line {}: {}", p.line(), what_went_wrong(e)),
        None => what_went_wrong(e),
    }
}

/// The part of a csv error that says what was wrong (its position is given apart).
fn what_went_wrong(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => match err.field() {
            Some(i) => format!(
                "column `{}`: {}",
                HEADER.get(i as usize).unwrap_or(&"?"),
                err.kind()
            ),
            None => err.kind().to_string(),
        },
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("expected {expected_len} fields, found {len}"),
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::engine::control;

    fn row(level: &str, solution: &str) -> Row {
        Row {
            status: Status::Solved,
            moves: Some(2),
            optimal: true,
            score: Some(2),
            states: 10,
            expanded: 4,
            millis: 1.25,
            bytes_per_state: 17.5,
            solution: solution.into(),
            ..Row::error(GameId::GolfPeaks, level, String::new())
        }
    }

    #[test]
    fn limits_bounds_and_notes_round_trip_through_the_detail() {
        let timeout = Limit::Search(control::Limit::Time(Duration::from_secs(30)));
        let bounded = Row {
            game: GameId::IceTower,
            moves: Some(23),
            optimal: false,
            limit: Some(timeout),
            lower: Some(17),
            ..row("H-49", "1,2,R")
        };
        let stopped = Row {
            status: Status::Limit,
            moves: None,
            optimal: false,
            score: None,
            solution: String::new(),
            lower: Some(1),
            ..bounded.clone()
        };
        let noted = Row {
            game: GameId::Bender4,
            optimal: false,
            limit: Some(timeout),
            note: "120 programs run".into(),
            ..row("map", "LR")
        };
        let error = Row::error(GameId::Bender4, "bad", "bad.txt:3: expected `#`".into());
        let not_started = Row::limit(GameId::GolfPeaks, "late", Limit::NotStarted);
        let rows = [bounded, stopped, noted, error, not_started];
        let text = to_csv(&rows);
        for detail in [
            ",timeout of 30.000 s reached; optimum between 17 and 23 pushes,",
            ",timeout of 30.000 s reached; no solution has fewer than 1 push,",
            ",timeout of 30.000 s reached; 120 programs run,",
            ",bad.txt:3: expected `#`,",
            ",interrupted before it started,",
        ] {
            assert!(text.contains(detail), "{detail} not in {text}");
        }
        assert_eq!(parse_csv(&text).unwrap(), rows);
        assert!(rows[0].hit_limit() && rows[1].hit_limit() && rows[2].hit_limit());
        assert!(!row("plain", "1").hit_limit());
    }

    #[test]
    fn fields_with_commas_quotes_and_newlines_round_trip() {
        let rows = vec![
            row("plain", "1-↘ 1/2-↗"),
            row("a,b", "3,6,R 3,12,D"),
            row("say \"hi\"", "line\nbreak"),
            row("🧊 tower, \"north\"", "↗ 2\r\n3,1,D"),
        ];
        let text = to_csv(&rows);
        assert!(text.contains("\"3,6,R 3,12,D\""));
        assert!(text.contains("\"say \"\"hi\"\"\""));
        assert_eq!(parse_csv(&text).unwrap(), rows);
    }

    #[test]
    fn errors_name_the_line_and_the_column() {
        let mut text = to_csv(&[row("a", "1"), row("b", "2")]);
        text = text.replace(",b,solved,2,yes,", ",b,solved,2,maybe,");
        let e = parse_csv(&text).unwrap_err();
        assert!(e.starts_with("line 3: column `optimal`"), "{e}");
        let e = parse_csv(&(to_csv(&[]) + "golf-peaks,x,solved\n")).unwrap_err();
        assert!(e.starts_with("line 2: ") && e.contains("fields"), "{e}");
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
