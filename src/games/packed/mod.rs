//! What the two games with hand-packed states hold alike: sliding blocks and Ice Tower.
//!
//! - [`key`]: the packed search state, `N` words of bit fields, hashed word by word; read and
//!   written through fields that never straddle a word (sliding blocks' [`key::Field`]) or at
//!   any bit offset (Ice Tower's key layout).
//! - [`bits`]: a set of board cells in `N` words, with word-wise set operations and whole-board
//!   shifts (Ice Tower's boards, sliding blocks' boards beyond 128 grid cells).
//! - [`draw`]: the frames of a replayed solution, from the checker's own replay.
//!
//! Each game keeps its own numbering of cells, its key layout and its rules; this module knows
//! neither game.

pub mod bits;
pub mod draw;
pub mod key;
