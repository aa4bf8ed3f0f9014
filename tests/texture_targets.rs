//! The texture targets and functions of issue #13 end to end through the Rust `Context`:
//! GL_TEXTURE_1D (sampler1D), GL_TEXTURE_1D_ARRAY (sampler1DArray), GL_TEXTURE_RECTANGLE
//! (sampler2DRect, unnormalized coordinates), GL_TEXTURE_CUBE_MAP_ARRAY (samplerCubeArray),
//! GL_TEXTURE_BUFFER (samplerBuffer, texels read from the buffer at draw time), and
//! textureGather / textureQueryLevels / textureQueryLod, each with the exact texels
//! expected (RGBA8 in and out, NEAREST) at 1 and 2 threads.

mod common;

use softgl::{enums as gl, Context};

const VS: &str = "#version 330
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.0, 1.0);
}";

/// Draws `fs` over a 16×1 target and returns the pixels.
fn shade(c: &mut Context, fs: &str) -> Vec<[u8; 4]> {
    let p = common::program(c, VS, fs);
    c.use_program(p);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_pixels(0, 0, 16, 1, gl::RGBA, gl::UNSIGNED_BYTE)
        .chunks(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect()
}

/// Texel i of a test row: distinct bytes per texel and channel.
fn texel(i: usize) -> [u8; 4] {
    [10 + 20 * i as u8, 200 - 10 * i as u8, 7 * i as u8, 255]
}

fn nearest(c: &mut Context, target: u32) {
    c.tex_parameter_i(target, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    c.tex_parameter_i(target, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32);
}

#[test]
fn one_d_textures_sample_fetch_and_size() {
    let row: Vec<u8> = (0..4).flat_map(texel).collect();
    for threads in [1, 2] {
        let mut c = common::context(16, 1, threads);
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_1D, t);
        c.tex_image_1d(
            gl::TEXTURE_1D,
            0,
            gl::RGBA8 as i32,
            4,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&row),
        );
        nearest(&mut c, gl::TEXTURE_1D);
        // Any TEXTURE_WRAP_T: a 1D texture has no t.
        c.tex_parameter_i(
            gl::TEXTURE_1D,
            gl::TEXTURE_WRAP_T,
            gl::CLAMP_TO_BORDER as i32,
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let px = shade(
            &mut c,
            "#version 330
uniform sampler1D s;
out vec4 color;
void main() { color = texture(s, gl_FragCoord.x / 16.0); }",
        );
        for (x, p) in px.iter().enumerate() {
            assert_eq!(*p, texel(x / 4), "texture at x = {x}, {threads} threads");
        }
        let px = shade(
            &mut c,
            "#version 330
uniform sampler1D s;
out vec4 color;
void main() {
    int x = int(gl_FragCoord.x);
    color = x < 4 ? texelFetch(s, x, 0) : vec4(float(textureSize(s, 0)) / 255.0);
}",
        );
        for (x, p) in px.iter().enumerate() {
            let want = if x < 4 { texel(x) } else { [4; 4] };
            assert_eq!(*p, want, "texelFetch/textureSize at x = {x}");
        }
        // glTexSubImage1D, then textureProj (s / q).
        c.tex_sub_image_1d(
            gl::TEXTURE_1D,
            None,
            0,
            2,
            1,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            &[1, 2, 3, 4],
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let px = shade(
            &mut c,
            "#version 330
uniform sampler1D s;
out vec4 color;
void main() { color = textureProj(s, vec2(gl_FragCoord.x / 8.0, 2.0)); }",
        );
        assert_eq!(px[9], [1, 2, 3, 4]);
        assert_eq!(px[3], texel(0));
    }
}

#[test]
fn one_d_arrays_pick_layers_by_row() {
    // 4 texels × 3 layers: layer l's texel i is texel(i + 4l)... within u8 range.
    let data: Vec<u8> = (0..3)
        .flat_map(|l| (0..4).flat_map(move |i| [i as u8 * 40 + 1, l as u8 * 80 + 2, 9, 255]))
        .collect();
    for threads in [1, 2] {
        let mut c = common::context(16, 1, threads);
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_1D_ARRAY, t);
        c.tex_storage_2d(gl::TEXTURE_1D_ARRAY, 1, gl::RGBA8, 4, 3);
        c.tex_sub_image_2d(
            gl::TEXTURE_1D_ARRAY,
            0,
            0,
            0,
            4,
            3,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            &data,
        );
        nearest(&mut c, gl::TEXTURE_1D_ARRAY);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(
            c.get_tex_level_parameteriv(gl::TEXTURE_1D_ARRAY, 0, gl::TEXTURE_HEIGHT),
            3
        );
        let px = shade(
            &mut c,
            "#version 330
uniform sampler1DArray s;
out vec4 color;
void main() {
    float x = floor(gl_FragCoord.x);
    // Layer coordinate x / 4 − 0.6: rounds to ⌊x/4 − 0.1⌋ clamped to [0, 2].
    vec4 t = texture(s, vec2(mod(x, 4.0) / 4.0 + 0.125, x / 4.0 - 0.6));
    ivec2 sz = textureSize(s, 0);
    color = x < 15.0 ? t : vec4(vec2(sz) / 255.0, 0.0, 1.0);
}",
        );
        for (x, p) in px.iter().enumerate() {
            let layer = ((x as f32 / 4.0 - 0.6 + 0.5).floor() as i32).clamp(0, 2) as u8;
            let want = if x < 15 {
                [(x % 4) as u8 * 40 + 1, layer * 80 + 2, 9, 255]
            } else {
                [4, 3, 0, 255]
            };
            assert_eq!(*p, want, "x = {x}, {threads} threads");
        }
        // texelFetch(ivec2(x, layer)); out-of-range layers read zeros.
        let px = shade(
            &mut c,
            "#version 330
uniform sampler1DArray s;
out vec4 color;
void main() { int x = int(gl_FragCoord.x); color = texelFetch(s, ivec2(x % 4, x / 4), 0); }",
        );
        for (x, p) in px.iter().enumerate() {
            let want = if x / 4 < 3 {
                [(x % 4) as u8 * 40 + 1, (x / 4) as u8 * 80 + 2, 9, 255]
            } else {
                [0; 4]
            };
            assert_eq!(*p, want, "texelFetch x = {x}");
        }
    }
}

#[test]
fn rectangle_textures_take_texel_coordinates() {
    // 5×2 (not a power of two): texel (i, j) = (20i + 1, 100j + 3, 7, 255).
    let data: Vec<u8> = (0..2)
        .flat_map(|j| (0..5).flat_map(move |i| [20 * i as u8 + 1, 100 * j as u8 + 3, 7, 255]))
        .collect();
    for threads in [1, 2] {
        let mut c = common::context(16, 1, threads);
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_RECTANGLE, t);
        c.tex_image_2d(
            gl::TEXTURE_RECTANGLE,
            0,
            gl::RGBA8 as i32,
            5,
            2,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&data),
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        // The initial state: LINEAR min filter, CLAMP_TO_EDGE wraps.
        assert_eq!(
            c.get_tex_parameteriv(gl::TEXTURE_RECTANGLE, gl::TEXTURE_MIN_FILTER),
            gl::LINEAR as i32
        );
        assert_eq!(
            c.get_tex_parameteriv(gl::TEXTURE_RECTANGLE, gl::TEXTURE_WRAP_S),
            gl::CLAMP_TO_EDGE as i32
        );
        // No repeat, no mipmaps, base level 0 (GL 4.5 core §8.10); level 0 only (§8.5).
        for wrap in [gl::REPEAT, gl::MIRRORED_REPEAT, gl::MIRROR_CLAMP_TO_EDGE] {
            for pname in [gl::TEXTURE_WRAP_S, gl::TEXTURE_WRAP_T, gl::TEXTURE_WRAP_R] {
                c.tex_parameter_i(gl::TEXTURE_RECTANGLE, pname, wrap as i32);
                assert_eq!(c.get_error(), gl::INVALID_ENUM, "wrap {wrap:#x}");
            }
        }
        c.tex_parameter_i(
            gl::TEXTURE_RECTANGLE,
            gl::TEXTURE_MIN_FILTER,
            gl::LINEAR_MIPMAP_LINEAR as i32,
        );
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.tex_parameter_i(gl::TEXTURE_RECTANGLE, gl::TEXTURE_BASE_LEVEL, 1);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.tex_image_2d(
            gl::TEXTURE_RECTANGLE,
            1,
            gl::RGBA8 as i32,
            2,
            1,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            None,
        );
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        nearest(&mut c, gl::TEXTURE_RECTANGLE);
        let px = shade(
            &mut c,
            "#version 330
uniform sampler2DRect s;
out vec4 color;
void main() {
    float x = floor(gl_FragCoord.x);
    // Texel edges and centres: s = x / 3 reaches integers at x = 0, 3, 6, ...
    vec4 t = texture(s, vec2(x / 3.0, 1.0 + x / 16.0));
    color = x < 15.0 ? t : vec4(vec2(textureSize(s)) / 255.0, 0.0, 1.0);
}",
        );
        for (x, p) in px.iter().enumerate() {
            let i = ((x as f32 / 3.0).floor() as i32).clamp(0, 4) as u8;
            let want = if x < 15 {
                [20 * i + 1, 103, 7, 255]
            } else {
                [5, 2, 0, 255]
            };
            assert_eq!(*p, want, "x = {x}, {threads} threads");
        }
        // GLSL 1.10's names (ARB_texture_rectangle) sample the same texels; the projective
        // form divides by q = 2 exactly.
        let legacy = shade(
            &mut c,
            "#version 330
uniform sampler2DRect s;
out vec4 color;
void main() {
    float x = floor(gl_FragCoord.x);
    vec2 st = vec2(x / 3.0, 1.0 + x / 16.0);
    color = x < 8.0 ? texture2DRect(s, st) : texture2DRectProj(s, vec3(st * 2.0, 2.0));
}",
        );
        assert_eq!(legacy[..15], px[..15], "{threads} threads");
        let px = shade(
            &mut c,
            "#version 330
uniform sampler2DRect s;
out vec4 color;
void main() { int x = int(gl_FragCoord.x); color = texelFetch(s, ivec2(x % 5, x / 5)); }",
        );
        for (x, p) in px.iter().enumerate() {
            let want = if x < 10 {
                [20 * (x % 5) as u8 + 1, 100 * (x / 5) as u8 + 3, 7, 255]
            } else {
                [0; 4]
            };
            assert_eq!(*p, want, "texelFetch x = {x}");
        }
    }
}

/// Cube c's face f colour in the cube-array test.
fn face_colour(c: usize, f: usize) -> [u8; 4] {
    [100 * c as u8 + 10 * f as u8 + 5, 40 * f as u8, 3, 255]
}

#[test]
fn cube_map_arrays_pick_the_cube_then_the_face() {
    // 2 cubes of 2×2 faces, each face one colour.
    let data: Vec<u8> = (0..12)
        .flat_map(|lf| std::iter::repeat_n(face_colour(lf / 6, lf % 6), 4).flatten())
        .collect();
    for threads in [1, 2] {
        let mut c = common::context(16, 1, threads);
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_CUBE_MAP_ARRAY, t);
        c.tex_image_3d(
            gl::TEXTURE_CUBE_MAP_ARRAY,
            0,
            gl::RGBA8 as i32,
            2,
            2,
            12,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&data),
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        // Layer-faces must be a multiple of 6.
        c.tex_image_3d(
            gl::TEXTURE_CUBE_MAP_ARRAY,
            0,
            gl::RGBA8 as i32,
            2,
            2,
            7,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            None,
        );
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        nearest(&mut c, gl::TEXTURE_CUBE_MAP_ARRAY);
        let px = shade(
            &mut c,
            "#version 400
uniform samplerCubeArray s;
out vec4 color;
void main() {
    int x = int(gl_FragCoord.x);
    int f = x % 6;
    vec3 d = f == 0 ? vec3(1, 0.1, 0.2) : f == 1 ? vec3(-1, 0.1, 0.2) : f == 2 ? vec3(0.1, 1, 0.2)
           : f == 3 ? vec3(0.1, -1, 0.2) : f == 4 ? vec3(0.1, 0.2, 1) : vec3(0.1, 0.2, -1);
    vec4 t = texture(s, vec4(d, float(x / 6)));
    color = x < 15 ? t : vec4(vec3(textureSize(s, 0)) / 255.0, 1.0);
}",
        );
        for (x, p) in px.iter().enumerate() {
            let want = if x < 15 {
                face_colour((x / 6).min(1), x % 6)
            } else {
                [2, 2, 2, 255]
            };
            assert_eq!(*p, want, "x = {x}, {threads} threads");
        }
    }
}

#[test]
fn buffer_textures_read_the_buffer_at_draw_time() {
    let data: Vec<u8> = (0..6).flat_map(texel).collect();
    for threads in [1, 2] {
        let mut c = common::context(16, 1, threads);
        let b = c.gen_buffers(1)[0];
        c.bind_buffer(gl::TEXTURE_BUFFER, b);
        c.buffer_data(
            gl::TEXTURE_BUFFER,
            data.len() as isize,
            Some(&data),
            gl::STATIC_DRAW,
        );
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_BUFFER, t);
        // Before glTexBuffer: format R8, no buffer (ARB_texture_buffer_object's glGet
        // state and glGetTexLevelParameter).
        assert_eq!(
            c.get_integerv(gl::TEXTURE_BUFFER_FORMAT_ARB),
            [gl::R8 as i32]
        );
        assert_eq!(c.get_integerv(gl::TEXTURE_BUFFER_DATA_STORE_BINDING), [0]);
        assert_eq!(
            c.get_tex_level_parameteriv(gl::TEXTURE_BUFFER, 0, gl::TEXTURE_INTERNAL_FORMAT),
            gl::R8 as i32
        );
        c.tex_buffer(gl::TEXTURE_BUFFER, gl::RGBA8, b);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(
            c.get_integerv(gl::TEXTURE_BUFFER_FORMAT_ARB),
            [gl::RGBA8 as i32]
        );
        assert_eq!(
            c.get_integerv(gl::TEXTURE_BUFFER_DATA_STORE_BINDING),
            [b as i32]
        );
        assert_eq!(
            c.get_tex_level_parameteriv(gl::TEXTURE_BUFFER, 0, gl::TEXTURE_INTERNAL_FORMAT),
            gl::RGBA8 as i32
        );
        // Detaching (buffer 0) keeps the format it names.
        c.tex_buffer(gl::TEXTURE_BUFFER, gl::RG16F, 0);
        assert_eq!(
            c.get_integerv(gl::TEXTURE_BUFFER_FORMAT_ARB),
            [gl::RG16F as i32]
        );
        assert_eq!(c.get_integerv(gl::TEXTURE_BUFFER_DATA_STORE_BINDING), [0]);
        c.tex_buffer(gl::TEXTURE_BUFFER, gl::RGBA8, b);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        // Not a table 8.16 format; a range not aligned to TEXTURE_BUFFER_OFFSET_ALIGNMENT.
        c.tex_buffer(gl::TEXTURE_BUFFER, gl::RGB8, b);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.tex_buffer_range(gl::TEXTURE_BUFFER, gl::RGBA8, b, 4, 8);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        let fs = "#version 330
uniform samplerBuffer s;
out vec4 color;
void main() {
    int x = int(gl_FragCoord.x);
    color = x < 15 ? texelFetch(s, x) : vec4(float(textureSize(s)) / 255.0);
}";
        let px = shade(&mut c, fs);
        for (x, p) in px.iter().enumerate() {
            let want = match x {
                0..6 => texel(x),
                15 => [6; 4],
                _ => [0; 4],
            };
            assert_eq!(*p, want, "x = {x}, {threads} threads");
        }
        // A buffer write between draws is seen by the next draw.
        c.buffer_sub_data(gl::TEXTURE_BUFFER, 8, &[9, 8, 7, 6]);
        let px = shade(&mut c, fs);
        assert_eq!(px[2], [9, 8, 7, 6]);
        assert_eq!(px[1], texel(1));
        // A 16-byte aligned range: texels 4 and 5.
        c.tex_buffer_range(gl::TEXTURE_BUFFER, gl::RGBA8, b, 16, 8);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let px = shade(&mut c, fs);
        assert_eq!(&px[..3], &[texel(4), texel(5), [0; 4]]);
        assert_eq!(px[15], [2; 4]);
        // Integer texels come back unconverted (RGBA32UI through usamplerBuffer).
        let words: Vec<u8> = [7u32, 300, 65536, 1]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        c.buffer_data(gl::TEXTURE_BUFFER, 16, Some(&words), gl::STATIC_DRAW);
        c.tex_buffer(gl::TEXTURE_BUFFER, gl::RGBA32UI, b);
        let px = shade(
            &mut c,
            "#version 330
uniform usamplerBuffer s;
out vec4 color;
void main() { uvec4 v = texelFetch(s, 0); color = vec4(v.x == 7u, v.y == 300u, v.z == 65536u, v.w); }",
        );
        assert_eq!(px[0], [255, 255, 255, 255]);
    }
}

#[test]
fn gather_and_level_queries() {
    // 2×2 RGBA8: T(i, j) = (10 + 40i + 80j, 1 + i + 2j, 0, 255).
    let t2 = |i: u8, j: u8| [10 + 40 * i + 80 * j, 1 + i + 2 * j, 0, 255];
    let data: Vec<u8> = [t2(0, 0), t2(1, 0), t2(0, 1), t2(1, 1)].concat();
    for threads in [1, 2] {
        let mut c = common::context(16, 1, threads);
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, t);
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8 as i32,
            2,
            2,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&data),
        );
        c.generate_mipmap(gl::TEXTURE_2D);
        c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_WRAP_S, gl::CLAMP_TO_EDGE as i32);
        c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_WRAP_T, gl::CLAMP_TO_EDGE as i32);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let px = shade(
            &mut c,
            "#version 430
uniform sampler2D s;
out vec4 color;
void main() {
    int x = int(gl_FragCoord.x);
    // The footprint of the centre: i0 = j0 = 0 (T01, T11, T10, T00 of component x).
    vec4 g = x == 0 ? textureGather(s, vec2(0.5)) : textureGather(s, vec2(0.5), 1);
    // textureGatherOffset moves the footprint one texel left: clamped to the edge.
    vec4 o = textureGatherOffset(s, vec2(0.5), ivec2(-1, 0));
    color = x == 0 ? g : x == 1 ? g * 50.0 : x == 2 ? o
          : vec4(float(textureQueryLevels(s)) / 255.0);
}",
        );
        // Component 0 (red), as unorm: (T01.r, T11.r, T10.r, T00.r).
        assert_eq!(px[0], [90, 130, 50, 10], "{threads} threads");
        // Component 1 (green) times 50: (3, 4, 2, 1) · 50.
        assert_eq!(px[1], [150, 200, 100, 50], "{threads} threads");
        // Offset −1 in x with CLAMP_TO_EDGE: columns −1 → 0 and 0: (T00, T00, ...) rows 1/0.
        assert_eq!(px[2], [90, 90, 10, 10]);
        // Two levels: 2×2 and 1×1.
        assert_eq!(px[3], [2; 4]);
        // textureQueryLod: magnified quad (λ < 0) → level 0, λ' = log2(2/16) = −3.
        let px = shade(
            &mut c,
            "#version 400
uniform sampler2D s;
out vec4 color;
void main() {
    vec2 q = textureQueryLod(s, gl_FragCoord.xy / 16.0);
    color = vec4(q.x, -q.y / 4.0, 0.0, 1.0);
}",
        );
        assert_eq!(px[0], [0, 191, 0, 255]);
    }
}
