//! A lower bound on the swaps still needed, from how far gems must travel sideways.
//!
//! Gems change column only by swaps: a swap moves at most two gems one column each, and never
//! two of one kind (a swap of one kind is illegal). Without flaming skulls a gem is removed only
//! in a line of its kind, and the gems of a kind removed together (the union of that step's
//! lines) occupy, column by column, either one column with 3 or more of them (a vertical line)
//! or a run of 3 or more adjacent columns, each holding at least one (any horizontal line, with
//! whatever crosses it). So a kind's column counts are **valid** when every maximal run of
//! occupied columns that is 1 or 2 columns wide holds 3 or more gems in each column; the gems
//! removed at any one step form a valid vector, and the kind is cleared only after its counts
//! have been moved, one gem one column at a time, so that they decompose into such groups.
//!
//! [`Table`] holds, for every vector of column counts capped at 3 (4⁸ vectors), the fewest
//! one-column moves to a valid vector in a relaxation where a column with 3 or more gems is an
//! inexhaustible source. The relaxation only adds gems, and adding gems to a column already at 3
//! or removing a valid group never shortens the way to validity, so the table value of a kind
//! never falls by more than 1 per move of one of its gems and never falls on a removal (the
//! tests check both over the whole table). Hence with `L_k` per kind, both `max L_k` and
//! `⌈Σ L_k / 2⌉` are admissible and consistent (a swap lowers `Σ L_k` by at most 2).
//!
//! Flaming-skull blasts remove gems outside lines: a flaming skull fires once (when removed),
//! at the column it has then reached, and takes at most 3 gems of each kind from each of the
//! three columns around it. [`Tables`] therefore also holds, per vector, the fewest moves when
//! one skull fires with its blast centred on column x, for each x: a blast may lower the counts
//! of its columns freely. A flaming skull reaches column x only by `|x − its column|` swaps, so
//! on a board with one flaming skull the bound is the smallest, over the columns where it could
//! fire, of the bound with that travel added to the skull kind's moves. Boards with two or more
//! flaming skulls get no bound beyond 1 (the same relaxation with two blasts was measured to
//! prune almost nothing on the corpus boards that have two).

use std::sync::OnceLock;

use rayon::prelude::*;

/// Columns of a board.
const COLUMNS: usize = 8;
/// Vectors of capped column counts: 2 bits per column.
const VECTORS: usize = 1 << (2 * COLUMNS);
/// The value of vectors that can never become valid (too few gems, even with the blasts).
pub const NEVER: u8 = u8::MAX;
/// The index of the skull kind among the kinds given to [`Tables::lower_bound`].
pub const SKULL_KIND: usize = 6;

/// Per capped count vector: the fewest one-column moves to validity with no blast, and with
/// one blast centred on each column.
pub struct Tables {
    none: Vec<u8>,
    one: Vec<[u8; COLUMNS]>,
}

/// The capped count of each column (0, 1, 2, or 3 for "3 or more").
fn counts(vector: usize) -> [u8; COLUMNS] {
    std::array::from_fn(|x| (vector >> (2 * x) & 3) as u8)
}

fn vector(counts: &[u8; COLUMNS]) -> usize {
    counts
        .iter()
        .enumerate()
        .map(|(x, &c)| usize::from(c) << (2 * x))
        .sum()
}

/// Whether every maximal run of occupied columns at most 2 wide has 3 or more in each column.
pub fn is_valid(counts: &[u8; COLUMNS]) -> bool {
    let mut x = 0;
    while x < COLUMNS {
        if counts[x] == 0 {
            x += 1;
            continue;
        }
        let end = (x..COLUMNS).find(|&y| counts[y] == 0).unwrap_or(COLUMNS);
        if end - x <= 2 && counts[x..end].iter().any(|&c| c < 3) {
            return false;
        }
        x = end;
    }
    true
}

/// The vectors one relaxed move away: one gem from a column to a neighbouring one; a column at
/// 3 stays at 3 (an inexhaustible source), a receiving column is capped at 3.
pub fn moves_from(vector: usize, mut visit: impl FnMut(usize)) {
    let c = counts(vector);
    for from in 0..COLUMNS {
        if c[from] == 0 {
            continue;
        }
        for to in [from.wrapping_sub(1), from + 1] {
            if to >= COLUMNS {
                continue;
            }
            let mut next = c;
            if next[from] < 3 {
                next[from] -= 1;
            }
            next[to] = (next[to] + 1).min(3);
            visit(self::vector(&next));
        }
    }
}

/// The reversed relaxed moves, in compressed rows.
struct Predecessors {
    starts: Vec<u32>,
    vectors: Vec<u16>,
}

impl Predecessors {
    fn new() -> Predecessors {
        let mut starts = vec![0u32; VECTORS + 1];
        for v in 0..VECTORS {
            moves_from(v, |next| starts[next + 1] += 1);
        }
        for v in 0..VECTORS {
            starts[v + 1] += starts[v];
        }
        let mut vectors = vec![0u16; starts[VECTORS] as usize];
        let mut fill = starts.clone();
        for v in 0..VECTORS {
            moves_from(v, |next| {
                vectors[fill[next] as usize] = v as u16;
                fill[next] += 1;
            });
        }
        Predecessors { starts, vectors }
    }

    fn of(&self, v: usize) -> &[u16] {
        &self.vectors[self.starts[v] as usize..self.starts[v + 1] as usize]
    }

    /// Fewest moves plus the value where a walk stops: `value[v] = min(value[v], 1 + value[w])`
    /// over moves v → w, solved for all vectors at once (Dial's buckets: values are small).
    fn settle(&self, value: &mut [u8]) {
        let mut buckets: Vec<Vec<u16>> = vec![Vec::new(); usize::from(NEVER)];
        for (v, &d) in value.iter().enumerate() {
            if d != NEVER {
                buckets[usize::from(d)].push(v as u16);
            }
        }
        for d in 0..buckets.len() - 1 {
            let bucket = std::mem::take(&mut buckets[d]);
            for v in bucket {
                if value[usize::from(v)] != d as u8 {
                    continue;
                }
                for &p in self.of(usize::from(v)) {
                    if value[usize::from(p)] > d as u8 + 1 {
                        value[usize::from(p)] = d as u8 + 1;
                        buckets[d + 1].push(p);
                    }
                }
            }
        }
    }
}

/// For each vector, the smallest `value` over the vectors a blast centred on column `x` can
/// leave: any count of the (up to) three columns around x lowered, one column at a time.
fn after_blast(value: &[u8], x: usize) -> Vec<u8> {
    let mut best = value.to_vec();
    for column in x.saturating_sub(1)..(x + 2).min(COLUMNS) {
        let step = 1 << (2 * column);
        for v in 0..VECTORS {
            if v >> (2 * column) & 3 != 0 {
                best[v] = best[v].min(best[v - step]);
            }
        }
    }
    best
}

impl Tables {
    fn build() -> Tables {
        let predecessors = Predecessors::new();
        let mut none: Vec<u8> = (0..VECTORS)
            .map(|v| if is_valid(&counts(v)) { 0 } else { NEVER })
            .collect();
        predecessors.settle(&mut none);
        let by_column: Vec<Vec<u8>> = (0..COLUMNS)
            .into_par_iter()
            .map(|x| {
                let mut with_blast = after_blast(&none, x);
                predecessors.settle(&mut with_blast);
                with_blast
            })
            .collect();
        let one = (0..VECTORS)
            .map(|v| std::array::from_fn(|x| by_column[x][v]))
            .collect();
        Tables { none, one }
    }

    /// The tables, built once per process (milliseconds).
    pub fn get() -> &'static Tables {
        static TABLES: OnceLock<Tables> = OnceLock::new();
        TABLES.get_or_init(Tables::build)
    }

    /// The fewest moves of one kind without blasts, given its cells as a column-major bitboard
    /// (one byte per column); [`NEVER`] if the kind has 1 or 2 gems.
    #[inline]
    pub fn moves(&self, cells: u64) -> u8 {
        self.none[capped_vector(cells)]
    }

    /// A lower bound on the swaps that clear a board with these cells per kind (the skull kind
    /// at [`SKULL_KIND`], flaming skulls included) and these flaming skulls; `None` when no
    /// column for the blast lets every kind be cleared (the board is dead).
    #[inline]
    pub fn lower_bound(&self, kinds: &[u64; 7], flaming: u64) -> Option<u32> {
        let vectors = kinds.map(capped_vector);
        let groups = kinds.map(|cells| cells.count_ones() / 3);
        let best = match flaming.count_ones() {
            0 => best_of::<1>(
                vectors.map(|v| std::array::from_ref(&self.none[v])),
                &groups,
                &[0],
            ),
            1 => {
                let s = (flaming.trailing_zeros() / 8) as usize;
                best_of(vectors.map(|v| &self.one[v]), &groups, &TRAVEL[s])
            }
            _ => 0,
        };
        (best < u32::from(NEVER)).then_some(best)
    }

    /// The no-blast value of a vector, for tests.
    #[cfg(test)]
    pub fn of_counts(&self, counts: &[u8; COLUMNS]) -> u8 {
        self.none[vector(counts)]
    }
}

/// A flaming skull's travel from column s to column x: `TRAVEL[s][x] = |x − s|` swaps.
static TRAVEL: [[u8; COLUMNS]; COLUMNS] = {
    let mut travel = [[0; COLUMNS]; COLUMNS];
    let mut s = 0;
    while s < COLUMNS {
        let mut x = 0;
        while x < COLUMNS {
            travel[s][x] = x.abs_diff(s) as u8;
            x += 1;
        }
        s += 1;
    }
    travel
};

/// The smallest, over the `N` blast placements, of the swaps implied by the per-kind moves, the
/// flaming skull's travel there (skull-kind moves too) and the kinds' most groups: a swap moves
/// at most two gems one column each, of two kinds; and at most one of them survives the swap
/// (a legal swap puts a moved gem in a line), so all but one move per group removed together
/// (at most `groups[k]`, a third of the gems) are moves of gems that survive, one per swap.
/// A [`NEVER`] kind makes its placement at least [`NEVER`]. Written lane by lane so that it
/// vectorises.
#[inline]
fn best_of<const N: usize>(moves: [&[u8; N]; 7], groups: &[u32; 7], travel: &[u8; N]) -> u32 {
    let mut most = [0u8; N];
    let mut total = [0u16; N];
    let mut surviving = [0u16; N];
    for (kind, &groups) in moves[..SKULL_KIND].iter().zip(groups) {
        for i in 0..N {
            most[i] = most[i].max(kind[i]);
            total[i] += u16::from(kind[i]);
            surviving[i] += u16::from(kind[i]).saturating_sub(groups as u16);
        }
    }
    let mut best = u16::MAX;
    for i in 0..N {
        let skull = moves[SKULL_KIND][i].max(travel[i]);
        let most = u16::from(most[i].max(skull));
        let total = total[i] + u16::from(skull);
        let surviving = surviving[i] + u16::from(skull).saturating_sub(groups[SKULL_KIND] as u16);
        best = best.min(most.max(total.div_ceil(2)).max(surviving));
    }
    u32::from(best)
}

/// The capped count vector of a bitboard: per byte a population count, capped at 3, the 2-bit
/// results gathered into 16 bits.
#[inline]
fn capped_vector(cells: u64) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut c = cells - ((cells >> 1) & 0x5555_5555_5555_5555);
    c = (c & 0x3333_3333_3333_3333) + ((c >> 2) & 0x3333_3333_3333_3333);
    c = (c + (c >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // 1 in each byte whose count is 3 or more (count + 5 reaches bit 3).
    let at_least_3 = ((c + 5 * ONES) >> 3) & ONES;
    c = (c & !(at_least_3 * 0xFF)) | (at_least_3 * 3);
    c = (c | c >> 6) & 0x000F_000F_000F_000F;
    c = (c | c >> 12) & 0x0000_00FF_0000_00FF;
    c = (c | c >> 24) & 0xFFFF;
    c as usize
}

/// Every vector, with its counts, for the tests.
#[cfg(test)]
pub fn all_vectors() -> impl Iterator<Item = [u8; COLUMNS]> {
    (0..VECTORS).map(counts)
}

#[cfg(test)]
pub fn capped_counts(cells: u64) -> [u8; COLUMNS] {
    counts(capped_vector(cells))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_value_falls_by_at_most_one_per_move_and_never_on_a_removal() {
        let tables = Tables::get();
        let value = |c: &[u8; 8]| tables.of_counts(c);
        for counts in all_vectors() {
            let here = value(&counts);
            // A real move of one gem one column: a column at 3 holds 3 or more, so it may stay at
            // 3 or drop to 2.
            for from in 0..8 {
                if counts[from] == 0 {
                    continue;
                }
                for to in [from.wrapping_sub(1), from + 1]
                    .into_iter()
                    .filter(|&t| t < 8)
                {
                    for left in [counts[from] - 1, counts[from]] {
                        if left == counts[from] && counts[from] < 3 {
                            continue;
                        }
                        let mut next = counts;
                        next[from] = left;
                        next[to] = (next[to] + 1).min(3);
                        assert!(
                            here == NEVER || value(&next) == NEVER || here <= value(&next) + 1,
                            "{counts:?} ({here}) -> {next:?} ({})",
                            value(&next)
                        );
                    }
                }
            }
            // Removing one line: a column of 3 or more losing 3 (leaving anything), or one gem
            // from each column of a run of 3 or more occupied columns.
            for x in 0..8 {
                if counts[x] == 3 {
                    for left in 0..=3 {
                        let mut next = counts;
                        next[x] = left;
                        assert!(here <= value(&next), "{counts:?} -> {next:?}");
                    }
                }
            }
            for start in 0..8 {
                for end in start + 3..=8 {
                    if counts[start..end].iter().all(|&c| c > 0) {
                        let mut next = counts;
                        for c in &mut next[start..end] {
                            *c = if *c == 3 { 2 } else { *c - 1 };
                        }
                        assert!(here <= value(&next), "{counts:?} -> {next:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_table_knows_simple_vectors() {
        let tables = Tables::get();
        assert_eq!(tables.of_counts(&[0; 8]), 0);
        assert_eq!(tables.of_counts(&[3, 0, 0, 0, 0, 0, 0, 0]), 0);
        assert_eq!(tables.of_counts(&[1, 1, 1, 0, 0, 0, 0, 0]), 0);
        assert_eq!(tables.of_counts(&[1, 0, 1, 1, 0, 0, 0, 0]), 1);
        assert_eq!(tables.of_counts(&[2, 0, 0, 0, 0, 0, 0, 1]), 6);
        assert_eq!(tables.of_counts(&[1, 1, 0, 0, 0, 0, 0, 0]), NEVER);
        assert_eq!(
            capped_counts(0x0000_0000_0107_0F01),
            [1, 3, 3, 1, 0, 0, 0, 0]
        );
    }
}
