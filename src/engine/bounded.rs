//! A space with a move budget laid over it: how a known solution prunes an optimal search.
//!
//! Once some solution of `n` moves is known (from a [`super::beam`]), only shorter ones are
//! worth proving: [`Bounded`] gives the same space a [`MoveBudget::max_depth`] of `n − 1`, so
//! that [`super::astar`] stores nothing whose f is above it and ends `Exhausted` when no
//! shorter solution exists, which proves the known one optimal.

use super::{Heuristic, MoveBudget, Space, Stored, forward};

/// `space` with every solution longer than `max_depth` moves cut off.
pub struct Bounded<'a, P> {
    pub space: &'a P,
    pub max_depth: u32,
}

forward!(impl[P: Space] Space for Bounded<'_, P> => space: P);
forward!(impl[P: Stored] Stored for Bounded<'_, P> => space);
forward!(impl[P: Heuristic] Heuristic for Bounded<'_, P> => space);

impl<P: MoveBudget> MoveBudget for Bounded<'_, P> {
    fn max_depth(&self) -> Option<u32> {
        Some(
            self.space
                .max_depth()
                .map_or(self.max_depth, |own| own.min(self.max_depth)),
        )
    }
}
