//! The stencil test and operations end to end through the Rust `Context` (GL 4.5 core
//! §17.3.5, §17.4.3): the classic two-pass mask, saturating and wrapping operations,
//! separate front and back state chosen by winding, write and value masks, stencil with
//! depth, discard, stencil-only framebuffers (STENCIL_INDEX8, DEPTH24_STENCIL8 at the
//! stencil point only), glClearBuffer* and glReadPixels of stencil. Every value is exact;
//! every scene renders the same bytes with 1 and 2 threads. The target is 18×14, so blocks
//! on its right and top edges take the fragment variant's quad entry and the rest its block
//! entry.

mod common;

use softgl::{enums as gl, Context};

const W: i32 = 18;
const H: i32 = 14;

const VS: &str = "#version 330
uniform vec4 rect; // x0 y0 x1 y1 in NDC: x0 > x1 turns the winding clockwise
uniform float z;
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? rect.z : rect.x, (id & 2) == 2 ? rect.w : rect.y, z, 1.0);
}";

const RED: &str = "#version 330
out vec4 color;
void main() { color = vec4(1.0, 0.0, 0.0, 1.0); }";

/// A W×H context (RGBA8 + D24S8 default framebuffer) on `threads` workers with a vertex
/// array and the rect program bound.
fn ctx(threads: usize, fs: &str) -> Context {
    let mut c = common::context(W as u32, H as u32, threads);
    let p = common::program(&mut c, VS, fs);
    c.use_program(p);
    c
}

/// Draws the rect (NDC x0, y0, x1, y1) at NDC depth `z` with the current program.
fn rect(c: &mut Context, r: [f32; 4], z: f32) {
    let p = c.get_integerv(gl::CURRENT_PROGRAM)[0] as u32;
    let (lr, lz) = (
        c.get_uniform_location(p, "rect"),
        c.get_uniform_location(p, "z"),
    );
    c.uniform_4f(lr, r[0], r[1], r[2], r[3]);
    c.uniform_1f(lz, z);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
}

const FULL: [f32; 4] = [-1.0, -1.0, 1.0, 1.0];

fn stencil_bytes(c: &mut Context) -> Vec<u8> {
    c.pixel_storei(gl::PACK_ALIGNMENT, 1);
    c.read_pixels(0, 0, W, H, gl::STENCIL_INDEX, gl::UNSIGNED_BYTE)
}

fn colour_bytes(c: &mut Context) -> Vec<u8> {
    c.read_pixels(0, 0, W, H, gl::RGBA, gl::UNSIGNED_BYTE)
}

/// Pixel (x, y) is inside the NDC rect `r` (pixel centres, as the fill rule samples them).
fn inside(x: i32, y: i32, r: [f32; 4]) -> bool {
    let px = (x as f32 + 0.5) / W as f32 * 2.0 - 1.0;
    let py = (y as f32 + 0.5) / H as f32 * 2.0 - 1.0;
    let (x0, x1) = (r[0].min(r[2]), r[0].max(r[2]));
    px > x0 && px < x1 && py > r[1] && py < r[3]
}

/// Runs `scene` with 1 and 2 threads; the two runs must give the same colour and stencil
/// bytes. Returns them.
fn both_thread_counts(fs: &str, scene: impl Fn(&mut Context)) -> (Vec<u8>, Vec<u8>) {
    let mut out = Vec::new();
    for threads in [1, 2] {
        let mut c = ctx(threads, fs);
        scene(&mut c);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        out.push((colour_bytes(&mut c), stencil_bytes(&mut c)));
    }
    assert!(out[0] == out[1], "1 and 2 threads differ");
    out.swap_remove(0)
}

/// The classic two-pass mask: a shape drawn into stencil only (colour mask off, REPLACE),
/// then a full-screen draw with EQUAL colours exactly the shape.
#[test]
fn two_pass_stencil_mask() {
    let shape = [-0.6, -0.8, 0.3, 0.45];
    let (colour, stencil) = both_thread_counts(RED, |c| {
        c.clear_color(0.0, 0.0, 1.0, 1.0);
        c.clear_stencil(0);
        c.clear(gl::COLOR_BUFFER_BIT | gl::STENCIL_BUFFER_BIT);
        c.enable(gl::STENCIL_TEST);
        c.color_mask(false, false, false, false);
        c.stencil_func(gl::ALWAYS, 1, 0xFF);
        c.stencil_op(gl::KEEP, gl::KEEP, gl::REPLACE);
        rect(c, shape, 0.0);
        c.color_mask(true, true, true, true);
        c.stencil_func(gl::EQUAL, 1, 0xFF);
        c.stencil_op(gl::KEEP, gl::KEEP, gl::KEEP);
        rect(c, FULL, 0.0);
    });
    let mut n = 0;
    for y in 0..H {
        for x in 0..W {
            let i = (y * W + x) as usize;
            let want: u8 = inside(x, y, shape).into();
            n += want as usize;
            assert_eq!(stencil[i], want, "stencil at ({x}, {y})");
            let px = &colour[i * 4..i * 4 + 4];
            let want_px = if want == 1 {
                [255, 0, 0, 255]
            } else {
                [0, 0, 255, 255]
            };
            assert_eq!(px, want_px, "colour at ({x}, {y})");
        }
    }
    assert!(n > 40, "the shape covers pixels ({n})");
}

/// INCR and DECR saturate at 0 and 255, the _WRAP forms wrap, INVERT and ZERO; each draw
/// full-screen with the op as dppass.
#[test]
fn operations_saturate_and_wrap() {
    let steps: [(u32, u8); 8] = [
        (gl::INCR, 255),
        (gl::INCR, 255),
        (gl::INCR_WRAP, 0),
        (gl::DECR, 0),
        (gl::DECR_WRAP, 255),
        (gl::INVERT, 0),
        (gl::INCR_WRAP, 1),
        (gl::ZERO, 0),
    ];
    for threads in [1, 2] {
        let mut c = ctx(threads, RED);
        c.clear_stencil(254);
        c.clear(gl::STENCIL_BUFFER_BIT);
        c.enable(gl::STENCIL_TEST);
        for (op, want) in steps {
            c.stencil_op(gl::KEEP, gl::KEEP, op);
            rect(&mut c, FULL, 0.0);
            let s = stencil_bytes(&mut c);
            assert!(s.iter().all(|&v| v == want), "{op:#x}: {:?}", &s[..4]);
        }
        // REPLACE with a reference past 255 writes the clamped 255 (GL 4.5 core §17.3.5).
        c.stencil_func(gl::ALWAYS, 1000, 0xFF);
        c.stencil_op(gl::KEEP, gl::KEEP, gl::REPLACE);
        rect(&mut c, FULL, 0.0);
        assert!(stencil_bytes(&mut c).iter().all(|&v| v == 255));
        assert_eq!(c.get_error(), gl::NO_ERROR);
    }
}

/// Separate front and back state: the left rect winds counter-clockwise (front), the right
/// one clockwise (back); each face's function, reference, operations and write mask apply
/// to its own triangles only.
#[test]
fn separate_front_and_back_by_winding() {
    let left = [-1.0, -1.0, 0.0, 1.0];
    let right_cw = [1.0, -1.0, 0.0, 1.0];
    let (colour, stencil) = both_thread_counts(RED, |c| {
        c.clear_stencil(0xF0);
        c.clear(gl::STENCIL_BUFFER_BIT | gl::COLOR_BUFFER_BIT);
        c.enable(gl::STENCIL_TEST);
        c.stencil_func_separate(gl::FRONT, gl::ALWAYS, 0xAB, 0xFF);
        c.stencil_op_separate(gl::FRONT, gl::KEEP, gl::KEEP, gl::REPLACE);
        c.stencil_mask_separate(gl::FRONT, 0x0F);
        // Back: LESS with ref 0x07 under value mask 0x0F: 7 < (0xF0 & 0x0F = 0) fails, so
        // sfail (INCR) runs and nothing is drawn.
        c.stencil_func_separate(gl::BACK, gl::LESS, 0x07, 0x0F);
        c.stencil_op_separate(gl::BACK, gl::INCR, gl::ZERO, gl::ZERO);
        rect(c, left, 0.0);
        rect(c, right_cw, 0.0);
    });
    for y in 0..H {
        for x in 0..W {
            let i = (y * W + x) as usize;
            let (want_s, red) = if x < W / 2 { (0xFB, 255) } else { (0xF1, 0) };
            assert_eq!(stencil[i], want_s, "stencil at ({x}, {y})");
            assert_eq!(colour[i * 4], red, "red at ({x}, {y})");
        }
    }
}

/// With the depth test: dpfail and dppass pick by the depth result; a stencil failure runs
/// sfail whatever the depth.
#[test]
fn stencil_with_depth() {
    let (_, stencil) = both_thread_counts(RED, |c| {
        c.clear_depth(1.0);
        c.clear_stencil(0);
        c.clear(gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT);
        c.enable(gl::DEPTH_TEST);
        c.depth_func(gl::LESS);
        c.enable(gl::STENCIL_TEST);
        // Near rect on the left half: depth passes, stencil 0 → 1 (dppass INCR).
        c.stencil_func(gl::ALWAYS, 0, 0xFF);
        c.stencil_op(gl::KEEP, gl::INCR, gl::INCR);
        rect(c, [-1.0, -1.0, 0.0, 1.0], -0.5);
        // Far full-screen: the left fails depth (dpfail REPLACE with 9), the right passes
        // (dppass INCR).
        c.stencil_func(gl::ALWAYS, 9, 0xFF);
        c.stencil_op(gl::KEEP, gl::REPLACE, gl::INCR);
        rect(c, FULL, 0.5);
        // Stencil NEVER in front of everything: sfail INVERT only.
        c.stencil_func(gl::NEVER, 0, 0xFF);
        c.stencil_op(gl::INVERT, gl::KEEP, gl::KEEP);
        rect(c, FULL, -0.9);
    });
    for y in 0..H {
        for x in 0..W {
            let want = if x < W / 2 { !9u8 } else { !1u8 };
            assert_eq!(stencil[(y * W + x) as usize], want, "({x}, {y})");
        }
    }
}

/// Discarded fragments leave the stencil alone (the stencil test runs after the shader
/// when it discards, GL 4.5 core §15.2.4).
#[test]
fn discarded_fragments_do_not_touch_stencil() {
    let fs = "#version 330
out vec4 color;
void main() {
    if (gl_FragCoord.x < 9.0) discard;
    color = vec4(1.0);
}";
    let (_, stencil) = both_thread_counts(fs, |c| {
        c.clear(gl::STENCIL_BUFFER_BIT);
        c.enable(gl::STENCIL_TEST);
        c.stencil_func(gl::ALWAYS, 3, 0xFF);
        c.stencil_op(gl::REPLACE, gl::REPLACE, gl::REPLACE);
        rect(c, FULL, 0.0);
    });
    for (i, &s) in stencil.iter().enumerate() {
        assert_eq!(s, if (i as i32 % W) < 9 { 0 } else { 3 }, "pixel {i}");
    }
}

/// An FBO with an RGBA8 colour renderbuffer and `zs` at `point`.
fn fbo_with(c: &mut Context, zs: u32, point: u32) -> u32 {
    let rbs = c.gen_renderbuffers(2);
    c.bind_renderbuffer(gl::RENDERBUFFER, rbs[0]);
    c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, W, H);
    c.bind_renderbuffer(gl::RENDERBUFFER, rbs[1]);
    c.renderbuffer_storage(gl::RENDERBUFFER, zs, W, H);
    let fbo = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    let rb = gl::RENDERBUFFER;
    c.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, rb, rbs[0]);
    c.framebuffer_renderbuffer(gl::FRAMEBUFFER, point, rb, rbs[1]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    rbs[1]
}

/// Stencil without depth: a STENCIL_INDEX8 renderbuffer alone, and DEPTH24_STENCIL8 at the
/// stencil point only, work as stencil buffers and have no depth buffer (the depth test
/// passes); glClearBufferiv(GL_STENCIL) clears them; DEPTH_COMPONENT24 has no stencil bits
/// and makes the framebuffer incomplete at the stencil point.
#[test]
fn stencil_only_framebuffers() {
    for threads in [1, 2] {
        for zs in [gl::STENCIL_INDEX8, gl::DEPTH24_STENCIL8] {
            let mut c = ctx(threads, RED);
            fbo_with(&mut c, zs, gl::STENCIL_ATTACHMENT);
            assert_eq!(
                c.check_framebuffer_status(gl::FRAMEBUFFER),
                gl::FRAMEBUFFER_COMPLETE
            );
            assert_eq!(
                c.get_renderbuffer_parameteriv(gl::RENDERBUFFER, gl::RENDERBUFFER_STENCIL_SIZE),
                8
            );
            let depth_bits =
                c.get_renderbuffer_parameteriv(gl::RENDERBUFFER, gl::RENDERBUFFER_DEPTH_SIZE);
            assert_eq!(depth_bits, if zs == gl::STENCIL_INDEX8 { 0 } else { 24 });
            c.clear_bufferiv(gl::STENCIL, 0, &[0x105]);
            c.clear_bufferfv(gl::COLOR, 0, &[0.0, 0.0, 0.0, 1.0]);
            c.enable(gl::DEPTH_TEST);
            c.depth_func(gl::NEVER); // no depth buffer: the test passes anyway
            c.enable(gl::STENCIL_TEST);
            c.stencil_func(gl::EQUAL, 5, 0xFF);
            c.stencil_op(gl::KEEP, gl::KEEP, gl::INCR);
            rect(&mut c, [-1.0, -1.0, 0.0, 1.0], 0.0);
            assert_eq!(c.get_error(), gl::NO_ERROR);
            let s = stencil_bytes(&mut c);
            let col = colour_bytes(&mut c);
            for (i, &v) in s.iter().enumerate() {
                let left = (i as i32 % W) < W / 2;
                assert_eq!(v, if left { 6 } else { 5 }, "{zs:#x} pixel {i}");
                assert_eq!(col[i * 4], if left { 255 } else { 0 }, "{zs:#x} pixel {i}");
            }
            // No depth buffer to read.
            c.read_pixels(0, 0, 1, 1, gl::DEPTH_COMPONENT, gl::FLOAT);
            assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        }
        // DEPTH_COMPONENT24 has no stencil; STENCIL_INDEX8 has no depth.
        let mut c = ctx(threads, RED);
        fbo_with(&mut c, gl::DEPTH_COMPONENT24, gl::STENCIL_ATTACHMENT);
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT
        );
        fbo_with(&mut c, gl::STENCIL_INDEX8, gl::DEPTH_ATTACHMENT);
        assert_eq!(
            c.check_framebuffer_status(gl::FRAMEBUFFER),
            gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT
        );
    }
}

/// DEPTH24_STENCIL8 at DEPTH_STENCIL_ATTACHMENT: glClearBufferfi clears both halves,
/// glReadPixels(GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8) returns the packed words, and
/// glClearBufferfv(GL_DEPTH) leaves the stencil alone.
#[test]
fn clear_buffer_and_read_depth_stencil() {
    let mut c = ctx(2, RED);
    fbo_with(&mut c, gl::DEPTH24_STENCIL8, gl::DEPTH_STENCIL_ATTACHMENT);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    c.clear_bufferfi(gl::DEPTH_STENCIL, 0, 0.5, 0x1C3);
    let words = c.read_pixels(0, 0, W, H, gl::DEPTH_STENCIL, gl::UNSIGNED_INT_24_8);
    let d24 = (0.5f64 * 16_777_215.0 + 0.5) as u32;
    for w in words.chunks(4) {
        assert_eq!(
            u32::from_le_bytes([w[0], w[1], w[2], w[3]]),
            d24 << 8 | 0xC3,
            "depth in the high 24 bits, stencil in the low 8 (GL 4.5 core §8.4.4.2)"
        );
    }
    c.clear_bufferfv(gl::DEPTH, 0, &[1.0]);
    assert!(stencil_bytes(&mut c).iter().all(|&v| v == 0xC3));
    // glStencilMask masks glClearBufferiv.
    c.stencil_mask(0x0F);
    c.clear_bufferiv(gl::STENCIL, 0, &[0x3A]);
    assert!(stencil_bytes(&mut c).iter().all(|&v| v == 0xCA));
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // Errors: wrong buffer enums, non-zero draw buffers.
    c.clear_bufferiv(gl::DEPTH, 0, &[0]);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.clear_bufferfi(gl::STENCIL, 0, 0.0, 0);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.clear_bufferiv(gl::STENCIL, 1, &[0]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.clear_bufferfv(gl::COLOR, 8, &[0.0; 4]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    // Integers into a non-integer colour buffer: undefined, "not an error" (§17.4.3.1).
    c.clear_bufferiv(gl::COLOR, 0, &[0; 4]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}
