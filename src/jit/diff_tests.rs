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

fn run_interp(m: &Module, env: &Env) -> (Vec<u32>, u32) {
    let n_out = m.func.outputs.len() * 4;
    let mut outputs = vec![SENTINEL; n_out];
    let blocks: Vec<&[u8]> = env.blocks.iter().map(|b| &b[..]).collect();
    let texture = |r: &crate::sampler::request::TexRequest| test_hook::answer(r);
    let ienv = interp::InterpEnv {
        uniforms: &env.uniforms,
        blocks: &blocks,
        texture: &texture,
        quad: m.stage == Stage::Fragment,
    };
    let mut builtins = env.builtins.clone();
    builtins.resize(Builtin::COUNT * 4, 0);
    let alive = interp::run(m, &ienv, &env.inputs, &builtins, &mut outputs, env.mask);
    (outputs, alive)
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
