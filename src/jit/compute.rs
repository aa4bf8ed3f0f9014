//! Runs compute dispatches (GL 4.5 core §19): the code of a compute program's regions
//! (`ir::compute` splits `main` at its barriers) and the group-level driver that runs the
//! plan for each work group, work groups in parallel on the caller's worker pool.
//!
//! One work group at a time per job: its invocations are chunks of 4 lanes (local index
//! `4c .. 4c + 3`), each with its rows of the group's state buffer (`ir::compute` module
//! docs). The plan runs under per-lane masks of the whole group, as the interpreter runs a
//! function under 4-lane masks: an `If` node splits the lanes by each one's condition, a
//! loop node runs while any lane is in it, and a region's exit code moves its lane to the
//! exit set of the node it names. A step `Run(r)` calls region `r`'s code once per chunk
//! with a lane in the mask, in chunk order, so every invocation finishes the region before
//! any starts the next: that is `barrier()` (in uniform control flow, where GLSL allows it,
//! every live lane takes the same path; elsewhere a barrier waits for the lanes that reach
//! it, as lockstep hardware does). `shared` variables are one more storage block per job,
//! zeroed for each group (GL leaves them undefined; zeros keep results deterministic).
//!
//! Determinism: a job runs whole groups in order, and each group's result depends only on
//! its own invocations, so images and buffers do not depend on the thread count whenever
//! the groups write disjoint words or combine with commutative atomics whose results are
//! unused (as `api/storage_buffer.rs` states for draws). Inside a group, invocations run
//! in local-index order between barriers.
//!
//! Loop budget (ARCHITECTURE.md §6): the budget is per invocation across its regions. A
//! plan with barriers keeps each invocation's remaining budget in a state row
//! (`Plan::budget_row`, filled with the budget at group start): the regions' loops spend
//! it (`ir::compute`'s "Loop budget"), each plan-loop iteration spends one unit per lane in
//! it, and a lane that runs out is killed like a discarded one and the dispatch is reported
//! like a draw that tripped. A plan without barriers is one region, which the engine
//! budgets itself.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use super::{run, BoundEnv, CompileError, ShaderCode, StageData};
use crate::ir::compute::{self, Exit, Node, Plan};
use crate::ir::{Builtin, Module};
use crate::sampler::SampleContext;

/// A linked compute stage: the plan and one compiled function per region.
pub struct ComputeCode {
    plan: Plan,
    regions: Vec<Arc<dyn ShaderCode>>,
    /// Storage blocks of the module: `shared` variables are block `storage_blocks`.
    storage_blocks: usize,
    /// Loop iterations each invocation may start (`ir::interp::loop_budget`).
    budget: u32,
}

impl std::fmt::Debug for ComputeCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComputeCode")
            .field("regions", &self.regions.len())
            .field("rows", &self.plan.rows)
            .field("local_size", &self.plan.local_size)
            .finish()
    }
}

/// What compiles one barrier-free region: the JIT, or `Interpreted` for tests.
pub type RegionCompiler<'a> = dyn Fn(&Module) -> Result<Arc<dyn ShaderCode>, CompileError> + 'a;

/// Runs `n` jobs on the worker pool: `run(n, job)` calls `job(i)` for each i < n.
pub type ParallelRunner<'a> = dyn Fn(usize, &(dyn Fn(usize) + Sync)) + 'a;

impl ComputeCode {
    /// Splits `module` at its barriers and compiles each region with `compile` (the JIT,
    /// or `Interpreted` for tests).
    pub fn new(module: &Module, compile: &RegionCompiler) -> Result<ComputeCode, CompileError> {
        let plan = compute::split(module);
        let mut regions = Vec::with_capacity(plan.regions.len());
        for r in &plan.regions {
            if let Err(e) = crate::ir::validate(r) {
                return Err(CompileError::Bug(format!("compute region: {e}")));
            }
            let code = compile(r)?;
            if code.input_words() > plan.rows || code.output_words() > plan.rows {
                return Err(CompileError::Bug(
                    "a compute region reads or writes past its state rows".into(),
                ));
            }
            regions.push(code);
        }
        Ok(ComputeCode {
            regions,
            storage_blocks: module.storage_blocks.len(),
            plan,
            budget: crate::ir::interp::loop_budget(),
        })
    }

    /// The same code with another loop budget per invocation (tests: the process's
    /// budget is read once). A budget above the process's is cut to it in regions whose
    /// engine counts on its own (plans without barriers).
    pub fn with_budget(mut self, budget: u32) -> ComputeCode {
        self.budget = budget;
        self
    }

    /// `layout(local_size_x, _y, _z)`.
    pub fn local_size(&self) -> [u32; 3] {
        self.plan.local_size
    }

    /// Barrier-free functions the plan runs (1 for a shader without `barrier()`).
    pub fn region_count(&self) -> usize {
        self.plan.regions.len()
    }

    /// Runs `groups` work groups (x, y, z counts, each at least 1). `data` is the stage's
    /// snapshot (its storage list may be shorter than the module's blocks: the rest is
    /// unbound); `run_parallel(jobs, job)` runs `job(0..jobs)` on the worker pool, and
    /// `threads` is that pool's size.
    pub fn dispatch(
        &self,
        data: &StageData,
        sampler: &SampleContext,
        groups: [u32; 3],
        threads: usize,
        run_parallel: &ParallelRunner<'_>,
    ) {
        let total = groups.iter().map(|&g| g as u64).product::<u64>();
        if total == 0 || self.plan.invocations() == 0 {
            return;
        }
        // A few jobs per thread even out groups of unequal cost; one job on one thread.
        let jobs = if threads > 1 {
            total.min(threads as u64 * 4) as usize
        } else {
            1
        };
        let job = |j: usize| {
            let lo = total * j as u64 / jobs as u64;
            let hi = total * (j as u64 + 1) / jobs as u64;
            self.run_groups(data, sampler, groups, lo..hi);
        };
        run_parallel(jobs, &job);
    }

    /// One job: groups `range` (linear index x-fastest) with its own state and shared
    /// memory.
    fn run_groups(
        &self,
        data: &StageData,
        sampler: &SampleContext,
        groups: [u32; 3],
        range: std::ops::Range<u64>,
    ) {
        let shared_words = self.plan.shared_bytes.div_ceil(4) as usize;
        let shared: Arc<[AtomicU32]> = (0..shared_words).map(|_| AtomicU32::new(0)).collect();
        let mut data = data.clone();
        data.storage.resize(self.storage_blocks, None);
        if shared_words > 0 {
            data.storage.push(Some((shared.clone(), 0, shared_words)));
        }
        let env = BoundEnv::new(&data, sampler);
        let n = self.plan.invocations() as usize;
        let chunks = n.div_ceil(4);
        let stride = self.plan.rows as usize * 4;
        let mut g = Group {
            code: self,
            env: &env,
            state: vec![0; chunks * stride],
            scratch: vec![0; stride],
            alive: vec![0; chunks],
            exits: HashMap::new(),
            continues: HashMap::new(),
            builtins: [0; Builtin::COUNT * 4],
            stride,
            trips: &data.loop_trips,
        };
        let [sx, sy, _] = self.plan.local_size;
        let (gx, gy) = (groups[0] as u64, groups[1] as u64);
        for lin in range {
            let id = [
                (lin % gx) as u32,
                ((lin / gx) % gy) as u32,
                (lin / (gx * gy)) as u32,
            ];
            for w in shared.iter() {
                w.store(0, Ordering::Relaxed);
            }
            let ids = compute::ID_ROWS as usize * 4;
            for c in 0..chunks {
                let mut mask = 0;
                let base = c * stride;
                // State vars start as 0 in every group (the built-in rows are all written
                // below, for live lanes; dead lanes' rows are never read).
                g.state[base + ids..base + stride].fill(0);
                for lane in 0..4 {
                    let i = c * 4 + lane;
                    if i >= n {
                        continue;
                    }
                    mask |= 1 << lane;
                    let i = i as u32;
                    let local = [i % sx, (i / sx) % sy, i / (sx * sy)];
                    for k in 0..3 {
                        let put = |row: u32| base + (row as usize + k) * 4 + lane;
                        g.state[put(compute::ROW_LOCAL_ID)] = local[k];
                        g.state[put(compute::ROW_GROUP_ID)] = id[k];
                        g.state[put(compute::ROW_NUM_GROUPS)] = groups[k];
                        g.state[put(compute::ROW_GLOBAL_ID)] = id[k]
                            .wrapping_mul(self.plan.local_size[k])
                            .wrapping_add(local[k]);
                    }
                    g.state[base + compute::ROW_LOCAL_INDEX as usize * 4 + lane] = i;
                    if self.plan.budget_row != 0 {
                        g.state[base + self.plan.budget_row as usize * 4 + lane] = self.budget;
                    }
                }
                g.alive[c] = mask;
            }
            let all = g.alive.clone();
            g.nodes(&self.plan.nodes, all);
        }
    }
}

/// Per chunk of 4 invocations, lanes as bits 0..3.
type Masks = Vec<u32>;

fn or(mut a: Masks, b: &[u32]) -> Masks {
    for (x, y) in a.iter_mut().zip(b) {
        *x |= *y;
    }
    a
}

/// One job's running work group.
struct Group<'a, 'e> {
    code: &'a ComputeCode,
    env: &'a BoundEnv<'e>,
    /// `rows` rows of 4 lanes per chunk.
    state: Vec<u32>,
    /// A copy of one chunk's rows: a region reads its state from here and writes it back
    /// into `state`.
    scratch: Vec<u32>,
    /// Live lanes per chunk: not returned, not killed by the loop budget.
    alive: Masks,
    /// Lanes that left each plan loop or block (by label) by `break` or `leave`, and
    /// that took `continue` in the current iteration of each plan loop.
    exits: HashMap<u32, Masks>,
    continues: HashMap<u32, Masks>,
    /// Compute code reads no builtin rows (its built-ins are state rows).
    builtins: [u32; Builtin::COUNT * 4],
    stride: usize,
    trips: &'a AtomicU32,
}

impl Group<'_, '_> {
    /// Runs plan `nodes` for the lanes of `act`; returns the lanes that fall through
    /// (module docs: masks as the interpreter keeps them, per lane of the group).
    fn nodes(&mut self, nodes: &[Node], mut act: Masks) -> Masks {
        for n in nodes {
            if act.iter().all(|&m| m == 0) {
                break;
            }
            act = match n {
                Node::Run(r) => self.region(*r, act),
                Node::If {
                    cond_row,
                    then_nodes,
                    else_nodes,
                } => {
                    let (mut t, mut e) = (act.clone(), act);
                    for c in 0..t.len() {
                        for lane in 0..4 {
                            let bit = 1 << lane;
                            if t[c] & bit == 0 {
                                continue;
                            }
                            if self.state[c * self.stride + *cond_row as usize * 4 + lane] != 0 {
                                e[c] &= !bit;
                            } else {
                                t[c] &= !bit;
                            }
                        }
                    }
                    let t = self.nodes(then_nodes, t);
                    let e = self.nodes(else_nodes, e);
                    or(t, &e)
                }
                Node::Block { label, body } => {
                    self.exits.insert(label.0, vec![0; act.len()]);
                    let a = self.nodes(body, act);
                    let left = self.exits.remove(&label.0).unwrap_or_default();
                    or(a, &left)
                }
                Node::Loop {
                    label,
                    body,
                    continuing,
                } => self.run_loop(label.0, body, continuing, act),
            };
        }
        act
    }

    /// A plan loop: `body` then `continuing` while any lane is in it.
    fn run_loop(
        &mut self,
        label: u32,
        body: &[Node],
        continuing: &[Node],
        mut act: Masks,
    ) -> Masks {
        self.exits.insert(label, vec![0; act.len()]);
        while act.iter().any(|&m| m != 0) {
            // Each lane starting an iteration spends one unit of its own budget, which
            // its regions' loops spend too; a lane with none left is killed (module docs).
            let row = self.code.plan.budget_row as usize;
            debug_assert!(row != 0, "a plan loop implies barriers, so a budget row");
            for (c, m) in act.iter_mut().enumerate() {
                for lane in 0..4 {
                    let bit = 1 << lane;
                    if *m & bit == 0 {
                        continue;
                    }
                    let left = &mut self.state[c * self.stride + row * 4 + lane];
                    if *left == 0 {
                        *m &= !bit;
                        self.alive[c] &= !bit;
                        self.trips.store(1, Ordering::Relaxed);
                    } else {
                        *left -= 1;
                    }
                }
            }
            if act.iter().all(|&m| m == 0) {
                break;
            }
            self.continues.insert(label, vec![0; act.len()]);
            let a = self.nodes(body, act);
            let cont = self.continues.remove(&label).unwrap_or_default();
            act = self.nodes(continuing, or(a, &cont));
        }
        self.exits.remove(&label).unwrap_or_default()
    }

    /// Runs region `r` for the lanes of `act`, chunk by chunk; returns the lanes that fall
    /// through it (not returned, killed or gone to a plan node's exit).
    fn region(&mut self, r: usize, mut act: Masks) -> Masks {
        let code = &*self.code.regions[r];
        let writes = code.output_words() > 0;
        let exit_row = self.code.plan.exit_row as usize;
        for c in 0..act.len() {
            let mask = act[c];
            if mask == 0 {
                continue;
            }
            let rows = c * self.stride..(c + 1) * self.stride;
            let live = if writes {
                self.scratch.copy_from_slice(&self.state[rows.clone()]);
                run(
                    code,
                    self.env,
                    &self.scratch,
                    &self.builtins,
                    &mut self.state[rows],
                    mask,
                )
            } else {
                run(
                    code,
                    self.env,
                    &self.state[rows],
                    &self.builtins,
                    &mut [],
                    mask,
                )
            } & mask;
            self.alive[c] = (self.alive[c] & !mask) | live;
            let mut through = live;
            if exit_row != 0 {
                for lane in 0..4 {
                    let bit = 1 << lane;
                    if live & bit == 0 {
                        continue;
                    }
                    let code = self.state[c * self.stride + exit_row * 4 + lane];
                    if code == compute::BUDGET_EXIT {
                        // Out of loop budget: killed, as the engines kill a lane.
                        through &= !bit;
                        self.alive[c] &= !bit;
                        self.trips.store(1, Ordering::Relaxed);
                        continue;
                    }
                    let Some(exit) = self.code.plan.exits.get((code as usize).wrapping_sub(1))
                    else {
                        continue;
                    };
                    through &= !bit;
                    let (map, label) = match *exit {
                        Exit::Break(l) | Exit::Leave(l) => (&mut self.exits, l.0),
                        Exit::Continue(l) => (&mut self.continues, l.0),
                    };
                    if let Some(m) = map.get_mut(&label) {
                        m[c] |= bit;
                    }
                }
            }
            act[c] = through;
        }
        act
    }
}
