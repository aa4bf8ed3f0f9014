//! Shader storage buffers through the Rust `Context` (GL 4.5 core §7.8, GLSL 4.60 §4.3.7):
//! vertex and fragment shaders that read and write buffer blocks, atomics counting
//! fragments, `length()` of a runtime-sized array against the bound range, robust access,
//! helper invocations and late depth tests, handles read from a storage buffer
//! (ARB_bindless_texture), binding points, limits, program interface queries and the
//! errors the spec names. Each draw runs on 1 and 2 workers, which must agree.

mod common;

use softgl::{enums as gl, Context};

const W: i32 = 16;
const H: i32 = 16;

/// A full-viewport triangle pair from gl_VertexID (`rect` in NDC).
const VS_RECT: &str = "#version 430
uniform vec4 rect;
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? rect.z : rect.x, (id & 2) == 2 ? rect.w : rect.y, 0.5, 1.0);
}";

fn ctx(threads: usize, vs: &str, fs: &str) -> (Context, u32) {
    let mut c = common::context(W as u32, H as u32, threads);
    let p = common::program(&mut c, vs, fs);
    c.use_program(p);
    (c, p)
}

fn rect(c: &mut Context, p: u32, r: [f32; 4]) {
    let l = c.get_uniform_location(p, "rect");
    c.uniform_4f(l, r[0], r[1], r[2], r[3]);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
}

/// A buffer of `words` bound to storage binding `index` (whole buffer).
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

const FULL: [f32; 4] = [-1.0, -1.0, 1.0, 1.0];

/// Each fragment writes its own word (disjoint addresses) and counts itself with
/// atomicAdd; a second draw reads the words back into colour. Same words and pixels on 1
/// and 2 workers.
#[test]
fn fragments_write_disjoint_words_and_count_with_atomics() {
    let fs = "#version 430
        layout(std430, binding = 2) buffer Pixels { uint count; uint maxv; uint px[]; };
        out vec4 color;
        void main() {
            uint i = uint(gl_FragCoord.y) * 16u + uint(gl_FragCoord.x);
            px[i] = i * 3u + 1u;
            atomicAdd(count, 1u);
            atomicMax(maxv, i);
            color = vec4(1.0);
        }";
    let read_fs = "#version 430
        layout(std430, binding = 2) readonly buffer Pixels { uint count; uint maxv; uint px[]; };
        out vec4 color;
        void main() {
            uint i = uint(gl_FragCoord.y) * 16u + uint(gl_FragCoord.x);
            color = vec4(float(px[i] % 256u) / 255.0, float(count % 256u) / 255.0, 0.0, 1.0);
        }";
    let mut results = Vec::new();
    for threads in [1, 2] {
        let (mut c, p) = ctx(threads, VS_RECT, fs);
        let b = ssbo(&mut c, 2, &[0; 2 + 256]);
        rect(&mut c, p, FULL);
        c.memory_barrier(gl::SHADER_STORAGE_BARRIER_BIT);
        let words = words_of(&mut c, b);
        assert_eq!(words[0], 256, "one atomicAdd per fragment");
        assert_eq!(words[1], 255);
        for i in 0..256u32 {
            assert_eq!(words[2 + i as usize], i * 3 + 1, "word {i}");
        }
        let p2 = common::program(&mut c, VS_RECT, read_fs);
        c.use_program(p2);
        rect(&mut c, p2, FULL);
        let px = c.read_pixels(0, 0, W, H, gl::RGBA, gl::UNSIGNED_BYTE);
        assert_eq!(
            &px[4 * 5..4 * 5 + 2],
            &[16, 0],
            "pixel 5: 5*3+1, count 256 % 256"
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        results.push((words, px));
    }
    assert_eq!(results[0], results[1], "1 and 2 workers agree");
}

/// A vertex shader writes per vertex and reads `length()` of a runtime-sized array bound
/// with glBindBufferRange; stores past the range are dropped, loads past it read 0.
#[test]
fn vertex_shader_length_and_robust_access() {
    let vs = "#version 430
        layout(std430, binding = 0) buffer Out { int len; int pad[3]; ivec2 items[]; };
        void main() {
            items[gl_VertexID] = ivec2(gl_VertexID, items[gl_VertexID + 100].x + 7);
            if (gl_VertexID == 0) len = items.length();
            gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
        }";
    let fs = "#version 430\nout vec4 c;\nvoid main() { c = vec4(1.0); }";
    for threads in [1, 2] {
        let (mut c, _) = ctx(threads, vs, fs);
        let b = ssbo(&mut c, 0, &[0xEE; 64]);
        // Bytes 16 .. 16 + 48: 4 words of header (len, pad) then 4 ivec2 items.
        c.bind_buffer_range(gl::SHADER_STORAGE_BUFFER, 0, b, 16, 48);
        c.draw_arrays(gl::POINTS, 0, 6);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let w = words_of(&mut c, b);
        assert_eq!(w[4] as i32, 4, "length() = (48 - 16) / 8");
        for v in 0..4 {
            assert_eq!([w[8 + 2 * v], w[9 + 2 * v]], [v as u32, 7], "item {v}");
        }
        // Vertices 4 and 5 fall past the range: nothing written there.
        assert!(w[16..].iter().all(|&x| x == 0xEE), "{:x?}", &w[16..]);
        assert!(w[..4].iter().all(|&x| x == 0xEE), "before the range");
    }
}

/// Helper lanes of partly covered quads never write, and a fragment shader that writes
/// storage runs before a depth test that rejects everything (its side effects happen)
/// unless it asks for early fragment tests.
#[test]
fn helpers_do_not_write_and_late_depth_keeps_side_effects() {
    let fs = |early: &str| {
        format!(
            "#version 430
        {early}
        layout(std430, binding = 0) buffer C {{ uint n; }};
        out vec4 color;
        void main() {{ atomicAdd(n, 1u); color = vec4(1.0); }}"
        )
    };
    for threads in [1, 2] {
        // A triangle: its edge quads have helper lanes; count = covered pixels.
        let (mut c, p) = ctx(threads, VS_RECT, &fs(""));
        let b = ssbo(&mut c, 0, &[0]);
        let l = c.get_uniform_location(p, "rect");
        c.uniform_4f(l, -1.0, -1.0, 1.0, 1.0);
        c.draw_arrays(gl::TRIANGLES, 0, 3);
        let px = c.read_pixels(0, 0, W, H, gl::RGBA, gl::UNSIGNED_BYTE);
        let covered = px.chunks(4).filter(|p| p[0] == 255).count() as u32;
        assert!(covered > 0 && covered < 256);
        assert_eq!(words_of(&mut c, b)[0], covered, "helpers wrote");

        // Depth test GL_NEVER with a depth buffer: late tests, so every fragment counts.
        c.enable(gl::DEPTH_TEST);
        c.depth_func(gl::NEVER);
        let b = ssbo(&mut c, 0, &[0]);
        rect(&mut c, p, FULL);
        assert_eq!(words_of(&mut c, b)[0], 256);

        let (mut c, p) = ctx(threads, VS_RECT, &fs("layout(early_fragment_tests) in;"));
        c.enable(gl::DEPTH_TEST);
        c.depth_func(gl::NEVER);
        let b = ssbo(&mut c, 0, &[0]);
        rect(&mut c, p, FULL);
        assert_eq!(
            words_of(&mut c, b)[0],
            0,
            "early tests reject before the shader"
        );
    }
}

/// Texture handles read from a storage buffer as uvec2 and turned into samplers
/// (ARB_bindless_texture): four quads, four textures, one draw.
#[test]
fn bindless_handles_from_a_storage_buffer() {
    let vs = "#version 430
        #extension GL_ARB_bindless_texture : require
        layout(std430, binding = 0) readonly buffer Handles { uvec2 handles[]; };
        flat out uvec2 handle;
        void main() {
            int q = gl_InstanceID, id = gl_VertexID;
            vec2 o = vec2(float(q & 1), float(q >> 1)) - 1.0;
            gl_Position = vec4(o + vec2(float(id & 1), float((id >> 1) & 1)), 0.0, 1.0);
            handle = handles[q];
        }";
    let fs = "#version 430
        #extension GL_ARB_bindless_texture : require
        flat in uvec2 handle;
        out vec4 color;
        void main() { color = texture(sampler2D(handle), vec2(0.5)); }";
    let mut images = Vec::new();
    for threads in [1, 2] {
        let (mut c, _) = ctx(threads, vs, fs);
        let mut handles = Vec::new();
        for k in 0..4u8 {
            let t = c.gen_textures(1)[0];
            c.bind_texture(gl::TEXTURE_2D, t);
            let texel = [k * 60, 255 - k * 60, 7, 255];
            c.tex_image_2d(
                gl::TEXTURE_2D,
                0,
                gl::RGBA8 as i32,
                1,
                1,
                0,
                gl::RGBA,
                gl::UNSIGNED_BYTE,
                Some(&texel),
            );
            c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
            let h = c.get_texture_handle_arb(t);
            c.make_texture_handle_resident_arb(h);
            handles.extend([h as u32, (h >> 32) as u32]);
        }
        ssbo(&mut c, 0, &handles);
        c.draw_arrays_instanced(gl::TRIANGLE_STRIP, 0, 4, 4);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let px = c.read_pixels(0, 0, W, H, gl::RGBA, gl::UNSIGNED_BYTE);
        let at = |x: i32, y: i32| &px[((y * W + x) * 4) as usize..((y * W + x) * 4 + 4) as usize];
        assert_eq!(at(2, 2), &[0, 255, 7, 255]);
        assert_eq!(at(12, 2), &[60, 195, 7, 255]);
        assert_eq!(at(2, 12), &[120, 135, 7, 255]);
        assert_eq!(at(12, 12), &[180, 75, 7, 255]);
        images.push(px);
    }
    assert_eq!(images[0], images[1]);
}

/// Binding points, limits, block bindings and the errors of §6.1.1, §7.8 and §7.13.2.
#[test]
fn bindings_limits_and_errors() {
    let fs = "#version 430
        layout(std430, binding = 3) buffer A { vec4 a; float rest[]; };
        layout(std140) buffer B { mat2 m; vec3 v[2]; } b[2];
        out vec4 color;
        void main() { color = a + vec4(rest[1], b[1].m[1], b[0].v[1].x); }";
    let (mut c, p) = ctx(1, VS_RECT, fs);
    assert!(c.get_integerv(gl::MAX_SHADER_STORAGE_BUFFER_BINDINGS)[0] >= 8);
    assert!(c.get_integerv(gl::MAX_FRAGMENT_SHADER_STORAGE_BLOCKS)[0] >= 8);
    assert!(c.get_integerv(gl::MAX_SHADER_STORAGE_BLOCK_SIZE)[0] >= 1 << 24);
    let align = c.get_integerv(gl::SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT)[0];
    assert!(align > 0 && align <= 256);

    // Program interface: three blocks (A, B[0], B[1]), their bindings and members.
    let n = c.get_program_interfaceiv(p, gl::SHADER_STORAGE_BLOCK, gl::ACTIVE_RESOURCES)[0];
    assert_eq!(n, 3);
    let a = c.get_program_resource_index(p, gl::SHADER_STORAGE_BLOCK, "A");
    let b1 = c.get_program_resource_index(p, gl::SHADER_STORAGE_BLOCK, "B[1]");
    assert_ne!(a, gl::INVALID_INDEX);
    assert_ne!(b1, gl::INVALID_INDEX);
    let v = c.get_program_resourceiv(
        p,
        gl::SHADER_STORAGE_BLOCK,
        a,
        &[
            gl::BUFFER_BINDING,
            gl::BUFFER_DATA_SIZE,
            gl::NUM_ACTIVE_VARIABLES,
        ],
    );
    assert_eq!(
        v,
        [3, 32, 2],
        "binding 3; vec4 + one float, padded to 16; a and rest[0]"
    );
    let rest = c.get_program_resource_index(p, gl::BUFFER_VARIABLE, "rest");
    let v = c.get_program_resourceiv(
        p,
        gl::BUFFER_VARIABLE,
        rest,
        &[
            gl::OFFSET,
            gl::ARRAY_SIZE,
            gl::ARRAY_STRIDE,
            gl::BLOCK_INDEX,
        ],
    );
    assert_eq!(v, [16, 0, 4, a as i32], "std430 runtime array");
    let v_var = c.get_program_resource_index(p, gl::BUFFER_VARIABLE, "B.v");
    let v = c.get_program_resourceiv(
        p,
        gl::BUFFER_VARIABLE,
        v_var,
        &[gl::OFFSET, gl::ARRAY_STRIDE, gl::TYPE],
    );
    assert_eq!(v, [32, 16, gl::FLOAT_VEC3 as i32], "std140 after a mat2");
    let m_var = c.get_program_resource_index(p, gl::BUFFER_VARIABLE, "B.m");
    let v = c.get_program_resourceiv(p, gl::BUFFER_VARIABLE, m_var, &[gl::MATRIX_STRIDE]);
    assert_eq!(v, [16]);

    c.shader_storage_block_binding(p, b1, 7);
    let v = c.get_program_resourceiv(p, gl::SHADER_STORAGE_BLOCK, b1, &[gl::BUFFER_BINDING]);
    assert_eq!(v, [7]);
    assert_eq!(c.get_error(), gl::NO_ERROR);

    // Errors.
    c.shader_storage_block_binding(p, b1, 1000);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.shader_storage_block_binding(p, 99, 1);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    let buf = c.gen_buffers(1)[0];
    c.bind_buffer(gl::SHADER_STORAGE_BUFFER, buf);
    c.buffer_data(gl::SHADER_STORAGE_BUFFER, 256, None, gl::STATIC_DRAW);
    c.bind_buffer_range(gl::SHADER_STORAGE_BUFFER, 0, buf, 4, 16);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "misaligned offset");
    c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 1000, buf);
    assert_eq!(c.get_error(), gl::INVALID_VALUE, "index past the limit");
    c.memory_barrier(0x8000_0000);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.memory_barrier_by_region(gl::VERTEX_ATTRIB_ARRAY_BARRIER_BIT);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.memory_barrier(gl::ALL_BARRIER_BITS);
    c.memory_barrier_by_region(gl::SHADER_STORAGE_BARRIER_BIT);
    assert_eq!(c.get_error(), gl::NO_ERROR);

    // Indexed queries.
    c.bind_buffer_range(gl::SHADER_STORAGE_BUFFER, 5, buf, 32, 64);
    assert_eq!(
        c.get_integeri_v(gl::SHADER_STORAGE_BUFFER_BINDING, 5),
        [buf as i32]
    );
    assert_eq!(c.get_integeri_v(gl::SHADER_STORAGE_BUFFER_START, 5), [32]);
    assert_eq!(c.get_integeri_v(gl::SHADER_STORAGE_BUFFER_SIZE, 5), [64]);
    assert_eq!(
        c.get_integerv(gl::SHADER_STORAGE_BUFFER_BINDING),
        [buf as i32]
    );

    // A draw with storage blocks whose binding points are empty: no error, the blocks
    // read 0 (colour = 0 everywhere).
    rect(&mut c, p, FULL);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let px = c.read_pixels(0, 0, W, H, gl::RGBA, gl::UNSIGNED_BYTE);
    assert!(px.iter().all(|&x| x == 0));
    // A buffer mapped without GL_MAP_PERSISTENT_BIT cannot back a block during a draw.
    let mapped = c.gen_buffers(1)[0];
    c.bind_buffer(gl::SHADER_STORAGE_BUFFER, mapped);
    c.buffer_data(gl::SHADER_STORAGE_BUFFER, 64, None, gl::STATIC_DRAW);
    c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 3, mapped);
    let _ = c.map_buffer_range(gl::SHADER_STORAGE_BUFFER, 0, 64, gl::MAP_READ_BIT);
    rect(&mut c, p, FULL);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    assert!(c.unmap_buffer(gl::SHADER_STORAGE_BUFFER));
    // Deleting the buffer unbinds it from the indexed points.
    c.delete_buffers(&[buf]);
    assert_eq!(c.get_integeri_v(gl::SHADER_STORAGE_BUFFER_BINDING, 5), [0]);
}
