//! The built-in demo scene of `softgl` with no arguments: 256 quads in perspective,
//! overlapping in depth, each sampling its own mipmapped texture through a bindless handle
//! read from a std140 uniform block (an array of `sampler2D` handles indexed by the instance
//! id, passed to the fragment shader as a flat varying). It exercises the whole pipeline:
//! GLSL with ARB_bindless_texture, the JIT, instancing, depth test, trilinear filtering and
//! the descriptor table. Timing is the median of several frames, the first (which compiles
//! the shader variants) reported apart.

use std::time::{Duration, Instant};

use softgl::{enums, Context};

/// Quads per side of the grid: 16 × 16 = 256 quads, one texture each.
pub const GRID: u32 = 16;
/// Texture size (a full mip chain below it).
pub const TEXTURE_SIZE: i32 = 64;

const VERTEX_SHADER: &str = r#"#version 330
layout(location = 0) in vec2 corner;
uniform mat4 projection;
uniform mat4 view;
flat out int instance;
out vec2 uv;

void main()
{
	int col = gl_InstanceID % 16;
	int row = gl_InstanceID / 16;
	// Quads 1.0 wide on a 0.6 pitch overlap their neighbours; five depth steps make the
	// overlaps resolve differently across the grid.
	float z = -7.0 - float((col * 7 + row * 3) % 5) * 0.7;
	vec3 center = vec3((float(col) - 7.5) * 0.6, (float(row) - 7.5) * 0.6, z);
	vec3 p = center + vec3(corner - 0.5, 0.0);
	gl_Position = projection * view * vec4(p, 1.0);
	instance = gl_InstanceID;
	uv = corner * 2.0;
}
"#;

const FRAGMENT_SHADER: &str = r#"#version 330
#extension GL_ARB_bindless_texture : require
// std140: each array element of a 64-bit sampler handle takes a 16-byte slot.
layout(std140) uniform Textures {
	sampler2D textures[256];
};
flat in int instance;
in vec2 uv;
out vec4 color;

void main()
{
	color = texture(textures[instance], uv);
}
"#;

/// How to render the demo.
#[derive(Copy, Clone, Debug)]
pub struct DemoOptions {
    pub width: u32,
    pub height: u32,
    /// Rasterizer threads; `None`: the context's default.
    pub threads: Option<usize>,
    /// Frames to render (at least 1).
    pub frames: usize,
}

impl Default for DemoOptions {
    fn default() -> Self {
        DemoOptions {
            width: 1024,
            height: 768,
            threads: None,
            frames: 5,
        }
    }
}

/// What a demo run produced.
#[derive(Clone, Debug)]
pub struct DemoReport {
    pub quads: u32,
    pub textures: u32,
    /// The last frame, RGBA8, bottom-up rows.
    pub pixels: Vec<u8>,
    /// Every frame's time, the first included.
    pub frame_times: Vec<Duration>,
    /// The first frame (shader variants compile there).
    pub first_frame: Duration,
    /// Median of the frames after the first (the first if there is only one).
    pub median_frame: Duration,
}

/// Why the demo could not render.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    #[error("the {stage} shader did not compile: {log}")]
    Compile { stage: &'static str, log: String },
    #[error("the program did not link: {log}")]
    Link { log: String },
    #[error("GL error 0x{code:04X} during {step}")]
    Gl { code: u32, step: &'static str },
    #[error("glGetTextureHandleARB returned 0 for texture {texture}")]
    NoHandle { texture: u32 },
}

fn check(ctx: &mut Context, step: &'static str) -> Result<(), DemoError> {
    match ctx.get_error() {
        enums::NO_ERROR => Ok(()),
        code => Err(DemoError::Gl { code, step }),
    }
}

/// The two colours of texture `i`'s checkerboard: spread over the colour cube by
/// multiplying with primes, so neighbours differ.
fn texture_colors(i: u32) -> ([u8; 4], [u8; 4]) {
    let c = |k: u32| ((i * k + 40) % 216 + 40) as u8;
    let a = [c(37), c(91), c(53), 255];
    let b = [255 - a[0] / 2, 255 - a[1] / 2, 255 - a[2] / 2, 255];
    (a, b)
}

/// Texture `i`'s level 0: a checkerboard of 8×8-texel squares with a one-texel dark border,
/// so minification and mip selection show.
pub fn texture_texels(i: u32, size: i32) -> Vec<u8> {
    let (a, b) = texture_colors(i);
    let mut out = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let border = x == 0 || y == 0 || x == size - 1 || y == size - 1;
            let texel = if border {
                [16, 16, 16, 255]
            } else if ((x / 8) ^ (y / 8)) & 1 == 0 {
                a
            } else {
                b
            };
            out.extend_from_slice(&texel);
        }
    }
    out
}

/// A perspective projection (column-major), 60° vertical field of view: f = 1/tan(30°) =
/// √3, written out so no host trigonometry is involved.
fn projection(aspect: f32, near: f32, far: f32) -> [f32; 16] {
    let f = 1.732_050_8_f32;
    [
        f / aspect,
        0.0,
        0.0,
        0.0,
        0.0,
        f,
        0.0,
        0.0,
        0.0,
        0.0,
        (far + near) / (near - far),
        -1.0,
        0.0,
        0.0,
        2.0 * far * near / (near - far),
        0.0,
    ]
}

/// The camera: tilted 20° about x (cos 20° = 0.9396926, sin 20° = 0.3420201), then moved
/// by (0, -3.4, -2) so the tilted grid spans NDC y -0.96..0.92; column-major.
fn view() -> [f32; 16] {
    let (c, s) = (0.939_692_6_f32, 0.342_020_1_f32);
    [
        1.0, 0.0, 0.0, 0.0, 0.0, c, s, 0.0, 0.0, -s, c, 0.0, 0.0, -3.4, -2.0, 1.0,
    ]
}

fn compile(ctx: &mut Context, stage: u32, src: &str) -> Result<u32, DemoError> {
    let shader = ctx.create_shader(stage);
    ctx.shader_source(shader, &[src]);
    ctx.compile_shader(shader);
    if ctx.get_shaderiv(shader, enums::COMPILE_STATUS) == 0 {
        let stage = if stage == enums::VERTEX_SHADER {
            "vertex"
        } else {
            "fragment"
        };
        return Err(DemoError::Compile {
            stage,
            log: ctx.get_shader_info_log(shader),
        });
    }
    Ok(shader)
}

/// Renders the demo and returns the last frame with the timings.
pub fn render(opts: &DemoOptions) -> Result<DemoReport, DemoError> {
    let mut ctx = match opts.threads {
        Some(n) => Context::with_threads(opts.width, opts.height, n),
        None => Context::new(opts.width, opts.height),
    };
    let ctx = &mut ctx;

    let vs = compile(ctx, enums::VERTEX_SHADER, VERTEX_SHADER)?;
    let fs = compile(ctx, enums::FRAGMENT_SHADER, FRAGMENT_SHADER)?;
    let program = ctx.create_program();
    ctx.attach_shader(program, vs);
    ctx.attach_shader(program, fs);
    ctx.link_program(program);
    if ctx.get_programiv(program, enums::LINK_STATUS) == 0 {
        return Err(DemoError::Link {
            log: ctx.get_program_info_log(program),
        });
    }
    ctx.use_program(program);
    let aspect = opts.width as f32 / opts.height.max(1) as f32;
    let proj_loc = ctx.get_uniform_location(program, "projection");
    ctx.uniform_matrix_4fv(proj_loc, false, &projection(aspect, 0.5, 50.0));
    let view_loc = ctx.get_uniform_location(program, "view");
    ctx.uniform_matrix_4fv(view_loc, false, &view());
    check(ctx, "program setup")?;

    // One unit quad, two CCW triangles, instanced GRID² times.
    let corners: [f32; 12] = [0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0];
    let bytes: Vec<u8> = corners.iter().flat_map(|v| v.to_le_bytes()).collect();
    let vao = ctx.gen_vertex_arrays(1).first().copied().unwrap_or(0);
    ctx.bind_vertex_array(vao);
    let vbo = ctx.gen_buffers(1).first().copied().unwrap_or(0);
    ctx.bind_buffer(enums::ARRAY_BUFFER, vbo);
    ctx.buffer_data(
        enums::ARRAY_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        enums::STATIC_DRAW,
    );
    ctx.enable_vertex_attrib_array(0);
    ctx.vertex_attrib_pointer(0, 2, enums::FLOAT, false, 8, 0);
    check(ctx, "vertex setup")?;

    // One mipmapped texture per quad; its handle in a 16-byte std140 slot.
    let quads = GRID * GRID;
    let textures = ctx.gen_textures(quads as i32);
    let mut block = vec![0u8; quads as usize * 16];
    for (i, &tex) in textures.iter().enumerate() {
        ctx.bind_texture(enums::TEXTURE_2D, tex);
        let texels = texture_texels(i as u32, TEXTURE_SIZE);
        ctx.tex_image_2d(
            enums::TEXTURE_2D,
            0,
            enums::RGBA8 as i32,
            TEXTURE_SIZE,
            TEXTURE_SIZE,
            0,
            enums::RGBA,
            enums::UNSIGNED_BYTE,
            Some(&texels),
        );
        ctx.generate_mipmap(enums::TEXTURE_2D);
        ctx.tex_parameter_i(
            enums::TEXTURE_2D,
            enums::TEXTURE_MIN_FILTER,
            enums::LINEAR_MIPMAP_LINEAR as i32,
        );
        ctx.tex_parameter_i(
            enums::TEXTURE_2D,
            enums::TEXTURE_MAG_FILTER,
            enums::LINEAR as i32,
        );
        let handle = ctx.get_texture_handle_arb(tex);
        if handle == 0 {
            return Err(DemoError::NoHandle { texture: tex });
        }
        ctx.make_texture_handle_resident_arb(handle);
        block[i * 16..i * 16 + 8].copy_from_slice(&handle.to_le_bytes());
    }
    let ubo = ctx.gen_buffers(1).first().copied().unwrap_or(0);
    ctx.bind_buffer(enums::UNIFORM_BUFFER, ubo);
    ctx.buffer_data(
        enums::UNIFORM_BUFFER,
        block.len() as isize,
        Some(&block),
        enums::STATIC_DRAW,
    );
    ctx.bind_buffer_base(enums::UNIFORM_BUFFER, 0, ubo);
    // GLSL 3.30 has no layout(binding): bind the block by name (GL 4.5 core §7.6.2).
    let block = ctx.get_uniform_block_index(program, "Textures");
    ctx.uniform_block_binding(program, block, 0);
    check(ctx, "texture setup")?;

    ctx.enable(enums::DEPTH_TEST);
    ctx.depth_func(enums::LESS);
    ctx.clear_color(0.08, 0.09, 0.12, 1.0);
    let mut frame_times = Vec::new();
    for _ in 0..opts.frames.max(1) {
        let start = Instant::now();
        ctx.clear(enums::COLOR_BUFFER_BIT | enums::DEPTH_BUFFER_BIT);
        ctx.draw_arrays_instanced(enums::TRIANGLES, 0, 6, quads as i32);
        ctx.finish();
        frame_times.push(start.elapsed());
    }
    check(ctx, "drawing")?;
    let pixels = ctx.read_pixels(
        0,
        0,
        opts.width as i32,
        opts.height as i32,
        enums::RGBA,
        enums::UNSIGNED_BYTE,
    );
    check(ctx, "read back")?;
    let first_frame = frame_times[0];
    Ok(DemoReport {
        quads,
        textures: textures.len() as u32,
        pixels,
        median_frame: median(&frame_times),
        frame_times,
        first_frame,
    })
}

/// Median of the frames after the first (which pays for compilation); the first alone
/// when there is nothing else.
pub fn median(times: &[Duration]) -> Duration {
    let mut rest: Vec<Duration> = times.iter().skip(1).copied().collect();
    if rest.is_empty() {
        return times.first().copied().unwrap_or_default();
    }
    rest.sort();
    rest[rest.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_skips_the_first_frame() {
        let ms = Duration::from_millis;
        assert_eq!(median(&[ms(100), ms(3), ms(1), ms(2)]), ms(2));
        assert_eq!(median(&[ms(7)]), ms(7));
        assert_eq!(median(&[]), Duration::ZERO);
    }

    #[test]
    fn textures_differ_and_have_borders() {
        let t0 = texture_texels(0, 16);
        let t1 = texture_texels(1, 16);
        assert_eq!(t0.len(), 16 * 16 * 4);
        assert_ne!(t0, t1);
        assert_eq!(&t0[0..4], &[16, 16, 16, 255]);
        let inner = (16 + 1) * 4;
        assert_eq!(&t0[inner..inner + 4], &texture_colors(0).0);
    }

    /// The demo renders, and the middle of the screen is covered by some quad's texture
    /// (not the clear colour).
    #[test]
    fn demo_renders() {
        let opts = DemoOptions {
            width: 128,
            height: 96,
            threads: Some(2),
            frames: 2,
        };
        let report = render(&opts).unwrap();
        assert_eq!(report.pixels.len(), 128 * 96 * 4);
        assert_eq!(report.frame_times.len(), 2);
        let mid = ((48 * 128 + 64) * 4) as usize;
        let clear = [20u8, 23, 31];
        let px = &report.pixels[mid..mid + 3];
        assert!(
            px.iter().zip(clear).any(|(&a, b)| a.abs_diff(b) > 2),
            "centre pixel {px:?} is the clear colour"
        );
    }
}
