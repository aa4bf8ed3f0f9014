//! Arrays of arrays of interface blocks (GL_ARB_arrays_of_arrays, GLSL 4.30 §4.1.9) through
//! the Rust `Context`: `uniform B { ... } b[2][3];` and `buffer S { ... } s[2][2];` are one
//! block per element, named `B[i][j]` for the queries, bound to consecutive binding points
//! in row-major order, and read and written at the element their indices name. Each draw
//! runs on 1 and 2 workers, which must agree.

mod common;

use softgl::{enums as gl, Context};

const W: i32 = 4;
const H: i32 = 4;

const VS: &str = "#version 430
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.5, 1.0);
}";

fn buffer(c: &mut Context, target: u32, index: u32, words: &[u32]) -> u32 {
    let b = c.gen_buffers(1)[0];
    c.bind_buffer(target, b);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    c.buffer_data(target, bytes.len() as isize, Some(&bytes), gl::DYNAMIC_DRAW);
    c.bind_buffer_base(target, index, b);
    b
}

fn words_of(c: &mut Context, b: u32) -> Vec<u32> {
    c.bind_buffer(gl::SHADER_STORAGE_BUFFER, b);
    let n = c.get_buffer_parameteriv(gl::SHADER_STORAGE_BUFFER, gl::BUFFER_SIZE);
    c.get_buffer_sub_data(gl::SHADER_STORAGE_BUFFER, 0, n as isize)
        .chunks(4)
        .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
        .collect()
}

/// `b[i][j]` reads the block at binding 1 + 3i + j; the six blocks are reflected as
/// `B[0][0]` .. `B[1][2]` with their bindings, and the member `B.v` once.
#[test]
fn uniform_block_arrays_of_arrays() {
    let fs = "#version 430
layout(std140, binding = 1) uniform B { vec4 v; } b[2][3];
out vec4 colour;
void main() { colour = b[1][2].v + b[0][1].v; }";
    let mut images = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(W as u32, H as u32, threads);
        let p = common::program(&mut c, VS, fs);
        c.use_program(p);
        assert_eq!(c.get_programiv(p, gl::ACTIVE_UNIFORM_BLOCKS), 6);
        for (k, name) in [
            "B[0][0]", "B[0][1]", "B[0][2]", "B[1][0]", "B[1][1]", "B[1][2]",
        ]
        .into_iter()
        .enumerate()
        {
            let i = c.get_uniform_block_index(p, name);
            assert_eq!(i, k as u32, "{name}");
            assert_eq!(
                c.get_active_uniform_blockiv(p, i, gl::UNIFORM_BLOCK_BINDING),
                [1 + k as i32],
                "{name}"
            );
            assert_eq!(c.get_active_uniform_block_name(p, i), name);
        }
        assert_eq!(c.get_uniform_block_index(p, "B[2][0]"), gl::INVALID_INDEX);
        assert_eq!(c.get_programiv(p, gl::ACTIVE_UNIFORMS), 1);
        assert_eq!(c.get_active_uniform(p, 0).2, "B.v");
        // Block k holds (k/8, 0, 0, 0)-ish values: only b[1][2] (binding 6) and b[0][1]
        // (binding 2) may reach the colour.
        for k in 0..6u32 {
            let red = f32::to_bits(if k == 5 { 0.5 } else { 0.0 });
            let green = f32::to_bits(if k == 1 { 0.25 } else { 0.0 });
            let blue = f32::to_bits(if k == 1 || k == 5 { 0.0 } else { 1.0 });
            buffer(
                &mut c,
                gl::UNIFORM_BUFFER,
                1 + k,
                &[red, green, blue, f32::to_bits(0.5)],
            );
        }
        c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let px = c.read_pixels(0, 0, W, H, gl::RGBA, gl::UNSIGNED_BYTE);
        assert_eq!(&px[..4], &[128, 64, 0, 255]);
        images.push(px);
    }
    assert_eq!(images[0], images[1]);
}

/// `s[i][j]` writes the block at binding 2i + j (constant outer index, dynamic inner one);
/// `s.length()` and `s[0].length()` are the dimensions.
#[test]
fn storage_block_arrays_of_arrays() {
    let cs = "#version 430
layout(local_size_x = 2) in;
layout(std430, binding = 0) buffer S { uint x; uint n; } s[3][2];
void main() {
    uint j = gl_LocalInvocationID.x;
    s[1][j].x = 10u + j;
    s[2][j].x = s[0][j].x * 2u;
    s[0][1].n = uint(s.length() * 10 + s[0].length());
}";
    let mut c = Context::new(W as u32, H as u32);
    let p = common::compute_program(&mut c, cs);
    let bufs: Vec<u32> = (0..6)
        .map(|k| buffer(&mut c, gl::SHADER_STORAGE_BUFFER, k, &[k + 1, 0]))
        .collect();
    c.dispatch_compute(1, 1, 1);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let got: Vec<Vec<u32>> = bufs.iter().map(|&b| words_of(&mut c, b)).collect();
    assert_eq!(
        got,
        [
            vec![1, 0],
            vec![2, 32],
            vec![10, 0],
            vec![11, 0],
            vec![2, 0],
            vec![4, 0],
        ]
    );
    let i = c.get_program_resource_index(p, gl::SHADER_STORAGE_BLOCK, "S[2][1]");
    assert_eq!(i, 5);
    assert_eq!(
        c.get_program_resourceiv(p, gl::SHADER_STORAGE_BLOCK, i, &[gl::BUFFER_BINDING]),
        [5]
    );
}

/// Without GLSL 4.30 or the extension an array of arrays of blocks is a compile error.
#[test]
fn arrays_of_arrays_of_blocks_need_the_extension() {
    let mut c = Context::new(W as u32, H as u32);
    let compiles = |c: &mut Context, src: &str| {
        let s = c.create_shader(gl::FRAGMENT_SHADER);
        c.shader_source(s, &[src]);
        c.compile_shader(s);
        c.get_shaderiv(s, gl::COMPILE_STATUS) == 1
    };
    let body = "uniform B { vec4 v; } b[2][2];\nout vec4 o;\nvoid main() { o = b[1][1].v; }";
    assert!(!compiles(&mut c, &format!("#version 150\n{body}")));
    assert!(compiles(
        &mut c,
        &format!("#version 150\n#extension GL_ARB_arrays_of_arrays : require\n{body}")
    ));
}
