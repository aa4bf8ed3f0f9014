//! Issue #12 items 6 and 7 through the public `softgl::Context` API: every pixel-store
//! parameter (GL 4.5 core §8.4.1 tables 8.1 and 18.1) on glTexImage*, glReadPixels and
//! glGetTexImage, through client memory and pixel buffers (whose size checks count the
//! skipped bytes), and glClampColor(GL_CLAMP_READ_COLOR) on float reads.

use softgl::{enums as gl, Context};

/// Every pixel-store parameter, its initial value and a value to set.
const PARAMS: [(u32, i32, i32); 16] = [
    (gl::UNPACK_SWAP_BYTES, 0, 1),
    (gl::UNPACK_LSB_FIRST, 0, 1),
    (gl::UNPACK_ROW_LENGTH, 0, 7),
    (gl::UNPACK_IMAGE_HEIGHT, 0, 5),
    (gl::UNPACK_SKIP_ROWS, 0, 3),
    (gl::UNPACK_SKIP_PIXELS, 0, 2),
    (gl::UNPACK_SKIP_IMAGES, 0, 1),
    (gl::UNPACK_ALIGNMENT, 4, 8),
    (gl::PACK_SWAP_BYTES, 0, 1),
    (gl::PACK_LSB_FIRST, 0, 1),
    (gl::PACK_ROW_LENGTH, 0, 9),
    (gl::PACK_IMAGE_HEIGHT, 0, 4),
    (gl::PACK_SKIP_ROWS, 0, 2),
    (gl::PACK_SKIP_PIXELS, 0, 1),
    (gl::PACK_SKIP_IMAGES, 0, 2),
    (gl::PACK_ALIGNMENT, 4, 2),
];

#[test]
fn every_parameter_sets_and_reads_back_with_its_errors() {
    let mut c = Context::new(4, 4);
    for (p, initial, v) in PARAMS {
        assert_eq!(c.get_integerv(p), vec![initial], "{p:#x}");
        c.pixel_storei(p, v);
        assert_eq!(c.get_integerv(p), vec![v], "{p:#x}");
        if !matches!(
            p,
            gl::UNPACK_SWAP_BYTES | gl::UNPACK_LSB_FIRST | gl::PACK_SWAP_BYTES | gl::PACK_LSB_FIRST
        ) {
            c.pixel_storei(p, -1);
            assert_eq!(c.get_error(), gl::INVALID_VALUE, "{p:#x}");
            assert_eq!(c.get_integerv(p), vec![v]);
        }
    }
    c.pixel_storei(gl::PACK_ALIGNMENT, 3);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.pixel_storei(gl::TEXTURE_2D, 0);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// A 4×3 RGBA8 texture whose texel (x, y) is (x, y, 10x + y, 255).
fn texel(x: usize, y: usize) -> [u8; 4] {
    [x as u8, y as u8, (10 * x + y) as u8, 255]
}

fn texture(c: &mut Context) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    let data: Vec<u8> = (0..3)
        .flat_map(|y| (0..4).flat_map(move |x| texel(x, y)))
        .collect();
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8 as i32,
        4,
        3,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        Some(&data),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    t
}

#[test]
fn unpack_row_length_and_skips_pick_a_sub_rectangle() {
    let mut c = Context::new(4, 4);
    texture(&mut c);
    // Client memory: an 7-pixel-wide image; the upload takes 2×2 at (2, 3) of it.
    let client: Vec<u8> = (0..6)
        .flat_map(|y| (0..7).flat_map(move |x| [x as u8, y as u8, 99, 255]))
        .collect();
    c.pixel_storei(gl::UNPACK_ROW_LENGTH, 7);
    c.pixel_storei(gl::UNPACK_SKIP_ROWS, 3);
    c.pixel_storei(gl::UNPACK_SKIP_PIXELS, 2);
    c.tex_sub_image_2d(
        gl::TEXTURE_2D,
        0,
        1,
        1,
        2,
        2,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &client,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let back = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    let at = |x: usize, y: usize| &back[(y * 4 + x) * 4..][..4];
    assert_eq!(at(1, 1), &[2, 3, 99, 255]);
    assert_eq!(at(2, 1), &[3, 3, 99, 255]);
    assert_eq!(at(1, 2), &[2, 4, 99, 255]);
    assert_eq!(at(0, 0), &texel(0, 0));
    // Too short a client image for the skips: INVALID_VALUE (the Rust API's slice).
    c.tex_sub_image_2d(
        gl::TEXTURE_2D,
        0,
        0,
        0,
        2,
        2,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &client[..4 * 7 * 4],
    );
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
}

#[test]
fn unpack_swap_bytes_reverses_each_component() {
    let mut c = Context::new(4, 4);
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.pixel_storei(gl::UNPACK_SWAP_BYTES, 1);
    // 0.5 as a big-endian float.
    let data: Vec<u8> = [0.5f32, 0.25, 1.0, 0.0]
        .iter()
        .flat_map(|f| f.to_be_bytes())
        .collect();
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA32F as i32,
        1,
        1,
        0,
        gl::RGBA,
        gl::FLOAT,
        Some(&data),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.pixel_storei(gl::UNPACK_SWAP_BYTES, 0);
    let back = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::FLOAT);
    let f: Vec<f32> = back
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    assert_eq!(f, vec![0.5, 0.25, 1.0, 0.0]);
    // And out again, swapped.
    c.pixel_storei(gl::PACK_SWAP_BYTES, 1);
    assert_eq!(
        c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::FLOAT),
        data
    );
}

#[test]
fn pack_row_length_and_skips_place_read_pixels_and_leave_the_rest() {
    let mut c = Context::new(4, 3);
    let t = texture(&mut c);
    let fb = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, fb);
    c.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, t, 0);
    c.pixel_storei(gl::PACK_ROW_LENGTH, 5);
    c.pixel_storei(gl::PACK_SKIP_ROWS, 1);
    c.pixel_storei(gl::PACK_SKIP_PIXELS, 2);
    // 2×2 at (1, 1) into rows of 5 RGB pixels (15 bytes, padded to 16).
    let mut out = vec![0xEEu8; 16 * 3];
    c.read_pixels_into(1, 1, 2, 2, gl::RGB, gl::UNSIGNED_BYTE, &mut out);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let mut want = vec![0xEEu8; 16 * 3];
    for (y, x) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        let at = 16 * (1 + y) + 3 * (2 + x);
        want[at..at + 3].copy_from_slice(&texel(1 + x, 1 + y)[..3]);
    }
    assert_eq!(out, want);
    // The same through a pixel pack buffer: its size check counts the skips.
    let pbo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::PIXEL_PACK_BUFFER, pbo);
    c.buffer_data(
        gl::PIXEL_PACK_BUFFER,
        16 * 3,
        Some(&[0xEE; 48]),
        gl::STREAM_READ,
    );
    c.read_pixels_to_buffer(1, 1, 2, 2, gl::RGB, gl::UNSIGNED_BYTE, 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.get_buffer_sub_data(gl::PIXEL_PACK_BUFFER, 0, 48), want);
    // Needs 16·2 + 3·4 = 44 bytes from the offset: 8 more do not fit in 48.
    c.read_pixels_to_buffer(1, 1, 2, 2, gl::RGB, gl::UNSIGNED_BYTE, 8);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.read_pixels_to_buffer(1, 1, 2, 2, gl::RGB, gl::UNSIGNED_BYTE, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn unpack_image_height_and_skip_images_for_array_layers() {
    let mut c = Context::new(4, 4);
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D_ARRAY, t);
    // Client images of 2×3 R8 pixels (alignment 1); upload 2×2×2 skipping 1 image and 1 row.
    c.pixel_storei(gl::UNPACK_ALIGNMENT, 1);
    c.pixel_storei(gl::UNPACK_IMAGE_HEIGHT, 3);
    c.pixel_storei(gl::UNPACK_SKIP_IMAGES, 1);
    c.pixel_storei(gl::UNPACK_SKIP_ROWS, 1);
    let client: Vec<u8> = (0..3 * 6).map(|i| i as u8).collect();
    c.tex_image_3d(
        gl::TEXTURE_2D_ARRAY,
        0,
        gl::R8 as i32,
        2,
        2,
        2,
        0,
        gl::RED,
        gl::UNSIGNED_BYTE,
        Some(&client),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.pixel_storei(gl::PACK_ALIGNMENT, 1);
    let back = c.get_tex_image(gl::TEXTURE_2D_ARRAY, 0, gl::RED, gl::UNSIGNED_BYTE);
    // Image 1 starts at 6, its row 1 at 8; image 2 at 12, row 1 at 14.
    assert_eq!(back, vec![8, 9, 10, 11, 14, 15, 16, 17]);
    // Downloads honour the pack image height: 2 layers of 3 rows, the gap untouched.
    c.pixel_storei(gl::PACK_IMAGE_HEIGHT, 3);
    let back = c.get_tex_image(gl::TEXTURE_2D_ARRAY, 0, gl::RED, gl::UNSIGNED_BYTE);
    assert_eq!(&back[..4], &[8, 9, 10, 11]);
    assert_eq!(&back[6..10], &[14, 15, 16, 17]);
    // A 2D texture ignores IMAGE_HEIGHT and SKIP_IMAGES.
    let t2 = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t2);
    c.pixel_storei(gl::UNPACK_SKIP_ROWS, 0);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::R8 as i32,
        2,
        1,
        0,
        gl::RED,
        gl::UNSIGNED_BYTE,
        Some(&client[..2]),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let back = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RED, gl::UNSIGNED_BYTE);
    assert_eq!(back, vec![0, 1]);
}

#[test]
fn clamp_read_color_clamps_float_reads_only_when_true() {
    let mut c = Context::new(2, 2);
    assert_eq!(
        c.get_integerv(gl::CLAMP_READ_COLOR),
        vec![gl::FIXED_ONLY as i32]
    );
    let rb = c.gen_renderbuffers(1)[0];
    c.bind_renderbuffer(gl::RENDERBUFFER, rb);
    c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA32F, 2, 2);
    let fb = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, fb);
    c.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb);
    c.clear_color(2.0, -1.0, 0.5, 3.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    let read = |c: &mut Context| -> Vec<f32> {
        c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::FLOAT)
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    };
    assert_eq!(
        read(&mut c),
        vec![2.0, -1.0, 0.5, 3.0],
        "FIXED_ONLY: float kept"
    );
    c.clamp_color(gl::CLAMP_READ_COLOR, gl::TRUE);
    assert_eq!(read(&mut c), vec![1.0, 0.0, 0.5, 1.0]);
    c.clamp_color(gl::CLAMP_READ_COLOR, gl::FALSE);
    assert_eq!(read(&mut c), vec![2.0, -1.0, 0.5, 3.0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.clamp_color(gl::CLAMP_VERTEX_COLOR, gl::TRUE);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.clamp_color(gl::CLAMP_READ_COLOR, gl::RGBA);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    assert_eq!(c.get_integerv(gl::CLAMP_READ_COLOR), vec![gl::FALSE as i32]);
}
