//! Differential tests of compute dispatches: GLSL compute shaders (barriers in loops and
//! functions, plan-level breaks and returns, `shared` variables with atomics, every
//! compute built-in, local arrays that live across barriers) run through `ComputeCode` with
//! JIT regions and with interpreted regions, on 1 and on several jobs; the storage words
//! must be identical, and equal to a Rust model where the test gives one. Also unit tests
//! of `ir::compute::split`'s state rows.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use super::compute::ComputeCode;
use super::{Interpreted, ShaderCode, StageData};
use crate::ir::{compute, Module, Stage};
use crate::sampler::SampleContext;

fn compile_glsl(src: &str) -> Module {
    let out = crate::glsl::compile(Stage::Compute, src);
    let m = out
        .module
        .unwrap_or_else(|| panic!("expected to compile:\n{}\n{src}", out.info_log));
    crate::glsl::verify::verify_module(&m)
        .unwrap_or_else(|e| panic!("{e}\n{}", crate::ir::dump(&m)));
    m
}

/// Runs `m` over `groups` with storage block 0 holding `init`, with JIT and interpreted
/// regions and with 1 and 3 jobs; asserts all four agree and returns the words.
fn dispatch_all(m: &Module, groups: [u32; 3], init: &[u32]) -> Vec<u32> {
    dispatch_budgeted(m, groups, init, crate::ir::interp::loop_budget()).0
}

/// `dispatch_all` with a loop budget per invocation; also tells whether the budget
/// tripped (the same in all four runs).
fn dispatch_budgeted(m: &Module, groups: [u32; 3], init: &[u32], budget: u32) -> (Vec<u32>, bool) {
    let jit = ComputeCode::new(m, &|r: &Module| super::compile_uncached(r))
        .unwrap_or_else(|e| panic!("{e}"))
        .with_budget(budget);
    let interp = ComputeCode::new(m, &|r: &Module| {
        Ok(Arc::new(Interpreted::new(Arc::new(r.clone()))) as Arc<dyn ShaderCode>)
    })
    .unwrap_or_else(|e| panic!("{e}"))
    .with_budget(budget);
    let sampler = SampleContext::default();
    let mut results = Vec::new();
    for (name, code) in [("jit", &jit), ("interp", &interp)] {
        for threads in [1, 3] {
            let words: Arc<[AtomicU32]> = init.iter().map(|&w| AtomicU32::new(w)).collect();
            let data = StageData {
                storage: vec![Some((words.clone(), 0, init.len()))],
                ..StageData::default()
            };
            // Jobs run one after another here; the split into jobs is what varies.
            code.dispatch(&data, &sampler, groups, threads, &|jobs, job| {
                (0..jobs).for_each(job)
            });
            let mut out: Vec<u32> = words.iter().map(|w| w.load(Ordering::Relaxed)).collect();
            out.push(data.loop_trips.load(Ordering::Relaxed));
            results.push((name, threads, out));
        }
    }
    for r in &results[1..] {
        assert!(
            r.2 == results[0].2,
            "{} with {} jobs differs from jit with 1:\n{:x?}\n{:x?}\n{}",
            r.0,
            r.1,
            r.2,
            results[0].2,
            crate::ir::dump(m)
        );
    }
    let mut out = results.swap_remove(0).2;
    let tripped = out.pop() != Some(0);
    (out, tripped)
}

#[test]
fn scan_with_barriers_in_a_loop_agrees_and_is_exact() {
    let m = compile_glsl(
        "#version 430
        layout(local_size_x = 10) in;
        layout(std430, binding = 0) buffer D { int v[30]; int scan[30]; };
        shared int a[10];
        void main() {
            uint l = gl_LocalInvocationID.x;
            a[l] = v[gl_GlobalInvocationID.x];
            barrier();
            for (uint off = 1u; off < 10u; off <<= 1) {
                int x = a[l];
                if (l >= off) x += a[l - off];
                barrier();
                a[l] = x;
                barrier();
            }
            scan[gl_GlobalInvocationID.x] = a[l];
        }",
    );
    let input: Vec<i32> = (0..30).map(|i| (i * 13 % 17) - 8).collect();
    let mut init: Vec<u32> = input.iter().map(|&x| x as u32).collect();
    init.resize(60, 0);
    let out = dispatch_all(&m, [3, 1, 1], &init);
    for g in 0..3 {
        let mut acc = 0i32;
        for l in 0..10 {
            acc += input[g * 10 + l];
            assert_eq!(out[30 + g * 10 + l] as i32, acc, "group {g} lane {l}");
        }
    }
}

#[test]
fn built_ins_shared_atomics_and_exits_agree() {
    let m = compile_glsl(
        "#version 430
        layout(local_size_x = 3, local_size_y = 2, local_size_z = 2) in;
        layout(std430, binding = 0) buffer D { uint ids[96]; uint per_group[8]; uint k_seen[8]; };
        shared uint count;
        shared uint order[12];
        uint step(uint k) {
            atomicAdd(count, k);
            barrier();
            uint c = count;
            barrier();
            return c;
        }
        void main() {
            uint li = gl_LocalInvocationIndex;
            uvec3 g = gl_GlobalInvocationID;
            uint flat_id = (g.z * 4u + g.y) * 6u + g.x;
            if (li == 0u) count = 0u;
            barrier();
            uint k = 0u;
            uint last = 0u;
            do {
                k++;
                last = step(1u);
            } while (last < 40u);
            order[li] = atomicAdd(count, 0u) + li;
            barrier();
            uint gi = (gl_WorkGroupID.z * gl_NumWorkGroups.y + gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
            if (li == 5u) { per_group[gi] = order[11] + gl_WorkGroupSize.x * 1000u; return; }
            if (li == 0u) k_seen[gi] = k;
            ids[flat_id] = (gl_LocalInvocationID.x << 16) | (gl_LocalInvocationID.y << 8) | gl_LocalInvocationID.z;
        }",
    );
    let out = dispatch_all(&m, [2, 2, 2], &[0; 112]);
    // 12 invocations add 1 per step: 12, 24, 36, 48 → 4 steps, count 48.
    assert_eq!(&out[104..112], &[4; 8]);
    assert_eq!(&out[96..104], &[48 + 11 + 3000; 8]);
}

#[test]
fn local_arrays_and_vars_across_barriers_agree() {
    let m = compile_glsl(
        "#version 430
        layout(local_size_x = 5) in;
        layout(std430, binding = 0) buffer D { uint o[10]; };
        shared uint s[5];
        void main() {
            uint l = gl_LocalInvocationID.x;
            uint hist[4] = uint[4](l, 0u, 0u, 0u);
            float f = float(l) * 0.5;
            for (int r = 1; r < 4; r++) {
                s[l] = hist[r - 1] + 1u;
                barrier();
                hist[r] = s[(l + 1u) % 5u] + uint(f);
                barrier();
            }
            o[gl_GlobalInvocationID.x] = hist[3] * 100u + hist[2] * 10u + hist[1];
        }",
    );
    let plan = compute::split(&m);
    assert!(plan.regions.len() >= 3, "split at the barriers");
    let out = dispatch_all(&m, [2, 1, 1], &[0; 10]);
    for g in 0..2usize {
        let mut hist = [[0u32; 4]; 5];
        for (l, h) in hist.iter_mut().enumerate() {
            h[0] = l as u32;
        }
        for r in 1..4 {
            let s: Vec<u32> = (0..5).map(|l| hist[l][r - 1] + 1).collect();
            for l in 0..5 {
                hist[l][r] = s[(l + 1) % 5] + (l as f32 * 0.5) as u32;
            }
        }
        for l in 0..5 {
            let h = hist[l];
            assert_eq!(out[g * 5 + l], h[3] * 100 + h[2] * 10 + h[1], "lane {l}");
        }
    }
}

/// A shader without barriers is one region with no state rows besides the built-ins.
#[test]
fn no_barrier_means_one_region_and_no_state() {
    let m = compile_glsl(
        "#version 430
        layout(local_size_x = 7) in;
        layout(std430, binding = 0) buffer D { uint o[]; };
        void main() {
            uint i = gl_GlobalInvocationID.x;
            if (i >= 12u) return;
            o[i] = i * i;
        }",
    );
    let plan = compute::split(&m);
    assert_eq!(plan.regions.len(), 1);
    assert_eq!(plan.rows, compute::ID_ROWS);
    let out = dispatch_all(&m, [2, 1, 1], &[7; 16]);
    let want: Vec<u32> = (0..16).map(|i| if i < 12 { i * i } else { 7 }).collect();
    assert_eq!(out, want);
}

/// Barriers in control flow that is not uniform (undefined in GLSL): the plan keeps each
/// lane's own path, as lockstep execution would, so lanes run their own loop counts and
/// skip the arms they do not take.
#[test]
fn non_uniform_control_flow_keeps_each_lanes_path() {
    let m = compile_glsl(
        "#version 430
        layout(local_size_x = 6) in;
        layout(std430, binding = 0) buffer D { uint iters[6]; uint seen[6]; };
        shared uint s[6];
        void main() {
            uint l = gl_LocalInvocationID.x;
            s[l] = 100u;
            barrier();
            uint n = 0u;
            for (uint i = 0u; i < l; i++) {
                n++;
                barrier();
            }
            if (l < 2u) {
                s[l] = l;
                barrier();
            }
            barrier();
            iters[l] = n;
            seen[l] = s[l];
        }",
    );
    let out = dispatch_all(&m, [1, 1, 1], &[0; 12]);
    assert_eq!(&out[..6], &[0, 1, 2, 3, 4, 5]);
    assert_eq!(&out[6..], &[0, 1, 100, 100, 100, 100]);
}

/// The loop budget is per invocation across barriers (`ir::compute`'s "Loop budget"): the
/// plan's loop and the loops inside its regions spend one budget, so an invocation whose
/// loops add up past it is killed at exactly the iteration the model says, while the
/// others go on, on both engines and any job count.
#[test]
fn the_loop_budget_spans_barriers() {
    let m = compile_glsl(
        "#version 430
        layout(local_size_x = 4) in;
        layout(std430, binding = 0) buffer D { uint progress[4]; uint done[4]; };
        void main() {
            uint l = gl_LocalInvocationID.x;
            uint inner = 3u + l * 2u;
            for (uint i = 0u; i < 10u; i++) {
                uint j = 0u;
                while (j < inner) j++;
                progress[l] = i + 1u;
                barrier();
            }
            done[l] = 1u;
        }",
    );
    assert!(compute::split(&m).budget_row != 0);
    // Each plan iteration start spends 1 (the 11th breaks), the inner loop inner + 1.
    let model = |budget: u32, lane: u32| -> (u32, u32) {
        let inner = 3 + lane * 2;
        let mut left = budget;
        let mut progress = 0;
        for i in 0..=10 {
            if left == 0 {
                return (progress, 0);
            }
            left -= 1;
            if i == 10 {
                break;
            }
            for _ in 0..=inner {
                if left == 0 {
                    return (progress, 0);
                }
                left -= 1;
            }
            progress = i + 1;
        }
        (progress, 1)
    };
    let mut seen_partial = false;
    for budget in (0..=140).chain([1000]) {
        let (out, tripped) = dispatch_budgeted(&m, [2, 1, 1], &[0; 8], budget);
        let want: Vec<(u32, u32)> = (0..4).map(|l| model(budget, l)).collect();
        for l in 0..4 {
            assert_eq!((out[l], out[4 + l]), want[l], "budget {budget} lane {l}");
        }
        let any_killed = want.iter().any(|w| w.1 == 0);
        assert_eq!(tripped, any_killed, "budget {budget}");
        seen_partial |= want.iter().any(|w| w.1 == 1) && any_killed;
    }
    assert!(
        seen_partial,
        "some budget must kill some lanes and not others"
    );
}

/// A barrier in a loop that never ends stops at the budget instead of hanging.
#[test]
fn a_runaway_loop_around_a_barrier_ends_at_the_budget() {
    let m = compile_glsl(
        "#version 430
        layout(local_size_x = 3) in;
        layout(std430, binding = 0) buffer D { uint n[3]; uint after[3]; };
        void main() {
            uint l = gl_LocalInvocationID.x;
            for (;;) {
                n[l] += 1u;
                barrier();
            }
            after[l] = 1u;
        }",
    );
    let (out, tripped) = dispatch_budgeted(&m, [1, 1, 1], &[0; 6], 500);
    assert!(tripped);
    assert_eq!(out, [500, 500, 500, 0, 0, 0]);
}
