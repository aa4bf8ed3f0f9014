//! Context-level tests of the API's logic: GL error semantics, programs and uniforms, the
//! bindless error list, draw validation and the draw snapshot. The GLSL front end, the JIT
//! and the descriptor table are separate work, so the context here runs with stand-ins:
//! hand-built IR modules keyed by their "source", stand-in shader code, and a descriptor
//! allocator that hands out counting handles.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::api::context::{CapturedDraw, DescriptorAlloc, FrontEnd};
use crate::api::Context;
use crate::gl::enums as gl;
use crate::glsl::CompileOutput;
use crate::ir::link::testing::{add_uniform, fragment, vec, vertex};
use crate::ir::{BaseType, BlockDecl, Module, ValueType};
use crate::jit::abi::{Invocation, ShaderEnv};
use crate::jit::ShaderCode;
use crate::raster::AttribSource;
use crate::sampler::{DescriptorTable, SamplerState, TextureHandle, TextureView};

/// Shader code that does nothing (the rasterizer is not under test here).
struct StubCode {
    inputs: u32,
    outputs: u32,
}

#[allow(unsafe_code)]
impl ShaderCode for StubCode {
    fn input_words(&self) -> u32 {
        self.inputs
    }
    fn output_words(&self) -> u32 {
        self.outputs
    }
    unsafe fn call(&self, _env: *const ShaderEnv, _inv: *mut Invocation) -> u32 {
        0xF
    }
}

/// Hands out handles 0x100, 0x101, ... and remembers removals.
#[derive(Default)]
struct FakeTable {
    next: AtomicU64,
    internal: Mutex<Vec<u64>>,
    removed: Mutex<Vec<u64>>,
}

impl DescriptorAlloc for FakeTable {
    fn insert(
        &self,
        _view: TextureView,
        _state: SamplerState,
        internal: bool,
    ) -> Option<TextureHandle> {
        let h = 0x100 + self.next.fetch_add(1, Ordering::Relaxed);
        if internal {
            self.internal.lock().unwrap().push(h);
        }
        Some(TextureHandle::from_bits(h))
    }
    fn remove(&self, handle: TextureHandle) {
        self.removed.lock().unwrap().push(handle.to_bits());
    }
}

fn sampler2d() -> ValueType {
    ValueType::new(BaseType::Sampler2D, 1, 1)
}

/// The test program's stages.
fn modules() -> HashMap<String, Module> {
    let mut vs = vertex();
    add_uniform(&mut vs, "m", ValueType::new(BaseType::Float, 4, 4), None);
    add_uniform(&mut vs, "shared", vec(4), None);
    let mut fs = fragment();
    add_uniform(&mut fs, "tint", vec(4), None);
    add_uniform(&mut fs, "flag", ValueType::new(BaseType::Bool, 1, 1), None);
    add_uniform(&mut fs, "arr[0]", vec(1), Some(3));
    add_uniform(&mut fs, "tex", sampler2d(), None);
    add_uniform(&mut fs, "btex", sampler2d(), None);
    fs.uniforms.last_mut().unwrap().bound = true;
    add_uniform(&mut fs, "ltex", sampler2d(), None);
    fs.uniforms.last_mut().unwrap().bindless = true;
    add_uniform(&mut fs, "count", ValueType::new(BaseType::Uint, 1, 1), None);
    add_uniform(&mut fs, "big", ValueType::new(BaseType::Uint64, 2, 1), None);
    add_uniform(&mut fs, "shared", vec(4), None);
    fs.blocks.push(BlockDecl {
        name: "B".into(),
        binding: Some(2),
        size: 32,
        members: vec![],
    });
    let mut bad = fragment();
    bad.inputs[0].ty = vec(2);
    let mut both = fragment();
    both.global_bindless_sampler = true;
    both.global_bound_sampler = true;
    let mut m = HashMap::new();
    m.insert("VS".to_string(), vs);
    m.insert("FS".to_string(), fs);
    m.insert("FS_BAD".to_string(), bad);
    m.insert("FS_BOTH".to_string(), both);
    m
}

fn front_end() -> FrontEnd {
    let map = modules();
    Arc::new(move |stage, src: &str| match map.get(src) {
        Some(m) if m.stage == stage => CompileOutput {
            module: Some(m.clone()),
            info_log: String::new(),
            compiled: true,
        },
        _ => CompileOutput {
            module: None,
            info_log: "0:1(1): error: unknown test shader\n".into(),
            compiled: false,
        },
    })
}

fn context() -> (Context, Arc<FakeTable>) {
    let fake = Arc::new(FakeTable::default());
    let ctx = Context::with_parts(
        8,
        8,
        1,
        Arc::new(DescriptorTable::new()),
        fake.clone(),
        front_end(),
        Arc::new(|m: &Module| {
            Ok(Arc::new(StubCode {
                inputs: m.inputs.iter().map(|v| v.slot + v.words).max().unwrap_or(0),
                outputs: m.func.outputs.len() as u32,
            }) as Arc<dyn ShaderCode>)
        }),
    );
    (ctx, fake)
}

fn build_program(c: &mut Context, vs_src: &str, fs_src: &str) -> u32 {
    let vs = c.create_shader(gl::VERTEX_SHADER);
    c.shader_source(vs, &[vs_src]);
    c.compile_shader(vs);
    let fs = c.create_shader(gl::FRAGMENT_SHADER);
    c.shader_source(fs, &[fs_src]);
    c.compile_shader(fs);
    let p = c.create_program();
    c.attach_shader(p, vs);
    c.attach_shader(p, fs);
    c.link_program(p);
    p
}

/// A context with the test program linked and current and a VAO bound.
fn ready() -> (Context, Arc<FakeTable>, u32) {
    let (mut c, fake) = context();
    let p = build_program(&mut c, "VS", "FS");
    assert_eq!(
        c.get_programiv(p, gl::LINK_STATUS),
        1,
        "{}",
        c.get_program_info_log(p)
    );
    c.use_program(p);
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    (c, fake, p)
}

/// A complete 2×2 RGBA8 texture (LINEAR min filter) bound to unit 0.
fn complete_texture(c: &mut Context) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8 as i32,
        2,
        2,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        Some(&[255; 16]),
    );
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::LINEAR as i32);
    t
}

#[test]
fn first_error_is_kept_and_failing_calls_change_nothing() {
    let mut c = Context::with_threads(16, 16, 1);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.viewport(1, 2, 3, 4);
    c.viewport(0, 0, -1, 5);
    c.blend_func(gl::ONE, 0xdead);
    c.depth_func(0x1234);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "the first error wins");
    assert_eq!(c.get_error(), gl::NO_ERROR, "and is cleared when read");
    assert_eq!(c.get_integerv(gl::VIEWPORT), vec![1, 2, 3, 4]);
    assert_eq!(c.get_integerv(gl::BLEND_SRC_RGB), vec![gl::ONE as i32]);
    assert_eq!(c.get_integerv(gl::BLEND_DST_RGB), vec![gl::ZERO as i32]);
    assert_eq!(c.get_integerv(gl::DEPTH_FUNC), vec![gl::LESS as i32]);
    // GL_LINE_STIPPLE is compatibility-profile only (GL_POLYGON_SMOOTH is now stored state).
    c.enable(gl::LINE_STIPPLE);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    assert!(!c.is_enabled(gl::DEPTH_TEST));
    c.enable(gl::DEPTH_TEST);
    assert!(c.is_enabled(gl::DEPTH_TEST));
    assert_eq!(c.get_booleanv(gl::DEPTH_TEST), vec![true]);
    let msgs = c.debug_messages();
    assert_eq!(msgs.len(), 4, "every error is logged: {msgs:?}");
    assert!(msgs.iter().all(|m| m.ty == gl::DEBUG_TYPE_ERROR));
    assert!(c.debug_messages().is_empty(), "drained");
}

#[test]
fn strings_and_limits() {
    let mut c = Context::with_threads(16, 16, 3);
    assert_eq!(c.get_string(gl::VENDOR).as_deref(), Some("softgl"));
    assert_eq!(
        c.get_string(gl::RENDERER).as_deref(),
        Some("softgl (Cranelift JIT, 3 threads)")
    );
    // No GL version is complete yet, so the context claims none beyond the floor.
    assert!(c.get_string(gl::VERSION).unwrap().starts_with("1.0 "));
    assert_eq!(c.get_integerv(gl::MAJOR_VERSION), vec![1]);
    assert_eq!(c.get_integerv(gl::MINOR_VERSION), vec![0]);
    // A context that reports GL 1.0 answers glGetString(GL_EXTENSIONS), as GL before 3.1
    // does (3.1+ core removed it; loaders read it below 3.0).
    assert_eq!(
        c.get_string(gl::EXTENSIONS).as_deref(),
        Some(
            "GL_AMD_vertex_shader_layer GL_AMD_vertex_shader_viewport_index \
             GL_ARB_base_instance GL_ARB_bindless_texture GL_ARB_blend_func_extended \
             GL_ARB_clear_buffer_object GL_ARB_clear_texture GL_ARB_compute_shader \
             GL_ARB_conditional_render_inverted \
             GL_ARB_copy_buffer GL_ARB_cull_distance GL_ARB_depth_clamp \
             GL_ARB_draw_buffers_blend GL_ARB_draw_elements_base_vertex \
             GL_ARB_draw_indirect GL_ARB_draw_instanced GL_ARB_explicit_attrib_location \
             GL_ARB_explicit_uniform_location GL_ARB_fragment_layer_viewport GL_ARB_framebuffer_no_attachments \
             GL_ARB_framebuffer_object \
             GL_ARB_get_program_binary GL_ARB_gpu_shader_fp64 GL_ARB_instanced_arrays \
             GL_ARB_multi_draw_indirect \
             GL_ARB_occlusion_query2 GL_ARB_provoking_vertex GL_ARB_sampler_objects \
             GL_ARB_seamless_cube_map GL_ARB_separate_shader_objects \
             GL_ARB_shader_atomic_counter_ops GL_ARB_shader_atomic_counters \
             GL_ARB_shader_bit_encoding \
             GL_ARB_shader_image_load_store GL_ARB_shader_image_size \
             GL_ARB_shader_storage_buffer_object \
             GL_ARB_shader_subroutine GL_ARB_shader_viewport_layer_array \
             GL_ARB_shading_language_420pack GL_ARB_sync GL_ARB_tessellation_shader \
             GL_ARB_texture_buffer_object \
             GL_ARB_texture_buffer_range GL_ARB_texture_compression_rgtc \
             GL_ARB_texture_cube_map_array GL_ARB_texture_gather \
             GL_ARB_texture_query_levels GL_ARB_texture_query_lod GL_ARB_texture_rectangle \
             GL_ARB_texture_storage GL_ARB_texture_storage_multisample \
             GL_ARB_texture_swizzle GL_ARB_timer_query GL_ARB_transform_feedback2 \
             GL_ARB_transform_feedback3 GL_ARB_transform_feedback_instanced \
             GL_ARB_viewport_array GL_EXT_texture_compression_rgtc \
             GL_EXT_texture_compression_s3tc GL_EXT_texture_swizzle GL_KHR_debug \
             GL_KHR_robustness"
        )
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let n = c.get_integerv(gl::NUM_EXTENSIONS)[0];
    assert_eq!(
        c.get_stringi(gl::EXTENSIONS, 0).as_deref(),
        Some("GL_AMD_vertex_shader_layer")
    );
    assert_eq!(c.get_stringi(gl::EXTENSIONS, n as u32), None);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    assert_eq!(c.get_integerv(gl::MAX_VIEWPORT_DIMS).len(), 2);
    assert_eq!(c.get_integerv(gl::VIEWPORT), vec![0, 0, 16, 16]);
    assert!(c.get_integerv(gl::MAX_COMBINED_TEXTURE_IMAGE_UNITS)[0] >= 32);
    assert!(c.get_integerv(gl::MAX_UNIFORM_BUFFER_BINDINGS)[0] >= 36);
    assert_eq!(c.get_floatv(gl::COLOR_CLEAR_VALUE), vec![0.0; 4]);
    c.clear_color(1.0, 0.5, 0.0, 1.0);
    assert_eq!(c.get_integerv(gl::COLOR_CLEAR_VALUE)[0], i32::MAX);
    assert!(c.get_integerv(0x1234_5678).is_empty());
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    let msgs = c.debug_messages();
    assert!(
        msgs.last()
            .is_some_and(|m| m.message.ends_with("0x12345678")),
        "a value gl.xml lacks is given in hex: {msgs:?}"
    );
    assert!(c.get_integerv(gl::TEXTURE_2D).is_empty());
    let msgs = c.debug_messages();
    assert_eq!(
        msgs.last().map(|m| m.message.as_str()),
        Some("glGetIntegerv: GL_INVALID_ENUM: glGet parameter GL_TEXTURE_2D"),
        "a known one by its name"
    );
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    // Shader interface limits: GL 4.5's minimums for varyings, which the conformance scene
    // varyings_max_components shows working; llvmpipe's uniform limit, which a link
    // enforces; 8 samples at most; 8 clip distances.
    for (pname, v) in [
        (gl::MAX_VARYING_COMPONENTS, 60),
        (gl::MAX_VARYING_VECTORS, 15),
        (gl::MAX_VERTEX_OUTPUT_COMPONENTS, 64),
        (gl::MAX_FRAGMENT_INPUT_COMPONENTS, 128),
        (gl::MAX_VERTEX_UNIFORM_COMPONENTS, 16384),
        (gl::MAX_FRAGMENT_UNIFORM_VECTORS, 4096),
        (gl::MAX_SAMPLES, 8),
        (gl::SAMPLE_BUFFERS, 0),
        (gl::MAX_CLIP_DISTANCES, 8),
    ] {
        assert_eq!(c.get_integerv(pname), vec![v], "pname 0x{pname:04X}");
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn shader_and_program_objects() {
    let (mut c, _) = context();
    assert_ne!(c.create_shader(gl::TESS_CONTROL_SHADER), 0);
    assert_ne!(c.create_shader(gl::TESS_EVALUATION_SHADER), 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.create_shader(gl::TEXTURE_2D), 0);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    let fs = c.create_shader(gl::FRAGMENT_SHADER);
    c.shader_source(fs, &["F", "S"]);
    assert_eq!(c.get_shader_source(fs), "FS");
    c.compile_shader(fs);
    assert_eq!(c.get_shaderiv(fs, gl::COMPILE_STATUS), 1);
    let bad = c.create_shader(gl::VERTEX_SHADER);
    c.shader_source(bad, &["nope"]);
    c.compile_shader(bad);
    assert_eq!(c.get_shaderiv(bad, gl::COMPILE_STATUS), 0);
    assert!(c.get_shader_info_log(bad).contains("error"));
    assert_eq!(
        c.get_shaderiv(bad, gl::INFO_LOG_LENGTH) as usize,
        c.get_shader_info_log(bad).len() + 1
    );
    let p = c.create_program();
    c.attach_shader(p, fs);
    c.attach_shader(p, fs);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "attached twice");
    c.attach_shader(fs, p);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "names swapped");
    c.attach_shader(p, 9999);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    // GL 4.5 core §7.3: a program that is only a fragment shader links (its vertex
    // results are undefined; Mesa links it too) ...
    c.link_program(p);
    assert_eq!(c.get_programiv(p, gl::LINK_STATUS), 1);
    // ... one with a shader that did not compile does not.
    c.attach_shader(p, bad);
    c.link_program(p);
    assert_eq!(c.get_programiv(p, gl::LINK_STATUS), 0);
    assert!(!c.get_program_info_log(p).is_empty());
    c.detach_shader(p, bad);
    c.use_program(p);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "not linked");
    assert_eq!(c.get_uniform_location(p, "tint"), -1);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // Deleting an attached shader only flags it.
    c.delete_shader(fs);
    assert!(c.is_shader(fs));
    assert_eq!(c.get_shaderiv(fs, gl::DELETE_STATUS), 1);
    c.detach_shader(p, fs);
    assert!(!c.is_shader(fs));
    c.delete_program(p);
    assert!(!c.is_program(p));
}

#[test]
fn link_errors_reach_the_info_log() {
    let (mut c, _) = context();
    let p = build_program(&mut c, "VS", "FS_BAD");
    assert_eq!(c.get_programiv(p, gl::LINK_STATUS), 0);
    let log = c.get_program_info_log(p);
    assert!(
        log.contains("`color` has type vec4 in the vertex shader but vec2"),
        "{log}"
    );
    assert_eq!(
        c.get_programiv(p, gl::INFO_LOG_LENGTH) as usize,
        log.len() + 1
    );
    let p = build_program(&mut c, "VS", "FS_BOTH");
    assert!(c.get_program_info_log(p).contains("bindless_sampler"));
    assert_eq!(
        c.get_error(),
        gl::NO_ERROR,
        "link failures are not GL errors"
    );
}

#[test]
fn jit_failure_is_a_link_failure() {
    // The real back end (`jit::compile`) with the test modules: until the JIT lands it
    // reports `Unsupported`, which must surface as a failed link with its message.
    let table = Arc::new(DescriptorTable::new());
    let mut c = Context::with_parts(
        4,
        4,
        1,
        table.clone(),
        table,
        front_end(),
        Arc::new(crate::jit::compile),
    );
    let p = build_program(&mut c, "VS", "FS");
    if c.get_programiv(p, gl::LINK_STATUS) == 0 {
        assert!(c.get_program_info_log(p).contains("vertex shader: "));
    } else {
        c.use_program(p);
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn reflection_and_locations() {
    let (mut c, _, p) = ready();
    // m, shared (both stages, once), tint, flag, arr, tex, btex, ltex, count, big.
    assert_eq!(c.get_programiv(p, gl::ACTIVE_UNIFORMS), 10);
    assert_eq!(c.get_programiv(p, gl::ACTIVE_ATTRIBUTES), 2);
    assert_eq!(c.get_programiv(p, gl::ACTIVE_UNIFORM_BLOCKS), 1);
    assert_eq!(
        c.get_programiv(p, gl::ACTIVE_UNIFORM_MAX_LENGTH),
        "arr[0]".len() as i32 + 1
    );
    assert_eq!(c.get_attrib_location(p, "pos"), 0);
    assert_eq!(c.get_attrib_location(p, "extra"), 1);
    assert_eq!(c.get_attrib_location(p, "nothing"), -1);
    let (size, ty, name) = c.get_active_uniform(p, 4);
    assert_eq!((size, ty, name.as_str()), (3, gl::FLOAT, "arr[0]"));
    assert_eq!(
        c.get_uniform_location(p, "arr[2]"),
        c.get_uniform_location(p, "arr") + 2
    );
    assert_eq!(c.get_uniform_block_index(p, "B"), 0);
    assert_eq!(c.get_uniform_block_index(p, "C"), gl::INVALID_INDEX);
    assert_eq!(
        c.get_active_uniform_blockiv(p, 0, gl::UNIFORM_BLOCK_BINDING)[0],
        2
    );
    c.uniform_block_binding(p, 0, 5);
    assert_eq!(
        c.get_active_uniform_blockiv(p, 0, gl::UNIFORM_BLOCK_BINDING)[0],
        5
    );
    c.uniform_block_binding(p, 1, 5);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    // BindAttribLocation applies at the next link.
    c.bind_attrib_location(p, 9, "extra");
    assert_eq!(c.get_attrib_location(p, "extra"), 1);
    c.link_program(p);
    assert_eq!(c.get_attrib_location(p, "extra"), 9);
    c.bind_attrib_location(p, 0, "gl_Vertex");
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}

#[test]
fn uniform_type_checks() {
    let (mut c, _, p) = ready();
    let tint = c.get_uniform_location(p, "tint");
    let flag = c.get_uniform_location(p, "flag");
    let arr = c.get_uniform_location(p, "arr");
    let m = c.get_uniform_location(p, "m");
    let tex = c.get_uniform_location(p, "tex");
    let count = c.get_uniform_location(p, "count");
    let shared = c.get_uniform_location(p, "shared");

    c.uniform_4f(tint, 1.0, 2.0, 3.0, 4.0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.uniform_3f(tint, 9.0, 9.0, 9.0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "size mismatch");
    c.uniform_4i(tint, 9, 9, 9, 9);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "type mismatch");
    c.uniform_4fv(tint, &[9.0; 8]);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "count > 1 on a non-array"
    );
    c.uniform_4fv(tint, &[9.0; 3]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "not a whole vec4");
    assert_eq!(
        c.get_uniformfv(p, tint),
        vec![1.0, 2.0, 3.0, 4.0],
        "failed calls changed nothing"
    );

    // Booleans take f, i and ui forms; stored as all-ones lanes, read back as 1.
    c.uniform_1f(flag, 2.0);
    c.uniform_1i(flag, 1);
    c.uniform_1ui(flag, 1);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.get_uniformiv(p, flag), vec![1]);
    assert_eq!(c.get_uniformuiv(p, flag), vec![u32::MAX]);

    c.uniform_1ui(count, 7);
    c.uniform_1i(count, 7);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "int command on uint");

    // uint64_t vectors (ARB_gpu_shader_int64): two words per component.
    let big = c.get_uniform_location(p, "big");
    c.uniform_2ui64_arb(big, 0x1_0000_0002, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.get_uniformuiv(p, big), vec![2, 1, 3, 0]);
    c.uniform_1ui64_arb(big, 1);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "size mismatch");
    c.uniform_2ui(big, 1, 2);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "uint command on uint64_t"
    );
    c.uniform_1ui64_arb(count, 1);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "uint64 command on uint"
    );

    // Arrays: from the element of the location, clipped to the array.
    c.uniform_1fv(arr + 1, &[5.0, 6.0, 7.0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.get_uniformfv(p, arr + 1), vec![5.0]);
    assert_eq!(c.get_uniformfv(p, arr + 2), vec![6.0]);

    // Matrices, with transpose.
    let rows: Vec<f32> = (0..16).map(|i| i as f32).collect();
    c.uniform_matrix_4fv(m, true, &rows);
    let stored = c.get_uniformfv(p, m);
    assert_eq!(stored[1], 4.0, "column 0 row 1 = row-major element 4");
    c.uniform_matrix_3fv(m, false, &[0.0; 9]);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.uniform_4f(m, 0.0, 0.0, 0.0, 0.0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);

    // A uniform in both stages is written to both.
    c.uniform_4f(shared, 1.0, 1.0, 1.0, 1.0);
    assert_eq!(c.get_error(), gl::NO_ERROR);

    // Samplers take Uniform1i only, with a valid unit.
    c.uniform_1i(tex, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.get_uniformiv(p, tex), vec![3]);
    let units = c.get_integerv(gl::MAX_COMBINED_TEXTURE_IMAGE_UNITS)[0];
    c.uniform_1i(tex, units);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.uniform_1f(tex, 1.0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);

    // Location -1 is silently ignored; other bad locations are errors.
    c.uniform_1f(-1, 1.0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.uniform_1f(1000, 1.0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.program_uniform_4f(p, tint, 0.0, 0.0, 0.0, 0.5);
    assert_eq!(c.get_uniformfv(p, tint)[3], 0.5);
    c.use_program(0);
    c.uniform_4f(tint, 1.0, 2.0, 3.0, 4.0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "no current program");
}

#[test]
fn bindless_handle_errors() {
    let (mut c, _, p) = ready();
    assert_eq!(c.get_texture_handle_arb(0), 0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "texture 0");
    assert_eq!(c.get_texture_handle_arb(4242), 0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "no such texture");

    // Incomplete: no image, then the default mipmap min filter without mipmaps.
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    assert_eq!(c.get_texture_handle_arb(t), 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "incomplete");
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8 as i32,
        2,
        2,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    assert_eq!(c.get_texture_handle_arb(t), 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "mipmap-incomplete");
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::LINEAR as i32);

    // Border colours: only the four allowed.
    c.tex_parameter_fv(
        gl::TEXTURE_2D,
        gl::TEXTURE_BORDER_COLOR,
        &[0.5, 0.0, 0.0, 1.0],
    );
    assert_eq!(c.get_texture_handle_arb(t), 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "border colour");
    c.tex_parameter_fv(
        gl::TEXTURE_2D,
        gl::TEXTURE_BORDER_COLOR,
        &[1.0, 1.0, 1.0, 0.0],
    );

    let h = c.get_texture_handle_arb(t);
    assert_ne!(h, 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.get_texture_handle_arb(t), h, "same texture, same handle");

    // The texture's state is frozen; its contents are not.
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "TexParameter after a handle"
    );
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8 as i32,
        2,
        2,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "TexImage after a handle"
    );
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 2, 2);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "TexStorage after a handle"
    );
    c.tex_sub_image_2d(
        gl::TEXTURE_2D,
        0,
        0,
        0,
        1,
        1,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &[1, 2, 3, 4],
    );
    assert_eq!(c.get_error(), gl::NO_ERROR, "TexSubImage is allowed");

    // Sampler handles.
    let s = c.gen_samplers(1)[0];
    assert_eq!(c.get_texture_sampler_handle_arb(t, 0), 0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "sampler 0");
    assert_eq!(c.get_texture_sampler_handle_arb(t, 777), 0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "no such sampler");
    c.sampler_parameter_fv(s, gl::TEXTURE_BORDER_COLOR, &[0.0, 0.0, 1.0, 1.0]);
    assert_eq!(c.get_texture_sampler_handle_arb(t, s), 0);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "sampler border colour"
    );
    c.sampler_parameter_fv(s, gl::TEXTURE_BORDER_COLOR, &[0.0, 0.0, 0.0, 1.0]);
    c.sampler_parameter_i(s, gl::TEXTURE_MIN_FILTER, gl::NEAREST_MIPMAP_NEAREST as i32);
    assert_eq!(c.get_texture_sampler_handle_arb(t, s), 0);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "incomplete with the sampler's state"
    );
    c.sampler_parameter_i(s, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    let hs = c.get_texture_sampler_handle_arb(t, s);
    assert!(hs != 0 && hs != h);
    assert_eq!(c.get_texture_sampler_handle_arb(t, s), hs);
    c.sampler_parameter_i(s, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "SamplerParameter after a handle"
    );

    // Residency.
    assert!(!c.is_texture_handle_resident_arb(h));
    c.make_texture_handle_non_resident_arb(h);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "not resident");
    c.make_texture_handle_resident_arb(h);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert!(c.is_texture_handle_resident_arb(h));
    c.make_texture_handle_resident_arb(h);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "already resident");
    c.make_texture_handle_resident_arb(0xdead_beef);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "invalid handle");
    c.make_texture_handle_non_resident_arb(0xdead_beef);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "invalid handle");
    assert!(!c.is_texture_handle_resident_arb(0xdead_beef));
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "IsResident on an invalid handle"
    );

    // Handle uniforms.
    let tint = c.get_uniform_location(p, "tint");
    let tex = c.get_uniform_location(p, "tex");
    let btex = c.get_uniform_location(p, "btex");
    let ltex = c.get_uniform_location(p, "ltex");
    c.uniform_handle_ui64_arb(tint, h);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "not a sampler");
    c.uniform_handle_ui64_arb(btex, h);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "bound_sampler");
    // No qualifier: "considered bound" (ARB_bindless_texture §4.4.6).
    c.uniform_handle_ui64_arb(tex, h);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "implicitly bound");
    c.program_uniform_handle_ui64_arb(p, tex, h);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "implicitly bound");
    c.uniform_1i(tex, 5);
    assert_eq!(c.get_error(), gl::NO_ERROR, "Uniform1i on a bound sampler");
    c.uniform_handle_ui64_arb(ltex, h);
    c.program_uniform_handle_ui64_arb(p, ltex, hs);
    c.uniform_handle_ui64_arb(-1, h);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.uniform_handle_ui64v_arb(ltex, &[h, h]);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "count > 1 on a non-array"
    );
    c.uniform_1i(ltex, 2);
    assert_eq!(
        c.get_error(),
        gl::NO_ERROR,
        "Uniform1i on a bindless_sampler is allowed"
    );
    c.uniform_handle_ui64_arb(ltex, h);
    assert_eq!(c.get_uniformuiv(p, ltex), vec![h as u32, (h >> 32) as u32]);

    // Deleting the texture frees its handles: stale afterwards.
    c.delete_textures(&[t]);
    assert!(!c.is_texture_handle_resident_arb(h));
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "stale handle");
    c.make_texture_handle_resident_arb(hs);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "the sampler handle died with the texture"
    );
}

#[test]
fn deleted_handles_leave_the_table_after_the_flush() {
    let (mut c, fake, _) = ready();
    let t = complete_texture(&mut c);
    let h = c.get_texture_handle_arb(t);
    c.make_texture_handle_resident_arb(h);
    c.delete_textures(&[t]);
    c.finish();
    assert!(fake.removed.lock().unwrap().contains(&h));
    // Deleting a sampler frees the handles that use it.
    let t = complete_texture(&mut c);
    let s = c.gen_samplers(1)[0];
    let hs = c.get_texture_sampler_handle_arb(t, s);
    c.delete_samplers(&[s]);
    assert!(!c.is_texture_handle_resident_arb(hs));
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    assert_ne!(
        c.get_texture_handle_arb(t),
        0,
        "the texture itself lives on"
    );
}

#[test]
fn draw_validation() {
    let (mut c, _, p) = ready();
    // GL_PATCHES needs a tessellation evaluation stage (tests/tessellation.rs); every
    // other mode draws (tests/primitives.rs); an unknown mode is no mode.
    c.draw_arrays(gl::PATCHES, 0, 3);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.draw_arrays(gl::PATCHES + 1, 0, 3);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.draw_arrays(gl::TRIANGLES, 0, -1);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.draw_arrays_instanced(gl::TRIANGLES, 0, 3, -1);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.draw_elements(gl::TRIANGLES, 3, gl::FLOAT, 0);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);

    // The block at binding 2 needs 32 bytes.
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "no uniform buffer");
    let ubo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::UNIFORM_BUFFER, ubo);
    c.buffer_data(gl::UNIFORM_BUFFER, 16, None, gl::STATIC_DRAW);
    c.bind_buffer_base(gl::UNIFORM_BUFFER, 2, ubo);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "buffer smaller than the block"
    );
    c.buffer_data(gl::UNIFORM_BUFFER, 64, None, gl::STATIC_DRAW);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);

    // Enabled array without buffer; mapped buffers.
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, vbo);
    c.buffer_data(gl::ARRAY_BUFFER, 48, None, gl::STATIC_DRAW);
    c.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 0, 0);
    c.enable_vertex_attrib_array(0);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert!(!c
        .map_buffer_range(gl::ARRAY_BUFFER, 0, 4, gl::MAP_WRITE_BIT)
        .is_null());
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "mapped vertex buffer");
    c.unmap_buffer(gl::ARRAY_BUFFER);
    c.draw_elements(gl::TRIANGLES, 3, gl::UNSIGNED_SHORT, 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "no element buffer");

    // Incomplete draw framebuffer.
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::INVALID_FRAMEBUFFER_OPERATION);
    c.clear(gl::COLOR_BUFFER_BIT);
    assert_eq!(c.get_error(), gl::INVALID_FRAMEBUFFER_OPERATION);
    c.bind_framebuffer(gl::FRAMEBUFFER, 0);
    c.clear(0x1);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);

    // No VAO, no program.
    c.bind_vertex_array(0);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "VAO 0 in core");
    c.use_program(0);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "no program");
    let _ = p;
}

/// The forms of glDrawElements/glDrawArrays (issue #10 item 2) queue what the plain
/// commands would: DrawRangeElements ignores its promise but checks end >= start, the
/// MultiDraw commands are one draw per element (the first failure stops them), and the
/// BaseInstance forms carry their base instance.
#[test]
fn draw_command_forms_queue_the_plain_draws() {
    let (mut c, _, _) = ready();
    let ubo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::UNIFORM_BUFFER, ubo);
    c.buffer_data(gl::UNIFORM_BUFFER, 64, None, gl::STATIC_DRAW);
    c.bind_buffer_base(gl::UNIFORM_BUFFER, 2, ubo);
    let ebo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, ebo);
    c.buffer_data(
        gl::ELEMENT_ARRAY_BUFFER,
        12,
        Some(&[0, 0, 1, 0, 2, 0, 2, 0, 1, 0, 0, 0]),
        gl::STATIC_DRAW,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let shape = |d: &CapturedDraw| {
        let v = &d.vertices;
        (
            v.first,
            v.count,
            v.instance_count,
            v.base_vertex,
            v.base_instance,
            v.indices.is_some(),
        )
    };
    c.captured.clear();
    c.draw_elements_base_vertex(gl::TRIANGLES, 3, gl::UNSIGNED_SHORT, 6, 1);
    c.draw_range_elements_base_vertex(gl::TRIANGLES, 0, 2, 3, gl::UNSIGNED_SHORT, 6, 1);
    c.draw_range_elements(gl::TRIANGLES, 0, 2, 3, gl::UNSIGNED_SHORT, 0);
    c.draw_elements_instanced_base_vertex_base_instance(
        gl::TRIANGLES,
        3,
        gl::UNSIGNED_SHORT,
        0,
        2,
        3,
        5,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let got: Vec<_> = c.captured.iter().map(shape).collect();
    assert_eq!(got[0], got[1]);
    assert_eq!(got[2], (0, 3, 1, 0, 0, true));
    assert_eq!(got[3], (0, 3, 2, 3, 5, true));
    c.draw_range_elements(gl::TRIANGLES, 2, 1, 3, gl::UNSIGNED_SHORT, 0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "end < start");
    assert_eq!(c.captured.len(), 4);

    c.captured.clear();
    c.multi_draw_arrays(gl::TRIANGLES, &[0, 3], &[3, 6]);
    c.multi_draw_elements_base_vertex(gl::TRIANGLES, &[3, 3], gl::UNSIGNED_SHORT, &[0, 6], &[0, 4]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let got: Vec<_> = c.captured.iter().map(shape).collect();
    assert_eq!(
        got,
        [
            (0, 3, 1, 0, 0, false),
            (3, 6, 1, 0, 0, false),
            (0, 3, 1, 0, 0, true),
            (0, 3, 1, 4, 0, true)
        ]
    );
    c.captured.clear();
    c.multi_draw_arrays(gl::TRIANGLES, &[0, 0, 0], &[3, -1, 3]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    assert_eq!(c.captured.len(), 1, "the failing draw stops the rest");
    c.multi_draw_elements(gl::TRIANGLES, &[3], gl::UNSIGNED_SHORT, &[0, 6]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "lengths differ");
}

/// As Mesa and NVIDIA (ARCHITECTURE.md §9): with no VAO bound, GL_ELEMENT_ARRAY_BUFFER can
/// be bound, filled and queried (VTK does this); a VAO bound afterwards has its own binding,
/// and drawing with no VAO is still an error.
#[test]
fn element_array_buffer_without_a_vao() {
    let (mut c, _, _) = ready();
    c.bind_vertex_array(0);
    let ebo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, ebo);
    c.buffer_data(
        gl::ELEMENT_ARRAY_BUFFER,
        6,
        Some(&[0, 0, 1, 0, 2, 0]),
        gl::STATIC_DRAW,
    );
    c.buffer_sub_data(gl::ELEMENT_ARRAY_BUFFER, 0, &[3, 0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        c.get_integerv(gl::ELEMENT_ARRAY_BUFFER_BINDING),
        [ebo as i32]
    );
    c.draw_elements(gl::TRIANGLES, 3, gl::UNSIGNED_SHORT, 0);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "no VAO: no draw (core)"
    );
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    assert_eq!(c.get_integerv(gl::ELEMENT_ARRAY_BUFFER_BINDING), [0]);
    c.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, ebo);
    assert_eq!(
        c.get_integerv(gl::ELEMENT_ARRAY_BUFFER_BINDING),
        [ebo as i32]
    );
    c.bind_vertex_array(0);
    c.delete_buffers(&[ebo]);
    assert_eq!(c.get_integerv(gl::ELEMENT_ARRAY_BUFFER_BINDING), [0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// Indexed state queries (issue #10 item 2): uniform buffer bindings per index, the shared
/// blend state and colour mask for every draw buffer, viewport 0; bad indices are
/// GL_INVALID_VALUE and unknown names GL_INVALID_ENUM naming the value.
#[test]
fn indexed_queries() {
    let mut c = Context::new(4, 4);
    let b = c.gen_buffers(1)[0];
    c.bind_buffer(gl::UNIFORM_BUFFER, b);
    c.buffer_data(gl::UNIFORM_BUFFER, 1024, None, gl::STATIC_DRAW);
    c.bind_buffer_range(gl::UNIFORM_BUFFER, 5, b, 256, 512);
    assert_eq!(c.get_integeri_v(gl::UNIFORM_BUFFER_BINDING, 5), [b as i32]);
    assert_eq!(c.get_integer64i_v(gl::UNIFORM_BUFFER_START, 5), [256]);
    assert_eq!(c.get_integeri_v(gl::UNIFORM_BUFFER_SIZE, 5), [512]);
    assert_eq!(c.get_integeri_v(gl::UNIFORM_BUFFER_BINDING, 4), [0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let past = c.get_integerv(gl::MAX_UNIFORM_BUFFER_BINDINGS)[0] as u32;
    assert!(c
        .get_integeri_v(gl::UNIFORM_BUFFER_BINDING, past)
        .is_empty());
    assert_eq!(c.get_error(), gl::INVALID_VALUE);

    c.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
    c.color_mask(true, false, true, false);
    c.enable(gl::BLEND);
    for i in [0, 7] {
        assert_eq!(
            c.get_integeri_v(gl::BLEND_SRC_RGB, i),
            [gl::SRC_ALPHA as i32]
        );
        assert_eq!(
            c.get_booleani_v(gl::COLOR_WRITEMASK, i),
            [true, false, true, false]
        );
        assert!(c.is_enabledi(gl::BLEND, i));
    }
    assert_eq!(
        c.get_integeri_v(gl::VIEWPORT, 0),
        c.get_integerv(gl::VIEWPORT)
    );
    assert_eq!(c.get_floati_v(gl::VIEWPORT, 0), c.get_floatv(gl::VIEWPORT));
    assert_eq!(c.get_floati_v(gl::UNIFORM_BUFFER_START, 5), [256.0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert!(!c.is_enabledi(gl::BLEND, 8));
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.debug_messages();
    assert!(c.get_integeri_v(gl::TEXTURE_2D, 0).is_empty());
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    let m = c.debug_messages();
    assert_eq!(
        m[0].message,
        "glGetIntegeri_v: GL_INVALID_ENUM: indexed glGet parameter GL_TEXTURE_2D"
    );
}

#[test]
fn draw_snapshot_contents() {
    let (mut c, fake, p) = ready();
    let ubo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::UNIFORM_BUFFER, ubo);
    c.buffer_data(gl::UNIFORM_BUFFER, 64, Some(&[7; 64]), gl::STATIC_DRAW);
    c.bind_buffer_range(gl::UNIFORM_BUFFER, 2, ubo, 16, 32);
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, vbo);
    c.buffer_data(gl::ARRAY_BUFFER, 64, None, gl::STATIC_DRAW);
    // `extra` is at location 1: an array with stride 0 (tightly packed).
    c.vertex_attrib_pointer(1, 2, gl::FLOAT, false, 0, 8);
    c.enable_vertex_attrib_array(1);
    c.vertex_attrib_4f(0, 1.0, 2.0, 3.0, 4.0);

    // tex → unit 0 with a complete texture; ltex → a bindless handle; arr default.
    let t = complete_texture(&mut c);
    let t2 = c.gen_textures(1)[0];
    c.active_texture(gl::TEXTURE1);
    c.bind_texture(gl::TEXTURE_2D, t2); // incomplete → the incomplete descriptor
    let h = c.get_texture_handle_arb(t);
    c.make_texture_handle_resident_arb(h);
    let tex = c.get_uniform_location(p, "tex");
    let btex = c.get_uniform_location(p, "btex");
    let ltex = c.get_uniform_location(p, "ltex");
    let tint = c.get_uniform_location(p, "tint");
    c.uniform_1i(tex, 0);
    c.uniform_1i(btex, 1);
    c.uniform_handle_ui64_arb(ltex, h);
    c.uniform_4f(tint, 0.25, 0.5, 0.75, 1.0);
    c.enable(gl::DEPTH_TEST);
    c.draw_arrays_instanced(gl::TRIANGLE_STRIP, 0, 4, 2);
    assert_eq!(c.get_error(), gl::NO_ERROR);

    let d = c.captured.pop().expect("one draw");
    // Attributes: location 0 is disabled → the current value; location 1 an array.
    let slots: Vec<u32> = d.vertices.attribs.iter().map(|a| a.slot).collect();
    assert_eq!(slots, vec![0, 4]);
    match &d.vertices.attribs[0].source {
        AttribSource::Constant(w) => assert_eq!(*w, [1.0f32, 2.0, 3.0, 4.0].map(f32::to_bits)),
        other => panic!("{other:?}"),
    }
    match &d.vertices.attribs[1].source {
        AttribSource::Array {
            stride,
            offset,
            size,
            ..
        } => assert_eq!((*stride, *offset, *size), (8, 8, 2)),
        other => panic!("{other:?}"),
    }
    assert_eq!((d.vertices.count, d.vertices.instance_count), (4, 2));
    assert!(d.vertices.input_words >= 8);

    // Fragment uniforms: offsets as the module laid them out.
    assert_eq!(d.vs.uniforms.len(), 20, "mat4 + vec4 in the vertex stage");
    let fs = &d.fs.uniforms;
    assert_eq!(&fs[0..4], &[0.25f32, 0.5, 0.75, 1.0].map(f32::to_bits));
    let word64 = |at: usize| fs[at] as u64 | (fs[at + 1] as u64) << 32;
    // tint 4, flag 1, arr 3 → tex at 8, btex at 10, ltex at 12.
    let internal = fake.internal.lock().unwrap().clone();
    // An incomplete texture gets an internal descriptor too: the incomplete one, which
    // samples (0, 0, 0, 1) (GL 4.5 core §11.1.3.5).
    assert_eq!(internal.len(), 2, "internal descriptors for units 0 and 1");
    assert_eq!(word64(8), internal[0], "bound unit → internal handle");
    assert_eq!(
        word64(10),
        internal[1],
        "incomplete texture → its incomplete descriptor"
    );
    assert_eq!(word64(12), h, "bindless handle as set");
    assert_eq!(d.fs.blocks.len(), 1);
    let (data, off, len) = d.fs.blocks[0].clone().unwrap();
    assert_eq!((data.len(), off, len), (64, 16, 32));
    assert!(d.sampler.resident.contains(TextureHandle::from_bits(h)));
    assert_eq!(d.state.depth_func, Some(crate::gl::CompareFunc::Less));
    assert_eq!((d.target.width, d.target.height), (8, 8));

    // A second draw reuses the cached internal descriptor; a texture change retires it.
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(fake.internal.lock().unwrap().len(), 2);
    c.make_texture_handle_non_resident_arb(h);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    let last = c.captured.pop().unwrap();
    assert!(
        !last.sampler.resident.contains(TextureHandle::from_bits(h)),
        "residency changes reach new draws"
    );
    let first = c.captured.pop().unwrap();
    assert!(
        first.sampler.resident.contains(TextureHandle::from_bits(h)),
        "queued draws keep the set they saw"
    );

    let t3 = complete_texture(&mut c); // binds t3 to unit 1
    c.active_texture(gl::TEXTURE0);
    c.bind_texture(gl::TEXTURE_2D, t3);
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    let n_internal = fake.internal.lock().unwrap().len();
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER, gl::LINEAR as i32);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(
        fake.internal.lock().unwrap().len(),
        n_internal + 1,
        "state change → new descriptor"
    );
    c.finish();
    assert!(
        !fake.removed.lock().unwrap().is_empty(),
        "the stale one is removed after the flush"
    );
}

#[test]
fn buffer_snapshots_are_copy_on_write() {
    let (mut c, _, _) = ready();
    let ubo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::UNIFORM_BUFFER, ubo);
    c.buffer_data(gl::UNIFORM_BUFFER, 32, Some(&[1; 32]), gl::DYNAMIC_DRAW);
    c.bind_buffer_base(gl::UNIFORM_BUFFER, 2, ubo);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    c.buffer_sub_data(gl::UNIFORM_BUFFER, 0, &[9; 4]);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    let second = c.captured.pop().unwrap();
    let first = c.captured.pop().unwrap();
    assert_eq!(first.fs.blocks[0].as_ref().unwrap().0[0], 1);
    assert_eq!(second.fs.blocks[0].as_ref().unwrap().0[0], 9);
}

#[test]
fn clear_snapshot_and_framebuffer_target() {
    let (mut c, _, _) = ready();
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8 as i32,
        4,
        2,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, f);
    c.framebuffer_texture_2d(
        gl::DRAW_FRAMEBUFFER,
        gl::COLOR_ATTACHMENT1,
        gl::TEXTURE_2D,
        t,
        0,
    );
    c.draw_buffers(&[gl::NONE, gl::COLOR_ATTACHMENT1]);
    let ubo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::UNIFORM_BUFFER, ubo);
    c.buffer_data(gl::UNIFORM_BUFFER, 32, None, gl::DYNAMIC_DRAW);
    c.bind_buffer_base(gl::UNIFORM_BUFFER, 2, ubo);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let d = c.captured.pop().unwrap();
    assert_eq!(d.target.colors.len(), 2);
    assert!(d.target.colors[0].is_none());
    assert_eq!(d.target.colors[1].as_ref().unwrap().width(), 4);
    assert!(d.target.depth.is_none());
    assert_eq!((d.target.width, d.target.height), (4, 2));
}

#[test]
fn handle_as_current_vertex_attribute_reaches_the_snapshot() {
    let (mut c, _, _) = ready();
    let ubo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::UNIFORM_BUFFER, ubo);
    c.buffer_data(gl::UNIFORM_BUFFER, 32, None, gl::STATIC_DRAW);
    c.bind_buffer_base(gl::UNIFORM_BUFFER, 2, ubo);
    let t = complete_texture(&mut c);
    let h = c.get_texture_handle_arb(t);
    c.vertex_attrib_l1ui64_arb(1, h);
    c.vertex_attrib_l1ui64v_arb(1, &[]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    let d = c.captured.pop().unwrap();
    match &d.vertices.attribs[1].source {
        AttribSource::Constant(w) => assert_eq!(*w, [h as u32, (h >> 32) as u32, 0, 0]),
        other => panic!("{other:?}"),
    }
}

#[test]
fn clear_then_read_pixels_default_framebuffer() {
    let mut c = Context::with_threads(5, 3, 2);
    c.clear_color(1.0, 0.5, 0.0, 1.0);
    c.clear_depth(0.25);
    c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT);
    let px = c.read_pixels(0, 0, 5, 3, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(px.len(), 60);
    assert!(px.chunks(4).all(|p| p == [255, 128, 0, 255]));
    let f = c.read_pixels(4, 2, 1, 1, gl::RGBA, gl::FLOAT);
    let f: Vec<f32> = f
        .chunks(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    assert_eq!(f, vec![1.0, 128.0 / 255.0, 0.0, 1.0]);
    let d = c.read_pixels(0, 0, 1, 1, gl::DEPTH_COMPONENT, gl::FLOAT);
    assert!((f32::from_le_bytes([d[0], d[1], d[2], d[3]]) - 0.25).abs() < 1e-6);
    // Scissor and colour mask limit a clear (GL 4.5 core §17.4.3).
    c.enable(gl::SCISSOR_TEST);
    c.scissor(1, 1, 2, 1);
    c.color_mask(false, true, true, true);
    c.clear_color(0.0, 0.0, 1.0, 0.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    assert_eq!(
        c.read_pixels(1, 1, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE),
        vec![255, 0, 255, 0]
    );
    assert_eq!(
        c.read_pixels(0, 1, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE),
        vec![255, 128, 0, 255]
    );
    // Rows are padded to GL_PACK_ALIGNMENT: 5 RGB texels = 15 bytes → 16 per row.
    c.pixel_storei(gl::PACK_ALIGNMENT, 8);
    assert_eq!(
        c.read_pixels(0, 0, 5, 3, gl::RGB, gl::UNSIGNED_BYTE).len(),
        48
    );
}

/// glReadPixels into the caller's memory writes the client image GL describes and nothing
/// more: the padding between rows keeps its bytes, nothing is written past the last row's
/// pixels (a buffer of exactly (h-1)·stride + w·pixel bytes is enough), pixels outside the
/// framebuffer read as zero, and a buffer too short is GL_INVALID_OPERATION, untouched.
#[test]
fn read_pixels_into_writes_only_the_client_image() {
    let mut c = Context::with_threads(5, 3, 2);
    c.clear_color(1.0, 0.5, 0.0, 1.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    c.pixel_storei(gl::PACK_ALIGNMENT, 8);
    // 3 RGBA pixels = 12 bytes a row, stride 16; 2 rows need 16 + 12 = 28 bytes.
    let mut buf = vec![0xAAu8; 28];
    c.read_pixels_into(3, 1, 3, 2, gl::RGBA, gl::UNSIGNED_BYTE, &mut buf);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let px = [255, 128, 0, 255];
    let want: Vec<u8> = [&px[..], &px, &[0; 4], &[0xAA; 4], &px, &px, &[0; 4]].concat();
    assert_eq!(buf, want, "x = 5 is outside the 5-wide framebuffer");
    // The Vec form pads every row, the last too, and matches the pixels.
    let v = c.read_pixels(3, 1, 3, 2, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(v.len(), 32);
    assert_eq!(&v[16..28], &want[16..28]);
    let mut short = vec![7u8; 27];
    c.read_pixels_into(3, 1, 3, 2, gl::RGBA, gl::UNSIGNED_BYTE, &mut short);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    assert!(short.iter().all(|&b| b == 7));
    // Converted formats take the same walk: RGB floats, 12 bytes a pixel.
    c.pixel_storei(gl::PACK_ALIGNMENT, 4);
    let mut f = vec![0u8; 24];
    c.read_pixels_into(0, 0, 2, 1, gl::RGB, gl::FLOAT, &mut f);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let f: Vec<f32> = f
        .chunks(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    assert_eq!(f, [1.0, 128.0 / 255.0, 0.0, 1.0, 128.0 / 255.0, 0.0]);
}

// ---- surfaces, context attributes, share groups (issue #3 item 2) ----

use crate::api::surface::Surface;
use crate::api::version::{ContextAttribs, Profile};

/// A context made as EGL makes one (`with_attribs`), sharing `c`'s group (and so its
/// stand-in compilers and descriptor allocator).
fn peer(c: &Context) -> Context {
    Context::with_attribs(&ContextAttribs::default(), Some(c)).expect("1.0 is always supported")
}

/// Binds a new framebuffer with a `w`×`h` RGBA8 renderbuffer as colour 0.
fn renderbuffer_fbo(c: &mut Context, w: i32, h: i32) -> u32 {
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    let r = c.gen_renderbuffers(1)[0];
    c.bind_renderbuffer(gl::RENDERBUFFER, r);
    c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, w, h);
    c.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, r);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    f
}

#[test]
fn no_surface_means_no_default_framebuffer() {
    let mut c = Context::with_attribs(&ContextAttribs::default(), None).unwrap();
    assert!(c.default_surface().is_none());
    // GL 4.5 core §9.4.2: FRAMEBUFFER_UNDEFINED for a default framebuffer that does not
    // exist.
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_UNDEFINED
    );
    assert_eq!(
        c.check_framebuffer_status(gl::READ_FRAMEBUFFER),
        gl::FRAMEBUFFER_UNDEFINED
    );
    assert_eq!(c.get_integerv(gl::VIEWPORT), vec![0; 4]);
    c.clear(gl::COLOR_BUFFER_BIT);
    assert_eq!(c.get_error(), gl::INVALID_FRAMEBUFFER_OPERATION);
    assert!(c
        .read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE)
        .is_empty());
    assert_eq!(c.get_error(), gl::INVALID_FRAMEBUFFER_OPERATION);

    // Rendering to an FBO works without a surface.
    renderbuffer_fbo(&mut c, 3, 2);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    c.clear_color(0.0, 1.0, 0.0, 1.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    let px = c.read_pixels(0, 0, 3, 2, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(px, [0, 255, 0, 255].repeat(6));
}

#[test]
fn first_surface_sets_viewport_and_scissor() {
    let mut c = Context::with_attribs(&ContextAttribs::default(), None).unwrap();
    let s = Surface::new(8, 6, true).unwrap();
    c.set_default_surface(Some(&s));
    assert_eq!(c.get_integerv(gl::VIEWPORT), vec![0, 0, 8, 6]);
    assert_eq!(c.get_integerv(gl::SCISSOR_BOX), vec![0, 0, 8, 6]);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    c.clear_color(1.0, 0.0, 0.0, 1.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    assert_eq!(
        c.read_pixels(7, 5, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE),
        vec![255, 0, 0, 255]
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // Later surfaces leave viewport and scissor as the application set them (§13.6.1: only
    // the first attachment to a window sets them).
    c.viewport(1, 1, 2, 2);
    let small = Surface::new(2, 2, false).unwrap();
    c.set_default_surface(Some(&small));
    assert_eq!(c.get_integerv(gl::VIEWPORT), vec![1, 1, 2, 2]);
    assert_eq!(c.get_integerv(gl::SCISSOR_BOX), vec![0, 0, 8, 6]);
    // A surface without depth/stencil: the colour buffer works, depth reads are refused.
    c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        c.read_pixels(1, 1, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE),
        vec![255, 0, 0, 255]
    );
    assert!(c
        .read_pixels(0, 0, 1, 1, gl::DEPTH_COMPONENT, gl::FLOAT)
        .is_empty());
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // Back to no surface.
    c.set_default_surface(None);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_UNDEFINED
    );
    c.clear(gl::COLOR_BUFFER_BIT);
    assert_eq!(c.get_error(), gl::INVALID_FRAMEBUFFER_OPERATION);
    // The surface kept what was drawn into it.
    c.set_default_surface(Some(&s));
    assert_eq!(
        c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE),
        vec![255, 0, 0, 255]
    );
}

#[test]
fn draw_without_surface_is_an_invalid_framebuffer_operation() {
    let (mut c, _, _) = ready();
    let ubo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::UNIFORM_BUFFER, ubo);
    c.buffer_data(gl::UNIFORM_BUFFER, 64, None, gl::STATIC_DRAW);
    c.bind_buffer_base(gl::UNIFORM_BUFFER, 2, ubo);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.set_default_surface(None);
    let before = c.captured.len();
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::INVALID_FRAMEBUFFER_OPERATION);
    assert_eq!(c.captured.len(), before, "nothing queued");
    // To an FBO it draws.
    renderbuffer_fbo(&mut c, 4, 4);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.captured.len(), before + 1);
}

#[test]
fn one_surface_two_contexts_share_its_images() {
    let s = Surface::new(2, 2, true).unwrap();
    let mut a = Context::with_attribs(&ContextAttribs::default(), None).unwrap();
    let mut b = Context::with_attribs(&ContextAttribs::default(), None).unwrap();
    a.set_default_surface(Some(&s));
    a.clear_color(0.0, 0.0, 1.0, 1.0);
    a.clear(gl::COLOR_BUFFER_BIT);
    a.finish();
    b.set_default_surface(Some(&s));
    assert_eq!(
        b.read_pixels(0, 0, 2, 2, gl::RGBA, gl::UNSIGNED_BYTE),
        [0, 0, 255, 255].repeat(4)
    );
}

#[test]
fn attributes_answer_the_context_queries() {
    let a = ContextAttribs {
        debug: true,
        ..ContextAttribs::default()
    };
    let mut c = Context::with_attribs(&a, None).unwrap();
    assert!(c.attribs().debug);
    // KHR_debug §5.5.1: DEBUG_OUTPUT starts enabled in a debug context.
    assert!(c.is_enabled(gl::DEBUG_OUTPUT));
    assert_eq!(
        c.get_integerv(gl::CONTEXT_FLAGS),
        vec![gl::CONTEXT_FLAG_DEBUG_BIT as i32]
    );
    let mut n = Context::with_attribs(&ContextAttribs::default(), None).unwrap();
    // KHR_debug's state table: FALSE unless the context is a debug context.
    assert!(!n.is_enabled(gl::DEBUG_OUTPUT));
    assert_eq!(n.get_integerv(gl::CONTEXT_FLAGS), vec![0]);
    // Below 3.2 there is no profile (the whole reported version is 1.0 without override).
    let (major, minor) = n.version();
    assert_eq!(n.get_integerv(gl::MAJOR_VERSION), vec![major as i32]);
    assert_eq!(n.get_integerv(gl::MINOR_VERSION), vec![minor as i32]);
    if (major, minor) < (3, 2) {
        assert_eq!(n.get_integerv(gl::CONTEXT_PROFILE_MASK), vec![0]);
    }
    // A version that does not exist is refused whatever the override says.
    let bad = ContextAttribs {
        major: 3,
        minor: 7,
        profile: Profile::Core,
        ..ContextAttribs::default()
    };
    assert!(Context::with_attribs(&bad, None).is_err());
}

#[test]
fn share_group_shares_objects_not_containers() {
    let (mut a, fake, p) = ready();
    let mut b = peer(&a);
    assert!(a.shares_with(&b));
    let buf = a.gen_buffers(1)[0];
    a.bind_buffer(gl::ARRAY_BUFFER, buf);
    a.buffer_data(gl::ARRAY_BUFFER, 4, Some(&[1, 2, 3, 4]), gl::STATIC_DRAW);
    let t = complete_texture(&mut a);
    let s = a.gen_samplers(1)[0];
    let r = a.gen_renderbuffers(1)[0];
    a.bind_renderbuffer(gl::RENDERBUFFER, r);
    let vao = a.create_vertex_arrays(1)[0];
    let fbo = a.gen_framebuffers(1)[0];
    a.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    assert_eq!(a.get_error(), gl::NO_ERROR);

    // Shared: the same names name the same objects in B.
    assert!(b.is_buffer(buf) && b.is_texture(t) && b.is_sampler(s));
    assert!(b.is_renderbuffer(r) && b.is_program(p));
    b.bind_buffer(gl::ARRAY_BUFFER, buf);
    assert_eq!(
        b.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, 4),
        vec![1, 2, 3, 4]
    );
    // Names made in B are not reused by A: one namespace per object kind.
    let buf_b = b.gen_buffers(1)[0];
    b.bind_buffer(gl::ARRAY_BUFFER, buf_b);
    assert_ne!(buf_b, buf);
    assert!(a.is_buffer(buf_b));
    // Per context: VAOs and framebuffers (GL 4.5 core §5: container objects).
    assert!(a.is_vertex_array(vao) && !b.is_vertex_array(vao));
    assert!(a.is_framebuffer(fbo) && !b.is_framebuffer(fbo));
    // A program linked in A is used and drawn with in B.
    b.use_program(p);
    let vao_b = b.gen_vertex_arrays(1)[0];
    b.bind_vertex_array(vao_b);
    let ubo = b.gen_buffers(1)[0];
    b.bind_buffer(gl::UNIFORM_BUFFER, ubo);
    b.buffer_data(gl::UNIFORM_BUFFER, 64, None, gl::STATIC_DRAW);
    b.bind_buffer_base(gl::UNIFORM_BUFFER, 2, ubo);
    b.set_default_surface(Some(&Surface::new(4, 4, true).unwrap()));
    b.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(b.get_error(), gl::NO_ERROR);
    assert_eq!(b.captured.len(), 1);

    // Deleted in A: gone in B.
    a.delete_buffers(&[buf]);
    a.delete_textures(&[t]);
    assert!(!b.is_buffer(buf) && !b.is_texture(t));
    let _ = fake;
}

#[test]
fn bindless_handles_shared_residency_per_context() {
    let (mut a, _, _) = ready();
    let mut b = peer(&a);
    let t = complete_texture(&mut a);
    let s = a.gen_samplers(1)[0];
    // Set in A, seen by B when B makes the texture/sampler handle.
    a.sampler_parameter_i(s, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    let h = a.get_texture_handle_arb(t);
    assert_ne!(h, 0);
    // ARB_bindless_texture: one handle per texture (and texture/sampler pair) in the group.
    assert_eq!(b.get_texture_handle_arb(t), h);
    let hs = b.get_texture_sampler_handle_arb(t, s);
    assert_ne!(hs, 0);
    assert_eq!(a.get_texture_sampler_handle_arb(t, s), hs);
    assert_eq!(a.get_error(), gl::NO_ERROR);
    assert_eq!(b.get_error(), gl::NO_ERROR);
    // Residency is per context.
    a.make_texture_handle_resident_arb(h);
    assert!(a.is_texture_handle_resident_arb(h));
    assert!(!b.is_texture_handle_resident_arb(h));
    assert_eq!(b.get_error(), gl::NO_ERROR);
    b.make_texture_handle_resident_arb(h);
    assert_eq!(
        b.get_error(),
        gl::NO_ERROR,
        "resident in A does not make it so in B"
    );
    assert!(b.is_texture_handle_resident_arb(h));
    b.make_texture_handle_non_resident_arb(h);
    assert!(a.is_texture_handle_resident_arb(h));
    // A texture with a handle is immutable in every context of the group.
    b.bind_texture(gl::TEXTURE_2D, t);
    b.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    assert_eq!(b.get_error(), gl::INVALID_OPERATION);
    // Deleting the texture in B frees the handle for the whole group.
    b.delete_textures(&[t]);
    b.is_texture_handle_resident_arb(h);
    assert_eq!(
        b.get_error(),
        gl::INVALID_OPERATION,
        "not a handle any more"
    );
    a.is_texture_handle_resident_arb(h);
    assert_eq!(
        a.get_error(),
        gl::INVALID_OPERATION,
        "not a handle in A either"
    );
}

#[test]
fn changes_in_one_context_reach_the_others_next_draw() {
    // B draws into an FBO whose texture A re-specifies: B's derived target must follow.
    let (mut a, _, p) = ready();
    let mut b = peer(&a);
    let t = a.gen_textures(1)[0];
    a.bind_texture(gl::TEXTURE_2D, t);
    a.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8 as i32,
        4,
        4,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    let f = b.gen_framebuffers(1)[0];
    b.bind_framebuffer(gl::FRAMEBUFFER, f);
    b.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, t, 0);
    b.use_program(p);
    let vao = b.gen_vertex_arrays(1)[0];
    b.bind_vertex_array(vao);
    let ubo = b.gen_buffers(1)[0];
    b.bind_buffer(gl::UNIFORM_BUFFER, ubo);
    b.buffer_data(gl::UNIFORM_BUFFER, 64, None, gl::STATIC_DRAW);
    b.bind_buffer_base(gl::UNIFORM_BUFFER, 2, ubo);
    b.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(b.get_error(), gl::NO_ERROR);
    assert_eq!(b.captured.pop().unwrap().target.width, 4);
    a.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8 as i32,
        8,
        2,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    b.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(b.get_error(), gl::NO_ERROR);
    let d = b.captured.pop().unwrap();
    assert_eq!((d.target.width, d.target.height), (8, 2));
}

#[test]
fn program_deleted_while_current_in_another_context_lives_until_released() {
    let (mut a, _, p) = ready();
    let mut b = peer(&a);
    b.use_program(p);
    // Current in A and B: flagged (GL 4.5 core §7.3).
    a.delete_program(p);
    assert_eq!(a.get_error(), gl::NO_ERROR);
    assert_eq!(a.get_programiv(p, gl::DELETE_STATUS), 1);
    a.use_program(0);
    // Still current in B: still there.
    assert!(b.is_program(p));
    assert_eq!(b.get_integerv(gl::CURRENT_PROGRAM), vec![p as i32]);
    b.use_program(0);
    assert!(!a.is_program(p) && !b.is_program(p));
    // A context that goes away releases its program too.
    let (mut c, _, q) = ready();
    let mut d = peer(&c);
    d.use_program(q);
    c.use_program(0);
    c.delete_program(q);
    assert!(c.is_program(q));
    drop(d);
    assert!(!c.is_program(q));
}

/// The viewport's limits as GL 4.5 core states them (table 23.53): 8 sub-pixel bits, an
/// integer origin clamped to GL_VIEWPORT_BOUNDS_RANGE, sizes clamped to
/// GL_MAX_VIEWPORT_DIMS.
#[test]
fn viewport_bounds_and_subpixel_bits() {
    let mut c = Context::with_threads(16, 16, 1);
    assert_eq!(c.get_integerv(gl::SUBPIXEL_BITS), vec![8]);
    assert_eq!(c.get_integerv(gl::VIEWPORT_SUBPIXEL_BITS), vec![0]);
    assert_eq!(
        c.get_integerv(gl::VIEWPORT_BOUNDS_RANGE),
        vec![-32768, 32767]
    );
    assert_eq!(
        c.get_floatv(gl::VIEWPORT_BOUNDS_RANGE),
        vec![-32768.0, 32767.0]
    );
    c.viewport(100_000, -100_000, 20_000, 7);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.get_integerv(gl::VIEWPORT), vec![32767, -32768, 16384, 7]);
    c.viewport(-5, 3, 1, 2);
    assert_eq!(c.get_integerv(gl::VIEWPORT), vec![-5, 3, 1, 2]);
}
