//! Where a results file came from: a sidecar `NAME.csv.json` beside every results CSV, with
//! frontier's version and commit, the command line, where the levels were, the settings that
//! shape timings (threads, levels in parallel, repeats, limits), the machine and the start
//! time. The CSV itself stays a plain table.
//!
//! Why: `compare` must tell a slower solver from a different run. Times from a run that solved
//! levels side by side, on another machine or with other limits, are not comparable with a
//! baseline's; answers and state counts still are. And `report` draws the solved levels, which
//! it finds where the run found them.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::results::write_atomically;
use crate::words;

/// Everything known about how a results file was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// frontier's version and the commit it was built from (`-dirty`: with local changes).
    pub version: String,
    pub commit: String,
    /// The command line, arguments as given.
    pub command: Vec<String>,
    /// Where the levels were (empty in a sidecar written before it was recorded).
    #[serde(default)]
    pub levels: Levels,
    pub settings: Settings,
    pub machine: Machine,
    /// When the run started (UTC, RFC 3339).
    pub started: String,
}

/// Where a run's levels were: the paths `solve` was given, as given (relative to the folder
/// it ran in), and the game it was told they are, if any.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Levels {
    pub paths: Vec<PathBuf>,
    /// The game's command-line id (`--game`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

/// The settings of a run that its times depend on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub threads: usize,
    pub parallel_levels: usize,
    /// Runs of each level (the CSV gives the median time).
    pub repeat: usize,
    /// Levels whose first run was shorter were timed warm (absent before `--warm-below`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warm_below_ms: Option<f64>,
    pub max_states: Option<u64>,
    pub timeout_s: Option<f64>,
    pub max_memory_mib: Option<u64>,
    pub anytime_s: Option<f64>,
    /// `--effort` (absent: the default, and before the flag existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effort: Option<u32>,
    /// The cluster of a `--distributed` run ("2 processes x 1 workers"); absent for a local one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distributed: Option<String>,
    /// The external solver of a `--solver` run; absent for frontier's own search. Not a
    /// difference in timing settings: another solver is what two such runs compare.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver: Option<SolverProvenance>,
}

/// An external solver as a run's sidecar records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolverProvenance {
    /// The command, placeholders and all.
    pub command: String,
    /// The first line of its `--version` output, where it has one.
    pub version: Option<String>,
    /// How its limits were held (docs/cli.md, "External solvers").
    pub enforcement: String,
}

/// The machine a run was made on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    pub cpu: String,
    pub cores: usize,
    pub memory_mib: u64,
    pub os: String,
}

impl Provenance {
    /// This process's provenance for a run of the `levels` with `settings`, starting now.
    pub fn now(levels: Levels, settings: Settings) -> Provenance {
        Provenance {
            version: env!("CARGO_PKG_VERSION").into(),
            commit: env!("FRONTIER_COMMIT").into(),
            command: std::env::args().collect(),
            levels,
            settings,
            machine: Machine::this(),
            started: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
        }
    }

    /// Writes the sidecar of the results file `csv`, whole.
    pub fn write_beside(&self, csv: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).expect("provenance serialises") + "\n";
        write_atomically(&sidecar(csv), &text)
    }

    /// The sidecar of the results file `csv`: `None` when there is none (a file written before
    /// provenance existed), an error when it cannot be read.
    pub fn read_beside(csv: &Path) -> Result<Option<Provenance>, String> {
        let path = sidecar(csv);
        match std::fs::read_to_string(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("{}: {e}", path.display())),
            Ok(text) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| format!("{}: {e}", path.display())),
        }
    }

    /// One line of what matters for timings.
    pub fn summary(&self) -> String {
        let s = &self.settings;
        let limit = |name: &str, v: Option<String>| v.map(|v| format!(", {name} {v}"));
        let solver = s.solver.as_ref().map(|solver| {
            let version = solver.version.as_deref().map(|v| format!(" ({v})"));
            format!(
                "solver `{}`{}, ",
                solver.command,
                version.unwrap_or_default()
            )
        });
        format!(
            "{}frontier {} ({}), {}{}, {} at a time, {} per level{}{}{}{}{}{}; {} ({} cores, {} MiB, {}); {}",
            solver.unwrap_or_default(),
            self.version,
            self.commit,
            words::count(s.threads, "thread"),
            s.distributed
                .as_ref()
                .map(|d| format!(" (distributed: {d})"))
                .unwrap_or_default(),
            words::count(s.parallel_levels, "level"),
            words::count(s.repeat, "run"),
            limit("warm below", s.warm_below_ms.map(|v| format!("{v} ms"))).unwrap_or_default(),
            limit("max-states", s.max_states.map(|v| v.to_string())).unwrap_or_default(),
            limit("timeout", s.timeout_s.map(|v| format!("{v} s"))).unwrap_or_default(),
            limit("max-memory", s.max_memory_mib.map(|v| format!("{v} MiB"))).unwrap_or_default(),
            limit("anytime", s.anytime_s.map(|v| format!("{v} s"))).unwrap_or_default(),
            limit("effort", s.effort.map(|v| v.to_string())).unwrap_or_default(),
            self.machine.cpu,
            self.machine.cores,
            self.machine.memory_mib,
            self.machine.os,
            self.started,
        )
    }

    /// What differs between two runs in ways that change timings: settings and machine.
    pub fn timing_differences(&self, other: &Provenance) -> Vec<String> {
        let mut out = Vec::new();
        let mut differ = |what: &str, a: String, b: String| {
            if a != b {
                out.push(format!("{what} {a} vs {b}"));
            }
        };
        let (a, b) = (&self.settings, &other.settings);
        differ("threads", a.threads.to_string(), b.threads.to_string());
        differ(
            "levels at a time",
            a.parallel_levels.to_string(),
            b.parallel_levels.to_string(),
        );
        differ("runs per level", a.repeat.to_string(), b.repeat.to_string());
        differ(
            "warm below",
            format!("{:?}", a.warm_below_ms),
            format!("{:?}", b.warm_below_ms),
        );
        differ(
            "max-states",
            format!("{:?}", a.max_states),
            format!("{:?}", b.max_states),
        );
        differ(
            "timeout",
            format!("{:?}", a.timeout_s),
            format!("{:?}", b.timeout_s),
        );
        differ(
            "anytime",
            format!("{:?}", a.anytime_s),
            format!("{:?}", b.anytime_s),
        );
        differ(
            "effort",
            format!("{:?}", a.effort),
            format!("{:?}", b.effort),
        );
        let on = |d: &Option<String>| d.clone().unwrap_or_else(|| "this process".into());
        differ("backend", on(&a.distributed), on(&b.distributed));
        let (a, b) = (&self.machine, &other.machine);
        differ("cpu", a.cpu.clone(), b.cpu.clone());
        differ("cores", a.cores.to_string(), b.cores.to_string());
        out
    }
}

/// `results/x.csv` → `results/x.csv.json`.
pub fn sidecar(csv: &Path) -> PathBuf {
    let mut name = csv.as_os_str().to_owned();
    name.push(".json");
    PathBuf::from(name)
}

impl Machine {
    /// This machine, as far as the OS tells (Linux's `/proc`; elsewhere what std knows).
    pub fn this() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find_map(|l| l.strip_prefix("model name")?.split_once(':'))
            .map(|(_, name)| name.trim().to_string())
            .unwrap_or_else(|| std::env::consts::ARCH.into());
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
        Machine {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            memory_mib: super::total_memory().map_or(0, |b| b >> 20),
            os: format!(
                "{} {} {}",
                std::env::consts::OS,
                std::env::consts::ARCH,
                kernel.trim()
            )
            .trim()
            .to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(parallel_levels: usize) -> Settings {
        Settings {
            threads: 2,
            parallel_levels,
            repeat: 3,
            warm_below_ms: None,
            max_states: None,
            timeout_s: Some(120.0),
            max_memory_mib: Some(16_000),
            anytime_s: None,
            effort: None,
            distributed: None,
            solver: None,
        }
    }

    #[test]
    fn the_sidecar_round_trips_and_names_what_differs() {
        let dir = std::env::temp_dir().join(format!("frontier-provenance-{}", std::process::id()));
        let csv = dir.join("x.csv");
        assert_eq!(Provenance::read_beside(&csv), Ok(None));
        let levels = Levels {
            paths: vec!["corpora/golf-peaks".into()],
            game: Some("golf-peaks".into()),
        };
        let one = Provenance::now(levels.clone(), settings(1));
        one.write_beside(&csv).unwrap();
        assert_eq!(sidecar(&csv), dir.join("x.csv.json"));
        assert_eq!(Provenance::read_beside(&csv), Ok(Some(one.clone())));
        assert!(one.timing_differences(&one).is_empty());
        let two = Provenance::now(levels, settings(2));
        assert_eq!(
            one.timing_differences(&two),
            ["levels at a time 1 vs 2".to_string()]
        );
        assert!(
            one.summary()
                .contains("1 level at a time, 3 runs per level, timeout 120 s")
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_sidecar_from_before_the_levels_were_recorded_is_read() {
        let mut old =
            serde_json::to_value(Provenance::now(Levels::default(), settings(1))).unwrap();
        old.as_object_mut().unwrap().remove("levels");
        let read: Provenance = serde_json::from_value(old).unwrap();
        assert_eq!(read.levels, Levels::default());
    }
}
