//! The append-only store of a search's states: every stored state once, in its packed form cut
//! to the bytes it uses, with (where the search needs them) the 32-bit index of the state it was
//! reached from, its depth and its move tag.
//!
//! Why an arena: the visited set used to keep each state beside a copy of its parent state, and
//! every open list and frontier a third and fourth copy. Here a state has one home, its index;
//! the visited set ([`super::visited`]) holds only indices, and so do parent links, BFS layers
//! (a layer is a range of indices: the states appended while the layer before was expanded) and
//! A*'s open buckets.
//!
//! What a slot holds ([`Storage`]): the state's first [`Storage::width`] bytes (a game's
//! [`super::Layout::bytes`]: a 41-bit sliding-block key takes 6 bytes, not 8); a parent
//! index unless the space is reversible (its paths are rebuilt backwards from depths, see
//! [`super::visited::Visited::path_back`]); and for A* a depth, exact in 16 bits or, in a
//! reversible space, modulo 256 in 8 ([`Depths`]); and where the game tags its moves, the tag
//! of the move that reached it ([`super::Stored::move_tag`], 8 bits). So a state of a reversible
//! space's A* costs its packed bytes and two, where it used to cost them and six.
//!
//! Concurrency: workers append from inside the visited set's shard write locks, several shards
//! at once. An index is reserved with one atomic add and its slot written before the index is
//! published (into the set, under the lock, or to the next layer, after the layer's join), so a
//! reader that obtained an index always sees its state. Parent, depth and tag may be rewritten
//! when A* finds a shorter path; they are atomics so that this stays well defined.
//!
//! Layout: segments of [`SEGMENT`] slots (the first seven smaller and growing, so that a search
//! of a few states allocates a few kilobytes), found through a two-level directory of pointers
//! allocated as they are needed. A segment holds its states, parents, depths and tags as separate
//! arrays, so no padding is stored beside a state.

use std::cell::UnsafeCell;
use std::marker::PhantomData;
use std::mem::{MaybeUninit, size_of};
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicPtr, AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering};

use bytemuck::Pod;

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

/// The stored tag that tags nothing: the start's, and a game's `None`.
const NO_TAG: u8 = u8::MAX;

/// The depths an arena keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depths {
    /// None: a breadth-first search's depth is its layer's.
    None,
    /// Exact, up to `u16::MAX` (A*, which improves a state's depth when it finds a shorter way).
    Exact,
    /// Modulo 256 (A* in a reversible space). Why that is enough: there a stored depth is one
    /// more than an expanded neighbour's exact distance, and neighbours' distances differ by at
    /// most one, so the depths a search ever compares (a state's and its neighbours', a stored
    /// one and an offered one) lie within a few of each other, and their difference modulo 256
    /// read as a signed byte is the true difference ([`wrapped_difference`]).
    Wrapping,
}

/// What each slot of an arena holds beside the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Storage {
    /// Bytes of a state kept: its first `width` bytes (little-endian words: the low ones). The
    /// bytes after them are zero in every state stored, and are not kept.
    pub width: usize,
    /// Whether each state keeps the index of the state it was reached from.
    pub parents: bool,
    pub depths: Depths,
    /// Whether each state keeps the tag of the move that reached it.
    pub tags: bool,
}

/// One segment: `len` slots as separate arrays; the parents, depths and tags that the arena
/// does not keep are empty.
struct Segment {
    /// `len * width` bytes: the states' kept bytes, one after another.
    states: Box<[UnsafeCell<MaybeUninit<u8>>]>,
    parents: Box<[AtomicU32]>,
    exact: Box<[AtomicU16]>,
    wrapping: Box<[AtomicU8]>,
    tags: Box<[AtomicU8]>,
}

impl Segment {
    fn new(len: usize, storage: Storage) -> Box<Self> {
        let kept = |keep: bool| if keep { len } else { 0 };
        Box::new(Segment {
            states: (0..len * storage.width)
                .map(|_| UnsafeCell::new(MaybeUninit::uninit()))
                .collect(),
            parents: (0..kept(storage.parents))
                .map(|_| AtomicU32::new(0))
                .collect(),
            exact: (0..kept(storage.depths == Depths::Exact))
                .map(|_| AtomicU16::new(0))
                .collect(),
            wrapping: (0..kept(storage.depths == Depths::Wrapping))
                .map(|_| AtomicU8::new(0))
                .collect(),
            tags: (0..kept(storage.tags))
                .map(|_| AtomicU8::new(NO_TAG))
                .collect(),
        })
    }
}

type Directory = [AtomicPtr<Segment>; DIR];

/// A counter alone in its cache line, so that appending does not evict what readers of the
/// arena's other fields (the directory pointer, read by every lookup) hold in theirs.
#[repr(align(128))]
struct Padded(AtomicU64);

/// A concurrent append-only vector of (state, parent index, depth, move tag).
pub struct Arena<S> {
    top: Box<[AtomicPtr<Directory>; DIR]>,
    len: Padded,
    storage: Storage,
    /// Bytes allocated so far (segments and directories).
    bytes: AtomicU64,
    /// Ranges of indices reserved and given up unwritten ([`Self::release`]), in order.
    holes: Mutex<Vec<Range<u32>>>,
    state: PhantomData<S>,
}

// SAFETY: slots are written once, before their index is published (see the module doc), and
// never moved; the rest is atomics or behind a mutex.
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

impl<S: Pod> Arena<S> {
    pub fn new(storage: Storage) -> Self {
        assert!(
            (1..=size_of::<S>()).contains(&storage.width),
            "a state keeps between 1 and all of its {} bytes, not {}",
            size_of::<S>(),
            storage.width
        );
        Arena {
            top: Box::new(std::array::from_fn(
                |_| AtomicPtr::new(std::ptr::null_mut()),
            )),
            len: Padded(AtomicU64::new(0)),
            storage,
            bytes: AtomicU64::new((DIR * size_of::<usize>()) as u64),
            holes: Mutex::new(Vec::new()),
            state: PhantomData,
        }
    }

    /// What a slot holds.
    pub fn storage(&self) -> Storage {
        self.storage
    }

    /// Indices handed out so far: the states stored have indices below it, among a few holes.
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
        let Storage {
            width,
            parents,
            depths,
            tags,
        } = self.storage;
        width
            + if parents { size_of::<u32>() } else { 0 }
            + if tags { size_of::<u8>() } else { 0 }
            + match depths {
                Depths::None => 0,
                Depths::Exact => size_of::<u16>(),
                Depths::Wrapping => size_of::<u8>(),
            }
    }

    /// Reserves `n` consecutive indices for one writer, or fewer (none) as the arena fills up.
    /// Why: one shared counter bumped for every state makes the cores queue for its cache line;
    /// a block per writer does not. Indices a writer does not use it gives back with
    /// [`Self::release`]: they stay holes, and nothing of them may be read.
    pub fn reserve(&self, n: u32) -> std::ops::Range<u32> {
        let first = self.len.0.fetch_add(u64::from(n), Ordering::AcqRel);
        let end = (first + u64::from(n)).min(MAX_STATES);
        first.min(MAX_STATES) as u32..end as u32
    }

    /// Records reserved indices that will never be written: holes, which a search walking a
    /// range of indices skips ([`Self::holes_within`]).
    pub fn release(&self, unused: Range<u32>) {
        if unused.is_empty() {
            return;
        }
        let mut holes = self.holes.lock().unwrap_or_else(|e| e.into_inner());
        let at = holes.partition_point(|h| h.start < unused.start);
        holes.insert(at, unused);
    }

    /// The holes within `range`, in order.
    pub fn holes_within(&self, range: &Range<u32>) -> Vec<Range<u32>> {
        let holes = self.holes.lock().unwrap_or_else(|e| e.into_inner());
        let from = holes.partition_point(|h| h.end <= range.start);
        holes[from..]
            .iter()
            .take_while(|h| h.start < range.end)
            .cloned()
            .collect()
    }

    /// Writes the state of a reserved index `i`, reached from `parent` (`None`: it is a start)
    /// by a move tagged `tag`.
    pub fn write(&self, i: u32, state: S, parent: Option<u32>, depth: u32, tag: Option<u8>) {
        let (segment, offset) = locate(i);
        let seg = self.segment_or_new(segment);
        let width = self.storage.width;
        let bytes = bytemuck::bytes_of(&state);
        debug_assert!(
            bytes[width..].iter().all(|&b| b == 0),
            "a state uses more than the {width} bytes its space declared"
        );
        // SAFETY: index `i` was reserved by this writer alone, so nobody else writes its slot,
        // and nobody reads it before the index is published by the caller; the slot's bytes
        // lie within the segment's array.
        unsafe {
            let slot = UnsafeCell::raw_get(seg.states.as_ptr().add(offset * width)).cast::<u8>();
            copy_short(bytes.as_ptr(), slot, width);
        }
        if self.storage.parents {
            seg.parents[offset].store(parent.unwrap_or(i), Ordering::Relaxed);
        }
        self.set_depth(seg, offset, depth);
        self.set_tag(seg, offset, tag);
    }

    fn set_tag(&self, seg: &Segment, offset: usize, tag: Option<u8>) {
        if self.storage.tags {
            seg.tags[offset].store(tag.unwrap_or(NO_TAG), Ordering::Relaxed);
        }
    }

    /// The tag of the move that reached `i`; `None` for a start, or when the arena keeps none.
    #[inline]
    pub fn tag(&self, i: u32) -> Option<u8> {
        if !self.storage.tags {
            return None;
        }
        let (segment, offset) = locate(i);
        let tag = self.segment(segment).tags[offset].load(Ordering::Relaxed);
        (tag != NO_TAG).then_some(tag)
    }

    fn set_depth(&self, seg: &Segment, offset: usize, depth: u32) {
        match self.storage.depths {
            Depths::None => {}
            Depths::Exact => seg.exact[offset].store(depth as u16, Ordering::Relaxed),
            Depths::Wrapping => seg.wrapping[offset].store(depth as u8, Ordering::Relaxed),
        }
    }

    /// Asks the processor to fetch the state at a published index: a caller that reads many
    /// states in an order it knows ahead (a table's rehash) overlaps their memory misses.
    #[inline]
    pub fn prefetch(&self, i: u32) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let (segment, offset) = locate(i);
            let slot = self
                .segment(segment)
                .states
                .as_ptr()
                .wrapping_add(offset * self.storage.width);
            // SAFETY: prefetch is a hint without memory-safety requirements.
            unsafe { _mm_prefetch(slot.cast::<i8>(), _MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    /// The state at a published index.
    #[inline]
    pub fn state(&self, i: u32) -> S {
        let (segment, offset) = locate(i);
        let width = self.storage.width;
        // SAFETY: a published index was written before it was published (module doc); its
        // `width` bytes lie within the segment's array, and any bytes make a `Pod` state.
        unsafe {
            let slot = self
                .segment(segment)
                .states
                .as_ptr()
                .add(offset * width)
                .cast::<u8>();
            if width == size_of::<S>() {
                std::ptr::read_unaligned(slot.cast::<S>())
            } else if size_of::<S>().is_multiple_of(8) && align_of::<S>() >= 8 {
                // A state of whole words (every key of the games): each word is put together
                // in a register and stored once. Bytes copied into a stack value piecemeal and
                // then read as a word stall the load (no store forwards it), in every lookup.
                let mut state = S::zeroed();
                let words: &mut [u64] =
                    bytemuck::cast_slice_mut(bytemuck::bytes_of_mut(&mut state));
                for (k, word) in words.iter_mut().enumerate().take(width.div_ceil(8)) {
                    *word = read_word(slot.add(8 * k), (width - 8 * k).min(8));
                }
                state
            } else {
                let mut state = S::zeroed();
                copy_short(slot, (&raw mut state).cast::<u8>(), width);
                state
            }
        }
    }

    /// The index of the state `i` was reached from (the start's is its own); `None` when the
    /// arena keeps no parents.
    #[inline]
    pub fn parent(&self, i: u32) -> Option<u32> {
        if !self.storage.parents {
            return None;
        }
        let (segment, offset) = locate(i);
        Some(self.segment(segment).parents[offset].load(Ordering::Relaxed))
    }

    /// The depth stored with `i`: exact, or modulo 256 (see [`Depths`]), or 0 when the arena
    /// keeps none.
    #[inline]
    pub fn depth(&self, i: u32) -> u32 {
        let (segment, offset) = locate(i);
        match self.storage.depths {
            Depths::None => 0,
            Depths::Exact => u32::from(self.segment(segment).exact[offset].load(Ordering::Relaxed)),
            Depths::Wrapping => {
                u32::from(self.segment(segment).wrapping[offset].load(Ordering::Relaxed))
            }
        }
    }

    /// Whether `depth` is smaller than the depth stored with `i` (never, when none is kept).
    #[inline]
    pub fn improves(&self, i: u32, depth: u32) -> bool {
        match self.storage.depths {
            Depths::None => false,
            Depths::Exact => depth < self.depth(i),
            Depths::Wrapping => wrapped_difference(depth, self.depth(i)) < 0,
        }
    }

    /// The deepest depth a state can be stored with.
    pub fn max_depth(&self) -> u32 {
        match self.storage.depths {
            Depths::Exact => u32::from(u16::MAX),
            Depths::None | Depths::Wrapping => u32::MAX,
        }
    }

    /// Records a shorter way to `i`.
    pub fn relink(&self, i: u32, parent: u32, depth: u32, tag: Option<u8>) {
        let (segment, offset) = locate(i);
        let seg = self.segment(segment);
        if self.storage.parents {
            seg.parents[offset].store(parent, Ordering::Relaxed);
        }
        self.set_depth(seg, offset, depth);
        self.set_tag(seg, offset, tag);
    }

    /// The states from the start (the first state whose parent is itself) to `i`; `None` when
    /// the arena keeps no parents.
    pub fn path_to(&self, mut i: u32) -> Option<Vec<S>> {
        let mut path = vec![self.state(i)];
        loop {
            let parent = self.parent(i)?;
            if parent == i {
                break;
            }
            path.push(self.state(parent));
            i = parent;
        }
        path.reverse();
        Some(path)
    }

    #[inline]
    fn segment(&self, k: usize) -> &Segment {
        let dir = self.top[k >> DIR_BITS].load(Ordering::Acquire);
        // SAFETY: the segment of a published index exists; directories and segments live as
        // long as the arena.
        unsafe { &*(*dir)[k & (DIR - 1)].load(Ordering::Acquire) }
    }

    /// Segment `k`, allocated by whichever caller gets there first.
    fn segment_or_new(&self, k: usize) -> &Segment {
        let dir = install(&self.top[k >> DIR_BITS], &self.bytes, || {
            (
                Box::new(std::array::from_fn(
                    |_| AtomicPtr::new(std::ptr::null_mut()),
                )),
                (DIR * size_of::<usize>()) as u64,
            )
        });
        let len = segment_len(k);
        let storage = self.storage;
        let bytes = (len * self.slot_bytes()) as u64;
        // SAFETY: the directory was just installed or found, and lives as long as the arena.
        let seg = install(unsafe { &(*dir)[k & (DIR - 1)] }, &self.bytes, || {
            (Segment::new(len, storage), bytes)
        });
        // SAFETY: as above.
        unsafe { &*seg }
    }
}

/// Copies `len` bytes from `src` to `dst` with moves of constant size: eight bytes at a time,
/// then the rest as two overlapping moves of 4, 2 or 1. Why: a copy of a length known only at
/// run time is a call to `memmove`, and reading a state back (every comparison in a lookup)
/// spent a sixth of The Time Machine's search in it.
///
/// # Safety
/// `src` must be valid for reading and `dst` for writing `len` bytes; they must not overlap.
#[inline(always)]
unsafe fn copy_short(src: *const u8, dst: *mut u8, len: usize) {
    // SAFETY: every move lies within the first `len` bytes of both (the caller's promise).
    unsafe {
        let mut at = 0;
        while len - at >= 8 {
            std::ptr::copy_nonoverlapping(src.add(at), dst.add(at), 8);
            at += 8;
        }
        let rest = len - at;
        let last = at + rest;
        if rest >= 4 {
            std::ptr::copy_nonoverlapping(src.add(at), dst.add(at), 4);
            std::ptr::copy_nonoverlapping(src.add(last - 4), dst.add(last - 4), 4);
        } else if rest >= 2 {
            std::ptr::copy_nonoverlapping(src.add(at), dst.add(at), 2);
            std::ptr::copy_nonoverlapping(src.add(last - 2), dst.add(last - 2), 2);
        } else if rest == 1 {
            *dst.add(at) = *src.add(at);
        }
    }
}

/// The little-endian word of the `len` bytes (1 to 8) at `src`, zero above them: at most two
/// loads, overlapping where `len` is not a power of two.
///
/// # Safety
/// `src` must be valid for reading `len` bytes.
#[inline(always)]
unsafe fn read_word(src: *const u8, len: usize) -> u64 {
    // SAFETY: every load lies within the first `len` bytes (the caller's promise).
    unsafe {
        let load = |at: usize, bytes: usize| -> u64 {
            match bytes {
                8 => u64::from_le(std::ptr::read_unaligned(src.add(at).cast::<u64>())),
                4 => u64::from(u32::from_le(std::ptr::read_unaligned(
                    src.add(at).cast::<u32>(),
                ))),
                2 => u64::from(u16::from_le(std::ptr::read_unaligned(
                    src.add(at).cast::<u16>(),
                ))),
                _ => u64::from(*src.add(at)),
            }
        };
        // The low piece covers bytes 0..piece, the high one len - piece..len; where they
        // overlap they hold the same bytes in the same places, so OR joins them.
        let piece = match len {
            8 => 8,
            4..=7 => 4,
            2..=3 => 2,
            _ => 1,
        };
        let high = len - piece;
        load(0, piece) | load(high, piece) << (8 * high)
    }
}

/// `depth` less `stored`, both taken modulo 256, as a signed difference: the true difference
/// of two depths that lie within 127 of each other (see [`Depths::Wrapping`]). Exact depths
/// compare the same way while they are that close.
#[inline]
pub fn wrapped_difference(depth: u32, stored: u32) -> i8 {
    (depth as u8).wrapping_sub(stored as u8) as i8
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

    const FULL: Storage = Storage {
        width: 8,
        parents: true,
        depths: Depths::Exact,
        tags: true,
    };

    #[test]
    fn states_and_links_come_back_from_many_threads() {
        let arena = Arena::<u64>::new(FULL);
        let root = arena.reserve(1).start;
        arena.write(root, 7, None, 0, None);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let arena = &arena;
                s.spawn(move || {
                    for k in 0..50_000u64 {
                        let i = arena.reserve(1).start;
                        arena.write(i, t << 32 | k, Some(root), 1, Some(t as u8));
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
        assert_eq!(arena.path_to(200_000), Some(vec![7, arena.state(200_000)]));
        assert_eq!(arena.depth(5), 1);
        assert_eq!(arena.tag(root), None, "the start is reached by no move");
        assert_eq!(arena.tag(200_000), Some((arena.state(200_000) >> 32) as u8));
        assert_eq!(arena.slot_bytes(), 15);
    }

    #[test]
    fn narrow_states_keep_their_bytes_and_only_those() {
        // 5 of 8 bytes, no parents, depths modulo 256: 6 bytes a slot.
        let arena = Arena::<u64>::new(Storage {
            width: 5,
            parents: false,
            depths: Depths::Wrapping,
            tags: false,
        });
        assert_eq!(arena.slot_bytes(), 6);
        let states: Vec<u64> = (0..100_000u64)
            .map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 24)
            .collect();
        for (depth, &state) in (0..).zip(&states) {
            let i = arena.reserve(1).start;
            arena.write(i, state, None, depth, Some(3));
        }
        for (i, &state) in (0..).zip(&states) {
            assert_eq!(arena.state(i), state, "state {i}");
            assert_eq!(arena.depth(i), i % 256);
        }
        assert_eq!(arena.parent(3), None);
        assert_eq!(arena.path_to(3), None);
        assert_eq!(arena.tag(3), None, "no tags kept");
        // A depth 300 is stored as 44; 299 still reads as smaller, 301 as larger.
        arena.relink(7, 0, 300, None);
        assert!(arena.improves(7, 299));
        assert!(!arena.improves(7, 301));
        assert!(!arena.improves(7, 300));
    }

    #[test]
    fn every_width_keeps_exactly_its_bytes() {
        for width in 1..=16 {
            let arena = Arena::<u128>::new(Storage {
                width,
                parents: false,
                depths: Depths::None,
                tags: false,
            });
            let mask = u128::MAX >> (128 - 8 * width);
            let states: Vec<u128> = (1..200u128)
                .map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835) & mask)
                .collect();
            for &state in &states {
                let i = arena.reserve(1).start;
                arena.write(i, state, None, 0, None);
            }
            for (i, &state) in (0..).zip(&states) {
                assert_eq!(arena.state(i), state, "width {width}, state {i}");
            }
        }
    }

    #[test]
    fn holes_are_the_ranges_given_back() {
        let arena = Arena::<u32>::new(Storage {
            width: 4,
            parents: false,
            depths: Depths::None,
            tags: false,
        });
        let a = arena.reserve(64);
        let b = arena.reserve(64);
        arena.release(b.start + 10..b.end);
        arena.release(a.start + 60..a.end);
        assert_eq!(
            arena.holes_within(&(0..128)),
            vec![60..64, 74..128],
            "in order"
        );
        assert_eq!(arena.holes_within(&(64..100)), vec![74..128]);
        assert_eq!(arena.holes_within(&(0..60)), Vec::<Range<u32>>::new());
    }
}
