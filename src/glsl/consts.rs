//! Constant-expression evaluation (GLSL 4.60 §4.3.3): what array sizes, `case` labels,
//! `textureOffset` offsets, layout values and uniform initializers (§4.3.5) need. Folds
//! literals, `const` variables, operators, constructors of scalars, vectors, matrices,
//! structs and arrays of any of them, swizzles, indexing and member selection of constants,
//! `.length()` of sized arrays and the built-ins `min`, `max`, `clamp` and `abs` (GLSL 4.60
//! §4.3.3 counts built-in calls with constant arguments as constant; these are the ones
//! array sizes use); anything else is "not constant" (`None`), and the caller reports why
//! it needed a constant. A value is its words in the tight layout of its type
//! (`Type::words`): column-major matrices, arrays and structs flattened in order.

use crate::ir::interp::eval_binary;
use crate::ir::validate::binary_result;
use crate::ir::{BaseType, BinaryOp, Scalar, ScalarKind};

use std::rc::Rc;

use super::ast::{BinOp, Callee, Expr, ExprKind, UnOp};
use super::limits::{MAX_EXPRESSION_NESTING, MAX_OPERATOR_CHAIN};
use super::types::{vt, StructDef, Type};

/// A folded constant: its type and one scalar per word of the type's tight layout.
#[derive(Clone, Debug, PartialEq)]
pub struct CVal {
    pub ty: Type,
    pub vals: Vec<Scalar>,
}

impl CVal {
    pub fn scalar(s: Scalar) -> CVal {
        let base = match s {
            Scalar::F32(_) => BaseType::Float,
            Scalar::I32(_) => BaseType::Int,
            Scalar::U32(_) => BaseType::Uint,
            Scalar::Bool(_) => BaseType::Bool,
        };
        CVal {
            ty: Type::scalar(base),
            vals: vec![s],
        }
    }
    /// The value as an array size / index: a non-negative int or uint scalar.
    pub fn as_index(&self) -> Option<i64> {
        match (self.vals.as_slice(), self.ty.is_scalar()) {
            ([Scalar::I32(i)], true) => Some(*i as i64),
            ([Scalar::U32(u)], true) => Some(*u as i64),
            _ => None,
        }
    }
}

/// Converts a scalar constant to another base type (GLSL 4.60 §5.4.1 conversions).
pub fn convert_scalar(s: Scalar, to: BaseType) -> Option<Scalar> {
    Some(match (s, to) {
        (Scalar::F32(f), BaseType::Float) => Scalar::F32(f),
        (Scalar::F32(f), BaseType::Int) => Scalar::I32(f as i32),
        (Scalar::F32(f), BaseType::Uint) => Scalar::U32(f as i32 as u32),
        (Scalar::F32(f), BaseType::Bool) => Scalar::Bool(f != 0.0),
        (Scalar::I32(i), BaseType::Float) => Scalar::F32(i as f32),
        (Scalar::I32(i), BaseType::Int) => Scalar::I32(i),
        (Scalar::I32(i), BaseType::Uint) => Scalar::U32(i as u32),
        (Scalar::I32(i), BaseType::Bool) => Scalar::Bool(i != 0),
        (Scalar::U32(u), BaseType::Float) => Scalar::F32(u as f32),
        (Scalar::U32(u), BaseType::Int) => Scalar::I32(u as i32),
        (Scalar::U32(u), BaseType::Uint) => Scalar::U32(u),
        (Scalar::U32(u), BaseType::Bool) => Scalar::Bool(u != 0),
        (Scalar::Bool(b), BaseType::Float) => Scalar::F32(b as u32 as f32),
        (Scalar::Bool(b), BaseType::Int) => Scalar::I32(b as i32),
        (Scalar::Bool(b), BaseType::Uint) => Scalar::U32(b as u32),
        (Scalar::Bool(b), BaseType::Bool) => Scalar::Bool(b),
        _ => return None,
    })
}

fn rank(b: BaseType) -> u8 {
    match b {
        BaseType::Int => 1,
        BaseType::Uint => 2,
        BaseType::Float => 3,
        _ => 0,
    }
}

/// The IR operation a GLSL binary operator performs on operands of `kind` (shifts take
/// either integer kind on the right).
fn ir_binary(op: BinOp, kind: ScalarKind) -> Option<BinaryOp> {
    use BinaryOp as I;
    use ScalarKind::{Bool, F32, I32, U32};
    Some(match (op, kind) {
        (BinOp::Add, F32) => I::FAdd,
        (BinOp::Sub, F32) => I::FSub,
        (BinOp::Mul, F32) => I::FMul,
        (BinOp::Div, F32) => I::FDiv,
        (BinOp::Eq, F32) => I::FEq,
        (BinOp::Ne, F32) => I::FNe,
        (BinOp::Lt, F32) => I::FLt,
        (BinOp::Le, F32) => I::FLe,
        (BinOp::Gt, F32) => I::FGt,
        (BinOp::Ge, F32) => I::FGe,
        (BinOp::Add, I32 | U32) => I::IAdd,
        (BinOp::Sub, I32 | U32) => I::ISub,
        (BinOp::Mul, I32 | U32) => I::IMul,
        (BinOp::Div, I32) => I::SDiv,
        (BinOp::Div, U32) => I::UDiv,
        (BinOp::Rem, I32) => I::SRem,
        (BinOp::Rem, U32) => I::URem,
        (BinOp::Shl, I32 | U32) => I::Shl,
        (BinOp::Shr, I32) => I::ShrS,
        (BinOp::Shr, U32) => I::ShrU,
        (BinOp::BitAnd, I32 | U32) => I::And,
        (BinOp::BitOr, I32 | U32) => I::Or,
        (BinOp::BitXor, I32 | U32) => I::Xor,
        (BinOp::Eq, I32 | U32) => I::IEq,
        (BinOp::Ne, I32 | U32) => I::INe,
        (BinOp::Lt, I32) => I::SLt,
        (BinOp::Le, I32) => I::SLe,
        (BinOp::Gt, I32) => I::SGt,
        (BinOp::Ge, I32) => I::SGe,
        (BinOp::Lt, U32) => I::ULt,
        (BinOp::Le, U32) => I::ULe,
        (BinOp::Gt, U32) => I::UGt,
        (BinOp::Ge, U32) => I::UGe,
        (BinOp::LogAnd, Bool) => I::LogicalAnd,
        (BinOp::LogOr, Bool) => I::LogicalOr,
        (BinOp::LogXor | BinOp::Ne, Bool) => I::LogicalXor,
        (BinOp::Eq, Bool) => I::LogicalEq,
        _ => return None,
    })
}

/// Folds a binary operator with the reference interpreter's semantics for the IR op the
/// lowering would emit (`ir::interp::eval_binary`), so a folded constant is bit for bit
/// what the shader would compute at run time (division by zero, shift counts, NaN...).
fn fold_bin(op: BinOp, a: Scalar, b: Scalar) -> Option<Scalar> {
    let (ka, kb) = (a.kind(), b.kind());
    let shift = matches!(op, BinOp::Shl | BinOp::Shr);
    let int = |k| matches!(k, ScalarKind::I32 | ScalarKind::U32);
    if ka != kb && !(shift && int(ka) && int(kb)) {
        return None;
    }
    let ir_op = ir_binary(op, ka)?;
    let kind = binary_result(ir_op, ka, kb)?;
    let bits = eval_binary(ir_op, a.bits(), b.bits());
    Some(match kind {
        ScalarKind::F32 => Scalar::F32(f32::from_bits(bits)),
        ScalarKind::I32 => Scalar::I32(bits as i32),
        ScalarKind::U32 => Scalar::U32(bits),
        ScalarKind::Bool => Scalar::Bool(bits != 0),
    })
}

/// Evaluates `e` as a constant expression; `lookup` resolves identifiers to constants,
/// `array_len` gives the length of an array-typed identifier for `.length()` and `structs`
/// the struct type a name declares (for its constructor).
pub fn eval(
    e: &Expr,
    lookup: &dyn Fn(&str) -> Option<CVal>,
    array_len: &dyn Fn(&str) -> Option<u32>,
    structs: &dyn Fn(&str) -> Option<Rc<StructDef>>,
    depth: u32,
) -> Option<CVal> {
    // The parser bounds a syntax tree's depth by these two limits; the check only keeps
    // this function safe on trees built by other means.
    if depth > MAX_EXPRESSION_NESTING + MAX_OPERATOR_CHAIN {
        return None;
    }
    let rec = |x: &Expr| eval(x, lookup, array_len, structs, depth + 1);
    match &e.kind {
        ExprKind::Int(i) => Some(CVal::scalar(Scalar::I32(*i))),
        ExprKind::Uint(u) => Some(CVal::scalar(Scalar::U32(*u))),
        ExprKind::Float(f) => Some(CVal::scalar(Scalar::F32(*f))),
        ExprKind::Bool(b) => Some(CVal::scalar(Scalar::Bool(*b))),
        ExprKind::Ident(n) => lookup(n),
        ExprKind::Unary(op, x) => {
            let v = rec(x)?;
            let vals = v
                .vals
                .iter()
                .map(|s| {
                    Some(match (op, *s) {
                        (UnOp::Plus, s) => s,
                        (UnOp::Neg, Scalar::F32(f)) => Scalar::F32(-f),
                        (UnOp::Neg, Scalar::I32(i)) => Scalar::I32(i.wrapping_neg()),
                        (UnOp::Neg, Scalar::U32(u)) => Scalar::U32(u.wrapping_neg()),
                        (UnOp::BitNot, Scalar::I32(i)) => Scalar::I32(!i),
                        (UnOp::BitNot, Scalar::U32(u)) => Scalar::U32(!u),
                        (UnOp::LogNot, Scalar::Bool(b)) if v.ty.is_scalar() => Scalar::Bool(!b),
                        _ => return None,
                    })
                })
                .collect::<Option<Vec<_>>>()?;
            Some(CVal { ty: v.ty, vals })
        }
        ExprKind::Binary(op, a, b) => {
            let a = rec(a)?;
            let b = rec(b)?;
            let (ab, bb) = (a.ty.basic()?, b.ty.basic()?);
            if ab.cols > 1 || bb.cols > 1 {
                return None;
            }
            // Implicit conversion to the higher-ranked type (§4.1.10), except for shifts.
            let shift = matches!(op, BinOp::Shl | BinOp::Shr);
            let target = if shift || ab.base == bb.base {
                None
            } else if rank(ab.base) > 0 && rank(bb.base) > 0 {
                Some(if rank(ab.base) > rank(bb.base) {
                    ab.base
                } else {
                    bb.base
                })
            } else {
                return None;
            };
            let conv = |v: &CVal| -> Option<Vec<Scalar>> {
                match target {
                    Some(t) => v.vals.iter().map(|s| convert_scalar(*s, t)).collect(),
                    None => Some(v.vals.clone()),
                }
            };
            let (av, bv) = (conv(&a)?, conv(&b)?);
            let n = av.len().max(bv.len());
            if av.len() != bv.len() && av.len() != 1 && bv.len() != 1 {
                return None;
            }
            let mut vals = Vec::with_capacity(n);
            for i in 0..n {
                let x = av[if av.len() == 1 { 0 } else { i }];
                let y = bv[if bv.len() == 1 { 0 } else { i }];
                vals.push(fold_bin(*op, x, y)?);
            }
            if matches!(op, BinOp::Eq | BinOp::Ne) {
                if av.len() != bv.len() {
                    return None;
                }
                let all = vals.iter().all(|v| *v == Scalar::Bool(true));
                let any = vals.contains(&Scalar::Bool(true));
                let r = if *op == BinOp::Eq { all } else { any };
                return Some(CVal::scalar(Scalar::Bool(r)));
            }
            if matches!(
                op,
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::LogAnd | BinOp::LogOr
            ) && n != 1
            {
                return None;
            }
            let base = match vals[0] {
                Scalar::F32(_) => BaseType::Float,
                Scalar::I32(_) => BaseType::Int,
                Scalar::U32(_) => BaseType::Uint,
                Scalar::Bool(_) => BaseType::Bool,
            };
            Some(CVal {
                ty: Type::Basic(vt(base, n as u8, 1)),
                vals,
            })
        }
        ExprKind::Ternary(c, a, b) => {
            let c = rec(c)?;
            match c.vals.as_slice() {
                [Scalar::Bool(true)] => rec(a),
                [Scalar::Bool(false)] => rec(b),
                _ => None,
            }
        }
        ExprKind::Call(Callee::Name(n), args)
            if matches!(n.as_str(), "min" | "max" | "clamp" | "abs") =>
        {
            let args = args.iter().map(rec).collect::<Option<Vec<_>>>()?;
            eval_builtin(n, &args)
        }
        ExprKind::Call(Callee::Name(n), args) => {
            let ty = match super::types::builtin_type(n) {
                Some(t) => t.ok()?,
                None => Type::Struct(structs(n)?),
            };
            let args = args.iter().map(rec).collect::<Option<Vec<_>>>()?;
            construct(&ty, args)
        }
        // An array constructor (`ivec2[4](...)`, `float[](...)`, `S[2](...)`,
        // `mat2[2](...)`): as many arguments as the size says, each of the element type or
        // implicitly converted to it (GLSL 4.60 §5.4.4).
        ExprKind::Call(Callee::Type(ts), args) if ts.struct_def.is_none() && ts.dims.len() == 1 => {
            let elem = match super::types::builtin_type(&ts.name) {
                Some(t) => t.ok()?,
                None => Type::Struct(structs(&ts.name)?),
            };
            if let Some(Some(size)) = ts.dims.first() {
                if rec(size)?.as_index()? != args.len() as i64 {
                    return None;
                }
            }
            let n = u32::try_from(args.len()).ok()?;
            let args = args.iter().map(rec).collect::<Option<Vec<_>>>()?;
            construct(&Type::Array(Box::new(elem), n), args)
        }
        ExprKind::Length(x) => match &x.kind {
            ExprKind::Ident(n) => array_len(n).map(|l| CVal::scalar(Scalar::I32(l as i32))),
            _ => {
                let v = rec(x)?;
                if v.ty.is_vector() {
                    Some(CVal::scalar(Scalar::I32(v.vals.len() as i32)))
                } else {
                    None
                }
            }
        },
        ExprKind::Field(x, sw) => {
            let v = rec(x)?;
            if let Type::Struct(def) = &v.ty {
                // A member: its words, after those of the members before it.
                let mut at = 0usize;
                for (m, t) in &def.members {
                    let w = t.words() as usize;
                    if m == sw {
                        return Some(CVal {
                            ty: t.clone(),
                            vals: v.vals.get(at..at + w)?.to_vec(),
                        });
                    }
                    at += w;
                }
                return None;
            }
            if !(v.ty.is_vector() || v.ty.is_scalar()) {
                return None;
            }
            let idx = super::lower::swizzle_indices(sw)?;
            let vals = idx
                .iter()
                .map(|&i| v.vals.get(i as usize).copied())
                .collect::<Option<Vec<_>>>()?;
            let base = v.ty.base()?;
            Some(CVal {
                ty: Type::Basic(vt(base, vals.len() as u8, 1)),
                vals,
            })
        }
        ExprKind::Index(x, i) => {
            let v = rec(x)?;
            let i = usize::try_from(rec(i)?.as_index()?).ok()?;
            // An array's element or a matrix's column: a slice of whole words.
            let (elem, n) = match &v.ty {
                Type::Array(e, n) => ((**e).clone(), *n as usize),
                Type::Basic(b) if b.cols > 1 => (Type::vector(b.base, b.rows), b.cols as usize),
                t if t.is_vector() => return Some(CVal::scalar(*v.vals.get(i)?)),
                _ => return None,
            };
            if i >= n {
                return None;
            }
            let w = elem.words() as usize;
            Some(CVal {
                vals: v.vals.get(i * w..(i + 1) * w)?.to_vec(),
                ty: elem,
            })
        }
        _ => None,
    }
}

/// `c` as a value of type `ty`: the same value, or a scalar, vector or matrix implicitly
/// converted (GLSL 4.60 §4.1.10: int to uint or float, uint to float; the caller's type
/// check decides which conversions the version allows). `None` when the shapes differ.
pub fn convert_to(c: CVal, ty: &Type) -> Option<CVal> {
    if c.ty == *ty {
        return Some(c);
    }
    let (Type::Basic(f), Type::Basic(t)) = (&c.ty, ty) else {
        return None;
    };
    if f.rows != t.rows || f.cols != t.cols || c.vals.len() != t.words() as usize {
        return None;
    }
    let vals = c
        .vals
        .iter()
        .map(|s| convert_scalar(*s, t.base))
        .collect::<Option<Vec<_>>>()?;
    Some(CVal {
        ty: ty.clone(),
        vals,
    })
}

/// The constructor of `ty` applied to constants, with the lowering's rules
/// (`construct`, `construct_basic` in `expr.rs`): arrays and structs take one argument per
/// element or member (implicitly converted); scalars, vectors and matrices take a scalar
/// (broadcast, or a diagonal), a matrix alone (resized: identity outside it), or enough
/// components, each converted to the type's base.
fn construct(ty: &Type, args: Vec<CVal>) -> Option<CVal> {
    let parts: Vec<&Type> = match ty {
        Type::Array(e, n) => vec![&**e; *n as usize],
        Type::Struct(s) => s.members.iter().map(|(_, t)| t).collect(),
        Type::Basic(t) => return construct_basic(*t, args),
        Type::Void => return None,
    };
    if parts.len() != args.len() {
        return None;
    }
    let mut vals = Vec::with_capacity(ty.words() as usize);
    for (a, t) in args.into_iter().zip(parts) {
        vals.extend(convert_to(a, t)?.vals);
    }
    Some(CVal {
        ty: ty.clone(),
        vals,
    })
}

fn construct_basic(t: crate::ir::ValueType, args: Vec<CVal>) -> Option<CVal> {
    let ty = Type::Basic(t);
    if !matches!(
        t.base,
        BaseType::Float | BaseType::Int | BaseType::Uint | BaseType::Bool
    ) {
        return None;
    }
    let mut shapes = Vec::with_capacity(args.len());
    for a in &args {
        let b = a.ty.basic()?;
        if !matches!(
            b.base,
            BaseType::Float | BaseType::Int | BaseType::Uint | BaseType::Bool
        ) {
            return None;
        }
        shapes.push(b);
    }
    let conv = |s: Scalar| convert_scalar(s, t.base);
    let (rows, cols) = (t.rows as usize, t.cols as usize);
    let vals = match (args.as_slice(), shapes.as_slice()) {
        ([a], [b]) if b.rows == 1 && b.cols == 1 => {
            let x = conv(a.vals[0])?;
            if cols > 1 {
                let zero = conv(Scalar::F32(0.0))?;
                (0..cols * rows)
                    .map(|k| if k / rows == k % rows { x } else { zero })
                    .collect()
            } else {
                vec![x; rows]
            }
        }
        ([a], [b]) if cols > 1 && b.cols > 1 => {
            let (src_rows, src_cols) = (b.rows as usize, b.cols as usize);
            let (zero, one) = (conv(Scalar::F32(0.0))?, conv(Scalar::F32(1.0))?);
            let mut vals = Vec::with_capacity(rows * cols);
            for c in 0..cols {
                for r in 0..rows {
                    vals.push(if c < src_cols && r < src_rows {
                        conv(a.vals[c * src_rows + r])?
                    } else if c == r {
                        one
                    } else {
                        zero
                    });
                }
            }
            vals
        }
        _ if cols > 1 && shapes.iter().any(|b| b.cols > 1) => return None,
        _ => {
            let need = rows * cols;
            let mut comps = Vec::with_capacity(need);
            for a in &args {
                if comps.len() >= need {
                    return None;
                }
                for s in &a.vals {
                    if comps.len() < need {
                        comps.push(conv(*s)?);
                    }
                }
            }
            if comps.len() < need {
                return None;
            }
            comps
        }
    };
    Some(CVal { ty, vals })
}

/// `min`, `max`, `clamp` and `abs` of constants (GLSL 4.60 §8.3), componentwise on int,
/// uint and float scalars or vectors, with the scalar second (and third) argument forms of
/// `min(genType, float)`. Arguments must share one base type (no implicit conversion here:
/// such a call is simply not folded). Exact in every case: comparisons and a sign-bit
/// clear, so folding cannot differ from what the shader computes.
fn eval_builtin(name: &str, args: &[CVal]) -> Option<CVal> {
    let first = args.first()?;
    let v = first.ty.basic()?;
    if v.cols > 1 || !matches!(v.base, BaseType::Int | BaseType::Uint | BaseType::Float) {
        return None;
    }
    let n = first.vals.len();
    let arity = if name == "abs" {
        1
    } else if name == "clamp" {
        3
    } else {
        2
    };
    if args.len() != arity {
        return None;
    }
    for a in &args[1..] {
        let av = a.ty.basic()?;
        if av.base != v.base || av.cols > 1 || !(a.vals.len() == n || a.vals.len() == 1) {
            return None;
        }
    }
    let at = |a: &CVal, i: usize| a.vals[if a.vals.len() == 1 { 0 } else { i }];
    // b < a, the order min and max are defined by (GLSL 4.60 §8.3: min is y < x ? y : x).
    let less = |a: Scalar, b: Scalar| -> Option<bool> {
        Some(match (a, b) {
            (Scalar::F32(a), Scalar::F32(b)) => a < b,
            (Scalar::I32(a), Scalar::I32(b)) => a < b,
            (Scalar::U32(a), Scalar::U32(b)) => a < b,
            _ => return None,
        })
    };
    let min = |x: Scalar, y: Scalar| Some(if less(y, x)? { y } else { x });
    let max = |x: Scalar, y: Scalar| Some(if less(x, y)? { y } else { x });
    let mut vals = Vec::with_capacity(n);
    for i in 0..n {
        let x = first.vals[i];
        vals.push(match name {
            "abs" => match x {
                Scalar::F32(f) => Scalar::F32(f.abs()),
                Scalar::I32(k) => Scalar::I32(k.wrapping_abs()),
                _ => return None,
            },
            "min" => min(x, at(&args[1], i))?,
            "max" => max(x, at(&args[1], i))?,
            _ => min(max(x, at(&args[1], i))?, at(&args[2], i))?,
        });
    }
    Some(CVal {
        ty: first.ty.clone(),
        vals,
    })
}
