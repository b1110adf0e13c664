//! Fixed-size bit sets and packed keys for the search (hand-packed integers: see
//! `ARCHITECTURE.md` for why not bitvec here).
//!
//! [`CellSet`] is a set of board cells (or of one shape's placements, which never outnumber the
//! cells): `u128` for the boards of the corpus, [`Wide`] beyond. [`Key`] is a state: one
//! fixed-width field per block slot, packed into `N` words, fields never straddling a word.

use std::hash::{Hash, Hasher};

/// A set of small indices (board cells or placements) in a fixed number of bits.
pub trait CellSet: Copy + Send + Sync + 'static {
    /// How many indices fit.
    const CAPACITY: usize;
    fn empty() -> Self;
    fn insert(&mut self, i: usize);
    fn contains(&self, i: usize) -> bool;
    fn union(self, other: Self) -> Self;
    /// Symmetric difference; on disjoint sets, removal of `other` from a union.
    fn xor(self, other: Self) -> Self;
    fn is_disjoint(&self, other: &Self) -> bool;
    /// Removes and returns the smallest index.
    fn pop_lowest(&mut self) -> Option<usize>;
}

impl CellSet for u128 {
    const CAPACITY: usize = 128;
    #[inline]
    fn empty() -> Self {
        0
    }
    #[inline]
    fn insert(&mut self, i: usize) {
        *self |= 1 << i;
    }
    #[inline]
    fn contains(&self, i: usize) -> bool {
        *self >> i & 1 != 0
    }
    #[inline]
    fn union(self, other: Self) -> Self {
        self | other
    }
    #[inline]
    fn xor(self, other: Self) -> Self {
        self ^ other
    }
    #[inline]
    fn is_disjoint(&self, other: &Self) -> bool {
        self & other == 0
    }
    #[inline]
    fn pop_lowest(&mut self) -> Option<usize> {
        if *self == 0 {
            return None;
        }
        let i = self.trailing_zeros() as usize;
        *self &= *self - 1;
        Some(i)
    }
}

/// A set of up to `64 * W` indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wide<const W: usize>([u64; W]);

impl<const W: usize> CellSet for Wide<W> {
    const CAPACITY: usize = 64 * W;
    #[inline]
    fn empty() -> Self {
        Wide([0; W])
    }
    #[inline]
    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    #[inline]
    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }
    #[inline]
    fn union(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        self
    }
    #[inline]
    fn xor(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a ^= b;
        }
        self
    }
    #[inline]
    fn is_disjoint(&self, other: &Self) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & b == 0)
    }
    #[inline]
    fn pop_lowest(&mut self) -> Option<usize> {
        let w = self.0.iter().position(|&w| w != 0)?;
        let i = self.0[w].trailing_zeros() as usize;
        self.0[w] &= self.0[w] - 1;
        Some(w * 64 + i)
    }
}

/// Where one field lives in a [`Key`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub word: u8,
    pub shift: u8,
    pub mask: u64,
}

impl Field {
    /// Lays out fields of the given bit widths into as few words as possible in order, never
    /// across a word boundary; returns them and the number of words used.
    pub fn layout(widths: &[u32]) -> (Vec<Field>, usize) {
        let (mut word, mut used) = (0usize, 0u32);
        let fields = widths
            .iter()
            .map(|&width| {
                if used + width > 64 {
                    word += 1;
                    used = 0;
                }
                let field = Field {
                    word: word as u8,
                    shift: used as u8,
                    mask: if width == 0 {
                        0
                    } else {
                        u64::MAX >> (64 - width)
                    },
                };
                used += width;
                field
            })
            .collect();
        (fields, word + 1)
    }
}

/// A packed state: `N` words of fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key<const N: usize>(pub [u64; N]);

impl<const N: usize> Key<N> {
    pub const ZERO: Self = Key([0; N]);

    #[inline]
    pub fn get(&self, f: Field) -> u32 {
        (self.0[f.word as usize] >> f.shift & f.mask) as u32
    }

    #[inline]
    pub fn set(&mut self, f: Field, value: u32) {
        let w = &mut self.0[f.word as usize];
        *w = *w & !(f.mask << f.shift) | (u64::from(value) & f.mask) << f.shift;
    }

    #[inline]
    pub fn with(mut self, f: Field, value: u32) -> Self {
        self.set(f, value);
        self
    }

    #[inline]
    pub fn and(mut self, other: &Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= b;
        }
        self
    }
}

impl<const N: usize> Hash for Key<N> {
    /// Word by word, without the length prefix a slice hash would add.
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        for w in self.0 {
            state.write_u64(w);
        }
    }
}
