//! glCopyImageSubData (GL 4.5 core §18.3.3) and the glInvalidate* commands (§6.5, §8.20,
//! §17.4.4) through the Rust `Context`: copies are raw texels between 2D levels, cube
//! faces, array layers, 3D slices and renderbuffers, including after queued draws, with
//! the spec's errors; invalidation keeps contents and raises exactly the spec's errors.

use softgl::{enums as gl, Context};

fn err(c: &mut Context) -> u32 {
    c.get_error()
}

fn bytes(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(7).wrapping_add(seed))
        .collect()
}

/// A 2D RGBA8 texture of `w`×`h` holding `data`.
fn tex2d(c: &mut Context, w: i32, h: i32, format: u32, data: &[u8]) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.tex_storage_2d(gl::TEXTURE_2D, 2, format, w, h);
    c.tex_sub_image_2d(
        gl::TEXTURE_2D,
        0,
        0,
        0,
        w,
        h,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        data,
    );
    assert_eq!(err(c), gl::NO_ERROR);
    t
}

#[test]
fn copies_move_raw_texels_between_levels_layers_and_renderbuffers() {
    let mut c = Context::with_threads(8, 8, 2);
    let src_data = bytes(4 * 4 * 4, 3);
    let src = tex2d(&mut c, 4, 4, gl::RGBA8, &src_data);
    // 2D → layer 1 of a 2D array at (1, 2): a 2×2 box from (2, 1).
    let arr = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D_ARRAY, arr);
    c.tex_storage_3d(gl::TEXTURE_2D_ARRAY, 1, gl::RGBA8, 4, 4, 2);
    c.copy_image_sub_data(
        (src, gl::TEXTURE_2D, 0, [2, 1, 0]),
        (arr, gl::TEXTURE_2D_ARRAY, 0, [1, 2, 1]),
        [2, 2, 1],
    );
    assert_eq!(err(&mut c), gl::NO_ERROR);
    let got = c.get_tex_image(gl::TEXTURE_2D_ARRAY, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    for l in 0..2 {
        for y in 0..4 {
            for x in 0..4 {
                let t = &got[((l * 4 + y) * 4 + x) * 4..][..4];
                let inside = l == 1 && (1..3).contains(&x) && (2..4).contains(&y);
                let want = if inside {
                    let (sx, sy) = (x + 1, y - 1);
                    src_data[(sy * 4 + sx) * 4..][..4].to_vec()
                } else {
                    vec![0; 4]
                };
                assert_eq!(t, want, "layer {l} ({x}, {y})");
            }
        }
    }
    // Both array layers → cube faces +Y, −Y (z is the face) of a cube map.
    let cube = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_CUBE_MAP, cube);
    c.tex_storage_2d(gl::TEXTURE_CUBE_MAP, 1, gl::RGBA8, 4, 4);
    c.copy_image_sub_data(
        (arr, gl::TEXTURE_2D_ARRAY, 0, [0, 0, 0]),
        (cube, gl::TEXTURE_CUBE_MAP, 0, [0, 0, 2]),
        [4, 4, 2],
    );
    assert_eq!(err(&mut c), gl::NO_ERROR);
    let face = c.get_tex_image(
        gl::TEXTURE_CUBE_MAP_NEGATIVE_Y,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
    );
    assert_eq!(face, got[64..]);
    let face = c.get_tex_image(
        gl::TEXTURE_CUBE_MAP_POSITIVE_X,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
    );
    assert_eq!(face, vec![0; 64]);

    // Compatible formats copy bits unconverted: RGBA8 → R32UI.
    let ui = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, ui);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::R32UI, 4, 4);
    c.copy_image_sub_data(
        (src, gl::TEXTURE_2D, 0, [0, 0, 0]),
        (ui, gl::TEXTURE_2D, 0, [0, 0, 0]),
        [4, 4, 1],
    );
    assert_eq!(err(&mut c), gl::NO_ERROR);
    let got = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RED_INTEGER, gl::UNSIGNED_INT);
    assert_eq!(err(&mut c), gl::NO_ERROR);
    assert_eq!(got, src_data);

    // A renderbuffer that a queued clear wrote → a 2D texture: the clear lands first.
    let rb = c.gen_renderbuffers(1)[0];
    c.bind_renderbuffer(gl::RENDERBUFFER, rb);
    c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, 4, 4);
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    c.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb);
    c.clear_color(1.0, 0.0, 0.0, 1.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    c.copy_image_sub_data(
        (rb, gl::RENDERBUFFER, 0, [0, 0, 0]),
        (src, gl::TEXTURE_2D, 0, [0, 0, 0]),
        [4, 1, 1],
    );
    assert_eq!(err(&mut c), gl::NO_ERROR);
    c.bind_texture(gl::TEXTURE_2D, src);
    let got = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(got[..16], [255, 0, 0, 255].repeat(4));
    assert_eq!(got[16..], src_data[16..]);
}

#[test]
fn copy_errors_follow_the_spec() {
    let mut c = Context::with_threads(8, 8, 1);
    let a = tex2d(&mut c, 4, 4, gl::RGBA8, &bytes(64, 1));
    let b = tex2d(&mut c, 4, 4, gl::RGBA8, &bytes(64, 2));
    let copy = |c: &mut Context, st: u32, sl: i32, at: [i32; 3], dt: u32, size: [i32; 3]| {
        c.copy_image_sub_data((a, st, sl, at), (b, dt, 0, [0, 0, 0]), size);
        c.get_error()
    };
    let t2 = gl::TEXTURE_2D;
    assert_eq!(copy(&mut c, t2, 0, [0; 3], t2, [4, 4, 1]), gl::NO_ERROR);
    // Bad targets: a cube face selector, a buffer texture, not a target at all.
    assert_eq!(
        copy(
            &mut c,
            gl::TEXTURE_CUBE_MAP_POSITIVE_X,
            0,
            [0; 3],
            t2,
            [1, 1, 1]
        ),
        gl::INVALID_ENUM
    );
    assert_eq!(
        copy(&mut c, t2, 0, [0; 3], gl::TEXTURE_BUFFER, [1; 3]),
        gl::INVALID_ENUM
    );
    assert_eq!(
        copy(&mut c, gl::FRAMEBUFFER, 0, [0; 3], t2, [1; 3]),
        gl::INVALID_ENUM
    );
    // A name of another target, a level it lacks (level 1 exists but was never given
    // texels? TexStorage allocated it: fine), a level past the chain.
    assert_eq!(
        copy(&mut c, gl::TEXTURE_3D, 0, [0; 3], t2, [1; 3]),
        gl::INVALID_VALUE
    );
    assert_eq!(copy(&mut c, t2, 1, [0; 3], t2, [2, 2, 1]), gl::NO_ERROR);
    assert_eq!(copy(&mut c, t2, 2, [0; 3], t2, [1; 3]), gl::INVALID_VALUE);
    assert_eq!(copy(&mut c, t2, -1, [0; 3], t2, [1; 3]), gl::INVALID_VALUE);
    // Boxes outside either image; negative sizes.
    assert_eq!(
        copy(&mut c, t2, 0, [1, 0, 0], t2, [4, 4, 1]),
        gl::INVALID_VALUE
    );
    assert_eq!(
        copy(&mut c, t2, 0, [0, 0, 1], t2, [1, 1, 1]),
        gl::INVALID_VALUE
    );
    assert_eq!(
        copy(&mut c, t2, 0, [0; 3], t2, [1, 1, 2]),
        gl::INVALID_VALUE
    );
    assert_eq!(
        copy(&mut c, t2, 0, [0; 3], t2, [-1, 1, 1]),
        gl::INVALID_VALUE
    );
    assert_eq!(
        copy(&mut c, t2, 1, [0; 3], t2, [3, 2, 1]),
        gl::INVALID_VALUE
    );
    // Texel sizes that differ: RGBA8 → RGBA16F; colour → depth.
    let h = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, h);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA16F, 4, 4);
    c.copy_image_sub_data((a, t2, 0, [0; 3]), (h, t2, 0, [0; 3]), [1, 1, 1]);
    assert_eq!(err(&mut c), gl::INVALID_OPERATION);
    let d = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, d);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::DEPTH_COMPONENT32F, 4, 4);
    c.copy_image_sub_data((a, t2, 0, [0; 3]), (d, t2, 0, [0; 3]), [1, 1, 1]);
    assert_eq!(err(&mut c), gl::INVALID_OPERATION);
    // Sample counts that differ: a 4× renderbuffer into a texture.
    let rb = c.gen_renderbuffers(1)[0];
    c.bind_renderbuffer(gl::RENDERBUFFER, rb);
    c.renderbuffer_storage_multisample(gl::RENDERBUFFER, 4, gl::RGBA8, 4, 4);
    c.copy_image_sub_data(
        (rb, gl::RENDERBUFFER, 0, [0; 3]),
        (b, t2, 0, [0; 3]),
        [1; 3],
    );
    assert_eq!(err(&mut c), gl::INVALID_OPERATION);
    c.copy_image_sub_data(
        (rb, gl::RENDERBUFFER, 1, [0; 3]),
        (b, t2, 0, [0; 3]),
        [1; 3],
    );
    assert_eq!(
        err(&mut c),
        gl::INVALID_VALUE,
        "renderbuffers have level 0 only"
    );
    c.copy_image_sub_data(
        (rb + 100, gl::RENDERBUFFER, 0, [0; 3]),
        (b, t2, 0, [0; 3]),
        [1; 3],
    );
    assert_eq!(err(&mut c), gl::INVALID_VALUE);
}

#[test]
fn invalidation_keeps_contents_and_checks_its_arguments() {
    let mut c = Context::with_threads(8, 8, 1);
    let data = bytes(64, 5);
    let t = tex2d(&mut c, 4, 4, gl::RGBA8, &data);
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    c.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, t, 0);
    let c0 = gl::COLOR_ATTACHMENT0;
    c.invalidate_framebuffer(gl::FRAMEBUFFER, &[c0, gl::DEPTH_ATTACHMENT]);
    c.invalidate_sub_framebuffer(
        gl::DRAW_FRAMEBUFFER,
        &[gl::DEPTH_STENCIL_ATTACHMENT],
        1,
        1,
        2,
        2,
    );
    c.invalidate_named_framebuffer_data(f, &[c0 + 7]);
    c.invalidate_named_framebuffer_data(0, &[gl::COLOR, gl::DEPTH, gl::STENCIL]);
    c.invalidate_named_framebuffer_sub_data(f, &[c0], 0, 0, 4, 4);
    c.invalidate_tex_image(t, 0);
    c.invalidate_tex_image(t, 1);
    c.invalidate_tex_sub_image(t, 0, [1, 1, 0], [3, 3, 1]);
    assert_eq!(err(&mut c), gl::NO_ERROR);
    // Contents are kept.
    let got = c.read_pixels(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(got, data);

    // Framebuffer errors.
    c.invalidate_framebuffer(gl::TEXTURE_2D, &[c0]);
    assert_eq!(err(&mut c), gl::INVALID_ENUM);
    c.invalidate_framebuffer(gl::FRAMEBUFFER, &[gl::COLOR]);
    assert_eq!(
        err(&mut c),
        gl::INVALID_ENUM,
        "COLOR names a default-framebuffer buffer"
    );
    c.invalidate_framebuffer(gl::FRAMEBUFFER, &[c0 + 8]);
    assert_eq!(err(&mut c), gl::INVALID_OPERATION);
    c.invalidate_sub_framebuffer(gl::FRAMEBUFFER, &[c0], 0, 0, -1, 1);
    assert_eq!(err(&mut c), gl::INVALID_VALUE);
    c.invalidate_named_framebuffer_data(0, &[c0]);
    assert_eq!(err(&mut c), gl::INVALID_ENUM);
    c.invalidate_named_framebuffer_data(f + 50, &[c0]);
    assert_eq!(err(&mut c), gl::INVALID_OPERATION);
    // Texture errors.
    c.invalidate_tex_image(0, 0);
    assert_eq!(err(&mut c), gl::INVALID_VALUE);
    c.invalidate_tex_image(t + 50, 0);
    assert_eq!(err(&mut c), gl::INVALID_VALUE);
    c.invalidate_tex_image(t, -1);
    assert_eq!(err(&mut c), gl::INVALID_VALUE);
    c.invalidate_tex_sub_image(t, 0, [2, 0, 0], [3, 1, 1]);
    assert_eq!(err(&mut c), gl::INVALID_VALUE);
    c.invalidate_tex_sub_image(t, 0, [0, 0, 0], [1, 1, 2]);
    assert_eq!(err(&mut c), gl::INVALID_VALUE);
    c.invalidate_tex_sub_image(t, 0, [0, 0, 0], [-1, 1, 1]);
    assert_eq!(err(&mut c), gl::INVALID_VALUE);

    // Buffers: kept; errors for a non-buffer, a range past the end, a mapped range.
    let b = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, b);
    c.buffer_data(
        gl::ARRAY_BUFFER,
        8,
        Some(&[1, 2, 3, 4, 5, 6, 7, 8]),
        gl::STATIC_DRAW,
    );
    c.invalidate_buffer_data(b);
    c.invalidate_buffer_sub_data(b, 2, 6);
    assert_eq!(err(&mut c), gl::NO_ERROR);
    c.invalidate_buffer_data(b + 50);
    assert_eq!(err(&mut c), gl::INVALID_VALUE);
    c.invalidate_buffer_sub_data(b, 4, 5);
    assert_eq!(err(&mut c), gl::INVALID_VALUE);
    c.invalidate_buffer_sub_data(b, -1, 1);
    assert_eq!(err(&mut c), gl::INVALID_VALUE);
    c.map_buffer_range(gl::ARRAY_BUFFER, 4, 2, gl::MAP_READ_BIT);
    assert_eq!(err(&mut c), gl::NO_ERROR);
    c.invalidate_buffer_sub_data(b, 0, 4);
    assert_eq!(err(&mut c), gl::NO_ERROR, "outside the mapped range");
    c.invalidate_buffer_sub_data(b, 5, 1);
    assert_eq!(err(&mut c), gl::INVALID_OPERATION);
    c.invalidate_buffer_data(b);
    assert_eq!(err(&mut c), gl::INVALID_OPERATION);
    c.unmap_buffer(gl::ARRAY_BUFFER);
    assert_eq!(
        c.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, 8),
        vec![1, 2, 3, 4, 5, 6, 7, 8]
    );
}
