//! State VTK sets through the Rust `Context`: glBindFragDataLocation(Indexed) and
//! glGetFragData{Location,Index} (GL 4.5 core §15.2.3) steering outputs to colour
//! attachments, glGet{Tex,Sampler}Parameter* (§8.11.2, §8.2), glPointSize / glLineWidth and
//! their ranges (§14.4, §14.5), the stored capabilities GL_MULTISAMPLE, GL_LINE_SMOOTH,
//! GL_POLYGON_SMOOTH, GL_DITHER, GL_TEXTURE_CUBE_MAP_SEAMLESS, and glTextureSubImage2D (§8.6, DSA).

use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use softgl::{enums as gl, get_proc_address, make_current, Context, SharedContext};

const N: i32 = 8;

const VS: &str = "#version 330
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.0, 1.0);
}";

/// Two outputs without layout(location): where they land is up to the bindings.
const FS2: &str = "#version 330
out vec4 first;
out vec4 second;
void main() { first = vec4(1.0, 0.0, 0.0, 1.0); second = vec4(0.0, 1.0, 0.0, 1.0); }";

fn ctx() -> Context {
    let mut c = Context::with_threads(N as u32, N as u32, 1);
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    c
}

fn shader(c: &mut Context, kind: u32, src: &str) -> u32 {
    let s = c.create_shader(kind);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    assert_eq!(
        c.get_shaderiv(s, gl::COMPILE_STATUS),
        1,
        "{}",
        c.get_shader_info_log(s)
    );
    s
}

/// An unlinked program of VS and `fs`.
fn program(c: &mut Context, fs: &str) -> u32 {
    let v = shader(c, gl::VERTEX_SHADER, VS);
    let f = shader(c, gl::FRAGMENT_SHADER, fs);
    let p = c.create_program();
    c.attach_shader(p, v);
    c.attach_shader(p, f);
    p
}

fn link(c: &mut Context, p: u32) {
    c.link_program(p);
    assert_eq!(
        c.get_programiv(p, gl::LINK_STATUS),
        1,
        "{}",
        c.get_program_info_log(p)
    );
}

/// An FBO with two RGBA8 colour renderbuffers, both drawn to, cleared to black.
fn two_targets(c: &mut Context) -> u32 {
    let fbo = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    for i in 0..2 {
        let rb = c.gen_renderbuffers(1)[0];
        c.bind_renderbuffer(gl::RENDERBUFFER, rb);
        c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, N, N);
        c.framebuffer_renderbuffer(
            gl::FRAMEBUFFER,
            gl::COLOR_ATTACHMENT0 + i,
            gl::RENDERBUFFER,
            rb,
        );
    }
    c.draw_buffers(&[gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT1]);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    c.viewport(0, 0, N, N);
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    fbo
}

/// Pixel (1, 1) of colour attachment `i`.
fn pixel(c: &mut Context, i: u32) -> Vec<u8> {
    c.read_buffer(gl::COLOR_ATTACHMENT0 + i);
    c.read_pixels(1, 1, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE)
}

#[test]
fn frag_data_bindings_route_outputs_to_attachments() {
    let mut c = ctx();
    two_targets(&mut c);
    let p = program(&mut c, FS2);
    // Bound before the link: second → 0, first → 1 (the reverse of declaration order).
    c.bind_frag_data_location(p, 1, "first");
    c.bind_frag_data_location(p, 0, "second");
    assert_eq!(c.get_error(), gl::NO_ERROR);
    link(&mut c, p);
    assert_eq!(c.get_frag_data_location(p, "first"), 1);
    assert_eq!(c.get_frag_data_location(p, "second"), 0);
    assert_eq!(c.get_frag_data_index(p, "first"), 0);
    assert_eq!(c.get_frag_data_location(p, "missing"), -1);
    assert_eq!(c.get_frag_data_index(p, "missing"), -1);
    c.use_program(p);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(pixel(&mut c, 0), [0, 255, 0, 255], "second → attachment 0");
    assert_eq!(pixel(&mut c, 1), [255, 0, 0, 255], "first → attachment 1");

    // A binding takes effect at the next link only.
    c.bind_frag_data_location(p, 0, "first");
    c.bind_frag_data_location(p, 1, "second");
    assert_eq!(c.get_frag_data_location(p, "first"), 1);
    link(&mut c, p);
    assert_eq!(c.get_frag_data_location(p, "first"), 0);
    assert_eq!(c.get_frag_data_location(p, "second"), 1);
}

#[test]
fn layout_location_wins_over_a_binding() {
    let mut c = ctx();
    two_targets(&mut c);
    let p = program(
        &mut c,
        "#version 330
layout(location = 1) out vec4 color;
void main() { color = vec4(0.0, 0.0, 1.0, 1.0); }",
    );
    c.bind_frag_data_location(p, 0, "color");
    link(&mut c, p);
    assert_eq!(c.get_frag_data_location(p, "color"), 1);
    c.use_program(p);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(pixel(&mut c, 0), [0, 0, 0, 0]);
    assert_eq!(pixel(&mut c, 1), [0, 0, 255, 255]);
}

#[test]
fn frag_data_binding_errors() {
    let mut c = ctx();
    c.enable(gl::DEBUG_OUTPUT);
    let p = program(&mut c, FS2);
    c.bind_frag_data_location(p, 8, "first");
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "past GL_MAX_DRAW_BUFFERS");
    c.bind_frag_data_location(p, 0, "gl_FragColor");
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "gl_ prefix");
    // GL_MAX_DUAL_SOURCE_DRAW_BUFFERS is 1: index 1 takes colour number 0 only.
    c.bind_frag_data_location_indexed(p, 1, 1, "first");
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.bind_frag_data_location_indexed(p, 0, 2, "first");
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.bind_frag_data_location_indexed(p, 0, 0, "first");
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.bind_frag_data_location(p + 100, 0, "first");
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "not a program name");
    // Not linked yet.
    assert_eq!(c.get_frag_data_location(p, "first"), -1);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    link(&mut c, p);
    assert_eq!(c.get_frag_data_location(p, "first"), 0);
    let log = c.debug_messages();
    assert!(
        log.iter()
            .any(|m| m.message.contains("glBindFragDataLocationIndexed")),
        "{log:?}"
    );
    assert!(log
        .iter()
        .any(|m| m.message.contains("glBindFragDataLocation ")
            || m.message.contains("glBindFragDataLocation:")
            || m.message.contains("glBindFragDataLocation(")));
}

#[test]
fn tex_and_sampler_parameters_read_back() {
    let mut c = ctx();
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_parameter_fv(
        gl::TEXTURE_2D,
        gl::TEXTURE_BORDER_COLOR,
        &[0.5, -1.0, 1.0, 0.25],
    );
    c.tex_parameter_f(gl::TEXTURE_2D, gl::TEXTURE_MIN_LOD, 1.5);
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        c.get_tex_parameterfv(gl::TEXTURE_2D, gl::TEXTURE_BORDER_COLOR),
        [0.5, -1.0, 1.0, 0.25]
    );
    assert_eq!(
        c.get_tex_parameterfv(gl::TEXTURE_2D, gl::TEXTURE_MIN_LOD),
        [1.5]
    );
    assert_eq!(
        c.get_tex_parameterfv(gl::TEXTURE_2D, gl::TEXTURE_MAX_LOD),
        [1000.0]
    );
    assert_eq!(
        c.get_tex_parameterfv(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER),
        [gl::NEAREST as f32]
    );
    // Integer forms: floats round, the border colour converts as signed normalized.
    assert_eq!(
        c.get_tex_parameteriv(gl::TEXTURE_2D, gl::TEXTURE_MIN_LOD),
        2
    );
    assert_eq!(
        c.get_tex_parameteriv_all(gl::TEXTURE_2D, gl::TEXTURE_BORDER_COLOR),
        [1073741824, -i32::MAX, i32::MAX, 536870912]
    );
    assert!(c
        .get_tex_parameterfv(gl::TEXTURE_2D, gl::TEXTURE_WIDTH)
        .is_empty());
    assert_eq!(c.get_error(), gl::INVALID_ENUM);

    let s = c.gen_samplers(1)[0];
    assert_eq!(
        c.get_sampler_parameteriv(s, gl::TEXTURE_MIN_FILTER),
        [gl::NEAREST_MIPMAP_LINEAR as i32]
    );
    c.sampler_parameter_i(s, gl::TEXTURE_WRAP_T, gl::CLAMP_TO_EDGE as i32);
    c.sampler_parameter_i(
        s,
        gl::TEXTURE_COMPARE_MODE,
        gl::COMPARE_REF_TO_TEXTURE as i32,
    );
    c.sampler_parameter_f(s, gl::TEXTURE_LOD_BIAS, -0.75);
    assert_eq!(
        c.get_sampler_parameteriv(s, gl::TEXTURE_WRAP_T),
        [gl::CLAMP_TO_EDGE as i32]
    );
    assert_eq!(
        c.get_sampler_parameter_iuiv(s, gl::TEXTURE_COMPARE_MODE),
        [gl::COMPARE_REF_TO_TEXTURE]
    );
    assert_eq!(c.get_sampler_parameterfv(s, gl::TEXTURE_LOD_BIAS), [-0.75]);
    assert_eq!(c.get_sampler_parameter_iiv(s, gl::TEXTURE_LOD_BIAS), [-1]);
    assert_eq!(
        c.get_sampler_parameterfv(s, gl::TEXTURE_BORDER_COLOR),
        [0.0; 4]
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert!(c
        .get_sampler_parameteriv(s, gl::TEXTURE_BASE_LEVEL)
        .is_empty());
    assert_eq!(c.get_error(), gl::INVALID_ENUM, "not sampler state");
    assert!(c
        .get_sampler_parameterfv(s + 7, gl::TEXTURE_MIN_LOD)
        .is_empty());
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "not a sampler");
}

#[test]
fn point_line_state_and_stored_caps() {
    let mut c = ctx();
    assert_eq!(c.get_floatv(gl::POINT_SIZE), [1.0]);
    assert_eq!(c.get_floatv(gl::LINE_WIDTH), [1.0]);
    c.point_size(4.0);
    c.line_width(2.5);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.get_floatv(gl::POINT_SIZE), [4.0]);
    assert_eq!(c.get_floatv(gl::LINE_WIDTH), [2.5]);
    for bad in [0.0, -1.0, f32::NAN] {
        c.point_size(bad);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.line_width(bad);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
    }
    assert_eq!(
        c.get_floatv(gl::LINE_WIDTH),
        [2.5],
        "failed calls change nothing"
    );
    // Points and lines rasterize up to llvmpipe's limits (tests/primitives.rs).
    for range in [
        gl::ALIASED_LINE_WIDTH_RANGE,
        gl::SMOOTH_LINE_WIDTH_RANGE,
        gl::POINT_SIZE_RANGE,
    ] {
        assert_eq!(c.get_floatv(range), [1.0, 255.0]);
        assert_eq!(c.get_integerv(range), [1, 255]);
    }
    assert_eq!(c.get_floatv(gl::POINT_SIZE_GRANULARITY), [0.1]);
    assert_eq!(c.get_floatv(gl::LINE_WIDTH_GRANULARITY), [0.1]);

    for (cap, initial) in [
        (gl::MULTISAMPLE, true),
        (gl::DITHER, true),
        (gl::LINE_SMOOTH, false),
        (gl::POLYGON_SMOOTH, false),
        (gl::PROGRAM_POINT_SIZE, false),
        (gl::TEXTURE_CUBE_MAP_SEAMLESS, false),
    ] {
        assert_eq!(c.is_enabled(cap), initial, "{cap:#x}");
        assert_eq!(c.get_booleanv(cap), [initial]);
        c.enable(cap);
        assert!(c.is_enabled(cap));
        c.disable(cap);
        assert!(!c.is_enabled(cap));
        assert_eq!(c.get_error(), gl::NO_ERROR);
    }
}

#[test]
fn texture_sub_image_2d_writes_the_named_texture() {
    let mut c = ctx();
    let t = c.create_textures(gl::TEXTURE_2D, 1)[0];
    c.texture_sub_image_2d(t, 0, 0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, &[1, 2, 3, 4]);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "level 0 has no image yet"
    );
    // Storage through the binding, contents through the name while another texture is bound.
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 2, 2);
    c.bind_texture(gl::TEXTURE_2D, 0);
    c.texture_sub_image_2d(
        t,
        0,
        1,
        1,
        1,
        1,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &[10, 20, 30, 40],
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let fbo = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    c.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, t, 0);
    assert_eq!(
        c.read_pixels(1, 1, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE),
        [10, 20, 30, 40]
    );
    c.texture_sub_image_2d(t, 0, 2, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, &[0; 4]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "outside the image");
    let unbound = c.gen_textures(1)[0];
    c.texture_sub_image_2d(unbound, 0, 0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, &[0; 4]);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "a name never bound is no object"
    );
    c.texture_sub_image_2d(9999, 0, 0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, &[0; 4]);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}

/// Looks `name` up and casts it to the C signature `$t`, as a loader does.
macro_rules! proc {
    ($name:literal as $t:ty) => {{
        let p = get_proc_address($name);
        assert!(!p.is_null(), "{} is not exported", $name);
        // SAFETY: `$t` is the registry's C signature of `$name` (build.rs checks softgl's
        // generated entry point against gl.xml).
        unsafe { std::mem::transmute::<*const c_void, $t>(p) }
    }};
}

/// The C entry points write every value of a pname (four for a border colour).
#[test]
fn c_entry_points_write_every_value() {
    let ctx: SharedContext = Arc::new(Mutex::new(Context::new(4, 4)));
    make_current(Some(ctx.clone()));
    let gen_samplers = proc!("glGenSamplers" as unsafe extern "system" fn(i32, *mut u32));
    let sampler_fv =
        proc!("glSamplerParameterfv" as unsafe extern "system" fn(u32, u32, *const f32));
    let get_sampler_fv =
        proc!("glGetSamplerParameterfv" as unsafe extern "system" fn(u32, u32, *mut f32));
    let get_sampler_iv =
        proc!("glGetSamplerParameteriv" as unsafe extern "system" fn(u32, u32, *mut i32));
    let get_tex_fv = proc!("glGetTexParameterfv" as unsafe extern "system" fn(u32, u32, *mut f32));
    let get_frag =
        proc!("glGetFragDataLocation" as unsafe extern "system" fn(u32, *const u8) -> i32);
    let line_width = proc!("glLineWidth" as unsafe extern "system" fn(f32));
    let get_floatv = proc!("glGetFloatv" as unsafe extern "system" fn(u32, *mut f32));
    let get_error = proc!("glGetError" as unsafe extern "system" fn() -> u32);
    for name in [
        "glBindFragDataLocation",
        "glBindFragDataLocationIndexed",
        "glGetFragDataIndex",
        "glGetSamplerParameterIiv",
        "glGetSamplerParameterIuiv",
        "glPointSize",
        "glTextureSubImage2D",
    ] {
        assert!(!get_proc_address(name).is_null(), "{name}");
    }
    // SAFETY: every pointer passed is valid for what the command writes.
    unsafe {
        let mut s = 0;
        gen_samplers(1, &mut s);
        sampler_fv(s, gl::TEXTURE_BORDER_COLOR, [0.25, 0.5, 0.75, 1.0].as_ptr());
        let mut f = [9.0f32; 5];
        get_sampler_fv(s, gl::TEXTURE_BORDER_COLOR, f.as_mut_ptr());
        assert_eq!(f, [0.25, 0.5, 0.75, 1.0, 9.0]);
        let mut i = [7i32; 2];
        get_sampler_iv(s, gl::TEXTURE_MAG_FILTER, i.as_mut_ptr());
        assert_eq!(i, [gl::LINEAR as i32, 7]);
        get_tex_fv(gl::TEXTURE_2D, gl::TEXTURE_BORDER_COLOR, f.as_mut_ptr());
        assert_eq!(f, [0.0, 0.0, 0.0, 0.0, 9.0]);
        assert_eq!(get_error(), gl::NO_ERROR);
        line_width(0.0);
        assert_eq!(get_error(), gl::INVALID_VALUE);
        get_floatv(gl::ALIASED_LINE_WIDTH_RANGE, f.as_mut_ptr());
        assert_eq!(f[..3], [1.0, 255.0, 0.0]);
        assert_eq!(get_frag(12345, c"x".as_ptr().cast()), -1);
        assert_eq!(get_error(), gl::INVALID_VALUE, "not a program name");
    }
    make_current(None);
}

/// glTextureParameter* (DSA, GL 4.5 core §8.10) set the named texture's state without
/// binding it, with the errors of glTexParameter* plus INVALID_OPERATION for a name that
/// is not a texture.
#[test]
fn texture_parameter_dsa_sets_the_named_texture() {
    let mut c = ctx();
    let t = c.create_textures(gl::TEXTURE_2D, 1)[0];
    c.texture_parameter_i(t, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    c.texture_parameter_f(t, gl::TEXTURE_MAX_LOD, 3.5);
    c.texture_parameter_iv(t, gl::TEXTURE_WRAP_S, &[gl::MIRRORED_REPEAT as i32]);
    c.texture_parameter_fv(t, gl::TEXTURE_BORDER_COLOR, &[0.0, 0.0, 0.0, 1.0]);
    c.texture_parameter_iiv(t, gl::TEXTURE_WRAP_T, &[gl::CLAMP_TO_EDGE as i32]);
    c.texture_parameter_iuiv(t, gl::TEXTURE_MAG_FILTER, &[gl::NEAREST]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // Nothing was bound by those calls.
    assert_eq!(c.get_integerv(gl::TEXTURE_BINDING_2D), [0]);
    c.bind_texture(gl::TEXTURE_2D, t);
    assert_eq!(
        c.get_tex_parameteriv(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER),
        gl::NEAREST as i32
    );
    assert_eq!(
        c.get_tex_parameteriv(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER),
        gl::NEAREST as i32
    );
    assert_eq!(
        c.get_tex_parameteriv(gl::TEXTURE_2D, gl::TEXTURE_WRAP_S),
        gl::MIRRORED_REPEAT as i32
    );
    assert_eq!(
        c.get_tex_parameteriv(gl::TEXTURE_2D, gl::TEXTURE_WRAP_T),
        gl::CLAMP_TO_EDGE as i32
    );
    assert_eq!(
        c.get_tex_parameterfv(gl::TEXTURE_2D, gl::TEXTURE_MAX_LOD),
        [3.5]
    );
    c.texture_parameter_i(9999, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.texture_parameter_i(t, gl::TEXTURE_MIN_FILTER, gl::TEXTURE_2D as i32);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
}
