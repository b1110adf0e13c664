//! The packed search state (spec §3) and the engine's [`Space`].
//!
//! A play's outcome depends on the position (ball, `last_safe`, `last_move`), the card and the
//! direction, never on the rest of the hand. So before the search, [`Transitions::build`] lists
//! every position reachable from the start when any card may be played any number of times, as
//! long as no more plays than cards are dealt (a superset of the positions the search meets), and
//! tabulates, per position, distinct card and direction, the position after the play. The
//! official corpus has about 7,800 such positions (6,500 of them played from) for 57,000
//! reachable states, and a state's successors become table lookups instead of simulations.
//!
//! The table also gives, per position, the fewest plays to the flag with unlimited cards (a
//! backwards breadth-first search over it). The solver's space leaves out a successor whose
//! position needs more plays than cards are left: it cannot lie on any solution, so breadth-first
//! order still finds the fewest plays, and a level whose every state is cut is unsolvable.
//! [`GolfSpace::exhaustive`] keeps them, for the reachable-state counts of spec §4.
//!
//! A state is one `u64`: the position's index in that table, then the hand as a multiset, one
//! small counter per distinct card text (just wide enough for the copies dealt). Playing card i
//! subtracts one from its counter. Hand-packing beats a bit array here: the whole state is a
//! single word, which the visited set hashes and compares in one step.

use std::collections::HashMap;

use super::level::Level;
use super::rules::{Cell, Dir, Position};
use crate::engine::{Limit, MoveBudget, SearchControl, Space, Stored};

pub type State = u64;

/// No position: the play is illegal.
const ILLEGAL: u32 = u32::MAX;

/// No play sequence leads from the position to the flag.
const UNREACHABLE: u32 = u32::MAX;

/// Positions between two checks of the search limits while building the table.
const CHECK_EVERY: usize = 1024;

/// Bits needed to hold `max` (at least 1).
fn bits_for(max: u64) -> u32 {
    (64 - max.leading_zeros()).max(1)
}

/// Bits a state of the level may need at most: a position index is below cells² × 4, so it
/// fits two cell fields and a direction; each card's counter holds the copies dealt.
pub fn max_state_bits(level: &Level) -> u32 {
    let cell_bits = bits_for(level.board.cells() as u64 - 1);
    let hand_bits: u32 = level.hand.iter().map(|c| bits_for(c.count as u64)).sum();
    2 * cell_bits + 2 + hand_bits
}

/// The positions reachable with unlimited cards and the outcome of every play from them.
pub struct Transitions {
    /// Position by index; index 0 is the start.
    positions: Vec<Position>,
    /// Per position, distinct card and direction (in that order): the index of the position
    /// after the play, or [`ILLEGAL`] when the play is illegal or an earlier direction of the
    /// same card leads to the same position. Goal positions and positions first reached after
    /// as many plays as there are cards are not expanded (all `ILLEGAL`).
    next: Vec<u32>,
    /// Per position: the fewest plays from it to the flag with unlimited cards over the edges of
    /// `next`, or [`UNREACHABLE`]. A lower bound on the plays any hand needs from a state that
    /// still has cards: the positions its solutions pass through are all expanded (each is
    /// reached before the cards run out).
    distance: Vec<u32>,
}

impl Transitions {
    /// Explores the positions breadth-first, reporting memory to `ctl` and obeying its limits.
    pub fn build(level: &Level, ctl: &SearchControl) -> Result<Transitions, Limit> {
        let board = &level.board;
        let plays = level.hand.len() * 4;
        // A position first reached after all cards are played is never played from.
        let cards: u32 = level.hand.iter().map(|c| c.count).sum();
        let mut positions = vec![board.start_position()];
        let mut depth = vec![0u32];
        let mut index: HashMap<Position, u32, foldhash::fast::FixedState> = HashMap::default();
        index.insert(positions[0], 0);
        let mut next = Vec::new();
        let mut done = 0;
        while done < positions.len() {
            if done % CHECK_EVERY == CHECK_EVERY - 1 {
                ctl.progress.set_bytes(
                    (positions.capacity() * size_of::<Position>()
                        + next.capacity() * size_of::<u32>()
                        + index.capacity() * (size_of::<(Position, u32)>() + 1))
                        as u64,
                );
                ctl.check()?;
            }
            let from = positions[done];
            let from_depth = depth[done];
            done += 1;
            if from.ball == board.flag || from_depth == cards {
                next.extend(std::iter::repeat_n(ILLEGAL, plays));
                continue;
            }
            for card in &level.hand {
                let first = next.len();
                for dir in Dir::ALL {
                    let to = match board.play(from, &card.steps, dir) {
                        Ok(to) => *index.entry(to).or_insert_with(|| {
                            positions.push(to);
                            depth.push(from_depth + 1);
                            positions.len() as u32 - 1
                        }),
                        Err(_) => ILLEGAL,
                    };
                    // A direction that repeats an earlier one's outcome adds no successor.
                    let repeated = next[first..].contains(&to);
                    next.push(if repeated { ILLEGAL } else { to });
                }
            }
        }
        let distance = distances_to_flag(&positions, &next, plays, board.flag);
        Ok(Transitions {
            positions,
            next,
            distance,
        })
    }

    /// Estimated bytes of the table.
    pub fn bytes(&self) -> u64 {
        (self.positions.len() * (size_of::<Position>() + size_of::<u32>())
            + self.next.len() * size_of::<u32>()) as u64
    }
}

/// Breadth-first search backwards from the flag positions over the table of plays.
fn distances_to_flag(positions: &[Position], next: &[u32], plays: usize, flag: Cell) -> Vec<u32> {
    // The reversed edges in compressed rows: `sources[starts[q]..starts[q + 1]]` lead to q.
    let mut starts = vec![0u32; positions.len() + 1];
    for &to in next.iter().filter(|&&to| to != ILLEGAL) {
        starts[to as usize + 1] += 1;
    }
    for i in 0..positions.len() {
        starts[i + 1] += starts[i];
    }
    let mut fill = starts.clone();
    let mut sources = vec![0u32; starts[positions.len()] as usize];
    for (from, outcomes) in next.chunks_exact(plays.max(1)).enumerate() {
        for &to in outcomes.iter().filter(|&&to| to != ILLEGAL) {
            sources[fill[to as usize] as usize] = from as u32;
            fill[to as usize] += 1;
        }
    }
    let mut distance = vec![UNREACHABLE; positions.len()];
    let mut queue: Vec<u32> = (0..positions.len() as u32)
        .filter(|&p| positions[p as usize].ball == flag)
        .collect();
    for &p in &queue {
        distance[p as usize] = 0;
    }
    let mut head = 0;
    while head < queue.len() {
        let to = queue[head] as usize;
        head += 1;
        for &from in &sources[starts[to] as usize..starts[to + 1] as usize] {
            if distance[from as usize] == UNREACHABLE {
                distance[from as usize] = distance[to] + 1;
                queue.push(from);
            }
        }
    }
    distance
}

/// A level's search space over (position index, hand).
pub struct GolfSpace<'a> {
    level: &'a Level,
    transitions: Transitions,
    position_bits: u32,
    /// Per distinct card of the hand: the shift of its counter.
    card_shift: Vec<u32>,
    /// Per distinct card: the mask of its counter (after shifting down).
    card_mask: Vec<u64>,
    /// Whether successors that provably cannot reach the flag are left out.
    prune: bool,
}

impl<'a> GolfSpace<'a> {
    /// The space the solver searches: the table of plays of a level whose state size was
    /// accepted when it was parsed (see [`max_state_bits`]), with dead successors left out.
    pub fn new(level: &'a Level, ctl: &SearchControl) -> Result<GolfSpace<'a>, Limit> {
        Self::with_pruning(level, ctl, true)
    }

    /// The whole state space of spec §3: every legal play is a successor.
    pub fn exhaustive(level: &'a Level, ctl: &SearchControl) -> Result<GolfSpace<'a>, Limit> {
        Self::with_pruning(level, ctl, false)
    }

    fn with_pruning(
        level: &'a Level,
        ctl: &SearchControl,
        prune: bool,
    ) -> Result<GolfSpace<'a>, Limit> {
        let transitions = Transitions::build(level, ctl)?;
        ctl.progress.set_bytes(transitions.bytes());
        let position_bits = bits_for(transitions.positions.len() as u64 - 1);
        let mut shift = position_bits;
        let mut card_shift = Vec::with_capacity(level.hand.len());
        let mut card_mask = Vec::with_capacity(level.hand.len());
        for card in &level.hand {
            let width = bits_for(card.count as u64);
            card_shift.push(shift);
            card_mask.push((1u64 << width) - 1);
            shift += width;
        }
        debug_assert!(shift <= 64, "checked by max_state_bits when parsing");
        Ok(GolfSpace {
            level,
            transitions,
            position_bits,
            card_shift,
            card_mask,
            prune,
        })
    }

    /// The position of a state.
    #[inline]
    pub fn position(&self, state: State) -> Position {
        self.transitions.positions[self.position_index(state)]
    }

    #[inline]
    fn position_index(&self, state: State) -> usize {
        (state & ((1 << self.position_bits) - 1)) as usize
    }

    /// Copies of card `card` left in the hand of `state`.
    #[inline]
    pub fn count(&self, state: State, card: usize) -> u64 {
        state >> self.card_shift[card] & self.card_mask[card]
    }

    /// Calls `found(card, dir, successor)` for each distinct card left and each direction whose
    /// play is legal, leaving out (when pruning) successors whose position needs more plays to
    /// reach the flag than cards are left: no solution passes through them.
    #[inline]
    fn for_each_play(&self, state: State, mut found: impl FnMut(usize, Dir, State)) {
        let cards = self.level.hand.len();
        let from = self.position_index(state) * cards * 4;
        let outcomes = &self.transitions.next[from..from + cards * 4];
        let hand = state >> self.position_bits << self.position_bits;
        let left_after_play = match self.prune {
            true => {
                ((0..cards).map(|c| self.count(state, c)).sum::<u64>() as u32).saturating_sub(1)
            }
            false => UNREACHABLE,
        };
        for card in 0..cards {
            if self.count(state, card) == 0 {
                continue;
            }
            let hand = hand - (1 << self.card_shift[card]);
            for (dir, &to) in Dir::ALL.into_iter().zip(&outcomes[card * 4..card * 4 + 4]) {
                if to != ILLEGAL && self.transitions.distance[to as usize] <= left_after_play {
                    found(card, dir, hand | to as u64);
                }
            }
        }
    }

    /// The notation (§3) of a path of states from the search: each pair of consecutive states
    /// becomes the first play (card, direction) that leads from one to the other.
    pub fn notation(&self, path: &[State]) -> String {
        let plays: Vec<String> = path
            .windows(2)
            .map(|pair| {
                let mut play = None;
                self.for_each_play(pair[0], |card, dir, next| {
                    if next == pair[1] && play.is_none() {
                        play = Some(format!("{}{}", self.level.hand[card].text, dir.arrow()));
                    }
                });
                play.expect("consecutive states of a path are one play apart")
            })
            .collect();
        plays.join(" ")
    }
}

impl Space for GolfSpace<'_> {
    type State = State;

    fn start(&self) -> State {
        // The start position has index 0.
        self.level
            .hand
            .iter()
            .zip(&self.card_shift)
            .fold(0, |hand, (card, &shift)| {
                hand | (card.count as u64) << shift
            })
    }

    #[inline]
    fn successors(&self, state: &State, out: &mut Vec<State>) {
        self.for_each_play(*state, |_, _, next| out.push(next));
    }

    #[inline]
    fn is_goal(&self, state: &State) -> bool {
        self.position(*state).ball == self.level.board.flag
    }
}

impl Stored for GolfSpace<'_> {}

impl MoveBudget for GolfSpace<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::golf_peaks::GolfPeaks;
    use crate::games::golf_peaks::testing::{level, reachable};
    use crate::games::{Answer, Game};

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
}
