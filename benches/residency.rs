//! Residency at scale (issue #11 item 4): a draw right after a residency change, with 2^20
//! resident handles and with 10. The resident set is a persistent B-tree
//! (`sampler/resident.rs`): a draw's snapshot is one pointer and a change copies one
//! root-to-leaf path, so the two should cost the same (before: 6–9.5 ms per draw at 2^20
//! with whole-set copies, then 38 vs 17 µs with a flat list of 1,024-handle chunks).
//!
//! The 2^20 handles are texture/sampler pairs (1,024 textures × 1,024 samplers) so that
//! the bench needs one small texture per 1,024 handles, not 2^20 textures.

use criterion::{criterion_group, criterion_main, Criterion};
use softgl::{enums, Context};

mod common;

const VS: &str = r#"#version 330
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"#;

const FS: &str = r#"#version 330
#extension GL_ARB_bindless_texture : require
layout(bindless_sampler) uniform sampler2D tex;
out vec4 c;
void main() { c = texture(tex, vec2(0.5)); }
"#;

/// A 16×16 context drawing one small triangle that samples through a bindless handle,
/// with `resident` handles made resident; returns it and one resident handle to toggle.
fn setup(resident: usize) -> (Context, u64) {
    let mut ctx = Context::new(16, 16);
    let prog = common::program(&mut ctx, VS, FS);
    let per_texture = resident.min(1024);
    let textures = ctx.gen_textures(resident.div_ceil(per_texture) as i32);
    let samplers = ctx.gen_samplers(per_texture as i32);
    let mut handles = Vec::with_capacity(resident);
    for &t in &textures {
        ctx.bind_texture(enums::TEXTURE_2D, t);
        ctx.tex_image_2d(
            enums::TEXTURE_2D,
            0,
            enums::RGBA8 as i32,
            1,
            1,
            0,
            enums::RGBA,
            enums::UNSIGNED_BYTE,
            Some(&[255, 128, 0, 255]),
        );
        ctx.tex_parameter_i(
            enums::TEXTURE_2D,
            enums::TEXTURE_MIN_FILTER,
            enums::NEAREST as i32,
        );
        for &s in &samplers {
            if handles.len() == resident {
                break;
            }
            let h = ctx.get_texture_sampler_handle_arb(t, s);
            ctx.make_texture_handle_resident_arb(h);
            handles.push(h);
        }
    }
    let loc = ctx.get_uniform_location(prog, "tex");
    ctx.uniform_handle_ui64_arb(loc, handles[0]);

    let vao = ctx.gen_vertex_arrays(1)[0];
    ctx.bind_vertex_array(vao);
    let buf = ctx.gen_buffers(1)[0];
    let corners: [f32; 6] = [-1.0, -1.0, -0.5, -1.0, -1.0, -0.5];
    let bytes: Vec<u8> = corners.iter().flat_map(|v| v.to_le_bytes()).collect();
    ctx.bind_buffer(enums::ARRAY_BUFFER, buf);
    ctx.buffer_data(
        enums::ARRAY_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        enums::STATIC_DRAW,
    );
    ctx.enable_vertex_attrib_array(0);
    ctx.vertex_attrib_pointer(0, 2, enums::FLOAT, false, 8, 0);
    assert_eq!(ctx.get_error(), enums::NO_ERROR);
    (ctx, handles[handles.len() / 2])
}

fn draw_after_residency_change(c: &mut Criterion) {
    let mut g = c.benchmark_group("residency");
    g.sample_size(20);
    for (name, resident) in [
        ("draw_after_change_10", 10),
        ("draw_after_change_2^20", 1 << 20),
    ] {
        let (mut ctx, toggle) = setup(resident);
        g.bench_function(name, |b| {
            b.iter(|| {
                // A queued draw holds the resident set, so each change is copy-on-write.
                ctx.make_texture_handle_non_resident_arb(toggle);
                ctx.draw_arrays(enums::TRIANGLES, 0, 3);
                ctx.make_texture_handle_resident_arb(toggle);
                ctx.draw_arrays(enums::TRIANGLES, 0, 3);
                ctx.finish();
            })
        });
        assert_eq!(ctx.get_error(), enums::NO_ERROR);
    }
    g.finish();
}

criterion_group!(benches, draw_after_residency_change);
criterion_main!(benches);
