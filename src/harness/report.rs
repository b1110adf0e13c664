//! `frontier report`: one self-contained HTML page (inline CSS and SVG, no script, nothing
//! fetched) with charts of results CSVs. On top, one summary table across all files (per file
//! and game: levels, solved / optimal / unsolvable / limit / error, and wrong where a file has
//! external solvers' rejected answers, states, time, the slowest levels, and the verdict against
//! the file's baseline); then each file's before/after comparison with its baseline
//! (`--baseline DIR`, or the first of exactly two files): the comparison's findings, every level
//! of either run side by side, and per game log-log scatters of the two runs' times and, where
//! both measured it, peak memory, and each level's time ratio; then, per file and game, states
//! explored, time and states per second for every level; last, the gallery: every solved level's
//! solution as a small animation ([`super::gallery`]), still until the pointer is on it.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;

use super::compare::{self, Finding, Kind, Tolerance};
use super::gallery::{self, Animation};
use super::results::{Row, Status};
use super::runs::PairedTimes;
use crate::games::GameId;

/// One results file and the name to show for it.
pub struct Named<'a> {
    pub name: &'a str,
    pub rows: &'a [Row],
}

/// A results file and, when it has one, the baseline it is compared with.
pub struct Compared<'a> {
    pub file: Named<'a>,
    pub baseline: Option<Baseline<'a>>,
}

/// What a results file is compared with, and how: times are not compared between runs made
/// differently, and are judged round by round where the two were taken in turns.
pub struct Baseline<'a> {
    pub file: Named<'a>,
    pub paired: &'a PairedTimes,
    pub tolerance: Tolerance,
}

/// The whole page, with the gallery's animations (none: no gallery).
pub fn html(files: &[Compared], animations: &[Animation]) -> String {
    let mut out = String::new();
    out.push_str(concat!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
        "<title>frontier report</title><style>",
        "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1400px}",
        "h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}",
        "h3{font-size:15px;margin:18px 0 4px}table{border-collapse:collapse;margin:8px 0}",
        "td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}th{background:#f4f4f4}",
        "td:first-child,th:first-child{text-align:left}svg{display:block;margin:4px 0 12px}",
        ".bad{color:#b00}.good{color:#070}pre{background:#f8f8f8;padding:8px;overflow-x:auto}",
        ".gallery{display:flex;flex-wrap:wrap;gap:10px;align-items:flex-start}",
        ".gallery figure{margin:0;padding:4px;border:1px solid #ddd;background:#fafafa}",
        ".gallery svg{margin:0;max-width:300px;max-height:300px;width:auto;height:auto}",
        ".gallery svg:not(:hover) *{animation-play-state:paused}",
        "figcaption{font-size:12px;color:#555}.note{font-size:12px;color:#777}",
        "</style></head><body>\n<h1>frontier report</h1>\n"
    ));
    summary(&mut out, files);
    for compared in files {
        if let Some(baseline) = &compared.baseline {
            comparison(&mut out, baseline, &compared.file);
        }
    }
    for compared in files {
        overview(&mut out, &compared.file);
    }
    if !animations.is_empty() {
        gallery_section(&mut out, animations);
    }
    out.push_str("</body></html>\n");
    out
}

/// Levels named in a summary row's "slowest" cell.
const SLOWEST: usize = 3;

/// The table a reader looks at first: every file's games in one place.
fn summary(out: &mut String, files: &[Compared]) {
    // Only external solvers' answers are ever wrong: the column is there when one was.
    let any_wrong = files
        .iter()
        .any(|c| c.file.rows.iter().any(|r| r.status == Status::Wrong));
    let wrong_header = if any_wrong { "<th>wrong</th>" } else { "" };
    let _ = writeln!(
        out,
        "<h2>Summary</h2>\n<table><tr><th>file</th><th>game</th><th>levels</th><th>solved</th><th>optimal</th><th>unsolvable</th><th>limit</th><th>error</th>{wrong_header}<th>states</th><th>time (ms)</th><th>slowest levels</th><th>against the baseline</th></tr>"
    );
    for Compared { file, baseline } in files {
        for (game, rows) in by_game(file.rows) {
            let count = |keep: fn(&Row) -> bool| rows.iter().filter(|r| keep(r)).count();
            let wrong = if any_wrong {
                format!("<td>{}</td>", count(|r| r.status == Status::Wrong))
            } else {
                String::new()
            };
            // Levels of under a millisecond are no one's slowest.
            let mut slowest: Vec<&&Row> = rows.iter().filter(|r| r.millis >= 1.0).collect();
            slowest.sort_by(|a, b| b.millis.total_cmp(&a.millis));
            let mut slowest: Vec<String> = slowest
                .iter()
                .take(SLOWEST)
                .map(|r| format!("{} ({:.0} ms)", escape(&r.level), r.millis))
                .collect();
            if slowest.is_empty() {
                slowest.push("every level under 1 ms".into());
            }
            let verdict = match baseline {
                None => "<td>no baseline</td>".to_string(),
                Some(base) if !base.file.rows.iter().any(|r| r.game == game) => {
                    "<td>not in the baseline</td>".to_string()
                }
                Some(Baseline {
                    file: base,
                    paired,
                    tolerance,
                }) => {
                    let base_rows: Vec<Row> = base
                        .rows
                        .iter()
                        .filter(|r| r.game == game)
                        .cloned()
                        .collect();
                    let new_rows: Vec<Row> = rows.iter().map(|&r| r.clone()).collect();
                    let c = compare::compare(&base_rows, &new_rows, paired, *tolerance);
                    let regressions = c.findings.iter().filter(|f| f.kind.is_regression()).count();
                    let times = if tolerance.times {
                        ""
                    } else {
                        "; times not compared"
                    };
                    if c.regressed() {
                        format!("<td class=\"bad\">REGRESSED: {regressions} findings{times}</td>")
                    } else {
                        format!(
                            "<td class=\"good\">OK: states {:+}, time x{:.2}{times}</td>",
                            c.new_states as i128 - c.base_states as i128,
                            if c.base_millis > 0.0 {
                                c.new_millis / c.base_millis
                            } else {
                                1.0
                            }
                        )
                    }
                }
            };
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>{wrong}<td>{}</td><td>{:.1}</td><td>{}</td>{verdict}</tr>",
                escape(file.name),
                game,
                rows.len(),
                count(|r| r.status == Status::Solved),
                count(|r| r.status == Status::Solved && r.optimal),
                count(|r| r.status == Status::Unsolvable),
                count(|r| r.status == Status::Limit),
                count(|r| r.status == Status::Error),
                rows.iter().map(|r| r.states).sum::<u64>(),
                rows.iter().map(|r| r.millis).sum::<f64>(),
                slowest.join(", "),
            );
        }
    }
    out.push_str("</table>\n");
}

/// The games of a file, in order of first appearance, with their rows.
fn by_game(rows: &[Row]) -> Vec<(GameId, Vec<&Row>)> {
    let mut games: Vec<(GameId, Vec<&Row>)> = Vec::new();
    for row in rows {
        match games.iter_mut().find(|(g, _)| *g == row.game) {
            Some((_, list)) => list.push(row),
            None => games.push((row.game, vec![row])),
        }
    }
    games
}

fn overview(out: &mut String, file: &Named) {
    let _ = writeln!(out, "<h2>{}</h2>", escape(file.name));
    out.push_str("<table><tr><th>game</th><th>levels</th><th>solved</th><th>unsolvable</th><th>limit</th><th>error</th><th>states</th><th>time (ms)</th><th>states/s</th></tr>\n");
    let games = by_game(file.rows);
    for (game, rows) in &games {
        let count = |s: Status| rows.iter().filter(|r| r.status == s).count();
        let states: u64 = rows.iter().map(|r| r.states).sum();
        let millis: f64 = rows.iter().map(|r| r.millis).sum();
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td><td>{}</td></tr>",
            game,
            rows.len(),
            count(Status::Solved),
            count(Status::Unsolvable),
            count(Status::Limit),
            count(Status::Error),
            states,
            millis,
            human(states as f64 / (millis / 1e3).max(1e-9))
        );
    }
    out.push_str("</table>\n");
    for (game, rows) in &games {
        let _ = writeln!(
            out,
            "<h3>{} ({})</h3>",
            game,
            crate::words::count(rows.len(), "level")
        );
        let bars = |value: fn(&Row) -> f64| Bars {
            labels: rows.iter().map(|r| r.level.clone()).collect(),
            values: rows.iter().map(|r| value(r)).collect(),
            colours: rows.iter().map(|r| status_colour(r.status)).collect(),
        };
        out.push_str(&bar_chart(
            "states explored per level",
            &bars(|r| r.states as f64),
            "",
            None,
        ));
        out.push_str(&bar_chart(
            "wall time per level",
            &bars(|r| r.millis),
            " ms",
            None,
        ));
        out.push_str(&bar_chart(
            "states per second per level",
            &bars(|r| r.states as f64 / (r.millis / 1e3).max(1e-6)),
            "/s",
            None,
        ));
    }
}

/// The solved levels' animations, per file and game.
fn gallery_section(out: &mut String, animations: &[Animation]) {
    let shown = animations.iter().filter(|a| a.svg.is_some()).count();
    let bytes: usize = animations
        .iter()
        .filter_map(|a| a.svg.as_ref())
        .map(String::len)
        .sum();
    let _ = writeln!(
        out,
        "<h2>Solutions</h2>\n<p>Every solved level's solution, replayed by the game's rules. Each picture shows the start; point at it to play the solution (it loops). {shown} of {} animations are on this page ({} KiB); the page holds none over {} KiB and at most {} MiB of them in all. <code>frontier show --svg FILE LEVEL SOLUTION</code> draws any of them full size.</p>",
        animations.len(),
        bytes >> 10,
        gallery::MAX_ANIMATION_BYTES >> 10,
        gallery::MAX_GALLERY_BYTES >> 20,
    );
    let mut groups: Vec<(&str, GameId, Vec<&Animation>)> = Vec::new();
    for a in animations {
        match groups
            .iter_mut()
            .find(|(file, game, _)| *file == a.file && *game == a.game)
        {
            Some((_, _, list)) => list.push(a),
            None => groups.push((&a.file, a.game, vec![a])),
        }
    }
    for (file, game, list) in groups {
        let _ = writeln!(
            out,
            "<h3>{} — {} ({} solved)</h3>\n<div class=\"gallery\">",
            escape(file),
            game,
            list.len()
        );
        for a in list.iter().filter(|a| a.svg.is_some()) {
            let moves = a.moves.map(|m| format!(", {m} moves")).unwrap_or_default();
            let _ = writeln!(
                out,
                "<figure>{}<figcaption>{}{moves}</figcaption></figure>",
                a.svg.as_deref().unwrap_or_default(),
                escape(&a.level)
            );
        }
        out.push_str("</div>\n");
        for a in list.iter().filter(|a| a.svg.is_none()) {
            let _ = writeln!(
                out,
                "<p class=\"note\">{}: {}</p>",
                escape(&a.level),
                escape(&a.note)
            );
        }
    }
}

fn comparison(out: &mut String, baseline: &Baseline, after: &Named) {
    let (before, tolerance) = (&baseline.file, baseline.tolerance);
    let result = compare::compare(before.rows, after.rows, baseline.paired, tolerance);
    let _ = writeln!(
        out,
        "<h2>{} → {}</h2>",
        escape(before.name),
        escape(after.name)
    );
    let class = if result.regressed() { "bad" } else { "good" };
    let _ = writeln!(
        out,
        "<pre class=\"{class}\">{}</pre>",
        escape(&result.render(before.name, after.name, tolerance))
    );
    side_by_side(out, before, after, &result.findings);
    for (game, rows) in by_game(after.rows) {
        let pairs: Vec<(&Row, &Row)> = rows
            .iter()
            .filter_map(|&a| {
                let b = before
                    .rows
                    .iter()
                    .find(|b| b.game == a.game && b.level == a.level)?;
                Some((b, a))
            })
            .collect();
        if pairs.is_empty() {
            continue;
        }
        let points = |value: fn(&Row) -> Option<f64>| -> Vec<Point> {
            pairs
                .iter()
                .filter_map(|&(b, a)| {
                    Some(Point {
                        label: a.level.clone(),
                        before: value(b)?,
                        after: value(a)?,
                        status: a.status,
                    })
                })
                .collect()
        };
        let _ = writeln!(out, "<h3>{game} before/after</h3>");
        out.push_str(&scatter(
            "wall time per level: baseline → new",
            " ms",
            &points(|r| Some(r.millis)),
        ));
        let memory = points(|r| r.peak_kib.map(|kib| kib as f64 / 1024.0));
        if !memory.is_empty() {
            out.push_str(&scatter(
                "peak memory per level: baseline → new",
                " MiB",
                &memory,
            ));
        }
        let values: Vec<f64> = pairs
            .iter()
            .map(|(b, a)| a.millis / b.millis.max(1e-6))
            .collect();
        let colours = values
            .iter()
            .map(|&r| {
                if r > tolerance.time_ratio {
                    "#c0392b"
                } else if r < 1.0 / tolerance.time_ratio {
                    "#27ae60"
                } else {
                    "#7f8c8d"
                }
            })
            .collect();
        let bars = Bars {
            labels: pairs.iter().map(|(_, a)| a.level.clone()).collect(),
            values,
            colours,
        };
        out.push_str(&bar_chart(
            "time ratio after/before per level",
            &bars,
            "x",
            Some(1.0),
        ));
    }
}

/// Levels in the side-by-side table at most: a larger comparison shows those whose answers
/// changed first, then those whose time grew most, which is what a reader looks for there.
const SIDE_BY_SIDE: usize = 200;

/// A level of the side-by-side table: its row in each run and what the comparison found.
struct Level<'a> {
    /// Its row in the baseline, else in the new run: its game and name.
    row: &'a Row,
    before: Option<&'a Row>,
    after: Option<&'a Row>,
    kinds: Vec<Kind>,
}

impl Level<'_> {
    /// The new run's time over the baseline's (none unless both ran it in measurable time).
    fn ratio(&self) -> Option<f64> {
        match (self.before, self.after) {
            (Some(b), Some(a)) if b.millis > 0.0 => Some(a.millis / b.millis),
            _ => None,
        }
    }

    /// Whether its answer changed, or it is in one run only: first in a table cut short.
    fn answer_changed(&self) -> bool {
        self.kinds.iter().any(|k| {
            matches!(
                k,
                Kind::AnswerWorse | Kind::AnswerBetter | Kind::Missing | Kind::New
            )
        })
    }

    /// The class attribute of a cell: `bad` where the comparison found one of `worse`, `good`
    /// where one of `better`.
    fn mark(&self, worse: &[Kind], better: &[Kind]) -> &'static str {
        if self.kinds.iter().any(|k| worse.contains(k)) {
            " class=\"bad\""
        } else if self.kinds.iter().any(|k| better.contains(k)) {
            " class=\"good\""
        } else {
            ""
        }
    }
}

/// Every level of either run, one line each: both runs' answers and measures, and the time
/// ratio. Which cells are better or worse is the comparison's finding, not judged again here.
fn side_by_side(out: &mut String, before: &Named, after: &Named, findings: &[Finding]) {
    // A level's key is the subject the comparison's findings name it by.
    let key = |r: &Row| format!("{} {}", r.game, r.level);
    let mut found: HashMap<String, Vec<Kind>> = HashMap::new();
    for f in findings {
        found.entry(f.subject.clone()).or_default().push(f.kind);
    }
    let mut only_after: HashMap<String, &Row> = after.rows.iter().map(|r| (key(r), r)).collect();
    let mut levels: Vec<Level> = Vec::new();
    for b in before.rows {
        let k = key(b);
        levels.push(Level {
            row: b,
            before: Some(b),
            after: only_after.remove(&k),
            kinds: found.remove(&k).unwrap_or_default(),
        });
    }
    for a in after.rows {
        let k = key(a);
        if only_after.remove(&k).is_some() {
            levels.push(Level {
                row: a,
                before: None,
                after: Some(a),
                kinds: found.remove(&k).unwrap_or_default(),
            });
        }
    }
    let left_out = levels.len().saturating_sub(SIDE_BY_SIDE);
    if left_out > 0 {
        levels.sort_by(|x, y| {
            (y.answer_changed().cmp(&x.answer_changed())).then(
                y.ratio()
                    .unwrap_or(0.0)
                    .total_cmp(&x.ratio().unwrap_or(0.0)),
            )
        });
        levels.truncate(SIDE_BY_SIDE);
    }
    let runs = "<th>status</th><th>moves</th><th>time (ms)</th><th>states</th><th>peak (MiB)</th>";
    let _ = writeln!(
        out,
        "<h3>levels side by side</h3>\n<table><tr><th rowspan=\"2\">game</th><th rowspan=\"2\">level</th><th colspan=\"5\">{}</th><th colspan=\"5\">{}</th><th rowspan=\"2\">time ratio</th></tr>\n<tr>{runs}{runs}</tr>",
        escape(before.name),
        escape(after.name)
    );
    for level in &levels {
        let answer = level.mark(&[Kind::AnswerWorse, Kind::Missing], &[Kind::AnswerBetter]);
        let states = level.mark(&[Kind::MoreStates], &[Kind::FewerStates]);
        let ratio = level
            .ratio()
            .map(|r| format!("x{r:.2}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td>{}{}<td{}>{ratio}</td></tr>",
            level.row.game,
            escape(&level.row.level),
            run_cells(level.before, "", ""),
            run_cells(level.after, answer, states),
            level.mark(&[Kind::Slower], &[Kind::Faster]),
        );
    }
    out.push_str("</table>\n<p class=\"note\">*: proven optimal. Red and green: worse and better than the baseline, as the comparison above found it.");
    if left_out > 0 {
        let _ = write!(
            out,
            " {} left out: the largest time ratios and every changed answer are shown.",
            crate::words::count(left_out, "level")
        );
    }
    out.push_str("</p>\n");
}

/// A run's cells of a level: status, moves (`*`: proven optimal), time, states and peak memory,
/// the answer's and the states' cells with the classes given.
fn run_cells(row: Option<&Row>, answer: &str, states: &str) -> String {
    let Some(r) = row else {
        return format!("<td colspan=\"5\"{answer}>not in this run</td>");
    };
    let moves = r
        .moves
        .map(|m| format!("{m}{}", if r.optimal { "*" } else { "" }))
        .unwrap_or_default();
    let peak = r
        .peak_kib
        .map(|kib| format!("{:.1}", kib as f64 / 1024.0))
        .unwrap_or_default();
    format!(
        "<td{answer}>{}</td><td{answer}>{moves}</td><td>{:.2}</td><td{states}>{}</td><td>{peak}</td>",
        r.status, r.millis, r.states
    )
}

fn status_colour(status: Status) -> &'static str {
    match status {
        Status::Solved => "#2e86c1",
        Status::Unsolvable => "#8e44ad",
        Status::Limit => "#e67e22",
        Status::Error => "#c0392b",
        Status::Wrong => "#641e16",
    }
}

/// A logarithmic axis over the positive values given (at least one decade).
struct LogAxis {
    low: f64,
    high: f64,
}

impl LogAxis {
    fn new(values: impl Iterator<Item = f64>) -> LogAxis {
        let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values.filter(|v| *v > 0.0 && v.is_finite()) {
            low = low.min(v);
            high = high.max(v);
        }
        if !low.is_finite() {
            (low, high) = (1.0, 10.0);
        }
        let low = 10f64.powf(low.log10().floor());
        let high = 10f64.powf(high.log10().ceil()).max(low * 10.0);
        LogAxis { low, high }
    }

    /// Position of `v` in 0..=1 (values at or below the low end sit at 0).
    fn fraction(&self, v: f64) -> f64 {
        if v <= self.low {
            return 0.0;
        }
        ((v.log10() - self.low.log10()) / (self.high.log10() - self.low.log10())).clamp(0.0, 1.0)
    }

    fn decades(&self) -> impl Iterator<Item = f64> + '_ {
        let (a, b) = (
            self.low.log10().round() as i32,
            self.high.log10().round() as i32,
        );
        (a..=b).map(|e| 10f64.powi(e))
    }
}

/// Vertical bars on a log scale, one per label, with the label and value as a tooltip (and
/// under the bar when there is room). Bars rise from the bottom, or, with `from`, run between
/// that value and theirs (ratios: up is more, down is less).
fn bar_chart(title: &str, bars: &Bars, unit: &str, from: Option<f64>) -> String {
    let n = bars.labels.len();
    let (left, top, height) = (70.0, 24.0, 220.0);
    let bar = (1000.0 / n.max(1) as f64).clamp(3.0, 40.0);
    let labelled = bar >= 12.0;
    let below = if labelled { 150.0 } else { 30.0 };
    let width = left + bar * n as f64 + 20.0;
    let axis = LogAxis::new(bars.values.iter().copied().chain(from));
    let y_of = |v: f64| top + height * (1.0 - axis.fraction(v));
    let mut svg = svg_start(width, top + height + below, left, title);
    for tick in axis.decades() {
        let y = y_of(tick);
        let _ = write!(
            svg,
            "<line x1=\"{left}\" x2=\"{width:.0}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#e3e3e3\"/><text x=\"{:.0}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{}{}</text>",
            left - 6.0,
            y + 4.0,
            human(tick),
            escape(unit)
        );
    }
    let base = from.map_or(top + height, y_of);
    for (i, ((label, &v), colour)) in bars
        .labels
        .iter()
        .zip(&bars.values)
        .zip(&bars.colours)
        .enumerate()
    {
        let y = y_of(v);
        let (y0, h) = (y.min(base), (y - base).abs().max(1.0));
        let x = left + bar * i as f64;
        let _ = write!(
            svg,
            "<rect x=\"{x:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{h:.1}\" fill=\"{colour}\"><title>{}: {}{}</title></rect>",
            (bar - 1.0).max(1.0),
            escape(label),
            human(v),
            escape(unit)
        );
        if labelled {
            let (lx, ly) = (x + bar / 2.0 + 3.0, top + height + 6.0);
            let _ = write!(
                svg,
                "<text x=\"{lx:.1}\" y=\"{ly:.1}\" font-size=\"10\" text-anchor=\"end\" transform=\"rotate(-60 {lx:.1} {ly:.1})\">{}</text>",
                escape(&short(label))
            );
        }
    }
    if let Some(base_value) = from {
        let _ = write!(
            svg,
            "<line x1=\"{left}\" x2=\"{width:.0}\" y1=\"{base:.1}\" y2=\"{base:.1}\" stroke=\"#555\"><title>{}{}</title></line>",
            human(base_value),
            escape(unit)
        );
    }
    let _ = writeln!(
        svg,
        "<line x1=\"{left}\" x2=\"{width:.0}\" y1=\"{0:.1}\" y2=\"{0:.1}\" stroke=\"#555\"/><text x=\"{left}\" y=\"{1:.1}\" font-size=\"11\" fill=\"#555\">{n} levels (hover a bar for its name and value)</text></svg>",
        top + height,
        top + height + below - 8.0,
    );
    svg
}

/// The bars of a chart: one label, value and colour per level.
struct Bars {
    labels: Vec<String>,
    values: Vec<f64>,
    colours: Vec<&'static str>,
}

/// A level name cut to fit under a bar.
fn short(label: &str) -> String {
    let chars: Vec<char> = label.chars().collect();
    if chars.len() <= 22 {
        label.to_string()
    } else {
        chars[..21].iter().collect::<String>() + "…"
    }
}

/// One level of a before/after scatter: its value in each run, and the new run's status.
struct Point {
    label: String,
    before: f64,
    after: f64,
    status: Status,
}

/// The baseline's values (x) against the new run's (y) on log-log axes, with the diagonal (no
/// change) and, lightly, the lines of twice and half; each level coloured by the new run's
/// status. A value at or under the axes' low end (a time of 0) sits on that end.
fn scatter(title: &str, unit: &str, points: &[Point]) -> String {
    let (left, top, size) = (70.0, 24.0, 300.0);
    let axis = LogAxis::new(points.iter().flat_map(|p| [p.before, p.after]));
    let at = |v: f64| size * axis.fraction(v);
    let mut svg = svg_start(left + size + 30.0, top + size + 54.0, left, title);
    for tick in axis.decades() {
        let p = at(tick);
        let _ = write!(
            svg,
            "<line x1=\"{left}\" x2=\"{:.1}\" y1=\"{1:.1}\" y2=\"{1:.1}\" stroke=\"#e3e3e3\"/><line x1=\"{2:.1}\" x2=\"{2:.1}\" y1=\"{top}\" y2=\"{3:.1}\" stroke=\"#e3e3e3\"/><text x=\"{4:.0}\" y=\"{5:.1}\" font-size=\"11\" text-anchor=\"end\">{6}</text><text x=\"{2:.1}\" y=\"{7:.1}\" font-size=\"11\" text-anchor=\"middle\">{6}</text>",
            left + size,
            top + size - p,
            left + p,
            top + size,
            left - 6.0,
            top + size - p + 4.0,
            format_args!("{}{}", human(tick), escape(unit)),
            top + size + 16.0
        );
    }
    // y = factor·x is the diagonal shifted up by log(factor): drawn where it crosses the square.
    let decade = size / (axis.high.log10() - axis.low.log10());
    for (factor, stroke) in [(1.0f64, "#999"), (2.0, "#ddd"), (0.5, "#ddd")] {
        let shift = decade * factor.log10();
        let (x0, x1) = ((-shift).max(0.0), (size - shift).min(size));
        let _ = write!(
            svg,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{stroke}\"/>",
            left + x0,
            top + size - x0 - shift,
            left + x1,
            top + size - x1 - shift
        );
    }
    for p in points {
        let _ = write!(
            svg,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{}\" fill-opacity=\"0.75\"><title>{}: {}{unit} → {}{unit}</title></circle>",
            left + at(p.before),
            top + size - at(p.after),
            status_colour(p.status),
            escape(&p.label),
            human(p.before),
            human(p.after),
            unit = escape(unit)
        );
    }
    let statuses: BTreeSet<Status> = points.iter().map(|p| p.status).collect();
    let legend: Vec<String> = statuses
        .iter()
        .map(|&s| format!("<tspan fill=\"{}\">● {s}</tspan>", status_colour(s)))
        .collect();
    let legend = legend.join("  ");
    let _ = writeln!(
        svg,
        "<text x=\"{left}\" y=\"{:.0}\" font-size=\"11\" fill=\"#555\">baseline (x) against new (y); light lines: twice and half</text><text x=\"{left}\" y=\"{:.0}\" font-size=\"11\">{legend}</text></svg>",
        top + size + 34.0,
        top + size + 50.0
    );
    svg
}

/// 1234567 as `1.23M`, 0.05 as `0.05`.
fn human(n: f64) -> String {
    let (scaled, suffix) = match n.abs() {
        a if a >= 1e9 => (n / 1e9, "G"),
        a if a >= 1e6 => (n / 1e6, "M"),
        a if a >= 1e3 => (n / 1e3, "k"),
        _ => (n, ""),
    };
    let digits = if scaled.abs() >= 1.0 || scaled == 0.0 {
        format!("{scaled:.3}")
    } else {
        format!("{scaled:.4}")
    };
    let trimmed = if digits.contains('.') {
        digits.trim_end_matches('0').trim_end_matches('.')
    } else {
        &digits
    };
    format!("{trimmed}{suffix}")
}

/// The opening of a chart: the `<svg>` element of that size, labelled, and its bold title at `x`.
fn svg_start(width: f64, height: f64, x: f64, title: &str) -> String {
    let title = escape(title);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" role=\"img\" aria-label=\"{title}\"><text x=\"{x}\" y=\"16\" font-size=\"13\" font-weight=\"bold\">{title}</text>"
    )
}

/// Escapes text for HTML and SVG.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: &str, level: &str, states: u64, millis: f64) -> Row {
        Row {
            status: Status::Solved,
            moves: Some(3),
            optimal: true,
            score: Some(3),
            states,
            expanded: states,
            millis,
            bytes_per_state: 20.0,
            solution: "a:R".into(),
            ..Row::error(game.parse().unwrap(), level, String::new())
        }
    }

    /// The page of one results file, `a.csv`, without a baseline.
    fn page_of(rows: &[Row], gallery: &[Animation]) -> String {
        html(
            &[Compared {
                file: Named {
                    name: "a.csv",
                    rows,
                },
                baseline: None,
            }],
            gallery,
        )
    }

    /// The page of `after.csv` compared with `before.csv`.
    fn compared_page(before: &[Row], after: &[Row]) -> String {
        let named = |name, rows| Named { name, rows };
        html(
            &[Compared {
                file: named("after.csv", after),
                baseline: Some(Baseline {
                    file: named("before.csv", before),
                    paired: &PairedTimes::new(),
                    tolerance: Tolerance::default(),
                }),
            }],
            &[],
        )
    }

    /// The chart of the page titled `title`, whole.
    fn chart<'a>(page: &'a str, title: &str) -> Option<&'a str> {
        let start = page.find(&format!("aria-label=\"{title}\""))?;
        let end = start + page[start..].find("</svg>")?;
        Some(&page[start..end])
    }

    #[test]
    fn the_page_is_self_contained_and_escapes_names() {
        let rows = vec![
            row("golf-peaks", "1-1", 100, 0.5),
            row("sliding-blocks", "<script>", 5_000_000, 900.0),
        ];
        let page = page_of(&rows, &[]);
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(
            !page.contains("<script"),
            "names are escaped and no script is used"
        );
        for fetch in ["src=", "href=", "url(", "@import"] {
            assert!(!page.contains(fetch), "nothing is fetched: {fetch}");
        }
        assert_eq!(page.matches("<svg").count(), 6, "three charts per game");
        assert!(page.contains("&lt;script&gt;"));
    }

    #[test]
    fn a_baseline_adds_the_comparison_and_the_summary_verdict() {
        let before = vec![row("golf-peaks", "1-1", 100, 50.0)];
        let after = vec![
            row("golf-peaks", "1-1", 100, 150.0),
            row("bender4", "maze", 7, 2.0),
        ];
        let page = compared_page(&before, &after);
        assert!(page.contains("REGRESSED: before.csv -&gt; after.csv"));
        // The summary comes first, one row per game, each with its verdict.
        let summary = &page[page.find("<h2>Summary").unwrap()..page.find("<pre").unwrap()];
        assert!(
            summary.contains("<td class=\"bad\">REGRESSED: 1 findings</td>"),
            "{summary}"
        );
        assert!(
            summary.contains("<td>not in the baseline</td>"),
            "{summary}"
        );
        assert!(summary.contains("1-1 (150 ms)"), "{summary}");
        assert_eq!(page.matches("<svg").count(), 2 + 3 + 3);
    }

    #[test]
    fn the_gallery_embeds_animations_paused_and_lists_those_left_out() {
        let rows = vec![row("golf-peaks", "1-1", 100, 0.5)];
        let animation = |level: &str, svg: Option<&str>| Animation {
            file: "a.csv".into(),
            game: GameId::GolfPeaks,
            level: level.into(),
            moves: Some(3),
            svg: svg.map(String::from),
            note: if svg.is_none() {
                "not embedded: 300 KiB".into()
            } else {
                String::new()
            },
        };
        let picture = "<svg xmlns=\"http://www.w3.org/2000/svg\"><use href=\"#g1-0\"/></svg>";
        let page = page_of(
            &rows,
            &[animation("1-1", Some(picture)), animation("<2-2>", None)],
        );
        let gallery = &page[page.find("<h2>Solutions").expect("a gallery")..];
        assert!(
            gallery.contains("1 of 2 animations are on this page"),
            "{gallery}"
        );
        assert!(gallery.contains(&format!("<figure>{picture}<figcaption>1-1, 3 moves")));
        assert!(gallery.contains("<p class=\"note\">&lt;2-2&gt;: not embedded: 300 KiB</p>"));
        // Still until pointed at; nothing fetched.
        assert!(page.contains(".gallery svg:not(:hover) *{animation-play-state:paused}"));
        assert!(!page.contains("src=") && !page.contains("href=\"http"));
    }

    #[test]
    fn log_axes_cover_whole_decades() {
        let axis = LogAxis::new([3.0, 450.0].into_iter());
        assert_eq!((axis.low, axis.high), (1.0, 1000.0));
        assert_eq!(
            axis.decades().collect::<Vec<_>>(),
            [1.0, 10.0, 100.0, 1000.0]
        );
        assert!((axis.fraction(10.0) - 1.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn the_side_by_side_table_lists_the_levels_of_either_run() {
        let before = vec![
            row("golf-peaks", "1-1", 100, 50.0),
            row("golf-peaks", "gone", 100, 50.0),
        ];
        let after = vec![
            Row {
                moves: Some(5),
                ..row("golf-peaks", "1-1", 100, 50.0)
            },
            Row {
                peak_kib: Some(3 * 1024),
                ..row("golf-peaks", "<new>", 40, 8.0)
            },
        ];
        let page = compared_page(&before, &after);
        let table = &page[page.find("<h3>levels side by side").expect("a table")..];
        let table = &table[..table.find("</table>").unwrap()];
        let line = |level: &str| {
            let start = table.find(&format!("<td>{level}</td>")).expect(level);
            &table[start..start + table[start..].find("</tr>").unwrap()]
        };
        // A longer answer than the baseline's proven optimum is worse; the time ratio is kept.
        assert!(
            line("1-1").contains("<td class=\"bad\">solved</td><td class=\"bad\">5*</td>"),
            "{table}"
        );
        assert!(line("1-1").ends_with("<td>x1.00</td>"), "{table}");
        assert!(
            line("gone").contains("<td colspan=\"5\" class=\"bad\">not in this run</td>"),
            "{table}"
        );
        assert!(
            line("&lt;new&gt;").contains(
                "<td colspan=\"5\">not in this run</td><td>solved</td><td>3*</td><td>8.00</td><td>40</td><td>3.0</td><td></td>"
            ),
            "{table}"
        );
        assert_eq!(table.matches("<tr>").count(), 2 + 3, "two header lines");
    }

    #[test]
    fn a_large_side_by_side_table_shows_changed_answers_and_slowdowns_first() {
        let levels = |millis: fn(usize) -> f64| -> Vec<Row> {
            (0..SIDE_BY_SIDE + 5)
                .map(|i| row("golf-peaks", &format!("L{i}"), 100, millis(i)))
                .collect()
        };
        let before = levels(|_| 10.0);
        let mut after = levels(|i| 10.0 + i as f64);
        after[0].status = Status::Limit;
        let page = compared_page(&before, &after);
        let table = &page[page.find("<h3>levels side by side").unwrap()..];
        let (table, note) = table.split_once("</table>").unwrap();
        let order: Vec<&str> = table
            .split("<tr><td>golf-peaks</td><td>")
            .skip(1)
            .map(|line| &line[..line.find('<').unwrap()])
            .collect();
        assert_eq!(order.len(), SIDE_BY_SIDE);
        assert_eq!(&order[..3], ["L0", "L204", "L203"]);
        assert!(note.contains("5 levels left out"), "{note}");
    }

    #[test]
    fn the_time_scatter_has_a_point_per_level_timed_in_both_runs() {
        let before = vec![
            row("golf-peaks", "1-1", 100, 0.0),
            row("golf-peaks", "1-2", 100, 50.0),
            row("golf-peaks", "gone", 100, 50.0),
        ];
        let after = vec![
            Row {
                status: Status::Wrong,
                ..row("golf-peaks", "1-1", 100, 3.0)
            },
            row("golf-peaks", "1-2", 100, 20.0),
            row("golf-peaks", "new", 100, 20.0),
        ];
        let page = compared_page(&before, &after);
        let svg = chart(&page, "wall time per level: baseline → new").expect("a time scatter");
        assert_eq!(svg.matches("<circle").count(), 2, "{svg}");
        // Coloured by the new run's status; a time of 0 sits on the axis's low end (1 ms): 3 ms
        // is at log(3)/2 of the 1 ms to 100 ms axis.
        assert!(
            svg.contains(&format!(
                "cx=\"70.0\" cy=\"252.4\" r=\"3.5\" fill=\"{}\"",
                status_colour(Status::Wrong)
            )),
            "{svg}"
        );
        assert!(svg.contains(">1 ms</text>") && svg.contains(">100 ms</text>"));
        assert!(svg.contains("● wrong") && svg.contains("● solved"));
    }

    #[test]
    fn the_memory_scatter_needs_peak_memory_in_both_runs() {
        let measured = |level: &str, kib: Option<u64>| Row {
            peak_kib: kib,
            ..row("golf-peaks", level, 100, 5.0)
        };
        let title = "peak memory per level: baseline → new";
        let before = vec![measured("1-1", None), measured("1-2", Some(2048))];
        let only_before = compared_page(
            &before,
            &[measured("1-1", Some(1024)), measured("1-2", None)],
        );
        assert!(!only_before.contains("peak memory"), "nothing said of it");
        let both = compared_page(
            &before,
            &[measured("1-1", None), measured("1-2", Some(4096))],
        );
        let svg = chart(&both, title).expect("a memory scatter");
        assert_eq!(svg.matches("<circle").count(), 1, "{svg}");
        assert!(svg.contains("1-2: 2 MiB → 4 MiB"), "{svg}");
    }

    #[test]
    fn wrong_answers_have_their_column_in_the_summary_when_there_are_some() {
        let right = vec![row("golf-peaks", "1-1", 100, 5.0)];
        assert!(!page_of(&right, &[]).contains("<th>wrong</th>"));
        let wrong = vec![
            Row {
                status: Status::Wrong,
                ..row("golf-peaks", "1-1", 100, 5.0)
            },
            row("golf-peaks", "1-2", 100, 5.0),
        ];
        let page = page_of(&wrong, &[]);
        assert!(page.contains("<th>error</th><th>wrong</th><th>states</th>"));
        // levels, solved, optimal, unsolvable, limit, error, wrong.
        assert!(
            page.contains("<td>golf-peaks</td><td>2</td><td>1</td><td>1</td><td>0</td><td>0</td><td>0</td><td>1</td>"),
            "{page}"
        );
    }
}
