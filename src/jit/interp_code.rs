//! `Interpreted`: a `ShaderCode` that runs a module through the reference interpreter
//! (`ir::interp`) instead of generated code — the oracle for differential tests of whole
//! draws, and a fallback for a module the JIT reports `Unsupported`. It takes the same
//! `ShaderEnv` / `Invocation` as JIT code and turns them back into safe slices.
//!
//! Enabled at merge with `mod interp_code; pub use interp_code::Interpreted;` in
//! `jit/mod.rs` (it needs `ir::interp`).

use std::sync::atomic::AtomicU32;
use std::sync::Arc;

use super::abi::{Invocation, ShaderEnv};
use super::ShaderCode;
use crate::ir::interp::{self, InterpEnv};
use crate::ir::{Builtin, Module, Stage};
use crate::sampler::request::{TexRequest, TexResult};
use crate::sampler::SampleContext;

/// A shader stage run by the interpreter.
pub struct Interpreted {
    module: Arc<Module>,
    input_words: u32,
    output_words: u32,
}

impl Interpreted {
    pub fn new(module: Arc<Module>) -> Self {
        Interpreted {
            input_words: super::input_words(&module),
            output_words: module.func.output_words(),
            module,
        }
    }

    pub fn module(&self) -> &Module {
        &self.module
    }
}

impl ShaderCode for Interpreted {
    fn input_words(&self) -> u32 {
        self.input_words
    }
    fn output_words(&self) -> u32 {
        self.output_words
    }
    unsafe fn call(&self, env: *const ShaderEnv, inv: *mut Invocation) -> u32 {
        // SAFETY: the trait contract: `env` and `inv` are valid, and their pointers cover
        // `input_words`, `output_words`, `Builtin::COUNT` rows and the env's own lengths.
        let (env, inv) = unsafe { (&*env, &mut *inv) };
        let words = |n: u64| usize::try_from(n).unwrap_or(0);
        // SAFETY: `uniform_words` words are readable at `uniforms` (ShaderEnv contract).
        let uniforms = unsafe { slice_of(env.uniforms, words(env.uniform_words)) };
        // SAFETY: `block_count` ranges are readable at `blocks`.
        let ranges = unsafe { slice_of(env.blocks, words(env.block_count)) };
        let blocks: Vec<&[u8]> = ranges
            .iter()
            // SAFETY: each range's `len` bytes are readable at its `ptr`.
            .map(|r| unsafe { slice_of(r.ptr, words(r.len)) })
            .collect();
        // SAFETY: `storage_count` ranges are readable at `storage`.
        let storage_ranges = unsafe { slice_of(env.storage, words(env.storage_count)) };
        let storage: Vec<&[AtomicU32]> = storage_ranges
            .iter()
            // SAFETY: each storage range is `len` bytes of 4-byte aligned `AtomicU32` words
            // (ShaderEnv contract; `len` is a multiple of 4) that live as long as the call.
            .map(|r| unsafe { slice_of(r.ptr as *const AtomicU32, words(r.len / 4)) })
            .collect();
        let sampler = env.sampler as *const SampleContext;
        let texture = |req: &TexRequest| -> TexResult {
            if sampler.is_null() {
                return [[0; 4]; 4];
            }
            // SAFETY: a non-null `ShaderEnv::sampler` points to the draw's live
            // `SampleContext` (BoundEnv::new).
            crate::sampler::sample(unsafe { &*sampler }, req)
        };
        // SAFETY: the trait contract: inputs cover `input_words` rows of 4 lanes.
        let inputs = unsafe { slice_of(inv.inputs, self.input_words as usize * 4) };
        // SAFETY: the trait contract: every builtin row is there.
        let builtins = unsafe { slice_of(inv.builtins, Builtin::COUNT * 4) };
        let n_out = self.output_words as usize * 4;
        let outputs: &mut [u32] = if inv.outputs.is_null() || n_out == 0 {
            &mut []
        } else {
            // SAFETY: the trait contract; nothing else aliases the outputs during the call.
            unsafe { std::slice::from_raw_parts_mut(inv.outputs, n_out) }
        };
        let ienv = InterpEnv {
            uniforms,
            blocks: &blocks,
            storage: &storage,
            texture: &texture,
            quad: self.module.stage == Stage::Fragment,
        };
        let outcome = interp::run_budgeted(
            &self.module,
            &ienv,
            inputs,
            builtins,
            outputs,
            inv.mask,
            env.loop_budget,
        );
        if outcome.tripped != 0 && !env.loop_trips.is_null() {
            // SAFETY: a non-null `loop_trips` points to a flag that outlives the draw
            // (ShaderEnv contract).
            unsafe { &*env.loop_trips }.store(1, std::sync::atomic::Ordering::Relaxed);
        }
        outcome.alive
    }
}

/// `len` elements at `ptr`, or an empty slice for a null pointer or zero length (a
/// `from_raw_parts` with a null pointer would be undefined even when empty).
///
/// # Safety
/// When `ptr` is non-null and `len > 0`, `len` elements at `ptr` are readable for `'a`.
unsafe fn slice_of<'a, T>(ptr: *const T, len: usize) -> &'a [T] {
    if ptr.is_null() || len == 0 {
        &[]
    } else {
        // SAFETY: the caller's contract above.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    }
}
