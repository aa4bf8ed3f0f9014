//! Constant folding and dead-assignment removal (`fold`): the front end's last step on a
//! module, so that work a shader does on constants is done once at compile time instead of
//! for every invocation, and Cranelift never sees it.
//!
//! **Same results, by construction.** An op is folded only when every operand is a known
//! constant, and its value is computed by `interp::eval_pure`, the function the reference
//! interpreter computes that op with (and which the JIT is tested against bit for bit). Ops
//! that read anything else (inputs, uniforms, memory, arrays, derivatives) are never folded.
//!
//! **Knowing a value.** The IR is not SSA and writes happen in active lanes only
//! (`module.rs`), so "v is c" is tracked only where every lane that can still matter executes
//! the write: straight-line code at the top of `main`, and in a `Block` until a statement
//! that can make lanes leave it (`Break`, `Continue` or `Leave` aimed outside the statement).
//! Lanes that `Return` or `Discard` never run again, so they do not matter. Inside an `If`
//! arm or a loop, ops are still folded from what is known on entry, but a write makes its
//! var unknown; a loop first forgets every var it writes (their values change between
//! iterations). Any statement other than `Assign` forgets every var it names.
//!
//! **Dead assignments.** Afterwards an `Assign` that a later one of the same list
//! overwrites unread is removed, then every `Assign` whose var no statement reads and no
//! output is (ops have no side effects), a few rounds so that chains of dead temporaries go
//! too. Each step is one linear walk.
//!
//! A 10 MiB shader of one line (`x = x * 0.5 + 1.0;` 550,000 times, issue #11) becomes a
//! handful of statements here instead of five million Cranelift instructions.

use super::interp::eval_pure;
use super::module::*;

/// Rounds of dead-assignment removal (each removes the last link of every dead chain).
const DEAD_ROUNDS: usize = 4;

/// Folds constants in `func` and removes assignments nobody reads (module docs).
pub fn fold(func: &mut Function) {
    let mut f = Folder {
        kinds: &func.vars,
        known: vec![None; func.vars.len()],
    };
    let mut body = std::mem::take(&mut func.body);
    f.list(&mut body, true);
    let mut killed = Killed {
        by: vec![false; func.vars.len()],
        touched: Vec::new(),
    };
    remove_overwritten(&mut body, &mut killed);
    for _ in 0..DEAD_ROUNDS {
        let mut read = vec![false; func.vars.len()];
        for v in &func.outputs {
            mark(&mut read, *v);
        }
        reads(&body, &mut read);
        if !remove_dead(&mut body, &read) {
            break;
        }
    }
    func.body = body;
}

struct Folder<'a> {
    kinds: &'a [ScalarKind],
    /// `known[v]`: the bits every lane that still matters holds in `v`.
    known: Vec<Option<u32>>,
}

impl Folder<'_> {
    fn known(&self, v: Var) -> Option<u32> {
        self.known.get(v.0 as usize).copied().flatten()
    }

    fn set(&mut self, v: Var, value: Option<u32>) {
        if let Some(k) = self.known.get_mut(v.0 as usize) {
            *k = value;
        }
    }

    /// Folds the statements of `list`; `full` says every lane that matters runs them.
    fn list(&mut self, list: &mut [Stmt], mut full: bool) {
        for s in list.iter_mut() {
            self.stmt(s, full);
            if full && escapes(s) {
                full = false;
            }
        }
    }

    fn stmt(&mut self, s: &mut Stmt, full: bool) {
        match s {
            Stmt::Assign { dst, op } => {
                let dst = *dst;
                let value = self.value(op);
                if let (Some(bits), false) = (value, matches!(op, Op::Const(_))) {
                    if let Some(kind) = self.kinds.get(dst.0 as usize) {
                        *op = Op::Const(scalar(*kind, bits));
                    }
                }
                // Under a partial mask the inactive lanes keep their old value: the var is
                // known afterwards only if it held this very value already.
                let after = if full || value == self.known(dst) {
                    value
                } else {
                    None
                };
                self.set(dst, after);
            }
            Stmt::If {
                then_body,
                else_body,
                ..
            } => {
                self.list(then_body, false);
                self.list(else_body, false);
            }
            Stmt::Loop {
                body, continuing, ..
            } => {
                self.forget_writes(body);
                self.forget_writes(continuing);
                self.list(body, false);
                self.list(continuing, false);
            }
            Stmt::Block { body, .. } => self.list(body, full),
            other => other.for_each_var(|v| self.set(v, None)),
        }
    }

    /// The op's value when all its operands are known and it is pure.
    fn value(&self, op: &Op) -> Option<u32> {
        let mut all = true;
        op.for_each_operand(|v| all &= self.known(v).is_some());
        if !all {
            return None;
        }
        let kinds = self.kinds;
        eval_pure(
            op,
            |v| kinds.get(v.0 as usize).copied().unwrap_or(ScalarKind::U32),
            |v| self.known(v).unwrap_or(0),
        )
    }

    /// Forgets every var written anywhere in `list`.
    fn forget_writes(&mut self, list: &[Stmt]) {
        for s in list {
            match s {
                Stmt::Assign { dst, .. } => self.set(*dst, None),
                Stmt::If { .. } | Stmt::Loop { .. } | Stmt::Block { .. } => {}
                other => other.for_each_var(|v| self.set(v, None)),
            }
            for child in s.children() {
                self.forget_writes(child);
            }
        }
    }
}

/// The values of `outs` after running `body` once, when `body` is what the front end
/// lowers a constant expression to (GLSL 4.60 §4.3.3): pure `Assign`s, and `If`s and
/// `Block`s whose conditions are themselves known. Computed with `interp::eval_pure`, as
/// the interpreter would at run time, so a folded array size or initializer equals what
/// the shader would compute. `None` when any statement is something else or reads a value
/// that is not known.
pub fn eval_constant(kinds: &[ScalarKind], body: &[Stmt], outs: &[Var]) -> Option<Vec<u32>> {
    fn run(f: &mut Folder<'_>, list: &[Stmt]) -> Option<()> {
        for s in list {
            match s {
                Stmt::Assign { dst, op } => {
                    let v = f.value(op)?;
                    f.set(*dst, Some(v));
                }
                Stmt::If {
                    cond,
                    then_body,
                    else_body,
                } => {
                    let arm = if f.known(*cond)? != 0 {
                        then_body
                    } else {
                        else_body
                    };
                    run(f, arm)?;
                }
                Stmt::Block { body, .. } => run(f, body)?,
                _ => return None,
            }
        }
        Some(())
    }
    let mut f = Folder {
        kinds,
        known: vec![None; kinds.len()],
    };
    run(&mut f, body)?;
    outs.iter().map(|v| f.known(*v)).collect()
}

/// The constant of `kind` with these lane bits.
fn scalar(kind: ScalarKind, bits: u32) -> Scalar {
    match kind {
        ScalarKind::F32 => Scalar::F32(f32::from_bits(bits)),
        ScalarKind::I32 => Scalar::I32(bits as i32),
        ScalarKind::U32 => Scalar::U32(bits),
        ScalarKind::Bool => Scalar::Bool(bits != 0),
    }
}

/// Whether running `s` can leave some lanes inactive after it: a `Break`, `Continue` or
/// `Leave` inside it aimed at a loop or block outside it.
fn escapes(s: &Stmt) -> bool {
    fn walk(s: &Stmt, inner: &mut Vec<Label>) -> bool {
        match s {
            Stmt::Break(l) | Stmt::Continue(l) | Stmt::Leave(l) => !inner.contains(l),
            Stmt::Loop { label, .. } | Stmt::Block { label, .. } => {
                inner.push(*label);
                let out = s.children().flatten().any(|c| walk(c, inner));
                inner.pop();
                out
            }
            _ => s.children().flatten().any(|c| walk(c, inner)),
        }
    }
    walk(s, &mut Vec::new())
}

fn mark(read: &mut [bool], v: Var) {
    if let Some(r) = read.get_mut(v.0 as usize) {
        *r = true;
    }
}

/// Marks every var a statement of `list` reads (all vars of statements other than
/// `Assign`, which may read what they name).
fn reads(list: &[Stmt], read: &mut [bool]) {
    for s in list {
        match s {
            Stmt::Assign { op, .. } => op.for_each_operand(|v| mark(read, v)),
            other => other.for_each_var(|v| mark(read, v)),
        }
        for child in s.children() {
            reads(child, read);
        }
    }
}

/// The vars a later statement of the same list overwrites before anything reads them.
struct Killed {
    by: Vec<bool>,
    touched: Vec<Var>,
}

impl Killed {
    fn get(&self, v: Var) -> bool {
        self.by.get(v.0 as usize).copied().unwrap_or(false)
    }
    fn set(&mut self, v: Var, k: bool) {
        if let Some(b) = self.by.get_mut(v.0 as usize) {
            if k && !*b {
                self.touched.push(v);
            }
            *b = k;
        }
    }
    fn clear(&mut self) {
        for v in self.touched.drain(..) {
            if let Some(b) = self.by.get_mut(v.0 as usize) {
                *b = false;
            }
        }
    }
}

/// Removes each `Assign` that a later `Assign` of the same list overwrites with only
/// assignments between that do not read the var: the same lanes run both (nothing between
/// changes the mask), so the first value is never seen. Any other statement between (a
/// branch, a loop, a `Return` that writes the outputs as they are, ...) keeps it.
fn remove_overwritten(list: &mut Vec<Stmt>, killed: &mut Killed) {
    let mut keep = vec![true; list.len()];
    killed.clear();
    for (i, s) in list.iter().enumerate().rev() {
        match s {
            Stmt::Assign { dst, op } => {
                if killed.get(*dst) {
                    keep[i] = false;
                    continue;
                }
                killed.set(*dst, true);
                op.for_each_operand(|v| killed.set(v, false));
            }
            _ => killed.clear(),
        }
    }
    killed.clear();
    let mut k = keep.into_iter();
    list.retain(|_| k.next().unwrap_or(true));
    for s in list.iter_mut() {
        match s {
            Stmt::If {
                then_body,
                else_body,
                ..
            } => {
                remove_overwritten(then_body, killed);
                remove_overwritten(else_body, killed);
            }
            Stmt::Loop {
                body, continuing, ..
            } => {
                remove_overwritten(body, killed);
                remove_overwritten(continuing, killed);
            }
            Stmt::Block { body, .. } => remove_overwritten(body, killed),
            _ => {}
        }
    }
}

/// Removes the assignments to vars not in `read`; whether any went.
fn remove_dead(list: &mut Vec<Stmt>, read: &[bool]) -> bool {
    let before = list.len();
    list.retain(|s| match s {
        Stmt::Assign { dst, .. } => read.get(dst.0 as usize).copied().unwrap_or(true),
        _ => true,
    });
    let mut removed = list.len() != before;
    for s in list.iter_mut() {
        match s {
            Stmt::If {
                then_body,
                else_body,
                ..
            } => {
                removed |= remove_dead(then_body, read);
                removed |= remove_dead(else_body, read);
            }
            Stmt::Loop {
                body, continuing, ..
            } => {
                removed |= remove_dead(body, read);
                removed |= remove_dead(continuing, read);
            }
            Stmt::Block { body, .. } => removed |= remove_dead(body, read),
            _ => {}
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::builder::{random_module, Builder};
    use crate::ir::interp;
    use crate::sampler::request::{TexRequest, TexResult};

    fn ops(list: &[Stmt]) -> usize {
        list.iter()
            .map(|s| 1 + s.children().map(ops).sum::<usize>())
            .sum()
    }

    /// Runs `m` with input/uniform words the same in every lane, on the lanes of `mask`.
    fn run(m: &Module, inputs: &[u32], uniforms: &[u32], mask: u32, budget: u32) -> Vec<u32> {
        let texture = |_: &TexRequest| -> TexResult { [[0; 4]; 4] };
        let env = interp::InterpEnv {
            uniforms,
            blocks: &[],
            storage: &[],
            texture: &texture,
            quad: m.stage == Stage::Fragment,
        };
        let rows: Vec<u32> = inputs.iter().flat_map(|w| [*w; 4]).collect();
        let builtins = vec![0; Builtin::COUNT * 4];
        let mut out = vec![0xDEAD_BEEF; m.func.outputs.len() * 4];
        let o = interp::run_budgeted(m, &env, &rows, &builtins, &mut out, mask, budget);
        out.push(o.alive);
        out
    }

    #[test]
    fn a_chain_on_constants_folds_to_its_value() {
        let mut b = Builder::new(Stage::Fragment);
        let x = b.f32(0.0);
        let half = b.f32(0.5);
        let one = b.f32(1.0);
        let mut expect = 0.0f32;
        for _ in 0..1000 {
            let m = b.binary(BinaryOp::FMul, x, half);
            let s = b.binary(BinaryOp::FAdd, m, one);
            b.assign(x, Op::Copy(s));
            expect = expect * 0.5 + 1.0;
        }
        b.output(x);
        let mut m = b.finish();
        fold(&mut m.func);
        // One assignment of the output's constant is all that is left.
        assert_eq!(ops(&m.func.body), 1, "{}", crate::ir::dump(&m));
        assert_eq!(
            m.func.body[0],
            Stmt::Assign {
                dst: x,
                op: Op::Const(Scalar::F32(expect))
            }
        );
    }

    #[test]
    fn what_an_arm_or_a_loop_writes_is_not_known_after_it() {
        let mut b = Builder::new(Stage::Fragment);
        let x = b.f32(1.0);
        let c = b.input(0, ScalarKind::Bool);
        b.if_(c, |b| b.assign(x, Op::Const(Scalar::F32(2.0))));
        let y = b.binary(BinaryOp::FAdd, x, x);
        let n = b.i32(0);
        let one = b.i32(1);
        b.loop_(
            |b, l| {
                let lim = b.i32(3);
                let done = b.binary(BinaryOp::SGe, n, lim);
                b.if_(done, |b| b.break_(l));
                let n1 = b.binary(BinaryOp::IAdd, n, one);
                b.assign(n, Op::Copy(n1));
            },
            |_, _| {},
        );
        let z = b.binary(BinaryOp::IAdd, n, one);
        b.output(y);
        b.output(z);
        let mut m = b.finish();
        fold(&mut m.func);
        let folded = crate::ir::dump(&m);
        // y and z depend on the arm and the loop: still computed.
        assert!(folded.contains("fadd"), "{folded}");
        assert!(folded.matches("iadd").count() == 2, "{folded}");
        for c in [0, u32::MAX] {
            let out = run(&m, &[c], &[], 0xF, 100);
            let y = if c != 0 { 4.0f32 } else { 2.0 };
            assert_eq!(out[0], y.to_bits());
            assert_eq!(out[4], 4);
        }
    }

    #[test]
    fn a_leave_ends_what_is_known_in_its_block_but_not_after_it() {
        let mut b = Builder::new(Stage::Fragment);
        let x = b.f32(1.0);
        let c = b.input(0, ScalarKind::Bool);
        b.block(|b, l| {
            b.if_(c, |b| b.leave(l));
            // Lanes that left keep x = 1: not known after the block.
            b.assign(x, Op::Const(Scalar::F32(3.0)));
        });
        let y = b.binary(BinaryOp::FMul, x, x);
        b.output(y);
        let mut m = b.finish();
        fold(&mut m.func);
        assert!(crate::ir::dump(&m).contains("fmul"));
        assert_eq!(run(&m, &[u32::MAX], &[], 0xF, 100)[0], 1.0f32.to_bits());
        assert_eq!(run(&m, &[0], &[], 0xF, 100)[0], 9.0f32.to_bits());
    }

    #[test]
    fn derivatives_and_reads_are_never_folded() {
        let mut b = Builder::new(Stage::Fragment);
        let inf = b.f32(f32::INFINITY);
        let d = b.unary(UnaryOp::DFdxFine, inf);
        let u = b.uniform(0, ScalarKind::F32);
        let s = b.binary(BinaryOp::FAdd, u, inf);
        b.output(d);
        b.output(s);
        let mut m = b.finish();
        let before = run(&m, &[], &[2.0f32.to_bits()], 0xF, 100);
        fold(&mut m.func);
        let folded = crate::ir::dump(&m);
        assert!(
            folded.contains("dfdx_fine") && folded.contains("uniform"),
            "{folded}"
        );
        assert_eq!(run(&m, &[], &[2.0f32.to_bits()], 0xF, 100), before);
    }

    /// Random modules with some of their inputs and uniforms turned into constants (the
    /// same value in every lane): folded, they compute what they computed before, on every
    /// lane mask and loop budget.
    #[test]
    fn folded_random_modules_compute_the_same() {
        let words = [
            1.5f32.to_bits(),
            (-0.0f32).to_bits(),
            7,
            u32::MAX,
            f32::NAN.to_bits(),
            3,
        ];
        let mut folded_any = 0;
        for seed in 0..400u64 {
            for stage in [Stage::Vertex, Stage::Fragment] {
                let mut m = random_module(seed, stage);
                let inputs: Vec<u32> = (0..4).map(|w| words[(seed as usize + w) % 6]).collect();
                let uniforms: Vec<u32> =
                    (0..4).map(|w| words[(seed as usize * 3 + w) % 6]).collect();
                // Constants for the words picked by the seed's bits.
                let pick = seed.wrapping_mul(0x9E37_79B9);
                constants_for(
                    &mut m.func.body,
                    &m.func.vars.clone(),
                    pick,
                    &inputs,
                    &uniforms,
                );
                let mut f = m.clone();
                fold(&mut f.func);
                if ops(&f.func.body) < ops(&m.func.body) {
                    folded_any += 1;
                }
                for mask in [0xF, 0b0110, 0b1000] {
                    for budget in [0, 3, 100] {
                        assert_eq!(
                            run(&m, &inputs, &uniforms, mask, budget),
                            run(&f, &inputs, &uniforms, mask, budget),
                            "seed {seed} {stage:?} mask {mask:#b} budget {budget}\nbefore\n{}\nafter\n{}",
                            crate::ir::dump(&m),
                            crate::ir::dump(&f)
                        );
                    }
                }
            }
        }
        assert!(
            folded_any > 400,
            "only {folded_any} modules folded anything"
        );
    }

    /// Replaces the reads of the input and uniform words whose bit is set in `pick` by
    /// constants of the word's value.
    fn constants_for(
        list: &mut [Stmt],
        kinds: &[ScalarKind],
        pick: u64,
        inputs: &[u32],
        uniforms: &[u32],
    ) {
        for s in list {
            match s {
                Stmt::Assign { dst, op } => {
                    let word = match *op {
                        Op::Input(w) if pick >> w & 1 != 0 => inputs.get(w as usize),
                        Op::Uniform {
                            offset,
                            index: None,
                        } if pick >> (offset + 4) & 1 != 0 => uniforms.get(offset as usize),
                        _ => None,
                    };
                    if let Some(&w) = word {
                        let kind = kinds[dst.0 as usize];
                        // Booleans read from memory are normalized (`interp`).
                        let w = if kind == ScalarKind::Bool && w != 0 {
                            u32::MAX
                        } else {
                            w
                        };
                        *op = Op::Const(scalar(kind, w));
                    }
                }
                Stmt::If {
                    then_body,
                    else_body,
                    ..
                } => {
                    constants_for(then_body, kinds, pick, inputs, uniforms);
                    constants_for(else_body, kinds, pick, inputs, uniforms);
                }
                Stmt::Loop {
                    body, continuing, ..
                } => {
                    constants_for(body, kinds, pick, inputs, uniforms);
                    constants_for(continuing, kinds, pick, inputs, uniforms);
                }
                Stmt::Block { body, .. } => constants_for(body, kinds, pick, inputs, uniforms),
                _ => {}
            }
        }
    }
}
