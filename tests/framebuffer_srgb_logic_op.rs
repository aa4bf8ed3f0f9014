//! GL_FRAMEBUFFER_SRGB (GL 4.5 core §17.3.9: SRGB8_ALPHA8 attachments blend in linear space
//! and store encoded; clears and blits (§18.3.1) convert too) and logical operations
//! (§17.3.11, glLogicOp and GL_COLOR_LOGIC_OP on unorm and integer buffers, replacing
//! blending), end to end through the Rust `Context`, checked exactly against the sRGB curve
//! in f64 and the ops' truth tables, at 1 and 2 threads.

mod common;

use softgl::{enums as gl, Context};

const VS: &str = "#version 330
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.5, 1.0);
}";

/// A flat colour, or with `ramp` set, red growing along x: (x + 0.5) / 16, exact in f32.
const FS: &str = "#version 330
uniform vec4 col;
uniform bool ramp;
out vec4 color;
void main() {
    color = col;
    if (ramp)
        color.r = gl_FragCoord.x / 16.0;
}";

const FS_UINT: &str = "#version 330
uniform uvec4 col;
out uvec4 color;
void main() {
    color = col;
}";

const W: i32 = 16;
const C0: u32 = gl::COLOR_ATTACHMENT0;

fn no_error(c: &mut Context) {
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// The exact sRGB encoding of a linear value (GL 4.5 core eq. 17.1) in f64, rounded.
fn encode(v: f64) -> u8 {
    let v = v.clamp(0.0, 1.0);
    let s = if v < 0.003_130_8 {
        12.92 * v
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    };
    (s * 255.0).round() as u8
}

/// The sRGB decoding of a stored byte (eq. 8.17) in f64.
fn decode(c: u8) -> f64 {
    let s = c as f64 / 255.0;
    if s <= 0.04045 {
        s / 12.92
    } else {
        ((s + 0.055) / 1.055).powf(2.4)
    }
}

/// A context on `threads` workers drawing into a W×1 texture of `format` with program
/// `fs` in use.
fn setup(threads: usize, format: u32, fs: &str) -> (Context, u32, u32) {
    let mut c = common::context(W as u32, 1, threads);
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, format, W, 1);
    c.framebuffer_texture_2d(gl::FRAMEBUFFER, C0, gl::TEXTURE_2D, t, 0);
    no_error(&mut c);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    let p = common::program(&mut c, VS, fs);
    c.use_program(p);
    (c, p, f)
}

fn draw(c: &mut Context, p: u32, col: [f32; 4], ramp: bool) {
    let l = c.get_uniform_location(p, "col");
    c.uniform_4f(l, col[0], col[1], col[2], col[3]);
    let r = c.get_uniform_location(p, "ramp");
    c.uniform_1i(r, ramp as i32);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    no_error(c);
}

fn read(c: &mut Context) -> Vec<u8> {
    let v = c.read_pixels(0, 0, W, 1, gl::RGBA, gl::UNSIGNED_BYTE);
    no_error(c);
    v
}

#[test]
fn srgb_writes_encode_and_blend_in_linear_space() {
    let mut images = Vec::new();
    for threads in [1, 2] {
        let (mut c, p, _) = setup(threads, gl::SRGB8_ALPHA8, FS);
        let enc = c.get_framebuffer_attachment_parameteriv(
            gl::FRAMEBUFFER,
            C0,
            gl::FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING,
        );
        assert_eq!(enc as u32, gl::SRGB);
        assert!(!c.is_enabled(gl::FRAMEBUFFER_SRGB));
        // Off: SRGB8_ALPHA8 stores like RGBA8.
        draw(&mut c, p, [0.0, 0.5, 0.25, 0.5], true);
        let off = read(&mut c);
        for x in 0..W as usize {
            let r = (((x as f64 + 0.5) / 16.0) * 255.0).round() as u8;
            assert_eq!(off[x * 4..x * 4 + 4], [r, 128, 64, 128], "off, x {x}");
        }
        // On: RGB encoded (alpha stays linear).
        c.enable(gl::FRAMEBUFFER_SRGB);
        assert!(c.is_enabled(gl::FRAMEBUFFER_SRGB));
        no_error(&mut c);
        draw(&mut c, p, [0.0, 0.5, 0.25, 0.5], true);
        let on = read(&mut c);
        for x in 0..W as usize {
            let r = encode((x as f64 + 0.5) / 16.0);
            assert_eq!(
                on[x * 4..x * 4 + 4],
                [r, encode(0.5), encode(0.25), 128],
                "on, x {x}"
            );
        }
        // Clears encode too: linear 1.0 and 0.0 are exact codes; then 50% over them blends
        // the linear values (0.5 · 1 + 0.5 · ramp).
        c.clear_color(1.0, 0.0, 0.5, 1.0);
        c.clear(gl::COLOR_BUFFER_BIT);
        let cleared = read(&mut c);
        assert_eq!(cleared[..4], [255, 0, encode(0.5), 255]);
        c.enable(gl::BLEND);
        c.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
        draw(&mut c, p, [0.0, 1.0, 0.0, 0.5], true);
        let blended = read(&mut c);
        let b_lin = decode(encode(0.5));
        for x in 0..W as usize {
            let ramp = (x as f64 + 0.5) / 16.0;
            let want = [
                encode(0.5 * ramp + 0.5),
                encode(0.5),
                encode(0.5 * b_lin),
                // Alpha is linear: 0.5·0.5 + 0.5·1.
                191,
            ];
            assert_eq!(blended[x * 4..x * 4 + 4], want, "blend, x {x}");
        }
        // glClearBufferfv encodes as well.
        c.clear_bufferfv(gl::COLOR, 0, &[0.5, 0.0, 0.0, 0.0]);
        assert_eq!(read(&mut c)[..4], [encode(0.5), 0, 0, 0]);
        images.push((off, on, blended));
    }
    assert_eq!(images[0], images[1]);
}

#[test]
fn srgb_blits_decode_and_encode_only_when_enabled() {
    let (mut c, p, src) = setup(1, gl::SRGB8_ALPHA8, FS);
    c.enable(gl::FRAMEBUFFER_SRGB);
    draw(&mut c, p, [0.25, 0.5, 0.75, 1.0], false);
    c.disable(gl::FRAMEBUFFER_SRGB);
    let stored = [encode(0.25), encode(0.5), encode(0.75), 255];
    // An RGBA8 framebuffer to blit into (its encoding is linear).
    let dst = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, dst);
    let rb = c.gen_renderbuffers(1)[0];
    c.bind_renderbuffer(gl::RENDERBUFFER, rb);
    c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, W, 1);
    c.framebuffer_renderbuffer(gl::FRAMEBUFFER, C0, gl::RENDERBUFFER, rb);
    let enc = c.get_framebuffer_attachment_parameteriv(
        gl::FRAMEBUFFER,
        C0,
        gl::FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING,
    );
    assert_eq!(enc as u32, gl::LINEAR);
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, src);
    c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, dst);
    let blit = |c: &mut Context| {
        c.blit_framebuffer(0, 0, W, 1, 0, 0, W, 1, gl::COLOR_BUFFER_BIT, gl::NEAREST);
        no_error(c);
        c.bind_framebuffer(gl::READ_FRAMEBUFFER, dst);
        let v = read(c);
        c.bind_framebuffer(gl::READ_FRAMEBUFFER, src);
        v
    };
    // Off: the stored codes are copied.
    assert_eq!(blit(&mut c)[..4], stored);
    // On: decoded to linear, stored linearly in RGBA8.
    c.enable(gl::FRAMEBUFFER_SRGB);
    let lin = stored.map(|s| (decode(s) * 255.0).round() as u8);
    assert_eq!(blit(&mut c)[..4], [lin[0], lin[1], lin[2], 255]);
}

/// GL 4.5 core table 17.3 on bytes.
fn table(op: u32, s: u8, d: u8) -> u8 {
    match op {
        gl::CLEAR => 0,
        gl::AND => s & d,
        gl::AND_REVERSE => s & !d,
        gl::COPY => s,
        gl::AND_INVERTED => !s & d,
        gl::NOOP => d,
        gl::XOR => s ^ d,
        gl::OR => s | d,
        gl::NOR => !(s | d),
        gl::EQUIV => !(s ^ d),
        gl::INVERT => !d,
        gl::OR_REVERSE => s | !d,
        gl::COPY_INVERTED => !s,
        gl::OR_INVERTED => !s | d,
        gl::NAND => !(s & d),
        _ => 0xFF,
    }
}

#[test]
fn every_logic_op_on_unorm_and_integer_buffers() {
    let dst = [0x0Fu8, 0xF0, 0x55, 0xAA];
    let src = [0xFFu8, 0x3C, 0x00, 0x99];
    let mut runs = Vec::new();
    for threads in [1, 2] {
        let (mut c, p, _) = setup(threads, gl::RGBA8, FS);
        assert!(!c.is_enabled(gl::COLOR_LOGIC_OP));
        assert_eq!(c.get_integerv(gl::LOGIC_OP_MODE), [gl::COPY as i32]);
        c.enable(gl::COLOR_LOGIC_OP);
        // Blending is off under a logic op, whatever its state.
        c.enable(gl::BLEND);
        c.blend_func(gl::ZERO, gl::ONE);
        let mut got = Vec::new();
        for op in gl::CLEAR..=gl::SET {
            let d = dst.map(|v| v as f32 / 255.0);
            c.disable(gl::COLOR_LOGIC_OP);
            c.clear_color(d[0], d[1], d[2], d[3]);
            c.clear(gl::COLOR_BUFFER_BIT);
            c.enable(gl::COLOR_LOGIC_OP);
            c.logic_op(op);
            no_error(&mut c);
            draw(&mut c, p, src.map(|v| v as f32 / 255.0), false);
            let v = read(&mut c);
            let want: Vec<u8> = (0..4).map(|i| table(op, src[i], dst[i])).collect();
            assert_eq!(v[..4], want[..], "op {op:#x}");
            assert!(v.chunks(4).all(|t| t == &v[..4]));
            got.push(v);
        }
        assert_eq!(c.get_integerv(gl::LOGIC_OP_MODE), [gl::SET as i32]);
        c.logic_op(gl::SET + 1);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        runs.push(got);
    }
    assert_eq!(runs[0], runs[1]);

    // R32UI: the op on all 32 bits; the colour mask still applies on RGBA16UI.
    for (format, read_n) in [(gl::R32UI, 1usize), (gl::RGBA16UI, 4)] {
        let (mut c, p, _) = setup(2, format, FS_UINT);
        // Values inside each format's range (clears and outputs clamp to it).
        let (d, s) = if format == gl::R32UI {
            ([0xF0F0_1234u32, 0, 0, 0], [0x0FF0_FFFFu32, 0, 0, 0])
        } else {
            (
                [0x1234, 0x00FF, 0x1234, 0xFFFF],
                [0xF0FF, 0x0F0F, 0xFFFF, 0x0001],
            )
        };
        let mask = |v: u32| if format == gl::R32UI { v } else { v & 0xFFFF };
        for op in [gl::AND, gl::XOR, gl::NOR, gl::OR_INVERTED] {
            c.disable(gl::COLOR_LOGIC_OP);
            c.clear_bufferuiv(gl::COLOR, 0, &d);
            c.enable(gl::COLOR_LOGIC_OP);
            c.logic_op(op);
            c.color_maski(0, true, true, false, true);
            let l = c.get_uniform_location(p, "col");
            c.uniform_4ui(l, s[0], s[1], s[2], s[3]);
            c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
            c.color_maski(0, true, true, true, true);
            no_error(&mut c);
            let fmt = if read_n == 1 {
                gl::RED_INTEGER
            } else {
                gl::RGBA_INTEGER
            };
            let v = c.read_pixels(0, 0, 1, 1, fmt, gl::UNSIGNED_INT);
            no_error(&mut c);
            let got: Vec<u32> = v
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            let want: Vec<u32> = (0..read_n)
                .map(|i| {
                    if i == 2 {
                        return d[2];
                    }
                    let bytes: Vec<u8> = s[i]
                        .to_le_bytes()
                        .iter()
                        .zip(d[i].to_le_bytes())
                        .map(|(&a, b)| table(op, a, b))
                        .collect();
                    mask(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
                })
                .collect();
            assert_eq!(got, want, "{format:#x} op {op:#x}");
        }
    }
}

#[test]
fn float_buffers_ignore_the_logic_op_and_do_not_blend() {
    let (mut c, p, _) = setup(1, gl::RGBA32F, FS);
    c.clear_color(0.25, 0.25, 0.25, 0.25);
    c.clear(gl::COLOR_BUFFER_BIT);
    c.enable(gl::BLEND);
    c.blend_func(gl::ONE, gl::ONE);
    c.enable(gl::COLOR_LOGIC_OP);
    c.logic_op(gl::XOR);
    draw(&mut c, p, [0.5, -2.0, 3.0, 0.125], false);
    let v = c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::FLOAT);
    no_error(&mut c);
    let got: Vec<f32> = v
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    assert_eq!(got, [0.5, -2.0, 3.0, 0.125]);
}
