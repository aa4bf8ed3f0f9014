//! JIT compile time (DESIGN.md §3: Cranelift compiles fast, and we measure it) and the
//! speed of the generated code, on hand-built modules shaped like real shaders: a lit
//! fragment shader (straight-line float maths), and a loop-heavy one with divergent
//! control flow and a local array.
//!
//! Run with `cargo bench --bench jit_compile` (Cargo.toml: `[[bench]] name = "jit_compile"
//! harness = false`).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use softgl::ir::*;
use softgl::jit;

struct Fb {
    f: Function,
    body: Vec<Stmt>,
}

impl Fb {
    fn new() -> Self {
        Fb {
            f: Function::default(),
            body: Vec::new(),
        }
    }
    fn var(&mut self, k: ScalarKind) -> Var {
        self.f.vars.push(k);
        Var(self.f.vars.len() as u32 - 1)
    }
    fn def(&mut self, k: ScalarKind, op: Op) -> Var {
        let v = self.var(k);
        self.body.push(Stmt::Assign { dst: v, op });
        v
    }
    fn bin(&mut self, op: BinaryOp, a: Var, b: Var) -> Var {
        let k = match op {
            BinaryOp::FLt | BinaryOp::SLt | BinaryOp::IEq => ScalarKind::Bool,
            BinaryOp::IAdd | BinaryOp::And => ScalarKind::I32,
            _ => ScalarKind::F32,
        };
        self.def(k, Op::Binary(op, a, b))
    }
    fn module(mut self, stage: Stage, outputs: Vec<Var>) -> Module {
        self.f.body = std::mem::take(&mut self.body);
        self.f.outputs = outputs;
        Module {
            stage,
            version: 450,
            func: self.f,
            inputs: vec![],
            outputs: vec![],
            uniforms: vec![],
            uniform_words: 32,
            blocks: vec![],
            storage_blocks: vec![],
            uses_discard: false,
            writes_depth: false,
            early_fragment_tests: false,
            frag_coord_origin_upper_left: false,
            frag_coord_pixel_center_integer: false,
            global_bindless_sampler: false,
            global_bound_sampler: false,
            local_size: [0; 3],
            shared_bytes: 0,
            geometry: Default::default(),
            xfb: Default::default(),
            tess: Default::default(),
            subroutines: Default::default(),
        }
    }
}

/// Blinn-Phong with 4 lights, fully scalarized: ~300 float ops, like a lowered GLSL shader.
fn lit_fragment() -> Module {
    use BinaryOp::*;
    let mut b = Fb::new();
    let n: Vec<Var> = (0..3)
        .map(|i| b.def(ScalarKind::F32, Op::Input(i)))
        .collect();
    let p: Vec<Var> = (3..6)
        .map(|i| b.def(ScalarKind::F32, Op::Input(i)))
        .collect();
    let mut acc: Vec<Var> = (0..3)
        .map(|_| b.def(ScalarKind::F32, Op::Const(Scalar::F32(0.0))))
        .collect();
    let zero = b.def(ScalarKind::F32, Op::Const(Scalar::F32(0.0)));
    let shin = b.def(ScalarKind::F32, Op::Const(Scalar::F32(16.0)));
    for light in 0..4u32 {
        let lp: Vec<Var> = (0..3)
            .map(|c| {
                b.def(
                    ScalarKind::F32,
                    Op::Uniform {
                        offset: light * 6 + c,
                        index: None,
                    },
                )
            })
            .collect();
        let d: Vec<Var> = (0..3).map(|c| b.bin(FSub, lp[c], p[c])).collect();
        let dd0 = b.bin(FMul, d[0], d[0]);
        let dd1 = b.bin(FMul, d[1], d[1]);
        let dd2 = b.bin(FMul, d[2], d[2]);
        let s = b.bin(FAdd, dd0, dd1);
        let len2 = b.bin(FAdd, s, dd2);
        let inv = b.def(ScalarKind::F32, Op::Unary(UnaryOp::InverseSqrt, len2));
        let l: Vec<Var> = (0..3).map(|c| b.bin(FMul, d[c], inv)).collect();
        let nl0 = b.bin(FMul, n[0], l[0]);
        let nl1 = b.bin(FMul, n[1], l[1]);
        let nl2 = b.bin(FMul, n[2], l[2]);
        let t = b.bin(FAdd, nl0, nl1);
        let ndotl = b.bin(FAdd, t, nl2);
        let diff = b.bin(FMax, ndotl, zero);
        let spec_base = b.def(ScalarKind::F32, Op::FClamp(ndotl, zero, shin));
        let spec = b.bin(Pow, spec_base, shin);
        for (c, a) in acc.iter_mut().enumerate() {
            let col = b.def(
                ScalarKind::F32,
                Op::Uniform {
                    offset: light * 6 + 3 + c as u32,
                    index: None,
                },
            );
            let dc = b.bin(FMul, col, diff);
            let sc = b.bin(FAdd, dc, spec);
            *a = b.bin(FAdd, *a, sc);
        }
    }
    let outs = acc.clone();
    b.module(Stage::Fragment, outs)
}

/// A loop with a per-lane trip count, a divergent `if`, `continue`, and a local array.
fn loopy_vertex() -> Module {
    use BinaryOp::*;
    let mut b = Fb::new();
    b.f.arrays.push(ArrayDecl {
        kind: ScalarKind::F32,
        len: 8,
    });
    let n = b.def(ScalarKind::I32, Op::Input(0));
    let x = b.def(ScalarKind::F32, Op::Input(1));
    let i = b.def(ScalarKind::I32, Op::Const(Scalar::I32(0)));
    let one = b.def(ScalarKind::I32, Op::Const(Scalar::I32(1)));
    let seven = b.def(ScalarKind::I32, Op::Const(Scalar::I32(7)));
    let s = b.def(ScalarKind::F32, Op::Const(Scalar::F32(0.0)));
    let pre = std::mem::take(&mut b.body);
    let done = b.bin(SLt, i, n);
    let stop = b.def(ScalarKind::Bool, Op::Unary(UnaryOp::LogicalNot, done));
    let label = Label(1);
    b.body.push(Stmt::If {
        cond: stop,
        then_body: vec![Stmt::Break(label)],
        else_body: vec![],
    });
    let slot = b.bin(And, i, seven);
    let odd = b.bin(And, i, one);
    let is_odd = b.bin(IEq, odd, one);
    let old = b.def(
        ScalarKind::F32,
        Op::LoadArray {
            array: ArrayId(0),
            index: slot,
        },
    );
    let sx = b.def(ScalarKind::F32, Op::Unary(UnaryOp::Sin, x));
    b.body.push(Stmt::If {
        cond: is_odd,
        then_body: vec![Stmt::Continue(label)],
        else_body: vec![],
    });
    let t = b.bin(FAdd, old, sx);
    b.body.push(Stmt::StoreArray {
        array: ArrayId(0),
        index: slot,
        value: t,
    });
    b.body.push(Stmt::Assign {
        dst: s,
        op: Op::Binary(FAdd, s, t),
    });
    let body = std::mem::replace(&mut b.body, pre);
    b.body.push(Stmt::Loop {
        label,
        body,
        continuing: vec![Stmt::Assign {
            dst: i,
            op: Op::Binary(IAdd, i, one),
        }],
    });
    b.module(Stage::Vertex, vec![s])
}

fn bench_compile(c: &mut Criterion) {
    for (name, m) in [
        ("lit_fragment", lit_fragment()),
        ("loopy_vertex", loopy_vertex()),
    ] {
        c.bench_function(&format!("compile/{name}"), |bch| {
            bch.iter(|| jit::compile_uncached(black_box(&m)).expect("compiles"))
        });
        c.bench_function(&format!("compile_cached/{name}"), |bch| {
            bch.iter(|| jit::compile(black_box(&m)).expect("compiles"))
        });
    }
}

fn bench_run(c: &mut Criterion) {
    let data = softgl::jit::StageData {
        uniforms: (0..32).map(|i| (i as f32 * 0.37).to_bits()).collect(),
        blocks: vec![],
        ..Default::default()
    };
    let sampler = softgl::sampler::SampleContext::default();
    let env = jit::BoundEnv::new(&data, &sampler);
    let builtins = [0u32; Builtin::COUNT * 4];
    for (name, m, inputs) in [
        (
            "lit_fragment",
            lit_fragment(),
            (0..24)
                .map(|i| (0.1 * i as f32).to_bits())
                .collect::<Vec<u32>>(),
        ),
        (
            "loopy_vertex",
            loopy_vertex(),
            vec![
                3,
                9,
                17,
                30,
                0x3F00_0000,
                0x3F80_0000,
                0x4000_0000,
                0x4040_0000,
            ],
        ),
    ] {
        let code = jit::compile(&m).expect("compiles");
        let mut outputs = vec![0u32; code.output_words() as usize * 4];
        c.bench_function(&format!("run4/{name}"), |bch| {
            bch.iter(|| {
                jit::run(
                    &*code,
                    &env,
                    black_box(&inputs),
                    &builtins,
                    &mut outputs,
                    0xF,
                )
            })
        });
    }
}

criterion_group!(benches, bench_compile, bench_run);
criterion_main!(benches);
