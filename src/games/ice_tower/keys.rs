//! The key layout: which bits of a packed state ([`Key`]) hold what, sized to what each field
//! can ever hold, so that a level's states take as few words as they can.
//!
//! - **Regular ice**: one bit per cell where regular ice can ever rest (open cells but
//!   recyclers, which destroy it), not one per bit of the board numbering: the numbering keeps a
//!   wall column per row for its shifts, and walls inside the box are no cells either. The board
//!   bits are gathered into key bits run by run (a run is a stretch of consecutive cells), a few
//!   shifts and masks per row, so it stays cheap without BMI2 (whose `pext` is microcoded on
//!   older AMD cores). Where that saves no word of the key (W-21: 148 bits or 185, three words
//!   either way), the board bits are kept in place instead, and packing is a copy.
//! - **Golden ice**: `k` golden blocks on `n` open cells as the colex rank of their cell ranks
//!   among the open cells (`⌈log2 C(n, k)⌉` bits: H-49's two blocks on 144 cells take 14
//!   bits, against 16 for two 8-bit cells and 144 for a board set), or, for many golden blocks,
//!   a gathered set of open cells.
//! - **Fires**: one bit per fire of the start that still burns.
//! - **The magician**: a board bit (his region id, or his exact cell with arrows), in as many
//!   bits as the numbering needs.
//!
//! The official H-49 takes 191 bits, three words, where a board set of regular ice with 8-bit
//! cells took 205, four words: 8 bytes less per stored state.

use super::bits::{Bits, Key};
use super::board::Numbering;
use super::rules::{Grid, Tile};

/// The most golden blocks kept as one rank (larger counts are gathered sets).
const MAX_RANKED: usize = 12;

/// Where the golden ice lives in a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoldenField {
    None,
    /// The colex rank of the `count` golden blocks' open-cell ranks, `width` bits.
    Ranked {
        offset: usize,
        count: usize,
        width: usize,
    },
    /// A gathered set of open cells.
    Set {
        offset: usize,
    },
}

/// A set of board bits stored as consecutive key bits, gathered run by run.
#[derive(Clone, Debug)]
pub struct Gather {
    /// Runs of consecutive member bits: (first board bit, first field bit, length).
    runs: Vec<(u16, u16, u8)>,
    /// The field bit of each board bit, `u16::MAX` for bits outside the set.
    field_bit: Vec<u16>,
    /// The board bit of each field bit.
    board_bit: Vec<u16>,
}

impl Gather {
    fn new(bits: usize, member: impl Fn(usize) -> bool) -> Gather {
        let mut runs: Vec<(u16, u16, u8)> = Vec::new();
        let mut field_bit = vec![u16::MAX; bits];
        let mut board_bit = Vec::new();
        for b in (0..bits).filter(|&b| member(b)) {
            let f = board_bit.len() as u16;
            field_bit[b] = f;
            board_bit.push(b as u16);
            match runs.last_mut() {
                Some((start, _, len)) if usize::from(*start) + usize::from(*len) == b => *len += 1,
                _ => runs.push((b as u16, f, 1)),
            }
        }
        Gather {
            runs,
            field_bit,
            board_bit,
        }
    }

    /// Every board bit, in place: for levels where gathering saves no word.
    fn identity(bits: usize) -> Gather {
        let runs = (0..bits)
            .step_by(64)
            .map(|b| (b as u16, b as u16, (bits - b).min(64) as u8))
            .collect();
        Gather {
            runs,
            field_bit: (0..bits as u16).collect(),
            board_bit: (0..bits as u16).collect(),
        }
    }

    /// Bits in the field.
    pub fn width(&self) -> usize {
        self.board_bit.len()
    }

    /// The field bit of a board bit that belongs to the set.
    #[inline]
    pub fn field_bit(&self, board_bit: usize) -> usize {
        usize::from(self.field_bit[board_bit])
    }

    /// Whether a board bit belongs to the set.
    pub fn has(&self, board_bit: usize) -> bool {
        self.field_bit[board_bit] != u16::MAX
    }

    /// Stores the members of `set` in the field at `offset` (other bits of `set` are dropped).
    #[inline]
    pub fn put<const N: usize, const K: usize>(
        &self,
        key: &mut Key<K>,
        offset: usize,
        set: &Bits<N>,
    ) {
        for &(board, field, len) in &self.runs {
            let (len, field) = (usize::from(len), offset + usize::from(field));
            key.put_at(field, len, set.get(usize::from(board), len));
        }
    }

    /// The set stored in the field at `offset`.
    #[inline]
    pub fn get<const N: usize, const K: usize>(&self, key: &Key<K>, offset: usize) -> Bits<N> {
        let mut set = Bits::EMPTY;
        for &(board, field, len) in &self.runs {
            let len = usize::from(len);
            set.put(
                usize::from(board),
                len,
                key.get_at(offset + usize::from(field), len),
            );
        }
        set
    }
}

/// The bit fields of a key.
#[derive(Clone, Debug)]
pub struct KeyLayout {
    /// Regular ice, from key bit 0: the cells where it can rest.
    pub regular: Gather,
    /// The open cells: their ranks for golden ice, or the golden set's field.
    open: Gather,
    pub golden: GoldenField,
    /// `binomial[n][k]` = C(n, k) for the golden rank (k up to the golden count).
    binomial: Vec<Vec<u64>>,
    pub fires_offset: usize,
    pub fire_count: usize,
    pub magician_offset: usize,
    pub magician_width: usize,
    /// Total bits.
    pub bits: usize,
}

impl KeyLayout {
    pub fn new(grid: &Grid, num: &Numbering, golden_count: usize, fire_count: usize) -> KeyLayout {
        let tile = |bit: usize| {
            let cell = num.cell(bit);
            let in_row = bit % num.pitch < num.pitch - 1;
            (in_row && cell < grid.tiles.len()).then(|| grid.tiles[cell])
        };
        let open = Gather::new(num.bits, |b| tile(b).is_some_and(|t| t != Tile::Wall));
        let gathered = Gather::new(num.bits, |b| {
            tile(b).is_some_and(|t| t != Tile::Wall && t != Tile::Recycler)
        });
        let cells = open.width();
        let binomial: Vec<Vec<u64>> = (0..=cells)
            .map(|n| {
                (0..=golden_count.min(MAX_RANKED))
                    .map(|k| choose(n, k).unwrap_or(u64::MAX))
                    .collect()
            })
            .collect();
        let ranks = (golden_count <= MAX_RANKED)
            .then(|| choose(cells, golden_count))
            .flatten()
            .filter(|&c| c < 1 << 63);
        // (ranked, width) of the golden field.
        let golden_field = match (golden_count, ranks) {
            (0, _) => None,
            (_, Some(ranks)) if bits_for(ranks) < cells => Some((true, bits_for(ranks))),
            _ => Some((false, cells)),
        };
        let golden_width = golden_field.map_or(0, |(_, width)| width);
        let magician_width = bits_for(num.bits as u64);
        // Gathering costs a few shifts per row at every pack and unpack: worth it only where
        // it saves a word of every stored state.
        let rest = golden_width + fire_count + magician_width;
        let regular = if (gathered.width() + rest).div_ceil(64) < (num.bits + rest).div_ceil(64) {
            gathered
        } else {
            Gather::identity(num.bits)
        };
        let offset = regular.width();
        let golden = match golden_field {
            None => GoldenField::None,
            Some((true, width)) => GoldenField::Ranked {
                offset,
                count: golden_count,
                width,
            },
            Some((false, _)) => GoldenField::Set { offset },
        };
        let fires_offset = offset + golden_width;
        let magician_offset = fires_offset + fire_count;
        KeyLayout {
            regular,
            open,
            golden,
            binomial,
            fires_offset,
            fire_count,
            magician_offset,
            magician_width,
            bits: magician_offset + magician_width,
        }
    }

    pub fn words(&self) -> usize {
        self.bits.div_ceil(64)
    }

    /// Stores the golden blocks (board bits) in `key`.
    #[inline]
    pub fn put_golden<const N: usize, const K: usize>(&self, key: &mut Key<K>, golden: &Bits<N>) {
        match self.golden {
            GoldenField::None => {}
            GoldenField::Ranked { offset, width, .. } => {
                let mut rank = 0;
                for (i, b) in golden.ones().enumerate() {
                    rank += self.binomial[self.open.field_bit(b)][i + 1];
                }
                key.put_at(offset, width, rank);
            }
            GoldenField::Set { offset } => self.open.put(key, offset, golden),
        }
    }

    /// The golden blocks of `key`, as board bits.
    #[inline]
    pub fn golden<const N: usize, const K: usize>(&self, key: &Key<K>) -> Bits<N> {
        match self.golden {
            GoldenField::None => Bits::EMPTY,
            GoldenField::Ranked {
                offset,
                count,
                width,
            } => {
                let mut rank = key.get_at(offset, width);
                let mut golden = Bits::EMPTY;
                // Colex unranking: the largest cell rank r with C(r, i) <= rank, for i = count..1.
                let mut below = self.binomial.len();
                for i in (1..=count).rev() {
                    let (mut lo, mut hi) = (i - 1, below - 1);
                    while lo < hi {
                        let mid = (lo + hi).div_ceil(2);
                        if self.binomial[mid][i] <= rank {
                            lo = mid;
                        } else {
                            hi = mid - 1;
                        }
                    }
                    rank -= self.binomial[lo][i];
                    golden.set(usize::from(self.open.board_bit[lo]));
                    below = lo;
                }
                golden
            }
            GoldenField::Set { offset } => self.open.get(key, offset),
        }
    }
}

/// C(n, k), if it fits a `u64`.
fn choose(n: usize, k: usize) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let mut c: u128 = 1;
    for i in 0..k {
        c = c * (n - i) as u128 / (i + 1) as u128;
    }
    u64::try_from(c).ok()
}

/// The bits needed to store every value below `values`.
fn bits_for(values: u64) -> usize {
    (u64::BITS - values.saturating_sub(1).leading_zeros()) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ice_tower::level::parse_rows;

    #[test]
    fn golden_ranks_round_trip_for_every_pair_and_triple() {
        let rows = "########## / #@  $ $  # / #  $  -  # / #*      *# / ##########";
        let puzzle = parse_rows(rows).unwrap();
        let num = Numbering::new(&puzzle.grid);
        let layout = KeyLayout::new(&puzzle.grid, &num, 3, 2);
        let GoldenField::Ranked { width, .. } = layout.golden else {
            panic!("{:?}", layout.golden)
        };
        // 24 open cells: C(24, 3) = 2024 ranks in 11 bits.
        assert_eq!((layout.open.width(), width), (24, 11));
        let open: Vec<usize> = (0..num.bits).filter(|&b| layout.open.has(b)).collect();
        let mut seen = std::collections::HashSet::new();
        for (i, &a) in open.iter().enumerate() {
            for (j, &b) in open.iter().enumerate().skip(i + 1) {
                for &c in &open[j + 1..] {
                    let set = Bits::<1>::single(a) | Bits::single(b) | Bits::single(c);
                    let mut key = Key::<1>([u64::MAX]);
                    layout.put_golden(&mut key, &set);
                    assert_eq!(layout.golden::<1, 1>(&key), set);
                    assert!(seen.insert(key.get_at(layout.regular.width(), width)));
                }
            }
        }
        assert_eq!(seen.len(), 2024);
    }

    #[test]
    fn regular_ice_is_gathered_where_that_saves_a_word() {
        // 8 rows of 8 cells: 72 board bits (a wall column per row), 8 of the cells recyclers
        // and one a wall: 55 cells for regular ice, a fire and the magician's 7 bits fit one
        // word, against two for the board bits in place.
        let inner = [
            "@       ", "   -   *", " -  #  -", "-      -", "  -  -  ", "        ", "        ",
            "   -    ",
        ];
        let wall = "#".repeat(10);
        let rows: Vec<String> = inner.iter().map(|r| format!("#{r}#")).collect();
        let rows = format!("{wall} / {} / {wall}", rows.join(" / "));
        let puzzle = parse_rows(&rows).unwrap();
        let num = Numbering::new(&puzzle.grid);
        let layout = KeyLayout::new(&puzzle.grid, &num, 0, 1);
        assert_eq!(
            (num.bits, layout.regular.width(), layout.words()),
            (72, 55, 1)
        );
        let cells: Vec<usize> = (0..num.bits).filter(|&b| layout.regular.has(b)).collect();
        assert_eq!(cells.len(), 55);
        assert!(
            cells
                .iter()
                .all(|&b| puzzle.grid.tiles[num.cell(b)] != Tile::Recycler)
        );
        // Every third cell: the field holds them at their ranks, and gives them back.
        let mut set = Bits::<2>::EMPTY;
        for &b in cells.iter().step_by(3) {
            set.set(b);
        }
        let mut key = Key::<1>::ZERO;
        layout.regular.put(&mut key, 0, &set);
        assert_eq!(key.0[0], (0..55).step_by(3).fold(0, |k, i| k | 1 << i));
        assert_eq!(layout.regular.get::<2, 1>(&key, 0), set);
        // Where it saves nothing, the board bits stay in place.
        let small = KeyLayout::new(&puzzle.grid, &num, 0, 40);
        assert_eq!(small.regular.width(), 72);
    }
}
