//! `layout(location)` on struct varyings (GLSL 4.60 §4.4.1, ARB_separate_shader_objects):
//! the members take consecutive locations from the struct's, each as many as a variable of
//! its type, and the link matches them by location, whatever the names. Through the Rust
//! `Context`, at 1 and 2 threads.

mod common;

use softgl::enums as gl;

const VS: &str = "#version 330
layout(location = 0) out struct S { vec4 a; mat2 m; float f; } s;
layout(location = 5) out struct T { vec4 b; } t;
void main() {
    s.a = vec4(1.0, 0.0, 0.0, 1.0);
    s.m = mat2(0.25, 0.5, 0.75, 1.0);
    s.f = 0.5;
    t.b = vec4(0.0, 1.0, 1.0, 1.0);
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}";

/// Reads the vertex shader's members by location under other names: `m` at location 1
/// (two columns: 1 and 2), `f` at 3, `t.b` at 5.
const FS: &str = "#version 330
layout(location = 5) in struct U { vec4 b; } u;
layout(location = 0) in struct V { vec4 x; mat2 y; float z; } v;
out vec4 c;
void main() { c = vec4(v.y[1][0], v.z, u.b.b, v.x.a); }";

fn draw(threads: usize) -> Vec<u8> {
    let mut c = common::context(2, 2, threads);
    let p = common::program(&mut c, VS, FS);
    c.use_program(p);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_pixels(0, 0, 2, 2, gl::RGBA, gl::UNSIGNED_BYTE)
}

#[test]
fn members_take_consecutive_locations_and_match_by_them() {
    let img = draw(1);
    assert_eq!(img, draw(2), "1 and 2 threads differ");
    // m[1][0] = 0.75, f = 0.5, t.b.b = 1, s.a.a = 1.
    assert_eq!(img, [191, 128, 255, 255].repeat(4));
}

#[test]
fn a_member_at_a_location_the_other_stage_lacks_fails_the_link() {
    let mut c = common::context(2, 2, 1);
    let fs = "#version 330
layout(location = 4) in struct W { vec4 q; } w;
out vec4 c;
void main() { c = w.q; }";
    let shader = |c: &mut softgl::Context, kind, src: &str| {
        let s = c.create_shader(kind);
        c.shader_source(s, &[src]);
        c.compile_shader(s);
        assert_eq!(c.get_shaderiv(s, gl::COMPILE_STATUS), 1);
        s
    };
    let v = shader(&mut c, gl::VERTEX_SHADER, VS);
    let f = shader(&mut c, gl::FRAGMENT_SHADER, fs);
    let p = c.create_program();
    c.attach_shader(p, v);
    c.attach_shader(p, f);
    c.link_program(p);
    // Location 4 is between s.f (3) and t.b (5): nothing writes it.
    assert_eq!(c.get_programiv(p, gl::LINK_STATUS), 0);
}
