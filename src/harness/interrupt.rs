//! Interrupts (SIGINT, SIGTERM) and the results file: whatever the moment a signal lands, a
//! run that began writing leaves a whole results file.
//!
//! - The first interrupt sets [`control::interrupt`]: the searches stop at their next check and
//!   the command writes everything it has (for `solve`, a row for every level).
//! - A second interrupt quits promptly with the interrupt's exit status. Before it quits it
//!   takes the lock that every write of the results file holds ([`write`]), so that it never
//!   cuts one short, and then writes the rows finished so far ([`track`]) once more. A write
//!   is a temporary file renamed into place, so a process killed outright (SIGKILL) leaves the
//!   last file written whole too.
//! - `solve` takes the lock before it writes anything: the sidecar and a CSV of the header
//!   alone are written under one hold ([`begin`]), so that from the moment the sidecar exists
//!   a whole CSV is beside it, and every later write (the checkpoints, the last write,
//!   [`write_last`]) replaces a whole file with a whole file.
//!
//! The signals are counted here, not read from [`control::interrupted`]: a cluster sets that
//! flag too when it breaks, and the user's first Ctrl-C must still be a first one.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::results;
use crate::engine::control;

/// What a second interrupt writes before it quits: the results file and its rows finished so
/// far, as a whole CSV.
struct Tracked {
    path: PathBuf,
    csv: Box<dyn Fn() -> String + Send>,
}

/// Held by every write of the results file and by a second interrupt until the process ends.
static RESULTS: Mutex<Option<Tracked>> = Mutex::new(None);

/// Interrupts received.
static SIGNALS: AtomicUsize = AtomicUsize::new(0);

fn results_lock() -> MutexGuard<'static, Option<Tracked>> {
    RESULTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Catches SIGINT and SIGTERM for the rest of the process; `status` is the exit status of a
/// second interrupt. Says so and returns `false` when they cannot be caught.
pub fn install(status: i32) -> bool {
    let installed = ctrlc::set_handler(move || {
        if SIGNALS.fetch_add(1, Ordering::SeqCst) == 0 {
            control::interrupt();
            eprintln!(
                "frontier: interrupted: writing the results (interrupt again to quit at once)"
            );
            return;
        }
        // A write under way ends first; none starts after: the process ends holding the lock.
        let tracked = results_lock();
        if let Some(Tracked { path, csv }) = tracked.as_ref()
            && let Err(e) = results::write_atomically(path, &csv())
        {
            eprintln!("frontier: cannot write {}: {e}", path.display());
        }
        std::process::exit(status);
    });
    if let Err(e) = &installed {
        eprintln!("frontier: warning: cannot catch interrupts ({e}); Ctrl-C ends the run at once");
    }
    installed.is_ok()
}

/// Runs `write` holding the results lock: a second interrupt waits for it to end, and nothing
/// else writes the results meanwhile. `solve` writes the sidecar and a CSV of the header alone
/// this way, before anything else: from then on a whole CSV is always beside the sidecar.
pub fn begin<T>(write: impl FnOnce() -> T) -> T {
    let _lock = results_lock();
    write()
}

/// From now on a second interrupt writes `csv()` (the rows finished so far, as a whole CSV)
/// to `path` before it quits. `csv` is called with the results lock held: it must not write.
pub fn track(path: &Path, csv: impl Fn() -> String + Send + 'static) {
    *results_lock() = Some(Tracked {
        path: path.to_path_buf(),
        csv: Box::new(csv),
    });
}

/// Writes the results file (a checkpoint) under the results lock.
pub fn write(path: &Path, text: &str) -> io::Result<()> {
    let _lock = results_lock();
    results::write_atomically(path, text)
}

/// Writes the results file for the last time: a second interrupt after it writes nothing.
pub fn write_last(path: &Path, text: &str) -> io::Result<()> {
    let mut tracked = results_lock();
    let written = results::write_atomically(path, text);
    *tracked = None;
    written
}
