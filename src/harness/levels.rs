//! Which levels a command works on: every level under the paths that `--level` selects
//! (`solve`, `analyze`), or the one level of a file (`check`, `show`). The errors are the
//! user's: a path without levels, a pattern that matches none (or, for one level, several).

use std::path::{Path, PathBuf};

use super::registry::LevelTask;
use super::{LevelPattern, bare_name, discover, load_tasks};
use crate::games::GameId;

/// The levels under `paths` (warnings printed), those `--level` selects when it is given.
pub fn selected_levels(
    paths: &[PathBuf],
    game: Option<GameId>,
    level: Option<&str>,
) -> Result<Vec<Box<dyn LevelTask>>, String> {
    let found = discover::discover(paths, game)?;
    for warning in &found.warnings {
        eprintln!("frontier: warning: {warning}");
    }
    let mut tasks = load_tasks(&found.files)?;
    if tasks.is_empty() {
        let named: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(format!(
            "{}: no levels found (level files are .txt, or .tsv for sliding blocks; hidden \
             files, Markdown and answer tables are skipped: docs/cli.md)",
            named.join(", ")
        ));
    }
    if let Some(pattern) = level {
        let selected = LevelPattern::new(pattern)?;
        tasks.retain(|t| selected.matches(t.name()));
        if tasks.is_empty() {
            return Err(format!(
                "--level {pattern}: no level of these paths matches"
            ));
        }
    }
    Ok(tasks)
}

/// The one level of a file, or the one `--level` selects (`check`, `show`): as `solve --level`
/// selects, except that a level whose name is the pattern itself wins over the others matched.
pub fn one_level(
    level_path: &Path,
    game: Option<GameId>,
    level: Option<&str>,
) -> Result<Box<dyn LevelTask>, String> {
    let found = discover::discover(&[level_path.to_path_buf()], game)?;
    let Some(file) = found.files.into_iter().next() else {
        return Err(format!("{}: no level file", level_path.display()));
    };
    let mut tasks = load_tasks(std::slice::from_ref(&file))?;
    let names = |tasks: &[Box<dyn LevelTask>]| {
        tasks
            .iter()
            .map(|t| t.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (level, tasks.len()) {
        (Some(pattern), _) => {
            let selected = LevelPattern::new(pattern)?;
            let named = |t: &dyn LevelTask| t.name() == pattern || bare_name(t.name()) == pattern;
            if let Some(i) = tasks.iter().position(|t| named(t.as_ref())) {
                return Ok(tasks.swap_remove(i));
            }
            let (mut matched, others): (Vec<_>, Vec<_>) =
                tasks.into_iter().partition(|t| selected.matches(t.name()));
            match matched.len() {
                1 => Ok(matched.remove(0)),
                0 => Err(format!(
                    "{}: no level matches `{pattern}` (levels: {})",
                    level_path.display(),
                    names(&others)
                )),
                n => Err(format!(
                    "{}: {n} levels match `{pattern}`: {}; name one with --level '=NAME'",
                    level_path.display(),
                    names(&matched)
                )),
            }
        }
        (None, 1) => Ok(tasks.remove(0)),
        (None, n) => Err(format!(
            "{} holds {n} levels; pick one with --level (levels: {})",
            level_path.display(),
            names(&tasks)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOLF: &str = "corpora/golf-peaks";

    #[test]
    fn a_pattern_selects_among_the_levels_of_the_paths() {
        let all = selected_levels(&[GOLF.into()], None, None).unwrap();
        let first = all[0].name().to_string();
        let selected = selected_levels(&[GOLF.into()], None, Some(&format!("={first}"))).unwrap();
        assert_eq!(selected.len(), 1);
        assert_eq!(selected[0].name(), first);
        let none = selected_levels(&[GOLF.into()], None, Some("=no such level"));
        assert_eq!(
            none.err().as_deref(),
            Some("--level =no such level: no level of these paths matches")
        );
    }

    #[test]
    fn one_level_is_the_file_s_only_one_or_the_one_a_pattern_picks() {
        let file = Path::new("corpora/sliding-blocks/small-cases.tsv");
        let name = |level| one_level(file, None, level).map(|t| t.name().to_string());
        assert_eq!(name(Some("swap")).as_deref(), Ok("swap two goals"));
        assert_eq!(
            name(Some("=already solved")).as_deref(),
            Ok("already solved")
        );
        let several = name(Some("a")).unwrap_err();
        assert!(several.contains("levels match `a`"), "{several}");
        let unnamed = name(None).unwrap_err();
        assert!(unnamed.contains("holds 4 levels"), "{unnamed}");
        let single = Path::new("corpora/sliding-blocks/klotski.txt");
        assert!(one_level(single, None, None).is_ok());
    }
}
