//! Integer colour attachments (GL 4.5 core §9.4 colour-renderable integer formats,
//! §17.3.6 no blending for integer buffers, §17.4.3.1 glClearBufferiv/uiv, §18.2.8
//! glReadPixels with *_INTEGER formats, §18.3.1 integer blits), end to end through the Rust
//! `Context`: `ivec4`/`uvec4` outputs stored unconverted (clamped to narrow formats), colour
//! masks, blending ignored, exact read-backs, the errors, and images identical at 1 and 2
//! threads.

mod common;

use softgl::{enums as gl, Context};

const VS: &str = "#version 330
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.5, 1.0);
}";

/// Location 0 unsigned, location 1 signed; each pixel's value depends on its position.
const FS: &str = "#version 330
uniform uvec4 u;
uniform ivec4 i;
layout(location = 0) out uvec4 out_u;
layout(location = 1) out ivec4 out_i;
void main() {
    uint x = uint(gl_FragCoord.x);
    uint y = uint(gl_FragCoord.y);
    out_u = u + uvec4(x, y, x * y, 0u);
    out_i = i - ivec4(int(x), int(y), 0, 0);
}";

const W: i32 = 8;
const C0: u32 = gl::COLOR_ATTACHMENT0;
const C1: u32 = gl::COLOR_ATTACHMENT1;

fn no_error(c: &mut Context) {
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// A W×W renderbuffer of `format` attached at `attachment` of the bound framebuffer.
fn renderbuffer(c: &mut Context, attachment: u32, format: u32) -> u32 {
    let rb = c.gen_renderbuffers(1)[0];
    c.bind_renderbuffer(gl::RENDERBUFFER, rb);
    c.renderbuffer_storage(gl::RENDERBUFFER, format, W, W);
    c.framebuffer_renderbuffer(gl::FRAMEBUFFER, attachment, gl::RENDERBUFFER, rb);
    no_error(c);
    rb
}

/// A W×W texture of `format` attached at `attachment` of the bound framebuffer.
fn texture(c: &mut Context, attachment: u32, format: u32) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, format, W, W);
    c.framebuffer_texture_2d(gl::FRAMEBUFFER, attachment, gl::TEXTURE_2D, t, 0);
    no_error(c);
    t
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// Reads colour attachment `attachment` as RGBA_INTEGER words of `ty` (INT or UNSIGNED_INT).
fn read_words(c: &mut Context, attachment: u32, ty: u32) -> Vec<u32> {
    c.read_buffer(attachment);
    let v = c.read_pixels(0, 0, W, W, gl::RGBA_INTEGER, ty);
    no_error(c);
    words(&v)
}

/// Draws the full-screen quad with uniforms `u` and `i` into a framebuffer with an RGBA32UI
/// texture at 0 and an RGBA32I renderbuffer at 1, both drawn; returns the context.
fn draw_both(threads: usize, u: [u32; 4], i: [i32; 4]) -> Context {
    let mut c = common::context(W as u32, W as u32, threads);
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    texture(&mut c, C0, gl::RGBA32UI);
    renderbuffer(&mut c, C1, gl::RGBA32I);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    c.draw_buffers(&[C0, C1]);
    let p = common::program(&mut c, VS, FS);
    c.use_program(p);
    let lu = c.get_uniform_location(p, "u");
    let li = c.get_uniform_location(p, "i");
    c.uniform_4ui(lu, u[0], u[1], u[2], u[3]);
    c.uniform_4i(li, i[0], i[1], i[2], i[3]);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    no_error(&mut c);
    c
}

#[test]
fn integer_outputs_are_stored_unconverted_at_1_and_2_threads() {
    let u = [0xFFFF_FF00, 7, 1 << 30, 0xDEAD_BEEF];
    let i = [i32::MIN + 100, -5, 123_456_789, -1];
    let mut images = Vec::new();
    for threads in [1, 2] {
        let mut c = draw_both(threads, u, i);
        let got_u = read_words(&mut c, C0, gl::UNSIGNED_INT);
        let got_i = read_words(&mut c, C1, gl::INT);
        for y in 0..W as u32 {
            for x in 0..W as u32 {
                let p = ((y * W as u32 + x) * 4) as usize;
                let want_u = [u[0] + x, u[1] + y, u[2] + x * y, u[3]];
                assert_eq!(got_u[p..p + 4], want_u, "uvec4 at ({x}, {y})");
                let want_i = [i[0] - x as i32, i[1] - y as i32, i[2], i[3]].map(|v| v as u32);
                assert_eq!(got_i[p..p + 4], want_i, "ivec4 at ({x}, {y})");
            }
        }
        images.push((got_u, got_i));
    }
    assert_eq!(images[0], images[1]);
}

#[test]
fn narrow_formats_clamp_masks_apply_and_blending_is_ignored() {
    let mut c = common::context(W as u32, W as u32, 2);
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    renderbuffer(&mut c, C0, gl::RGBA8UI);
    texture(&mut c, C1, gl::RG16I);
    c.draw_buffers(&[C0, C1]);
    c.clear_bufferuiv(gl::COLOR, 0, &[1, 2, 3, 4]);
    c.clear_bufferiv(gl::COLOR, 1, &[-7, 9, 0, 0]);
    no_error(&mut c);
    let p = common::program(&mut c, VS, FS);
    c.use_program(p);
    let lu = c.get_uniform_location(p, "u");
    let li = c.get_uniform_location(p, "i");
    // u.x + x reaches 300 (clamped to 255), u.y + y stays small, u.z + x·y is huge.
    c.uniform_4ui(lu, 250, 10, 1 << 20, 77);
    c.uniform_4i(li, -32760, 40000, 5, 5);
    // Blending and its state must not touch integer buffers (§17.3.6).
    c.enable(gl::BLEND);
    c.blend_func(gl::ONE, gl::ONE);
    // Green is masked on buffer 0.
    c.color_maski(0, true, false, true, true);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    no_error(&mut c);
    c.read_buffer(C0);
    let rgba = c.read_pixels(0, 0, W, W, gl::RGBA_INTEGER, gl::UNSIGNED_BYTE);
    no_error(&mut c);
    c.read_buffer(C1);
    let rg = c.read_pixels(0, 0, W, W, gl::RG_INTEGER, gl::SHORT);
    no_error(&mut c);
    for y in 0..W as usize {
        for x in 0..W as usize {
            let p = (y * W as usize + x) * 4;
            let want = [(250 + x).min(255) as u8, 2, 255, 77];
            assert_eq!(rgba[p..p + 4], want, "RGBA8UI at ({x}, {y})");
            let q = (y * W as usize + x) * 4;
            let r = i16::from_le_bytes([rg[q], rg[q + 1]]);
            let g = i16::from_le_bytes([rg[q + 2], rg[q + 3]]);
            // -32760 - x clamps at -32768; 40000 - y clamps at 32767.
            assert_eq!(
                (r, g),
                ((-32760 - x as i32).max(-32768) as i16, 32767),
                "RG16I at ({x}, {y})"
            );
        }
    }
}

#[test]
fn clear_buffer_integers_exactly() {
    let mut c = common::context(W as u32, W as u32, 1);
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    renderbuffer(&mut c, C0, gl::R32UI);
    renderbuffer(&mut c, C1, gl::RGBA16I);
    c.draw_buffers(&[C0, C1]);
    c.clear_bufferuiv(gl::COLOR, 0, &[0xFFFF_FFFE, 1, 2, 3]);
    c.clear_bufferiv(gl::COLOR, 1, &[-40000, -3, 3, 40000]);
    no_error(&mut c);
    c.read_buffer(C0);
    let r = words(&c.read_pixels(0, 0, W, W, gl::RED_INTEGER, gl::UNSIGNED_INT));
    no_error(&mut c);
    assert!(r.iter().all(|&v| v == 0xFFFF_FFFE), "{r:?}");
    // RGBA read of a one-channel buffer fills (0, 0, 1).
    let rgba = words(&c.read_pixels(0, 0, 1, 1, gl::RGBA_INTEGER, gl::UNSIGNED_INT));
    assert_eq!(rgba, [0xFFFF_FFFE, 0, 0, 1]);
    let v = read_words(&mut c, C1, gl::INT);
    assert_eq!(v[..4], [-32768i32, -3, 3, 32767].map(|v| v as u32));
    // The colour mask and the scissor apply to integer clears.
    c.color_maski(1, false, true, false, false);
    c.enable(gl::SCISSOR_TEST);
    c.scissor(0, 0, 1, 1);
    c.clear_bufferiv(gl::COLOR, 1, &[1, 2, 3, 4]);
    no_error(&mut c);
    let v = read_words(&mut c, C1, gl::INT);
    assert_eq!(v[..4], [-32768i32, 2, 3, 32767].map(|v| v as u32));
    assert_eq!(v[4..8], [-32768i32, -3, 3, 32767].map(|v| v as u32));
    // A mismatched type is not an error (§17.4.3.1); glClear's float colour truncates.
    c.disable(gl::SCISSOR_TEST);
    c.color_maski(1, true, true, true, true);
    c.clear_bufferfv(gl::COLOR, 0, &[7.9, 0.0, 0.0, 0.0]);
    no_error(&mut c);
    c.read_buffer(C0);
    let r = words(&c.read_pixels(0, 0, 1, 1, gl::RED_INTEGER, gl::UNSIGNED_INT));
    assert_eq!(r, [7]);
    // Bad draw buffers and buffers.
    c.clear_bufferuiv(gl::COLOR, 8, &[0; 4]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.clear_bufferuiv(gl::STENCIL, 0, &[0; 4]);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
}

#[test]
fn read_pixels_and_blits_check_integer_formats() {
    let mut c = draw_both(1, [5, 6, 7, 8], [-1, -2, -3, -4]);
    // Integer buffers read with *_INTEGER formats only, and they read nothing else.
    c.read_buffer(C0);
    c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.read_pixels(0, 0, 1, 1, gl::RGBA_INTEGER, gl::FLOAT);
    assert_ne!(c.get_error(), gl::NO_ERROR);
    let v = c.read_pixels(0, 0, 1, 1, gl::RGB_INTEGER, gl::UNSIGNED_SHORT);
    no_error(&mut c);
    assert_eq!(v[..6], [5, 0, 6, 0, 7, 0]);

    // A second framebuffer: RGBA32UI, RGBA32I and RGBA8 targets.
    let src = c.get_integerv(gl::FRAMEBUFFER_BINDING)[0] as u32;
    let dst = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, dst);
    texture(&mut c, C0, gl::RGBA32UI);
    renderbuffer(&mut c, C1, gl::RGBA32I);
    renderbuffer(&mut c, gl::COLOR_ATTACHMENT2, gl::RGBA8);
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, src);
    c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, dst);
    let blit = |c: &mut Context, read: u32, draw: u32, filter: u32| {
        c.read_buffer(read);
        c.draw_buffers(&[draw]);
        c.blit_framebuffer(0, 0, W, W, 0, 0, W, W, gl::COLOR_BUFFER_BIT, filter);
        c.get_error()
    };
    // Unsigned into unsigned, NEAREST: exact 32-bit values (f32 would round 0xFFFF_FF07).
    c.bind_framebuffer(gl::FRAMEBUFFER, src);
    c.draw_buffers(&[C0]);
    c.clear_bufferuiv(gl::COLOR, 0, &[0xFFFF_FF07, 1, 2, 3]);
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, src);
    c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, dst);
    assert_eq!(blit(&mut c, C0, C0, gl::NEAREST), gl::NO_ERROR);
    assert_eq!(blit(&mut c, C1, C1, gl::NEAREST), gl::NO_ERROR);
    assert_eq!(blit(&mut c, C0, C0, gl::LINEAR), gl::INVALID_OPERATION);
    assert_eq!(blit(&mut c, C0, C1, gl::NEAREST), gl::INVALID_OPERATION);
    assert_eq!(blit(&mut c, C1, C0, gl::NEAREST), gl::INVALID_OPERATION);
    assert_eq!(
        blit(&mut c, C0, gl::COLOR_ATTACHMENT2, gl::NEAREST),
        gl::INVALID_OPERATION
    );
    c.bind_framebuffer(gl::FRAMEBUFFER, dst);
    let u = read_words(&mut c, C0, gl::UNSIGNED_INT);
    assert!(
        u.chunks(4).all(|t| t == [0xFFFF_FF07, 1, 2, 3]),
        "{:?}",
        &u[..8]
    );
    let i = read_words(&mut c, C1, gl::INT);
    assert_eq!(i[..4], [-1i32, -2, -3, -4].map(|v| v as u32));
    // A float read buffer into an integer draw buffer.
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, dst);
    assert_eq!(
        blit(&mut c, gl::COLOR_ATTACHMENT2, C0, gl::NEAREST),
        gl::INVALID_OPERATION
    );
}

#[test]
fn every_integer_format_is_complete_and_reports_its_type() {
    let formats = [
        (gl::R8I, gl::INT),
        (gl::R8UI, gl::UNSIGNED_INT),
        (gl::R16I, gl::INT),
        (gl::R16UI, gl::UNSIGNED_INT),
        (gl::R32I, gl::INT),
        (gl::R32UI, gl::UNSIGNED_INT),
        (gl::RG8I, gl::INT),
        (gl::RG8UI, gl::UNSIGNED_INT),
        (gl::RG16I, gl::INT),
        (gl::RG16UI, gl::UNSIGNED_INT),
        (gl::RG32I, gl::INT),
        (gl::RG32UI, gl::UNSIGNED_INT),
        (gl::RGBA8I, gl::INT),
        (gl::RGBA8UI, gl::UNSIGNED_INT),
        (gl::RGBA16I, gl::INT),
        (gl::RGBA16UI, gl::UNSIGNED_INT),
        (gl::RGBA32I, gl::INT),
        (gl::RGBA32UI, gl::UNSIGNED_INT),
    ];
    let mut c = common::context(W as u32, W as u32, 1);
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    for (k, (format, ty)) in formats.into_iter().enumerate() {
        if k % 2 == 0 {
            renderbuffer(&mut c, C0, format);
        } else {
            texture(&mut c, C0, format);
        }
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_COMPLETE,
            "{format:#x}"
        );
        let t = c.get_framebuffer_attachment_parameteriv(
            gl::FRAMEBUFFER,
            C0,
            gl::FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE,
        );
        no_error(&mut c);
        assert_eq!(t as u32, ty, "{format:#x}");
        // A clear to 100 reads back as 100 in every format.
        c.clear_bufferuiv(gl::COLOR, 0, &[100; 4]);
        c.clear_bufferiv(gl::COLOR, 0, &[100; 4]);
        let v = words(&c.read_pixels(0, 0, 1, 1, gl::RED_INTEGER, ty));
        no_error(&mut c);
        assert_eq!(v, [100], "{format:#x}");
    }
}
