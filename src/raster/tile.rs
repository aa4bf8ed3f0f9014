//! Tile execution: one worker runs one tile's commands in API order (clears, triangles).
//! A triangle's blocks are classified hierarchically (16×16 blocks → 4×4 blocks: outside,
//! wholly inside or partly inside its edges); the draw's fragment variant tests the pixels
//! of a partly covered block itself (`FragBlock::edges`; `edge_mask` is the Rust rule, used
//! where the quad path takes a block), then runs the covered pixels (`jit::fragment`: early depth, the
//! shader, late depth, blending, the colour mask and the stores in one generated function;
//! helper lanes outside the triangle run the shader for derivatives but never write): a
//! span of up to four 4×4 blocks (the covered blocks of one row of a 16×16 block) per call
//! through its block entry when the span lies inside every image (base texel pointers and
//! row strides; the variant interpolates z, the inputs and the builtins the shader reads
//! from the triangle's planes itself, after early depth), else block by block the same
//! way, else
//! quad by quad with texel pointers per lane and inputs interpolated here
//! (`interpolate_quad`, the reference the block entry is tested against). Shader code that
//! is not JIT code (the interpreter tests swap in) runs the same steps here in Rust through
//! the reference operations of `ops.rs`.

use smallvec::SmallVec;

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::draw::ClearCall;
use super::draw::{StencilFace, StencilState};
use super::fixed::Edge;
use super::ops::{self, DepthTest, PreparedBlend};
use super::scene::{BinnedDraw, Command, Scene};
use super::setup::{self, Plane, Triangle};
use crate::ir::{Builtin, Interpolation};
use crate::jit::abi::{
    BlockEdge, FragBlock, FragEnv, FragQuad, Invocation, SplatPlane, MAX_COLOR_ATTACHMENTS,
    SPLAT_FIRST_VARYING, SPLAT_W, SPLAT_Z,
};
use crate::jit::fragment::{
    self, BlendKey, ColorKey, DepthFormat, DepthKey, FragmentKey, FragmentVariant, StencilFaceKey,
    StencilKey, VaryingKey,
};
use crate::jit::{self, BoundEnv};
use crate::sampler::{Format, TileWriter};

/// Builtin words of one quad.
const BUILTIN_WORDS: usize = Builtin::COUNT * 4;

/// Per-worker buffers, reused for every quad (no allocation per quad).
pub struct TileScratch {
    /// Input words of 4 quads (a block), quad q at `q * in_len`.
    inputs: Vec<u32>,
    /// Input words of one quad (4 lanes).
    in_len: usize,
    outputs: Vec<u32>,
    /// Builtin rows of 4 quads, quad q at `q * BUILTIN_WORDS`.
    builtins: [u32; BUILTIN_WORDS * 4],
    /// The quad handed to fragment variants' quad entry.
    quad: FragQuad,
    /// The block handed to their block entry.
    block: FragBlock,
    /// Where texel pointers of lanes outside an image point (16 bytes: the largest texel);
    /// what a variant writes there is never read.
    dummy: [u32; 4],
    /// The current triangle's planes as the block entry reads them (`FragBlock::planes`):
    /// z, 1/w, then its varyings'.
    splat: Vec<SplatPlane>,
}

impl Default for TileScratch {
    fn default() -> Self {
        TileScratch {
            inputs: Vec::new(),
            in_len: 0,
            outputs: Vec::new(),
            builtins: [0; BUILTIN_WORDS * 4],
            quad: FragQuad {
                inv: Invocation {
                    inputs: std::ptr::null(),
                    outputs: std::ptr::null_mut(),
                    builtins: std::ptr::null(),
                    mask: 0xF,
                },
                cover: 0,
                front: 0,
                _pad: [0; 2],
                z: [0.0; 4],
                depth: [std::ptr::null_mut(); 4],
                color: [[std::ptr::null_mut(); 4]; MAX_COLOR_ATTACHMENTS],
            },
            block: FragBlock {
                inv: Invocation {
                    inputs: std::ptr::null(),
                    outputs: std::ptr::null_mut(),
                    builtins: std::ptr::null(),
                    mask: 0xF,
                },
                cover: 0,
                front: 0,
                dx: 0,
                dy: 0,
                x: 0,
                y: 0,
                planes: std::ptr::null(),
                inputs: std::ptr::null_mut(),
                input_stride: 0,
                builtins: std::ptr::null_mut(),
                builtin_stride: 0,
                depth: std::ptr::null_mut(),
                depth_stride: 0,
                color: [std::ptr::null_mut(); MAX_COLOR_ATTACHMENTS],
                color_stride: [0; MAX_COLOR_ATTACHMENTS],
                edge_test: 0,
                _pad: 0,
                edges: [BlockEdge::default(); 3],
            },
            dummy: [0; 4],
            splat: Vec::new(),
        }
    }
}

// SAFETY: the raw pointers in `quad` and `block` are only dereferenced during a variant call made by
// the worker that owns this scratch, after being set for that call; between calls they
// are dead values.
unsafe impl Send for TileScratch {}

/// One colour output of a draw in a tile: the image's writer, the shader output slot that
/// feeds it, the prepared blend (when blending is on) and the draw buffer's colour mask.
type ColorOut<'a> = (TileWriter<'a>, u32, Option<PreparedBlend>, [bool; 4]);

/// What one draw needs in a tile, derived once per (tile, draw).
struct DrawCtx<'a> {
    d: &'a BinnedDraw,
    env: BoundEnv<'a>,
    /// The depth/stencil image, when the depth or the stencil test applies.
    zs: Option<TileWriter<'a>>,
    /// The depth test, when it is on and there is a depth buffer (GL 4.5 core §17.3.5: with
    /// no depth buffer the test always passes).
    depth: Option<DepthTest>,
    /// The stencil test, when it is on and there is a stencil buffer (in `zs`; without one
    /// it always passes and nothing is modified).
    stencil: Option<StencilState>,
    /// Colour images with the shader output slot that feeds them, the blend state prepared
    /// for the image's format when blending is on, and the draw buffer's colour mask.
    colors: SmallVec<[ColorOut<'a>; 4]>,
    /// How pixel (x, y) maps to gl_FragCoord.xy under this draw's layout qualifiers.
    frag_coord: FragCoordMap,
    /// The draw's fragment variant, when the shader is JIT code (and it compiled).
    variant: Option<Arc<FragmentVariant>>,
    /// The variant's per-draw constants (the shader env, blend colours).
    fenv: FragEnv,
    /// Output row of gl_FragDepth, when the shader writes it inside its output rows (the
    /// reference reads the interpolated z otherwise).
    frag_depth_row: Option<u32>,
    /// GL_FRAMEBUFFER_SRGB and the logic op (`ops::color_and_pack`).
    color_ops: ops::ColorOps,
    /// Output row of the shader's index-1 colour when `colors[0]` is draw buffer 0, which
    /// its SRC1_* blend factors read (dual-source blending).
    src1_slot: Option<u32>,
    /// Planes per triangle the variant's block entry reads (`FragBlock::planes`).
    planes_per_tri: usize,
    /// Where the block entry's texel pointers start in this tile (`block_ptrs`).
    blocks: BlockGeom,
    /// The occlusion query counter of the draw (`DrawCall::samples`), when one is active.
    samples: Option<&'a AtomicU64>,
    /// Samples that passed in this tile so far, added to `samples` once when the context
    /// drops: a sum of per-tile integers, so the total does not depend on the thread count.
    passed: Cell<u64>,
}

impl DrawCtx<'_> {
    /// Counts `n` samples that passed (depth test and discard) when a query counts them.
    #[inline]
    fn count_passed(&self, n: u32) {
        if self.samples.is_some() {
            self.passed.set(self.passed.get() + u64::from(n));
        }
    }
}

impl Drop for DrawCtx<'_> {
    fn drop(&mut self) {
        if let Some(c) = self.samples {
            c.fetch_add(self.passed.get(), Ordering::Relaxed);
        }
    }
}

/// gl_FragCoord.xy of pixel (x, y) (y counted up from the bottom row) is
/// `(x + x_bias, y * y_sign + y_bias)`. Decided once per draw, so filling the builtins costs
/// one multiply-add per lane whichever layout the shader chose. Every term is an integer or
/// a half-integer below 2^24, so the values are exact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FragCoordMap {
    x_bias: f32,
    y_sign: f32,
    y_bias: f32,
}

impl FragCoordMap {
    /// GLSL 1.50 §4.3.8.1: by default the origin is the lower left and pixel centres are
    /// half-integers; `origin_upper_left` counts y down from the top of the framebuffer
    /// (`height - y` in window coordinates), `pixel_center_integer` moves centres to integers.
    pub(crate) fn new(
        origin_upper_left: bool,
        pixel_center_integer: bool,
        height_px: u32,
    ) -> FragCoordMap {
        let centre = if pixel_center_integer { 0.0 } else { 0.5 };
        if origin_upper_left {
            // Row y's centre sits at window y + 0.5; height - (y + 0.5), shifted by
            // -0.5 when centres are integers: -y + height - 1 + centre.
            FragCoordMap {
                x_bias: centre,
                y_sign: -1.0,
                y_bias: height_px as f32 - 1.0 + centre,
            }
        } else {
            FragCoordMap {
                x_bias: centre,
                y_sign: 1.0,
                y_bias: centre,
            }
        }
    }

    fn x(self, x: i32) -> f32 {
        x as f32 + self.x_bias
    }

    /// The map as `FragEnv::frag_coord` holds it.
    pub(crate) fn to_env(self) -> [f32; 4] {
        [self.x_bias, self.y_sign, self.y_bias, 0.0]
    }

    fn y(self, y: i32) -> f32 {
        y as f32 * self.y_sign + self.y_bias
    }
}

/// The image a draw's depth/stencil writer covers (`DrawShared::zs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ZsImage {
    /// `RenderTarget::depth` (also the stencil image when both tests run).
    Depth,
    /// `RenderTarget::stencil`, when only the stencil test runs.
    Stencil,
}

/// One colour output of a draw: the attachment index, the shader output slot that feeds
/// it, the prepared blend (when blending is on) and the draw buffer's colour mask.
type ColorShared = (usize, u32, Option<PreparedBlend>, [bool; 4]);

/// What every tile of a draw derives alike: the tests, the colour outputs, the fragment
/// variant (its key and the cache lookup) and the variant's per-draw constants. Derived once
/// per draw, by the first tile that runs it (`BinnedDraw::shared`), instead of once per tile
/// and draw; each tile only adds its image writers and the shader env (`DrawCtx::new`).
#[derive(Debug)]
pub struct DrawShared {
    depth: Option<DepthTest>,
    stencil: Option<StencilState>,
    zs: Option<ZsImage>,
    colors: SmallVec<[ColorShared; 4]>,
    frag_coord: FragCoordMap,
    frag_depth_row: Option<u32>,
    /// GL_FRAMEBUFFER_SRGB and the logic op (`ops::color_and_pack`).
    color_ops: ops::ColorOps,
    /// `FragEnv`'s per-draw words (its `shader_env` is per tile).
    blend_color: [[f32; 4]; MAX_COLOR_ATTACHMENTS],
    blend_color_unorm8: [[u32; 4]; MAX_COLOR_ATTACHMENTS],
    stencil_env: [[u32; 4]; 2],
    variant: Option<Arc<FragmentVariant>>,
}

impl DrawShared {
    fn new(d: &BinnedDraw) -> DrawShared {
        let call = &d.call;
        let st = &call.state;
        let images = d.images();
        let depth_img = images.depth.filter(|i| i.format().is_depth());
        let depth = match (depth_img, st.depth_func) {
            (Some(img), Some(func)) => Some(DepthTest {
                format: img.format(),
                func,
                write: st.depth_mask,
            }),
            _ => None,
        };
        // Stencil lives in a D24S8 image's top byte; completeness makes it the depth image
        // when both exist (a different one is ignored rather than tested half-way).
        let stencil_img = images
            .stencil
            .filter(|i| i.format() == Format::Depth24Stencil8)
            .filter(|i| depth.is_none() || depth_img.is_some_and(|d| Arc::ptr_eq(d, i)));
        let stencil = st.stencil.filter(|_| stencil_img.is_some());
        let zs = match (depth, stencil) {
            (Some(_), _) => Some(ZsImage::Depth),
            (None, Some(_)) => Some(ZsImage::Stencil),
            (None, None) => None,
        };
        let mut colors: SmallVec<[ColorShared; 4]> = SmallVec::new();
        let mut formats: SmallVec<[Format; 4]> = SmallVec::new();
        for (i, img) in images.colors.iter().enumerate() {
            let slot = call.program.color_slots.get(i).copied().flatten();
            let (blend_state, mask) = st.buffer(i);
            if let (Some(img), Some(slot), true) = (img, slot, mask.iter().any(|&m| m)) {
                if !img.format().is_depth() {
                    let unorm = ops::is_unorm(img.format());
                    // Integer buffers never blend (GL 4.5 core §17.3.6), and no buffer
                    // does under a logic op (§17.3.11).
                    let blend = (blend_state.enabled
                        && !img.format().is_integer()
                        && st.color_ops.logic_op.is_none())
                    .then(|| PreparedBlend::new(blend_state, unorm));
                    colors.push((i, slot, blend, mask));
                    formats.push(img.format());
                }
            }
        }
        let prog = &call.program;
        let out_rows = prog.fs_output_words.max(prog.fs.output_words());
        let frag_depth_row = prog.frag_depth_slot.filter(|&r| r < out_rows);
        let frag_coord = FragCoordMap::new(
            prog.frag_coord_origin_upper_left,
            prog.frag_coord_pixel_center_integer,
            call.target.height,
        );
        let mut blend_color = [[0.0; 4]; MAX_COLOR_ATTACHMENTS];
        let mut blend_color_unorm8 = [[0; 4]; MAX_COLOR_ATTACHMENTS];
        for (i, (_, _, blend, _)) in colors.iter().enumerate().take(MAX_COLOR_ATTACHMENTS) {
            if let Some(b) = blend {
                blend_color[i] = b.constant();
                blend_color_unorm8[i] = b.constant_unorm8();
            }
        }
        let stencil_env = match &stencil {
            Some(st) => [stencil_env(&st.front), stencil_env(&st.back)],
            None => [[0; 4]; 2],
        };
        let variant = fragment::shader_id(&*prog.fs)
            .filter(|_| colors.len() <= MAX_COLOR_ATTACHMENTS)
            .map(|shader| FragmentKey {
                shader,
                early_depth: d.early_depth,
                depth: depth.map(|d| DepthKey {
                    format: if d.format == Format::Depth24Stencil8 {
                        DepthFormat::D24S8
                    } else {
                        DepthFormat::D32F
                    },
                    func: d.func,
                    write: d.write,
                }),
                stencil: stencil.as_ref().map(stencil_key),
                frag_depth_row: if d.early_depth { None } else { frag_depth_row },
                colors: colors
                    .iter()
                    .zip(&formats)
                    .enumerate()
                    .map(|(i, ((buffer, slot, blend, mask), format))| ColorKey {
                        format: *format,
                        slot: *slot,
                        mask: *mask,
                        blend: blend.map(|b| {
                            let (src, dst, eq) = b.indices();
                            BlendKey { src, dst, eq }
                        }),
                        index: i as u8,
                        srgb: st.color_ops.framebuffer_srgb && *format == Format::Srgb8Alpha8,
                        logic_op: st
                            .color_ops
                            .logic_op
                            .filter(|_| format.is_integer() || ops::is_unorm(*format)),
                        // Draw buffer 0's SRC1_* factors read the index-1 colour; without
                        // them the key is the one of a draw without dual-source blending.
                        src1_slot: blend
                            .filter(|b| *buffer == 0 && b.uses_src1())
                            .and(prog.src1_slot),
                    })
                    .collect(),
                // `interpolate_quad`'s rows: those inside the inputs buffer (`run_tile`
                // sizes it to `input_words`).
                varyings: prog
                    .varyings
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| l.fs_slot < input_words(d))
                    .map(|(k, l)| VaryingKey {
                        plane: k as u32,
                        row: l.fs_slot,
                        interp: l.interpolation,
                    })
                    .collect(),
                builtins: prog.fs.builtins_read(),
            })
            // A variant that fails to compile (a softgl bug: the generator takes every key
            // built here) leaves the draw on the reference path, which renders the same
            // pixels.
            .and_then(|key| fragment::variant(&prog.fs, &key).ok());
        DrawShared {
            depth,
            stencil,
            zs,
            colors,
            frag_coord,
            frag_depth_row,
            color_ops: st.color_ops,
            blend_color,
            blend_color_unorm8,
            stencil_env,
            variant,
        }
    }
}

impl<'a> DrawCtx<'a> {
    /// `rect` is the tile, which the draw's target images are written in through
    /// `TileWriter`s; the rest comes from the draw's `DrawShared`, derived on first use.
    ///
    /// # Safety
    /// `run_tile`'s: no other thread touches the pixels of `rect` in the draw's targets
    /// while the context lives.
    /// `pin`: the tile's pin span, when it has one (texture lookups then skip their own).
    unsafe fn new(
        d: &'a BinnedDraw,
        rect: [i32; 4],
        pin: Option<&'a crate::sampler::PinGuard>,
    ) -> DrawCtx<'a> {
        let sh = d.shared.get_or_init(|| DrawShared::new(d));
        let call = &d.call;
        let images = d.images();
        let zs = match sh.zs {
            Some(ZsImage::Depth) => images.depth,
            Some(ZsImage::Stencil) => images.stencil,
            None => None,
        }
        // SAFETY: the caller's contract (`run_tile`'s): no other thread touches this tile.
        .map(|img| unsafe { img.tile_writer(rect) });
        let colors: SmallVec<[ColorOut<'_>; 4]> = sh
            .colors
            .iter()
            .filter_map(|&(i, slot, blend, mask)| {
                let img = images.colors.get(i)?.as_ref()?;
                // SAFETY: the caller's contract: no other thread touches this tile.
                Some((unsafe { img.tile_writer(rect) }, slot, blend, mask))
            })
            .collect();
        let blocks = BlockGeom::new(zs.as_ref(), &colors);
        let env = match pin {
            Some(pin) => BoundEnv::new_pinned(&call.fs_data, &call.sampler, pin),
            None => BoundEnv::new(&call.fs_data, &call.sampler),
        };
        let fenv = FragEnv {
            shader_env: env.as_ptr(),
            blend_color: sh.blend_color,
            blend_color_unorm8: sh.blend_color_unorm8,
            frag_coord: sh.frag_coord.to_env(),
            stencil: sh.stencil_env,
        };
        DrawCtx {
            d,
            env,
            zs,
            depth: sh.depth,
            stencil: sh.stencil,
            colors,
            frag_coord: sh.frag_coord,
            variant: sh.variant.clone(),
            fenv,
            frag_depth_row: sh.frag_depth_row,
            color_ops: sh.color_ops,
            src1_slot: sh
                .colors
                .first()
                .filter(|c| c.0 == 0)
                .and(call.program.src1_slot),
            planes_per_tri: call.program.varyings.len(),
            blocks,
            samples: call.samples.as_deref(),
            passed: Cell::new(0),
        }
    }

    /// Output words per lane the scratch must hold for this draw.
    fn output_rows(&self) -> u32 {
        let prog = &self.d.call.program;
        let rows = prog.fs_output_words.max(prog.fs.output_words());
        self.variant
            .as_ref()
            .map_or(rows, |v| v.output_rows().max(rows))
    }
}

/// What of a draw's stencil state changes a fragment variant's code: the functions and
/// operations per face (the reference and masks are `FragEnv::stencil`, `stencil_env`).
pub(crate) fn stencil_key(s: &StencilState) -> StencilKey {
    let face = |f: &StencilFace| StencilFaceKey {
        func: f.func,
        sfail: f.sfail,
        dpfail: f.dpfail,
        dppass: f.dppass,
    };
    StencilKey {
        front: face(&s.front),
        back: face(&s.back),
    }
}

/// One face's `FragEnv::stencil` row: `[reference & value_mask, value_mask, write_mask,
/// reference]`.
pub(crate) fn stencil_env(f: &StencilFace) -> [u32; 4] {
    [
        u32::from(f.reference & f.value_mask),
        u32::from(f.value_mask),
        u32::from(f.write_mask),
        u32::from(f.reference),
    ]
}

/// Input words per lane of the draw's fragment shader: what the program links and what the
/// code reads, whichever is more.
fn input_words(d: &BinnedDraw) -> u32 {
    let prog = &d.call.program;
    prog.fs_input_words.max(prog.fs.input_words())
}

/// Runs the commands of tile `t`.
///
/// # Safety
/// While this runs, no other thread may read or write the pixels of tile `t` in any target
/// image of the scene's commands (the flush runs each tile on exactly one worker, and the
/// API thread waits for the flush: DESIGN.md §5, the `Image` protocol). Every texel access
/// below relies on this; the functions that make them are private to this file and only
/// reachable from here.
pub unsafe fn run_tile(scene: &Scene, t: usize, scratch: &mut TileScratch) {
    let rect = scene.tile_rect(t);
    // One epoch pin for the whole tile: the texture lookups below nest inside it.
    let pin = crate::sampler::pin_span();
    let mut cur: Option<(u32, DrawCtx<'_>)> = None;
    let bin = &scene.bins[t];
    for (i, cmd) in bin.iter().enumerate() {
        prefetch_triangle(scene, bin.get(i + PREFETCH_AHEAD));
        match *cmd {
            // SAFETY: this function's contract.
            Command::Clear(i) => unsafe { clear_tile(&scene.clears[i as usize], rect) },
            Command::Tri { draw, tri } => {
                if cur.as_ref().map(|c| c.0) != Some(draw) {
                    let d = &*scene.draws[draw as usize];
                    let prog = &d.call.program;
                    // SAFETY: this function's contract, for the whole loop over the bin.
                    let ctx = unsafe { DrawCtx::new(d, rect, pin.as_ref()) };
                    let in_words = input_words(d) as usize;
                    let out_words = ctx.output_rows() as usize;
                    // Fresh zeros: rows the shader never writes read as 0.0 all draw long.
                    // Room for the 4 quads of a block.
                    scratch.in_len = in_words * 4;
                    scratch.inputs.clear();
                    scratch.inputs.resize(scratch.in_len * 4, 0);
                    scratch.outputs.clear();
                    scratch.outputs.resize(out_words * 4, 0);
                    // The size check `jit::run` made per quad, once per draw: every quad
                    // below runs with these buffers.
                    assert!(
                        jit::buffers_fit(&*prog.fs, scratch.in_len, scratch.outputs.len()),
                        "fragment buffers sized from the program"
                    );
                    cur = Some((draw, ctx));
                }
                if let Some((_, ctx)) = &cur {
                    raster_triangle(ctx, &ctx.d.tris[tri as usize], rect, scratch);
                }
            }
        }
    }
}

/// How many bin entries ahead of the one being drawn `run_tile` prefetches the triangle
/// of. With 200k small triangles, 27% of the time was the first load of each entry's
/// 128-byte `Triangle` (scattered over the draw's list, never in cache); one small
/// triangle takes longer to draw than a memory round trip, so a few entries ahead suffice.
const PREFETCH_AHEAD: usize = 4;

/// Asks the CPU to start loading the triangle `cmd` names (every cache line of it); a hint
/// only, with no effect on results.
#[inline(always)]
fn prefetch_triangle(scene: &Scene, cmd: Option<&Command>) {
    #[cfg(target_arch = "x86_64")]
    if let Some(&Command::Tri { draw, tri }) = cmd {
        if let Some(t) = scene
            .draws
            .get(draw as usize)
            .and_then(|d| d.tris.get(tri as usize))
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = (t as *const Triangle).cast::<i8>();
            let last = std::mem::size_of::<Triangle>() - 1;
            // SAFETY: SSE is baseline on x86-64, and a prefetch is a hint that never faults
            // and reads nothing into the program; the addresses are `t`'s first and last
            // bytes and one between.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(p);
                _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64.min(last)));
                _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(last));
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (scene, cmd);
}

/// Pixel bits of the inclusive rect `r` within the 4×4 block at (x, y): bit `j * 4 + i` is
/// pixel (x + i, y + j).
fn rect_mask(x: i32, y: i32, r: [i32; 4]) -> u16 {
    if r == [x, y, x + 3, y + 3] {
        return 0xFFFF;
    }
    // Columns and rows of the block inside `r`, as 4-bit masks (empty when lo > hi).
    let span = |lo: i32, hi: i32| -> u16 {
        let (lo, hi) = (lo.max(0), hi.min(3));
        if lo > hi {
            0
        } else {
            (0xF >> (3 - hi)) & (0xF << lo)
        }
    };
    let cols = span(r[0] - x, r[2] - x);
    let rows = span(r[1] - y, r[3] - y);
    // Row j of the block is bits 4j..4j + 4.
    let mut m = 0u16;
    for j in 0..4 {
        if rows & (1 << j) != 0 {
            m |= cols << (j * 4);
        }
    }
    m
}

/// The pixels of the 4×4 block at (x, y) inside all three edges (bit `j * 4 + i` for pixel
/// (x + i, y + j)): each edge function >= 0 at the pixel's centre, exact in i64 (the fill
/// rule is folded into the edges' sign, `fixed::Edge`). The fragment block entry computes
/// the same mask from `FragBlock::edges` (`fragment_tests.rs` compares them).
pub(crate) fn edge_mask(edges: &[Edge; 3], x: i32, y: i32) -> u16 {
    let mut m = 0xFFFF;
    for e in edges {
        for j in 0..4 {
            let row = e.eval(x, y + j);
            for i in 0..4 {
                if row + e.a * (i as i64) < 0 {
                    m &= !(1 << (j * 4 + i));
                }
            }
        }
    }
    m
}

/// Rasterizes one triangle inside `tile`.
fn raster_triangle(ctx: &DrawCtx<'_>, tri: &Triangle, tile: [i32; 4], s: &mut TileScratch) {
    let r = setup::intersect(tri.bbox, tile);
    if r[0] > r[2] || r[1] > r[3] {
        return;
    }
    let classify = |b: [i32; 4]| -> Option<bool> {
        let mut full = true;
        for e in &tri.edges {
            if e.max_over(b[0], b[1], b[2], b[3]) < 0 {
                return None;
            }
            full &= e.min_over(b[0], b[1], b[2], b[3]) >= 0;
        }
        Some(full)
    };
    // The variant's block entry, with the triangle's part of its `FragBlock` set once.
    let block_entry = ctx
        .variant
        .as_deref()
        .filter(|_| block_triangle(ctx, tri, s));
    // 16×16 blocks aligned to the tile, from the one holding the rect's corner.
    let mut by = tile[1] + ((r[1] - tile[1]) & !15);
    while by <= r[3] {
        let mut bx = tile[0] + ((r[0] - tile[0]) & !15);
        while bx <= r[2] {
            let br = setup::intersect([bx, by, bx + 15, by + 15], r);
            bx += 16;
            if br[0] > br[2] || br[1] > br[3] {
                continue;
            }
            let Some(full16) = classify(br) else { continue };
            // Rows of 4×4 blocks: each row's covered blocks are one span.
            let mut sy = br[1] & !3;
            while sy <= br[3] {
                let mut span = Span::default();
                let mut sx = br[0] & !3;
                while sx <= br[2] {
                    let sr = setup::intersect([sx, sy, sx + 3, sy + 3], br);
                    let x4 = sx;
                    sx += 4;
                    if sr[0] > sr[2] || sr[1] > sr[3] {
                        continue;
                    }
                    let full4 = if full16 {
                        true
                    } else {
                        match classify(sr) {
                            None => continue,
                            Some(f) => f,
                        }
                    };
                    span.push(x4, rect_mask(x4, sy, sr), !full4);
                }
                if span.cover != 0 {
                    let drawn =
                        block_entry.is_some_and(|v| shade_span_variant(ctx, v, tri, sy, span, s));
                    if !drawn {
                        for (x4, m, partial) in span.blocks() {
                            shade_block(ctx, block_entry, tri, x4, sy, m, partial, s);
                        }
                    }
                }
                sy += 4;
            }
        }
        by += 16;
    }
}

/// The covered 4×4 blocks of one block row, left to right, as the block entry takes them
/// (`FragBlock::cover`, `edge_test`): block k starts 4k pixels right of `x`.
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    /// Pixel x of block 0 (meaningful once a block is pushed).
    x: i32,
    /// Block k's pixels in bits 16k.., as `rect_mask` gives them.
    cover: u64,
    /// Bit k: block k is partly inside the triangle.
    partial: u32,
}

impl Span {
    /// Adds the block at `x4` (4 pixels right of the previous one pushed, or further) with
    /// its pixels inside the rect `m`; a block with no pixel is left out.
    fn push(&mut self, x4: i32, m: u16, partial: bool) {
        if m == 0 {
            return;
        }
        if self.cover == 0 {
            self.x = x4;
        }
        let k = ((x4 - self.x) / 4) as u32;
        debug_assert!(k < 4, "a span is one 16-pixel row of blocks");
        self.cover |= u64::from(m) << (16 * k);
        self.partial |= u32::from(partial) << k;
    }

    /// The last block with a pixel, plus one.
    fn len(&self) -> u32 {
        (64 - self.cover.leading_zeros()).div_ceil(16)
    }

    /// (x, pixels, partly inside) of each block with a pixel.
    fn blocks(self) -> impl Iterator<Item = (i32, u16, bool)> {
        (0..self.len()).filter_map(move |k| {
            let m = (self.cover >> (16 * k)) as u16;
            (m != 0).then_some((self.x + 4 * k as i32, m, self.partial & (1 << k) != 0))
        })
    }
}

/// One 4×4 block at (x4, y4) with its pixels inside the rect `m` (`partial`: partly inside
/// the triangle): through the block entry (`block_entry`: the variant, once
/// `block_triangle` has set the triangle's part of `s.block`) when it lies inside every
/// image (the span entry declined the whole row), else quad by quad.
#[allow(clippy::too_many_arguments)]
fn shade_block(
    ctx: &DrawCtx<'_>,
    block_entry: Option<&FragmentVariant>,
    tri: &Triangle,
    x4: i32,
    y4: i32,
    m: u16,
    partial: bool,
    s: &mut TileScratch,
) {
    if let Some(v) = block_entry {
        let one = Span {
            x: x4,
            cover: u64::from(m),
            partial: u32::from(partial),
        };
        if shade_span_variant(ctx, v, tri, y4, one, s) {
            return;
        }
    }
    let mut m = m;
    if partial {
        m &= edge_mask(&tri.edges, x4, y4);
    }
    if m == 0 {
        return;
    }
    for q in 0..4 {
        let (qi, qj) = ((q & 1) * 2, (q >> 1) * 2);
        let bit = |i: i32, j: i32| ((m >> (j * 4 + i)) & 1) as u32;
        let lanes =
            bit(qi, qj) | bit(qi + 1, qj) << 1 | bit(qi, qj + 1) << 2 | bit(qi + 1, qj + 1) << 3;
        if lanes != 0 {
            shade_quad(ctx, tri, x4 + qi, y4 + qj, lanes, s);
        }
    }
}

/// Lane offsets of a quad (jit/abi.rs: lane 0 = (x, y), 1 = (x+1, y), 2 = (x, y+1), 3 = (x+1, y+1)).
const LANE_DX: [i32; 4] = [0, 1, 0, 1];
const LANE_DY: [i32; 4] = [0, 0, 1, 1];

/// Sets `out[l]` to the address of lane `l`'s pixel of the quad at (x, y) in `img`, or to
/// `dummy` outside the image; returns the lanes inside (bits 0..3).
///
/// The pointers come from the tile's writer, so they lie in this worker's tile; they are only
/// used by the variant call that follows.
#[inline]
fn texel_ptrs(img: &TileWriter<'_>, x: i32, y: i32, dummy: *mut u8, out: &mut [*mut u8; 4]) -> u32 {
    let mut inside = 0;
    for l in 0..4 {
        let p = img.texel_ptr(x + LANE_DX[l], y + LANE_DY[l]);
        if p.is_null() {
            out[l] = dummy;
        } else {
            out[l] = p;
            inside |= 1 << l;
        }
    }
    inside
}

/// The stencil and depth tests of one fragment with the stencil operations (GL 4.5 core
/// §17.3.5, `ops::depth_stencil`) on its texel of the draw's depth/stencil image; `front`:
/// the facing of its triangle. True when it passes (always, with neither test).
#[inline]
fn depth_stencil_test(ctx: &DrawCtx<'_>, front: bool, x: i32, y: i32, z: f32) -> bool {
    let Some(img) = &ctx.zs else {
        return true;
    };
    let face = ctx
        .stencil
        .as_ref()
        .map(|s| if front { &s.front } else { &s.back });
    img.update_word(x, y, |word| ops::depth_stencil(word, ctx.depth, face, z))
        .unwrap_or(false)
}

/// Shades one quad: through the draw's variant, or the reference path without one.
fn shade_quad(ctx: &DrawCtx<'_>, tri: &Triangle, x: i32, y: i32, cover: u32, s: &mut TileScratch) {
    match &ctx.variant {
        Some(v) => shade_quad_variant(ctx, v, tri, x, y, cover, s),
        None => shade_quad_reference(ctx, tri, x, y, cover, s),
    }
}

/// Interpolates the fragment inputs and fills the builtins of the quad at (x, y).
fn prepare_quad(
    ctx: &DrawCtx<'_>,
    tri: &Triangle,
    x: i32,
    y: i32,
    z: &[f32; 4],
    inputs: &mut [u32],
    builtins: &mut [u32],
) {
    let d = ctx.d;
    interpolate_quad(
        d.call
            .program
            .varyings
            .iter()
            .map(|l| (l.fs_slot, l.interpolation)),
        d.planes.get(tri.varyings as usize..).unwrap_or(&[]),
        QuadSite {
            x,
            y,
            origin: tri.origin,
            inv_w: tri.inv_w,
            front: tri.front,
            frag_coord: ctx.frag_coord,
        },
        z,
        inputs,
        builtins,
    );
}

/// Where a quad sits and what of its triangle `interpolate_quad` reads besides the planes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct QuadSite {
    /// The quad's pixel (lane 0) and the triangle's plane origin.
    pub x: i32,
    pub y: i32,
    pub origin: [i32; 2],
    pub inv_w: Plane,
    pub front: bool,
    pub frag_coord: FragCoordMap,
}

/// The reference interpolation of one quad (the fragment block entry does the same f32
/// operations in generated code, `fragment_tests.rs` compares them): input row `row` of
/// each `(row, interpolation)` from the triangle's plane of the same index in `planes`
/// (stopping at the first missing plane, skipping rows outside `inputs`), and every
/// fragment builtin row; `z` is the quad's interpolated window z.
pub(crate) fn interpolate_quad(
    varyings: impl IntoIterator<Item = (u32, Interpolation)>,
    planes: &[Plane],
    q: QuadSite,
    z: &[f32; 4],
    inputs: &mut [u32],
    builtins: &mut [u32],
) {
    let (x, y) = (q.x, q.y);
    let dx = LANE_DX.map(|o| (x + o - q.origin[0]) as f32);
    let dy = LANE_DY.map(|o| (y + o - q.origin[1]) as f32);
    let inv_w: [f32; 4] = std::array::from_fn(|l| q.inv_w.eval(dx[l], dy[l]));
    let w = inv_w.map(|v| 1.0 / v);
    for (k, (row, interpolation)) in varyings.into_iter().enumerate() {
        let Some(plane) = planes.get(k) else {
            break;
        };
        let base = row as usize * 4;
        let Some(dst) = inputs.get_mut(base..base + 4) else {
            continue;
        };
        match interpolation {
            Interpolation::Flat => dst.fill(plane.c.to_bits()),
            Interpolation::NoPerspective => {
                for l in 0..4 {
                    dst[l] = plane.eval(dx[l], dy[l]).to_bits();
                }
            }
            Interpolation::Smooth => {
                for l in 0..4 {
                    dst[l] = (plane.eval(dx[l], dy[l]) * w[l]).to_bits();
                }
            }
        }
    }
    let b = builtins;
    let fc = q.frag_coord;
    for l in 0..4 {
        b[Builtin::FragCoordX.index() * 4 + l] = fc.x(x + LANE_DX[l]).to_bits();
        b[Builtin::FragCoordY.index() * 4 + l] = fc.y(y + LANE_DY[l]).to_bits();
        b[Builtin::FragCoordZ.index() * 4 + l] = z[l].to_bits();
        b[Builtin::FragCoordW.index() * 4 + l] = inv_w[l].to_bits();
        b[Builtin::FrontFacing.index() * 4 + l] = if q.front { u32::MAX } else { 0 };
    }
}

/// Interpolated window z of the quad's lanes.
fn quad_z(tri: &Triangle, x: i32, y: i32) -> [f32; 4] {
    plane_quad(&tri.z, tri.origin, x, y)
}

/// The plane's values at the quad at (x, y)'s lanes, relative to `origin`.
pub(crate) fn plane_quad(p: &Plane, origin: [i32; 2], x: i32, y: i32) -> [f32; 4] {
    std::array::from_fn(|l| {
        let dx = (x + LANE_DX[l] - origin[0]) as f32;
        let dy = (y + LANE_DY[l] - origin[1]) as f32;
        p.eval(dx, dy)
    })
}

/// The production path: the texel pointers of the quad, then one variant call does the
/// rest. Lanes outside the depth image leave the coverage here (the reference's depth
/// test fails them); lanes outside a colour image point at `dummy`.
fn shade_quad_variant(
    ctx: &DrawCtx<'_>,
    v: &FragmentVariant,
    tri: &Triangle,
    x: i32,
    y: i32,
    cover: u32,
    s: &mut TileScratch,
) {
    let z = quad_z(tri, x, y);
    let dummy = s.dummy.as_mut_ptr() as *mut u8;
    let mut cover = cover;
    if let Some(img) = &ctx.zs {
        cover &= texel_ptrs(img, x, y, dummy, &mut s.quad.depth);
        if cover == 0 {
            return;
        }
    }
    for (i, (img, _, _, _)) in ctx.colors.iter().enumerate() {
        if let Some(ptrs) = s.quad.color.get_mut(i) {
            texel_ptrs(img, x, y, dummy, ptrs);
        }
    }
    prepare_quad(
        ctx,
        tri,
        x,
        y,
        &z,
        &mut s.inputs[..s.in_len],
        &mut s.builtins[..BUILTIN_WORDS],
    );
    let q = &mut s.quad;
    q.inv = Invocation {
        inputs: s.inputs.as_ptr(),
        outputs: s.outputs.as_mut_ptr(),
        builtins: s.builtins.as_ptr(),
        mask: 0xF,
    };
    q.cover = cover;
    q.front = if tri.front { u32::MAX } else { 0 };
    q.z = z;
    // SAFETY: the buffers were sized for the variant when the draw started (`run_tile`
    // checks `buffers_fit`, and sizes outputs to `output_rows` with zeros past the
    // shader's rows); `fenv.shader_env` points into `ctx.env`, alive and unmoved (boxed);
    // the texel pointers were set above for this quad by `texel_ptrs` (pixels of this
    // worker's tile, or the dummy) and depth lanes on the dummy are out of `cover`.
    let written = unsafe { v.run(&ctx.fenv, q) };
    ctx.count_passed(written.count_ones());
}

/// Sets `b`'s texel pointers and strides for the `n` 4×4 blocks from (x, y) rightwards
/// when all their pixels lie inside the depth image (when tested) and every colour image
/// of the draw in this tile; false (and `b` untouched) otherwise: then the blocks take the
/// quad entry, whose lanes outside an image point at scratch.
///
/// The pointers come from the tile's writers, so the texels of each image are this
/// worker's; they are only used by the variant call that follows.
fn block_ptrs(ctx: &DrawCtx<'_>, x: i32, y: i32, n: u32, b: &mut FragBlock) -> bool {
    let g = &ctx.blocks;
    let r = g.rect;
    // In i64: with no image at all the rect is all of i32 (`BlockGeom::new`).
    let (x, y, r) = (i64::from(x), i64::from(y), r.map(i64::from));
    let last = x + 4 * i64::from(n) - 1;
    if x < r[0] || y < r[1] || last > r[2] || y > r[3] - 3 {
        return false;
    }
    let (dx, dy) = (x - r[0], y - r[1]);
    let at = |i: &ImageGeom| {
        i.origin
            .wrapping_offset((dy * i.stride + dx * i.bpp) as isize)
    };
    if ctx.zs.is_some() {
        (b.depth, b.depth_stride) = (at(&g.depth), g.depth.stride);
    }
    for (i, img) in g.colors.iter().enumerate().take(ctx.colors.len()) {
        (b.color[i], b.color_stride[i]) = (at(img), img.stride);
    }
    true
}

/// One image of `BlockGeom`: the address of the texel at the rect's corner, and the bytes
/// from one row and one texel to the next.
#[derive(Clone, Copy)]
struct ImageGeom {
    origin: *mut u8,
    stride: i64,
    bpp: i64,
}

impl ImageGeom {
    const NONE: ImageGeom = ImageGeom {
        origin: std::ptr::null_mut(),
        stride: 0,
        bpp: 0,
    };
}

/// Where the images of a draw lie in one tile, for `block_ptrs`: the pixels inside every
/// image's tile writer (`rect`; a block inside it is inside all of them) and each image's
/// corner texel and steps. Derived once per (tile, draw), so a block's pointers cost two
/// multiply-adds per image instead of three checked `texel_ptr` lookups (`block_ptrs` was
/// 6–8% of `tris_200k_depth` at one thread).
struct BlockGeom {
    /// Inclusive; no block fits when it is narrower or lower than 4 pixels.
    rect: [i32; 4],
    depth: ImageGeom,
    colors: [ImageGeom; MAX_COLOR_ATTACHMENTS],
}

impl BlockGeom {
    fn new(zs: Option<&TileWriter<'_>>, colors: &[ColorOut<'_>]) -> BlockGeom {
        let images = || zs.into_iter().chain(colors.iter().map(|c| &c.0));
        // With no image at all every block fits (the variant stores nothing).
        let mut rect = [i32::MIN, i32::MIN, i32::MAX, i32::MAX];
        for img in images() {
            let r = img.rect();
            rect = [
                rect[0].max(r[0]),
                rect[1].max(r[1]),
                rect[2].min(r[2]),
                rect[3].min(r[3]),
            ];
        }
        let mut g = BlockGeom {
            rect,
            depth: ImageGeom::NONE,
            colors: [ImageGeom::NONE; MAX_COLOR_ATTACHMENTS],
        };
        if images().next().is_none() {
            return g;
        }
        if rect[2] - rect[0] < 3 || rect[3] - rect[1] < 3 {
            g.rect = [0, 0, -1, -1];
            return g;
        }
        // The corner, the texel right of it and the one above it are inside every writer.
        let geom = |img: &TileWriter<'_>| {
            let origin = img.texel_ptr(rect[0], rect[1]);
            let step = |p: *mut u8| p as i64 - origin as i64;
            ImageGeom {
                origin,
                stride: step(img.texel_ptr(rect[0], rect[1] + 1)),
                bpp: step(img.texel_ptr(rect[0] + 1, rect[1])),
            }
        };
        if let Some(img) = zs {
            g.depth = geom(img);
        }
        for (i, c) in colors.iter().enumerate().take(MAX_COLOR_ATTACHMENTS) {
            g.colors[i] = geom(&c.0);
        }
        g
    }
}

/// Sets the triangle's part of the block entry's `FragBlock` (`s.block`): its planes,
/// facing and the quads' rows. False when the triangle lacks planes the variant reads
/// (then the quad path, which stops at the first missing plane, takes its blocks).
fn block_triangle(ctx: &DrawCtx<'_>, tri: &Triangle, s: &mut TileScratch) -> bool {
    let planes = &ctx.d.planes;
    let first = tri.varyings as usize;
    if first + ctx.planes_per_tri > planes.len() {
        return false;
    }
    let (inputs, builtins) = (s.inputs.as_mut_ptr(), s.builtins.as_mut_ptr());
    let b = &mut s.block;
    b.inv = Invocation {
        inputs,
        outputs: s.outputs.as_mut_ptr(),
        builtins,
        mask: 0xF,
    };
    b.front = if tri.front { u32::MAX } else { 0 };
    let own = &planes[first..first + ctx.planes_per_tri];
    // Sized once per draw (`planes_per_tri` is the draw's), then overwritten in place.
    let n = SPLAT_FIRST_VARYING as usize + own.len();
    if s.splat.len() != n {
        s.splat.resize(n, SplatPlane::default());
    }
    let splat = |p: &Plane| SplatPlane::new([p.a, p.b, p.c]);
    s.splat[SPLAT_Z as usize] = splat(&tri.z);
    s.splat[SPLAT_W as usize] = splat(&tri.inv_w);
    for (d, p) in s.splat[SPLAT_FIRST_VARYING as usize..].iter_mut().zip(own) {
        *d = splat(p);
    }
    b.planes = s.splat.as_ptr();
    b.inputs = inputs;
    b.input_stride = (s.in_len * 4) as u64;
    b.builtins = builtins;
    b.builtin_stride = (BUILTIN_WORDS * 4) as u64;
    true
}

/// The production path for blocks inside every image: one call of the variant's block
/// entry runs the span's covered quads (in the order the quad path would): the edge tests
/// of partly covered blocks, interpolation from the triangle's planes, depth, shader,
/// blending and stores. `span` holds the blocks' pixels inside the tile and the triangle's
/// bounds, in the row of blocks at `y`; `block_triangle` has set the triangle's part of
/// `s.block`. False, with nothing drawn, when a block of the span is not inside every image
/// (then its blocks go one by one).
fn shade_span_variant(
    ctx: &DrawCtx<'_>,
    v: &FragmentVariant,
    tri: &Triangle,
    y: i32,
    span: Span,
    s: &mut TileScratch,
) -> bool {
    let x = span.x;
    let b = &mut s.block;
    if !block_ptrs(ctx, x, y, span.len(), b) {
        return false;
    }
    b.cover = span.cover;
    b.edge_test = span.partial;
    if span.partial != 0 {
        b.edges = tri.edges.map(|e| BlockEdge {
            c: e.eval(x, y),
            a: e.a,
            b: e.b,
        });
    }
    b.dx = x - tri.origin[0];
    b.dy = y - tri.origin[1];
    b.x = x;
    b.y = y;
    // SAFETY: as `shade_quad_variant`'s, per quad: each quad's inputs (`in_len` words, at
    // least what `buffers_fit` checked for one quad, past every row of the key's
    // `varyings`, which `DrawCtx::new` keeps below `input_words`) and builtins
    // (`BUILTIN_WORDS`) lie at the strides `block_triangle` set, in buffers the variant may
    // write; the triangle's planes from its first hold `planes_per_tri` entries (checked
    // there), past every plane index of the key; the outputs were sized for the variant
    // when the draw started; the texel pointers and strides were set by `block_ptrs` for
    // the span's blocks, whose pixels lie in this worker's tile of every image.
    let written = unsafe { v.run_block(&ctx.fenv, b) };
    ctx.count_passed(written);
    true
}

/// The reference path (interpreted shaders): the same steps in Rust, per lane.
fn shade_quad_reference(
    ctx: &DrawCtx<'_>,
    tri: &Triangle,
    x: i32,
    y: i32,
    cover: u32,
    s: &mut TileScratch,
) {
    let d = ctx.d;
    let prog = &d.call.program;
    let z = quad_z(tri, x, y);
    let mut cover = cover;
    if d.early_depth && ctx.zs.is_some() {
        for l in 0..4 {
            if cover & (1 << l) != 0
                && !depth_stencil_test(ctx, tri.front, x + LANE_DX[l], y + LANE_DY[l], z[l])
            {
                cover &= !(1 << l);
            }
        }
        if cover == 0 {
            return;
        }
    }
    prepare_quad(
        ctx,
        tri,
        x,
        y,
        &z,
        &mut s.inputs[..s.in_len],
        &mut s.builtins[..BUILTIN_WORDS],
    );
    // Helper lanes run too (derivatives need the whole quad); only covered lanes write.
    // SAFETY: `run_tile` checked `buffers_fit` for these buffers when the draw started.
    let alive = unsafe {
        jit::run_unchecked(
            prog.fs.as_ref(),
            &ctx.env,
            &s.inputs[..s.in_len],
            s.builtins
                .first_chunk::<BUILTIN_WORDS>()
                .expect("room for 4 quads"),
            &mut s.outputs,
            0xF,
        )
    };
    let mut live = cover & alive;
    if !d.early_depth && ctx.zs.is_some() {
        for l in 0..4 {
            if live & (1 << l) == 0 {
                continue;
            }
            let fz = match ctx.frag_depth_row {
                Some(row) => s
                    .outputs
                    .get(row as usize * 4 + l)
                    .map_or(z[l], |&b| f32::from_bits(b)),
                None => z[l],
            };
            if !depth_stencil_test(ctx, tri.front, x + LANE_DX[l], y + LANE_DY[l], fz) {
                live &= !(1 << l);
            }
        }
    }
    ctx.count_passed(live.count_ones());
    if live == 0 {
        return;
    }
    for (k, (img, slot, blend, mask)) in ctx.colors.iter().enumerate() {
        let format = img.format();
        let src1_slot = if k == 0 { ctx.src1_slot } else { None };
        for l in 0..4 {
            if live & (1 << l) == 0 {
                continue;
            }
            let src: [f32; 4] = std::array::from_fn(|c| {
                s.outputs
                    .get((*slot as usize + c) * 4 + l)
                    .map_or(0.0, |&b| f32::from_bits(b))
            });
            let src1: [f32; 4] = std::array::from_fn(|c| {
                src1_slot
                    .and_then(|r| s.outputs.get((r as usize + c) * 4 + l))
                    .map_or(0.0, |&b| f32::from_bits(b))
            });
            img.update(x + LANE_DX[l], y + LANE_DY[l], |t| {
                let color_ops = ctx.color_ops;
                ops::color_and_pack_dual(format, blend.as_ref(), color_ops, src, src1, *mask, t)
            });
        }
    }
}

/// Runs a clear inside one tile (GL 4.5 core §17.4.3: honours the scissor and the colour
/// mask, ignores the viewport).
///
/// # Safety
/// `run_tile`'s: no other thread touches the pixels of `tile` in the clear's targets.
unsafe fn clear_tile(c: &ClearCall, tile: [i32; 4]) {
    let mut r = setup::intersect(
        tile,
        [0, 0, c.target.width as i32 - 1, c.target.height as i32 - 1],
    );
    if let Some(s) = c.scissor {
        match setup::scissor_rect(s) {
            Some(sr) => r = setup::intersect(r, sr),
            None => return,
        }
    }
    if r[0] > r[2] || r[1] > r[3] {
        return;
    }
    if let Some(color) = c.color {
        for (img, mask) in c.target.colors.iter().zip(c.color_mask) {
            let Some(img) = img else { continue };
            let format = img.format();
            if format.is_depth() {
                continue;
            }
            let mut packed = [0u8; 16];
            let bpp = format.bytes_per_texel();
            ops::pack_clear(format, color, [true; 4], &mut packed[..bpp]);
            let all = mask.iter().all(|&m| m);
            // SAFETY: this function's contract.
            let w = unsafe { img.tile_writer(tile) };
            for y in r[1]..=r[3] {
                if all {
                    w.fill_row(r[0], r[2], y, &packed[..bpp]);
                } else {
                    for x in r[0]..=r[2] {
                        w.update(x, y, |t| ops::pack_clear(format, color, mask, t));
                    }
                }
            }
        }
    }
    // Depth into the depth buffer, the stencil value under the stencil write mask into the
    // stencil buffer (GL 4.5 core §17.4.3); one D24S8 image may be both.
    let depth = c
        .depth
        .and_then(|z| Some((c.target.depth.as_ref()?, z)))
        .filter(|(img, _)| img.format().is_depth());
    let stencil = c
        .stencil
        .and_then(|v| Some((c.target.stencil.as_ref()?, v)))
        .filter(|(img, _)| img.format() == Format::Depth24Stencil8 && c.stencil_mask != 0);
    let same = matches!((depth, stencil), (Some((d, _)), Some((s, _))) if Arc::ptr_eq(d, s));
    if let Some((img, z)) = depth {
        // glClearDepth clamps to [0, 1] (GL 4.5 core §17.4.3.1).
        let z = z.clamp(0.0, 1.0) as f32;
        let format = img.format();
        let st = stencil.filter(|_| same).map(|(_, v)| v);
        let keep = !(u32::from(c.stencil_mask) << 24);
        // SAFETY: this function's contract.
        let w = unsafe { img.tile_writer(tile) };
        // Per texel: keep the bits of `kept`, set those of `set` (one row at a time).
        let (kept, set) = if format == Format::Depth24Stencil8 {
            let d24 = ops::depth_to_d24(z);
            match st {
                Some(v) => (
                    keep & !ops::DEPTH24_MAX,
                    d24 | (u32::from(v & c.stencil_mask) << 24),
                ),
                None => (!ops::DEPTH24_MAX, d24),
            }
        } else {
            (0, z.to_bits())
        };
        for y in r[1]..=r[3] {
            if kept == 0 {
                w.fill_row(r[0], r[2], y, &set.to_le_bytes());
            } else {
                w.update_row_words(r[0], r[2], y, |word| (word & kept) | set);
            }
        }
    }
    if let Some((img, v)) = stencil.filter(|_| !same) {
        let keep = !(u32::from(c.stencil_mask) << 24);
        let bits = u32::from(v & c.stencil_mask) << 24;
        // SAFETY: this function's contract.
        let w = unsafe { img.tile_writer(tile) };
        for y in r[1]..=r[3] {
            w.update_row_words(r[0], r[2], y, |word| (word & keep) | bits);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bit-mask `rect_mask` against a pixel-by-pixel count, over rects around a block.
    #[test]
    fn rect_mask_matches_pixel_by_pixel() {
        let (x, y) = (8, 4);
        for x0 in x - 2..x + 6 {
            for x1 in x0 - 1..x + 7 {
                for y0 in y - 2..y + 6 {
                    for y1 in y0 - 1..y + 7 {
                        let r = [x0, y0, x1, y1];
                        let mut want = 0u16;
                        for j in 0..4 {
                            for i in 0..4 {
                                if (x0..=x1).contains(&(x + i)) && (y0..=y1).contains(&(y + j)) {
                                    want |= 1 << (j * 4 + i);
                                }
                            }
                        }
                        assert_eq!(rect_mask(x, y, r), want, "{r:?}");
                    }
                }
            }
        }
    }

    /// `edge_mask` against each pixel's own edge values (`Edge::eval` at its centre), on
    /// edges through pixel centres (the fill rule's ties) and beside them.
    #[test]
    fn edge_mask_matches_pixel_by_pixel() {
        let (x, y) = (12, -8);
        let c = |px: i32, py: i32| [px as i64 * 256 + 128, py as i64 * 256 + 128];
        let mut n = 0;
        for (dx, dy) in [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-2, 1), (3, -5)] {
            for nudge in [-1, 0, 1] {
                for (i, j) in [(0, 0), (1, 2), (3, 3), (2, 0)] {
                    let p0 = c(x + i, y + j);
                    let p0 = [p0[0] + nudge, p0[1]];
                    let e = Edge::new(p0, [p0[0] + dx * 256, p0[1] + dy * 256]);
                    let open = Edge { a: 0, b: 0, c: 0 };
                    let m = edge_mask(&[open, e, open], x, y);
                    for jj in 0..4 {
                        for ii in 0..4 {
                            let inside = e.eval(x + ii, y + jj) >= 0;
                            assert_eq!(m >> (jj * 4 + ii) & 1 != 0, inside, "{e:?} ({ii}, {jj})");
                        }
                    }
                    n += usize::from(m != 0 && m != 0xFFFF);
                }
            }
        }
        assert!(n > 40, "{n} partial masks");
    }

    #[test]
    fn rect_mask_bits() {
        assert_eq!(rect_mask(0, 0, [0, 0, 3, 3]), 0xFFFF);
        assert_eq!(rect_mask(0, 0, [0, 0, 0, 0]), 1);
        assert_eq!(rect_mask(4, 4, [5, 4, 6, 4]), 0b0110);
        assert_eq!(rect_mask(0, 0, [0, 3, 3, 9]), 0xF000);
    }

    /// GLSL 1.50 §4.3.8.1 on a 4-row target: bottom row 0 and top row 3 under each layout.
    #[test]
    fn frag_coord_layouts() {
        let at = |ul, int| {
            let m = FragCoordMap::new(ul, int, 4);
            (m.x(2), m.y(0), m.y(3))
        };
        assert_eq!(at(false, false), (2.5, 0.5, 3.5));
        assert_eq!(at(false, true), (2.0, 0.0, 3.0));
        assert_eq!(at(true, false), (2.5, 3.5, 0.5));
        assert_eq!(at(true, true), (2.0, 3.0, 0.0));
    }
}
