//! Turns an `ir::Module` into machine code and owns that code's memory: the host ISA
//! (built once), one `JITModule` per compiled shader, and `JitCode`, the `ShaderCode` that
//! keeps the memory alive for as long as anything can call it.

use std::sync::{Arc, Mutex, OnceLock};

use cranelift_codegen::ir::{types, AbiParam, Function, UserExternalName, UserFuncName};
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module as _};

use super::abi::{Invocation, ShaderEnv};
use super::emit::{emit_function, tier, Helpers, Tier};
use super::runtime;
use super::{CompileError, ShaderCode};
use crate::ir::Module;

use super::abi::ShaderFn;

/// Compiles the function built in `ctx` as `id`, finalizes the module's code and returns the
/// function's entry address (shared by shader code and fragment variants).
pub(crate) fn define_and_finalize(
    jit: &mut JITModule,
    id: cranelift_module::FuncId,
    ctx: &mut cranelift_codegen::Context,
) -> Result<*const u8, CompileError> {
    let bug = |e: cranelift_module::ModuleError| CompileError::Bug(format!("{e:?}"));
    let asm = dump_wanted("asm");
    ctx.set_disasm(asm);
    jit.define_function(id, ctx).map_err(|e| match e {
        cranelift_module::ModuleError::Compilation(c) => {
            CompileError::Bug(format!("cranelift: {c:?}"))
        }
        e => bug(e),
    })?;
    if asm {
        if let Some(v) = ctx.compiled_code().and_then(|c| c.vcode.as_ref()) {
            eprintln!("; machine code of {id:?}\n{v}");
        }
    }
    // `bin`: the function's bytes, named by the address they run at, so a callgrind profile's
    // per-instruction counts (`--dump-instr=yes`) map onto `objdump -b binary
    // --adjust-vma=ADDR` of the file.
    let bytes = dump_wanted("bin")
        .then(|| ctx.compiled_code().map(|c| c.code_buffer().to_vec()))
        .flatten();
    jit.clear_context(ctx);
    jit.finalize_definitions().map_err(bug)?;
    let entry = jit.get_finalized_function(id);
    if let Some(bytes) = bytes {
        let path = std::env::temp_dir().join(format!("softgl-jit-{:x}.bin", entry as usize));
        match std::fs::write(&path, bytes) {
            Ok(()) => eprintln!("; {id:?} at {entry:p}: {}", path.display()),
            Err(e) => eprintln!("; {id:?} at {entry:p}: writing {}: {e}", path.display()),
        }
    }
    Ok(entry)
}

/// The host ISA with our flags, built on first use.
pub(crate) fn host_isa() -> Result<OwnedTargetIsa, CompileError> {
    static ISA: OnceLock<Result<OwnedTargetIsa, String>> = OnceLock::new();
    make_isa(&ISA, "backtracking", "speed")
}

/// The host ISA for functions too big for `host_isa`'s allocator (`emit::Tier`): Cranelift's
/// linear-time single-pass register allocator, with its optimizer or without.
pub(crate) fn host_isa_big(optimize: bool) -> Result<OwnedTargetIsa, CompileError> {
    static OPT: OnceLock<Result<OwnedTargetIsa, String>> = OnceLock::new();
    static NONE: OnceLock<Result<OwnedTargetIsa, String>> = OnceLock::new();
    if optimize {
        make_isa(&OPT, "single_pass", "speed")
    } else {
        make_isa(&NONE, "single_pass", "none")
    }
}

fn make_isa(
    cell: &OnceLock<Result<OwnedTargetIsa, String>>,
    regalloc: &str,
    opt_level: &str,
) -> Result<OwnedTargetIsa, CompileError> {
    cell.get_or_init(|| {
        let mut flags = settings::builder();
        let set = |f: &mut settings::Builder, k: &str, v: &str| {
            f.set(k, v).map_err(|e| format!("setting {k}={v}: {e}"))
        };
        set(&mut flags, "opt_level", opt_level)?;
        // The verifier checks every function in debug and test builds (CONVENTIONS.md).
        set(
            &mut flags,
            "enable_verifier",
            if cfg!(debug_assertions) {
                "true"
            } else {
                "false"
            },
        )?;
        set(&mut flags, "is_pic", "false")?;
        set(&mut flags, "regalloc_algorithm", regalloc)?;
        set(&mut flags, "use_colocated_libcalls", "false")?;
        let isa = cranelift_native::builder().map_err(|e| format!("host ISA: {e}"))?;
        isa.finish(settings::Flags::new(flags))
            .map_err(|e| format!("host ISA: {e}"))
    })
    .clone()
    .map_err(CompileError::Unsupported)
}

/// The one owner of a shader's JIT code memory. Freed when the last `JitCode` holding it
/// drops — after which nothing can call into it (queued draws hold `Arc<dyn ShaderCode>`).
pub(crate) struct JitMemory {
    module: Mutex<Option<JITModule>>,
}

impl JitMemory {
    /// Takes ownership of a finalized module's code memory.
    pub(crate) fn new(module: JITModule) -> Arc<JitMemory> {
        Arc::new(JitMemory {
            module: Mutex::new(Some(module)),
        })
    }
}

impl Drop for JitMemory {
    fn drop(&mut self) {
        let module = match self.module.get_mut() {
            Ok(m) => m.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        if let Some(m) = module {
            // SAFETY: the only pointer into this memory is `JitCode::entry`, and the
            // `JitCode` that holds it is being dropped (it holds the last `Arc`).
            unsafe { m.free_memory() };
        }
    }
}

/// Shader functions above this many Cranelift instructions are not inlined into fragment
/// variants: the block entry holds 4 copies (one per quad) and the quad entry one, so the
/// variant's compile time grows 5× the body's. A 2×2 texture-and-blend shader is about 100.
pub(crate) const INLINE_MAX_INSTS: usize = 3000;

/// A shader's Cranelift function as `emit_function` built it (before optimisation), kept so
/// that fragment variants can inline it (`fragment.rs`) instead of calling its code.
#[derive(Debug)]
pub struct InlineBody {
    /// The function; its one imported function is the texture helper.
    pub(crate) func: Function,
    /// The name `func` gives the texture helper (`runtime::SYM_TEXTURE`), which an inliner
    /// renames to its own module's declaration of the same symbol.
    pub(crate) texture: UserExternalName,
}

/// A compiled shader stage.
pub(crate) struct JitCode {
    entry: ShaderFn,
    /// The body for fragment variants to inline: fragment shaders of the normal tier up to
    /// `INLINE_MAX_INSTS` only (the others compile with other ISA flags or are too big).
    inline_body: Option<InlineBody>,
    input_words: u32,
    output_words: u32,
    /// `ShaderCode::builtins_read`.
    builtins_read: u32,
    _memory: Arc<JitMemory>,
}

impl ShaderCode for JitCode {
    fn input_words(&self) -> u32 {
        self.input_words
    }
    fn output_words(&self) -> u32 {
        self.output_words
    }
    unsafe fn call(&self, env: *const ShaderEnv, inv: *mut Invocation) -> u32 {
        // SAFETY: the caller guarantees valid `env`/`inv` for our sizes (trait contract); the
        // code reads inputs only below `input_words`, writes outputs below `output_words`,
        // and bounds-checks every other access; `_memory` keeps the code alive.
        unsafe { (self.entry)(env, inv) }
    }
    fn jit_entry(&self) -> Option<ShaderFn> {
        Some(self.entry)
    }
    fn inline_body(&self) -> Option<&InlineBody> {
        self.inline_body.as_ref()
    }
    fn builtins_read(&self) -> u32 {
        self.builtins_read
    }
}

/// What a module reads from its invocation: one past the highest `Op::Input` row, and the
/// `Op::Builtin` rows (bit `Builtin::index()` each).
fn reads(module: &Module) -> (u32, u32) {
    fn walk(body: &[crate::ir::Stmt], max: &mut u32, builtins: &mut u32) {
        use crate::ir::{Op, Stmt};
        for s in body {
            match s {
                Stmt::Assign {
                    op: Op::Input(row), ..
                } => *max = (*max).max(row.saturating_add(1)),
                Stmt::Assign {
                    op: Op::Builtin(b), ..
                } => *builtins |= 1 << b.index(),
                Stmt::If {
                    then_body,
                    else_body,
                    ..
                } => {
                    walk(then_body, max, builtins);
                    walk(else_body, max, builtins);
                }
                Stmt::Loop {
                    body, continuing, ..
                } => {
                    walk(body, max, builtins);
                    walk(continuing, max, builtins);
                }
                Stmt::Block { body, .. } => walk(body, max, builtins),
                _ => {}
            }
        }
    }
    let (mut max, mut builtins) = (0, 0);
    walk(&module.func.body, &mut max, &mut builtins);
    (max, builtins)
}

/// Input words per lane a module reads: one past the highest `Op::Input` row.
pub(crate) fn input_words(module: &Module) -> u32 {
    reads(module).0
}

/// Whether `SOFTGL_DUMP` asks for `what` (comma-separated list, CONVENTIONS.md).
pub(crate) fn dump_wanted(what: &str) -> bool {
    std::env::var("SOFTGL_DUMP")
        .map(|v| v.split(',').any(|w| w.trim() == what))
        .unwrap_or(false)
}

/// Compiles `module` to native code, without the cache.
pub(crate) fn compile_uncached(module: &Module) -> Result<Arc<dyn ShaderCode>, CompileError> {
    // Cranelift reports most failures as errors, but an instruction the back end cannot
    // lower panics; a shader must never take the process down.
    if dump_wanted("ir") {
        eprintln!("{}", crate::ir::dump(module));
    }
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| compile_inner(module))) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic".into());
            Err(CompileError::Bug(format!("code generator panicked: {msg}")))
        }
    }
}

fn compile_inner(module: &Module) -> Result<Arc<dyn ShaderCode>, CompileError> {
    let normal_tier = matches!(tier(&module.func), Tier::Normal);
    let isa = match tier(&module.func) {
        Tier::Normal => host_isa()?,
        Tier::Branchy => host_isa_big(true)?,
        Tier::Long => host_isa_big(false)?,
    };
    let mut builder = JITBuilder::with_isa(isa, default_libcall_names());
    builder.symbol(runtime::SYM_TEXTURE, runtime::texture_helper() as *const u8);
    let mut jit = JITModule::new(builder);
    let bug = |e: cranelift_module::ModuleError| CompileError::Bug(format!("{e:?}"));

    let ptr = jit.target_config().pointer_type();
    let helper_sig = |params: &[types::Type]| {
        let mut s = jit.make_signature();
        s.params.extend(params.iter().map(|t| AbiParam::new(*t)));
        s
    };
    let tex_sig = helper_sig(&[ptr, ptr, ptr]);
    let tex_id = jit
        .declare_function(runtime::SYM_TEXTURE, Linkage::Import, &tex_sig)
        .map_err(bug)?;

    let mut sig = jit.make_signature();
    sig.params.push(AbiParam::new(ptr));
    sig.params.push(AbiParam::new(ptr));
    sig.returns.push(AbiParam::new(types::I32));
    let id = jit
        .declare_function("shader", Linkage::Local, &sig)
        .map_err(bug)?;

    let mut ctx = jit.make_context();
    ctx.func.signature = sig;
    ctx.func.name = UserFuncName::user(0, id.as_u32());
    let mut fctx = FunctionBuilderContext::new();
    {
        let b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let helpers = Helpers {
            texture: jit.declare_func_in_func(tex_id, b.func),
        };
        emit_function(b, module, helpers, ptr, jit.target_config())?;
    }
    if dump_wanted("clif") {
        eprintln!("{}", ctx.func.display());
    }
    let inline_body = (module.stage == crate::ir::Stage::Fragment
        && normal_tier
        && ctx.func.dfg.num_insts() <= INLINE_MAX_INSTS)
        .then(|| InlineBody {
            func: ctx.func.clone(),
            texture: UserExternalName::new(0, tex_id.as_u32()),
        });
    let raw = define_and_finalize(&mut jit, id, &mut ctx)?;
    // SAFETY: `raw` is the finalized code of a function declared with exactly `ShaderFn`'s
    // signature (two pointers in, i32 out, the platform C calling convention).
    let entry = unsafe { std::mem::transmute::<*const u8, ShaderFn>(raw) };
    Ok(Arc::new(JitCode {
        entry,
        inline_body,
        input_words: input_words(module),
        builtins_read: reads(module).1,
        output_words: module.func.output_words(),
        _memory: Arc::new(JitMemory {
            module: Mutex::new(Some(jit)),
        }),
    }))
}
