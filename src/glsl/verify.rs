//! A structural check of the IR the front end emits: every var exists, every operand has
//! the kind `ir::module` documents for its op, and `Break`/`Continue`/`Leave` name an
//! enclosing loop or block. The front end's tests run it on every module they build, so a
//! lowering mistake shows up here instead of as wrong pixels in the JIT.

use crate::ir::{
    BinaryOp, Builtin, Lod, Module, Op, ScalarKind as K, Stmt, StorageAccess, UnaryOp, Var,
};

/// Checks `m`; the error names the first problem found.
pub fn verify_module(m: &Module) -> Result<(), String> {
    let vars = &m.func.vars;
    let kind = |v: Var| -> Result<K, String> {
        vars.get(v.0 as usize)
            .copied()
            .ok_or_else(|| format!("var {} out of range", v.0))
    };
    for o in &m.func.outputs {
        kind(*o)?;
    }
    let mut total_out: u32 = m.outputs.iter().map(|o| o.words).sum();
    // A rewritten geometry stage writes the record of its emitted vertices (`ir::geometry`).
    if let (Some(w), Some(n)) = (m.geometry.vertex_words, m.geometry.max_vertices) {
        total_out = crate::ir::geometry::record_words(n, w);
    }
    if total_out as usize != m.func.outputs.len() {
        return Err(format!(
            "outputs declare {total_out} words, function writes {}",
            m.func.outputs.len()
        ));
    }
    let mut scopes: Vec<(u32, bool)> = Vec::new();
    verify_body(&m.func.body, &kind, &mut scopes)
}

fn is_int(k: K) -> bool {
    matches!(k, K::I32 | K::U32)
}

fn unary_kinds(op: UnaryOp, a: K) -> Option<K> {
    use UnaryOp::*;
    Some(match op {
        FNeg | FAbs | FSign | Floor | Ceil | Trunc | RoundEven | Fract | Sqrt | InverseSqrt
        | Sin | Cos | Tan | Asin | Acos | Atan | Sinh | Cosh | Tanh | Asinh | Acosh | Atanh
        | Exp | Exp2 | Log | Log2 | DFdxFine | DFdyFine | DFdxCoarse | DFdyCoarse
            if a == K::F32 =>
        {
            K::F32
        }
        IsNan | IsInf if a == K::F32 => K::Bool,
        INeg | IAbs | ISign if a == K::I32 => K::I32,
        Not | BitReverse if is_int(a) => a,
        BitCount | FindLsb if is_int(a) => K::I32,
        FindMsbI if a == K::I32 => K::I32,
        FindMsbU if a == K::U32 => K::I32,
        LogicalNot if a == K::Bool => K::Bool,
        F2I | BitcastF2I if a == K::F32 => K::I32,
        F2U | BitcastF2U if a == K::F32 => K::U32,
        I2F | BitcastI2F if a == K::I32 => K::F32,
        U2F | BitcastU2F if a == K::U32 => K::F32,
        I2U if a == K::I32 => K::U32,
        U2I if a == K::U32 => K::I32,
        B2F if a == K::Bool => K::F32,
        B2I if a == K::Bool => K::I32,
        B2U if a == K::Bool => K::U32,
        F2B if a == K::F32 => K::Bool,
        I2B if is_int(a) => K::Bool,
        _ => return None,
    })
}

fn binary_kinds(op: BinaryOp, a: K, b: K) -> Option<K> {
    use BinaryOp::*;
    Some(match op {
        FAdd | FSub | FMul | FDiv | FMod | FMin | FMax | Pow | Atan2 | Step
            if a == K::F32 && b == K::F32 =>
        {
            K::F32
        }
        IAdd | ISub | IMul | And | Or | Xor if is_int(a) && a == b => a,
        SDiv | SRem | SMin | SMax if a == K::I32 && b == K::I32 => K::I32,
        UDiv | URem | UMin | UMax if a == K::U32 && b == K::U32 => K::U32,
        Shl | ShrS | ShrU if is_int(a) && is_int(b) => a,
        FEq | FNe | FLt | FLe | FGt | FGe if a == K::F32 && b == K::F32 => K::Bool,
        IEq | INe if is_int(a) && a == b => K::Bool,
        SLt | SLe | SGt | SGe if a == K::I32 && b == K::I32 => K::Bool,
        ULt | ULe | UGt | UGe if a == K::U32 && b == K::U32 => K::Bool,
        LogicalAnd | LogicalOr | LogicalXor | LogicalEq if a == K::Bool && b == K::Bool => K::Bool,
        _ => return None,
    })
}

/// The kind every result of a lookup must have: `dst[0]`'s when it is i32 or u32 (integer
/// samplers), else f32.
fn sampled_kind(dst: &[Var], kind: &dyn Fn(Var) -> Result<K, String>) -> K {
    match dst.first().map(|d| kind(*d)) {
        Some(Ok(k @ (K::I32 | K::U32))) => k,
        _ => K::F32,
    }
}

fn verify_body(
    body: &[Stmt],
    kind: &dyn Fn(Var) -> Result<K, String>,
    scopes: &mut Vec<(u32, bool)>,
) -> Result<(), String> {
    let want = |v: Var, k: K, what: &str| -> Result<(), String> {
        let got = kind(v)?;
        if got != k {
            return Err(format!("{what}: var {} is {got:?}, expected {k:?}", v.0));
        }
        Ok(())
    };
    for s in body {
        match s {
            Stmt::Image { coord, sample, .. } => {
                for v in coord.iter().flatten().chain(sample) {
                    want(*v, K::I32, "image coordinate")?;
                }
            }
            Stmt::Assign { dst, op } => {
                let d = kind(*dst)?;
                let got = match op {
                    Op::Const(c) => Some(c.kind()),
                    Op::Copy(v) => Some(kind(*v)?),
                    Op::Unary(u, a) => unary_kinds(*u, kind(*a)?),
                    Op::Binary(b, x, y) => binary_kinds(*b, kind(*x)?, kind(*y)?),
                    Op::Select { cond, a, b } => {
                        want(*cond, K::Bool, "select condition")?;
                        let ka = kind(*a)?;
                        (ka == kind(*b)?).then_some(ka)
                    }
                    Op::Fma(a, b, c) | Op::FClamp(a, b, c) | Op::FMix(a, b, c) => {
                        for v in [a, b, c] {
                            want(*v, K::F32, "float op")?;
                        }
                        Some(K::F32)
                    }
                    Op::BitfieldExtract {
                        value,
                        offset,
                        bits,
                    } => {
                        want(*offset, K::I32, "bitfield offset")?;
                        want(*bits, K::I32, "bitfield bits")?;
                        Some(kind(*value)?)
                    }
                    Op::BitfieldInsert {
                        base,
                        insert,
                        offset,
                        bits,
                    } => {
                        want(*offset, K::I32, "bitfield offset")?;
                        want(*bits, K::I32, "bitfield bits")?;
                        let k = kind(*base)?;
                        (k == kind(*insert)?).then_some(k)
                    }
                    Op::F64 { op, args, .. } => {
                        for v in &args[..op.arg_words()] {
                            want(*v, op.arg_kind(), "double op")?;
                        }
                        Some(op.result_kind())
                    }
                    Op::Input(_) => Some(d),
                    Op::Builtin(b) => Some(match b {
                        Builtin::VertexId | Builtin::InstanceId => K::I32,
                        Builtin::FrontFacing => K::Bool,
                        _ => K::F32,
                    }),
                    Op::Uniform { index, .. } => {
                        if let Some((i, _, _)) = index {
                            if !is_int(kind(*i)?) {
                                return Err("uniform index is not an integer".into());
                            }
                        }
                        Some(d)
                    }
                    Op::BlockLoad { dynamic, .. } | Op::StorageLoad { dynamic, .. } => {
                        if let Some(v) = dynamic {
                            want(*v, K::U32, "block dynamic offset")?;
                        }
                        (d != K::Bool).then_some(d)
                    }
                    Op::StorageSize { .. } => Some(K::U32),
                    Op::LoadArray { index, .. } => {
                        if !is_int(kind(*index)?) {
                            return Err("array index is not an integer".into());
                        }
                        Some(d)
                    }
                };
                match got {
                    Some(k) if k == d => {}
                    other => {
                        return Err(format!(
                            "assign to var {} ({d:?}) from {op:?} gives {other:?}",
                            dst.0
                        ))
                    }
                }
            }
            Stmt::StoreArray { index, .. } => {
                if !is_int(kind(*index)?) {
                    return Err("array index is not an integer".into());
                }
            }
            Stmt::If {
                cond,
                then_body,
                else_body,
            } => {
                want(*cond, K::Bool, "if condition")?;
                verify_body(then_body, kind, scopes)?;
                verify_body(else_body, kind, scopes)?;
            }
            Stmt::Loop {
                label,
                body,
                continuing,
            } => {
                scopes.push((label.0, true));
                verify_body(body, kind, scopes)?;
                verify_body(continuing, kind, scopes)?;
                scopes.pop();
            }
            Stmt::Block { label, body } => {
                scopes.push((label.0, false));
                verify_body(body, kind, scopes)?;
                scopes.pop();
            }
            Stmt::Break(l) | Stmt::Continue(l) => {
                if !scopes.contains(&(l.0, true)) {
                    return Err(format!("break/continue of label {} outside its loop", l.0));
                }
            }
            Stmt::Leave(l) => {
                if !scopes.contains(&(l.0, false)) {
                    return Err(format!("leave of label {} outside its block", l.0));
                }
            }
            Stmt::Return
            | Stmt::Discard
            | Stmt::Barrier
            | Stmt::EmitVertex(_)
            | Stmt::EndPrimitive(_) => {}
            Stmt::Texture {
                dst,
                handle,
                coord,
                lod,
                compare,
                layer,
                ..
            } => {
                let k = sampled_kind(dst, kind);
                for v in dst {
                    want(*v, k, "texture dst")?;
                }
                for v in coord.iter().chain(compare).chain(layer) {
                    want(*v, K::F32, "texture coord")?;
                }
                for v in handle {
                    want(*v, K::U32, "texture handle")?;
                }
                if let Lod::Bias(v) | Lod::Explicit(v) = lod {
                    want(*v, K::F32, "texture lod")?;
                }
            }
            Stmt::TexelFetch {
                dst,
                handle,
                coord,
                lod,
                layer,
            } => {
                let k = sampled_kind(dst, kind);
                for v in dst {
                    want(*v, k, "texelFetch dst")?;
                }
                for v in coord.iter().chain([lod]).chain(layer) {
                    want(*v, K::I32, "texelFetch coord/lod")?;
                }
                for v in handle {
                    want(*v, K::U32, "texelFetch handle")?;
                }
            }
            Stmt::TextureSize {
                dst,
                handle,
                lod,
                layers,
                samples,
            } => {
                for v in dst.iter().chain([lod]).chain(layers).chain(samples) {
                    want(*v, K::I32, "textureSize dst/lod")?;
                }
                for v in handle {
                    want(*v, K::U32, "textureSize handle")?;
                }
            }
            Stmt::Storage {
                dst,
                dynamic,
                access,
                ..
            } => {
                if let Some(v) = dynamic {
                    want(*v, K::U32, "storage dynamic offset")?;
                }
                match *access {
                    StorageAccess::Store(v) => {
                        if kind(v)? == K::Bool {
                            return Err("a bool stored to a buffer as a mask".into());
                        }
                    }
                    StorageAccess::Atomic(_, v) | StorageAccess::CompSwap { value: v, .. } => {
                        let k = kind(v)?;
                        if !is_int(k) || dst.is_some_and(|d| kind(d).ok() != Some(k)) {
                            return Err("atomic operands are not one integer kind".into());
                        }
                    }
                }
            }
        }
    }
    Ok(())
}
