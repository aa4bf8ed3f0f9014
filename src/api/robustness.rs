//! GL_KHR_robustness as GL 4.5 core has it (§2.3.1 "graphics reset recovery", §14.? robust
//! access) and the report of the shader loop budget (ARCHITECTURE.md §6): which draws ran an
//! invocation out of its budget, the KHR_debug message naming the program, the reset
//! notification strategy, the reset status and the lost context.
//!
//! How a runaway loop reaches the application:
//!
//! ```text
//!  draw (API thread)   a fresh flag per draw, shared by its stages (StageData::loop_trips),
//!                      remembered here with the program's name
//!  workers             generated code / the interpreter store 1 in the flag when the budget
//!                      kills a lane (no callback, no lock)
//!  flush (API thread)  every remembered flag is read: one high-severity message per draw
//!                      that tripped; with LOSE_CONTEXT_ON_RESET the context is reset
//! ```
//!
//! The image does not depend on the strategy: the budget kills the same invocations either
//! way (`ir::interp`'s module docs). With NO_RESET_NOTIFICATION drawing simply goes on;
//! with LOSE_CONTEXT_ON_RESET glGetGraphicsResetStatus reports GUILTY_CONTEXT_RESET once,
//! then NO_ERROR, and every command but glGetError and glGetGraphicsResetStatus records
//! GL_CONTEXT_LOST and does nothing: the application must make a new context.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use crate::api::dispatch::gl_commands;
use crate::api::error::{DebugMessage, GlError, GlResult};
use crate::api::Context;
use crate::gl::enums as gl;

/// The KHR_debug id of the "loop budget ran out" message.
pub const LOOP_BUDGET_MESSAGE_ID: u32 = 3;

/// Queued draws remembered before the finished ones are read without a flush: bounds the
/// list when an application draws for a long time without a flush point.
const PENDING_PRUNE_AT: usize = 4096;

/// Robustness state of one context.
#[derive(Debug, Default)]
pub(crate) struct Robustness {
    /// GL_RESET_NOTIFICATION_STRATEGY is LOSE_CONTEXT_ON_RESET.
    pub lose_context_on_reset: bool,
    /// Draws queued since their flags were last read: (program name, flag).
    pending: Vec<(u32, Arc<AtomicU32>)>,
    /// `pending`'s length at which finished draws are read without a flush; doubles with
    /// what stays, so the scans cost O(1) amortised per draw.
    prune_at: usize,
    /// A reset that glGetGraphicsResetStatus has not reported yet.
    unreported_reset: bool,
    /// The context was reset: every command but glGetError and glGetGraphicsResetStatus
    /// records GL_CONTEXT_LOST.
    pub lost: bool,
}

impl Robustness {
    pub(crate) fn new(lose_context_on_reset: bool) -> Robustness {
        Robustness {
            lose_context_on_reset,
            prune_at: PENDING_PRUNE_AT,
            ..Default::default()
        }
    }
}

/// The commands a lost context still runs (GL 4.5 core §2.3.1): glGetError and
/// glGetGraphicsResetStatus; glGetSynciv and glGetQueryObject* run only to answer
/// GL_SYNC_STATUS with GL_SIGNALED and GL_QUERY_RESULT_AVAILABLE with GL_TRUE (anything else
/// they are asked is GL_CONTEXT_LOST), so a program polling a fence or a query ends.
pub(crate) fn runs_when_lost(command: &str) -> bool {
    matches!(
        command,
        "glGetError"
            | "glGetGraphicsResetStatus"
            | "glGetGraphicsResetStatusKHR"
            | "glGetGraphicsResetStatusARB"
            | "glGetSynciv"
            | "glGetQueryObjectui64v"
    )
}

gl_commands! {
    /// glReadnPixels (GL 4.5 core §18.2.6): glReadPixels into a buffer of `buf_size` bytes;
    /// an image that does not fit is GL_INVALID_OPERATION and nothing is written.
    #[allow(clippy::too_many_arguments)]
    "glReadnPixels"
    fn readn_pixels(x: i32, y: i32, width: i32, height: i32, format: u32, ty: u32, buf_size: i32) -> Vec<u8>
        = try_readn_pixels, group by body;
    /// glGetnUniformfv: glGetUniformfv into a buffer of `buf_size` bytes; a uniform that
    /// does not fit is GL_INVALID_OPERATION.
    "glGetnUniformfv"
    fn getn_uniformfv(program: u32, location: i32, buf_size: i32) -> Vec<f32> = try_getn_uniformfv;
    /// glGetnUniformiv.
    "glGetnUniformiv"
    fn getn_uniformiv(program: u32, location: i32, buf_size: i32) -> Vec<i32> = try_getn_uniformiv;
    /// glGetnUniformuiv.
    "glGetnUniformuiv"
    fn getn_uniformuiv(program: u32, location: i32, buf_size: i32) -> Vec<u32> = try_getn_uniformuiv;
}

/// `v` when its 4-byte values fit in `buf_size` bytes (KHR_robustness: else
/// GL_INVALID_OPERATION; a negative size is GL_INVALID_VALUE).
fn fits<T>(v: Vec<T>, buf_size: i32) -> GlResult<Vec<T>> {
    if buf_size < 0 {
        return Err(GlError::InvalidValue("negative bufSize"));
    }
    if v.len().saturating_mul(4) > buf_size as usize {
        return Err(GlError::InvalidOperation(
            "the uniform's value is larger than bufSize bytes",
        ));
    }
    Ok(v)
}

impl Context {
    /// A fresh loop-budget flag for a draw of `program` (its GL name), remembered until the
    /// draw has run.
    pub(crate) fn loop_trip_flag(&mut self, program: u32) -> Arc<AtomicU32> {
        let flag = Arc::new(AtomicU32::new(0));
        if self.robustness.pending.len() >= self.robustness.prune_at {
            self.report_loop_trips(false);
            self.robustness.prune_at = (self.robustness.pending.len() * 2).max(PENDING_PRUNE_AT);
        }
        self.robustness.pending.push((program, flag.clone()));
        flag
    }

    /// Reads the flags of the remembered draws: all of them after a flush (`all`), else
    /// only those the rasterizer has let go of (finished). One message per draw that
    /// tripped; with LOSE_CONTEXT_ON_RESET, the context is reset.
    pub(crate) fn report_loop_trips(&mut self, all: bool) {
        let pending = std::mem::take(&mut self.robustness.pending);
        let mut keep = Vec::new();
        for (program, flag) in pending {
            if !all && Arc::strong_count(&flag) > 1 {
                keep.push((program, flag));
                continue;
            }
            if flag.load(Ordering::Relaxed) == 0 {
                continue;
            }
            let reset = self.robustness.lose_context_on_reset;
            let message = format!(
                "program {program}: a shader invocation ran out of its loop budget ({} loop \
                 iterations, SOFTGL_LOOP_BUDGET) and was stopped; {}",
                crate::ir::interp::loop_budget(),
                if reset {
                    "the context is reset (LOSE_CONTEXT_ON_RESET): GL_GUILTY_CONTEXT_RESET"
                } else {
                    "drawing goes on (NO_RESET_NOTIFICATION)"
                }
            );
            self.errors.push_printed(DebugMessage {
                source: gl::DEBUG_SOURCE_API,
                ty: gl::DEBUG_TYPE_ERROR,
                id: LOOP_BUDGET_MESSAGE_ID,
                severity: gl::DEBUG_SEVERITY_HIGH,
                message,
            });
            if reset && !self.robustness.lost {
                self.robustness.lost = true;
                self.robustness.unreported_reset = true;
            }
        }
        keep.append(&mut self.robustness.pending);
        self.robustness.pending = keep;
    }

    /// glGetGraphicsResetStatus (GL 4.5 core §2.3.1, KHR_robustness): GUILTY_CONTEXT_RESET
    /// once after a runaway shader reset this context, NO_ERROR otherwise, and always
    /// NO_ERROR with NO_RESET_NOTIFICATION. Queued draws are run first so that a reset they
    /// cause is seen. Runs on a lost context.
    pub fn get_graphics_reset_status(&mut self) -> u32 {
        if !self.robustness.lose_context_on_reset {
            return gl::NO_ERROR;
        }
        if !self.robustness.lost {
            let _ = self.flush_raster();
        }
        if std::mem::take(&mut self.robustness.unreported_reset) {
            gl::GUILTY_CONTEXT_RESET
        } else {
            gl::NO_ERROR
        }
    }

    /// Whether the context was reset (GL_CONTEXT_LOST from every command).
    pub fn is_context_lost(&self) -> bool {
        self.robustness.lost
    }

    pub(crate) fn try_getn_uniformfv(
        &mut self,
        program: u32,
        location: i32,
        buf_size: i32,
    ) -> GlResult<Vec<f32>> {
        fits(self.try_get_uniformfv(program, location)?, buf_size)
    }

    pub(crate) fn try_getn_uniformiv(
        &mut self,
        program: u32,
        location: i32,
        buf_size: i32,
    ) -> GlResult<Vec<i32>> {
        fits(self.try_get_uniformiv(program, location)?, buf_size)
    }

    pub(crate) fn try_getn_uniformuiv(
        &mut self,
        program: u32,
        location: i32,
        buf_size: i32,
    ) -> GlResult<Vec<u32>> {
        fits(self.try_get_uniformuiv(program, location)?, buf_size)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_readn_pixels(
        &mut self,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
        buf_size: i32,
    ) -> GlResult<Vec<u8>> {
        if buf_size < 0 {
            return Err(GlError::InvalidValue("negative bufSize"));
        }
        let mut out = Vec::new();
        let before = self.errors_recorded();
        self.read_pixels_with(x, y, width, height, format, ty, |len| {
            if len > buf_size as usize {
                return Err(GlError::InvalidOperation(
                    "the image is larger than bufSize bytes",
                ));
            }
            out = vec![0u8; len];
            Ok(&mut out[..])
        });
        if self.errors_recorded() != before {
            return Ok(Vec::new());
        }
        Ok(out)
    }
}
