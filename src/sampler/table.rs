//! The global descriptor table (DESIGN.md §4): descriptors in fixed pages that never move,
//! looked up by bindless handle from any thread while the API thread inserts and removes.
//!
//! ```text
//!  handle (u64) = generation << 32 | (slot index + 1)        0 is never a handle
//!  pages: [OnceLock<Box<[Slot]>>; PAGES]   page p holds 256 << p slots, allocated once
//!          page 0: slots 0..256, page 1: 256..768, page 2: 768..1792, ...  never moved
//!  Slot  = { gen: AtomicU32 (odd = live, even = free), desc: UnsafeCell<MaybeUninit<Descriptor>> }
//! ```
//!
//! - **Size.** Pages double, so 25 of them cover every slot index a handle's low 32 bits
//!   can name (2^32 − 1 handles), the directory stays a fixed array of 25 cells, and the
//!   page of a slot is one `leading_zeros` away: a lookup makes the same two dependent
//!   loads (page pointer, slot) as the fixed 256-slot pages of 2^20 slots before. Pages
//!   are allocated zeroed (the OS hands out untouched pages lazily: a 2^24-slot page costs
//!   memory only as its slots are used) and fallibly: a page that cannot be had makes
//!   `insert` return `None` (GL_OUT_OF_MEMORY), never an abort. Creating a handle is O(1)
//!   amortised: a free-list pop or the next fresh slot, plus one page allocation per
//!   doubling.
//!
//! - **Publication.** `insert` writes a free slot's descriptor, then stores its new odd
//!   generation (SeqCst, which includes Release); readers load the generation (SeqCst ⊇
//!   Acquire) and read the descriptor only when it equals the handle's. A slot is written
//!   only while free and unreachable, so reads never race with writes.
//! - **Removal.** `remove` makes the generation even (stale handles miss from then on) and
//!   retires the slot: its images and the slot itself are reclaimed, and the slot reused,
//!   only when no reader can still be inside it (`epoch.rs`).
//! - **Wrap.** A slot whose generation would wrap is never reused, so a stale handle can
//!   never match a later descriptor (2^31 reuses per slot, then the slot is spent).
//! - Images stay alive through the `Arc`s the table keeps per slot; the descriptor itself
//!   holds only raw pointers.

use std::cell::UnsafeCell;
use std::collections::VecDeque;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::descriptor::Descriptor;
use super::epoch;
use super::image::Image;
use super::{SamplerState, TextureView};

/// A bindless texture handle, as the table hands them out (`generation << 32 | (slot index +
/// 1)`, see the module docs) and as applications, uniforms, vertex attributes and shader
/// lanes carry it: 64 bits that are *not* trusted. Any value can be made from bits (a forged
/// or stale handle simply misses in `lookup`); only `DescriptorTable::insert` makes valid
/// ones. The C ABI keeps `GLuint64`; inside the library a handle is this type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct TextureHandle(u64);

impl TextureHandle {
    /// The handle whose value is `bits` (from the application or a shader lane).
    pub const fn from_bits(bits: u64) -> TextureHandle {
        TextureHandle(bits)
    }
    /// The handle's value, as GL returns it (`GLuint64`).
    pub const fn to_bits(self) -> u64 {
        self.0
    }
}

impl std::fmt::Display for TextureHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x{:016x}", self.0)
    }
}

/// log2 of the slots of page 0; page p holds `FIRST_PAGE_SLOTS << p`.
const FIRST_PAGE_LOG2: u32 = 8;
const FIRST_PAGE_SLOTS: usize = 1 << FIRST_PAGE_LOG2;
/// Pages: 256 × (2^25 − 1) slots > 2^32, every index a handle can name.
const PAGES: usize = 25;
/// Most slots (and live handles): a handle's low 32 bits are index + 1, and 0 is no handle.
pub const MAX_HANDLES: usize = u32::MAX as usize;

/// (page, slot within the page) of slot `index` (< `MAX_HANDLES`).
#[inline]
fn locate(index: usize) -> (usize, usize) {
    let j = index + FIRST_PAGE_SLOTS;
    let page = (usize::BITS - 1 - j.leading_zeros() - FIRST_PAGE_LOG2) as usize;
    (page, j - (FIRST_PAGE_SLOTS << page))
}

struct Slot {
    /// Odd: live with this generation. Even: free (or retired). `SPENT` once exhausted.
    gen: AtomicU32,
    /// Written by `insert` before the first odd generation is published, so initialised
    /// whenever a reader has matched an odd generation.
    desc: UnsafeCell<MaybeUninit<Descriptor>>,
}

/// `n` zeroed slots (all free: generation 0), or `None` when the memory is not there.
fn alloc_slots(n: usize) -> Option<Box<[Slot]>> {
    let layout = std::alloc::Layout::array::<Slot>(n).ok()?;
    debug_assert!(layout.size() > 0);
    // SAFETY: the layout has a non-zero size (n > 0 slots of non-zero size).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Slot>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` comes from the global allocator with `Layout::array::<Slot>(n)`, the
    // layout a `Box<[Slot]>` of n slots frees with; all-zero bytes are a valid `Slot`
    // (`AtomicU32` 0, a free generation; `MaybeUninit` holds any bytes).
    Some(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n)) })
}

/// Generation of a slot that can no longer be reused (even, so it never matches).
const SPENT: u32 = 0;

/// API-side bookkeeping, behind a mutex (only `insert` / `remove` / `reclaim` take it).
#[derive(Default)]
struct Alloc {
    /// Slots never used yet start at `next`.
    next: u32,
    /// Reclaimed slots, ready for reuse.
    free: Vec<u32>,
    /// Images each live slot points into, by slot index.
    keep: std::collections::HashMap<u32, Vec<Arc<Image>>>,
    /// Removed slots waiting for readers to leave: (epoch tag, slot, images), in tag order
    /// (tags only grow and are taken under the lock), so reclaiming pops from the front.
    retired: VecDeque<(u64, u32, Vec<Arc<Image>>)>,
}

/// The global descriptor table. Shared by `Arc` between the API and every draw.
pub struct DescriptorTable {
    pages: [OnceLock<Box<[Slot]>>; PAGES],
    alloc: Mutex<Alloc>,
}

// SAFETY: `desc` cells are written only by `insert` (under the `alloc` mutex) while their
// slot is free and unreachable by readers (even generation, and any reader that saw the
// old generation has left, per the epoch protocol); readers only read a descriptor after
// an Acquire load of a matching generation that the writer Released after writing. The raw
// pointers inside descriptors point into images the table keeps alive (`Alloc::keep` and
// `retired`) until no reader can reach them.
unsafe impl Sync for DescriptorTable {}
// SAFETY: as above; nothing in the table is tied to a thread.
unsafe impl Send for DescriptorTable {}

impl std::fmt::Debug for DescriptorTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pages = self.pages.iter().filter(|p| p.get().is_some()).count();
        f.debug_struct("DescriptorTable")
            .field("pages", &pages)
            .finish_non_exhaustive()
    }
}

impl Default for DescriptorTable {
    fn default() -> Self {
        DescriptorTable::new()
    }
}

/// Splits a handle into (slot index, generation); `None` for 0 or an index out of range.
#[inline]
pub(crate) fn unpack_handle(handle: TextureHandle) -> Option<(usize, u32)> {
    let bits = handle.to_bits();
    let lo = bits as u32;
    if lo == 0 {
        return None;
    }
    Some((lo as usize - 1, (bits >> 32) as u32))
}

#[inline]
fn pack_handle(index: u32, gen: u32) -> TextureHandle {
    TextureHandle::from_bits((gen as u64) << 32 | (index as u64 + 1))
}

impl DescriptorTable {
    pub fn new() -> Self {
        DescriptorTable {
            pages: std::array::from_fn(|_| OnceLock::new()),
            alloc: Mutex::new(Alloc::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Alloc> {
        // The bookkeeping stays consistent across a panic elsewhere (every update is a
        // single push/insert), so a poisoned lock is still usable.
        self.alloc.lock().unwrap_or_else(|e| e.into_inner())
    }

    #[inline]
    fn slot(&self, index: usize) -> Option<&Slot> {
        let (page, at) = locate(index);
        self.pages.get(page)?.get()?.get(at)
    }

    /// The slot, allocating its page (zeroed, fallibly) if needed; `None` past
    /// `MAX_HANDLES` or when the page's memory is not there. Called under the alloc lock
    /// (or from single-threaded tests), so no two threads build the same page.
    fn slot_or_alloc(&self, index: usize) -> Option<&Slot> {
        if index >= MAX_HANDLES {
            return None;
        }
        let (page, at) = locate(index);
        let cell = self.pages.get(page)?;
        let slots = match cell.get() {
            Some(slots) => slots,
            None => {
                let fresh = alloc_slots(FIRST_PAGE_SLOTS << page)?;
                cell.get_or_init(|| fresh)
            }
        };
        slots.get(at)
    }

    /// Creates a descriptor for `view` sampled with `state`; `internal` descriptors (bound
    /// texture units turned into handles at draw time) need no residency. An incomplete
    /// texture still gets a handle; it samples (0, 0, 0, 1) (GL 4.5 core §11.1.3.5; the API
    /// refuses bindless handles for incomplete textures before calling this). Returns the
    /// handle, or `None` when the table is full.
    pub fn insert(
        &self,
        view: TextureView,
        state: SamplerState,
        internal: bool,
    ) -> Option<TextureHandle> {
        let (desc, images) = Descriptor::build(&view, &state, internal);
        let mut alloc = self.lock();
        self.reclaim_locked(&mut alloc);
        // Room for the bookkeeping first, so that nothing below can fail half-way.
        alloc.keep.try_reserve(1).ok()?;
        let (index, fresh) = match alloc.free.last() {
            Some(&i) => (i, false),
            None => (alloc.next, true),
        };
        let slot = self.slot_or_alloc(index as usize)?;
        if fresh {
            alloc.next += 1;
        } else {
            alloc.free.pop();
        }
        let gen = slot.gen.load(Ordering::Relaxed).wrapping_add(1);
        debug_assert!(gen & 1 == 1, "a free slot has an even generation");
        // SAFETY: the slot is free (even generation) and was reclaimed (or never used), so
        // no reader is inside it; we hold the alloc lock, so no writer either.
        unsafe { (*slot.desc.get()).write(desc) };
        slot.gen.store(gen, Ordering::SeqCst);
        alloc.keep.insert(index, images);
        Some(pack_handle(index, gen))
    }

    /// Frees the descriptor of `handle` (texture or sampler deleted); the handle goes stale
    /// and lookups miss from now on. Stale or invalid handles are ignored.
    pub fn remove(&self, handle: TextureHandle) {
        let Some((index, gen)) = unpack_handle(handle) else {
            return;
        };
        let mut alloc = self.lock();
        let Some(slot) = self.slot(index) else {
            return;
        };
        if gen & 1 == 0 || slot.gen.load(Ordering::SeqCst) != gen {
            return;
        }
        // Even: free. u32::MAX is odd, so MAX + 1 wraps to 0 = SPENT, never reused.
        slot.gen.store(gen.wrapping_add(1), Ordering::SeqCst);
        let tag = epoch::advance();
        let images = alloc.keep.remove(&(index as u32)).unwrap_or_default();
        alloc.retired.push_back((tag, index as u32, images));
        self.reclaim_locked(&mut alloc);
    }

    /// Whether `handle` names a live descriptor.
    pub fn contains(&self, handle: TextureHandle) -> bool {
        let Some((index, gen)) = unpack_handle(handle) else {
            return false;
        };
        gen & 1 == 1
            && self
                .slot(index)
                .is_some_and(|s| s.gen.load(Ordering::SeqCst) == gen)
    }

    /// Whether `handle` names a live internal descriptor (one that needs no residency).
    pub fn is_internal(&self, handle: TextureHandle) -> bool {
        let Some(_guard) = epoch::pin() else {
            return false;
        };
        self.lookup(handle).is_some_and(|d| d.is_internal())
    }

    /// Frees removed descriptors that no reader can still reach (also done by every
    /// `insert` and `remove`).
    pub fn reclaim(&self) {
        let mut alloc = self.lock();
        self.reclaim_locked(&mut alloc);
    }

    fn reclaim_locked(&self, alloc: &mut Alloc) {
        if alloc.retired.is_empty() {
            return;
        }
        let safe = epoch::safe_epoch();
        while alloc.retired.front().is_some_and(|r| r.0 <= safe) {
            let Some((_, index, images)) = alloc.retired.pop_front() else {
                break;
            };
            drop(images);
            let spent = self
                .slot(index as usize)
                .is_none_or(|s| s.gen.load(Ordering::Relaxed) == SPENT);
            // A push that cannot grow the free list leaks the slot, never aborts.
            if !spent && alloc.free.try_reserve(1).is_ok() {
                alloc.free.push(index);
            }
        }
    }

    /// Looks `handle` up. The caller must be pinned (`epoch::pin`) for as long as it uses
    /// the returned reference; the guard's lifetime is not tied to it, so callers keep the
    /// guard alive across every use.
    #[inline]
    pub(crate) fn lookup(&self, handle: TextureHandle) -> Option<&Descriptor> {
        let (index, gen) = unpack_handle(handle)?;
        if gen & 1 == 0 {
            return None;
        }
        let slot = self.slot(index)?;
        if slot.gen.load(Ordering::SeqCst) != gen {
            return None;
        }
        // SAFETY: the generation matched an odd one after an Acquire (SeqCst) load, so the
        // descriptor write (which initialised the cell) that preceded its Release is
        // visible, and while this thread is pinned the slot is not rewritten (epoch.rs).
        Some(unsafe { (*slot.desc.get()).assume_init_ref() })
    }

    /// Test hook: forces the generation of a fresh slot so wrap-around can be tested.
    #[cfg(test)]
    fn set_free_generation(&self, index: u32, gen: u32) {
        assert!(gen & 1 == 0);
        let slot = self.slot_or_alloc(index as usize).unwrap();
        slot.gen.store(gen, Ordering::SeqCst);
    }

    #[cfg(test)]
    fn next_index(&self) -> u32 {
        self.lock().next
    }

    /// Test hook: the next fresh slot `insert` takes.
    #[cfg(test)]
    fn set_next_index(&self, next: u32) {
        self.lock().next = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sampler::Format;
    use TextureHandle as H;

    fn view() -> TextureView {
        TextureView {
            levels: vec![Some(Arc::new(Image::new(2, 2, Format::Rgba8)))],
            base_level: 0,
            max_level: 1000,
            kind: Default::default(),
        }
    }

    #[test]
    fn handles_pack_index_and_generation() {
        let t = DescriptorTable::new();
        let a = t.insert(view(), SamplerState::default(), false).unwrap();
        let b = t.insert(view(), SamplerState::default(), true).unwrap();
        assert_eq!(a.to_bits(), 1 << 32 | 1);
        assert_eq!(b.to_bits(), 1 << 32 | 2);
        assert!(t.contains(a) && t.contains(b));
        assert!(!t.is_internal(a) && t.is_internal(b));
        assert!(!t.contains(H::from_bits(0)));
        assert_eq!(unpack_handle(H::from_bits(0)), None);
        assert_eq!(unpack_handle(H::from_bits(1 << 32)), None);
        assert_eq!(
            unpack_handle(H::from_bits(1 << 32 | u32::MAX as u64)),
            Some((MAX_HANDLES - 1, 1))
        );
        assert!(!t.contains(H::from_bits(1 << 32 | u32::MAX as u64)));
        assert_eq!(unpack_handle(H::from_bits(5 << 32 | 3)), Some((2, 5)));
    }

    #[test]
    fn removed_handles_go_stale_and_slots_are_reused() {
        let t = DescriptorTable::new();
        let a = t.insert(view(), SamplerState::default(), false).unwrap();
        t.remove(a);
        assert!(!t.contains(a));
        t.remove(a); // stale: ignored
        t.remove(H::from_bits(0));
        t.remove(H::from_bits(u64::MAX));
        // Reclamation may wait for readers of other tests; retry until the slot returns.
        let mut b = t.insert(view(), SamplerState::default(), false).unwrap();
        let start = std::time::Instant::now();
        while b.to_bits() as u32 != a.to_bits() as u32 {
            assert!(start.elapsed().as_secs() < 10);
            std::thread::yield_now();
            t.reclaim();
            b = t.insert(view(), SamplerState::default(), false).unwrap();
        }
        assert_eq!(b.to_bits() >> 32, 3, "same slot, next live generation");
        assert!(t.contains(b) && !t.contains(a));
    }

    #[test]
    fn generation_wrap_spends_the_slot() {
        let t = DescriptorTable::new();
        t.set_free_generation(0, u32::MAX - 1);
        let _ = t.slot_or_alloc(0);
        // Force slot 0 to be the next allocated.
        assert_eq!(t.next_index(), 0);
        let h = t.insert(view(), SamplerState::default(), false).unwrap();
        assert_eq!(h.to_bits(), (u32::MAX as u64) << 32 | 1);
        assert!(t.contains(h));
        t.remove(h);
        assert!(!t.contains(h));
        let start = std::time::Instant::now();
        while !t.lock().retired.is_empty() {
            assert!(start.elapsed().as_secs() < 10);
            std::thread::yield_now();
            t.reclaim();
        }
        // The spent slot is never handed out again, and the old handle never matches.
        let h2 = t.insert(view(), SamplerState::default(), false).unwrap();
        assert_eq!(h2.to_bits() as u32, 2);
        assert!(!t.contains(h));
        assert!(!t.contains(H::from_bits(1))); // generation 0 of slot 0
        assert!(t.lock().free.is_empty());
    }

    #[test]
    fn pages_double_and_tile_the_slot_indices() {
        assert_eq!(locate(0), (0, 0));
        assert_eq!(locate(255), (0, 255));
        assert_eq!(locate(256), (1, 0));
        assert_eq!(locate(767), (1, 511));
        assert_eq!(locate(768), (2, 0));
        let mut end = 0;
        for page in 0..PAGES {
            assert_eq!(locate(end), (page, 0));
            end += FIRST_PAGE_SLOTS << page;
            assert_eq!(locate(end - 1), (page, (FIRST_PAGE_SLOTS << page) - 1));
        }
        assert!(end >= MAX_HANDLES);
        assert_eq!(locate(MAX_HANDLES - 1).0, PAGES - 1);
    }

    /// Issue #11: the table stopped at 2^20 handles. Slots past it work (their page is
    /// allocated zeroed, so this costs no more than the slots used).
    #[test]
    fn handles_past_two_to_the_twenty() {
        let t = DescriptorTable::new();
        let first = t.insert(view(), SamplerState::default(), false).unwrap();
        t.set_next_index((1 << 20) - 1);
        let hs: Vec<TextureHandle> = (0..3)
            .map(|_| t.insert(view(), SamplerState::default(), false).unwrap())
            .collect();
        assert_eq!(hs[0].to_bits(), 1 << 32 | 1 << 20);
        assert_eq!(hs[2].to_bits(), 1 << 32 | ((1 << 20) + 2));
        assert!(hs.iter().all(|&h| t.contains(h)) && t.contains(first));
        // The descriptors read back are the ones written (internal or not).
        assert!(hs.iter().all(|&h| !t.is_internal(h)));
        t.set_next_index(10_000_000);
        let ten_million = t.insert(view(), SamplerState::default(), true).unwrap();
        assert_eq!(ten_million.to_bits() as u32, 10_000_001);
        assert!(t.is_internal(ten_million));
    }

    /// A page the memory cannot hold makes `insert` fail (GL_OUT_OF_MEMORY above), takes
    /// nothing, and leaves the table working.
    #[test]
    fn a_page_that_cannot_be_had_fails_the_insert() {
        let t = DescriptorTable::new();
        // The last page holds 2^32 slots of 344 bytes: 1.4 TiB, refused at once.
        t.set_next_index(u32::MAX - 1);
        assert_eq!(t.insert(view(), SamplerState::default(), false), None);
        assert_eq!(t.next_index(), u32::MAX - 1);
        t.set_next_index(0);
        assert!(t.insert(view(), SamplerState::default(), false).is_some());
        t.set_next_index(u32::MAX);
        assert_eq!(t.insert(view(), SamplerState::default(), false), None);
    }

    #[test]
    fn images_are_released_after_remove() {
        let t = DescriptorTable::new();
        let img = Arc::new(Image::new(1, 1, Format::R8));
        let v = TextureView {
            levels: vec![Some(img.clone())],
            base_level: 0,
            max_level: 0,
            kind: Default::default(),
        };
        let h = t.insert(v, SamplerState::default(), false).unwrap();
        assert_eq!(Arc::strong_count(&img), 2);
        t.remove(h);
        let start = std::time::Instant::now();
        while Arc::strong_count(&img) != 1 {
            assert!(start.elapsed().as_secs() < 10);
            std::thread::yield_now();
            t.reclaim();
        }
    }
}
