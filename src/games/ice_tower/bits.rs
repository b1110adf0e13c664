//! Fixed-size bit sets of board cells ([`Bits`]) and packed search states ([`Key`]).
//!
//! Hand-packed `[u64; N]` rather than `bitvec::array::BitArray`: the search lives on whole-board
//! shifts (flood fills, push candidates), first/last set bit inside a masked ray, and word-wise
//! and/or. `BitArray` has no whole-array shift by a small amount that compiles to a couple of
//! instructions per word (its `shift_start` moves bit ranges through the generic `BitSlice`
//! machinery), so the same flood fill of W-21's hall measured about 80 times slower with it
//! (1.3 µs against 112 µs, `cargo bench --bench ice_tower -- fill`). With `N` fixed per level,
//! every operation below unrolls to `N` word operations.

use std::hash::{Hash, Hasher};
use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

use serde::{Deserialize, Serialize};
use serde_big_array::BigArray;

/// A set of board cells (bit indices below `64 * N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bits<const N: usize>(pub [u64; N]);

impl<const N: usize> Bits<N> {
    pub const EMPTY: Self = Bits([0; N]);

    #[inline]
    pub fn single(i: usize) -> Self {
        let mut b = Self::EMPTY;
        b.set(i);
        b
    }

    #[inline]
    pub fn has(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }

    #[inline]
    pub fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    pub fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// `self` without the cells of `other`.
    #[inline]
    pub fn minus(self, other: Self) -> Self {
        let mut r = self;
        for (a, b) in r.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
        r
    }

    #[inline]
    pub fn intersects(&self, other: &Self) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }

    /// The smallest index.
    #[inline]
    pub fn lowest(&self) -> Option<usize> {
        (0..N)
            .find(|&i| self.0[i] != 0)
            .map(|i| i * 64 + self.0[i].trailing_zeros() as usize)
    }

    /// The largest index.
    #[inline]
    pub fn highest(&self) -> Option<usize> {
        (0..N)
            .rev()
            .find(|&i| self.0[i] != 0)
            .map(|i| i * 64 + 63 - self.0[i].leading_zeros() as usize)
    }

    /// The `width` bits (at most 64) from index `offset`, as the low bits of a word.
    #[inline]
    pub fn get(&self, offset: usize, width: usize) -> u64 {
        get_field(&self.0, offset, width)
    }

    /// Sets the `width` bits (at most 64) from index `offset` to the low bits of `value`.
    #[inline]
    pub fn put(&mut self, offset: usize, width: usize, value: u64) {
        put_field(&mut self.0, offset, width, value)
    }

    /// The indices in increasing order.
    #[inline]
    pub fn ones(self) -> Ones<N> {
        Ones {
            bits: self,
            word: 0,
        }
    }
}

/// A word-wise binary operator on board sets.
macro_rules! word_wise {
    ($trait:ident, $method:ident, $assign:tt) => {
        impl<const N: usize> $trait for Bits<N> {
            type Output = Self;
            #[inline]
            fn $method(mut self, o: Self) -> Self {
                for (a, b) in self.0.iter_mut().zip(o.0) {
                    *a $assign b;
                }
                self
            }
        }
    };
}

word_wise!(BitAnd, bitand, &=);
word_wise!(BitOr, bitor, |=);
word_wise!(BitXor, bitxor, ^=);

impl<const N: usize> Not for Bits<N> {
    type Output = Self;
    #[inline]
    fn not(mut self) -> Self {
        for a in self.0.iter_mut() {
            *a = !*a;
        }
        self
    }
}

impl<const N: usize> Shl<u32> for Bits<N> {
    type Output = Self;
    /// Every index moved up by `k` (0 < k < 64); bits pushed past the end are lost.
    #[inline]
    fn shl(self, k: u32) -> Self {
        Bits(std::array::from_fn(|i| {
            let carry = if i > 0 { self.0[i - 1] >> (64 - k) } else { 0 };
            self.0[i] << k | carry
        }))
    }
}

impl<const N: usize> Shr<u32> for Bits<N> {
    type Output = Self;
    /// Every index moved down by `k` (0 < k < 64); bits pushed below 0 are lost.
    #[inline]
    fn shr(self, k: u32) -> Self {
        Bits(std::array::from_fn(|i| {
            let carry = if i + 1 < N {
                self.0[i + 1] << (64 - k)
            } else {
                0
            };
            self.0[i] >> k | carry
        }))
    }
}

/// Iterator over the set indices of a [`Bits`].
pub struct Ones<const N: usize> {
    bits: Bits<N>,
    word: usize,
}

impl<const N: usize> Iterator for Ones<N> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < N {
            let w = &mut self.bits.0[self.word];
            if *w != 0 {
                let i = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(self.word * 64 + i);
            }
            self.word += 1;
        }
        None
    }
}

/// A set of fire indices: a plain `u64` when a level has at most 64 fires (every bound then
/// works on single words), else a [`Bits`].
pub trait FireSet: Copy + PartialEq + Send + Sync + 'static {
    const EMPTY: Self;
    fn insert(&mut self, j: usize);
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    fn minus(self, other: Self) -> Self;
    fn is_empty(&self) -> bool;
    fn count(&self) -> u32;
    fn intersects(&self, other: &Self) -> bool;
    /// Calls `f` with every index, in increasing order.
    fn for_each(self, f: impl FnMut(usize));
    /// The set as one word, where the type is one word.
    fn as_word(&self) -> Option<u64>;
}

impl FireSet for u64 {
    const EMPTY: Self = 0;
    #[inline]
    fn insert(&mut self, j: usize) {
        *self |= 1 << j;
    }
    #[inline]
    fn and(self, other: Self) -> Self {
        self & other
    }
    #[inline]
    fn or(self, other: Self) -> Self {
        self | other
    }
    #[inline]
    fn minus(self, other: Self) -> Self {
        self & !other
    }
    #[inline]
    fn is_empty(&self) -> bool {
        *self == 0
    }
    #[inline]
    fn count(&self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn intersects(&self, other: &Self) -> bool {
        self & other != 0
    }
    #[inline]
    fn as_word(&self) -> Option<u64> {
        Some(*self)
    }
    #[inline]
    fn for_each(mut self, mut f: impl FnMut(usize)) {
        while self != 0 {
            f(self.trailing_zeros() as usize);
            self &= self - 1;
        }
    }
}

impl<const N: usize> FireSet for Bits<N> {
    const EMPTY: Self = Bits([0; N]);
    #[inline]
    fn insert(&mut self, j: usize) {
        self.set(j);
    }
    #[inline]
    fn and(self, other: Self) -> Self {
        self & other
    }
    #[inline]
    fn or(self, other: Self) -> Self {
        self | other
    }
    #[inline]
    fn minus(self, other: Self) -> Self {
        Bits::minus(self, other)
    }
    #[inline]
    fn is_empty(&self) -> bool {
        Bits::is_empty(self)
    }
    #[inline]
    fn count(&self) -> u32 {
        Bits::count(self)
    }
    #[inline]
    fn intersects(&self, other: &Self) -> bool {
        Bits::intersects(self, other)
    }
    #[inline]
    fn for_each(self, f: impl FnMut(usize)) {
        self.ones().for_each(f);
    }
    #[inline]
    fn as_word(&self) -> Option<u64> {
        None
    }
}

/// A packed search state: `K` words holding bit fields (see [`super::keys::KeyLayout`]).
/// Serialisable for the distributed backend, which sends states between workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(transparent)]
pub struct Key<const K: usize>(#[serde(with = "BigArray")] pub [u64; K]);

// SAFETY: a transparent wrapper of `[u64; K]`: no padding, and any bits are a key (the engine
// stores keys as bytes).
unsafe impl<const K: usize> bytemuck::Zeroable for Key<K> {}
unsafe impl<const K: usize> bytemuck::Pod for Key<K> {}

impl<const K: usize> Key<K> {
    pub const ZERO: Self = Key([0; K]);

    /// The `width` bits (at most 64) at bit `offset`.
    #[inline]
    pub fn get(&self, offset: usize, width: usize) -> u64 {
        get_field(&self.0, offset, width)
    }

    /// Sets the `width` bits (at most 64) at bit `offset` to `value`.
    #[inline]
    pub fn put(&mut self, offset: usize, width: usize, value: u64) {
        put_field(&mut self.0, offset, width, value)
    }

    #[inline]
    pub fn flip(&mut self, i: usize) {
        self.0[i / 64] ^= 1 << (i % 64);
    }

    /// The `width` bits at `offset` as a bit set (its bit 0 is the field's first bit).
    #[inline]
    pub fn get_bits<const N: usize>(&self, offset: usize, width: usize) -> Bits<N> {
        let mut b = Bits::<N>::EMPTY;
        let mut done = 0;
        while done < width {
            let take = (width - done).min(64);
            b.0[done / 64] = self.get(offset + done, take);
            done += take;
        }
        b
    }

    /// Stores the first `width` bits of `bits` at `offset`.
    #[inline]
    pub fn put_bits<const N: usize>(&mut self, offset: usize, width: usize, bits: &Bits<N>) {
        let mut done = 0;
        while done < width {
            let take = (width - done).min(64);
            self.put(offset + done, take, bits.0[done / 64]);
            done += take;
        }
    }
}

/// The `width` bits (at most 64) of `words` at bit `offset`.
#[inline]
fn get_field(words: &[u64], offset: usize, width: usize) -> u64 {
    let (w, s) = (offset / 64, offset % 64);
    let mut v = words[w] >> s;
    if s + width > 64 {
        v |= words[w + 1] << (64 - s);
    }
    v & mask(width)
}

/// Sets the `width` bits (at most 64) of `words` at bit `offset` to `value`.
#[inline]
fn put_field(words: &mut [u64], offset: usize, width: usize, value: u64) {
    let (w, s) = (offset / 64, offset % 64);
    let m = mask(width);
    let value = value & m;
    words[w] = words[w] & !(m << s) | value << s;
    if s + width > 64 {
        let spill = 64 - s;
        words[w + 1] = words[w + 1] & !(m >> spill) | value >> spill;
    }
}

#[inline]
fn mask(width: usize) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    }
}

impl<const K: usize> Hash for Key<K> {
    /// Word by word, without the length prefix a slice hash would add.
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        for w in self.0 {
            state.write_u64(w);
        }
    }
}
