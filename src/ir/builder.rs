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
                storage_blocks: Vec::new(),
                uses_discard: false,
                writes_depth: false,
                early_fragment_tests: false,
                frag_coord_origin_upper_left: false,
                frag_coord_pixel_center_integer: false,
                global_bindless_sampler: false,
                global_bound_sampler: false,
                local_size: [0; 3],
                shared_bytes: 0,
                geometry: Default::default(),
                xfb: Default::default(),
                tess: Default::default(),
                subroutines: Default::default(),
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
        self.open();
        f(self);
        self.close()
    }

    /// Starts a nested statement list (closed by `close`).
    fn open(&mut self) {
        self.lists.push(Vec::new());
    }

    /// Ends the list `open` started and returns it.
    fn close(&mut self) -> Vec<Stmt> {
        if self.lists.len() > 1 {
            self.lists.pop().unwrap_or_default()
        } else {
            Vec::new()
        }
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

// ---------------------------------------------------------------------------------------
// Random modules
// ---------------------------------------------------------------------------------------

/// A valid, terminating module built from `seed` (the same seed always gives the same
/// module): random ops of every kind over 4 input words (`f32, f32, i32, u32`) and 4
/// uniform words, nested `If`s, bounded loops whose trip counts differ per lane (with
/// `Break`/`Continue` under divergent conditions), `Block`s with `Leave`, `Return`,
/// `Discard` (fragment), local arrays indexed in and out of range, and derivatives
/// (fragment). No textures. Meant for differential tests (JIT against interpreter) and
/// robustness tests; the outputs are 8 vars of mixed kinds.
pub fn random_module(seed: u64, stage: Stage) -> Module {
    let mut g = RandomGen {
        b: Builder::new(stage),
        rng: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
        pool: Vec::new(),
        protected: Vec::new(),
        loops: Vec::new(),
        blocks: Vec::new(),
        arrays: Vec::new(),
        budget: 60,
    };
    for (w, k) in [
        ScalarKind::F32,
        ScalarKind::F32,
        ScalarKind::I32,
        ScalarKind::U32,
    ]
    .into_iter()
    .enumerate()
    {
        let v = g.b.input(w as u32, k);
        g.pool.push(v);
    }
    for w in 0..4 {
        let k = [
            ScalarKind::F32,
            ScalarKind::I32,
            ScalarKind::U32,
            ScalarKind::Bool,
        ][w];
        let v = g.b.uniform(w as u32, k);
        g.pool.push(v);
    }
    let a = g.b.array(ScalarKind::F32, 3);
    let i = g.b.array(ScalarKind::I32, 5);
    g.arrays = vec![a, i];
    g.stmts(0, 12);
    // Inputs stay live as outputs too, so every module has outputs of all kinds.
    let mut outs = Vec::new();
    for k in [
        ScalarKind::F32,
        ScalarKind::I32,
        ScalarKind::U32,
        ScalarKind::Bool,
    ] {
        outs.push(g.pick(k));
        outs.push(g.pick(k));
    }
    for v in outs {
        g.b.output(v);
    }
    g.b.finish()
}

struct RandomGen {
    b: Builder,
    rng: u64,
    /// Vars that may be read.
    pool: Vec<Var>,
    /// Loop counters: never reassigned by random statements.
    protected: Vec<Var>,
    /// Enclosing loops (innermost last) whose body we are in.
    loops: Vec<Label>,
    blocks: Vec<Label>,
    arrays: Vec<ArrayId>,
    /// Statements left to generate (keeps modules small).
    budget: u32,
}

impl RandomGen {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32
    }
    fn below(&mut self, n: u32) -> u32 {
        (self.next() % n.max(1) as u64) as u32
    }
    fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent
    }
    fn any_kind(&mut self) -> ScalarKind {
        [
            ScalarKind::F32,
            ScalarKind::I32,
            ScalarKind::U32,
            ScalarKind::Bool,
        ][self.below(4) as usize]
    }

    /// A readable var of `kind` (a new constant when there is none, or sometimes anyway).
    fn pick(&mut self, kind: ScalarKind) -> Var {
        let candidates: Vec<Var> = self
            .pool
            .iter()
            .copied()
            .filter(|v| self.b.kind(*v) == kind)
            .collect();
        if candidates.is_empty() || self.chance(15) {
            let c = match kind {
                ScalarKind::F32 => {
                    let table = [0.0, -0.0, 1.0, -2.5, 0.5, 3.0, 1e-3, 100.0, f32::INFINITY];
                    Scalar::F32(table[self.below(table.len() as u32) as usize])
                }
                ScalarKind::I32 => {
                    let table = [0, 1, -1, 2, 3, 7, 31, 32, i32::MIN, i32::MAX];
                    Scalar::I32(table[self.below(table.len() as u32) as usize])
                }
                ScalarKind::U32 => {
                    let table = [0, 1, 2, 5, 31, 33, 0x8000_0000, u32::MAX];
                    Scalar::U32(table[self.below(table.len() as u32) as usize])
                }
                ScalarKind::Bool => Scalar::Bool(self.chance(50)),
            };
            let v = self.b.constant(c);
            self.pool.push(v);
            return v;
        }
        candidates[self.below(candidates.len() as u32) as usize]
    }

    /// A random op whose result has kind `kind`, over pool vars.
    fn random_op(&mut self, kind: ScalarKind) -> Op {
        use super::validate::{binary_signature, unary_signature, RhsKind, BINARY_OPS, UNARY_OPS};
        let all = [
            ScalarKind::F32,
            ScalarKind::I32,
            ScalarKind::U32,
            ScalarKind::Bool,
        ];
        for _ in 0..16 {
            match self.below(10) {
                0..=3 => {
                    let op = BINARY_OPS[self.below(BINARY_OPS.len() as u32) as usize];
                    let (lhs, rhs, _) = binary_signature(op);
                    for a in all {
                        if !lhs.contains(a) {
                            continue;
                        }
                        let b_kind = match rhs {
                            RhsKind::SameAsLhs => a,
                            RhsKind::AnyOf(_) => {
                                if self.chance(50) {
                                    ScalarKind::I32
                                } else {
                                    ScalarKind::U32
                                }
                            }
                        };
                        if binary_result(op, a, b_kind) == Some(kind) {
                            let x = self.pick(a);
                            let y = self.pick(b_kind);
                            return Op::Binary(op, x, y);
                        }
                    }
                }
                4..=6 => {
                    let op = UNARY_OPS[self.below(UNARY_OPS.len() as u32) as usize];
                    let (kinds, _) = unary_signature(op);
                    for a in all {
                        if kinds.contains(a) && unary_result(op, a) == Some(kind) {
                            let x = self.pick(a);
                            return Op::Unary(op, x);
                        }
                    }
                }
                7 => {
                    let c = self.pick(ScalarKind::Bool);
                    let (a, b) = (self.pick(kind), self.pick(kind));
                    return Op::Select { cond: c, a, b };
                }
                8 => match kind {
                    ScalarKind::F32 => {
                        let (x, y, z) = (self.pick(kind), self.pick(kind), self.pick(kind));
                        return match self.below(3) {
                            0 => Op::Fma(x, y, z),
                            1 => Op::FClamp(x, y, z),
                            _ => Op::FMix(x, y, z),
                        };
                    }
                    ScalarKind::I32 | ScalarKind::U32 => {
                        let v = self.pick(kind);
                        let o = self.pick(ScalarKind::I32);
                        let n = self.pick(ScalarKind::I32);
                        if self.chance(50) {
                            return Op::BitfieldExtract {
                                value: v,
                                offset: o,
                                bits: n,
                            };
                        }
                        let ins = self.pick(kind);
                        return Op::BitfieldInsert {
                            base: v,
                            insert: ins,
                            offset: o,
                            bits: n,
                        };
                    }
                    ScalarKind::Bool => {}
                },
                _ => {
                    // Robust loads with dynamic indices.
                    let idx_kind = if self.chance(50) {
                        ScalarKind::I32
                    } else {
                        ScalarKind::U32
                    };
                    let index = self.pick(idx_kind);
                    if kind == ScalarKind::Bool {
                        continue;
                    }
                    if self.chance(50) {
                        return Op::Uniform {
                            offset: 0,
                            index: Some((index, 1, 4)),
                        };
                    }
                    let array = match kind {
                        ScalarKind::F32 => self.arrays[0],
                        ScalarKind::I32 => self.arrays[1],
                        _ => continue,
                    };
                    return Op::LoadArray { array, index };
                }
            }
        }
        Op::Copy(self.pick(kind))
    }

    fn stmts(&mut self, depth: u32, n: u32) {
        for _ in 0..n {
            if self.budget == 0 {
                return;
            }
            self.budget -= 1;
            self.stmt(depth);
        }
    }

    /// A condition that differs between lanes most of the time.
    fn cond(&mut self) -> Var {
        // Mostly an input (pool entries 0 and 1), which differs per lane.
        let x = if self.chance(60) {
            let i = self.below(2) as usize;
            self.pool[i]
        } else {
            self.pick(ScalarKind::F32)
        };
        let y = self.pick(ScalarKind::F32);
        if self.chance(70) {
            let v = self.b.binary(BinaryOp::FLt, x, y);
            self.pool.push(v);
            v
        } else {
            self.pick(ScalarKind::Bool)
        }
    }

    fn stmt(&mut self, depth: u32) {
        let roll = self.below(100);
        match roll {
            0..=49 => {
                let kind = self.any_kind();
                let op = self.random_op(kind);
                let v = self.b.op(kind, op);
                self.pool.push(v);
            }
            50..=61 => {
                // Reassign an existing var under whatever mask is active.
                let kind = self.any_kind();
                let target = self.pick(kind);
                let op = self.random_op(kind);
                if !self.protected.contains(&target) {
                    self.b.assign(target, op);
                }
            }
            62..=71 if depth < 3 => {
                let c = self.cond();
                let (n1, n2) = (1 + self.below(4), self.below(3));
                let pool = self.pool.len();
                self.b.open();
                self.stmts(depth + 1, n1);
                let then_body = self.b.close();
                self.b.open();
                self.stmts(depth + 1, n2);
                let else_body = self.b.close();
                self.b.push(Stmt::If {
                    cond: c,
                    then_body,
                    else_body,
                });
                // Vars first written in an arm are still readable (0 in other lanes), but
                // keep the pool mostly to dominating definitions for readable dumps.
                self.pool
                    .truncate(pool.max(self.pool.len().saturating_sub(2)));
            }
            72..=79 if depth < 3 => self.random_loop(depth),
            80..=85 if depth < 3 => {
                let n = 1 + self.below(4);
                let label = self.b.label();
                self.b.open();
                self.blocks.push(label);
                self.stmts(depth + 1, n);
                self.blocks.pop();
                let body = self.b.close();
                self.b.push(Stmt::Block { label, body });
            }
            86..=91 => self.random_exit(),
            _ => {
                let (array, kind) = if self.chance(50) {
                    (self.arrays[0], ScalarKind::F32)
                } else {
                    (self.arrays[1], ScalarKind::I32)
                };
                let idx_kind = if self.chance(50) {
                    ScalarKind::I32
                } else {
                    ScalarKind::U32
                };
                let index = self.pick(idx_kind);
                let value = self.pick(kind);
                self.b.store(array, index, value);
            }
        }
    }

    /// for (i = 0; i < (x & 7); i++) { ... } with x an integer pool var: trip counts
    /// differ per lane.
    fn random_loop(&mut self, depth: u32) {
        let x = self.pick(ScalarKind::I32);
        let seven = self.b.i32(7);
        let bound = self.b.binary(BinaryOp::And, x, seven);
        let i = self.b.i32(0);
        let one = self.b.i32(1);
        // Reassigning any of these in the body could make the loop run (nearly) forever.
        self.protected.extend([bound, i, one]);
        let n = 1 + self.below(5);
        let label = self.b.label();
        self.b.open();
        let done = self.b.binary(BinaryOp::SGe, i, bound);
        self.b.if_(done, |b| b.break_(label));
        self.loops.push(label);
        self.stmts(depth + 1, n);
        self.loops.pop();
        let body = self.b.close();
        let continuing = vec![Stmt::Assign {
            dst: i,
            op: Op::Binary(BinaryOp::IAdd, i, one),
        }];
        self.b.push(Stmt::Loop {
            label,
            body,
            continuing,
        });
        self.pool.push(i);
    }

    /// `if (c) { break | continue | leave | return | discard }`.
    fn random_exit(&mut self) {
        let c = self.cond();
        let mut choices: Vec<Stmt> = vec![Stmt::Return];
        if let Some(&l) = self.loops.last() {
            choices.push(Stmt::Break(l));
            choices.push(Stmt::Continue(l));
        }
        if let Some(&l) = self.loops.first() {
            // A labelled break of an outer loop.
            choices.push(Stmt::Break(l));
        }
        if let Some(&l) = self.blocks.first() {
            choices.push(Stmt::Leave(l));
        }
        if self.b.module.stage == Stage::Fragment {
            choices.push(Stmt::Discard);
        }
        let s = choices.swap_remove(self.below(choices.len() as u32) as usize);
        if s == Stmt::Discard {
            self.b.module.uses_discard = true;
        }
        self.b.if_(c, |b| b.push(s));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::interp::{run, InterpEnv};
    use crate::ir::validate::validate;
    use crate::sampler::request::{TexRequest, TexResult};

    fn no_texture(_: &TexRequest) -> TexResult {
        [[0; 4]; 4]
    }

    fn inputs(seed: u64) -> Vec<u32> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        };
        let mut v = Vec::new();
        // f32, f32: small floats of both signs; i32, u32: small and arbitrary integers.
        for _ in 0..8 {
            v.push(((next() % 2000) as f32 / 100.0 - 10.0).to_bits());
        }
        for _ in 0..4 {
            v.push(next() % 20);
        }
        for _ in 0..4 {
            v.push(next());
        }
        v
    }

    #[test]
    fn random_modules_are_valid_and_run() {
        let uniforms = [1.5f32.to_bits(), (-3i32) as u32, 9, u32::MAX];
        let env = InterpEnv {
            uniforms: &uniforms,
            blocks: &[],
            storage: &[],
            texture: &no_texture,
            quad: false,
        };
        let mut statements = 0;
        for seed in 0..400 {
            for stage in [Stage::Vertex, Stage::Fragment] {
                let m = random_module(seed, stage);
                assert_eq!(m, random_module(seed, stage), "seed {seed}: deterministic");
                if let Err(e) = validate(&m) {
                    panic!("seed {seed}: {e}\n{}", crate::ir::dump(&m));
                }
                statements += crate::ir::dump(&m).lines().count();
                let mut out = vec![0; m.func.outputs.len() * 4];
                let alive = run(&m, &env, &inputs(seed), &[0; 28], &mut out, 0b1011);
                assert_eq!(alive & !0b1011, 0);
            }
        }
        // The generator makes modules of some size, not empty ones.
        assert!(statements > 800 * 20, "{statements} lines");
    }

    /// Without derivatives, lanes do not see each other: running one lane alone gives the
    /// same outputs as running all four. This exercises every masking path.
    #[test]
    fn lanes_are_independent() {
        let uniforms = [0.25f32.to_bits(), 2, 3, 0];
        let env = InterpEnv {
            uniforms: &uniforms,
            blocks: &[],
            storage: &[],
            texture: &no_texture,
            quad: false,
        };
        let mut divergent = 0;
        for seed in 0..300 {
            let m = random_module(seed, Stage::Vertex);
            let ins = inputs(seed * 7 + 1);
            let n = m.func.outputs.len() * 4;
            let mut all = vec![0xDEAD; n];
            let alive = run(&m, &env, &ins, &[0; 28], &mut all, 0xF);
            let mut alive_alone = 0;
            for lane in 0..4 {
                let mut one = vec![0xDEAD; n];
                alive_alone |= run(&m, &env, &ins, &[0; 28], &mut one, 1 << lane);
                for w in (lane..n).step_by(4) {
                    assert_eq!(one[w], all[w], "seed {seed} lane {lane} word {w}");
                }
            }
            assert_eq!(alive, alive_alone, "seed {seed}");
            if all.chunks(4).any(|c| c.iter().any(|x| *x != c[0])) {
                divergent += 1;
            }
        }
        // Most modules give lanes different results: the test is not vacuous.
        assert!(divergent > 200, "{divergent}");
    }
}

#[cfg(test)]
mod robustness {
    //! Broken modules must never make the validator, the dump or the interpreter panic.
    use super::*;
    use crate::ir::interp::{run, InterpEnv};
    use crate::ir::validate::validate;
    use crate::sampler::request::{TexRequest, TexResult};

    /// Breaks one thing in the statement tree, chosen by `r`.
    fn mutate(list: &mut [Stmt], r: &mut u64) -> bool {
        for s in list.iter_mut() {
            *r = r.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            if (*r >> 33).is_multiple_of(7) {
                let pick = (*r >> 40) as u32;
                match s {
                    Stmt::Assign { dst, op } => match pick % 4 {
                        0 => *dst = Var(10_000 + pick % 7),
                        1 => {
                            *op = Op::LoadArray {
                                array: ArrayId(pick % 9),
                                index: *dst,
                            }
                        }
                        2 => {
                            *op = Op::BlockLoad {
                                block: pick % 3,
                                offset: pick,
                                dynamic: Some(*dst),
                            }
                        }
                        _ => {
                            *op = Op::Uniform {
                                offset: u32::MAX - pick % 3,
                                index: Some((*dst, u32::MAX, u32::MAX)),
                            }
                        }
                    },
                    Stmt::Break(l) | Stmt::Continue(l) | Stmt::Leave(l) => *l = Label(pick % 5),
                    Stmt::If { cond, .. } => *cond = Var(pick),
                    Stmt::StoreArray { array, .. } => *array = ArrayId(pick % 4),
                    Stmt::Loop { label, .. } | Stmt::Block { label, .. } => {
                        *label = Label(pick % 3)
                    }
                    _ => *s = Stmt::Discard,
                }
                return true;
            }
            let done = match s {
                Stmt::If {
                    then_body,
                    else_body,
                    ..
                } => mutate(then_body, r) || mutate(else_body, r),
                Stmt::Loop {
                    body, continuing, ..
                } => mutate(body, r) || mutate(continuing, r),
                Stmt::Block { body, .. } => mutate(body, r),
                _ => false,
            };
            if done {
                return true;
            }
        }
        false
    }

    fn no_texture(_: &TexRequest) -> TexResult {
        [[0; 4]; 4]
    }

    #[test]
    fn broken_modules_do_not_panic() {
        let env = InterpEnv {
            uniforms: &[1, 2],
            blocks: &[&[1, 2, 3, 4, 5]],
            storage: &[],
            texture: &no_texture,
            quad: true,
        };
        let mut rejected = 0;
        for seed in 0..400u64 {
            let mut m = random_module(seed, Stage::Fragment);
            let mut r = seed;
            for _ in 0..3 {
                mutate(&mut m.func.body, &mut r);
            }
            if seed.is_multiple_of(5) {
                m.func.outputs.push(Var(u32::MAX));
            }
            if validate(&m).is_err() {
                rejected += 1;
            }
            let _ = crate::ir::dump(&m);
            let mut out = vec![0; 3];
            let alive = run_limited(&m, &env, &mut out);
            assert_eq!(alive & !0xF, 0);
        }
        // The mutations do break things the validator sees.
        assert!(rejected > 300, "{rejected}");
    }

    /// A small loop cap: mutated labels can make loops endless.
    fn run_limited(m: &Module, env: &InterpEnv, out: &mut [u32]) -> u32 {
        crate::ir::interp::run_with_limit(m, env, &[1, 2], &[], out, 0xF, 64)
    }

    #[test]
    fn run_ignores_short_slices() {
        let m = random_module(7, Stage::Vertex);
        let env = InterpEnv {
            uniforms: &[],
            blocks: &[],
            storage: &[],
            texture: &no_texture,
            quad: false,
        };
        let alive = run(&m, &env, &[], &[], &mut [], 0xFF);
        assert_eq!(alive & !0xF, 0);
    }
}
