//! The compare policy of `compare` and `report`: the tolerance a user asks for, checked, and
//! whether two runs' times may be compared at all. Times are compared only when the runs'
//! [provenance](super::provenance) says they were made with the same settings on the same
//! machine (or the user forces it); answers and states always are.

use std::path::Path;

use super::compare::Tolerance;
use super::runs;

/// The tolerance of a comparison: a time ratio of at least 1 (`--time-tolerance`), and the
/// baseline time below which levels are timed in aggregate.
pub fn tolerance(time_ratio: f64, small_millis: f64) -> Result<Tolerance, String> {
    if !(time_ratio.is_finite() && time_ratio >= 1.0) {
        return Err(format!(
            "--time-tolerance {time_ratio}: expected a ratio of at least 1"
        ));
    }
    Ok(Tolerance {
        time_ratio,
        small_millis,
        times: true,
    })
}

/// Reads both files' provenance: the lines that say how each run was made and whether their
/// times are comparable, and the tolerance with times off when the runs' settings or machines
/// differ (unless `force_times`). A file without provenance (written before it existed) is
/// timed as if the settings matched.
pub fn settings_check(
    baseline: &Path,
    new: &Path,
    mut tolerance: Tolerance,
    force_times: bool,
) -> Result<(Tolerance, Vec<String>), String> {
    let mut lines = Vec::new();
    match (runs::provenance(baseline)?, runs::provenance(new)?) {
        (Some(b), Some(n)) => {
            lines.push(format!("baseline: {}", b.summary()));
            lines.push(format!("new:      {}", n.summary()));
            let differences = b.timing_differences(&n);
            if differences.is_empty() {
                lines.push("times compared: same settings and machine".into());
            } else if force_times {
                lines.push(format!(
                    "times compared although the runs differ (--force-times): {}",
                    differences.join("; ")
                ));
            } else {
                lines.push(format!(
                    "times not compared: the runs differ in {}; to compare them, make the new \
                     run as the baseline was made (`{}`), or pass --force-times",
                    differences.join("; "),
                    b.command.join(" ")
                ));
                tolerance.times = false;
            }
        }
        (b, n) => {
            for (side, path, found) in [
                ("baseline", baseline, b.is_some()),
                ("new", new, n.is_some()),
            ] {
                if !found {
                    lines.push(format!(
                        "{side}: no provenance ({} not found): times compared as if the settings matched",
                        runs::sidecar(path).display()
                    ));
                }
            }
        }
    }
    Ok((tolerance, lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tolerance_is_a_ratio_of_at_least_one() {
        assert_eq!(tolerance(1.0, 10.0).map(|t| t.time_ratio), Ok(1.0));
        for ratio in [0.99, f64::NAN, f64::INFINITY] {
            assert!(tolerance(ratio, 10.0).is_err(), "{ratio}");
        }
    }

    #[test]
    fn runs_without_provenance_are_timed_as_if_their_settings_matched() {
        let dir = std::env::temp_dir().join(format!("frontier-comparable-{}", std::process::id()));
        let (base, new) = (dir.join("base.csv"), dir.join("new.csv"));
        let (checked, lines) = settings_check(&base, &new, Tolerance::default(), false).unwrap();
        assert!(checked.times);
        assert_eq!(lines.len(), 2);
        assert!(lines[0].starts_with("baseline: no provenance"), "{lines:?}");
        assert!(lines[1].starts_with("new: no provenance"), "{lines:?}");
    }
}
