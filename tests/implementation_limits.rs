//! Every implementation-dependent limit softgl reports, against the minimum (or maximum)
//! GL 4.5 core allows (tables 23.53–23.65 of the core specification): one glGet of each,
//! so that no limit can fall below the spec again unnoticed.
//!
//! Not here because softgl does not answer them yet (glGet gives GL_INVALID_ENUM):
//! MAX_COMBINED_SHADER_OUTPUT_RESOURCES, MAX_UNIFORM_LOCATIONS, MIN_MAP_BUFFER_ALIGNMENT,
//! and the fragment interpolation offset limits (interpolateAtOffset). Each belongs in the
//! tables below once it is answered.

use softgl::{enums as gl, Context};

/// (name, pname, the smallest value GL 4.5 core allows).
const AT_LEAST: &[(&str, u32, i64)] = &[
    // Table 23.53 (implementation-dependent values).
    ("MAX_CLIP_DISTANCES", gl::MAX_CLIP_DISTANCES, 8),
    ("MAX_CULL_DISTANCES", gl::MAX_CULL_DISTANCES, 8),
    (
        "MAX_COMBINED_CLIP_AND_CULL_DISTANCES",
        gl::MAX_COMBINED_CLIP_AND_CULL_DISTANCES,
        8,
    ),
    ("SUBPIXEL_BITS", gl::SUBPIXEL_BITS, 4),
    ("MAX_ELEMENT_INDEX", gl::MAX_ELEMENT_INDEX, (1 << 24) - 1),
    ("MAX_3D_TEXTURE_SIZE", gl::MAX_3D_TEXTURE_SIZE, 2048),
    ("MAX_TEXTURE_SIZE", gl::MAX_TEXTURE_SIZE, 16384),
    (
        "MAX_ARRAY_TEXTURE_LAYERS",
        gl::MAX_ARRAY_TEXTURE_LAYERS,
        2048,
    ),
    (
        "MAX_CUBE_MAP_TEXTURE_SIZE",
        gl::MAX_CUBE_MAP_TEXTURE_SIZE,
        16384,
    ),
    ("MAX_RENDERBUFFER_SIZE", gl::MAX_RENDERBUFFER_SIZE, 16384),
    ("MAX_VIEWPORTS", gl::MAX_VIEWPORTS, 16),
    ("VIEWPORT_SUBPIXEL_BITS", gl::VIEWPORT_SUBPIXEL_BITS, 0),
    (
        "MAX_VERTEX_ATTRIB_RELATIVE_OFFSET",
        gl::MAX_VERTEX_ATTRIB_RELATIVE_OFFSET,
        2047,
    ),
    (
        "MAX_VERTEX_ATTRIB_BINDINGS",
        gl::MAX_VERTEX_ATTRIB_BINDINGS,
        16,
    ),
    (
        "MAX_VERTEX_ATTRIB_STRIDE",
        gl::MAX_VERTEX_ATTRIB_STRIDE,
        2048,
    ),
    (
        "NUM_COMPRESSED_TEXTURE_FORMATS",
        gl::NUM_COMPRESSED_TEXTURE_FORMATS,
        18,
    ),
    (
        "MAX_TEXTURE_BUFFER_SIZE",
        gl::MAX_TEXTURE_BUFFER_SIZE,
        65536,
    ),
    (
        "MAX_RECTANGLE_TEXTURE_SIZE",
        gl::MAX_RECTANGLE_TEXTURE_SIZE,
        16384,
    ),
    (
        "NUM_PROGRAM_BINARY_FORMATS",
        gl::NUM_PROGRAM_BINARY_FORMATS,
        0,
    ),
    (
        "NUM_SHADER_BINARY_FORMATS",
        gl::NUM_SHADER_BINARY_FORMATS,
        0,
    ),
    ("MAX_DEBUG_MESSAGE_LENGTH", gl::MAX_DEBUG_MESSAGE_LENGTH, 1),
    (
        "MAX_DEBUG_LOGGED_MESSAGES",
        gl::MAX_DEBUG_LOGGED_MESSAGES,
        1,
    ),
    (
        "MAX_DEBUG_GROUP_STACK_DEPTH",
        gl::MAX_DEBUG_GROUP_STACK_DEPTH,
        64,
    ),
    ("MAX_LABEL_LENGTH", gl::MAX_LABEL_LENGTH, 256),
    // Table 23.57 (vertex shader).
    ("MAX_VERTEX_ATTRIBS", gl::MAX_VERTEX_ATTRIBS, 16),
    (
        "MAX_VERTEX_UNIFORM_COMPONENTS",
        gl::MAX_VERTEX_UNIFORM_COMPONENTS,
        1024,
    ),
    (
        "MAX_VERTEX_UNIFORM_VECTORS",
        gl::MAX_VERTEX_UNIFORM_VECTORS,
        256,
    ),
    (
        "MAX_VERTEX_UNIFORM_BLOCKS",
        gl::MAX_VERTEX_UNIFORM_BLOCKS,
        14,
    ),
    (
        "MAX_VERTEX_OUTPUT_COMPONENTS",
        gl::MAX_VERTEX_OUTPUT_COMPONENTS,
        64,
    ),
    (
        "MAX_VERTEX_TEXTURE_IMAGE_UNITS",
        gl::MAX_VERTEX_TEXTURE_IMAGE_UNITS,
        16,
    ),
    (
        "MAX_VERTEX_ATOMIC_COUNTER_BUFFERS",
        gl::MAX_VERTEX_ATOMIC_COUNTER_BUFFERS,
        0,
    ),
    (
        "MAX_VERTEX_ATOMIC_COUNTERS",
        gl::MAX_VERTEX_ATOMIC_COUNTERS,
        0,
    ),
    (
        "MAX_VERTEX_SHADER_STORAGE_BLOCKS",
        gl::MAX_VERTEX_SHADER_STORAGE_BLOCKS,
        0,
    ),
    // Table 23.58 (tessellation control shader).
    ("MAX_TESS_GEN_LEVEL", gl::MAX_TESS_GEN_LEVEL, 64),
    ("MAX_PATCH_VERTICES", gl::MAX_PATCH_VERTICES, 32),
    (
        "MAX_TESS_CONTROL_UNIFORM_COMPONENTS",
        gl::MAX_TESS_CONTROL_UNIFORM_COMPONENTS,
        1024,
    ),
    (
        "MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS",
        gl::MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS,
        16,
    ),
    (
        "MAX_TESS_CONTROL_OUTPUT_COMPONENTS",
        gl::MAX_TESS_CONTROL_OUTPUT_COMPONENTS,
        128,
    ),
    (
        "MAX_TESS_PATCH_COMPONENTS",
        gl::MAX_TESS_PATCH_COMPONENTS,
        120,
    ),
    (
        "MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS",
        gl::MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS,
        4096,
    ),
    (
        "MAX_TESS_CONTROL_INPUT_COMPONENTS",
        gl::MAX_TESS_CONTROL_INPUT_COMPONENTS,
        128,
    ),
    (
        "MAX_TESS_CONTROL_UNIFORM_BLOCKS",
        gl::MAX_TESS_CONTROL_UNIFORM_BLOCKS,
        14,
    ),
    (
        "MAX_TESS_CONTROL_ATOMIC_COUNTER_BUFFERS",
        gl::MAX_TESS_CONTROL_ATOMIC_COUNTER_BUFFERS,
        0,
    ),
    (
        "MAX_TESS_CONTROL_ATOMIC_COUNTERS",
        gl::MAX_TESS_CONTROL_ATOMIC_COUNTERS,
        0,
    ),
    (
        "MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS",
        gl::MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS,
        0,
    ),
    // Table 23.59 (tessellation evaluation shader).
    (
        "MAX_TESS_EVALUATION_UNIFORM_COMPONENTS",
        gl::MAX_TESS_EVALUATION_UNIFORM_COMPONENTS,
        1024,
    ),
    (
        "MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS",
        gl::MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS,
        16,
    ),
    (
        "MAX_TESS_EVALUATION_OUTPUT_COMPONENTS",
        gl::MAX_TESS_EVALUATION_OUTPUT_COMPONENTS,
        128,
    ),
    (
        "MAX_TESS_EVALUATION_INPUT_COMPONENTS",
        gl::MAX_TESS_EVALUATION_INPUT_COMPONENTS,
        128,
    ),
    (
        "MAX_TESS_EVALUATION_UNIFORM_BLOCKS",
        gl::MAX_TESS_EVALUATION_UNIFORM_BLOCKS,
        14,
    ),
    (
        "MAX_TESS_EVALUATION_ATOMIC_COUNTER_BUFFERS",
        gl::MAX_TESS_EVALUATION_ATOMIC_COUNTER_BUFFERS,
        0,
    ),
    (
        "MAX_TESS_EVALUATION_ATOMIC_COUNTERS",
        gl::MAX_TESS_EVALUATION_ATOMIC_COUNTERS,
        0,
    ),
    (
        "MAX_TESS_EVALUATION_SHADER_STORAGE_BLOCKS",
        gl::MAX_TESS_EVALUATION_SHADER_STORAGE_BLOCKS,
        0,
    ),
    // Table 23.60 (geometry shader).
    (
        "MAX_GEOMETRY_UNIFORM_COMPONENTS",
        gl::MAX_GEOMETRY_UNIFORM_COMPONENTS,
        1024,
    ),
    (
        "MAX_GEOMETRY_UNIFORM_BLOCKS",
        gl::MAX_GEOMETRY_UNIFORM_BLOCKS,
        14,
    ),
    (
        "MAX_GEOMETRY_INPUT_COMPONENTS",
        gl::MAX_GEOMETRY_INPUT_COMPONENTS,
        64,
    ),
    (
        "MAX_GEOMETRY_OUTPUT_COMPONENTS",
        gl::MAX_GEOMETRY_OUTPUT_COMPONENTS,
        128,
    ),
    (
        "MAX_GEOMETRY_OUTPUT_VERTICES",
        gl::MAX_GEOMETRY_OUTPUT_VERTICES,
        256,
    ),
    (
        "MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS",
        gl::MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS,
        1024,
    ),
    (
        "MAX_GEOMETRY_TEXTURE_IMAGE_UNITS",
        gl::MAX_GEOMETRY_TEXTURE_IMAGE_UNITS,
        16,
    ),
    (
        "MAX_GEOMETRY_SHADER_INVOCATIONS",
        gl::MAX_GEOMETRY_SHADER_INVOCATIONS,
        32,
    ),
    ("MAX_VERTEX_STREAMS", gl::MAX_VERTEX_STREAMS, 4),
    (
        "MAX_GEOMETRY_ATOMIC_COUNTER_BUFFERS",
        gl::MAX_GEOMETRY_ATOMIC_COUNTER_BUFFERS,
        0,
    ),
    (
        "MAX_GEOMETRY_ATOMIC_COUNTERS",
        gl::MAX_GEOMETRY_ATOMIC_COUNTERS,
        0,
    ),
    (
        "MAX_GEOMETRY_SHADER_STORAGE_BLOCKS",
        gl::MAX_GEOMETRY_SHADER_STORAGE_BLOCKS,
        0,
    ),
    // Table 23.61 (fragment shader).
    (
        "MAX_FRAGMENT_UNIFORM_COMPONENTS",
        gl::MAX_FRAGMENT_UNIFORM_COMPONENTS,
        1024,
    ),
    (
        "MAX_FRAGMENT_UNIFORM_VECTORS",
        gl::MAX_FRAGMENT_UNIFORM_VECTORS,
        256,
    ),
    (
        "MAX_FRAGMENT_UNIFORM_BLOCKS",
        gl::MAX_FRAGMENT_UNIFORM_BLOCKS,
        14,
    ),
    (
        "MAX_FRAGMENT_INPUT_COMPONENTS",
        gl::MAX_FRAGMENT_INPUT_COMPONENTS,
        128,
    ),
    ("MAX_TEXTURE_IMAGE_UNITS", gl::MAX_TEXTURE_IMAGE_UNITS, 16),
    // Image load/store (table 23.64) and subroutines (table 23.67).
    ("MAX_IMAGE_UNITS", gl::MAX_IMAGE_UNITS, 8),
    ("MAX_IMAGE_SAMPLES", gl::MAX_IMAGE_SAMPLES, 0),
    (
        "MAX_VERTEX_IMAGE_UNIFORMS",
        gl::MAX_VERTEX_IMAGE_UNIFORMS,
        0,
    ),
    (
        "MAX_FRAGMENT_IMAGE_UNIFORMS",
        gl::MAX_FRAGMENT_IMAGE_UNIFORMS,
        8,
    ),
    (
        "MAX_COMPUTE_IMAGE_UNIFORMS",
        gl::MAX_COMPUTE_IMAGE_UNIFORMS,
        8,
    ),
    (
        "MAX_COMBINED_IMAGE_UNIFORMS",
        gl::MAX_COMBINED_IMAGE_UNIFORMS,
        8,
    ),
    ("MAX_SUBROUTINES", gl::MAX_SUBROUTINES, 256),
    (
        "MAX_SUBROUTINE_UNIFORM_LOCATIONS",
        gl::MAX_SUBROUTINE_UNIFORM_LOCATIONS,
        1024,
    ),
    (
        "MAX_PROGRAM_TEXTURE_GATHER_OFFSET",
        gl::MAX_PROGRAM_TEXTURE_GATHER_OFFSET,
        7,
    ),
    (
        "MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS",
        gl::MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS,
        1,
    ),
    (
        "MAX_FRAGMENT_ATOMIC_COUNTERS",
        gl::MAX_FRAGMENT_ATOMIC_COUNTERS,
        8,
    ),
    (
        "MAX_FRAGMENT_SHADER_STORAGE_BLOCKS",
        gl::MAX_FRAGMENT_SHADER_STORAGE_BLOCKS,
        8,
    ),
    // Table 23.62 (compute shader; the indexed work-group limits are below).
    (
        "MAX_COMPUTE_WORK_GROUP_INVOCATIONS",
        gl::MAX_COMPUTE_WORK_GROUP_INVOCATIONS,
        1024,
    ),
    (
        "MAX_COMPUTE_UNIFORM_BLOCKS",
        gl::MAX_COMPUTE_UNIFORM_BLOCKS,
        14,
    ),
    (
        "MAX_COMPUTE_TEXTURE_IMAGE_UNITS",
        gl::MAX_COMPUTE_TEXTURE_IMAGE_UNITS,
        16,
    ),
    (
        "MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS",
        gl::MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS,
        8,
    ),
    (
        "MAX_COMPUTE_ATOMIC_COUNTERS",
        gl::MAX_COMPUTE_ATOMIC_COUNTERS,
        8,
    ),
    (
        "MAX_COMPUTE_SHARED_MEMORY_SIZE",
        gl::MAX_COMPUTE_SHARED_MEMORY_SIZE,
        32768,
    ),
    (
        "MAX_COMPUTE_UNIFORM_COMPONENTS",
        gl::MAX_COMPUTE_UNIFORM_COMPONENTS,
        1024,
    ),
    (
        "MAX_COMPUTE_SHADER_STORAGE_BLOCKS",
        gl::MAX_COMPUTE_SHADER_STORAGE_BLOCKS,
        8,
    ),
    // Table 23.63 (aggregate shader limits).
    ("MAX_PROGRAM_TEXEL_OFFSET", gl::MAX_PROGRAM_TEXEL_OFFSET, 7),
    (
        "MAX_UNIFORM_BUFFER_BINDINGS",
        gl::MAX_UNIFORM_BUFFER_BINDINGS,
        84,
    ),
    ("MAX_UNIFORM_BLOCK_SIZE", gl::MAX_UNIFORM_BLOCK_SIZE, 16384),
    (
        "MAX_COMBINED_UNIFORM_BLOCKS",
        gl::MAX_COMBINED_UNIFORM_BLOCKS,
        70,
    ),
    ("MAX_VARYING_COMPONENTS", gl::MAX_VARYING_COMPONENTS, 60),
    ("MAX_VARYING_VECTORS", gl::MAX_VARYING_VECTORS, 15),
    (
        "MAX_COMBINED_TEXTURE_IMAGE_UNITS",
        gl::MAX_COMBINED_TEXTURE_IMAGE_UNITS,
        80,
    ),
    (
        "MAX_ATOMIC_COUNTER_BUFFER_BINDINGS",
        gl::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS,
        1,
    ),
    (
        "MAX_ATOMIC_COUNTER_BUFFER_SIZE",
        gl::MAX_ATOMIC_COUNTER_BUFFER_SIZE,
        32,
    ),
    (
        "MAX_COMBINED_ATOMIC_COUNTER_BUFFERS",
        gl::MAX_COMBINED_ATOMIC_COUNTER_BUFFERS,
        1,
    ),
    (
        "MAX_COMBINED_ATOMIC_COUNTERS",
        gl::MAX_COMBINED_ATOMIC_COUNTERS,
        8,
    ),
    (
        "MAX_SHADER_STORAGE_BUFFER_BINDINGS",
        gl::MAX_SHADER_STORAGE_BUFFER_BINDINGS,
        8,
    ),
    (
        "MAX_SHADER_STORAGE_BLOCK_SIZE",
        gl::MAX_SHADER_STORAGE_BLOCK_SIZE,
        1 << 24,
    ),
    (
        "MAX_COMBINED_SHADER_STORAGE_BLOCKS",
        gl::MAX_COMBINED_SHADER_STORAGE_BLOCKS,
        8,
    ),
    // Table 23.64 (image and transform feedback limits).
    ("MAX_IMAGE_UNITS", gl::MAX_IMAGE_UNITS, 8),
    (
        "MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS",
        gl::MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS,
        64,
    ),
    (
        "MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS",
        gl::MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS,
        4,
    ),
    (
        "MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS",
        gl::MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS,
        4,
    ),
    (
        "MAX_TRANSFORM_FEEDBACK_BUFFERS",
        gl::MAX_TRANSFORM_FEEDBACK_BUFFERS,
        4,
    ),
    // Table 23.65 (framebuffer and sample limits).
    ("MAX_SAMPLE_MASK_WORDS", gl::MAX_SAMPLE_MASK_WORDS, 1),
    (
        "MAX_COLOR_TEXTURE_SAMPLES",
        gl::MAX_COLOR_TEXTURE_SAMPLES,
        1,
    ),
    (
        "MAX_DEPTH_TEXTURE_SAMPLES",
        gl::MAX_DEPTH_TEXTURE_SAMPLES,
        1,
    ),
    ("MAX_INTEGER_SAMPLES", gl::MAX_INTEGER_SAMPLES, 1),
    ("MAX_SERVER_WAIT_TIMEOUT", gl::MAX_SERVER_WAIT_TIMEOUT, 0),
    ("MAX_DRAW_BUFFERS", gl::MAX_DRAW_BUFFERS, 8),
    (
        "MAX_DUAL_SOURCE_DRAW_BUFFERS",
        gl::MAX_DUAL_SOURCE_DRAW_BUFFERS,
        1,
    ),
    ("MAX_COLOR_ATTACHMENTS", gl::MAX_COLOR_ATTACHMENTS, 8),
    ("MAX_SAMPLES", gl::MAX_SAMPLES, 4),
    ("MAX_FRAMEBUFFER_WIDTH", gl::MAX_FRAMEBUFFER_WIDTH, 16384),
    ("MAX_FRAMEBUFFER_HEIGHT", gl::MAX_FRAMEBUFFER_HEIGHT, 16384),
    ("MAX_FRAMEBUFFER_LAYERS", gl::MAX_FRAMEBUFFER_LAYERS, 2048),
    ("MAX_FRAMEBUFFER_SAMPLES", gl::MAX_FRAMEBUFFER_SAMPLES, 4),
];

/// (name, pname, the largest value GL 4.5 core allows): offsets' lower ends and
/// alignments.
const AT_MOST: &[(&str, u32, i64)] = &[
    ("MIN_PROGRAM_TEXEL_OFFSET", gl::MIN_PROGRAM_TEXEL_OFFSET, -8),
    (
        "MIN_PROGRAM_TEXTURE_GATHER_OFFSET",
        gl::MIN_PROGRAM_TEXTURE_GATHER_OFFSET,
        -8,
    ),
    (
        "UNIFORM_BUFFER_OFFSET_ALIGNMENT",
        gl::UNIFORM_BUFFER_OFFSET_ALIGNMENT,
        256,
    ),
    (
        "SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT",
        gl::SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT,
        256,
    ),
    (
        "TEXTURE_BUFFER_OFFSET_ALIGNMENT",
        gl::TEXTURE_BUFFER_OFFSET_ALIGNMENT,
        256,
    ),
];

/// glGetInteger64v of `pname`; a GL error or no value is recorded in `wrong` (and reads
/// as 0).
fn int(c: &mut Context, wrong: &mut Vec<String>, name: &str, pname: u32) -> i64 {
    let v = c.get_integer64v(pname);
    let e = c.get_error();
    if e != gl::NO_ERROR || v.is_empty() {
        wrong.push(format!("glGetInteger64v({name}) answers error {e:#x}"));
        return 0;
    }
    v[0]
}

#[test]
fn every_limit_meets_the_gl_4_5_minimum() {
    let mut c = Context::new(4, 4);
    let mut below = Vec::new();
    for &(name, pname, min) in AT_LEAST {
        let v = int(&mut c, &mut below, name, pname);
        if v < min {
            below.push(format!("{name} is {v}, GL 4.5 asks at least {min}"));
        }
    }
    for &(name, pname, max) in AT_MOST {
        let v = int(&mut c, &mut below, name, pname);
        if v > max {
            below.push(format!("{name} is {v}, GL 4.5 asks at most {max}"));
        }
    }
    // Indexed compute limits (table 23.62).
    for (k, min_count, min_size) in [(0, 65535, 1024), (1, 65535, 1024), (2, 65535, 64)] {
        let count = c.get_integeri_v(gl::MAX_COMPUTE_WORK_GROUP_COUNT, k)[0];
        let size = c.get_integeri_v(gl::MAX_COMPUTE_WORK_GROUP_SIZE, k)[0];
        assert_eq!(c.get_error(), gl::NO_ERROR);
        if count < min_count || size < min_size {
            below.push(format!(
                "MAX_COMPUTE_WORK_GROUP_COUNT/SIZE[{k}] are {count}/{size}"
            ));
        }
    }
    // Floating-point limits and ranges (tables 23.53 and 23.65).
    let f = |c: &mut Context, below: &mut Vec<String>, p: u32| {
        let v = c.get_floatv(p);
        let e = c.get_error();
        if e != gl::NO_ERROR || v.is_empty() {
            below.push(format!("glGetFloatv({p:#x}) answers error {e:#x}"));
            return vec![f32::NAN; 2];
        }
        v
    };
    let bias = f(&mut c, &mut below, gl::MAX_TEXTURE_LOD_BIAS)[0];
    if bias.is_nan() || bias < 2.0 {
        below.push("MAX_TEXTURE_LOD_BIAS below 2".into());
    }
    for (name, p) in [
        ("POINT_SIZE_RANGE", gl::POINT_SIZE_RANGE),
        ("ALIASED_LINE_WIDTH_RANGE", gl::ALIASED_LINE_WIDTH_RANGE),
        ("SMOOTH_LINE_WIDTH_RANGE", gl::SMOOTH_LINE_WIDTH_RANGE),
    ] {
        let r = f(&mut c, &mut below, p);
        if !(r.len() == 2 && r[0] <= 1.0 && r[1] >= 1.0) {
            below.push(format!("{name} {r:?} does not hold 1"));
        }
    }
    let bounds = c.get_integerv(gl::VIEWPORT_BOUNDS_RANGE);
    if bounds.len() != 2 || bounds[0] > -32768 || bounds[1] < 32767 {
        below.push(format!("VIEWPORT_BOUNDS_RANGE {bounds:?}"));
    }
    // GL 4.5 core §13.6.1: at least the largest renderbuffer that can be attached.
    let dims = c.get_integerv(gl::MAX_VIEWPORT_DIMS);
    let rb = c.get_integerv(gl::MAX_RENDERBUFFER_SIZE)[0];
    if dims.len() != 2 || dims[0] < rb || dims[1] < rb {
        below.push(format!(
            "MAX_VIEWPORT_DIMS {dims:?} below MAX_RENDERBUFFER_SIZE {rb}"
        ));
    }
    // The combined component limits: at least the default block plus every block at its
    // largest (table 23.63's footnote).
    let block_words = int(
        &mut c,
        &mut below,
        "MAX_UNIFORM_BLOCK_SIZE",
        gl::MAX_UNIFORM_BLOCK_SIZE,
    ) / 4;
    for (stage, combined, components, blocks) in [
        (
            "VERTEX",
            gl::MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS,
            gl::MAX_VERTEX_UNIFORM_COMPONENTS,
            gl::MAX_VERTEX_UNIFORM_BLOCKS,
        ),
        (
            "TESS_CONTROL",
            gl::MAX_COMBINED_TESS_CONTROL_UNIFORM_COMPONENTS,
            gl::MAX_TESS_CONTROL_UNIFORM_COMPONENTS,
            gl::MAX_TESS_CONTROL_UNIFORM_BLOCKS,
        ),
        (
            "TESS_EVALUATION",
            gl::MAX_COMBINED_TESS_EVALUATION_UNIFORM_COMPONENTS,
            gl::MAX_TESS_EVALUATION_UNIFORM_COMPONENTS,
            gl::MAX_TESS_EVALUATION_UNIFORM_BLOCKS,
        ),
        (
            "GEOMETRY",
            gl::MAX_COMBINED_GEOMETRY_UNIFORM_COMPONENTS,
            gl::MAX_GEOMETRY_UNIFORM_COMPONENTS,
            gl::MAX_GEOMETRY_UNIFORM_BLOCKS,
        ),
        (
            "FRAGMENT",
            gl::MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS,
            gl::MAX_FRAGMENT_UNIFORM_COMPONENTS,
            gl::MAX_FRAGMENT_UNIFORM_BLOCKS,
        ),
        (
            "COMPUTE",
            gl::MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS,
            gl::MAX_COMPUTE_UNIFORM_COMPONENTS,
            gl::MAX_COMPUTE_UNIFORM_BLOCKS,
        ),
    ] {
        let want = int(&mut c, &mut below, stage, components)
            + int(&mut c, &mut below, stage, blocks) * block_words;
        let got = int(&mut c, &mut below, stage, combined);
        if got < want {
            below.push(format!(
                "MAX_COMBINED_{stage}_UNIFORM_COMPONENTS is {got}, want {want}"
            ));
        }
    }
    // The combined texture units cover every stage's own.
    let per_stage: i64 = [
        gl::MAX_VERTEX_TEXTURE_IMAGE_UNITS,
        gl::MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS,
        gl::MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS,
        gl::MAX_GEOMETRY_TEXTURE_IMAGE_UNITS,
        gl::MAX_TEXTURE_IMAGE_UNITS,
    ]
    .into_iter()
    .map(|p| int(&mut c, &mut below, "stage texture units", p))
    .sum();
    let combined = int(
        &mut c,
        &mut below,
        "MAX_COMBINED_TEXTURE_IMAGE_UNITS",
        gl::MAX_COMBINED_TEXTURE_IMAGE_UNITS,
    );
    if combined < per_stage {
        below.push(format!(
            "MAX_COMBINED_TEXTURE_IMAGE_UNITS {combined} below the stages' {per_stage}"
        ));
    }
    assert!(
        below.is_empty(),
        "limits below GL 4.5:\n{}",
        below.join("\n")
    );
}
