//! Share groups (GL 4.5 core chapter 5, appendix D; EGL share contexts): the objects that
//! contexts of one group share — buffers, textures, samplers, shaders and programs,
//! renderbuffers, and the ARB_bindless_texture handle tables — and how a context reaches
//! them. VAOs, framebuffers, default textures (name 0) and the bindless *resident set* stay
//! per context.
//!
//! How it works: the shared objects live in the group's mutex. An entry point that may touch
//! them runs inside `Context::with_group`, which locks the mutex and *swaps* the objects into
//! the context's `objs` field for the duration of the call, then swaps them back. Entry-point
//! code therefore reads `self.objs.textures` as plain fields, and a context alone in its
//! group pays one uncontended lock and two small swaps per call.
//!
//! Lock order (no deadlocks): a context's own lock (the driver's `SharedContext` mutex), then
//! its group's `objects` mutex, then the descriptor table's internal locks. A context holds
//! at most one group lock and never takes another context's lock while holding it; nested
//! entry points (one entry point calling another) do not lock again. The rasterizer's workers
//! take none of these locks: queued draws hold `Arc`s to everything they read (images,
//! buffer snapshots, descriptors through the epoch-protected table), so deleting an object in
//! one context while another context's queued draw uses it is safe. The lock is held across
//! the flushes that ReadPixels and buffer reads/maps do: those wait only for the calling
//! context's own workers, which never take the lock, so other contexts of the group wait but
//! cannot deadlock.
//!
//! Cross-context changes (GL 4.5 core §5.3): the group remembers which context checked the
//! objects out last; a context that finds another one did marks its derived framebuffer
//! state dirty, so its next draw sees images that context changed.
//!
//! Known limit: the image flush protocol (`sampler::Image`: the API thread flushes queued
//! work before it writes an image in place) is per context. An in-place write to a shared
//! image — glTexSubImage2D, in-place mipmap generation, rendering into a texture — while
//! *another* context of the group still has queued draws reading it is ordered only by the
//! application's synchronisation, which GL requires for it anyway (§5.3: finish in the
//! using context before changing the object elsewhere). Without it the bytes race (torn
//! texels); images never change size in place, so no access leaves its image. Buffer data
//! is copy-on-write and deletion only drops `Arc`s, so those stay safe without it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::api::bindless::Bindless;
use crate::api::buffer::Buffer;
use crate::api::context::{dirty, Context, DescriptorAlloc};
use crate::api::framebuffer::Renderbuffer;
use crate::api::names::*;
use crate::api::program::ProgramObject;
use crate::api::texture::{SamplerObject, Texture};
use crate::sampler::DescriptorTable;

/// The objects a share group shares.
#[derive(Default)]
pub(crate) struct SharedObjects {
    pub buffers: NameTable<BufferName, Buffer>,
    pub programs: NameTable<ProgramObjectName, ProgramObject>,
    pub textures: NameTable<TextureName, Texture>,
    pub samplers: NameTable<SamplerName, SamplerObject>,
    pub renderbuffers: NameTable<RenderbufferName, Renderbuffer>,
    /// Bindless handles: the same texture (and sampler) gives the same handle in every
    /// context of the group (ARB_bindless_texture).
    pub bindless: Bindless,
    /// Fence sync objects (`sync.rs`).
    pub syncs: crate::api::sync::SyncTable,
    /// The context that checked the objects out last (0: none yet).
    last_user: u64,
}

/// A share group: its objects, and the descriptor table their handles index (one table per
/// group, so that a handle means the same in every context of it).
pub(crate) struct ShareGroup {
    objects: Mutex<SharedObjects>,
    pub table: Arc<DescriptorTable>,
    pub descriptors: Arc<dyn DescriptorAlloc>,
}

impl ShareGroup {
    pub fn new(table: Arc<DescriptorTable>, descriptors: Arc<dyn DescriptorAlloc>) -> Self {
        ShareGroup {
            objects: Mutex::new(SharedObjects::default()),
            table,
            descriptors,
        }
    }
}

// Contexts of one group may be current on different threads at once.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<ShareGroup>();
};

/// A fresh id for each context (never 0).
pub(crate) fn next_context_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl Context {
    /// Runs `f` with the group's objects in `self.objs` (see the module comment). Nested
    /// calls run `f` directly. A panic in `f` still puts the objects back before it goes on.
    /// GL commands get this from the dispatcher (`api/dispatch.rs`); this is for the rest
    /// (dropping a context).
    pub(crate) fn with_group<R>(&mut self, f: impl FnOnce(&mut Context) -> R) -> R {
        if self.group_held {
            return f(self);
        }
        let r = self
            .checked_out(|this| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(this))));
        match r {
            Ok(v) => v,
            Err(p) => std::panic::resume_unwind(p),
        }
    }

    /// The swap of [`Context::with_group`] without its `catch_unwind`, for a caller whose
    /// `f` cannot unwind (the dispatcher catches inside `f`: one catch per call, not two;
    /// the nested catch cost about 12 ns a call in `benches/entry.rs`). Not nested.
    pub(crate) fn checked_out<R>(&mut self, f: impl FnOnce(&mut Context) -> R) -> R {
        debug_assert!(!self.group_held);
        let group = self.group.clone();
        let mut objects = group.objects.lock().unwrap_or_else(PoisonError::into_inner);
        std::mem::swap(&mut self.objs, &mut *objects);
        if self.objs.last_user != self.id {
            // Another context may have changed attached images since this one last looked.
            self.objs.last_user = self.id;
            self.dirty |= dirty::TARGET;
        }
        self.group_held = true;
        let r = f(self);
        self.group_held = false;
        std::mem::swap(&mut self.objs, &mut *objects);
        r
    }

    /// Runs `f` on the group's objects for a read through `&self` (the glIs* queries): the
    /// objects in `objs` when this context has them checked out, else under the lock.
    pub(crate) fn read_group<R>(&self, f: impl FnOnce(&SharedObjects) -> R) -> R {
        if self.group_held {
            return f(&self.objs);
        }
        let objects = self
            .group
            .objects
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        f(&objects)
    }

    /// Whether `other` is in this context's share group.
    pub fn shares_with(&self, other: &Context) -> bool {
        Arc::ptr_eq(&self.group, &other.group)
    }
}

impl Drop for Context {
    /// A destroyed context stops using its current program (which may then be deleted, if
    /// another context of the group flagged it).
    fn drop(&mut self) {
        if let Some(p) = self.program.take() {
            self.with_group(|c| c.release_program(p));
        }
    }
}
