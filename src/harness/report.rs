//! `frontier report`: one self-contained HTML page (inline CSS and SVG, no script, nothing
//! fetched) with charts of results CSVs. On top, one summary table across all files (per file
//! and game: levels, solved / optimal / unsolvable / limit / error, states, time, the slowest
//! levels, and the verdict against the file's baseline); then each file's before/after
//! comparison with its baseline (`--baseline DIR`, or the first of exactly two files); then,
//! per file and game, states explored, time and states per second for every level; last, the
//! gallery: every solved level's solution as a small animation ([`super::gallery`]), still
//! until the pointer is on it.

use std::fmt::Write;

use super::compare::{self, Tolerance};
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
    out.push_str("<h2>Summary</h2>\n<table><tr><th>file</th><th>game</th><th>levels</th><th>solved</th><th>optimal</th><th>unsolvable</th><th>limit</th><th>error</th><th>states</th><th>time (ms)</th><th>slowest levels</th><th>against the baseline</th></tr>\n");
    for Compared { file, baseline } in files {
        for (game, rows) in by_game(file.rows) {
            let count = |keep: fn(&Row) -> bool| rows.iter().filter(|r| keep(r)).count();
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
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td><td>{}</td>{verdict}</tr>",
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
    for (game, rows) in by_game(after.rows) {
        let points: Vec<(String, f64, f64)> = rows
            .iter()
            .filter_map(|a| {
                let b = before
                    .rows
                    .iter()
                    .find(|b| b.game == a.game && b.level == a.level)?;
                Some((a.level.clone(), b.millis, a.millis))
            })
            .collect();
        if points.is_empty() {
            continue;
        }
        let _ = writeln!(out, "<h3>{game} before/after</h3>");
        out.push_str(&scatter(
            "wall time per level (ms): before → after",
            &points,
            tolerance.time_ratio,
        ));
        let values: Vec<f64> = points.iter().map(|p| p.2 / p.1.max(1e-6)).collect();
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
            labels: points.iter().map(|p| p.0.clone()).collect(),
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

/// Before (x) against after (y) on log-log axes, with the diagonal and the tolerance band.
fn scatter(title: &str, points: &[(String, f64, f64)], tolerance: f64) -> String {
    let (left, top, size) = (70.0, 24.0, 300.0);
    let axis = LogAxis::new(points.iter().flat_map(|p| [p.1, p.2]));
    let at = |v: f64| size * axis.fraction(v);
    let mut svg = svg_start(left + size + 30.0, top + size + 40.0, left, title);
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
            human(tick),
            top + size + 16.0
        );
    }
    // The diagonal (no change) and the tolerance line above it.
    let shift = size * tolerance.log10() / (axis.high.log10() - axis.low.log10());
    let _ = write!(
        svg,
        "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{top}\" stroke=\"#999\"/><line x1=\"{left}\" y1=\"{2:.1}\" x2=\"{1:.1}\" y2=\"{3:.1}\" stroke=\"#c0392b\" stroke-dasharray=\"4 3\"/>",
        top + size,
        left + size,
        top + size - shift,
        top - shift
    );
    for (label, before, after) in points {
        let slower = after / before.max(1e-9) > tolerance;
        let _ = write!(
            svg,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{}\" fill-opacity=\"0.75\"><title>{}: {:.2} ms → {:.2} ms</title></circle>",
            left + at(*before),
            top + size - at(*after),
            if slower { "#c0392b" } else { "#2e86c1" },
            escape(label),
            before,
            after
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{:.0}\" y=\"{:.0}\" font-size=\"11\" fill=\"#555\">before (x) against after (y); dashed: x{tolerance} slower</text></svg>",
        left,
        top + size + 34.0
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
        let named = |name, rows| Named { name, rows };
        let page = html(
            &[Compared {
                file: named("after.csv", &after),
                baseline: Some(Baseline {
                    file: named("before.csv", &before),
                    paired: &PairedTimes::new(),
                    tolerance: Tolerance::default(),
                }),
            }],
            &[],
        );
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
}
