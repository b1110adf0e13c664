//! Where a command's output goes: `--out FILE`, `--out -` (standard output) or the command's
//! default file, and writing it there whole.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use frontier::harness::{self, discover, results};

/// `--out`'s destination: `None` for `-` (standard output), else the file given, else the
/// command's `default` file.
pub fn destination(out: Option<&str>, default: impl FnOnce() -> PathBuf) -> Option<PathBuf> {
    match out {
        Some("-") => None,
        Some(path) => Some(PathBuf::from(path)),
        None => Some(default()),
    }
}

/// `results/<name>.csv`, named after the first path (a file's stem, a directory's name).
pub fn default_out(first: &Path) -> PathBuf {
    let named = if first.as_os_str() == discover::STDIN {
        Some("stdin".into())
    } else if first.is_dir() {
        std::fs::canonicalize(first)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
    } else {
        Some(harness::file_stem(first))
    };
    PathBuf::from("results").join(format!("{}.csv", named.unwrap_or_else(|| "results".into())))
}

/// Writes a command's output whole: to `path` (a temporary file, then renamed), or to standard
/// output without one; a file that cannot be written is said and ends the command.
pub fn emit(path: Option<&Path>, text: &str) -> Result<(), ExitCode> {
    match path {
        None => print!("{text}"),
        Some(path) => {
            if let Err(e) = results::write_atomically(path, text) {
                eprintln!("frontier: cannot write {}: {e}", path.display());
                return Err(ExitCode::FAILURE);
            }
        }
    }
    Ok(())
}
