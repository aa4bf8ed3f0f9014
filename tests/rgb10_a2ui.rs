//! RGB10_A2UI end to end through the Rust `Context` (GL 4.5 core table 8.12, ARB_texture_
//! rgb10_a2ui): uploads and downloads as UNSIGNED_INT_2_10_10_10_REV words and as plain
//! integers, sampling with usampler2D (unconverted), rendering into it (clamped fields,
//! colour mask, logic op, glClearBufferuiv), level queries, and `rgb10_a2ui` image
//! load/store; on 1 and 2 workers, which must agree.

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

/// Packs fields as GL's UNSIGNED_INT_2_10_10_10_REV (R in the low bits).
fn word([r, g, b, a]: [u32; 4]) -> u32 {
    r | g << 10 | b << 20 | a << 30
}

/// The fields of texel i: the extremes, then values spread over each field.
fn fields(i: usize) -> [u32; 4] {
    let i = i as u32;
    [
        (i * 397 + 1023) % 1024,
        (i * 211) % 1024,
        1023 - (i * 131) % 1024,
        i % 4,
    ]
}

fn words() -> Vec<u8> {
    (0..(W * H) as usize)
        .flat_map(|i| word(fields(i)).to_le_bytes())
        .collect()
}

fn texture(c: &mut Context) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGB10_A2UI as i32,
        W,
        H,
        0,
        gl::RGBA_INTEGER,
        gl::UNSIGNED_INT_2_10_10_10_REV,
        Some(&words()),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32);
    t
}

fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

#[test]
fn uploads_downloads_and_queries() {
    let mut c = Context::new(4, 4);
    texture(&mut c);
    // The packed words come back as they went in; plain integers give the fields.
    let back = c.get_tex_image(
        gl::TEXTURE_2D,
        0,
        gl::RGBA_INTEGER,
        gl::UNSIGNED_INT_2_10_10_10_REV,
    );
    assert_eq!(back, words());
    let ints = u32s(&c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA_INTEGER, gl::UNSIGNED_INT));
    let want: Vec<u32> = (0..(W * H) as usize).flat_map(fields).collect();
    assert_eq!(ints, want);
    // Plain integers are clamped to their field; missing ones are (0, 0, 0, 1).
    let src: Vec<u8> = [5000u32, 7, 1023]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGB10_A2UI as i32,
        1,
        1,
        0,
        gl::RGB_INTEGER,
        gl::UNSIGNED_INT,
        Some(&src),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let w = c.get_tex_image(
        gl::TEXTURE_2D,
        0,
        gl::RGBA_INTEGER,
        gl::UNSIGNED_INT_2_10_10_10_REV,
    );
    assert_eq!(u32s(&w), [word([1023, 7, 1023, 1])]);
    // A normalized client format is refused (§8.5: integer internal format).
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGB10_A2UI as i32,
        1,
        1,
        0,
        gl::RGBA,
        gl::UNSIGNED_INT_2_10_10_10_REV,
        Some(&[0; 4]),
    );
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // Level queries: 10/10/10/2 unsigned integer bits.
    let q = |c: &mut Context, p| c.get_tex_level_parameteriv(gl::TEXTURE_2D, 0, p);
    assert_eq!(
        q(&mut c, gl::TEXTURE_INTERNAL_FORMAT),
        gl::RGB10_A2UI as i32
    );
    for (p, bits) in [
        (gl::TEXTURE_RED_SIZE, 10),
        (gl::TEXTURE_GREEN_SIZE, 10),
        (gl::TEXTURE_BLUE_SIZE, 10),
        (gl::TEXTURE_ALPHA_SIZE, 2),
    ] {
        assert_eq!(q(&mut c, p), bits);
    }
    assert_eq!(q(&mut c, gl::TEXTURE_RED_TYPE), gl::UNSIGNED_INT as i32);
    assert_eq!(q(&mut c, gl::TEXTURE_ALPHA_TYPE), gl::UNSIGNED_INT as i32);
    // RGBA / UNSIGNED_INT_2_10_10_10_REV into RGB10_A2 (unorm fields) round-trips too.
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGB10_A2 as i32,
        W,
        H,
        0,
        gl::RGBA,
        gl::UNSIGNED_INT_2_10_10_10_REV,
        Some(&words()),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let back = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_INT_2_10_10_10_REV);
    assert_eq!(back, words());
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// A W×H RGBA32F framebuffer, bound, with the viewport on it.
fn float_target(c: &mut Context) {
    let rb = c.gen_renderbuffers(1)[0];
    c.bind_renderbuffer(gl::RENDERBUFFER, rb);
    c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA32F, W, H);
    let fbo = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    c.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb);
    c.viewport(0, 0, W, H);
}

#[test]
fn sampling_returns_the_fields_unconverted() {
    let mut seen = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(16, 16, threads);
        float_target(&mut c);
        let t = texture(&mut c);
        let want: Vec<[f32; 4]> = (0..(W * H) as usize)
            .map(|i| fields(i).map(|x| x as f32))
            .collect();
        for lookup in ["texelFetch(s, p, 0)", "texture(s, uv)"] {
            let fs = format!(
                "#version 330
uniform usampler2D s;
out vec4 color;
void main() {{
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec2 uv = (vec2(p) + 0.5) / vec2({W}.0, {H}.0);
    color = vec4({lookup});
}}"
            );
            let p = program(&mut c, VS, &fs);
            c.use_program(p);
            c.bind_texture(gl::TEXTURE_2D, t);
            c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
            assert_eq!(c.get_error(), gl::NO_ERROR);
            let px = c.read_pixels(0, 0, W, H, gl::RGBA, gl::FLOAT);
            let got: Vec<[f32; 4]> = px
                .chunks(16)
                .map(|p| {
                    std::array::from_fn(|k| {
                        f32::from_le_bytes(p[k * 4..k * 4 + 4].try_into().unwrap())
                    })
                })
                .collect();
            assert_eq!(got, want, "{lookup} on {threads} workers");
            seen.push(got);
        }
    }
    assert_eq!(seen[..2], seen[2..], "1 and 2 workers agree");
}

/// Draws into an RGB10_A2UI attachment: the output integers clamped to their fields; the
/// colour mask keeps disabled fields; a logic op works on the packed word;
/// glClearBufferuiv clamps like draws.
#[test]
fn rendering_packs_clamped_fields() {
    let mut seen = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(16, 16, threads);
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, t);
        c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGB10_A2UI, W, H);
        let fbo = c.gen_framebuffers(1)[0];
        c.bind_framebuffer(gl::FRAMEBUFFER, fbo);
        c.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, t, 0);
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_COMPLETE
        );
        c.viewport(0, 0, W, H);
        let read = |c: &mut Context| -> Vec<u32> {
            u32s(&c.read_pixels(0, 0, W, H, gl::RGBA_INTEGER, gl::UNSIGNED_INT))
        };
        c.clear_bufferuiv(gl::COLOR, 0, &[70000, 1, 1023, 9]);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(read(&mut c), [1023, 1, 1023, 3].repeat((W * H) as usize));
        let fs = "#version 330
out uvec4 color;
void main() {
    uint x = uint(gl_FragCoord.x);
    color = uvec4(5000u, 7u + x, x * 300u, x);
}";
        let p = program(&mut c, VS, fs);
        c.use_program(p);
        c.color_mask(true, false, true, true);
        c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let want: Vec<u32> = (0..(W * H) as u32)
            .flat_map(|i| {
                let x = i % W as u32;
                [1023, 1, (x * 300).min(1023), x.min(3)]
            })
            .collect();
        assert_eq!(read(&mut c), want, "{threads} workers");
        // The packed words as GL stores them.
        let words = c.read_pixels(
            0,
            0,
            W,
            H,
            gl::RGBA_INTEGER,
            gl::UNSIGNED_INT_2_10_10_10_REV,
        );
        let want_words: Vec<u32> = want
            .chunks(4)
            .map(|f| word([f[0], f[1], f[2], f[3]]))
            .collect();
        assert_eq!(u32s(&words), want_words);
        // XOR with everything enabled: each packed field flips against what is stored.
        c.color_mask(true, true, true, true);
        c.enable(gl::COLOR_LOGIC_OP);
        c.logic_op(gl::XOR);
        c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
        c.disable(gl::COLOR_LOGIC_OP);
        let xored: Vec<u32> = (0..(W * H) as usize)
            .flat_map(|i| {
                let x = (i % W as usize) as u32;
                let s = [1023, 7 + x, (x * 300).min(1023), x.min(3)];
                let d = &want[i * 4..i * 4 + 4];
                [s[0] ^ d[0], s[1] ^ d[1], s[2] ^ d[2], s[3] ^ d[3]]
            })
            .collect();
        assert_eq!(read(&mut c), xored);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        seen.push(xored);
    }
    assert_eq!(seen[0], seen[1], "1 and 2 workers agree");
}

/// `rgb10_a2ui` image loads give the fields, stores clamp them (GL 4.5 core §8.26).
#[test]
fn image_load_store() {
    let mut seen = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(8, 8, threads);
        let t = texture(&mut c);
        let out = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, out);
        c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA32UI, W, H);
        c.bind_image_texture(0, t, 0, false, 0, gl::READ_WRITE, gl::RGB10_A2UI);
        c.bind_image_texture(1, out, 0, false, 0, gl::WRITE_ONLY, gl::RGBA32UI);
        let src = "#version 430
layout(local_size_x = 4, local_size_y = 2) in;
layout(rgb10_a2ui, binding = 0) uniform uimage2D img;
layout(rgba32ui, binding = 1) writeonly uniform uimage2D copy;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(copy, p, imageLoad(img, p));
    imageStore(img, p, uvec4(2000u, uint(p.x), 1u, 4u));
}";
        common::compute_program(&mut c, src);
        c.dispatch_compute(1, 1, 1);
        c.memory_barrier(gl::ALL_BARRIER_BITS);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        c.bind_texture(gl::TEXTURE_2D, out);
        let copied = u32s(&c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA_INTEGER, gl::UNSIGNED_INT));
        let want: Vec<u32> = (0..(W * H) as usize).flat_map(fields).collect();
        assert_eq!(copied, want, "imageLoad gives the fields");
        c.bind_texture(gl::TEXTURE_2D, t);
        let stored = u32s(&c.get_tex_image(
            gl::TEXTURE_2D,
            0,
            gl::RGBA_INTEGER,
            gl::UNSIGNED_INT_2_10_10_10_REV,
        ));
        let want: Vec<u32> = (0..(W * H) as u32)
            .map(|i| word([1023, i % W as u32, 1, 3]))
            .collect();
        assert_eq!(stored, want, "imageStore clamps each field");
        seen.push(stored);
    }
    assert_eq!(seen[0], seen[1], "1 and 2 workers agree");
}
