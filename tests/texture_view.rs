//! Texture views (GL 4.5 core §8.18, ARB_texture_view) through the Rust `Context`: a view
//! shares its original's storage (uploads and clears through either are seen by the
//! other, and the storage outlives the original), selects levels and layers, reinterprets
//! bits in another format of the view class, is sampled and rendered into like any
//! texture, reports the TEXTURE_VIEW_* values, and the spec's errors.

mod common;

use softgl::{enums as gl, Context};

fn storage_2d_array(c: &mut Context, levels: i32, format: u32, w: i32, layers: i32) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D_ARRAY, t);
    c.tex_storage_3d(gl::TEXTURE_2D_ARRAY, levels, format, w, w, layers);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    t
}

fn param(c: &mut Context, target: u32, pname: u32) -> i32 {
    c.get_tex_parameteriv(target, pname)
}

#[test]
fn a_view_shares_levels_and_layers_both_ways() {
    let mut c = common::context(4, 4, 1);
    let orig = storage_2d_array(&mut c, 3, gl::RGBA8, 4, 4);
    let v = c.gen_textures(1)[0];
    // Levels 1.. (2 of them) and layers 2..3 as a 2D array.
    c.texture_view(v, gl::TEXTURE_2D_ARRAY, orig, gl::RGBA8, 1, 5, 2, 2);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.bind_texture(gl::TEXTURE_2D_ARRAY, v);
    assert_eq!(
        param(&mut c, gl::TEXTURE_2D_ARRAY, gl::TEXTURE_VIEW_MIN_LEVEL),
        1
    );
    assert_eq!(
        param(&mut c, gl::TEXTURE_2D_ARRAY, gl::TEXTURE_VIEW_NUM_LEVELS),
        2
    );
    assert_eq!(
        param(&mut c, gl::TEXTURE_2D_ARRAY, gl::TEXTURE_VIEW_MIN_LAYER),
        2
    );
    assert_eq!(
        param(&mut c, gl::TEXTURE_2D_ARRAY, gl::TEXTURE_VIEW_NUM_LAYERS),
        2
    );
    assert_eq!(
        param(&mut c, gl::TEXTURE_2D_ARRAY, gl::TEXTURE_IMMUTABLE_FORMAT),
        1
    );
    assert_eq!(
        param(&mut c, gl::TEXTURE_2D_ARRAY, gl::TEXTURE_IMMUTABLE_LEVELS),
        3
    );
    // Level 0 of the view is level 1 of the original: 2×2, 2 layers.
    let px = [9u8, 8, 7, 6].repeat(4);
    c.tex_sub_image_3d(
        gl::TEXTURE_2D_ARRAY,
        0,
        [0, 0, 1],
        [2, 2, 1],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &px,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.bind_texture(gl::TEXTURE_2D_ARRAY, orig);
    assert_eq!(
        param(&mut c, gl::TEXTURE_2D_ARRAY, gl::TEXTURE_VIEW_NUM_LEVELS),
        3
    );
    assert_eq!(
        param(&mut c, gl::TEXTURE_2D_ARRAY, gl::TEXTURE_VIEW_NUM_LAYERS),
        4
    );
    let level1 = c.get_tex_image(gl::TEXTURE_2D_ARRAY, 1, gl::RGBA, gl::UNSIGNED_BYTE);
    // The view's layer 1 is the original's layer 3.
    assert_eq!(level1[..48], [0; 48]);
    assert_eq!(level1[48..], px[..]);
    // The other way: a clear of the original's layer 2 at level 1 shows in the view.
    c.clear_tex_sub_image(
        orig,
        1,
        [0, 0, 2],
        [2, 2, 1],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        Some(&[1, 2, 3, 4]),
    );
    c.bind_texture(gl::TEXTURE_2D_ARRAY, v);
    let view0 = c.get_tex_image(gl::TEXTURE_2D_ARRAY, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(view0[..16], [1, 2, 3, 4].repeat(4)[..]);
    assert_eq!(view0[16..], px[..]);
    // The storage outlives the original.
    c.delete_textures(&[orig]);
    let again = c.get_tex_image(gl::TEXTURE_2D_ARRAY, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(again, view0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn reinterpreting_bits_and_a_2d_view_of_a_cube_face() {
    let mut c = common::context(4, 4, 1);
    let f = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, f);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::R32F, 1, 1);
    c.clear_tex_image(f, 0, gl::RED, gl::FLOAT, Some(&1.5f32.to_le_bytes()));
    let u = c.gen_textures(1)[0];
    c.texture_view(u, gl::TEXTURE_2D, f, gl::R32UI, 0, 1, 0, 1);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.bind_texture(gl::TEXTURE_2D, u);
    assert_eq!(
        c.get_tex_image(gl::TEXTURE_2D, 0, gl::RED_INTEGER, gl::UNSIGNED_INT),
        1.5f32.to_bits().to_le_bytes()
    );

    let cube = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_CUBE_MAP, cube);
    c.tex_storage_2d(gl::TEXTURE_CUBE_MAP, 1, gl::RGBA8, 2, 2);
    c.clear_tex_sub_image(
        cube,
        0,
        [0, 0, 3],
        [2, 2, 1],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        Some(&[0, 0, 255, 255]),
    );
    let face = c.gen_textures(1)[0];
    c.texture_view(face, gl::TEXTURE_2D, cube, gl::RGBA8, 0, 1, 3, 1);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.bind_texture(gl::TEXTURE_2D, face);
    assert_eq!(
        c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE),
        [0, 0, 255, 255].repeat(4)
    );
}

/// A view of layer 1 of a 2D array, sampled by a draw and drawn into through a
/// framebuffer: both reach the original's layer 1.
fn draws_through_a_view(threads: usize) -> (Vec<u8>, Vec<u8>) {
    let mut c = common::context(2, 2, threads);
    let orig = storage_2d_array(&mut c, 1, gl::RGBA8, 2, 2);
    c.clear_tex_sub_image(
        orig,
        0,
        [0, 0, 1],
        [2, 2, 1],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        Some(&[0, 200, 0, 255]),
    );
    let v = c.gen_textures(1)[0];
    c.texture_view(v, gl::TEXTURE_2D, orig, gl::SRGB8_ALPHA8, 0, 1, 1, 1);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let vs = "#version 330
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}";
    let fs = "#version 330
uniform sampler2D s;
out vec4 c;
void main() { c = texelFetch(s, ivec2(0), 0); }";
    let p = common::program(&mut c, vs, fs);
    c.use_program(p);
    c.bind_texture(gl::TEXTURE_2D, v);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    // Sampled as sRGB: 200 decodes to 0.578 linear, stored as 147 in the UNORM target.
    let sampled = c.read_pixels(0, 0, 2, 2, gl::RGBA, gl::UNSIGNED_BYTE);
    // Drawn into: a framebuffer with the view attached, then read through the original.
    let target = c.gen_textures(1)[0];
    c.texture_view(target, gl::TEXTURE_2D, orig, gl::RGBA8, 0, 1, 0, 1);
    let fb = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, fb);
    c.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        gl::COLOR_ATTACHMENT0,
        gl::TEXTURE_2D,
        target,
        0,
    );
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    c.clear_color(1.0, 0.0, 1.0, 1.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    c.bind_framebuffer(gl::FRAMEBUFFER, 0);
    c.bind_texture(gl::TEXTURE_2D_ARRAY, orig);
    let layers = c.get_tex_image(gl::TEXTURE_2D_ARRAY, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    (sampled, layers)
}

#[test]
fn views_are_sampled_and_rendered_into() {
    let (sampled, layers) = draws_through_a_view(1);
    assert_eq!((sampled.clone(), layers.clone()), draws_through_a_view(2));
    assert_eq!(sampled, [0, 147, 0, 255].repeat(4));
    assert_eq!(layers[..16], [255, 0, 255, 255].repeat(4)[..]);
    assert_eq!(layers[16..], [0, 200, 0, 255].repeat(4)[..]);
}

#[test]
fn the_spec_s_errors() {
    let mut c = common::context(4, 4, 1);
    let orig = storage_2d_array(&mut c, 2, gl::RGBA8, 4, 6);
    let fresh = |c: &mut Context| c.gen_textures(1)[0];
    let expect = |c: &mut Context, args: (u32, u32, u32, u32, u32, u32, u32, u32), err: u32| {
        c.texture_view(
            args.0, args.1, args.2, args.3, args.4, args.5, args.6, args.7,
        );
        assert_eq!(c.get_error(), err, "{args:?}");
    };
    let v = fresh(&mut c);
    expect(
        &mut c,
        (0, gl::TEXTURE_2D, orig, gl::RGBA8, 0, 1, 0, 1),
        gl::INVALID_VALUE,
    );
    expect(
        &mut c,
        (v, gl::TEXTURE_2D, 999, gl::RGBA8, 0, 1, 0, 1),
        gl::INVALID_VALUE,
    );
    expect(
        &mut c,
        (12345, gl::TEXTURE_2D, orig, gl::RGBA8, 0, 1, 0, 1),
        gl::INVALID_OPERATION,
    );
    // An incompatible target; a format of another view class; one of the class that
    // softgl stores differently (RG16F in half-float RGBA: no shared bytes with RGBA8).
    expect(
        &mut c,
        (v, gl::TEXTURE_3D, orig, gl::RGBA8, 0, 1, 0, 1),
        gl::INVALID_OPERATION,
    );
    expect(
        &mut c,
        (v, gl::TEXTURE_2D, orig, gl::RG8, 0, 1, 0, 1),
        gl::INVALID_OPERATION,
    );
    expect(
        &mut c,
        (v, gl::TEXTURE_2D, orig, gl::RG16F, 0, 1, 0, 1),
        gl::INVALID_OPERATION,
    );
    // Levels and layers past the original; layer counts the view target cannot have.
    expect(
        &mut c,
        (v, gl::TEXTURE_2D, orig, gl::RGBA8, 2, 1, 0, 1),
        gl::INVALID_VALUE,
    );
    expect(
        &mut c,
        (v, gl::TEXTURE_2D, orig, gl::RGBA8, 0, 1, 6, 1),
        gl::INVALID_VALUE,
    );
    expect(
        &mut c,
        (v, gl::TEXTURE_2D, orig, gl::RGBA8, 0, 1, 0, 2),
        gl::INVALID_VALUE,
    );
    expect(
        &mut c,
        (v, gl::TEXTURE_CUBE_MAP, orig, gl::RGBA8, 0, 1, 1, 6),
        gl::INVALID_VALUE,
    );
    expect(
        &mut c,
        (v, gl::TEXTURE_CUBE_MAP_ARRAY, orig, gl::RGBA8, 0, 1, 0, 4),
        gl::INVALID_VALUE,
    );
    expect(
        &mut c,
        (v, gl::TEXTURE_CUBE_MAP, orig, gl::RGBA8, 0, 1, 0, 6),
        gl::NO_ERROR,
    );
    // `v` has a target now.
    expect(
        &mut c,
        (v, gl::TEXTURE_CUBE_MAP, orig, gl::RGBA8, 0, 1, 0, 6),
        gl::INVALID_OPERATION,
    );
    // A mutable original.
    let m = fresh(&mut c);
    c.bind_texture(gl::TEXTURE_2D, m);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8 as i32,
        1,
        1,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    let w = fresh(&mut c);
    expect(
        &mut c,
        (w, gl::TEXTURE_2D, m, gl::RGBA8, 0, 1, 0, 1),
        gl::INVALID_OPERATION,
    );
}
