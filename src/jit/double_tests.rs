//! Differential tests of `Op::F64` (doubles as word pairs): every op, both result words,
//! through generated code and the reference interpreter over edge-case doubles (signed
//! zeros, subnormals, ties, 2^52, huge values, infinities, NaN), with the host's FMA3 and
//! with the per-lane exact `math::fp64::fma` call; the interpreter is also checked against
//! Rust's own IEEE f64 operations.

use super::tests::{run_code, Env};
use crate::ir::builder::Builder;
use crate::ir::{interp, F64Op, Module, Op, ScalarKind as K, Stage, Var};

const ALL: [F64Op; 24] = {
    use F64Op::*;
    [
        Add, Sub, Mul, Div, Fma, Sqrt, Floor, Ceil, Trunc, RoundEven, Eq, Ne, Lt, Le, Gt, Ge,
        IsNan, IsInf, ToF32, ToI32, ToU32, FromF32, FromI32, FromU32,
    ]
};

fn doubles() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        0.3,
        -0.3,
        0.5,
        -0.5,
        -0.7,
        1.5,
        2.5,
        -2.5,
        1.0 / 3.0,
        0.1,
        10.0,
        -1.0,
        4_503_599_627_370_495.5,
        4_503_599_627_370_496.0,
        -4_503_599_627_370_497.0,
        1e300,
        -1e300,
        f64::MIN_POSITIVE,
        5e-324,
        -5e-324,
        f64::MAX,
        3e9,
        -3e9,
        4_294_967_295.9,
        2_147_483_647.5,
        -2_147_483_648.7,
        3.4028235677973366e38,
        1e-46,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..40 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v.push(f64::from_bits(
            (s & !(0x7ffu64 << 52)) | ((s >> 52) % 80 + 990) << 52,
        ));
    }
    v
}

/// One module computing every op over input doubles a, b, c (words 0..6) and the 32-bit
/// inputs f (word 6, f32), i (word 7, i32), u (word 8, u32); both words of double results.
fn module() -> (Module, Vec<(F64Op, u8)>) {
    let mut b = Builder::new(Stage::Vertex);
    let w: Vec<Var> = (0..6).map(|i| b.input(i, K::U32)).collect();
    let f = b.input(6, K::F32);
    let i = b.input(7, K::I32);
    let u = b.input(8, K::U32);
    let mut outs = Vec::new();
    for op in ALL {
        let args = match op {
            F64Op::FromF32 => [f; 6],
            F64Op::FromI32 => [i; 6],
            F64Op::FromU32 => [u; 6],
            _ => [w[0], w[1], w[2], w[3], w[4], w[5]],
        };
        let words: &[u8] = if op.double_result() { &[0, 1] } else { &[0] };
        for &word in words {
            let v = b.op(op.result_kind(), Op::F64 { op, args, word });
            b.output(v);
            outs.push((op, word));
        }
    }
    (b.finish(), outs)
}

/// The input rows for lanes taking (a, b, c) from `triples`.
fn rows(triples: &[(f64, f64, f64); 4]) -> Vec<u32> {
    let mut r = Vec::new();
    let word = |x: f64, hi: bool| {
        if hi {
            (x.to_bits() >> 32) as u32
        } else {
            x.to_bits() as u32
        }
    };
    for k in 0..6 {
        for t in triples {
            let x = [t.0, t.1, t.2][k / 2];
            r.push(word(x, k % 2 == 1));
        }
    }
    for t in triples {
        r.push((t.0 as f32).to_bits());
    }
    for t in triples {
        r.push((t.1 as i32) as u32);
    }
    for t in triples {
        r.push(t.2 as u32);
    }
    r
}

fn interp_run(m: &Module, env: &Env) -> Vec<u32> {
    let mut out = vec![0u32; m.func.outputs.len() * 4];
    let texture = |r: &crate::sampler::request::TexRequest| super::runtime::test_hook::answer(r);
    let ienv = interp::InterpEnv {
        uniforms: &[],
        blocks: &[],
        storage: &[],
        texture: &texture,
        quad: false,
    };
    let builtins = vec![0u32; crate::ir::Builtin::COUNT * 4];
    interp::run_budgeted(
        m,
        &ienv,
        &env.inputs,
        &builtins,
        &mut out,
        env.mask,
        interp::loop_budget(),
    );
    out
}

/// The JIT and the interpreter agree on every output of every case; NaN doubles compare
/// as NaN (their payloads are not part of the contract).
fn check(code: &dyn super::ShaderCode, m: &Module, outs: &[(F64Op, u8)], soft: bool) {
    let xs = doubles();
    let n = xs.len();
    let mut cases = 0;
    for k in 0..n * 6 {
        let pick = |j: usize| xs[(k * (j + 1) * 7 + k / n + j) % n];
        let triples: [(f64, f64, f64); 4] =
            std::array::from_fn(|l| (pick(l), pick(l + 4), pick(l + 8)));
        let env = Env {
            inputs: rows(&triples),
            mask: 0xF,
            ..Env::default()
        };
        let (jo, _) = run_code(code, &env);
        let io = interp_run(m, &env);
        for (slot, (op, word)) in outs.iter().enumerate() {
            for lane in 0..4 {
                let (j, i) = (jo[slot * 4 + lane], io[slot * 4 + lane]);
                if j == i {
                    continue;
                }
                // A NaN result: the other word of the pair decides (both NaN is fine).
                let nan = op.double_result() && {
                    let other = if *word == 0 { slot + 1 } else { slot - 1 };
                    let d = |v: &[u32]| {
                        let (lo, hi) = if *word == 0 {
                            (v[slot * 4 + lane], v[other * 4 + lane])
                        } else {
                            (v[other * 4 + lane], v[slot * 4 + lane])
                        };
                        f64::from_bits(u64::from(lo) | u64::from(hi) << 32).is_nan()
                    };
                    d(&jo) && d(&io)
                } || (*op == F64Op::ToF32
                    && f32::from_bits(j).is_nan()
                    && f32::from_bits(i).is_nan());
                assert!(
                    nan,
                    "{op:?} word {word} (soft fma {soft}) lane {lane} of {:?}: jit {j:#010x} \
                     interp {i:#010x}",
                    triples[lane]
                );
            }
        }
        cases += 1;
    }
    assert!(cases > 100);
}

#[test]
fn every_f64_op_agrees_with_the_interpreter() {
    let (m, outs) = module();
    crate::ir::validate(&m).expect("valid module");
    let code = super::compile_uncached(&m).expect("compiles");
    check(&*code, &m, &outs, false);
    // The call to the exact fma that CPUs without FMA3 get.
    super::double::FORCE_SOFT_FMA.with(|f| f.set(true));
    let soft = super::compile_uncached(&m);
    super::double::FORCE_SOFT_FMA.with(|f| f.set(false));
    check(&*soft.expect("compiles"), &m, &outs, true);
}

#[test]
fn the_interpreter_computes_ieee_doubles() {
    // The oracle itself against Rust's f64 operations (IEEE, no libm for these).
    let d = |x: f64| [x.to_bits() as u32, (x.to_bits() >> 32) as u32];
    let both = |op, a: f64, b: f64| {
        let (x, y) = (d(a), d(b));
        let args = [x[0], x[1], y[0], y[1], 0, 0];
        f64::from_bits(
            u64::from(interp::eval_f64(op, args, 0))
                | u64::from(interp::eval_f64(op, args, 1)) << 32,
        )
    };
    for a in doubles() {
        for b in doubles().into_iter().step_by(3) {
            for (op, want) in [
                (F64Op::Add, a + b),
                (F64Op::Sub, a - b),
                (F64Op::Mul, a * b),
                (F64Op::Div, a / b),
                (F64Op::Sqrt, a.sqrt()),
                (F64Op::Floor, a.floor()),
                (F64Op::Ceil, a.ceil()),
                (F64Op::Trunc, a.trunc()),
                (F64Op::RoundEven, a.round_ties_even()),
            ] {
                let got = both(op, a, b);
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "{op:?}({a:e}, {b:e}) = {got:e}, want {want:e}"
                );
            }
            let x = d(a);
            let args = [x[0], x[1], 0, 0, 0, 0];
            assert_eq!(interp::eval_f64(F64Op::ToI32, args, 0), (a as i32) as u32);
            assert_eq!(interp::eval_f64(F64Op::ToU32, args, 0), a as u32);
            assert_eq!(
                interp::eval_f64(F64Op::ToF32, args, 0),
                (a as f32).to_bits()
            );
        }
    }
    // Conversions to doubles are exact.
    let back = |op, w: u32| {
        let args = [w, 0, 0, 0, 0, 0];
        u64::from(interp::eval_f64(op, args, 0)) | u64::from(interp::eval_f64(op, args, 1)) << 32
    };
    assert_eq!(back(F64Op::FromU32, u32::MAX), 4_294_967_295f64.to_bits());
    assert_eq!(
        back(F64Op::FromI32, i32::MIN as u32),
        (-2_147_483_648f64).to_bits()
    );
    assert_eq!(
        back(F64Op::FromF32, 0.1f32.to_bits()),
        f64::from(0.1f32).to_bits()
    );
}
