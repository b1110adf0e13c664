//! frontier: a parallel batch solver and benchmark harness for grid puzzle games.
//!
//! - [`engine`]: game-agnostic parallel searches over packed states (knows no game).
//! - [`distributed`]: the same searches on timely dataflow workers across processes and hosts.
//! - [`search`]: the searches games call, on the backend their level's control names.
//! - [`games`]: one module per game: level parsing, rules, state packing, notation.
//! - [`harness`]: finding levels, solving whole corpora in parallel, checking, CSV results.
//! - [`show`]: pictures of levels and replayed solutions (terminal text, animated SVG).
//! - [`words`]: numbers in messages (`1 move`, `2 moves`).
//!
//! See `ARCHITECTURE.md` for the map of the code.

pub mod distributed;
pub mod engine;
pub mod external;
pub mod games;
pub mod harness;
pub mod search;
pub mod show;
pub mod words;
