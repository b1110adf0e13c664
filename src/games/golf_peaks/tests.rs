//! Unit tests: the hand-made levels and consequences of spec §2.7, the rules one by one, the
//! parser's rejections (each naming its line), the checker and the search.

use std::path::Path;

use super::rules::{Corner, Dir, Illegal, Position, Reason};
use super::space::GolfSpace;
use super::{GolfPeaks, Level};
use crate::engine::control::Limits;
use crate::engine::explore::count_reachable;
use crate::engine::{SearchControl, Space};
use crate::games::{Answer, Game, LevelError, Source};

fn parse(text: &str) -> Result<Level, LevelError> {
    let source = Source {
        path: Path::new("t.txt"),
        stem: "t",
        text,
    };
    let mut entries = GolfPeaks::parse(&source);
    assert_eq!(entries.len(), 1);
    entries.remove(0).level
}

fn level(text: &str) -> Level {
    parse(text).unwrap_or_else(|e| panic!("{e}"))
}

/// A hand-made level of spec §2.7 as written there, where several have no flag.
fn spec_level(text: &str) -> Level {
    let source = Source {
        path: Path::new("t.txt"),
        stem: "t",
        text,
    };
    super::level::parse_without_flag(&source).unwrap_or_else(|e| panic!("{e}"))
}

/// Plays `plays` (in the notation) from the start with the rules alone (no hand bookkeeping).
fn play_all(level: &Level, plays: &str) -> Result<Position, Illegal> {
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
fn rest(level: &Level, plays: &str) -> (usize, usize) {
    let position = play_all(level, plays).unwrap_or_else(|e| panic!("{plays}: {e:?}"));
    level.board.xy(position.ball)
}

fn solved(level: &Level, plays: &str) -> bool {
    play_all(level, plays).is_ok_and(|p| p.ball == level.board.flag)
}

fn reason(level: &Level, plays: &str) -> Reason {
    play_all(level, plays).expect_err("an illegal play").reason
}

// §2.7, the table of hand-made levels, row by row.

#[test]
fn a_roll_crosses_the_flag_with_strength_left() {
    let l = level("4x1\n0,ball 0,flag 0 0\n\n2- 1-");
    assert_eq!(rest(&l, "2-↘"), (2, 0));
    assert!(!solved(&l, "2-↘"));
    assert_eq!(rest(&l, "1-↘"), (1, 0));
    assert!(solved(&l, "1-↘"));
}

#[test]
fn sand_stops_a_roll_and_a_roll_from_sand_stays() {
    let l = level("4x1\n0,ball 0,sand 0 0,flag\n\n2- 1- 2/");
    assert_eq!(rest(&l, "2-↘"), (1, 0));
    assert_eq!(rest(&l, "2-↘ 1-↘"), (1, 0));
    assert!(solved(&l, "2-↘ 1-↘ 2/↘"));
}

#[test]
fn a_higher_tile_bounces_the_ball_back() {
    let l = spec_level("3x1\n0,ball 0 1\n\n2- 3-");
    let p = play_all(&l, "2-↘").unwrap();
    assert_eq!(l.board.xy(p.ball), (1, 0));
    assert_eq!(p.last_move, Dir::Left);
    assert_eq!(rest(&l, "3-↘"), (0, 0));
}

#[test]
fn water_returns_the_ball_to_last_safe() {
    let l = level("4x1\n0,ball 0 0,water 0,flag\n\n3- 3/ 2/");
    assert_eq!(rest(&l, "3-↘"), (1, 0));
    assert!(solved(&l, "3/↘"));
    assert_eq!(rest(&l, "2/↘"), (0, 0));
}

#[test]
fn up_a_ramp_and_back_down_or_over_the_top() {
    let l = level("3x1\n0,ball 1,left 1,flag\n\n1- 2-");
    assert_eq!(rest(&l, "1-↘"), (0, 0));
    assert!(solved(&l, "2-↘"));
}

#[test]
fn ice_slides_until_a_bounce() {
    let l = spec_level("4x1\n0,ball 0,ice 0,ice 1\n\n1-");
    let p = play_all(&l, "1-↘").unwrap();
    assert_eq!(l.board.xy(p.ball), (2, 0));
    assert_eq!(p.last_move, Dir::Left);
}

#[test]
fn a_slide_into_water_returns_to_the_same_cell_and_stops() {
    let l = spec_level("5x1\n0,ball 0 0,ice 0,ice 0,water\n\n2/");
    let p = play_all(&l, "2/↘").unwrap();
    assert_eq!(l.board.xy(p.ball), (3, 0));
    assert_eq!(l.board.xy(p.last_safe), (3, 0));
}

#[test]
fn a_belt_loop_is_illegal() {
    let l = level("3x2\n0,*e 0,*s 0,flag\n0,*n 0,*w 0,ball\n\n1-");
    assert_eq!(reason(&l, "1-↖"), Reason::SlideLoop);
}

#[test]
fn quicksand_kills_a_rest_not_a_crossing() {
    let l = level("4x1\n0,ball 0,quick 0 0,flag\n\n1- 3-");
    assert_eq!(reason(&l, "1-↘"), Reason::Quicksand);
    assert!(solved(&l, "3-↘"));
}

#[test]
fn a_spring_turns_the_rest_of_a_roll_into_a_jump() {
    let l = level("5x1\n0,ball 0,boing 0,water 0 0,flag\n\n3- 4-");
    let p = play_all(&l, "3-↘").unwrap();
    assert_eq!(l.board.xy(p.ball), (3, 0));
    assert_eq!(l.board.xy(p.last_safe), (1, 0));
    assert!(solved(&l, "4-↘"));
}

#[test]
fn a_warp_teleports_to_its_partner() {
    let l = level("4x1\n0,ball 0,warp 0,flag 0,warp\n\n1- 1-");
    assert_eq!(rest(&l, "1-↘"), (3, 0));
    assert!(solved(&l, "1-↘ 1-↖"));
}

#[test]
fn an_angle_reflects_onto_the_flag() {
    let l = level("2x2\n0 0,flag\n0,ball 0,/br\n\n2- 1-");
    assert!(solved(&l, "2-↘"));
    assert_eq!(rest(&l, "1-↘"), (1, 1));
}

#[test]
fn entering_an_angle_through_a_closed_side_bounces() {
    let l = spec_level("3x1\n0,ball 0 0,/tl\n\n2-");
    assert_eq!(rest(&l, "2-↘"), (1, 0));
}

#[test]
fn rolling_off_a_slope_sideways_or_sliding_off_the_grid_is_illegal() {
    let l = spec_level("3x1\n0,ball 0,down 0\n\n2- 1-");
    assert_eq!(reason(&l, "2-↘"), Reason::AcrossSlope);
    assert_eq!(reason(&l, "1-↘"), Reason::RollsOff);
}

#[test]
fn a_jump_then_a_roll() {
    let l = level("3x1\n0,ball 0 0,flag\n\n1/1-");
    assert!(solved(&l, "1/1-↘"));
}

// §2.7, the bulleted consequences.

#[test]
fn rolls_never_climb_but_drops_are_free_and_jumps_and_warps_ignore_heights() {
    // A higher plain tile bounces; a slope entered as in R7 is climbed.
    let l = level("3x1\n0,ball 1 0,flag\n\n1- 2/");
    assert_eq!(rest(&l, "1-↘"), (0, 0));
    assert!(solved(&l, "2/↘"));
    let l = level("3x1\n0,ball 1,left 1,flag\n\n2-");
    assert!(solved(&l, "2-↘"));
    // A drop of any size.
    let l = level("3x1\n8,ball 0 0,flag\n\n2-");
    assert!(solved(&l, "2-↘"));
    // A warp to a higher partner.
    let l = level("3x2\n0,ball 0,warp x\nx 7,warp 7,flag\n\n1- 1-");
    assert_eq!(rest(&l, "1-↘"), (1, 1));
    assert!(solved(&l, "1-↘ 1-↘"));
}

#[test]
fn leaving_a_slope_uses_its_effective_height() {
    // Downhill: E = h, so a tile of height h passes and h + 1 bounces.
    let l = level("3x1\n1,ball 1,right 1,flag\n\n2-");
    assert!(solved(&l, "2-↘"));
    // (Bounced back onto the slope, the ball slides down it into the wall again: a loop.)
    let l = level("3x1\n1,ball 1,right 2,flag\n\n2-");
    assert_eq!(reason(&l, "2-↘"), Reason::SlideLoop);
    // Uphill: E = h + 1, so a tile of height h + 1 passes and h + 2 bounces.
    let l = level("3x1\n0,ball 1,left 2,flag\n\n2-");
    assert!(solved(&l, "2-↘"));
    let l = level("3x1\n0,ball 1,left 3,flag\n\n2-");
    assert_eq!(rest(&l, "2-↘"), (0, 0));
}

#[test]
fn sideways_onto_a_slope_at_the_same_height() {
    let l = level("3x2\n0,ball 0,down 0,flag\nx 0 x\n\n1- 2-");
    // With no strength left SLIDE rolls the ball down the slope.
    assert_eq!(rest(&l, "1-↘"), (1, 1));
    // With strength left the next iteration fails (R3).
    assert_eq!(reason(&l, "2-↘"), Reason::AcrossSlope);
}

#[test]
fn a_bounce_costs_one_strength_and_the_ball_rolls_back() {
    let l = level("4x1\n0,flag 0 0,ball 1\n\n1- 2- 3-");
    assert_eq!(rest(&l, "1-↘"), (2, 0));
    assert_eq!(rest(&l, "2-↘"), (1, 0));
    assert_eq!(rest(&l, "3-↘"), (0, 0));
}

#[test]
fn after_a_roll_into_water_the_card_goes_on_and_slide_runs() {
    // The jump of `1-2/` still runs from last_safe after the roll met water.
    let l = level("4x1\n0 0,ball 0,water 0,flag\n\n1-2/");
    assert!(solved(&l, "1-2/↘"));
    // SLIDE runs from last_safe (ice), meets the water again and stops there.
    let l = level("4x1\n0,ball 0,ice 0,water 0,flag\n\n2-");
    assert_eq!(rest(&l, "2-↘"), (1, 0));
}

#[test]
fn a_jump_into_water_ends_the_play_at_last_safe() {
    // Were the roll of `2/1-` played after the splash, the ball would end on (1,0).
    let l = level("5x1\n0,ball 0 0,water 0 0,flag\n\n2/1-");
    let p = play_all(&l, "2/1-↘").unwrap();
    assert_eq!(l.board.xy(p.ball), (0, 0));
}

#[test]
fn rolls_never_record_the_flag_as_last_safe_but_jumps_do() {
    let l = level("4x1\n0,ball 0,flag 0,water 0\n\n2- 1/");
    assert_eq!(rest(&l, "2-↘"), (0, 0));
    // A position with the ball on the flag: only reachable by direct construction.
    let board = &l.board;
    let on_flag = Position {
        ball: board.flag,
        last_safe: board.start,
        last_move: Dir::Up,
    };
    let jump = &l.hand[l.card_named("1/").unwrap()].steps;
    let after = board.play(on_flag, jump, Dir::Right).unwrap();
    assert_eq!(after.ball, board.flag, "the jump took off from the flag");
    let roll = &l.hand[l.card_named("2-").unwrap()].steps;
    let after = board.play(on_flag, roll, Dir::Right).unwrap();
    assert_eq!(
        after.ball, board.start,
        "a roll from the flag keeps the old last_safe"
    );
}

#[test]
fn a_step_ending_on_the_partner_warp_again_teleports_back() {
    let l = level("5x1\n0,ball 0,warp 0,warp 1 0,flag\n\n1- 1-");
    assert_eq!(rest(&l, "1-↘"), (2, 0));
    // The bounce off the higher tile ends on the warp: back to its partner.
    assert_eq!(rest(&l, "1-↘ 1-↘"), (1, 0));
}

#[test]
fn quicksand_only_matters_at_rest_after_slide() {
    // A belt pushes the ball onto quicksand: it rests there.
    let l = level("4x1\n0,ball 0,*e 0,quick 0,flag\n\n1- 3/");
    assert_eq!(reason(&l, "1-↘"), Reason::Quicksand);
    // A jump that lands on quicksand.
    let l = level("4x1\n0,ball 0 0,quick 0,flag\n\n2/");
    assert_eq!(reason(&l, "2/↘"), Reason::Quicksand);
    // An ice slide leaves the ice onto quicksand and ends there.
    let l = level("5x1\n0,ball 0,ice 0,quick 0 0,flag\n\n1-");
    assert_eq!(reason(&l, "1-↘"), Reason::Quicksand);
}

// The rules one by one, beyond §2.7.

#[test]
fn the_reflection_and_closed_side_tables() {
    use Corner::*;
    use Dir::*;
    let table = [
        (TopLeft, [Some(Right), None, None, Some(Down)]),
        (TopRight, [Some(Left), Some(Down), None, None]),
        (BottomLeft, [None, None, Some(Right), Some(Up)]),
        (BottomRight, [None, Some(Up), Some(Left), None]),
    ];
    for (corner, reflections) in table {
        for (dir, expected) in Dir::ALL.into_iter().zip(reflections) {
            assert_eq!(corner.reflect(dir), expected, "{corner:?} {dir:?}");
        }
    }
    let closed = [
        (TopLeft, [Down, Right]),
        (TopRight, [Down, Left]),
        (BottomLeft, [Up, Right]),
        (BottomRight, [Up, Left]),
    ];
    for (corner, dirs) in closed {
        for dir in Dir::ALL {
            assert_eq!(
                corner.closed_to(dir),
                dirs.contains(&dir),
                "{corner:?} {dir:?}"
            );
        }
    }
}

#[test]
fn a_closed_side_counts_one_higher() {
    // From height 1 the closed side of a height-0 angle (effective 1) is entered.
    let l = level("4x1\n1,ball 1 0,/tl 0,flag\n\n2-");
    assert_eq!(rest(&l, "2-↘"), (2, 0));
    // An open side at the same height is entered and the angle turns the ball.
    let l = level("3x2\n0,ball 0 0,/tr\nx x 0,flag\n\n2- 3-");
    assert_eq!(rest(&l, "2-↘"), (2, 0));
    assert!(solved(&l, "3-↘"));
}

#[test]
fn an_ice_angle_turns_a_sliding_ball() {
    let l = level("3x2\n0,ball 0,ice 0,icetr\nx x 0,flag\n\n1-");
    assert!(solved(&l, "1-↘"));
}

#[test]
fn a_ring_of_ice_angles_is_a_slide_loop() {
    let l = level("2x3\n0,icetl 0,icetr\n0,icebl 0,icebr\n0,ball 0,flag\n\n2/");
    assert_eq!(reason(&l, "2/↗"), Reason::SlideLoop);
}

#[test]
fn a_ramp_facing_a_higher_wall_is_a_slide_loop() {
    let l = level("4x1\n0,ball 0,right 1 0,flag\n\n1-");
    assert_eq!(reason(&l, "1-↘"), Reason::SlideLoop);
}

#[test]
fn a_belt_into_a_wall_is_a_slide_loop_and_belts_chain() {
    let l = level("4x1\n0,ball 0,*e 1 0,flag\n\n1-");
    assert_eq!(reason(&l, "1-↘"), Reason::SlideLoop);
    let l = level("4x2\n0,ball 0,*e 0,*s x\nx x 0,*e 0,flag\n\n1-");
    assert!(solved(&l, "1-↘"));
}

#[test]
fn slopes_chain_downhill() {
    let l = level("4x1\n3,ball 2,right 1,right 0,flag\n\n1-");
    assert!(solved(&l, "1-↘"));
}

#[test]
fn spring_mode_turns_later_rolls_into_jumps() {
    // The roll reaches the spring with no strength left: a jump of 0 lands in place; the
    // card's second roll is then a jump over the water.
    let l = level("5x1\n0,ball 0,boing 0,water 0,flag 0\n\n1-2-");
    assert!(solved(&l, "1-2-↘"));
}

#[test]
fn a_spring_higher_than_the_ball_is_a_wall() {
    let l = level("4x1\n0,ball 0 1,boing 0,flag\n\n3-");
    assert_eq!(rest(&l, "3-↘"), (0, 0));
}

#[test]
fn a_bounce_from_a_spring_jumps_back() {
    // A roll reaching a spring with no strength left jumps 0: it rests on the spring.
    let l = level("4x1\n0,flag 0,ball 0,boing 1\n\n1- 3-");
    assert_eq!(rest(&l, "1-↘"), (2, 0));
    // Resting on the spring, the roll meets a higher tile: a jump of 2 back.
    assert!(solved(&l, "1-↘ 3-↘"));
}

#[test]
fn a_slide_onto_a_warp_teleports() {
    let l = level("5x2\n0,ball 0,ice 0,warp1 1 x\n0,flag 0 0 0,warp1 x\n\n1-");
    assert_eq!(rest(&l, "1-↘"), (3, 1));
}

#[test]
fn jumps_land_off_the_tiles_or_off_the_grid() {
    let l = level("4x1\n0,ball 0 x 0,flag\n\n2/ 4/");
    assert_eq!(reason(&l, "2/↘"), Reason::LandsOff(2));
    assert_eq!(reason(&l, "4/↘"), Reason::LandsOff(4));
    assert_eq!(reason(&l, "2/↖"), Reason::LandsOff(2));
}

// The parser (§1.1).

#[test]
fn the_format_short_rows_token_parts_and_trailing_lines() {
    let l = level("3x2\r\n2,ball 0,sand\r\nice,1 0,flag  x\r\n  \r\n 1/2- 1- 1- \r\nignored\n1-↘");
    assert_eq!((l.board.width, l.board.height), (3, 2));
    assert_eq!(l.board.xy(l.board.start), (0, 0));
    assert_eq!(l.board.xy(l.board.flag), (1, 1));
    let ice = l.board.tile(3);
    assert_eq!((ice.height, ice.kind), (1, super::rules::Kind::Ice));
    // (2,0) is missing from the short row: no tile.
    assert_eq!(l.board.tile(2).kind, super::rules::Kind::Void);
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

// The checker (§3).

fn check(level: &Level, solution: &str) -> Result<u64, String> {
    GolfPeaks::check(level, solution).map(|v| v.moves)
}

#[test]
fn the_checker_accepts_a_solution_with_any_whitespace() {
    let l = level("4x1\n0,ball 0,sand 0 0,flag\n\n2- 1- 2/");
    assert_eq!(check(&l, "2-↘ 1-↘ 2/↘"), Ok(3));
    assert_eq!(check(&l, "  2-↘\t1-↘\n 2/↘ "), Ok(3));
    assert_eq!(
        GolfPeaks::check(&l, "2-↘ 1-↘ 2/↘").unwrap().message,
        "solved in 3 moves"
    );
}

#[test]
fn the_checker_takes_ascii_arrows_as_well() {
    let l = level("4x1\n0,ball 0,sand 0 0,flag\n\n2- 1- 2/");
    assert_eq!(check(&l, "2-DR 1-dr 2/↘"), Ok(3));
    let up = level("1x3\n0,flag\n0\n0,ball\n\n2-");
    assert_eq!(check(&up, "2-UR"), Ok(1));
    let left = level("3x1\n0,flag 0 0,ball\n\n2-");
    assert_eq!(check(&left, "2-UL"), Ok(1));
    let down = level("1x3\n0,ball\n0\n0,flag\n\n2-");
    assert_eq!(check(&down, "2-DL"), Ok(1));
    let why = check(&l, "2-RD").expect_err("RD is no arrow");
    assert!(why.contains("(or UR DR DL UL)"), "{why}");
}

#[test]
fn the_checker_rejects_bad_solutions_naming_the_move() {
    let l = level("5x1\n0,ball 0 0 0 0,flag\n\n1- 1- 4-");
    let rejected = |solution: &str, needle: &str| {
        let why = check(&l, solution).expect_err(solution);
        assert!(
            why.contains(needle),
            "{solution}: {why} (expected `{needle}`)"
        );
    };
    rejected("", "empty solution");
    rejected(
        "1-",
        "move 1 (`1-`): expected a card followed by one of the arrows",
    );
    rejected("1-→", "move 1");
    rejected("1x↘", "move 1 (`1x↘`): not a card");
    rejected("3-↘", "move 1 (`3-↘`): no `3-` card in the hand");
    rejected(
        "1-↘ 1-↘ 1-↘",
        "move 3 (`1-↘`): every `1-` card (2 dealt) is already played",
    );
    rejected(
        "1-↖",
        "move 1 (`1-↖`): illegal play: the ball rolls off the tiles from 0,0 going ↖",
    );
    rejected("1-↘", "ball not on the flag after 1 move (it rests at 1,0)");
    rejected(
        "4-↘ 1-↖",
        "move 2 (`1-↖`): the level is already solved after move 1",
    );
    assert_eq!(check(&l, "4-↘"), Ok(1));
    assert_eq!(
        check(&l, "1-↘ 1-↘ 4-↖"),
        Err("move 3 (`4-↖`): illegal play: the ball rolls off the tiles from 0,0 going ↖".into())
    );
}

// The search (§3).

#[test]
fn the_search_finds_the_fewest_plays_in_the_notation() {
    let l = level("4x1\n0,ball 0,sand 0 0,flag\n\n2- 1- 2/ 3/");
    let answer = GolfPeaks::solve(&l, &SearchControl::unlimited());
    assert_eq!(answer, Answer::optimal(1, "3/↘".into()));
    let l = level("4x1\n0,ball 0,sand 0 0,flag\n\n2- 1- 2/");
    let Answer::Solved { solution, .. } = GolfPeaks::solve(&l, &SearchControl::unlimited()) else {
        panic!("solvable");
    };
    assert_eq!(check(&l, &solution), Ok(2));
}

#[test]
fn copies_of_a_card_and_repeated_outcomes_give_one_successor() {
    // Three copies of `1-`: only Right is legal from the start (the others roll off).
    let l = level("3x1\n0,ball 0,sand 0,flag\n\n1- 1- 1-");
    let space = GolfSpace::exhaustive(&l, &SearchControl::unlimited()).unwrap();
    let mut out = Vec::new();
    space.successors(&space.start(), &mut out);
    assert_eq!(out.len(), 1);
    assert_eq!(space.count(out[0], 0), 2);
    assert_eq!(l.board.xy(space.position(out[0]).ball), (1, 0));
    // On sand a roll does not move in any direction: four plays, one successor.
    let mut next = Vec::new();
    space.successors(&out[0], &mut next);
    assert_eq!(next.len(), 1);
    assert_eq!(space.position(next[0]), space.position(out[0]));
    assert_eq!(space.count(next[0], 0), 1);
}

/// Every state reachable from the start, goal states not expanded.
fn reachable(space: &GolfSpace) -> u64 {
    count_reachable(space, false, &SearchControl::unlimited()).expect("no limits")
}

#[test]
fn pruning_cuts_dead_states_and_keeps_every_solution() {
    let ctl = SearchControl::unlimited();
    let l = level("4x1\n0,ball 0,sand 0 0,flag\n\n2- 1- 2/");
    let (pruned, all) = (
        GolfSpace::new(&l, &ctl).unwrap(),
        GolfSpace::exhaustive(&l, &ctl).unwrap(),
    );
    assert!(reachable(&pruned) < reachable(&all));
    // Every successor on the way to a solution survives: the solution of 2 plays is found.
    let Answer::Solved { moves, .. } = GolfPeaks::solve(&l, &ctl) else {
        panic!("solvable");
    };
    assert_eq!(moves, 2);
    // The flag is out of reach of every play: the start is the only state left.
    let l = level("5x1\n0,ball 0 1 x 0,flag\n\n1- 1- 2- 1/");
    assert_eq!(reachable(&GolfSpace::new(&l, &ctl).unwrap()), 1);
    assert!(reachable(&GolfSpace::exhaustive(&l, &ctl).unwrap()) > 1);
}

#[test]
fn a_level_that_cannot_be_won_is_unsolvable_and_limits_stop_the_search() {
    let l = level("5x1\n0,ball 0 1 x 0,flag\n\n1- 1- 2- 1/");
    assert_eq!(
        GolfPeaks::solve(&l, &SearchControl::unlimited()),
        Answer::Unsolvable
    );
    let l = level("5x1\n0,ball 0 0 0 0,flag\n\n1- 1- 1- 1-");
    let limited = SearchControl::new(Limits {
        max_states: Some(2),
        ..Limits::default()
    });
    assert!(matches!(
        GolfPeaks::solve(&l, &limited),
        Answer::Limit {
            limit: crate::games::Limit::Search(crate::engine::Limit::States(_)),
            lower: None
        }
    ));
}

#[test]
fn analyze_counts_the_optimal_solutions_a_brute_force_enumerates() {
    for text in [
        "4x1\n0,ball 0,flag 0 0\n\n2- 1-",
        "4x1\n0,ball 0,sand 0 0,flag\n\n2- 1- 2/",
        "3x2\n0,ball 0,warp x\nx 7,warp 7,flag\n\n1- 1-",
        "3x3\n0,ball 0 0\n0 0 0\n0 0 0,flag\n\n1- 1- 2- 2- 1/",
    ] {
        let l = level(text);
        let analysis = GolfPeaks::analyze(&l, &SearchControl::unlimited())
            .expect("golf-peaks has a space")
            .expect("no limits");
        let space = GolfSpace::exhaustive(&l, &SearchControl::unlimited()).unwrap();
        let brute = crate::engine::testing::brute_force_shortest_solutions(&space, 5);
        let analyzed = analysis.optimum.map(|o| (o, analysis.optimal_paths));
        assert_eq!(analyzed, brute, "{text}");
        assert_eq!(analysis.states(), reachable(&space), "{text}");
    }
}
