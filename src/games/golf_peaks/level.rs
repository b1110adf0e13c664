//! Reading a level file (spec §1.1): the size line, the rows of cell tokens, the blank line and
//! the hand. Parsing is strict (§5): every rejection names the line and what was expected.

use super::rules::{Board, Cell, Corner, Dir, Kind, MAX_CELLS, NO_CELL, Step, Tile};
use crate::games::{LevelError, Source};

/// The largest card strength and tile height accepted (far beyond any real level; it keeps
/// every roll and height computation small).
const MAX_NUMBER: u32 = u16::MAX as u32;

/// A distinct card of the hand: its text, its steps and how many copies are dealt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    pub text: String,
    pub steps: Vec<Step>,
    pub count: u32,
}

/// A parsed level: the board and the hand (distinct cards in order of first appearance).
#[derive(Clone, Debug)]
pub struct Level {
    pub board: Board,
    pub hand: Vec<Card>,
}

impl Level {
    /// The index of the hand card with this text.
    pub fn card_named(&self, text: &str) -> Option<usize> {
        self.hand.iter().position(|c| c.text == text)
    }
}

/// Parses one level file.
pub fn parse(source: &Source) -> Result<Level, LevelError> {
    parse_level(source, true)
}

/// Parses a level that may lack a flag (then no play ends on it): several hand-made levels of
/// spec §2.7 only exercise the rules and have none.
#[cfg(test)]
pub(super) fn parse_without_flag(source: &Source) -> Result<Level, LevelError> {
    parse_level(source, false)
}

fn parse_level(source: &Source, flag_required: bool) -> Result<Level, LevelError> {
    let lines: Vec<&str> = source
        .text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let err = |line: usize, message: String| source.error(Some(line), message);
    let (width, height) = parse_size(lines[0]).map_err(|m| err(1, m))?;
    let mut tiles = vec![Tile::VOID; width * height];
    let mut flags = Vec::new();
    let mut balls = Vec::new();
    // (index, cell, line) of every warp.
    let mut warps: Vec<(u32, usize, usize)> = Vec::new();
    for y in 0..height {
        let line_no = y + 2;
        let Some(row) = lines.get(y + 1) else {
            return Err(err(
                line_no,
                format!("expected row {y} of {height}, found the end of the file"),
            ));
        };
        let tokens: Vec<&str> = row.split_ascii_whitespace().collect();
        if tokens.len() > width {
            return Err(err(
                line_no,
                format!(
                    "row {y} has {} cells, more than the width {width}",
                    tokens.len()
                ),
            ));
        }
        for (x, token) in tokens.into_iter().enumerate() {
            let cell = y * width + x;
            let parsed = parse_cell(token)
                .map_err(|m| err(line_no, format!("cell {x},{y} `{token}`: {m}")))?;
            let Some(parsed) = parsed else { continue };
            match parsed.marker {
                Some(Marker::Flag) => flags.push((cell, line_no)),
                Some(Marker::Ball) => balls.push((cell, line_no)),
                None => {}
            }
            if let Kind::Warp(k) = parsed.tile.kind {
                warps.push((k, cell, line_no));
            }
            tiles[cell] = parsed.tile;
        }
    }
    let separator = height + 2;
    match lines.get(separator - 1) {
        None => {
            return Err(err(
                separator,
                "expected an empty line and then the cards, found the end of the file".into(),
            ));
        }
        Some(l) if !l.trim().is_empty() => {
            return Err(err(
                separator,
                format!("expected an empty line after the {height} rows, found `{l}`"),
            ));
        }
        Some(_) => {}
    }
    let hand_line = height + 3;
    let Some(cards) = lines.get(hand_line - 1) else {
        return Err(err(
            hand_line,
            "expected the line of cards, found the end of the file".into(),
        ));
    };
    let hand = parse_hand(cards).map_err(|m| err(hand_line, m))?;
    let flag = match flags.is_empty() && !flag_required {
        true => NO_CELL,
        false => the_one("flag", &flags, source)?,
    };
    let start = the_one("ball", &balls, source)?;
    check_warp_pairs(&warps, width, source)?;
    Ok(Level {
        board: Board::new(width, height, tiles, flag, start),
        hand,
    })
}

/// F2: `<W>x<H>`.
fn parse_size(line: &str) -> Result<(usize, usize), String> {
    let expected = || format!("expected the size `<width>x<height>` (e.g. `3x3`), found `{line}`");
    let (w, h) = line.trim_end().split_once('x').ok_or_else(expected)?;
    let (w, h) = (parse_number(w), parse_number(h));
    let (Some(w), Some(h)) = (w, h) else {
        return Err(expected());
    };
    if w == 0 || h == 0 {
        return Err(format!(
            "the width and height must be at least 1, found `{line}`"
        ));
    }
    let (w, h) = (w as usize, h as usize);
    if w * h > MAX_CELLS {
        return Err(format!(
            "a grid of {w}x{h} cells is too large (at most {MAX_CELLS} cells)"
        ));
    }
    Ok((w, h))
}

/// A decimal number of ASCII digits, at most [`MAX_NUMBER`].
fn parse_number(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u32>().ok().filter(|&n| n <= MAX_NUMBER)
}

/// The flag and start markers, which sit on plain tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marker {
    Flag,
    Ball,
}

struct ParsedCell {
    tile: Tile,
    marker: Option<Marker>,
}

/// F8: one cell token; `None` for `x`.
fn parse_cell(token: &str) -> Result<Option<ParsedCell>, String> {
    if token == "x" {
        return Ok(None);
    }
    let mut height = None;
    let mut word: Option<(&str, Kind, Option<Marker>)> = None;
    for part in token.split(',') {
        if part.is_empty() {
            return Err("empty part (two commas, or a comma at an end)".into());
        }
        if part.bytes().all(|b| b.is_ascii_digit()) {
            let h = parse_number(part)
                .ok_or_else(|| format!("height {part} is too large (at most {MAX_NUMBER})"))?;
            if height.replace(h).is_some() {
                return Err("two heights".into());
            }
            continue;
        }
        let (kind, marker) = type_word(part)?;
        if let Some((first, _, _)) = word.replace((part, kind, marker)) {
            return Err(format!("two type words (`{first}` and `{part}`)"));
        }
    }
    let (kind, marker) = word.map_or((Kind::Plain, None), |(_, k, m)| (k, m));
    Ok(Some(ParsedCell {
        tile: Tile {
            height: height.unwrap_or(0),
            kind,
        },
        marker,
    }))
}

/// The tile kind of a type word (F8).
fn type_word(part: &str) -> Result<(Kind, Option<Marker>), String> {
    use Corner::*;
    let kind = match part {
        "flag" => return Ok((Kind::Plain, Some(Marker::Flag))),
        "ball" => return Ok((Kind::Plain, Some(Marker::Ball))),
        "x" => return Err("`x` (no tile) cannot be combined with other parts".into()),
        "up" => Kind::Slope(Dir::Up),
        "down" => Kind::Slope(Dir::Down),
        "left" => Kind::Slope(Dir::Left),
        "right" => Kind::Slope(Dir::Right),
        "/tl" => Kind::Angle(TopLeft),
        "/tr" => Kind::Angle(TopRight),
        "/bl" => Kind::Angle(BottomLeft),
        "/br" => Kind::Angle(BottomRight),
        "icetl" => Kind::IceAngle(TopLeft),
        "icetr" => Kind::IceAngle(TopRight),
        "icebl" => Kind::IceAngle(BottomLeft),
        "icebr" => Kind::IceAngle(BottomRight),
        "ice" => Kind::Ice,
        "sand" => Kind::Sand,
        "quick" => Kind::Quicksand,
        "water" => Kind::Water,
        "boing" => Kind::Spring,
        "*n" => Kind::Belt(Dir::Up),
        "*e" => Kind::Belt(Dir::Right),
        "*s" => Kind::Belt(Dir::Down),
        "*w" => Kind::Belt(Dir::Left),
        "warp" => Kind::Warp(0),
        _ => match part.strip_prefix("warp") {
            Some(index) => Kind::Warp(parse_number(index).ok_or_else(|| {
                format!("malformed warp index `{index}` (expected `warp` or `warp<N>`)")
            })?),
            None => return Err(format!("unknown part `{part}`")),
        },
    };
    Ok((kind, None))
}

/// F9: exactly one cell marked `word`.
fn the_one(word: &str, found: &[(usize, usize)], source: &Source) -> Result<Cell, LevelError> {
    match found {
        [(cell, _)] => Ok(*cell as Cell),
        [] => Err(source.error(None, format!("no `{word}` cell (expected exactly one)"))),
        [(_, first), (_, second), ..] => Err(source.error(
            Some(*second),
            format!("a second `{word}` cell (the first is on line {first}; expected exactly one)"),
        )),
    }
}

/// F9: every warp index occurs on exactly two cells.
fn check_warp_pairs(
    warps: &[(u32, usize, usize)],
    width: usize,
    source: &Source,
) -> Result<(), LevelError> {
    for &(index, _, line) in warps {
        let cells: Vec<(usize, usize)> = warps
            .iter()
            .filter(|w| w.0 == index)
            .map(|w| (w.1 % width, w.1 / width))
            .collect();
        if cells.len() != 2 {
            let at: Vec<String> = cells.iter().map(|(x, y)| format!("{x},{y}")).collect();
            return Err(source.error(
                Some(line),
                format!(
                    "warp {index} is on {} cell(s) ({}); every warp index needs exactly two",
                    cells.len(),
                    at.join(" ")
                ),
            ));
        }
    }
    Ok(())
}

/// F6, F10: the hand as distinct cards with their counts.
fn parse_hand(line: &str) -> Result<Vec<Card>, String> {
    let mut hand: Vec<Card> = Vec::new();
    for token in line.split_ascii_whitespace() {
        let steps = parse_card(token).map_err(|m| format!("card `{token}`: {m}"))?;
        match hand.iter_mut().find(|c| c.text == token) {
            Some(card) => card.count += 1,
            None => hand.push(Card {
                text: token.to_string(),
                steps,
                count: 1,
            }),
        }
    }
    Ok(hand)
}

/// F10: `step [step]`, `step = N kind` with kind `-` (roll) or `/` (jump).
pub fn parse_card(text: &str) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let kind = rest[digits..].chars().next();
        let jump = match kind {
            Some('-') => false,
            Some('/') => true,
            Some(c) if digits > 0 => {
                return Err(format!(
                    "unexpected `{c}` (expected `-` or `/` after a number)"
                ));
            }
            Some(c) => return Err(format!("unexpected `{c}` (expected a number)")),
            None => return Err("a number without `-` or `/` at the end".into()),
        };
        let n = parse_number(&rest[..digits]).ok_or_else(|| match digits {
            0 => "a step without a number before its `-` or `/`".to_string(),
            _ => format!(
                "strength {} is too large (at most {MAX_NUMBER})",
                &rest[..digits]
            ),
        })?;
        if n == 0 {
            return Err("a step of strength 0".into());
        }
        steps.push(Step { jump, n });
        rest = &rest[digits + 1..];
    }
    match steps.len() {
        0 => Err("empty card".into()),
        1 | 2 => Ok(steps),
        more => Err(format!("{more} steps (a card has one or two)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SearchControl;
    use crate::games::golf_peaks::GolfPeaks;
    use crate::games::golf_peaks::testing::{level, parse, rest};
    use crate::games::{Answer, Game};

    // The parser (§1.1).

    #[test]
    fn the_format_short_rows_token_parts_and_trailing_lines() {
        let l =
            level("3x2\r\n2,ball 0,sand\r\nice,1 0,flag  x\r\n  \r\n 1/2- 1- 1- \r\nignored\n1-↘");
        assert_eq!((l.board.width, l.board.height), (3, 2));
        assert_eq!(l.board.xy(l.board.start), (0, 0));
        assert_eq!(l.board.xy(l.board.flag), (1, 1));
        let ice = l.board.tile(3);
        assert_eq!((ice.height, ice.kind), (1, Kind::Ice));
        // (2,0) is missing from the short row: no tile.
        assert_eq!(l.board.tile(2).kind, Kind::Void);
        let hand: Vec<(&str, u32)> = l.hand.iter().map(|c| (c.text.as_str(), c.count)).collect();
        assert_eq!(hand, [("1/2-", 1), ("1-", 2)]);
        assert_eq!(l.hand[0].steps.len(), 2);
        assert!(l.hand[0].steps[0].jump && !l.hand[0].steps[1].jump);
    }

    #[test]
    fn a_bare_warp_is_index_zero() {
        let l = level("4x1\n0,ball 0,warp 0,warp0 0,flag\n\n1-");
        assert_eq!(rest(&l, "1-↘"), (2, 0));
    }

    #[test]
    fn an_empty_hand_is_legal_and_unsolvable() {
        let l = level("2x1\n0,ball 0,flag\n\n");
        assert!(l.hand.is_empty());
        assert_eq!(
            GolfPeaks::solve(&l, &SearchControl::unlimited()),
            Answer::Unsolvable
        );
    }

    /// The error's line and a word its message must contain.
    fn rejects(text: &str, line: Option<usize>, needle: &str) {
        let e = parse(text)
            .err()
            .unwrap_or_else(|| panic!("accepted: {text:?}"));
        assert_eq!(e.line, line, "{e}");
        assert!(e.message.contains(needle), "{e} (expected `{needle}`)");
        if let Some(line) = line {
            assert!(e.to_string().starts_with(&format!("t.txt:{line}: ")), "{e}");
        }
    }

    #[test]
    fn a_malformed_size_line_is_rejected() {
        for bad in ["3 x 1", "3X1", "x1", "3x", " 3x1", "3x1x1", "-3x1", ""] {
            rejects(&format!("{bad}\n0,ball 0,flag 0\n\n1-"), Some(1), "size");
        }
        rejects("0x1\n\n\n1-", Some(1), "at least 1");
        rejects("300x300\n", Some(1), "too large");
        // Trailing whitespace is allowed.
        level("3x1  \n0,ball 0,flag 0\n\n1-");
    }

    #[test]
    fn bad_rows_are_rejected_on_their_line() {
        rejects(
            "2x2\n0,ball 0,flag\n0 0 0\n\n1-",
            Some(3),
            "more than the width",
        );
        rejects("2x3\n0,ball 0,flag\n0 0", Some(4), "end of the file");
        rejects("2x1\n0,ball 0,flag\n1-\n1-", Some(3), "empty line");
        rejects("2x1\n0,ball 0,flag", Some(3), "empty line");
        rejects("2x1\n0,ball 0,flag\n", Some(4), "cards");
    }

    #[test]
    fn bad_cell_tokens_are_rejected_on_their_line() {
        let cases = [
            ("0,bogus", "unknown part"),
            ("2,,ice", "empty part"),
            ("ice,", "empty part"),
            ("1,2", "two heights"),
            ("ice,sand", "two type words"),
            ("0,flag,ice", "two type words"),
            ("x,1", "`x`"),
            ("0,warpx", "malformed warp index"),
            ("99999,ice", "too large"),
        ];
        for (token, needle) in cases {
            rejects(
                &format!("3x2\n0,ball 0,flag 0\n0 {token} 0\n\n1-"),
                Some(3),
                needle,
            );
        }
    }

    #[test]
    fn flags_balls_and_warps_are_counted() {
        rejects("2x1\n0,ball 0\n\n1-", None, "no `flag`");
        rejects("2x1\n0,flag 0\n\n1-", None, "no `ball`");
        rejects(
            "3x2\n0,ball 0,flag 0\n0 0 0,flag\n\n1-",
            Some(3),
            "second `flag`",
        );
        rejects(
            "3x2\n0,ball 0,flag 0,ball\n0 0 0\n\n1-",
            Some(2),
            "second `ball`",
        );
        rejects("3x2\n0,ball 0,flag 0\n0,warp2 0 0\n\n1-", Some(3), "warp 2");
        rejects(
            "3x2\n0,ball 0,flag 0,warp\n0,warp 0,warp 0\n\n1-",
            Some(2),
            "warp 0",
        );
    }

    #[test]
    fn bad_cards_are_rejected_on_their_line() {
        let cases = [
            ("1/1/1-", "3 steps"),
            ("0-", "strength 0"),
            ("1/0-", "strength 0"),
            ("1x", "unexpected `x`"),
            ("-", "without a number"),
            ("1", "without `-` or `/`"),
            ("1-↘", "unexpected `↘`"),
        ];
        for (card, needle) in cases {
            rejects(&format!("2x1\n0,ball 0,flag\n\n1- {card}"), Some(4), needle);
        }
    }
}
