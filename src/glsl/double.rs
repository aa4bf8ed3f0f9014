//! Doubles in the front end (GLSL 4.00 / ARB_gpu_shader_fp64; ARCHITECTURE.md §8 "a double
//! is two u32 words"): literals, conversions to and from the 32-bit types (§4.1.10, §5.4.1),
//! operators (§5.9–5.11), constructors and the built-in functions of GLSL 4.60 ch. 8 that
//! take doubles. A double component is a pair of U32 vars (low, high); every operation is
//! `Op::F64` or composed from it here. `expr.rs` and `builtins.rs` send anything that
//! involves a double to this file.

use crate::ir::{BaseType, BinaryOp, F64Op, Op, Scalar, ScalarKind, UnaryOp, ValueType, Var};

use super::ast::{BinOp, UnOp};
use super::diag::Span;
use super::lower::{bail, Lowerer, Value, R};
use super::place::Place;
use super::types::{vt, Type};

/// One double: (low word, high word).
pub type D = (Var, Var);

const SIGN_HI: u32 = 0x8000_0000;

/// Marks, word by word, where a double starts in the flattened layout of `t` (true on
/// each double's low word), so word-wise code (equality) can treat the pair as one value.
pub fn double_starts(t: &Type, out: &mut Vec<bool>) {
    match t {
        Type::Void => {}
        Type::Basic(v) => {
            for i in 0..v.words() {
                out.push(v.base == BaseType::Double && i % 2 == 0);
            }
        }
        Type::Array(e, n) => {
            for _ in 0..*n {
                double_starts(e, out);
            }
        }
        Type::Struct(s) => {
            for (_, m) in &s.members {
                double_starts(m, out);
            }
        }
    }
}

fn pairs(v: &[Var]) -> Vec<D> {
    v.chunks(2).map(|p| (p[0], p[1])).collect()
}

fn flat(d: &[D]) -> Vec<Var> {
    d.iter().flat_map(|p| [p.0, p.1]).collect()
}

impl Lowerer {
    // ---- the word-pair primitives ----

    fn f64_args(args: &[Var]) -> [Var; 6] {
        std::array::from_fn(|i| args.get(i).copied().unwrap_or(args[0]))
    }

    /// A double-valued `Op::F64`: its low and high words.
    pub fn dop(&mut self, op: F64Op, args: &[Var]) -> D {
        let a = Self::f64_args(args);
        let lo = self.assign(
            ScalarKind::U32,
            Op::F64 {
                op,
                args: a,
                word: 0,
            },
        );
        let hi = self.assign(
            ScalarKind::U32,
            Op::F64 {
                op,
                args: a,
                word: 1,
            },
        );
        (lo, hi)
    }

    /// A 32-bit-valued `Op::F64` (compare, test, conversion).
    fn dword(&mut self, op: F64Op, args: &[Var]) -> Var {
        let a = Self::f64_args(args);
        self.assign(
            op.result_kind(),
            Op::F64 {
                op,
                args: a,
                word: 0,
            },
        )
    }

    pub fn dconst(&mut self, x: f64) -> D {
        let b = x.to_bits();
        (
            self.konst(Scalar::U32(b as u32)),
            self.konst(Scalar::U32((b >> 32) as u32)),
        )
    }

    fn dbin(&mut self, op: F64Op, a: D, b: D) -> D {
        self.dop(op, &[a.0, a.1, b.0, b.1])
    }

    fn dcmp(&mut self, op: F64Op, a: D, b: D) -> Var {
        self.dword(op, &[a.0, a.1, b.0, b.1])
    }

    fn dun(&mut self, op: F64Op, a: D) -> D {
        self.dop(op, &[a.0, a.1])
    }

    fn dsel(&mut self, cond: Var, a: D, b: D) -> D {
        let lo = self.assign(
            ScalarKind::U32,
            Op::Select {
                cond,
                a: a.0,
                b: b.0,
            },
        );
        let hi = self.assign(
            ScalarKind::U32,
            Op::Select {
                cond,
                a: a.1,
                b: b.1,
            },
        );
        (lo, hi)
    }

    /// -x: the sign bit flipped (IEEE negate, exact).
    fn dneg(&mut self, a: D) -> D {
        let m = self.konst(Scalar::U32(SIGN_HI));
        (
            a.0,
            self.assign(ScalarKind::U32, Op::Binary(BinaryOp::Xor, a.1, m)),
        )
    }

    /// |x|: the sign bit cleared.
    fn dabs(&mut self, a: D) -> D {
        let m = self.konst(Scalar::U32(!SIGN_HI));
        (
            a.0,
            self.assign(ScalarKind::U32, Op::Binary(BinaryOp::And, a.1, m)),
        )
    }

    /// min(a, b) = a < b ? a : b (the select rule of `FMin`).
    fn dmin(&mut self, a: D, b: D) -> D {
        let c = self.dcmp(F64Op::Lt, a, b);
        self.dsel(c, a, b)
    }

    fn dmax(&mut self, a: D, b: D) -> D {
        let c = self.dcmp(F64Op::Gt, a, b);
        self.dsel(c, a, b)
    }

    fn dfloor(&mut self, a: D) -> D {
        self.dun(F64Op::Floor, a)
    }

    // ---- conversions ----

    /// One 32-bit component converted to a double (exact).
    fn double_of(&mut self, x: Var, from: BaseType) -> D {
        match from {
            BaseType::Float => self.dop(F64Op::FromF32, &[x]),
            BaseType::Int => self.dop(F64Op::FromI32, &[x]),
            BaseType::Bool => {
                let one = self.dconst(1.0);
                let zero = self.dconst(0.0);
                self.dsel(x, one, zero)
            }
            _ => self.dop(F64Op::FromU32, &[x]),
        }
    }

    /// One double converted to a 32-bit base type: float rounds to nearest, int and uint
    /// truncate (saturating), bool is `!= 0.0`.
    fn double_to(&mut self, d: D, to: BaseType) -> Var {
        match to {
            BaseType::Float => self.dword(F64Op::ToF32, &[d.0, d.1]),
            BaseType::Int => self.dword(F64Op::ToI32, &[d.0, d.1]),
            BaseType::Bool => {
                let zero = self.dconst(0.0);
                self.dcmp(F64Op::Ne, d, zero)
            }
            _ => self.dword(F64Op::ToU32, &[d.0, d.1]),
        }
    }

    /// Converts every component of `v` to or from double (`convert_base` sends here when
    /// either side is a double).
    pub fn convert_double(&mut self, v: Value, to: BaseType, span: Span) -> R<Value> {
        let Some(b) = v.ty.basic() else {
            bail!(self, span, "cannot convert {} to {}", v.ty, to_name(to));
        };
        let numeric = |x: BaseType| {
            matches!(
                x,
                BaseType::Float
                    | BaseType::Int
                    | BaseType::Uint
                    | BaseType::Bool
                    | BaseType::Double
            )
        };
        if !numeric(b.base) || !numeric(to) {
            bail!(self, span, "cannot convert {} to {}", v.ty, to_name(to));
        }
        if b.base == to {
            return Ok(v);
        }
        let vars = if b.base == BaseType::Double {
            pairs(&v.vars)
                .into_iter()
                .map(|d| self.double_to(d, to))
                .collect()
        } else {
            let d: Vec<D> = v.vars.iter().map(|x| self.double_of(*x, b.base)).collect();
            flat(&d)
        };
        Ok(Value {
            ty: Type::Basic(vt(to, b.rows, b.cols)),
            vars,
        })
    }

    fn as_doubles(&mut self, v: Value, span: Span) -> R<Value> {
        self.convert_double(v, BaseType::Double, span)
    }

    /// A double literal (`1.5lf`).
    pub fn double_literal(&mut self, x: f64) -> Value {
        let d = self.dconst(x);
        Value {
            ty: Type::scalar(BaseType::Double),
            vars: vec![d.0, d.1],
        }
    }

    // ---- operators ----

    /// `-x` / `+x` on a double scalar, vector or matrix.
    pub fn double_unary(&mut self, op: UnOp, v: Value, span: Span) -> R<Value> {
        match op {
            UnOp::Plus => Ok(v),
            UnOp::Neg => {
                let d: Vec<D> = pairs(&v.vars).into_iter().map(|d| self.dneg(d)).collect();
                Ok(Value {
                    ty: v.ty,
                    vars: flat(&d),
                })
            }
            _ => bail!(
                self,
                span,
                "invalid operand of type {} for this operator",
                v.ty
            ),
        }
    }

    /// A binary operator where either side is a double (the other converts implicitly).
    pub fn double_binary(&mut self, op: BinOp, a: Value, b: Value, span: Span) -> R<Value> {
        let (ats, bts) = (a.ty.to_string(), b.ty.to_string());
        let (Some(at), Some(bt)) = (a.ty.basic(), b.ty.basic()) else {
            bail!(
                self,
                span,
                "operands of type {ats} and {bts} are not valid here"
            );
        };
        let convertible = |x: BaseType| {
            matches!(
                x,
                BaseType::Float | BaseType::Int | BaseType::Uint | BaseType::Double
            )
        };
        if !convertible(at.base) || !convertible(bt.base) {
            bail!(
                self,
                span,
                "operator not defined for operands of type {ats} and {bts}"
            );
        }
        let a = self.as_doubles(a, span)?;
        let b = self.as_doubles(b, span)?;
        let (at, bt) = (
            vt(BaseType::Double, at.rows, at.cols),
            vt(BaseType::Double, bt.rows, bt.cols),
        );
        match op {
            BinOp::Eq | BinOp::Ne => {
                if at != bt {
                    bail!(
                        self,
                        span,
                        "operator not defined for operands of type {ats} and {bts}"
                    );
                }
                self.double_equality(op, &a, &b)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                if !a.ty.is_scalar() || !b.ty.is_scalar() {
                    bail!(
                        self,
                        span,
                        "operator not defined for operands of type {ats} and {bts}"
                    );
                }
                let cop = match op {
                    BinOp::Lt => F64Op::Lt,
                    BinOp::Le => F64Op::Le,
                    BinOp::Gt => F64Op::Gt,
                    _ => F64Op::Ge,
                };
                let r = self.dcmp(cop, (a.vars[0], a.vars[1]), (b.vars[0], b.vars[1]));
                Ok(Value {
                    ty: Type::BOOL,
                    vars: vec![r],
                })
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
                let (na, nb) = (at.rows * at.cols, bt.rows * bt.cols);
                if op == BinOp::Mul && (at.cols > 1 || bt.cols > 1) && na > 1 && nb > 1 {
                    return self.double_linear_mul(&a, &b, span);
                }
                if at != bt && na != 1 && nb != 1 {
                    bail!(
                        self,
                        span,
                        "operator not defined for operands of type {ats} and {bts}"
                    );
                }
                let fop = match op {
                    BinOp::Add => F64Op::Add,
                    BinOp::Sub => F64Op::Sub,
                    BinOp::Mul => F64Op::Mul,
                    _ => F64Op::Div,
                };
                let ty = if na >= nb { a.ty.clone() } else { b.ty.clone() };
                let (pa, pb) = (pairs(&a.vars), pairs(&b.vars));
                let n = pa.len().max(pb.len());
                let d: Vec<D> = (0..n)
                    .map(|i| {
                        let x = pa[if pa.len() == 1 { 0 } else { i }];
                        let y = pb[if pb.len() == 1 { 0 } else { i }];
                        self.dbin(fop, x, y)
                    })
                    .collect();
                Ok(Value { ty, vars: flat(&d) })
            }
            _ => bail!(
                self,
                span,
                "operator not defined for operands of type {ats} and {bts}"
            ),
        }
    }

    /// `==` / `!=` of two doubles-only values: every component equal (IEEE: -0 == +0, NaN
    /// differs from everything).
    fn double_equality(&mut self, op: BinOp, a: &Value, b: &Value) -> R<Value> {
        let mut acc: Option<Var> = None;
        for (x, y) in pairs(&a.vars).into_iter().zip(pairs(&b.vars)) {
            let e = self.dcmp(F64Op::Eq, x, y);
            acc = Some(match acc {
                Some(p) => self.assign(ScalarKind::Bool, Op::Binary(BinaryOp::LogicalAnd, p, e)),
                None => e,
            });
        }
        let mut r = acc.unwrap_or_else(|| self.konst(Scalar::Bool(true)));
        if op == BinOp::Ne {
            r = self.assign(
                ScalarKind::Bool,
                Op::Unary(crate::ir::UnaryOp::LogicalNot, r),
            );
        }
        Ok(Value {
            ty: Type::BOOL,
            vars: vec![r],
        })
    }

    /// The equality of the double pair at word `i` of two values of the same type (for
    /// structs and arrays that hold doubles, `expr.rs equality`).
    pub fn double_word_eq(&mut self, a: &[Var], b: &[Var], i: usize) -> Var {
        self.dcmp(F64Op::Eq, (a[i], a[i + 1]), (b[i], b[i + 1]))
    }

    /// dmat*dmat, dmat*dvec, dvec*dmat (GLSL 4.60 §5.10), summed left to right, no FMA.
    fn double_linear_mul(&mut self, a: &Value, b: &Value, span: Span) -> R<Value> {
        let (Some(at), Some(bt)) = (a.ty.basic(), b.ty.basic()) else {
            return Err(());
        };
        let (ar, ac) = if at.cols == 1 {
            (1, at.rows)
        } else {
            (at.rows, at.cols)
        };
        let (br, bc) = (bt.rows, bt.cols);
        if ac != br {
            bail!(self, span, "cannot multiply {} by {}", a.ty, b.ty);
        }
        let (pa, pb) = (pairs(&a.vars), pairs(&b.vars));
        let get_a = |r: u8, k: u8| -> D {
            if at.cols == 1 {
                pa[k as usize]
            } else {
                pa[(k * at.rows + r) as usize]
            }
        };
        let mut out = Vec::new();
        for c in 0..bc {
            for r in 0..ar {
                let mut acc: Option<D> = None;
                for k in 0..ac {
                    let m = self.dbin(F64Op::Mul, get_a(r, k), pb[(c * br + k) as usize]);
                    acc = Some(match acc {
                        Some(p) => self.dbin(F64Op::Add, p, m),
                        None => m,
                    });
                }
                out.extend(acc);
            }
        }
        let ty = if at.cols == 1 {
            Type::vector(BaseType::Double, bc)
        } else if bc == 1 {
            Type::vector(BaseType::Double, ar)
        } else {
            Type::Basic(vt(BaseType::Double, ar, bc))
        };
        Ok(Value {
            ty,
            vars: flat(&out),
        })
    }

    // ---- constructors ----

    /// A constructor of a double type, or of a 32-bit type from doubles (GLSL 4.60 §5.4).
    /// `None`: no double involved.
    pub fn construct_double(
        &mut self,
        t: ValueType,
        vals: Vec<Value>,
        span: Span,
    ) -> Option<R<(ValueType, Vec<Value>)>> {
        let any = vals.iter().any(|v| v.ty.base() == Some(BaseType::Double));
        if t.base != BaseType::Double && !any {
            return None;
        }
        if t.base != BaseType::Double {
            // To a 32-bit type: convert each double argument, then build as usual.
            let mut out = Vec::with_capacity(vals.len());
            for v in vals {
                if v.ty.base() == Some(BaseType::Double) {
                    match self.convert_double(v, t.base, span) {
                        Ok(v) => out.push(v),
                        Err(e) => return Some(Err(e)),
                    }
                } else {
                    out.push(v);
                }
            }
            return Some(Ok((t, out)));
        }
        // To a double type: each argument to doubles, then take 32-bit "words" as the
        // float path would, on a stand-in float type of the same shape, and map back.
        let mut out = Vec::with_capacity(vals.len());
        for v in vals {
            match self.as_doubles(v, span) {
                Ok(v) => out.push(v),
                Err(e) => return Some(Err(e)),
            }
        }
        Some(Ok((t, out)))
    }

    /// Builds a double scalar, vector or matrix from arguments that are already doubles.
    pub fn construct_doubles(&mut self, t: ValueType, vals: Vec<Value>, span: Span) -> R<Value> {
        let ty = Type::Basic(t);
        let zero = self.dconst(0.0);
        let one = self.dconst(1.0);
        if vals.len() == 1 && vals[0].ty.is_scalar() {
            let x = (vals[0].vars[0], vals[0].vars[1]);
            let d: Vec<D> = if t.cols > 1 {
                (0..t.cols)
                    .flat_map(|c| (0..t.rows).map(move |r| (c, r)))
                    .map(|(c, r)| if c == r { x } else { zero })
                    .collect()
            } else {
                vec![x; t.rows as usize]
            };
            return Ok(Value { ty, vars: flat(&d) });
        }
        if t.cols > 1 && vals.len() == 1 && vals[0].ty.is_matrix() {
            let src = vals[0].ty.basic().unwrap_or(t);
            let p = pairs(&vals[0].vars);
            let mut d = Vec::new();
            for c in 0..t.cols {
                for r in 0..t.rows {
                    d.push(if c < src.cols && r < src.rows {
                        p[(c * src.rows + r) as usize]
                    } else if c == r {
                        one
                    } else {
                        zero
                    });
                }
            }
            return Ok(Value { ty, vars: flat(&d) });
        }
        if t.cols > 1 && vals.iter().any(|v| v.ty.is_matrix()) {
            bail!(
                self,
                span,
                "a matrix argument to a matrix constructor must be the only one"
            );
        }
        let need = (t.rows * t.cols) as usize;
        let mut comps: Vec<D> = Vec::with_capacity(need);
        for v in &vals {
            if comps.len() >= need {
                bail!(self, span, "too many arguments to constructor of {ty}");
            }
            for d in pairs(&v.vars) {
                if comps.len() < need {
                    comps.push(d);
                }
            }
        }
        if comps.len() < need {
            bail!(self, span, "too few arguments to constructor of {ty}");
        }
        Ok(Value {
            ty,
            vars: flat(&comps),
        })
    }

    // ---- built-in functions (GLSL 4.60 ch. 8 on doubles) ----

    /// A built-in call with a double argument; `None` when `name` has no double form here
    /// (the caller reports it as usual).
    pub fn double_builtin(
        &mut self,
        name: &str,
        places: &[Place],
        args: &[super::ast::Expr],
        span: Span,
    ) -> Option<R<Value>> {
        const NAMES: &[&str] = &[
            "abs",
            "sign",
            "floor",
            "trunc",
            "round",
            "roundEven",
            "ceil",
            "fract",
            "mod",
            "min",
            "max",
            "clamp",
            "mix",
            "step",
            "smoothstep",
            "sqrt",
            "inversesqrt",
            "length",
            "distance",
            "dot",
            "cross",
            "normalize",
            "faceforward",
            "reflect",
            "refract",
            "matrixCompMult",
            "outerProduct",
            "transpose",
            "determinant",
            "inverse",
            "lessThan",
            "lessThanEqual",
            "greaterThan",
            "greaterThanEqual",
            "equal",
            "notEqual",
            "unpackDouble2x32",
            "fma",
            "isnan",
            "isinf",
        ];
        if !NAMES.contains(&name) {
            return None;
        }
        Some(self.double_builtin_inner(name, places, args, span))
    }

    fn double_builtin_inner(
        &mut self,
        name: &str,
        places: &[Place],
        args: &[super::ast::Expr],
        span: Span,
    ) -> R<Value> {
        let raw = self.read_args(places, args)?;
        let sig: Vec<String> = raw.iter().map(|v| v.ty.to_string()).collect();
        let nomatch = |s: &mut Self| -> R<Value> {
            bail!(
                s,
                span,
                "no matching function for call to `{name}({})'",
                sig.join(", ")
            )
        };
        // mix(x, y, bvec/bool): selects, the third argument stays bool.
        let bool_mix = name == "mix" && raw.len() == 3 && raw[2].ty.base() == Some(BaseType::Bool);
        let mut vals = Vec::with_capacity(raw.len());
        for (i, v) in raw.into_iter().enumerate() {
            let b = v.ty.basic().map(|b| b.base);
            if bool_mix && i == 2 {
                vals.push(v);
                continue;
            }
            if !matches!(
                b,
                Some(BaseType::Float | BaseType::Int | BaseType::Uint | BaseType::Double)
            ) {
                return nomatch(self);
            }
            vals.push(self.as_doubles(v, span)?);
        }
        let n = vals.len();
        let shape = |v: &Value| v.ty.basic().unwrap_or(vt(BaseType::Double, 1, 1));
        let is_vec = |v: &Value| shape(v).cols == 1;
        let d = |v: &Value| pairs(&v.vars);
        // genDType arguments: all vectors or scalars, of one size except where `scalar_ok`.
        let gen = |s: &mut Self, want: usize, scalar_ok: u8| -> R<(ValueType, Vec<Vec<D>>)> {
            if n != want || vals.iter().any(|v| !is_vec(v)) {
                return nomatch(s).map(|_| unreachable!());
            }
            let mut ty: Option<ValueType> = None;
            for (i, v) in vals.iter().enumerate() {
                if bool_mix && i == 2 {
                    continue;
                }
                let sh = shape(v);
                if sh.rows == 1 && scalar_ok & (1 << i) != 0 {
                    continue;
                }
                match ty {
                    None => ty = Some(sh),
                    Some(t) if t == sh => {}
                    Some(_) => return nomatch(s).map(|_| unreachable!()),
                }
            }
            let ty = ty.unwrap_or_else(|| shape(&vals[0]));
            let k = ty.rows as usize;
            let comps = vals
                .iter()
                .map(|v| {
                    let p = if v.ty.base() == Some(BaseType::Bool) {
                        v.vars.iter().map(|x| (*x, *x)).collect()
                    } else {
                        d(v)
                    };
                    if p.len() == 1 {
                        vec![p[0]; k]
                    } else {
                        p
                    }
                })
                .collect();
            Ok((ty, comps))
        };
        let value = |ty: ValueType, out: Vec<D>| Value {
            ty: Type::Basic(ty),
            vars: flat(&out),
        };
        use F64Op as O;
        let map1 = |s: &mut Self, f: &dyn Fn(&mut Self, D) -> D| -> R<Value> {
            let (ty, c) = gen(s, 1, 0)?;
            let out = c[0].iter().map(|x| f(s, *x)).collect();
            Ok(value(ty, out))
        };
        Ok(match name {
            "abs" => map1(self, &|s, x| s.dabs(x))?,
            "sign" => map1(self, &|s, x| {
                // x > 0 ? 1 : x < 0 ? -1 : x (±0 and NaN unchanged, as FSign).
                let zero = s.dconst(0.0);
                let one = s.dconst(1.0);
                let m1 = s.dconst(-1.0);
                let gt = s.dcmp(O::Gt, x, zero);
                let lt = s.dcmp(O::Lt, x, zero);
                let r = s.dsel(lt, m1, x);
                s.dsel(gt, one, r)
            })?,
            "floor" => map1(self, &|s, x| s.dun(O::Floor, x))?,
            "ceil" => map1(self, &|s, x| s.dun(O::Ceil, x))?,
            "trunc" => map1(self, &|s, x| s.dun(O::Trunc, x))?,
            "round" | "roundEven" => map1(self, &|s, x| s.dun(O::RoundEven, x))?,
            "fract" => map1(self, &|s, x| {
                let f = s.dfloor(x);
                s.dbin(O::Sub, x, f)
            })?,
            "sqrt" => map1(self, &|s, x| s.dun(O::Sqrt, x))?,
            "inversesqrt" => map1(self, &|s, x| {
                let r = s.dun(O::Sqrt, x);
                let one = s.dconst(1.0);
                s.dbin(O::Div, one, r)
            })?,
            "isnan" | "isinf" => {
                let (ty, c) = gen(self, 1, 0)?;
                let op = if name == "isnan" { O::IsNan } else { O::IsInf };
                let vars: Vec<Var> = c[0].iter().map(|x| self.dword(op, &[x.0, x.1])).collect();
                Value {
                    ty: Type::vector(BaseType::Bool, ty.rows),
                    vars,
                }
            }
            "mod" => {
                // x - y * floor(x / y), three rounded ops as the float `FMod`.
                let (ty, c) = gen(self, 2, 0b10)?;
                let out = (0..ty.rows as usize)
                    .map(|i| {
                        let q = self.dbin(O::Div, c[0][i], c[1][i]);
                        let f = self.dfloor(q);
                        let p = self.dbin(O::Mul, c[1][i], f);
                        self.dbin(O::Sub, c[0][i], p)
                    })
                    .collect();
                value(ty, out)
            }
            "min" | "max" => {
                let (ty, c) = gen(self, 2, 0b10)?;
                let out = (0..ty.rows as usize)
                    .map(|i| {
                        if name == "min" {
                            self.dmin(c[0][i], c[1][i])
                        } else {
                            self.dmax(c[0][i], c[1][i])
                        }
                    })
                    .collect();
                value(ty, out)
            }
            "clamp" => {
                let (ty, c) = gen(self, 3, 0b110)?;
                let out = (0..ty.rows as usize)
                    .map(|i| {
                        let m = self.dmax(c[0][i], c[1][i]);
                        self.dmin(m, c[2][i])
                    })
                    .collect();
                value(ty, out)
            }
            "mix" => {
                let (ty, c) = gen(self, 3, 0b100)?;
                let out = (0..ty.rows as usize)
                    .map(|i| {
                        let (x, y, a) = (c[0][i], c[1][i], c[2][i]);
                        if bool_mix {
                            // a is the bool (both halves the same var).
                            self.dsel(a.0, y, x)
                        } else {
                            let one = self.dconst(1.0);
                            let t = self.dbin(O::Sub, one, a);
                            let l = self.dbin(O::Mul, x, t);
                            let r = self.dbin(O::Mul, y, a);
                            self.dbin(O::Add, l, r)
                        }
                    })
                    .collect();
                value(ty, out)
            }
            "step" => {
                let (ty, c) = gen(self, 2, 0b01)?;
                let out = (0..ty.rows as usize)
                    .map(|i| {
                        let lt = self.dcmp(O::Lt, c[1][i], c[0][i]);
                        let zero = self.dconst(0.0);
                        let one = self.dconst(1.0);
                        self.dsel(lt, zero, one)
                    })
                    .collect();
                value(ty, out)
            }
            "smoothstep" => {
                let (ty, c) = gen(self, 3, 0b011)?;
                let out = (0..ty.rows as usize)
                    .map(|i| {
                        let (e0, e1, x) = (c[0][i], c[1][i], c[2][i]);
                        let num = self.dbin(O::Sub, x, e0);
                        let den = self.dbin(O::Sub, e1, e0);
                        let t = self.dbin(O::Div, num, den);
                        let zero = self.dconst(0.0);
                        let one = self.dconst(1.0);
                        let t = self.dmax(t, zero);
                        let t = self.dmin(t, one);
                        let two = self.dconst(2.0);
                        let three = self.dconst(3.0);
                        let tt = self.dbin(O::Mul, t, t);
                        let k = self.dbin(O::Mul, two, t);
                        let k = self.dbin(O::Sub, three, k);
                        self.dbin(O::Mul, tt, k)
                    })
                    .collect();
                value(ty, out)
            }
            "fma" => {
                let (ty, c) = gen(self, 3, 0)?;
                let out = (0..ty.rows as usize)
                    .map(|i| {
                        let (a, b, e) = (c[0][i], c[1][i], c[2][i]);
                        self.dop(O::Fma, &[a.0, a.1, b.0, b.1, e.0, e.1])
                    })
                    .collect();
                value(ty, out)
            }
            "dot" => {
                let (_, c) = gen(self, 2, 0)?;
                let r = self.ddot(&c[0], &c[1]);
                value(vt(BaseType::Double, 1, 1), vec![r])
            }
            "length" => {
                let (_, c) = gen(self, 1, 0)?;
                let r = self.dlength(&c[0]);
                value(vt(BaseType::Double, 1, 1), vec![r])
            }
            "distance" => {
                let (_, c) = gen(self, 2, 0)?;
                let diff: Vec<D> = c[0]
                    .iter()
                    .zip(&c[1])
                    .map(|(x, y)| self.dbin(O::Sub, *x, *y))
                    .collect();
                let r = self.dlength(&diff);
                value(vt(BaseType::Double, 1, 1), vec![r])
            }
            "normalize" => {
                let (ty, c) = gen(self, 1, 0)?;
                let l = self.dlength(&c[0]);
                let out = c[0].iter().map(|x| self.dbin(O::Div, *x, l)).collect();
                value(ty, out)
            }
            "cross" => {
                let (ty, c) = gen(self, 2, 0)?;
                if ty.rows != 3 {
                    return nomatch(self);
                }
                let (a, b) = (&c[0], &c[1]);
                let mut out = Vec::new();
                for (i, j) in [(1, 2), (2, 0), (0, 1)] {
                    let p = self.dbin(O::Mul, a[i], b[j]);
                    let q = self.dbin(O::Mul, b[i], a[j]);
                    out.push(self.dbin(O::Sub, p, q));
                }
                value(ty, out)
            }
            "faceforward" => {
                // dot(Nref, I) < 0 ? N : -N
                let (ty, c) = gen(self, 3, 0)?;
                let dt = self.ddot(&c[2], &c[1]);
                let zero = self.dconst(0.0);
                let lt = self.dcmp(O::Lt, dt, zero);
                let out = c[0]
                    .iter()
                    .map(|n| {
                        let m = self.dneg(*n);
                        self.dsel(lt, *n, m)
                    })
                    .collect();
                value(ty, out)
            }
            "reflect" => {
                // I - 2 * dot(N, I) * N
                let (ty, c) = gen(self, 2, 0)?;
                let dt = self.ddot(&c[1], &c[0]);
                let two = self.dconst(2.0);
                let k = self.dbin(O::Mul, two, dt);
                let out = c[0]
                    .iter()
                    .zip(&c[1])
                    .map(|(i, n)| {
                        let t = self.dbin(O::Mul, k, *n);
                        self.dbin(O::Sub, *i, t)
                    })
                    .collect();
                value(ty, out)
            }
            "refract" => {
                // k = 1 - eta^2 (1 - dot(N, I)^2); k < 0 ? 0 : eta I - (eta dot(N, I) + sqrt(k)) N
                let (ty, c) = gen(self, 3, 0b100)?;
                if shape(&vals[2]).rows != 1 {
                    return nomatch(self);
                }
                let eta = c[2][0];
                let dt = self.ddot(&c[1], &c[0]);
                let one = self.dconst(1.0);
                let zero = self.dconst(0.0);
                let d2 = self.dbin(O::Mul, dt, dt);
                let t = self.dbin(O::Sub, one, d2);
                let e2 = self.dbin(O::Mul, eta, eta);
                let t = self.dbin(O::Mul, e2, t);
                let k = self.dbin(O::Sub, one, t);
                let neg = self.dcmp(O::Lt, k, zero);
                let sk = self.dun(O::Sqrt, k);
                let ed = self.dbin(O::Mul, eta, dt);
                let f = self.dbin(O::Add, ed, sk);
                let out = c[0]
                    .iter()
                    .zip(&c[1])
                    .map(|(i, n)| {
                        let a = self.dbin(O::Mul, eta, *i);
                        let b = self.dbin(O::Mul, f, *n);
                        let r = self.dbin(O::Sub, a, b);
                        self.dsel(neg, zero, r)
                    })
                    .collect();
                value(ty, out)
            }
            "lessThan" | "lessThanEqual" | "greaterThan" | "greaterThanEqual" | "equal"
            | "notEqual" => {
                let (ty, c) = gen(self, 2, 0)?;
                if ty.rows < 2 {
                    return nomatch(self);
                }
                let op = match name {
                    "lessThan" => O::Lt,
                    "lessThanEqual" => O::Le,
                    "greaterThan" => O::Gt,
                    "greaterThanEqual" => O::Ge,
                    "equal" => O::Eq,
                    _ => O::Ne,
                };
                let vars: Vec<Var> = c[0]
                    .iter()
                    .zip(&c[1])
                    .map(|(x, y)| self.dcmp(op, *x, *y))
                    .collect();
                Value {
                    ty: Type::vector(BaseType::Bool, ty.rows),
                    vars,
                }
            }
            "unpackDouble2x32" => {
                // The two words themselves, low first (GLSL 4.60 §8.4).
                if n != 1 || vals[0].ty != Type::scalar(BaseType::Double) {
                    return nomatch(self);
                }
                Value {
                    ty: Type::vector(BaseType::Uint, 2),
                    vars: vals[0].vars.clone(),
                }
            }
            "matrixCompMult" => {
                if n != 2 || !vals[0].ty.is_matrix() || vals[0].ty != vals[1].ty {
                    return nomatch(self);
                }
                let out = d(&vals[0])
                    .into_iter()
                    .zip(d(&vals[1]))
                    .map(|(x, y)| self.dbin(O::Mul, x, y))
                    .collect();
                value(shape(&vals[0]), out)
            }
            "outerProduct" => {
                if n != 2 || !is_vec(&vals[0]) || !is_vec(&vals[1]) {
                    return nomatch(self);
                }
                let (c, r) = (d(&vals[0]), d(&vals[1]));
                if c.len() < 2 || r.len() < 2 {
                    return nomatch(self);
                }
                let mut out = Vec::new();
                for rj in &r {
                    for ci in &c {
                        out.push(self.dbin(O::Mul, *ci, *rj));
                    }
                }
                value(vt(BaseType::Double, c.len() as u8, r.len() as u8), out)
            }
            "transpose" => {
                if n != 1 || !vals[0].ty.is_matrix() {
                    return nomatch(self);
                }
                let m = shape(&vals[0]);
                let p = d(&vals[0]);
                let mut out = Vec::new();
                for c in 0..m.rows {
                    for r in 0..m.cols {
                        out.push(p[(r * m.rows + c) as usize]);
                    }
                }
                value(vt(BaseType::Double, m.cols, m.rows), out)
            }
            "determinant" | "inverse" => {
                let m = shape(&vals[0]);
                if n != 1 || m.cols < 2 || m.cols != m.rows {
                    return nomatch(self);
                }
                let k = m.cols as usize;
                let p = d(&vals[0]);
                let at: Vec<Vec<D>> = (0..k)
                    .map(|r| (0..k).map(|c| p[c * k + r]).collect())
                    .collect();
                let det = self.ddet(&at);
                if name == "determinant" {
                    value(vt(BaseType::Double, 1, 1), vec![det])
                } else {
                    let mut out = Vec::with_capacity(k * k);
                    for c in 0..k {
                        for r in 0..k {
                            let minor: Vec<Vec<D>> = (0..k)
                                .filter(|&i| i != c)
                                .map(|i| (0..k).filter(|&j| j != r).map(|j| at[i][j]).collect())
                                .collect();
                            let md = self.ddet(&minor);
                            let md = if (r + c) % 2 == 1 { self.dneg(md) } else { md };
                            out.push(self.dbin(O::Div, md, det));
                        }
                    }
                    value(m, out)
                }
            }
            _ => return nomatch(self),
        })
    }

    /// dot product summed left to right (no FMA).
    fn ddot(&mut self, a: &[D], b: &[D]) -> D {
        let mut acc: Option<D> = None;
        for (x, y) in a.iter().zip(b) {
            let m = self.dbin(F64Op::Mul, *x, *y);
            acc = Some(match acc {
                Some(p) => self.dbin(F64Op::Add, p, m),
                None => m,
            });
        }
        acc.unwrap_or_else(|| self.dconst(0.0))
    }

    fn dlength(&mut self, a: &[D]) -> D {
        let s = self.ddot(a, a);
        self.dun(F64Op::Sqrt, s)
    }

    /// Determinant by cofactor expansion along the first row (as the float one).
    fn ddet(&mut self, m: &[Vec<D>]) -> D {
        let n = m.len();
        if n == 1 {
            return m[0][0];
        }
        if n == 2 {
            let a = self.dbin(F64Op::Mul, m[0][0], m[1][1]);
            let b = self.dbin(F64Op::Mul, m[0][1], m[1][0]);
            return self.dbin(F64Op::Sub, a, b);
        }
        let mut acc: Option<D> = None;
        for c in 0..n {
            let minor: Vec<Vec<D>> = (1..n)
                .map(|r| (0..n).filter(|&j| j != c).map(|j| m[r][j]).collect())
                .collect();
            let md = self.ddet(&minor);
            let t = self.dbin(F64Op::Mul, m[0][c], md);
            acc = Some(match acc {
                None => t,
                Some(a) if c % 2 == 1 => self.dbin(F64Op::Sub, a, t),
                Some(a) => self.dbin(F64Op::Add, a, t),
            });
        }
        acc.unwrap_or_else(|| self.dconst(0.0))
    }

    /// packDouble2x32(uvec2): the two words as a double (GLSL 4.60 §8.4).
    pub fn pack_double(&mut self, v: Value, span: Span) -> R<Value> {
        if v.ty != Type::vector(BaseType::Uint, 2) {
            bail!(
                self,
                span,
                "no matching function for call to `packDouble2x32({})'",
                v.ty
            );
        }
        Ok(Value {
            ty: Type::scalar(BaseType::Double),
            vars: v.vars,
        })
    }

    // ---- frexp, ldexp, modf (GLSL 4.60 §8.3 on genDType) ----

    /// `frexp`, `ldexp` or `modf` whose first argument is a double; `None` when it is not
    /// (the float forms are `builtins.rs`'s). `places` covers every argument.
    pub fn double_exp_builtin(
        &mut self,
        name: &str,
        places: &[Place],
        args: &[super::ast::Expr],
        span: Span,
    ) -> Option<R<Value>> {
        let first = places.first()?.ty.basic()?;
        if first.base != BaseType::Double || first.cols != 1 {
            return None;
        }
        Some(self.double_exp_inner(name, places, args, span))
    }

    fn double_exp_inner(
        &mut self,
        name: &str,
        places: &[Place],
        args: &[super::ast::Expr],
        span: Span,
    ) -> R<Value> {
        let t = places[0].ty.clone();
        let n = t.basic().map_or(1, |b| b.rows);
        let other = match name {
            "modf" => t.clone(),
            _ => Type::vector(BaseType::Int, n),
        };
        if places.len() != 2 || places[1].ty != other {
            let sig: Vec<String> = places.iter().map(|p| p.ty.to_string()).collect();
            bail!(
                self,
                span,
                "no matching function for call to `{name}({})'",
                sig.join(", ")
            );
        }
        let out_param = name != "ldexp";
        if out_param && !places[1].writable {
            bail!(
                self,
                args[1].span,
                "argument for an out parameter of `{name}' is not a writable l-value"
            );
        }
        let x = self.read(&places[0], args[0].span)?;
        let xs = pairs(&x.vars);
        match name {
            "modf" => {
                // i = trunc(x), x - i (the float form's rule: modf(±inf) is NaN).
                let ip: Vec<D> = xs.iter().map(|d| self.dun(F64Op::Trunc, *d)).collect();
                let fr: Vec<D> = xs
                    .iter()
                    .zip(&ip)
                    .map(|(d, i)| self.dbin(F64Op::Sub, *d, *i))
                    .collect();
                let whole = Value {
                    ty: t.clone(),
                    vars: flat(&ip),
                };
                self.write(&places[1], &whole, span)?;
                Ok(Value {
                    ty: t,
                    vars: flat(&fr),
                })
            }
            "frexp" => {
                let (m, e): (Vec<D>, Vec<Var>) = xs.iter().map(|d| self.dfrexp(*d)).unzip();
                let exps = Value { ty: other, vars: e };
                self.write(&places[1], &exps, span)?;
                Ok(Value {
                    ty: t,
                    vars: flat(&m),
                })
            }
            _ => {
                let e = self.read(&places[1], args[1].span)?;
                let out = xs
                    .iter()
                    .zip(&e.vars)
                    .map(|(d, k)| self.dldexp(*d, *k))
                    .collect::<Vec<_>>();
                Ok(Value {
                    ty: t,
                    vars: flat(&out),
                })
            }
        }
    }

    fn ibin(&mut self, k: ScalarKind, op: BinaryOp, a: Var, b: Var) -> Var {
        self.assign(k, Op::Binary(op, a, b))
    }

    fn isel(&mut self, k: ScalarKind, cond: Var, a: Var, b: Var) -> Var {
        self.assign(k, Op::Select { cond, a, b })
    }

    /// frexp of one double: (significand in [0.5, 1) with x's sign, exponent), so that
    /// x = significand · 2^exponent exactly. ±0 gives (±0, 0); a subnormal is scaled by
    /// 2^54 first (exact) and its exponent corrected. GLSL leaves ±inf and NaN undefined:
    /// here they come back unchanged with exponent 0 (as C's frexp).
    fn dfrexp(&mut self, x: D) -> (D, Var) {
        use ScalarKind::{Bool, I32, U32};
        let k = |s: &mut Self, v: u32| s.konst(Scalar::U32(v));
        let ki = |s: &mut Self, v: i32| s.konst(Scalar::I32(v));
        let exp_mask = k(self, 0x7ff0_0000);
        let zero_u = k(self, 0);
        // Biased exponent field of x (still shifted): 0 for zeros and subnormals.
        let ex = self.ibin(U32, BinaryOp::And, x.1, exp_mask);
        let small = self.ibin(Bool, BinaryOp::IEq, ex, zero_u);
        let scale = self.dconst(18_014_398_509_481_984.0); // 2^54
        let scaled = self.dbin(F64Op::Mul, x, scale);
        let y = self.dsel(small, scaled, x);
        let adj54 = ki(self, 54);
        let adj0 = ki(self, 0);
        let adj = self.isel(I32, small, adj54, adj0);
        let ey = self.ibin(U32, BinaryOp::And, y.1, exp_mask);
        let sh = k(self, 20);
        let ey = self.ibin(U32, BinaryOp::ShrU, ey, sh);
        // e = ey - 1022 - adj
        let eyi = self.assign(I32, Op::Unary(UnaryOp::U2I, ey));
        let bias = ki(self, 1022);
        let e = self.ibin(I32, BinaryOp::ISub, eyi, bias);
        let e = self.ibin(I32, BinaryOp::ISub, e, adj);
        // Significand: x's sign and fraction under the exponent of 0.5.
        let keep = k(self, 0x800f_ffff);
        let half = k(self, 0x3fe0_0000);
        let hi = self.ibin(U32, BinaryOp::And, y.1, keep);
        let hi = self.ibin(U32, BinaryOp::Or, hi, half);
        // Zero (after scaling, so only ±0 itself) or ±inf / NaN: x unchanged, exponent 0.
        let not_sign = k(self, 0x7fff_ffff);
        let mag = self.ibin(U32, BinaryOp::And, y.1, not_sign);
        let mag = self.ibin(U32, BinaryOp::Or, mag, y.0);
        let zero = self.ibin(Bool, BinaryOp::IEq, mag, zero_u);
        let top = k(self, 0x7ff);
        let special = self.ibin(Bool, BinaryOp::IEq, ey, top);
        let keep_x = self.ibin(Bool, BinaryOp::LogicalOr, zero, special);
        let hi = self.isel(U32, keep_x, x.1, hi);
        let lo = self.isel(U32, keep_x, x.0, y.0);
        let e = self.isel(I32, keep_x, adj0, e);
        ((lo, hi), e)
    }

    /// ldexp of one double: x · 2^n, by exact power-of-two products and one final
    /// rounding (musl's scalbn: at most two steps of 2^1023 up, or of 2^-969 down — which
    /// keeps the final product out of the subnormal range so it rounds once — then 2^n
    /// with n clamped to the normal exponents). Overflow gives ±inf, underflow rounds to
    /// nearest (GLSL leaves both undefined).
    fn dldexp(&mut self, x: D, n: Var) -> D {
        use ScalarKind::{Bool, I32, U32};
        let ki = |s: &mut Self, v: i32| s.konst(Scalar::I32(v));
        let (lo_n, hi_n) = (ki(self, -2200), ki(self, 2200));
        let n = self.ibin(I32, BinaryOp::SMax, n, lo_n);
        let mut n = self.ibin(I32, BinaryOp::SMin, n, hi_n);
        let mut y = x;
        let up = self.dconst(f64::from_bits(0x7fe0_0000_0000_0000)); // 2^1023
        let down = self.dconst(f64::from_bits(0x0360_0000_0000_0000)); // 2^-969
        let max_e = ki(self, 1023);
        let min_e = ki(self, -1022);
        for _ in 0..2 {
            let c = self.ibin(Bool, BinaryOp::SGt, n, max_e);
            let yy = self.dbin(F64Op::Mul, y, up);
            y = self.dsel(c, yy, y);
            let nn = self.ibin(I32, BinaryOp::ISub, n, max_e);
            n = self.isel(I32, c, nn, n);
        }
        let step = ki(self, 969);
        for _ in 0..2 {
            let c = self.ibin(Bool, BinaryOp::SLt, n, min_e);
            let yy = self.dbin(F64Op::Mul, y, down);
            y = self.dsel(c, yy, y);
            let nn = self.ibin(I32, BinaryOp::IAdd, n, step);
            n = self.isel(I32, c, nn, n);
        }
        let n = self.ibin(I32, BinaryOp::SMin, n, max_e);
        let n = self.ibin(I32, BinaryOp::SMax, n, min_e);
        // 2^n: biased exponent n + 1023 in the high word.
        let bias = ki(self, 1023);
        let b = self.ibin(I32, BinaryOp::IAdd, n, bias);
        let b = self.assign(U32, Op::Unary(UnaryOp::I2U, b));
        let sh = self.konst(Scalar::U32(20));
        let hi = self.ibin(U32, BinaryOp::Shl, b, sh);
        let lo = self.konst(Scalar::U32(0));
        self.dbin(F64Op::Mul, y, (lo, hi))
    }

    /// `x++` / `x--` on a double: the constant 1.0 as a double value.
    pub fn double_one(&mut self) -> Value {
        self.double_literal(1.0)
    }
}

fn to_name(b: BaseType) -> &'static str {
    super::types::base_name(b)
}
