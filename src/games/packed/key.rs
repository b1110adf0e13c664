//! The packed search state of sliding blocks and Ice Tower: [`Key`], `N` words of bit fields.
//!
//! A key is `bytemuck::Pod` (the engine stores a state's first bytes in its arena), hashes word
//! by word (the visited sets hash every state offered, and the distributed backend sends a state
//! to the worker its hash names, so the hash is part of the format), and serialises as its
//! words. Two ways to reach a field, one per game's layout:
//!
//! - a [`Field`] (word, shift, mask), laid out by [`Field::layout`] so that no field straddles a
//!   word: one shift and one mask per access (sliding blocks: one field per block slot);
//! - an offset and a width anywhere in the key, a field spilling into the next word where it
//!   must (Ice Tower packs regular ice, golden ice and fires back to back to save a word).

use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};
use serde_big_array::BigArray;

use super::bits::Bits;

/// A packed state: `N` words of fields. Serialisable for the distributed backend, which sends
/// states between workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(transparent)]
pub struct Key<const N: usize>(#[serde(with = "BigArray")] pub [u64; N]);

// SAFETY: a transparent wrapper of `[u64; N]`: no padding, and any bits are a key (the engine
// stores keys as bytes).
unsafe impl<const N: usize> bytemuck::Zeroable for Key<N> {}
unsafe impl<const N: usize> bytemuck::Pod for Key<N> {}

impl<const N: usize> Hash for Key<N> {
    /// Word by word, without the length prefix a slice hash would add.
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        for w in self.0 {
            state.write_u64(w);
        }
    }
}

/// Where one field lives in a [`Key`], inside one word.
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

impl<const N: usize> Key<N> {
    pub const ZERO: Self = Key([0; N]);

    /// The value of a field laid out by [`Field::layout`].
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

    /// Word-wise and.
    #[inline]
    pub fn and(mut self, other: &Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= b;
        }
        self
    }

    /// The `width` bits (at most 64) at bit `offset`.
    #[inline]
    pub fn get_at(&self, offset: usize, width: usize) -> u64 {
        get_field(&self.0, offset, width)
    }

    /// Sets the `width` bits (at most 64) at bit `offset` to `value`.
    #[inline]
    pub fn put_at(&mut self, offset: usize, width: usize, value: u64) {
        put_field(&mut self.0, offset, width, value)
    }

    #[inline]
    pub fn flip(&mut self, i: usize) {
        self.0[i / 64] ^= 1 << (i % 64);
    }

    /// The `width` bits at `offset` as a bit set (its bit 0 is the field's first bit).
    #[inline]
    pub fn get_bits<const W: usize>(&self, offset: usize, width: usize) -> Bits<W> {
        let mut b = Bits::<W>::EMPTY;
        let mut done = 0;
        while done < width {
            let take = (width - done).min(64);
            b.0[done / 64] = self.get_at(offset + done, take);
            done += take;
        }
        b
    }

    /// Stores the first `width` bits of `bits` at `offset`.
    #[inline]
    pub fn put_bits<const W: usize>(&mut self, offset: usize, width: usize, bits: &Bits<W>) {
        let mut done = 0;
        while done < width {
            let take = (width - done).min(64);
            self.put_at(offset + done, take, bits.0[done / 64]);
            done += take;
        }
    }
}

/// The `width` bits (at most 64) of `words` at bit `offset`.
#[inline]
pub(super) fn get_field(words: &[u64], offset: usize, width: usize) -> u64 {
    let (w, s) = (offset / 64, offset % 64);
    let mut v = words[w] >> s;
    if s + width > 64 {
        v |= words[w + 1] << (64 - s);
    }
    v & mask(width)
}

/// Sets the `width` bits (at most 64) of `words` at bit `offset` to `value`.
#[inline]
pub(super) fn put_field(words: &mut [u64], offset: usize, width: usize, value: u64) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
