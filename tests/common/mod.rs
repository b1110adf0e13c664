//! Helpers shared by the integration tests: where the corpora are, and what every row says.
//!
//! Everything a test reads is in the repository: the official level sets under
//! `corpora/official/<game>/`, the repository's own levels under `corpora/<game>/`.

#![allow(dead_code)]

use std::path::PathBuf;

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
