//! Fixed-size bitboards and packed keys for the search. Both are hand-packed integers rather than
//! `bitvec` arrays: the search needs whole-board shifts and masks in a handful of instructions,
//! which `u64`/`u128` give directly (see `ARCHITECTURE.md`).
//!
//! [`Bits`] is a set of grid cells (row-major with one padding column, so a shift by one never
//! wraps a row): `u64` or `u128` for the boards of the corpus, [`Wide`] beyond. [`Key`] is a
//! state: one fixed-width field per block slot, packed into `N` words, fields never straddling a
//! word.

use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};
use serde_big_array::BigArray;

/// A set of grid cells in a fixed number of bits, with whole-set shifts.
pub trait Bits: Copy + Eq + Send + Sync + 'static {
    /// How many cells fit.
    const CAPACITY: usize;
    fn empty() -> Self;
    fn insert(&mut self, i: usize);
    fn contains(&self, i: usize) -> bool;
    fn or(self, other: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn and_not(self, other: Self) -> Self;
    /// Cells moved `n` places up in index (toward the end of the grid).
    fn shl(self, n: usize) -> Self;
    /// Cells moved `n` places down in index.
    fn shr(self, n: usize) -> Self;
    fn is_empty(&self) -> bool;
    /// Removes and returns the smallest cell.
    fn pop_lowest(&mut self) -> Option<usize>;
}

macro_rules! native_bits {
    ($t:ty) => {
        impl Bits for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
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
            fn or(self, other: Self) -> Self {
                self | other
            }
            #[inline]
            fn and(self, other: Self) -> Self {
                self & other
            }
            #[inline]
            fn and_not(self, other: Self) -> Self {
                self & !other
            }
            #[inline]
            fn shl(self, n: usize) -> Self {
                self << n
            }
            #[inline]
            fn shr(self, n: usize) -> Self {
                self >> n
            }
            #[inline]
            fn is_empty(&self) -> bool {
                *self == 0
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
    };
}

native_bits!(u64);
native_bits!(u128);

/// A set of up to `64 * W` cells, for boards beyond 128 grid cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wide<const W: usize>([u64; W]);

impl<const W: usize> Wide<W> {
    #[inline]
    fn zip(mut self, other: Self, f: impl Fn(u64, u64) -> u64) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a = f(*a, b);
        }
        self
    }
}

impl<const W: usize> Bits for Wide<W> {
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
    fn or(self, other: Self) -> Self {
        self.zip(other, |a, b| a | b)
    }
    #[inline]
    fn and(self, other: Self) -> Self {
        self.zip(other, |a, b| a & b)
    }
    #[inline]
    fn and_not(self, other: Self) -> Self {
        self.zip(other, |a, b| a & !b)
    }
    fn shl(self, n: usize) -> Self {
        let (words, bits) = (n / 64, n % 64);
        let mut out = [0u64; W];
        for i in (words..W).rev() {
            let lo = self.0[i - words];
            out[i] = lo << bits;
            if bits > 0 && i > words {
                out[i] |= self.0[i - words - 1] >> (64 - bits);
            }
        }
        Wide(out)
    }
    fn shr(self, n: usize) -> Self {
        let (words, bits) = (n / 64, n % 64);
        let mut out = [0u64; W];
        for (i, word) in out.iter_mut().enumerate().take(W.saturating_sub(words)) {
            *word = self.0[i + words] >> bits;
            if bits > 0 && i + words + 1 < W {
                *word |= self.0[i + words + 1] << (64 - bits);
            }
        }
        Wide(out)
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
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
    /// Lays out fields of the given bit widths (each at most 32) in order into as few words as
    /// possible, never across a word boundary; returns them and the number of words used.
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

/// A packed state: `N` words of fields. Serialisable for the distributed backend, which sends
/// states between workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(transparent)]
pub struct Key<const N: usize>(#[serde(with = "BigArray")] pub [u64; N]);

// SAFETY: a transparent wrapper of `[u64; N]`: no padding, and any bits are a key (the engine
// stores keys as bytes).
unsafe impl<const N: usize> bytemuck::Zeroable for Key<N> {}
unsafe impl<const N: usize> bytemuck::Pod for Key<N> {}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// The wide shifts agree with `u128` shifts bit for bit.
    #[test]
    fn wide_shifts_match_native_ones() {
        let x: u128 = 0xdead_beef_0123_4567_89ab_cdef_f00d_cafe;
        let wide = Wide::<2>([x as u64, (x >> 64) as u64]);
        for n in [0, 1, 5, 63, 64, 65, 100, 127] {
            let as_u128 = |w: Wide<2>| u128::from(w.0[0]) | u128::from(w.0[1]) << 64;
            assert_eq!(as_u128(wide.shl(n)), x << n, "shl {n}");
            assert_eq!(as_u128(wide.shr(n)), x >> n, "shr {n}");
        }
    }

    #[test]
    fn fields_never_straddle_words() {
        let (fields, words) = Field::layout(&[30, 30, 30, 7]);
        assert_eq!(words, 2);
        assert_eq!((fields[2].word, fields[2].shift), (1, 0));
        let mut key = Key::<2>::ZERO;
        for (i, f) in fields.iter().enumerate() {
            key.set(*f, 100 + i as u32);
        }
        let read: Vec<u32> = fields.iter().map(|&f| key.get(f)).collect();
        assert_eq!(read, [100, 101, 102, 103]);
    }
}
