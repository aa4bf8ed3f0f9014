//! Atomic counters through the Rust `Context` (GL 4.5 core §7.7, GLSL 4.60 §4.4.6.2, §8.10,
//! GL_ARB_shader_atomic_counters and _ops): counters that count fragments, vertices and
//! compute invocations exactly, the value each built-in returns, arrays with dynamic and
//! out-of-range indices, default offsets, binding points and their queries, reflection
//! (glGetActiveAtomicCounterBufferiv, uniforms, program interfaces) and the compile and
//! link errors the spec names. Draws run on 1 and 2 workers, which must agree.

mod common;

use softgl::{enums as gl, Context};

const W: i32 = 16;
const H: i32 = 16;

/// A triangle pair from gl_VertexID covering `rect` (NDC).
const VS_RECT: &str = "#version 420
uniform vec4 rect;
void main() {
    int id = gl_VertexID;
    gl_Position = vec4((id & 1) == 1 ? rect.z : rect.x, (id & 2) == 2 ? rect.w : rect.y, 0.5, 1.0);
}";

const FULL: [f32; 4] = [-1.0, -1.0, 1.0, 1.0];

fn shader(c: &mut Context, kind: u32, src: &str) -> (u32, bool, String) {
    let s = c.create_shader(kind);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    let ok = c.get_shaderiv(s, gl::COMPILE_STATUS) == 1;
    (s, ok, c.get_shader_info_log(s))
}

/// The link status and log of a program of these shaders (each must compile).
fn link(c: &mut Context, shaders: &[(u32, &str)]) -> (u32, bool, String) {
    let p = c.create_program();
    for (kind, src) in shaders {
        let (s, ok, log) = shader(c, *kind, src);
        assert!(ok, "{log}\n{src}");
        c.attach_shader(p, s);
    }
    c.link_program(p);
    (
        p,
        c.get_programiv(p, gl::LINK_STATUS) == 1,
        c.get_program_info_log(p),
    )
}

/// A buffer of `words` bound to GL_ATOMIC_COUNTER_BUFFER binding `index`.
fn counters(c: &mut Context, index: u32, words: &[u32]) -> u32 {
    let b = c.gen_buffers(1)[0];
    c.bind_buffer(gl::ATOMIC_COUNTER_BUFFER, b);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    c.buffer_data(
        gl::ATOMIC_COUNTER_BUFFER,
        bytes.len() as isize,
        Some(&bytes),
        gl::DYNAMIC_DRAW,
    );
    c.bind_buffer_base(gl::ATOMIC_COUNTER_BUFFER, index, b);
    b
}

fn words_of(c: &mut Context, b: u32) -> Vec<u32> {
    c.bind_buffer(gl::COPY_READ_BUFFER, b);
    let n = c.get_buffer_parameteriv(gl::COPY_READ_BUFFER, gl::BUFFER_SIZE);
    c.get_buffer_sub_data(gl::COPY_READ_BUFFER, 0, n as isize)
        .chunks(4)
        .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
        .collect()
}

fn draw(c: &mut Context, p: u32, r: [f32; 4]) {
    c.use_program(p);
    let l = c.get_uniform_location(p, "rect");
    c.uniform_4f(l, r[0], r[1], r[2], r[3]);
    c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
}

/// Every covered fragment increments one counter and decrements another exactly once;
/// helper invocations (the quad lanes outside a small triangle) never count. The counts
/// are exact and the same on 1 and 2 workers; a second draw sees the first one's values.
#[test]
fn fragments_are_counted_exactly() {
    let fs = "#version 420
        layout(binding = 0, offset = 4) uniform atomic_uint up;
        layout(binding = 0) uniform atomic_uint down;
        out vec4 color;
        void main() {
            atomicCounterIncrement(up);
            atomicCounterDecrement(down);
            color = vec4(1.0);
        }";
    let mut results = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(W as u32, H as u32, threads);
        let p = common::program(&mut c, VS_RECT, fs);
        let b = counters(&mut c, 0, &[7, 1000, 1000, 0xAB]);
        draw(&mut c, p, FULL);
        // Left half: 8 × 16 more fragments.
        draw(&mut c, p, [-1.0, -1.0, 0.0, 1.0]);
        c.memory_barrier(gl::ATOMIC_COUNTER_BARRIER_BIT);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let w = words_of(&mut c, b);
        let n = 256 + 128;
        assert_eq!(w[1], 1000 + n, "up: one increment per fragment");
        assert_eq!(w[2], 1000 - n, "down follows up (default offset 8)");
        assert_eq!([w[0], w[3]], [7, 0xAB], "other words untouched");
        results.push(w);
    }
    assert_eq!(results[0], results[1], "1 and 2 workers agree");
}

/// The value each built-in returns (GLSL 4.60 §8.10): Increment the value before,
/// Decrement the value after, atomicCounter the current one, the 4.60 operations the value
/// before; each invocation in a compute shader of 1 invocation checks them in sequence.
#[test]
fn built_ins_return_what_the_spec_says() {
    let cs = "#version 460
        layout(local_size_x = 1) in;
        layout(binding = 1) uniform atomic_uint c[2];
        layout(std430, binding = 0) buffer Out { uint r[16]; };
        void main() {
            r[0] = atomicCounterIncrement(c[0]);        // 10 -> 11, returns 10
            r[1] = atomicCounterDecrement(c[0]);        // 11 -> 10, returns 10
            r[2] = atomicCounter(c[0]);                 // 10
            r[3] = atomicCounterAdd(c[0], 5u);          // 15, returns 10
            r[4] = atomicCounterSubtract(c[0], 3u);     // 12, returns 15
            r[5] = atomicCounterMin(c[0], 4u);          // 4, returns 12
            r[6] = atomicCounterMax(c[0], 9u);          // 9, returns 4
            r[7] = atomicCounterAnd(c[0], 12u);         // 8, returns 9
            r[8] = atomicCounterOr(c[0], 3u);           // 11, returns 8
            r[9] = atomicCounterXor(c[0], 1u);          // 10, returns 11
            r[10] = atomicCounterExchange(c[0], 77u);   // 77, returns 10
            r[11] = atomicCounterCompSwap(c[0], 1u, 5u);  // no swap, returns 77
            r[12] = atomicCounterCompSwap(c[0], 77u, 5u); // 5, returns 77
            r[13] = atomicCounter(c[0]);                // 5
            r[14] = atomicCounterDecrement(c[1]);       // 0 -> 0xffffffff
            r[15] = atomicCounterMax(c[1], 1u);         // unsigned: stays, returns max
        }";
    for threads in [1, 2] {
        let mut c = common::context(4, 4, threads);
        let (p, ok, log) = link(&mut c, &[(gl::COMPUTE_SHADER, cs)]);
        assert!(ok, "{log}");
        c.use_program(p);
        let out = c.gen_buffers(1)[0];
        c.bind_buffer(gl::SHADER_STORAGE_BUFFER, out);
        c.buffer_data(gl::SHADER_STORAGE_BUFFER, 64, None, gl::DYNAMIC_DRAW);
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, out);
        let b = counters(&mut c, 1, &[10, 0]);
        c.dispatch_compute(1, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let r = words_of(&mut c, out);
        assert_eq!(
            r,
            [
                10,
                10,
                10,
                10,
                15,
                12,
                4,
                9,
                8,
                11,
                10,
                77,
                77,
                5,
                u32::MAX,
                u32::MAX
            ]
        );
        assert_eq!(words_of(&mut c, b), [5, u32::MAX]);
    }
}

/// Compute invocations and vertices count exactly too; with GL_ARB_shader_atomic_counters a
/// GLSL 1.40 shader has counters. A counter array indexed dynamically reaches its own
/// elements only: an index past its end reads 0 and changes nothing.
#[test]
fn compute_vertices_arrays_and_out_of_range_indices() {
    let cs = "#version 430
        layout(local_size_x = 8, local_size_y = 2) in;
        layout(binding = 2, offset = 8) uniform atomic_uint per[4];
        layout(binding = 2, offset = 0) uniform atomic_uint all;
        void main() {
            atomicCounterIncrement(all);
            atomicCounterIncrement(per[gl_LocalInvocationID.x % 4u]);
            // Indices 4..7: past the array, whose next word (offset 24) is a sentinel.
            atomicCounterIncrement(per[4u + gl_LocalInvocationID.x % 4u]);
        }";
    let mut results = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(4, 4, threads);
        let (p, ok, log) = link(&mut c, &[(gl::COMPUTE_SHADER, cs)]);
        assert!(ok, "{log}");
        c.use_program(p);
        let b = counters(&mut c, 2, &[0, 0xEE, 0, 0, 0, 0, 0x5E]);
        c.dispatch_compute(3, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let w = words_of(&mut c, b);
        assert_eq!(w, [48, 0xEE, 12, 12, 12, 12, 0x5E]);
        results.push(w);
    }
    assert_eq!(results[0], results[1]);

    let vs = "#version 140
        #extension GL_ARB_shader_atomic_counters : require
        layout(binding = 3) uniform atomic_uint vertices;
        void main() {
            atomicCounterIncrement(vertices);
            gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
        }";
    let fs = "#version 140\nout vec4 c;\nvoid main() { c = vec4(1.0); }";
    let mut c = common::context(4, 4, 2);
    let (p, ok, log) = link(
        &mut c,
        &[(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)],
    );
    assert!(ok, "{log}");
    c.use_program(p);
    let b = counters(&mut c, 3, &[5]);
    c.draw_arrays(gl::POINTS, 0, 37);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(words_of(&mut c, b), [42]);
}

/// An unbound binding point reads 0 and drops the operations; a range bound with
/// glBindBufferRange starts at its offset; the indexed binding queries answer.
#[test]
fn binding_points_ranges_and_queries() {
    let fs = "#version 420
        layout(binding = 1) uniform atomic_uint a;
        layout(binding = 4) uniform atomic_uint unbound;
        out vec4 color;
        void main() {
            uint u = atomicCounterIncrement(unbound);
            atomicCounterIncrement(a);
            color = vec4(float(u), 0.0, 0.0, 1.0);
        }";
    let mut c = common::context(W as u32, H as u32, 2);
    let (p, ok, log) = link(
        &mut c,
        &[(gl::VERTEX_SHADER, VS_RECT), (gl::FRAGMENT_SHADER, fs)],
    );
    assert!(ok, "{log}");
    let b = counters(&mut c, 0, &[0; 4]);
    c.bind_buffer_range(gl::ATOMIC_COUNTER_BUFFER, 1, b, 8, 4);
    assert_eq!(
        c.get_integeri_v(gl::ATOMIC_COUNTER_BUFFER_BINDING, 1),
        [b as i32]
    );
    assert_eq!(c.get_integeri_v(gl::ATOMIC_COUNTER_BUFFER_START, 1), [8]);
    assert_eq!(c.get_integeri_v(gl::ATOMIC_COUNTER_BUFFER_SIZE, 1), [4]);
    assert_eq!(
        c.get_integerv(gl::ATOMIC_COUNTER_BUFFER_BINDING),
        [b as i32]
    );
    draw(&mut c, p, FULL);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(words_of(&mut c, b), [0, 0, 256, 0]);
    let px = c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(px[0], 0, "the unbound counter returned 0");

    // GL 4.5 core §6.1.1: offsets are multiples of 4; indices below the limit.
    c.bind_buffer_range(gl::ATOMIC_COUNTER_BUFFER, 1, b, 2, 4);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    let max = c.get_integerv(gl::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS)[0];
    assert!(max >= 1);
    c.bind_buffer_base(gl::ATOMIC_COUNTER_BUFFER, max as u32, b);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    c.get_integeri_v(gl::ATOMIC_COUNTER_BUFFER_START, max as u32);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    for pname in [
        gl::MAX_VERTEX_ATOMIC_COUNTERS,
        gl::MAX_FRAGMENT_ATOMIC_COUNTERS,
        gl::MAX_COMBINED_ATOMIC_COUNTERS,
        gl::MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS,
        gl::MAX_COMPUTE_ATOMIC_COUNTERS,
    ] {
        assert!(c.get_integerv(pname)[0] >= 8, "{pname:#x}");
    }
    assert!(c.get_integerv(gl::MAX_ATOMIC_COUNTER_BUFFER_SIZE)[0] >= 32);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// Reflection: counters are uniforms without a location, in buffers that
/// glGetActiveAtomicCounterBufferiv and the ATOMIC_COUNTER_BUFFER interface describe; two
/// stages share one buffer of one binding.
#[test]
fn reflection_of_buffers_and_counters() {
    let vs = "#version 420
        layout(binding = 2, offset = 12) uniform atomic_uint v;
        void main() {
            atomicCounterIncrement(v);
            gl_Position = vec4(0.0);
        }";
    let fs = "#version 420
        layout(binding = 2) uniform atomic_uint f[2];
        layout(binding = 5, offset = 4) uniform atomic_uint g;
        uniform float x;
        out vec4 color;
        void main() {
            atomicCounterIncrement(f[1]);
            atomicCounterIncrement(g);
            color = vec4(x);
        }";
    let mut c = common::context(4, 4, 1);
    let (p, ok, log) = link(
        &mut c,
        &[(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)],
    );
    assert!(ok, "{log}");
    assert_eq!(c.get_programiv(p, gl::ACTIVE_ATOMIC_COUNTER_BUFFERS), 2);
    assert_eq!(c.get_programiv(p, gl::ACTIVE_UNIFORMS), 4);
    assert_eq!(
        c.get_uniform_location(p, "v"),
        -1,
        "counters have no location"
    );
    let idx = |c: &mut Context, n: &str| c.get_uniform_indices(p, &[n])[0];
    let (iv, i_f, ig) = (idx(&mut c, "v"), idx(&mut c, "f"), idx(&mut c, "g"));
    assert!(iv != gl::INVALID_INDEX && i_f != gl::INVALID_INDEX && ig != gl::INVALID_INDEX);
    let buf_of =
        c.get_active_uniformsiv(p, &[iv, i_f, ig], gl::UNIFORM_ATOMIC_COUNTER_BUFFER_INDEX);
    assert_eq!(buf_of[0], buf_of[1], "v and f share binding 2's buffer");
    assert_ne!(buf_of[0], buf_of[2]);
    assert_eq!(
        c.get_active_uniformsiv(p, &[iv, i_f, ig], gl::UNIFORM_TYPE),
        [gl::UNSIGNED_INT_ATOMIC_COUNTER as i32; 3]
    );
    assert_eq!(
        c.get_active_uniformsiv(p, &[iv, i_f, ig], gl::UNIFORM_OFFSET),
        [12, 0, 4]
    );
    assert_eq!(
        c.get_active_uniformsiv(p, &[i_f], gl::UNIFORM_ARRAY_STRIDE),
        [4]
    );
    assert_eq!(c.get_active_uniformsiv(p, &[i_f], gl::UNIFORM_SIZE), [2]);
    let x = idx(&mut c, "x");
    assert_eq!(
        c.get_active_uniformsiv(p, &[x], gl::UNIFORM_ATOMIC_COUNTER_BUFFER_INDEX),
        [-1]
    );

    let b2 = buf_of[0] as u32;
    let q = |c: &mut Context, pname| c.get_active_atomic_counter_bufferiv(p, b2, pname);
    assert_eq!(q(&mut c, gl::ATOMIC_COUNTER_BUFFER_BINDING), [2]);
    assert_eq!(q(&mut c, gl::ATOMIC_COUNTER_BUFFER_DATA_SIZE), [16]);
    assert_eq!(
        q(&mut c, gl::ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS),
        [2]
    );
    let mut members = q(
        &mut c,
        gl::ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTER_INDICES,
    );
    members.sort_unstable();
    let mut want = vec![iv as i32, i_f as i32];
    want.sort_unstable();
    assert_eq!(members, want);
    assert_eq!(
        q(
            &mut c,
            gl::ATOMIC_COUNTER_BUFFER_REFERENCED_BY_VERTEX_SHADER
        ),
        [1]
    );
    assert_eq!(
        q(
            &mut c,
            gl::ATOMIC_COUNTER_BUFFER_REFERENCED_BY_FRAGMENT_SHADER
        ),
        [1]
    );
    assert_eq!(
        q(
            &mut c,
            gl::ATOMIC_COUNTER_BUFFER_REFERENCED_BY_COMPUTE_SHADER
        ),
        [0]
    );
    let b5 = buf_of[2] as u32;
    assert_eq!(
        c.get_active_atomic_counter_bufferiv(
            p,
            b5,
            gl::ATOMIC_COUNTER_BUFFER_REFERENCED_BY_VERTEX_SHADER
        ),
        [0]
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.get_active_atomic_counter_bufferiv(p, 2, gl::ATOMIC_COUNTER_BUFFER_BINDING);
    assert_eq!(
        c.get_error(),
        gl::INVALID_VALUE,
        "index past the active buffers"
    );
    c.get_active_atomic_counter_bufferiv(p, 0, gl::UNIFORM_BLOCK_BINDING);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);

    // The program interface of buffers: no names, the same properties.
    assert_eq!(
        c.get_program_interfaceiv(p, gl::ATOMIC_COUNTER_BUFFER, gl::ACTIVE_RESOURCES),
        [2]
    );
    assert_eq!(
        c.get_program_resourceiv(
            p,
            gl::ATOMIC_COUNTER_BUFFER,
            b2,
            &[
                gl::BUFFER_BINDING,
                gl::BUFFER_DATA_SIZE,
                gl::NUM_ACTIVE_VARIABLES
            ]
        ),
        [2, 16, 2]
    );
    assert_eq!(
        c.get_program_resourceiv(
            p,
            gl::UNIFORM,
            ig,
            &[gl::ATOMIC_COUNTER_BUFFER_INDEX, gl::LOCATION]
        ),
        [buf_of[2], -1]
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

fn compiles(stage: u32, src: &str) -> (bool, String) {
    let mut c = common::context(4, 4, 1);
    let (_, ok, log) = shader(&mut c, stage, src);
    (ok, log)
}

/// GLSL 4.60 §4.1.7.4 and §4.4.6.2: counters are opaque uniforms; every misuse the spec
/// names is a compile error, and the right uses compile.
#[test]
fn compile_errors() {
    let frag = |decl: &str, body: &str| {
        format!(
            "#version 420\n{decl}\nout vec4 color;\nvoid main() {{ {body} color = vec4(1.0); }}"
        )
    };
    let x = "layout(binding = 0) uniform atomic_uint x;";
    for (decl, body, why) in [
        (x, "uint y = x;", "a counter as an operand"),
        (x, "float y = float(x);", "a counter converted"),
        (x, "uint y = 1u + x;", "a counter in arithmetic"),
        (x, "x = x;", "assignment"),
        (x, "x++;", "increment"),
        ("", "atomic_uint y;", "a local counter"),
        ("in atomic_uint x;", "", "an input counter"),
        ("const atomic_uint x;", "", "a const counter"),
        ("uniform B { atomic_uint x; };", "", "a counter in a block"),
        ("layout(binding = 0, offset = 3) uniform atomic_uint x;", "", "offset not a multiple of 4"),
        ("layout(binding = 99) uniform atomic_uint x;", "", "binding past the limit"),
        ("layout(binding = 0, offset = 0) uniform atomic_uint a;\nlayout(binding = 0, offset = 0) uniform atomic_uint b;", "", "two counters at one offset"),
        ("layout(binding = 0, offset = 4) uniform atomic_uint a[2];\nlayout(binding = 0, offset = 8) uniform atomic_uint b;", "", "an array overlapping a counter"),
        ("void f(out atomic_uint y) {}", "", "an out counter parameter"),
        (x, "atomicCounterIncrement(x, 1u);", "wrong argument count"),
        ("uniform uint u;", "atomicCounterIncrement(u);", "not a counter"),
    ] {
        let (ok, log) = compiles(gl::FRAGMENT_SHADER, &frag(decl, body));
        assert!(!ok, "{why} must not compile");
        assert!(log.contains("error"), "{why}: {log}");
    }
    // Before GLSL 4.20 without the extension, atomic_uint is no type; 4.20's operations of
    // GL_ARB_shader_atomic_counter_ops need 4.60 or that extension.
    let (ok, _) = compiles(
        gl::FRAGMENT_SHADER,
        "#version 410\nlayout(binding = 0) uniform atomic_uint x;\nvoid main() {}",
    );
    assert!(!ok);
    let (ok, _) = compiles(gl::FRAGMENT_SHADER, &frag(x, "atomicCounterAdd(x, 1u);"));
    assert!(!ok, "atomicCounterAdd is GLSL 4.60");
    for src in [
        frag(x, "uint y = atomicCounter((x));"),
        frag("layout(binding = 0) uniform atomic_uint xs[4];", "uint y = atomicCounterIncrement(xs[1]);"),
        frag("layout(binding = 1, offset = 8) uniform atomic_uint;\nlayout(binding = 1) uniform atomic_uint z;", "atomicCounterIncrement(z);"),
        frag("void f(atomic_uint y) {}", ""),
        "#version 150\n#extension GL_ARB_shader_atomic_counters : require\nout ivec4 c;\nvoid main() { c.x = gl_MaxFragmentAtomicCounters + gl_MaxCombinedAtomicCounters + gl_MaxAtomicCounterBindings; }".to_string(),
        "#version 420\n#extension GL_ARB_shader_atomic_counter_ops : require\nlayout(binding = 0) uniform atomic_uint x;\nvoid main() { atomicCounterAdd(x, 2u); atomicCounterCompSwapARB(x, 1u, 2u); atomicCounterSubtractARB(x, 1u); }".to_string(),
    ] {
        let (ok, log) = compiles(gl::FRAGMENT_SHADER, &src);
        assert!(ok, "{log}\n{src}");
    }
}

/// Link errors: two stages' counters that overlap under different names, or one counter
/// at two offsets; the default offset after `layout(binding, offset) uniform atomic_uint;`
/// puts the next counter there.
#[test]
fn link_errors_and_default_offsets() {
    let vs = |decl: &str| {
        format!("#version 420\n{decl}\nvoid main() {{ atomicCounterIncrement(a); gl_Position = vec4(0.0); }}")
    };
    let fs = |decl: &str| {
        format!("#version 420\n{decl}\nout vec4 c;\nvoid main() {{ atomicCounterIncrement(b); c = vec4(1.0); }}")
    };
    let mut c = common::context(4, 4, 1);
    for (v, f, good) in [
        ("layout(binding = 0, offset = 0) uniform atomic_uint a;", "layout(binding = 0, offset = 4) uniform atomic_uint b;", true),
        ("layout(binding = 0, offset = 0) uniform atomic_uint a;", "layout(binding = 1, offset = 0) uniform atomic_uint b;", true),
        ("layout(binding = 0, offset = 0) uniform atomic_uint a;", "layout(binding = 0, offset = 0) uniform atomic_uint b;", false),
        (
            "layout(binding = 0, offset = 4) uniform atomic_uint a;",
            "layout(binding = 0, offset = 0) uniform atomic_uint x[2];\nlayout(binding = 0, offset = 8) uniform atomic_uint b;",
            false,
        ),
        (
            "layout(binding = 0, offset = 0) uniform atomic_uint a;\nlayout(binding = 0, offset = 8) uniform atomic_uint b;",
            "layout(binding = 0, offset = 4) uniform atomic_uint b;",
            false,
        ),
        (
            "layout(binding = 0) uniform atomic_uint a;\nlayout(binding = 1) uniform atomic_uint b;",
            "layout(binding = 2) uniform atomic_uint b;",
            false,
        ),
    ] {
        let (_, ok, log) = link(
            &mut c,
            &[(gl::VERTEX_SHADER, &vs(v)), (gl::FRAGMENT_SHADER, &fs(f))],
        );
        assert_eq!(ok, good, "{v} / {f}: {log}");
        if !good {
            assert!(log.contains("atomic counter"), "{log}");
        }
    }
    let (p, ok, log) = link(
        &mut c,
        &[
            (gl::VERTEX_SHADER, &vs("layout(binding = 3, offset = 20) uniform atomic_uint;\nlayout(binding = 3) uniform atomic_uint a;\nlayout(binding = 2, offset = 12) uniform;\nlayout(binding = 2) uniform atomic_uint z;")),
            (gl::FRAGMENT_SHADER, &fs("layout(binding = 3, offset = 0) uniform atomic_uint b;")),
        ],
    );
    assert!(ok, "{log}");
    let ia = c.get_uniform_indices(p, &["a"])[0];
    let iz = c.get_uniform_indices(p, &["z"])[0];
    assert_eq!(
        c.get_active_uniformsiv(p, &[ia, iz], gl::UNIFORM_OFFSET),
        [20, 12]
    );
}

/// Counters as function arguments (GLSL 4.60 §4.1.7.4): the parameter names the caller's
/// counter (a scalar, an element picked by a dynamic index, or a whole array), nested
/// calls pass it on.
#[test]
fn counters_as_function_arguments() {
    let cs = "#version 430
        layout(local_size_x = 4) in;
        layout(binding = 0) uniform atomic_uint one;
        layout(binding = 0) uniform atomic_uint many[3];
        uint bump(atomic_uint c) { return atomicCounterIncrement(c); }
        uint twice(atomic_uint c) { bump(c); return bump(c); }
        void all(atomic_uint cs[3], uint k) { atomicCounterAdd(cs[k], 10u); }
        void main() {
            twice(one);
            bump(many[gl_LocalInvocationID.x % 3u]);
            all(many, 2u);
        }";
    let cs = cs.replace("#version 430", "#version 460");
    for threads in [1, 2] {
        let mut c = common::context(4, 4, threads);
        let (p, ok, log) = link(&mut c, &[(gl::COMPUTE_SHADER, &cs)]);
        assert!(ok, "{log}");
        c.use_program(p);
        let b = counters(&mut c, 0, &[0; 5]);
        c.dispatch_compute(2, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        // 8 invocations: one += 16; many[i] += 1 for x%3 == i (x = 0..3 twice: 0,1,2,0),
        // many[2] += 80.
        assert_eq!(words_of(&mut c, b), [16, 4, 2, 82, 0]);
    }
}

/// Separable programs in a pipeline (GL 4.5 core §7.4): each program's counters keep their
/// GL_ATOMIC_COUNTER_BUFFER binding (not the shader storage point of the same number), and
/// two programs' counters at one binding update one buffer.
#[test]
fn counters_of_separable_programs_in_a_pipeline() {
    let vs = "#version 420
        layout(binding = 1, offset = 0) uniform atomic_uint verts;
        uniform vec4 rect;
        void main() {
            atomicCounterIncrement(verts);
            int id = gl_VertexID;
            gl_Position = vec4((id & 1) == 1 ? rect.z : rect.x, (id & 2) == 2 ? rect.w : rect.y, 0.5, 1.0);
        }";
    let fs = "#version 420
        layout(binding = 1, offset = 4) uniform atomic_uint frags;
        out vec4 color;
        void main() { atomicCounterIncrement(frags); color = vec4(1.0); }";
    for threads in [1, 2] {
        let mut c = common::context(W as u32, H as u32, threads);
        let mut separable = |kind, src: &str| {
            let p = c.create_shader_programv(kind, &[src]);
            assert_eq!(
                c.get_programiv(p, gl::LINK_STATUS),
                1,
                "{}",
                c.get_program_info_log(p)
            );
            p
        };
        let (v, f) = (
            separable(gl::VERTEX_SHADER, vs),
            separable(gl::FRAGMENT_SHADER, fs),
        );
        let pipe = c.gen_program_pipelines(1)[0];
        c.bind_program_pipeline(pipe);
        c.use_program_stages(pipe, gl::VERTEX_SHADER_BIT, v);
        c.use_program_stages(pipe, gl::FRAGMENT_SHADER_BIT, f);
        let ssbo = c.gen_buffers(1)[0];
        c.bind_buffer(gl::SHADER_STORAGE_BUFFER, ssbo);
        c.buffer_data(
            gl::SHADER_STORAGE_BUFFER,
            8,
            Some(&[0xEE; 8]),
            gl::DYNAMIC_DRAW,
        );
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 1, ssbo);
        let b = counters(&mut c, 1, &[0, 0]);
        let l = c.get_uniform_location(v, "rect");
        c.program_uniform_4f(v, l, -1.0, -1.0, 1.0, 1.0);
        c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(words_of(&mut c, b), [4, 256]);
        assert_eq!(words_of(&mut c, ssbo), [0xEEEE_EEEE; 2]);
    }
}

#[test]
fn the_commands_have_c_entry_points() {
    let missing: Vec<&str> = softgl::missing_entry_points().iter().map(|m| m.0).collect();
    let name = "glGetActiveAtomicCounterBufferiv";
    assert!(!softgl::get_proc_address(name).is_null(), "{name}");
    assert!(!missing.contains(&name), "{name} is listed as missing");
}

/// A geometry stage's counters share the vertex stage's buffers (`ir::geometry` merges the
/// two): vertices, primitives and fragments counted in one draw, on 1 and 2 workers.
#[test]
fn vertex_geometry_and_fragment_counters_in_one_draw() {
    let vs = "#version 420
        layout(binding = 0, offset = 0) uniform atomic_uint verts;
        void main() {
            atomicCounterIncrement(verts);
            int id = gl_VertexID % 3;
            int tri = gl_VertexID / 3;
            vec2 p = id == 0 ? vec2(-1.0, -1.0) : id == 1 ? vec2(1.0, -1.0) : vec2(-1.0, 1.0);
            gl_Position = vec4(tri == 0 ? p : -p, 0.5, 1.0);
        }";
    let gs = "#version 420
        layout(triangles) in;
        layout(triangle_strip, max_vertices = 3) out;
        layout(binding = 0, offset = 4) uniform atomic_uint prims;
        void main() {
            atomicCounterIncrement(prims);
            for (int i = 0; i < 3; i++) {
                gl_Position = gl_in[i].gl_Position;
                EmitVertex();
            }
            EndPrimitive();
        }";
    let fs = "#version 420
        layout(binding = 1) uniform atomic_uint frags;
        out vec4 color;
        void main() { atomicCounterIncrement(frags); color = vec4(1.0); }";
    let mut results = Vec::new();
    for threads in [1, 2] {
        let mut c = common::context(W as u32, H as u32, threads);
        let (p, ok, log) = link(
            &mut c,
            &[
                (gl::VERTEX_SHADER, vs),
                (gl::GEOMETRY_SHADER, gs),
                (gl::FRAGMENT_SHADER, fs),
            ],
        );
        assert!(ok, "{log}");
        c.use_program(p);
        let b0 = counters(&mut c, 0, &[0, 0]);
        let b1 = counters(&mut c, 1, &[0]);
        c.draw_arrays(gl::TRIANGLES, 0, 6);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let w = (words_of(&mut c, b0), words_of(&mut c, b1));
        assert_eq!(
            w,
            (vec![6, 2], vec![256]),
            "two triangles cover the 16x16 viewport"
        );
        results.push(w);
    }
    assert_eq!(results[0], results[1]);
}
