//! Rasterizer benches: a 1080p alpha-blended full-screen fill, and 200k small depth-tested
//! triangles (the case where llvmpipe's single-threaded front end stops scaling,
//! DESIGN.md §5). Each iteration is one frame, finished with glFinish.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use softgl::{enums, Context};

mod common;

const VS: &str = "#version 330\nlayout(location = 0) in vec3 pos;\n\
                  void main() { gl_Position = vec4(pos, 1.0); }\n";
const FS: &str = "#version 330\nuniform vec4 color;\nout vec4 c;\nvoid main() { c = color; }\n";

fn upload(ctx: &mut Context, verts: &[f32]) {
    let vao = ctx.gen_vertex_arrays(1)[0];
    ctx.bind_vertex_array(vao);
    common::float_attribute(ctx, 0, 3, verts);
}

fn blended_fill_1080p(c: &mut Criterion) {
    let mut ctx = Context::new(1920, 1080);
    let p = common::program(&mut ctx, VS, FS);
    let loc = ctx.get_uniform_location(p, "color");
    ctx.uniform_4f(loc, 0.8, 0.4, 0.2, 0.5);
    upload(&mut ctx, &[-1.0, -1.0, 0.0, 3.0, -1.0, 0.0, -1.0, 3.0, 0.0]);
    ctx.enable(enums::BLEND);
    ctx.blend_func(enums::SRC_ALPHA, enums::ONE_MINUS_SRC_ALPHA);
    assert_eq!(ctx.get_error(), enums::NO_ERROR);
    let mut g = c.benchmark_group("raster");
    g.throughput(Throughput::Elements(1920 * 1080));
    g.sample_size(20);
    g.bench_function("fill_1080p_blended", |b| {
        b.iter(|| {
            ctx.draw_arrays(enums::TRIANGLES, 0, 3);
            ctx.finish();
        })
    });
    g.finish();
}

/// 200k triangles of about 8 pixels each, scattered over a 1024×1024 window at pseudo-random
/// depths (a fixed LCG, so every run draws the same scene).
fn small_triangles_200k(c: &mut Criterion) {
    const TRIS: usize = 200_000;
    let mut ctx = Context::new(1024, 1024);
    let p = common::program(&mut ctx, VS, FS);
    let loc = ctx.get_uniform_location(p, "color");
    ctx.uniform_4f(loc, 0.2, 0.6, 0.9, 1.0);
    let mut state = 0x2545_f491_u32;
    let mut next = || {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (state >> 8) as f32 / (1u32 << 24) as f32
    };
    let step = 4.0 / 1024.0 * 2.0; // 4 pixels in NDC
    let mut verts = Vec::with_capacity(TRIS * 9);
    for _ in 0..TRIS {
        let (x, y, z) = (next() * 2.0 - 1.0, next() * 2.0 - 1.0, next() * 2.0 - 1.0);
        verts.extend_from_slice(&[x, y, z, x + step, y, z, x, y + step, z]);
    }
    upload(&mut ctx, &verts);
    ctx.enable(enums::DEPTH_TEST);
    ctx.depth_func(enums::LESS);
    assert_eq!(ctx.get_error(), enums::NO_ERROR);
    let mut g = c.benchmark_group("raster");
    g.throughput(Throughput::Elements(TRIS as u64));
    g.sample_size(10);
    g.bench_function("small_triangles_200k_depth", |b| {
        b.iter(|| {
            ctx.clear(enums::COLOR_BUFFER_BIT | enums::DEPTH_BUFFER_BIT);
            ctx.draw_arrays(enums::TRIANGLES, 0, (TRIS * 3) as i32);
            ctx.finish();
        })
    });
    g.finish();
}

criterion_group!(benches, blended_fill_1080p, small_triangles_200k);
criterion_main!(benches);
