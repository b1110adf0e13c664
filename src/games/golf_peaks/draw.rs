//! Pictures of a Golf Peaks level (`frontier show`): tiles shaded by height (higher is darker)
//! with their height and kind, the flag, and the ball after every play, with the cards still in
//! the hand. The SVG turns the grid 45° as the game does, so the notation's arrows point where
//! the ball goes; the terminal draws the file grid as it is (↗ is up there). The frames are
//! the positions [`notation::replay_seen`] passes through, the replay `check` makes.

use super::level::Level;
use super::notation;
use super::rules::{Corner, Dir, Kind, Position};
use crate::games::{Replay, Verdict};
use crate::show::{self, Board, Cell, Frame, Line, Rgb, Shape};

const LOW: Rgb = Rgb(178, 221, 126);
const HIGH: Rgb = Rgb(46, 102, 44);
const WATER: Rgb = Rgb(93, 164, 222);
const SAND: Rgb = Rgb(232, 208, 146);
const QUICKSAND: Rgb = Rgb(160, 118, 70);
const ICE: Rgb = Rgb(206, 238, 250);
const WARP: Rgb = Rgb(150, 110, 200);
const BELT: Rgb = Rgb(150, 150, 150);
const SPRING: Rgb = Rgb(240, 140, 60);
const FLAG: Rgb = Rgb(210, 40, 40);
const BALL: Rgb = Rgb(255, 255, 255);

/// The start, and with a solution the position after every play.
pub fn replay(level: &Level, solution: Option<&str>) -> Replay {
    let counts: Vec<u32> = level.hand.iter().map(|c| c.count).collect();
    let Some(solution) = solution else {
        let start = level.board.start_position();
        return Replay {
            frames: vec![frame(level, &start, None, &counts, 0, 0)],
            verdict: None,
        };
    };
    let total = solution.split_whitespace().count();
    let mut frames = Vec::new();
    let verdict = notation::replay_seen(level, solution, |position, token, left| {
        frames.push(frame(level, position, token, left, frames.len(), total));
    })
    .map(Verdict::moves);
    show::hold_last(&mut frames);
    Replay {
        frames,
        verdict: Some(verdict),
    }
}

fn frame(
    level: &Level,
    position: &Position,
    token: Option<&str>,
    left: &[u32],
    n: usize,
    of: usize,
) -> Frame {
    let board = &level.board;
    let highest = (0..board.cells())
        .map(|c| board.tile(c as u16).height)
        .max()
        .unwrap_or(0)
        .max(1);
    let mut picture = Board::new(board.width, board.height);
    picture.diamond = true;
    for cell in 0..board.cells() {
        let tile = board.tile(cell as u16);
        if tile.kind == Kind::Void {
            continue;
        }
        let shade = LOW.mix(HIGH, tile.height as f64 / highest as f64);
        // (ground, terminal symbol, SVG symbol, token)
        let (ground, glyph, label, token) = match tile.kind {
            Kind::Void | Kind::Plain => (shade, String::new(), String::new(), None),
            Kind::Slope(d) => (shade, screen(d).into(), arrow(d).into(), None),
            Kind::Angle(c) => (shade, corner(c).into(), String::new(), Some(c)),
            Kind::IceAngle(c) => (ICE, corner(c).into(), String::new(), Some(c)),
            Kind::Ice => (ICE, "=".into(), String::new(), None),
            Kind::Sand => (SAND, ":".into(), String::new(), None),
            Kind::Quicksand => (QUICKSAND, "%".into(), String::new(), None),
            Kind::Water => (WATER, "~".into(), "~".into(), None),
            Kind::Spring => (shade, "^".into(), "⤒".into(), None),
            Kind::Warp(k) => (WARP, format!("W{k}"), format!("W{k}"), None),
            Kind::Belt(d) => (BELT, belt(d).into(), belt_arrow(d).into(), None),
        };
        let height = tile.height.to_string();
        let mut drawn = Cell::ground(ground)
            .text(format!("{height}{label}"))
            .glyph(format!("{height}{glyph}"));
        if let Some(c) = token {
            drawn = drawn.token(Shape::Corner(corner_index(c)), shade.mix(Rgb::BLACK, 0.35));
            drawn.ink = ground.contrast();
        }
        if tile.kind == Kind::Spring {
            drawn.ink = SPRING;
        }
        if cell as u16 == board.flag {
            drawn = drawn.text("⚑").glyph("F").ink(FLAG);
        }
        if cell as u16 == position.ball {
            let on_flag = if cell as u16 == board.flag { "⚑" } else { "" };
            drawn = drawn
                .token(Shape::Disc, BALL)
                .text(on_flag)
                .glyph("o")
                .ink(FLAG)
                .highlight(n > 0);
        }
        let (x, y) = board.xy(cell as u16);
        picture.set(y, x, drawn);
    }
    let hand: Vec<String> = level
        .hand
        .iter()
        .zip(left)
        .flat_map(|(card, &count)| std::iter::repeat_n(card.text.clone(), count as usize))
        .collect();
    let cards: Line = show::line(if hand.is_empty() {
        "cards left: none".to_string()
    } else {
        format!("cards left: {}", hand.join(" "))
    });
    Frame {
        board: picture,
        step: n as u32,
        caption: vec![show::move_caption(n, of, token.unwrap_or("")), cards],
        millis: show::frame_millis(n),
    }
}

/// A grid direction on the unturned terminal grid.
fn screen(d: Dir) -> &'static str {
    match d {
        Dir::Up => "↑",
        Dir::Right => "→",
        Dir::Down => "↓",
        Dir::Left => "←",
    }
}

/// A grid direction on the turned SVG grid: the notation's arrow.
fn arrow(d: Dir) -> &'static str {
    match d {
        Dir::Up => "↗",
        Dir::Right => "↘",
        Dir::Down => "↙",
        Dir::Left => "↖",
    }
}

fn belt(d: Dir) -> &'static str {
    match d {
        Dir::Up => "⇑",
        Dir::Right => "⇒",
        Dir::Down => "⇓",
        Dir::Left => "⇐",
    }
}

fn belt_arrow(d: Dir) -> &'static str {
    match d {
        Dir::Up => "⇗",
        Dir::Right => "⇘",
        Dir::Down => "⇙",
        Dir::Left => "⇖",
    }
}

fn corner(c: Corner) -> &'static str {
    match c {
        Corner::TopLeft => "◤",
        Corner::TopRight => "◥",
        Corner::BottomRight => "◢",
        Corner::BottomLeft => "◣",
    }
}

fn corner_index(c: Corner) -> u8 {
    match c {
        Corner::TopLeft => 0,
        Corner::TopRight => 1,
        Corner::BottomRight => 2,
        Corner::BottomLeft => 3,
    }
}
