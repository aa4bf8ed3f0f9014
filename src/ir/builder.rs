//! A small builder for IR modules by hand: tests of the interpreter, the JIT and the
//! validator write shaders with it instead of spelling out `Stmt` trees. Nested bodies are
//! closures; labels are allocated for you.
//!
//! ```
//! use softgl::ir::{builder::Builder, BinaryOp, ScalarKind, Stage};
//! let mut b = Builder::new(Stage::Vertex);
//! let x = b.input(0, ScalarKind::F32);
//! let two = b.f32(2.0);
//! let y = b.binary(BinaryOp::FMul, x, two);
//! b.output(y);
//! let module = b.finish();
//! assert!(softgl::ir::validate::validate(&module).is_ok());
//! ```
//!
//! The builder does not validate; `finish` hands back whatever was built (an op with wrong
//! operand kinds gets its first operand's kind), so invalid modules can be built on
//! purpose for validator tests.

use super::module::*;
use super::validate::{binary_result, builtin_kind, unary_result};

/// Builds one `Module` statement by statement.
pub struct Builder {
    module: Module,
    /// Statement lists being built; the last one receives new statements.
    lists: Vec<Vec<Stmt>>,
    next_label: u32,
}

impl Builder {
    /// An empty module of `stage`, `#version 450`.
    pub fn new(stage: Stage) -> Self {
        Builder {
            module: Module {
                stage,
                version: 450,
                func: Function::default(),
                inputs: Vec::new(),
                outputs: Vec::new(),
                uniforms: Vec::new(),
                uniform_words: 0,
                blocks: Vec::new(),
                uses_discard: false,
                writes_depth: false,
                early_fragment_tests: false,
                global_bindless_sampler: false,
                global_bound_sampler: false,
            },
            lists: vec![Vec::new()],
            next_label: 0,
        }
    }

    /// The module under construction, for interface fields the builder has no method for.
    pub fn module_mut(&mut self) -> &mut Module {
        &mut self.module
    }

    /// A new var of `kind` (0 in every lane until assigned).
    pub fn var(&mut self, kind: ScalarKind) -> Var {
        self.module.func.vars.push(kind);
        Var(self.module.func.vars.len() as u32 - 1)
    }

    /// The kind of `v` (`F32` for an out-of-range handle).
    pub fn kind(&self, v: Var) -> ScalarKind {
        self.module
            .func
            .vars
            .get(v.0 as usize)
            .copied()
            .unwrap_or(ScalarKind::F32)
    }

    /// A new local array.
    pub fn array(&mut self, kind: ScalarKind, len: u32) -> ArrayId {
        self.module.func.arrays.push(ArrayDecl { kind, len });
        ArrayId(self.module.func.arrays.len() as u32 - 1)
    }

    /// Appends any statement to the current body.
    pub fn push(&mut self, stmt: Stmt) {
        if let Some(list) = self.lists.last_mut() {
            list.push(stmt);
        }
    }

    /// `dst = op`.
    pub fn assign(&mut self, dst: Var, op: Op) {
        self.push(Stmt::Assign { dst, op });
    }

    /// A new var of `kind` assigned `op`.
    pub fn op(&mut self, kind: ScalarKind, op: Op) -> Var {
        let v = self.var(kind);
        self.assign(v, op);
        v
    }

    pub fn constant(&mut self, c: Scalar) -> Var {
        self.op(c.kind(), Op::Const(c))
    }
    pub fn f32(&mut self, x: f32) -> Var {
        self.constant(Scalar::F32(x))
    }
    pub fn i32(&mut self, x: i32) -> Var {
        self.constant(Scalar::I32(x))
    }
    pub fn u32(&mut self, x: u32) -> Var {
        self.constant(Scalar::U32(x))
    }
    pub fn bool(&mut self, x: bool) -> Var {
        self.constant(Scalar::Bool(x))
    }

    /// A copy of `a` in a new var.
    pub fn copy(&mut self, a: Var) -> Var {
        let k = self.kind(a);
        self.op(k, Op::Copy(a))
    }

    /// `op a` into a new var of the op's result kind.
    pub fn unary(&mut self, op: UnaryOp, a: Var) -> Var {
        let k = unary_result(op, self.kind(a)).unwrap_or(self.kind(a));
        self.op(k, Op::Unary(op, a))
    }

    /// `op a, b` into a new var of the op's result kind.
    pub fn binary(&mut self, op: BinaryOp, a: Var, b: Var) -> Var {
        let k = binary_result(op, self.kind(a), self.kind(b)).unwrap_or(self.kind(a));
        self.op(k, Op::Binary(op, a, b))
    }

    /// `cond ? a : b` per lane.
    pub fn select(&mut self, cond: Var, a: Var, b: Var) -> Var {
        let k = self.kind(a);
        self.op(k, Op::Select { cond, a, b })
    }

    /// Reads input word `word` as `kind`; declares a one-word input `in{word}` unless a
    /// declared input covers the word already.
    pub fn input(&mut self, word: u32, kind: ScalarKind) -> Var {
        let covered = self
            .module
            .inputs
            .iter()
            .any(|i| word >= i.slot && (word as u64) < i.slot as u64 + i.words as u64);
        if !covered {
            self.module.inputs.push(InterfaceVar {
                name: format!("in{word}"),
                ty: ValueType::new(base_of(kind), 1, 1),
                array_len: None,
                location: None,
                slot: word,
                words: 1,
                interpolation: Interpolation::Smooth,
                builtin: None,
            });
        }
        self.op(kind, Op::Input(word))
    }

    /// Reads a builtin.
    pub fn builtin(&mut self, b: Builtin) -> Var {
        self.op(builtin_kind(b), Op::Builtin(b))
    }

    /// Reads default-block uniform word `offset` as `kind` (grows `uniform_words` to hold
    /// it).
    pub fn uniform(&mut self, offset: u32, kind: ScalarKind) -> Var {
        self.module.uniform_words = self.module.uniform_words.max(offset.saturating_add(1));
        self.op(
            kind,
            Op::Uniform {
                offset,
                index: None,
            },
        )
    }

    /// Makes `v` the next output word and declares it as a one-word output `out{slot}`;
    /// returns the slot.
    pub fn output(&mut self, v: Var) -> u32 {
        let slot = self.module.func.outputs.len() as u32;
        let kind = self.kind(v);
        self.module.func.outputs.push(v);
        self.module.outputs.push(InterfaceVar {
            name: format!("out{slot}"),
            ty: ValueType::new(base_of(kind), 1, 1),
            array_len: None,
            location: None,
            slot,
            words: 1,
            interpolation: Interpolation::Smooth,
            builtin: None,
        });
        slot
    }

    fn nested(&mut self, f: impl FnOnce(&mut Self)) -> Vec<Stmt> {
        self.lists.push(Vec::new());
        f(self);
        self.lists.pop().unwrap_or_default()
    }

    /// A fresh label.
    pub fn label(&mut self) -> Label {
        self.next_label += 1;
        Label(self.next_label - 1)
    }

    /// `if cond { then } else { else }`.
    pub fn if_else(
        &mut self,
        cond: Var,
        then_body: impl FnOnce(&mut Self),
        else_body: impl FnOnce(&mut Self),
    ) {
        let then_body = self.nested(then_body);
        let else_body = self.nested(else_body);
        self.push(Stmt::If {
            cond,
            then_body,
            else_body,
        });
    }

    /// `if cond { then }`.
    pub fn if_(&mut self, cond: Var, then_body: impl FnOnce(&mut Self)) {
        self.if_else(cond, then_body, |_| {});
    }

    /// A loop; both closures get the loop's label.
    pub fn loop_(
        &mut self,
        body: impl FnOnce(&mut Self, Label),
        continuing: impl FnOnce(&mut Self, Label),
    ) {
        let label = self.label();
        let body = self.nested(|b| body(b, label));
        let continuing = self.nested(|b| continuing(b, label));
        self.push(Stmt::Loop {
            label,
            body,
            continuing,
        });
    }

    /// A labelled block that `leave` exits.
    pub fn block(&mut self, body: impl FnOnce(&mut Self, Label)) {
        let label = self.label();
        let body = self.nested(|b| body(b, label));
        self.push(Stmt::Block { label, body });
    }

    pub fn break_(&mut self, l: Label) {
        self.push(Stmt::Break(l));
    }
    pub fn continue_(&mut self, l: Label) {
        self.push(Stmt::Continue(l));
    }
    pub fn leave(&mut self, l: Label) {
        self.push(Stmt::Leave(l));
    }
    pub fn ret(&mut self) {
        self.push(Stmt::Return);
    }
    /// `discard`; marks the module `uses_discard`.
    pub fn discard(&mut self) {
        self.module.uses_discard = true;
        self.push(Stmt::Discard);
    }

    /// `array[index] = value`.
    pub fn store(&mut self, array: ArrayId, index: Var, value: Var) {
        self.push(Stmt::StoreArray {
            array,
            index,
            value,
        });
    }

    /// `array[index]` into a new var.
    pub fn load(&mut self, array: ArrayId, index: Var) -> Var {
        let kind = self
            .module
            .func
            .arrays
            .get(array.0 as usize)
            .map(|a| a.kind)
            .unwrap_or(ScalarKind::F32);
        self.op(kind, Op::LoadArray { array, index })
    }

    /// The finished module (statements of unclosed bodies are kept in order).
    pub fn finish(mut self) -> Module {
        while self.lists.len() > 1 {
            let inner = self.lists.pop().unwrap_or_default();
            if let Some(outer) = self.lists.last_mut() {
                outer.extend(inner);
            }
        }
        self.module.func.body = self.lists.pop().unwrap_or_default();
        self.module
    }
}

fn base_of(kind: ScalarKind) -> BaseType {
    match kind {
        ScalarKind::F32 => BaseType::Float,
        ScalarKind::I32 => BaseType::Int,
        ScalarKind::U32 => BaseType::Uint,
        ScalarKind::Bool => BaseType::Bool,
    }
}
