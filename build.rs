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
            // This checkout's HEAD, and the one branch it names (not every branch: a commit in
            // another worktree of the same repository must not rebuild this one).
            let git_dir = git(&["rev-parse", "--git-dir"]);
            let common_dir = git(&["rev-parse", "--git-common-dir"]);
            let branch = git(&["symbolic-ref", "-q", "HEAD"]);
            let watched = [
                git_dir.map(|dir| Path::new(&dir).join("HEAD")),
                common_dir
                    .as_ref()
                    .map(|dir| Path::new(dir).join("packed-refs")),
                common_dir
                    .zip(branch)
                    .map(|(dir, b)| Path::new(&dir).join(b)),
            ];
            for path in watched.into_iter().flatten() {
                if path.exists() {
                    println!("cargo::rerun-if-changed={}", path.display());
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
