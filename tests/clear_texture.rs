//! glClearTexImage / glClearTexSubImage (GL 4.5 core §8.21, ARB_clear_texture) through the
//! Rust `Context`: colour, integer, float and depth/stencil levels, sub-boxes of 2D, 2D
//! array (z = layer), 1D array (y = layer), cube (z = face) and 3D levels, null data as
//! zeros, multisample textures (every sample, seen through a resolve blit), a clear seen by
//! a later draw that samples the texture, and the extension's errors.

mod common;

use softgl::{enums as gl, Context};

fn texture(c: &mut Context, target: u32) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(target, t);
    t
}

/// Level `level` of the texture bound to `target`, as RGBA bytes.
fn rgba8(c: &mut Context, target: u32, level: i32) -> Vec<u8> {
    c.get_tex_image(target, level, gl::RGBA, gl::UNSIGNED_BYTE)
}

#[test]
fn whole_level_and_sub_box_of_a_2d_texture() {
    let mut c = common::context(4, 4, 1);
    let t = texture(&mut c, gl::TEXTURE_2D);
    c.tex_storage_2d(gl::TEXTURE_2D, 2, gl::RGBA8, 4, 4);
    c.clear_tex_image(t, 0, gl::RGBA, gl::UNSIGNED_BYTE, Some(&[10, 20, 30, 40]));
    c.clear_tex_sub_image(
        t,
        0,
        [1, 2, 0],
        [2, 1, 1],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        Some(&[1, 2, 3, 4]),
    );
    // Level 1 only: a float pixel converted to the level's format.
    let half = 0.5f32.to_le_bytes();
    let one = 1.0f32.to_le_bytes();
    let px: Vec<u8> = [half, one, half, one].concat();
    c.clear_tex_image(t, 1, gl::RGBA, gl::FLOAT, Some(&px));
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let l0 = rgba8(&mut c, gl::TEXTURE_2D, 0);
    for y in 0..4 {
        for x in 0..4 {
            let at = (y * 4 + x) * 4;
            let want: &[u8] = if y == 2 && (1..3).contains(&x) {
                &[1, 2, 3, 4]
            } else {
                &[10, 20, 30, 40]
            };
            assert_eq!(&l0[at..at + 4], want, "({x}, {y})");
        }
    }
    assert_eq!(
        rgba8(&mut c, gl::TEXTURE_2D, 1),
        [128, 255, 128, 255].repeat(4)
    );
    // Null data: zeros, alpha included.
    c.clear_tex_image(t, 1, gl::RGBA, gl::UNSIGNED_BYTE, None);
    assert_eq!(rgba8(&mut c, gl::TEXTURE_2D, 1), vec![0; 16]);
}

#[test]
fn array_cube_1d_array_and_3d_coordinates() {
    let mut c = common::context(4, 4, 1);
    let red = Some(&[255u8, 0, 0, 255][..]);
    // 2D array: z is the layer.
    let a = texture(&mut c, gl::TEXTURE_2D_ARRAY);
    c.tex_storage_3d(gl::TEXTURE_2D_ARRAY, 1, gl::RGBA8, 2, 2, 3);
    c.clear_tex_sub_image(a, 0, [0, 0, 1], [2, 2, 1], gl::RGBA, gl::UNSIGNED_BYTE, red);
    let got = rgba8(&mut c, gl::TEXTURE_2D_ARRAY, 0);
    assert_eq!(got[..16], [0; 16]);
    assert_eq!(got[16..32], [255, 0, 0, 255].repeat(4));
    assert_eq!(got[32..], [0; 16]);
    // 1D array: y is the layer.
    let b = texture(&mut c, gl::TEXTURE_1D_ARRAY);
    c.tex_storage_2d(gl::TEXTURE_1D_ARRAY, 1, gl::RGBA8, 2, 3);
    c.clear_tex_sub_image(b, 0, [1, 2, 0], [1, 1, 1], gl::RGBA, gl::UNSIGNED_BYTE, red);
    let got = rgba8(&mut c, gl::TEXTURE_1D_ARRAY, 0);
    let mut want = vec![0; 24];
    want[20..24].copy_from_slice(&[255, 0, 0, 255]);
    assert_eq!(got, want);
    // Cube map: z is the face.
    let cube = texture(&mut c, gl::TEXTURE_CUBE_MAP);
    c.tex_storage_2d(gl::TEXTURE_CUBE_MAP, 1, gl::RGBA8, 2, 2);
    c.clear_tex_sub_image(
        cube,
        0,
        [0, 0, 4],
        [2, 2, 1],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        red,
    );
    assert_eq!(
        c.get_tex_image(
            gl::TEXTURE_CUBE_MAP_POSITIVE_Z,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE
        ),
        [255, 0, 0, 255].repeat(4)
    );
    assert_eq!(
        c.get_tex_image(
            gl::TEXTURE_CUBE_MAP_NEGATIVE_Z,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE
        ),
        vec![0; 16]
    );
    // 3D: z is the slice; past the last one is INVALID_OPERATION.
    let v = texture(&mut c, gl::TEXTURE_3D);
    c.tex_storage_3d(gl::TEXTURE_3D, 1, gl::RGBA8, 1, 1, 2);
    c.clear_tex_sub_image(v, 0, [0, 0, 1], [1, 1, 1], gl::RGBA, gl::UNSIGNED_BYTE, red);
    assert_eq!(
        rgba8(&mut c, gl::TEXTURE_3D, 0),
        [0, 0, 0, 0, 255, 0, 0, 255]
    );
    c.clear_tex_sub_image(v, 0, [0, 0, 1], [1, 1, 2], gl::RGBA, gl::UNSIGNED_BYTE, red);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}

#[test]
fn integer_float_and_depth_stencil_formats() {
    let mut c = common::context(4, 4, 1);
    let i = texture(&mut c, gl::TEXTURE_2D);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RG32I, 1, 1);
    let px: Vec<u8> = [(-7i32).to_le_bytes(), 9i32.to_le_bytes()].concat();
    c.clear_tex_image(i, 0, gl::RG_INTEGER, gl::INT, Some(&px));
    assert_eq!(
        c.get_tex_image(gl::TEXTURE_2D, 0, gl::RG_INTEGER, gl::INT),
        px
    );
    // Integer data for a normalized format and the reverse are INVALID_OPERATION.
    c.clear_tex_image(i, 0, gl::RGBA, gl::UNSIGNED_BYTE, None);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    let f = texture(&mut c, gl::TEXTURE_2D);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::R32F, 1, 1);
    c.clear_tex_image(f, 0, gl::RED_INTEGER, gl::INT, Some(&[1, 0, 0, 0]));
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.clear_tex_image(f, 0, gl::RED, gl::FLOAT, Some(&(-2.5f32).to_le_bytes()));
    assert_eq!(
        c.get_tex_image(gl::TEXTURE_2D, 0, gl::RED, gl::FLOAT),
        (-2.5f32).to_le_bytes()
    );

    let d = texture(&mut c, gl::TEXTURE_2D);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::DEPTH24_STENCIL8, 1, 1);
    // Depth 0.5 (0x7FFFFF of 24 bits) and stencil 0x5A.
    let word: u32 = (0x7F_FFFF << 8) | 0x5A;
    c.clear_tex_image(
        d,
        0,
        gl::DEPTH_STENCIL,
        gl::UNSIGNED_INT_24_8,
        Some(&word.to_le_bytes()),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        c.get_tex_image(gl::TEXTURE_2D, 0, gl::DEPTH_STENCIL, gl::UNSIGNED_INT_24_8),
        word.to_le_bytes()
    );
    // A depth/stencil level takes DEPTH_STENCIL data only; colour levels take no depth.
    c.clear_tex_image(d, 0, gl::DEPTH_COMPONENT, gl::FLOAT, None);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    let z = texture(&mut c, gl::TEXTURE_2D);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::DEPTH_COMPONENT32F, 1, 1);
    c.clear_tex_image(
        z,
        0,
        gl::DEPTH_COMPONENT,
        gl::FLOAT,
        Some(&0.25f32.to_le_bytes()),
    );
    assert_eq!(
        c.get_tex_image(gl::TEXTURE_2D, 0, gl::DEPTH_COMPONENT, gl::FLOAT),
        0.25f32.to_le_bytes()
    );
    c.clear_tex_image(z, 0, gl::RGBA, gl::FLOAT, None);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.clear_tex_image(i, 0, gl::DEPTH_COMPONENT, gl::FLOAT, None);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}

#[test]
fn the_extensions_errors() {
    let mut c = common::context(4, 4, 1);
    // Texture 0, a name never generated, a generated name with no image.
    c.clear_tex_image(0, 0, gl::RGBA, gl::UNSIGNED_BYTE, None);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.clear_tex_image(100, 0, gl::RGBA, gl::UNSIGNED_BYTE, None);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    let t = c.gen_textures(1)[0];
    c.clear_tex_image(t, 0, gl::RGBA, gl::UNSIGNED_BYTE, None);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // A level that was not specified.
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        1,
        gl::RGBA8 as i32,
        2,
        2,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    c.clear_tex_image(t, 0, gl::RGBA, gl::UNSIGNED_BYTE, None);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.clear_tex_image(t, 1, gl::RGBA, gl::UNSIGNED_BYTE, None);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // Boxes outside the level (negative offsets, too wide, a depth on a 2D level).
    for (at, size) in [
        ([-1, 0, 0], [1, 1, 1]),
        ([0, 0, -1], [1, 1, 1]),
        ([1, 0, 0], [2, 1, 1]),
        ([0, 0, 0], [1, 1, 2]),
    ] {
        c.clear_tex_sub_image(t, 1, at, size, gl::RGBA, gl::UNSIGNED_BYTE, None);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "{at:?} {size:?}");
    }
    // An empty box is no error and writes nothing.
    c.clear_tex_sub_image(
        t,
        1,
        [0, 0, 0],
        [0, 2, 1],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // A bad format enum.
    c.clear_tex_image(t, 1, gl::TEXTURE_2D, gl::UNSIGNED_BYTE, None);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    // A compressed level.
    let s3tc = texture(&mut c, gl::TEXTURE_2D);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::COMPRESSED_RGBA_S3TC_DXT5_EXT, 4, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.clear_tex_image(s3tc, 0, gl::RGBA, gl::UNSIGNED_BYTE, None);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // A buffer texture.
    let buf = texture(&mut c, gl::TEXTURE_BUFFER);
    c.clear_tex_image(buf, 0, gl::RGBA, gl::UNSIGNED_BYTE, None);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}

/// Clears a 4-sample texture to green, resolves it by a blit and reads the result: every
/// sample was cleared.
#[test]
fn multisample_textures_clear_every_sample() {
    let mut c = common::context(4, 4, 1);
    let ms = texture(&mut c, gl::TEXTURE_2D_MULTISAMPLE);
    c.tex_storage_2d_multisample(gl::TEXTURE_2D_MULTISAMPLE, 4, gl::RGBA8, 4, 4, true);
    c.clear_tex_image(ms, 0, gl::RGBA, gl::UNSIGNED_BYTE, Some(&[0, 255, 0, 255]));
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let fbs = c.gen_framebuffers(2);
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, fbs[0]);
    c.framebuffer_texture_2d(
        gl::READ_FRAMEBUFFER,
        gl::COLOR_ATTACHMENT0,
        gl::TEXTURE_2D_MULTISAMPLE,
        ms,
        0,
    );
    let rb = c.gen_renderbuffers(1)[0];
    c.bind_renderbuffer(gl::RENDERBUFFER, rb);
    c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, 4, 4);
    c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, fbs[1]);
    c.framebuffer_renderbuffer(
        gl::DRAW_FRAMEBUFFER,
        gl::COLOR_ATTACHMENT0,
        gl::RENDERBUFFER,
        rb,
    );
    c.blit_framebuffer(0, 0, 4, 4, 0, 0, 4, 4, gl::COLOR_BUFFER_BIT, gl::NEAREST);
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, fbs[1]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let got = c.read_pixels(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(got, [0, 255, 0, 255].repeat(16));
}

/// A clear between two draws that sample the texture: the second draw sees it, the first
/// does not (queued work keeps what it read), at 1 and 2 threads.
fn sampled_after_clear(threads: usize) -> Vec<u8> {
    let mut c = common::context(4, 4, threads);
    let vs = "#version 330
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}";
    let fs = "#version 330
uniform sampler2D s;
uniform float x0;
out vec4 c;
void main() { if (gl_FragCoord.x < x0) discard; c = texelFetch(s, ivec2(0), 0); }";
    let p = common::program(&mut c, vs, fs);
    c.use_program(p);
    let t = texture(&mut c, gl::TEXTURE_2D);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 1, 1);
    c.clear_tex_image(t, 0, gl::RGBA, gl::UNSIGNED_BYTE, Some(&[255, 0, 0, 255]));
    let x0 = c.get_uniform_location(p, "x0");
    c.uniform_1f(x0, 0.0);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    c.clear_tex_image(t, 0, gl::RGBA, gl::UNSIGNED_BYTE, Some(&[0, 0, 255, 255]));
    c.uniform_1f(x0, 2.0);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_pixels(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE)
}

#[test]
fn a_clear_between_draws_is_seen_by_the_later_one_only() {
    let img = sampled_after_clear(1);
    assert!(img == sampled_after_clear(2), "1 and 2 threads differ");
    for y in 0..4 {
        for x in 0..4 {
            let at = (y * 4 + x) * 4;
            let want = if x < 2 {
                [255, 0, 0, 255]
            } else {
                [0, 0, 255, 255]
            };
            assert_eq!(img[at..at + 4], want, "({x}, {y})");
        }
    }
}
