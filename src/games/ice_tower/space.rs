//! The packed search space of a level without arrows (spec §3) and the engine's [`Space`].
//!
//! **State** ([`Key`], `K` words, laid out by [`super::keys`]): the regular-ice cells, the
//! golden ice, one bit per fire of the start that still burns, and the magician's region id:
//! the lowest bit of his reachable region, so that walking is free and never multiplies states.
//!
//! **Successors.** An expansion unpacks the key into board sets, flood-fills the region once,
//! and finds every legal push at once with shifted sets (a block whose push cell is in the
//! region and whose first cell beyond is free). A slide is one masked first-bit search in the
//! precomputed ray of the block: the first block, burning fire or recycler on it decides where a
//! regular block rests or melts; a golden block stops before the first block only and puts out
//! the burning fires it crosses. The successor key is the parent key with a few bits flipped.
//!
//! **The region id of a successor** is found without a flood fill in the common case: the new
//! region is the old one plus the freed cells (the block's cell, put-out fires) minus the cell
//! where the block came to rest, provided the freed cells are joined to the push cell through
//! the block's path (always for regular ice, for golden ice when its path crosses no recycler),
//! touch no walkable cell outside the old region, and the resting cell is "simple" (its
//! walkable neighbours stay connected through its ring of eight; [`Board::is_simple`]).
//! Otherwise the region is flood-filled again. Tests compare every successor with the
//! simulator.
//!
//! **Under a move budget** ([`Space::successors_within`]) a push's bound is computed from the
//! board sets the push already has, before its region: most pushes of an A* round are out of
//! the budget, and they then cost neither a region nor an unpacking of their key.

use super::bits::{Bits, Key};
use super::board::{Board, Numbering};
use super::bounds::Bounds;
use super::keys::KeyLayout;
use super::level::Puzzle;
use super::rules::{Dir, Ice};
use crate::engine::Space;

/// A key unpacked into board sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unpacked<const N: usize> {
    pub regular: Bits<N>,
    pub golden: Bits<N>,
    /// Burning fires, as board cells.
    pub burning: Bits<N>,
    /// Burning fires, as fire indices.
    pub fire_set: Bits<N>,
    /// The magician's bit (the region id in keys of this space).
    pub magician: usize,
}

/// The bound's tables: single-word fire sets for levels with at most 64 fires.
pub enum FireBounds<const N: usize> {
    Narrow(Bounds<u64>),
    Wide(Bounds<Bits<N>>),
}

/// One legal push found by an expansion, for the notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PushMove {
    pub block: usize,
    pub dir: Dir,
}

/// The pushes that turn each key of a path into the next, as (row, col, dir) of the grid, found
/// among the pushes `for_each_push` lists for a key (either space's expansion).
pub fn pushes_along<const K: usize>(
    path: &[Key<K>],
    num: &Numbering,
    for_each_push: impl Fn(&Key<K>, &mut dyn FnMut(PushMove, Key<K>)),
) -> Vec<(usize, usize, Dir)> {
    path.windows(2)
        .map(|pair| {
            let mut found = None;
            for_each_push(&pair[0], &mut |m, next| {
                if found.is_none() && next == pair[1] {
                    found = Some(m);
                }
            });
            let m = found.expect("consecutive states of a path differ by one push");
            let cell = num.cell(m.block);
            (cell / num.grid_width, cell % num.grid_width, m.dir)
        })
        .collect()
}

/// How a regular block's slide ends.
#[derive(Clone, Copy)]
enum Slide {
    Rests(usize),
    /// Melted in the fire at this cell.
    Melts(usize),
    Recycled,
}

/// The engine's view of a level without arrows: boards of `N` words, keys of `K` words.
pub struct IceSpace<const N: usize, const K: usize> {
    pub board: Board<N>,
    pub keys: KeyLayout,
    /// The board bit of each fire index.
    pub fire_cell: Vec<u8>,
    /// The fire index of each board bit (`u8::MAX` where there is none).
    pub fire_index: Vec<u8>,
    pub bounds: FireBounds<N>,
    start: Key<K>,
}

impl<const N: usize, const K: usize> IceSpace<N, K> {
    pub fn new(puzzle: &Puzzle) -> IceSpace<N, K> {
        let board = Board::<N>::new(&puzzle.grid);
        let golden_count = puzzle
            .start
            .ice
            .iter()
            .filter(|&&i| i == Some(Ice::Golden))
            .count();
        let fire_cell: Vec<u8> = board.fires.ones().map(|b| b as u8).collect();
        let mut fire_index = vec![u8::MAX; board.num.bits];
        for (j, &b) in fire_cell.iter().enumerate() {
            fire_index[b as usize] = j as u8;
        }
        let keys = KeyLayout::new(&puzzle.grid, &board.num, golden_count, fire_cell.len());
        assert!(keys.words() <= K, "the key fits {K} words");
        let num = &board.num;
        let bit = |cell: usize| {
            num.bit(cell)
                .expect("ice and the magician are on open cells")
        };
        let mut start = Unpacked {
            regular: Bits::EMPTY,
            golden: Bits::EMPTY,
            burning: board.fires,
            fire_set: Bits::EMPTY,
            magician: bit(puzzle.start.magician),
        };
        for (cell, ice) in puzzle.start.ice.iter().enumerate() {
            match ice {
                Some(Ice::Regular) => start.regular.set(bit(cell)),
                Some(Ice::Golden) => start.golden.set(bit(cell)),
                None => {}
            }
        }
        for j in 0..fire_cell.len() {
            start.fire_set.set(j);
        }
        let occupied = start.regular | start.golden;
        let walk = board.standable.minus(occupied | start.burning);
        start.magician = board
            .fill(Bits::single(start.magician), walk)
            .lowest()
            .expect("the magician's own cell is walkable");
        let bounds = if fire_cell.len() <= 64 {
            FireBounds::Narrow(Bounds::new(
                &board,
                &fire_cell,
                &start.regular,
                &start.golden,
            ))
        } else {
            FireBounds::Wide(Bounds::new(
                &board,
                &fire_cell,
                &start.regular,
                &start.golden,
            ))
        };
        let mut space = IceSpace {
            board,
            keys,
            fire_cell,
            fire_index,
            bounds,
            start: Key::ZERO,
        };
        space.start = space.pack(&start);
        space
    }

    /// The key of unpacked board sets.
    pub fn pack(&self, u: &Unpacked<N>) -> Key<K> {
        let mut key = Key::ZERO;
        self.keys.regular.put(&mut key, 0, &u.regular);
        self.keys.put_golden(&mut key, &u.golden);
        key.put_bits(self.keys.fires_offset, self.keys.fire_count, &u.fire_set);
        self.put_magician(&mut key, u.magician);
        key
    }

    #[inline]
    fn put_magician(&self, key: &mut Key<K>, bit: usize) {
        key.put(
            self.keys.magician_offset,
            self.keys.magician_width,
            bit as u64,
        );
    }

    #[inline]
    pub fn golden_of(&self, key: &Key<K>) -> Bits<N> {
        self.keys.golden(key)
    }

    #[inline]
    pub fn regular_of(&self, key: &Key<K>) -> Bits<N> {
        self.keys.regular.get(key, 0)
    }

    /// The burning fires as fire indices.
    #[inline]
    pub fn fire_set_of(&self, key: &Key<K>) -> Bits<N> {
        key.get_bits(self.keys.fires_offset, self.keys.fire_count)
    }

    #[inline]
    pub fn unpack(&self, key: &Key<K>) -> Unpacked<N> {
        let fire_set = self.fire_set_of(key);
        let mut burning = Bits::EMPTY;
        for j in fire_set.ones() {
            burning.set(self.fire_cell[j] as usize);
        }
        Unpacked {
            regular: self.regular_of(key),
            golden: self.golden_of(key),
            burning,
            fire_set,
            magician: key.get(self.keys.magician_offset, self.keys.magician_width) as usize,
        }
    }

    /// The bound of a key whose regular and golden ice are `regular` and `golden` (see
    /// [`Space::heuristic_within`]); only its fires are read from `key`.
    #[inline]
    fn bound_of(
        &self,
        regular: &Bits<N>,
        golden: &Bits<N>,
        key: &Key<K>,
        limit: u32,
    ) -> Option<u32> {
        match &self.bounds {
            FireBounds::Narrow(b) => b.estimate(
                regular,
                golden,
                key.get(self.keys.fires_offset, self.keys.fire_count),
                limit,
            ),
            FireBounds::Wide(b) => b.estimate(regular, golden, self.fire_set_of(key), limit),
        }
    }

    /// The cell one step back from `cell` against `dir`.
    #[inline]
    fn back(&self, cell: usize, dir: Dir) -> usize {
        match dir {
            Dir::Up => cell + self.board.num.pitch,
            Dir::Down => cell - self.board.num.pitch,
            Dir::Left => cell + 1,
            Dir::Right => cell - 1,
        }
    }

    /// The first cell of `set` along a ray towards `dir`.
    #[inline]
    fn first_along(set: &Bits<N>, dir: Dir) -> Option<usize> {
        if Numbering::forward(dir) {
            set.lowest()
        } else {
            set.highest()
        }
    }

    /// Calls `visit` with every legal push of `key` and the successor key it makes.
    #[inline]
    pub fn for_each_push(&self, key: &Key<K>, mut visit: impl FnMut(PushMove, Key<K>)) {
        self.for_each_push_kept(key, |_, _, _| Some(0), |m, next, _| visit(m, next));
    }

    /// Calls `visit` with every legal push of `key` that `keep` keeps, the successor key it
    /// makes and what `keep` said. `keep` sees the successor's regular and golden ice and its
    /// key before the magician's region is put in (its fires are), so that a push it drops
    /// costs no region.
    #[inline]
    fn for_each_push_kept(
        &self,
        key: &Key<K>,
        mut keep: impl FnMut(&Bits<N>, &Bits<N>, &Key<K>) -> Option<u32>,
        mut visit: impl FnMut(PushMove, Key<K>, u32),
    ) {
        let u = self.unpack(key);
        let board = &self.board;
        let occupied = u.regular | u.golden;
        let walk = board.standable.minus(occupied | u.burning);
        let region = board.fill(Bits::single(u.magician), walk);
        let free = board.open.minus(occupied);
        for dir in Dir::ALL {
            let pushable =
                occupied & board.toward(region, dir) & board.toward(free, dir.opposite());
            for block in pushable.ones() {
                let push = PushMove { block, dir };
                let kept = if u.golden.has(block) {
                    self.push_golden(key, &u, occupied, walk, &region, push, &mut keep)
                } else {
                    self.push_regular(key, &u, occupied, walk, &region, push, &mut keep)
                };
                if let Some((next, said)) = kept {
                    visit(push, next, said);
                }
            }
        }
    }

    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn push_regular(
        &self,
        key: &Key<K>,
        u: &Unpacked<N>,
        occupied: Bits<N>,
        walk: Bits<N>,
        region: &Bits<N>,
        PushMove { block, dir }: PushMove,
        keep: &mut impl FnMut(&Bits<N>, &Bits<N>, &Key<K>) -> Option<u32>,
    ) -> Option<(Key<K>, u32)> {
        let board = &self.board;
        let ray = board.ray[dir.index()][block];
        let hits = ray & (occupied | u.burning | board.recyclers);
        let slide = match Self::first_along(&hits, dir) {
            None => Slide::Rests(board.ray_end[dir.index()][block] as usize),
            Some(h) if occupied.has(h) => Slide::Rests(self.back(h, dir)),
            Some(h) if u.burning.has(h) => Slide::Melts(h),
            Some(_) => Slide::Recycled,
        };
        let mut next = *key;
        next.flip(self.keys.regular.field_bit(block));
        let mut regular = u.regular;
        regular.clear(block);
        let mut opened = Bits::single(block);
        let mut touching = board.around[block];
        let mut closed = None;
        match slide {
            Slide::Rests(end) => {
                next.flip(self.keys.regular.field_bit(end));
                regular.set(end);
                closed = Some(end);
            }
            Slide::Melts(fire) => {
                next.flip(self.keys.fires_offset + self.fire_index[fire] as usize);
                opened.set(fire);
                touching = touching | board.around[fire];
            }
            Slide::Recycled => {}
        }
        let said = keep(&regular, &u.golden, &next)?;
        let magician =
            self.region_id_after(walk, region, opened, touching, closed, block, dir, true);
        self.put_magician(&mut next, magician);
        Some((next, said))
    }

    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn push_golden(
        &self,
        key: &Key<K>,
        u: &Unpacked<N>,
        occupied: Bits<N>,
        walk: Bits<N>,
        region: &Bits<N>,
        PushMove { block, dir }: PushMove,
        keep: &mut impl FnMut(&Bits<N>, &Bits<N>, &Key<K>) -> Option<u32>,
    ) -> Option<(Key<K>, u32)> {
        let board = &self.board;
        let ray = board.ray[dir.index()][block];
        let end = match Self::first_along(&(ray & occupied), dir) {
            None => board.ray_end[dir.index()][block] as usize,
            Some(h) => self.back(h, dir),
        };
        let crossed = ray.minus(board.ray[dir.index()][end]);
        let put_out = u.burning & crossed;
        let mut next = *key;
        let mut golden = u.golden;
        golden.clear(block);
        golden.set(end);
        self.keys.put_golden(&mut next, &golden);
        let mut touching = board.around[block];
        for fire in put_out.ones() {
            next.flip(self.keys.fires_offset + self.fire_index[fire] as usize);
            touching = touching | board.around[fire];
        }
        let said = keep(&u.regular, &golden, &next)?;
        // The block's cell (unless it was a recycler) and the fires put out are free now;
        // without a recycler on the way they are joined to the push cell through the path.
        let mut opened = (put_out | Bits::single(block)) & board.standable;
        opened.clear(end);
        let closed = walk.has(end).then_some(end);
        let joined = !(crossed | Bits::single(block)).intersects(&board.recyclers);
        let magician =
            self.region_id_after(walk, region, opened, touching, closed, block, dir, joined);
        self.put_magician(&mut next, magician);
        Some((next, said))
    }

    /// The region id after a push of the block at `block` towards `dir` that made the cells of
    /// `opened` walkable and the cell `closed` not, given the walkable cells and the region
    /// before. Without a flood fill when it is safe: the opened cells are `joined` to the push
    /// cell through the block's path, none of them touches (`touching`: their neighbours) a
    /// walkable cell outside the old region, and the closed cell, if it was in the region, keeps
    /// its walkable neighbours connected around it.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn region_id_after(
        &self,
        walk: Bits<N>,
        region: &Bits<N>,
        opened: Bits<N>,
        touching: Bits<N>,
        closed: Option<usize>,
        block: usize,
        dir: Dir,
        joined: bool,
    ) -> usize {
        let board = &self.board;
        let mut walk_after = walk | opened;
        let mut region_after = *region | opened;
        let mut simple = joined;
        if let Some(end) = closed {
            walk_after.clear(end);
            if region_after.has(end) {
                region_after.clear(end);
                simple &= board.is_simple(end, &walk_after);
            }
        }
        let outside = (touching & walk_after).minus(region_after);
        let region_id = if simple && outside.is_empty() {
            region_after.lowest()
        } else {
            board
                .fill(Bits::single(self.back(block, dir)), walk_after)
                .lowest()
        };
        region_id.expect("the push cell is walkable")
    }

    /// The pushes that turn each state of a path into the next, as (row, col, dir) of the grid.
    pub fn pushes_of(&self, path: &[Key<K>]) -> Vec<(usize, usize, Dir)> {
        pushes_along(path, &self.board.num, |key, visit| {
            self.for_each_push(key, visit)
        })
    }
}

impl<const N: usize, const K: usize> Space for IceSpace<N, K> {
    type State = Key<K>;

    fn start(&self) -> Key<K> {
        self.start
    }

    #[inline]
    fn successors(&self, state: &Key<K>, _came_by: Option<u8>, out: &mut Vec<Key<K>>) {
        self.for_each_push(state, |_, next| out.push(next));
    }

    #[inline]
    fn is_goal(&self, state: &Key<K>) -> bool {
        self.fire_set_of(state).is_empty()
    }

    /// Fires still burning: what beams keep fewest of first.
    #[inline]
    fn tiebreak(&self, state: &Key<K>) -> u32 {
        self.fire_set_of(state).count()
    }

    #[inline]
    fn heuristic(&self, state: &Key<K>) -> Option<u32> {
        self.heuristic_within(state, u32::MAX)
    }

    #[inline]
    fn heuristic_within(&self, state: &Key<K>, limit: u32) -> Option<u32> {
        self.bound_of(
            &self.regular_of(state),
            &self.golden_of(state),
            state,
            limit,
        )
    }

    /// The bound of each push before its magician's region: a push whose bound is out of the
    /// budget costs no region and no unpacking of its key.
    #[inline]
    fn successors_within(
        &self,
        state: &Key<K>,
        _came_by: Option<u8>,
        limit: u32,
        _scratch: &mut Vec<Key<K>>,
        out: &mut Vec<(Key<K>, u32)>,
    ) -> u64 {
        let mut above = 0;
        self.for_each_push_kept(
            state,
            |regular, golden, next| {
                let h = self.bound_of(regular, golden, next, limit)?;
                above += u64::from(h > limit);
                (h <= limit).then_some(h)
            },
            |_, next, h| out.push((next, h)),
        );
        above
    }
}
