//! Uniform initializers (GLSL 4.60 §4.3.5, GLSL 1.20 on) through the Rust `Context`: the
//! value a declaration gives sets the uniform at link, glGetUniform* reads it back, draws
//! see it, glUniform* overrides it and a relink restores it; every type (scalars,
//! vectors, matrices, arrays, structs, booleans, an implicit int to float conversion, a
//! `const` variable); an initializer in one stage reaches the other stages that declare the
//! uniform (tessellation too); two different initializers fail the link (between stages
//! and between compilation units), and a non-constant initializer, a type mismatch and
//! GLSL 1.10 fail the compile. Every image is drawn with 1 and 2 threads, which must agree.

mod common;

use softgl::{enums as gl, Context};

const W: i32 = 4;

/// One big triangle over the viewport.
const VS: &str = "#version 330
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}";

/// Every kind of initializer; green where the shader sees exactly the declared values,
/// red otherwise, scaled by `color` (itself initialized from a `const`).
const FS_ALL: &str = "#version 330
struct S { int i; float f; vec2 v[2]; };
uniform float f = 0.25;
uniform ivec2 iv = ivec2(3, -4);
uniform uint u = 7u;
uniform bvec2 b = bvec2(true, false);
uniform mat2x3 m = mat2x3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
uniform mat3 diag = mat3(2.0);
uniform float arr[3] = float[3](0.5, 1.5, 2.5);
uniform S s[2] = S[2](S(1, 2.0, vec2[2](vec2(3.0), vec2(4.0, 5.0))),
                      S(6, 7.0, vec2[](vec2(8.0), vec2(9.0, 10.0))));
uniform float conv = 2;
const vec4 K = vec4(0.0, 1.0, 0.0, 1.0);
uniform vec4 color = K;
out vec4 o;
void main() {
    bool ok = f == 0.25 && iv == ivec2(3, -4) && u == 7u && b == bvec2(true, false)
        && m == mat2x3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0) && diag == mat3(2.0)
        && arr[0] == 0.5 && arr[1] == 1.5 && arr[2] == 2.5
        && s[0].i == 1 && s[0].f == 2.0 && s[0].v[0] == vec2(3.0) && s[0].v[1] == vec2(4.0, 5.0)
        && s[1].i == 6 && s[1].f == 7.0 && s[1].v[0] == vec2(8.0) && s[1].v[1] == vec2(9.0, 10.0)
        && conv == 2.0;
    o = ok ? color : vec4(1.0, 0.0, 0.0, 1.0);
}";

fn compile(c: &mut Context, kind: u32, src: &str) -> (u32, bool, String) {
    let s = c.create_shader(kind);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    let ok = c.get_shaderiv(s, gl::COMPILE_STATUS) == 1;
    (s, ok, c.get_shader_info_log(s))
}

/// Links the shaders (each must compile): the program, its status and its log.
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

fn pixel(img: &[u8], x: i32, y: i32) -> [u8; 4] {
    let at = ((y * W + x) * 4) as usize;
    [img[at], img[at + 1], img[at + 2], img[at + 3]]
}

fn draw(c: &mut Context) -> Vec<u8> {
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_pixels(0, 0, W, W, gl::RGBA, gl::UNSIGNED_BYTE)
}

#[test]
fn initializers_are_read_back() {
    let mut c = common::context(W as u32, W as u32, 1);
    let p = common::program(&mut c, VS, FS_ALL);
    let loc = |c: &mut Context, n: &str| {
        let l = c.get_uniform_location(p, n);
        assert!(l >= 0, "{n} has no location");
        l
    };
    let l = loc(&mut c, "f");
    assert_eq!(c.get_uniformfv(p, l), vec![0.25]);
    let l = loc(&mut c, "iv");
    assert_eq!(c.get_uniformiv(p, l), vec![3, -4]);
    let l = loc(&mut c, "u");
    assert_eq!(c.get_uniformuiv(p, l), vec![7]);
    let l = loc(&mut c, "b");
    assert_eq!(c.get_uniformiv(p, l), vec![1, 0]);
    let l = loc(&mut c, "m");
    assert_eq!(c.get_uniformfv(p, l), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let l = loc(&mut c, "diag");
    let want: Vec<f32> = (0..9).map(|k| if k % 4 == 0 { 2.0 } else { 0.0 }).collect();
    assert_eq!(c.get_uniformfv(p, l), want);
    for (k, want) in [0.5f32, 1.5, 2.5].into_iter().enumerate() {
        let l = loc(&mut c, &format!("arr[{k}]"));
        assert_eq!(c.get_uniformfv(p, l), vec![want]);
    }
    let l = loc(&mut c, "s[1].i");
    assert_eq!(c.get_uniformiv(p, l), vec![6]);
    let l = loc(&mut c, "s[1].f");
    assert_eq!(c.get_uniformfv(p, l), vec![7.0]);
    let l = loc(&mut c, "s[0].v[1]");
    assert_eq!(c.get_uniformfv(p, l), vec![4.0, 5.0]);
    let l = loc(&mut c, "s[1].v[0]");
    assert_eq!(c.get_uniformfv(p, l), vec![8.0, 8.0]);
    let l = loc(&mut c, "conv");
    assert_eq!(c.get_uniformfv(p, l), vec![2.0]);
    let l = loc(&mut c, "color");
    assert_eq!(c.get_uniformfv(p, l), vec![0.0, 1.0, 0.0, 1.0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// Draws `FS_ALL` with its initial values, then with `color` set by glUniform4f, then
/// after a relink (which restores the initializer): the three left-to-right quarters'
/// colours.
fn draw_override_relink(threads: usize) -> Vec<Vec<u8>> {
    let mut c = common::context(W as u32, W as u32, threads);
    let p = common::program(&mut c, VS, FS_ALL);
    c.use_program(p);
    let mut out = vec![draw(&mut c)];
    let l = c.get_uniform_location(p, "color");
    c.uniform_4f(l, 0.0, 0.0, 1.0, 1.0);
    assert_eq!(c.get_uniformfv(p, l), vec![0.0, 0.0, 1.0, 1.0]);
    out.push(draw(&mut c));
    c.link_program(p);
    assert_eq!(c.get_programiv(p, gl::LINK_STATUS), 1);
    c.use_program(p);
    out.push(draw(&mut c));
    out
}

#[test]
fn draws_see_the_initializer_until_gl_uniform_overrides_it() {
    let imgs = draw_override_relink(1);
    assert!(imgs == draw_override_relink(2), "1 and 2 threads differ");
    let wants = [[0, 255, 0, 255], [0, 0, 255, 255], [0, 255, 0, 255]];
    for (img, want) in imgs.iter().zip(wants) {
        for y in 0..W {
            for x in 0..W {
                assert_eq!(pixel(img, x, y), want, "({x}, {y})");
            }
        }
    }
}

#[test]
fn an_initializer_in_one_stage_sets_the_uniform_of_every_stage() {
    // The vertex shader initializes `color`, the fragment shader only declares it (piglit's
    // glsl-uniform-initializer-5 does the same).
    let vs = "#version 330
uniform vec4 color = vec4(0.0, 1.0, 0.0, 1.0);
out vec4 v;
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    gl_Position = vec4(p, 0.0, 1.0);
    v = color;
}";
    let fs = "#version 330
uniform vec4 color;
in vec4 v;
out vec4 o;
void main() { o = v == color ? color : vec4(1.0, 0.0, 0.0, 1.0); }";
    let run = |threads| {
        let mut c = common::context(W as u32, W as u32, threads);
        let p = common::program(&mut c, vs, fs);
        c.use_program(p);
        draw(&mut c)
    };
    let img = run(1);
    assert!(img == run(2), "1 and 2 threads differ");
    assert_eq!(pixel(&img, 1, 1), [0, 255, 0, 255]);
}

#[test]
fn equal_initializers_link_and_different_ones_do_not() {
    let vs = |v: &str| {
        format!(
            "#version 330
uniform float k = {v};
void main() {{ gl_Position = vec4(k); }}"
        )
    };
    let fs = "#version 330
uniform float k = 1.0;
out vec4 o;
void main() { o = vec4(k); }";
    let mut c = common::context(W as u32, W as u32, 1);
    let (_, ok, log) = link(
        &mut c,
        &[(gl::VERTEX_SHADER, &vs("1.0")), (gl::FRAGMENT_SHADER, fs)],
    );
    assert!(ok, "{log}");
    let (_, ok, log) = link(
        &mut c,
        &[(gl::VERTEX_SHADER, &vs("2.0")), (gl::FRAGMENT_SHADER, fs)],
    );
    assert!(!ok, "different initializers linked");
    assert!(log.contains("`k`") && log.contains("initializer"), "{log}");
}

#[test]
fn compilation_units_must_agree_on_an_initializer() {
    let main = "#version 330
uniform float k = 1.0;
float get();
out vec4 o;
void main() { o = vec4(k, get(), 0.0, 1.0); }";
    let other = |v: &str| {
        format!(
            "#version 330
uniform float k{v};
float get() {{ return k; }}"
        )
    };
    let mut c = common::context(W as u32, W as u32, 1);
    // The second unit declares it without an initializer, then with the same one: the
    // one variable keeps 1.0.
    for tail in ["", " = 1.0"] {
        let other = other(tail);
        let (p, ok, log) = link(
            &mut c,
            &[
                (gl::VERTEX_SHADER, VS),
                (gl::FRAGMENT_SHADER, main),
                (gl::FRAGMENT_SHADER, &other),
            ],
        );
        assert!(ok, "{log}");
        let l = c.get_uniform_location(p, "k");
        assert_eq!(c.get_uniformfv(p, l), vec![1.0]);
    }
    let other = other(" = 2.0");
    let (_, ok, log) = link(
        &mut c,
        &[
            (gl::VERTEX_SHADER, VS),
            (gl::FRAGMENT_SHADER, main),
            (gl::FRAGMENT_SHADER, &other),
        ],
    );
    assert!(!ok, "different initializers in two units linked");
    assert!(log.contains("initialized differently"), "{log}");
}

#[test]
fn bad_initializers_fail_the_compile() {
    let mut c = common::context(W as u32, W as u32, 1);
    let cases = [
        (
            "#version 330\nuniform float a;\nuniform float b = a;\nout vec4 o;\nvoid main() { o = vec4(b); }",
            "not a constant expression",
        ),
        (
            "#version 330\nuniform float b = vec2(1.0);\nout vec4 o;\nvoid main() { o = vec4(b); }",
            "cannot",
        ),
        (
            "#version 110\nuniform float b = 1.0;\nvoid main() { gl_FragColor = vec4(b); }",
            "GLSL 1.20",
        ),
        (
            "#version 330\nuniform sampler2D t = 0;\nout vec4 o;\nvoid main() { o = texture(t, vec2(0.0)); }",
            "sampler uniform",
        ),
    ];
    for (src, want) in cases {
        let (_, ok, log) = compile(&mut c, gl::FRAGMENT_SHADER, src);
        assert!(!ok, "compiled: {src}");
        assert!(log.contains(want), "{src}\n{log}");
    }
}

/// piglit's tess-instance-id, reduced: the vertex shader of a tessellation program picks
/// its colour from an initialized uniform array (sized by the initializer), the evaluation
/// shader scales it by an initialized uniform of its own.
fn tessellated(threads: usize) -> Vec<u8> {
    let vs = "#version 400
uniform vec4 colors[] = vec4[](vec4(0.0, 1.0, 0.0, 1.0), vec4(0.0, 0.0, 1.0, 1.0));
in vec2 pos;
out vec4 v_col;
void main() { gl_Position = vec4(pos, 0.0, 1.0); v_col = colors[gl_InstanceID]; }";
    let tes = "#version 400
layout(quads) in;
uniform float scale = 0.6;
in vec4 v_col[];
out vec4 t_col;
void main() {
    vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
    vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x);
    gl_Position = mix(a, b, gl_TessCoord.y);
    t_col = v_col[0] * scale;
}";
    let fs = "#version 400
in vec4 t_col;
out vec4 c;
void main() { c = t_col; }";
    let mut c = common::context(W as u32, W as u32, threads);
    let (p, ok, log) = link(
        &mut c,
        &[
            (gl::VERTEX_SHADER, vs),
            (gl::TESS_EVALUATION_SHADER, tes),
            (gl::FRAGMENT_SHADER, fs),
        ],
    );
    assert!(ok, "{log}");
    c.use_program(p);
    let l = c.get_uniform_location(p, "scale");
    assert_eq!(c.get_uniformfv(p, l), vec![0.6]);
    // The left patch as instance 0 only; the right patch as instances 0 and 1 (green, then
    // blue over it).
    let verts: [[f32; 2]; 8] = [
        [-1.0, -1.0],
        [0.0, -1.0],
        [0.0, 1.0],
        [-1.0, 1.0],
        [0.0, -1.0],
        [1.0, -1.0],
        [1.0, 1.0],
        [0.0, 1.0],
    ];
    let bytes: Vec<u8> = verts
        .iter()
        .flatten()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let buf = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ARRAY_BUFFER, buf);
    c.buffer_data(
        gl::ARRAY_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        gl::STATIC_DRAW,
    );
    let at = c.get_attrib_location(p, "pos");
    assert!(at >= 0);
    let at = at as u32;
    c.vertex_attrib_pointer(at, 2, gl::FLOAT, false, 8, 0);
    c.enable_vertex_attrib_array(at);
    c.patch_parameteri(gl::PATCH_VERTICES, 4);
    c.draw_arrays_instanced(gl::PATCHES, 0, 4, 1);
    c.uniform_1f(l, 1.0);
    c.draw_arrays_instanced(gl::PATCHES, 4, 4, 2);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_pixels(0, 0, W, W, gl::RGBA, gl::UNSIGNED_BYTE)
}

#[test]
fn tessellation_stages_see_their_initializers() {
    let img = tessellated(1);
    assert!(img == tessellated(2), "1 and 2 threads differ");
    // Left: instance 0 at scale 0.6. Right: instance 1 (blue) at scale 1.0, set by
    // glUniform1f after the first draw.
    assert_eq!(pixel(&img, 0, 1), [0, 153, 0, 153]);
    assert_eq!(pixel(&img, W - 1, 1), [0, 0, 255, 255]);
}
