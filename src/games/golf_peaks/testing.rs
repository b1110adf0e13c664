//! Golf Peaks' test fixtures, shared by the tests of its modules: a level read from text, a
//! hand of plays replayed with the rules alone, a solution checked, and every state of a
//! space counted.

use std::path::Path;

use super::rules::{Dir, Illegal, Position};
use super::space::GolfSpace;
use super::{GolfPeaks, Level};
use crate::engine::SearchControl;
use crate::engine::explore::count_reachable;
use crate::games::{Game, LevelError, Source};

/// The one level of a file holding `text`, or why it is refused.
pub(super) fn parse(text: &str) -> Result<Level, LevelError> {
    let source = Source {
        path: Path::new("t.txt"),
        stem: "t",
        text,
    };
    let mut entries = GolfPeaks::parse(&source);
    assert_eq!(entries.len(), 1);
    entries.remove(0).level
}

/// The one level of a file holding `text`, which must be valid.
pub(super) fn level(text: &str) -> Level {
    parse(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Plays `plays` (in the notation) from the start with the rules alone (no hand bookkeeping).
pub(super) fn play_all(level: &Level, plays: &str) -> Result<Position, Illegal> {
    let mut position = level.board.start_position();
    for play in plays.split_whitespace() {
        let arrow = play.chars().next_back().unwrap();
        let text = &play[..play.len() - arrow.len_utf8()];
        let card = level.card_named(text).expect("a card of the hand");
        let dir = Dir::from_arrow(arrow).expect("an arrow");
        position = level.board.play(position, &level.hand[card].steps, dir)?;
    }
    Ok(position)
}

/// Where the ball rests after `plays`.
pub(super) fn rest(level: &Level, plays: &str) -> (usize, usize) {
    let position = play_all(level, plays).unwrap_or_else(|e| panic!("{plays}: {e:?}"));
    level.board.xy(position.ball)
}

/// The moves of a solution the checker accepts, or why it rejects it.
pub(super) fn check(level: &Level, solution: &str) -> Result<u64, String> {
    GolfPeaks::check(level, solution).map(|v| v.moves)
}

/// Every state reachable from the start, goal states not expanded.
pub(super) fn reachable(space: &GolfSpace) -> u64 {
    count_reachable(space, false, &SearchControl::unlimited()).expect("no limits")
}
