//! Bound vs bindless: a 64×64 grid of 4096 quads in a 1024×1024 window, drawn with one
//! instanced draw. `bindless_4096_textures`: each quad samples its own 16×16 texture through
//! a handle passed as a per-instance `uvec2` attribute (glVertexAttribDivisor 1) and turned
//! into a sampler with `sampler2D(uvec2)`. `bound_1_texture`: the same draw sampling one
//! bound texture, the baseline the descriptor table's cost is measured against.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use softgl::{enums, Context};

mod common;

const GRID: i32 = 64;
const QUADS: i32 = GRID * GRID;
const TEX: i32 = 16;

const VS: &str = r#"#version 330
layout(location = 0) in vec2 corner;
layout(location = 1) in uvec2 handle;
flat out uvec2 v_handle;
out vec2 uv;
void main()
{
	vec2 cell = vec2(float(gl_InstanceID % 64), float(gl_InstanceID / 64));
	gl_Position = vec4((cell + corner) / 32.0 - 1.0, 0.0, 1.0);
	uv = corner;
	v_handle = handle;
}
"#;

const FS_BINDLESS: &str = r#"#version 330
#extension GL_ARB_bindless_texture : require
flat in uvec2 v_handle;
in vec2 uv;
out vec4 c;
void main()
{
	c = texture(sampler2D(v_handle), uv);
}
"#;

const FS_BOUND: &str = r#"#version 330
uniform sampler2D tex;
flat in uvec2 v_handle;
in vec2 uv;
out vec4 c;
void main()
{
	c = texture(tex, uv) + vec4(float(v_handle.x & 0u));
}
"#;

fn setup(fs: &str) -> (Context, Vec<u32>) {
    let mut ctx = Context::new(1024, 1024);
    common::program(&mut ctx, VS, fs);

    let textures = ctx.gen_textures(QUADS);
    for (i, &tex) in textures.iter().enumerate() {
        ctx.bind_texture(enums::TEXTURE_2D, tex);
        let texel = [(i * 37) as u8, (i * 91) as u8, (i * 53) as u8, 255];
        let texels = texel.repeat((TEX * TEX) as usize);
        ctx.tex_image_2d(
            enums::TEXTURE_2D,
            0,
            enums::RGBA8 as i32,
            TEX,
            TEX,
            0,
            enums::RGBA,
            enums::UNSIGNED_BYTE,
            Some(&texels),
        );
        ctx.tex_parameter_i(
            enums::TEXTURE_2D,
            enums::TEXTURE_MIN_FILTER,
            enums::LINEAR as i32,
        );
        ctx.tex_parameter_i(
            enums::TEXTURE_2D,
            enums::TEXTURE_MAG_FILTER,
            enums::LINEAR as i32,
        );
    }
    // Leave texture 0 bound to unit 0 for the bound variant.
    ctx.bind_texture(enums::TEXTURE_2D, textures[0]);

    let vao = ctx.gen_vertex_arrays(1)[0];
    ctx.bind_vertex_array(vao);
    let bufs = ctx.gen_buffers(2);
    let corners: [f32; 12] = [0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0];
    let bytes: Vec<u8> = corners.iter().flat_map(|v| v.to_le_bytes()).collect();
    ctx.bind_buffer(enums::ARRAY_BUFFER, bufs[0]);
    ctx.buffer_data(
        enums::ARRAY_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        enums::STATIC_DRAW,
    );
    ctx.enable_vertex_attrib_array(0);
    ctx.vertex_attrib_pointer(0, 2, enums::FLOAT, false, 8, 0);
    assert_eq!(ctx.get_error(), enums::NO_ERROR);
    (ctx, textures)
}

/// Per-instance handle words (low, high), zeros for the bound variant.
fn handle_attribute(ctx: &mut Context, handles: &[u64]) {
    let bytes: Vec<u8> = handles.iter().flat_map(|h| h.to_le_bytes()).collect();
    let buf = ctx.gen_buffers(1)[0];
    ctx.bind_buffer(enums::ARRAY_BUFFER, buf);
    ctx.buffer_data(
        enums::ARRAY_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        enums::STATIC_DRAW,
    );
    ctx.enable_vertex_attrib_array(1);
    ctx.vertex_attrib_i_pointer(1, 2, enums::UNSIGNED_INT, 8, 0);
    ctx.vertex_attrib_divisor(1, 1);
    assert_eq!(ctx.get_error(), enums::NO_ERROR);
}

fn bound_vs_bindless(c: &mut Criterion) {
    let mut g = c.benchmark_group("bindless");
    g.throughput(Throughput::Elements(QUADS as u64));
    g.sample_size(20);

    let (mut ctx, textures) = setup(FS_BINDLESS);
    let handles: Vec<u64> = textures
        .iter()
        .map(|&t| {
            let h = ctx.get_texture_handle_arb(t);
            ctx.make_texture_handle_resident_arb(h);
            h
        })
        .collect();
    handle_attribute(&mut ctx, &handles);
    g.bench_function("bindless_4096_textures", |b| {
        b.iter(|| {
            ctx.clear(enums::COLOR_BUFFER_BIT);
            ctx.draw_arrays_instanced(enums::TRIANGLES, 0, 6, QUADS);
            ctx.finish();
        })
    });

    let (mut ctx, _textures) = setup(FS_BOUND);
    handle_attribute(&mut ctx, &vec![0; QUADS as usize]);
    g.bench_function("bound_1_texture", |b| {
        b.iter(|| {
            ctx.clear(enums::COLOR_BUFFER_BIT);
            ctx.draw_arrays_instanced(enums::TRIANGLES, 0, 6, QUADS);
            ctx.finish();
        })
    });
    g.finish();
}

criterion_group!(benches, bound_vs_bindless);
criterion_main!(benches);
