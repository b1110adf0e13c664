//! Bitboards of grid cells for the search, and the masked unit-step shift every flood fill and
//! halo is made of. Hand-packed integers rather than `bitvec` arrays: the search needs
//! whole-board shifts and masks in a handful of instructions, which `u64`/`u128` give directly
//! (see `ARCHITECTURE.md`).
//!
//! [`Bits`] is a set of grid cells (row-major): `u64` or `u128` for the boards of the corpus,
//! [`Wide`] (the shared word-array set of `games/packed/`) beyond. A state is the shared
//! [`Key`], one [`Field`] per block slot, fields never straddling a word.

pub use crate::games::packed::bits::Bits as Wide;
pub use crate::games::packed::key::{Field, Key};

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

impl<const W: usize> Bits for Wide<W> {
    const CAPACITY: usize = 64 * W;
    #[inline]
    fn empty() -> Self {
        Wide::EMPTY
    }
    #[inline]
    fn insert(&mut self, i: usize) {
        self.set(i);
    }
    #[inline]
    fn contains(&self, i: usize) -> bool {
        self.has(i)
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
        self.minus(other)
    }
    fn shl(self, n: usize) -> Self {
        self.shifted_up(n)
    }
    fn shr(self, n: usize) -> Self {
        self.shifted_down(n)
    }
    #[inline]
    fn is_empty(&self) -> bool {
        Wide::is_empty(self)
    }
    #[inline]
    fn pop_lowest(&mut self) -> Option<usize> {
        Wide::pop_lowest(self)
    }
}

/// Unit steps on a row-major grid of `stride` cells a row: the masks that keep a shift by one
/// column from wrapping into the next row.
#[derive(Clone, Copy)]
pub struct Steps<M> {
    stride: usize,
    /// Grid cells not in the first column, and not in the last: the cells a shift left or right
    /// by one may start from without wrapping.
    not_first_column: M,
    not_last_column: M,
}

impl<M: Bits> Steps<M> {
    /// For the first `cells` cells of a grid `stride` cells wide.
    pub fn new(cells: usize, stride: usize) -> Self {
        let mut not_first_column = M::empty();
        let mut not_last_column = M::empty();
        for i in 0..cells {
            if i % stride != 0 {
                not_first_column.insert(i);
            }
            if i % stride != stride - 1 {
                not_last_column.insert(i);
            }
        }
        Steps {
            stride,
            not_first_column,
            not_last_column,
        }
    }

    /// The cells one unit step from a cell of `m` (cells of `m` among them where two of its
    /// cells are neighbours; cells off the board too, for the caller to mask).
    #[inline]
    pub fn around(&self, m: M) -> M {
        m.and(self.not_last_column)
            .shl(1)
            .or(m.and(self.not_first_column).shr(1))
            .or(m.shl(self.stride))
            .or(m.shr(self.stride))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a 3-wide grid, the steps from a cell of the first and of the last column stay in
    /// their row, and the wide sets take the same steps as the native ones.
    #[test]
    fn steps_never_wrap_rows() {
        let cells = |m: u64| (0..64).filter(|&i| m.contains(i)).collect::<Vec<_>>();
        let steps = Steps::<u64>::new(9, 3);
        assert_eq!(cells(steps.around(1 << 3)), [0, 4, 6]);
        assert_eq!(cells(steps.around(1 << 5)), [2, 4, 8]);
        let wide = Steps::<Wide<2>>::new(9, 3);
        let mut from = Wide::EMPTY;
        from.set(5);
        assert_eq!(wide.around(from).ones().collect::<Vec<_>>(), [2, 4, 8]);
    }
}
