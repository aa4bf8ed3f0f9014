//! Sync objects (GL 4.5 core §4.1): fences, their table in the share group, and waiting
//! on them.
//!
//! A fence is signaled when the commands before it have run. Draws run at this context's
//! next flush (`raster`), so a fence made with nothing queued is signaled at once, and the
//! others are signaled by that flush (`QueryState::note_flush`), whatever caused it:
//! glFlush, glFinish, a readback, a query result, or glClientWaitSync itself, which runs the
//! queued work of its own context rather than sleeping on it. A fence of another context of
//! the group is signaled by that context's flush; glClientWaitSync then waits for it (up to
//! its timeout) without holding the group's lock, so that context can flush meanwhile.
//!
//! glWaitSync has nothing to wait for: this context's commands run in order, and another
//! context's fence that it has flushed (which GL requires, §4.1.2) is already signaled.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::api::context::Context;
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::gl::enums as gl;

/// GL_TIMEOUT_IGNORED (GL 4.5 core §4.1.2), a 64-bit value the enum table cannot hold.
pub const TIMEOUT_IGNORED: u64 = u64::MAX;

/// GL_MAX_SERVER_WAIT_TIMEOUT: glWaitSync accepts only GL_TIMEOUT_IGNORED, whatever this
/// says; Mesa's value, for applications that read it.
pub const MAX_SERVER_WAIT_TIMEOUT: i64 = 0x1fff_7fff_ffff_ffff;

/// A fence sync object.
#[derive(Debug, Default)]
pub(crate) struct Fence {
    signaled: AtomicBool,
}

impl Fence {
    pub(crate) fn signal(&self) {
        self.signaled.store(true, Ordering::Release);
    }

    pub(crate) fn is_signaled(&self) -> bool {
        self.signaled.load(Ordering::Acquire)
    }
}

/// The share group's sync objects (GL 4.5 core §5.1: sync objects are shared), by the
/// value their `GLsync` carries. Values are never reused.
#[derive(Debug, Default)]
pub(crate) struct SyncTable {
    map: HashMap<u64, Arc<Fence>>,
    last: u64,
}

impl SyncTable {
    fn get(&self, sync: u64) -> GlResult<Arc<Fence>> {
        self.map
            .get(&sync)
            .cloned()
            .ok_or(GlError::InvalidValue("not a sync object"))
    }
}

gl_commands! {
    /// glFenceSync: the fence's handle (never 0), 0 on error.
    "glFenceSync" fn fence_sync(condition: u32, flags: u32) -> u64 = try_fence_sync;
    /// glIsSync.
    "glIsSync" fn is_sync(sync: u64) -> bool = try_is_sync;
    /// glDeleteSync: 0 is ignored.
    "glDeleteSync" fn delete_sync(sync: u64) = try_delete_sync;
    /// glClientWaitSync (GL 4.5 core §4.1.1): GL_ALREADY_SIGNALED, GL_CONDITION_SATISFIED,
    /// GL_TIMEOUT_EXPIRED, or GL_WAIT_FAILED on error.
    "glClientWaitSync"
    fn client_wait_sync(sync: u64, flags: u32, timeout: u64) -> u32
        = try_client_wait_sync else gl::WAIT_FAILED, group by body;
    /// glWaitSync (GL 4.5 core §4.1.2).
    "glWaitSync" fn wait_sync(sync: u64, flags: u32, timeout: u64) = try_wait_sync;
    /// glGetSynciv for one value (GL 4.5 core §4.1.3).
    "glGetSynciv" fn get_synciv(sync: u64, pname: u32) -> i32 = try_get_synciv;
}

impl Context {
    /// The fence of `sync`, after signaling this context's fences if nothing is queued.
    fn fence(&mut self, sync: u64) -> GlResult<Arc<Fence>> {
        let f = self.objs.syncs.get(sync)?;
        if !f.is_signaled() && !self.raster.pending() {
            self.queries.note_idle();
        }
        Ok(f)
    }

    pub(crate) fn try_fence_sync(&mut self, condition: u32, flags: u32) -> GlResult<u64> {
        if condition != gl::SYNC_GPU_COMMANDS_COMPLETE {
            return Err(GlError::BadEnum("fence condition", condition));
        }
        if flags != 0 {
            return Err(GlError::InvalidValue("fence flags must be 0"));
        }
        let f = Arc::new(Fence::default());
        if self.raster.pending() {
            self.queries.pending_fences.push(f.clone());
        } else {
            f.signal();
        }
        let t = &mut self.objs.syncs;
        t.last += 1;
        t.map.insert(t.last, f);
        Ok(t.last)
    }

    pub(crate) fn try_is_sync(&mut self, sync: u64) -> GlResult<bool> {
        Ok(self.objs.syncs.map.contains_key(&sync))
    }

    pub(crate) fn try_delete_sync(&mut self, sync: u64) -> GlResult<()> {
        if sync == 0 {
            return Ok(());
        }
        // A fence someone waits on stays alive in their `Arc` (§4.1.3: deleted once no
        // wait uses it).
        self.objs
            .syncs
            .map
            .remove(&sync)
            .map(|_| ())
            .ok_or(GlError::InvalidValue("not a sync object"))
    }

    pub(crate) fn try_client_wait_sync(
        &mut self,
        sync: u64,
        flags: u32,
        timeout: u64,
    ) -> GlResult<u32> {
        if flags & !gl::SYNC_FLUSH_COMMANDS_BIT != 0 {
            return Err(GlError::InvalidValue("unknown bits in the wait flags"));
        }
        let f = self.with_group(|c| c.fence(sync))?;
        if f.is_signaled() {
            return Ok(gl::ALREADY_SIGNALED);
        }
        let ours = self
            .queries
            .pending_fences
            .iter()
            .any(|p| Arc::ptr_eq(p, &f));
        if ours {
            // The work before the fence is queued here: running it is the wait. A zero
            // timeout only tests (§4.1.1: TIMEOUT_EXPIRED when not signaled at the call,
            // as piglit's arb_sync timeout-zero checks); with SYNC_FLUSH_COMMANDS_BIT it
            // runs the work too, so a polling loop ends.
            if timeout == 0 {
                if flags & gl::SYNC_FLUSH_COMMANDS_BIT != 0 {
                    self.with_group(|c| {
                        let _ = c.flush_raster();
                    });
                }
                return Ok(gl::TIMEOUT_EXPIRED);
            }
            self.with_group(|c| {
                let _ = c.flush_raster();
            });
            return Ok(if f.is_signaled() {
                gl::CONDITION_SATISFIED
            } else {
                gl::TIMEOUT_EXPIRED
            });
        }
        // Another context's fence: it signals it from its own thread.
        let deadline = Instant::now().checked_add(Duration::from_nanos(timeout));
        let mut pause = Duration::from_micros(20);
        loop {
            if f.is_signaled() {
                return Ok(gl::CONDITION_SATISFIED);
            }
            let now = Instant::now();
            if deadline.is_some_and(|d| now >= d) {
                return Ok(gl::TIMEOUT_EXPIRED);
            }
            let left = deadline.map_or(pause, |d| d - now);
            std::thread::sleep(pause.min(left));
            pause = (pause * 2).min(Duration::from_millis(2));
        }
    }

    pub(crate) fn try_wait_sync(&mut self, sync: u64, flags: u32, timeout: u64) -> GlResult<()> {
        self.fence(sync)?;
        if flags != 0 {
            return Err(GlError::InvalidValue("glWaitSync flags must be 0"));
        }
        if timeout != TIMEOUT_IGNORED {
            return Err(GlError::InvalidValue(
                "glWaitSync timeout must be GL_TIMEOUT_IGNORED",
            ));
        }
        Ok(())
    }

    pub(crate) fn try_get_synciv(&mut self, sync: u64, pname: u32) -> GlResult<i32> {
        if self.robustness.lost {
            // GL 4.5 core §2.3.1: the one question a lost context answers about a sync.
            return match pname {
                gl::SYNC_STATUS => Ok(gl::SIGNALED as i32),
                _ => Err(GlError::ContextLost("the context was reset")),
            };
        }
        let f = self.fence(sync)?;
        Ok(match pname {
            gl::OBJECT_TYPE => gl::SYNC_FENCE as i32,
            gl::SYNC_CONDITION => gl::SYNC_GPU_COMMANDS_COMPLETE as i32,
            gl::SYNC_STATUS => {
                if f.is_signaled() {
                    gl::SIGNALED as i32
                } else {
                    gl::UNSIGNALED as i32
                }
            }
            gl::SYNC_FLAGS => 0,
            _ => return Err(GlError::BadEnum("sync parameter", pname)),
        })
    }
}
