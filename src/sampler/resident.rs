//! Resident sets (per context, DESIGN.md §4): which bindless handles a context has made
//! resident. Draws hold `Arc` snapshots of the set; a residency change after a draw is
//! queued copies the set (`Arc::make_mut`), so queued draws keep the set they saw.
//!
//! That copy must not cost the whole set: the handles are kept sorted in chunks of at most
//! `2 * CHUNK` that are themselves shared (`Arc`), so cloning the set copies one pointer per
//! chunk and a change copies one chunk. With 2^20 resident handles a change then copies
//! 1,024 pointers and one chunk of at most 16 KiB, not 8 MiB (measured before: 6–9.5 ms per
//! draw after a change). A lookup (every texture instruction's lane) is a binary search
//! over the chunks' last handles, then one inside the chunk.
//!
//! ```text
//!  chunks: [ Arc[h0 .. h1023] | Arc[h1024 .. h2047] | ... ]   sorted, none empty,
//!            every handle of a chunk < every handle of the next
//! ```

use std::sync::Arc;

use super::table::TextureHandle;

/// A chunk splits in two when it would hold more than twice this many handles.
const CHUNK: usize = 1024;

/// A resident set. Cloning it is O(number of chunks).
#[derive(Clone, Debug, Default)]
pub struct ResidentSet {
    chunks: Vec<Arc<Vec<TextureHandle>>>,
    len: usize,
}

impl ResidentSet {
    /// The chunk `handle` belongs in: the first whose last handle is ≥ `handle` (the last
    /// chunk when `handle` is above them all). None only when the set is empty.
    fn chunk_of(&self, handle: TextureHandle) -> Option<usize> {
        if self.chunks.is_empty() {
            return None;
        }
        let i = self
            .chunks
            .partition_point(|c| c.last().is_some_and(|&l| l < handle));
        Some(i.min(self.chunks.len() - 1))
    }

    /// Adds `handle`; false when it was already resident.
    pub fn insert(&mut self, handle: TextureHandle) -> bool {
        let Some(i) = self.chunk_of(handle) else {
            self.chunks.push(Arc::new(vec![handle]));
            self.len = 1;
            return true;
        };
        let at = match self.chunks[i].binary_search(&handle) {
            Ok(_) => return false,
            Err(at) => at,
        };
        let chunk = Arc::make_mut(&mut self.chunks[i]);
        chunk.insert(at, handle);
        if chunk.len() > 2 * CHUNK {
            let upper = chunk.split_off(chunk.len() / 2);
            self.chunks.insert(i + 1, Arc::new(upper));
        }
        self.len += 1;
        true
    }

    /// Removes `handle`; false when it was not resident.
    pub fn remove(&mut self, handle: TextureHandle) -> bool {
        let Some(i) = self.chunk_of(handle) else {
            return false;
        };
        let Ok(at) = self.chunks[i].binary_search(&handle) else {
            return false;
        };
        let chunk = Arc::make_mut(&mut self.chunks[i]);
        chunk.remove(at);
        if chunk.is_empty() {
            self.chunks.remove(i);
        }
        self.len -= 1;
        true
    }

    pub fn contains(&self, handle: TextureHandle) -> bool {
        self.chunk_of(handle)
            .is_some_and(|i| self.chunks[i].binary_search(&handle).is_ok())
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn h(v: u64) -> TextureHandle {
        TextureHandle::from_bits(v)
    }

    /// The chunk invariants of the module docs.
    fn check(set: &ResidentSet) {
        let all: Vec<TextureHandle> = set.chunks.iter().flat_map(|c| c.iter().copied()).collect();
        assert!(all.windows(2).all(|w| w[0] < w[1]), "sorted, no duplicates");
        assert!(set
            .chunks
            .iter()
            .all(|c| !c.is_empty() && c.len() <= 2 * CHUNK));
        assert_eq!(all.len(), set.len);
    }

    proptest! {
        #[test]
        fn behaves_as_a_set(ops in proptest::collection::vec((any::<bool>(), 0u64..5000), 0..6000)) {
            let mut set = ResidentSet::default();
            let mut model = BTreeSet::new();
            for (add, v) in ops {
                if add {
                    prop_assert_eq!(set.insert(h(v)), model.insert(v));
                } else {
                    prop_assert_eq!(set.remove(h(v)), model.remove(&v));
                }
            }
            check(&set);
            prop_assert_eq!(set.len(), model.len());
            for v in 0..5000 {
                prop_assert_eq!(set.contains(h(v)), model.contains(&v));
            }
        }
    }

    #[test]
    fn a_snapshot_keeps_what_it_saw_and_shares_untouched_chunks() {
        let mut set = ResidentSet::default();
        for v in 0..(1u64 << 16) {
            set.insert(h(v * 2 + 1));
        }
        check(&set);
        assert!(set.chunks.len() > 16);
        let snapshot = set.clone();
        assert!(set.insert(h(4)));
        assert!(set.remove(h(1 << 16 | 1)));
        assert!(snapshot.contains(h(1 << 16 | 1)) && !snapshot.contains(h(4)));
        assert!(set.contains(h(4)) && !set.contains(h(1 << 16 | 1)));
        // Only the chunks the two changes touched were copied.
        let shared = set
            .chunks
            .iter()
            .zip(&snapshot.chunks)
            .filter(|(a, b)| Arc::ptr_eq(a, b))
            .count();
        assert!(
            shared >= set.chunks.len() - 2,
            "{shared} of {}",
            set.chunks.len()
        );
    }
}
