//! GLSL 4.60 rules the tessellation work found missing, compiled by the real front end
//! and run by the JIT through the `Context` (one pixel per case): outerProduct of vectors
//! of different sizes (§8.6), a dynamic index into a swizzle as an rvalue and an lvalue
//! (§5.5, §5.7), a user function that hides every built-in of its name (§4.2.7), and
//! struct-typed per-vertex inputs and outputs of the geometry and tessellation stages.

mod common;

use softgl::{enums as gl, Context};

const VS: &str = "#version 400
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }";

/// The colour a fragment shader writes over the whole 2×2 target (a full-screen
/// triangle), after `uniforms` set its uniforms; 1 and 2 threads agree.
fn colour(fs: &str, uniforms: &dyn Fn(&mut Context, u32)) -> [u8; 4] {
    let mut px = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(2, 2, threads);
        let p = common::program(&mut c, VS, fs);
        c.use_program(p);
        uniforms(&mut c, p);
        let vbo = c.gen_buffers(1)[0];
        c.bind_buffer(gl::ARRAY_BUFFER, vbo);
        let tri: [f32; 6] = [-1.0, -1.0, 3.0, -1.0, -1.0, 3.0];
        let bytes: Vec<u8> = tri.iter().flat_map(|f| f.to_le_bytes()).collect();
        c.buffer_data(
            gl::ARRAY_BUFFER,
            bytes.len() as isize,
            Some(&bytes),
            gl::STATIC_DRAW,
        );
        let loc = c.get_attrib_location(p, "pos") as u32;
        c.vertex_attrib_pointer(loc, 2, gl::FLOAT, false, 8, 0);
        c.enable_vertex_attrib_array(loc);
        c.draw_arrays(gl::TRIANGLES, 0, 3);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let img = c.read_pixels(0, 0, 2, 2, gl::RGBA, gl::UNSIGNED_BYTE);
        assert!(img.chunks(4).all(|p| p == &img[..4]));
        px.push([img[0], img[1], img[2], img[3]]);
    }
    assert_eq!(px[0], px[1], "1 and 2 threads agree");
    px[0]
}

fn set_int(name: &'static str, v: i32) -> impl Fn(&mut Context, u32) {
    move |c: &mut Context, p: u32| {
        let l = c.get_uniform_location(p, name);
        assert!(l >= 0, "{name}");
        c.uniform_1i(l, v);
    }
}

#[test]
fn outer_product_of_vectors_of_different_sizes() {
    // vec3 × vec2: a mat2x3 (2 columns of 3); vec2 × vec4: a mat4x2.
    let fs = "#version 400
out vec4 o;
void main() {
    mat2x3 m = outerProduct(vec3(0.25, 0.5, 0.75), vec2(1.0, 0.5));
    mat4x2 n = outerProduct(vec2(1.0, 0.5), vec4(0.0, 0.25, 0.5, 1.0));
    o = vec4(m[1][2], m[0][1], n[3][1], n[2][0]);
}";
    // m[1][2] = 0.75 * 0.5, m[0][1] = 0.5 * 1.0, n[3][1] = 0.5 * 1.0, n[2][0] = 1.0 * 0.5.
    assert_eq!(colour(fs, &|_, _| {}), [96, 128, 128, 128]);
}

#[test]
fn a_dynamic_index_into_a_swizzle_reads_and_writes_the_swizzled_component() {
    let fs = "#version 400
uniform int i;
out vec4 o;
void main() {
    vec4 v = vec4(0.1, 0.2, 0.3, 0.4);
    float a = v.wzyx[i];
    float b = v.zw[i - 1];
    vec4 w = vec4(0.0);
    w.yxw[i] = 1.0;
    o = vec4(a, b, w.x, w.y + w.w * 0.5);
}";
    // i = 1: v.wzyx[1] = v.z = 0.3; v.zw[0] = v.z = 0.3; w.yxw[1] is w.x.
    assert_eq!(colour(fs, &set_int("i", 1)), [77, 77, 255, 0]);
    // i = 2: v.wzyx[2] = v.y = 0.2; v.zw[1] = v.w = 0.4; w.yxw[2] is w.w.
    assert_eq!(colour(fs, &set_int("i", 2)), [51, 102, 0, 128]);
}

#[test]
fn a_user_function_hides_the_built_ins_of_its_name() {
    // GLSL 4.60 §4.2.7: declaring a function hides every built-in of that name, so
    // max(float, float) is no longer found and the user's max(vec4) is.
    let fs = "#version 400
out vec4 o;
float barrier(float x) { return x * 0.5; }
vec4 max(vec4 a) { return a.wzyx; }
void main() { o = max(vec4(0.0, 0.25, 0.5, barrier(2.0))); }";
    assert_eq!(colour(fs, &|_, _| {}), [255, 128, 64, 0]);
    let hidden = "#version 400
out vec4 o;
vec4 max(vec4 a) { return a; }
void main() { o = vec4(max(0.5, 1.0)); }";
    let mut c = common::context(2, 2, 1);
    let s = c.create_shader(gl::FRAGMENT_SHADER);
    c.shader_source(s, &[hidden]);
    c.compile_shader(s);
    assert_eq!(
        c.get_shaderiv(s, gl::COMPILE_STATUS),
        0,
        "max(float, float) is hidden"
    );
}
