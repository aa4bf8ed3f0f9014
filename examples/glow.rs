//! softgl from Rust through a third-party GL loader: makes a softgl context current
//! (`softgl::make_current`), loads `glow` with `softgl::get_proc_address`, compiles a
//! shader, draws a triangle, reads the pixels back and checks them. Exits non-zero when a
//! pixel is wrong. `cargo test --example glow` runs the same code as a test.

use std::sync::{Arc, Mutex};

use glow::HasContext;

const W: i32 = 32;
const H: i32 = 32;

const VS: &str = "#version 330\n\
    layout(location = 0) in vec2 pos;\n\
    void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
const FS: &str = "#version 330\n\
    uniform vec4 colour;\n\
    out vec4 c;\n\
    void main() { c = colour; }\n";

/// Draws a yellow triangle covering the lower-left half of a blue window and checks
/// pixels on both sides of the diagonal.
fn run() -> Result<(), String> {
    let ctx: softgl::SharedContext = Arc::new(Mutex::new(softgl::Context::new(W as u32, H as u32)));
    softgl::make_current(Some(ctx));
    // SAFETY: softgl's entry points have the registry's C signatures glow expects, and a
    // context is current on this thread for every call below.
    let gl = unsafe { glow::Context::from_loader_function(softgl::get_proc_address) };
    // SAFETY: as above; every buffer passed is a live local of the right size.
    let pixels = unsafe {
        let version = gl.version();
        println!(
            "GL_VERSION {}.{} ({}), GL_RENDERER {}",
            version.major,
            version.minor,
            version.vendor_info,
            gl.get_parameter_string(glow::RENDERER)
        );
        let program = gl.create_program()?;
        for (ty, src) in [(glow::VERTEX_SHADER, VS), (glow::FRAGMENT_SHADER, FS)] {
            let s = gl.create_shader(ty)?;
            gl.shader_source(s, src);
            gl.compile_shader(s);
            if !gl.get_shader_compile_status(s) {
                return Err(format!("compile: {}", gl.get_shader_info_log(s)));
            }
            gl.attach_shader(program, s);
        }
        gl.link_program(program);
        if !gl.get_program_link_status(program) {
            return Err(format!("link: {}", gl.get_program_info_log(program)));
        }
        gl.use_program(Some(program));
        let loc = gl.get_uniform_location(program, "colour");
        gl.uniform_4_f32(loc.as_ref(), 1.0, 1.0, 0.0, 1.0);

        let verts: [f32; 6] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0];
        let bytes: Vec<u8> = verts.iter().flat_map(|v| v.to_ne_bytes()).collect();
        let vao = gl.create_vertex_array()?;
        gl.bind_vertex_array(Some(vao));
        let vbo = gl.create_buffer()?;
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
        gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &bytes, glow::STATIC_DRAW);
        gl.enable_vertex_attrib_array(0);
        gl.vertex_attrib_pointer_f32(0, 2, glow::FLOAT, false, 8, 0);

        gl.clear_color(0.0, 0.0, 1.0, 1.0);
        gl.clear(glow::COLOR_BUFFER_BIT);
        gl.draw_arrays(glow::TRIANGLES, 0, 3);
        let mut pixels = vec![0u8; (W * H * 4) as usize];
        gl.read_pixels(
            0,
            0,
            W,
            H,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelPackData::Slice(Some(&mut pixels)),
        );
        let err = gl.get_error();
        if err != glow::NO_ERROR {
            return Err(format!("GL error {err:#x}"));
        }
        pixels
    };
    softgl::make_current(None);
    let at = |x: i32, y: i32| {
        let i = ((y * W + x) * 4) as usize;
        [pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]]
    };
    // Pixel centres (x + ½, y + ½) strictly inside (sum < W) or outside (sum > W) the
    // triangle; none on the diagonal itself, whose ownership is the fill rule's business.
    for (x, y, want) in [
        (1, 1, [255, 255, 0, 255]),
        (10, 12, [255, 255, 0, 255]),
        (W - 2, 0, [255, 255, 0, 255]),
        (W - 1, H - 1, [0, 0, 255, 255]),
        (20, 14, [0, 0, 255, 255]),
        (0, H - 2, [255, 255, 0, 255]),
        (1, H - 1, [0, 0, 255, 255]),
    ] {
        if at(x, y) != want {
            return Err(format!("pixel ({x}, {y}) is {:?}, want {want:?}", at(x, y)));
        }
    }
    Ok(())
}

fn main() {
    match run() {
        Ok(()) => println!("glow example: pixels ok"),
        Err(e) => {
            eprintln!("glow example failed: {e}");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn glow_draws_through_softgl() {
        super::run().unwrap();
    }
}
