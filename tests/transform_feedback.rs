//! Transform feedback through the Rust `Context` with the real GLSL front end and JIT (GL
//! 4.5 core §13.3, §7.13, §10.4, ARB_transform_feedback2): captured words are exact
//! (integers and floats the shader computes exactly), interleaved and separate layouts,
//! gl_SkipComponents / gl_NextBuffer, the overflow rule, pause/resume, strips and fans
//! decomposed, geometry shader output, transform feedback objects and
//! glDrawTransformFeedback, the primitive queries, GL_RASTERIZER_DISCARD, programs
//! without a fragment shader, the link and command errors. Every capture is made with 1
//! and 2 threads, which must write the same bytes.

mod common;

use softgl::{enums as gl, Context};

const VS: &str = "#version 150
in float x;
out float a;
out vec2 b;
flat out int id;
void main() {
    gl_Position = vec4(x, 2.0 * x, 0.0, 1.0);
    a = x + 1.0;
    b = vec2(x * 10.0, -x);
    id = gl_VertexID;
}";

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

/// Links `shaders` after glTransformFeedbackVaryings(`varyings`, `mode`); the program and
/// whether it linked (with the log).
fn link(
    c: &mut Context,
    shaders: &[(u32, &str)],
    varyings: &[&str],
    mode: u32,
) -> (u32, Result<(), String>) {
    let p = c.create_program();
    for &(kind, src) in shaders {
        let s = compile(c, kind, src);
        c.attach_shader(p, s);
    }
    c.transform_feedback_varyings(p, varyings, mode);
    c.link_program(p);
    let ok = c.get_programiv(p, gl::LINK_STATUS) == 1;
    let log = c.get_program_info_log(p);
    (p, if ok { Ok(()) } else { Err(log) })
}

fn linked(c: &mut Context, shaders: &[(u32, &str)], varyings: &[&str], mode: u32) -> u32 {
    let (p, r) = link(c, shaders, varyings, mode);
    r.unwrap_or_else(|log| panic!("link failed: {log}"));
    p
}

/// A context on `threads` workers with `xs` in attribute `x` of the program's.
fn setup(threads: usize, xs: &[f32]) -> Context {
    let mut c = common::context(8, 8, threads);
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, vbo);
    let bytes: Vec<u8> = xs.iter().flat_map(|f| f.to_le_bytes()).collect();
    c.buffer_data(
        gl::ARRAY_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        gl::STATIC_DRAW,
    );
    c.vertex_attrib_pointer(0, 1, gl::FLOAT, false, 4, 0);
    c.enable_vertex_attrib_array(0);
    c
}

/// A buffer of `bytes` bytes filled with 0xEE (so untouched words show), bound to
/// transform feedback binding `index`.
fn xfb_buffer(c: &mut Context, index: u32, bytes: usize) -> u32 {
    let b = c.gen_buffers(1)[0];
    c.bind_buffer(gl::TRANSFORM_FEEDBACK_BUFFER, b);
    c.buffer_data(
        gl::TRANSFORM_FEEDBACK_BUFFER,
        bytes as isize,
        Some(&vec![0xEE; bytes]),
        gl::STREAM_READ,
    );
    c.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, index, b);
    b
}

fn words(c: &mut Context, b: u32) -> Vec<u32> {
    let n = c.get_named_buffer_parameteriv(b, gl::BUFFER_SIZE);
    c.get_named_buffer_sub_data(b, 0, n as isize)
        .chunks(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect()
}

fn f(v: f32) -> u32 {
    v.to_bits()
}

const UNTOUCHED: u32 = 0xEEEE_EEEE;

/// Runs `body` with 1 and 2 threads; both must return the same.
fn both_threads<T: PartialEq + std::fmt::Debug>(body: impl Fn(usize) -> T) -> T {
    let one = body(1);
    let two = body(2);
    assert_eq!(one, two, "1 vs 2 threads");
    one
}

#[test]
fn interleaved_points_capture_exact_words_with_skips() {
    let got = both_threads(|t| {
        let mut c = setup(t, &[1.0, 2.0, 3.0]);
        let p = linked(
            &mut c,
            &[(gl::VERTEX_SHADER, VS)],
            &["a", "gl_SkipComponents1", "id", "b", "gl_Position"],
            gl::INTERLEAVED_ATTRIBS,
        );
        c.use_program(p);
        let b = xfb_buffer(&mut c, 0, 4 * 9 * 4);
        c.enable(gl::RASTERIZER_DISCARD);
        c.begin_transform_feedback(gl::POINTS);
        c.draw_arrays(gl::POINTS, 0, 3);
        c.end_transform_feedback();
        assert_eq!(c.get_error(), gl::NO_ERROR);
        words(&mut c, b)
    });
    let mut want = Vec::new();
    for (i, x) in [1.0f32, 2.0, 3.0].into_iter().enumerate() {
        want.extend([
            f(x + 1.0),
            UNTOUCHED,
            i as u32,
            f(x * 10.0),
            f(-x),
            f(x),
            f(2.0 * x),
            f(0.0),
            f(1.0),
        ]);
    }
    want.extend([UNTOUCHED; 9]);
    assert_eq!(got, want);
}

#[test]
fn separate_attribs_and_next_buffer_fill_their_own_buffers() {
    for (mode, names) in [
        (gl::SEPARATE_ATTRIBS, &["b", "id"][..]),
        (gl::INTERLEAVED_ATTRIBS, &["b", "gl_NextBuffer", "id"][..]),
    ] {
        let got = both_threads(|t| {
            let mut c = setup(t, &[5.0, 6.0]);
            let p = linked(&mut c, &[(gl::VERTEX_SHADER, VS)], names, mode);
            c.use_program(p);
            let b0 = xfb_buffer(&mut c, 0, 16);
            let b1 = xfb_buffer(&mut c, 1, 12);
            c.enable(gl::RASTERIZER_DISCARD);
            c.begin_transform_feedback(gl::POINTS);
            c.draw_arrays(gl::POINTS, 0, 2);
            c.end_transform_feedback();
            assert_eq!(c.get_error(), gl::NO_ERROR);
            (words(&mut c, b0), words(&mut c, b1))
        });
        assert_eq!(got.0, [f(50.0), f(-5.0), f(60.0), f(-6.0)], "{mode:#x}");
        assert_eq!(got.1, [0, 1, UNTOUCHED], "{mode:#x}");
    }
}

#[test]
fn strips_and_fans_are_recorded_as_independent_triangles() {
    // Vertex i records id = i: the element order of each recorded triangle.
    let capture = |mode: u32, first: bool, count: i32| {
        both_threads(|t| {
            let mut c = setup(t, &[0.0; 6]);
            let p = linked(
                &mut c,
                &[(gl::VERTEX_SHADER, VS)],
                &["id"],
                gl::INTERLEAVED_ATTRIBS,
            );
            c.use_program(p);
            if first {
                c.provoking_vertex(gl::FIRST_VERTEX_CONVENTION);
            }
            let b = xfb_buffer(&mut c, 0, 4 * 12);
            c.begin_transform_feedback(gl::TRIANGLES);
            c.draw_arrays(mode, 0, count);
            c.end_transform_feedback();
            assert_eq!(c.get_error(), gl::NO_ERROR);
            words(&mut c, b)
        })
    };
    let u = UNTOUCHED;
    assert_eq!(
        capture(gl::TRIANGLE_STRIP, false, 5),
        [0, 1, 2, 2, 1, 3, 2, 3, 4, u, u, u]
    );
    assert_eq!(
        capture(gl::TRIANGLE_STRIP, true, 5),
        [0, 1, 2, 1, 3, 2, 2, 3, 4, u, u, u]
    );
    assert_eq!(
        capture(gl::TRIANGLE_FAN, false, 5),
        [0, 1, 2, 0, 2, 3, 0, 3, 4, u, u, u]
    );
}

#[test]
fn lines_loops_and_the_overflow_rule() {
    let got = both_threads(|t| {
        let mut c = setup(t, &[0.0; 4]);
        let p = linked(
            &mut c,
            &[(gl::VERTEX_SHADER, VS)],
            &["id"],
            gl::INTERLEAVED_ATTRIBS,
        );
        c.use_program(p);
        // Room for 3.5 lines: the 4th line of the loop does not fit and is not written.
        let b = xfb_buffer(&mut c, 0, 4 * 7);
        let q = c.gen_queries(2);
        c.begin_query(gl::PRIMITIVES_GENERATED, q[0]);
        c.begin_query(gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q[1]);
        c.begin_transform_feedback(gl::LINES);
        c.draw_arrays(gl::LINE_LOOP, 0, 4);
        // Full: a later draw writes nothing either.
        c.draw_arrays(gl::LINES, 0, 2);
        c.end_transform_feedback();
        c.end_query(gl::PRIMITIVES_GENERATED);
        c.end_query(gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let generated = c.get_query_object(q[0], gl::QUERY_RESULT);
        let written = c.get_query_object(q[1], gl::QUERY_RESULT);
        (words(&mut c, b), generated, written)
    });
    assert_eq!(got.0, [0, 1, 1, 2, 2, 3, UNTOUCHED]);
    assert_eq!(got.1, Some(5));
    assert_eq!(got.2, Some(3));
}

#[test]
fn pause_resume_and_draw_transform_feedback() {
    let got = both_threads(|t| {
        let mut c = setup(t, &[1.0, 2.0, 3.0, 4.0]);
        let p = linked(
            &mut c,
            &[(gl::VERTEX_SHADER, VS)],
            &["a"],
            gl::INTERLEAVED_ATTRIBS,
        );
        c.use_program(p);
        let xfb = c.gen_transform_feedbacks(1)[0];
        assert!(!c.is_transform_feedback(xfb), "an object once bound");
        c.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, xfb);
        assert!(c.is_transform_feedback(xfb));
        let b = xfb_buffer(&mut c, 0, 4 * 5);
        c.enable(gl::RASTERIZER_DISCARD);
        c.begin_transform_feedback(gl::POINTS);
        c.draw_arrays(gl::POINTS, 0, 1);
        c.pause_transform_feedback();
        assert_eq!(
            c.get_transform_feedbackiv(xfb, gl::TRANSFORM_FEEDBACK_PAUSED),
            1
        );
        c.draw_arrays(gl::POINTS, 1, 1); // not captured
        c.resume_transform_feedback();
        c.draw_arrays(gl::POINTS, 2, 2);
        c.end_transform_feedback();
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let captured = words(&mut c, b);
        // Draw the 3 captured vertices, capturing them again into a second object: the
        // captured `a` is the attribute `x` of the second pass.
        c.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, 0);
        let b2 = xfb_buffer(&mut c, 0, 4 * 4);
        let vao2 = c.gen_vertex_arrays(1)[0];
        c.bind_vertex_array(vao2);
        c.bind_buffer(gl::ARRAY_BUFFER, b);
        c.vertex_attrib_pointer(0, 1, gl::FLOAT, false, 4, 0);
        c.enable_vertex_attrib_array(0);
        c.begin_transform_feedback(gl::POINTS);
        c.draw_transform_feedback(gl::POINTS, xfb);
        c.end_transform_feedback();
        assert_eq!(c.get_error(), gl::NO_ERROR);
        (captured, words(&mut c, b2))
    });
    assert_eq!(got.0, [f(2.0), f(4.0), f(5.0), UNTOUCHED, UNTOUCHED]);
    assert_eq!(got.1, [f(3.0), f(5.0), f(6.0), UNTOUCHED]);
}

const GS: &str = "#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
in float a[];
out float g;
void main() {
    for (int i = 0; i < 4; i++) {
        g = a[0] * 100.0 + float(i);
        gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
        EmitVertex();
    }
}";

#[test]
fn geometry_shader_output_is_captured_and_counted() {
    let got = both_threads(|t| {
        let mut c = setup(t, &[1.0, 2.0]);
        let p = linked(
            &mut c,
            &[(gl::VERTEX_SHADER, VS), (gl::GEOMETRY_SHADER, GS)],
            &["g"],
            gl::INTERLEAVED_ATTRIBS,
        );
        c.use_program(p);
        let b = xfb_buffer(&mut c, 0, 4 * 13);
        let q = c.gen_queries(1)[0];
        c.enable(gl::RASTERIZER_DISCARD);
        // Lines do not match the geometry shader's triangle strips.
        c.begin_transform_feedback(gl::LINES);
        c.draw_arrays(gl::POINTS, 0, 2);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.end_transform_feedback();
        c.begin_query(gl::PRIMITIVES_GENERATED, q);
        c.begin_transform_feedback(gl::TRIANGLES);
        c.draw_arrays(gl::POINTS, 0, 2);
        c.end_transform_feedback();
        c.end_query(gl::PRIMITIVES_GENERATED);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        (words(&mut c, b), c.get_query_object(q, gl::QUERY_RESULT))
    });
    // a = x + 1: 2 then 3; each strip of 4 vertices is 2 triangles (0 1 2) (2 1 3).
    let g = |a: f32, i: f32| f(a * 100.0 + i);
    let mut want = Vec::new();
    for a in [2.0, 3.0] {
        want.extend([0.0, 1.0, 2.0, 2.0, 1.0, 3.0].map(|i| g(a, i)));
    }
    want.push(UNTOUCHED);
    assert_eq!(got.0, want);
    assert_eq!(got.1, Some(4));
}

#[test]
fn a_program_without_fragment_shader_draws_depth_but_no_colour() {
    let vs = "#version 150
in float x;
void main() {
    int i = gl_VertexID;
    gl_Position = vec4(i == 1 ? 3.0 : -1.0, i == 2 ? 3.0 : -1.0, 0.5, 1.0);
}";
    let got = both_threads(|t| {
        let mut c = setup(t, &[0.0; 3]);
        let p = linked(
            &mut c,
            &[(gl::VERTEX_SHADER, vs)],
            &[],
            gl::INTERLEAVED_ATTRIBS,
        );
        c.use_program(p);
        c.clear_color(0.25, 0.5, 0.75, 1.0);
        c.clear_depth(1.0);
        c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT);
        c.enable(gl::DEPTH_TEST);
        c.draw_arrays(gl::TRIANGLES, 0, 3);
        let colour = c.read_pixels(0, 0, 8, 8, gl::RGBA, gl::UNSIGNED_BYTE);
        let depth = c.read_pixels(0, 0, 8, 8, gl::DEPTH_COMPONENT, gl::FLOAT);
        // Rasterizer discard: nothing reaches depth.
        c.clear(gl::DEPTH_BUFFER_BIT);
        c.enable(gl::RASTERIZER_DISCARD);
        assert!(c.is_enabled(gl::RASTERIZER_DISCARD));
        c.draw_arrays(gl::TRIANGLES, 0, 3);
        let discarded = c.read_pixels(0, 0, 8, 8, gl::DEPTH_COMPONENT, gl::FLOAT);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        (colour, depth, discarded)
    });
    assert!(
        got.0.chunks(4).all(|p| p == [64, 128, 191, 255]),
        "no colour written"
    );
    // z = 0.5 everywhere: one value below the cleared 1.0 (D24 rounds 0.5 a little).
    let one = 1.0f32.to_le_bytes();
    let first = &got.1[..4];
    assert!(
        first != one && got.1.chunks(4).all(|d| d == first),
        "depth written"
    );
    assert!(
        got.2.chunks(4).all(|d| d == one),
        "nothing drawn under discard"
    );
}

#[test]
fn link_errors_and_program_queries() {
    let mut c = common::context(4, 4, 1);
    for (names, mode) in [
        (&["nope"][..], gl::INTERLEAVED_ATTRIBS),
        (&["a", "a"][..], gl::INTERLEAVED_ATTRIBS),
        (&["b[2]"][..], gl::INTERLEAVED_ATTRIBS),
    ] {
        let vs = "#version 150
out float a;
out vec4 big[4];
void main() { gl_Position = vec4(0.0); a = 1.0; big[0] = vec4(1.0); }";
        let (_, r) = link(&mut c, &[(gl::VERTEX_SHADER, vs)], names, mode);
        let _ = c.get_error();
        let err = r.expect_err(&format!("{names:?} must not link"));
        assert!(err.contains("transform feedback"), "{err}");
    }
    // A separately captured varying may be as large as GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_
    // COMPONENTS (64, llvmpipe's value); no vertex output can be larger (64 components), so
    // that link error is out of a shader's reach here.
    assert_eq!(
        c.get_integerv(gl::MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS),
        [64]
    );
    let vs = "#version 150
out vec4 big[16];
void main() { gl_Position = vec4(0.0); big[0] = vec4(1.0); }";
    let (_, r) = link(
        &mut c,
        &[(gl::VERTEX_SHADER, vs)],
        &["big"],
        gl::SEPARATE_ATTRIBS,
    );
    r.expect("64 components captured separately link");
    let vs = "#version 150
out float a;
out vec4 arr[3];
void main() { gl_Position = vec4(0.0); a = 1.0; arr[1] = vec4(2.0); }";
    let p = linked(
        &mut c,
        &[(gl::VERTEX_SHADER, vs)],
        &["arr[1]", "gl_SkipComponents3", "arr", "gl_NextBuffer", "a"],
        gl::INTERLEAVED_ATTRIBS,
    );
    assert_eq!(c.get_programiv(p, gl::TRANSFORM_FEEDBACK_VARYINGS), 5);
    assert_eq!(
        c.get_programiv(p, gl::TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH),
        "gl_SkipComponents3".len() as i32 + 1
    );
    assert_eq!(
        c.get_programiv(p, gl::TRANSFORM_FEEDBACK_BUFFER_MODE),
        gl::INTERLEAVED_ATTRIBS as i32
    );
    assert_eq!(
        c.get_transform_feedback_varying(p, 0),
        (1, gl::FLOAT_VEC4, "arr[1]".to_string())
    );
    assert_eq!(
        c.get_transform_feedback_varying(p, 1),
        (3, gl::NONE, "gl_SkipComponents3".to_string())
    );
    assert_eq!(
        c.get_transform_feedback_varying(p, 2),
        (3, gl::FLOAT_VEC4, "arr".to_string())
    );
    // The same through the program interface queries (GL 4.5 core §7.3.1).
    let tfv = gl::TRANSFORM_FEEDBACK_VARYING;
    assert_eq!(c.get_program_interfaceiv(p, tfv, gl::ACTIVE_RESOURCES), [5]);
    assert_eq!(c.get_program_resource_name(p, tfv, 2), "arr");
    assert_eq!(
        c.get_program_resourceiv(p, tfv, 2, &[gl::OFFSET, gl::ARRAY_SIZE]),
        [28, 3]
    );
    assert_eq!(
        c.get_program_resourceiv(
            p,
            tfv,
            4,
            &[gl::OFFSET, gl::TRANSFORM_FEEDBACK_BUFFER_INDEX]
        ),
        [0, 1]
    );
    let tfb = gl::TRANSFORM_FEEDBACK_BUFFER;
    assert_eq!(c.get_program_interfaceiv(p, tfb, gl::ACTIVE_RESOURCES), [2]);
    assert_eq!(
        c.get_program_resourceiv(
            p,
            tfb,
            0,
            &[
                gl::BUFFER_BINDING,
                gl::TRANSFORM_FEEDBACK_BUFFER_STRIDE,
                gl::NUM_ACTIVE_VARIABLES,
                gl::ACTIVE_VARIABLES
            ]
        ),
        [0, 76, 2, 0, 2]
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.get_transform_feedback_varying(p, 5);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    assert_eq!(c.get_integerv(gl::MAX_TRANSFORM_FEEDBACK_BUFFERS), [4]);
    assert_eq!(
        c.get_integerv(gl::MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS),
        [64]
    );
    c.transform_feedback_varyings(p, &["a"; 5], gl::SEPARATE_ATTRIBS);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.transform_feedback_varyings(p, &["a"], gl::FLOAT);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    // ARB_transform_feedback3: the command itself refuses separators in separate mode
    // (this was a link error before), and leaves the program's varyings as they were.
    c.transform_feedback_varyings(p, &["gl_SkipComponents1"], gl::SEPARATE_ATTRIBS);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.link_program(p);
    assert_eq!(c.get_programiv(p, gl::TRANSFORM_FEEDBACK_VARYINGS), 5);
}

#[test]
fn command_errors_of_section_13_3() {
    let mut c = setup(1, &[1.0]);
    let p = linked(
        &mut c,
        &[(gl::VERTEX_SHADER, VS)],
        &["a"],
        gl::INTERLEAVED_ATTRIBS,
    );
    let plain = linked(
        &mut c,
        &[(gl::VERTEX_SHADER, VS)],
        &[],
        gl::INTERLEAVED_ATTRIBS,
    );
    let expect = |c: &mut Context, e: u32, what: &str| assert_eq!(c.get_error(), e, "{what}");
    // No program, then one without varyings, then no buffer bound.
    c.begin_transform_feedback(gl::POINTS);
    expect(&mut c, gl::INVALID_OPERATION, "begin without a program");
    c.use_program(plain);
    c.begin_transform_feedback(gl::POINTS);
    expect(&mut c, gl::INVALID_OPERATION, "begin without varyings");
    c.use_program(p);
    c.begin_transform_feedback(gl::POINTS);
    expect(&mut c, gl::INVALID_OPERATION, "begin without a buffer");
    c.begin_transform_feedback(gl::LINE_STRIP);
    expect(&mut c, gl::INVALID_ENUM, "begin with a strip mode");
    let b = xfb_buffer(&mut c, 0, 64);
    c.bind_buffer_range(gl::TRANSFORM_FEEDBACK_BUFFER, 0, b, 2, 8);
    expect(&mut c, gl::INVALID_VALUE, "offset not a multiple of 4");
    c.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, 4, b);
    expect(&mut c, gl::INVALID_VALUE, "index past the limit");
    c.bind_buffer_range(gl::TRANSFORM_FEEDBACK_BUFFER, 0, b, 4, 8);
    assert_eq!(
        c.get_integer64i_v(gl::TRANSFORM_FEEDBACK_BUFFER_START, 0),
        [4]
    );
    assert_eq!(
        c.get_integer64i_v(gl::TRANSFORM_FEEDBACK_BUFFER_SIZE, 0),
        [8]
    );
    assert_eq!(
        c.get_integeri_v(gl::TRANSFORM_FEEDBACK_BUFFER_BINDING, 0),
        [b as i32]
    );
    c.end_transform_feedback();
    expect(&mut c, gl::INVALID_OPERATION, "end while inactive");
    c.pause_transform_feedback();
    expect(&mut c, gl::INVALID_OPERATION, "pause while inactive");
    c.begin_transform_feedback(gl::POINTS);
    expect(&mut c, gl::NO_ERROR, "begin");
    assert_eq!(c.get_booleanv(gl::TRANSFORM_FEEDBACK_ACTIVE), [true]);
    c.begin_transform_feedback(gl::POINTS);
    expect(&mut c, gl::INVALID_OPERATION, "begin while active");
    c.draw_arrays(gl::LINES, 0, 2);
    expect(
        &mut c,
        gl::INVALID_OPERATION,
        "draw mode not the primitive mode",
    );
    c.use_program(plain);
    expect(
        &mut c,
        gl::INVALID_OPERATION,
        "use another program while active",
    );
    c.link_program(p);
    expect(&mut c, gl::INVALID_OPERATION, "relink the captured program");
    c.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, 0, b);
    expect(
        &mut c,
        gl::INVALID_OPERATION,
        "rebind a buffer while active",
    );
    let xfb = c.gen_transform_feedbacks(1)[0];
    c.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, xfb);
    expect(
        &mut c,
        gl::INVALID_OPERATION,
        "bind another object while active",
    );
    c.resume_transform_feedback();
    expect(&mut c, gl::INVALID_OPERATION, "resume while not paused");
    c.pause_transform_feedback();
    c.use_program(plain);
    c.resume_transform_feedback();
    expect(&mut c, gl::INVALID_OPERATION, "resume with another program");
    c.use_program(p);
    c.resume_transform_feedback();
    c.end_transform_feedback();
    expect(&mut c, gl::NO_ERROR, "resume and end");
    c.draw_transform_feedback(gl::POINTS, xfb);
    expect(&mut c, gl::INVALID_VALUE, "never-bound name is no object");
    let made = c.create_transform_feedbacks(1)[0];
    c.draw_transform_feedback(gl::POINTS, made);
    expect(&mut c, gl::INVALID_OPERATION, "draw before any end");
    c.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, made);
    c.transform_feedback_buffer_base(made, 0, b);
    c.begin_transform_feedback(gl::POINTS);
    c.delete_transform_feedbacks(&[made]);
    expect(&mut c, gl::INVALID_OPERATION, "delete an active object");
    c.end_transform_feedback();
    c.delete_transform_feedbacks(&[made]);
    expect(&mut c, gl::NO_ERROR, "delete after end");
    assert_eq!(c.get_integerv(gl::TRANSFORM_FEEDBACK_BINDING), [0]);
}

#[test]
fn capturing_does_not_change_what_is_drawn() {
    let vs = "#version 150
in float x;
out vec4 col;
void main() {
    int i = gl_VertexID;
    gl_Position = vec4(i == 1 ? 3.0 : -1.0, i == 2 ? 3.0 : -1.0, 0.0, 1.0);
    col = vec4(x, 0.5, 0.25, 1.0);
}";
    let fs = "#version 150
in vec4 col;
out vec4 c;
void main() { c = col; }";
    let image = |capture: bool| {
        both_threads(|t| {
            let mut c = setup(t, &[1.0, 1.0, 1.0]);
            let p = if capture {
                linked(
                    &mut c,
                    &[(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)],
                    &["col"],
                    gl::INTERLEAVED_ATTRIBS,
                )
            } else {
                common::program(&mut c, vs, fs)
            };
            c.use_program(p);
            let b = xfb_buffer(&mut c, 0, 4 * 12);
            if capture {
                c.begin_transform_feedback(gl::TRIANGLES);
            }
            c.draw_arrays(gl::TRIANGLES, 0, 3);
            if capture {
                c.end_transform_feedback();
            }
            assert_eq!(c.get_error(), gl::NO_ERROR);
            let img = c.read_pixels(0, 0, 8, 8, gl::RGBA, gl::UNSIGNED_BYTE);
            (img, words(&mut c, b))
        })
    };
    let (with, captured) = image(true);
    let (without, untouched) = image(false);
    assert_eq!(with, without);
    assert!(with.chunks(4).all(|p| p == [255, 128, 64, 255]));
    let col = [f(1.0), f(0.5), f(0.25), f(1.0)];
    assert_eq!(captured, [col, col, col].concat());
    assert_eq!(untouched, [UNTOUCHED; 12]);
}

#[test]
fn struct_members_are_captured_and_reach_the_fragment_shader() {
    let vs = "#version 150
struct S { float a; ivec2 b[2]; };
in float x;
flat out S v[2];
void main() {
    int i = gl_VertexID;
    gl_Position = vec4(i == 1 ? 3.0 : -1.0, i == 2 ? 3.0 : -1.0, 0.0, 1.0);
    for (int k = 0; k < 2; k++) {
        v[k].a = x + float(k);
        v[k].b[0] = ivec2(10 * k, 11);
        v[k].b[1] = ivec2(12, 13 * k);
    }
}";
    let fs = "#version 150
struct S { float a; ivec2 b[2]; };
flat in S v[2];
out vec4 c;
void main() {
    bool ok = v[1].a == 3.0 && v[1].b[0] == ivec2(10, 11) && v[0].b[1] == ivec2(12, 0);
    c = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}";
    let got = both_threads(|t| {
        let mut c = setup(t, &[2.0, 2.0, 2.0]);
        let p = linked(
            &mut c,
            &[(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)],
            &["v[1].a", "v[0].b", "v[1].b[1]"],
            gl::INTERLEAVED_ATTRIBS,
        );
        assert_eq!(
            c.get_transform_feedback_varying(p, 1),
            (2, gl::INT_VEC2, "v[0].b".to_string())
        );
        c.use_program(p);
        let b = xfb_buffer(&mut c, 0, 4 * 21);
        c.begin_transform_feedback(gl::TRIANGLES);
        c.draw_arrays(gl::TRIANGLES, 0, 3);
        c.end_transform_feedback();
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let img = c.read_pixels(0, 0, 8, 8, gl::RGBA, gl::UNSIGNED_BYTE);
        (img, words(&mut c, b))
    });
    assert!(
        got.0.chunks(4).all(|p| p == [0, 255, 0, 255]),
        "fragment shader saw the leaves"
    );
    let vertex = [f(3.0), 0, 11, 12, 0, 12, 13];
    assert_eq!(got.1, [vertex, vertex, vertex].concat());
    let mut c = setup(1, &[0.0]);
    for bad in ["v", "v[0]", "v.a"] {
        let (_, r) = link(
            &mut c,
            &[(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)],
            &[bad],
            gl::INTERLEAVED_ATTRIBS,
        );
        assert!(r.is_err(), "{bad} must not link");
    }
}

const VS_XFB: &str = "#version 440
in float x;
layout(xfb_buffer = 1, xfb_stride = 32) out;
layout(xfb_offset = 4) out float a;
layout(xfb_buffer = 1, xfb_offset = 8) out vec2 b;
out float not_captured;
layout(xfb_buffer = 0, xfb_offset = 12) out B { float c; layout(xfb_offset = 0) vec2 d; float e; } blk;
layout(xfb_buffer = 2) out;
layout(xfb_offset = 0) out float f[2];
void main() {
    gl_Position = vec4(0.0);
    a = x;
    b = vec2(x * 2.0, x * 3.0);
    not_captured = 9.0;
    blk.c = x + 0.5;
    blk.d = vec2(-x, x * 10.0);
    blk.e = 7.0;
    f[0] = 1.0;
    f[1] = x;
}";

#[test]
fn xfb_layout_qualifiers_capture_without_transform_feedback_varyings() {
    let got = both_threads(|t| {
        let mut c = setup(t, &[1.0, 2.0]);
        // The shader's qualifiers win over glTransformFeedbackVaryings (GL 4.5 core
        // §11.1.2.1).
        let p = linked(
            &mut c,
            &[(gl::VERTEX_SHADER, VS_XFB)],
            &["not_captured"],
            gl::SEPARATE_ATTRIBS,
        );
        c.use_program(p);
        let b0 = xfb_buffer(&mut c, 0, 4 * 9);
        let b1 = xfb_buffer(&mut c, 1, 4 * 17);
        let b2 = xfb_buffer(&mut c, 2, 4 * 5);
        c.enable(gl::RASTERIZER_DISCARD);
        c.begin_transform_feedback(gl::POINTS);
        c.draw_arrays(gl::POINTS, 0, 2);
        c.end_transform_feedback();
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let names: Vec<(i32, u32, String)> = (0..c
            .get_programiv(p, gl::TRANSFORM_FEEDBACK_VARYINGS))
            .map(|i| c.get_transform_feedback_varying(p, i as u32))
            .collect();
        let tfb = gl::TRANSFORM_FEEDBACK_BUFFER;
        let strides: Vec<Vec<i32>> = (0..3)
            .map(|i| {
                c.get_program_resourceiv(
                    p,
                    tfb,
                    i,
                    &[gl::BUFFER_BINDING, gl::TRANSFORM_FEEDBACK_BUFFER_STRIDE],
                )
            })
            .collect();
        let mode = c.get_programiv(p, gl::TRANSFORM_FEEDBACK_BUFFER_MODE) as u32;
        (
            [words(&mut c, b0), words(&mut c, b1), words(&mut c, b2)],
            names,
            strides,
            mode,
        )
    });
    let (bufs, names, strides, mode) = got;
    let u = UNTOUCHED;
    let mut want0 = Vec::new();
    let mut want1 = Vec::new();
    let mut want2 = Vec::new();
    for x in [1.0f32, 2.0] {
        want0.extend([f(-x), f(x * 10.0), f(7.0), f(x + 0.5)]);
        want1.extend([u, f(x), f(x * 2.0), f(x * 3.0), u, u, u, u]);
        want2.extend([f(1.0), f(x)]);
    }
    want0.push(u);
    want1.push(u);
    want2.push(u);
    assert_eq!(
        bufs[0], want0,
        "buffer 0: B.d at 0, B.e after it, B.c at 12"
    );
    assert_eq!(bufs[1], want1, "buffer 1: a at 4, b at 8, stride 32");
    assert_eq!(bufs[2], want2, "buffer 2: f[2] at 0");
    let n = |s: &str| s.to_string();
    assert_eq!(
        names,
        [
            (1, gl::FLOAT_VEC2, n("B.d")),
            (1, gl::FLOAT, n("B.e")),
            (1, gl::FLOAT, n("B.c")),
            (1, gl::FLOAT, n("a")),
            (1, gl::FLOAT_VEC2, n("b")),
            (2, gl::FLOAT, n("f")),
        ]
    );
    assert_eq!(strides, [vec![0, 16], vec![1, 32], vec![2, 8]]);
    assert_eq!(mode, gl::INTERLEAVED_ATTRIBS);
}

#[test]
fn xfb_layout_qualifier_errors() {
    let mut c = common::context(4, 4, 1);
    let vs = |decls: &str| {
        format!("#version 440\n{decls}\nvoid main() {{ gl_Position = vec4(0.0); }}\n")
    };
    let compile_errors = [
        vs("layout(xfb_offset = 2) out float a;"),
        vs("layout(xfb_buffer = 4, xfb_offset = 0) out float a;"),
        vs("layout(xfb_stride = 6) out;"),
        vs("layout(xfb_offset = 0) out;"),
        vs("layout(xfb_buffer = 1, xfb_stride = 16) out;\nlayout(xfb_buffer = 1, xfb_stride = 32) out;"),
        vs("layout(xfb_buffer = 1) out B { layout(xfb_buffer = 2, xfb_offset = 0) float a; };"),
        vs("layout(xfb_offset = 0) in float a;"),
        "#version 430\nlayout(xfb_offset = 0) out float a;\nvoid main() { gl_Position = vec4(0.0); }\n"
            .to_string(),
        "#version 440\nlayout(xfb_offset = 0) out vec4 c;\nvoid main() { c = vec4(1.0); }\n"
            .to_string(),
    ];
    for (i, src) in compile_errors.iter().enumerate() {
        let kind = if i == compile_errors.len() - 1 {
            gl::FRAGMENT_SHADER
        } else {
            gl::VERTEX_SHADER
        };
        let s = c.create_shader(kind);
        c.shader_source(s, &[src]);
        c.compile_shader(s);
        assert_eq!(
            c.get_shaderiv(s, gl::COMPILE_STATUS),
            0,
            "must not compile:\n{src}"
        );
    }
    for (decls, word) in [
        (
            "layout(xfb_offset = 0) out vec2 p;\nlayout(xfb_offset = 4) out float q;",
            "overlaps",
        ),
        (
            "layout(xfb_stride = 4, xfb_offset = 0) out vec2 p;",
            "smaller",
        ),
    ] {
        let (_, r) = link(
            &mut c,
            &[(gl::VERTEX_SHADER, &vs(decls))],
            &[],
            gl::INTERLEAVED_ATTRIBS,
        );
        let err = r.expect_err(decls);
        assert!(err.contains(word), "{err}");
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// A buffer of `n` zero words bound to shader storage binding 0.
fn counter_buffer(c: &mut Context, n: usize) -> u32 {
    let b = c.gen_buffers(1)[0];
    c.bind_buffer(gl::SHADER_STORAGE_BUFFER, b);
    c.buffer_data(
        gl::SHADER_STORAGE_BUFFER,
        4 * n as isize,
        Some(&vec![0; 4 * n]),
        gl::DYNAMIC_COPY,
    );
    c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, b);
    b
}

#[test]
fn a_captured_and_drawn_draw_runs_its_shaders_once() {
    // Each vertex (and each geometry invocation) counts itself with an atomic: capture
    // and rasterization share one run of the shaders, with or without a geometry shader,
    // and what is captured and drawn is the same as when only one of them happens.
    let vs = "#version 430
in float x;
out float a;
layout(std430, binding = 0) buffer Count { uint vertices; uint prims; };
void main() {
    gl_Position = vec4(x * 0.25 - 0.875, -0.875, 0.0, 1.0);
    a = x + float(atomicAdd(vertices, 1u) >= 0u ? 0 : 1);
}";
    let gs = "#version 430
layout(points) in;
layout(points, max_vertices = 1) out;
in float a[];
out float g;
layout(std430, binding = 0) buffer Count { uint vertices; uint prims; };
void main() {
    atomicAdd(prims, 1u);
    g = a[0] * 10.0;
    gl_Position = gl_in[0].gl_Position;
    EmitVertex();
}";
    let fs = "#version 430
out vec4 c;
void main() { c = vec4(1.0); }";
    for with_gs in [false, true] {
        let run = |capture: bool, discard: bool| {
            both_threads(|t| {
                let mut c = setup(t, &[0.0, 1.0, 2.0, 3.0]);
                let mut shaders = vec![(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)];
                if with_gs {
                    shaders.push((gl::GEOMETRY_SHADER, gs));
                }
                let varying = if with_gs { "g" } else { "a" };
                let p = linked(&mut c, &shaders, &[varying], gl::INTERLEAVED_ATTRIBS);
                c.use_program(p);
                let counts = counter_buffer(&mut c, 2);
                let b = xfb_buffer(&mut c, 0, 4 * 5);
                if discard {
                    c.enable(gl::RASTERIZER_DISCARD);
                }
                if capture {
                    c.begin_transform_feedback(gl::POINTS);
                }
                c.draw_arrays(gl::POINTS, 0, 4);
                if capture {
                    c.end_transform_feedback();
                }
                c.disable(gl::RASTERIZER_DISCARD);
                assert_eq!(c.get_error(), gl::NO_ERROR);
                let img = c.read_pixels(0, 0, 8, 8, gl::RGBA, gl::UNSIGNED_BYTE);
                (words(&mut c, counts), words(&mut c, b), img)
            })
        };
        let gs_runs = if with_gs { 4 } else { 0 };
        let (both_counts, both_words, both_img) = run(true, false);
        let (drawn_counts, drawn_words, drawn_img) = run(false, false);
        let (captured_counts, captured_words, _) = run(true, true);
        assert_eq!(
            both_counts,
            [4, gs_runs],
            "gs {with_gs}: captured and drawn"
        );
        assert_eq!(drawn_counts, [4, gs_runs], "gs {with_gs}: drawn only");
        assert_eq!(captured_counts, [4, gs_runs], "gs {with_gs}: captured only");
        assert_eq!(both_img, drawn_img);
        assert!(both_img.chunks(4).filter(|p| p[0] == 255).count() == 4);
        assert_eq!(both_words, captured_words);
        assert_eq!(drawn_words, [UNTOUCHED; 5]);
        let scale = if with_gs { 10.0 } else { 1.0 };
        let mut want: Vec<u32> = [0.0f32, 1.0, 2.0, 3.0].map(|x| f(x * scale)).to_vec();
        want.push(UNTOUCHED);
        assert_eq!(both_words, want);
    }
}
