//! Per-draw-buffer blending and colour masks (ARB_draw_buffers_blend, GL 4.5 core §17.3.6,
//! §17.4.2) through the Rust `Context`: glEnablei/glDisablei(GL_BLEND), glBlendFunci,
//! glBlendFuncSeparatei, glBlendEquationi, glBlendEquationSeparatei and glColorMaski give
//! each of three colour attachments its own result, for draws and for glClear, on the
//! block and the quad paths, identically on 1 and 2 threads; the indexed glGet values and
//! errors follow the spec.

mod common;

use softgl::{enums as gl, Context};

/// Not a multiple of the 4×4 block, so edge quads take the quad path.
const W: i32 = 18;
const H: i32 = 10;

const VS: &str = "#version 330
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.0, 1.0);
}";

/// The same half-transparent colour to three outputs.
const FS: &str = "#version 330
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
void main() { vec4 c = vec4(0.8, 0.4, 0.2, 0.5); o0 = c; o1 = c; o2 = c; }";

/// A context with an 18×10 FBO of three RGBA8 attachments, all draw buffers, and the
/// program bound.
fn setup(threads: usize) -> Context {
    let mut c = common::context(W as u32, H as u32, threads);
    let fbo = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    for i in 0..3 {
        let rb = c.gen_renderbuffers(1)[0];
        c.bind_renderbuffer(gl::RENDERBUFFER, rb);
        c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, W, H);
        c.framebuffer_renderbuffer(
            gl::FRAMEBUFFER,
            gl::COLOR_ATTACHMENT0 + i,
            gl::RENDERBUFFER,
            rb,
        );
    }
    c.draw_buffers(&[
        gl::COLOR_ATTACHMENT0,
        gl::COLOR_ATTACHMENT1,
        gl::COLOR_ATTACHMENT2,
    ]);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    c.viewport(0, 0, W, H);
    let p = common::program(&mut c, VS, FS);
    c.use_program(p);
    c
}

/// Every pixel of attachment `i`.
fn image(c: &mut Context, i: u32) -> Vec<u8> {
    c.read_buffer(gl::COLOR_ATTACHMENT0 + i);
    c.read_pixels(0, 0, W, H, gl::RGBA, gl::UNSIGNED_BYTE)
}

/// Asserts every pixel of attachment `i` is `want` (within 1 of unorm rounding).
fn assert_all(c: &mut Context, i: u32, want: [u8; 4]) {
    let img = image(c, i);
    for (k, px) in img.chunks(4).enumerate() {
        for ch in 0..4 {
            assert!(
                px[ch].abs_diff(want[ch]) <= 1,
                "attachment {i} pixel {k}: {px:?}, want {want:?}"
            );
        }
    }
}

/// Clears to (0.2, 0.6, 1.0, 1.0), then draws with buffer 0 not blended, buffer 1
/// alpha-blended, buffer 2 added with a mask that keeps green; returns the three images.
fn render(threads: usize) -> (Context, [Vec<u8>; 3]) {
    let mut c = setup(threads);
    c.clear_color(0.2, 0.6, 1.0, 1.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    c.enable(gl::BLEND);
    c.disablei(gl::BLEND, 0);
    c.blend_funci(1, gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
    c.blend_func_separatei(2, gl::ONE, gl::ONE, gl::ZERO, gl::ONE);
    c.blend_equationi(2, gl::FUNC_ADD);
    c.color_maski(2, true, false, true, true);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let imgs = [image(&mut c, 0), image(&mut c, 1), image(&mut c, 2)];
    (c, imgs)
}

#[test]
fn each_draw_buffer_blends_and_masks_on_its_own() {
    let (mut c, _) = render(1);
    // Not blended: the shader's colour.
    assert_all(&mut c, 0, [204, 102, 51, 128]);
    // SRC_ALPHA, ONE_MINUS_SRC_ALPHA over (0.2, 0.6, 1.0, 1.0): 0.5·src + 0.5·dst.
    assert_all(&mut c, 1, [128, 128, 153, 191]);
    // ONE, ONE for colour (clamped), ZERO, ONE for alpha; green masked: kept at 0.6.
    assert_all(&mut c, 2, [255, 153, 255, 255]);
}

#[test]
fn one_and_two_threads_give_the_same_images() {
    assert_eq!(render(1).1, render(2).1);
}

#[test]
fn clears_honour_each_buffers_colour_mask() {
    let mut c = setup(2);
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    c.color_maski(0, true, false, false, false);
    c.color_maski(1, false, true, false, false);
    c.color_maski(2, false, false, false, false);
    c.clear_color(1.0, 1.0, 1.0, 1.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    assert_all(&mut c, 0, [255, 0, 0, 0]);
    assert_all(&mut c, 1, [0, 255, 0, 0]);
    assert_all(&mut c, 2, [0, 0, 0, 0]);
    // glColorMask sets every buffer again.
    c.color_mask(true, true, true, true);
    c.clear(gl::COLOR_BUFFER_BIT);
    for i in 0..3 {
        assert_all(&mut c, i, [255, 255, 255, 255]);
    }
}

#[test]
fn indexed_state_reads_back_and_the_plain_commands_set_all_buffers() {
    let mut c = setup(1);
    c.blend_func(gl::ONE, gl::ZERO);
    c.blend_funci(3, gl::DST_COLOR, gl::SRC_COLOR);
    c.blend_equation_separatei(4, gl::MIN, gl::MAX);
    c.color_maski(5, false, true, false, true);
    c.enablei(gl::BLEND, 6);
    assert_eq!(
        c.get_integeri_v(gl::BLEND_SRC_RGB, 3),
        [gl::DST_COLOR as i32]
    );
    assert_eq!(
        c.get_integeri_v(gl::BLEND_DST_ALPHA, 3),
        [gl::SRC_COLOR as i32]
    );
    assert_eq!(c.get_integeri_v(gl::BLEND_SRC_RGB, 2), [gl::ONE as i32]);
    assert_eq!(
        c.get_integeri_v(gl::BLEND_EQUATION_RGB, 4),
        [gl::MIN as i32]
    );
    assert_eq!(
        c.get_integeri_v(gl::BLEND_EQUATION_ALPHA, 4),
        [gl::MAX as i32]
    );
    assert_eq!(
        c.get_booleani_v(gl::COLOR_WRITEMASK, 5),
        [false, true, false, true]
    );
    assert_eq!(c.get_booleani_v(gl::COLOR_WRITEMASK, 4), [true; 4]);
    assert!(c.is_enabledi(gl::BLEND, 6));
    assert!(!c.is_enabledi(gl::BLEND, 0));
    // The plain getters read draw buffer 0.
    assert_eq!(c.get_integerv(gl::BLEND_SRC_RGB), [gl::ONE as i32]);
    assert!(!c.is_enabled(gl::BLEND));
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // The plain commands set every buffer.
    c.blend_func(gl::ZERO, gl::ONE);
    c.blend_equation(gl::FUNC_SUBTRACT);
    c.color_mask(true, true, true, false);
    c.enable(gl::BLEND);
    for i in 0..8 {
        assert_eq!(c.get_integeri_v(gl::BLEND_SRC_ALPHA, i), [gl::ZERO as i32]);
        assert_eq!(
            c.get_integeri_v(gl::BLEND_EQUATION_ALPHA, i),
            [gl::FUNC_SUBTRACT as i32]
        );
        assert_eq!(
            c.get_booleani_v(gl::COLOR_WRITEMASK, i),
            [true, true, true, false]
        );
        assert!(c.is_enabledi(gl::BLEND, i));
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // Errors: an index past GL_MAX_DRAW_BUFFERS, a bad factor or equation, another cap.
    c.blend_funci(8, gl::ONE, gl::ONE);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.color_maski(8, true, true, true, true);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.enablei(gl::BLEND, 8);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.blend_funci(1, gl::TEXTURE_2D, gl::ONE);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.blend_equationi(1, gl::ONE);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.enablei(gl::DEPTH_TEST, 0);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    assert_eq!(c.get_integeri_v(gl::BLEND_SRC_ALPHA, 1), [gl::ZERO as i32]);
}
