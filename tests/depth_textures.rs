//! Depth textures end to end through the Rust `Context` (GL 4.5 core §8.5 depth formats,
//! §8.23 depth comparison, GLSL 4.60 §8.9 shadow samplers): a depth texture is the depth
//! attachment of a framebuffer, rendered into, read back with glReadPixels, then sampled
//! with sampler2DShadow (bound and bindless) and with a plain sampler2D, at 1 and 2 threads.

mod common;

use common::program;
use softgl::{enums as gl, Context};

const N: i32 = 16;

const VS: &str = "#version 330
uniform vec4 rect; // x0 y0 x1 y1 in NDC
uniform float z;
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? rect.z : rect.x, (id & 2) == 2 ? rect.w : rect.y, z, 1.0);
}";

fn ctx(threads: usize) -> Context {
    common::context(N as u32, N as u32, threads)
}

/// An N×N depth texture of `internal` format: left half depth 0.25, right half 0.75,
/// rendered through an FBO (cleared to 1.0 first). Returns (texture, fbo).
fn render_depth(c: &mut Context, internal: u32) -> (u32, u32) {
    let tex = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, tex);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, internal, N, N);
    for (p, v) in [
        (gl::TEXTURE_MIN_FILTER, gl::LINEAR),
        (gl::TEXTURE_MAG_FILTER, gl::LINEAR),
        (gl::TEXTURE_WRAP_S, gl::CLAMP_TO_EDGE),
        (gl::TEXTURE_WRAP_T, gl::CLAMP_TO_EDGE),
    ] {
        c.tex_parameter_i(gl::TEXTURE_2D, p, v as i32);
    }
    let fbo = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    c.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        gl::DEPTH_ATTACHMENT,
        gl::TEXTURE_2D,
        tex,
        0,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE,
        "a depth texture alone is a complete framebuffer"
    );
    let p = program(c, VS, "#version 330\nvoid main() {}\n");
    c.use_program(p);
    c.viewport(0, 0, N, N);
    c.enable(gl::DEPTH_TEST);
    c.clear_depth(1.0);
    c.clear(gl::DEPTH_BUFFER_BIT);
    let rect = c.get_uniform_location(p, "rect");
    let z = c.get_uniform_location(p, "z");
    // NDC z −0.5 → depth 0.25, +0.5 → 0.75 (default depth range).
    for (x0, x1, zv) in [(-1.0, 0.0, -0.5), (0.0, 1.0, 0.5)] {
        c.uniform_4f(rect, x0, -1.0, x1, 1.0);
        c.uniform_1f(z, zv);
        c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.disable(gl::DEPTH_TEST);
    (tex, fbo)
}

/// An FBO with an N×N RGBA8 colour renderbuffer, bound.
fn colour_target(c: &mut Context) -> u32 {
    let rb = c.gen_renderbuffers(1)[0];
    c.bind_renderbuffer(gl::RENDERBUFFER, rb);
    c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, N, N);
    let fbo = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    c.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    fbo
}

/// Draws a full-target rect with `fs` (after `setup(program)`) and returns row 0's red
/// channel.
fn shade(c: &mut Context, fs: &str, setup: &dyn Fn(&mut Context, u32)) -> Vec<u8> {
    colour_target(c);
    let p = program(c, VS, fs);
    c.use_program(p);
    let rect = c.get_uniform_location(p, "rect");
    c.uniform_4f(rect, -1.0, -1.0, 1.0, 1.0);
    setup(c, p);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let px = c.read_pixels(0, 0, N, 1, gl::RGBA, gl::UNSIGNED_BYTE);
    px.chunks(4).map(|p| p[0]).collect()
}

/// The shadow lookups of the tests, each writing its result to red: plain `texture`
/// at the texel centres (NEAREST-like: exact texels), a quarter texel to the right (the
/// LINEAR filter blends the two comparisons at the 0.25/0.75 edge), and textureProj,
/// textureLod, textureOffset and textureGrad forms of the first.
const SHADOW_FS: &str = "#version 330
uniform sampler2DShadow s;
uniform float ref;
uniform int form;
out vec4 color;
void main() {
    vec2 uv = gl_FragCoord.xy / 16.0;
    float r;
    if (form == 0) r = texture(s, vec3(uv, ref));
    else if (form == 1) r = texture(s, vec3(uv + vec2(0.25 / 16.0, 0.0), ref));
    else if (form == 2) r = textureProj(s, vec4(2.0 * uv, 2.0 * ref, 2.0));
    else if (form == 3) r = textureLod(s, vec3(uv, ref), 0.0);
    else if (form == 4) r = textureOffset(s, vec3(uv, ref), ivec2(1, 0));
    else r = textureGrad(s, vec3(uv, ref), vec2(1.0 / 16.0, 0.0), vec2(0.0, 1.0 / 16.0));
    color = vec4(r, 0.0, 0.0, 1.0);
}";

/// Row 0 of `form` with compare func `func` and reference `r`.
fn shadow_row(c: &mut Context, tex: u32, func: u32, r: f32, form: i32) -> Vec<u8> {
    c.bind_texture(gl::TEXTURE_2D, tex);
    c.tex_parameter_i(
        gl::TEXTURE_2D,
        gl::TEXTURE_COMPARE_MODE,
        gl::COMPARE_REF_TO_TEXTURE as i32,
    );
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_COMPARE_FUNC, func as i32);
    shade(c, SHADOW_FS, &|c, p| {
        let (s, rf, f) = (
            c.get_uniform_location(p, "s"),
            c.get_uniform_location(p, "ref"),
            c.get_uniform_location(p, "form"),
        );
        c.uniform_1i(s, 0);
        c.uniform_1f(rf, r);
        c.uniform_1i(f, form);
    })
}

/// Left half (texels 0..8) `a`, right half `b`.
fn halves(a: u8, b: u8) -> Vec<u8> {
    (0..N).map(|x| if x < N / 2 { a } else { b }).collect()
}

#[test]
fn depth_texture_is_rendered_into_and_read_back() {
    for internal in [
        gl::DEPTH_COMPONENT32F,
        gl::DEPTH_COMPONENT24,
        gl::DEPTH_COMPONENT16,
        gl::DEPTH_COMPONENT32,
        gl::DEPTH24_STENCIL8,
    ] {
        let mut c = ctx(2);
        let (_, fbo) = render_depth(&mut c, internal);
        c.bind_framebuffer(gl::READ_FRAMEBUFFER, fbo);
        let px = c.read_pixels(0, 0, N, 1, gl::DEPTH_COMPONENT, gl::FLOAT);
        let d: Vec<f32> = px
            .chunks(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        assert_eq!(c.get_error(), gl::NO_ERROR);
        // Float storage keeps 0.25 and 0.75; 24-bit storage gives code/(2^24 − 1) with
        // code = round(d·(2^24 − 1)).
        let f32_storage = matches!(internal, gl::DEPTH_COMPONENT32F | gl::DEPTH_COMPONENT32);
        let stored = |d: f64| {
            if f32_storage {
                d as f32
            } else {
                ((d * 16_777_215.0).round() / 16_777_215.0) as f32
            }
        };
        let want: Vec<f32> = (0..N)
            .map(|x| stored(if x < N / 2 { 0.25 } else { 0.75 }))
            .collect();
        assert_eq!(d, want, "format {internal:#x}");
        if f32_storage {
            let px = c.read_pixels(0, 0, 1, 1, gl::DEPTH_COMPONENT, gl::UNSIGNED_INT);
            let u = u32::from_le_bytes([px[0], px[1], px[2], px[3]]);
            assert_eq!(u, 0x4000_0000, "0.25 as a 32-bit unorm");
            let px = c.read_pixels(0, 0, 1, 1, gl::DEPTH_COMPONENT, gl::UNSIGNED_SHORT);
            assert_eq!(
                u16::from_le_bytes([px[0], px[1]]),
                16384,
                "round(0.25 × 65535)"
            );
        }
    }
}

#[test]
fn shadow_lookups_compare_then_filter() {
    let mut c = ctx(2);
    let (tex, _) = render_depth(&mut c, gl::DEPTH_COMPONENT32F);
    // LEQUAL: 1 where ref ≤ D_t. ref 0.5: left (0.25) fails, right (0.75) passes.
    assert_eq!(shadow_row(&mut c, tex, gl::LEQUAL, 0.5, 0), halves(0, 255));
    assert_eq!(shadow_row(&mut c, tex, gl::GREATER, 0.5, 0), halves(255, 0));
    assert_eq!(
        shadow_row(&mut c, tex, gl::ALWAYS, 0.5, 0),
        halves(255, 255)
    );
    assert_eq!(shadow_row(&mut c, tex, gl::NEVER, 0.5, 0), halves(0, 0));
    assert_eq!(shadow_row(&mut c, tex, gl::EQUAL, 0.25, 0), halves(255, 0));
    assert_eq!(
        shadow_row(&mut c, tex, gl::NOTEQUAL, 0.25, 0),
        halves(0, 255)
    );
    assert_eq!(shadow_row(&mut c, tex, gl::LESS, 0.25, 0), halves(0, 255));
    assert_eq!(
        shadow_row(&mut c, tex, gl::GEQUAL, 0.75, 0),
        halves(255, 255)
    );
    // A quarter texel right: pixel 7 blends texel 7 (fails) and 8 (passes) with weight
    // 0.25 → 0.25 → 64; elsewhere whole texels (clamp to edge at the right end).
    let mut want = halves(0, 255);
    want[7] = 64;
    assert_eq!(shadow_row(&mut c, tex, gl::LEQUAL, 0.5, 1), want);
    // textureProj divides (x, y, ref) by w; textureLod 0 and textureGrad of one texel
    // per pixel are the base level, like the implicit form here.
    for form in [2, 3, 5] {
        assert_eq!(
            shadow_row(&mut c, tex, gl::LEQUAL, 0.5, form),
            halves(0, 255),
            "form {form}"
        );
    }
    // textureOffset (1, 0): pixel 7 reads texel 8.
    let mut want = halves(0, 255);
    want[7] = 255;
    assert_eq!(shadow_row(&mut c, tex, gl::LEQUAL, 0.5, 4), want);
}

#[test]
fn a_plain_sampler_reads_the_depth_as_red() {
    let mut c = ctx(1);
    let (tex, _) = render_depth(&mut c, gl::DEPTH_COMPONENT24);
    c.bind_texture(gl::TEXTURE_2D, tex);
    let fs = "#version 330
uniform sampler2D s;
out vec4 color;
void main() { color = texture(s, gl_FragCoord.xy / 16.0); }";
    let row = shade(&mut c, fs, &|c, p| {
        let s = c.get_uniform_location(p, "s");
        c.uniform_1i(s, 0);
    });
    // (d, 0, 0, 1): 0.25 → 64, 0.75 → 191.
    assert_eq!(row, halves(64, 191));
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let run = |threads: usize| {
        let mut c = ctx(threads);
        let (tex, _) = render_depth(&mut c, gl::DEPTH24_STENCIL8);
        let mut all = Vec::new();
        for form in 0..6 {
            all.extend(shadow_row(&mut c, tex, gl::LEQUAL, 0.5, form));
        }
        all
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn bindless_shadow_handles_compare_too() {
    let mut c = ctx(2);
    let (tex, _) = render_depth(&mut c, gl::DEPTH_COMPONENT32F);
    c.bind_texture(gl::TEXTURE_2D, tex);
    c.tex_parameter_i(
        gl::TEXTURE_2D,
        gl::TEXTURE_COMPARE_MODE,
        gl::COMPARE_REF_TO_TEXTURE as i32,
    );
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_COMPARE_FUNC, gl::LEQUAL as i32);
    let h = c.get_texture_handle_arb(tex);
    assert_ne!(h, 0);
    c.make_texture_handle_resident_arb(h);
    // The state is frozen once a handle exists (ARB_bindless_texture).
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_COMPARE_FUNC, gl::GREATER as i32);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    let uniform_fs = "#version 330
#extension GL_ARB_bindless_texture : require
layout(bindless_sampler) uniform sampler2DShadow s;
out vec4 color;
void main() { color = vec4(texture(s, vec3(gl_FragCoord.xy / 16.0, 0.5)), 0.0, 0.0, 1.0); }";
    let row = shade(&mut c, uniform_fs, &|c, p| {
        let s = c.get_uniform_location(p, "s");
        c.uniform_handle_ui64_arb(s, h);
    });
    assert_eq!(row, halves(0, 255));
    let uvec2_fs = "#version 330
#extension GL_ARB_bindless_texture : require
uniform uvec2 hv;
out vec4 color;
void main() {
    sampler2DShadow s = sampler2DShadow(hv);
    color = vec4(texture(s, vec3(gl_FragCoord.xy / 16.0, 0.5)), 0.0, 0.0, 1.0);
}";
    let row = shade(&mut c, uvec2_fs, &|c, p| {
        let l = c.get_uniform_location(p, "hv");
        c.uniform_2ui(l, h as u32, (h >> 32) as u32);
    });
    assert_eq!(row, halves(0, 255));
}

#[test]
fn depth_uploads_parameters_and_errors() {
    let mut c = Context::with_threads(4, 4, 1);
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    // What VTK does: DEPTH_COMPONENT32 from UNSIGNED_INT.
    let words: Vec<u8> = [0u32, u32::MAX, 0x8000_0000, 0x4000_0000]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::DEPTH_COMPONENT32 as i32,
        2,
        2,
        0,
        gl::DEPTH_COMPONENT,
        gl::UNSIGNED_INT,
        Some(&words),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // FLOAT_32_UNSIGNED_INT_24_8_REV into DEPTH24_STENCIL8: depth word, then stencil.
    let mut ds = Vec::new();
    for (d, s) in [(0.5f32, 7u32), (1.0, 255), (0.0, 0), (0.25, 1)] {
        ds.extend(d.to_le_bytes());
        ds.extend(s.to_le_bytes());
    }
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::DEPTH24_STENCIL8 as i32,
        2,
        2,
        0,
        gl::DEPTH_STENCIL,
        gl::FLOAT_32_UNSIGNED_INT_24_8_REV,
        Some(&ds),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::DEPTH_COMPONENT16 as i32,
        2,
        2,
        0,
        gl::DEPTH_COMPONENT,
        gl::UNSIGNED_SHORT,
        Some(&[0u8; 8]),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // Compare state: defaults, set, read back, bad values.
    let q = |c: &mut Context, p| c.get_tex_parameteriv(gl::TEXTURE_2D, p);
    assert_eq!(q(&mut c, gl::TEXTURE_COMPARE_MODE), gl::NONE as i32);
    assert_eq!(q(&mut c, gl::TEXTURE_COMPARE_FUNC), gl::LEQUAL as i32);
    c.tex_parameter_i(
        gl::TEXTURE_2D,
        gl::TEXTURE_COMPARE_MODE,
        gl::COMPARE_REF_TO_TEXTURE as i32,
    );
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_COMPARE_FUNC, gl::GEQUAL as i32);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        q(&mut c, gl::TEXTURE_COMPARE_MODE),
        gl::COMPARE_REF_TO_TEXTURE as i32
    );
    assert_eq!(q(&mut c, gl::TEXTURE_COMPARE_FUNC), gl::GEQUAL as i32);
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_COMPARE_MODE, gl::LEQUAL as i32);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_COMPARE_FUNC, gl::NONE as i32);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    assert_eq!(
        q(&mut c, gl::DEPTH_STENCIL_TEXTURE_MODE),
        gl::DEPTH_COMPONENT as i32
    );
    c.tex_parameter_i(
        gl::TEXTURE_2D,
        gl::DEPTH_STENCIL_TEXTURE_MODE,
        gl::STENCIL_INDEX as i32,
    );
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "stencil sampling is not there yet"
    );
    // Sampler objects take the same state.
    let s = c.gen_samplers(1)[0];
    c.sampler_parameter_i(s, gl::TEXTURE_COMPARE_FUNC, gl::NEVER as i32);
    c.sampler_parameter_i(
        s,
        gl::TEXTURE_COMPARE_MODE,
        gl::COMPARE_REF_TO_TEXTURE as i32,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.sampler_parameter_i(s, gl::TEXTURE_COMPARE_FUNC, 0x1234);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    // Depth data into a colour format and colour data into a depth format.
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8 as i32,
        1,
        1,
        0,
        gl::DEPTH_COMPONENT,
        gl::FLOAT,
        Some(&[0u8; 4]),
    );
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::DEPTH_COMPONENT24 as i32,
        1,
        1,
        0,
        gl::RGBA,
        gl::FLOAT,
        Some(&[0u8; 16]),
    );
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // The 32F+8 format is named as unsupported, not as an invalid enum.
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::DEPTH32F_STENCIL8, 2, 2);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}
