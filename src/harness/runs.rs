//! Results as `compare` and `report` read them: one results CSV, or a folder of several runs of
//! the same levels read as one. A run in a folder is a CSV, or a subfolder of CSVs that together
//! hold its levels (one file per level, when each level was solved by a process of its own).
//!
//! Why folders: on a shared machine the load changes from one second to the next, so two builds
//! are timed fairly only when their runs take turns (`scripts/regression-check.sh` solves each
//! level with the baseline's build and this one in turn, each level's run a CSV in its round's
//! subfolder of its side's folder). A folder's runs are merged level by level: the time is the
//! median of the runs' times, the range the fastest and slowest of them all, so that
//! `compare`'s rule (medians beyond the tolerance and ranges apart) sees every run. Answers and
//! states are the first run's.
//!
//! Two such folders whose runs share names (rounds) are also read side by side
//! ([`paired_times`]): a level's run in one round of the baseline and its run in the same round
//! of the new build saw the same seconds of load, so `compare` judges their ratios round by
//! round rather than two ranges that the load of other minutes widened.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use super::discover;
use super::provenance::Provenance;
use super::registry::LevelTask;
use super::results::{self, Row, Status};
use crate::games::GameId;

/// The rows of a results CSV, or of a folder of runs merged.
pub fn read(path: &Path) -> Result<Vec<Row>, String> {
    if !path.is_dir() {
        return read_file(path);
    }
    let runs: Vec<Vec<Row>> = read_runs(path)?.into_iter().map(|(_, rows)| rows).collect();
    Ok(merge(&runs))
}

/// The solution of the level's `solved` row in a results CSV (or folder of runs): what
/// `show --from` replays.
pub fn solution(csv: &Path, task: &dyn LevelTask) -> Result<String, String> {
    let rows = read(csv)?;
    let game = task.game();
    let row = rows
        .iter()
        .find(|r| r.game == game && r.level == task.name())
        .ok_or_else(|| {
            format!(
                "{}: no row for level `{}` of {game}",
                csv.display(),
                task.name()
            )
        })?;
    if row.status != Status::Solved {
        return Err(format!(
            "{}: level `{}` is {}, not solved",
            csv.display(),
            task.name(),
            row.status
        ));
    }
    Ok(row.solution.clone())
}

/// The rows of each run in a folder, with the run's name (its file's or subfolder's).
fn read_runs(dir: &Path) -> Result<Vec<(String, Vec<Row>)>, String> {
    run_files(dir)?
        .into_iter()
        .map(|(name, files)| {
            let rows = files.iter().map(|file| read_file(file));
            let rows = rows.collect::<Result<Vec<_>, _>>()?;
            Ok((name, rows.concat()))
        })
        .collect()
}

/// A level: (game, level name).
pub type LevelKey = (GameId, String);

/// Each level's times in the runs of the same name in two folders: (baseline, new) milliseconds
/// by run name. Empty unless both paths are folders.
pub type PairedTimes = HashMap<LevelKey, BTreeMap<String, (f64, f64)>>;

/// The times of the runs that two folders of runs share by name, level by level (see the top).
pub fn paired_times(base: &Path, new: &Path) -> Result<PairedTimes, String> {
    let mut paired = PairedTimes::new();
    if !(base.is_dir() && new.is_dir()) {
        return Ok(paired);
    }
    let key = |r: &Row| (r.game, r.level.clone());
    let new_runs: HashMap<String, Vec<Row>> = read_runs(new)?.into_iter().collect();
    for (name, base_rows) in read_runs(base)? {
        let Some(new_rows) = new_runs.get(&name) else {
            continue;
        };
        let new_times: HashMap<LevelKey, f64> =
            new_rows.iter().map(|r| (key(r), r.millis)).collect();
        for row in &base_rows {
            if let Some(&new_millis) = new_times.get(&key(row)) {
                let level = paired.entry(key(row)).or_default();
                level.insert(name.clone(), (row.millis, new_millis));
            }
        }
    }
    Ok(paired)
}

/// How the results were made: a file's sidecar, or a folder's first run's (with the number of
/// runs, which counts as runs per level).
pub fn provenance(path: &Path) -> Result<Option<Provenance>, String> {
    if !path.is_dir() {
        return Provenance::read_beside(path);
    }
    let runs = run_files(path)?;
    let Some(mut provenance) = Provenance::read_beside(&runs[0].1[0])? else {
        return Ok(None);
    };
    provenance.settings.repeat *= runs.len();
    Ok(Some(provenance))
}

/// The provenance sidecar that [`provenance`] reads (for messages).
pub fn sidecar(path: &Path) -> PathBuf {
    match run_files(path) {
        Ok(runs) if path.is_dir() => super::provenance::sidecar(&runs[0].1[0]),
        _ => super::provenance::sidecar(path),
    }
}

/// The runs in a folder, by name: each `*.csv` file one run (named by its stem), each
/// subfolder's `*.csv` files (by name) another (named by the subfolder).
fn run_files(dir: &Path) -> Result<Vec<(String, Vec<PathBuf>)>, String> {
    let mut runs: Vec<(String, Vec<PathBuf>)> = Vec::new();
    let name = |path: &Path, stem: bool| {
        let name = if stem {
            path.file_stem()
        } else {
            path.file_name()
        };
        name.unwrap_or_default().to_string_lossy().into_owned()
    };
    for entry in entries(dir)? {
        if entry.is_dir() {
            let files: Vec<PathBuf> = entries(&entry)?.into_iter().filter(|p| is_csv(p)).collect();
            if !files.is_empty() {
                runs.push((name(&entry, false), files));
            }
        } else if is_csv(&entry) {
            runs.push((name(&entry, true), vec![entry]));
        }
    }
    if runs.is_empty() {
        return Err(format!(
            "{}: a folder without results (*.csv)",
            dir.display()
        ));
    }
    Ok(runs)
}

/// The paths in `dir`, by name.
fn entries(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let read = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = read.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    Ok(paths)
}

fn is_csv(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "csv") && path.is_file()
}

fn read_file(path: &Path) -> Result<Vec<Row>, String> {
    let text = discover::read_text(path)?;
    results::parse_csv(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Several runs of the same levels as one: in the order the levels first appear, each level's
/// time the median of its runs' times and its range over every run; the rest from its first run.
pub fn merge(runs: &[Vec<Row>]) -> Vec<Row> {
    let mut order: Vec<LevelKey> = Vec::new();
    let mut seen: HashMap<LevelKey, Vec<&Row>> = HashMap::new();
    for row in runs.iter().flatten() {
        let key = (row.game, row.level.clone());
        let entry = seen.entry(key.clone()).or_default();
        if entry.is_empty() {
            order.push(key);
        }
        entry.push(row);
    }
    order
        .iter()
        .map(|key| {
            let rows = &seen[key];
            let mut merged = rows[0].clone();
            if rows.len() > 1 {
                let mut times: Vec<f64> = rows.iter().map(|r| r.millis).collect();
                merged.millis = results::median(&mut times);
                let ranges = rows.iter().map(|r| r.millis_range());
                merged.millis_min = ranges.clone().map(|(lo, _)| lo).reduce(f64::min);
                merged.millis_max = ranges.map(|(_, hi)| hi).reduce(f64::max);
            }
            merged
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::results::Status;

    fn row(level: &str, millis: f64, range: Option<(f64, f64)>) -> Row {
        let mut r = Row::error(GameId::SlidingBlocks, level, String::new());
        r.status = Status::Solved;
        r.millis = millis;
        r.millis_min = range.map(|(lo, _)| lo);
        r.millis_max = range.map(|(_, hi)| hi);
        r
    }

    #[test]
    fn runs_merge_to_the_median_and_the_whole_range() {
        let runs = vec![
            vec![row("a", 10.0, None), row("b", 5.0, Some((4.0, 6.0)))],
            vec![row("b", 7.0, Some((6.5, 9.0))), row("a", 30.0, None)],
            vec![row("a", 12.0, None), row("c", 1.0, None)],
        ];
        let merged = merge(&runs);
        let summary: Vec<(&str, f64, (f64, f64))> = merged
            .iter()
            .map(|r| (r.level.as_str(), r.millis, r.millis_range()))
            .collect();
        assert_eq!(
            summary,
            [
                ("a", 12.0, (10.0, 30.0)),
                ("b", 6.0, (4.0, 9.0)),
                ("c", 1.0, (1.0, 1.0))
            ]
        );
    }

    #[test]
    fn a_folder_of_runs_reads_as_one_with_its_first_runs_provenance() {
        let dir = std::env::temp_dir().join(format!("frontier-runs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        assert!(read(&dir).unwrap_err().contains("without results"));
        for (i, millis) in [20.0, 10.0].into_iter().enumerate() {
            let csv = dir.join(format!("{i}.csv"));
            std::fs::write(&csv, results::to_csv(&[row("a", millis, None)])).unwrap();
        }
        let rows = read(&dir).unwrap();
        assert_eq!(
            (rows[0].millis, rows[0].millis_range()),
            (15.0, (10.0, 20.0))
        );
        assert_eq!(provenance(&dir), Ok(None));
        assert_eq!(sidecar(&dir), dir.join("0.csv.json"));
        // A third run, one file per level: levels a and b (b only in this run).
        let run = dir.join("2");
        std::fs::create_dir_all(&run).unwrap();
        for (level, millis) in [("a", 40.0), ("b", 7.0)] {
            let csv = run.join(format!("{level}.csv"));
            std::fs::write(&csv, results::to_csv(&[row(level, millis, None)])).unwrap();
        }
        let rows = read(&dir).unwrap();
        let summary: Vec<(&str, f64, (f64, f64))> = rows
            .iter()
            .map(|r| (r.level.as_str(), r.millis, r.millis_range()))
            .collect();
        assert_eq!(summary, [("a", 20.0, (10.0, 40.0)), ("b", 7.0, (7.0, 7.0))]);
        // The same folder as a new build's runs against a baseline of two rounds: runs are
        // paired by name (0.csv with 0.csv, the subfolder 2 with 2.csv), level by level.
        let base = dir.with_extension("baseline");
        std::fs::create_dir_all(&base).unwrap();
        for (name, millis) in [("0", 25.0), ("2", 30.0), ("9", 1.0)] {
            let csv = base.join(format!("{name}.csv"));
            std::fs::write(&csv, results::to_csv(&[row("a", millis, None)])).unwrap();
        }
        let paired = paired_times(&base, &dir).unwrap();
        let a = &paired[&(GameId::SlidingBlocks, "a".to_string())];
        let a: Vec<(&str, (f64, f64))> = a.iter().map(|(k, &v)| (k.as_str(), v)).collect();
        assert_eq!(a, [("0", (25.0, 20.0)), ("2", (30.0, 40.0))]);
        assert_eq!(paired.len(), 1, "b is in no round of the baseline");
        assert!(paired_times(&base.join("0.csv"), &dir).unwrap().is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_dir_all(&base).unwrap();
    }
}
