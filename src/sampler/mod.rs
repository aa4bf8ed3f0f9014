//! Texture storage and sampling (DESIGN.md §4): images and formats, mipmaps, filtering and LOD, the global descriptor table indexed by bindless handle,
//! resident sets, and `rt_texture`, the helper generated code calls.
//!
//! The story of a texture lookup: the API turns a texture (plus sampler state) into a
//! handle with `DescriptorTable::insert` — bindless handles, and bound texture units as
//! `internal` handles at draw validation. Generated code calls `rt_texture` with 4 lanes of
//! handles and coordinates; `sample` validates each lane's handle against the table (index,
//! generation) and the draw's resident set, then calls the descriptor's routine, chosen when
//! the handle was created from the format and the filter state. A bad handle yields zeros
//! and one debug message, never a wild read.
//!
//! For the API (who calls what):
//! - Pixel transfers (glTexImage*, glReadPixels) pair GL format/type enums with storage in
//!   the API (`api::pixels`), through `format.rs`'s per-texel encoding; `glGenerateMipmap`:
//!   `generate_mipmaps`.
//! - `glGetTextureHandleARB` / bound units at draw time: check `is_complete` (the spec's
//!   INVALID_OPERATION), then `DescriptorTable::insert`; texture or sampler deleted:
//!   `DescriptorTable::remove` — after flushing queued draws that may still use the
//!   handle, since a removed handle samples zeros from then on.
//! - Each draw: `SampleContext::new(table, Arc::new(resident_set.clone()), sink)`.
//!
//! | file | owns |
//! |---|---|
//! | `image.rs` | linear pixel storage shared with the rasterizer, formats |
//! | `format.rs` | per-texel encode/decode (unorm, f16, f32, sRGB, depth/stencil) |
//! | `srgb_tables.rs` | exact sRGB decode/encode tables (generated) |
//! | `mipmap.rs` | level sizes, completeness, mipmap generation |
//! | `descriptor.rs` | the `#[repr(C)]` descriptor and how it is built |
//! | `filter.rs` | the sample/fetch/size routines (wrap, filters, level choice) |
//! | `cube.rs` | cube maps: face selection (table 8.19), seamless filtering, the cube λ |
//! | `volume.rs` | 3D textures: λ over three axes, trilinear footprints with the r wrap |
//! | `filter8.rs` | integer filtering of RGBA8 and sRGB8_ALPHA8 (8-bit weights) |
//! | `lod.rs` | the quad's λ and the f32 log2 it uses |
//! | `resident.rs` | resident sets: sorted chunks shared between snapshots |
//! | `request.rs` | the texture request/response contract generated code calls `rt_texture` with |
//! | `simd.rs` | 4-lane f32/i32 vectors (SSE2) for the quad fast path |
//! | `table.rs` | the descriptor table: pages, handles, generations |
//! | `epoch.rs` | lock-free reclamation of removed descriptors |
//! | `storage_image.rs` | image load/store: table 8.27's formats, per-draw image views, the accesses |

pub mod compressed;
mod cube;
mod descriptor;
mod epoch;
mod filter;
mod filter8;
pub mod format;
pub mod image;
mod lod;
pub mod mipmap;
pub mod request;
mod resident;
mod simd;
mod srgb_tables;
pub mod storage_image;
pub mod table;
mod volume;

pub use descriptor::{Descriptor, MAX_LEVELS, MAX_TEXTURE_LOD_BIAS};
pub use format::{
    decode_color, decode_depth, decode_int, decode_stencil, decode_texel, encode_color,
    encode_color_linear, encode_depth, encode_int, encode_stencil, linear_to_srgb8, load_color,
    pack_d24s8, srgb8_to_linear, store_color, unpack_d24s8,
};
pub use image::{Flushed, Format, Image, IntFormat, SnormFormat, TileWriter};
pub use mipmap::{
    filters_allowed, generate_mipmaps, is_complete, max_mip_level, mip_size, with_generated_mipmaps,
};
pub use resident::ResidentSet;
pub use table::{DescriptorTable, TextureHandle, MAX_HANDLES};

use crate::gl::{CompareFunc, MagFilter, MinFilter, Wrap};
use crate::sampler::request::{TexOp, TexRequest, TexResult};

use std::sync::{Arc, Mutex};

/// Sampler state (GL 4.5 core §8.14; glTexParameter / glSamplerParameter).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SamplerState {
    pub min_filter: MinFilter,
    pub mag_filter: MagFilter,
    pub wrap_s: Wrap,
    pub wrap_t: Wrap,
    pub wrap_r: Wrap,
    pub border_color: [f32; 4],
    /// The border colour as integers (i32 or u32 bits), when glTexParameterI* /
    /// glSamplerParameterI* set it last: what integer textures return at the border.
    pub border_int: Option<[u32; 4]>,
    pub min_lod: f32,
    pub max_lod: f32,
    pub lod_bias: f32,
    /// GL_TEXTURE_COMPARE_MODE = GL_COMPARE_REF_TO_TEXTURE: shadow lookups of a depth
    /// texture compare the reference with each texel (GL 4.5 core §8.23).
    pub compare_mode: bool,
    /// GL_TEXTURE_COMPARE_FUNC.
    pub compare_func: CompareFunc,
    /// GL_TEXTURE_SWIZZLE_R/G/B/A (GL 4.5 core §15.2.1): where each result component comes
    /// from: 0–3 the looked-up R, G, B, A, `SWIZZLE_ZERO` or `SWIZZLE_ONE`. Texture state,
    /// not sampler state: the API copies the texture's swizzle into the state it hands the
    /// descriptor table, whichever sampler state goes with it.
    pub swizzle: [u8; 4],
}

/// `SamplerState::swizzle` codes of GL_ZERO and GL_ONE.
pub const SWIZZLE_ZERO: u8 = 4;
pub const SWIZZLE_ONE: u8 = 5;

impl Default for SamplerState {
    /// The GL initial state (GL 4.5 core table 23.18).
    fn default() -> Self {
        SamplerState {
            min_filter: MinFilter::NearestMipmapLinear,
            mag_filter: MagFilter::Linear,
            wrap_s: Wrap::Repeat,
            wrap_t: Wrap::Repeat,
            wrap_r: Wrap::Repeat,
            border_color: [0.0; 4],
            border_int: None,
            min_lod: -1000.0,
            max_lod: 1000.0,
            lod_bias: 0.0,
            compare_mode: false,
            compare_func: CompareFunc::Lequal,
            swizzle: [0, 1, 2, 3],
        }
    }
}

/// What a texture's images are, as sampling sees them (GL 4.5 core §8.1 targets). Each
/// level is one `Image`; its `depth` is 1 for 2D, the layer count for 2D arrays (the same
/// at every level), 6 for cube maps (faces in GL order +X, −X, +Y, −Y, +Z, −Z) and the
/// slice count for 3D textures (halved per level, eq. 8.12).
///
/// A multisample texture (GL 4.5 core §8.8) has one level and N samples; its view and
/// descriptor hold sample s where other kinds hold level s (every "level" the same size,
/// `depth` its layers), so texelFetch's sample number selects it as a level would and
/// out-of-range samples read zeros like out-of-range levels.
#[repr(u32)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum TexKind {
    #[default]
    D2,
    D2Array,
    Cube,
    D3,
    /// GL_TEXTURE_2D_MULTISAMPLE: `levels[s]` is sample s.
    D2Multisample,
    /// GL_TEXTURE_2D_MULTISAMPLE_ARRAY: `levels[s]` is sample s of every layer.
    D2MultisampleArray,
    /// GL_TEXTURE_1D: 2D levels one texel high. Lookups put t = ½ (GLSL lowering) and the
    /// descriptor clamps t to the edge, so a 1D lookup is a 2D lookup of that one row,
    /// bit for bit (weights 1 and 0 in t).
    D1,
    /// GL_TEXTURE_1D_ARRAY: one-row levels of `depth` layers (the GL's image height is the
    /// layer count), sampled as a 2D array of one-row layers.
    D1Array,
    /// GL_TEXTURE_RECTANGLE: one level, unnormalized coordinates (GL 4.5 core §8.14.2: u =
    /// s, v = t). Its routine (`filter::sample_rect`) divides the coordinates by the size
    /// and runs the 2D routine.
    Rect,
    /// GL_TEXTURE_CUBE_MAP_ARRAY: levels of 6 × n layers, cube c's faces at layers 6c..6c+6
    /// (GL 4.5 core §8.5.3); the array layer rides in the request's `cube_layer`.
    CubeArray,
    /// GL_TEXTURE_BUFFER: one level, `width` texels of one row, copied from the buffer's
    /// range by the API when a draw or handle captures it; texelFetch and textureSize only.
    Buffer,
}

impl TexKind {
    /// GL_TEXTURE_2D_MULTISAMPLE or _ARRAY: levels are samples.
    pub const fn is_multisample(self) -> bool {
        matches!(self, TexKind::D2Multisample | TexKind::D2MultisampleArray)
    }
    /// Kinds whose levels are one texel high and have no t coordinate.
    pub const fn is_1d(self) -> bool {
        matches!(self, TexKind::D1 | TexKind::D1Array | TexKind::Buffer)
    }
    /// Cube maps and cube-map arrays.
    pub const fn is_cube(self) -> bool {
        matches!(self, TexKind::Cube | TexKind::CubeArray)
    }
}

/// The texture-side state a descriptor captures: the level images and the level range.
#[derive(Clone, Debug, Default)]
pub struct TextureView {
    /// `levels[i]` is mip level i, when specified. For a cube map a level is present only
    /// when all six faces are (the API leaves it `None` otherwise): cube completeness.
    pub levels: Vec<Option<Arc<Image>>>,
    pub base_level: u32,
    pub max_level: u32,
    pub kind: TexKind,
}

/// Debug messages produced while sampling (invalid or non-resident handles); the API drains
/// them into its KHR_debug log.
pub type DebugSink = Arc<Mutex<Vec<String>>>;

/// Most messages a sink takes from sampling before it stops adding (a shader spraying
/// random handles must not grow memory without bound).
pub const MAX_DEBUG_MESSAGES: usize = 256;

/// What a draw's texture lookups see: the descriptor table and the resident set the draw
/// captured. `ShaderEnv::sampler` points at one.
#[derive(Debug, Default, Clone)]
pub struct SampleContext {
    pub table: Arc<DescriptorTable>,
    pub resident: Arc<ResidentSet>,
    pub debug: DebugSink,
    /// The draw's images (`storage_image`): empty unless its program uses images.
    pub images: Arc<storage_image::ImageSet>,
}

impl SampleContext {
    pub fn new(table: Arc<DescriptorTable>, resident: Arc<ResidentSet>, debug: DebugSink) -> Self {
        SampleContext {
            table,
            resident,
            debug,
            images: Arc::default(),
        }
    }

    /// Pushes `msg` unless the sink already holds it (one message per draw and handle:
    /// each draw has its own context) or is full.
    fn report(&self, msg: String) {
        let mut sink = self.debug.lock().unwrap_or_else(|e| e.into_inner());
        if sink.len() < MAX_DEBUG_MESSAGES && !sink.contains(&msg) {
            sink.push(msg);
        }
    }

    /// The descriptor `handle` names, if valid and (unless internal) resident; reports a
    /// miss. The caller is pinned (see `DescriptorTable::lookup`). Inlined into the quad
    /// path, with the reporting out of line: a hit is a lookup and one flag.
    #[inline(always)]
    fn resolve(&self, handle: TextureHandle) -> Option<&Descriptor> {
        match self.table.lookup(handle) {
            Some(d) if d.is_internal() || self.resident.contains(handle) => Some(d),
            found => {
                self.report_miss(handle, found.is_some());
                None
            }
        }
    }

    /// The debug message of a handle `resolve` refused: not valid, or valid but not
    /// resident.
    #[cold]
    #[inline(never)]
    fn report_miss(&self, handle: TextureHandle, valid: bool) {
        if valid {
            self.report(format!(
                "texture handle {handle} is not resident; the lookup returns zeros"
            ));
        } else {
            self.report(format!(
                "texture handle {handle} is not a valid handle (never created, or \
                 its texture or sampler was deleted); the lookup returns zeros"
            ));
        }
    }
}

/// Proof that the calling thread is pinned against descriptor reclamation; unpins on drop.
pub(crate) use epoch::Guard as PinGuard;

/// Pins the calling thread for a span of texture instructions (the rasterizer holds one per
/// tile), so each `sample` inside it only nests the pin instead of publishing a new epoch
/// (a SeqCst store per request showed in trilinear profiles). Removed descriptors are then
/// freed after the span rather than after each request: a tile is short, and the API thread
/// never waits for reclamation while tiles run (it flushes before it removes). `None` while
/// the thread is being torn down; each `sample` then pins (or refuses) on its own.
pub(crate) fn pin_span() -> Option<PinGuard> {
    epoch::pin()
}

/// What `ShaderEnv::sampler` holds for code that runs inside a pin span: `ctx`'s address
/// with bit 0 set, which tells `rt_texture` that the calling thread is already pinned for
/// as long as the pointer is in use (the borrow of `_pin`), so it skips the thread-local
/// pin of each request (the TLS access and the depth count were ~40 instructions per
/// texture call in the trilinear profile). A `SampleContext` is aligned to 8, so bit 0 of
/// its address is free.
pub(crate) fn pinned_context_ptr(ctx: &SampleContext, _pin: &PinGuard) -> *const u8 {
    ((ctx as *const SampleContext as usize) | PINNED_TAG) as *const u8
}

/// Bit 0 of a context pointer handed to `rt_texture`: the caller holds a pin.
const PINNED_TAG: usize = 1;
const _: () = assert!(std::mem::align_of::<SampleContext>() > PINNED_TAG);

/// Performs one texture instruction for 4 lanes. Each active lane uses its own handle;
/// lanes whose handle is invalid or not resident (unless internal) get zeros, and the
/// context's debug sink gets one message per handle. Never panics, never reads outside a
/// texture.
pub fn sample(ctx: &SampleContext, req: &TexRequest) -> TexResult {
    let mut out: TexResult = [[0; 4]; 4];
    sample_into(ctx, req, &mut out, false);
    out
}

/// `sample` into `out`, which it zeroes first (inactive lanes and misses read zeros).
/// `rt_texture` calls it on generated code's result slot: no result copied through the
/// stack, no op lookup and no grouping for the usual request.
#[inline(always)]
/// `pinned`: the calling thread already holds a pin (`pinned_context_ptr`) for the whole
/// call, so no pin is taken here.
fn sample_into(ctx: &SampleContext, req: &TexRequest, out: &mut TexResult, pinned: bool) {
    *out = [[0; 4]; 4];
    // The usual request, a filtered sample of a whole quad through one handle: one lookup
    // and the descriptor's routine (issue #9 item 4). `with_pinned` is inside the check,
    // so the op is known here without `TexOp::from_u32`.
    let lo = &req.handle_lo;
    let hi = &req.handle_hi;
    if req.op <= TexOp::SampleLod as u32
        && req.mask & 0xF == 0xF
        && (lo[0] ^ lo[1]) | (lo[0] ^ lo[2]) | (lo[0] ^ lo[3]) == 0
        && (hi[0] ^ hi[1]) | (hi[0] ^ hi[2]) | (hi[0] ^ hi[3]) == 0
    {
        let handle = TextureHandle::from_bits((hi[0] as u64) << 32 | lo[0] as u64);
        // Pinned for the whole instruction: the descriptor stays valid until then.
        if pinned {
            sample_one_handle(ctx, handle, req, out);
        } else {
            epoch::with_pinned(|| sample_one_handle(ctx, handle, req, out));
        }
        return;
    }
    let Some(op) = TexOp::from_u32(req.op) else {
        return;
    };
    if op == TexOp::Image {
        // Image views live in the draw's set, not in the descriptor table: no pinning.
        storage_image::access(&ctx.images, req, out);
        return;
    }
    // Pinned for the whole instruction: the descriptors we look up stay valid until then.
    if pinned {
        sample_pinned(ctx, req, op, out);
    } else {
        epoch::with_pinned(|| sample_pinned(ctx, req, op, out));
    }
}

/// The usual request once pinned: all four lanes through `handle`. A plain function,
/// always inlined: as a closure shared by the pinned and unpinned calls it stayed an
/// out-of-line call in every texture request.
#[inline(always)]
fn sample_one_handle(
    ctx: &SampleContext,
    handle: TextureHandle,
    req: &TexRequest,
    out: &mut TexResult,
) {
    if let Some(d) = ctx.resolve(handle) {
        (d.sample)(d, req, 0xF, out);
        d.apply_swizzle(0xF, out);
    }
}

/// `sample` once pinned.
// Lanes index the inner dimension of `out` (`out[component][lane]`), so a range loop is
// the clear form here.
#[allow(clippy::needless_range_loop)]
fn sample_pinned(ctx: &SampleContext, req: &TexRequest, op: TexOp, out: &mut TexResult) {
    let handle_of = |lane: usize| {
        TextureHandle::from_bits((req.handle_hi[lane] as u64) << 32 | req.handle_lo[lane] as u64)
    };
    // Lanes sharing a handle (the usual case: all four) are looked up and filtered as one
    // group, so the handle checks and the quad's LOD happen once.
    let mut pending = req.mask & 0xF;
    while pending != 0 {
        let first = pending.trailing_zeros() as usize;
        let handle = handle_of(first);
        let mut group = 0u32;
        for lane in first..4 {
            if pending & (1 << lane) != 0 && handle_of(lane) == handle {
                group |= 1 << lane;
            }
        }
        pending &= !group;
        let Some(d) = ctx.resolve(handle) else {
            continue;
        };
        match op {
            // Answered by `storage_image::access` before any descriptor lookup.
            TexOp::Image => {}
            TexOp::SampleImplicit | TexOp::SampleLod => {
                (d.sample)(d, req, group, out);
                d.apply_swizzle(group, out);
            }
            TexOp::Gather => {
                filter::gather(d, req, group, out);
                // Gather reads one component after the swizzle (GL 4.5 core §8.14.2):
                // the swizzled component `lod` names, which `gather` already picked.
            }
            TexOp::QueryLod => filter::query_lod(d, req, group, out),
            TexOp::Fetch => {
                for lane in (0..4).filter(|l| group & (1 << l) != 0) {
                    let x = (req.coord[0][lane] as i32).wrapping_add(req.offset[0]);
                    let y = (req.coord[1][lane] as i32).wrapping_add(req.offset[1]);
                    // The layer of a 2D array or the slice of a 3D texture (0 for other
                    // textures): out of range fetches zeros, like every other
                    // out-of-range texelFetch here.
                    let z = req.layer[lane] as i32;
                    let layered;
                    let dl = if d.kind == TexKind::D3 {
                        match d.at_slice(z, req.lod[lane] as i32) {
                            Some(s) => {
                                layered = s;
                                &layered
                            }
                            None => continue,
                        }
                    } else if z < 0 || z as u32 >= d.layers {
                        continue;
                    } else if d.layers > 1 {
                        layered = d.at_layer(z as u32);
                        &layered
                    } else {
                        d
                    };
                    let v = (dl.fetch)(dl, x, y, req.lod[lane] as i32);
                    for c in 0..4 {
                        out[c][lane] = v[c].to_bits();
                    }
                    d.apply_swizzle(1 << lane, out);
                }
            }
            TexOp::Size => {
                for lane in (0..4).filter(|l| group & (1 << l) != 0) {
                    let s = (d.size)(d, req.lod[lane] as i32);
                    out[0][lane] = s[0] as u32;
                    out[1][lane] = s[1] as u32;
                    // Layers do not shrink with the level (GL 4.5 core §8.14.4); a 3D
                    // texture's depth does (eq. 8.12).
                    out[2][lane] = if s[0] == 0 {
                        0
                    } else if d.kind == TexKind::D3 {
                        d.depth_at(req.lod[lane] as i32)
                    } else if d.kind == TexKind::CubeArray {
                        d.layers / 6
                    } else {
                        d.layers
                    };
                    // textureSamples: a multisample texture's "levels" are its samples;
                    // textureQueryLevels: the levels base..=q of any other (GLSL 4.60
                    // §8.9.1), 0 when incomplete (no base level image).
                    let base = d.levels[(d.base_level as usize).min(MAX_LEVELS - 1)];
                    out[3][lane] = if d.kind.is_multisample() {
                        d.fetch_last + 1
                    } else if base.ptr.is_null() {
                        0
                    } else {
                        d.fetch_last.saturating_sub(d.base_level) + 1
                    };
                }
            }
        }
    }
}

/// The texture helper generated code calls (see `request::RtTextureFn`). Null pointers
/// are tolerated: a null `ctx` or `req` writes zeros, a null `out` writes nothing.
///
/// # Safety
/// `ctx` is null or points to a live `SampleContext`, possibly tagged by
/// `pinned_context_ptr` (then the calling thread holds a pin for the whole call), `req` is
/// null or points to a `TexRequest`, `out` is null or points to a writable `TexResult`.
pub unsafe extern "C" fn rt_texture(ctx: *const u8, req: *const TexRequest, out: *mut TexResult) {
    if out.is_null() {
        return;
    }
    // SAFETY: non-null, and the caller's contract above says it is writable (a `TexResult`
    // of plain integers: any bits are a valid one, so a reference to it is sound).
    let out = unsafe { &mut *out };
    if ctx.is_null() || req.is_null() {
        *out = [[0; 4]; 4];
        return;
    }
    let pinned = ctx as usize & PINNED_TAG != 0;
    let ctx = (ctx as usize & !PINNED_TAG) as *const SampleContext;
    // SAFETY: non-null (the tag is not an address: a tagged pointer is a context's address
    // plus one), and the caller's contract above says they are valid.
    let (ctx, req) = unsafe { (&*ctx, &*req) };
    sample_into(ctx, req, out, pinned);
}

// Generated code calls `rt_texture` through this exact type (jit::abi).
const _: crate::sampler::request::RtTextureFn = rt_texture;

#[cfg(test)]
mod tests;
