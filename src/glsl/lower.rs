//! Semantic checks and lowering, one pass: walks the AST, checks types, qualifiers and
//! version/extension rules, and emits the scalarized IR (`ir::Module`) at the same time.
//! Owns the lowering context, scopes, type resolution and the translation-unit walk.
//! Declarations and the interface live in `interface.rs`, statements and functions in
//! `stmt.rs`, places (lvalues, storage) in `place.rs`, expressions in `expr.rs`, built-in
//! functions in `builtins.rs`.

use std::collections::HashMap;
use std::rc::Rc;

use crate::ir::{
    self, BaseType, BuiltinOutput, Function, InterfaceVar, Label, Op, Scalar, ScalarKind, Stage,
    Stmt, UniformDecl, Var,
};

use super::ast::{self, Expr, External};
use super::builtin_constants::{self, ConstValue};
use super::consts::{self, CVal};
use super::diag::{Diagnostic, Span};
use super::preprocess::Profile;
use super::types::{builtin_type, BlockLayout, StructDef, Type};

/// Errors are pushed to `Lowerer::diags`; `Err(())` just unwinds to the statement.
pub type R<T> = Result<T, ()>;

/// Where a variable's words live.
#[derive(Clone, Debug)]
pub enum Root {
    /// IR vars, tightly laid out (locals, globals, params, inputs copied at entry, outputs).
    Vars(Rc<[Var]>),
    /// Default uniform block words from this base.
    Uniform(u32),
    /// Uniform block `block`, std140.
    Block { block: u32, row_major: bool },
    /// An instanced array of blocks: element k is block `first + k`.
    BlockArray { first: u32, row_major: bool },
    /// Shader storage block `block` (`Module::storage_blocks`), laid out by `layout`.
    Storage { block: u32, layout: BlockLayout },
    /// An instanced array of storage blocks: element k is storage block `first + k`.
    StorageArray { first: u32, layout: BlockLayout },
    /// Element `index` (a non-constant, dynamically uniform index) of such an array of
    /// `count` blocks: every access picks its block at run time (`storage.rs`).
    StorageOneOf {
        first: u32,
        count: u32,
        index: Var,
        layout: BlockLayout,
    },
}

#[derive(Clone, Debug)]
pub struct VarSym {
    pub ty: Type,
    pub root: Root,
    /// Byte (blocks) or word offset of the variable inside its root.
    pub base: u32,
    pub writable: bool,
    pub konst: Option<CVal>,
}

#[derive(Clone, Debug)]
pub enum Sym {
    Var(Rc<VarSym>),
    Struct(Rc<StructDef>),
}

/// A user function: its AST and checked signature.
pub struct FnDef {
    pub decl: Rc<ast::FunctionDecl>,
    pub params: Vec<(Type, ParamDir)>,
    pub ret: Type,
    /// The compilation unit that declared (or defined) it: its body is lowered with that
    /// unit's `#version` and `#extension` settings.
    pub unit: usize,
}

/// What `#version` and `#extension` decide for one compilation unit (each unit is
/// preprocessed on its own, GLSL 4.60 §3.3); the lowerer switches between them when it
/// lowers a function body of another unit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UnitFlags {
    pub version: u32,
    pub profile: Profile,
    pub bindless: bool,
    pub int64: bool,
    /// GL_ARB_gpu_shader_fp64 is on (doubles below GLSL 4.00).
    pub fp64: bool,
    pub explicit_location: bool,
    pub explicit_uniform_location: bool,
    pub arrays_of_arrays: bool,
    pub cull_distance: bool,
    pub viewport_array: bool,
    pub fragment_layer_viewport: bool,
    pub vertex_layer_viewport: [bool; 2],
    pub texture_gather: bool,
    pub texture_query_lod: bool,
    pub texture_query_levels: bool,
    pub shader_bit_encoding: bool,
    pub uniform_buffer_object: bool,
    pub shading_language_420pack: bool,
    pub atomic_counters: bool,
    pub atomic_counter_ops: bool,
    pub tessellation: bool,
    pub memory: MemoryExtensions,
}

/// The extensions that bring GLSL 4.20/4.30's memory features to earlier versions; each
/// field is true when the unit enables that extension (`#extension ... : enable`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryExtensions {
    /// GL_ARB_shader_storage_buffer_object: `buffer` blocks, their memory qualifiers and
    /// the atomic built-ins before GLSL 4.30.
    pub storage_buffer: bool,
    /// GL_ARB_compute_shader: the compute stage, `shared`, barrier() and the atomic
    /// built-ins on shared variables before GLSL 4.30.
    pub compute: bool,
    /// GL_ARB_shader_image_load_store: image types, memory qualifiers, the image built-ins
    /// but imageSize, memoryBarrier() before GLSL 4.20.
    pub image_load_store: bool,
    /// GL_ARB_shader_image_size: imageSize before GLSL 4.30.
    pub image_size: bool,
}

/// How a global name was first declared at link time, to check a redeclaration of it in
/// another compilation unit (GLSL 4.60 §4.3: same name, same type; same initializer).
#[derive(Clone, Debug)]
pub struct GlobalOrigin {
    pub unit: usize,
    /// The effective storage (`attribute`/`varying` mapped to `in`/`out`); `None` for plain
    /// globals. Struct types are recorded with `None` and `is_struct`.
    pub storage: Option<ast::Storage>,
    pub is_struct: bool,
    /// `None`: no initializer; `Some(v)`: an initializer, `v` its constant value if it has
    /// one.
    pub init: Option<Option<CVal>>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParamDir {
    In,
    Out,
    InOut,
}

/// The param vars (for copy-out) and the return value of an inlined call.
pub type Inlined = (Vec<Rc<[Var]>>, Option<Value>);

/// What `break` exits.
#[derive(Copy, Clone, Debug)]
pub enum BreakTarget {
    Loop(Label),
    Switch(Label),
}

/// An inlined call in progress.
pub struct CallFrame {
    pub name: String,
    pub label: Label,
    pub ret: Option<(Type, Rc<[Var]>)>,
}

/// A value: its type and its flattened words.
#[derive(Clone, Debug)]
pub struct Value {
    pub ty: Type,
    pub vars: Vec<Var>,
}

/// An output of the stage before slots are assigned.
pub struct PendingOutput {
    pub var: InterfaceVar,
    pub vars: Rc<[Var]>,
}

pub use super::limits::{MAX_INLINED_NESTING, MAX_TYPE_NESTING};

/// Inlining stops with an error past this many vars (a call tree can grow exponentially).
pub const MAX_VARS: usize = 1 << 21;

/// Extensions this front end implements (`#extension` with `require` on others fails): the
/// preprocessor's list, checked again here so the front end stays honest on its own.
const SUPPORTED_EXTENSIONS: &[&str] = crate::extensions::GLSL;

pub struct Lowerer {
    pub stage: Stage,
    pub version: u32,
    pub profile: Profile,
    pub bindless: bool,
    pub int64: bool,
    /// GL_ARB_gpu_shader_fp64 is on (doubles below GLSL 4.00).
    pub fp64: bool,
    pub explicit_location: bool,
    /// GL_ARB_explicit_uniform_location is on: `layout(location)` on subroutine uniforms
    /// and `layout(index)` on subroutine functions before GLSL 4.30.
    pub explicit_uniform_location: bool,
    /// GL_ARB_arrays_of_arrays is on: multi-dimensional arrays before GLSL 4.30.
    pub arrays_of_arrays: bool,
    /// GL_ARB_cull_distance is on: gl_CullDistance and its constants before GLSL 4.50.
    pub cull_distance: bool,
    /// GL_ARB_viewport_array is on: a geometry shader's gl_ViewportIndex and
    /// gl_MaxViewports before GLSL 4.10.
    pub viewport_array: bool,
    /// GL_ARB_fragment_layer_viewport is on: gl_Layer and gl_ViewportIndex as fragment
    /// inputs before GLSL 4.30.
    pub fragment_layer_viewport: bool,
    /// A vertex shader may write gl_Layer ([0]) and gl_ViewportIndex ([1]):
    /// GL_ARB_shader_viewport_layer_array (both), GL_AMD_vertex_shader_layer,
    /// GL_AMD_vertex_shader_viewport_index.
    pub vertex_layer_viewport: [bool; 2],
    /// GL_ARB_texture_gather is on: textureGather and textureGatherOffset (the forms that
    /// extension adds, without GLSL 4.00's component, shadow, rectangle and Offsets forms)
    /// before GLSL 4.00.
    pub texture_gather: bool,
    /// GL_ARB_texture_query_lod is on: textureQueryLOD (the extension's spelling of GLSL
    /// 4.00's textureQueryLod) in fragment shaders before GLSL 4.00.
    pub texture_query_lod: bool,
    /// GL_ARB_texture_query_levels is on: textureQueryLevels before GLSL 4.30.
    pub texture_query_levels: bool,
    /// GL_ARB_shader_bit_encoding is on: floatBitsToInt and its kin before GLSL 3.30.
    pub shader_bit_encoding: bool,
    /// GL_ARB_uniform_buffer_object is on: uniform blocks before GLSL 1.40.
    pub uniform_buffer_object: bool,
    /// GL_ARB_shading_language_420pack is on: GLSL 4.20's additions (swizzles of scalars)
    /// before 4.20.
    pub shading_language_420pack: bool,
    /// GL_ARB_shader_atomic_counters is on: `atomic_uint` before GLSL 4.20.
    pub atomic_counters: bool,
    /// GL_ARB_shader_atomic_counter_ops is on: atomicCounterAdd and the rest before 4.60.
    pub atomic_counter_ops: bool,
    /// Atomic counters (`atomic_counter.rs`): per binding point, the hidden storage block
    /// and the byte offset of the next counter declared without `offset`.
    pub atomic_counter_buffers: Vec<super::atomic_counter::CounterBuffer>,
    /// The counter arguments of the call being inlined, by parameter, and the counter
    /// parameters that alias an indexed counter (`atomic_counter.rs`).
    pub counter_args: Vec<Option<super::place::Place>>,
    pub counter_param_dyns: Vec<super::atomic_counter::CounterParam>,
    /// Lowering a GLSL 1.10 lookup named for its sampler type (texture1D, shadow2D, ...):
    /// the GLSL 1.30 form it becomes is allowed below 1.30.
    pub legacy_lookup: bool,
    pub diags: Vec<Diagnostic>,
    pub func: Function,
    /// The statement list being emitted into.
    pub cur: Vec<Stmt>,
    /// Runs first with every lane active: constants, inputs, built-in inputs.
    pub prologue: Vec<Stmt>,
    pub consts: HashMap<(u8, u32), Var>,
    pub scopes: Vec<HashMap<String, Sym>>,
    pub funcs: HashMap<String, Vec<Rc<FnDef>>>,
    pub next_label: u32,
    pub breaks: Vec<BreakTarget>,
    pub calls: Vec<CallFrame>,
    pub inputs: Vec<InterfaceVar>,
    pub next_input_slot: u32,
    pub outputs: Vec<PendingOutput>,
    pub uniforms: Vec<UniformDecl>,
    pub uniform_words: u32,
    pub blocks: Vec<ir::BlockDecl>,
    pub storage_blocks: Vec<ir::BlockDecl>,
    pub uses_discard: bool,
    pub writes_depth: bool,
    pub early_fragment_tests: bool,
    /// Compute: `layout(local_size_*) in;` once declared (`compute.rs`).
    pub local_size: Option<[u32; 3]>,
    /// Where that declaration is: gl_WorkGroupSize may not be used before it.
    pub local_size_at: Option<Span>,
    /// Compute: bytes of `shared` variables so far.
    pub shared_bytes: u32,
    /// Geometry: the layout qualifiers so far (`geometry.rs`).
    pub geometry: ir::geometry::GeometryLayout,
    /// Tessellation: the layout qualifiers and patch variables so far (`tess.rs`).
    pub tess: ir::tess::TessLayout,
    /// GL_ARB_tessellation_shader is on: the tessellation stages below GLSL 4.00.
    pub tessellation: bool,
    /// GL_ARB_shader_storage_buffer_object, GL_ARB_compute_shader,
    /// GL_ARB_shader_image_load_store and GL_ARB_shader_image_size (before 4.20/4.30).
    pub memory: MemoryExtensions,
    /// The `readonly` / `writeonly` members of the storage blocks (`storage.rs`).
    pub storage_member_access: Vec<super::storage::MemberAccess>,
    /// `layout(vertices = N) out;` has been lowered (the prescan may know N before).
    pub tess_vertices_declared: bool,
    /// Lowering `barrier();` at the top level of main, before any top-level `return`: the
    /// one place a tessellation control shader may call it (`tess.rs`).
    pub barrier_ok: bool,
    /// Geometry: sized input arrays declared before the input primitive (name, size,
    /// where), checked against it once it is known (GLSL 1.50 §4.3.4).
    pub geometry_sized_inputs: Vec<(String, u32, Span)>,
    /// Geometry: the vertex stream of outputs declared without `layout(stream = N)`: the
    /// last `layout(stream = N) out;` (GLSL 4.00 §4.3.8.2), or an output block's stream
    /// while its members are declared.
    pub geometry_stream: u32,
    /// Vertex and geometry: the transform feedback qualifiers so far (`xfb.rs`).
    pub xfb: ir::XfbDecls,
    /// The buffer of outputs declared without `xfb_buffer` (`layout(xfb_buffer = N)
    /// out;`, GLSL 4.40 §4.4.2.1).
    pub xfb_buffer: u32,
    /// While an output block's members are declared: its buffer, and the offset of the
    /// next member when the block has `xfb_offset` (`xfb.rs`).
    pub xfb_block: Option<(u32, Option<u32>)>,
    /// The layout of the first `in vec4 gl_FragCoord;` redeclaration:
    /// (origin_upper_left, pixel_center_integer); `None` until one is seen.
    pub frag_coord_layout: Option<(bool, bool)>,
    /// Where the first redeclaration of gl_FragCoord is.
    pub frag_coord_redeclared_at: Option<Span>,
    /// The size `out float gl_ClipDistance[n];` gave the array (GLSL 4.60 §7.1.1);
    /// `gl_MaxClipDistances` when it was not redeclared.
    pub clip_distance_len: Option<u32>,
    /// `in gl_PerVertex { ... } gl_in[];` of a geometry shader: the members it keeps, in
    /// order, at their declared sizes (per_vertex.rs); `None` for the whole built-in block.
    pub per_vertex_in: Option<Vec<(String, Type)>>,
    /// The size `out float gl_CullDistance[n];` (or `in` in a fragment shader) gave the
    /// array; when it was not redeclared, what gl_ClipDistance's size leaves of
    /// gl_MaxCombinedClipAndCullDistances.
    pub cull_distance_len: Option<u32>,
    /// The earliest use of gl_FragCoord in the source, wherever it was lowered (main is
    /// lowered after every other global, so "before any use" is checked at the end of
    /// `lower_unit`; `forget_since` does not undo this).
    pub frag_coord_first_use: Option<Span>,
    pub global_bindless: bool,
    pub global_bound: bool,
    /// `layout(bindless_image) uniform;` / `layout(bound_image) uniform;` (the image
    /// uniforms' defaults, apart from the samplers').
    pub global_bindless_image: bool,
    pub global_bound_image: bool,
    /// First use of gl_FragColor or gl_FragData: (name, span).
    pub used_frag_color: Option<(String, Span)>,
    pub user_frag_output: Option<Span>,
    /// Set while checking a function body that is not being inlined (diagnostics only).
    pub dry_run: bool,
    /// Inlining hit `MAX_VARS`; every later call fails fast.
    pub too_large: bool,
    /// Statements, expressions and IR bodies open now, through inlined calls
    /// (`limits::MAX_INLINED_NESTING`).
    pub nesting: u32,
    /// Where the innermost open statement or expression is (for `collect`'s error).
    pub nesting_span: Span,
    /// The nesting error was reported (once is enough).
    pub nesting_reported: bool,
    /// Lowering the units of a stage together at link time: a call to a function defined in
    /// no unit, or a missing `main`, is an error. When false (compiling one unit) both are
    /// left for the link (GLSL 4.60 §2.1): the unit compiles, without a module.
    pub linking: bool,
    /// The unit being lowered (index into `units`).
    pub unit: usize,
    /// Each unit's `#version`/`#extension` settings.
    pub units: Vec<UnitFlags>,
    /// Functions called but not defined in this unit (compiling one unit only).
    pub unresolved: Vec<String>,
    /// Whether a `main` definition was seen.
    pub has_main: bool,
    /// Where each global name was declared, to merge redeclarations across units.
    pub globals: HashMap<String, GlobalOrigin>,
    /// Uniform block name → its instance name, for blocks declared when lowering several
    /// units.
    pub block_instances: HashMap<String, Option<String>>,
    /// When lowering several units: which units declare each function signature (name →
    /// (parameter types, unit)). A call sees only what its own unit declares, as it did
    /// when that unit compiled (GLSL 4.60 §6.1: a function must be declared before use).
    pub fn_units: HashMap<String, Vec<(Vec<Type>, usize)>>,
    /// Subroutine types, functions and uniforms so far (`subroutine.rs`).
    pub subroutines: super::subroutine::Subroutines,
}

/// Reports an error and returns `Err(())`.
#[macro_export]
macro_rules! bail {
    ($self:expr, $span:expr, $($fmt:tt)*) => {{
        $self.error($span, format!($($fmt)*));
        return Err(());
    }};
}
pub use bail;

/// Swizzle letters to component indices; all from one set (xyzw, rgba, stpq), at most 4.
pub fn swizzle_indices(s: &str) -> Option<Vec<u32>> {
    if s.is_empty() || s.len() > 4 {
        return None;
    }
    let sets = ["xyzw", "rgba", "stpq"];
    for set in sets {
        let idx: Option<Vec<u32>> = s.chars().map(|c| set.find(c).map(|i| i as u32)).collect();
        if let Some(v) = idx {
            return Some(v);
        }
    }
    None
}

impl Lowerer {
    pub fn new(stage: Stage, version: u32, profile: Profile) -> Self {
        Lowerer {
            stage,
            version,
            profile,
            bindless: false,
            int64: false,
            fp64: false,
            explicit_location: false,
            explicit_uniform_location: false,
            arrays_of_arrays: false,
            cull_distance: false,
            viewport_array: false,
            fragment_layer_viewport: false,
            vertex_layer_viewport: [false; 2],
            texture_gather: false,
            texture_query_lod: false,
            texture_query_levels: false,
            shader_bit_encoding: false,
            uniform_buffer_object: false,
            shading_language_420pack: false,
            atomic_counters: false,
            atomic_counter_ops: false,
            atomic_counter_buffers: Vec::new(),
            counter_args: Vec::new(),
            counter_param_dyns: Vec::new(),
            legacy_lookup: false,
            diags: Vec::new(),
            func: Function::default(),
            cur: Vec::new(),
            prologue: Vec::new(),
            consts: HashMap::new(),
            scopes: vec![HashMap::new()],
            funcs: HashMap::new(),
            next_label: 0,
            breaks: Vec::new(),
            calls: Vec::new(),
            inputs: Vec::new(),
            next_input_slot: 0,
            outputs: Vec::new(),
            uniforms: Vec::new(),
            uniform_words: 0,
            blocks: Vec::new(),
            storage_blocks: Vec::new(),
            uses_discard: false,
            writes_depth: false,
            early_fragment_tests: false,
            local_size: None,
            local_size_at: None,
            shared_bytes: 0,
            geometry: Default::default(),
            tess: Default::default(),
            tessellation: false,
            memory: MemoryExtensions::default(),
            storage_member_access: Vec::new(),
            tess_vertices_declared: false,
            barrier_ok: false,
            geometry_sized_inputs: Vec::new(),
            geometry_stream: 0,
            xfb: Default::default(),
            xfb_buffer: 0,
            xfb_block: None,
            frag_coord_layout: None,
            frag_coord_redeclared_at: None,
            clip_distance_len: None,
            per_vertex_in: None,
            cull_distance_len: None,
            frag_coord_first_use: None,
            global_bindless: false,
            global_bound: false,
            global_bindless_image: false,
            global_bound_image: false,
            used_frag_color: None,
            user_frag_output: None,
            dry_run: false,
            too_large: false,
            nesting: 0,
            nesting_span: Span::default(),
            nesting_reported: false,
            linking: false,
            unit: 0,
            units: Vec::new(),
            unresolved: Vec::new(),
            has_main: false,
            globals: HashMap::new(),
            block_instances: HashMap::new(),
            fn_units: HashMap::new(),
            subroutines: Default::default(),
        }
    }

    /// The settings now in effect.
    pub fn flags(&self) -> UnitFlags {
        UnitFlags {
            version: self.version,
            profile: self.profile,
            bindless: self.bindless,
            int64: self.int64,
            fp64: self.fp64,
            explicit_location: self.explicit_location,
            explicit_uniform_location: self.explicit_uniform_location,
            arrays_of_arrays: self.arrays_of_arrays,
            cull_distance: self.cull_distance,
            viewport_array: self.viewport_array,
            fragment_layer_viewport: self.fragment_layer_viewport,
            vertex_layer_viewport: self.vertex_layer_viewport,
            texture_gather: self.texture_gather,
            texture_query_lod: self.texture_query_lod,
            texture_query_levels: self.texture_query_levels,
            shader_bit_encoding: self.shader_bit_encoding,
            uniform_buffer_object: self.uniform_buffer_object,
            shading_language_420pack: self.shading_language_420pack,
            atomic_counters: self.atomic_counters,
            atomic_counter_ops: self.atomic_counter_ops,
            tessellation: self.tessellation,
            memory: self.memory,
        }
    }

    /// Switches to unit `k`'s settings; returns the unit that was current.
    pub fn enter_unit(&mut self, k: usize) -> usize {
        let prev = self.unit;
        if let Some(f) = self.units.get(k).copied() {
            self.unit = k;
            self.version = f.version;
            self.profile = f.profile;
            self.bindless = f.bindless;
            self.int64 = f.int64;
            self.fp64 = f.fp64;
            self.explicit_location = f.explicit_location;
            self.explicit_uniform_location = f.explicit_uniform_location;
            self.arrays_of_arrays = f.arrays_of_arrays;
            self.cull_distance = f.cull_distance;
            self.viewport_array = f.viewport_array;
            self.fragment_layer_viewport = f.fragment_layer_viewport;
            self.vertex_layer_viewport = f.vertex_layer_viewport;
            self.texture_gather = f.texture_gather;
            self.texture_query_lod = f.texture_query_lod;
            self.texture_query_levels = f.texture_query_levels;
            self.shader_bit_encoding = f.shader_bit_encoding;
            self.uniform_buffer_object = f.uniform_buffer_object;
            self.shading_language_420pack = f.shading_language_420pack;
            self.atomic_counters = f.atomic_counters;
            self.atomic_counter_ops = f.atomic_counter_ops;
            self.tessellation = f.tessellation;
            self.memory = f.memory;
        }
        prev
    }

    pub fn error(&mut self, span: Span, msg: String) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    /// Applies `#extension` directives (GLSL 4.60 §3.3).
    pub fn set_extensions(
        &mut self,
        exts: &[(String, super::preprocess::ExtBehavior, Span)],
    ) -> (bool, bool) {
        use super::preprocess::ExtBehavior as B;
        for (name, beh, span) in exts {
            let on = matches!(beh, B::Enable | B::Require | B::Warn);
            if name == "all" {
                if matches!(beh, B::Enable | B::Require) {
                    self.error(
                        *span,
                        "cannot enable or require all extensions; use warn or disable".to_string(),
                    );
                }
                continue;
            }
            if !SUPPORTED_EXTENSIONS.contains(&name.as_str()) {
                // The preprocessor warns about `enable`/`warn` of these already.
                if *beh == B::Require {
                    self.error(*span, format!("extension `{name}' unsupported"));
                }
                continue;
            }
            match name.as_str() {
                "GL_ARB_bindless_texture" => self.bindless = on,
                "GL_ARB_arrays_of_arrays" => self.arrays_of_arrays = on,
                "GL_ARB_cull_distance" => self.cull_distance = on,
                "GL_ARB_viewport_array" => self.viewport_array = on,
                "GL_ARB_fragment_layer_viewport" => self.fragment_layer_viewport = on,
                "GL_ARB_shader_viewport_layer_array" => self.vertex_layer_viewport = [on; 2],
                "GL_AMD_vertex_shader_layer" => self.vertex_layer_viewport[0] = on,
                "GL_AMD_vertex_shader_viewport_index" => self.vertex_layer_viewport[1] = on,
                "GL_ARB_texture_gather" => self.texture_gather = on,
                "GL_ARB_texture_query_lod" => self.texture_query_lod = on,
                "GL_ARB_texture_query_levels" => self.texture_query_levels = on,
                "GL_ARB_shader_bit_encoding" => self.shader_bit_encoding = on,
                "GL_ARB_uniform_buffer_object" => self.uniform_buffer_object = on,
                "GL_ARB_shading_language_420pack" => self.shading_language_420pack = on,
                "GL_ARB_shader_atomic_counters" => self.atomic_counters = on,
                "GL_ARB_shader_atomic_counter_ops" => self.atomic_counter_ops = on,
                "GL_ARB_tessellation_shader" => self.tessellation = on,
                "GL_ARB_shader_storage_buffer_object" => self.memory.storage_buffer = on,
                "GL_ARB_compute_shader" => self.memory.compute = on,
                "GL_ARB_shader_image_load_store" => self.memory.image_load_store = on,
                "GL_ARB_shader_image_size" => self.memory.image_size = on,
                "GL_ARB_gpu_shader_int64" => self.int64 = on,
                "GL_ARB_gpu_shader_fp64" => self.fp64 = on,
                "GL_ARB_explicit_attrib_location" | "GL_ARB_separate_shader_objects" => {
                    self.explicit_location = on
                }
                "GL_ARB_explicit_uniform_location" => self.explicit_uniform_location = on,
                _ => {}
            }
        }
        (self.bindless, self.int64)
    }

    // ---- vars, constants, labels ----

    pub fn new_var(&mut self, k: ScalarKind) -> Var {
        let v = Var(self.func.vars.len() as u32);
        self.func.vars.push(k);
        v
    }
    pub fn kind_of(&self, v: Var) -> ScalarKind {
        self.func
            .vars
            .get(v.0 as usize)
            .copied()
            .unwrap_or(ScalarKind::F32)
    }
    pub fn new_vars_for(&mut self, ty: &Type) -> Vec<Var> {
        let mut kinds = Vec::new();
        ty.word_kinds(&mut kinds);
        kinds.into_iter().map(|k| self.new_var(k)).collect()
    }
    pub fn emit(&mut self, s: Stmt) {
        self.cur.push(s);
    }
    pub fn assign(&mut self, k: ScalarKind, op: Op) -> Var {
        let v = self.new_var(k);
        self.emit(Stmt::Assign { dst: v, op });
        v
    }
    /// A var holding the constant in every lane (assigned in the prologue).
    pub fn konst(&mut self, s: Scalar) -> Var {
        let key = (s.kind() as u8, s.bits());
        if let Some(v) = self.consts.get(&key) {
            return *v;
        }
        let v = self.new_var(s.kind());
        self.prologue.push(Stmt::Assign {
            dst: v,
            op: Op::Const(s),
        });
        self.consts.insert(key, v);
        v
    }
    pub fn new_label(&mut self) -> Label {
        self.next_label += 1;
        Label(self.next_label - 1)
    }
    /// Runs `f` emitting into a fresh list and returns that list.
    pub fn collect(&mut self, f: impl FnOnce(&mut Self) -> R<()>) -> (Vec<Stmt>, R<()>) {
        // A nested IR body: one level of `limits::MAX_INLINED_NESTING` (the IR's nesting is
        // what the validator, the shader cache and the JIT recurse over).
        if self.enter_nesting(self.nesting_span).is_err() {
            return (Vec::new(), Err(()));
        }
        let saved = std::mem::take(&mut self.cur);
        let r = f(self);
        let body = std::mem::replace(&mut self.cur, saved);
        self.leave_nesting();
        (body, r)
    }

    /// One more level of nesting after inlining (`limits::MAX_INLINED_NESTING`); an error
    /// at `span` past the limit. `leave_nesting` undoes it.
    pub fn enter_nesting(&mut self, span: Span) -> R<()> {
        if self.nesting >= MAX_INLINED_NESTING {
            if !self.nesting_reported {
                self.nesting_reported = true;
                self.error(
                    span,
                    format!(
                        "shader nested too deeply after inlining function calls: more than {MAX_INLINED_NESTING} levels (softgl's inlined nesting limit)"
                    ),
                );
            }
            return Err(());
        }
        self.nesting += 1;
        self.nesting_span = span;
        Ok(())
    }
    pub fn leave_nesting(&mut self) {
        self.nesting = self.nesting.saturating_sub(1);
    }

    // ---- scopes ----

    pub fn lookup(&mut self, name: &str) -> Option<Sym> {
        for s in self.scopes.iter().rev() {
            if let Some(sym) = s.get(name) {
                return Some(sym.clone());
            }
        }
        if name.starts_with("gl_") {
            return self.builtin_var(name);
        }
        None
    }
    /// The built-in constants of GLSL 4.60 §7.3 that softgl declares: the clip and cull
    /// distance limits (GL 4.5 core table 23.53's minimums, as `api::context::limits`).
    /// A built-in constant (GLSL 4.60 §7.3, `builtin_constants.rs`) as this shader's
    /// version and extensions see it.
    pub fn builtin_const(&self, name: &str) -> Option<CVal> {
        let cull = self.cull_distance;
        let viewports = self.viewport_array;
        let counters = self.atomic_counters;
        let tessellation = self.tessellation;
        let memory = self.memory;
        let extra = |n: &str| {
            // GL_ARB_shader_atomic_counters brings GLSL 4.20's counter limits (not the
            // compute ones of 4.30).
            (counters && n.contains("AtomicCounter") && !n.contains("Compute"))
                || (tessellation && (n.starts_with("gl_MaxTess") || n == "gl_MaxPatchVertices"))
                || (cull
                    && matches!(
                        n,
                        "gl_MaxCullDistances" | "gl_MaxCombinedClipAndCullDistances"
                    ))
                || (viewports && n == "gl_MaxViewports")
                // GL_ARB_compute_shader and GL_ARB_shader_image_load_store bring their
                // limits (GLSL 4.30 and 4.20's) to earlier versions.
                || (memory.compute && n.starts_with("gl_MaxCompute"))
                || (memory.image_load_store
                    && !n.contains("Compute")
                    && (n.ends_with("ImageUniforms")
                        || matches!(
                            n,
                            "gl_MaxImageUnits"
                                | "gl_MaxCombinedImageUnitsAndFragmentOutputs"
                                | "gl_MaxImageSamples"
                        )))
        };
        Some(
            match builtin_constants::lookup(name, self.version, &extra)? {
                ConstValue::Int(n) => CVal::scalar(ir::Scalar::I32(n)),
                ConstValue::Ivec3(v) => CVal {
                    ty: Type::vector(BaseType::Int, 3),
                    vals: v.iter().map(|&n| ir::Scalar::I32(n)).collect(),
                },
            },
        )
    }
    pub fn lookup_const(&self, name: &str) -> Option<CVal> {
        for s in self.scopes.iter().rev() {
            if let Some(sym) = s.get(name) {
                return match sym {
                    Sym::Var(v) => v.konst.clone(),
                    Sym::Struct(_) => None,
                };
            }
        }
        self.builtin_const(name)
    }
    /// The struct type `name` declares in scope, if it names one.
    pub fn lookup_struct(&self, name: &str) -> Option<Rc<StructDef>> {
        match self.scopes.iter().rev().find_map(|s| s.get(name))? {
            Sym::Struct(s) => Some(s.clone()),
            Sym::Var(_) => None,
        }
    }
    pub fn lookup_array_len(&self, name: &str) -> Option<u32> {
        for s in self.scopes.iter().rev() {
            if let Some(Sym::Var(v)) = s.get(name) {
                return match v.ty {
                    Type::Array(_, n) => Some(n),
                    _ => None,
                };
            }
        }
        // A redeclared distance array has its size before its first use declares it.
        match name {
            "gl_ClipDistance" => self.clip_distance_len,
            "gl_CullDistance" => self.cull_distance_len,
            "gl_in" if self.stage == Stage::Geometry => self.geometry.input.map(|p| p.vertices()),
            "gl_in" if self.is_tess() => Some(ir::tess::MAX_PATCH_VERTICES),
            // Only once `layout(vertices = N) out;` has been lowered (piglit's
            // gl_out-length-before-declared), though the prescan knows N earlier.
            "gl_out" if self.stage == Stage::TessControl && self.tess_vertices_declared => {
                self.tess.vertices
            }
            _ => None,
        }
    }
    pub fn const_eval(&self, e: &Expr) -> Option<CVal> {
        consts::eval(
            e,
            &|n| self.lookup_const(n),
            &|n| self.lookup_array_len(n),
            &|n| self.lookup_struct(n),
            0,
        )
    }
    pub fn declare(&mut self, name: &str, span: Span, sym: Sym) -> R<()> {
        if name.starts_with("gl_") {
            bail!(self, span, "identifier `{name}' uses reserved `gl_' prefix");
        }
        let top = self.scopes.len() - 1;
        let global = top == 0;
        // A function's parameters and its body share one scope (GLSL 4.60 §4.2.2).
        if self.scopes[top].contains_key(name) {
            bail!(self, span, "`{name}' redeclared");
        }
        if global && self.funcs.contains_key(name) && matches!(sym, Sym::Var(_)) {
            bail!(self, span, "`{name}' redeclared (it names a function)");
        }
        self.scopes[top].insert(name.to_string(), sym);
        Ok(())
    }

    // ---- types ----

    /// Resolves a written type (without declarator dims).
    pub fn resolve_type(&mut self, ts: &ast::TypeSpec) -> R<Type> {
        let base = if let Some(sd) = &ts.struct_def {
            let def = self.declare_struct(sd)?;
            Type::Struct(def)
        } else if let Some(t) = builtin_type(&ts.name) {
            match t {
                Ok(t) => t,
                Err(msg) => bail!(self, ts.span, "{msg}"),
            }
        } else {
            match self.lookup(&ts.name) {
                Some(Sym::Struct(s)) => Type::Struct(s),
                _ => bail!(self, ts.span, "unknown type `{}'", ts.name),
            }
        };
        if let Type::Basic(v) = base {
            if v.base == BaseType::Uint64 && !self.int64 {
                bail!(
                    self,
                    ts.span,
                    "`{}' requires GL_ARB_gpu_shader_int64",
                    ts.name
                );
            }
        }
        self.apply_dims(base, &ts.dims, None, ts.span)
    }

    /// Wraps `base` in array dimensions; an unsized outer dimension takes `unsized_len`.
    pub fn apply_dims(
        &mut self,
        base: Type,
        dims: &[Option<Expr>],
        unsized_len: Option<u32>,
        span: Span,
    ) -> R<Type> {
        // Deep types would make every layout walk recurse deeply (and are never useful).
        if dims.len() as u32 + base.nesting() > MAX_TYPE_NESTING {
            bail!(
                self,
                span,
                "type is nested too deeply: more than {MAX_TYPE_NESTING} arrays and structs (softgl's type nesting limit)"
            );
        }
        // GLSL 4.30 folded GL_ARB_arrays_of_arrays in; before it the extension allows
        // them (the extension's own minimum is GLSL 1.20).
        if dims.len() > 1 && self.version < 430 && !self.arrays_of_arrays {
            bail!(
                self,
                span,
                "arrays of arrays require GLSL 4.30 or GL_ARB_arrays_of_arrays"
            );
        }
        let mut t = base;
        for (i, d) in dims.iter().enumerate().rev() {
            let n = match d {
                Some(e) => self.array_size(e)?,
                None => match (i, unsized_len) {
                    (0, Some(n)) => n,
                    _ => bail!(self, span, "array size must be given (unsized array)"),
                },
            };
            if matches!(t, Type::Void) {
                bail!(self, span, "array of void");
            }
            t = Type::Array(Box::new(t), n);
        }
        if t.words() > 1 << 20 {
            bail!(self, span, "type is too large");
        }
        Ok(t)
    }

    pub fn array_size(&mut self, e: &Expr) -> R<u32> {
        let folded = match self.const_eval(e) {
            Some(c) => Some(c),
            None => self.const_eval_lowered(e),
        };
        match folded.and_then(|c| c.as_index()) {
            Some(n) if n > 0 && n <= 1 << 16 => Ok(n as u32),
            Some(_) => bail!(self, e.span, "array size must be greater than zero"),
            None => bail!(
                self,
                e.span,
                "array size must be a constant valued expression"
            ),
        }
    }

    /// A constant expression `consts::eval` does not fold — built-in calls other than
    /// min/max/clamp/abs, and anything involving doubles (GLSL 4.60 §4.3.3 makes every
    /// built-in call on constant arguments constant, except texture lookups) — folded by
    /// lowering it into a scratch list that is never emitted and evaluating that with
    /// `ir::fold::eval_constant`, i.e. with the ops the shader would run. Only expressions
    /// made of literals, `const` variables `consts::eval` knows, operators, constructors,
    /// indexing, fields, `.length()` and built-in calls qualify; `None` otherwise. A 32-bit
    /// basic-typed result only (what array sizes need).
    fn const_eval_lowered(&mut self, e: &Expr) -> Option<CVal> {
        if !self.constant_shaped(e, 0) {
            return None;
        }
        let mut value = None;
        let diags = self.diags.len();
        let (body, r) = self.collect(|s| {
            value = Some(s.expr(e)?);
            Ok(())
        });
        if r.is_err() {
            // Not a valid expression: `array_size` reports it as non-constant; drop the
            // lowering's own diagnostics so the one error is about the array size.
            self.diags.truncate(diags);
            return None;
        }
        let value = value?;
        let b = value.ty.basic()?;
        let kind = match b.base {
            BaseType::Int => ScalarKind::I32,
            BaseType::Uint => ScalarKind::U32,
            BaseType::Bool => ScalarKind::Bool,
            BaseType::Float => ScalarKind::F32,
            _ => return None,
        };
        let mut all = self.prologue.clone();
        all.extend(body);
        let words = ir::fold::eval_constant(&self.func.vars, &all, &value.vars)?;
        let vals = words
            .into_iter()
            .map(|w| match kind {
                ScalarKind::I32 => Scalar::I32(w as i32),
                ScalarKind::U32 => Scalar::U32(w),
                ScalarKind::Bool => Scalar::Bool(w != 0),
                _ => Scalar::F32(f32::from_bits(w)),
            })
            .collect();
        Some(CVal { ty: value.ty, vals })
    }

    /// Whether `e` has the shape of a constant expression (`const_eval_lowered`).
    pub(super) fn constant_shaped(&self, e: &Expr, depth: u32) -> bool {
        use ast::ExprKind as K;
        if depth > super::limits::MAX_EXPRESSION_NESTING {
            return false;
        }
        let sub = |x: &Expr| self.constant_shaped(x, depth + 1);
        match &e.kind {
            K::Int(_) | K::Uint(_) | K::Uint64(_) | K::Float(_) | K::Double(_) | K::Bool(_) => true,
            K::Ident(n) => self.lookup_const(n).is_some(),
            K::Unary(_, a) | K::Length(a) | K::Field(a, _) => sub(a),
            K::Binary(_, a, b) | K::Index(a, b) => sub(a) && sub(b),
            K::Ternary(c, a, b) => sub(c) && sub(a) && sub(b),
            K::Call(ast::Callee::Type(_), args) | K::InitList(args) => args.iter().all(sub),
            K::Call(ast::Callee::Name(n), args) => {
                let user_fn = self.funcs.contains_key(n.as_str());
                let struct_ctor = self
                    .scopes
                    .iter()
                    .rev()
                    .find_map(|s| s.get(n.as_str()))
                    .is_some_and(|s| matches!(s, Sym::Struct(_)));
                (struct_ctor || !user_fn) && args.iter().all(sub)
            }
            _ => false,
        }
    }

    pub fn declare_struct(&mut self, sd: &ast::StructDecl) -> R<Rc<StructDef>> {
        let mut members: Vec<(String, Type)> = Vec::new();
        for m in &sd.members {
            let mt = self.resolve_type(&m.ty)?;
            if matches!(mt, Type::Void) {
                bail!(self, m.ty.span, "struct member cannot be void");
            }
            // An image member carries its format and memory qualifiers in its type, as an
            // image uniform does (Mesa accepts them on struct members too); a struct holding
            // images can only be a uniform or a parameter.
            let mt = self.qualify_image_type(&mt, &m.quals, true, m.ty.span)?;
            for (n, dims, sp) in &m.names {
                let t = self.apply_dims(mt.clone(), dims, None, *sp)?;
                if members.iter().any(|(x, _)| x == n) {
                    bail!(self, *sp, "duplicate struct member `{n}'");
                }
                members.push((n.clone(), t));
            }
        }
        if members.is_empty() {
            bail!(self, sd.span, "empty struct");
        }
        if members.iter().any(|(_, t)| t.nesting() >= MAX_TYPE_NESTING) {
            bail!(
                self,
                sd.span,
                "type is nested too deeply: more than {MAX_TYPE_NESTING} arrays and structs (softgl's type nesting limit)"
            );
        }
        let def = Rc::new(StructDef {
            name: sd.name.clone().unwrap_or_else(|| "<anonymous>".to_string()),
            members,
        });
        if let Some(n) = &sd.name {
            let global = self.scopes.len() == 1;
            if global && self.globals.get(n).is_some_and(|g| g.unit != self.unit) {
                // An earlier compilation unit declared it: GLSL 4.60 §4.3 asks the same
                // type of a name shared by units.
                return match self.scopes[0].get(n) {
                    Some(Sym::Struct(s)) if **s == *def => Ok(s.clone()),
                    _ => bail!(
                        self,
                        sd.span,
                        "`{n}' is declared differently in different compilation units"
                    ),
                };
            }
            self.declare(n, sd.span, Sym::Struct(def.clone()))?;
            if global && self.units.len() > 1 {
                self.globals.insert(
                    n.clone(),
                    GlobalOrigin {
                        unit: self.unit,
                        storage: None,
                        is_struct: true,
                        init: None,
                    },
                );
            }
        }
        Ok(def)
    }

    // ---- translation unit ----

    /// Lowers one compilation unit (its settings are the lowerer's own).
    pub fn lower_unit(&mut self, unit: Vec<External>) {
        if self.units.is_empty() {
            self.units.push(self.flags());
        }
        self.lower_units(vec![unit]);
    }

    /// Lowers the units of one stage into one module (GLSL 4.60 §2.1): every unit's
    /// globals and functions in order, one shared global scope (a name declared again by
    /// a later unit is merged with the first declaration, `merge_global`), then `main`,
    /// which must be defined exactly once across the units. `self.units` holds each unit's
    /// settings. With one unit this is exactly the single-unit lowering.
    pub fn lower_units(&mut self, units: Vec<Vec<External>>) {
        if self.stage == Stage::Compute && self.version < 430 && !self.memory.compute {
            self.error(
                Span {
                    source: 0,
                    line: 1,
                    column: 1,
                },
                "compute shaders require GLSL 4.30 or GL_ARB_compute_shader".to_string(),
            );
        }
        if self.stage == Stage::Geometry && self.version < 150 {
            self.error(
                Span {
                    source: 0,
                    line: 1,
                    column: 1,
                },
                "geometry shaders require GLSL 1.50".to_string(),
            );
        }
        if self.is_tess() && !self.tess_available() {
            self.error(
                Span {
                    source: 0,
                    line: 1,
                    column: 1,
                },
                "tessellation shaders require GLSL 4.00 or GL_ARB_tessellation_shader".to_string(),
            );
        }
        if matches!(
            self.stage,
            Stage::Vertex | Stage::Geometry | Stage::TessEval
        ) {
            // Outputs always include gl_Position (module.rs).
            let _ = self.builtin_var("gl_Position");
        }
        self.prescan_geometry_input(&units);
        self.prescan_tess_vertices(&units);
        let mut main: Option<(Rc<ast::FunctionDecl>, usize)> = None;
        for (k, unit) in units.into_iter().enumerate() {
            self.enter_unit(k);
            for ext in unit {
                match ext {
                    External::Var(vd) if vd.quals.subroutine.is_some() => {
                        let _ = self.subroutine_uniform_decl(&vd);
                    }
                    External::Var(vd) => {
                        let _ = self.global_var(&vd);
                    }
                    External::Block(b) => {
                        let _ = self.uniform_block(&b);
                    }
                    External::Function(f) => {
                        let f = Rc::new(f);
                        if f.name == "main" {
                            if !f.params.is_empty() {
                                self.error(f.span, "main() cannot take parameters".to_string());
                            }
                            if f.ret.name != "void" || !f.ret.dims.is_empty() {
                                self.error(f.span, "main() must return void".to_string());
                            }
                            if f.body.is_some() {
                                if main.is_some() {
                                    self.error(f.span, "function `main' redefined".to_string());
                                }
                                main = Some((f, k));
                            }
                            continue;
                        }
                        let _ = self.function_decl(f);
                    }
                    External::Qualifiers(q, names) => {
                        let _ = self.global_qualifiers(&q, &names);
                    }
                    External::Precision => {}
                }
            }
        }
        let Some((main, main_unit)) = main else {
            // GLSL 4.60 §2.1: a missing main is a link-time error; a unit without one
            // compiles (its functions may serve another unit's main).
            if self.linking {
                self.error(
                    Span {
                        source: 0,
                        line: 1,
                        column: 1,
                    },
                    "main function not defined".to_string(),
                );
            }
            return;
        };
        self.has_main = true;
        self.place_subroutine_uniforms();
        self.enter_unit(main_unit);
        self.scopes.push(HashMap::new());
        if let Some(body) = &main.body {
            // GLSL 4.00 §8.16: a tessellation control shader's barrier() stands at main's
            // top level, before any return.
            let mut returned = false;
            for s in body {
                self.barrier_ok = !returned && super::tess::is_barrier_stmt(s);
                let _ = self.stmt(s);
                self.barrier_ok = false;
                returned |= super::tess::has_return(s);
            }
        }
        self.scopes.pop();
        // GLSL 4.60 §4.4.1.3: the first redeclaration of gl_FragCoord must come before any
        // use of it. Spans of different units do not compare; each unit was checked alone
        // when it compiled.
        if let (Some(decl), Some(used)) = (self.frag_coord_redeclared_at, self.frag_coord_first_use)
        {
            if used < decl && self.units.len() == 1 {
                self.error(
                    decl,
                    "`gl_FragCoord' must be redeclared before its first use".to_string(),
                );
            }
        }
        if let (Some((n, a)), Some(_)) = (self.used_frag_color.clone(), self.user_frag_output) {
            self.error(
                a,
                format!("{n} cannot be used together with user-defined outputs"),
            );
        }
    }

    /// Builds the module once lowering succeeded.
    pub fn finish(mut self) -> (Option<ir::Module>, Vec<Diagnostic>) {
        let mut body = std::mem::take(&mut self.prologue);
        body.append(&mut self.cur);
        if self.shared_bytes > 0 {
            super::compute::place_shared_block(&mut body, self.storage_blocks.len() as u32);
        }
        self.func.body = body;
        // Slots: built-in outputs first (vertex), then user outputs in declaration order.
        let mut outs = std::mem::take(&mut self.outputs);
        outs.sort_by_key(|o| match o.var.builtin {
            Some(BuiltinOutput::Position) => 0,
            Some(BuiltinOutput::PointSize) => 1,
            Some(BuiltinOutput::ClipDistance) | Some(BuiltinOutput::CullDistance) => 1,
            Some(BuiltinOutput::FragDepth) | Some(BuiltinOutput::PointCoord) => 3,
            Some(BuiltinOutput::PrimitiveId)
            | Some(BuiltinOutput::Layer)
            | Some(BuiltinOutput::ViewportIndex) => 3,
            Some(BuiltinOutput::PerVertexOut) => 0,
            Some(BuiltinOutput::TessLevelOuter) | Some(BuiltinOutput::TessLevelInner) => 3,
            Some(BuiltinOutput::PerVertexIn)
            | Some(BuiltinOutput::PrimitiveIdIn)
            | Some(BuiltinOutput::InvocationId)
            | Some(BuiltinOutput::TessCoord)
            | Some(BuiltinOutput::PatchVerticesIn) => 4,
            None | Some(BuiltinOutput::DualSourceColor) => 2,
        });
        let located = outs.iter().filter(|o| o.var.builtin.is_none()).count();
        let mut slot = 0;
        let mut outputs = Vec::new();
        for mut o in outs {
            o.var.slot = slot;
            slot += o.var.words;
            if self.stage == Stage::Fragment
                && o.var.builtin.is_none()
                && o.var.location.is_none()
                && located == 1
            {
                o.var.location = Some(0);
            }
            self.func.outputs.extend(o.vars.iter().copied());
            outputs.push(o.var);
        }
        for u in &mut self.uniforms {
            let (bindless, bound) = if u.ty.base.is_image() {
                (self.global_bindless_image, self.global_bound_image)
            } else {
                (self.global_bindless, self.global_bound)
            };
            if u.ty.base.is_sampler() {
                u.bindless |= bindless && !u.bound;
                u.bound |= bound && !u.bindless;
            }
        }
        let has_error = self
            .diags
            .iter()
            .any(|d| d.severity == super::diag::Severity::Error);
        let mut diags = std::mem::take(&mut self.diags);
        diags.sort_by_key(|d| (d.span, d.severity == super::diag::Severity::Warning));
        diags.dedup();
        // A unit that calls a function it only declares, or has no main, compiles but has
        // no module of its own: the link lowers it again with the other units.
        if has_error || !self.has_main || !self.unresolved.is_empty() {
            return (None, diags);
        }
        let mut m = ir::Module {
            stage: self.stage,
            version: self.version,
            func: self.func,
            inputs: self.inputs,
            outputs,
            uniforms: self.uniforms,
            uniform_words: self.uniform_words,
            blocks: self.blocks,
            storage_blocks: self.storage_blocks,
            uses_discard: self.uses_discard,
            writes_depth: self.writes_depth,
            early_fragment_tests: self.early_fragment_tests,
            frag_coord_origin_upper_left: self.frag_coord_layout.is_some_and(|l| l.0),
            frag_coord_pixel_center_integer: self.frag_coord_layout.is_some_and(|l| l.1),
            global_bindless_sampler: self.global_bindless,
            global_bound_sampler: self.global_bound,
            local_size: self.local_size.unwrap_or([0; 3]),
            shared_bytes: self.shared_bytes,
            geometry: self.geometry,
            xfb: self.xfb,
            tess: self.tess,
            subroutines: self.subroutines.into_info(),
        };
        if m.stage == Stage::Geometry {
            ir::geometry::lower_emits(&mut m);
        }
        if m.stage == Stage::TessControl {
            ir::tess::lower_control(&mut m);
        }
        ir::fold::fold(&mut m.func);
        (Some(m), diags)
    }
}
