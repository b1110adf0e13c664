//! A frame as terminal text: the caption lines, then the board, each cell two columns wider
//! than its glyph. Plain text marks the cells of the move with brackets (`[a]`) and strong
//! caption text with brackets too; in colour (ANSI 24-bit escapes through `anstyle`) cells get
//! their ground or token colour as background, and the move's cells and strong text are bold
//! and yellow-bracketed.

use std::fmt::Write;

use anstyle::{Color, Reset, RgbColor, Style};

use super::{Board, Frame, Line, Rgb};

/// The bracket colour of the move's cells and strong caption text.
const MARK: Rgb = Rgb(255, 215, 0);

/// Every frame, their cells of one width (the widest glyph of all of them).
pub fn frames(frames: &[Frame], colour: bool) -> Vec<String> {
    let width = frames
        .iter()
        .map(|f| glyph_width(&f.board))
        .max()
        .unwrap_or(1);
    frames.iter().map(|f| frame(f, colour, width)).collect()
}

/// One frame with glyphs `width` columns wide: caption lines, then the board's rows, each line
/// ending in `\n`.
pub fn frame(frame: &Frame, colour: bool, width: usize) -> String {
    let mut out = String::new();
    for caption in &frame.caption {
        out.push_str(&line(caption, colour));
        out.push('\n');
    }
    out.push_str(&board(&frame.board, colour, width));
    out
}

/// The widest glyph of a board, in columns (at least 1).
pub fn glyph_width(board: &Board) -> usize {
    board
        .cells
        .iter()
        .map(|c| c.glyph.chars().count())
        .max()
        .unwrap_or(1)
        .max(1)
}

/// A caption line.
pub fn line(spans: &Line, colour: bool) -> String {
    let mut out = String::new();
    for span in spans {
        match (span.strong, colour) {
            (false, _) => out.push_str(&span.text),
            (true, false) => {
                let _ = write!(out, "[{}]", span.text);
            }
            (true, true) => {
                let style = Style::new().bold().fg_color(Some(rgb(MARK)));
                let _ = write!(
                    out,
                    "{}{}{}",
                    style.render(),
                    span.text,
                    style.render_reset()
                );
            }
        }
    }
    out
}

/// The board's rows, glyphs centred in `width` columns. Trailing blanks are cut from plain
/// lines.
pub fn board(board: &Board, colour: bool, width: usize) -> String {
    let mut out = String::new();
    for row in board.cells.chunks(board.width.max(1)) {
        let mut text = String::new();
        for cell in row {
            let glyph = format!("{:^width$}", cell.glyph);
            let (open, close) = if cell.highlight {
                ('[', ']')
            } else {
                (' ', ' ')
            };
            if !colour {
                let _ = write!(text, "{open}{glyph}{close}");
                continue;
            }
            let background = cell
                .token
                .map(|t| t.colour)
                .or(cell.ground)
                .map(|c| Style::new().bg_color(Some(rgb(c))))
                .unwrap_or_default();
            let ink = background.fg_color(Some(rgb(cell.ink)));
            if cell.highlight {
                let mark = background.fg_color(Some(rgb(MARK))).bold();
                let glyph_style = ink.bold();
                let _ = write!(
                    text,
                    "{}{open}{Reset}{}{glyph}{Reset}{}{close}{Reset}",
                    mark.render(),
                    glyph_style.render(),
                    mark.render(),
                );
            } else {
                let _ = write!(text, "{} {glyph} {Reset}", ink.render());
            }
        }
        out.push_str(if colour { &text } else { text.trim_end() });
        out.push('\n');
    }
    out
}

fn rgb(c: Rgb) -> Color {
    Color::Rgb(RgbColor(c.0, c.1, c.2))
}
