//! Helpers the GL-API integration tests share: a context ready for core-profile draws, and
//! compiling and linking a program through the Rust `Context`, with the info log in the
//! failure message.

use softgl::{enums as gl, Context};

/// A `w`×`h` context on `threads` workers with a vertex array bound (core draws need one).
#[allow(dead_code)] // Not every test file that includes this module draws.
pub fn context(w: u32, h: u32, threads: usize) -> Context {
    let mut c = Context::with_threads(w, h, threads);
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    c
}

/// A linked program of vertex shader `vs` and fragment shader `fs`; panics with the info
/// log when a compile or the link fails.
#[allow(dead_code)] // Not every test file that includes this module links such a program.
pub fn program(c: &mut Context, vs: &str, fs: &str) -> u32 {
    linked(c, &[(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)])
}

/// A linked program of the one compute shader `src`, made current (glUseProgram); panics
/// with the info log when the compile or the link fails.
#[allow(dead_code)] // Not every test file that includes this module dispatches.
pub fn compute_program(c: &mut Context, src: &str) -> u32 {
    let p = linked(c, &[(gl::COMPUTE_SHADER, src)]);
    c.use_program(p);
    p
}

/// A linked program of the given (stage, source) shaders; panics with the info log when a
/// compile or the link fails.
#[allow(dead_code)]
pub fn linked(c: &mut Context, stages: &[(u32, &str)]) -> u32 {
    let p = c.create_program();
    for &(kind, src) in stages {
        let s = c.create_shader(kind);
        c.shader_source(s, &[src]);
        c.compile_shader(s);
        assert_eq!(
            c.get_shaderiv(s, gl::COMPILE_STATUS),
            1,
            "{}",
            c.get_shader_info_log(s)
        );
        c.attach_shader(p, s);
    }
    c.link_program(p);
    assert_eq!(
        c.get_programiv(p, gl::LINK_STATUS),
        1,
        "{}",
        c.get_program_info_log(p)
    );
    p
}
