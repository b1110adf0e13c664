//! Helpers shared by the integration tests.

use std::path::PathBuf;

/// A path under `../shared` (the official corpora and specs beside the repository).
pub fn shared(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(relative)
}

/// A path under the repository's own `corpora/`.
#[allow(dead_code)]
pub fn own(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("corpora")
        .join(relative)
}
