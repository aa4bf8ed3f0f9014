//! The reference interpreter: the oracle the JIT is tested against, and the one place where
//! the exact result of every IR operation is written down. Generated code must match it
//! bit for bit.
//!
//! # Execution model
//!
//! Four lanes run in lockstep, exactly as generated code does. A statement list runs under
//! an execution mask; lanes leave the mask by `Break`/`Continue`/`Leave` (recorded per
//! label, and rejoining after the labelled construct or at the loop's `continuing`),
//! `Return` (the lane stops; it stays alive and its outputs are written) and `Discard`
//! (the lane dies: no outputs, its bit is cleared from the result). A list stops as soon as
//! its mask is empty.
//!
//! - `Assign`, `StoreArray` and texture statements write active lanes only; every var and
//!   array element starts as 0 in every lane.
//! - `If`: the then-arm runs under `mask & cond`, the else-arm under `mask & !cond`; lanes
//!   leaving either arm do not come back after the `If`.
//! - `Loop`: runs `body` then `continuing` while any lane is in the loop; lanes that
//!   `Continue` rejoin for `continuing`, lanes that `Break` rejoin after the loop.
//! - The loop budget (ARCHITECTURE.md §6, "every invocation terminates"): each lane
//!   (invocation) starts with `budget` iterations ([`loop_budget`], or the caller's). Each
//!   time a lane starts an iteration of any loop — the first one included, nested loops
//!   alike — its budget goes down by one; a lane whose budget is already 0 when it would
//!   start one is killed instead (as if discarded, in every stage: no outputs, its alive
//!   bit cleared) and counted as *tripped*. A lane's count depends on nothing but its own
//!   path through the shader, so the result is the same whichever lanes share a call, on
//!   every machine and thread count. The JIT must do exactly the same.
//! - `Block`: lanes that `Leave` it rejoin after it.
//!
//! # Operation semantics (the contract for the JIT)
//!
//! Floats (`a`, `b`, `x`, `y` are the operands, IEEE binary32, round to nearest even):
//!
//! | op | result |
//! |---|---|
//! | `FNeg`, `FAbs` | flip / clear the sign bit (NaN payloads kept) |
//! | `FSign` | `x > 0 ? 1.0 : x < 0 ? -1.0 : x` (±0 and NaN are returned unchanged) |
//! | `Floor`, `Ceil`, `Trunc` | IEEE roundToIntegral toward -inf / +inf / 0 ([`crate::math::lanes::floor`] …: exact, no libm) |
//! | `RoundEven` | IEEE roundToIntegralTiesToEven ([`crate::math::lanes::round_even`]) |
//! | `Fract` | `x - floor(x)` (±inf → NaN) |
//! | `Sqrt` | IEEE sqrt (negative → NaN, -0 → -0) |
//! | `InverseSqrt` | `1.0 / sqrt(x)` (two IEEE ops, so the JIT matches exactly) |
//! | `Sin` … `Log2` | the f32 sequences of [`crate::math::lanes`] (the JIT inlines the same ops) |
//! | `IsNan` | `x != x`; `IsInf`: `abs(x) == inf` |
//! | `DFdxFine` | lanes 0,1: `v1 - v0`; lanes 2,3: `v3 - v2` |
//! | `DFdyFine` | lanes 0,2: `v2 - v0`; lanes 1,3: `v3 - v1` |
//! | `DFdxCoarse`, `DFdyCoarse` | `v1 - v0`, `v2 - v0` in all four lanes |
//! | derivatives, non-quad | 0.0 when `InterpEnv::quad` is false (vertex code) |
//! | `FAdd` … `FDiv` | IEEE |
//! | `FMod` | `x - y * floor(x / y)`, three rounded ops, no FMA |
//! | `FMin` | `a < b ? a : b` — compare and select: a NaN `a` gives `b`, a NaN `b` gives `b` (NaN), `fmin(-0, +0)` = +0 |
//! | `FMax` | `a > b ? a : b`, same rules |
//! | `Pow`, `Atan2` | [`crate::math::lanes::pow`], [`crate::math::lanes::atan2`] (`Atan2` operands are (y, x)) |
//! | `Step(edge, x)` | `x < edge ? 0.0 : 1.0` (NaN → 1.0) |
//! | `FEq`, `FLt`, `FLe`, `FGt`, `FGe` | ordered: false when either is NaN |
//! | `FNe` | unordered-or-not-equal: true when either is NaN (`!(a == b)`) |
//! | `Fma` | IEEE fusedMultiplyAdd (one rounding) |
//! | `FClamp(x, lo, hi)` | `fmin(fmax(x, lo), hi)` with the select-based min/max above |
//! | `FMix(x, y, a)` | `x * (1.0 - a) + y * a`, four rounded ops, no FMA |
//!
//! Conversions:
//!
//! | op | result |
//! |---|---|
//! | `F2I`, `F2U` | saturating truncation: NaN → 0, below/above range → MIN/MAX (`F2U`: negative → 0). Cranelift `fcvt_to_sint_sat` / `fcvt_to_uint_sat` |
//! | `I2F`, `U2F` | round to nearest even |
//! | `B2F` | 1.0 / 0.0; `B2I`, `B2U`: 1 / 0 |
//! | `F2B` | `x != 0.0` (unordered: NaN → true) |
//! | `I2B` | `x != 0` |
//! | `I2U`, `U2I`, `Bitcast*` | bits unchanged |
//!
//! Integers (two's complement, wrapping):
//!
//! | op | result |
//! |---|---|
//! | `INeg`, `IAbs` | wrapping: `-MIN` = `abs(MIN)` = `MIN`; `ISign`: -1 / 0 / 1 |
//! | `IAdd`, `ISub`, `IMul` | wrapping |
//! | `SDiv` | truncating; `b == 0` → 0; `MIN / -1` → `MIN` |
//! | `SRem` | sign of the dividend; `b == 0` → 0; `MIN % -1` → 0 |
//! | `UDiv`, `URem` | `b == 0` → 0 |
//! | `Shl`, `ShrS`, `ShrU` | count = `b & 31` (any integer kind); `ShrS` arithmetic, `ShrU` logical, whatever the kind of `a` |
//! | `Not`, `BitReverse` | bitwise |
//! | `BitCount` | population count |
//! | `FindLsb` | index of the lowest set bit; -1 for 0 |
//! | `FindMsbU` | index of the highest set bit; -1 for 0 |
//! | `FindMsbI` | `FindMsbU(x < 0 ? !x : x)`: -1 for 0 and -1 |
//! | `BitfieldExtract(v, off, bits)` | GLSL leaves `off < 0`, `bits < 0`, `off + bits > 32` undefined; we clamp: `off` and `bits` are read as u32 whatever their kind (a negative i32 is huge), `o = min(off, 32)`, `n = min(bits, 32 - o)`. Result: bits `o .. o+n` of `v`, sign-extended from bit `n - 1` when `v` is i32, zero-extended when u32; `n == 0` gives 0 |
//! | `BitfieldInsert(base, ins, off, bits)` | same clamping; `base` with bits `o .. o+n` replaced by the low `n` bits of `ins` (`n == 0`: `base`) |
//!
//! Doubles (`Op::F64`; a double is the word pair (low, high) of IEEE binary64, round to
//! nearest even; the op writes word `word` of a double result):
//!
//! | op | result |
//! |---|---|
//! | `Add`, `Sub`, `Mul`, `Div`, `Sqrt` | IEEE |
//! | `Fma` | IEEE fusedMultiplyAdd, one rounding ([`crate::math::fp64::fma`], integer arithmetic) |
//! | `Floor`, `Ceil`, `Trunc`, `RoundEven` | IEEE roundToIntegral ([`crate::math::fp64`]: exact add/compare sequences) |
//! | `Eq`, `Lt`, `Le`, `Gt`, `Ge` | ordered (false with a NaN); `Ne`: `!(a == b)` |
//! | `IsNan` | `x != x`; `IsInf`: `abs(x) == inf` |
//! | `ToF32` | round to nearest even (overflow → ±inf) |
//! | `ToI32`, `ToU32` | saturating truncation, NaN → 0, as `F2I` / `F2U` |
//! | `FromF32`, `FromI32`, `FromU32` | exact |
//!
//! Booleans are 0 or `0xFFFF_FFFF`. `LogicalNot` and `LogicalAnd/Or/Xor` are bitwise,
//! `LogicalEq` is `!(a ^ b)`. `Select` picks `a` where `cond` is nonzero.
//!
//! Loads (robust, never out of bounds):
//!
//! | op | result |
//! |---|---|
//! | `Input(w)` | `inputs[w * 4 + lane]`; 0 past the slice |
//! | `Builtin(b)` | `builtins[b.index() * 4 + lane]`; 0 past the slice |
//! | `Uniform { offset, None }` | `uniforms[offset]`; 0 past the slice |
//! | `Uniform { offset, Some((index, stride, count)) }` | `index` read as i32 or u32 per its kind; outside `0..count` → 0; else `uniforms[offset + index * stride]` (64-bit arithmetic), 0 past the slice |
//! | `BlockLoad { block, offset, dynamic }` | byte address `offset + dynamic` (dynamic's bits as u32, 64-bit sum); the little-endian u32 at that address when `address + 4 <= len` of the bound range, else 0 (unaligned addresses are fine); an unbound block reads 0 |
//! | `StorageLoad { block, offset, dynamic }` | byte address `offset + dynamic` (64-bit sum); the word there when the address is a multiple of 4 and the word lies inside the bound range, else 0 |
//! | `StorageSize { block }` | 4 × the words bound to `block` (saturated below 2³²), 0 unbound |
//! | `Stmt::Storage` | per active lane, lane 0 first, at the `StorageLoad` address: a store, or an atomic whose previous value goes to `dst`; outside the range nothing happens and `dst` gets 0. Bits 4..7 of the run's mask, when any is set, name the lanes that may touch memory (a fragment quad's non-helper lanes); the others act as if out of range |
//! | `LoadArray` | index read as i32 or u32 per its kind; outside `0..len` → 0 |
//! | `StoreArray` | outside `0..len`: dropped |
//!
//! A `Bool` destination of `Input`, `Builtin`, `Uniform` or `BlockLoad` gets the loaded
//! word normalized (nonzero → `0xFFFF_FFFF`): GL stores booleans as 0/1 in buffers, and
//! the IR relies on all-ones.
//!
//! Textures: one `TexRequest` per statement with the active lanes as its mask and
//! `quad = InterpEnv::quad`; `Lod::Implicit` sends `SampleImplicit` with bias 0.0,
//! `Lod::Bias` `SampleImplicit` with the bias, `Lod::Explicit` `SampleLod`; a `compare`
//! var (shadow lookup) sets `compare = 1` and its lanes go in `dref`. `TexelFetch`
//! sends `Fetch` with i32 coords and level, `TextureSize` sends `Size` and reads
//! `out[0]`, `out[1]`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};

use super::module::*;
use crate::math::lanes;
use crate::sampler::request::{TexOp, TexRequest, TexResult};

/// Loop iterations one invocation may start, summed over all its loops, before it is
/// killed (module docs): 65,536, llvmpipe's per-loop cap (65,535) made per invocation so
/// that nested runaway loops are bounded too. `SOFTGL_LOOP_BUDGET` overrides it.
pub const DEFAULT_LOOP_BUDGET: u32 = 1 << 16;

/// The largest budget: generated code counts in i32 lanes.
pub const MAX_LOOP_BUDGET: u32 = i32::MAX as u32;

/// The loop budget of every invocation in this process: `SOFTGL_LOOP_BUDGET` (a decimal
/// count, clamped to [`MAX_LOOP_BUDGET`]) when set and valid, else
/// [`DEFAULT_LOOP_BUDGET`]. Read once, so every draw of a process uses the same budget.
pub fn loop_budget() -> u32 {
    static BUDGET: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *BUDGET.get_or_init(|| parse_loop_budget(std::env::var("SOFTGL_LOOP_BUDGET").ok().as_deref()))
}

/// `SOFTGL_LOOP_BUDGET`'s value as [`loop_budget`] reads it.
pub fn parse_loop_budget(v: Option<&str>) -> u32 {
    v.and_then(|s| s.trim().parse::<u64>().ok())
        .map_or(DEFAULT_LOOP_BUDGET, |n| {
            n.min(MAX_LOOP_BUDGET as u64) as u32
        })
}

/// What one call of [`run_budgeted`] did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Lanes alive at the end (bits 0..3); their outputs were written.
    pub alive: u32,
    /// Lanes killed because their loop budget ran out.
    pub tripped: u32,
}

/// What the interpreter reads besides a lane's inputs.
pub struct InterpEnv<'a> {
    /// Default uniform block words.
    pub uniforms: &'a [u32],
    /// The bound range of each uniform block (`Module::blocks` order).
    pub blocks: &'a [&'a [u8]],
    /// The bound range of each shader storage block (`Module::storage_blocks` order), as
    /// words shared with every other invocation of the draw (and with other threads).
    pub storage: &'a [&'a [AtomicU32]],
    /// texture lookups: the JIT's `TexRequest` in, `TexResult` out
    pub texture: &'a dyn Fn(&TexRequest) -> TexResult,
    /// true when the 4 lanes are a fragment quad
    pub quad: bool,
}

/// Runs `module` on the lanes in `mask` (bits 0..3). Slices are SoA `[slot * 4 + lane]`;
/// `builtins` has `Builtin::COUNT` rows. Outputs (`module.func.outputs`) are written only for
/// lanes alive at the end; returns those lanes. Short slices read as zeros and outputs
/// past the slice are dropped: nothing here panics on a bad module or bad sizes.
pub fn run(
    module: &Module,
    env: &InterpEnv,
    inputs: &[u32],
    builtins: &[u32],
    outputs: &mut [u32],
    mask: u32,
) -> u32 {
    run_budgeted(module, env, inputs, builtins, outputs, mask, loop_budget()).alive
}

/// `run` with another loop budget per invocation (tests; clamped to [`MAX_LOOP_BUDGET`]).
pub fn run_with_limit(
    module: &Module,
    env: &InterpEnv,
    inputs: &[u32],
    builtins: &[u32],
    outputs: &mut [u32],
    mask: u32,
    max_iterations: u64,
) -> u32 {
    let budget = max_iterations.min(MAX_LOOP_BUDGET as u64) as u32;
    run_budgeted(module, env, inputs, builtins, outputs, mask, budget).alive
}

/// `run` with the loop budget of each lane given, telling which lanes it killed.
pub fn run_budgeted(
    module: &Module,
    env: &InterpEnv,
    inputs: &[u32],
    builtins: &[u32],
    outputs: &mut [u32],
    mask: u32,
    budget: u32,
) -> Outcome {
    let func = &module.func;
    let mut m = Machine {
        module,
        env,
        inputs,
        builtins,
        vars: vec![[0; 4]; func.vars.len()],
        arrays: func
            .arrays
            .iter()
            .map(|a| vec![[0; 4]; a.len as usize])
            .collect(),
        exits: HashMap::new(),
        continues: HashMap::new(),
        dead: 0,
        budget: [budget.min(MAX_LOOP_BUDGET); 4],
        tripped: 0,
        writers: match (mask >> 4) & 0xF {
            0 => 0xF,
            w => w,
        },
    };
    let mask = mask & 0xF;
    m.exec_list(&func.body, mask);
    let alive = mask & !m.dead;
    for (slot, v) in func.outputs.iter().enumerate() {
        let Some(value) = m.vars.get(v.0 as usize) else {
            continue;
        };
        for (lane, word) in value.iter().enumerate() {
            if alive & (1 << lane) != 0 {
                if let Some(o) = outputs.get_mut(func.output_row(slot) as usize * 4 + lane) {
                    *o = *word;
                }
            }
        }
    }
    Outcome {
        alive,
        tripped: m.tripped,
    }
}

type Lanes = [u32; 4];

struct Machine<'m, 'e> {
    module: &'m Module,
    env: &'e InterpEnv<'e>,
    /// Lanes whose `Stmt::Storage` touch memory: bits 4..7 of the run's mask when any is
    /// set (a fragment quad's non-helper lanes), else every lane.
    writers: u32,
    inputs: &'e [u32],
    builtins: &'e [u32],
    vars: Vec<Lanes>,
    arrays: Vec<Vec<Lanes>>,
    /// Lanes that left each label's construct by `Break` or `Leave` (labels are unique).
    exits: HashMap<u32, u32>,
    /// Lanes that hit `Continue` in the current iteration of each loop.
    continues: HashMap<u32, u32>,
    /// Lanes discarded or killed by the loop budget.
    dead: u32,
    /// Loop iterations each lane may still start (module docs).
    budget: [u32; 4],
    /// Lanes killed by the loop budget.
    tripped: u32,
}

fn f(bits: u32) -> f32 {
    f32::from_bits(bits)
}
fn b(v: bool) -> u32 {
    if v {
        u32::MAX
    } else {
        0
    }
}
fn fb(v: f32) -> u32 {
    v.to_bits()
}

/// `a < b ? a : b` — the select-based min the JIT emits as compare + select.
pub fn fmin(a: f32, b: f32) -> f32 {
    if a < b {
        a
    } else {
        b
    }
}

/// `a > b ? a : b`.
pub fn fmax(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}

/// An integer operand as i64, signed or unsigned per its kind.
fn int_value(kind: ScalarKind, bits: u32) -> i64 {
    match kind {
        ScalarKind::I32 => bits as i32 as i64,
        _ => bits as i64,
    }
}

/// The clamped bitfield `(offset, bits)` of GLSL's undefined cases (module docs).
fn bitfield_range(offset: u32, bits: u32) -> (u64, u64) {
    let o = offset.min(32);
    (o as u64, bits.min(32 - o) as u64)
}

/// `BitfieldExtract` (semantics in the module docs). `offset` and `bits` are the lanes'
/// raw words.
pub fn bitfield_extract(value: u32, signed: bool, offset: u32, bits: u32) -> u32 {
    let (o, n) = bitfield_range(offset, bits);
    let field = ((value as u64) >> o) & ((1u64 << n) - 1);
    if signed && n > 0 {
        // Sign-extend from bit n - 1.
        (((field << (64 - n)) as i64) >> (64 - n)) as u32
    } else {
        field as u32
    }
}

/// `BitfieldInsert` (semantics in the module docs).
pub fn bitfield_insert(base: u32, insert: u32, offset: u32, bits: u32) -> u32 {
    let (o, n) = bitfield_range(offset, bits);
    let mask = ((1u64 << n) - 1) << o;
    (((base as u64) & !mask) | (((insert as u64) << o) & mask)) as u32
}

/// One unary op on one lane (derivatives excluded: they need the whole quad).
pub fn eval_unary(op: UnaryOp, x: u32) -> u32 {
    use UnaryOp::*;
    let xf = f(x);
    let xi = x as i32;
    match op {
        FNeg => x ^ 0x8000_0000,
        FAbs => x & 0x7fff_ffff,
        FSign => {
            if xf > 0.0 {
                fb(1.0)
            } else if xf < 0.0 {
                fb(-1.0)
            } else {
                x
            }
        }
        Floor => fb(lanes::floor(xf)),
        Ceil => fb(lanes::ceil(xf)),
        Trunc => fb(lanes::trunc(xf)),
        RoundEven => fb(lanes::round_even(xf)),
        Fract => fb(xf - lanes::floor(xf)),
        Sqrt => fb(xf.sqrt()),
        InverseSqrt => fb(1.0 / xf.sqrt()),
        Sin => fb(lanes::sin(xf)),
        Cos => fb(lanes::cos(xf)),
        Tan => fb(lanes::tan(xf)),
        Asin => fb(lanes::asin(xf)),
        Acos => fb(lanes::acos(xf)),
        Atan => fb(lanes::atan(xf)),
        Sinh => fb(lanes::sinh(xf)),
        Cosh => fb(lanes::cosh(xf)),
        Tanh => fb(lanes::tanh(xf)),
        Asinh => fb(lanes::asinh(xf)),
        Acosh => fb(lanes::acosh(xf)),
        Atanh => fb(lanes::atanh(xf)),
        Exp => fb(lanes::exp(xf)),
        Exp2 => fb(lanes::exp2(xf)),
        Log => fb(lanes::log(xf)),
        Log2 => fb(lanes::log2(xf)),
        IsNan => b(xf.is_nan()),
        IsInf => b(xf.is_infinite()),
        // Per-lane view: a derivative of one lane alone is 0.
        DFdxFine | DFdyFine | DFdxCoarse | DFdyCoarse => 0,
        INeg => xi.wrapping_neg() as u32,
        IAbs => xi.wrapping_abs() as u32,
        ISign => xi.signum() as u32,
        Not => !x,
        BitReverse => x.reverse_bits(),
        BitCount => x.count_ones(),
        FindLsb => {
            if x == 0 {
                u32::MAX
            } else {
                x.trailing_zeros()
            }
        }
        FindMsbI => {
            let v = if xi < 0 { !x } else { x };
            find_msb(v)
        }
        FindMsbU => find_msb(x),
        LogicalNot => !x,
        F2I => (xf as i32) as u32,
        F2U => xf as u32,
        I2F => fb(xi as f32),
        U2F => fb(x as f32),
        I2U | U2I | BitcastF2I | BitcastF2U | BitcastI2F | BitcastU2F => x,
        B2F => fb(if x != 0 { 1.0 } else { 0.0 }),
        B2I | B2U => (x != 0) as u32,
        F2B => b(xf != 0.0),
        I2B => b(x != 0),
    }
}

/// One lane of a pure op: one that reads nothing but its operands (`get`, whose kinds
/// `kind` gives) and is not a derivative. `None` for every other op (inputs, built-ins,
/// uniforms, memory, local arrays, derivatives). The interpreter computes these ops with
/// it, and `ir::fold` evaluates constant operands with it, so folding cannot change what a
/// shader computes.
pub fn eval_pure(
    op: &Op,
    kind: impl Fn(Var) -> ScalarKind,
    get: impl Fn(Var) -> u32,
) -> Option<u32> {
    Some(match *op {
        Op::Const(c) => c.bits(),
        Op::Copy(a) => get(a),
        Op::Unary(
            UnaryOp::DFdxFine | UnaryOp::DFdyFine | UnaryOp::DFdxCoarse | UnaryOp::DFdyCoarse,
            _,
        ) => return None,
        Op::Unary(u, a) => eval_unary(u, get(a)),
        Op::Binary(bop, x, y) => eval_binary(bop, get(x), get(y)),
        Op::Select { cond, a, b } => {
            if get(cond) != 0 {
                get(a)
            } else {
                get(b)
            }
        }
        Op::Fma(a, b, c) => fb(crate::math::fma::fma_f32(f(get(a)), f(get(b)), f(get(c)))),
        Op::FClamp(x, lo, hi) => fb(fmin(fmax(f(get(x)), f(get(lo))), f(get(hi)))),
        Op::FMix(x, y, a) => {
            let (x, y, a) = (f(get(x)), f(get(y)), f(get(a)));
            fb(x * (1.0 - a) + y * a)
        }
        Op::BitfieldExtract {
            value,
            offset,
            bits,
        } => bitfield_extract(
            get(value),
            kind(value) == ScalarKind::I32,
            get(offset),
            get(bits),
        ),
        Op::BitfieldInsert {
            base,
            insert,
            offset,
            bits,
        } => bitfield_insert(get(base), get(insert), get(offset), get(bits)),
        Op::Input(_)
        | Op::Builtin(_)
        | Op::Uniform { .. }
        | Op::BlockLoad { .. }
        | Op::StorageLoad { .. }
        | Op::StorageSize { .. }
        | Op::LoadArray { .. } => return None,
        Op::F64 { op, args, word } => eval_f64(op, args.map(get), word),
    })
}

/// One lane of `Op::F64`: `a` holds the operand words (`op.arg_words()` of them).
pub fn eval_f64(op: F64Op, a: [u32; 6], word: u8) -> u32 {
    use crate::math::fp64;
    use F64Op::*;
    let d = |i: usize| f64::from_bits(u64::from(a[i]) | u64::from(a[i + 1]) << 32);
    let r = match op {
        Add => d(0) + d(2),
        Sub => d(0) - d(2),
        Mul => d(0) * d(2),
        Div => d(0) / d(2),
        Fma => fp64::fma(d(0), d(2), d(4)),
        Sqrt => d(0).sqrt(),
        Floor => fp64::floor(d(0)),
        Ceil => fp64::ceil(d(0)),
        Trunc => fp64::trunc(d(0)),
        RoundEven => fp64::round_even(d(0)),
        Eq => return b(d(0) == d(2)),
        Ne => return b(d(0) != d(2)),
        Lt => return b(d(0) < d(2)),
        Le => return b(d(0) <= d(2)),
        Gt => return b(d(0) > d(2)),
        Ge => return b(d(0) >= d(2)),
        IsNan => return b(d(0).is_nan()),
        IsInf => return b(d(0).is_infinite()),
        ToF32 => return fb(d(0) as f32),
        ToI32 => return (d(0) as i32) as u32,
        ToU32 => return d(0) as u32,
        FromF32 => f64::from(f(a[0])),
        FromI32 => f64::from(a[0] as i32),
        FromU32 => f64::from(a[0]),
    };
    let bits = r.to_bits();
    if word == 0 {
        bits as u32
    } else {
        (bits >> 32) as u32
    }
}

fn find_msb(x: u32) -> u32 {
    if x == 0 {
        u32::MAX
    } else {
        31 - x.leading_zeros()
    }
}

/// One binary op on one lane.
pub fn eval_binary(op: BinaryOp, x: u32, y: u32) -> u32 {
    use BinaryOp::*;
    let (xf, yf) = (f(x), f(y));
    let (xi, yi) = (x as i32, y as i32);
    match op {
        FAdd => fb(xf + yf),
        FSub => fb(xf - yf),
        FMul => fb(xf * yf),
        FDiv => fb(xf / yf),
        FMod => fb(xf - yf * lanes::floor(xf / yf)),
        FMin => fb(fmin(xf, yf)),
        FMax => fb(fmax(xf, yf)),
        Pow => fb(lanes::pow(xf, yf)),
        Atan2 => fb(lanes::atan2(xf, yf)),
        Step => fb(if yf < xf { 0.0 } else { 1.0 }),
        IAdd => x.wrapping_add(y),
        ISub => x.wrapping_sub(y),
        IMul => x.wrapping_mul(y),
        SDiv => {
            if yi == 0 {
                0
            } else {
                xi.wrapping_div(yi) as u32
            }
        }
        UDiv => x.checked_div(y).unwrap_or(0),
        SRem => {
            if yi == 0 {
                0
            } else {
                xi.wrapping_rem(yi) as u32
            }
        }
        URem => x.checked_rem(y).unwrap_or(0),
        SMin => xi.min(yi) as u32,
        SMax => xi.max(yi) as u32,
        UMin => x.min(y),
        UMax => x.max(y),
        And | LogicalAnd => x & y,
        Or | LogicalOr => x | y,
        Xor | LogicalXor => x ^ y,
        LogicalEq => !(x ^ y),
        Shl => x << (y & 31),
        ShrS => (xi >> (y & 31)) as u32,
        ShrU => x >> (y & 31),
        FEq => b(xf == yf),
        FNe => b(xf != yf),
        FLt => b(xf < yf),
        FLe => b(xf <= yf),
        FGt => b(xf > yf),
        FGe => b(xf >= yf),
        IEq => b(x == y),
        INe => b(x != y),
        SLt => b(xi < yi),
        SLe => b(xi <= yi),
        SGt => b(xi > yi),
        SGe => b(xi >= yi),
        ULt => b(x < y),
        ULe => b(x <= y),
        UGt => b(x > y),
        UGe => b(x >= y),
    }
}

impl<'e> Machine<'_, 'e> {
    fn get(&self, v: Var) -> Lanes {
        self.vars.get(v.0 as usize).copied().unwrap_or([0; 4])
    }

    fn kind(&self, v: Var) -> ScalarKind {
        self.module
            .func
            .vars
            .get(v.0 as usize)
            .copied()
            .unwrap_or(ScalarKind::U32)
    }

    fn set(&mut self, v: Var, value: Lanes, mask: u32) {
        if let Some(slot) = self.vars.get_mut(v.0 as usize) {
            for lane in 0..4 {
                if mask & (1 << lane) != 0 {
                    slot[lane] = value[lane];
                }
            }
        }
    }

    /// Runs `list` under `mask`; returns the lanes that fall through its end.
    fn exec_list(&mut self, list: &[Stmt], mut mask: u32) -> u32 {
        for stmt in list {
            if mask == 0 {
                break;
            }
            mask = self.exec(stmt, mask);
        }
        mask
    }

    /// Runs one statement; returns the lanes that continue after it.
    fn exec(&mut self, stmt: &Stmt, mask: u32) -> u32 {
        match stmt {
            Stmt::Assign { dst, op } => {
                let value = self.eval(*dst, op);
                self.set(*dst, value, mask);
                mask
            }
            Stmt::StoreArray {
                array,
                index,
                value,
            } => {
                let idx = self.get(*index);
                let ikind = self.kind(*index);
                let val = self.get(*value);
                if let Some(arr) = self.arrays.get_mut(array.0 as usize) {
                    for lane in 0..4 {
                        if mask & (1 << lane) == 0 {
                            continue;
                        }
                        let i = int_value(ikind, idx[lane]);
                        if i >= 0 && (i as u64) < arr.len() as u64 {
                            arr[i as usize][lane] = val[lane];
                        }
                    }
                }
                mask
            }
            Stmt::If {
                cond,
                then_body,
                else_body,
            } => {
                let c = self.get(*cond);
                let mut t = 0;
                for (lane, word) in c.iter().enumerate() {
                    if *word != 0 {
                        t |= 1 << lane;
                    }
                }
                let then_out = self.exec_list(then_body, mask & t);
                let else_out = self.exec_list(else_body, mask & !t);
                then_out | else_out
            }
            Stmt::Loop {
                label,
                body,
                continuing,
            } => {
                self.exits.insert(label.0, 0);
                let mut active = mask;
                while active != 0 {
                    // Each lane starting an iteration spends one unit of its budget; a lane
                    // with none left is killed instead.
                    let mut out = 0;
                    for (lane, left) in self.budget.iter_mut().enumerate() {
                        if active & (1 << lane) != 0 {
                            match left.checked_sub(1) {
                                Some(l) => *left = l,
                                None => out |= 1 << lane,
                            }
                        }
                    }
                    if out != 0 {
                        self.dead |= out;
                        self.tripped |= out;
                        active &= !out;
                        if active == 0 {
                            break;
                        }
                    }
                    self.continues.insert(label.0, 0);
                    let after_body = self.exec_list(body, active);
                    let resumed = after_body | self.continues.get(&label.0).copied().unwrap_or(0);
                    active = self.exec_list(continuing, resumed);
                }
                self.exits.remove(&label.0).unwrap_or(0)
            }
            Stmt::Block { label, body } => {
                self.exits.insert(label.0, 0);
                let fell_through = self.exec_list(body, mask);
                fell_through | self.exits.remove(&label.0).unwrap_or(0)
            }
            Stmt::Break(l) | Stmt::Leave(l) => {
                *self.exits.entry(l.0).or_insert(0) |= mask;
                0
            }
            Stmt::Continue(l) => {
                *self.continues.entry(l.0).or_insert(0) |= mask;
                0
            }
            Stmt::Return => 0,
            Stmt::Discard => {
                self.dead |= mask;
                0
            }
            // Region functions hold none (`ir::compute`); alone, 4 lanes are their own
            // group and reach it together.
            Stmt::Barrier => mask,
            // Rewritten into array stores before anything runs (`ir::geometry`).
            Stmt::EmitVertex(_) | Stmt::EndPrimitive(_) => mask,
            Stmt::Texture {
                dst,
                handle,
                coord,
                lod,
                offset,
                compare,
                layer,
                cube_layer,
            } => {
                let (op, lod) = match lod {
                    Lod::Implicit => (TexOp::SampleImplicit, [0; 4]),
                    Lod::Bias(v) => (TexOp::SampleImplicit, self.get(*v)),
                    Lod::Explicit(v) => (TexOp::SampleLod, self.get(*v)),
                    Lod::Gather(v) => (TexOp::Gather, self.get(*v)),
                    Lod::QueryLod => (TexOp::QueryLod, [0; 4]),
                };
                let dref = compare.map(|v| self.get(v));
                let layer = [
                    layer.map_or([0; 4], |v| self.get(v)),
                    cube_layer.map_or([0; 4], |v| self.get(v)),
                ];
                let out = self.texture(op, mask, *offset, handle, Some(coord), lod, dref, layer);
                for (c, d) in dst.iter().enumerate() {
                    self.set(*d, out[c], mask);
                }
                mask
            }
            Stmt::Image {
                op,
                dim,
                handle,
                coord,
                sample,
                data,
                dst,
            } => {
                // Stores and atomics only in lanes that may write (not helper lanes).
                let lanes = if op.writes() {
                    mask & self.writers
                } else {
                    mask
                };
                let get = |v: Option<Var>| v.map_or([0; 4], |v| self.get(v));
                let req = TexRequest {
                    op: TexOp::Image as u32,
                    mask: lanes,
                    quad: self.env.quad as u32,
                    offset: [*op as i32, *dim as i32],
                    compare: 0,
                    handle_lo: self.get(handle[0]),
                    handle_hi: self.get(handle[1]),
                    coord: [get(coord[0]), get(coord[1])],
                    lod: get(*sample),
                    dref: [0; 4],
                    layer: get(coord[2]),
                    cube_layer: [0; 4],
                    data: data.map(get),
                };
                let out = (self.env.texture)(&req);
                for (c, d) in dst.iter().enumerate() {
                    if let Some(d) = d {
                        self.set(*d, out[c], mask);
                    }
                }
                mask
            }
            Stmt::TexelFetch {
                dst,
                handle,
                coord,
                lod,
                layer,
            } => {
                let lod = self.get(*lod);
                let layer = layer.map_or([0; 4], |v| self.get(v));
                let c = Some(coord);
                let layer = [layer, [0; 4]];
                let out = self.texture(TexOp::Fetch, mask, [0, 0], handle, c, lod, None, layer);
                for (c, d) in dst.iter().enumerate() {
                    self.set(*d, out[c], mask);
                }
                mask
            }
            Stmt::Storage {
                dst,
                block,
                offset,
                dynamic,
                access,
            } => {
                let dynamic = dynamic.map(|v| self.get(v)).unwrap_or([0; 4]);
                let mut old = [0u32; 4];
                for (lane, old) in old.iter_mut().enumerate() {
                    if mask & self.writers & (1 << lane) == 0 {
                        continue;
                    }
                    let Some(w) = self.storage_word(*block, *offset, dynamic[lane]) else {
                        continue;
                    };
                    *old = self.storage_access(w, access, lane);
                }
                if let Some(d) = dst {
                    self.set(*d, old, mask);
                }
                mask
            }
            Stmt::TextureSize {
                dst,
                handle,
                lod,
                layers,
                samples,
            } => {
                let lod = self.get(*lod);
                let none = [[0; 4]; 2];
                let out = self.texture(TexOp::Size, mask, [0, 0], handle, None, lod, None, none);
                // Width, height, layers and samples are the answer's components 0..4.
                let outs = [Some(dst[0]), Some(dst[1]), *layers, *samples];
                for (c, d) in outs.iter().enumerate() {
                    if let Some(d) = d {
                        self.set(*d, out[c], mask);
                    }
                }
                mask
            }
        }
    }

    /// The word of storage block `block` at byte `offset + dynamic`, if it lies inside the
    /// bound range (addresses are whole words: every std140/std430 offset and stride is).
    fn storage_word(&self, block: u32, offset: u32, dynamic: u32) -> Option<&'e AtomicU32> {
        let words: &'e [AtomicU32] = self.env.storage.get(block as usize).copied()?;
        let addr = offset as u64 + dynamic as u64;
        if !addr.is_multiple_of(4) {
            return None;
        }
        words.get(usize::try_from(addr / 4).ok()?)
    }

    /// Performs one lane's `StorageAccess` on `w`, returning the previous value (0 for a
    /// store). Atomics are real atomics: other workers touch the same words.
    fn storage_access(&self, w: &AtomicU32, access: &StorageAccess, lane: usize) -> u32 {
        let ord = Ordering::Relaxed;
        match *access {
            StorageAccess::Store(v) => {
                w.store(self.get(v)[lane], ord);
                0
            }
            StorageAccess::Atomic(op, v) => {
                let x = self.get(v)[lane];
                let signed = self.kind(v) == ScalarKind::I32;
                match op {
                    AtomicOp::Add => w.fetch_add(x, ord),
                    AtomicOp::And => w.fetch_and(x, ord),
                    AtomicOp::Or => w.fetch_or(x, ord),
                    AtomicOp::Xor => w.fetch_xor(x, ord),
                    AtomicOp::Exchange => w.swap(x, ord),
                    AtomicOp::Min if signed => w
                        .fetch_update(ord, ord, |o| Some((o as i32).min(x as i32) as u32))
                        .unwrap_or(0),
                    AtomicOp::Max if signed => w
                        .fetch_update(ord, ord, |o| Some((o as i32).max(x as i32) as u32))
                        .unwrap_or(0),
                    AtomicOp::Min => w.fetch_min(x, ord),
                    AtomicOp::Max => w.fetch_max(x, ord),
                }
            }
            StorageAccess::CompSwap { compare, value } => {
                let (c, x) = (self.get(compare)[lane], self.get(value)[lane]);
                match w.compare_exchange(c, x, ord, ord) {
                    Ok(o) | Err(o) => o,
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn texture(
        &self,
        op: TexOp,
        mask: u32,
        offset: [i32; 2],
        handle: &[Var; 2],
        coord: Option<&[Var; 2]>,
        lod: Lanes,
        dref: Option<Lanes>,
        [layer, cube_layer]: [Lanes; 2],
    ) -> TexResult {
        let coord = match coord {
            Some(c) => [self.get(c[0]), self.get(c[1])],
            None => [[0; 4]; 2],
        };
        let req = TexRequest {
            op: op as u32,
            mask,
            quad: self.env.quad as u32,
            offset,
            compare: dref.is_some() as u32,
            handle_lo: self.get(handle[0]),
            handle_hi: self.get(handle[1]),
            coord,
            lod,
            dref: dref.unwrap_or([0; 4]),
            layer,
            cube_layer,
            data: [[0; 4]; 4],
        };
        (self.env.texture)(&req)
    }

    /// Computes `op` in all four lanes (the caller writes the active ones).
    fn eval(&self, dst: Var, op: &Op) -> Lanes {
        let dst_bool = self.kind(dst) == ScalarKind::Bool;
        let normalize = |w: u32| if dst_bool { b(w != 0) } else { w };
        match *op {
            Op::Unary(
                u @ (UnaryOp::DFdxFine
                | UnaryOp::DFdyFine
                | UnaryOp::DFdxCoarse
                | UnaryOp::DFdyCoarse),
                a,
            ) => self.derivative(u, self.get(a)),
            Op::Const(_)
            | Op::Copy(_)
            | Op::Unary(..)
            | Op::Binary(..)
            | Op::Select { .. }
            | Op::Fma(..)
            | Op::FClamp(..)
            | Op::FMix(..)
            | Op::BitfieldExtract { .. }
            | Op::BitfieldInsert { .. }
            | Op::F64 { .. } => std::array::from_fn(|l| {
                eval_pure(op, |v| self.kind(v), |v| self.get(v)[l])
                    .expect("the arm lists exactly the pure ops")
            }),
            Op::Input(w) => std::array::from_fn(|l| {
                normalize(self.inputs.get(w as usize * 4 + l).copied().unwrap_or(0))
            }),
            Op::Builtin(bi) => std::array::from_fn(|l| {
                normalize(self.builtins.get(bi.index() * 4 + l).copied().unwrap_or(0))
            }),
            Op::Uniform { offset, index } => {
                let word = |i: u64| {
                    usize::try_from(i)
                        .ok()
                        .and_then(|i| self.env.uniforms.get(i))
                        .copied()
                        .unwrap_or(0)
                };
                match index {
                    None => [normalize(word(offset as u64)); 4],
                    Some((v, stride, count)) => {
                        let k = self.kind(v);
                        let idx = self.get(v);
                        std::array::from_fn(|l| {
                            let i = int_value(k, idx[l]);
                            if i < 0 || i >= count as i64 {
                                0
                            } else {
                                normalize(word(offset as u64 + i as u64 * stride as u64))
                            }
                        })
                    }
                }
            }
            Op::BlockLoad {
                block,
                offset,
                dynamic,
            } => {
                let data = self.env.blocks.get(block as usize).copied().unwrap_or(&[]);
                let dynamic = dynamic.map(|v| self.get(v)).unwrap_or([0; 4]);
                std::array::from_fn(|l| {
                    let addr = offset as u64 + dynamic[l] as u64;
                    if addr + 4 > data.len() as u64 {
                        return 0;
                    }
                    let a = addr as usize;
                    let bytes = [data[a], data[a + 1], data[a + 2], data[a + 3]];
                    normalize(u32::from_le_bytes(bytes))
                })
            }
            Op::StorageLoad {
                block,
                offset,
                dynamic,
            } => {
                let dynamic = dynamic.map(|v| self.get(v)).unwrap_or([0; 4]);
                std::array::from_fn(|l| {
                    let w = self.storage_word(block, offset, dynamic[l]);
                    normalize(w.map_or(0, |w| w.load(Ordering::Relaxed)))
                })
            }
            Op::StorageSize { block } => {
                let words = self.env.storage.get(block as usize).map_or(0, |s| s.len());
                [(words as u64 * 4).min(u32::MAX as u64 & !3) as u32; 4]
            }
            Op::LoadArray { array, index } => {
                let Some(arr) = self.arrays.get(array.0 as usize) else {
                    return [0; 4];
                };
                let k = self.kind(index);
                let idx = self.get(index);
                std::array::from_fn(|l| {
                    let i = int_value(k, idx[l]);
                    if i >= 0 && (i as u64) < arr.len() as u64 {
                        arr[i as usize][l]
                    } else {
                        0
                    }
                })
            }
        }
    }

    /// Quad derivatives; every lane's current value takes part, active or not (the other
    /// lanes of a quad are helper lanes for this purpose, as on a GPU).
    fn derivative(&self, op: UnaryOp, v: Lanes) -> Lanes {
        if !self.env.quad {
            return [0; 4];
        }
        let d = |a: usize, b: usize| fb(f(v[b]) - f(v[a]));
        match op {
            UnaryOp::DFdxFine => [d(0, 1), d(0, 1), d(2, 3), d(2, 3)],
            UnaryOp::DFdyFine => [d(0, 2), d(1, 3), d(0, 2), d(1, 3)],
            UnaryOp::DFdxCoarse => [d(0, 1); 4],
            _ => [d(0, 2); 4],
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::cell::RefCell;

    use super::*;
    use crate::ir::builder::Builder;
    use crate::ir::validate::{unary_signature, validate};
    use BinaryOp as B;
    use ScalarKind as K;
    use UnaryOp as U;

    fn no_texture(_: &TexRequest) -> TexResult {
        [[0; 4]; 4]
    }

    /// Validates `module` (every test module must be valid) and runs it on all 4 lanes.
    /// Outputs start as 0xDEAD so that unwritten words show.
    fn exec_env(module: &Module, env: &InterpEnv, inputs: &[u32], mask: u32) -> (Vec<u32>, u32) {
        validate(module).unwrap_or_else(|e| panic!("invalid test module: {e}\n{}", dump(module)));
        let mut out = vec![0xDEAD; module.func.outputs.len() * 4];
        let builtins = [0u32; Builtin::COUNT * 4];
        let alive = run(module, env, inputs, &builtins, &mut out, mask);
        (out, alive)
    }

    fn exec(module: &Module, inputs: &[u32]) -> (Vec<u32>, u32) {
        let env = InterpEnv {
            uniforms: &[],
            blocks: &[],
            storage: &[],
            texture: &no_texture,
            quad: true,
        };
        exec_env(module, &env, inputs, 0xF)
    }

    use crate::ir::dump::dump;

    fn fbits(v: [f32; 4]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }
    fn ibits(v: [i32; 4]) -> Vec<u32> {
        v.iter().map(|x| *x as u32).collect()
    }

    #[test]
    fn float_unary_semantics() {
        let nan = f32::NAN;
        let cases: &[(U, f32, f32)] = &[
            (U::FNeg, 0.0, -0.0),
            (U::FAbs, -0.0, 0.0),
            (U::FSign, -3.0, -1.0),
            (U::FSign, 2.0, 1.0),
            (U::FSign, -0.0, -0.0),
            (U::FSign, 0.0, 0.0),
            (U::FSign, nan, nan),
            (U::Floor, -1.5, -2.0),
            (U::Ceil, -1.5, -1.0),
            (U::Trunc, -1.5, -1.0),
            (U::RoundEven, 2.5, 2.0),
            (U::RoundEven, 3.5, 4.0),
            (U::RoundEven, -0.5, -0.0),
            (U::Fract, -1.25, 0.75),
            (U::Fract, 3.0, 0.0),
            (U::Fract, f32::INFINITY, nan),
            (U::Sqrt, 4.0, 2.0),
            (U::Sqrt, -1.0, nan),
            (U::Sqrt, -0.0, -0.0),
            (U::InverseSqrt, 4.0, 0.5),
            (U::InverseSqrt, 0.0, f32::INFINITY),
            (U::Exp2, 3.0, 8.0),
            (U::Log2, 8.0, 3.0),
        ];
        for &(op, x, want) in cases {
            let got = f32::from_bits(eval_unary(op, x.to_bits()));
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "{op:?}({x}) = {got}, want {want}"
            );
        }
        assert_eq!(eval_unary(U::IsNan, nan.to_bits()), u32::MAX);
        assert_eq!(eval_unary(U::IsNan, 1f32.to_bits()), 0);
        assert_eq!(eval_unary(U::IsInf, f32::NEG_INFINITY.to_bits()), u32::MAX);
        assert_eq!(eval_unary(U::IsInf, nan.to_bits()), 0);
        // The transcendental ops are exactly the math functions.
        let x = 0.7f32;
        for (op, g) in [
            (U::Sin, lanes::sin as fn(f32) -> f32),
            (U::Cos, lanes::cos),
            (U::Tan, lanes::tan),
            (U::Asin, lanes::asin),
            (U::Acos, lanes::acos),
            (U::Atan, lanes::atan),
            (U::Sinh, lanes::sinh),
            (U::Cosh, lanes::cosh),
            (U::Tanh, lanes::tanh),
            (U::Asinh, lanes::asinh),
            (U::Atanh, lanes::atanh),
            (U::Exp, lanes::exp),
            (U::Exp2, lanes::exp2),
            (U::Log, lanes::log),
            (U::Log2, lanes::log2),
        ] {
            assert_eq!(eval_unary(op, x.to_bits()), g(x).to_bits(), "{op:?}");
        }
        assert_eq!(
            eval_unary(U::Acosh, 1.7f32.to_bits()),
            lanes::acosh(1.7).to_bits()
        );
    }

    #[test]
    fn conversion_semantics() {
        let f2i = |x: f32| eval_unary(U::F2I, x.to_bits()) as i32;
        assert_eq!(f2i(-1.9), -1);
        assert_eq!(f2i(f32::NAN), 0);
        assert_eq!(f2i(3e9), i32::MAX);
        assert_eq!(f2i(-3e9), i32::MIN);
        let f2u = |x: f32| eval_unary(U::F2U, x.to_bits());
        assert_eq!(f2u(-5.0), 0);
        assert_eq!(f2u(5e9), u32::MAX);
        assert_eq!(f2u(f32::NAN), 0);
        assert_eq!(eval_unary(U::I2F, (-3i32) as u32), (-3f32).to_bits());
        // 2^24 + 1 rounds to even.
        assert_eq!(eval_unary(U::I2F, 16_777_217), 16_777_216f32.to_bits());
        assert_eq!(eval_unary(U::U2F, u32::MAX), 4_294_967_296f32.to_bits());
        assert_eq!(eval_unary(U::B2F, u32::MAX), 1f32.to_bits());
        assert_eq!(eval_unary(U::B2F, 0), 0);
        assert_eq!(eval_unary(U::B2I, u32::MAX), 1);
        assert_eq!(eval_unary(U::B2U, u32::MAX), 1);
        assert_eq!(eval_unary(U::F2B, (-0f32).to_bits()), 0);
        assert_eq!(eval_unary(U::F2B, f32::NAN.to_bits()), u32::MAX);
        assert_eq!(eval_unary(U::I2B, 2), u32::MAX);
        assert_eq!(eval_unary(U::I2B, 0), 0);
        for op in [
            U::I2U,
            U::U2I,
            U::BitcastF2I,
            U::BitcastF2U,
            U::BitcastI2F,
            U::BitcastU2F,
        ] {
            assert_eq!(eval_unary(op, 0x8040_0001), 0x8040_0001);
        }
    }

    #[test]
    fn integer_unary_semantics() {
        let i = |op: U, x: i32| eval_unary(op, x as u32) as i32;
        assert_eq!(i(U::INeg, i32::MIN), i32::MIN);
        assert_eq!(i(U::IAbs, i32::MIN), i32::MIN);
        assert_eq!(i(U::IAbs, -4), 4);
        assert_eq!(i(U::ISign, -4), -1);
        assert_eq!(i(U::ISign, 0), 0);
        assert_eq!(i(U::ISign, 9), 1);
        assert_eq!(eval_unary(U::Not, 0x0F0F_0000), 0xF0F0_FFFF);
        assert_eq!(eval_unary(U::BitReverse, 1), 0x8000_0000);
        assert_eq!(eval_unary(U::BitCount, 0xF00F), 8);
        assert_eq!(i(U::FindLsb, 0), -1);
        assert_eq!(i(U::FindLsb, 0b1000), 3);
        assert_eq!(i(U::FindMsbU, 0), -1);
        assert_eq!(i(U::FindMsbU, -1), 31);
        assert_eq!(i(U::FindMsbI, 0), -1);
        assert_eq!(i(U::FindMsbI, -1), -1);
        assert_eq!(i(U::FindMsbI, 5), 2);
        assert_eq!(i(U::FindMsbI, -5), 2); // !(-5) = 4
        assert_eq!(i(U::FindMsbI, i32::MIN), 30);
        assert_eq!(eval_unary(U::LogicalNot, u32::MAX), 0);
        assert_eq!(eval_unary(U::LogicalNot, 0), u32::MAX);
    }

    #[test]
    fn float_binary_semantics() {
        let fl = |op: B, x: f32, y: f32| f32::from_bits(eval_binary(op, x.to_bits(), y.to_bits()));
        let nan = f32::NAN;
        assert_eq!(fl(B::FMod, -1.0, 3.0), 2.0);
        assert_eq!(fl(B::FMod, 5.5, 2.0), 1.5);
        assert_eq!(fl(B::FMod, 1.0, -3.0), -2.0);
        assert!(fl(B::FMod, 1.0, 0.0).is_nan());
        // Select-based min/max: NaN in `a` gives `b`; NaN in `b` gives NaN.
        assert_eq!(fl(B::FMin, nan, 2.0), 2.0);
        assert!(fl(B::FMin, 2.0, nan).is_nan());
        assert_eq!(fl(B::FMax, nan, 2.0), 2.0);
        assert!(fl(B::FMax, 2.0, nan).is_nan());
        assert_eq!(fl(B::FMin, -0.0, 0.0).to_bits(), 0f32.to_bits());
        assert_eq!(fl(B::FMin, 0.0, -0.0).to_bits(), (-0f32).to_bits());
        assert_eq!(fl(B::FMin, 1.0, 2.0), 1.0);
        assert_eq!(fl(B::FMax, 1.0, 2.0), 2.0);
        assert_eq!(fl(B::Step, 0.5, 0.5), 1.0);
        assert_eq!(fl(B::Step, 0.5, 0.4), 0.0);
        assert_eq!(fl(B::Step, 0.5, nan), 1.0);
        assert_eq!(fl(B::Pow, 2.0, 3.0), 8.0);
        assert_eq!(fl(B::Atan2, 1.0, 0.0), std::f32::consts::FRAC_PI_2);
        assert_eq!(fl(B::FDiv, 1.0, 0.0), f32::INFINITY);
        let cmp = |op: B, x: f32, y: f32| eval_binary(op, x.to_bits(), y.to_bits());
        for op in [B::FEq, B::FLt, B::FLe, B::FGt, B::FGe] {
            assert_eq!(cmp(op, nan, nan), 0, "{op:?} is ordered");
            assert_eq!(cmp(op, 1.0, nan), 0, "{op:?} is ordered");
        }
        assert_eq!(cmp(B::FNe, nan, 1.0), u32::MAX);
        assert_eq!(cmp(B::FNe, 1.0, 1.0), 0);
        assert_eq!(cmp(B::FEq, 0.0, -0.0), u32::MAX);
        assert_eq!(cmp(B::FLe, 1.0, 1.0), u32::MAX);
        assert_eq!(cmp(B::FGt, 2.0, 1.0), u32::MAX);
        assert_eq!(cmp(B::FGe, 1.0, 2.0), 0);
        assert_eq!(cmp(B::FLt, 1.0, 2.0), u32::MAX);
    }

    #[test]
    fn integer_binary_semantics() {
        let i = |op: B, x: i32, y: i32| eval_binary(op, x as u32, y as u32) as i32;
        let u = |op: B, x: u32, y: u32| eval_binary(op, x, y);
        assert_eq!(i(B::IAdd, i32::MAX, 1), i32::MIN);
        assert_eq!(i(B::ISub, i32::MIN, 1), i32::MAX);
        assert_eq!(i(B::IMul, 0x10000, 0x10000), 0);
        assert_eq!(i(B::SDiv, 7, 0), 0);
        assert_eq!(i(B::SDiv, -7, 2), -3);
        assert_eq!(i(B::SDiv, i32::MIN, -1), i32::MIN);
        assert_eq!(i(B::SRem, -7, 2), -1);
        assert_eq!(i(B::SRem, 7, 0), 0);
        assert_eq!(i(B::SRem, i32::MIN, -1), 0);
        assert_eq!(u(B::UDiv, 7, 0), 0);
        assert_eq!(u(B::UDiv, u32::MAX, 2), 0x7fff_ffff);
        assert_eq!(u(B::URem, 7, 0), 0);
        assert_eq!(u(B::URem, 7, 4), 3);
        assert_eq!(i(B::SMin, -1, 1), -1);
        assert_eq!(i(B::SMax, -1, 1), 1);
        assert_eq!(u(B::UMin, u32::MAX, 1), 1);
        assert_eq!(u(B::UMax, u32::MAX, 1), u32::MAX);
        assert_eq!(u(B::And, 0b1100, 0b1010), 0b1000);
        assert_eq!(u(B::Or, 0b1100, 0b1010), 0b1110);
        assert_eq!(u(B::Xor, 0b1100, 0b1010), 0b0110);
        // Shift counts modulo 32.
        assert_eq!(u(B::Shl, 1, 33), 2);
        assert_eq!(u(B::Shl, 1, 32), 1);
        assert_eq!(i(B::ShrS, -8, 1), -4);
        assert_eq!(i(B::ShrS, -8, 33), -4);
        assert_eq!(u(B::ShrU, 0x8000_0000, 31), 1);
        assert_eq!(u(B::ShrU, 0x8000_0000, 63), 1);
        assert_eq!(i(B::SLt, -1, 0), -1);
        assert_eq!(u(B::ULt, u32::MAX, 0), 0);
        assert_eq!(u(B::ULe, 3, 3), u32::MAX);
        assert_eq!(u(B::UGt, 4, 3), u32::MAX);
        assert_eq!(u(B::UGe, 2, 3), 0);
        assert_eq!(i(B::SLe, 3, 3), -1);
        assert_eq!(i(B::SGt, -3, 3), 0);
        assert_eq!(i(B::SGe, 3, -3), -1);
        assert_eq!(u(B::IEq, 5, 5), u32::MAX);
        assert_eq!(u(B::INe, 5, 5), 0);
        let (t, f) = (u32::MAX, 0);
        assert_eq!(u(B::LogicalAnd, t, f), f);
        assert_eq!(u(B::LogicalOr, t, f), t);
        assert_eq!(u(B::LogicalXor, t, t), f);
        assert_eq!(u(B::LogicalEq, t, t), t);
        assert_eq!(u(B::LogicalEq, t, f), f);
        assert_eq!(u(B::LogicalEq, f, f), t);
    }

    #[test]
    fn bitfield_semantics() {
        assert_eq!(bitfield_extract(0xABCD_1234, false, 8, 8), 0x12);
        assert_eq!(bitfield_extract(0x0000_8000, true, 12, 4), 0xFFFF_FFF8);
        assert_eq!(bitfield_extract(0x0000_8000, false, 12, 4), 8);
        assert_eq!(bitfield_extract(0xFFFF_FFFF, true, 0, 32), 0xFFFF_FFFF);
        assert_eq!(bitfield_extract(0x8000_0000, false, 31, 1), 1);
        assert_eq!(bitfield_extract(0x1234, false, 4, 0), 0);
        // Out of range: clamped. offset 30, bits 4 -> bits 30..32.
        assert_eq!(bitfield_extract(0xC000_1234, false, 30, 4), 3);
        assert_eq!(bitfield_extract(0xC000_1234, true, 30, 4), u32::MAX);
        // A negative offset is a huge unsigned one: clamped to 32, no bits left.
        assert_eq!(bitfield_extract(0x1234, true, -1i32 as u32, 4), 0);
        assert_eq!(bitfield_extract(0x1234, false, 0, 33), 0x1234);
        assert_eq!(
            bitfield_extract(0x8765_4321, true, 4, u32::MAX),
            0xF876_5432
        );
        assert_eq!(bitfield_insert(0xFFFF_FFFF, 0, 8, 8), 0xFFFF_00FF);
        assert_eq!(bitfield_insert(0, 0xFFFF, 4, 4), 0xF0);
        assert_eq!(bitfield_insert(0x1234, 0xABCD_EF01, 0, 32), 0xABCD_EF01);
        assert_eq!(bitfield_insert(0x1234, 7, 0, 0), 0x1234);
        // Out of range: clamped.
        assert_eq!(bitfield_insert(0x1234, 7, 30, 4), 0xC000_1234);
        assert_eq!(bitfield_insert(0x1234, 7, 4, -1i32 as u32), 0x0000_0074);
        assert_eq!(bitfield_insert(0x1234, 7, -1i32 as u32, 4), 0x1234);
    }

    #[test]
    fn every_unary_op_runs_through_the_interpreter() {
        // Derivatives read the whole quad: `derivatives` tests them.
        let all = crate::ir::validate::UNARY_OPS.into_iter().filter(|op| {
            !matches!(
                op,
                U::DFdxFine | U::DFdyFine | U::DFdxCoarse | U::DFdyCoarse
            )
        });
        let lanes = [0x3f00_0000u32, 0xc0a0_0000, 7, u32::MAX];
        for op in all {
            let (kinds, _) = unary_signature(op);
            let kind = [K::F32, K::I32, K::U32, K::Bool]
                .into_iter()
                .find(|k| kinds.contains(*k))
                .unwrap_or(K::F32);
            let mut b = Builder::new(Stage::Vertex);
            let x = b.input(0, kind);
            let y = b.unary(op, x);
            b.output(y);
            let module = b.finish();
            // Bool inputs are normalized on load.
            let loaded = lanes.map(|w| {
                if kind == K::Bool && w != 0 {
                    u32::MAX
                } else {
                    w
                }
            });
            let (out, alive) = exec(&module, &lanes);
            assert_eq!(alive, 0xF);
            let want: Vec<u32> = loaded.iter().map(|w| eval_unary(op, *w)).collect();
            assert_eq!(out, want, "{op:?}");
        }
    }

    #[test]
    fn ternary_ops() {
        let mut b = Builder::new(Stage::Vertex);
        let x = b.input(0, K::F32);
        let y = b.input(1, K::F32);
        let a = b.input(2, K::F32);
        let fma = b.op(K::F32, Op::Fma(x, y, a));
        let clamp = b.op(K::F32, Op::FClamp(a, x, y));
        let mix = b.op(K::F32, Op::FMix(x, y, a));
        let c = b.binary(B::FLt, x, y);
        let sel = b.select(c, x, y);
        for v in [fma, clamp, mix, sel] {
            b.output(v);
        }
        let m = b.finish();
        let x = [1.0f32, 0.1, f32::NAN, 2.0];
        let y = [2.0f32, 0.2, 1.0, 1.0];
        let a = [3.0f32, 10.0, 0.5, -5.0];
        let mut inputs = fbits(x);
        inputs.extend(fbits(y));
        inputs.extend(fbits(a));
        let (out, _) = exec(&m, &inputs);
        // fma rounds once: 0.1 * 0.2 + 10 computed exactly then rounded.
        let want_fma: [f32; 4] = std::array::from_fn(|l| x[l].mul_add(y[l], a[l]));
        assert_eq!(&out[0..4], &fbits(want_fma)[..]);
        // clamp(a, x, y) = fmin(fmax(a, x), y); NaN lo: fmax(0.5, NaN) = NaN -> fmin(NaN, 1) = 1.
        assert_eq!(&out[4..8], &fbits([2.0, 0.2, 1.0, 1.0])[..]);
        let want_mix: [f32; 4] = std::array::from_fn(|l| x[l] * (1.0 - a[l]) + y[l] * a[l]);
        assert_eq!(&out[8..12], &fbits(want_mix)[..]);
        assert_eq!(&out[12..16], &fbits([1.0, 0.1, 1.0, 1.0])[..]);
    }

    #[test]
    fn bitfield_ops_through_the_interpreter() {
        let mut b = Builder::new(Stage::Vertex);
        let v = b.input(0, K::I32);
        let o = b.input(1, K::I32);
        let n = b.input(2, K::I32);
        let ins = b.i32(-1);
        let e = b.op(
            K::I32,
            Op::BitfieldExtract {
                value: v,
                offset: o,
                bits: n,
            },
        );
        let i = b.op(
            K::I32,
            Op::BitfieldInsert {
                base: v,
                insert: ins,
                offset: o,
                bits: n,
            },
        );
        b.output(e);
        b.output(i);
        let m = b.finish();
        let vs = [0x0000_0F00u32, 0x0000_0800, 0x1234_5678, 0x1234_5678];
        let os = ibits([8, 8, -1, 28]);
        let ns = ibits([4, 4, 4, 8]);
        let mut inputs = vs.to_vec();
        inputs.extend(&os);
        inputs.extend(&ns);
        let (out, _) = exec(&m, &inputs);
        for l in 0..4 {
            assert_eq!(
                out[l],
                bitfield_extract(vs[l], true, os[l], ns[l]),
                "lane {l}"
            );
            assert_eq!(out[4 + l], bitfield_insert(vs[l], u32::MAX, os[l], ns[l]));
        }
        assert_eq!(&out[0..4], &ibits([-1, -8, 0, 1])[..]);
        assert_eq!(
            &out[4..8],
            &[0x0000_0F00, 0x0000_0F00, 0x1234_5678, 0xF234_5678]
        );
    }

    #[test]
    fn divergent_if_writes_active_lanes_only() {
        let mut b = Builder::new(Stage::Vertex);
        let x = b.input(0, K::I32);
        let one = b.i32(1);
        let c = b.binary(B::SGt, x, one);
        let y = b.i32(5);
        b.if_else(
            c,
            |b| {
                let ten = b.i32(10);
                b.assign(y, Op::Copy(ten));
            },
            |b| {
                let twenty = b.i32(20);
                b.assign(y, Op::Binary(B::IAdd, y, twenty));
            },
        );
        b.output(y);
        let m = b.finish();
        let (out, alive) = exec(&m, &ibits([0, 2, 1, 7]));
        assert_eq!(alive, 0xF);
        assert_eq!(out, ibits([25, 10, 25, 10]));
    }

    /// for (i = 0; ; i++) { if (i >= n) break; acc += i; } with n per lane.
    #[test]
    fn loop_lanes_leave_at_different_iterations() {
        let mut b = Builder::new(Stage::Vertex);
        let n = b.input(0, K::I32);
        let i = b.i32(0);
        let acc = b.i32(0);
        let one = b.i32(1);
        b.loop_(
            |b, l| {
                let done = b.binary(B::SGe, i, n);
                b.if_(done, |b| b.break_(l));
                b.assign(acc, Op::Binary(B::IAdd, acc, i));
            },
            |b, _| b.assign(i, Op::Binary(B::IAdd, i, one)),
        );
        b.output(acc);
        b.output(i);
        let m = b.finish();
        let (out, _) = exec(&m, &ibits([0, 1, 5, 10]));
        assert_eq!(&out[0..4], &ibits([0, 0, 10, 45])[..]);
        assert_eq!(&out[4..8], &ibits([0, 1, 5, 10])[..]);
        // Inactive lanes are not touched at all.
        let env = InterpEnv {
            uniforms: &[],
            blocks: &[],
            storage: &[],
            texture: &no_texture,
            quad: false,
        };
        let (out, alive) = exec_env(&m, &env, &ibits([0, 1, 5, 10]), 0b0100);
        assert_eq!(alive, 0b0100);
        assert_eq!(&out[0..4], &[0xDEAD, 0xDEAD, 10, 0xDEAD]);
    }

    /// Sum of the even i below n, skipping odd ones with `continue`; the continuing part
    /// still runs for lanes that continued.
    #[test]
    fn continue_runs_continuing() {
        let mut b = Builder::new(Stage::Vertex);
        let n = b.input(0, K::I32);
        let i = b.i32(0);
        let acc = b.i32(0);
        let steps = b.i32(0);
        let one = b.i32(1);
        b.loop_(
            |b, l| {
                let done = b.binary(B::SGe, i, n);
                b.if_(done, |b| b.break_(l));
                let odd = b.binary(B::And, i, one);
                let is_odd = b.unary(U::I2B, odd);
                b.if_(is_odd, |b| b.continue_(l));
                b.assign(acc, Op::Binary(B::IAdd, acc, i));
            },
            |b, _| {
                b.assign(i, Op::Binary(B::IAdd, i, one));
                b.assign(steps, Op::Binary(B::IAdd, steps, one));
            },
        );
        b.output(acc);
        b.output(steps);
        let m = b.finish();
        let (out, _) = exec(&m, &ibits([0, 3, 6, 9]));
        assert_eq!(&out[0..4], &ibits([0, 2, 6, 20])[..]);
        assert_eq!(&out[4..8], &ibits([0, 3, 6, 9])[..]);
    }

    /// An inlined function: block B { loop L { if (i == k) leave B; i++; } r = 1; }
    /// Lanes that leave B skip `r = 1`; lanes that break L do not.
    #[test]
    fn leave_from_inside_a_loop() {
        let mut b = Builder::new(Stage::Vertex);
        let k = b.input(0, K::I32);
        let i = b.i32(0);
        let r = b.i32(0);
        let one = b.i32(1);
        let four = b.i32(4);
        b.block(|b, blk| {
            b.loop_(
                |b, l| {
                    let hit = b.binary(B::IEq, i, k);
                    b.if_(hit, |b| b.leave(blk));
                    let end = b.binary(B::SGe, i, four);
                    b.if_(end, |b| b.break_(l));
                    b.assign(i, Op::Binary(B::IAdd, i, one));
                },
                |_, _| {},
            );
            b.assign(r, Op::Const(Scalar::I32(1)));
        });
        let after = b.i32(7);
        b.output(r);
        b.output(i);
        b.output(after);
        let m = b.finish();
        let (out, _) = exec(&m, &ibits([0, 2, 9, 4]));
        assert_eq!(&out[0..4], &ibits([0, 0, 1, 0])[..]);
        assert_eq!(&out[4..8], &ibits([0, 2, 4, 4])[..]);
        // Everyone rejoins after the block.
        assert_eq!(&out[8..12], &ibits([7; 4])[..]);
    }

    /// Breaking an outer loop from an inner one (labelled break).
    #[test]
    fn break_outer_loop_from_inner() {
        let mut b = Builder::new(Stage::Vertex);
        let k = b.input(0, K::I32);
        let outer_iters = b.i32(0);
        let one = b.i32(1);
        let three = b.i32(3);
        b.loop_(
            |b, outer| {
                let j = b.i32(0);
                b.loop_(
                    |b, inner| {
                        let hit = b.binary(B::IEq, outer_iters, k);
                        b.if_(hit, |b| b.break_(outer));
                        let end = b.binary(B::SGe, j, three);
                        b.if_(end, |b| b.break_(inner));
                        b.assign(j, Op::Binary(B::IAdd, j, one));
                    },
                    |_, _| {},
                );
                b.assign(outer_iters, Op::Binary(B::IAdd, outer_iters, one));
            },
            |_, _| {},
        );
        b.output(outer_iters);
        let m = b.finish();
        let (out, _) = exec(&m, &ibits([0, 1, 3, 2]));
        assert_eq!(out, ibits([0, 1, 3, 2]));
    }

    #[test]
    fn discard_in_a_loop() {
        let mut b = Builder::new(Stage::Fragment);
        let k = b.input(0, K::I32);
        let i = b.i32(0);
        let one = b.i32(1);
        let three = b.i32(3);
        b.loop_(
            |b, l| {
                let end = b.binary(B::SGe, i, three);
                b.if_(end, |b| b.break_(l));
                let hit = b.binary(B::IEq, i, k);
                b.if_(hit, |b| b.discard());
                b.assign(i, Op::Binary(B::IAdd, i, one));
            },
            |_, _| {},
        );
        b.output(i);
        let m = b.finish();
        let (out, alive) = exec(&m, &ibits([0, 5, 2, -1]));
        assert_eq!(alive, 0b1010);
        assert_eq!(out, vec![0xDEAD, 3, 0xDEAD, 3]);
    }

    #[test]
    fn return_keeps_outputs_written_so_far() {
        let mut b = Builder::new(Stage::Vertex);
        let x = b.input(0, K::I32);
        let y = b.i32(1);
        let zero = b.i32(0);
        let c = b.binary(B::SLt, x, zero);
        b.if_(c, |b| b.ret());
        b.assign(y, Op::Const(Scalar::I32(2)));
        b.output(y);
        let m = b.finish();
        let (out, alive) = exec(&m, &ibits([-1, 1, -5, 0]));
        assert_eq!(alive, 0xF);
        assert_eq!(out, ibits([1, 2, 1, 2]));
    }

    #[test]
    fn derivatives() {
        let mut b = Builder::new(Stage::Fragment);
        let v = b.input(0, K::F32);
        for op in [U::DFdxFine, U::DFdyFine, U::DFdxCoarse, U::DFdyCoarse] {
            let d = b.unary(op, v);
            b.output(d);
        }
        let m = b.finish();
        // lane 0 = (x,y), 1 = (x+1,y), 2 = (x,y+1), 3 = (x+1,y+1)
        let quad = fbits([1.0, 3.0, 10.0, 20.0]);
        let (out, _) = exec(&m, &quad);
        assert_eq!(&out[0..4], &fbits([2.0, 2.0, 10.0, 10.0])[..]);
        assert_eq!(&out[4..8], &fbits([9.0, 17.0, 9.0, 17.0])[..]);
        assert_eq!(&out[8..12], &fbits([2.0; 4])[..]);
        assert_eq!(&out[12..16], &fbits([9.0; 4])[..]);
        let env = InterpEnv {
            uniforms: &[],
            blocks: &[],
            storage: &[],
            texture: &no_texture,
            quad: false,
        };
        let (out, _) = exec_env(&m, &env, &quad, 0xF);
        assert_eq!(out, vec![0; 16]);
    }

    /// Derivatives read inactive lanes' current values (helper lanes).
    #[test]
    fn derivatives_in_divergent_code_see_all_lanes() {
        let mut b = Builder::new(Stage::Fragment);
        let v = b.input(0, K::F32);
        let zero = b.f32(0.0);
        let c = b.binary(B::FGt, v, zero);
        let d = b.f32(-1.0);
        b.if_(c, |b| b.assign(d, Op::Unary(U::DFdxFine, v)));
        b.output(d);
        let m = b.finish();
        let (out, _) = exec(&m, &fbits([-1.0, 3.0, 1.0, -2.0]));
        assert_eq!(out, fbits([-1.0, 4.0, -3.0, -1.0]));
    }

    #[test]
    fn robust_loads_and_stores() {
        let mut b = Builder::new(Stage::Vertex);
        let idx = b.input(0, K::I32);
        let uidx = b.input(1, K::U32);
        b.module_mut().uniform_words = 8;
        // uniform float a[3] at word 2, stride 2
        let u = b.op(
            K::U32,
            Op::Uniform {
                offset: 2,
                index: Some((idx, 2, 3)),
            },
        );
        let arr = b.array(K::I32, 2);
        let val = b.i32(42);
        b.store(arr, idx, val);
        let loaded = b.load(arr, uidx);
        let blocks_dyn = b.op(
            K::U32,
            Op::BlockLoad {
                block: 0,
                offset: 4,
                dynamic: Some(uidx),
            },
        );
        b.module_mut().blocks.push(BlockDecl {
            name: "B".into(),
            binding: None,
            size: 12,
            members: Vec::new(),
        });
        b.output(u);
        b.output(loaded);
        b.output(blocks_dyn);
        let m = b.finish();
        let uniforms: Vec<u32> = (100..108).collect();
        let block: Vec<u8> = (0u8..12).collect();
        let blocks: [&[u8]; 1] = [&block];
        let env = InterpEnv {
            uniforms: &uniforms,
            blocks: &blocks,
            storage: &[],
            texture: &no_texture,
            quad: false,
        };
        let mut inputs = ibits([-1, 0, 2, 1]);
        inputs.extend([1u32, 0, u32::MAX, 5]);
        let (out, _) = exec_env(&m, &env, &inputs, 0xF);
        // index -1 and 3+ are out of 0..3: 0; index 0 -> word 2, index 2 -> word 6.
        assert_eq!(&out[0..4], &[0, 102, 106, 104]);
        // Stores at -1 and 2 are dropped; lane 1 stored a[0], lane 3 a[1]. Each lane loads
        // its own element at uidx: lane 0 a[1] (never stored), lane 3 a[5] (out of range).
        assert_eq!(&out[4..8], &[0, 42, 0, 0]);
        // Byte address 4 + uidx: lane 0 reads bytes 5..9, lane 1 bytes 4..8, lane 2 wraps
        // nothing (huge address), lane 3 bytes 9..13 (past the 12-byte range).
        assert_eq!(out[8], u32::from_le_bytes([5, 6, 7, 8]));
        assert_eq!(out[9], u32::from_le_bytes([4, 5, 6, 7]));
        assert_eq!(&out[10..12], &[0, 0]);
        // Input words past the slice read 0; outputs past the slice are dropped.
        let mut b = Builder::new(Stage::Vertex);
        let far = b.input(9, K::U32);
        b.output(far);
        b.output(far);
        let m = b.finish();
        let mut short = [7u32; 4];
        let alive = run(&m, &env, &[1, 2, 3], &[], &mut short, 0xF);
        assert_eq!(alive, 0xF);
        assert_eq!(short, [0; 4]);
    }

    #[test]
    fn bool_loads_are_normalized() {
        let mut b = Builder::new(Stage::Vertex);
        let u = b.uniform(0, K::Bool);
        let x = b.input(0, K::Bool);
        let both = b.binary(B::LogicalAnd, u, x);
        b.output(both);
        let m = b.finish();
        let env = InterpEnv {
            uniforms: &[1],
            blocks: &[],
            storage: &[],
            texture: &no_texture,
            quad: false,
        };
        let (out, _) = exec_env(&m, &env, &[1, 0, 2, u32::MAX], 0xF);
        assert_eq!(out, vec![u32::MAX, 0, u32::MAX, u32::MAX]);
    }

    /// `i = 0; loop { if i == k break; i += 1 }`, out i: a lane runs k + 1 iterations; k < 0
    /// never ends. Shared with the JIT's loop-budget differential tests.
    pub(crate) fn count_to_input(stage: Stage) -> Module {
        let mut b = Builder::new(stage);
        let k = b.input(0, K::I32);
        let i = b.i32(0);
        let one = b.i32(1);
        b.loop_(
            |b, l| {
                let hit = b.binary(B::IEq, i, k);
                b.if_(hit, |b| b.break_(l));
                b.assign(i, Op::Binary(B::IAdd, i, one));
            },
            |_, _| {},
        );
        b.output(i);
        b.finish()
    }

    #[test]
    fn runaway_loop_kills_lanes() {
        // Lanes with k < 0 never leave.
        let m = count_to_input(Stage::Vertex);
        let env = InterpEnv {
            uniforms: &[],
            blocks: &[],
            storage: &[],
            texture: &no_texture,
            quad: false,
        };
        let mut out = vec![0xDEAD; 4];
        let builtins = [0u32; Builtin::COUNT * 4];
        let alive = run_with_limit(
            &m,
            &env,
            &ibits([3, -1, 50, -7]),
            &builtins,
            &mut out,
            0xF,
            100,
        );
        assert_eq!(alive, 0b0101);
        assert_eq!(out, vec![3, 0xDEAD, 50, 0xDEAD]);
    }

    #[test]
    fn texture_requests() {
        let mut b = Builder::new(Stage::Fragment);
        let lo = b.input(0, K::U32);
        let hi = b.u32(0);
        let s = b.input(1, K::F32);
        let t = b.f32(0.25);
        let bias = b.f32(1.5);
        let dst = [b.f32(-1.0), b.f32(-1.0), b.f32(-1.0), b.f32(-1.0)];
        let zero = b.u32(0);
        let c = b.binary(B::INe, lo, zero);
        b.if_(c, |b| {
            b.push(Stmt::Texture {
                dst,
                handle: [lo, hi],
                coord: [s, t],
                lod: Lod::Bias(bias),
                offset: [1, -2],
                compare: None,
                layer: None,
                cube_layer: None,
            })
        });
        let lvl = b.i32(2);
        let size = [b.i32(0), b.i32(0)];
        b.push(Stmt::TextureSize {
            dst: size,
            handle: [lo, hi],
            lod: lvl,
            layers: None,
            samples: None,
        });
        for v in dst.into_iter().chain(size) {
            b.output(v);
        }
        let m = b.finish();
        let seen = RefCell::new(Vec::new());
        let texture = |req: &TexRequest| {
            seen.borrow_mut().push(*req);
            let mut out = [[0u32; 4]; 4];
            for (c, row) in out.iter_mut().enumerate() {
                for (l, w) in row.iter_mut().enumerate() {
                    *w = (10 * c + l) as u32;
                }
            }
            out
        };
        let env = InterpEnv {
            uniforms: &[],
            blocks: &[],
            storage: &[],
            texture: &texture,
            quad: true,
        };
        let mut inputs = vec![5, 0, 7, 8];
        inputs.extend(fbits([0.1, 0.2, 0.3, 0.4]));
        let (out, _) = exec_env(&m, &env, &inputs, 0xF);
        let seen = seen.borrow();
        assert_eq!(seen.len(), 2);
        let r = &seen[0];
        assert_eq!(r.op, TexOp::SampleImplicit as u32);
        assert_eq!(r.mask, 0b1101);
        assert_eq!(r.quad, 1);
        assert_eq!(r.offset, [1, -2]);
        assert_eq!(r.handle_lo, [5, 0, 7, 8]);
        assert_eq!(r.coord[0], fbits([0.1, 0.2, 0.3, 0.4])[..]);
        assert_eq!(r.coord[1], [0.25f32.to_bits(); 4]);
        assert_eq!(r.lod, [1.5f32.to_bits(); 4]);
        let neg = (-1.0f32).to_bits();
        assert_eq!(&out[0..4], &[0, neg, 2, 3]);
        assert_eq!(&out[12..16], &[30, neg, 32, 33]);
        assert_eq!(seen[1].op, TexOp::Size as u32);
        assert_eq!(seen[1].lod, [2; 4]);
        assert_eq!(&out[16..24], &[0, 1, 2, 3, 10, 11, 12, 13]);
    }
}

#[cfg(test)]
mod differential {
    //! The JIT against this interpreter on random modules (`builder::random_module`), through
    //! the safe `jit::run` doorway. Until the Cranelift back end is merged, `jit::compile`
    //! reports every module unsupported and there is nothing to compare; once it is, every
    //! module must compile and agree bit for bit (NaN payloads aside).
    use std::sync::Arc;

    use super::*;
    use crate::ir::builder::random_module;
    use crate::ir::dump;
    use crate::jit::StageData;
    use crate::jit::{self, BoundEnv, CompileError};
    use crate::sampler::{DebugSink, DescriptorTable, SampleContext};

    fn no_texture(_: &TexRequest) -> TexResult {
        [[0; 4]; 4]
    }

    fn same(a: u32, b: u32) -> bool {
        a == b || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
    }

    fn inputs(seed: u64) -> Vec<u32> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        };
        let mut v = Vec::new();
        for _ in 0..8 {
            v.push(((next() % 2000) as f32 / 100.0 - 10.0).to_bits());
        }
        for _ in 0..4 {
            v.push(next() % 20);
        }
        for _ in 0..4 {
            v.push(next());
        }
        v
    }

    #[test]
    fn jit_matches_interpreter_on_random_modules() {
        let uniforms = vec![1.5f32.to_bits(), (-3i32) as u32, 9, u32::MAX];
        let data = StageData {
            uniforms: uniforms.clone(),
            blocks: Vec::new(),
            ..StageData::default()
        };
        let sampler = SampleContext {
            table: Arc::new(DescriptorTable::new()),
            resident: Arc::default(),
            debug: DebugSink::default(),
            images: Arc::default(),
        };
        let bound = BoundEnv::new(&data, &sampler);
        let builtins = [0u32; Builtin::COUNT * 4];
        let (mut compiled, mut unsupported) = (0, Vec::new());
        for seed in 0..300 {
            for stage in [Stage::Vertex, Stage::Fragment] {
                let m = random_module(seed, stage);
                let code = match jit::compile(&m) {
                    Ok(code) => code,
                    Err(CompileError::Unsupported(why)) => {
                        unsupported.push((seed, stage, why));
                        continue;
                    }
                    Err(e) => panic!("seed {seed} {stage:?}: {e}\n{}", dump(&m)),
                };
                compiled += 1;
                let env = InterpEnv {
                    uniforms: &uniforms,
                    blocks: &[],
                    storage: &[],
                    texture: &no_texture,
                    quad: stage == Stage::Fragment,
                };
                let ins = inputs(seed);
                for mask in [0xF, 0b0110] {
                    let n = m.func.outputs.len() * 4;
                    let (mut jo, mut io) = (vec![0xDEAD_BEEF; n], vec![0xDEAD_BEEF; n]);
                    let ja = jit::run(&*code, &bound, &ins, &builtins, &mut jo, mask);
                    let ia = run(&m, &env, &ins, &builtins, &mut io, mask);
                    let agree = ja == ia && jo.iter().zip(&io).all(|(a, b)| same(*a, *b));
                    assert!(
                        agree,
                        "seed {seed} {stage:?} mask {mask:#b}: alive jit {ja:#b} interp {ia:#b}\n\
                         jit    {jo:x?}\ninterp {io:x?}\n{}",
                        dump(&m)
                    );
                }
            }
        }
        // Either no back end at all (the interim `compile`), or every module compiled.
        assert!(
            compiled == 0 || unsupported.is_empty(),
            "{compiled} modules compiled but some did not: {:?}",
            &unsupported[..unsupported.len().min(5)]
        );
    }
}
