//! Lower bounds and dead states for the A* search of levels without arrows.
//!
//! **Relaxed pushes.** A block at cell x may be pushed towards d when x − d is a cell the
//! magician could ever stand on and x + d is open; in the relaxation it may then stop on any
//! cell of its ray (some block might be there to stop it) and it passes fires (they might be out
//! by then) but a regular block never crosses a recycler. Every real push is such a relaxed
//! push, so the relaxed push distance from a block's cell to a fire never overestimates the
//! pushes of that block before it puts the fire out, and one real push lowers it by at most 1.
//!
//! **Dead states** ([`Bounds::estimate`] returns `None`): a burning fire that no remaining block
//! can ever reach, or more fires that only regular ice can reach than regular blocks that can
//! reach any fire (a block that can reach no burning fire counts as gone).
//!
//! **The bound** adds two counts of disjoint sets of pushes. Fires no golden block can reach
//! must each be put out by a distinct regular block, whose pushes are its own and put out
//! nothing before its last one: the sum of the smallest relaxed costs (each block's distance
//! to its nearest burning fire) over that many regular blocks. The other burning fires are put
//! out by pushes that each cover one line (a slide stays in one maximal row or column segment
//! between walls): at least the minimum number of segments covering them, which by König's
//! theorem is a maximum matching between row and column segments with the fires as edges.
//! Admissible, and consistent: a push moves one block (its cost drops by at most 1), a regular
//! block that melts had cost 1 and takes one fire with it, one push covers one line (the
//! line count drops by at most 1), and a golden block only ever loses reach, which moves
//! fires from the line count (each worth at most 1 there) to the regular-only count (each
//! worth at least 1 there).
//!
//! **The golden-run bound** ([`super::runs`], levels with at most 64 fires and at most three
//! golden blocks) sharpens the line count: a golden block alternates row and column runs and
//! starts from its own row or column, so covering many lines takes turns that cost pushes too.
//! It splits the pushes the same way (golden runs, then one regular block per fire left), so
//! it is at least the line-cover bound above; the estimate is the larger of the two, and the
//! larger of two consistent bounds is consistent.

use super::bits::{Bits, FireSet};
use super::board::{Board, MAX_WORDS};
use super::pattern::PatternTable;
use super::rules::Dir;
use super::runs::{CAP, Cells, MAX_GOLDEN, NO_COST, NO_SEGMENT, RegularCosts, Runs, TurnCell};

/// Relaxed distances kept per cell as sets; longer ones count as `LEVELS + 1`.
const LEVELS: usize = 6;

/// Unreachable in the relaxation.
pub(super) const NEVER: u8 = u8::MAX;

/// The tables of the bound, with fire sets of type `F` (indices of the fires of the start).
pub struct Bounds<F> {
    /// Per cell, per k < LEVELS: fires a regular block there can put out within k + 1 relaxed
    /// pushes.
    near_regular: Vec<[F; LEVELS]>,
    /// Per cell: fires a regular block there can ever put out.
    reach_regular: Vec<F>,
    /// Per cell: fires a golden block there can ever put out.
    reach_golden: Vec<F>,
    /// Per fire: its row segment and column segment, numbered among the segments that hold
    /// fires (at most 64 of each; `None` with more than 64 fires, then one line stands for all).
    segments: Option<Vec<(u8, u8)>>,
    /// The golden-run bound's tables ([`super::runs`]; levels with at most 64 fires).
    runs: Option<Runs>,
    /// The golden-pattern table ([`super::pattern`]; levels with one or two golden blocks).
    pub pattern: Option<PatternTable<F>>,
}

impl<F: FireSet> Bounds<F> {
    /// The tables of a level whose start has regular blocks on `start_regular` and golden
    /// blocks on `start_golden`.
    pub fn new<const N: usize>(
        board: &Board<N>,
        fire_cell: &[u8],
        start_regular: &Bits<N>,
        start_golden: &Bits<N>,
    ) -> Bounds<F> {
        let sets = |golden: bool| -> Vec<Vec<u8>> {
            (0..board.num.bits)
                .map(|start| {
                    let dist = relaxed_distances(board, start, golden);
                    fire_cell.iter().map(|&f| dist[f as usize]).collect()
                })
                .collect()
        };
        let regular = sets(false);
        let golden = sets(true);
        let within = |d: &[u8], limit: u8| {
            let mut s = F::EMPTY;
            for (j, &dj) in d.iter().enumerate() {
                if dj <= limit {
                    s.insert(j);
                }
            }
            s
        };
        Bounds {
            near_regular: regular
                .iter()
                .map(|d| std::array::from_fn(|k| within(d, k as u8 + 1)))
                .collect(),
            reach_regular: regular.iter().map(|d| within(d, NEVER - 1)).collect(),
            reach_golden: golden.iter().map(|d| within(d, NEVER - 1)).collect(),
            segments: fire_segments(board, fire_cell).map(|(s, _)| s),
            runs: fire_segments(board, fire_cell).map(|(segments, cells)| {
                let (rows, cols) = segments.iter().fold((0, 0), |(r, c), &(rs, cs)| {
                    (r.max(usize::from(rs) + 1), c.max(usize::from(cs) + 1))
                });
                let mut row_fires = vec![0u64; rows];
                let mut col_fires = vec![0u64; cols];
                for (j, &(r, c)) in segments.iter().enumerate() {
                    row_fires[usize::from(r)] |= 1 << j;
                    col_fires[usize::from(c)] |= 1 << j;
                }
                let turns = turn_cells(board, &cells, [rows, cols]);
                Runs::new(row_fires, col_fires, cells, turns)
            }),
            pattern: PatternTable::new(board, fire_cell, start_regular, start_golden),
        }
    }

    /// The fewest row or column segments that cover `fires` (a maximum matching between
    /// row and column segments, Kuhn's augmenting paths on bit masks).
    #[inline]
    pub fn line_cover(&self, fires: F) -> u32 {
        let Some(segments) = self.segments.as_ref().filter(|_| !fires.is_empty()) else {
            return u32::from(!fires.is_empty());
        };
        let mut columns_of = [0u64; 64];
        let mut rows = 0u64;
        fires.for_each(|j| {
            let (r, c) = segments[j];
            columns_of[r as usize] |= 1 << c;
            rows |= 1 << r;
        });
        let mut row_of_column = [u8::MAX; 64];
        let mut cover = 0;
        while rows != 0 {
            let r = rows.trailing_zeros() as u8;
            rows &= rows - 1;
            let mut seen = 0u64;
            cover += u32::from(augment(r, &columns_of, &mut row_of_column, &mut seen));
        }
        cover
    }

    /// A lower bound on the pushes left, or `None` for a dead state. `fires` holds the burning
    /// fires by index. Bounds above `limit` are not told apart: where the cheaper parts (the
    /// regular cost, the pattern table) already exceed it, the golden-run bound is skipped, and
    /// that bound stops looking at `limit + 1`.
    #[inline]
    pub fn estimate<const N: usize>(
        &self,
        regular: &Bits<N>,
        golden: &Bits<N>,
        fires: F,
        limit: u32,
    ) -> Option<u32> {
        if fires.is_empty() {
            return Some(0);
        }
        let mut golden_reach = F::EMPTY;
        for g in golden.ones() {
            golden_reach = golden_reach.or(self.reach_golden[g]);
        }
        let golden_reach = golden_reach.and(fires);
        let mut reached = golden_reach;
        // How many useful regular blocks have each relaxed cost.
        let mut blocks_at_cost = [0u32; LEVELS + 2];
        for b in regular.ones() {
            let reach = self.reach_regular[b].and(fires);
            if reach.is_empty() {
                continue;
            }
            reached = reached.or(reach);
            let cost = (0..LEVELS)
                .find(|&k| self.near_regular[b][k].intersects(&fires))
                .map_or(LEVELS + 1, |k| k + 1);
            blocks_at_cost[cost] += 1;
        }
        if !fires.minus(reached).is_empty() {
            return None;
        }
        // The least total relaxed cost of `n` distinct useful regular blocks.
        let regular_cost = |mut needed: u32| {
            let mut h = 0;
            for (cost, &count) in blocks_at_cost.iter().enumerate().skip(1) {
                let take = needed.min(count);
                h += take * cost as u32;
                needed -= take;
            }
            (needed == 0).then_some(h)
        };
        // The dead-state tests come first: a state above `limit` must still be told from a dead one.
        let regular_only = regular_cost(fires.minus(golden_reach).count())?;
        let pattern = match &self.pattern {
            Some(table) => table.bound(golden, fires)?,
            None => 0,
        };
        let known = regular_only.max(pattern);
        if known > limit {
            return Some(known);
        }
        let runs = match (&self.runs, golden_reach.as_word()) {
            (Some(runs), Some(coverable)) if !golden.is_empty() => {
                let mut cells = [0usize; MAX_GOLDEN];
                let mut n = 0;
                for g in golden.ones() {
                    if n == MAX_GOLDEN {
                        n += 1;
                        break;
                    }
                    cells[n] = g;
                    n += 1;
                }
                let mut occupied: Cells = [0; MAX_WORDS];
                occupied[..N].copy_from_slice(&regular.or(*golden).0);
                let mut least_regular: RegularCosts = [NO_COST; 65];
                least_regular[0] = 0;
                let (mut blocks, mut total) = (0, 0);
                for (cost, &count) in blocks_at_cost.iter().enumerate().skip(1) {
                    for _ in 0..count.min(64 - blocks as u32) {
                        blocks += 1;
                        total += cost as u32;
                        least_regular[blocks] = total;
                    }
                }
                (n <= MAX_GOLDEN)
                    .then(|| {
                        runs.bound(
                            coverable,
                            &cells[..n],
                            fires.count(),
                            &least_regular,
                            &occupied,
                            limit,
                        )
                    })
                    .flatten()
            }
            _ => None,
        };
        match runs {
            // The golden-run bound is at least the line-cover bound (module docs), so the
            // matching is needed only where it does not apply or is capped.
            Some(runs) if runs < CAP => {
                debug_assert!(runs > limit || runs >= regular_only + self.line_cover(golden_reach));
                Some(runs.max(pattern))
            }
            _ => {
                let lines = regular_only + self.line_cover(golden_reach);
                Some(lines.max(runs.unwrap_or(0)).max(pattern))
            }
        }
    }
}

/// Finds an augmenting path from row segment `r`.
fn augment(r: u8, columns_of: &[u64; 64], row_of_column: &mut [u8; 64], seen: &mut u64) -> bool {
    let mut candidates = columns_of[r as usize] & !*seen;
    while candidates != 0 {
        let c = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        *seen |= 1 << c;
        let owner = row_of_column[c];
        if owner == u8::MAX || augment(owner, columns_of, row_of_column, seen) {
            row_of_column[c] = r;
            return true;
        }
    }
    false
}

/// Each fire's row and column segment (maximal runs of open cells), numbered among the
/// segments that hold fires, and each board bit's segments by those numbers ([`NO_SEGMENT`]
/// for a segment without fires); `None` with more than 64 fires.
#[allow(clippy::type_complexity)]
fn fire_segments<const N: usize>(
    board: &Board<N>,
    fire_cell: &[u8],
) -> Option<(Vec<(u8, u8)>, Vec<(u8, u8)>)> {
    if fire_cell.len() > 64 {
        return None;
    }
    let num = &board.num;
    // A segment is named by its first cell: walk back while the cell before is open.
    let start = |mut cell: usize, back: Dir| {
        while let Some(prev) = num.step(cell, back).filter(|&p| board.open.has(p)) {
            cell = prev;
        }
        cell
    };
    let mut row_ids: Vec<usize> = Vec::new();
    let mut column_ids: Vec<usize> = Vec::new();
    let id = |ids: &mut Vec<usize>, first: usize| match ids.iter().position(|&f| f == first) {
        Some(i) => i as u8,
        None => {
            ids.push(first);
            (ids.len() - 1) as u8
        }
    };
    let fires: Vec<(u8, u8)> = fire_cell
        .iter()
        .map(|&f| {
            let f = f as usize;
            (
                id(&mut row_ids, start(f, Dir::Left)),
                id(&mut column_ids, start(f, Dir::Up)),
            )
        })
        .collect();
    let known = |ids: &[usize], first: usize| {
        ids.iter()
            .position(|&f| f == first)
            .map_or(NO_SEGMENT, |i| i as u8)
    };
    let cells = (0..num.bits)
        .map(|b| {
            if board.open.has(b) {
                (
                    known(&row_ids, start(b, Dir::Left)),
                    known(&column_ids, start(b, Dir::Up)),
                )
            } else {
                (NO_SEGMENT, NO_SEGMENT)
            }
        })
        .collect();
    Some((fires, cells))
}

/// Per orientation (rows, then columns) and fire segment of that orientation: its cells as
/// turn cells of a first run along it ([`super::runs`]). `cells`: each board bit's row and
/// column fire segment; `segments`: how many fire segments each orientation has.
fn turn_cells<const N: usize>(
    board: &Board<N>,
    cells: &[(u8, u8)],
    segments: [usize; 2],
) -> [Vec<Vec<TurnCell>>; 2] {
    let num = &board.num;
    let open = |b: Option<usize>| b.filter(|&b| board.open.has(b));
    let mut turns = segments.map(|n| (0..n).map(|_| Vec::new()).collect::<Vec<_>>());
    for (x, &(row, col)) in cells.iter().enumerate() {
        for (side, own, across, along, sideways) in [
            (0, row, col, [Dir::Left, Dir::Right], [Dir::Up, Dir::Down]),
            (1, col, row, [Dir::Up, Dir::Down], [Dir::Left, Dir::Right]),
        ] {
            if own == NO_SEGMENT {
                continue;
            }
            let mut turn = TurnCell {
                across,
                wall: [false; 2],
                cells: [[0; MAX_WORDS]; 2],
            };
            let mut add = |case: usize, cell: Option<usize>| match cell {
                Some(c) => turn.cells[case][c / 64] |= 1 << (c % 64),
                None => turn.wall[case] = true,
            };
            for d in along {
                let support = open(num.step(x, d));
                add(0, support);
                add(1, support);
                if let Some(cell) = support {
                    for s in sideways {
                        add(1, open(num.step(cell, s)));
                    }
                }
            }
            turns[side][usize::from(own)].push(turn);
        }
    }
    turns
}

/// Relaxed push distances from `start` to every cell for a regular or a golden block.
pub(super) fn relaxed_distances<const N: usize>(
    board: &Board<N>,
    start: usize,
    golden: bool,
) -> Vec<u8> {
    let num = &board.num;
    let mut dist = vec![NEVER; num.bits];
    if !board.open.has(start) || (!golden && board.recyclers.has(start)) {
        return dist;
    }
    dist[start] = 0;
    // Breadth first: the cells in the order they were reached, read from `head` on.
    let mut queue = Vec::with_capacity(num.bits);
    queue.push(start);
    let mut head = 0;
    while let Some(&x) = queue.get(head) {
        head += 1;
        for dir in Dir::ALL {
            if !num
                .step(x, dir.opposite())
                .is_some_and(|p| board.standable.has(p))
            {
                continue;
            }
            let mut y = x;
            while let Some(next) = num.step(y, dir).filter(|&n| board.open.has(n)) {
                if !golden && board.recyclers.has(next) {
                    break;
                }
                y = next;
                if dist[y] == NEVER {
                    dist[y] = dist[x] + 1;
                    queue.push(y);
                }
            }
        }
    }
    dist
}
