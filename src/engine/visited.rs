//! The concurrent visited set: a sharded dashmap from each stored state to a small value (its
//! parent, for A* also its depth), hashed with a fixed-seed foldhash.
//!
//! Why dashmap: every worker inserts into one shared set; dashmap's per-shard reader-writer locks
//! let lookups of already-known states (the large majority) proceed in parallel, and resizing one
//! shard never stops the others. Why foldhash: packed states are plain integers, a
//! non-cryptographic multiply-fold hash is several times cheaper than SipHash, and a fixed seed
//! keeps runs reproducible.
//!
//! Why batches: a visited set of millions of states does not fit in any cache, so a lookup costs
//! a couple of memory misses, and the atomic read-lock of one lookup keeps the processor from
//! overlapping its misses with the next one. [`Visited::insert_batch`] therefore takes all the
//! successors of a chunk of states at once, hashes each once, groups them by shard, prefetches
//! their buckets, and probes each group under one read lock; only groups holding new states take
//! the write lock. It goes through dashmap's `raw-api` (the shards' hashbrown tables), keeping
//! dashmap's own hashing and shard choice, so the map's ordinary methods see the same entries.

use std::hash::{BuildHasher, Hash};
use std::mem::size_of;

use dashmap::{DashMap, SharedValue};

/// The hasher of every visited set.
pub type StateHasher = foldhash::fast::FixedState;

/// Shards per map: enough that workers rarely wait for one another's write locks, few enough
/// that a chunk's successors form groups long enough to overlap their memory misses.
const SHARDS: usize = 64;

/// A state offered to the set, with the value to store and a caller's tag passed through.
#[derive(Clone, Copy)]
struct Candidate<S, V> {
    state: S,
    value: V,
    tag: u32,
    hash: u64,
    shard: u32,
}

/// A worker's reusable buffers of candidates for [`Visited::insert_batch`].
pub struct Batch<S, V> {
    candidates: Vec<Candidate<S, V>>,
    /// Candidate indices grouped by shard.
    by_shard: Vec<u32>,
}

impl<S: Copy, V: Copy> Batch<S, V> {
    pub fn new() -> Self {
        Batch {
            candidates: Vec::new(),
            by_shard: Vec::new(),
        }
    }

    /// Offers `state` with `value`; `tag` comes back with it if it is stored.
    #[inline]
    pub fn push(&mut self, state: S, value: V, tag: u32) {
        self.candidates.push(Candidate {
            state,
            value,
            tag,
            hash: 0,
            shard: 0,
        });
    }

    pub fn len(&self) -> usize {
        self.candidates.len()
    }

    pub fn is_empty(&self) -> bool {
        self.candidates.is_empty()
    }
}

impl<S: Copy, V: Copy> Default for Batch<S, V> {
    fn default() -> Self {
        Self::new()
    }
}

/// A worker's reusable buffers: the successors of one state, and a chunk's batch.
pub struct Scratch<S, V> {
    pub successors: Vec<S>,
    pub batch: Batch<S, V>,
}

/// Scratch buffers handed from chunk to chunk, so that their memory is allocated once per
/// search rather than once per chunk (rayon may start a fresh job for every chunk).
pub struct ScratchPool<S, V> {
    free: std::sync::Mutex<Vec<Scratch<S, V>>>,
}

impl<S: Copy, V: Copy> ScratchPool<S, V> {
    pub fn new() -> Self {
        ScratchPool {
            free: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// Runs `f` with a scratch buffer taken from the pool (or a new one) and returns it after.
    pub fn with<R>(&self, f: impl FnOnce(&mut Scratch<S, V>) -> R) -> R {
        let taken = self.free.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut scratch = taken.unwrap_or_else(|| Scratch {
            successors: Vec::new(),
            batch: Batch::new(),
        });
        let result = f(&mut scratch);
        self.free
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(scratch);
        result
    }
}

impl<S: Copy, V: Copy> Default for ScratchPool<S, V> {
    fn default() -> Self {
        Self::new()
    }
}

/// A concurrent map from state to value, with an estimate of its memory.
pub struct Visited<S, V> {
    map: DashMap<S, V, StateHasher>,
}

impl<S: Copy + Eq + Hash, V: Copy> Visited<S, V> {
    pub fn new() -> Self {
        Visited {
            // `SHARDS` must match the map's shard count: batches index shards by it.
            map: DashMap::with_capacity_and_hasher_and_shard_amount(
                0,
                StateHasher::default(),
                SHARDS,
            ),
        }
    }

    /// Stores `state` with `value` unless it is already present; true when it was new.
    pub fn insert_new(&self, state: S, value: V) -> bool {
        match self.map.entry(state) {
            dashmap::Entry::Occupied(_) => false,
            dashmap::Entry::Vacant(v) => {
                v.insert(value);
                true
            }
        }
    }

    /// Stores every candidate of `batch` that is new, or whose value `replace(old, new)` prefers
    /// to the stored one, and calls `stored(state, value, tag, was_new)` for each one stored.
    /// Of equal states within the batch only one is stored. Empties the batch.
    pub fn insert_batch(
        &self,
        batch: &mut Batch<S, V>,
        replace: impl Fn(&V, &V) -> bool,
        mut stored: impl FnMut(S, V, u32, bool),
    ) {
        let hasher = self.map.hasher();
        // Group by shard with a counting sort (a comparison sort of the candidates costs more
        // than the probes it serves).
        let mut starts = [0usize; SHARDS + 1];
        for c in &mut batch.candidates {
            c.hash = hasher.hash_one(c.state);
            c.shard = self.map.determine_shard(c.hash as usize) as u32;
            starts[c.shard as usize + 1] += 1;
        }
        for i in 0..SHARDS {
            starts[i + 1] += starts[i];
        }
        let candidates = &batch.candidates;
        let by_shard = &mut batch.by_shard;
        by_shard.clear();
        by_shard.resize(candidates.len(), 0);
        let mut next = starts;
        for (i, c) in candidates.iter().enumerate() {
            by_shard[next[c.shard as usize]] = i as u32;
            next[c.shard as usize] += 1;
        }
        let shards = self.map.shards();
        for shard in 0..SHARDS {
            let group = &mut by_shard[starts[shard]..starts[shard + 1]];
            if group.is_empty() {
                continue;
            }
            // Under the read lock: drop the candidates already known, keeping the rest in front.
            // Equal candidates may both stay; the write phase's own lookup stores one.
            let mut pending = 0;
            {
                let table = shards[shard].read();
                let prefetch = Prefetcher::new(&table);
                // Software pipelining: the probe of candidate i overlaps the fetches of the next
                // `PREFETCH_AHEAD`, which is about what the processor can keep in flight.
                for &i in group.iter().take(PREFETCH_AHEAD) {
                    prefetch.hash(candidates[i as usize].hash);
                }
                for i in 0..group.len() {
                    if let Some(&ahead) = group.get(i + PREFETCH_AHEAD) {
                        prefetch.hash(candidates[ahead as usize].hash);
                    }
                    let c = &candidates[group[i] as usize];
                    let known = table
                        .get(c.hash, |(k, _)| *k == c.state)
                        .is_some_and(|(_, old)| !replace(old.get(), &c.value));
                    if !known {
                        group[pending] = group[i];
                        pending += 1;
                    }
                }
            }
            if pending > 0 {
                let mut table = shards[shard].write();
                for &i in &group[..pending] {
                    let c = &candidates[i as usize];
                    let found = table.find_or_find_insert_slot(
                        c.hash,
                        |(k, _)| *k == c.state,
                        |(k, _)| hasher.hash_one(k),
                    );
                    match found {
                        Ok(bucket) => {
                            // SAFETY: the bucket was just found in this table, under its write lock.
                            let old = unsafe { &mut bucket.as_mut().1 };
                            if replace(old.get(), &c.value) {
                                *old.get_mut() = c.value;
                                stored(c.state, c.value, c.tag, false);
                            }
                        }
                        Err(slot) => {
                            // SAFETY: the slot was just found in this table, which has not changed
                            // since (we hold its write lock).
                            unsafe {
                                table.insert_in_slot(
                                    c.hash,
                                    slot,
                                    (c.state, SharedValue::new(c.value)),
                                )
                            };
                            stored(c.state, c.value, c.tag, true);
                        }
                    }
                }
            }
        }
        batch.candidates.clear();
    }

    pub fn get(&self, state: &S) -> Option<V> {
        self.map.get(state).map(|r| *r)
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Follows parent links (the start is its own parent) back from `goal`; the path starts with
    /// the start state and ends with `goal`.
    pub fn path_to(&self, goal: S, parent_of: impl Fn(&V) -> S) -> Vec<S> {
        let mut path = vec![goal];
        let mut cur = goal;
        while let Some(value) = self.get(&cur) {
            let parent = parent_of(&value);
            if parent == cur {
                break;
            }
            path.push(parent);
            cur = parent;
        }
        path.reverse();
        path
    }

    /// Estimated heap bytes: every bucket of every shard holds a (state, value) pair and one
    /// control byte.
    pub fn bytes(&self) -> u64 {
        (self.map.capacity() as u64) * 8 / 7 * (size_of::<(S, V)>() as u64 + 1)
    }
}

impl<S: Copy + Eq + Hash, V: Copy> Default for Visited<S, V> {
    fn default() -> Self {
        Self::new()
    }
}

/// How many candidates ahead of the probe their buckets are fetched.
const PREFETCH_AHEAD: usize = 12;

/// Asks the processor to fetch the control group and bucket a hash will probe first.
struct Prefetcher {
    /// The end of the bucket array (the start of the control bytes) and the bucket mask;
    /// `None` for an empty table.
    table: Option<(*const u8, usize, usize)>,
}

impl Prefetcher {
    fn new<T>(table: &hashbrown::raw::RawTable<T>) -> Prefetcher {
        Prefetcher {
            table: (!table.is_empty()).then(|| {
                (
                    table.data_end().as_ptr() as *const u8,
                    table.buckets() - 1,
                    std::mem::size_of::<T>(),
                )
            }),
        }
    }

    #[inline]
    fn hash(&self, hash: u64) {
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
