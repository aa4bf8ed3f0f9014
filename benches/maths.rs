//! Maths built-ins bench: a 256×256 full-screen quad whose fragment shader runs 8
//! iterations of sin, cos, exp2, log2, pow, atan, floor and fract on a vec4 (every
//! built-in `jit::vmath` inlines). One iteration is one frame, finished with glFinish.
//! `benches/llvmpipe/workloads.c`'s `alu_sincos_1080p` is the bigger sin/cos-only version.

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

criterion_group!(benches, maths_fragment_256);
criterion_main!(benches);
