//! What the benches share: building a program from a vertex and a fragment shader, as an
//! application would, failing loudly with the info log when it does not compile or link.

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
