//! The concurrent visited set: a sharded dashmap of arena indices. Each stored state lives once,
//! in the search's [`Arena`]; the map holds only its 32-bit index, and finds it by hashing and
//! comparing the state the index points at.
//!
//! Why dashmap: every worker inserts into one shared set; dashmap's per-shard reader-writer locks
//! let lookups of already-known states (the large majority) proceed in parallel, and resizing one
//! shard never stops the others. Why indices: a bucket of four bytes instead of a (state, parent
//! state) pair; the state itself is stored once, in the arena, and parent links, layers and open
//! lists are indices too (see [`super::arena`]). Why foldhash: packed states are plain integers,
//! a non-cryptographic multiply-fold hash is several times cheaper than SipHash, and a fixed seed
//! keeps runs reproducible.
//!
//! Why batches: a visited set of millions of states does not fit in any cache, so a lookup costs
//! a couple of memory misses, and the atomic read-lock of one lookup keeps the processor from
//! overlapping its misses with the next one. [`Visited::insert_batch`] therefore takes all the
//! successors of a chunk of states at once, hashes each once, groups them by shard, prefetches
//! their buckets, and probes each group under one read lock; only groups holding new states take
//! the write lock. It goes through dashmap's `raw-api` (the shards' hashbrown tables) with the
//! hash of the state, not of the index, and dashmap's own shard choice; the map's ordinary
//! methods, which would hash the index, are never used.
//!
//! Paths: where the arena keeps parent indices, a path is the chain of parents. A reversible
//! space keeps none ([`super::Layout::reversible`]): its path is rebuilt backwards from the
//! goal, each step regenerating the current state's neighbours (its predecessors, since every
//! move can be undone) and moving to one stored closer to the start ([`Visited::path_to`]): a
//! few lookups per move of the answer, instead of four bytes for every state stored.

use std::hash::{BuildHasher, Hash};
use std::mem::size_of;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use bytemuck::Pod;
use dashmap::{DashMap, SharedValue};

use super::arena::{Arena, Depths, Storage, wrapped_difference};
use super::{Layout, Space, Stored};

/// The hasher of every visited set.
pub type StateHasher = foldhash::fast::FixedState;

/// Shards per map: enough that workers rarely wait for one another's write locks, few enough
/// that a chunk's successors form groups long enough to overlap their memory misses.
const SHARDS: usize = 64;
const _: () = assert!(
    SHARDS <= 1 << u8::BITS,
    "a candidate keeps its shard in a byte"
);

/// A shard's table: arena indices, found by the hash of the state each points at.
type Table = hashbrown::raw::RawTable<(u32, SharedValue<()>)>;

/// Entries ahead of a rehash's reads and writes whose memory is fetched ([`Visited::grow`]).
const REHASH_AHEAD: usize = 16;

/// Bytes of a table bucket: the index and hashbrown's control byte.
const BUCKET_BYTES: u64 = size_of::<u32>() as u64 + 1;

/// A state offered to the set: its parent's index, the tag of the move from there, its depth
/// and a caller's token passed through.
#[derive(Clone, Copy)]
struct Candidate<S> {
    state: S,
    parent: u32,
    move_tag: Option<u8>,
    depth: u32,
    token: u32,
    hash: u64,
    /// Below [`SHARDS`]; a byte, so that a candidate of an 8-byte state fits in 32 bytes.
    shard: u8,
}

/// A worker's reusable buffers of candidates for [`Visited::insert_batch`].
pub struct Batch<S> {
    candidates: Vec<Candidate<S>>,
    /// Candidate indices grouped by shard.
    by_shard: Vec<u32>,
    /// Arena indices reserved for this worker's new states and not used yet.
    reserved: Range<u32>,
}

/// Arena indices a worker reserves at a time.
const RESERVE: u32 = 64;

/// Candidates a batch gathers before a search hands it to the set ([`Batch::is_full`]): enough
/// for groups of dozens per shard, whose memory misses overlap; few enough that the workers'
/// buffers stay small beside the set (a chunk of a thousand states with a dozen successors each
/// made them a fifth of a sliding-block search's memory).
const BATCH: usize = 4096;

impl<S: Pod> Batch<S> {
    pub fn new() -> Self {
        Batch {
            candidates: Vec::new(),
            by_shard: Vec::new(),
            reserved: 0..0,
        }
    }

    /// Offers `state`, reached from the state at index `parent` by a move tagged `move_tag`
    /// ([`super::Stored::move_tag`]) with `depth` moves; `token` comes back with it if it is
    /// stored.
    #[inline]
    pub fn push(&mut self, state: S, parent: u32, move_tag: Option<u8>, depth: u32, token: u32) {
        self.candidates.push(Candidate {
            state,
            parent,
            move_tag,
            depth,
            token,
            hash: 0,
            shard: 0,
        });
    }

    pub fn len(&self) -> usize {
        self.candidates.len()
    }

    /// Whether the batch should be handed to the set now, before more are pushed.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.candidates.len() >= BATCH
    }

    pub fn is_empty(&self) -> bool {
        self.candidates.is_empty()
    }

    /// Heap bytes of the buffers.
    fn bytes(&self) -> u64 {
        (self.candidates.capacity() * size_of::<Candidate<S>>()
            + self.by_shard.capacity() * size_of::<u32>()) as u64
    }
}

impl<S: Pod> Default for Batch<S> {
    fn default() -> Self {
        Self::new()
    }
}

/// A worker's reusable buffers: the successors of one state (and, in A*, those within the move
/// budget with their bounds), a chunk's batch, and the states it stored (examined after the
/// set's locks are released).
pub struct Scratch<S> {
    pub successors: Vec<S>,
    pub bounded: Vec<(S, u32)>,
    pub batch: Batch<S>,
    pub stored: Vec<(S, u32)>,
}

/// Scratch buffers handed from chunk to chunk, so that their memory is allocated once per
/// search rather than once per chunk (rayon may start a fresh job for every chunk).
pub struct ScratchPool<S> {
    free: std::sync::Mutex<Vec<Scratch<S>>>,
    /// Heap bytes of every buffer handed out so far, at their largest.
    bytes: AtomicU64,
}

impl<S: Pod> ScratchPool<S> {
    pub fn new() -> Self {
        ScratchPool {
            free: std::sync::Mutex::new(Vec::new()),
            bytes: AtomicU64::new(0),
        }
    }

    /// Runs `f` with a scratch buffer taken from the pool (or a new one) and returns it after.
    pub fn with<R>(&self, f: impl FnOnce(&mut Scratch<S>) -> R) -> R {
        let taken = self.free.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut scratch = taken.unwrap_or_else(|| Scratch {
            successors: Vec::new(),
            bounded: Vec::new(),
            batch: Batch::new(),
            stored: Vec::new(),
        });
        let before = scratch_bytes(&scratch);
        let result = f(&mut scratch);
        let grown = scratch_bytes(&scratch) - before;
        if grown > 0 {
            self.bytes.fetch_add(grown, Ordering::Relaxed);
        }
        self.free
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(scratch);
        result
    }

    /// Gives up the arena indices the workers reserved and did not use: they stay holes of
    /// `visited` ([`Visited::holes_within`]). A search whose layers are ranges of indices calls
    /// it when a layer is complete, so that no state of the next layer is written into the
    /// range of this one.
    pub fn release_reservations(&self, visited: &Visited<S>)
    where
        S: Eq + Hash,
    {
        for scratch in self
            .free
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter_mut()
        {
            visited
                .arena
                .release(std::mem::replace(&mut scratch.batch.reserved, 0..0));
        }
    }

    /// Heap bytes of the pool's buffers.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }
}

fn scratch_bytes<S: Pod>(scratch: &Scratch<S>) -> u64 {
    (scratch.successors.capacity() * size_of::<S>()
        + (scratch.stored.capacity() + scratch.bounded.capacity()) * size_of::<(S, u32)>())
        as u64
        + scratch.batch.bytes()
}

impl<S: Pod> Default for ScratchPool<S> {
    fn default() -> Self {
        Self::new()
    }
}

/// The states of one search: an arena of states and a concurrent set of their indices.
pub struct Visited<S> {
    arena: Arena<S>,
    map: DashMap<u32, (), StateHasher>,
    /// Heap bytes of the map's tables.
    table_bytes: AtomicU64,
    /// Bytes the tables would add if every shard more than 3/4 full grew now (see
    /// [`Self::imminent_growth`]).
    imminent: AtomicU64,
    /// Set when a state could not be stored because the arena is full.
    full: AtomicBool,
}

impl<S: Pod + Eq + Hash> Visited<S> {
    /// An empty set whose arena keeps what `storage` says.
    pub fn new(storage: Storage) -> Self {
        let map =
            DashMap::with_capacity_and_hasher_and_shard_amount(0, StateHasher::default(), SHARDS);
        Visited {
            arena: Arena::new(storage),
            table_bytes: AtomicU64::new((size_of_val(map.shards()) + SHARDS * 16) as u64),
            map,
            imminent: AtomicU64::new(0),
            full: AtomicBool::new(false),
        }
    }

    /// An empty set for a search of `space`: its states' bytes, parents unless the space is
    /// reversible, move tags if it tags moves, and with `depths` the depth of each state (exact,
    /// or modulo 256 in a reversible space: see [`Depths`]).
    pub fn for_space<P: Stored<State = S>>(space: &P, depths: bool) -> Self {
        let Layout {
            bytes,
            reversible,
            tagged,
        } = space.layout();
        Self::new(Storage {
            width: bytes,
            parents: !reversible,
            depths: match (depths, reversible) {
                (false, _) => Depths::None,
                (true, false) => Depths::Exact,
                (true, true) => Depths::Wrapping,
            },
            tags: tagged,
        })
    }

    /// Stores the start state (index 0, its own parent, depth 0).
    pub fn insert_root(&self, state: S) -> u32 {
        self.insert_roots(std::slice::from_ref(&state));
        0
    }

    /// Stores the starts of a search (depth 0, no parent) at the first indices, each once,
    /// and returns how many were stored. Indices left over by equal starts stay holes.
    pub fn insert_roots(&self, states: &[S]) -> u64 {
        assert!(self.is_empty(), "the roots are the first states");
        assert!(!states.is_empty(), "a search starts somewhere");
        self.insert_layer(states, std::iter::repeat(None))
    }

    /// Stores `states` after those stored already, each reached by the move of its tag in
    /// `tags`, with no parent: a layer of a search that another one began. Returns how many
    /// were new.
    pub fn insert_layer(&self, states: &[S], tags: impl Iterator<Item = Option<u8>>) -> u64 {
        let mut batch = Batch::new();
        batch.reserved = self
            .arena
            .reserve(states.len().min(u32::MAX as usize) as u32);
        let mut stored = 0;
        let mut tags = tags;
        for chunk in states.chunks(BATCH) {
            for (&state, came_by) in chunk.iter().zip(&mut tags) {
                batch.push(state, u32::MAX, came_by, 0, 0);
            }
            self.insert_batch(&mut batch, |_, _, _, _| stored += 1);
        }
        self.arena
            .release(std::mem::replace(&mut batch.reserved, 0..0));
        stored
    }

    #[inline]
    fn hash(&self, state: &S) -> u64 {
        self.map.hasher().hash_one(state)
    }

    /// Stores every candidate of `batch` that is new, or (in a set with depths) reached with a
    /// smaller depth than stored, and calls `stored(state, index, token, was_new)` for each one
    /// stored. Of equal states within the batch only one is stored. Empties the batch.
    pub fn insert_batch(&self, batch: &mut Batch<S>, mut stored: impl FnMut(S, u32, u32, bool)) {
        let arena = &self.arena;
        let starts = self.group_by_shard(batch);
        let candidates = &batch.candidates;
        // A stored depth loses to a smaller one (in a set that keeps none, nothing improves).
        let improves = |index: u32, c: &Candidate<S>| arena.improves(index, c.depth);
        let shards = self.map.shards();
        for shard in 0..SHARDS {
            let group = &mut batch.by_shard[starts[shard]..starts[shard + 1]];
            if group.is_empty() {
                continue;
            }
            // Under the read lock: drop the candidates already known, keeping the rest in front.
            // Equal candidates may both stay; the write phase's own lookup stores one.
            let pending = self.probe_group(shard, candidates, group, |index, c| {
                index.is_none_or(|index| improves(index, c))
            });
            if pending == 0 {
                continue;
            }
            let mut table = shards[shard].write();
            let buckets_before = table.buckets();
            let imminent_before = imminent_growth_of(&table);
            // Room for every pending candidate first, so that the lookups below never rehash.
            self.grow(&mut table, pending);
            for &i in &group[..pending] {
                let c = &candidates[i as usize];
                let found = table.find_or_find_insert_slot(
                    c.hash,
                    |&(k, _)| arena.state(k) == c.state,
                    // Never called: the table has room for every pending candidate.
                    |&(k, _)| self.hash(&arena.state(k)),
                );
                match found {
                    Ok(bucket) => {
                        // SAFETY: the bucket was just found in this table, under its write lock.
                        let index = unsafe { bucket.as_ref().0 };
                        if improves(index, c) {
                            arena.relink(index, c.parent, c.depth, c.move_tag);
                            stored(c.state, index, c.token, false);
                        }
                    }
                    Err(slot) => {
                        if batch.reserved.is_empty() {
                            batch.reserved = arena.reserve(RESERVE);
                        }
                        let Some(index) = batch.reserved.next() else {
                            self.full.store(true, Ordering::Relaxed);
                            continue;
                        };
                        let parent = (c.parent != u32::MAX).then_some(c.parent);
                        arena.write(index, c.state, parent, c.depth, c.move_tag);
                        // SAFETY: the slot was just found in this table, which has not changed
                        // since (we hold its write lock).
                        unsafe {
                            table.insert_in_slot(c.hash, slot, (index, SharedValue::new(())))
                        };
                        stored(c.state, index, c.token, true);
                    }
                }
            }
            let grown = table.buckets() - buckets_before;
            if grown > 0 {
                self.table_bytes
                    .fetch_add(grown as u64 * BUCKET_BYTES, Ordering::Relaxed);
            }
            let imminent = imminent_growth_of(&table);
            if imminent != imminent_before {
                self.imminent.fetch_add(imminent, Ordering::Relaxed);
                self.imminent.fetch_sub(imminent_before, Ordering::Relaxed);
            }
        }
        batch.candidates.clear();
    }

    /// Calls `found(token, index)` for every candidate of `batch` that is stored (at `index`),
    /// and empties the batch: many lookups at once, with their memory misses overlapped as in
    /// [`Self::insert_batch`].
    pub fn probe_batch(&self, batch: &mut Batch<S>, mut found: impl FnMut(u32, u32)) {
        let starts = self.group_by_shard(batch);
        for shard in 0..SHARDS {
            let group = &mut batch.by_shard[starts[shard]..starts[shard + 1]];
            if !group.is_empty() {
                self.probe_group(shard, &batch.candidates, group, |index, c| {
                    if let Some(index) = index {
                        found(c.token, index);
                    }
                    false
                });
            }
        }
        batch.candidates.clear();
    }

    /// Hashes the candidates and lists their positions grouped by shard in `batch.by_shard`
    /// (a counting sort: a comparison sort costs more than the probes it serves); returns where
    /// each shard's group starts.
    fn group_by_shard(&self, batch: &mut Batch<S>) -> [usize; SHARDS + 1] {
        let mut starts = [0usize; SHARDS + 1];
        for c in &mut batch.candidates {
            c.hash = self.hash(&c.state);
            c.shard = self.map.determine_shard(c.hash as usize) as u8;
            starts[c.shard as usize + 1] += 1;
        }
        for i in 0..SHARDS {
            starts[i + 1] += starts[i];
        }
        let by_shard = &mut batch.by_shard;
        by_shard.clear();
        by_shard.resize(batch.candidates.len(), 0);
        let mut next = starts;
        for (i, c) in batch.candidates.iter().enumerate() {
            by_shard[next[c.shard as usize]] = i as u32;
            next[c.shard as usize] += 1;
        }
        starts
    }

    /// Looks up the candidates of one shard's group under its read lock, calling
    /// `keep(index if stored, candidate)`; moves the kept ones to the front of `group` and
    /// returns how many there are.
    fn probe_group(
        &self,
        shard: usize,
        candidates: &[Candidate<S>],
        group: &mut [u32],
        mut keep: impl FnMut(Option<u32>, &Candidate<S>) -> bool,
    ) -> usize {
        let arena = &self.arena;
        let table = self.map.shards()[shard].read();
        let prefetch = Prefetcher::new(&table);
        // Software pipelining: the probe of candidate i overlaps the fetches of the next
        // `PREFETCH_AHEAD`, which is about what the processor can keep in flight.
        for &i in group.iter().take(PREFETCH_AHEAD) {
            prefetch.hash(candidates[i as usize].hash);
        }
        let mut kept = 0;
        for i in 0..group.len() {
            if let Some(&ahead) = group.get(i + PREFETCH_AHEAD) {
                prefetch.hash(candidates[ahead as usize].hash);
            }
            let c = &candidates[group[i] as usize];
            let index = table
                .get(c.hash, |&(k, _)| arena.state(k) == c.state)
                .map(|&(k, _)| k);
            if keep(index, c) {
                group[kept] = group[i];
                kept += 1;
            }
        }
        kept
    }

    /// Makes room for `additional` more states before they arrive, growing the shards' tables
    /// in parallel. Why: a table that grows while workers insert is rehashed under its write
    /// lock (every entry's state read back from the arena: a memory miss each), and the workers
    /// that need that shard meanwhile wait; at a layer boundary nobody waits.
    pub fn reserve(&self, additional: usize)
    where
        S: Send + Sync,
    {
        use rayon::prelude::*;
        let per_shard = additional.div_ceil(SHARDS);
        self.map.shards().par_iter().for_each(|shard| {
            let mut table = shard.write();
            let before = table.buckets();
            self.grow(&mut table, per_shard);
            let grown = table.buckets() - before;
            if grown > 0 {
                self.table_bytes
                    .fetch_add(grown as u64 * BUCKET_BYTES, Ordering::Relaxed);
            }
        });
    }

    /// Makes room in a shard's `table` (held under its write lock) for `additional` more
    /// entries, moving every entry into a table of the next size that holds them all.
    ///
    /// Why not hashbrown's own growth: it rehashes entry by entry, and an entry's hash is that
    /// of its state, read back from the arena at a random index: one memory miss after another
    /// (on this machine, 14% of a one-thread `bender-balls`). Here the states are fetched
    /// [`REHASH_AHEAD`] entries before their hashes are computed, and the new buckets as many
    /// entries before they are filled, so that the misses overlap.
    fn grow(&self, table: &mut Table, additional: usize) {
        if additional <= table.capacity() - table.len() {
            return;
        }
        let arena = &self.arena;
        let wanted = (table.len() + additional).max(table.capacity() + 1);
        // SAFETY: the buckets of a table under its write lock, read before it is replaced.
        let mut moved: Vec<(u64, u32)> =
            unsafe { table.iter().map(|bucket| (0, bucket.as_ref().0)).collect() };
        for i in 0..moved.len() {
            if let Some(&(_, ahead)) = moved.get(i + REHASH_AHEAD) {
                arena.prefetch(ahead);
            }
            moved[i].0 = self.hash(&arena.state(moved[i].1));
        }
        let mut grown = Table::with_capacity(wanted);
        let prefetch = Prefetcher::new(&grown);
        for i in 0..moved.len() {
            if let Some(&(hash, _)) = moved.get(i + REHASH_AHEAD) {
                prefetch.hash(hash);
            }
            let (hash, index) = moved[i];
            // SAFETY: `grown` was made with room for every entry moved.
            unsafe { grown.insert_no_grow(hash, (index, SharedValue::new(()))) };
        }
        *table = grown;
    }

    /// The index of `state`, if it is stored.
    pub fn index_of(&self, state: &S) -> Option<u32> {
        let hash = self.hash(state);
        let table = self.map.shards()[self.map.determine_shard(hash as usize)].read();
        table
            .get(hash, |&(k, _)| self.arena.state(k) == *state)
            .map(|&(k, _)| k)
    }

    pub fn contains(&self, state: &S) -> bool {
        self.index_of(state).is_some()
    }

    /// The state at index `i`.
    #[inline]
    pub fn state(&self, i: u32) -> S {
        self.arena.state(i)
    }

    /// The tag of the move that reached `i`, where the set keeps tags and `i` is not the start:
    /// a game may use it to skip moves that lead back ([`super::Stored::successors_after`]).
    #[inline]
    pub fn came_by(&self, i: u32) -> Option<u8> {
        self.arena.tag(i)
    }

    /// The depth stored with `i` (see [`Depths`]; 0 where none is kept).
    #[inline]
    pub fn depth(&self, i: u32) -> u32 {
        self.arena.depth(i)
    }

    /// The deepest depth a state can be stored with.
    pub fn max_depth(&self) -> u32 {
        self.arena.max_depth()
    }

    /// The holes (indices reserved and never written) within `range`, in order.
    pub fn holes_within(&self, range: &std::ops::Range<u32>) -> Vec<std::ops::Range<u32>> {
        self.arena.holes_within(range)
    }

    /// The states from the start (index 0) to the state at index `i`: along parent links, or in
    /// a set that keeps none (a reversible `space`), backwards from `i`: each step goes to the
    /// neighbour stored with the smallest depth below the current state's, by `depth(index)`
    /// (modulo 256 will do: the depths compared are neighbours', see [`Depths::Wrapping`]).
    /// Such a neighbour exists: the state the current one was stored from is one, and a stored
    /// depth only ever decreases. So the path is no longer than the depth of `i`.
    pub fn path_to<P: Space<State = S>>(
        &self,
        space: &P,
        i: u32,
        depth: impl Fn(u32) -> u32,
    ) -> Vec<S> {
        if let Some(path) = self.arena.path_to(i) {
            return path;
        }
        let mut path = vec![self.state(i)];
        let mut neighbours = Vec::new();
        let mut current = i;
        while current != 0 {
            neighbours.clear();
            space.successors(&self.state(current), &mut neighbours);
            let here = depth(current);
            let (_, next) = neighbours
                .iter()
                .filter_map(|&n| self.index_of(&space.canonical(n)))
                .map(|j| (wrapped_difference(depth(j), here), j))
                .filter(|&(difference, _)| difference < 0)
                .min()
                .expect("a state of a reversible space has a stored neighbour nearer the start");
            path.push(self.state(next));
            current = next;
        }
        path.reverse();
        path
    }

    /// Indices handed out so far: the states stored have indices below it, among a few holes.
    pub fn len(&self) -> usize {
        self.arena.len()
    }

    pub fn is_empty(&self) -> bool {
        self.arena.is_empty()
    }

    /// Whether a state was refused because the arena holds the most states it can index.
    pub fn is_full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// Bytes the tables are about to add: those of every shard more than 3/4 full, which will
    /// double before long. Why: the shards fill evenly, so they double within moments of one
    /// another, and in a large search the tables' doubling is a step of gigabytes that a memory
    /// budget must see coming rather than notice afterwards.
    pub fn imminent_growth(&self) -> u64 {
        self.imminent.load(Ordering::Relaxed)
    }

    /// Heap bytes allocated: the arena's segments and the map's tables (counted as they grow,
    /// from their bucket counts: four bytes of index and one control byte per bucket).
    pub fn bytes(&self) -> u64 {
        self.arena.bytes() + self.table_bytes.load(Ordering::Relaxed)
    }
}

/// What a table adds when it next grows, if it is more than 3/4 full (its buckets double).
fn imminent_growth_of<T>(table: &hashbrown::raw::RawTable<T>) -> u64 {
    if table.buckets() > 1 && table.len() * 4 >= table.capacity() * 3 {
        table.buckets() as u64 * BUCKET_BYTES
    } else {
        0
    }
}

/// How many candidates ahead of the probe their buckets are fetched.
pub(crate) const PREFETCH_AHEAD: usize = 12;

/// Asks the processor to fetch the control group and bucket a hash will probe first (also used
/// by the distributed backend's stores, which probe in batches the same way).
pub(crate) struct Prefetcher {
    /// The end of the bucket array (the start of the control bytes) and the bucket mask;
    /// `None` for a table without buckets of its own (hashbrown's empty singleton).
    table: Option<(*const u8, usize, usize)>,
}

impl Prefetcher {
    pub(crate) fn new<T>(table: &hashbrown::raw::RawTable<T>) -> Prefetcher {
        Prefetcher {
            table: (table.buckets() > 1).then(|| {
                (
                    table.data_end().as_ptr() as *const u8,
                    table.buckets() - 1,
                    std::mem::size_of::<T>(),
                )
            }),
        }
    }

    #[inline]
    pub(crate) fn hash(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some((end, mask, size)) = self.table {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let pos = hash as usize & mask;
            // Addresses inside the table's allocation; prefetching never faults.
            let ctrl = end.wrapping_add(pos);
            let bucket = end.wrapping_sub((pos + 1) * size);
            // SAFETY: prefetch is a hint without memory-safety requirements.
            unsafe {
                _mm_prefetch(ctrl as *const i8, _MM_HINT_T0);
                _mm_prefetch(bucket as *const i8, _MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (self, hash);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_stay_found_through_every_growth_of_the_tables() {
        // The tables grow both ways: ahead of a batch (`reserve`) and under a shard's write
        // lock when a batch brings more than it has room for. Every state stored must still be
        // found at its own index after each growth, and offering it again stores nothing.
        let visited = Visited::<u64>::new(Storage {
            width: 8,
            parents: false,
            depths: Depths::None,
            tags: false,
        });
        let state = |k: u64| k.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut batch = Batch::new();
        let mut index_of = Vec::new();
        for round in 0..40u64 {
            if round % 4 == 3 {
                visited.reserve(visited.len() * 2);
            }
            for k in round * 5_000..(round + 1) * 5_000 {
                batch.push(state(k), u32::MAX, None, 0, k as u32);
                if batch.is_full() {
                    visited.insert_batch(&mut batch, |_, index, k, new| {
                        assert!(new);
                        index_of.push((k, index));
                    });
                }
            }
            visited.insert_batch(&mut batch, |_, index, k, _| index_of.push((k, index)));
        }
        assert_eq!(index_of.len(), 200_000);
        for &(k, index) in &index_of {
            assert_eq!(visited.index_of(&state(u64::from(k))), Some(index));
            assert_eq!(visited.state(index), state(u64::from(k)));
        }
        for k in 0..200_000u64 {
            batch.push(state(k), u32::MAX, None, 0, 0);
            if batch.is_full() {
                visited.insert_batch(&mut batch, |_, _, _, _| panic!("stored twice"));
            }
        }
        visited.insert_batch(&mut batch, |_, _, _, _| panic!("stored twice"));
        assert!(!visited.contains(&0), "an even state was never stored");
    }
}
