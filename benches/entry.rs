//! Per-call cost of the entry path (api/dispatch.rs): a GL call's fixed work (share-group
//! swap, panic containment, error recording) measured on calls that do almost nothing else,
//! through the Rust API and through the C entry points, and 1000 one-pixel draws (the
//! many-draws case, where the per-call path is a visible share of a frame).

use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use softgl::{enums, get_proc_address, make_current, Context};

mod common;

const VS: &str = "#version 330\nlayout(location = 0) in vec3 pos;\n\
                  void main() { gl_Position = vec4(pos, 1.0); }\n";
const FS: &str = "#version 330\nuniform vec4 color;\nout vec4 c;\nvoid main() { c = color; }\n";

const CALLS: u64 = 10_000;

fn setup(ctx: &mut Context) -> u32 {
    let vao = ctx.gen_vertex_arrays(1)[0];
    ctx.bind_vertex_array(vao);
    // One tiny triangle near the origin: about one pixel at 64×64.
    let verts = [0.0f32, 0.0, 0.0, 0.03, 0.0, 0.0, 0.0, 0.03, 0.0];
    common::float_attribute(ctx, 0, 3, &verts)
}

fn entry(c: &mut Criterion) {
    let mut ctx = Context::new(64, 64);
    let vbo = setup(&mut ctx);
    let p = common::program(&mut ctx, VS, FS);
    let loc = ctx.get_uniform_location(p, "color");
    assert_eq!(ctx.get_error(), enums::NO_ERROR);

    let mut g = c.benchmark_group("entry");
    g.throughput(Throughput::Elements(CALLS));
    g.bench_function("rust_bind_buffer_10k", |b| {
        b.iter(|| {
            for _ in 0..CALLS {
                ctx.bind_buffer(enums::ARRAY_BUFFER, vbo);
            }
        })
    });
    g.bench_function("rust_vertex_attrib_4f_10k", |b| {
        b.iter(|| {
            for i in 0..CALLS {
                ctx.vertex_attrib_4f(1, i as f32, 0.0, 0.0, 1.0);
            }
        })
    });
    g.throughput(Throughput::Elements(1000));
    g.sample_size(20);
    g.bench_function("rust_draws_1k", |b| {
        b.iter(|| {
            for i in 0..1000 {
                ctx.uniform_4f(loc, (i % 7) as f32 / 7.0, 0.5, 0.5, 1.0);
                ctx.draw_arrays(enums::TRIANGLES, 0, 3);
            }
            ctx.finish();
        })
    });
    g.finish();
    assert_eq!(ctx.get_error(), enums::NO_ERROR);

    let shared = Arc::new(Mutex::new(ctx));
    make_current(Some(shared.clone()));
    type BindBuffer = extern "system" fn(u32, u32);
    type Uniform4f = extern "system" fn(i32, f32, f32, f32, f32);
    type DrawArrays = extern "system" fn(u32, i32, i32);
    type Finish = extern "system" fn();
    let look = |name: &str| {
        let f = get_proc_address(name);
        assert!(!f.is_null(), "{name}");
        f
    };
    // SAFETY: each type is the registry's C signature of the named command.
    let (bind_buffer, uniform_4f, draw_arrays, finish) = unsafe {
        (
            std::mem::transmute::<*const c_void, BindBuffer>(look("glBindBuffer")),
            std::mem::transmute::<*const c_void, Uniform4f>(look("glUniform4f")),
            std::mem::transmute::<*const c_void, DrawArrays>(look("glDrawArrays")),
            std::mem::transmute::<*const c_void, Finish>(look("glFinish")),
        )
    };
    let mut g = c.benchmark_group("entry");
    g.throughput(Throughput::Elements(CALLS));
    g.bench_function("c_bind_buffer_10k", |b| {
        b.iter(|| {
            for _ in 0..CALLS {
                bind_buffer(enums::ARRAY_BUFFER, vbo);
            }
        })
    });
    g.throughput(Throughput::Elements(1000));
    g.sample_size(20);
    g.bench_function("c_draws_1k", |b| {
        b.iter(|| {
            for i in 0..1000 {
                uniform_4f(loc, (i % 7) as f32 / 7.0, 0.5, 0.5, 1.0);
                draw_arrays(enums::TRIANGLES, 0, 3);
            }
            finish();
        })
    });
    g.finish();
    make_current(None);
    assert_eq!(shared.lock().unwrap().get_error(), enums::NO_ERROR);
}

criterion_group!(benches, entry);
criterion_main!(benches);
