//! IR validation: the invariants the front end promises and the interpreter and the JIT rely
//! on. Also the one table of operand and result kinds per operation (`unary_signature`,
//! `binary_signature`), which the builder and the JIT use too.
//!
//! Like naga, handles are checked first (every `Var`, `ArrayId` and uniform block index in
//! range) in a pass of their own, so that the second pass (kinds, control flow, interface)
//! may index without checking.

use std::fmt;

use super::module::*;

/// A set of scalar kinds an operand may have.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Kinds(u8);

impl Kinds {
    pub const F32: Kinds = Kinds(1);
    pub const I32: Kinds = Kinds(2);
    pub const U32: Kinds = Kinds(4);
    pub const BOOL: Kinds = Kinds(8);
    /// i32 or u32.
    pub const INT: Kinds = Kinds(2 | 4);
    /// f32, i32 or u32: a 32-bit word (booleans are stored as 0/1 words, never as masks).
    pub const WORD: Kinds = Kinds(1 | 2 | 4);
    /// Any kind.
    pub const ANY: Kinds = Kinds(15);

    /// The set holding just `k`.
    pub const fn of(k: ScalarKind) -> Kinds {
        match k {
            ScalarKind::F32 => Kinds::F32,
            ScalarKind::I32 => Kinds::I32,
            ScalarKind::U32 => Kinds::U32,
            ScalarKind::Bool => Kinds::BOOL,
        }
    }
    pub const fn contains(self, k: ScalarKind) -> bool {
        self.0 & Kinds::of(k).0 != 0
    }
}

impl fmt::Display for Kinds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (bit, name) in [(1, "f32"), (2, "i32"), (4, "u32"), (8, "bool")] {
            if self.0 & bit != 0 {
                if !first {
                    f.write_str(" or ")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        Ok(())
    }
}

/// The result kind of an operation, given its (first) operand kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ResultKind {
    /// The same kind as the first operand.
    Same,
    Fixed(ScalarKind),
}

impl ResultKind {
    fn apply(self, operand: ScalarKind) -> ScalarKind {
        match self {
            ResultKind::Same => operand,
            ResultKind::Fixed(k) => k,
        }
    }
}

/// Operand kinds and result kind of a unary op (the table module.rs documents).
pub fn unary_signature(op: UnaryOp) -> (Kinds, ResultKind) {
    use ResultKind::{Fixed, Same};
    use ScalarKind as K;
    use UnaryOp::*;
    match op {
        FNeg | FAbs | FSign | Floor | Ceil | Trunc | RoundEven | Fract | Sqrt | InverseSqrt
        | Sin | Cos | Tan | Asin | Acos | Atan | Sinh | Cosh | Tanh | Asinh | Acosh | Atanh
        | Exp | Exp2 | Log | Log2 | DFdxFine | DFdyFine | DFdxCoarse | DFdyCoarse => {
            (Kinds::F32, Same)
        }
        IsNan | IsInf => (Kinds::F32, Fixed(K::Bool)),
        INeg | IAbs | ISign => (Kinds::I32, Same),
        Not | BitReverse => (Kinds::INT, Same),
        BitCount | FindLsb => (Kinds::INT, Fixed(K::I32)),
        FindMsbI => (Kinds::I32, Fixed(K::I32)),
        FindMsbU => (Kinds::U32, Fixed(K::I32)),
        LogicalNot => (Kinds::BOOL, Same),
        F2I | BitcastF2I => (Kinds::F32, Fixed(K::I32)),
        F2U | BitcastF2U => (Kinds::F32, Fixed(K::U32)),
        I2F | BitcastI2F => (Kinds::I32, Fixed(K::F32)),
        U2F | BitcastU2F => (Kinds::U32, Fixed(K::F32)),
        I2U => (Kinds::I32, Fixed(K::U32)),
        U2I => (Kinds::U32, Fixed(K::I32)),
        B2F => (Kinds::BOOL, Fixed(K::F32)),
        B2I => (Kinds::BOOL, Fixed(K::I32)),
        B2U => (Kinds::BOOL, Fixed(K::U32)),
        F2B => (Kinds::F32, Fixed(K::Bool)),
        I2B => (Kinds::INT, Fixed(K::Bool)),
    }
}

/// Every unary op, in declaration order (for exhaustive tests and random modules).
pub const UNARY_OPS: [UnaryOp; 57] = {
    use UnaryOp::*;
    [
        FNeg,
        FAbs,
        FSign,
        Floor,
        Ceil,
        Trunc,
        RoundEven,
        Fract,
        Sqrt,
        InverseSqrt,
        Sin,
        Cos,
        Tan,
        Asin,
        Acos,
        Atan,
        Sinh,
        Cosh,
        Tanh,
        Asinh,
        Acosh,
        Atanh,
        Exp,
        Exp2,
        Log,
        Log2,
        IsNan,
        IsInf,
        DFdxFine,
        DFdyFine,
        DFdxCoarse,
        DFdyCoarse,
        INeg,
        IAbs,
        ISign,
        Not,
        BitReverse,
        BitCount,
        FindLsb,
        FindMsbI,
        FindMsbU,
        LogicalNot,
        F2I,
        F2U,
        I2F,
        U2F,
        I2U,
        U2I,
        B2F,
        B2I,
        B2U,
        F2B,
        I2B,
        BitcastF2I,
        BitcastF2U,
        BitcastI2F,
        BitcastU2F,
    ]
};

/// Every binary op, in declaration order.
pub const BINARY_OPS: [BinaryOp; 47] = {
    use BinaryOp::*;
    [
        FAdd, FSub, FMul, FDiv, FMod, FMin, FMax, Pow, Atan2, Step, IAdd, ISub, IMul, SDiv, UDiv,
        SRem, URem, SMin, SMax, UMin, UMax, And, Or, Xor, Shl, ShrS, ShrU, FEq, FNe, FLt, FLe, FGt,
        FGe, IEq, INe, SLt, SLe, SGt, SGe, ULt, ULe, UGt, UGe, LogicalAnd, LogicalOr, LogicalXor,
        LogicalEq,
    ]
};

/// What the right operand of a binary op may be.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RhsKind {
    /// Exactly the left operand's kind.
    SameAsLhs,
    /// Any kind of the set (shift counts).
    AnyOf(Kinds),
}

/// Left operand kinds, right operand rule and result kind of a binary op.
pub fn binary_signature(op: BinaryOp) -> (Kinds, RhsKind, ResultKind) {
    use BinaryOp::*;
    use ResultKind::{Fixed, Same};
    use RhsKind::*;
    use ScalarKind as K;
    match op {
        FAdd | FSub | FMul | FDiv | FMod | FMin | FMax | Pow | Atan2 | Step => {
            (Kinds::F32, SameAsLhs, Same)
        }
        IAdd | ISub | IMul | And | Or | Xor => (Kinds::INT, SameAsLhs, Same),
        SDiv | SRem | SMin | SMax => (Kinds::I32, SameAsLhs, Same),
        UDiv | URem | UMin | UMax => (Kinds::U32, SameAsLhs, Same),
        Shl | ShrS | ShrU => (Kinds::INT, AnyOf(Kinds::INT), Same),
        FEq | FNe | FLt | FLe | FGt | FGe => (Kinds::F32, SameAsLhs, Fixed(K::Bool)),
        IEq | INe => (Kinds::INT, SameAsLhs, Fixed(K::Bool)),
        SLt | SLe | SGt | SGe => (Kinds::I32, SameAsLhs, Fixed(K::Bool)),
        ULt | ULe | UGt | UGe => (Kinds::U32, SameAsLhs, Fixed(K::Bool)),
        LogicalAnd | LogicalOr | LogicalXor | LogicalEq => (Kinds::BOOL, SameAsLhs, Same),
    }
}

/// The result kind of `op` applied to an operand of kind `a`, or `None` if `a` is not
/// allowed.
pub fn unary_result(op: UnaryOp, a: ScalarKind) -> Option<ScalarKind> {
    let (kinds, res) = unary_signature(op);
    kinds.contains(a).then(|| res.apply(a))
}

/// The result kind of `op` applied to `(a, b)`, or `None` if the kinds are not allowed.
pub fn binary_result(op: BinaryOp, a: ScalarKind, b: ScalarKind) -> Option<ScalarKind> {
    let (kinds, rhs, res) = binary_signature(op);
    let rhs_ok = match rhs {
        RhsKind::SameAsLhs => a == b,
        RhsKind::AnyOf(k) => k.contains(b),
    };
    (kinds.contains(a) && rhs_ok).then(|| res.apply(a))
}

/// The kind a builtin is read as.
pub fn builtin_kind(b: Builtin) -> ScalarKind {
    match b {
        Builtin::VertexId | Builtin::InstanceId => ScalarKind::I32,
        Builtin::FragCoordX | Builtin::FragCoordY | Builtin::FragCoordZ | Builtin::FragCoordW => {
            ScalarKind::F32
        }
        Builtin::FrontFacing => ScalarKind::Bool,
    }
}

/// The stage a builtin exists in.
pub fn builtin_stage(b: Builtin) -> Stage {
    match b {
        Builtin::VertexId | Builtin::InstanceId => Stage::Vertex,
        _ => Stage::Fragment,
    }
}

/// The one match over `Op`'s operands, for `Op::for_each_operand` (`$op` a value: `$f`
/// gets each `Var`) and `Op::for_each_operand_mut` (`$op` a `&mut Op`: `$f` gets each
/// `&mut Var`), so a new variant cannot be visited by one and missed by the other.
macro_rules! visit_operands {
    ($op:expr, $f:ident) => {
        match $op {
            Op::Const(_) | Op::Input(_) | Op::Builtin(_) | Op::StorageSize { .. } => {}
            Op::Copy(a) | Op::Unary(_, a) => $f(a),
            Op::Binary(_, a, b) => {
                $f(a);
                $f(b);
            }
            Op::Select { cond, a, b } => {
                $f(cond);
                $f(a);
                $f(b);
            }
            Op::Fma(a, b, c) | Op::FClamp(a, b, c) | Op::FMix(a, b, c) => {
                $f(a);
                $f(b);
                $f(c);
            }
            Op::BitfieldExtract {
                value,
                offset,
                bits,
            } => {
                $f(value);
                $f(offset);
                $f(bits);
            }
            Op::BitfieldInsert {
                base,
                insert,
                offset,
                bits,
            } => {
                $f(base);
                $f(insert);
                $f(offset);
                $f(bits);
            }
            Op::Uniform { index, .. } => {
                if let Some((v, _, _)) = index {
                    $f(v)
                }
            }
            Op::BlockLoad { dynamic, .. } | Op::StorageLoad { dynamic, .. } => {
                if let Some(v) = dynamic {
                    $f(v)
                }
            }
            Op::LoadArray { index, .. } => $f(index),
            Op::F64 { op, args, .. } => {
                let n = op.arg_words();
                for a in args.into_iter().take(n) {
                    $f(a);
                }
            }
        }
    };
}

impl Op {
    /// Calls `f` on every var the op reads.
    pub fn for_each_operand(&self, mut f: impl FnMut(Var)) {
        visit_operands!(*self, f)
    }

    /// Calls `f` on every var the op reads, to change it (renaming passes).
    pub fn for_each_operand_mut(&mut self, mut f: impl FnMut(&mut Var)) {
        visit_operands!(self, f)
    }
}

/// The one match over a statement's own vars (not those of nested statements), for
/// `Stmt::for_each_var` and `Stmt::for_each_var_mut`: `$s` is `&Stmt` or `&mut Stmt`, and
/// `$f` is called with `&Var` or `&mut Var` accordingly, so a new statement kind cannot be
/// visited by one and missed by the other.
macro_rules! visit_stmt_vars {
    ($s:expr, $f:ident) => {
        match $s {
            Stmt::Assign { dst, op } => {
                $f(dst);
                visit_operands!(op, $f);
            }
            Stmt::Image {
                handle,
                coord,
                sample,
                data,
                dst,
                ..
            } => {
                for v in handle {
                    $f(v);
                }
                for o in coord {
                    if let Some(v) = o {
                        $f(v);
                    }
                }
                if let Some(v) = sample {
                    $f(v);
                }
                for o in data {
                    if let Some(v) = o {
                        $f(v);
                    }
                }
                for o in dst {
                    if let Some(v) = o {
                        $f(v);
                    }
                }
            }
            Stmt::StoreArray { index, value, .. } => {
                $f(index);
                $f(value);
            }
            Stmt::Storage {
                dst,
                dynamic,
                access,
                ..
            } => {
                if let Some(v) = dst {
                    $f(v);
                }
                if let Some(v) = dynamic {
                    $f(v);
                }
                match access {
                    StorageAccess::Store(v) | StorageAccess::Atomic(_, v) => $f(v),
                    StorageAccess::CompSwap { compare, value } => {
                        $f(compare);
                        $f(value);
                    }
                }
            }
            Stmt::If { cond, .. } => $f(cond),
            Stmt::Loop { .. }
            | Stmt::Break(_)
            | Stmt::Continue(_)
            | Stmt::Block { .. }
            | Stmt::Leave(_)
            | Stmt::Return
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
                cube_layer,
                ..
            } => {
                for v in dst {
                    $f(v);
                }
                for v in handle {
                    $f(v);
                }
                for v in coord {
                    $f(v);
                }
                if let Lod::Bias(v) | Lod::Explicit(v) | Lod::Gather(v) = lod {
                    $f(v);
                }
                for o in [compare, layer, cube_layer] {
                    if let Some(v) = o {
                        $f(v);
                    }
                }
            }
            Stmt::TexelFetch {
                dst,
                handle,
                coord,
                lod,
                layer,
            } => {
                for v in dst {
                    $f(v);
                }
                for v in handle {
                    $f(v);
                }
                for v in coord {
                    $f(v);
                }
                $f(lod);
                if let Some(v) = layer {
                    $f(v);
                }
            }
            Stmt::TextureSize {
                dst,
                handle,
                lod,
                layers,
                samples,
            } => {
                for v in dst {
                    $f(v);
                }
                for v in handle {
                    $f(v);
                }
                for o in [layers, samples] {
                    if let Some(v) = o {
                        $f(v);
                    }
                }
                $f(lod);
            }
        }
    };
}

impl Stmt {
    /// Calls `f` on every var the statement itself reads or writes (not those of nested
    /// statements).
    pub fn for_each_var(&self, mut f: impl FnMut(Var)) {
        let mut g = |v: &Var| f(*v);
        visit_stmt_vars!(self, g)
    }

    /// Calls `f` on every var the statement itself reads or writes, to change it
    /// (renaming passes).
    pub fn for_each_var_mut(&mut self, mut f: impl FnMut(&mut Var)) {
        visit_stmt_vars!(self, f)
    }

    /// The nested statement lists (`If` arms, `Loop` body and continuing, `Block` body).
    pub fn children(&self) -> impl Iterator<Item = &[Stmt]> {
        let lists: [&[Stmt]; 2] = match self {
            Stmt::If {
                then_body,
                else_body,
                ..
            } => [then_body, else_body],
            Stmt::Loop {
                body, continuing, ..
            } => [body, continuing],
            Stmt::Block { body, .. } => [body, &[]],
            _ => [&[], &[]],
        };
        lists.into_iter()
    }
}

/// A broken IR invariant. Every variant is a bug in whatever produced the module.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValidationError {
    /// A `Var` handle past `Function::vars`.
    #[error("v{var} does not exist (the function has {count} vars)")]
    VarOutOfRange { var: u32, count: usize },
    /// An `ArrayId` past `Function::arrays`.
    #[error("array a{array} does not exist (the function has {count} arrays)")]
    ArrayOutOfRange { array: u32, count: usize },
    /// `Op::BlockLoad` names a uniform block past `Module::blocks`.
    #[error("uniform block {block} does not exist (the module has {count})")]
    BlockOutOfRange { block: u32, count: usize },
    /// `Op::StorageLoad`, `Op::StorageSize` or `Stmt::Storage` names a storage block past
    /// `Module::storage_blocks`.
    #[error("storage block {block} does not exist (the module has {count})")]
    StorageBlockOutOfRange { block: u32, count: usize },
    /// An operand's kind is not one the operation takes (module.rs documents each op).
    #[error("{op}: operand v{var} is {found:?}, expected {expected}")]
    OperandKind {
        op: &'static str,
        var: u32,
        found: ScalarKind,
        expected: Kinds,
    },
    /// The destination's kind differs from the kind the operation produces.
    #[error("{op}: destination v{var} is {found:?} but the result is {expected:?}")]
    ResultKind {
        op: &'static str,
        var: u32,
        found: ScalarKind,
        expected: ScalarKind,
    },
    /// `Op::F64` asks for a word its result does not have (1 of a 32-bit result, or
    /// past the high word).
    #[error("f64 op: word {word} of a result that has no such word")]
    F64Word { word: u8 },
    /// Two `Loop`/`Block` statements use the same label.
    #[error("label L{0} is used twice")]
    DuplicateLabel(u32),
    /// `Break(l)` outside the `Loop` labelled `l`.
    #[error("break L{0} is not inside loop L{0}")]
    BreakOutsideLoop(u32),
    /// `Continue(l)` outside the `Loop` labelled `l`.
    #[error("continue L{0} is not inside loop L{0}")]
    ContinueOutsideLoop(u32),
    /// `Continue(l)` inside the `continuing` part of loop `l` (it would never end).
    #[error("continue L{0} inside the continuing part of loop L{0}")]
    ContinueInContinuing(u32),
    /// `Leave(l)` outside the `Block` labelled `l`.
    #[error("leave L{0} is not inside block L{0}")]
    LeaveOutsideBlock(u32),
    /// `Discard` in a vertex module.
    #[error("discard in a vertex shader")]
    DiscardOutsideFragment,
    /// `Barrier` outside a compute module.
    #[error("barrier outside a compute shader")]
    BarrierOutsideCompute,
    /// `EmitVertex` / `EndPrimitive` outside a geometry module.
    #[error("EmitVertex or EndPrimitive outside a geometry shader")]
    EmitOutsideGeometry,
    /// `Discard` in a module whose `uses_discard` is false (the JIT picks variants by it).
    #[error("discard in a module that does not declare uses_discard")]
    DiscardNotDeclared,
    /// `Op::Input(word)` reads a word no declared input covers.
    #[error("input word {word} is not covered by any declared input")]
    InputOutOfRange { word: u32 },
    /// A declared output's words run past `Function::outputs`.
    #[error("output `{name}` needs words {slot}..{end} but the function has {count} outputs")]
    OutputOutOfRange {
        name: String,
        slot: u32,
        end: u64,
        count: usize,
    },
    /// `Op::Input` reads a word into a var whose kind differs from the declared input's
    /// component kind (see `word_kind`).
    #[error("input word {word} is {expected:?} but is read into a {found:?} var")]
    InputKind {
        word: u32,
        found: ScalarKind,
        expected: ScalarKind,
    },
    /// The var written to an output word has another kind than the declared output's
    /// component kind.
    #[error("output `{name}` word {word} is {expected:?} but v{var} is {found:?}")]
    OutputKind {
        name: String,
        word: u32,
        var: u32,
        found: ScalarKind,
        expected: ScalarKind,
    },
    /// A builtin read in a stage that does not have it.
    #[error("builtin {builtin:?} does not exist in the {stage:?} stage")]
    BuiltinWrongStage { builtin: Builtin, stage: Stage },
    /// `Op::Uniform` whose words (all of them, for an indexed read) are not inside
    /// `Module::uniform_words`.
    #[error("uniform words up to {last} are past the default block ({words} words)")]
    UniformOutOfRange { last: u64, words: u32 },
}

/// Checks every invariant of `module`; the first broken one is returned.
pub fn validate(module: &Module) -> Result<(), ValidationError> {
    check_handles(module)?;
    let mut v = Validator {
        module,
        labels: Vec::new(),
        scopes: Vec::new(),
    };
    v.check_list(&module.func.body)?;
    check_interface(module)
}

// ---------------------------------------------------------------------------------------
// Pass 1: handles
// ---------------------------------------------------------------------------------------

fn check_handles(module: &Module) -> Result<(), ValidationError> {
    let func = &module.func;
    let var = |v: Var| {
        if (v.0 as usize) < func.vars.len() {
            Ok(())
        } else {
            Err(ValidationError::VarOutOfRange {
                var: v.0,
                count: func.vars.len(),
            })
        }
    };
    for &v in &func.outputs {
        var(v)?;
    }
    let mut stack: Vec<&[Stmt]> = vec![&func.body];
    while let Some(list) = stack.pop() {
        for stmt in list {
            let mut err = Ok(());
            stmt.for_each_var(|v| {
                if err.is_ok() {
                    err = var(v);
                }
            });
            err?;
            let array = match stmt {
                Stmt::StoreArray { array, .. } => Some(*array),
                Stmt::Assign {
                    op: Op::LoadArray { array, .. },
                    ..
                } => Some(*array),
                _ => None,
            };
            if let Some(a) = array {
                if a.0 as usize >= func.arrays.len() {
                    return Err(ValidationError::ArrayOutOfRange {
                        array: a.0,
                        count: func.arrays.len(),
                    });
                }
            }
            if let Stmt::Assign {
                op: Op::BlockLoad { block, .. },
                ..
            } = stmt
            {
                if *block as usize >= module.blocks.len() {
                    return Err(ValidationError::BlockOutOfRange {
                        block: *block,
                        count: module.blocks.len(),
                    });
                }
            }
            let storage = match stmt {
                Stmt::Assign {
                    op: Op::StorageLoad { block, .. } | Op::StorageSize { block },
                    ..
                }
                | Stmt::Storage { block, .. } => Some(*block),
                _ => None,
            };
            if let Some(block) = storage {
                // A compute module's `shared` variables are the block after the last one.
                let count = module.storage_blocks.len() + usize::from(module.shared_bytes > 0);
                if block as usize >= count {
                    return Err(ValidationError::StorageBlockOutOfRange { block, count });
                }
            }
            stack.extend(stmt.children());
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Pass 2: kinds and control flow (handles are trusted from here on)
// ---------------------------------------------------------------------------------------

#[derive(Copy, Clone, PartialEq)]
enum Scope {
    Loop { label: u32, in_continuing: bool },
    Block { label: u32 },
}

struct Validator<'a> {
    module: &'a Module,
    labels: Vec<u32>,
    scopes: Vec<Scope>,
}

impl Validator<'_> {
    fn kind(&self, v: Var) -> ScalarKind {
        self.module.func.vars[v.0 as usize]
    }

    fn expect(&self, op: &'static str, v: Var, kinds: Kinds) -> Result<(), ValidationError> {
        let found = self.kind(v);
        if kinds.contains(found) {
            Ok(())
        } else {
            Err(ValidationError::OperandKind {
                op,
                var: v.0,
                found,
                expected: kinds,
            })
        }
    }

    fn expect_dst(
        &self,
        op: &'static str,
        dst: Var,
        expected: ScalarKind,
    ) -> Result<(), ValidationError> {
        let found = self.kind(dst);
        if found == expected {
            Ok(())
        } else {
            Err(ValidationError::ResultKind {
                op,
                var: dst.0,
                found,
                expected,
            })
        }
    }

    fn declare_label(&mut self, l: Label) -> Result<(), ValidationError> {
        if self.labels.contains(&l.0) {
            return Err(ValidationError::DuplicateLabel(l.0));
        }
        self.labels.push(l.0);
        Ok(())
    }

    fn check_list(&mut self, list: &[Stmt]) -> Result<(), ValidationError> {
        list.iter().try_for_each(|s| self.check_stmt(s))
    }

    fn check_stmt(&mut self, stmt: &Stmt) -> Result<(), ValidationError> {
        match stmt {
            Stmt::Assign { dst, op } => self.check_assign(*dst, op),
            Stmt::Image {
                op,
                handle,
                coord,
                sample,
                data,
                dst,
                ..
            } => {
                self.check_handle_and_dst("image", &[], handle, ScalarKind::U32)?;
                for v in coord.iter().flatten().chain(sample) {
                    self.expect("image coordinate", *v, Kinds::I32)?;
                }
                for v in data.iter().flatten() {
                    self.expect("image data", *v, Kinds::WORD)?;
                }
                if *op == crate::sampler::storage_image::ImageOp::Size {
                    for v in dst.iter().flatten() {
                        self.expect_dst("imageSize", *v, ScalarKind::I32)?;
                    }
                }
                Ok(())
            }
            Stmt::StoreArray {
                array,
                index,
                value,
            } => {
                self.expect("store", *index, Kinds::INT)?;
                let kind = self.module.func.arrays[array.0 as usize].kind;
                self.expect("store", *value, Kinds::of(kind))
            }
            Stmt::If {
                cond,
                then_body,
                else_body,
            } => {
                self.expect("if", *cond, Kinds::BOOL)?;
                self.check_list(then_body)?;
                self.check_list(else_body)
            }
            Stmt::Loop {
                label,
                body,
                continuing,
            } => {
                self.declare_label(*label)?;
                self.scopes.push(Scope::Loop {
                    label: label.0,
                    in_continuing: false,
                });
                self.check_list(body)?;
                self.scopes.pop();
                self.scopes.push(Scope::Loop {
                    label: label.0,
                    in_continuing: true,
                });
                self.check_list(continuing)?;
                self.scopes.pop();
                Ok(())
            }
            Stmt::Block { label, body } => {
                self.declare_label(*label)?;
                self.scopes.push(Scope::Block { label: label.0 });
                self.check_list(body)?;
                self.scopes.pop();
                Ok(())
            }
            Stmt::Break(l) => {
                let inside = self
                    .scopes
                    .iter()
                    .any(|s| matches!(s, Scope::Loop { label, .. } if *label == l.0));
                if inside {
                    Ok(())
                } else {
                    Err(ValidationError::BreakOutsideLoop(l.0))
                }
            }
            Stmt::Continue(l) => {
                let scope = self.scopes.iter().rev().find_map(|s| match s {
                    Scope::Loop {
                        label,
                        in_continuing,
                    } if *label == l.0 => Some(*in_continuing),
                    _ => None,
                });
                match scope {
                    None => Err(ValidationError::ContinueOutsideLoop(l.0)),
                    Some(true) => Err(ValidationError::ContinueInContinuing(l.0)),
                    Some(false) => Ok(()),
                }
            }
            Stmt::Leave(l) => {
                if self.scopes.contains(&Scope::Block { label: l.0 }) {
                    Ok(())
                } else {
                    Err(ValidationError::LeaveOutsideBlock(l.0))
                }
            }
            Stmt::Return => Ok(()),
            Stmt::EmitVertex(_) | Stmt::EndPrimitive(_) => {
                if self.module.stage != Stage::Geometry {
                    Err(ValidationError::EmitOutsideGeometry)
                } else {
                    Ok(())
                }
            }
            Stmt::Barrier => {
                if self.module.stage != Stage::Compute {
                    Err(ValidationError::BarrierOutsideCompute)
                } else {
                    Ok(())
                }
            }
            Stmt::Discard => {
                if self.module.stage == Stage::Vertex {
                    Err(ValidationError::DiscardOutsideFragment)
                } else if !self.module.uses_discard {
                    Err(ValidationError::DiscardNotDeclared)
                } else {
                    Ok(())
                }
            }
            Stmt::Texture {
                dst,
                handle,
                coord,
                lod,
                compare,
                layer,
                cube_layer,
                ..
            } => {
                self.check_handle_and_dst("texture", dst, handle, self.sampled_kind(dst))?;
                for c in coord.iter().chain(compare).chain(layer).chain(cube_layer) {
                    self.expect("texture", *c, Kinds::F32)?;
                }
                match lod {
                    Lod::Implicit | Lod::QueryLod => Ok(()),
                    Lod::Bias(v) | Lod::Explicit(v) => self.expect("texture", *v, Kinds::F32),
                    Lod::Gather(v) => self.expect("texture", *v, Kinds::I32),
                }
            }
            Stmt::TexelFetch {
                dst,
                handle,
                coord,
                lod,
                layer,
            } => {
                self.check_handle_and_dst("texelFetch", dst, handle, self.sampled_kind(dst))?;
                for c in coord.iter().chain(layer) {
                    self.expect("texelFetch", *c, Kinds::I32)?;
                }
                self.expect("texelFetch", *lod, Kinds::I32)
            }
            Stmt::Storage {
                dst,
                dynamic,
                access,
                ..
            } => {
                if let Some(v) = dynamic {
                    self.expect("storage", *v, Kinds::INT)?;
                }
                match *access {
                    StorageAccess::Store(v) => self.expect("store", v, Kinds::WORD),
                    StorageAccess::Atomic(_, v) => {
                        self.expect("atomic", v, Kinds::INT)?;
                        match dst {
                            Some(d) => self.expect_dst("atomic", *d, self.kind(v)),
                            None => Ok(()),
                        }
                    }
                    StorageAccess::CompSwap { compare, value } => {
                        self.expect("atomicCompSwap", value, Kinds::INT)?;
                        self.expect("atomicCompSwap", compare, Kinds::of(self.kind(value)))?;
                        match dst {
                            Some(d) => self.expect_dst("atomicCompSwap", *d, self.kind(value)),
                            None => Ok(()),
                        }
                    }
                }
            }
            Stmt::TextureSize {
                dst,
                handle,
                lod,
                layers,
                samples,
            } => {
                self.check_handle_and_dst("textureSize", dst, handle, ScalarKind::I32)?;
                for l in layers.iter().chain(samples) {
                    self.expect_dst("textureSize", *l, ScalarKind::I32)?;
                }
                self.expect("textureSize", *lod, Kinds::I32)
            }
        }
    }

    /// The kind a lookup's results must all have: that of `dst[0]` when it is f32, i32 or
    /// u32 (float, isampler and usampler lookups), else f32 (so a bool is refused).
    fn sampled_kind(&self, dst: &[Var]) -> ScalarKind {
        match dst.first().map(|d| self.kind(*d)) {
            Some(k @ (ScalarKind::I32 | ScalarKind::U32)) => k,
            _ => ScalarKind::F32,
        }
    }

    fn check_handle_and_dst(
        &self,
        op: &'static str,
        dst: &[Var],
        handle: &[Var; 2],
        dst_kind: ScalarKind,
    ) -> Result<(), ValidationError> {
        for h in handle {
            self.expect(op, *h, Kinds::U32)?;
        }
        dst.iter()
            .try_for_each(|d| self.expect_dst(op, *d, dst_kind))
    }

    fn check_assign(&self, dst: Var, op: &Op) -> Result<(), ValidationError> {
        let dst_kind = self.kind(dst);
        let name = op_name(op);
        let result = match *op {
            Op::Const(c) => c.kind(),
            Op::Copy(a) => self.kind(a),
            Op::Unary(u, a) => {
                let (kinds, res) = unary_signature(u);
                self.expect(name, a, kinds)?;
                res.apply(self.kind(a))
            }
            Op::Binary(b, x, y) => {
                let (kinds, rhs, res) = binary_signature(b);
                self.expect(name, x, kinds)?;
                let rhs_kinds = match rhs {
                    RhsKind::SameAsLhs => Kinds::of(self.kind(x)),
                    RhsKind::AnyOf(k) => k,
                };
                self.expect(name, y, rhs_kinds)?;
                res.apply(self.kind(x))
            }
            Op::Select { cond, a, b } => {
                self.expect(name, cond, Kinds::BOOL)?;
                self.expect(name, b, Kinds::of(self.kind(a)))?;
                self.kind(a)
            }
            Op::Fma(a, b, c) | Op::FClamp(a, b, c) | Op::FMix(a, b, c) => {
                for v in [a, b, c] {
                    self.expect(name, v, Kinds::F32)?;
                }
                ScalarKind::F32
            }
            Op::F64 { op, args, word } => {
                for v in &args[..op.arg_words()] {
                    self.expect(name, *v, Kinds::of(op.arg_kind()))?;
                }
                if word > 1 || (word == 1 && !op.double_result()) {
                    return Err(ValidationError::F64Word { word });
                }
                op.result_kind()
            }
            Op::BitfieldExtract {
                value,
                offset,
                bits,
            } => {
                self.expect(name, value, Kinds::INT)?;
                self.expect(name, offset, Kinds::INT)?;
                self.expect(name, bits, Kinds::INT)?;
                self.kind(value)
            }
            Op::BitfieldInsert {
                base,
                insert,
                offset,
                bits,
            } => {
                self.expect(name, base, Kinds::INT)?;
                self.expect(name, insert, Kinds::of(self.kind(base)))?;
                self.expect(name, offset, Kinds::INT)?;
                self.expect(name, bits, Kinds::INT)?;
                self.kind(base)
            }
            // A compute module's input rows are its built-ins and its state rows
            // (`ir::compute`), read as the var's own kind.
            Op::Input(_) if self.module.stage == Stage::Compute => dst_kind,
            Op::Input(word) => {
                let Some(decl) = self
                    .module
                    .inputs
                    .iter()
                    .find(|i| word >= i.slot && (word as u64) < i.slot as u64 + i.words as u64)
                else {
                    return Err(ValidationError::InputOutOfRange { word });
                };
                let expected = word_kind(decl.ty.base);
                if dst_kind != expected {
                    return Err(ValidationError::InputKind {
                        word,
                        found: dst_kind,
                        expected,
                    });
                }
                dst_kind
            }
            Op::Builtin(b) => {
                if builtin_stage(b) != self.module.stage {
                    return Err(ValidationError::BuiltinWrongStage {
                        builtin: b,
                        stage: self.module.stage,
                    });
                }
                builtin_kind(b)
            }
            Op::Uniform { offset, index } => {
                let last = match index {
                    None => offset as u64,
                    Some((v, stride, count)) => {
                        self.expect(name, v, Kinds::INT)?;
                        offset as u64 + count.saturating_sub(1) as u64 * stride as u64
                    }
                };
                if last >= self.module.uniform_words as u64 {
                    return Err(ValidationError::UniformOutOfRange {
                        last,
                        words: self.module.uniform_words,
                    });
                }
                dst_kind
            }
            Op::BlockLoad { dynamic, .. } | Op::StorageLoad { dynamic, .. } => {
                if let Some(v) = dynamic {
                    self.expect(name, v, Kinds::INT)?;
                }
                dst_kind
            }
            Op::StorageSize { .. } => ScalarKind::U32,
            Op::LoadArray { array, index } => {
                self.expect(name, index, Kinds::INT)?;
                self.module.func.arrays[array.0 as usize].kind
            }
        };
        self.expect_dst(name, dst, result)
    }
}

/// The kind of each word of an interface value of base type `base`: 64-bit values
/// (`uint64_t`, sampler handles) are two u32 words.
pub fn word_kind(base: BaseType) -> ScalarKind {
    match base {
        BaseType::Float => ScalarKind::F32,
        BaseType::Int => ScalarKind::I32,
        BaseType::Bool => ScalarKind::Bool,
        _ => ScalarKind::U32,
    }
}

fn check_interface(module: &Module) -> Result<(), ValidationError> {
    let func = &module.func;
    let count = func.outputs.len();
    // A rewritten geometry stage writes records of emitted vertices (`ir::geometry`): its
    // outputs describe each vertex; check the first.
    let base = match (module.stage, module.geometry.vertex_words) {
        (Stage::Geometry, Some(w)) => {
            if module.geometry.max_vertices == Some(0) {
                return Ok(());
            }
            super::geometry::vertex_at(0, w) + 1
        }
        _ => 0,
    };
    for o in &module.outputs {
        let o = &crate::ir::InterfaceVar {
            slot: o.slot + base,
            ..o.clone()
        };
        let end = o.slot as u64 + o.words as u64;
        if end > count as u64 {
            return Err(ValidationError::OutputOutOfRange {
                name: o.name.clone(),
                slot: o.slot,
                end,
                count,
            });
        }
        let expected = word_kind(o.ty.base);
        for word in o.slot..o.slot + o.words {
            let var = func.outputs[word as usize];
            let found = func.vars[var.0 as usize];
            if found != expected {
                return Err(ValidationError::OutputKind {
                    name: o.name.clone(),
                    word,
                    var: var.0,
                    found,
                    expected,
                });
            }
        }
    }
    Ok(())
}

/// The mnemonic of an op, as the dump prints it.
pub fn op_name(op: &Op) -> &'static str {
    match op {
        Op::Const(_) => "const",
        Op::Copy(_) => "copy",
        Op::Unary(u, _) => super::dump::unary_name(*u),
        Op::Binary(b, _, _) => super::dump::binary_name(*b),
        Op::Select { .. } => "select",
        Op::Fma(..) => "fma",
        Op::FClamp(..) => "fclamp",
        Op::FMix(..) => "fmix",
        Op::BitfieldExtract { .. } => "bfextract",
        Op::BitfieldInsert { .. } => "bfinsert",
        Op::Input(_) => "input",
        Op::Builtin(_) => "builtin",
        Op::Uniform { .. } => "uniform",
        Op::BlockLoad { .. } => "blockload",
        Op::StorageLoad { .. } => "storageload",
        Op::StorageSize { .. } => "storagesize",
        Op::LoadArray { .. } => "load",
        Op::F64 { op, .. } => super::dump::f64_name(*op),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::builder::Builder;
    use ScalarKind as K;

    fn err(b: Builder) -> ValidationError {
        let m = b.finish();
        match validate(&m) {
            Err(e) => e,
            Ok(()) => panic!("module should be invalid:\n{}", crate::ir::dump(&m)),
        }
    }

    #[test]
    fn valid_module_passes() {
        let mut b = Builder::new(Stage::Fragment);
        let x = b.input(0, K::F32);
        let y = b.unary(UnaryOp::Sin, x);
        let zero = b.f32(0.0);
        let c = b.binary(BinaryOp::FLt, y, zero);
        b.if_(c, |b| b.discard());
        b.block(|b, blk| {
            b.loop_(
                |b, l| {
                    b.if_(c, |b| b.leave(blk));
                    b.if_(c, |b| b.continue_(l));
                    b.break_(l);
                },
                |b, l| b.if_(c, |b| b.break_(l)),
            );
        });
        let fc = b.builtin(Builtin::FragCoordX);
        b.output(y);
        b.output(fc);
        assert_eq!(validate(&b.finish()), Ok(()));
    }

    #[test]
    fn handles_are_checked_first() {
        let mut b = Builder::new(Stage::Vertex);
        // A kind error and a bad handle: the handle is reported.
        let x = b.f32(1.0);
        b.assign(x, Op::Unary(UnaryOp::INeg, x));
        b.assign(x, Op::Copy(Var(99)));
        assert_eq!(err(b), ValidationError::VarOutOfRange { var: 99, count: 1 });

        let mut b = Builder::new(Stage::Vertex);
        let i = b.i32(0);
        b.load(ArrayId(3), i);
        assert!(matches!(
            err(b),
            ValidationError::ArrayOutOfRange { array: 3, .. }
        ));

        let mut b = Builder::new(Stage::Vertex);
        b.op(
            K::U32,
            Op::BlockLoad {
                block: 1,
                offset: 0,
                dynamic: None,
            },
        );
        assert!(matches!(
            err(b),
            ValidationError::BlockOutOfRange { block: 1, .. }
        ));

        let mut b = Builder::new(Stage::Vertex);
        b.module_mut().func.outputs.push(Var(5));
        assert!(matches!(
            err(b),
            ValidationError::VarOutOfRange { var: 5, .. }
        ));

        // Nested bodies are searched too.
        let mut b = Builder::new(Stage::Vertex);
        let c = b.bool(true);
        b.if_(c, |b| {
            b.loop_(|b, _| b.assign(Var(42), Op::Copy(c)), |_, _| {})
        });
        assert!(matches!(
            err(b),
            ValidationError::VarOutOfRange { var: 42, .. }
        ));
    }

    #[test]
    fn operand_and_result_kinds() {
        let mut b = Builder::new(Stage::Vertex);
        let x = b.i32(1);
        b.unary(UnaryOp::Sin, x);
        assert!(matches!(
            err(b),
            ValidationError::OperandKind {
                op: "sin",
                found: K::I32,
                ..
            }
        ));

        let mut b = Builder::new(Stage::Vertex);
        let x = b.f32(1.0);
        let y = b.i32(1);
        b.binary(BinaryOp::FAdd, x, y);
        assert!(matches!(
            err(b),
            ValidationError::OperandKind { op: "fadd", .. }
        ));

        // Destination kind differs from the result kind.
        let mut b = Builder::new(Stage::Vertex);
        let x = b.f32(1.0);
        let d = b.var(K::I32);
        b.assign(d, Op::Binary(BinaryOp::FLt, x, x));
        assert!(matches!(
            err(b),
            ValidationError::ResultKind {
                op: "flt",
                found: K::I32,
                expected: K::Bool,
                ..
            }
        ));

        let mut b = Builder::new(Stage::Vertex);
        let d = b.var(K::F32);
        b.assign(d, Op::Const(Scalar::U32(1)));
        assert!(matches!(
            err(b),
            ValidationError::ResultKind { op: "const", .. }
        ));

        // Shifts take any integer count; not a float one.
        let mut b = Builder::new(Stage::Vertex);
        let x = b.u32(1);
        let n = b.i32(1);
        b.binary(BinaryOp::Shl, x, n);
        let f = b.f32(1.0);
        b.binary(BinaryOp::Shl, x, f);
        assert!(matches!(
            err(b),
            ValidationError::OperandKind { op: "shl", .. }
        ));

        let mut b = Builder::new(Stage::Vertex);
        let f = b.f32(1.0);
        b.if_(f, |_| {});
        assert!(matches!(
            err(b),
            ValidationError::OperandKind { op: "if", .. }
        ));

        let mut b = Builder::new(Stage::Vertex);
        let a = b.array(K::F32, 2);
        let i = b.i32(0);
        b.store(a, i, i);
        assert!(matches!(
            err(b),
            ValidationError::OperandKind { op: "store", .. }
        ));

        let mut b = Builder::new(Stage::Fragment);
        let d = b.var(K::F32);
        b.assign(d, Op::Builtin(Builtin::FrontFacing));
        assert!(matches!(
            err(b),
            ValidationError::ResultKind { op: "builtin", .. }
        ));

        let mut b = Builder::new(Stage::Fragment);
        let h = b.i32(0);
        let c = b.f32(0.0);
        let d = b.var(K::F32);
        b.push(Stmt::Texture {
            dst: [d; 4],
            handle: [h, h],
            coord: [c, c],
            lod: Lod::Implicit,
            offset: [0, 0],
            compare: None,
            layer: None,
            cube_layer: None,
        });
        assert!(matches!(
            err(b),
            ValidationError::OperandKind { op: "texture", .. }
        ));
    }

    #[test]
    fn signature_table_agrees_with_result_helpers() {
        assert_eq!(unary_result(UnaryOp::FindMsbU, K::U32), Some(K::I32));
        assert_eq!(unary_result(UnaryOp::FindMsbU, K::I32), None);
        assert_eq!(unary_result(UnaryOp::Not, K::U32), Some(K::U32));
        assert_eq!(binary_result(BinaryOp::ShrU, K::I32, K::U32), Some(K::I32));
        assert_eq!(binary_result(BinaryOp::IAdd, K::I32, K::U32), None);
        assert_eq!(binary_result(BinaryOp::ULt, K::U32, K::U32), Some(K::Bool));
        assert_eq!(Kinds::INT.to_string(), "i32 or u32");
    }

    #[test]
    fn control_flow_rules() {
        let mut b = Builder::new(Stage::Vertex);
        b.break_(Label(0));
        assert_eq!(err(b), ValidationError::BreakOutsideLoop(0));

        // Break of a block label is not a break of a loop.
        let mut b = Builder::new(Stage::Vertex);
        b.block(|b, l| b.break_(l));
        assert_eq!(err(b), ValidationError::BreakOutsideLoop(0));

        let mut b = Builder::new(Stage::Vertex);
        b.loop_(|_, _| {}, |_, _| {});
        b.continue_(Label(0));
        assert_eq!(err(b), ValidationError::ContinueOutsideLoop(0));

        let mut b = Builder::new(Stage::Vertex);
        b.loop_(|b, l| b.break_(l), |b, l| b.continue_(l));
        assert_eq!(err(b), ValidationError::ContinueInContinuing(0));

        let mut b = Builder::new(Stage::Vertex);
        b.loop_(|b, l| b.leave(l), |_, _| {});
        assert_eq!(err(b), ValidationError::LeaveOutsideBlock(0));

        let mut b = Builder::new(Stage::Vertex);
        b.push(Stmt::Block {
            label: Label(3),
            body: vec![Stmt::Block {
                label: Label(3),
                body: vec![],
            }],
        });
        assert_eq!(err(b), ValidationError::DuplicateLabel(3));

        let mut b = Builder::new(Stage::Vertex);
        b.discard();
        assert_eq!(err(b), ValidationError::DiscardOutsideFragment);

        let mut b = Builder::new(Stage::Fragment);
        b.push(Stmt::Discard);
        assert_eq!(err(b), ValidationError::DiscardNotDeclared);
    }

    #[test]
    fn interface_rules() {
        let mut b = Builder::new(Stage::Vertex);
        b.input(0, K::F32);
        b.op(K::F32, Op::Input(1));
        assert_eq!(err(b), ValidationError::InputOutOfRange { word: 1 });

        let mut b = Builder::new(Stage::Vertex);
        let x = b.f32(0.0);
        b.output(x);
        b.module_mut().outputs[0].words = 4;
        assert!(matches!(
            err(b),
            ValidationError::OutputOutOfRange {
                end: 4,
                count: 1,
                ..
            }
        ));

        let mut b = Builder::new(Stage::Vertex);
        b.input(0, K::F32);
        b.op(K::I32, Op::Input(0));
        assert_eq!(
            err(b),
            ValidationError::InputKind {
                word: 0,
                found: K::I32,
                expected: K::F32
            }
        );

        let mut b = Builder::new(Stage::Vertex);
        let x = b.f32(0.0);
        let y = b.u32(0);
        b.output(x);
        b.output(y);
        b.module_mut().outputs[0].words = 2;
        assert!(matches!(
            err(b),
            ValidationError::OutputKind {
                word: 1,
                var: 1,
                found: K::U32,
                expected: K::F32,
                ..
            }
        ));

        let mut b = Builder::new(Stage::Vertex);
        b.builtin(Builtin::FragCoordX);
        assert!(matches!(err(b), ValidationError::BuiltinWrongStage { .. }));

        let mut b = Builder::new(Stage::Vertex);
        b.uniform(3, K::F32);
        b.module_mut().uniform_words = 2;
        assert_eq!(
            err(b),
            ValidationError::UniformOutOfRange { last: 3, words: 2 }
        );

        // Indexed: the last element must fit.
        let mut b = Builder::new(Stage::Vertex);
        b.module_mut().uniform_words = 8;
        let i = b.i32(0);
        b.op(
            K::F32,
            Op::Uniform {
                offset: 2,
                index: Some((i, 2, 4)),
            },
        );
        assert_eq!(
            err(b),
            ValidationError::UniformOutOfRange { last: 8, words: 8 }
        );
    }
}
