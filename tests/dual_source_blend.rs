//! Dual-source blending (ARB_blend_func_extended, GL 4.5 core §17.3.6 and §15.2.3) through
//! the Rust `Context` with the real GLSL front end and JIT: `layout(location = 0, index = 1)`
//! and glBindFragDataLocationIndexed index 1 feed the SRC1_* factors, exactly on an RGBA8
//! target (the integer path) and an RGBA32F one (f32), identically on 1 and 2 threads;
//! glGetFragDataIndex, GL_MAX_DUAL_SOURCE_DRAW_BUFFERS, and the errors: index 2, index 1
//! past location 0, and the draw-time INVALID_OPERATION with two draw buffers.

mod common;

use softgl::{enums as gl, Context};

const W: i32 = 10;
const H: i32 = 6;

const VS: &str = "#version 330
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.0, 1.0);
}";

const S0: [f32; 4] = [0.5, 0.25, 1.0, 0.5];
const S1: [f32; 4] = [0.25, 0.75, 0.5, 0.125];
const CLEAR: [f32; 4] = [0.0, 1.0, 0.5, 1.0];

/// Both colours by layout qualifiers.
const FS_LAYOUT: &str = "#version 330
layout(location = 0, index = 0) out vec4 c0;
layout(location = 0, index = 1) out vec4 c1;
void main() { c0 = vec4(0.5, 0.25, 1.0, 0.5); c1 = vec4(0.25, 0.75, 0.5, 0.125); }";

/// The same colours without layouts: glBindFragDataLocationIndexed places them.
const FS_BOUND: &str = "#version 150
out vec4 c0;
out vec4 c1;
void main() { c0 = vec4(0.5, 0.25, 1.0, 0.5); c1 = vec4(0.25, 0.75, 0.5, 0.125); }";

fn link(c: &mut Context, fs: &str, bind: bool) -> u32 {
    let mut shader = |kind, src: &str| {
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
    };
    let (v, f) = (
        shader(gl::VERTEX_SHADER, VS),
        shader(gl::FRAGMENT_SHADER, fs),
    );
    let p = c.create_program();
    c.attach_shader(p, v);
    c.attach_shader(p, f);
    if bind {
        c.bind_frag_data_location_indexed(p, 0, 0, "c0");
        c.bind_frag_data_location_indexed(p, 0, 1, "c1");
        assert_eq!(c.get_error(), gl::NO_ERROR);
    }
    c.link_program(p);
    assert_eq!(
        c.get_programiv(p, gl::LINK_STATUS),
        1,
        "{}",
        c.get_program_info_log(p)
    );
    p
}

/// A context with a W×H FBO of one `format` renderbuffer per entry of `attachments`,
/// cleared to `CLEAR`, and the program of `fs` bound.
fn setup(threads: usize, format: u32, fs: &str, bind: bool) -> Context {
    let mut c = common::context(W as u32, H as u32, threads);
    let fbo = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    for i in 0..2 {
        let rb = c.gen_renderbuffers(1)[0];
        c.bind_renderbuffer(gl::RENDERBUFFER, rb);
        c.renderbuffer_storage(gl::RENDERBUFFER, format, W, H);
        c.framebuffer_renderbuffer(
            gl::FRAMEBUFFER,
            gl::COLOR_ATTACHMENT0 + i,
            gl::RENDERBUFFER,
            rb,
        );
    }
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    c.viewport(0, 0, W, H);
    c.clear_color(CLEAR[0], CLEAR[1], CLEAR[2], CLEAR[3]);
    c.clear(gl::COLOR_BUFFER_BIT);
    let p = link(&mut c, fs, bind);
    c.use_program(p);
    c
}

fn unorm(v: f32) -> u32 {
    (v.clamp(0.0, 1.0) as f64 * 255.0 + 0.5) as u32
}

/// `s·s1 + d·(1 − s1)` for RGB and `s·(1 − s1.a) + d·s1.a` for alpha in exact unorm8
/// arithmetic, rounded once (the integer path's contract, `ops::PreparedBlend`).
fn expected_unorm8() -> [u8; 4] {
    let (s, s1, d) = (S0.map(unorm), S1.map(unorm), CLEAR.map(unorm));
    std::array::from_fn(|i| {
        let (sf, df) = if i < 3 {
            (s1[i], 255 - s1[i])
        } else {
            (255 - s1[3], s1[3])
        };
        ((s[i] * sf + d[i] * df) as f64 / 255.0).round() as u8
    })
}

fn blend_src1(c: &mut Context) {
    c.enable(gl::BLEND);
    c.blend_func_separate(
        gl::SRC1_COLOR,
        gl::ONE_MINUS_SRC1_COLOR,
        gl::ONE_MINUS_SRC1_ALPHA,
        gl::SRC1_ALPHA,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

fn draw_rgba8(threads: usize, fs: &str, bind: bool) -> Vec<u8> {
    let mut c = setup(threads, gl::RGBA8, fs, bind);
    c.draw_buffers(&[gl::COLOR_ATTACHMENT0]);
    blend_src1(&mut c);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_buffer(gl::COLOR_ATTACHMENT0);
    c.read_pixels(0, 0, W, H, gl::RGBA, gl::UNSIGNED_BYTE)
}

#[test]
fn src1_factors_read_the_index_1_output_on_rgba8() {
    let want = expected_unorm8();
    for (fs, bind) in [(FS_LAYOUT, false), (FS_BOUND, true)] {
        let img = draw_rgba8(1, fs, bind);
        assert_eq!(draw_rgba8(2, fs, bind), img, "1 vs 2 threads");
        for px in img.chunks(4) {
            assert_eq!(px, want, "bound by the API: {bind}");
        }
    }
    // Not what the same factors make of the first colour alone (SRC_COLOR …).
    assert_ne!(
        want[1],
        unorm(S0[1] * S0[1] + CLEAR[1] * (1.0 - S0[1])) as u8
    );
}

#[test]
fn src1_factors_on_a_float_target_are_exact_f32() {
    let mut c = setup(1, gl::RGBA32F, FS_LAYOUT, false);
    c.draw_buffers(&[gl::COLOR_ATTACHMENT0]);
    blend_src1(&mut c);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_buffer(gl::COLOR_ATTACHMENT0);
    let px = c.read_pixels(3, 2, 1, 1, gl::RGBA, gl::FLOAT);
    let got: Vec<f32> = px
        .chunks(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let want: Vec<f32> = (0..4)
        .map(|i| {
            let (sf, df) = if i < 3 {
                (S1[i], 1.0 - S1[i])
            } else {
                (1.0 - S1[3], S1[3])
            };
            S0[i] * sf + CLEAR[i] * df
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn frag_data_index_and_the_limit_are_reported() {
    let mut c = common::context(4, 4, 1);
    assert_eq!(c.get_integerv(gl::MAX_DUAL_SOURCE_DRAW_BUFFERS), vec![1]);
    let p = common::program(&mut c, VS, FS_LAYOUT);
    assert_eq!(c.get_frag_data_index(p, "c0"), 0);
    assert_eq!(c.get_frag_data_index(p, "c1"), 1);
    assert_eq!(c.get_frag_data_location(p, "c1"), 0);
    assert_eq!(c.get_frag_data_index(p, "missing"), -1);
    let p = link(&mut c, FS_BOUND, true);
    assert_eq!(c.get_frag_data_index(p, "c1"), 1);
    assert_eq!(c.get_frag_data_location(p, "c0"), 0);
    // Index 1 takes colour number 0 only; indices above 1 do not exist.
    c.bind_frag_data_location_indexed(p, 1, 1, "c1");
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.bind_frag_data_location_indexed(p, 0, 2, "c1");
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
}

#[test]
fn bad_indices_fail_to_compile_or_link() {
    let mut c = common::context(4, 4, 1);
    let s = c.create_shader(gl::FRAGMENT_SHADER);
    c.shader_source(
        s,
        &["#version 330\nlayout(location = 0, index = 2) out vec4 c;\nvoid main() { c = vec4(1.0); }"],
    );
    c.compile_shader(s);
    assert_eq!(c.get_shaderiv(s, gl::COMPILE_STATUS), 0);
    // Index 1 at location 1: past GL_MAX_DUAL_SOURCE_DRAW_BUFFERS.
    let fs = "#version 330
layout(location = 0) out vec4 a;
layout(location = 1, index = 1) out vec4 b;
void main() { a = vec4(1.0); b = vec4(0.0); }";
    let v = c.create_shader(gl::VERTEX_SHADER);
    c.shader_source(v, &[VS]);
    c.compile_shader(v);
    let f = c.create_shader(gl::FRAGMENT_SHADER);
    c.shader_source(f, &[fs]);
    c.compile_shader(f);
    assert_eq!(
        c.get_shaderiv(f, gl::COMPILE_STATUS),
        1,
        "{}",
        c.get_shader_info_log(f)
    );
    let p = c.create_program();
    c.attach_shader(p, v);
    c.attach_shader(p, f);
    c.link_program(p);
    assert_eq!(c.get_programiv(p, gl::LINK_STATUS), 0);
}

#[test]
fn two_draw_buffers_with_src1_factors_fail_at_draw_time() {
    let mut c = setup(1, gl::RGBA8, FS_LAYOUT, false);
    c.draw_buffers(&[gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT1]);
    blend_src1(&mut c);
    let before = {
        c.read_buffer(gl::COLOR_ATTACHMENT0);
        c.read_pixels(0, 0, W, H, gl::RGBA, gl::UNSIGNED_BYTE)
    };
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    assert_eq!(
        c.read_pixels(0, 0, W, H, gl::RGBA, gl::UNSIGNED_BYTE),
        before,
        "nothing drawn"
    );
    // Factors that do not read the second colour, or blending off: no error.
    c.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    blend_src1(&mut c);
    c.disable(gl::BLEND);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // One draw buffer (the other GL_NONE): allowed.
    c.enable(gl::BLEND);
    c.draw_buffers(&[gl::COLOR_ATTACHMENT0, gl::NONE]);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}
