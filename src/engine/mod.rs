//! The search engine: game-agnostic searches over packed states.
//!
//! A game describes its state space by implementing [`Space`] (start, successors, goals) and
//! the capabilities its searches need: [`Stored`] (how states are stored, move tags),
//! [`Heuristic`] (a bound and the work left, for A* and beams) and [`MoveBudget`] (a move budget);
//! each search requires exactly the capabilities it uses (see [`space`]). The engine knows
//! nothing else about a game. The engine owns threads (rayon), the visited set (a dashmap, see
//! [`visited`]), limits and statistics. A game never sees a thread.
//!
//! - [`bfs`]: parallel level-synchronous frontier breadth-first search (optimal for unit moves).
//! - [`astar`]: parallel best-first search in f-layers for spaces with an admissible heuristic,
//!   and its variant that expands the likeliest last-move states first.
//! - [`bidirectional`]: parallel BFS from both ends, for reversible spaces with one goal state.
//! - [`beam`]: beams that keep the best states of each layer: solutions without proof, fast.
//! - [`explore`]: whole-space BFS from one start or many sources, its layers, shortest-path
//!   counts, and a level's analysis (`frontier analyze`, `frontier generate`).
//! - [`serial`]: the same exploration of a small space on the calling thread, for callers that
//!   run many small spaces side by side (`frontier generate`'s puzzle classes).
//! - [`bounded`]: a move budget laid over a space, so a known solution prunes an optimal search.
//! - [`arena`] and [`visited`]: every state stored once, and the concurrent set of its index.
//! - [`space`]: the core trait and the capability traits, and how wrappers forward them.
//! - [`control`]: limits, live progress counters and the result type shared by both.

pub mod arena;
pub mod astar;
pub mod beam;
pub mod bfs;
pub mod bidirectional;
pub mod bounded;
pub mod control;
pub mod explore;
pub mod serial;
pub mod space;
pub mod visited;

pub use bounded::Bounded;
pub use control::{Limit, SearchControl, SearchOutcome, SearchStats};
pub(crate) use space::forward;
pub use space::{Heuristic, Layout, MoveBudget, Space, Stored};

#[cfg(test)]
mod every_search;
#[cfg(test)]
pub(crate) mod testing;
