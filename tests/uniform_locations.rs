//! Explicit uniform locations (GL_ARB_explicit_uniform_location, GLSL 4.30
//! `layout(location = N) uniform ...`) through the Rust `Context`: glGetUniformLocation
//! answers N, array elements and struct members take the locations after it, uniforms
//! without one get free locations around them, glUniform* at N reaches the shader, and
//! GL_MAX_UNIFORM_LOCATIONS is answered; the link fails for two uniforms on one location
//! (in one stage or across stages, arrays included), for one uniform with two locations in
//! two stages, and the compile for a location past the limit or without the extension.

mod common;

use softgl::{enums as gl, Context};

const W: i32 = 4;

const VS: &str = "#version 430
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}";

fn compile(c: &mut Context, kind: u32, src: &str) -> (u32, bool, String) {
    let s = c.create_shader(kind);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    let ok = c.get_shaderiv(s, gl::COMPILE_STATUS) == 1;
    (s, ok, c.get_shader_info_log(s))
}

/// Links the shaders (each must compile): the program, its status and its log.
fn link(c: &mut Context, vs: &str, fs: &str) -> (u32, bool, String) {
    let p = c.create_program();
    for (kind, src) in [(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)] {
        let (s, ok, log) = compile(c, kind, src);
        assert!(ok, "{log}");
        c.attach_shader(p, s);
    }
    c.link_program(p);
    let ok = c.get_programiv(p, gl::LINK_STATUS) == 1;
    (p, ok, c.get_program_info_log(p))
}

const FS: &str = "#version 430
struct S { float a; vec2 b[2]; };
layout(location = 3) uniform vec4 color;
uniform float gap;
layout(location = 7) uniform float arr[3];
layout(location = 0) uniform S s;
uniform vec2 last;
out vec4 o;
void main() {
    o = color + vec4(gap + arr[0] + arr[1] + arr[2] + s.a + s.b[0].x + s.b[1].y + last.x);
}";

#[test]
fn explicit_locations_and_the_free_ones_around_them() {
    let mut c = common::context(W as u32, W as u32, 1);
    assert!(c.get_integerv(gl::MAX_UNIFORM_LOCATIONS)[0] >= 1024);
    let (p, ok, log) = link(&mut c, VS, FS);
    assert!(ok, "{log}");
    let at = |c: &mut Context, n: &str| c.get_uniform_location(p, n);
    assert_eq!(at(&mut c, "color"), 3);
    assert_eq!(at(&mut c, "arr"), 7);
    assert_eq!(at(&mut c, "arr[0]"), 7);
    assert_eq!(at(&mut c, "arr[2]"), 9);
    // The struct's leaves follow each other from 0: s.a, then s.b[0] and s.b[1].
    assert_eq!(at(&mut c, "s.a"), 0);
    assert_eq!(at(&mut c, "s.b[0]"), 1);
    assert_eq!(at(&mut c, "s.b[1]"), 2);
    // The others take the free locations, in order: 4, then 5.
    assert_eq!(at(&mut c, "gap"), 4);
    assert_eq!(at(&mut c, "last"), 5);
    // Location 6 is no uniform's.
    c.use_program(p);
    c.uniform_1f(6, 1.0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.uniform_1f(9, 1.0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// Sets every uniform of `FS` by its explicit location only and draws.
fn draw_by_location(threads: usize) -> Vec<u8> {
    let mut c = common::context(W as u32, W as u32, threads);
    let (p, ok, log) = link(&mut c, VS, FS);
    assert!(ok, "{log}");
    c.use_program(p);
    c.uniform_4f(3, 0.0, 0.25, 0.0, 1.0);
    c.uniform_1fv(7, &[0.0, 0.125, 0.0625]);
    c.uniform_1f(0, 0.0625);
    c.uniform_2fv(1, &[0.0, 0.0, 0.0, 0.0]);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_pixels(0, 0, W, W, gl::RGBA, gl::UNSIGNED_BYTE)
}

#[test]
fn gl_uniform_at_an_explicit_location_reaches_the_shader() {
    let img = draw_by_location(1);
    assert!(img == draw_by_location(2), "1 and 2 threads differ");
    // 0.125 + 0.0625 + 0.0625 = 0.25 added to every channel of (0, 0.25, 0, 1).
    assert_eq!(&img[..4], &[64, 128, 64, 255]);
}

#[test]
fn overlapping_and_mismatched_locations_fail_the_link() {
    let mut c = common::context(W as u32, W as u32, 1);
    let fs = |decls: &str| {
        format!(
            "#version 430
{decls}
out vec4 o;
void main() {{ o = vec4(0.0); }}"
        )
    };
    let vs = |decls: &str| {
        format!(
            "#version 430
{decls}
void main() {{ gl_Position = vec4(0.0); }}"
        )
    };
    let cases = [
        // Two uniforms of one stage at one location, one of them an array's element.
        (
            vs(""),
            fs("layout(location = 0) uniform float a[16];\nlayout(location = 2) uniform float r;"),
            "location 2",
        ),
        // Across stages.
        (
            vs("layout(location = 42) uniform vec4 offset;"),
            fs("layout(location = 42) uniform vec4 color;"),
            "location 42",
        ),
        // An unused uniform keeps its locations.
        (
            vs("layout(location = 0) uniform float big[128];"),
            fs("layout(location = 127) uniform vec4 color;"),
            "location 127",
        ),
        // One uniform, two locations.
        (
            vs("layout(location = 0) uniform vec4 foo;"),
            fs("layout(location = 1) uniform vec4 foo;"),
            "different explicit locations",
        ),
        // An array running past GL_MAX_UNIFORM_LOCATIONS.
        (
            vs(""),
            fs(&format!(
                "layout(location = {}) uniform float tail[2];",
                c.get_integerv(gl::MAX_UNIFORM_LOCATIONS)[0] - 1
            )),
            "GL_MAX_UNIFORM_LOCATIONS",
        ),
    ];
    for (v, f, want) in &cases {
        let (_, ok, log) = link(&mut c, v, f);
        assert!(!ok, "linked:\n{v}\n{f}");
        assert!(log.contains(want), "{f}\n{log}");
    }
    // The same location declared in both stages, or in one only, is one uniform.
    for other in [
        "layout(location = 0) uniform vec4 foo;",
        "uniform vec4 foo;",
    ] {
        let (p, ok, log) = link(
            &mut c,
            &vs("layout(location = 0) uniform vec4 foo;"),
            &fs(other),
        );
        assert!(ok, "{log}");
        assert_eq!(c.get_uniform_location(p, "foo"), 0);
    }
}

#[test]
fn bad_locations_fail_the_compile() {
    let mut c = common::context(W as u32, W as u32, 1);
    let max = c.get_integerv(gl::MAX_UNIFORM_LOCATIONS)[0];
    let cases = [
        (
            format!("#version 430\nlayout(location = {max}) uniform float f;\nout vec4 o;\nvoid main() {{ o = vec4(f); }}"),
            "GL_MAX_UNIFORM_LOCATIONS",
        ),
        (
            "#version 330\nlayout(location = 0) uniform float f;\nout vec4 o;\nvoid main() { o = vec4(f); }".to_string(),
            "GL_ARB_explicit_uniform_location",
        ),
    ];
    for (src, want) in &cases {
        let (_, ok, log) = compile(&mut c, gl::FRAGMENT_SHADER, src);
        assert!(!ok, "compiled: {src}");
        assert!(log.contains(want), "{src}\n{log}");
    }
    // With the extension GLSL 3.30 may.
    let src = "#version 330\n#extension GL_ARB_explicit_uniform_location : require\n\
        layout(location = 5) uniform float f;\nout vec4 o;\nvoid main() { o = vec4(f); }";
    let (_, ok, log) = compile(&mut c, gl::FRAGMENT_SHADER, src);
    assert!(ok, "{log}");
}
