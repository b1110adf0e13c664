//! The search engine: game-agnostic searches over packed states.
//!
//! A game describes its state space by implementing [`Space`]; the engine knows nothing else
//! about it. The engine owns threads (rayon), the visited set (a dashmap, see [`visited`]), limits
//! and statistics. A game never sees a thread.
//!
//! - [`bfs`]: parallel level-synchronous frontier breadth-first search (optimal for unit moves).
//! - [`astar`]: parallel best-first search in f-layers for spaces with an admissible heuristic,
//!   and its variant that expands the likeliest last-move states first.
//! - [`control`]: limits, live progress counters and the result type shared by both.

pub mod astar;
pub mod bfs;
pub mod control;
pub mod visited;

use std::hash::Hash;

pub use control::{Limit, SearchControl, SearchOutcome, SearchStats};

/// A state space searched by the engine: the one trait between a game and the engine.
///
/// States are small packed values (`Copy`): integers or fixed arrays of bits. Every move costs 1.
pub trait Space: Sync {
    /// A packed position. Equal states are the same search node.
    type State: Copy + Eq + Hash + Send + Sync;

    /// The start position.
    fn start(&self) -> Self::State;

    /// Appends every successor of `state` to `out` (which the engine clears beforehand and reuses
    /// for the next state, so a game should not allocate here). Duplicates are allowed.
    ///
    /// `parent` is the state `state` was first reached from (`None` for the start). A game may
    /// use it to skip successors that are certainly no closer to the start than `state`
    /// (e.g. moving the piece that was just moved again); it may also ignore it.
    fn successors(
        &self,
        state: &Self::State,
        parent: Option<&Self::State>,
        out: &mut Vec<Self::State>,
    );

    /// Whether `state` solves the puzzle.
    fn is_goal(&self, state: &Self::State) -> bool;

    /// Maps a state to the representative of its equivalence class (e.g. interchangeable pieces
    /// sorted). The engine applies it to every successor before looking it up. Default: identity.
    #[inline]
    fn canonical(&self, state: Self::State) -> Self::State {
        state
    }

    /// A lower bound on the moves still needed from `state` (admissible, and consistent:
    /// it drops by at most 1 per move). Used by [`astar`]; `bfs` ignores it. Return `None` when
    /// `state` provably cannot reach a goal (the state is then not stored). Default: `Some(0)`.
    #[inline]
    fn heuristic(&self, _state: &Self::State) -> Option<u32> {
        Some(0)
    }

    /// Among the states [`astar::ordered_astar`] may find one move from a goal, those with
    /// smaller values are expanded first (see there); the other searches ignore it. Default: 0.
    #[inline]
    fn tiebreak(&self, _state: &Self::State) -> u32 {
        0
    }

    /// The most moves a solution may have (a move budget), or `None` for no bound. Both
    /// searches stop, `Exhausted`, before expanding anything that could only lead to longer
    /// solutions: [`bfs`] after layer `max_depth`, [`astar`] before the first f above it; and
    /// of the states `max_depth` moves from the start they keep only the goals. Default: `None`.
    fn max_depth(&self) -> Option<u32> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// States 0..=10 on a line, each move +1 or +2; the goal is 10 (5 moves at best).
    struct Line {
        max_depth: Option<u32>,
    }

    impl Space for Line {
        type State = u32;
        fn start(&self) -> u32 {
            0
        }
        fn successors(&self, state: &u32, _: Option<&u32>, out: &mut Vec<u32>) {
            out.extend([state + 1, state + 2].into_iter().filter(|&s| s <= 10));
        }
        fn is_goal(&self, state: &u32) -> bool {
            *state == 10
        }
        fn heuristic(&self, state: &u32) -> Option<u32> {
            Some((10 - state).div_ceil(2))
        }
        fn max_depth(&self) -> Option<u32> {
            self.max_depth
        }
    }

    fn moves(outcome: SearchOutcome<u32>) -> Option<usize> {
        match outcome {
            SearchOutcome::Found(path) => Some(path.len() - 1),
            SearchOutcome::Exhausted => None,
            SearchOutcome::Stopped(limit) => panic!("stopped: {limit}"),
        }
    }

    /// From the start (5000) every state 0..5000 is one move away; only 4321 leads on, to the
    /// goal (5001).
    struct Wide {
        prefer: bool,
    }

    impl Space for Wide {
        type State = u32;
        fn start(&self) -> u32 {
            5000
        }
        fn successors(&self, state: &u32, _: Option<&u32>, out: &mut Vec<u32>) {
            match *state {
                5000 => out.extend(0..5000),
                4321 => out.push(5001),
                _ => {}
            }
        }
        fn is_goal(&self, state: &u32) -> bool {
            *state == 5001
        }
        fn heuristic(&self, state: &u32) -> Option<u32> {
            Some(u32::from(*state != 5001))
        }
        fn tiebreak(&self, state: &u32) -> u32 {
            u32::from(self.prefer && *state != 4321)
        }
    }

    #[test]
    fn ordered_astar_expands_the_preferred_states_first_and_stops_at_a_goal() {
        let preferred = SearchControl::unlimited();
        let outcome = astar::ordered_astar(&Wide { prefer: true }, &preferred);
        assert_eq!(moves(outcome), Some(2));
        // The start twice (at f = 1 its successors, at f = 2, are deferred), then the first
        // wave of 1024 states of the last bucket.
        assert_eq!(preferred.expanded(), 2 + 1024);
        // Plain A* expands the whole bucket.
        let plain = SearchControl::unlimited();
        assert_eq!(moves(astar::astar(&Wide { prefer: true }, &plain)), Some(2));
        assert_eq!(plain.expanded(), 1 + 5000);
    }

    #[test]
    fn a_depth_bound_keeps_solutions_within_it_and_excludes_longer_ones() {
        for search in [
            bfs::bfs::<Line>,
            astar::astar::<Line>,
            astar::ordered_astar::<Line>,
        ] {
            for (max_depth, expected) in [(None, Some(5)), (Some(5), Some(5)), (Some(4), None)] {
                let ctl = SearchControl::unlimited();
                assert_eq!(moves(search(&Line { max_depth }, &ctl)), expected);
            }
        }
        // Bounded at 2 moves, BFS stores the start and layer 1 (states 1 and 2) and of layer
        // 2 only goals (none).
        let ctl = SearchControl::unlimited();
        let bounded = Line { max_depth: Some(2) };
        assert_eq!(moves(bfs::bfs(&bounded, &ctl)), None);
        assert_eq!(ctl.states(), 3);
    }
}
