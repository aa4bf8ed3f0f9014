//! GL entry points of shader storage buffers, compute dispatch and memory barriers (GL 4.5
//! core §7.8, §7.13.2, §19): glShaderStorageBlockBinding, glDispatchCompute(Indirect),
//! glMemoryBarrier, glMemoryBarrierByRegion. The logic is in `api/storage_buffer.rs` and
//! `api/compute.rs`.

use super::*;

pub fn ShaderStorageBlockBinding(
    ctx: &mut Context,
    program: GLuint,
    storageBlockIndex: GLuint,
    storageBlockBinding: GLuint,
) {
    ctx.shader_storage_block_binding(program, storageBlockIndex, storageBlockBinding)
}

pub fn DispatchCompute(
    ctx: &mut Context,
    num_groups_x: GLuint,
    num_groups_y: GLuint,
    num_groups_z: GLuint,
) {
    ctx.dispatch_compute(num_groups_x, num_groups_y, num_groups_z)
}

pub fn DispatchComputeIndirect(ctx: &mut Context, indirect: GLintptr) {
    ctx.dispatch_compute_indirect(indirect)
}

pub fn MemoryBarrier(ctx: &mut Context, barriers: GLbitfield) {
    ctx.memory_barrier(barriers)
}

pub fn MemoryBarrierByRegion(ctx: &mut Context, barriers: GLbitfield) {
    ctx.memory_barrier_by_region(barriers)
}
