//! The `#[repr(C)]` structures shared between generated code and Rust: what a shader
//! function receives, and what it passes to the `rt_*` helpers. Offsets are asserted at
//! compile time and the emitter reads them from the constants here.
//!
//! A shader function has the signature
//! `extern "C" fn(env: *const ShaderEnv, inv: *mut Invocation) -> u32` and runs 4
//! invocations (lanes) at once: 4 vertices, or one 2×2 fragment quad (lane 0 = (x, y),
//! 1 = (x+1, y), 2 = (x, y+1), 3 = (x+1, y+1)). It returns the lanes that are still alive
//! (not discarded) as bits 0..3.
//!
//! Slot arrays are structure-of-arrays: word `slot` of lane `l` is at `[slot * 4 + l]`.
//!
//! ```text
//!  inputs:   [ s0.l0 s0.l1 s0.l2 s0.l3 | s1.l0 ... ]   u32 words (f32 bits where float)
//!  builtins: [ Builtin::index() rows of 4 lanes ]
//! ```

use std::mem::offset_of;

/// A bound range of a buffer, as generated code reads it (uniform blocks).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct BufferRange {
    pub ptr: *const u8,
    /// Bytes readable from `ptr`; reads at or past it give 0.
    pub len: u64,
}

/// Per-draw constants for one stage. Everything it points to lives in the draw snapshot,
/// which outlives every call.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ShaderEnv {
    /// Default uniform block words.
    pub uniforms: *const u32,
    /// Number of words at `uniforms`.
    pub uniform_words: u64,
    /// `blocks[i]` is the buffer range bound to the stage's uniform block `i`.
    pub blocks: *const BufferRange,
    pub block_count: u64,
    /// Opaque to generated code: `*const sampler::SampleContext`, passed to `rt_texture`.
    pub sampler: *const u8,
}

pub const ENV_UNIFORMS: i32 = offset_of!(ShaderEnv, uniforms) as i32;
pub const ENV_UNIFORM_WORDS: i32 = offset_of!(ShaderEnv, uniform_words) as i32;
pub const ENV_BLOCKS: i32 = offset_of!(ShaderEnv, blocks) as i32;
pub const ENV_BLOCK_COUNT: i32 = offset_of!(ShaderEnv, block_count) as i32;
pub const ENV_SAMPLER: i32 = offset_of!(ShaderEnv, sampler) as i32;
pub const BUFFER_RANGE_PTR: i32 = offset_of!(BufferRange, ptr) as i32;
pub const BUFFER_RANGE_LEN: i32 = offset_of!(BufferRange, len) as i32;
pub const BUFFER_RANGE_SIZE: i32 = std::mem::size_of::<BufferRange>() as i32;

/// Per-call data: 4 lanes of inputs in, 4 lanes of outputs out.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct Invocation {
    /// `Module::inputs` words, SoA (`[slot * 4 + lane]`).
    pub inputs: *const u32,
    /// `Function::outputs` words, SoA; written for live lanes only.
    pub outputs: *mut u32,
    /// `Builtin::COUNT` rows of 4 lanes.
    pub builtins: *const u32,
    /// Lanes to run (bits 0..3). Inactive lanes compute nothing observable.
    pub mask: u32,
}

pub const INV_INPUTS: i32 = offset_of!(Invocation, inputs) as i32;
pub const INV_OUTPUTS: i32 = offset_of!(Invocation, outputs) as i32;
pub const INV_BUILTINS: i32 = offset_of!(Invocation, builtins) as i32;
pub const INV_MASK: i32 = offset_of!(Invocation, mask) as i32;

/// The kind of texture operation in a `TexRequest`.
#[repr(u32)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TexOp {
    /// Filtered sample; `lod` is a bias (0 when none) added to the quad's implicit LOD.
    /// In the vertex stage (`quad == 0`) the implicit LOD is 0.
    SampleImplicit = 0,
    /// Filtered sample at the explicit LOD in `lod`.
    SampleLod = 1,
    /// texelFetch: `coord` holds i32 bits, `lod` holds the i32 level bits.
    Fetch = 2,
    /// textureSize: `lod` holds the i32 level bits; out[0..2] get width and height (i32).
    Size = 3,
}

/// What generated code passes to `rt_texture` for one texture instruction, all 4 lanes.
/// The handle may differ per lane; the lookup uses each lane's own handle.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct TexRequest {
    pub op: u32,
    /// Lanes to compute (bits 0..3); others get zeros.
    pub mask: u32,
    /// 1 when the 4 lanes are a fragment quad (derivatives are meaningful), 0 otherwise.
    pub quad: u32,
    /// textureOffset texel offset.
    pub offset: [i32; 2],
    pub _pad: u32,
    pub handle_lo: [u32; 4],
    pub handle_hi: [u32; 4],
    /// coord[c][lane]; f32 bits, or i32 bits for `Fetch`.
    pub coord: [[u32; 4]; 2],
    /// Bias or LOD (f32 bits), or level (i32 bits) for `Fetch` / `Size`.
    pub lod: [u32; 4],
}

pub const TEX_OP: i32 = offset_of!(TexRequest, op) as i32;
pub const TEX_MASK: i32 = offset_of!(TexRequest, mask) as i32;
pub const TEX_QUAD: i32 = offset_of!(TexRequest, quad) as i32;
pub const TEX_OFFSET: i32 = offset_of!(TexRequest, offset) as i32;
pub const TEX_HANDLE_LO: i32 = offset_of!(TexRequest, handle_lo) as i32;
pub const TEX_HANDLE_HI: i32 = offset_of!(TexRequest, handle_hi) as i32;
pub const TEX_COORD: i32 = offset_of!(TexRequest, coord) as i32;
pub const TEX_LOD: i32 = offset_of!(TexRequest, lod) as i32;
pub const TEX_REQUEST_SIZE: u32 = std::mem::size_of::<TexRequest>() as u32;

/// Result of `rt_texture`: `out[component][lane]`, f32 bits (or i32 for `Size`).
pub type TexResult = [[u32; 4]; 4];

/// Signature of the texture helper generated code calls:
/// `rt_texture(sampler: *const u8 /* ShaderEnv::sampler */, req: *const TexRequest,
/// out: *mut TexResult)`.
pub type RtTextureFn = unsafe extern "C" fn(*const u8, *const TexRequest, *mut TexResult);

// Compile-time layout checks: generated code hard-codes these offsets.
const _: () = {
    assert!(ENV_UNIFORMS == 0);
    assert!(ENV_UNIFORM_WORDS == 8);
    assert!(ENV_BLOCKS == 16);
    assert!(ENV_BLOCK_COUNT == 24);
    assert!(ENV_SAMPLER == 32);
    assert!(BUFFER_RANGE_SIZE == 16);
    assert!(INV_INPUTS == 0);
    assert!(INV_OUTPUTS == 8);
    assert!(INV_BUILTINS == 16);
    assert!(INV_MASK == 24);
    assert!(TEX_HANDLE_LO == 24);
    assert!(TEX_HANDLE_HI == 40);
    assert!(TEX_COORD == 56);
    assert!(TEX_LOD == 88);
    assert!(TEX_REQUEST_SIZE == 104);
};
