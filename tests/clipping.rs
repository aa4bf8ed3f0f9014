//! Issue #12 item 1 (the rest of primitive processing) through the public `softgl::Context`
//! API with the real GLSL front end and JIT: depth clamp, glClipControl (origin and depth
//! mode), viewport, scissor and depth-range arrays (state, errors, index 0 drawn), and
//! gl_ClipDistance with GL_CLIP_DISTANCEi; each image also at 2 threads, identical.

mod common;

use softgl::{enums as gl, Context};

const W: u32 = 16;
const H: u32 = 16;

const VS: &str = "#version 330
layout(location = 0) in vec4 pos;
void main() { gl_Position = pos; }";

/// gl_ClipDistance[0] = x: the half x < 0 is clipped when GL_CLIP_DISTANCE0 is on;
/// gl_ClipDistance[1] = y, the half y < 0.
const VS_CLIP: &str = "#version 330
layout(location = 0) in vec4 pos;
out float gl_ClipDistance[2];
void main() {
    gl_Position = pos;
    gl_ClipDistance[0] = pos.x;
    gl_ClipDistance[1] = pos.y;
}";

const FS: &str = "#version 330
out vec4 c;
void main() { c = vec4(1.0, gl_FragCoord.z, 0.0, 1.0); }";

fn ctx(threads: usize, vs: &str) -> Context {
    let mut c = Context::with_threads(W, H, threads);
    let p = common::program(&mut c, vs, FS);
    c.use_program(p);
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, vbo);
    c.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 16, 0);
    c.enable_vertex_attrib_array(0);
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c
}

/// Draws the triangles of clip-space positions `tris` (x, y, z, w each).
fn draw(c: &mut Context, tris: &[[f32; 4]]) {
    let b: Vec<u8> = tris
        .iter()
        .flatten()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    c.buffer_data(
        gl::ARRAY_BUFFER,
        b.len() as isize,
        Some(&b),
        gl::STREAM_DRAW,
    );
    c.draw_arrays(gl::TRIANGLES, 0, tris.len() as i32);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// A quad over the whole viewport at clip z `z` (w = 1), counter-clockwise.
fn quad(z: f32) -> Vec<[f32; 4]> {
    let p = |x, y| [x, y, z, 1.0];
    vec![
        p(-1.0, -1.0),
        p(1.0, -1.0),
        p(1.0, 1.0),
        p(-1.0, -1.0),
        p(1.0, 1.0),
        p(-1.0, 1.0),
    ]
}

fn read(c: &mut Context) -> Vec<[u8; 4]> {
    c.read_pixels(0, 0, W as i32, H as i32, gl::RGBA, gl::UNSIGNED_BYTE)
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect()
}

fn depth_at(c: &mut Context, x: i32, y: i32) -> f32 {
    let d = c.read_pixels(x, y, 1, 1, gl::DEPTH_COMPONENT, gl::FLOAT);
    f32::from_le_bytes([d[0], d[1], d[2], d[3]])
}

fn drawn(img: &[[u8; 4]]) -> usize {
    img.iter().filter(|p| p[3] != 0).count()
}

/// Renders with `setup` at 1 and 2 threads; the images must be identical.
fn both(vs: &str, setup: impl Fn(&mut Context)) -> (Vec<[u8; 4]>, Context) {
    let mut one = ctx(1, vs);
    setup(&mut one);
    let img = read(&mut one);
    let mut two = ctx(2, vs);
    setup(&mut two);
    assert_eq!(read(&mut two), img, "1 vs 2 threads");
    (img, one)
}

#[test]
fn depth_clamp_keeps_what_the_far_and_near_planes_cut_with_clamped_depth() {
    // z = 2 is beyond the far plane: clipped away without the clamp.
    let (img, _) = both(VS, |c| draw(c, &quad(2.0)));
    assert_eq!(drawn(&img), 0);
    let (img, mut c) = both(VS, |c| {
        c.enable(gl::DEPTH_CLAMP);
        c.enable(gl::DEPTH_TEST);
        c.depth_func(gl::ALWAYS);
        draw(c, &quad(2.0));
    });
    assert_eq!(drawn(&img), (W * H) as usize);
    assert_eq!(depth_at(&mut c, 3, 3), 1.0, "clamped to the far value");
    assert!(c.is_enabled(gl::DEPTH_CLAMP));
    assert_eq!(c.get_booleanv(gl::DEPTH_CLAMP), vec![true]);
    // Before the near plane: depth 0.
    let (img, mut c) = both(VS, |c| {
        c.enable(gl::DEPTH_CLAMP);
        c.enable(gl::DEPTH_TEST);
        c.depth_func(gl::ALWAYS);
        draw(c, &quad(-3.0));
    });
    assert_eq!(drawn(&img), (W * H) as usize);
    assert_eq!(depth_at(&mut c, 8, 8), 0.0);
}

#[test]
fn depth_clamp_clamps_to_a_narrower_depth_range_per_fragment() {
    // A quad whose clip z runs from −3 (left) to 3 (right): window z from −1 to 2 under
    // depth range [0.25, 0.75], clamped to it left and right of the planes' crossings.
    let tilt = |x: f32, y: f32| [x, y, 3.0 * x, 1.0];
    let quad = [
        tilt(-1.0, -1.0),
        tilt(1.0, -1.0),
        tilt(1.0, 1.0),
        tilt(-1.0, -1.0),
        tilt(1.0, 1.0),
        tilt(-1.0, 1.0),
    ];
    let (img, mut c) = both(VS, |c| {
        c.enable(gl::DEPTH_CLAMP);
        c.enable(gl::DEPTH_TEST);
        c.depth_func(gl::ALWAYS);
        c.depth_range(0.25, 0.75);
        draw(c, &quad);
    });
    assert_eq!(drawn(&img), (W * H) as usize);
    let depth = |c: &mut Context, x| depth_at(c, x, 5);
    // ndc z = 3·x_ndc crosses ±1 at x_ndc = ±1/3, window x = 8 ± 8/3.
    let d24 = |z: f32| (z as f64 * 16_777_215.0).round() as f32 / 16_777_215.0;
    for x in 0..5 {
        assert_eq!(depth(&mut c, x), d24(0.25), "x {x}: clamped to n");
    }
    for x in 11..16 {
        assert_eq!(depth(&mut c, x), d24(0.75), "x {x}: clamped to f");
    }
    // Between: window z = 0.5 + 0.25 · 3 · x_ndc at the pixel centre, up to the cut
    // vertices' snap to 1/256 pixel (z changes 0.094 per pixel: 4e-4 at most).
    for x in 6..10 {
        let ndc = (x as f32 + 0.5) / 8.0 - 1.0;
        let want = 0.5 + 0.75 * ndc;
        let got = depth(&mut c, x);
        assert!((got - want).abs() < 4e-4, "x {x}: {got} vs {want}");
    }
}

#[test]
fn clip_control_upper_left_flips_the_window_and_keeps_facing() {
    // A triangle in the bottom-left corner of NDC, counter-clockwise.
    let tri = [
        [-1.0, -1.0, 0.0, 1.0],
        [0.0, -1.0, 0.0, 1.0],
        [-1.0, 0.0, 0.0, 1.0],
    ];
    let (lower, _) = both(VS, |c| {
        c.enable(gl::CULL_FACE);
        draw(c, &tri)
    });
    let (upper, c) = both(VS, |c| {
        c.enable(gl::CULL_FACE);
        c.clip_control(gl::UPPER_LEFT, gl::NEGATIVE_ONE_TO_ONE);
        draw(c, &tri)
    });
    assert!(drawn(&lower) > 0, "front-facing, not culled");
    // Row y of one is row H − 1 − y of the other.
    for y in 0..H as usize {
        let a = &lower[y * W as usize..(y + 1) * W as usize];
        let b = &upper[(H as usize - 1 - y) * W as usize..(H as usize - y) * W as usize];
        assert_eq!(a, b, "row {y}");
    }
    let mut c = c;
    assert_eq!(c.get_integerv(gl::CLIP_ORIGIN), vec![gl::UPPER_LEFT as i32]);
    c.clip_control(gl::UPPER_LEFT, gl::FRONT);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
}

#[test]
fn clip_control_zero_to_one_maps_z_directly_and_clips_at_zero() {
    let (img, mut c) = both(VS, |c| {
        c.clip_control(gl::LOWER_LEFT, gl::ZERO_TO_ONE);
        c.enable(gl::DEPTH_TEST);
        c.depth_func(gl::ALWAYS);
        draw(c, &quad(0.25));
    });
    assert_eq!(drawn(&img), (W * H) as usize);
    assert!((depth_at(&mut c, 1, 1) - 0.25).abs() < 1e-6);
    assert_eq!(
        c.get_integerv(gl::CLIP_DEPTH_MODE),
        vec![gl::ZERO_TO_ONE as i32]
    );
    // z = −0.25 is in front of the near plane z = 0.
    let (img, _) = both(VS, |c| {
        c.clip_control(gl::LOWER_LEFT, gl::ZERO_TO_ONE);
        draw(c, &quad(-0.25));
    });
    assert_eq!(drawn(&img), 0);
    // The default maps it to 0.375.
    let (_, mut c) = both(VS, |c| {
        c.enable(gl::DEPTH_TEST);
        c.depth_func(gl::ALWAYS);
        draw(c, &quad(-0.25));
    });
    assert!((depth_at(&mut c, 1, 1) - 0.375).abs() < 1e-6);
}

#[test]
fn viewport_arrays_set_get_and_draw_with_index_0() {
    let mut c = ctx(1, VS);
    assert_eq!(c.get_integerv(gl::MAX_VIEWPORTS), vec![16]);
    // Every viewport and scissor box starts as the surface (GL 4.5 core §13.6.1, §14.9.2).
    for i in 0..16 {
        assert_eq!(
            c.get_floati_v(gl::VIEWPORT, i),
            vec![0.0, 0.0, 16.0, 16.0],
            "{i}"
        );
        assert_eq!(
            c.get_integeri_v(gl::SCISSOR_BOX, i),
            vec![0, 0, 16, 16],
            "{i}"
        );
    }
    // The float queries return the values as specified (after the bounds and dimension
    // clamps); the integer ones and rasterization round them to whole pixels.
    c.viewport_indexedf(13, 1.5555, 2.433, 3.777, 4.888);
    assert_eq!(
        c.get_floati_v(gl::VIEWPORT, 13),
        vec![1.5555, 2.433, 3.777, 4.888]
    );
    assert_eq!(c.get_integeri_v(gl::VIEWPORT, 13), vec![2, 2, 4, 5]);
    c.viewport_indexedf(12, -1.0e9, 1.0e9, 1.0e9, 7.0);
    assert_eq!(
        c.get_floati_v(gl::VIEWPORT, 12),
        vec![-32768.0, 32767.0, 16384.0, 7.0]
    );
    c.viewport_indexedf(3, 1.0, 2.0, 5.0, 6.0);
    assert_eq!(c.get_integeri_v(gl::VIEWPORT, 3), vec![1, 2, 5, 6]);
    assert_eq!(c.get_floati_v(gl::VIEWPORT, 3), vec![1.0, 2.0, 5.0, 6.0]);
    assert_eq!(c.get_integeri_v(gl::VIEWPORT, 0), vec![0, 0, 16, 16]);
    c.viewport_arrayv(14, &[0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0]);
    assert_eq!(c.get_integeri_v(gl::VIEWPORT, 15), vec![2, 2, 3, 3]);
    // Past the last index, or a negative size: INVALID_VALUE, nothing changes.
    c.viewport_arrayv(15, &[0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.viewport_indexedf(16, 0.0, 0.0, 1.0, 1.0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.viewport_arrayv(0, &[0.0, 0.0, 1.0, 1.0, 0.0, 0.0, -1.0, 1.0]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    assert_eq!(c.get_integeri_v(gl::VIEWPORT, 0), vec![0, 0, 16, 16]);
    c.get_integeri_v(gl::VIEWPORT, 16);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    // Depth ranges, clamped.
    c.depth_range_indexed(2, -1.0, 0.5);
    assert_eq!(c.get_floati_v(gl::DEPTH_RANGE, 2), vec![0.0, 0.5]);
    c.depth_range_arrayv(4, &[0.25, 0.75]);
    assert_eq!(c.get_floati_v(gl::DEPTH_RANGE, 4), vec![0.25, 0.75]);
    assert_eq!(c.get_floati_v(gl::DEPTH_RANGE, 0), vec![0.0, 1.0]);
    // The indexed integer query rounds (as Mesa, and as piglit's queries test checks); the
    // plain glGetIntegerv maps [0, 1] onto the integer range (§2.2.2).
    assert_eq!(c.get_integeri_v(gl::DEPTH_RANGE, 4), vec![0, 1]);
    assert_eq!(c.get_integerv(gl::DEPTH_RANGE), vec![0, i32::MAX]);
    // Scissors and their enables.
    c.scissor_indexed(5, 1, 1, 2, 2);
    assert_eq!(c.get_integeri_v(gl::SCISSOR_BOX, 5), vec![1, 1, 2, 2]);
    c.scissor_arrayv(6, &[3, 3, 4, 4]);
    assert_eq!(c.get_integeri_v(gl::SCISSOR_BOX, 6), vec![3, 3, 4, 4]);
    c.enablei(gl::SCISSOR_TEST, 7);
    assert!(c.is_enabledi(gl::SCISSOR_TEST, 7));
    assert!(!c.is_enabledi(gl::SCISSOR_TEST, 0));
    assert!(!c.is_enabled(gl::SCISSOR_TEST));
    c.enable(gl::SCISSOR_TEST);
    assert!((0..16).all(|i| c.is_enabledi(gl::SCISSOR_TEST, i)));
    c.disablei(gl::SCISSOR_TEST, 0);
    assert!(!c.is_enabled(gl::SCISSOR_TEST) && c.is_enabledi(gl::SCISSOR_TEST, 1));
    c.is_enabledi(gl::SCISSOR_TEST, 16);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    // glViewport and glScissor set every index.
    c.viewport(0, 0, 8, 8);
    assert_eq!(c.get_integeri_v(gl::VIEWPORT, 15), vec![0, 0, 8, 8]);
    c.scissor(0, 0, 4, 4);
    assert_eq!(c.get_integeri_v(gl::SCISSOR_BOX, 9), vec![0, 0, 4, 4]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // Drawing uses index 0: viewport 0 is the lower-left 8×8, others differ.
    c.disable(gl::SCISSOR_TEST);
    c.viewport_indexedf(1, 8.0, 8.0, 8.0, 8.0);
    draw(&mut c, &quad(0.0));
    let img = read(&mut c);
    assert_eq!(drawn(&img), 64);
    assert_ne!(img[0][3], 0);
    // Scissor 0 applies, scissor 1 does not.
    c.clear(gl::COLOR_BUFFER_BIT);
    c.viewport(0, 0, 16, 16);
    c.scissor_indexed(0, 0, 0, 2, 2);
    c.scissor_indexed(1, 0, 0, 1, 1);
    c.enablei(gl::SCISSOR_TEST, 0);
    draw(&mut c, &quad(0.0));
    assert_eq!(drawn(&read(&mut c)), 4);
}

#[test]
fn clip_distances_cut_triangles_at_the_enabled_planes() {
    let full = (W * H) as usize;
    let (img, _) = both(VS_CLIP, |c| draw(c, &quad(0.0)));
    assert_eq!(drawn(&img), full, "no distance enabled: no clipping");
    let (img, _) = both(VS_CLIP, |c| {
        c.enable(gl::CLIP_DISTANCE0);
        draw(c, &quad(0.0))
    });
    // x >= 0: the right half, exactly (pixel centres at x = 8.5.. are inside).
    assert_eq!(drawn(&img), full / 2);
    for y in 0..H as usize {
        for x in 0..W as usize {
            assert_eq!(img[y * W as usize + x][3] != 0, x >= 8, "({x}, {y})");
        }
    }
    let (img, mut c) = both(VS_CLIP, |c| {
        c.enable(gl::CLIP_DISTANCE0);
        c.enable(gl::CLIP_DISTANCE1);
        draw(c, &quad(0.0))
    });
    assert_eq!(drawn(&img), full / 4);
    assert!(img[15 * W as usize + 15][3] != 0 && img[0][3] == 0);
    assert!(c.is_enabled(gl::CLIP_DISTANCE1));
    assert_eq!(c.get_integerv(gl::MAX_CLIP_DISTANCES), vec![8]);
    // Enabled but not written (index 5 of a 2-element array): ignored.
    c.disable(gl::CLIP_DISTANCE0);
    c.disable(gl::CLIP_DISTANCE1);
    c.enable(gl::CLIP_DISTANCE5);
    c.clear(gl::COLOR_BUFFER_BIT);
    draw(&mut c, &quad(0.0));
    assert_eq!(drawn(&read(&mut c)), full);
}

#[test]
fn clip_distance_redeclarations_are_checked() {
    let mut c = Context::new(4, 4);
    for (src, ok) in [
        ("out float gl_ClipDistance[8];", true),
        ("out float gl_ClipDistance[9];", false),
        ("out int gl_ClipDistance[2];", false),
        ("in float gl_ClipDistance[2];", false),
    ] {
        let s = c.create_shader(gl::VERTEX_SHADER);
        let text = format!(
            "#version 330\n{src}\nvoid main() {{ gl_Position = vec4(0.0); gl_ClipDistance[0] = 1.0; }}"
        );
        c.shader_source(s, &[&text]);
        c.compile_shader(s);
        assert_eq!(
            c.get_shaderiv(s, gl::COMPILE_STATUS) == 1,
            ok,
            "{src}: {}",
            c.get_shader_info_log(s)
        );
    }
}
