//! What the benches share: building a program from a vertex and a fragment shader, as an
//! application would, failing loudly with the info log when it does not compile or link;
//! and a float vertex attribute in a new buffer of the bound vertex array.

use softgl::{enums, Context};

/// Compiles `vs` and `fs`, links them, makes the program current and returns its name.
pub fn program(ctx: &mut Context, vs: &str, fs: &str) -> u32 {
    let p = ctx.create_program();
    for (ty, src) in [(enums::VERTEX_SHADER, vs), (enums::FRAGMENT_SHADER, fs)] {
        let s = ctx.create_shader(ty);
        ctx.shader_source(s, &[src]);
        ctx.compile_shader(s);
        assert_ne!(
            ctx.get_shaderiv(s, enums::COMPILE_STATUS),
            0,
            "{}",
            ctx.get_shader_info_log(s)
        );
        ctx.attach_shader(p, s);
    }
    ctx.link_program(p);
    assert_ne!(
        ctx.get_programiv(p, enums::LINK_STATUS),
        0,
        "{}",
        ctx.get_program_info_log(p)
    );
    ctx.use_program(p);
    p
}

/// Uploads `data` into a new GL_ARRAY_BUFFER and points attribute `index` at it as
/// `components` tightly packed floats per vertex (into the bound vertex array); returns the
/// buffer's name.
#[allow(dead_code)] // not every bench has vertex arrays
pub fn float_attribute(ctx: &mut Context, index: u32, components: i32, data: &[f32]) -> u32 {
    let vbo = ctx.gen_buffers(1)[0];
    ctx.bind_buffer(enums::ARRAY_BUFFER, vbo);
    let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
    ctx.buffer_data(
        enums::ARRAY_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        enums::STATIC_DRAW,
    );
    ctx.enable_vertex_attrib_array(index);
    ctx.vertex_attrib_pointer(index, components, enums::FLOAT, false, components * 4, 0);
    vbo
}
