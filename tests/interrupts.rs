//! Interrupts at many moments of a `solve` run: during start-up, while levels are solved, as the
//! results are written. Whatever the moment, a run that began writing (its provenance sidecar
//! exists) leaves a whole CSV beside it: the header and whole rows. One interrupt leaves every
//! level's row; two back to back (as GNU `timeout` sends them: to the process, then to its
//! group) leave the rows finished so far. The exit status is 130, or that of a run that ended
//! before the signal.

mod common;

use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::scratch;
use frontier::harness::results;

/// Levels in the official Ice Tower set, solved in about 2 s with `--timeout 0.3`.
const LEVELS: usize = 18;

/// Milliseconds after the spawn at which the signals are sent: start-up (the levels read, the
/// sidecar written), the levels being solved, and about the end of the run.
const MOMENTS: [u64; 14] = [
    0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 1500, 1800, 2100,
];

/// How the signals are sent: how many, and the pause between them.
#[derive(Clone, Copy, Debug)]
enum Signals {
    Once,
    TwiceBackToBack,
    /// The second one a moment later, while the first one's results are being written.
    TwiceApart(Duration),
}

fn sigint(pid: u32) {
    // SAFETY: `kill` on the child's process id, which is ours until we wait for it.
    unsafe { libc::kill(pid as i32, libc::SIGINT) };
}

/// One run interrupted `after` its spawn; checks what it leaves.
fn interrupted_run(dir: &Path, after: Duration, signals: Signals) {
    let out = dir.join(format!("{}-{signals:?}.csv", after.as_millis()));
    let sidecar = dir.join(format!(
        "{}.json",
        out.file_name().unwrap().to_str().unwrap()
    ));
    let mut child = Command::new(env!("CARGO_BIN_EXE_frontier"))
        .args(["solve", "--quiet", "--timeout", "0.3", "--out"])
        .arg(&out)
        .arg(common::official("ice-tower"))
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    std::thread::sleep(after);
    sigint(child.id());
    match signals {
        Signals::Once => {}
        Signals::TwiceBackToBack => sigint(child.id()),
        Signals::TwiceApart(gap) => {
            std::thread::sleep(gap);
            sigint(child.id());
        }
    }
    let waited = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            waited.elapsed() < Duration::from_secs(20),
            "{out:?}: no exit 20 s after the interrupt"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    let moment = format!("{signals:?} at {} ms", after.as_millis());
    if !sidecar.exists() {
        // Stopped before it began writing: nothing to keep, and nothing left half-written.
        assert!(!out.exists(), "{moment}: a CSV without its sidecar");
        assert!(
            status.code() == Some(130) || status.signal() == Some(libc::SIGINT),
            "{moment}: {status:?} before the sidecar"
        );
        return;
    }
    assert!(
        matches!(status.code(), Some(130 | 0 | 1)),
        "{moment}: {status:?} after the sidecar was written"
    );
    let text = fs::read_to_string(&out)
        .unwrap_or_else(|e| panic!("{moment}: the sidecar but no CSV ({e}); {status:?}"));
    assert!(text.ends_with('\n'), "{moment}: a last line cut: {text}");
    let rows = results::parse_csv(&text).unwrap_or_else(|e| panic!("{moment}: {e}: {text}"));
    assert!(rows.len() <= LEVELS, "{moment}: {} rows", rows.len());
    assert!(
        rows.iter()
            .all(|r| r.game == frontier::games::GameId::IceTower && !r.level.is_empty()),
        "{moment}: {text}"
    );
    // One interrupt, or a run that ended before it: every level has its row.
    if matches!(signals, Signals::Once) || status.code() != Some(130) {
        assert_eq!(rows.len(), LEVELS, "{moment}: {status:?}: {text}");
    }
}

fn every_moment(name: &str, signals: Signals) {
    let dir = scratch(name);
    for ms in MOMENTS {
        interrupted_run(&dir, Duration::from_millis(ms), signals);
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn one_interrupt_at_any_moment_leaves_every_row() {
    every_moment("once", Signals::Once);
}

#[test]
fn two_interrupts_back_to_back_leave_a_whole_csv() {
    every_moment("twice", Signals::TwiceBackToBack);
}

#[test]
fn a_second_interrupt_while_the_results_are_written_leaves_a_whole_csv() {
    let dir = scratch("apart");
    let moments = [
        (5, 1),
        (20, 10),
        (50, 2),
        (100, 20),
        (300, 5),
        (500, 50),
        (800, 20),
        (1000, 100),
        (1200, 50),
        (1500, 10),
    ];
    for (ms, gap) in moments {
        let gap = Duration::from_millis(gap);
        interrupted_run(&dir, Duration::from_millis(ms), Signals::TwiceApart(gap));
    }
    let _ = fs::remove_dir_all(&dir);
}
