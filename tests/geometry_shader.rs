//! Geometry shaders through the Rust `Context` with the real GLSL front end and JIT (GL 3.2
//! core §11.3, GLSL 1.50 §8.10): pass-through triangles, points expanded to quads, line
//! strips and EndPrimitive, adjacency inputs, invocations, gl_PrimitiveIDIn and
//! gl_PrimitiveID read by the fragment shader, vertices past max_vertices dropped, the
//! program queries, limits and errors. Images are exact: a geometry shader that emits a
//! primitive must give the pixels of the same primitive drawn without one; each image is
//! rendered with 1 and 2 threads, which must agree.

mod common;

use softgl::{enums as gl, Context};

const W: u32 = 16;
const H: u32 = 16;

const VS: &str = "#version 150
in vec2 pos;
in vec4 col;
out vec4 v_col;
void main() { gl_Position = vec4(pos, 0.0, 1.0); v_col = col; }";

const FS_GS: &str = "#version 150
in vec4 g_col;
out vec4 c;
void main() { c = g_col; }";

const FS_VS: &str = "#version 150
in vec4 v_col;
out vec4 c;
void main() { c = v_col; }";

/// One vertex: NDC position and colour.
type V = [f32; 6];

fn red(x: f32, y: f32) -> V {
    [x, y, 1.0, 0.0, 0.0, 1.0]
}

fn col(x: f32, y: f32, c: [f32; 4]) -> V {
    [x, y, c[0], c[1], c[2], c[3]]
}

fn compile(c: &mut Context, kind: u32, src: &str) -> (u32, bool, String) {
    let s = c.create_shader(kind);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    let ok = c.get_shaderiv(s, gl::COMPILE_STATUS) == 1;
    (s, ok, c.get_shader_info_log(s))
}

/// Links the shaders (each must compile); the program, its status and log.
fn link(c: &mut Context, shaders: &[(u32, &str)]) -> (u32, bool, String) {
    let p = c.create_program();
    for &(kind, src) in shaders {
        let (s, ok, log) = compile(c, kind, src);
        assert!(ok, "{log}");
        c.attach_shader(p, s);
    }
    c.link_program(p);
    let ok = c.get_programiv(p, gl::LINK_STATUS) == 1;
    (p, ok, c.get_program_info_log(p))
}

/// A context with the program of `gs` (or none) current and `verts` in attributes
/// `pos` and `col`.
fn setup(threads: usize, gs: Option<&str>, fs: &str, verts: &[V]) -> (Context, u32) {
    setup_vs(threads, VS, gs, fs, verts)
}

fn setup_vs(threads: usize, vs: &str, gs: Option<&str>, fs: &str, verts: &[V]) -> (Context, u32) {
    let mut c = common::context(W, H, threads);
    let p = match gs {
        Some(gs) => {
            let shaders = [
                (gl::VERTEX_SHADER, vs),
                (gl::GEOMETRY_SHADER, gs),
                (gl::FRAGMENT_SHADER, fs),
            ];
            let (p, ok, log) = link(&mut c, &shaders);
            assert!(ok, "{log}");
            p
        }
        None => common::program(&mut c, vs, fs),
    };
    c.use_program(p);
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, vbo);
    let bytes: Vec<u8> = verts
        .iter()
        .flatten()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    c.buffer_data(
        gl::ARRAY_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        gl::STATIC_DRAW,
    );
    for (name, n, off) in [("pos", 2, 0), ("col", 4, 8)] {
        let loc = c.get_attrib_location(p, name);
        if loc >= 0 {
            c.vertex_attrib_pointer(loc as u32, n, gl::FLOAT, false, 24, off);
            c.enable_vertex_attrib_array(loc as u32);
        }
    }
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    (c, p)
}

fn read(c: &mut Context) -> Vec<u8> {
    c.read_pixels(0, 0, W as i32, H as i32, gl::RGBA, gl::UNSIGNED_BYTE)
}

/// The image of one draw, the same with 1 and 2 threads.
fn render(gs: Option<&str>, fs: &str, mode: u32, verts: &[V], instances: i32) -> Vec<u8> {
    render_vs(VS, gs, fs, mode, verts, instances)
}

fn render_vs(
    vs: &str,
    gs: Option<&str>,
    fs: &str,
    mode: u32,
    verts: &[V],
    instances: i32,
) -> Vec<u8> {
    let mut images = Vec::new();
    for threads in [1, 2] {
        let (mut c, _) = setup_vs(threads, vs, gs, fs, verts);
        c.draw_arrays_instanced(mode, 0, verts.len() as i32, instances);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        images.push(read(&mut c));
    }
    assert_eq!(images[0], images[1], "1 and 2 threads agree");
    images.pop().unwrap_or_default()
}

/// The same draw without a geometry shader.
fn reference(mode: u32, verts: &[V]) -> Vec<u8> {
    render(None, FS_VS, mode, verts, 1)
}

fn lit(img: &[u8]) -> usize {
    img.chunks(4).filter(|p| p[3] != 0).count()
}

const PASS_TRIANGLES: &str = "#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v_col[];
out vec4 g_col;
void main() {
    for (int i = 0; i < gl_in.length(); i++) {
        gl_Position = gl_in[i].gl_Position;
        g_col = v_col[i];
        EmitVertex();
    }
    EndPrimitive();
}";

#[test]
fn pass_through_triangles_match_no_geometry_shader() {
    let verts = [
        col(-0.9, -0.9, [1.0, 0.0, 0.0, 1.0]),
        col(0.8, -0.7, [0.0, 1.0, 0.0, 1.0]),
        col(-0.2, 0.9, [0.0, 0.0, 1.0, 1.0]),
        col(0.9, 0.9, [1.0, 1.0, 0.0, 1.0]),
    ];
    for mode in [gl::TRIANGLES, gl::TRIANGLE_STRIP, gl::TRIANGLE_FAN] {
        let n = if mode == gl::TRIANGLES { 3 } else { 4 };
        let want = reference(mode, &verts[..n]);
        assert!(lit(&want) > 50);
        assert_eq!(
            render(Some(PASS_TRIANGLES), FS_GS, mode, &verts[..n], 1),
            want
        );
    }
}

/// Interface blocks: the vertex shader's `out VB { } vo;` read as `in VB { } vi[];`,
/// the geometry shader's `out GB { } go;` read by the fragment shader; instanced draws
/// run the geometry shader per instance.
#[test]
fn interface_blocks_and_instances_pass_through() {
    let vs = "#version 150
in vec2 pos;
in vec4 col;
out VB { vec4 c; vec2 p; } vo;
void main() { gl_Position = vec4(pos, 0.0, 1.0); vo.c = col; vo.p = pos; }";
    let gs = "#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in VB { vec4 c; vec2 p; } vi[];
out GB { vec4 c; } go;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = vec4(vi[i].p, 0.0, 1.0);
        go.c = vi[i].c * 0.5;
        EmitVertex();
    }
}";
    let fs = "#version 150
in GB { vec4 c; } gi;
out vec4 c;
void main() { c = gi.c; }";
    let tri = [
        col(-0.9, -0.9, [1.0, 0.0, 0.0, 1.0]),
        col(0.8, -0.7, [0.0, 1.0, 0.0, 1.0]),
        col(-0.2, 0.9, [0.0, 0.0, 1.0, 1.0]),
    ];
    let half: Vec<V> = tri
        .iter()
        .map(|v| [v[0], v[1], v[2] * 0.5, v[3] * 0.5, v[4] * 0.5, v[5] * 0.5])
        .collect();
    let want = reference(gl::TRIANGLES, &half);
    assert!(lit(&want) > 50);
    assert_eq!(render_vs(vs, Some(gs), fs, gl::TRIANGLES, &tri, 2), want);
}

/// Each point becomes a quad of ±0.25 NDC (4×4 pixels of a 16×16 target), coloured by
/// gl_PrimitiveIDIn.
#[test]
fn points_expand_to_quads() {
    let gs = "#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
out vec4 g_col;
void main() {
    vec4 c = gl_PrimitiveIDIn == 0 ? vec4(1, 0, 0, 1) : vec4(0, 1, 0, 1);
    for (int k = 0; k < 4; k++) {
        vec2 o = vec2(k % 2 == 0 ? -0.25 : 0.25, k < 2 ? -0.25 : 0.25);
        gl_Position = gl_in[0].gl_Position + vec4(o, 0.0, 0.0);
        g_col = c;
        EmitVertex();
    }
}";
    let img = render(
        Some(gs),
        FS_GS,
        gl::POINTS,
        &[red(-0.5, -0.5), red(0.5, 0.25)],
        1,
    );
    for y in 0..H as usize {
        for x in 0..W as usize {
            let p = &img[(y * W as usize + x) * 4..][..4];
            let want: [u8; 4] = if (2..6).contains(&x) && (2..6).contains(&y) {
                [255, 0, 0, 255]
            } else if (10..14).contains(&x) && (8..12).contains(&y) {
                [0, 255, 0, 255]
            } else {
                [0; 4]
            };
            assert_eq!(p, want, "pixel ({x}, {y})");
        }
    }
}

/// A line strip of three vertices, then EndPrimitive and a separate segment: the same
/// pixels as GL_LINES of the three segments (no segment joins the two strips).
#[test]
fn line_strips_split_at_end_primitive() {
    let gs = "#version 150
layout(points) in;
layout(line_strip, max_vertices = 5) out;
out vec4 g_col;
void main() {
    vec4 p = gl_in[0].gl_Position;
    g_col = vec4(1, 1, 1, 1);
    gl_Position = p; EmitVertex();
    gl_Position = p + vec4(0.5, 0.0, 0, 0); EmitVertex();
    gl_Position = p + vec4(0.5, 0.5, 0, 0); EmitVertex();
    EndPrimitive();
    gl_Position = p + vec4(0.0, 1.0, 0, 0); EmitVertex();
    gl_Position = p + vec4(1.0, 1.0, 0, 0); EmitVertex();
}";
    let o = (-0.78, -0.72);
    let w = |x: f32, y: f32| col(o.0 + x, o.1 + y, [1.0; 4]);
    let want = reference(
        gl::LINES,
        &[
            w(0.0, 0.0),
            w(0.5, 0.0),
            w(0.5, 0.0),
            w(0.5, 0.5),
            w(0.0, 1.0),
            w(1.0, 1.0),
        ],
    );
    assert!(lit(&want) > 12);
    assert_eq!(
        render(Some(gs), FS_GS, gl::POINTS, &[red(o.0, o.1)], 1),
        want
    );
}

/// triangles_adjacency: the shader draws the triangle of the adjacent vertices 1, 3, 5;
/// lines_adjacency: the segment between the outer vertices 0 and 3.
#[test]
fn adjacency_inputs_reach_the_shader() {
    let gs = "#version 150
layout(triangles_adjacency) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v_col[6];
out vec4 g_col;
void main() {
    for (int i = 1; i < 6; i += 2) {
        gl_Position = gl_in[i].gl_Position;
        g_col = v_col[i];
        EmitVertex();
    }
}";
    let verts = [
        red(0.0, 0.0),
        col(-0.9, -0.9, [0.0, 1.0, 0.0, 1.0]),
        red(0.1, 0.0),
        col(0.9, -0.8, [0.0, 0.0, 1.0, 1.0]),
        red(0.0, 0.1),
        col(0.0, 0.9, [1.0, 1.0, 1.0, 1.0]),
    ];
    let want = reference(gl::TRIANGLES, &[verts[1], verts[3], verts[5]]);
    assert!(lit(&want) > 50);
    assert_eq!(
        render(Some(gs), FS_GS, gl::TRIANGLES_ADJACENCY, &verts, 1),
        want
    );

    let gs_lines = "#version 150
layout(lines_adjacency) in;
layout(line_strip, max_vertices = 2) out;
in vec4 v_col[];
out vec4 g_col;
void main() {
    gl_Position = gl_in[0].gl_Position; g_col = v_col[0]; EmitVertex();
    gl_Position = gl_in[3].gl_Position; g_col = v_col[3]; EmitVertex();
}";
    let line = [
        col(-0.8, -0.6, [1.0, 0.0, 1.0, 1.0]),
        red(0.0, 0.0),
        red(0.1, 0.1),
        col(0.7, 0.5, [0.0, 1.0, 1.0, 1.0]),
    ];
    let want = reference(gl::LINES, &[line[0], line[3]]);
    assert!(lit(&want) > 10);
    assert_eq!(
        render(Some(gs_lines), FS_GS, gl::LINES_ADJACENCY, &line, 1),
        want
    );
}

/// `invocations = 3`: each invocation draws the input triangle moved by its
/// gl_InvocationID; the order (and so the overlap) is invocation order.
#[test]
fn invocations_run_in_order() {
    let gs = "#version 400
layout(triangles, invocations = 3) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v_col[];
out vec4 g_col;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position + vec4(0.25 * float(gl_InvocationID), 0, 0, 0);
        g_col = v_col[i] * (1.0 - 0.25 * float(gl_InvocationID));
        EmitVertex();
    }
}";
    let tri = [
        col(-0.9, -0.9, [1.0, 0.0, 0.0, 1.0]),
        col(0.2, -0.9, [0.0, 1.0, 0.0, 1.0]),
        col(-0.9, 0.6, [0.0, 0.0, 1.0, 1.0]),
    ];
    let mut moved = Vec::new();
    for k in 0..3 {
        let f = 1.0 - 0.25 * k as f32;
        for v in &tri {
            let mut v = *v;
            v[0] += 0.25 * k as f32;
            for c in &mut v[2..6] {
                *c *= f;
            }
            moved.push(v);
        }
    }
    let want = reference(gl::TRIANGLES, &moved);
    assert_eq!(render(Some(gs), FS_GS, gl::TRIANGLES, &tri, 1), want);
}

/// gl_PrimitiveIDIn counts the input primitives of each instance from 0; the fragment
/// shader reads the geometry shader's gl_PrimitiveID.
#[test]
fn primitive_ids_reach_the_fragment_shader() {
    let gs = "#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
void main() {
    for (int k = 0; k < 4; k++) {
        gl_Position = gl_in[0].gl_Position
            + vec4(k % 2 == 0 ? -0.125 : 0.125, k < 2 ? -0.125 : 0.125, 0, 0);
        gl_PrimitiveID = gl_PrimitiveIDIn * 10 + 1;
        EmitVertex();
    }
}";
    let fs = "#version 150
out vec4 c;
void main() { c = vec4(float(gl_PrimitiveID) / 255.0, 0, 0, 1); }";
    let pts = [red(-0.75, -0.75), red(-0.25, -0.75), red(0.25, -0.75)];
    let img = render(Some(gs), fs, gl::POINTS, &pts, 1);
    let at = |x: usize, y: usize| img[(y * W as usize + x) * 4];
    assert_eq!([at(2, 2), at(6, 2), at(10, 2)], [1, 11, 21]);
}

/// Vertices past max_vertices are dropped: the second triangle never appears.
#[test]
fn vertices_past_max_vertices_are_dropped() {
    let gs = "#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 3) out;
out vec4 g_col;
void main() {
    g_col = vec4(1, 1, 1, 1);
    gl_Position = vec4(-0.9, -0.9, 0, 1); EmitVertex();
    gl_Position = vec4(0.0, -0.9, 0, 1); EmitVertex();
    gl_Position = vec4(-0.9, 0.0, 0, 1); EmitVertex();
    EndPrimitive();
    gl_Position = vec4(0.1, 0.1, 0, 1); EmitVertex();
    gl_Position = vec4(0.9, 0.1, 0, 1); EmitVertex();
    gl_Position = vec4(0.1, 0.9, 0, 1); EmitVertex();
}";
    let white = [1.0; 4];
    let want = reference(
        gl::TRIANGLES,
        &[
            col(-0.9, -0.9, white),
            col(0.0, -0.9, white),
            col(-0.9, 0.0, white),
        ],
    );
    assert!(lit(&want) > 10);
    assert_eq!(
        render(Some(gs), FS_GS, gl::POINTS, &[red(0.0, 0.0)], 1),
        want
    );
}

#[test]
fn program_queries_limits_and_draw_errors() {
    let (mut c, p) = setup(1, Some(PASS_TRIANGLES), FS_GS, &[red(0.0, 0.0); 3]);
    assert_eq!(c.get_programiv(p, gl::GEOMETRY_VERTICES_OUT), 3);
    assert_eq!(
        c.get_programiv(p, gl::GEOMETRY_INPUT_TYPE),
        gl::TRIANGLES as i32
    );
    assert_eq!(
        c.get_programiv(p, gl::GEOMETRY_OUTPUT_TYPE),
        gl::TRIANGLE_STRIP as i32
    );
    assert_eq!(c.get_programiv(p, gl::GEOMETRY_SHADER_INVOCATIONS), 1);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    for (pname, v) in [
        (gl::MAX_GEOMETRY_OUTPUT_VERTICES, 1024),
        (gl::MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS, 1024),
        (gl::MAX_GEOMETRY_SHADER_INVOCATIONS, 32),
        (gl::MAX_GEOMETRY_INPUT_COMPONENTS, 64),
        (gl::MAX_GEOMETRY_OUTPUT_COMPONENTS, 128),
    ] {
        assert_eq!(c.get_integerv(pname)[0], v, "{pname:#x}");
    }
    // GL 4.5 core §11.3.1: the mode must match the input primitive.
    c.draw_arrays(gl::POINTS, 0, 3);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.draw_arrays(gl::LINES_ADJACENCY, 0, 4);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // Too much work for one draw: OUT_OF_MEMORY, not an abort.
    c.draw_arrays_instanced(gl::TRIANGLES, 0, 3, i32::MAX);
    assert_eq!(c.get_error(), gl::OUT_OF_MEMORY);

    // A program without a geometry shader has none of the queries.
    let (q, ok, log) = link(
        &mut c,
        &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS_VS)],
    );
    assert!(ok, "{log}");
    c.get_programiv(q, gl::GEOMETRY_VERTICES_OUT);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}

#[test]
fn compile_and_link_errors() {
    let mut c = common::context(W, H, 1);
    let bad_compile = [
        (
            gl::VERTEX_SHADER,
            "#version 150\nvoid main() { gl_Position = vec4(0); EmitVertex(); }",
            "only available in geometry shaders",
        ),
        (
            gl::GEOMETRY_SHADER,
            "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 2000) out;\nvoid main() {}",
            "gl_MaxGeometryOutputVertices",
        ),
        (
            gl::GEOMETRY_SHADER,
            "#version 150\nlayout(triangles) in;\nin vec4 a[4];\nlayout(points, max_vertices = 1) out;\nvoid main() {}",
            "has size 4",
        ),
        (
            gl::GEOMETRY_SHADER,
            "#version 150\nin vec4 a[4];\nlayout(lines) in;\nlayout(points, max_vertices = 1) out;\nvoid main() {}",
            "has size 4",
        ),
        (
            gl::GEOMETRY_SHADER,
            "#version 150\nlayout(triangles) in;\nin vec4 a;\nlayout(points, max_vertices = 1) out;\nvoid main() {}",
            "must be an array",
        ),
        (
            gl::GEOMETRY_SHADER,
            "#version 150\nlayout(triangles, invocations = 2) in;\nlayout(points, max_vertices = 1) out;\nvoid main() {}",
            "requires GLSL 4.00",
        ),
        (
            gl::GEOMETRY_SHADER,
            "#version 140\nvoid main() {}",
            "require GLSL 1.50",
        ),
    ];
    for (kind, src, msg) in bad_compile {
        let (_, ok, log) = compile(&mut c, kind, src);
        assert!(!ok, "{src}");
        assert!(log.contains(msg), "{src}: {log}");
    }
    // An unsized input declared before the input layout takes its size from it (GLSL 4.60
    // §4.4.1.2; only a use that needs the size must come after the layout), as Mesa does.
    let (_, ok, log) = compile(
        &mut c,
        gl::GEOMETRY_SHADER,
        "#version 150\nin vec4 a[];\nlayout(triangles) in;\nlayout(points, max_vertices = 1) out;\nvoid main() {}",
    );
    assert!(ok, "{log}");
    let gs_of = |layout: &str, body: &str| {
        format!(
            "#version 150\n{layout}\nin vec4 v_col[3];\nout vec4 g_col;\nvoid main() {{ {body} }}"
        )
    };
    let bad_link = [
        (
            gs_of("layout(triangles) in;", "EmitVertex();"),
            "output primitive type",
        ),
        (
            gs_of("layout(triangle_strip, max_vertices = 3) out;", "EmitVertex();"),
            "input primitive type",
        ),
        (
            "#version 150\nlayout(triangles) in;\nlayout(points, max_vertices = 1) out;\nin vec4 nothing[];\nout vec4 g_col;\nvoid main() { g_col = nothing[0]; EmitVertex(); }".to_string(),
            "not written by the vertex shader",
        ),
        (
            gs_of(
                "layout(triangles) in;\nlayout(points, max_vertices = 600) out;",
                "g_col = v_col[0]; EmitVertex();",
            ),
            "GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS",
        ),
    ];
    for (gs, msg) in bad_link {
        let (_, ok, log) = link(
            &mut c,
            &[
                (gl::VERTEX_SHADER, VS),
                (gl::GEOMETRY_SHADER, &gs),
                (gl::FRAGMENT_SHADER, FS_GS),
            ],
        );
        assert!(!ok, "{gs}");
        assert!(log.contains(msg), "{gs}: {log}");
    }
}

#[test]
fn fragment_primitive_id_without_a_geometry_shader_counts_the_draws_primitives() {
    // GL 4.5 core §15.2.2: without a geometry shader gl_PrimitiveID is the number of
    // primitives the draw has processed (from 0 in each instance). Each instance draws a
    // strip of two triangles over its half of the target (instance 1 the right half).
    let vs = "#version 150
in vec2 pos;
void main() { gl_Position = vec4(pos.x + float(gl_InstanceID), pos.y, 0.0, 1.0); }";
    let fs = "#version 150
out vec4 c;
void main() { c = vec4(float(gl_PrimitiveID + 1) * 0.25, 0.0, 0.0, 1.0); }";
    let strip = [
        red(-1.0, -1.0),
        red(0.0, -1.0),
        red(-1.0, 1.0),
        red(0.0, 1.0),
    ];
    let img = render_vs(vs, None, fs, gl::TRIANGLE_STRIP, &strip, 2);
    let at = |x: u32, y: u32| img[((y * W + x) * 4) as usize];
    for x0 in [0, W / 2] {
        assert_eq!(
            at(x0, 0),
            64,
            "the first triangle of the strip is primitive 0"
        );
        assert_eq!(at(x0 + W / 2 - 1, H - 1), 128, "the second is primitive 1");
    }
    assert!(img
        .chunks(4)
        .all(|p| p == [64, 0, 0, 255] || p == [128, 0, 0, 255]));
    // Points: each its own number.
    let points = [red(-0.9, 0.03), red(-0.4, 0.03), red(0.1, 0.03)];
    let fs_points = "#version 150
out vec4 c;
void main() { c = vec4(float(gl_PrimitiveID) * 0.25, 1.0, 0.0, 1.0); }";
    let img = render(None, fs_points, gl::POINTS, &points, 1);
    let reds: Vec<u8> = img
        .chunks(4)
        .filter(|p| p[1] == 255)
        .map(|p| p[0])
        .collect();
    assert_eq!(reds, [0, 64, 128]);
}
