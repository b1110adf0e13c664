//! The renderings on hand-made frames: the SVG's runs and timing, the terminal's marks.

use super::{Board, Cell, Frame, Rgb, Shape, Span, line, svg, text};

const FLOOR: Rgb = Rgb(200, 200, 200);
const RED: Rgb = Rgb(200, 0, 0);

/// A 1×3 corridor with a red block at `at`, moved there when `moved`.
fn frame(at: usize, step: u32, moved: bool) -> Frame {
    let mut board = Board::new(3, 1);
    for col in 0..3 {
        let mut cell = Cell::ground(FLOOR).glyph(".");
        if col == at {
            cell = cell
                .token(Shape::Square, RED)
                .text("a")
                .group(0)
                .highlight(moved);
        }
        board.set(0, col, cell);
    }
    Frame {
        board,
        step,
        caption: vec![line(format!("move {step}"))],
        millis: 1000,
    }
}

fn corridor() -> Vec<Frame> {
    vec![frame(0, 0, false), frame(1, 1, true), frame(2, 2, true)]
}

fn options() -> svg::Options<'static> {
    svg::Options {
        id: "t",
        title: "a <corridor> & more",
        cell: 10.0,
    }
}

#[test]
fn svg_is_well_formed_and_each_changed_run_is_one_overlay() {
    let picture = svg::animation(&corridor(), &options());
    let doc = roxmltree::Document::parse(&picture).expect("well-formed");
    // Each cell shows the block during one second of three: its floor is the still look, the
    // block one overlay run; plus three caption runs.
    let runs: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("class").is_some())
        .collect();
    assert_eq!(runs.len(), 3 + 3);
    // Runs of one second in a loop of three; each starts where its frame starts.
    assert!(picture.contains("animation:t-1000 3000ms step-end infinite"));
    assert!(picture.contains("@keyframes t-1000{0%{visibility:visible}33.333%,100%"));
    let delays: Vec<&str> = runs.iter().filter_map(|n| n.attribute("style")).collect();
    assert_eq!(
        delays
            .iter()
            .filter(|d| **d == "animation-delay:-0ms")
            .count(),
        2,
        "the block at the start and the first caption start the loop: {delays:?}"
    );
    assert!(delays.contains(&"animation-delay:-2000ms"));
    assert!(picture.contains("a &lt;corridor&gt; &amp; more"));
}

#[test]
fn a_run_ending_with_the_loop_is_hidden_at_time_zero() {
    // 1/3 of the loop is 33.333...%: rounded up, the last frame's run would still show at
    // time 0 (where a paused animation rests) over the first frame.
    let picture = svg::animation(&corridor(), &options());
    assert!(!picture.contains("33.334%"));
}

#[test]
fn one_frame_is_a_still_picture() {
    let picture = svg::animation(&corridor()[..1], &options());
    assert!(!picture.contains("@keyframes"));
    assert!(!picture.contains("animation-delay"));
    roxmltree::Document::parse(&picture).expect("well-formed");
}

#[test]
fn pieces_join_and_their_outline_goes_around_them() {
    let mut board = Board::new(2, 1);
    for col in 0..2 {
        board.set(
            0,
            col,
            Cell::ground(FLOOR)
                .token(Shape::Square, RED)
                .group(7)
                .highlight(true),
        );
    }
    let frames = [Frame {
        board,
        step: 1,
        caption: vec![],
        millis: 500,
    }];
    let picture = svg::animation(&frames, &options());
    // The left cell's square reaches its right edge, the right cell's its left edge.
    assert!(
        picture.contains("<rect x=\"2.5\" y=\"2.5\" width=\"7.5\""),
        "{picture}"
    );
    assert!(
        picture.contains("<rect x=\"0\" y=\"2.5\" width=\"7.5\""),
        "{picture}"
    );
    // Outlines: top, bottom and the outer side only.
    assert!(picture.contains("d=\"M1.5 1.5L8.5 1.5M1.5 8.5L8.5 8.5M1.5 1.5L1.5 8.5\""));
}

#[test]
fn plain_text_brackets_the_move_and_colour_paints_cells() {
    let moved = frame(1, 1, true);
    assert_eq!(text::frame(&moved, false, 1), "move 1\n . [a] .\n");
    let coloured = text::frame(&moved, true, 1);
    assert!(coloured.contains("\x1b[48;2;200;0;0m"), "{coloured:?}");
    assert!(coloured.contains("\x1b[48;2;200;200;200m"), "{coloured:?}");
    let strong = vec![
        Span {
            text: "1;".into(),
            strong: false,
        },
        Span {
            text: "R".into(),
            strong: true,
        },
    ];
    assert_eq!(text::line(&strong, false), "1;[R]");
}
