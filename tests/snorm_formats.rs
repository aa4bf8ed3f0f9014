//! Signed normalized textures end to end through the Rust `Context` (GL 4.5 core table 8.12
//! R8_SNORM … RGBA16_SNORM, eq. 2.2 and 2.4, §8.4.4.2 pixel transfers, §8.11.3 level
//! queries, §8.14.4 mipmaps, §8.21 clears, §8.26 image load/store, §9.4 completeness):
//! every snorm format is uploaded, read back bit for bit, sampled with texelFetch, NEAREST
//! and LINEAR filtering (bound and bindless) into an RGBA32F target, and written with
//! image stores; on 1 and 2 workers, which must agree.

mod common;

use common::program;
use softgl::{enums as gl, Context};

const W: i32 = 4;
const H: i32 = 2;

const VS: &str = "#version 330
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.0, 1.0);
}";

/// (internal format, channels, bytes per channel) of every snorm format.
const FORMATS: [(u32, usize, usize); 8] = [
    (gl::R8_SNORM, 1, 1),
    (gl::R16_SNORM, 1, 2),
    (gl::RG8_SNORM, 2, 1),
    (gl::RG16_SNORM, 2, 2),
    (gl::RGB8_SNORM, 3, 1),
    (gl::RGB16_SNORM, 3, 2),
    (gl::RGBA8_SNORM, 4, 1),
    (gl::RGBA16_SNORM, 4, 2),
];

/// The word of channel `c` of texel `i`: the most negative word (which reads as -1 like
/// -max), -max, max, 0, -1 and 1, then words spread over the range.
fn word(i: usize, c: usize, bytes: usize) -> i32 {
    let max = (1i32 << (bytes * 8 - 1)) - 1;
    match (i * 4 + c) % 7 {
        0 => -max - 1,
        1 => -max,
        2 => max,
        3 => 0,
        4 => -1,
        5 => 1,
        _ => ((i as i32 * 7919 + c as i32 * 104729) % (2 * max + 1)) - max,
    }
}

/// The W×H client image: `channels` words of `bytes` each per pixel (BYTE or SHORT).
fn client(channels: usize, bytes: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for i in 0..(W * H) as usize {
        for c in 0..channels {
            out.extend_from_slice(&word(i, c, bytes).to_le_bytes()[..bytes]);
        }
    }
    out
}

/// GL 4.5 core eq. 2.2: max(c / (2^(b-1) - 1), -1).
fn snorm(c: i32, bytes: usize) -> f32 {
    let max = (1i32 << (bytes * 8 - 1)) - 1;
    (c as f32 / max as f32).max(-1.0)
}

/// What texel i samples as: the channels given, then (0, 0, 0, 1).
fn expected(channels: usize, bytes: usize) -> Vec<[f32; 4]> {
    (0..(W * H) as usize)
        .map(|i| {
            let mut v = [0.0, 0.0, 0.0, 1.0];
            for (c, slot) in v.iter_mut().enumerate().take(channels) {
                *slot = snorm(word(i, c, bytes), bytes);
            }
            v
        })
        .collect()
}

fn client_format(channels: usize) -> u32 {
    [gl::RED, gl::RG, gl::RGB, gl::RGBA][channels - 1]
}

fn word_type(bytes: usize) -> u32 {
    if bytes == 1 {
        gl::BYTE
    } else {
        gl::SHORT
    }
}

/// A W×H RGBA32F framebuffer, bound, with the viewport on it.
fn float_target(c: &mut Context) {
    let rb = c.gen_renderbuffers(1)[0];
    c.bind_renderbuffer(gl::RENDERBUFFER, rb);
    c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA32F, W, H);
    let fbo = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    c.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    c.viewport(0, 0, W, H);
}

/// Draws with `p` and returns each pixel's RGBA.
fn run(c: &mut Context, p: u32) -> Vec<[f32; 4]> {
    c.use_program(p);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    floats(&c.read_pixels(0, 0, W, H, gl::RGBA, gl::FLOAT))
}

fn floats(bytes: &[u8]) -> Vec<[f32; 4]> {
    bytes
        .chunks(16)
        .map(|p| {
            std::array::from_fn(|k| f32::from_le_bytes(p[k * 4..k * 4 + 4].try_into().unwrap()))
        })
        .collect()
}

fn fs(lookup: &str) -> String {
    format!(
        "#version 330
#extension GL_ARB_bindless_texture : enable
uniform sampler2D s;
out vec4 color;
void main() {{
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec2 uv = (vec2(p) + 0.5) / vec2({W}.0, {H}.0);
    color = {lookup};
}}"
    )
}

/// A texture of `internal` made by glTexStorage2D (2 levels) and filled by glTexSubImage2D,
/// NEAREST filtered, bound to TEXTURE_2D.
fn texture(c: &mut Context, internal: u32, channels: usize, bytes: usize) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_storage_2d(gl::TEXTURE_2D, 2, internal, W, H);
    let data = client(channels, bytes);
    c.tex_sub_image_2d(
        gl::TEXTURE_2D,
        0,
        0,
        0,
        W,
        H,
        client_format(channels),
        word_type(bytes),
        &data,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR, "upload of {internal:#x}");
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32);
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MAX_LEVEL, 0);
    t
}

#[test]
fn every_snorm_format_round_trips_and_samples_exactly() {
    let mut results = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(16, 16, threads);
        float_target(&mut c);
        let mut seen = Vec::new();
        for (internal, channels, bytes) in FORMATS {
            let t = texture(&mut c, internal, channels, bytes);
            // GetTexImage with the format's own word type gives the words back, -128 and
            // -32768 included; RGBA reads add alpha = max (1.0).
            let back =
                c.get_tex_image(gl::TEXTURE_2D, 0, client_format(channels), word_type(bytes));
            assert_eq!(c.get_error(), gl::NO_ERROR);
            assert_eq!(back, client(channels, bytes), "{internal:#x}");
            let rgba = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, word_type(bytes));
            let max = (1i32 << (bytes * 8 - 1)) - 1;
            for (i, px) in rgba.chunks(4 * bytes).enumerate() {
                let w = |k: usize| -> i32 {
                    if bytes == 1 {
                        px[k] as i8 as i32
                    } else {
                        i16::from_le_bytes([px[2 * k], px[2 * k + 1]]) as i32
                    }
                };
                for k in 0..4 {
                    let want = if k < channels {
                        word(i, k, bytes)
                    } else if k == 3 {
                        max
                    } else {
                        0
                    };
                    assert_eq!(w(k), want, "{internal:#x} texel {i} channel {k}");
                }
            }
            // Sampling returns eq. 2.2 of each word, exactly.
            let want = expected(channels, bytes);
            for lookup in [
                "texelFetch(s, p, 0)",
                "texture(s, uv)",
                "textureLod(s, uv, 0.0)",
            ] {
                let p = program(&mut c, VS, &fs(lookup));
                c.bind_texture(gl::TEXTURE_2D, t);
                let got = run(&mut c, p);
                assert_eq!(got, want, "{internal:#x} {lookup} on {threads} workers");
                seen.push(got);
            }
            // The same through a bindless handle.
            let h = c.get_texture_handle_arb(t);
            c.make_texture_handle_resident_arb(h);
            let src = fs("texelFetch(s, p, 0)").replace(
                "uniform sampler2D s;",
                "layout(bindless_sampler) uniform sampler2D s;",
            );
            let p = program(&mut c, VS, &src);
            c.use_program(p);
            let loc = c.get_uniform_location(p, "s");
            c.uniform_handle_ui64_arb(loc, h);
            assert_eq!(run(&mut c, p), want, "{internal:#x} bindless");
            c.make_texture_handle_non_resident_arb(h);
        }
        results.push(seen);
    }
    assert_eq!(results[0], results[1], "1 and 2 workers agree");
}

#[test]
fn uploads_convert_every_type_as_gl_says() {
    let mut c = Context::new(4, 4);
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    let up = |c: &mut Context, internal: u32, ty: u32, data: &[u8]| {
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            internal as i32,
            1,
            1,
            0,
            gl::RGBA,
            ty,
            Some(data),
        );
        assert_eq!(c.get_error(), gl::NO_ERROR, "{internal:#x} {ty:#x}");
    };
    let f32s = |v: [f32; 4]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    // FLOAT: clamped to [-1, 1], then round(x × 127) (eq. 2.4).
    up(
        &mut c,
        gl::RGBA8_SNORM,
        gl::FLOAT,
        &f32s([-2.0, -0.25, 0.7, 3.0]),
    );
    let b = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::BYTE);
    assert_eq!(b, [-127i8, -32, 89, 127].map(|x| x as u8));
    // Read back as FLOAT: eq. 2.2 of the words.
    let f = floats(&c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::FLOAT));
    assert_eq!(f[0], [-1.0, -32.0 / 127.0, 89.0 / 127.0, 1.0]);
    // UNSIGNED_BYTE: unorm (eq. 2.1) first, so 0..=255 lands in 0..=127.
    up(
        &mut c,
        gl::RGBA8_SNORM,
        gl::UNSIGNED_BYTE,
        &[0, 128, 255, 1],
    );
    let b = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::BYTE);
    assert_eq!(b, [0, 64, 127, 0]);
    // SHORT into an 8-bit snorm format: eq. 2.2 then eq. 2.4.
    let shorts: Vec<u8> = [-32768i16, -16384, 16384, 32767]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    up(&mut c, gl::RGBA8_SNORM, gl::SHORT, &shorts);
    let b = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::BYTE);
    // -16384 / 32767 × 127 = -63.50194 → -64; 16384 → 64.
    assert_eq!(b, [-127i8, -64, 64, 127].map(|x| x as u8));
    // BYTE into a 16-bit one, and back as SHORT: 127 → 1.0 → 32767.
    up(&mut c, gl::RGBA16_SNORM, gl::BYTE, &[0x81, 0, 127, 0x80]);
    let s = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::SHORT);
    let s: Vec<i16> = s
        .chunks(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    assert_eq!(s, [-32767, 0, 32767, -32767]);
    // Read as UNSIGNED_BYTE: negatives clamp to 0 (eq. 2.3).
    let u = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(u, [0, 0, 255, 0]);
    // HALF_FLOAT and INT uploads.
    let halves: Vec<u8> = [0x3800u16, 0xB800, 0x3C00, 0xC000] // 0.5, -0.5, 1, -2
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    up(&mut c, gl::RGBA16_SNORM, gl::HALF_FLOAT, &halves);
    let s = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::SHORT);
    let s: Vec<i16> = s
        .chunks(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    assert_eq!(s, [16384, -16384, 32767, -32767]);
    let ints: Vec<u8> = [i32::MIN, i32::MAX, 0, -1]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    up(&mut c, gl::RGBA8_SNORM, gl::INT, &ints);
    let b = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::BYTE);
    assert_eq!(b, [-127i8, 127, 0, 0].map(|x| x as u8));
    // Integer client formats are refused for a normalized internal format (§8.5).
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8_SNORM as i32,
        1,
        1,
        0,
        gl::RGBA_INTEGER,
        gl::BYTE,
        Some(&[0; 4]),
    );
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}

#[test]
fn level_queries_report_signed_normalized_components() {
    let mut c = Context::new(4, 4);
    for (internal, channels, bytes) in FORMATS {
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, t);
        c.tex_storage_2d(gl::TEXTURE_2D, 1, internal, 2, 2);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let q = |c: &mut Context, p| c.get_tex_level_parameteriv(gl::TEXTURE_2D, 0, p);
        assert_eq!(q(&mut c, gl::TEXTURE_INTERNAL_FORMAT), internal as i32);
        let sizes = [
            gl::TEXTURE_RED_SIZE,
            gl::TEXTURE_GREEN_SIZE,
            gl::TEXTURE_BLUE_SIZE,
            gl::TEXTURE_ALPHA_SIZE,
        ];
        let types = [
            gl::TEXTURE_RED_TYPE,
            gl::TEXTURE_GREEN_TYPE,
            gl::TEXTURE_BLUE_TYPE,
            gl::TEXTURE_ALPHA_TYPE,
        ];
        for k in 0..4 {
            let present = k < channels;
            let bits = if present { bytes as i32 * 8 } else { 0 };
            assert_eq!(q(&mut c, sizes[k]), bits, "{internal:#x} size {k}");
            let ty = if present {
                gl::SIGNED_NORMALIZED
            } else {
                gl::NONE
            };
            assert_eq!(q(&mut c, types[k]), ty as i32, "{internal:#x} type {k}");
        }
        assert_eq!(q(&mut c, gl::TEXTURE_DEPTH_SIZE), 0);
    }
    // The unsized snorm formats keep 8 bits a channel and report themselves; TexStorage
    // refuses them (sized formats only).
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RG_SNORM as i32,
        1,
        1,
        0,
        gl::RG,
        gl::BYTE,
        Some(&[0x80, 5]),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let q = |c: &mut Context, p| c.get_tex_level_parameteriv(gl::TEXTURE_2D, 0, p);
    assert_eq!(q(&mut c, gl::TEXTURE_INTERNAL_FORMAT), gl::RG_SNORM as i32);
    assert_eq!(q(&mut c, gl::TEXTURE_GREEN_SIZE), 8);
    assert_eq!(q(&mut c, gl::TEXTURE_BLUE_SIZE), 0);
    assert_eq!(
        c.get_tex_image(gl::TEXTURE_2D, 0, gl::RG, gl::BYTE),
        [0x80, 5]
    );
    let u = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, u);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA_SNORM, 1, 1);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    // glGetInternalformativ: supported, but no sample counts (not renderable).
    let iq =
        |c: &mut Context, target, pname| c.get_internalformativ(target, gl::RG16_SNORM, pname, 4);
    assert_eq!(
        iq(&mut c, gl::TEXTURE_2D, gl::INTERNALFORMAT_SUPPORTED),
        [1]
    );
    assert_eq!(iq(&mut c, gl::RENDERBUFFER, gl::NUM_SAMPLE_COUNTS), [0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// GL 4.5 core table 8.12 does not make the snorm formats colour-renderable: a framebuffer
/// with one attached is incomplete, and draws to it are refused.
#[test]
fn snorm_attachments_are_incomplete() {
    let mut c = Context::new(4, 4);
    for (internal, _, _) in FORMATS {
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, t);
        c.tex_storage_2d(gl::TEXTURE_2D, 1, internal, 4, 4);
        let fbo = c.gen_framebuffers(1)[0];
        c.bind_framebuffer(gl::FRAMEBUFFER, fbo);
        c.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, t, 0);
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT,
            "{internal:#x}"
        );
        c.clear(gl::COLOR_BUFFER_BIT);
        assert_eq!(c.get_error(), gl::INVALID_FRAMEBUFFER_OPERATION);
    }
    // Renderbuffers of a snorm format cannot be made (GL 4.5 core §9.2.4: colour-renderable
    // formats only).
    let rb = c.gen_renderbuffers(1)[0];
    c.bind_renderbuffer(gl::RENDERBUFFER, rb);
    c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8_SNORM, 4, 4);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
}

#[test]
fn linear_filtering_and_mipmaps_average_decoded_values() {
    let mut results = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(16, 16, threads);
        float_target(&mut c);
        // A 2×2 level 0; GenerateMipmap averages the four decoded texels and encodes the
        // mean: R (-1, 1, 64/127, -64/127) → 0; G (1, 1, 1, -1) → 0.5 → 63.5 → 64.
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, t);
        let level0: [i8; 8] = [-127, 127, 127, 127, 64, 127, -64, -127];
        let bytes = level0.map(|x| x as u8);
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RG8_SNORM as i32,
            2,
            2,
            0,
            gl::RG,
            gl::BYTE,
            Some(&bytes),
        );
        c.generate_mipmap(gl::TEXTURE_2D);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let l1 = c.get_tex_image(gl::TEXTURE_2D, 1, gl::RG, gl::BYTE);
        assert_eq!(l1, [0, 64]);
        // LINEAR between the texels of a row: at a quarter of the way from -1 to 1 of
        // row 0, -0.5; the G channel stays 1.
        c.tex_parameter_i(
            gl::TEXTURE_2D,
            gl::TEXTURE_MIN_FILTER,
            gl::LINEAR_MIPMAP_NEAREST as i32,
        );
        c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER, gl::LINEAR as i32);
        c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_WRAP_S, gl::CLAMP_TO_EDGE as i32);
        c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_WRAP_T, gl::CLAMP_TO_EDGE as i32);
        let p = program(&mut c, VS, &fs("texture(s, vec2(0.375, 0.25))"));
        let got = run(&mut c, p);
        assert_eq!(got[0], [-0.5, 1.0, 0.0, 1.0], "{threads} workers");
        // The mipmapped level reads its encoded mean: 0 and 64/127.
        let p = program(&mut c, VS, &fs("textureLod(s, vec2(0.5), 1.0)"));
        let got = run(&mut c, p);
        assert_eq!(got[0], [0.0, 64.0 / 127.0, 0.0, 1.0]);
        results.push(got);
    }
    assert_eq!(results[0], results[1], "1 and 2 workers agree");
}

#[test]
fn clear_tex_image_encodes_the_clear_value() {
    let mut c = Context::new(4, 4);
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA16_SNORM, 2, 1);
    let v: Vec<u8> = [-1.5f32, 0.5, -0.25, 1.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    c.clear_tex_image(t, 0, gl::RGBA, gl::FLOAT, Some(&v));
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let s = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::SHORT);
    let s: Vec<i16> = s
        .chunks(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    // 0.5 × 32767 = 16383.5 → 16384; -0.25 × 32767 = -8191.75 → -8192.
    assert_eq!(s, [-32767, 16384, -8192, 32767].repeat(2));
    // BYTE words clear an 8-bit snorm texture as they are.
    let b = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, b);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RG8_SNORM, 2, 1);
    c.clear_tex_image(b, 0, gl::RG, gl::BYTE, Some(&[0x80, 0x7F]));
    assert_eq!(
        c.get_tex_image(gl::TEXTURE_2D, 0, gl::RG, gl::BYTE),
        [0x80, 0x7F, 0x80, 0x7F]
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// Image load/store with the snorm layouts (GL 4.5 core §8.26, GLSL 4.60 §4.4.6.2): stores
/// encode with eq. 2.4, loads decode with eq. 2.2, and a snorm texture bound with a
/// format of its size (r32ui) reads its stored bits unconverted.
#[test]
fn image_load_store_with_snorm_layouts() {
    let mut results = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(8, 8, threads);
        let snorm = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, snorm);
        c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8_SNORM, 2, 1);
        let words: [i8; 8] = [-128, -127, 0, 127, 1, -1, 64, -64];
        let bytes = words.map(|x| x as u8);
        c.tex_sub_image_2d(gl::TEXTURE_2D, 0, 0, 0, 2, 1, gl::RGBA, gl::BYTE, &bytes);
        let short = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, short);
        c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::R16_SNORM, 2, 1);
        let raw = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, raw);
        c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::R32UI, 2, 1);
        let out = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, out);
        c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA32F, 2, 1);
        c.bind_image_texture(0, snorm, 0, false, 0, gl::READ_ONLY, gl::RGBA8_SNORM);
        c.bind_image_texture(1, snorm, 0, false, 0, gl::READ_ONLY, gl::R32UI);
        c.bind_image_texture(2, raw, 0, false, 0, gl::WRITE_ONLY, gl::R32UI);
        c.bind_image_texture(3, out, 0, false, 0, gl::WRITE_ONLY, gl::RGBA32F);
        c.bind_image_texture(4, short, 0, false, 0, gl::WRITE_ONLY, gl::R16_SNORM);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let src = "#version 430
layout(local_size_x = 2) in;
layout(rgba8_snorm, binding = 0) readonly uniform image2D s;
layout(r32ui, binding = 1) readonly uniform uimage2D bits;
layout(r32ui, binding = 2) writeonly uniform uimage2D raw;
layout(rgba32f, binding = 3) writeonly uniform image2D decoded;
layout(r16_snorm, binding = 4) writeonly uniform image2D half_range;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(decoded, p, imageLoad(s, p));
    imageStore(raw, p, imageLoad(bits, p));
    imageStore(half_range, p, vec4(p.x == 0 ? -0.25 : 2.0));
}";
        common::compute_program(&mut c, src);
        c.dispatch_compute(1, 1, 1);
        c.memory_barrier(gl::ALL_BARRIER_BITS);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        c.bind_texture(gl::TEXTURE_2D, out);
        let got = floats(&c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::FLOAT));
        let want: Vec<[f32; 4]> = words
            .chunks(4)
            .map(|w| std::array::from_fn(|k| (w[k] as f32 / 127.0).max(-1.0)))
            .collect();
        assert_eq!(got, want, "imageLoad decodes (eq. 2.2)");
        c.bind_texture(gl::TEXTURE_2D, raw);
        let r = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RED_INTEGER, gl::UNSIGNED_INT);
        assert_eq!(
            r, bytes,
            "an r32ui view of the texels reads the stored words"
        );
        c.bind_texture(gl::TEXTURE_2D, short);
        let st = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RED, gl::SHORT);
        // -0.25 × 32767 = -8191.75 → -8192; 2.0 clamps to 1 → 32767.
        assert_eq!(
            st,
            [(-8192i16).to_le_bytes(), 32767i16.to_le_bytes()].concat()
        );
        // The stored words did not change under the read-only units.
        c.bind_texture(gl::TEXTURE_2D, snorm);
        assert_eq!(
            c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::BYTE),
            bytes
        );
        results.push((got, r, st));
    }
    assert_eq!(results[0], results[1], "1 and 2 workers agree");
}

/// A view of an RGBA8UI texture as RGBA8_SNORM (one view class, GL 4.5 core table 8.22)
/// samples the same bytes as snorm words.
#[test]
fn snorm_views_reinterpret_the_bytes() {
    let mut c = common::context(16, 16, 1);
    float_target(&mut c);
    let orig = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, orig);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8UI, 1, 1);
    c.tex_sub_image_2d(
        gl::TEXTURE_2D,
        0,
        0,
        0,
        1,
        1,
        gl::RGBA_INTEGER,
        gl::UNSIGNED_BYTE,
        &[0x80, 0x81, 0x7F, 0x40],
    );
    let view = c.gen_textures(1)[0];
    c.texture_view(view, gl::TEXTURE_2D, orig, gl::RGBA8_SNORM, 0, 1, 0, 1);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.bind_texture(gl::TEXTURE_2D, view);
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    let p = program(&mut c, VS, &fs("texelFetch(s, ivec2(0), 0)"));
    let got = run(&mut c, p);
    assert_eq!(got[0], [-1.0, -1.0, 1.0, 64.0 / 127.0]);
}
