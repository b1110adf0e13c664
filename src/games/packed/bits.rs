//! A set of board cells in `N` words ([`Bits`]), for the boards of Ice Tower and sliding blocks'
//! boards beyond 128 grid cells.
//!
//! Hand-packed `[u64; N]` rather than `bitvec::array::BitArray`: the searches live on
//! whole-board shifts (flood fills, push candidates, where a block fits), first/last set bit
//! inside a masked ray, and word-wise and/or. `BitArray` has no whole-array shift by a small
//! amount that compiles to a couple of instructions per word (its `shift_start` moves bit ranges
//! through the generic `BitSlice` machinery), so the same flood fill of W-21's hall measured
//! about 80 times slower with it (1.3 µs against 112 µs, `cargo bench --bench ice_tower --
//! fill`). With `N` fixed per level, every operation below unrolls to `N` word operations.
//! Shifts come in two forms: the operators `<<`/`>>` by less than a word (a step on the board),
//! and [`Bits::shifted_up`]/[`Bits::shifted_down`] by any amount (a block's cell offsets).

use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

use super::key::{get_field, put_field};

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

    /// Every index moved up by `n` (any amount); bits pushed past the end are lost. The
    /// operator `<<` is the cheaper form for 0 < n < 64.
    pub fn shifted_up(self, n: usize) -> Self {
        let (words, bits) = (n / 64, n % 64);
        let mut out = [0u64; N];
        for i in (words..N).rev() {
            out[i] = self.0[i - words] << bits;
            if bits > 0 && i > words {
                out[i] |= self.0[i - words - 1] >> (64 - bits);
            }
        }
        Bits(out)
    }

    /// Every index moved down by `n` (any amount); bits pushed below 0 are lost. The operator
    /// `>>` is the cheaper form for 0 < n < 64.
    pub fn shifted_down(self, n: usize) -> Self {
        let (words, bits) = (n / 64, n % 64);
        let mut out = [0u64; N];
        for (i, word) in out.iter_mut().enumerate().take(N.saturating_sub(words)) {
            *word = self.0[i + words] >> bits;
            if bits > 0 && i + words + 1 < N {
                *word |= self.0[i + words + 1] << (64 - bits);
            }
        }
        Bits(out)
    }

    /// Removes and returns the smallest index.
    #[inline]
    pub fn pop_lowest(&mut self) -> Option<usize> {
        let w = self.0.iter().position(|&w| w != 0)?;
        let i = self.0[w].trailing_zeros() as usize;
        self.0[w] &= self.0[w] - 1;
        Some(w * 64 + i)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn as_u128(b: Bits<2>) -> u128 {
        u128::from(b.0[0]) | u128::from(b.0[1]) << 64
    }

    /// The shifts by any amount agree with `u128` shifts bit for bit.
    #[test]
    fn shifts_by_any_amount_match_native_ones() {
        let x: u128 = 0xdead_beef_0123_4567_89ab_cdef_f00d_cafe;
        let bits = Bits::<2>([x as u64, (x >> 64) as u64]);
        for n in [0, 1, 5, 63, 64, 65, 100, 127] {
            assert_eq!(as_u128(bits.shifted_up(n)), x << n, "shl {n}");
            assert_eq!(as_u128(bits.shifted_down(n)), x >> n, "shr {n}");
        }
        for k in [1, 5, 63] {
            assert_eq!(as_u128(bits << k), x << k, "<< {k}");
            assert_eq!(as_u128(bits >> k), x >> k, ">> {k}");
        }
    }

    #[test]
    fn pop_lowest_takes_the_indices_in_order() {
        let mut bits = Bits::<2>::EMPTY;
        for i in [127, 3, 64] {
            bits.set(i);
        }
        let expected: Vec<usize> = bits.ones().collect();
        assert_eq!(expected, [3, 64, 127]);
        let popped: Vec<usize> = std::iter::from_fn(|| bits.pop_lowest()).collect();
        assert_eq!(popped, expected);
        assert!(bits.is_empty());
    }
}
