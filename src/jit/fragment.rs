//! Fragment variants (DESIGN.md §3 "Variants"): generated code per `FragmentKey` that takes
//! 2×2 quads through early depth, the fragment shader, late depth, blending, the colour
//! mask and the stores, and the bounded cache that keeps them.
//!
//! A variant has two entries (abi.rs): the block entry
//! `extern "C" fn(env: *const FragEnv, block: *mut FragBlock) -> u32` runs the covered
//! quads of a 4×4 block whose texels it addresses from one base pointer and row stride per
//! image (the tile loop only hands it blocks inside every image), and the quad entry
//! `extern "C" fn(env: *const FragEnv, quad: *mut FragQuad) -> u32` runs one quad whose
//! texels are one pointer per lane (lanes outside an image point at scratch), for blocks
//! on an image's edge. Either way generated code never sees an image's size. Everything
//! is 4-lane vector code like the shader's (one lane per pixel of the quad, one vector per
//! colour component).
//!
//! The shader itself is not re-emitted: the variant calls the shader's JIT entry point
//! (one direct native call, no Rust in between), so one compiled shader serves every
//! state it is drawn with. Its outputs come back through the invocation's output rows.
//!
//! Results are bit for bit those of `raster::ops` (the reference the tile loop still uses
//! for interpreted shaders): 8-bit unorm attachments convert, blend, mask and store in
//! integer lanes exactly as `ops::blend_and_pack`'s integer path (`color_unorm8`; RGBA8
//! with one blend equation takes two components per vector in 16-bit lanes,
//! `color_rgba8_pairs`); float attachments use the same IEEE operations in the same
//! order, `ops::fmin`/`ops::fmax` semantics for every min and max, binary16 through the
//! same `half` conversions (`rt_half_to_float`/`rt_float_to_half`); D24 depth converts
//! with the f32 steps of `ops::depth_to_d24`. `fragment_tests.rs` checks it on random keys
//! and quads.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use cranelift_codegen::inline::{Inline, InlineCommand};
use cranelift_codegen::ir::{
    condcodes::{FloatCC, IntCC},
    types, AbiParam, ConstantData, Endianness, FuncRef, InstBuilder, MemFlagsData, SigRef,
    StackSlotData, StackSlotKind, Type, UserExternalName, UserFuncName, Value,
};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module as _};
use smallvec::SmallVec;

use super::abi::{
    self, FragBlock, FragEnv, FragQuad, VariantBlockFn, VariantFn, MAX_COLOR_ATTACHMENTS,
};
use super::code::{define_and_finalize, dump_wanted, host_isa, InlineBody, JitMemory};
use super::emit::mem;
use super::runtime;
use super::{CompileError, ShaderCode};
use crate::gl::{CompareFunc, StencilOp};
use crate::ir::{Builtin, Interpolation};
use crate::sampler::Format;

const I32X4: Type = types::I32X4;
const F32X4: Type = types::F32X4;

/// Storage format of the depth attachment a variant tests against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DepthFormat {
    /// 24-bit unorm depth in the low bits of a little-endian word, stencil in the top byte.
    D24S8,
    /// One f32 per texel.
    D32F,
}

/// The depth test of a variant (GL 4.5 core §17.3.5). Absent from the key when the test is
/// off or there is no depth attachment (then it always passes and writes nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DepthKey {
    pub format: DepthFormat,
    pub func: CompareFunc,
    /// glDepthMask.
    pub write: bool,
}

/// One face of a variant's stencil test (GL 4.5 core §17.3.5): the function and the three
/// operations. The reference and the masks are left out: `FragEnv::stencil` holds them, so
/// glStencilFunc's reference (which programs change per object) never recompiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StencilFaceKey {
    pub func: CompareFunc,
    pub sfail: StencilOp,
    pub dpfail: StencilOp,
    pub dppass: StencilOp,
}

impl StencilFaceKey {
    /// Whether no operation can change the stored value.
    fn keeps(&self) -> bool {
        [self.sfail, self.dpfail, self.dppass]
            .iter()
            .all(|&o| o == StencilOp::Keep)
    }
}

/// The stencil test of a variant, per face (the quad's `front` word picks one). Absent from
/// the key when the test is off or there is no stencil buffer (then it passes and nothing
/// is written). The texel is a D24S8 word (stencil in the top byte): with a depth test its
/// format must be `DepthFormat::D24S8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StencilKey {
    pub front: StencilFaceKey,
    pub back: StencilFaceKey,
}

/// Resolved blend state of one attachment: table indices as `ops::PreparedBlend` uses
/// them (`ops::PreparedBlend::indices`), RGB in lanes 0..2 and alpha in 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlendKey {
    pub src: [u8; 4],
    pub dst: [u8; 4],
    pub eq: [u8; 4],
}

/// One colour attachment a variant writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColorKey {
    /// The attachment's format (not a depth format); decides unpack, pack and whether
    /// blending clamps (unorm).
    pub format: Format,
    /// First of the 4 shader output rows (r, g, b, a) that feed it.
    pub slot: u32,
    /// glColorMask: masked components are neither computed nor stored.
    pub mask: [bool; 4],
    /// Blend state when blending is on.
    pub blend: Option<BlendKey>,
    /// Index of this attachment's blend constant in `FragEnv::blend_color` and its
    /// pointers in `FragQuad::color`.
    pub index: u8,
    /// GL_FRAMEBUFFER_SRGB on an SRGB8_ALPHA8 attachment: blend in f32 on the decoded
    /// destination and store RGB encoded (`ops::color_and_pack`). False for other formats.
    pub srgb: bool,
    /// glLogicOp (`ops::logic_op`'s code) when GL_COLOR_LOGIC_OP is on, on a unorm8 or
    /// integer attachment (float ones ignore it); `blend` is then None.
    pub logic_op: Option<u8>,
    /// Dual-source blending (ARB_blend_func_extended): first of the 4 output rows of the
    /// shader's index-1 colour, which the SRC1_* factors read. None when no factor of
    /// `blend` reads it (the key, and so the code, is then what it was without the feature)
    /// or when the shader has no index-1 output (the factors then read zeros, as
    /// `ops::color_and_pack` does).
    pub src1_slot: Option<u32>,
}

/// One shader input row the block entry interpolates (`raster::tile`'s reference:
/// `interpolate_quad`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VaryingKey {
    /// Index of its plane among the triangle's (`FragBlock::planes`).
    pub plane: u32,
    /// Input row written (words `row * 4 .. row * 4 + 4` of the quad's inputs); below the
    /// shader's input words.
    pub row: u32,
    pub interp: Interpolation,
}

/// Everything a fragment variant's code depends on (SwiftShader's "state" struct): two
/// draws with equal keys run the same code.
///
/// Deliberately left out, because the code does not depend on it: the blend constant
/// colour (read from `FragEnv` per draw, so glBlendColor never recompiles), the viewport,
/// scissor and coverage (`FragBlock::cover` and `edges`, read per block), image sizes and
/// addresses (per-quad texel pointers), uniforms, blocks and textures (the shader's env),
/// the planes and gl_FragCoord's layout (read per block and per draw), and the stencil
/// reference and masks (`FragEnv::stencil`). A key without `stencil` generates exactly the
/// code it did before stencil existed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FragmentKey {
    /// The shader's identity: its JIT entry address. The shader cache (`cache.rs`) already
    /// maps structurally equal modules to one code object, so this is as good as the
    /// shader's cache key, and a variant keeps its shader's code alive, so an address in a
    /// live key is never reused by other code.
    pub shader: usize,
    /// Depth test (and write) before the shader (GL 4.5 core §15.2.4) instead of after it.
    pub early_depth: bool,
    pub depth: Option<DepthKey>,
    /// Stencil test and operations, run with the depth test (early or late with it).
    pub stencil: Option<StencilKey>,
    /// Output row of gl_FragDepth when the shader writes it (late depth then tests it
    /// instead of the interpolated z).
    pub frag_depth_row: Option<u32>,
    /// The colour attachments written, in attachment order.
    pub colors: SmallVec<[ColorKey; 4]>,
    /// The input rows the block entry interpolates, in plane order (the quad entry takes
    /// its inputs ready-made).
    pub varyings: SmallVec<[VaryingKey; 16]>,
    /// The builtin rows the block entry fills (bit `Builtin::index()`; only the fragment
    /// ones, gl_FragCoord and gl_FrontFacing, are filled): `ShaderCode::builtins_read`.
    pub builtins: u32,
}

impl FragmentKey {
    /// Output rows per lane the invocation's output buffer must hold for this key: the
    /// shader's own plus the rows colours and gl_FragDepth read. Rows the shader never
    /// writes must be zero (they read as 0.0, as `shade_quad`'s reference does).
    pub fn output_rows(&self, shader_rows: u32) -> u32 {
        let colors = self.colors.iter().flat_map(|c| {
            let src1 = c.src1_slot.map(|s| s.saturating_add(4));
            std::iter::once(c.slot.saturating_add(4)).chain(src1)
        });
        let depth = self.frag_depth_row.map(|r| r.saturating_add(1));
        colors.chain(depth).fold(shader_rows, u32::max)
    }
}

/// The identity `FragmentKey::shader` holds for `code`, or None when `code` is not JIT code
/// (the interpreter, test doubles): those have no variant.
pub fn shader_id(code: &dyn ShaderCode) -> Option<usize> {
    code.jit_entry().map(|f| f as usize)
}

/// A compiled fragment variant. Keeps its shader's code and its own code alive.
pub struct FragmentVariant {
    entry: VariantFn,
    block_entry: VariantBlockFn,
    key: FragmentKey,
    shader_rows: u32,
    /// Whether the shader's body is inlined into the entries (`ShaderCode::inline_body`)
    /// rather than called per quad.
    inlined: bool,
    _shader: Arc<dyn ShaderCode>,
    _memory: Arc<JitMemory>,
}

impl std::fmt::Debug for FragmentVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FragmentVariant")
            .field("key", &self.key)
            .finish()
    }
}

impl FragmentVariant {
    pub fn key(&self) -> &FragmentKey {
        &self.key
    }

    /// Whether the shader's body runs inlined in the variant's code (no call per quad).
    pub fn inlined(&self) -> bool {
        self.inlined
    }

    /// Input words per lane the shader reads (`Invocation::inputs` holds 4× that).
    pub fn input_words(&self) -> u32 {
        self._shader.input_words()
    }

    /// Output rows per lane `FragQuad::inv.outputs` must hold (`FragmentKey::output_rows`).
    pub fn output_rows(&self) -> u32 {
        self.key.output_rows(self.shader_rows)
    }

    /// Runs one quad; returns the lanes whose colour (or depth) was written.
    ///
    /// # Safety
    /// `env.shader_env` and `quad.inv` must satisfy `ShaderCode::call`'s contract for the
    /// shader, with at least `output_rows()` output rows, those past the shader's own
    /// zero; `quad.inv.mask` must be 0xF. Every pointer in `quad.depth` (when the key has a
    /// depth test) and `quad.color[c.index]` (for each key colour) must point to a texel
    /// of the key's format, or to 16 bytes of scratch, that no other thread accesses
    /// during the call; lanes whose depth pointer is scratch must not be in `quad.cover`.
    pub unsafe fn run(&self, env: &FragEnv, quad: &mut FragQuad) -> u32 {
        // SAFETY: the caller upholds the contract above, which is what the generated code
        // needs (it reads and writes only those texels, rows and the env).
        unsafe { (self.entry)(env, quad) }
    }

    /// Runs the covered quads of a span of 4×4 blocks (`abi::FragBlock`), block by block
    /// left to right and in quad order in each, each quad as `run` would after
    /// interpolating its z, inputs and builtins from the block's planes
    /// (`raster::tile::interpolate_quad`); returns how many lanes were written (the sum of
    /// what `run` returns: samples passed, for occlusion queries). Leaves `block`'s
    /// position, image pointers and edge values at the block past the span.
    ///
    /// # Safety
    /// `run`'s contract for the shader env, `block.inv.outputs` and the invocation (the
    /// variant points `block.inv.inputs`/`builtins` at each quad's, which must each hold
    /// what `run` requires); for each quad, its inputs and builtins at
    /// `block.inputs`/`block.builtins` plus the quad index times the stride, writable,
    /// with rows past every `key.varyings` row; `block.planes` must hold the z and 1/w planes
    /// and a varying plane past every `key.varyings` plane index. For the key's
    /// depth test and each key colour `c`, the texels `ptr + j * stride + i * bpp` (j in
    /// 0..4, i in 0..4n for a span of n blocks) of `block.depth` / `block.color[c.index]`
    /// with their strides must be
    /// texels of that image, of the key's format, that no other thread accesses during the
    /// call.
    pub unsafe fn run_block(&self, env: &FragEnv, block: &mut FragBlock) -> u32 {
        // SAFETY: the caller upholds the contract above, which is what the generated code
        // needs (it reads and writes only those texels, rows and the env).
        unsafe { (self.block_entry)(env, block) }
    }
}

/// Variants kept before the cache starts over (a variant stays alive while a draw holds it).
const CAPACITY: usize = 256;

// FxHash, not SipHash: the key (with its colour and varying lists) is hashed once per
// draw, on the worker that runs the draw's first tile.
type Cache = Mutex<HashMap<FragmentKey, Arc<FragmentVariant>, rustc_hash::FxBuildHasher>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::default()))
}

/// The variant for `key` running `shader`, compiled on first use. `key.shader` must be
/// `shader_id(shader)`.
pub fn variant(
    shader: &Arc<dyn ShaderCode>,
    key: &FragmentKey,
) -> Result<Arc<FragmentVariant>, CompileError> {
    if shader_id(&**shader) != Some(key.shader) {
        return Err(CompileError::Bug(
            "fragment key does not name the shader it is compiled with".into(),
        ));
    }
    let lock = || cache().lock().unwrap_or_else(|p| p.into_inner());
    if let Some(v) = lock().get(key) {
        return Ok(v.clone());
    }
    // Compiled outside the lock, as in `cache.rs`: two threads may both compile, one wins.
    // On a compiler thread: with one raster thread, tiles (and this) run on the API thread.
    let (s, k) = (shader.clone(), key.clone());
    let v = Arc::new(super::run_on_compiler_thread(move || {
        compile_uncached(&s, &k)
    })?);
    let mut map = lock();
    if map.len() >= CAPACITY {
        map.clear();
    }
    Ok(map.entry(key.clone()).or_insert(v).clone())
}

/// Compiles the variant for `key` without the cache (tests).
pub fn compile_uncached(
    shader: &Arc<dyn ShaderCode>,
    key: &FragmentKey,
) -> Result<FragmentVariant, CompileError> {
    compile_uncached_with(shader, key, true)
}

/// `compile_uncached`, inlining the shader's body when `inline` is set and the shader has
/// one (`ShaderCode::inline_body`), calling its code per quad otherwise (tests compare both).
pub(crate) fn compile_uncached_with(
    shader: &Arc<dyn ShaderCode>,
    key: &FragmentKey,
    inline: bool,
) -> Result<FragmentVariant, CompileError> {
    let Some(entry) = shader.jit_entry() else {
        return Err(CompileError::Bug(
            "fragment variants wrap JIT code only".into(),
        ));
    };
    validate(key)?;
    let body = if inline { shader.inline_body() } else { None };
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        compile_inner(entry as usize, body, key)
    }));
    let (entry, block_entry, memory, inlined) = match r {
        Ok(r) => r?,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic".into());
            return Err(CompileError::Bug(format!(
                "fragment variant generator panicked: {msg}"
            )));
        }
    };
    Ok(FragmentVariant {
        entry,
        block_entry,
        key: key.clone(),
        shader_rows: shader.output_words(),
        inlined,
        _shader: shader.clone(),
        _memory: memory,
    })
}

fn validate(key: &FragmentKey) -> Result<(), CompileError> {
    for c in &key.colors {
        if c.format.is_depth() {
            return Err(CompileError::Bug(
                "depth format as a colour attachment".into(),
            ));
        }
        if c.index as usize >= MAX_COLOR_ATTACHMENTS {
            return Err(CompileError::Limit("colour attachment index".into()));
        }
        if c.srgb && c.format != Format::Srgb8Alpha8 {
            return Err(CompileError::Bug(
                "sRGB encoding of a non-sRGB format".into(),
            ));
        }
        if c.logic_op.is_some_and(|op| op > 15) {
            return Err(CompileError::Bug("logic op past GL_SET".into()));
        }
        // Output rows are addressed with 32-bit offsets.
        if c.slot > 1 << 20 {
            return Err(CompileError::Limit("colour output row".into()));
        }
    }
    if key
        .varyings
        .iter()
        .any(|v| v.row > 1 << 20 || v.plane > 1 << 20)
    {
        return Err(CompileError::Limit("interpolated input row".into()));
    }
    if key.stencil.is_some() && key.depth.is_some_and(|d| d.format != DepthFormat::D24S8) {
        return Err(CompileError::Bug(
            "stencil test on a texel without stencil bits".into(),
        ));
    }
    if key.frag_depth_row.is_some_and(|r| r > 1 << 20) {
        return Err(CompileError::Limit("gl_FragDepth output row".into()));
    }
    Ok(())
}

/// The symbol under which a variant's module imports its shader's entry (the address of
/// `FragmentKey::shader`): calls to it that are not inlined go there.
const SYM_SHADER: &str = "softgl_fragment_shader";

/// Inlines the calls of one `FuncRef` (the shader) with one body.
struct ShaderInliner<'a> {
    callee: FuncRef,
    body: &'a cranelift_codegen::ir::Function,
}

impl Inline for ShaderInliner<'_> {
    fn inline(
        &mut self,
        _caller: &cranelift_codegen::ir::Function,
        _inst: cranelift_codegen::ir::Inst,
        _opcode: cranelift_codegen::ir::Opcode,
        callee: FuncRef,
        _args: &[Value],
    ) -> InlineCommand<'_> {
        if callee == self.callee {
            InlineCommand::Inline {
                callee: std::borrow::Cow::Borrowed(self.body),
                visit_callee: false,
            }
        } else {
            InlineCommand::KeepCall
        }
    }
}

/// `body`'s function with its texture helper renamed to `texture` (this module's
/// declaration of the same symbol), or None when it imports anything else (then the
/// variant calls the shader instead).
fn renamed_body(
    body: &InlineBody,
    texture: cranelift_module::FuncId,
) -> Option<cranelift_codegen::ir::Function> {
    let mut f = body.func.clone();
    let names: Vec<_> = f
        .params
        .user_named_funcs()
        .iter()
        .map(|(r, n)| (r, n.clone()))
        .collect();
    for (r, n) in names {
        if n != body.texture {
            return None;
        }
        f.params
            .reset_user_func_name(r, UserExternalName::new(0, texture.as_u32()));
    }
    Some(f)
}

fn compile_inner(
    shader: usize,
    body: Option<&InlineBody>,
    key: &FragmentKey,
) -> Result<(VariantFn, VariantBlockFn, Arc<JitMemory>, bool), CompileError> {
    let isa = host_isa()?;
    let mut builder = JITBuilder::with_isa(isa, default_libcall_names());
    builder.symbol(SYM_SHADER, shader as *const u8);
    builder.symbol(runtime::SYM_TEXTURE, runtime::texture_helper() as *const u8);
    builder.symbol(
        runtime::SYM_HALF_TO_FLOAT,
        runtime::rt_half_to_float as *const u8,
    );
    builder.symbol(
        runtime::SYM_FLOAT_TO_HALF,
        runtime::rt_float_to_half as *const u8,
    );
    builder.symbol(
        runtime::SYM_SRGB8_TO_LINEAR,
        runtime::rt_srgb8_to_linear as *const u8,
    );
    builder.symbol(
        runtime::SYM_LINEAR_TO_SRGB8,
        runtime::rt_linear_to_srgb8 as *const u8,
    );
    let mut jit = JITModule::new(builder);
    let bug = |e: cranelift_module::ModuleError| CompileError::Bug(format!("{e:?}"));
    let config = jit.target_config();
    let ptr = config.pointer_type();

    let mut half_sig = jit.make_signature();
    half_sig.params.push(AbiParam::new(ptr));
    let to_float = jit
        .declare_function(runtime::SYM_HALF_TO_FLOAT, Linkage::Import, &half_sig)
        .map_err(bug)?;
    let to_half = jit
        .declare_function(runtime::SYM_FLOAT_TO_HALF, Linkage::Import, &half_sig)
        .map_err(bug)?;
    let to_linear = jit
        .declare_function(runtime::SYM_SRGB8_TO_LINEAR, Linkage::Import, &half_sig)
        .map_err(bug)?;
    let to_srgb = jit
        .declare_function(runtime::SYM_LINEAR_TO_SRGB8, Linkage::Import, &half_sig)
        .map_err(bug)?;
    let mut shader_sig = jit.make_signature();
    shader_sig.params.push(AbiParam::new(ptr));
    shader_sig.params.push(AbiParam::new(ptr));
    shader_sig.returns.push(AbiParam::new(types::I32));
    // With a body to inline, the shader is a direct call of an import, which the inliner
    // replaces by the body; without one, an indirect call of its address.
    let body = match body {
        Some(body) => {
            let mut tex_sig = jit.make_signature();
            tex_sig.params.extend([AbiParam::new(ptr); 3]);
            let tex = jit
                .declare_function(runtime::SYM_TEXTURE, Linkage::Import, &tex_sig)
                .map_err(bug)?;
            renamed_body(body, tex)
        }
        None => None,
    };
    let shader_id = match body {
        Some(_) => Some(
            jit.declare_function(SYM_SHADER, Linkage::Import, &shader_sig)
                .map_err(bug)?,
        ),
        None => None,
    };
    let mut inlined = false;

    let mut sig = jit.make_signature();
    sig.params.push(AbiParam::new(ptr));
    sig.params.push(AbiParam::new(ptr));
    sig.returns.push(AbiParam::new(types::I32));
    // The quad entry and the block entry: same signature, same body per quad.
    let mut ids = Vec::new();
    for (n, name) in ["fragment_variant_quad", "fragment_variant_block"]
        .iter()
        .enumerate()
    {
        let id = jit
            .declare_function(name, Linkage::Local, &sig)
            .map_err(bug)?;
        let mut ctx = jit.make_context();
        ctx.func.signature = sig.clone();
        ctx.func.name = UserFuncName::user(1, id.as_u32());
        let mut fctx = FunctionBuilderContext::new();
        let shader_ref = {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
            let to_float = jit.declare_func_in_func(to_float, b.func);
            let to_half = jit.declare_func_in_func(to_half, b.func);
            let to_linear = jit.declare_func_in_func(to_linear, b.func);
            let to_srgb = jit.declare_func_in_func(to_srgb, b.func);
            let shader_sig = b.import_signature(shader_sig.clone());
            let shader_ref = shader_id.map(|id| jit.declare_func_in_func(id, b.func));
            let half_slot = b.create_sized_stack_slot(StackSlotData::new(
                StackSlotKind::ExplicitSlot,
                (runtime::HALF_WORDS * 4) as u32,
                4,
            ));
            let entry = b.create_block();
            b.append_block_params_for_function_params(entry);
            b.switch_to_block(entry);
            let fenv = b.block_params(entry)[0];
            let arg = b.block_params(entry)[1];
            let mut e = V {
                b,
                ptr,
                fenv,
                arg,
                to_float,
                to_half,
                to_linear,
                to_srgb,
                half_slot,
                shader_ref,
                place: Place::Quad,
                on_empty: None,
                interp: None,
            };
            if n == 0 {
                e.emit_quad_entry(key, shader, shader_sig);
            } else {
                e.emit_block_entry(key, shader, shader_sig);
            }
            e.b.seal_all_blocks();
            e.b.finalize(config);
            shader_ref
        };
        if let (Some(callee), Some(body)) = (shader_ref, body.as_ref()) {
            inlined = ctx
                .inline(ShaderInliner { callee, body })
                .map_err(|e| CompileError::Bug(format!("inlining the shader: {e:?}")))?;
        }
        if dump_wanted("clif") {
            eprintln!("; fragment variant {name} {key:?}\n{}", ctx.func.display());
        }
        if n == 0 {
            jit.define_function(id, &mut ctx).map_err(|e| match e {
                cranelift_module::ModuleError::Compilation(c) => {
                    CompileError::Bug(format!("cranelift: {c:?}"))
                }
                e => bug(e),
            })?;
            jit.clear_context(&mut ctx);
            ids.push((id, None));
        } else {
            let raw = define_and_finalize(&mut jit, id, &mut ctx)?;
            ids.push((id, Some(raw)));
        }
    }
    let quad_raw = jit.get_finalized_function(ids[0].0);
    let block_raw = ids[1].1.unwrap_or(quad_raw);
    // SAFETY: both are the finalized code of functions declared with exactly `VariantFn`'s
    // (and `VariantBlockFn`'s, the same) signature: two pointers in, i32 out, the platform C
    // calling convention.
    let entries = unsafe {
        (
            std::mem::transmute::<*const u8, VariantFn>(quad_raw),
            std::mem::transmute::<*const u8, VariantBlockFn>(block_raw),
        )
    };
    Ok((entries.0, entries.1, JitMemory::new(jit), inlined))
}

/// Flags for vector bitcasts (Cranelift wants the lane order spelled out).
fn lanes_le() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

/// Bytes per component and components stored of a colour format.
fn layout(format: Format) -> (u32, usize) {
    match format {
        Format::Rgba8 | Format::Srgb8Alpha8 => (1, 4),
        Format::R8 => (1, 1),
        Format::Rg8 => (1, 2),
        Format::Rgba16F => (2, 4),
        Format::Rgba32F => (4, 4),
        Format::R32F => (4, 1),
        Format::Int(f) => (f.bytes as u32, f.channels as usize),
        // Stored as one packed word by `color_rgb10a2ui`.
        Format::Rgb10A2ui => (4, 0),
        Format::Snorm(_) => unreachable!(
            "snorm formats are not colour-renderable (api::texture::color_renderable), so no \
             variant stores one"
        ),
        Format::Depth24Stencil8 | Format::Depth32F => (4, 0),
    }
}

fn is_unorm8(format: Format) -> bool {
    crate::sampler::format::is_unorm(format)
}

/// Variant emitter state.
struct V<'a> {
    b: FunctionBuilder<'a>,
    ptr: Type,
    fenv: Value,
    /// The `FragQuad` or `FragBlock` argument.
    arg: Value,
    to_float: FuncRef,
    to_half: FuncRef,
    /// `runtime::rt_srgb8_to_linear` and `rt_linear_to_srgb8` (through `half_slot`).
    to_linear: FuncRef,
    to_srgb: FuncRef,
    half_slot: cranelift_codegen::ir::StackSlot,
    /// The shader as a direct call that `compile_inner` inlines, or None: an indirect call.
    shader_ref: Option<FuncRef>,
    /// Where the quad being emitted finds its texels.
    place: Place,
    /// Where control goes when no lane of the quad is left: `None` returns 0 (quad entry),
    /// a block jumps there (the block entry's next quad).
    on_empty: Option<cranelift_codegen::ir::Block>,
    /// The block quad being emitted, whose inputs `emit_quad` interpolates after early
    /// depth; None for the quad entry (its inputs come ready-made).
    interp: Option<QuadInterp>,
}

/// What `emit_interpolation` needs of a block quad (values of the block entry).
#[derive(Clone, Copy)]
struct QuadInterp {
    /// The triangle's planes (`FragBlock::planes`).
    planes: Value,
    /// The quad's input and builtin rows.
    inputs: Value,
    builtins: Value,
    /// Each lane's offset from the plane origin, as f32.
    dxf: Value,
    dyf: Value,
    /// Each lane's offset from the block's pixel (0, 0), i32.
    off_x: Value,
    off_y: Value,
    /// Interpolated window z (zeros when nothing reads it).
    z: Value,
}

/// Texel addresses of the quad being emitted.
#[derive(Clone, Copy)]
enum Place {
    /// One pointer per lane in the `FragQuad`.
    Quad,
    /// Quad (qx, qy) (in pixels, 0 or 2) of the `FragBlock`: lane pointers are the block's
    /// base pointer plus rows of its stride and texels of the format's size.
    Block { qx: i64, qy: i64 },
}

impl V<'_> {
    /// The quad entry: one `FragQuad`, returns the lanes written.
    fn emit_quad_entry(&mut self, key: &FragmentKey, shader: usize, shader_sig: SigRef) {
        let m = mem();
        let cover_bits = self.b.ins().load(types::I32, m, self.arg, abi::QUAD_COVER);
        let z = self.b.ins().load(F32X4, m, self.arg, abi::QUAD_Z);
        let inv = self.b.ins().iadd_imm_s(self.arg, abi::QUAD_INV as i64);
        self.place = Place::Quad;
        self.on_empty = None;
        let live = self.emit_quad(key, shader, shader_sig, cover_bits, z, inv);
        let bits = self.b.ins().vhigh_bits(types::I32, live);
        self.b.ins().return_(&[bits]);
    }

    /// The block entry: a span of 4×4 blocks left to right, and in each the 4 quads in
    /// order (quad q covers pixels (2·(q & 1) + i, 2·(q >> 1) + j)), each skipped when none
    /// of its pixels is covered; returns the number of lanes written.
    /// A loop over the blocks (the span ends where no cover bit is left), the quads of one
    /// block unrolled: each quad's addresses are constant offsets from the block's
    /// pointers, which the loop moves 4 texels right per block (in the `FragBlock`).
    fn emit_block_entry(&mut self, key: &FragmentKey, shader: usize, shader_sig: SigRef) {
        let m = mem();
        let written = self.b.declare_var(types::I32);
        let zero = self.b.ins().iconst(types::I32, 0);
        self.b.def_var(written, zero);
        // The span: block k's pixels in bits 16k.., its edge test in bit k. Each turn takes
        // the low block, then shifts both words and moves the block's fields 4 pixels right.
        let covers = self.b.declare_var(types::I64);
        let all = self.b.ins().load(types::I64, m, self.arg, abi::BLOCK_COVER);
        self.b.def_var(covers, all);
        let tests = self.b.declare_var(types::I32);
        let all = self
            .b
            .ins()
            .load(types::I32, m, self.arg, abi::BLOCK_EDGE_TEST);
        self.b.def_var(tests, all);
        let head = self.b.create_block();
        let body = self.b.create_block();
        let advance = self.b.create_block();
        let exit = self.b.create_block();
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let left = self.b.use_var(covers);
        self.b.ins().brif(left, body, &[], exit, &[]);
        self.b.switch_to_block(body);
        let cover = self.b.ins().ireduce(types::I32, left);
        let cover = self.b.ins().band_imm_u(cover, 0xFFFF);
        let test = self.b.use_var(tests);
        let test = self.b.ins().band_imm_u(test, 1);
        let cover = self.emit_edge_coverage(cover, test);
        let inv = self.b.ins().iadd_imm_s(self.arg, abi::BLOCK_INV as i64);
        let inputs = self.b.ins().load(self.ptr, m, self.arg, abi::BLOCK_INPUTS);
        let in_stride = self
            .b
            .ins()
            .load(types::I64, m, self.arg, abi::BLOCK_INPUT_STRIDE);
        let builtins = self
            .b
            .ins()
            .load(self.ptr, m, self.arg, abi::BLOCK_BUILTINS);
        let bi_stride = self
            .b
            .ins()
            .load(types::I64, m, self.arg, abi::BLOCK_BUILTIN_STRIDE);
        let planes = self.b.ins().load(self.ptr, m, self.arg, abi::BLOCK_PLANES);
        let dx = self.b.ins().load(types::I32, m, self.arg, abi::BLOCK_DX);
        let dy = self.b.ins().load(types::I32, m, self.arg, abi::BLOCK_DY);
        let dx = self.b.ins().splat(I32X4, dx);
        let dy = self.b.ins().splat(I32X4, dy);
        let bit = |b: Builtin| key.builtins & (1 << b.index()) != 0;
        let need_z = key.depth.is_some() || bit(Builtin::FragCoordZ);
        for q in 0..4i64 {
            let (qx, qy) = ((q & 1) * 2, (q >> 1) * 2);
            // Bits j·4 + i of the block → lane bits of the quad.
            let row0 = self.b.ins().ushr_imm_u(cover, qy * 4 + qx);
            let row0 = self.b.ins().band_imm_u(row0, 3);
            let row1 = self.b.ins().ushr_imm_u(cover, qy * 4 + 4 + qx - 2);
            let row1 = self.b.ins().band_imm_u(row1, 0xC);
            let bits = self.b.ins().bor(row0, row1);
            let next = if q == 3 {
                advance
            } else {
                self.b.create_block()
            };
            let body = self.b.create_block();
            self.b.ins().brif(bits, body, &[], next, &[]);
            self.b.switch_to_block(body);
            // Lane offsets within the block (abi.rs: lane l at (l & 1, l >> 1) of the quad).
            let qx = qx as u32;
            let qy = qy as u32;
            let off_x = self.vconst([qx, qx + 1, qx, qx + 1]);
            let off_y = self.vconst([qy, qy, qy + 1, qy + 1]);
            // `(x + o - origin) as f32`: the integer offset, then one rounding conversion.
            let dxi = self.b.ins().iadd(dx, off_x);
            let dyi = self.b.ins().iadd(dy, off_y);
            let dxf = self.b.ins().fcvt_from_sint(F32X4, dxi);
            let dyf = self.b.ins().fcvt_from_sint(F32X4, dyi);
            let z = if need_z {
                self.eval_plane(planes, abi::SPLAT_Z, dxf, dyf)
            } else {
                self.splat_f(0.0)
            };
            let (qx, qy) = (qx as i64, qy as i64);
            let (qin, qbi) = if q == 0 {
                (inputs, builtins)
            } else {
                let io = self.b.ins().imul_imm_s(in_stride, q);
                let bo = self.b.ins().imul_imm_s(bi_stride, q);
                (
                    self.b.ins().iadd(inputs, io),
                    self.b.ins().iadd(builtins, bo),
                )
            };
            self.b
                .ins()
                .store(m, qin, self.arg, abi::BLOCK_INV + abi::INV_INPUTS);
            self.b
                .ins()
                .store(m, qbi, self.arg, abi::BLOCK_INV + abi::INV_BUILTINS);
            self.place = Place::Block { qx, qy };
            self.on_empty = Some(next);
            self.interp = Some(QuadInterp {
                planes,
                inputs: qin,
                builtins: qbi,
                dxf,
                dyf,
                off_x,
                off_y,
                z,
            });
            let live = self.emit_quad(key, shader, shader_sig, bits, z, inv);
            // Lanes written, summed over the quads (occlusion queries, `raster::tile`).
            let live_bits = self.b.ins().vhigh_bits(types::I32, live);
            let n = self.b.ins().popcnt(live_bits);
            let sum = self.b.use_var(written);
            let sum = self.b.ins().iadd(sum, n);
            self.b.def_var(written, sum);
            self.b.ins().jump(next, &[]);
            self.b.switch_to_block(next);
        }
        // The next block of the span: 4 pixels right.
        let rest = self.b.use_var(covers);
        let rest = self.b.ins().ushr_imm_u(rest, 16);
        self.b.def_var(covers, rest);
        let rest = self.b.use_var(tests);
        let rest = self.b.ins().ushr_imm_u(rest, 1);
        self.b.def_var(tests, rest);
        for off in [abi::BLOCK_DX, abi::BLOCK_X] {
            let v = self.b.ins().load(types::I32, m, self.arg, off);
            let v = self.b.ins().iadd_imm_s(v, 4);
            self.b.ins().store(m, v, self.arg, off);
        }
        let mut images = Vec::new();
        if key.depth.is_some() || key.stencil.is_some() {
            images.push((abi::BLOCK_DEPTH, 4));
        }
        for c in &key.colors {
            let bpp = c.format.bytes_per_texel() as i64;
            images.push((abi::BLOCK_COLOR + c.index as i32 * 8, bpp));
        }
        for (off, bpp) in images {
            let p = self.b.ins().load(self.ptr, m, self.arg, off);
            let p = self.b.ins().iadd_imm_s(p, 4 * bpp);
            self.b.ins().store(m, p, self.arg, off);
        }
        // Edge values at the next block's pixel (0, 0) (still a pixel of the triangle's
        // bounds, so no overflow; read only where the next block's test bit is set).
        for k in 0..3 {
            let base = abi::BLOCK_EDGES + k * abi::EDGE_SIZE;
            let c = self
                .b
                .ins()
                .load(types::I64, m, self.arg, base + abi::EDGE_C);
            let a = self
                .b
                .ins()
                .load(types::I64, m, self.arg, base + abi::EDGE_A);
            let a4 = self.b.ins().ishl_imm_u(a, 2);
            let c = self.b.ins().iadd(c, a4);
            self.b.ins().store(m, c, self.arg, base + abi::EDGE_C);
        }
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(exit);
        let total = self.b.use_var(written);
        self.b.ins().return_(&[total]);
    }

    /// `cover` limited to the pixels inside the block's three edges when `test` (the
    /// block's `edge_test` bit) is set (`raster::tile::edge_mask`'s rule: pixel (i, j) is inside when every
    /// `c + a·i + b·j >= 0`, exact in i64), `cover` itself otherwise.
    ///
    /// Two pixels of a row per I64X2 vector, stepped by additions from the edge's value at
    /// pixel (0, 0) (each sum is the edge's value at a pixel of the block, so none
    /// overflows). The three edges' values are OR-ed: the sign bit of the OR is set when
    /// any of them is negative, and `vhigh_bits` gathers those signs into pixel bits.
    fn emit_edge_coverage(&mut self, cover: Value, test: Value) -> Value {
        let m = mem();
        let i64x2 = types::I64X2;
        let edges = self.b.create_block();
        let done = self.b.create_block();
        let out = self.b.append_block_param(done, types::I32);
        self.b.ins().brif(test, edges, &[], done, &[cover.into()]);
        self.b.switch_to_block(edges);
        // Per edge: pixels (0, j), (1, j) in `left`, (2, j), (3, j) in `right`, and the row
        // step.
        let second = self.i64x2_const([0, u64::MAX]);
        let mut rows = Vec::new();
        for k in 0..3 {
            let base = abi::BLOCK_EDGES + k * abi::EDGE_SIZE;
            let [c, a, b] = [abi::EDGE_C, abi::EDGE_A, abi::EDGE_B]
                .map(|o| self.b.ins().load(types::I64, m, self.arg, base + o));
            let c = self.b.ins().splat(i64x2, c);
            let a = self.b.ins().splat(i64x2, a);
            let a_second = self.b.ins().band(a, second);
            let left = self.b.ins().iadd(c, a_second);
            let a2 = self.b.ins().iadd(a, a);
            let right = self.b.ins().iadd(left, a2);
            let b = self.b.ins().splat(i64x2, b);
            rows.push((left, right, b));
        }
        let mut outside = self.b.ins().iconst(types::I32, 0);
        for j in 0..4i64 {
            if j > 0 {
                for (left, right, b) in &mut rows {
                    *left = self.b.ins().iadd(*left, *b);
                    *right = self.b.ins().iadd(*right, *b);
                }
            }
            let l01 = self.b.ins().bor(rows[0].0, rows[1].0);
            let l = self.b.ins().bor(l01, rows[2].0);
            let r01 = self.b.ins().bor(rows[0].1, rows[1].1);
            let r = self.b.ins().bor(r01, rows[2].1);
            let lb = self.b.ins().vhigh_bits(types::I32, l);
            let rb = self.b.ins().vhigh_bits(types::I32, r);
            let rb = self.b.ins().ishl_imm_u(rb, 2);
            let row = self.b.ins().bor(lb, rb);
            let row = if j > 0 {
                self.b.ins().ishl_imm_u(row, 4 * j)
            } else {
                row
            };
            outside = self.b.ins().bor(outside, row);
        }
        let inside = self.b.ins().bnot(outside);
        let limited = self.b.ins().band(cover, inside);
        self.b.ins().jump(done, &[limited.into()]);
        self.b.switch_to_block(done);
        out
    }

    fn i64x2_const(&mut self, lanes: [u64; 2]) -> Value {
        let bytes: Vec<u8> = lanes.iter().flat_map(|l| l.to_le_bytes()).collect();
        let c = self.b.func.dfg.constants.insert(ConstantData::from(bytes));
        self.b.ins().vconst(types::I64X2, c)
    }

    /// `c + a·dx + b·dy` (`setup::Plane::eval`, the same f32 operations in the same order)
    /// of the block's plane `index` (`abi::SplatPlane`s at `planes`), per lane. The
    /// coefficients are loaded where they are used, so each load can become the memory
    /// operand of its multiply or add.
    fn eval_plane(&mut self, planes: Value, index: u32, dxf: Value, dyf: Value) -> Value {
        let m = mem();
        let base = index as i32 * abi::SPLAT_PLANE_SIZE;
        let [a, b, c] = [abi::SPLAT_A, abi::SPLAT_B, abi::SPLAT_C]
            .map(|o| self.b.ins().load(F32X4, m, planes, base + o));
        let ax = self.b.ins().fmul(a, dxf);
        let t = self.b.ins().fadd(c, ax);
        let by = self.b.ins().fmul(b, dyf);
        self.b.ins().fadd(t, by)
    }

    /// The block quad's inputs and builtins (`raster::tile::interpolate_quad`, the same f32
    /// operations per lane), stored to its rows before the shader runs.
    fn emit_interpolation(&mut self, key: &FragmentKey, qi: QuadInterp) {
        let m = mem();
        let bit = |b: Builtin| key.builtins & (1 << b.index()) != 0;
        let smooth = key
            .varyings
            .iter()
            .any(|v| v.interp == Interpolation::Smooth);
        let inv_w = (smooth || bit(Builtin::FragCoordW))
            .then(|| self.eval_plane(qi.planes, abi::SPLAT_W, qi.dxf, qi.dyf));
        let w = match inv_w {
            Some(iw) if smooth => {
                let one = self.splat_f(1.0);
                Some(self.b.ins().fdiv(one, iw))
            }
            _ => None,
        };
        if !key.varyings.is_empty() {
            let planes = qi.planes;
            for v in &key.varyings {
                let index = abi::SPLAT_FIRST_VARYING + v.plane;
                let val = match (v.interp, w) {
                    (Interpolation::Flat, _) => {
                        let off = index as i32 * abi::SPLAT_PLANE_SIZE + abi::SPLAT_C;
                        self.b.ins().load(F32X4, m, planes, off)
                    }
                    (Interpolation::Smooth, Some(w)) => {
                        let p = self.eval_plane(planes, index, qi.dxf, qi.dyf);
                        self.b.ins().fmul(p, w)
                    }
                    _ => self.eval_plane(planes, index, qi.dxf, qi.dyf),
                };
                self.b.ins().store(m, val, qi.inputs, (v.row * 16) as i32);
            }
        }
        let row = |b: Builtin| (b.index() * 16) as i32;
        if bit(Builtin::FragCoordX) {
            let bx = self.b.ins().load(types::I32, m, self.arg, abi::BLOCK_X);
            let bx = self.b.ins().splat(I32X4, bx);
            let x = self.b.ins().iadd(bx, qi.off_x);
            let xf = self.b.ins().fcvt_from_sint(F32X4, x);
            let bias = self
                .b
                .ins()
                .load(types::F32, m, self.fenv, abi::FENV_FRAG_COORD);
            let bias = self.b.ins().splat(F32X4, bias);
            let v = self.b.ins().fadd(xf, bias);
            self.b
                .ins()
                .store(m, v, qi.builtins, row(Builtin::FragCoordX));
        }
        if bit(Builtin::FragCoordY) {
            let by = self.b.ins().load(types::I32, m, self.arg, abi::BLOCK_Y);
            let by = self.b.ins().splat(I32X4, by);
            let y = self.b.ins().iadd(by, qi.off_y);
            let yf = self.b.ins().fcvt_from_sint(F32X4, y);
            let [sign, bias] = [4, 8].map(|o| {
                let x = self
                    .b
                    .ins()
                    .load(types::F32, m, self.fenv, abi::FENV_FRAG_COORD + o);
                self.b.ins().splat(F32X4, x)
            });
            let t = self.b.ins().fmul(yf, sign);
            let v = self.b.ins().fadd(t, bias);
            self.b
                .ins()
                .store(m, v, qi.builtins, row(Builtin::FragCoordY));
        }
        if bit(Builtin::FragCoordZ) {
            self.b
                .ins()
                .store(m, qi.z, qi.builtins, row(Builtin::FragCoordZ));
        }
        if let (true, Some(iw)) = (bit(Builtin::FragCoordW), inv_w) {
            self.b
                .ins()
                .store(m, iw, qi.builtins, row(Builtin::FragCoordW));
        }
        if bit(Builtin::FrontFacing) {
            let f = self.b.ins().load(types::I32, m, self.arg, abi::BLOCK_FRONT);
            let f = self.b.ins().splat(I32X4, f);
            self.b
                .ins()
                .store(m, f, qi.builtins, row(Builtin::FrontFacing));
        }
    }

    /// One quad through early depth, the shader (`inv` points at its `Invocation`), late
    /// depth and the colours, with `cover_bits` its covered lanes (bits 0..3) and `z` their
    /// window depths; returns the lanes written. When no lane is left it leaves through
    /// `on_empty`.
    fn emit_quad(
        &mut self,
        key: &FragmentKey,
        shader: usize,
        shader_sig: SigRef,
        cover_bits: Value,
        z: Value,
        inv: Value,
    ) -> Value {
        let m = mem();
        let mut live = self.mask_from_bits(cover_bits);

        if key.early_depth {
            if let Some(sk) = key.stencil {
                live = self.depth_stencil_test(key.depth, sk, z, live);
                self.return_if_none(live);
            } else if let Some(d) = key.depth {
                let pass = self.depth_test(d, z, live);
                live = pass;
                // Nothing left: the shader does not run (GL 4.5 core §15.2.4).
                self.return_if_none(live);
            }
        }

        // A block quad is interpolated only now, after early depth has left it a lane.
        if let Some(qi) = self.interp.take() {
            self.emit_interpolation(key, qi);
        }

        // The shader, all 4 lanes (helpers run for derivatives; only covered lanes write).
        // Bits 4..7 of the mask tell it which lanes are not helpers, so that only those
        // write shader storage (ir::interp's module docs).
        let live_bits = self.b.ins().vhigh_bits(types::I32, live);
        let live_bits = self.b.ins().ishl_imm_u(live_bits, 4);
        let inv_mask = self.b.ins().bor_imm_u(live_bits, 0xF);
        self.b.ins().store(m, inv_mask, inv, super::abi::INV_MASK);
        let shader_env = self
            .b
            .ins()
            .load(self.ptr, m, self.fenv, abi::FENV_SHADER_ENV);
        let call = match self.shader_ref {
            Some(f) => self.b.ins().call(f, &[shader_env, inv]),
            None => {
                let callee = self.b.ins().iconst(self.ptr, shader as i64);
                self.b
                    .ins()
                    .call_indirect(shader_sig, callee, &[shader_env, inv])
            }
        };
        let alive_bits = self.b.inst_results(call)[0];
        let alive = self.mask_from_bits(alive_bits);
        live = self.b.ins().band(live, alive);
        let outputs = self.b.ins().load(self.ptr, m, inv, abi::INV_OUTPUTS);

        if !key.early_depth {
            if let Some(sk) = key.stencil {
                let fz = match (key.depth, key.frag_depth_row) {
                    (Some(_), Some(row)) => self.b.ins().load(F32X4, m, outputs, (row * 16) as i32),
                    _ => z,
                };
                live = self.depth_stencil_test(key.depth, sk, fz, live);
            } else if let Some(d) = key.depth {
                let fz = match key.frag_depth_row {
                    Some(row) => self.b.ins().load(F32X4, m, outputs, (row * 16) as i32),
                    None => z,
                };
                live = self.depth_test(d, fz, live);
            }
        }
        self.return_if_none(live);

        for c in &key.colors {
            self.color(c, outputs, live);
        }
        live
    }

    /// Lane masks (0 / -1) from bits 0..3.
    fn mask_from_bits(&mut self, bits: Value) -> Value {
        let s = self.b.ins().splat(I32X4, bits);
        let lane_bits = self.vconst([1, 2, 4, 8]);
        let sel = self.b.ins().band(s, lane_bits);
        let zero = self.vconst([0; 4]);
        self.b.ins().icmp(IntCC::NotEqual, sel, zero)
    }

    /// Leaves the quad through `on_empty` (returning 0 from the quad entry) when no lane of
    /// `mask` is set; continues otherwise.
    fn return_if_none(&mut self, mask: Value) {
        let any = self.b.ins().vany_true(mask);
        let next = self.b.create_block();
        match self.on_empty {
            Some(out) => {
                self.b.ins().brif(any, next, &[], out, &[]);
            }
            None => {
                let done = self.b.create_block();
                self.b.ins().brif(any, next, &[], done, &[]);
                self.b.switch_to_block(done);
                let zero = self.b.ins().iconst(types::I32, 0);
                self.b.ins().return_(&[zero]);
            }
        }
        self.b.switch_to_block(next);
    }

    fn vconst(&mut self, lanes: [u32; 4]) -> Value {
        let bytes: Vec<u8> = lanes.iter().flat_map(|l| l.to_le_bytes()).collect();
        let c = self.b.func.dfg.constants.insert(ConstantData::from(bytes));
        self.b.ins().vconst(I32X4, c)
    }

    fn splat_f(&mut self, v: f32) -> Value {
        let c = self.vconst([v.to_bits(); 4]);
        self.fview(c)
    }

    fn fview(&mut self, v: Value) -> Value {
        if self.b.func.dfg.value_type(v) == F32X4 {
            return v;
        }
        self.b.ins().bitcast(F32X4, lanes_le(), v)
    }

    fn iview(&mut self, v: Value) -> Value {
        if self.b.func.dfg.value_type(v) == I32X4 {
            return v;
        }
        self.b.ins().bitcast(I32X4, lanes_le(), v)
    }

    /// `mask ? a : b` per lane, on float vectors.
    fn select_f(&mut self, mask: Value, a: Value, b: Value) -> Value {
        let ai = self.iview(a);
        let bi = self.iview(b);
        let r = self.b.ins().bitselect(mask, ai, bi);
        self.fview(r)
    }

    /// `ops::fmin`: `a` NaN → `b`; otherwise `b < a ? b : a`.
    fn fmin(&mut self, a: Value, b: Value) -> Value {
        let nan = self.b.ins().fcmp(FloatCC::Unordered, a, a);
        let lt = self.b.ins().fcmp(FloatCC::LessThan, b, a);
        let m = self.b.ins().bor(nan, lt);
        self.select_f(m, b, a)
    }

    /// `ops::fmax`: `a` NaN → `b`; otherwise `b > a ? b : a`.
    fn fmax(&mut self, a: Value, b: Value) -> Value {
        let nan = self.b.ins().fcmp(FloatCC::Unordered, a, a);
        let gt = self.b.ins().fcmp(FloatCC::GreaterThan, b, a);
        let m = self.b.ins().bor(nan, gt);
        self.select_f(m, b, a)
    }

    /// `ops::saturate`.
    fn saturate(&mut self, v: Value) -> Value {
        let zero = self.splat_f(0.0);
        let one = self.splat_f(1.0);
        let lo = self.fmax(v, zero);
        self.fmin(lo, one)
    }

    /// `saturate` for a value only `d24_bits` reads: `maxps` then `minps` (Cranelift's
    /// x64 backend matches these two selects, 2 instructions against `saturate`'s 12 in
    /// every depth-tested quad). They differ from `ops::saturate` only for −0, which gives
    /// +0 here and −0 there; `d24_bits` maps both to 0, so the stored depth is the same.
    fn saturate_for_d24(&mut self, v: Value) -> Value {
        let zero = self.splat_f(0.0);
        let one = self.splat_f(1.0);
        // 0 < v ? v : 0 (NaN and negatives → +0): maxps(v, 0).
        let pos = self.b.ins().fcmp(FloatCC::LessThan, zero, v);
        let pos = self.b.ins().bitcast(F32X4, lanes_le(), pos);
        let lo = self.b.ins().bitselect(pos, v, zero);
        // lo < 1 ? lo : 1: minps(lo, 1).
        let below = self.b.ins().fcmp(FloatCC::LessThan, lo, one);
        let below = self.b.ins().bitcast(F32X4, lanes_le(), below);
        self.b.ins().bitselect(below, lo, one)
    }

    /// `ops::depth_to_d24` per lane of the saturated `c`, the same f32 steps in the same
    /// order (see there why they give the exact f64 result): `a = 2^24·c`, `q = a − c`,
    /// `t = (a − q) − c`, `n` = `q` rounded to an integer (ties to even), then ±1 when `q`
    /// is a half-integer and `t` says the exact product lies on the other side.
    fn d24_bits(&mut self, c: Value) -> Value {
        let k24 = self.splat_f(16_777_216.0);
        let magic = self.splat_f(8_388_608.0);
        let a = self.b.ins().fmul(c, k24);
        let q = self.b.ins().fsub(a, c);
        let aq = self.b.ins().fsub(a, q);
        let t = self.b.ins().fsub(aq, c);
        let mq = self.b.ins().fadd(q, magic);
        let rounded = self.b.ins().fsub(mq, magic);
        let small = self.b.ins().fcmp(FloatCC::LessThan, q, magic);
        let nf = self.select_f(small, rounded, q);
        let d = self.b.ins().fsub(q, nf);
        // An integer in [0, 2^24]: the truncating conversion is exact.
        let n = self.trunc_to_i32(nf);
        let zero = self.splat_f(0.0);
        let half = self.splat_f(0.5);
        let mhalf = self.splat_f(-0.5);
        let d_up = self.b.ins().fcmp(FloatCC::Equal, d, half);
        let t_up = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, t, zero);
        let up = self.b.ins().band(d_up, t_up);
        let d_dn = self.b.ins().fcmp(FloatCC::Equal, d, mhalf);
        let t_dn = self.b.ins().fcmp(FloatCC::LessThan, t, zero);
        let dn = self.b.ins().band(d_dn, t_dn);
        // Masks are -1 where set: n + 1 for `up`, n − 1 for `dn`.
        let n = self.b.ins().isub(n, up);
        self.b.ins().iadd(n, dn)
    }

    /// `ops::float_to_unorm8(v)` per lane, the same steps (see there why they give the
    /// exact f64 result of `ops::float_to_unorm(v, 255)`): `c` = `v` where 0 < v (NaN,
    /// ±0 and negatives → +0; no upper clamp, as the truncating conversion sends every
    /// `c·2^31 + ¼ ≥ 2^31` to the same 0x8000_0000 that c = 1 gives), `y = trunc(c·2^31 +
    /// ¼)`, `n = (y + 2^22 − ((y + 255) >> 8)) >> 23`. Checked against the reference by
    /// `unorm8_conversion_is_exact_at_every_midpoint`.
    fn unorm8_bits(&mut self, v: Value) -> Value {
        let zero = self.splat_f(0.0);
        // 0 < v keeps v, and sends NaN, ±0 and negatives to +0.
        let pos = self.b.ins().fcmp(FloatCC::LessThan, zero, v);
        let vi = self.iview(v);
        let c = self.b.ins().band(vi, pos);
        let c = self.fview(c);
        let k31 = self.splat_f(2_147_483_648.0);
        let quarter = self.splat_f(0.25);
        let x = self.b.ins().fmul(c, k31);
        let x = self.b.ins().fadd(x, quarter);
        let y = self.trunc_to_i32(x);
        let k22 = self.vconst([1 << 22; 4]);
        let k255 = self.vconst([255; 4]);
        let hi = self.b.ins().iadd(y, k22);
        let ceil = self.b.ins().iadd(y, k255);
        let ceil = self.b.ins().ushr_imm_u(ceil, 8);
        let n = self.b.ins().isub(hi, ceil);
        self.b.ins().ushr_imm_u(n, 23)
    }

    /// Truncation of non-negative, non-NaN lanes to i32, where lanes at or above 2^31 may
    /// give either 0x8000_0000 (x86's `cvttps2dq`, one instruction) or 0x7FFF_FFFF (the
    /// saturating form other hosts use); callers give both the same meaning.
    fn trunc_to_i32(&mut self, x: Value) -> Value {
        if cfg!(target_arch = "x86_64") {
            self.b.ins().x86_cvtt2dq(I32X4, x)
        } else {
            self.b.ins().fcvt_to_sint_sat(I32X4, x)
        }
    }

    /// The unorm8 colour step (`ops::blend_and_pack`'s integer path) on 4 lanes: sources
    /// converted by `unorm8_bits`, `old` the stored bytes (one `i32x4` per stored
    /// component), and for each enabled component the blended (or plain) unorm8 value in
    /// `packed`. Blending is `ops::PreparedBlend::apply_unorm8`: both products and their sum
    /// in one `pmaddwd` (source and destination interleaved as 16-bit pairs
    /// `s | d << 16`, factors as `sf | ±df << 16`), clamped, then `div255`.
    fn color_unorm8(
        &mut self,
        c: &ColorKey,
        src: &[Value; 4],
        src1: Option<[Value; 4]>,
        old: &[Value],
        enabled: &[usize],
        packed: &mut [Option<Value>; 4],
    ) {
        let mut s8: [Option<Value>; 4] = [None; 4];
        let mut conv = |e: &mut Self, i: usize| -> Value {
            *s8[i].get_or_insert_with(|| e.unorm8_bits(src[i]))
        };
        // The second source colour in unorm8, converted as the first (`unorm8_bits`).
        let mut s1_8: [Option<Value>; 4] = [None; 4];
        let mut conv1 = |e: &mut Self, i: usize| -> Value {
            let s1 = src1.expect("`color` loads the second colour when a factor reads it");
            *s1_8[i].get_or_insert_with(|| e.unorm8_bits(s1[i]))
        };
        let Some(bk) = c.blend else {
            for &i in enabled {
                packed[i] = Some(conv(self, i));
            }
            return;
        };
        // Missing destination components read as (0, 0, 0, 255).
        let d: [Value; 4] = std::array::from_fn(|i| match old.get(i) {
            Some(v) => *v,
            None => self.vconst([if i == 3 { 255 } else { 0 }; 4]),
        });
        let kbase = abi::FENV_BLEND_COLOR_UNORM8 + c.index as i32 * 16;
        for &i in enabled {
            let eq = bk.eq[i];
            if eq == 3 || eq == 4 {
                let s = conv(self, i);
                packed[i] = Some(if eq == 3 {
                    self.b.ins().umin(s, d[i])
                } else {
                    self.b.ins().umax(s, d[i])
                });
                continue;
            }
            // ONE, ZERO and FUNC_ADD (blending that keeps the source) needs no arithmetic.
            if eq == 0 && bk.src[i] == 1 && bk.dst[i] == 0 {
                packed[i] = Some(conv(self, i));
                continue;
            }
            let mut cv = |e: &mut Self, j: usize| conv(e, j);
            let mut cv1 = |e: &mut Self, j: usize| conv1(e, j);
            let sf = self.factor8(bk.src[i], i, kbase, &d, &mut cv, &mut cv1);
            let df = self.factor8(bk.dst[i], i, kbase, &d, &mut cv, &mut cv1);
            let s = conv(self, i);
            // FUNC_REVERSE_SUBTRACT is d·df − s·sf: the same pair with the roles swapped.
            let (x, fx, y, fy) = if eq == 2 {
                (d[i], df, s, sf)
            } else {
                (s, sf, d[i], df)
            };
            let fy = if eq == 0 { fy } else { self.b.ins().ineg(fy) };
            let y_hi = self.b.ins().ishl_imm_u(y, 16);
            let pair = self.b.ins().bor(x, y_hi);
            let fy_hi = self.b.ins().ishl_imm_u(fy, 16);
            let fpair = self.b.ins().bor(fx, fy_hi);
            let sum = self.madd16(pair, fpair);
            // FUNC_ADD is at most 2·255², the subtractions at least −255².
            let sum = if eq == 0 {
                let hi = self.vconst([255 * 255; 4]);
                self.b.ins().smin(sum, hi)
            } else {
                let lo = self.vconst([0; 4]);
                self.b.ins().smax(sum, lo)
            };
            packed[i] = Some(self.div255(sum));
        }
    }

    /// Blend factor `idx` (`ops::PreparedBlend::indices`) of component `i` as unorm8
    /// lanes (`ops::PreparedBlend::apply_unorm8`'s factors): `d` the destination
    /// components, `conv`/`conv1` the converted first and second source components.
    fn factor8(
        &mut self,
        idx: u8,
        i: usize,
        kbase: i32,
        d: &[Value; 4],
        conv: &mut dyn FnMut(&mut Self, usize) -> Value,
        conv1: &mut dyn FnMut(&mut Self, usize) -> Value,
    ) -> Value {
        let k255 = self.vconst([255; 4]);
        let k = |e: &mut Self, j: usize| {
            let m = mem();
            let x = e.b.ins().load(types::I32, m, e.fenv, kbase + j as i32 * 4);
            e.b.ins().splat(I32X4, x)
        };
        let e = self;
        match idx {
            0 => e.vconst([0; 4]),
            1 => k255,
            2 => conv(e, i),
            3 => {
                let s = conv(e, i);
                e.b.ins().isub(k255, s)
            }
            4 => d[i],
            5 => e.b.ins().isub(k255, d[i]),
            6 => conv(e, 3),
            7 => {
                let s = conv(e, 3);
                e.b.ins().isub(k255, s)
            }
            8 => d[3],
            9 => e.b.ins().isub(k255, d[3]),
            10 => k(e, i),
            11 => {
                let x = k(e, i);
                e.b.ins().isub(k255, x)
            }
            12 => k(e, 3),
            13 => {
                let x = k(e, 3);
                e.b.ins().isub(k255, x)
            }
            14 if i == 3 => k255,
            14 => {
                let s = conv(e, 3);
                let inv = e.b.ins().isub(k255, d[3]);
                e.b.ins().umin(s, inv)
            }
            15 => conv1(e, i),
            16 => {
                let s1 = conv1(e, i);
                e.b.ins().isub(k255, s1)
            }
            17 => conv1(e, 3),
            _ => {
                let s1 = conv1(e, 3);
                e.b.ins().isub(k255, s1)
            }
        }
    }

    /// The colour step of an RGBA8 attachment (not sRGB, no logic op) whose blend, if on,
    /// uses one equation for all four components (`pairs_apply`): the same values as
    /// `color_unorm8` (so as `ops::blend_and_pack`), two components per vector in 16-bit
    /// lanes (issue #9 item 2). `word` holds the 4 stored texels; returns the new texels.
    ///
    /// The texels' bytes are transposed to component order (r0..r3 g0..g3 b0..b3 a0..a3)
    /// and widened to the pairs (r, g) and (b, a), the sources narrowed to the same pairs.
    /// Each product fits 16 bits (≤ 255²); FUNC_ADD's sum saturates at 2^16 − 1 and is then
    /// clamped to 255², as the 32-bit sum is; the subtractions saturate at 0, as the 32-bit
    /// difference is clamped; `div255` of at most 255² stays below 2^16 at every step.
    fn color_rgba8_pairs(
        &mut self,
        c: &ColorKey,
        src: &[Value; 4],
        src1: Option<[Value; 4]>,
        word: Value,
    ) -> Value {
        const I16X8: Type = types::I16X8;
        const I8X16: Type = types::I8X16;
        // Byte k of the result is byte TRANSPOSE[k] of the input: texel order ↔ component
        // order (its own inverse).
        const TRANSPOSE: [u8; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];
        let mask = self
            .b
            .func
            .dfg
            .immediates
            .push(cranelift_codegen::ir::ConstantData::from(
                TRANSPOSE.to_vec(),
            ));
        let transpose = |e: &mut Self, v: Value| -> Value {
            let bv = e.b.ins().bitcast(I8X16, lanes_le(), v);
            e.b.ins().shuffle(bv, bv, mask)
        };
        let mut s8: [Option<Value>; 4] = [None; 4];
        let mut conv = |e: &mut Self, i: usize| -> Value {
            *s8[i].get_or_insert_with(|| e.unorm8_bits(src[i]))
        };
        let mut s1_8: [Option<Value>; 4] = [None; 4];
        let mut conv1 = |e: &mut Self, i: usize| -> Value {
            let s1 = src1.expect("`color` loads the second colour when a factor reads it");
            *s1_8[i].get_or_insert_with(|| e.unorm8_bits(s1[i]))
        };
        let pair = |e: &mut Self, a: Value, b: Value| -> Value {
            let (a, b) = (e.iview(a), e.iview(b));
            e.b.ins().unarrow(a, b)
        };
        let s_pairs = |e: &mut Self, conv: &mut dyn FnMut(&mut Self, usize) -> Value| {
            let (r, g) = (conv(e, 0), conv(e, 1));
            let (b, a) = (conv(e, 2), conv(e, 3));
            [pair(e, r, g), pair(e, b, a)]
        };
        let result = match c.blend {
            None => s_pairs(self, &mut conv),
            Some(bk) => {
                let bytes = transpose(self, word);
                let d_pairs = [
                    self.b.ins().uwiden_low(bytes),
                    self.b.ins().uwiden_high(bytes),
                ];
                let eq = bk.eq[0];
                // The destination as 32-bit lanes per component, for factors that read it.
                let d: [Value; 4] = std::array::from_fn(|i| {
                    let p = d_pairs[i / 2];
                    let w = if i % 2 == 0 {
                        self.b.ins().uwiden_low(p)
                    } else {
                        self.b.ins().uwiden_high(p)
                    };
                    self.iview(w)
                });
                if eq == 3 || eq == 4 {
                    let s = s_pairs(self, &mut conv);
                    [0, 1].map(|k| {
                        if eq == 3 {
                            self.b.ins().umin(s[k], d_pairs[k])
                        } else {
                            self.b.ins().umax(s[k], d_pairs[k])
                        }
                    })
                } else if (0..4).all(|i| bk.src[i] == 1 && bk.dst[i] == 0) && eq == 0 {
                    s_pairs(self, &mut conv)
                } else {
                    let kbase = abi::FENV_BLEND_COLOR_UNORM8 + c.index as i32 * 16;
                    let (mut sf, mut df) = (Vec::with_capacity(4), Vec::with_capacity(4));
                    for i in 0..4 {
                        sf.push(self.factor8(bk.src[i], i, kbase, &d, &mut conv, &mut conv1));
                        df.push(self.factor8(bk.dst[i], i, kbase, &d, &mut conv, &mut conv1));
                    }
                    let s = s_pairs(self, &mut conv);
                    let hi = self.b.ins().iconst(types::I16, 255 * 255);
                    let hi = self.b.ins().splat(I16X8, hi);
                    [0, 1].map(|k| {
                        let (i, j) = (2 * k, 2 * k + 1);
                        let fs = pair(self, sf[i], sf[j]);
                        let fd = pair(self, df[i], df[j]);
                        let ps = self.b.ins().imul(s[k], fs);
                        let pd = self.b.ins().imul(d_pairs[k], fd);
                        let v = match eq {
                            0 => {
                                let sum = self.b.ins().uadd_sat(ps, pd);
                                self.b.ins().umin(sum, hi)
                            }
                            2 => self.b.ins().usub_sat(pd, ps),
                            _ => self.b.ins().usub_sat(ps, pd),
                        };
                        let k128 = self.b.ins().iconst(types::I16, 128);
                        let k128 = self.b.ins().splat(I16X8, k128);
                        let y = self.b.ins().iadd(v, k128);
                        let y8 = self.b.ins().ushr_imm_u(y, 8);
                        let z = self.b.ins().iadd(y, y8);
                        self.b.ins().ushr_imm_u(z, 8)
                    })
                }
            }
        };
        let bytes = self.b.ins().unarrow(result[0], result[1]);
        let texels = transpose(self, bytes);
        let texels = self.iview(texels);
        // Components the colour mask disables keep their stored bytes.
        let keep = (0..4)
            .filter(|&i| !c.mask[i])
            .fold(0u32, |k, i| k | 0xFF << (i * 8));
        if keep == 0 {
            texels
        } else {
            let kv = self.vconst([keep; 4]);
            self.b.ins().bitselect(kv, word, texels)
        }
    }

    /// `x0·y0 + x1·y1` per 32-bit lane of two vectors of 16-bit pairs (signed): written the
    /// way Cranelift's x86-64 backend folds into one `pmaddwd`.
    fn madd16(&mut self, x: Value, y: Value) -> Value {
        let xv = self.b.ins().bitcast(types::I16X8, lanes_le(), x);
        let yv = self.b.ins().bitcast(types::I16X8, lanes_le(), y);
        let xl = self.b.ins().swiden_low(xv);
        let yl = self.b.ins().swiden_low(yv);
        let lo = self.b.ins().imul(xl, yl);
        let xh = self.b.ins().swiden_high(xv);
        let yh = self.b.ins().swiden_high(yv);
        let hi = self.b.ins().imul(xh, yh);
        self.b.ins().iadd_pairwise(lo, hi)
    }

    /// `ops::div255` per lane (`x` in 0..=255²).
    fn div255(&mut self, x: Value) -> Value {
        let k = self.vconst([128; 4]);
        let y = self.b.ins().iadd(x, k);
        let y8 = self.b.ins().ushr_imm_u(y, 8);
        let z = self.b.ins().iadd(y, y8);
        self.b.ins().ushr_imm_u(z, 8)
    }

    /// The texel pointers of the quad's lanes in the image whose `FragQuad` lane pointers
    /// start at `quad_offset`, or whose `FragBlock` base pointer and stride are at
    /// `block_offsets`, with `bpp` bytes per texel.
    fn lane_ptrs(&mut self, quad_offset: i32, block_offsets: (i32, i32), bpp: i64) -> [Value; 4] {
        let m = mem();
        match self.place {
            Place::Quad => [0, 1, 2, 3].map(|l| {
                self.b
                    .ins()
                    .load(self.ptr, m, self.arg, quad_offset + l * 8)
            }),
            Place::Block { qx, qy } => {
                let base = self.b.ins().load(self.ptr, m, self.arg, block_offsets.0);
                let stride = self.b.ins().load(types::I64, m, self.arg, block_offsets.1);
                let p0 = if qy == 0 {
                    base
                } else {
                    let rows = self.b.ins().imul_imm_s(stride, qy);
                    self.b.ins().iadd(base, rows)
                };
                let p0 = self.b.ins().iadd_imm_s(p0, qx * bpp);
                let p1 = self.b.ins().iadd_imm_s(p0, bpp);
                let p2 = self.b.ins().iadd(p0, stride);
                let p3 = self.b.ins().iadd_imm_s(p2, bpp);
                [p0, p1, p2, p3]
            }
        }
    }

    fn join(&mut self, l: [Value; 4]) -> Value {
        let mut v = self.b.ins().scalar_to_vector(I32X4, l[0]);
        for (i, x) in l.iter().enumerate().skip(1) {
            v = self.b.ins().insertlane(v, *x, i as u8);
        }
        v
    }

    fn split(&mut self, v: Value) -> [Value; 4] {
        [0u8, 1, 2, 3].map(|i| self.b.ins().extractlane(v, i))
    }

    /// Loads a 32-bit word per lane (4-byte texels). In a block, lanes 0, 1 and lanes 2, 3
    /// are neighbours in a row: two 8-byte loads instead of four loads and inserts.
    fn load_words(&mut self, ptrs: [Value; 4], offset: i32) -> Value {
        let m = mem();
        if let Place::Block { .. } = self.place {
            let lo = self.b.ins().load(types::I64, m, ptrs[0], offset);
            let hi = self.b.ins().load(types::I64, m, ptrs[2], offset);
            let v = self.b.ins().scalar_to_vector(types::I64X2, lo);
            let v = self.b.ins().insertlane(v, hi, 1);
            return self.b.ins().bitcast(I32X4, lanes_le(), v);
        }
        let l = ptrs.map(|p| self.b.ins().load(types::I32, m, p, offset));
        self.join(l)
    }

    /// Stores a 32-bit word per lane (4-byte texels); two 8-byte stores in a block.
    fn store_words(&mut self, ptrs: [Value; 4], offset: i32, v: Value) {
        let m = mem();
        if let Place::Block { .. } = self.place {
            let w = self.b.ins().bitcast(types::I64X2, lanes_le(), v);
            let lo = self.b.ins().extractlane(w, 0);
            let hi = self.b.ins().extractlane(w, 1);
            self.b.ins().store(m, lo, ptrs[0], offset);
            self.b.ins().store(m, hi, ptrs[2], offset);
            return;
        }
        let l = self.split(v);
        for (p, x) in ptrs.iter().zip(l) {
            self.b.ins().store(m, x, *p, offset);
        }
    }

    /// The depth test of the lanes in `lanes` (GL 4.5 core §17.3.5, as `tile::depth_test`):
    /// returns the lanes that pass, and writes their depth when the key says so.
    fn depth_test(&mut self, d: DepthKey, z: Value, lanes: Value) -> Value {
        let ptrs = self.lane_ptrs(
            abi::QUAD_DEPTH,
            (abi::BLOCK_DEPTH, abi::BLOCK_DEPTH_STRIDE),
            4,
        );
        let words = self.load_words(ptrs, 0);
        let (cmp, new) = match d.format {
            DepthFormat::D24S8 => {
                let zs = self.saturate_for_d24(z);
                let frag = self.d24_bits(zs);
                let low = self.vconst([crate::sampler::format::DEPTH24_MAX; 4]);
                let stored = self.b.ins().band(words, low);
                // Both below 2^24: signed compares order them as the reference's u32.
                let cc = match d.func {
                    CompareFunc::Never => None,
                    CompareFunc::Less => Some(IntCC::SignedLessThan),
                    CompareFunc::Equal => Some(IntCC::Equal),
                    CompareFunc::Lequal => Some(IntCC::SignedLessThanOrEqual),
                    CompareFunc::Greater => Some(IntCC::SignedGreaterThan),
                    CompareFunc::Notequal => Some(IntCC::NotEqual),
                    CompareFunc::Gequal => Some(IntCC::SignedGreaterThanOrEqual),
                    CompareFunc::Always => None,
                };
                let cmp = match (d.func, cc) {
                    (_, Some(cc)) => self.b.ins().icmp(cc, frag, stored),
                    (CompareFunc::Never, None) => self.vconst([0; 4]),
                    _ => self.vconst([u32::MAX; 4]),
                };
                let stencil = self.b.ins().band_not(words, low);
                (cmp, self.b.ins().bor(stencil, frag))
            }
            DepthFormat::D32F => {
                // The stored bits keep the sign of a zero: the reference's saturate.
                let zs = self.saturate(z);
                let stored = self.fview(words);
                // Rust's float operators: `!=` is true for NaN (Cranelift's NotEqual is
                // unordered-or-unequal), the others false.
                let cc = match d.func {
                    CompareFunc::Less => Some(FloatCC::LessThan),
                    CompareFunc::Equal => Some(FloatCC::Equal),
                    CompareFunc::Lequal => Some(FloatCC::LessThanOrEqual),
                    CompareFunc::Greater => Some(FloatCC::GreaterThan),
                    CompareFunc::Notequal => Some(FloatCC::NotEqual),
                    CompareFunc::Gequal => Some(FloatCC::GreaterThanOrEqual),
                    CompareFunc::Never | CompareFunc::Always => None,
                };
                let cmp = match (d.func, cc) {
                    (_, Some(cc)) => self.b.ins().fcmp(cc, zs, stored),
                    (CompareFunc::Never, None) => self.vconst([0; 4]),
                    _ => self.vconst([u32::MAX; 4]),
                };
                (cmp, self.iview(zs))
            }
        };
        let pass = self.b.ins().band(cmp, lanes);
        if d.write {
            let out = self.b.ins().bitselect(pass, new, words);
            self.store_words(ptrs, 0, out);
        }
        pass
    }

    /// `a func b` per lane as a mask, for integers below 2^31 (signed compares order them
    /// as the reference's unsigned ones).
    fn int_compare(&mut self, func: CompareFunc, a: Value, b: Value) -> Value {
        let cc = match func {
            CompareFunc::Never => return self.vconst([0; 4]),
            CompareFunc::Always => return self.vconst([u32::MAX; 4]),
            CompareFunc::Less => IntCC::SignedLessThan,
            CompareFunc::Equal => IntCC::Equal,
            CompareFunc::Lequal => IntCC::SignedLessThanOrEqual,
            CompareFunc::Greater => IntCC::SignedGreaterThan,
            CompareFunc::Notequal => IntCC::NotEqual,
            CompareFunc::Gequal => IntCC::SignedGreaterThanOrEqual,
        };
        self.b.ins().icmp(cc, a, b)
    }

    /// `ops::stencil_op` per lane of the stored values `s` (0..=255, one per i32 lane).
    fn stencil_op(&mut self, op: StencilOp, s: Value, reference: Value) -> Value {
        let one = self.vconst([1; 4]);
        let ff = self.vconst([0xFF; 4]);
        match op {
            StencilOp::Keep => s,
            StencilOp::Zero => self.vconst([0; 4]),
            StencilOp::Replace => reference,
            StencilOp::Incr => {
                let t = self.b.ins().iadd(s, one);
                self.b.ins().umin(t, ff)
            }
            StencilOp::Decr => {
                let t = self.b.ins().umax(s, one);
                self.b.ins().isub(t, one)
            }
            StencilOp::Invert => self.b.ins().bxor(s, ff),
            StencilOp::IncrWrap => {
                let t = self.b.ins().iadd(s, one);
                self.b.ins().band(t, ff)
            }
            StencilOp::DecrWrap => {
                let t = self.b.ins().isub(s, one);
                self.b.ins().band(t, ff)
            }
        }
    }

    /// One face's stencil test and the value its operations give (before the write mask),
    /// for stored values `s`, depth results `dpass` and the face's `[ref & mask, mask, _,
    /// ref]` vectors.
    fn stencil_face(
        &mut self,
        fk: StencilFaceKey,
        s: Value,
        dpass: Value,
        p: [Value; 4],
    ) -> (Value, Value) {
        let sm = self.b.ins().band(s, p[1]);
        let spass = self.int_compare(fk.func, p[0], sm);
        let fail = self.stencil_op(fk.sfail, s, p[3]);
        let after = if fk.dpfail == fk.dppass {
            self.stencil_op(fk.dppass, s, p[3])
        } else {
            let zf = self.stencil_op(fk.dpfail, s, p[3]);
            let zp = self.stencil_op(fk.dppass, s, p[3]);
            self.b.ins().bitselect(dpass, zp, zf)
        };
        let new = if fk.sfail == fk.dpfail && fk.sfail == fk.dppass {
            fail
        } else {
            self.b.ins().bitselect(spass, after, fail)
        };
        (spass, new)
    }

    /// The stencil test, the depth test (when `depth` is given; D24S8) and the stencil
    /// operations of the lanes in `lanes`, exactly `ops::depth_stencil` per lane: returns the
    /// lanes that pass both tests, and stores every covered lane's new texel (stencil under
    /// the write mask, depth where it passed and the key writes it).
    fn depth_stencil_test(
        &mut self,
        depth: Option<DepthKey>,
        sk: StencilKey,
        z: Value,
        lanes: Value,
    ) -> Value {
        let m = mem();
        let ptrs = self.lane_ptrs(
            abi::QUAD_DEPTH,
            (abi::BLOCK_DEPTH, abi::BLOCK_DEPTH_STRIDE),
            4,
        );
        let words = self.load_words(ptrs, 0);
        let low = self.vconst([crate::sampler::format::DEPTH24_MAX; 4]);
        let stored_z = self.b.ins().band(words, low);
        let (dpass, frag) = match depth {
            Some(d) => {
                let zs = self.saturate_for_d24(z);
                let frag = self.d24_bits(zs);
                (self.int_compare(d.func, frag, stored_z), Some(frag))
            }
            None => (self.vconst([u32::MAX; 4]), None),
        };
        let s = self.b.ins().ushr_imm_u(words, 24);
        // The face's run-time values, picked by the triangle's facing once per quad.
        let front_at = match self.place {
            Place::Quad => abi::QUAD_FRONT,
            Place::Block { .. } => abi::BLOCK_FRONT,
        };
        let front = self.b.ins().load(types::I32, m, self.arg, front_at);
        let p: [Value; 4] = std::array::from_fn(|i| {
            let at = abi::FENV_STENCIL + i as i32 * 4;
            let f = self.b.ins().load(types::I32, m, self.fenv, at);
            let b = self.b.ins().load(types::I32, m, self.fenv, at + 16);
            let v = self.b.ins().select(front, f, b);
            self.b.ins().splat(I32X4, v)
        });
        let (spass, new) = if sk.front == sk.back {
            self.stencil_face(sk.front, s, dpass, p)
        } else {
            let fm = self.b.ins().splat(I32X4, front);
            let (sf, nf) = self.stencil_face(sk.front, s, dpass, p);
            let (sb, nb) = self.stencil_face(sk.back, s, dpass, p);
            (
                self.b.ins().bitselect(fm, sf, sb),
                self.b.ins().bitselect(fm, nf, nb),
            )
        };
        let both = self.b.ins().band(spass, dpass);
        let pass = self.b.ins().band(both, lanes);
        let writes_depth = depth.is_some_and(|d| d.write);
        if writes_depth || !(sk.front.keeps() && sk.back.keeps()) {
            // Bits the write mask leaves alone keep the stored value.
            let st = self.b.ins().bitselect(p[2], new, s);
            let st = self.b.ins().ishl_imm_u(st, 24);
            let zpart = match (frag, writes_depth) {
                (Some(f), true) => self.b.ins().bitselect(pass, f, stored_z),
                _ => stored_z,
            };
            let word = self.b.ins().bor(zpart, st);
            let out = self.b.ins().bitselect(lanes, word, words);
            self.store_words(ptrs, 0, out);
        }
        pass
    }

    /// Blending, pack, colour mask and store of one attachment for the lanes in `live`.
    fn color(&mut self, c: &ColorKey, outputs: Value, live: Value) {
        let m = mem();
        let (csize, ncomp) = layout(c.format);
        let ptrs = self.lane_ptrs(
            abi::QUAD_COLOR + c.index as i32 * 32,
            (
                abi::BLOCK_COLOR + c.index as i32 * 8,
                abi::BLOCK_COLOR_STRIDE + c.index as i32 * 8,
            ),
            c.format.bytes_per_texel() as i64,
        );
        // Integer attachments take the output words as integers (`ops::pack_int`).
        let src_ty = if c.format.is_integer() { I32X4 } else { F32X4 };
        let src: [Value; 4] = std::array::from_fn(|i| {
            self.b
                .ins()
                .load(src_ty, m, outputs, ((c.slot + i as u32) * 16) as i32)
        });
        if c.format == Format::Rgb10A2ui {
            self.color_rgb10a2ui(c, src, ptrs, live);
            return;
        }
        // The second source colour when a blend factor reads it (SRC1_*): the index-1
        // output's rows, or zeros when the shader has none.
        let src1 = c.blend.filter(blend_reads_src1).map(|_| -> [Value; 4] {
            match c.src1_slot {
                Some(row) => std::array::from_fn(|i| {
                    self.b
                        .ins()
                        .load(F32X4, m, outputs, ((row + i as u32) * 16) as i32)
                }),
                None => [0; 4].map(|_| self.splat_f(0.0)),
            }
        });
        let word_texel = c.format == Format::Rgba8 || c.format == Format::Srgb8Alpha8;
        // The stored bits of each component, one `i32x4` per component (zero-extended).
        let word = word_texel.then(|| self.load_words(ptrs, 0));
        let old: Vec<Value> = (0..ncomp)
            .map(|i| match word {
                Some(w) => {
                    let s = self.b.ins().ushr_imm_u(w, (i * 8) as i64);
                    let k = self.vconst([0xFF; 4]);
                    self.b.ins().band(s, k)
                }
                None => {
                    let off = (i as u32 * csize) as i32;
                    let l = ptrs.map(|p| match csize {
                        1 => self.b.ins().uload8(types::I32, m, p, off),
                        2 => self.b.ins().uload16(types::I32, m, p, off),
                        _ => self.b.ins().load(types::I32, m, p, off),
                    });
                    self.join(l)
                }
            })
            .collect();
        // Pack the components the mask enables.
        let enabled: Vec<usize> = (0..ncomp).filter(|&i| c.mask[i]).collect();
        let mut packed: [Option<Value>; 4] = [None; 4];
        if let (Some(w), true) = (word, pairs_apply(c)) {
            let new = self.color_rgba8_pairs(c, &src, src1, w);
            let out = self.b.ins().bitselect(live, new, w);
            self.store_words(ptrs, 0, out);
            return;
        }
        if let Format::Int(f) = c.format {
            // No blending (GL 4.5 core §17.3.6); each component clamped to the format's
            // range as `ops::pack_int` (`encode_int`) clamps it. Only the low bytes are
            // stored, so the logic op may see zero-extended destinations.
            for &i in &enabled {
                let s = self.clamp_int(f, src[i]);
                packed[i] = Some(match c.logic_op {
                    Some(op) => self.logic_op(op, s, old[i]),
                    None => s,
                });
            }
        } else if c.srgb {
            self.color_srgb(c, &src, src1, &old, &enabled, &mut packed);
        } else if let (true, Some(op)) = (is_unorm8(c.format), c.logic_op) {
            let k = self.vconst([0xFF; 4]);
            for &i in &enabled {
                let s = self.unorm8_bits(src[i]);
                let v = self.logic_op(op, s, old[i]);
                packed[i] = Some(self.b.ins().band(v, k));
            }
        } else if is_unorm8(c.format) {
            self.color_unorm8(c, &src, src1, &old, &enabled, &mut packed);
        } else {
            // Float formats ignore the logic op, which still turns blending off (§17.3.11).
            let color = match c.blend.filter(|_| c.logic_op.is_none()) {
                Some(bk) => {
                    let dst = self.unpack(c.format, &old);
                    self.blend(c, bk, src, src1, dst)
                }
                None => src,
            };
            if c.format == Format::Rgba16F {
                let base = self.b.ins().stack_addr(self.ptr, self.half_slot, 0);
                for &i in &enabled {
                    let v = self.iview(color[i]);
                    self.b.ins().store(m, v, base, (i * 16) as i32);
                }
                self.b.ins().call(self.to_half, &[base]);
                for &i in &enabled {
                    packed[i] = Some(self.b.ins().load(I32X4, m, base, (i * 16) as i32));
                }
            } else {
                for &i in &enabled {
                    packed[i] = Some(self.iview(color[i]));
                }
            }
        }
        match word {
            Some(w) => {
                // The bytes of masked components stay; the others are rebuilt from zero.
                let keep = (0..4)
                    .filter(|i| !enabled.contains(i))
                    .fold(0u32, |k, i| k | 0xFF << (i * 8));
                let mut new = if keep == 0 {
                    None
                } else {
                    let kv = self.vconst([keep; 4]);
                    Some(self.b.ins().band(w, kv))
                };
                for &i in &enabled {
                    let Some(p) = packed[i] else { continue };
                    let shifted = if i == 0 {
                        p
                    } else {
                        self.b.ins().ishl_imm_u(p, (i * 8) as i64)
                    };
                    new = Some(match new {
                        Some(n) => self.b.ins().bor(n, shifted),
                        None => shifted,
                    });
                }
                let new = new.unwrap_or(w);
                let out = self.b.ins().bitselect(live, new, w);
                self.store_words(ptrs, 0, out);
            }
            None => {
                for &i in &enabled {
                    let Some(p) = packed[i] else { continue };
                    let out = self.b.ins().bitselect(live, p, old[i]);
                    let l = self.split(out);
                    let off = (i as u32 * csize) as i32;
                    for (ptr, x) in ptrs.iter().zip(l) {
                        match csize {
                            1 => self.b.ins().istore8(m, x, *ptr, off),
                            2 => self.b.ins().istore16(m, x, *ptr, off),
                            _ => self.b.ins().store(m, x, *ptr, off),
                        };
                    }
                }
            }
        }
    }

    /// The RGB10_A2UI colour step (`ops::color_and_pack_dual`'s): the output integers
    /// clamped to their fields (1023, 1023, 1023, 3) and packed into one word (R in the low
    /// bits), the logic op on the packed word, the fields the colour mask disables kept; no
    /// blending (an integer format, GL 4.5 core §17.3.6).
    fn color_rgb10a2ui(&mut self, c: &ColorKey, src: [Value; 4], ptrs: [Value; 4], live: Value) {
        let old = self.load_words(ptrs, 0);
        let mut new: Option<Value> = None;
        let mut keep = 0u32;
        for (i, &s) in src.iter().enumerate() {
            let (shift, max) = if i == 3 { (30, 3u32) } else { (10 * i, 0x3FF) };
            // Disabled fields are packed too (the logic op sees them) and then replaced.
            if !c.mask[i] {
                keep |= max << shift;
            }
            let k = self.vconst([max; 4]);
            let v = self.b.ins().umin(s, k);
            let v = if shift == 0 {
                v
            } else {
                self.b.ins().ishl_imm_u(v, shift as i64)
            };
            new = Some(match new {
                Some(n) => self.b.ins().bor(n, v),
                None => v,
            });
        }
        let mut new = new.expect("four fields");
        if let Some(op) = c.logic_op {
            new = self.logic_op(op, new, old);
        }
        if keep != 0 {
            let kv = self.vconst([keep; 4]);
            new = self.b.ins().bitselect(kv, old, new);
        }
        let out = self.b.ins().bitselect(live, new, old);
        self.store_words(ptrs, 0, out);
    }

    /// `ops::logic_op` per lane: the sum of the minterms `op` selects.
    fn logic_op(&mut self, op: u8, s: Value, d: Value) -> Value {
        let ns = self.b.ins().bnot(s);
        let nd = self.b.ins().bnot(d);
        let mut out: Option<Value> = None;
        for (bit, x, y) in [(1u8, s, d), (2, s, nd), (4, ns, d), (8, ns, nd)] {
            if op & bit == 0 {
                continue;
            }
            let t = self.b.ins().band(x, y);
            out = Some(match out {
                Some(o) => self.b.ins().bor(o, t),
                None => t,
            });
        }
        out.unwrap_or_else(|| self.vconst([0; 4]))
    }

    /// The SRGB8_ALPHA8 colour step with GL_FRAMEBUFFER_SRGB on (`ops::color_and_pack`):
    /// `old` the four stored bytes; blending in f32 on the saturated source and the decoded
    /// destination (RGB through `rt_srgb8_to_linear`, alpha `a / 255`), then RGB encoded by
    /// `rt_linear_to_srgb8` and alpha by `unorm8_bits`, then the logic op if any.
    fn color_srgb(
        &mut self,
        c: &ColorKey,
        src: &[Value; 4],
        src1: Option<[Value; 4]>,
        old: &[Value],
        enabled: &[usize],
        packed: &mut [Option<Value>; 4],
    ) {
        let m = mem();
        let base = self.b.ins().stack_addr(self.ptr, self.half_slot, 0);
        let color = match c.blend.filter(|_| c.logic_op.is_none()) {
            Some(bk) => {
                for (i, v) in old.iter().enumerate().take(3) {
                    self.b.ins().store(m, *v, base, (i * 16) as i32);
                }
                self.b.ins().call(self.to_linear, &[base]);
                let mut d: [Value; 4] =
                    std::array::from_fn(|i| self.b.ins().load(F32X4, m, base, (i * 16) as i32));
                let a = self.b.ins().fcvt_from_uint(F32X4, old[3]);
                let k255 = self.splat_f(255.0);
                d[3] = self.b.ins().fdiv(a, k255);
                let d = d.map(|v| self.saturate(v));
                let s = src.map(|v| self.saturate(v));
                let s1 = src1.map(|s1| s1.map(|v| self.saturate(v)));
                self.blend(c, bk, s, s1, d)
            }
            None => *src,
        };
        for (i, c) in color.iter().enumerate().take(3) {
            let v = self.iview(*c);
            self.b.ins().store(m, v, base, (i * 16) as i32);
        }
        self.b.ins().call(self.to_srgb, &[base]);
        let k = self.vconst([0xFF; 4]);
        for &i in enabled {
            let s = if i < 3 {
                self.b.ins().load(I32X4, m, base, (i * 16) as i32)
            } else {
                self.unorm8_bits(color[3])
            };
            packed[i] = Some(match c.logic_op {
                Some(op) => {
                    let v = self.logic_op(op, s, old[i]);
                    self.b.ins().band(v, k)
                }
                None => s,
            });
        }
    }

    /// Integers (i32 or u32 lanes as `f` is signed) clamped to the range of `f`'s components;
    /// 32-bit components keep every value.
    fn clamp_int(&mut self, f: crate::sampler::IntFormat, v: Value) -> Value {
        if f.bytes >= 4 {
            return v;
        }
        let (lo, hi) = f.range();
        let hi = self.vconst([hi as u32; 4]);
        if f.signed {
            let lo = self.vconst([lo as i32 as u32; 4]);
            let v = self.b.ins().smin(v, hi);
            self.b.ins().smax(v, lo)
        } else {
            self.b.ins().umin(v, hi)
        }
    }

    /// `ops::unpack_color` of the stored component bits of a float format: RGBA floats,
    /// missing components (0, 0, 0, 1). (Unorm8 formats never leave integers:
    /// `color_unorm8`.)
    fn unpack(&mut self, format: Format, old: &[Value]) -> [Value; 4] {
        let mut out = [0.0f32, 0.0, 0.0, 1.0].map(|v| self.splat_f(v));
        if format == Format::Rgba16F {
            let m = mem();
            let base = self.b.ins().stack_addr(self.ptr, self.half_slot, 0);
            for (i, v) in old.iter().enumerate() {
                self.b.ins().store(m, *v, base, (i * 16) as i32);
            }
            self.b.ins().call(self.to_float, &[base]);
            for (i, o) in out.iter_mut().enumerate().take(old.len()) {
                *o = self.b.ins().load(F32X4, m, base, (i * 16) as i32);
            }
        } else {
            for (i, v) in old.iter().enumerate() {
                out[i] = self.fview(*v);
            }
        }
        out
    }

    /// `ops::PreparedBlend::apply` on 4 lanes for float formats (no clamping): the same
    /// factor table, operations and order.
    fn blend(
        &mut self,
        c: &ColorKey,
        bk: BlendKey,
        src: [Value; 4],
        src1: Option<[Value; 4]>,
        dst: [Value; 4],
    ) -> [Value; 4] {
        debug_assert!(!crate::sampler::format::is_unorm(c.format) || c.srgb);
        let (s, d) = (src, dst);
        let m = mem();
        let kbase = abi::FENV_BLEND_COLOR + c.index as i32 * 16;
        let mut out = s;
        for i in 0..4 {
            if !c.mask[i] {
                // Masked components are not stored: nothing to compute.
                continue;
            }
            let eq = bk.eq[i];
            if eq == 3 {
                out[i] = self.fmin(s[i], d[i]);
                continue;
            }
            if eq == 4 {
                out[i] = self.fmax(s[i], d[i]);
                continue;
            }
            let factor = |e: &mut Self, idx: u8| -> Value {
                let one = e.splat_f(1.0);
                let k = |e: &mut Self, j: usize| {
                    let x = e.b.ins().load(types::F32, m, e.fenv, kbase + j as i32 * 4);
                    e.b.ins().splat(F32X4, x)
                };
                match idx {
                    1 => one,
                    2 => s[i],
                    3 => e.b.ins().fsub(one, s[i]),
                    4 => d[i],
                    5 => e.b.ins().fsub(one, d[i]),
                    6 => s[3],
                    7 => e.b.ins().fsub(one, s[3]),
                    8 => d[3],
                    9 => e.b.ins().fsub(one, d[3]),
                    10 => k(e, i),
                    11 => {
                        let x = k(e, i);
                        e.b.ins().fsub(one, x)
                    }
                    12 => k(e, 3),
                    13 => {
                        let x = k(e, 3);
                        e.b.ins().fsub(one, x)
                    }
                    14 if i == 3 => one,
                    14 => {
                        let inv = e.b.ins().fsub(one, d[3]);
                        e.fmin(s[3], inv)
                    }
                    15..=18 => {
                        let s1 = src1.expect("`color` loads the second colour for SRC1_*");
                        let x = if idx < 17 { s1[i] } else { s1[3] };
                        if idx % 2 == 1 {
                            x
                        } else {
                            e.b.ins().fsub(one, x)
                        }
                    }
                    _ => e.splat_f(0.0),
                }
            };
            let sf = factor(self, bk.src[i]);
            let df = factor(self, bk.dst[i]);
            let a = self.b.ins().fmul(s[i], sf);
            let b = self.b.ins().fmul(d[i], df);
            out[i] = match eq {
                1 => self.b.ins().fsub(a, b),
                2 => self.b.ins().fsub(b, a),
                _ => self.b.ins().fadd(a, b),
            };
        }
        out
    }
}

/// Whether a factor of `bk` reads the second source colour (SRC1_*, dual-source blending).
/// Whether `V::color_rgba8_pairs` takes the colour step of `c`: an RGBA8 attachment (not
/// sRGB, no logic op), with blending off or one equation for all four components.
pub(super) fn pairs_apply(c: &ColorKey) -> bool {
    c.format == Format::Rgba8
        && !c.srgb
        && c.logic_op.is_none()
        && c.mask.iter().any(|&m| m)
        && c.blend
            .is_none_or(|bk| bk.eq.iter().all(|&e| e == bk.eq[0]))
}

fn blend_reads_src1(bk: &BlendKey) -> bool {
    bk.src
        .iter()
        .chain(&bk.dst)
        .any(|&f| f >= crate::gl::BlendFactor::Src1Color as u8)
}
