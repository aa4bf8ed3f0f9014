//! Rendering into a texture and sampling it in the next pass (GL 4.5 core §9.3): a scene
//! runs tile by tile, so the pass that samples must see every texel the pass before wrote,
//! including texels of other tiles. The first pass draws a gradient into a 192×192 texture
//! (9 tiles); the second samples it point-mirrored, so each of its tiles reads another
//! tile's texels. Checked at 1 and 2 threads, through glBindFramebuffer, a changed
//! attachment of the bound framebuffer, and glTextureBarrier.

mod common;

use softgl::{enums as gl, Context};

const N: i32 = 192;

const VS: &str = "#version 330
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.0, 1.0);
}";

/// The gradient: texel (x, y) is (x, y, 100).
const GRADIENT_FS: &str = "#version 330
out vec4 color;
void main() { color = vec4(floor(gl_FragCoord.xy) / 255.0, 100.0 / 255.0, 1.0); }";

/// Pixel (x, y) shows texel (N−1−x, N−1−y).
const MIRROR_FS: &str = "#version 330
uniform sampler2D s;
out vec4 color;
void main() { color = texelFetch(s, ivec2(191) - ivec2(gl_FragCoord.xy), 0); }";

fn texture(c: &mut Context) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8 as i32,
        N,
        N,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    // One level: a mipmapping minification filter would leave the texture incomplete.
    c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    t
}

fn check(pixels: &[u8], how: Switch) {
    for y in 0..N as usize {
        for x in 0..N as usize {
            let p = &pixels[(y * N as usize + x) * 4..][..4];
            let want = [(191 - x) as u8, (191 - y) as u8, 100, 255];
            assert_eq!(p, want, "{how:?}: pixel ({x}, {y})");
        }
    }
}

/// How the second pass is separated from the first.
#[derive(Copy, Clone, Debug)]
enum Switch {
    /// glBindFramebuffer of another framebuffer.
    Bind,
    /// The bound framebuffer's colour attachment becomes another texture.
    Reattach,
    /// One framebuffer with both textures attached from the start: glDrawBuffers picks
    /// which is written (fragment output 0 goes to draw buffer 0, so the second pass names
    /// attachment 1 first), and only glTextureBarrier orders the two passes.
    Barrier,
}

fn two_passes(threads: usize, how: Switch) -> Vec<u8> {
    let mut c = common::context(N as u32, N as u32, threads);
    let gradient = common::program(&mut c, VS, GRADIENT_FS);
    let mirror = common::program(&mut c, VS, MIRROR_FS);
    let src = texture(&mut c);
    let dst = texture(&mut c);
    let fbs = c.gen_framebuffers(2);
    c.bind_framebuffer(gl::FRAMEBUFFER, fbs[0]);
    c.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        gl::COLOR_ATTACHMENT0,
        gl::TEXTURE_2D,
        src,
        0,
    );
    if let Switch::Barrier = how {
        c.framebuffer_texture_2d(
            gl::FRAMEBUFFER,
            gl::COLOR_ATTACHMENT1,
            gl::TEXTURE_2D,
            dst,
            0,
        );
        c.draw_buffers(&[gl::COLOR_ATTACHMENT0]);
    }
    c.viewport(0, 0, N, N);
    c.use_program(gradient);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    match how {
        Switch::Bind => {
            c.bind_framebuffer(gl::FRAMEBUFFER, fbs[1]);
            c.framebuffer_texture_2d(
                gl::FRAMEBUFFER,
                gl::COLOR_ATTACHMENT0,
                gl::TEXTURE_2D,
                dst,
                0,
            );
        }
        Switch::Reattach => {
            c.framebuffer_texture_2d(
                gl::FRAMEBUFFER,
                gl::COLOR_ATTACHMENT0,
                gl::TEXTURE_2D,
                dst,
                0,
            );
        }
        Switch::Barrier => {
            c.texture_barrier();
            c.draw_buffers(&[gl::COLOR_ATTACHMENT1]);
        }
    }
    c.use_program(mirror);
    c.bind_texture(gl::TEXTURE_2D, src);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.bind_texture(gl::TEXTURE_2D, dst);
    c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE)
}

#[test]
fn a_pass_sees_every_texel_the_pass_before_rendered() {
    for how in [Switch::Bind, Switch::Reattach, Switch::Barrier] {
        let one = two_passes(1, how);
        check(&one, how);
        assert_eq!(one, two_passes(2, how), "{how:?}: 1 vs 2 threads");
    }
}
