//! Compute work groups (GL 4.5 core §19, GLSL 4.60 §8.16): how a compute module whose
//! `main` calls `barrier()` becomes barrier-free *region* functions, which the JIT and the
//! interpreter run 4 invocations at a time like any stage, and the group-level *plan*
//! that runs them in order for every invocation of a group. Running the plan is
//! `jit::compute`'s job; this file only rewrites IR.
//!
//! # The split
//!
//! GLSL allows `barrier()` only in control flow that is uniform over the work group
//! (GLSL 4.60 §8.16: every controlling expression on the way is dynamically uniform). So
//! an `If`, `Loop` or `Block` that contains a barrier is taken the same way by every
//! invocation, and the group can run it *as a group*: it becomes a plan node ([`Node`])
//! and everything between barriers becomes a region run for all invocations before the
//! next node starts.
//!
//! ```text
//!  main:  A; for (...) { B; barrier(); C; } D;
//!  plan:  Run(A)  Loop { Run(B)  Run(C) }  Run(D)
//! ```
//!
//! The group runs the plan under per-lane masks (`jit::compute`): an `If` node splits the
//! lanes by each one's condition, a loop node runs while any lane is in it, and each
//! lane's region exit (below) moves it to its node's exit set. Under the rule above every
//! lane goes the same way; where a shader breaks it, barriers wait for the lanes that
//! reach them, deterministically.
//!
//! # State between regions
//!
//! An invocation's private state lives in rows of the group's state buffer, 4 lanes per
//! row as in `Invocation::inputs` (`[row * 4 + lane]`, one buffer of `rows` rows per chunk
//! of 4 invocations). Rows `0..ID_ROWS` hold the compute built-ins (filled by the
//! dispatcher). Each var that must outlive a region (touched by two regions, read by the
//! plan, or not provably written before read when its region runs again in a plan loop)
//! gets a row after them: a region reads its state vars with `Op::Input(row)` at entry
//! and writes the ones it changes back through `Function::output_rows`. Local arrays that
//! outlive a region are copied in and out element by element the same way. Everything
//! else is a plain var of one region.
//!
//! # Exits
//!
//! A `Break`, `Continue` or `Leave` inside a region whose target is a plan node sets the
//! exit var (a u32 state var) to that exit's code and leaves the region; the plan reads it
//! after the region and unwinds. `Return` from `main` becomes `Discard` in a region: the
//! invocation is done for the rest of the dispatch (its lanes are no longer live).
//!
//! # Loop budget
//!
//! Every invocation may start `ir::interp::loop_budget()` loop iterations in all
//! (ARCHITECTURE.md §6), barriers or not. The engines budget one call of a function, so a
//! plan with barriers keeps the invocation's remaining budget in a state var of its own
//! (`Plan::budget_row`): every loop of a region starts each iteration by leaving the region
//! with [`BUDGET_EXIT`] when the var is 0 and spending one unit otherwise, and the plan
//! spends one unit per lane for each iteration of a plan loop. The engines' own budget
//! (the whole budget for each call) is never the smaller, so the var decides.

use std::collections::HashMap;

use super::module::*;

/// `gl_LocalInvocationID` (3 rows, u32).
pub const ROW_LOCAL_ID: u32 = 0;
/// `gl_WorkGroupID` (3 rows, u32).
pub const ROW_GROUP_ID: u32 = 3;
/// `gl_NumWorkGroups` (3 rows, u32).
pub const ROW_NUM_GROUPS: u32 = 6;
/// `gl_GlobalInvocationID` (3 rows, u32).
pub const ROW_GLOBAL_ID: u32 = 9;
/// `gl_LocalInvocationIndex` (1 row, u32).
pub const ROW_LOCAL_INDEX: u32 = 12;
/// Rows of built-ins before the state vars.
pub const ID_ROWS: u32 = 13;

/// GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS (llvmpipe's 1024).
pub const MAX_INVOCATIONS: u32 = 1024;
/// GL_MAX_COMPUTE_WORK_GROUP_SIZE per dimension (llvmpipe: 1024, 1024, 1024).
pub const MAX_SIZE: [u32; 3] = [1024, 1024, 1024];
/// GL_MAX_COMPUTE_SHARED_MEMORY_SIZE in bytes (32 KiB, as llvmpipe).
pub const MAX_SHARED_BYTES: u32 = 32 * 1024;
/// GL_MAX_COMPUTE_WORK_GROUP_COUNT per dimension (65535, GL 4.5's minimum, as llvmpipe).
pub const MAX_GROUP_COUNT: u32 = 65535;

/// The storage block index a compute module's `shared` variables use: the one after its
/// storage blocks (`Module::shared_bytes`).
pub fn shared_block(m: &Module) -> u32 {
    m.storage_blocks.len() as u32
}

/// How a region left: which plan node an exit code names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    Break(Label),
    Continue(Label),
    Leave(Label),
}

/// The exit code of a region whose invocation ran out of its loop budget.
pub const BUDGET_EXIT: u32 = u32::MAX;

/// A group-level step of the plan.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// Runs region `regions[i]` for the invocations in the mask, chunk by chunk, then reads
    /// each lane's exit row.
    Run(usize),
    /// The state row of the condition (bool) and the two arms.
    If {
        cond_row: u32,
        then_nodes: Vec<Node>,
        else_nodes: Vec<Node>,
    },
    /// A loop containing a barrier: `body` then `continuing` until an exit breaks it.
    Loop {
        label: Label,
        body: Vec<Node>,
        continuing: Vec<Node>,
    },
    /// A block containing a barrier (an inlined function, a `switch`).
    Block { label: Label, body: Vec<Node> },
}

/// A compute module split at its barriers.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Barrier-free functions, each a whole module of the compute stage.
    pub regions: Vec<Module>,
    pub nodes: Vec<Node>,
    /// Rows per chunk of the state buffer: `ID_ROWS` plus the state vars and arrays.
    pub rows: u32,
    /// The row of the exit var (0 when no region can exit to a node).
    pub exit_row: u32,
    /// `exits[code - 1]` is what exit code `code` means; [`BUDGET_EXIT`] means the
    /// invocation ran out of its loop budget.
    pub exits: Vec<Exit>,
    /// The row of each invocation's remaining loop budget (0 in a plan without barriers,
    /// whose one region gets the whole budget from the engine).
    pub budget_row: u32,
    pub local_size: [u32; 3],
    pub shared_bytes: u32,
}

impl Plan {
    /// Invocations per work group.
    pub fn invocations(&self) -> u32 {
        self.local_size.iter().product()
    }
}

/// Whether a statement holds a barrier at any depth.
fn has_barrier(s: &Stmt) -> bool {
    matches!(s, Stmt::Barrier) || s.children().any(|l| l.iter().any(has_barrier))
}

/// Splits a compute module at its barriers (module docs). A module without barriers gives
/// one region (the body as it is, `Return` as `Discard`) and no state rows.
pub fn split(module: &Module) -> Plan {
    let nvars = module.func.vars.len() as u32;
    let exit_var = Var(nvars);
    let mut max_label = 0;
    max_label_of(&module.func.body, &mut max_label);
    let region_label = Label(max_label + 1);

    // 1. Plan nodes and region bodies (statements as written, exits not yet rewritten).
    let mut s = Splitter {
        bodies: Vec::new(),
        loop_depth: Vec::new(),
        group_labels: Vec::new(),
        cond_vars: Vec::new(),
    };
    let nodes = s.list(&module.func.body, 0);

    // 2. Which vars and arrays need state rows.
    let mut touches: HashMap<u32, VarUse> = HashMap::new();
    let mut arrays: HashMap<u32, (usize, bool)> = HashMap::new();
    for (r, body) in s.bodies.iter().enumerate() {
        let in_loop = s.loop_depth[r] > 0;
        let mut w = Walk {
            region: r,
            in_loop,
            stack: Vec::new(),
            next_list: 0,
            uses: &mut touches,
            arrays: &mut arrays,
        };
        w.list(body);
    }
    let mut state_vars: Vec<u32> = touches
        .iter()
        .filter(|(_, u)| !u.local)
        .map(|(v, _)| *v)
        .collect();
    state_vars.extend(s.cond_vars.iter().map(|v| v.0));
    // With barriers, an invocation's loop budget outlives each region (module docs,
    // "Loop budget"): one more state var, and the exit var for "ran out".
    let budget_var = Var(nvars + 1);
    let budgeted = s.bodies.len() > 1 || !s.group_labels.is_empty();
    let exits_needed = budgeted;
    if exits_needed {
        state_vars.push(exit_var.0);
    }
    if budgeted {
        state_vars.push(budget_var.0);
    }
    state_vars.sort_unstable();
    state_vars.dedup();
    let mut row_of: HashMap<u32, u32> = HashMap::new();
    let mut rows = ID_ROWS;
    for v in &state_vars {
        row_of.insert(*v, rows);
        rows += 1;
    }
    let mut state_arrays: Vec<u32> = arrays
        .iter()
        .filter(|(_, (_, shared))| *shared)
        .map(|(a, _)| *a)
        .collect();
    state_arrays.sort_unstable();
    let mut array_row: HashMap<u32, u32> = HashMap::new();
    for a in &state_arrays {
        array_row.insert(*a, rows);
        rows += module.func.arrays.get(*a as usize).map_or(0, |d| d.len);
    }

    // 3. Each region as a module: load state, run the rewritten body in a block, store.
    let mut exits: Vec<Exit> = Vec::new();
    let mut regions = Vec::new();
    for body in &s.bodies {
        let mut func = Function::default();
        func.vars = module.func.vars.clone();
        func.arrays = module.func.arrays.clone();
        func.vars.push(ScalarKind::U32);
        if budgeted {
            func.vars.push(ScalarKind::U32);
        }
        let mut touched_vars = Vec::new();
        let mut written = Vec::new();
        let mut touched_arrays = Vec::new();
        collect(body, &mut touched_vars, &mut written, &mut touched_arrays);
        let mut prologue = Vec::new();
        for v in &touched_vars {
            if let Some(&row) = row_of.get(v) {
                prologue.push(Stmt::Assign {
                    dst: Var(*v),
                    op: Op::Input(row),
                });
            }
        }
        let mut epilogue = Vec::new();
        for a in &touched_arrays {
            let (Some(&row), Some(decl)) = (array_row.get(a), module.func.arrays.get(*a as usize))
            else {
                continue;
            };
            for i in 0..decl.len {
                let idx = Var(func.vars.len() as u32);
                func.vars.push(ScalarKind::U32);
                let val = Var(func.vars.len() as u32);
                func.vars.push(decl.kind);
                prologue.push(Stmt::Assign {
                    dst: idx,
                    op: Op::Const(Scalar::U32(i)),
                });
                prologue.push(Stmt::Assign {
                    dst: val,
                    op: Op::Input(row + i),
                });
                prologue.push(Stmt::StoreArray {
                    array: ArrayId(*a),
                    index: idx,
                    value: val,
                });
                let out = Var(func.vars.len() as u32);
                func.vars.push(decl.kind);
                epilogue.push(Stmt::Assign {
                    dst: out,
                    op: Op::LoadArray {
                        array: ArrayId(*a),
                        index: idx,
                    },
                });
                func.outputs.push(out);
                func.output_rows.push(row + i);
            }
        }
        if exits_needed {
            prologue.push(Stmt::Assign {
                dst: exit_var,
                op: Op::Const(Scalar::U32(0)),
            });
            written.push(exit_var.0);
        }
        let mut inner = body.clone();
        rewrite_exits(
            &mut inner,
            &mut Vec::new(),
            exit_var,
            region_label,
            &mut exits,
        );
        if budgeted && count_loops(&inner) > 0 {
            let row = row_of[&budget_var.0];
            prologue.push(Stmt::Assign {
                dst: budget_var,
                op: Op::Input(row),
            });
            let spend = Spend {
                budget: budget_var,
                exit: exit_var,
                region: region_label,
                zero: Var(func.vars.len() as u32),
                one: Var(func.vars.len() as u32 + 1),
                out: Var(func.vars.len() as u32 + 2),
            };
            func.vars
                .extend([ScalarKind::U32, ScalarKind::U32, ScalarKind::Bool]);
            prologue.push(Stmt::Assign {
                dst: spend.zero,
                op: Op::Const(Scalar::U32(0)),
            });
            prologue.push(Stmt::Assign {
                dst: spend.one,
                op: Op::Const(Scalar::U32(1)),
            });
            spend.insert(&mut inner);
            written.push(budget_var.0);
        }
        prologue.push(Stmt::Block {
            label: region_label,
            body: inner,
        });
        prologue.extend(epilogue);
        func.body = prologue;
        written.sort_unstable();
        written.dedup();
        for v in written {
            if let Some(&row) = row_of.get(&v) {
                func.outputs.push(Var(v));
                func.output_rows.push(row);
            }
        }
        regions.push(Module {
            stage: Stage::Compute,
            version: module.version,
            func,
            inputs: Vec::new(),
            outputs: Vec::new(),
            uniforms: module.uniforms.clone(),
            uniform_words: module.uniform_words,
            blocks: module.blocks.clone(),
            storage_blocks: module.storage_blocks.clone(),
            uses_discard: true,
            writes_depth: false,
            early_fragment_tests: false,
            frag_coord_origin_upper_left: false,
            frag_coord_pixel_center_integer: false,
            global_bindless_sampler: module.global_bindless_sampler,
            global_bound_sampler: module.global_bound_sampler,
            local_size: module.local_size,
            shared_bytes: module.shared_bytes,
            geometry: module.geometry.clone(),
            xfb: Default::default(),
            tess: Default::default(),
            subroutines: Default::default(),
        });
    }
    let nodes = map_cond_rows(nodes, &row_of);
    Plan {
        regions,
        nodes,
        rows,
        exit_row: row_of.get(&exit_var.0).copied().unwrap_or(0),
        budget_row: row_of
            .get(&budget_var.0)
            .copied()
            .filter(|_| budgeted)
            .unwrap_or(0),
        exits,
        local_size: module.local_size,
        shared_bytes: module.shared_bytes,
    }
}

fn max_label_of(body: &[Stmt], max: &mut u32) {
    for s in body {
        match s {
            Stmt::Loop { label, .. } | Stmt::Block { label, .. } => *max = (*max).max(label.0),
            Stmt::Break(l) | Stmt::Continue(l) | Stmt::Leave(l) => *max = (*max).max(l.0),
            _ => {}
        }
        for c in s.children() {
            max_label_of(c, max);
        }
    }
}

/// Builds plan nodes; region bodies are collected in `bodies`.
struct Splitter {
    bodies: Vec<Vec<Stmt>>,
    /// Group-level loops around each region.
    loop_depth: Vec<u32>,
    /// Labels of the plan's loops and blocks.
    group_labels: Vec<Label>,
    /// Vars the plan reads (`If` conditions), before they have rows.
    cond_vars: Vec<Var>,
}

/// A plan node's `If` condition before rows are assigned: the var is kept in `cond_row`.
fn map_cond_rows(nodes: Vec<Node>, row_of: &HashMap<u32, u32>) -> Vec<Node> {
    nodes
        .into_iter()
        .map(|n| match n {
            Node::If {
                cond_row,
                then_nodes,
                else_nodes,
            } => Node::If {
                cond_row: row_of.get(&cond_row).copied().unwrap_or(0),
                then_nodes: map_cond_rows(then_nodes, row_of),
                else_nodes: map_cond_rows(else_nodes, row_of),
            },
            Node::Loop {
                label,
                body,
                continuing,
            } => Node::Loop {
                label,
                body: map_cond_rows(body, row_of),
                continuing: map_cond_rows(continuing, row_of),
            },
            Node::Block { label, body } => Node::Block {
                label,
                body: map_cond_rows(body, row_of),
            },
            n => n,
        })
        .collect()
}

impl Splitter {
    fn list(&mut self, body: &[Stmt], loops: u32) -> Vec<Node> {
        let mut nodes = Vec::new();
        let mut cur: Vec<Stmt> = Vec::new();
        for s in body {
            if !has_barrier(s) {
                cur.push(s.clone());
                continue;
            }
            self.flush(&mut cur, &mut nodes, loops);
            match s {
                Stmt::If {
                    cond,
                    then_body,
                    else_body,
                } => {
                    self.cond_vars.push(*cond);
                    let then_nodes = self.list(then_body, loops);
                    let else_nodes = self.list(else_body, loops);
                    nodes.push(Node::If {
                        cond_row: cond.0,
                        then_nodes,
                        else_nodes,
                    });
                }
                Stmt::Loop {
                    label,
                    body,
                    continuing,
                } => {
                    self.group_labels.push(*label);
                    let body = self.list(body, loops + 1);
                    let continuing = self.list(continuing, loops + 1);
                    nodes.push(Node::Loop {
                        label: *label,
                        body,
                        continuing,
                    });
                }
                Stmt::Block { label, body } => {
                    self.group_labels.push(*label);
                    let body = self.list(body, loops);
                    nodes.push(Node::Block {
                        label: *label,
                        body,
                    });
                }
                // `Barrier` itself: the flush above was the point.
                _ => {}
            }
        }
        self.flush(&mut cur, &mut nodes, loops);
        nodes
    }

    fn flush(&mut self, cur: &mut Vec<Stmt>, nodes: &mut Vec<Node>, loops: u32) {
        if cur.is_empty() {
            return;
        }
        nodes.push(Node::Run(self.bodies.len()));
        self.bodies.push(std::mem::take(cur));
        self.loop_depth.push(loops);
    }
}

/// How one var is used across the regions (module docs, "State between regions").
struct VarUse {
    region: usize,
    /// The statement list whose top level holds the first touch, when it is a write.
    first_list: Option<u32>,
    /// Still provably private to one run of one region.
    local: bool,
}

struct Walk<'a> {
    region: usize,
    in_loop: bool,
    /// Ids of the statement lists around the statement being walked.
    stack: Vec<u32>,
    next_list: u32,
    uses: &'a mut HashMap<u32, VarUse>,
    /// Per array: (first region, needs state).
    arrays: &'a mut HashMap<u32, (usize, bool)>,
}

impl Walk<'_> {
    fn list(&mut self, body: &[Stmt]) {
        let id = self.next_list;
        self.next_list += 1;
        self.stack.push(id);
        for s in body {
            let dst = match s {
                Stmt::Assign { dst, .. } => Some(dst.0),
                _ => None,
            };
            let mut touched = Vec::new();
            s.for_each_var(|v| touched.push(v.0));
            for v in touched {
                self.touch(v, dst == Some(v) && !reads(s, v));
            }
            match s {
                Stmt::StoreArray { array, .. } => self.array(array.0),
                Stmt::Assign {
                    op: Op::LoadArray { array, .. },
                    ..
                } => self.array(array.0),
                _ => {}
            }
            for c in s.children() {
                self.list(c);
            }
        }
        self.stack.pop();
    }

    fn touch(&mut self, v: u32, plain_write: bool) {
        let top = self.stack.last().copied();
        let (region, stack) = (self.region, &self.stack);
        match self.uses.get_mut(&v) {
            None => {
                let first_list = if plain_write { top } else { None };
                // Read (or written under a partial mask) before any write in a region
                // that runs once per dispatch: the value is the initial 0 either way.
                let local = first_list.is_some() || !self.in_loop;
                self.uses.insert(
                    v,
                    VarUse {
                        region,
                        first_list,
                        local,
                    },
                );
            }
            Some(u) => {
                if u.region != region {
                    u.local = false;
                } else if let Some(l) = u.first_list {
                    if !stack.contains(&l) {
                        u.local = false;
                    }
                } else if self.in_loop {
                    u.local = false;
                }
            }
        }
    }

    fn array(&mut self, a: u32) {
        let region = self.region;
        let in_loop = self.in_loop;
        let e = self.arrays.entry(a).or_insert((region, in_loop));
        if e.0 != region {
            e.1 = true;
        }
    }
}

/// Whether `s` reads `v` (besides writing it).
fn reads(s: &Stmt, v: u32) -> bool {
    match s {
        Stmt::Assign { op, .. } => {
            let mut r = false;
            op.for_each_operand(|x| r |= x.0 == v);
            r
        }
        _ => true,
    }
}

/// Vars a region touches (in first-touch order), those it writes, and the arrays it uses.
fn collect(body: &[Stmt], touched: &mut Vec<u32>, written: &mut Vec<u32>, arrays: &mut Vec<u32>) {
    let mut seen = std::collections::HashSet::new();
    let mut pending: Vec<&[Stmt]> = vec![body];
    while let Some(list) = pending.pop() {
        for s in list {
            s.for_each_var(|v| {
                if seen.insert(v.0) {
                    touched.push(v.0);
                }
            });
            match s {
                Stmt::Assign { dst, op } => {
                    written.push(dst.0);
                    if let Op::LoadArray { array, .. } = op {
                        arrays.push(array.0);
                    }
                }
                Stmt::Storage { dst: Some(d), .. } => written.push(d.0),
                Stmt::Texture { dst, .. } | Stmt::TexelFetch { dst, .. } => {
                    written.extend(dst.iter().map(|v| v.0))
                }
                Stmt::Image { dst, .. } => written.extend(dst.iter().flatten().map(|v| v.0)),
                Stmt::TextureSize {
                    dst,
                    layers,
                    samples,
                    ..
                } => {
                    written.extend(dst.iter().map(|v| v.0));
                    written.extend(layers.iter().chain(samples).map(|v| v.0));
                }
                Stmt::StoreArray { array, .. } => arrays.push(array.0),
                _ => {}
            }
            pending.extend(s.children());
        }
    }
    arrays.sort_unstable();
    arrays.dedup();
}

/// Rewrites a region's exits to plan nodes (labels not defined inside it) into "set the
/// exit var, leave the region", and `Return` into `Discard`.
fn rewrite_exits(
    body: &mut Vec<Stmt>,
    inner: &mut Vec<Label>,
    exit_var: Var,
    region: Label,
    exits: &mut Vec<Exit>,
) {
    let mut out = Vec::with_capacity(body.len());
    for mut s in std::mem::take(body) {
        let exit = match &s {
            Stmt::Break(l) if !inner.contains(l) => Some(Exit::Break(*l)),
            Stmt::Continue(l) if !inner.contains(l) => Some(Exit::Continue(*l)),
            Stmt::Leave(l) if !inner.contains(l) => Some(Exit::Leave(*l)),
            _ => None,
        };
        if let Some(e) = exit {
            let code = match exits.iter().position(|x| *x == e) {
                Some(i) => i + 1,
                None => {
                    exits.push(e);
                    exits.len()
                }
            };
            out.push(Stmt::Assign {
                dst: exit_var,
                op: Op::Const(Scalar::U32(code as u32)),
            });
            out.push(Stmt::Leave(region));
            continue;
        }
        match &mut s {
            Stmt::Return => s = Stmt::Discard,
            Stmt::If {
                then_body,
                else_body,
                ..
            } => {
                rewrite_exits(then_body, inner, exit_var, region, exits);
                rewrite_exits(else_body, inner, exit_var, region, exits);
            }
            Stmt::Loop {
                label,
                body,
                continuing,
            } => {
                inner.push(*label);
                rewrite_exits(body, inner, exit_var, region, exits);
                rewrite_exits(continuing, inner, exit_var, region, exits);
                inner.pop();
            }
            Stmt::Block { label, body } => {
                inner.push(*label);
                rewrite_exits(body, inner, exit_var, region, exits);
                inner.pop();
            }
            _ => {}
        }
        out.push(s);
    }
    *body = out;
}

/// How many loops a statement list holds, at any depth.
fn count_loops(body: &[Stmt]) -> usize {
    body.iter()
        .map(|s| {
            usize::from(matches!(s, Stmt::Loop { .. }))
                + s.children().map(count_loops).sum::<usize>()
        })
        .sum()
}

/// The loop-budget check a region's loops start each iteration with (module docs, "Loop
/// budget"): a lane with no budget left leaves the region with [`BUDGET_EXIT`], else it
/// spends one unit. The engines' own per-call budget is never smaller, so this one ends
/// the lane first.
struct Spend {
    budget: Var,
    exit: Var,
    region: Label,
    /// Region vars holding 0 and 1, and the "ran out" condition.
    zero: Var,
    one: Var,
    out: Var,
}

impl Spend {
    fn insert(&self, body: &mut [Stmt]) {
        for s in body.iter_mut() {
            match s {
                Stmt::Loop {
                    body, continuing, ..
                } => {
                    self.insert(body);
                    self.insert(continuing);
                    let check = [
                        Stmt::Assign {
                            dst: self.out,
                            op: Op::Binary(BinaryOp::IEq, self.budget, self.zero),
                        },
                        Stmt::If {
                            cond: self.out,
                            then_body: vec![
                                Stmt::Assign {
                                    dst: self.exit,
                                    op: Op::Const(Scalar::U32(BUDGET_EXIT)),
                                },
                                Stmt::Leave(self.region),
                            ],
                            else_body: Vec::new(),
                        },
                        Stmt::Assign {
                            dst: self.budget,
                            op: Op::Binary(BinaryOp::ISub, self.budget, self.one),
                        },
                    ];
                    body.splice(0..0, check);
                }
                Stmt::If {
                    then_body,
                    else_body,
                    ..
                } => {
                    self.insert(then_body);
                    self.insert(else_body);
                }
                Stmt::Block { body, .. } => self.insert(body),
                _ => {}
            }
        }
    }
}
