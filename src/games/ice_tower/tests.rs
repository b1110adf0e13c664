//! Whole-game tests: the small cases of spec §4 and the rules whose cases are solved through
//! the engine, the golden-run bound (`runs.rs`) on the levels it was made for, and `analyze`
//! against a brute force; and the fixtures the modules' tests share (a level from rows, the
//! position after pushes, a push's error, solving). Each module's own rules are tested at its
//! bottom.

use super::IceTower;
use super::level::{Puzzle, parse_rows};
use super::notation::{Push, apply, replay};
use super::rules::{Dir, Ice};
use super::space::{FireBounds, IceSpace};
use crate::engine::{Heuristic, MoveBudget, SearchControl, Space};
use crate::games::{Answer, Game};

pub(super) fn puzzle(rows: &str) -> Puzzle {
    parse_rows(rows).unwrap_or_else(|e| panic!("{rows}: {e}"))
}

pub(super) fn solve(rows: &str) -> Answer {
    IceTower::solve(&puzzle(rows), &SearchControl::unlimited())
}

pub(super) fn solved_in(rows: &str) -> u64 {
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

/// The position after pushes given in notation, each one legal.
pub(super) fn after(p: &Puzzle, pushes: &str) -> super::rules::Position {
    pushes.split_whitespace().fold(p.start.clone(), |pos, t| {
        apply(&p.grid, &pos, Push::parse(t).unwrap())
            .unwrap_or_else(|e| panic!("{t}: {e}"))
            .0
    })
}

pub(super) fn ice_at(
    p: &Puzzle,
    pos: &super::rules::Position,
    row: usize,
    col: usize,
) -> Option<Ice> {
    pos.ice[p.grid.cell(row, col)]
}

pub(super) fn push_error(p: &Puzzle, pushes: &str, last: &str) -> String {
    let pos = after(p, pushes);
    apply(&p.grid, &pos, Push::parse(last).unwrap()).expect_err("an illegal push")
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

// ---------------------------------------------------------------- rules solved (spec §2, §2.4)

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
fn x2_an_arrow_turns_a_sliding_block() {
    let p = puzzle("###### / #@% v# / #### # / #### # / ######");
    let pos = after(&p, "1,2,R");
    assert_eq!(ice_at(&p, &pos, 3, 4), Some(Ice::Regular));
    // Into a fire after the turn.
    assert_eq!(solved_in("###### / #@% v# / #### # / ####*# / ######"), 1);
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

// ---------------------------------------------------------------- the golden-run bound (runs.rs)

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
            crate::engine::testing::brute_force_shortest_solutions(space, 6)
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
