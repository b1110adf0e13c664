//! A replay as one self-contained animated SVG: no script, nothing fetched, CSS animations only,
//! looping.
//!
//! Why it is built the way it is: a replay repeats most of its cells from frame to frame, so
//! drawing every frame whole would make a Bender map's few hundred steps weigh megabytes. Each
//! distinct look of a cell (its drawing, with the joins of its piece and the outline of the
//! move) is drawn once in `<defs>` and placed with `<use>`. Every cell shows its most lasting
//! look in a static layer; the frames where it looks otherwise are overlays, one per run of
//! frames with the same look, each shown during its run by a CSS animation of `visibility`.
//! Runs of one length share one `@keyframes` rule; where a run starts is its (negative)
//! `animation-delay`. So at time 0, and whenever the animations are paused (the report pauses
//! them until the pointer is on the picture), the picture is the first frame.
//!
//! Names of defs, classes and keyframes start with the caller's `id`, so several animations can
//! share one HTML page.

use std::collections::HashMap;
use std::fmt::Write;

use super::{Board, Cell, Frame, Line, Rgb, Shape};

/// How the picture is laid out.
#[derive(Clone, Debug)]
pub struct Options<'a> {
    /// The prefix of every name in the SVG: letters, digits and `-`, starting with a letter.
    pub id: &'a str,
    /// The line above the board (the level's name).
    pub title: &'a str,
    /// The side of a cell in pixels.
    pub cell: f64,
}

/// The outline colour of the cells a move changed.
const MARK: Rgb = Rgb(228, 0, 124);
const PAGE: Rgb = Rgb(250, 250, 250);
const MARGIN: f64 = 8.0;
const TITLE: f64 = 22.0;
const LINE: f64 = 16.0;
/// Roughly the width of a caption character (12 px monospace).
const CHAR: f64 = 7.3;

/// One cell as drawn: the cell, the sides where its square token joins its piece's
/// neighbours, and the sides of the move's outline (bit 0 up, 1 right, 2 down, 3 left).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Look {
    cell: Cell,
    joins: u8,
    edges: u8,
}

/// The whole replay as an SVG document.
pub fn animation(frames: &[Frame], options: &Options) -> String {
    let Some(first) = frames.first() else {
        return String::new();
    };
    let board = &first.board;
    let cell = options.cell;
    let (board_w, board_h) = if board.diamond {
        let side = (board.width + board.height) as f64 * cell / std::f64::consts::SQRT_2;
        (side, side)
    } else {
        (board.width as f64 * cell, board.height as f64 * cell)
    };
    let lines = frames.iter().map(|f| f.caption.len()).max().unwrap_or(0);
    let longest = frames
        .iter()
        .flat_map(|f| &f.caption)
        .map(|l| l.iter().map(|s| s.text.chars().count()).sum::<usize>())
        .chain([options.title.chars().count()])
        .max()
        .unwrap_or(0);
    let width = (board_w + 2.0 * MARGIN).max(longest as f64 * CHAR + 2.0 * MARGIN);
    let height = TITLE + board_h + MARGIN + lines as f64 * LINE + MARGIN;
    let id = options.id;

    // Every frame's looks, interned.
    let mut index: HashMap<Look, usize> = HashMap::new();
    let mut looks: Vec<Look> = Vec::new();
    let per_frame: Vec<Vec<usize>> = frames
        .iter()
        .map(|f| {
            (0..f.board.cells.len())
                .map(|i| {
                    let look = look_of(&f.board, i);
                    *index.entry(look.clone()).or_insert_with(|| {
                        looks.push(look);
                        looks.len() - 1
                    })
                })
                .collect()
        })
        .collect();
    let total: u64 = frames.iter().map(|f| u64::from(f.millis.max(1))).sum();
    // Where each frame starts, in milliseconds.
    let starts: Vec<u64> = frames
        .iter()
        .scan(0u64, |t, f| {
            let start = *t;
            *t += u64::from(f.millis.max(1));
            Some(start)
        })
        .collect();

    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width:.0} {height:.0}\" width=\"{width:.0}\" height=\"{height:.0}\" font-family=\"ui-monospace,Menlo,Consolas,monospace\" font-size=\"12\" role=\"img\" aria-label=\"{}\">",
        escape(options.title)
    );
    // The runs (start, length) of overlays and captions, collected first so the style sheet
    // can name every run length.
    let mut overlays = String::new();
    let mut lengths: Vec<u64> = Vec::new();
    let mut run = |out: &mut String, from: usize, to: usize, body: &str| {
        let length: u64 = starts.get(to).copied().unwrap_or(total) - starts[from];
        if !lengths.contains(&length) {
            lengths.push(length);
        }
        let delay = (total - starts[from]) % total;
        let _ = write!(
            out,
            "<g class=\"{id}-{length}\" style=\"animation-delay:-{delay}ms\">{body}</g>"
        );
    };

    // The static layer: each cell's most lasting look.
    let cells = board.width * board.height;
    let mut base = vec![0usize; cells];
    let mut still = String::new();
    for i in 0..cells {
        let mut shown: HashMap<usize, u64> = HashMap::new();
        for (f, frame) in frames.iter().enumerate() {
            *shown.entry(per_frame[f][i]).or_default() += u64::from(frame.millis.max(1));
        }
        base[i] = shown
            .into_iter()
            .max_by_key(|&(look, ms)| (ms, std::cmp::Reverse(look)))
            .map_or(0, |(look, _)| look);
        if draws_something(&looks[base[i]]) {
            still.push_str(&place(id, base[i], i, board.width, cell));
        }
        // Overlays: runs of frames where the cell looks otherwise.
        let mut f = 0;
        while f < frames.len() {
            let look = per_frame[f][i];
            let mut end = f + 1;
            while end < frames.len() && per_frame[end][i] == look {
                end += 1;
            }
            if look != base[i] {
                run(
                    &mut overlays,
                    f,
                    end,
                    &place(id, look, i, board.width, cell),
                );
            }
            f = end;
        }
    }
    // Captions: one per run of frames with the same caption.
    let mut captions = String::new();
    let caption_y = TITLE + board_h + MARGIN;
    let mut f = 0;
    while f < frames.len() {
        let mut end = f + 1;
        while end < frames.len() && frames[end].caption == frames[f].caption {
            end += 1;
        }
        let body = caption(&frames[f].caption, caption_y);
        if f == 0 && end == frames.len() {
            captions.push_str(&body);
        } else {
            run(&mut captions, f, end, &body);
        }
        f = end;
    }

    out.push_str("<style>");
    lengths.sort_unstable();
    for length in &lengths {
        // Rounded down: a run that ends where the loop ends must be hidden at time 0 (where a
        // paused animation stays), not shown for a rounding error longer.
        let thousandths = length * 100_000 / total;
        let percent = format!("{}.{:03}", thousandths / 1000, thousandths % 1000);
        let _ = write!(
            out,
            ".{id}-{length}{{animation:{id}-{length} {total}ms step-end infinite}}@keyframes {id}-{length}{{0%{{visibility:visible}}{percent}%,100%{{visibility:hidden}}}}"
        );
    }
    let _ = write!(
        out,
        ".{id}-l{{text-anchor:middle;font-weight:bold}}</style><defs>"
    );
    for (k, look) in looks.iter().enumerate() {
        let _ = write!(
            out,
            "<g id=\"{id}-{k}\">{}</g>",
            draw(look, cell, board.diamond, id)
        );
    }
    let _ = write!(
        out,
        "</defs><rect width=\"100%\" height=\"100%\" fill=\"{}\"/><text x=\"{MARGIN}\" y=\"15\" font-weight=\"bold\" font-family=\"system-ui,sans-serif\" font-size=\"13\">{}</text>",
        PAGE.hex(),
        escape(options.title)
    );
    let transform = if board.diamond {
        format!(
            "translate({:.1} {TITLE}) rotate(45)",
            (width - board_w) / 2.0 + board.height as f64 * cell / std::f64::consts::SQRT_2
        )
    } else {
        format!("translate({:.1} {TITLE})", (width - board_w) / 2.0)
    };
    let _ = writeln!(
        out,
        "<g transform=\"{transform}\">{still}{overlays}</g>{captions}</svg>"
    );
    out
}

/// The look of cell `i`: its joins and the move's outline come from its neighbours.
fn look_of(board: &Board, i: usize) -> Look {
    let cell = &board.cells[i];
    let (row, col) = (i / board.width, i % board.width);
    let neighbour = |side: u8| -> Option<&Cell> {
        let (r, c) = match side {
            0 => (row.checked_sub(1)?, col),
            1 => (row, col + 1),
            2 => (row + 1, col),
            _ => (row, col.checked_sub(1)?),
        };
        (r < board.height && c < board.width).then(|| board.at(r, c))
    };
    let same_piece = |other: &Cell| cell.group.is_some() && other.group == cell.group;
    let mut joins = 0;
    let mut edges = 0;
    for side in 0..4u8 {
        let other = neighbour(side);
        if let Some(o) = other
            && same_piece(o)
            && matches!(cell.token, Some(t) if t.shape == Shape::Square)
            && matches!(o.token, Some(t) if t.shape == Shape::Square)
        {
            joins |= 1 << side;
        }
        if cell.highlight && !other.is_some_and(|o| o.highlight && same_piece(o)) {
            edges |= 1 << side;
        }
    }
    Look {
        cell: cell.clone(),
        joins,
        edges,
    }
}

fn draws_something(look: &Look) -> bool {
    look.cell.ground.is_some() || look.cell.token.is_some() || !look.cell.label.is_empty()
}

/// `<use>` of look `k` at cell `i`.
fn place(id: &str, k: usize, i: usize, width: usize, cell: f64) -> String {
    let (x, y) = ((i % width) as f64 * cell, (i / width) as f64 * cell);
    format!("<use href=\"#{id}-{k}\" x=\"{x}\" y=\"{y}\"/>")
}

/// One look, drawn in a cell at the origin.
fn draw(look: &Look, c: f64, diamond: bool, id: &str) -> String {
    let cell = &look.cell;
    let mut out = String::new();
    if let Some(ground) = cell.ground {
        let _ = write!(
            out,
            "<rect width=\"{c}\" height=\"{c}\" fill=\"{}\" stroke=\"#00000020\"/>",
            ground.hex()
        );
    }
    if let Some(outline) = cell.outline {
        let _ = write!(
            out,
            "<rect x=\"4\" y=\"4\" width=\"{0}\" height=\"{0}\" fill=\"none\" stroke=\"{1}\" stroke-width=\"2\" stroke-dasharray=\"4 3\"/>",
            c - 8.0,
            outline.hex()
        );
    }
    if let Some(token) = cell.token {
        let fill = token.colour.hex();
        let g = 2.5;
        let half = c / 2.0;
        match token.shape {
            Shape::Square => {
                let joined = |side: u8| look.joins & 1 << side != 0;
                let x0 = if joined(3) { 0.0 } else { g };
                let y0 = if joined(0) { 0.0 } else { g };
                let x1 = if joined(1) { c } else { c - g };
                let y1 = if joined(2) { c } else { c - g };
                let round = if look.joins == 0 { " rx=\"4\"" } else { "" };
                let _ = write!(
                    out,
                    "<rect x=\"{x0}\" y=\"{y0}\" width=\"{}\" height=\"{}\"{round} fill=\"{fill}\"/>",
                    x1 - x0,
                    y1 - y0
                );
            }
            Shape::Disc => {
                let _ = write!(
                    out,
                    "<circle cx=\"{half}\" cy=\"{half}\" r=\"{:.1}\" fill=\"{fill}\" stroke=\"#00000040\"/>",
                    c * 0.38
                );
            }
            Shape::Diamond => {
                let r = c * 0.3;
                let _ = write!(
                    out,
                    "<path d=\"M{half} {:.1}L{:.1} {half}L{half} {:.1}L{:.1} {half}Z\" fill=\"{fill}\"/>",
                    half - r,
                    half + r,
                    half + r,
                    half - r
                );
            }
            Shape::Corner(k) => {
                let corners = [(0.0, 0.0), (c, 0.0), (c, c), (0.0, c)];
                let k = usize::from(k % 4);
                let (a, b, d) = (corners[(k + 3) % 4], corners[k], corners[(k + 1) % 4]);
                let _ = write!(
                    out,
                    "<path d=\"M{} {}L{} {}L{} {}Z\" fill=\"{fill}\"/>",
                    a.0, a.1, b.0, b.1, d.0, d.1
                );
            }
        }
    }
    if !cell.label.is_empty() {
        let turn = if diamond {
            format!(" transform=\"rotate(-45 {0} {0})\"", c / 2.0)
        } else {
            String::new()
        };
        let _ = write!(
            out,
            "<text class=\"{id}-l\" x=\"{0}\" y=\"{0}\" dy=\"0.35em\" font-size=\"{1:.0}\" fill=\"{2}\"{turn}>{3}</text>",
            c / 2.0,
            (c * 0.45).round(),
            cell.ink.hex(),
            escape(&cell.label)
        );
    }
    if look.edges != 0 {
        let (a, b) = (1.5, c - 1.5);
        let mut d = String::new();
        for (side, (x0, y0, x1, y1)) in [(a, a, b, a), (b, a, b, b), (a, b, b, b), (a, a, a, b)]
            .into_iter()
            .enumerate()
        {
            if look.edges & 1 << side != 0 {
                let _ = write!(d, "M{x0} {y0}L{x1} {y1}");
            }
        }
        let _ = write!(
            out,
            "<path d=\"{d}\" stroke=\"{}\" stroke-width=\"3\" fill=\"none\"/>",
            MARK.hex()
        );
    }
    out
}

/// A frame's caption lines from `y` down.
fn caption(lines: &[Line], y: f64) -> String {
    let mut out = String::new();
    for (n, spans) in lines.iter().enumerate() {
        let _ = write!(
            out,
            "<text x=\"{MARGIN}\" y=\"{:.0}\" xml:space=\"preserve\">",
            y + 12.0 + n as f64 * LINE
        );
        for span in spans {
            if span.strong {
                let _ = write!(
                    out,
                    "<tspan font-weight=\"bold\" fill=\"{}\">{}</tspan>",
                    MARK.hex(),
                    escape(&span.text)
                );
            } else {
                out.push_str(&escape(&span.text));
            }
        }
        out.push_str("</text>");
    }
    out
}

/// Text for XML: markup characters escaped, control characters (not allowed in XML 1.0)
/// dropped.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}
