//! Integer textures end to end through the Rust `Context` (GL 4.5 core table 8.12 R8I …
//! RGBA32UI, §8.4.4 integer pixel transfers, §8.17 completeness, GLSL 4.60 §8.9 isampler2D
//! and usampler2D): every integer format is uploaded, read in a shader with texelFetch,
//! texture and textureLod (bound and bindless), written to an RGBA32F target as 16-bit
//! halves and read back, so each 32-bit integer must come back exactly; plus the errors of
//! mismatched uploads, integer border colours and what an incomplete integer texture reads.

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

fn ctx(threads: usize) -> Context {
    common::context(16, 16, threads)
}

/// (internal format, channels, bytes per channel, signed) of every integer format.
fn formats() -> Vec<(u32, usize, usize, bool)> {
    let mut v = Vec::new();
    for (ch, names) in [
        (
            1,
            [gl::R8I, gl::R8UI, gl::R16I, gl::R16UI, gl::R32I, gl::R32UI],
        ),
        (
            2,
            [
                gl::RG8I,
                gl::RG8UI,
                gl::RG16I,
                gl::RG16UI,
                gl::RG32I,
                gl::RG32UI,
            ],
        ),
        (
            3,
            [
                gl::RGB8I,
                gl::RGB8UI,
                gl::RGB16I,
                gl::RGB16UI,
                gl::RGB32I,
                gl::RGB32UI,
            ],
        ),
        (
            4,
            [
                gl::RGBA8I,
                gl::RGBA8UI,
                gl::RGBA16I,
                gl::RGBA16UI,
                gl::RGBA32I,
                gl::RGBA32UI,
            ],
        ),
    ] {
        for (i, n) in names.into_iter().enumerate() {
            v.push((n, ch, 1 << (i / 2), i % 2 == 0));
        }
    }
    v
}

/// The value of channel `c` of texel `i`: the extremes of the range first, then spread
/// over it (negative values for signed formats).
fn value(i: usize, c: usize, bytes: usize, signed: bool) -> i64 {
    let bits = bytes as u32 * 8;
    let (lo, hi) = if signed {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    };
    match (i * 4 + c) % 5 {
        0 => lo,
        1 => hi,
        2 => lo + 1,
        3 if signed => -1,
        3 => hi - 1,
        _ => lo + ((i as i64 * 7919 + c as i64 * 104729) * 2654435761) % (hi - lo + 1),
    }
}

/// The client pixels (INT or UNSIGNED_INT, `channels` per pixel) of the W×H test image.
fn client(channels: usize, bytes: usize, signed: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for i in 0..(W * H) as usize {
        for c in 0..channels {
            out.extend_from_slice(&(value(i, c, bytes, signed) as u32).to_le_bytes());
        }
    }
    out
}

/// The client format of `channels` integer components.
fn int_format(channels: usize) -> u32 {
    [
        gl::RED_INTEGER,
        gl::RG_INTEGER,
        gl::RGB_INTEGER,
        gl::RGBA_INTEGER,
    ][channels - 1]
}

/// Each lookup form writes half of the texel's four 32-bit integers as 16-bit halves
/// (exact in f32): `part` 0 gives x and y, 1 gives z and w.
fn fs(sampler: &str, lookup: &str) -> String {
    let (prefix, ty) = if sampler.starts_with('i') {
        ("i", "int")
    } else {
        ("u", "uint")
    };
    format!(
        "#version 330
#extension GL_ARB_bindless_texture : enable
uniform {sampler} s;
uniform int part;
out vec4 color;
vec2 halves({ty} v) {{
    return vec2(float(v >> 16), float(v & {ty}(0xFFFF)));
}}
void main() {{
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec2 uv = (vec2(p) + 0.5) / vec2({W}.0, {H}.0);
    {prefix}vec4 v = {lookup};
    color = part == 0 ? vec4(halves(v.x), halves(v.y)) : vec4(halves(v.z), halves(v.w));
}}"
    )
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

/// Runs `program` twice (parts 0 and 1) and returns each pixel's four 32-bit integers.
fn run(c: &mut Context, p: u32) -> Vec<[u32; 4]> {
    c.use_program(p);
    let part = c.get_uniform_location(p, "part");
    let mut words = vec![[0u32; 4]; (W * H) as usize];
    for half in 0..2 {
        c.uniform_1i(part, half);
        c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let px = c.read_pixels(0, 0, W, H, gl::RGBA, gl::FLOAT);
        for (i, f) in px.chunks(16).enumerate() {
            let f: Vec<f32> = f
                .chunks(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            for k in 0..2 {
                let (hi, lo) = (f[2 * k] as i64 as u32, f[2 * k + 1] as u32);
                words[i][2 * half as usize + k] = hi << 16 | lo;
            }
        }
    }
    words
}

/// The texture of `internal` holding the test image, NEAREST filtered.
fn texture(c: &mut Context, internal: u32, channels: usize, bytes: usize, signed: bool) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    let ty = if signed { gl::INT } else { gl::UNSIGNED_INT };
    let data = client(channels, bytes, signed);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        internal as i32,
        W,
        H,
        0,
        int_format(channels),
        ty,
        Some(&data),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR, "upload of {internal:#x}");
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32);
    t
}

/// What texel i reads as: the channels given, then (0, 0, 0, 1).
fn expected(channels: usize, bytes: usize, signed: bool) -> Vec<[u32; 4]> {
    (0..(W * H) as usize)
        .map(|i| {
            let mut v = [0, 0, 0, 1];
            for (c, slot) in v.iter_mut().enumerate().take(channels) {
                *slot = value(i, c, bytes, signed) as u32;
            }
            v
        })
        .collect()
}

#[test]
fn every_integer_format_round_trips_exactly() {
    for threads in [1, 2] {
        let mut c = ctx(threads);
        float_target(&mut c);
        for (internal, channels, bytes, signed) in formats() {
            let t = texture(&mut c, internal, channels, bytes, signed);
            let sampler = if signed { "isampler2D" } else { "usampler2D" };
            let want = expected(channels, bytes, signed);
            for lookup in [
                "texelFetch(s, p, 0)",
                "texture(s, uv)",
                "textureLod(s, uv, 0.0)",
                "textureOffset(s, uv - vec2(1.0 / 4.0, 0.0), ivec2(1, 0))",
            ] {
                let p = program(&mut c, VS, &fs(sampler, lookup));
                c.bind_texture(gl::TEXTURE_2D, t);
                assert_eq!(run(&mut c, p), want, "{internal:#x} {lookup} {threads}");
            }
            // textureSize of an integer sampler.
            let p = program(
                &mut c,
                VS,
                &fs(
                    sampler,
                    &format!(
                        "{prefix}vec4(textureSize(s, 0), textureSize(s, 1))",
                        prefix = &sampler[..1]
                    ),
                ),
            );
            let size = run(&mut c, p);
            assert_eq!(
                size[0],
                [W as u32, H as u32, (W / 2) as u32, (H / 2) as u32]
            );
            // GetTexImage gives the stored integers back.
            let ty = if signed { gl::INT } else { gl::UNSIGNED_INT };
            let back = c.get_tex_image(gl::TEXTURE_2D, 0, int_format(channels), ty);
            assert_eq!(c.get_error(), gl::NO_ERROR);
            assert_eq!(back, client(channels, bytes, signed), "{internal:#x}");
        }
    }
}

#[test]
fn integer_uploads_clamp_and_mismatches_are_errors() {
    let mut c = ctx(1);
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    // GL 4.5 core §8.5: an integer internal format with a non-integer pixel format, or the
    // reverse, is INVALID_OPERATION; an integer format with FLOAT data too (§8.4.4).
    let px = [0u8; 16];
    for (internal, format, ty) in [
        (gl::R32UI, gl::RED, gl::UNSIGNED_BYTE),
        (gl::RGBA8UI, gl::RGBA, gl::UNSIGNED_BYTE),
        (gl::RGBA8, gl::RGBA_INTEGER, gl::UNSIGNED_BYTE),
        (gl::RGBA32I, gl::RGBA_INTEGER, gl::FLOAT),
        (gl::RGBA16I, gl::RGBA_INTEGER, gl::HALF_FLOAT),
    ] {
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            internal as i32,
            1,
            1,
            0,
            format,
            ty,
            Some(&px),
        );
        assert_eq!(
            c.get_error(),
            gl::INVALID_OPERATION,
            "{internal:#x} {format:#x} {ty:#x}"
        );
    }
    // Values beyond the format's range clamp (as Mesa does): -5 and 300 into R8UI.
    let data: Vec<u8> = [-5i32, 300].iter().flat_map(|v| v.to_le_bytes()).collect();
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::R8UI as i32,
        2,
        1,
        0,
        gl::RED_INTEGER,
        gl::INT,
        Some(&data),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let back = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RED_INTEGER, gl::UNSIGNED_BYTE);
    assert_eq!(back[..2], [0, 255]);
    // An integer texture reads back only as integers (GL 4.5 core §8.11.4).
    let _ = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RED, gl::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // Not filterable: no mipmaps (GL 4.5 core §8.14.4).
    c.generate_mipmap(gl::TEXTURE_2D);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // Reported as integers.
    assert_eq!(
        c.get_tex_level_parameteriv(gl::TEXTURE_2D, 0, gl::TEXTURE_RED_TYPE),
        gl::UNSIGNED_INT as i32
    );
    assert_eq!(
        c.get_tex_level_parameteriv(gl::TEXTURE_2D, 0, gl::TEXTURE_RED_SIZE),
        8
    );
    // Integer formats are colour-renderable (tests/integer_attachments.rs draws into them).
    let fbo = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    c.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, t, 0);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
}

#[test]
fn integer_border_colour_and_incomplete_filters() {
    let mut c = ctx(2);
    float_target(&mut c);
    let t = texture(&mut c, gl::RGBA32UI, 4, 4, false);
    c.tex_parameter_i(
        gl::TEXTURE_2D,
        gl::TEXTURE_WRAP_S,
        gl::CLAMP_TO_BORDER as i32,
    );
    c.tex_parameter_i(
        gl::TEXTURE_2D,
        gl::TEXTURE_WRAP_T,
        gl::CLAMP_TO_BORDER as i32,
    );
    let border = [7u32, 0xFFFF_FFFF, 123_456_789, 42];
    c.tex_parameter_iuiv(gl::TEXTURE_2D, gl::TEXTURE_BORDER_COLOR, &border);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        c.get_tex_parameter_iuiv(gl::TEXTURE_2D, gl::TEXTURE_BORDER_COLOR),
        border
    );
    let p = program(
        &mut c,
        VS,
        &fs("usampler2D", "texture(s, uv + vec2(2.0, 0.0))"),
    );
    c.bind_texture(gl::TEXTURE_2D, t);
    assert!(run(&mut c, p).iter().all(|v| *v == border));
    // A sampler object's integer border colour, read back bit for bit.
    let s = c.create_samplers(1)[0];
    c.sampler_parameter_iiv(s, gl::TEXTURE_BORDER_COLOR, &[-3, 4, -5, 6]);
    assert_eq!(
        c.get_sampler_parameter_iiv(s, gl::TEXTURE_BORDER_COLOR),
        [-3, 4, -5, 6]
    );
    // GL 4.5 core §8.17: a LINEAR filter makes an integer texture incomplete, and an
    // incomplete texture reads (0, 0, 0, 1) — as integers through an integer sampler.
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER, gl::LINEAR as i32);
    let p = program(&mut c, VS, &fs("usampler2D", "texture(s, uv)"));
    assert!(run(&mut c, p).iter().all(|v| *v == [0, 0, 0, 1]));
    let p = program(
        &mut c,
        VS,
        &fs("usampler2D", "texelFetch(s, ivec2(1, 2), 0)"),
    );
    assert!(run(&mut c, p).iter().all(|v| *v == [0, 0, 0, 1]));
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32);
    // One level and MAX_LEVEL 0: mipmap complete, so only the integer rule refuses
    // NEAREST_MIPMAP_LINEAR (NEAREST_MIPMAP_NEAREST reads the texels).
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MAX_LEVEL, 0);
    c.tex_parameter_i(
        gl::TEXTURE_2D,
        gl::TEXTURE_MIN_FILTER,
        gl::NEAREST_MIPMAP_NEAREST as i32,
    );
    let fetch = program(&mut c, VS, &fs("usampler2D", "texture(s, uv)"));
    assert_eq!(run(&mut c, fetch), expected(4, 4, false));
    c.tex_parameter_i(
        gl::TEXTURE_2D,
        gl::TEXTURE_MIN_FILTER,
        gl::NEAREST_MIPMAP_LINEAR as i32,
    );
    assert!(run(&mut c, p).iter().all(|v| *v == [0, 0, 0, 1]));
    // ... and has no bindless handle.
    assert_eq!(c.get_texture_handle_arb(t), 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}

#[test]
fn bindless_integer_handles() {
    let mut c = ctx(2);
    float_target(&mut c);
    let t = texture(&mut c, gl::RGBA16I, 4, 2, true);
    let h = c.get_texture_handle_arb(t);
    assert_ne!(h, 0);
    c.make_texture_handle_resident_arb(h);
    let want = expected(4, 2, true);
    // A bindless uniform, and an isampler2D made from a uvec2.
    let src = fs("isampler2D", "texelFetch(s, p, 0)").replace(
        "uniform isampler2D s;",
        "layout(bindless_sampler) uniform isampler2D s;",
    );
    let p = program(&mut c, VS, &src);
    c.use_program(p);
    let loc = c.get_uniform_location(p, "s");
    c.uniform_handle_ui64_arb(loc, h);
    assert_eq!(run(&mut c, p), want);
    let src = fs("isampler2D", "texelFetch(isampler2D(hv), p, 0)")
        .replace("uniform isampler2D s;", "uniform uvec2 hv;");
    let p = program(&mut c, VS, &src);
    c.use_program(p);
    let loc = c.get_uniform_location(p, "hv");
    c.uniform_2ui(loc, h as u32, (h >> 32) as u32);
    assert_eq!(run(&mut c, p), want);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// GL_TEXTURE_SWIZZLE_* (GL 4.5 core §15.2.1): results reordered and filled with ZERO/ONE
/// after the lookup, ONE being integer 1 for an integer texture; the texture's swizzle holds
/// with a sampler object bound too, and reads back as enums.
#[test]
fn texture_swizzle_reorders_and_fills() {
    let mut c = ctx(2);
    float_target(&mut c);
    let t = texture(&mut c, gl::RGBA32UI, 4, 4, false);
    let sw = [gl::BLUE, gl::ZERO, gl::ONE, gl::RED].map(|e| e as i32);
    c.tex_parameter_iv(gl::TEXTURE_2D, gl::TEXTURE_SWIZZLE_RGBA, &sw);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        c.get_tex_parameteriv_all(gl::TEXTURE_2D, gl::TEXTURE_SWIZZLE_RGBA),
        sw
    );
    assert_eq!(
        c.get_tex_parameteriv(gl::TEXTURE_2D, gl::TEXTURE_SWIZZLE_A),
        gl::RED as i32
    );
    let want: Vec<[u32; 4]> = expected(4, 4, false)
        .into_iter()
        .map(|v| [v[2], 0, 1, v[0]])
        .collect();
    for lookup in ["texelFetch(s, p, 0)", "texture(s, uv)"] {
        let p = program(&mut c, VS, &fs("usampler2D", lookup));
        c.bind_texture(gl::TEXTURE_2D, t);
        assert_eq!(run(&mut c, p), want, "{lookup}");
    }
    // A sampler object on the unit keeps the texture's swizzle.
    let s = c.create_samplers(1)[0];
    c.sampler_parameter_i(s, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    c.sampler_parameter_i(s, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32);
    c.bind_sampler(0, s);
    let p = program(&mut c, VS, &fs("usampler2D", "texture(s, uv)"));
    assert_eq!(run(&mut c, p), want);
    // Swizzle is not sampler state, and takes only the six values.
    c.sampler_parameter_i(s, gl::TEXTURE_SWIZZLE_R, gl::GREEN as i32);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_SWIZZLE_G, gl::TEXTURE_2D as i32);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
}
