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

#[cfg(test)]
mod tests {
    use super::Bounded;
    use crate::engine::testing::{EightPuzzle, HARDEST};
    use crate::engine::{Heuristic, MoveBudget, Space, Stored};

    #[test]
    fn a_bounded_space_forwards_every_capability_but_its_budget() {
        let space = EightPuzzle::new(HARDEST, true);
        let bounded = Bounded {
            space: &space,
            max_depth: 40,
        };
        assert_eq!(bounded.layout(), space.layout());
        assert_eq!(bounded.max_depth(), Some(40));
        let start = space.start();
        let (mut plain, mut laid) = (Vec::new(), Vec::new());
        space.successors(&start, &mut plain);
        bounded.successors(&start, &mut laid);
        assert_eq!(laid, plain);
        for &next in &plain {
            assert_eq!(
                bounded.move_tag(&next, &start),
                space.move_tag(&next, &start)
            );
            let tag = space.move_tag(&next, &start);
            let (mut plain_after, mut laid_after) = (Vec::new(), Vec::new());
            space.successors_after(&next, tag, &mut plain_after);
            bounded.successors_after(&next, tag, &mut laid_after);
            assert_eq!(laid_after, plain_after);
            assert!(!laid_after.contains(&start), "the tag skips the move back");
            assert_eq!(bounded.heuristic(&next), space.heuristic(&next));
            assert_eq!(bounded.work_left(&next), space.work_left(&next));
        }
    }
}
