//! Inline maths in generated code: the `math::lanes` sequences (sin, cos, tan, asin, acos,
//! atan, atan2, the hyperbolics, exp, exp2, log, log2, pow, floor and its kin) instantiated with Cranelift
//! `f32x4`/`i32x4` instructions, so that the JIT and the interpreter (the scalar instance)
//! run the same IEEE ops in the same order. floor/ceil/trunc/roundEven are one SSE4.1
//! `roundps` where the host has it (exact, so equal to the sequence) and the sequence
//! otherwise — never a libcall.

use std::sync::OnceLock;

use cranelift_codegen::ir::{condcodes::FloatCC, InstBuilder, Value};

use super::emit::{Emitter, F32X4, I32X4};
use crate::ir::UnaryOp;
use crate::math::lanes::{self, Lanes};

/// The emitter as a [`Lanes`] op set: each op one Cranelift vector instruction.
struct Vec4<'a, 'm, 'b>(&'a mut Emitter<'m, 'b>);

impl Vec4<'_, '_, '_> {
    fn f(&mut self, v: Value) -> Value {
        if self.0.b.func.dfg.value_type(v) == F32X4 {
            v
        } else {
            self.0.fview(v)
        }
    }

    fn i(&mut self, v: Value) -> Value {
        if self.0.b.func.dfg.value_type(v) == I32X4 {
            v
        } else {
            self.0.iview(v)
        }
    }

    fn fcmp(&mut self, cc: FloatCC, a: Value, b: Value) -> Value {
        let (a, b) = (self.f(a), self.f(b));
        self.0.b.ins().fcmp(cc, a, b)
    }
}

impl Lanes for Vec4<'_, '_, '_> {
    type V = Value;
    fn k(&mut self, bits: u32) -> Value {
        self.0.splat_const(bits)
    }
    fn add(&mut self, a: Value, b: Value) -> Value {
        let (a, b) = (self.f(a), self.f(b));
        self.0.b.ins().fadd(a, b)
    }
    fn sub(&mut self, a: Value, b: Value) -> Value {
        let (a, b) = (self.f(a), self.f(b));
        self.0.b.ins().fsub(a, b)
    }
    fn mul(&mut self, a: Value, b: Value) -> Value {
        let (a, b) = (self.f(a), self.f(b));
        self.0.b.ins().fmul(a, b)
    }
    fn div(&mut self, a: Value, b: Value) -> Value {
        let (a, b) = (self.f(a), self.f(b));
        self.0.b.ins().fdiv(a, b)
    }
    fn sqrt(&mut self, a: Value) -> Value {
        let a = self.f(a);
        self.0.b.ins().sqrt(a)
    }
    fn lt(&mut self, a: Value, b: Value) -> Value {
        self.fcmp(FloatCC::LessThan, a, b)
    }
    fn eq(&mut self, a: Value, b: Value) -> Value {
        self.fcmp(FloatCC::Equal, a, b)
    }
    fn unord(&mut self, a: Value, b: Value) -> Value {
        self.fcmp(FloatCC::Unordered, a, b)
    }
    fn and(&mut self, a: Value, b: Value) -> Value {
        let (a, b) = (self.i(a), self.i(b));
        self.0.b.ins().band(a, b)
    }
    fn or(&mut self, a: Value, b: Value) -> Value {
        let (a, b) = (self.i(a), self.i(b));
        self.0.b.ins().bor(a, b)
    }
    fn xor(&mut self, a: Value, b: Value) -> Value {
        let (a, b) = (self.i(a), self.i(b));
        self.0.b.ins().bxor(a, b)
    }
    fn iadd(&mut self, a: Value, b: Value) -> Value {
        let (a, b) = (self.i(a), self.i(b));
        self.0.b.ins().iadd(a, b)
    }
    fn isub(&mut self, a: Value, b: Value) -> Value {
        let (a, b) = (self.i(a), self.i(b));
        self.0.b.ins().isub(a, b)
    }
    fn shl(&mut self, a: Value, n: u32) -> Value {
        let a = self.i(a);
        self.0.b.ins().ishl_imm_u(a, i64::from(n))
    }
    fn sshr(&mut self, a: Value, n: u32) -> Value {
        let a = self.i(a);
        self.0.b.ins().sshr_imm_u(a, i64::from(n))
    }
    fn itof(&mut self, a: Value) -> Value {
        let a = self.i(a);
        self.0.b.ins().fcvt_from_sint(F32X4, a)
    }
    fn sel(&mut self, m: Value, a: Value, b: Value) -> Value {
        let (m, a, b) = (self.i(m), self.i(a), self.i(b));
        self.0.b.ins().bitselect(m, a, b)
    }
}

/// Whether the host ISA has SSE4.1 (`roundps`), as `cranelift_native` detected it.
fn host_has_sse41() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        super::code::host_isa().is_ok_and(|isa| {
            isa.isa_flags()
                .iter()
                .any(|f| f.name == "has_sse41" && f.as_bool() == Some(true))
        })
    })
}

#[cfg(test)]
thread_local! {
    /// Tests set this to emit the rounding sequences even where SSE4.1 is present.
    pub(crate) static FORCE_ROUND_SEQUENCE: std::cell::Cell<bool> =
        const { std::cell::Cell::new(false) };
}

/// Whether floor & co. are one `roundps`.
fn use_roundps() -> bool {
    #[cfg(test)]
    if FORCE_ROUND_SEQUENCE.with(|f| f.get()) {
        return false;
    }
    host_has_sse41()
}

impl Emitter<'_, '_> {
    /// The inline sequence of a unary maths built-in on `x` (`i32x4` bits), or `None` when
    /// `op` is not one of them.
    pub(crate) fn emit_inline_math1(&mut self, op: UnaryOp, x: Value) -> Option<Value> {
        use UnaryOp as U;
        let hw = use_roundps();
        let r = match op {
            U::Floor if hw => self.round_hw(x, |e, f| e.b.ins().floor(f)),
            U::Ceil if hw => self.round_hw(x, |e, f| e.b.ins().ceil(f)),
            U::Trunc if hw => self.round_hw(x, |e, f| e.b.ins().trunc(f)),
            U::RoundEven if hw => self.round_hw(x, |e, f| e.b.ins().nearest(f)),
            U::Fract => {
                let fl = self.emit_floor(x);
                let o = &mut Vec4(self);
                o.sub(x, fl)
            }
            _ => {
                let o = &mut Vec4(self);
                match op {
                    U::Floor => lanes::floor_g(o, x),
                    U::Ceil => lanes::ceil_g(o, x),
                    U::Trunc => lanes::trunc_g(o, x),
                    U::RoundEven => lanes::round_even_g(o, x),
                    U::Sin => lanes::sin_g(o, x),
                    U::Cos => lanes::cos_g(o, x),
                    U::Tan => lanes::tan_g(o, x),
                    U::Asin => lanes::asin_g(o, x),
                    U::Acos => lanes::acos_g(o, x),
                    U::Atan => lanes::atan_g(o, x),
                    U::Sinh => lanes::sinh_g(o, x),
                    U::Cosh => lanes::cosh_g(o, x),
                    U::Tanh => lanes::tanh_g(o, x),
                    U::Asinh => lanes::asinh_g(o, x),
                    U::Acosh => lanes::acosh_g(o, x),
                    U::Atanh => lanes::atanh_g(o, x),
                    U::Exp => lanes::exp_g(o, x),
                    U::Exp2 => lanes::exp2_g(o, x),
                    U::Log => lanes::log_g(o, x),
                    U::Log2 => lanes::log2_g(o, x),
                    _ => return None,
                }
            }
        };
        Some(self.as_i(r))
    }

    /// pow(x, y) (`math::lanes::pow_g`).
    pub(crate) fn emit_pow(&mut self, x: Value, y: Value) -> Value {
        let r = lanes::pow_g(&mut Vec4(self), x, y);
        self.as_i(r)
    }

    /// atan(y, x) (`math::lanes::atan2_g`, operands in IR order (y, x)).
    pub(crate) fn emit_atan2(&mut self, y: Value, x: Value) -> Value {
        let r = lanes::atan2_g(&mut Vec4(self), y, x);
        self.as_i(r)
    }

    /// mod(x, y) = x - y * floor(x / y), each step rounded (GLSL 4.60 §8.3).
    pub(crate) fn emit_fmod(&mut self, x: Value, y: Value) -> Value {
        let q = Vec4(self).div(x, y);
        let fl = self.emit_floor(q);
        let o = &mut Vec4(self);
        let p = o.mul(y, fl);
        let r = o.sub(x, p);
        self.as_i(r)
    }

    /// floor(x) as `i32x4` bits.
    fn emit_floor(&mut self, x: Value) -> Value {
        if use_roundps() {
            self.round_hw(x, |e, f| e.b.ins().floor(f))
        } else {
            let r = lanes::floor_g(&mut Vec4(self), x);
            self.as_i(r)
        }
    }

    fn round_hw(&mut self, x: Value, f: impl FnOnce(&mut Self, Value) -> Value) -> Value {
        let fx = Vec4(self).f(x);
        let r = f(self, fx);
        self.iview(r)
    }

    fn as_i(&mut self, v: Value) -> Value {
        Vec4(self).i(v)
    }
}
