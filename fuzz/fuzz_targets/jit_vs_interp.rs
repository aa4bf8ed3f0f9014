//! Fuzz target: a random IR module (`ir::builder::random_module`, seeded from the input) runs
//! through the JIT and the reference interpreter with inputs taken from the fuzz bytes; alive
//! lanes and every output word must agree (NaNs compare equal whatever their payload, as
//! `ir::interp` documents).
#![no_main]

use libfuzzer_sys::fuzz_target;
use softgl::ir::builder::random_module;
use softgl::ir::{interp, Builtin, Stage};
use softgl::jit::{self, BoundEnv};
use softgl::jit::StageData;
use softgl::sampler::SampleContext;

fn same(a: u32, b: u32) -> bool {
    a == b || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 9 {
        return;
    }
    let seed = u64::from_le_bytes(data[..8].try_into().unwrap());
    let stage = if data[8] & 1 == 1 {
        Stage::Fragment
    } else {
        Stage::Vertex
    };
    let mask = u32::from(data[8] >> 4) & 0xF;
    let m = random_module(seed, stage);
    let Ok(code) = jit::compile(&m) else {
        panic!("a valid random module failed to compile (seed {seed})");
    };
    // Input words from the remaining bytes, 4 lanes per row.
    let n_in = code.input_words().max(4) as usize * 4;
    let words: Vec<u32> = data[9..]
        .chunks(4)
        .map(|c| c.iter().rev().fold(0u32, |w, &b| w << 8 | u32::from(b)))
        .chain(std::iter::repeat(0))
        .take(n_in)
        .collect();
    let uniforms = vec![2.5f32.to_bits(), (-3i32) as u32, 7, 1];
    let builtins = [0u32; Builtin::COUNT * 4];
    let n_out = m.func.outputs.len() * 4;

    let data_ = StageData {
        uniforms: uniforms.clone(),
        blocks: Vec::new(),
    };
    let sampler = SampleContext::default();
    let env = BoundEnv::new(&data_, &sampler);
    let mut jit_out = vec![0u32; n_out];
    let jit_alive = jit::run(&*code, &env, &words, &builtins, &mut jit_out, mask);

    let no_texture = |_: &softgl::sampler::request::TexRequest| [[0u32; 4]; 4];
    let ienv = interp::InterpEnv {
        uniforms: &uniforms,
        blocks: &[],
        texture: &no_texture,
        quad: stage == Stage::Fragment,
    };
    let mut int_out = vec![0u32; n_out];
    let int_alive = interp::run(&m, &ienv, &words, &builtins, &mut int_out, mask);

    assert_eq!(
        jit_alive, int_alive,
        "alive lanes differ (seed {seed}, mask {mask:#x})"
    );
    for (k, (a, b)) in jit_out.iter().zip(&int_out).enumerate() {
        let lane = k % 4;
        if jit_alive & (1 << lane) != 0 {
            assert!(
                same(*a, *b),
                "output word {k} differs (seed {seed}): {a:#x} vs {b:#x}"
            );
        }
    }
});
