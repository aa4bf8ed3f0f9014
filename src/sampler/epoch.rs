//! Epoch-based reclamation for the descriptor table: lets worker threads read descriptors
//! (and the texel memory they point to) without locks while the API thread removes them.
//!
//! Protocol (a minimal crossbeam-epoch):
//! - A reader *pins* its thread for the span of one texture instruction: it stores the
//!   global epoch into its own participant record (SeqCst), then checks slot generations.
//! - The API thread, after making a slot unreachable (generation bumped, SeqCst), advances
//!   the global epoch to `g` and retires the slot's contents tagged `g`.
//! - Retired contents are freed (and the slot reused) once every participant is unpinned or
//!   pinned at an epoch ≥ `g`.
//!
//! Why it holds: all the accesses above are SeqCst, so they fall in one total order. If
//! the reclaimer saw a reader unpinned, the reader's pin comes after the generation bump,
//! so the reader's generation check fails and it never touches the slot. If it saw the
//! reader pinned at ≥ g, the reader loaded the epoch after the bump: same conclusion. A
//! reader pinned at < g blocks reclamation until it unpins.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The global epoch; starts at 1 so that 0 means "not pinned".
static EPOCH: AtomicU64 = AtomicU64::new(1);

/// Every thread that ever pinned. Dead threads are pruned on scan.
static PARTICIPANTS: Mutex<Vec<Arc<Participant>>> = Mutex::new(Vec::new());

/// One thread's record, on its own cache line so pins never contend.
#[repr(align(64))]
#[derive(Default)]
struct Participant {
    /// Epoch the thread is pinned at, 0 when not pinned.
    pinned: AtomicU64,
    dead: AtomicBool,
}

/// The thread-local handle; marks the record dead when the thread exits.
struct Local {
    record: Arc<Participant>,
    depth: Cell<u32>,
}

impl Drop for Local {
    fn drop(&mut self) {
        self.record.pinned.store(0, Ordering::SeqCst);
        self.record.dead.store(true, Ordering::SeqCst);
    }
}

thread_local! {
    static LOCAL: Local = {
        let record = Arc::new(Participant::default());
        // A poisoned registry only means another thread panicked while holding it; the
        // vector itself is always valid.
        PARTICIPANTS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(record.clone());
        Local { record, depth: Cell::new(0) }
    };
}

/// Proof that this thread is pinned; unpins on drop. Not `Send`: it belongs to the thread.
pub(crate) struct Guard {
    _not_send: std::marker::PhantomData<*const ()>,
}

/// Pins the current thread. `None` only while the thread is being torn down (its
/// thread-local is gone): callers then treat every handle as a miss.
pub(crate) fn pin() -> Option<Guard> {
    LOCAL
        .try_with(|l| {
            let d = l.depth.get();
            if d == 0 {
                let e = EPOCH.load(Ordering::SeqCst);
                l.record.pinned.store(e, Ordering::SeqCst);
            }
            l.depth.set(d + 1);
        })
        .ok()
        .map(|()| Guard {
            _not_send: std::marker::PhantomData,
        })
}

/// Runs `f` with the current thread pinned: `pin` and the guard's drop in one thread-local
/// access (the texture helper pins once per request, so the second lookup showed in
/// profiles). `None`, without running `f`, while the thread is being torn down.
#[inline]
pub(crate) fn with_pinned<R>(f: impl FnOnce() -> R) -> Option<R> {
    /// Unpins when `f` returns or unwinds.
    struct Unpin<'a>(&'a Local);
    impl Drop for Unpin<'_> {
        fn drop(&mut self) {
            let d = self.0.depth.get().saturating_sub(1);
            self.0.depth.set(d);
            if d == 0 {
                self.0.record.pinned.store(0, Ordering::Release);
            }
        }
    }
    LOCAL
        .try_with(|l| {
            let d = l.depth.get();
            if d == 0 {
                let e = EPOCH.load(Ordering::SeqCst);
                l.record.pinned.store(e, Ordering::SeqCst);
            }
            l.depth.set(d + 1);
            let _unpin = Unpin(l);
            f()
        })
        .ok()
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = LOCAL.try_with(|l| {
            let d = l.depth.get().saturating_sub(1);
            l.depth.set(d);
            if d == 0 {
                l.record.pinned.store(0, Ordering::Release);
            }
        });
    }
}

/// Advances the global epoch and returns the new value: the tag for contents made
/// unreachable before this call.
pub(crate) fn advance() -> u64 {
    EPOCH.fetch_add(1, Ordering::SeqCst) + 1
}

/// The smallest epoch any live participant is pinned at (`u64::MAX` when none is pinned):
/// contents tagged at or below it may be freed.
pub(crate) fn safe_epoch() -> u64 {
    let mut list = PARTICIPANTS.lock().unwrap_or_else(|e| e.into_inner());
    list.retain(|p| !p.dead.load(Ordering::SeqCst));
    list.iter()
        .map(|p| p.pinned.load(Ordering::SeqCst))
        .filter(|&e| e != 0)
        .min()
        .unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinned_thread_holds_back_reclamation() {
        let (tx, rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let h = std::thread::spawn(move || {
            let _g = pin().unwrap();
            tx.send(()).unwrap();
            done_rx.recv().unwrap();
        });
        rx.recv().unwrap();
        let tag = advance();
        // The other thread pinned before `tag`, so `tag` is not yet safe.
        assert!(safe_epoch() < tag);
        done_tx.send(()).unwrap();
        h.join().unwrap();
        // Other tests may pin concurrently, but only for one texture instruction at a
        // time: pins older than `tag` soon end.
        let start = std::time::Instant::now();
        while safe_epoch() < tag {
            assert!(
                start.elapsed().as_secs() < 10,
                "reclamation never became safe"
            );
            std::thread::yield_now();
        }
    }

    #[test]
    fn with_pinned_pins_for_the_call_and_nests() {
        let tag = advance();
        let seen = with_pinned(|| {
            let outer = LOCAL.with(|l| l.record.pinned.load(Ordering::SeqCst));
            let _g = pin().unwrap();
            drop(_g);
            let inner = LOCAL.with(|l| l.record.pinned.load(Ordering::SeqCst));
            (outer, inner)
        })
        .unwrap();
        assert!(seen.0 >= tag && seen.1 == seen.0, "{seen:?}");
        assert_eq!(LOCAL.with(|l| l.record.pinned.load(Ordering::SeqCst)), 0);
        // Unwinding out of `f` unpins too.
        let r = std::panic::catch_unwind(|| with_pinned(|| panic!("inside")));
        assert!(r.is_err());
        assert_eq!(LOCAL.with(|l| l.record.pinned.load(Ordering::SeqCst)), 0);
    }

    #[test]
    fn nested_pins_unpin_once() {
        let a = pin().unwrap();
        let b = pin().unwrap();
        drop(b);
        let tag = advance();
        let here = LOCAL.with(|l| l.record.pinned.load(Ordering::SeqCst));
        assert!(here != 0 && here < tag);
        drop(a);
        assert_eq!(LOCAL.with(|l| l.record.pinned.load(Ordering::SeqCst)), 0);
    }
}
