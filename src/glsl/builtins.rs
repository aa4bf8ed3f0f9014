//! Built-in functions (GLSL 4.60 §8): type checks and lowering to IR ops, componentwise.
//! Functions without an IR op are composed here (length, normalize, smoothstep, refract,
//! determinant, inverse, packing, ...), always as plain IEEE operations in a fixed order and
//! without FMA, so results are the same on every CPU (DESIGN.md §3).

use crate::ir::{BaseType, BinaryOp, Lod, Op, Scalar, ScalarKind, Stage, Stmt, UnaryOp, Var};

use super::ast::Expr;
use super::diag::Span;
use super::limits::{GATHER_OFFSETS, TEXEL_OFFSETS};
use super::lower::{bail, Lowerer, Value, R};
use super::place::Place;
use super::types::{base_kind, vt, Type};

const F: ScalarKind = ScalarKind::F32;
const B: ScalarKind = ScalarKind::Bool;

impl Lowerer {
    fn fconst(&mut self, x: f32) -> Var {
        self.konst(Scalar::F32(x))
    }
    fn fbin(&mut self, op: BinaryOp, a: Var, b: Var) -> Var {
        self.assign(F, Op::Binary(op, a, b))
    }
    fn fun(&mut self, op: UnaryOp, a: Var) -> Var {
        self.assign(F, Op::Unary(op, a))
    }
    fn map1(&mut self, v: &Value, k: ScalarKind, op: UnaryOp) -> Vec<Var> {
        v.vars
            .iter()
            .map(|x| self.assign(k, Op::Unary(op, *x)))
            .collect()
    }
    /// Componentwise with scalar broadcast.
    fn map_n(&mut self, vs: &[&Value], k: ScalarKind, f: impl Fn(&[Var]) -> Op) -> Vec<Var> {
        let n = vs.iter().map(|v| v.vars.len()).max().unwrap_or(0);
        (0..n)
            .map(|i| {
                let xs: Vec<Var> = vs
                    .iter()
                    .map(|v| v.vars[if v.vars.len() == 1 { 0 } else { i }])
                    .collect();
                let op = f(&xs);
                self.assign(k, op)
            })
            .collect()
    }
    fn dot_vars(&mut self, a: &[Var], b: &[Var]) -> Var {
        let mut acc: Option<Var> = None;
        for (x, y) in a.iter().zip(b) {
            let m = self.fbin(BinaryOp::FMul, *x, *y);
            acc = Some(match acc {
                Some(p) => self.fbin(BinaryOp::FAdd, p, m),
                None => m,
            });
        }
        acc.unwrap_or_else(|| self.fconst(0.0))
    }

    fn count(&mut self, name: &str, vals: &[Value], n: usize, span: Span) -> R<()> {
        if vals.len() != n {
            bail!(
                self,
                span,
                "no matching function for call to `{name}' with {} arguments",
                vals.len()
            );
        }
        Ok(())
    }

    /// Checks a genType-style call: every argument is a float scalar or vector (ints convert
    /// implicitly), all the same size except arguments marked in `scalar_ok`.
    fn gen_f(
        &mut self,
        name: &str,
        vals: Vec<Value>,
        n: usize,
        scalar_ok: u8,
        span: Span,
    ) -> R<(Vec<Value>, Type)> {
        self.count(name, &vals, n, span)?;
        let mut out = Vec::with_capacity(n);
        for v in vals {
            let v = match v.ty.basic() {
                Some(b) if b.cols == 1 && matches!(b.base, BaseType::Int | BaseType::Uint) => {
                    let t = Type::vector(BaseType::Float, b.rows);
                    self.coerce(v, &t, span)?
                }
                _ => v,
            };
            match v.ty.basic() {
                Some(b) if b.cols == 1 && b.base == BaseType::Float => {}
                _ => bail!(
                    self,
                    span,
                    "no matching function for call to `{name}' with {}",
                    v.ty
                ),
            }
            out.push(v);
        }
        let ty = self.common_shape(name, &out, scalar_ok, span)?;
        Ok((out, ty))
    }

    /// Like `gen_f` for any numeric base; ints and uints stay as they are.
    fn gen_any(
        &mut self,
        name: &str,
        vals: Vec<Value>,
        n: usize,
        scalar_ok: u8,
        span: Span,
    ) -> R<(Vec<Value>, Type)> {
        self.count(name, &vals, n, span)?;
        let base = vals[0].ty.base();
        if vals.iter().any(|v| v.ty.base() != base || v.ty.is_matrix()) {
            // Mixed bases: fall back to float rules (ints convert implicitly).
            return self.gen_f(name, vals, n, scalar_ok, span);
        }
        if !matches!(base, Some(BaseType::Float | BaseType::Int | BaseType::Uint)) {
            bail!(
                self,
                span,
                "no matching function for call to `{name}' with {}",
                vals[0].ty
            );
        }
        let ty = self.common_shape(name, &vals, scalar_ok, span)?;
        Ok((vals, ty))
    }

    fn common_shape(&mut self, name: &str, vals: &[Value], scalar_ok: u8, span: Span) -> R<Type> {
        let mut ty: Option<Type> = None;
        for (i, v) in vals.iter().enumerate() {
            if v.ty.is_scalar() && scalar_ok & (1 << i) != 0 {
                continue;
            }
            match &ty {
                None => ty = Some(v.ty.clone()),
                Some(t) if *t == v.ty => {}
                Some(t) => {
                    let t = t.clone();
                    bail!(
                        self,
                        span,
                        "no matching function for call to `{name}' with {t} and {}",
                        v.ty
                    )
                }
            }
        }
        Ok(ty.unwrap_or_else(|| vals[0].ty.clone()))
    }

    fn fragment_only(&mut self, name: &str, span: Span) -> R<()> {
        if self.stage != Stage::Fragment {
            bail!(self, span, "`{name}' is only available in fragment shaders");
        }
        Ok(())
    }

    /// Lowers a built-in function call; `Ok(None)` when `name` is not a built-in.
    pub fn builtin_call(
        &mut self,
        name: &str,
        places: &[Place],
        args: &[Expr],
        span: Span,
    ) -> R<Option<Value>> {
        if matches!(name, "frexp" | "ldexp" | "modf") {
            if let Some(v) = self.double_exp_builtin(name, places, args, span) {
                return v.map(Some);
            }
        }
        // Built-ins with out parameters.
        if matches!(
            name,
            "uaddCarry" | "usubBorrow" | "umulExtended" | "imulExtended" | "modf"
        ) {
            return self.builtin_out(name, places, args, span).map(Some);
        }
        let vals = self.read_args(places, args)?;
        let f_unary = |n: &str| -> Option<UnaryOp> {
            Some(match n {
                "sin" => UnaryOp::Sin,
                "cos" => UnaryOp::Cos,
                "tan" => UnaryOp::Tan,
                "asin" => UnaryOp::Asin,
                "acos" => UnaryOp::Acos,
                "sinh" => UnaryOp::Sinh,
                "cosh" => UnaryOp::Cosh,
                "tanh" => UnaryOp::Tanh,
                "asinh" => UnaryOp::Asinh,
                "acosh" => UnaryOp::Acosh,
                "atanh" => UnaryOp::Atanh,
                "exp" => UnaryOp::Exp,
                "log" => UnaryOp::Log,
                "exp2" => UnaryOp::Exp2,
                "log2" => UnaryOp::Log2,
                "sqrt" => UnaryOp::Sqrt,
                "inversesqrt" => UnaryOp::InverseSqrt,
                "floor" => UnaryOp::Floor,
                "trunc" => UnaryOp::Trunc,
                "round" | "roundEven" => UnaryOp::RoundEven,
                "ceil" => UnaryOp::Ceil,
                "fract" => UnaryOp::Fract,
                _ => return None,
            })
        };
        if let Some(op) = f_unary(name) {
            if self.version < 130
                && matches!(
                    name,
                    "sinh"
                        | "cosh"
                        | "tanh"
                        | "asinh"
                        | "acosh"
                        | "atanh"
                        | "trunc"
                        | "round"
                        | "roundEven"
                )
            {
                return Ok(None);
            }
            let (v, ty) = self.gen_f(name, vals, 1, 0, span)?;
            let vars = self.map1(&v[0], F, op);
            return Ok(Some(Value { ty, vars }));
        }
        if let Some((modern, sampler)) = legacy_texture(name) {
            if !self.deprecated_builtins_allowed() {
                return Ok(None);
            }
            return self
                .legacy_texture_call(name, modern, sampler, vals, args, span)
                .map(Some);
        }
        let v = match name {
            "radians" | "degrees" => {
                let (v, ty) = self.gen_f(name, vals, 1, 0, span)?;
                // GLSL 4.60 §8.1: π/180 and 180/π as f32 constants.
                let k = self.fconst(if name == "radians" {
                    0.017_453_292
                } else {
                    57.295_78
                });
                let vars = v[0]
                    .vars
                    .iter()
                    .map(|x| self.fbin(BinaryOp::FMul, *x, k))
                    .collect();
                Value { ty, vars }
            }
            "atan" => {
                if vals.len() == 1 {
                    let (v, ty) = self.gen_f(name, vals, 1, 0, span)?;
                    let vars = self.map1(&v[0], F, UnaryOp::Atan);
                    Value { ty, vars }
                } else {
                    let (v, ty) = self.gen_f(name, vals, 2, 0, span)?;
                    let vars = self.map_n(&[&v[0], &v[1]], F, |x| {
                        Op::Binary(BinaryOp::Atan2, x[0], x[1])
                    });
                    Value { ty, vars }
                }
            }
            "pow" => {
                let (v, ty) = self.gen_f(name, vals, 2, 0, span)?;
                let vars = self.map_n(&[&v[0], &v[1]], F, |x| {
                    Op::Binary(BinaryOp::Pow, x[0], x[1])
                });
                Value { ty, vars }
            }
            "abs" | "sign" => {
                let (v, ty) = self.gen_any(name, vals, 1, 0, span)?;
                let (op, k) = match (name, ty.base()) {
                    ("abs", Some(BaseType::Float)) => (UnaryOp::FAbs, F),
                    ("sign", Some(BaseType::Float)) => (UnaryOp::FSign, F),
                    ("abs", Some(BaseType::Int)) => (UnaryOp::IAbs, ScalarKind::I32),
                    ("sign", Some(BaseType::Int)) => (UnaryOp::ISign, ScalarKind::I32),
                    _ => bail!(
                        self,
                        span,
                        "no matching function for call to `{name}' with {ty}"
                    ),
                };
                let vars = self.map1(&v[0], k, op);
                Value { ty, vars }
            }
            "mod" => {
                let (v, ty) = self.gen_f(name, vals, 2, 0b10, span)?;
                let vars = self.map_n(&[&v[0], &v[1]], F, |x| {
                    Op::Binary(BinaryOp::FMod, x[0], x[1])
                });
                Value { ty, vars }
            }
            "min" | "max" => {
                let (v, ty) = self.gen_any(name, vals, 2, 0b10, span)?;
                let base = ty.base().unwrap_or(BaseType::Float);
                let op = match (name, base) {
                    ("min", BaseType::Float) => BinaryOp::FMin,
                    ("max", BaseType::Float) => BinaryOp::FMax,
                    ("min", BaseType::Int) => BinaryOp::SMin,
                    ("max", BaseType::Int) => BinaryOp::SMax,
                    ("min", _) => BinaryOp::UMin,
                    _ => BinaryOp::UMax,
                };
                let vars = self.map_n(&[&v[0], &v[1]], base_kind(base), |x| {
                    Op::Binary(op, x[0], x[1])
                });
                Value { ty, vars }
            }
            "clamp" => {
                let (v, ty) = self.gen_any(name, vals, 3, 0b110, span)?;
                let base = ty.base().unwrap_or(BaseType::Float);
                let k = base_kind(base);
                let vars = if base == BaseType::Float {
                    self.map_n(&[&v[0], &v[1], &v[2]], F, |x| Op::FClamp(x[0], x[1], x[2]))
                } else {
                    let (mx, mn) = if base == BaseType::Int {
                        (BinaryOp::SMax, BinaryOp::SMin)
                    } else {
                        (BinaryOp::UMax, BinaryOp::UMin)
                    };
                    let lo = self.map_n(&[&v[0], &v[1]], k, |x| Op::Binary(mx, x[0], x[1]));
                    let lo = Value {
                        ty: ty.clone(),
                        vars: lo,
                    };
                    self.map_n(&[&lo, &v[2]], k, |x| Op::Binary(mn, x[0], x[1]))
                };
                Value { ty, vars }
            }
            "mix" => {
                self.count(name, &vals, 3, span)?;
                if vals[2].ty.base() == Some(BaseType::Bool) {
                    // mix(x, y, bvec): y where a is true (GLSL 4.60 §8.3).
                    if vals[0].ty != vals[1].ty
                        || vals[0].ty.basic().map(|b| (b.rows, b.cols))
                            != vals[2].ty.basic().map(|b| (b.rows, b.cols))
                    {
                        bail!(
                            self,
                            span,
                            "no matching function for call to `mix' with {}, {}, {}",
                            vals[0].ty,
                            vals[1].ty,
                            vals[2].ty
                        );
                    }
                    let k = base_kind(vals[0].ty.base().unwrap_or(BaseType::Float));
                    let vars = self.map_n(&[&vals[0], &vals[1], &vals[2]], k, |x| Op::Select {
                        cond: x[2],
                        a: x[1],
                        b: x[0],
                    });
                    Value {
                        ty: vals[0].ty.clone(),
                        vars,
                    }
                } else {
                    let (v, ty) = self.gen_f(name, vals, 3, 0b100, span)?;
                    let vars =
                        self.map_n(&[&v[0], &v[1], &v[2]], F, |x| Op::FMix(x[0], x[1], x[2]));
                    Value { ty, vars }
                }
            }
            "step" => {
                let (v, ty) = self.gen_f(name, vals, 2, 0b01, span)?;
                let vars = self.map_n(&[&v[0], &v[1]], F, |x| {
                    Op::Binary(BinaryOp::Step, x[0], x[1])
                });
                Value { ty, vars }
            }
            "smoothstep" => {
                let (v, ty) = self.gen_f(name, vals, 3, 0b011, span)?;
                // t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 * t)
                let (zero, one, two, three) = (
                    self.fconst(0.0),
                    self.fconst(1.0),
                    self.fconst(2.0),
                    self.fconst(3.0),
                );
                let n = ty.words() as usize;
                let mut vars = Vec::with_capacity(n);
                for i in 0..n {
                    let pick = |v: &Value| v.vars[if v.vars.len() == 1 { 0 } else { i }];
                    let (e0, e1, x) = (pick(&v[0]), pick(&v[1]), pick(&v[2]));
                    let num = self.fbin(BinaryOp::FSub, x, e0);
                    let den = self.fbin(BinaryOp::FSub, e1, e0);
                    let q = self.fbin(BinaryOp::FDiv, num, den);
                    let t = self.assign(F, Op::FClamp(q, zero, one));
                    let tt = self.fbin(BinaryOp::FMul, t, t);
                    let t2 = self.fbin(BinaryOp::FMul, two, t);
                    let s = self.fbin(BinaryOp::FSub, three, t2);
                    vars.push(self.fbin(BinaryOp::FMul, tt, s));
                }
                Value { ty, vars }
            }
            "isnan" | "isinf" => {
                let (v, ty) = self.gen_f(name, vals, 1, 0, span)?;
                let op = if name == "isnan" {
                    UnaryOp::IsNan
                } else {
                    UnaryOp::IsInf
                };
                let vars = self.map1(&v[0], B, op);
                let n = ty.basic().map(|b| b.rows).unwrap_or(1);
                Value {
                    ty: Type::vector(BaseType::Bool, n),
                    vars,
                }
            }
            "floatBitsToInt" | "floatBitsToUint" | "intBitsToFloat" | "uintBitsToFloat" => {
                // GLSL 3.30 §8.3; before it GL_ARB_shader_bit_encoding brings them.
                if self.version < 330 && !self.shader_bit_encoding {
                    bail!(
                        self,
                        span,
                        "{name}() needs GLSL 3.30 or GL_ARB_shader_bit_encoding"
                    );
                }
                self.count(name, &vals, 1, span)?;
                let (from, to, op) = match name {
                    "floatBitsToInt" => (BaseType::Float, BaseType::Int, UnaryOp::BitcastF2I),
                    "floatBitsToUint" => (BaseType::Float, BaseType::Uint, UnaryOp::BitcastF2U),
                    "intBitsToFloat" => (BaseType::Int, BaseType::Float, UnaryOp::BitcastI2F),
                    _ => (BaseType::Uint, BaseType::Float, UnaryOp::BitcastU2F),
                };
                let b = match vals[0].ty.basic() {
                    Some(b) if b.base == from && b.cols == 1 => b,
                    _ => bail!(
                        self,
                        span,
                        "no matching function for call to `{name}' with {}",
                        vals[0].ty
                    ),
                };
                let vars = self.map1(&vals[0], base_kind(to), op);
                Value {
                    ty: Type::vector(to, b.rows),
                    vars,
                }
            }
            "fma" => {
                let (v, ty) = self.gen_f(name, vals, 3, 0, span)?;
                let vars = self.map_n(&[&v[0], &v[1], &v[2]], F, |x| Op::Fma(x[0], x[1], x[2]));
                Value { ty, vars }
            }
            "length" => {
                let (v, _) = self.gen_f(name, vals, 1, 0, span)?;
                let d = self.dot_vars(&v[0].vars, &v[0].vars);
                let r = self.fun(UnaryOp::Sqrt, d);
                Value {
                    ty: Type::FLOAT,
                    vars: vec![r],
                }
            }
            "distance" => {
                let (v, _) = self.gen_f(name, vals, 2, 0, span)?;
                let diff: Vec<Var> = v[0]
                    .vars
                    .iter()
                    .zip(&v[1].vars)
                    .map(|(a, b)| self.fbin(BinaryOp::FSub, *a, *b))
                    .collect();
                let d = self.dot_vars(&diff, &diff);
                let r = self.fun(UnaryOp::Sqrt, d);
                Value {
                    ty: Type::FLOAT,
                    vars: vec![r],
                }
            }
            "dot" => {
                let (v, _) = self.gen_f(name, vals, 2, 0, span)?;
                let r = self.dot_vars(&v[0].vars, &v[1].vars);
                Value {
                    ty: Type::FLOAT,
                    vars: vec![r],
                }
            }
            "cross" => {
                let (v, ty) = self.gen_f(name, vals, 2, 0, span)?;
                if ty != Type::vector(BaseType::Float, 3) {
                    bail!(self, span, "cross() needs two vec3 arguments");
                }
                let (a, b) = (&v[0].vars, &v[1].vars);
                let mut vars = Vec::new();
                for (i, j) in [(1, 2), (2, 0), (0, 1)] {
                    let p = self.fbin(BinaryOp::FMul, a[i], b[j]);
                    let q = self.fbin(BinaryOp::FMul, b[i], a[j]);
                    vars.push(self.fbin(BinaryOp::FSub, p, q));
                }
                Value { ty, vars }
            }
            "normalize" => {
                let (v, ty) = self.gen_f(name, vals, 1, 0, span)?;
                let d = self.dot_vars(&v[0].vars, &v[0].vars);
                let r = self.fun(UnaryOp::InverseSqrt, d);
                let vars = v[0]
                    .vars
                    .iter()
                    .map(|x| self.fbin(BinaryOp::FMul, *x, r))
                    .collect();
                Value { ty, vars }
            }
            "faceforward" => {
                let (v, ty) = self.gen_f(name, vals, 3, 0, span)?;
                let d = self.dot_vars(&v[2].vars, &v[1].vars);
                let zero = self.fconst(0.0);
                let c = self.assign(B, Op::Binary(BinaryOp::FLt, d, zero));
                let vars = v[0]
                    .vars
                    .iter()
                    .map(|n| {
                        let neg = self.fun(UnaryOp::FNeg, *n);
                        self.assign(
                            F,
                            Op::Select {
                                cond: c,
                                a: *n,
                                b: neg,
                            },
                        )
                    })
                    .collect();
                Value { ty, vars }
            }
            "reflect" => {
                let (v, ty) = self.gen_f(name, vals, 2, 0, span)?;
                // I - 2 * dot(N, I) * N
                let d = self.dot_vars(&v[1].vars, &v[0].vars);
                let two = self.fconst(2.0);
                let d2 = self.fbin(BinaryOp::FMul, two, d);
                let vars = v[0]
                    .vars
                    .iter()
                    .zip(&v[1].vars)
                    .map(|(i, n)| {
                        let t = self.fbin(BinaryOp::FMul, d2, *n);
                        self.fbin(BinaryOp::FSub, *i, t)
                    })
                    .collect();
                Value { ty, vars }
            }
            "refract" => {
                let (v, ty) = self.gen_f(name, vals, 3, 0b100, span)?;
                if !v[2].ty.is_scalar() {
                    bail!(self, span, "refract() takes a float eta");
                }
                let eta = v[2].vars[0];
                // k = 1 - eta² (1 - dot(N,I)²); k < 0 ? 0 : eta I - (eta dot(N,I) + sqrt(k)) N
                let d = self.dot_vars(&v[1].vars, &v[0].vars);
                let one = self.fconst(1.0);
                let zero = self.fconst(0.0);
                let dd = self.fbin(BinaryOp::FMul, d, d);
                let omd = self.fbin(BinaryOp::FSub, one, dd);
                let e2 = self.fbin(BinaryOp::FMul, eta, eta);
                let t = self.fbin(BinaryOp::FMul, e2, omd);
                let k = self.fbin(BinaryOp::FSub, one, t);
                let neg = self.assign(B, Op::Binary(BinaryOp::FLt, k, zero));
                let sk = self.fun(UnaryOp::Sqrt, k);
                let ed = self.fbin(BinaryOp::FMul, eta, d);
                let f = self.fbin(BinaryOp::FAdd, ed, sk);
                let vars = v[0]
                    .vars
                    .iter()
                    .zip(&v[1].vars)
                    .map(|(i, n)| {
                        let a = self.fbin(BinaryOp::FMul, eta, *i);
                        let b = self.fbin(BinaryOp::FMul, f, *n);
                        let r = self.fbin(BinaryOp::FSub, a, b);
                        self.assign(
                            F,
                            Op::Select {
                                cond: neg,
                                a: zero,
                                b: r,
                            },
                        )
                    })
                    .collect();
                Value { ty, vars }
            }
            "matrixCompMult" => {
                self.count(name, &vals, 2, span)?;
                if !vals[0].ty.is_matrix()
                    || vals[0].ty != vals[1].ty
                    || vals[0].ty.base() != Some(BaseType::Float)
                {
                    bail!(
                        self,
                        span,
                        "matrixCompMult() needs two matrices of the same type"
                    );
                }
                let vars = self.map_n(&[&vals[0], &vals[1]], F, |x| {
                    Op::Binary(BinaryOp::FMul, x[0], x[1])
                });
                Value {
                    ty: vals[0].ty.clone(),
                    vars,
                }
            }
            "outerProduct" => {
                // GLSL 4.60 §8.6: the two vectors may differ in size (c rows, r columns:
                // a matCxR), so each is checked alone, not against a common shape.
                self.count(name, &vals, 2, span)?;
                let mut v = Vec::with_capacity(2);
                for x in vals {
                    v.extend(self.gen_f(name, vec![x], 1, 0, span)?.0);
                }
                let (c, r) = (&v[0].vars, &v[1].vars);
                if c.len() < 2 || r.len() < 2 {
                    bail!(self, span, "outerProduct() needs two vectors");
                }
                let mut vars = Vec::new();
                for rj in r {
                    for ci in c {
                        vars.push(self.fbin(BinaryOp::FMul, *ci, *rj));
                    }
                }
                Value {
                    ty: Type::Basic(vt(BaseType::Float, c.len() as u8, r.len() as u8)),
                    vars,
                }
            }
            "transpose" => {
                self.count(name, &vals, 1, span)?;
                let Some(m) = vals[0]
                    .ty
                    .basic()
                    .filter(|b| b.cols > 1 && b.base == BaseType::Float)
                else {
                    bail!(self, span, "transpose() needs a matrix");
                };
                let mut vars = Vec::new();
                for c in 0..m.rows {
                    for r in 0..m.cols {
                        vars.push(vals[0].vars[(r * m.rows + c) as usize]);
                    }
                }
                Value {
                    ty: Type::Basic(vt(BaseType::Float, m.cols, m.rows)),
                    vars,
                }
            }
            "determinant" | "inverse" => {
                self.count(name, &vals, 1, span)?;
                let Some(m) = vals[0]
                    .ty
                    .basic()
                    .filter(|b| b.cols > 1 && b.cols == b.rows && b.base == BaseType::Float)
                else {
                    bail!(self, span, "{name}() needs a square matrix");
                };
                let n = m.cols as usize;
                // rows[r][c] for readability of the cofactor expansion.
                let at: Vec<Vec<Var>> = (0..n)
                    .map(|r| (0..n).map(|c| vals[0].vars[c * n + r]).collect())
                    .collect();
                let det = self.det(&at);
                if name == "determinant" {
                    Value {
                        ty: Type::FLOAT,
                        vars: vec![det],
                    }
                } else {
                    // inverse = adjugate / det: inv[c][r] (column c, row r) = cof(c, r) / det
                    let mut vars = Vec::with_capacity(n * n);
                    for c in 0..n {
                        for r in 0..n {
                            // element (row r, col c) of the inverse = cofactor(row c, col r)
                            let minor: Vec<Vec<Var>> = (0..n)
                                .filter(|&i| i != c)
                                .map(|i| (0..n).filter(|&j| j != r).map(|j| at[i][j]).collect())
                                .collect();
                            let md = self.det(&minor);
                            let md = if (r + c) % 2 == 1 {
                                self.fun(UnaryOp::FNeg, md)
                            } else {
                                md
                            };
                            vars.push(self.fbin(BinaryOp::FDiv, md, det));
                        }
                    }
                    Value {
                        ty: vals[0].ty.clone(),
                        vars,
                    }
                }
            }
            "lessThan" | "lessThanEqual" | "greaterThan" | "greaterThanEqual" | "equal"
            | "notEqual" => {
                self.count(name, &vals, 2, span)?;
                let ok = vals[0].ty == vals[1].ty && vals[0].ty.is_vector();
                let base = vals[0].ty.base().unwrap_or(BaseType::Float);
                let eq = matches!(name, "equal" | "notEqual");
                if !ok
                    || (!eq && base == BaseType::Bool)
                    || base == BaseType::Uint64
                    || base.is_sampler()
                {
                    bail!(
                        self,
                        span,
                        "no matching function for call to `{name}' with {} and {}",
                        vals[0].ty,
                        vals[1].ty
                    );
                }
                use super::ast::BinOp as A;
                let op = match (name, base) {
                    ("equal", BaseType::Float) => BinaryOp::FEq,
                    ("notEqual", BaseType::Float) => BinaryOp::FNe,
                    ("equal", BaseType::Bool) => BinaryOp::LogicalEq,
                    ("notEqual", BaseType::Bool) => BinaryOp::LogicalXor,
                    ("equal", _) => BinaryOp::IEq,
                    ("notEqual", _) => BinaryOp::INe,
                    ("lessThan", b) => super::expr::cmp_op(A::Lt, b),
                    ("lessThanEqual", b) => super::expr::cmp_op(A::Le, b),
                    ("greaterThan", b) => super::expr::cmp_op(A::Gt, b),
                    (_, b) => super::expr::cmp_op(A::Ge, b),
                };
                let vars = self.map_n(&[&vals[0], &vals[1]], B, |x| Op::Binary(op, x[0], x[1]));
                Value {
                    ty: Type::vector(BaseType::Bool, vars.len() as u8),
                    vars,
                }
            }
            "any" | "all" | "not" => {
                self.count(name, &vals, 1, span)?;
                if !(vals[0].ty.is_vector() && vals[0].ty.base() == Some(BaseType::Bool)) {
                    bail!(
                        self,
                        span,
                        "no matching function for call to `{name}' with {}",
                        vals[0].ty
                    );
                }
                if name == "not" {
                    let vars = self.map1(&vals[0], B, UnaryOp::LogicalNot);
                    Value {
                        ty: vals[0].ty.clone(),
                        vars,
                    }
                } else {
                    let op = if name == "any" {
                        BinaryOp::LogicalOr
                    } else {
                        BinaryOp::LogicalAnd
                    };
                    let mut acc = vals[0].vars[0];
                    for x in &vals[0].vars[1..] {
                        acc = self.assign(B, Op::Binary(op, acc, *x));
                    }
                    Value {
                        ty: Type::BOOL,
                        vars: vec![acc],
                    }
                }
            }
            "dFdx" | "dFdy" | "dFdxFine" | "dFdyFine" | "dFdxCoarse" | "dFdyCoarse" | "fwidth"
            | "fwidthFine" | "fwidthCoarse" => {
                self.fragment_only(name, span)?;
                let (v, ty) = self.gen_f(name, vals, 1, 0, span)?;
                let coarse = name.ends_with("Coarse");
                let (dx, dy) = if coarse {
                    (UnaryOp::DFdxCoarse, UnaryOp::DFdyCoarse)
                } else {
                    (UnaryOp::DFdxFine, UnaryOp::DFdyFine)
                };
                let vars = if name.starts_with("dFdx") {
                    self.map1(&v[0], F, dx)
                } else if name.starts_with("dFdy") {
                    self.map1(&v[0], F, dy)
                } else {
                    v[0].vars
                        .iter()
                        .map(|x| {
                            let a = self.fun(dx, *x);
                            let b = self.fun(dy, *x);
                            let a = self.fun(UnaryOp::FAbs, a);
                            let b = self.fun(UnaryOp::FAbs, b);
                            self.fbin(BinaryOp::FAdd, a, b)
                        })
                        .collect()
                };
                Value { ty, vars }
            }
            "bitfieldExtract" | "bitfieldInsert" | "bitfieldReverse" | "bitCount" | "findLSB"
            | "findMSB" => {
                if self.version < 400 {
                    return Ok(None);
                }
                let n = match name {
                    "bitfieldExtract" => 3,
                    "bitfieldInsert" => 4,
                    _ => 1,
                };
                self.count(name, &vals, n, span)?;
                let base = match vals[0].ty.basic() {
                    Some(b) if b.cols == 1 && matches!(b.base, BaseType::Int | BaseType::Uint) => b,
                    _ => bail!(
                        self,
                        span,
                        "no matching function for call to `{name}' with {}",
                        vals[0].ty
                    ),
                };
                let k = base_kind(base.base);
                let ity = Type::vector(BaseType::Int, base.rows);
                match name {
                    "bitfieldExtract" => {
                        let (o, b) = (
                            self.int_scalar(&vals[1], span)?,
                            self.int_scalar(&vals[2], span)?,
                        );
                        let vars = vals[0]
                            .vars
                            .iter()
                            .map(|x| {
                                self.assign(
                                    k,
                                    Op::BitfieldExtract {
                                        value: *x,
                                        offset: o,
                                        bits: b,
                                    },
                                )
                            })
                            .collect();
                        Value {
                            ty: vals[0].ty.clone(),
                            vars,
                        }
                    }
                    "bitfieldInsert" => {
                        if vals[1].ty != vals[0].ty {
                            bail!(
                                self,
                                span,
                                "bitfieldInsert() base and insert must have the same type"
                            );
                        }
                        let (o, b) = (
                            self.int_scalar(&vals[2], span)?,
                            self.int_scalar(&vals[3], span)?,
                        );
                        let vars = vals[0]
                            .vars
                            .iter()
                            .zip(&vals[1].vars)
                            .map(|(x, y)| {
                                self.assign(
                                    k,
                                    Op::BitfieldInsert {
                                        base: *x,
                                        insert: *y,
                                        offset: o,
                                        bits: b,
                                    },
                                )
                            })
                            .collect();
                        Value {
                            ty: vals[0].ty.clone(),
                            vars,
                        }
                    }
                    "bitfieldReverse" => {
                        let vars = self.map1(&vals[0], k, UnaryOp::BitReverse);
                        Value {
                            ty: vals[0].ty.clone(),
                            vars,
                        }
                    }
                    _ => {
                        let op = match (name, base.base) {
                            ("bitCount", _) => UnaryOp::BitCount,
                            ("findLSB", _) => UnaryOp::FindLsb,
                            (_, BaseType::Int) => UnaryOp::FindMsbI,
                            _ => UnaryOp::FindMsbU,
                        };
                        let vars = self.map1(&vals[0], ScalarKind::I32, op);
                        Value { ty: ity, vars }
                    }
                }
            }
            "packUnorm4x8" | "packSnorm4x8" | "packUnorm2x16" | "packSnorm2x16" => {
                let n = if name.ends_with("4x8") { 4 } else { 2 };
                let (v, ty) = self.gen_f(name, vals, 1, 0, span)?;
                if ty != Type::vector(BaseType::Float, n) {
                    bail!(self, span, "{name}() needs a vec{n}");
                }
                let bits = 32 / n as u32;
                let snorm = name.contains("Snorm");
                let scale = ((1u32 << (bits - snorm as u32)) - 1) as f32;
                let lo = self.fconst(if snorm { -1.0 } else { 0.0 });
                let one = self.fconst(1.0);
                let sc = self.fconst(scale);
                let mask = self.konst(Scalar::U32((1u32 << bits) - 1));
                let mut acc = self.konst(Scalar::U32(0));
                for (i, x) in v[0].vars.iter().enumerate() {
                    let c = self.assign(F, Op::FClamp(*x, lo, one));
                    let m = self.fbin(BinaryOp::FMul, c, sc);
                    let r = self.fun(UnaryOp::RoundEven, m);
                    let u = if snorm {
                        let s = self.assign(ScalarKind::I32, Op::Unary(UnaryOp::F2I, r));
                        self.assign(ScalarKind::U32, Op::Unary(UnaryOp::I2U, s))
                    } else {
                        self.assign(ScalarKind::U32, Op::Unary(UnaryOp::F2U, r))
                    };
                    let u = self.assign(ScalarKind::U32, Op::Binary(BinaryOp::And, u, mask));
                    let sh = self.konst(Scalar::U32(bits * i as u32));
                    let u = self.assign(ScalarKind::U32, Op::Binary(BinaryOp::Shl, u, sh));
                    acc = self.assign(ScalarKind::U32, Op::Binary(BinaryOp::Or, acc, u));
                }
                Value {
                    ty: Type::UINT,
                    vars: vec![acc],
                }
            }
            "unpackUnorm4x8" | "unpackSnorm4x8" | "unpackUnorm2x16" | "unpackSnorm2x16" => {
                self.count(name, &vals, 1, span)?;
                if vals[0].ty != Type::UINT {
                    bail!(self, span, "{name}() needs a uint");
                }
                let p = vals[0].vars[0];
                let n: u32 = if name.ends_with("4x8") { 4 } else { 2 };
                let bits = 32 / n;
                let snorm = name.contains("Snorm");
                let scale = self.fconst(((1u32 << (bits - snorm as u32)) - 1) as f32);
                let mut vars = Vec::new();
                for i in 0..n {
                    let f = if snorm {
                        // Sign-extend field i: (p << (32 - bits*(i+1))) as int >> (32 - bits)
                        let l = self.konst(Scalar::U32(32 - bits * (i + 1)));
                        let t = self.assign(ScalarKind::U32, Op::Binary(BinaryOp::Shl, p, l));
                        let t = self.assign(ScalarKind::I32, Op::Unary(UnaryOp::U2I, t));
                        let r = self.konst(Scalar::U32(32 - bits));
                        let t = self.assign(ScalarKind::I32, Op::Binary(BinaryOp::ShrS, t, r));
                        let f = self.assign(F, Op::Unary(UnaryOp::I2F, t));
                        let q = self.fbin(BinaryOp::FDiv, f, scale);
                        let (lo, hi) = (self.fconst(-1.0), self.fconst(1.0));
                        self.assign(F, Op::FClamp(q, lo, hi))
                    } else {
                        let s = self.konst(Scalar::U32(bits * i));
                        let t = self.assign(ScalarKind::U32, Op::Binary(BinaryOp::ShrU, p, s));
                        let m = self.konst(Scalar::U32((1u32 << bits) - 1));
                        let t = self.assign(ScalarKind::U32, Op::Binary(BinaryOp::And, t, m));
                        let f = self.assign(F, Op::Unary(UnaryOp::U2F, t));
                        self.fbin(BinaryOp::FDiv, f, scale)
                    };
                    vars.push(f);
                }
                Value {
                    ty: Type::vector(BaseType::Float, n as u8),
                    vars,
                }
            }
            "packUint2x32" | "unpackUint2x32" => {
                if !self.int64 {
                    return Ok(None);
                }
                self.count(name, &vals, 1, span)?;
                let (from, to) = if name == "packUint2x32" {
                    (
                        Type::vector(BaseType::Uint, 2),
                        Type::scalar(BaseType::Uint64),
                    )
                } else {
                    (
                        Type::scalar(BaseType::Uint64),
                        Type::vector(BaseType::Uint, 2),
                    )
                };
                if vals[0].ty != from {
                    bail!(self, span, "{name}() needs a {from}");
                }
                Value {
                    ty: to,
                    vars: vals[0].vars.clone(),
                }
            }
            "texture"
            | "texture2D"
            | "textureLod"
            | "texture2DLod"
            | "textureOffset"
            | "textureLodOffset"
            | "textureGrad"
            | "textureGradOffset"
            | "texelFetch"
            | "textureSize"
            | "textureSamples"
            | "textureGather"
            | "textureGatherOffset"
            | "textureGatherOffsets"
            | "textureQueryLod"
            | "textureQueryLevels" => {
                return self.texture_call(name, vals, args, span).map(Some);
            }
            // GL_ARB_texture_query_lod's name for textureQueryLod (GLSL 4.00 renamed it).
            "textureQueryLOD" if self.texture_query_lod => {
                return self
                    .texture_call("textureQueryLod", vals, args, span)
                    .map(Some);
            }
            "textureProj"
            | "texture2DProj"
            | "textureProjLod"
            | "texture2DProjLod"
            | "textureProjOffset"
            | "textureProjLodOffset"
            | "textureProjGrad"
            | "textureProjGradOffset" => {
                // Projective lookups divide the coordinate by its last component
                // (GLSL 4.60 §8.9.2), then sample as the plain form does.
                let mut vals = vals;
                // sampler2DShadow's vec4 is (x, y, D_ref) / w and sampler3D's (s, t, r) / q:
                // both divide the first three components by the fourth.
                let first = vals.first().map(|v| &v.ty);
                let first_base = first.and_then(|t| t.base());
                if first_base.is_some_and(|b| b.is_1d_sampler() && !b.is_shadow_sampler()) {
                    // sampler1D: s / q of a vec2 (s, q) or vec4 (s, _, _, q).
                    let p = match vals.get(1) {
                        Some(v)
                            if v.ty == Type::vector(BaseType::Float, 2)
                                || v.ty == Type::vector(BaseType::Float, 4) =>
                        {
                            v.clone()
                        }
                        _ => bail!(self, span, "{name}() on a sampler1D needs a vec2 or vec4"),
                    };
                    let s = self.fbin(BinaryOp::FDiv, p.vars[0], p.vars[p.vars.len() - 1]);
                    vals[1] = Value {
                        ty: Type::FLOAT,
                        vars: vec![s],
                    };
                    let plain = name.replacen("Proj", "", 1);
                    return self.texture_call(&plain, vals, args, span).map(Some);
                }
                let kind = if first == Some(&Type::scalar(BaseType::Sampler2DShadow)) {
                    Some("sampler2DShadow")
                } else if first == Some(&Type::scalar(BaseType::Sampler2DRectShadow)) {
                    Some("sampler2DRectShadow")
                } else if first == Some(&Type::scalar(BaseType::Sampler1DShadow)) {
                    Some("sampler1DShadow")
                } else if first
                    .and_then(|t| t.base())
                    .is_some_and(|b| b.is_3d_sampler())
                    && !name.contains("Offset")
                {
                    Some("sampler3D")
                } else {
                    None
                };
                if let Some(kind) = kind {
                    let Some(p) = vals
                        .get(1)
                        .filter(|v| v.ty == Type::vector(BaseType::Float, 4))
                    else {
                        bail!(self, span, "{name}() on a {kind} needs a vec4 coordinate");
                    };
                    let q = p.vars[3];
                    let xyz: Vec<Var> = (0..3)
                        .map(|c| self.fbin(BinaryOp::FDiv, p.vars[c], q))
                        .collect();
                    vals[1] = Value {
                        ty: Type::vector(BaseType::Float, 3),
                        vars: xyz,
                    };
                    let plain = name.replacen("Proj", "", 1);
                    return self.texture_call(&plain, vals, args, span).map(Some);
                }
                // An ivec/uvec coordinate converts to the vec3/vec4 parameter implicitly
                // (GLSL 4.60 §4.1.10), as for the plain forms.
                let p = match vals.get(1) {
                    Some(v)
                        if v.ty == Type::vector(BaseType::Float, 3)
                            || v.ty == Type::vector(BaseType::Float, 4) =>
                    {
                        v.clone()
                    }
                    Some(v) if self.implicitly(&v.ty, &Type::vector(BaseType::Float, 3)) => {
                        self.coerce(v.clone(), &Type::vector(BaseType::Float, 3), span)?
                    }
                    Some(v) if self.implicitly(&v.ty, &Type::vector(BaseType::Float, 4)) => {
                        self.coerce(v.clone(), &Type::vector(BaseType::Float, 4), span)?
                    }
                    _ => bail!(self, span, "{name}() needs a vec3 or vec4 coordinate"),
                };
                let q = p.vars[p.vars.len() - 1];
                let x = self.fbin(BinaryOp::FDiv, p.vars[0], q);
                let y = self.fbin(BinaryOp::FDiv, p.vars[1], q);
                vals[1] = Value {
                    ty: Type::vector(BaseType::Float, 2),
                    vars: vec![x, y],
                };
                let plain = name.replacen("Proj", "", 1);
                return self.texture_call(&plain, vals, args, span).map(Some);
            }
            "texelFetchOffset" => {
                // 1D kinds take an int offset; rectangles have no lod argument (GLSL 4.60
                // §8.9.2).
                let base = vals.first().and_then(|v| v.ty.base());
                let one_d = base.is_some_and(|b| b.is_1d_sampler() || b.is_1d_array_sampler());
                let rect = base.is_some_and(|b| b.is_rect_sampler());
                let n_args = if rect { 3 } else { 4 };
                self.count(name, &vals, n_args, span)?;
                let ivec2 = Type::vector(BaseType::Int, 2);
                // A constant int (1D) or ivec2 in [-8, 7], as every offset form checks it.
                let dims = if one_d { 1 } else { 2 };
                let off = self.const_offset(name, &args[n_args - 1], dims)?;
                let mut vals = vals;
                let coord_ok = vals[1].ty == ivec2
                    || vals[1].ty == Type::vector(BaseType::Int, 3)
                    || (one_d && vals[1].ty == Type::INT);
                if !coord_ok {
                    bail!(self, span, "texelFetchOffset() needs an ivec2 coordinate");
                }
                // The offset moves x and y; an array's layer stays.
                let mut coord = vals[1].vars.clone();
                for (c, &o) in coord.iter_mut().zip(&off[..dims as usize]) {
                    let k = self.konst(Scalar::I32(o));
                    *c = self.assign(ScalarKind::I32, Op::Binary(BinaryOp::IAdd, *c, k));
                }
                vals[1].vars = coord;
                vals.truncate(n_args - 1);
                return self
                    .texture_call("texelFetch", vals, &args[..n_args - 1], span)
                    .map(Some);
            }
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    fn int_scalar(&mut self, v: &Value, span: Span) -> R<Var> {
        if v.ty != Type::INT {
            bail!(self, span, "expected an int argument, got {}", v.ty);
        }
        Ok(v.vars[0])
    }

    /// Determinant by cofactor expansion along the first row, in a fixed order.
    fn det(&mut self, m: &[Vec<Var>]) -> Var {
        let n = m.len();
        if n == 1 {
            return m[0][0];
        }
        if n == 2 {
            let a = self.fbin(BinaryOp::FMul, m[0][0], m[1][1]);
            let b = self.fbin(BinaryOp::FMul, m[0][1], m[1][0]);
            return self.fbin(BinaryOp::FSub, a, b);
        }
        let mut acc: Option<Var> = None;
        for c in 0..n {
            let minor: Vec<Vec<Var>> = (1..n)
                .map(|r| (0..n).filter(|&j| j != c).map(|j| m[r][j]).collect())
                .collect();
            let md = self.det(&minor);
            let t = self.fbin(BinaryOp::FMul, m[0][c], md);
            acc = Some(match acc {
                None => t,
                Some(a) if c % 2 == 1 => self.fbin(BinaryOp::FSub, a, t),
                Some(a) => self.fbin(BinaryOp::FAdd, a, t),
            });
        }
        acc.unwrap_or_else(|| self.fconst(0.0))
    }

    /// Built-ins with out parameters.
    fn builtin_out(&mut self, name: &str, places: &[Place], args: &[Expr], span: Span) -> R<Value> {
        let n = if matches!(name, "umulExtended" | "imulExtended") {
            4
        } else if name == "modf" {
            2
        } else {
            3
        };
        if places.len() != n {
            bail!(
                self,
                span,
                "no matching function for call to `{name}' with {} arguments",
                places.len()
            );
        }
        if self.version < 400 && name != "modf" {
            bail!(self, span, "no function with name `{name}'");
        }
        let nin = if name == "modf" { 1 } else { 2 };
        let ins = self.read_args(&places[..nin], &args[..nin])?;
        for (p, a) in places[nin..].iter().zip(&args[nin..]) {
            if !p.writable {
                bail!(
                    self,
                    a.span,
                    "argument for an out parameter of `{name}' is not a writable l-value"
                );
            }
        }
        let t = ins[0].ty.clone();
        let want_base = match name {
            "modf" => BaseType::Float,
            "imulExtended" => BaseType::Int,
            _ => BaseType::Uint,
        };
        let ok = t
            .basic()
            .is_some_and(|b| b.cols == 1 && b.base == want_base)
            && ins.iter().all(|v| v.ty == t)
            && places[nin..].iter().all(|p| p.ty == t);
        if !ok {
            bail!(
                self,
                span,
                "no matching function for call to `{name}' with {t}"
            );
        }
        let k = base_kind(want_base);
        let u = ScalarKind::U32;
        match name {
            "modf" => {
                let ip = self.map1(&ins[0], F, UnaryOp::Trunc);
                let fr: Vec<Var> = ins[0]
                    .vars
                    .iter()
                    .zip(&ip)
                    .map(|(x, i)| self.fbin(BinaryOp::FSub, *x, *i))
                    .collect();
                self.write(
                    &places[1],
                    &Value {
                        ty: t.clone(),
                        vars: ip,
                    },
                    span,
                )?;
                Ok(Value { ty: t, vars: fr })
            }
            "uaddCarry" | "usubBorrow" => {
                let (a, b) = (&ins[0].vars, &ins[1].vars);
                let one = self.konst(Scalar::U32(1));
                let zero = self.konst(Scalar::U32(0));
                let mut res = Vec::new();
                let mut carry = Vec::new();
                for (x, y) in a.iter().zip(b) {
                    if name == "uaddCarry" {
                        let s = self.assign(u, Op::Binary(BinaryOp::IAdd, *x, *y));
                        let c = self.assign(B, Op::Binary(BinaryOp::ULt, s, *x));
                        carry.push(self.assign(
                            u,
                            Op::Select {
                                cond: c,
                                a: one,
                                b: zero,
                            },
                        ));
                        res.push(s);
                    } else {
                        let s = self.assign(u, Op::Binary(BinaryOp::ISub, *x, *y));
                        let c = self.assign(B, Op::Binary(BinaryOp::ULt, *x, *y));
                        carry.push(self.assign(
                            u,
                            Op::Select {
                                cond: c,
                                a: one,
                                b: zero,
                            },
                        ));
                        res.push(s);
                    }
                }
                self.write(
                    &places[2],
                    &Value {
                        ty: t.clone(),
                        vars: carry,
                    },
                    span,
                )?;
                Ok(Value { ty: t, vars: res })
            }
            _ => {
                // 32×32 → 64-bit product from 16-bit halves (no 64-bit IR type).
                let signed = name == "imulExtended";
                let mut his = Vec::new();
                let mut los = Vec::new();
                let m16 = self.konst(Scalar::U32(0xFFFF));
                let s16 = self.konst(Scalar::U32(16));
                for (x, y) in ins[0].vars.iter().zip(&ins[1].vars) {
                    let (xu, yu) = if signed {
                        (
                            self.assign(u, Op::Unary(UnaryOp::I2U, *x)),
                            self.assign(u, Op::Unary(UnaryOp::I2U, *y)),
                        )
                    } else {
                        (*x, *y)
                    };
                    let a0 = self.assign(u, Op::Binary(BinaryOp::And, xu, m16));
                    let a1 = self.assign(u, Op::Binary(BinaryOp::ShrU, xu, s16));
                    let b0 = self.assign(u, Op::Binary(BinaryOp::And, yu, m16));
                    let b1 = self.assign(u, Op::Binary(BinaryOp::ShrU, yu, s16));
                    let t0 = self.assign(u, Op::Binary(BinaryOp::IMul, a0, b0));
                    let t0h = self.assign(u, Op::Binary(BinaryOp::ShrU, t0, s16));
                    let m1 = self.assign(u, Op::Binary(BinaryOp::IMul, a1, b0));
                    let uu = self.assign(u, Op::Binary(BinaryOp::IAdd, m1, t0h));
                    let ul = self.assign(u, Op::Binary(BinaryOp::And, uu, m16));
                    let m2 = self.assign(u, Op::Binary(BinaryOp::IMul, a0, b1));
                    let w1 = self.assign(u, Op::Binary(BinaryOp::IAdd, ul, m2));
                    let hh = self.assign(u, Op::Binary(BinaryOp::IMul, a1, b1));
                    let uh = self.assign(u, Op::Binary(BinaryOp::ShrU, uu, s16));
                    let wh = self.assign(u, Op::Binary(BinaryOp::ShrU, w1, s16));
                    let h = self.assign(u, Op::Binary(BinaryOp::IAdd, hh, uh));
                    let mut h = self.assign(u, Op::Binary(BinaryOp::IAdd, h, wh));
                    let lo = self.assign(u, Op::Binary(BinaryOp::IMul, xu, yu));
                    if signed {
                        // Signed high word: subtract y when x < 0 and x when y < 0.
                        let zero = self.konst(Scalar::U32(0));
                        let zi = self.konst(Scalar::I32(0));
                        for (s, o) in [(*x, yu), (*y, xu)] {
                            let neg = self.assign(B, Op::Binary(BinaryOp::SLt, s, zi));
                            let sub = self.assign(
                                u,
                                Op::Select {
                                    cond: neg,
                                    a: o,
                                    b: zero,
                                },
                            );
                            h = self.assign(u, Op::Binary(BinaryOp::ISub, h, sub));
                        }
                        his.push(self.assign(k, Op::Unary(UnaryOp::U2I, h)));
                        los.push(self.assign(k, Op::Unary(UnaryOp::U2I, lo)));
                    } else {
                        his.push(h);
                        los.push(lo);
                    }
                }
                self.write(
                    &places[2],
                    &Value {
                        ty: t.clone(),
                        vars: his,
                    },
                    span,
                )?;
                self.write(&places[3], &Value { ty: t, vars: los }, span)?;
                Ok(Value {
                    ty: Type::Void,
                    vars: Vec::new(),
                })
            }
        }
    }

    /// texelFetch, textureSize and textureSamples on the multisample samplers (GLSL 4.60
    /// §8.9.1, §8.9.2; textureSamples since GLSL 4.50): the only built-ins they take. A
    /// multisample texture is sampled as a texture whose "levels" are its samples
    /// (`sampler::TexKind::D2Multisample`), so texelFetch's sample number rides in the
    /// request's level slot and textureSize asks for level 0.
    fn texture_ms_call(
        &mut self,
        name: &str,
        sampler: BaseType,
        vals: Vec<Value>,
        span: Span,
    ) -> R<Value> {
        let array = sampler.is_ms_array_sampler();
        let handle = [vals[0].vars[0], vals[0].vars[1]];
        let ivecn = Type::vector(BaseType::Int, 2 + array as u8);
        let bad = |s: &mut Self| -> R<Value> {
            let sig: Vec<String> = vals.iter().map(|v| v.ty.to_string()).collect();
            bail!(
                s,
                span,
                "no matching function for call to `{name}({})'",
                sig.join(", ")
            )
        };
        if !sampler.is_ms_sampler() {
            return bad(self);
        }
        match name {
            "textureSize" | "textureSamples" => {
                if vals.len() != 1 {
                    return bad(self);
                }
                if name == "textureSamples" && self.version < 450 {
                    bail!(
                        self,
                        span,
                        "no function with name `{name}' before GLSL 4.50"
                    );
                }
                let dst = [self.new_var(ScalarKind::I32), self.new_var(ScalarKind::I32)];
                let layers = array.then(|| self.new_var(ScalarKind::I32));
                let samples = self.new_var(ScalarKind::I32);
                let zero = self.konst(Scalar::I32(0));
                self.emit(Stmt::TextureSize {
                    dst,
                    handle,
                    lod: zero,
                    layers,
                    samples: Some(samples),
                });
                Ok(if name == "textureSamples" {
                    Value {
                        ty: Type::INT,
                        vars: vec![samples],
                    }
                } else {
                    Value {
                        ty: ivecn,
                        vars: dst.iter().chain(&layers).copied().collect(),
                    }
                })
            }
            "texelFetch" => {
                if vals.len() != 3 || vals[1].ty != ivecn || vals[2].ty != Type::INT {
                    return bad(self);
                }
                let kind = match sampler.sampled_type() {
                    crate::ir::SampledType::Float => F,
                    crate::ir::SampledType::Int => ScalarKind::I32,
                    crate::ir::SampledType::Uint => ScalarKind::U32,
                };
                let base = match kind {
                    ScalarKind::I32 => BaseType::Int,
                    ScalarKind::U32 => BaseType::Uint,
                    _ => BaseType::Float,
                };
                let dst = [0; 4].map(|_| self.new_var(kind));
                self.emit(Stmt::TexelFetch {
                    dst,
                    handle,
                    coord: [vals[1].vars[0], vals[1].vars[1]],
                    lod: vals[2].vars[0],
                    layer: array.then(|| vals[1].vars[2]),
                });
                Ok(Value {
                    ty: Type::vector(base, 4),
                    vars: dst.to_vec(),
                })
            }
            _ => bad(self),
        }
    }

    /// A GLSL 1.10 lookup named for its sampler type (texture1D, texture3DProj,
    /// textureCube, shadow2D, texture2DRect, ...): the `modern` form on a `sampler` only;
    /// the shadow forms return vec4(r, 0, 0, 1), what a core context's depth texture mode
    /// (RED) makes of the comparison result.
    fn legacy_texture_call(
        &mut self,
        name: &str,
        modern: &str,
        sampler: BaseType,
        vals: Vec<Value>,
        args: &[Expr],
        span: Span,
    ) -> R<Value> {
        if vals.first().map(|v| &v.ty) != Some(&Type::scalar(sampler)) {
            let t = vals.first().map(|v| v.ty.to_string()).unwrap_or_default();
            bail!(
                self,
                span,
                "no matching function for call to `{name}' with {t} (it takes a {})",
                Type::scalar(sampler)
            );
        }
        let places: Vec<Place> = vals.into_iter().map(Place::of_value).collect();
        let outer = std::mem::replace(&mut self.legacy_lookup, true);
        let v = self.builtin_call(modern, &places, args, span);
        self.legacy_lookup = outer;
        let Some(v) = v? else {
            bail!(self, span, "no function with name `{name}'");
        };
        if !sampler.is_shadow_sampler() {
            return Ok(v);
        }
        let (zero, one) = (self.fconst(0.0), self.fconst(1.0));
        Ok(Value {
            ty: Type::vector(BaseType::Float, 4),
            vars: vec![v.vars[0], zero, zero, one],
        })
    }

    /// texture / texture2D / textureLod / textureOffset / texelFetch / textureSize on a
    /// sampler2D (GLSL 4.60 §8.9).
    fn texture_call(
        &mut self,
        name: &str,
        vals: Vec<Value>,
        args: &[Expr],
        span: Span,
    ) -> R<Value> {
        if matches!(name, "texture2D" | "texture2DLod") && !self.deprecated_builtins_allowed() {
            bail!(
                self,
                span,
                "no function with name `{name}' in GLSL {} core (use texture)",
                self.version
            );
        }
        if !matches!(name, "texture2D" | "texture2DLod")
            && self.version < 130
            && !self.legacy_lookup
        {
            bail!(self, span, "no function with name `{name}'");
        }
        let sampler = match vals.first().map(|v| &v.ty) {
            Some(Type::Basic(v))
                if v.base.is_sampler() && !v.base.is_image() && v.rows == 1 && v.cols == 1 =>
            {
                v.base
            }
            _ => {
                let t = vals.first().map(|v| v.ty.to_string()).unwrap_or_default();
                bail!(
                    self,
                    span,
                    "no matching function for call to `{name}' with {t} (only the sampler2D, \
                     sampler2DArray, samplerCube and sampler3D forms are supported)"
                );
            }
        };
        if sampler.is_ms_sampler() || name == "textureSamples" {
            return self.texture_ms_call(name, sampler, vals, span);
        }
        if name.starts_with("textureGather") {
            return self.texture_gather_call(name, sampler, vals, args, span);
        }
        if matches!(name, "textureQueryLod" | "textureQueryLevels") {
            return self.texture_query_call(name, sampler, vals, span);
        }
        if sampler.is_1d_sampler()
            || sampler.is_1d_array_sampler()
            || sampler.is_rect_sampler()
            || sampler.is_cube_array_sampler()
            || sampler.is_buffer_sampler()
        {
            return self.texture_more_call(name, sampler, vals, args, span);
        }
        let shadow = sampler.is_shadow_sampler();
        let array = sampler.is_array_sampler();
        let cube = sampler.is_cube_sampler();
        let volume = sampler.is_3d_sampler();
        // A third coordinate (the layer, the direction's z or r) travels in the request's
        // layer slot; the descriptor knows which it is.
        let third = array || cube || volume;
        // GLSL 4.60 §8.9.2: shadow samplers have no texelFetch, texture2D* are the legacy
        // forms of sampler2D only (shadow2D* are not provided), and sampler2DArrayShadow has
        // no textureLod and no bias.
        // Cube maps have no texelFetch and no texel offsets; 3D offsets (ivec3) are not
        // carried by the request yet.
        if (shadow && name == "texelFetch")
            || (sampler != BaseType::Sampler2D && matches!(name, "texture2D" | "texture2DLod"))
            || (sampler == BaseType::Sampler2DArrayShadow
                && matches!(name, "textureLod" | "textureLodOffset"))
            || (cube && name == "texelFetch")
            || (sampler == BaseType::SamplerCubeShadow && name == "textureLod")
            || ((cube || volume) && name.ends_with("Offset"))
        {
            bail!(
                self,
                span,
                "no matching function for call to `{name}' with {}",
                vals[0].ty
            );
        }
        let handle = [vals[0].vars[0], vals[0].vars[1]];
        let vec2 = Type::vector(BaseType::Float, 2);
        // texelFetch's coordinate and textureSize's result: ivec2, ivec3 for arrays and 3D
        // (textureSize of a cube is an ivec2).
        let ivecn = Type::vector(BaseType::Int, 2 + (array || volume) as u8);
        // The coordinate parameter: vec2, plus the layer for arrays, plus D_ref for shadow
        // samplers (vec3 for sampler2DShadow and sampler2DArray, vec4 for
        // sampler2DArrayShadow).
        let coord_ty = Type::vector(BaseType::Float, 2 + third as u8 + shadow as u8);
        // What lookups return: vec4, ivec4 or uvec4 (integer samplers return the texel's
        // integers unconverted, GLSL 4.60 §8.9).
        let (result_base, result_kind) = match sampler.sampled_type() {
            crate::ir::SampledType::Float => (BaseType::Float, F),
            crate::ir::SampledType::Int => (BaseType::Int, ScalarKind::I32),
            crate::ir::SampledType::Uint => (BaseType::Uint, ScalarKind::U32),
        };
        // The coordinate of the sampling forms is a vecN parameter, so an ivecN/uvecN
        // argument converts to it implicitly (GLSL 4.60 §6.1 "Function Calling
        // Conventions" picks overloads by the §4.1.10 conversions; uint→float exists since
        // GLSL 1.30). texelFetch takes an ivecN and textureSize an int: no conversion to
        // those from uint, so they stay exact.
        let mut vals = vals;
        if !matches!(name, "texelFetch" | "textureSize")
            && vals.len() >= 2
            && vals[1].ty != coord_ty
            && self.implicitly(&vals[1].ty, &coord_ty)
        {
            let c = vals[1].clone();
            vals[1] = self.coerce(c, &coord_ty, span)?;
        }
        let bad = |s: &mut Self| -> R<Value> {
            let sig: Vec<String> = vals.iter().map(|v| v.ty.to_string()).collect();
            bail!(
                s,
                span,
                "no matching function for call to `{name}({})'",
                sig.join(", ")
            )
        };
        let float_arg = |s: &mut Self, v: &Value| -> Option<Var> {
            if v.ty == Type::FLOAT {
                Some(v.vars[0])
            } else if v.ty == Type::INT || v.ty == Type::UINT {
                let b = v.ty.base().unwrap_or(BaseType::Int);
                Some(s.conv_word(v.vars[0], b, BaseType::Float))
            } else {
                None
            }
        };
        match name {
            "textureSize" => {
                if vals.len() != 2 || vals[1].ty != Type::INT {
                    return bad(self);
                }
                let dst = [self.new_var(ScalarKind::I32), self.new_var(ScalarKind::I32)];
                let layers = (array || volume).then(|| self.new_var(ScalarKind::I32));
                self.emit(Stmt::TextureSize {
                    dst,
                    handle,
                    lod: vals[1].vars[0],
                    layers,
                    samples: None,
                });
                Ok(Value {
                    ty: ivecn,
                    vars: dst.iter().chain(&layers).copied().collect(),
                })
            }
            "texelFetch" => {
                if vals.len() != 3 || vals[1].ty != ivecn || vals[2].ty != Type::INT {
                    return bad(self);
                }
                let dst = [
                    self.new_var(result_kind),
                    self.new_var(result_kind),
                    self.new_var(result_kind),
                    self.new_var(result_kind),
                ];
                self.emit(Stmt::TexelFetch {
                    dst,
                    handle,
                    coord: [vals[1].vars[0], vals[1].vars[1]],
                    lod: vals[2].vars[0],
                    layer: (array || volume).then(|| vals[1].vars[2]),
                });
                Ok(Value {
                    ty: Type::vector(result_base, 4),
                    vars: dst.to_vec(),
                })
            }
            _ => {
                if vals.len() < 2 || vals[1].ty != coord_ty {
                    return bad(self);
                }
                let coord = [vals[1].vars[0], vals[1].vars[1]];
                let layer = third.then(|| vals[1].vars[2]);
                let compare = shadow.then(|| vals[1].vars[2 + third as usize]);
                let explicit = matches!(name, "textureLod" | "texture2DLod" | "textureLodOffset");
                let grad = matches!(name, "textureGrad" | "textureGradOffset");
                let has_offset = name.ends_with("Offset");
                let mut rest = &vals[2..];
                let mut rest_args = &args[2..];
                let mut lod = Lod::Implicit;
                if explicit {
                    let Some(l) = rest.first().and_then(|v| float_arg(self, v)) else {
                        return bad(self);
                    };
                    lod = Lod::Explicit(l);
                    rest = &rest[1..];
                    rest_args = &rest_args[1..];
                }
                if grad {
                    let (Some(dx), Some(dy)) = (rest.first(), rest.get(1)) else {
                        return bad(self);
                    };
                    // Gradients have the coordinate's dimension: vec3 for cubes and 3D.
                    let gvec = if cube || volume {
                        Type::vector(BaseType::Float, 3)
                    } else {
                        vec2.clone()
                    };
                    if dx.ty != gvec || dy.ty != gvec {
                        return bad(self);
                    }
                    let (dx, dy) = (dx.vars.clone(), dy.vars.clone());
                    lod = Lod::Explicit(if cube {
                        self.grad_lambda_cube(handle, &vals[1].vars, &dx, &dy)
                    } else {
                        self.grad_lambda(handle, &dx, &dy, volume)
                    });
                    rest = &rest[2..];
                    rest_args = &rest_args[2..];
                }
                let mut offset = [0i32; 2];
                if has_offset {
                    let Some(a) = rest_args.first() else {
                        return bad(self);
                    };
                    offset = self.const_offset(name, a, 2)?;
                    rest = &rest[1..];
                }
                if let Some(b) = rest.first() {
                    if explicit || grad || rest.len() > 1 {
                        return bad(self);
                    }
                    let Some(b) = float_arg(self, b) else {
                        return bad(self);
                    };
                    if self.stage != Stage::Fragment {
                        bail!(
                            self,
                            span,
                            "texture bias is only available in fragment shaders"
                        );
                    }
                    if sampler == BaseType::Sampler2DArrayShadow {
                        return bad(self);
                    }
                    lod = Lod::Bias(b);
                }
                let dst = [
                    self.new_var(result_kind),
                    self.new_var(result_kind),
                    self.new_var(result_kind),
                    self.new_var(result_kind),
                ];
                self.emit(Stmt::Texture {
                    dst,
                    handle,
                    coord,
                    lod,
                    offset,
                    compare,
                    layer,
                    cube_layer: None,
                });
                if shadow {
                    // A shadow lookup returns the (filtered) comparison result, a float.
                    return Ok(Value {
                        ty: Type::FLOAT,
                        vars: vec![dst[0]],
                    });
                }
                Ok(Value {
                    ty: Type::vector(result_base, 4),
                    vars: dst.to_vec(),
                })
            }
        }
    }

    /// The scalar kind and base type a sampler's lookups return.
    fn sampled(sampler: BaseType) -> (BaseType, ScalarKind) {
        match sampler.sampled_type() {
            crate::ir::SampledType::Float => (BaseType::Float, F),
            crate::ir::SampledType::Int => (BaseType::Int, ScalarKind::I32),
            crate::ir::SampledType::Uint => (BaseType::Uint, ScalarKind::U32),
        }
    }

    /// Four fresh result vars of `kind`.
    fn vars4(&mut self, kind: ScalarKind) -> [Var; 4] {
        [
            self.new_var(kind),
            self.new_var(kind),
            self.new_var(kind),
            self.new_var(kind),
        ]
    }

    /// `vals[i]` converted to `ty` when GLSL converts it implicitly (GLSL 4.60 §4.1.10).
    fn coerce_arg(&mut self, vals: &mut [Value], i: usize, ty: &Type, span: Span) -> R<()> {
        if let Some(v) = vals.get(i) {
            if v.ty != *ty && self.implicitly(&v.ty, ty) {
                let c = v.clone();
                vals[i] = self.coerce(c, ty, span)?;
            }
        }
        Ok(())
    }

    /// A constant integer offset of `dims` components (texel offsets, GLSL 4.60 §8.9.2:
    /// within [-8, 7]).
    fn const_offset(&mut self, name: &str, a: &Expr, dims: u8) -> R<[i32; 2]> {
        self.const_offset_in(name, a, dims, TEXEL_OFFSETS)
    }

    /// `const_offset` with the offset range of the lookup (`TEXEL_OFFSETS`, or
    /// `GATHER_OFFSETS` for textureGatherOffset).
    fn const_offset_in(
        &mut self,
        name: &str,
        a: &Expr,
        dims: u8,
        range: (i32, i32),
    ) -> R<[i32; 2]> {
        let want = if dims == 1 {
            Type::INT
        } else {
            Type::vector(BaseType::Int, dims)
        };
        let mut offset = [0i32; 2];
        match self.const_eval(a) {
            Some(c) if c.ty == want => {
                for (o, v) in offset.iter_mut().zip(&c.vals) {
                    if let Scalar::I32(i) = v {
                        *o = *i;
                    }
                }
            }
            _ => bail!(
                self,
                a.span,
                "the offset of {name}() must be a constant {want} expression"
            ),
        }
        if offset.iter().any(|o| !(range.0..=range.1).contains(o)) {
            bail!(
                self,
                a.span,
                "texel offset out of range [{}, {}]",
                range.0,
                range.1
            );
        }
        Ok(offset)
    }

    /// The lookups of the 1D, 1D array, rectangle, cube-map array and buffer samplers
    /// (GLSL 4.60 §8.9.2). Each becomes the request of the matching stored shape: a 1D
    /// lookup is a 2D lookup at t = ½ of a one-row texture (`sampler::TexKind::D1`), a 1D
    /// array's layer rides in the layer slot, a rectangle's coordinates stay unnormalized
    /// (the descriptor divides), a cube array's cube rides in `cube_layer`; buffers have
    /// texelFetch and textureSize only.
    fn texture_more_call(
        &mut self,
        name: &str,
        sampler: BaseType,
        vals: Vec<Value>,
        args: &[Expr],
        span: Span,
    ) -> R<Value> {
        let d1 = sampler.is_1d_sampler();
        let a1 = sampler.is_1d_array_sampler();
        let rect = sampler.is_rect_sampler();
        let ca = sampler.is_cube_array_sampler();
        let buf = sampler.is_buffer_sampler();
        let shadow = sampler.is_shadow_sampler();
        let handle = [vals[0].vars[0], vals[0].vars[1]];
        let (result_base, result_kind) = Self::sampled(sampler);
        let sig: Vec<String> = vals.iter().map(|v| v.ty.to_string()).collect();
        let bad = |s: &mut Self| -> R<Value> {
            bail!(
                s,
                span,
                "no matching function for call to `{name}({})'",
                sig.join(", ")
            )
        };
        let ivec = |n: u8| {
            if n == 1 {
                Type::INT
            } else {
                Type::vector(BaseType::Int, n)
            }
        };
        let zero_i = self.konst(Scalar::I32(0));
        match name {
            "textureSize" => {
                // Rectangle and buffer textures have one level: no lod argument.
                let lod = if rect || buf {
                    if vals.len() != 1 {
                        return bad(self);
                    }
                    zero_i
                } else {
                    if vals.len() != 2 || vals[1].ty != Type::INT {
                        return bad(self);
                    }
                    vals[1].vars[0]
                };
                let dst = [self.new_var(ScalarKind::I32), self.new_var(ScalarKind::I32)];
                let layers = (a1 || ca).then(|| self.new_var(ScalarKind::I32));
                self.emit(Stmt::TextureSize {
                    dst,
                    handle,
                    lod,
                    layers,
                    samples: None,
                });
                let vars: Vec<Var> = if d1 || buf {
                    vec![dst[0]]
                } else if a1 {
                    vec![dst[0], layers.unwrap_or(dst[1])]
                } else if rect {
                    dst.to_vec()
                } else {
                    vec![dst[0], dst[1], layers.unwrap_or(dst[1])]
                };
                Ok(Value {
                    ty: ivec(vars.len() as u8),
                    vars,
                })
            }
            "texelFetch" => {
                if shadow || ca {
                    return bad(self);
                }
                let cty = ivec(if d1 || buf { 1 } else { 2 });
                let lod = if rect || buf {
                    if vals.len() != 2 {
                        return bad(self);
                    }
                    zero_i
                } else {
                    if vals.len() != 3 || vals[2].ty != Type::INT {
                        return bad(self);
                    }
                    vals[2].vars[0]
                };
                if vals[1].ty != cty {
                    return bad(self);
                }
                let c = &vals[1].vars;
                let (coord, layer) = if d1 || buf {
                    ([c[0], zero_i], None)
                } else if a1 {
                    ([c[0], zero_i], Some(c[1]))
                } else {
                    ([c[0], c[1]], None)
                };
                let dst = self.vars4(result_kind);
                self.emit(Stmt::TexelFetch {
                    dst,
                    handle,
                    coord,
                    lod,
                    layer,
                });
                Ok(Value {
                    ty: Type::vector(result_base, 4),
                    vars: dst.to_vec(),
                })
            }
            _ if buf => bad(self),
            _ => {
                // The coordinate: s for 1D, (s, layer) for 1D arrays, (s, t) for
                // rectangles, (x, y, z, layer) for cube arrays; shadow forms add D_ref as
                // the third component (a vec3 for sampler1DShadow, whose t is unused) or,
                // for samplerCubeArrayShadow, as the next argument.
                let n = if ca {
                    4
                } else if shadow {
                    3
                } else if d1 {
                    1
                } else {
                    2
                };
                let cty = if n == 1 {
                    Type::FLOAT
                } else {
                    Type::vector(BaseType::Float, n)
                };
                let mut vals = vals;
                self.coerce_arg(&mut vals, 1, &cty, span)?;
                if vals.len() < 2 || vals[1].ty != cty {
                    return bad(self);
                }
                let p = vals[1].vars.clone();
                let half = self.fconst(0.5);
                let (coord, layer, cube_layer) = if d1 {
                    ([p[0], half], None, None)
                } else if a1 {
                    ([p[0], half], Some(p[1]), None)
                } else if rect {
                    ([p[0], p[1]], None, None)
                } else {
                    ([p[0], p[1]], Some(p[2]), Some(p[3]))
                };
                let mut rest = &vals[2..];
                let mut rest_args = &args[2..];
                let mut compare = (shadow && !ca).then(|| p[2]);
                if shadow && ca {
                    match rest.first() {
                        Some(v) if v.ty == Type::FLOAT => compare = Some(v.vars[0]),
                        _ => return bad(self),
                    }
                    rest = &rest[1..];
                    rest_args = &rest_args[1..];
                }
                let explicit = matches!(name, "textureLod" | "textureLodOffset");
                let grad = matches!(name, "textureGrad" | "textureGradOffset");
                let has_offset = name.ends_with("Offset");
                if (rect && explicit) || (ca && has_offset) || (ca && shadow && name != "texture") {
                    return bad(self);
                }
                if !matches!(
                    name,
                    "texture"
                        | "textureLod"
                        | "textureOffset"
                        | "textureLodOffset"
                        | "textureGrad"
                        | "textureGradOffset"
                ) {
                    return bad(self);
                }
                let mut lod = Lod::Implicit;
                if explicit {
                    match rest.first() {
                        Some(v) if v.ty == Type::FLOAT => lod = Lod::Explicit(v.vars[0]),
                        _ => return bad(self),
                    }
                    rest = &rest[1..];
                    rest_args = &rest_args[1..];
                }
                if grad {
                    let gty = match () {
                        _ if d1 || a1 => Type::FLOAT,
                        _ if rect => Type::vector(BaseType::Float, 2),
                        _ => Type::vector(BaseType::Float, 3),
                    };
                    let (Some(dx), Some(dy)) = (rest.first(), rest.get(1)) else {
                        return bad(self);
                    };
                    if dx.ty != gty || dy.ty != gty {
                        return bad(self);
                    }
                    let (dx, dy) = (dx.vars.clone(), dy.vars.clone());
                    lod = Lod::Explicit(if ca {
                        self.grad_lambda_cube(handle, &p, &dx, &dy)
                    } else if rect {
                        // Rectangle gradients are in texels already: ρ = max |dP|.
                        self.grad_lambda_texels(&dx, &dy)
                    } else {
                        let z = self.fconst(0.0);
                        self.grad_lambda(handle, &[dx[0], z], &[dy[0], z], false)
                    });
                    rest = &rest[2..];
                    rest_args = &rest_args[2..];
                }
                let mut offset = [0i32; 2];
                if has_offset {
                    let Some(a) = rest_args.first() else {
                        return bad(self);
                    };
                    offset = self.const_offset(name, a, if rect { 2 } else { 1 })?;
                    rest = &rest[1..];
                }
                if let Some(b) = rest.first() {
                    if explicit || grad || rest.len() > 1 || rect || b.ty != Type::FLOAT {
                        return bad(self);
                    }
                    if self.stage != Stage::Fragment {
                        bail!(
                            self,
                            span,
                            "texture bias is only available in fragment shaders"
                        );
                    }
                    lod = Lod::Bias(b.vars[0]);
                }
                let dst = self.vars4(result_kind);
                self.emit(Stmt::Texture {
                    dst,
                    handle,
                    coord,
                    lod,
                    offset,
                    compare,
                    layer,
                    cube_layer,
                });
                if shadow {
                    return Ok(Value {
                        ty: Type::FLOAT,
                        vars: vec![dst[0]],
                    });
                }
                Ok(Value {
                    ty: Type::vector(result_base, 4),
                    vars: dst.to_vec(),
                })
            }
        }
    }

    /// λ_base of a gradient already in texels (rectangle textures): log2 of the longer of
    /// |dPdx| and |dPdy| (eq. 8.7 with no scaling).
    fn grad_lambda_texels(&mut self, dx: &[Var], dy: &[Var]) -> Var {
        let len2 = |s: &mut Self, d: &[Var]| {
            let xx = s.fbin(BinaryOp::FMul, d[0], d[0]);
            let yy = s.fbin(BinaryOp::FMul, d[1], d[1]);
            s.fbin(BinaryOp::FAdd, xx, yy)
        };
        let rx = len2(self, dx);
        let ry = len2(self, dy);
        let m = self.fbin(BinaryOp::FMax, rx, ry);
        let rho = self.fun(UnaryOp::Sqrt, m);
        self.fun(UnaryOp::Log2, rho)
    }

    /// textureGather, textureGatherOffset and textureGatherOffsets (GLSL 4.60 §8.9.4) on
    /// the 2D, 2D array, cube, cube array and rectangle samplers and their shadow forms:
    /// one `Lod::Gather` request per footprint (four for Offsets, keeping each one's
    /// T_i0j0, as the spec defines them). Offsets must be constant expressions here.
    fn texture_gather_call(
        &mut self,
        name: &str,
        sampler: BaseType,
        vals: Vec<Value>,
        args: &[Expr],
        span: Span,
    ) -> R<Value> {
        let sig: Vec<String> = vals.iter().map(|v| v.ty.to_string()).collect();
        let bad = |s: &mut Self| -> R<Value> {
            bail!(
                s,
                span,
                "no matching function for call to `{name}({})'",
                sig.join(", ")
            )
        };
        // GL_ARB_texture_gather (GLSL 1.30 and later) has textureGather on the 2D, 2D
        // array, cube and cube array samplers and textureGatherOffset on the first two;
        // the component argument, the shadow, rectangle and Offsets forms are GLSL 4.00's.
        let full = self.version >= 400;
        if !full && !self.texture_gather {
            bail!(
                self,
                span,
                "{name}() needs GLSL 4.00 or GL_ARB_texture_gather"
            );
        }
        let array = sampler.is_array_sampler();
        let cube = sampler.is_cube_sampler();
        let ca = sampler.is_cube_array_sampler();
        let rect = sampler.is_rect_sampler();
        let plain_2d = matches!(
            sampler,
            BaseType::Sampler2D
                | BaseType::ISampler2D
                | BaseType::USampler2D
                | BaseType::Sampler2DShadow
        );
        if !(plain_2d || array || cube || ca || rect) {
            return bad(self);
        }
        let offsets = name != "textureGather";
        if offsets && (cube || ca) {
            return bad(self);
        }
        let shadow = sampler.is_shadow_sampler();
        if !full && (shadow || rect || name == "textureGatherOffsets") {
            bail!(
                self,
                span,
                "{name}({}) needs GLSL 4.00 (GL_ARB_texture_gather has no shadow, \
                 rectangle or Offsets form)",
                sig.join(", ")
            );
        }
        let n = 2 + (array || cube) as u8 + 2 * ca as u8;
        let cty = Type::vector(BaseType::Float, n);
        let mut vals = vals;
        self.coerce_arg(&mut vals, 1, &cty, span)?;
        if vals.len() < 2 || vals[1].ty != cty {
            return bad(self);
        }
        let p = vals[1].vars.clone();
        let mut next = 2;
        let (compare, comp) = if shadow {
            match vals.get(2) {
                Some(v) if v.ty == Type::FLOAT => {
                    next = 3;
                    (Some(v.vars[0]), self.konst(Scalar::I32(0)))
                }
                _ => return bad(self),
            }
        } else {
            (None, self.konst(Scalar::I32(0)))
        };
        let mut offs: Vec<[i32; 2]> = vec![[0, 0]];
        if offsets {
            let Some(a) = args.get(next) else {
                return bad(self);
            };
            if name == "textureGatherOffset" {
                offs = vec![self.const_offset_in(name, a, 2, GATHER_OFFSETS)?];
            } else {
                let want = Type::Array(Box::new(Type::vector(BaseType::Int, 2)), 4);
                match self.const_eval(a) {
                    Some(c) if c.ty == want && c.vals.len() == 8 => {
                        let i = |k: usize| match c.vals[k] {
                            Scalar::I32(v) => v,
                            _ => 0,
                        };
                        offs = (0..4).map(|k| [i(2 * k), i(2 * k + 1)]).collect();
                        let (lo, hi) = GATHER_OFFSETS;
                        if offs.iter().flatten().any(|o| !(lo..=hi).contains(o)) {
                            bail!(self, a.span, "texel offset out of range [{lo}, {hi}]");
                        }
                    }
                    _ => bail!(
                        self,
                        a.span,
                        "the offsets of {name}() must be a constant ivec2[4] expression"
                    ),
                }
            }
            next += 1;
        }
        // The component (non-shadow forms, GLSL 4.00): a constant int 0..3, default 0.
        let comp = match (shadow, vals.get(next), args.get(next)) {
            (false, Some(v), Some(a)) if full && v.ty == Type::INT => match self.const_eval(a) {
                Some(c) if matches!(c.vals.first(), Some(Scalar::I32(0..=3))) => {
                    next += 1;
                    self.konst(c.vals[0])
                }
                _ => bail!(
                    self,
                    a.span,
                    "the component of {name}() must be a constant int 0, 1, 2 or 3"
                ),
            },
            _ => comp,
        };
        if vals.len() != next {
            return bad(self);
        }
        let (coord, layer, cube_layer) = if ca {
            ([p[0], p[1]], Some(p[2]), Some(p[3]))
        } else if array || cube {
            ([p[0], p[1]], Some(p[2]), None)
        } else {
            ([p[0], p[1]], None, None)
        };
        let (result_base, result_kind) = if shadow {
            (BaseType::Float, F)
        } else {
            Self::sampled(sampler)
        };
        let mut results = Vec::new();
        for offset in &offs {
            let dst = self.vars4(result_kind);
            self.emit(Stmt::Texture {
                dst,
                handle: [vals[0].vars[0], vals[0].vars[1]],
                coord,
                lod: Lod::Gather(comp),
                offset: *offset,
                compare,
                layer,
                cube_layer,
            });
            results.push(dst);
        }
        let vars = if results.len() == 4 {
            // textureGatherOffsets: component i is T_i0j0 (the fourth) of footprint i.
            results.iter().map(|r| r[3]).collect()
        } else {
            results[0].to_vec()
        };
        Ok(Value {
            ty: Type::vector(result_base, 4),
            vars,
        })
    }

    /// textureQueryLod (GLSL 4.00, §8.9.1) and textureQueryLevels (GLSL 4.30).
    fn texture_query_call(
        &mut self,
        name: &str,
        sampler: BaseType,
        vals: Vec<Value>,
        span: Span,
    ) -> R<Value> {
        let sig: Vec<String> = vals.iter().map(|v| v.ty.to_string()).collect();
        let bad = |s: &mut Self| -> R<Value> {
            bail!(
                s,
                span,
                "no matching function for call to `{name}({})'",
                sig.join(", ")
            )
        };
        if sampler.is_rect_sampler() || sampler.is_buffer_sampler() || sampler.is_ms_sampler() {
            return bad(self);
        }
        let handle = [vals[0].vars[0], vals[0].vars[1]];
        if name == "textureQueryLevels" {
            if self.version < 430 && !self.texture_query_levels {
                bail!(
                    self,
                    span,
                    "textureQueryLevels() needs GLSL 4.30 or GL_ARB_texture_query_levels"
                );
            }
            if vals.len() != 1 {
                return bad(self);
            }
            let dst = [self.new_var(ScalarKind::I32), self.new_var(ScalarKind::I32)];
            let levels = self.new_var(ScalarKind::I32);
            let lod = self.konst(Scalar::I32(0));
            self.emit(Stmt::TextureSize {
                dst,
                handle,
                lod,
                layers: None,
                samples: Some(levels),
            });
            return Ok(Value {
                ty: Type::INT,
                vars: vec![levels],
            });
        }
        if self.version < 400 && !self.texture_query_lod {
            bail!(
                self,
                span,
                "textureQueryLod() needs GLSL 4.00 (or textureQueryLOD with \
                 GL_ARB_texture_query_lod)"
            );
        }
        if self.stage != Stage::Fragment {
            bail!(
                self,
                span,
                "textureQueryLod() is only available in fragment shaders"
            );
        }
        // The coordinate without the layer: float for 1D kinds, vec2 for 2D kinds, vec3
        // for 3D and cube kinds.
        let n = if sampler.is_1d_sampler() || sampler.is_1d_array_sampler() {
            1
        } else if sampler.is_3d_sampler()
            || sampler.is_cube_sampler()
            || sampler.is_cube_array_sampler()
        {
            3
        } else {
            2
        };
        let cty = if n == 1 {
            Type::FLOAT
        } else {
            Type::vector(BaseType::Float, n)
        };
        let mut vals = vals;
        self.coerce_arg(&mut vals, 1, &cty, span)?;
        if vals.len() != 2 || vals[1].ty != cty {
            return bad(self);
        }
        let p = vals[1].vars.clone();
        let half = self.fconst(0.5);
        let (coord, layer) = match n {
            1 => ([p[0], half], None),
            2 => ([p[0], p[1]], None),
            _ => ([p[0], p[1]], Some(p[2])),
        };
        let dst = self.vars4(F);
        self.emit(Stmt::Texture {
            dst,
            handle,
            coord,
            lod: Lod::QueryLod,
            offset: [0, 0],
            compare: None,
            layer,
            cube_layer: None,
        });
        Ok(Value {
            ty: Type::vector(BaseType::Float, 2),
            vars: vec![dst[0], dst[1]],
        })
    }

    /// λ_base of textureGrad (GL 4.5 core eqs. 8.7–8.8 with the derivatives given):
    /// ρ = max(|dPdx · size|, |dPdy · size|) with the base level's size (textureSize at
    /// lod 0 is relative to the base level), λ = log2(ρ). It is passed as an explicit LOD,
    /// which the sampler biases and clamps as GL does for every lookup (eq. 8.6).
    ///
    /// With `volume` (sampler3D) the gradients are vec3 and ρ takes the depth too
    /// (textureSize's third component is the base level's depth).
    fn grad_lambda(&mut self, handle: [Var; 2], dx: &[Var], dy: &[Var], volume: bool) -> Var {
        let size = [self.new_var(ScalarKind::I32), self.new_var(ScalarKind::I32)];
        let zero = self.konst(Scalar::I32(0));
        let depth = volume.then(|| self.new_var(ScalarKind::I32));
        self.emit(Stmt::TextureSize {
            dst: size,
            handle,
            lod: zero,
            layers: depth,
            samples: None,
        });
        let w = self.conv_word(size[0], BaseType::Int, BaseType::Float);
        let h = self.conv_word(size[1], BaseType::Int, BaseType::Float);
        let dd = depth.map(|d| self.conv_word(d, BaseType::Int, BaseType::Float));
        let rho2 = |s: &mut Self, d: &[Var]| {
            let u = s.fbin(BinaryOp::FMul, d[0], w);
            let v = s.fbin(BinaryOp::FMul, d[1], h);
            let uu = s.fbin(BinaryOp::FMul, u, u);
            let vv = s.fbin(BinaryOp::FMul, v, v);
            let sum = s.fbin(BinaryOp::FAdd, uu, vv);
            match dd {
                Some(dd) => {
                    let r = s.fbin(BinaryOp::FMul, d[2], dd);
                    let rr = s.fbin(BinaryOp::FMul, r, r);
                    s.fbin(BinaryOp::FAdd, sum, rr)
                }
                None => sum,
            }
        };
        let rx = rho2(self, dx);
        let ry = rho2(self, dy);
        let m = self.fbin(BinaryOp::FMax, rx, ry);
        let rho = self.fun(UnaryOp::Sqrt, m);
        self.fun(UnaryOp::Log2, rho)
    }

    /// λ_base of textureGrad on a cube map (GL 4.5 core §8.13.1): the derivatives of the
    /// face coordinates, ∂s = ½·(∂s_c·|m_a| − s_c·sign(m_a)·∂m_a) / m_a² (and t alike),
    /// on the face P selects, scaled by the face size; then λ = log2 ρ as in `grad_lambda`.
    /// The signs of s_c and t_c of table 8.19 cancel in the squares, so only the axis
    /// choice (x, then y, then z on ties, as the sampler picks) matters here.
    fn grad_lambda_cube(&mut self, handle: [Var; 2], p: &[Var], dx: &[Var], dy: &[Var]) -> Var {
        let size = [self.new_var(ScalarKind::I32), self.new_var(ScalarKind::I32)];
        let zero = self.konst(Scalar::I32(0));
        self.emit(Stmt::TextureSize {
            dst: size,
            handle,
            lod: zero,
            layers: None,
            samples: None,
        });
        let n = self.conv_word(size[0], BaseType::Int, BaseType::Float);
        let abs: Vec<Var> = p[..3].iter().map(|&v| self.fun(UnaryOp::FAbs, v)).collect();
        let yz = self.fbin(BinaryOp::FMax, abs[1], abs[2]);
        let is_x = self.assign(B, Op::Binary(BinaryOp::FGe, abs[0], yz));
        let is_y = self.assign(B, Op::Binary(BinaryOp::FGe, abs[1], abs[2]));
        let sel = |s: &mut Self, c: Var, a: Var, b: Var| s.assign(F, Op::Select { cond: c, a, b });
        // (s_c, t_c, m_a) up to sign, for a vector of the coordinate's components.
        let axes = |s: &mut Self, v: &[Var]| {
            let a = sel(s, is_x, v[2], v[0]);
            let yb = sel(s, is_y, v[2], v[1]);
            let b = sel(s, is_x, v[1], yb);
            let ym = sel(s, is_y, v[1], v[2]);
            let m = sel(s, is_x, v[0], ym);
            (a, b, m)
        };
        let (sc, tc, ma) = axes(self, p);
        let abs_m = self.fun(UnaryOp::FAbs, ma);
        let sign_m = self.fun(UnaryOp::FSign, ma);
        let m2 = self.fbin(BinaryOp::FMul, ma, ma);
        let half = self.fconst(0.5);
        let rho2 = |s: &mut Self, d: &[Var]| {
            let (da, db, dm) = axes(s, d);
            let dabs_m = s.fbin(BinaryOp::FMul, sign_m, dm);
            let sq = |s: &mut Self, c: Var, dc: Var| {
                let x = s.fbin(BinaryOp::FMul, dc, abs_m);
                let y = s.fbin(BinaryOp::FMul, c, dabs_m);
                let num = s.fbin(BinaryOp::FSub, x, y);
                let q = s.fbin(BinaryOp::FDiv, num, m2);
                let h = s.fbin(BinaryOp::FMul, half, q);
                let u = s.fbin(BinaryOp::FMul, h, n);
                s.fbin(BinaryOp::FMul, u, u)
            };
            let uu = sq(s, sc, da);
            let vv = sq(s, tc, db);
            s.fbin(BinaryOp::FAdd, uu, vv)
        };
        let rx = rho2(self, dx);
        let ry = rho2(self, dy);
        let m = self.fbin(BinaryOp::FMax, rx, ry);
        let rho = self.fun(UnaryOp::Sqrt, m);
        self.fun(UnaryOp::Log2, rho)
    }
}

/// GLSL 1.10's lookups named for their sampler type (GLSL 1.10 §8.7, and
/// ARB_texture_rectangle's): the GLSL 1.30 form each is, and the one sampler type it takes.
/// texture2D and its variants are handled with the modern forms.
fn legacy_texture(name: &str) -> Option<(&'static str, BaseType)> {
    use BaseType::*;
    let (sampler, rest) = [
        ("texture1D", Sampler1D),
        ("texture3D", Sampler3D),
        ("textureCube", SamplerCube),
        ("texture2DRect", Sampler2DRect),
        ("shadow1D", Sampler1DShadow),
        ("shadow2DRect", Sampler2DRectShadow),
        ("shadow2D", Sampler2DShadow),
    ]
    .into_iter()
    .find_map(|(p, s)| name.strip_prefix(p).map(|rest| (s, rest)))?;
    let modern = match rest {
        "" => "texture",
        "Proj" => "textureProj",
        "Lod" => "textureLod",
        "ProjLod" => "textureProjLod",
        _ => return None,
    };
    // Rectangles have one level: no Lod forms.
    if matches!(sampler, Sampler2DRect | Sampler2DRectShadow) && modern.ends_with("Lod") {
        return None;
    }
    if sampler == SamplerCube && modern.starts_with("textureProj") {
        return None;
    }
    Some((modern, sampler))
}
