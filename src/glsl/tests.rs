//! Tests of the front end as a whole: IR shape of the interface (slots, uniforms, blocks,
//! bindless flags), and lowering semantics checked by running the IR through the reference
//! interpreter (`ir::interp`), the same oracle the JIT is tested against.
//! Plus the property tests that feed `compile` garbage and mutated shaders.

use crate::ir::{BaseType, Builtin, BuiltinOutput, Interpolation, Module, Op, Stage, Stmt};

use super::compile;
use super::verify::verify_module;

fn ok(stage: Stage, src: &str) -> Module {
    let out = compile(stage, src);
    let m = out
        .module
        .unwrap_or_else(|| panic!("expected to compile:\n{}\n{src}", out.info_log));
    verify_module(&m).unwrap_or_else(|e| panic!("malformed IR: {e}\n{src}"));
    m
}

fn fails(stage: Stage, src: &str) -> String {
    let out = compile(stage, src);
    assert!(
        out.module.is_none() && !out.compiled,
        "expected an error:\n{src}"
    );
    out.info_log
}

// ---- running lowered IR: the reference interpreter ----

fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

/// Runs a module through `ir::interp` with the same inputs in all 4 lanes (a uniform quad:
/// derivatives are 0) and returns lane 0's output words (None when discarded). Input `i`
/// is word `i` of the stage's input slots; builtins have fixed values (gl_FragCoord =
/// (10.5, 20.5, 0.25, 1), gl_VertexID 7, gl_InstanceID 2, front facing).
fn exec(m: &Module, uniforms: &[u32], inputs: &[u32], blocks: &[Vec<u8>]) -> Option<Vec<u32>> {
    let words = m.inputs.iter().map(|i| i.slot + i.words).max().unwrap_or(0) as usize;
    let mut soa = vec![0u32; words.max(inputs.len()) * 4];
    for (i, &w) in inputs.iter().enumerate() {
        soa[i * 4..i * 4 + 4].fill(w);
    }
    let mut builtins = [0u32; Builtin::COUNT * 4];
    for (bi, value) in [
        (Builtin::VertexId, 7),
        (Builtin::InstanceId, 2),
        (Builtin::FragCoordX, 10.5f32.to_bits()),
        (Builtin::FragCoordY, 20.5f32.to_bits()),
        (Builtin::FragCoordZ, 0.25f32.to_bits()),
        (Builtin::FragCoordW, 1.0f32.to_bits()),
        (Builtin::FrontFacing, u32::MAX),
    ] {
        builtins[bi.index() * 4..][..4].fill(value);
    }
    let blocks: Vec<&[u8]> = blocks.iter().map(|b| b.as_slice()).collect();
    // A fake texture that shows what the lowering passed: samples give (s, t, 0.5, 1),
    // texelFetch gives zeros, textureSize gives 64×32.
    let fake_texture = |r: &crate::sampler::request::TexRequest| {
        use crate::sampler::request::TexOp;
        let op = r.op;
        let mut out = [[0u32; 4]; 4];
        if op == TexOp::SampleImplicit as u32 || op == TexOp::SampleLod as u32 {
            out = [
                r.coord[0],
                r.coord[1],
                [0.5f32.to_bits(); 4],
                [1f32.to_bits(); 4],
            ];
        } else if op == TexOp::Size as u32 {
            out[0] = [64; 4];
            out[1] = [32; 4];
        }
        out
    };
    let env = crate::ir::interp::InterpEnv {
        uniforms,
        blocks: &blocks,
        storage: &[],
        texture: &fake_texture,
        quad: m.stage == Stage::Fragment,
    };
    let mut out = vec![0u32; m.func.outputs.len() * 4];
    let alive = crate::ir::interp::run(m, &env, &soa, &builtins, &mut out, 0xF);
    if alive & 1 == 0 {
        return None;
    }
    Some((0..m.func.outputs.len()).map(|k| out[k * 4]).collect())
}

/// Compiles a fragment shader whose only output is `out vec4 o` and runs it.
fn frag_out(src: &str, uniforms: &[u32]) -> Vec<f32> {
    let m = ok(Stage::Fragment, src);
    exec(&m, uniforms, &[], &[])
        .expect("not discarded")
        .into_iter()
        .map(f)
        .collect()
}

fn fu(x: f32) -> u32 {
    x.to_bits()
}

// ---- interface shape ----

#[test]
fn vertex_inputs_take_four_words_per_location() {
    let m = ok(
        Stage::Vertex,
        "#version 330 core\nin vec3 a; in mat2 m; layout(location = 5) in float s;\n\
         void main() { gl_Position = vec4(a, s) + vec4(m[1], m[0]); }",
    );
    let shape: Vec<_> = m
        .inputs
        .iter()
        .map(|i| (i.name.as_str(), i.slot, i.words, i.location))
        .collect();
    assert_eq!(
        shape,
        vec![("a", 0, 4, None), ("m", 4, 8, None), ("s", 12, 4, Some(5))]
    );
    // gl_Position = (a, s) + (m[1], m[0]): x = a.x + m[1].x = in[0] + in[8]
    let mut inputs = vec![0u32; 16];
    for (i, w) in inputs.iter_mut().enumerate() {
        *w = fu(i as f32);
    }
    let out = exec(&m, &[], &inputs, &[]).unwrap();
    let pos: Vec<f32> = out[..4].iter().map(|x| f(*x)).collect();
    assert_eq!(pos, vec![0.0 + 8.0, 1.0 + 9.0, 2.0 + 4.0, 12.0 + 5.0]);
    assert_eq!(m.outputs[0].builtin, Some(BuiltinOutput::Position));
}

#[test]
fn layout_is_a_keyword_below_1_40_when_an_extension_brings_it() {
    // piglit's arb_draw_indirect tests: #version 130 with ARB_explicit_attrib_location.
    let m = ok(
        Stage::Vertex,
        "#version 130\n#extension GL_ARB_explicit_attrib_location: require\n\
         layout(location = 3) in vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0, 1); }",
    );
    assert_eq!(m.inputs[0].location, Some(3));
    // Without it, `layout` is an identifier in 1.30 and the declaration does not parse.
    fails(
        Stage::Vertex,
        "#version 130\nlayout(location = 3) in vec2 pos;\n\
         void main() { gl_Position = vec4(pos, 0, 1); }",
    );
}

#[test]
fn fragment_interface_is_tight() {
    let m = ok(
        Stage::Fragment,
        "#version 330 core\nin vec2 uv; flat in int id; noperspective in vec3 n;\n\
         out vec4 color;\nvoid main() { color = vec4(uv, float(id), n.z); }",
    );
    let shape: Vec<_> = m
        .inputs
        .iter()
        .map(|i| (i.slot, i.words, i.interpolation))
        .collect();
    assert_eq!(
        shape,
        vec![
            (0, 2, Interpolation::Smooth),
            (2, 1, Interpolation::Flat),
            (3, 3, Interpolation::NoPerspective)
        ]
    );
    assert_eq!(m.outputs.len(), 1);
    assert_eq!(m.outputs[0].location, Some(0));
    let out = exec(
        &m,
        &[],
        &[fu(0.25), fu(0.5), 3, fu(1.0), fu(2.0), fu(3.0)],
        &[],
    )
    .unwrap();
    assert_eq!(
        out.into_iter().map(f).collect::<Vec<_>>(),
        vec![0.25, 0.5, 3.0, 3.0]
    );
}

/// GLSL 1.50 §4.3.8.1: the gl_FragCoord redeclaration sets the module's flags, adds no
/// input, and leaves gl_FragCoord reading the same builtins.
#[test]
fn frag_coord_redeclaration_sets_layout_flags() {
    let flags = |decl: &str| {
        let m = ok(
            Stage::Fragment,
            &format!("#version 150\n{decl}\nout vec4 o;\nvoid main() {{ o = gl_FragCoord; }}"),
        );
        assert!(m.inputs.is_empty(), "{decl}: {:?}", m.inputs);
        (
            m.frag_coord_origin_upper_left,
            m.frag_coord_pixel_center_integer,
        )
    };
    assert_eq!(flags(""), (false, false));
    assert_eq!(flags("in vec4 gl_FragCoord;"), (false, false));
    assert_eq!(
        flags("layout(origin_upper_left) in vec4 gl_FragCoord;"),
        (true, false)
    );
    assert_eq!(
        flags("layout(pixel_center_integer) in vec4 gl_FragCoord;"),
        (false, true)
    );
    assert_eq!(
        flags("layout(pixel_center_integer, origin_upper_left) in vec4 gl_FragCoord;"),
        (true, true)
    );
    // Repeating the same redeclaration is allowed, even after a use.
    assert_eq!(
        flags(
            "layout(origin_upper_left) in vec4 gl_FragCoord;\n\
             float f() { return gl_FragCoord.y; }\n\
             layout(origin_upper_left) in vec4 gl_FragCoord;"
        ),
        (true, false)
    );
}

#[test]
fn frag_coord_redeclaration_errors() {
    let cases = [
        (
            "#version 150\nout vec4 o;\nvoid main() { o = gl_FragCoord; }\n\
             layout(origin_upper_left) in vec4 gl_FragCoord;",
            "must be redeclared before its first use",
        ),
        (
            "#version 150\nlayout(origin_upper_left) in vec4 gl_FragCoord;\n\
             in vec4 gl_FragCoord;\nout vec4 o;\nvoid main() { o = gl_FragCoord; }",
            "redeclared with different layout qualifiers",
        ),
        (
            "#version 150\nin vec3 gl_FragCoord;\nout vec4 o;\nvoid main() { o = vec4(1.0); }",
            "must be redeclared as vec4",
        ),
        (
            "#version 150\nflat in vec4 gl_FragCoord;\nout vec4 o;\nvoid main() { o = vec4(1.0); }",
            "can only be redeclared as",
        ),
        (
            "#version 150\nlayout(location = 1) in vec4 gl_FragCoord;\nout vec4 o;\nvoid main() { o = vec4(1.0); }",
            "not valid on `gl_FragCoord'",
        ),
        (
            "#version 140\nin vec4 gl_FragCoord;\nout vec4 o;\nvoid main() { o = vec4(1.0); }",
            "requires GLSL 1.50",
        ),
        (
            "#version 150\nlayout(origin_upper_left) in;\nout vec4 o;\nvoid main() { o = vec4(1.0); }",
            "only valid on a redeclaration of `gl_FragCoord'",
        ),
        (
            "#version 150\nlayout(pixel_center_integer) out vec4 o;\nvoid main() { o = vec4(1.0); }",
            "only valid on a redeclaration of `gl_FragCoord'",
        ),
    ];
    for (src, want) in cases {
        let log = fails(Stage::Fragment, src);
        assert!(log.contains(want), "{src}\nwanted `{want}' in:\n{log}");
    }
}

#[test]
fn uniform_leaves_and_offsets() {
    let m = ok(
        Stage::Fragment,
        "#version 330 core\nstruct L { vec3 c; float k[2]; };\nuniform float a;\n\
         uniform L lights[2];\nuniform mat2 m;\nuniform vec2 arr[3];\nout vec4 o;\n\
         void main() { o = vec4(a + lights[1].k[1] + m[1][0] + arr[2].y); }",
    );
    let u: Vec<_> = m
        .uniforms
        .iter()
        .map(|u| (u.name.as_str(), u.offset, u.array_len))
        .collect();
    assert_eq!(
        u,
        vec![
            ("a", 0, None),
            ("lights[0].c", 1, None),
            ("lights[0].k[0]", 4, Some(2)),
            ("lights[1].c", 6, None),
            ("lights[1].k[0]", 9, Some(2)),
            ("m", 11, None),
            ("arr[0]", 15, Some(3)),
        ]
    );
    assert_eq!(m.uniform_words, 21);
    let mut words = vec![0u32; 21];
    words[0] = fu(1.0);
    words[10] = fu(10.0);
    words[13] = fu(100.0);
    words[20] = fu(1000.0);
    assert_eq!(frag_out_m(&m, &words)[0], 1111.0);
}

fn frag_out_m(m: &Module, uniforms: &[u32]) -> Vec<f32> {
    exec(m, uniforms, &[], &[])
        .unwrap()
        .into_iter()
        .map(f)
        .collect()
}

#[test]
fn std140_block_members_and_loads() {
    let m = ok(
        Stage::Fragment,
        "#version 420 core\nlayout(std140, binding = 2) uniform B { float a; vec3 v; float w[2]; mat2 m; } b;\n\
         uniform int i;\nout vec4 o;\n\
         void main() { o = vec4(b.a, b.v.z, b.w[i], b.m[1].y); }",
    );
    assert_eq!(m.blocks.len(), 1);
    let blk = &m.blocks[0];
    assert_eq!(blk.binding, Some(2));
    let mem: Vec<_> = blk
        .members
        .iter()
        .map(|x| (x.name.as_str(), x.offset, x.array_stride, x.matrix_stride))
        .collect();
    assert_eq!(
        mem,
        vec![
            ("B.a", 0, 0, 0),
            ("B.v", 16, 0, 0),
            ("B.w[0]", 32, 16, 0),
            ("B.m", 64, 0, 16)
        ]
    );
    assert_eq!(blk.size, 96);
    let mut buf = vec![0u8; 96];
    let put = |buf: &mut Vec<u8>, off: usize, x: f32| {
        buf[off..off + 4].copy_from_slice(&x.to_le_bytes());
    };
    put(&mut buf, 0, 1.0);
    put(&mut buf, 24, 2.0);
    put(&mut buf, 48, 3.0);
    put(&mut buf, 84, 4.0);
    let out = exec(&m, &[1], &[], &[buf]).unwrap();
    assert_eq!(
        out.into_iter().map(f).collect::<Vec<_>>(),
        vec![1.0, 2.0, 3.0, 4.0]
    );
}

#[test]
fn bindless_flags_and_sampler_interface() {
    let m = ok(
        Stage::Fragment,
        "#version 450 core\n#extension GL_ARB_bindless_texture : require\n\
         layout(bound_sampler) uniform;\nlayout(bindless_sampler) uniform sampler2D a;\n\
         uniform sampler2D b;\nflat in sampler2D h;\nout vec4 o;\n\
         void main() { o = texture(a, vec2(0.5)) + texture(b, vec2(0.5)) + texture(h, vec2(0.0)); }",
    );
    assert!(m.global_bound_sampler && !m.global_bindless_sampler);
    let u: Vec<_> = m
        .uniforms
        .iter()
        .map(|u| (u.name.as_str(), u.offset, u.ty.words(), u.bindless, u.bound))
        .collect();
    assert_eq!(u, vec![("a", 0, 2, true, false), ("b", 2, 2, false, true)]);
    assert_eq!(m.inputs[0].ty.base, BaseType::Sampler2D);
    assert_eq!(m.inputs[0].words, 2);
    let texs = count_stmts(&m.func.body, &|s| matches!(s, Stmt::Texture { .. }));
    assert_eq!(texs, 3);

    let v = ok(
        Stage::Vertex,
        "#version 450 core\n#extension GL_ARB_bindless_texture : require\n\
         in sampler2D s; in vec2 p; flat out sampler2D t;\n\
         void main() { t = s; gl_Position = vec4(p, 0.0, 1.0); }",
    );
    let ins: Vec<_> = v.inputs.iter().map(|i| (i.slot, i.words)).collect();
    assert_eq!(ins, vec![(0, 4), (4, 4)]);
    // Outputs: gl_Position (4 words) then t (2 words): t = the handle words lo, hi.
    let out = exec(
        &v,
        &[],
        &[0xAAAA, 0xBBBB, 0, 0, fu(1.0), fu(2.0), 0, 0],
        &[],
    )
    .unwrap();
    assert_eq!(&out[4..], &[0xAAAA, 0xBBBB]);
}

fn count_stmts(body: &[Stmt], pred: &dyn Fn(&Stmt) -> bool) -> usize {
    body.iter()
        .map(|s| {
            pred(s) as usize
                + match s {
                    Stmt::If {
                        then_body,
                        else_body,
                        ..
                    } => count_stmts(then_body, pred) + count_stmts(else_body, pred),
                    Stmt::Loop {
                        body, continuing, ..
                    } => count_stmts(body, pred) + count_stmts(continuing, pred),
                    Stmt::Block { body, .. } => count_stmts(body, pred),
                    _ => 0,
                }
        })
        .sum()
}

#[test]
fn loops_functions_and_switch_have_the_documented_shape() {
    let m = ok(
        Stage::Fragment,
        "#version 330 core\nuniform int k;\nout vec4 o;\nfloat f(float x) { if (x > 1.0) return 2.0; return x; }\n\
         void main() { float s = 0.0; for (int i = 0; i < 3; i++) s += f(float(i));\n\
         switch (k) { case 1: s = 1.0; break; default: s = 2.0; } o = vec4(s); }",
    );
    let loops_with_continuing = count_stmts(
        &m.func.body,
        &|s| matches!(s, Stmt::Loop { continuing, .. } if !continuing.is_empty()),
    );
    assert_eq!(loops_with_continuing, 1);
    let blocks = count_stmts(&m.func.body, &|s| matches!(s, Stmt::Block { .. }));
    assert_eq!(blocks, 2, "the inlined call and the switch");
    let leaves = count_stmts(&m.func.body, &|s| matches!(s, Stmt::Leave(_)));
    assert!(leaves >= 3);
}

// ---- semantics, run for one lane ----

#[test]
fn swizzles_and_lvalue_swizzles() {
    let o = frag_out(
        "#version 330 core\nout vec4 o;\nvoid main() { vec4 v = vec4(1, 2, 3, 4);\n\
         v.zx = vec2(7.0, 8.0); v.w += v.y; o = v.wzyx; o.y = v[0]; }",
        &[],
    );
    assert_eq!(o, vec![6.0, 8.0, 2.0, 8.0]);
}

#[test]
fn matrices_multiply_column_major() {
    let o = frag_out(
        "#version 330 core\nout vec4 o;\nvoid main() {\n\
         mat2 m = mat2(1.0, 2.0, 3.0, 4.0);\n\
         vec2 a = m * vec2(1.0, 10.0); vec2 b = vec2(1.0, 10.0) * m;\n\
         mat2 p = m * m; o = vec4(a, b.x + p[1][0], determinant(m) + inverse(m)[0][0]); }",
        &[],
    );
    // m = [[1,3],[2,4]] (rows); m*v = (31, 42); v*m = (21, 43); (m*m)[1][0] = 1*3+3*4 = 15
    // det = -2; inverse[0][0] = 4 / -2 = -2
    assert_eq!(o, vec![31.0, 42.0, 21.0 + 15.0, -4.0]);
}

#[test]
fn control_flow_semantics() {
    let src = "#version 330 core\nuniform int mode;\nout vec4 o;\n\
        int f(int x) { for (int i = 0; i < 10; i++) { if (i == x) return i * 10; } return -1; }\n\
        void main() { float acc = 0.0; int i = 0;\n\
        while (i < 10) { i++; if (i == 3) continue; if (i > 5) break; acc += float(i); }\n\
        int j = 0; do { j += 2; if (j == 4) continue; } while (j < 7);\n\
        float sw = 0.0; switch (mode) { case 0: sw += 1.0; case 1: case 2: sw += 2.0; break; default: sw = -1.0; }\n\
        o = vec4(acc, float(j), sw, float(f(mode))); }";
    // acc = 1 + 2 + 4 + 5 = 12; j = 8
    assert_eq!(frag_out(src, &[0]), vec![12.0, 8.0, 3.0, 0.0]);
    assert_eq!(frag_out(src, &[2]), vec![12.0, 8.0, 2.0, 20.0]);
    assert_eq!(frag_out(src, &[9]), vec![12.0, 8.0, -1.0, 90.0]);
    let neg = (-5i32) as u32;
    assert_eq!(frag_out(src, &[neg]), vec![12.0, 8.0, -1.0, -1.0]);
}

#[test]
fn out_and_inout_parameters_copy_back() {
    let o = frag_out(
        "#version 330 core\nout vec4 o;\n\
         void split(vec4 v, out vec2 lo, out vec2 hi) { lo = v.xy; hi = v.zw; }\n\
         void bump(inout float x) { x += 1.0; if (x > 2.0) return; x *= 2.0; }\n\
         void main() { vec2 a, b; split(vec4(1, 2, 3, 4), a, b); float t = 0.5; bump(t);\n\
         float u = 5.0; bump(u); o = vec4(a.y, b.x, t, u); }",
        &[],
    );
    assert_eq!(o, vec![2.0, 3.0, 3.0, 6.0]);
}

#[test]
fn dynamic_indexing_reads_and_writes() {
    let src = "#version 330 core\nuniform int k;\nuniform float u[3];\nout vec4 o;\n\
        void main() { float a[4] = float[4](1.0, 2.0, 3.0, 4.0); a[k] = 10.0 + a[k];\n\
        vec3 v = vec3(5.0, 6.0, 7.0); v[k] = 0.0;\n\
        o = vec4(a[0] + a[1] + a[2] + a[3], v.x + v.y + v.z, u[k], float(a.length())); }";
    let us = |k: u32| vec![k, fu(100.0), fu(200.0), fu(300.0)];
    assert_eq!(frag_out(src, &us(1)), vec![20.0, 12.0, 200.0, 4.0]);
    assert_eq!(frag_out(src, &us(2)), vec![20.0, 11.0, 300.0, 4.0]);
}

#[test]
fn short_circuit_and_ternary_only_evaluate_taken_side() {
    let o = frag_out(
        "#version 330 core\nout vec4 o;\nvoid main() { int n = 0;\n\
         bool a = false && (n++ > 0); bool b = true || (n++ > 0);\n\
         float t = n == 0 ? 1.0 : float(n++);\n\
         o = vec4(float(n), t, float(a), float(b)); }",
        &[],
    );
    assert_eq!(o, vec![0.0, 1.0, 0.0, 1.0]);
}

#[test]
fn integer_operators_and_builtins() {
    let o = frag_out(
        "#version 400 core\nout vec4 o;\nvoid main() {\n\
         int a = -7; int q = a / 2; int r = a % 3; uint u = 0xF0u >> 4;\n\
         int bits = bitCount(0xFFu) + findMSB(256) + findLSB(8);\n\
         uint hi, lo; umulExtended(0xFFFFFFFFu, 0xFFFFFFFFu, hi, lo);\n\
         int shi, slo; imulExtended(-3, 5, shi, slo);\n\
         uint c; uint s = uaddCarry(0xFFFFFFFFu, 2u, c);\n\
         o = vec4(float(q * 10 + r), float(u) + float(bits), float(hi == 0xFFFFFFFEu && lo == 1u && shi == -1 && slo == -15), float(s + c * 10u)); }",
        &[],
    );
    assert_eq!(o, vec![-31.0, 15.0 + 8.0 + 8.0 + 3.0, 1.0, 11.0]);
}

#[test]
fn packing_round_trips() {
    let o = frag_out(
        "#version 400 core\nout vec4 o;\nvoid main() {\n\
         uint p = packUnorm4x8(vec4(0.0, 1.0, 0.5, 0.25));\n\
         vec4 q = unpackUnorm4x8(p); vec2 s = unpackSnorm2x16(packSnorm2x16(vec2(-1.0, 0.5)));\n\
         o = vec4(float(p & 0xFFu), q.y, s.x, float(p >> 24)); }",
        &[],
    );
    assert_eq!(o, vec![0.0, 1.0, -1.0, 64.0]);
}

#[test]
fn geometric_builtins() {
    let o = frag_out(
        "#version 330 core\nout vec4 o;\nvoid main() {\n\
         vec3 c = cross(vec3(1, 0, 0), vec3(0, 1, 0)); vec3 n = normalize(vec3(0.0, 3.0, 4.0));\n\
         vec2 r = reflect(vec2(1.0, -1.0), vec2(0.0, 1.0));\n\
         o = vec4(c.z, n.y + length(vec2(3.0, 4.0)), r.y, smoothstep(0.0, 2.0, 1.0)); }",
        &[],
    );
    assert_eq!(o[0], 1.0);
    assert!((o[1] - 5.6).abs() < 1e-6);
    assert_eq!(o[2], 1.0);
    assert_eq!(o[3], 0.5);
}

#[test]
fn discard_and_main_return() {
    let m = ok(
        Stage::Fragment,
        "#version 330 core\nuniform int k;\nout vec4 o;\nvoid main() { o = vec4(1.0);\n\
         if (k == 1) discard; if (k == 2) return; o = vec4(2.0); }",
    );
    assert!(m.uses_discard);
    assert_eq!(exec(&m, &[1], &[], &[]), None);
    assert_eq!(exec(&m, &[2], &[], &[]).map(|v| f(v[0])), Some(1.0));
    assert_eq!(exec(&m, &[0], &[], &[]).map(|v| f(v[0])), Some(2.0));
}

#[test]
fn structs_and_constructors() {
    let o = frag_out(
        "#version 330 core\nstruct S { vec2 a; int b[2]; };\nout vec4 o;\nvoid main() {\n\
         S s = S(vec2(1.0, 2.0), int[2](3, 4)); S t = s; t.b[1] = 9;\n\
         mat3 m = mat3(mat2(5.0)); ivec2 i = ivec2(2.9, -2.9);\n\
         o = vec4(t.a.y + float(t.b[1]), float(s == t), m[2][2] + m[0][0], float(i.x + i.y)); }",
        &[],
    );
    assert_eq!(o, vec![11.0, 0.0, 6.0, 0.0]);
}

#[test]
fn builtin_inputs_and_frag_color() {
    let m = ok(
        Stage::Fragment,
        "#version 120\nvoid main() { gl_FragColor = gl_FragCoord + vec4(gl_FrontFacing ? 1.0 : 0.0); }",
    );
    assert_eq!(m.outputs[0].name, "gl_FragColor");
    assert_eq!(m.outputs[0].location, Some(0));
    let o: Vec<f32> = exec(&m, &[], &[], &[])
        .unwrap()
        .into_iter()
        .map(f)
        .collect();
    assert_eq!(o, vec![11.5, 21.5, 1.25, 2.0]);
}

#[test]
fn handle_constructors_keep_words() {
    let m = ok(
        Stage::Fragment,
        "#version 450 core\n#extension GL_ARB_bindless_texture : require\n\
         #extension GL_ARB_gpu_shader_int64 : require\nuniform uvec2 p;\nflat out uvec4 o;\n\
         void main() { sampler2D s = sampler2D(p); uint64_t h = uint64_t(s);\n\
         uvec2 back = unpackUint2x32(h); o = uvec4(back, uvec2(sampler2D(packUint2x32(p.yx)))); }",
    );
    assert_eq!(
        exec(&m, &[0x1234, 0x5678], &[], &[]).unwrap(),
        vec![0x1234, 0x5678, 0x5678, 0x1234]
    );
}

#[test]
fn errors_are_reported_in_info_log_form() {
    let log = fails(
        Stage::Fragment,
        "#version 330 core\nout vec4 o;\nvoid main() {\n  o = vec4(x);\n}",
    );
    assert_eq!(log, "0:4(12): error: `x' undeclared\n");
    let log = fails(Stage::Fragment, "#version 999\nvoid main() {}");
    // The preprocessor or the front end refuses it, whichever sees it first.
    assert!(
        log.contains("999") && log.contains("not supported"),
        "{log}"
    );
}

#[test]
fn verifier_rejects_kind_mismatch() {
    let mut m = ok(
        Stage::Fragment,
        "#version 330 core\nout vec4 o;\nvoid main() { o = vec4(1.0); }",
    );
    let v = crate::ir::Var(m.func.vars.len() as u32);
    m.func.vars.push(crate::ir::ScalarKind::I32);
    m.func.body.push(Stmt::Assign {
        dst: v,
        op: Op::Const(crate::ir::Scalar::F32(1.0)),
    });
    assert!(verify_module(&m).is_err());
}

// ---- never panic ----

mod props {
    use super::super::compile;
    use crate::ir::Stage;
    use proptest::prelude::*;

    const WORDS: &[&str] = &[
        "void",
        "main",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        ";",
        ",",
        ".",
        "=",
        "+=",
        "*",
        "-",
        "/",
        "%",
        "<<",
        ">>",
        "&&",
        "||",
        "^^",
        "?",
        ":",
        "!",
        "~",
        "++",
        "--",
        "if",
        "else",
        "for",
        "while",
        "do",
        "switch",
        "case",
        "default",
        "break",
        "continue",
        "return",
        "discard",
        "float",
        "int",
        "uint",
        "bool",
        "vec2",
        "vec4",
        "mat3",
        "ivec2",
        "sampler2D",
        "struct",
        "S",
        "x",
        "y",
        "a",
        "b",
        "in",
        "out",
        "inout",
        "uniform",
        "const",
        "flat",
        "layout",
        "location",
        "binding",
        "std140",
        "bindless_sampler",
        "1",
        "0",
        "2.5",
        "3u",
        "true",
        "texture",
        "length",
        "xyzw",
        "gl_Position",
        "gl_FragColor",
        "f",
        "0x7FFFFFFF",
        "1e40",
        "\n#version 450\n",
        "\n#extension GL_ARB_bindless_texture : require\n",
        "\n#extension GL_ARB_gpu_shader_int64 : enable\n",
        "uint64_t",
        "7ul",
    ];

    const VALID: &str = "#version 450 core\n#extension GL_ARB_bindless_texture : require\n\
        struct S { vec2 a; float b[2]; };\nuniform S s;\nuniform sampler2D t;\nin vec2 uv;\n\
        out vec4 o;\nfloat f(float x, out int k) { k = 2; return x * 2.0; }\n\
        void main() { int k; float a[3] = float[](1.0, 2.0, 3.0);\n\
        for (int i = 0; i < 3; ++i) { a[i] += f(s.b[i & 1], k); }\n\
        switch (k) { case 1: o = vec4(1.0); break; default: o = texture(t, uv); }\n\
        o.xz *= vec2(a[k], s.a.y); }";

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        #[test]
        fn token_soup_never_panics(idx in proptest::collection::vec(0usize..WORDS.len(), 0..80), frag in any::<bool>()) {
            let src: Vec<&str> = idx.iter().map(|i| WORDS[*i]).collect();
            let src = format!("#version 330 core\n{}", src.join(" "));
            let stage = if frag { Stage::Fragment } else { Stage::Vertex };
            let _ = compile(stage, &src);
        }

        #[test]
        fn mutated_valid_shader_never_panics(cuts in proptest::collection::vec((0usize..VALID.len(), 0usize..12, 0usize..WORDS.len()), 1..4)) {
            let mut src = VALID.as_bytes().to_vec();
            for (at, del, w) in cuts {
                let at = at.min(src.len());
                let end = (at + del).min(src.len());
                src.splice(at..end, WORDS[w].bytes());
            }
            let src = String::from_utf8_lossy(&src).into_owned();
            let _ = compile(Stage::Fragment, &src);
        }

        #[test]
        fn random_bytes_never_panic(s in "\\PC{0,200}") {
            let _ = compile(Stage::Fragment, &s);
        }
    }

    #[test]
    fn the_valid_seed_compiles() {
        let out = compile(Stage::Fragment, VALID);
        assert!(out.module.is_some(), "{}", out.info_log);
    }
}

#[test]
fn prototypes_allow_calls_before_definitions() {
    let o = frag_out(
        "#version 330 core\nout vec4 o;\nfloat g(float x);\n\
         float f(float x) { return g(x) + 1.0; }\nfloat g(float x) { return x * 3.0; }\n\
         void main() { o = vec4(f(2.0)); }",
        &[],
    );
    assert_eq!(o[0], 7.0);
    // GLSL 4.60 §2.1: another compilation unit may define g, so the unit compiles (with
    // no module of its own) and the link reports the missing body.
    let proto_only =
        "#version 330 core\nout vec4 o;\nfloat g(float x);\nvoid main() { o = vec4(g(1.0)); }";
    let out = compile(Stage::Fragment, proto_only);
    assert!(out.compiled && out.module.is_none(), "{}", out.info_log);
    assert!(!out.info_log.contains("error"), "{}", out.info_log);
    let linked = super::compile_units(Stage::Fragment, &[proto_only]);
    assert!(!linked.compiled && linked.module.is_none());
    assert!(
        linked
            .info_log
            .contains("function `g' is called but not defined in any compilation unit"),
        "{}",
        linked.info_log
    );
}

#[test]
fn exponential_inlining_is_refused_not_hung() {
    let mut src = String::from("#version 330 core\nout vec4 o;\nfloat f0(float x) { return x; }\n");
    for i in 1..40 {
        src.push_str(&format!(
            "float f{i}(float x) {{ return f{p}(x) + f{p}(x + 1.0); }}\n",
            p = i - 1
        ));
    }
    src.push_str("void main() { o = vec4(f39(1.0)); }");
    let log = fails(Stage::Fragment, &src);
    assert!(log.contains("too large"), "{log}");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for (open, close) in [("(", ")"), ("-", ""), ("{", "}"), ("!", "")] {
        let src = format!(
            "#version 330 core\nout vec4 o;\nvoid main() {{ bool b = true; float x = 1.0; {}x{}; }}",
            open.repeat(190),
            close.repeat(190)
        );
        let _ = compile(Stage::Fragment, &src);
        let src = format!(
            "#version 330 core\nout vec4 o;\nvoid main() {{ {}x{}; }}",
            open.repeat(5000),
            close.repeat(5000)
        );
        assert!(compile(Stage::Fragment, &src).module.is_none());
    }
}

#[test]
fn frag_data_writes_numbered_outputs() {
    let m = ok(
        Stage::Fragment,
        "#version 120\nvoid main() { gl_FragData[0] = vec4(1.0); gl_FragData[1] = vec4(2.0); }",
    );
    assert_eq!(m.outputs[0].name, "gl_FragData");
    assert_eq!(m.outputs[0].array_len, Some(8));
    let out = exec(&m, &[], &[], &[]).unwrap();
    assert_eq!(f(out[0]), 1.0);
    assert_eq!(f(out[4]), 2.0);
    let log = fails(
        Stage::Fragment,
        "#version 120\nvoid main() { gl_FragData[0] = vec4(1.0); gl_FragColor = vec4(2.0); }",
    );
    assert!(log.contains("cannot both be used"), "{log}");
}

#[test]
fn const_in_parameters_are_read_only() {
    let o = frag_out(
        "#version 330 core\nout vec4 o;\nfloat f(const in float x, const float y) { return x + y; }\n\
         void main() { o = vec4(f(1.0, 2.0)); }",
        &[],
    );
    assert_eq!(o[0], 3.0);
    let log = fails(
        Stage::Fragment,
        "#version 330 core\nout vec4 o;\nfloat f(const in float x) { x = 1.0; return x; }\n\
         void main() { o = vec4(f(1.0)); }",
    );
    assert!(log.contains("read-only"), "{log}");
}

#[test]
fn interface_blocks_name_members_by_block() {
    let v = ok(
        Stage::Vertex,
        "#version 330 core\nin vec4 p;\nout VS_OUT { vec2 uv; flat int id; } vs_out;\n\
         void main() { vs_out.uv = p.xy; vs_out.id = 3; gl_Position = p; }",
    );
    let outs: Vec<_> = v
        .outputs
        .iter()
        .map(|o| (o.name.as_str(), o.slot, o.words, o.interpolation))
        .collect();
    assert_eq!(
        outs,
        vec![
            ("gl_Position", 0, 4, Interpolation::Smooth),
            ("VS_OUT.uv", 4, 2, Interpolation::Smooth),
            ("VS_OUT.id", 6, 1, Interpolation::Flat)
        ]
    );
    let out = exec(&v, &[], &[fu(1.0), fu(2.0), fu(3.0), fu(4.0)], &[]).unwrap();
    assert_eq!(&out[4..], &[fu(1.0), fu(2.0), 3]);
    let f_ = ok(
        Stage::Fragment,
        "#version 330 core\nin VS_OUT { vec2 uv; flat int id; } fs_in;\nout vec4 o;\n\
         void main() { o = vec4(fs_in.uv, float(fs_in.id), 1.0); }",
    );
    let ins: Vec<_> = f_
        .inputs
        .iter()
        .map(|i| (i.name.as_str(), i.slot))
        .collect();
    assert_eq!(ins, vec![("VS_OUT.uv", 0), ("VS_OUT.id", 2)]);
    let out = exec(&f_, &[], &[fu(5.0), fu(6.0), 7], &[]).unwrap();
    assert_eq!(
        out.into_iter().map(f).collect::<Vec<_>>(),
        vec![5.0, 6.0, 7.0, 1.0]
    );
}

#[test]
fn projective_and_offset_fetches() {
    let o = frag_out(
        "#version 330 core\nuniform sampler2D t;\nout vec4 o;\n\
         void main() { vec4 a = textureProj(t, vec3(1.0, 2.0, 4.0)); vec4 b = textureProj(t, vec4(2.0, 4.0, 0.0, 2.0));\n\
         vec4 c = texelFetchOffset(t, ivec2(1, 2), 0, ivec2(1, -1)); o = vec4(a.xy, b.xy) + c; }",
        &[0, 0],
    );
    assert_eq!(o, vec![0.25, 0.5, 1.0, 2.0]);
    let m = ok(
        Stage::Fragment,
        "#version 120\nuniform sampler2D t;\nvoid main() { gl_FragColor = texture2DProj(t, vec3(1.0, 1.0, 2.0)); }",
    );
    assert_eq!(
        count_stmts(&m.func.body, &|s| matches!(s, Stmt::Texture { .. })),
        1
    );
}

/// GL_ARB_draw_instanced's gl_InstanceIDARB is gl_InstanceID under its older name.
#[test]
fn instance_id_arb_is_instance_id() {
    let m = ok(
        Stage::Vertex,
        "#version 130\n#extension GL_ARB_draw_instanced : enable\n\
         void main() { gl_Position = vec4(float(gl_InstanceIDARB)); }",
    );
    assert_eq!(
        count_stmts(&m.func.body, &|s| matches!(
            s,
            Stmt::Assign {
                op: Op::Builtin(Builtin::InstanceId),
                ..
            }
        )),
        1
    );
}

/// texelFetchOffset's offset is a constant in [-8, 7] like every other offset form's
/// (GLSL 4.60 §8.9.2, gl_MinProgramTexelOffset / gl_MaxProgramTexelOffset).
#[test]
fn texel_fetch_offset_is_range_checked() {
    let src = |off: &str| {
        format!(
            "#version 330 core\nuniform sampler2D t;\nuniform sampler1D u;\nout vec4 o;\n\
             void main() {{ o = texelFetchOffset(t, ivec2(1, 2), 0, {off}); }}"
        )
    };
    ok(Stage::Fragment, &src("ivec2(-8, 7)"));
    for off in ["ivec2(8, 0)", "ivec2(0, -9)"] {
        let log = fails(Stage::Fragment, &src(off));
        assert!(log.contains("texel offset out of range [-8, 7]"), "{log}");
    }
    let log = fails(Stage::Fragment, &src("ivec2(int(gl_FragCoord.x), 0)"));
    assert!(log.contains("must be a constant ivec2 expression"), "{log}");
    // The 1D form takes an int, checked alike.
    let one_d = |off: &str| {
        format!(
            "#version 330 core\nuniform sampler1D u;\nout vec4 o;\n\
             void main() {{ o = texelFetchOffset(u, 3, 0, {off}); }}"
        )
    };
    ok(Stage::Fragment, &one_d("-8"));
    let log = fails(Stage::Fragment, &one_d("8"));
    assert!(log.contains("texel offset out of range [-8, 7]"), "{log}");
}

/// GL_ARB_texture_gather brings textureGather (2D, 2D array, cube, cube array) and
/// textureGatherOffset (2D, 2D array) to GLSL 1.30 (piglit's textureGather tests are
/// `#version 130` with the extension); the component argument and the shadow, rectangle
/// and Offsets forms stay GLSL 4.00's, and gather offsets range over [-32, 31].
#[test]
fn texture_gather_extension_forms() {
    let src = |ext: bool, decl: &str, call: &str| {
        let e = if ext {
            "#extension GL_ARB_texture_gather : require\n"
        } else {
            ""
        };
        format!(
            "#version 130\n{e}uniform {decl} s;\nvoid main() {{ gl_FragColor = vec4({call}); }}"
        )
    };
    let count = |m: &crate::ir::Module| {
        count_stmts(&m.func.body, &|s| {
            matches!(
                s,
                Stmt::Texture {
                    lod: crate::ir::Lod::Gather(_),
                    ..
                }
            )
        })
    };
    for (decl, call) in [
        ("sampler2D", "textureGather(s, vec2(0.5))"),
        ("isampler2DArray", "textureGather(s, vec3(0.5))"),
        ("usamplerCube", "textureGather(s, vec3(0.5))"),
        (
            "sampler2D",
            "textureGatherOffset(s, vec2(0.5), ivec2(-32, 31))",
        ),
        (
            "sampler2DArray",
            "textureGatherOffset(s, vec3(0.5), ivec2(3, -3))",
        ),
    ] {
        let m = ok(Stage::Fragment, &src(true, decl, call));
        assert_eq!(count(&m), 1, "{call}");
        let log = fails(Stage::Fragment, &src(false, decl, call));
        assert!(
            log.contains("needs GLSL 4.00 or GL_ARB_texture_gather"),
            "{log}"
        );
    }
    // GLSL 4.00 forms are refused under the extension alone.
    for (decl, call, why) in [
        (
            "sampler2D",
            "textureGather(s, vec2(0.5), 1)",
            "no matching function",
        ),
        (
            "sampler2DShadow",
            "textureGather(s, vec2(0.5), 0.5)",
            "needs GLSL 4.00",
        ),
        (
            "sampler2D",
            "textureGatherOffsets(s, vec2(0.5), ivec2[4](ivec2(0), ivec2(1), ivec2(2), ivec2(3)))",
            "needs GLSL 4.00",
        ),
        (
            "samplerCube",
            "textureGatherOffset(s, vec3(0.5), ivec2(1))",
            "no matching function",
        ),
    ] {
        let log = fails(Stage::Fragment, &src(true, decl, call));
        assert!(log.contains(why), "{call}: {log}");
    }
    // Gather offsets outside [-32, 31] are refused, in 4.00 as under the extension.
    let log = fails(
        Stage::Fragment,
        &src(
            true,
            "sampler2D",
            "textureGatherOffset(s, vec2(0.5), ivec2(-33, 0))",
        ),
    );
    assert!(log.contains("texel offset out of range [-32, 31]"), "{log}");
    let log = fails(
        Stage::Fragment,
        "#version 400\nuniform sampler2D s;\nout vec4 o;\nvoid main() { o = \
         textureGatherOffsets(s, vec2(0.5), ivec2[4](ivec2(0), ivec2(1), ivec2(32), ivec2(3))); }",
    );
    assert!(log.contains("texel offset out of range [-32, 31]"), "{log}");
    let m = ok(
        Stage::Fragment,
        "#version 400\nuniform sampler2D s;\nout vec4 o;\nvoid main() { o = \
         textureGatherOffset(s, vec2(0.5), ivec2(-32, 31), 2); }",
    );
    assert_eq!(count(&m), 1);
}

/// GL_ARB_texture_query_levels and GL_ARB_texture_query_lod bring textureQueryLevels and
/// textureQueryLOD (the extension's spelling) to GLSL before 4.30 / 4.00; without them
/// both stay refused, and textureQueryLOD is no GLSL 4.00 name.
#[test]
fn texture_query_extensions() {
    let src = |ext: &str, call: &str| {
        format!(
            "#version 130\n{ext}uniform sampler2D s;\n\
             void main() {{ gl_FragColor = vec4({call}); }}"
        )
    };
    let levels = "float(textureQueryLevels(s))";
    let lod = "textureQueryLOD(s, vec2(0.5)), 0.0, 0.0";
    let on_levels = "#extension GL_ARB_texture_query_levels : require\n";
    let on_lod = "#extension GL_ARB_texture_query_lod : require\n";
    ok(Stage::Fragment, &src(on_levels, levels));
    ok(Stage::Fragment, &src(on_lod, lod));
    let log = fails(Stage::Fragment, &src("", levels));
    assert!(log.contains("GL_ARB_texture_query_levels"), "{log}");
    let log = fails(Stage::Fragment, &src("", lod));
    assert!(log.contains("textureQueryLOD"), "{log}");
    let log = fails(
        Stage::Fragment,
        "#version 400\nuniform sampler2D s;\nout vec4 o;\n\
         void main() { o = vec4(textureQueryLOD(s, vec2(0.5)), 0.0, 0.0); }",
    );
    assert!(log.contains("textureQueryLOD"), "{log}");
}

/// An integer coordinate converts to the vec2/vec3 parameter of the sampling built-ins
/// (GLSL 4.60 §4.1.10 uint→float, int→float), as piglit's bindless ubo-named-block does
/// with `texture2D(sampler2D, uvec2)`; texelFetch's ivec2 takes no uvec2 (no uint→int).
#[test]
fn integer_coordinates_convert_to_float() {
    let o = frag_out(
        "#version 330 core\nuniform sampler2D t;\nout vec4 o;\n\
         void main() { uvec2 u = uvec2(gl_FragCoord.xy); ivec2 i = -ivec2(gl_FragCoord.xy);\n\
         vec4 a = texture(t, u); vec4 b = textureLod(t, i, 0);\n\
         vec4 c = textureProj(t, uvec3(u, 2u)); o = vec4(a.xy, b.x, c.y); }",
        &[0, 0],
    );
    assert_eq!(o, vec![10.0, 20.0, -10.0, 10.0]);
    let log = fails(
        Stage::Fragment,
        "#version 330 core\nuniform sampler2D t;\nout vec4 o;\n\
         void main() { o = texelFetch(t, uvec2(1u, 2u), 0); }",
    );
    assert!(log.contains("no matching function"), "{log}");
}

/// GL_ARB_arrays_of_arrays enables multi-dimensional arrays before GLSL 4.30 (piglit's
/// bindless arrays-of-struct uses it at #version 330); without it they stay an error.
#[test]
fn arrays_of_arrays_extension() {
    let body = "struct S { float v[3][2]; int y; };\nout vec4 o;\n\
         void main() { S a[2][4]; a[1][3].v[2][1] = 5.0; a[0][2].v[1][0] = 7.0; a[1][2].v[2][1] = 1.0;\n\
         int i = int(gl_FragCoord.x) - 9; o = vec4(a[i][3].v[2][i], a[0][2].v[i][0], a[1][2].v[2][1], i); }";
    let o = frag_out(
        &format!("#version 330 core\n#extension GL_ARB_arrays_of_arrays : enable\n{body}"),
        &[],
    );
    assert_eq!(o, vec![5.0, 7.0, 1.0, 1.0]);
    let log = fails(Stage::Fragment, &format!("#version 330 core\n{body}"));
    assert!(log.contains("arrays of arrays require GLSL 4.30"), "{log}");
}

#[test]
fn bool_uniforms_become_masks() {
    let src = "#version 330 core\nuniform bool flag;\nuniform bvec2 pair;\nout vec4 o;\n\
        void main() { o = vec4(!flag ? 1.0 : 2.0, float(pair.y), float(any(pair)), 0.0); }";
    assert_eq!(frag_out(src, &[1, 0, 7]), vec![2.0, 1.0, 1.0, 0.0]);
    assert_eq!(frag_out(src, &[0, 0, 0]), vec![1.0, 0.0, 0.0, 0.0]);
}

#[test]
fn constant_folding() {
    use super::consts::{eval, CVal};
    use crate::ir::Scalar;
    let src = "#version 330 core\nconst int N = 3;\nconst uint M = 2u;\nout vec4 o;\n\
        void main() { float a[N * 2 + int(M)]; float b[(N > 2 ? 4 : 1) << 1]; float c[ivec3(1, 2, 3).z];\n\
        o = vec4(float(a.length()), float(b.length()), float(c.length()), 0.0); }";
    assert_eq!(frag_out(src, &[]), vec![8.0, 8.0, 3.0, 0.0]);
    let e = super::parse::Parser::new(&super::lex::lex(
        &super::preprocess::preprocess("x = 1.5 * 2;")
            .unwrap()
            .tokens,
        330,
        super::preprocess::Profile::Core,
        false,
        &mut Vec::new(),
    ))
    .parse_statement()
    .unwrap();
    let super::ast::StmtKind::Expr(super::ast::Expr {
        kind: super::ast::ExprKind::Assign(_, _, rhs),
        ..
    }) = e.kind
    else {
        panic!("{e:?}")
    };
    let v = eval(&rhs, &|_| None, &|_| None, &|_| None, 0);
    assert_eq!(v, Some(CVal::scalar(Scalar::F32(3.0))));
}

#[test]
fn checking_uncalled_functions_leaves_no_trace() {
    let base = "#version 330 core\nout vec4 o;\nvoid main() { o = vec4(1.0); }";
    let with = "#version 330 core\nout vec4 o;\n\
        vec4 unused(vec4 v) { float k = 3.5; o = gl_FragCoord * k; return v * 2.0 + vec4(k); }\n\
        void main() { o = vec4(1.0); }";
    let a = ok(Stage::Fragment, base);
    let b = ok(Stage::Fragment, with);
    assert_eq!(a.func.vars.len(), b.func.vars.len());
    assert_eq!(a.func.body, b.func.body);
    // A called function after an uncalled one still finds its constants and built-ins.
    let m = ok(
        Stage::Fragment,
        "#version 330 core\nout vec4 o;\nfloat g() { return gl_FragCoord.x + 2.0; }\n\
         void main() { o = vec4(g() + 2.0); }",
    );
    assert_eq!(exec(&m, &[], &[], &[]).map(|v| f(v[0])), Some(14.5));
}

#[test]
fn long_operator_chains_do_not_overflow_the_stack() {
    for (n, op) in [
        (400, " + 1.0"),
        (5000, " + 1.0"),
        (5000, ".x"),
        (5000, ", 1.0"),
        (5000, "[0]"),
    ] {
        let src = format!(
            "#version 420 core\nout vec4 o;\nvoid main() {{ float x = 1.0; float y = (x{}); o = vec4(y); }}",
            op.repeat(n)
        );
        let out = compile(Stage::Fragment, &src);
        if n <= 400 {
            assert!(out.module.is_some(), "{}", out.info_log);
        }
    }
}

#[test]
fn chains_inside_deep_nesting_do_not_overflow() {
    let inner = format!("x{}", " + 1.0".repeat(790));
    let src = format!(
        "#version 330 core\nout vec4 o;\nvoid main() {{ float x = 1.0; float y = {}{}{}; o = vec4(y); }}",
        "(".repeat(190),
        inner,
        ")".repeat(190)
    );
    let _ = compile(Stage::Fragment, &src);
}

#[test]
fn deeply_nested_types_are_refused() {
    let mut src = String::from("#version 430 core\nstruct S0 { float a; };\n");
    for i in 1..3000 {
        src.push_str(&format!("struct S{i} {{ S{} a; }};\n", i - 1));
    }
    src.push_str("out vec4 o;\nvoid main() { S2999 s; o = vec4(1.0); }");
    assert!(compile(Stage::Fragment, &src).module.is_none());
    let src = format!(
        "#version 430 core\nout vec4 o;\nvoid main() {{ float a{}; o = vec4(1.0); }}",
        "[1]".repeat(3000)
    );
    assert!(compile(Stage::Fragment, &src).module.is_none());
}

// ---- compilation units (GLSL 4.60 §2.1, §4.3) ----

/// Links fragment units; the module, or the log when they do not link.
fn link_units(srcs: &[&str]) -> Result<Module, String> {
    for s in srcs {
        let out = compile(Stage::Fragment, s);
        assert!(
            out.compiled,
            "each unit compiles alone:\n{}\n{s}",
            out.info_log
        );
    }
    let out = super::compile_units(Stage::Fragment, srcs);
    match out.module {
        Some(m) => {
            assert!(out.compiled && !out.info_log.contains("error"));
            verify_module(&m).unwrap_or_else(|e| panic!("malformed IR: {e}"));
            Ok(m)
        }
        None => {
            assert!(!out.compiled);
            Err(out.info_log)
        }
    }
}

const UNIT_MAIN: &str = "#version 330 core\nout vec4 o;\nuniform vec4 tint;\n\
    vec4 shade(float x);\nvoid main() { o = shade(2.0) + tint; }";
const UNIT_HELPER: &str = "#version 330 core\nuniform vec4 tint;\n\
    vec4 shade(float x) { return vec4(x, x * tint.y, 0.0, 1.0); }";

#[test]
fn units_share_functions_and_uniforms() {
    let m = link_units(&[UNIT_MAIN, UNIT_HELPER]).unwrap();
    // One `tint` in the default block, shared by both units.
    let tints: Vec<_> = m.uniforms.iter().filter(|u| u.name == "tint").collect();
    assert_eq!(tints.len(), 1);
    assert_eq!(m.uniform_words, 4);
    let tint = [fu(0.25), fu(3.0), fu(0.5), fu(0.0)];
    assert_eq!(frag_out_m(&m, &tint), [2.25, 9.0, 0.5, 1.0]);
    // The order of the units does not matter.
    let m = link_units(&[UNIT_HELPER, UNIT_MAIN]).unwrap();
    assert_eq!(frag_out_m(&m, &tint), [2.25, 9.0, 0.5, 1.0]);
}

#[test]
fn one_complete_unit_links_to_the_module_it_compiled_to() {
    let src = "#version 330 core\nout vec4 o;\nuniform float k;\nfloat g(float x);\n\
               float g(float x) { return x * k; }\nvoid main() { o = vec4(g(2.0)); }";
    let alone = ok(Stage::Fragment, src);
    let linked = super::compile_units(Stage::Fragment, &[src])
        .module
        .unwrap();
    assert_eq!(alone, linked);
}

#[test]
fn unit_without_main_compiles_and_serves_another() {
    let out = compile(Stage::Fragment, UNIT_HELPER);
    assert!(out.compiled && out.module.is_none(), "{}", out.info_log);
    let log = link_units(&[UNIT_HELPER]).unwrap_err();
    assert!(log.contains("main function not defined"), "{log}");
    // An undeclared function stays a compile error of the unit.
    let log = fails(
        Stage::Fragment,
        "#version 330 core\nout vec4 o;\nvoid main() { o = vec4(nowhere(1.0)); }",
    );
    assert!(log.contains("no function with name `nowhere'"), "{log}");
}

#[test]
fn unit_link_errors() {
    let twice = "#version 330 core\nuniform vec4 tint;\nvec4 shade(float x) { return vec4(x); }";
    let log = link_units(&[UNIT_MAIN, UNIT_HELPER, twice]).unwrap_err();
    assert!(log.contains("function `shade' redefined"), "{log}");

    let log = link_units(&[UNIT_MAIN]).unwrap_err();
    assert!(
        log.contains("function `shade' is called but not defined in any compilation unit"),
        "{log}"
    );

    let main2 = "#version 330 core\nout vec4 o;\nvoid main() { o = vec4(1.0); }";
    let log = link_units(&[UNIT_MAIN, UNIT_HELPER, main2]).unwrap_err();
    assert!(log.contains("function `main' redefined"), "{log}");

    let vec3_tint = "#version 330 core\nuniform vec3 tint;\n\
                     vec4 shade(float x) { return vec4(tint, x); }";
    let log = link_units(&[UNIT_MAIN, vec3_tint]).unwrap_err();
    assert!(
        log.contains("global `tint' has type vec4 in one compilation unit and vec3 in another"),
        "{log}"
    );

    let in_tint = "#version 330 core\nin vec4 tint;\nvec4 shade(float x) { return tint * x; }";
    let log = link_units(&[UNIT_MAIN, in_tint]).unwrap_err();
    assert!(
        log.contains(
            "global `tint' is declared `uniform' in one compilation unit and `in' in another"
        ),
        "{log}"
    );
}

#[test]
fn global_bindless_and_bound_across_units_is_a_link_error() {
    // piglit spec@arb_bindless_texture@linker@global_bindless_sampler_and_bound_sampler.
    let a = "#version 330\n#extension GL_ARB_bindless_texture: require\n\
             layout(bindless_sampler) uniform;\nvoid foo();\nvoid main() { foo(); }";
    let b = "#version 330\n#extension GL_ARB_bindless_texture: require\n\
             layout(bound_sampler) uniform;\nvoid foo() {}";
    let log = link_units(&[a, b]).unwrap_err();
    assert!(
        log.contains(
            "both `layout(bindless_sampler) uniform;' and `layout(bound_sampler) uniform;'"
        ),
        "{log}"
    );
    // Either one alone links, and the module says which.
    let b_bindless = b.replace("bound_sampler", "bindless_sampler");
    let m = link_units(&[a, &b_bindless]).unwrap();
    assert!(m.global_bindless_sampler && !m.global_bound_sampler);
}

#[test]
fn each_unit_keeps_its_own_version_and_extensions() {
    // The helper's body uses an array of arrays, which only its own unit's #version
    // allows: it is lowered with that unit's settings even when inlined into main's unit.
    let main =
        "#version 330 core\nout vec4 o;\nfloat h(float x);\nvoid main() { o = vec4(h(3.0)); }";
    let helper = "#version 430 core\nfloat h(float x) {\n\
                  float a[2][2] = float[2][2](float[2](x, 1.0), float[2](2.0, x));\n\
                  return a[0][0] + a[1][1]; }";
    let m = link_units(&[main, helper]).unwrap();
    assert_eq!(frag_out_m(&m, &[]), [6.0; 4]);
}

#[test]
fn shared_globals_structs_blocks_and_initializers() {
    let main = "#version 330 core\nout vec4 o;\nstruct S { float a; vec2 b; };\n\
                layout(std140) uniform B { vec4 v; };\nconst float k = 2.0;\nfloat g = 5.0;\n\
                S make();\nvoid bump();\n\
                void main() { bump(); S s = make(); o = vec4(s.a, s.b.y, g, v.x * k); }";
    let helper = "#version 330 core\nstruct S { float a; vec2 b; };\n\
                  layout(std140) uniform B { vec4 v; };\nconst float k = 2.0;\nfloat g;\n\
                  S make() { return S(k, vec2(0.0, v.y)); }\nvoid bump() { g += 1.0; }";
    let m = link_units(&[main, helper]).unwrap();
    assert_eq!(m.blocks.len(), 1);
    let mut block = vec![0u8; 16];
    block[..4].copy_from_slice(&1.5f32.to_le_bytes());
    block[4..8].copy_from_slice(&7.0f32.to_le_bytes());
    let out: Vec<f32> = exec(&m, &[], &[], &[block])
        .unwrap()
        .into_iter()
        .map(f)
        .collect();
    assert_eq!(out, [2.0, 7.0, 6.0, 3.0]);

    let other_k = helper.replace("const float k = 2.0", "const float k = 3.0");
    let log = link_units(&[main, &other_k]).unwrap_err();
    assert!(
        log.contains("global `k' is initialized differently"),
        "{log}"
    );
    let other_s = helper.replace(
        "struct S { float a; vec2 b; }",
        "struct S { float a; vec3 b; }",
    );
    let other_s = other_s.replace("vec2(0.0, v.y)", "vec3(0.0, v.y, 0.0)");
    let log = link_units(&[main, &other_s]).unwrap_err();
    assert!(log.contains("`S' is declared differently"), "{log}");
    let other_b = helper.replace("{ vec4 v; }", "{ vec4 v; float w; }");
    let log = link_units(&[main, &other_b]).unwrap_err();
    assert!(log.contains("uniform block `B' differs"), "{log}");
}

#[test]
fn layouts_of_shared_interface_variables_merge() {
    let main = "#version 450 core\n#extension GL_ARB_bindless_texture : require\n\
                uniform sampler2D s;\nlayout(location = 1) out vec4 o;\nin vec2 uv;\n\
                vec4 look();\nvoid main() { o = look(); }";
    let helper = "#version 450 core\n#extension GL_ARB_bindless_texture : require\n\
                  layout(binding = 3, bindless_sampler) uniform sampler2D s;\nout vec4 o;\n\
                  in vec2 uv;\nvec4 look() { return texture(s, uv); }";
    let m = link_units(&[main, helper]).unwrap();
    let s = m.uniforms.iter().find(|u| u.name == "s").unwrap();
    assert_eq!((s.binding, s.bindless, s.bound), (Some(3), true, false));
    assert_eq!(
        m.outputs.iter().find(|o| o.name == "o").unwrap().location,
        Some(1)
    );
    assert_eq!(m.inputs.len(), 1);

    let other_binding = main.replace(
        "uniform sampler2D s",
        "layout(binding = 2) uniform sampler2D s",
    );
    let log = link_units(&[&other_binding, helper]).unwrap_err();
    assert!(
        log.contains("uniform `s' has a different `binding' layout"),
        "{log}"
    );
    let bound = main.replace(
        "uniform sampler2D s",
        "layout(bound_sampler) uniform sampler2D s",
    );
    let log = link_units(&[&bound, helper]).unwrap_err();
    assert!(log.contains("bindless_sampler/bound_sampler"), "{log}");
    let located = helper.replace("out vec4 o", "layout(location = 0) out vec4 o");
    let log = link_units(&[main, &located]).unwrap_err();
    assert!(log.contains("`o' has a different location"), "{log}");
    let flat = helper.replace("in vec2 uv", "flat in vec2 uv");
    let log = link_units(&[main, &flat]).unwrap_err();
    assert!(
        log.contains("`uv' has a different location or interpolation"),
        "{log}"
    );
}

#[test]
fn a_call_sees_only_the_overloads_its_unit_declares() {
    // Unit A knows only f(float): f(1) converts the int. Unit B also defines f(uint), which
    // would make f(1) ambiguous (int converts to both, GLSL 4.60 §4.1.10) if A saw it.
    let a = "#version 400 core\nout vec4 o;\nfloat f(float x);\nvoid main() { o = vec4(f(1)); }";
    let b = "#version 400 core\nfloat f(float x) { return x + 0.5; }\n\
             float f(uint x) { return 100.0; }\nfloat g() { return f(2u); }";
    let m = link_units(&[a, b]).unwrap();
    assert_eq!(frag_out_m(&m, &[]), [1.5; 4]);
    // Seeing both in one unit is indeed ambiguous.
    let both = "#version 400 core\nout vec4 o;\nfloat f(float x);\nfloat f(uint x);\n\
                void main() { o = vec4(f(1)); }";
    let log = fails(Stage::Fragment, both);
    assert!(log.contains("ambiguous"), "{log}");
}

// ---- nesting limits (`limits.rs`): each at its value and one past ----

use super::limits::{
    MAX_CALL_NESTING, MAX_EXPRESSION_NESTING, MAX_INLINED_NESTING, MAX_OPERATOR_CHAIN,
    MAX_STATEMENT_NESTING, MAX_TYPE_NESTING,
};

/// Whether `src` compiles; else its log, which must name `limit`.
fn compiles_or_names(src: &str, limit: &str) -> bool {
    let out = compile(Stage::Fragment, src);
    if out.module.is_some() {
        return true;
    }
    assert!(
        out.info_log.contains(limit),
        "the error should name {limit}:\n{}",
        out.info_log
    );
    false
}

#[test]
fn expression_nesting_limit() {
    // `o = vec4(...)`: the expression statement, the assignment's right side and the
    // argument are three levels.
    let at = |parens: u32| {
        format!(
            "#version 330 core\nout vec4 o;\nvoid main() {{ float x = 1.0; o = vec4({}x{}); }}",
            "(".repeat(parens as usize),
            ")".repeat(parens as usize)
        )
    };
    let limit = "expression nesting limit";
    assert!(compiles_or_names(&at(MAX_EXPRESSION_NESTING - 3), limit));
    assert!(!compiles_or_names(&at(MAX_EXPRESSION_NESTING - 2), limit));
    // llvmpipe compiles 1,000 nested parentheses on a 128 KiB stack; so do we.
    assert!(compiles_or_names(&at(1_000), limit));
    // Unary operators: one level each, plus the three around them.
    let neg = |n: u32| {
        format!(
            "#version 330 core\nout vec4 o;\nvoid main() {{ float x = 1.0; o = vec4({}x); }}",
            "- ".repeat(n as usize)
        )
    };
    assert!(compiles_or_names(&neg(MAX_EXPRESSION_NESTING - 3), limit));
    assert!(!compiles_or_names(&neg(MAX_EXPRESSION_NESTING - 2), limit));
}

#[test]
fn statement_nesting_limit() {
    // Each `{` is a statement; the innermost `x += 1.0;` is one more.
    let at = |blocks: u32| {
        format!(
            "#version 330 core\nout vec4 o;\nvoid main() {{ float x = 1.0; {} x += 1.0; {} o = vec4(x); }}",
            "{".repeat(blocks as usize),
            "}".repeat(blocks as usize)
        )
    };
    let limit = "statement nesting limit";
    assert!(compiles_or_names(&at(MAX_STATEMENT_NESTING - 1), limit));
    assert!(!compiles_or_names(&at(MAX_STATEMENT_NESTING), limit));
    // Control flow nests the same way (and through the IR and the JIT).
    let ifs = |n: u32| {
        format!(
            "#version 330 core\nuniform float u;\nout vec4 o;\nvoid main() {{ float x = 1.0; {} x += 1.0; o = vec4(x); }}",
            "if (u > 0.5) ".repeat(n as usize)
        )
    };
    assert!(compiles_or_names(&ifs(MAX_STATEMENT_NESTING - 1), limit));
    assert!(!compiles_or_names(&ifs(MAX_STATEMENT_NESTING), limit));
}

#[test]
fn operator_chain_limit() {
    let at = |links: u32| {
        format!(
            "#version 330 core\nout vec4 o;\nvoid main() {{ float x = 1.0; o = vec4(x{}); }}",
            " + x".repeat(links as usize)
        )
    };
    let limit = "operator chain limit";
    assert!(compiles_or_names(&at(MAX_OPERATOR_CHAIN), limit));
    assert!(!compiles_or_names(&at(MAX_OPERATOR_CHAIN + 1), limit));
}

#[test]
fn call_nesting_limit() {
    // main calls f{n-1}, which calls f{n-2}, ... f0: n nested calls.
    let at = |n: u32| {
        let mut s = String::from(
            "#version 330 core\nuniform float u;\nout vec4 o;\nfloat f0(float x) { return x + 1.0; }\n",
        );
        for i in 1..n {
            s.push_str(&format!(
                "float f{i}(float x) {{ return f{}(x) * 2.0; }}\n",
                i - 1
            ));
        }
        s.push_str(&format!("void main() {{ o = vec4(f{}(u)); }}\n", n - 1));
        s
    };
    let limit = "call nesting limit";
    assert!(compiles_or_names(&at(MAX_CALL_NESTING), limit));
    assert!(!compiles_or_names(&at(MAX_CALL_NESTING + 1), limit));
}

#[test]
fn inlined_nesting_limit() {
    // Each of `calls` nested functions nests `blocks` deep before the next call: within the
    // parser's limits per function, past the inlined limit together.
    let src = |calls: u32, blocks: u32| {
        let b = blocks as usize;
        let mut s = String::from(
            "#version 330 core\nuniform float u;\nout vec4 o;\nfloat f0(float x) { return x + 1.0; }\n",
        );
        for i in 1..calls {
            s.push_str(&format!(
                "float f{i}(float x) {{ {} x = f{}(x); {} return x; }}\n",
                "{".repeat(b),
                i - 1,
                "}".repeat(b)
            ));
        }
        s.push_str(&format!("void main() {{ o = vec4(f{}(u)); }}\n", calls - 1));
        s
    };
    let limit = "inlined nesting limit";
    let per_call = MAX_STATEMENT_NESTING - 10;
    let calls_past = MAX_INLINED_NESTING / per_call + 2;
    assert!(calls_past <= MAX_CALL_NESTING);
    assert!(!compiles_or_names(&src(calls_past, per_call), limit));
    // The largest count of such functions that fits compiles, one more does not.
    let mut fits = 1;
    while compiles_or_names(&src(fits + 1, per_call), limit) {
        fits += 1;
        assert!(fits < calls_past, "the limit is never reached");
    }
    assert!(fits >= MAX_INLINED_NESTING / per_call / 2);
}

#[test]
fn type_nesting_limit() {
    let at = |dims: u32| {
        format!(
            "#version 430 core\nout vec4 o;\nvoid main() {{ float a{}; o = vec4(1.0); }}",
            "[1]".repeat(dims as usize)
        )
    };
    let out = compile(Stage::Fragment, &at(MAX_TYPE_NESTING));
    assert!(out.module.is_some(), "{}", out.info_log);
    let out = compile(Stage::Fragment, &at(MAX_TYPE_NESTING + 1));
    assert!(
        out.info_log.contains("type nesting limit"),
        "{}",
        out.info_log
    );
}

#[test]
fn per_vertex_members_redeclare_in_vertex_and_geometry_shaders() {
    // GLSL 1.50 §7.1: gl_Position and gl_PointSize may be redeclared with their own types,
    // and a geometry shader redeclares its gl_ClipDistance output.
    ok(
        Stage::Vertex,
        "#version 150\nout vec4 gl_Position;\nout float gl_PointSize;\nin vec4 p;\n\
         void main() { gl_Position = p; gl_PointSize = 2.0; }\n",
    );
    ok(
        Stage::Geometry,
        "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n\
         out vec4 gl_Position;\nout float gl_ClipDistance[2];\n\
         void main() { gl_Position = gl_in[0].gl_Position; gl_ClipDistance[1] = 1.0; EmitVertex(); }\n",
    );
    let e = fails(
        Stage::Vertex,
        "#version 150\nout vec3 gl_Position;\nvoid main() { }\n",
    );
    assert!(
        e.contains("can only be redeclared as `out vec4 gl_Position'"),
        "{e}"
    );
    let e = fails(
        Stage::Vertex,
        "#version 150\nin float gl_PointSize;\nvoid main() { }\n",
    );
    assert!(e.contains("`out float gl_PointSize'"), "{e}");
}

#[test]
fn geometry_unsized_inputs_take_their_size_from_a_later_input_layout() {
    // GLSL 1.50 §4.3.8.1: an unsized input is sized by the input layout even when the
    // layout comes after it (as Mesa does). `check` has a negative size unless the length
    // is 3, so a wrong size fails to compile.
    ok(
        Stage::Geometry,
        "#version 150\nin vec4 v[];\nin B { float f; } b[];\nlayout(triangles) in;\n\
         layout(points, max_vertices = 1) out;\n\
         void main() { int check[v.length() == 3 && b.length() == 3 ? 1 : -1];\n\
         gl_Position = v[2] + vec4(b[1].f); EmitVertex(); }\n",
    );
    // A size that disagrees with the later layout is still an error.
    let e = fails(
        Stage::Geometry,
        "#version 150\nin vec4 v[2];\nlayout(triangles) in;\n\
         layout(points, max_vertices = 1) out;\nvoid main() { EmitVertex(); }\n",
    );
    assert!(e.contains("input primitive"), "{e}");
    // The layout may come from another unit of the stage: a unit compiles without it,
    // and the link of the units together sizes the input from the other unit's layout.
    let main_unit =
        "#version 150\nin vec4 v[];\nvoid main() { gl_Position = v[2]; EmitVertex(); }\n";
    let layout_unit =
        "#version 150\nlayout(triangles) in;\nlayout(points, max_vertices = 1) out;\n";
    ok(Stage::Geometry, main_unit);
    let linked = super::compile_units(Stage::Geometry, &[main_unit, layout_unit]);
    let m = linked
        .module
        .unwrap_or_else(|| panic!("{}", linked.info_log));
    let v = m.inputs.iter().find(|i| i.name == "v").expect("input v");
    assert_eq!(v.array_len, Some(3), "sized by the other unit's layout");
    // No layout in any unit: the link cannot size it.
    let e = super::compile_units(
        Stage::Geometry,
        &[
            "#version 150\nin vec4 v[];\nlayout(points, max_vertices = 1) out;\n\
           void main() { EmitVertex(); }\n",
        ],
    )
    .info_log;
    assert!(e.contains("declared before the input primitive"), "{e}");
}

#[test]
fn per_vertex_block_redeclarations() {
    // GLSL 1.50 §7.1: the output block in vertex and geometry shaders, sizing
    // gl_ClipDistance.
    ok(
        Stage::Vertex,
        "#version 150\nin vec4 p;\nout gl_PerVertex { vec4 gl_Position; float gl_ClipDistance[4]; };\n\
         void main() { int check[gl_ClipDistance.length() == 4 ? 1 : -1];\n\
         gl_Position = p; gl_ClipDistance[3] = 1.0; }\n",
    );
    ok(
        Stage::Geometry,
        "#version 150\nlayout(triangles) in;\nlayout(points, max_vertices = 1) out;\n\
         out gl_PerVertex { vec4 gl_Position; float gl_PointSize; };\n\
         in gl_PerVertex { vec4 gl_Position; float gl_ClipDistance[2]; } gl_in[];\n\
         void main() { int check[gl_in.length() == 3 ? 1 : -1];\n\
         gl_Position = gl_in[1].gl_Position + vec4(gl_in[2].gl_ClipDistance[1]);\n\
         gl_Position.x += float(gl_in[0].gl_ClipDistance.length());\n\
         gl_PointSize = 1.0; EmitVertex(); }\n",
    );
    // Unsized gl_ClipDistance in gl_in keeps its implicit size, the maximum.
    ok(
        Stage::Geometry,
        "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n\
         in gl_PerVertex { vec4 gl_Position; float gl_ClipDistance[]; } gl_in[];\n\
         void main() { gl_Position = gl_in[0].gl_Position;\n\
         gl_Position.x += float(gl_in[0].gl_ClipDistance.length()); EmitVertex(); }\n",
    );
    for (stage, src, want) in [
        (
            Stage::Vertex,
            "#version 150\nout gl_PerVertex { vec4 gl_Position; float extra; };\nvoid main() { }\n",
            "`extra' is not a member of gl_PerVertex",
        ),
        (
            Stage::Vertex,
            "#version 150\nout gl_PerVertex { vec3 gl_Position; };\nvoid main() { }\n",
            "must keep its built-in type",
        ),
        (
            Stage::Vertex,
            "#version 150\nout gl_PerVertex { float gl_ClipDistance[9]; };\nvoid main() { }\n",
            "array size must be 1 to",
        ),
        (
            Stage::Vertex,
            "#version 150\nin gl_PerVertex { vec4 gl_Position; };\nvoid main() { }\n",
            "can only be redeclared as",
        ),
        (
            Stage::Geometry,
            "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n\
             in gl_PerVertex { vec4 gl_Position; } verts[];\nvoid main() { EmitVertex(); }\n",
            "can only be redeclared as",
        ),
        (
            Stage::Geometry,
            "#version 150\nlayout(triangles) in;\nlayout(points, max_vertices = 1) out;\n\
             in gl_PerVertex { vec4 gl_Position; } gl_in[2];\nvoid main() { EmitVertex(); }\n",
            "input primitive",
        ),
    ] {
        let e = fails(stage, src);
        assert!(e.contains(want), "want {want:?} in:\n{e}\n{src}");
    }
}

#[test]
fn min_max_clamp_abs_of_constants_are_constant_expressions() {
    // GLSL 4.60 §4.3.3: a built-in call with constant arguments is a constant expression;
    // array sizes use them (piglit's max-components tests size arrays with min()).
    ok(
        Stage::Vertex,
        "#version 150\nvoid main() {\n\
         float a[min(gl_MaxVertexOutputComponents, 5)];\n\
         int check[a.length() == 5 ? 1 : -1];\n\
         int b[max(2, 3) + clamp(7, 0, 4) + abs(-1)];\n\
         int check2[b.length() == 8 ? 1 : -1];\n\
         const vec2 m = min(vec2(1.0, 4.0), 2.0);\n\
         int check3[m.y == 2.0 && m.x == 1.0 ? 1 : -1];\n\
         const uint u = max(3u, 9u);\n\
         int check4[u == 9u ? 1 : -1];\n\
         gl_Position = vec4(0.0); }\n",
    );
    // abs(-0.0) is +0.0 and min keeps its first argument when neither is less
    // (y < x ? y : x).
    ok(
        Stage::Vertex,
        "#version 150\nvoid main() {\n\
         const float z = abs(-0.0);\n\
         int check[1.0 / z > 0.0 ? 1 : -1];\n\
         gl_Position = vec4(z); }\n",
    );
    let e = fails(
        Stage::Vertex,
        "#version 150\nuniform int n;\nvoid main() { float a[min(n, 2)]; gl_Position = vec4(0.0); }\n",
    );
    assert!(e.contains("constant"), "{e}");
}

#[test]
fn array_sizes_fold_built_ins_and_doubles() {
    // GLSL 4.60 §4.3.3: a built-in call on constant arguments is a constant expression;
    // piglit's compiler/built-in-functions tests size arrays with them (1 if the folded
    // result is right, -1 — a compile error — if not).
    let out = frag_out(
        "#version 400
        out vec4 c;
        void main() {
            double[distance(trunc(dvec2(1.5lf, -2.5lf)), dvec2(1.0lf, -2.0lf)) <= 0.0lf ? 1 : -1] a;
            float[int(sqrt(16.0)) + int(floor(-0.5))] b;
            int[determinant(dmat2(2.0lf, 1.0lf, 1.0lf, 3.0lf)) == 5.0lf ? 2 : -1] d;
            bool[any(lessThan(dvec3(1.0lf), dvec3(2.0lf))) ? 4 : -1] e;
            c = vec4(a.length(), b.length(), d.length(), e.length());
        }",
        &[],
    );
    assert_eq!(out, [1.0, 3.0, 2.0, 4.0]);
    // A folded size that is not positive is an error about the size.
    let log = fails(
        Stage::Fragment,
        "#version 400\nout vec4 c;\nvoid main() { float[trunc(2.5lf) == 2.0lf ? -1 : 1] a; c = vec4(a.length()); }",
    );
    assert!(
        log.contains("array size must be greater than zero"),
        "{log}"
    );
    // Uniforms, inputs and user functions are not constant.
    for src in [
        "#version 400\nuniform double u;\nout vec4 c;\nvoid main() { float[int(u)] a; c = vec4(a.length()); }",
        "#version 400\nint f() { return 2; }\nout vec4 c;\nvoid main() { float[f()] a; c = vec4(a.length()); }",
        "#version 400\nflat in int k;\nout vec4 c;\nvoid main() { float[abs(k) + 1] a; c = vec4(a.length()); }",
    ] {
        let log = fails(Stage::Fragment, src);
        assert!(
            log.contains("array size must be a constant valued expression"),
            "{src}\n{log}"
        );
    }
}

#[test]
fn double_uniform_initializers_fold() {
    // GLSL 4.60 §4.3.5: initializers are constant expressions; with doubles (which
    // `consts` does not represent) they are folded from the lowered statements.
    let m = ok(
        Stage::Fragment,
        "#version 400
        uniform dvec2 u = dvec2(0.5lf, trunc(-2.5lf));
        uniform double a[2] = { 1.0lf, sqrt(2.0lf) };
        out vec4 c;
        void main() { c = vec4(u.x + a[1]); }",
    );
    let words = |name: &str| {
        m.uniforms
            .iter()
            .find(|u| u.name == name || u.name == format!("{name}[0]"))
            .and_then(|u| u.init.clone())
            .unwrap_or_else(|| panic!("{name} has no initializer"))
    };
    let d = |w: &[u32]| -> Vec<f64> {
        w.chunks(2)
            .map(|p| f64::from_bits(u64::from(p[0]) | u64::from(p[1]) << 32))
            .collect()
    };
    assert_eq!(d(&words("u")), [0.5, -2.0]);
    assert_eq!(d(&words("a")), [1.0, 2f64.sqrt()]);
    // Still refused when not constant.
    let log = fails(
        Stage::Fragment,
        "#version 400\nuniform double v;\nuniform double w = v * 2.0lf;\nout vec4 c;\nvoid main() { c = vec4(w); }",
    );
    assert!(log.contains("is not a constant expression"), "{log}");
}

#[test]
fn row_major_double_matrix_columns_in_a_block() {
    // A column of a row-major dmat2 is one 8-byte double from each row: two words per
    // component (it was one, an "internal error: layout mismatch").
    let m = ok(
        Stage::Fragment,
        "#version 400
        layout(std140, row_major) uniform B { dmat2 m; };
        out vec4 c;
        void main() {
            dvec2 c0 = m[0];
            int i = int(gl_FragCoord.x) - 9; // 1
            c = vec4(float(c0.x), float(c0.y), float(m[i].x), float(m[1][i]));
        }",
    );
    let mut bytes = vec![0u8; 32];
    // Row r at r * 16: (m[0][r], m[1][r]).
    for (at, x) in [(0, 1.0f64), (8, 2.0), (16, 3.0), (24, 4.0)] {
        bytes[at..at + 8].copy_from_slice(&x.to_le_bytes());
    }
    let out = exec(&m, &[], &[], &[bytes]).expect("not discarded");
    let got: Vec<f32> = out.into_iter().map(f).collect();
    assert_eq!(got, [1.0, 3.0, 2.0, 4.0]);
}
