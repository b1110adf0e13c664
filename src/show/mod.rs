//! Pictures of levels and of solutions replayed step by step (`frontier show`, the report's
//! gallery): a small, game-agnostic model of a frame, and its two renderings.
//!
//! A game draws each state its rules produce as a [`Frame`]: a [`Board`] of [`Cell`]s (a
//! ground colour, an optional token on it, a short text) with a caption. It never writes
//! escapes or SVG itself; [`text`] turns a frame into terminal lines (plain, or coloured with
//! ANSI escapes) and [`svg`] turns a whole replay into one self-contained animated SVG.
//!
//! Like the engine, this module knows no game: the games' `draw.rs` files depend on it.

pub mod svg;
pub mod text;

/// A colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub const WHITE: Rgb = Rgb(255, 255, 255);
    pub const BLACK: Rgb = Rgb(0, 0, 0);

    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// The colour `t` of the way (0..=1) from `self` to `other`.
    pub fn mix(self, other: Rgb, t: f64) -> Rgb {
        let t = t.clamp(0.0, 1.0);
        let channel = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * t).round() as u8;
        Rgb(
            channel(self.0, other.0),
            channel(self.1, other.1),
            channel(self.2, other.2),
        )
    }

    /// Black or white, whichever reads better on this colour.
    pub fn contrast(self) -> Rgb {
        let luma = 0.299 * self.0 as f64 + 0.587 * self.1 as f64 + 0.114 * self.2 as f64;
        if luma > 140.0 {
            Rgb(20, 20, 20)
        } else {
            Rgb::WHITE
        }
    }
}

/// The shape of a token (a piece on a cell) in the SVG; the terminal shows a token as the
/// cell's background colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// The whole cell, slightly inset (blocks, ice); joined to neighbours of its group.
    Square,
    /// A disc (balls, gems, figures).
    Disc,
    /// A small diamond (switches, coins).
    Diamond,
    /// A triangle filling the half of the cell at this corner: 0 top left, 1 top right,
    /// 2 bottom right, 3 bottom left (Golf Peaks' angles).
    Corner(u8),
}

/// What stands on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Token {
    pub shape: Shape,
    pub colour: Rgb,
}

/// One cell of a frame.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    /// The floor; `None` off the board (nothing drawn). A cell that is off the board in one
    /// frame is off it in every frame.
    pub ground: Option<Rgb>,
    pub token: Option<Token>,
    /// What the terminal prints: at most two columns.
    pub glyph: String,
    /// The SVG's text on the cell.
    pub label: String,
    /// The colour of the text.
    pub ink: Rgb,
    /// An outline inside the cell (a target to reach).
    pub outline: Option<Rgb>,
    /// The cells of one piece share a group: the SVG joins their square tokens.
    pub group: Option<u32>,
    /// Part of what the frame's move changed: outlined in the SVG, bracketed and bold in the
    /// terminal.
    pub highlight: bool,
}

impl Cell {
    /// A cell off the board.
    pub fn off() -> Cell {
        Cell {
            ground: None,
            token: None,
            glyph: String::new(),
            label: String::new(),
            ink: Rgb::BLACK,
            outline: None,
            group: None,
            highlight: false,
        }
    }

    /// A board cell of this ground colour, without text.
    pub fn ground(colour: Rgb) -> Cell {
        Cell {
            ground: Some(colour),
            ink: colour.contrast(),
            ..Cell::off()
        }
    }

    /// The same text in the terminal and the SVG.
    pub fn text(mut self, text: impl Into<String>) -> Cell {
        self.glyph = text.into();
        self.label = self.glyph.clone();
        self
    }

    /// Text for the terminal only (e.g. `.` for an empty floor, which the SVG shows by its
    /// colour alone).
    pub fn glyph(mut self, glyph: impl Into<String>) -> Cell {
        self.glyph = glyph.into();
        self
    }

    /// A token on the cell; the text takes the colour that reads on it.
    pub fn token(mut self, shape: Shape, colour: Rgb) -> Cell {
        self.token = Some(Token { shape, colour });
        self.ink = colour.contrast();
        self
    }

    pub fn ink(mut self, ink: Rgb) -> Cell {
        self.ink = ink;
        self
    }

    pub fn outline(mut self, colour: Rgb) -> Cell {
        self.outline = Some(colour);
        self
    }

    pub fn group(mut self, group: u32) -> Cell {
        self.group = Some(group);
        self
    }

    pub fn highlight(mut self, on: bool) -> Cell {
        self.highlight = on;
        self
    }
}

/// A grid of cells, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub width: usize,
    pub height: usize,
    pub cells: Vec<Cell>,
    /// Drawn turned 45° clockwise in the SVG (Golf Peaks' diamond: the grid's up is ↗).
    pub diamond: bool,
}

impl Board {
    /// A board of `width` × `height` cells off the board, to be filled in.
    pub fn new(width: usize, height: usize) -> Board {
        Board {
            width,
            height,
            cells: vec![Cell::off(); width * height],
            diamond: false,
        }
    }

    pub fn at(&self, row: usize, col: usize) -> &Cell {
        &self.cells[row * self.width + col]
    }

    pub fn set(&mut self, row: usize, col: usize, cell: Cell) {
        self.cells[row * self.width + col] = cell;
    }
}

/// A piece of caption text; `strong` pieces stand out (the instruction Bender runs).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    pub text: String,
    pub strong: bool,
}

/// A caption line.
pub type Line = Vec<Span>;

/// A caption line of plain text.
pub fn line(text: impl Into<String>) -> Line {
    vec![Span {
        text: text.into(),
        strong: false,
    }]
}

/// One picture of a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub board: Board,
    /// The move (or Bender's step) this frame shows; 0 for the start. Several frames may show
    /// one move (the cascades of a capture board).
    pub step: u32,
    /// What the frame shows, in words: the move's number and notation, and the game's own
    /// lines (the cards left, the program).
    pub caption: Vec<Line>,
    /// How long the SVG shows it.
    pub millis: u32,
}

/// How long a frame of a move is shown, and the start and the end.
pub const MOVE_MILLIS: u32 = 700;
pub const START_MILLIS: u32 = 1200;
pub const END_MILLIS: u32 = 2000;

/// How long frame `n` of a replay is shown: the start longer than a move.
pub fn frame_millis(n: usize) -> u32 {
    if n == 0 { START_MILLIS } else { MOVE_MILLIS }
}

/// `move 3/21: 8,4,L`, or `start` for move 0.
pub fn move_caption(n: usize, of: usize, notation: &str) -> Line {
    if n == 0 && of == 0 {
        line("start")
    } else if n == 0 {
        line(format!(
            "start ({of} move{})",
            if of == 1 { "" } else { "s" }
        ))
    } else {
        line(format!("move {n}/{of}: {notation}"))
    }
}

/// Gives the last frame the end's hold (a replay's last frame is its solved state).
pub fn hold_last(frames: &mut [Frame]) {
    if let Some(last) = frames.last_mut()
        && last.step > 0
    {
        last.millis = last.millis.max(END_MILLIS);
    }
}

#[cfg(test)]
mod tests;
