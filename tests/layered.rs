//! Layered rendering and viewport selection through the Rust `Context` (GL 4.5 core §9.8
//! layered framebuffers, §13.6.1 viewport arrays; GLSL 1.50 gl_Layer, GLSL 4.10 /
//! GL_ARB_viewport_array gl_ViewportIndex, GLSL 4.30 / GL_ARB_fragment_layer_viewport
//! reading both in the fragment shader): a geometry shader's gl_Layer picks the array
//! layer, 3D slice, cube face or cube-array layer-face of each primitive, depth and
//! stencil layers included; its gl_ViewportIndex picks the viewport, scissor rectangle and
//! depth range; out-of-range values pick what llvmpipe picks; a non-layered framebuffer
//! ignores gl_Layer; the fragment shader reads what the geometry shader wrote (0 without
//! one). Every scene is rendered with 1 and 2 threads, which must agree.

mod common;

use softgl::{enums as gl, Context};

const W: i32 = 8;
const TEXELS: usize = (W * W) as usize;

/// One big triangle over the whole viewport, from gl_VertexID.
const VS: &str = "#version 150
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}";

/// Emits the input triangle once per layer `0..n`, each with gl_Layer = `first + l` and
/// the colour of `l` (`colour`), at depth `z0 + dz l` (NDC).
const GS_LAYERS: &str = "#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 48) out;
uniform int n;
uniform int first;
uniform float z0;
uniform float dz;
out vec4 g_col;
void main() {
    for (int l = 0; l < n; l++) {
        for (int k = 0; k < 3; k++) {
            gl_Layer = first + l;
            g_col = vec4(float(l * 20 + 10) / 255.0, float(200 - l * 10) / 255.0, 0.0, 1.0);
            gl_Position = vec4(gl_in[k].gl_Position.xy, z0 + dz * float(l), 1.0);
            EmitVertex();
        }
        EndPrimitive();
    }
}";

const FS_COL: &str = "#version 150
in vec4 g_col;
out vec4 c;
void main() { c = g_col; }";

/// The colour `GS_LAYERS` gives its `l`-th primitive.
fn colour(l: i32) -> [u8; 4] {
    [(l * 20 + 10) as u8, (200 - l * 10) as u8, 0, 255]
}

fn compile(c: &mut Context, kind: u32, src: &str) -> (u32, bool, String) {
    let s = c.create_shader(kind);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    let ok = c.get_shaderiv(s, gl::COMPILE_STATUS) == 1;
    (s, ok, c.get_shader_info_log(s))
}

/// The linked program of `shaders` (each must compile and the link succeed), in use.
fn use_program(c: &mut Context, shaders: &[(u32, &str)]) -> u32 {
    let p = c.create_program();
    for &(kind, src) in shaders {
        let (s, ok, log) = compile(c, kind, src);
        assert!(ok, "{log}");
        c.attach_shader(p, s);
    }
    c.link_program(p);
    assert_eq!(
        c.get_programiv(p, gl::LINK_STATUS),
        1,
        "{}",
        c.get_program_info_log(p)
    );
    c.use_program(p);
    p
}

fn set_int(c: &mut Context, p: u32, name: &str, v: i32) {
    let loc = c.get_uniform_location(p, name);
    c.uniform_1i(loc, v);
}

fn set_float(c: &mut Context, p: u32, name: &str, v: f32) {
    let loc = c.get_uniform_location(p, name);
    c.uniform_1f(loc, v);
}

/// A texture of `target` (`layers` layers, ignored for cube maps) in `format`, one level.
fn texture(c: &mut Context, target: u32, format: u32, layers: i32) -> u32 {
    let t = c.gen_textures(1)[0];
    c.bind_texture(target, t);
    if target == gl::TEXTURE_CUBE_MAP {
        c.tex_storage_2d(target, 1, format, W, W);
    } else {
        c.tex_storage_3d(target, 1, format, W, W, layers);
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
    t
}

/// A context with a framebuffer object bound.
fn fbo_context(threads: usize) -> Context {
    let mut c = common::context(W as u32, W as u32, threads);
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    c
}

/// glGetTexImage of level 0 of `target` as RGBA8 (every layer, or one cube face).
fn rgba(c: &mut Context, target: u32, t: u32) -> Vec<u8> {
    let bind =
        if (gl::TEXTURE_CUBE_MAP_POSITIVE_X..=gl::TEXTURE_CUBE_MAP_NEGATIVE_Z).contains(&target) {
            gl::TEXTURE_CUBE_MAP
        } else {
            target
        };
    c.bind_texture(bind, t);
    let v = c.get_tex_image(target, 0, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    v
}

fn solid(rgba: [u8; 4]) -> Vec<u8> {
    rgba.repeat(TEXELS)
}

/// Draws `GS_LAYERS` with `n` layers from `first` into a layered colour attachment of
/// `target` with `layers` layers, cleared to grey first; every layer's bytes, in order.
fn draw_layers(threads: usize, target: u32, layers: i32, n: i32, first: i32) -> Vec<Vec<u8>> {
    let mut c = fbo_context(threads);
    let t = texture(&mut c, target, gl::RGBA8, layers);
    c.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, t, 0);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    let p = use_program(
        &mut c,
        &[
            (gl::VERTEX_SHADER, VS),
            (gl::GEOMETRY_SHADER, GS_LAYERS),
            (gl::FRAGMENT_SHADER, FS_COL),
        ],
    );
    set_int(&mut c, p, "n", n);
    set_int(&mut c, p, "first", first);
    set_float(&mut c, p, "z0", 0.0);
    c.clear_color(0.5, 0.5, 0.5, 0.5);
    c.clear(gl::COLOR_BUFFER_BIT);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    if target == gl::TEXTURE_CUBE_MAP {
        (0..6)
            .map(|f| rgba(&mut c, gl::TEXTURE_CUBE_MAP_POSITIVE_X + f, t))
            .collect()
    } else {
        let all = rgba(&mut c, target, t);
        all.chunks(TEXELS * 4).map(<[u8]>::to_vec).collect()
    }
}

/// `draw_layers` at 1 and 2 threads, which must agree.
fn draw_layers_both(target: u32, layers: i32, n: i32, first: i32) -> Vec<Vec<u8>> {
    let one = draw_layers(1, target, layers, n, first);
    let two = draw_layers(2, target, layers, n, first);
    assert!(one == two, "1 and 2 threads differ");
    one
}

const GREY: [u8; 4] = [128, 128, 128, 128];

#[test]
fn gl_layer_picks_array_layers_3d_slices_cube_faces_and_cube_array_layer_faces() {
    for (target, layers) in [
        (gl::TEXTURE_2D_ARRAY, 4),
        (gl::TEXTURE_3D, 4),
        (gl::TEXTURE_CUBE_MAP, 6),
        (gl::TEXTURE_CUBE_MAP_ARRAY, 12),
    ] {
        // Every layer but the last drawn: the last keeps the clear (which reached it).
        let got = draw_layers_both(target, layers, layers - 1, 0);
        assert_eq!(got.len(), layers as usize);
        for (l, img) in got.iter().enumerate() {
            let want = if l as i32 == layers - 1 {
                solid(GREY)
            } else {
                solid(colour(l as i32))
            };
            assert!(*img == want, "target {target:#x} layer {l}");
        }
    }
}

#[test]
fn only_the_chosen_layers_are_drawn_and_order_within_a_layer_is_kept() {
    // Layers 1 and 2 of 4: the others keep the clear.
    let got = draw_layers_both(gl::TEXTURE_2D_ARRAY, 4, 2, 1);
    assert!(got[0] == solid(GREY));
    assert!(got[1] == solid(colour(0)));
    assert!(got[2] == solid(colour(1)));
    assert!(got[3] == solid(GREY));
}

#[test]
fn out_of_range_layers_go_to_the_last_layer_as_in_llvmpipe() {
    // GL 4.5 core §9.8 leaves them undefined; llvmpipe clamps the unsigned value to the
    // last layer, so 5, 6 and -1 (the last drawn) all land on layer 3.
    let got = draw_layers_both(gl::TEXTURE_2D_ARRAY, 4, 2, 5);
    assert!(got[3] == solid(colour(1)));
    assert!(got[..3].iter().all(|l| *l == solid(GREY)));
    let got = draw_layers_both(gl::TEXTURE_2D_ARRAY, 4, 1, -1);
    assert!(got[3] == solid(colour(0)));
    assert!(got[..3].iter().all(|l| *l == solid(GREY)));
}

#[test]
fn a_non_layered_framebuffer_ignores_gl_layer() {
    for threads in [1, 2] {
        // One layer of an array attached alone, and the default framebuffer: every
        // primitive lands there, the last drawn on top.
        let mut c = fbo_context(threads);
        let t = texture(&mut c, gl::TEXTURE_2D_ARRAY, gl::RGBA8, 3);
        c.framebuffer_texture_layer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, t, 0, 1);
        let p = use_program(
            &mut c,
            &[
                (gl::VERTEX_SHADER, VS),
                (gl::GEOMETRY_SHADER, GS_LAYERS),
                (gl::FRAGMENT_SHADER, FS_COL),
            ],
        );
        set_int(&mut c, p, "n", 3);
        set_int(&mut c, p, "first", 0);
        c.draw_arrays(gl::TRIANGLES, 0, 3);
        let all = rgba(&mut c, gl::TEXTURE_2D_ARRAY, t);
        assert!(all[..TEXELS * 4] == vec![0; TEXELS * 4]);
        assert!(all[TEXELS * 4..TEXELS * 8] == solid(colour(2)));
        assert!(all[TEXELS * 8..] == vec![0; TEXELS * 4]);
        c.bind_framebuffer(gl::FRAMEBUFFER, 0);
        c.draw_arrays(gl::TRIANGLES, 0, 3);
        let got = c.read_pixels(0, 0, W, W, gl::RGBA, gl::UNSIGNED_BYTE);
        assert!(got == solid(colour(2)));
        assert_eq!(c.get_error(), gl::NO_ERROR);
    }
}

/// Layered colour and depth (2D arrays of 3): glClear reaches every depth layer, and each
/// primitive is depth-tested and written in its own layer only.
fn depth_scene(threads: usize) -> (Vec<u8>, Vec<u8>) {
    let mut c = fbo_context(threads);
    let col = texture(&mut c, gl::TEXTURE_2D_ARRAY, gl::RGBA8, 3);
    let d = texture(&mut c, gl::TEXTURE_2D_ARRAY, gl::DEPTH_COMPONENT32F, 3);
    c.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, col, 0);
    c.framebuffer_texture(gl::FRAMEBUFFER, gl::DEPTH_ATTACHMENT, d, 0);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    let p = use_program(
        &mut c,
        &[
            (gl::VERTEX_SHADER, VS),
            (gl::GEOMETRY_SHADER, GS_LAYERS),
            (gl::FRAGMENT_SHADER, FS_COL),
        ],
    );
    c.enable(gl::DEPTH_TEST);
    c.clear_depth(0.5);
    c.clear_color(0.5, 0.5, 0.5, 0.5);
    c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT);
    // Layer l at NDC z -0.75 + 0.25 l: window depths 0.125, 0.25, 0.375, all in front of
    // the cleared 0.5.
    set_int(&mut c, p, "n", 3);
    set_int(&mut c, p, "first", 0);
    set_float(&mut c, p, "z0", -0.75);
    set_float(&mut c, p, "dz", 0.25);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    // Layer l at window depth 0.25 + 0.125 l (0.25, 0.375, 0.5): behind what the first
    // draw left in the same layer (0.125, 0.25, 0.375), so GL_LESS keeps the first draw's
    // depths.
    set_float(&mut c, p, "z0", -0.5);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    let colours = rgba(&mut c, gl::TEXTURE_2D_ARRAY, col);
    c.bind_texture(gl::TEXTURE_2D_ARRAY, d);
    let depths = c.get_tex_image(gl::TEXTURE_2D_ARRAY, 0, gl::DEPTH_COMPONENT, gl::FLOAT);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    (colours, depths)
}

#[test]
fn depth_layers_are_cleared_tested_and_written_per_layer() {
    let (colours, depths) = depth_scene(1);
    assert!((colours.clone(), depths.clone()) == depth_scene(2));
    for l in 0..3 {
        let img = &colours[l * TEXELS * 4..(l + 1) * TEXELS * 4];
        assert!(*img == solid(colour(l as i32)), "layer {l}");
        let z = &depths[l * TEXELS * 4..(l + 1) * TEXELS * 4];
        let want = 0.125 * (l + 1) as f32;
        assert!(
            z.chunks(4)
                .all(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]) == want),
            "depth layer {l}"
        );
    }
}

/// A layered DEPTH24_STENCIL8 array with the depth test on: each layer's stencil is
/// replaced by its own reference where the depth test passes, and a second pass tests
/// against it (the stencil is the depth image's, not dropped as a different one).
fn stencil_scene(threads: usize) -> Vec<u8> {
    let mut c = fbo_context(threads);
    let col = texture(&mut c, gl::TEXTURE_2D_ARRAY, gl::RGBA8, 2);
    let ds = texture(&mut c, gl::TEXTURE_2D_ARRAY, gl::DEPTH24_STENCIL8, 2);
    c.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, col, 0);
    c.framebuffer_texture(gl::FRAMEBUFFER, gl::DEPTH_STENCIL_ATTACHMENT, ds, 0);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    let p = use_program(
        &mut c,
        &[
            (gl::VERTEX_SHADER, VS),
            (gl::GEOMETRY_SHADER, GS_LAYERS),
            (gl::FRAGMENT_SHADER, FS_COL),
        ],
    );
    c.enable(gl::DEPTH_TEST);
    c.enable(gl::STENCIL_TEST);
    c.clear_stencil(0);
    c.clear_depth(1.0);
    c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT);
    // Only layer 1 (first = 1, one primitive) writes stencil 7.
    c.stencil_func(gl::ALWAYS, 7, 0xFF);
    c.stencil_op(gl::KEEP, gl::KEEP, gl::REPLACE);
    set_int(&mut c, p, "n", 1);
    set_int(&mut c, p, "first", 1);
    set_float(&mut c, p, "z0", 0.0);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    // Both layers, where the stencil is 7 and the depth test passes (GL_ALWAYS): layer 1
    // only, in colour 1.
    c.depth_func(gl::ALWAYS);
    c.stencil_func(gl::EQUAL, 7, 0xFF);
    c.stencil_op(gl::KEEP, gl::KEEP, gl::KEEP);
    set_int(&mut c, p, "n", 2);
    set_int(&mut c, p, "first", 0);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    rgba(&mut c, gl::TEXTURE_2D_ARRAY, col)
}

#[test]
fn stencil_layers_are_tested_and_written_per_layer() {
    let got = stencil_scene(1);
    assert!(got == stencil_scene(2));
    assert!(got[..TEXELS * 4] == vec![0; TEXELS * 4]);
    assert!(got[TEXELS * 4..] == solid(colour(1)));
}

/// The fragment shader's gl_Layer and gl_ViewportIndex as colours.
const FS_READS: &str = "#version 150
#extension GL_ARB_fragment_layer_viewport : require
out vec4 c;
void main() {
    c = vec4(float(gl_Layer * 20 + 10) / 255.0, float(gl_ViewportIndex * 20 + 10) / 255.0,
             0.0, 1.0);
}";

#[test]
fn the_fragment_shader_reads_the_layer_the_geometry_shader_wrote() {
    for threads in [1, 2] {
        let mut c = fbo_context(threads);
        let t = texture(&mut c, gl::TEXTURE_2D_ARRAY, gl::RGBA8, 4);
        c.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, t, 0);
        let p = use_program(
            &mut c,
            &[
                (gl::VERTEX_SHADER, VS),
                (gl::GEOMETRY_SHADER, GS_LAYERS),
                (gl::FRAGMENT_SHADER, FS_READS),
            ],
        );
        // Layers 1..4 and then 6, which draws into layer 3 but reads 6 (the value written,
        // GL_ARB_fragment_layer_viewport, "even if that value is out of range").
        set_int(&mut c, p, "n", 3);
        set_int(&mut c, p, "first", 1);
        c.draw_arrays(gl::TRIANGLES, 0, 3);
        set_int(&mut c, p, "n", 1);
        set_int(&mut c, p, "first", 6);
        c.draw_arrays(gl::TRIANGLES, 0, 3);
        let all = rgba(&mut c, gl::TEXTURE_2D_ARRAY, t);
        let want = |layer: u8| solid([layer * 20 + 10, 10, 0, 255]);
        assert!(all[..TEXELS * 4] == vec![0; TEXELS * 4]);
        assert!(all[TEXELS * 4..TEXELS * 8] == want(1));
        assert!(all[TEXELS * 8..TEXELS * 12] == want(2));
        assert!(all[TEXELS * 12..] == want(6));
        assert_eq!(c.get_error(), gl::NO_ERROR);
    }
}

#[test]
fn without_a_geometry_shader_the_fragment_shader_reads_zero() {
    let mut c = common::context(W as u32, W as u32, 1);
    let fs = "#version 430
out vec4 c;
void main() {
    c = vec4(float(gl_Layer * 20 + 10) / 255.0, float(gl_ViewportIndex * 20 + 10) / 255.0,
             0.0, 1.0);
}";
    let p = common::program(&mut c, VS, fs);
    c.use_program(p);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    let got = c.read_pixels(0, 0, W, W, gl::RGBA, gl::UNSIGNED_BYTE);
    assert!(got == solid([10, 10, 0, 255]));
}

/// Emits the input triangle once per viewport `0..n` with gl_ViewportIndex = `first + i`
/// and the colour of `i`, at NDC z 0 (window z: the middle of that viewport's range).
const GS_VIEWPORTS: &str = "#version 150
#extension GL_ARB_viewport_array : require
layout(triangles) in;
layout(triangle_strip, max_vertices = 48) out;
uniform int n;
uniform int first;
out vec4 g_col;
void main() {
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            gl_ViewportIndex = first + i;
            g_col = vec4(float(i * 20 + 10) / 255.0, 0.0, 0.0, 1.0);
            gl_Position = gl_in[k].gl_Position;
            EmitVertex();
        }
        EndPrimitive();
    }
}";

/// Red from the geometry shader, green from gl_ViewportIndex read back, blue and alpha
/// from the window depth.
const FS_VIEWPORTS: &str = "#version 410
#extension GL_ARB_fragment_layer_viewport : require
in vec4 g_col;
out vec4 c;
void main() {
    c = vec4(g_col.r, float(gl_ViewportIndex * 20 + 10) / 255.0, gl_FragCoord.z, 1.0);
}";

/// A 16×16 colour target cut into four 8×8 viewports (index i at quadrant i), each with
/// its depth range [i/5, i/5]; viewport 1 scissored to its lower-left 4×4 and viewport 3
/// to a box that misses it; then the draw of `n` primitives from viewport `first`.
fn viewport_scene(threads: usize, n: i32, first: i32) -> Vec<u8> {
    let mut c = common::context(16, 16, threads);
    let p = use_program(
        &mut c,
        &[
            (gl::VERTEX_SHADER, VS),
            (gl::GEOMETRY_SHADER, GS_VIEWPORTS),
            (gl::FRAGMENT_SHADER, FS_VIEWPORTS),
        ],
    );
    for i in 0..4u32 {
        let (x, y) = ((i % 2) as f32 * 8.0, (i / 2) as f32 * 8.0);
        c.viewport_indexedf(i, x, y, 8.0, 8.0);
        let z = f64::from(i) / 5.0;
        c.depth_range_indexed(i, z, z);
    }
    c.scissor_indexed(1, 8, 0, 4, 4);
    c.enablei(gl::SCISSOR_TEST, 1);
    c.scissor_indexed(3, 0, 0, 16, 8);
    c.enablei(gl::SCISSOR_TEST, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    set_int(&mut c, p, "n", n);
    set_int(&mut c, p, "first", first);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_pixels(0, 0, 16, 16, gl::RGBA, gl::UNSIGNED_BYTE)
}

fn pixel(img: &[u8], x: usize, y: usize) -> [u8; 4] {
    let at = (y * 16 + x) * 4;
    [img[at], img[at + 1], img[at + 2], img[at + 3]]
}

#[test]
fn gl_viewport_index_picks_viewport_scissor_and_depth_range() {
    let img = viewport_scene(1, 4, 0);
    assert!(img == viewport_scene(2, 4, 0), "1 and 2 threads differ");
    // Blue: round(255 · i/5) for depth range [i/5, i/5].
    let depth = |i: u8| (f32::from(i) / 5.0 * 255.0).round() as u8;
    let drawn = |i: u8| [i * 20 + 10, i * 20 + 10, depth(i), 255];
    for y in 0..16 {
        for x in 0..16 {
            let quadrant = (x / 8 + 2 * (y / 8)) as u8;
            let want = match quadrant {
                // Viewport 1's scissor keeps x 8..12, y 0..4.
                1 if !(x < 12 && y < 4) => [0; 4],
                // Viewport 3's scissor (y < 8) misses its quadrant.
                3 => [0; 4],
                q => drawn(q),
            };
            assert_eq!(pixel(&img, x, y), want, "({x}, {y})");
        }
    }
}

#[test]
fn out_of_range_viewport_indices_pick_viewport_0_as_in_llvmpipe() {
    // GL 4.5 core §13.6.1 leaves them undefined; llvmpipe uses viewport 0 (its scissor
    // and depth range too), while the fragment shader still reads the value written.
    for first in [16, -1] {
        let img = viewport_scene(1, 1, first);
        assert!(img == viewport_scene(2, 1, first));
        // float(first * 20 + 10) / 255, clamped by the unorm store.
        let read = if first > 0 { 255 } else { 0 };
        for y in 0..16 {
            for x in 0..16 {
                let want = if x < 8 && y < 8 {
                    [10, read, 0, 255]
                } else {
                    [0; 4]
                };
                assert_eq!(pixel(&img, x, y), want, "index {first} ({x}, {y})");
            }
        }
    }
}

#[test]
fn an_empty_viewport_0_does_not_stop_the_others() {
    let mut c = common::context(16, 16, 1);
    let p = use_program(
        &mut c,
        &[
            (gl::VERTEX_SHADER, VS),
            (gl::GEOMETRY_SHADER, GS_VIEWPORTS),
            (gl::FRAGMENT_SHADER, FS_VIEWPORTS),
        ],
    );
    c.viewport_indexedf(0, 0.0, 0.0, 0.0, 0.0);
    c.viewport_indexedf(2, 0.0, 8.0, 16.0, 8.0);
    set_int(&mut c, p, "n", 1);
    set_int(&mut c, p, "first", 2);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    let img = c.read_pixels(0, 0, 16, 16, gl::RGBA, gl::UNSIGNED_BYTE);
    for y in 0..16 {
        for x in 0..16 {
            let want = if y >= 8 { [10, 50, 128, 255] } else { [0; 4] };
            assert_eq!(pixel(&img, x, y), want, "({x}, {y})");
        }
    }
}

#[test]
fn the_built_ins_need_their_version_or_extension() {
    let mut c = common::context(4, 4, 1);
    let gs = |body: &str, ext: &str| {
        format!(
            "#version 150\n{ext}\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n\
             void main() {{ {body} EmitVertex(); }}"
        )
    };
    let cases = [
        (gl::GEOMETRY_SHADER, gs("gl_Layer = 1;", ""), true),
        (gl::GEOMETRY_SHADER, gs("gl_ViewportIndex = 1;", ""), false),
        (
            gl::GEOMETRY_SHADER,
            gs(
                "gl_ViewportIndex = gl_MaxViewports - 1;",
                "#extension GL_ARB_viewport_array : enable",
            ),
            true,
        ),
        (
            gl::FRAGMENT_SHADER,
            "#version 150\nout vec4 c;\nvoid main() { c = vec4(gl_Layer); }".to_string(),
            false,
        ),
        (
            gl::FRAGMENT_SHADER,
            "#version 150\nout vec4 c;\nvoid main() { c = vec4(gl_ViewportIndex); }".to_string(),
            false,
        ),
        (
            gl::FRAGMENT_SHADER,
            "#version 430\nout vec4 c;\nvoid main() { c = vec4(gl_Layer + gl_ViewportIndex); }"
                .to_string(),
            true,
        ),
        // gl_Layer is an input there: not writable.
        (
            gl::FRAGMENT_SHADER,
            "#version 430\nout vec4 c;\nvoid main() { gl_Layer = 1; c = vec4(1.0); }".to_string(),
            false,
        ),
    ];
    for (kind, src, ok) in cases {
        let (_, compiled, log) = compile(&mut c, kind, &src);
        assert_eq!(compiled, ok, "{src}\n{log}");
    }
}

#[test]
fn the_provoking_vertex_queries_name_the_provoking_vertex() {
    let mut c = common::context(4, 4, 1);
    for pname in [
        gl::LAYER_PROVOKING_VERTEX,
        gl::VIEWPORT_INDEX_PROVOKING_VERTEX,
    ] {
        assert_eq!(c.get_integerv(pname), vec![gl::PROVOKING_VERTEX as i32]);
    }
}

/// A layered 4-sample 2D multisample array (GL_RGBA): each sample of the layer gl_Layer picks is
/// drawn, and a glClear reaches every sample of every layer; each layer is resolved by a
/// blit of it (glFramebufferTextureLayer) into a single-sample texture.
fn multisample_scene(threads: usize) -> Vec<Vec<u8>> {
    let mut c = fbo_context(threads);
    let ms = c.gen_textures(1)[0];
    c.bind_texture(gl::TEXTURE_2D_MULTISAMPLE_ARRAY, ms);
    // The unsized base format: colour-renderable (GL 4.5 core §9.4), so
    // glTexImage3DMultisample takes it (glTexStorage3DMultisample would not).
    c.tex_storage_3d_multisample(gl::TEXTURE_2D_MULTISAMPLE_ARRAY, 4, gl::RGBA, W, W, 3, true);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.tex_image_3d_multisample(gl::TEXTURE_2D_MULTISAMPLE_ARRAY, 4, gl::RGBA, W, W, 3, true);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, ms, 0);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    let p = use_program(
        &mut c,
        &[
            (gl::VERTEX_SHADER, VS),
            (gl::GEOMETRY_SHADER, GS_LAYERS),
            (gl::FRAGMENT_SHADER, FS_COL),
        ],
    );
    c.clear_color(0.5, 0.5, 0.5, 0.5);
    c.clear(gl::COLOR_BUFFER_BIT);
    // Layers 1 and 2 in colours 0 and 1; layer 0 keeps the clear.
    set_int(&mut c, p, "n", 2);
    set_int(&mut c, p, "first", 1);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let resolved = texture(&mut c, gl::TEXTURE_2D_ARRAY, gl::RGBA8, 1);
    let fbs = c.gen_framebuffers(2);
    let mut out = Vec::new();
    for l in 0..3 {
        c.bind_framebuffer(gl::READ_FRAMEBUFFER, fbs[0]);
        c.framebuffer_texture_layer(gl::READ_FRAMEBUFFER, gl::COLOR_ATTACHMENT0, ms, 0, l);
        c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, fbs[1]);
        c.framebuffer_texture_layer(gl::DRAW_FRAMEBUFFER, gl::COLOR_ATTACHMENT0, resolved, 0, 0);
        c.blit_framebuffer(0, 0, W, W, 0, 0, W, W, gl::COLOR_BUFFER_BIT, gl::NEAREST);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        out.push(rgba(&mut c, gl::TEXTURE_2D_ARRAY, resolved));
    }
    out
}

#[test]
fn multisample_layers_are_drawn_and_cleared_sample_by_sample() {
    let got = multisample_scene(1);
    assert!(got == multisample_scene(2));
    // Every sample of a pixel alike, so the resolve is exact.
    assert!(got[0] == solid(GREY), "layer 0");
    assert!(got[1] == solid(colour(0)), "layer 1");
    assert!(got[2] == solid(colour(1)), "layer 2");
}

/// A vertex shader that writes gl_Layer and gl_ViewportIndex (GL_ARB_shader_viewport_layer_array):
/// triangle t (vertices 3t..3t+2) covers the viewport and goes to layer `t` and viewport
/// `t % 2`, coloured by t.
const VS_SELECTS: &str = "#version 150
#extension GL_ARB_shader_viewport_layer_array : require
out vec4 v_col;
void main() {
    int t = gl_VertexID / 3;
    int k = gl_VertexID % 3;
    gl_Position = vec4(k == 1 ? 3.0 : -1.0, k == 2 ? 3.0 : -1.0, 0.0, 1.0);
    gl_Layer = t;
    gl_ViewportIndex = t % 2;
    v_col = vec4(float(t * 20 + 10) / 255.0, float(200 - t * 10) / 255.0, 0.0, 1.0);
}";

const FS_V: &str = "#version 150
#extension GL_ARB_fragment_layer_viewport : require
in vec4 v_col;
out vec4 c;
void main() { c = vec4(v_col.rg, float(gl_ViewportIndex * 20 + 10) / 255.0, 1.0); }";

/// Three triangles from the vertex shader into a 3-layer array: viewport 0 the left half,
/// viewport 1 the right half.
fn vertex_select_scene(threads: usize) -> Vec<u8> {
    let mut c = fbo_context(threads);
    let t = texture(&mut c, gl::TEXTURE_2D_ARRAY, gl::RGBA8, 3);
    c.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, t, 0);
    let p = common::program(&mut c, VS_SELECTS, FS_V);
    c.use_program(p);
    let half = (W / 2) as f32;
    c.viewport_indexedf(0, 0.0, 0.0, half, W as f32);
    c.viewport_indexedf(1, half, 0.0, half, W as f32);
    c.draw_arrays(gl::TRIANGLES, 0, 9);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    rgba(&mut c, gl::TEXTURE_2D_ARRAY, t)
}

#[test]
fn a_vertex_shader_picks_layers_and_viewports() {
    let got = vertex_select_scene(1);
    assert!(got == vertex_select_scene(2));
    for l in 0..3usize {
        let img = &got[l * TEXELS * 4..(l + 1) * TEXELS * 4];
        let [r, g, _, _] = colour(l as i32);
        let vp = (l % 2) as u8;
        for (i, px) in img.chunks(4).enumerate() {
            let left = (i % W as usize) < (W / 2) as usize;
            let want = if left == (vp == 0) {
                [r, g, vp * 20 + 10, 255]
            } else {
                [0; 4]
            };
            assert_eq!(px, want, "layer {l} texel {i}");
        }
    }
}

#[test]
fn vertex_shader_writes_need_an_extension() {
    let mut c = common::context(4, 4, 1);
    let vs = |ext: &str, body: &str| {
        format!("#version 150\n{ext}\nvoid main() {{ gl_Position = vec4(0.0); {body} }}")
    };
    let cases = [
        (vs("", "gl_Layer = 1;"), false),
        (vs("", "gl_ViewportIndex = 1;"), false),
        (
            vs(
                "#extension GL_AMD_vertex_shader_layer : enable",
                "gl_Layer = 1;",
            ),
            true,
        ),
        (
            vs(
                "#extension GL_AMD_vertex_shader_layer : enable",
                "gl_ViewportIndex = 1;",
            ),
            false,
        ),
        (
            vs(
                "#extension GL_AMD_vertex_shader_viewport_index : enable",
                "gl_ViewportIndex = 1;",
            ),
            true,
        ),
        (
            vs(
                "#extension GL_ARB_shader_viewport_layer_array : enable",
                "gl_Layer = 1; gl_ViewportIndex = 1;",
            ),
            true,
        ),
        // Members of a gl_PerVertex redeclaration where the stage may write them.
        (
            "#version 150\n#extension GL_AMD_vertex_shader_layer : enable\n\
             out gl_PerVertex { vec4 gl_Position; int gl_Layer; };\n\
             void main() { gl_Layer = 2; }"
                .to_string(),
            true,
        ),
        (
            "#version 150\nout gl_PerVertex { vec4 gl_Position; int gl_Layer; };\n\
             void main() { }"
                .to_string(),
            false,
        ),
    ];
    for (src, ok) in cases {
        let (_, compiled, log) = compile(&mut c, gl::VERTEX_SHADER, &src);
        assert_eq!(compiled, ok, "{src}\n{log}");
    }
}
