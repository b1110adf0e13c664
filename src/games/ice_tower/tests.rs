//! Unit tests: the parser (L1–L6), every rule of §2 and arrow rule X1–X8, each small case of
//! §4, the checker's messages, and the packed space against the simulator.

use std::collections::HashSet;
use std::path::Path;

use super::bits::Key;
use super::level::{Puzzle, parse_rows};
use super::notation::{Push, apply, replay};
use super::rules::{Dir, Ice, PushError, SlideEnd};
use super::sim_space::SimSpace;
use super::space::{FireBounds, IceSpace};
use super::{IceTower, level};
use crate::engine::{Heuristic, MoveBudget, SearchControl, Space};
use crate::games::{Answer, Game, Source};

fn puzzle(rows: &str) -> Puzzle {
    parse_rows(rows).unwrap_or_else(|e| panic!("{rows}: {e}"))
}

fn solve(rows: &str) -> Answer {
    IceTower::solve(&puzzle(rows), &SearchControl::unlimited())
}

fn solved_in(rows: &str) -> u64 {
    match solve(rows) {
        Answer::Solved {
            moves,
            proof,
            solution,
            ..
        } => {
            assert!(proof.is_optimal());
            assert_eq!(replay(&puzzle(rows), &solution), Ok(moves), "{solution}");
            moves
        }
        other => panic!("{rows}: {other:?}"),
    }
}

fn parse(text: &str) -> Vec<(String, Result<Puzzle, String>)> {
    let source = Source {
        path: Path::new("levels.txt"),
        stem: "levels",
        text,
    };
    IceTower::parse(&source)
        .into_iter()
        .map(|e| (e.name, e.level.map_err(|e| e.to_string())))
        .collect()
}

/// The error of the first entry of a file.
fn parse_error(text: &str) -> String {
    parse(text)[0].1.clone().expect_err("an error")
}

/// The position after pushes given in notation, each one legal.
fn after(p: &Puzzle, pushes: &str) -> super::rules::Position {
    pushes.split_whitespace().fold(p.start.clone(), |pos, t| {
        apply(&p.grid, &pos, Push::parse(t).unwrap())
            .unwrap_or_else(|e| panic!("{t}: {e}"))
            .0
    })
}

fn ice_at(p: &Puzzle, pos: &super::rules::Position, row: usize, col: usize) -> Option<Ice> {
    pos.ice[p.grid.cell(row, col)]
}

fn push_error(p: &Puzzle, pushes: &str, last: &str) -> String {
    let pos = after(p, pushes);
    apply(&p.grid, &pos, Push::parse(last).unwrap()).expect_err("an illegal push")
}

// ---------------------------------------------------------------- parser (spec §1.1)

#[test]
fn parses_several_levels_with_comments_and_crlf() {
    let text = "; first\r\nlevel a\r\n#####\r\n#@%*#\r\n#####\r\n\r\n;second\nlevel  b\n#####\n#.@*#\n#%..#\n#####\n";
    let entries = parse(text);
    let names: Vec<&str> = entries.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    let b = entries[1].1.as_ref().unwrap();
    assert_eq!((b.grid.width, b.grid.height), (5, 4));
    assert_eq!(b.start.magician, b.grid.cell(1, 2));
    assert_eq!(ice_at(b, &b.start, 2, 1), Some(Ice::Regular));
}

#[test]
fn a_bad_level_does_not_spoil_the_others() {
    let text = "level bad\n#####\n#@&*#\n#####\n\nlevel good\n#####\n#@%*#\n#####\n";
    let entries = parse(text);
    assert_eq!(entries.len(), 2);
    assert_eq!(
        entries[0].1.as_ref().unwrap_err(),
        "levels.txt:3: invalid cell `&` at column 2 (expected one of `# .%$*-@^v<>`)"
    );
    assert!(entries[1].1.is_ok());
}

#[test]
fn parser_errors_name_the_line() {
    let cases = [
        (
            "hello\nlevel a\n###\n#@#\n###\n",
            "levels.txt:1: expected `level NAME`",
        ),
        (
            "level\n###\n#@#\n###\n",
            "levels.txt:1: expected a level name",
        ),
        (
            "level a b\n###\n#@#\n###\n",
            "levels.txt:1: a level name has no whitespace",
        ),
        (
            "level a\n###\n#@#\n",
            "levels.txt:1: expected a grid of at least 3 rows",
        ),
        (
            "level a\n####\n#@#\n####\n",
            "levels.txt:3: every row must have 4 cells",
        ),
        (
            "level a\n##\n##\n##\n",
            "levels.txt:2: expected rows of at least 3 cells",
        ),
        (
            "level a\n#####\n#@\t*#\n#####\n",
            "levels.txt:3: invalid cell `\\t` at column 2",
        ),
        (
            "level a\n#####\n#@;*#\n#####\n",
            "levels.txt:3: invalid cell `;`",
        ),
        (
            "level a\n#####\n@ %*#\n#####\n",
            "levels.txt:3: the outer ring must be wall",
        ),
        (
            "level a\n#####\n# %*#\n#####\n",
            "levels.txt:4: expected exactly one magician `@`, found none",
        ),
        (
            "level a\n#####\n#@@*#\n#####\n",
            "levels.txt:3: expected exactly one magician `@`, found 2",
        ),
        (
            "level a\n####\n#@+#\n####\n",
            "levels.txt:3: unsupported: dispenser",
        ),
    ];
    for (text, expected) in cases {
        let error = parse_error(text);
        assert!(error.starts_with(expected), "{text:?}: {error}");
    }
    let wide = format!(
        "level a\n{}\n#@{}#\n{}\n",
        "#".repeat(21),
        " ".repeat(18),
        "#".repeat(21)
    );
    assert!(parse_error(&wide).contains("at most 20 columns, found 21"));
    let tall = format!("level a\n###\n{}###\n", "#@#\n".repeat(13));
    assert!(parse_error(&tall).starts_with("levels.txt:16: a grid has at most 14 rows"));
}

#[test]
fn duplicate_names_are_errors_but_the_first_stays() {
    let text = "level a\n###\n#@#\n###\n\nlevel a\n###\n#@#\n###\n";
    let entries = parse(text);
    assert!(entries[0].1.is_ok());
    assert_eq!(
        entries[1].1.as_ref().unwrap_err(),
        "levels.txt:6: duplicate level name `a` (first on line 1)"
    );
}

#[test]
fn a_level_line_inside_a_grid_is_a_bad_row() {
    // The grid runs to the first empty line, so `level b` is a row of level a.
    let entries = parse("level a\n###\n#@#\n###\nlevel b\n###\n#@#\n###\n");
    assert_eq!(entries.len(), 1);
    assert!(
        entries[0]
            .1
            .as_ref()
            .unwrap_err()
            .starts_with("levels.txt:5:")
    );
}

#[test]
fn sniffs_level_files_only() {
    assert!(level::looks_like_levels("; c\nlevel a\n###\n#@#\n###\n"));
    assert!(!level::looks_like_levels("file\tlevel\toptimal_pushes\n"));
    assert!(!level::looks_like_levels("name\tstart\tgoal\n"));
}

// ---------------------------------------------------------------- small cases (spec §4)

#[test]
fn case_ice_into_fire_solves_in_one() {
    let p = puzzle("##### / #@%*# / #####");
    let pos = after(&p, "1,2,R");
    assert_eq!(ice_at(&p, &pos, 1, 3), None);
    assert!(pos.is_solved());
    assert_eq!(replay(&p, "1,2,R"), Ok(1));
    assert_eq!(solved_in("##### / #@%*# / #####"), 1);
}

#[test]
fn case_recycler_destroys_ice_and_the_fire_burns_on() {
    let rows = "###### / #@%-*# / ######";
    let p = puzzle(rows);
    let pos = after(&p, "1,2,R");
    assert!(pos.ice.iter().all(Option::is_none));
    assert!(pos.burning[p.grid.cell(1, 4)]);
    assert_eq!(solve(rows), Answer::Unsolvable);
}

#[test]
fn case_golden_ice_puts_out_two_fires_and_crosses_a_recycler() {
    let rows = "####### / #@$*-*# / #######";
    let p = puzzle(rows);
    let pos = after(&p, "1,2,R");
    assert_eq!(ice_at(&p, &pos, 1, 5), Some(Ice::Golden));
    assert!(pos.is_solved());
    assert_eq!(solved_in(rows), 1);
}

#[test]
fn case_golden_ice_rests_on_a_recycler() {
    let rows = "###### / #@$ -# / ######";
    let p = puzzle(rows);
    let pos = after(&p, "1,2,R");
    assert_eq!(ice_at(&p, &pos, 1, 4), Some(Ice::Golden));
    assert_eq!(solved_in(rows), 0);
    assert_eq!(replay(&p, ""), Ok(0));
}

#[test]
fn case_unreachable_push_cell() {
    let rows = "####### / #@#.%*# / #######";
    let p = puzzle(rows);
    assert_eq!(
        push_error(&p, "", "1,4,R"),
        "the magician cannot reach the push cell 1,3"
    );
    assert_eq!(solve(rows), Answer::Unsolvable);
}

#[test]
fn case_recyclers_are_not_walkable() {
    let rows = "####### / #@-.%*# / #######";
    let p = puzzle(rows);
    assert!(push_error(&p, "", "1,4,R").contains("cannot reach the push cell 1,3"));
    assert_eq!(solve(rows), Answer::Unsolvable);
}

#[test]
fn case_a_put_out_fire_opens_the_way() {
    let rows = "######## / #@%*.%*# / ########";
    let p = puzzle(rows);
    assert!(push_error(&p, "", "1,5,R").contains("cannot reach"));
    assert_eq!(replay(&p, "1,2,R 1,5,R"), Ok(2));
    assert_eq!(solved_in(rows), 2);
}

#[test]
fn case_ice_stops_in_front_of_ice() {
    let p = puzzle("######## / #@% %*## / ########");
    let pos = after(&p, "1,2,R");
    assert_eq!(ice_at(&p, &pos, 1, 3), Some(Ice::Regular));
    assert_eq!(ice_at(&p, &pos, 1, 4), Some(Ice::Regular));
}

#[test]
fn case_dispenser_is_unsupported() {
    let error = parse_rows("#### / #@+# / ####").unwrap_err();
    assert_eq!(error.message, "unsupported: dispenser");
}

// ---------------------------------------------------------------- rules (spec §2)

#[test]
fn walking_is_free_over_floor_and_put_out_fires_only() {
    // W1/W2: ice, burning fires, recyclers and walls block the walk; a put-out fire does not.
    let p = puzzle("######### / #@ *  - # / #%#######/ #########");
    let reach = p.grid.reachable(&p.start);
    let reached: Vec<usize> = (0..reach.len()).filter(|&c| reach[c]).collect();
    assert_eq!(reached, [p.grid.cell(1, 1), p.grid.cell(1, 2)]);
    let mut pos = p.start.clone();
    pos.burning[p.grid.cell(1, 3)] = false;
    let reach = p.grid.reachable(&pos);
    assert!(reach[p.grid.cell(1, 5)] && !reach[p.grid.cell(1, 6)] && !reach[p.grid.cell(1, 7)]);
    assert!(!reach[p.grid.cell(2, 1)]);
}

#[test]
fn a_push_needs_a_free_first_cell() {
    // P1: a wall or a block right beyond the ice makes the push illegal; fire, recycler and
    // arrow are fine.
    let p = puzzle("######## / #@%#   # / # %%   # / #  $-  # / ########");
    assert!(push_error(&p, "", "1,2,R").contains("1,3 beyond the ice is a wall"));
    let p2 = puzzle("####### / #@%%  # / #######");
    assert!(push_error(&p2, "", "1,2,R").contains("1,3 beyond the ice is a wall or holds ice"));
    let p3 = puzzle("###### / #@%-*# / ######");
    assert!(after(&p3, "1,2,R").ice.iter().all(Option::is_none));
    // A golden block resting on a recycler counts as a block.
    let p4 = puzzle("######### / #@$ -%  # / #########");
    let pos = after(&p4, "1,2,R");
    assert_eq!(ice_at(&p4, &pos, 1, 4), Some(Ice::Golden));
    let everywhere = bitvec::vec::BitVec::repeat(true, pos.ice.len());
    assert_eq!(
        p4.grid
            .push(&pos, &everywhere, p4.grid.cell(1, 5), Dir::Left),
        Err(PushError::Blocked {
            first: p4.grid.cell(1, 4)
        })
    );
}

#[test]
fn slides_stop_before_walls_and_ice_and_the_magician_stays() {
    // P2/P3: the block slides to the last free cell; the magician stays on the push cell.
    let p = puzzle("######### / #@%    %# / #       # / #########");
    let pos = after(&p, "1,2,R");
    assert_eq!(ice_at(&p, &pos, 1, 6), Some(Ice::Regular));
    assert_eq!(pos.magician, p.grid.cell(1, 1));
    let p = puzzle("##### / #@  # / # % # / #   # / #####");
    let pos = after(&p, "2,2,D");
    assert_eq!(ice_at(&p, &pos, 3, 2), Some(Ice::Regular));
    assert_eq!(pos.magician, p.grid.cell(1, 2));
}

#[test]
fn regular_ice_melts_with_the_first_fire_and_golden_ice_goes_on() {
    let p = puzzle("######## / #@%* * # / # $* * # / ########");
    let regular = after(&p, "2,2,R 1,2,R");
    assert!(!regular.burning[p.grid.cell(1, 3)] && regular.burning[p.grid.cell(1, 5)]);
    assert!(
        regular.ice[p.grid.cell(1, 2)..p.grid.cell(1, 7)]
            .iter()
            .all(Option::is_none)
    );
    let golden = after(&p, "2,2,R");
    assert!(!golden.burning[p.grid.cell(2, 3)] && !golden.burning[p.grid.cell(2, 5)]);
    assert_eq!(ice_at(&p, &golden, 2, 6), Some(Ice::Golden));
}

#[test]
fn golden_ice_pushed_off_a_recycler_leaves_it_bare() {
    let p = puzzle("######## / #  @   # / # $ -% # / #      # / ########");
    let pos = after(&p, "2,2,R");
    assert_eq!(ice_at(&p, &pos, 2, 4), Some(Ice::Golden));
    let pos = after(&p, "2,2,R 2,4,D");
    assert_eq!(ice_at(&p, &pos, 2, 4), None);
    assert_eq!(ice_at(&p, &pos, 3, 4), Some(Ice::Golden));
    // The bare recycler destroys the regular block pushed into it.
    let pos = after(&p, "2,2,R 2,4,D 2,5,L");
    assert_eq!(pos.ice.iter().filter(|i| i.is_some()).count(), 1);
}

#[test]
fn solved_as_soon_as_no_fire_burns() {
    // G1: a level without fires needs no push; pushes after the last fire are rejected.
    assert_eq!(solved_in("##### / #@% # / #####"), 0);
    let p = puzzle("####### / #@%*  # / #   % # / #######");
    assert_eq!(replay(&p, "1,2,R"), Ok(1));
    assert_eq!(
        replay(&p, "1,2,R 2,4,L"),
        Err("move 2 (2,4,L): the level was already solved after move 1".into())
    );
}

#[test]
fn checker_messages_name_the_move() {
    let p = puzzle("######## / #@%* %*# / #      # / ########");
    assert_eq!(
        replay(&p, "1,2,R 2,1,R"),
        Err("move 2 (2,1,R): no ice at 2,1".into())
    );
    assert_eq!(
        replay(&p, "1,2,X"),
        Err("move 1 (`1,2,X`): expected row,col,D with D one of U, D, L, R".into())
    );
    assert_eq!(
        replay(&p, "9,9,R"),
        Err("move 1 (9,9,R): 9,9 is outside the grid".into())
    );
    assert_eq!(
        replay(&p, "1,2,R"),
        Err("after 1 pushes 1 fire(s) still burn (the first at 1,6)".into())
    );
    assert_eq!(replay(&p, " 1,2,R \n\t 1,5,R  "), Ok(2));
}

// ---------------------------------------------------------------- arrows (spec §2.4)

#[test]
fn x2_an_arrow_turns_a_sliding_block() {
    let p = puzzle("###### / #@% v# / #### # / #### # / ######");
    let pos = after(&p, "1,2,R");
    assert_eq!(ice_at(&p, &pos, 3, 4), Some(Ice::Regular));
    // Into a fire after the turn.
    assert_eq!(solved_in("###### / #@% v# / #### # / ####*# / ######"), 1);
}

#[test]
fn x2_a_block_rests_on_an_arrow_facing_a_wall() {
    let p = puzzle("####### / #@%v  # / ####### ");
    let (pos, end) = {
        let reach = p.grid.reachable(&p.start);
        p.grid
            .push(&p.start, &reach, p.grid.cell(1, 2), Dir::Right)
            .unwrap()
    };
    assert_eq!(end, SlideEnd::Rests(p.grid.cell(1, 3)));
    assert_eq!(ice_at(&p, &pos, 1, 3), Some(Ice::Regular));
}

#[test]
fn x3_a_block_leaves_an_arrow_in_the_push_direction() {
    let p = puzzle("####### / #@%v  # / ####### ");
    let pos = after(&p, "1,2,R 1,3,R");
    assert_eq!(ice_at(&p, &pos, 1, 5), Some(Ice::Regular));
}

#[test]
fn x4_the_magician_stops_a_block_sent_back_at_him() {
    let p = puzzle("###### / #@% <# / ######");
    let pos = after(&p, "1,2,R");
    assert_eq!(ice_at(&p, &pos, 1, 2), Some(Ice::Regular));
    assert_eq!(pos.magician, p.grid.cell(1, 1));
}

#[test]
fn x5_a_slide_that_loops_is_illegal() {
    let p = puzzle("###### / #@%>v# / #  ^<# / ######");
    let reach = p.grid.reachable(&p.start);
    assert_eq!(
        p.grid.push(&p.start, &reach, p.grid.cell(1, 2), Dir::Right),
        Err(PushError::EndlessSlide)
    );
    assert!(push_error(&p, "", "1,2,R").contains("never end"));
}

#[test]
fn x6_arrows_carry_the_magician() {
    // Stepping on `>` carries him on; he never ends a walk on it while the way is free.
    let p = puzzle("###### / #@>  # / ######");
    let reach = p.grid.reachable(&p.start);
    assert!(!reach[p.grid.cell(1, 2)] && reach[p.grid.cell(1, 3)] && reach[p.grid.cell(1, 4)]);
    // A blocked forced step leaves him on the arrow.
    let p = puzzle("###### / #@>% # / ######");
    let reach = p.grid.reachable(&p.start);
    assert!(reach[p.grid.cell(1, 2)] && !reach[p.grid.cell(1, 3)]);
    // A forced walk that comes back to an arrow is not allowed at all.
    let p = puzzle("###### / #@>< # / ######");
    let reach = p.grid.reachable(&p.start);
    assert_eq!(reach.count_ones(), 1);
}

#[test]
fn x7_on_an_arrow_he_steps_and_pushes_only_its_way() {
    let p = puzzle("###### / #@>% # / # %  # / #    # / ######");
    // He stands on the arrow at 1,2 (1,3 holds ice): pushing 2,2 down from there is illegal.
    assert!(push_error(&p, "", "2,2,D").contains("arrow pointing elsewhere"));
    assert_eq!(
        after(&p, "1,3,R").ice[p.grid.cell(1, 4)],
        Some(Ice::Regular)
    );
}

#[test]
fn x8_reachability_is_directed_and_the_search_keeps_his_cell() {
    let p = puzzle("###### / #@>  # / ######");
    let mut pos = p.start.clone();
    pos.magician = p.grid.cell(1, 3);
    assert!(!p.grid.reachable(&pos)[p.grid.cell(1, 1)]);
    // Behind the one-way door at 1,2 he can never come back: the ice at 2,1 must go first.
    let rows = "####### / #@>   # / #%###%# / # ### # / #*###*# / #######";
    assert_eq!(solved_in(rows), 2);
    let p = puzzle(rows);
    assert_eq!(replay(&p, "2,1,D 2,5,D"), Ok(2));
    assert!(
        replay(&p, "2,5,D 2,1,D")
            .unwrap_err()
            .contains("cannot reach the push cell 1,1")
    );
}

// ---------------------------------------------------------------- the packed space

/// Compares the fast space's successors with the simulator's on every state within `depth`
/// pushes, and returns how many states were compared.
fn compare_spaces<const K: usize>(rows: &str, depth: usize) -> usize {
    let p = puzzle(rows);
    let fast = IceSpace::<4, K>::new(&p);
    let sim = SimSpace::<4, K>::new(&p, false);
    assert_eq!(fast.start(), sim.start());
    let mut seen = HashSet::from([fast.start()]);
    let mut layer = vec![fast.start()];
    for _ in 0..depth {
        let mut next_layer = Vec::new();
        for s in &layer {
            let mut a: Vec<Key<K>> = Vec::new();
            let mut b: Vec<Key<K>> = Vec::new();
            fast.successors(s, &mut a);
            sim.successors(s, &mut b);
            a.sort();
            b.sort();
            assert_eq!(a, b, "successors of {:?}", sim.position(s));
            next_layer.extend(b.into_iter().filter(|k| seen.insert(*k)));
        }
        layer = next_layer;
    }
    seen.len()
}

#[test]
fn fast_successors_match_the_simulator() {
    // Rooms that split and merge, recyclers, golden ice over fires and onto recyclers.
    let levels = [
        "########## / #@ %  # *# / # %# %#  # / #  $ -   # / #*  %  %*# / ##########",
        "########## / #%  $   *# / #  %#%   # / #@ -  %  # / #*  #  $*# / #   %  * # / ##########",
        "########### / #@  %     # / # ##  # # # / #  % %  % # / # # #  ## # / #*  % %  *# / ###########",
        "######## / # % # *# / #%@% % # / # %   %# / #*  #  # / ########",
    ];
    for rows in levels {
        let compared = compare_spaces::<2>(rows, 7);
        assert!(compared > 50, "{rows}: {compared}");
    }
    // More golden blocks than fit as 8-bit cells: the golden ice is a board set in the key.
    let rows = "######### / #@$ $  *# / #$  $ $*# / #  $ $  # / #    *  # / #########";
    let compared = compare_spaces::<2>(rows, 6);
    assert!(compared > 50, "{compared}");
}

#[test]
fn more_than_64_fires_use_wide_fire_sets() {
    // Five golden blocks, each sweeping a row of 16 fires: 80 fires, five pushes.
    let wall = "#".repeat(20);
    let row = format!("# ${}#", "*".repeat(16));
    let rows = format!(
        "{wall} / #@{}# / {} / {wall}",
        " ".repeat(17),
        [row.as_str(); 5].join(" / ")
    );
    assert_eq!(solved_in(&rows), 5);
    assert!(compare_spaces::<6>(&rows, 3) > 20);
}

#[test]
fn golden_blocks_alternate_rows_and_columns_in_the_bound() {
    // H-49: every fire lies in one of 7 rows (line cover 7), but the two golden blocks must
    // alternate row and column runs from their own row or column: at least 9 pushes.
    let h49 = "#################### / #### %          #### / #### %  *  *  * #### / \
               #### $   * * *  #### / #### %    ***   #### / #### %  ******* #### / \
               #### %    ***   #### / #### %   * * *  #### / #### %  *  *  * #### / \
               #### %          #### / #### %          #### / #### %%%%%%%%$%%#### / \
               ####@           #### / ####################";
    let space = IceSpace::<3, 4>::new(&puzzle(h49));
    assert_eq!(space.heuristic(&space.start()), Some(9));
    // One golden block and two fires in its row: one push, and the bound says so.
    let rows = "######### / #@$ * * # / #       # / #########";
    let space = IceSpace::<1, 2>::new(&puzzle(rows));
    assert_eq!(space.heuristic(&space.start()), Some(1));
    assert_eq!(solved_in(rows), 1);
    // The fires in a column instead (line cover 1): the block needs a row run to the stopper,
    // then a column run.
    let rows = "######### / #       # / #@$    %# / #     * # / #     * # / #########";
    let space = IceSpace::<1, 2>::new(&puzzle(rows));
    assert_eq!(space.heuristic(&space.start()), Some(2));
    assert_eq!(solved_in(rows), 2);
}

/// The bound at a level's start without the golden-pattern table, whose exact golden geometry
/// would otherwise hide the golden-run bound on small levels.
fn run_bound(rows: &str) -> Option<u32> {
    let mut space = IceSpace::<1, 2>::new(&puzzle(rows));
    let FireBounds::Narrow(bounds) = &mut space.bounds else {
        panic!("at most 64 fires")
    };
    bounds.pattern = None;
    space.heuristic(&space.start())
}

#[test]
fn a_first_turn_in_open_floor_costs_a_stopper() {
    // The golden block's row holds a fire, and the column of the other two fires crosses it in
    // open floor. Two runs would put out all three (row 2, then column 6), but the turn at 2,6
    // needs a stopper at 2,7 first: the block at 4,7 pushed up, under the one at 1,7. So 3
    // pushes: that, or the row and a regular block into each fire of column 6.
    let open =
        "########## / #@     % # / # $  *   # / #        # / #     *% # / # %   *  # / ##########";
    assert_eq!(run_bound(open), Some(3));
    assert_eq!(solved_in(open), 3);
    // A block on the support: the row run stops in front of it, and two runs do it.
    let supported =
        "########## / #@       # / # $  * % # / #        # / #     *  # / # %   *  # / ##########";
    assert_eq!(run_bound(supported), Some(2));
    assert_eq!(solved_in(supported), 2);
}

/// The golden-pattern table's distance of a level's start ([`super::pattern`]).
fn pattern_distance(rows: &str) -> Option<u32> {
    let space = IceSpace::<1, 2>::new(&puzzle(rows));
    let start = space.start();
    let FireBounds::Narrow(bounds) = &space.bounds else {
        panic!("at most 64 fires")
    };
    let table = bounds.pattern.as_ref().expect("one golden block: a table");
    table.bound(
        &space.golden_of(&start),
        start.get_at(space.keys.fires_offset, space.keys.fire_count),
    )
}

#[test]
fn the_golden_pattern_table_holds_exact_abstract_distances() {
    // Two fires in the golden block's row: one push.
    assert_eq!(
        pattern_distance("######### / #@$ * * # / #       # / #########"),
        Some(1)
    );
    // The sampler of docs/ice-tower.md: a row run puts out 3,7 and stops at the wall, a column
    // run puts out 1,8; or the regular block melts in a fire: 2 either way.
    let sampler = "########## / #@      *# / #   %    # / # $ -  * # / #        # / ##########";
    assert_eq!(pattern_distance(sampler), Some(2));
    assert_eq!(solved_in(sampler), 2);
    // No regular ice, and a fire whose row and column no golden slide can enter: the block
    // rests only against walls, so on the rim of the room or in its own row and column. The
    // golden-run bound lets it turn anywhere (2 runs); the table calls the start dead, and so
    // it is.
    let room = "######## / #@     # / # $    # / #   *  # / #      # / #      # / ########";
    assert_eq!(pattern_distance(room), None);
    let space = IceSpace::<1, 2>::new(&puzzle(room));
    assert_eq!(space.heuristic(&space.start()), None);
    assert!(matches!(solve(room), Answer::Unsolvable));
}

#[test]
fn analyze_counts_the_optimal_solutions_a_brute_force_enumerates() {
    struct BruteForce;
    impl super::WithSpace for BruteForce {
        type Output = Option<(u32, u64)>;
        fn run<P: Heuristic + MoveBudget>(
            self,
            space: &P,
            _: impl Fn(&[P::State]) -> Vec<(usize, usize, Dir)>,
        ) -> Self::Output
        where
            P::State: crate::search::Portable,
        {
            crate::engine::tests::brute_force_shortest_solutions(space, 6)
        }
    }
    for rows in [
        "####### / #@%*  # / #   % # / #######",
        "######## / #@ %   # / # % % *# / #   *  # / ########",
        "###### / #@% v# / #### # / ####*# / ######",
    ] {
        let p = puzzle(rows);
        let analysis = IceTower::analyze(&p, &SearchControl::unlimited())
            .expect("ice-tower has a space")
            .expect("no limits");
        let analyzed = analysis.optimum.map(|o| (o, analysis.optimal_paths));
        assert_eq!(analyzed, super::with_space(&p, BruteForce), "{rows}");
    }
}
