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
//! **Under a move budget** ([`Heuristic::successors_within`]) a push's bound is computed from the
//! board sets the push already has, before its region: most pushes of an A* round are out of
//! the budget, and they then cost neither a region nor an unpacking of their key.
//!
//! **Symmetric levels** ([`super::symmetry`]): a position is stored as the least of its images,
//! in an order that compares regular ice first (nearly always decisive, so the rest of an image
//! is built only when it wins) and the region id last, found without mapping the region.

use super::bits::{Bits, Key};
use super::board::{Board, Numbering};
use super::bounds::Bounds;
use super::keys::KeyLayout;
use super::level::Puzzle;
use super::rules::{Dir, Ice};
use super::symmetry::Symmetry;
use crate::engine::{Heuristic, MoveBudget, Space, Stored};

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
/// among the pushes `for_each_push` lists for a key (either space's expansion). The path holds
/// each position as `canonical` gives it (its start is its own); the pushes are found on the
/// positions themselves, one after another from the start, each the push whose position
/// `canonical` takes to the path's next.
pub fn pushes_along<const K: usize>(
    path: &[Key<K>],
    num: &Numbering,
    for_each_push: impl Fn(&Key<K>, &mut dyn FnMut(PushMove, Key<K>)),
    canonical: impl Fn(Key<K>) -> Key<K>,
) -> Vec<(usize, usize, Dir)> {
    let Some(&start) = path.first() else {
        return Vec::new();
    };
    let mut at = start;
    path[1..]
        .iter()
        .map(|&wanted| {
            let mut found = None;
            for_each_push(&at, &mut |m, next| {
                if found.is_none() && canonical(next) == wanted {
                    found = Some((m, next));
                }
            });
            let (m, next) = found.expect("consecutive states of a path differ by one push");
            at = next;
            let cell = num.cell(m.block);
            (cell / num.grid_width, cell % num.grid_width, m.dir)
        })
        .collect()
}

/// The cells the magician may walk on in `u` (floor and put-out fires without a block) and his
/// region among them, from his cell in `u.magician`.
#[inline]
fn walk_and_region<const N: usize>(board: &Board<N>, u: &Unpacked<N>) -> (Bits<N>, Bits<N>) {
    let walk = board.standable.minus(u.regular | u.golden | u.burning);
    (walk, board.fill(Bits::single(u.magician), walk))
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
    /// The level's symmetries that map the start onto itself ([`super::symmetry`]): the search
    /// stores each position as the key of the least of its images.
    symmetries: Vec<Symmetry>,
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
        let (_, start_region) = walk_and_region(&board, &start);
        start.magician = start_region
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
        let symmetries = Symmetry::of_level(puzzle, &board.num, &fire_cell);
        let mut space = IceSpace {
            board,
            keys,
            fire_cell,
            fire_index,
            bounds,
            symmetries: Vec::new(),
            start: Key::ZERO,
        };
        space.start = space.pack(&start);
        space.symmetries = symmetries
            .into_iter()
            .filter(|s| {
                space.image(
                    s,
                    &start.regular,
                    &start.golden,
                    &start.fire_set,
                    &start_region,
                ) == space.start
            })
            .collect();
        space
    }

    /// Whether the level has symmetries that the search uses.
    pub fn is_symmetric(&self) -> bool {
        !self.symmetries.is_empty()
    }

    /// The key of the image under `symmetry` of the position with these sets and region.
    fn image(
        &self,
        symmetry: &Symmetry,
        regular: &Bits<N>,
        golden: &Bits<N>,
        fire_set: &Bits<N>,
        region: &Bits<N>,
    ) -> Key<K> {
        self.pack(&Unpacked {
            regular: symmetry.map_bits(regular),
            golden: symmetry.map_bits(golden),
            burning: Bits::EMPTY,
            fire_set: symmetry.map_fires(fire_set),
            magician: symmetry
                .lowest_image(region)
                .expect("a region is never empty"),
        })
    }

    /// The key of the least of the position `key`'s images (itself included), given its sets
    /// and region. Least in an order of the positions themselves, regular ice first, where a
    /// position and its image nearly always differ: an image is built whole only when it
    /// wins. Any order of whole positions picks the same one from every image of a class.
    #[inline]
    fn least_image(
        &self,
        key: Key<K>,
        regular: &Bits<N>,
        golden: &Bits<N>,
        region: &Bits<N>,
    ) -> Key<K> {
        if self.symmetries.is_empty() {
            return key;
        }
        let fire_set = self.fire_set_of(&key);
        // The rest of the order, for images with the same regular ice (`None`: the position).
        let rest = |s: Option<&Symmetry>| match s {
            None => (golden.0, fire_set.0, region.lowest()),
            Some(s) => (
                s.map_bits(golden).0,
                s.map_fires(&fire_set).0,
                s.lowest_image(region),
            ),
        };
        let mut least: Option<&Symmetry> = None;
        let mut least_regular = *regular;
        for symmetry in &self.symmetries {
            let image_regular = symmetry.map_bits(regular);
            let order = image_regular
                .0
                .cmp(&least_regular.0)
                .then_with(|| rest(Some(symmetry)).cmp(&rest(least)));
            if order.is_lt() {
                least = Some(symmetry);
                least_regular = image_regular;
            }
        }
        match least {
            None => key,
            Some(symmetry) => self.image(symmetry, regular, golden, &fire_set, region),
        }
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
        key.put_at(
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
            magician: key.get_at(self.keys.magician_offset, self.keys.magician_width) as usize,
        }
    }

    /// The bound of a key whose regular and golden ice are `regular` and `golden` (see
    /// [`Heuristic::heuristic_within`]); only its fires are read from `key`.
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
                key.get_at(self.keys.fires_offset, self.keys.fire_count),
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
        self.for_each_push_kept(key, false, |_, _, _| Some(0), |m, next, _| visit(m, next));
    }

    /// Calls `visit` with every legal push of `key` that `keep` keeps, the successor key it
    /// makes (`least`: the key of the least of the successor's images) and what `keep` said.
    /// `keep` sees the successor's regular and golden ice and its key before the magician's
    /// region is put in (its fires are), so that a push it drops costs no region.
    #[inline]
    fn for_each_push_kept(
        &self,
        key: &Key<K>,
        least: bool,
        mut keep: impl FnMut(&Bits<N>, &Bits<N>, &Key<K>) -> Option<u32>,
        mut visit: impl FnMut(PushMove, Key<K>, u32),
    ) {
        let u = self.unpack(key);
        let board = &self.board;
        let occupied = u.regular | u.golden;
        let (walk, region) = walk_and_region(board, &u);
        let free = board.open.minus(occupied);
        for dir in Dir::ALL {
            let pushable =
                occupied & board.toward(region, dir) & board.toward(free, dir.opposite());
            for block in pushable.ones() {
                let push = PushMove { block, dir };
                let kept = if u.golden.has(block) {
                    self.push_golden(key, &u, occupied, walk, &region, push, least, &mut keep)
                } else {
                    self.push_regular(key, &u, occupied, walk, &region, push, least, &mut keep)
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
        least: bool,
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
        let region = self.region_after(walk, region, opened, touching, closed, block, dir, true);
        Some((self.finish(next, &regular, &u.golden, &region, least), said))
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
        least: bool,
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
        let region = self.region_after(walk, region, opened, touching, closed, block, dir, joined);
        Some((self.finish(next, &u.regular, &golden, &region, least), said))
    }

    /// A successor's key, its ice and fires already in: its region id put in, and (`least`) as
    /// the least of its images.
    #[inline]
    fn finish(
        &self,
        mut next: Key<K>,
        regular: &Bits<N>,
        golden: &Bits<N>,
        region: &Bits<N>,
        least: bool,
    ) -> Key<K> {
        self.put_magician(
            &mut next,
            region.lowest().expect("the push cell is walkable"),
        );
        if least {
            self.least_image(next, regular, golden, region)
        } else {
            next
        }
    }

    /// The region after a push of the block at `block` towards `dir` that made the cells of
    /// `opened` walkable and the cell `closed` not, given the walkable cells and the region
    /// before. Without a flood fill when it is safe: the opened cells are `joined` to the push
    /// cell through the block's path, none of them touches (`touching`: their neighbours) a
    /// walkable cell outside the old region, and the closed cell, if it was in the region, keeps
    /// its walkable neighbours connected around it.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn region_after(
        &self,
        walk: Bits<N>,
        region: &Bits<N>,
        opened: Bits<N>,
        touching: Bits<N>,
        closed: Option<usize>,
        block: usize,
        dir: Dir,
        joined: bool,
    ) -> Bits<N> {
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
        if simple && outside.is_empty() {
            region_after
        } else {
            board.fill(Bits::single(self.back(block, dir)), walk_after)
        }
    }

    /// The pushes that turn each state of a path into the next, as (row, col, dir) of the grid.
    pub fn pushes_of(&self, path: &[Key<K>]) -> Vec<(usize, usize, Dir)> {
        pushes_along(
            path,
            &self.board.num,
            |key, visit| self.for_each_push(key, visit),
            |key| self.canonical(key),
        )
    }
}

impl<const N: usize, const K: usize> Space for IceSpace<N, K> {
    type State = Key<K>;

    fn start(&self) -> Key<K> {
        self.start
    }

    #[inline]
    fn successors(&self, state: &Key<K>, out: &mut Vec<Key<K>>) {
        self.for_each_push(state, |_, next| out.push(next));
    }

    /// The key of the least of the position's images under the level's symmetries (a flood
    /// fill of its region; [`Heuristic::successors_within`] makes its successors so with the
    /// region it has).
    #[inline]
    fn canonical(&self, state: Key<K>) -> Key<K> {
        if self.symmetries.is_empty() {
            return state;
        }
        let u = self.unpack(&state);
        let (_, region) = walk_and_region(&self.board, &u);
        self.least_image(state, &u.regular, &u.golden, &region)
    }

    #[inline]
    fn is_goal(&self, state: &Key<K>) -> bool {
        self.fire_set_of(state).is_empty()
    }
}

impl<const N: usize, const K: usize> Stored for IceSpace<N, K> {}

impl<const N: usize, const K: usize> MoveBudget for IceSpace<N, K> {}

impl<const N: usize, const K: usize> Heuristic for IceSpace<N, K> {
    /// Fires still burning: what beams keep fewest of first.
    #[inline]
    fn work_left(&self, state: &Key<K>) -> u32 {
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
    /// budget costs no region and no unpacking of its key. The successors kept are the least
    /// of their images, made with the region the push has in hand.
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
            true,
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

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::games::ice_tower::sim_space::SimSpace;
    use crate::games::ice_tower::tests::{puzzle, solved_in};

    /// Compares the fast space's successors with the simulator's on every state within `depth`
    /// pushes, and returns how many states were compared.
    fn compare_spaces<const K: usize>(rows: &str, depth: usize) -> usize {
        let p = puzzle(rows);
        let fast = IceSpace::<4, K>::new(&p);
        let sim = SimSpace::<4, K>::new(&p, false);
        assert_eq!(fast.start(), sim.start());
        let mut seen = HashSet::from([fast.start()]);
        let mut layer = vec![fast.start()];
        for _ in 0..depth {
            let mut next_layer = Vec::new();
            for s in &layer {
                let mut a: Vec<Key<K>> = Vec::new();
                let mut b: Vec<Key<K>> = Vec::new();
                fast.successors(s, &mut a);
                sim.successors(s, &mut b);
                a.sort();
                b.sort();
                assert_eq!(a, b, "successors of {:?}", sim.position(s));
                next_layer.extend(b.into_iter().filter(|k| seen.insert(*k)));
            }
            layer = next_layer;
        }
        seen.len()
    }

    #[test]
    fn fast_successors_match_the_simulator() {
        // Rooms that split and merge, recyclers, golden ice over fires and onto recyclers.
        let levels = [
            "########## / #@ %  # *# / # %# %#  # / #  $ -   # / #*  %  %*# / ##########",
            "########## / #%  $   *# / #  %#%   # / #@ -  %  # / #*  #  $*# / #   %  * # / ##########",
            "########### / #@  %     # / # ##  # # # / #  % %  % # / # # #  ## # / #*  % %  *# / ###########",
            "######## / # % # *# / #%@% % # / # %   %# / #*  #  # / ########",
        ];
        for rows in levels {
            let compared = compare_spaces::<2>(rows, 7);
            assert!(compared > 50, "{rows}: {compared}");
        }
        // More golden blocks than fit as 8-bit cells: the golden ice is a board set in the key.
        let rows = "######### / #@$ $  *# / #$  $ $*# / #  $ $  # / #    *  # / #########";
        let compared = compare_spaces::<2>(rows, 6);
        assert!(compared > 50, "{compared}");
    }

    #[test]
    fn more_than_64_fires_use_wide_fire_sets() {
        // Five golden blocks, each sweeping a row of 16 fires: 80 fires, five pushes.
        let wall = "#".repeat(20);
        let row = format!("# ${}#", "*".repeat(16));
        let rows = format!(
            "{wall} / #@{}# / {} / {wall}",
            " ".repeat(17),
            [row.as_str(); 5].join(" / ")
        );
        assert_eq!(solved_in(&rows), 5);
        assert!(compare_spaces::<6>(&rows, 3) > 20);
    }
}
