//! Atomic counters in the front end (GLSL 4.60 §4.1.7.4, §4.4.6.2, §8.10;
//! GL_ARB_shader_atomic_counters, GL_ARB_shader_atomic_counter_ops): `layout(binding,
//! offset) uniform atomic_uint c[N];` declarations, the default offset of each binding,
//! where counters may not appear, and the counter built-ins. A binding's counters live in
//! one hidden storage block (`ir::atomic_counter`); every counter function is one
//! `Stmt::Storage` atomic (or a load) on the counter's word.

use std::rc::Rc;

use crate::ir::atomic_counter::{buffer_block_name, MAX_ATOMIC_COUNTER_BUFFER_BINDINGS};
use crate::ir::{self, AtomicOp, BaseType, BinaryOp, Op, ScalarKind, Stmt, StorageAccess};

use super::ast::{self, Expr, Qualifiers, Storage};
use super::diag::Span;
use super::lower::{bail, Lowerer, Root, Sym, Value, VarSym, R};
use super::types::{BlockLayout, Type};

/// The hidden storage block of one binding point in this stage.
#[derive(Clone, Debug)]
pub struct CounterBuffer {
    pub binding: u32,
    /// Index in `Module::storage_blocks`.
    pub block: u32,
    /// Byte offset the next counter of this binding declared without `offset` gets.
    pub next_offset: u32,
}

/// A counter parameter that aliases an indexed counter, with the dynamic index terms of
/// its place (`Place::dyns`).
pub type CounterParam = (Rc<VarSym>, Vec<(ir::Var, u32, u32)>);

const COUNTER: Type = Type::Basic(ir::ValueType::new(BaseType::AtomicUint, 1, 1));

impl Lowerer {
    fn atomic_counters_enabled(&self) -> bool {
        self.version >= 420 || self.atomic_counters
    }

    /// GLSL 4.60 §4.1.7.4: "[counters] can only be declared as function parameters or
    /// uniform-qualified global variables", never in blocks or structures. `what` names
    /// the place for the message.
    pub(super) fn refuse_atomic_counter(&mut self, ty: &Type, span: Span, what: &str) -> R<()> {
        if ty.contains_base(BaseType::AtomicUint) {
            bail!(
                self,
                span,
                "atomic counters can only be uniform global variables or function parameters, not {what}"
            );
        }
        Ok(())
    }

    /// `layout(binding = b, offset = o)` of a counter declaration: (binding, explicit
    /// offset).
    fn counter_layout(&mut self, q: &Qualifiers) -> R<(u32, Option<u32>)> {
        let (mut binding, mut offset) = (0, None);
        for l in &q.layout {
            match l.name.as_str() {
                "binding" => {
                    binding = self.layout_binding(
                        l,
                        1,
                        MAX_ATOMIC_COUNTER_BUFFER_BINDINGS,
                        "GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS",
                    )?
                }
                "offset" => {
                    let o = self.layout_int(l)?;
                    // GLSL 4.60 §4.4.6.2: "offsets must be a multiple of 4".
                    if o % 4 != 0 || o > u32::MAX as i64 {
                        bail!(
                            self,
                            l.span,
                            "atomic counter offset {o} is not a multiple of 4"
                        );
                    }
                    offset = Some(o as u32);
                }
                n => bail!(
                    self,
                    l.span,
                    "layout qualifier `{n}' is not valid on an atomic counter"
                ),
            }
        }
        Ok((binding, offset))
    }

    /// This stage's hidden block of `binding`, made on first use.
    fn counter_buffer(&mut self, binding: u32) -> usize {
        if let Some(i) = (self.atomic_counter_buffers.iter()).position(|b| b.binding == binding) {
            return i;
        }
        self.atomic_counter_buffers.push(CounterBuffer {
            binding,
            block: self.storage_blocks.len() as u32,
            next_offset: 0,
        });
        self.storage_blocks.push(ir::BlockDecl {
            name: buffer_block_name(binding),
            binding: Some(binding),
            size: 0,
            members: Vec::new(),
        });
        self.atomic_counter_buffers.len() - 1
    }

    /// `layout(binding = b, offset = o) uniform atomic_uint;` with no name: the next
    /// counter of binding `b` declared without an offset goes to `o` (GLSL 4.60 §4.4.6.2).
    pub(super) fn atomic_counter_default(&mut self, q: &Qualifiers, span: Span) -> R<()> {
        if !self.atomic_counters_enabled() {
            bail!(
                self,
                span,
                "atomic_uint requires GLSL 4.20 or GL_ARB_shader_atomic_counters"
            );
        }
        if q.storage != Some(Storage::Uniform) {
            return self.refuse_atomic_counter(&COUNTER, span, "of this storage");
        }
        let (binding, offset) = self.counter_layout(q)?;
        if let Some(o) = offset {
            let i = self.counter_buffer(binding);
            self.atomic_counter_buffers[i].next_offset = o;
        }
        Ok(())
    }

    /// `layout(binding = b, offset = o) uniform atomic_uint c;` (or an array of them).
    pub(super) fn atomic_counter_var(
        &mut self,
        q: &Qualifiers,
        ty: &Type,
        d: &ast::Declarator,
    ) -> R<()> {
        if !self.atomic_counters_enabled() {
            bail!(
                self,
                d.span,
                "atomic_uint requires GLSL 4.20 or GL_ARB_shader_atomic_counters"
            );
        }
        let len = match ty {
            t if *t == COUNTER => None,
            Type::Array(e, n) if **e == COUNTER => Some(*n),
            _ => bail!(
                self,
                d.span,
                "atomic counter `{}' must be an atomic_uint or a one-dimensional array of them",
                d.name
            ),
        };
        if d.init.is_some() {
            bail!(
                self,
                d.span,
                "atomic counter `{}' cannot have an initializer",
                d.name
            );
        }
        let (binding, offset) = self.counter_layout(q)?;
        let i = self.counter_buffer(binding);
        let buf = self.atomic_counter_buffers[i].clone();
        let offset = offset.unwrap_or(buf.next_offset);
        let words = len.unwrap_or(1);
        let member = ir::BlockMember {
            name: match len {
                Some(_) => format!("{}[0]", d.name),
                None => d.name.clone(),
            },
            ty: ir::ValueType::new(BaseType::AtomicUint, 1, 1),
            array_len: len,
            offset,
            array_stride: if len.is_some() { 4 } else { 0 },
            matrix_stride: 0,
            row_major: false,
        };
        let decl = &mut self.storage_blocks[buf.block as usize];
        if let Some(o) = ir::atomic_counter::overlapping(&decl.members, &member) {
            let other = o.name.clone();
            bail!(
                self,
                d.span,
                "atomic counter `{}' overlaps `{other}' (binding {binding}, offset {offset})",
                d.name
            );
        }
        decl.members.push(member);
        decl.size = ir::atomic_counter::buffer_size(&decl.members);
        if decl.size > ir::atomic_counter::MAX_ATOMIC_COUNTER_BUFFER_SIZE {
            bail!(
                self,
                d.span,
                "atomic counter `{}' ends past GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE ({})",
                d.name,
                ir::atomic_counter::MAX_ATOMIC_COUNTER_BUFFER_SIZE
            );
        }
        self.atomic_counter_buffers[i].next_offset = offset + 4 * words;
        let sym = VarSym {
            ty: ty.clone(),
            // std430: an array of counters has stride 4.
            root: Root::Storage {
                block: buf.block,
                layout: BlockLayout {
                    row_major: false,
                    std430: true,
                },
            },
            base: offset,
            // Counters are never l-values (GLSL 4.60 §4.1.7.4).
            writable: false,
            konst: None,
        };
        self.declare(&d.name, d.span, Sym::Var(Rc::new(sym)))
    }

    /// Declares parameter `name` of type `ty` (a counter or an array of them) of the
    /// function being inlined as the caller's counter `arg` (GLSL 4.60 §4.1.7.4: counters
    /// "can only be declared as function parameters or uniform-qualified global
    /// variables"; a parameter names the caller's counter, it holds no value). With no
    /// argument (the body checked once at its definition) it stands for a counter of no
    /// block; that code is thrown away.
    pub(super) fn counter_param(
        &mut self,
        name: &str,
        span: Span,
        ty: &Type,
        arg: Option<super::place::Place>,
    ) -> R<()> {
        let (root, base, dyns) = match arg {
            Some(p) => (p.root, p.base, p.dyns),
            None => (
                Root::Storage {
                    block: u32::MAX,
                    layout: BlockLayout {
                        row_major: false,
                        std430: true,
                    },
                },
                0,
                Vec::new(),
            ),
        };
        let sym = Rc::new(VarSym {
            ty: ty.clone(),
            root,
            base,
            writable: false,
            konst: None,
        });
        if !dyns.is_empty() {
            self.counter_param_dyns.push((sym.clone(), dyns));
        }
        self.declare(name, span, Sym::Var(sym))
    }

    /// The dynamic index terms a counter parameter's place starts with: those of the
    /// indexed counter it was called with (`f(c[i])`), none for other variables.
    pub(super) fn counter_param_place_dyns(&self, v: &Rc<VarSym>) -> Vec<(ir::Var, u32, u32)> {
        if !v.ty.contains_base(BaseType::AtomicUint) {
            return Vec::new();
        }
        (self.counter_param_dyns.iter())
            .find(|(s, _)| Rc::ptr_eq(s, v))
            .map(|(_, d)| d.clone())
            .unwrap_or_default()
    }

    /// The counter built-ins of GLSL 4.60 §8.10 on a counter argument: `None` when `name`
    /// is not one.
    pub(super) fn atomic_counter_call(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<R<Value>> {
        // GL_ARB_shader_atomic_counter_ops spells GLSL 4.60's operations with an ARB
        // suffix (atomicCounterAddARB); only with the extension enabled.
        let (name, arb) = match name.strip_suffix("ARB") {
            Some(n) if self.atomic_counter_ops => (n, true),
            _ => (name, false),
        };
        // (operation, extra operands, needs GL_ARB_shader_atomic_counter_ops / GLSL 4.60)
        let (op, extra, ops) = match name {
            "atomicCounterIncrement" => (Some(AtomicOp::Add), 0, false),
            "atomicCounterDecrement" => (Some(AtomicOp::Add), 0, false),
            "atomicCounter" => (None, 0, false),
            "atomicCounterAdd" => (Some(AtomicOp::Add), 1, true),
            "atomicCounterSubtract" => (Some(AtomicOp::Add), 1, true),
            "atomicCounterMin" => (Some(AtomicOp::Min), 1, true),
            "atomicCounterMax" => (Some(AtomicOp::Max), 1, true),
            "atomicCounterAnd" => (Some(AtomicOp::And), 1, true),
            "atomicCounterOr" => (Some(AtomicOp::Or), 1, true),
            "atomicCounterXor" => (Some(AtomicOp::Xor), 1, true),
            "atomicCounterExchange" => (Some(AtomicOp::Exchange), 1, true),
            "atomicCounterCompSwap" => (None, 2, true),
            _ => return None,
        };
        if arb && !ops {
            return None;
        }
        if !self.atomic_counters_enabled()
            || (ops && self.version < 460 && !self.atomic_counter_ops)
        {
            // Not a built-in of this version: a user function of that name may exist.
            return None;
        }
        Some(self.counter_op(name, op, extra, args, span))
    }

    fn counter_op(
        &mut self,
        name: &str,
        op: Option<AtomicOp>,
        extra: usize,
        args: &[Expr],
        span: Span,
    ) -> R<Value> {
        if args.len() != 1 + extra {
            bail!(self, span, "{name} takes {} arguments", 1 + extra);
        }
        let p = self.place(&args[0])?;
        let Root::Storage { block, .. } = p.root else {
            bail!(
                self,
                args[0].span,
                "the first argument of {name} must be an atomic counter"
            );
        };
        if p.ty != COUNTER {
            bail!(
                self,
                args[0].span,
                "the first argument of {name} must be an atomic counter"
            );
        }
        let mut data = Vec::with_capacity(extra);
        for a in &args[1..] {
            let v = self.expr(a)?;
            let v = self.coerce(v, &Type::UINT, a.span)?;
            data.push(v.vars[0]);
        }
        // `c[i]` with i outside the array reaches no counter (a neighbour's word would be
        // a write GL never asked for): its offset moves past every buffer, where loads
        // give 0 and atomics do nothing.
        let dynamic = match p.dyns.as_slice() {
            [] => None,
            [(iv, _, count)] => {
                let iv = *iv;
                let iv = if self.kind_of(iv) == ScalarKind::I32 {
                    self.assign(ScalarKind::U32, Op::Unary(ir::UnaryOp::I2U, iv))
                } else {
                    iv
                };
                let n = self.konst(ir::Scalar::U32(*count));
                let inside = self.assign(ScalarKind::Bool, Op::Binary(BinaryOp::ULt, iv, n));
                let bytes = self.combined_index(&p.dyns, 1);
                let away = self.konst(ir::Scalar::U32(!3));
                Some(self.assign(
                    ScalarKind::U32,
                    Op::Select {
                        cond: inside,
                        a: bytes,
                        b: away,
                    },
                ))
            }
            _ => bail!(
                self,
                span,
                "internal error: a counter array has one dimension"
            ),
        };
        let offset = p.base;
        let uint = |v| Value {
            ty: Type::UINT,
            vars: vec![v],
        };
        if name == "atomicCounter" {
            let v = self.assign(
                ScalarKind::U32,
                Op::StorageLoad {
                    block,
                    offset,
                    dynamic,
                },
            );
            return Ok(uint(v));
        }
        let operand = match name {
            "atomicCounterIncrement" => self.konst(ir::Scalar::U32(1)),
            "atomicCounterDecrement" => self.konst(ir::Scalar::U32(u32::MAX)),
            "atomicCounterSubtract" => {
                let zero = self.konst(ir::Scalar::U32(0));
                self.assign(ScalarKind::U32, Op::Binary(BinaryOp::ISub, zero, data[0]))
            }
            _ => data[0],
        };
        let access = match op {
            Some(op) => StorageAccess::Atomic(op, operand),
            None => StorageAccess::CompSwap {
                compare: data[0],
                value: data[1],
            },
        };
        let old = self.new_var(ScalarKind::U32);
        self.emit(Stmt::Storage {
            dst: Some(old),
            block,
            offset,
            dynamic,
            access,
        });
        if name == "atomicCounterDecrement" {
            // GLSL 4.60 §8.10: Decrement returns the decremented value, the others the
            // value before the operation.
            let one = self.konst(ir::Scalar::U32(1));
            let new = self.assign(ScalarKind::U32, Op::Binary(BinaryOp::ISub, old, one));
            return Ok(uint(new));
        }
        Ok(uint(old))
    }
}
