//! 2D array textures end to end through the Rust `Context` (GL 4.5 core §8.5 TexImage3D,
//! §8.19 TexStorage3D, §8.14.2 layer selection, GLSL 4.60 §8.9 sampler2DArray): every layer
//! holds its own colour; texture() picks layer clamp(⌊z + ½⌋, 0, d − 1), texelFetch the
//! integer layer (zeros outside), textureSize answers the layer count; a usampler2DArray,
//! TexSubImage3D into one layer, GenerateMipmap per layer, glGetTexImage of all layers,
//! bindless handles, and the errors of the wrong target, at 1 and 2 threads.

mod common;

use softgl::{enums as gl, Context};

const LAYERS: i32 = 5;

const VS: &str = "#version 330
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.0, 1.0);
}";

fn program(c: &mut Context, fs: &str) -> u32 {
    common::program(c, VS, fs)
}

/// Layer l of the 4×4 test array: every texel (10·l + 1, 20·l + 2, 30·l + 3, 255).
fn layer_colour(l: i32) -> [u8; 4] {
    [10 * l as u8 + 1, 20 * l as u8 + 2, 30 * l as u8 + 3, 255]
}

fn array_data() -> Vec<u8> {
    (0..LAYERS)
        .flat_map(|l| std::iter::repeat_n(layer_colour(l), 16).flatten())
        .collect()
}

fn ctx(threads: usize) -> Context {
    common::context(16, 1, threads)
}

/// Draws `fs` with `layer` in the uniform `z` (pixel x adds x/16 to it: the lane layers
/// differ within a quad) and returns the 16 pixels.
fn shade(c: &mut Context, fs: &str, z: f32) -> Vec<[u8; 4]> {
    let p = program(c, fs);
    c.use_program(p);
    let loc = c.get_uniform_location(p, "z");
    c.uniform_1f(loc, z);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_pixels(0, 0, 16, 1, gl::RGBA, gl::UNSIGNED_BYTE)
        .chunks(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect()
}

fn array_texture(c: &mut Context, storage: bool) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D_ARRAY, t);
    let data = array_data();
    if storage {
        c.tex_storage_3d(gl::TEXTURE_2D_ARRAY, 1, gl::RGBA8, 4, 4, LAYERS);
        c.tex_sub_image_3d(
            gl::TEXTURE_2D_ARRAY,
            0,
            [0, 0, 0],
            [4, 4, LAYERS],
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            &data,
        );
    } else {
        c.tex_image_3d(
            gl::TEXTURE_2D_ARRAY,
            0,
            gl::RGBA8 as i32,
            4,
            4,
            LAYERS,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&data),
        );
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.tex_parameter_i(
        gl::TEXTURE_2D_ARRAY,
        gl::TEXTURE_MIN_FILTER,
        gl::LINEAR as i32,
    );
    c.tex_parameter_i(
        gl::TEXTURE_2D_ARRAY,
        gl::TEXTURE_MAG_FILTER,
        gl::LINEAR as i32,
    );
    t
}

const FS_TEXTURE: &str = "#version 330
uniform sampler2DArray s;
uniform float z;
out vec4 color;
void main() {
    color = texture(s, vec3(0.5, 0.5, z + floor(gl_FragCoord.x) / 16.0 * 8.0 - 2.0));
}";

/// The layer texture() reads at x for the FS_TEXTURE coordinate.
fn expected_layer(z: f32, x: i32) -> i32 {
    let r = z + x as f32 / 16.0 * 8.0 - 2.0;
    ((r + 0.5).floor() as i32).clamp(0, LAYERS - 1)
}

#[test]
fn layers_are_selected_fetched_and_sized() {
    for threads in [1, 2] {
        for storage in [false, true] {
            let mut c = ctx(threads);
            array_texture(&mut c, storage);
            for z in [0.0f32, 0.49, 0.5, 1.7] {
                let px = shade(&mut c, FS_TEXTURE, z);
                for (x, p) in px.iter().enumerate() {
                    let l = expected_layer(z, x as i32);
                    assert_eq!(*p, layer_colour(l), "z {z} x {x} threads {threads}");
                }
            }
            // texelFetch of the integer layer x − 3: zeros outside [0, LAYERS).
            let fetch = "#version 330
uniform sampler2DArray s;
uniform float z;
out vec4 color;
void main() {
    color = texelFetch(s, ivec3(1, 2, int(gl_FragCoord.x) - 3), 0);
}";
            let px = shade(&mut c, fetch, 0.0);
            for (x, p) in px.iter().enumerate() {
                let l = x as i32 - 3;
                let want = if (0..LAYERS).contains(&l) {
                    layer_colour(l)
                } else {
                    [0; 4]
                };
                assert_eq!(*p, want, "fetch x {x}");
            }
            let size = "#version 330
uniform sampler2DArray s;
uniform float z;
out vec4 color;
void main() {
    ivec3 t = textureSize(s, 0);
    color = vec4(vec3(t), 0.0) / 255.0;
}";
            assert_eq!(shade(&mut c, size, 0.0)[0], [4, 4, LAYERS as u8, 0]);
            // glGetTexImage gives every layer back.
            let back = c.get_tex_image(gl::TEXTURE_2D_ARRAY, 0, gl::RGBA, gl::UNSIGNED_BYTE);
            assert_eq!(back, array_data());
            assert_eq!(
                c.get_tex_level_parameteriv(gl::TEXTURE_2D_ARRAY, 0, gl::TEXTURE_DEPTH),
                LAYERS
            );
        }
    }
}

#[test]
fn sub_image_mipmaps_integer_arrays_and_bindless() {
    let mut c = ctx(2);
    let t = array_texture(&mut c, false);
    // TexSubImage3D into layer 3 only.
    c.tex_sub_image_3d(
        gl::TEXTURE_2D_ARRAY,
        0,
        [0, 0, 3],
        [4, 4, 1],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &[7u8; 64],
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let px = shade(&mut c, FS_TEXTURE, 0.0);
    assert_eq!(px[10], [7; 4], "x 10 reads layer 3");
    assert_eq!(px[8], layer_colour(2));
    // GenerateMipmap filters each layer on its own: level 2 (1×1) of a constant layer is
    // that layer's colour.
    c.generate_mipmap(gl::TEXTURE_2D_ARRAY);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let lod = "#version 330
uniform sampler2DArray s;
uniform float z;
out vec4 color;
void main() {
    color = textureLod(s, vec3(0.5, 0.5, z), 2.0);
}";
    assert_eq!(shade(&mut c, lod, 1.0)[0], layer_colour(1));
    assert_eq!(shade(&mut c, lod, 3.0)[0], [7; 4]);
    // Bindless: a handle of the array, sampled through a bindless sampler2DArray.
    let h = c.get_texture_handle_arb(t);
    assert_ne!(h, 0);
    c.make_texture_handle_resident_arb(h);
    let fs = "#version 330
#extension GL_ARB_bindless_texture : require
layout(bindless_sampler) uniform sampler2DArray s;
uniform float z;
out vec4 color;
void main() {
    color = texture(s, vec3(0.5, 0.5, z));
}";
    let p = program(&mut c, fs);
    c.use_program(p);
    let loc = c.get_uniform_location(p, "s");
    c.uniform_handle_ui64_arb(loc, h);
    let zl = c.get_uniform_location(p, "z");
    c.uniform_1f(zl, 4.0);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let px = c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(px[..4], layer_colour(4));

    // A usampler2DArray of an RGBA32UI array on unit 1, beside the 2D binding of unit 1.
    c.active_texture(gl::TEXTURE1);
    let u = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D_ARRAY, u);
    let words: Vec<u8> = (0..3u32)
        .flat_map(|l| [l, 0xFFFF_FFF0 + l, 5, 6])
        .flat_map(|w| w.to_le_bytes())
        .collect();
    c.tex_image_3d(
        gl::TEXTURE_2D_ARRAY,
        0,
        gl::RGBA32UI as i32,
        1,
        1,
        3,
        0,
        gl::RGBA_INTEGER,
        gl::UNSIGNED_INT,
        Some(&words),
    );
    c.tex_parameter_i(
        gl::TEXTURE_2D_ARRAY,
        gl::TEXTURE_MIN_FILTER,
        gl::NEAREST as i32,
    );
    c.tex_parameter_i(
        gl::TEXTURE_2D_ARRAY,
        gl::TEXTURE_MAG_FILTER,
        gl::NEAREST as i32,
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let fs = "#version 330
uniform usampler2DArray s;
uniform float z;
out vec4 color;
void main() {
    uvec4 v = texture(s, vec3(0.5, 0.5, z));
    color = vec4(float(v.x), float(v.y - 0xFFFFFFF0u), float(v.z), float(v.w)) / 255.0;
}";
    let p = program(&mut c, fs);
    c.use_program(p);
    let sl = c.get_uniform_location(p, "s");
    c.uniform_1i(sl, 1);
    for l in 0..3 {
        let zl = c.get_uniform_location(p, "z");
        c.uniform_1f(zl, l as f32);
        c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
        let px = c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE);
        assert_eq!(px[..4], [l as u8, l as u8, 5, 6]);
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn array_targets_and_errors() {
    let mut c = ctx(1);
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D_ARRAY, t);
    // TexImage2D does not take the array target, TexImage3D does not take TEXTURE_2D.
    c.tex_image_2d(
        gl::TEXTURE_2D_ARRAY,
        0,
        gl::RGBA8 as i32,
        1,
        1,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.tex_image_3d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8 as i32,
        1,
        1,
        1,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    // A texture keeps its first target.
    c.bind_texture(gl::TEXTURE_2D, t);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // Layer counts past MAX_ARRAY_TEXTURE_LAYERS.
    let max = c.get_integerv(gl::MAX_ARRAY_TEXTURE_LAYERS)[0];
    assert!(max >= 2048);
    c.tex_image_3d(
        gl::TEXTURE_2D_ARRAY,
        0,
        gl::RGBA8 as i32,
        1,
        1,
        max + 1,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    // Sub-images outside the layers.
    c.tex_storage_3d(gl::TEXTURE_2D_ARRAY, 1, gl::RGBA8, 2, 2, 2);
    c.tex_sub_image_3d(
        gl::TEXTURE_2D_ARRAY,
        0,
        [0, 0, 1],
        [2, 2, 2],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &[0; 32],
    );
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    assert_eq!(c.get_integerv(gl::TEXTURE_BINDING_2D_ARRAY)[0], t as i32);
}
