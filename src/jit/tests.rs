//! Tests of the JIT: hand-built IR modules run through generated code, checked bit for bit
//! against a scalar reference written here (the same semantics `ir::interp` documents), for
//! every `Stmt` and `Op` kind, divergent control flow, robust memory and texture calls.

// Lane loops index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

use std::sync::Arc;

use super::abi::{BufferRange, Invocation, ShaderEnv};
use super::runtime::test_hook;
use super::{compile, CompileError, ShaderCode};
use crate::ir::*;
use crate::math::lanes;
use crate::sampler::request::{TexOp, TexRequest};

// ---- a small module builder ----------------------------------------------------------------

struct Fb {
    f: Function,
    next_label: u32,
}

impl Fb {
    fn new() -> Self {
        Fb {
            f: Function::default(),
            next_label: 0,
        }
    }
    fn var(&mut self, k: ScalarKind) -> Var {
        self.f.vars.push(k);
        Var(self.f.vars.len() as u32 - 1)
    }
    fn label(&mut self) -> Label {
        self.next_label += 1;
        Label(self.next_label)
    }
    fn array(&mut self, kind: ScalarKind, len: u32) -> ArrayId {
        self.f.arrays.push(ArrayDecl { kind, len });
        ArrayId(self.f.arrays.len() as u32 - 1)
    }
    /// `dst = op` with a fresh var of kind `k`, appended to `body`.
    fn def(&mut self, body: &mut Vec<Stmt>, k: ScalarKind, op: Op) -> Var {
        let v = self.var(k);
        body.push(Stmt::Assign { dst: v, op });
        v
    }
    fn konst(&mut self, body: &mut Vec<Stmt>, s: Scalar) -> Var {
        self.def(body, s.kind(), Op::Const(s))
    }
    fn module(mut self, stage: Stage, body: Vec<Stmt>, outputs: Vec<Var>) -> Module {
        self.f.body = body;
        self.f.outputs = outputs;
        Module {
            stage,
            version: 450,
            func: self.f,
            inputs: vec![],
            outputs: vec![],
            uniforms: vec![],
            uniform_words: 0,
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

fn assign(dst: Var, op: Op) -> Stmt {
    Stmt::Assign { dst, op }
}

use ScalarKind::{Bool as B, F32, I32, U32};

pub(super) const SENTINEL: u32 = 0xDEAD_BEEF;

/// What a test run gets: uniforms, uniform blocks, SoA inputs and builtins, the lane mask.
#[derive(Default)]
pub(super) struct Env {
    pub(super) uniforms: Vec<u32>,
    pub(super) blocks: Vec<Vec<u8>>,
    /// The words bound to each storage block; runs write into them.
    pub(super) storage: Vec<Vec<std::sync::atomic::AtomicU32>>,
    pub(super) inputs: Vec<u32>,
    pub(super) builtins: Vec<u32>,
    pub(super) mask: u32,
    /// The loop budget per lane; None: `ir::interp::loop_budget()`.
    pub(super) loop_budget: Option<u32>,
    /// `ShaderEnv::loop_trips` of the run: set to 1 when the budget killed a lane.
    pub(super) loop_trips: std::sync::atomic::AtomicU32,
}

impl Env {
    fn inputs(rows: &[[u32; 4]]) -> Self {
        Env {
            inputs: rows.iter().flatten().copied().collect(),
            mask: 0xF,
            ..Env::default()
        }
    }
}

pub(super) fn run_code(code: &dyn ShaderCode, t: &Env) -> (Vec<u32>, u32) {
    let ranges: Vec<BufferRange> = t
        .blocks
        .iter()
        .map(|b| BufferRange {
            ptr: b.as_ptr(),
            len: b.len() as u64,
        })
        .collect();
    let storage: Vec<BufferRange> = t
        .storage
        .iter()
        .map(|s| BufferRange {
            ptr: s.as_ptr() as *const u8,
            len: s.len() as u64 * 4,
        })
        .collect();
    let env = ShaderEnv {
        uniforms: t.uniforms.as_ptr(),
        uniform_words: t.uniforms.len() as u64,
        blocks: ranges.as_ptr(),
        block_count: ranges.len() as u64,
        storage: storage.as_ptr(),
        storage_count: storage.len() as u64,
        sampler: std::ptr::null(),
        loop_trips: &t.loop_trips,
        loop_budget: t.loop_budget.unwrap_or_else(crate::ir::interp::loop_budget),
    };
    let mut inputs = t.inputs.clone();
    inputs.resize((code.input_words() as usize * 4).max(inputs.len()), 0);
    let mut builtins = t.builtins.clone();
    builtins.resize(Builtin::COUNT * 4, 0);
    let mut outputs = vec![SENTINEL; code.output_words() as usize * 4];
    let mut inv = Invocation {
        inputs: inputs.as_ptr(),
        outputs: outputs.as_mut_ptr(),
        builtins: builtins.as_ptr(),
        mask: t.mask,
    };
    // SAFETY: every pointer covers the sizes the code declares (resized above); the test
    // hook stands in for the sampler, so a null sampler context is never read.
    let alive = test_hook::with_hook(|| unsafe { code.call(&env, &mut inv) });
    (outputs, alive)
}

fn run(m: &Module, t: &Env) -> (Vec<u32>, u32) {
    let code = compile(m).unwrap_or_else(|e| panic!("compile failed: {e}"));
    run_code(&*code, t)
}

/// Output word `slot` for the 4 lanes.
fn out(o: &[u32], slot: usize) -> [u32; 4] {
    [
        o[slot * 4],
        o[slot * 4 + 1],
        o[slot * 4 + 2],
        o[slot * 4 + 3],
    ]
}

fn f(x: f32) -> u32 {
    x.to_bits()
}
fn fs(x: [f32; 4]) -> [u32; 4] {
    x.map(f32::to_bits)
}
fn is(x: [i32; 4]) -> [u32; 4] {
    x.map(|v| v as u32)
}

/// Equal bits, or both NaN (NaN payloads are not part of the contract: Rust's own float
/// operations do not promise them either).
pub(super) fn same(a: u32, b: u32) -> bool {
    a == b || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
}

// ---- scalar reference of every op ------------------------------------------------------------

fn bool_bits(b: bool) -> u32 {
    if b {
        u32::MAX
    } else {
        0
    }
}

fn fmin(a: f32, b: f32) -> f32 {
    if a < b {
        a
    } else {
        b
    }
}
fn fmax(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}

fn ref_unary(op: UnaryOp, x: u32) -> u32 {
    use UnaryOp as U;
    let fx = f32::from_bits(x);
    let ix = x as i32;
    match op {
        U::FNeg => f(-fx),
        U::FAbs => f(fx.abs()),
        U::FSign => {
            if fx > 0.0 {
                f(1.0)
            } else if fx < 0.0 {
                f(-1.0)
            } else {
                x
            }
        }
        // IEEE rounding from Rust's std: the inline sequences must equal it exactly.
        U::Floor => f(fx.floor()),
        U::Ceil => f(fx.ceil()),
        U::Trunc => f(fx.trunc()),
        U::RoundEven => f(fx.round_ties_even()),
        U::Fract => f(fx - fx.floor()),
        U::Sqrt => f(fx.sqrt()),
        U::InverseSqrt => f(1.0 / fx.sqrt()),
        U::Sin => f(lanes::sin(fx)),
        U::Cos => f(lanes::cos(fx)),
        U::Tan => f(lanes::tan(fx)),
        U::Asin => f(lanes::asin(fx)),
        U::Acos => f(lanes::acos(fx)),
        U::Atan => f(lanes::atan(fx)),
        U::Sinh => f(lanes::sinh(fx)),
        U::Cosh => f(lanes::cosh(fx)),
        U::Tanh => f(lanes::tanh(fx)),
        U::Asinh => f(lanes::asinh(fx)),
        U::Acosh => f(lanes::acosh(fx)),
        U::Atanh => f(lanes::atanh(fx)),
        U::Exp => f(lanes::exp(fx)),
        U::Exp2 => f(lanes::exp2(fx)),
        U::Log => f(lanes::log(fx)),
        U::Log2 => f(lanes::log2(fx)),
        U::IsNan => bool_bits(fx.is_nan()),
        U::IsInf => bool_bits(fx.is_infinite()),
        U::DFdxFine | U::DFdyFine | U::DFdxCoarse | U::DFdyCoarse => unreachable!("per quad"),
        U::INeg => ix.wrapping_neg() as u32,
        U::IAbs => ix.wrapping_abs() as u32,
        U::ISign => ix.signum() as u32,
        U::Not | U::LogicalNot => !x,
        U::BitReverse => x.reverse_bits(),
        U::BitCount => x.count_ones(),
        U::FindLsb => {
            if x == 0 {
                u32::MAX
            } else {
                x.trailing_zeros()
            }
        }
        U::FindMsbI => {
            let y = if ix < 0 { !x } else { x };
            (31 - y.leading_zeros() as i32) as u32
        }
        U::FindMsbU => (31 - x.leading_zeros() as i32) as u32,
        U::F2I => (fx as i32) as u32,
        U::F2U => fx as u32,
        U::I2F => f(ix as f32),
        U::U2F => f(x as f32),
        U::I2U | U::U2I | U::BitcastF2I | U::BitcastF2U | U::BitcastI2F | U::BitcastU2F => x,
        U::B2F => f(if x != 0 { 1.0 } else { 0.0 }),
        U::B2I | U::B2U => (x != 0) as u32,
        U::F2B => bool_bits(fx != 0.0),
        U::I2B => bool_bits(x != 0),
    }
}

fn ref_binary(op: BinaryOp, a: u32, b: u32) -> u32 {
    use BinaryOp as Bo;
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    let (ia, ib) = (a as i32, b as i32);
    match op {
        Bo::FAdd => f(fa + fb),
        Bo::FSub => f(fa - fb),
        Bo::FMul => f(fa * fb),
        Bo::FDiv => f(fa / fb),
        Bo::FMod => f(fa - fb * (fa / fb).floor()),
        Bo::FMin => f(fmin(fa, fb)),
        Bo::FMax => f(fmax(fa, fb)),
        Bo::Pow => f(lanes::pow(fa, fb)),
        Bo::Atan2 => f(lanes::atan2(fa, fb)),
        Bo::Step => f(if fb < fa { 0.0 } else { 1.0 }),
        Bo::IAdd => a.wrapping_add(b),
        Bo::ISub => a.wrapping_sub(b),
        Bo::IMul => a.wrapping_mul(b),
        Bo::SDiv => {
            if ib == 0 {
                0
            } else {
                ia.wrapping_div(ib) as u32
            }
        }
        Bo::UDiv => a.checked_div(b).unwrap_or(0),
        Bo::SRem => {
            if ib == 0 {
                0
            } else {
                ia.wrapping_rem(ib) as u32
            }
        }
        Bo::URem => a.checked_rem(b).unwrap_or(0),
        Bo::SMin => ia.min(ib) as u32,
        Bo::SMax => ia.max(ib) as u32,
        Bo::UMin => a.min(b),
        Bo::UMax => a.max(b),
        Bo::And | Bo::LogicalAnd => a & b,
        Bo::Or | Bo::LogicalOr => a | b,
        Bo::Xor | Bo::LogicalXor => a ^ b,
        Bo::LogicalEq => !(a ^ b),
        Bo::Shl => a.wrapping_shl(b),
        Bo::ShrS => ia.wrapping_shr(b) as u32,
        Bo::ShrU => a.wrapping_shr(b),
        Bo::FEq => bool_bits(fa == fb),
        Bo::FNe => bool_bits(fa != fb),
        Bo::FLt => bool_bits(fa < fb),
        Bo::FLe => bool_bits(fa <= fb),
        Bo::FGt => bool_bits(fa > fb),
        Bo::FGe => bool_bits(fa >= fb),
        Bo::IEq => bool_bits(a == b),
        Bo::INe => bool_bits(a != b),
        Bo::SLt => bool_bits(ia < ib),
        Bo::SLe => bool_bits(ia <= ib),
        Bo::SGt => bool_bits(ia > ib),
        Bo::SGe => bool_bits(ia >= ib),
        Bo::ULt => bool_bits(a < b),
        Bo::ULe => bool_bits(a <= b),
        Bo::UGt => bool_bits(a > b),
        Bo::UGe => bool_bits(a >= b),
    }
}

/// bitfieldExtract with the documented clamping (ops.rs, ir::interp): offset and bits read
/// as u32, offset clamped to 32, bits to 32 - offset.
fn ref_extract(v: u32, o: u32, n: u32, signed: bool) -> u32 {
    let o = o.min(32) as u64;
    let n = n.min(32 - o as u32) as u64;
    let mask = (1u64 << n) - 1;
    let r = ((v as u64) >> o) & mask;
    if signed && n > 0 {
        (((r << (64 - n)) as i64) >> (64 - n)) as u32
    } else {
        r as u32
    }
}

fn ref_insert(base: u32, ins: u32, o: u32, n: u32) -> u32 {
    let o = o.min(32) as u64;
    let n = n.min(32 - o as u32) as u64;
    let mask = ((1u64 << n) - 1) << o;
    (((base as u64) & !mask) | (((ins as u64) << o) & mask)) as u32
}

// ---- inputs ------------------------------------------------------------------------------

const NAN: u32 = 0x7FC0_0000;

fn float_inputs() -> Vec<[u32; 4]> {
    vec![
        fs([1.5, -2.25, 0.0, -0.0]),
        [NAN, f(f32::INFINITY), f(f32::NEG_INFINITY), f(3.7)],
        fs([1e-40, -0.5, 2.5, 1e30]),
        fs([-3.5, 0.49999997, 16777217.0, -1e-45]),
        fs([0.25, -0.75, 4.0e9, -3.0e9]),
        fs([2147483648.0, -2147483904.0, 0.999, 100.0]),
    ]
}

fn int_inputs() -> Vec<[u32; 4]> {
    vec![
        is([0, 1, -1, 7]),
        is([i32::MIN, i32::MAX, 12345, -98765]),
        [0x8000_0001, 0x0F0F_0F0F, 0xFFFF_FFFE, 16777217],
        is([32, 33, 64, -31]),
        is([2, -2, 3, -3]),
    ]
}

fn bool_inputs() -> Vec<[u32; 4]> {
    vec![[0, u32::MAX, 0, u32::MAX], [u32::MAX, u32::MAX, 0, 0]]
}

fn unary_kinds(op: UnaryOp) -> (ScalarKind, ScalarKind) {
    use UnaryOp as U;
    match op {
        U::IsNan | U::IsInf | U::F2B => (F32, B),
        U::INeg | U::IAbs | U::ISign | U::FindMsbI => (I32, I32),
        U::Not | U::BitReverse => (U32, U32),
        U::BitCount | U::FindLsb | U::FindMsbU | U::U2I => (U32, I32),
        U::LogicalNot => (B, B),
        U::F2I | U::BitcastF2I => (F32, I32),
        U::F2U | U::BitcastF2U => (F32, U32),
        U::I2F | U::BitcastI2F => (I32, F32),
        U::U2F | U::BitcastU2F => (U32, F32),
        U::I2U => (I32, U32),
        U::B2F => (B, F32),
        U::B2I => (B, I32),
        U::B2U => (B, U32),
        U::I2B => (I32, B),
        _ => (F32, F32),
    }
}

/// Every unary op but the derivatives (they need a quad; tested on their own), from the IR's
/// own op table so a new op cannot be forgotten here.
fn all_unary() -> impl Iterator<Item = UnaryOp> {
    crate::ir::validate::UNARY_OPS.into_iter().filter(|op| {
        !matches!(
            op,
            UnaryOp::DFdxFine | UnaryOp::DFdyFine | UnaryOp::DFdxCoarse | UnaryOp::DFdyCoarse
        )
    })
}

fn inputs_of(k: ScalarKind) -> Vec<[u32; 4]> {
    match k {
        F32 => float_inputs(),
        I32 | U32 => int_inputs(),
        B => bool_inputs(),
    }
}

fn binary_kind(op: BinaryOp) -> ScalarKind {
    use BinaryOp as Bo;
    match op {
        Bo::FAdd
        | Bo::FSub
        | Bo::FMul
        | Bo::FDiv
        | Bo::FMod
        | Bo::FMin
        | Bo::FMax
        | Bo::Pow
        | Bo::Atan2
        | Bo::Step
        | Bo::FEq
        | Bo::FNe
        | Bo::FLt
        | Bo::FLe
        | Bo::FGt
        | Bo::FGe => F32,
        Bo::LogicalAnd | Bo::LogicalOr | Bo::LogicalXor | Bo::LogicalEq => B,
        _ => I32,
    }
}

// ---- ops ---------------------------------------------------------------------------------

#[test]
fn every_unary_op_matches_the_reference() {
    for op in all_unary() {
        let (ik, ok) = unary_kinds(op);
        let mut fb = Fb::new();
        let mut body = vec![];
        let x = fb.def(&mut body, ik, Op::Input(0));
        let y = fb.def(&mut body, ok, Op::Unary(op, x));
        let m = fb.module(Stage::Vertex, body, vec![y]);
        let code = compile(&m).unwrap_or_else(|e| panic!("{op:?}: {e}"));
        for input in inputs_of(ik) {
            let (o, alive) = run_code(&*code, &Env::inputs(&[input]));
            assert_eq!(alive, 0xF);
            for l in 0..4 {
                let want = ref_unary(op, input[l]);
                assert!(
                    same(o[l], want),
                    "{op:?}({:#x}) lane {l}: got {:#x}, want {want:#x}",
                    input[l],
                    o[l]
                );
            }
        }
    }
}

#[test]
fn every_binary_op_matches_the_reference() {
    for op in crate::ir::validate::BINARY_OPS {
        let k = binary_kind(op);
        let mut fb = Fb::new();
        let mut body = vec![];
        let x = fb.def(&mut body, k, Op::Input(0));
        let y = fb.def(&mut body, k, Op::Input(1));
        let z = fb.var(U32);
        body.push(assign(z, Op::Binary(op, x, y)));
        let m = fb.module(Stage::Vertex, body, vec![z]);
        let code = compile(&m).unwrap_or_else(|e| panic!("{op:?}: {e}"));
        let ins = inputs_of(k);
        for a in &ins {
            for b in &ins {
                let (o, _) = run_code(&*code, &Env::inputs(&[*a, *b]));
                for l in 0..4 {
                    let want = ref_binary(op, a[l], b[l]);
                    assert!(
                        same(o[l], want),
                        "{op:?}({:#x}, {:#x}) lane {l}: got {:#x}, want {want:#x}",
                        a[l],
                        b[l],
                        o[l]
                    );
                }
            }
        }
    }
}

#[test]
fn integer_division_edge_cases_are_defined() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let x = fb.def(&mut body, I32, Op::Input(0));
    let y = fb.def(&mut body, I32, Op::Input(1));
    let q = fb.def(&mut body, I32, Op::Binary(BinaryOp::SDiv, x, y));
    let r = fb.def(&mut body, I32, Op::Binary(BinaryOp::SRem, x, y));
    let uq = fb.def(&mut body, U32, Op::Binary(BinaryOp::UDiv, x, y));
    let m = fb.module(Stage::Vertex, body, vec![q, r, uq]);
    let (o, _) = run(
        &m,
        &Env::inputs(&[is([i32::MIN, 7, -7, 5]), is([-1, 0, 2, -1])]),
    );
    assert_eq!(out(&o, 0), is([i32::MIN, 0, -3, -5]));
    assert_eq!(out(&o, 1), is([0, 0, -1, 0]));
    assert_eq!(
        out(&o, 2),
        [0x8000_0000 / 0xFFFF_FFFF, 0, 0xFFFF_FFF9 / 2, 0]
    );
}

#[test]
fn select_fma_clamp_mix() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let a = fb.def(&mut body, F32, Op::Input(0));
    let b = fb.def(&mut body, F32, Op::Input(1));
    let c = fb.def(&mut body, F32, Op::Input(2));
    let cond = fb.def(&mut body, B, Op::Input(3));
    let sel = fb.def(&mut body, F32, Op::Select { cond, a, b });
    let fma = fb.def(&mut body, F32, Op::Fma(a, b, c));
    let clamp = fb.def(&mut body, F32, Op::FClamp(a, b, c));
    let mix = fb.def(&mut body, F32, Op::FMix(a, b, c));
    let m = fb.module(Stage::Vertex, body, vec![sel, fma, clamp, mix]);
    // Lane 0: a*b+c where fma's single rounding differs from two roundings.
    let x = 1.0 + f32::EPSILON;
    let a_in = [x, 5.0, f32::NAN, 0.3];
    let b_in = [x, 1.0, 0.0, 0.7];
    let c_in = [-(1.0 + 2.0 * f32::EPSILON), 2.0, 1.0, 0.1];
    let (o, _) = run(
        &m,
        &Env::inputs(&[fs(a_in), fs(b_in), fs(c_in), [u32::MAX, 0, u32::MAX, 0]]),
    );
    assert_eq!(out(&o, 0), [f(a_in[0]), f(b_in[1]), NAN, f(b_in[3])]);
    let fma_want: [u32; 4] = std::array::from_fn(|l| f(a_in[l].mul_add(b_in[l], c_in[l])));
    assert_eq!(out(&o, 1)[0], fma_want[0]);
    assert_ne!(
        fma_want[0],
        f(a_in[0] * b_in[0] + c_in[0]),
        "lane 0 must tell fma apart"
    );
    for l in 0..4 {
        assert!(same(out(&o, 1)[l], fma_want[l]));
        let clamp = fmin(fmax(a_in[l], b_in[l]), c_in[l]);
        assert!(same(out(&o, 2)[l], f(clamp)), "clamp lane {l}");
        let mix = a_in[l] * (1.0 - c_in[l]) + b_in[l] * c_in[l];
        assert!(same(out(&o, 3)[l], f(mix)), "mix lane {l}");
    }
}

#[test]
fn bitfield_extract_and_insert() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let vi = fb.def(&mut body, I32, Op::Input(0));
    let vu = fb.def(&mut body, U32, Op::Input(0));
    let o = fb.def(&mut body, I32, Op::Input(1));
    let n = fb.def(&mut body, I32, Op::Input(2));
    let ins = fb.def(&mut body, U32, Op::Input(3));
    let ei = fb.def(
        &mut body,
        I32,
        Op::BitfieldExtract {
            value: vi,
            offset: o,
            bits: n,
        },
    );
    let eu = fb.def(
        &mut body,
        U32,
        Op::BitfieldExtract {
            value: vu,
            offset: o,
            bits: n,
        },
    );
    let bi = fb.def(
        &mut body,
        U32,
        Op::BitfieldInsert {
            base: vu,
            insert: ins,
            offset: o,
            bits: n,
        },
    );
    let m = fb.module(Stage::Vertex, body, vec![ei, eu, bi]);
    let code = compile(&m).unwrap();
    let cases: &[[[u32; 4]; 4]] = &[
        [
            [0xF0F0_1234, 0x8000_0000, 0xFFFF_FFFF, 0x0000_00F0],
            is([4, 28, 0, 4]),
            is([8, 4, 32, 4]),
            [0xAB, 0x5, 0x0, 0xFFFF_FFFF],
        ],
        [
            [0x1234_5678, 0x8765_4321, 0xFFFF_0000, 0x0F0F_0F0F],
            is([0, 31, 30, 40]),
            is([0, 1, 8, 3]),
            [0x1, 0x1, 0xFF, 0x7],
        ],
        [
            [0x1234_5678, 0x8765_4321, 0xFFFF_0000, 0x0F0F_0F0F],
            is([-1, 16, 8, 2]),
            is([4, -1, 16, 30]),
            [0x1, 0xFFFF, 0x1234, 0x3FFF_FFFF],
        ],
    ];
    for c in cases {
        let (o, _) = run_code(&*code, &Env::inputs(c));
        for l in 0..4 {
            let (v, off, n, ins) = (c[0][l], c[1][l], c[2][l], c[3][l]);
            assert_eq!(out(&o, 0)[l], ref_extract(v, off, n, true), "sext lane {l}");
            assert_eq!(
                out(&o, 1)[l],
                ref_extract(v, off, n, false),
                "uext lane {l}"
            );
            assert_eq!(out(&o, 2)[l], ref_insert(v, ins, off, n), "insert lane {l}");
        }
    }
    // Spot checks of the reference itself against GLSL's defined cases.
    assert_eq!(ref_extract(0xF0, 4, 4, true), u32::MAX);
    assert_eq!(ref_extract(0xF0, 4, 4, false), 0xF);
    assert_eq!(ref_insert(0, 0xFF, 4, 4), 0xF0);
    assert_eq!(ref_insert(7, 0x1, 30, 4), 0x4000_0007);
}

#[test]
fn conversions_at_the_edges() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let u = fb.def(&mut body, U32, Op::Input(0));
    let uf = fb.def(&mut body, F32, Op::Unary(UnaryOp::U2F, u));
    let fl = fb.def(&mut body, F32, Op::Input(1));
    let fu = fb.def(&mut body, U32, Op::Unary(UnaryOp::F2U, fl));
    let fi = fb.def(&mut body, I32, Op::Unary(UnaryOp::F2I, fl));
    let m = fb.module(Stage::Vertex, body, vec![uf, fu, fi]);
    let (o, _) = run(
        &m,
        &Env::inputs(&[
            [u32::MAX, 16_777_217, 0x8000_0081, 0xFFFF_FF7F],
            fs([-1.0, 4.3e9, f32::NAN, -3.0e9]),
        ]),
    );
    assert_eq!(
        out(&o, 0),
        fs([
            u32::MAX as f32,
            16_777_217u32 as f32,
            0x8000_0081u32 as f32,
            0xFFFF_FF7Fu32 as f32
        ])
    );
    assert_eq!(out(&o, 1), [0, u32::MAX, 0, 0]);
    assert_eq!(out(&o, 2), is([-1, i32::MAX, 0, i32::MIN]));
}

#[test]
fn builtins_inputs_and_constants() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let x = fb.def(&mut body, F32, Op::Builtin(Builtin::FragCoordX));
    let ff = fb.def(&mut body, B, Op::Builtin(Builtin::FrontFacing));
    let k = fb.konst(&mut body, Scalar::F32(-2.5));
    let inp = fb.def(&mut body, U32, Op::Input(2));
    let c = fb.def(&mut body, U32, Op::Copy(inp));
    let m = fb.module(Stage::Fragment, body, vec![x, ff, k, c]);
    let mut env = Env::inputs(&[[0; 4], [0; 4], [9, 8, 7, 6]]);
    env.builtins = vec![0; Builtin::COUNT * 4];
    let xr = Builtin::FragCoordX.index() * 4;
    env.builtins[xr..xr + 4].copy_from_slice(&fs([0.5, 1.5, 0.5, 1.5]));
    let fr = Builtin::FrontFacing.index() * 4;
    env.builtins[fr..fr + 4].copy_from_slice(&[u32::MAX, 0, u32::MAX, 0]);
    let (o, _) = run(&m, &env);
    assert_eq!(out(&o, 0), fs([0.5, 1.5, 0.5, 1.5]));
    assert_eq!(out(&o, 1), [u32::MAX, 0, u32::MAX, 0]);
    assert_eq!(out(&o, 2), [f(-2.5); 4]);
    assert_eq!(out(&o, 3), [9, 8, 7, 6]);
    assert_eq!(super::input_words(&m), 3);
}

#[test]
fn derivatives_are_quad_lane_differences() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let x = fb.def(&mut body, F32, Op::Input(0));
    let outs: Vec<Var> = [
        UnaryOp::DFdxFine,
        UnaryOp::DFdyFine,
        UnaryOp::DFdxCoarse,
        UnaryOp::DFdyCoarse,
    ]
    .iter()
    .map(|op| fb.def(&mut body, F32, Op::Unary(*op, x)))
    .collect();
    let m = fb.module(Stage::Fragment, body, outs);
    let (o, _) = run(&m, &Env::inputs(&[fs([1.0, 2.5, 4.0, 8.0])]));
    assert_eq!(out(&o, 0), fs([1.5, 1.5, 4.0, 4.0]));
    assert_eq!(out(&o, 1), fs([3.0, 5.5, 3.0, 5.5]));
    assert_eq!(out(&o, 2), fs([1.5; 4]));
    assert_eq!(out(&o, 3), fs([3.0; 4]));
}

// ---- control flow ------------------------------------------------------------------------

#[test]
fn divergent_if_runs_each_side_in_its_lanes() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let x = fb.def(&mut body, I32, Op::Input(0));
    let zero = fb.konst(&mut body, Scalar::I32(0));
    let ten = fb.konst(&mut body, Scalar::I32(10));
    let five = fb.konst(&mut body, Scalar::I32(5));
    let c = fb.def(&mut body, B, Op::Binary(BinaryOp::SGt, x, zero));
    let y = fb.var(I32);
    body.push(Stmt::If {
        cond: c,
        then_body: vec![assign(y, Op::Binary(BinaryOp::IMul, x, ten))],
        else_body: vec![assign(y, Op::Binary(BinaryOp::ISub, x, five))],
    });
    let m = fb.module(Stage::Vertex, body, vec![y]);
    let code = compile(&m).unwrap();
    // Divergent, then uniformly true, then uniformly false.
    for (input, want) in [
        ([1, -1, 2, -2], [10, -6, 20, -7]),
        ([1, 2, 3, 4], [10, 20, 30, 40]),
        ([-1, -2, 0, -4], [-6, -7, -5, -9]),
    ] {
        let (o, _) = run_code(&*code, &Env::inputs(&[is(input)]));
        assert_eq!(out(&o, 0), is(want), "input {input:?}");
    }
    // Lanes outside the mask keep the old output words.
    let mut env = Env::inputs(&[is([1, -1, 2, -2])]);
    env.mask = 0b0101;
    let (o, alive) = run_code(&*code, &env);
    assert_eq!(out(&o, 0), [10, SENTINEL, 20, SENTINEL]);
    assert_eq!(alive, 0b0101);
}

#[test]
fn loop_with_per_lane_trip_counts_break_and_continue() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let n = fb.def(&mut body, I32, Op::Input(0));
    let i = fb.konst(&mut body, Scalar::I32(0));
    let s = fb.konst(&mut body, Scalar::I32(0));
    let one = fb.konst(&mut body, Scalar::I32(1));
    let l = fb.label();
    let mut lbody = vec![];
    let lt = fb.def(&mut lbody, B, Op::Binary(BinaryOp::SLt, i, n));
    let ge = fb.def(&mut lbody, B, Op::Unary(UnaryOp::LogicalNot, lt));
    lbody.push(Stmt::If {
        cond: ge,
        then_body: vec![Stmt::Break(l)],
        else_body: vec![],
    });
    let odd = fb.def(&mut lbody, I32, Op::Binary(BinaryOp::And, i, one));
    let is_odd = fb.def(&mut lbody, B, Op::Binary(BinaryOp::IEq, odd, one));
    lbody.push(Stmt::If {
        cond: is_odd,
        then_body: vec![Stmt::Continue(l)],
        else_body: vec![],
    });
    lbody.push(assign(s, Op::Binary(BinaryOp::IAdd, s, i)));
    body.push(Stmt::Loop {
        label: l,
        body: lbody,
        continuing: vec![assign(i, Op::Binary(BinaryOp::IAdd, i, one))],
    });
    let m = fb.module(Stage::Vertex, body, vec![s, i]);
    let (o, _) = run(&m, &Env::inputs(&[is([0, 3, 6, 10])]));
    assert_eq!(out(&o, 0), is([0, 2, 6, 20]));
    assert_eq!(out(&o, 1), is([0, 3, 6, 10]));
}

#[test]
fn leave_from_inside_a_loop_exits_the_block() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let n = fb.def(&mut body, I32, Op::Input(0));
    let r = fb.konst(&mut body, Scalar::I32(0));
    let one = fb.konst(&mut body, Scalar::I32(1));
    let five = fb.konst(&mut body, Scalar::I32(5));
    let hundred = fb.konst(&mut body, Scalar::I32(100));
    let blk = fb.label();
    let lp = fb.label();
    let i = fb.var(I32);
    let mut bbody = vec![assign(i, Op::Const(Scalar::I32(0)))];
    let mut lbody = vec![];
    let eq = fb.def(&mut lbody, B, Op::Binary(BinaryOp::IEq, i, n));
    lbody.push(Stmt::If {
        cond: eq,
        then_body: vec![
            assign(r, Op::Binary(BinaryOp::IAdd, hundred, i)),
            Stmt::Leave(blk),
        ],
        else_body: vec![],
    });
    let ge = fb.def(&mut lbody, B, Op::Binary(BinaryOp::SGe, i, five));
    lbody.push(Stmt::If {
        cond: ge,
        then_body: vec![Stmt::Break(lp)],
        else_body: vec![],
    });
    bbody.push(Stmt::Loop {
        label: lp,
        body: lbody,
        continuing: vec![assign(i, Op::Binary(BinaryOp::IAdd, i, one))],
    });
    bbody.push(assign(r, Op::Copy(i)));
    body.push(Stmt::Block {
        label: blk,
        body: bbody,
    });
    let m = fb.module(Stage::Vertex, body, vec![r]);
    let (o, _) = run(&m, &Env::inputs(&[is([0, 2, 7, -1])]));
    assert_eq!(out(&o, 0), is([100, 102, 5, 5]));
}

fn return_and_discard_module() -> Module {
    let mut fb = Fb::new();
    let mut body = vec![];
    let x = fb.def(&mut body, I32, Op::Input(0));
    let o = fb.konst(&mut body, Scalar::I32(1));
    let consts: Vec<Var> = (0..3)
        .map(|k| fb.konst(&mut body, Scalar::I32(k)))
        .collect();
    let is0 = fb.def(&mut body, B, Op::Binary(BinaryOp::IEq, x, consts[0]));
    body.push(Stmt::If {
        cond: is0,
        then_body: vec![Stmt::Discard],
        else_body: vec![],
    });
    body.push(assign(o, Op::Const(Scalar::I32(2))));
    let is1 = fb.def(&mut body, B, Op::Binary(BinaryOp::IEq, x, consts[1]));
    body.push(Stmt::If {
        cond: is1,
        then_body: vec![Stmt::Return],
        else_body: vec![],
    });
    body.push(assign(o, Op::Const(Scalar::I32(3))));
    let is2 = fb.def(&mut body, B, Op::Binary(BinaryOp::IEq, x, consts[2]));
    let l = fb.label();
    body.push(Stmt::Loop {
        label: l,
        body: vec![
            Stmt::If {
                cond: is2,
                then_body: vec![Stmt::Discard],
                else_body: vec![],
            },
            Stmt::Break(l),
        ],
        continuing: vec![],
    });
    body.push(assign(o, Op::Const(Scalar::I32(4))));
    fb.module(Stage::Fragment, body, vec![o])
}

#[test]
fn return_keeps_outputs_and_discard_drops_them() {
    let m = return_and_discard_module();
    let (o, alive) = run(&m, &Env::inputs(&[is([0, 1, 2, 3])]));
    assert_eq!(alive, 0b1010);
    assert_eq!(out(&o, 0), [SENTINEL, 2, SENTINEL, 4]);
    let mut env = Env::inputs(&[is([0, 1, 2, 3])]);
    env.mask = 0b0111;
    let (o, alive) = run(&m, &env);
    assert_eq!(alive, 0b0010);
    assert_eq!(out(&o, 0), [SENTINEL, 2, SENTINEL, SENTINEL]);
}

#[test]
fn nested_loops_with_divergent_exits() {
    // for (i = 0; i < 4; i++) { for (j = 0; ; j++) { if (j >= i + n) break; if (j == 2)
    //   continue; s += j; } if (s > 6) break; }
    let mut fb = Fb::new();
    let mut body = vec![];
    let n = fb.def(&mut body, I32, Op::Input(0));
    let s = fb.konst(&mut body, Scalar::I32(0));
    let i = fb.konst(&mut body, Scalar::I32(0));
    let one = fb.konst(&mut body, Scalar::I32(1));
    let two = fb.konst(&mut body, Scalar::I32(2));
    let four = fb.konst(&mut body, Scalar::I32(4));
    let six = fb.konst(&mut body, Scalar::I32(6));
    let (lo, li) = (fb.label(), fb.label());
    let j = fb.var(I32);
    let mut obody = vec![];
    let done = fb.def(&mut obody, B, Op::Binary(BinaryOp::SGe, i, four));
    obody.push(Stmt::If {
        cond: done,
        then_body: vec![Stmt::Break(lo)],
        else_body: vec![],
    });
    obody.push(assign(j, Op::Const(Scalar::I32(0))));
    let mut ibody = vec![];
    let lim = fb.def(&mut ibody, I32, Op::Binary(BinaryOp::IAdd, i, n));
    let ge = fb.def(&mut ibody, B, Op::Binary(BinaryOp::SGe, j, lim));
    ibody.push(Stmt::If {
        cond: ge,
        then_body: vec![Stmt::Break(li)],
        else_body: vec![],
    });
    let eq2 = fb.def(&mut ibody, B, Op::Binary(BinaryOp::IEq, j, two));
    ibody.push(Stmt::If {
        cond: eq2,
        then_body: vec![Stmt::Continue(li)],
        else_body: vec![assign(s, Op::Binary(BinaryOp::IAdd, s, j))],
    });
    obody.push(Stmt::Loop {
        label: li,
        body: ibody,
        continuing: vec![assign(j, Op::Binary(BinaryOp::IAdd, j, one))],
    });
    let big = fb.def(&mut obody, B, Op::Binary(BinaryOp::SGt, s, six));
    obody.push(Stmt::If {
        cond: big,
        then_body: vec![Stmt::Break(lo)],
        else_body: vec![],
    });
    body.push(Stmt::Loop {
        label: lo,
        body: obody,
        continuing: vec![assign(i, Op::Binary(BinaryOp::IAdd, i, one))],
    });
    let m = fb.module(Stage::Vertex, body, vec![s, i]);
    let reference = |n: i32| {
        let (mut s, mut i) = (0, 0);
        while i < 4 {
            let mut j = 0;
            while j < i + n {
                if j != 2 {
                    s += j;
                }
                j += 1;
            }
            if s > 6 {
                break;
            }
            i += 1;
        }
        [s as u32, i as u32]
    };
    let ns = [0, 1, 3, -2];
    let (o, _) = run(&m, &Env::inputs(&[is(ns)]));
    for l in 0..4 {
        let [s, i] = reference(ns[l]);
        assert_eq!((out(&o, 0)[l], out(&o, 1)[l]), (s, i), "n = {}", ns[l]);
    }
}

#[test]
fn runaway_loops_are_killed_at_the_cap() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let x = fb.def(&mut body, I32, Op::Input(0));
    let zero = fb.konst(&mut body, Scalar::I32(0));
    let stop = fb.def(&mut body, B, Op::Binary(BinaryOp::SGt, x, zero));
    let l = fb.label();
    body.push(Stmt::Loop {
        label: l,
        body: vec![Stmt::If {
            cond: stop,
            then_body: vec![Stmt::Break(l)],
            else_body: vec![],
        }],
        continuing: vec![],
    });
    let m = fb.module(Stage::Fragment, body, vec![x]);
    let (o, alive) = run(&m, &Env::inputs(&[is([1, 0, 1, -1])]));
    assert_eq!(alive, 0b0101);
    assert_eq!(out(&o, 0), [1, SENTINEL, 1, SENTINEL]);
}

// ---- memory ------------------------------------------------------------------------------

#[test]
fn local_arrays_with_dynamic_and_out_of_range_indices() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let a = fb.array(I32, 4);
    let big = fb.array(U32, 40);
    let idx = fb.def(&mut body, I32, Op::Input(0));
    let val = fb.def(&mut body, I32, Op::Input(1));
    let cond = fb.def(&mut body, B, Op::Input(2));
    let k3 = fb.konst(&mut body, Scalar::I32(3));
    let k39 = fb.konst(&mut body, Scalar::I32(39));
    body.push(Stmt::StoreArray {
        array: a,
        index: idx,
        value: val,
    });
    // A masked store: only lanes where `cond` holds write element 3 of `big`.
    body.push(Stmt::If {
        cond,
        then_body: vec![Stmt::StoreArray {
            array: big,
            index: k39,
            value: val,
        }],
        else_body: vec![],
    });
    let r = fb.def(
        &mut body,
        I32,
        Op::LoadArray {
            array: a,
            index: idx,
        },
    );
    let r3 = fb.def(
        &mut body,
        I32,
        Op::LoadArray {
            array: a,
            index: k3,
        },
    );
    let rb = fb.def(
        &mut body,
        U32,
        Op::LoadArray {
            array: big,
            index: k39,
        },
    );
    let m = fb.module(Stage::Vertex, body, vec![r, r3, rb]);
    let (o, _) = run(
        &m,
        &Env::inputs(&[
            is([0, 3, 4, -1]),
            is([11, 22, 33, 44]),
            [u32::MAX, 0, 0, u32::MAX],
        ]),
    );
    assert_eq!(out(&o, 0), is([11, 22, 0, 0]));
    // Each lane has its own array: only lane 1 stored to element 3.
    assert_eq!(out(&o, 1), is([0, 22, 0, 0]));
    assert_eq!(out(&o, 2), is([11, 0, 0, 44]));
}

#[test]
fn uniform_loads_in_and_out_of_range() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let idx = fb.def(&mut body, I32, Op::Input(0));
    let c2 = fb.def(
        &mut body,
        U32,
        Op::Uniform {
            offset: 2,
            index: None,
        },
    );
    let c7 = fb.def(
        &mut body,
        U32,
        Op::Uniform {
            offset: 7,
            index: None,
        },
    );
    let d = fb.def(
        &mut body,
        U32,
        Op::Uniform {
            offset: 1,
            index: Some((idx, 2, 3)),
        },
    );
    let m = fb.module(Stage::Vertex, body, vec![c2, c7, d]);
    let mut env = Env::inputs(&[is([0, 1, 2, 3])]);
    env.uniforms = vec![10, 20, 30, 40, 50];
    let (o, _) = run(&m, &env);
    assert_eq!(out(&o, 0), [30; 4]);
    assert_eq!(out(&o, 1), [0; 4]);
    // Word 5 is past the block, index 3 past the count.
    assert_eq!(out(&o, 2), [20, 40, 0, 0]);
    let mut env = Env::inputs(&[is([-1, 1, i32::MIN, 0])]);
    env.uniforms = vec![10, 20, 30, 40, 50];
    let (o, _) = run(&m, &env);
    assert_eq!(out(&o, 2), [0, 40, 0, 20]);
    // No uniforms at all: everything reads 0.
    let (o, _) = run(&m, &Env::inputs(&[is([0, 1, 2, 3])]));
    assert_eq!(out(&o, 0), [0; 4]);
    assert_eq!(out(&o, 2), [0; 4]);
}

#[test]
fn block_loads_in_and_out_of_range() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let dynv = fb.def(&mut body, U32, Op::Input(0));
    let loads: Vec<Var> = [
        (0, 4, false),
        (0, 8, false),
        (0, 12, false),
        (0, 10, false),
        (5, 0, false),
        (0, 0, true),
        (1, 2, true),
    ]
    .iter()
    .map(|&(block, offset, d)| {
        fb.def(
            &mut body,
            U32,
            Op::BlockLoad {
                block,
                offset,
                dynamic: d.then_some(dynv),
            },
        )
    })
    .collect();
    let m = fb.module(Stage::Vertex, body, loads);
    let mut env = Env::inputs(&[[0, 4, 8, u32::MAX]]);
    env.blocks = vec![
        [1u32, 2, 3].iter().flat_map(|w| w.to_le_bytes()).collect(),
        (0u8..16).collect(),
    ];
    let (o, _) = run(&m, &env);
    assert_eq!(out(&o, 0), [2; 4]);
    assert_eq!(out(&o, 1), [3; 4]);
    assert_eq!(out(&o, 2), [0; 4], "offset 12 is past 12 bytes");
    assert_eq!(out(&o, 3), [0; 4], "a word that straddles the end reads 0");
    assert_eq!(out(&o, 4), [0; 4], "block 5 is not bound");
    assert_eq!(out(&o, 5), [1, 2, 3, 0]);
    // Unaligned offsets 2, 6, 10 in block 1; 2 + u32::MAX is out of range.
    assert_eq!(
        out(&o, 6),
        [
            u32::from_le_bytes([2, 3, 4, 5]),
            u32::from_le_bytes([6, 7, 8, 9]),
            u32::from_le_bytes([10, 11, 12, 13]),
            0
        ]
    );
}

// ---- textures ----------------------------------------------------------------------------

#[test]
fn texture_calls_pass_the_request_and_read_the_result() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let h_lo = fb.def(&mut body, U32, Op::Input(0));
    let h_hi = fb.def(&mut body, U32, Op::Input(1));
    let u = fb.def(&mut body, F32, Op::Input(2));
    let v = fb.def(&mut body, F32, Op::Input(3));
    let bias = fb.def(&mut body, F32, Op::Input(4));
    let cond = fb.def(&mut body, B, Op::Input(5));
    let dst: [Var; 4] = std::array::from_fn(|_| fb.var(F32));
    let fetch: [Var; 4] = std::array::from_fn(|_| fb.var(F32));
    let size: [Var; 2] = std::array::from_fn(|_| fb.var(I32));
    body.push(Stmt::Texture {
        dst,
        handle: [h_lo, h_hi],
        coord: [u, v],
        lod: Lod::Bias(bias),
        offset: [1, -2],
        compare: None,
        layer: None,
        cube_layer: None,
    });
    body.push(Stmt::If {
        cond,
        then_body: vec![Stmt::TexelFetch {
            dst: fetch,
            handle: [h_lo, h_hi],
            coord: [u, v],
            lod: bias,
            layer: None,
        }],
        else_body: vec![Stmt::TextureSize {
            dst: size,
            handle: [h_lo, h_hi],
            lod: bias,
            layers: None,
            samples: None,
        }],
    });
    let mut outs = dst.to_vec();
    outs.extend(fetch);
    outs.extend(size);
    let m = fb.module(Stage::Fragment, body, outs);
    let rows = [
        [100, 200, 300, 400],
        [7, 7, 7, 7],
        fs([0.25, 0.5, 0.75, 1.0]),
        fs([-0.25, -0.5, -0.75, -1.0]),
        fs([0.0, 1.0, 2.0, 3.0]),
        [u32::MAX, 0, u32::MAX, 0],
    ];
    test_hook::REQUESTS.with(|r| r.borrow_mut().clear());
    let (o, _) = run(&m, &Env::inputs(&rows));
    let reqs: Vec<TexRequest> = test_hook::REQUESTS.with(|r| r.borrow_mut().drain(..).collect());
    assert_eq!(reqs.len(), 3);
    let r = &reqs[0];
    assert_eq!((r.op, r.mask, r.quad), (0, 0xF, 1));
    assert_eq!(r.offset, [1, -2]);
    assert_eq!(r.handle_lo, rows[0]);
    assert_eq!(r.handle_hi, rows[1]);
    assert_eq!(r.coord, [rows[2], rows[3]]);
    assert_eq!(r.lod, rows[4]);
    let ans = test_hook::answer(r);
    for c in 0..4 {
        assert_eq!(out(&o, c), ans[c], "component {c}");
    }
    // The fetch ran for lanes 0 and 2, the size query for lanes 1 and 3; the vars each
    // did not write keep their initial 0.
    let (fr, sr) = (&reqs[1], &reqs[2]);
    assert_eq!((fr.op, fr.mask, fr.offset), (2, 0b0101, [0, 0]));
    assert_eq!((sr.op, sr.mask, sr.coord), (3, 0b1010, [[0; 4]; 2]));
    let fa = test_hook::answer(fr);
    let sa = test_hook::answer(sr);
    for c in 0..4 {
        assert_eq!(out(&o, 4 + c), [fa[c][0], 0, fa[c][2], 0]);
    }
    for c in 0..2 {
        assert_eq!(out(&o, 8 + c), [0, sa[c][1], 0, sa[c][3]]);
    }
}

#[test]
fn explicit_lod_and_vertex_stage_requests() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let h = fb.def(&mut body, U32, Op::Input(0));
    let lod = fb.konst(&mut body, Scalar::F32(2.0));
    let dst: [Var; 4] = std::array::from_fn(|_| fb.var(F32));
    body.push(Stmt::Texture {
        dst,
        handle: [h, h],
        coord: [h, h],
        lod: Lod::Explicit(lod),
        offset: [0, 0],
        compare: None,
        layer: None,
        cube_layer: None,
    });
    body.push(Stmt::Texture {
        dst,
        handle: [h, h],
        coord: [h, h],
        lod: Lod::Implicit,
        offset: [0, 0],
        compare: None,
        layer: None,
        cube_layer: None,
    });
    let m = fb.module(Stage::Vertex, body, dst.to_vec());
    test_hook::REQUESTS.with(|r| r.borrow_mut().clear());
    let mut env = Env::inputs(&[[1, 2, 3, 4]]);
    env.mask = 0b0011;
    run(&m, &env);
    let reqs: Vec<TexRequest> = test_hook::REQUESTS.with(|r| r.borrow_mut().drain(..).collect());
    assert_eq!((reqs[0].op, reqs[0].mask, reqs[0].quad), (1, 0b0011, 0));
    // Lanes outside the mask never ran the constant's assignment: their var is still 0.
    assert_eq!(reqs[0].lod, [f(2.0), f(2.0), 0, 0]);
    assert_eq!((reqs[1].op, reqs[1].lod), (0, [0; 4]));
}

/// Runs `m` with `env` through the JIT and through the interpreter, each texture request
/// answered by `test_hook::answer`: (JIT outputs, interpreter outputs, the JIT's requests,
/// the interpreter's requests), for tests that compare the two field by field.
fn run_both_with_requests(
    m: &Module,
    env: &Env,
) -> (Vec<u32>, Vec<u32>, Vec<TexRequest>, Vec<TexRequest>) {
    test_hook::REQUESTS.with(|r| r.borrow_mut().clear());
    let (jo, _) = run(m, env);
    let jit: Vec<TexRequest> = test_hook::REQUESTS.with(|r| r.borrow_mut().drain(..).collect());
    let seen = std::cell::RefCell::new(Vec::new());
    let texture = |r: &TexRequest| {
        seen.borrow_mut().push(*r);
        test_hook::answer(r)
    };
    let ienv = crate::ir::interp::InterpEnv {
        uniforms: &env.uniforms,
        blocks: &[],
        storage: &[],
        texture: &texture,
        quad: true,
    };
    let mut builtins = env.builtins.clone();
    builtins.resize(Builtin::COUNT * 4, 0);
    let mut io = vec![SENTINEL; m.func.outputs.len() * 4];
    let budget = crate::ir::interp::loop_budget();
    crate::ir::interp::run_budgeted(m, &ienv, &env.inputs, &builtins, &mut io, env.mask, budget);
    (jo, io, jit, seen.into_inner())
}

/// A shadow lookup (`compare`) sends `compare = 1` and the reference depths in `dref`, and
/// the JIT's request is the interpreter's, field for field (the sampler answers both
/// through the same Rust routine, so equal requests give equal pixels).
#[test]
fn shadow_requests_carry_the_reference_and_match_the_interpreter() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let h = fb.def(&mut body, U32, Op::Input(0));
    let u = fb.def(&mut body, F32, Op::Input(1));
    let dref = fb.def(&mut body, F32, Op::Input(2));
    let lod = fb.def(&mut body, F32, Op::Input(3));
    let dst: [Var; 4] = std::array::from_fn(|_| fb.var(F32));
    let plain: [Var; 4] = std::array::from_fn(|_| fb.var(F32));
    body.push(Stmt::Texture {
        dst,
        handle: [h, h],
        coord: [u, u],
        lod: Lod::Explicit(lod),
        offset: [-1, 2],
        compare: Some(dref),
        layer: None,
        cube_layer: None,
    });
    body.push(Stmt::Texture {
        dst: plain,
        handle: [h, h],
        coord: [u, u],
        lod: Lod::Implicit,
        offset: [0, 0],
        compare: None,
        layer: None,
        cube_layer: None,
    });
    let mut outs = dst.to_vec();
    outs.extend(plain);
    let m = fb.module(Stage::Fragment, body, outs);
    let rows = [
        [3, 4, 5, 6],
        fs([0.25, 0.5, 0.75, 1.0]),
        fs([0.1, -2.0, f32::NAN, 0.9]),
        fs([0.0, 1.0, 2.0, 3.0]),
    ];
    let mut env = Env::inputs(&rows);
    env.mask = 0b1011;
    let (jo, io, jit, interp) = run_both_with_requests(&m, &env);
    assert_eq!(jit.len(), 2);
    assert_eq!(interp.len(), 2);
    let fields = |r: &TexRequest| {
        (
            (r.op, r.mask, r.quad, r.offset, r.compare),
            (r.handle_lo, r.handle_hi, r.coord, r.lod, r.dref),
        )
    };
    for (j, i) in jit.iter().zip(&interp) {
        assert_eq!(fields(j), fields(i));
    }
    let r = &jit[0];
    assert_eq!((r.op, r.mask, r.compare, r.offset), (1, 0b1011, 1, [-1, 2]));
    // Inactive lane 2 never loaded its input: 0 there.
    assert_eq!(r.dref, [rows[2][0], rows[2][1], 0, rows[2][3]]);
    assert_eq!((jit[1].compare, jit[1].dref), (0, [0; 4]));
    assert!(jo.iter().zip(&io).all(|(a, b)| same(*a, *b)));
}

/// Array lookups send each lane's layer in `layer` (f32 for sampling, i32 for texelFetch),
/// textureSize of an array reads the layer count from the third result, and integer
/// results (isampler/usampler: i32/u32 dst vars) come back as the sampler's bits; the JIT's
/// requests are the interpreter's, field for field, and so are the outputs.
#[test]
fn array_and_integer_requests_match_the_interpreter() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let h = fb.def(&mut body, U32, Op::Input(0));
    let u = fb.def(&mut body, F32, Op::Input(1));
    let z = fb.def(&mut body, F32, Op::Input(2));
    let zi = fb.def(&mut body, I32, Op::Input(3));
    let ints: [Var; 4] = std::array::from_fn(|_| fb.var(I32));
    let uints: [Var; 4] = std::array::from_fn(|_| fb.var(U32));
    let size: [Var; 2] = std::array::from_fn(|_| fb.var(I32));
    let layers = fb.var(I32);
    body.push(Stmt::Texture {
        dst: ints,
        handle: [h, h],
        coord: [u, u],
        lod: Lod::Implicit,
        offset: [0, 1],
        compare: None,
        layer: Some(z),
        cube_layer: None,
    });
    body.push(Stmt::TexelFetch {
        dst: uints,
        handle: [h, h],
        coord: [zi, zi],
        lod: zi,
        layer: Some(zi),
    });
    body.push(Stmt::TextureSize {
        dst: size,
        handle: [h, h],
        lod: zi,
        layers: Some(layers),
        samples: None,
    });
    let mut outs = ints.to_vec();
    outs.extend(uints);
    outs.extend(size);
    outs.push(layers);
    let m = fb.module(Stage::Fragment, body, outs);
    let rows = [
        [3, 4, 5, 6],
        fs([0.25, 0.5, 0.75, 1.0]),
        fs([0.4, 1.5, -7.0, f32::NAN]),
        is([0, 2, -1, 9]),
    ];
    let mut env = Env::inputs(&rows);
    env.mask = 0b1101;
    let (jo, io, jit, interp) = run_both_with_requests(&m, &env);
    assert_eq!((jit.len(), interp.len()), (3, 3));
    let fields = |r: &TexRequest| {
        (
            (r.op, r.mask, r.quad, r.offset, r.compare),
            (r.handle_lo, r.handle_hi, r.coord, r.lod, r.dref, r.layer),
        )
    };
    for (j, i) in jit.iter().zip(&interp) {
        assert_eq!(fields(j), fields(i));
    }
    // Inactive lane 1 never loaded its inputs: 0 there.
    assert_eq!(jit[0].layer, [rows[2][0], 0, rows[2][2], rows[2][3]]);
    assert_eq!(jit[1].layer, [rows[3][0], 0, rows[3][2], rows[3][3]]);
    assert_eq!(jit[2].layer, [0; 4]);
    // The third result of the size query lands in `layers`.
    let sa = test_hook::answer(&jit[2]);
    let got = out(&jo, 10);
    for l in [0, 2, 3] {
        assert_eq!(got[l], sa[2][l], "lane {l}");
    }
    assert!(jo.iter().zip(&io).all(|(a, b)| same(*a, *b)));
}

/// Cube-map and 3D lookups from GLSL (the direction's z and r in the layer slot, D_ref of
/// samplerCubeShadow, textureGrad's cube and 3D λ computed in the shader, texelFetch and
/// textureSize of sampler3D): generated code makes the same requests as the interpreter,
/// field by field, and gets the same results.
#[test]
fn cube_and_3d_requests_match_the_interpreter() {
    let src = "#version 400
        uniform samplerCube c;
        uniform samplerCubeShadow cs;
        uniform sampler3D v;
        uniform isamplerCube ic;
        in vec3 p;
        in vec3 g;
        out vec4 o;
        void main() {
            vec4 a = textureGrad(c, p, g, g.zxy) + vec4(texture(cs, vec4(p, 0.5)));
            vec4 b = vec4(texelFetch(v, ivec3(p * 4.0), 1)) + vec4(textureSize(v, 0), 1.0);
            vec4 d = textureGrad(v, p, g, g.yzx) + textureLod(c, g, 0.5);
            o = a + b + d + vec4(texture(ic, p)) + vec4(textureSize(c, 1), 0.0, 0.0);
        }";
    let out = crate::glsl::compile(Stage::Fragment, src);
    let m = out
        .module
        .unwrap_or_else(|| panic!("expected to compile:\n{}", out.info_log));
    // Words of the inputs in slot order: p then g.
    let rows = [
        fs([0.25, -1.0, 0.75, 0.5]),
        fs([1.0, 0.5, -0.75, -0.5]),
        fs([-0.5, 0.25, 1.0, 2.0]),
        fs([0.01, 0.02, -0.03, 0.5]),
        fs([0.0, 0.04, 0.01, -0.25]),
        fs([0.02, -0.01, 0.0, 0.125]),
    ];
    let mut env = Env::inputs(&rows);
    // Distinct handles per sampler uniform, so the requests name them.
    env.uniforms = (0..m.uniform_words).map(|w| w * 7 + 1).collect();
    let (jo, io, jit, interp) = run_both_with_requests(&m, &env);
    // textureGrad asks textureSize first (twice), then each lookup and size query.
    assert!(jit.len() >= 9, "{}", jit.len());
    assert_eq!(jit.len(), interp.len());
    let fields = |r: &TexRequest| {
        (
            (r.op, r.mask, r.quad, r.offset, r.compare),
            (r.handle_lo, r.handle_hi, r.coord, r.lod, r.dref, r.layer),
        )
    };
    for (j, i) in jit.iter().zip(&interp) {
        assert_eq!(fields(j), fields(i));
    }
    // The shadow cube lookup carries P.z in the layer slot and 0.5 as D_ref.
    assert!(jit
        .iter()
        .any(|r| r.compare == 1 && r.layer == rows[2] && r.dref == [0.5f32.to_bits(); 4]));
    assert!(jo.iter().zip(&io).all(|(a, b)| same(*a, *b)));
}

/// The lookups of issue #13 from GLSL: 1D (t = ½), 1D array (layer slot), rectangle,
/// cube-map array (the cube in `cube_layer`, D_ref of the shadow form in `dref`), buffer
/// texelFetch, textureGather (the component in the lod slot, four requests for
/// textureGatherOffsets), textureQueryLod and textureQueryLevels: generated code makes the
/// same requests as the interpreter, field by field, and gets the same results.
#[test]
fn new_targets_and_functions_match_the_interpreter() {
    let src = "#version 430
        uniform sampler1D a;
        uniform isampler1DArray b;
        uniform sampler2DRect r;
        uniform samplerCubeArray ca;
        uniform samplerCubeArrayShadow cs;
        uniform usamplerBuffer u;
        uniform sampler2D t;
        uniform sampler2DShadow ts;
        in vec4 p;
        in vec4 g;
        out vec4 o;
        void main() {
            vec4 x = texture(a, p.x) + vec4(texture(b, p.xy)) + texture(r, p.zw * 8.0)
                + textureLod(ca, p, g.x) + vec4(texture(cs, g, 0.5));
            vec4 y = vec4(texelFetch(u, int(g.y * 8.0))) + textureGather(t, p.xy, 2)
                + textureGatherOffsets(t, g.xy, ivec2[4](ivec2(0, 1), ivec2(1, 0), ivec2(-1, -1), ivec2(2, 3)))
                + textureGather(ts, p.zw, 0.25) + textureGatherOffset(r, p.xy, ivec2(1, -2), 3);
            vec2 q = textureQueryLod(t, p.xy) + textureQueryLod(ca, g.xyz);
            o = x + y + vec4(q, float(textureQueryLevels(a)), float(textureSize(ca, 1).z))
                + textureGrad(a, p.y, g.z, g.w) + textureOffset(a, p.z, -3);
        }";
    let out = crate::glsl::compile(Stage::Fragment, src);
    let m = out
        .module
        .unwrap_or_else(|| panic!("expected to compile:\n{}", out.info_log));
    let rows = [
        fs([0.25, -1.0, 0.75, 0.5]),
        fs([1.0, 0.5, -0.75, -0.5]),
        fs([-0.5, 0.25, 1.0, 2.0]),
        fs([0.01, 0.02, -0.03, 0.5]),
        fs([0.0, 0.04, 0.01, -0.25]),
        fs([0.02, -0.01, 0.0, 0.125]),
        fs([0.3, 0.4, 0.5, 0.6]),
        fs([1.5, 2.5, 3.5, 4.5]),
    ];
    let mut env = Env::inputs(&rows);
    env.uniforms = (0..m.uniform_words).map(|w| w * 7 + 1).collect();
    let (jo, io, jit, interp) = run_both_with_requests(&m, &env);
    assert_eq!(jit.len(), interp.len());
    let fields = |r: &TexRequest| {
        (
            (r.op, r.mask, r.quad, r.offset, r.compare),
            (r.handle_lo, r.handle_hi, r.coord, r.lod, r.dref, r.layer),
            r.cube_layer,
        )
    };
    for (j, i) in jit.iter().zip(&interp) {
        assert_eq!(fields(j), fields(i));
    }
    let half = [0.5f32.to_bits(); 4];
    // texture(a, p.x): a 2D lookup at t = ½.
    assert!(jit
        .iter()
        .any(|r| r.op == TexOp::SampleImplicit as u32 && r.coord == [rows[0], half]));
    // texture(b, p.xy): the layer p.y in the layer slot, t = ½.
    assert!(jit
        .iter()
        .any(|r| r.coord == [rows[0], half] && r.layer == rows[1]));
    // textureLod(ca, p, g.x): the direction in coord and layer, the cube in cube_layer.
    assert!(jit.iter().any(|r| r.op == TexOp::SampleLod as u32
        && r.layer == rows[2]
        && r.cube_layer == rows[3]
        && r.lod == rows[4]));
    // texture(cs, g, 0.5): D_ref 0.5, the cube g.w.
    assert!(jit
        .iter()
        .any(|r| r.compare == 1 && r.cube_layer == rows[7] && r.dref == half));
    // textureGather(t, p.xy, 2): the component in the lod slot.
    let gathers: Vec<&TexRequest> = jit
        .iter()
        .filter(|r| r.op == TexOp::Gather as u32)
        .collect();
    assert!(gathers
        .iter()
        .any(|r| r.lod == [2; 4] && r.coord == [rows[0], rows[1]]));
    // textureGatherOffsets: four footprints, one per offset.
    for off in [[0, 1], [1, 0], [-1, -1], [2, 3]] {
        assert!(gathers
            .iter()
            .any(|r| r.offset == off && r.coord == [rows[4], rows[5]]));
    }
    // The shadow gather compares with 0.25; the rectangle gather reads component 3.
    assert!(gathers
        .iter()
        .any(|r| r.compare == 1 && r.dref == [0.25f32.to_bits(); 4]));
    assert!(gathers
        .iter()
        .any(|r| r.offset == [1, -2] && r.lod == [3; 4]));
    assert_eq!(gathers.len(), 7);
    assert_eq!(
        jit.iter()
            .filter(|r| r.op == TexOp::QueryLod as u32)
            .count(),
        2
    );
    assert!(jo.iter().zip(&io).all(|(a, b)| same(*a, *b)));
}

/// Multisample lookups from GLSL (texelFetch with the sample number in the level slot and,
/// for sampler2DMSArray, the layer in the layer slot; textureSize and textureSamples as one
/// size request at level 0 whose fourth component is the sample count): generated code
/// makes the same requests as the interpreter, field by field, and gets the same results,
/// the sample count included.
#[test]
fn multisample_requests_match_the_interpreter() {
    let src = "#version 450
        uniform sampler2DMS a;
        uniform isampler2DMSArray b;
        uniform usampler2DMS c;
        flat in ivec3 p;
        flat in int s;
        out vec4 o;
        void main() {
            vec4 x = texelFetch(a, p.xy, s) + vec4(texelFetch(b, p, s + 1));
            ivec3 sb = textureSize(b);
            o = x + vec4(texelFetch(c, p.yx, 3)) + vec4(textureSize(a), sb.z, 0.0)
                + vec4(float(textureSamples(c)), float(textureSamples(b)), 0.0, 0.0);
        }";
    let out = crate::glsl::compile(Stage::Fragment, src);
    let m = out
        .module
        .unwrap_or_else(|| panic!("expected to compile:\n{}", out.info_log));
    let rows = [
        is([1, 2, 3, 4]),
        is([5, 6, 7, 8]),
        is([0, 1, 2, -1]),
        is([0, 3, 7, 9]),
    ];
    let mut env = Env::inputs(&rows);
    env.mask = 0b1011;
    env.uniforms = (0..m.uniform_words).map(|w| w * 7 + 1).collect();
    let (jo, io, jit, interp) = run_both_with_requests(&m, &env);
    assert_eq!(jit.len(), interp.len());
    let fields = |r: &TexRequest| {
        (
            (r.op, r.mask, r.quad, r.offset, r.compare),
            (r.handle_lo, r.handle_hi, r.coord, r.lod, r.dref, r.layer),
        )
    };
    for (j, i) in jit.iter().zip(&interp) {
        assert_eq!(fields(j), fields(i));
    }
    let active = |row: [u32; 4]| [row[0], row[1], 0, row[3]];
    let plus_one = |row: [u32; 4]| row.map(|v| (v as i32 + 1) as u32);
    // texelFetch(a, p.xy, s): the sample in the level slot, no layer.
    assert!(jit.iter().any(|r| r.op == TexOp::Fetch as u32
        && r.coord == [active(rows[0]), active(rows[1])]
        && r.lod == active(rows[3])
        && r.layer == [0; 4]));
    // texelFetch(b, p, s + 1): the layer in the layer slot.
    assert!(jit.iter().any(|r| r.op == TexOp::Fetch as u32
        && r.layer == active(rows[2])
        && r.lod == active(plus_one(rows[3]))));
    // Every size request (textureSize and textureSamples) asks for level 0.
    let sizes: Vec<&TexRequest> = jit.iter().filter(|r| r.op == TexOp::Size as u32).collect();
    assert!(!sizes.is_empty() && sizes.iter().all(|r| r.lod == [0; 4]));
    assert!(jo.iter().zip(&io).all(|(a, b)| same(*a, *b)));
}

// ---- compile-time behaviour ------------------------------------------------------------

#[test]
fn the_cache_returns_the_same_code_for_the_same_module() {
    let mk = |k: f32| {
        let mut fb = Fb::new();
        let mut body = vec![];
        let x = fb.konst(&mut body, Scalar::F32(k));
        fb.module(Stage::Vertex, body, vec![x])
    };
    let a = compile(&mk(f32::NAN)).unwrap();
    let b = compile(&mk(f32::NAN)).unwrap();
    let c = compile(&mk(1.0)).unwrap();
    assert!(Arc::ptr_eq(&a, &b));
    assert!(!Arc::ptr_eq(&a, &c));
    assert_ne!(
        super::cache::encode(&mk(0.0)),
        super::cache::encode(&mk(-0.0))
    );
}

#[test]
fn bad_ir_is_an_error_not_a_crash() {
    let body = vec![Stmt::Break(Label(9))];
    let m = Fb::new().module(Stage::Vertex, body, vec![]);
    assert!(matches!(compile(&m), Err(CompileError::Bug(_))));

    let body = vec![assign(Var(5), Op::Const(Scalar::I32(0)))];
    let m = Fb::new().module(Stage::Vertex, body, vec![]);
    assert!(matches!(compile(&m), Err(CompileError::Bug(_))));

    let mut fb = Fb::new();
    fb.array(F32, 1 << 20);
    let m = fb.module(Stage::Vertex, vec![], vec![]);
    assert!(matches!(compile(&m), Err(CompileError::Limit(_))));

    let body = vec![Stmt::Continue(Label(1))];
    let body = vec![Stmt::Block {
        label: Label(1),
        body,
    }];
    let m = Fb::new().module(Stage::Vertex, body, vec![]);
    assert!(matches!(compile(&m), Err(CompileError::Bug(_))));
}

#[test]
fn arrays_start_zeroed_on_every_call() {
    // The first call fills the arrays; the second stores nothing and must read zeros, not
    // what the first call left on the stack. One small array (unrolled zeroing), one big
    // (zeroed by a loop).
    let mut fb = Fb::new();
    let mut body = vec![];
    let small = fb.array(F32, 3);
    let big = fb.array(F32, 100);
    let idx = fb.def(&mut body, I32, Op::Input(0));
    let val = fb.def(&mut body, F32, Op::Input(1));
    let store = fb.def(&mut body, B, Op::Input(2));
    body.push(Stmt::If {
        cond: store,
        then_body: vec![
            Stmt::StoreArray {
                array: small,
                index: idx,
                value: val,
            },
            Stmt::StoreArray {
                array: big,
                index: idx,
                value: val,
            },
        ],
        else_body: vec![],
    });
    let r = fb.def(
        &mut body,
        F32,
        Op::LoadArray {
            array: big,
            index: idx,
        },
    );
    let rs = fb.def(
        &mut body,
        F32,
        Op::LoadArray {
            array: small,
            index: idx,
        },
    );
    let m = fb.module(Stage::Vertex, body, vec![r, rs]);
    let code = compile(&m).unwrap();
    let (o, _) = run_code(
        &*code,
        &Env::inputs(&[is([0, 2, 99, 100]), [5, 6, 7, 8], [u32::MAX; 4]]),
    );
    assert_eq!(out(&o, 0), [5, 6, 7, 0]);
    assert_eq!(out(&o, 1), [5, 6, 0, 0]);
    let (o, _) = run_code(
        &*code,
        &Env::inputs(&[is([0, 2, 99, 100]), [5, 6, 7, 8], [0; 4]]),
    );
    assert_eq!(out(&o, 0), [0; 4]);
    assert_eq!(out(&o, 1), [0; 4]);
}

#[test]
fn loads_into_bool_vars_are_normalized() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let a = fb.def(&mut body, B, Op::Input(0));
    let u = fb.def(
        &mut body,
        B,
        Op::Uniform {
            offset: 0,
            index: None,
        },
    );
    let k = fb.def(
        &mut body,
        B,
        Op::BlockLoad {
            block: 0,
            offset: 0,
            dynamic: None,
        },
    );
    let raw = fb.def(&mut body, U32, Op::Input(0));
    let m = fb.module(Stage::Vertex, body, vec![a, u, k, raw]);
    let mut env = Env::inputs(&[[0, 1, 2, 0x8000_0000]]);
    env.uniforms = vec![1];
    env.blocks = vec![vec![0, 0, 0, 0]];
    let (o, _) = run(&m, &env);
    assert_eq!(out(&o, 0), [0, u32::MAX, u32::MAX, u32::MAX]);
    assert_eq!(out(&o, 1), [u32::MAX; 4]);
    assert_eq!(out(&o, 2), [0; 4]);
    assert_eq!(out(&o, 3), [0, 1, 2, 0x8000_0000]);
}

#[test]
fn vertex_code_has_zero_derivatives_and_break_leaves_blocks() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let x = fb.def(&mut body, F32, Op::Input(0));
    let d = fb.def(&mut body, F32, Op::Unary(UnaryOp::DFdxFine, x));
    let r = fb.konst(&mut body, Scalar::I32(1));
    let blk = fb.label();
    body.push(Stmt::Block {
        label: blk,
        body: vec![Stmt::Break(blk), assign(r, Op::Const(Scalar::I32(2)))],
    });
    let m = fb.module(Stage::Vertex, body, vec![d, r]);
    let (o, alive) = run(&m, &Env::inputs(&[fs([1.0, 2.0, 4.0, 8.0])]));
    assert_eq!(alive, 0xF);
    assert_eq!(out(&o, 0), [0; 4]);
    assert_eq!(out(&o, 1), [1; 4]);
}

#[test]
fn signed_uniform_indices_below_zero_read_zero() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let si = fb.def(&mut body, I32, Op::Input(0));
    let ui = fb.def(&mut body, U32, Op::Input(0));
    let count = u32::MAX;
    let s = fb.def(
        &mut body,
        U32,
        Op::Uniform {
            offset: 0,
            index: Some((si, 0, count)),
        },
    );
    let u = fb.def(
        &mut body,
        U32,
        Op::Uniform {
            offset: 0,
            index: Some((ui, 0, count)),
        },
    );
    let m = fb.module(Stage::Vertex, body, vec![s, u]);
    let mut env = Env::inputs(&[is([0, -1, 5, i32::MIN])]);
    env.uniforms = vec![77];
    let (o, _) = run(&m, &env);
    // Stride 0: every in-range index reads word 0. As u32, 0xFFFF_FFFF is not below the
    // count; 0x8000_0000 is.
    assert_eq!(out(&o, 0), [77, 0, 77, 0]);
    assert_eq!(out(&o, 1), [77, 0, 77, 77]);
}

#[test]
fn run_through_bound_env_reads_stage_data() {
    use crate::jit::StageData;
    use crate::sampler::SampleContext;
    let mut fb = Fb::new();
    let mut body = vec![];
    let u = fb.def(
        &mut body,
        U32,
        Op::Uniform {
            offset: 1,
            index: None,
        },
    );
    let b0 = fb.def(
        &mut body,
        U32,
        Op::BlockLoad {
            block: 0,
            offset: 0,
            dynamic: None,
        },
    );
    let b0_end = fb.def(
        &mut body,
        U32,
        Op::BlockLoad {
            block: 0,
            offset: 4,
            dynamic: None,
        },
    );
    let b1 = fb.def(
        &mut body,
        U32,
        Op::BlockLoad {
            block: 1,
            offset: 0,
            dynamic: None,
        },
    );
    let x = fb.def(&mut body, U32, Op::Input(0));
    let m = fb.module(Stage::Vertex, body, vec![u, b0, b0_end, b1, x]);
    let code = super::compile_uncached(&m).unwrap();
    // Block 0 is bound to bytes 4..8 of its buffer; block 1 is unbound.
    let buf: Vec<u8> = (0u8..16).collect();
    let data = StageData {
        uniforms: vec![5, 6],
        blocks: vec![Some((Arc::new(buf), 4, 4)), None],
        ..StageData::default()
    };
    let sampler = SampleContext::default();
    let env = super::BoundEnv::new(&data, &sampler);
    let inputs = [1, 2, 3, 4];
    let builtins = [0u32; Builtin::COUNT * 4];
    let mut outputs = [SENTINEL; 20];
    let alive = super::run(&*code, &env, &inputs, &builtins, &mut outputs, 0b1011);
    assert_eq!(alive, 0b1011);
    assert_eq!(out(&outputs, 0), [6, 6, SENTINEL, 6]);
    assert_eq!(out(&outputs, 1)[0], u32::from_le_bytes([4, 5, 6, 7]));
    assert_eq!(out(&outputs, 2)[0], 0, "past the bound range");
    assert_eq!(out(&outputs, 3)[0], 0, "unbound block");
    assert_eq!(out(&outputs, 4), [1, 2, SENTINEL, 4]);
    // A fresh compile is new code; `compile` caches.
    let again = super::compile_uncached(&m).unwrap();
    assert!(!Arc::ptr_eq(&code, &again));
}

#[test]
fn no_texture_call_without_active_lanes() {
    // Every lane breaks before the texture statement of the loop body.
    let mut fb = Fb::new();
    let mut body = vec![];
    let t = fb.konst(&mut body, Scalar::Bool(true));
    let h = fb.def(&mut body, U32, Op::Input(0));
    let dst: [Var; 4] = std::array::from_fn(|_| fb.var(F32));
    let l = fb.label();
    body.push(Stmt::Loop {
        label: l,
        body: vec![
            Stmt::If {
                cond: t,
                then_body: vec![Stmt::Break(l)],
                else_body: vec![],
            },
            Stmt::Texture {
                dst,
                handle: [h, h],
                coord: [h, h],
                lod: Lod::Implicit,
                offset: [0, 0],
                compare: None,
                layer: None,
                cube_layer: None,
            },
        ],
        continuing: vec![],
    });
    let m = fb.module(Stage::Fragment, body, dst.to_vec());
    test_hook::REQUESTS.with(|r| r.borrow_mut().clear());
    let (o, alive) = run(&m, &Env::inputs(&[[1, 2, 3, 4]]));
    assert_eq!(alive, 0xF);
    assert_eq!(test_hook::REQUESTS.with(|r| r.borrow().len()), 0);
    assert_eq!(out(&o, 0), [0; 4]);
}

#[test]
fn code_compiles_and_runs_on_many_threads_at_once() {
    let modules: Vec<Module> = (0..4)
        .map(|k| {
            let mut fb = Fb::new();
            let mut body = vec![];
            let x = fb.def(&mut body, I32, Op::Input(0));
            let c = fb.konst(&mut body, Scalar::I32(k * 1000 + 7));
            let y = fb.def(&mut body, I32, Op::Binary(BinaryOp::IMul, x, c));
            fb.module(Stage::Vertex, body, vec![y])
        })
        .collect();
    std::thread::scope(|s| {
        for (k, m) in modules.iter().enumerate() {
            s.spawn(move || {
                for round in 0..20 {
                    let code = if round % 2 == 0 {
                        compile(m).unwrap()
                    } else {
                        super::compile_uncached(m).unwrap()
                    };
                    let (o, _) = run_code(&*code, &Env::inputs(&[is([1, 2, 3, -1])]));
                    let c = k as i32 * 1000 + 7;
                    assert_eq!(out(&o, 0), is([c, 2 * c, 3 * c, -c]));
                }
            });
        }
    });
}

#[test]
fn lanes_killed_by_the_loop_cap_stop_running() {
    // if (x > 0) { loop {} } then a texture call: the lanes the cap killed must not reach it.
    let mut fb = Fb::new();
    let mut body = vec![];
    let x = fb.def(&mut body, I32, Op::Input(0));
    let zero = fb.konst(&mut body, Scalar::I32(0));
    let spin = fb.def(&mut body, B, Op::Binary(BinaryOp::SGt, x, zero));
    let l = fb.label();
    body.push(Stmt::If {
        cond: spin,
        then_body: vec![Stmt::Loop {
            label: l,
            body: vec![],
            continuing: vec![],
        }],
        else_body: vec![],
    });
    let dst: [Var; 4] = std::array::from_fn(|_| fb.var(F32));
    body.push(Stmt::Texture {
        dst,
        handle: [x, x],
        coord: [x, x],
        lod: Lod::Implicit,
        offset: [0, 0],
        compare: None,
        layer: None,
        cube_layer: None,
    });
    let m = fb.module(Stage::Fragment, body, vec![x]);
    test_hook::REQUESTS.with(|r| r.borrow_mut().clear());
    let (_, alive) = run(&m, &Env::inputs(&[is([1, 0, 1, -1])]));
    assert_eq!(alive, 0b1010);
    let masks: Vec<u32> = test_hook::REQUESTS.with(|r| r.borrow().iter().map(|q| q.mask).collect());
    assert_eq!(masks, vec![0b1010]);
}

#[test]
fn any_nonzero_condition_is_true() {
    // Valid IR keeps booleans 0 / -1, but a stray 1 must still act as true in whole lanes.
    let mut fb = Fb::new();
    let mut body = vec![];
    let c = fb.def(&mut body, U32, Op::Input(0));
    let a = fb.konst(&mut body, Scalar::U32(0xAAAA_AAAA));
    let b = fb.konst(&mut body, Scalar::U32(0x5555_5555));
    let s = fb.def(&mut body, U32, Op::Select { cond: c, a, b });
    let r = fb.konst(&mut body, Scalar::U32(0));
    body.push(Stmt::If {
        cond: c,
        then_body: vec![assign(r, Op::Copy(a))],
        else_body: vec![assign(r, Op::Copy(b))],
    });
    let m = fb.module(Stage::Vertex, body, vec![s, r]);
    let (o, _) = run(&m, &Env::inputs(&[[1, 0, 0x8000_0000, u32::MAX]]));
    let want = [0xAAAA_AAAA, 0x5555_5555, 0xAAAA_AAAA, 0xAAAA_AAAA];
    assert_eq!(out(&o, 0), want);
    assert_eq!(out(&o, 1), want);
}

#[test]
fn outside_jit_tests_texture_calls_reach_the_sampler() {
    use crate::jit::StageData;
    use crate::sampler::SampleContext;
    let mut fb = Fb::new();
    let mut body = vec![];
    let h = fb.def(&mut body, U32, Op::Input(0));
    let dst: [Var; 4] = std::array::from_fn(|_| fb.var(U32));
    body.push(Stmt::TexelFetch {
        dst,
        handle: [h, h],
        coord: [h, h],
        lod: h,
        layer: None,
    });
    let m = fb.module(Stage::Fragment, body, dst.to_vec());
    let code = compile(&m).unwrap();
    let data = StageData::default();
    let sampler = SampleContext::default();
    let env = super::BoundEnv::new(&data, &sampler);
    let mut outputs = [SENTINEL; 16];
    test_hook::REQUESTS.with(|r| r.borrow_mut().clear());
    super::run(
        &*code,
        &env,
        &[5, 6, 7, 8],
        &[0; Builtin::COUNT * 4],
        &mut outputs,
        0xF,
    );
    // The hook did not answer: nothing recorded, and the sampler's answer (no descriptor
    // for these handles) came back instead of the hook's.
    assert_eq!(test_hook::REQUESTS.with(|r| r.borrow().len()), 0);
    let mut req_like = [[0u32; 4]; 4];
    for (c, row) in req_like.iter_mut().enumerate() {
        for (l, v) in row.iter_mut().enumerate() {
            *v = [5u32, 6, 7, 8][l] ^ ((c as u32) << 24) ^ [5u32, 6, 7, 8][l];
        }
    }
    let sampled = crate::sampler::sample(
        &sampler,
        &TexRequest {
            op: 2,
            mask: 0xF,
            quad: 1,
            offset: [0, 0],
            compare: 0,
            handle_lo: [5, 6, 7, 8],
            handle_hi: [5, 6, 7, 8],
            coord: [[5, 6, 7, 8]; 2],
            lod: [5, 6, 7, 8],
            dref: [0; 4],
            layer: [0; 4],
            cube_layer: [0; 4],
            data: [[0; 4]; 4],
        },
    );
    for c in 0..4 {
        assert_eq!(out(&outputs, c), sampled[c]);
    }
    assert_ne!(sampled, req_like, "the hook's answer would differ");
}

// ---- inline maths (vmath.rs) ---------------------------------------------------------------

/// A scalar float function.
type F1 = fn(f32) -> f32;

/// Edge inputs of the inline maths sequences: ±0, denormals, ±inf, NaNs, huge values, the
/// range-reduction boundaries of each sequence, then a dense sweep and random bit patterns.
fn maths_inputs() -> Vec<u32> {
    let mut v: Vec<f32> = vec![
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7f80_0001), // signalling NaN
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x8000_0001),
        f32::from_bits(0x007f_ffff),
        f32::MAX,
        f32::MIN,
        f32::EPSILON,
        0.5,
        -0.5,
        1.5,
        -1.5,
        2.5,
        -2.5,
        8_388_607.5,
        -8_388_607.5,
        8_388_608.0,
        4_194_304.5,
        16_777_216.0,
        crate::math::lanes::TRIG_LIMIT,
        -crate::math::lanes::TRIG_LIMIT,
        1e30,
        -1e30,
        88.72,
        89.0,
        -103.9,
        -104.0,
        127.99,
        128.0,
        -149.0,
        -150.0,
        -151.0,
    ];
    for k in -12..=12 {
        let c = k as f32 * std::f32::consts::FRAC_PI_4;
        for d in -2..=2 {
            v.push(f32::from_bits((c.to_bits() as i32 + d) as u32));
        }
    }
    for b in [
        0.414_213_57f32,
        2.414_213_5,
        1.0,
        std::f32::consts::SQRT_2,
        0.5,
    ] {
        for d in -2..=2 {
            let x = f32::from_bits((b.to_bits() as i32 + d) as u32);
            v.extend([x, -x]);
        }
    }
    v.extend((0..4000).map(|i| -20.0 + i as f32 * 0.01));
    // Large trig arguments: the extended reduction (98304..2^24, k split in two), the
    // t >= 2^23 quadrant path, the fold at 2^24, float→int-saturating sizes.
    v.extend((0..2000).map(|i| 98_304.0 + i as f32 * 451.3));
    for x in [
        1e6,
        1e7,
        8_388_608.0 * std::f32::consts::FRAC_PI_2,
        13_176_794.0,
        13_176_796.0,
        16_777_215.0,
        16_777_216.0,
        16_777_218.0,
        2_147_483_648.0,
        4_294_967_296.0,
        3e38,
    ] {
        for d in -2..=2 {
            let y = f32::from_bits((f32::to_bits(x) as i32 + d) as u32);
            v.extend([y, -y]);
        }
    }
    let mut s = 0x2545_f491u32;
    let mut bits: Vec<u32> = v.iter().map(|x| x.to_bits()).collect();
    for _ in 0..4000 {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        bits.push(s);
    }
    bits
}

/// Runs `op` over `xs` through code compiled now (uncached, so a forced rounding sequence
/// really is emitted) and compares with `want` bit for bit (`same_nan`: any NaN for NaN).
fn check_unary_code(op: UnaryOp, xs: &[u32], want: impl Fn(u32) -> u32, same_nan: bool) {
    let mut fb = Fb::new();
    let mut body = vec![];
    let x = fb.def(&mut body, F32, Op::Input(0));
    let y = fb.def(&mut body, F32, Op::Unary(op, x));
    let m = fb.module(Stage::Vertex, body, vec![y]);
    let code = super::compile_uncached(&m).unwrap_or_else(|e| panic!("{op:?}: {e}"));
    for c in xs.chunks(4) {
        let mut row = [0u32; 4];
        row[..c.len()].copy_from_slice(c);
        let (o, _) = run_code(&*code, &Env::inputs(&[row]));
        for l in 0..c.len() {
            let w = want(row[l]);
            let ok = if same_nan { same(o[l], w) } else { o[l] == w };
            assert!(ok, "{op:?}({:#x}) = {:#x}, want {w:#x}", row[l], o[l]);
        }
    }
}

#[test]
fn inline_maths_match_the_scalar_sequences_bit_for_bit() {
    use crate::math::lanes as l;
    use UnaryOp as U;
    let xs = maths_inputs();
    let exact: [(U, F1); 16] = [
        (U::Sin, l::sin),
        (U::Cos, l::cos),
        (U::Tan, l::tan),
        (U::Asin, l::asin),
        (U::Acos, l::acos),
        (U::Atan, l::atan),
        (U::Sinh, l::sinh),
        (U::Cosh, l::cosh),
        (U::Tanh, l::tanh),
        (U::Asinh, l::asinh),
        (U::Acosh, l::acosh),
        (U::Atanh, l::atanh),
        (U::Exp, l::exp),
        (U::Exp2, l::exp2),
        (U::Log, l::log),
        (U::Log2, l::log2),
    ];
    for (op, g) in exact {
        // NaN results are the canonical NaN in both.
        check_unary_code(op, &xs, |x| g(f32::from_bits(x)).to_bits(), false);
    }
}

#[test]
fn inline_rounding_is_ieee_with_and_without_sse41() {
    use UnaryOp as U;
    let xs = maths_inputs();
    let ieee: [(U, F1); 5] = [
        (U::Floor, f32::floor),
        (U::Ceil, f32::ceil),
        (U::Trunc, f32::trunc),
        (U::RoundEven, f32::round_ties_even),
        (U::Fract, |x| x - x.floor()),
    ];
    for force in [false, true] {
        super::vmath::FORCE_ROUND_SEQUENCE.with(|f| f.set(force));
        for (op, g) in ieee {
            check_unary_code(op, &xs, |x| g(f32::from_bits(x)).to_bits(), true);
        }
    }
    super::vmath::FORCE_ROUND_SEQUENCE.with(|f| f.set(false));
}

#[test]
fn inline_pow_atan2_mod_match_the_scalar_sequences() {
    use crate::math::lanes as l;
    let xs = maths_inputs();
    // Pairs: every edge input against a spread of the others, plus random pairs.
    let mut pairs = Vec::new();
    for (i, &a) in xs.iter().enumerate().take(150) {
        for &b in xs.iter().skip(i % 7).step_by(37).take(60) {
            pairs.push((a, b));
        }
    }
    for w in xs.windows(2).skip(150) {
        pairs.push((w[0], w[1]));
    }
    for force in [false, true] {
        super::vmath::FORCE_ROUND_SEQUENCE.with(|f| f.set(force));
        for (op, g, same_nan) in [
            (BinaryOp::Pow, l::pow as fn(f32, f32) -> f32, false),
            (BinaryOp::Atan2, l::atan2, false),
            (
                BinaryOp::FMod,
                |a: f32, b: f32| a - b * (a / b).floor(),
                true,
            ),
        ] {
            let mut fb = Fb::new();
            let mut body = vec![];
            let x = fb.def(&mut body, F32, Op::Input(0));
            let y = fb.def(&mut body, F32, Op::Input(1));
            let z = fb.def(&mut body, F32, Op::Binary(op, x, y));
            let m = fb.module(Stage::Vertex, body, vec![z]);
            let code = super::compile_uncached(&m).unwrap_or_else(|e| panic!("{op:?}: {e}"));
            for c in pairs.chunks(4) {
                let (mut ra, mut rb) = ([0u32; 4], [0u32; 4]);
                for (k, &(a, b)) in c.iter().enumerate() {
                    ra[k] = a;
                    rb[k] = b;
                }
                let (o, _) = run_code(&*code, &Env::inputs(&[ra, rb]));
                for k in 0..c.len() {
                    let w = g(f32::from_bits(ra[k]), f32::from_bits(rb[k])).to_bits();
                    let ok = if same_nan { same(o[k], w) } else { o[k] == w };
                    assert!(
                        ok,
                        "{op:?}({:#x}, {:#x}) = {:#x}, want {w:#x}",
                        ra[k], rb[k], o[k]
                    );
                }
            }
        }
    }
    super::vmath::FORCE_ROUND_SEQUENCE.with(|f| f.set(false));
}

/// `emit::lane_private_vars`: a var written at `main`'s top level after some lanes
/// returned is written without a mask, and the returned lanes' outputs still keep what they
/// wrote before returning (the output's own writes stay masked); the interpreter agrees.
/// Also: a uniform read twice at the top level is loaded once, and a chain of float
/// operations makes no bitcast pairs (the `emit` function's shape, before optimisation).
#[test]
fn top_level_writes_skip_the_mask_and_outputs_keep_returned_lanes() {
    let mut fb = Fb::new();
    let mut body = vec![];
    let x = fb.def(&mut body, I32, Op::Input(0));
    let hundred = fb.konst(&mut body, Scalar::I32(100));
    let t = fb.var(I32);
    body.push(assign(t, Op::Binary(BinaryOp::IAdd, x, hundred)));
    body.push(assign(t, Op::Binary(BinaryOp::IAdd, t, x)));
    let o = fb.var(I32);
    body.push(assign(o, Op::Copy(t)));
    let one = fb.konst(&mut body, Scalar::I32(1));
    let two = fb.konst(&mut body, Scalar::I32(2));
    let is1 = fb.def(&mut body, B, Op::Binary(BinaryOp::IEq, x, one));
    body.push(Stmt::If {
        cond: is1,
        then_body: vec![Stmt::Return],
        else_body: vec![],
    });
    body.push(assign(t, Op::Const(Scalar::I32(7))));
    let is2 = fb.def(&mut body, B, Op::Binary(BinaryOp::IEq, x, two));
    body.push(Stmt::If {
        cond: is2,
        then_body: vec![assign(o, Op::Copy(t))],
        else_body: vec![],
    });
    let u0 = fb.def(
        &mut body,
        F32,
        Op::Uniform {
            offset: 0,
            index: None,
        },
    );
    let u1 = fb.def(
        &mut body,
        F32,
        Op::Uniform {
            offset: 0,
            index: None,
        },
    );
    let s = fb.def(&mut body, F32, Op::Binary(BinaryOp::FMul, u0, u1));
    let s = fb.def(&mut body, F32, Op::Binary(BinaryOp::FAdd, s, u1));
    let s = fb.def(&mut body, F32, Op::Binary(BinaryOp::FMul, s, u0));
    let m = fb.module(Stage::Fragment, body, vec![o, s]);
    let private = super::emit::lane_private_vars(&m.func);
    assert!(private[t.0 as usize] && !private[o.0 as usize]);

    let mut env = Env::inputs(&[is([0, 1, 2, 3])]);
    env.uniforms = vec![f(3.0)];
    for mask in [0b1111, 0b0110, 0b1011] {
        env.mask = mask;
        let (jo, ja) = run(&m, &env);
        let mut want = [100, 102, 7, 106];
        for (lane, w) in want.iter_mut().enumerate() {
            if mask & (1 << lane) == 0 {
                *w = SENTINEL;
            }
        }
        assert_eq!(out(&jo, 0), want, "mask {mask:#06b}");
        assert_eq!(ja, mask);
        let (io, ia) = super::diff_tests::run_interp(&m, &env);
        assert_eq!((jo, ja), (io, ia), "mask {mask:#06b}: jit and interpreter");
    }

    let code = compile(&m).unwrap_or_else(|e| panic!("{e}"));
    let body = code
        .inline_body()
        .expect("a small fragment shader is inlinable");
    let clif = body.func.display().to_string();
    assert_eq!(
        clif.matches("load.i32 notrap readonly can_move").count(),
        1,
        "one load of uniform 0:\n{clif}"
    );
    // No f32 view is taken of an i32 view of a float: the chain stays in f32x4.
    let int_views: Vec<&str> = clif
        .lines()
        .filter(|l| l.contains("= bitcast.i32x4 little"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(!int_views.is_empty(), "{clif}");
    for v in int_views {
        assert!(
            !clif.contains(&format!("bitcast.f32x4 little {v}\n")),
            "{v} is viewed back:\n{clif}"
        );
    }
}
