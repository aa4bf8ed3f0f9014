//! Tessellation through the Rust `Context` with the real GLSL front end and JIT (GL 4.5
//! core §11.2, GLSL 4.00): a quad patch coloured by gl_TessCoord, triangles with
//! fractional spacing covering what the untessellated triangle covers, isolines and
//! point mode counted, patch varyings, a control shader whose invocations read each
//! other's outputs after barrier(), the default levels without a control shader, the
//! primitive query, and the errors of the API and the language. Every image is rendered
//! with 1 and 2 threads, which must agree.

mod common;

use softgl::{enums as gl, Context};

const W: u32 = 16;
const H: u32 = 16;

const VS: &str = "#version 400
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }";

const FS: &str = "#version 400
in vec4 t_col;
out vec4 c;
void main() { c = t_col; }";

/// A control shader: `vertices` copied through, every level `level`.
fn tcs_levels(vertices: u32, outer: f32, inner: f32) -> String {
    format!(
        "#version 400
layout(vertices = {vertices}) out;
void main() {{
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter[0] = {outer:?};
    gl_TessLevelOuter[1] = {outer:?};
    gl_TessLevelOuter[2] = {outer:?};
    gl_TessLevelOuter[3] = {outer:?};
    gl_TessLevelInner[0] = {inner:?};
    gl_TessLevelInner[1] = {inner:?};
}}"
    )
}

const TES_QUAD: &str = "#version 400
layout(quads) in;
out vec4 t_col;
void main() {
    vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
    vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x);
    gl_Position = mix(a, b, gl_TessCoord.y);
    t_col = vec4(gl_TessCoord.xy, 0.0, 1.0);
}";

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

/// A context with VS + `tcs` (optional) + `tes` + `fs` current and `verts` in `pos`.
fn setup(threads: usize, tcs: Option<&str>, tes: &str, fs: &str, verts: &[[f32; 2]]) -> Context {
    let mut c = common::context(W, H, threads);
    let mut shaders = vec![(gl::VERTEX_SHADER, VS)];
    if let Some(t) = tcs {
        shaders.push((gl::TESS_CONTROL_SHADER, t));
    }
    shaders.push((gl::TESS_EVALUATION_SHADER, tes));
    shaders.push((gl::FRAGMENT_SHADER, fs));
    let (p, ok, log) = link(&mut c, &shaders);
    assert!(ok, "{log}");
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
    let loc = c.get_attrib_location(p, "pos");
    assert!(loc >= 0);
    c.vertex_attrib_pointer(loc as u32, 2, gl::FLOAT, false, 8, 0);
    c.enable_vertex_attrib_array(loc as u32);
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    c
}

fn read(c: &mut Context) -> Vec<u8> {
    c.read_pixels(0, 0, W as i32, H as i32, gl::RGBA, gl::UNSIGNED_BYTE)
}

/// The image of one GL_PATCHES draw of `patch` vertices per patch (after `before` set
/// state), the same with 1 and 2 threads.
fn render(
    tcs: Option<&str>,
    tes: &str,
    fs: &str,
    patch: i32,
    verts: &[[f32; 2]],
    before: &dyn Fn(&mut Context),
) -> Vec<u8> {
    let mut images = Vec::new();
    for threads in [1, 2] {
        let mut c = setup(threads, tcs, tes, fs, verts);
        c.patch_parameteri(gl::PATCH_VERTICES, patch);
        before(&mut c);
        c.draw_arrays(gl::PATCHES, 0, verts.len() as i32);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        images.push(read(&mut c));
    }
    assert_eq!(images[0], images[1], "1 and 2 threads agree");
    images.pop().unwrap_or_default()
}

fn lit(img: &[u8]) -> usize {
    img.chunks(4).filter(|p| p[3] != 0).count()
}

const SQUARE: [[f32; 2]; 4] = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];

#[test]
fn quad_patch_is_coloured_by_its_tess_coords() {
    let tcs = tcs_levels(4, 4.0, 4.0);
    let img = render(Some(&tcs), TES_QUAD, FS, 4, &SQUARE, &|_| {});
    assert_eq!(lit(&img), (W * H) as usize, "the patch covers the target");
    // gl_TessCoord is linear over the square, so every pixel reads its own (u, v).
    for y in 0..H {
        for x in 0..W {
            let p = &img[((y * W + x) * 4) as usize..][..4];
            let u = (x as f32 + 0.5) / W as f32 * 255.0;
            let v = (y as f32 + 0.5) / H as f32 * 255.0;
            assert!(
                (p[0] as f32 - u).abs() <= 1.0 && (p[1] as f32 - v).abs() <= 1.0 && p[2] == 0,
                "pixel ({x}, {y}) is {p:?}, want ({u}, {v}, 0)"
            );
        }
    }
}

const TES_TRI: &str = "#version 400
layout(triangles, fractional_odd_spacing, ccw) in;
out vec4 t_col;
void main() {
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
        + gl_TessCoord.z * gl_in[2].gl_Position;
    t_col = vec4(gl_TessCoord, 1.0);
}";

#[test]
fn fractional_triangles_cover_the_patch_triangle() {
    let tri = [[-0.93, -0.87], [0.88, -0.79], [-0.11, 0.94]];
    let tcs = "#version 400
layout(vertices = 3) out;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter[0] = 2.3;
    gl_TessLevelOuter[1] = 4.7;
    gl_TessLevelOuter[2] = 3.1;
    gl_TessLevelInner[0] = 5.5;
}";
    let img = render(Some(tcs), TES_TRI, FS, 3, &tri, &|_| {});
    // The same triangle with one level everywhere (a single triangle): the same pixels.
    let one = render(None, TES_TRI, FS, 3, &tri, &|_| {});
    let mask = |i: &[u8]| i.chunks(4).map(|p| p[3] != 0).collect::<Vec<bool>>();
    assert!(lit(&one) > 60);
    assert_eq!(mask(&img), mask(&one));
    // Barycentric colours sum to one wherever the pixel is lit.
    for p in img.chunks(4).filter(|p| p[3] != 0) {
        let s = p[0] as i32 + p[1] as i32 + p[2] as i32;
        assert!((s - 255).abs() <= 3, "{p:?}");
    }
}

#[test]
fn isolines_and_point_mode_make_what_the_levels_say() {
    let tes = "#version 400
layout(isolines) in;
out vec4 t_col;
void main() {
    gl_Position = vec4(gl_TessCoord.x * 1.8 - 0.9, gl_TessCoord.y * 1.6 - 0.75, 0.0, 1.0);
    t_col = vec4(1.0);
}";
    // No control shader: the default levels (4 lines of 8 segments).
    let img = render(None, tes, FS, 4, &SQUARE, &|c| {
        c.patch_parameterfv(gl::PATCH_DEFAULT_OUTER_LEVEL, &[4.0, 8.0, 1.0, 1.0]);
    });
    let rows: Vec<u32> = (0..H)
        .filter(|&y| {
            img[(y * W * 4) as usize..((y + 1) * W * 4) as usize]
                .chunks(4)
                .any(|p| p[3] != 0)
        })
        .collect();
    // y = -0.75, -0.35, 0.05, 0.45 in NDC: rows 2, 5, 8, 11.
    assert_eq!(rows, [2, 5, 8, 11]);
    assert!(lit(&img) >= 4 * 14);

    let tes = "#version 400
layout(quads, point_mode) in;
out vec4 t_col;
void main() {
    gl_Position = vec4(gl_TessCoord.xy * 1.5 - 0.75, 0.0, 1.0);
    t_col = vec4(1.0);
}";
    let tcs = tcs_levels(4, 2.0, 2.0);
    let img = render(Some(&tcs), tes, FS, 4, &SQUARE, &|_| {});
    assert_eq!(lit(&img), 9, "3 × 3 points");
}

#[test]
fn patch_varyings_and_barrier_share_a_patch() {
    // Each invocation writes its own value, then after the barrier reads all of them; a
    // local written before the barrier keeps its value after it.
    let tcs = "#version 400
layout(vertices = 4) out;
out float val[];
out float twice[];
patch out vec4 pcol;
void main() {
    float mine = float(gl_InvocationID + 1);
    val[gl_InvocationID] = mine;
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    barrier();
    twice[gl_InvocationID] = mine * 2.0;
    if (gl_InvocationID == 0) {
        float sum = val[0] + val[1] + val[2] + val[3];
        pcol = vec4(sum / 10.0, 0.0, 0.0, 1.0);
        gl_TessLevelOuter[0] = 1.0;
        gl_TessLevelOuter[1] = 1.0;
        gl_TessLevelOuter[2] = 1.0;
        gl_TessLevelOuter[3] = 1.0;
        gl_TessLevelInner[0] = 1.0;
        gl_TessLevelInner[1] = 1.0;
    }
}";
    let tes = "#version 400
layout(quads) in;
patch in vec4 pcol;
in float twice[];
out vec4 t_col;
void main() {
    vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
    vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x);
    gl_Position = mix(a, b, gl_TessCoord.y);
    t_col = pcol + vec4(0.0, twice[2] / 8.0, float(gl_PatchVerticesIn) / 4.0, 0.0);
}";
    let img = render(Some(tcs), tes, FS, 4, &SQUARE, &|_| {});
    assert_eq!(lit(&img), (W * H) as usize);
    for p in img.chunks(4) {
        assert_eq!(p, [255, 191, 255, 255]);
    }
}

#[test]
fn primitives_generated_counts_tessellated_primitives() {
    let tes = "#version 400
layout(triangles, point_mode) in;
out vec4 t_col;
void main() { gl_Position = vec4(gl_TessCoord.xy, 0.0, 1.0); t_col = vec4(1.0); }";
    let tri = [[-0.5, -0.5], [0.5, -0.5], [0.0, 0.5]];
    for threads in [1, 2] {
        let mut c = setup(threads, None, tes, FS, &tri);
        c.patch_parameteri(gl::PATCH_VERTICES, 3);
        // Outer 2, inner 3: 6 points on the edges and an inner triangle of 3.
        c.patch_parameterfv(gl::PATCH_DEFAULT_OUTER_LEVEL, &[2.0, 2.0, 2.0, 1.0]);
        c.patch_parameterfv(gl::PATCH_DEFAULT_INNER_LEVEL, &[3.0, 1.0]);
        let q = c.gen_queries(1)[0];
        c.begin_query(gl::PRIMITIVES_GENERATED, q);
        c.draw_arrays(gl::PATCHES, 0, 3);
        c.end_query(gl::PRIMITIVES_GENERATED);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(c.get_query_object(q, gl::QUERY_RESULT), Some(9));
        // An outer level of 0 discards the patch.
        c.patch_parameterfv(gl::PATCH_DEFAULT_OUTER_LEVEL, &[0.0, 2.0, 2.0, 1.0]);
        c.begin_query(gl::PRIMITIVES_GENERATED, q);
        c.draw_arrays(gl::PATCHES, 0, 3);
        c.end_query(gl::PRIMITIVES_GENERATED);
        assert_eq!(c.get_query_object(q, gl::QUERY_RESULT), Some(0));
    }
}

#[test]
fn patch_state_queries_and_errors() {
    let mut c = common::context(W, H, 1);
    assert_eq!(c.get_integerv(gl::PATCH_VERTICES), vec![3]);
    assert_eq!(c.get_integerv(gl::MAX_PATCH_VERTICES), vec![32]);
    assert_eq!(c.get_integerv(gl::MAX_TESS_GEN_LEVEL), vec![64]);
    assert_eq!(c.get_floatv(gl::PATCH_DEFAULT_OUTER_LEVEL), vec![1.0; 4]);
    c.patch_parameteri(gl::PATCH_VERTICES, 0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.patch_parameteri(gl::PATCH_VERTICES, 33);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.patch_parameteri(gl::PATCH_DEFAULT_OUTER_LEVEL, 3);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.patch_parameterfv(gl::PATCH_VERTICES, &[1.0]);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.patch_parameteri(gl::PATCH_VERTICES, 32);
    c.patch_parameterfv(gl::PATCH_DEFAULT_INNER_LEVEL, &[2.5, 3.5]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.get_integerv(gl::PATCH_VERTICES), vec![32]);
    assert_eq!(c.get_floatv(gl::PATCH_DEFAULT_INNER_LEVEL), vec![2.5, 3.5]);

    // GL_PATCHES without a tessellation evaluation shader, and another mode with one.
    let plain = common::program(
        &mut c,
        VS,
        "#version 400\nout vec4 c;\nvoid main() { c = vec4(1.0); }",
    );
    c.use_program(plain);
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    c.draw_arrays(gl::PATCHES, 0, 3);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    let tcs = tcs_levels(4, 2.0, 2.0);
    let shaders = [
        (gl::VERTEX_SHADER, VS),
        (gl::TESS_CONTROL_SHADER, tcs.as_str()),
        (gl::TESS_EVALUATION_SHADER, TES_QUAD),
        (gl::FRAGMENT_SHADER, FS),
    ];
    let (p, ok, log) = link(&mut c, &shaders);
    assert!(ok, "{log}");
    c.use_program(p);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);

    // Program queries.
    assert_eq!(c.get_programiv(p, gl::TESS_CONTROL_OUTPUT_VERTICES), 4);
    assert_eq!(c.get_programiv(p, gl::TESS_GEN_MODE), gl::QUADS as i32);
    assert_eq!(c.get_programiv(p, gl::TESS_GEN_SPACING), gl::EQUAL as i32);
    assert_eq!(
        c.get_programiv(p, gl::TESS_GEN_VERTEX_ORDER),
        gl::CCW as i32
    );
    assert_eq!(c.get_programiv(p, gl::TESS_GEN_POINT_MODE), 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.get_programiv(plain, gl::TESS_GEN_MODE);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);

    // A control shader needs an evaluation shader; an evaluation shader a primitive mode.
    let (_, ok, log) = link(
        &mut c,
        &[
            (gl::VERTEX_SHADER, VS),
            (gl::TESS_CONTROL_SHADER, tcs.as_str()),
            (gl::FRAGMENT_SHADER, FS),
        ],
    );
    assert!(!ok && log.contains("evaluation"), "{log}");
    let no_mode = "#version 400\nout vec4 t_col;\nvoid main() { gl_Position = vec4(0.0); t_col = vec4(0.0); }";
    let (_, ok, log) = link(
        &mut c,
        &[
            (gl::VERTEX_SHADER, VS),
            (gl::TESS_EVALUATION_SHADER, no_mode),
            (gl::FRAGMENT_SHADER, FS),
        ],
    );
    assert!(!ok && log.contains("primitive mode"), "{log}");
}

#[test]
fn the_language_rules_of_the_tessellation_stages() {
    let mut c = common::context(W, H, 1);
    let ok = |c: &mut Context, kind: u32, src: &str| compile(c, kind, src).1;
    // Layouts, built-ins, patch outputs and barrier() at main's top level.
    assert!(ok(
        &mut c,
        gl::TESS_CONTROL_SHADER,
        "#version 150
#extension GL_ARB_tessellation_shader : require
layout(vertices = 3) out;
patch out float p;
out vec2 v[];
void main() {
    v[gl_InvocationID] = vec2(gl_PatchVerticesIn, gl_PrimitiveID);
    barrier();
    p = gl_in[1].gl_Position.x + float(gl_in.length());
    gl_TessLevelOuter[1] = float(gl_MaxPatchVertices + gl_MaxTessGenLevel);
}"
    ));
    assert!(ok(
        &mut c,
        gl::TESS_EVALUATION_SHADER,
        "#version 400
layout(isolines, fractional_even_spacing, cw, point_mode) in;
patch in float p;
void main() { gl_Position = vec4(gl_TessCoord, gl_TessLevelOuter[0] + gl_TessLevelInner[1] + p); }"
    ));
    let fails = |c: &mut Context, kind: u32, src: &str, why: &str| {
        let (_, ok, log) = compile(c, kind, src);
        assert!(!ok, "compiled: {src}");
        assert!(log.contains(why), "{why}: {log}");
    };
    fails(
        &mut c,
        gl::TESS_CONTROL_SHADER,
        "#version 400
layout(vertices = 3) out;
void main() { if (gl_InvocationID == 0) { barrier(); } }",
        "barrier()",
    );
    fails(
        &mut c,
        gl::TESS_CONTROL_SHADER,
        "#version 400
layout(vertices = 3) out;
void main() { return; barrier(); }",
        "barrier()",
    );
    fails(
        &mut c,
        gl::TESS_CONTROL_SHADER,
        "#version 400
layout(vertices = 3) out;
void main() { gl_out[0].gl_Position = vec4(0.0); }",
        "gl_InvocationID",
    );
    fails(
        &mut c,
        gl::TESS_CONTROL_SHADER,
        "#version 400
layout(vertices = 3) out;
out float v[];
void main() { v[1] = 0.0; }",
        "gl_InvocationID",
    );
    fails(
        &mut c,
        gl::TESS_CONTROL_SHADER,
        "#version 400
layout(vertices = 33) out;
void main() {}",
        "gl_MaxPatchVertices",
    );
    fails(
        &mut c,
        gl::TESS_EVALUATION_SHADER,
        "#version 400
layout(triangles) in;
layout(quads) in;
void main() {}",
        "differs",
    );
    fails(
        &mut c,
        gl::TESS_EVALUATION_SHADER,
        "#version 400
layout(vertices = 3) out;
void main() {}",
        "not valid",
    );
    fails(
        &mut c,
        gl::TESS_CONTROL_SHADER,
        "#version 150
layout(vertices = 3) out;
void main() {}",
        "GL_ARB_tessellation_shader",
    );
    fails(
        &mut c,
        gl::VERTEX_SHADER,
        "#version 400
patch out vec4 p;
void main() {}",
        "patch",
    );
}

#[test]
fn a_geometry_shader_takes_the_tessellated_primitives() {
    // Two quad patches, each split by its levels into triangles; the geometry shader
    // passes each triangle on, coloured by gl_PrimitiveIDIn, which after tessellation
    // is the patch's number (GL 4.5 core §11.3.4.4).
    let gs = "#version 400
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
out vec4 t_col;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        t_col = vec4(0.0, 1.0, float(gl_PrimitiveIDIn), 1.0);
        EmitVertex();
    }
}";
    let tes = "#version 400
layout(quads) in;
void main() {
    vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
    vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x);
    gl_Position = mix(a, b, gl_TessCoord.y);
}";
    let tcs = tcs_levels(4, 3.0, 2.0);
    let verts = [
        [-1.0, -1.0],
        [0.0, -1.0],
        [0.0, 1.0],
        [-1.0, 1.0],
        [0.0, -1.0],
        [1.0, -1.0],
        [1.0, 1.0],
        [0.0, 1.0],
    ];
    let mut images = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(W, H, threads);
        let shaders = [
            (gl::VERTEX_SHADER, VS),
            (gl::TESS_CONTROL_SHADER, tcs.as_str()),
            (gl::TESS_EVALUATION_SHADER, tes),
            (gl::GEOMETRY_SHADER, gs),
            (gl::FRAGMENT_SHADER, FS),
        ];
        let (p, ok, log) = link(&mut c, &shaders);
        assert!(ok, "{log}");
        c.use_program(p);
        let vbo = c.gen_buffers(1)[0];
        c.bind_buffer(gl::ARRAY_BUFFER, vbo);
        let bytes: Vec<u8> = verts
            .iter()
            .flatten()
            .flat_map(|f: &f32| f.to_le_bytes())
            .collect();
        c.buffer_data(
            gl::ARRAY_BUFFER,
            bytes.len() as isize,
            Some(&bytes),
            gl::STATIC_DRAW,
        );
        let loc = c.get_attrib_location(p, "pos") as u32;
        c.vertex_attrib_pointer(loc, 2, gl::FLOAT, false, 8, 0);
        c.enable_vertex_attrib_array(loc);
        c.patch_parameteri(gl::PATCH_VERTICES, 4);
        // The geometry shader's input must match what the tessellator makes.
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let q = c.gen_queries(1)[0];
        c.begin_query(gl::PRIMITIVES_GENERATED, q);
        c.draw_arrays(gl::PATCHES, 0, 8);
        c.end_query(gl::PRIMITIVES_GENERATED);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        // Outer 3, inner 2 per quad: 12 outer points around 1 inner point, 12 triangles.
        assert_eq!(c.get_query_object(q, gl::QUERY_RESULT), Some(24));
        images.push(read(&mut c));
    }
    assert_eq!(images[0], images[1], "1 and 2 threads agree");
    let img = &images[0];
    for y in 0..H {
        for x in 0..W {
            let p = &img[((y * W + x) * 4) as usize..][..4];
            let want = if x < W / 2 { 0 } else { 255 };
            assert_eq!(p, [0, 255, want, 255], "pixel ({x}, {y})");
        }
    }
}

#[test]
fn barrier_after_a_nested_return_and_gl_out_length_before_its_layout_fail() {
    let mut c = common::context(W, H, 1);
    for (src, why) in [
        (
            "#version 400
layout(vertices = 3) out;
uniform bool cond;
void main() { if (cond) return; barrier(); }",
            "barrier()",
        ),
        (
            "#version 400
int test[gl_out.length()];
layout(vertices = 3) out;
void main() {}",
            "array size must be a constant",
        ),
    ] {
        let (_, ok, log) = compile(&mut c, gl::TESS_CONTROL_SHADER, src);
        assert!(!ok, "compiled: {src}");
        assert!(log.contains(why), "{why}: {log}");
    }
}

#[test]
fn per_vertex_arrays_may_hold_arrays() {
    // `in float v[][2]` in the control shader reads the vertex shader's `out float v[2]`
    // of each vertex; `out float w[][2]` reaches the evaluation shader's `in float w[][2]`.
    let vs = "#version 400
in vec2 pos;
out float v[2];
void main() { gl_Position = vec4(pos, 0.0, 1.0); v[0] = 1.0; v[1] = pos.x * 0.25 + 0.5; }";
    let tcs = "#version 400
layout(vertices = 4) out;
in float v[][2];
out float w[][2];
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    w[gl_InvocationID][0] = v[gl_InvocationID][0];
    w[gl_InvocationID][1] = v[2][1];
    gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);
    gl_TessLevelInner = float[2](1.0, 1.0);
}";
    let tes = "#version 400
layout(quads) in;
in float w[][2];
out vec4 t_col;
void main() {
    vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
    vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x);
    gl_Position = mix(a, b, gl_TessCoord.y);
    t_col = vec4(w[1][0], w[3][1], 0.0, 1.0);
}";
    let mut c = common::context(W, H, 1);
    let shaders = [
        (gl::VERTEX_SHADER, vs),
        (gl::TESS_CONTROL_SHADER, tcs),
        (gl::TESS_EVALUATION_SHADER, tes),
        (gl::FRAGMENT_SHADER, FS),
    ];
    let (p, ok, log) = link(&mut c, &shaders);
    assert!(ok, "{log}");
    c.use_program(p);
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, vbo);
    let bytes: Vec<u8> = SQUARE
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
    let loc = c.get_attrib_location(p, "pos") as u32;
    c.vertex_attrib_pointer(loc, 2, gl::FLOAT, false, 8, 0);
    c.enable_vertex_attrib_array(loc);
    c.patch_parameteri(gl::PATCH_VERTICES, 4);
    c.draw_arrays(gl::PATCHES, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // Vertex 2 is at x = 1: 0.75.
    for px in read(&mut c).chunks(4) {
        assert_eq!(px, [255, 191, 0, 255]);
    }
}

#[test]
fn a_vertex_shader_is_needed_beside_tessellation_but_not_for_a_fragment_shader_alone() {
    // GL 4.5 core §7.3: a program that is not separable needs a vertex shader when it has
    // a tessellation (or geometry) stage; a fragment shader alone links.
    let mut c = common::context(W, H, 1);
    let (_, ok, log) = link(
        &mut c,
        &[
            (gl::TESS_EVALUATION_SHADER, TES_QUAD),
            (gl::FRAGMENT_SHADER, FS),
        ],
    );
    assert!(!ok, "evaluation shader without a vertex shader linked");
    assert!(log.contains("needs a vertex shader"), "{log}");
    let (_, ok, log) = link(&mut c, &[(gl::FRAGMENT_SHADER, FS)]);
    assert!(ok, "{log}");
}

/// A separable program of `shaders` (each must compile and the program link).
fn separable(c: &mut Context, shaders: &[(u32, &str)]) -> u32 {
    let p = c.create_program();
    c.program_parameteri(p, gl::PROGRAM_SEPARABLE, 1);
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
    p
}

/// `SQUARE` in a buffer at attribute 0 (the pipeline's vertex programs bind `pos` there).
fn square_at_attribute_0(c: &mut Context) {
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, vbo);
    let bytes: Vec<u8> = SQUARE
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
    c.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 8, 0);
    c.enable_vertex_attrib_array(0);
    c.patch_parameteri(gl::PATCH_VERTICES, 4);
}

const VS_LOC0: &str = "#version 410
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }";

/// The evaluation shader of `TES_QUAD` with a uniform added to its colour.
const TES_QUAD_UNIFORM: &str = "#version 410
layout(quads) in;
uniform vec4 add;
out vec4 t_col;
void main() {
    vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
    vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x);
    gl_Position = mix(a, b, gl_TessCoord.y);
    t_col = vec4(gl_TessCoord.xy, 0.0, 1.0) + add;
}";

/// A control shader with a uniform level, so that two programs' uniforms both reach the
/// patch.
const TCS_UNIFORM: &str = "#version 410
layout(vertices = 4) out;
uniform float level;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter[0] = level;
    gl_TessLevelOuter[1] = level;
    gl_TessLevelOuter[2] = level;
    gl_TessLevelOuter[3] = level;
    gl_TessLevelInner[0] = level;
    gl_TessLevelInner[1] = level;
}";

#[test]
fn a_pipeline_composes_tessellation_stages_of_separate_programs() {
    // GL 4.5 core §7.4: the vertex, control, evaluation and fragment stages each from its
    // own separable program draw what one program of the four shaders draws, with each
    // program's uniforms (set by glProgramUniform) reaching its stage.
    let whole = {
        let mut c = common::context(W, H, 1);
        let (p, ok, log) = link(
            &mut c,
            &[
                (gl::VERTEX_SHADER, VS_LOC0),
                (gl::TESS_CONTROL_SHADER, TCS_UNIFORM),
                (gl::TESS_EVALUATION_SHADER, TES_QUAD_UNIFORM),
                (gl::FRAGMENT_SHADER, FS),
            ],
        );
        assert!(ok, "{log}");
        c.use_program(p);
        let l = c.get_uniform_location(p, "level");
        c.uniform_1f(l, 3.0);
        let a = c.get_uniform_location(p, "add");
        c.uniform_4f(a, 0.0, 0.0, 0.5, 0.0);
        square_at_attribute_0(&mut c);
        c.draw_arrays(gl::PATCHES, 0, 4);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        read(&mut c)
    };
    assert_eq!(lit(&whole), (W * H) as usize);
    let mut images = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(W, H, threads);
        let vs = separable(&mut c, &[(gl::VERTEX_SHADER, VS_LOC0)]);
        let tcs = separable(&mut c, &[(gl::TESS_CONTROL_SHADER, TCS_UNIFORM)]);
        let tes = separable(&mut c, &[(gl::TESS_EVALUATION_SHADER, TES_QUAD_UNIFORM)]);
        let fs = separable(&mut c, &[(gl::FRAGMENT_SHADER, FS)]);
        let pipe = c.gen_program_pipelines(1)[0];
        c.bind_program_pipeline(pipe);
        c.use_program_stages(pipe, gl::VERTEX_SHADER_BIT, vs);
        c.use_program_stages(pipe, gl::TESS_CONTROL_SHADER_BIT, tcs);
        c.use_program_stages(pipe, gl::TESS_EVALUATION_SHADER_BIT, tes);
        c.use_program_stages(pipe, gl::FRAGMENT_SHADER_BIT, fs);
        assert_eq!(
            c.get_program_pipelineiv(pipe, gl::TESS_CONTROL_SHADER),
            tcs as i32
        );
        assert_eq!(
            c.get_program_pipelineiv(pipe, gl::TESS_EVALUATION_SHADER),
            tes as i32
        );
        let l = c.get_uniform_location(tcs, "level");
        c.program_uniform_1f(tcs, l, 3.0);
        let a = c.get_uniform_location(tes, "add");
        c.program_uniform_4f(tes, a, 0.0, 0.0, 0.5, 0.0);
        c.validate_program_pipeline(pipe);
        assert_eq!(c.get_program_pipelineiv(pipe, gl::VALIDATE_STATUS), 1);
        square_at_attribute_0(&mut c);
        c.clear_color(0.0, 0.0, 0.0, 0.0);
        c.clear(gl::COLOR_BUFFER_BIT);
        c.draw_arrays(gl::PATCHES, 0, 4);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        images.push(read(&mut c));
        // A uniform change after the first draw reaches the next one.
        c.program_uniform_4f(tes, a, 0.0, 0.0, 0.0, 0.0);
        c.clear(gl::COLOR_BUFFER_BIT);
        c.draw_arrays(gl::PATCHES, 0, 4);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let img = read(&mut c);
        assert!(img.chunks(4).all(|p| p[2] == 0), "blue follows the uniform");
        assert_eq!(lit(&img), (W * H) as usize);
    }
    assert_eq!(images[0], images[1], "1 and 2 threads agree");
    assert_eq!(
        images[0], whole,
        "the pipeline draws what one program draws"
    );
    assert!(whole.chunks(4).all(|p| p[2] == 128 || p[2] == 127));
}

#[test]
fn pipeline_stages_pair_programs_of_several_tessellation_stages() {
    // A program of vertex + control shaders and one of evaluation + fragment shaders;
    // a user varying between the control and evaluation programs matched by location.
    let tcs = "#version 410
layout(vertices = 4) out;
layout(location = 3) out float shade[];
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    shade[gl_InvocationID] = 0.25 * float(gl_InvocationID + 1);
    gl_TessLevelOuter[0] = 2.0;
    gl_TessLevelOuter[1] = 2.0;
    gl_TessLevelOuter[2] = 2.0;
    gl_TessLevelOuter[3] = 2.0;
    gl_TessLevelInner[0] = 2.0;
    gl_TessLevelInner[1] = 2.0;
}";
    let tes = "#version 410
layout(quads) in;
layout(location = 3) in float tone[];
out vec4 t_col;
void main() {
    vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
    vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x);
    gl_Position = mix(a, b, gl_TessCoord.y);
    t_col = vec4(tone[3], tone[0], 0.0, 1.0);
}";
    let mut images = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(W, H, threads);
        let front = separable(
            &mut c,
            &[(gl::VERTEX_SHADER, VS_LOC0), (gl::TESS_CONTROL_SHADER, tcs)],
        );
        let back = separable(
            &mut c,
            &[(gl::TESS_EVALUATION_SHADER, tes), (gl::FRAGMENT_SHADER, FS)],
        );
        assert_eq!(c.get_programiv(front, gl::TESS_CONTROL_OUTPUT_VERTICES), 4);
        assert_eq!(c.get_programiv(back, gl::TESS_GEN_MODE), gl::QUADS as i32);
        let pipe = c.gen_program_pipelines(1)[0];
        c.bind_program_pipeline(pipe);
        c.use_program_stages(
            pipe,
            gl::VERTEX_SHADER_BIT | gl::TESS_CONTROL_SHADER_BIT,
            front,
        );
        c.use_program_stages(
            pipe,
            gl::TESS_EVALUATION_SHADER_BIT | gl::FRAGMENT_SHADER_BIT,
            back,
        );
        square_at_attribute_0(&mut c);
        c.draw_arrays(gl::PATCHES, 0, 4);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let img = read(&mut c);
        assert_eq!(lit(&img), (W * H) as usize);
        assert!(
            img.chunks(4).all(|p| p == [255, 64, 0, 255]),
            "{:?}",
            &img[..4]
        );
        // Not GL_TRIANGLES while an evaluation stage is active (§10.1.15).
        c.draw_arrays(gl::TRIANGLES, 0, 3);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        // Without the evaluation stage the control stage is not run, and GL_PATCHES
        // needs an evaluation shader.
        c.use_program_stages(pipe, gl::TESS_EVALUATION_SHADER_BIT, 0);
        c.use_program_stages(pipe, gl::FRAGMENT_SHADER_BIT, 0);
        c.draw_arrays(gl::PATCHES, 0, 4);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        images.push(img);
    }
    assert_eq!(images[0], images[1], "1 and 2 threads agree");
}

#[test]
fn pipeline_validation_covers_the_tessellation_stages() {
    // GL 4.5 core §11.1.3.11.
    let mut c = common::context(W, H, 1);
    square_at_attribute_0(&mut c);
    let vs = separable(&mut c, &[(gl::VERTEX_SHADER, VS_LOC0)]);
    let tes = separable(&mut c, &[(gl::TESS_EVALUATION_SHADER, TES_QUAD_UNIFORM)]);
    let tcs = separable(&mut c, &[(gl::TESS_CONTROL_SHADER, TCS_UNIFORM)]);
    let vs_gs = separable(
        &mut c,
        &[
            (gl::VERTEX_SHADER, VS_LOC0),
            (
                gl::GEOMETRY_SHADER,
                "#version 410
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {
    for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position; EmitVertex(); }
}",
            ),
        ],
    );
    let pipe = c.gen_program_pipelines(1)[0];
    c.bind_program_pipeline(pipe);
    let status = |c: &mut Context| {
        c.validate_program_pipeline(pipe);
        c.get_program_pipelineiv(pipe, gl::VALIDATE_STATUS)
    };
    // An evaluation stage without a vertex stage.
    c.use_program_stages(pipe, gl::TESS_EVALUATION_SHADER_BIT, tes);
    assert_eq!(status(&mut c), 0);
    assert!(c
        .get_program_pipeline_info_log(pipe)
        .contains("no vertex stage"));
    c.draw_arrays(gl::PATCHES, 0, 4);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // So is a control stage alone.
    c.use_program_stages(pipe, gl::TESS_EVALUATION_SHADER_BIT, 0);
    c.use_program_stages(pipe, gl::TESS_CONTROL_SHADER_BIT, tcs);
    assert_eq!(status(&mut c), 0);
    c.use_program_stages(pipe, gl::VERTEX_SHADER_BIT, vs);
    c.use_program_stages(pipe, gl::TESS_EVALUATION_SHADER_BIT, tes);
    assert_eq!(status(&mut c), 1);
    // A program between two stages of another: the evaluation stage between vs_gs's
    // vertex and geometry stages.
    c.use_program_stages(pipe, gl::VERTEX_SHADER_BIT | gl::GEOMETRY_SHADER_BIT, vs_gs);
    assert_eq!(status(&mut c), 0);
    assert!(c
        .get_program_pipeline_info_log(pipe)
        .contains("another program between"));
    c.draw_arrays(gl::PATCHES, 0, 4);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // A program active for some but not all of its stages.
    c.use_program_stages(pipe, gl::GEOMETRY_SHADER_BIT, 0);
    assert_eq!(status(&mut c), 0);
    assert!(c
        .get_program_pipeline_info_log(pipe)
        .contains("some but not all"));
    // A control stage alone is not a complete program for TESS_GEN_MODE, and a program
    // without a control stage has no TESS_CONTROL_OUTPUT_VERTICES.
    assert_eq!(c.get_programiv(tcs, gl::TESS_CONTROL_OUTPUT_VERTICES), 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.get_programiv(tcs, gl::TESS_GEN_MODE);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.get_programiv(tes, gl::TESS_CONTROL_OUTPUT_VERTICES);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // A separable control shader must still declare its patch size.
    let p = c.create_program();
    c.program_parameteri(p, gl::PROGRAM_SEPARABLE, 1);
    let (s, ok, log) = compile(
        &mut c,
        gl::TESS_CONTROL_SHADER,
        "#version 410\nvoid main() { gl_TessLevelOuter[0] = 1.0; }",
    );
    assert!(ok, "{log}");
    c.attach_shader(p, s);
    c.link_program(p);
    assert_eq!(c.get_programiv(p, gl::LINK_STATUS), 0);
}

#[test]
fn fragment_primitive_id_after_tessellation_is_the_patch_number() {
    // GL 4.5 core §15.2.2 with tessellation and no geometry shader: the patch's number,
    // from 0 in the draw. Two quad patches, the left and right halves.
    let fs = "#version 400
in vec4 t_col;
out vec4 c;
void main() { c = vec4(float(gl_PrimitiveID + 1) * 0.25, 0.0, 0.0, 1.0); }";
    let halves = [
        [-1.0, -1.0],
        [0.0, -1.0],
        [0.0, 1.0],
        [-1.0, 1.0],
        [0.0, -1.0],
        [1.0, -1.0],
        [1.0, 1.0],
        [0.0, 1.0],
    ];
    let tcs = tcs_levels(4, 3.0, 3.0);
    for tcs in [None, Some(tcs.as_str())] {
        let img = render(tcs, TES_QUAD, fs, 4, &halves, &|_| {});
        for (i, p) in img.chunks(4).enumerate() {
            let want = if (i as u32 % W) < W / 2 { 64 } else { 128 };
            assert_eq!(p, [want, 0, 0, 255], "pixel {i}");
        }
    }
}

#[test]
fn a_control_shader_writes_an_output_block_instance_only_at_its_invocation() {
    // GLSL 4.00 §4.3.6: the rule of gl_out holds for instances of user output blocks.
    let mut c = common::context(W, H, 1);
    let body = |index: &str| {
        format!(
            "#version 400
layout(vertices = 3) out;
out block {{ vec4 y[4]; }} x[];
void main() {{ x[{index}].y[0] = vec4(0.0); }}"
        )
    };
    let (_, ok, log) = compile(&mut c, gl::TESS_CONTROL_SHADER, &body("0"));
    assert!(!ok, "a constant vertex index compiled");
    assert!(log.contains("gl_InvocationID"), "{log}");
    let (_, ok, log) = compile(&mut c, gl::TESS_CONTROL_SHADER, &body("gl_InvocationID"));
    assert!(ok, "{log}");
}
