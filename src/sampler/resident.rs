//! Resident sets (per context, DESIGN.md §4): which bindless handles a context has made
//! resident. Draws hold `Arc` snapshots of the set; a residency change after a draw is
//! queued copies the set (`Arc::make_mut`), so queued draws keep the set they saw.
//!
//! That copy must cost O(log n), not the set: the handles live in a persistent B-tree whose
//! nodes are shared (`Arc`). Cloning the set clones one pointer (the root); a change copies
//! the nodes on one root-to-leaf path: a leaf of at most `2 * LEAF` handles and at most
//! `2 * FAN` child pointers per inner level. With 2^20 resident handles that is 3 levels
//! (about 100 pointers and one 8 KiB leaf) where the flat chunk list before copied 1,024
//! pointers and the first version the whole 8 MiB (6–9.5 ms per draw after a change;
//! issue #11 item 4). A lookup (every texture instruction's lane) descends by binary
//! search over each inner node's maxima, then searches the leaf.
//!
//! ```text
//!  root: Inner[(max0, ·) (max1, ·) ...]      every node non-empty, sorted, and
//!           /            \                   every handle of a child ≤ its max <
//!     Leaf[h0 .. h511]   Leaf[...]            every handle of the next child
//! ```
//!
//! A lookup that finds its handle leaves it in `memo`, a small direct-mapped table the
//! workers of a draw share (relaxed atomics: an entry is either empty or a handle this very
//! set holds), so the quads after the first that sample through one handle skip the
//! descent. The B-tree descent was 21% of `grid_4096_bindless_ssbo` (4096 resident handles,
//! one lookup per quad). Only `remove` can make an entry wrong, and it takes `&mut self`;
//! a clone starts with an empty memo, so the memo never outlives the contents it caches.
//!
//! Growth is fallible: inserting reserves what it may need (one slot per level, a leaf's
//! split half) before it changes anything, so an allocation failure leaves the set as it
//! was and the caller reports GL_OUT_OF_MEMORY. Copying a shared node on the way (at most
//! 16 KiB, bounded, not sized by the application) allocates infallibly.

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::table::TextureHandle;

/// A leaf splits in two when it would hold more than twice this many handles.
const LEAF: usize = 512;
/// An inner node splits in two when it would hold more than twice this many children.
const FAN: usize = 16;

#[derive(Clone, Debug)]
enum Node {
    Leaf(Vec<TextureHandle>),
    /// Children with the largest handle each holds.
    Inner(Vec<(TextureHandle, Arc<Node>)>),
}

impl Node {
    /// Largest handle below this node (nodes are never empty).
    fn max(&self) -> TextureHandle {
        match self {
            Node::Leaf(v) => v.last().copied(),
            Node::Inner(c) => c.last().map(|c| c.0),
        }
        .unwrap_or(TextureHandle::from_bits(0))
    }

    fn is_empty(&self) -> bool {
        match self {
            Node::Leaf(v) => v.is_empty(),
            Node::Inner(c) => c.is_empty(),
        }
    }

    fn contains(&self, h: TextureHandle) -> bool {
        let mut n = self;
        loop {
            match n {
                Node::Leaf(v) => return v.binary_search(&h).is_ok(),
                Node::Inner(c) => {
                    let i = c.partition_point(|(m, _)| *m < h);
                    match c.get(i) {
                        Some((_, child)) => n = child,
                        None => return false,
                    }
                }
            }
        }
    }
}

/// Splits off the upper half of `v` into a vector allocated fallibly beforehand.
fn split_half<T>(v: &mut Vec<T>, mut upper: Vec<T>) -> Vec<T> {
    upper.extend(v.drain(v.len() / 2..));
    upper
}

/// Inserts `h` (known absent) below `node`; returns the new upper sibling when `node` split.
fn insert_in(node: &mut Arc<Node>, h: TextureHandle) -> Result<Option<Arc<Node>>, TryReserveError> {
    match Arc::make_mut(node) {
        Node::Leaf(v) => {
            let at = v.binary_search(&h).unwrap_or_else(|at| at);
            let mut upper = Vec::new();
            if v.len() + 1 > 2 * LEAF {
                upper.try_reserve_exact((v.len() + 1).div_ceil(2))?;
            }
            v.try_reserve(1)?;
            v.insert(at, h);
            if v.len() > 2 * LEAF {
                return Ok(Some(Arc::new(Node::Leaf(split_half(v, upper)))));
            }
            Ok(None)
        }
        Node::Inner(c) => {
            // Room for a child's split half and for our own split, before anything changes.
            c.try_reserve(1)?;
            let mut upper = Vec::new();
            if c.len() + 1 > 2 * FAN {
                upper.try_reserve_exact((c.len() + 1).div_ceil(2))?;
            }
            let i = c.partition_point(|(m, _)| *m < h).min(c.len() - 1);
            let split = insert_in(&mut c[i].1, h)?;
            c[i].0 = c[i].1.max();
            if let Some(s) = split {
                c.insert(i + 1, (s.max(), s));
                if c.len() > 2 * FAN {
                    return Ok(Some(Arc::new(Node::Inner(split_half(c, upper)))));
                }
            }
            Ok(None)
        }
    }
}

/// Removes `h` (known present) below `node`.
fn remove_in(node: &mut Arc<Node>, h: TextureHandle) {
    match Arc::make_mut(node) {
        Node::Leaf(v) => {
            if let Ok(at) = v.binary_search(&h) {
                v.remove(at);
            }
        }
        Node::Inner(c) => {
            let i = c.partition_point(|(m, _)| *m < h);
            if i < c.len() {
                remove_in(&mut c[i].1, h);
                if c[i].1.is_empty() {
                    c.remove(i);
                } else {
                    c[i].0 = c[i].1.max();
                }
            }
        }
    }
}

/// Entries of a set's lookup memo (a power of two). A 64×64 tile of the bindless grid
/// samples about 16 handles; 128 entries leave room for a few workers' tiles at once.
const MEMO: usize = 128;

/// A resident set. Cloning it is O(1) (one root pointer and an empty memo).
#[derive(Debug, Default)]
pub struct ResidentSet {
    root: Option<Arc<Node>>,
    len: usize,
    /// Handles found resident by `contains` (0: empty; no handle is 0), at
    /// `memo_slot(handle)`. Speed only: a hit and a descent give the same answer.
    memo: Memo,
}

/// The lookup memo of a set (see the module docs).
struct Memo([AtomicU64; MEMO]);

impl Default for Memo {
    fn default() -> Self {
        Memo(std::array::from_fn(|_| AtomicU64::new(0)))
    }
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}

impl Clone for ResidentSet {
    fn clone(&self) -> Self {
        ResidentSet {
            root: self.root.clone(),
            len: self.len,
            memo: Memo::default(),
        }
    }
}

/// The memo entry of `handle`: its low bits are its descriptor slot + 1 (`table.rs`), so
/// handles made one after another take entries one after another.
#[inline]
fn memo_slot(handle: TextureHandle) -> usize {
    handle.to_bits() as usize & (MEMO - 1)
}

impl ResidentSet {
    /// Adds `handle`; `Ok(false)` when it was already resident, `Err` (the set unchanged)
    /// when memory for it could not be had.
    pub fn insert(&mut self, handle: TextureHandle) -> Result<bool, TryReserveError> {
        if self.contains(handle) {
            return Ok(false);
        }
        match &mut self.root {
            None => {
                let mut v = Vec::new();
                v.try_reserve(1)?;
                v.push(handle);
                self.root = Some(Arc::new(Node::Leaf(v)));
            }
            Some(root) => {
                let mut top = Vec::new();
                top.try_reserve_exact(2)?;
                if let Some(upper) = insert_in(root, handle)? {
                    let lower = root.clone();
                    top.push((lower.max(), lower));
                    top.push((upper.max(), upper));
                    *root = Arc::new(Node::Inner(top));
                }
            }
        }
        self.len += 1;
        Ok(true)
    }

    /// Removes `handle`; false when it was not resident.
    pub fn remove(&mut self, handle: TextureHandle) -> bool {
        if !self.contains(handle) {
            return false;
        }
        let entry = self.memo.0[memo_slot(handle)].get_mut();
        if *entry == handle.to_bits() {
            *entry = 0;
        }
        if let Some(root) = &mut self.root {
            remove_in(root, handle);
            // Drop empty roots and inner roots of one child (keeps the tree shallow).
            loop {
                match self.root.as_deref() {
                    Some(n) if n.is_empty() => self.root = None,
                    Some(Node::Inner(c)) if c.len() == 1 => {
                        let child = c[0].1.clone();
                        self.root = Some(child);
                    }
                    _ => break,
                }
            }
        }
        self.len -= 1;
        true
    }

    pub fn contains(&self, handle: TextureHandle) -> bool {
        let bits = handle.to_bits();
        let entry = &self.memo.0[memo_slot(handle)];
        if bits != 0 && entry.load(Ordering::Relaxed) == bits {
            return true;
        }
        let found = self.root.as_ref().is_some_and(|r| r.contains(handle));
        if found && bits != 0 {
            entry.store(bits, Ordering::Relaxed);
        }
        found
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

    /// The tree invariants of the module docs; returns the node's handles in order and
    /// its depth.
    fn walk(n: &Node, out: &mut Vec<TextureHandle>) -> usize {
        match n {
            Node::Leaf(v) => {
                assert!(!v.is_empty() && v.len() <= 2 * LEAF, "leaf of {}", v.len());
                out.extend(v);
                1
            }
            Node::Inner(c) => {
                assert!(!c.is_empty() && c.len() <= 2 * FAN, "inner of {}", c.len());
                let mut depth = None;
                for (m, child) in c {
                    let before = out.len();
                    let d = walk(child, out);
                    assert_eq!(*depth.get_or_insert(d), d, "balanced");
                    assert_eq!(out.last(), Some(m), "max key");
                    assert!(out.len() > before);
                }
                depth.unwrap_or(0) + 1
            }
        }
    }

    fn check(set: &ResidentSet) -> usize {
        let mut all = Vec::new();
        let depth = set.root.as_ref().map_or(0, |r| walk(r, &mut all));
        assert!(all.windows(2).all(|w| w[0] < w[1]), "sorted, no duplicates");
        assert_eq!(all.len(), set.len);
        depth
    }

    proptest! {
        #[test]
        fn behaves_as_a_set(ops in proptest::collection::vec((any::<bool>(), 0u64..5000), 0..6000)) {
            let mut set = ResidentSet::default();
            let mut model = BTreeSet::new();
            for (add, v) in ops {
                if add {
                    prop_assert_eq!(set.insert(h(v)).unwrap(), model.insert(v));
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

    proptest! {
        /// Lookups between changes fill the memo; every answer must still be the set's,
        /// for this set and for snapshots taken along the way. Values 0..300 collide in
        /// memo entries (MEMO = 128).
        #[test]
        fn memo_never_answers_for_a_changed_set(
            ops in proptest::collection::vec((0u8..4, 1u64..300), 0..3000)
        ) {
            let mut set = ResidentSet::default();
            let mut model = BTreeSet::new();
            let mut snapshots = Vec::new();
            for (i, (op, v)) in ops.into_iter().enumerate() {
                match op {
                    0 => prop_assert_eq!(set.insert(h(v)).unwrap(), model.insert(v)),
                    1 => prop_assert_eq!(set.remove(h(v)), model.remove(&v)),
                    2 if i % 64 == 0 => snapshots.push((set.clone(), model.clone())),
                    _ => prop_assert_eq!(set.contains(h(v)), model.contains(&v)),
                }
                for (snap, m) in &snapshots {
                    prop_assert_eq!(snap.contains(h(v)), m.contains(&v));
                }
            }
            for v in 0..300 {
                prop_assert_eq!(set.contains(h(v)), model.contains(&v));
            }
        }
    }

    #[test]
    fn a_removed_handle_is_not_answered_from_the_memo() {
        let mut set = ResidentSet::default();
        let (a, b) = (h(5), h(5 + MEMO as u64)); // one memo entry
        set.insert(a).unwrap();
        set.insert(b).unwrap();
        assert!(set.contains(a) && set.contains(b) && set.contains(a));
        assert_eq!(
            set.memo.0[memo_slot(a)].load(Ordering::Relaxed),
            a.to_bits()
        );
        let snapshot = set.clone();
        assert!(set.remove(a));
        assert!(!set.contains(a) && set.contains(b));
        assert!(snapshot.contains(a) && snapshot.contains(b));
        assert!(!set.contains(h(0)) && !snapshot.contains(h(0)));
    }

    /// Leaves reachable from `n`, as pointers.
    fn leaves(n: &Arc<Node>, out: &mut Vec<*const Node>) {
        match &**n {
            Node::Leaf(_) => out.push(Arc::as_ptr(n)),
            Node::Inner(c) => c.iter().for_each(|(_, c)| leaves(c, out)),
        }
    }

    #[test]
    fn a_snapshot_keeps_what_it_saw_and_shares_untouched_nodes() {
        let mut set = ResidentSet::default();
        for v in 0..(1u64 << 16) {
            set.insert(h(v * 2 + 1)).unwrap();
        }
        assert!(check(&set) >= 3, "deep enough to have inner levels");
        let snapshot = set.clone();
        assert!(set.insert(h(4)).unwrap());
        assert!(set.remove(h(1 << 16 | 1)));
        assert!(snapshot.contains(h(1 << 16 | 1)) && !snapshot.contains(h(4)));
        assert!(set.contains(h(4)) && !set.contains(h(1 << 16 | 1)));
        check(&set);
        check(&snapshot);
        // Only the leaves the two changes touched were copied.
        let (mut a, mut b) = (Vec::new(), Vec::new());
        leaves(set.root.as_ref().unwrap(), &mut a);
        leaves(snapshot.root.as_ref().unwrap(), &mut b);
        let b: std::collections::HashSet<_> = b.into_iter().collect();
        let copied = a.iter().filter(|p| !b.contains(p)).count();
        assert!(copied <= 2, "{copied} of {} leaves copied", a.len());
    }

    #[test]
    fn removing_everything_empties_the_tree() {
        let mut set = ResidentSet::default();
        for v in 0..5000 {
            set.insert(h(v)).unwrap();
        }
        for v in (0..5000).rev() {
            assert!(set.remove(h(v)));
        }
        assert!(set.is_empty() && set.root.is_none());
        assert!(!set.remove(h(1)));
    }
}
