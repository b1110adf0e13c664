//! Helpers shared by the integration tests: where the corpora are, what every row says, how
//! the binary is run (alone, or as the processes of a hostfile on localhost), and each test's
//! scratch folder.
//!
//! Everything a test reads is in the repository: the official level sets under
//! `corpora/official/<game>/`, the repository's own levels under `corpora/<game>/`.

#![allow(dead_code)]

use std::fs;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

/// A path under the official level sets, `corpora/official/`.
pub fn official(relative: &str) -> PathBuf {
    own("official").join(relative)
}

/// A path under the repository's own `corpora/`.
pub fn own(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("corpora")
        .join(relative)
}

/// Every row's counts mean what docs/cli.md says in every game: `expanded` counts stored states
/// whose successors were all generated, so it is never above `states`.
pub fn assert_expanded_within_states(rows: &[frontier::harness::results::Row]) {
    for row in rows {
        assert!(
            row.expanded <= row.states,
            "{} {}: {} expanded of {} states",
            row.game,
            row.level,
            row.expanded,
            row.states
        );
    }
}

/// The row is `solved`; a failure names the level and what its row says.
pub fn assert_solved(row: &frontier::harness::results::Row) {
    use frontier::harness::results::Status;
    assert_eq!(
        row.status,
        Status::Solved,
        "{}: {}",
        row.level,
        row.detail()
    );
}

/// The row is `solved`, optimal.
pub fn assert_solved_optimally(row: &frontier::harness::results::Row) {
    assert_solved(row);
    assert!(row.optimal, "{}", row.level);
}

/// The built binary, to be given its arguments.
pub fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_frontier"))
}

/// The binary run with `args`, to its end.
pub fn frontier(args: &[&str]) -> Output {
    binary().args(args).output().expect("the binary runs")
}

/// A fresh scratch directory for one test, named after the test's file too: two files may
/// have tests of one name, and run at once.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "frontier-{}-{name}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A process's output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A path as an argument of the binary (the tests' paths are UTF-8).
pub fn str(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `addresses` of `n` free ports on localhost.
fn free_addresses(n: usize) -> Vec<String> {
    // Held until all are chosen, so that no port is handed out twice.
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").expect("a free port"))
        .collect();
    listeners
        .iter()
        .map(|l| format!("127.0.0.1:{}", l.local_addr().unwrap().port()))
        .collect()
}

/// A hostfile of `processes` free ports on localhost in `dir`, and its addresses.
pub fn hostfile(dir: &Path, processes: usize) -> (PathBuf, Vec<String>) {
    let addresses = free_addresses(processes);
    let path = dir.join("hosts");
    fs::write(&path, addresses.join("\n") + "\n").unwrap();
    (path, addresses)
}

/// Waits up to `limit` for `child` to exit; its output and how long it took.
pub fn wait_for(mut child: Child, limit: Duration) -> (Output, Duration) {
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            let output = child.wait_with_output().unwrap();
            return (output, started.elapsed());
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let output = child.wait_with_output().unwrap();
            panic!(
                "still running after {limit:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
