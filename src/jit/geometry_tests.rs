//! Differential tests of geometry shaders: GLSL geometry stages (EmitVertex and
//! EndPrimitive under divergent ifs and loops, `return` before the end, more emits than
//! max_vertices, gl_in[], gl_PrimitiveIDIn and gl_InvocationID) rewritten by
//! `ir::geometry::lower_emits`, run through generated code and through the interpreter on
//! the same 4 lanes: the output records must be identical, and equal to the record a Rust
//! model gives where the test has one.

use std::sync::Arc;

use super::{BoundEnv, Interpreted, ShaderCode, StageData};
use crate::ir::geometry::{record_words, vertex_at};
use crate::ir::{Builtin, Module, Stage};
use crate::sampler::SampleContext;

fn compile_glsl(src: &str) -> Module {
    let out = crate::glsl::compile(Stage::Geometry, src);
    let m = out
        .module
        .unwrap_or_else(|| panic!("expected to compile:\n{}\n{src}", out.info_log));
    crate::ir::validate(&m).unwrap_or_else(|e| panic!("{e}\n{}", crate::ir::dump(&m)));
    crate::glsl::verify::verify_module(&m)
        .unwrap_or_else(|e| panic!("{e}\n{}", crate::ir::dump(&m)));
    m
}

/// Runs `m` on 4 lanes whose input word `w` of lane `l` is `input(w, l)`, with generated
/// code and with the interpreter; asserts they agree and returns the output words (SoA).
fn run_both(m: &Module, input: impl Fn(u32, u32) -> u32) -> Vec<u32> {
    let jit = super::compile_uncached(m).unwrap_or_else(|e| panic!("{e}"));
    let interp: Arc<dyn ShaderCode> = Arc::new(Interpreted::new(Arc::new(m.clone())));
    let data = StageData::default();
    let sampler = SampleContext::default();
    let env = BoundEnv::new(&data, &sampler);
    let in_words = jit.input_words().max(interp.input_words()) as usize;
    let inputs: Vec<u32> = (0..in_words * 4)
        .map(|i| input((i / 4) as u32, (i % 4) as u32))
        .collect();
    let builtins = [0u32; Builtin::COUNT * 4];
    let mut results = Vec::new();
    for code in [&jit, &interp] {
        let mut out = vec![0xDEAD_BEEF; code.output_words() as usize * 4];
        super::run(code.as_ref(), &env, &inputs, &builtins, &mut out, 0xF);
        results.push(out);
    }
    assert!(
        results[0] == results[1],
        "jit and interpreter differ:\n{:x?}\n{:x?}\n{}",
        results[0],
        results[1],
        crate::ir::dump(m)
    );
    results.swap_remove(0)
}

/// The input slot of `gl_PrimitiveIDIn` etc. in `m`.
fn input_slot(m: &Module, name: &str) -> u32 {
    m.inputs
        .iter()
        .find(|v| v.name == name)
        .map(|v| v.slot)
        .unwrap_or_else(|| panic!("no input {name}"))
}

#[test]
fn divergent_emits_agree_and_match_the_model() {
    // Lane l (primitive id p) emits p + 1 vertices (at most max_vertices = 4 stored),
    // ending a strip after every second one, and returns early when p == 2.
    let m = compile_glsl(
        "#version 150
        layout(points) in;
        layout(line_strip, max_vertices = 4) out;
        flat out int k_out;
        out float f;
        void main() {
            for (int k = 0; k <= gl_PrimitiveIDIn; k++) {
                if (gl_PrimitiveIDIn == 2 && k == 2) return;
                gl_Position = gl_in[0].gl_Position + vec4(float(k), 0.0, 0.0, 0.0);
                k_out = k * 10 + gl_PrimitiveIDIn;
                f = float(k) * 0.5;
                EmitVertex();
                if (k % 2 == 1) EndPrimitive();
            }
        }",
    );
    let g = &m.geometry;
    let vw = g.vertex_words.expect("rewritten");
    assert_eq!(vw, 4 + 1 + 1);
    assert_eq!(m.func.outputs.len() as u32, record_words(4, vw));
    let pid = input_slot(&m, "gl_PrimitiveIDIn");
    let per_vertex = input_slot(&m, "gl_in");
    let out = run_both(&m, |w, l| {
        if w == pid {
            [0, 1, 2, 5][l as usize]
        } else if w == per_vertex {
            (l as f32 + 0.25).to_bits()
        } else {
            0
        }
    });
    let word = |slot: u32, lane: usize| out[slot as usize * 4 + lane];
    for (lane, p) in [0u32, 1, 2, 5].into_iter().enumerate() {
        let emitted = if p == 2 { 2 } else { p + 1 };
        assert_eq!(word(0, lane), emitted, "lane {lane}");
        for k in 0..emitted.min(4) {
            let at = vertex_at(k, vw);
            // A new strip at the first vertex and after each EndPrimitive (k odd).
            let starts = k.is_multiple_of(2);
            assert_eq!(word(at, lane), starts as u32, "lane {lane} vertex {k} flag");
            let x = f32::from_bits(word(at + 1, lane));
            assert_eq!(x, lane as f32 + 0.25 + k as f32);
        }
    }
}

#[test]
fn invocations_and_inputs_agree() {
    let m = compile_glsl(
        "#version 400
        layout(triangles, invocations = 4) in;
        layout(triangle_strip, max_vertices = 6) out;
        in vec3 v[];
        out vec3 o;
        void main() {
            int n = 3 + gl_InvocationID;
            for (int i = 0; i < n; i++) {
                int j = (i + gl_InvocationID) % 3;
                o = v[j] * float(i + 1);
                gl_Position = gl_in[j].gl_Position;
                gl_PointSize = gl_in[j].gl_PointSize;
                EmitVertex();
                if (i == gl_PrimitiveIDIn) EndPrimitive();
            }
        }",
    );
    assert_eq!(m.geometry.invocation_count(), 4);
    let inv = input_slot(&m, "gl_InvocationID");
    let out = run_both(&m, |w, l| {
        if w == inv {
            l
        } else {
            ((w * 7 + l * 13) as f32 * 0.125).to_bits()
        }
    });
    for (lane, &count) in out[..4].iter().enumerate() {
        assert_eq!(count, 3 + lane as u32);
    }
}

#[test]
fn stream_emits_tag_their_vertices() {
    // Lane l emits to stream l % 4 under a divergent if, then once to stream 0; the
    // flags word holds the stream in bits 1..2 (`ir::geometry::vertex_flags`), stream 0's
    // first vertex starts a strip, and EndStreamPrimitive of another stream changes
    // nothing for stream 0.
    let m = compile_glsl(
        "#version 400
        layout(points) in;
        layout(points, max_vertices = 3) out;
        layout(stream = 1) out float one;
        out float zero;
        void main() {
            int s = gl_PrimitiveIDIn % 4;
            one = float(gl_PrimitiveIDIn);
            if (s == 1) EmitStreamVertex(1);
            else if (s == 2) { EmitStreamVertex(2); EndStreamPrimitive(2); }
            else if (s == 3) EmitStreamVertex(3);
            zero = 7.0;
            EmitVertex();
        }",
    );
    assert_eq!(m.geometry.emitted_streams, 0b1111);
    assert_eq!(m.geometry.stream_of("one"), 1);
    assert_eq!(m.geometry.stream_of("zero"), 0);
    let vw = m.geometry.vertex_words.expect("rewritten");
    let pid = input_slot(&m, "gl_PrimitiveIDIn");
    let out = run_both(&m, |w, l| if w == pid { l } else { 0 });
    let word = |slot: u32, lane: usize| out[slot as usize * 4 + lane];
    use crate::ir::geometry::read_vertex_flags;
    for lane in 0..4usize {
        let s = lane as u32;
        let n = if s == 0 { 1 } else { 2 };
        assert_eq!(word(0, lane), n, "lane {lane}");
        let flags: Vec<(bool, u32)> = (0..n)
            .map(|k| read_vertex_flags(word(vertex_at(k, vw), lane)))
            .collect();
        let want: Vec<(bool, u32)> = if s == 0 {
            vec![(true, 0)]
        } else {
            vec![(false, s), (true, 0)]
        };
        assert_eq!(flags, want, "lane {lane}");
    }
}
