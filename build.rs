//! Embeds the git commit the binary is built from (`FRONTIER_COMMIT`), for the provenance of
//! every results file: the commit's id, with `-dirty` when the sources differ from it, or
//! `unknown` outside a git checkout.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    // Rebuilt when the sources or the checked-out commit change (only paths that exist: a
    // missing one would make cargo rerun this on every build).
    for path in ["src", "Cargo.toml", "Cargo.lock", "build.rs"] {
        println!("cargo::rerun-if-changed={path}");
    }
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(commit) => {
            if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
                for path in ["HEAD", "packed-refs", "refs/heads"] {
                    let path = Path::new(&dir).join(path);
                    if path.exists() {
                        println!("cargo::rerun-if-changed={}", path.display());
                    }
                }
            }
            let dirty = git(&[
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                "src",
                "Cargo.toml",
                "Cargo.lock",
                "build.rs",
            ])
            .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{commit}-dirty")
            } else {
                commit
            }
        }
        None => "unknown".into(),
    };
    println!("cargo::rustc-env=FRONTIER_COMMIT={commit}");
}
