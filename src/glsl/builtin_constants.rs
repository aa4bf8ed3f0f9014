//! The built-in constants of GLSL 4.60 §7.3 (`gl_MaxDrawBuffers`, `gl_MaxVertexAttribs`,
//! …): their values, the GLSL version that introduced each, and the GL limit each must
//! equal (GL 4.5 core §7.3: "the values are the same as the corresponding GL state").
//! The API answers glGet from its own tables; `tests/builtin_constants.rs` compiles every
//! constant here against what glGetIntegerv returns, so the two cannot drift apart.
//!
//! Constants of features softgl does not have are left out rather than given a made-up
//! value. A shader naming one fails to compile with "undeclared".

use crate::gl::enums as gl;
use crate::ir::{atomic_counter as atomic, compute, geometry as geo, link, tess};

/// One constant: its name, the first `#version` that has it, the GL limit it equals
/// (`None`: GL has no query of its own for it), and its value (one int, or an ivec3).
pub struct BuiltinConstant {
    pub name: &'static str,
    pub since: u32,
    pub gl_limit: Option<u32>,
    pub value: ConstValue,
}

#[derive(Copy, Clone, Debug, PartialEq)]
pub enum ConstValue {
    Int(i32),
    /// The compute group limits, per dimension (glGetIntegeri_v).
    Ivec3([i32; 3]),
}

const fn c(name: &'static str, since: u32, gl_limit: u32, v: i32) -> BuiltinConstant {
    BuiltinConstant {
        name,
        since,
        gl_limit: Some(gl_limit),
        value: ConstValue::Int(v),
    }
}

/// Texture image units per stage (GL_MAX_TEXTURE_IMAGE_UNITS and its per-stage kin, as the
/// API reports them).
pub const MAX_TEXTURE_IMAGE_UNITS: i32 = 16;
/// GL_MAX_VARYING_COMPONENTS: GL 4.5's minimum (table 23.62), as the API reports it.
pub const MAX_VARYING_COMPONENTS: i32 = 60;
/// GL_MAX_VERTEX_OUTPUT_COMPONENTS and GL_MAX_FRAGMENT_INPUT_COMPONENTS (GL 4.5's minimums).
pub const MAX_VERTEX_OUTPUT_COMPONENTS: i32 = 64;
pub const MAX_FRAGMENT_INPUT_COMPONENTS: i32 = 128;

/// GL_MAX_TRANSFORM_FEEDBACK_BUFFERS and _INTERLEAVED_COMPONENTS (llvmpipe's 4 and 64).
pub const MAX_TRANSFORM_FEEDBACK_BUFFERS: i32 = 4;
pub const MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS: i32 = 64;

const UNIFORMS: i32 = link::MAX_UNIFORM_COMPONENTS as i32;

/// GL_MAX_IMAGE_UNITS (GL 4.5 core table 23.64's minimum; `api::image_unit` binds them).
pub const MAX_IMAGE_UNITS: u32 = 8;
/// GL_MAX_<stage>_IMAGE_UNIFORMS and GL_MAX_COMBINED_IMAGE_UNIFORMS: every stage may use
/// every unit.
pub const MAX_STAGE_IMAGE_UNIFORMS: u32 = MAX_IMAGE_UNITS;
const IMAGES: i32 = MAX_STAGE_IMAGE_UNIFORMS as i32;

/// The image limit glGetIntegerv answers for `pname` (from `CONSTANTS`, so GLSL and GL
/// agree), `None` for other names. gl_MaxComputeImageUniforms is the compute limits'
/// (`api::compute`).
pub fn image_limit(pname: u32) -> Option<i32> {
    CONSTANTS
        .iter()
        .filter(|k| {
            k.name.ends_with("ImageUniforms")
                || matches!(
                    k.name,
                    "gl_MaxCombinedImageUnitsAndFragmentOutputs" | "gl_MaxImageSamples"
                )
        })
        .find(|k| k.gl_limit == Some(pname))
        .and_then(|k| match k.value {
            ConstValue::Int(v) => Some(v),
            ConstValue::Ivec3(_) => None,
        })
}

const COUNTERS: i32 = atomic::MAX_STAGE_ATOMIC_COUNTERS as i32;
const COUNTER_BUFFERS: i32 = atomic::MAX_STAGE_ATOMIC_COUNTER_BUFFERS as i32;

/// The atomic counter limit glGetIntegerv answers for `pname` (from `CONSTANTS`, so GLSL
/// and GL agree), `None` for other names.
pub fn counter_limit(pname: u32) -> Option<i32> {
    CONSTANTS
        .iter()
        .filter(|k| k.name.contains("AtomicCounter"))
        .find(|k| k.gl_limit == Some(pname))
        .and_then(|k| match k.value {
            ConstValue::Int(v) => Some(v),
            ConstValue::Ivec3(_) => None,
        })
}

/// Every built-in constant softgl declares (GLSL 4.60 §7.3, in its order).
pub static CONSTANTS: &[BuiltinConstant] = &[
    // The atomic counter limits of GLSL 4.20 (§7.3; GL_ARB_shader_atomic_counters brings them
    // earlier). The tessellation stages have none while softgl runs no tessellation (their
    // GL limits answer 0 too); geometry counters share the vertex stage's buffers.
    c(
        "gl_MaxVertexAtomicCounters",
        420,
        gl::MAX_VERTEX_ATOMIC_COUNTERS,
        COUNTERS,
    ),
    c(
        "gl_MaxTessControlAtomicCounters",
        420,
        gl::MAX_TESS_CONTROL_ATOMIC_COUNTERS,
        0,
    ),
    c(
        "gl_MaxTessEvaluationAtomicCounters",
        420,
        gl::MAX_TESS_EVALUATION_ATOMIC_COUNTERS,
        0,
    ),
    c(
        "gl_MaxGeometryAtomicCounters",
        420,
        gl::MAX_GEOMETRY_ATOMIC_COUNTERS,
        COUNTERS,
    ),
    c(
        "gl_MaxFragmentAtomicCounters",
        420,
        gl::MAX_FRAGMENT_ATOMIC_COUNTERS,
        COUNTERS,
    ),
    c(
        "gl_MaxCombinedAtomicCounters",
        420,
        gl::MAX_COMBINED_ATOMIC_COUNTERS,
        atomic::MAX_COMBINED_ATOMIC_COUNTERS as i32,
    ),
    c(
        "gl_MaxAtomicCounterBindings",
        420,
        gl::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS,
        atomic::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS as i32,
    ),
    c(
        "gl_MaxVertexAtomicCounterBuffers",
        420,
        gl::MAX_VERTEX_ATOMIC_COUNTER_BUFFERS,
        COUNTER_BUFFERS,
    ),
    c(
        "gl_MaxTessControlAtomicCounterBuffers",
        420,
        gl::MAX_TESS_CONTROL_ATOMIC_COUNTER_BUFFERS,
        0,
    ),
    c(
        "gl_MaxTessEvaluationAtomicCounterBuffers",
        420,
        gl::MAX_TESS_EVALUATION_ATOMIC_COUNTER_BUFFERS,
        0,
    ),
    c(
        "gl_MaxGeometryAtomicCounterBuffers",
        420,
        gl::MAX_GEOMETRY_ATOMIC_COUNTER_BUFFERS,
        COUNTER_BUFFERS,
    ),
    c(
        "gl_MaxFragmentAtomicCounterBuffers",
        420,
        gl::MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS,
        COUNTER_BUFFERS,
    ),
    c(
        "gl_MaxCombinedAtomicCounterBuffers",
        420,
        gl::MAX_COMBINED_ATOMIC_COUNTER_BUFFERS,
        atomic::MAX_COMBINED_ATOMIC_COUNTER_BUFFERS as i32,
    ),
    c(
        "gl_MaxAtomicCounterBufferSize",
        420,
        gl::MAX_ATOMIC_COUNTER_BUFFER_SIZE,
        atomic::MAX_ATOMIC_COUNTER_BUFFER_SIZE as i32,
    ),
    c(
        "gl_MaxVertexAttribs",
        110,
        gl::MAX_VERTEX_ATTRIBS,
        link::MAX_VERTEX_ATTRIBS as i32,
    ),
    c(
        "gl_MaxVertexUniformComponents",
        110,
        gl::MAX_VERTEX_UNIFORM_COMPONENTS,
        UNIFORMS,
    ),
    c(
        "gl_MaxVaryingFloats",
        110,
        gl::MAX_VARYING_COMPONENTS,
        MAX_VARYING_COMPONENTS,
    ),
    c(
        "gl_MaxVertexTextureImageUnits",
        110,
        gl::MAX_VERTEX_TEXTURE_IMAGE_UNITS,
        MAX_TEXTURE_IMAGE_UNITS,
    ),
    c(
        "gl_MaxCombinedTextureImageUnits",
        110,
        gl::MAX_COMBINED_TEXTURE_IMAGE_UNITS,
        link::MAX_COMBINED_TEXTURE_IMAGE_UNITS as i32,
    ),
    c(
        "gl_MaxTextureImageUnits",
        110,
        gl::MAX_TEXTURE_IMAGE_UNITS,
        MAX_TEXTURE_IMAGE_UNITS,
    ),
    c(
        "gl_MaxFragmentUniformComponents",
        110,
        gl::MAX_FRAGMENT_UNIFORM_COMPONENTS,
        UNIFORMS,
    ),
    c(
        "gl_MaxDrawBuffers",
        110,
        gl::MAX_DRAW_BUFFERS,
        link::MAX_DRAW_BUFFERS as i32,
    ),
    c("gl_MaxClipDistances", 130, gl::MAX_CLIP_DISTANCES, 8),
    c(
        "gl_MaxVaryingComponents",
        130,
        gl::MAX_VARYING_COMPONENTS,
        MAX_VARYING_COMPONENTS,
    ),
    // The front end refuses constant offsets outside [-8, 7] (GLSL 4.60 §8.9.2).
    c(
        "gl_MinProgramTexelOffset",
        130,
        gl::MIN_PROGRAM_TEXEL_OFFSET,
        -8,
    ),
    c(
        "gl_MaxProgramTexelOffset",
        130,
        gl::MAX_PROGRAM_TEXEL_OFFSET,
        7,
    ),
    c(
        "gl_MaxVertexOutputComponents",
        150,
        gl::MAX_VERTEX_OUTPUT_COMPONENTS,
        MAX_VERTEX_OUTPUT_COMPONENTS,
    ),
    c(
        "gl_MaxGeometryInputComponents",
        150,
        gl::MAX_GEOMETRY_INPUT_COMPONENTS,
        geo::MAX_INPUT_COMPONENTS as i32,
    ),
    c(
        "gl_MaxGeometryOutputComponents",
        150,
        gl::MAX_GEOMETRY_OUTPUT_COMPONENTS,
        geo::MAX_OUTPUT_COMPONENTS as i32,
    ),
    c(
        "gl_MaxFragmentInputComponents",
        150,
        gl::MAX_FRAGMENT_INPUT_COMPONENTS,
        MAX_FRAGMENT_INPUT_COMPONENTS,
    ),
    c(
        "gl_MaxGeometryTextureImageUnits",
        150,
        gl::MAX_GEOMETRY_TEXTURE_IMAGE_UNITS,
        MAX_TEXTURE_IMAGE_UNITS,
    ),
    c(
        "gl_MaxGeometryOutputVertices",
        150,
        gl::MAX_GEOMETRY_OUTPUT_VERTICES,
        geo::MAX_OUTPUT_VERTICES as i32,
    ),
    c(
        "gl_MaxGeometryTotalOutputComponents",
        150,
        gl::MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS,
        geo::MAX_TOTAL_OUTPUT_COMPONENTS as i32,
    ),
    c(
        "gl_MaxGeometryUniformComponents",
        150,
        gl::MAX_GEOMETRY_UNIFORM_COMPONENTS,
        UNIFORMS,
    ),
    // GL 4.5 core has no query of its own for it; GLSL 1.50 gives it the geometry
    // output limit's role (as Mesa does).
    BuiltinConstant {
        name: "gl_MaxGeometryVaryingComponents",
        since: 150,
        gl_limit: Some(gl::MAX_GEOMETRY_OUTPUT_COMPONENTS),
        value: ConstValue::Int(geo::MAX_OUTPUT_COMPONENTS as i32),
    },
    // GLSL 4.00 (GL_ARB_tessellation_shader below it): llvmpipe's limits (`ir::tess`).
    c(
        "gl_MaxTessControlInputComponents",
        400,
        gl::MAX_TESS_CONTROL_INPUT_COMPONENTS,
        tess::MAX_STAGE_COMPONENTS as i32,
    ),
    c(
        "gl_MaxTessControlOutputComponents",
        400,
        gl::MAX_TESS_CONTROL_OUTPUT_COMPONENTS,
        tess::MAX_STAGE_COMPONENTS as i32,
    ),
    c(
        "gl_MaxTessControlTextureImageUnits",
        400,
        gl::MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS,
        MAX_TEXTURE_IMAGE_UNITS,
    ),
    c(
        "gl_MaxTessControlUniformComponents",
        400,
        gl::MAX_TESS_CONTROL_UNIFORM_COMPONENTS,
        UNIFORMS,
    ),
    c(
        "gl_MaxTessControlTotalOutputComponents",
        400,
        gl::MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS,
        tess::MAX_CONTROL_TOTAL_OUTPUT_COMPONENTS as i32,
    ),
    c(
        "gl_MaxTessEvaluationInputComponents",
        400,
        gl::MAX_TESS_EVALUATION_INPUT_COMPONENTS,
        tess::MAX_STAGE_COMPONENTS as i32,
    ),
    c(
        "gl_MaxTessEvaluationOutputComponents",
        400,
        gl::MAX_TESS_EVALUATION_OUTPUT_COMPONENTS,
        tess::MAX_STAGE_COMPONENTS as i32,
    ),
    c(
        "gl_MaxTessEvaluationTextureImageUnits",
        400,
        gl::MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS,
        MAX_TEXTURE_IMAGE_UNITS,
    ),
    c(
        "gl_MaxTessEvaluationUniformComponents",
        400,
        gl::MAX_TESS_EVALUATION_UNIFORM_COMPONENTS,
        UNIFORMS,
    ),
    c(
        "gl_MaxTessPatchComponents",
        400,
        gl::MAX_TESS_PATCH_COMPONENTS,
        tess::MAX_PATCH_COMPONENTS as i32,
    ),
    c(
        "gl_MaxPatchVertices",
        400,
        gl::MAX_PATCH_VERTICES,
        tess::MAX_PATCH_VERTICES as i32,
    ),
    c(
        "gl_MaxTessGenLevel",
        400,
        gl::MAX_TESS_GEN_LEVEL,
        tess::MAX_GEN_LEVEL as i32,
    ),
    c("gl_MaxViewports", 410, gl::MAX_VIEWPORTS, 16),
    BuiltinConstant {
        name: "gl_MaxComputeWorkGroupCount",
        since: 430,
        gl_limit: Some(gl::MAX_COMPUTE_WORK_GROUP_COUNT),
        value: ConstValue::Ivec3([compute::MAX_GROUP_COUNT as i32; 3]),
    },
    BuiltinConstant {
        name: "gl_MaxComputeWorkGroupSize",
        since: 430,
        gl_limit: Some(gl::MAX_COMPUTE_WORK_GROUP_SIZE),
        value: ConstValue::Ivec3([
            compute::MAX_SIZE[0] as i32,
            compute::MAX_SIZE[1] as i32,
            compute::MAX_SIZE[2] as i32,
        ]),
    },
    c(
        "gl_MaxComputeUniformComponents",
        430,
        gl::MAX_COMPUTE_UNIFORM_COMPONENTS,
        UNIFORMS,
    ),
    c(
        "gl_MaxComputeTextureImageUnits",
        430,
        gl::MAX_COMPUTE_TEXTURE_IMAGE_UNITS,
        MAX_TEXTURE_IMAGE_UNITS,
    ),
    c(
        "gl_MaxComputeImageUniforms",
        430,
        gl::MAX_COMPUTE_IMAGE_UNIFORMS,
        IMAGES,
    ),
    c(
        "gl_MaxComputeAtomicCounters",
        430,
        gl::MAX_COMPUTE_ATOMIC_COUNTERS,
        COUNTERS,
    ),
    c(
        "gl_MaxComputeAtomicCounterBuffers",
        430,
        gl::MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS,
        COUNTER_BUFFERS,
    ),
    c(
        "gl_MaxTransformFeedbackBuffers",
        440,
        gl::MAX_TRANSFORM_FEEDBACK_BUFFERS,
        MAX_TRANSFORM_FEEDBACK_BUFFERS,
    ),
    c(
        "gl_MaxTransformFeedbackInterleavedComponents",
        440,
        gl::MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS,
        MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS,
    ),
    c(
        "gl_MaxImageUnits",
        420,
        gl::MAX_IMAGE_UNITS,
        MAX_IMAGE_UNITS as i32,
    ),
    // The image limits of GLSL 4.20 (§7.3; GL_ARB_shader_image_load_store brings them
    // earlier): every stage may use every unit; multisample images of up to GL_MAX_SAMPLES.
    c(
        "gl_MaxCombinedImageUnitsAndFragmentOutputs",
        420,
        gl::MAX_COMBINED_IMAGE_UNITS_AND_FRAGMENT_OUTPUTS,
        MAX_IMAGE_UNITS as i32 + 8,
    ),
    c("gl_MaxImageSamples", 420, gl::MAX_IMAGE_SAMPLES, 8),
    c(
        "gl_MaxVertexImageUniforms",
        420,
        gl::MAX_VERTEX_IMAGE_UNIFORMS,
        IMAGES,
    ),
    c(
        "gl_MaxTessControlImageUniforms",
        420,
        gl::MAX_TESS_CONTROL_IMAGE_UNIFORMS,
        IMAGES,
    ),
    c(
        "gl_MaxTessEvaluationImageUniforms",
        420,
        gl::MAX_TESS_EVALUATION_IMAGE_UNIFORMS,
        IMAGES,
    ),
    c(
        "gl_MaxGeometryImageUniforms",
        420,
        gl::MAX_GEOMETRY_IMAGE_UNIFORMS,
        IMAGES,
    ),
    c(
        "gl_MaxFragmentImageUniforms",
        420,
        gl::MAX_FRAGMENT_IMAGE_UNIFORMS,
        IMAGES,
    ),
    c(
        "gl_MaxCombinedImageUniforms",
        420,
        gl::MAX_COMBINED_IMAGE_UNIFORMS,
        IMAGES,
    ),
    c("gl_MaxCullDistances", 450, gl::MAX_CULL_DISTANCES, 8),
    c(
        "gl_MaxCombinedClipAndCullDistances",
        450,
        gl::MAX_COMBINED_CLIP_AND_CULL_DISTANCES,
        8,
    ),
    c("gl_MaxSamples", 450, gl::MAX_SAMPLES, 8),
];

/// The constant `name` as a shader of `version` sees it; `extra` admits constants an
/// enabled extension brings in earlier (GL_ARB_cull_distance's two, before 4.50).
pub fn lookup(name: &str, version: u32, extra: &dyn Fn(&str) -> bool) -> Option<ConstValue> {
    let k = CONSTANTS.iter().find(|k| k.name == name)?;
    (version >= k.since || extra(name)).then_some(k.value)
}
