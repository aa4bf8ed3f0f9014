//! GL_ARB_shader_storage_buffer_object, GL_ARB_compute_shader, GL_ARB_shader_image_load_store
//! and GL_ARB_shader_image_size as extensions: listed in GL_EXTENSIONS and predefined as
//! GLSL macros together, their features in GLSL versions before 4.20/4.30 with
//! `#extension`, and the rules that came with listing them: `readonly`/`writeonly` storage
//! members (under an instance name too), arrays of storage blocks indexed by a dynamically
//! uniform value, image uniforms in structs, and the per-stage and combined image-uniform
//! limits at link. Every draw and dispatch runs on 1 and 2 workers, which must agree.

mod common;

use softgl::{enums as gl, Context};

const EXTENSIONS: [&str; 4] = [
    "GL_ARB_compute_shader",
    "GL_ARB_shader_image_load_store",
    "GL_ARB_shader_image_size",
    "GL_ARB_shader_storage_buffer_object",
];

fn compile(c: &mut Context, kind: u32, src: &str) -> (u32, bool, String) {
    let s = c.create_shader(kind);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    let ok = c.get_shaderiv(s, gl::COMPILE_STATUS) == 1;
    (s, ok, c.get_shader_info_log(s))
}

/// The info log of `src`, which must fail to compile as `kind`.
fn compile_error(kind: u32, src: &str) -> String {
    let mut c = common::context(4, 4, 1);
    let (_, ok, log) = compile(&mut c, kind, src);
    assert!(!ok, "compiled but should not:\n{src}");
    log
}

fn compiles(kind: u32, src: &str) {
    let mut c = common::context(4, 4, 1);
    let (_, ok, log) = compile(&mut c, kind, src);
    assert!(ok, "{log}\n{src}");
}

/// Links the shaders into a program: (program, link status, log).
fn link(c: &mut Context, shaders: &[(u32, &str)]) -> (u32, bool, String) {
    let p = c.create_program();
    for (kind, src) in shaders {
        let (s, ok, log) = compile(c, *kind, src);
        assert!(ok, "{log}\n{src}");
        c.attach_shader(p, s);
    }
    c.link_program(p);
    let ok = c.get_programiv(p, gl::LINK_STATUS) == 1;
    (p, ok, c.get_program_info_log(p))
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

fn on_1_and_2_workers<T: PartialEq + std::fmt::Debug>(f: impl Fn(&mut Context) -> T) -> T {
    let a = f(&mut common::context(8, 8, 1));
    let b = f(&mut common::context(8, 8, 2));
    assert_eq!(a, b, "1 and 2 workers agree");
    a
}

/// GL_EXTENSIONS lists the four, and GLSL predefines each as 1 (GLSL 4.60 §3.3), in a
/// version that does not have the features itself.
#[test]
fn listed_and_predefined_together() {
    let mut c = common::context(4, 4, 1);
    let n = c.get_integerv(gl::NUM_EXTENSIONS)[0] as u32;
    let listed: Vec<String> = (0..n)
        .filter_map(|i| c.get_stringi(gl::EXTENSIONS, i))
        .collect();
    for ext in EXTENSIONS {
        assert!(listed.iter().any(|e| e == ext), "{ext} not listed");
        compiles(
            gl::FRAGMENT_SHADER,
            &format!(
                "#version 140\n#if !defined {ext} || {ext} != 1\n#error {ext}\n#endif\nvoid main() {{}}\n"
            ),
        );
    }
}

/// Without `#extension`, GLSL 3.30 has no `buffer` blocks, `shared`, image types or
/// imageSize; with it, each compiles.
#[test]
fn features_need_the_extension_before_their_version() {
    let block = "buffer B { float f; };\nout vec4 o;\nvoid main() { o = vec4(f); }\n";
    compile_error(gl::FRAGMENT_SHADER, &format!("#version 330\n{block}"));
    compiles(
        gl::FRAGMENT_SHADER,
        &format!("#version 330\n#extension GL_ARB_shader_storage_buffer_object : require\n{block}"),
    );
    let shared = "layout(local_size_x = 2) in;\nshared uint s;\n\
                  void main() { atomicAdd(s, 1u); barrier(); memoryBarrierShared(); }\n";
    let log = compile_error(gl::COMPUTE_SHADER, &format!("#version 330\n{shared}"));
    assert!(log.contains("shared"), "{log}");
    let log = compile_error(
        gl::COMPUTE_SHADER,
        "#version 330\nlayout(local_size_x = 2) in;\nvoid main() {}\n",
    );
    assert!(log.contains("GL_ARB_compute_shader"), "{log}");
    compiles(
        gl::COMPUTE_SHADER,
        &format!("#version 150\n#extension GL_ARB_compute_shader : require\n{shared}"),
    );
    let image = "layout(r32f) uniform image2D i;\nout vec4 o;\n\
                 void main() { o = imageLoad(i, ivec2(0)); memoryBarrier(); }\n";
    compile_error(gl::FRAGMENT_SHADER, &format!("#version 330\n{image}"));
    compiles(
        gl::FRAGMENT_SHADER,
        &format!("#version 330\n#extension GL_ARB_shader_image_load_store : require\n{image}"),
    );
    // imageSize is GLSL 4.30's, or GL_ARB_shader_image_size's.
    let size = "layout(r32f) uniform image2D i;\nout vec4 o;\n\
                void main() { o = vec4(imageSize(i), 0.0, 1.0); }\n";
    let log = compile_error(gl::FRAGMENT_SHADER, &format!("#version 420\n{size}"));
    assert!(log.contains("imageSize"), "{log}");
    compiles(
        gl::FRAGMENT_SHADER,
        &format!("#version 420\n#extension GL_ARB_shader_image_size : require\n{size}"),
    );
    compiles(gl::FRAGMENT_SHADER, &format!("#version 430\n{size}"));
    // The limits come with the extensions.
    compiles(
        gl::COMPUTE_SHADER,
        "#version 150\n#extension GL_ARB_compute_shader : require\n\
         #extension GL_ARB_shader_image_load_store : require\n\
         layout(local_size_x = 1) in;\n\
         void main() { int n = gl_MaxComputeImageUniforms + gl_MaxImageUnits + gl_MaxComputeWorkGroupSize.x; }\n",
    );
}

/// GLSL 4.60 §4.10: a `writeonly` member cannot be read, a `readonly` one cannot be
/// written, whether the block has an instance name or not, the qualifier on the member or
/// on the block; an atomic does both.
#[test]
fn readonly_and_writeonly_members() {
    let head = "#version 330\n#extension GL_ARB_shader_storage_buffer_object : require\n";
    let cases = [
        (
            "buffer B { writeonly float a; float b; };",
            "b = a;",
            "read of `a'",
        ),
        (
            "buffer B { writeonly float a; float b; } x;",
            "x.b = x.a;",
            "read of `a'",
        ),
        (
            "buffer B { readonly float a; float b; } x;",
            "x.a = x.b;",
            "assignment to `a'",
        ),
        (
            "writeonly buffer B { float a[4]; int i; } x;",
            "x.a[x.i] = 1.0;",
            "read of `i'",
        ),
        (
            "buffer B { float c; writeonly vec4 a[]; } x;",
            "x.c = x.a[2].y;",
            "read of `a'",
        ),
        (
            "buffer B { writeonly int n; } x;",
            "atomicAdd(x.n, 1);",
            "read of `n'",
        ),
        (
            "buffer B { readonly int n; };",
            "atomicAdd(n, 1);",
            "readonly",
        ),
        (
            "buffer B { writeonly float a; } x[2];",
            "float f = x[1].a;",
            "read of `a'",
        ),
    ];
    for (decl, body, want) in cases {
        let src = format!("{head}{decl}\nvoid main() {{ {body} }}\n");
        let log = compile_error(gl::VERTEX_SHADER, &src);
        assert!(log.contains(want), "{src}\n{log}");
    }
    // What stays allowed: writing a writeonly member, reading a readonly one, the other
    // members of the block, and length() of a writeonly runtime-sized array.
    compiles(
        gl::VERTEX_SHADER,
        &format!(
            "{head}buffer B {{ readonly float r; writeonly float w; float rw; writeonly float a[]; }} x;\n\
             void main() {{ x.w = x.r + x.rw; x.rw = 1.0; x.a[x.a.length() - 1] = 2.0; }}\n"
        ),
    );
}

/// An array of storage blocks indexed by a uniform (dynamically uniform, GLSL 4.60
/// §4.3.9): reads, writes, an atomic and length() reach the block the index picks; an
/// index past the array reads 0 and writes nothing. Fragment shader in GLSL 3.30 with the
/// extension; 1 and 2 workers agree.
#[test]
fn storage_block_array_with_a_dynamic_index() {
    let vs = "#version 330\n\
        void main() {\n\
            int id = gl_VertexID;\n\
            gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.5, 1.0);\n\
        }";
    let fs = "#version 330\n#extension GL_ARB_shader_storage_buffer_object : require\n\
        uniform int idx;\n\
        layout(std430, binding = 1) buffer Data { uint scale; uint count; uint seen; uint tail[]; } data[3];\n\
        out vec4 color;\n\
        void main() {\n\
            uint s = data[idx].scale;\n\
            atomicAdd(data[idx].count, s);\n\
            data[idx].seen = uint(data[idx].tail.length()) + 100u;\n\
            color = vec4(float(s) / 255.0, 0.0, 0.0, 1.0);\n\
        }";
    let out = on_1_and_2_workers(|c| {
        let p = common::program(c, vs, fs);
        c.use_program(p);
        let bufs: Vec<u32> = (0..3)
            .map(|k| ssbo(c, 1 + k, &[k + 1, 0, 0, 9, 9, 9][..(4 + k as usize)]))
            .collect();
        let l = c.get_uniform_location(p, "idx");
        let mut seen = Vec::new();
        for idx in [2, 0, 5] {
            c.uniform_1i(l, idx);
            c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
            assert_eq!(c.get_error(), gl::NO_ERROR);
            let px = c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE);
            seen.push(px[0]);
        }
        let words: Vec<Vec<u32>> = bufs.iter().map(|&b| words_of(c, b)).collect();
        (seen, words)
    });
    let (seen, words) = out;
    assert_eq!(
        seen,
        [3, 1, 0],
        "scale of block 2, of block 0, none past the array"
    );
    // 64 fragments each add their block's scale; tail.length() is the words past 12 bytes.
    assert_eq!(words[0], [1, 64, 101, 9]);
    assert_eq!(words[1], [2, 0, 0, 9, 9], "block 1 never picked");
    assert_eq!(words[2], [3, 192, 103, 9, 9, 9]);
}

/// A compute shader of GLSL 1.50 with GL_ARB_compute_shader: shared variables, barrier()
/// and atomics on shared and buffer words, a storage block from
/// GL_ARB_shader_storage_buffer_object; exact sums on 1 and 2 workers.
#[test]
fn compute_in_glsl_150() {
    let src = "#version 150\n\
        #extension GL_ARB_compute_shader : require\n\
        #extension GL_ARB_shader_storage_buffer_object : require\n\
        layout(local_size_x = 8) in;\n\
        layout(std430, binding = 0) buffer Out { uint total; uint per_group[]; };\n\
        shared uint sum;\n\
        void main() {\n\
            if (gl_LocalInvocationIndex == 0u) sum = 0u;\n\
            barrier();\n\
            atomicAdd(sum, gl_GlobalInvocationID.x);\n\
            barrier();\n\
            if (gl_LocalInvocationIndex == 0u) {\n\
                per_group[gl_WorkGroupID.x] = sum;\n\
                atomicAdd(total, sum);\n\
            }\n\
        }";
    let words = on_1_and_2_workers(|c| {
        let (p, ok, log) = link(c, &[(gl::COMPUTE_SHADER, src)]);
        assert!(ok, "{log}");
        c.use_program(p);
        let b = ssbo(c, 0, &[0; 5]);
        c.dispatch_compute(4, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        words_of(c, b)
    });
    let groups: Vec<u32> = (0..4).map(|g| (0..8).map(|i| g * 8 + i).sum()).collect();
    assert_eq!(words[1..], groups[..]);
    assert_eq!(words[0], groups.iter().sum::<u32>());
}

/// An image uniform inside a struct (and an array of such structs) takes its format and
/// memory qualifiers from the member, its unit from glUniform1i on the member's name, and
/// stores through it; a struct member without a format that is not writeonly is refused.
#[test]
fn image_uniforms_in_structs() {
    let src = "#version 430\n\
        layout(local_size_x = 4, local_size_y = 4) in;\n\
        struct Target { layout(r32ui) uimage2D img; uint add; };\n\
        struct Pair { writeonly uimage2D out_img; };\n\
        uniform Target t;\n\
        uniform Pair pairs[2];\n\
        void main() {\n\
            ivec2 p = ivec2(gl_LocalInvocationID.xy);\n\
            uint v = imageLoad(t.img, p).x + t.add;\n\
            imageStore(pairs[1].out_img, p, uvec4(v));\n\
            imageStore(t.img, p, uvec4(v * 2u));\n\
        }";
    let out = on_1_and_2_workers(|c| {
        let (p, ok, log) = link(c, &[(gl::COMPUTE_SHADER, src)]);
        assert!(ok, "{log}");
        c.use_program(p);
        let mut tex = Vec::new();
        for unit in 0..2u32 {
            let t = c.gen_textures(1)[0];
            c.bind_texture(gl::TEXTURE_2D, t);
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::R32UI, 4, 4);
            let init: Vec<u8> = (0..16u32).flat_map(|i| (i * 10).to_le_bytes()).collect();
            c.tex_sub_image_2d(
                gl::TEXTURE_2D,
                0,
                0,
                0,
                4,
                4,
                gl::RED_INTEGER,
                gl::UNSIGNED_INT,
                &init,
            );
            c.bind_image_texture(unit + 2, t, 0, false, 0, gl::READ_WRITE, gl::R32UI);
            tex.push(t);
        }
        for (name, unit) in [
            ("t.img", 2),
            ("pairs[1].out_img", 3),
            ("pairs[0].out_img", 3),
        ] {
            let l = c.get_uniform_location(p, name);
            assert!(l >= 0, "{name}");
            c.uniform_1i(l, unit);
        }
        let l = c.get_uniform_location(p, "t.add");
        c.uniform_1ui(l, 5);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        c.dispatch_compute(1, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        tex.iter()
            .map(|&t| {
                c.bind_texture(gl::TEXTURE_2D, t);
                c.get_tex_image(gl::TEXTURE_2D, 0, gl::RED_INTEGER, gl::UNSIGNED_INT)
                    .chunks(4)
                    .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
                    .collect::<Vec<u32>>()
            })
            .collect::<Vec<_>>()
    });
    let plus: Vec<u32> = (0..16).map(|i| i * 10 + 5).collect();
    let doubled: Vec<u32> = plus.iter().map(|v| v * 2).collect();
    assert_eq!(
        out[0], doubled,
        "t.img: loaded, added to, stored twice as much"
    );
    assert_eq!(out[1], plus, "pairs[1].out_img");

    let log = compile_error(
        gl::COMPUTE_SHADER,
        "#version 430\nlayout(local_size_x = 1) in;\nstruct S { image2D i; };\nuniform S s;\nvoid main() {}\n",
    );
    assert!(log.contains("format"), "{log}");
    let log = compile_error(
        gl::COMPUTE_SHADER,
        "#version 430\nlayout(local_size_x = 1) in;\nstruct S { layout(r32f) readonly image2D i; };\n\
         uniform S s;\nvoid main() { imageStore(s.i, ivec2(0), vec4(1.0)); }\n",
    );
    assert!(log.contains("readonly"), "{log}");
}

/// GL 4.5 core §7.13: GL_MAX_<stage>_IMAGE_UNIFORMS per stage and
/// GL_MAX_COMBINED_IMAGE_UNIFORMS over the program; array elements count one each.
#[test]
fn image_uniform_limits_at_link() {
    let mut c = common::context(4, 4, 1);
    let per_stage = c.get_integerv(gl::MAX_FRAGMENT_IMAGE_UNIFORMS)[0];
    let combined = c.get_integerv(gl::MAX_COMBINED_IMAGE_UNIFORMS)[0];
    assert_eq!(per_stage, c.get_integerv(gl::MAX_VERTEX_IMAGE_UNIFORMS)[0]);
    assert_eq!(per_stage, c.get_integerv(gl::MAX_COMPUTE_IMAGE_UNIFORMS)[0]);
    let decl = |n: i32, used: &str| {
        format!(
            "layout(r32f) uniform image2D imgs_{used}[{n}];\n\
             float use_{used}() {{ float s = 0.0; for (int k = 0; k < {n}; k++) s += imageLoad(imgs_{used}[k], ivec2(0)).x; return s; }}\n"
        )
    };
    let vs = |n: i32| {
        format!(
            "#version 420\n{}void main() {{ gl_Position = vec4(use_v()); }}\n",
            decl(n, "v")
        )
    };
    let fs = |n: i32| {
        format!(
            "#version 420\n{}out vec4 o;\nvoid main() {{ o = vec4(use_f()); }}\n",
            decl(n, "f")
        )
    };
    let cs = |n: i32| {
        format!(
            "#version 430\nlayout(local_size_x = 1) in;\n{}void main() {{ use_c(); }}\n",
            decl(n, "c")
        )
    };
    let (_, ok, log) = link(
        &mut c,
        &[
            (gl::VERTEX_SHADER, &vs(1)),
            (gl::FRAGMENT_SHADER, &fs(combined - 1)),
        ],
    );
    assert!(ok, "{log}");
    let (_, ok, log) = link(
        &mut c,
        &[
            (gl::VERTEX_SHADER, &vs(1)),
            (gl::FRAGMENT_SHADER, &fs(per_stage + 1)),
        ],
    );
    assert!(!ok, "one image past the fragment limit links");
    assert!(log.contains("GL_MAX_FRAGMENT_IMAGE_UNIFORMS"), "{log}");
    let (_, ok, log) = link(
        &mut c,
        &[
            (gl::VERTEX_SHADER, &vs(per_stage + 1)),
            (gl::FRAGMENT_SHADER, &fs(1)),
        ],
    );
    assert!(!ok);
    assert!(log.contains("GL_MAX_VERTEX_IMAGE_UNIFORMS"), "{log}");
    let half = combined / 2 + 1;
    let (_, ok, log) = link(
        &mut c,
        &[
            (gl::VERTEX_SHADER, &vs(half)),
            (gl::FRAGMENT_SHADER, &fs(half)),
        ],
    );
    assert!(
        !ok,
        "{half} + {half} images past the combined limit {combined} link"
    );
    assert!(log.contains("GL_MAX_COMBINED_IMAGE_UNIFORMS"), "{log}");
    let (_, ok, log) = link(&mut c, &[(gl::COMPUTE_SHADER, &cs(per_stage))]);
    assert!(ok, "{log}");
    let (_, ok, log) = link(&mut c, &[(gl::COMPUTE_SHADER, &cs(per_stage + 1))]);
    assert!(!ok);
    assert!(log.contains("GL_MAX_COMPUTE_IMAGE_UNIFORMS"), "{log}");
}

/// GLSL 4.60 §4.3.9: a block array's size is part of its interface, so the same block
/// declared as arrays of different sizes (or as an array and a single block) in two stages
/// does not link; equal declarations do.
#[test]
fn storage_block_arrays_match_across_stages() {
    let head = "#version 150\n#extension GL_ARB_shader_storage_buffer_object : require\n";
    let vs = |decl: &str| {
        format!(
            "{head}buffer a {{ vec4 s; }} {decl};\nvoid main() {{ gl_Position = vec4(0.0); }}\n"
        )
    };
    let fs = |decl: &str| {
        format!(
            "{head}buffer a {{ vec4 s; }} {decl};\nout vec4 o;\nvoid main() {{ o = vec4(1.0); }}\n"
        )
    };
    let mut c = common::context(4, 4, 1);
    for (v, f, want) in [
        ("b[2]", "b[3]", false),
        ("b[2]", "b", false),
        ("b", "b[1]", false),
        ("b[2]", "c[2]", true),
        ("b", "b", true),
    ] {
        let (_, ok, log) = link(
            &mut c,
            &[(gl::VERTEX_SHADER, &vs(v)), (gl::FRAGMENT_SHADER, &fs(f))],
        );
        assert_eq!(ok, want, "{v} / {f}: {log}");
    }
}

/// ARB_compute_shader's compile errors: a local size of more invocations than
/// GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, and gl_WorkGroupSize used before the local size
/// is declared (GLSL 4.60 §7.1), even where the declaration comes later in the source.
#[test]
fn compute_local_size_compile_errors() {
    let head = "#version 330\n#extension GL_ARB_compute_shader : require\n";
    let mut c = common::context(4, 4, 1);
    let max = c.get_integerv(gl::MAX_COMPUTE_WORK_GROUP_INVOCATIONS)[0];
    assert_eq!(max, 1024);
    compiles(
        gl::COMPUTE_SHADER,
        &format!("{head}layout(local_size_x = 16, local_size_y = 8, local_size_z = 8) in;\nvoid main() {{}}\n"),
    );
    let log = compile_error(
        gl::COMPUTE_SHADER,
        &format!("{head}layout(local_size_x = 11, local_size_y = 11, local_size_z = 11) in;\nvoid main() {{}}\n"),
    );
    assert!(
        log.contains("GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS"),
        "{log}"
    );
    let log = compile_error(
        gl::COMPUTE_SHADER,
        &format!(
            "{head}void main() {{ uvec3 s = gl_WorkGroupSize; }}\nlayout(local_size_x = 3) in;\n"
        ),
    );
    assert!(log.contains("gl_WorkGroupSize"), "{log}");
    compiles(
        gl::COMPUTE_SHADER,
        &format!(
            "{head}layout(local_size_x = 3) in;\nvoid main() {{ uvec3 s = gl_WorkGroupSize; }}\n"
        ),
    );
}

/// GL_ARB_shader_image_load_store's compile errors that came with listing it: an argument
/// keeps coherent, volatile and restrict through a parameter as it keeps readonly and
/// writeonly; memory qualifiers on a sampler; two format qualifiers; images as ?: operands;
/// the r32f imageAtomicExchange before GLSL 4.50.
#[test]
fn image_compile_errors() {
    let head = "#version 150\n#extension GL_ARB_shader_image_load_store : require\n";
    for q in ["coherent", "volatile", "restrict", "readonly", "writeonly"] {
        let call = |param: &str| {
            format!(
                "{head}layout(rgba32f) {q} uniform image2D x;\nvoid f({param} image2D y) {{}}\nvoid main() {{ f(x); }}\n"
            )
        };
        let log = compile_error(gl::FRAGMENT_SHADER, &call(""));
        assert!(!log.is_empty(), "{q}");
        compiles(gl::FRAGMENT_SHADER, &call(q));
        let log = compile_error(
            gl::FRAGMENT_SHADER,
            &format!("{head}{q} uniform sampler2D s;\nvoid main() {{}}\n"),
        );
        assert!(log.contains("memory qualifiers"), "{q}: {log}");
    }
    // Two layout qualifiers need GLSL 4.20 or GL_ARB_shading_language_420pack; with it, two
    // different formats are still two format qualifiers (one of a name would override).
    let log = compile_error(
        gl::FRAGMENT_SHADER,
        &format!("{head}layout(rgba32f) layout(rgba32f) uniform image2D i;\nvoid main() {{}}\n"),
    );
    assert!(log.contains("more than one layout qualifier"), "{log}");
    let log = compile_error(
        gl::FRAGMENT_SHADER,
        &format!("{head}#extension GL_ARB_shading_language_420pack : enable\nlayout(rgba32f) layout(r32f) uniform image2D i;\nvoid main() {{}}\n"),
    );
    assert!(log.contains("more than one format"), "{log}");
    let log = compile_error(
        gl::FRAGMENT_SHADER,
        &format!("{head}layout(rgba32f) uniform image2D i;\nvoid main() {{ true ? i : i; }}\n"),
    );
    assert!(log.contains("?:"), "{log}");
    let exchange = "layout(r32f) uniform image2D f;\n\
                    void main() { float o = imageAtomicExchange(f, ivec2(0), 1.0); }\n";
    let log = compile_error(gl::FRAGMENT_SHADER, &format!("{head}{exchange}"));
    assert!(log.contains("r32f from GLSL 4.50"), "{log}");
    compiles(gl::FRAGMENT_SHADER, &format!("#version 450\n{exchange}"));
}

/// GL 4.5 core §8.26: invalid image loads. A texel outside the image reads R, G, B = 0
/// (A = 1 for a format without alpha, a zero texel decoded, as llvmpipe); a unit whose
/// level is below the texture's base level, or whose non-base level is not mipmap
/// complete, is invalid and reads 0; the base level of a texture that is only
/// base-complete is valid.
#[test]
fn invalid_image_loads() {
    let src = "#version 430\n\
        layout(local_size_x = 1) in;\n\
        layout(r32f, binding = 0) readonly uniform image2D a;\n\
        layout(r32f, binding = 1) readonly uniform image2D b;\n\
        layout(r32f, binding = 2) readonly uniform image2D c;\n\
        layout(r32f, binding = 3) readonly uniform image2D d;\n\
        layout(std430, binding = 0) buffer Out { vec4 o[5]; };\n\
        void main() {\n\
            o[0] = imageLoad(a, ivec2(1, 1));\n\
            o[1] = imageLoad(a, ivec2(9, 1));\n\
            o[2] = imageLoad(b, ivec2(0, 0));\n\
            o[3] = imageLoad(c, ivec2(0, 0));\n\
            o[4] = imageLoad(d, ivec2(0, 0));\n\
        }";
    let out = on_1_and_2_workers(|c| {
        let (p, ok, log) = link(c, &[(gl::COMPUTE_SHADER, src)]);
        assert!(ok, "{log}");
        c.use_program(p);
        let fill = |v: f32, n: usize| -> Vec<u8> { (0..n).flat_map(|_| v.to_le_bytes()).collect() };
        // Unit 0: a 4×4 level of 7.0.
        let t = c.gen_textures(3);
        c.bind_texture(gl::TEXTURE_2D, t[0]);
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::R32F as i32,
            4,
            4,
            0,
            gl::RED,
            gl::FLOAT,
            Some(&fill(7.0, 16)),
        );
        c.bind_image_texture(0, t[0], 0, false, 0, gl::READ_ONLY, gl::R32F);
        // Units 1 and 2: level 1 of a chain whose level 1 has the wrong size (not mipmap
        // complete), and level 0 of it (base-complete: valid).
        c.bind_texture(gl::TEXTURE_2D, t[1]);
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::R32F as i32,
            4,
            4,
            0,
            gl::RED,
            gl::FLOAT,
            Some(&fill(3.0, 16)),
        );
        c.tex_image_2d(
            gl::TEXTURE_2D,
            1,
            gl::R32F as i32,
            1,
            1,
            0,
            gl::RED,
            gl::FLOAT,
            Some(&fill(5.0, 1)),
        );
        c.bind_image_texture(1, t[1], 1, false, 0, gl::READ_ONLY, gl::R32F);
        c.bind_image_texture(2, t[1], 0, false, 0, gl::READ_ONLY, gl::R32F);
        // Unit 3: level 0 of a complete chain whose base level is 1.
        c.bind_texture(gl::TEXTURE_2D, t[2]);
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::R32F as i32,
            2,
            2,
            0,
            gl::RED,
            gl::FLOAT,
            Some(&fill(4.0, 4)),
        );
        c.tex_image_2d(
            gl::TEXTURE_2D,
            1,
            gl::R32F as i32,
            1,
            1,
            0,
            gl::RED,
            gl::FLOAT,
            Some(&fill(6.0, 1)),
        );
        c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_BASE_LEVEL, 1);
        c.bind_image_texture(3, t[2], 0, false, 0, gl::READ_ONLY, gl::R32F);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let b = ssbo(c, 0, &[0xDEAD; 20]);
        c.dispatch_compute(1, 1, 1);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        words_of(c, b)
    });
    let f = |v: f32| v.to_bits();
    assert_eq!(out[0..4], [f(7.0), f(0.0), f(0.0), f(1.0)], "inside");
    assert_eq!(
        out[4..8],
        [f(0.0), f(0.0), f(0.0), f(1.0)],
        "outside: a zero r32f texel"
    );
    assert_eq!(out[8..12], [0; 4], "level 1 not mipmap complete: invalid");
    assert_eq!(
        out[12..16],
        [f(3.0), f(0.0), f(0.0), f(1.0)],
        "base level, base-complete"
    );
    assert_eq!(out[16..20], [0; 4], "level 0 below base level 1: invalid");
}

/// A draw whose program may store to images renders into texture A (its framebuffer)
/// while A is also bound to an image unit the draw only reads, and stores into texture B:
/// A keeps what was rendered and B gets the stores. Only texels the shaders changed go back
/// from the draw's image copies, so an unwritten copy never undoes the rendering.
#[test]
fn image_write_back_keeps_what_the_draw_rendered() {
    let vs = "#version 330\n\
        void main() {\n\
            int id = gl_VertexID;\n\
            gl_Position = vec4((id & 1) == 1 ? 1.0 : -1.0, (id & 2) == 2 ? 1.0 : -1.0, 0.5, 1.0);\n\
        }";
    let fs = "#version 330\n#extension GL_ARB_shader_image_load_store : require\n\
        layout(rgba8) readonly uniform image2D a;\n\
        layout(rgba8) writeonly uniform image2D b;\n\
        out vec4 color;\n\
        void main() {\n\
            ivec2 p = ivec2(gl_FragCoord.xy);\n\
            if (p.x == 0 && p.y == 0) imageStore(b, p, vec4(0.0, 0.0, 1.0, 1.0) + imageLoad(a, p) * 0.0);\n\
            color = vec4(0.0, 1.0, 0.0, 1.0);\n\
        }";
    let (a_px, b_px) = on_1_and_2_workers(|c| {
        let p = common::program(c, vs, fs);
        c.use_program(p);
        let t = c.gen_textures(2);
        for &tex in &t {
            c.bind_texture(gl::TEXTURE_2D, tex);
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 8, 8);
            let red: Vec<u8> = (0..64).flat_map(|_| [255u8, 0, 0, 255]).collect();
            c.tex_sub_image_2d(
                gl::TEXTURE_2D,
                0,
                0,
                0,
                8,
                8,
                gl::RGBA,
                gl::UNSIGNED_BYTE,
                &red,
            );
        }
        c.bind_image_texture(0, t[0], 0, false, 0, gl::READ_ONLY, gl::RGBA8);
        c.bind_image_texture(1, t[1], 0, false, 0, gl::WRITE_ONLY, gl::RGBA8);
        let (la, lb) = (
            c.get_uniform_location(p, "a"),
            c.get_uniform_location(p, "b"),
        );
        c.uniform_1i(la, 0);
        c.uniform_1i(lb, 1);
        let f = c.gen_framebuffers(1)[0];
        c.bind_framebuffer(gl::FRAMEBUFFER, f);
        c.framebuffer_texture_2d(
            gl::FRAMEBUFFER,
            gl::COLOR_ATTACHMENT0,
            gl::TEXTURE_2D,
            t[0],
            0,
        );
        c.viewport(0, 0, 8, 8);
        c.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let mut px = Vec::new();
        for &tex in &t {
            c.bind_texture(gl::TEXTURE_2D, tex);
            px.push(c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE));
        }
        (px[0].clone(), px[1].clone())
    });
    assert!(
        a_px.chunks(4).all(|x| x == [0, 255, 0, 255]),
        "A holds the rendering: {:?}",
        &a_px[..8]
    );
    assert_eq!(b_px[..4], [0, 0, 255, 255], "B's stored texel");
    assert!(
        b_px[4..].chunks(4).all(|x| x == [255, 0, 0, 255]),
        "the rest of B as uploaded"
    );
}

/// With GL_ARB_bindless_texture, image locals, parameters and stage outputs and inputs
/// carry their memory qualifiers like image uniforms, so `writeonly image2D u = img;`, an
/// `inout writeonly image2D` argument and a `flat out writeonly image2D` compile.
#[test]
fn bindless_image_variables_keep_their_qualifiers() {
    let head = "#version 330\n#extension GL_ARB_bindless_texture : require\n\
                #extension GL_ARB_shader_image_load_store : enable\n";
    compiles(
        gl::FRAGMENT_SHADER,
        &format!(
            "{head}layout(bindless_image) writeonly uniform image2D img;\n\
             void f(inout writeonly image2D p) {{}}\n\
             void main() {{ writeonly image2D u = img; f(u); imageStore(u, ivec2(0), vec4(1.0)); }}\n"
        ),
    );
    compiles(
        gl::VERTEX_SHADER,
        &format!(
            "{head}layout(bindless_image) writeonly uniform image2D img;\n\
             flat out writeonly image2D image_vs;\n\
             void main() {{ image_vs = img; gl_Position = vec4(0.0); }}\n"
        ),
    );
    let log = compile_error(
        gl::FRAGMENT_SHADER,
        &format!(
            "{head}layout(bindless_image) writeonly uniform image2D img;\n\
             out vec4 o;\n\
             void main() {{ writeonly image2D u = img; o = imageLoad(u, ivec2(0)); }}\n"
        ),
    );
    assert!(log.contains("writeonly"), "{log}");
}

/// glGetImageHandleARB's errors in ARB_bindless_texture's order: an incomplete texture is
/// INVALID_OPERATION; on a complete one, a level it does not have or a layer past the
/// level's layers is INVALID_VALUE, and `layered` on a 2D texture INVALID_OPERATION.
#[test]
fn image_handle_errors() {
    let mut c = common::context(4, 4, 1);
    let t = c.gen_textures(2);
    c.bind_texture(gl::TEXTURE_2D, t[0]);
    assert_eq!(c.get_image_handle_arb(t[0], 0, false, 0, gl::RGBA32F), 0);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION, "no image: incomplete");
    c.bind_texture(gl::TEXTURE_2D, t[1]);
    c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA32F, 4, 4);
    for (level, layered, layer, want) in [
        (42, false, 0, gl::INVALID_VALUE),
        (0, false, 42, gl::INVALID_VALUE),
        (0, true, 0, gl::INVALID_OPERATION),
    ] {
        assert_eq!(
            c.get_image_handle_arb(t[1], level, layered, layer, gl::RGBA32F),
            0
        );
        assert_eq!(
            c.get_error(),
            want,
            "level {level}, layered {layered}, layer {layer}"
        );
    }
    assert_ne!(c.get_image_handle_arb(t[1], 0, false, 0, gl::RGBA32F), 0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}
