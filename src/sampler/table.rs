//! The global descriptor table (DESIGN.md §4): descriptors in fixed pages that never move,
//! looked up by bindless handle from any thread while the API thread inserts and removes.
//!
//! ```text
//!  handle (u64) = generation << 32 | (slot index + 1)        0 is never a handle
//!  pages: [OnceLock<Box<[Slot; PAGE_SLOTS]>>; MAX_PAGES]     allocated once, never moved
//!  Slot  = { gen: AtomicU32 (odd = live, even = free), desc: UnsafeCell<Descriptor> }
//! ```
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

/// Slots per page.
const PAGE_SLOTS: usize = 256;
/// Pages: 4096 × 256 = 1M live handles at most.
const MAX_PAGES: usize = 4096;
/// Total slots.
pub const MAX_HANDLES: usize = PAGE_SLOTS * MAX_PAGES;

struct Slot {
    /// Odd: live with this generation. Even: free (or retired). `SPENT` once exhausted.
    gen: AtomicU32,
    desc: UnsafeCell<Descriptor>,
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
    /// Removed slots waiting for readers to leave: (epoch tag, slot, images).
    retired: Vec<(u64, u32, Vec<Arc<Image>>)>,
}

/// The global descriptor table. Shared by `Arc` between the API and every draw.
pub struct DescriptorTable {
    pages: Box<[OnceLock<Box<[Slot]>>]>,
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
    if lo == 0 || lo as usize > MAX_HANDLES {
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
            pages: (0..MAX_PAGES).map(|_| OnceLock::new()).collect(),
            alloc: Mutex::new(Alloc::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Alloc> {
        // The bookkeeping stays consistent across a panic elsewhere (every update is a
        // single push/insert), so a poisoned lock is still usable.
        self.alloc.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn slot(&self, index: usize) -> Option<&Slot> {
        let page = self.pages.get(index / PAGE_SLOTS)?.get()?;
        page.get(index % PAGE_SLOTS)
    }

    fn slot_or_alloc(&self, index: usize) -> Option<&Slot> {
        let page = self.pages.get(index / PAGE_SLOTS)?.get_or_init(|| {
            (0..PAGE_SLOTS)
                .map(|_| Slot {
                    gen: AtomicU32::new(0),
                    desc: UnsafeCell::new(Descriptor::incomplete([0, 0], false)),
                })
                .collect()
        });
        page.get(index % PAGE_SLOTS)
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
        let index = match alloc.free.pop() {
            Some(i) => i,
            None if (alloc.next as usize) < MAX_HANDLES => {
                alloc.next += 1;
                alloc.next - 1
            }
            None => return None,
        };
        let slot = self.slot_or_alloc(index as usize)?;
        let gen = slot.gen.load(Ordering::Relaxed).wrapping_add(1);
        debug_assert!(gen & 1 == 1, "a free slot has an even generation");
        // SAFETY: the slot is free (even generation) and was reclaimed (or never used), so
        // no reader is inside it; we hold the alloc lock, so no writer either.
        unsafe { *slot.desc.get() = desc };
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
        alloc.retired.push((tag, index as u32, images));
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
        let mut i = 0;
        while i < alloc.retired.len() {
            if alloc.retired[i].0 <= safe {
                let (_, index, images) = alloc.retired.swap_remove(i);
                drop(images);
                let spent = self
                    .slot(index as usize)
                    .is_none_or(|s| s.gen.load(Ordering::Relaxed) == SPENT);
                if !spent {
                    alloc.free.push(index);
                }
            } else {
                i += 1;
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
        // SAFETY: the generation matched after an Acquire (SeqCst) load, so the descriptor
        // write that preceded its Release is visible, and while this thread is pinned the
        // slot is not rewritten (epoch.rs).
        Some(unsafe { &*slot.desc.get() })
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
        assert_eq!(unpack_handle(H::from_bits(MAX_HANDLES as u64 + 1)), None);
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
    fn images_are_released_after_remove() {
        let t = DescriptorTable::new();
        let img = Arc::new(Image::new(1, 1, Format::R8));
        let v = TextureView {
            levels: vec![Some(img.clone())],
            base_level: 0,
            max_level: 0,
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
