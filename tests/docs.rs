//! The README's and docs/cli.md's commands, run as they are written: each `frontier ...` line of
//! their `sh` blocks (and the README's `cargo run --release -- ...`), in the order a reader meets
//! them, in a scratch folder that holds the repository's `corpora/` and
//! `results/baselines/`. A renamed flag, a moved file, a level name that no longer matches or
//! a comment that says what a command prints and no longer does fails here, so the documents
//! cannot drift from the program.
//!
//! What is checked, per command: `compare` exits 0 or 1 (a regression depends on the timings);
//! `solve` exits 0, or 1 when some rows ended at a limit and none in an error, or an external
//! solver's run has `wrong` rows and no error (the test gives
//! every level a budget of a few seconds, so that the README's main job stays short:
//! `--timeout` is added or lowered); every other command exits 0. A `# TEXT` line right after
//! a command, in its block, is what it prints: its standard output must hold TEXT.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The budget of each level of a documented `solve` or `analyze` here, in seconds.
const TEST_TIMEOUT: &str = "0.5";

/// A documented command: where it is written, its arguments after `frontier`, and what the
/// document says it prints.
#[derive(Debug)]
struct Documented {
    place: String,
    args: Vec<String>,
    prints: Option<String>,
}

/// Every command of the `sh` blocks of `file` (under the repository), in order.
fn commands(file: &str) -> Vec<Documented> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path).expect("the document is in the repository");
    let mut found = Vec::new();
    let mut in_sh = false;
    // Whether the last command found is in the block being read (a `# ` line says its output).
    let mut command_in_block = false;
    // The command being read (continued lines joined), with its first line's number.
    let mut pending: Option<(usize, String)> = None;
    for (number, line) in (1..).zip(text.lines()) {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_sh = !in_sh && trimmed == "```sh";
            command_in_block = false;
            continue;
        }
        if !in_sh {
            continue;
        }
        if let Some((first, mut joined)) = pending.take() {
            joined.push(' ');
            joined.push_str(trimmed.trim_end_matches('\\'));
            if trimmed.ends_with('\\') {
                pending = Some((first, joined));
            } else {
                found.push(documented(file, first, &joined));
            }
            continue;
        }
        if let Some(comment) = trimmed.strip_prefix("# ")
            && command_in_block
            && let Some(last) = found.last_mut()
            && last.prints.is_none()
        {
            last.prints = Some(comment.to_string());
            continue;
        }
        let command = trimmed
            .strip_prefix("cargo run --release -- ")
            .map(|rest| format!("frontier {rest}"))
            .unwrap_or_else(|| trimmed.to_string());
        if !command.starts_with("frontier ") {
            continue;
        }
        // A comment after the command on its line is the reader's, not the shell's argument.
        let command = command
            .split(" # ")
            .next()
            .unwrap_or_default()
            .trim()
            .to_string();
        command_in_block = true;
        if command.ends_with('\\') {
            pending = Some((number, command.trim_end_matches('\\').to_string()));
        } else {
            found.push(documented(file, number, &command));
        }
    }
    assert!(
        pending.is_none(),
        "{file}: a command continued past its block"
    );
    found
}

fn documented(file: &str, line: usize, command: &str) -> Documented {
    let words = shlex::split(command).unwrap_or_else(|| panic!("{file}:{line}: bad quoting"));
    Documented {
        place: format!("{file}:{line}"),
        args: words[1..].to_vec(),
        prints: None,
    }
}

/// A scratch folder laid out like the repository for a reader: `corpora/` and
/// `results/baselines/` (links to the repository's), and a `results/` of its own.
fn scratch() -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("frontier-docs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("results")).unwrap();
    std::os::unix::fs::symlink(repo.join("corpora"), dir.join("corpora")).unwrap();
    std::os::unix::fs::symlink(
        repo.join("results/baselines"),
        dir.join("results/baselines"),
    )
    .unwrap();
    dir
}

/// The arguments with every level's budget at most [`TEST_TIMEOUT`].
fn with_short_budget(mut args: Vec<String>) -> Vec<String> {
    if !matches!(args.first().map(String::as_str), Some("solve" | "analyze")) {
        return args;
    }
    match args.iter().position(|a| a == "--timeout") {
        Some(at) => args[at + 1] = TEST_TIMEOUT.to_string(),
        None => {
            args.splice(1..1, ["--timeout".to_string(), TEST_TIMEOUT.to_string()]);
        }
    }
    args
}

#[test]
fn every_command_of_the_readme_and_the_cli_contract_runs_as_documented() {
    let documented: Vec<Documented> = ["README.md", "docs/cli.md"]
        .iter()
        .flat_map(|file| commands(file))
        .collect();
    let subcommands: Vec<&str> = documented.iter().map(|d| d.args[0].as_str()).collect();
    for expected in [
        "solve", "check", "show", "compare", "report", "generate", "analyze",
    ] {
        assert!(
            subcommands.contains(&expected),
            "no example of `frontier {expected}` in the README or docs/cli.md"
        );
    }
    let dir = scratch();
    for command in &documented {
        let args = with_short_budget(command.args.clone());
        let out = Command::new(env!("CARGO_BIN_EXE_frontier"))
            .args(&args)
            .current_dir(&dir)
            .output()
            .expect("frontier runs");
        let status = out.status.code().expect("an exit status");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let said = format!(
            "{}: frontier {} exited {status}\n{stdout}\n{}",
            command.place,
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        let fine = match args[0].as_str() {
            // Exit 1 for the rows the test's budget stopped, and for nothing else.
            // Or, for an external solver, for its wrong answers: what the example shows.
            "solve" => {
                status == 0
                    || (status == 1
                        && stderr.contains(" limit, 0 error")
                        && !stderr.contains(" 0 limit,"))
                    || (status == 1
                        && args.iter().any(|a| a == "--solver")
                        && stderr.contains(" 0 error, "))
            }
            "compare" => status == 0 || status == 1,
            // A solution shown from a row that the test's budget stopped (a busy machine).
            "show" => status == 0 || (status == 2 && stderr.contains(" is limit, not solved")),
            _ => status == 0,
        };
        assert!(fine, "{said}");
        if let Some(prints) = &command.prints {
            assert!(
                stdout.contains(prints.as_str()),
                "expected `{prints}`: {said}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
