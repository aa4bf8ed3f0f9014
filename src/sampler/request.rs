//! The texture request/response contract between generated code and the sampler: what a
//! shader's texture instruction hands `rt_texture` (`TexRequest`, all 4 lanes) and what it
//! gets back (`TexResult`). The sampler owns it because the sampler answers it; the JIT
//! writes requests at the offsets below and the interpreter builds the same struct.

use std::mem::offset_of;

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
    /// textureSize: `lod` holds the i32 level bits; out[0..3] get width, height and layers
    /// (i32; layers is 1 for a texture that is not an array, the cube count of a cube-map
    /// array), out[3] the sample count of a multisample texture (textureSamples) and the
    /// number of accessible levels of any other texture (textureQueryLevels; 0 when
    /// incomplete).
    Size = 3,
    /// textureGather (GLSL 4.60 §8.9.4): the 2×2 LINEAR footprint of the base level, one
    /// component of each texel (`lod` holds the component, i32 bits 0..3), as
    /// (T_i0j1, T_i1j1, T_i1j0, T_i0j0); with `compare`, each texel's depth comparison.
    Gather = 4,
    /// textureQueryLod (GLSL 4.60 §8.9.1, ARB_texture_query_lod): out[0] the level the
    /// lookup would access, out[1] λ' relative to the base level (f32 bits).
    QueryLod = 5,
    /// An image instruction (`sampler::storage_image::access`): `offset[0]` is the
    /// `ImageOp`, `offset[1]` the `ImageDim`; coordinates are i32 bits in `coord[0]`,
    /// `coord[1]` and `layer`, a multisample image's sample in `lod`, and the values a
    /// store or an atomic writes in `data`.
    Image = 6,
}

impl TexOp {
    /// The op of a request's `op` word (`None` for an unknown value).
    pub fn from_u32(op: u32) -> Option<TexOp> {
        [
            TexOp::SampleImplicit,
            TexOp::SampleLod,
            TexOp::Fetch,
            TexOp::Size,
            TexOp::Gather,
            TexOp::QueryLod,
            TexOp::Image,
        ]
        .into_iter()
        .find(|o| *o as u32 == op)
    }
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
    /// 1 for a shadow lookup (sampler2DShadow): `dref` holds each lane's reference depth,
    /// compared with the texels when the descriptor's compare mode is on (GL 4.5 core
    /// §8.23); 0 otherwise.
    pub compare: u32,
    pub handle_lo: [u32; 4],
    pub handle_hi: [u32; 4],
    /// coord[c][lane]; f32 bits, or i32 bits for `Fetch`.
    pub coord: [[u32; 4]; 2],
    /// Bias or LOD (f32 bits), or level (i32 bits) for `Fetch` / `Size`.
    pub lod: [u32; 4],
    /// Shadow lookups: the reference depth D_ref of each lane (f32 bits).
    pub dref: [u32; 4],
    /// Array lookups: the layer coordinate of each lane (f32 bits; i32 bits for `Fetch`).
    /// 0 for lookups of non-array samplers.
    pub layer: [u32; 4],
    /// Cube-map array lookups: the array layer of each lane (f32 bits), the direction
    /// filling `coord` and `layer`. 0 otherwise.
    pub cube_layer: [u32; 4],
    /// `TexOp::Image` only: `data[component][lane]`, what a store or an atomic writes (0
    /// in every other request).
    pub data: [[u32; 4]; 4],
}

pub const TEX_OP: i32 = offset_of!(TexRequest, op) as i32;
pub const TEX_MASK: i32 = offset_of!(TexRequest, mask) as i32;
pub const TEX_QUAD: i32 = offset_of!(TexRequest, quad) as i32;
pub const TEX_OFFSET: i32 = offset_of!(TexRequest, offset) as i32;
pub const TEX_COMPARE: i32 = offset_of!(TexRequest, compare) as i32;
pub const TEX_HANDLE_LO: i32 = offset_of!(TexRequest, handle_lo) as i32;
pub const TEX_HANDLE_HI: i32 = offset_of!(TexRequest, handle_hi) as i32;
pub const TEX_COORD: i32 = offset_of!(TexRequest, coord) as i32;
pub const TEX_LOD: i32 = offset_of!(TexRequest, lod) as i32;
pub const TEX_DREF: i32 = offset_of!(TexRequest, dref) as i32;
pub const TEX_LAYER: i32 = offset_of!(TexRequest, layer) as i32;
pub const TEX_CUBE_LAYER: i32 = offset_of!(TexRequest, cube_layer) as i32;
pub const TEX_DATA: i32 = offset_of!(TexRequest, data) as i32;
pub const TEX_REQUEST_SIZE: u32 = std::mem::size_of::<TexRequest>() as u32;

/// Result of `rt_texture`: `out[component][lane]`, f32 bits (or i32 for `Size`).
pub type TexResult = [[u32; 4]; 4];

/// Signature of the texture helper generated code calls:
/// `rt_texture(sampler: *const u8 /* ShaderEnv::sampler */, req: *const TexRequest,
/// out: *mut TexResult)`.
pub type RtTextureFn = unsafe extern "C" fn(*const u8, *const TexRequest, *mut TexResult);

// Generated code hard-codes these offsets.
const _: () = {
    assert!(TEX_HANDLE_LO == 24);
    assert!(TEX_HANDLE_HI == 40);
    assert!(TEX_COORD == 56);
    assert!(TEX_LOD == 88);
    assert!(TEX_COMPARE == 20);
    assert!(TEX_DREF == 104);
    assert!(TEX_LAYER == 120);
    assert!(TEX_CUBE_LAYER == 136);
    assert!(TEX_DATA == 152);
    assert!(TEX_REQUEST_SIZE == 216);
};
