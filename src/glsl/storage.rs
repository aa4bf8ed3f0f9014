//! Shader storage blocks (GLSL 4.60 §4.3.7, GL 4.5 core §7.8): `buffer` block declarations
//! with their std430/std140 layout, runtime-sized last members and `length()`, the memory
//! qualifiers, and the atomic built-ins on their members (§8.11). Reads and writes of block
//! members go through `place.rs` like every other place; uniform blocks stay in
//! `interface.rs`.
//!
//! Layout. `layout(std430)` and `layout(std140)` are what they say; a block that names
//! neither (`shared`/`packed`, the spec's implementation-defined default) is laid out as
//! std140, as Mesa does, so programs that assume std140 for unqualified blocks keep working
//! and programs that query offsets read the truth.

use std::rc::Rc;

use crate::ir::{self, AtomicOp, BinaryOp, Op, Scalar, ScalarKind, Stmt, StorageAccess};

use super::ast::{self, Expr, Storage};
use super::diag::Span;
use super::lower::{bail, GlobalOrigin, Lowerer, Root, Sym, Value, VarSym, R};
use super::place::Place;
use super::types::{self, BlockLayout, StructDef, Type};

/// A storage block member declared `readonly` or `writeonly` (itself or through its
/// block, GLSL 4.60 §4.10): its byte range in every block it is a member of, so that a
/// place of any shape (an instance's member, an element, a swizzle, a dynamic index) is
/// checked against the members it reaches.
#[derive(Clone, Debug)]
pub struct MemberAccess {
    pub block: u32,
    pub start: u32,
    /// One past the member's last byte; `u32::MAX` for a runtime-sized array.
    pub end: u32,
    pub readonly: bool,
    pub writeonly: bool,
    pub name: String,
}

impl Lowerer {
    /// A read (`write` false) or write of the words at `offs` past `p.base` (moved by
    /// `p.dyns`) in storage block `block`: a compile error when they reach a `writeonly`
    /// (read) or `readonly` (write) member (GLSL 4.60 §4.10).
    pub(super) fn check_member_access(
        &mut self,
        block: u32,
        p: &Place,
        offs: &[u32],
        write: bool,
        span: Span,
    ) -> R<()> {
        if self.storage_member_access.is_empty() {
            return Ok(());
        }
        let lo = p
            .base
            .saturating_add(offs.iter().copied().min().unwrap_or(0));
        let mut hi = p
            .base
            .saturating_add(offs.iter().copied().max().unwrap_or(0))
            .saturating_add(4);
        for &(_, stride, count) in &p.dyns {
            hi = match count {
                0 => u32::MAX,
                n => hi.saturating_add(stride.saturating_mul(n - 1)),
            };
        }
        let hit = self.storage_member_access.iter().find(|m| {
            m.block == block
                && m.start < hi
                && lo < m.end
                && if write { m.readonly } else { m.writeonly }
        });
        if let Some(m) = hit {
            let (what, q) = if write {
                ("assignment to", "readonly")
            } else {
                ("read of", "writeonly")
            };
            bail!(self, span, "{what} `{}', which is {q}", m.name);
        }
        Ok(())
    }

    /// An access to a place of `Root::StorageOneOf`: `f` on the same place in block
    /// `first + k` under `if (index == k)`, for each k; what `f` returns (words of
    /// `kinds`) is copied into vars that stay 0 when no block matches, so an index out of
    /// range reads zero and writes nothing (robust buffer access, GL 4.5 core §6.4).
    pub(super) fn each_indexed_block(
        &mut self,
        p: &Place,
        kinds: &[ScalarKind],
        span: Span,
        f: impl Fn(&mut Self, &Place) -> R<Vec<ir::Var>>,
    ) -> R<Vec<ir::Var>> {
        let Root::StorageOneOf {
            first,
            count,
            index,
            layout,
        } = p.root
        else {
            bail!(self, span, "internal error: not an indexed storage block");
        };
        let out: Vec<ir::Var> = kinds
            .iter()
            .map(|&k| {
                let zero = match k {
                    ScalarKind::F32 => Scalar::F32(0.0),
                    ScalarKind::I32 => Scalar::I32(0),
                    ScalarKind::U32 => Scalar::U32(0),
                    ScalarKind::Bool => Scalar::Bool(false),
                };
                self.assign(k, Op::Const(zero))
            })
            .collect();
        let signed = self.kind_of(index) == ScalarKind::I32;
        for k in 0..count {
            let kc = if signed {
                self.konst(Scalar::I32(k as i32))
            } else {
                self.konst(Scalar::U32(k))
            };
            let cond = self.assign(ScalarKind::Bool, Op::Binary(BinaryOp::IEq, index, kc));
            let pk = Place {
                root: Root::Storage {
                    block: first + k,
                    layout,
                },
                ..p.clone()
            };
            let (mut body, r) = self.collect(|s| {
                let vals = f(s, &pk)?;
                if vals.len() != out.len() {
                    bail!(s, span, "internal error: value size mismatch");
                }
                for (d, v) in out.iter().zip(vals) {
                    s.emit(Stmt::Assign {
                        dst: *d,
                        op: Op::Copy(v),
                    });
                }
                Ok(())
            });
            r?;
            if body.is_empty() {
                continue;
            }
            self.emit(Stmt::If {
                cond,
                then_body: std::mem::take(&mut body),
                else_body: Vec::new(),
            });
        }
        Ok(out)
    }

    /// `layout(std430, binding = N) buffer Name { ...; T last[]; } inst;`
    pub(super) fn storage_block(&mut self, b: &ast::BlockDecl) -> R<()> {
        debug_assert_eq!(b.quals.storage, Some(Storage::Buffer));
        if self.version < 430 && !self.memory.storage_buffer {
            bail!(
                self,
                b.span,
                "shader storage blocks require GLSL 4.30 or GL_ARB_shader_storage_buffer_object"
            );
        }
        let mut binding = None;
        let mut layout = BlockLayout::std140(false);
        for l in &b.quals.layout {
            match l.name.as_str() {
                "std140" | "shared" | "packed" => layout.std430 = false,
                "std430" => layout.std430 = true,
                "column_major" => layout.row_major = false,
                "row_major" => layout.row_major = true,
                "binding" => binding = Some((self.layout_int(l)? as u32, l)),
                n => bail!(
                    self,
                    l.span,
                    "layout qualifier `{n}' is not valid on a block"
                ),
            }
        }
        let block_readonly = b.quals.readonly;
        let mut members: Vec<(String, Type)> = Vec::new();
        let mut member_readonly: Vec<bool> = Vec::new();
        let mut member_writeonly: Vec<bool> = Vec::new();
        let n_members: usize = b.members.iter().map(|m| m.names.len()).sum();
        for m in &b.members {
            for l in &m.quals.layout {
                match l.name.as_str() {
                    "column_major" | "row_major" => {
                        if (l.name == "row_major") != layout.row_major {
                            bail!(
                                self,
                                l.span,
                                "a matrix layout on one member of a storage block is not supported"
                            );
                        }
                    }
                    n => bail!(
                        self,
                        l.span,
                        "layout qualifier `{n}' is not valid on a member"
                    ),
                }
            }
            if m.quals.storage.is_some() && m.quals.storage != Some(Storage::Buffer) {
                bail!(
                    self,
                    m.quals.span,
                    "storage qualifier not allowed on a block member"
                );
            }
            let mt = self.resolve_type(&m.ty)?;
            self.refuse_atomic_counter(&mt, m.ty.span, "members of blocks")?;
            for (n, dims, sp) in &m.names {
                let last = members.len() + 1 == n_members;
                let t = match dims.as_slice() {
                    // GLSL 4.60 §4.1.9: only the last member may be runtime-sized.
                    [None] if last => Type::Array(Box::new(mt.clone()), 0),
                    [None] => bail!(
                        self,
                        *sp,
                        "only the last member of a storage block may be an unsized array"
                    ),
                    _ => self.apply_dims(mt.clone(), dims, None, *sp)?,
                };
                if t.contains_sampler() {
                    self.need_bindless(*sp, "a sampler in a storage block")?;
                }
                if members.iter().any(|(x, _)| x == n) {
                    bail!(self, *sp, "duplicate block member `{n}'");
                }
                members.push((n.clone(), t));
                member_readonly.push(block_readonly || m.quals.readonly);
                member_writeonly.push(b.quals.writeonly || m.quals.writeonly);
            }
        }
        let def = Rc::new(StructDef {
            name: b.name.clone(),
            members,
        });
        let size = min_block_size(&def, layout);
        let offs = types::block_member_offsets(&def, layout);
        let mut reflected = Vec::new();
        for ((n, t), off) in def.members.iter().zip(&offs) {
            let prefix = match &b.instance {
                Some(_) => format!("{}.{}", b.name, n),
                None => n.clone(),
            };
            super::interface::block_leaves(&prefix, t, *off, layout, &mut reflected);
        }
        let dims = self.block_array_dims(b)?;
        let count = dims.as_ref().map(|d| d.iter().product::<u32>());
        let binding = match binding {
            Some((_, l)) => Some(self.layout_binding(
                l,
                count.unwrap_or(1) as u64,
                ir::link::MAX_SHADER_STORAGE_BUFFER_BINDINGS,
                "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS",
            )?),
            None => None,
        };
        let decls: Vec<ir::BlockDecl> = (0..count.unwrap_or(1))
            .map(|k| ir::BlockDecl {
                name: super::interface::block_element_name(&b.name, dims.as_deref(), k),
                binding: binding.map(|x| x + k),
                size,
                members: reflected.clone(),
            })
            .collect();
        let key = format!("buffer block {}", b.name);
        if self.globals.get(&key).is_some_and(|g| g.unit != self.unit) {
            // Declared by an earlier compilation unit: it must be the same block.
            let same = self
                .storage_blocks
                .iter()
                .position(|x| x.name == decls[0].name)
                .is_some_and(|i| self.storage_blocks.get(i..i + decls.len()) == Some(&decls[..]));
            let inst_here = b.instance.as_ref().map(|(n, _)| n.as_str());
            let inst_before = self.block_instances.get(&key).map(|x| x.as_deref());
            if !same || inst_before != Some(inst_here) {
                bail!(
                    self,
                    b.span,
                    "shader storage block `{}' differs between compilation units",
                    b.name
                );
            }
            return Ok(());
        }
        if self.units.len() > 1 {
            self.globals.insert(
                key.clone(),
                GlobalOrigin {
                    unit: self.unit,
                    storage: Some(Storage::Buffer),
                    is_struct: false,
                    init: None,
                },
            );
            self.block_instances
                .insert(key, b.instance.as_ref().map(|(n, _)| n.clone()));
        }
        let first = self.storage_blocks.len() as u32;
        for k in first..first + decls.len() as u32 {
            for (i, ((n, t), off)) in def.members.iter().zip(&offs).enumerate() {
                if !member_readonly[i] && !member_writeonly[i] {
                    continue;
                }
                let end = match t {
                    Type::Array(_, 0) => u32::MAX,
                    t => off.saturating_add(types::block_align_size(t, layout).1),
                };
                self.storage_member_access.push(MemberAccess {
                    block: k,
                    start: *off,
                    end,
                    readonly: member_readonly[i],
                    writeonly: member_writeonly[i],
                    name: n.clone(),
                });
            }
        }
        self.storage_blocks.extend(decls);
        match &b.instance {
            Some((inst, _)) => {
                let (ty, root) = match &dims {
                    Some(d) => (
                        super::interface::block_array_type(Type::Struct(def), d),
                        Root::StorageArray { first, layout },
                    ),
                    None => (
                        Type::Struct(def),
                        Root::Storage {
                            block: first,
                            layout,
                        },
                    ),
                };
                let sym = VarSym {
                    ty,
                    root,
                    base: 0,
                    // Per-member `readonly` and `writeonly` are checked by byte range
                    // (`check_member_access`); the instance itself is writable unless
                    // the whole block is readonly.
                    writable: !block_readonly,
                    konst: None,
                };
                self.declare(inst, b.span, Sym::Var(Rc::new(sym)))
            }
            None => {
                for (((n, t), off), ro) in def.members.iter().zip(offs).zip(member_readonly) {
                    let sym = VarSym {
                        ty: t.clone(),
                        root: Root::Storage {
                            block: first,
                            layout,
                        },
                        base: off,
                        writable: !ro,
                        konst: None,
                    };
                    self.declare(n, b.span, Sym::Var(Rc::new(sym)))?;
                }
                Ok(())
            }
        }
    }

    /// `arr.length()` of a runtime-sized array at `p` (a storage block's last member):
    /// max(bound bytes − offset, 0) / stride, as an int (GLSL 4.60 §4.1.9).
    pub(super) fn runtime_length(&mut self, p: &Place, span: Span) -> R<Value> {
        if let Root::StorageOneOf { .. } = p.root {
            let vars = self.each_indexed_block(p, &[ScalarKind::I32], span, |s, pk| {
                Ok(s.runtime_length(pk, span)?.vars)
            })?;
            return Ok(Value {
                ty: Type::INT,
                vars,
            });
        }
        let (Root::Storage { block, layout }, Type::Array(e, 0)) = (&p.root, &p.ty) else {
            bail!(self, span, "internal error: not a runtime-sized array");
        };
        let stride = types::block_array_stride(e, *layout).max(1);
        let size = self.assign(ScalarKind::U32, Op::StorageSize { block: *block });
        let base = self.konst(Scalar::U32(p.base));
        let inside = self.assign(ScalarKind::Bool, Op::Binary(BinaryOp::UGe, size, base));
        let rest = self.assign(ScalarKind::U32, Op::Binary(BinaryOp::ISub, size, base));
        let zero = self.konst(Scalar::U32(0));
        let rest = self.assign(
            ScalarKind::U32,
            Op::Select {
                cond: inside,
                a: rest,
                b: zero,
            },
        );
        let s = self.konst(Scalar::U32(stride));
        let n = self.assign(ScalarKind::U32, Op::Binary(BinaryOp::UDiv, rest, s));
        let n = self.assign(ScalarKind::I32, Op::Unary(ir::UnaryOp::U2I, n));
        Ok(Value {
            ty: Type::INT,
            vars: vec![n],
        })
    }

    /// `atomicAdd(mem, data)` and the rest of GLSL 4.60 §8.11 on a storage block member:
    /// `None` when `name` is not an atomic built-in.
    pub(super) fn atomic_call(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<R<Value>> {
        let op = match name {
            "atomicAdd" => Some(AtomicOp::Add),
            "atomicMin" => Some(AtomicOp::Min),
            "atomicMax" => Some(AtomicOp::Max),
            "atomicAnd" => Some(AtomicOp::And),
            "atomicOr" => Some(AtomicOp::Or),
            "atomicXor" => Some(AtomicOp::Xor),
            "atomicExchange" => Some(AtomicOp::Exchange),
            "atomicCompSwap" => None,
            _ => return None,
        };
        Some(self.atomic(name, op, args, span))
    }

    fn atomic(&mut self, name: &str, op: Option<AtomicOp>, args: &[Expr], span: Span) -> R<Value> {
        let want = if op.is_some() { 2 } else { 3 };
        if args.len() != want {
            bail!(self, span, "{name} takes {want} arguments");
        }
        // GL_ARB_compute_shader allows them on shared variables.
        if self.version < 430 && !self.memory.storage_buffer && !self.memory.compute {
            bail!(
                self,
                span,
                "{name} requires GLSL 4.30 or GL_ARB_shader_storage_buffer_object"
            );
        }
        let p = self.place(&args[0])?;
        if !matches!(p.root, Root::Storage { .. } | Root::StorageOneOf { .. }) {
            bail!(
                self,
                args[0].span,
                "the first argument of {name} must be a member of a shader storage block"
            );
        }
        if !(p.ty == Type::INT || p.ty == Type::UINT) {
            bail!(
                self,
                args[0].span,
                "{name} takes an int or uint memory operand"
            );
        }
        if !p.writable {
            bail!(self, args[0].span, "{name} on a readonly variable");
        }
        let kind = if p.ty == Type::INT {
            ScalarKind::I32
        } else {
            ScalarKind::U32
        };
        let operand = |e: &mut Self, x: &Expr| -> R<ir::Var> {
            let v = e.expr(x)?;
            if v.ty != p.ty {
                bail!(
                    e,
                    x.span,
                    "{name}: the data must have the type of the memory ({})",
                    p.ty
                );
            }
            Ok(v.vars[0])
        };
        // The data are evaluated once, before the block (if picked at run time) is.
        let access = match op {
            Some(op) => StorageAccess::Atomic(op, operand(self, &args[1])?),
            None => {
                let compare = operand(self, &args[1])?;
                let value = operand(self, &args[2])?;
                StorageAccess::CompSwap { compare, value }
            }
        };
        let at = args[0].span;
        let vars = if let Root::StorageOneOf { .. } = p.root {
            self.each_indexed_block(&p, &[kind], span, |s, pk| {
                s.emit_atomic(pk, access, kind, at)
            })?
        } else {
            self.emit_atomic(&p, access, kind, at)?
        };
        Ok(Value {
            ty: p.ty.clone(),
            vars,
        })
    }

    /// One atomic on the word of `p` (in one storage block); its result var.
    fn emit_atomic(
        &mut self,
        p: &Place,
        access: StorageAccess,
        kind: ScalarKind,
        span: Span,
    ) -> R<Vec<ir::Var>> {
        let Root::Storage { block, .. } = p.root else {
            bail!(
                self,
                span,
                "internal error: an atomic outside a storage block"
            );
        };
        let mut offs = Vec::new();
        match &p.comps {
            Some(c) => offs.extend(c.iter().copied()),
            None => offs.push(0),
        }
        // An atomic both reads and writes its word.
        self.check_member_access(block, p, &offs[..1], true, span)?;
        self.check_member_access(block, p, &offs[..1], false, span)?;
        let dynamic = if p.dyns.is_empty() {
            None
        } else {
            Some(self.combined_index(&p.dyns, 1))
        };
        let dst = self.new_var(kind);
        self.emit(Stmt::Storage {
            dst: Some(dst),
            block,
            offset: p.base + offs[0],
            dynamic,
            access,
        });
        Ok(vec![dst])
    }
}

/// GL_BUFFER_DATA_SIZE of a storage block: its size with a runtime-sized last member
/// counted as one element (GL 4.5 core §7.3.1.1).
fn min_block_size(def: &StructDef, layout: BlockLayout) -> u32 {
    let mut sized = StructDef {
        name: def.name.clone(),
        members: def.members.clone(),
    };
    if let Some((_, Type::Array(_, n @ 0))) = sized.members.last_mut() {
        *n = 1;
    }
    let (_, size) = types::block_align_size(&Type::Struct(Rc::new(sized)), layout);
    size
}
