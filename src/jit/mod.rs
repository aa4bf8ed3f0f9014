//! IR → Cranelift (DESIGN.md §3): SoA lanes, execution masks, the shader cache, and the one
//! owner of JIT code memory. Also the safe doorway the rasterizer uses to
//! call any shader code (`run`).
//!
//! | file | owns |
//! |---|---|
//! | `abi.rs` | `#[repr(C)]` structs shared with generated code, their offsets |
//! | `emit.rs` | IR → Cranelift IR: execution masks, control flow, memory, helper calls |
//! | `ops.rs` | each `Op`'s lowering to 4-lane vector instructions |
//! | `double.rs` | `Op::F64`: word pairs packed into `f64x2`, IEEE double ops, exact roundings and fma |
//! | `runtime.rs` | `extern "C" rt_*` helpers generated code calls (math built-ins) |
//! | `code.rs` | host ISA, one `JITModule` per shader, `JitCode` (owner of code memory) |
//! | `cache.rs` | the shader cache keyed by the module's structural form |
//! | `threads.rs` | the compiler threads every GL-reached compile runs on (big stacks) |
//! | `compute.rs` | compute dispatches: region code and the work-group driver |
//! | `fragment.rs` | fragment variants: depth, shader call, blend, pack, store per `FragmentKey`; their cache |
//! | `interp_code.rs` | `Interpreted`: a `ShaderCode` running the reference interpreter |
//! | `tests.rs` | hand-built modules through generated code, against a scalar reference |
//! | `diff_tests.rs` | random modules through the JIT and `ir::interp` |
//! | `double_tests.rs` | every `Op::F64` over edge-case doubles through the JIT and `ir::interp` |
//! | `fragment_tests.rs` | random keys and quads through variants and `raster::ops` |
//! | `storage_tests.rs` | GLSL storage-block loads, stores and atomics through the JIT and `ir::interp` |
//! | `compute_tests.rs` | GLSL compute dispatches (barriers, shared memory) with JIT and interpreted regions |
//! | `geometry_tests.rs` | GLSL geometry shaders (emits under divergent control flow) through the JIT and the interpreter |
//!
//! Every semantic choice of generated code (NaN handling, division by zero, robust loads,
//! bitfield ranges, the loop iteration cap) is the one `ir::interp` documents: the two must
//! agree bit for bit, NaN payloads aside.
//!
//! Debugging: `SOFTGL_DUMP=ir,clif` prints each compiled module's IR (`ir::dump`) and its
//! Cranelift IR to stderr (`clif` also prints each fragment variant's); `asm` prints the
//! machine code (Cranelift's listing) of every function `code::define_and_finalize` compiles
//! (fragment block entries included), and `bin` writes its bytes to
//! `$TMPDIR/softgl-jit-ADDR.bin` (ADDR: where it runs), for mapping a callgrind profile of
//! generated code (`--dump-instr=yes`) onto its instructions.

pub mod abi;
mod cache;
mod code;
pub mod compute;
#[cfg(test)]
mod compute_tests;
#[cfg(test)]
mod diff_tests;
mod double;
#[cfg(test)]
mod double_tests;
mod emit;
pub mod fragment;
#[cfg(test)]
mod fragment_tests;
#[cfg(test)]
mod geometry_tests;
#[cfg(test)]
mod image_tests;
mod interp_code;
mod ops;
mod runtime;
#[cfg(test)]
mod storage_tests;
#[cfg(test)]
mod tests;
mod threads;
mod vmath;

pub use code::InlineBody;
pub use interp_code::Interpreted;
pub use threads::{
    on_compiler_thread, run_on_compiler_thread, STACK_BYTES as COMPILER_STACK_BYTES,
};

use abi::{BufferRange, Invocation, ShaderEnv};

use crate::ir::Builtin;
use crate::sampler::SampleContext;

/// Code that runs one shader stage for 4 lanes: a JIT-compiled function, or the interpreter.
pub trait ShaderCode: Send + Sync {
    /// Input words per lane the code reads (`Invocation::inputs` holds 4× that).
    fn input_words(&self) -> u32;
    /// Output words per lane the code writes.
    fn output_words(&self) -> u32;
    /// Runs the lanes in `inv.mask`; returns the lanes still alive.
    ///
    /// # Safety
    /// `env` and `inv` must point to valid structures whose pointers are valid for the sizes
    /// `input_words`, `output_words`, `Builtin::COUNT` and the env's own lengths say.
    unsafe fn call(&self, env: *const ShaderEnv, inv: *mut Invocation) -> u32;
    /// The native entry point when this is JIT code, so a fragment variant can call it
    /// directly (`fragment.rs`); None for other code (the interpreter, test doubles).
    fn jit_entry(&self) -> Option<abi::ShaderFn> {
        None
    }
    /// The Cranelift function `jit_entry` was compiled from, for a fragment variant to
    /// inline into its quads (`fragment.rs`); None when there is none or it is too big to
    /// copy into every quad.
    fn inline_body(&self) -> Option<&InlineBody> {
        None
    }
    /// The builtin rows the code reads: bit `Builtin::index()` per builtin. Callers may
    /// leave the other rows unwritten (the fragment block entry does). Every row unless
    /// the code says otherwise.
    fn builtins_read(&self) -> u32 {
        (1 << Builtin::COUNT) - 1
    }
}

/// A uniform block binding as captured by a draw: the buffer's contents, the byte offset and
/// the byte size of the bound range.
pub type BlockBinding = (std::sync::Arc<Vec<u8>>, usize, usize);

/// A shader storage block binding: the draw's words of the bound buffer (shared with
/// every invocation and worker thread), the first word of the bound range and its length
/// in words.
pub type StorageBinding = (std::sync::Arc<[std::sync::atomic::AtomicU32]>, usize, usize);

/// Owned per-stage data that the stage's `ShaderEnv` points into.
#[derive(Clone, Debug, Default)]
pub struct StageData {
    /// Default uniform block words, samplers already resolved to handles.
    pub uniforms: Vec<u32>,
    /// For each uniform block of the stage: the bound buffer contents and the range.
    pub blocks: Vec<Option<BlockBinding>>,
    /// For each shader storage block of the stage: its words, or None (reads 0, writes
    /// dropped).
    pub storage: Vec<Option<StorageBinding>>,
    /// Set to 1 by the stage's code when the loop budget killed an invocation
    /// (`ShaderEnv::loop_trips`). The API gives each draw a fresh flag, shared by its
    /// stages, and reads it once the draw has run.
    pub loop_trips: std::sync::Arc<std::sync::atomic::AtomicU32>,
}

/// A `ShaderEnv` together with the storage it points into, borrowed for `'a`.
pub struct BoundEnv<'a> {
    /// Boxed so `as_ptr` stays valid when the `BoundEnv` moves.
    env: Box<ShaderEnv>,
    _ranges: Vec<BufferRange>,
    _storage: Vec<BufferRange>,
    _data: std::marker::PhantomData<&'a (StageData, SampleContext)>,
}

impl<'a> BoundEnv<'a> {
    /// Points an env at a stage's snapshot data and the draw's sampler context.
    pub fn new(data: &'a StageData, sampler: &'a SampleContext) -> Self {
        let ranges: Vec<BufferRange> = data
            .blocks
            .iter()
            .map(|b| match b {
                Some((buf, offset, size)) => {
                    let start = (*offset).min(buf.len());
                    let len = (*size).min(buf.len() - start);
                    BufferRange {
                        ptr: buf[start..].as_ptr(),
                        len: len as u64,
                    }
                }
                None => BufferRange {
                    ptr: std::ptr::null(),
                    len: 0,
                },
            })
            .collect();
        let storage: Vec<BufferRange> = data
            .storage
            .iter()
            .map(|b| match b {
                Some((words, first, len)) => {
                    let start = (*first).min(words.len());
                    let len = (*len).min(words.len() - start);
                    BufferRange {
                        ptr: words[start..].as_ptr() as *const u8,
                        len: len as u64 * 4,
                    }
                }
                None => BufferRange {
                    ptr: std::ptr::null(),
                    len: 0,
                },
            })
            .collect();
        let env = ShaderEnv {
            uniforms: data.uniforms.as_ptr(),
            uniform_words: data.uniforms.len() as u64,
            blocks: ranges.as_ptr(),
            block_count: ranges.len() as u64,
            storage: storage.as_ptr(),
            storage_count: storage.len() as u64,
            sampler: sampler as *const SampleContext as *const u8,
            loop_trips: &*data.loop_trips,
            loop_budget: crate::ir::interp::loop_budget(),
        };
        BoundEnv {
            env: Box::new(env),
            _ranges: ranges,
            _storage: storage,
            _data: std::marker::PhantomData,
        }
    }

    /// `new` for code that runs while the calling thread holds `pin` (a tile's pin span):
    /// its texture instructions skip pinning each request (`sampler::pinned_context_ptr`).
    pub(crate) fn new_pinned(
        data: &'a StageData,
        sampler: &'a SampleContext,
        pin: &'a crate::sampler::PinGuard,
    ) -> Self {
        let mut bound = BoundEnv::new(data, sampler);
        bound.env.sampler = crate::sampler::pinned_context_ptr(sampler, pin);
        bound
    }
}

/// Whether SoA buffers of `inputs` and `outputs` words are long enough for `code`: the
/// check `run_unchecked` relies on, made once per draw by callers that run many quads.
pub fn buffers_fit(code: &dyn ShaderCode, inputs: usize, outputs: usize) -> bool {
    inputs >= code.input_words() as usize * 4 && outputs >= code.output_words() as usize * 4
}

/// Runs `code` on 4 lanes. Slices are SoA (`[slot * 4 + lane]`); `builtins` has
/// `Builtin::COUNT` rows. Returns the lanes still alive (bits 0..3).
///
/// Panics when a slice is shorter than the code needs (a caller bug).
pub fn run(
    code: &dyn ShaderCode,
    env: &BoundEnv<'_>,
    inputs: &[u32],
    builtins: &[u32; Builtin::COUNT * 4],
    outputs: &mut [u32],
    mask: u32,
) -> u32 {
    assert!(
        buffers_fit(code, inputs.len(), outputs.len()),
        "shader inputs or outputs too short"
    );
    // SAFETY: checked just above.
    unsafe { run_unchecked(code, env, inputs, builtins, outputs, mask) }
}

/// `run` without the size checks, for callers that made them once per draw.
///
/// # Safety
/// `buffers_fit(code, inputs.len(), outputs.len())` must hold.
pub unsafe fn run_unchecked(
    code: &dyn ShaderCode,
    env: &BoundEnv<'_>,
    inputs: &[u32],
    builtins: &[u32; Builtin::COUNT * 4],
    outputs: &mut [u32],
    mask: u32,
) -> u32 {
    debug_assert!(buffers_fit(code, inputs.len(), outputs.len()));
    let mut inv = Invocation {
        inputs: inputs.as_ptr(),
        outputs: outputs.as_mut_ptr(),
        builtins: builtins.as_ptr(),
        mask: mask & 0xF,
    };
    // SAFETY: the slices are at least as long as the code's declared sizes (the caller's
    // contract), `builtins` has every row, and `env` borrows the data its pointers refer to.
    unsafe { code.call(&*env.env, &mut inv) }
}

impl BoundEnv<'_> {
    /// The raw env, for a fragment variant's `FragEnv::shader_env`. Valid while `self`
    /// lives, wherever it moves.
    pub fn as_ptr(&self) -> *const ShaderEnv {
        &*self.env
    }
}

/// Why a module could not be compiled, sorted by whose fault it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The IR broke an invariant the front end promised: a bug in softgl.
    #[error("internal compiler error: {0}")]
    Bug(String),
    /// The module exceeds a limit of the code generator.
    #[error("shader exceeds a limit: {0}")]
    Limit(String),
    /// The module uses something the JIT does not implement yet.
    #[error("unsupported: {0}")]
    Unsupported(String),
}

/// Compiles a stage to native code, reusing the code of an identical stage compiled before
/// (the cache keys on what the code depends on, see `cache.rs`).
pub fn compile(module: &crate::ir::Module) -> Result<std::sync::Arc<dyn ShaderCode>, CompileError> {
    cache::get_or_compile(module, code::compile_uncached)
}

/// Compiles a stage to native code without looking in or filling the cache (compile-time
/// benchmarks, tests that want fresh code).
pub fn compile_uncached(
    module: &crate::ir::Module,
) -> Result<std::sync::Arc<dyn ShaderCode>, CompileError> {
    code::compile_uncached(module)
}

/// Input words per lane that `module`'s code reads (one past its highest `Op::Input`).
pub fn input_words(module: &crate::ir::Module) -> u32 {
    code::input_words(module)
}
