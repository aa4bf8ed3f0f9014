//! The shader IR itself: scalarized, structured, typed by variable. Owns the data types only;
//! validation, dumping, linking and interpretation live beside it.
//!
//! Shape (decided for the JIT's sake, DESIGN.md §3):
//! - **Scalarized.** Every value is one scalar per invocation (`Var`). The front end breaks
//!   vectors, matrices and structs into scalars, so the JIT maps one `Var` to one 4-lane
//!   Cranelift vector (one lane per invocation of a quad or of 4 vertices).
//! - **Structured.** `If`, `Loop` (with a `continuing` part), labelled `Block`s that
//!   `Leave` exits (inlined function returns, `switch`), `Return`, `Discard`. No gotos: the
//!   JIT and the interpreter run divergent code under execution masks.
//! - **Functions are inlined** by the front end (GLSL has no recursion); a module has one
//!   body, `main`.
//! - **Not SSA.** A `Var` is a mutable scalar register; writes under a partial mask keep the
//!   old value in inactive lanes.
//!
//! Booleans are 0 / all-ones (`0xFFFF_FFFF`) in lanes, so they double as masks.

/// A scalar register of the function. Its kind is `Function::vars[var.0]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub u32);

/// A function-local array of scalars that is indexed dynamically.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArrayId(pub u32);

/// Names a `Loop` or a `Block` so that `Break`/`Continue`/`Leave` say which one they exit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Label(pub u32);

/// What one lane of a `Var` holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScalarKind {
    F32,
    I32,
    U32,
    /// 0 or 0xFFFF_FFFF.
    Bool,
}

/// A constant scalar.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Scalar {
    F32(f32),
    I32(i32),
    U32(u32),
    Bool(bool),
}

impl Scalar {
    pub fn kind(self) -> ScalarKind {
        match self {
            Scalar::F32(_) => ScalarKind::F32,
            Scalar::I32(_) => ScalarKind::I32,
            Scalar::U32(_) => ScalarKind::U32,
            Scalar::Bool(_) => ScalarKind::Bool,
        }
    }
    /// The 32 bits a lane holds for this constant.
    pub fn bits(self) -> u32 {
        match self {
            Scalar::F32(f) => f.to_bits(),
            Scalar::I32(i) => i as u32,
            Scalar::U32(u) => u,
            Scalar::Bool(b) => {
                if b {
                    u32::MAX
                } else {
                    0
                }
            }
        }
    }
}

/// One-operand operations. The operand and result kinds are given per variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    // f32 -> f32
    FNeg,
    FAbs,
    FSign,
    Floor,
    Ceil,
    Trunc,
    /// Round half to even (GLSL `roundEven`; `round` may use it too).
    RoundEven,
    Fract,
    Sqrt,
    InverseSqrt,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Exp,
    Exp2,
    Log,
    Log2,
    /// f32 -> bool
    IsNan,
    /// f32 -> bool
    IsInf,
    /// Fragment derivatives over the 2×2 quad held in the 4 lanes
    /// (lane 0 = (x,y), 1 = (x+1,y), 2 = (x,y+1), 3 = (x+1,y+1)). f32 -> f32.
    DFdxFine,
    DFdyFine,
    DFdxCoarse,
    DFdyCoarse,
    // i32 -> i32
    INeg,
    IAbs,
    ISign,
    // i32/u32 -> same kind
    Not,
    BitReverse,
    /// -> i32
    BitCount,
    /// -> i32 (-1 when zero)
    FindLsb,
    /// i32 -> i32: most significant bit that differs from the sign bit; -1 for 0 and -1.
    FindMsbI,
    /// u32 -> i32
    FindMsbU,
    /// bool -> bool
    LogicalNot,
    // conversions; the result kind is in the name
    F2I,
    F2U,
    I2F,
    U2F,
    /// i32 <-> u32 (bits unchanged)
    I2U,
    U2I,
    /// bool -> f32 (0.0 / 1.0)
    B2F,
    /// bool -> i32 (0 / 1)
    B2I,
    /// bool -> u32 (0 / 1)
    B2U,
    /// f32 -> bool (!= 0.0)
    F2B,
    /// i32 or u32 -> bool (!= 0)
    I2B,
    /// f32 -> i32/u32 and back, bits unchanged (floatBitsToInt & co.)
    BitcastF2I,
    BitcastF2U,
    BitcastI2F,
    BitcastU2F,
}

/// Two-operand operations. Both operands have the same kind unless the variant says
/// otherwise (shifts take any integer kind on the right).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    // f32
    FAdd,
    FSub,
    FMul,
    FDiv,
    /// GLSL `mod`: x - y * floor(x / y)
    FMod,
    FMin,
    FMax,
    Pow,
    /// atan(y, x): operands are (y, x)
    Atan2,
    /// step(edge, x): (edge, x) -> 0.0 or 1.0
    Step,
    // i32 / u32 (wrapping; division by zero gives 0 — GLSL leaves it undefined, we choose
    // defined, never a trap)
    IAdd,
    ISub,
    IMul,
    SDiv,
    UDiv,
    SRem,
    URem,
    SMin,
    SMax,
    UMin,
    UMax,
    And,
    Or,
    Xor,
    /// Shift counts are taken modulo 32 (GLSL leaves counts >= 32 undefined).
    Shl,
    ShrS,
    ShrU,
    // comparisons -> bool
    FEq,
    FNe,
    FLt,
    FLe,
    FGt,
    FGe,
    IEq,
    INe,
    SLt,
    SLe,
    SGt,
    SGe,
    ULt,
    ULe,
    UGt,
    UGe,
    // bool
    LogicalAnd,
    LogicalOr,
    LogicalXor,
    LogicalEq,
}

/// Built-in inputs, read with `Op::Builtin`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// i32
    VertexId,
    /// i32
    InstanceId,
    /// f32; window coordinates of the fragment centre (x, y), z in [0,1], w = 1/clip w.
    FragCoordX,
    FragCoordY,
    FragCoordZ,
    FragCoordW,
    /// bool
    FrontFacing,
}

impl Builtin {
    /// Index of this builtin's row in `jit::abi::Invocation::builtins`.
    pub const fn index(self) -> usize {
        match self {
            Builtin::VertexId => 0,
            Builtin::InstanceId => 1,
            Builtin::FragCoordX => 2,
            Builtin::FragCoordY => 3,
            Builtin::FragCoordZ => 4,
            Builtin::FragCoordW => 5,
            Builtin::FrontFacing => 6,
        }
    }
    /// Number of builtin rows.
    pub const COUNT: usize = 7;
}

/// The right-hand side of `Stmt::Assign`: computes one scalar per lane.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Const(Scalar),
    Copy(Var),
    Unary(UnaryOp, Var),
    Binary(BinaryOp, Var, Var),
    /// `cond` is bool; `a` where true, `b` where false. Both already evaluated.
    Select {
        cond: Var,
        a: Var,
        b: Var,
    },
    /// a * b + c with one rounding: only where the shader calls `fma()` (DESIGN.md §3).
    Fma(Var, Var, Var),
    /// clamp(x, lo, hi) for f32 = min(max(x, lo), hi)
    FClamp(Var, Var, Var),
    /// mix(x, y, a) = x * (1 - a) + y * a, f32
    FMix(Var, Var, Var),
    /// bitfieldExtract(value, offset, bits): value i32 (sign-extends) or u32.
    BitfieldExtract {
        value: Var,
        offset: Var,
        bits: Var,
    },
    /// bitfieldInsert(base, insert, offset, bits)
    BitfieldInsert {
        base: Var,
        insert: Var,
        offset: Var,
        bits: Var,
    },
    /// One word of the stage's input slots (`Invocation::inputs`), read as the dst's kind.
    Input(u32),
    /// A built-in input.
    Builtin(Builtin),
    /// One word of the default uniform block at `offset` (in 32-bit words), plus
    /// `index * stride` words when `index` is given (i32 or u32; out of `0..count` reads
    /// 0 — robust access).
    Uniform {
        offset: u32,
        index: Option<(Var, u32, u32)>,
    },
    /// One 32-bit word of uniform block `block` (index into `Module::blocks`) at byte
    /// `offset` plus the dynamic byte offset in `dynamic` (u32), if any. Reads past the
    /// bound range give 0.
    BlockLoad {
        block: u32,
        offset: u32,
        dynamic: Option<Var>,
    },
    /// One 32-bit word of shader storage block `block` (index into
    /// `Module::storage_blocks`) at byte `offset` plus the dynamic byte offset in `dynamic`
    /// (u32), if any. Reads past the bound range (or of an unbound block) give 0.
    StorageLoad {
        block: u32,
        offset: u32,
        dynamic: Option<Var>,
    },
    /// The byte size (u32, saturated) of the range bound to storage block `block`, rounded
    /// down to whole words; 0 when unbound. `.length()` of a runtime-sized array is
    /// computed from it.
    StorageSize {
        block: u32,
    },
    /// An element of a local array; `index` is i32 or u32. Out of range reads 0.
    LoadArray {
        array: ArrayId,
        index: Var,
    },
    /// One word of a double-precision operation (ARCHITECTURE.md §8, "a double is two u32
    /// words"). `args[..op.arg_words()]` are the operand words: a double operand is two U32
    /// vars, low word first; a 32-bit operand of a conversion is one var (the rest of
    /// `args` is unused and ignored). A double result is written one word at a time:
    /// `word` 0 = low, 1 = high; ops with a 32-bit result ignore `word` (keep it 0).
    F64 {
        op: F64Op,
        args: [Var; 6],
        word: u8,
    },
}

/// The operations of `Op::F64`. Semantics in `ir::interp`'s table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum F64Op {
    // (double, double) -> double
    Add,
    Sub,
    Mul,
    Div,
    /// (double, double, double) -> double, one rounding.
    Fma,
    // double -> double
    Sqrt,
    Floor,
    Ceil,
    Trunc,
    RoundEven,
    // (double, double) -> bool
    Eq,
    /// Unordered or not equal (true when either is NaN), like `FNe`.
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    // double -> bool
    IsNan,
    IsInf,
    // conversions; the 32-bit side is in the name
    ToF32,
    ToI32,
    ToU32,
    FromF32,
    FromI32,
    FromU32,
}

impl F64Op {
    /// How many words of `Op::F64::args` the op reads.
    pub const fn arg_words(self) -> usize {
        use F64Op::*;
        match self {
            FromF32 | FromI32 | FromU32 => 1,
            Sqrt | Floor | Ceil | Trunc | RoundEven | IsNan | IsInf | ToF32 | ToI32 | ToU32 => 2,
            Add | Sub | Mul | Div | Eq | Ne | Lt | Le | Gt | Ge => 4,
            Fma => 6,
        }
    }
    /// The kind of the var it writes (a double result: each of its two U32 words).
    pub const fn result_kind(self) -> ScalarKind {
        use F64Op::*;
        match self {
            Eq | Ne | Lt | Le | Gt | Ge | IsNan | IsInf => ScalarKind::Bool,
            ToF32 => ScalarKind::F32,
            ToI32 => ScalarKind::I32,
            _ => ScalarKind::U32,
        }
    }
    /// Whether the result is a double (two words, chosen by `word`).
    pub const fn double_result(self) -> bool {
        matches!(self.result_kind(), ScalarKind::U32) && !matches!(self, F64Op::ToU32)
    }
    /// The kind of its operand words.
    pub const fn arg_kind(self) -> ScalarKind {
        match self {
            F64Op::FromF32 => ScalarKind::F32,
            F64Op::FromI32 => ScalarKind::I32,
            _ => ScalarKind::U32,
        }
    }
}

/// How a texture lookup picks its level of detail.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Lod {
    /// From the quad's derivatives (fragment stage); level 0 elsewhere.
    Implicit,
    /// Implicit plus a bias (f32 var).
    Bias(Var),
    /// Explicit level (f32 var): `textureLod`.
    Explicit(Var),
    /// textureGather: no level (the base level's LINEAR footprint); the component (i32
    /// var, 0..3) travels in the request's lod slot.
    Gather(Var),
    /// textureQueryLod: the implicit λ itself, (accessed level, λ') in dst[0..2].
    QueryLod,
}

/// A structured statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// dst = op, in active lanes only.
    Assign {
        dst: Var,
        op: Op,
    },
    /// array[index] = value in active lanes; out-of-range stores are dropped.
    StoreArray {
        array: ArrayId,
        index: Var,
        value: Var,
    },
    /// A write or an atomic read-modify-write of one 32-bit word of storage block `block`
    /// at byte `offset + dynamic` (as in `Op::StorageLoad`), in active lanes, lane 0 first.
    /// Out of range: stores are dropped and atomics return 0 without touching memory.
    /// `dst` (atomics only) receives the word's previous value.
    Storage {
        dst: Option<Var>,
        block: u32,
        offset: u32,
        dynamic: Option<Var>,
        access: StorageAccess,
    },
    /// `cond` is bool.
    If {
        cond: Var,
        then_body: Vec<Stmt>,
        else_body: Vec<Stmt>,
    },
    /// Runs `body` then `continuing` until every lane has broken out (or left an enclosing
    /// block, returned or discarded). `Continue(label)` skips to `continuing`.
    Loop {
        label: Label,
        body: Vec<Stmt>,
        continuing: Vec<Stmt>,
    },
    Break(Label),
    Continue(Label),
    /// A scope that `Leave(label)` exits: inlined function bodies, `switch`.
    Block {
        label: Label,
        body: Vec<Stmt>,
    },
    Leave(Label),
    /// Ends the invocation (a `return` in `main`); outputs keep the values written so far.
    Return,
    /// Fragment only: the invocation ends and writes nothing. (Compute region functions
    /// also use it for `return` from `main`, `ir::compute`.)
    Discard,
    /// `EmitStreamVertex(stream)` of a geometry shader (GLSL 1.50 §8.10, GLSL 4.00 §8.12;
    /// `EmitVertex()` is stream 0): the current outputs become the next vertex of vertex
    /// stream `stream` (below `ir::geometry::MAX_VERTEX_STREAMS`). Only the front end's
    /// `ir::geometry::lower_emits` sees it; it turns it into array stores, so the JIT and
    /// the interpreter never do.
    EmitVertex(u32),
    /// `EndStreamPrimitive(stream)` (`EndPrimitive()` is stream 0): the next vertex of the
    /// stream starts a new strip. Rewritten with `EmitVertex`.
    EndPrimitive(u32),
    /// `barrier()` of a compute shader (GLSL 4.60 §8.16): every invocation of the work
    /// group reaches it before any goes on. Only `ir::compute`'s split sees it; region
    /// functions, which the JIT and the interpreter run, never hold one.
    Barrier,
    /// texture / textureLod / textureOffset on a 2D sampler. `handle` is the 64-bit handle
    /// as (low, high) u32 vars; coords are f32; `dst` is f32, or i32/u32 (all four alike)
    /// for isampler/usampler lookups, which return the texel's integers as bits. `compare` (f32) is the reference depth of
    /// a shadow lookup (sampler2DShadow): the result is then in `dst[0]`.
    Texture {
        dst: [Var; 4],
        handle: [Var; 2],
        coord: [Var; 2],
        lod: Lod,
        offset: [i32; 2],
        compare: Option<Var>,
        /// The layer coordinate (f32) of a 2D array lookup.
        layer: Option<Var>,
        /// The cube's layer (f32) of a cube-map array lookup (the direction is `coord` and
        /// `layer`).
        cube_layer: Option<Var>,
    },
    /// texelFetch(sampler2D, ivec2, int lod). `dst` is f32, or i32/u32 for integer
    /// samplers (the texel's integers unconverted), as for `Texture`.
    TexelFetch {
        dst: [Var; 4],
        handle: [Var; 2],
        coord: [Var; 2],
        lod: Var,
        /// The layer (i32) of a 2D array fetch.
        layer: Option<Var>,
    },
    /// An image instruction (GLSL 4.60 §8.12: imageLoad, imageStore, imageSize,
    /// imageSamples, imageAtomic*), answered by `sampler::storage_image::access` through
    /// the texture helper, which checks every access. `coord` holds the x, y and layer
    /// components (i32) the dimensionality has, `sample` a multisample image's sample
    /// (i32). `data`: a store's four components (f32, or i32/u32 for integer images), an
    /// atomic's operand in `data[0]` (and CompSwap's new value in `data[1]`, the compare
    /// in `data[0]`). `dst`: a load's four components, imageSize's components and (last)
    /// the sample count, an atomic's previous value in `dst[0]`. Stores and atomics happen
    /// only in active lanes that may write (not fragment helper lanes), lane 0 first.
    Image {
        op: crate::sampler::storage_image::ImageOp,
        dim: crate::sampler::storage_image::ImageDim,
        handle: [Var; 2],
        coord: [Option<Var>; 3],
        sample: Option<Var>,
        data: [Option<Var>; 4],
        dst: [Option<Var>; 4],
    },
    /// textureSize(sampler2D, int lod) -> ivec2; `layers` (i32) receives the layer count
    /// of a 2D array (textureSize(sampler2DArray) -> ivec3), `samples` (i32) the sample
    /// count of a multisample texture (textureSamples, GLSL 4.50; 0 for other textures).
    TextureSize {
        dst: [Var; 2],
        handle: [Var; 2],
        lod: Var,
        layers: Option<Var>,
        samples: Option<Var>,
    },
}

impl Module {
    /// Whether the function stores to a storage block or an image, or updates one with an
    /// atomic.
    pub fn writes_storage(&self) -> bool {
        let mut pending: Vec<&[Stmt]> = vec![&self.func.body];
        while let Some(list) = pending.pop() {
            for s in list {
                if matches!(s, Stmt::Storage { .. }) {
                    return true;
                }
                if let Stmt::Image { op, .. } = s {
                    if op.writes() {
                        return true;
                    }
                }
                pending.extend(s.children());
            }
        }
        false
    }
}

/// What a `Stmt::Storage` does to its word.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum StorageAccess {
    /// Writes `value` (any 32-bit kind; bool as 0/1 is the lowering's job).
    Store(Var),
    /// `atomic*(mem, value)` (GLSL 4.60 §8.11): `value` and `dst` are i32 or u32, which
    /// picks signed or unsigned min/max.
    Atomic(AtomicOp, Var),
    /// `atomicCompSwap(mem, compare, value)`: writes `value` when the word equals `compare`.
    CompSwap { compare: Var, value: Var },
}

/// The read-modify-write of an atomic built-in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
    Exchange,
}

/// A dynamically indexed local array.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayDecl {
    pub kind: ScalarKind,
    pub len: u32,
}

/// The one function of a module (`main` with everything inlined).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Function {
    /// Kind of each `Var`, indexed by `Var.0`. Vars start as 0 in every lane.
    pub vars: Vec<ScalarKind>,
    pub arrays: Vec<ArrayDecl>,
    pub body: Vec<Stmt>,
    /// `outputs[slot]` is the var whose value at the end of the invocation is written to
    /// output word `slot` (`Invocation::outputs`).
    pub outputs: Vec<Var>,
    /// When not empty, `outputs[i]` goes to output word `output_rows[i]` instead of `i`
    /// (same length as `outputs`): compute region functions write the vars they change
    /// back into their rows of the work group's state (`ir::compute`).
    pub output_rows: Vec<u32>,
}

impl Function {
    /// The output word `outputs[i]` is written to.
    pub fn output_row(&self, i: usize) -> u32 {
        self.output_rows.get(i).copied().unwrap_or(i as u32)
    }
    /// Output words per lane the function writes: one past its highest output row.
    pub fn output_words(&self) -> u32 {
        (0..self.outputs.len())
            .map(|i| self.output_row(i).saturating_add(1))
            .max()
            .unwrap_or(0)
    }
}

impl Drop for Function {
    /// Drops nested bodies from a list instead of recursively: a module may be dropped on
    /// the application's thread (glDeleteShader), whose stack can be far smaller than the
    /// compiler thread's that built it (`glsl::limits::MAX_INLINED_NESTING` levels).
    fn drop(&mut self) {
        let mut pending = vec![std::mem::take(&mut self.body)];
        let keep = |pending: &mut Vec<Vec<Stmt>>, b: &mut Vec<Stmt>| {
            if !b.is_empty() {
                pending.push(std::mem::take(b));
            }
        };
        while let Some(mut body) = pending.pop() {
            for s in &mut body {
                match s {
                    Stmt::If {
                        then_body,
                        else_body,
                        ..
                    } => {
                        keep(&mut pending, then_body);
                        keep(&mut pending, else_body);
                    }
                    Stmt::Loop {
                        body, continuing, ..
                    } => {
                        keep(&mut pending, body);
                        keep(&mut pending, continuing);
                    }
                    Stmt::Block { body, .. } => keep(&mut pending, body),
                    _ => {}
                }
            }
        }
    }
}

/// Shader stage.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    Vertex,
    Fragment,
    /// GL 4.3 compute shaders (`ir::compute`).
    Compute,
    /// GL 3.2 geometry shaders (`ir::geometry`).
    Geometry,
    /// GL 4.0 tessellation control and evaluation shaders (`ir::tess`).
    TessControl,
    TessEval,
}

/// The GLSL type of a uniform, input or output, as GL reflection reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BaseType {
    Float,
    Int,
    Uint,
    Bool,
    /// `uint64_t` (GL_ARB_gpu_shader_int64); two words, low first.
    Uint64,
    /// `double` (GL 4.0, ARB_gpu_shader_fp64): IEEE binary64 in two words, low first
    /// (`Op::F64` computes with them).
    Double,
    /// `sampler2D`; its value is a 64-bit handle: two words, low first.
    Sampler2D,
    /// `sampler2DShadow`: a handle like `Sampler2D`, whose lookups compare a reference
    /// depth (GLSL 4.60 §8.9, GL 4.5 core §8.23).
    Sampler2DShadow,
    /// `isampler2D` / `usampler2D`: lookups return the integers of an integer texture.
    ISampler2D,
    USampler2D,
    /// `sampler2DArray` and its integer and shadow forms: 2D array textures, the layer in
    /// the coordinate's third component.
    Sampler2DArray,
    ISampler2DArray,
    USampler2DArray,
    Sampler2DArrayShadow,
    /// `samplerCube` and its integer and shadow forms: the direction in the coordinate's
    /// three components (D_ref in the fourth for the shadow form).
    SamplerCube,
    ISamplerCube,
    USamplerCube,
    SamplerCubeShadow,
    /// `sampler3D` and its integer forms: (s, t, r) in the coordinate.
    Sampler3D,
    ISampler3D,
    USampler3D,
    /// `sampler2DMS` and its integer forms: 2D multisample textures, read with
    /// texelFetch(s, ivec2, sample) only (GLSL 4.60 §8.9.2).
    Sampler2DMs,
    ISampler2DMs,
    USampler2DMs,
    /// `sampler2DMSArray` and its integer forms: the layer in texelFetch's ivec3.
    Sampler2DMsArray,
    ISampler2DMsArray,
    USampler2DMsArray,
    /// `sampler1D` and its integer and shadow forms (GLSL 4.60 §4.1.7): the s coordinate
    /// (D_ref in the third component for the shadow form, whose vec3 has an unused t).
    Sampler1D,
    ISampler1D,
    USampler1D,
    Sampler1DShadow,
    /// `sampler1DArray` and its forms: (s, layer), D_ref third for the shadow form.
    Sampler1DArray,
    ISampler1DArray,
    USampler1DArray,
    Sampler1DArrayShadow,
    /// `sampler2DRect` and its forms: unnormalized (s, t); no mipmaps.
    Sampler2DRect,
    ISampler2DRect,
    USampler2DRect,
    Sampler2DRectShadow,
    /// `samplerCubeArray` and its forms: the direction and the cube's layer in a vec4
    /// (the shadow form's D_ref is a separate argument).
    SamplerCubeArray,
    ISamplerCubeArray,
    USamplerCubeArray,
    SamplerCubeArrayShadow,
    /// `samplerBuffer` and its integer forms: texelFetch(int) and textureSize only.
    SamplerBuffer,
    ISamplerBuffer,
    USamplerBuffer,
    /// An image type (`image2D`, `iimageCube`, ...; GLSL 4.60 §4.1.7.2) with the format and
    /// memory qualifiers its declaration gave: a 64-bit image handle, like a sampler's
    /// (`is_sampler` counts both as opaque handles).
    Image(ImageType),
    /// `atomic_uint` (GLSL 4.60 §4.1.7.4): an opaque counter in an atomic counter buffer,
    /// never a value of its own; its place is a word of that buffer (`glsl::atomic_counter`).
    AtomicUint,
}

/// An image type and the qualifiers that belong to its variable (GLSL 4.60 §4.4.6.2
/// format, §4.10 memory qualifiers). Kept in the type so that the image built-ins see
/// them through function parameters too. Coherent, volatile and restrict change no code
/// (every access goes to memory in program order); they are kept only because an
/// argument may not lose them through a parameter (§4.10).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ImageType {
    pub dim: crate::sampler::storage_image::ImageDim,
    pub sampled: SampledType,
    pub format: Option<crate::sampler::storage_image::ImageFormat>,
    pub readonly: bool,
    pub writeonly: bool,
    pub coherent: bool,
    pub volatile: bool,
    pub restrict: bool,
}

impl ImageType {
    /// The type's GLSL name (`image2D`, `iimageCubeArray`, ...).
    pub fn name(self) -> &'static str {
        const NAMES: [[&str; 11]; 3] = [
            [
                "image1D",
                "image2D",
                "image3D",
                "image2DRect",
                "imageCube",
                "imageBuffer",
                "image1DArray",
                "image2DArray",
                "imageCubeArray",
                "image2DMS",
                "image2DMSArray",
            ],
            [
                "iimage1D",
                "iimage2D",
                "iimage3D",
                "iimage2DRect",
                "iimageCube",
                "iimageBuffer",
                "iimage1DArray",
                "iimage2DArray",
                "iimageCubeArray",
                "iimage2DMS",
                "iimage2DMSArray",
            ],
            [
                "uimage1D",
                "uimage2D",
                "uimage3D",
                "uimage2DRect",
                "uimageCube",
                "uimageBuffer",
                "uimage1DArray",
                "uimage2DArray",
                "uimageCubeArray",
                "uimage2DMS",
                "uimage2DMSArray",
            ],
        ];
        NAMES[self.sampled as usize][self.dim as usize]
    }
    /// The unqualified image type a GLSL type name names.
    pub fn from_name(name: &str) -> Option<ImageType> {
        use crate::sampler::storage_image::ImageDim;
        let (sampled, rest) = match name.as_bytes().first()? {
            b'i' if name.starts_with("iimage") => (SampledType::Int, &name[6..]),
            b'u' if name.starts_with("uimage") => (SampledType::Uint, &name[6..]),
            _ => (SampledType::Float, name.strip_prefix("image")?),
        };
        let dim = ImageDim::ALL.into_iter().find(|d| d.suffix() == rest)?;
        Some(ImageType {
            dim,
            sampled,
            format: None,
            readonly: false,
            writeonly: false,
            coherent: false,
            volatile: false,
            restrict: false,
        })
    }
    /// GL's type enum (GL_IMAGE_1D 0x904C ... GL_UNSIGNED_INT_IMAGE_2D_MULTISAMPLE_ARRAY
    /// 0x906C: 11 per sampled type, in `ImageDim` order).
    pub fn gl_enum(self) -> u32 {
        0x904C + 11 * self.sampled as u32 + self.dim as u32
    }
}

/// The scalar type a sampler's lookups return.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SampledType {
    Float = 0,
    Int = 1,
    Uint = 2,
}

impl BaseType {
    /// Whether values of this type are texture or image handles (any sampler or image type).
    pub const fn is_sampler(self) -> bool {
        matches!(
            self,
            BaseType::Image(_)
                | BaseType::Sampler2D
                | BaseType::Sampler2DShadow
                | BaseType::ISampler2D
                | BaseType::USampler2D
                | BaseType::Sampler2DArray
                | BaseType::ISampler2DArray
                | BaseType::USampler2DArray
                | BaseType::Sampler2DArrayShadow
                | BaseType::SamplerCube
                | BaseType::ISamplerCube
                | BaseType::USamplerCube
                | BaseType::SamplerCubeShadow
                | BaseType::Sampler3D
                | BaseType::ISampler3D
                | BaseType::USampler3D
                | BaseType::Sampler2DMs
                | BaseType::ISampler2DMs
                | BaseType::USampler2DMs
                | BaseType::Sampler2DMsArray
                | BaseType::ISampler2DMsArray
                | BaseType::USampler2DMsArray
        ) || self.is_new_sampler()
    }
    /// The sampler types of issue #13's targets (1D, 1D array, rectangle, cube-map array,
    /// buffer).
    const fn is_new_sampler(self) -> bool {
        matches!(
            self,
            BaseType::Sampler1D
                | BaseType::ISampler1D
                | BaseType::USampler1D
                | BaseType::Sampler1DShadow
                | BaseType::Sampler1DArray
                | BaseType::ISampler1DArray
                | BaseType::USampler1DArray
                | BaseType::Sampler1DArrayShadow
                | BaseType::Sampler2DRect
                | BaseType::ISampler2DRect
                | BaseType::USampler2DRect
                | BaseType::Sampler2DRectShadow
                | BaseType::SamplerCubeArray
                | BaseType::ISamplerCubeArray
                | BaseType::USamplerCubeArray
                | BaseType::SamplerCubeArrayShadow
                | BaseType::SamplerBuffer
                | BaseType::ISamplerBuffer
                | BaseType::USamplerBuffer
        )
    }
    /// The GLSL name of a sampler type (`None` for other types).
    pub const fn sampler_name(self) -> Option<&'static str> {
        Some(match self {
            BaseType::Sampler2D => "sampler2D",
            BaseType::Sampler2DShadow => "sampler2DShadow",
            BaseType::ISampler2D => "isampler2D",
            BaseType::USampler2D => "usampler2D",
            BaseType::Sampler2DArray => "sampler2DArray",
            BaseType::ISampler2DArray => "isampler2DArray",
            BaseType::USampler2DArray => "usampler2DArray",
            BaseType::Sampler2DArrayShadow => "sampler2DArrayShadow",
            BaseType::SamplerCube => "samplerCube",
            BaseType::ISamplerCube => "isamplerCube",
            BaseType::USamplerCube => "usamplerCube",
            BaseType::SamplerCubeShadow => "samplerCubeShadow",
            BaseType::Sampler3D => "sampler3D",
            BaseType::ISampler3D => "isampler3D",
            BaseType::USampler3D => "usampler3D",
            BaseType::Sampler2DMs => "sampler2DMS",
            BaseType::ISampler2DMs => "isampler2DMS",
            BaseType::USampler2DMs => "usampler2DMS",
            BaseType::Sampler2DMsArray => "sampler2DMSArray",
            BaseType::ISampler2DMsArray => "isampler2DMSArray",
            BaseType::USampler2DMsArray => "usampler2DMSArray",
            BaseType::Sampler1D => "sampler1D",
            BaseType::ISampler1D => "isampler1D",
            BaseType::USampler1D => "usampler1D",
            BaseType::Sampler1DShadow => "sampler1DShadow",
            BaseType::Sampler1DArray => "sampler1DArray",
            BaseType::ISampler1DArray => "isampler1DArray",
            BaseType::USampler1DArray => "usampler1DArray",
            BaseType::Sampler1DArrayShadow => "sampler1DArrayShadow",
            BaseType::Sampler2DRect => "sampler2DRect",
            BaseType::ISampler2DRect => "isampler2DRect",
            BaseType::USampler2DRect => "usampler2DRect",
            BaseType::Sampler2DRectShadow => "sampler2DRectShadow",
            BaseType::SamplerCubeArray => "samplerCubeArray",
            BaseType::ISamplerCubeArray => "isamplerCubeArray",
            BaseType::USamplerCubeArray => "usamplerCubeArray",
            BaseType::SamplerCubeArrayShadow => "samplerCubeArrayShadow",
            BaseType::SamplerBuffer => "samplerBuffer",
            BaseType::ISamplerBuffer => "isamplerBuffer",
            BaseType::USamplerBuffer => "usamplerBuffer",
            _ => return None,
        })
    }
    /// A 2D array sampler.
    pub const fn is_array_sampler(self) -> bool {
        matches!(
            self,
            BaseType::Sampler2DArray
                | BaseType::ISampler2DArray
                | BaseType::USampler2DArray
                | BaseType::Sampler2DArrayShadow
        )
    }
    /// A cube-map sampler.
    pub const fn is_cube_sampler(self) -> bool {
        matches!(
            self,
            BaseType::SamplerCube
                | BaseType::ISamplerCube
                | BaseType::USamplerCube
                | BaseType::SamplerCubeShadow
        )
    }
    /// A 3D sampler.
    pub const fn is_3d_sampler(self) -> bool {
        matches!(
            self,
            BaseType::Sampler3D | BaseType::ISampler3D | BaseType::USampler3D
        )
    }
    /// A multisample sampler (`sampler2DMS`, `sampler2DMSArray` and their integer forms).
    pub const fn is_ms_sampler(self) -> bool {
        matches!(
            self,
            BaseType::Sampler2DMs
                | BaseType::ISampler2DMs
                | BaseType::USampler2DMs
                | BaseType::Sampler2DMsArray
                | BaseType::ISampler2DMsArray
                | BaseType::USampler2DMsArray
        )
    }
    /// A multisample array sampler (`sampler2DMSArray` and its integer forms).
    pub const fn is_ms_array_sampler(self) -> bool {
        matches!(
            self,
            BaseType::Sampler2DMsArray | BaseType::ISampler2DMsArray | BaseType::USampler2DMsArray
        )
    }
    /// A shadow sampler.
    pub const fn is_shadow_sampler(self) -> bool {
        matches!(
            self,
            BaseType::Sampler2DShadow
                | BaseType::Sampler2DArrayShadow
                | BaseType::SamplerCubeShadow
                | BaseType::Sampler1DShadow
                | BaseType::Sampler1DArrayShadow
                | BaseType::Sampler2DRectShadow
                | BaseType::SamplerCubeArrayShadow
        )
    }
    /// A 1D sampler (not an array).
    pub const fn is_1d_sampler(self) -> bool {
        matches!(
            self,
            BaseType::Sampler1D
                | BaseType::ISampler1D
                | BaseType::USampler1D
                | BaseType::Sampler1DShadow
        )
    }
    /// A 1D array sampler.
    pub const fn is_1d_array_sampler(self) -> bool {
        matches!(
            self,
            BaseType::Sampler1DArray
                | BaseType::ISampler1DArray
                | BaseType::USampler1DArray
                | BaseType::Sampler1DArrayShadow
        )
    }
    /// A rectangle sampler.
    pub const fn is_rect_sampler(self) -> bool {
        matches!(
            self,
            BaseType::Sampler2DRect
                | BaseType::ISampler2DRect
                | BaseType::USampler2DRect
                | BaseType::Sampler2DRectShadow
        )
    }
    /// A cube-map array sampler.
    pub const fn is_cube_array_sampler(self) -> bool {
        matches!(
            self,
            BaseType::SamplerCubeArray
                | BaseType::ISamplerCubeArray
                | BaseType::USamplerCubeArray
                | BaseType::SamplerCubeArrayShadow
        )
    }
    /// A buffer sampler.
    pub const fn is_buffer_sampler(self) -> bool {
        matches!(
            self,
            BaseType::SamplerBuffer | BaseType::ISamplerBuffer | BaseType::USamplerBuffer
        )
    }
    /// An image type.
    pub const fn is_image(self) -> bool {
        matches!(self, BaseType::Image(_))
    }
    /// What a sampler's lookups (an image's loads) return (`Float` for other types).
    pub const fn sampled_type(self) -> SampledType {
        match self {
            BaseType::Image(i) => i.sampled,
            BaseType::ISampler2D
            | BaseType::ISampler2DArray
            | BaseType::ISamplerCube
            | BaseType::ISampler3D
            | BaseType::ISampler2DMs
            | BaseType::ISampler2DMsArray
            | BaseType::ISampler1D
            | BaseType::ISampler1DArray
            | BaseType::ISampler2DRect
            | BaseType::ISamplerCubeArray
            | BaseType::ISamplerBuffer => SampledType::Int,
            BaseType::USampler2D
            | BaseType::USampler2DArray
            | BaseType::USamplerCube
            | BaseType::USampler3D
            | BaseType::USampler2DMs
            | BaseType::USampler2DMsArray
            | BaseType::USampler1D
            | BaseType::USampler1DArray
            | BaseType::USampler2DRect
            | BaseType::USamplerCubeArray
            | BaseType::USamplerBuffer => SampledType::Uint,
            _ => SampledType::Float,
        }
    }
    /// Words of one component: 2 for 64-bit values (uint64_t, sampler handles).
    pub const fn comp_words(self) -> u32 {
        if self.is_sampler() || matches!(self, BaseType::Uint64 | BaseType::Double) {
            2
        } else {
            1
        }
    }
}

/// A GLSL value type: scalar (`cols == 1 && rows == 1`), vector (`cols == 1`) or matrix
/// (`cols` columns of `rows` floats).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ValueType {
    pub base: BaseType,
    pub rows: u8,
    pub cols: u8,
}

impl ValueType {
    pub const fn new(base: BaseType, rows: u8, cols: u8) -> Self {
        ValueType { base, rows, cols }
    }
    /// 32-bit words one value takes in the default uniform block, in input/output slots and
    /// in IR vars (tightly packed, matrices column-major).
    pub fn words(self) -> u32 {
        let per = self.base.comp_words();
        per * self.rows as u32 * self.cols as u32
    }
    /// The GL enum reflection reports (`GL_FLOAT_VEC4`, `GL_SAMPLER_2D`, ...).
    pub fn gl_enum(self) -> u32 {
        let (r, c) = (self.rows, self.cols);
        match self.base {
            BaseType::Float => match (c, r) {
                (1, 1) => 0x1406,
                (1, 2) => 0x8B50,
                (1, 3) => 0x8B51,
                (1, 4) => 0x8B52,
                (2, 2) => 0x8B5A,
                (3, 3) => 0x8B5B,
                (4, 4) => 0x8B5C,
                (2, 3) => 0x8B65,
                (2, 4) => 0x8B66,
                (3, 2) => 0x8B67,
                (3, 4) => 0x8B68,
                (4, 2) => 0x8B69,
                (4, 3) => 0x8B6A,
                _ => 0,
            },
            BaseType::Int => [0x1404, 0x8B53, 0x8B54, 0x8B55][r as usize - 1],
            BaseType::Uint => [0x1405, 0x8DC6, 0x8DC7, 0x8DC8][r as usize - 1],
            BaseType::Bool => [0x8B56, 0x8B57, 0x8B58, 0x8B59][r as usize - 1],
            BaseType::Uint64 => [0x140F, 0x8FF5, 0x8FF6, 0x8FF7][r as usize - 1],
            BaseType::Double => match (c, r) {
                (1, 1) => 0x140A,
                (1, 2) => 0x8FFC,
                (1, 3) => 0x8FFD,
                (1, 4) => 0x8FFE,
                (2, 2) => 0x8F46,
                (3, 3) => 0x8F47,
                (4, 4) => 0x8F48,
                (2, 3) => 0x8F49,
                (2, 4) => 0x8F4A,
                (3, 2) => 0x8F4B,
                (3, 4) => 0x8F4C,
                (4, 2) => 0x8F4D,
                (4, 3) => 0x8F4E,
                _ => 0,
            },
            BaseType::Sampler2D => 0x8B5E,
            BaseType::Sampler2DShadow => 0x8B62,
            BaseType::ISampler2D => 0x8DCA,
            BaseType::USampler2D => 0x8DD2,
            BaseType::Sampler2DArray => 0x8DC1,
            BaseType::ISampler2DArray => 0x8DCF,
            BaseType::USampler2DArray => 0x8DD7,
            BaseType::Sampler2DArrayShadow => 0x8DC4,
            BaseType::SamplerCube => 0x8B60,
            BaseType::ISamplerCube => 0x8DCC,
            BaseType::USamplerCube => 0x8DD4,
            BaseType::SamplerCubeShadow => 0x8DC5,
            BaseType::Sampler3D => 0x8B5F,
            BaseType::ISampler3D => 0x8DCB,
            BaseType::USampler3D => 0x8DD3,
            BaseType::Sampler2DMs => 0x9108,
            BaseType::ISampler2DMs => 0x9109,
            BaseType::USampler2DMs => 0x910A,
            BaseType::Sampler2DMsArray => 0x910B,
            BaseType::ISampler2DMsArray => 0x910C,
            BaseType::USampler2DMsArray => 0x910D,
            BaseType::Sampler1D => 0x8B5D,
            BaseType::ISampler1D => 0x8DC9,
            BaseType::USampler1D => 0x8DD1,
            BaseType::Sampler1DShadow => 0x8B61,
            BaseType::Sampler1DArray => 0x8DC0,
            BaseType::ISampler1DArray => 0x8DCE,
            BaseType::USampler1DArray => 0x8DD6,
            BaseType::Sampler1DArrayShadow => 0x8DC3,
            BaseType::Sampler2DRect => 0x8B63,
            BaseType::ISampler2DRect => 0x8DCD,
            BaseType::USampler2DRect => 0x8DD5,
            BaseType::Sampler2DRectShadow => 0x8B64,
            BaseType::SamplerCubeArray => 0x900C,
            BaseType::ISamplerCubeArray => 0x900E,
            BaseType::USamplerCubeArray => 0x900F,
            BaseType::SamplerCubeArrayShadow => 0x900D,
            BaseType::SamplerBuffer => 0x8DC2,
            BaseType::ISamplerBuffer => 0x8DD0,
            BaseType::USamplerBuffer => 0x8DD8,
            BaseType::AtomicUint => 0x92DB,
            BaseType::Image(i) => i.gl_enum(),
        }
    }
}

/// Interpolation qualifier of a varying.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Interpolation {
    #[default]
    Smooth,
    Flat,
    NoPerspective,
}

/// Built-in outputs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BuiltinOutput {
    /// vec4 gl_Position (vertex)
    Position,
    /// float gl_PointSize (vertex)
    PointSize,
    /// float gl_ClipDistance[n] (vertex; GL 4.5 core §13.5): one word per element.
    ClipDistance,
    /// float gl_CullDistance[n] (vertex; GL 4.5 core §13.5, GL_ARB_cull_distance): one word
    /// per element. Both distance arrays are fragment inputs too, linked to these outputs.
    CullDistance,
    /// float gl_FragDepth (fragment)
    FragDepth,
    /// Not a GLSL built-in: a fragment output declared with `layout(index = 1)`, the second
    /// source colour of dual-source blending (ARB_blend_func_extended, GLSL 4.60 §4.4.2.3).
    /// It is kept apart from the index-0 colour outputs the way built-ins are; linking
    /// makes it `Linked::src1_slot` (or an output bound with glBindFragDataLocationIndexed
    /// index 1).
    DualSourceColor,
    /// vec2 gl_PointCoord (a fragment *input*): linked as a noperspective varying whose
    /// vertex side is `link::POINT_COORD_SLOT`; the rasterizer fills it for points.
    PointCoord,
    /// int gl_PrimitiveID: a geometry shader output, and the fragment input that reads it
    /// (a flat varying).
    PrimitiveId,
    /// int gl_Layer and int gl_ViewportIndex: geometry shader outputs that select the
    /// framebuffer layer and the viewport of each primitive (GL 4.5 core §9.8, §13.6.1),
    /// and the fragment inputs that read them (flat varyings; 0 when no stage writes one).
    Layer,
    ViewportIndex,
    /// Geometry shader inputs the draw fills (`ir::geometry::GeometryInputSource`):
    /// `gl_in[]` (per vertex gl_Position, gl_PointSize, gl_ClipDistance[8]: 13 words),
    /// int gl_PrimitiveIDIn and int gl_InvocationID.
    PerVertexIn,
    PrimitiveIdIn,
    InvocationId,
    /// Tessellation (`ir::tess`): a control shader's `gl_out[]` (13 words per output
    /// vertex, as `gl_in[]`), float gl_TessLevelOuter[4] / gl_TessLevelInner[2] (control
    /// outputs, evaluation inputs), vec3 gl_TessCoord and int gl_PatchVerticesIn (inputs).
    PerVertexOut,
    TessLevelOuter,
    TessLevelInner,
    TessCoord,
    PatchVerticesIn,
}

/// A user or built-in input/output of a stage. Its words are `slot .. slot + words` of the
/// stage's input (or output) slots.
#[derive(Clone, Debug, PartialEq)]
pub struct InterfaceVar {
    pub name: String,
    pub ty: ValueType,
    pub array_len: Option<u32>,
    /// `layout(location = N)`; fragment outputs without one get 0 when alone.
    pub location: Option<u32>,
    pub slot: u32,
    /// Total words, arrays included.
    pub words: u32,
    pub interpolation: Interpolation,
    pub builtin: Option<BuiltinOutput>,
}

/// One active uniform of the default block (arrays of structs are flattened into leaves,
/// named as GL reflection names them: `s.field`, `a[2].x`; arrays of basic types are one
/// entry named `a[0]`).
#[derive(Clone, Debug, PartialEq)]
pub struct UniformDecl {
    pub name: String,
    pub ty: ValueType,
    /// Array length, `None` for a non-array.
    pub array_len: Option<u32>,
    /// First word in the stage's default uniform block.
    pub offset: u32,
    /// Words between array elements (== ty.words()).
    pub stride: u32,
    /// For samplers: declared `layout(bindless_sampler)` (or globally so).
    pub bindless: bool,
    /// For samplers: declared `layout(bound_sampler)` (or globally so).
    pub bound: bool,
    /// `layout(binding = N)` initial unit for samplers.
    pub binding: Option<i32>,
    /// `layout(location = N)` (GL_ARB_explicit_uniform_location, GLSL 4.30): the location
    /// of element 0, the others following it; the leaves of one struct or array of structs
    /// take consecutive locations in leaf order.
    pub location: Option<u32>,
    /// The value the declaration's initializer gives it at link (GLSL 4.60 §4.3.5,
    /// `uniform vec4 c = vec4(1.0);`): the words of every element (`array_len` ×
    /// `stride`), as glUniform* stores them (booleans 0 / all ones); `None` without one.
    pub init: Option<Vec<u32>>,
}

/// A member of a uniform block, with std140 offsets (bytes).
#[derive(Clone, Debug, PartialEq)]
pub struct BlockMember {
    /// Reflection name (`Block.member` only for instanced blocks? no: GL names members
    /// `member`, or `BlockName.member` when the block has an instance name).
    pub name: String,
    pub ty: ValueType,
    pub array_len: Option<u32>,
    pub offset: u32,
    pub array_stride: u32,
    pub matrix_stride: u32,
    pub row_major: bool,
}

/// A std140 uniform block.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockDecl {
    /// Block name (not the instance name); arrays of blocks are expanded to `B[0]`, `B[1]`.
    pub name: String,
    /// `layout(binding = N)`.
    pub binding: Option<u32>,
    /// Minimum buffer size in bytes (`GL_UNIFORM_BLOCK_DATA_SIZE`).
    pub size: u32,
    pub members: Vec<BlockMember>,
}

/// A compiled shader stage: one inlined function plus its interface.
#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    pub stage: Stage,
    /// `#version` number (330 ... 460; 110 etc. for compatibility shaders).
    pub version: u32,
    pub func: Function,
    /// Vertex attributes (vertex stage) or varyings (fragment stage). Words per slot:
    /// vertex inputs occupy `location * 4 ..`; a word slot holds one component.
    pub inputs: Vec<InterfaceVar>,
    /// Varyings and built-in outputs (vertex) or colour outputs and gl_FragDepth (fragment).
    pub outputs: Vec<InterfaceVar>,
    pub uniforms: Vec<UniformDecl>,
    /// Size of the default uniform block in words.
    pub uniform_words: u32,
    pub blocks: Vec<BlockDecl>,
    /// Shader storage blocks (`buffer` blocks, std430 or std140 offsets), in their own
    /// binding space (GL_SHADER_STORAGE_BUFFER).
    pub storage_blocks: Vec<BlockDecl>,
    /// Fragment shader uses `discard`.
    pub uses_discard: bool,
    /// Fragment shader writes gl_FragDepth.
    pub writes_depth: bool,
    /// `layout(early_fragment_tests) in;`
    pub early_fragment_tests: bool,
    /// `layout(origin_upper_left) in vec4 gl_FragCoord;` (GLSL 1.50 §4.3.8.1): gl_FragCoord.y
    /// counts down from the top of the framebuffer instead of up from the bottom. Read by
    /// the rasterizer, which fills the FragCoord builtins; the code itself does not change.
    pub frag_coord_origin_upper_left: bool,
    /// `layout(pixel_center_integer) in vec4 gl_FragCoord;` (GLSL 1.50 §4.3.8.1): pixel
    /// centres sit at integer gl_FragCoord.xy instead of at half-integers.
    pub frag_coord_pixel_center_integer: bool,
    /// `layout(bindless_sampler) uniform;` at global scope.
    pub global_bindless_sampler: bool,
    /// `layout(bound_sampler) uniform;` at global scope.
    pub global_bound_sampler: bool,
    /// Compute: `layout(local_size_x = X, local_size_y = Y, local_size_z = Z) in;`
    /// (`[0; 3]` when not declared: a link error for a compute stage).
    pub local_size: [u32; 3],
    /// Compute: bytes of `shared` variables (std430-laid-out); they are storage block
    /// `storage_blocks.len()` of the module's code (`ir::compute::shared_block`).
    pub shared_bytes: u32,
    /// Geometry: the layout qualifiers and the output record (`ir::geometry`).
    pub geometry: super::geometry::GeometryLayout,
    /// Vertex and geometry: the transform feedback layout qualifiers of the outputs.
    pub xfb: XfbDecls,
    /// Tessellation: both stages' layout qualifiers and patch variables (`ir::tess`).
    pub tess: super::tess::TessLayout,
    /// Subroutine functions and uniforms (`ir::subroutine`); empty for most shaders.
    pub subroutines: super::subroutine::SubroutineInfo,
}

/// The transform feedback layout qualifiers of a stage's outputs (GLSL 4.40 §4.4.2.1:
/// `xfb_buffer`, `xfb_offset`, `xfb_stride`). A program whose last vertex stage has any
/// captures what they say and ignores glTransformFeedbackVaryings (GL 4.5 core
/// §11.1.2.1); the API turns them into its capture layout at link.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct XfbDecls {
    /// (output name, buffer, byte offset) of each output assigned an offset, in
    /// declaration order (the leaves of a struct output each have their own).
    pub captures: Vec<(String, u32, u32)>,
    /// (buffer, bytes) of each `xfb_stride`, one per buffer.
    pub strides: Vec<(u32, u32)>,
}

impl XfbDecls {
    /// No transform feedback qualifier was given.
    pub fn is_empty(&self) -> bool {
        self.captures.is_empty() && self.strides.is_empty()
    }
}
