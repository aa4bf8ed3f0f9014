//! Interfaces of the tessellation stages through the Rust `Context` (GLSL 4.00 §4.3.4,
//! GL 4.5 core §11.2): per-vertex arrays of structs from the control to the evaluation
//! shader (and from the vertex shader's struct output into the control shader), and a
//! vertex-to-control interface block that fills GL_MAX_VERTEX_OUTPUT_COMPONENTS together
//! with gl_Position. Every image is rendered with 1 and 2 threads, which must agree.

mod common;

use softgl::{enums as gl, Context};

const W: i32 = 8;

/// The fragment shader of every program here: the evaluation shader's colour.
const FS: &str = "#version 400
in vec4 color;
out vec4 o;
void main() { o = color; }";

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

/// Links and uses the program; draws one patch of `patch` vertices at the corners of
/// the viewport (vertex i at `CORNERS[i]`) and reads the image back.
fn draw(threads: usize, shaders: &[(u32, &str)], patch: i32) -> Vec<u8> {
    let mut c = common::context(W as u32, W as u32, threads);
    let p = c.create_program();
    for &(kind, src) in shaders {
        let s = compile(&mut c, kind, src);
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
    c.patch_parameteri(gl::PATCH_VERTICES, patch);
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    c.draw_arrays(gl::PATCHES, 0, patch);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_pixels(0, 0, W, W, gl::RGBA, gl::UNSIGNED_BYTE)
}

/// Every pixel green, with 1 and 2 threads alike.
fn assert_all_green(run: impl Fn(usize) -> Vec<u8>) {
    let img = run(1);
    assert!(img == run(2), "1 and 2 threads differ");
    for (k, px) in img.chunks(4).enumerate() {
        assert_eq!(px, [0, 255, 0, 255], "pixel {k}");
    }
}

/// Vertex i of the patch at corner i of the viewport (counter-clockwise from the lower
/// left), and an `S` of its own.
const VS_STRUCT: &str = "#version 400
struct S { int id; vec2 v[2]; };
out S vs_s;
void main() {
    int i = gl_VertexID;
    gl_Position = vec4(i == 1 || i == 2 ? 1.0 : -1.0, i >= 2 ? 1.0 : -1.0, 0.0, 1.0);
    vs_s.id = 10 + i;
    vs_s.v[0] = vec2(float(i), 0.5);
    vs_s.v[1] = vec2(-float(i), 2.0);
}";

/// Reads the vertex shader's struct per vertex, writes its own struct array (with a
/// member that is an array) for the evaluation shader.
const TCS_STRUCT: &str = "#version 400
layout(vertices = 4) out;
struct S { int id; vec2 v[2]; };
struct T { int v[2]; float f; };
in S vs_s[];
out T tcs_t[];
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    S s = vs_s[gl_InvocationID];
    bool ok = s.id == 10 + gl_InvocationID && s.v[0] == vec2(float(gl_InvocationID), 0.5)
        && s.v[1] == vec2(-float(gl_InvocationID), 2.0);
    for (int i = 0; i < 2; ++i)
        tcs_t[gl_InvocationID].v[i] = gl_InvocationID * 2 + i;
    tcs_t[gl_InvocationID].f = ok ? 0.25 * float(gl_InvocationID) : -1.0;
    gl_TessLevelOuter = float[4](2.0, 2.0, 2.0, 2.0);
    gl_TessLevelInner = float[2](2.0, 2.0);
}";

const TES_STRUCT: &str = "#version 400
layout(quads) in;
struct T { int v[2]; float f; };
in T tcs_t[];
out vec4 color;
void main() {
    vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
    vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x);
    gl_Position = mix(a, b, gl_TessCoord.y);
    bool ok = true;
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 2; ++j)
            ok = ok && tcs_t[i].v[j] == i * 2 + j;
        ok = ok && tcs_t[i].f == 0.25 * float(i);
    }
    color = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}";

#[test]
fn per_vertex_structs_reach_the_next_stage() {
    assert_all_green(|threads| {
        draw(
            threads,
            &[
                (gl::VERTEX_SHADER, VS_STRUCT),
                (gl::TESS_CONTROL_SHADER, TCS_STRUCT),
                (gl::TESS_EVALUATION_SHADER, TES_STRUCT),
                (gl::FRAGMENT_SHADER, FS),
            ],
            4,
        )
    });
}

/// A struct per vertex from the vertex shader straight to the evaluation shader (no
/// control shader).
#[test]
fn per_vertex_structs_reach_the_evaluation_shader_without_a_control_shader() {
    let tes = "#version 400
layout(quads) in;
struct S { int id; vec2 v[2]; };
in S vs_s[];
out vec4 color;
void main() {
    vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
    vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x);
    gl_Position = mix(a, b, gl_TessCoord.y);
    bool ok = true;
    for (int i = 0; i < 4; ++i)
        ok = ok && vs_s[i].id == 10 + i && vs_s[i].v[0] == vec2(float(i), 0.5)
            && vs_s[i].v[1] == vec2(-float(i), 2.0);
    color = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}";
    assert_all_green(|threads| {
        draw(
            threads,
            &[
                (gl::VERTEX_SHADER, VS_STRUCT),
                (gl::TESS_EVALUATION_SHADER, tes),
                (gl::FRAGMENT_SHADER, FS),
            ],
            4,
        )
    });
}

/// A vertex output block of ivec4s that, with gl_Position, fills
/// min(GL_MAX_VERTEX_OUTPUT_COMPONENTS, GL_MAX_TESS_CONTROL_INPUT_COMPONENTS), read per
/// vertex by the control shader; its verdicts reach the evaluation shader through
/// explicitly sized per-vertex arrays (`out int ok[4];`, `in int ok[gl_MaxPatchVertices];`:
/// a control output sized as its patch was sized gl_MaxPatchVertices and failed the link).
#[test]
fn a_block_that_fills_the_vertex_outputs_reaches_the_control_shader() {
    let vs = "#version 400
out Data {
    ivec4 f[min(gl_MaxVertexOutputComponents, gl_MaxTessControlInputComponents) / 4 - 1];
} data;
void main() {
    int i = gl_VertexID;
    gl_Position = vec4(i == 1 || i == 2 ? 1.0 : -1.0, i >= 2 ? 1.0 : -1.0, 0.0, 1.0);
    for (int k = 0; k < data.f.length(); k++)
        data.f[k] = ivec4(k * 4, k * 4 + 1, k * 4 + 2, k * 4 + 3) + 100 * i;
}";
    let tcs = "#version 400
layout(vertices = 4) out;
in Data {
    ivec4 f[min(gl_MaxVertexOutputComponents, gl_MaxTessControlInputComponents) / 4 - 1];
} data[];
out int ok[4];
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);
    gl_TessLevelInner = float[2](1.0, 1.0);
    int good = data[gl_InvocationID].f.length() == 15 ? 1 : 0;
    for (int k = 0; k < data[gl_InvocationID].f.length(); k++)
        if (data[gl_InvocationID].f[k]
            != ivec4(k * 4, k * 4 + 1, k * 4 + 2, k * 4 + 3) + 100 * gl_InvocationID)
            good = 0;
    ok[gl_InvocationID] = good;
}";
    let tes = "#version 400
layout(quads) in;
in int ok[gl_MaxPatchVertices];
out vec4 color;
void main() {
    vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
    vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x);
    gl_Position = mix(a, b, gl_TessCoord.y);
    bool good = ok[0] == 1 && ok[1] == 1 && ok[2] == 1 && ok[3] == 1;
    color = good ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}";
    assert_all_green(|threads| {
        draw(
            threads,
            &[
                (gl::VERTEX_SHADER, vs),
                (gl::TESS_CONTROL_SHADER, tcs),
                (gl::TESS_EVALUATION_SHADER, tes),
                (gl::FRAGMENT_SHADER, FS),
            ],
            4,
        )
    });
}
