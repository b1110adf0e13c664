//! The report's gallery: every solved row of a results file replayed by its game's rules and
//! drawn as a small animated SVG ([`crate::show::svg`]), so that the report is also a picture
//! book of the corpus. The page must stay one reasonable file, so an animation larger than
//! [`MAX_ANIMATION_BYTES`], and every animation past [`MAX_GALLERY_BYTES`] in all, is left
//! out with a note that says so (and how to draw it). The levels are found where the user
//! says, else where the run found them ([`levels`]).

use std::path::{Path, PathBuf};

use super::registry::LevelTask;
use super::results::{Row, Status};
use super::{discover, load_tasks, runs};
use crate::games::GameId;
use crate::show::svg;

/// The largest animation embedded in the page.
pub const MAX_ANIMATION_BYTES: usize = 200 << 10;
/// The most bytes of animations one page holds.
pub const MAX_GALLERY_BYTES: usize = 12 << 20;
/// The side of a cell in the gallery's pictures.
const CELL: f64 = 20.0;

/// One solved level of a results file.
pub struct Animation {
    /// The results file it comes from, as the report names it.
    pub file: String,
    pub game: GameId,
    pub level: String,
    pub moves: Option<u64>,
    /// The SVG, or `None` when it is left out (then `note` says why).
    pub svg: Option<String>,
    pub note: String,
}

/// What the page's animations have used so far: bytes, and pictures (which name them).
#[derive(Default)]
pub struct Budget {
    bytes: usize,
    pictures: usize,
}

/// The levels a results file's gallery draws: those under `given` (`--levels`), else under the
/// paths its `solve` was given (its provenance), when they still exist. Unreadable files and
/// levels are left out: the gallery shows what it finds.
pub fn levels(given: &[PathBuf], csv: &Path) -> Vec<Box<dyn LevelTask>> {
    let (paths, game) = if given.is_empty() {
        let Ok(Some(provenance)) = runs::provenance(csv) else {
            return Vec::new();
        };
        let recorded = provenance.levels;
        match recorded.game.map(|id| id.parse::<GameId>()).transpose() {
            Ok(game) => (recorded.paths, game),
            Err(_) => return Vec::new(),
        }
    } else {
        (given.to_vec(), None)
    };
    let paths: Vec<PathBuf> = paths.into_iter().filter(|p| p.exists()).collect();
    discover::discover(&paths, game)
        .and_then(|found| load_tasks(&found.files))
        .unwrap_or_default()
}

/// The animations of the solved rows of `rows` whose level is among `tasks` (matched by game
/// and name), within the page's budget, which carries from file to file.
pub fn animations(
    file: &str,
    rows: &[Row],
    tasks: &[Box<dyn LevelTask>],
    budget: &mut Budget,
) -> Vec<Animation> {
    let mut out = Vec::new();
    for row in rows.iter().filter(|r| r.status == Status::Solved) {
        let Some(task) = tasks
            .iter()
            .find(|t| t.game() == row.game && t.name() == row.level)
        else {
            continue;
        };
        let mut animation = Animation {
            file: file.to_string(),
            game: row.game,
            level: row.level.clone(),
            moves: row.moves,
            svg: None,
            note: String::new(),
        };
        match task.show(Some(&row.solution)) {
            Err(e) => animation.note = format!("not drawn: {e}"),
            Ok(replay) => match replay.verdict {
                Some(Err(why)) => animation.note = format!("the solution does not replay: {why}"),
                _ => {
                    // Names in the page are unique per animation: one prefix each.
                    budget.pictures += 1;
                    let id = format!("g{}", budget.pictures);
                    let picture = svg::animation(
                        &replay.frames,
                        &svg::Options {
                            id: &id,
                            title: &row.level,
                            cell: CELL,
                        },
                    );
                    if picture.len() > MAX_ANIMATION_BYTES {
                        animation.note = format!(
                            "not embedded: {} KiB, over the page's {} KiB per animation",
                            picture.len() >> 10,
                            MAX_ANIMATION_BYTES >> 10
                        );
                    } else if budget.bytes + picture.len() > MAX_GALLERY_BYTES {
                        animation.note = format!(
                            "not embedded: the page keeps its animations under {} MiB",
                            MAX_GALLERY_BYTES >> 20
                        );
                    } else {
                        budget.bytes += picture.len();
                        animation.svg = Some(picture);
                    }
                }
            },
        }
        out.push(animation);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::provenance::{Levels, Provenance, Settings};

    #[test]
    fn the_levels_are_those_given_else_those_the_run_was_given() {
        let dir = std::env::temp_dir().join(format!("frontier-gallery-{}", std::process::id()));
        let csv = dir.join("golf.csv");
        let golf = PathBuf::from("corpora/golf-peaks");
        assert!(levels(&[], &csv).is_empty(), "no sidecar, no levels");
        let given = levels(std::slice::from_ref(&golf), &csv);
        assert!(!given.is_empty());
        let recorded = Levels {
            paths: vec![golf, dir.join("gone")],
            game: Some("golf-peaks".into()),
        };
        let settings = Settings {
            threads: 1,
            parallel_levels: 1,
            repeat: 1,
            warm_below_ms: None,
            max_states: None,
            timeout_s: None,
            max_memory_mib: None,
            anytime_s: None,
            effort: None,
            distributed: None,
            solver: None,
        };
        Provenance::now(recorded, settings)
            .write_beside(&csv)
            .unwrap();
        assert_eq!(levels(&[], &csv).len(), given.len());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
