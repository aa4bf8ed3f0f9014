//! Cull distances (GL 4.5 core §13.5, GL_ARB_cull_distance) through the public
//! `softgl::Context` API with the real GLSL front end and JIT: a primitive is discarded
//! when all its vertices have a negative value for the same gl_CullDistance element, and is
//! never cut (unlike clip distances); triangles, lines and points; the fragment shader's
//! interpolated gl_CullDistance / gl_ClipDistance; the limits and their compile errors.
//! Every image also at 2 threads, identical.

mod common;

use softgl::{enums as gl, Context};

const W: u32 = 16;
const H: u32 = 16;

const FS: &str = "#version 330
out vec4 c;
void main() { c = vec4(1.0, 0.0, 0.0, 1.0); }";

/// Plain positions, no distances: the reference drawings.
const VS: &str = "#version 330
layout(location = 0) in vec4 pos;
void main() { gl_Position = pos; }";

/// Distance 0 is `-(x + y) - 0.5`: negative at every vertex of the upper-right triangle of
/// the quad, positive at one vertex of the lower-left one.
const VS_CULL: &str = "#version 330
#extension GL_ARB_cull_distance : enable
layout(location = 0) in vec4 pos;
out float gl_CullDistance[1];
void main() {
    gl_Position = pos;
    gl_CullDistance[0] = -(pos.x + pos.y) - 0.5;
}";

/// Distance k is negative at the vertices whose `gl_VertexID % 3 == k` only when `mode` is
/// 0 (each vertex negative in one distance, no distance negative at all three: nothing is
/// culled); with `mode` 1 distance 2 is negative everywhere (everything is culled).
const VS_SPREAD: &str = "#version 450
layout(location = 0) in vec4 pos;
uniform int mode;
out float gl_CullDistance[3];
void main() {
    gl_Position = pos;
    for (int k = 0; k < 3; k++)
        gl_CullDistance[k] = gl_VertexID % 3 == k ? -1.0 : 1.0;
    if (mode == 1)
        gl_CullDistance[2] = -0.25;
}";

fn ctx(threads: usize, vs: &str, fs: &str) -> Context {
    let mut c = Context::with_threads(W, H, threads);
    let p = common::program(&mut c, vs, fs);
    c.use_program(p);
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, vbo);
    c.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 16, 0);
    c.enable_vertex_attrib_array(0);
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c
}

/// Draws `mode` primitives of clip-space positions `v` (x, y each; z 0, w 1).
fn draw(c: &mut Context, mode: u32, v: &[[f32; 2]]) {
    let b: Vec<u8> = v
        .iter()
        .flat_map(|p| [p[0], p[1], 0.0, 1.0])
        .flat_map(|f| f.to_le_bytes())
        .collect();
    c.buffer_data(
        gl::ARRAY_BUFFER,
        b.len() as isize,
        Some(&b),
        gl::STREAM_DRAW,
    );
    c.draw_arrays(mode, 0, v.len() as i32);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

fn read(c: &mut Context) -> Vec<u8> {
    c.read_pixels(0, 0, W as i32, H as i32, gl::RGBA, gl::UNSIGNED_BYTE)
}

/// Renders with `setup` at 1 and 2 threads; the images must be identical.
fn render(vs: &str, fs: &str, setup: impl Fn(&mut Context)) -> Vec<u8> {
    let mut one = ctx(1, vs, fs);
    setup(&mut one);
    let img = read(&mut one);
    let mut two = ctx(2, vs, fs);
    setup(&mut two);
    assert_eq!(read(&mut two), img, "1 vs 2 threads");
    img
}

fn drawn(img: &[u8]) -> usize {
    img.chunks_exact(4).filter(|p| p[3] != 0).count()
}

const LOWER_LEFT: [[f32; 2]; 3] = [[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]];
const UPPER_RIGHT: [[f32; 2]; 3] = [[1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];

#[test]
fn a_triangle_is_culled_only_when_all_its_vertices_are_negative() {
    let both: Vec<[f32; 2]> = LOWER_LEFT.iter().chain(&UPPER_RIGHT).copied().collect();
    let culled = render(VS_CULL, FS, |c| draw(c, gl::TRIANGLES, &both));
    // The lower-left triangle is drawn whole (a cull distance never cuts), exactly as
    // without any distance; the upper-right one is gone.
    let lower_left = render(VS, FS, |c| draw(c, gl::TRIANGLES, &LOWER_LEFT));
    assert_eq!(culled, lower_left);
    let full = render(VS, FS, |c| draw(c, gl::TRIANGLES, &both));
    assert_eq!(drawn(&full), (W * H) as usize);
    assert!(drawn(&culled) > 0 && drawn(&culled) < drawn(&full));
}

#[test]
fn only_one_distance_negative_at_every_vertex_culls() {
    let quad: Vec<[f32; 2]> = LOWER_LEFT.iter().chain(&UPPER_RIGHT).copied().collect();
    let full = render(VS, FS, |c| draw(c, gl::TRIANGLES, &quad));
    let set_mode = |c: &mut Context, m: i32| {
        let p = c.get_integerv(gl::CURRENT_PROGRAM)[0] as u32;
        let loc = c.get_uniform_location(p, "mode");
        c.uniform_1i(loc, m);
    };
    let spread = render(VS_SPREAD, FS, |c| {
        set_mode(c, 0);
        draw(c, gl::TRIANGLES, &quad);
    });
    assert_eq!(
        spread, full,
        "every vertex negative somewhere: nothing culled"
    );
    let all = render(VS_SPREAD, FS, |c| {
        set_mode(c, 1);
        draw(c, gl::TRIANGLES, &quad);
    });
    assert_eq!(drawn(&all), 0, "distance 2 negative everywhere: all culled");
}

#[test]
fn points_and_lines_are_culled_by_their_vertices() {
    // Points at (-0.5, -0.5) (distance 0.5: kept) and (0.5, 0.5) (distance -1.5: culled).
    let points = [[-0.5f32, -0.5], [0.5, 0.5]];
    let culled = render(VS_CULL, FS, |c| draw(c, gl::POINTS, &points));
    let kept = render(VS, FS, |c| draw(c, gl::POINTS, &points[..1]));
    assert!(drawn(&kept) >= 1);
    assert_eq!(culled, kept);
    // A line with one negative end is drawn whole; one with two is culled.
    let lines = [[-0.9f32, -0.3], [0.9, -0.3], [0.1, 0.6], [0.9, 0.6]];
    let culled = render(VS_CULL, FS, |c| draw(c, gl::LINES, &lines));
    let kept = render(VS, FS, |c| draw(c, gl::LINES, &lines[..2]));
    assert!(drawn(&kept) >= 14);
    assert_eq!(culled, kept);
}

#[test]
fn fragment_shaders_read_interpolated_distances() {
    // The same value through gl_CullDistance / gl_ClipDistance and through a user varying
    // must interpolate to the same bits.
    let vs = "#version 450
layout(location = 0) in vec4 pos;
out float gl_ClipDistance[2];
out float gl_CullDistance[3];
out float v[2];
void main() {
    gl_Position = pos;
    gl_ClipDistance[1] = pos.x * 0.5 + 0.5;
    gl_CullDistance[2] = pos.y * 0.25 + 0.5;
    v[0] = pos.x * 0.5 + 0.5;
    v[1] = pos.y * 0.25 + 0.5;
}";
    let fs_builtin = "#version 450
in float gl_ClipDistance[2];
in float gl_CullDistance[3];
out vec4 c;
void main() { c = vec4(gl_ClipDistance[1], gl_CullDistance[2], 0.0, 1.0); }";
    let fs_user = "#version 450
in float v[2];
out vec4 c;
void main() { c = vec4(v[0], v[1], 0.0, 1.0); }";
    let quad: Vec<[f32; 2]> = LOWER_LEFT.iter().chain(&UPPER_RIGHT).copied().collect();
    let a = render(vs, fs_builtin, |c| draw(c, gl::TRIANGLES, &quad));
    let b = render(vs, fs_user, |c| draw(c, gl::TRIANGLES, &quad));
    assert_eq!(a, b);
    // Not a constant: the red channel grows left to right.
    assert!(a[0] < a[(W as usize - 1) * 4]);
}

#[test]
fn limits_are_queried_and_checked_at_compile_time() {
    let mut c = Context::new(4, 4);
    assert_eq!(c.get_integerv(gl::MAX_CULL_DISTANCES), vec![8]);
    assert_eq!(
        c.get_integerv(gl::MAX_COMBINED_CLIP_AND_CULL_DISTANCES),
        vec![8]
    );
    let ext = "#extension GL_ARB_cull_distance : enable\n";
    for (version, decls, ok) in [
        ("450", "out float gl_CullDistance[8];", true),
        ("450", "out float gl_CullDistance[9];", false),
        (
            "450",
            "out float gl_CullDistance[2]; out float gl_ClipDistance[6];",
            true,
        ),
        (
            "450",
            "out float gl_ClipDistance[5]; out float gl_CullDistance[4];",
            false,
        ),
        ("450", "out int gl_CullDistance[2];", false),
        ("450", "in float gl_CullDistance[2];", false),
        (
            "450",
            "out float gl_CullDistance[gl_MaxCombinedClipAndCullDistances / 2]; \
             out float gl_ClipDistance[gl_MaxCullDistances - 4];",
            true,
        ),
        // Without GLSL 4.50 or the extension, gl_CullDistance does not exist.
        ("330", "", false),
        ("330", ext, true),
        ("130", ext, true),
    ] {
        let s = c.create_shader(gl::VERTEX_SHADER);
        let text = format!(
            "#version {version}\n{decls}\nin vec4 p;\n\
             void main() {{ gl_Position = p; gl_CullDistance[0] = 1.0; }}"
        );
        c.shader_source(s, &[&text]);
        c.compile_shader(s);
        assert_eq!(
            c.get_shaderiv(s, gl::COMPILE_STATUS) == 1,
            ok,
            "{text}: {}",
            c.get_shader_info_log(s)
        );
    }
    // The constants are constant expressions: they size arrays.
    let s = c.create_shader(gl::FRAGMENT_SHADER);
    let text = "#version 450
out vec4 o;
void main() {
    float a[gl_MaxCullDistances + gl_MaxCombinedClipAndCullDistances + gl_MaxClipDistances];
    o = vec4(float(a.length()) / 24.0);
}";
    c.shader_source(s, &[text]);
    c.compile_shader(s);
    assert_eq!(
        c.get_shaderiv(s, gl::COMPILE_STATUS),
        1,
        "{}",
        c.get_shader_info_log(s)
    );
}
