//! The traits between a game and the engine: a small core, [`Space`], and a trait per
//! capability that only some searches use, which those searches require in their bounds.
//!
//! - [`Space`]: states, the start, successors, goals, and classes of equal states.
//! - [`Stored`]: how the engine stores states ([`Layout`]: bytes, parent links, move tags) and
//!   the move tags themselves, the only place a search hands a game the move that reached a
//!   state (`came_by`). Every search that stores states requires it.
//! - [`Heuristic`]: an admissible bound, its budgeted forms, and a measure of the work left
//!   that the searches which pick the likeliest states first rank by. A*, its ordered and
//!   round-by-round forms, and beams require it.
//! - [`MoveBudget`]: a move budget. The searches that stop at one require it; [`super::Bounded`]
//!   lays one over any space.
//!
//! Rust has no specialization, so a space opts in to a capability it lacks with an empty
//! `impl` whose defaults leave the search plain (`impl Stored for MySpace {}`).
//!
//! A space laid over another (a wrapper such as [`super::Bounded`]) forwards the traits it does
//! not change with [`forward!`], which lists every method of every trait here, in one place: a
//! method added to a trait is added there too, and then no wrapper can drop it. [`Heuristic`]
//! builds on [`Stored`] because its budgeted successors are asked for with the move tag.

use std::hash::Hash;

use bytemuck::Pod;

/// A state space searched by the engine: what every search needs of a game.
///
/// States are small packed values: integers or fixed arrays of bits (`Pod`: plain bytes, which
/// the engine stores cut to [`Layout::bytes`]). Every move costs 1.
pub trait Space: Sync {
    /// A packed position. Equal states are the same search node.
    type State: Pod + Eq + Hash + Send + Sync;

    /// The start position.
    fn start(&self) -> Self::State;

    /// Appends every successor of `state` to `out` (which the engine clears beforehand and reuses
    /// for the next state, so a game should not allocate here). Duplicates are allowed.
    fn successors(&self, state: &Self::State, out: &mut Vec<Self::State>);

    /// Whether `state` solves the puzzle.
    fn is_goal(&self, state: &Self::State) -> bool;

    /// Maps a state to the representative of its equivalence class (e.g. interchangeable pieces
    /// sorted, or the least of a position's mirror images). The engine applies it to every
    /// successor before looking it up. The states of one class must be alike in
    /// [`Space::is_goal`], [`Heuristic::work_left`] and distance to a goal, so that a successor
    /// may be tested before it is made canonical. Default: identity.
    #[inline]
    fn canonical(&self, state: Self::State) -> Self::State {
        state
    }
}

/// How the engine stores the states of a space, one description read once per search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// How many bytes of a state (in memory, little-endian words: low bytes first) can be
    /// other than zero; the engine stores only those. A sliding-block key of 41 bits in a
    /// `u64` takes 6.
    pub bytes: usize,
    /// Whether every move can be undone by one move: the successors of a state (given no move
    /// tag, and after [`Space::canonical`]) include every state it is a successor of. The
    /// engine then keeps no parent links: a path is rebuilt backwards from the goal by
    /// regenerating each state's neighbours and looking them up, and A* keeps depths modulo
    /// 256 (see [`super::arena::Depths`]).
    pub reversible: bool,
    /// Whether the space tags its moves ([`Stored::move_tag`]): the engine then keeps one byte
    /// per stored state, and hands it to [`Stored::successors_after`]. Why a byte and not the
    /// parent: a reversible space keeps no parent links, and what a game wants of the parent
    /// (which piece moved last) fits in one byte.
    pub tagged: bool,
}

impl Layout {
    /// Every byte of a `S` stored, parent links kept, no move tags.
    pub const fn plain<S>() -> Layout {
        Layout {
            bytes: size_of::<S>(),
            reversible: false,
            tagged: false,
        }
    }
}

/// The capability of the searches that store states: how they are stored, and the tags of the
/// moves that reached them.
pub trait Stored: Space {
    /// How the engine stores this space's states. Default: [`Layout::plain`].
    fn layout(&self) -> Layout {
        Layout::plain::<Self::State>()
    }

    /// A byte saying which move leads from `parent` to `state` (one of its successors, after
    /// [`Space::canonical`]), e.g. the piece that moved; `None` (or 255) tags nothing. Asked
    /// once per successor generated, and kept only where [`Layout::tagged`]. Default: `None`.
    #[inline]
    fn move_tag(&self, _state: &Self::State, _parent: &Self::State) -> Option<u8> {
        None
    }

    /// [`Space::successors`] of a state the engine reached by the move tagged `came_by`
    /// ([`Stored::move_tag`]; `None` for the start, and in a space that tags no moves). A game
    /// may skip successors that are certainly no closer to the start than `state` (e.g. moving
    /// the piece that was just moved again). Default: [`Space::successors`].
    #[inline]
    fn successors_after(
        &self,
        state: &Self::State,
        _came_by: Option<u8>,
        out: &mut Vec<Self::State>,
    ) {
        self.successors(state, out)
    }
}

/// The capability of the informed searches (A*, its ordered and round-by-round forms, beams):
/// a bound on the moves left, and a measure of the work left.
pub trait Heuristic: Stored {
    /// A lower bound on the moves still needed from `state` (admissible, and consistent:
    /// it drops by at most 1 per move), asked once per generated successor. `None` when
    /// `state` provably cannot reach a goal: it is then neither stored nor expanded.
    fn heuristic(&self, state: &Self::State) -> Option<u32>;

    /// [`Heuristic::heuristic`] where only values up to `limit` matter, as under a move budget:
    /// the same value when it is at most `limit` (and `None` for a dead state), otherwise any
    /// value above `limit`. A game whose bound is the largest of several can stop at the first
    /// part above `limit`. Default: [`Heuristic::heuristic`].
    #[inline]
    fn heuristic_within(&self, state: &Self::State, _limit: u32) -> Option<u32> {
        self.heuristic(state)
    }

    /// The successors of `state` (reached by the move tagged `came_by`, as in
    /// [`Stored::successors_after`]; after [`Space::canonical`]) whose bound is at most `limit`,
    /// each with its bound ([`Heuristic::heuristic_within`]), pushed to `out`; returns how many
    /// others were above `limit` (dead ones are not counted). Used under a move budget
    /// (`u32::MAX` without one). A game can skip the rest of a successor's work once its bound
    /// is out. `scratch` is the default's buffer. Default: [`Stored::successors_after`], then
    /// [`Heuristic::heuristic_within`] of each.
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
        self.successors_after(state, came_by, scratch);
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
    /// first: not a bound, but what makes a state likelier to be close to a goal than another
    /// of the same bound. The searches that look at the likeliest states first rank by it: a
    /// [`super::beam`] keeps the states with the least work left (before those with a smaller
    /// heuristic), and [`super::astar::ordered_astar`] expands the states one move from its
    /// bound with the least work left first. The optimal searches' answers never depend on it.
    /// Default: 0.
    #[inline]
    fn work_left(&self, _state: &Self::State) -> u32 {
        0
    }
}

/// The capability of the searches that stop at a move budget.
pub trait MoveBudget: Space {
    /// The most moves a solution may have, or `None` for no bound. [`super::bfs`] and
    /// [`super::astar`] stop, `Exhausted`, before expanding anything that could only lead to
    /// longer solutions: [`super::bfs`] after layer `max_depth`, [`super::astar`] before the
    /// first f above it (and it stores no state whose f is above it); of the states
    /// `max_depth` moves from the start they keep only the goals. [`super::Bounded`] lays one
    /// over any space. Default: `None`.
    fn max_depth(&self) -> Option<u32> {
        None
    }
}

/// Implements a trait of this module for a wrapper by handing every method to the space it
/// wraps: `forward!(impl[P: Heuristic] Heuristic for Bounded<'_, P> => space);` forwards to
/// `self.space` (the core trait names the wrapped type too: `=> space: P`). A wrapper
/// implements by hand only the traits it changes.
macro_rules! forward {
    (impl[$($generics:tt)*] Space for $wrapper:ty => $field:ident: $inner:ty) => {
        impl<$($generics)*> $crate::engine::Space for $wrapper {
            type State = <$inner as $crate::engine::Space>::State;
            #[inline]
            fn start(&self) -> Self::State {
                $crate::engine::Space::start(self.$field)
            }
            #[inline]
            fn successors(&self, state: &Self::State, out: &mut Vec<Self::State>) {
                $crate::engine::Space::successors(self.$field, state, out)
            }
            #[inline]
            fn is_goal(&self, state: &Self::State) -> bool {
                $crate::engine::Space::is_goal(self.$field, state)
            }
            #[inline]
            fn canonical(&self, state: Self::State) -> Self::State {
                $crate::engine::Space::canonical(self.$field, state)
            }
        }
    };
    (impl[$($generics:tt)*] Stored for $wrapper:ty => $field:ident) => {
        impl<$($generics)*> $crate::engine::Stored for $wrapper {
            fn layout(&self) -> $crate::engine::Layout {
                $crate::engine::Stored::layout(self.$field)
            }
            #[inline]
            fn move_tag(&self, state: &Self::State, parent: &Self::State) -> Option<u8> {
                $crate::engine::Stored::move_tag(self.$field, state, parent)
            }
            #[inline]
            fn successors_after(
                &self,
                state: &Self::State,
                came_by: Option<u8>,
                out: &mut Vec<Self::State>,
            ) {
                $crate::engine::Stored::successors_after(self.$field, state, came_by, out)
            }
        }
    };
    (impl[$($generics:tt)*] Heuristic for $wrapper:ty => $field:ident) => {
        impl<$($generics)*> $crate::engine::Heuristic for $wrapper {
            #[inline]
            fn heuristic(&self, state: &Self::State) -> Option<u32> {
                $crate::engine::Heuristic::heuristic(self.$field, state)
            }
            #[inline]
            fn heuristic_within(&self, state: &Self::State, limit: u32) -> Option<u32> {
                $crate::engine::Heuristic::heuristic_within(self.$field, state, limit)
            }
            #[inline]
            fn successors_within(
                &self,
                state: &Self::State,
                came_by: Option<u8>,
                limit: u32,
                scratch: &mut Vec<Self::State>,
                out: &mut Vec<(Self::State, u32)>,
            ) -> u64 {
                $crate::engine::Heuristic::successors_within(
                    self.$field,
                    state,
                    came_by,
                    limit,
                    scratch,
                    out,
                )
            }
            #[inline]
            fn work_left(&self, state: &Self::State) -> u32 {
                $crate::engine::Heuristic::work_left(self.$field, state)
            }
        }
    };
    (impl[$($generics:tt)*] MoveBudget for $wrapper:ty => $field:ident) => {
        impl<$($generics)*> $crate::engine::MoveBudget for $wrapper {
            fn max_depth(&self) -> Option<u32> {
                $crate::engine::MoveBudget::max_depth(self.$field)
            }
        }
    };
}

pub(crate) use forward;
