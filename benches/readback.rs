//! Readback bench: `benches/llvmpipe/workloads.c`'s `readback_1080p` in Rust, a
//! glReadPixels of a cleared 1920×1080 RGBA8 framebuffer as GL_RGBA / GL_UNSIGNED_BYTE
//! into the caller's buffer (`read_pixels_into`, as the C entry point does: no allocation).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use softgl::{enums, Context};

fn readback_1080p(c: &mut Criterion) {
    const W: i32 = 1920;
    const H: i32 = 1080;
    let mut ctx = Context::new(W as u32, H as u32);
    ctx.clear_color(0.2, 0.4, 0.6, 1.0);
    ctx.clear(enums::COLOR_BUFFER_BIT);
    let mut out = vec![0u8; (W * H * 4) as usize];
    ctx.read_pixels_into(0, 0, W, H, enums::RGBA, enums::UNSIGNED_BYTE, &mut out);
    assert_eq!(ctx.get_error(), enums::NO_ERROR);
    assert_eq!(&out[..4], &[51, 102, 153, 255]);
    let mut g = c.benchmark_group("readback");
    g.throughput(Throughput::Bytes(out.len() as u64));
    g.sample_size(20);
    g.measurement_time(std::time::Duration::from_secs(2));
    g.bench_function("readback_1080p_rgba8", |b| {
        b.iter(|| {
            ctx.read_pixels_into(0, 0, W, H, enums::RGBA, enums::UNSIGNED_BYTE, &mut out);
        })
    });
    g.finish();
}

criterion_group!(benches, readback_1080p);
criterion_main!(benches);
