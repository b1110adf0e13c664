//! `frontier compare`: a baseline results CSV against a new one, level by level.
//!
//! Rows are matched by (game, level). An answer that got worse (status, moves, score, a lost
//! proof of optimality, or a shorter answer contradicting a proven optimum) is a regression; so
//! are more states explored, a level missing from the new run, and a time ratio beyond the
//! tolerance. Levels whose baseline time is under `small_millis` are too short to time one by
//! one: they are compared in aggregate (sum against sum). Fewer states and faster times are
//! reported as improvements. A level that ended `limit` in both files is compared by its answer
//! only. Levels solved several times (`solve --repeat`) are slower only when their ranges of
//! times do not overlap. Where both sides are folders of runs taken in turns (rounds of the
//! same name, [`PairedTimes`]), a level is judged by its rounds' ratios instead: slower when
//! their median is beyond the tolerance and every round was slower (the small levels likewise,
//! by each round's sum). Runs made with other settings or on other machines (their
//! [provenance](super::provenance)) are not timed against each other at all. The text report
//! puts a short summary first, details after.

use std::collections::HashMap;
use std::fmt::Write;

use super::results::{self, Row, Status};
use super::runs::{LevelKey, PairedTimes};
use crate::words;

/// Thresholds of a comparison.
#[derive(Clone, Copy, Debug)]
pub struct Tolerance {
    /// A level is slower when new / baseline time exceeds this ratio.
    pub time_ratio: f64,
    /// Levels whose baseline time is under this are compared in aggregate only.
    pub small_millis: f64,
    /// Whether times are compared at all (not when the two runs' settings or machines differ).
    pub times: bool,
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance {
            time_ratio: 1.25,
            small_millis: 10.0,
            times: true,
        }
    }
}

/// One observation about a level (or the aggregate of small levels).
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// `game level`, or `small levels` for the aggregate.
    pub subject: String,
    pub kind: Kind,
    pub text: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// The answer is worse or contradicts a proven optimum.
    AnswerWorse,
    /// More states explored.
    MoreStates,
    /// Slower beyond the tolerance.
    Slower,
    /// In the baseline but not in the new run.
    Missing,
    /// The answer is better (e.g. solved now).
    AnswerBetter,
    /// Fewer states explored.
    FewerStates,
    /// Faster beyond the tolerance.
    Faster,
    /// In the new run only.
    New,
}

impl Kind {
    pub fn is_regression(self) -> bool {
        matches!(
            self,
            Kind::AnswerWorse | Kind::MoreStates | Kind::Slower | Kind::Missing
        )
    }

    fn label(self) -> &'static str {
        match self {
            Kind::AnswerWorse => "answer worse",
            Kind::MoreStates => "more states",
            Kind::Slower => "slower",
            Kind::Missing => "missing",
            Kind::AnswerBetter => "answer better",
            Kind::FewerStates => "fewer states",
            Kind::Faster => "faster",
            Kind::New => "new level",
        }
    }

    /// `n` findings of this kind, as the summary says them: `2 slower`, `52 new levels`.
    fn tally(self, n: usize) -> String {
        match self {
            Kind::New => words::count(n, self.label()),
            _ => format!("{n} {}", self.label()),
        }
    }
}

/// The outcome of a comparison.
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    pub findings: Vec<Finding>,
    pub matched: usize,
    pub base_millis: f64,
    pub new_millis: f64,
    pub base_states: u64,
    pub new_states: u64,
    /// Levels timed in aggregate, and their baseline and new time.
    pub small: (usize, f64, f64),
}

impl Comparison {
    pub fn regressed(&self) -> bool {
        self.findings.iter().any(|f| f.kind.is_regression())
    }

    /// The report: summary first, then one line per finding, regressions first.
    pub fn render(&self, base_name: &str, new_name: &str, tolerance: Tolerance) -> String {
        let mut out = String::new();
        let count = |k: Kind| self.findings.iter().filter(|f| f.kind == k).count();
        let verdict = if self.regressed() { "REGRESSED" } else { "OK" };
        let _ = writeln!(out, "{verdict}: {base_name} -> {new_name}");
        let tallies = |kinds: [Kind; 4]| -> Vec<String> {
            let found = kinds.into_iter().filter(|&k| count(k) > 0);
            found.map(|k| k.tally(count(k))).collect()
        };
        let regressions = [
            Kind::AnswerWorse,
            Kind::MoreStates,
            Kind::Slower,
            Kind::Missing,
        ];
        let improvements = [
            Kind::AnswerBetter,
            Kind::FewerStates,
            Kind::Faster,
            Kind::New,
        ];
        for (label, kinds) in [("regressions", regressions), ("also", improvements)] {
            let found = tallies(kinds);
            if !found.is_empty() {
                let _ = writeln!(out, "  {label}: {}", found.join(", "));
            }
        }
        let _ = writeln!(
            out,
            "  levels: {} matched; states {} -> {} ({:+}); time {:.1} ms -> {:.1} ms (x{:.2}{})",
            self.matched,
            self.base_states,
            self.new_states,
            self.new_states as i128 - self.base_states as i128,
            self.base_millis,
            self.new_millis,
            ratio(self.new_millis, self.base_millis),
            if tolerance.times {
                ""
            } else {
                ", not compared"
            }
        );
        let (n, base, new) = self.small;
        if n > 0 && tolerance.times {
            let _ = writeln!(
                out,
                "  {} under {} ms timed together: {base:.1} ms -> {new:.1} ms (x{:.2}, tolerance x{})",
                words::count(n, "level"),
                tolerance.small_millis,
                ratio(new, base),
                tolerance.time_ratio
            );
        }
        if !self.findings.is_empty() {
            let _ = writeln!(out, "details:");
            let mut findings = self.findings.clone();
            findings.sort_by(|a, b| a.kind.cmp(&b.kind).then_with(|| a.subject.cmp(&b.subject)));
            for f in findings {
                let _ = writeln!(out, "  [{}] {}: {}", f.kind.label(), f.subject, f.text);
            }
        }
        out
    }
}

fn ratio(new: f64, base: f64) -> f64 {
    if base > 0.0 { new / base } else { 1.0 }
}

/// How good an answer is, for ordering: decided beats undecided, solved beats unsolvable, and
/// a wrong answer is worse than none.
fn rank(status: Status) -> u8 {
    match status {
        Status::Solved => 4,
        Status::Unsolvable => 3,
        Status::Limit => 2,
        Status::Error => 1,
        Status::Wrong => 0,
    }
}

/// What changed in the answer, and whether for the worse.
fn answer_change(base: &Row, new: &Row) -> Option<(Kind, String)> {
    if base.status != new.status {
        let kind = if rank(new.status) < rank(base.status) {
            Kind::AnswerWorse
        } else {
            Kind::AnswerBetter
        };
        // Solved against unsolvable, either way, means one of the two runs is wrong.
        let contradiction = matches!(
            (base.status, new.status),
            (Status::Solved, Status::Unsolvable) | (Status::Unsolvable, Status::Solved)
        );
        let kind = if contradiction {
            Kind::AnswerWorse
        } else {
            kind
        };
        return Some((kind, format!("status {} -> {}", base.status, new.status)));
    }
    // Both found after a limit: how good the solution is depends on how much time the search
    // for it had, so only a change of status counts.
    if base.status != Status::Solved || (base.hit_limit() && new.hit_limit()) {
        return None;
    }
    let (bm, nm) = (base.moves.unwrap_or(0), new.moves.unwrap_or(0));
    let (bs, ns) = (base.score.unwrap_or(0), new.score.unwrap_or(0));
    if nm > bm && base.optimal {
        return Some((Kind::AnswerWorse, format!("moves {bm} -> {nm}")));
    }
    if nm < bm && base.optimal {
        return Some((
            Kind::AnswerWorse,
            format!("moves {bm} -> {nm}, below the baseline's proven optimum"),
        ));
    }
    if ns > bs {
        return Some((Kind::AnswerWorse, format!("score {bs} -> {ns}")));
    }
    if base.optimal && !new.optimal {
        return Some((Kind::AnswerWorse, "optimality no longer proven".into()));
    }
    if ns < bs || nm < bm {
        return Some((
            Kind::AnswerBetter,
            format!("moves {bm} -> {nm}, score {bs} -> {ns}"),
        ));
    }
    if !base.optimal && new.optimal {
        return Some((Kind::AnswerBetter, "now proven optimal".into()));
    }
    None
}

/// How a time changed: slower or faster beyond the tolerance, judged by the ratio of two
/// medians whose ranges are apart, or by paired rounds' ratios (see the top).
fn time_change(
    (base_millis, base_range): (f64, (f64, f64)),
    (new_millis, new_range): (f64, (f64, f64)),
    rounds: Option<&[(f64, f64)]>,
    tolerance: Tolerance,
) -> Option<(Kind, String)> {
    let text = |r: f64| format!("{base_millis:.1} ms -> {new_millis:.1} ms (x{r:.2}");
    let (slower, faster, text) = match rounds.filter(|rounds| rounds.len() >= 2) {
        Some(rounds) => {
            let mut ratios: Vec<f64> = rounds.iter().map(|&(b, n)| ratio(n, b)).collect();
            let r = results::median(&mut ratios);
            let (lo, hi) = (ratios[0], ratios[ratios.len() - 1]);
            (
                r > tolerance.time_ratio && lo > 1.0,
                r < 1.0 / tolerance.time_ratio && hi < 1.0,
                format!(
                    "{}: the median of {} rounds' ratios, x{lo:.2} to x{hi:.2})",
                    text(r),
                    ratios.len()
                ),
            )
        }
        None => {
            let r = ratio(new_millis, base_millis);
            (
                r > tolerance.time_ratio && new_range.0 > base_range.1,
                r < 1.0 / tolerance.time_ratio && new_range.1 < base_range.0,
                format!("{})", text(r)),
            )
        }
    };
    if slower {
        Some((Kind::Slower, text))
    } else if faster {
        Some((Kind::Faster, text))
    } else {
        None
    }
}

/// Compares `new` against `base`; `paired` holds the levels' times in rounds both took in turns
/// (empty when there are none).
pub fn compare(
    base: &[Row],
    new: &[Row],
    paired: &PairedTimes,
    tolerance: Tolerance,
) -> Comparison {
    let key = |r: &Row| (r.game, r.level.clone());
    let new_by_key: HashMap<LevelKey, &Row> = new.iter().map(|r| (key(r), r)).collect();
    let base_keys: std::collections::HashSet<LevelKey> = base.iter().map(key).collect();
    let mut c = Comparison::default();
    let subject = |r: &Row| format!("{} {}", r.game, r.level);
    // The small levels' slowest baseline runs and fastest new runs, summed: their ranges; and
    // their times summed round by round, where rounds are paired.
    let (mut small_base_max, mut small_new_min) = (0.0, 0.0);
    let mut small_rounds: std::collections::BTreeMap<&str, (f64, f64)> = Default::default();
    for b in base {
        let Some(n) = new_by_key.get(&key(b)) else {
            c.findings.push(Finding {
                subject: subject(b),
                kind: Kind::Missing,
                text: "not in the new results".into(),
            });
            continue;
        };
        c.matched += 1;
        c.base_millis += b.millis;
        c.new_millis += n.millis;
        c.base_states += b.states;
        c.new_states += n.states;
        if let Some((kind, text)) = answer_change(b, n) {
            c.findings.push(Finding {
                subject: subject(b),
                kind,
                text,
            });
        }
        // A level stopped by a limit both times measured the limit (states reached before a
        // timeout depend on the machine's load), not the solver: only its answer is compared.
        if b.hit_limit() && n.hit_limit() {
            continue;
        }
        if n.states != b.states && b.states_known() && n.states_known() {
            let kind = if n.states > b.states {
                Kind::MoreStates
            } else {
                Kind::FewerStates
            };
            c.findings.push(Finding {
                subject: subject(b),
                kind,
                text: format!(
                    "states {} -> {} (x{:.3})",
                    b.states,
                    n.states,
                    ratio(n.states as f64, b.states as f64)
                ),
            });
        }
        if !tolerance.times {
            continue;
        }
        let rounds = paired.get(&key(b));
        if b.millis < tolerance.small_millis {
            c.small.0 += 1;
            c.small.1 += b.millis;
            c.small.2 += n.millis;
            small_base_max += b.millis_range().1;
            small_new_min += n.millis_range().0;
            for (round, &(bt, nt)) in rounds.into_iter().flatten() {
                let sums = small_rounds.entry(round).or_default();
                *sums = (sums.0 + bt, sums.1 + nt);
            }
            continue;
        }
        let rounds: Option<Vec<(f64, f64)>> = rounds.map(|r| r.values().copied().collect());
        if let Some((kind, text)) = time_change(
            (b.millis, b.millis_range()),
            (n.millis, n.millis_range()),
            rounds.as_deref(),
            tolerance,
        ) {
            c.findings.push(Finding {
                subject: subject(b),
                kind,
                text: format!("time {text}"),
            });
        }
    }
    // The small levels together are timed like one level (if even their sum is short, not at
    // all): by their rounds' sums where rounds are paired, else slower only when even the sum
    // of their fastest new runs is above the sum of their slowest baseline runs.
    let (n, base_small, new_small) = c.small;
    let rounds: Vec<(f64, f64)> = small_rounds.into_values().collect();
    if tolerance.times
        && base_small >= tolerance.small_millis
        && let Some((kind @ Kind::Slower, text)) = time_change(
            (base_small, (base_small, small_base_max)),
            (new_small, (small_new_min, new_small)),
            Some(&rounds),
            tolerance,
        )
    {
        c.findings.push(Finding {
            subject: words::count(n, "small level"),
            kind,
            text: format!("time together {text}"),
        });
    }
    for n in new.iter().filter(|r| !base_keys.contains(&key(r))) {
        c.findings.push(Finding {
            subject: subject(n),
            kind: Kind::New,
            text: format!("{} (not in the baseline)", n.status),
        });
    }
    c
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::engine::control;
    use crate::games::{GameId, Limit};

    /// No rounds paired.
    fn none() -> PairedTimes {
        PairedTimes::new()
    }

    fn row(level: &str, moves: u64, states: u64, millis: f64) -> Row {
        Row {
            status: Status::Solved,
            moves: Some(moves),
            optimal: true,
            score: Some(moves),
            states,
            expanded: states / 2,
            millis,
            bytes_per_state: 30.0,
            ..Row::error(GameId::SlidingBlocks, level, String::new())
        }
    }

    fn baseline() -> Vec<Row> {
        vec![
            row("big", 81, 25_000, 120.0),
            row("medium", 39, 700_000, 40.0),
            row("tiny-1", 3, 20, 6.0),
            row("tiny-2", 5, 40, 7.0),
        ]
    }

    fn kinds(c: &Comparison) -> Vec<Kind> {
        c.findings.iter().map(|f| f.kind).collect()
    }

    #[test]
    fn identical_files_are_quiet() {
        let c = compare(&baseline(), &baseline(), &none(), Tolerance::default());
        assert!(c.findings.is_empty());
        assert!(!c.regressed());
        assert!(
            c.render("a", "b", Tolerance::default())
                .starts_with("OK: a -> b")
        );
    }

    #[test]
    fn noise_within_the_tolerance_is_quiet() {
        let mut new = baseline();
        new[0].millis = 140.0;
        new[2].millis = 9.0; // x1.5 alone, but a small level: only the sum (x1.23) counts
        let c = compare(&baseline(), &new, &none(), Tolerance::default());
        assert!(!c.regressed(), "{:?}", c.findings);
    }

    #[test]
    fn an_injected_slowdown_is_a_regression() {
        let mut new = baseline();
        new[1].millis = 80.0;
        let c = compare(&baseline(), &new, &none(), Tolerance::default());
        assert_eq!(kinds(&c), [Kind::Slower]);
        assert!(c.regressed());
        let text = c.render("base.csv", "new.csv", Tolerance::default());
        assert!(
            text.starts_with("REGRESSED: base.csv -> new.csv\n  regressions: 1 slower"),
            "{text}"
        );
        assert!(
            text.contains("[slower] sliding-blocks medium: time 40.0 ms -> 80.0 ms (x2.00)"),
            "{text}"
        );
    }

    #[test]
    fn repeated_runs_whose_times_overlap_are_not_slower() {
        let ranged = |rows: Vec<Row>, spread: f64| -> Vec<Row> {
            rows.into_iter()
                .map(|r| Row {
                    millis_min: Some(r.millis * (1.0 - spread)),
                    millis_max: Some(r.millis * (1.0 + spread)),
                    ..r
                })
                .collect()
        };
        // The second level's median at `millis` (40 before), both runs' ranges ±`spread`.
        let with = |millis: f64, spread: f64| {
            let mut new = baseline();
            new[1].millis = millis;
            let (base, new) = (ranged(baseline(), spread), ranged(new, spread));
            compare(&base, &new, &none(), Tolerance::default())
        };
        // Medians x1.3 apart, ranges of ±20% overlapping: noise.
        let c = with(52.0, 0.2);
        assert!(!c.regressed(), "{:?}", c.findings);
        // A real x1.5, ranges of ±10%: apart, so slower.
        assert_eq!(kinds(&with(60.0, 0.1)), [Kind::Slower]);
    }

    #[test]
    fn runs_with_other_settings_compare_answers_and_states_but_not_times() {
        let mut new = baseline();
        new[1].millis = 400.0;
        new[0].states += 1;
        let untimed = Tolerance {
            times: false,
            ..Tolerance::default()
        };
        let c = compare(&baseline(), &new, &none(), untimed);
        assert_eq!(kinds(&c), [Kind::MoreStates]);
        assert!(!c.render("a", "b", untimed).contains("timed together"));
    }

    #[test]
    fn small_levels_whose_summed_ranges_overlap_are_not_slower() {
        let with_range = |mut r: Row, lo: f64, hi: f64| {
            (r.millis_min, r.millis_max) = (Some(lo), Some(hi));
            r
        };
        let base = baseline();
        let mut new = baseline();
        // Medians 6 + 7 ms against 9 + 9 ms (x1.38), but the fastest new runs (5 + 5) are not
        // above the slowest baseline runs (6.6 + 7.7): noise.
        for tiny in &mut new[2..] {
            tiny.millis = 9.0;
            *tiny = with_range(tiny.clone(), 5.0, 12.0);
        }
        let ranged: Vec<Row> = base
            .iter()
            .map(|r| with_range(r.clone(), r.millis * 0.9, r.millis * 1.1))
            .collect();
        let c = compare(&ranged, &new, &none(), Tolerance::default());
        assert!(c.findings.is_empty(), "{:?}", c.findings);
        // Apart: slower.
        for tiny in &mut new[2..] {
            *tiny = with_range(tiny.clone(), 8.0, 12.0);
        }
        let c = compare(&ranged, &new, &none(), Tolerance::default());
        assert_eq!(kinds(&c), [Kind::Slower]);
    }

    /// Paired rounds of every level of `rows`: round `i` of level `l` took `times(l, i)` ms in
    /// the baseline and `times(l, i).1` in the new build.
    fn rounds(rows: &[Row], times: impl Fn(&str, usize) -> (f64, f64)) -> PairedTimes {
        rows.iter()
            .map(|r| {
                let rounds = (0..3).map(|i| (i.to_string(), times(&r.level, i)));
                ((r.game, r.level.clone()), rounds.collect())
            })
            .collect()
    }

    #[test]
    fn paired_rounds_judge_by_their_ratios() {
        let base = baseline();
        // The medians x1.5 apart, but one round of the new build was faster than the same
        // round of the baseline: the load, not the build. Not slower.
        let mut new = baseline();
        new[1].millis = 60.0;
        let noisy = rounds(&base, |level, i| match (level, i) {
            ("medium", 0) => (40.0, 60.0),
            ("medium", 1) => (40.0, 70.0),
            ("medium", 2) => (90.0, 60.0),
            _ => (1.0, 1.0),
        });
        let c = compare(&base, &new, &noisy, Tolerance::default());
        assert!(c.findings.is_empty(), "{:?}", c.findings);
        // Every round slower by x1.4 to x1.6 while the load moved both builds' times up and
        // down together, so that the ranges overlap: slower.
        let loaded = rounds(&base, |level, i| match (level, i) {
            ("medium", 0) => (30.0, 45.0),
            ("medium", 1) => (40.0, 60.0),
            ("medium", 2) => (60.0, 84.0),
            _ => (1.0, 1.0),
        });
        let mut overlapping = baseline();
        overlapping[1].millis_min = Some(30.0);
        overlapping[1].millis_max = Some(60.0);
        new[1].millis_min = Some(45.0);
        new[1].millis_max = Some(84.0);
        let c = compare(&overlapping, &new, &none(), Tolerance::default());
        assert!(
            c.findings.is_empty(),
            "unpaired, the ranges overlap: {:?}",
            c.findings
        );
        let c = compare(&overlapping, &new, &loaded, Tolerance::default());
        assert_eq!(kinds(&c), [Kind::Slower]);
        assert!(
            c.findings[0]
                .text
                .contains("the median of 3 rounds' ratios, x1.40 to x1.50"),
            "{}",
            c.findings[0].text
        );
    }

    #[test]
    fn paired_small_levels_are_judged_by_each_rounds_sum() {
        let mut new = baseline();
        new[2].millis = 9.0;
        new[3].millis = 9.0;
        // Each round's sum: x1.8, x1.8 and x0.9: not slower, though the medians say x1.8.
        let tiny = |level: &str, times: (f64, f64)| {
            if level.starts_with("tiny") {
                times
            } else {
                (1.0, 1.0)
            }
        };
        let mixed = rounds(&baseline(), |level, i| {
            tiny(level, if i == 2 { (10.0, 9.0) } else { (5.0, 9.0) })
        });
        let c = compare(&baseline(), &new, &mixed, Tolerance::default());
        assert!(c.findings.is_empty(), "{:?}", c.findings);
        let slower = rounds(&baseline(), |level, i| {
            tiny(level, (5.0 + i as f64, 9.0 + i as f64))
        });
        let c = compare(&baseline(), &new, &slower, Tolerance::default());
        assert_eq!(kinds(&c), [Kind::Slower]);
        assert_eq!(c.findings[0].subject, "2 small levels");
    }

    #[test]
    fn small_levels_are_timed_in_aggregate() {
        let mut new = baseline();
        new[2].millis = 9.0;
        new[3].millis = 9.0;
        let c = compare(&baseline(), &new, &none(), Tolerance::default());
        assert_eq!(kinds(&c), [Kind::Slower]);
        assert_eq!(c.findings[0].subject, "2 small levels");
        // Small levels that are short even together are not timed at all.
        let mut base = baseline();
        base[2].millis = 0.5;
        base[3].millis = 0.7;
        new[2].millis = 5.0;
        let c = compare(&base, &new, &none(), Tolerance::default());
        assert!(c.findings.is_empty(), "{:?}", c.findings);
    }

    #[test]
    fn a_changed_answer_is_found_and_worse_fails() {
        let mut new = baseline();
        new[0].moves = Some(82);
        new[0].score = Some(82);
        let c = compare(&baseline(), &new, &none(), Tolerance::default());
        assert_eq!(kinds(&c), [Kind::AnswerWorse]);
        assert!(c.regressed());
        new[0].moves = Some(80);
        let c = compare(&baseline(), &new, &none(), Tolerance::default());
        assert!(
            c.findings[0]
                .text
                .contains("below the baseline's proven optimum")
        );
        assert!(c.regressed());
        let mut new = baseline();
        new[1].status = Status::Limit;
        let c = compare(&baseline(), &new, &none(), Tolerance::default());
        assert_eq!(kinds(&c), [Kind::AnswerWorse]);
    }

    #[test]
    fn a_changed_state_count_is_reported() {
        let mut new = baseline();
        new[0].states += 1;
        let c = compare(&baseline(), &new, &none(), Tolerance::default());
        assert_eq!(kinds(&c), [Kind::MoreStates]);
        assert!(c.regressed());
        new[0].states -= 2;
        let c = compare(&baseline(), &new, &none(), Tolerance::default());
        assert_eq!(kinds(&c), [Kind::FewerStates]);
        assert!(!c.regressed(), "fewer states is an improvement");
    }

    #[test]
    fn an_external_solver_that_counts_no_states_is_not_compared_by_states() {
        let mut new = baseline();
        new[0].states = 0;
        new[0].peak_kib = Some(20_000);
        let c = compare(&baseline(), &new, &none(), Tolerance::default());
        assert!(kinds(&c).is_empty(), "{:?}", kinds(&c));
    }

    #[test]
    fn levels_stopped_by_a_limit_both_times_compare_by_answer_only() {
        let mut base = baseline();
        base[0].status = Status::Limit;
        let mut new = base.clone();
        new[0].states *= 2;
        new[0].millis *= 3.0;
        let c = compare(&base, &new, &none(), Tolerance::default());
        assert!(kinds(&c).is_empty(), "{:?}", kinds(&c));
        new[0].status = Status::Solved;
        let c = compare(&base, &new, &none(), Tolerance::default());
        assert!(kinds(&c).contains(&Kind::MoreStates));
    }

    #[test]
    fn solutions_found_after_a_limit_both_times_compare_by_status_only() {
        let mut base = baseline();
        base[0].optimal = false;
        base[0].limit = Some(Limit::Search(control::Limit::Time(Duration::from_secs(1))));
        base[0].lower = Some(10);
        let mut new = base.clone();
        new[0].moves = new[0].moves.map(|m| m + 3);
        new[0].score = new[0].score.map(|m| m + 3);
        new[0].states *= 2;
        new[0].millis *= 3.0;
        let c = compare(&base, &new, &none(), Tolerance::default());
        assert!(kinds(&c).is_empty(), "{:?}", kinds(&c));
        new[0].status = Status::Limit;
        let c = compare(&base, &new, &none(), Tolerance::default());
        assert_eq!(kinds(&c), [Kind::AnswerWorse]);
    }

    #[test]
    fn missing_and_new_levels_are_reported() {
        let mut new = baseline();
        new.remove(0);
        new.push(row("extra", 1, 1, 1.0));
        let c = compare(&baseline(), &new, &none(), Tolerance::default());
        assert_eq!(kinds(&c), [Kind::Missing, Kind::New]);
        assert!(c.regressed());
    }
}
