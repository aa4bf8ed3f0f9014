//! The compute stage's language (GLSL 4.60 §4.3.8, §4.4.1.4, §7.1.3, §8.16, §8.17):
//! `layout(local_size_x = X, ...) in;`, the compute built-in variables, `shared`
//! variables, and `barrier()` / `memoryBarrier*()` / `groupMemoryBarrier()`. How barriers
//! run is `ir::compute`'s business; here they are only checked and emitted.
//!
//! Built-in inputs are the rows `ir::compute::ROW_*` of the stage's input slots, which
//! the dispatcher fills; `gl_WorkGroupSize` is a constant (usable in array sizes) once the
//! local size is declared. `shared` variables are laid out by std430 rules in one storage
//! block of their own (`ir::compute::shared_block`), so reads, writes, indexing and the
//! atomic built-ins work on them as on a buffer block's members.

use std::rc::Rc;

use crate::ir::{self, compute, BaseType, Op, ScalarKind, Stage, Stmt};

use super::ast::{self, Expr};
use super::consts::CVal;
use super::diag::Span;
use super::lower::{bail, Lowerer, Root, Sym, Value, VarSym, R};
use super::types::{self, BlockLayout, Type};

/// The storage block `shared` variables use until `finish` knows the module's block
/// count (storage blocks may be declared after them).
pub(super) const SHARED_PLACEHOLDER: u32 = u32::MAX;

impl Lowerer {
    /// `layout(local_size_x = N, local_size_y = N, local_size_z = N) in;`: every
    /// declaration in the stage must give the same size (GLSL 4.60 §4.4.1.4); a
    /// dimension not given is 1.
    pub(super) fn local_size_layout(&mut self, q: &ast::Qualifiers) -> R<()> {
        if self.stage != Stage::Compute {
            let l = &q.layout[0];
            bail!(
                self,
                l.span,
                "layout qualifier `{}' is only valid in compute shaders",
                l.name
            );
        }
        let mut size = [1u32; 3];
        for l in &q.layout {
            let k = match l.name.as_str() {
                "local_size_x" => 0,
                "local_size_y" => 1,
                "local_size_z" => 2,
                n => bail!(self, l.span, "layout qualifier `{n}' is not valid here"),
            };
            let v = self.layout_int(l)?;
            if v < 1 || v > compute::MAX_SIZE[k] as i64 {
                bail!(
                    self,
                    l.span,
                    "`{}' is {v}: it must be 1 to gl_MaxComputeWorkGroupSize ({})",
                    l.name,
                    compute::MAX_SIZE[k]
                );
            }
            size[k] = v as u32;
        }
        // ARB_compute_shader: a local size of more than
        // GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS is a compile error (as in Mesa), not only
        // a link error.
        let invocations: u64 = size.iter().map(|&s| s as u64).product();
        if invocations > compute::MAX_INVOCATIONS as u64 {
            bail!(
                self,
                q.span,
                "the local size {size:?} has {invocations} invocations; GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS is {}",
                compute::MAX_INVOCATIONS
            );
        }
        match self.local_size {
            Some(old) if old != size => bail!(
                self,
                q.span,
                "the local size {:?} differs from the one declared before ({old:?})",
                size
            ),
            Some(_) => Ok(()),
            None => {
                self.local_size = Some(size);
                self.local_size_at = Some(q.span);
                self.declare_work_group_size(size);
                Ok(())
            }
        }
    }

    /// `const uvec3 gl_WorkGroupSize` (GLSL 4.60 §7.1.3), a constant expression.
    fn declare_work_group_size(&mut self, size: [u32; 3]) {
        let ty = Type::vector(BaseType::Uint, 3);
        let vals: Vec<ir::Scalar> = size.iter().map(|&s| ir::Scalar::U32(s)).collect();
        let vars: Vec<ir::Var> = vals.iter().map(|s| self.konst(*s)).collect();
        let sym = VarSym {
            ty: ty.clone(),
            root: Root::Vars(vars.into()),
            base: 0,
            writable: false,
            konst: Some(CVal { ty, vals }),
        };
        self.scopes[0].insert("gl_WorkGroupSize".into(), Sym::Var(Rc::new(sym)));
    }

    /// The compute built-in inputs (GLSL 4.60 §7.1.3); `None` for other names. Outside the
    /// compute stage they do not exist.
    pub(super) fn compute_builtin_var(&mut self, name: &str) -> Option<Sym> {
        let (row, n) = match name {
            "gl_LocalInvocationID" => (compute::ROW_LOCAL_ID, 3),
            "gl_WorkGroupID" => (compute::ROW_GROUP_ID, 3),
            "gl_NumWorkGroups" => (compute::ROW_NUM_GROUPS, 3),
            "gl_GlobalInvocationID" => (compute::ROW_GLOBAL_ID, 3),
            "gl_LocalInvocationIndex" => (compute::ROW_LOCAL_INDEX, 1),
            // Used before `layout(local_size_*) in;`: not a constant yet.
            _ => return None,
        };
        let mut vars = Vec::new();
        for k in 0..n {
            let v = self.new_var(ScalarKind::U32);
            self.prologue.push(Stmt::Assign {
                dst: v,
                op: Op::Input(row + k),
            });
            vars.push(v);
        }
        let ty = if n == 1 {
            Type::UINT
        } else {
            Type::vector(BaseType::Uint, n as u8)
        };
        let sym = Sym::Var(Rc::new(VarSym {
            ty,
            root: Root::Vars(vars.into()),
            base: 0,
            writable: false,
            konst: None,
        }));
        self.scopes[0].insert(name.to_string(), sym.clone());
        Some(sym)
    }

    /// `shared T name;` at global scope of a compute shader (GLSL 4.60 §4.3.8): no
    /// initializer, laid out after the variables before it (std430), at most
    /// GL_MAX_COMPUTE_SHARED_MEMORY_SIZE bytes in all.
    pub(super) fn shared_var(&mut self, ty: &Type, d: &ast::Declarator) -> R<()> {
        if self.stage != Stage::Compute {
            bail!(
                self,
                d.span,
                "`shared' variables are only allowed in compute shaders"
            );
        }
        if d.init.is_some() {
            bail!(self, d.span, "`shared' variables cannot be initialized");
        }
        if ty.contains_sampler() {
            bail!(self, d.span, "`shared' variables cannot hold samplers");
        }
        if matches!(ty, Type::Array(_, 0)) {
            bail!(self, d.span, "`shared' arrays must be sized");
        }
        let layout = BlockLayout {
            std430: true,
            row_major: false,
        };
        let (align, size) = types::block_align_size(ty, layout);
        let base = self.shared_bytes.next_multiple_of(align.max(4));
        let end = base as u64 + size as u64;
        if end > compute::MAX_SHARED_BYTES as u64 {
            bail!(
                self,
                d.span,
                "`shared' variables take {end} bytes; GL_MAX_COMPUTE_SHARED_MEMORY_SIZE is {}",
                compute::MAX_SHARED_BYTES
            );
        }
        self.shared_bytes = end as u32;
        let sym = VarSym {
            ty: ty.clone(),
            root: Root::Storage {
                block: SHARED_PLACEHOLDER,
                layout,
            },
            base,
            writable: true,
            konst: None,
        };
        self.declare(&d.name, d.span, Sym::Var(Rc::new(sym)))
    }

    /// `barrier()`, `memoryBarrier*()` and `groupMemoryBarrier()` (GLSL 4.60 §8.16, §8.17);
    /// `None` when `name` is none of them.
    pub(super) fn barrier_call(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<R<Value>> {
        let is_barrier = name == "barrier";
        let memory = matches!(
            name,
            "memoryBarrier"
                | "memoryBarrierAtomicCounter"
                | "memoryBarrierBuffer"
                | "memoryBarrierShared"
                | "memoryBarrierImage"
                | "groupMemoryBarrier"
        );
        if !is_barrier && !memory {
            return None;
        }
        Some(self.barrier(name, is_barrier, args, span))
    }

    /// Whether `name` exists in this unit's version and extensions: memoryBarrier() since
    /// GLSL 4.20 or GL_ARB_shader_image_load_store; barrier() and the memory barriers of
    /// GLSL 4.30 with GL_ARB_compute_shader; memoryBarrierBuffer() with
    /// GL_ARB_shader_storage_buffer_object too.
    fn barrier_available(&self, name: &str) -> bool {
        let m = self.memory;
        self.version >= 430
            || m.compute
            || (self.version >= 420 && name == "memoryBarrier")
            || (m.image_load_store && name == "memoryBarrier")
            || (m.storage_buffer && matches!(name, "memoryBarrier" | "memoryBarrierBuffer"))
    }

    fn barrier(&mut self, name: &str, is_barrier: bool, args: &[Expr], span: Span) -> R<Value> {
        if !args.is_empty() {
            bail!(self, span, "{name}() takes no arguments");
        }
        let tcs_barrier = is_barrier && self.stage == Stage::TessControl;
        if tcs_barrier {
            // GLSL 4.00 §8.16: only in main, outside control flow, before any return.
            if !self.tess_available() {
                bail!(
                    self,
                    span,
                    "barrier() requires GLSL 4.00 or GL_ARB_tessellation_shader"
                );
            }
            if !self.barrier_ok || !self.calls.is_empty() {
                bail!(
                    self,
                    span,
                    "barrier() may only be called at the top level of a tessellation control shader's main(), before any return"
                );
            }
        } else if !self.barrier_available(name) {
            bail!(
                self,
                span,
                "{name}() requires GLSL 4.30 (4.20 for memoryBarrier) or the extension that brings it"
            );
        }
        let shared_only = matches!(name, "memoryBarrierShared" | "groupMemoryBarrier");
        if (is_barrier || shared_only) && self.stage != Stage::Compute && !tcs_barrier {
            bail!(
                self,
                span,
                "{name}() is only available in compute and tessellation control shaders"
            );
        }
        // Memory barriers order one invocation's accesses; each invocation already runs
        // its accesses in program order on one thread, and groups see each other's
        // writes only after the dispatch: nothing to emit.
        if is_barrier {
            self.emit(Stmt::Barrier);
        }
        Ok(Value {
            ty: Type::Void,
            vars: Vec::new(),
        })
    }
}

/// Points the `shared` variables' accesses at their block: the one after the module's
/// storage blocks (`ir::compute::shared_block`).
pub(super) fn place_shared_block(body: &mut [Stmt], block: u32) {
    for s in body {
        match s {
            Stmt::Assign {
                op: Op::StorageLoad { block: b, .. } | Op::StorageSize { block: b },
                ..
            }
            | Stmt::Storage { block: b, .. }
                if *b == SHARED_PLACEHOLDER =>
            {
                *b = block
            }
            Stmt::If {
                then_body,
                else_body,
                ..
            } => {
                place_shared_block(then_body, block);
                place_shared_block(else_body, block);
            }
            Stmt::Loop {
                body, continuing, ..
            } => {
                place_shared_block(body, block);
                place_shared_block(continuing, block);
            }
            Stmt::Block { body, .. } => place_shared_block(body, block),
            _ => {}
        }
    }
}
