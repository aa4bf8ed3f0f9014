//! The built-in uniform `gl_DepthRange` (GLSL 1.10+, GLSL 4.60 §7.4) through the Rust
//! `Context`: every stage reads viewport 0's depth range as glDepthRange /
//! glDepthRangeIndexed(0, …) last set it (also when a geometry shader picks another
//! viewport: "Depth-range state is only for viewport 0"), a change between draws is seen
//! without a relink, its type `gl_DepthRangeParameters` is usable, and the built-in has no
//! location. Every scene is drawn with 1 and 2 threads, which must agree.

mod common;

use softgl::{enums as gl, Context};

const W: i32 = 8;

/// One big triangle over the viewport, at NDC z 0.
const VS: &str = "#version 150
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}";

/// (near, far, diff, 1) as the fragment shader sees them.
const FS: &str = "#version 150
out vec4 c;
void main() { c = vec4(gl_DepthRange.near, gl_DepthRange.far, gl_DepthRange.diff, 1.0); }";

fn compile(c: &mut Context, kind: u32, src: &str) -> u32 {
    let s = c.create_shader(kind);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    assert_eq!(
        c.get_shaderiv(s, gl::COMPILE_STATUS),
        1,
        "{}",
        c.get_shader_info_log(s)
    );
    s
}

fn use_program(c: &mut Context, shaders: &[(u32, &str)]) -> u32 {
    let p = c.create_program();
    for &(kind, src) in shaders {
        let s = compile(c, kind, src);
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

/// 255 · x rounded, as the UNORM8 colour store writes it.
fn unorm(x: f32) -> u8 {
    (x * 255.0).round() as u8
}

fn pixel(img: &[u8], x: i32, y: i32) -> [u8; 4] {
    let at = ((y * W + x) * 4) as usize;
    [img[at], img[at + 1], img[at + 2], img[at + 3]]
}

/// Draws `FS` once with depth range [0.2, 0.6], then (left half only, by scissor) with
/// [0.8, 0.4]: the second range must reach the shader without a relink.
fn two_ranges(threads: usize) -> Vec<u8> {
    let mut c = common::context(W as u32, W as u32, threads);
    use_program(
        &mut c,
        &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)],
    );
    c.depth_range(0.2, 0.6);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    c.enable(gl::SCISSOR_TEST);
    c.scissor(0, 0, W / 2, W);
    c.depth_range(0.8, 0.4);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_pixels(0, 0, W, W, gl::RGBA, gl::UNSIGNED_BYTE)
}

#[test]
fn fragment_shader_reads_the_current_depth_range() {
    let img = two_ranges(1);
    assert!(img == two_ranges(2), "1 and 2 threads differ");
    let first = [unorm(0.2), unorm(0.6), unorm(0.6 - 0.2), 255];
    // diff = far − near may be negative; the UNORM store clamps it to 0.
    let second = [unorm(0.8), unorm(0.4), 0, 255];
    for y in 0..W {
        for x in 0..W {
            let want = if x < W / 2 { second } else { first };
            assert_eq!(pixel(&img, x, y), want, "({x}, {y})");
        }
    }
}

#[test]
fn negative_diff_is_far_minus_near() {
    // diff of [0.8, 0.4] is −0.4: the shader adds 1 to make it visible.
    let mut c = common::context(W as u32, W as u32, 1);
    let fs = "#version 150
out vec4 c;
void main() { c = vec4(gl_DepthRange.diff + 1.0, 0.0, 0.0, 1.0); }";
    let p = common::program(&mut c, VS, fs);
    c.use_program(p);
    c.depth_range(0.8, 0.4);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    let img = c.read_pixels(0, 0, W, W, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(pixel(&img, 3, 3), [unorm(1.0 + (0.4 - 0.8)), 0, 0, 255]);
}

#[test]
fn vertex_stage_and_the_struct_type_see_it_too() {
    let vs = "#version 150
out vec3 v_range;
void main() {
    gl_DepthRangeParameters r = gl_DepthRange;
    v_range = vec3(r.near, r.far, r.diff);
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}";
    let fs = "#version 150
in vec3 v_range;
out vec4 c;
void main() { c = vec4(v_range, 1.0); }";
    let mut c = common::context(W as u32, W as u32, 1);
    let p = use_program(
        &mut c,
        &[(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)],
    );
    c.depth_range(0.25, 0.5);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    let img = c.read_pixels(0, 0, W, W, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(
        pixel(&img, 5, 2),
        [unorm(0.25), unorm(0.5), unorm(0.25), 255]
    );
    // GL 4.5 core §7.6: names starting with gl_ have no location.
    assert_eq!(c.get_uniform_location(p, "gl_DepthRange.near"), -1);
    assert_eq!(c.get_uniform_location(p, "gl_DepthRange"), -1);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// A geometry shader sends the triangle to viewport 1, whose depth range differs from
/// viewport 0's: gl_DepthRange still reads viewport 0's, gl_FragCoord.z uses viewport 1's.
fn other_viewport(threads: usize) -> Vec<u8> {
    let gs = "#version 150
#extension GL_ARB_viewport_array : require
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {
    for (int k = 0; k < 3; k++) {
        gl_ViewportIndex = 1;
        gl_Position = gl_in[k].gl_Position;
        EmitVertex();
    }
}";
    let fs = "#version 150
out vec4 c;
void main() { c = vec4(gl_DepthRange.near, gl_DepthRange.far, gl_FragCoord.z, 1.0); }";
    let mut c = common::context(W as u32, W as u32, threads);
    use_program(
        &mut c,
        &[
            (gl::VERTEX_SHADER, VS),
            (gl::GEOMETRY_SHADER, gs),
            (gl::FRAGMENT_SHADER, fs),
        ],
    );
    c.depth_range_indexed(0, 0.4, 0.6);
    c.viewport_indexedf(1, 0.0, 0.0, W as f32, W as f32);
    c.depth_range_indexed(1, 0.0, 0.2);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_pixels(0, 0, W, W, gl::RGBA, gl::UNSIGNED_BYTE)
}

#[test]
fn a_geometry_shader_viewport_still_reads_viewport_zero() {
    let img = other_viewport(1);
    assert!(img == other_viewport(2), "1 and 2 threads differ");
    // NDC z 0 in viewport 1's range [0, 0.2] is 0.1.
    assert_eq!(pixel(&img, 1, 6), [unorm(0.4), unorm(0.6), unorm(0.1), 255]);
}

#[test]
fn the_built_in_cannot_be_written_or_redeclared() {
    let mut c = common::context(W as u32, W as u32, 1);
    for src in [
        "#version 150\nout vec4 c;\nvoid main() { gl_DepthRange.near = 0.5; c = vec4(0.0); }",
        "#version 150\nstruct gl_DepthRangeParameters { float near; };\nout vec4 c;\nvoid main() { c = vec4(0.0); }",
        "#version 150\nuniform float gl_DepthRange;\nout vec4 c;\nvoid main() { c = vec4(0.0); }",
    ] {
        let s = c.create_shader(gl::FRAGMENT_SHADER);
        c.shader_source(s, &[src]);
        c.compile_shader(s);
        assert_eq!(c.get_shaderiv(s, gl::COMPILE_STATUS), 0, "{src}");
    }
}
