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

/// A bound range of a buffer, as generated code reads it (uniform and storage blocks).
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
    /// `storage[i]` is the range bound to the stage's shader storage block `i`: words that
    /// every invocation of the draw may read and write (4-byte aligned, `len` a multiple
    /// of 4). Generated code stores with plain moves and updates with atomic instructions.
    pub storage: *const BufferRange,
    pub storage_count: u64,
    /// Opaque to generated code: `*const sampler::SampleContext`, passed to `rt_texture`.
    pub sampler: *const u8,
    /// Where generated code stores 1 when the loop budget kills a lane (`ir::interp`'s
    /// module docs); null: nobody listens. Written with an atomic store (several workers
    /// may trip at once), read by the API thread after the draw has run.
    pub loop_trips: *const std::sync::atomic::AtomicU32,
    /// Loop iterations each invocation may start (`ir::interp::loop_budget`), at most
    /// `ir::interp::MAX_LOOP_BUDGET`.
    pub loop_budget: u32,
}

pub const ENV_UNIFORMS: i32 = offset_of!(ShaderEnv, uniforms) as i32;
pub const ENV_UNIFORM_WORDS: i32 = offset_of!(ShaderEnv, uniform_words) as i32;
pub const ENV_BLOCKS: i32 = offset_of!(ShaderEnv, blocks) as i32;
pub const ENV_BLOCK_COUNT: i32 = offset_of!(ShaderEnv, block_count) as i32;
pub const ENV_STORAGE: i32 = offset_of!(ShaderEnv, storage) as i32;
pub const ENV_STORAGE_COUNT: i32 = offset_of!(ShaderEnv, storage_count) as i32;
pub const ENV_SAMPLER: i32 = offset_of!(ShaderEnv, sampler) as i32;
pub const ENV_LOOP_TRIPS: i32 = offset_of!(ShaderEnv, loop_trips) as i32;
pub const ENV_LOOP_BUDGET: i32 = offset_of!(ShaderEnv, loop_budget) as i32;
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

/// The generated shader function (see the module docs).
pub type ShaderFn = unsafe extern "C" fn(*const ShaderEnv, *mut Invocation) -> u32;

/// Colour attachments a fragment variant can write (GL_MAX_COLOR_ATTACHMENTS).
pub const MAX_COLOR_ATTACHMENTS: usize = 8;

/// Per-draw constants of a fragment variant (`jit/fragment.rs`). Lives in the tile's draw
/// context, which outlives every call.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct FragEnv {
    /// The shader's env, passed on to the shader function.
    pub shader_env: *const ShaderEnv,
    /// The blend constant colour per attachment, already clamped to [0, 1] for unorm
    /// attachments (GL 4.5 core §17.3.6.2). Read at run time so that BlendColor does not
    /// change the variant.
    pub blend_color: [[f32; 4]; MAX_COLOR_ATTACHMENTS],
    /// The same constants as unorm8 integers (`ops::PreparedBlend::constant_unorm8`), for
    /// 8-bit unorm attachments, which blend in integers.
    pub blend_color_unorm8: [[u32; 4]; MAX_COLOR_ATTACHMENTS],
    /// How the block entry maps pixel (x, y) to gl_FragCoord.xy under the draw's layout
    /// qualifiers: `(x + frag_coord[0], y * frag_coord[1] + frag_coord[2])` (the fourth
    /// word is padding), as the tile loop's `FragCoordMap`.
    pub frag_coord: [f32; 4],
    /// The stencil test's run-time values per face (front, back), so that glStencilFunc's
    /// reference and the masks never recompile: `[reference & value_mask, value_mask,
    /// write_mask, reference]` (`fragment::stencil_env`). Unused by variants without one.
    pub stencil: [[u32; 4]; 2],
}

pub const FENV_SHADER_ENV: i32 = offset_of!(FragEnv, shader_env) as i32;
pub const FENV_BLEND_COLOR: i32 = offset_of!(FragEnv, blend_color) as i32;
pub const FENV_BLEND_COLOR_UNORM8: i32 = offset_of!(FragEnv, blend_color_unorm8) as i32;
pub const FENV_FRAG_COORD: i32 = offset_of!(FragEnv, frag_coord) as i32;
pub const FENV_STENCIL: i32 = offset_of!(FragEnv, stencil) as i32;

/// Per-quad data of a fragment variant: the shader invocation, the coverage, the
/// interpolated depth and where the quad's texels are. Lane order as in the module docs.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct FragQuad {
    /// The shader's invocation; `mask` must be 0xF (helper lanes run for derivatives).
    pub inv: Invocation,
    /// Covered lanes (bits 0..3), already cleared for lanes outside the depth image.
    pub cover: u32,
    /// The triangle faces the viewer: `u32::MAX` front, 0 back (picks the stencil face).
    pub front: u32,
    pub _pad: [u32; 2],
    /// Window z per lane (f32), before clamping.
    pub z: [f32; 4],
    /// Depth/stencil texel of each lane (4 bytes each). Lanes outside the image point at a
    /// scratch texel and are not covered.
    pub depth: [*mut u8; 4],
    /// Colour texel of each lane per attachment (as many bytes as the format's texel).
    /// Lanes outside an image point at scratch memory of 16 bytes, whatever is written
    /// there is never read back.
    pub color: [[*mut u8; 4]; MAX_COLOR_ATTACHMENTS],
}

pub const QUAD_INV: i32 = offset_of!(FragQuad, inv) as i32;
pub const QUAD_COVER: i32 = offset_of!(FragQuad, cover) as i32;
pub const QUAD_FRONT: i32 = offset_of!(FragQuad, front) as i32;
pub const QUAD_Z: i32 = offset_of!(FragQuad, z) as i32;
pub const QUAD_DEPTH: i32 = offset_of!(FragQuad, depth) as i32;
pub const QUAD_COLOR: i32 = offset_of!(FragQuad, color) as i32;

/// Signature of a fragment variant's quad entry: `fn(env, quad) -> lanes written`.
pub type VariantFn = unsafe extern "C" fn(*const FragEnv, *mut FragQuad) -> u32;

/// A span of 4×4 blocks in one row for a fragment variant's block entry (`VariantBlockFn`):
/// block k starts 4k pixels right of the first, and each block's up to four 2×2 quads share
/// texel base pointers and row strides instead of a pointer per lane. The fields describe
/// the first block; the variant moves `dx`, `x`, the image pointers and the edge values 4
/// pixels right after each block (so after the call they describe the block past the
/// span's last), and leaves the rest as it found them apart from `inv`'s row pointers.
/// The variant interpolates each quad itself from the triangle's planes (window z first,
/// for early depth; then, for quads with a lane left, 1/w, the inputs and the builtins the
/// shader reads, written to the quad's rows at `inputs`/`builtins`), so the caller only
/// hands over the planes and where the block sits.
///
/// ```text
///  pixel (i, j) of the block, i, j in 0..4 (j = window row, upwards in memory order):
///    coverage bit  j * 4 + i
///    quad          q = (j / 2) * 2 + i / 2,  lane (j % 2) * 2 + i % 2 (the module docs' order)
///    texel         ptr + j * stride + i * bytes_per_texel, for every image
/// ```
///
/// Coverage: the tile loop only classifies a block against the triangle's edges (outside:
/// never called; wholly inside: `edge_test` 0); a block partly inside carries the three
/// edge functions (`edges`) and the variant tests its 16 pixel centres itself, in i64
/// lanes, with `raster::tile::edge_mask`'s integer rule.
///
/// The Rust tile loop hands the block entry only blocks whose 16 pixels lie inside every
/// attached image and inside its tile, so generated code still never needs an image's size
/// (blocks on an image's edge take the quad entry, whose outside lanes point at scratch).
///
/// Room for what comes next, without changing what is here: *stencil* lives in the D24S8
/// depth texel the block already addresses (its functions and operations are in the variant
/// key, its reference and masks in `FragEnv`, the face in `front`); *multisampling* adds a per-sample coverage word and a sample stride per
/// image beside `cover`/`*_stride` (the quad loop then runs per sample for the per-sample
/// tests and stores); *several colour attachments with their own blend state* are already
/// here (`color[i]`/`color_stride[i]`, one `ColorKey` each, blend constants per attachment
/// in `FragEnv`); *dual-source blending* only reads a second output row in the variant
/// (a second slot in `ColorKey`), nothing here. New fields go at the end.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct FragBlock {
    /// The shader's invocation: `outputs` and `mask` (0xF) set by the caller; the variant
    /// points `inputs` and `builtins` at each quad's before calling the shader.
    pub inv: Invocation,
    /// Pixels that may be covered: block k's pixel (i, j) is bit `16 * k + j * 4 + i`,
    /// already limited to the tile, the images and the triangle's bounds; with block k's
    /// `edge_test` bit set the variant also clears its pixels outside the triangle's edges.
    /// The span is the blocks up to the last with a bit set (at most 4); a block with no
    /// bit in between is skipped.
    pub cover: u64,
    /// gl_FrontFacing of the triangle (and the stencil face it uses): `u32::MAX` front, 0
    /// back.
    pub front: u32,
    /// Pixel (0, 0) of the block minus the triangle's plane origin (`setup::Triangle::origin`):
    /// planes are evaluated at `(dx + i, dy + j)`.
    pub dx: i32,
    pub dy: i32,
    /// Pixel (0, 0) of the block in window coordinates (for gl_FragCoord.xy).
    pub x: i32,
    pub y: i32,
    /// The triangle's planes, each coefficient repeated over the 4 lanes (`SplatPlane`):
    /// the window z plane (`SPLAT_Z`), the 1/w plane (`SPLAT_W`), then the varyings'
    /// (`SPLAT_FIRST_VARYING + fragment::VaryingKey::plane`). Set once per triangle and
    /// tile, so each quad multiplies straight from memory instead of loading and
    /// broadcasting three scalars per plane.
    pub planes: *const SplatPlane,
    /// Quad q's input words (`Invocation::inputs`) are at `inputs + q * input_stride` bytes
    /// (the variant writes the interpolated rows there).
    pub inputs: *mut u32,
    pub input_stride: u64,
    /// Quad q's builtin rows are at `builtins + q * builtin_stride` bytes (the variant
    /// writes the rows of the builtins the key lists).
    pub builtins: *mut u32,
    pub builtin_stride: u64,
    /// Depth/stencil texel of pixel (0, 0), and the bytes from one row to the next (signed).
    pub depth: *mut u8,
    pub depth_stride: i64,
    /// Colour texel of pixel (0, 0) per attachment, and each image's row stride in bytes.
    pub color: [*mut u8; MAX_COLOR_ATTACHMENTS],
    pub color_stride: [i64; MAX_COLOR_ATTACHMENTS],
    /// Bit k set when block k is only partly inside the triangle: the variant then keeps
    /// in its `cover` bits only the pixels where all three `edges` are >= 0. Clear (a block
    /// the tile loop found wholly inside) skips the per-pixel tests of that block.
    pub edge_test: u32,
    pub _pad: u32,
    /// The triangle's three edge functions at the first block (`raster::fixed::Edge`, the
    /// fill rule folded into the sign), read only when an `edge_test` bit is set (then they
    /// must be right for the first block whatever its own bit, since each later block's
    /// values come from them): pixel (i, j) of block k is inside an edge when
    /// `c + a·(4k + i) + b·j >= 0`,
    /// in exact i64 arithmetic (setup's bounds keep every value at a pixel of the block
    /// below 2^62, so no step overflows).
    pub edges: [BlockEdge; 3],
}

/// One plane `[a, b, c]` of a triangle (value `c + a·dx + b·dy` in that order of f32
/// operations, `setup::Plane::eval`) with each coefficient repeated over the 4 lanes of a
/// quad, 16-byte aligned: what `FragBlock::planes` points at.
#[repr(C, align(16))]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct SplatPlane {
    pub a: [f32; 4],
    pub b: [f32; 4],
    pub c: [f32; 4],
}

impl SplatPlane {
    pub fn new([a, b, c]: [f32; 3]) -> SplatPlane {
        SplatPlane {
            a: [a; 4],
            b: [b; 4],
            c: [c; 4],
        }
    }
}

/// Index of the window z plane at `FragBlock::planes`.
pub const SPLAT_Z: u32 = 0;
/// Index of the 1/w plane.
pub const SPLAT_W: u32 = 1;
/// Index of the first varying plane (varying plane k at `SPLAT_FIRST_VARYING + k`).
pub const SPLAT_FIRST_VARYING: u32 = 2;
/// Bytes per `SplatPlane`, and the offsets of its coefficients.
pub const SPLAT_PLANE_SIZE: i32 = std::mem::size_of::<SplatPlane>() as i32;
pub const SPLAT_A: i32 = offset_of!(SplatPlane, a) as i32;
pub const SPLAT_B: i32 = offset_of!(SplatPlane, b) as i32;
pub const SPLAT_C: i32 = offset_of!(SplatPlane, c) as i32;

/// One edge function at a block's pixel (0, 0) (`FragBlock::edges`): the value there and
/// the steps per pixel in x and y. Generic on purpose: a sample position's offset (for
/// multisampling) is already folded into `c` by whoever fills it.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockEdge {
    pub c: i64,
    pub a: i64,
    pub b: i64,
}

pub const BLOCK_INV: i32 = offset_of!(FragBlock, inv) as i32;
pub const BLOCK_COVER: i32 = offset_of!(FragBlock, cover) as i32;
pub const BLOCK_FRONT: i32 = offset_of!(FragBlock, front) as i32;
pub const BLOCK_DX: i32 = offset_of!(FragBlock, dx) as i32;
pub const BLOCK_DY: i32 = offset_of!(FragBlock, dy) as i32;
pub const BLOCK_X: i32 = offset_of!(FragBlock, x) as i32;
pub const BLOCK_Y: i32 = offset_of!(FragBlock, y) as i32;
pub const BLOCK_PLANES: i32 = offset_of!(FragBlock, planes) as i32;
/// Bytes per plane of a triangle's plane array (`setup::Plane`): a, b, c.
pub const PLANE_SIZE: i32 = 12;
pub const BLOCK_INPUTS: i32 = offset_of!(FragBlock, inputs) as i32;
pub const BLOCK_INPUT_STRIDE: i32 = offset_of!(FragBlock, input_stride) as i32;
pub const BLOCK_BUILTINS: i32 = offset_of!(FragBlock, builtins) as i32;
pub const BLOCK_BUILTIN_STRIDE: i32 = offset_of!(FragBlock, builtin_stride) as i32;
pub const BLOCK_DEPTH: i32 = offset_of!(FragBlock, depth) as i32;
pub const BLOCK_DEPTH_STRIDE: i32 = offset_of!(FragBlock, depth_stride) as i32;
pub const BLOCK_COLOR: i32 = offset_of!(FragBlock, color) as i32;
pub const BLOCK_COLOR_STRIDE: i32 = offset_of!(FragBlock, color_stride) as i32;
pub const BLOCK_EDGE_TEST: i32 = offset_of!(FragBlock, edge_test) as i32;
pub const BLOCK_EDGES: i32 = offset_of!(FragBlock, edges) as i32;
pub const EDGE_C: i32 = offset_of!(BlockEdge, c) as i32;
pub const EDGE_A: i32 = offset_of!(BlockEdge, a) as i32;
pub const EDGE_B: i32 = offset_of!(BlockEdge, b) as i32;
/// Bytes per `BlockEdge`.
pub const EDGE_SIZE: i32 = std::mem::size_of::<BlockEdge>() as i32;

/// Signature of a fragment variant's block entry: `fn(env, block) -> 0`.
pub type VariantBlockFn = unsafe extern "C" fn(*const FragEnv, *mut FragBlock) -> u32;

// Compile-time layout checks: generated code hard-codes these offsets.
const _: () = {
    assert!(ENV_UNIFORMS == 0);
    assert!(ENV_UNIFORM_WORDS == 8);
    assert!(ENV_BLOCKS == 16);
    assert!(ENV_BLOCK_COUNT == 24);
    assert!(ENV_STORAGE == 32);
    assert!(ENV_STORAGE_COUNT == 40);
    assert!(ENV_SAMPLER == 48);
    assert!(ENV_LOOP_TRIPS == 56);
    assert!(ENV_LOOP_BUDGET == 64);
    assert!(BUFFER_RANGE_SIZE == 16);
    assert!(INV_INPUTS == 0);
    assert!(INV_OUTPUTS == 8);
    assert!(INV_BUILTINS == 16);
    assert!(INV_MASK == 24);
    assert!(QUAD_INV == 0);
    assert!(QUAD_COVER == 32);
    assert!(QUAD_FRONT == 36);
    assert!(QUAD_Z == 48);
    assert!(QUAD_DEPTH == 64);
    assert!(QUAD_COLOR == 96);
    assert!(BLOCK_INV == 0);
    assert!(BLOCK_COVER == 32);
    assert!(BLOCK_FRONT == 40);
    assert!(BLOCK_DX == 44);
    assert!(BLOCK_DY == 48);
    assert!(BLOCK_X == 52);
    assert!(BLOCK_Y == 56);
    assert!(BLOCK_PLANES == 64);
    assert!(BLOCK_INPUTS == 72);
    assert!(BLOCK_INPUT_STRIDE == 80);
    assert!(BLOCK_BUILTINS == 88);
    assert!(BLOCK_BUILTIN_STRIDE == 96);
    assert!(BLOCK_DEPTH == 104);
    assert!(BLOCK_DEPTH_STRIDE == 112);
    assert!(BLOCK_COLOR == 120);
    assert!(BLOCK_COLOR_STRIDE == 184);
    assert!(BLOCK_EDGE_TEST == 248);
    assert!(BLOCK_EDGES == 256);
    assert!(SPLAT_PLANE_SIZE == 48);
    assert!(SPLAT_A == 0 && SPLAT_B == 16 && SPLAT_C == 32);
    assert!(EDGE_C == 0);
    assert!(EDGE_A == 8);
    assert!(EDGE_B == 16);
    assert!(EDGE_SIZE == 24);
};
