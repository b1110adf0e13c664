//! Ice Tower's sets: board cells and packed keys are the shared [`Bits`] and [`Key`]
//! (`games/packed/`); fires are a [`FireSet`], one word where a level has at most 64 fires.

pub use crate::games::packed::bits::Bits;
pub use crate::games::packed::key::Key;

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
