//! Helpers shared by the integration tests: where the corpora are.
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
