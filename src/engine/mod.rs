//! The search engine: game-agnostic searches over packed states.
//!
//! A game describes its state space by implementing [`Space`]; the engine knows nothing else
//! about it. The engine owns threads (rayon), the visited set (a dashmap, see [`visited`]), limits
//! and statistics. A game never sees a thread.
//!
//! - [`bfs`]: parallel level-synchronous frontier breadth-first search (optimal for unit moves).
//! - [`astar`]: parallel best-first search in f-layers for spaces with an admissible heuristic,
//!   and its variant that expands the likeliest last-move states first.
//! - [`bidirectional`]: parallel BFS from both ends, for reversible spaces with one goal state.
//! - [`beam`]: beams that keep the best states of each layer: solutions without proof, fast.
//! - [`explore`]: whole-space BFS from one start or many sources, its layers, shortest-path
//!   counts, and a level's analysis (`frontier analyze`, `frontier generate`).
//! - [`bounded`]: a move budget laid over a space, so a known solution prunes an optimal search.
//! - [`arena`] and [`visited`]: every state stored once, and the concurrent set of its index.
//! - [`control`]: limits, live progress counters and the result type shared by both.

pub mod arena;
pub mod astar;
pub mod beam;
pub mod bfs;
pub mod bidirectional;
pub mod bounded;
pub mod control;
pub mod explore;
pub mod visited;

use std::hash::Hash;

use bytemuck::Pod;

pub use bounded::Bounded;
pub use control::{Limit, SearchControl, SearchOutcome, SearchStats};

/// A state space searched by the engine: the one trait between a game and the engine.
///
/// States are small packed values: integers or fixed arrays of bits (`Pod`: plain bytes, which
/// the engine stores cut to [`Space::state_bytes`]). Every move costs 1.
pub trait Space: Sync {
    /// A packed position. Equal states are the same search node.
    type State: Pod + Eq + Hash + Send + Sync;

    /// The start position.
    fn start(&self) -> Self::State;

    /// Appends every successor of `state` to `out` (which the engine clears beforehand and reuses
    /// for the next state, so a game should not allocate here). Duplicates are allowed.
    ///
    /// `came_by` is the [`Space::move_tag`] of the move that first reached `state` (`None` for
    /// the start, and in a space that tags no moves). A game may use it to skip successors that
    /// are certainly no closer to the start than `state` (e.g. moving the piece that was just
    /// moved again); it may also ignore it.
    fn successors(&self, state: &Self::State, came_by: Option<u8>, out: &mut Vec<Self::State>);

    /// Whether the space tags its moves ([`Space::move_tag`]): the engine then keeps one byte
    /// per stored state, and hands it to [`Space::successors`]. Why a byte and not the parent:
    /// a reversible space keeps no parent links, and what a game wants of the parent (which
    /// piece moved last) fits in one byte. Default: false.
    const TAGS_MOVES: bool = false;

    /// A byte saying which move leads from `parent` to `state` (one of its successors, after
    /// [`Space::canonical`]), e.g. the piece that moved; `None` (or 255) tags nothing. Asked
    /// once per successor generated, and kept only where [`Space::TAGS_MOVES`]. Default: `None`.
    #[inline]
    fn move_tag(&self, _state: &Self::State, _parent: &Self::State) -> Option<u8> {
        None
    }

    /// Whether `state` solves the puzzle.
    fn is_goal(&self, state: &Self::State) -> bool;

    /// Maps a state to the representative of its equivalence class (e.g. interchangeable pieces
    /// sorted, or the least of a position's mirror images). The engine applies it to every
    /// successor before looking it up. The states of one class must be alike in
    /// [`Space::is_goal`], [`Space::tiebreak`] and distance to a goal, so that a successor may
    /// be tested before it is made canonical. Default: identity.
    #[inline]
    fn canonical(&self, state: Self::State) -> Self::State {
        state
    }

    /// A lower bound on the moves still needed from `state` (admissible, and consistent:
    /// it drops by at most 1 per move). Used by [`astar`], once per generated successor; `bfs`
    /// ignores it. Return `None` when `state` provably cannot reach a goal: it is then neither
    /// stored nor expanded. Default: `Some(0)`.
    #[inline]
    fn heuristic(&self, _state: &Self::State) -> Option<u32> {
        Some(0)
    }

    /// [`Space::heuristic`] where only values up to `limit` matter, as under a move budget: the
    /// same value when it is at most `limit` (and `None` for a dead state), otherwise any value
    /// above `limit`. A game whose bound is the largest of several can stop at the first part
    /// above `limit`. Default: [`Space::heuristic`].
    #[inline]
    fn heuristic_within(&self, state: &Self::State, _limit: u32) -> Option<u32> {
        self.heuristic(state)
    }

    /// The successors of `state` (after [`Space::canonical`]) whose bound is at most `limit`,
    /// each with its bound ([`Space::heuristic_within`]), pushed to `out`; returns how many
    /// others were above `limit` (dead ones are not counted). Used by [`astar`] under a move
    /// budget (`u32::MAX` without one). A game can skip the rest of a successor's work once its
    /// bound is out. `scratch` is the default's buffer. Default: [`Space::successors`], then
    /// [`Space::heuristic_within`] of each.
    #[inline]
    fn successors_within(
        &self,
        state: &Self::State,
        came_by: Option<u8>,
        limit: u32,
        scratch: &mut Vec<Self::State>,
        out: &mut Vec<(Self::State, u32)>,
    ) -> u64 {
        scratch.clear();
        self.successors(state, came_by, scratch);
        let mut above = 0;
        for &next in scratch.iter() {
            let next = self.canonical(next);
            match self.heuristic_within(&next, limit) {
                Some(h) if h <= limit => out.push((next, h)),
                Some(_) => above += 1,
                None => {}
            }
        }
        above
    }

    /// A game's measure of the work left in `state` (gems on the board, fires burning), smaller
    /// first: among the states [`astar::ordered_astar`] may find one move from a goal, those
    /// with smaller values are expanded first, and a [`beam`] keeps states with smaller values
    /// before those with a smaller heuristic (see there). The optimal searches' answers never
    /// depend on it. Default: 0.
    #[inline]
    fn tiebreak(&self, _state: &Self::State) -> u32 {
        0
    }

    /// The most moves a solution may have (a move budget), or `None` for no bound. [`bfs`] and
    /// [`astar`] stop, `Exhausted`, before expanding anything that could only lead to longer
    /// solutions: [`bfs`] after layer `max_depth`, [`astar`] before the first f above it (and
    /// it stores no state whose f is above it); of the states `max_depth` moves from the start
    /// they keep only the goals. [`bidirectional`] ignores it; [`Bounded`] lays one over any
    /// space. Default: `None`.
    fn max_depth(&self) -> Option<u32> {
        None
    }

    /// Whether every move can be undone by one move: the successors of a state (given no
    /// move tag, and after [`Space::canonical`]) include every state it is a successor of. The
    /// engine then keeps no parent links: a path is rebuilt backwards from the goal by
    /// regenerating each state's neighbours and looking them up, and A* keeps depths modulo
    /// 256 (see [`arena::Depths`]). Default: false.
    fn reversible(&self) -> bool {
        false
    }

    /// How many bytes of a state (in memory, little-endian words: low bytes first) can be other
    /// than zero; the engine stores only those. A sliding-block key of 41 bits in a `u64` takes
    /// 6. Default: all of them.
    fn state_bytes(&self) -> usize {
        size_of::<Self::State>()
    }
}

#[cfg(test)]
pub(crate) mod tests;
