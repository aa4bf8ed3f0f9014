//! Cube maps, 3D textures and glCopyTex* end to end through the Rust `Context` (GL 4.5 core
//! §8.13 cube map face selection and seamless filtering, §8.5 TexImage3D of GL_TEXTURE_3D,
//! §8.6 CopyTexImage2D / CopyTexSubImage*): each face and slice samples its own colour;
//! LINEAR across a cube edge and at a cube corner takes texels from the neighbouring faces;
//! samplerCubeShadow, isamplerCube, textureLod and textureSize of cubes; sampler3D NEAREST,
//! trilinear across slices, the r wrap, texelFetch, textureProj, textureSize per level,
//! GenerateMipmap in 3D; bound and bindless; copies from the read framebuffer into 2D, cube faces and 3D
//! slices; every image the same at 1 and 2 threads.

mod common;

use softgl::{enums as gl, Context};

const VS: &str = "#version 330
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.0, 1.0);
}";

fn ctx(threads: usize) -> Context {
    common::context(16, 1, threads)
}

/// Draws `fs`, whose `uniform vec3 dirs[16]` gets `dirs` (pixel x reads dirs[x]), and
/// returns the 16 pixels. `handle`: a bindless handle for the sampler uniform `s`.
fn shade(c: &mut Context, fs: &str, dirs: &[[f32; 3]], handle: Option<u64>) -> Vec<[u8; 4]> {
    let p = common::program(c, VS, fs);
    c.use_program(p);
    let mut flat: Vec<f32> = dirs.iter().flatten().copied().collect();
    flat.resize(48, 0.0);
    let loc = c.get_uniform_location(p, "dirs");
    c.uniform_3fv(loc, &flat);
    if let Some(h) = handle {
        let loc = c.get_uniform_location(p, "s");
        c.uniform_handle_ui64_arb(loc, h);
    }
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_pixels(0, 0, 16, 1, gl::RGBA, gl::UNSIGNED_BYTE)
        .chunks(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect()
}

const CUBE_FS: &str = "#version 330
uniform samplerCube s;
uniform vec3 dirs[16];
out vec4 color;
void main() {
    color = texture(s, dirs[int(gl_FragCoord.x)]);
}";

/// Face colours in GL order +X, −X, +Y, −Y, +Z, −Z.
const FACES: [[u8; 4]; 6] = [
    [255, 0, 0, 255],
    [0, 255, 255, 255],
    [0, 255, 0, 255],
    [255, 0, 255, 255],
    [0, 0, 255, 255],
    [255, 255, 0, 255],
];

/// The direction to the centre of each face.
const CENTRES: [[f32; 3]; 6] = [
    [1.0, 0.0, 0.0],
    [-1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, -1.0, 0.0],
    [0.0, 0.0, 1.0],
    [0.0, 0.0, -1.0],
];

fn set_filter(c: &mut Context, target: u32, filter: u32) {
    c.tex_parameter_i(target, gl::TEXTURE_MIN_FILTER, filter as i32);
    c.tex_parameter_i(target, gl::TEXTURE_MAG_FILTER, filter as i32);
}

/// A 2×2-per-face RGBA8 cube map of `FACES`, by TexImage2D per face or TexStorage2D +
/// TexSubImage2D per face.
fn cube(c: &mut Context, storage: bool) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_CUBE_MAP, t);
    if storage {
        c.tex_storage_2d(gl::TEXTURE_CUBE_MAP, 1, gl::RGBA8, 2, 2);
    }
    for (f, col) in FACES.iter().enumerate() {
        let target = gl::TEXTURE_CUBE_MAP_POSITIVE_X + f as u32;
        let data: Vec<u8> = std::iter::repeat_n(*col, 4).flatten().collect();
        if storage {
            c.tex_sub_image_2d(target, 0, 0, 0, 2, 2, gl::RGBA, gl::UNSIGNED_BYTE, &data);
        } else {
            c.tex_image_2d(
                target,
                0,
                gl::RGBA8 as i32,
                2,
                2,
                0,
                gl::RGBA,
                gl::UNSIGNED_BYTE,
                Some(&data),
            );
        }
    }
    set_filter(c, gl::TEXTURE_CUBE_MAP, gl::NEAREST);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    t
}

/// What the cube tests see at one thread count.
fn cube_images(threads: usize) -> Vec<Vec<[u8; 4]>> {
    let mut c = ctx(threads);
    let mut images = Vec::new();
    for storage in [false, true] {
        let t = cube(&mut c, storage);
        // NEAREST at each face centre: that face's colour.
        let got = shade(&mut c, CUBE_FS, &CENTRES, None);
        assert_eq!(got[..6], FACES, "storage {storage}");
        // Unnormalized and off-centre directions select by the largest magnitude.
        let got = shade(
            &mut c,
            CUBE_FS,
            &[[-7.0, 2.0, -6.9], [0.1, -0.2, 0.3]],
            None,
        );
        assert_eq!(got[..2], [FACES[1], FACES[4]]);
        images.push(got);
        // Seamless LINEAR (GL 4.5 core §8.13.1): +X at s = 1/8 reads a quarter of +Z (its
        // neighbour across the left edge); −X at t = 1/8 a quarter of +Y; the corner of
        // +X, +Y and +Z averages the three (the fourth texel is their mean).
        set_filter(&mut c, gl::TEXTURE_CUBE_MAP, gl::LINEAR);
        let dirs = [
            [1.0, 0.0, 0.75],
            [-1.0, 0.75, 0.0],
            [1.0, 1.0, 1.0],
            [0.0, 0.0, -1.0],
        ];
        let got = shade(&mut c, CUBE_FS, &dirs, None);
        assert_eq!(got[0], [191, 0, 64, 255]);
        assert_eq!(got[1], [0, 255, 191, 255]);
        assert_eq!(got[2], [85, 85, 85, 255]);
        assert_eq!(got[3], FACES[5]);
        images.push(got);
        // Bindless: the same lookups through a handle.
        let h = c.get_texture_handle_arb(t);
        assert_ne!(h, 0);
        c.make_texture_handle_resident_arb(h);
        let fs = "#version 330
#extension GL_ARB_bindless_texture : require
layout(bindless_sampler) uniform samplerCube s;
uniform vec3 dirs[16];
out vec4 color;
void main() {
    color = texture(s, dirs[int(gl_FragCoord.x)]);
}";
        let bindless = shade(&mut c, fs, &dirs, Some(h));
        assert_eq!(bindless[..4], images.last().unwrap()[..4]);
        c.make_texture_handle_non_resident_arb(h);
        // A face download is that face.
        let face = c.get_tex_image(
            gl::TEXTURE_CUBE_MAP_NEGATIVE_Y,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
        );
        assert_eq!(face, [FACES[3]; 4].concat());
    }
    images
}

#[test]
fn cube_faces_select_and_filter_seamlessly() {
    assert_eq!(cube_images(1), cube_images(2));
}

#[test]
fn cube_shadow_integer_lod_size_and_completeness() {
    let mut c = ctx(1);
    // A depth cube: face f holds depth f/10; LEQUAL against D_ref 0.25.
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_CUBE_MAP, t);
    c.tex_storage_2d(gl::TEXTURE_CUBE_MAP, 1, gl::DEPTH_COMPONENT32F, 2, 2);
    for f in 0..6u32 {
        let d: Vec<u8> = std::iter::repeat_n((f as f32 / 10.0).to_le_bytes(), 4)
            .flatten()
            .collect();
        let target = gl::TEXTURE_CUBE_MAP_POSITIVE_X + f;
        c.tex_sub_image_2d(target, 0, 0, 0, 2, 2, gl::DEPTH_COMPONENT, gl::FLOAT, &d);
    }
    set_filter(&mut c, gl::TEXTURE_CUBE_MAP, gl::NEAREST);
    c.tex_parameter_i(
        gl::TEXTURE_CUBE_MAP,
        gl::TEXTURE_COMPARE_MODE,
        gl::COMPARE_REF_TO_TEXTURE as i32,
    );
    let fs = "#version 330
uniform samplerCubeShadow s;
uniform vec3 dirs[16];
out vec4 color;
void main() {
    color = vec4(texture(s, vec4(dirs[int(gl_FragCoord.x)], 0.25)));
}";
    let got = shade(&mut c, fs, &CENTRES, None);
    let r: Vec<u8> = got[..6].iter().map(|p| p[0]).collect();
    assert_eq!(r, [0, 0, 0, 255, 255, 255]);

    // An integer cube: face f holds 10·f − 50, read unconverted.
    let it = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_CUBE_MAP, it);
    for f in 0..6i32 {
        let v: Vec<u8> = std::iter::repeat_n((10 * f - 50).to_le_bytes(), 4)
            .flatten()
            .collect();
        let target = gl::TEXTURE_CUBE_MAP_POSITIVE_X + f as u32;
        c.tex_image_2d(
            target,
            0,
            gl::R32I as i32,
            2,
            2,
            0,
            gl::RED_INTEGER,
            gl::INT,
            Some(&v),
        );
    }
    set_filter(&mut c, gl::TEXTURE_CUBE_MAP, gl::NEAREST);
    let fs = "#version 330
uniform isamplerCube s;
uniform vec3 dirs[16];
out vec4 color;
void main() {
    color = vec4(float(texture(s, dirs[int(gl_FragCoord.x)]).r + 100) / 255.0, 0.0, 0.0, 1.0);
}";
    let got = shade(&mut c, fs, &CENTRES, None);
    let r: Vec<u8> = got[..6].iter().map(|p| p[0]).collect();
    assert_eq!(r, [50, 60, 70, 80, 90, 100]);

    // Two levels: textureLod picks level 1 (1×1 faces, colour 9·f); textureSize per level.
    let m = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_CUBE_MAP, m);
    c.tex_storage_2d(gl::TEXTURE_CUBE_MAP, 2, gl::RGBA8, 2, 2);
    for f in 0..6u32 {
        let target = gl::TEXTURE_CUBE_MAP_POSITIVE_X + f;
        let v = [9 * f as u8, 1, 2, 255];
        c.tex_sub_image_2d(target, 1, 0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, &v);
    }
    c.tex_parameter_i(
        gl::TEXTURE_CUBE_MAP,
        gl::TEXTURE_MIN_FILTER,
        gl::NEAREST_MIPMAP_NEAREST as i32,
    );
    let fs = "#version 330
uniform samplerCube s;
uniform vec3 dirs[16];
out vec4 color;
void main() {
    int x = int(gl_FragCoord.x);
    if (x < 6) {
        color = textureLod(s, dirs[x], 1.0);
    } else {
        color = vec4(vec2(textureSize(s, x - 6)), 0.0, 1.0) / 255.0;
    }
}";
    let got = shade(&mut c, fs, &CENTRES, None);
    for (f, px) in got.iter().take(6).enumerate() {
        assert_eq!(*px, [9 * f as u8, 1, 2, 255]);
    }
    assert_eq!(got[6][..2], [2, 2]);
    assert_eq!(got[7][..2], [1, 1]);
    assert_eq!(got[8][..2], [0, 0]);

    // Five faces of six: not cube complete, samples (0, 0, 0, 1) (§8.17, §11.1.3.5).
    let inc = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_CUBE_MAP, inc);
    for f in 0..5u32 {
        let target = gl::TEXTURE_CUBE_MAP_POSITIVE_X + f;
        let data = [[7u8; 4]; 4].concat();
        c.tex_image_2d(
            target,
            0,
            gl::RGBA8 as i32,
            2,
            2,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&data),
        );
    }
    set_filter(&mut c, gl::TEXTURE_CUBE_MAP, gl::NEAREST);
    let got = shade(&mut c, CUBE_FS, &CENTRES, None);
    assert_eq!(got[0], [0, 0, 0, 255]);
    assert_eq!(c.get_texture_handle_arb(inc), 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);

    // Errors: non-square faces, the cube target itself in TexImage2D.
    c.tex_image_2d(
        gl::TEXTURE_CUBE_MAP_POSITIVE_Z,
        0,
        gl::RGBA8 as i32,
        2,
        1,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.tex_image_2d(
        gl::TEXTURE_CUBE_MAP,
        0,
        gl::RGBA8 as i32,
        2,
        2,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
}

/// Slice z of the 4×4×4 test volume: every texel (60·z + 10, 255 − 50·z, 4·z, 255).
fn slice_colour(z: u8) -> [u8; 4] {
    [60 * z + 10, 255 - 50 * z, 4 * z, 255]
}

const VOLUME_FS: &str = "#version 330
uniform sampler3D s;
uniform vec3 dirs[16];
out vec4 color;
void main() {
    color = texture(s, dirs[int(gl_FragCoord.x)]);
}";

fn volume_images(threads: usize) -> Vec<Vec<[u8; 4]>> {
    let mut c = ctx(threads);
    let data: Vec<u8> = (0..4u8)
        .flat_map(|z| std::iter::repeat_n(slice_colour(z), 16).flatten())
        .collect();
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_3D, t);
    c.tex_image_3d(
        gl::TEXTURE_3D,
        0,
        gl::RGBA8 as i32,
        4,
        4,
        4,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        Some(&data),
    );
    set_filter(&mut c, gl::TEXTURE_3D, gl::NEAREST);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let mut images = Vec::new();
    // NEAREST: each slice at its centre; REPEAT in r wraps −0.1 to slice 3.
    let dirs = [
        [0.5, 0.5, 0.125],
        [0.5, 0.5, 0.375],
        [0.5, 0.5, 0.625],
        [0.5, 0.5, 0.875],
        [0.5, 0.5, -0.1],
    ];
    let got = shade(&mut c, VOLUME_FS, &dirs, None);
    assert_eq!(got[..5], [0, 1, 2, 3, 3].map(slice_colour));
    images.push(got);
    c.tex_parameter_i(gl::TEXTURE_3D, gl::TEXTURE_WRAP_R, gl::CLAMP_TO_EDGE as i32);
    let got = shade(&mut c, VOLUME_FS, &dirs, None);
    assert_eq!(got[4], slice_colour(0));
    // LINEAR half way between slices 1 and 2: their mean.
    set_filter(&mut c, gl::TEXTURE_3D, gl::LINEAR);
    let got = shade(&mut c, VOLUME_FS, &[[0.5, 0.5, 0.5]], None);
    assert_eq!(got[0], [100, 180, 6, 255]);
    images.push(got);
    // texelFetch and textureSize.
    let fs = "#version 330
uniform sampler3D s;
uniform vec3 dirs[16];
out vec4 color;
void main() {
    int x = int(gl_FragCoord.x);
    if (x == 0) {
        color = texelFetch(s, ivec3(1, 2, 3), 0);
    } else if (x == 1) {
        color = texelFetch(s, ivec3(1, 2, 4), 0);
    } else if (x == 6) {
        color = textureProj(s, vec4(1.0, 1.0, 0.75, 2.0));
    } else {
        color = vec4(vec3(textureSize(s, x - 2)), 1.0) / 255.0;
    }
}";
    let got = shade(&mut c, fs, &[], None);
    assert_eq!(got[0], slice_colour(3));
    assert_eq!(got[1], [0; 4]);
    assert_eq!(got[2][..3], [4, 4, 4]);
    assert_eq!(got[3][..3], [2, 2, 2]);
    assert_eq!(got[4][..3], [1, 1, 1]);
    assert_eq!(got[5][..3], [0, 0, 0]);
    assert_eq!(got[6], slice_colour(1));
    images.push(got);
    // GenerateMipmap in 3D: level 1 texel (1, 1, 1) averages slices 2 and 3.
    c.generate_mipmap(gl::TEXTURE_3D);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.tex_parameter_i(
        gl::TEXTURE_3D,
        gl::TEXTURE_MIN_FILTER,
        gl::NEAREST_MIPMAP_NEAREST as i32,
    );
    let fs = "#version 330
uniform sampler3D s;
uniform vec3 dirs[16];
out vec4 color;
void main() {
    color = textureLod(s, dirs[int(gl_FragCoord.x)], 1.0);
}";
    let got = shade(&mut c, fs, &[[0.9, 0.9, 0.9], [0.1, 0.1, 0.1]], None);
    assert_eq!(got[0], [160, 130, 10, 255]);
    assert_eq!(got[1], [40, 230, 2, 255]);
    let level2 = c.get_tex_image(gl::TEXTURE_3D, 2, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(level2, [100, 180, 6, 255]);
    images.push(got);
    // Bindless, on immutable storage.
    let v = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_3D, v);
    c.tex_storage_3d(gl::TEXTURE_3D, 3, gl::RGBA8, 4, 4, 4);
    c.tex_sub_image_3d(
        gl::TEXTURE_3D,
        0,
        [0, 0, 0],
        [4, 4, 4],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &data,
    );
    set_filter(&mut c, gl::TEXTURE_3D, gl::NEAREST);
    let h = c.get_texture_handle_arb(v);
    assert_ne!(h, 0);
    c.make_texture_handle_resident_arb(h);
    let fs = "#version 330
#extension GL_ARB_bindless_texture : require
layout(bindless_sampler) uniform sampler3D s;
uniform vec3 dirs[16];
out vec4 color;
void main() {
    color = texture(s, dirs[int(gl_FragCoord.x)]);
}";
    let got = shade(&mut c, fs, &dirs, Some(h));
    assert_eq!(got[..4], [0, 1, 2, 3].map(slice_colour));
    assert_eq!(
        c.get_tex_level_parameteriv(gl::TEXTURE_3D, 1, gl::TEXTURE_DEPTH),
        2
    );
    images.push(got);
    images
}

#[test]
fn volumes_sample_fetch_and_mipmap() {
    assert_eq!(volume_images(1), volume_images(2));
}

/// glCopyTexImage2D and glCopyTex(ture)SubImage2D/3D read the read framebuffer (here the
/// default one, after a draw that writes x·16 into red) into 2D levels, cube faces and 3D
/// slices, converting RGBA8 to RGBA32F; an integer texture refuses a colour copy.
#[test]
fn copies_from_the_read_framebuffer() {
    let mut c = ctx(2);
    let fs = "#version 330
out vec4 color;
void main() {
    color = vec4(floor(gl_FragCoord.x) * 16.0 / 255.0, 0.5, 1.0, 1.0);
}";
    let p = common::program(&mut c, VS, fs);
    c.use_program(p);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    let fb = c.read_pixels(0, 0, 16, 1, gl::RGBA, gl::UNSIGNED_BYTE);
    let px = |x: usize| [fb[4 * x], fb[4 * x + 1], fb[4 * x + 2], fb[4 * x + 3]];
    assert_eq!(px(3), [48, 128, 255, 255]);

    // CopyTexImage2D: a new 4×1 level from x = 2.
    let t = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, t);
    c.copy_tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, 2, 0, 4, 1, 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let got = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(got, [px(2), px(3), px(4), px(5)].concat());
    // CopyTexSubImage2D: two pixels from x = 10 to texel 1; past the framebuffer's edge
    // nothing is written.
    c.copy_tex_sub_image_2d(gl::TEXTURE_2D, 0, [1, 0], [10, 0, 2, 1]);
    c.copy_tex_sub_image_2d(gl::TEXTURE_2D, 0, [3, 0], [16, 0, 1, 1]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let got = c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(got, [px(2), px(10), px(11), px(5)].concat());
    c.copy_tex_sub_image_2d(gl::TEXTURE_2D, 0, [3, 0], [0, 0, 2, 1]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);

    // Into an RGBA32F cube face: converted to floats.
    let cube = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_CUBE_MAP, cube);
    c.tex_storage_2d(gl::TEXTURE_CUBE_MAP, 1, gl::RGBA32F, 2, 2);
    c.copy_tex_sub_image_2d(gl::TEXTURE_CUBE_MAP_NEGATIVE_X, 0, [0, 1], [7, 0, 2, 1]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let got = c.get_tex_image(
        gl::TEXTURE_CUBE_MAP_NEGATIVE_X,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
    );
    assert_eq!(got, [[0; 4], [0; 4], px(7), px(8)].concat());
    let other = c.get_tex_image(
        gl::TEXTURE_CUBE_MAP_POSITIVE_X,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
    );
    assert_eq!(other, vec![0; 16]);
    // CopyTexImage2D of a face.
    c.copy_tex_image_2d(gl::TEXTURE_CUBE_MAP_POSITIVE_Y, 0, gl::RGBA8, 0, 0, 1, 1, 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION); // immutable storage

    // Into slice 2 of a 3D texture, and through the DSA form into slice 0.
    let v = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_3D, v);
    c.tex_storage_3d(gl::TEXTURE_3D, 1, gl::RGBA8, 2, 1, 3);
    c.copy_tex_sub_image_3d(gl::TEXTURE_3D, 0, [0, 0, 2], [14, 0, 2, 1]);
    c.copy_texture_sub_image_3d(v, 0, [1, 0, 0], [1, 0, 1, 1]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let got = c.get_tex_image(gl::TEXTURE_3D, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(
        got,
        [[0; 4], px(1), [0; 4], [0; 4], px(14), px(15)].concat()
    );
    c.copy_tex_sub_image_3d(gl::TEXTURE_3D, 0, [0, 0, 3], [0, 0, 1, 1]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);

    // An integer texture does not take a normalized colour buffer (§8.6).
    let i = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D, i);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8UI, 2, 1);
    c.copy_tex_sub_image_2d(gl::TEXTURE_2D, 0, [0, 0], [0, 0, 2, 1]);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}
