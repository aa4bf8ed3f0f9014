//! GL_ARB_shader_bit_encoding (GLSL 3.30's floatBitsToInt, floatBitsToUint, intBitsToFloat
//! and uintBitsToFloat) through the Rust `Context`: the functions exist below GLSL 3.30 only
//! with the extension enabled, and keep every bit of their operand, the sign of -0.0 and
//! denormals included, in the vertex and fragment stages.

mod common;

use softgl::{enums as gl, Context};

const VS: &str = "#version 150
#extension GL_ARB_shader_bit_encoding : require
out vec4 vs_ok;
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.5, 1.0);
    bool ok = floatBitsToUint(-0.0) == 0x80000000u
        && floatBitsToInt(1.5) == 0x3FC00000
        && intBitsToFloat(0x3F800000) == 1.0
        && uintBitsToFloat(0x00000001u) > 0.0;
    vs_ok = vec4(ok ? 1.0 : 0.0);
}";

const FS: &str = "#version 150
#extension GL_ARB_shader_bit_encoding : require
uniform float x;
in vec4 vs_ok;
out vec4 colour;
void main() {
    uvec2 u = floatBitsToUint(vec2(x, -x));
    ivec3 i = floatBitsToInt(vec3(x, 2.0, -2.0));
    vec4 back = uintBitsToFloat(uvec4(u, 0x7F800000u, 0xFF800000u));
    bool ok = u == uvec2(0x40490FDBu, 0xC0490FDBu)
        && i == ivec3(0x40490FDB, 0x40000000, int(0xC0000000u))
        && back.x == x && back.y == -x
        && isinf(back.z) && back.z > 0.0 && isinf(back.w) && back.w < 0.0
        && intBitsToFloat(ivec2(0x00800000, 1)) == vec2(1.17549435e-38, 1.0e-45);
    colour = vec4(ok ? 0.0 : 1.0, ok ? 1.0 : 0.0, vs_ok.x, 1.0);
}";

#[test]
fn bits_round_trip_in_both_stages() {
    for threads in [1, 2] {
        let mut c = common::context(4, 4, threads);
        let p = common::program(&mut c, VS, FS);
        c.use_program(p);
        let l = c.get_uniform_location(p, "x");
        c.uniform_1f(l, f32::from_bits(0x40490FDB));
        c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let px = c.read_pixels(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE);
        assert_eq!(&px[..4], &[0, 255, 255, 255], "{threads} threads");
    }
}

#[test]
fn the_functions_need_glsl_330_or_the_extension() {
    let mut c = Context::new(4, 4);
    let compiles = |c: &mut Context, src: &str| {
        let s = c.create_shader(gl::VERTEX_SHADER);
        c.shader_source(s, &[src]);
        c.compile_shader(s);
        c.get_shaderiv(s, gl::COMPILE_STATUS) == 1
    };
    let body = "void main() { gl_Position = vec4(intBitsToFloat(floatBitsToInt(1.0))); }";
    assert!(!compiles(&mut c, &format!("#version 150\n{body}")));
    assert!(compiles(
        &mut c,
        &format!("#version 150\n#extension GL_ARB_shader_bit_encoding : enable\n{body}")
    ));
    assert!(compiles(&mut c, &format!("#version 330\n{body}")));
}
