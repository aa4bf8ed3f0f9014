//! Multisample textures end to end through the Rust `Context` (GL 4.5 core §8.8, §9.2.8,
//! §9.4.2, §18.3.1; GLSL 4.60 §8.9): glTexImage2DMultisample / glTexStorage*Multisample
//! storage and its level queries, drawing into a 4× texture attached with
//! glFramebufferTexture2D, reading each sample back with texelFetch on a `sampler2DMS`
//! (bound and bindless) in a later draw, textureSize and textureSamples, the resolve by
//! glBlitFramebuffer, the array and integer sampler forms, completeness with renderbuffers
//! (sample counts, fixed sample locations) and the errors. Each sample's values are exact:
//! a sample is red exactly when its standard position lies inside the triangle. Images are
//! the same with 1 and 2 threads.

use softgl::{enums as gl, Context};

mod common;

/// Two tiles each way, so a draw that samples the texture reads tiles it does not write.
const W: i32 = 128;
const H: i32 = 128;

/// The standard 4-sample positions (llvmpipe's `lp_sample_pos_4x`).
const POS4: [[f32; 2]; 4] = [
    [0.375, 0.125],
    [0.875, 0.375],
    [0.125, 0.625],
    [0.625, 0.875],
];

const VS_TRI: &str = "#version 330
uniform vec2 p[3];
void main() { gl_Position = vec4(p[gl_VertexID], 0.0, 1.0); }";

const FS_RED: &str = "#version 330
out vec4 o;
void main() { o = vec4(1.0, 0.0, 0.0, 1.0); }";

/// A full-window quad (two triangles from gl_VertexID).
const VS_QUAD: &str = "#version 330
void main() {
    vec2 c[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
    gl_Position = vec4(c[gl_VertexID], 0.0, 1.0);
}";

/// Sample `s` of the multisample texture at this pixel.
const FS_FETCH: &str = "#version 330
uniform sampler2DMS t;
uniform int s;
out vec4 o;
void main() { o = texelFetch(t, ivec2(gl_FragCoord.xy), s); }";

/// `FS_FETCH` with the sampler set by a bindless handle.
const FS_FETCH_BINDLESS: &str = "#version 330
#extension GL_ARB_bindless_texture : require
layout(bindless_sampler) uniform sampler2DMS t;
uniform int s;
out vec4 o;
void main() { o = texelFetch(t, ivec2(gl_FragCoord.xy), s); }";

/// textureSize and textureSamples as unorm8 bytes (v / 255 stores v exactly).
const FS_QUERY: &str = "#version 450
uniform sampler2DMS t;
out vec4 o;
void main() {
    ivec2 sz = textureSize(t);
    o = vec4(float(sz.x), float(sz.y), float(textureSamples(t)), 255.0) / 255.0;
}";

/// A triangle whose corners (multiples of 1/256 pixel) sit off the 1/16-pixel grid of the
/// sample positions, so no sample lies on an edge (`inside` asserts it).
const TRI: [[f32; 2]; 3] = [
    [337.0 / 256.0, 208.0 / 256.0],
    [30866.0 / 256.0, 5588.0 / 256.0],
    [4178.0 / 256.0, 29955.0 / 256.0],
];

/// Whether window position (x + s[0], y + s[1]) lies inside `TRI`, from exact edge
/// functions over the corners in 1/256 pixel.
fn inside(x: i32, y: i32, s: [f32; 2]) -> bool {
    let p = TRI.map(|v| [(v[0] * 256.0) as i64, (v[1] * 256.0) as i64]);
    let area =
        (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
    let q = [
        x as i64 * 256 + (s[0] * 256.0) as i64,
        y as i64 * 256 + (s[1] * 256.0) as i64,
    ];
    let e =
        |a: [i64; 2], b: [i64; 2]| (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]);
    let es = [e(p[0], p[1]), e(p[1], p[2]), e(p[2], p[0])];
    assert!(es.iter().all(|&v| v != 0), "a sample on an edge");
    es.iter().all(|&v| (v > 0) == (area > 0))
}

fn context(threads: usize) -> Context {
    common::context(W as u32, H as u32, threads)
}

/// A `samples`× RGBA8 multisample texture, W×H, bound to GL_TEXTURE_2D_MULTISAMPLE.
fn ms_texture(c: &mut Context, samples: i32, fixed: bool) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D_MULTISAMPLE, t);
    c.tex_image_2d_multisample(gl::TEXTURE_2D_MULTISAMPLE, samples, gl::RGBA8, W, H, fixed);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    t
}

/// A framebuffer with `t` (a 2D multisample texture) as colour attachment 0, bound.
fn ms_fbo(c: &mut Context, t: u32) -> u32 {
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    c.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        gl::COLOR_ATTACHMENT0,
        gl::TEXTURE_2D_MULTISAMPLE,
        t,
        0,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    f
}

/// Clears the bound framebuffer to opaque black and draws `TRI` in red.
fn draw_triangle(c: &mut Context) {
    let p = common::program(c, VS_TRI, FS_RED);
    c.use_program(p);
    c.viewport(0, 0, W, H);
    c.clear_color(0.0, 0.0, 0.0, 1.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    let ndc: Vec<f32> = TRI
        .iter()
        .flat_map(|v| [v[0] / W as f32 * 2.0 - 1.0, v[1] / H as f32 * 2.0 - 1.0])
        .collect();
    let lp = c.get_uniform_location(p, "p");
    c.uniform_2fv(lp, &ndc);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
}

/// Draws a full-window quad with `fs` into the default framebuffer and reads it back.
fn draw_quad(c: &mut Context, p: u32) -> Vec<u8> {
    c.bind_framebuffer(gl::FRAMEBUFFER, 0);
    c.use_program(p);
    c.draw_arrays(gl::TRIANGLES, 0, 6);
    let img = c.read_pixels(0, 0, W, H, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    img
}

/// Every sample of every pixel, read back through texelFetch (`handle`: through a bindless
/// handle instead of texture unit 0), and the resolve by glBlitFramebuffer.
fn render(threads: usize, handle: bool) -> (Vec<Vec<u8>>, Vec<u8>) {
    let mut c = context(threads);
    let t = ms_texture(&mut c, 4, true);
    let f = ms_fbo(&mut c, t);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    draw_triangle(&mut c);
    let fs = if handle { FS_FETCH_BINDLESS } else { FS_FETCH };
    let p = common::program(&mut c, VS_QUAD, fs);
    c.use_program(p);
    let ls = c.get_uniform_location(p, "s");
    if handle {
        let h = c.get_texture_handle_arb(t);
        assert_ne!(h, 0);
        c.make_texture_handle_resident_arb(h);
        let lt = c.get_uniform_location(p, "t");
        c.uniform_handle_ui64_arb(lt, h);
        assert_eq!(c.get_error(), gl::NO_ERROR);
    }
    let mut samples = Vec::new();
    for s in 0..4 {
        c.uniform_1i(ls, s);
        samples.push(draw_quad(&mut c, p));
    }
    // The resolve of the same texture.
    let rb = c.gen_renderbuffers(1)[0];
    c.bind_renderbuffer(gl::RENDERBUFFER, rb);
    c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, W, H);
    let ss = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, ss);
    c.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb);
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, f);
    c.blit_framebuffer(0, 0, W, H, 0, 0, W, H, gl::COLOR_BUFFER_BIT, gl::NEAREST);
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, ss);
    let resolved = c.read_pixels(0, 0, W, H, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    (samples, resolved)
}

#[test]
fn samples_fetch_exactly_and_resolve_to_their_mean() {
    let (samples, resolved) = render(1, false);
    assert_eq!(
        render(2, false),
        (samples.clone(), resolved.clone()),
        "1 vs 2 threads"
    );
    assert_eq!(
        render(2, true).0,
        samples,
        "bindless handle vs texture unit"
    );
    let mut seen = [0usize; 5];
    for y in 0..H {
        for x in 0..W {
            let i = ((y * W + x) * 4) as usize;
            let mut k = 0;
            for (s, img) in samples.iter().enumerate() {
                let red = inside(x, y, POS4[s]);
                k += red as u32;
                let want = [if red { 255 } else { 0 }, 0, 0, 255];
                assert_eq!(img[i..i + 4], want, "pixel ({x}, {y}) sample {s}");
            }
            seen[k as usize] += 1;
            let mean = ((255 * k + 2) / 4) as u8;
            assert_eq!(
                resolved[i..i + 4],
                [mean, 0, 0, 255],
                "pixel ({x}, {y}) resolved"
            );
        }
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "every fraction occurs: {seen:?}"
    );
}

#[test]
fn storage_queries_and_sizes() {
    let mut c = context(1);
    let t = ms_texture(&mut c, 3, false);
    let q =
        |c: &mut Context, pname| c.get_tex_level_parameteriv(gl::TEXTURE_2D_MULTISAMPLE, 0, pname);
    // 3 samples round up to 4 (GL 4.5 core §8.8).
    assert_eq!(q(&mut c, gl::TEXTURE_SAMPLES), 4);
    assert_eq!(q(&mut c, gl::TEXTURE_FIXED_SAMPLE_LOCATIONS), 0);
    assert_eq!(q(&mut c, gl::TEXTURE_WIDTH), W);
    assert_eq!(q(&mut c, gl::TEXTURE_HEIGHT), H);
    assert_eq!(q(&mut c, gl::TEXTURE_INTERNAL_FORMAT), gl::RGBA8 as i32);
    assert_eq!(
        c.get_integerv(gl::TEXTURE_BINDING_2D_MULTISAMPLE)[0],
        t as i32
    );
    // A 2D texture has no samples.
    let t2 = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t2);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 4, 4);
    assert_eq!(
        c.get_tex_level_parameteriv(gl::TEXTURE_2D, 0, gl::TEXTURE_SAMPLES),
        0
    );
    // textureSize and textureSamples through a draw.
    let p = common::program(&mut c, VS_QUAD, FS_QUERY);
    let img = draw_quad(&mut c, p);
    assert_eq!(img[0..4], [128, 128, 4, 255]);
    assert!(img.chunks(4).all(|px| px == [128, 128, 4, 255]));
    // glTexStorage2DMultisample: 8 samples, immutable.
    let t8 = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D_MULTISAMPLE, t8);
    c.tex_storage_2d_multisample(gl::TEXTURE_2D_MULTISAMPLE, 8, gl::RGBA16F, 8, 4, true);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(q(&mut c, gl::TEXTURE_SAMPLES), 8);
    assert_eq!(
        c.get_tex_parameteriv(gl::TEXTURE_2D_MULTISAMPLE, gl::TEXTURE_IMMUTABLE_FORMAT),
        1
    );
    let img = draw_quad(&mut c, p);
    assert_eq!(img[0..4], [8, 4, 8, 255]);
    // The DSA form.
    let td = c.create_textures(gl::TEXTURE_2D_MULTISAMPLE, 1)[0];
    c.texture_storage_2d_multisample(td, 2, gl::DEPTH_COMPONENT32F, 16, 16, true);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.bind_texture(gl::TEXTURE_2D_MULTISAMPLE, td);
    assert_eq!(q(&mut c, gl::TEXTURE_SAMPLES), 2);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn arrays_and_integer_samplers() {
    for threads in [1, 2] {
        let mut c = context(threads);
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D_MULTISAMPLE_ARRAY, t);
        c.tex_image_3d_multisample(
            gl::TEXTURE_2D_MULTISAMPLE_ARRAY,
            2,
            gl::RGBA8,
            6,
            5,
            3,
            true,
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(
            c.get_tex_level_parameteriv(gl::TEXTURE_2D_MULTISAMPLE_ARRAY, 0, gl::TEXTURE_DEPTH),
            3
        );
        let ti = c.gen_textures(1)[0];
        c.active_texture(gl::TEXTURE1);
        c.bind_texture(gl::TEXTURE_2D_MULTISAMPLE, ti);
        c.tex_storage_2d_multisample(gl::TEXTURE_2D_MULTISAMPLE, 8, gl::RGBA32I, 7, 9, true);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        // Sizes, layers and sample counts exactly; texelFetch of storage never drawn into
        // reads zeros (softgl's storage starts zeroed), as does a layer or sample out of range.
        let fs = "#version 450
uniform sampler2DMSArray a;
uniform isampler2DMS b;
out vec4 o;
void main() {
    ivec3 sa = textureSize(a);
    ivec2 sb = textureSize(b);
    vec4 f = texelFetch(a, ivec3(1, 1, 2), 1) + texelFetch(a, ivec3(1, 1, 3), 0)
        + texelFetch(a, ivec3(1, 1, 0), 2);
    ivec4 i = texelFetch(b, ivec2(2, 3), 7) + texelFetch(b, ivec2(2, 3), 8);
    o = vec4(float(sa.x * 10 + sa.y), float(sa.z * 10 + textureSamples(a)),
             float(sb.x * 10 + sb.y), float(textureSamples(b)) + f.x + float(i.x)) / 255.0;
}";
        let p = common::program(&mut c, VS_QUAD, fs);
        c.use_program(p);
        let la = c.get_uniform_location(p, "a");
        let lb = c.get_uniform_location(p, "b");
        c.uniform_1i(la, 0);
        c.uniform_1i(lb, 1);
        let img = draw_quad(&mut c, p);
        assert!(
            img.chunks(4).all(|px| px == [65, 32, 79, 8]),
            "{:?}",
            &img[0..4]
        );
    }
}

#[test]
fn completeness_with_renderbuffers_and_other_counts() {
    let mut c = context(1);
    let rb = |c: &mut Context, samples| {
        let r = c.gen_renderbuffers(1)[0];
        c.bind_renderbuffer(gl::RENDERBUFFER, r);
        c.renderbuffer_storage_multisample(gl::RENDERBUFFER, samples, gl::DEPTH24_STENCIL8, W, H);
        r
    };
    let status = |c: &mut Context, t: u32, r: u32| {
        ms_fbo(c, t);
        c.framebuffer_renderbuffer(
            gl::FRAMEBUFFER,
            gl::DEPTH_STENCIL_ATTACHMENT,
            gl::RENDERBUFFER,
            r,
        );
        c.check_framebuffer_status(gl::FRAMEBUFFER)
    };
    let fixed = ms_texture(&mut c, 4, true);
    let r4 = rb(&mut c, 4);
    assert_eq!(status(&mut c, fixed, r4), gl::FRAMEBUFFER_COMPLETE);
    let r2 = rb(&mut c, 2);
    assert_eq!(
        status(&mut c, fixed, r2),
        gl::FRAMEBUFFER_INCOMPLETE_MULTISAMPLE
    );
    // A texture without fixed sample locations beside a renderbuffer (GL 4.5 core §9.4.2).
    let loose = ms_texture(&mut c, 4, false);
    assert_eq!(
        status(&mut c, loose, r4),
        gl::FRAMEBUFFER_INCOMPLETE_MULTISAMPLE
    );
    // Two textures that disagree on fixed locations.
    ms_fbo(&mut c, fixed);
    c.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        gl::COLOR_ATTACHMENT1,
        gl::TEXTURE_2D_MULTISAMPLE,
        loose,
        0,
    );
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_INCOMPLETE_MULTISAMPLE
    );
    // A single-sample texture beside a multisample one.
    let t2 = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t2);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, W, H);
    c.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        gl::COLOR_ATTACHMENT1,
        gl::TEXTURE_2D,
        t2,
        0,
    );
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_INCOMPLETE_MULTISAMPLE
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn errors() {
    let mut c = context(1);
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D_MULTISAMPLE, t);
    let ms = gl::TEXTURE_2D_MULTISAMPLE;
    c.tex_image_2d_multisample(ms, 0, gl::RGBA8, 4, 4, true);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "zero samples");
    c.tex_image_2d_multisample(ms, 9, gl::RGBA8, 4, 4, true);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "past GL_MAX_SAMPLES");
    // The unsized base formats are colour-renderable (GL 4.5 core §9.4), so
    // glTexImage2DMultisample takes them, as Mesa does; glTexStorage2DMultisample wants a
    // sized one (§8.19), and a compressed format is not renderable at all.
    c.tex_storage_2d_multisample(ms, 4, gl::RGBA, 4, 4, true);
    assert_eq!(
        c.get_error(),
        gl::INVALID_ENUM,
        "unsized format for storage"
    );
    c.tex_image_2d_multisample(ms, 4, gl::COMPRESSED_RED_RGTC1, 4, 4, true);
    assert_eq!(c.get_error(), gl::INVALID_ENUM, "compressed format");
    c.tex_image_2d_multisample(ms, 4, gl::RGB, 4, 4, true);
    assert_eq!(c.get_error(), gl::NO_ERROR, "unsized base format");
    c.tex_image_2d_multisample(ms, 4, gl::RGBA8, -1, 4, true);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "negative width");
    c.tex_image_2d_multisample(gl::TEXTURE_2D, 4, gl::RGBA8, 4, 4, true);
    assert_eq!(c.get_error(), gl::INVALID_ENUM, "not a multisample target");
    c.tex_image_3d_multisample(ms, 4, gl::RGBA8, 4, 4, 2, true);
    assert_eq!(c.get_error(), gl::INVALID_ENUM, "3D form of the 2D target");
    c.tex_storage_2d_multisample(ms, 4, gl::RGBA8, 0, 4, true);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "empty storage");
    c.tex_storage_2d_multisample(ms, 4, gl::RGBA8, 4, 4, true);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.tex_image_2d_multisample(ms, 4, gl::RGBA8, 4, 4, true);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "immutable storage");
    // Mip-level commands do not take the multisample targets.
    c.tex_image_2d(
        ms,
        0,
        gl::RGBA8 as i32,
        4,
        4,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    assert_eq!(c.get_error(), gl::INVALID_ENUM, "glTexImage2D");
    // No sampler state, mipmaps or downloads for multisample textures (GL 4.5 core §8.10,
    // §8.14.4, §8.11.4).
    c.tex_parameter_i(ms, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    assert_eq!(c.get_error(), gl::INVALID_ENUM, "sampler state");
    c.tex_parameter_i(ms, gl::TEXTURE_BASE_LEVEL, 0);
    assert_eq!(c.get_error(), gl::NO_ERROR, "base level");
    c.generate_mipmap(ms);
    assert_eq!(c.get_error(), gl::INVALID_ENUM, "glGenerateMipmap");
    c.get_tex_image(ms, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), gl::INVALID_ENUM, "glGetTexImage");
    // The DSA form needs a texture of its target.
    let t2 = c.create_textures(gl::TEXTURE_2D, 1)[0];
    c.texture_storage_2d_multisample(t2, 4, gl::RGBA8, 4, 4, true);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "DSA on a 2D texture");
    // A multisample texture attaches at level 0 only.
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    c.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, ms, t, 1);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "level 1");
    c.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, t, 0);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "textarget of another target"
    );
    // GLSL: only texelFetch, textureSize and textureSamples take a multisample sampler, and
    // textureSamples needs GLSL 4.50.
    for (version, body) in [
        (330, "o = texture(t, vec2(0.5));"),
        (330, "o = texelFetch(t, ivec2(0), 0, 0);"),
        (330, "o = vec4(textureSamples(t));"),
        (450, "o = texelFetch(t, ivec3(0), 0);"),
        (450, "o = vec4(textureSize(t, 0), 0.0, 0.0);"),
    ] {
        let src = format!(
            "#version {version}\nuniform sampler2DMS t;\nout vec4 o;\nvoid main() {{ {body} }}"
        );
        let s = c.create_shader(gl::FRAGMENT_SHADER);
        c.shader_source(s, &[&src]);
        c.compile_shader(s);
        assert_eq!(c.get_shaderiv(s, gl::COMPILE_STATUS), 0, "{src}");
    }
    // sampler2DMS is a GLSL 1.50 keyword.
    let s = c.create_shader(gl::FRAGMENT_SHADER);
    c.shader_source(
        s,
        &["#version 140\nuniform sampler2DMS t;\nout vec4 o;\nvoid main() { o = vec4(0.0); }"],
    );
    c.compile_shader(s);
    assert_eq!(c.get_shaderiv(s, gl::COMPILE_STATUS), 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}
