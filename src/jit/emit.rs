//! Emits the Cranelift IR of one shader function from one `ir::Module` (DESIGN.md §3):
//! control flow under execution masks, memory (inputs, outputs, uniforms, blocks, local
//! arrays) and calls to the runtime helpers. The arithmetic of each `Op` is in `ops.rs`;
//! turning the function into machine code is `code.rs`'s job.
//!
//! Execution model. Every `ir::Var` is one `i32x4` Cranelift variable (floats are bitcast to
//! `f32x4` around float instructions, a free register move), one lane per invocation.
//! `exec` holds the lanes that run the current statement. The invariant that makes masked
//! control flow simple: at any point, `exec` = (mask on entry to the innermost construct) ∧
//! `alive` ∧ ¬(every exit mask of the enclosing loops and blocks). `Break`/`Continue`/`Leave`
//! add `exec` to their frame's mask, `Return`/`Discard` remove it from `alive`, and after a
//! construct that may have exited lanes `exec` is recomputed from that formula.
//!
//! Masks are `i32x4` with lanes 0 or -1 (the IR's booleans), so `bitselect(mask, new, old)`
//! is a masked write.

use cranelift_codegen::ir::{
    condcodes::IntCC, types, ConstantData, Endianness, FuncRef, InstBuilder, MemFlagsData,
    StackSlot, StackSlotData, StackSlotKind, Type, Value,
};
use cranelift_codegen::isa::TargetFrontendConfig;
use cranelift_frontend::{FunctionBuilder, Variable};

use super::abi;
use super::CompileError;
use crate::ir::{Function, Label, Lod, Module, Op, ScalarKind, Stage, Stmt, UnaryOp, Var};
use crate::sampler::request as req;

mod image;

pub(crate) const I32X4: Type = types::I32X4;
pub(crate) const F32X4: Type = types::F32X4;

/// Total bytes of local arrays one shader may use: they live on the worker thread's stack.
pub(crate) const ARRAY_BYTES_LIMIT: u64 = 256 * 1024;

/// The helper functions generated code calls, as imported into the function being built.
pub(crate) struct Helpers {
    /// `crate::sampler::rt_texture` (or the test hook).
    pub texture: FuncRef,
}

/// What an enclosing construct lets statements exit.
enum FrameKind {
    Loop { brk: Variable, cont: Variable },
    Block { leave: Variable },
}

struct Frame {
    label: Label,
    kind: FrameKind,
}

/// Per-function codegen state. Lives for one `emit_function` call.
pub(crate) struct Emitter<'m, 'b> {
    pub(crate) b: FunctionBuilder<'b>,
    module: &'m Module,
    pub(crate) ptr: Type,
    vars: Vec<Variable>,
    /// `direct_vars`: these vars are SSA values, kept in `fixed` once assigned.
    direct: Vec<bool>,
    fixed: Vec<Option<Value>>,
    /// `lane_private_vars`: written without a mask at `main`'s top level.
    private: Vec<bool>,
    /// Statement lists being emitted: 1 while in `main`'s own list.
    depth: u32,
    /// Constant-offset uniform loads already made, per statement list being emitted
    /// (innermost last): a value made earlier in an enclosing list dominates the rest of
    /// it, so later reads reuse it (`emit_uniform`).
    uniform_memo: Vec<std::collections::HashMap<u32, Value>>,
    exec: Variable,
    alive: Variable,
    discarded: Variable,
    /// Loop iterations each lane may still start (`ir::interp`'s loop budget), as i32
    /// lanes; defined at entry only when the function has a loop.
    budget: Variable,
    frames: Vec<Frame>,
    arrays: Vec<(StackSlot, u32)>,
    /// 16 bytes of zeros: robust loads that are out of range read here.
    zero: StackSlot,
    /// 16 bytes nobody reads: dropped stores land here.
    sink: StackSlot,
    tex_req: StackSlot,
    tex_out: StackSlot,
    pub(crate) helpers: Helpers,
    inputs: Value,
    outputs: Value,
    builtins: Value,
    uniforms: Value,
    uniform_words: Value,
    blocks: Value,
    block_count: Value,
    storage: Value,
    storage_count: Value,
    /// Lanes whose storage writes reach memory (`ir::interp`'s `writers`): bits 4..7 of the
    /// mask when any is set, else all; computed at entry only when the module writes.
    writers: Option<Value>,
    sampler: Value,
    /// `ShaderEnv::loop_trips`.
    loop_trips: Value,
}

/// Memory flags for every access generated code makes: addresses are always valid (bounds
/// checks pick a safe address instead of trapping), alignment is not promised.
pub(crate) fn mem() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// Flags for loads of the default uniform block: also read-only for the whole invocation,
/// so Cranelift may treat them as pure and place each where its value is used. Without that
/// the loads stay in program order while the arithmetic on them sinks to its uses, and a
/// shader reading 10,000 uniforms kept 10,000 loaded words live at once (issue #11: the
/// register allocator went quadratic). The address is always valid (out-of-range reads
/// select the zero slot, written at entry before any shader statement).
fn uniform_mem() -> MemFlagsData {
    mem().with_readonly().with_can_move()
}

/// Flags for vector bitcasts (Cranelift wants the lane order spelled out).
fn lanes_le() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

/// Whether `body` holds a loop, at any depth.
fn has_loop(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Loop { .. } => true,
        Stmt::If {
            then_body,
            else_body,
            ..
        } => has_loop(then_body) || has_loop(else_body),
        Stmt::Block { body, .. } => has_loop(body),
        _ => false,
    })
}

/// Whether `body` may make lanes leave the current construct (so `exec` must be recomputed
/// afterwards): exits, and loops (whose loop budget kills lanes).
fn may_exit(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Break(_) | Stmt::Continue(_) | Stmt::Leave(_) | Stmt::Return | Stmt::Discard => true,
        Stmt::If {
            then_body,
            else_body,
            ..
        } => may_exit(then_body) || may_exit(else_body),
        // A loop may always kill lanes (the loop budget).
        Stmt::Loop { .. } => true,
        Stmt::Block { body, .. } => may_exit(body),
        _ => false,
    })
}

/// Which vars can live as plain SSA values instead of masked Cranelift variables
/// ("direct" vars): those assigned exactly once, by an `Assign` that does not read the var
/// itself, whose every read comes later in the same statement list (or nested in a later
/// statement of it), and which no cross-lane reader (derivatives, texture requests) or
/// output sees. Why their inactive lanes need no masking: along one statement list `exec`
/// only shrinks (the module invariant above), so every read runs under a subset of the
/// lanes the write ran under, and the lanes it did not write are never observed — the
/// generated code matches the interpreter's in every lane anyone reads. Why it matters: a
/// masked write reads the var's old value, and cranelift_frontend finds that value by
/// walking back to the function entry, adding a block parameter at every join on the way
/// (issue #11: each temporary of a 10,000-case switch walked back through every earlier
/// case); a direct var is one SSA value, no parameter, no `bitselect`.
pub(crate) fn direct_vars(func: &Function) -> Vec<bool> {
    /// Assignment count, and the (list, index) of the one assignment.
    struct Def {
        count: u32,
        list: u32,
        idx: u32,
    }
    struct Walk<'a> {
        defs: Vec<Def>,
        ok: Vec<bool>,
        /// Per statement list (numbered in visit order): the index being visited while the
        /// list is on the walk's stack, else `u32::MAX`.
        active: Vec<u32>,
        next_list: u32,
        func: &'a Function,
    }
    impl Walk<'_> {
        fn bar(&mut self, v: Var) {
            if let Some(o) = self.ok.get_mut(v.0 as usize) {
                *o = false;
            }
        }
        fn def(&mut self, v: Var, list: u32, idx: u32, assign: bool) {
            if let Some(d) = self.defs.get_mut(v.0 as usize) {
                d.count = d.count.saturating_add(if assign { 1 } else { 2 });
                d.list = list;
                d.idx = idx;
            }
        }
        fn read(&mut self, v: Var) {
            let Some(d) = self.defs.get(v.0 as usize) else {
                return;
            };
            let fine = d.count == 1
                && self
                    .active
                    .get(d.list as usize)
                    .is_some_and(|&at| at != u32::MAX && at > d.idx);
            if !fine {
                self.bar(v);
            }
        }
        /// `defining`: the first pass (counts definitions); else the second (checks reads).
        fn list(&mut self, body: &[Stmt], defining: bool) {
            let id = self.next_list;
            self.next_list += 1;
            if !defining {
                self.active.push(u32::MAX);
            }
            for (i, s) in body.iter().enumerate() {
                let i = i as u32;
                if !defining {
                    self.active[id as usize] = i;
                }
                self.stmt(s, id, i, defining);
            }
            if !defining {
                self.active[id as usize] = u32::MAX;
            }
        }
        fn stmt(&mut self, s: &Stmt, list: u32, idx: u32, defining: bool) {
            if defining {
                match s {
                    Stmt::Assign { dst, op } => {
                        self.def(*dst, list, idx, true);
                        if let Op::Unary(u, a) = op {
                            if matches!(
                                u,
                                UnaryOp::DFdxFine
                                    | UnaryOp::DFdyFine
                                    | UnaryOp::DFdxCoarse
                                    | UnaryOp::DFdyCoarse
                            ) {
                                self.bar(*a);
                            }
                        }
                    }
                    Stmt::Texture { .. }
                    | Stmt::TexelFetch { .. }
                    | Stmt::TextureSize { .. }
                    | Stmt::Image { .. } => {
                        // Every var a texture statement names: the sampler reads whole quads.
                        let mut named = Vec::new();
                        s.for_each_var(|v| named.push(v));
                        for v in named {
                            self.def(v, list, idx, false);
                            self.bar(v);
                        }
                    }
                    _ => {}
                }
            } else {
                match s {
                    Stmt::Assign { op, .. } => op.for_each_operand(|v| self.read(v)),
                    _ => {
                        let mut named = Vec::new();
                        s.for_each_var(|v| named.push(v));
                        for v in named {
                            self.read(v);
                        }
                    }
                }
            }
            match s {
                Stmt::If {
                    then_body,
                    else_body,
                    ..
                } => {
                    self.list(then_body, defining);
                    self.list(else_body, defining);
                }
                Stmt::Loop {
                    body, continuing, ..
                } => {
                    self.list(body, defining);
                    self.list(continuing, defining);
                }
                Stmt::Block { body, .. } => self.list(body, defining),
                _ => {}
            }
        }
    }
    let n = func.vars.len();
    let mut w = Walk {
        defs: (0..n)
            .map(|_| Def {
                count: 0,
                list: 0,
                idx: 0,
            })
            .collect(),
        ok: vec![true; n],
        active: Vec::new(),
        next_list: 0,
        func,
    };
    w.list(&func.body, true);
    w.next_list = 0;
    w.list(&func.body, false);
    for v in &w.func.outputs {
        w.bar(*v);
    }
    let Walk { defs, mut ok, .. } = w;
    for (o, d) in ok.iter_mut().zip(&defs) {
        *o &= d.count == 1;
    }
    ok
}

/// Vars whose inactive lanes nobody observes once `main`'s top-level list has left them
/// behind: every var that no cross-lane reader (derivatives, texture statements) names and
/// that is not an output. Along `main`'s own statement list `exec` only shrinks (lanes
/// leave it by `return`, `discard` or the loop budget and never come back), so a write
/// there may store all 4 lanes instead of `bitselect`ing the old value into the lanes
/// outside `exec`: those lanes' values are read only under masks that exclude them (the
/// interpreter keeps the old value there; no output, store or branch can tell). Saves the
/// `bitselect` and the read of the old value (issue #11: a 10 MiB straight-line shader
/// spent two of its instructions per statement on it; issue #9: one blend per write).
pub(crate) fn lane_private_vars(func: &Function) -> Vec<bool> {
    fn walk(body: &[Stmt], private: &mut [bool]) {
        for s in body {
            match s {
                Stmt::Assign {
                    op:
                        Op::Unary(
                            UnaryOp::DFdxFine
                            | UnaryOp::DFdyFine
                            | UnaryOp::DFdxCoarse
                            | UnaryOp::DFdyCoarse,
                            a,
                        ),
                    ..
                } => {
                    if let Some(p) = private.get_mut(a.0 as usize) {
                        *p = false;
                    }
                }
                Stmt::Texture { .. } | Stmt::TexelFetch { .. } | Stmt::TextureSize { .. } => {
                    s.for_each_var(|v| {
                        if let Some(p) = private.get_mut(v.0 as usize) {
                            *p = false;
                        }
                    });
                }
                _ => {}
            }
            for c in s.children() {
                walk(c, private);
            }
        }
    }
    let mut private = vec![true; func.vars.len()];
    walk(&func.body, &mut private);
    for v in &func.outputs {
        if let Some(p) = private.get_mut(v.0 as usize) {
            *p = false;
        }
    }
    private
}

/// Branching statements (each makes Cranelift blocks) past which a function is compiled
/// with the single-pass register allocator.
pub(crate) const FAST_REGALLOC_BRANCHES: usize = 1024;
/// Statements of any kind past which the same happens, and Cranelift's optimizer is skipped.
pub(crate) const FAST_REGALLOC_STATEMENTS: usize = 50_000;

/// How a function is compiled, by its size (`code::compile_inner`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tier {
    /// Ordinary shaders, far below both limits: Cranelift's optimizer and its backtracking
    /// register allocator, which allocates best but costs more than linear time (issue
    /// #11: its bundle splitting is quadratic in the blocks a long-lived value crosses; a
    /// 10,000-case switch took 33 s).
    Normal,
    /// More than `FAST_REGALLOC_BRANCHES` branches: the single-pass allocator, optimizer on
    /// (without it, the unmerged constants made the allocator's block-parameter moves slow).
    Branchy,
    /// More than `FAST_REGALLOC_STATEMENTS` statements: single-pass allocator, no optimizer
    /// (a 10 MiB straight-line shader spent most of its time in the optimizer's maps).
    Long,
}

/// The `Tier` of `func`.
pub(crate) fn tier(func: &Function) -> Tier {
    fn count(body: &[Stmt], branches: &mut usize, all: &mut usize) {
        for s in body {
            *all += 1;
            match s {
                Stmt::If {
                    then_body,
                    else_body,
                    ..
                } => {
                    *branches += 1;
                    count(then_body, branches, all);
                    count(else_body, branches, all);
                }
                Stmt::Loop {
                    body, continuing, ..
                } => {
                    *branches += 1;
                    count(body, branches, all);
                    count(continuing, branches, all);
                }
                Stmt::Block { body, .. } => count(body, branches, all),
                Stmt::Texture { .. }
                | Stmt::TexelFetch { .. }
                | Stmt::TextureSize { .. }
                | Stmt::Image { .. } => *branches += 1,
                _ => {}
            }
        }
    }
    let (mut branches, mut all) = (0, 0);
    count(&func.body, &mut branches, &mut all);
    if branches > FAST_REGALLOC_BRANCHES {
        Tier::Branchy
    } else if all > FAST_REGALLOC_STATEMENTS {
        Tier::Long
    } else {
        Tier::Normal
    }
}

/// Builds the body of the shader function into `b`, whose signature is
/// `(env: ptr, inv: ptr) -> i32`. On return the function is complete and finalized.
pub(crate) fn emit_function(
    mut b: FunctionBuilder<'_>,
    module: &Module,
    helpers: Helpers,
    ptr: Type,
    config: TargetFrontendConfig,
) -> Result<(), CompileError> {
    let func = &module.func;
    let mut array_bytes: u64 = 0;
    for a in &func.arrays {
        array_bytes += a.len as u64 * 16;
    }
    if array_bytes > ARRAY_BYTES_LIMIT {
        return Err(CompileError::Limit(format!(
            "local arrays take {array_bytes} bytes for 4 lanes; the limit is {ARRAY_BYTES_LIMIT}"
        )));
    }

    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let env = b.block_params(entry)[0];
    let inv = b.block_params(entry)[1];

    let slot = |b: &mut FunctionBuilder<'_>, bytes: u32| {
        b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, bytes, 4))
    };
    let zero = slot(&mut b, 16);
    let sink = slot(&mut b, 16);
    let tex_req = slot(&mut b, req::TEX_REQUEST_SIZE);
    let tex_out = slot(&mut b, std::mem::size_of::<req::TexResult>() as u32);
    let arrays: Vec<(StackSlot, u32)> = func
        .arrays
        .iter()
        .map(|a| (slot(&mut b, (a.len * 16).max(16)), a.len))
        .collect();

    let f = mem();
    let inputs = b.ins().load(ptr, f, inv, abi::INV_INPUTS);
    let outputs = b.ins().load(ptr, f, inv, abi::INV_OUTPUTS);
    let builtins = b.ins().load(ptr, f, inv, abi::INV_BUILTINS);
    let mask_bits = b.ins().load(types::I32, f, inv, abi::INV_MASK);
    // The `ShaderEnv` is per-draw constants (abi.rs), never written while code runs: its
    // loads are pure, so Cranelift drops those the shader does not use (a fragment variant
    // paid all eight per quad, issue #9) and may hoist the rest out of the variant's quad
    // loop.
    let fe = uniform_mem();
    let uniforms = b.ins().load(ptr, fe, env, abi::ENV_UNIFORMS);
    let uniform_words = b.ins().load(types::I64, fe, env, abi::ENV_UNIFORM_WORDS);
    let blocks = b.ins().load(ptr, fe, env, abi::ENV_BLOCKS);
    let block_count = b.ins().load(types::I64, fe, env, abi::ENV_BLOCK_COUNT);
    let storage = b.ins().load(ptr, fe, env, abi::ENV_STORAGE);
    let storage_count = b.ins().load(types::I64, fe, env, abi::ENV_STORAGE_COUNT);
    let sampler = b.ins().load(ptr, fe, env, abi::ENV_SAMPLER);
    let loop_trips = b.ins().load(ptr, fe, env, abi::ENV_LOOP_TRIPS);
    let budget = b.declare_var(I32X4);
    if has_loop(&func.body) {
        let n = b.ins().load(types::I32, fe, env, abi::ENV_LOOP_BUDGET);
        let v = b.ins().splat(I32X4, n);
        b.def_var(budget, v);
    }

    let exec = b.declare_var(I32X4);
    let alive = b.declare_var(I32X4);
    let discarded = b.declare_var(I32X4);
    let vars: Vec<Variable> = func.vars.iter().map(|_| b.declare_var(I32X4)).collect();
    let direct = direct_vars(func);

    let mut e = Emitter {
        b,
        module,
        ptr,
        vars,
        fixed: vec![None; direct.len()],
        direct,
        private: lane_private_vars(func),
        depth: 0,
        uniform_memo: Vec::new(),
        exec,
        alive,
        discarded,
        budget,
        frames: Vec::new(),
        arrays,
        zero,
        sink,
        tex_req,
        tex_out,
        helpers,
        inputs,
        outputs,
        builtins,
        uniforms,
        uniform_words,
        blocks,
        block_count,
        storage,
        storage_count,
        writers: None,
        sampler,
        loop_trips,
    };

    // Entry: lane mask from `inv.mask` bits, every var and array starts as 0 (module.rs).
    let bits = e.b.ins().splat(I32X4, mask_bits);
    let lane_bits = e.vconst([1, 2, 4, 8]);
    let sel = e.b.ins().band(bits, lane_bits);
    let zero_v = e.vconst([0; 4]);
    let exec0 = e.b.ins().icmp(IntCC::NotEqual, sel, zero_v);
    e.b.def_var(e.exec, exec0);
    e.b.def_var(e.alive, exec0);
    if module.writes_storage() {
        let hi = e.b.ins().ushr_imm_u(mask_bits, 4);
        let hi = e.b.ins().band_imm_u(hi, 0xF);
        let all = e.b.ins().iconst(types::I32, 0xF);
        let none = e.b.ins().icmp_imm_s(IntCC::Equal, hi, 0);
        let w = e.b.ins().select(none, all, hi);
        let w = e.b.ins().splat(I32X4, w);
        let w = e.b.ins().band(w, lane_bits);
        e.writers = Some(e.b.ins().icmp(IntCC::NotEqual, w, zero_v));
    }
    e.b.def_var(e.discarded, zero_v);
    for i in 0..e.vars.len() {
        if !e.direct[i] {
            e.b.def_var(e.vars[i], zero_v);
        }
    }
    e.b.ins().stack_store(e.ptr, zero_v, e.zero, 0);
    e.zero_arrays();

    let body = &module.func.body;
    e.emit_stmts(body)?;

    // Outputs: lanes that ran and were not discarded keep what they wrote (a `Return`ed lane
    // included); other lanes' words are left untouched.
    let disc = e.b.use_var(e.discarded);
    let keep = e.b.ins().band_not(exec0, disc);
    for (slot, var) in module.func.outputs.iter().enumerate() {
        let v = e.var_value(*var)?;
        let row = module.func.output_row(slot) as usize;
        let off = i32::try_from(row * 16)
            .map_err(|_| CompileError::Limit("too many output words".into()))?;
        let old = e.b.ins().load(I32X4, mem(), e.outputs, off);
        let new = e.b.ins().bitselect(keep, v, old);
        e.b.ins().store(mem(), new, e.outputs, off);
    }
    let ret = e.b.ins().vhigh_bits(types::I32, keep);
    e.b.ins().return_(&[ret]);
    e.b.seal_all_blocks();
    e.b.finalize(config);
    Ok(())
}

impl Emitter<'_, '_> {
    // ---- small helpers -------------------------------------------------------------------

    /// A constant `i32x4` with the given lane bits.
    pub(crate) fn vconst(&mut self, lanes: [u32; 4]) -> Value {
        let mut bytes = Vec::with_capacity(16);
        for l in lanes {
            bytes.extend_from_slice(&l.to_le_bytes());
        }
        let c = self.b.func.dfg.constants.insert(ConstantData::from(bytes));
        self.b.ins().vconst(I32X4, c)
    }

    /// Every lane `bits`.
    pub(crate) fn splat_const(&mut self, bits: u32) -> Value {
        self.vconst([bits; 4])
    }

    /// Reinterprets an `i32x4` as `f32x4`.
    pub(crate) fn fview(&mut self, v: Value) -> Value {
        self.unview(v, F32X4)
            .unwrap_or_else(|| self.b.ins().bitcast(F32X4, lanes_le(), v))
    }

    /// Reinterprets any 128-bit vector as `i32x4`.
    pub(crate) fn iview(&mut self, v: Value) -> Value {
        self.unview(v, I32X4)
            .unwrap_or_else(|| self.b.ins().bitcast(I32X4, lanes_le(), v))
    }

    /// When `v` is itself a bitcast of a value of type `ty`, that value: a chain of f32
    /// operations then skips the `i32x4` round trip between each two (Cranelift's
    /// optimizer would remove it, but the largest functions skip the optimizer, and there
    /// the two casts per operation were a third of a straight-line shader's instructions).
    fn unview(&self, v: Value, ty: Type) -> Option<Value> {
        let dfg = &self.b.func.dfg;
        if dfg.value_type(v) == ty {
            return Some(v);
        }
        let cranelift_codegen::ir::ValueDef::Result(inst, 0) = dfg.value_def(v) else {
            return None;
        };
        match dfg.insts[inst] {
            cranelift_codegen::ir::InstructionData::LoadNoOffset {
                opcode: cranelift_codegen::ir::Opcode::Bitcast,
                arg,
                ..
            } if dfg.value_type(arg) == ty => Some(arg),
            _ => None,
        }
    }

    /// Reinterprets a vector as `i8x16` (for byte shuffles).
    pub(crate) fn bview(&mut self, v: Value) -> Value {
        self.b.ins().bitcast(types::I8X16, lanes_le(), v)
    }

    /// The 4 lanes of an `i32x4` as `i32` scalars.
    pub(crate) fn lanes(&mut self, v: Value) -> [Value; 4] {
        [0u8, 1, 2, 3].map(|i| self.b.ins().extractlane(v, i))
    }

    /// An `i32x4` from 4 `i32` scalars.
    pub(crate) fn join_lanes(&mut self, l: [Value; 4]) -> Value {
        let mut v = self.b.ins().scalar_to_vector(I32X4, l[0]);
        for (i, x) in l.iter().enumerate().skip(1) {
            v = self.b.ins().insertlane(v, *x, i as u8);
        }
        v
    }

    /// `Variable` of an IR var, checked.
    fn var(&self, v: Var) -> Result<Variable, CompileError> {
        self.vars
            .get(v.0 as usize)
            .copied()
            .ok_or_else(|| CompileError::Bug(format!("var v{} out of range", v.0)))
    }

    /// Kind of an IR var, checked.
    pub(crate) fn kind(&self, v: Var) -> Result<ScalarKind, CompileError> {
        self.module
            .func
            .vars
            .get(v.0 as usize)
            .copied()
            .ok_or_else(|| CompileError::Bug(format!("var v{} out of range", v.0)))
    }

    /// Current value of an IR var.
    pub(crate) fn var_value(&mut self, v: Var) -> Result<Value, CompileError> {
        let var = self.var(v)?;
        if self.direct[v.0 as usize] {
            return self.fixed[v.0 as usize].ok_or_else(|| {
                CompileError::Bug(format!("direct var v{} read before its assignment", v.0))
            });
        }
        Ok(self.b.use_var(var))
    }

    /// `dst = new` in the lanes of `exec` (module.rs: writes keep inactive lanes).
    fn assign(&mut self, dst: Var, new: Value) -> Result<(), CompileError> {
        let var = self.var(dst)?;
        if self.depth == 1 && self.private.get(dst.0 as usize) == Some(&true) {
            // `lane_private_vars`: the lanes outside `exec` are never read again.
            self.b.def_var(var, new);
            return Ok(());
        }
        let old = self.b.use_var(var);
        let exec = self.b.use_var(self.exec);
        let v = self.b.ins().bitselect(exec, new, old);
        self.b.def_var(var, v);
        Ok(())
    }

    /// A lane mask from a bool var: any nonzero word is true, as in the interpreter. Valid IR
    /// only holds 0 / -1 there; this keeps a stray 1 from selecting single bits.
    pub(crate) fn truth(&mut self, c: Value) -> Value {
        let z = self.vconst([0; 4]);
        self.b.ins().icmp(IntCC::NotEqual, c, z)
    }

    fn zero_addr(&mut self) -> Value {
        self.b.ins().stack_addr(self.ptr, self.zero, 0)
    }

    fn sink_addr(&mut self) -> Value {
        self.b.ins().stack_addr(self.ptr, self.sink, 0)
    }

    /// Local arrays start as zeros, like vars.
    fn zero_arrays(&mut self) {
        let zero_v = self.vconst([0; 4]);
        for i in 0..self.arrays.len() {
            let (slot, len) = self.arrays[i];
            if len <= 32 {
                for e in 0..len {
                    self.b
                        .ins()
                        .stack_store(self.ptr, zero_v, slot, (e * 16) as i32);
                }
            } else {
                // A loop keeps code size flat for big arrays.
                let base = self.b.ins().stack_addr(self.ptr, slot, 0);
                let end = self.b.ins().iadd_imm_s(base, len as i64 * 16);
                let head = self.b.create_block();
                let done = self.b.create_block();
                self.b.append_block_param(head, self.ptr);
                self.b.ins().jump(head, &[base.into()]);
                self.b.switch_to_block(head);
                let p = self.b.block_params(head)[0];
                self.b.ins().store(mem(), zero_v, p, 0);
                let next = self.b.ins().iadd_imm_s(p, 16);
                let more = self.b.ins().icmp(IntCC::UnsignedLessThan, next, end);
                self.b.ins().brif(more, head, &[next.into()], done, &[]);
                self.b.switch_to_block(done);
            }
        }
    }

    /// OR of the exit masks of the frames `..upto`.
    fn exits(&mut self, upto: usize) -> Value {
        let mut acc = self.vconst([0; 4]);
        for i in 0..upto {
            let vars: smallvec::SmallVec<[Variable; 2]> = match &self.frames[i].kind {
                FrameKind::Loop { brk, cont } => smallvec::smallvec![*brk, *cont],
                FrameKind::Block { leave } => smallvec::smallvec![*leave],
            };
            for v in vars {
                let m = self.b.use_var(v);
                acc = self.b.ins().bor(acc, m);
            }
        }
        acc
    }

    /// `exec = base ∧ alive ∧ ¬exits(frames[..upto])` — the module invariant.
    fn recompute_exec(&mut self, base: Value, upto: usize) -> Value {
        let alive = self.b.use_var(self.alive);
        let x = self.exits(upto);
        let a = self.b.ins().band(base, alive);
        let v = self.b.ins().band_not(a, x);
        self.b.def_var(self.exec, v);
        v
    }

    fn frame(&self, label: Label) -> Result<&Frame, CompileError> {
        self.frames
            .iter()
            .rev()
            .find(|f| f.label == label)
            .ok_or_else(|| CompileError::Bug(format!("label {} is not enclosing", label.0)))
    }

    /// `mask |= exec; exec = 0`.
    fn exit_into(&mut self, mask: Variable) {
        let exec = self.b.use_var(self.exec);
        let m = self.b.use_var(mask);
        let v = self.b.ins().bor(m, exec);
        self.b.def_var(mask, v);
        let z = self.vconst([0; 4]);
        self.b.def_var(self.exec, z);
    }

    // ---- statements ----------------------------------------------------------------------

    fn emit_stmts(&mut self, body: &[Stmt]) -> Result<(), CompileError> {
        self.depth += 1;
        self.uniform_memo.push(std::collections::HashMap::new());
        let r = self.emit_list(body);
        self.uniform_memo.pop();
        self.depth -= 1;
        r
    }

    fn emit_list(&mut self, body: &[Stmt]) -> Result<(), CompileError> {
        for s in body {
            self.emit_stmt(s)?;
            // After an unconditional exit, the rest of this list runs with no lane: skip it.
            if matches!(
                s,
                Stmt::Break(_) | Stmt::Continue(_) | Stmt::Leave(_) | Stmt::Return | Stmt::Discard
            ) {
                break;
            }
        }
        Ok(())
    }

    fn emit_stmt(&mut self, s: &Stmt) -> Result<(), CompileError> {
        match s {
            Stmt::Assign { dst, op } => {
                let v = self.emit_op(*dst, op)?;
                match self.direct.get(dst.0 as usize) {
                    Some(true) => {
                        self.fixed[dst.0 as usize] = Some(v);
                        Ok(())
                    }
                    _ => self.assign(*dst, v),
                }
            }
            Stmt::StoreArray {
                array,
                index,
                value,
            } => self.emit_store_array(array.0, *index, *value),
            Stmt::If {
                cond,
                then_body,
                else_body,
            } => self.emit_if(*cond, then_body, else_body),
            Stmt::Loop {
                label,
                body,
                continuing,
            } => self.emit_loop(*label, body, continuing),
            Stmt::Block { label, body } => self.emit_block(*label, body),
            // The interpreter treats `Break` and `Leave` alike (the label's construct is left);
            // so do we, whichever construct the label names.
            Stmt::Break(l) | Stmt::Leave(l) => {
                let mask = match self.frame(*l)?.kind {
                    FrameKind::Loop { brk, .. } => brk,
                    FrameKind::Block { leave } => leave,
                };
                self.exit_into(mask);
                Ok(())
            }
            Stmt::Continue(l) => match self.frame(*l)?.kind {
                FrameKind::Loop { cont, .. } => {
                    self.exit_into(cont);
                    Ok(())
                }
                FrameKind::Block { .. } => Err(CompileError::Bug(format!(
                    "continue names block label {}",
                    l.0
                ))),
            },
            Stmt::Return => {
                let exec = self.b.use_var(self.exec);
                let alive = self.b.use_var(self.alive);
                let a = self.b.ins().band_not(alive, exec);
                self.b.def_var(self.alive, a);
                let z = self.vconst([0; 4]);
                self.b.def_var(self.exec, z);
                Ok(())
            }
            Stmt::Barrier => Err(CompileError::Bug(
                "barrier() left in a function (ir::compute splits at them)".into(),
            )),
            Stmt::EmitVertex(_) | Stmt::EndPrimitive(_) => Err(CompileError::Bug(
                "EmitVertex()/EndPrimitive() left in a function (ir::geometry rewrites them)"
                    .into(),
            )),
            Stmt::Discard => {
                if self.module.stage == Stage::Vertex {
                    return Err(CompileError::Bug(
                        "discard outside a fragment shader".into(),
                    ));
                }
                self.emit_kill();
                let z = self.vconst([0; 4]);
                self.b.def_var(self.exec, z);
                Ok(())
            }
            Stmt::Texture {
                dst,
                handle,
                coord,
                lod,
                offset,
                compare,
                layer,
                cube_layer,
            } => {
                let (op, lod_var) = match lod {
                    Lod::Implicit => (req::TexOp::SampleImplicit, None),
                    Lod::Bias(v) => (req::TexOp::SampleImplicit, Some(*v)),
                    Lod::Explicit(v) => (req::TexOp::SampleLod, Some(*v)),
                    Lod::Gather(v) => (req::TexOp::Gather, Some(*v)),
                    Lod::QueryLod => (req::TexOp::QueryLod, None),
                };
                let extra = [*compare, *layer, *cube_layer];
                let dst = dst.map(Some);
                self.emit_texture(op, handle, Some(coord), lod_var, *offset, extra, &dst)
            }
            Stmt::TexelFetch {
                dst,
                handle,
                coord,
                lod,
                layer,
            } => self.emit_texture(
                req::TexOp::Fetch,
                handle,
                Some(coord),
                Some(*lod),
                [0, 0],
                [None, *layer, None],
                &dst.map(Some),
            ),
            Stmt::Storage {
                dst,
                block,
                offset,
                dynamic,
                access,
            } => self.emit_storage(*dst, *block, *offset, *dynamic, access),
            Stmt::Image {
                op,
                dim,
                handle,
                coord,
                sample,
                data,
                dst,
            } => self.emit_image(*op, *dim, handle, coord, *sample, data, dst),
            Stmt::TextureSize {
                dst,
                handle,
                lod,
                layers,
                samples,
            } => {
                // Width, height, layers and samples are the answer's components 0..4.
                let all = [Some(dst[0]), Some(dst[1]), *layers, *samples];
                self.emit_texture(
                    req::TexOp::Size,
                    handle,
                    None,
                    Some(*lod),
                    [0, 0],
                    [None, None, None],
                    &all,
                )
            }
        }
    }

    /// Stage of the module being compiled.
    pub(crate) fn stage(&self) -> Stage {
        self.module.stage
    }

    /// Removes the lanes of `exec` from `alive` and marks them discarded.
    fn emit_kill(&mut self) {
        let exec = self.b.use_var(self.exec);
        let alive = self.b.use_var(self.alive);
        let a = self.b.ins().band_not(alive, exec);
        self.b.def_var(self.alive, a);
        let d = self.b.use_var(self.discarded);
        let d = self.b.ins().bor(d, exec);
        self.b.def_var(self.discarded, d);
    }

    /// `If`: each side runs under its narrowed mask, and only when some lane takes it — so a
    /// condition uniform over the active lanes is a plain branch.
    fn emit_if(
        &mut self,
        cond: Var,
        then_body: &[Stmt],
        else_body: &[Stmt],
    ) -> Result<(), CompileError> {
        let outer = self.b.use_var(self.exec);
        let c = self.var_value(cond)?;
        let c = self.truth(c);
        let merge = self.b.create_block();
        if !then_body.is_empty() {
            let m_then = self.b.ins().band(outer, c);
            let any = self.b.ins().vany_true(m_then);
            let then_blk = self.b.create_block();
            let next = self.b.create_block();
            self.b.ins().brif(any, then_blk, &[], next, &[]);
            self.b.switch_to_block(then_blk);
            self.b.def_var(self.exec, m_then);
            self.emit_stmts(then_body)?;
            self.b.ins().jump(next, &[]);
            self.b.switch_to_block(next);
        }
        if !else_body.is_empty() {
            let m_else = self.b.ins().band_not(outer, c);
            let any = self.b.ins().vany_true(m_else);
            let else_blk = self.b.create_block();
            self.b.ins().brif(any, else_blk, &[], merge, &[]);
            self.b.switch_to_block(else_blk);
            self.b.def_var(self.exec, m_else);
            self.emit_stmts(else_body)?;
        }
        self.b.ins().jump(merge, &[]);
        self.b.switch_to_block(merge);
        if may_exit(then_body) || may_exit(else_body) {
            let n = self.frames.len();
            self.recompute_exec(outer, n);
        } else {
            self.b.def_var(self.exec, outer);
        }
        Ok(())
    }

    /// `Loop`: runs body then continuing while any lane is still in the loop; lanes leave
    /// by `Break`, by exits to enclosing constructs, `Return` or `Discard`, or are killed by
    /// the loop budget (`ir::interp`'s module docs), checked as each iteration starts:
    ///
    /// ```text
    ///  header: budget -= exec (per lane); lanes that went below 0 → trip, else body
    ///  trip:   kill them, tell `ShaderEnv::loop_trips`; any lane left → body, else exit
    ///  body:   body, continuing; any lane still in the loop → header, else exit
    /// ```
    ///
    /// The short-loop cost over an uncapped loop is one vector add, compare, and, test and
    /// branch per iteration.
    fn emit_loop(
        &mut self,
        label: Label,
        body: &[Stmt],
        continuing: &[Stmt],
    ) -> Result<(), CompileError> {
        let saved = self.b.use_var(self.exec);
        let brk = self.b.declare_var(I32X4);
        let cont = self.b.declare_var(I32X4);
        let zero_v = self.vconst([0; 4]);
        self.b.def_var(brk, zero_v);
        self.b.def_var(cont, zero_v);
        self.frames.push(Frame {
            label,
            kind: FrameKind::Loop { brk, cont },
        });
        let header = self.b.create_block();
        let trip = self.b.create_block();
        let notify = self.b.create_block();
        let resume = self.b.create_block();
        let body_blk = self.b.create_block();
        let exit = self.b.create_block();
        self.b.ins().jump(header, &[]);

        self.b.switch_to_block(header);
        let exec = self.b.use_var(self.exec);
        let left = self.b.use_var(self.budget);
        // exec lanes are -1: adding them spends one iteration each.
        let left = self.b.ins().iadd(left, exec);
        self.b.def_var(self.budget, left);
        let zero_v = self.vconst([0; 4]);
        let spent = self.b.ins().icmp(IntCC::SignedLessThan, left, zero_v);
        let out = self.b.ins().band(exec, spent);
        let any_out = self.b.ins().vany_true(out);
        self.b.ins().brif(any_out, trip, &[], body_blk, &[]);

        self.b.switch_to_block(trip);
        self.b.def_var(self.exec, out);
        self.emit_kill();
        let still = self.b.ins().band_not(exec, out);
        self.b.def_var(self.exec, still);
        let listener = self.b.ins().icmp_imm_s(IntCC::NotEqual, self.loop_trips, 0);
        self.b.ins().brif(listener, notify, &[], resume, &[]);

        self.b.switch_to_block(notify);
        let one = self.b.ins().iconst(types::I32, 1);
        self.b
            .ins()
            .atomic_store(MemFlagsData::trusted(), one, self.loop_trips);
        self.b.ins().jump(resume, &[]);

        self.b.switch_to_block(resume);
        let still = self.b.use_var(self.exec);
        let any = self.b.ins().vany_true(still);
        self.b.ins().brif(any, body_blk, &[], exit, &[]);

        self.b.switch_to_block(body_blk);
        let zero_v = self.vconst([0; 4]);
        self.b.def_var(cont, zero_v);
        self.emit_stmts(body)?;
        // Lanes that continued rejoin for `continuing`.
        let zero_v = self.vconst([0; 4]);
        self.b.def_var(cont, zero_v);
        let n = self.frames.len();
        self.recompute_exec(saved, n);
        self.emit_stmts(continuing)?;
        let zero_v = self.vconst([0; 4]);
        self.b.def_var(cont, zero_v);
        let next = self.recompute_exec(saved, n);
        let any = self.b.ins().vany_true(next);
        self.b.ins().brif(any, header, &[], exit, &[]);

        self.b.switch_to_block(exit);
        self.frames.pop();
        let n = self.frames.len();
        self.recompute_exec(saved, n);
        Ok(())
    }

    fn emit_block(&mut self, label: Label, body: &[Stmt]) -> Result<(), CompileError> {
        let saved = self.b.use_var(self.exec);
        let leave = self.b.declare_var(I32X4);
        let zero_v = self.vconst([0; 4]);
        self.b.def_var(leave, zero_v);
        self.frames.push(Frame {
            label,
            kind: FrameKind::Block { leave },
        });
        self.emit_stmts(body)?;
        self.frames.pop();
        if may_exit(body) {
            let n = self.frames.len();
            self.recompute_exec(saved, n);
        } else {
            self.b.def_var(self.exec, saved);
        }
        Ok(())
    }

    // ---- memory --------------------------------------------------------------------------

    /// Where lane `lane` of element `idx` (an i32 scalar) of a local array lives, with an
    /// in-range flag (i8); the caller redirects out-of-range lanes to the zero or sink slot.
    /// Layout: element-major, 16 bytes per element, 4 bytes per lane.
    fn array_lane_addr(
        &mut self,
        array: u32,
        idx: Value,
        lane: u32,
    ) -> Result<(Value, Value), CompileError> {
        let (slot, len) = *self
            .arrays
            .get(array as usize)
            .ok_or_else(|| CompileError::Bug(format!("array a{array} out of range")))?;
        // i32 indices: negative ones are huge as u32, hence out of range.
        let ok = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, idx, len as i64);
        let wide = self.b.ins().uextend(self.ptr, idx);
        let off = self.b.ins().imul_imm_s(wide, 16);
        let base = self.b.ins().stack_addr(self.ptr, slot, (lane * 4) as i32);
        let addr = self.b.ins().iadd(base, off);
        Ok((ok, addr))
    }

    pub(crate) fn emit_load_array(
        &mut self,
        array: u32,
        index: Var,
    ) -> Result<Value, CompileError> {
        let iv = self.var_value(index)?;
        let idx = self.lanes(iv);
        let zero = self.zero_addr();
        let mut out = [idx[0]; 4];
        for lane in 0..4 {
            let (ok, addr) = self.array_lane_addr(array, idx[lane], lane as u32)?;
            let a = self.b.ins().select(ok, addr, zero);
            out[lane] = self.b.ins().load(types::I32, mem(), a, 0);
        }
        Ok(self.join_lanes(out))
    }

    fn emit_store_array(&mut self, array: u32, index: Var, value: Var) -> Result<(), CompileError> {
        let iv = self.var_value(index)?;
        let vv = self.var_value(value)?;
        let exec = self.b.use_var(self.exec);
        let idx = self.lanes(iv);
        let val = self.lanes(vv);
        let act = self.lanes(exec);
        let sink = self.sink_addr();
        for lane in 0..4 {
            let (ok, addr) = self.array_lane_addr(array, idx[lane], lane as u32)?;
            let on = self.b.ins().icmp_imm_s(IntCC::NotEqual, act[lane], 0);
            let ok = self.b.ins().band(ok, on);
            let a = self.b.ins().select(ok, addr, sink);
            self.b.ins().store(mem(), val[lane], a, 0);
        }
        Ok(())
    }

    /// Row `row` of the SoA input slots.
    pub(crate) fn emit_input(&mut self, row: u32) -> Result<Value, CompileError> {
        let off = i32::try_from(row as u64 * 16)
            .map_err(|_| CompileError::Limit(format!("input word {row} is too far")))?;
        Ok(self.b.ins().load(I32X4, mem(), self.inputs, off))
    }

    pub(crate) fn emit_builtin(&mut self, index: usize) -> Value {
        self.b
            .ins()
            .load(I32X4, mem(), self.builtins, (index * 16) as i32)
    }

    /// `Op::Uniform`: robust reads of the default block (GL 4.5 core §6.4 robust access
    /// is our choice for every out-of-range read: zeros).
    pub(crate) fn emit_uniform(
        &mut self,
        offset: u32,
        index: Option<(Var, u32, u32)>,
    ) -> Result<Value, CompileError> {
        match index {
            None => {
                let known = self.uniform_memo.iter().rev().find_map(|m| m.get(&offset));
                if let Some(&v) = known {
                    return Ok(v);
                }
                let zero = self.zero_addr();
                let w = self.b.ins().iconst(types::I64, offset as i64);
                let ok = self
                    .b
                    .ins()
                    .icmp(IntCC::UnsignedLessThan, w, self.uniform_words);
                let addr = self.b.ins().iadd_imm_s(self.uniforms, offset as i64 * 4);
                let a = self.b.ins().select(ok, addr, zero);
                let x = self.b.ins().load(types::I32, uniform_mem(), a, 0);
                let v = self.b.ins().splat(I32X4, x);
                if let Some(m) = self.uniform_memo.last_mut() {
                    m.insert(offset, v);
                }
                Ok(v)
            }
            Some((var, stride, count)) => {
                let zero = self.zero_addr();
                // An i32 index below 0 is out of range even against a count past i32::MAX.
                let signed = self.kind(var)? == ScalarKind::I32;
                let iv = self.var_value(var)?;
                let idx = self.lanes(iv);
                let mut out = [idx[0]; 4];
                for lane in 0..4 {
                    let mut in_count =
                        self.b
                            .ins()
                            .icmp_imm_u(IntCC::UnsignedLessThan, idx[lane], count as i64);
                    if signed {
                        let nonneg =
                            self.b
                                .ins()
                                .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, idx[lane], 0);
                        in_count = self.b.ins().band(in_count, nonneg);
                    }
                    let wide = self.b.ins().uextend(types::I64, idx[lane]);
                    let scaled = self.b.ins().imul_imm_s(wide, stride as i64);
                    let w = self.b.ins().iadd_imm_s(scaled, offset as i64);
                    let in_block =
                        self.b
                            .ins()
                            .icmp(IntCC::UnsignedLessThan, w, self.uniform_words);
                    let ok = self.b.ins().band(in_count, in_block);
                    let bytes = self.b.ins().ishl_imm_s(w, 2);
                    let addr = self.b.ins().iadd(self.uniforms, bytes);
                    let a = self.b.ins().select(ok, addr, zero);
                    out[lane] = self.b.ins().load(types::I32, uniform_mem(), a, 0);
                }
                Ok(self.join_lanes(out))
            }
        }
    }

    /// The (pointer, byte length) of range `index` of a `BufferRange` table with `count`
    /// entries; an index past the table reads the zero slot, an empty range.
    fn emit_range(&mut self, table: Value, count: Value, index: u32) -> (Value, Value) {
        let zero = self.zero_addr();
        let bi = self.b.ins().iconst(types::I64, index as i64);
        let has = self.b.ins().icmp(IntCC::UnsignedLessThan, bi, count);
        let raddr = self
            .b
            .ins()
            .iadd_imm_s(table, index as i64 * abi::BUFFER_RANGE_SIZE as i64);
        // The zero slot reads as { ptr: null, len: 0 }: an empty range.
        let r = self.b.ins().select(has, raddr, zero);
        let base = self.b.ins().load(self.ptr, mem(), r, abi::BUFFER_RANGE_PTR);
        let len = self
            .b
            .ins()
            .load(types::I64, mem(), r, abi::BUFFER_RANGE_LEN);
        (base, len)
    }

    /// The byte offset `offset + dynamic` of each lane as i64 (dynamic's bits as u32).
    fn storage_offsets(
        &mut self,
        offset: u32,
        dynamic: Option<Var>,
    ) -> Result<[Value; 4], CompileError> {
        Ok(match dynamic {
            None => [self.b.ins().iconst(types::I64, offset as i64); 4],
            Some(var) => {
                let dv = self.var_value(var)?;
                let d = self.lanes(dv);
                d.map(|x| {
                    let wide = self.b.ins().uextend(types::I64, x);
                    self.b.ins().iadd_imm_s(wide, offset as i64)
                })
            }
        })
    }

    /// `Op::StorageLoad`: one word of a storage block range, 0 outside it. Storage words
    /// are 4-byte aligned and so are all offsets the front end makes; an unaligned
    /// address (only a hand-made module has one) reads 0, as in the interpreter.
    pub(crate) fn emit_storage_load(
        &mut self,
        block: u32,
        offset: u32,
        dynamic: Option<Var>,
    ) -> Result<Value, CompileError> {
        let (base, len) = self.emit_range(self.storage, self.storage_count, block);
        let offs = self.storage_offsets(offset, dynamic)?;
        let zero = self.zero_addr();
        let mut out = [offs[0]; 4];
        for (lane, off) in offs.into_iter().enumerate() {
            let (ok, addr) = self.storage_word_addr(base, len, off);
            let a = self.b.ins().select(ok, addr, zero);
            out[lane] = self.b.ins().load(types::I32, mem(), a, 0);
        }
        Ok(self.join_lanes(out))
    }

    /// Whether the word at byte `off` of a range (`base`, `len`) is inside it and aligned,
    /// and its address.
    fn storage_word_addr(&mut self, base: Value, len: Value, off: Value) -> (Value, Value) {
        let end = self.b.ins().iadd_imm_s(off, 4);
        let inside = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, len);
        let low = self.b.ins().band_imm_u(off, 3);
        let aligned = self.b.ins().icmp_imm_s(IntCC::Equal, low, 0);
        let ok = self.b.ins().band(inside, aligned);
        let addr = self.b.ins().iadd(base, off);
        (ok, addr)
    }

    /// `Op::StorageSize`: the bound range's bytes, saturated to u32 (a multiple of 4).
    pub(crate) fn emit_storage_size(&mut self, block: u32) -> Value {
        let (_, len) = self.emit_range(self.storage, self.storage_count, block);
        let cap = self.b.ins().iconst(types::I64, 0xFFFF_FFFC_u32 as i64);
        let n = self.b.ins().umin(len, cap);
        let n = self.b.ins().ireduce(types::I32, n);
        self.b.ins().splat(I32X4, n)
    }

    /// `Stmt::Storage`: per active lane, lane 0 first, a store or an atomic on one word;
    /// lanes that are inactive or out of range act on the sink slot instead and read 0.
    fn emit_storage(
        &mut self,
        dst: Option<Var>,
        block: u32,
        offset: u32,
        dynamic: Option<Var>,
        access: &crate::ir::StorageAccess,
    ) -> Result<(), CompileError> {
        use crate::ir::{AtomicOp, StorageAccess};
        use cranelift_codegen::ir::AtomicRmwOp;
        let (base, len) = self.emit_range(self.storage, self.storage_count, block);
        let offs = self.storage_offsets(offset, dynamic)?;
        let exec = self.b.use_var(self.exec);
        let exec = match self.writers {
            Some(w) => self.b.ins().band(exec, w),
            None => exec,
        };
        let act = self.lanes(exec);
        let sink = self.sink_addr();
        let (first, second) = match *access {
            StorageAccess::Store(v) | StorageAccess::Atomic(_, v) => (v, None),
            StorageAccess::CompSwap { compare, value } => (value, Some(compare)),
        };
        let fv = self.var_value(first)?;
        let vals = self.lanes(fv);
        let cmps = match second {
            Some(c) => {
                let cv = self.var_value(c)?;
                Some(self.lanes(cv))
            }
            None => None,
        };
        let signed = self.kind(first)? == ScalarKind::I32;
        let zero32 = self.b.ins().iconst(types::I32, 0);
        let mut old = [zero32; 4];
        for lane in 0..4 {
            let (ok, addr) = self.storage_word_addr(base, len, offs[lane]);
            let on = self.b.ins().icmp_imm_s(IntCC::NotEqual, act[lane], 0);
            let ok = self.b.ins().band(ok, on);
            let a = self.b.ins().select(ok, addr, sink);
            // Atomics need their natural alignment: the sink slot is 4-aligned, and so is
            // every in-range address (checked above).
            let atomic = mem().with_aligned();
            let prev = match *access {
                StorageAccess::Store(_) => {
                    self.b.ins().store(mem(), vals[lane], a, 0);
                    continue;
                }
                StorageAccess::Atomic(op, _) => {
                    let rmw = match op {
                        AtomicOp::Add => AtomicRmwOp::Add,
                        AtomicOp::And => AtomicRmwOp::And,
                        AtomicOp::Or => AtomicRmwOp::Or,
                        AtomicOp::Xor => AtomicRmwOp::Xor,
                        AtomicOp::Exchange => AtomicRmwOp::Xchg,
                        AtomicOp::Min if signed => AtomicRmwOp::Smin,
                        AtomicOp::Max if signed => AtomicRmwOp::Smax,
                        AtomicOp::Min => AtomicRmwOp::Umin,
                        AtomicOp::Max => AtomicRmwOp::Umax,
                    };
                    self.b
                        .ins()
                        .atomic_rmw(types::I32, atomic, rmw, a, vals[lane])
                }
                StorageAccess::CompSwap { .. } => {
                    let c = cmps.map_or(zero32, |c| c[lane]);
                    self.b.ins().atomic_cas(atomic, a, c, vals[lane])
                }
            };
            old[lane] = self.b.ins().select(ok, prev, zero32);
        }
        if let Some(d) = dst {
            let v = self.join_lanes(old);
            self.assign(d, v)?;
        }
        Ok(())
    }

    /// `Op::BlockLoad`: one word of a bound uniform block range; reads that do not fit in
    /// the range (or of an unbound block) give 0.
    pub(crate) fn emit_block_load(
        &mut self,
        block: u32,
        offset: u32,
        dynamic: Option<Var>,
    ) -> Result<Value, CompileError> {
        let zero = self.zero_addr();
        let (base, len) = self.emit_range(self.blocks, self.block_count, block);
        let word = |e: &mut Self, off: Value| {
            let end = e.b.ins().iadd_imm_s(off, 4);
            let ok = e.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, len);
            let addr = e.b.ins().iadd(base, off);
            let a = e.b.ins().select(ok, addr, zero);
            e.b.ins().load(types::I32, mem(), a, 0)
        };
        match dynamic {
            None => {
                let off = self.b.ins().iconst(types::I64, offset as i64);
                let x = word(self, off);
                Ok(self.b.ins().splat(I32X4, x))
            }
            Some(var) => {
                let dv = self.var_value(var)?;
                let d = self.lanes(dv);
                let mut out = [d[0]; 4];
                for lane in 0..4 {
                    let wide = self.b.ins().uextend(types::I64, d[lane]);
                    let off = self.b.ins().iadd_imm_s(wide, offset as i64);
                    out[lane] = word(self, off);
                }
                Ok(self.join_lanes(out))
            }
        }
    }

    /// One texture instruction: fill a `TexRequest`, call `rt_texture`, write `dst` from the
    /// `TexResult` under `exec`. `compare` is a shadow lookup's reference depth.
    #[allow(clippy::too_many_arguments)]
    fn emit_texture(
        &mut self,
        op: req::TexOp,
        handle: &[Var; 2],
        coord: Option<&[Var; 2]>,
        lod: Option<Var>,
        offset: [i32; 2],
        [compare, layer, cube_layer]: [Option<Var>; 3],
        dst: &[Option<Var>],
    ) -> Result<(), CompileError> {
        let req = self.tex_req;
        let exec = self.b.use_var(self.exec);
        let mask = self.b.ins().vhigh_bits(types::I32, exec);
        // No active lane (all left earlier in this list): no call, as in the interpreter,
        // which skips a statement list once its mask is empty.
        let call_blk = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().brif(mask, call_blk, &[], done, &[]);
        self.b.switch_to_block(call_blk);
        let quad = (self.module.stage == Stage::Fragment) as i64;
        let scalars = [
            (req::TEX_OP, self.b.ins().iconst(types::I32, op as i64)),
            (req::TEX_MASK, mask),
            (req::TEX_QUAD, self.b.ins().iconst(types::I32, quad)),
            (
                req::TEX_OFFSET,
                self.b.ins().iconst(types::I32, offset[0] as i64),
            ),
            (
                req::TEX_OFFSET + 4,
                self.b.ins().iconst(types::I32, offset[1] as i64),
            ),
            (
                req::TEX_COMPARE,
                self.b.ins().iconst(types::I32, compare.is_some() as i64),
            ),
        ];
        for (off, v) in scalars {
            self.b.ins().stack_store(self.ptr, v, req, off);
        }
        let zero_v = self.vconst([0; 4]);
        let h0 = self.var_value(handle[0])?;
        let h1 = self.var_value(handle[1])?;
        let (c0, c1) = match coord {
            Some(c) => (self.var_value(c[0])?, self.var_value(c[1])?),
            None => (zero_v, zero_v),
        };
        let l = match lod {
            Some(v) => self.var_value(v)?,
            None => zero_v,
        };
        let dref = match compare {
            Some(v) => self.var_value(v)?,
            None => zero_v,
        };
        let layer = match layer {
            Some(v) => self.var_value(v)?,
            None => zero_v,
        };
        let cube_layer = match cube_layer {
            Some(v) => self.var_value(v)?,
            None => zero_v,
        };
        for (off, v) in [
            (req::TEX_HANDLE_LO, h0),
            (req::TEX_HANDLE_HI, h1),
            (req::TEX_COORD, c0),
            (req::TEX_COORD + 16, c1),
            (req::TEX_LOD, l),
            (req::TEX_DREF, dref),
            (req::TEX_LAYER, layer),
            (req::TEX_CUBE_LAYER, cube_layer),
            // Only image requests read `data`; the rest of the request is defined anyway.
            (req::TEX_DATA, zero_v),
            (req::TEX_DATA + 16, zero_v),
            (req::TEX_DATA + 32, zero_v),
            (req::TEX_DATA + 48, zero_v),
        ] {
            self.b.ins().stack_store(self.ptr, v, req, off);
        }
        let req_addr = self.b.ins().stack_addr(self.ptr, req, 0);
        let out_addr = self.b.ins().stack_addr(self.ptr, self.tex_out, 0);
        self.b
            .ins()
            .call(self.helpers.texture, &[self.sampler, req_addr, out_addr]);
        for (c, d) in dst.iter().enumerate() {
            let Some(d) = d else {
                continue;
            };
            let v = self
                .b
                .ins()
                .stack_load(self.ptr, I32X4, self.tex_out, (c * 16) as i32);
            self.assign(*d, v)?;
        }
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        Ok(())
    }
}
