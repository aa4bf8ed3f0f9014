//! GL calls from a thread with a 64 KiB stack (issue #11 item 1): compiling, linking,
//! drawing and reading pixels work, with one raster thread (tiles and fragment variants on
//! the calling thread) and with two, and so does a shader at the front end's nesting
//! limits. Compiles run on softgl's compiler threads (`jit::run_on_compiler_thread`),
//! whose stack is sized for those limits; before, a plain shader overflowed inside
//! Cranelift at 64 KiB and 99 nested parentheses overflowed the parser at 256 KiB.

use softgl::{enums, Context};

const STACK: usize = 64 * 1024;
const W: u32 = 8;
const H: u32 = 8;

const VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\n\
                  void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";

/// Compiles and links; the program, or the info log.
fn program(c: &mut Context, fs: &str) -> Result<u32, String> {
    let p = c.create_program();
    for (ty, src) in [(enums::VERTEX_SHADER, VS), (enums::FRAGMENT_SHADER, fs)] {
        let s = c.create_shader(ty);
        c.shader_source(s, &[src]);
        c.compile_shader(s);
        if c.get_shaderiv(s, enums::COMPILE_STATUS) == 0 {
            return Err(c.get_shader_info_log(s));
        }
        c.attach_shader(p, s);
        c.delete_shader(s);
    }
    c.link_program(p);
    if c.get_programiv(p, enums::LINK_STATUS) == 0 {
        return Err(c.get_program_info_log(p));
    }
    Ok(p)
}

/// Draws a full-window triangle with `p` and returns the pixels.
fn draw(c: &mut Context, p: u32) -> Vec<u8> {
    c.use_program(p);
    let vbo = c.gen_buffers(1)[0];
    c.bind_buffer(enums::ARRAY_BUFFER, vbo);
    let verts: [f32; 6] = [-1.0, -1.0, 3.0, -1.0, -1.0, 3.0];
    let bytes: Vec<u8> = verts.iter().flat_map(|v| v.to_le_bytes()).collect();
    c.buffer_data(
        enums::ARRAY_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        enums::STATIC_DRAW,
    );
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    c.enable_vertex_attrib_array(0);
    c.vertex_attrib_pointer(0, 2, enums::FLOAT, false, 8, 0);
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(enums::COLOR_BUFFER_BIT);
    c.draw_arrays(enums::TRIANGLES, 0, 3);
    c.read_pixels(0, 0, W as i32, H as i32, enums::RGBA, enums::UNSIGNED_BYTE)
}

/// Runs `f` on a new thread with a 64 KiB stack and returns its result.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(f)
        .expect("thread")
        .join()
        .expect("the small-stack thread panicked")
}

#[test]
fn gl_calls_work_on_a_64_kib_stack() {
    for threads in [1, 2] {
        let px = on_small_stack(move || {
            let mut c = Context::with_threads(W, H, threads);
            // A constant of its own per thread count: fresh code, not the shader cache's.
            let fs = format!(
                "#version 330\nuniform vec4 tint;\nout vec4 o;\n\
                 void main() {{ o = tint * vec4(0.5, 1.0, 0.0, 1.0) + vec4(0.0, 0.0, 0.{threads}, 0.0); }}\n"
            );
            let p = program(&mut c, &fs).unwrap();
            let loc = c.get_uniform_location(p, "tint");
            c.use_program(p);
            c.uniform_4f(loc, 1.0, 0.5, 0.0, 1.0);
            let px = draw(&mut c, p);
            assert_eq!(c.get_error(), enums::NO_ERROR);
            c.delete_program(p);
            px
        });
        let b = (0.1 * threads as f32 * 255.0).round() as u8;
        for p in px.chunks(4) {
            assert_eq!(p, [128, 128, b, 255], "{threads} threads");
        }
    }
}

#[test]
fn the_nesting_limits_compile_on_a_64_kib_stack() {
    // llvmpipe compiles 1,000 nested parentheses on a 128 KiB stack.
    let parens = |n: usize| {
        format!(
            "#version 330\nout vec4 o;\nvoid main() {{ float x = 0.5; o = vec4({}x{}); }}\n",
            "(".repeat(n),
            ")".repeat(n)
        )
    };
    let blocks = |n: usize| {
        format!(
            "#version 330\nout vec4 o;\nvoid main() {{ float x = 0.25; {} x += 0.25; {} o = vec4(x); }}\n",
            "{".repeat(n),
            "}".repeat(n)
        )
    };
    let e = softgl::glsl::limits::MAX_EXPRESSION_NESTING as usize;
    let s = softgl::glsl::limits::MAX_STATEMENT_NESTING as usize;
    let (deep, too_deep, nested, too_nested) = on_small_stack(move || {
        let mut c = Context::with_threads(W, H, 1);
        let p = program(&mut c, &parens(1_000)).unwrap();
        let px = draw(&mut c, p);
        let too_deep = program(&mut c, &parens(e)).unwrap_err();
        let q = program(&mut c, &blocks(s - 1)).unwrap();
        let nested = draw(&mut c, q);
        let too_nested = program(&mut c, &blocks(s)).unwrap_err();
        (px, too_deep, nested, too_nested)
    });
    assert!(deep.chunks(4).all(|p| p == [128, 128, 128, 128]));
    assert!(too_deep.contains("expression nesting limit"), "{too_deep}");
    assert!(nested.chunks(4).all(|p| p == [128, 128, 128, 128]));
    assert!(
        too_nested.contains("statement nesting limit"),
        "{too_nested}"
    );
}
