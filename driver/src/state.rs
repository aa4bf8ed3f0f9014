//! The driver's state: the one display, its surfaces and contexts, what is current on
//! each thread, and each thread's last EGL error.
//!
//! One global lock (`STATE`) guards the object tables; a context's GL state has its own
//! lock (`SharedContext`), taken by GL entry points. Lock order is always STATE, then a
//! context, and GL entry points never take STATE, so the two cannot deadlock.
//!
//! Lifetimes follow EGL 1.5 §3.2 (eglTerminate), §3.5.6 (eglDestroySurface) and §3.7.2
//! (eglDestroyContext): destroying or terminating makes the *handle* invalid at once, but
//! a surface or context current to some thread lives on until it is no longer current.

use std::cell::Cell;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{LazyLock, Mutex, MutexGuard};
use std::thread::ThreadId;

use softgl::{ContextAttribs, Surface};

use crate::config::Config;
use crate::consts as egl;
use crate::consts::EGLint;

pub use softgl::SharedContext;

/// The EGLDisplay handle: the address of this static. softgl has one display, reached
/// from both the default display and EGL_PLATFORM_SURFACELESS_MESA.
static DISPLAY_TAG: u8 = 0;

pub fn display_handle() -> *mut c_void {
    std::ptr::addr_of!(DISPLAY_TAG) as *mut c_void
}

pub struct SurfaceRec {
    pub surface: Surface,
    pub config: Config,
    pub width: EGLint,
    pub height: EGLint,
    pub largest: bool,
    pub swap_behavior: EGLint,
    /// eglDestroySurface or eglTerminate ran while the surface was current: the handle is
    /// invalid, the images live until no context has it current.
    pub doomed: bool,
}

pub struct ContextRec {
    pub shared: SharedContext,
    pub config: Option<Config>,
    pub attribs: ContextAttribs,
    /// The thread it is current on (EGL 1.5 §3.7.3: at most one).
    pub current_on: Option<ThreadId>,
    /// Its draw/read surface ids while current (0: none, surfaceless).
    pub draw: usize,
    pub read: usize,
    pub doomed: bool,
}

#[derive(Default)]
pub struct State {
    pub initialized: bool,
    next_id: usize,
    pub surfaces: HashMap<usize, SurfaceRec>,
    pub contexts: HashMap<usize, ContextRec>,
    /// Fence syncs (EGL 1.5 §3.8.1). A fence is signaled when created: creating it flushes
    /// the current context, and softgl's flush runs all queued work to completion.
    pub syncs: std::collections::HashSet<usize>,
}

static STATE: LazyLock<Mutex<State>> = LazyLock::new(|| Mutex::new(State::default()));

thread_local! {
    /// eglGetError's value (EGL 1.5 §3.1: per thread, reset by every call).
    static LAST_ERROR: Cell<EGLint> = const { Cell::new(egl::SUCCESS) };
    /// The id of the context current on this thread (0: none).
    static CURRENT: CurrentSlot = const { CurrentSlot(Cell::new(0)) };
}

/// The state lock. A panic while it was held (caught at the C boundary) leaves the tables
/// consistent enough to go on: every mutation is a single insert/remove/field store.
pub fn lock() -> MutexGuard<'static, State> {
    STATE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Locks a context's GL state, tolerating poisoning for the same reason as `lock`.
pub fn lock_context(ctx: &SharedContext) -> MutexGuard<'_, softgl::Context> {
    ctx.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub fn set_error(code: EGLint) {
    LAST_ERROR.with(|e| e.set(code));
}

pub fn take_error() -> EGLint {
    LAST_ERROR.with(|e| e.replace(egl::SUCCESS))
}

/// This thread's current context id; dropping it (thread exit) releases the context.
struct CurrentSlot(Cell<usize>);

impl Drop for CurrentSlot {
    /// A thread that exits with a context current (without eglReleaseThread) would leave
    /// it marked current forever, so every other thread would get EGL_BAD_ACCESS for it.
    /// Release it here, as if the thread had called eglReleaseThread (EGL 1.5 §3.11).
    /// Queued GL work is not flushed here: the context's next user flushes it.
    fn drop(&mut self) {
        let id = self.0.get();
        if id == 0 {
            return;
        }
        let mut st = lock();
        if let Some(rec) = st.contexts.get_mut(&id) {
            rec.current_on = None;
            rec.draw = 0;
            rec.read = 0;
        }
        st.collect();
    }
}

pub fn current_id() -> usize {
    // During thread teardown the slot may already be gone: nothing is current then.
    CURRENT.try_with(|c| c.0.get()).unwrap_or(0)
}

pub fn set_current_id(id: usize) {
    let _ = CURRENT.try_with(|c| c.0.set(id));
}

impl State {
    pub fn new_id(&mut self) -> usize {
        // Ids start at 1 (0 is EGL_NO_SURFACE / EGL_NO_CONTEXT) and are never reused, so a
        // stale handle never names a newer object.
        self.next_id += 1;
        self.next_id
    }

    /// The live (not doomed) surface `handle` names.
    pub fn surface(&self, handle: *mut c_void) -> Result<&SurfaceRec, EGLint> {
        self.surfaces
            .get(&(handle as usize))
            .filter(|s| !s.doomed)
            .ok_or_else(|| {
                crate::entry::why(
                    egl::BAD_SURFACE,
                    format!("{handle:p} is not a live surface of softgl"),
                )
            })
    }

    /// The live (not doomed) context `handle` names.
    pub fn context(&self, handle: *mut c_void) -> Result<&ContextRec, EGLint> {
        self.contexts
            .get(&(handle as usize))
            .filter(|c| !c.doomed)
            .ok_or_else(|| {
                crate::entry::why(
                    egl::BAD_CONTEXT,
                    format!("{handle:p} is not a live context of softgl"),
                )
            })
    }

    /// Whether surface `id` is draw or read surface of a context current on a thread.
    pub fn surface_bound(&self, id: usize) -> bool {
        self.contexts
            .values()
            .any(|c| c.current_on.is_some() && (c.draw == id || c.read == id))
    }

    /// Frees doomed objects nothing holds current any more.
    pub fn collect(&mut self) {
        self.contexts
            .retain(|_, c| !(c.doomed && c.current_on.is_none()));
        let bound: Vec<usize> = self
            .contexts
            .values()
            .filter(|c| c.current_on.is_some())
            .flat_map(|c| [c.draw, c.read])
            .collect();
        self.surfaces
            .retain(|id, s| !s.doomed || bound.contains(id));
    }

    /// Makes this thread's context (if any) not current: flushes it (EGL 1.5 §3.7.3: a
    /// context losing currency is flushed), detaches its surface, clears softgl's
    /// thread binding, and frees what that leaves doomed.
    pub fn release_current(&mut self) {
        let id = current_id();
        if id == 0 {
            return;
        }
        if let Some(rec) = self.contexts.get_mut(&id) {
            {
                let mut ctx = lock_context(&rec.shared);
                ctx.flush();
                ctx.set_default_surface(None);
            }
            rec.current_on = None;
            rec.draw = 0;
            rec.read = 0;
        }
        softgl::make_current(None);
        set_current_id(0);
        self.collect();
    }

    /// eglTerminate: every handle becomes invalid; objects current somewhere stay alive
    /// until released (EGL 1.5 §3.2).
    pub fn terminate(&mut self) {
        self.initialized = false;
        for c in self.contexts.values_mut() {
            c.doomed = true;
        }
        for s in self.surfaces.values_mut() {
            s.doomed = true;
        }
        self.syncs.clear();
        self.collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_exit_releases_its_current_context() {
        let id = {
            let mut st = lock();
            let id = st.new_id();
            st.contexts.insert(
                id,
                ContextRec {
                    shared: std::sync::Arc::new(Mutex::new(softgl::Context::new(1, 1))),
                    config: None,
                    attribs: ContextAttribs::default(),
                    current_on: None,
                    draw: 0,
                    read: 0,
                    doomed: false,
                },
            );
            id
        };
        std::thread::spawn(move || {
            lock().contexts.get_mut(&id).unwrap().current_on = Some(std::thread::current().id());
            set_current_id(id);
        })
        .join()
        .unwrap();
        let st = lock();
        assert_eq!(st.contexts[&id].current_on, None);
    }
}
