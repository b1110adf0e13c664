//! The games, one folder each, and the [`Game`] trait through which the harness drives them.
//!
//! A game module parses its level files, simulates its rules (the single source of truth, used by
//! both the search and `check`), packs states for the engine and reads and writes its notation.
//! It knows nothing about threads: its search runs through [`crate::engine`].

mod answer;
pub mod bender4;
pub mod dir;
pub mod golf_peaks;
pub mod ice_tower;
pub mod packed;
pub mod puzzle_quest;
pub mod sliding_blocks;

use std::fmt;
use std::path::Path;
use std::str::FromStr;

pub use answer::{Answer, Limit, Proof, TooLarge};

use crate::engine::SearchControl;
use crate::engine::explore::{Analysis, Unfinished};
use crate::show::Frame;

/// The games frontier knows, by their command-line ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameId {
    GolfPeaks,
    SlidingBlocks,
    PuzzleQuest,
    IceTower,
    Bender4,
}

impl GameId {
    pub const ALL: [GameId; 5] = [
        GameId::GolfPeaks,
        GameId::SlidingBlocks,
        GameId::PuzzleQuest,
        GameId::IceTower,
        GameId::Bender4,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            GameId::GolfPeaks => "golf-peaks",
            GameId::SlidingBlocks => "sliding-blocks",
            GameId::PuzzleQuest => "puzzle-quest",
            GameId::IceTower => "ice-tower",
            GameId::Bender4 => "bender4",
        }
    }

    /// What the game's answer counts, singular: `moves` and the bounds on them are in these.
    pub fn move_noun(self) -> &'static str {
        match self {
            GameId::GolfPeaks => "card",
            GameId::SlidingBlocks => "move",
            GameId::PuzzleQuest => "swap",
            GameId::IceTower => "push",
            GameId::Bender4 => "step",
        }
    }

    /// The ids, comma-separated, for messages.
    pub fn list() -> String {
        Self::ALL.map(GameId::as_str).join(", ")
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|g| g.as_str() == s)
            .ok_or_else(|| format!("unknown game `{s}` (games: {})", Self::list()))
    }
}

/// A level file's text and where it came from.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// The path as the user gave it or as it was found, for messages.
    pub path: &'a Path,
    /// The file stem: the level name of one-level files.
    pub stem: &'a str,
    pub text: &'a str,
}

impl Source<'_> {
    /// An error at a line of this file (1-based; `None` for the file as a whole).
    pub fn error(&self, line: Option<usize>, message: impl Into<String>) -> LevelError {
        LevelError {
            file: self.path.display().to_string(),
            line,
            message: message.into(),
        }
    }
}

/// Why a level could not be read: file, line and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError {
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.file, line, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for LevelError {}

/// The levels of the file at `path`, each parsed or with why it could not be (tests and
/// benchmarks read the corpora with it; the harness reads files through `harness::discover`).
pub fn read_levels<G: Game>(path: &Path) -> Result<Vec<LevelEntry<G::Level>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let stem = path
        .file_stem()
        .map_or(String::new(), |s| s.to_string_lossy().into_owned());
    Ok(G::parse(&Source {
        path,
        stem: &stem,
        text: &text,
    }))
}

/// The level named `name` in the file at `path`, parsed.
pub fn read_level<G: Game>(path: &Path, name: &str) -> Result<G::Level, String> {
    read_levels::<G>(path)?
        .into_iter()
        .find(|entry| entry.name == name)
        .ok_or_else(|| format!("{}: no level `{name}`", path.display()))?
        .level
        .map_err(|e| e.to_string())
}

/// One level of a file: its name and the parsed level, or why it could not be read.
pub struct LevelEntry<L> {
    pub name: String,
    pub level: Result<L, LevelError>,
    /// The level alone, as a file of its game's format: what `solve --solver` hands an
    /// external solver.
    pub alone: SingleLevelFile,
}

/// A level alone in a file of its game's format: the text, and the extension its format is
/// read by (`txt`, `tsv`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SingleLevelFile {
    pub extension: String,
    pub text: String,
}

impl SingleLevelFile {
    /// The whole of `source`, a file that holds one level.
    pub fn whole(source: &Source) -> SingleLevelFile {
        SingleLevelFile::of_lines(source, std::iter::once(source.text))
    }

    /// Lines of `source` (a header and the level's own lines, say), each ended by a newline.
    pub fn of_lines<'a>(
        source: &Source,
        lines: impl IntoIterator<Item = &'a str>,
    ) -> SingleLevelFile {
        let mut text = String::new();
        for line in lines {
            text.push_str(line.strip_suffix('\n').unwrap_or(line));
            text.push('\n');
        }
        SingleLevelFile {
            extension: source
                .path
                .extension()
                .map_or_else(|| "txt".into(), |e| e.to_string_lossy().into_owned()),
            text,
        }
    }
}

/// What `check` found when it replayed a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub moves: u64,
    pub score: u64,
    /// The one line `frontier check` prints, e.g. `solved in 12 moves`.
    pub message: String,
}

impl Verdict {
    /// The verdict of games whose score is the move count.
    pub fn moves(moves: u64) -> Self {
        Verdict {
            moves,
            score: moves,
            message: format!("solved in {}", crate::words::count(moves, "move")),
        }
    }
}

/// A level drawn, or a solution replayed by the rules and drawn after every move (`frontier
/// show`).
pub struct Replay {
    /// The start, then the states the replay passed through (up to the first illegal move).
    pub frames: Vec<Frame>,
    /// What the replay concluded, exactly as [`Game::check`] says it; `None` without a
    /// solution.
    pub verdict: Option<Result<Verdict, String>>,
}

/// What `frontier analyze` measured of a level's whole space, or the limit that stopped it and
/// the layers completed before it. The analysis's farthest position is a level file of the
/// game, where it writes one.
pub type Analyzed = Result<Analysis<Option<String>>, Unfinished>;

/// What the harness needs from a game.
pub trait Game: 'static {
    const ID: GameId;
    /// A parsed level: everything the rules need, immutable during the search.
    type Level: Send + Sync;

    /// Whether a file with this path can hold levels of this game (by its extension).
    fn is_level_path(path: &Path) -> bool;

    /// Whether a file found while walking a directory holds levels, or is a companion file
    /// (answers, indexes) in one of the game's formats that the walk should skip.
    fn holds_levels(_text: &str) -> bool {
        true
    }

    /// Whether the text looks like this game's levels; decides the game of a file when neither
    /// `--game` nor a directory name does.
    fn sniff(text: &str) -> bool;

    /// Splits a file into its levels. One bad level does not spoil the others; an error that
    /// spoils the whole file is one entry named after the file stem.
    fn parse(source: &Source) -> Vec<LevelEntry<Self::Level>>;

    /// Searches the level, reporting progress and obeying limits through `ctl`.
    fn solve(level: &Self::Level, ctl: &SearchControl) -> Answer;

    /// Explores the whole space reachable from the level's start ([`crate::engine::explore`]);
    /// `None` for a game whose answer is not a shortest path in a space of its own.
    fn analyze(_level: &Self::Level, _ctl: &SearchControl) -> Option<Analyzed> {
        None
    }

    /// Replays a solution with the rules alone, no search.
    fn check(level: &Self::Level, solution: &str) -> Result<Verdict, String>;

    /// Draws the level, and with a solution every state that the replay of [`Game::check`]
    /// passes through (each game's `draw.rs`).
    fn show(level: &Self::Level, solution: Option<&str>) -> Replay;
}
