//! The packed search state (spec §3) and the engine's [`Space`].
//!
//! A state is one `u64`: the ball cell, the `last_safe` cell, `last_move` (2 bits) and the hand
//! as a multiset, one small counter per distinct card text (just wide enough for the copies
//! dealt). Playing card i subtracts one from its counter. Hand-packing beats a bit array here:
//! the whole state is a single word, which the visited set hashes and compares in one step.
//!
//! Successors try each distinct card still in the hand (copies give the same successor, so they
//! are tried once) in the four directions, through [`Board::play`] with its precomputed tables.

use super::level::Level;
use super::rules::{Dir, Position};
use crate::engine::Space;

pub type State = u64;

/// Where each field lives in a [`State`].
#[derive(Clone, Debug)]
pub struct Packing {
    cell_bits: u32,
    /// Per distinct card of the hand: the shift of its counter.
    card_shift: Vec<u32>,
    /// Per distinct card: the mask of its counter (after shifting down).
    card_mask: Vec<u64>,
}

impl Packing {
    /// The layout for a level, or why the level does not fit 64 bits.
    pub fn new(level: &Level) -> Result<Packing, String> {
        let cell_bits = bits_for(level.board.cells() as u64 - 1);
        let mut next = 2 * cell_bits + 2;
        let mut card_shift = Vec::with_capacity(level.hand.len());
        let mut card_mask = Vec::with_capacity(level.hand.len());
        for card in &level.hand {
            let width = bits_for(card.count as u64);
            card_shift.push(next);
            card_mask.push((1u64 << width) - 1);
            next += width;
        }
        if next > 64 {
            return Err(format!(
                "the level needs {next} bits of search state (grid and hand), at most 64 are supported"
            ));
        }
        Ok(Packing {
            cell_bits,
            card_shift,
            card_mask,
        })
    }

    #[inline]
    fn cell_mask(&self) -> u64 {
        (1 << self.cell_bits) - 1
    }

    /// The bits below the hand.
    #[inline]
    fn position_mask(&self) -> u64 {
        (1 << (2 * self.cell_bits + 2)) - 1
    }

    #[inline]
    pub fn pack_position(&self, p: Position) -> State {
        p.ball as u64
            | (p.last_safe as u64) << self.cell_bits
            | (p.last_move as u64) << (2 * self.cell_bits)
    }

    #[inline]
    pub fn position(&self, state: State) -> Position {
        Position {
            ball: (state & self.cell_mask()) as u16,
            last_safe: (state >> self.cell_bits & self.cell_mask()) as u16,
            last_move: Dir::from_index((state >> (2 * self.cell_bits)) as usize),
        }
    }

    /// Copies of card `card` left in the hand of `state`.
    #[inline]
    pub fn count(&self, state: State, card: usize) -> u64 {
        state >> self.card_shift[card] & self.card_mask[card]
    }

    /// The hand bits of `state` with one copy of `card` played (the card must be there).
    #[inline]
    fn hand_without(&self, state: State, card: usize) -> State {
        (state & !self.position_mask()) - (1 << self.card_shift[card])
    }
}

/// Bits needed to hold `max` (at least 1).
fn bits_for(max: u64) -> u32 {
    (64 - max.leading_zeros()).max(1)
}

/// A level's search space.
pub struct GolfSpace<'a> {
    level: &'a Level,
    packing: Packing,
}

impl<'a> GolfSpace<'a> {
    /// The space of a level whose packing was accepted when it was parsed.
    pub fn new(level: &'a Level) -> GolfSpace<'a> {
        let packing = Packing::new(level).expect("the packing was checked when parsing");
        GolfSpace { level, packing }
    }

    pub fn packing(&self) -> &Packing {
        &self.packing
    }

    /// Calls `found(card, dir, successor)` for each distinct card left and each direction whose
    /// play is legal.
    #[inline]
    fn for_each_play(&self, state: State, mut found: impl FnMut(usize, Dir, State)) {
        let position = self.packing.position(state);
        for (card, c) in self.level.hand.iter().enumerate() {
            if self.packing.count(state, card) == 0 {
                continue;
            }
            let hand = self.packing.hand_without(state, card);
            for dir in Dir::ALL {
                if let Ok(after) = self.level.board.play(position, &c.steps, dir) {
                    found(card, dir, hand | self.packing.pack_position(after));
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
        let full_hand = self
            .level
            .hand
            .iter()
            .zip(&self.packing.card_shift)
            .fold(0, |hand, (card, &shift)| {
                hand | (card.count as u64) << shift
            });
        full_hand
            | self
                .packing
                .pack_position(self.level.board.start_position())
    }

    #[inline]
    fn successors(&self, state: &State, _parent: Option<&State>, out: &mut Vec<State>) {
        self.for_each_play(*state, |_, _, next| out.push(next));
    }

    #[inline]
    fn is_goal(&self, state: &State) -> bool {
        state & self.packing.cell_mask() == self.level.board.flag as u64
    }
}
