//! GL entry points of shader storage buffers and memory barriers (GL 4.5 core §7.8,
//! §7.13.2): glShaderStorageBlockBinding, glMemoryBarrier, glMemoryBarrierByRegion. The
//! logic is in `api/storage_buffer.rs`.

use super::*;

pub fn ShaderStorageBlockBinding(
    ctx: &mut Context,
    program: GLuint,
    storageBlockIndex: GLuint,
    storageBlockBinding: GLuint,
) {
    ctx.shader_storage_block_binding(program, storageBlockIndex, storageBlockBinding)
}

pub fn MemoryBarrier(ctx: &mut Context, barriers: GLbitfield) {
    ctx.memory_barrier(barriers)
}

pub fn MemoryBarrierByRegion(ctx: &mut Context, barriers: GLbitfield) {
    ctx.memory_barrier_by_region(barriers)
}
