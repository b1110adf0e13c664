//! Finding level files under the paths of a command line and deciding each file's game
//! (spec `cli.md`: `--game`, else the nearest enclosing directory named after a game, else the
//! file's content).

use std::cmp::Ordering;
use std::collections::HashSet;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::registry::{self, GameEntry};
use crate::games::GameId;

/// A file to read levels from, with its game and its text (or why it could not be read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelFile {
    pub path: PathBuf,
    pub game: GameId,
    pub text: Result<String, String>,
}

/// What [`discover`] found.
#[derive(Debug, Default)]
pub struct Discovered {
    pub files: Vec<LevelFile>,
    /// What was passed over and why (symbolic-link loops), for the user.
    pub warnings: Vec<String>,
}

/// The path that stands for standard input (ripgrep's convention).
pub const STDIN: &str = "-";

/// Every level file under `paths`, in command-line order, directories walked recursively in
/// natural name order (`1-2` before `1-10`), symbolic links followed. Files named explicitly
/// are always read; files met in a walk are skipped when hidden, Markdown, not of a level
/// extension of their game, or a companion file (answers, indexes) of the game. A file reached
/// twice (through links, or named twice) is read once; a link back to a folder being walked is
/// not followed, with a warning. `-` reads one file's levels from standard input (the game
/// forced).
pub fn discover(paths: &[PathBuf], forced: Option<GameId>) -> Result<Discovered, String> {
    let mut found = Discovered::default();
    let mut seen = HashSet::new();
    for path in paths {
        if path.as_os_str() == STDIN {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| format!("standard input: {e}"))?;
            let game = forced.ok_or("levels from standard input (`-`) need --game <ID>")?;
            found.files.push(LevelFile {
                path: PathBuf::from("stdin"),
                game,
                text: Ok(text),
            });
            continue;
        }
        let meta = fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if meta.is_dir() {
            walk(path, forced, &mut seen, &mut found)?;
        } else if seen.insert(identity(path)) {
            let text = read_text(path);
            let game = match &text {
                Ok(text) => decide_game(path, text, forced)?,
                Err(e) => forced
                    .or_else(|| game_from_directory(path))
                    .ok_or_else(|| e.clone())?,
            };
            found.files.push(LevelFile {
                path: path.clone(),
                game,
                text,
            });
        }
    }
    Ok(found)
}

/// What makes two paths the same file: the canonical path (links resolved).
fn identity(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

fn walk(
    dir: &Path,
    forced: Option<GameId>,
    seen: &mut HashSet<PathBuf>,
    found: &mut Discovered,
) -> Result<(), String> {
    let entries = WalkDir::new(dir)
        .follow_links(true)
        .sort_by(|a, b| {
            natural_cmp(
                &a.file_name().to_string_lossy(),
                &b.file_name().to_string_lossy(),
            )
        })
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => match (e.loop_ancestor(), e.path()) {
                (Some(ancestor), Some(path)) => {
                    found.warnings.push(format!(
                        "{}: a link back to {}, not followed",
                        path.display(),
                        ancestor.display()
                    ));
                    continue;
                }
                _ => return Err(e.to_string()),
            },
        };
        let path = entry.path();
        if entry.file_type().is_dir()
            || path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("md"))
            || !seen.insert(identity(path))
        {
            continue;
        }
        // A file the game cannot hold by its extension is skipped before it is read; one that
        // cannot be read becomes an error row when its game is known without its text.
        let known = forced.or_else(|| game_from_directory(path));
        if let Some(game) = known
            && !(registry::game(game)?.is_level_path)(path)
        {
            continue;
        }
        let text = match (read_text(path), known) {
            (Ok(text), _) => text,
            (Err(e), Some(game)) => {
                found.files.push(LevelFile {
                    path: path.to_path_buf(),
                    game,
                    text: Err(e),
                });
                continue;
            }
            (Err(e), None) => return Err(e),
        };
        let game = decide_game(path, &text, forced)?;
        let entry = registry::game(game)?;
        if (entry.is_level_path)(path) && (entry.holds_levels)(&text) {
            found.files.push(LevelFile {
                path: path.to_path_buf(),
                game,
                text: Ok(text),
            });
        }
    }
    Ok(())
}

/// Reads a file as UTF-8, with the path in the error.
pub fn read_text(path: &Path) -> Result<String, String> {
    let bytes = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// The game of a file: forced, else from its directories, else from its content.
pub fn decide_game(path: &Path, text: &str, forced: Option<GameId>) -> Result<GameId, String> {
    if let Some(game) = forced.or_else(|| game_from_directory(path)) {
        return Ok(game);
    }
    let sniffed: Vec<GameEntry> = registry::games()
        .into_iter()
        .filter(|g| (g.sniff)(text))
        .collect();
    match sniffed.as_slice() {
        [one] => Ok(one.id),
        _ => Err(format!(
            "{}: cannot tell which game this file belongs to; pass --game <ID> (one of {}; \
             each game's files: docs/cli.md)",
            path.display(),
            GameId::list()
        )),
    }
}

/// The nearest enclosing directory whose name is a game id.
fn game_from_directory(path: &Path) -> Option<GameId> {
    let absolute = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    absolute
        .ancestors()
        .skip(1)
        .find_map(|dir| dir.file_name()?.to_str()?.parse().ok())
}

/// Compares names with runs of digits compared as numbers.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a, b);
    loop {
        match (a.chars().next(), b.chars().next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let da = a.len() - a.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let db = b.len() - b.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let (na, nb) = (
                    a[..da].trim_start_matches('0'),
                    b[..db].trim_start_matches('0'),
                );
                let by_value = na.len().cmp(&nb.len()).then_with(|| na.cmp(nb));
                if by_value != Ordering::Equal {
                    return by_value;
                }
                (a, b) = (&a[da..], &b[db..]);
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(&y);
                }
                (a, b) = (&a[x.len_utf8()..], &b[y.len_utf8()..]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_compares_numbers_by_value() {
        let mut names = vec!["1-10", "1-2", "10-1", "2-1", "1-1", "Credits"];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(names, ["1-1", "1-2", "1-10", "2-1", "10-1", "Credits"]);
    }

    #[test]
    fn the_nearest_game_directory_decides() {
        let path = Path::new("/x/golf-peaks/sliding-blocks/official/1-1.txt");
        assert_eq!(game_from_directory(path), Some(GameId::SlidingBlocks));
        assert_eq!(game_from_directory(Path::new("/x/y/z.txt")), None);
    }
}
