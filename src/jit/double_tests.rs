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

/// Compiles vertex shader `src`, runs it through generated code and the interpreter on
/// float input rows (one `vec4 v` per lane), checks that they agree bit for bit, and
/// returns the 4 lanes of each word of the output `r`.
fn glsl_run(src: &str, lanes: [[f32; 4]; 4]) -> Vec<[u32; 4]> {
    let out = crate::glsl::compile(Stage::Vertex, src);
    let m = out
        .module
        .unwrap_or_else(|| panic!("expected to compile:\n{}\n{src}", out.info_log));
    crate::glsl::verify::verify_module(&m).expect("well-formed IR");
    let code = super::compile(&m).expect("compiles");
    let v = m.inputs.iter().find(|i| i.name == "v").expect("input v");
    let mut inputs = vec![0u32; (v.slot as usize + 4) * 4];
    for (l, x) in lanes.iter().enumerate() {
        for (c, f) in x.iter().enumerate() {
            inputs[(v.slot as usize + c) * 4 + l] = f.to_bits();
        }
    }
    let env = Env {
        inputs,
        mask: 0xF,
        ..Env::default()
    };
    let (jo, _) = run_code(&*code, &env);
    let io = interp_run(&m, &env);
    assert_eq!(jo, io, "JIT and interpreter differ\n{src}");
    let r = m.outputs.iter().find(|o| o.name == "r").expect("output r");
    let words = jo.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]);
    words.skip(r.slot as usize).take(r.words as usize).collect()
}

/// The doubles a shader wrote to `out double r[N]` (word pairs), lane `lane`.
fn doubles_of(words: &[[u32; 4]], lane: usize) -> Vec<f64> {
    words
        .chunks(2)
        .map(|p| f64::from_bits(u64::from(p[0][lane]) | u64::from(p[1][lane]) << 32))
        .collect()
}

#[test]
fn glsl_double_arithmetic_conversions_and_builtins() {
    let src = "#version 400
        in vec4 v;
        out double r[34];
        void main() {
            double a = v.x;            // float -> double, exact
            double b = double(v.y) / 3.0lf;
            dvec3 p = dvec3(a, b, 0.1lf);
            dvec3 q = dvec3(v.z, -1, 2u);
            r[0] = a + b;
            r[1] = a * b - 0.1lf;
            r[2] = -b;
            r[3] = sqrt(abs(b));
            r[4] = floor(b); r[5] = ceil(b); r[6] = trunc(b); r[7] = roundEven(b);
            r[8] = fract(b);
            r[9] = mod(a, 0.75lf);
            r[10] = min(a, b); r[11] = max(a, b); r[12] = clamp(b, -0.5lf, 0.5);
            r[13] = mix(a, b, 0.25lf); r[14] = step(0.0lf, b); r[15] = smoothstep(-1.0lf, 1.0lf, b);
            r[16] = sign(b);
            r[17] = dot(p, q); r[18] = length(p); r[19] = distance(p, q);
            dvec3 c = cross(p, q);
            r[20] = c.x; r[21] = c.y; r[22] = c.z;
            r[23] = fma(a, b, 0.1lf);
            dmat2 m = dmat2(a, b, 0.5lf, 2.0lf);
            r[24] = determinant(m);
            dmat2 im = inverse(m);
            r[25] = im[0][0]; r[26] = im[1][0];
            dvec2 mv = m * dvec2(1.0lf, 3.0lf);
            r[27] = mv.x; r[28] = mv.y;
            r[29] = double(int(b * 100.0lf));
            r[30] = double(float(b));
            r[31] = (a < b) ? 1.0lf : 0.0lf;
            r[32] = (p == dvec3(a, b, 0.1lf) && all(lessThanEqual(p, p))) ? 1.0lf : 0.0lf;
            r[33] = packDouble2x32(unpackDouble2x32(b) + uvec2(0u, 0u));
            gl_Position = vec4(0.0);
        }";
    let lanes = [
        [1.5f32, 2.0, -0.25, 0.0],
        [-3.25, 7.0, 4.0, 0.0],
        [0.0, -1.0, 1.0, 0.0],
        [1e10, 1e-3, -2.0, 0.0],
    ];
    let words = glsl_run(src, lanes);
    for (lane, x) in lanes.iter().enumerate() {
        let got = doubles_of(&words, lane);
        let a = f64::from(x[0]);
        let b = f64::from(x[1]) / 3.0;
        let p = [a, b, 0.1];
        let q = [f64::from(x[2]), -1.0, 2.0];
        let floor = b.floor();
        let fa = a - 0.75 * (a / 0.75).floor();
        let t = ((b + 1.0) / 2.0).clamp(0.0, 1.0);
        let dot = p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
        let len = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
        let dd = [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
        let dist = (dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2]).sqrt();
        let det = a * 2.0 - 0.5 * b;
        let want = [
            a + b,
            a * b - 0.1,
            -b,
            b.abs().sqrt(),
            floor,
            b.ceil(),
            b.trunc(),
            b.round_ties_even(),
            b - floor,
            fa,
            if a < b { a } else { b },
            if a > b { a } else { b },
            b.clamp(-0.5, 0.5),
            a * (1.0 - 0.25) + b * 0.25,
            if b < 0.0 { 0.0 } else { 1.0 },
            t * t * (3.0 - 2.0 * t),
            if b > 0.0 {
                1.0
            } else if b < 0.0 {
                -1.0
            } else {
                b
            },
            dot,
            len,
            dist,
            p[1] * q[2] - q[1] * p[2],
            p[2] * q[0] - q[2] * p[0],
            p[0] * q[1] - q[0] * p[1],
            a.mul_add(b, 0.1),
            det,
            2.0 / det,
            -0.5 / det,
            a * 1.0 + 0.5 * 3.0,
            b * 1.0 + 2.0 * 3.0,
            f64::from((b * 100.0) as i32),
            f64::from(b as f32),
            if a < b { 1.0 } else { 0.0 },
            1.0,
            b,
        ];
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                g.to_bits(),
                w.to_bits(),
                "lane {lane} r[{i}]: {g:e} vs {w:e}"
            );
        }
    }
}

#[test]
fn glsl_double_rules_are_checked() {
    let fails = [
        (
            "#version 400\nflat in double d; out vec4 c;\nvoid main() { c = vec4(d); }",
            Stage::Fragment,
            "",
        ),
        (
            "#version 400\nin double d; out vec4 c;\nvoid main() { c = vec4(d); }",
            Stage::Fragment,
            "double fragment inputs must be qualified `flat'",
        ),
        (
            "#version 400\nout double c;\nvoid main() { c = 1.0lf; }",
            Stage::Fragment,
            "fragment outputs cannot be double",
        ),
        (
            "#version 400\nvoid main() { double a = 1.0lf; double b = a % 2.0lf; }",
            Stage::Vertex,
            "operator not defined",
        ),
        (
            "#version 400\nvoid main() { int i = 1.0lf; }",
            Stage::Vertex,
            "cannot convert",
        ),
        (
            "#version 330\nvoid main() { double a = 1.0; }",
            Stage::Vertex,
            "",
        ),
        (
            "#version 400\nin dvec2 a;\nvoid main() { gl_Position = vec4(a.x); }",
            Stage::Vertex,
            "double vertex shader inputs require GLSL 4.10",
        ),
    ];
    for (i, (src, stage, msg)) in fails.iter().enumerate() {
        let out = crate::glsl::compile(*stage, src);
        if i == 0 {
            // The flat double input is fine.
            assert!(out.module.is_some(), "{}", out.info_log);
            continue;
        }
        assert!(out.module.is_none(), "expected an error for\n{src}");
        assert!(out.info_log.contains(msg), "{src}\n{}", out.info_log);
    }
    // Implicit conversions to double (GLSL 4.00 §4.1.10) and the int/uint/float
    // constructors from doubles compile.
    let ok = "#version 400\nuniform dmat3 m; uniform double d;\n\
              void main() { dmat3 x = mat3(1.0) * m; double y = 1 + d; int k = int(d);\n\
              uint u = uint(d); float f = float(y); bool b = bool(d); dvec4 v = dvec4(ivec4(k));\n\
              gl_Position = vec4(x[0][0] + y + double(k + int(u)) + double(b) + v.x);\n\
              gl_Position.x += f; }";
    let out = crate::glsl::compile(Stage::Vertex, ok);
    assert!(out.module.is_some(), "{}", out.info_log);
}

/// frexp of a finite double by repeated exact scaling (the test's own reference).
fn frexp_ref(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let (mut m, mut e) = (x, 0);
    while m.abs() >= 1.0 {
        m /= 2.0; // exact: |m| >= 1 is normal
        e += 1;
    }
    while m.abs() < 0.5 {
        m *= 2.0; // exact
        e -= 1;
    }
    (m, e)
}

#[test]
fn glsl_double_frexp_ldexp_modf() {
    // Each lane's double comes in as raw words (v.x low, v.y high), the ldexp exponent as
    // v.z's bits, so subnormals, ±0 and ±inf reach the shader exactly.
    let src = "#version 400
        in vec4 v;
        out double r[9];
        void main() {
            double x = packDouble2x32(floatBitsToUint(v.xy));
            int n = floatBitsToInt(v.z);
            int e;
            r[0] = frexp(x, e);
            r[1] = double(e);
            r[2] = ldexp(x, n);
            double ip;
            r[3] = modf(x, ip);
            r[4] = ip;
            ivec2 e2;
            dvec2 m2 = frexp(dvec2(x, -x), e2);
            r[5] = m2.y;
            r[6] = double(e2.y);
            dvec2 l2 = ldexp(dvec2(x, 0.75lf), ivec2(n, -1));
            r[7] = l2.x + l2.y;
            dvec2 ip2;
            r[8] = modf(dvec2(x), ip2).x;
            gl_Position = vec4(0.0);
        }";
    let p2 = |n: i32| f64::from_bits(((n + 1023) as u64) << 52);
    let cases: [(f64, i32, f64); 12] = [
        (0.49, 3, 3.92),
        (-0.0, 5, -0.0),
        (25.0, -2, 6.25),
        (5e-324, 2000, p2(926)),
        (-0.75 * f64::MIN_POSITIVE, -10, -(3.0 * 2f64.powi(-1034))),
        (f64::MAX, 1, f64::INFINITY),
        // 1.5 and 3 units of 2^-1074 / 2: ties, to even (2 units).
        (1.5, -1074, f64::from_bits(2)),
        (3.0, -1075, f64::from_bits(2)),
        (f64::NEG_INFINITY, 0, f64::NEG_INFINITY),
        (-1e300, -2100, -0.0),
        // (2 - 2^-52) · 2^-1075 rounds up to the smallest subnormal.
        (f64::MAX, -2098, f64::from_bits(1)),
        (-123.456, 7, -123.456 * 128.0),
    ];
    for chunk in cases.chunks(4) {
        let mut lanes = [[0f32; 4]; 4];
        for (l, (x, n, _)) in chunk.iter().enumerate() {
            let b = x.to_bits();
            lanes[l] = [
                f32::from_bits(b as u32),
                f32::from_bits((b >> 32) as u32),
                f32::from_bits(*n as u32),
                0.0,
            ];
        }
        let words = glsl_run(src, lanes);
        for (l, &(x, n, want_ldexp)) in chunk.iter().enumerate() {
            let got = doubles_of(&words, l);
            let (m, e) = frexp_ref(x);
            let (mn, en) = frexp_ref(-x);
            let ip = x.trunc();
            let want = [
                m,
                f64::from(e),
                want_ldexp,
                x - ip,
                ip,
                mn,
                f64::from(en),
                want_ldexp + 0.375,
                x - ip,
            ];
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!(
                    g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
                    "x = {x:e}, n = {n}: r[{i}] = {g:e}, want {w:e}"
                );
            }
            if x.is_finite() && x != 0.0 && e > -1021 {
                assert!(
                    (0.5..1.0).contains(&m.abs()) && m * p2(e - 1) * 2.0 == x,
                    "reference"
                );
            }
        }
    }
}

/// GLSL `fma(float)`: generated code with FMA3 and with the inline round-to-odd sequence
/// both equal `math::fma::fma_f32` (the interpreter's) bit for bit, NaN included (always
/// the canonical quiet NaN), over every triple of edge cases and 20,000 random triples.
#[test]
fn f32_fma_is_the_same_with_and_without_fma3() {
    use crate::math::fma::fma_f32;
    let mut b = Builder::new(Stage::Vertex);
    let [x, y, z] = [0, 1, 2].map(|i| b.input(i, K::F32));
    let r = b.op(K::F32, Op::Fma(x, y, z));
    b.output(r);
    let m = b.finish();
    crate::ir::validate(&m).expect("valid module");
    let hw = super::compile_uncached(&m).expect("compiles");
    super::double::FORCE_SOFT_FMA.with(|f| f.set(true));
    let soft = super::compile_uncached(&m);
    super::double::FORCE_SOFT_FMA.with(|f| f.set(false));
    let soft = soft.expect("compiles");
    let vals: Vec<f32> = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        1.0 + f32::EPSILON,
        -(1.0 + 2.0 * f32::EPSILON),
        24929.0 / 32768.0,
        673.0 / 512.0,
        2f32.powi(-60),
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x8000_0003),
        f32::MAX,
        f32::MIN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::from_bits(0xffc0_1234), // a NaN with a payload
    ];
    let e = vals.len();
    // Every triple of edge cases, then 20,000 random triples (all bit patterns).
    let mut triples: Vec<[f32; 3]> = Vec::new();
    for i in 0..e * e * e {
        triples.push([vals[i % e], vals[i / e % e], vals[i / (e * e)]]);
    }
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        f32::from_bits(s as u32)
    };
    for _ in 0..20_000 {
        triples.push([next(), next(), next()]);
    }
    let mut lanes_checked = 0;
    for t in triples.chunks_exact(4) {
        let mut inputs = Vec::new();
        for j in 0..3 {
            inputs.extend(t.iter().map(|x| x[j].to_bits()));
        }
        let env = Env {
            inputs,
            mask: 0xF,
            ..Env::default()
        };
        let (ho, _) = run_code(&*hw, &env);
        let (so, _) = run_code(&*soft, &env);
        let io = interp_run(&m, &env);
        for l in 0..4 {
            let want = fma_f32(t[l][0], t[l][1], t[l][2]).to_bits();
            assert_eq!(io[l], want, "interpreter, {:?}", t[l]);
            assert_eq!(ho[l], want, "FMA3, {:?}", t[l]);
            assert_eq!(so[l], want, "round to odd, {:?}", t[l]);
            lanes_checked += 1;
        }
    }
    assert!(lanes_checked >= 25_000);
}
