//! The append-only store of a search's states: every stored state once, in its packed form, with
//! the 32-bit index of the state it was reached from and, for A*, its depth.
//!
//! Why an arena: the visited set used to keep each state beside a copy of its parent state, and
//! every open list and frontier a third and fourth copy. Here a state has one home, its index;
//! the visited set ([`super::visited`]) holds only indices, and so do parent links, BFS layers
//! (a layer is a range of indices: the states appended while the layer before was expanded) and
//! A*'s open buckets.
//!
//! Concurrency: workers append from inside the visited set's shard write locks, several shards
//! at once. An index is reserved with one atomic add and its slot written before the index is
//! published (into the set, under the lock, or to the next layer, after the layer's join), so a
//! reader that obtained an index always sees its state. Parent and depth may be rewritten when
//! A* finds a shorter path; they are atomics so that this stays well defined.
//!
//! Layout: segments of [`SEGMENT`] slots (the first seven smaller and growing, so that a search
//! of a few states allocates a few kilobytes), found through a two-level directory of pointers
//! allocated as they are needed. A segment holds its states, parents and depths as three
//! arrays, so no padding is stored beside a state.

use std::cell::UnsafeCell;
use std::mem::{MaybeUninit, size_of};
use std::sync::atomic::{AtomicPtr, AtomicU16, AtomicU32, AtomicU64, Ordering};

/// Slots of every segment after the first seven (`2^16`).
const SEGMENT_BITS: u32 = 16;
const SEGMENT: usize = 1 << SEGMENT_BITS;
/// Slots of the first segment; segment `k` in `1..=6` has `FIRST << (k - 1)`.
const FIRST_BITS: u32 = 10;
/// Directory fan-out: the top level has `DIR` entries of `DIR` segments each.
const DIR_BITS: u32 = 9;
const DIR: usize = 1 << DIR_BITS;

/// The most states an arena holds (indices are 32 bits; `u32::MAX` is never used).
pub const MAX_STATES: u64 = u32::MAX as u64;

/// The parent of a slot that was reserved but never written: a hole (see [`Arena::reserve`]).
pub const HOLE: u32 = u32::MAX;

/// One segment: `len` slots as three arrays.
struct Segment<S> {
    states: Box<[UnsafeCell<MaybeUninit<S>>]>,
    parents: Box<[AtomicU32]>,
    /// Empty when the arena keeps no depths.
    depths: Box<[AtomicU16]>,
}

impl<S> Segment<S> {
    fn new(len: usize, with_depths: bool) -> Box<Self> {
        Box::new(Segment {
            states: (0..len)
                .map(|_| UnsafeCell::new(MaybeUninit::uninit()))
                .collect(),
            parents: (0..len).map(|_| AtomicU32::new(HOLE)).collect(),
            depths: (0..if with_depths { len } else { 0 })
                .map(|_| AtomicU16::new(0))
                .collect(),
        })
    }
}

type Directory<S> = [AtomicPtr<Segment<S>>; DIR];

/// A counter alone in its cache line, so that appending does not evict what readers of the
/// arena's other fields (the directory pointer, read by every lookup) hold in theirs.
#[repr(align(128))]
struct Padded(AtomicU64);

/// A concurrent append-only vector of (state, parent index, depth).
pub struct Arena<S> {
    top: Box<[AtomicPtr<Directory<S>>; DIR]>,
    len: Padded,
    with_depths: bool,
    /// Bytes allocated so far (segments and directories).
    bytes: AtomicU64,
}

// SAFETY: slots are written once, before their index is published (see the module doc), and
// never moved; the rest is atomics.
unsafe impl<S: Send + Sync> Sync for Arena<S> {}
unsafe impl<S: Send> Send for Arena<S> {}

/// Segment number and offset of index `i`.
#[inline]
fn locate(i: u32) -> (usize, usize) {
    if i < 1 << SEGMENT_BITS {
        // Segments 0..=6: sizes 1024, 1024, 2048, ... 32768.
        let bits = 32 - (i | ((1 << FIRST_BITS) - 1)).leading_zeros();
        let segment = (bits - FIRST_BITS) as usize;
        let start = if segment == 0 { 0 } else { 1 << (bits - 1) };
        (segment, (i - start) as usize)
    } else {
        let first_fixed = (SEGMENT_BITS - FIRST_BITS + 1) as usize;
        (
            first_fixed + (i >> SEGMENT_BITS) as usize - 1,
            (i as usize) & (SEGMENT - 1),
        )
    }
}

/// Slots of segment `k`.
fn segment_len(k: usize) -> usize {
    match k {
        0 => 1 << FIRST_BITS,
        k if k <= (SEGMENT_BITS - FIRST_BITS) as usize => 1 << (FIRST_BITS + k as u32 - 1),
        _ => SEGMENT,
    }
}

impl<S: Copy> Arena<S> {
    pub fn new(with_depths: bool) -> Self {
        Arena {
            top: Box::new(std::array::from_fn(
                |_| AtomicPtr::new(std::ptr::null_mut()),
            )),
            len: Padded(AtomicU64::new(0)),
            with_depths,
            bytes: AtomicU64::new((DIR * size_of::<usize>()) as u64),
        }
    }

    /// States stored.
    pub fn len(&self) -> usize {
        (self.len.0.load(Ordering::Acquire)).min(MAX_STATES) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes allocated for the arena.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Bytes one slot takes.
    pub fn slot_bytes(&self) -> usize {
        size_of::<S>() + size_of::<u32>() + if self.with_depths { 2 } else { 0 }
    }

    /// Reserves `n` consecutive indices for one writer, or fewer (none) as the arena fills up.
    /// Why: one shared counter bumped for every state makes the cores queue for its cache line;
    /// a block per writer does not. Slots a writer leaves unwritten stay holes: their
    /// [`Self::parent`] is [`HOLE`], and nothing else of them may be read.
    pub fn reserve(&self, n: u32) -> std::ops::Range<u32> {
        let first = self.len.0.fetch_add(u64::from(n), Ordering::AcqRel);
        let end = (first + u64::from(n)).min(MAX_STATES);
        first.min(MAX_STATES) as u32..end as u32
    }

    /// Writes the state of a reserved index `i`, reached from `parent` (`None`: it is a start).
    pub fn write(&self, i: u32, state: S, parent: Option<u32>, depth: u32) {
        let (segment, offset) = locate(i);
        let seg = self.segment_or_new(segment);
        // SAFETY: index `i` was reserved by this writer alone, so nobody else writes its slot,
        // and nobody reads it before the index is published by the caller.
        unsafe { (*seg.states[offset].get()).write(state) };
        seg.parents[offset].store(parent.unwrap_or(i), Ordering::Relaxed);
        if self.with_depths {
            seg.depths[offset].store(depth as u16, Ordering::Relaxed);
        }
    }

    /// The state at a published index.
    #[inline]
    pub fn state(&self, i: u32) -> S {
        let (segment, offset) = locate(i);
        // SAFETY: a published index was written before it was published (module doc).
        unsafe { (*self.segment(segment).states[offset].get()).assume_init() }
    }

    /// The index of the state `i` was reached from (the start's is its own; a hole's [`HOLE`]).
    #[inline]
    pub fn parent(&self, i: u32) -> u32 {
        let (segment, offset) = locate(i);
        // A hole may lie in a segment that nobody wrote, and so never allocated.
        let dir = self.top[segment >> DIR_BITS].load(Ordering::Acquire);
        if dir.is_null() {
            return HOLE;
        }
        // SAFETY: directories live as long as the arena.
        let seg = unsafe { (*dir)[segment & (DIR - 1)].load(Ordering::Acquire) };
        if seg.is_null() {
            return HOLE;
        }
        // SAFETY: segments live as long as the arena.
        unsafe { &*seg }.parents[offset].load(Ordering::Relaxed)
    }

    /// The depth stored with `i` (0 when the arena keeps none).
    #[inline]
    pub fn depth(&self, i: u32) -> u32 {
        if !self.with_depths {
            return 0;
        }
        let (segment, offset) = locate(i);
        u32::from(self.segment(segment).depths[offset].load(Ordering::Relaxed))
    }

    /// Records a shorter way to `i`.
    pub fn relink(&self, i: u32, parent: u32, depth: u32) {
        let (segment, offset) = locate(i);
        let seg = self.segment(segment);
        seg.parents[offset].store(parent, Ordering::Relaxed);
        if self.with_depths {
            seg.depths[offset].store(depth as u16, Ordering::Relaxed);
        }
    }

    /// The states from the start (the first state whose parent is itself) to `i`.
    pub fn path_to(&self, mut i: u32) -> Vec<S> {
        let mut path = vec![self.state(i)];
        loop {
            let parent = self.parent(i);
            if parent == i {
                break;
            }
            path.push(self.state(parent));
            i = parent;
        }
        path.reverse();
        path
    }

    #[inline]
    fn segment(&self, k: usize) -> &Segment<S> {
        let dir = self.top[k >> DIR_BITS].load(Ordering::Acquire);
        // SAFETY: the segment of a published index exists; directories and segments live as
        // long as the arena.
        unsafe { &*(*dir)[k & (DIR - 1)].load(Ordering::Acquire) }
    }

    /// Segment `k`, allocated by whichever caller gets there first.
    fn segment_or_new(&self, k: usize) -> &Segment<S> {
        let dir = install(&self.top[k >> DIR_BITS], &self.bytes, || {
            (
                Box::new(std::array::from_fn(
                    |_| AtomicPtr::new(std::ptr::null_mut()),
                )),
                (DIR * size_of::<usize>()) as u64,
            )
        });
        let len = segment_len(k);
        let with_depths = self.with_depths;
        let bytes = (len * self.slot_bytes()) as u64;
        // SAFETY: the directory was just installed or found, and lives as long as the arena.
        let seg = install(unsafe { &(*dir)[k & (DIR - 1)] }, &self.bytes, || {
            (Segment::new(len, with_depths), bytes)
        });
        // SAFETY: as above.
        unsafe { &*seg }
    }
}

/// The pointer in `slot`, or a new box from `make` installed there (another thread's, if it
/// won the race; the loser's box is dropped).
fn install<T>(
    slot: &AtomicPtr<T>,
    bytes: &AtomicU64,
    make: impl FnOnce() -> (Box<T>, u64),
) -> *mut T {
    let current = slot.load(Ordering::Acquire);
    if !current.is_null() {
        return current;
    }
    let (fresh, size) = make();
    let fresh = Box::into_raw(fresh);
    match slot.compare_exchange(
        std::ptr::null_mut(),
        fresh,
        Ordering::AcqRel,
        Ordering::Acquire,
    ) {
        Ok(_) => {
            bytes.fetch_add(size, Ordering::Relaxed);
            fresh
        }
        Err(winner) => {
            // SAFETY: `fresh` came from `Box::into_raw` above and was never shared.
            drop(unsafe { Box::from_raw(fresh) });
            winner
        }
    }
}

impl<S> Drop for Arena<S> {
    fn drop(&mut self) {
        for dir in self.top.iter() {
            let dir = dir.load(Ordering::Acquire);
            if dir.is_null() {
                continue;
            }
            // SAFETY: every non-null pointer came from `Box::into_raw` and is dropped once.
            let dir = unsafe { Box::from_raw(dir) };
            for seg in dir.iter() {
                let seg = seg.load(Ordering::Acquire);
                if !seg.is_null() {
                    drop(unsafe { Box::from_raw(seg) });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_tile_the_index_space() {
        let mut expected = (0usize, 0usize);
        for i in 0..(3 << SEGMENT_BITS) as u32 {
            let (segment, offset) = locate(i);
            if (segment, offset) != expected {
                panic!("index {i}: {:?}, expected {expected:?}", (segment, offset));
            }
            expected.1 += 1;
            if expected.1 == segment_len(segment) {
                expected = (segment + 1, 0);
            }
        }
        let (segment, _) = locate(u32::MAX - 1);
        assert!(segment < DIR * DIR);
    }

    #[test]
    fn states_and_links_come_back_from_many_threads() {
        let arena = Arena::<u64>::new(true);
        let root = arena.reserve(1).start;
        arena.write(root, 7, None, 0);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let arena = &arena;
                s.spawn(move || {
                    for k in 0..50_000u64 {
                        let i = arena.reserve(1).start;
                        arena.write(i, t << 32 | k, Some(root), 1);
                    }
                });
            }
        });
        assert_eq!(arena.len(), 200_001);
        let mut seen: Vec<u64> = (1..arena.len() as u32).map(|i| arena.state(i)).collect();
        seen.sort_unstable();
        let mut expected: Vec<u64> = (0..4u64)
            .flat_map(|t| (0..50_000u64).map(move |k| t << 32 | k))
            .collect();
        expected.sort_unstable();
        assert!(seen == expected, "states lost or changed");
        assert_eq!(arena.path_to(200_000), vec![7, arena.state(200_000)]);
        assert_eq!(arena.depth(5), 1);
        // Reserved and never written: holes, in a written segment or in one never allocated.
        let holes = arena.reserve(1 << 17);
        assert_eq!(arena.parent(holes.start + 1), HOLE);
        assert_eq!(arena.parent(holes.end - 1), HOLE);
    }
}
