//! Per-draw bench: `benches/llvmpipe/workloads.c`'s `draws_2000_ubo` in Rust. 2000 draws
//! per frame of a lit, textured cube (36 vertices), each with its own uniform block range
//! (model matrix and colour) bound with glBindBufferRange, on 1024×1024 with depth: the cost
//! of the API thread and the front end per draw. One iteration is one frame (clear, 2000
//! draws, glFinish).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use softgl::{enums, Context};

mod common;

const DRAWS: usize = 2000;

const VS: &str = "#version 330\nlayout(location = 0) in vec3 pos;\n\
                  layout(location = 1) in vec3 normal;\nlayout(location = 2) in vec2 uv_in;\n\
                  layout(std140) uniform Object { mat4 model; vec4 color; };\n\
                  out vec3 n;\nout vec2 uv;\nout vec4 tint;\n\
                  void main() {\n\tgl_Position = model * vec4(pos, 1.0);\n\
                  \tn = mat3(model) * normal;\n\tuv = uv_in;\n\ttint = color;\n}\n";
const FS: &str = "#version 330\nuniform sampler2D tex;\nin vec3 n;\nin vec2 uv;\nin vec4 tint;\n\
                  out vec4 c;\nvoid main() {\n\
                  \tfloat d = max(dot(normalize(n), normalize(vec3(0.3, 0.5, -0.8))), 0.0);\n\
                  \tc = texture(tex, uv) * tint * (0.2 + 0.8 * d);\n}\n";

/// The cube: per vertex position (3), normal (3), uv (2), as workloads.c builds it.
fn cube() -> Vec<f32> {
    const FACE: [[f32; 2]; 6] = [[0., 0.], [1., 0.], [1., 1.], [0., 0.], [1., 1.], [0., 1.]];
    let mut v = Vec::with_capacity(36 * 8);
    for f in 0..6 {
        let (axis, sign) = (f / 2, if f % 2 == 1 { 1.0f32 } else { -1.0 });
        for uv in FACE {
            let (mut a, mut b) = (uv[0] * 2.0 - 1.0, uv[1] * 2.0 - 1.0);
            if sign < 0.0 {
                std::mem::swap(&mut a, &mut b);
            }
            let (mut pos, mut n) = ([0f32; 3], [0f32; 3]);
            pos[axis] = sign;
            pos[(axis + 1) % 3] = a;
            pos[(axis + 2) % 3] = b;
            n[axis] = sign;
            v.extend(pos.iter().map(|p| p * 0.5));
            v.extend(n);
            v.extend(uv);
        }
    }
    v
}

/// One std140 `Object` block per draw, `align` bytes apart: a rotation about y (from the
/// rational parametrization of the circle, no libm), a uniform scale, a translation and a
/// colour from the same LCG as workloads.c.
fn blocks(align: usize) -> Vec<u8> {
    let mut state = 0x2545_f491_u32;
    let mut next = || {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (state >> 8) as f32 / (1u32 << 24) as f32
    };
    let mut out = vec![0u8; DRAWS * align];
    for (i, block) in out.chunks_exact_mut(align).enumerate() {
        let s = 0.04 + 0.03 * next();
        let t = next() * 2.0 - 1.0;
        let (c, sn) = ((1.0 - t * t) / (1.0 + t * t), 2.0 * t / (1.0 + t * t));
        let mut t3 = [next() * 1.8 - 0.9, next() * 1.8 - 0.9, next() * 0.8 - 0.4];
        if i == DRAWS - 1 {
            t3 = [-0.41, -0.41, -0.45]; // over the probed pixel (300, 300)
        }
        let colour = [next(), next(), next(), 1.0];
        // Column-major mat4 (rotation about y, uniform scale, translation), then the colour.
        let m: [[f32; 4]; 5] = [
            [c * s, 0.0, -sn * s, 0.0],
            [0.0, s, 0.0, 0.0],
            [sn * s, 0.0, c * s, 0.0],
            [t3[0], t3[1], t3[2], 1.0],
            colour,
        ];
        for (dst, v) in block.chunks_exact_mut(4).zip(m.into_iter().flatten()) {
            dst.copy_from_slice(&v.to_le_bytes());
        }
    }
    out
}

fn draws_2000_ubo(c: &mut Criterion) {
    let mut ctx = Context::new(1024, 1024);
    let p = common::program(&mut ctx, VS, FS);
    let vao = ctx.gen_vertex_arrays(1)[0];
    ctx.bind_vertex_array(vao);
    let vbo = ctx.gen_buffers(1)[0];
    ctx.bind_buffer(enums::ARRAY_BUFFER, vbo);
    let verts: Vec<u8> = cube().iter().flat_map(|v| v.to_le_bytes()).collect();
    ctx.buffer_data(
        enums::ARRAY_BUFFER,
        verts.len() as isize,
        Some(&verts),
        enums::STATIC_DRAW,
    );
    for (a, (size, off)) in [(3, 0), (3, 3), (2, 6)].into_iter().enumerate() {
        ctx.vertex_attrib_pointer(a as u32, size, enums::FLOAT, false, 32, off * 4);
        ctx.enable_vertex_attrib_array(a as u32);
    }
    let align = ctx.get_integerv(enums::UNIFORM_BUFFER_OFFSET_ALIGNMENT)[0] as usize;
    let align = align.max(1) * 80usize.div_ceil(align.max(1));
    let ubo = ctx.gen_buffers(1)[0];
    ctx.bind_buffer(enums::UNIFORM_BUFFER, ubo);
    let data = blocks(align);
    ctx.buffer_data(
        enums::UNIFORM_BUFFER,
        data.len() as isize,
        Some(&data),
        enums::STATIC_DRAW,
    );
    let texels: Vec<u8> = (0..64)
        .flat_map(|t| {
            let on = if ((t % 8) ^ (t / 8)) & 1 == 1 {
                255
            } else {
                96
            };
            [on, on, on, 255]
        })
        .collect();
    let tex = ctx.gen_textures(1)[0];
    ctx.bind_texture(enums::TEXTURE_2D, tex);
    ctx.tex_image_2d(
        enums::TEXTURE_2D,
        0,
        enums::RGBA8 as i32,
        8,
        8,
        0,
        enums::RGBA,
        enums::UNSIGNED_BYTE,
        Some(&texels),
    );
    for pname in [enums::TEXTURE_MIN_FILTER, enums::TEXTURE_MAG_FILTER] {
        ctx.tex_parameter_i(enums::TEXTURE_2D, pname, enums::LINEAR as i32);
    }
    let block = ctx.get_uniform_block_index(p, "Object");
    ctx.uniform_block_binding(p, block, 0);
    ctx.enable(enums::DEPTH_TEST);
    ctx.depth_func(enums::LESS);
    assert_eq!(ctx.get_error(), enums::NO_ERROR);

    let mut g = c.benchmark_group("draws");
    g.throughput(Throughput::Elements(DRAWS as u64));
    g.sample_size(10);
    g.measurement_time(std::time::Duration::from_secs(4));
    g.bench_function("draws_2000_ubo", |b| {
        b.iter(|| {
            ctx.clear(enums::COLOR_BUFFER_BIT | enums::DEPTH_BUFFER_BIT);
            for i in 0..DRAWS {
                ctx.bind_buffer_range(enums::UNIFORM_BUFFER, 0, ubo, (i * align) as isize, 80);
                ctx.draw_arrays(enums::TRIANGLES, 0, 36);
            }
            ctx.finish();
        })
    });
    g.finish();
}

criterion_group!(benches, draws_2000_ubo);
criterion_main!(benches);
