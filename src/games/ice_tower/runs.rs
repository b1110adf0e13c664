//! The golden-run bound: how many fires the golden blocks can put out with a given number of
//! pushes, when each golden block must alternate between row and column runs.
//!
//! **Runs.** Group the pushes of one golden block (in a solution from some state) into maximal
//! runs of pushes of one orientation. A horizontal push keeps the block in its row segment
//! (segments are maximal runs of open cells between walls), so every push of a horizontal run
//! slides in one row segment and puts out only fires of that segment; likewise for vertical runs
//! and column segments. Consecutive runs alternate orientation, and the first run lies in the
//! row or the column segment through the block's cell. So a golden block with `m ≥ 1` runs whose
//! first run is horizontal puts out only fires of at most `⌈m/2⌉` row segments, one of them its
//! own, and `⌊m/2⌋` column segments (and symmetrically), using at least `m` pushes; and only
//! fires its relaxed golden moves can reach ([`super::bounds`]).
//!
//! **The relaxed problem P.** Choose for each golden block either nothing (`m = 0`) or a first
//! orientation and a run count `m ≥ 1`; let `H` and `V` be the row and column slots of all
//! blocks together. Choose row segments `R` (`|R| ≤ H`, holding the own row segment of every
//! block that starts horizontally) and column segments `C` likewise; the golden blocks cover the
//! burning fires that lie in `R ∪ C` and that some golden block can reach. Every other burning
//! fire needs its own regular block, which costs at least its relaxed cost (the sum of the
//! smallest relaxed costs, as in [`super::bounds`]). P's value is the least total of `Σ m` plus
//! that regular cost (capped at [`CAP`]).
//!
//! **Admissible:** a solution from the state induces such a choice (its runs), covering every
//! fire its golden pushes put out, with at least `Σ m` golden pushes besides the regular ones.
//!
//! **Consistent** (P's value drops by at most 1 per push): take an optimal choice after a push
//! and build one before it that costs at most 1 more. A regular push changes no golden block
//! and no golden reach; the regular cost before is at most 1 more (the pushed block's relaxed
//! cost was at most 1 more, and a block that melted had cost 1 and takes one fire with it; more
//! fires burn before, so no other cost is higher and no block is less useful). A horizontal
//! golden push from `p` to `p'` (same row segment) puts out fires of row segment `row(p)` that
//! the block can reach from `p`: if the choice after it starts the block horizontally, its own
//! row segment is `row(p)` already and the same choice covers them; if it starts vertically
//! (or leaves the block unused), start it horizontally with one more run, `row(p)` as its own
//! row segment (its slots: one more row, the same columns; the alternation still holds). The
//! golden reach from `p` holds the reach from `p'`. Vertical pushes likewise. The cap keeps
//! this: a choice of cost `CAP − 1` becomes one of cost `CAP`, and the value is never above it.
//!
//! **The first turn** (states with at most two golden blocks). P lets a block turn anywhere,
//! but a block stops only in front of a wall or a block. Say a block `g` starts along its own
//! row segment `L` (columns symmetrically) and that `L` holds a coverable fire. Its first turn
//! is at the cell `x` where its first run ends, and at the time the cell `s` beyond `x` along
//! `L` holds a wall or a block: its *support*. Call `g` *charged* (for that orientation) when
//! at every cell `x` of `L` whose column segment holds a coverable fire, both supports `x ± 1`
//! are open cells that hold no block of the state (other than `g`) and, if the state has a
//! second golden block, whose two neighbours across `L` are open and hold no block either.
//! Then every solution in which `g` makes a second run pays for it in one of three ways, each
//! of which P can charge:
//!
//! - its second run lies in a column segment without a coverable fire: one column slot covers
//!   nothing (**one slot fewer across**);
//! - else the block on `s` got there by a push. A regular block: a push that leaves a block
//!   resting, so the regular pushes are at least one more than the fires they put out
//!   (**a stopper push**: with `n` fires left to regular blocks, at least
//!   `max(regular cost, n + 1)`, as the resting push may be one the regular cost already counts
//!   as an intermediate stop). Another golden block `h` that came along `L`: `h` has a run in
//!   `L` too, so two runs share one row segment (**one slot fewer along**; only when another
//!   block is used). Another golden block `h` that came across `L`: it stopped on `s` in front
//!   of a neighbour of `s` across `L`, which by the charge held no block of the state and is no
//!   wall, so a block came there by a push; not `g` (it was in `L` all along) nor `h`, so with
//!   two golden blocks a regular block: a stopper push again.
//!
//! So P charges a choice in which some charged block has `m ≥ 2` the least of these. This is
//! admissible by the cases above, and consistent: the charge moves by a push only where a
//! block comes to rest beside a support (a regular push that already lowered the regular cost
//! by at most 1: `max(cost, n + 1)` is at most 1 above the cost after it), where the push puts
//! out the last coverable fire of `L` (then the block's own slot is empty after it, worth the
//! same as the slot fewer or the stopper push before it), or where a golden push of the charged
//! block itself ends: a push that ends in front of a wall or a block of the state ends at a
//! turn cell with a free support, so a choice that adds that run before it is not charged, or,
//! where the column there holds no coverable fire, pays with the slot that the choice after it
//! leaves empty. The exhaustive check of the small levels holds the bound to both properties.
//!
//! **Computing P** for a set of coverable fires and the blocks' own segments: with the column
//! slots chosen as a set, rows are disjoint, so the best rows are the forced ones plus the rows
//! with the most remaining fires. The smaller side (rows or columns) is enumerated over its
//! subsets, so P is used only while that side has at most [`MAX_ENUMERATED`] segments with
//! coverable fires (a count that never grows along a path, so the choice stays consistent).
//! The coverage per total run count depends only on the coverable fires, the blocks' own
//! segments and which of them are charged, and many states share those: it is memoised per
//! thread.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use super::board::MAX_WORDS;

/// The value of P is capped here, and run totals at `CAP - 1` are the most considered.
pub const CAP: u32 = 32;

/// The most segments with coverable fires on the enumerated side.
pub const MAX_ENUMERATED: usize = 10;

/// The most golden blocks the bound handles (3^k orientation choices).
pub const MAX_GOLDEN: usize = 3;

/// The most golden blocks for which first turns are charged (a third golden block could be
/// the support of the second's stopper).
const MAX_CHARGED_GOLDEN: usize = 2;

/// No segment with fires through this cell in this orientation.
pub const NO_SEGMENT: u8 = u8::MAX;

/// Memoised coverage tables per thread, keyed by (level id, coverable fires, own segments and
/// the blocks' charged first turns).
type Memo = HashMap<(u64, u64, u64), Coverage, foldhash::fast::FixedState>;

/// Per total run count below [`CAP`]: the most coverable fires (`NONE` where no choice has that
/// total), of the choices that charge no first turn, and of those that do: with all their
/// slots (the stopper costs a push) and with one slot fewer on either side.
#[derive(Clone, Copy)]
struct Coverage {
    plain: [u8; CAP as usize],
    charged: [u8; CAP as usize],
    charged_fewer: [[u8; CAP as usize]; 2],
}

impl Coverage {
    /// P's value from the coverage: the least runs plus the regular cost of the `burning`
    /// fires the runs leave (see the module docs), capped at [`CAP`]. Totals above `limit` are
    /// not looked for: the value is then at least `limit + 1` but may be more.
    fn least_pushes(&self, burning: u32, regular: &RegularCosts, limit: u32) -> u32 {
        let mut best = CAP.min(limit.saturating_add(1));
        let mut runs = 0;
        while runs < best {
            let i = runs as usize;
            let plans = [
                (self.plain[i], false),
                // The stopper's push: a regular push that leaves a block resting, which may be
                // one of the intermediate stops that the regular cost already counts.
                (self.charged[i], true),
                (self.charged_fewer[0][i], false),
                (self.charged_fewer[1][i], false),
            ];
            for (covered, stopper) in plans {
                if covered == NONE {
                    continue;
                }
                let left = burning.saturating_sub(u32::from(covered));
                let cost = regular[left as usize];
                if cost != NO_COST {
                    best = best.min(runs + if stopper { cost.max(left + 1) } else { cost });
                }
            }
            runs += 1;
        }
        best
    }
}

/// Per number `n` of fires (at most 64): the least relaxed cost of `n` distinct useful regular
/// blocks, [`NO_COST`] where there are fewer.
pub type RegularCosts = [u32; 65];

/// Fewer regular blocks than fires.
pub const NO_COST: u32 = u32::MAX;

/// A set of board bits (the largest board's words).
pub type Cells = [u64; MAX_WORDS];

/// A cell of a fire segment where a golden block's first run along it could turn, with the
/// cells where a block makes that turn free (see the module docs): its two supports (the cells
/// beyond it along the segment), and with another golden block in play also their neighbours
/// across the segment.
#[derive(Clone, Copy, Debug)]
pub struct TurnCell {
    /// The fire segment across the line through the cell ([`NO_SEGMENT`] without fires).
    pub across: u8,
    /// Per case (one golden block, several): whether a wall makes the turn free.
    pub wall: [bool; 2],
    /// Per case: the open cells where a block makes the turn free.
    pub cells: [Cells; 2],
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(HashMap::default());
}

/// Entries kept per thread before the memo is cleared.
const MEMO_LIMIT: usize = 1 << 19;

static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// Coverage per number of slots on each side (see [`table`]).
type Table = Vec<Vec<u8>>;

/// Not reachable with this many runs.
const NONE: u8 = u8::MAX;

/// The static segment tables of a level (fire index sets as single words: at most 64 fires).
pub struct Runs {
    id: u64,
    /// Per row segment holding a fire: its fires.
    row_fires: Vec<u64>,
    /// Per column segment holding a fire: its fires.
    col_fires: Vec<u64>,
    /// Per board bit: its row segment and column segment ids ([`NO_SEGMENT`] without fires).
    pub cell_segments: Vec<(u8, u8)>,
    /// Per orientation (rows, columns) and fire segment: its cells as turn cells.
    turns: [Vec<Vec<TurnCell>>; 2],
}

impl Runs {
    pub fn new(
        row_fires: Vec<u64>,
        col_fires: Vec<u64>,
        cell_segments: Vec<(u8, u8)>,
        turns: [Vec<Vec<TurnCell>>; 2],
    ) -> Runs {
        Runs {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            row_fires,
            col_fires,
            cell_segments,
            turns,
        }
    }

    /// Whether a golden block on board bit `g` whose first run lies along its row (`side` 0)
    /// or column (`side` 1) pays for its first turn (see the module docs): its segment holds a
    /// coverable fire, and no turn cell of it whose segment across holds one is made free by a
    /// wall or a block (`occupied`; `shared`: another golden block is in play).
    fn first_turn_charged(
        &self,
        side: usize,
        g: usize,
        coverable: u64,
        shared: bool,
        occupied: &Cells,
    ) -> bool {
        let (own, own_fires) = match side {
            0 => (self.cell_segments[g].0, &self.row_fires),
            _ => (self.cell_segments[g].1, &self.col_fires),
        };
        if own == NO_SEGMENT || own_fires[usize::from(own)] & coverable == 0 {
            return false;
        }
        let Some(mut freeing) = self.freeing_cells(side, own, coverable, shared) else {
            return false;
        };
        // The block itself is no support of its own turn.
        freeing[g / 64] &= !(1 << (g % 64));
        freeing.iter().zip(occupied).all(|(f, o)| f & o == 0)
    }

    /// The cells where a block frees a first turn along fire segment `own` (`side` 0: a row),
    /// or `None` where a wall does.
    fn freeing_cells(&self, side: usize, own: u8, coverable: u64, shared: bool) -> Option<Cells> {
        let across_fires = [&self.col_fires, &self.row_fires][side];
        let case = usize::from(shared);
        let mut freeing = [0u64; MAX_WORDS];
        for t in &self.turns[side][usize::from(own)] {
            if t.across == NO_SEGMENT || across_fires[usize::from(t.across)] & coverable == 0 {
                continue;
            }
            if t.wall[case] {
                return None;
            }
            for (f, c) in freeing.iter_mut().zip(&t.cells[case]) {
                *f |= c;
            }
        }
        Some(freeing)
    }

    /// P's value, or `None` where the bound does not apply (too many segments on both sides, or
    /// too many golden blocks). `coverable`: burning fires some golden block can reach;
    /// `golden`: the golden blocks' board bits; `burning`: the number of burning fires;
    /// `regular`: the least cost of each number of regular blocks;
    /// `occupied`: the board bits that hold a block (regular or golden). Values above `limit`
    /// are not told apart: any of them may come back as `limit + 1`.
    pub fn bound(
        &self,
        coverable: u64,
        golden: &[usize],
        burning: u32,
        regular: &RegularCosts,
        occupied: &Cells,
        limit: u32,
    ) -> Option<u32> {
        if golden.len() > MAX_GOLDEN {
            return None;
        }
        let mut own = 0u64;
        let mut charged = [[false; 2]; MAX_GOLDEN];
        let shared = golden.len() > 1;
        for (i, (&g, charged)) in golden.iter().zip(&mut charged).enumerate() {
            let (r, c) = self.cell_segments[g];
            own |= (u64::from(r) | u64::from(c) << 8) << (16 * i);
            if golden.len() <= MAX_CHARGED_GOLDEN {
                for (side, charged) in charged.iter_mut().enumerate() {
                    *charged = self.first_turn_charged(side, g, coverable, shared, occupied);
                    own |= u64::from(*charged) << (48 + 2 * i + side);
                }
            }
        }
        let key = (self.id, coverable, own);
        MEMO.with(|memo| {
            let mut memo = memo.borrow_mut();
            if let Some(cover) = memo.get(&key) {
                return Some(cover.least_pushes(burning, regular, limit));
            }
            let cover = self.coverage(coverable, golden, charged)?;
            if memo.len() >= MEMO_LIMIT {
                memo.clear();
            }
            Some(
                memo.entry(key)
                    .or_insert(cover)
                    .least_pushes(burning, regular, limit),
            )
        })
    }

    /// The most coverable fires the golden blocks can cover per total run count ([`Coverage`]),
    /// or `None` where both sides have too many segments. `charged[i][side]`: block `i` pays
    /// for its first turn when its first run lies along its row (side 0) or column (side 1).
    fn coverage(
        &self,
        coverable: u64,
        golden: &[usize],
        charged: [[bool; 2]; MAX_GOLDEN],
    ) -> Option<Coverage> {
        let lines = |fires: &[u64]| -> Vec<(usize, u64)> {
            fires
                .iter()
                .enumerate()
                .map(|(id, &f)| (id, f & coverable))
                .filter(|&(_, f)| f != 0)
                .collect()
        };
        let rows = lines(&self.row_fires);
        let cols = lines(&self.col_fires);
        // Side 0 is taken greedily, side 1 enumerated.
        let enumerate_rows = rows.len() < cols.len();
        let (greedy, enumerated) = if enumerate_rows {
            (&cols, &rows)
        } else {
            (&rows, &cols)
        };
        if enumerated.len() > MAX_ENUMERATED {
            return None;
        }
        // Each block's own segment per side, as an index into that side's list (`None`: the
        // segment holds no coverable fire, it only takes a slot).
        let own: Vec<[Option<usize>; 2]> = golden
            .iter()
            .map(|&g| {
                let (r, c) = self.cell_segments[g];
                let (r, c) = (usize::from(r), usize::from(c));
                let find = |list: &[(usize, u64)], id: usize| list.iter().position(|l| l.0 == id);
                let (in_rows, in_cols) = (find(&rows, r), find(&cols, c));
                if enumerate_rows {
                    [in_cols, in_rows]
                } else {
                    [in_rows, in_cols]
                }
            })
            .collect();
        // The charged first turns by side of the enumeration.
        let charged: Vec<[bool; 2]> = charged[..golden.len()]
            .iter()
            .map(|&[row, col]| {
                if enumerate_rows {
                    [col, row]
                } else {
                    [row, col]
                }
            })
            .collect();
        let (ng, ne) = (greedy.len(), enumerated.len());
        let most_runs = 2 * ng.max(ne) + 2;
        let mut cover = Coverage {
            plain: [NONE; CAP as usize],
            charged: [NONE; CAP as usize],
            charged_fewer: [[NONE; CAP as usize]; 2],
        };
        cover.plain[0] = 0;
        let raise = |cell: &mut u8, c: u8| {
            if c != NONE && (*cell == NONE || c > *cell) {
                *cell = c;
            }
        };
        let mut tables: Vec<((u64, u64), Table)> = Vec::new();
        // Orientation per block: 0 unused, 1 starts on side 0, 2 starts on side 1.
        let choices = 3usize.pow(golden.len() as u32);
        for choice in 1..choices {
            let mut orient = [0usize; MAX_GOLDEN];
            for (i, o) in orient[..golden.len()].iter_mut().enumerate() {
                *o = choice / 3usize.pow(i as u32) % 3;
            }
            let (mut forced, mut empty) = ([0u64; 2], [0usize; 2]);
            for (i, &o) in orient[..golden.len()].iter().enumerate() {
                if o > 0 {
                    match own[i][o - 1] {
                        Some(j) => forced[o - 1] |= 1 << j,
                        None => empty[o - 1] += 1,
                    }
                }
            }
            let table = match tables.iter().find(|(f, _)| *f == (forced[0], forced[1])) {
                Some((_, t)) => t,
                None => {
                    let t = table(coverable, greedy, enumerated, forced);
                    tables.push(((forced[0], forced[1]), t));
                    &tables.last().unwrap().1
                }
            };
            let mut used = [0usize; MAX_GOLDEN];
            let mut n = 0;
            for i in (0..golden.len()).filter(|&i| orient[i] > 0) {
                used[n] = i;
                n += 1;
            }
            let (used, shared) = (&used[..n], n > 1);
            // Every run count m ≥ 1 of every used block with fewer than CAP runs in all: an
            // odometer that carries as soon as a digit passes `most_runs` or the total reaches
            // CAP (a larger digit only adds to the total).
            let mut counts = [1usize; MAX_GOLDEN];
            let mut total = n;
            'counts: loop {
                let mut slots = [0usize; 2];
                for (&m, &i) in counts.iter().zip(used) {
                    let first = orient[i] - 1;
                    slots[first] += m.div_ceil(2);
                    slots[1 - first] += m / 2;
                }
                let lines = [slots[0] - empty[0], slots[1] - empty[1]];
                let c = table[lines[0].min(ng)][lines[1].min(ne)];
                // A block with a charged first turn and a second run: the sides where a run
                // may be lost instead of paying for a stopper (its second run's, and its own
                // line's when another block is used and could share that line).
                let mut lose = [false; 2];
                for (&m, &i) in counts.iter().zip(used) {
                    let first = orient[i] - 1;
                    if m >= 2 && charged[i][first] {
                        lose[1 - first] = true;
                        lose[first] |= shared;
                    }
                }
                if lose == [false; 2] {
                    raise(&mut cover.plain[total], c);
                } else {
                    raise(&mut cover.charged[total], c);
                    for side in 0..2 {
                        if let Some(fewer) = lines[side].checked_sub(1).filter(|_| lose[side]) {
                            let mut l = lines;
                            l[side] = fewer;
                            raise(
                                &mut cover.charged_fewer[side][total],
                                table[l[0].min(ng)][l[1].min(ne)],
                            );
                        }
                    }
                }
                // The next counts.
                let mut k = 0;
                loop {
                    if k == n {
                        break 'counts;
                    }
                    counts[k] += 1;
                    total += 1;
                    if counts[k] <= most_runs && total < CAP as usize {
                        break;
                    }
                    total -= counts[k] - 1;
                    counts[k] = 1;
                    k += 1;
                }
            }
        }
        Some(cover)
    }
}

/// `t[g][e]`: the most fires of `coverable` covered by at most `g` lines of `greedy` and `e`
/// lines of `enumerated`, holding the `forced` lines of each side (`NONE` when fewer slots than
/// forced lines).
fn table(
    coverable: u64,
    greedy: &[(usize, u64)],
    enumerated: &[(usize, u64)],
    forced: [u64; 2],
) -> Table {
    let (ng, ne) = (greedy.len(), enumerated.len());
    let mut t = vec![vec![NONE; ne + 1]; ng + 1];
    let forced_greedy: u64 = greedy
        .iter()
        .enumerate()
        .filter(|(j, _)| forced[0] >> j & 1 == 1)
        .fold(0, |a, (_, l)| a | l.1);
    let nfg = forced[0].count_ones() as usize;
    let free_mask = ((1u64 << ne) - 1) & !forced[1];
    let mut gains = Vec::with_capacity(ng);
    // Every subset of the enumerated side holding the forced lines.
    let mut sub = 0u64;
    loop {
        let set = sub | forced[1];
        let mut covered = 0u64;
        for (j, l) in enumerated.iter().enumerate() {
            if set >> j & 1 == 1 {
                covered |= l.1;
            }
        }
        let e = set.count_ones() as usize;
        let rest = coverable & !covered & !forced_greedy;
        let base = (coverable & (covered | forced_greedy)).count_ones();
        gains.clear();
        for (j, l) in greedy.iter().enumerate() {
            if forced[0] >> j & 1 == 0 {
                gains.push((l.1 & rest).count_ones());
            }
        }
        gains.sort_unstable_by(|a, b| b.cmp(a));
        let mut sum = base;
        for g in nfg..=ng {
            if g > nfg {
                sum += gains[g - nfg - 1];
            }
            let cell = &mut t[g][e];
            if *cell == NONE || sum as u8 > *cell {
                *cell = sum as u8;
            }
        }
        // Next subset of the free lines.
        if sub == free_mask {
            break;
        }
        sub = (sub.wrapping_sub(free_mask)) & free_mask;
    }
    // "At most" slots: spare slots may stay unused.
    for g in 0..=ng {
        for e in 0..=ne {
            let mut best = t[g][e];
            if g > 0 && t[g - 1][e] != NONE && (best == NONE || t[g - 1][e] > best) {
                best = t[g - 1][e];
            }
            if e > 0 && t[g][e - 1] != NONE && (best == NONE || t[g][e - 1] > best) {
                best = t[g][e - 1];
            }
            t[g][e] = best;
        }
    }
    t
}
