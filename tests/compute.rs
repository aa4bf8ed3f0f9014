//! Compute shaders through the Rust `Context` (GL 4.5 core chapter 19, GLSL 4.60 §4.3.8,
//! §7.1.3, §8.16): exact results of prefix sums and reductions with `barrier()` inside
//! loops, atomics on `shared` variables and buffers, the compute built-ins, texture reads,
//! uniforms and uniform blocks, glDispatchComputeIndirect, a draw that reads what a
//! dispatch wrote, the limits and the program query, and the errors the spec names. Each
//! dispatch runs on 1 and 2 workers, which must agree.

mod common;

use softgl::{enums as gl, Context};

fn shader(c: &mut Context, kind: u32, src: &str) -> (u32, bool, String) {
    let s = c.create_shader(kind);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    let ok = c.get_shaderiv(s, gl::COMPILE_STATUS) == 1;
    (s, ok, c.get_shader_info_log(s))
}

/// A linked compute program, current; panics with the info log on failure.
fn compute(c: &mut Context, src: &str) -> u32 {
    let (s, ok, log) = shader(c, gl::COMPUTE_SHADER, src);
    assert!(ok, "{log}");
    let p = c.create_program();
    c.attach_shader(p, s);
    c.link_program(p);
    assert_eq!(
        c.get_programiv(p, gl::LINK_STATUS),
        1,
        "{}",
        c.get_program_info_log(p)
    );
    c.use_program(p);
    p
}

/// The link status and log of a program of these shaders.
fn link(c: &mut Context, shaders: &[(u32, &str)]) -> (bool, String) {
    let p = c.create_program();
    for (kind, src) in shaders {
        let (s, ok, log) = shader(c, *kind, src);
        assert!(ok, "{log}");
        c.attach_shader(p, s);
    }
    c.link_program(p);
    (
        c.get_programiv(p, gl::LINK_STATUS) == 1,
        c.get_program_info_log(p),
    )
}

fn ssbo(c: &mut Context, index: u32, words: &[u32]) -> u32 {
    let b = c.gen_buffers(1)[0];
    c.bind_buffer(gl::SHADER_STORAGE_BUFFER, b);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    c.buffer_data(
        gl::SHADER_STORAGE_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        gl::DYNAMIC_DRAW,
    );
    c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, index, b);
    b
}

fn words_of(c: &mut Context, b: u32) -> Vec<u32> {
    c.bind_buffer(gl::SHADER_STORAGE_BUFFER, b);
    let n = c.get_buffer_parameteriv(gl::SHADER_STORAGE_BUFFER, gl::BUFFER_SIZE);
    c.get_buffer_sub_data(gl::SHADER_STORAGE_BUFFER, 0, n as isize)
        .chunks(4)
        .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
        .collect()
}

/// Runs `src` over `groups` with buffer binding 0 holding `input`, on 1 and 2 workers;
/// returns the buffer afterwards (the same for both).
fn run(src: &str, groups: [u32; 3], input: &[u32]) -> Vec<u32> {
    let mut results = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(4, 4, threads);
        compute(&mut c, src);
        let b = ssbo(&mut c, 0, input);
        c.dispatch_compute(groups[0], groups[1], groups[2]);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        c.memory_barrier(gl::SHADER_STORAGE_BARRIER_BIT);
        results.push(words_of(&mut c, b));
    }
    assert_eq!(results[0], results[1], "1 and 2 workers agree");
    results.pop().unwrap_or_default()
}

/// Inclusive prefix sums per work group of 64 (Hillis–Steele, two shared arrays, a barrier
/// inside a loop whose bound is uniform), and the group's total by a tree reduction (the
/// `for (s = n/2; s > 0; s >>= 1) { if (lid < s) ...; barrier(); }` pattern).
#[test]
fn prefix_sums_and_reduction_with_barriers_in_loops() {
    let src = "#version 430
        layout(local_size_x = 64) in;
        layout(std430, binding = 0) buffer Data { uint v[256]; uint scan[256]; uint total[4]; };
        shared uint a[64];
        shared uint b[64];
        void main() {
            uint lid = gl_LocalInvocationID.x;
            uint gid = gl_GlobalInvocationID.x;
            a[lid] = v[gid];
            barrier();
            for (uint off = 1u; off < gl_WorkGroupSize.x; off *= 2u) {
                uint x = a[lid];
                if (lid >= off) x += a[lid - off];
                barrier();
                a[lid] = x;
                barrier();
            }
            scan[gid] = a[lid];
            b[lid] = v[gid];
            barrier();
            for (uint s = 32u; s > 0u; s >>= 1) {
                if (lid < s) b[lid] += b[lid + s];
                barrier();
            }
            if (lid == 0u) total[gl_WorkGroupID.x] = b[0];
        }";
    let input: Vec<u32> = (0..256u32).map(|i| (i * 7 + 3) % 31).collect();
    let mut buf = input.clone();
    buf.resize(256 + 256 + 4, 0);
    let out = run(src, [4, 1, 1], &buf);
    for g in 0..4 {
        let mut acc = 0;
        for l in 0..64 {
            acc += input[g * 64 + l];
            assert_eq!(out[256 + g * 64 + l], acc, "scan of group {g}, lane {l}");
        }
        assert_eq!(out[512 + g], acc, "total of group {g}");
    }
}

/// atomicAdd on a shared counter and a buffer counter, atomicMin/Max/Or on buffer words,
/// a histogram with atomicAdd on indexed words; invocation 0 of each group publishes the
/// shared count after a barrier.
#[test]
fn atomics_on_shared_variables_and_buffers() {
    let src = "#version 430
        layout(local_size_x = 8, local_size_y = 4) in;
        layout(std430, binding = 0) buffer Counters {
            uint total; uint minv; uint maxv; uint bits; uint groups[6]; uint hist[8];
        };
        shared uint count;
        void main() {
            if (gl_LocalInvocationIndex == 0u) count = 0u;
            barrier();
            atomicAdd(count, 1u);
            uint g = gl_GlobalInvocationID.y * 16u + gl_GlobalInvocationID.x;
            atomicAdd(total, 1u);
            atomicMin(minv, g + 5u);
            atomicMax(maxv, g);
            atomicOr(bits, 1u << (g % 32u));
            atomicAdd(hist[g % 8u], 1u);
            barrier();
            if (gl_LocalInvocationIndex == 0u)
                groups[gl_WorkGroupID.y * 2u + gl_WorkGroupID.x] = count;
        }";
    let mut buf = vec![0u32; 18];
    buf[1] = u32::MAX;
    let out = run(src, [2, 3, 1], &buf);
    assert_eq!(out[0], 192, "2×3 groups of 32");
    assert_eq!(out[1], 5);
    assert_eq!(out[2], 16 * 12 - 1);
    assert_eq!(out[3], u32::MAX);
    assert_eq!(
        &out[4..10],
        &[32; 6],
        "each group counted its 32 invocations"
    );
    assert_eq!(&out[10..18], &[24; 8]);
}

/// Every compute built-in for a work group whose size is not a multiple of 4 (the last
/// chunk has dead lanes), over a 3D grid of groups.
#[test]
fn built_ins_over_a_3d_grid() {
    let src = "#version 430
        layout(local_size_x = 3, local_size_y = 3, local_size_z = 1) in;
        layout(std430, binding = 0) buffer Out { uvec4 rec[]; };
        void main() {
            uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;
            uvec3 g = gl_GlobalInvocationID;
            uint i = (g.z * n.y + g.y) * n.x + g.x;
            rec[i * 3u] = uvec4(g, gl_LocalInvocationIndex);
            rec[i * 3u + 1u] = uvec4(gl_LocalInvocationID, 77u);
            rec[i * 3u + 2u] = uvec4(gl_WorkGroupID, gl_NumWorkGroups.x * 100u + gl_NumWorkGroups.y * 10u + gl_NumWorkGroups.z);
        }";
    let groups = [2u32, 1, 3];
    let n = [6u32, 3, 3];
    let out = run(src, groups, &vec![0; 54 * 12]);
    for z in 0..n[2] {
        for y in 0..n[1] {
            for x in 0..n[0] {
                let i = ((z * n[1] + y) * n[0] + x) as usize;
                let l = [x % 3, y % 3, 0];
                let g = [x / 3, y / 3, z];
                let r = &out[i * 12..i * 12 + 12];
                assert_eq!(&r[0..4], &[x, y, z, l[1] * 3 + l[0]], "invocation {i}");
                assert_eq!(&r[4..8], &[l[0], l[1], l[2], 77]);
                assert_eq!(&r[8..12], &[g[0], g[1], g[2], 213]);
            }
        }
    }
}

/// `return` before a barrier for invocations past the data (a common guard), a plan-level
/// `break` out of a loop holding a barrier, and a function holding a barrier.
#[test]
fn early_return_uniform_break_and_barrier_in_a_function() {
    let src = "#version 430
        layout(local_size_x = 16) in;
        layout(std430, binding = 0) buffer Data { uint n; uint out_[32]; uint steps[2]; };
        shared uint s[16];
        void sync_add(uint lid, uint k) {
            s[lid] += k;
            barrier();
        }
        void main() {
            uint lid = gl_LocalInvocationID.x;
            s[lid] = lid;
            barrier();
            uint k = 0u;
            while (true) {
                k++;
                sync_add(lid, k);
                if (s[0] >= 10u) break;
            }
            if (lid == 0u) steps[gl_WorkGroupID.x] = k;
            if (gl_GlobalInvocationID.x >= n) return;
            out_[gl_GlobalInvocationID.x] = s[lid] * 100u + s[(lid + 1u) % 16u];
        }";
    let mut buf = vec![0u32; 35];
    buf[0] = 20;
    let out = run(src, [2, 1, 1], &buf);
    // s[0] after k steps is 1 + 2 + ... + k: 10 after k = 4.
    assert_eq!(&out[33..35], &[4, 4]);
    for i in 0..32u32 {
        let lid = i % 16;
        let want = if i < 20 {
            (lid + 10) * 100 + ((lid + 1) % 16 + 10)
        } else {
            0
        };
        assert_eq!(out[1 + i as usize], want, "invocation {i}");
    }
}

/// texelFetch and textureLod from a texture unit, a uniform, a uniform block, and a local
/// array indexed dynamically; the dispatch sees the texture as the earlier upload left it.
#[test]
fn textures_uniforms_and_blocks() {
    let src = "#version 430
        layout(local_size_x = 4, local_size_y = 4) in;
        layout(std430, binding = 0) buffer Out { vec4 px[16]; vec4 scaled[16]; uint misc[16]; };
        layout(std140, binding = 1) uniform Params { vec4 scale; };
        uniform sampler2D tex;
        uniform uint bias;
        void main() {
            ivec2 p = ivec2(gl_LocalInvocationID.xy);
            uint i = gl_LocalInvocationIndex;
            vec4 a = texelFetch(tex, p, 0);
            vec4 b = textureLod(tex, (vec2(p) + 0.5) / 4.0, 0.0);
            px[i] = a;
            scaled[i] = b * scale;
            uint t[4] = uint[4](1u, 2u, 3u, 4u);
            misc[i] = t[i % 4u] + bias;
        }";
    let texels: Vec<u8> = (0..16u8)
        .flat_map(|i| [i * 16, 255 - i * 16, i, 255])
        .collect();
    let mut results = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(4, 4, threads);
        let p = compute(&mut c, src);
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, t);
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8 as i32,
            4,
            4,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&texels),
        );
        c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
        c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32);
        let l = c.get_uniform_location(p, "tex");
        c.uniform_1i(l, 0);
        let l = c.get_uniform_location(p, "bias");
        c.uniform_1ui(l, 10);
        let ubo = c.gen_buffers(1)[0];
        c.bind_buffer(gl::UNIFORM_BUFFER, ubo);
        let scale: Vec<u8> = [2.0f32, 1.0, 0.0, 1.0]
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        c.buffer_data(gl::UNIFORM_BUFFER, 16, Some(&scale), gl::STATIC_DRAW);
        c.bind_buffer_base(gl::UNIFORM_BUFFER, 1, ubo);
        let b = ssbo(&mut c, 0, &[0; 144]);
        c.dispatch_compute(1, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let w = words_of(&mut c, b);
        let f = |k: usize| f32::from_bits(w[k]);
        for i in 0..16usize {
            let tx = &texels[i * 4..i * 4 + 4];
            let a: Vec<f32> = (0..4).map(|k| f(i * 4 + k)).collect();
            let bytes: Vec<u8> = a.iter().map(|x| (x * 255.0).round() as u8).collect();
            assert_eq!(bytes, tx, "texelFetch of texel {i}");
            let want = [a[0] * 2.0, a[1], 0.0, a[3]];
            let got: Vec<f32> = (0..4).map(|k| f(64 + i * 4 + k)).collect();
            assert_eq!(got, want, "textureLod of texel {i} times the block's scale");
            assert_eq!(w[128 + i], (i as u32 % 4) + 1 + 10);
        }
        results.push(w);
    }
    assert_eq!(results[0], results[1]);
}

/// glDispatchComputeIndirect reads its counts from the GL_DISPATCH_INDIRECT_BUFFER; a draw
/// after the dispatch reads what it wrote.
#[test]
fn indirect_dispatch_and_a_draw_that_reads_its_writes() {
    let src = "#version 430
        layout(local_size_x = 4, local_size_y = 4) in;
        layout(std430, binding = 0) buffer Img { uint texel[]; };
        void main() {
            uvec2 g = gl_GlobalInvocationID.xy;
            texel[g.y * 8u + g.x] = g.x * 30u + g.y;
        }";
    let vs = "#version 430
        void main() {
            int id = gl_VertexID;
            gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.5, 1.0);
        }";
    let fs = "#version 430
        layout(std430, binding = 0) readonly buffer Img { uint texel[]; };
        out vec4 color;
        void main() {
            uvec2 p = uvec2(gl_FragCoord.xy);
            color = vec4(float(texel[p.y * 8u + p.x]) / 255.0, 0.0, 0.0, 1.0);
        }";
    for threads in [1, 2] {
        let mut c = common::context(8, 8, threads);
        compute(&mut c, src);
        let b = ssbo(&mut c, 0, &[0; 64]);
        let ind = c.gen_buffers(1)[0];
        c.bind_buffer(gl::DISPATCH_INDIRECT_BUFFER, ind);
        let cmd: Vec<u8> = [9u32, 2, 2, 1]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        c.buffer_data(
            gl::DISPATCH_INDIRECT_BUFFER,
            16,
            Some(&cmd),
            gl::STATIC_DRAW,
        );
        assert_eq!(
            c.get_integerv(gl::DISPATCH_INDIRECT_BUFFER_BINDING),
            vec![ind as i32]
        );
        c.dispatch_compute_indirect(4);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let draw = common::program(&mut c, vs, fs);
        c.use_program(draw);
        c.memory_barrier(gl::SHADER_STORAGE_BARRIER_BIT);
        c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
        let px = c.read_pixels(0, 0, 8, 8, gl::RGBA, gl::UNSIGNED_BYTE);
        for y in 0..8usize {
            for x in 0..8usize {
                assert_eq!(px[(y * 8 + x) * 4], (x * 30 + y) as u8, "pixel {x},{y}");
            }
        }
        assert_eq!(words_of(&mut c, b)[7 * 8 + 5], 5 * 30 + 7);
        assert_eq!(c.get_error(), gl::NO_ERROR);
    }
}

/// GL_COMPUTE_WORK_GROUP_SIZE, the MAX_COMPUTE_* limits (llvmpipe's), indexed limits.
#[test]
fn limits_and_program_query() {
    let mut c = common::context(4, 4, 1);
    let p = compute(
        &mut c,
        "#version 430\nlayout(local_size_x = 5, local_size_y = 2, local_size_z = 3) in;\nvoid main() {}",
    );
    assert_eq!(c.compute_work_group_size(p), [5, 2, 3]);
    assert_eq!(c.get_programiv(p, gl::COMPUTE_WORK_GROUP_SIZE), 5);
    assert_eq!(
        c.get_integerv(gl::MAX_COMPUTE_WORK_GROUP_INVOCATIONS),
        vec![1024]
    );
    assert_eq!(
        c.get_integerv(gl::MAX_COMPUTE_SHARED_MEMORY_SIZE),
        vec![32768]
    );
    // Compute shaders read and write storage blocks: the per-stage limit, not the 0 of the
    // stages that have none.
    assert_eq!(
        c.get_integerv(gl::MAX_COMPUTE_SHADER_STORAGE_BLOCKS),
        c.get_integerv(gl::MAX_FRAGMENT_SHADER_STORAGE_BLOCKS)
    );
    assert!(c.get_integerv(gl::MAX_COMPUTE_SHADER_STORAGE_BLOCKS)[0] >= 8);
    for k in 0..3 {
        assert_eq!(
            c.get_integeri_v(gl::MAX_COMPUTE_WORK_GROUP_SIZE, k),
            vec![1024]
        );
        assert_eq!(
            c.get_integeri_v(gl::MAX_COMPUTE_WORK_GROUP_COUNT, k),
            vec![65535]
        );
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.get_integeri_v(gl::MAX_COMPUTE_WORK_GROUP_SIZE, 3);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    // A program without a compute shader has no work group size.
    let draw = common::program(
        &mut c,
        "#version 430\nvoid main() { gl_Position = vec4(0.0); }",
        "#version 430\nout vec4 o;\nvoid main() { o = vec4(1.0); }",
    );
    c.compute_work_group_size(draw);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}

/// The errors: dispatch without a compute program, counts past the limit, indirect
/// offsets and buffers, drawing with a compute program; compile errors for misplaced
/// compute language and link errors for sizes and stage mixes.
#[test]
fn errors() {
    let mut c = common::context(4, 4, 1);
    c.dispatch_compute(1, 1, 1);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "no program");
    let draw = common::program(
        &mut c,
        "#version 430\nvoid main() { gl_Position = vec4(0.0); }",
        "#version 430\nout vec4 o;\nvoid main() { o = vec4(1.0); }",
    );
    c.use_program(draw);
    c.dispatch_compute(1, 1, 1);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "no compute shader");

    compute(
        &mut c,
        "#version 430\nlayout(local_size_x = 1) in;\nvoid main() {}",
    );
    c.dispatch_compute(65536, 1, 1);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "count past the limit");
    c.dispatch_compute(0, 5, 1);
    assert_eq!(c.get_error(), gl::NO_ERROR, "no work is no error");
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(
        c.get_error(),
        gl::INVALID_OPERATION,
        "draw with a compute program"
    );

    c.dispatch_compute_indirect(0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "no indirect buffer");
    let ind = c.gen_buffers(1)[0];
    c.bind_buffer(gl::DISPATCH_INDIRECT_BUFFER, ind);
    c.buffer_data(
        gl::DISPATCH_INDIRECT_BUFFER,
        16,
        Some(&[0; 16]),
        gl::STATIC_DRAW,
    );
    c.dispatch_compute_indirect(2);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "unaligned");
    c.dispatch_compute_indirect(-4);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "negative");
    c.dispatch_compute_indirect(8);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "past the end");
    c.dispatch_compute_indirect(4);
    assert_eq!(c.get_error(), gl::NO_ERROR);

    for (kind, src, what) in [
        (
            gl::FRAGMENT_SHADER,
            "#version 430\nlayout(local_size_x = 4) in;\nout vec4 o;\nvoid main() { o = vec4(1.0); }",
            "local size in a fragment shader",
        ),
        (
            gl::FRAGMENT_SHADER,
            "#version 430\nout vec4 o;\nvoid main() { barrier(); o = vec4(1.0); }",
            "barrier in a fragment shader",
        ),
        (
            gl::VERTEX_SHADER,
            "#version 430\nshared float s;\nvoid main() { gl_Position = vec4(s); }",
            "shared in a vertex shader",
        ),
        (
            gl::COMPUTE_SHADER,
            "#version 420\nlayout(local_size_x = 4) in;\nvoid main() {}",
            "compute before GLSL 4.30",
        ),
        (
            gl::COMPUTE_SHADER,
            "#version 430\nlayout(local_size_x = 2000) in;\nvoid main() {}",
            "local size past the limit",
        ),
        (
            gl::COMPUTE_SHADER,
            "#version 430\nlayout(local_size_x = 4) in;\nlayout(local_size_x = 8) in;\nvoid main() {}",
            "two different local sizes",
        ),
        (
            gl::COMPUTE_SHADER,
            "#version 430\nlayout(local_size_x = 4) in;\nshared float s[9000];\nvoid main() {}",
            "shared memory past the limit",
        ),
        (
            gl::COMPUTE_SHADER,
            "#version 430\nlayout(local_size_x = 4) in;\nshared float s = 1.0;\nvoid main() {}",
            "initialized shared variable",
        ),
        (
            gl::COMPUTE_SHADER,
            "#version 430\nlayout(local_size_x = 4) in;\nin vec4 v;\nvoid main() {}",
            "an input in a compute shader",
        ),
        (
            gl::COMPUTE_SHADER,
            "#version 430\nlayout(local_size_x = 4) in;\nvoid main() { gl_Position = vec4(0.0); }",
            "a vertex built-in in a compute shader",
        ),
    ] {
        let (_, ok, log) = shader(&mut c, kind, src);
        assert!(!ok, "{what} compiled");
        assert!(log.contains("error"), "{what}: {log}");
    }

    let cs_ok = "#version 430\nlayout(local_size_x = 4) in;\nvoid main() {}";
    let (ok, log) = link(
        &mut c,
        &[
            (gl::COMPUTE_SHADER, cs_ok),
            (
                gl::VERTEX_SHADER,
                "#version 430\nvoid main() { gl_Position = vec4(0.0); }",
            ),
        ],
    );
    assert!(
        !ok && log.contains("compute"),
        "compute with a vertex shader: {log}"
    );
    let (ok, log) = link(
        &mut c,
        &[(gl::COMPUTE_SHADER, "#version 430\nvoid main() {}")],
    );
    assert!(!ok && log.contains("local size"), "no local size: {log}");
    // More invocations than GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS: a compile error, as
    // ARB_compute_shader and Mesa have it (piglit's work_group_size_too_large).
    let (_, ok, log) = shader(
        &mut c,
        gl::COMPUTE_SHADER,
        "#version 430\nlayout(local_size_x = 64, local_size_y = 32) in;\nvoid main() {}",
    );
    assert!(
        !ok && log.contains("INVOCATIONS"),
        "2048 invocations: {log}"
    );
}

/// Issue #11 item 3 across barriers: an invocation's loop budget (65,536 iterations by
/// default) counts its loops in every region between barriers and the loop around them,
/// so loops that add up past it end the invocation at the iteration the model gives, with
/// a KHR_debug message naming the program, the same with 1 and 2 workers.
#[test]
fn the_loop_budget_counts_loops_across_barriers() {
    let src = "#version 430
        layout(local_size_x = 4) in;
        layout(std430, binding = 0) buffer D { uint progress[4]; uint done[4]; };
        void main() {
            uint l = gl_LocalInvocationID.x;
            for (uint i = 0u; i < 1000u; i++) {
                uint j = 0u;
                while (j < 100u + l) j++;
                progress[l] = i + 1u;
                barrier();
            }
            done[l] = 1u;
        }";
    // Each iteration of the outer loop starts 1 + (100 + l + 1) iterations.
    let progress = |l: u32| 65536 / (102 + l);
    let mut results = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(4, 4, threads);
        let p = compute(&mut c, src);
        let b = ssbo(&mut c, 0, &[0; 8]);
        c.debug_messages();
        c.dispatch_compute(1, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let words = words_of(&mut c, b);
        let msgs: Vec<String> = c
            .debug_messages()
            .into_iter()
            .map(|m| m.message)
            .filter(|m| m.contains("loop budget"))
            .collect();
        assert_eq!(msgs.len(), 1, "{msgs:?} {words:?}");
        assert!(msgs[0].starts_with(&format!("program {p}: ")), "{msgs:?}");
        let want: Vec<u32> = (0..4).map(progress).chain([0; 4]).collect();
        assert_eq!(words, want);
        results.push(words);
    }
    assert_eq!(results[0], results[1]);
}
