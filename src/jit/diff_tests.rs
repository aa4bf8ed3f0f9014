//! Differential tests: random modules (`ir::builder::random_module`) run through generated
//! code and through the reference interpreter (`ir::interp`), which must agree bit for bit
//! (NaN payloads aside) on every output word and on the alive mask.
//!
//! Enabled at merge with `#[cfg(test)] mod diff_tests;` in `jit/mod.rs` (it needs
//! `ir::interp` and `ir::builder`).

use super::runtime::test_hook;
use super::tests::{run_code, same, Env, SENTINEL};
use crate::ir::builder::random_module;
use crate::ir::{interp, Builtin, Module, Stage};

/// Input rows `f32, f32, i32, u32` (what `random_module` reads), varied per seed and lane.
fn inputs(seed: u64) -> Vec<u32> {
    let floats = [
        0.0f32,
        -0.0,
        1.0,
        -1.5,
        0.25,
        3.75,
        -7.0,
        100.5,
        f32::INFINITY,
        f32::NAN,
        1e-40,
        2.5,
        // Edges of the inline maths sequences (`math::lanes`): beyond sin/cos's reduction
        // limit, a quadrant boundary, the rounding sequences' 2^23, a negative denormal.
        1e30,
        -98_304.5,
        std::f32::consts::FRAC_PI_2,
        8_388_607.5,
        -1e-45,
    ];
    let ints = [0i32, 1, -1, 2, 3, 5, 7, -8, 31, 33, i32::MIN, i32::MAX];
    let pick = |k: u64, n: usize| {
        ((seed.wrapping_mul(0x9E37_79B9) >> 7).wrapping_add(k * 7) % n as u64) as usize
    };
    let mut rows = Vec::with_capacity(16);
    for row in 0..4u64 {
        for lane in 0..4u64 {
            let k = row * 4 + lane;
            rows.push(match row {
                0 | 1 => floats[pick(k, floats.len())].to_bits(),
                _ => ints[pick(k * 3 + 1, ints.len())] as u32,
            });
        }
    }
    rows
}

pub(super) fn run_interp(m: &Module, env: &Env) -> (Vec<u32>, u32) {
    let (out, o) = run_interp_budgeted(m, env);
    (out, o.alive)
}

/// The interpreter with `env`'s loop budget (or the process's), telling which lanes the
/// budget killed.
fn run_interp_budgeted(m: &Module, env: &Env) -> (Vec<u32>, interp::Outcome) {
    let n_out = m.func.outputs.len() * 4;
    let mut outputs = vec![SENTINEL; n_out];
    let blocks: Vec<&[u8]> = env.blocks.iter().map(|b| &b[..]).collect();
    let storage: Vec<&[std::sync::atomic::AtomicU32]> =
        env.storage.iter().map(|s| &s[..]).collect();
    let texture = |r: &crate::sampler::request::TexRequest| test_hook::answer(r);
    let ienv = interp::InterpEnv {
        uniforms: &env.uniforms,
        blocks: &blocks,
        storage: &storage,
        texture: &texture,
        quad: m.stage == Stage::Fragment,
    };
    let mut builtins = env.builtins.clone();
    builtins.resize(Builtin::COUNT * 4, 0);
    let budget = env.loop_budget.unwrap_or_else(interp::loop_budget);
    let o = interp::run_budgeted(
        m,
        &ienv,
        &env.inputs,
        &builtins,
        &mut outputs,
        env.mask,
        budget,
    );
    (outputs, o)
}

/// Runs `m` through the JIT and the interpreter with `env`, asserts that outputs, alive
/// lanes and "the budget tripped" agree, and returns the interpreter's outcome.
fn agree(m: &Module, code: &dyn super::ShaderCode, env: &Env, what: &str) -> interp::Outcome {
    env.loop_trips
        .store(0, std::sync::atomic::Ordering::Relaxed);
    let (jo, ja) = run_code(code, env);
    let jit_tripped = env.loop_trips.load(std::sync::atomic::Ordering::Relaxed) != 0;
    let (io, o) = run_interp_budgeted(m, env);
    let words_agree = jo.iter().zip(&io).all(|(a, b)| same(*a, *b));
    assert!(
        ja == o.alive && words_agree && jit_tripped == (o.tripped != 0),
        "{what} mask {:#06b} budget {:?}: alive jit {ja:#06b} interp {:#06b}, tripped jit \
         {jit_tripped} interp {:#06b}\njit    {jo:08x?}\ninterp {io:08x?}\n{}",
        env.mask,
        env.loop_budget,
        o.alive,
        o.tripped,
        crate::ir::dump(m)
    );
    o
}

fn check(seed: u64, stage: Stage) {
    let m = random_module(seed, stage);
    let code = super::compile(&m)
        .unwrap_or_else(|e| panic!("seed {seed} {stage:?}: {e}\n{}", crate::ir::dump(&m)));
    for mask in [0xF, 0b0110, (seed as u32 % 15) + 1] {
        let env = Env {
            uniforms: vec![2.5f32.to_bits(), (-3i32) as u32, 7, 1],
            inputs: inputs(seed),
            mask,
            ..Env::default()
        };
        let (jo, ja) = run_code(&*code, &env);
        let (io, ia) = run_interp(&m, &env);
        let words_agree = jo.iter().zip(&io).all(|(a, b)| same(*a, *b));
        assert!(
            ja == ia && words_agree,
            "seed {seed} {stage:?} mask {mask:#06b}: alive jit {ja:#06b} interp {ia:#06b}\n\
             jit    {jo:08x?}\ninterp {io:08x?}\n{}",
            crate::ir::dump(&m)
        );
        // Small loop budgets make the random loops run out part way, in some lanes.
        for budget in [0, 1, 2, 5, 13] {
            let env = Env {
                loop_budget: Some(budget),
                ..env_like(&env)
            };
            agree(&m, &*code, &env, &format!("seed {seed} {stage:?}"));
        }
    }
}

/// A copy of `e`'s data (an `Env` holds an atomic, so it is not `Clone`).
fn env_like(e: &Env) -> Env {
    Env {
        uniforms: e.uniforms.clone(),
        blocks: e.blocks.clone(),
        inputs: e.inputs.clone(),
        builtins: e.builtins.clone(),
        mask: e.mask,
        loop_budget: e.loop_budget,
        ..Env::default()
    }
}

#[test]
fn random_vertex_modules_agree_with_the_interpreter() {
    for seed in 0..400 {
        check(seed, Stage::Vertex);
    }
}

#[test]
fn random_fragment_modules_agree_with_the_interpreter() {
    for seed in 0..400 {
        check(seed, Stage::Fragment);
    }
}

/// Breaks one thing in the statement tree, chosen by `r`: out-of-range vars, arrays,
/// blocks and labels, absurd uniform offsets and strides.
fn mutate(list: &mut [crate::ir::Stmt], r: &mut u64) {
    use crate::ir::{ArrayId, Label, Op, Stmt, Var};
    for s in list.iter_mut() {
        *r = r.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        if (*r >> 33).is_multiple_of(7) {
            let pick = (*r >> 40) as u32;
            match s {
                Stmt::Assign { dst, op } => match pick % 5 {
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
                            offset: u32::MAX - pick % 5,
                            dynamic: Some(*dst),
                        }
                    }
                    3 => *op = Op::Input(pick % 40),
                    _ => {
                        *op = Op::Uniform {
                            offset: u32::MAX - pick % 3,
                            index: Some((*dst, u32::MAX, u32::MAX)),
                        }
                    }
                },
                Stmt::Break(l) | Stmt::Continue(l) | Stmt::Leave(l) => *l = Label(pick % 5),
                Stmt::If {
                    then_body,
                    else_body,
                    ..
                } => {
                    mutate(then_body, r);
                    mutate(else_body, r);
                }
                Stmt::Loop {
                    body, continuing, ..
                } => {
                    mutate(body, r);
                    mutate(continuing, r);
                }
                Stmt::Block { body, .. } => mutate(body, r),
                _ => {}
            }
        }
    }
}

#[test]
fn broken_modules_never_crash_the_jit() {
    let (mut ok, mut refused) = (0, 0);
    for seed in 0..300u64 {
        let stage = if seed.is_multiple_of(2) {
            Stage::Vertex
        } else {
            Stage::Fragment
        };
        let mut m = random_module(seed, stage);
        let mut r = seed | 1;
        mutate(&mut m.func.body, &mut r);
        match super::compile_uncached(&m) {
            Ok(code) => {
                ok += 1;
                let env = Env {
                    uniforms: vec![1, 2, 3],
                    blocks: vec![vec![9; 10]],
                    inputs: inputs(seed),
                    mask: 0xF,
                    ..Env::default()
                };
                run_code(&*code, &env);
            }
            Err(super::CompileError::Bug(_)) => refused += 1,
            Err(e) => panic!("seed {seed}: unexpected error {e}"),
        }
    }
    // Both paths must have been exercised for the test to mean anything.
    assert!(ok > 0 && refused > 0, "ok {ok}, refused {refused}");
}

// ---- the loop budget (ir::interp's module docs) ----------------------------------------

/// Runs `m` with input rows `rows` through both engines for each budget and lane mask,
/// and for each lane alone: a lane's fate must not depend on which lanes share its call.
/// Returns the outcome with all four lanes for each budget.
fn budget_cases(m: &Module, rows: &[[i32; 4]], budgets: &[u32]) -> Vec<interp::Outcome> {
    let code = super::compile_uncached(m).expect("compiles");
    let inputs: Vec<u32> = rows.iter().flatten().map(|v| *v as u32).collect();
    let mut all = Vec::new();
    for &budget in budgets {
        let env = |mask| Env {
            inputs: inputs.clone(),
            mask,
            loop_budget: Some(budget),
            ..Env::default()
        };
        let full = agree(m, &*code, &env(0xF), "loop case");
        for mask in [0b0101, 0b1010, 0b0111] {
            agree(m, &*code, &env(mask), "loop case");
        }
        for lane in 0..4 {
            let one = agree(m, &*code, &env(1 << lane), "loop case, one lane");
            assert_eq!(
                one.alive,
                full.alive & (1 << lane),
                "lane {lane} alone, budget {budget}"
            );
            assert_eq!(one.tripped, full.tripped & (1 << lane));
        }
        all.push(full);
    }
    all
}

#[test]
fn loops_end_just_under_and_just_at_the_budget() {
    for stage in [Stage::Vertex, Stage::Fragment] {
        let m = crate::ir::interp::tests::count_to_input(stage);
        // k + 1 iterations: 99 and 100 fit a budget of 100, 101 does not, -1 never ends.
        let o = budget_cases(&m, &[[98, 99, 100, -1]], &[100]);
        assert_eq!(o[0].alive, 0b0011, "{stage:?}");
        assert_eq!(o[0].tripped, 0b1100, "{stage:?}");
        // Budget 0: no lane may start an iteration.
        let o = budget_cases(&m, &[[0, 5, 0, -1]], &[0, 1]);
        assert_eq!((o[0].alive, o[0].tripped), (0, 0xF));
        assert_eq!((o[1].alive, o[1].tripped), (0b0101, 0b1010));
    }
}

#[test]
fn runaway_loops_are_cut_at_the_default_budget() {
    let m = crate::ir::interp::tests::count_to_input(Stage::Fragment);
    let b = interp::DEFAULT_LOOP_BUDGET as i32;
    let o = budget_cases(&m, &[[-1, b - 1, b, 7]], &[interp::DEFAULT_LOOP_BUDGET]);
    assert_eq!(o[0].alive, 0b1010);
    assert_eq!(o[0].tripped, 0b0101);
}

/// Nested loops share one budget per invocation: `for i < a { for j < b { n++ } }` spends
/// a * (b + 1) + a + 1 iterations.
#[test]
fn nested_loops_share_the_invocation_budget() {
    use crate::ir::builder::Builder;
    use crate::ir::{BinaryOp as B, Op, ScalarKind as K};
    for stage in [Stage::Vertex, Stage::Fragment] {
        let mut b = Builder::new(stage);
        let a = b.input(0, K::I32);
        let bb = b.input(1, K::I32);
        let i = b.i32(0);
        let n = b.i32(0);
        let one = b.i32(1);
        b.loop_(
            |b, outer| {
                let done = b.binary(B::SLe, a, i);
                b.if_(done, |b| b.break_(outer));
                let j = b.i32(0);
                b.loop_(
                    |b, inner| {
                        let done = b.binary(B::SLe, bb, j);
                        b.if_(done, |b| b.break_(inner));
                        b.assign(n, Op::Binary(B::IAdd, n, one));
                    },
                    |b, _| b.assign(j, Op::Binary(B::IAdd, j, one)),
                );
            },
            |b, _| b.assign(i, Op::Binary(B::IAdd, i, one)),
        );
        b.output(n);
        let m = b.finish();
        // Spent: 3*(4+1)+3+1 = 19; 4*(4+1)+4+1 = 25; 2*(10+1)+2+1 = 25; 5*(5+1)+5+1 = 36.
        let rows = [[3, 4, 2, 5], [4, 4, 10, 5]];
        let o = budget_cases(&m, &rows, &[18, 19, 24, 25, 35, 36, 1000]);
        let alive: Vec<u32> = o.iter().map(|o| o.alive).collect();
        assert_eq!(
            alive,
            [0b0000, 0b0001, 0b0001, 0b0111, 0b0111, 0b1111, 0b1111],
            "{stage:?}"
        );
        // A runaway outer loop (lane 2) and a runaway inner loop inside a short outer one
        // (lane 3) are cut; lanes 0 and 1 spend 7 and 5.
        let o = budget_cases(&m, &[[3, 1, 1_000_000, 2], [-1, 2, -1, 1_000_000]], &[64]);
        assert_eq!(o[0].alive, 0b0011, "{stage:?}");
        assert_eq!(o[0].tripped, 0b1100, "{stage:?}");
    }
}

/// `break` and `continue` inside a runaway loop: continues still spend iterations, and
/// lanes that broke out early are untouched.
#[test]
fn break_and_continue_under_the_budget() {
    use crate::ir::builder::Builder;
    use crate::ir::{BinaryOp as B, Op, ScalarKind as K};
    for stage in [Stage::Vertex, Stage::Fragment] {
        let mut b = Builder::new(stage);
        let k = b.input(0, K::I32);
        let i = b.i32(0);
        let s = b.i32(0);
        let one = b.i32(1);
        b.loop_(
            |b, l| {
                b.assign(i, Op::Binary(B::IAdd, i, one));
                let odd = b.binary(B::And, i, one);
                let is_odd = b.binary(B::IEq, odd, one);
                b.if_(is_odd, |b| b.continue_(l));
                b.assign(s, Op::Binary(B::IAdd, s, i));
                let hit = b.binary(B::SLe, k, i);
                b.if_(hit, |b| b.break_(l));
            },
            |b, _| b.assign(s, Op::Binary(B::Xor, s, one)),
        );
        b.output(s);
        b.output(i);
        let m = b.finish();
        // Lanes break at the first even i >= k: 10, 20 and 22 iterations; k = i32::MAX
        // runs away.
        let o = budget_cases(&m, &[[10, 20, i32::MAX, 21]], &[9, 10, 21, 22, 100]);
        let alive: Vec<u32> = o.iter().map(|o| o.alive).collect();
        assert_eq!(alive, [0b0000, 0b0001, 0b0011, 0b1011, 0b1011], "{stage:?}");
    }
}

/// A loop after a lane ran out: the lane is dead, later loops and code do not run for it,
/// and a `discard`ed or returned lane spends nothing.
#[test]
fn a_lane_that_ran_out_stays_dead_in_later_loops() {
    use crate::ir::builder::Builder;
    use crate::ir::{BinaryOp as B, Op, ScalarKind as K};
    let mut b = Builder::new(Stage::Fragment);
    let k = b.input(0, K::I32);
    let i = b.i32(0);
    let one = b.i32(1);
    let zero = b.i32(0);
    let neg = b.binary(B::SLt, k, zero);
    b.if_(neg, |b| b.ret());
    for _ in 0..2 {
        b.assign(i, Op::Copy(zero));
        b.loop_(
            |b, l| {
                let hit = b.binary(B::IEq, i, k);
                b.if_(hit, |b| b.break_(l));
                b.assign(i, Op::Binary(B::IAdd, i, one));
            },
            |_, _| {},
        );
    }
    b.output(i);
    let m = b.finish();
    // Two loops of k + 1 iterations each: 2k + 2 against the budget.
    let o = budget_cases(&m, &[[4, 5, -3, 6]], &[11, 12, 13, 14]);
    let alive: Vec<u32> = o.iter().map(|o| o.alive).collect();
    assert_eq!(alive, [0b0101, 0b0111, 0b0111, 0b1111]);
}

/// Compiles fragment shader `src` (GLSL) and checks generated code against the interpreter
/// on each `(input rows, uniforms)` case under several lane masks; returns lane 0's outputs
/// of the first case with every lane on (for the caller's own expectations).
fn glsl_agrees(src: &str, cases: &[(Vec<[u32; 4]>, Vec<u32>)]) -> Vec<u32> {
    let out = crate::glsl::compile(Stage::Fragment, src);
    let m = out
        .module
        .unwrap_or_else(|| panic!("expected to compile:\n{}\n{src}", out.info_log));
    let code = super::compile(&m).unwrap_or_else(|e| panic!("{e}"));
    let words = m.inputs.iter().map(|i| i.slot + i.words).max().unwrap_or(0) as usize;
    // The case's rows fill the input words in slot order.
    let mut at = vec![0usize; 0];
    for i in &m.inputs {
        at.extend((0..i.words).map(|w| (i.slot + w) as usize));
    }
    let mut first = None;
    for (rows, uniforms) in cases {
        let mut soa = vec![0u32; words * 4];
        for (row, &slot) in rows.iter().zip(&at) {
            soa[slot * 4..slot * 4 + 4].copy_from_slice(row);
        }
        for mask in [0xF, 0b1010, 0b0111, 0b0001] {
            let env = Env {
                inputs: soa.clone(),
                uniforms: uniforms.clone(),
                mask,
                ..Env::default()
            };
            agree(&m, &*code, &env, "glsl");
            if first.is_none() && mask == 0xF {
                let (jo, _) = run_code(&*code, &env);
                first = Some((0..m.func.outputs.len()).map(|k| jo[k * 4]).collect());
            }
        }
    }
    first.unwrap_or_default()
}

fn lanes(v: [i32; 4]) -> [u32; 4] {
    v.map(|x| x as u32)
}

/// Switch semantics under divergent selectors (issue #11 item 2 rewrote the lowering):
/// fall-through, `break` inside an `if`, `default` in the middle and alone, labels sharing
/// a group, `continue` and `break` of an enclosing loop from inside a switch, a uniform
/// selector without default.
#[test]
fn switches_agree_with_the_interpreter_on_divergent_selectors() {
    let src = "#version 330 core\nflat in ivec2 s;\nuniform int u;\nout vec4 o;\n\
        void main() { float a = 0.0; float b = 0.0; int n = 0;\n\
        switch (s.x) { case 3: a += 1.0; case -1: a += 2.0; if (s.y > 0) break; a += 4.0;\n\
          default: a += 8.0; case 7: case 8: a += 16.0; break; case 100: a = -1.0; }\n\
        for (int i = 0; i < 6; i++) { switch (i - s.y) { case 0: continue; case 1: b += 1.0; break;\n\
          default: if (i == 4) { n = i; } b += 10.0; case 2: b += 100.0; }\n\
          if (b > 300.0) break; }\n\
        switch (u) { case 1: n += 5; }\n\
        switch (s.x) { default: b += 0.5; }\n\
        o = vec4(a, b, float(n), 0.0); }";
    let sel = [
        [3, -1, 7, 5],
        [100, 8, 3, -1],
        [0, 0, 0, 0],
        [-1, 3, 100, 9],
    ];
    let ys = [[0, 1, 2, -3], [1, 0, 5, 2], [0, 0, 0, 0], [2, 2, -1, 1]];
    let mut cases = Vec::new();
    for (x, y) in sel.iter().zip(&ys) {
        for u in [0u32, 1, 2] {
            cases.push((vec![lanes(*x), lanes(*y)], vec![u]));
        }
    }
    let o = glsl_agrees(src, &cases);
    // Lane 0 of the first case: s = (3, 0), u = 0. First switch: 1 + 2 + 4 + 8 + 16.
    assert_eq!(f32::from_bits(o[0]), 31.0);
}

/// A switch big enough for the fast compile tier (`emit::Tier::Branchy`: the single-pass
/// register allocator) still agrees with the interpreter, default in the middle and
/// fall-through included.
#[test]
fn a_thousand_case_switch_agrees_with_the_interpreter() {
    let n = super::emit::FAST_REGALLOC_BRANCHES + 100;
    let mut src = String::from(
        "#version 330 core\nflat in int s;\nout vec4 o;\nvoid main() { float x = 0.0; switch (s) {\n",
    );
    for i in 0..n {
        if i == n / 2 {
            src.push_str("default: x += 0.25;\n");
        }
        // Every third case falls through into the next.
        let brk = if i % 3 == 0 { "" } else { " break;" };
        src.push_str(&format!("case {i}: x += {i}.5;{brk}\n"));
    }
    src.push_str("} o = vec4(x); }");
    let out = crate::glsl::compile(Stage::Fragment, &src);
    let m = out.module.expect("compiles");
    assert_eq!(super::emit::tier(&m.func), super::emit::Tier::Branchy);
    let sel = |v: [i32; 4]| vec![lanes(v)];
    let o = glsl_agrees(
        &src,
        &[
            (sel([0, 1, 3, -5]), vec![]),
            (sel([n as i32 / 2, n as i32 - 1, 600, 1_000_000]), vec![]),
        ],
    );
    // s = 0 falls into case 1: 0.5 + 1.5.
    assert_eq!(f32::from_bits(o[0]), 2.0);
}

/// A straight-line function past `FAST_REGALLOC_STATEMENTS` (`emit::Tier::Long`: no
/// Cranelift optimizer) agrees with the interpreter.
#[test]
fn a_long_straight_line_shader_agrees_with_the_interpreter() {
    let n = super::emit::FAST_REGALLOC_STATEMENTS / 4 + 100;
    let mut src = String::from(
        "#version 330 core\nflat in int s;\nin float t;\nout vec4 o;\nvoid main() { float x = t;",
    );
    for i in 0..n {
        src.push_str(if i % 2 == 0 {
            " x = x * 0.5 + 1.0;"
        } else {
            " x = x - float(s) * 0.25;"
        });
    }
    src.push_str(" o = vec4(x); }");
    let out = crate::glsl::compile(Stage::Fragment, &src);
    let m = out.module.expect("compiles");
    assert_eq!(super::emit::tier(&m.func), super::emit::Tier::Long);
    let f = |v: [f32; 4]| v.map(f32::to_bits);
    glsl_agrees(
        &src,
        &[(
            vec![lanes([0, 3, -7, 1 << 20]), f([1.5, -2.0, 1e30, f32::NAN])],
            vec![],
        )],
    );
}
