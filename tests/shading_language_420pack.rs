//! GL_ARB_shading_language_420pack (GLSL 4.20's additions) through the Rust `Context`: several
//! layout qualifiers on one declaration (an error without the extension below GLSL 4.20,
//! the last one winning with it), the link error of one block declared with two
//! different bindings, and the program that cannot run because two samplers of different
//! types share a texture unit (glValidateProgram fails, draws are INVALID_OPERATION).

mod common;

use softgl::{enums as gl, Context};

/// Compiles `src` as a `kind` shader: the shader and whether it compiled.
fn compile(c: &mut Context, kind: u32, src: &str) -> (u32, bool) {
    let s = c.create_shader(kind);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    (s, c.get_shaderiv(s, gl::COMPILE_STATUS) == 1)
}

/// Links the shaders of `stages` (each must compile): the program and whether it linked.
fn link(c: &mut Context, stages: &[(u32, &str)]) -> (u32, bool) {
    let p = c.create_program();
    for &(kind, src) in stages {
        let (s, ok) = compile(c, kind, src);
        assert!(ok, "{}", c.get_shader_info_log(s));
        c.attach_shader(p, s);
    }
    c.link_program(p);
    (p, c.get_programiv(p, gl::LINK_STATUS) == 1)
}

const FS: &str = "#version 150
out vec4 c;
void main() { c = vec4(1.0); }";

#[test]
fn several_layout_qualifiers_need_the_extension_and_the_last_wins() {
    let mut c = Context::new(4, 4);
    let without = "#version 140
#extension GL_ARB_explicit_attrib_location : enable
layout(location = 2) layout(location = 5) in vec4 a;
void main() { gl_Position = a; }";
    let (s, ok) = compile(&mut c, gl::VERTEX_SHADER, without);
    assert!(!ok, "two layout qualifiers compiled without 420pack");
    assert!(
        c.get_shader_info_log(s).contains("layout qualifier"),
        "{}",
        c.get_shader_info_log(s)
    );
    let with = "#version 150
#extension GL_ARB_shading_language_420pack : enable
#extension GL_ARB_explicit_attrib_location : enable
layout(location = 2) layout(location = 5) in vec4 a;
void main() { gl_Position = a; }";
    let (p, ok) = link(
        &mut c,
        &[(gl::VERTEX_SHADER, with), (gl::FRAGMENT_SHADER, FS)],
    );
    assert!(ok, "{}", c.get_program_info_log(p));
    assert_eq!(c.get_attrib_location(p, "a"), 5);

    // GLSL 1.50 §4.3.8.2: every output layout declaration of a geometry shader declares the
    // same max_vertices; the overridden 2 is not one of them.
    let gs = "#version 150
#extension GL_ARB_shading_language_420pack : enable
layout(lines) in;
layout(line_strip, max_vertices = 2) layout(max_vertices = 3) out;
layout(max_vertices = 3) out;
void main() { gl_Position = gl_in[0].gl_Position; EmitVertex(); }";
    let vs = "#version 150
void main() { gl_Position = vec4(0.0); }";
    let (p, ok) = link(
        &mut c,
        &[
            (gl::VERTEX_SHADER, vs),
            (gl::GEOMETRY_SHADER, gs),
            (gl::FRAGMENT_SHADER, FS),
        ],
    );
    assert!(ok, "{}", c.get_program_info_log(p));
    assert_eq!(c.get_programiv(p, gl::GEOMETRY_VERTICES_OUT), 3);
    // GLSL 4.20 takes them without the extension.
    let v420 = "#version 420
layout(location = 1) layout(location = 3) in vec4 a;
void main() { gl_Position = a; }";
    let (s, ok) = compile(&mut c, gl::VERTEX_SHADER, v420);
    assert!(ok, "{}", c.get_shader_info_log(s));
}

/// GL 4.5 core §7.6.2 / §7.8: a block two stages declare is declared identically; two
/// different `layout(binding)`s fail the link, for uniform and storage blocks, with or
/// without an instance name.
#[test]
fn one_block_with_two_bindings_does_not_link() {
    let mut c = Context::new(4, 4);
    for (storage, instance) in [
        ("uniform", " b"),
        ("uniform", ""),
        ("buffer", " b"),
        ("buffer", ""),
    ] {
        let member = if instance.is_empty() { "v" } else { "b.v" };
        let src = |binding: u32, stage: &str| {
            let head = "#version 430\n";
            let block = format!(
                "layout(std140, binding = {binding}) {storage} Block {{ vec4 v; }}{instance};\n"
            );
            match stage {
                "vs" => format!("{head}{block}void main() {{ gl_Position = {member}; }}"),
                _ => format!("{head}{block}out vec4 c;\nvoid main() {{ c = {member}; }}"),
            }
        };
        for (fs_binding, links) in [(1, false), (0, true)] {
            let (vs, fs) = (src(0, "vs"), src(fs_binding, "fs"));
            let (p, ok) = link(
                &mut c,
                &[(gl::VERTEX_SHADER, &vs), (gl::FRAGMENT_SHADER, &fs)],
            );
            assert_eq!(
                ok,
                links,
                "{storage} block{instance}, bindings 0 and {fs_binding}: {}",
                c.get_program_info_log(p)
            );
        }
    }
}

/// GL 4.5 core §7.10: samplers of different types on one texture unit make the program
/// impossible to run: glValidateProgram fails and a draw is INVALID_OPERATION; on two units
/// it validates and draws. Changing the unit with glUniform1i clears the conflict.
#[test]
fn samplers_of_two_types_on_one_unit_cannot_run() {
    let vs = |binding: u32| {
        format!(
            "#version 150
#extension GL_ARB_shading_language_420pack : require
layout(binding = {binding}) uniform samplerBuffer buf;
void main() {{ gl_Position = texelFetch(buf, 0); }}"
        )
    };
    let fs = "#version 150
#extension GL_ARB_shading_language_420pack : require
layout(binding = 0) uniform samplerCube cube;
out vec4 c;
void main() { c = texture(cube, vec3(1.0)); }";
    let mut c = common::context(4, 4, 1);
    let p = common::program(&mut c, &vs(0), fs);
    c.use_program(p);
    c.validate_program(p);
    assert_eq!(c.get_programiv(p, gl::VALIDATE_STATUS), 0);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // Moving one sampler to another unit removes the conflict.
    let loc = c.get_uniform_location(p, "buf");
    c.uniform_1i(loc, 3);
    c.validate_program(p);
    assert_eq!(c.get_programiv(p, gl::VALIDATE_STATUS), 1);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);

    let q = common::program(&mut c, &vs(1), fs);
    c.use_program(q);
    c.validate_program(q);
    assert_eq!(c.get_programiv(q, gl::VALIDATE_STATUS), 1);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// piglit's glslparsertest links a geometry shader with `void main() { gl_Position = ...; }`
/// as its vertex shader: an input the geometry shader declares but never reads needs no
/// vertex output (GLSL 1.50 §4.3.4); one it reads does.
#[test]
fn unread_geometry_inputs_need_no_vertex_output() {
    let vs = "#version 150\nvoid main() { gl_Position = vec4(0.0); }";
    let gs = |body: &str| {
        format!(
            "#version 150
#extension GL_ARB_shading_language_420pack : enable
layout(lines) in;
layout(line_strip, max_vertices = 2) layout(max_vertices = 3) out;
in vec4 pos[];
layout(max_vertices = 3) out;
void main() {{ {body} }}"
        )
    };
    let mut c = Context::new(4, 4);
    let (p, ok) = link(
        &mut c,
        &[(gl::VERTEX_SHADER, vs), (gl::GEOMETRY_SHADER, &gs(""))],
    );
    assert!(ok, "{}", c.get_program_info_log(p));
    assert_eq!(c.get_programiv(p, gl::GEOMETRY_VERTICES_OUT), 3);
    let reads = gs("gl_Position = pos[1]; EmitVertex();");
    let (p, ok) = link(
        &mut c,
        &[(gl::VERTEX_SHADER, vs), (gl::GEOMETRY_SHADER, &reads)],
    );
    assert!(!ok);
    assert!(
        c.get_program_info_log(p).contains("pos"),
        "{}",
        c.get_program_info_log(p)
    );
}

/// The language additions of the extension at GLSL 1.50: initializer lists, `.length()` of
/// vectors and matrices, swizzles of scalars, `const` locals with non-constant initializers,
/// an int returned from a float function (implicit conversion) and line continuation; any
/// check that fails turns the pixel red.
#[test]
fn language_additions_run() {
    let fs = "#version 150
#extension GL_ARB_shading_language_420pack : require
uniform float one;
float half_of(int x) { return x / 2; }
out vec4 colour;
void main() {
    vec4 v = { 1.0, 2.0, 3.0, 4.0 };
    float a[3] = { 1.0, 2.0, 3.0 };
    struct S { int i; vec2 p; } s = { 7, { 0.5, 0.25 } };
    mat2 m = { { 1.0, 2.0 }, { 3.0, 4.0 } };
    const float k = one * 2.0;
    bool ok = v.length() == 4 && m.length() == 2 && m[0].length() == 2 \\
        && a.length() == 3 && a[2] == 3.0
        && s.i == 7 && s.p == vec2(0.5, 0.25) && m[1][0] == 3.0
        && one.xxx == vec3(1.0) && (2.0).xx == vec2(2.0)
        && k == 2.0 && half_of(5) == 2.0 && v.w == 4.0;
    colour = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}";
    let vs = "#version 150
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.5, 1.0);
}";
    let mut c = common::context(4, 4, 1);
    let p = common::program(&mut c, vs, fs);
    c.use_program(p);
    let l = c.get_uniform_location(p, "one");
    c.uniform_1f(l, 1.0);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let px = c.read_pixels(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(&px[..4], &[0, 255, 0, 255]);
}
