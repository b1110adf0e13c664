//! One worker's share of a distributed search's states: every state whose owner it is, stored
//! once, with a link to the state it was reached from (which may live on another worker) and,
//! for A*, its depth.
//!
//! Why not the engine's arena and dashmap: those are built for many threads inserting at once,
//! and their parent links are indices into the one arena. Here one thread owns the store (the
//! workers share nothing but messages), and a parent is anywhere in the cluster: a [`Link`] of
//! worker and index. So the store is plain: columns of states, links and depths in fixed-size
//! segments, and a hashbrown table of 4-byte indices that hashes and compares the state an index
//! points at, as the engine's visited set does. As there, states arrive in batches (a received
//! container), hashed first, their buckets prefetched a few ahead of the probe: a table of
//! millions of states fits no cache, and the probes' memory misses then overlap.

use std::hash::{BuildHasher, Hash};
use std::mem::size_of;

use hashbrown::raw::RawTable;
use serde::{Deserialize, Serialize};

use crate::engine::Stored;
use crate::engine::visited::{PREFETCH_AHEAD, Prefetcher};

/// Where a stored state lives: its worker (among all workers of the cluster) and its index in
/// that worker's store. The start's parent is [`Link::ROOT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link(u64);

impl Link {
    /// The parent of the start state.
    pub const ROOT: Link = Link(u64::MAX);

    pub fn new(worker: usize, index: u32) -> Link {
        Link((worker as u64) << 32 | u64::from(index))
    }

    pub fn worker(self) -> usize {
        (self.0 >> 32) as usize
    }

    pub fn index(self) -> u32 {
        self.0 as u32
    }
}

/// The hasher of a store's table. Its seed differs from the one that picks a state's owner, so
/// that a worker's states (which share their owner hash's low bits) still spread over its
/// whole table.
type TableHasher = foldhash::fast::FixedState;
const TABLE_SEED: u64 = 0x7461_626c_6573_6565;

/// The most states a store holds (indices are 32 bits).
pub const MAX_STATES: u64 = u32::MAX as u64;

/// Elements per segment of a column (after the first few, which grow to it).
const SEGMENT: usize = 1 << 16;

/// A growable array in segments that never move: growing it never copies it, so it never holds
/// an old and a new buffer at once, as a doubling `Vec` of millions of states would.
struct Column<T> {
    segments: Vec<Vec<T>>,
    len: usize,
}

impl<T: Copy> Column<T> {
    fn new() -> Self {
        Column {
            segments: Vec::new(),
            len: 0,
        }
    }

    fn push(&mut self, value: T) {
        match self.segments.last_mut() {
            Some(last) if last.len() < last.capacity() => last.push(value),
            _ => {
                // Small searches start small: segments of 1 Ki, 2 Ki, ... up to `SEGMENT`.
                let capacity = (1024 << self.segments.len().min(6)).min(SEGMENT);
                let mut segment = Vec::with_capacity(capacity);
                segment.push(value);
                self.segments.push(segment);
            }
        }
        self.len += 1;
    }

    /// Segment and offset of element `i`.
    #[inline]
    fn locate(i: usize) -> (usize, usize) {
        // Segments 0..=6 hold 1 Ki, 2 Ki, ... 64 Ki elements: 127 Ki in all.
        const SMALL: usize = (SEGMENT << 1) - 1024;
        if i < SMALL {
            let k = (i / 1024 + 1).ilog2() as usize;
            (k, i - 1024 * ((1 << k) - 1))
        } else {
            let j = i - SMALL;
            (7 + j / SEGMENT, j % SEGMENT)
        }
    }

    #[inline]
    fn get(&self, i: u32) -> T {
        let (s, o) = Self::locate(i as usize);
        self.segments[s][o]
    }

    fn set(&mut self, i: u32, value: T) {
        let (s, o) = Self::locate(i as usize);
        self.segments[s][o] = value;
    }

    fn bytes(&self) -> u64 {
        let elements: usize = self.segments.iter().map(Vec::capacity).sum();
        (elements * size_of::<T>() + self.segments.capacity() * size_of::<Vec<T>>()) as u64
    }
}

/// What [`Store::offer_all`] did with a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offered {
    /// Stored for the first time, at this index.
    New(u32),
    /// Already stored, now reached with a smaller depth: relinked.
    Improved(u32),
    /// Already stored, no shorter: nothing changed.
    Known,
    /// Not stored: the store holds as many states as 32-bit indices can name.
    Full,
}

/// A worker's states.
pub struct Store<S> {
    states: Column<S>,
    parents: Column<Link>,
    /// Each state's depth; `None` in a search that never improves one (BFS).
    depths: Option<Column<u16>>,
    table: RawTable<u32>,
    hasher: TableHasher,
    /// The hashes of the batch being offered.
    hashes: Vec<u64>,
    /// Whether the space tags its moves ([`crate::engine::Layout::tagged`]).
    tagged: bool,
}

impl<S: Copy + Eq + Hash> Store<S> {
    /// An empty store; `with_depths` keeps each state's depth (A*, which improves it), and
    /// `tagged` says whether the space tags its moves ([`Store::came_by`]).
    pub fn new(with_depths: bool, tagged: bool) -> Self {
        Store {
            states: Column::new(),
            parents: Column::new(),
            depths: with_depths.then(Column::new),
            table: RawTable::new(),
            hasher: TableHasher::with_seed(TABLE_SEED),
            hashes: Vec::new(),
            tagged,
        }
    }

    /// Offers a batch of states, each reached from its parent in `depth` moves: stores each new
    /// one, relinks one stored with a greater depth (in a store with depths), and tells `then`
    /// what it did with each (by its position in the batch).
    pub fn offer_all<T>(
        &mut self,
        batch: &[(S, Link, T)],
        depth: u32,
        mut then: impl FnMut(usize, Offered),
    ) {
        let Store {
            states,
            parents,
            depths,
            table,
            hasher,
            hashes,
            ..
        } = self;
        hashes.clear();
        hashes.extend(batch.iter().map(|(state, _, _)| hasher.hash_one(state)));
        // Grown before the batch, so that the prefetched addresses stay valid through it.
        table.reserve(batch.len(), |&i| hasher.hash_one(states.get(i)));
        let prefetch = Prefetcher::new(table);
        for &hash in hashes.iter().take(PREFETCH_AHEAD) {
            prefetch.hash(hash);
        }
        for (i, &(state, parent, _)) in batch.iter().enumerate() {
            if let Some(&ahead) = hashes.get(i + PREFETCH_AHEAD) {
                prefetch.hash(ahead);
            }
            let hash = hashes[i];
            let found = table.get(hash, |&k| states.get(k) == state).copied();
            let offered = match found {
                Some(index) => match depths {
                    Some(depths) if depth < u32::from(depths.get(index)) => {
                        depths.set(index, depth as u16);
                        parents.set(index, parent);
                        Offered::Improved(index)
                    }
                    _ => Offered::Known,
                },
                None => match u32::try_from(states.len).ok().filter(|&i| i != u32::MAX) {
                    None => Offered::Full,
                    Some(index) => {
                        states.push(state);
                        parents.push(parent);
                        if let Some(depths) = depths {
                            depths.push(depth as u16);
                        }
                        table.insert(hash, index, |&k| hasher.hash_one(states.get(k)));
                        Offered::New(index)
                    }
                },
            };
            then(i, offered);
        }
    }

    /// The index of `state`, if it is stored.
    pub fn find(&self, state: &S) -> Option<u32> {
        let hash = self.hasher.hash_one(state);
        self.table
            .get(hash, |&i| self.states.get(i) == *state)
            .copied()
    }

    #[inline]
    pub fn state(&self, index: u32) -> S {
        self.states.get(index)
    }

    pub fn parent(&self, index: u32) -> Link {
        self.parents.get(index)
    }

    /// The tag of the move that reached the state at `index` ([`Stored::move_tag`]), if `space`
    /// tags moves and worker `me` (this store's) holds the state it was reached from.
    pub fn came_by<P: Stored<State = S>>(&self, space: &P, index: u32, me: usize) -> Option<u8> {
        let parent = self.parent(index);
        if !self.tagged || parent == Link::ROOT || parent.worker() != me {
            return None;
        }
        space.move_tag(&self.state(index), &self.state(parent.index()))
    }

    /// Heap bytes: the columns by capacity, the table's buckets (a 4-byte index and a control
    /// byte each) and the batch's hashes.
    pub fn bytes(&self) -> u64 {
        self.states.bytes()
            + self.parents.bytes()
            + self.depths.as_ref().map_or(0, Column::bytes)
            + (self.table.buckets() * (size_of::<u32>() + 1)
                + self.hashes.capacity() * size_of::<u64>()) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_find_every_element_across_segments() {
        let mut column = Column::new();
        for i in 0..400_000u32 {
            column.push(i);
        }
        for i in [
            0, 1, 1023, 1024, 3071, 3072, 130_047, 130_048, 130_049, 399_999,
        ] {
            assert_eq!(column.get(i), i);
        }
        column.set(200_000, 7);
        assert_eq!(column.get(200_000), 7);
        assert!(column.bytes() >= 400_000 * 4);
    }

    /// Offers `states` from `parent` at `depth`: what the store did with each.
    fn offer(store: &mut Store<u64>, states: &[u64], parent: Link, depth: u32) -> Vec<Offered> {
        let batch: Vec<(u64, Link, ())> = states.iter().map(|&s| (s, parent, ())).collect();
        let mut done = Vec::new();
        store.offer_all(&batch, depth, |i, offered| done.push((i, offered)));
        assert!(done.iter().enumerate().all(|(n, &(i, _))| n == i));
        done.into_iter().map(|(_, offered)| offered).collect()
    }

    #[test]
    fn offers_store_once_and_improve_depths() {
        let mut store = Store::new(true, false);
        let a = Link::new(1, 5);
        assert_eq!(offer(&mut store, &[42], Link::ROOT, 3), [Offered::New(0)]);
        assert_eq!(
            offer(&mut store, &[42, 43, 43], a, 3),
            [Offered::Known, Offered::New(1), Offered::Known]
        );
        assert_eq!(offer(&mut store, &[42], a, 2), [Offered::Improved(0)]);
        assert_eq!(store.parent(0), a);
        assert_eq!(store.state(1), 43);
        assert_eq!((store.find(&43), store.find(&44)), (Some(1), None));
        let mut plain = Store::new(false, false);
        assert_eq!(offer(&mut plain, &[42], Link::ROOT, 3), [Offered::New(0)]);
        assert_eq!(offer(&mut plain, &[42], a, 0), [Offered::Known]);
        // Many at once: the table grows before the batch.
        let many: Vec<u64> = (0..100_000).collect();
        let offered = offer(&mut plain, &many, a, 0);
        let new = offered.iter().filter(|o| matches!(o, Offered::New(_)));
        assert_eq!(new.count(), 99_999);
        assert!(many.iter().all(|s| plain.find(s).is_some()));
    }

    #[test]
    fn links_keep_worker_and_index() {
        let link = Link::new(300, u32::MAX - 1);
        assert_eq!((link.worker(), link.index()), (300, u32::MAX - 1));
        assert_ne!(link, Link::ROOT);
    }
}
