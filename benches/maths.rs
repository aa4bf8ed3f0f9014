//! Maths built-ins bench: a 256×256 full-screen quad whose fragment shader runs 8
//! iterations of sin, cos, exp2, log2, pow, atan, floor and fract on a vec4 (every
//! built-in `jit::vmath` inlines). One iteration is one frame, finished with glFinish.
//! Beside it, `alu_sincos_480x270`: `benches/llvmpipe/workloads.c`'s `alu_sincos_1080p`
//! shader (64 iterations of vec4 sin/cos and a multiply-add) on a sixteenth of its pixels,
//! so one sample stays well under a second; per-pixel throughput compares directly.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use softgl::{enums, Context};

mod common;

const VS: &str = "#version 330\nlayout(location = 0) in vec3 pos;\n\
                  void main() { gl_Position = vec4(pos, 1.0); }\n";
const FS: &str = "#version 330\nout vec4 c;\nvoid main() {\n\
                  vec4 v = gl_FragCoord.xyxy * vec4(0.01, 0.01, 0.003, 0.003);\n\
                  for (int i = 0; i < 8; i++) {\n\
                  v = sin(v) * 0.5 + cos(v.wzyx) * 0.25 + exp2(-abs(v)) * 0.125;\n\
                  v += log2(abs(v) + 1.0) * 0.0625 + pow(abs(v), vec4(1.5)) * 0.03;\n\
                  v = atan(v) + fract(v * 3.0) * 0.1 - floor(v) * 0.01;\n\
                  }\n\
                  c = v;\n}\n";

fn maths_fragment_256(c: &mut Criterion) {
    const N: i32 = 256;
    let mut ctx = Context::new(N as u32, N as u32);
    let _p = common::program(&mut ctx, VS, FS);
    let vao = ctx.gen_vertex_arrays(1)[0];
    ctx.bind_vertex_array(vao);
    common::float_attribute(
        &mut ctx,
        0,
        3,
        &[-1.0, -1.0, 0.0, 3.0, -1.0, 0.0, -1.0, 3.0, 0.0],
    );
    assert_eq!(ctx.get_error(), enums::NO_ERROR);
    let mut g = c.benchmark_group("maths");
    g.throughput(Throughput::Elements((N * N) as u64));
    g.sample_size(10);
    g.bench_function("fragment_builtins_256", |b| {
        b.iter(|| {
            ctx.draw_arrays(enums::TRIANGLES, 0, 3);
            ctx.finish();
        })
    });
    g.finish();
}

const ALU_VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\nout vec2 uv;\n\
                      void main() { gl_Position = vec4(pos, 0.0, 1.0); uv = pos * 0.5 + 0.5; }\n";
const ALU_FS: &str = "#version 330\nin vec2 uv;\nout vec4 c;\nvoid main() {\n\
                      vec4 v = vec4(uv, uv.yx * 0.5);\n\
                      for (int i = 0; i < 64; i++)\n\
                      v = sin(v) * 0.75 + cos(v.wzyx) * 0.25;\n\
                      c = v * 0.5 + 0.5;\n}\n";

/// The llvmpipe comparison's sin/cos loop, same shaders, 480×270 instead of 1920×1080.
fn alu_sincos(c: &mut Criterion) {
    const W: i32 = 480;
    const H: i32 = 270;
    let mut ctx = Context::new(W as u32, H as u32);
    let _p = common::program(&mut ctx, ALU_VS, ALU_FS);
    let vao = ctx.gen_vertex_arrays(1)[0];
    ctx.bind_vertex_array(vao);
    common::float_attribute(&mut ctx, 0, 2, &[-1.0, -1.0, 3.0, -1.0, -1.0, 3.0]);
    assert_eq!(ctx.get_error(), enums::NO_ERROR);
    let mut g = c.benchmark_group("maths");
    g.throughput(Throughput::Elements((W * H) as u64));
    g.sample_size(10);
    g.measurement_time(std::time::Duration::from_secs(3));
    g.bench_function("alu_sincos_480x270", |b| {
        b.iter(|| {
            ctx.draw_arrays(enums::TRIANGLES, 0, 3);
            ctx.finish();
        })
    });
    g.finish();
}

criterion_group!(benches, maths_fragment_256, alu_sincos);
criterion_main!(benches);
