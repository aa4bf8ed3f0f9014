//! GL_ARB_uniform_buffer_object below GLSL 1.40 through the Rust `Context`: with the
//! `#extension` a GLSL 1.30 shader declares uniform blocks (piglit's arb_shader_storage_
//! buffer_object rendering test draws with them), without it they are a compile error.

mod common;

use softgl::{enums as gl, Context};

#[test]
fn uniform_blocks_at_glsl_130_with_the_extension() {
    let vs = "#version 130
#extension GL_ARB_uniform_buffer_object : require
layout(std140) uniform;
uniform ub_pos { vec2 pos; float size; };
void main() {
    int id = gl_VertexID;
    vec2 corner = vec2((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0);
    gl_Position = vec4(corner * size + pos, 0.5, 1.0);
}";
    let fs = "#version 130
#extension GL_ARB_uniform_buffer_object : require
uniform ub_colour { vec4 colour; };
out vec4 frag;
void main() { frag = colour; }";
    let mut c = common::context(4, 4, 1);
    let p = common::program(&mut c, vs, fs);
    c.use_program(p);
    let words: [f32; 8] = [0.5, 0.5, 0.5, 0.0, 0.0, 1.0, 0.0, 1.0];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let b = c.gen_buffers(1)[0];
    c.bind_buffer(gl::UNIFORM_BUFFER, b);
    c.buffer_data(gl::UNIFORM_BUFFER, 256 + 16, None, gl::STATIC_DRAW);
    c.buffer_sub_data(gl::UNIFORM_BUFFER, 0, &bytes[..16]);
    c.buffer_sub_data(gl::UNIFORM_BUFFER, 256, &bytes[16..]);
    c.bind_buffer_range(gl::UNIFORM_BUFFER, 0, b, 0, 16);
    c.bind_buffer_range(gl::UNIFORM_BUFFER, 1, b, 256, 16);
    let (pos, colour) = (
        c.get_uniform_block_index(p, "ub_pos"),
        c.get_uniform_block_index(p, "ub_colour"),
    );
    c.uniform_block_binding(p, pos, 0);
    c.uniform_block_binding(p, colour, 1);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // The quad covers x, y in [0, 1] of NDC: the top-right pixel only.
    let px = c.read_pixels(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE);
    let at = |x: usize, y: usize| &px[(y * 4 + x) * 4..(y * 4 + x) * 4 + 4];
    assert_eq!(at(3, 3), &[0, 255, 0, 255]);
    assert_eq!(at(0, 0), &[0, 0, 0, 0]);
}

#[test]
fn uniform_blocks_at_glsl_130_need_the_extension() {
    let mut c = Context::new(4, 4);
    let s = c.create_shader(gl::VERTEX_SHADER);
    c.shader_source(
        s,
        &["#version 130\nuniform B { vec4 v; };\nvoid main() { gl_Position = v; }"],
    );
    c.compile_shader(s);
    assert_eq!(c.get_shaderiv(s, gl::COMPILE_STATUS), 0);
    assert!(c
        .get_shader_info_log(s)
        .contains("GL_ARB_uniform_buffer_object"));
}
