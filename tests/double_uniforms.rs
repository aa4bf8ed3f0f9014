//! Double-precision uniforms through the Rust `Context` (GL 4.0 §7.6.1, GLSL 4.00):
//! glUniform*d / glUniformMatrix*dv / glProgramUniform*d upload values a shader reads as
//! doubles to the last bit, flat double varyings carry them to the fragment shader,
//! uniform blocks lay doubles out by std140 (8-byte components), glGetUniformdv reads
//! them back exactly, and every mismatched command is GL_INVALID_OPERATION. Drawn with 1
//! and 2 threads, which must agree.

mod common;

use softgl::{enums as gl, Context};

const W: i32 = 4;

/// One big triangle; the vertex shader passes a double computed from uniforms through a
/// flat varying.
const VS: &str = "#version 400
uniform dvec2 uv;
flat out double vd;
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    gl_Position = vec4(p, 0.0, 1.0);
    vd = uv.x * uv.y;
}";

/// Each channel is 1 where a double the shader sees equals the one the test uploaded, to
/// the last bit (none of them is a float).
const FS: &str = "#version 400
uniform double u;
uniform dmat2x3 m;
uniform dvec2 uv;
uniform double arr[3];
layout(std140) uniform B { double a; dvec3 b; dmat2 bm; double barr[2]; };
flat in double vd;
out vec4 c;
void main() {
    c.r = (u == 0.1lf && arr[2] == 1.0lf / 3.0lf) ? 1.0 : 0.0;
    c.g = (m[0] == dvec3(1.0lf, 2.0lf, 0.1lf) && m[1][2] == 1e-300lf) ? 1.0 : 0.0;
    c.b = (vd == uv.x * uv.y && vd == 0.7lf * 0.3lf) ? 1.0 : 0.0;
    c.a = (a == 0.1lf && b.z == 0.2lf && bm[1][0] == 0.3lf && barr[1] == 0.4lf) ? 1.0 : 0.0;
}";

/// The std140 offsets of the block's members (doubles: 8 bytes, dvec3 aligned to 32,
/// dmat2 columns and array elements rounded up to 16).
const OFF_A: usize = 0;
const OFF_B: usize = 32;
const OFF_BM: usize = 64;
const OFF_BARR: usize = 96;

fn block_bytes() -> Vec<u8> {
    let mut bytes = vec![0u8; 128];
    let mut put = |at: usize, x: f64| bytes[at..at + 8].copy_from_slice(&x.to_le_bytes());
    put(OFF_A, 0.1);
    put(OFF_B + 16, 0.2); // b.z
    put(OFF_BM + 16, 0.3); // bm[1][0]: column 1 at 16
    put(OFF_BARR + 16, 0.4); // barr[1]: stride 16
    bytes
}

fn scene(threads: usize) -> (Vec<u8>, Context, u32) {
    let mut c = common::context(W as u32, W as u32, threads);
    let p = common::program(&mut c, VS, FS);
    c.use_program(p);
    let loc = |c: &mut Context, n: &str| c.get_uniform_location(p, n);
    let (u, m, uv, arr) = (
        loc(&mut c, "u"),
        loc(&mut c, "m"),
        loc(&mut c, "uv"),
        loc(&mut c, "arr[1]"),
    );
    c.uniform_1d(u, 0.1);
    // Row-major in (transpose): rows (1, 5), (2, 6), (0.1, 1e-300).
    c.uniform_matrix_2x3dv(m, true, &[1.0, 5.0, 2.0, 6.0, 0.1, 1e-300]);
    c.program_uniform_2d(p, uv, 0.7, 0.3);
    // From element 1: arr[1], arr[2]; the excess third value is ignored (§7.6.1).
    c.uniform_1dv(arr, &[2.0, 1.0 / 3.0, 9.0]);
    let buf = c.gen_buffers(1)[0];
    c.bind_buffer(gl::UNIFORM_BUFFER, buf);
    let bytes = block_bytes();
    c.buffer_data(
        gl::UNIFORM_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        gl::STATIC_DRAW,
    );
    c.bind_buffer_base(gl::UNIFORM_BUFFER, 0, buf);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let img = c.read_pixels(0, 0, W, W, gl::RGBA, gl::UNSIGNED_BYTE);
    (img, c, p)
}

#[test]
fn a_draw_sees_double_uniforms_exactly() {
    let (img, _, _) = scene(1);
    assert!(img == scene(2).0, "1 and 2 threads differ");
    for px in img.chunks(4) {
        assert_eq!(px, [255, 255, 255, 255]);
    }
}

#[test]
fn double_uniforms_read_back_exactly() {
    let (_, mut c, p) = scene(1);
    let loc = |c: &mut Context, n: &str| c.get_uniform_location(p, n);
    let u = loc(&mut c, "u");
    assert_eq!(c.get_uniformdv(p, u), vec![0.1]);
    // glGetUniformfv converts (GL 4.5 core §7.10).
    assert_eq!(c.get_uniformfv(p, u), vec![0.1f32]);
    let m = loc(&mut c, "m");
    assert_eq!(
        c.get_uniformdv(p, m),
        vec![1.0, 2.0, 0.1, 5.0, 6.0, 1e-300],
        "column-major after the transposed upload"
    );
    let a2 = loc(&mut c, "arr[2]");
    assert_eq!(c.get_uniformdv(p, a2), vec![1.0 / 3.0]);
    assert_eq!(c.getn_uniformdv(p, a2, 8), vec![1.0 / 3.0]);
    assert_eq!(c.getn_uniformdv(p, m, 8), Vec::<f64>::new());
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // Reflection: types and std140 offsets.
    let mi = c.get_uniform_indices(p, &["m"])[0];
    let (size, ty, _) = c.get_active_uniform(p, mi);
    assert_eq!((size, ty), (1, gl::DOUBLE_MAT2x3));
    let idx = c.get_uniform_indices(p, &["a", "b", "bm", "barr[0]", "uv"]);
    assert_eq!(
        c.get_active_uniformsiv(p, &idx, gl::UNIFORM_OFFSET),
        vec![
            OFF_A as i32,
            OFF_B as i32,
            OFF_BM as i32,
            OFF_BARR as i32,
            -1
        ]
    );
    assert_eq!(
        c.get_active_uniformsiv(p, &idx, gl::UNIFORM_TYPE),
        vec![
            gl::DOUBLE as i32,
            gl::DOUBLE_VEC3 as i32,
            gl::DOUBLE_MAT2 as i32,
            gl::DOUBLE as i32,
            gl::DOUBLE_VEC2 as i32
        ]
    );
    assert_eq!(
        c.get_active_uniformsiv(p, &idx[2..4], gl::UNIFORM_MATRIX_STRIDE)[0],
        16
    );
    assert_eq!(
        c.get_active_uniformsiv(p, &idx[3..4], gl::UNIFORM_ARRAY_STRIDE),
        vec![16]
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn mismatched_uniform_commands_are_invalid_operation() {
    let (_, mut c, p) = scene(1);
    let loc = |c: &mut Context, n: &str| c.get_uniform_location(p, n);
    let (u, m, uv, arr) = (
        loc(&mut c, "u"),
        loc(&mut c, "m"),
        loc(&mut c, "uv"),
        loc(&mut c, "arr[0]"),
    );
    let expect = |c: &mut Context, what: &str, f: &dyn Fn(&mut Context)| {
        f(c);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "{what}");
    };
    expect(&mut c, "float command on a double", &|c| {
        c.uniform_1f(u, 1.0)
    });
    expect(&mut c, "int command on a double", &|c| c.uniform_1i(u, 1));
    expect(&mut c, "size mismatch", &|c| c.uniform_2d(u, 1.0, 2.0));
    expect(&mut c, "vector command on a matrix", &|c| {
        c.uniform_3dv(m, &[1.0, 2.0, 3.0])
    });
    expect(&mut c, "wrong matrix shape", &|c| {
        c.uniform_matrix_3x2dv(m, false, &[0.0; 6])
    });
    expect(&mut c, "count > 1 on a non-array", &|c| {
        c.uniform_2dv(uv, &[1.0, 2.0, 3.0, 4.0])
    });
    expect(&mut c, "ProgramUniform size mismatch", &|c| {
        c.program_uniform_1d(p, uv, 1.0)
    });
    // The values did not change.
    assert_eq!(c.get_uniformdv(p, u), vec![0.1]);
    assert_eq!(c.get_uniformdv(p, uv), vec![0.7, 0.3]);
    // A double command on a float or bool uniform fails too.
    let q = common::program(
        &mut c,
        "#version 400\nuniform float f; uniform bool b;\n\
         void main() { gl_Position = vec4(b ? f : 0.0); }",
        "#version 400\nout vec4 o; void main() { o = vec4(1.0); }",
    );
    c.use_program(q);
    let f = c.get_uniform_location(q, "f");
    let b = c.get_uniform_location(q, "b");
    expect(&mut c, "double command on a float", &|c| {
        c.uniform_1d(f, 1.0)
    });
    expect(&mut c, "double command on a bool", &|c| {
        c.uniform_1d(b, 1.0)
    });
    c.use_program(p);
    c.uniform_1dv(arr, &[4.0, 5.0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let a1 = loc(&mut c, "arr[1]");
    assert_eq!(c.get_uniformdv(p, a1), vec![5.0]);
}
