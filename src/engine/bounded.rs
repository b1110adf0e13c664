//! A space with a move budget laid over it: how a known solution prunes an optimal search.
//!
//! Once some solution of `n` moves is known (from a [`super::beam`]), only shorter ones are
//! worth proving: [`Bounded`] gives the same space a [`Space::max_depth`] of `n − 1`, so that
//! [`super::astar`] stores nothing whose f is above it and ends `Exhausted` when no shorter
//! solution exists, which proves the known one optimal.

use super::Space;

/// `space` with every solution longer than `max_depth` moves cut off.
pub struct Bounded<'a, P> {
    pub space: &'a P,
    pub max_depth: u32,
}

impl<P: Space> Space for Bounded<'_, P> {
    type State = P::State;

    fn start(&self) -> P::State {
        self.space.start()
    }

    const TAGS_MOVES: bool = P::TAGS_MOVES;

    #[inline]
    fn successors(&self, state: &P::State, came_by: Option<u8>, out: &mut Vec<P::State>) {
        self.space.successors(state, came_by, out)
    }

    #[inline]
    fn move_tag(&self, state: &P::State, parent: &P::State) -> Option<u8> {
        self.space.move_tag(state, parent)
    }

    #[inline]
    fn is_goal(&self, state: &P::State) -> bool {
        self.space.is_goal(state)
    }

    #[inline]
    fn canonical(&self, state: P::State) -> P::State {
        self.space.canonical(state)
    }

    #[inline]
    fn heuristic(&self, state: &P::State) -> Option<u32> {
        self.space.heuristic(state)
    }

    #[inline]
    fn heuristic_within(&self, state: &P::State, limit: u32) -> Option<u32> {
        self.space.heuristic_within(state, limit)
    }

    #[inline]
    fn successors_within(
        &self,
        state: &P::State,
        came_by: Option<u8>,
        limit: u32,
        scratch: &mut Vec<P::State>,
        out: &mut Vec<(P::State, u32)>,
    ) -> u64 {
        self.space
            .successors_within(state, came_by, limit, scratch, out)
    }

    #[inline]
    fn tiebreak(&self, state: &P::State) -> u32 {
        self.space.tiebreak(state)
    }

    fn reversible(&self) -> bool {
        self.space.reversible()
    }

    fn state_bytes(&self) -> usize {
        self.space.state_bytes()
    }

    fn max_depth(&self) -> Option<u32> {
        Some(
            self.space
                .max_depth()
                .map_or(self.max_depth, |own| own.min(self.max_depth)),
        )
    }
}
