//! Helpers shared by the integration tests, and the one place that finds the official corpora.
//!
//! The official level sets are not part of the repository (they are transcribed from public
//! sources and kept beside it, in `../shared`, or wherever `FRONTIER_SHARED` points). A fresh
//! clone without them must still pass its tests: a test that needs them starts with
//! `if common::official_corpora_missing() { return; }` (or leaves out what needs them), and the
//! test binary then says once, at its end, how many tests it skipped and where it looked. CI sets `FRONTIER_REQUIRE_SHARED`,
//! which turns a missing folder into a failure instead.

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Mutex, Once};

/// The folder of the official corpora and specs: `FRONTIER_SHARED`, else `../shared` beside the
/// repository.
pub fn shared_root() -> PathBuf {
    match std::env::var_os("FRONTIER_SHARED") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}

/// A path under the official corpora's folder. Only for tests that checked
/// [`official_corpora_missing`] first.
pub fn shared(relative: &str) -> PathBuf {
    let root = shared_root();
    assert!(
        root.join("corpora").is_dir(),
        "a test read {relative} without checking `common::official_corpora_missing()` first"
    );
    root.join(relative)
}

/// Whether the official corpora are absent, so that the calling test should return at once.
/// Records the skip (the test is the current thread's name, which libtest sets). Panics when
/// `FRONTIER_REQUIRE_SHARED` is set: there a missing corpus is a failure, never a skip.
pub fn official_corpora_missing() -> bool {
    let root = shared_root();
    if root.join("corpora").is_dir() {
        return false;
    }
    if std::env::var_os("FRONTIER_REQUIRE_SHARED").is_some() {
        panic!(
            "official corpora not found at {} (FRONTIER_REQUIRE_SHARED is set)",
            root.join("corpora").display()
        );
    }
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    SKIPPED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(test);
    static REPORT_AT_EXIT: Once = Once::new();
    // SAFETY: `report_skipped` is an `extern "C"` function that neither unwinds nor returns
    // anything; registering it is all `atexit` needs.
    REPORT_AT_EXIT.call_once(|| unsafe {
        libc::atexit(report_skipped);
    });
    true
}

/// The tests that found no official corpora.
static SKIPPED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// Says, after the test binary's summary, how many tests were skipped and why. Runs at exit
/// because only then is the count known; written to stderr, which libtest does not capture
/// outside a test.
extern "C" fn report_skipped() {
    use std::io::Write;
    let skipped = SKIPPED.lock().unwrap_or_else(|e| e.into_inner());
    // Not `eprintln!`: a panic here (stderr closed) could not unwind out of `atexit`.
    let _ = writeln!(
        std::io::stderr(),
        "official corpora not found at {}: {} tests skipped or shortened to the repository's \
         own levels ({}); set FRONTIER_SHARED to their \
         folder to run them",
        shared_root().join("corpora").display(),
        skipped.len(),
        skipped.iter().cloned().collect::<Vec<_>>().join(", "),
    );
}

/// A path under the repository's own `corpora/`.
pub fn own(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("corpora")
        .join(relative)
}
