//! Expressions: operator typing and lowering (GLSL 4.60 §5.8–5.11), implicit conversions
//! (§4.1.10), constructors (§5.4), assignments, `++`/`--`, short-circuit operators, `?:`,
//! and user function calls with overload resolution (§6.1). Built-in functions are in
//! `builtins.rs`.

use crate::ir::{BaseType, BinaryOp, Op, Scalar, ScalarKind, Stmt, UnaryOp, Var};

use super::ast::{BinOp, Callee, Expr, ExprKind, UnOp};
use super::diag::Span;
use super::lower::{bail, FnDef, Lowerer, ParamDir, Root, Sym, Value, R};
use super::place::Place;
use super::types::{self, base_kind, builtin_type, vt, Type};

impl Lowerer {
    /// Lowers one expression: one level of `limits::MAX_INLINED_NESTING`.
    pub fn expr(&mut self, e: &Expr) -> R<Value> {
        self.enter_nesting(e.span)?;
        let r = self.expr_kind(e);
        self.leave_nesting();
        r
    }

    fn expr_kind(&mut self, e: &Expr) -> R<Value> {
        match &e.kind {
            ExprKind::Int(i) => Ok(self.const_value(Scalar::I32(*i))),
            ExprKind::Uint(u) => Ok(self.const_value(Scalar::U32(*u))),
            ExprKind::Float(f) => Ok(self.const_value(Scalar::F32(*f))),
            ExprKind::Double(x) => {
                if self.version < 400 && !self.fp64 {
                    bail!(
                        self,
                        e.span,
                        "double literals require GLSL 4.00 or GL_ARB_gpu_shader_fp64"
                    );
                }
                Ok(self.double_literal(*x))
            }
            ExprKind::Bool(b) => Ok(self.const_value(Scalar::Bool(*b))),
            ExprKind::Uint64(u) => {
                if !self.int64 {
                    bail!(
                        self,
                        e.span,
                        "64-bit literals require GL_ARB_gpu_shader_int64"
                    );
                }
                let lo = self.konst(Scalar::U32(*u as u32));
                let hi = self.konst(Scalar::U32((*u >> 32) as u32));
                Ok(Value {
                    ty: Type::scalar(BaseType::Uint64),
                    vars: vec![lo, hi],
                })
            }
            ExprKind::Ident(_) | ExprKind::Index(..) | ExprKind::Field(..) => {
                let p = self.place(e)?;
                self.read(&p, e.span)
            }
            ExprKind::Length(x) => {
                let p = self.place(x)?;
                if matches!(
                    (&p.root, &p.ty),
                    (
                        Root::Storage { .. } | Root::StorageOneOf { .. },
                        Type::Array(_, 0)
                    )
                ) {
                    return self.runtime_length(&p, e.span);
                }
                let n = match &p.ty {
                    Type::Array(_, n) => *n,
                    Type::Basic(v) if v.cols > 1 => v.cols as u32,
                    Type::Basic(v) if v.rows > 1 => v.rows as u32,
                    t => bail!(self, e.span, "length() called on a value of type {t}"),
                };
                Ok(self.const_value(Scalar::I32(n as i32)))
            }
            ExprKind::Unary(op, x) => {
                let v = self.expr(x)?;
                self.unary(*op, v, e.span)
            }
            ExprKind::Binary(BinOp::LogAnd, a, b) | ExprKind::Binary(BinOp::LogOr, a, b) => {
                let is_and = matches!(e.kind, ExprKind::Binary(BinOp::LogAnd, ..));
                let av = self.expr(a)?;
                if av.ty != Type::BOOL {
                    bail!(self, a.span, "operands of && and || must be scalar bool");
                }
                let r = self.new_var(ScalarKind::Bool);
                self.emit(Stmt::Assign {
                    dst: r,
                    op: Op::Copy(av.vars[0]),
                });
                // Short-circuit (GLSL 4.60 §5.9): the right side runs only where needed.
                let (rhs, res) = self.collect(|s| {
                    let bv = s.expr(b)?;
                    if bv.ty != Type::BOOL {
                        bail!(s, b.span, "operands of && and || must be scalar bool");
                    }
                    s.emit(Stmt::Assign {
                        dst: r,
                        op: Op::Copy(bv.vars[0]),
                    });
                    Ok(())
                });
                res?;
                let (then_body, else_body) = if is_and { (rhs, vec![]) } else { (vec![], rhs) };
                self.emit(Stmt::If {
                    cond: av.vars[0],
                    then_body,
                    else_body,
                });
                Ok(Value {
                    ty: Type::BOOL,
                    vars: vec![r],
                })
            }
            ExprKind::Binary(op, a, b) => {
                let av = self.expr(a)?;
                let bv = self.expr(b)?;
                self.binary(*op, av, bv, e.span)
            }
            ExprKind::Assign(op, l, r) => {
                self.check_tess_write(l)?;
                let p = self.place(l)?;
                if !p.writable {
                    // `write` says why (read-only variable, repeated swizzle components).
                    let none = Value {
                        ty: p.ty.clone(),
                        vars: Vec::new(),
                    };
                    self.write(&p, &none, l.span)?;
                    return Err(());
                }
                let rv = self.expr_with_type(r, &p.ty)?;
                let v = match op {
                    None => self.coerce(rv, &p.ty, r.span)?,
                    Some(op) => {
                        let cur = self.read(&p, l.span)?;
                        let res = self.binary(*op, cur, rv, e.span)?;
                        if res.ty != p.ty {
                            bail!(
                                self,
                                e.span,
                                "result of compound assignment ({}) does not match {}",
                                res.ty,
                                p.ty
                            );
                        }
                        res
                    }
                };
                self.write(&p, &v, e.span)?;
                Ok(v)
            }
            ExprKind::IncDec { pre, inc, e: x } => {
                let p = self.place(x)?;
                if !p.writable {
                    bail!(self, x.span, "operand of ++/-- must be a writable l-value");
                }
                let old = self.read(&p, x.span)?;
                let one = match p.ty.base() {
                    Some(BaseType::Float) => Scalar::F32(1.0),
                    Some(BaseType::Int) => Scalar::I32(1),
                    Some(BaseType::Uint) => Scalar::U32(1),
                    Some(BaseType::Double) => Scalar::Bool(true),
                    _ => bail!(self, e.span, "++/-- needs an int, uint or float operand"),
                };
                let one = if p.ty.base() == Some(BaseType::Double) {
                    self.double_one()
                } else {
                    self.const_value(one)
                };
                let op = if *inc { BinOp::Add } else { BinOp::Sub };
                let new = self.binary(op, old.clone(), one, e.span)?;
                self.write(&p, &new, e.span)?;
                Ok(if *pre { new } else { old })
            }
            ExprKind::Ternary(c, a, b) => {
                let cond = self.bool_cond(c)?;
                // Both arms are lowered into branches; the result type is the arms' common type.
                let (abody, av) = {
                    let mut out = None;
                    let (body, r) = self.collect(|s| {
                        out = Some(s.expr(a)?);
                        Ok(())
                    });
                    r?;
                    (body, out)
                };
                let (bbody, bv) = {
                    let mut out = None;
                    let (body, r) = self.collect(|s| {
                        out = Some(s.expr(b)?);
                        Ok(())
                    });
                    r?;
                    (body, out)
                };
                let (Some(av), Some(bv)) = (av, bv) else {
                    return Err(());
                };
                let ty = if self.implicitly(&bv.ty, &av.ty) {
                    av.ty.clone()
                } else if self.implicitly(&av.ty, &bv.ty) {
                    bv.ty.clone()
                } else {
                    bail!(
                        self,
                        e.span,
                        "second and third operands of ?: must have the same type ({} vs {})",
                        av.ty,
                        bv.ty
                    );
                };
                if matches!(ty, Type::Void) {
                    bail!(self, e.span, "?: operands cannot be void");
                }
                // GLSL 4.60 §4.1.7: opaque values are operands of indexing, member
                // selection and parentheses only (ARB_bindless_texture lifts that).
                if ty.contains_sampler() && !self.bindless {
                    bail!(
                        self,
                        e.span,
                        "?: operands of opaque type {ty} require GL_ARB_bindless_texture"
                    );
                }
                let res = self.new_vars_for(&ty);
                let mut arms = Vec::new();
                for (mut body, v) in [(abody, av), (bbody, bv)] {
                    let saved = std::mem::take(&mut self.cur);
                    let v = self.coerce(v, &ty, e.span);
                    body.append(&mut self.cur);
                    self.cur = saved;
                    let v = v?;
                    for (d, s) in res.iter().zip(&v.vars) {
                        body.push(Stmt::Assign {
                            dst: *d,
                            op: Op::Copy(*s),
                        });
                    }
                    arms.push(body);
                }
                let else_body = arms.pop().unwrap_or_default();
                let then_body = arms.pop().unwrap_or_default();
                self.emit(Stmt::If {
                    cond,
                    then_body,
                    else_body,
                });
                Ok(Value { ty, vars: res })
            }
            ExprKind::Comma(a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
            ExprKind::Call(callee, args) => self.call(callee, args, e.span),
            ExprKind::InitList(_) => {
                bail!(
                    self,
                    e.span,
                    "initializer list used where its type is unknown"
                )
            }
        }
    }

    /// Like `expr`, but an initializer list takes its type from `ty` (GLSL 4.20 `{...}`).
    pub fn expr_with_type(&mut self, e: &Expr, ty: &Type) -> R<Value> {
        let ExprKind::InitList(items) = &e.kind else {
            return self.expr(e);
        };
        if self.version < 420 {
            let _ = (); // initializer lists are GLSL 4.20 (GL_ARB_shading_language_420pack)
        }
        let elems: Vec<Type> = match ty {
            Type::Array(el, n) => vec![(**el).clone(); *n as usize],
            Type::Struct(s) => s.members.iter().map(|(_, t)| t.clone()).collect(),
            Type::Basic(v) if v.cols > 1 => {
                vec![Type::vector(v.base, v.rows); v.cols as usize]
            }
            Type::Basic(v) => vec![Type::scalar(v.base); v.rows as usize],
            Type::Void => bail!(self, e.span, "initializer list for void"),
        };
        if elems.len() != items.len() {
            bail!(
                self,
                e.span,
                "initializer list has {} elements, {} expects {}",
                items.len(),
                ty,
                elems.len()
            );
        }
        let mut vars = Vec::new();
        for (it, et) in items.iter().zip(&elems) {
            let v = self.expr_with_type(it, et)?;
            let v = self.coerce(v, et, it.span)?;
            vars.extend(v.vars);
        }
        Ok(Value {
            ty: ty.clone(),
            vars,
        })
    }

    pub fn const_value(&mut self, s: Scalar) -> Value {
        let base = match s {
            Scalar::F32(_) => BaseType::Float,
            Scalar::I32(_) => BaseType::Int,
            Scalar::U32(_) => BaseType::Uint,
            Scalar::Bool(_) => BaseType::Bool,
        };
        Value {
            ty: Type::scalar(base),
            vars: vec![self.konst(s)],
        }
    }

    /// Implicit conversions of GLSL 4.60 §4.1.10 (none before GLSL 1.20).
    pub fn implicitly(&self, from: &Type, to: &Type) -> bool {
        if from == to {
            return true;
        }
        let (Type::Basic(f), Type::Basic(t)) = (from, to) else {
            return false;
        };
        if let (BaseType::Image(a), BaseType::Image(b)) = (f.base, t.base) {
            return super::image::image_arg_fits(a, b);
        }
        if f.rows != t.rows || f.cols != t.cols || self.version < 120 {
            return false;
        }
        if t.base == BaseType::Double {
            // GLSL 4.00 §4.1.10: int, uint and float to double; mat to dmat.
            return matches!(f.base, BaseType::Int | BaseType::Uint | BaseType::Float)
                && (f.cols == 1 || f.base == BaseType::Float);
        }
        matches!(
            (f.base, t.base),
            (BaseType::Int, BaseType::Uint)
                | (BaseType::Int, BaseType::Float)
                | (BaseType::Uint, BaseType::Float)
        ) && (f.cols == 1 || t.base == BaseType::Float)
            && !(f.base == BaseType::Int && t.base == BaseType::Uint && self.version < 400)
    }

    /// Converts `v` to `ty` where an implicit conversion exists; error otherwise.
    pub fn coerce(&mut self, v: Value, ty: &Type, span: Span) -> R<Value> {
        if v.ty == *ty {
            return Ok(v);
        }
        if !self.implicitly(&v.ty, ty) {
            bail!(self, span, "cannot convert from {} to {}", v.ty, ty);
        }
        if matches!(ty.base(), Some(BaseType::Image(_))) {
            // The same handle, seen through the parameter's qualifiers.
            return Ok(Value {
                ty: ty.clone(),
                vars: v.vars,
            });
        }
        let Some(b) = ty.base() else {
            bail!(self, span, "cannot convert from {} to {}", v.ty, ty);
        };
        self.convert_base(v, b, span)
    }

    /// One word converted between 32-bit base types.
    pub fn conv_word(&mut self, x: Var, from: BaseType, to: BaseType) -> Var {
        use BaseType::*;
        let op = match (from, to) {
            (a, b) if a == b => return x,
            (Float, Int) => UnaryOp::F2I,
            (Float, Uint) => UnaryOp::F2U,
            (Int, Float) => UnaryOp::I2F,
            (Uint, Float) => UnaryOp::U2F,
            (Int, Uint) => UnaryOp::I2U,
            (Uint, Int) => UnaryOp::U2I,
            (Bool, Float) => UnaryOp::B2F,
            (Bool, Int) => UnaryOp::B2I,
            (Bool, Uint) => UnaryOp::B2U,
            (Float, Bool) => UnaryOp::F2B,
            (Int, Bool) | (Uint, Bool) => UnaryOp::I2B,
            _ => return x,
        };
        self.assign(base_kind(to), Op::Unary(op, x))
    }

    /// Explicit conversion of every component to another 32-bit base type.
    pub fn convert_base(&mut self, v: Value, to: BaseType, span: Span) -> R<Value> {
        let Some(b) = v.ty.basic() else {
            bail!(
                self,
                span,
                "cannot convert {} to {}",
                v.ty,
                types::base_name(to)
            );
        };
        if b.base == to {
            return Ok(v);
        }
        if b.base == BaseType::Double || to == BaseType::Double {
            return self.convert_double(v, to, span);
        }
        if b.base == BaseType::Uint64
            || b.base.is_sampler()
            || to == BaseType::Uint64
            || to.is_sampler()
        {
            bail!(
                self,
                span,
                "cannot convert {} to {}",
                v.ty,
                types::base_name(to)
            );
        }
        let vars = v
            .vars
            .iter()
            .map(|x| self.conv_word(*x, b.base, to))
            .collect();
        Ok(Value {
            ty: Type::Basic(vt(to, b.rows, b.cols)),
            vars,
        })
    }

    pub fn unary(&mut self, op: UnOp, v: Value, span: Span) -> R<Value> {
        let Some(b) = v.ty.basic() else {
            bail!(self, span, "invalid operand of type {}", v.ty);
        };
        if b.base == BaseType::Double {
            return self.double_unary(op, v, span);
        }
        let uop = match (op, b.base) {
            (UnOp::Plus, BaseType::Float | BaseType::Int | BaseType::Uint) => return Ok(v),
            (UnOp::Neg, BaseType::Float) => UnaryOp::FNeg,
            (UnOp::Neg, BaseType::Int) => UnaryOp::INeg,
            (UnOp::Neg, BaseType::Uint) => {
                let zero = self.konst(Scalar::U32(0));
                let vars = v
                    .vars
                    .iter()
                    .map(|x| self.assign(ScalarKind::U32, Op::Binary(BinaryOp::ISub, zero, *x)))
                    .collect();
                return Ok(Value { ty: v.ty, vars });
            }
            (UnOp::BitNot, BaseType::Int | BaseType::Uint) if b.cols == 1 => UnaryOp::Not,
            (UnOp::LogNot, BaseType::Bool) if v.ty.is_scalar() => UnaryOp::LogicalNot,
            (_, BaseType::Uint64) => {
                bail!(self, span, "64-bit integer arithmetic is not supported yet")
            }
            _ => bail!(
                self,
                span,
                "invalid operand of type {} for this operator",
                v.ty
            ),
        };
        let k = base_kind(b.base);
        let vars = v
            .vars
            .iter()
            .map(|x| self.assign(k, Op::Unary(uop, *x)))
            .collect();
        Ok(Value { ty: v.ty, vars })
    }

    /// The common base type two arithmetic operands convert to.
    fn common_base(&self, a: BaseType, b: BaseType) -> Option<BaseType> {
        use BaseType::*;
        if a == b {
            return Some(a);
        }
        if self.version < 120 {
            return None;
        }
        match (a, b) {
            (Float, Int | Uint) | (Int | Uint, Float) => Some(Float),
            (Int, Uint) | (Uint, Int) if self.version >= 400 => Some(Uint),
            _ => None,
        }
    }

    /// Applies `f` to each pair of words, broadcasting a scalar side.
    fn zip_words(
        &mut self,
        a: &Value,
        b: &Value,
        k: ScalarKind,
        mut f: impl FnMut(&mut Self, Var, Var) -> Op,
    ) -> Vec<Var> {
        let n = a.vars.len().max(b.vars.len());
        (0..n)
            .map(|i| {
                let x = a.vars[if a.vars.len() == 1 { 0 } else { i }];
                let y = b.vars[if b.vars.len() == 1 { 0 } else { i }];
                let op = f(self, x, y);
                self.assign(k, op)
            })
            .collect()
    }

    pub fn binary(&mut self, op: BinOp, a: Value, b: Value, span: Span) -> R<Value> {
        let (Some(at), Some(bt)) = (a.ty.basic(), b.ty.basic()) else {
            // Only == and != apply to arrays and structs (GLSL 4.60 §5.9).
            if matches!(op, BinOp::Eq | BinOp::Ne) && a.ty == b.ty && !a.ty.contains_sampler() {
                return self.equality(op, a, b);
            }
            bail!(
                self,
                span,
                "operands of type {} and {} are not valid here",
                a.ty,
                b.ty
            );
        };
        let (ats, bts) = (a.ty.to_string(), b.ty.to_string());
        let bad = |s: &mut Self| -> R<Value> {
            bail!(
                s,
                span,
                "operator not defined for operands of type {ats} and {bts}"
            )
        };
        if at.base.is_sampler() || bt.base.is_sampler() {
            bail!(self, span, "operators are not defined on samplers");
        }
        if at.base == BaseType::Double || bt.base == BaseType::Double {
            return self.double_binary(op, a, b, span);
        }
        if at.base == BaseType::Uint64 || bt.base == BaseType::Uint64 {
            if matches!(op, BinOp::Eq | BinOp::Ne) && a.ty == b.ty {
                return self.equality(op, a, b);
            }
            bail!(self, span, "64-bit integer arithmetic is not supported yet");
        }
        match op {
            BinOp::LogXor | BinOp::LogAnd | BinOp::LogOr => {
                if a.ty != Type::BOOL || b.ty != Type::BOOL {
                    bail!(self, span, "operands of ^^ must be scalar bool");
                }
                let bop = match op {
                    BinOp::LogAnd => BinaryOp::LogicalAnd,
                    BinOp::LogOr => BinaryOp::LogicalOr,
                    _ => BinaryOp::LogicalXor,
                };
                let v = self.assign(ScalarKind::Bool, Op::Binary(bop, a.vars[0], b.vars[0]));
                return Ok(Value {
                    ty: Type::BOOL,
                    vars: vec![v],
                });
            }
            BinOp::Shl | BinOp::Shr => {
                let int = |x: BaseType| matches!(x, BaseType::Int | BaseType::Uint);
                if !int(at.base) || !int(bt.base) || at.cols > 1 || bt.cols > 1 {
                    return bad(self);
                }
                if !(bt.rows == 1 || bt.rows == at.rows) || (at.rows == 1 && bt.rows > 1) {
                    return bad(self);
                }
                let bop = match (op, at.base) {
                    (BinOp::Shl, _) => BinaryOp::Shl,
                    (_, BaseType::Int) => BinaryOp::ShrS,
                    _ => BinaryOp::ShrU,
                };
                let k = base_kind(at.base);
                let vars = self.zip_words(&a, &b, k, |_, x, y| Op::Binary(bop, x, y));
                return Ok(Value { ty: a.ty, vars });
            }
            _ => {}
        }
        let Some(base) = self.common_base(at.base, bt.base) else {
            return bad(self);
        };
        let a = self.convert_base(a, base, span)?;
        let b = self.convert_base(b, base, span)?;
        let (at, bt) = (vt(base, at.rows, at.cols), vt(base, bt.rows, bt.cols));
        match op {
            BinOp::Eq | BinOp::Ne => {
                if at != bt {
                    return bad(self);
                }
                self.equality(op, a, b)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                if !a.ty.is_scalar() || !b.ty.is_scalar() || base == BaseType::Bool {
                    return bad(self);
                }
                let bop = cmp_op(op, base);
                let v = self.assign(ScalarKind::Bool, Op::Binary(bop, a.vars[0], b.vars[0]));
                Ok(Value {
                    ty: Type::BOOL,
                    vars: vec![v],
                })
            }
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Rem => {
                if !matches!(base, BaseType::Int | BaseType::Uint) || at.cols > 1 || bt.cols > 1 {
                    return bad(self);
                }
                if at.rows != bt.rows && at.rows != 1 && bt.rows != 1 {
                    return bad(self);
                }
                let bop = match op {
                    BinOp::BitAnd => BinaryOp::And,
                    BinOp::BitOr => BinaryOp::Or,
                    BinOp::BitXor => BinaryOp::Xor,
                    _ if base == BaseType::Int => BinaryOp::SRem,
                    _ => BinaryOp::URem,
                };
                let ty = if at.rows >= bt.rows {
                    a.ty.clone()
                } else {
                    b.ty.clone()
                };
                let vars = self.zip_words(&a, &b, base_kind(base), |_, x, y| Op::Binary(bop, x, y));
                Ok(Value { ty, vars })
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
                if base == BaseType::Bool {
                    return bad(self);
                }
                if op == BinOp::Mul
                    && (at.cols > 1 || bt.cols > 1)
                    && at.rows * at.cols > 1
                    && bt.rows * bt.cols > 1
                {
                    return self.linear_mul(a, b, span);
                }
                let scalar_side = at.rows * at.cols == 1 || bt.rows * bt.cols == 1;
                if at != bt && !scalar_side {
                    return bad(self);
                }
                let bop = match (op, base) {
                    (BinOp::Add, BaseType::Float) => BinaryOp::FAdd,
                    (BinOp::Sub, BaseType::Float) => BinaryOp::FSub,
                    (BinOp::Mul, BaseType::Float) => BinaryOp::FMul,
                    (BinOp::Div, BaseType::Float) => BinaryOp::FDiv,
                    (BinOp::Add, _) => BinaryOp::IAdd,
                    (BinOp::Sub, _) => BinaryOp::ISub,
                    (BinOp::Mul, _) => BinaryOp::IMul,
                    (_, BaseType::Int) => BinaryOp::SDiv,
                    _ => BinaryOp::UDiv,
                };
                let ty = if at.rows * at.cols >= bt.rows * bt.cols {
                    a.ty.clone()
                } else {
                    b.ty.clone()
                };
                let vars = self.zip_words(&a, &b, base_kind(base), |_, x, y| Op::Binary(bop, x, y));
                Ok(Value { ty, vars })
            }
            _ => bad(self),
        }
    }

    /// `==` / `!=` on any type: all words equal (GLSL 4.60 §5.9).
    fn equality(&mut self, op: BinOp, a: Value, b: Value) -> R<Value> {
        let mut kinds = Vec::new();
        a.ty.word_kinds(&mut kinds);
        let mut doubles = Vec::new();
        super::double::double_starts(&a.ty, &mut doubles);
        let mut acc: Option<Var> = None;
        for (i, ((x, y), k)) in a.vars.iter().zip(&b.vars).zip(kinds).enumerate() {
            if doubles.get(i) == Some(&true) {
                // A double compares as one IEEE value (its high word is skipped below).
                let e = self.double_word_eq(&a.vars, &b.vars, i);
                acc = Some(match acc {
                    Some(p) => {
                        self.assign(ScalarKind::Bool, Op::Binary(BinaryOp::LogicalAnd, p, e))
                    }
                    None => e,
                });
                continue;
            }
            if i > 0 && doubles.get(i - 1) == Some(&true) {
                continue;
            }
            let bop = match k {
                ScalarKind::F32 => BinaryOp::FEq,
                ScalarKind::Bool => BinaryOp::LogicalEq,
                _ => BinaryOp::IEq,
            };
            let e = self.assign(ScalarKind::Bool, Op::Binary(bop, *x, *y));
            acc = Some(match acc {
                Some(p) => self.assign(ScalarKind::Bool, Op::Binary(BinaryOp::LogicalAnd, p, e)),
                None => e,
            });
        }
        let mut r = match acc {
            Some(r) => r,
            None => self.konst(Scalar::Bool(true)),
        };
        if op == BinOp::Ne {
            r = self.assign(ScalarKind::Bool, Op::Unary(UnaryOp::LogicalNot, r));
        }
        Ok(Value {
            ty: Type::BOOL,
            vars: vec![r],
        })
    }

    /// mat*mat, mat*vec, vec*mat (GLSL 4.60 §5.10), summed left to right without FMA.
    fn linear_mul(&mut self, a: Value, b: Value, span: Span) -> R<Value> {
        let (Some(at), Some(bt)) = (a.ty.basic(), b.ty.basic()) else {
            return Err(());
        };
        // Treat a vector on the left as a 1-row matrix, on the right as a 1-column matrix.
        let (ar, ac) = if at.cols == 1 {
            (1, at.rows)
        } else {
            (at.rows, at.cols)
        };
        let (br, bc) = (bt.rows, bt.cols);
        if at.base != BaseType::Float || ac != br {
            bail!(self, span, "cannot multiply {} by {}", a.ty, b.ty);
        }
        let get_a = |r: u8, k: u8| -> Var {
            if at.cols == 1 {
                a.vars[k as usize]
            } else {
                a.vars[(k * at.rows + r) as usize]
            }
        };
        let mut vars = Vec::new();
        for c in 0..bc {
            for r in 0..ar {
                let mut acc: Option<Var> = None;
                for k in 0..ac {
                    let x = get_a(r, k);
                    let y = b.vars[(c * br + k) as usize];
                    let m = self.assign(ScalarKind::F32, Op::Binary(BinaryOp::FMul, x, y));
                    acc = Some(match acc {
                        Some(p) => self.assign(ScalarKind::F32, Op::Binary(BinaryOp::FAdd, p, m)),
                        None => m,
                    });
                }
                if let Some(v) = acc {
                    vars.push(v);
                }
            }
        }
        let ty = if at.cols == 1 {
            Type::vector(BaseType::Float, bc)
        } else if bc == 1 {
            Type::vector(BaseType::Float, ar)
        } else {
            Type::Basic(vt(BaseType::Float, ar, bc))
        };
        Ok(Value { ty, vars })
    }

    // ---- calls and constructors ----

    fn call(&mut self, callee: &Callee, args: &[Expr], span: Span) -> R<Value> {
        match callee {
            Callee::Type(ts) => {
                let base = self.resolve_type(&ts.clone_without_dims())?;
                let n = match ts.dims.first() {
                    Some(None) => Some(args.len() as u32),
                    _ => None,
                };
                let ty = self.apply_dims(base, &ts.dims, n, ts.span)?;
                self.construct(&ty, args, span)
            }
            Callee::Indexed(name, index) => {
                match self.subroutine_call(name, Some(index), args, span) {
                    Some(r) => r,
                    None => bail!(
                        self,
                        span,
                        "`{name}' is not an array of subroutine uniforms"
                    ),
                }
            }
            Callee::Name(name) => {
                // A subroutine uniform is a variable: it is called before the lookups
                // below, which refuse to call a variable.
                if let Some(r) = self.subroutine_call(name, None, args, span) {
                    return r;
                }
                if let Some(t) = builtin_type(name) {
                    let ty = match t {
                        Ok(t) => t,
                        Err(msg) => bail!(self, span, "{msg}"),
                    };
                    if ty.base() == Some(BaseType::Uint64) && !self.int64 {
                        bail!(self, span, "`{name}' requires GL_ARB_gpu_shader_int64");
                    }
                    return self.construct(&ty, args, span);
                }
                let local = self.scopes.iter().rev().find_map(|s| s.get(name).cloned());
                match local {
                    Some(Sym::Struct(s)) => return self.construct(&Type::Struct(s), args, span),
                    Some(Sym::Var(_)) if !self.funcs.contains_key(name) => {
                        bail!(self, span, "`{name}' is not a function")
                    }
                    _ => {}
                }
                if let Some(mut list) = self.funcs.get(name).cloned() {
                    if self.units.len() > 1 {
                        // Only the overloads this unit declares (see `fn_units`).
                        let seen = self.fn_units.get(name);
                        list.retain(|d| {
                            seen.is_some_and(|v| {
                                v.iter().any(|(t, u)| {
                                    *u == self.unit && t.iter().eq(d.params.iter().map(|p| &p.0))
                                })
                            })
                        });
                    }
                    // GLSL 4.60 §4.2.7 (desktop GLSL, as Mesa): a function the shader
                    // declares hides every built-in of its name, those with special
                    // lowering (barrier, atomics, EmitVertex) included.
                    if !list.is_empty() {
                        return self.user_call(name, &list, args, span);
                    }
                }
                if let Some(r) = self.atomic_call(name, args, span) {
                    return r;
                }
                if let Some(r) = self.image_call(name, args, span) {
                    return r;
                }
                if let Some(r) = self.atomic_counter_call(name, args, span) {
                    return r;
                }
                if let Some(r) = self.barrier_call(name, args, span) {
                    return r;
                }
                if let Some(r) = self.geometry_call(name, args, span) {
                    return r;
                }
                let mut places = Vec::with_capacity(args.len());
                for a in args {
                    places.push(self.place(a)?);
                }
                if places.iter().any(|p| p.ty.contains_base(BaseType::Double)) {
                    if let Some(r) = self.double_builtin(name, &places, args, span) {
                        return r;
                    }
                }
                if name == "packDouble2x32" && places.len() == 1 {
                    let v = self.read(&places[0], args[0].span)?;
                    return self.pack_double(v, span);
                }
                match self.builtin_call(name, &places, args, span)? {
                    Some(v) => Ok(v),
                    None => bail!(self, span, "no function with name `{name}'"),
                }
            }
        }
    }

    fn user_call(
        &mut self,
        name: &str,
        list: &[std::rc::Rc<FnDef>],
        args: &[Expr],
        span: Span,
    ) -> R<Value> {
        let mut places = Vec::with_capacity(args.len());
        for a in args {
            places.push(self.place(a)?);
        }
        // Overload resolution (GLSL 4.60 §6.1): an exact match, else the one candidate
        // reachable through implicit conversions of `in` arguments.
        let exact = list.iter().find(|d| {
            d.params.len() == places.len() && d.params.iter().zip(&places).all(|(p, a)| p.0 == a.ty)
        });
        let def = match exact {
            Some(d) => d.clone(),
            None => {
                let cands: Vec<_> = list
                    .iter()
                    .filter(|d| {
                        d.params.len() == places.len()
                            && d.params.iter().zip(&places).all(|(p, a)| match p.1 {
                                ParamDir::In => self.implicitly(&a.ty, &p.0),
                                ParamDir::Out => self.implicitly(&p.0, &a.ty),
                                ParamDir::InOut => {
                                    self.implicitly(&a.ty, &p.0) && self.implicitly(&p.0, &a.ty)
                                }
                            })
                    })
                    .cloned()
                    .collect();
                match cands.len() {
                    1 => cands[0].clone(),
                    0 => {
                        let sig: Vec<String> = places.iter().map(|p| p.ty.to_string()).collect();
                        bail!(
                            self,
                            span,
                            "no matching function for call to `{name}({})'",
                            sig.join(", ")
                        )
                    }
                    _ => bail!(self, span, "call to `{name}' is ambiguous"),
                }
            }
        };
        let mut vals = Vec::with_capacity(places.len());
        let mut counter_args = Vec::with_capacity(places.len());
        for ((p, (pt, dir)), a) in places.iter().zip(&def.params).zip(args) {
            if pt.contains_base(BaseType::AtomicUint) {
                // A counter parameter names the caller's counter (`atomic_counter.rs`).
                counter_args.push(Some(p.clone()));
                let vars = self.new_vars_for(pt);
                vals.push(Value {
                    ty: pt.clone(),
                    vars,
                });
                continue;
            }
            counter_args.push(None);
            if *dir != ParamDir::In && !p.writable {
                bail!(
                    self,
                    a.span,
                    "argument for an out or inout parameter of `{name}' is not a writable l-value"
                );
            }
            if *dir == ParamDir::Out {
                let vars = self.new_vars_for(pt);
                vals.push(Value {
                    ty: pt.clone(),
                    vars,
                });
            } else {
                let v = self.read(p, a.span)?;
                vals.push(self.coerce(v, pt, a.span)?);
            }
        }
        self.counter_args = counter_args;
        let (pvars, ret) = self.inline_body(&def, vals, span)?;
        for ((p, (pt, dir)), vars) in places.iter().zip(&def.params).zip(pvars) {
            if *dir != ParamDir::In {
                let v = Value {
                    ty: pt.clone(),
                    vars: vars.to_vec(),
                };
                let v = self.coerce(v, &p.ty, span)?;
                self.write(p, &v, span)?;
            }
        }
        Ok(ret.unwrap_or(Value {
            ty: Type::Void,
            vars: Vec::new(),
        }))
    }

    /// Constructors (GLSL 4.60 §5.4) and the bindless/int64 handle conversions.
    pub fn construct(&mut self, ty: &Type, args: &[Expr], span: Span) -> R<Value> {
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            let v = self.expr(a)?;
            if matches!(v.ty, Type::Void) {
                bail!(self, a.span, "void value used as a constructor argument");
            }
            vals.push(v);
        }
        match ty {
            Type::Void => bail!(self, span, "cannot construct void"),
            Type::Array(e, n) => {
                if vals.len() != *n as usize {
                    bail!(
                        self,
                        span,
                        "array constructor for {ty} needs {n} arguments, got {}",
                        vals.len()
                    );
                }
                let mut vars = Vec::new();
                for (v, a) in vals.into_iter().zip(args) {
                    vars.extend(self.coerce(v, e, a.span)?.vars);
                }
                Ok(Value {
                    ty: ty.clone(),
                    vars,
                })
            }
            Type::Struct(s) => {
                if vals.len() != s.members.len() {
                    bail!(
                        self,
                        span,
                        "constructor for `{}' needs {} arguments, got {}",
                        s.name,
                        s.members.len(),
                        vals.len()
                    );
                }
                let mut vars = Vec::new();
                for ((v, a), (_, mt)) in vals.into_iter().zip(args).zip(&s.members) {
                    vars.extend(self.coerce(v, mt, a.span)?.vars);
                }
                Ok(Value {
                    ty: ty.clone(),
                    vars,
                })
            }
            Type::Basic(t) => self.construct_basic(*t, vals, span),
        }
    }

    fn construct_basic(
        &mut self,
        t: crate::ir::ValueType,
        vals: Vec<Value>,
        span: Span,
    ) -> R<Value> {
        let ty = Type::Basic(t);
        if vals.is_empty() {
            bail!(self, span, "constructor for {ty} needs arguments");
        }
        for v in &vals {
            if v.ty.basic().is_none() {
                bail!(self, span, "cannot construct {ty} from {}", v.ty);
            }
        }
        // Handles: sampler2D(uvec2 | uint64_t), uvec2(sampler2D), uint64_t(...).
        let first = vals[0].ty.basic().unwrap_or(t);
        if t.base.is_sampler() {
            self.need_bindless(span, "a sampler constructor")?;
            if vals.len() == 1
                && (vals[0].ty == Type::vector(BaseType::Uint, 2)
                    || vals[0].ty == Type::scalar(BaseType::Uint64)
                    || vals[0].ty == ty)
            {
                return Ok(Value {
                    ty,
                    vars: vals[0].vars.clone(),
                });
            }
            bail!(
                self,
                span,
                "{ty} can only be constructed from uvec2 or uint64_t"
            );
        }
        if first.base.is_sampler() {
            self.need_bindless(span, "converting a sampler")?;
            if vals.len() == 1
                && (ty == Type::vector(BaseType::Uint, 2) || ty == Type::scalar(BaseType::Uint64))
            {
                return Ok(Value {
                    ty,
                    vars: vals[0].vars.clone(),
                });
            }
            bail!(self, span, "a sampler converts only to uvec2 or uint64_t");
        }
        if t.base == BaseType::Uint64 || vals.iter().any(|v| v.ty.base() == Some(BaseType::Uint64))
        {
            return self.construct_u64(t, vals, span);
        }
        let (t, vals) = match self.construct_double(t, vals.clone(), span) {
            Some(r) => r?,
            None => (t, vals),
        };
        if t.base == BaseType::Double {
            return self.construct_doubles(t, vals, span);
        }
        let first = vals[0].ty.basic().unwrap_or(t);
        // Scalar broadcast and matrix-from-scalar (diagonal).
        if vals.len() == 1 && vals[0].ty.is_scalar() {
            let x = self.conv_word(vals[0].vars[0], first.base, t.base);
            let vars = if t.cols > 1 {
                let zero = self.konst(Scalar::F32(0.0));
                (0..t.cols)
                    .flat_map(|c| (0..t.rows).map(move |r| (c, r)))
                    .map(|(c, r)| if c == r { x } else { zero })
                    .collect()
            } else {
                vec![x; t.rows as usize]
            };
            return Ok(Value { ty, vars });
        }
        // Matrix from matrix: overlapping part copied, identity elsewhere.
        if t.cols > 1 && vals.len() == 1 && vals[0].ty.is_matrix() {
            let src = vals[0].ty.basic().unwrap_or(t);
            let v = self.convert_base(vals[0].clone(), BaseType::Float, span)?;
            let zero = self.konst(Scalar::F32(0.0));
            let one = self.konst(Scalar::F32(1.0));
            let mut vars = Vec::new();
            for c in 0..t.cols {
                for r in 0..t.rows {
                    vars.push(if c < src.cols && r < src.rows {
                        v.vars[(c * src.rows + r) as usize]
                    } else if c == r {
                        one
                    } else {
                        zero
                    });
                }
            }
            return Ok(Value { ty, vars });
        }
        if t.cols > 1 && vals.iter().any(|v| v.ty.is_matrix()) {
            bail!(
                self,
                span,
                "a matrix argument to a matrix constructor must be the only one"
            );
        }
        let need = (t.rows * t.cols) as usize;
        let mut comps = Vec::with_capacity(need);
        for (i, v) in vals.iter().enumerate() {
            if comps.len() >= need {
                bail!(self, span, "too many arguments to constructor of {ty}");
            }
            let b = v.ty.basic().unwrap_or(t);
            for x in &v.vars {
                if comps.len() < need {
                    comps.push(self.conv_word(*x, b.base, t.base));
                }
            }
            let _ = i;
        }
        if comps.len() < need {
            if t.rows * t.cols == 1 {
                // Unreachable: a scalar constructor takes one component from any argument.
            }
            bail!(self, span, "too few arguments to constructor of {ty}");
        }
        Ok(Value { ty, vars: comps })
    }

    /// uint64_t / u64vecN constructors (GL_ARB_gpu_shader_int64); only value-preserving
    /// forms that need no 64-bit arithmetic.
    fn construct_u64(&mut self, t: crate::ir::ValueType, vals: Vec<Value>, span: Span) -> R<Value> {
        let ty = Type::Basic(t);
        if t.base == BaseType::Uint64 {
            let mut comps: Vec<(Var, Var)> = Vec::new();
            let zero = self.konst(Scalar::U32(0));
            for v in &vals {
                let b = v.ty.basic().unwrap_or(t);
                match b.base {
                    BaseType::Uint64 => {
                        for p in v.vars.chunks(2) {
                            comps.push((p[0], p[1]));
                        }
                    }
                    BaseType::Uint => comps.extend(v.vars.iter().map(|x| (*x, zero))),
                    BaseType::Int => {
                        for x in &v.vars {
                            let s31 = self.konst(Scalar::I32(31));
                            let hi =
                                self.assign(ScalarKind::I32, Op::Binary(BinaryOp::ShrS, *x, s31));
                            let hi = self.assign(ScalarKind::U32, Op::Unary(UnaryOp::I2U, hi));
                            let lo = self.assign(ScalarKind::U32, Op::Unary(UnaryOp::I2U, *x));
                            comps.push((lo, hi));
                        }
                    }
                    BaseType::Bool => {
                        for x in &v.vars {
                            let lo = self.assign(ScalarKind::U32, Op::Unary(UnaryOp::B2U, *x));
                            comps.push((lo, zero));
                        }
                    }
                    _ => bail!(self, span, "64-bit integer arithmetic is not supported yet"),
                }
            }
            let n = t.rows as usize;
            let comps = if comps.len() == 1 && vals.len() == 1 {
                vec![comps[0]; n]
            } else if comps.len() >= n {
                if comps.len() > n && vals.len() > 1 {
                    bail!(self, span, "too many arguments to constructor of {ty}");
                }
                comps[..n].to_vec()
            } else {
                bail!(self, span, "too few arguments to constructor of {ty}");
            };
            let vars = comps.into_iter().flat_map(|(a, b)| [a, b]).collect();
            return Ok(Value { ty, vars });
        }
        // From uint64_t to a 32-bit type: the low word (a value conversion mod 2^32).
        if vals.len() == 1 && matches!(t.base, BaseType::Uint | BaseType::Int | BaseType::Bool) {
            let los: Vec<Var> = vals[0].vars.chunks(2).map(|p| p[0]).collect();
            if t.base == BaseType::Bool {
                let vars: Vec<Var> = vals[0]
                    .vars
                    .chunks(2)
                    .map(|p| {
                        let o = self.assign(ScalarKind::U32, Op::Binary(BinaryOp::Or, p[0], p[1]));
                        self.assign(ScalarKind::Bool, Op::Unary(UnaryOp::I2B, o))
                    })
                    .collect();
                return self.take_comps(ty, vars, span);
            }
            let vars: Vec<Var> = los
                .into_iter()
                .map(|x| self.conv_word(x, BaseType::Uint, t.base))
                .collect();
            return self.take_comps(ty, vars, span);
        }
        bail!(self, span, "64-bit integer arithmetic is not supported yet")
    }

    fn take_comps(&mut self, ty: Type, comps: Vec<Var>, span: Span) -> R<Value> {
        let n = ty.words() as usize;
        if comps.len() == 1 {
            return Ok(Value {
                vars: vec![comps[0]; n],
                ty,
            });
        }
        if comps.len() < n {
            bail!(self, span, "too few arguments to constructor of {ty}");
        }
        Ok(Value {
            vars: comps[..n].to_vec(),
            ty,
        })
    }

    /// Reads each argument place as a value.
    pub fn read_args(&mut self, places: &[Place], args: &[Expr]) -> R<Vec<Value>> {
        let mut out = Vec::with_capacity(places.len());
        for (p, a) in places.iter().zip(args) {
            out.push(self.read(p, a.span)?);
        }
        Ok(out)
    }
}

pub fn cmp_op(op: BinOp, base: BaseType) -> BinaryOp {
    match (op, base) {
        (BinOp::Lt, BaseType::Float) => BinaryOp::FLt,
        (BinOp::Le, BaseType::Float) => BinaryOp::FLe,
        (BinOp::Gt, BaseType::Float) => BinaryOp::FGt,
        (BinOp::Ge, BaseType::Float) => BinaryOp::FGe,
        (BinOp::Lt, BaseType::Int) => BinaryOp::SLt,
        (BinOp::Le, BaseType::Int) => BinaryOp::SLe,
        (BinOp::Gt, BaseType::Int) => BinaryOp::SGt,
        (BinOp::Ge, BaseType::Int) => BinaryOp::SGe,
        (BinOp::Lt, _) => BinaryOp::ULt,
        (BinOp::Le, _) => BinaryOp::ULe,
        (BinOp::Gt, _) => BinaryOp::UGt,
        _ => BinaryOp::UGe,
    }
}

impl super::ast::TypeSpec {
    /// The same type without array dimensions.
    pub fn clone_without_dims(&self) -> super::ast::TypeSpec {
        super::ast::TypeSpec {
            name: self.name.clone(),
            struct_def: self.struct_def.clone(),
            dims: Vec::new(),
            span: self.span,
        }
    }
}
