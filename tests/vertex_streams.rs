//! Geometry shader vertex streams and ARB_transform_feedback3 through the Rust `Context`
//! with the real GLSL front end and JIT (GL 4.5 core §11.3.4.3, §13.3, §13.4, GLSL 4.00
//! §4.3.8.2 and §8.12): `layout(stream = N)` on outputs, blocks and as the default,
//! EmitStreamVertex / EndStreamPrimitive, each stream captured exactly into the buffers of
//! its varyings, only stream 0 rasterized, per-stream primitive queries and overflow,
//! glDrawTransformFeedbackStream(Instanced), and the compile, link and command errors.
//! Every capture is made with 1 and 2 threads, which must give the same bytes and pixels.

mod common;

use softgl::{enums as gl, Context};

const VS: &str = "#version 400
in float x;
out float a;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
    a = x + 1.0;
}";

/// Each input point makes, in this order: a stream 0 vertex at pixel (0, 0), two stream 1
/// vertices at pixel (7, 7), one of stream 2 and one of stream 3 (at (7, 0)), and one more
/// stream 0 vertex through plain EmitVertex().
const GS: &str = "#version 400
layout(points) in;
layout(points, max_vertices = 6) out;
in float a[];
out float s0;
layout(stream = 1) out vec2 s1;
layout(stream = 2) out;
out float s2;
layout(stream = 3) out Blk { float s3; layout(stream = 3) float t3; };
void main() {
    float v = a[0];
    s0 = v;
    gl_Position = vec4(-0.875, -0.875, 0.0, 1.0);
    EmitStreamVertex(0);
    for (int i = 0; i < 2; i++) {
        s1 = vec2(v * 10.0, float(i));
        gl_Position = vec4(0.875, 0.875, 0.0, 1.0);
        EmitStreamVertex(1);
    }
    EndStreamPrimitive(1);
    s2 = -v;
    gl_Position = vec4(0.875, -0.875, 0.0, 1.0);
    EmitStreamVertex(2);
    s3 = v + 0.5;
    t3 = v * 4.0;
    gl_Position = vec4(0.875, -0.875, 0.0, 1.0);
    EmitStreamVertex(3);
    EndPrimitive();
    s0 = v + 100.0;
    gl_Position = vec4(-0.875, -0.875, 0.0, 1.0);
    EmitVertex();
}";

const FS: &str = "#version 400
out vec4 c;
void main() { c = vec4(1.0); }";

/// Every stream into its own buffer: binding n records stream n.
const ALL_STREAMS: &[&str] = &[
    "s0",
    "gl_NextBuffer",
    "s1",
    "gl_NextBuffer",
    "s2",
    "gl_NextBuffer",
    "Blk.s3",
    "Blk.t3",
];

fn shader(c: &mut Context, kind: u32, src: &str) -> (u32, Result<(), String>) {
    let s = c.create_shader(kind);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    let ok = c.get_shaderiv(s, gl::COMPILE_STATUS) == 1;
    (
        s,
        if ok {
            Ok(())
        } else {
            Err(c.get_shader_info_log(s))
        },
    )
}

/// Links `shaders` after glTransformFeedbackVaryings(`varyings`, `mode`): the program, or
/// the first compile log or the link log.
fn link(
    c: &mut Context,
    shaders: &[(u32, &str)],
    varyings: &[&str],
    mode: u32,
) -> Result<u32, String> {
    let p = c.create_program();
    for &(kind, src) in shaders {
        let (s, r) = shader(c, kind, src);
        r?;
        c.attach_shader(p, s);
    }
    c.transform_feedback_varyings(p, varyings, mode);
    c.link_program(p);
    if c.get_programiv(p, gl::LINK_STATUS) == 1 {
        Ok(p)
    } else {
        Err(c.get_program_info_log(p))
    }
}

fn linked(c: &mut Context, shaders: &[(u32, &str)], varyings: &[&str]) -> u32 {
    link(c, shaders, varyings, gl::INTERLEAVED_ATTRIBS).unwrap_or_else(|e| panic!("{e}"))
}

/// An 8×8 context on `threads` workers with `xs` in attribute 0.
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

/// A buffer of `n` words of 0xEEEEEEEE bound to transform feedback binding `index`.
fn xfb_buffer(c: &mut Context, index: u32, n: usize) -> u32 {
    let b = c.gen_buffers(1)[0];
    c.bind_buffer(gl::TRANSFORM_FEEDBACK_BUFFER, b);
    c.buffer_data(
        gl::TRANSFORM_FEEDBACK_BUFFER,
        4 * n as isize,
        Some(&vec![0xEE; 4 * n]),
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

fn both_threads<T: PartialEq + std::fmt::Debug>(body: impl Fn(usize) -> T) -> T {
    let one = body(1);
    let two = body(2);
    assert_eq!(one, two, "1 vs 2 threads");
    one
}

/// Begins PRIMITIVES_GENERATED and TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN queries on every
/// stream; the names, generated first.
fn begin_stream_queries(c: &mut Context) -> Vec<u32> {
    let qs = c.gen_queries(8);
    for s in 0..4 {
        c.begin_query_indexed(gl::PRIMITIVES_GENERATED, s, qs[s as usize]);
        c.begin_query_indexed(
            gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN,
            s,
            qs[4 + s as usize],
        );
    }
    qs
}

/// Ends the queries of `begin_stream_queries`: (generated, written) per stream.
fn end_stream_queries(c: &mut Context, qs: &[u32]) -> (Vec<u64>, Vec<u64>) {
    for s in 0..4 {
        c.end_query_indexed(gl::PRIMITIVES_GENERATED, s);
        c.end_query_indexed(gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, s);
    }
    let mut result = |q: u32| c.get_query_object(q, gl::QUERY_RESULT).expect("a result");
    let generated = qs[..4].iter().map(|&q| result(q)).collect();
    let written = qs[4..].iter().map(|&q| result(q)).collect();
    (generated, written)
}

#[test]
fn each_stream_is_captured_into_its_own_buffers_and_only_stream_0_is_drawn() {
    let got = both_threads(|t| {
        let mut c = setup(t, &[1.0, 2.0, 3.0]);
        let p = linked(
            &mut c,
            &[
                (gl::VERTEX_SHADER, VS),
                (gl::GEOMETRY_SHADER, GS),
                (gl::FRAGMENT_SHADER, FS),
            ],
            ALL_STREAMS,
        );
        c.use_program(p);
        let bufs = [(0, 7), (1, 13), (2, 4), (3, 7)].map(|(i, n)| xfb_buffer(&mut c, i, n));
        let qs = begin_stream_queries(&mut c);
        c.begin_transform_feedback(gl::POINTS);
        c.draw_arrays(gl::POINTS, 0, 3);
        c.end_transform_feedback();
        let counts = end_stream_queries(&mut c, &qs);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let image = c.read_pixels(0, 0, 8, 8, gl::RGBA, gl::UNSIGNED_BYTE);
        (bufs.map(|b| words(&mut c, b)), counts, image)
    });
    let (bufs, (generated, written), image) = got;
    let vs = [2.0f32, 3.0, 4.0];
    let mut s0 = vs
        .iter()
        .flat_map(|&v| [f(v), f(v + 100.0)])
        .collect::<Vec<_>>();
    s0.push(UNTOUCHED);
    assert_eq!(bufs[0], s0, "stream 0");
    let mut s1 = Vec::new();
    for v in vs {
        s1.extend([f(v * 10.0), f(0.0), f(v * 10.0), f(1.0)]);
    }
    s1.push(UNTOUCHED);
    assert_eq!(bufs[1], s1, "stream 1");
    assert_eq!(bufs[2], [f(-2.0), f(-3.0), f(-4.0), UNTOUCHED], "stream 2");
    let mut s3 = vs
        .iter()
        .flat_map(|&v| [f(v + 0.5), f(v * 4.0)])
        .collect::<Vec<_>>();
    s3.push(UNTOUCHED);
    assert_eq!(bufs[3], s3, "stream 3");
    assert_eq!(generated, [6, 6, 3, 3]);
    assert_eq!(written, [6, 6, 3, 3]);
    // Only stream 0's vertices, all at pixel (0, 0), reach the framebuffer.
    for (i, px) in image.chunks(4).enumerate() {
        let lit = i == 0;
        assert_eq!(px[0] == 255, lit, "pixel {} {}", i % 8, i / 8);
    }
}

#[test]
fn overflow_and_missing_buffers_are_per_stream() {
    let got = both_threads(|t| {
        let mut c = setup(t, &[1.0, 2.0, 3.0]);
        let p = linked(
            &mut c,
            &[(gl::VERTEX_SHADER, VS), (gl::GEOMETRY_SHADER, GS)],
            &["s0", "gl_NextBuffer", "s1"],
        );
        c.use_program(p);
        // Room for all of stream 0, for 2.5 vertices of stream 1.
        let b0 = xfb_buffer(&mut c, 0, 6);
        let b1 = xfb_buffer(&mut c, 1, 5);
        c.enable(gl::RASTERIZER_DISCARD);
        let qs = begin_stream_queries(&mut c);
        c.begin_transform_feedback(gl::POINTS);
        c.draw_arrays(gl::POINTS, 0, 3);
        c.end_transform_feedback();
        let counts = end_stream_queries(&mut c, &qs);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        (words(&mut c, b0), words(&mut c, b1), counts)
    });
    let (b0, b1, (generated, written)) = got;
    assert_eq!(
        b0,
        [2.0, 102.0, 3.0, 103.0, 4.0, 104.0].map(f),
        "stream 0 is not stopped by stream 1's overflow"
    );
    assert_eq!(b1, [f(20.0), f(0.0), f(20.0), f(1.0), UNTOUCHED]);
    assert_eq!(generated, [6, 6, 3, 3]);
    // Streams 2 and 3 have no buffer: generated, never written.
    assert_eq!(written, [6, 2, 0, 0]);
}

#[test]
fn draw_transform_feedback_stream_draws_what_each_stream_recorded() {
    let counts = both_threads(|t| {
        let mut c = setup(t, &[1.0, 2.0, 3.0]);
        let p = linked(
            &mut c,
            &[(gl::VERTEX_SHADER, VS), (gl::GEOMETRY_SHADER, GS)],
            // Stream 3 records nothing: its count stays 0 although it emitted vertices.
            &["s0", "gl_NextBuffer", "s1", "gl_NextBuffer", "s2"],
        );
        c.use_program(p);
        let xfb = c.gen_transform_feedbacks(1)[0];
        c.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, xfb);
        for i in 0..3 {
            xfb_buffer(&mut c, i, 16);
        }
        c.enable(gl::RASTERIZER_DISCARD);
        c.begin_transform_feedback(gl::POINTS);
        c.draw_arrays(gl::POINTS, 0, 3);
        c.end_transform_feedback();
        c.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, 0);
        // Replay each stream's count with a plain program, counting its points.
        let replay = common::program(
            &mut c,
            "#version 400\nvoid main() { gl_Position = vec4(0.0); }",
            FS,
        );
        c.use_program(replay);
        let q = c.gen_queries(1)[0];
        let mut counts = Vec::new();
        for s in 0..4 {
            for instances in [1, 2] {
                c.begin_query(gl::PRIMITIVES_GENERATED, q);
                if instances == 1 {
                    c.draw_transform_feedback_stream(gl::POINTS, xfb, s);
                } else {
                    c.draw_transform_feedback_stream_instanced(gl::POINTS, xfb, s, instances);
                }
                c.end_query(gl::PRIMITIVES_GENERATED);
                counts.push(c.get_query_object(q, gl::QUERY_RESULT).expect("a result"));
            }
        }
        c.draw_transform_feedback(gl::POINTS, xfb);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        c.draw_transform_feedback_stream(gl::POINTS, xfb, 4);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.draw_transform_feedback_stream_instanced(gl::POINTS, xfb, 4, 1);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        counts
    });
    assert_eq!(counts, [6, 12, 6, 12, 3, 6, 0, 0]);
}

/// A geometry shader of `version` with `decls` before main and `body` in it (points in).
fn gs(version: u32, out: &str, decls: &str, body: &str) -> String {
    format!(
        "#version {version}\nlayout(points) in;\nlayout({out}, max_vertices = 4) out;\n{decls}\nvoid main() {{\n{body}\n}}\n"
    )
}

#[test]
fn stream_compile_errors() {
    let mut c = common::context(4, 4, 1);
    let emit = "gl_Position = vec4(0.0); EmitStreamVertex(1);";
    let bad = [
        gs(400, "points", "", "EmitStreamVertex(4);"),
        gs(400, "points", "", "EmitStreamVertex(-1);"),
        gs(400, "points", "", "int k = 1; EmitStreamVertex(k);"),
        gs(400, "points", "", "EndStreamPrimitive(4);"),
        gs(400, "points", "layout(stream = 4) out vec4 v;", emit),
        gs(400, "points", "layout(stream = 4) out;", emit),
        gs(
            400,
            "points",
            "out B { layout(stream = 1) float x; };",
            "x = 1.0; EmitVertex();",
        ),
        gs(
            400,
            "points",
            "layout(stream = 2) out B { layout(stream = 1) float x; } b;",
            emit,
        ),
        gs(150, "points", "layout(stream = 1) out float v;", "EmitVertex();"),
        gs(150, "points", "", "EmitStreamVertex(0);"),
        "#version 400\nlayout(points, stream = 1) in;\nlayout(points, max_vertices = 1) out;\nvoid main() {}\n".into(),
    ];
    for src in &bad {
        let (_, r) = shader(&mut c, gl::GEOMETRY_SHADER, src);
        assert!(r.is_err(), "must not compile:\n{src}");
    }
    let vs = "#version 400\nlayout(stream = 1) out vec4 v;\nvoid main() { gl_Position = vec4(0.0); v = vec4(1.0); }";
    assert!(
        shader(&mut c, gl::VERTEX_SHADER, vs).1.is_err(),
        "stream on a VS output"
    );
    let good = [
        gs(
            400,
            "points",
            "const int S = 2;\nlayout(stream = S) out float v;",
            "v = 1.0; EmitStreamVertex(S); EndStreamPrimitive(S);",
        ),
        gs(
            400,
            "points",
            "layout(stream = 3) out B { layout(stream = 3) float x; float y; };",
            "x = 1.0; y = 2.0; EmitStreamVertex(3);",
        ),
        gs(
            150,
            "line_strip",
            "layout(stream = 0) out float v;",
            "v = 1.0; EmitVertex();",
        ),
    ];
    for src in &good {
        let (_, r) = shader(&mut c, gl::GEOMETRY_SHADER, src);
        r.unwrap_or_else(|e| panic!("must compile:\n{src}\n{e}"));
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn stream_link_errors() {
    let mut c = common::context(4, 4, 1);
    let vs = "#version 400\nvoid main() { gl_Position = vec4(0.0); }";
    let fs_in = "#version 400\nin float v;\nout vec4 c;\nvoid main() { c = vec4(v); }";
    let decl = "layout(stream = 1) out float v;";
    let cases: [(String, &str, &[&str], &str); 4] = [
        // GLSL 4.00 §8.12: a shader emitting to a stream other than 0 outputs points.
        (
            gs(400, "triangle_strip", decl, "v = 1.0; EmitStreamVertex(1);"),
            FS,
            &[],
            "points",
        ),
        // Only stream 0 reaches the fragment shader.
        (
            gs(400, "points", decl, "v = 1.0; EmitStreamVertex(1);"),
            fs_in,
            &[],
            "stream",
        ),
        // One buffer, two streams.
        (
            gs(
                400,
                "points",
                "out float w;\nlayout(stream = 1) out float v;",
                "w = 0.0; EmitVertex(); v = 1.0; EmitStreamVertex(1);",
            ),
            FS,
            &["w", "v"],
            "stream",
        ),
        (
            gs(
                400,
                "points",
                "out float w;\nlayout(stream = 1) out float v;",
                "w = 0.0; EmitVertex(); v = 1.0; EmitStreamVertex(1);",
            ),
            FS,
            &["v", "gl_SkipComponents1", "w"],
            "stream",
        ),
    ];
    for (g, fs, varyings, word) in &cases {
        let shaders = [
            (gl::VERTEX_SHADER, vs),
            (gl::GEOMETRY_SHADER, g.as_str()),
            (gl::FRAGMENT_SHADER, *fs),
        ];
        let err = link(&mut c, &shaders, varyings, gl::INTERLEAVED_ATTRIBS)
            .expect_err(&format!("must not link:\n{g}\n{fs}\n{varyings:?}"));
        assert!(err.contains(word), "{err}");
    }
    // The same varyings in separate mode go to two buffers: fine.
    let g = gs(
        400,
        "points",
        "out float w;\nlayout(stream = 1) out float v;",
        "w = 0.0; EmitVertex(); v = 1.0; EmitStreamVertex(1);",
    );
    let shaders = [(gl::VERTEX_SHADER, vs), (gl::GEOMETRY_SHADER, g.as_str())];
    link(&mut c, &shaders, &["w", "v"], gl::SEPARATE_ATTRIBS).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn transform_feedback3_command_errors_and_limits() {
    let mut c = common::context(4, 4, 1);
    assert_eq!(c.get_integerv(gl::MAX_VERTEX_STREAMS), [4]);
    assert_eq!(c.get_integerv(gl::MAX_TRANSFORM_FEEDBACK_BUFFERS), [4]);
    let p = c.create_program();
    // The separators are for interleaved mode only, and at most MAX_BUFFERS − 1 of
    // gl_NextBuffer (ARB_transform_feedback3 errors).
    for names in [
        &["a", "gl_NextBuffer"][..],
        &["gl_SkipComponents1", "a"][..],
        &["gl_SkipComponents4"][..],
    ] {
        c.transform_feedback_varyings(p, names, gl::SEPARATE_ATTRIBS);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "{names:?}");
    }
    let four = [
        "a",
        "gl_NextBuffer",
        "b",
        "gl_NextBuffer",
        "c",
        "gl_NextBuffer",
        "d",
        "gl_NextBuffer",
        "e",
    ];
    c.transform_feedback_varyings(p, &four, gl::INTERLEAVED_ATTRIBS);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.transform_feedback_varyings(p, &four[..7], gl::INTERLEAVED_ATTRIBS);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.transform_feedback_varyings(p + 100, &["a"], gl::INTERLEAVED_ATTRIBS);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    // Indexed queries: the index is below MAX_VERTEX_STREAMS for the primitive targets and
    // 0 for the others.
    let q = c.gen_queries(2);
    c.begin_query_indexed(gl::PRIMITIVES_GENERATED, 4, q[0]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.begin_query_indexed(gl::SAMPLES_PASSED, 1, q[0]);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.end_query_indexed(gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 4);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.get_query_indexediv(gl::PRIMITIVES_GENERATED, 4, gl::CURRENT_QUERY);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.end_query_indexed(gl::PRIMITIVES_GENERATED, 2);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.begin_query_indexed(gl::PRIMITIVES_GENERATED, 2, q[0]);
    c.begin_query_indexed(gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 3, q[1]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        c.get_query_indexediv(gl::PRIMITIVES_GENERATED, 2, gl::CURRENT_QUERY),
        q[0] as i32
    );
    assert_eq!(
        c.get_query_indexediv(gl::PRIMITIVES_GENERATED, 1, gl::CURRENT_QUERY),
        0
    );
    // A query active on one index cannot begin on another.
    c.begin_query_indexed(gl::PRIMITIVES_GENERATED, 1, q[0]);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.end_query_indexed(gl::PRIMITIVES_GENERATED, 2);
    c.end_query_indexed(gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let xfb = c.gen_transform_feedbacks(1)[0];
    c.draw_transform_feedback_stream(gl::POINTS, xfb, 1);
    assert_eq!(
        c.get_error(),
        gl::INVALID_VALUE,
        "never bound: not an object yet"
    );
}
