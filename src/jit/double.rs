//! Lowering of `ir::Op::F64` (double precision, ARCHITECTURE.md §8 "a double is two u32
//! words") to Cranelift: the word pair of 4 lanes becomes two `f64x2` (lanes 0–1 and 2–3),
//! the IEEE op runs on them, and the requested word comes back as one `i32x4`. Matches
//! `ir::interp::eval_f64` bit for bit; the roundings are the exact sequences of
//! `math::fp64`, never `roundpd` or a libcall. The per-op semantics live in the
//! interpreter's table; `ops.rs` dispatches here.

use std::sync::OnceLock;

use cranelift_codegen::ir::{
    condcodes::FloatCC, types, AbiParam, ConstantData, Endianness, InstBuilder, MemFlagsData,
    Signature, Type, Value,
};

use super::emit::{Emitter, F32X4};
use super::CompileError;
use crate::ir::{F64Op, Var};

const F64X2: Type = types::F64X2;
const I64X2: Type = types::I64X2;
const SIGN: u64 = 1 << 63;
/// 2^52 as f64 bits: from here on every double is an integer (`math::fp64`).
const TWO_52: u64 = 0x4330_0000_0000_0000;
const ONE: u64 = 0x3ff0_0000_0000_0000;
const INF: u64 = 0x7ff0_0000_0000_0000;

fn lanes_le() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

/// Whether the host has AVX and FMA3, so that Cranelift's `fma` is one `vfmadd` (IEEE
/// fusedMultiplyAdd, correctly rounded: the same bits as `math::fp64::fma`) rather than
/// its libm libcall.
fn host_has_fma() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        super::code::host_isa().is_ok_and(|isa| {
            let flag = |name: &str| {
                isa.isa_flags()
                    .iter()
                    .any(|f| f.name == name && f.as_bool() == Some(true))
            };
            flag("has_avx") && flag("has_fma")
        })
    })
}

#[cfg(test)]
thread_local! {
    /// Tests set this to call `math::fp64::fma` even where FMA3 is present.
    pub(crate) static FORCE_SOFT_FMA: std::cell::Cell<bool> =
        const { std::cell::Cell::new(false) };
}

fn use_hw_fma() -> bool {
    #[cfg(test)]
    if FORCE_SOFT_FMA.with(|f| f.get()) {
        return false;
    }
    host_has_fma()
}

/// The exact fused multiply-add generated code calls per lane where the host has no FMA3.
extern "C" fn rt_fma_f64(a: f64, b: f64, c: f64) -> f64 {
    crate::math::fp64::fma(a, b, c)
}

/// A double per lane: lanes 0–1 and lanes 2–3 as two `f64x2`.
type Pair = [Value; 2];

impl Emitter<'_, '_> {
    /// Word `word` of `op` over `args` in every lane (the caller masks the write).
    pub(crate) fn emit_f64(
        &mut self,
        op: F64Op,
        args: &[Var; 6],
        word: u8,
    ) -> Result<Value, CompileError> {
        use F64Op::*;
        let r = match op {
            FromF32 => {
                let x = self.var_value(args[0])?;
                let x = self.fview(x);
                let hi = self.move_high_lanes_down(x);
                let a = self.b.ins().fvpromote_low(x);
                let b = self.b.ins().fvpromote_low(hi);
                [a, b]
            }
            FromI32 => {
                // `fcvt_from_sint(swiden_low)` is one `cvtdq2pd`.
                let x = self.var_value(args[0])?;
                let hi = self.move_high_lanes_down(x);
                let a = self.b.ins().swiden_low(x);
                let b = self.b.ins().swiden_low(hi);
                let a = self.b.ins().fcvt_from_sint(F64X2, a);
                let b = self.b.ins().fcvt_from_sint(F64X2, b);
                [a, b]
            }
            FromU32 => {
                let x = self.var_value(args[0])?;
                let lo = self.b.ins().uwiden_low(x);
                let hi = self.b.ins().uwiden_high(x);
                let a = self.b.ins().fcvt_from_uint(F64X2, lo);
                let b = self.b.ins().fcvt_from_uint(F64X2, hi);
                [a, b]
            }
            _ => {
                let x = self.double(args[0], args[1])?;
                match op {
                    Sqrt => x.map(|v| self.b.ins().sqrt(v)),
                    RoundEven => x.map(|v| self.round_even(v)),
                    Floor => x.map(|v| self.floor(v)),
                    Ceil => x.map(|v| self.ceil(v)),
                    Trunc => x.map(|v| self.trunc(v)),
                    IsNan => {
                        let m = x.map(|v| self.b.ins().fcmp(FloatCC::Unordered, v, v));
                        return Ok(self.unpack(m, 0));
                    }
                    IsInf => {
                        let inf = self.dconst(INF);
                        let m = x.map(|v| {
                            let a = self.b.ins().fabs(v);
                            self.b.ins().fcmp(FloatCC::Equal, a, inf)
                        });
                        return Ok(self.unpack(m, 0));
                    }
                    ToF32 => {
                        let a = self.b.ins().fvdemote(x[0]);
                        let b = self.b.ins().fvdemote(x[1]);
                        // [a0, a1, 0, 0] and [b0, b1, 0, 0] -> [a0, a1, b0, b1].
                        let mut m: Vec<u8> = (0..8).collect();
                        m.extend(16..24);
                        return Ok(self.shuffle(a, b, m));
                    }
                    ToI32 | ToU32 => {
                        let lanes = [(0, 0u8), (0, 1), (1, 0), (1, 1)].map(|(v, l)| {
                            let s = self.b.ins().extractlane(x[v], l);
                            if op == ToI32 {
                                self.b.ins().fcvt_to_sint_sat(types::I32, s)
                            } else {
                                self.b.ins().fcvt_to_uint_sat(types::I32, s)
                            }
                        });
                        return Ok(self.join_lanes(lanes));
                    }
                    _ => {
                        let y = self.double(args[2], args[3])?;
                        let cmp = |cc| -> Option<FloatCC> { Some(cc) };
                        let cc = match op {
                            Eq => cmp(FloatCC::Equal),
                            // Cranelift's `ne` is unordered-or-not-equal, as `FNe`.
                            Ne => cmp(FloatCC::NotEqual),
                            Lt => cmp(FloatCC::LessThan),
                            Le => cmp(FloatCC::LessThanOrEqual),
                            Gt => cmp(FloatCC::GreaterThan),
                            Ge => cmp(FloatCC::GreaterThanOrEqual),
                            _ => None,
                        };
                        if let Some(cc) = cc {
                            let m = [0, 1].map(|i| self.b.ins().fcmp(cc, x[i], y[i]));
                            return Ok(self.unpack(m, 0));
                        }
                        match op {
                            Add => [0, 1].map(|i| self.b.ins().fadd(x[i], y[i])),
                            Sub => [0, 1].map(|i| self.b.ins().fsub(x[i], y[i])),
                            Mul => [0, 1].map(|i| self.b.ins().fmul(x[i], y[i])),
                            Div => [0, 1].map(|i| self.b.ins().fdiv(x[i], y[i])),
                            Fma => {
                                let z = self.double(args[4], args[5])?;
                                if use_hw_fma() {
                                    [0, 1].map(|i| self.b.ins().fma(x[i], y[i], z[i]))
                                } else {
                                    self.soft_fma(x, y, z)
                                }
                            }
                            _ => {
                                return Err(CompileError::Bug(format!(
                                    "f64 op {op:?} has no lowering"
                                )))
                            }
                        }
                    }
                }
            }
        };
        Ok(self.unpack(r, word))
    }

    /// The double in the word vars (`lo`, `hi`) as two `f64x2`: interleave the lanes
    /// (`punpckldq` / `punpckhdq`).
    fn double(&mut self, lo: Var, hi: Var) -> Result<Pair, CompileError> {
        let l = self.var_value(lo)?;
        let h = self.var_value(hi)?;
        let mut first = Vec::new();
        let mut second = Vec::new();
        for lane in 0..2u8 {
            first.extend((0..4).map(|k| lane * 4 + k));
            first.extend((0..4).map(|k| 16 + lane * 4 + k));
            second.extend((0..4).map(|k| 8 + lane * 4 + k));
            second.extend((0..4).map(|k| 24 + lane * 4 + k));
        }
        let a = self.shuffle(l, h, first);
        let b = self.shuffle(l, h, second);
        Ok([a, b].map(|v| self.b.ins().bitcast(F64X2, lanes_le(), v)))
    }

    /// Word `word` (0 low, 1 high) of each of the 4 doubles (or 64-bit masks) in `p`.
    fn unpack(&mut self, p: Pair, word: u8) -> Value {
        let m: Vec<u8> = [0u8, 8, 16, 24]
            .iter()
            .flat_map(|&base| (0..4).map(move |k| base + 4 * word + k))
            .collect();
        self.shuffle(p[0], p[1], m)
    }

    /// A byte shuffle of two 128-bit vectors (mask bytes 0–15 pick from `a`, 16–31 from
    /// `b`), as `i32x4`.
    fn shuffle(&mut self, a: Value, b: Value, mask: Vec<u8>) -> Value {
        let imm = self.b.func.dfg.immediates.push(ConstantData::from(mask));
        let a = self.bview(a);
        let b = self.bview(b);
        let r = self.b.ins().shuffle(a, b, imm);
        self.iview(r)
    }

    /// Lanes 2 and 3 of an `i32x4` / `f32x4` moved to lanes 0 and 1 (for the widening
    /// conversions, which read the low half).
    fn move_high_lanes_down(&mut self, x: Value) -> Value {
        let ty = self.b.func.dfg.value_type(x);
        let mut m: Vec<u8> = (8..16).collect();
        m.extend(8..16);
        let r = self.shuffle(x, x, m);
        if ty == F32X4 {
            self.fview(r)
        } else {
            r
        }
    }

    fn dconst(&mut self, bits: u64) -> Value {
        let mut bytes = Vec::with_capacity(16);
        bytes.extend_from_slice(&bits.to_le_bytes());
        bytes.extend_from_slice(&bits.to_le_bytes());
        let c = self.b.func.dfg.constants.insert(ConstantData::from(bytes));
        self.b.ins().vconst(F64X2, c)
    }

    fn ibits(&mut self, v: Value) -> Value {
        if self.b.func.dfg.value_type(v) == I64X2 {
            v
        } else {
            self.b.ins().bitcast(I64X2, lanes_le(), v)
        }
    }

    fn fbits(&mut self, v: Value) -> Value {
        if self.b.func.dfg.value_type(v) == F64X2 {
            v
        } else {
            self.b.ins().bitcast(F64X2, lanes_le(), v)
        }
    }

    /// `m ? a : b` per 64-bit lane.
    fn dselect(&mut self, m: Value, a: Value, b: Value) -> Value {
        let (m, a, b) = (self.ibits(m), self.ibits(a), self.ibits(b));
        let r = self.b.ins().bitselect(m, a, b);
        self.fbits(r)
    }

    /// `v` with the sign bit of `s`.
    fn with_sign(&mut self, v: Value, s: Value) -> Value {
        let sign = self.dconst(SIGN);
        self.dselect(sign, s, v)
    }

    /// |x|, whether |x| < 2^52 (false for NaN), and `(|x| + 2^52) - 2^52`: |x| rounded to
    /// an integer, ties to even (`math::fp64::round_even`).
    fn round_abs(&mut self, x: Value) -> (Value, Value, Value) {
        let a = self.b.ins().fabs(x);
        let big = self.dconst(TWO_52);
        let small = self.b.ins().fcmp(FloatCC::LessThan, a, big);
        let s = self.b.ins().fadd(a, big);
        let r = self.b.ins().fsub(s, big);
        (a, small, r)
    }

    fn round_even(&mut self, x: Value) -> Value {
        let (_, small, r) = self.round_abs(x);
        let r = self.with_sign(r, x);
        self.dselect(small, r, x)
    }

    fn floor(&mut self, x: Value) -> Value {
        let (_, small, r) = self.round_abs(x);
        let r = self.with_sign(r, x);
        let up = self.b.ins().fcmp(FloatCC::GreaterThan, r, x);
        let one = self.dconst(ONE);
        let d = self.b.ins().fsub(r, one);
        let f = self.dselect(up, d, r);
        let f = self.with_sign(f, x);
        self.dselect(small, f, x)
    }

    fn ceil(&mut self, x: Value) -> Value {
        let (_, small, r) = self.round_abs(x);
        let r = self.with_sign(r, x);
        let down = self.b.ins().fcmp(FloatCC::LessThan, r, x);
        let one = self.dconst(ONE);
        let u = self.b.ins().fadd(r, one);
        let c = self.dselect(down, u, r);
        let c = self.with_sign(c, x);
        self.dselect(small, c, x)
    }

    /// floor(|x|) with x's sign (`math::fp64::trunc`).
    fn trunc(&mut self, x: Value) -> Value {
        let (a, small, r) = self.round_abs(x);
        let up = self.b.ins().fcmp(FloatCC::GreaterThan, r, a);
        let one = self.dconst(ONE);
        let d = self.b.ins().fsub(r, one);
        let f = self.dselect(up, d, r);
        let t = self.with_sign(f, x);
        self.dselect(small, t, x)
    }

    /// GLSL `fma(float, float, float)` of 4 lanes (`f32x4` in, `i32x4` bits out), bit for
    /// bit `math::fma::fma_f32`: FMA3's `vfmadd` where the host has it (IEEE
    /// fusedMultiplyAdd is correctly rounded, so the same bits), otherwise that function's
    /// sequence inline — binary64 product and TwoSum, round to odd, one `cvtpd2ps` (the
    /// proof is in `math::fma`). Never Cranelift's libm libcall. NaN results are the
    /// canonical quiet NaN either way.
    pub(crate) fn emit_fma_f32(&mut self, x: Value, y: Value, z: Value) -> Value {
        let r = if use_hw_fma() {
            self.b.ins().fma(x, y, z)
        } else {
            let halves = [x, y, z].map(|v| {
                let hi = self.move_high_lanes_down(v);
                [
                    self.b.ins().fvpromote_low(v),
                    self.b.ins().fvpromote_low(hi),
                ]
            });
            let [a, b] = [0, 1].map(|i| {
                let r = self.fma_f32_half(halves[0][i], halves[1][i], halves[2][i]);
                self.b.ins().fvdemote(r)
            });
            // [a0, a1, 0, 0] and [b0, b1, 0, 0] -> [a0, a1, b0, b1].
            let mut m: Vec<u8> = (0..8).collect();
            m.extend(16..24);
            let r = self.shuffle(a, b, m);
            self.fview(r)
        };
        let nan = self.b.ins().fcmp(FloatCC::Unordered, r, r);
        let r = self.iview(r);
        let q = self
            .b
            .ins()
            .iconst(types::I32, i64::from(f32::NAN.to_bits()));
        let q = self.b.ins().splat(types::I32X4, q);
        let nan = self.b.ins().bitcast(types::I32X4, lanes_le(), nan);
        self.b.ins().bitselect(nan, q, r)
    }

    /// Round to odd of `a * b + c` (binary32 values widened to binary64), 2 lanes.
    fn fma_f32_half(&mut self, a: Value, b: Value, c: Value) -> Value {
        let p = self.b.ins().fmul(a, b);
        let s = self.b.ins().fadd(p, c);
        // TwoSum: e = (p + c) - s exactly.
        let bb = self.b.ins().fsub(s, p);
        let t = self.b.ins().fsub(s, bb);
        let u = self.b.ins().fsub(p, t);
        let v = self.b.ins().fsub(c, bb);
        let e = self.b.ins().fadd(u, v);
        // inexact = e != 0 (NaN counts, but then s is not finite) and |s| < inf.
        let zero = self.dconst(0);
        let nz = self.b.ins().fcmp(FloatCC::NotEqual, e, zero);
        let abs = self.b.ins().fabs(s);
        let inf = self.dconst(INF);
        let fin = self.b.ins().fcmp(FloatCC::LessThan, abs, inf);
        let m = self.b.ins().band(nz, fin);
        // (bits(s) - [signs differ]) | 1 where inexact; bits(s) elsewhere.
        let sb = self.ibits(s);
        let eb = self.ibits(e);
        let d = self.b.ins().bxor(sb, eb);
        let d = self.b.ins().ushr_imm_u(d, 63);
        let d = self.b.ins().band(d, m);
        let one = self.dconst(1);
        let one = self.ibits(one);
        let odd = self.b.ins().band(m, one);
        let r = self.b.ins().isub(sb, d);
        let r = self.b.ins().bor(r, odd);
        self.fbits(r)
    }

    /// `math::fp64::fma` per lane through an indirect call (its address is a constant:
    /// the function lives in this process, as the code does).
    fn soft_fma(&mut self, x: Pair, y: Pair, z: Pair) -> Pair {
        let mut sig = Signature::new(self.b.func.signature.call_conv);
        for _ in 0..3 {
            sig.params.push(AbiParam::new(types::F64));
        }
        sig.returns.push(AbiParam::new(types::F64));
        let sig = self.b.import_signature(sig);
        let f: extern "C" fn(f64, f64, f64) -> f64 = rt_fma_f64;
        let callee = self.b.ins().iconst(types::I64, f as usize as i64);
        [0, 1].map(|i| {
            let lanes = [0u8, 1].map(|l| {
                let a = self.b.ins().extractlane(x[i], l);
                let b = self.b.ins().extractlane(y[i], l);
                let c = self.b.ins().extractlane(z[i], l);
                let call = self.b.ins().call_indirect(sig, callee, &[a, b, c]);
                self.b.inst_results(call)[0]
            });
            let v = self.b.ins().scalar_to_vector(F64X2, lanes[0]);
            self.b.ins().insertlane(v, lanes[1], 1)
        })
    }
}
