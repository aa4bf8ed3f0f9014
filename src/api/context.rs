//! `Context`: the object that owns all GL state of one headless context — its per-context
//! object tables (VAOs, framebuffers), its share group (`share.rs`), bindings,
//! fixed-function state, the error flag and debug log, the default framebuffer (a
//! `Surface` or none), the attributes and reported version, the bindless resident set and
//! the rasterizer. Entry points live in the sibling files as
//! `impl Context` blocks, one per object kind; this file holds construction, the error and
//! debug plumbing, the dirty bits and `update_derived`, and the fixed-function state setters.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::api::dispatch::gl_commands;
use crate::api::error::{DebugMessage, ErrorState, GlError, GlResult};
use crate::api::framebuffer::Framebuffer;
use crate::api::names::*;
use crate::api::share::{ShareGroup, SharedObjects};
use crate::api::surface::Surface;
use crate::api::texture::Texture;
use crate::api::version::{ContextAttribs, ContextError, Reported};
use crate::api::vertex_array::VertexArray;
use crate::gl::enums as gl;
use crate::gl::{BlendEquation, BlendFactor, CompareFunc, CullFace, FrontFace};
use crate::glsl::CompileOutput;
use crate::ir::{Module, Stage};
use crate::jit::{CompileError, ShaderCode};
use crate::raster::{BlendState, ClearCall, DrawCall, RasterState, Rasterizer, RenderTarget};
use crate::sampler::{
    DebugSink, DescriptorTable, Flushed, ResidentSet, SampleContext, SamplerState, TextureHandle,
    TextureView,
};

/// Implementation limits reported through glGet (GL 4.5 core table 23.5x minimums or more).
pub mod limits {
    pub const MAX_TEXTURE_SIZE: i32 = 16384;
    /// Layers of a 2D array texture (GL 4.5 core table 23.53: at least 2048).
    pub const MAX_ARRAY_TEXTURE_LAYERS: i32 = 2048;
    /// GL_MAX_TEXTURE_BUFFER_SIZE in texels (GL 4.5 core table 23.53: at least 65536;
    /// llvmpipe's 2²⁷).
    pub const MAX_TEXTURE_BUFFER_SIZE: i32 = 1 << 27;
    /// GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT (GL asks for at most 256).
    pub const TEXTURE_BUFFER_OFFSET_ALIGNMENT: i32 = 16;
    /// log2(MAX_TEXTURE_SIZE) + 1.
    pub const MAX_MIP_LEVELS: usize = 15;
    pub const MAX_VERTEX_ATTRIBS: u32 = crate::ir::link::MAX_VERTEX_ATTRIBS;
    pub const MAX_TEXTURE_IMAGE_UNITS: i32 =
        crate::glsl::builtin_constants::MAX_TEXTURE_IMAGE_UNITS;
    pub const MAX_COMBINED_TEXTURE_IMAGE_UNITS: u32 =
        crate::ir::link::MAX_COMBINED_TEXTURE_IMAGE_UNITS;
    pub const MAX_UNIFORM_BUFFER_BINDINGS: u32 = crate::ir::link::MAX_UNIFORM_BUFFER_BINDINGS;
    pub const MAX_UNIFORM_BLOCK_SIZE: i32 = 65536;
    /// Per stage; the combined limit is both stages' (GL 4.5 core table 23.57–23.63).
    pub const MAX_STAGE_UNIFORM_BLOCKS: i32 = crate::ir::link::MAX_STAGE_UNIFORM_BLOCKS as i32;
    pub const UNIFORM_BUFFER_OFFSET_ALIGNMENT: i32 = 16;
    pub const MAX_SHADER_STORAGE_BUFFER_BINDINGS: u32 =
        crate::ir::link::MAX_SHADER_STORAGE_BUFFER_BINDINGS;
    /// Per stage; the combined limit is twice it (vertex + fragment).
    pub const MAX_STAGE_SHADER_STORAGE_BLOCKS: i32 =
        crate::ir::link::MAX_STAGE_STORAGE_BLOCKS as i32;
    /// GL_MAX_SHADER_STORAGE_BLOCK_SIZE: 128 MiB (GL 4.5 core minimum 2²⁴; llvmpipe's).
    pub const MAX_SHADER_STORAGE_BLOCK_SIZE: i32 = 1 << 27;
    /// GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT (GL asks for at most 256). 16 keeps every
    /// word of a storage range 4-byte aligned, which the atomics need.
    pub const SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT: i32 = 16;
    pub const MAX_DRAW_BUFFERS: u32 = crate::ir::link::MAX_DRAW_BUFFERS;
    pub const MAX_COLOR_ATTACHMENTS: u32 = 8;
    pub const MAX_VIEWPORT_DIMS: i32 = 16384;
    /// GL_VIEWPORT_BOUNDS_RANGE: the smallest range GL 4.5 core allows (table 23.53:
    /// [-2·MAX_VIEWPORT_DIMS, 2·MAX_VIEWPORT_DIMS − 1]); glViewport clamps its origin to it.
    pub const VIEWPORT_BOUNDS_RANGE: [i32; 2] = [-2 * MAX_VIEWPORT_DIMS, 2 * MAX_VIEWPORT_DIMS - 1];
    pub const MAX_RENDERBUFFER_SIZE: i32 = 16384;
    pub const MAX_VERTEX_ATTRIB_STRIDE: i32 = 2048;
    /// GL_MAX_SAMPLES (and the colour, depth and integer sample limits): 2, 4 and 8 samples
    /// at the standard positions (`raster::multisample`).
    pub const MAX_SAMPLES: i32 = crate::raster::multisample::SAMPLE_COUNTS[0] as i32;
    /// GL_MAX_SAMPLE_MASK_WORDS: one 32-bit word covers every supported count.
    pub const MAX_SAMPLE_MASK_WORDS: u32 = 1;
    // Shader interface limits. softgl sizes uniform storage and varyings per program, with no
    // fixed cap; the varying limits report GL 4.5's minimums (table 23.57-23.62), which the
    // conformance scene `varyings_max_components` shows working. The uniform limit is the
    // link's (`ir::link::MAX_UNIFORM_COMPONENTS`, llvmpipe's 16,384): past it a link fails.
    pub const MAX_UNIFORM_COMPONENTS: i32 = crate::ir::link::MAX_UNIFORM_COMPONENTS as i32;
    pub const MAX_VARYING_COMPONENTS: i32 = crate::glsl::builtin_constants::MAX_VARYING_COMPONENTS;
    pub const MAX_VERTEX_OUTPUT_COMPONENTS: i32 =
        crate::glsl::builtin_constants::MAX_VERTEX_OUTPUT_COMPONENTS;
    pub const MAX_FRAGMENT_INPUT_COMPONENTS: i32 =
        crate::glsl::builtin_constants::MAX_FRAGMENT_INPUT_COMPONENTS;
    /// gl_ClipDistance[0..8] and GL_CLIP_DISTANCE0..7 (GL 4.5 core table 23.53's minimum).
    pub const MAX_CLIP_DISTANCES: i32 = 8;
    /// gl_CullDistance[0..8] (GL 4.5 core table 23.53's minimum, GL_ARB_cull_distance), and
    /// at most 8 clip and cull distances together; the GLSL side checks both
    /// (`glsl::interface`'s `redeclare_distance`).
    pub const MAX_CULL_DISTANCES: i32 = 8;
    pub const MAX_COMBINED_CLIP_AND_CULL_DISTANCES: i32 = 8;
    /// Viewports, depth ranges and scissor boxes (ARB_viewport_array, GL 4.5 core table
    /// 23.53: at least 16). Index 0 is the one drawn with until geometry shaders select
    /// others.
    pub const MAX_VIEWPORTS: usize = 16;
}

/// How the context turns GLSL into IR and IR into code. Production contexts use
/// `glsl::compile` and `jit::compile`; tests swap in hand-built modules and stand-in code,
/// so the API's logic is tested apart from the compiler.
pub(crate) type FrontEnd = Arc<dyn Fn(Stage, &str) -> CompileOutput + Send + Sync>;
pub(crate) type BackEnd =
    Arc<dyn Fn(&Module) -> Result<Arc<dyn ShaderCode>, CompileError> + Send + Sync>;

/// Where descriptors for handles come from: the global `DescriptorTable`, or a stand-in in
/// tests (the table is built separately).
pub(crate) trait DescriptorAlloc: Send + Sync {
    fn insert(
        &self,
        view: TextureView,
        state: SamplerState,
        internal: bool,
    ) -> Option<TextureHandle>;
    fn remove(&self, handle: TextureHandle);
}

impl DescriptorAlloc for DescriptorTable {
    fn insert(
        &self,
        view: TextureView,
        state: SamplerState,
        internal: bool,
    ) -> Option<TextureHandle> {
        DescriptorTable::insert(self, view, state, internal)
    }
    fn remove(&self, handle: TextureHandle) {
        DescriptorTable::remove(self, handle)
    }
}

/// Dirty bits: setters only set these; `update_derived` turns them into the derived state
/// a draw snapshots (llvmpipe's scheme).
pub(crate) mod dirty {
    /// Fixed-function state behind `RasterState`.
    pub const RASTER: u32 = 1;
    /// Framebuffer bindings, attachments or attached images: `RenderTarget`, completeness.
    pub const TARGET: u32 = 2;
    /// The resident set: the draw's `SampleContext`.
    pub const SAMPLER: u32 = 4;
    pub const ALL: u32 = 7;
}

/// The default framebuffer (window-system provided in GL terms): the images of the surface
/// the context was last made current with, or none (EGL_NO_SURFACE: the default framebuffer
/// does not exist, GL 4.5 core §9.4.4's FRAMEBUFFER_UNDEFINED).
pub(crate) struct DefaultFramebuffer {
    pub surface: Option<Surface>,
    /// Whether the context ever had a surface (the first one sets viewport and scissor).
    pub had_surface: bool,
    pub draw_buffer: u32,
    pub read_buffer: u32,
}

/// A uniform buffer binding point (glBindBufferBase/Range).
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct BufferBinding {
    pub buffer: Option<BufferName>,
    pub offset: usize,
    /// `None` for BindBufferBase: the whole buffer, whatever its size at draw time.
    pub size: Option<usize>,
}

/// A generic vertex attribute's current value (glVertexAttrib*, `attrib_value.rs`).
pub(crate) use crate::api::attrib_value::CurrentAttrib;

/// Fixed-function state (GL 4.5 core chapter 17 and §13).
#[derive(Clone, Debug)]
pub(crate) struct FixedState {
    pub viewport: [i32; 4],
    pub depth_range: [f64; 2],
    pub scissor_box: [i32; 4],
    pub scissor_test: bool,
    pub depth_test: bool,
    pub cull_face_enabled: bool,
    pub cull_face: CullFace,
    pub front_face: FrontFace,
    /// glProvokingVertex(GL_FIRST_VERTEX_CONVENTION).
    pub provoking_first: bool,
    /// glPatchParameteri / glPatchParameterfv (`tess.rs`).
    pub patch: crate::raster::PatchState,
    pub depth_func: CompareFunc,
    pub depth_mask: bool,
    pub stencil: crate::api::stencil::StencilGl,
    /// Blend enable, functions and equations of each draw buffer (ARB_draw_buffers_blend,
    /// GL 4.5 core §17.3.6); every entry carries the one constant colour. The non-indexed
    /// commands set all of them, glGet without an index reads draw buffer 0's.
    pub blend: [BlendState; limits::MAX_DRAW_BUFFERS as usize],
    /// glColorMask(i) of each draw buffer (§17.4.2).
    pub color_mask: [[bool; 4]; limits::MAX_DRAW_BUFFERS as usize],
    pub clear_color: [f32; 4],
    pub clear_depth: f64,
    pub clear_stencil: i32,
    pub dither: bool,
    /// GL_FRAMEBUFFER_SRGB (§17.3.9).
    pub framebuffer_srgb: bool,
    /// GL_COLOR_LOGIC_OP and glLogicOp's operation (§17.3.11).
    pub color_logic_op: bool,
    pub logic_op: u32,
    pub debug_output_synchronous: bool,
    /// GL_MULTISAMPLE (§14.3.1): off, every sample of a multisample target takes the
    /// pixel-centre result.
    pub multisample: bool,
    /// GL_SAMPLE_MASK and glSampleMaski's word (§17.3.3).
    pub sample_mask_enabled: bool,
    pub sample_mask: u32,
    /// GL_SAMPLE_COVERAGE and glSampleCoverage's value and invert (§17.3.3); the mask
    /// they make is `api::multisample::coverage_mask`.
    pub sample_coverage: bool,
    pub sample_coverage_value: f32,
    pub sample_coverage_invert: bool,
    /// GL_SAMPLE_SHADING and GL_MIN_SAMPLE_SHADING_VALUE (§14.3.1.1): stored; softgl runs
    /// the fragment shader once per sample of a multisample target anyway
    /// (`raster::multisample`), which meets any minimum.
    pub sample_shading: bool,
    pub min_sample_shading: f32,
    /// GL_LINE_SMOOTH, GL_POLYGON_SMOOTH: stored only (antialiasing is allowed to do
    /// nothing); GL_PROGRAM_POINT_SIZE: points take gl_PointSize.
    pub line_smooth: bool,
    pub polygon_smooth: bool,
    /// GL_TEXTURE_CUBE_MAP_SEAMLESS (GL 4.5 core §8.13.1): stored only; it selects how cube
    /// map faces filter across their edges, and softgl has no cube maps yet.
    pub cube_map_seamless: bool,
    pub program_point_size: bool,
    /// GL_RASTERIZER_DISCARD (GL 4.5 core §14.1): draws stop after transform feedback.
    pub rasterizer_discard: bool,
    /// glPointSize / glLineWidth as specified (rasterization clamps to the ranges).
    pub point_size: f32,
    pub line_width: f32,
    /// Primitive restart, point sprites, polygon mode (`api::draw`).
    pub prims: crate::api::draw::PrimitiveFixed,
    /// Viewports, depth ranges and scissors 1..16, depth clamp, clip control and the clip
    /// distance enables (`api::viewport`); index 0 is `viewport`, `depth_range`,
    /// `scissor_box` and `scissor_test` above.
    pub clip: crate::api::viewport::ClipFixed,
}

/// Derived state, valid when the matching dirty bit is clear.
pub(crate) struct Derived {
    pub raster: RasterState,
    /// The draw framebuffer's target, or its incompleteness status.
    pub target: Result<RenderTarget, u32>,
    pub sampler: Arc<SampleContext>,
}

/// A headless GL 4.5-style context with an offscreen RGBA8 + D24S8 default framebuffer.
///
/// Entry points follow one convention: `glFooBar` is `Context::foo_bar`, GL argument order,
/// out-parameters as return values. A failing call records a GL error (read with
/// [`Context::get_error`]) and a debug message, and changes no state.
pub struct Context {
    pub(crate) errors: ErrorState,
    pub(crate) sampler_debug: DebugSink,
    pub(crate) front_end: FrontEnd,
    pub(crate) back_end: BackEnd,
    pub(crate) raster: Rasterizer,

    /// The share group's objects while an entry point runs inside `with_group`; empty
    /// otherwise (`share.rs`).
    pub(crate) objs: SharedObjects,
    pub(crate) group: Arc<ShareGroup>,
    /// Whether `objs` holds the group's objects now.
    pub(crate) group_held: bool,
    /// Whether a GL command is running (the dispatcher, `dispatch.rs`): a command called
    /// from inside another runs nested, under the outer command's name.
    pub(crate) in_command: bool,
    /// This context's id in its group (`share::next_context_id`).
    pub(crate) id: u64,
    pub(crate) vertex_arrays: NameTable<VertexArrayName, VertexArray>,
    /// Texture object 0 of TEXTURE_2D (GL 4.5 core §8.1: the default texture; per context).
    pub(crate) default_texture: Texture,
    /// The default GL_TEXTURE_2D_ARRAY texture (texture 0 of that target).
    pub(crate) default_texture_2d_array: Texture,
    /// The default GL_TEXTURE_CUBE_MAP and GL_TEXTURE_3D textures.
    pub(crate) default_texture_cube: Texture,
    pub(crate) default_texture_3d: Texture,
    /// The default GL_TEXTURE_2D_MULTISAMPLE(_ARRAY) textures.
    pub(crate) default_texture_ms: Texture,
    pub(crate) default_texture_ms_array: Texture,
    /// The default textures of GL_TEXTURE_1D, _1D_ARRAY, _RECTANGLE, _CUBE_MAP_ARRAY and
    /// _BUFFER (`api::texture::MORE_TARGETS` order).
    pub(crate) default_textures_more: Vec<Texture>,
    pub(crate) framebuffers: NameTable<FramebufferName, Framebuffer>,

    pub(crate) array_buffer: Option<BufferName>,
    /// GL_ELEMENT_ARRAY_BUFFER while no vertex array object is bound: Mesa and NVIDIA keep
    /// it (in a default VAO that the core profile cannot draw with), and programs such as
    /// VTK bind and fill index buffers before binding their VAO (ARCHITECTURE.md, "where
    /// softgl follows the drivers").
    pub(crate) loose_element_buffer: Option<BufferName>,
    pub(crate) generic_buffers: HashMap<u32, BufferName>,
    pub(crate) uniform_bindings: Vec<BufferBinding>,
    /// GL_SHADER_STORAGE_BUFFER binding points (`api::storage_buffer`).
    pub(crate) storage_bindings: Vec<BufferBinding>,
    /// GL_ATOMIC_COUNTER_BUFFER binding points (`api::storage_buffer`, GL 4.5 core §7.7).
    pub(crate) atomic_counter_bindings: Vec<BufferBinding>,
    /// Image units (`api::image_unit`, GL 4.5 core §8.26).
    pub(crate) image_units:
        [crate::api::image_unit::ImageUnit; crate::api::image_unit::MAX_IMAGE_UNITS as usize],
    pub(crate) vertex_array: Option<VertexArrayName>,
    pub(crate) current_attribs: [CurrentAttrib; limits::MAX_VERTEX_ATTRIBS as usize],
    /// glHint's targets (`program_binary.rs`).
    pub(crate) hints: crate::api::program_binary::Hints,
    pub(crate) program: Option<ProgramObjectName>,
    /// Program pipeline objects and the bound one (`pipeline.rs`).
    pub(crate) pipelines: crate::api::pipeline::PipelineState,
    /// The subroutine uniforms' values per stage (`subroutine.rs`): context state.
    pub(crate) subroutine_selection: crate::api::subroutine::SubroutineSelection,
    pub(crate) active_texture: u32,
    pub(crate) texture_units: Vec<Option<TextureName>>,
    /// Each unit's GL_TEXTURE_2D_ARRAY binding.
    pub(crate) texture_units_2d_array: Vec<Option<TextureName>>,
    /// Each unit's GL_TEXTURE_CUBE_MAP and GL_TEXTURE_3D bindings.
    pub(crate) texture_units_cube: Vec<Option<TextureName>>,
    pub(crate) texture_units_3d: Vec<Option<TextureName>>,
    /// Each unit's GL_TEXTURE_2D_MULTISAMPLE(_ARRAY) bindings.
    pub(crate) texture_units_ms: Vec<Option<TextureName>>,
    pub(crate) texture_units_ms_array: Vec<Option<TextureName>>,
    /// Each unit's bindings of the `MORE_TARGETS` (`units_more[target][unit]`).
    pub(crate) texture_units_more: Vec<Vec<Option<TextureName>>>,
    pub(crate) sampler_units: Vec<Option<SamplerName>>,
    pub(crate) draw_framebuffer: Option<FramebufferName>,
    pub(crate) read_framebuffer: Option<FramebufferName>,
    pub(crate) renderbuffer: Option<RenderbufferName>,
    pub(crate) default_fb: DefaultFramebuffer,
    /// glPixelStorei's GL_UNPACK_* and GL_PACK_* state (`pixels::PixelStore`).
    pub(crate) unpack: crate::api::pixels::PixelStore,
    pub(crate) pack: crate::api::pixels::PixelStore,
    /// glClampColor(GL_CLAMP_READ_COLOR): GL_TRUE, GL_FALSE or GL_FIXED_ONLY.
    pub(crate) clamp_read_color: u32,
    pub(crate) fixed: FixedState,

    pub(crate) table: Arc<DescriptorTable>,
    pub(crate) descriptors: Arc<dyn DescriptorAlloc>,
    /// The handles resident in this context (ARB_bindless_texture: residency is per
    /// context, handles are per share group).
    pub(crate) resident: Arc<ResidentSet>,
    /// The image handles resident in this context, with the access each was made
    /// resident for (`bindless_image.rs`).
    pub(crate) resident_images: std::collections::BTreeMap<u64, u32>,
    /// Internal descriptors whose texture or sampler changed: removed from the table after
    /// the next flush, when no queued draw can use them any more.
    pub(crate) retired_descriptors: Vec<TextureHandle>,
    /// The level state of the proxy texture targets (`api/proxy.rs`).
    pub(crate) proxy_levels: crate::api::proxy::ProxyLevels,

    pub(crate) dirty: u32,
    pub(crate) derived: Derived,
    /// The attributes and the version this context reports (fixed at creation).
    pub(crate) reported: Reported,
    /// KHR_robustness: reset strategy, the loop-budget flags of queued draws, the reset.
    pub(crate) robustness: crate::api::robustness::Robustness,
    /// Query objects, conditional rendering, fences waiting for queued work
    /// (`query_object.rs`, `sync.rs`).
    pub(crate) queries: crate::api::query_object::QueryState,
    /// Transform feedback objects and the bound one (`transform_feedback.rs`).
    pub(crate) xfb: crate::api::transform_feedback::XfbState,

    /// Copies of queued draws, for tests of the snapshot (the rasterizer consumes the real
    /// ones).
    #[cfg(test)]
    pub(crate) captured: Vec<CapturedDraw>,
}

/// What a test can inspect of a queued draw.
#[cfg(test)]
pub(crate) struct CapturedDraw {
    pub vertices: crate::raster::VertexInput,
    pub vs: crate::jit::StageData,
    pub fs: crate::jit::StageData,
    pub state: RasterState,
    pub target: RenderTarget,
    pub sampler: Arc<SampleContext>,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("surface", &self.default_fb.surface)
            .field("attribs", &self.reported.attribs)
            .field("threads", &self.raster.threads())
            .finish_non_exhaustive()
    }
}

// A context moves between threads (the C driver makes it current on any thread).
const _: () = {
    const fn assert_send<T: Send>() {}
    assert_send::<Context>();
};

/// The thread count `Context::new` uses: `SOFTGL_THREADS`, else the available cores.
pub fn default_threads() -> usize {
    std::env::var("SOFTGL_THREADS")
        .ok()
        .and_then(|s| s.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

gl_commands! {
    /// glFinish: every queued command has completed on return.
    "glFinish" fn finish() = try_finish;
    /// glFlush. Queued work runs now too: a headless context has no display to overlap with.
    "glFlush" fn flush() = try_flush;
    /// glIsEnabled.
    "glIsEnabled" fn is_enabled(cap: u32) -> bool = try_is_enabled;
    /// glViewport (GL 4.5 core §13.6.1): sizes clamp to GL_MAX_VIEWPORT_DIMS, the origin to
    /// GL_VIEWPORT_BOUNDS_RANGE.
    "glViewport" fn viewport(x: i32, y: i32, width: i32, height: i32) = try_viewport;
    /// glDepthRange: values clamp to [0, 1].
    "glDepthRange" fn depth_range(near: f64, far: f64) = try_depth_range;
    /// glScissor.
    "glScissor" fn scissor(x: i32, y: i32, width: i32, height: i32) = try_scissor;
    /// glClearColor (not clamped: GL 4.5 core §17.4.3 clamps at clear time per format).
    "glClearColor" fn clear_color(r: f32, g: f32, b: f32, a: f32) = try_clear_color;
    /// glClearDepth: clamps to [0, 1].
    "glClearDepth" fn clear_depth(depth: f64) = try_clear_depth;
    /// glClearDepthf.
    "glClearDepthf" fn clear_depthf(depth: f32) = try_clear_depthf;
    /// glClearStencil.
    "glClearStencil" fn clear_stencil(s: i32) = try_clear_stencil;
    /// glDepthFunc.
    "glDepthFunc" fn depth_func(func: u32) = try_depth_func;
    /// glDepthMask.
    "glDepthMask" fn depth_mask(flag: bool) = try_depth_mask;
    /// glColorMask.
    "glColorMask" fn color_mask(r: bool, g: bool, b: bool, a: bool) = try_color_mask;
    /// glBlendFunc.
    "glBlendFunc" fn blend_func(sfactor: u32, dfactor: u32) = try_blend_func;
    /// glBlendEquation.
    "glBlendEquation" fn blend_equation(mode: u32) = try_blend_equation;
    /// glBlendEquationSeparate.
    "glBlendEquationSeparate"
    fn blend_equation_separate(mode_rgb: u32, mode_alpha: u32) = try_blend_equation_separate;
    /// glBlendColor.
    "glBlendColor" fn blend_color(r: f32, g: f32, b: f32, a: f32) = try_blend_color;
    /// glCullFace.
    "glCullFace" fn cull_face(mode: u32) = try_cull_face;
    /// glFrontFace.
    "glFrontFace" fn front_face(mode: u32) = try_front_face;
    /// glProvokingVertex (GL 4.5 core §13.6): which vertex of a primitive gives `flat`
    /// varyings.
    "glProvokingVertex" fn provoking_vertex(mode: u32) = try_provoking_vertex;
    /// glPointSize (GL 4.5 core §14.4).
    "glPointSize" fn point_size(size: f32) = try_point_size;
    /// glLineWidth (GL 4.5 core §14.5).
    "glLineWidth" fn line_width(width: f32) = try_line_width;
    /// glEnable.
    "glEnable"
    fn enable(cap: u32) = try_enable;
    /// glDisable.
    "glDisable"
    fn disable(cap: u32) = try_disable;
    /// glBlendFuncSeparate.
    "glBlendFuncSeparate"
    fn blend_func_separate(src_rgb: u32, dst_rgb: u32, src_a: u32, dst_a: u32) = try_blend_func_separate;
    /// glPixelStorei (GL 4.5 core §8.4.1): every GL_UNPACK_* and GL_PACK_* parameter
    /// (`pixels::PixelStore`).
    "glPixelStorei"
    fn pixel_storei(pname: u32, param: i32) = try_pixel_storei;
}

impl Context {
    /// The body of Gen* / Create*: `n` new names, all made by `make` (`NameTable::gen_many`
    /// or `create_many`, which take all or nothing and return None when the namespace or
    /// memory cannot hold them: GL_OUT_OF_MEMORY); a negative count is GL_INVALID_VALUE
    /// (GL 4.5 core §2.5.1).
    pub(crate) fn make_names<N: crate::api::names::Name>(
        &mut self,
        n: i32,
        make: impl FnOnce(&mut Context, usize) -> Option<Vec<N>>,
    ) -> GlResult<Vec<u32>> {
        let count = usize::try_from(n).map_err(|_| GlError::InvalidValue("negative count"))?;
        let names = make(self, count).ok_or(GlError::OutOfMemoryFor(count as u64, "names"))?;
        Ok(names.into_iter().map(|name| name.raw()).collect())
    }

    /// A debug context (version 1.0 unless overridden, DEBUG_OUTPUT on) with its own
    /// `width`×`height` RGBA8 + D24S8 default framebuffer and the default thread count
    /// (`SOFTGL_THREADS`, else the available cores). EGL contexts come from `with_attribs`.
    pub fn new(width: u32, height: u32) -> Context {
        Context::with_threads(width, height, default_threads())
    }

    /// As [`Context::new`], with `threads` rasterizer workers.
    pub fn with_threads(width: u32, height: u32, threads: usize) -> Context {
        let table = Arc::new(DescriptorTable::new());
        Context::with_parts(
            width,
            height,
            threads,
            table.clone(),
            table,
            Arc::new(crate::glsl::compile),
            Arc::new(crate::jit::compile),
        )
    }

    /// A context with these attributes; `share`: the context whose share group (buffers,
    /// textures, samplers, shaders/programs, renderbuffers, bindless handles) the new one
    /// joins. VAOs, framebuffers and the bindless *resident set* stay per context. The new
    /// context has no surface until `set_default_surface`. The version override
    /// (`SOFTGL_GL_VERSION_OVERRIDE`) is read now, once.
    pub fn with_attribs(
        attribs: &ContextAttribs,
        share: Option<&Context>,
    ) -> Result<Context, ContextError> {
        Context::with_attribs_and_threads(attribs, share, default_threads())
    }

    /// As [`Context::with_attribs`], with `threads` rasterizer workers (the CLI's
    /// `--threads`, so a scene renders on the context it asks for at any thread count).
    pub fn with_attribs_and_threads(
        attribs: &ContextAttribs,
        share: Option<&Context>,
        threads: usize,
    ) -> Result<Context, ContextError> {
        let reported = Reported::new(attribs, crate::api::version::override_version())?;
        let (group, front_end, back_end) = match share {
            // The new context joins the group and compiles as its peer does (tests swap in
            // stand-in compilers; a group's programs must come from one compiler).
            Some(c) => (c.group.clone(), c.front_end.clone(), c.back_end.clone()),
            None => {
                let table = Arc::new(DescriptorTable::new());
                let front_end: FrontEnd = Arc::new(crate::glsl::compile);
                let back_end: BackEnd = Arc::new(crate::jit::compile);
                (
                    Arc::new(ShareGroup::new(table.clone(), table)),
                    front_end,
                    back_end,
                )
            }
        };
        Ok(Context::build(
            reported, threads, group, front_end, back_end,
        ))
    }

    /// Points the default framebuffer at `surface` (EGL MakeCurrent with a pbuffer), or at
    /// none (EGL_NO_SURFACE: default framebuffer incomplete, GL_FRAMEBUFFER_UNDEFINED).
    /// The first time a context gets a surface, viewport and scissor become its size
    /// (GL 4.5 core §13.6.1, §14.9: "when a GL context is first attached to a window").
    pub fn set_default_surface(&mut self, surface: Option<&Surface>) {
        if let Some(s) = surface {
            if !self.default_fb.had_surface {
                // Every viewport and scissor box of the array (§13.6.1, §14.9.2).
                let (w, h) = (s.width() as i32, s.height() as i32);
                for i in 0..limits::MAX_VIEWPORTS {
                    let _ = self.set_viewport(i, [0.0, 0.0, w as f32, h as f32]);
                    let _ = self.set_scissor(i, [0, 0, w, h]);
                }
                self.default_fb.had_surface = true;
                self.dirty |= dirty::RASTER;
            }
        }
        self.default_fb.surface = surface.cloned();
        self.dirty |= dirty::TARGET;
    }

    /// The surface the default framebuffer renders into, if any.
    pub fn default_surface(&self) -> Option<&Surface> {
        self.default_fb.surface.as_ref()
    }

    /// The attributes the context was created with.
    pub fn attribs(&self) -> &ContextAttribs {
        &self.reported.attribs
    }

    /// The GL version the context reports (GL_MAJOR_VERSION, GL_MINOR_VERSION).
    pub fn version(&self) -> (u32, u32) {
        (self.reported.major, self.reported.minor)
    }

    pub(crate) fn with_parts(
        width: u32,
        height: u32,
        threads: usize,
        table: Arc<DescriptorTable>,
        descriptors: Arc<dyn DescriptorAlloc>,
        front_end: FrontEnd,
        back_end: BackEnd,
    ) -> Context {
        // As `with_attribs` with EGL's defaults except that this is a debug context: a
        // headless Rust program has no other way to ask for one, and the debug output is
        // where misuse (stale bindless handles, GL errors) is reported. Version 1.0 is never
        // refused, and the override, when set, applies here too.
        let attribs = ContextAttribs {
            debug: true,
            ..ContextAttribs::default()
        };
        let reported =
            Reported::new(&attribs, crate::api::version::override_version()).unwrap_or(Reported {
                attribs,
                major: crate::api::version::HONEST_VERSION.0,
                minor: crate::api::version::HONEST_VERSION.1,
                overridden: false,
            });
        let group = Arc::new(ShareGroup::new(table, descriptors));
        let mut c = Context::build(reported, threads, group, front_end, back_end);
        let (w, h) = (
            width.min(limits::MAX_VIEWPORT_DIMS as u32),
            height.min(limits::MAX_VIEWPORT_DIMS as u32),
        );
        // Sizes are clamped to the limit `Surface::new` checks, so it cannot fail.
        if let Ok(s) = Surface::new(w, h, true) {
            c.set_default_surface(Some(&s));
        }
        c
    }

    fn build(
        reported: Reported,
        threads: usize,
        group: Arc<ShareGroup>,
        front_end: FrontEnd,
        back_end: BackEnd,
    ) -> Context {
        let (table, descriptors) = (group.table.clone(), group.descriptors.clone());
        // No surface yet: viewport and scissor are 0×0 until the first one
        // (`set_default_surface`).
        let fixed = FixedState {
            viewport: [0; 4],
            depth_range: [0.0, 1.0],
            scissor_box: [0; 4],
            scissor_test: false,
            depth_test: false,
            cull_face_enabled: false,
            cull_face: CullFace::Back,
            front_face: FrontFace::Ccw,
            provoking_first: false,
            patch: crate::raster::PatchState::INITIAL,
            depth_func: CompareFunc::Less,
            depth_mask: true,
            stencil: crate::api::stencil::StencilGl::INITIAL,
            blend: [BlendState::INITIAL; limits::MAX_DRAW_BUFFERS as usize],
            color_mask: [[true; 4]; limits::MAX_DRAW_BUFFERS as usize],
            clear_color: [0.0; 4],
            clear_depth: 1.0,
            clear_stencil: 0,
            dither: true,
            framebuffer_srgb: false,
            color_logic_op: false,
            logic_op: gl::COPY,
            debug_output_synchronous: false,
            multisample: true,
            sample_mask_enabled: false,
            sample_mask: !0,
            sample_coverage: false,
            sample_coverage_value: 1.0,
            sample_coverage_invert: false,
            sample_shading: false,
            min_sample_shading: 0.0,
            line_smooth: false,
            polygon_smooth: false,
            cube_map_seamless: false,
            program_point_size: false,
            rasterizer_discard: false,
            point_size: 1.0,
            line_width: 1.0,
            prims: crate::api::draw::PrimitiveFixed::INITIAL,
            clip: crate::api::viewport::ClipFixed::INITIAL,
        };
        let sampler_debug: DebugSink = Arc::new(Mutex::new(Vec::new()));
        let resident = Arc::new(ResidentSet::default());
        let derived = Derived {
            raster: Self::derive_raster(&fixed),
            target: Err(0),
            sampler: Arc::new(SampleContext {
                table: table.clone(),
                resident: resident.clone(),
                debug: sampler_debug.clone(),
                images: Arc::default(),
            }),
        };
        // KHR_debug's state table: DEBUG_OUTPUT starts TRUE in a debug context, FALSE
        // otherwise.
        let mut errors = ErrorState::default();
        errors.output = reported.attribs.debug;
        Context {
            errors,
            sampler_debug,
            front_end,
            back_end,
            raster: Rasterizer::new(threads.max(1)),
            objs: SharedObjects::default(),
            group,
            group_held: false,
            in_command: false,
            id: crate::api::share::next_context_id(),
            vertex_arrays: NameTable::default(),
            default_texture: Texture::default(),
            default_texture_2d_array: Texture::default(),
            default_texture_cube: Texture::of_target(crate::gl::enums::TEXTURE_CUBE_MAP),
            default_texture_3d: Texture::of_target(crate::gl::enums::TEXTURE_3D),
            default_texture_ms: Texture::of_target(crate::gl::enums::TEXTURE_2D_MULTISAMPLE),
            default_texture_ms_array: Texture::of_target(
                crate::gl::enums::TEXTURE_2D_MULTISAMPLE_ARRAY,
            ),
            default_textures_more: crate::api::texture::MORE_TARGETS
                .iter()
                .map(|&t| Texture::of_target(t))
                .collect(),
            framebuffers: NameTable::default(),
            array_buffer: None,
            loose_element_buffer: None,
            generic_buffers: HashMap::new(),
            uniform_bindings: vec![
                BufferBinding::default();
                limits::MAX_UNIFORM_BUFFER_BINDINGS as usize
            ],
            storage_bindings: vec![
                BufferBinding::default();
                limits::MAX_SHADER_STORAGE_BUFFER_BINDINGS as usize
            ],
            image_units: Default::default(),
            atomic_counter_bindings: vec![
                BufferBinding::default();
                crate::ir::atomic_counter::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS
                    as usize
            ],
            vertex_array: None,
            current_attribs: [CurrentAttrib::INITIAL; limits::MAX_VERTEX_ATTRIBS as usize],
            hints: Default::default(),
            program: None,
            pipelines: Default::default(),
            subroutine_selection: Default::default(),
            active_texture: 0,
            texture_units: vec![None; limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS as usize],
            texture_units_2d_array: vec![None; limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS as usize],
            texture_units_cube: vec![None; limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS as usize],
            texture_units_3d: vec![None; limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS as usize],
            texture_units_ms: vec![None; limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS as usize],
            texture_units_ms_array: vec![None; limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS as usize],
            texture_units_more: vec![
                vec![None; limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS as usize];
                crate::api::texture::MORE_TARGETS.len()
            ],
            sampler_units: vec![None; limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS as usize],
            draw_framebuffer: None,
            read_framebuffer: None,
            renderbuffer: None,
            default_fb: DefaultFramebuffer {
                surface: None,
                had_surface: false,
                draw_buffer: gl::BACK,
                read_buffer: gl::BACK,
            },
            unpack: crate::api::pixels::PixelStore::INITIAL,
            pack: crate::api::pixels::PixelStore::INITIAL,
            clamp_read_color: gl::FIXED_ONLY,
            fixed,
            table,
            descriptors,
            resident,
            resident_images: Default::default(),
            retired_descriptors: Vec::new(),
            proxy_levels: Default::default(),
            dirty: dirty::ALL,
            derived,
            robustness: crate::api::robustness::Robustness::new(
                reported.attribs.lose_context_on_reset,
            ),
            reported,
            queries: Default::default(),
            xfb: Default::default(),
            #[cfg(test)]
            captured: Vec::new(),
        }
    }

    /// How many GL errors this context has recorded so far: the C getters compare it
    /// before and after a call, so a failed query writes nothing.
    pub(crate) fn errors_recorded(&self) -> u64 {
        self.errors.recorded()
    }

    /// glGetError (GL 4.5 core §2.3.1).
    pub fn get_error(&mut self) -> u32 {
        self.errors.take()
    }

    /// Drains the KHR_debug message log: GL errors, and messages from the sampler (invalid or
    /// non-resident bindless handles used by shaders).
    pub fn debug_messages(&mut self) -> Vec<DebugMessage> {
        let sampled: Vec<String> = match self.sampler_debug.lock() {
            Ok(mut v) => std::mem::take(&mut *v),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        };
        for message in sampled {
            self.errors.push(DebugMessage {
                source: gl::DEBUG_SOURCE_API,
                ty: gl::DEBUG_TYPE_UNDEFINED_BEHAVIOR,
                id: 1,
                severity: gl::DEBUG_SEVERITY_HIGH,
                message,
            });
        }
        self.errors.drain()
    }

    /// Runs all queued work, then frees descriptors no queued draw can use any more and
    /// reports the draws whose shaders ran out of their loop budget (`robustness.rs`).
    pub(crate) fn flush_raster(&mut self) -> Flushed {
        let flushed = self.raster.flush();
        self.queries.note_flush();
        for h in self.retired_descriptors.drain(..) {
            self.descriptors.remove(h);
        }
        self.report_loop_trips(true);
        flushed
    }

    pub(crate) fn try_finish(&mut self) -> GlResult<()> {
        let _ = self.flush_raster();
        Ok(())
    }

    pub(crate) fn try_flush(&mut self) -> GlResult<()> {
        let _ = self.flush_raster();
        Ok(())
    }

    /// The rasterizer's worker count.
    pub fn threads(&self) -> usize {
        self.raster.threads()
    }

    /// Queues a validated draw: active queries see it, conditional rendering may discard
    /// it (`query_object.rs`).
    pub(crate) fn queue_draw(&mut self, call: DrawCall) {
        let Some(call) = self.apply_queries(call) else {
            return;
        };
        #[cfg(test)]
        self.captured.push(CapturedDraw {
            vertices: call.vertices.clone(),
            vs: call.vs_data.clone(),
            fs: call.fs_data.clone(),
            state: call.state,
            target: call.target.clone(),
            sampler: call.sampler.clone(),
        });
        self.raster.draw(call);
    }

    pub(crate) fn queue_clear(&mut self, call: ClearCall) {
        // GL 4.5 core §10.9: conditional rendering discards clears too.
        if self.queries.discards_rendering() {
            return;
        }
        self.raster.clear(call);
    }

    fn derive_raster(f: &FixedState) -> RasterState {
        RasterState {
            viewport: f.viewport,
            depth_range: f.depth_range,
            scissor: f.scissor_test.then_some(f.scissor_box),
            cull_face: f.cull_face_enabled.then_some(f.cull_face),
            front_face: f.front_face,
            provoking_first: f.provoking_first,
            patch: f.patch,
            depth_func: f.depth_test.then_some(f.depth_func),
            // GL 4.5 core §17.3.4: with the depth test disabled the depth buffer is not
            // updated.
            depth_mask: f.depth_mask && f.depth_test,
            stencil: f.stencil.derive(),
            blend: f.blend[0],
            color_mask: f.color_mask[0],
            per_buffer: crate::api::blend::per_buffer(f),
            prims: crate::api::draw::derive_prims(f),
            clip: f.clip.derive(),
            multisample: crate::raster::multisample::MultisampleState {
                enabled: f.multisample,
                mask: if f.sample_mask_enabled {
                    f.sample_mask
                } else {
                    !0
                },
                shift: [0, 0],
            },
            color_ops: crate::raster::ops::ColorOps {
                framebuffer_srgb: f.framebuffer_srgb,
                logic_op: f.color_logic_op.then_some((f.logic_op - gl::CLEAR) as u8),
            },
        }
    }

    /// Turns dirty state into the derived state a draw or clear snapshots.
    pub(crate) fn update_derived(&mut self) {
        // The sample coverage mask depends on the target's sample count too.
        let coverage = self.fixed.sample_coverage && self.dirty & dirty::TARGET != 0;
        if self.dirty & dirty::RASTER != 0 || coverage {
            self.derived.raster = Self::derive_raster(&self.fixed);
        }
        if self.dirty & dirty::TARGET != 0 {
            self.derived.target = self.draw_target();
        }
        if self.fixed.sample_coverage && self.dirty & (dirty::RASTER | dirty::TARGET) != 0 {
            let samples = self.derived.target.as_ref().map_or(0, |t| t.samples);
            self.derived.raster.multisample.mask &= crate::api::multisample::coverage_mask(
                samples,
                self.fixed.sample_coverage_value,
                self.fixed.sample_coverage_invert,
            );
        }
        if self.dirty & dirty::SAMPLER != 0 {
            self.derived.sampler = Arc::new(SampleContext {
                table: self.table.clone(),
                resident: self.resident.clone(),
                debug: self.sampler_debug.clone(),
                images: Arc::default(),
            });
        }
        self.dirty = 0;
    }

    // ---- fixed-function state (GL 4.5 core chapter 17) ----

    fn cap(&mut self, cap: u32) -> GlResult<&mut bool> {
        Ok(match cap {
            gl::DEPTH_TEST => &mut self.fixed.depth_test,
            gl::STENCIL_TEST => &mut self.fixed.stencil.test,
            gl::BLEND => &mut self.fixed.blend[0].enabled,
            gl::CULL_FACE => &mut self.fixed.cull_face_enabled,
            gl::SCISSOR_TEST => &mut self.fixed.scissor_test,
            // Dithering is allowed to do nothing (GL 4.5 core §17.3.9).
            gl::DITHER => &mut self.fixed.dither,
            gl::FRAMEBUFFER_SRGB => &mut self.fixed.framebuffer_srgb,
            gl::COLOR_LOGIC_OP => &mut self.fixed.color_logic_op,
            gl::DEBUG_OUTPUT => &mut self.errors.output,
            gl::DEBUG_OUTPUT_SYNCHRONOUS => &mut self.fixed.debug_output_synchronous,
            gl::MULTISAMPLE => &mut self.fixed.multisample,
            gl::SAMPLE_MASK => &mut self.fixed.sample_mask_enabled,
            gl::SAMPLE_COVERAGE => &mut self.fixed.sample_coverage,
            gl::SAMPLE_SHADING => &mut self.fixed.sample_shading,
            gl::LINE_SMOOTH => &mut self.fixed.line_smooth,
            gl::POLYGON_SMOOTH => &mut self.fixed.polygon_smooth,
            gl::TEXTURE_CUBE_MAP_SEAMLESS => &mut self.fixed.cube_map_seamless,
            gl::PROGRAM_POINT_SIZE => &mut self.fixed.program_point_size,
            gl::RASTERIZER_DISCARD => &mut self.fixed.rasterizer_discard,
            gl::PRIMITIVE_RESTART => &mut self.fixed.prims.restart,
            gl::PRIMITIVE_RESTART_FIXED_INDEX => &mut self.fixed.prims.restart_fixed,
            gl::POLYGON_OFFSET_FILL => &mut self.fixed.prims.offset_fill,
            gl::POLYGON_OFFSET_LINE => &mut self.fixed.prims.offset_line,
            gl::POLYGON_OFFSET_POINT => &mut self.fixed.prims.offset_point,
            gl::DEPTH_CLAMP => &mut self.fixed.clip.depth_clamp,
            c if (gl::CLIP_DISTANCE0..gl::CLIP_DISTANCE0 + 8).contains(&c) => {
                &mut self.fixed.clip.clip_distances[(c - gl::CLIP_DISTANCE0) as usize]
            }
            _ => return Err(GlError::BadEnum("capability not supported", cap)),
        })
    }

    pub(crate) fn try_enable(&mut self, cap: u32) -> GlResult<()> {
        if cap == gl::BLEND {
            return self.try_enablei_all(cap, true);
        }
        if cap == gl::SCISSOR_TEST {
            return self.set_scissor_test(None, true);
        }
        let r = self.cap(cap).map(|c| *c = true);
        self.dirty |= dirty::RASTER;
        r
    }

    pub(crate) fn try_disable(&mut self, cap: u32) -> GlResult<()> {
        if cap == gl::BLEND {
            return self.try_enablei_all(cap, false);
        }
        if cap == gl::SCISSOR_TEST {
            return self.set_scissor_test(None, false);
        }
        let r = self.cap(cap).map(|c| *c = false);
        self.dirty |= dirty::RASTER;
        r
    }

    pub(crate) fn try_is_enabled(&mut self, cap: u32) -> GlResult<bool> {
        self.cap(cap).map(|c| *c)
    }

    /// glViewport sets every viewport (ARB_viewport_array; GL 4.5 core §13.6.1).
    pub(crate) fn try_viewport(&mut self, x: i32, y: i32, width: i32, height: i32) -> GlResult<()> {
        let v = [x, y, width, height].map(|v| v as f32);
        for i in 0..limits::MAX_VIEWPORTS {
            self.set_viewport(i, v)?;
        }
        Ok(())
    }

    /// glDepthRange sets every viewport's depth range (§13.6.1).
    pub(crate) fn try_depth_range(&mut self, near: f64, far: f64) -> GlResult<()> {
        for i in 0..limits::MAX_VIEWPORTS {
            self.set_depth_range(i, [near, far]);
        }
        Ok(())
    }

    /// glScissor sets every scissor box (§14.9.2).
    pub(crate) fn try_scissor(&mut self, x: i32, y: i32, width: i32, height: i32) -> GlResult<()> {
        for i in 0..limits::MAX_VIEWPORTS {
            self.set_scissor(i, [x, y, width, height])?;
        }
        Ok(())
    }

    pub(crate) fn try_clear_color(&mut self, r: f32, g: f32, b: f32, a: f32) -> GlResult<()> {
        self.fixed.clear_color = [r, g, b, a];
        Ok(())
    }

    pub(crate) fn try_clear_depth(&mut self, depth: f64) -> GlResult<()> {
        self.fixed.clear_depth = depth.clamp(0.0, 1.0);
        Ok(())
    }

    pub(crate) fn try_clear_depthf(&mut self, depth: f32) -> GlResult<()> {
        self.clear_depth(depth as f64);
        Ok(())
    }

    pub(crate) fn try_clear_stencil(&mut self, s: i32) -> GlResult<()> {
        self.fixed.clear_stencil = s;
        Ok(())
    }

    pub(crate) fn try_depth_func(&mut self, func: u32) -> GlResult<()> {
        let Some(func) = CompareFunc::from_gl(func) else {
            return Err(GlError::BadEnum("depth function", func));
        };
        self.fixed.depth_func = func;
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_depth_mask(&mut self, flag: bool) -> GlResult<()> {
        self.fixed.depth_mask = flag;
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_color_mask(&mut self, r: bool, g: bool, b: bool, a: bool) -> GlResult<()> {
        self.fixed.color_mask = [[r, g, b, a]; limits::MAX_DRAW_BUFFERS as usize];
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn check_blend_factor(f: u32) -> GlResult<BlendFactor> {
        // The dual-source factors (SRC1_*) included (ARB_blend_func_extended).
        BlendFactor::from_gl(f).ok_or(GlError::BadEnum("blend factor", f))
    }

    pub(crate) fn check_blend_equation(e: u32) -> GlResult<BlendEquation> {
        BlendEquation::from_gl(e).ok_or(GlError::BadEnum("blend equation", e))
    }

    pub(crate) fn try_blend_func(&mut self, sfactor: u32, dfactor: u32) -> GlResult<()> {
        self.blend_func_separate(sfactor, dfactor, sfactor, dfactor);
        Ok(())
    }

    pub(crate) fn try_blend_func_separate(
        &mut self,
        src_rgb: u32,
        dst_rgb: u32,
        src_a: u32,
        dst_a: u32,
    ) -> GlResult<()> {
        let [a, b, c, d] = [
            Self::check_blend_factor(src_rgb)?,
            Self::check_blend_factor(dst_rgb)?,
            Self::check_blend_factor(src_a)?,
            Self::check_blend_factor(dst_a)?,
        ];
        for bl in &mut self.fixed.blend {
            (bl.src_rgb, bl.dst_rgb, bl.src_alpha, bl.dst_alpha) = (a, b, c, d);
        }
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_blend_equation(&mut self, mode: u32) -> GlResult<()> {
        self.try_blend_equation_separate(mode, mode)
    }

    pub(crate) fn try_blend_equation_separate(
        &mut self,
        mode_rgb: u32,
        mode_alpha: u32,
    ) -> GlResult<()> {
        let (a, b) = (
            Self::check_blend_equation(mode_rgb)?,
            Self::check_blend_equation(mode_alpha)?,
        );
        for bl in &mut self.fixed.blend {
            (bl.eq_rgb, bl.eq_alpha) = (a, b);
        }
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_blend_color(&mut self, r: f32, g: f32, b: f32, a: f32) -> GlResult<()> {
        for bl in &mut self.fixed.blend {
            bl.color = [r, g, b, a];
        }
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_cull_face(&mut self, mode: u32) -> GlResult<()> {
        let Some(mode) = CullFace::from_gl(mode) else {
            return Err(GlError::BadEnum("cull face mode", mode));
        };
        self.fixed.cull_face = mode;
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_front_face(&mut self, mode: u32) -> GlResult<()> {
        let Some(mode) = FrontFace::from_gl(mode) else {
            return Err(GlError::BadEnum("front face mode", mode));
        };
        self.fixed.front_face = mode;
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_provoking_vertex(&mut self, mode: u32) -> GlResult<()> {
        let first = match mode {
            gl::LAST_VERTEX_CONVENTION => false,
            gl::FIRST_VERTEX_CONVENTION => true,
            _ => return Err(GlError::BadEnum("provoking vertex mode", mode)),
        };
        self.fixed.provoking_first = first;
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_point_size(&mut self, size: f32) -> GlResult<()> {
        if size.is_nan() || size <= 0.0 {
            return Err(GlError::InvalidValue("point size must be greater than 0"));
        }
        self.fixed.point_size = size;
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_line_width(&mut self, width: f32) -> GlResult<()> {
        if width.is_nan() || width <= 0.0 {
            return Err(GlError::InvalidValue("line width must be greater than 0"));
        }
        self.fixed.line_width = width;
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_pixel_storei(&mut self, pname: u32, param: i32) -> GlResult<()> {
        let (pack, field) = crate::api::pixels::store_param(pname)
            .ok_or(GlError::BadEnum("pixel-store parameter", pname))?;
        let store = if pack {
            &mut self.pack
        } else {
            &mut self.unpack
        };
        store.set(field, param)
    }
}
