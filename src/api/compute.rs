//! Compute shaders at the API (GL 4.5 core chapter 19): linking a compute-only program,
//! glDispatchCompute and glDispatchComputeIndirect (GL_DISPATCH_INDIRECT_BUFFER), the
//! program's GL_COMPUTE_WORK_GROUP_SIZE and the GL_MAX_COMPUTE_* limits. How a work group
//! runs (regions between barriers, state rows, shared memory) is `ir::compute` and
//! `jit::compute`.
//!
//! A dispatch runs at once, on the raster worker pool: queued draws are flushed first (a
//! compute shader may read what they render), the work groups run, and the storage
//! buffers the program writes are copied back (`storage_buffer.rs`), so a draw or a
//! ReadPixels issued after it sees its writes without waiting further; glMemoryBarrier
//! stays a check of its bits. Determinism as `jit::compute` states it: disjoint writes and
//! commutative atomics give the same buffers for any thread count.

use std::sync::Arc;

use crate::api::context::{BackEnd, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::program::{Executable, Program};
use crate::gl::enums as gl;
use crate::ir::compute::{MAX_GROUP_COUNT, MAX_INVOCATIONS, MAX_SHARED_BYTES, MAX_SIZE};
use crate::ir::{link, Module};
use crate::jit::compute::ComputeCode;
use crate::jit::{Interpreted, StageData};
use crate::raster::ProgramCode;

gl_commands! {
    /// glDispatchCompute (GL 4.5 core §19): `x × y × z` work groups.
    "glDispatchCompute" fn dispatch_compute(x: u32, y: u32, z: u32) = try_dispatch_compute;
    /// glDispatchComputeIndirect: the three counts are the uints at byte `offset` of the
    /// GL_DISPATCH_INDIRECT_BUFFER.
    "glDispatchComputeIndirect" fn dispatch_compute_indirect(offset: isize)
        = try_dispatch_compute_indirect;
    /// glGetProgramiv(GL_COMPUTE_WORK_GROUP_SIZE) with its three values.
    "glGetProgramiv" fn compute_work_group_size(program: u32) -> [i32; 3]
        = try_compute_work_group_size;
}

/// A compute program's executable: `ir::link::link_compute`, the regions compiled by the
/// context's back end, and a stand-in `ProgramCode` that no draw runs (draws refuse
/// compute programs).
pub(crate) fn link_compute(cs: &Module, back_end: &BackEnd) -> Result<Executable, String> {
    let linked = link::link_compute(cs).map_err(|errs| {
        errs.iter()
            .map(|e| format!("error: {e}\n"))
            .collect::<String>()
    })?;
    let compile = |m: &Module| back_end(m);
    let code =
        ComputeCode::new(cs, &compile).map_err(|e| format!("error: compute shader: {e}\n"))?;
    let mut none = cs.clone();
    none.func = crate::ir::Function::default();
    let none: Arc<dyn crate::jit::ShaderCode> = Arc::new(Interpreted::new(Arc::new(none)));
    let stand_in = ProgramCode {
        vs: none.clone(),
        fs: none,
        vs_output_words: 0,
        position_slot: 0,
        point_size_slot: None,
        clip_distances: None,
        cull_distances: None,
        src1_slot: None,
        fs_input_words: 0,
        varyings: Vec::new(),
        fs_output_words: 0,
        color_slots: Vec::new(),
        frag_depth_slot: None,
        uses_discard: false,
        early_fragment_tests: false,
        frag_coord_origin_upper_left: false,
        frag_coord_pixel_center_integer: false,
        gs: None,
        vs_select_slots: [None; 2],
        tess: None,
    };
    let mut exe = Executable::new(linked, Arc::new(stand_in));
    exe.writes_storage = cs.writes_storage();
    exe.compute = Some(Arc::new(code));
    Ok(exe)
}

/// GL_COMPUTE_WORK_GROUP_SIZE of a program: INVALID_OPERATION unless it is linked and has
/// a compute shader (GL 4.5 core §7.13).
pub(crate) fn work_group_size(p: &Program) -> GlResult<[i32; 3]> {
    let code = p
        .exe
        .as_ref()
        .filter(|_| p.link_status)
        .and_then(|e| e.compute.as_ref())
        .ok_or(GlError::InvalidOperation(
            "GL_COMPUTE_WORK_GROUP_SIZE of a program without a linked compute shader",
        ))?;
    Ok(code.local_size().map(|s| s as i32))
}

/// The GL_MAX_COMPUTE_* limits glGetIntegerv answers (GL 4.5 core table 23.63), `None`
/// for other names. As llvmpipe, but for the shared memory (32 KiB, llvmpipe too).
pub(crate) fn limit(pname: u32) -> Option<i32> {
    Some(match pname {
        gl::MAX_COMPUTE_WORK_GROUP_INVOCATIONS => MAX_INVOCATIONS as i32,
        gl::MAX_COMPUTE_SHARED_MEMORY_SIZE => MAX_SHARED_BYTES as i32,
        gl::MAX_COMPUTE_UNIFORM_BLOCKS => link::MAX_STAGE_UNIFORM_BLOCKS as i32,
        gl::MAX_COMPUTE_TEXTURE_IMAGE_UNITS => crate::api::context::limits::MAX_TEXTURE_IMAGE_UNITS,
        gl::MAX_COMPUTE_UNIFORM_COMPONENTS => link::MAX_UNIFORM_COMPONENTS as i32,
        gl::MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS => {
            use crate::api::context::limits as l;
            l::MAX_UNIFORM_COMPONENTS + l::MAX_STAGE_UNIFORM_BLOCKS * l::MAX_UNIFORM_BLOCK_SIZE / 4
        }
        gl::MAX_COMPUTE_SHADER_STORAGE_BLOCKS => link::MAX_STAGE_STORAGE_BLOCKS as i32,
        gl::MAX_COMPUTE_ATOMIC_COUNTERS => {
            crate::ir::atomic_counter::MAX_STAGE_ATOMIC_COUNTERS as i32
        }
        gl::MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS => {
            crate::ir::atomic_counter::MAX_STAGE_ATOMIC_COUNTER_BUFFERS as i32
        }
        gl::MAX_COMPUTE_IMAGE_UNIFORMS => {
            crate::glsl::builtin_constants::MAX_STAGE_IMAGE_UNIFORMS as i32
        }
        _ => return None,
    })
}

/// glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT / _SIZE, index), `None` for other
/// names; an index past 2 is INVALID_VALUE.
pub(crate) fn indexed_limit(pname: u32, index: u32) -> Option<GlResult<i64>> {
    let table = match pname {
        gl::MAX_COMPUTE_WORK_GROUP_COUNT => [MAX_GROUP_COUNT; 3],
        gl::MAX_COMPUTE_WORK_GROUP_SIZE => MAX_SIZE,
        _ => return None,
    };
    Some(
        table
            .get(index as usize)
            .map(|&v| v as i64)
            .ok_or(GlError::InvalidValue("index past 2 for a work group limit")),
    )
}

impl Context {
    pub(crate) fn try_dispatch_compute(&mut self, x: u32, y: u32, z: u32) -> GlResult<()> {
        self.run_dispatch([x, y, z])
    }

    pub(crate) fn try_dispatch_compute_indirect(&mut self, offset: isize) -> GlResult<()> {
        // GL 4.5 core §19: INVALID_VALUE for a negative or unaligned offset,
        // INVALID_OPERATION with no buffer bound or a command past its end.
        if offset < 0 || offset % 4 != 0 {
            return Err(GlError::InvalidValue(
                "indirect is negative or not a multiple of 4",
            ));
        }
        let buf = self
            .generic_buffers
            .get(&gl::DISPATCH_INDIRECT_BUFFER)
            .and_then(|&n| self.objs.buffers.get(n))
            .ok_or(GlError::InvalidOperation(
                "no buffer bound to GL_DISPATCH_INDIRECT_BUFFER",
            ))?;
        if buf.blocks_draws() {
            return Err(GlError::InvalidOperation(
                "the GL_DISPATCH_INDIRECT_BUFFER is mapped",
            ));
        }
        let at = offset as usize;
        let bytes = buf
            .data
            .get(at..at.saturating_add(12))
            .filter(|b| b.len() == 12)
            .ok_or(GlError::InvalidOperation(
                "the dispatch command runs past the end of GL_DISPATCH_INDIRECT_BUFFER",
            ))?;
        let word =
            |k: usize| u32::from_le_bytes([bytes[k], bytes[k + 1], bytes[k + 2], bytes[k + 3]]);
        let groups = [word(0), word(4), word(8)];
        // Counts past the limit are undefined behaviour for the indirect form (no error
        // is defined); softgl runs nothing rather than a huge dispatch.
        if groups.iter().any(|&g| g > MAX_GROUP_COUNT) {
            return Ok(());
        }
        self.run_dispatch(groups)
    }

    pub(crate) fn try_compute_work_group_size(&mut self, program: u32) -> GlResult<[i32; 3]> {
        work_group_size(self.program_obj(program)?)
    }

    /// Validates and runs one dispatch of `groups` work groups (module docs).
    fn run_dispatch(&mut self, groups: [u32; 3]) -> GlResult<()> {
        let exe = self.compute_executable()?;
        let code = exe.compute.clone().ok_or(GlError::InvalidOperation(
            "the current program has no compute shader",
        ))?;
        exe.check_sampler_units()?;
        if groups.iter().any(|&g| g > MAX_GROUP_COUNT) {
            return Err(GlError::InvalidValue(
                "a work group count is past GL_MAX_COMPUTE_WORK_GROUP_COUNT",
            ));
        }
        let [blocks, _] = self.uniform_blocks_for_draw(exe)?;
        let storage = self.storage_for_draw(exe)?;
        let uses_images = exe.uses_images;
        let writes = exe.writes_storage;
        if groups.contains(&0) {
            return Ok(());
        }
        self.update_derived();
        let [words, _] = self.uniform_words_for_draw(true)?;
        let [stage_storage, _] = storage.stages;
        // Queued draws may render into textures the shader reads. Flushed (and the
        // images copied, which may flush too) before the dispatch's loop-trip flag
        // exists: a flush reports (and forgets) every flag.
        let _ = self.flush_raster();
        let images = self.images_for_draw(uses_images, writes)?;
        let sampler = images.sampler;
        let data = StageData {
            uniforms: words,
            blocks,
            storage: stage_storage,
            loop_trips: self.loop_trip_flag(self.drawing_program()),
        };
        let threads = self.raster.threads();
        let raster = &self.raster;
        code.dispatch(&data, &sampler, groups, threads, &|jobs, job| {
            raster.run_parallel(jobs, job)
        });
        self.write_back_storage(storage.write_back);
        self.write_back_images(images.write_back);
        // Reports a loop-budget trip now, as a draw's is reported at its flush.
        let _ = self.flush_raster();
        Ok(())
    }
}
