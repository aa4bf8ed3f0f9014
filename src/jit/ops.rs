//! Lowering of each `ir::Op` (the right-hand side of an `Assign`) to Cranelift vector
//! instructions on 4 lanes. Each op's semantics match the reference interpreter bit for bit
//! (`ir::interp`); the choices GLSL leaves open are written beside the op. Control flow and
//! memory stay in `emit.rs`.

use cranelift_codegen::ir::{
    condcodes::{FloatCC, IntCC},
    types, InstBuilder, Value,
};

use super::emit::{Emitter, F32X4, I32X4};
use super::CompileError;
use crate::ir::{BinaryOp, Op, ScalarKind, Stage, UnaryOp, Var};

const ONE_F: u32 = 0x3F80_0000;
const MINUS_ONE_F: u32 = 0xBF80_0000;
const INF_F: u32 = 0x7F80_0000;

impl Emitter<'_, '_> {
    /// The value of `op` in every lane (the caller masks the write).
    pub(crate) fn emit_op(&mut self, dst: Var, op: &Op) -> Result<Value, CompileError> {
        let v = self.emit_op_raw(op)?;
        // A Bool destination of a memory load gets the word normalized (nonzero → all ones):
        // GL stores booleans as 0/1 in buffers, and the IR relies on all-ones masks.
        if self.kind(dst)? == ScalarKind::Bool
            && matches!(
                op,
                Op::Input(_)
                    | Op::Builtin(_)
                    | Op::Uniform { .. }
                    | Op::BlockLoad { .. }
                    | Op::StorageLoad { .. }
            )
        {
            let z = self.splat_const(0);
            return Ok(self.b.ins().icmp(IntCC::NotEqual, v, z));
        }
        Ok(v)
    }

    fn emit_op_raw(&mut self, op: &Op) -> Result<Value, CompileError> {
        Ok(match op {
            Op::Const(s) => self.splat_const(s.bits()),
            Op::Copy(v) => self.var_value(*v)?,
            Op::Unary(u, v) => {
                let x = self.var_value(*v)?;
                self.emit_unary(*u, x)?
            }
            Op::Binary(o, a, b) => {
                let x = self.var_value(*a)?;
                let y = self.var_value(*b)?;
                self.emit_binary(*o, x, y)
            }
            Op::Select { cond, a, b } => {
                let c = self.var_value(*cond)?;
                let c = self.truth(c);
                let x = self.var_value(*a)?;
                let y = self.var_value(*b)?;
                self.b.ins().bitselect(c, x, y)
            }
            Op::Fma(a, b, c) => {
                // The one place a fused multiply-add is allowed (DESIGN.md §3).
                let x = self.var_f(*a)?;
                let y = self.var_f(*b)?;
                let z = self.var_f(*c)?;
                self.emit_fma_f32(x, y, z)
            }
            Op::FClamp(x, lo, hi) => {
                let x = self.var_value(*x)?;
                let lo = self.var_value(*lo)?;
                let hi = self.var_value(*hi)?;
                let m = self.fmax(x, lo);
                self.fmin(m, hi)
            }
            Op::FMix(x, y, a) => {
                // x * (1 - a) + y * a, two roundings, no FMA.
                let x = self.var_f(*x)?;
                let y = self.var_f(*y)?;
                let a = self.var_f(*a)?;
                let one = self.splat_const(ONE_F);
                let one = self.fview(one);
                let t = self.b.ins().fsub(one, a);
                let l = self.b.ins().fmul(x, t);
                let r = self.b.ins().fmul(y, a);
                let s = self.b.ins().fadd(l, r);
                self.iview(s)
            }
            Op::BitfieldExtract {
                value,
                offset,
                bits,
            } => {
                let signed = self.kind(*value)? == ScalarKind::I32;
                let v = self.var_value(*value)?;
                let o = self.var_value(*offset)?;
                let n = self.var_value(*bits)?;
                self.emit_bitfield_extract(v, o, n, signed)
            }
            Op::BitfieldInsert {
                base,
                insert,
                offset,
                bits,
            } => {
                let b = self.var_value(*base)?;
                let i = self.var_value(*insert)?;
                let o = self.var_value(*offset)?;
                let n = self.var_value(*bits)?;
                self.emit_bitfield_insert(b, i, o, n)
            }
            Op::Input(row) => self.emit_input(*row)?,
            Op::Builtin(b) => self.emit_builtin(b.index()),
            Op::Uniform { offset, index } => self.emit_uniform(*offset, *index)?,
            Op::BlockLoad {
                block,
                offset,
                dynamic,
            } => self.emit_block_load(*block, *offset, *dynamic)?,
            Op::LoadArray { array, index } => self.emit_load_array(array.0, *index)?,
            Op::StorageLoad {
                block,
                offset,
                dynamic,
            } => self.emit_storage_load(*block, *offset, *dynamic)?,
            Op::StorageSize { block } => self.emit_storage_size(*block),
            Op::F64 { op, args, word } => self.emit_f64(*op, args, *word)?,
        })
    }

    fn var_f(&mut self, v: Var) -> Result<Value, CompileError> {
        let x = self.var_value(v)?;
        Ok(self.fview(x))
    }

    /// fmin(a, b) = a < b ? a : b (interpreter's choice: one compare and a select, so a NaN
    /// in `a` gives `b` and a NaN in `b` gives `b`).
    fn fmin(&mut self, a: Value, b: Value) -> Value {
        let fa = self.fview(a);
        let fb = self.fview(b);
        let m = self.b.ins().fcmp(FloatCC::LessThan, fa, fb);
        self.b.ins().bitselect(m, a, b)
    }

    /// fmax(a, b) = a > b ? a : b.
    fn fmax(&mut self, a: Value, b: Value) -> Value {
        let fa = self.fview(a);
        let fb = self.fview(b);
        let m = self.b.ins().fcmp(FloatCC::GreaterThan, fa, fb);
        self.b.ins().bitselect(m, a, b)
    }

    /// A float op on `i32x4` bits.
    fn float1(&mut self, x: Value, f: impl FnOnce(&mut Self, Value) -> Value) -> Value {
        let fx = self.fview(x);
        let r = f(self, fx);
        self.iview(r)
    }

    fn float2(
        &mut self,
        x: Value,
        y: Value,
        f: impl FnOnce(&mut Self, Value, Value) -> Value,
    ) -> Value {
        let fx = self.fview(x);
        let fy = self.fview(y);
        let r = f(self, fx, fy);
        self.iview(r)
    }

    /// A float comparison giving a 0 / -1 mask.
    fn fcmp(&mut self, cc: FloatCC, x: Value, y: Value) -> Value {
        let fx = self.fview(x);
        let fy = self.fview(y);
        self.b.ins().fcmp(cc, fx, fy)
    }

    /// Applies a scalar `i32` operation to each lane.
    fn per_lane1(&mut self, x: Value, f: impl Fn(&mut Self, Value) -> Value) -> Value {
        let l = self.lanes(x);
        let r = l.map(|v| f(self, v));
        self.join_lanes(r)
    }

    fn per_lane2(
        &mut self,
        x: Value,
        y: Value,
        f: impl Fn(&mut Self, Value, Value) -> Value,
    ) -> Value {
        let a = self.lanes(x);
        let b = self.lanes(y);
        let r = [0, 1, 2, 3].map(|i| f(self, a[i], b[i]));
        self.join_lanes(r)
    }

    /// Permutes the 4 lanes: result lane i = x lane `idx[i]`.
    fn permute(&mut self, x: Value, idx: [u8; 4]) -> Value {
        let bytes: Vec<u8> = idx
            .iter()
            .flat_map(|&l| (0..4).map(move |k| l * 4 + k))
            .collect();
        let imm = self
            .b
            .func
            .dfg
            .immediates
            .push(cranelift_codegen::ir::ConstantData::from(bytes));
        let xb = self.bview(x);
        let r = self.b.ins().shuffle(xb, xb, imm);
        self.iview(r)
    }

    /// Quad derivative: `x[hi] - x[lo]` per lane (lane layout in `abi.rs`).
    /// Outside a fragment quad (vertex code) a derivative is 0.0, as in the interpreter.
    fn derivative(&mut self, x: Value, hi: [u8; 4], lo: [u8; 4]) -> Value {
        if self.stage() != Stage::Fragment {
            return self.splat_const(0);
        }
        let a = self.permute(x, hi);
        let b = self.permute(x, lo);
        self.float2(a, b, |e, a, b| e.b.ins().fsub(a, b))
    }

    fn emit_unary(&mut self, op: UnaryOp, x: Value) -> Result<Value, CompileError> {
        use UnaryOp as U;
        Ok(match op {
            U::FNeg => self.float1(x, |e, f| e.b.ins().fneg(f)),
            U::FAbs => self.float1(x, |e, f| e.b.ins().fabs(f)),
            U::FSign => {
                // 1.0 where x > 0, -1.0 where x < 0, x itself otherwise (±0 and NaN kept).
                let z = self.splat_const(0);
                let gt = self.fcmp(FloatCC::GreaterThan, x, z);
                let lt = self.fcmp(FloatCC::LessThan, x, z);
                let one = self.splat_const(ONE_F);
                let m_one = self.splat_const(MINUS_ONE_F);
                let r = self.b.ins().bitselect(lt, m_one, x);
                self.b.ins().bitselect(gt, one, r)
            }
            U::Sqrt => self.float1(x, |e, f| e.b.ins().sqrt(f)),
            U::InverseSqrt => {
                let one = self.splat_const(ONE_F);
                let one = self.fview(one);
                self.float1(x, |e, f| {
                    let s = e.b.ins().sqrt(f);
                    e.b.ins().fdiv(one, s)
                })
            }
            // Inline sequences (`vmath.rs`, the very ops of `math::lanes`).
            U::Floor
            | U::Ceil
            | U::Trunc
            | U::RoundEven
            | U::Fract
            | U::Sin
            | U::Cos
            | U::Tan
            | U::Asin
            | U::Acos
            | U::Atan
            | U::Sinh
            | U::Cosh
            | U::Tanh
            | U::Asinh
            | U::Acosh
            | U::Atanh
            | U::Exp
            | U::Exp2
            | U::Log
            | U::Log2 => self
                .emit_inline_math1(op, x)
                .ok_or_else(|| CompileError::Bug(format!("{op:?} has no inline sequence")))?,
            U::IsNan => self.fcmp(FloatCC::Unordered, x, x),
            U::IsInf => {
                let a = self.float1(x, |e, f| e.b.ins().fabs(f));
                let inf = self.splat_const(INF_F);
                self.fcmp(FloatCC::Equal, a, inf)
            }
            U::DFdxFine => self.derivative(x, [1, 1, 3, 3], [0, 0, 2, 2]),
            U::DFdyFine => self.derivative(x, [2, 3, 2, 3], [0, 1, 0, 1]),
            U::DFdxCoarse => self.derivative(x, [1, 1, 1, 1], [0, 0, 0, 0]),
            U::DFdyCoarse => self.derivative(x, [2, 2, 2, 2], [0, 0, 0, 0]),
            U::INeg => self.b.ins().ineg(x),
            U::IAbs => self.b.ins().iabs(x),
            U::ISign => {
                let m1 = self.splat_const(u32::MAX);
                let p1 = self.splat_const(1);
                let t = self.b.ins().smax(x, m1);
                self.b.ins().smin(t, p1)
            }
            U::Not | U::LogicalNot => self.b.ins().bnot(x),
            U::BitReverse => self.per_lane1(x, |e, v| e.b.ins().bitrev(v)),
            U::BitCount => self.per_lane1(x, |e, v| e.b.ins().popcnt(v)),
            U::FindLsb => self.per_lane1(x, |e, v| {
                let t = e.b.ins().ctz(v);
                let z = e.b.ins().icmp_imm_s(IntCC::Equal, v, 0);
                let m1 = e.b.ins().iconst(types::I32, -1);
                e.b.ins().select(z, m1, t)
            }),
            U::FindMsbI => {
                // Fold negative values onto their complement: the highest bit that differs
                // from the sign bit; 0 and -1 both become 0, whose answer is -1.
                let s = self.b.ins().sshr_imm_s(x, 31);
                let y = self.b.ins().bxor(x, s);
                self.per_lane1(y, |e, v| {
                    let c = e.b.ins().clz(v);
                    let k = e.b.ins().iconst(types::I32, 31);
                    e.b.ins().isub(k, c)
                })
            }
            U::FindMsbU => self.per_lane1(x, |e, v| {
                let c = e.b.ins().clz(v);
                let k = e.b.ins().iconst(types::I32, 31);
                e.b.ins().isub(k, c)
            }),
            // Saturating, NaN → 0 (the interpreter's `as` casts).
            U::F2I => {
                let f = self.fview(x);
                self.b.ins().fcvt_to_sint_sat(I32X4, f)
            }
            U::F2U => {
                let f = self.fview(x);
                self.b.ins().fcvt_to_uint_sat(I32X4, f)
            }
            U::I2F => {
                let f = self.b.ins().fcvt_from_sint(F32X4, x);
                self.iview(f)
            }
            U::U2F => {
                let f = self.b.ins().fcvt_from_uint(F32X4, x);
                self.iview(f)
            }
            U::I2U | U::U2I | U::BitcastF2I | U::BitcastF2U | U::BitcastI2F | U::BitcastU2F => x,
            U::B2F => {
                let one = self.splat_const(ONE_F);
                self.b.ins().band(x, one)
            }
            U::B2I | U::B2U => {
                let one = self.splat_const(1);
                self.b.ins().band(x, one)
            }
            U::F2B => {
                // x != 0.0: true for NaN, false for -0.0.
                let z = self.splat_const(0);
                self.fcmp(FloatCC::NotEqual, x, z)
            }
            U::I2B => {
                let z = self.splat_const(0);
                self.b.ins().icmp(IntCC::NotEqual, x, z)
            }
        })
    }

    fn emit_binary(&mut self, op: BinaryOp, x: Value, y: Value) -> Value {
        use BinaryOp as B;
        match op {
            B::FAdd => self.float2(x, y, |e, a, b| e.b.ins().fadd(a, b)),
            B::FSub => self.float2(x, y, |e, a, b| e.b.ins().fsub(a, b)),
            B::FMul => self.float2(x, y, |e, a, b| e.b.ins().fmul(a, b)),
            B::FDiv => self.float2(x, y, |e, a, b| e.b.ins().fdiv(a, b)),
            B::FMin => self.fmin(x, y),
            B::FMax => self.fmax(x, y),
            // Inline sequences (`vmath.rs`).
            B::FMod => self.emit_fmod(x, y),
            B::Pow => self.emit_pow(x, y),
            B::Atan2 => self.emit_atan2(x, y),
            B::Step => {
                // step(edge, x) = x < edge ? 0.0 : 1.0 (NaN gives 1.0).
                let lt = self.fcmp(FloatCC::LessThan, y, x);
                let one = self.splat_const(ONE_F);
                self.b.ins().band_not(one, lt)
            }
            B::IAdd => self.b.ins().iadd(x, y),
            B::ISub => self.b.ins().isub(x, y),
            B::IMul => self.b.ins().imul(x, y),
            B::SDiv => self.per_lane2(x, y, |e, a, d| {
                // d == 0 → 0; d == -1 → wrapping negation (INT_MIN / -1 = INT_MIN).
                let d0 = e.b.ins().icmp_imm_s(IntCC::Equal, d, 0);
                let dm1 = e.b.ins().icmp_imm_s(IntCC::Equal, d, -1);
                let bad = e.b.ins().bor(d0, dm1);
                let one = e.b.ins().iconst(types::I32, 1);
                let ds = e.b.ins().select(bad, one, d);
                let q = e.b.ins().sdiv(a, ds);
                let n = e.b.ins().ineg(a);
                let q = e.b.ins().select(dm1, n, q);
                let z = e.b.ins().iconst(types::I32, 0);
                e.b.ins().select(d0, z, q)
            }),
            B::SRem => self.per_lane2(x, y, |e, a, d| {
                // d == 0 or -1 → 0: dividing by 1 instead gives exactly that.
                let d0 = e.b.ins().icmp_imm_s(IntCC::Equal, d, 0);
                let dm1 = e.b.ins().icmp_imm_s(IntCC::Equal, d, -1);
                let bad = e.b.ins().bor(d0, dm1);
                let one = e.b.ins().iconst(types::I32, 1);
                let ds = e.b.ins().select(bad, one, d);
                e.b.ins().srem(a, ds)
            }),
            B::UDiv => self.per_lane2(x, y, |e, a, d| {
                let d0 = e.b.ins().icmp_imm_s(IntCC::Equal, d, 0);
                let one = e.b.ins().iconst(types::I32, 1);
                let ds = e.b.ins().select(d0, one, d);
                let q = e.b.ins().udiv(a, ds);
                let z = e.b.ins().iconst(types::I32, 0);
                e.b.ins().select(d0, z, q)
            }),
            B::URem => self.per_lane2(x, y, |e, a, d| {
                let d0 = e.b.ins().icmp_imm_s(IntCC::Equal, d, 0);
                let one = e.b.ins().iconst(types::I32, 1);
                let ds = e.b.ins().select(d0, one, d);
                e.b.ins().urem(a, ds)
            }),
            B::SMin => self.b.ins().smin(x, y),
            B::SMax => self.b.ins().smax(x, y),
            B::UMin => self.b.ins().umin(x, y),
            B::UMax => self.b.ins().umax(x, y),
            B::And | B::LogicalAnd => self.b.ins().band(x, y),
            B::Or | B::LogicalOr => self.b.ins().bor(x, y),
            B::Xor | B::LogicalXor => self.b.ins().bxor(x, y),
            B::LogicalEq => {
                let t = self.b.ins().bxor(x, y);
                self.b.ins().bnot(t)
            }
            // Scalar Cranelift shifts take the count modulo the width: GLSL's undefined
            // counts >= 32 become count % 32, as in the interpreter.
            B::Shl => self.per_lane2(x, y, |e, a, s| e.b.ins().ishl(a, s)),
            B::ShrS => self.per_lane2(x, y, |e, a, s| e.b.ins().sshr(a, s)),
            B::ShrU => self.per_lane2(x, y, |e, a, s| e.b.ins().ushr(a, s)),
            B::FEq => self.fcmp(FloatCC::Equal, x, y),
            B::FNe => self.fcmp(FloatCC::NotEqual, x, y),
            B::FLt => self.fcmp(FloatCC::LessThan, x, y),
            B::FLe => self.fcmp(FloatCC::LessThanOrEqual, x, y),
            B::FGt => self.fcmp(FloatCC::GreaterThan, x, y),
            B::FGe => self.fcmp(FloatCC::GreaterThanOrEqual, x, y),
            B::IEq => self.b.ins().icmp(IntCC::Equal, x, y),
            B::INe => self.b.ins().icmp(IntCC::NotEqual, x, y),
            B::SLt => self.b.ins().icmp(IntCC::SignedLessThan, x, y),
            B::SLe => self.b.ins().icmp(IntCC::SignedLessThanOrEqual, x, y),
            B::SGt => self.b.ins().icmp(IntCC::SignedGreaterThan, x, y),
            B::SGe => self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, x, y),
            B::ULt => self.b.ins().icmp(IntCC::UnsignedLessThan, x, y),
            B::ULe => self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, x, y),
            B::UGt => self.b.ins().icmp(IntCC::UnsignedGreaterThan, x, y),
            B::UGe => self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, x, y),
        }
    }

    /// Clamps GLSL's bitfield `offset`/`bits` (undefined outside 0 ≤ offset, 0 ≤ bits,
    /// offset + bits ≤ 32) to defined values, as the interpreter does: offset is taken as
    /// unsigned and clamped to 32, bits as unsigned and clamped to 32 - offset. Returns both
    /// as i64.
    fn bitfield_range(&mut self, o: Value, n: Value) -> (Value, Value) {
        let o64 = self.b.ins().uextend(types::I64, o);
        let k32 = self.b.ins().iconst(types::I64, 32);
        let oc = self.b.ins().umin(o64, k32);
        let n64 = self.b.ins().uextend(types::I64, n);
        let room = self.b.ins().isub(k32, oc);
        let nc = self.b.ins().umin(n64, room);
        (oc, nc)
    }

    /// `(1 << n) - 1` for n in 0..=32, as i64.
    fn low_mask(&mut self, n: Value) -> Value {
        let one = self.b.ins().iconst(types::I64, 1);
        let p = self.b.ins().ishl(one, n);
        self.b.ins().iadd_imm_s(p, -1)
    }

    fn emit_bitfield_extract(&mut self, v: Value, o: Value, n: Value, signed: bool) -> Value {
        let vl = self.lanes(v);
        let ol = self.lanes(o);
        let nl = self.lanes(n);
        let r = [0, 1, 2, 3].map(|i| {
            let (oc, nc) = self.bitfield_range(ol[i], nl[i]);
            let v64 = self.b.ins().uextend(types::I64, vl[i]);
            let sh = self.b.ins().ushr(v64, oc);
            let mask = self.low_mask(nc);
            let mut r = self.b.ins().band(sh, mask);
            if signed {
                // Sign-extend from bit n - 1; n = 0 gives 64 - 0 = 64 ≡ 0, and r is 0.
                let k64 = self.b.ins().iconst(types::I64, 64);
                let s = self.b.ins().isub(k64, nc);
                let up = self.b.ins().ishl(r, s);
                r = self.b.ins().sshr(up, s);
            }
            self.b.ins().ireduce(types::I32, r)
        });
        self.join_lanes(r)
    }

    fn emit_bitfield_insert(&mut self, base: Value, ins: Value, o: Value, n: Value) -> Value {
        let bl = self.lanes(base);
        let il = self.lanes(ins);
        let ol = self.lanes(o);
        let nl = self.lanes(n);
        let r = [0, 1, 2, 3].map(|i| {
            let (oc, nc) = self.bitfield_range(ol[i], nl[i]);
            let low = self.low_mask(nc);
            let mask = self.b.ins().ishl(low, oc);
            let b64 = self.b.ins().uextend(types::I64, bl[i]);
            let i64v = self.b.ins().uextend(types::I64, il[i]);
            let kept = self.b.ins().band_not(b64, mask);
            let moved = self.b.ins().ishl(i64v, oc);
            let moved = self.b.ins().band(moved, mask);
            let r = self.b.ins().bor(kept, moved);
            self.b.ins().ireduce(types::I32, r)
        });
        self.join_lanes(r)
    }
}
