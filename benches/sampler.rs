//! Sampler bench: a 1024×1024 fill sampling a mipmapped 512×512 texture with
//! GL_LINEAR_MIPMAP_LINEAR at a minification between levels (lambda ≈ 1.3), so every
//! fragment does two bilinear lookups and a blend: RGBA8 (the llvmpipe comparison's
//! `trilinear_1024`) and SRGB8_ALPHA8 (the same integer filter after a table decode).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use softgl::{enums, Context};

mod common;

const VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\nout vec2 uv;\n\
                  void main() { gl_Position = vec4(pos, 0.0, 1.0); uv = (pos * 0.5 + 0.5) * 5.0; }\n";
const FS: &str = "#version 330\nuniform sampler2D tex;\nin vec2 uv;\nout vec4 c;\n\
                  void main() { c = texture(tex, uv); }\n";

fn trilinear_fill(c: &mut Criterion) {
    let mut g = c.benchmark_group("sampler");
    for (name, internal) in [
        ("trilinear_fill_1024", enums::RGBA8),
        ("trilinear_fill_1024_srgb", enums::SRGB8_ALPHA8),
    ] {
        bench_format(&mut g, name, internal);
    }
    g.finish();
}

fn bench_format(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    internal: u32,
) {
    const SIZE: i32 = 1024;
    let mut ctx = Context::new(SIZE as u32, SIZE as u32);
    let p = common::program(&mut ctx, VS, FS);

    // uv spans 5 repeats over 1024 pixels: 512 * 5 / 1024 = 2.5 texels per pixel, lambda 1.32.
    let tex = ctx.gen_textures(1)[0];
    ctx.bind_texture(enums::TEXTURE_2D, tex);
    let mut texels = Vec::with_capacity(512 * 512 * 4);
    for y in 0..512u32 {
        for x in 0..512u32 {
            texels.extend_from_slice(&[(x ^ y) as u8, (x * 2) as u8, (y * 3) as u8, 255]);
        }
    }
    ctx.tex_image_2d(
        enums::TEXTURE_2D,
        0,
        internal as i32,
        512,
        512,
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
    let loc = ctx.get_uniform_location(p, "tex");
    ctx.uniform_1i(loc, 0);

    let vao = ctx.gen_vertex_arrays(1)[0];
    ctx.bind_vertex_array(vao);
    common::float_attribute(&mut ctx, 0, 2, &[-1.0, -1.0, 3.0, -1.0, -1.0, 3.0]);
    assert_eq!(ctx.get_error(), enums::NO_ERROR);

    g.throughput(Throughput::Elements((SIZE * SIZE) as u64));
    g.sample_size(20);
    g.bench_function(name, |b| {
        b.iter(|| {
            ctx.draw_arrays(enums::TRIANGLES, 0, 3);
            ctx.finish();
        })
    });
}

criterion_group!(benches, trilinear_fill);
criterion_main!(benches);
