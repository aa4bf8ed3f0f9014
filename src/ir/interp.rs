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
//!   `Continue` rejoin for `continuing`, lanes that `Break` rejoin after the loop. A loop
//!   execution that runs more than [`MAX_LOOP_ITERATIONS`] iterations kills the lanes
//!   still in it (as if discarded, in every stage) so that a runaway shader cannot hang
//!   a test. The JIT must do the same.
//! - `Block`: lanes that `Leave` it rejoin after it.
//!
//! # Operation semantics (the contract for the JIT)
//!
//! Floats (`a`, `b`, `x`, `y` are the operands, IEEE binary32, round to nearest even):
//!
//! | op | result |
//! |---|---|
//! | `FNeg`, `FAbs` | flip / clear the sign bit (NaN payloads kept) |
//! | `FSign` | `x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0` (NaN → +0.0, ±0 → +0.0) |
//! | `Floor`, `Ceil`, `Trunc` | IEEE roundToIntegral toward -inf / +inf / 0 |
//! | `RoundEven` | IEEE roundToIntegralTiesToEven |
//! | `Fract` | `x - floor(x)` (±inf → NaN) |
//! | `Sqrt` | IEEE sqrt (negative → NaN, -0 → -0) |
//! | `InverseSqrt` | `1.0 / sqrt(x)` (two IEEE ops, so the JIT matches exactly) |
//! | `Sin` … `Log2` | the functions of [`super::math`], called as they are |
//! | `IsNan` | `x != x`; `IsInf`: `abs(x) == inf` |
//! | `DFdxFine` | lanes 0,1: `v1 - v0`; lanes 2,3: `v3 - v2` |
//! | `DFdyFine` | lanes 0,2: `v2 - v0`; lanes 1,3: `v3 - v1` |
//! | `DFdxCoarse`, `DFdyCoarse` | `v1 - v0`, `v2 - v0` in all four lanes |
//! | derivatives, non-quad | 0.0 when `InterpEnv::quad` is false (vertex code) |
//! | `FAdd` … `FDiv` | IEEE |
//! | `FMod` | `x - y * floor(x / y)`, three rounded ops, no FMA |
//! | `FMin` | `a < b ? a : b` — compare and select: a NaN `a` gives `b`, a NaN `b` gives `b` (NaN), `fmin(-0, +0)` = +0 |
//! | `FMax` | `a > b ? a : b`, same rules |
//! | `Pow`, `Atan2` | [`super::math::pow`], [`super::math::atan2`] (`Atan2` operands are (y, x)) |
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
//! | `BitfieldExtract(v, off, bits)` | `off`, `bits` read as signed (i32) or unsigned (u32) per their kind. If `off < 0`, `bits < 0` or `off + bits > 32` (undefined in GLSL): 0. `bits == 0`: 0. Otherwise bits `off .. off+bits` of `v`, sign-extended from the top one when `v` is i32, zero-extended when u32 |
//! | `BitfieldInsert(base, ins, off, bits)` | same range rule; out of range: `base` unchanged. Otherwise `base` with bits `off .. off+bits` replaced by the low `bits` bits of `ins` |
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
//! | `LoadArray` | index read as i32 or u32 per its kind; outside `0..len` → 0 |
//! | `StoreArray` | outside `0..len`: dropped |
//!
//! A `Bool` destination of `Input`, `Builtin`, `Uniform` or `BlockLoad` gets the loaded
//! word normalized (nonzero → `0xFFFF_FFFF`): GL stores booleans as 0/1 in buffers, and
//! the IR relies on all-ones.
//!
//! Textures: one `TexRequest` per statement with the active lanes as its mask and
//! `quad = InterpEnv::quad`; `Lod::Implicit` sends `SampleImplicit` with bias 0.0,
//! `Lod::Bias` `SampleImplicit` with the bias, `Lod::Explicit` `SampleLod`. `TexelFetch`
//! sends `Fetch` with i32 coords and level, `TextureSize` sends `Size` and reads
//! `out[0]`, `out[1]`.

use std::collections::HashMap;

use super::math;
use super::module::*;
use crate::jit::abi::{TexOp, TexRequest, TexResult};

/// Iterations after which one execution of a loop kills the lanes still in it.
pub const MAX_LOOP_ITERATIONS: u64 = 1 << 24;

/// What the interpreter reads besides a lane's inputs.
pub struct InterpEnv<'a> {
    /// Default uniform block words.
    pub uniforms: &'a [u32],
    /// The bound range of each uniform block (`Module::blocks` order).
    pub blocks: &'a [&'a [u8]],
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
    run_with_limit(
        module,
        env,
        inputs,
        builtins,
        outputs,
        mask,
        MAX_LOOP_ITERATIONS,
    )
}

/// `run` with a different loop iteration cap (tests of the cap itself).
pub fn run_with_limit(
    module: &Module,
    env: &InterpEnv,
    inputs: &[u32],
    builtins: &[u32],
    outputs: &mut [u32],
    mask: u32,
    max_iterations: u64,
) -> u32 {
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
        max_iterations,
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
                if let Some(o) = outputs.get_mut(slot * 4 + lane) {
                    *o = *word;
                }
            }
        }
    }
    alive
}

type Lanes = [u32; 4];

struct Machine<'m, 'e> {
    module: &'m Module,
    env: &'e InterpEnv<'e>,
    inputs: &'e [u32],
    builtins: &'e [u32],
    vars: Vec<Lanes>,
    arrays: Vec<Vec<Lanes>>,
    /// Lanes that left each label's construct by `Break` or `Leave` (labels are unique).
    exits: HashMap<u32, u32>,
    /// Lanes that hit `Continue` in the current iteration of each loop.
    continues: HashMap<u32, u32>,
    /// Lanes discarded or killed by the loop cap.
    dead: u32,
    max_iterations: u64,
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

/// `BitfieldExtract` (semantics in the module docs).
pub fn bitfield_extract(value: u32, signed: bool, offset: i64, bits: i64) -> u32 {
    if offset < 0 || bits <= 0 || offset + bits > 32 {
        return 0;
    }
    let (o, n) = (offset as u32, bits as u32);
    // Move the field to the top, then shift it down arithmetically or logically.
    let top = value << (32 - o - n);
    if signed {
        ((top as i32) >> (32 - n)) as u32
    } else {
        top >> (32 - n)
    }
}

/// `BitfieldInsert` (semantics in the module docs).
pub fn bitfield_insert(base: u32, insert: u32, offset: i64, bits: i64) -> u32 {
    if offset < 0 || bits <= 0 || offset + bits > 32 {
        return base;
    }
    let mask = (((1u64 << bits) - 1) << offset) as u32;
    (base & !mask) | ((insert << offset) & mask)
}

/// One unary op on one lane (derivatives excluded: they need the whole quad).
pub fn eval_unary(op: UnaryOp, x: u32) -> u32 {
    use UnaryOp::*;
    let xf = f(x);
    let xi = x as i32;
    match op {
        FNeg => x ^ 0x8000_0000,
        FAbs => x & 0x7fff_ffff,
        FSign => fb(if xf > 0.0 {
            1.0
        } else if xf < 0.0 {
            -1.0
        } else {
            0.0
        }),
        Floor => fb(xf.floor()),
        Ceil => fb(xf.ceil()),
        Trunc => fb(xf.trunc()),
        RoundEven => fb(xf.round_ties_even()),
        Fract => fb(xf - xf.floor()),
        Sqrt => fb(xf.sqrt()),
        InverseSqrt => fb(1.0 / xf.sqrt()),
        Sin => fb(math::sin(xf)),
        Cos => fb(math::cos(xf)),
        Tan => fb(math::tan(xf)),
        Asin => fb(math::asin(xf)),
        Acos => fb(math::acos(xf)),
        Atan => fb(math::atan(xf)),
        Sinh => fb(math::sinh(xf)),
        Cosh => fb(math::cosh(xf)),
        Tanh => fb(math::tanh(xf)),
        Asinh => fb(math::asinh(xf)),
        Acosh => fb(math::acosh(xf)),
        Atanh => fb(math::atanh(xf)),
        Exp => fb(math::exp(xf)),
        Exp2 => fb(math::exp2(xf)),
        Log => fb(math::log(xf)),
        Log2 => fb(math::log2(xf)),
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
        FMod => fb(xf - yf * (xf / yf).floor()),
        FMin => fb(fmin(xf, yf)),
        FMax => fb(fmax(xf, yf)),
        Pow => fb(math::pow(xf, yf)),
        Atan2 => fb(math::atan2(xf, yf)),
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

impl Machine<'_, '_> {
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
                let mut iterations = 0u64;
                while active != 0 {
                    if iterations >= self.max_iterations {
                        self.dead |= active;
                        break;
                    }
                    iterations += 1;
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
            Stmt::Texture {
                dst,
                handle,
                coord,
                lod,
                offset,
            } => {
                let (op, lod) = match lod {
                    Lod::Implicit => (TexOp::SampleImplicit, [0; 4]),
                    Lod::Bias(v) => (TexOp::SampleImplicit, self.get(*v)),
                    Lod::Explicit(v) => (TexOp::SampleLod, self.get(*v)),
                };
                let out = self.texture(op, mask, *offset, handle, Some(coord), lod);
                for (c, d) in dst.iter().enumerate() {
                    self.set(*d, out[c], mask);
                }
                mask
            }
            Stmt::TexelFetch {
                dst,
                handle,
                coord,
                lod,
            } => {
                let lod = self.get(*lod);
                let out = self.texture(TexOp::Fetch, mask, [0, 0], handle, Some(coord), lod);
                for (c, d) in dst.iter().enumerate() {
                    self.set(*d, out[c], mask);
                }
                mask
            }
            Stmt::TextureSize { dst, handle, lod } => {
                let lod = self.get(*lod);
                let out = self.texture(TexOp::Size, mask, [0, 0], handle, None, lod);
                for (c, d) in dst.iter().enumerate() {
                    self.set(*d, out[c], mask);
                }
                mask
            }
        }
    }

    fn texture(
        &self,
        op: TexOp,
        mask: u32,
        offset: [i32; 2],
        handle: &[Var; 2],
        coord: Option<&[Var; 2]>,
        lod: Lanes,
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
            _pad: 0,
            handle_lo: self.get(handle[0]),
            handle_hi: self.get(handle[1]),
            coord,
            lod,
        };
        (self.env.texture)(&req)
    }

    /// Computes `op` in all four lanes (the caller writes the active ones).
    fn eval(&self, dst: Var, op: &Op) -> Lanes {
        let map1 = |a: Lanes, g: &dyn Fn(u32) -> u32| [g(a[0]), g(a[1]), g(a[2]), g(a[3])];
        let dst_bool = self.kind(dst) == ScalarKind::Bool;
        let normalize = |w: u32| if dst_bool { b(w != 0) } else { w };
        match *op {
            Op::Const(c) => [c.bits(); 4],
            Op::Copy(a) => self.get(a),
            Op::Unary(u, a) => {
                let v = self.get(a);
                match u {
                    UnaryOp::DFdxFine
                    | UnaryOp::DFdyFine
                    | UnaryOp::DFdxCoarse
                    | UnaryOp::DFdyCoarse => self.derivative(u, v),
                    _ => map1(v, &|x| eval_unary(u, x)),
                }
            }
            Op::Binary(bop, x, y) => {
                let (x, y) = (self.get(x), self.get(y));
                std::array::from_fn(|l| eval_binary(bop, x[l], y[l]))
            }
            Op::Select { cond, a, b } => {
                let (c, a, b) = (self.get(cond), self.get(a), self.get(b));
                std::array::from_fn(|l| if c[l] != 0 { a[l] } else { b[l] })
            }
            Op::Fma(a, b, c) => {
                let (a, b, c) = (self.get(a), self.get(b), self.get(c));
                std::array::from_fn(|l| fb(f(a[l]).mul_add(f(b[l]), f(c[l]))))
            }
            Op::FClamp(x, lo, hi) => {
                let (x, lo, hi) = (self.get(x), self.get(lo), self.get(hi));
                std::array::from_fn(|l| fb(fmin(fmax(f(x[l]), f(lo[l])), f(hi[l]))))
            }
            Op::FMix(x, y, a) => {
                let (x, y, a) = (self.get(x), self.get(y), self.get(a));
                std::array::from_fn(|l| {
                    let (x, y, a) = (f(x[l]), f(y[l]), f(a[l]));
                    fb(x * (1.0 - a) + y * a)
                })
            }
            Op::BitfieldExtract {
                value,
                offset,
                bits,
            } => {
                let signed = self.kind(value) == ScalarKind::I32;
                let (ok, bk) = (self.kind(offset), self.kind(bits));
                let (v, o, n) = (self.get(value), self.get(offset), self.get(bits));
                std::array::from_fn(|l| {
                    bitfield_extract(v[l], signed, int_value(ok, o[l]), int_value(bk, n[l]))
                })
            }
            Op::BitfieldInsert {
                base,
                insert,
                offset,
                bits,
            } => {
                let (ok, bk) = (self.kind(offset), self.kind(bits));
                let (ba, ins) = (self.get(base), self.get(insert));
                let (o, n) = (self.get(offset), self.get(bits));
                std::array::from_fn(|l| {
                    bitfield_insert(ba[l], ins[l], int_value(ok, o[l]), int_value(bk, n[l]))
                })
            }
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
