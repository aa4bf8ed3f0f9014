//! Issue #12 item 1 through the public `softgl::Context` API with the real GLSL front end and
//! JIT: points (glPointSize, gl_PointSize, gl_PointCoord with both origins), lines (width 1
//! and wide, strips, loops, interpolation along the segment), primitive restart with every
//! index type, adjacency modes, polygon mode, their state queries and errors, and the same
//! images with 1 and 2 threads. Pixel sets are exact: they follow the rules written in
//! `src/raster/points.rs` and `src/raster/lines.rs`.

use std::collections::BTreeSet;

use softgl::{enums as gl, Context};

const W: u32 = 32;
const H: u32 = 32;

const VS: &str = "#version 330
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 2) in float size;
out vec4 v_col;
void main() { gl_Position = pos; gl_PointSize = size; v_col = col; }";

const FS: &str = "#version 330
in vec4 v_col;
out vec4 c;
void main() { c = v_col; }";

const FS_SPRITE: &str = "#version 330
out vec4 c;
void main() { c = vec4(gl_PointCoord, 0.0, 1.0); }";

/// One vertex: window position (pixels), colour, point size.
#[derive(Copy, Clone)]
struct V {
    x: f32,
    y: f32,
    col: [f32; 4],
    size: f32,
}

fn v(x: f32, y: f32) -> V {
    V {
        x,
        y,
        col: [1.0, 1.0, 1.0, 1.0],
        size: 1.0,
    }
}

fn program(c: &mut Context, fs: &str) -> u32 {
    let p = c.create_program();
    for (ty, src) in [(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, fs)] {
        let s = c.create_shader(ty);
        c.shader_source(s, &[src]);
        c.compile_shader(s);
        assert_ne!(
            c.get_shaderiv(s, gl::COMPILE_STATUS),
            0,
            "{}",
            c.get_shader_info_log(s)
        );
        c.attach_shader(p, s);
    }
    c.link_program(p);
    assert_ne!(
        c.get_programiv(p, gl::LINK_STATUS),
        0,
        "{}",
        c.get_program_info_log(p)
    );
    p
}

/// A context of `threads` workers with `fs` in use and a VAO with its array buffer bound.
fn ctx(threads: usize, fs: &str) -> Context {
    let mut c = Context::with_threads(W, H, threads);
    let p = program(&mut c, fs);
    c.use_program(p);
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, vbo);
    let ebo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, ebo);
    for (i, n, off) in [(0, 4, 0), (1, 4, 16), (2, 1, 32)] {
        c.vertex_attrib_pointer(i, n, gl::FLOAT, false, 36, off);
        c.enable_vertex_attrib_array(i);
    }
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c
}

fn upload(c: &mut Context, verts: &[V]) {
    let mut b = Vec::new();
    for q in verts {
        let pos = [
            q.x * 2.0 / W as f32 - 1.0,
            q.y * 2.0 / H as f32 - 1.0,
            0.0,
            1.0,
        ];
        for f in pos.iter().chain(&q.col).chain([&q.size]) {
            b.extend(f.to_le_bytes());
        }
    }
    c.buffer_data(
        gl::ARRAY_BUFFER,
        b.len() as isize,
        Some(&b),
        gl::STREAM_DRAW,
    );
}

fn draw(c: &mut Context, mode: u32, verts: &[V]) {
    upload(c, verts);
    c.draw_arrays(mode, 0, verts.len() as i32);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

fn read(c: &mut Context) -> Vec<[u8; 4]> {
    c.read_pixels(0, 0, W as i32, H as i32, gl::RGBA, gl::UNSIGNED_BYTE)
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect()
}

fn pixel(img: &[[u8; 4]], x: i32, y: i32) -> [u8; 4] {
    img[(y as u32 * W + x as u32) as usize]
}

/// The pixels with anything drawn.
fn covered(c: &mut Context) -> BTreeSet<(i32, i32)> {
    let img = read(c);
    (0..H as i32)
        .flat_map(|y| (0..W as i32).map(move |x| (x, y)))
        .filter(|&(x, y)| pixel(&img, x, y)[3] != 0)
        .collect()
}

fn rect(x0: i32, y0: i32, x1: i32, y1: i32) -> BTreeSet<(i32, i32)> {
    (y0..=y1)
        .flat_map(|y| (x0..=x1).map(move |x| (x, y)))
        .collect()
}

/// The spec's point square: pixel centres inside it, ties on its left and top edges in.
fn square(cx: f32, cy: f32, size: f32) -> BTreeSet<(i32, i32)> {
    let h = size / 2.0;
    let mut s = BTreeSet::new();
    for y in 0..H as i32 {
        for x in 0..W as i32 {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            if cx - h <= px && px < cx + h && cy - h < py && py <= cy + h {
                s.insert((x, y));
            }
        }
    }
    s
}

#[test]
fn points_cover_the_square_of_their_size() {
    for (cx, cy, size, want) in [
        (10.5, 10.5, 1.0, rect(10, 10, 10, 10)),
        (10.5, 10.5, 2.0, rect(9, 10, 10, 11)),
        (10.5, 10.5, 3.0, rect(9, 9, 11, 11)),
        (10.5, 10.5, 7.0, rect(7, 7, 13, 13)),
        (10.0, 10.0, 1.0, rect(9, 10, 9, 10)),
        (10.0, 10.0, 2.0, rect(9, 9, 10, 10)),
        (10.0, 10.0, 3.0, rect(8, 9, 10, 11)),
        (10.0, 10.0, 4.0, rect(8, 8, 11, 11)),
        (10.25, 10.75, 2.5, square(10.25, 10.75, 2.5)),
    ] {
        assert_eq!(square(cx, cy, size), want, "reference {cx} {cy} {size}");
        let mut c = ctx(1, FS);
        c.point_size(size);
        draw(&mut c, gl::POINTS, &[v(cx, cy)]);
        assert_eq!(covered(&mut c), want, "point at ({cx}, {cy}) size {size}");
    }
}

#[test]
fn program_point_size_takes_gl_point_size_clamped() {
    let mut c = ctx(1, FS);
    let big = V {
        size: 5.0,
        ..v(10.5, 10.5)
    };
    // Off: glPointSize (1).
    draw(&mut c, gl::POINTS, &[big]);
    assert_eq!(covered(&mut c), rect(10, 10, 10, 10));
    c.clear(gl::COLOR_BUFFER_BIT);
    c.enable(gl::PROGRAM_POINT_SIZE);
    draw(&mut c, gl::POINTS, &[big]);
    assert_eq!(covered(&mut c), rect(8, 8, 12, 12));
    // Sizes below 1 draw at 1.
    c.clear(gl::COLOR_BUFFER_BIT);
    draw(&mut c, gl::POINTS, &[V { size: 0.2, ..big }]);
    assert_eq!(covered(&mut c), rect(10, 10, 10, 10));
}

#[test]
fn points_whose_centre_is_outside_the_clip_volume_are_discarded() {
    let mut c = ctx(1, FS);
    c.point_size(6.0);
    // Centres off the window draw nothing (GL 4.5 core §13.5, as llvmpipe), one just inside
    // draws the part of its square on the window: [29, 35) × (2, 8] → columns 29 to 31,
    // rows 2 to 7.
    draw(
        &mut c,
        gl::POINTS,
        &[v(-1.0, 5.0), v(40.0, 5.0), v(5.0, 32.5), v(32.0, 5.0)],
    );
    assert_eq!(covered(&mut c), rect(29, 2, 31, 7));
}

#[test]
fn point_coord_runs_across_the_sprite_from_either_origin() {
    for lower_left in [false, true] {
        let mut c = ctx(1, FS_SPRITE);
        c.point_size(4.0);
        if lower_left {
            c.point_parameter_f(gl::POINT_SPRITE_COORD_ORIGIN, gl::LOWER_LEFT as f32);
        }
        draw(&mut c, gl::POINTS, &[v(16.0, 16.0)]);
        let img = read(&mut c);
        // s = 1/2 + (x + 1/2 - 16) / 4: 0.125, 0.375, 0.625, 0.875 → 32, 96, 159, 223.
        let unorm = [32u8, 96, 159, 223];
        for i in 0..4 {
            for j in 0..4 {
                let (x, y) = (14 + i, 14 + j);
                let t = if lower_left {
                    unorm[j as usize]
                } else {
                    unorm[3 - j as usize]
                };
                assert_eq!(
                    pixel(&img, x, y),
                    [unorm[i as usize], t, 0, 255],
                    "({x}, {y}) lower_left {lower_left}"
                );
            }
        }
        assert_eq!(
            c.get_integerv(gl::POINT_SPRITE_COORD_ORIGIN),
            [if lower_left {
                gl::LOWER_LEFT
            } else {
                gl::UPPER_LEFT
            } as i32]
        );
    }
}

#[test]
fn point_varyings_are_the_vertex_values() {
    let mut c = ctx(1, FS);
    c.point_size(3.0);
    let col = [0.2, 0.4, 0.6, 0.8];
    draw(&mut c, gl::POINTS, &[V { col, ..v(5.5, 5.5) }]);
    let img = read(&mut c);
    let want = col.map(|f| (f * 255.0f32).round() as u8);
    for (x, y) in rect(4, 4, 6, 6) {
        assert_eq!(pixel(&img, x, y), want);
    }
}

fn line_pixels(mode: u32, verts: &[V], width: f32) -> BTreeSet<(i32, i32)> {
    let mut c = ctx(1, FS);
    c.line_width(width);
    draw(&mut c, mode, verts);
    covered(&mut c)
}

#[test]
fn width_one_lines_draw_the_start_pixel_and_not_the_end() {
    let h = |x0, x1, y| rect(x0, y, x1, y);
    let vv = |x, y0, y1| rect(x, y0, x, y1);
    // Horizontal, both directions.
    assert_eq!(
        line_pixels(gl::LINES, &[v(2.5, 5.5), v(10.5, 5.5)], 1.0),
        h(2, 9, 5)
    );
    assert_eq!(
        line_pixels(gl::LINES, &[v(10.5, 5.5), v(2.5, 5.5)], 1.0),
        h(3, 10, 5)
    );
    // Vertical, both directions.
    assert_eq!(
        line_pixels(gl::LINES, &[v(5.5, 2.5), v(5.5, 10.5)], 1.0),
        vv(5, 2, 9)
    );
    assert_eq!(
        line_pixels(gl::LINES, &[v(5.5, 10.5), v(5.5, 2.5)], 1.0),
        vv(5, 3, 10)
    );
    // Diagonal through pixel centres.
    let diag: BTreeSet<_> = (2..10).map(|k| (k, k)).collect();
    assert_eq!(
        line_pixels(gl::LINES, &[v(2.5, 2.5), v(10.5, 10.5)], 1.0),
        diag
    );
    // Ends off the pixel centres and outside their diamonds: the columns whose centres
    // lie in [2, 9).
    assert_eq!(
        line_pixels(gl::LINES, &[v(2.0, 5.2), v(9.0, 5.2)], 1.0),
        h(2, 8, 5)
    );
    // An end inside its diamond (2.3, 5.4) starts at its pixel.
    assert_eq!(
        line_pixels(gl::LINES, &[v(2.7, 5.4), v(9.3, 5.6)], 1.0),
        h(2, 8, 5)
    );
    // A shallow slope steps one row halfway.
    assert_eq!(
        line_pixels(gl::LINES, &[v(0.5, 4.5), v(8.5, 5.5)], 1.0),
        [h(0, 3, 4), h(4, 7, 5)].concat_sets()
    );
}

trait Concat {
    fn concat_sets(self) -> BTreeSet<(i32, i32)>;
}

impl<const N: usize> Concat for [BTreeSet<(i32, i32)>; N] {
    fn concat_sets(self) -> BTreeSet<(i32, i32)> {
        self.into_iter().flatten().collect()
    }
}

#[test]
fn wide_lines_cover_width_pixels_across_the_minor_axis() {
    assert_eq!(
        line_pixels(gl::LINES, &[v(2.5, 5.5), v(10.5, 5.5)], 3.0),
        rect(2, 4, 9, 6)
    );
    assert_eq!(
        line_pixels(gl::LINES, &[v(5.5, 2.5), v(5.5, 10.5)], 2.0),
        rect(4, 2, 5, 9)
    );
    // Widths clamp to the range; GL_LINE_WIDTH keeps the value given.
    let mut c = ctx(1, FS);
    c.line_width(1000.0);
    assert_eq!(c.get_floatv(gl::LINE_WIDTH), [1000.0]);
    assert_eq!(c.get_floatv(gl::ALIASED_LINE_WIDTH_RANGE), [1.0, 255.0]);
}

#[test]
fn strips_and_loops_hit_each_pixel_once() {
    // Additive blending: a pixel drawn twice would read 2 × 64.
    let verts = [v(2.5, 2.5), v(10.5, 2.5), v(10.5, 10.5)];
    for mode in [gl::LINE_STRIP, gl::LINE_LOOP] {
        let mut c = ctx(1, FS);
        c.enable(gl::BLEND);
        c.blend_func(gl::ONE, gl::ONE);
        let q = |p: V| V {
            col: [0.25, 0.25, 0.25, 0.25],
            ..p
        };
        draw(&mut c, mode, &verts.map(q));
        let img = read(&mut c);
        let mut want = [rect(2, 2, 9, 2), rect(10, 2, 10, 9)].concat_sets();
        if mode == gl::LINE_LOOP {
            // The closing segment runs from (10.5, 10.5) back to (2.5, 2.5).
            want.extend((3..=10).map(|k| (k, k)));
        }
        for y in 0..H as i32 {
            for x in 0..W as i32 {
                let p = pixel(&img, x, y);
                let want_px = if want.contains(&(x, y)) { 64 } else { 0 };
                assert_eq!(p[0], want_px, "({x}, {y}) mode {mode:#x}");
            }
        }
    }
}

#[test]
fn line_varyings_follow_the_position_along_the_segment() {
    let mut c = ctx(1, FS);
    let a = V {
        col: [0.0, 1.0, 0.0, 1.0],
        ..v(0.5, 5.5)
    };
    let b = V {
        col: [1.0, 0.0, 0.0, 1.0],
        ..v(16.5, 5.5)
    };
    draw(&mut c, gl::LINES, &[a, b]);
    let img = read(&mut c);
    // t = x / 16 at pixel x.
    assert_eq!(pixel(&img, 0, 5), [0, 255, 0, 255]);
    assert_eq!(pixel(&img, 4, 5), [64, 191, 0, 255]);
    assert_eq!(pixel(&img, 12, 5), [191, 64, 0, 255]);
}

/// Indices of two strips of two triangles (0 1 2 3) and (4 5 6 7), `r` between them
/// (vertex 8, when not a restart, pulls a triangle to the right edge).
fn restart_indices(r: u32) -> Vec<u32> {
    vec![0, 1, 2, 3, r, 4, 5, 6, 7]
}

fn quads() -> Vec<V> {
    let mut out = Vec::new();
    for (x0, y0) in [(2.0, 2.0), (12.0, 14.0)] {
        for (dx, dy) in [(0.0, 0.0), (9.0, 0.0), (0.0, 7.0), (9.0, 7.0)] {
            out.push(v(x0 + dx, y0 + dy));
        }
    }
    out.push(v(30.0, 2.0));
    out
}

fn draw_indexed(c: &mut Context, mode: u32, ty: u32, idx: &[u32]) {
    let b: Vec<u8> = match ty {
        gl::UNSIGNED_BYTE => idx.iter().map(|&i| i as u8).collect(),
        gl::UNSIGNED_SHORT => idx.iter().flat_map(|&i| (i as u16).to_le_bytes()).collect(),
        _ => idx.iter().flat_map(|&i| i.to_le_bytes()).collect(),
    };
    c.buffer_data(
        gl::ELEMENT_ARRAY_BUFFER,
        b.len() as isize,
        Some(&b),
        gl::STREAM_DRAW,
    );
    c.draw_elements(mode, idx.len() as i32, ty, 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn primitive_restart_splits_strips_for_every_index_type() {
    // Reference: the two strips drawn separately.
    let mut c = ctx(1, FS);
    upload(&mut c, &quads());
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    c.draw_arrays(gl::TRIANGLE_STRIP, 4, 4);
    let want = covered(&mut c);
    assert_eq!(
        want,
        [rect(2, 2, 10, 8), rect(12, 14, 20, 20)].concat_sets()
    );
    for (ty, fixed) in [
        (gl::UNSIGNED_BYTE, 0xFF),
        (gl::UNSIGNED_SHORT, 0xFFFF),
        (gl::UNSIGNED_INT, 0xFFFF_FFFF),
    ] {
        // The fixed index.
        let mut c = ctx(1, FS);
        upload(&mut c, &quads());
        c.enable(gl::PRIMITIVE_RESTART_FIXED_INDEX);
        draw_indexed(&mut c, gl::TRIANGLE_STRIP, ty, &restart_indices(fixed));
        assert_eq!(covered(&mut c), want, "fixed index, type {ty:#x}");
        // GL_PRIMITIVE_RESTART_INDEX (the fixed index wins when both are on).
        let mut c = ctx(1, FS);
        upload(&mut c, &quads());
        c.enable(gl::PRIMITIVE_RESTART);
        c.primitive_restart_index(8);
        draw_indexed(&mut c, gl::TRIANGLE_STRIP, ty, &restart_indices(8));
        assert_eq!(covered(&mut c), want, "restart index, type {ty:#x}");
        // Without restart the index is vertex 8 and the strip joins the two quads.
        c.disable(gl::PRIMITIVE_RESTART);
        c.clear(gl::COLOR_BUFFER_BIT);
        draw_indexed(&mut c, gl::TRIANGLE_STRIP, ty, &restart_indices(8));
        assert_ne!(covered(&mut c), want, "no restart, type {ty:#x}");
    }
}

#[test]
fn primitive_restart_drops_partial_list_primitives_and_restarts_lines() {
    let mut c = ctx(1, FS);
    upload(&mut c, &quads());
    c.enable(gl::PRIMITIVE_RESTART);
    c.primitive_restart_index(100);
    // Triangles (0 1 2), then a partial (3 4) cut off, then (5 6 7).
    draw_indexed(
        &mut c,
        gl::TRIANGLES,
        gl::UNSIGNED_INT,
        &[0, 1, 2, 3, 4, 100, 5, 6, 7],
    );
    let mut r = ctx(1, FS);
    upload(&mut r, &quads());
    r.draw_arrays(gl::TRIANGLES, 0, 3);
    r.draw_arrays(gl::TRIANGLES, 5, 3);
    assert_eq!(covered(&mut c), covered(&mut r));

    // A line strip restarted: (0 1) and (2 3), never (1 2).
    let pts = [v(2.5, 2.5), v(10.5, 2.5), v(2.5, 6.5), v(10.5, 6.5)];
    let mut c = ctx(1, FS);
    upload(&mut c, &pts);
    c.enable(gl::PRIMITIVE_RESTART_FIXED_INDEX);
    draw_indexed(
        &mut c,
        gl::LINE_STRIP,
        gl::UNSIGNED_SHORT,
        &[0, 1, 0xFFFF, 2, 3],
    );
    assert_eq!(
        covered(&mut c),
        [rect(2, 2, 9, 2), rect(2, 6, 9, 6)].concat_sets()
    );
}

#[test]
fn primitive_restart_state() {
    let mut c = ctx(1, FS);
    assert!(!c.is_enabled(gl::PRIMITIVE_RESTART));
    assert!(!c.is_enabled(gl::PRIMITIVE_RESTART_FIXED_INDEX));
    assert_eq!(c.get_integerv(gl::PRIMITIVE_RESTART_INDEX), [0]);
    c.enable(gl::PRIMITIVE_RESTART);
    c.enable(gl::PRIMITIVE_RESTART_FIXED_INDEX);
    c.primitive_restart_index(0xFFFF);
    assert!(c.is_enabled(gl::PRIMITIVE_RESTART));
    assert!(c.is_enabled(gl::PRIMITIVE_RESTART_FIXED_INDEX));
    assert_eq!(c.get_booleanv(gl::PRIMITIVE_RESTART), [true]);
    assert_eq!(c.get_integerv(gl::PRIMITIVE_RESTART_INDEX), [0xFFFF]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn adjacency_modes_draw_without_their_adjacent_vertices() {
    let q = quads();
    // TRIANGLES_ADJACENCY: vertices 0, 2, 4 of each six.
    let tri = [q[0], q[7], q[1], q[7], q[2], q[7]];
    let mut c = ctx(1, FS);
    draw(&mut c, gl::TRIANGLES_ADJACENCY, &tri);
    let mut r = ctx(1, FS);
    draw(&mut r, gl::TRIANGLES, &[q[0], q[1], q[2]]);
    assert_eq!(covered(&mut c), covered(&mut r));
    // LINES_ADJACENCY: vertices 1 and 2 of each four.
    let mut c = ctx(1, FS);
    draw(
        &mut c,
        gl::LINES_ADJACENCY,
        &[v(0.5, 0.5), v(2.5, 5.5), v(10.5, 5.5), v(30.5, 30.5)],
    );
    assert_eq!(covered(&mut c), rect(2, 5, 9, 5));
    // LINE_STRIP_ADJACENCY and TRIANGLE_STRIP_ADJACENCY are accepted.
    for mode in [gl::LINE_STRIP_ADJACENCY, gl::TRIANGLE_STRIP_ADJACENCY] {
        let mut c = ctx(1, FS);
        draw(&mut c, mode, &q);
        assert!(!covered(&mut c).is_empty(), "{mode:#x}");
    }
}

#[test]
fn polygon_mode_draws_edges_and_vertices() {
    let tri = [v(2.5, 2.5), v(20.5, 2.5), v(2.5, 14.5)];
    for (mode, as_prims) in [(gl::LINE, gl::LINE_LOOP), (gl::POINT, gl::POINTS)] {
        let mut c = ctx(1, FS);
        c.polygon_mode(gl::FRONT_AND_BACK, mode);
        draw(&mut c, gl::TRIANGLES, &tri);
        let mut r = ctx(1, FS);
        draw(&mut r, as_prims, &tri);
        assert_eq!(covered(&mut c), covered(&mut r), "mode {mode:#x}");
        assert_eq!(c.get_integerv(gl::POLYGON_MODE), [mode as i32; 2]);
        // Culling still applies: a counter-clockwise triangle is front-facing.
        c.clear(gl::COLOR_BUFFER_BIT);
        c.enable(gl::CULL_FACE);
        c.cull_face(gl::FRONT);
        draw(&mut c, gl::TRIANGLES, &tri);
        assert!(covered(&mut c).is_empty());
    }
    let mut c = ctx(1, FS);
    c.polygon_mode(gl::FRONT, gl::LINE);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.polygon_mode(gl::FRONT_AND_BACK, gl::FRONT);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
}

#[test]
fn point_and_line_state_queries() {
    let mut c = ctx(1, FS);
    assert_eq!(c.get_floatv(gl::POINT_SIZE_RANGE), [1.0, 255.0]);
    assert_eq!(c.get_floatv(gl::ALIASED_LINE_WIDTH_RANGE), [1.0, 255.0]);
    assert_eq!(c.get_floatv(gl::POINT_FADE_THRESHOLD_SIZE), [1.0]);
    c.point_parameter_f(gl::POINT_FADE_THRESHOLD_SIZE, 2.5);
    assert_eq!(c.get_floatv(gl::POINT_FADE_THRESHOLD_SIZE), [2.5]);
    c.point_parameter_f(gl::POINT_FADE_THRESHOLD_SIZE, -1.0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.point_parameter_f(gl::POINT_SPRITE_COORD_ORIGIN, gl::FRONT as f32);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    // GL_PATCHES is a mode, for programs with tessellation only (tests/tessellation.rs).
    c.draw_arrays(gl::PATCHES, 0, 3);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}

/// A busy scene of points, lines, strips and wide lines crossing tiles.
fn busy_scene(threads: usize) -> Vec<[u8; 4]> {
    let mut c = Context::with_threads(W * 8, H * 8, threads);
    let p = program(&mut c, FS);
    c.use_program(p);
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, vbo);
    for (i, n, off) in [(0, 4, 0), (1, 4, 16), (2, 1, 32)] {
        c.vertex_attrib_pointer(i, n, gl::FLOAT, false, 36, off);
        c.enable_vertex_attrib_array(i);
    }
    c.enable(gl::BLEND);
    c.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
    c.enable(gl::PROGRAM_POINT_SIZE);
    let mut seed = 12345u32;
    let mut rnd = || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1 << 24) as f32
    };
    let mut b = Vec::new();
    for _ in 0..3000 {
        let vals = [
            rnd() * 2.4 - 1.2,
            rnd() * 2.4 - 1.2,
            rnd() * 2.0 - 1.0,
            0.5 + rnd(),
            rnd(),
            rnd(),
            rnd(),
            rnd(),
            1.0 + rnd() * 20.0,
        ];
        for f in vals {
            b.extend(f.to_le_bytes());
        }
    }
    c.buffer_data(
        gl::ARRAY_BUFFER,
        b.len() as isize,
        Some(&b),
        gl::STATIC_DRAW,
    );
    c.draw_arrays(gl::POINTS, 0, 1000);
    c.draw_arrays(gl::LINES, 1000, 1000);
    c.line_width(4.5);
    c.draw_arrays(gl::LINE_STRIP, 2000, 500);
    c.draw_arrays(gl::LINE_LOOP, 2500, 500);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_pixels(
        0,
        0,
        (W * 8) as i32,
        (H * 8) as i32,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
    )
    .chunks_exact(4)
    .map(|p| [p[0], p[1], p[2], p[3]])
    .collect()
}

#[test]
fn points_and_lines_are_identical_with_one_and_two_threads() {
    let one = busy_scene(1);
    assert!(one.iter().filter(|p| p[3] != 0).count() > 10_000);
    assert_eq!(one, busy_scene(2));
}

#[test]
fn polygon_offset_moves_filled_and_outlined_polygons() {
    let mut c = ctx(1, FS);
    c.enable(gl::DEPTH_TEST);
    c.clear(gl::DEPTH_BUFFER_BIT);
    let colored = |col: [f32; 4]| [v(2.5, 2.5), v(20.5, 2.5), v(2.5, 14.5)].map(|p| V { col, ..p });
    let (red, green, blue) = (
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, 1.0],
    );
    draw(&mut c, gl::TRIANGLES, &colored(red));
    // The same depth fails GL_LESS...
    draw(&mut c, gl::TRIANGLES, &colored(green));
    assert_eq!(pixel(&read(&mut c), 5, 5), [255, 0, 0, 255]);
    // ... unless GL_POLYGON_OFFSET_FILL pulls it nearer (r = 2^-24 per unit, D24).
    c.enable(gl::POLYGON_OFFSET_FILL);
    c.polygon_offset(0.0, -4.0);
    draw(&mut c, gl::TRIANGLES, &colored(green));
    assert_eq!(pixel(&read(&mut c), 5, 5), [0, 255, 0, 255]);
    assert_eq!(c.get_floatv(gl::POLYGON_OFFSET_UNITS), [-4.0]);
    assert!(c.is_enabled(gl::POLYGON_OFFSET_FILL));
    // Line mode takes GL_POLYGON_OFFSET_LINE, not _FILL: the left edge (column 2) is at
    // the offset fill's depth, so blue fails there until its own offset is nearer still.
    c.polygon_mode(gl::FRONT_AND_BACK, gl::LINE);
    draw(&mut c, gl::TRIANGLES, &colored(blue));
    assert_eq!(pixel(&read(&mut c), 2, 8), [0, 255, 0, 255]);
    c.enable(gl::POLYGON_OFFSET_LINE);
    c.polygon_offset(0.0, -16.0);
    draw(&mut c, gl::TRIANGLES, &colored(blue));
    let img = read(&mut c);
    assert_eq!(pixel(&img, 2, 8), [0, 0, 255, 255]);
    assert_eq!(pixel(&img, 5, 5), [0, 255, 0, 255]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}
