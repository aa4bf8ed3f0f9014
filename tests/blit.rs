//! glBlitFramebuffer (GL 4.5 core §18.3.1) through the public `softgl::Context` API: copies,
//! flips, scaling with NEAREST and LINEAR, format conversion, the scissor test, several draw
//! buffers, depth blits, every error, silently skipped buffers, the default framebuffer of a
//! pbuffer surface, and the C entry point.

use std::sync::{Arc, Mutex};

use softgl::{enums as gl, get_proc_address, make_current, Context, ContextAttribs, Surface};

fn context() -> Context {
    let mut c = Context::with_attribs(&ContextAttribs::default(), None).expect("context");
    c.set_default_surface(Some(&Surface::new(4, 4, true).expect("surface")));
    c
}

/// A texture of `w`×`h` texels uploaded from `data` (RGBA, `ty`).
fn texture(c: &mut Context, internal: u32, w: i32, h: i32, ty: u32, data: &[u8]) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        internal as i32,
        w,
        h,
        0,
        gl::RGBA,
        ty,
        Some(data),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    t
}

/// A framebuffer object with `colors` on COLOR_ATTACHMENT0.. and optionally a depth/stencil
/// renderbuffer of `depth` format.
fn fbo(c: &mut Context, colors: &[u32], depth: Option<(u32, i32, i32)>) -> u32 {
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    for (i, &t) in colors.iter().enumerate() {
        c.framebuffer_texture_2d(
            gl::FRAMEBUFFER,
            gl::COLOR_ATTACHMENT0 + i as u32,
            gl::TEXTURE_2D,
            t,
            0,
        );
    }
    if let Some((fmt, w, h)) = depth {
        let rb = c.gen_renderbuffers(1)[0];
        c.bind_renderbuffer(gl::RENDERBUFFER, rb);
        c.renderbuffer_storage(gl::RENDERBUFFER, fmt, w, h);
        let point = if fmt == gl::DEPTH24_STENCIL8 {
            gl::DEPTH_STENCIL_ATTACHMENT
        } else {
            gl::DEPTH_ATTACHMENT
        };
        c.framebuffer_renderbuffer(gl::FRAMEBUFFER, point, gl::RENDERBUFFER, rb);
    }
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    f
}

/// A colour FBO on a fresh RGBA8 texture holding `px`.
fn rgba8_fbo(c: &mut Context, w: i32, h: i32, px: &[[u8; 4]]) -> u32 {
    let t = texture(c, gl::RGBA8, w, h, gl::UNSIGNED_BYTE, &px.concat());
    fbo(c, &[t], None)
}

/// `w`×`h` distinct texels: (x·40 + 1, y·60 + 2, x + y·w, 255 − x).
fn pattern(w: usize, h: usize) -> Vec<[u8; 4]> {
    (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            [
                (x * 40 + 1) as u8,
                (y * 60 + 2) as u8,
                i as u8,
                (255 - x) as u8,
            ]
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn blit(c: &mut Context, from: u32, to: u32, s: [i32; 4], d: [i32; 4], mask: u32, filter: u32) {
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, from);
    c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, to);
    c.blit_framebuffer(s[0], s[1], s[2], s[3], d[0], d[1], d[2], d[3], mask, filter);
}

/// RGBA8 texels of `f`'s read buffer `buf`.
fn read_rgba8(c: &mut Context, f: u32, buf: u32, w: i32, h: i32) -> Vec<[u8; 4]> {
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, f);
    c.read_buffer(buf);
    let b = c.read_pixels(0, 0, w, h, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    b.chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect()
}

fn read_floats(c: &mut Context, f: u32, format: u32, w: i32, h: i32) -> Vec<f32> {
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, f);
    let b = c.read_pixels(0, 0, w, h, format, gl::FLOAT);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    b.chunks_exact(4)
        .map(|p| f32::from_le_bytes([p[0], p[1], p[2], p[3]]))
        .collect()
}

const COLOR: u32 = gl::COLOR_BUFFER_BIT;
const FILL: [u8; 4] = [9, 9, 9, 9];

#[test]
fn copy_one_to_one_is_exact() {
    let mut c = context();
    let src_px = pattern(5, 3);
    let src = rgba8_fbo(&mut c, 5, 3, &src_px);
    let dst = rgba8_fbo(&mut c, 5, 3, &[FILL; 15]);
    blit(
        &mut c,
        src,
        dst,
        [0, 0, 5, 3],
        [0, 0, 5, 3],
        COLOR,
        gl::NEAREST,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 5, 3), src_px);

    // Offset and partly outside both images: only the overlap moves, by (+2, +1).
    let dst = rgba8_fbo(&mut c, 5, 3, &[FILL; 15]);
    blit(
        &mut c,
        src,
        dst,
        [0, 0, 5, 3],
        [2, 1, 7, 4],
        COLOR,
        gl::NEAREST,
    );
    let got = read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 5, 3);
    for y in 0..3 {
        for x in 0..5 {
            let want = if x >= 2 && y >= 1 {
                src_px[(y - 1) * 5 + x - 2]
            } else {
                FILL
            };
            assert_eq!(got[y * 5 + x], want, "({x}, {y})");
        }
    }
}

#[test]
fn flipped_copies_mirror() {
    let mut c = context();
    let src_px = pattern(4, 3);
    let src = rgba8_fbo(&mut c, 4, 3, &src_px);
    // Source reversed in x, destination reversed in y: both axes mirror.
    let dst = rgba8_fbo(&mut c, 4, 3, &[FILL; 12]);
    blit(
        &mut c,
        src,
        dst,
        [4, 0, 0, 3],
        [0, 3, 4, 0],
        COLOR,
        gl::NEAREST,
    );
    let got = read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 4, 3);
    for y in 0..3 {
        for x in 0..4 {
            assert_eq!(got[y * 4 + x], src_px[(2 - y) * 4 + (3 - x)], "({x}, {y})");
        }
    }
    // Reversed on both sides in x: no reversal (§18.3.1).
    let dst = rgba8_fbo(&mut c, 4, 3, &[FILL; 12]);
    blit(
        &mut c,
        src,
        dst,
        [4, 0, 0, 3],
        [4, 0, 0, 3],
        COLOR,
        gl::LINEAR,
    );
    assert_eq!(read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 4, 3), src_px);
}

#[test]
fn nearest_magnify_twice() {
    let mut c = context();
    let src_px = pattern(3, 2);
    let src = rgba8_fbo(&mut c, 3, 2, &src_px);
    let dst = rgba8_fbo(&mut c, 6, 4, &[FILL; 24]);
    blit(
        &mut c,
        src,
        dst,
        [0, 0, 3, 2],
        [0, 0, 6, 4],
        COLOR,
        gl::NEAREST,
    );
    let got = read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 6, 4);
    for y in 0..4 {
        for x in 0..6 {
            assert_eq!(got[y * 6 + x], src_px[(y / 2) * 3 + x / 2], "({x}, {y})");
        }
    }
}

#[test]
fn linear_filters_a_gradient() {
    let mut c = context();
    // Red rises 0, 20, 60, 100 along x; green 0, 40 along y.
    let src_px: Vec<[u8; 4]> = (0..8)
        .map(|i| [[0, 20, 60, 100][i % 4], [0, 40][i / 4], 0, 255])
        .collect();
    let src = rgba8_fbo(&mut c, 4, 2, &src_px);
    // Minify 4×2 → 2×1: each pixel centre is halfway between texel centres in x and y.
    let dst = rgba8_fbo(&mut c, 2, 1, &[FILL; 2]);
    blit(
        &mut c,
        src,
        dst,
        [0, 0, 4, 2],
        [0, 0, 2, 1],
        COLOR,
        gl::LINEAR,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let got = read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 2, 1);
    assert_eq!(got, vec![[10, 20, 0, 255], [80, 20, 0, 255]]);
    // NEAREST picks texels instead: centres 1.0 and 3.0 → texels 1 and 3, row 1.
    blit(
        &mut c,
        src,
        dst,
        [0, 0, 4, 2],
        [0, 0, 2, 1],
        COLOR,
        gl::NEAREST,
    );
    let got = read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 2, 1);
    assert_eq!(got, vec![[20, 40, 0, 255], [100, 40, 0, 255]]);

    // Magnify texels 2..4 of row 0 (60, 100) ×2 in x: positions 2.25, 2.75, 3.25, 3.75 →
    // 20·0.25 + 60·0.75 = 50 (texel 1 is outside the source rectangle but inside the
    // image, which §18.3.1 lets the filter reach), 70, 90, and 100 clamped at the edge.
    let dst = rgba8_fbo(&mut c, 4, 1, &[FILL; 4]);
    blit(
        &mut c,
        src,
        dst,
        [2, 0, 4, 1],
        [0, 0, 4, 1],
        COLOR,
        gl::LINEAR,
    );
    let got = read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 4, 1);
    let red: Vec<u8> = got.iter().map(|p| p[0]).collect();
    assert_eq!(red, vec![50, 70, 90, 100]);
}

#[test]
fn rgba8_converts_to_rgba32f() {
    let mut c = context();
    let src = rgba8_fbo(&mut c, 2, 1, &[[255, 0, 51, 128], [1, 2, 3, 4]]);
    let t = texture(&mut c, gl::RGBA32F, 2, 1, gl::FLOAT, &[0u8; 32]);
    let dst = fbo(&mut c, &[t], None);
    blit(
        &mut c,
        src,
        dst,
        [0, 0, 2, 1],
        [0, 0, 2, 1],
        COLOR,
        gl::NEAREST,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let got = read_floats(&mut c, dst, gl::RGBA, 2, 1);
    let want: Vec<f32> = [255u8, 0, 51, 128, 1, 2, 3, 4]
        .iter()
        .map(|&v| v as f32 / 255.0)
        .collect();
    assert_eq!(got, want);

    // And back: RGBA32F → RGBA8 clamps and rounds.
    let vals: [f32; 8] = [2.0, -1.0, 0.5, 0.2, 0.0, 1.0, 0.25, 0.75];
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    let t = texture(&mut c, gl::RGBA32F, 2, 1, gl::FLOAT, &bytes);
    let src = fbo(&mut c, &[t], None);
    let dst = rgba8_fbo(&mut c, 2, 1, &[FILL; 2]);
    blit(
        &mut c,
        src,
        dst,
        [0, 0, 2, 1],
        [0, 0, 2, 1],
        COLOR,
        gl::NEAREST,
    );
    let got = read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 2, 1);
    assert_eq!(got, vec![[255, 0, 128, 51], [0, 255, 64, 191]]);
}

#[test]
fn scissor_clips_the_destination() {
    let mut c = context();
    let src_px = pattern(4, 3);
    let src = rgba8_fbo(&mut c, 4, 3, &src_px);
    let dst = rgba8_fbo(&mut c, 4, 3, &[FILL; 12]);
    c.enable(gl::SCISSOR_TEST);
    c.scissor(1, 1, 2, 1);
    blit(
        &mut c,
        src,
        dst,
        [0, 0, 4, 3],
        [0, 0, 4, 3],
        COLOR,
        gl::NEAREST,
    );
    c.disable(gl::SCISSOR_TEST);
    let got = read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 4, 3);
    for y in 0..3 {
        for x in 0..4 {
            let inside = (1..3).contains(&x) && y == 1;
            let want = if inside { src_px[y * 4 + x] } else { FILL };
            assert_eq!(got[y * 4 + x], want, "({x}, {y})");
        }
    }
}

#[test]
fn every_draw_buffer_is_written() {
    let mut c = context();
    let src_px = pattern(3, 2);
    let src = rgba8_fbo(&mut c, 3, 2, &src_px);
    let a = texture(
        &mut c,
        gl::RGBA8,
        3,
        2,
        gl::UNSIGNED_BYTE,
        &[FILL; 6].concat(),
    );
    let b = texture(&mut c, gl::R8, 3, 2, gl::UNSIGNED_BYTE, &[FILL; 6].concat());
    let n = texture(
        &mut c,
        gl::RGBA8,
        3,
        2,
        gl::UNSIGNED_BYTE,
        &[FILL; 6].concat(),
    );
    let dst = fbo(&mut c, &[a, n, b], None);
    c.draw_buffers(&[gl::COLOR_ATTACHMENT0, gl::NONE, gl::COLOR_ATTACHMENT2]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    blit(
        &mut c,
        src,
        dst,
        [0, 0, 3, 2],
        [0, 0, 3, 2],
        COLOR,
        gl::NEAREST,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 3, 2), src_px);
    // The R8 buffer keeps red; green/blue/alpha read back as GL fills them.
    let red: Vec<[u8; 4]> = src_px.iter().map(|p| [p[0], 0, 0, 255]).collect();
    assert_eq!(read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT2, 3, 2), red);
    // COLOR_ATTACHMENT1 is not a draw buffer.
    assert_eq!(
        read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT1, 3, 2),
        vec![FILL; 6]
    );
}

/// An FBO with a colour texture and a `fmt` depth renderbuffer whose left half is cleared
/// to `left` and right half to `right`.
fn depth_fbo(c: &mut Context, fmt: u32, w: i32, h: i32, left: f64, right: f64) -> u32 {
    let t = texture(
        c,
        gl::RGBA8,
        w,
        h,
        gl::UNSIGNED_BYTE,
        &vec![FILL; (w * h) as usize].concat(),
    );
    let f = fbo(c, &[t], Some((fmt, w, h)));
    c.clear_depth(right);
    c.clear(gl::DEPTH_BUFFER_BIT);
    c.enable(gl::SCISSOR_TEST);
    c.scissor(0, 0, w / 2, h);
    c.clear_depth(left);
    c.clear(gl::DEPTH_BUFFER_BIT);
    c.disable(gl::SCISSOR_TEST);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    f
}

#[test]
fn depth_blit_d24s8() {
    let mut c = context();
    let src = depth_fbo(&mut c, gl::DEPTH24_STENCIL8, 4, 2, 0.25, 0.75);
    let dst = depth_fbo(&mut c, gl::DEPTH24_STENCIL8, 4, 2, 1.0, 1.0);
    let src_d = read_floats(&mut c, src, gl::DEPTH_COMPONENT, 4, 2);
    assert!((src_d[0] - 0.25).abs() < 1e-6 && (src_d[3] - 0.75).abs() < 1e-6);
    // Colour only: depth stays.
    blit(
        &mut c,
        src,
        dst,
        [0, 0, 4, 2],
        [0, 0, 4, 2],
        COLOR,
        gl::NEAREST,
    );
    assert_eq!(
        read_floats(&mut c, dst, gl::DEPTH_COMPONENT, 4, 2),
        vec![1.0; 8]
    );
    // Stencil only: the depth bits stay.
    blit(
        &mut c,
        src,
        dst,
        [0, 0, 4, 2],
        [0, 0, 4, 2],
        gl::STENCIL_BUFFER_BIT,
        gl::NEAREST,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        read_floats(&mut c, dst, gl::DEPTH_COMPONENT, 4, 2),
        vec![1.0; 8]
    );
    // Depth, mirrored in x: the 24-bit values come across exactly.
    blit(
        &mut c,
        src,
        dst,
        [4, 0, 0, 2],
        [0, 0, 4, 2],
        gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT,
        gl::NEAREST,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let got = read_floats(&mut c, dst, gl::DEPTH_COMPONENT, 4, 2);
    for y in 0..2 {
        for x in 0..4 {
            assert_eq!(got[y * 4 + x], src_d[y * 4 + 3 - x], "({x}, {y})");
        }
    }
    // D32F → D32F copies the float.
    let src = depth_fbo(&mut c, gl::DEPTH_COMPONENT32F, 2, 1, 0.125, 0.3);
    let dst = depth_fbo(&mut c, gl::DEPTH_COMPONENT32F, 2, 1, 1.0, 1.0);
    blit(
        &mut c,
        src,
        dst,
        [0, 0, 2, 1],
        [0, 0, 2, 1],
        gl::DEPTH_BUFFER_BIT,
        gl::NEAREST,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        read_floats(&mut c, dst, gl::DEPTH_COMPONENT, 2, 1),
        vec![0.125, 0.3]
    );
}

#[test]
fn errors_leave_the_destination_alone() {
    let mut c = context();
    let src = depth_fbo(&mut c, gl::DEPTH24_STENCIL8, 2, 2, 0.5, 0.5);
    let d32 = depth_fbo(&mut c, gl::DEPTH_COMPONENT32F, 2, 2, 1.0, 1.0);
    let dst = rgba8_fbo(&mut c, 2, 2, &[[1, 2, 3, 4]; 4]);
    let r = [0, 0, 2, 2];
    let cases = [
        (src, dst, COLOR | 0x10, gl::NEAREST, gl::INVALID_VALUE),
        (src, dst, COLOR, gl::LINEAR_MIPMAP_LINEAR, gl::INVALID_ENUM),
        (
            src,
            dst,
            gl::DEPTH_BUFFER_BIT,
            gl::LINEAR,
            gl::INVALID_OPERATION,
        ),
        (
            src,
            dst,
            COLOR | gl::STENCIL_BUFFER_BIT,
            gl::LINEAR,
            gl::INVALID_OPERATION,
        ),
        (
            src,
            d32,
            gl::DEPTH_BUFFER_BIT,
            gl::NEAREST,
            gl::INVALID_OPERATION,
        ),
    ];
    for (i, (from, to, mask, filter, want)) in cases.into_iter().enumerate() {
        blit(&mut c, from, to, r, r, mask, filter);
        assert_eq!(c.get_error(), want, "case {i}");
    }
    assert_eq!(
        read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 2, 2),
        vec![[1, 2, 3, 4]; 4]
    );
    assert_eq!(
        read_floats(&mut c, d32, gl::DEPTH_COMPONENT, 2, 2),
        vec![1.0; 4]
    );

    // Incomplete read or draw framebuffer (no attachments).
    let empty = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, empty);
    blit(&mut c, empty, dst, r, r, COLOR, gl::NEAREST);
    assert_eq!(c.get_error(), gl::INVALID_FRAMEBUFFER_OPERATION);
    blit(&mut c, src, empty, r, r, COLOR, gl::NEAREST);
    assert_eq!(c.get_error(), gl::INVALID_FRAMEBUFFER_OPERATION);
    // No surface: the default framebuffer is undefined, on either side.
    c.set_default_surface(None);
    blit(&mut c, 0, dst, r, r, COLOR, gl::NEAREST);
    assert_eq!(c.get_error(), gl::INVALID_FRAMEBUFFER_OPERATION);
    blit(&mut c, src, 0, r, r, COLOR, gl::NEAREST);
    assert_eq!(c.get_error(), gl::INVALID_FRAMEBUFFER_OPERATION);
    assert_eq!(
        read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 2, 2),
        vec![[1, 2, 3, 4]; 4]
    );
}

#[test]
fn missing_buffers_are_skipped_silently() {
    let mut c = context();
    let src = rgba8_fbo(&mut c, 2, 2, &pattern(2, 2));
    let dst = rgba8_fbo(&mut c, 2, 2, &[FILL; 4]);
    let r = [0, 0, 2, 2];
    // Neither has depth or stencil.
    blit(
        &mut c,
        src,
        dst,
        r,
        r,
        gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT,
        gl::NEAREST,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // Read buffer NONE: no colour source.
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, src);
    c.read_buffer(gl::NONE);
    blit(&mut c, src, dst, r, r, COLOR, gl::NEAREST);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 2, 2),
        vec![FILL; 4]
    );
    // Depth from a colour-only source into a depth destination: skipped, no error.
    let d = depth_fbo(&mut c, gl::DEPTH24_STENCIL8, 2, 2, 0.5, 0.5);
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, src);
    c.read_buffer(gl::COLOR_ATTACHMENT0);
    blit(&mut c, src, d, r, r, gl::DEPTH_BUFFER_BIT, gl::NEAREST);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let depth = read_floats(&mut c, d, gl::DEPTH_COMPONENT, 2, 2);
    assert!(depth.iter().all(|&v| (v - 0.5).abs() < 1e-6));
}

#[test]
fn default_framebuffer_of_a_surface() {
    let mut c = context();
    let src_px = pattern(4, 4);
    let src = rgba8_fbo(&mut c, 4, 4, &src_px);
    // FBO → the surface, flipped in y; read back from the default framebuffer.
    blit(
        &mut c,
        src,
        0,
        [0, 0, 4, 4],
        [0, 4, 4, 0],
        COLOR,
        gl::NEAREST,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let got = read_rgba8(&mut c, 0, gl::BACK, 4, 4);
    for y in 0..4 {
        for x in 0..4 {
            assert_eq!(got[y * 4 + x], src_px[(3 - y) * 4 + x], "({x}, {y})");
        }
    }
    // The surface → an FBO, 2× minified (texel centres 1 and 3 of each axis).
    let dst = rgba8_fbo(&mut c, 2, 2, &[FILL; 4]);
    blit(
        &mut c,
        0,
        dst,
        [0, 0, 4, 4],
        [0, 0, 2, 2],
        COLOR,
        gl::NEAREST,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let got = read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 2, 2);
    let want: Vec<[u8; 4]> = [(1, 1), (3, 1), (1, 3), (3, 3)]
        .iter()
        .map(|&(x, y)| src_px[(3 - y) * 4 + x])
        .collect();
    assert_eq!(got, want);
    // The surface's depth/stencil image as a blit source.
    let d = depth_fbo(&mut c, gl::DEPTH24_STENCIL8, 4, 4, 0.0, 0.0);
    c.bind_framebuffer(gl::FRAMEBUFFER, 0);
    c.clear_depth(0.625);
    c.clear(gl::DEPTH_BUFFER_BIT);
    blit(
        &mut c,
        0,
        d,
        [0, 0, 4, 4],
        [0, 0, 4, 4],
        gl::DEPTH_BUFFER_BIT,
        gl::NEAREST,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let depth = read_floats(&mut c, d, gl::DEPTH_COMPONENT, 4, 4);
    assert!(depth.iter().all(|&v| (v - 0.625).abs() < 1e-6), "{depth:?}");
}

type BlitFn = unsafe extern "system" fn(i32, i32, i32, i32, i32, i32, i32, i32, u32, u32);

#[test]
fn c_entry_point_blits() {
    let p = get_proc_address("glBlitFramebuffer");
    assert!(!p.is_null());
    // SAFETY: BlitFn is the registry's C signature of glBlitFramebuffer, which softgl's
    // generated entry point has (build.rs checks it against gl.xml).
    let gl_blit = unsafe { std::mem::transmute::<*const std::ffi::c_void, BlitFn>(p) };
    let ctx = Arc::new(Mutex::new(context()));
    let (src_px, dst) = {
        let mut c = ctx.lock().unwrap();
        let src_px = pattern(4, 2);
        let src = rgba8_fbo(&mut c, 4, 2, &src_px);
        let dst = rgba8_fbo(&mut c, 4, 2, &[FILL; 8]);
        c.bind_framebuffer(gl::READ_FRAMEBUFFER, src);
        c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, dst);
        (src_px, dst)
    };
    make_current(Some(ctx.clone()));
    // SAFETY: a context is current; the command takes no pointers.
    unsafe {
        gl_blit(4, 0, 0, 2, 0, 0, 4, 2, COLOR, gl::NEAREST);
        gl_blit(0, 0, 4, 2, 0, 0, 4, 2, 0x8000_0000, gl::NEAREST);
    }
    make_current(None);
    let mut c = ctx.lock().unwrap();
    assert_eq!(
        c.get_error(),
        gl::INVALID_VALUE,
        "the second call's bad mask"
    );
    // The first call's arguments arrived in order: source mirrored in x.
    let got = read_rgba8(&mut c, dst, gl::COLOR_ATTACHMENT0, 4, 2);
    for y in 0..2 {
        for x in 0..4 {
            assert_eq!(got[y * 4 + x], src_px[y * 4 + 3 - x], "({x}, {y})");
        }
    }
}
