//! The draw snapshot: everything one draw call needs, captured by the API at draw time
//! (state, uniforms, buffers, shaders, resident set, targets), so that queued draws never see
//! later API changes. The API builds it; the rasterizer consumes it.

use std::sync::Arc;

use super::multisample::{MultisampleState, SamplePlane};
use crate::gl::{
    AttribType, BlendEquation, BlendFactor, CompareFunc, CullFace, FrontFace, StencilOp,
};
use crate::ir::link::VaryingLink;
use crate::jit::{ShaderCode, StageData};
use crate::sampler::{Image, SampleContext};

/// Primitive topology (GL 4.5 core §10.1). The front end rewrites adjacency modes and draws
/// with primitive restart into the plain lists (`raster::restart`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Topology {
    Points,
    Lines,
    LineStrip,
    LineLoop,
    Triangles,
    TriangleStrip,
    TriangleFan,
    LinesAdjacency,
    LineStripAdjacency,
    TrianglesAdjacency,
    TriangleStripAdjacency,
    /// GL_PATCHES (GL 4.5 core §10.1.15): only with a tessellation evaluation stage, which
    /// cuts the elements into patches (`raster::tess`); the rasterizer sees what it makes.
    Patches,
}

impl Topology {
    /// Whether the topology makes triangles (adjacency forms included).
    pub fn is_triangles(self) -> bool {
        matches!(
            self,
            Topology::Triangles
                | Topology::TriangleStrip
                | Topology::TriangleFan
                | Topology::TrianglesAdjacency
                | Topology::TriangleStripAdjacency
        )
    }
}

/// How an attribute's components become shader input words (GL 4.5 core §10.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AttribMode {
    /// glVertexAttribPointer: converted to float (normalized or not).
    Float,
    /// glVertexAttribIPointer: integer bits kept.
    Integer,
    /// glVertexAttribLPointer: 64-bit components (GL_UNSIGNED_INT64_ARB / GL_DOUBLE), each
    /// giving two words, low first.
    Long,
}

/// One enabled (or constant) vertex attribute. It fills the 4 input words `slot .. slot + 4`
/// of the vertex shader (components the array lacks default to (0, 0, 0, 1); for `Long`
/// attributes component c fills words `slot + 2c, slot + 2c + 1`).
#[derive(Clone, Debug)]
pub struct VertexAttrib {
    /// First input word (the linked program maps attribute locations to slots).
    pub slot: u32,
    pub source: AttribSource,
}

#[derive(Clone, Debug)]
pub enum AttribSource {
    /// An enabled array. `data` is the buffer's contents at draw time.
    Array {
        data: Arc<Vec<u8>>,
        offset: usize,
        /// Effective stride in bytes (never 0: tightly packed strides are resolved).
        stride: usize,
        /// 1..=4 components.
        size: u8,
        /// Component type (GL_FLOAT, GL_HALF_FLOAT, GL_BYTE, GL_UNSIGNED_BYTE, GL_SHORT,
        /// GL_UNSIGNED_SHORT, GL_INT, GL_UNSIGNED_INT, GL_DOUBLE, GL_UNSIGNED_INT64_ARB.
        ty: AttribType,
        normalized: bool,
        mode: AttribMode,
        /// 0: per vertex; N: advances every N instances.
        divisor: u32,
    },
    /// A disabled array: the current generic attribute value (4 words; for 64-bit
    /// attributes, words 0..2 hold the first component).
    Constant([u32; 4]),
}

/// The element array of an indexed draw.
#[derive(Clone, Debug)]
pub struct IndexSource {
    pub data: Arc<Vec<u8>>,
    /// Byte offset of the first index.
    pub offset: usize,
    /// 1, 2 or 4 bytes per index.
    pub index_bytes: u8,
    /// The primitive restart index, when restart is on (GL 4.5 core §10.3.6): compared with
    /// the index as read, before the base vertex is added.
    pub restart: Option<u32>,
}

/// Vertices and instances to draw.
#[derive(Clone, Debug)]
pub struct VertexInput {
    pub attribs: Vec<VertexAttrib>,
    /// Words per vertex of the vertex shader's input slots.
    pub input_words: u32,
    pub indices: Option<IndexSource>,
    pub first: u32,
    pub count: u32,
    pub instance_count: u32,
    pub base_vertex: i32,
    pub base_instance: u32,
}

/// The compiled stages of a linked program and how they connect.
pub struct ProgramCode {
    pub vs: Arc<dyn ShaderCode>,
    pub fs: Arc<dyn ShaderCode>,
    /// Words per vertex written by the vertex shader.
    pub vs_output_words: u32,
    /// First of the 4 words of gl_Position in the vertex outputs.
    pub position_slot: u32,
    /// Output word of gl_PointSize, when the vertex shader writes it.
    pub point_size_slot: Option<u32>,
    /// Output word of gl_ClipDistance[0] and the array's size, when the vertex shader
    /// writes it (GL 4.5 core §13.5).
    pub clip_distances: Option<(u32, u32)>,
    /// Output word of gl_CullDistance[0] and the array's size, when the vertex shader
    /// writes it (GL_ARB_cull_distance; no enable: every element culls).
    pub cull_distances: Option<(u32, u32)>,
    /// Words per fragment read by the fragment shader.
    pub fs_input_words: u32,
    pub varyings: Vec<VaryingLink>,
    /// Output word of the fragment shader's index-1 colour (dual-source blending), which
    /// draw buffer 0's SRC1_* blend factors read.
    pub src1_slot: Option<u32>,
    /// Words per fragment written by the fragment shader.
    pub fs_output_words: u32,
    /// `color_slots[i]`: first of the 4 output words of colour output location `i`
    /// (draw buffer i), `None` when the shader does not write it.
    pub color_slots: Vec<Option<u32>>,
    /// Output word of gl_FragDepth, when written.
    pub frag_depth_slot: Option<u32>,
    pub uses_discard: bool,
    pub early_fragment_tests: bool,
    /// gl_FragCoord.y counts down from the top of the target (`layout(origin_upper_left)`,
    /// GLSL 1.50 §4.3.8.1).
    pub frag_coord_origin_upper_left: bool,
    /// gl_FragCoord.xy of a pixel centre are integers (`layout(pixel_center_integer)`).
    pub frag_coord_pixel_center_integer: bool,
    /// The geometry stage, when the program has one (`raster::geometry`). Then
    /// `position_slot`, `point_size_slot`, `clip_distances` and `varyings` name words of
    /// the vertices it emits, and `vs_output_words` stays the vertex shader's.
    pub gs: Option<Arc<GeometryCode>>,
    /// Output words of gl_Layer and gl_ViewportIndex when the vertex shader of a program
    /// without a geometry stage writes them (GL_ARB_shader_viewport_layer_array): then the
    /// provoking vertex's values pick each primitive's layer and viewport, as a geometry
    /// shader's do (`GeometryCode::layer_slot`).
    pub vs_select_slots: [Option<u32>; 2],
    /// The tessellation stages, when the program has them (`raster::tess`). Then
    /// `position_slot`, `point_size_slot`, `clip_distances` and `varyings` name words of
    /// the evaluation shader's output, and `vs_output_words` stays the vertex shader's.
    pub tess: Option<Arc<TessCode>>,
}

impl ProgramCode {
    /// The varying that carries gl_PrimitiveID to a fragment shader of a program without
    /// a geometry stage (`ir::link::PRIMITIVE_ID_SLOT`): the rasterizer fills its flat word
    /// with each primitive's number.
    pub fn primitive_id_varying(&self) -> Option<usize> {
        self.varyings
            .iter()
            .position(|l| l.vs_slot == crate::ir::link::PRIMITIVE_ID_SLOT)
    }

    /// The topology the rasterizer and transform feedback see for a draw of `draw`: what
    /// the geometry shader emits or the tessellator makes, else the draw's own.
    pub fn last_topology(&self, draw: Topology) -> Topology {
        match (&self.gs, &self.tess) {
            (Some(g), _) => super::geometry::output_topology(g),
            (None, Some(t)) => super::tess::output_topology(t),
            _ => draw,
        }
    }

    /// The output words of gl_Layer and gl_ViewportIndex of the last vertex stage, when it
    /// writes them (`Selection`).
    pub fn select_slots(&self) -> [Option<u32>; 2] {
        match &self.gs {
            Some(g) => [g.layer_slot, g.viewport_slot],
            None => self.vs_select_slots,
        }
    }
}

/// A linked geometry stage (GL 3.2 core §11.3): its code runs with the vertex stage's
/// data (`ir::geometry::merge_into_vertex`), one lane per input primitive and invocation.
pub struct GeometryCode {
    pub code: Arc<dyn ShaderCode>,
    pub input: crate::ir::geometry::InputPrimitive,
    pub output: crate::ir::geometry::OutputPrimitive,
    pub max_vertices: u32,
    pub invocations: u32,
    /// Words of one emitted vertex (`ir::geometry` record layout).
    pub vertex_words: u32,
    /// Where each input word comes from.
    pub inputs: Vec<crate::ir::geometry::InputSource>,
    /// Words of the emitted vertex holding gl_Layer and gl_ViewportIndex, when the shader
    /// writes them: the provoking vertex's values pick each primitive's layer and viewport
    /// (`DrawCall::select`).
    pub layer_slot: Option<u32>,
    pub viewport_slot: Option<u32>,
}

/// Linked tessellation stages (GL 4.0 core §11.2): the control shader (if any) runs one
/// lane per patch with the vertex stage's data, the evaluation shader one lane per
/// generated vertex (`ir::tess`, `raster::tess`).
pub struct TessCode {
    pub control: Option<Arc<dyn ShaderCode>>,
    /// Output patch vertices of the control shader (`layout(vertices = N)`).
    pub vertices: u32,
    /// Words of the control shader's output record of one patch.
    pub control_words: u32,
    /// Where gl_TessLevelOuter[0] and gl_TessLevelInner[0] are in that record, when the
    /// control shader writes them (unwritten levels read 0, discarding the patch).
    pub outer_slot: Option<u32>,
    pub inner_slot: Option<u32>,
    pub eval: Arc<dyn ShaderCode>,
    /// Output words of one evaluated vertex.
    pub eval_words: u32,
    pub inputs: crate::ir::tess::TessInputs,
    pub mode: crate::ir::tess::Mode,
    pub spacing: crate::ir::tess::Spacing,
    pub cw: bool,
    pub point_mode: bool,
}

/// glPatchParameteri / glPatchParameterfv state (GL 4.5 core §10.1.15, §11.2.3).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PatchState {
    /// GL_PATCH_VERTICES: vertices per patch of a GL_PATCHES draw.
    pub vertices: u32,
    /// GL_PATCH_DEFAULT_OUTER_LEVEL / _INNER_LEVEL: the levels without a control shader.
    pub outer: [f32; 4],
    pub inner: [f32; 2],
}

impl PatchState {
    /// GL's initial state (GL 4.5 core table 23.67): 3 vertices, levels 1.
    pub const INITIAL: PatchState = PatchState {
        vertices: 3,
        outer: [1.0; 4],
        inner: [1.0; 2],
    };
}

#[derive(Copy, Clone, Debug, PartialEq)]
pub struct BlendState {
    pub enabled: bool,
    pub src_rgb: BlendFactor,
    pub dst_rgb: BlendFactor,
    pub src_alpha: BlendFactor,
    pub dst_alpha: BlendFactor,
    pub eq_rgb: BlendEquation,
    pub eq_alpha: BlendEquation,
    pub color: [f32; 4],
}

impl BlendState {
    /// GL's initial blend state (GL 4.5 core table 23.11): off, ONE/ZERO, FUNC_ADD, constant
    /// colour (0, 0, 0, 0).
    pub const INITIAL: BlendState = BlendState {
        enabled: false,
        src_rgb: BlendFactor::One,
        dst_rgb: BlendFactor::Zero,
        src_alpha: BlendFactor::One,
        dst_alpha: BlendFactor::Zero,
        eq_rgb: BlendEquation::Add,
        eq_alpha: BlendEquation::Add,
        color: [0.0; 4],
    };
}

/// The blend state and colour mask of one draw buffer (ARB_draw_buffers_blend).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct BufferBlend {
    pub blend: BlendState,
    pub color_mask: [bool; 4],
}

/// Draw buffers with their own blend state and colour mask: GL's 8.
pub const MAX_DRAW_BUFFERS: usize = crate::ir::link::MAX_DRAW_BUFFERS as usize;

/// One face's stencil test and operations (GL 4.5 core §17.3.5) as a draw applies them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StencilFace {
    pub func: CompareFunc,
    /// glStencilOp's sfail, dpfail, dppass.
    pub sfail: StencilOp,
    pub dpfail: StencilOp,
    pub dppass: StencilOp,
    /// The reference value, already clamped to [0, 2^s − 1] (s = 8, the only stencil size
    /// softgl stores).
    pub reference: u8,
    /// glStencilFunc's mask, and glStencilMask's, both cut to the buffer's 8 bits.
    pub value_mask: u8,
    pub write_mask: u8,
}

/// The stencil test of a draw, when GL_STENCIL_TEST is on: front-facing triangles use
/// `front`, back-facing ones `back` (the facing culling uses, GL 4.5 core §14.6.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StencilState {
    pub front: StencilFace,
    pub back: StencilFace,
}

/// Fixed-function state that affects rasterization and per-fragment operations.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RasterState {
    /// x, y, width, height.
    pub viewport: [i32; 4],
    /// glDepthRange near, far.
    pub depth_range: [f64; 2],
    /// x, y, width, height, when GL_SCISSOR_TEST is on.
    pub scissor: Option<[i32; 4]>,
    /// The faces culled, when GL_CULL_FACE is on.
    pub cull_face: Option<CullFace>,
    pub front_face: FrontFace,
    /// glProvokingVertex: true for GL_FIRST_VERTEX_CONVENTION (GL 4.5 core §13.6), whose
    /// vertex gives `flat` varyings; false for the default, the last vertex.
    pub provoking_first: bool,
    /// Depth function when GL_DEPTH_TEST is on.
    pub depth_func: Option<CompareFunc>,
    pub depth_mask: bool,
    /// The stencil test, when GL_STENCIL_TEST is on (it passes and writes nothing when the
    /// target has no stencil buffer).
    pub stencil: Option<StencilState>,
    /// Blend state of every draw buffer, unless `per_buffer` says otherwise.
    pub blend: BlendState,
    /// Colour write mask (r, g, b, a) of every draw buffer, unless `per_buffer` says
    /// otherwise.
    pub color_mask: [bool; 4],
    /// Each draw buffer's own blend state and colour mask, when glEnablei, glBlendFunci,
    /// glBlendEquationi or glColorMaski made them differ (`None`: `blend` and `color_mask`
    /// for all).
    pub per_buffer: Option<[BufferBlend; MAX_DRAW_BUFFERS]>,
    /// Points, lines and polygon mode (GL 4.5 core §14.4, §14.5, §14.6.4).
    pub prims: PrimState,
    /// Depth clamp, clip control and the enabled clip distances (GL 4.5 core §13.5).
    pub clip: ClipState,
    /// GL_MULTISAMPLE, the sample mask, and the sample pass's vertex shift
    /// (`raster::multisample`).
    pub multisample: MultisampleState,
    /// GL_FRAMEBUFFER_SRGB and the logic op (GL 4.5 core §17.3.9, §17.3.11).
    pub color_ops: super::ops::ColorOps,
    /// glPatchParameter state, for GL_PATCHES draws.
    pub patch: PatchState,
}

/// How primitives are clipped and mapped to the window (GL 4.5 core §13.5, §13.6.1).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ClipState {
    /// GL_DEPTH_CLAMP: no near/far clipping; fragment depths clamp to the depth range.
    pub depth_clamp: bool,
    /// glClipControl origin GL_UPPER_LEFT: window y is flipped (y_w grows with -y_ndc) and
    /// so is the sense of facing.
    pub upper_left: bool,
    /// glClipControl depth mode GL_ZERO_TO_ONE: clip z in [0, w] maps to [n, f] (near plane
    /// z >= 0).
    pub zero_to_one: bool,
    /// GL_CLIP_DISTANCE0..7 enabled (bit i).
    pub distances: u8,
}

impl RasterState {
    /// The blend state and colour mask of draw buffer `i`.
    pub fn buffer(&self, i: usize) -> (&BlendState, [bool; 4]) {
        match self.per_buffer.as_ref().and_then(|p| p.get(i)) {
            Some(b) => (&b.blend, b.color_mask),
            None => (&self.blend, self.color_mask),
        }
    }
}

/// How points and lines rasterize, and polygon mode (GL 4.5 core §14.4–14.6).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PrimState {
    /// glPointSize, already clamped to the supported range.
    pub point_size: f32,
    /// GL_PROGRAM_POINT_SIZE: the size comes from gl_PointSize (clamped the same way).
    pub program_point_size: bool,
    /// GL_POINT_SPRITE_COORD_ORIGIN is GL_LOWER_LEFT (gl_PointCoord.t grows upwards).
    pub sprite_lower_left: bool,
    /// glLineWidth, already clamped to the supported range.
    pub line_width: f32,
    /// glPolygonMode: 0 fill, 1 line, 2 point.
    pub polygon_mode: u8,
    /// glPolygonOffsetClamp factor, units, clamp (GL 4.5 core §14.6.5, GL 4.6 clamp).
    pub offset: [f32; 3],
    /// Where polygon offset applies: bit 0 GL_POLYGON_OFFSET_FILL, bit 1 _LINE, bit 2
    /// _POINT (the polygon modes; never to GL_POINTS or GL_LINES primitives).
    pub offset_modes: u8,
}

impl PrimState {
    /// GL's initial state: size and width 1, UPPER_LEFT sprites, filled polygons.
    pub const INITIAL: PrimState = PrimState {
        point_size: 1.0,
        program_point_size: false,
        sprite_lower_left: false,
        line_width: 1.0,
        polygon_mode: 0,
        offset: [0.0; 3],
        offset_modes: 0,
    };
}

impl RasterState {
    /// GL's initial state (GL 4.5 core tables 23.7–23.11) for a drawable of `w`×`h`: viewport
    /// covering it, depth range [0, 1], no scissor, culling, depth test or blending, CCW front
    /// faces, last-vertex convention, every colour channel written.
    pub fn initial(w: i32, h: i32) -> RasterState {
        RasterState {
            provoking_first: false,
            viewport: [0, 0, w, h],
            depth_range: [0.0, 1.0],
            scissor: None,
            cull_face: None,
            front_face: FrontFace::Ccw,
            depth_func: None,
            depth_mask: true,
            stencil: None,
            blend: BlendState::INITIAL,
            color_mask: [true; 4],
            per_buffer: None,
            prims: PrimState::INITIAL,
            clip: ClipState::default(),
            multisample: MultisampleState::INITIAL,
            color_ops: super::ops::ColorOps {
                framebuffer_srgb: false,
                logic_op: None,
            },
            patch: PatchState::INITIAL,
        }
    }
}

/// Where a draw writes: colour attachments per draw buffer, and depth/stencil.
#[derive(Clone, Debug, Default)]
pub struct RenderTarget {
    pub colors: Vec<Option<Arc<Image>>>,
    /// The depth buffer (a depth format's depth bits).
    pub depth: Option<Arc<Image>>,
    /// The stencil buffer: a `Depth24Stencil8` image's top byte. When both are present they
    /// are the same image (framebuffer completeness keeps them together).
    pub stencil: Option<Arc<Image>>,
    pub width: u32,
    pub height: u32,
    /// GL_SAMPLES: 0 for a single-sample target; else `colors`, `depth` and `stencil` are
    /// sample 0 and `planes` holds samples 1.. (`raster::multisample`).
    pub samples: u32,
    pub planes: Vec<SamplePlane>,
}

/// The images of one layer of a layered framebuffer (GL 4.5 core §9.8): per draw buffer,
/// then depth and stencil, as `RenderTarget` holds layer 0's. An attachment with fewer
/// layers than another has none here past its last one.
#[derive(Clone, Debug, Default)]
pub struct LayerImages {
    pub colors: Vec<Option<Arc<Image>>>,
    pub depth: Option<Arc<Image>>,
    pub stencil: Option<Arc<Image>>,
    /// Samples 1.. of a multisample target's layer, as `RenderTarget::planes`
    /// (`multisample::per_sample_draws` makes each sample's draw select from its own).
    pub planes: Vec<SamplePlane>,
}

/// One viewport of the viewport array with its depth range and scissor rectangle (GL 4.5
/// core §13.6.1, §14.9.2), as `RasterState` holds index 0's.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ViewportState {
    pub viewport: [i32; 4],
    pub depth_range: [f64; 2],
    /// x, y, width, height, when this index's scissor test is on.
    pub scissor: Option<[i32; 4]>,
}

/// What the primitives of a draw whose geometry shader writes gl_Layer or
/// gl_ViewportIndex select from (GL 4.5 core §9.8, §13.6.1). Draws of other programs
/// carry none and cost nothing.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Every layer of the layered draw framebuffer (layer 0 included), when the shader
    /// writes gl_Layer; empty when the framebuffer is not layered (gl_Layer is then
    /// ignored).
    pub layers: Vec<LayerImages>,
    /// Every viewport (GL_MAX_VIEWPORTS), when the shader writes gl_ViewportIndex.
    pub viewports: Vec<ViewportState>,
}

/// A complete draw.
pub struct DrawCall {
    pub topology: Topology,
    pub vertices: VertexInput,
    pub program: Arc<ProgramCode>,
    pub vs_data: StageData,
    pub fs_data: StageData,
    /// The descriptor table and the resident set this draw saw.
    pub sampler: Arc<SampleContext>,
    pub state: RasterState,
    pub target: RenderTarget,
    /// The active occlusion query's counter (GL 4.5 core §4.2: samples that pass the depth
    /// test and are not discarded): each tile adds its count once; `None` (no query
    /// active) costs the tile loop nothing.
    pub samples: Option<Arc<std::sync::atomic::AtomicU64>>,
    /// What transform feedback's capture of this draw already shaded, so that a draw
    /// both captured and rasterized runs its vertex (and geometry) shaders once
    /// (`raster::feedback`); `None`: the front end shades.
    pub preshaded: Option<Arc<Preshaded>>,
    /// The layers and viewports a geometry shader's gl_Layer / gl_ViewportIndex pick from,
    /// when it writes them (`raster::front` bins each primitive with its own).
    pub select: Option<Arc<Selection>>,
}

/// The vertex processing results of a draw that its transform feedback capture computed
/// on the draw's thread (`raster::feedback::capture`), for the front end to use instead
/// of running the shaders again: side effects (storage writes, atomics) happen once.
pub enum Preshaded {
    /// No geometry shader: the output words of each (instance, vertex id) shaded,
    /// `words` each, in `data` at the index `index` gives.
    Vertices {
        words: usize,
        index: std::collections::HashMap<(u32, i64), u32>,
        data: Vec<u32>,
    },
    /// A geometry shader: each window's records and primitives, instances then windows
    /// in order, as `front::bin_geometry` walks them.
    Geometry(Vec<super::geometry::GeometryOut>),
}

impl Preshaded {
    /// The output words of vertex `id` of `instance`, if the capture shaded it.
    pub fn vertex_words(&self, instance: u32, id: i64) -> Option<&[u32]> {
        match self {
            Preshaded::Vertices { words, index, data } => {
                let at = *index.get(&(instance, id))? as usize * words;
                data.get(at..at + words)
            }
            Preshaded::Geometry(_) => None,
        }
    }
}

/// A clear of the current draw framebuffer (GL 4.5 core §17.4.3).
#[derive(Clone, Debug)]
pub struct ClearCall {
    pub target: RenderTarget,
    /// Colour to clear draw buffers to, when GL_COLOR_BUFFER_BIT is set (integers for
    /// glClearBufferiv/uiv).
    pub color: Option<super::ops::ClearColor>,
    /// The colour mask of each draw buffer (GL 4.5 core §17.4.3: clears honour it).
    pub color_mask: [[bool; 4]; MAX_DRAW_BUFFERS],
    /// Depth value, when GL_DEPTH_BUFFER_BIT is set and the depth mask is on.
    pub depth: Option<f64>,
    /// Stencil value, when GL_STENCIL_BUFFER_BIT is set.
    pub stencil: Option<u8>,
    /// The stencil bits the clear writes: glStencilMask of the front face (GL 4.5 core
    /// §17.4.3); the others keep their value.
    pub stencil_mask: u8,
    pub scissor: Option<[i32; 4]>,
}
