//! GLSL types as the checker sees them (basic, array, struct), their flattened word layout
//! (the tight layout of vars, inputs and the default uniform block) and the std140 layout of
//! uniform blocks (GL 4.5 core §7.6.2.2).

use std::fmt;
use std::rc::Rc;

use crate::ir::{BaseType, ImageType, ScalarKind, ValueType};

/// A struct type; identity is by name and members.
#[derive(Debug, PartialEq)]
pub struct StructDef {
    pub name: String,
    pub members: Vec<(String, Type)>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Void,
    Basic(ValueType),
    Array(Box<Type>, u32),
    Struct(Rc<StructDef>),
}

pub const fn vt(base: BaseType, rows: u8, cols: u8) -> ValueType {
    ValueType::new(base, rows, cols)
}

impl Type {
    pub fn scalar(base: BaseType) -> Type {
        Type::Basic(vt(base, 1, 1))
    }
    pub fn vector(base: BaseType, n: u8) -> Type {
        Type::Basic(vt(base, n, 1))
    }
    pub const FLOAT: Type = Type::Basic(vt(BaseType::Float, 1, 1));
    pub const INT: Type = Type::Basic(vt(BaseType::Int, 1, 1));
    pub const UINT: Type = Type::Basic(vt(BaseType::Uint, 1, 1));
    pub const BOOL: Type = Type::Basic(vt(BaseType::Bool, 1, 1));

    pub fn basic(&self) -> Option<ValueType> {
        match self {
            Type::Basic(v) => Some(*v),
            _ => None,
        }
    }
    /// Words of the flattened (tight) layout.
    pub fn words(&self) -> u32 {
        match self {
            Type::Void => 0,
            Type::Basic(v) => v.words(),
            Type::Array(e, n) => e.words().saturating_mul(*n),
            Type::Struct(s) => s.members.iter().map(|(_, t)| t.words()).sum(),
        }
    }
    /// Scalar kind of each flattened word.
    pub fn word_kinds(&self, out: &mut Vec<ScalarKind>) {
        match self {
            Type::Void => {}
            Type::Basic(v) => {
                let k = base_kind(v.base);
                for _ in 0..v.words() {
                    out.push(k);
                }
            }
            Type::Array(e, n) => {
                for _ in 0..*n {
                    e.word_kinds(out);
                }
            }
            Type::Struct(s) => {
                for (_, t) in &s.members {
                    t.word_kinds(out);
                }
            }
        }
    }
    /// Nesting depth of arrays and structs (a basic type is 0).
    pub fn nesting(&self) -> u32 {
        match self {
            Type::Void | Type::Basic(_) => 0,
            Type::Array(e, _) => 1 + e.nesting(),
            Type::Struct(s) => {
                1 + s
                    .members
                    .iter()
                    .map(|(_, t)| t.nesting())
                    .max()
                    .unwrap_or(0)
            }
        }
    }
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Basic(v) if v.rows == 1 && v.cols == 1)
    }
    pub fn is_vector(&self) -> bool {
        matches!(self, Type::Basic(v) if v.rows > 1 && v.cols == 1)
    }
    pub fn is_matrix(&self) -> bool {
        matches!(self, Type::Basic(v) if v.cols > 1)
    }
    pub fn base(&self) -> Option<BaseType> {
        self.basic().map(|v| v.base)
    }
    /// Whether the type is or holds a sampler.
    pub fn contains_sampler(&self) -> bool {
        match self {
            Type::Basic(v) => v.base.is_sampler(),
            Type::Array(e, _) => e.contains_sampler(),
            Type::Struct(s) => s.members.iter().any(|(_, t)| t.contains_sampler()),
            Type::Void => false,
        }
    }
    pub fn contains_base(&self, b: BaseType) -> bool {
        match self {
            Type::Basic(v) => v.base == b,
            Type::Array(e, _) => e.contains_base(b),
            Type::Struct(s) => s.members.iter().any(|(_, t)| t.contains_base(b)),
            Type::Void => false,
        }
    }
}

pub fn base_kind(b: BaseType) -> ScalarKind {
    match b {
        BaseType::Float => ScalarKind::F32,
        BaseType::Int => ScalarKind::I32,
        BaseType::Bool => ScalarKind::Bool,
        // uint, uint64_t and sampler handles: u32 words.
        _ => ScalarKind::U32,
    }
}

/// Words per component (2 for 64-bit values).
pub fn comp_words(b: BaseType) -> u32 {
    b.comp_words()
}

pub fn base_name(b: BaseType) -> &'static str {
    match b {
        BaseType::Float => "float",
        BaseType::Int => "int",
        BaseType::Uint => "uint",
        BaseType::Bool => "bool",
        BaseType::Uint64 => "uint64_t",
        BaseType::Double => "double",
        BaseType::AtomicUint => "atomic_uint",
        BaseType::Image(i) => i.name(),
        b => b.sampler_name().unwrap_or("sampler"),
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Void => write!(f, "void"),
            Type::Basic(v) => {
                if v.cols > 1 {
                    let d = if v.base == BaseType::Double { "d" } else { "" };
                    if v.cols == v.rows {
                        write!(f, "{d}mat{}", v.cols)
                    } else {
                        write!(f, "{d}mat{}x{}", v.cols, v.rows)
                    }
                } else if v.rows > 1 {
                    let p = match v.base {
                        BaseType::Float => "",
                        BaseType::Int => "i",
                        BaseType::Uint => "u",
                        BaseType::Bool => "b",
                        BaseType::Uint64 => "u64",
                        BaseType::Double => "d",
                        _ => "sampler",
                    };
                    write!(f, "{p}vec{}", v.rows)
                } else {
                    write!(f, "{}", base_name(v.base))
                }
            }
            Type::Array(e, n) => write!(f, "{e}[{n}]"),
            Type::Struct(s) => write!(f, "{}", s.name),
        }
    }
}

/// Parses a built-in type name. `Err` carries a reason for types we know but do not support.
pub fn builtin_type(name: &str) -> Option<Result<Type, String>> {
    use BaseType::*;
    let t = |b, r, c| Some(Ok(Type::Basic(vt(b, r, c))));
    match name {
        "void" => Some(Ok(Type::Void)),
        "float" => t(Float, 1, 1),
        "int" => t(Int, 1, 1),
        "uint" => t(Uint, 1, 1),
        "bool" => t(Bool, 1, 1),
        "uint64_t" => t(Uint64, 1, 1),
        "sampler2D" => t(Sampler2D, 1, 1),
        "sampler2DShadow" => t(Sampler2DShadow, 1, 1),
        "isampler2D" => t(ISampler2D, 1, 1),
        "usampler2D" => t(USampler2D, 1, 1),
        "sampler2DArray" => t(Sampler2DArray, 1, 1),
        "isampler2DArray" => t(ISampler2DArray, 1, 1),
        "usampler2DArray" => t(USampler2DArray, 1, 1),
        "sampler2DArrayShadow" => t(Sampler2DArrayShadow, 1, 1),
        "samplerCube" => t(SamplerCube, 1, 1),
        "isamplerCube" => t(ISamplerCube, 1, 1),
        "usamplerCube" => t(USamplerCube, 1, 1),
        "samplerCubeShadow" => t(SamplerCubeShadow, 1, 1),
        "sampler3D" => t(Sampler3D, 1, 1),
        "isampler3D" => t(ISampler3D, 1, 1),
        "usampler3D" => t(USampler3D, 1, 1),
        "sampler2DMS" => t(Sampler2DMs, 1, 1),
        "isampler2DMS" => t(ISampler2DMs, 1, 1),
        "usampler2DMS" => t(USampler2DMs, 1, 1),
        "sampler2DMSArray" => t(Sampler2DMsArray, 1, 1),
        "isampler2DMSArray" => t(ISampler2DMsArray, 1, 1),
        "usampler2DMSArray" => t(USampler2DMsArray, 1, 1),
        "sampler1D" => t(Sampler1D, 1, 1),
        "isampler1D" => t(ISampler1D, 1, 1),
        "usampler1D" => t(USampler1D, 1, 1),
        "sampler1DShadow" => t(Sampler1DShadow, 1, 1),
        "sampler1DArray" => t(Sampler1DArray, 1, 1),
        "isampler1DArray" => t(ISampler1DArray, 1, 1),
        "usampler1DArray" => t(USampler1DArray, 1, 1),
        "sampler1DArrayShadow" => t(Sampler1DArrayShadow, 1, 1),
        "sampler2DRect" => t(Sampler2DRect, 1, 1),
        "isampler2DRect" => t(ISampler2DRect, 1, 1),
        "usampler2DRect" => t(USampler2DRect, 1, 1),
        "sampler2DRectShadow" => t(Sampler2DRectShadow, 1, 1),
        "samplerCubeArray" => t(SamplerCubeArray, 1, 1),
        "isamplerCubeArray" => t(ISamplerCubeArray, 1, 1),
        "usamplerCubeArray" => t(USamplerCubeArray, 1, 1),
        "samplerCubeArrayShadow" => t(SamplerCubeArrayShadow, 1, 1),
        "samplerBuffer" => t(SamplerBuffer, 1, 1),
        "isamplerBuffer" => t(ISamplerBuffer, 1, 1),
        "usamplerBuffer" => t(USamplerBuffer, 1, 1),
        "atomic_uint" => t(AtomicUint, 1, 1),
        "vec2" => t(Float, 2, 1),
        "vec3" => t(Float, 3, 1),
        "vec4" => t(Float, 4, 1),
        "ivec2" => t(Int, 2, 1),
        "ivec3" => t(Int, 3, 1),
        "ivec4" => t(Int, 4, 1),
        "uvec2" => t(Uint, 2, 1),
        "uvec3" => t(Uint, 3, 1),
        "uvec4" => t(Uint, 4, 1),
        "bvec2" => t(Bool, 2, 1),
        "bvec3" => t(Bool, 3, 1),
        "bvec4" => t(Bool, 4, 1),
        "u64vec2" => t(Uint64, 2, 1),
        "u64vec3" => t(Uint64, 3, 1),
        "u64vec4" => t(Uint64, 4, 1),
        "mat2" | "mat2x2" => t(Float, 2, 2),
        "mat3" | "mat3x3" => t(Float, 3, 3),
        "mat4" | "mat4x4" => t(Float, 4, 4),
        "mat2x3" => t(Float, 3, 2),
        "mat2x4" => t(Float, 4, 2),
        "mat3x2" => t(Float, 2, 3),
        "mat3x4" => t(Float, 4, 3),
        "mat4x2" => t(Float, 2, 4),
        "mat4x3" => t(Float, 3, 4),
        "double" => t(Double, 1, 1),
        "dvec2" => t(Double, 2, 1),
        "dvec3" => t(Double, 3, 1),
        "dvec4" => t(Double, 4, 1),
        "dmat2" | "dmat2x2" => t(Double, 2, 2),
        "dmat3" | "dmat3x3" => t(Double, 3, 3),
        "dmat4" | "dmat4x4" => t(Double, 4, 4),
        "dmat2x3" => t(Double, 3, 2),
        "dmat2x4" => t(Double, 4, 2),
        "dmat3x2" => t(Double, 2, 3),
        "dmat3x4" => t(Double, 4, 3),
        "dmat4x2" => t(Double, 2, 4),
        "dmat4x3" => t(Double, 3, 4),
        "int64_t" | "i64vec2" | "i64vec3" | "i64vec4" => Some(Err(
            "64-bit signed integer types are not supported yet".to_string(),
        )),
        n if ImageType::from_name(n).is_some() => {
            ImageType::from_name(n).map(|i| Ok(Type::Basic(vt(Image(i), 1, 1))))
        }
        n if n.contains("sampler") => Some(Err(format!(
            "sampler type `{n}' is not supported (softgl has the 1D, 2D, 3D, cube, rect, \
             buffer, array, cube array and multisample forms)"
        ))),
        _ => None,
    }
}

/// How a block lays out its members: std140 (uniform blocks; storage blocks that ask) or
/// std430 (storage blocks' default here), column- or row-major matrices.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct BlockLayout {
    pub row_major: bool,
    pub std430: bool,
}

impl BlockLayout {
    pub const fn std140(row_major: bool) -> Self {
        BlockLayout {
            row_major,
            std430: false,
        }
    }

    /// std140 rounds array strides, matrix columns and struct alignments up to a vec4
    /// (GL 4.5 core §7.6.2.2 rules 4 and 9); std430 does not.
    fn vec4(self, a: u32) -> u32 {
        if self.std430 {
            a
        } else {
            round_up(a, 16)
        }
    }

    /// Bytes between the columns (rows, when row-major) of a matrix (rules 5 and 7).
    pub fn matrix_stride(self, v: &ValueType) -> u32 {
        let comps = if self.row_major { v.cols } else { v.rows };
        self.vec4(vector_align(comps as u32, comp_bytes(v.base)))
    }
}

fn comp_bytes(b: BaseType) -> u32 {
    if b.comp_words() == 2 {
        8
    } else {
        4
    }
}

/// Base alignment of a vector of `comps` components of `n` bytes (rules 1-3).
fn vector_align(comps: u32, n: u32) -> u32 {
    match comps {
        1 => n,
        2 => 2 * n,
        _ => 4 * n,
    }
}

/// std140 base alignment and size of a type, in bytes (GL 4.5 core §7.6.2.2). Samplers in
/// blocks (ARB_bindless_texture) are 64-bit handles: 8 bytes, aligned to 8.
pub fn std140_align_size(t: &Type, row_major: bool) -> (u32, u32) {
    block_align_size(t, BlockLayout::std140(row_major))
}

/// Base alignment and size of a type in a block of layout `l`, in bytes. A runtime-sized
/// array (length 0) has size 0.
pub fn block_align_size(t: &Type, l: BlockLayout) -> (u32, u32) {
    match t {
        Type::Void => (4, 0),
        Type::Basic(v) => {
            let n = comp_bytes(v.base);
            if v.cols > 1 {
                // Rule 5/7: an array of column (or row) vectors.
                let count = if l.row_major { v.rows } else { v.cols } as u32;
                let stride = l.matrix_stride(v);
                (stride, stride * count)
            } else {
                let r = v.rows as u32;
                (vector_align(r, n), n * r)
            }
        }
        Type::Array(e, len) => {
            let stride = block_array_stride(e, l);
            let (ea, _) = block_align_size(e, l);
            (l.vec4(ea), stride.saturating_mul(*len))
        }
        Type::Struct(s) => {
            let mut off = 0u32;
            let mut align = if l.std430 { 4 } else { 16 };
            for (_, m) in &s.members {
                let (a, sz) = block_align_size(m, l);
                align = align.max(a);
                off = round_up(off, a).saturating_add(sz);
            }
            let a = l.vec4(align);
            (a, round_up(off, a))
        }
    }
}

/// Byte stride between elements of an array of `e` (rule 4: rounded up to a vec4).
pub fn std140_array_stride(e: &Type, row_major: bool) -> u32 {
    block_array_stride(e, BlockLayout::std140(row_major))
}

/// Byte stride between elements of an array of `e` in layout `l`.
pub fn block_array_stride(e: &Type, l: BlockLayout) -> u32 {
    let (a, s) = block_align_size(e, l);
    l.vec4(round_up(s, a))
}

/// Byte offsets of the members of a struct laid out by std140.
pub fn std140_member_offsets(s: &StructDef, row_major: bool) -> Vec<u32> {
    block_member_offsets(s, BlockLayout::std140(row_major))
}

/// Byte offsets of the members of a struct laid out by `l`.
pub fn block_member_offsets(s: &StructDef, l: BlockLayout) -> Vec<u32> {
    let mut off = 0u32;
    let mut out = Vec::new();
    for (_, m) in &s.members {
        let (a, sz) = block_align_size(m, l);
        off = round_up(off, a);
        out.push(off);
        off = off.saturating_add(sz);
    }
    out
}

pub fn round_up(x: u32, a: u32) -> u32 {
    if a == 0 {
        return x;
    }
    x.div_ceil(a).saturating_mul(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(members: Vec<(&str, Type)>) -> StructDef {
        StructDef {
            name: "S".into(),
            members: members
                .into_iter()
                .map(|(n, t)| (n.to_string(), t))
                .collect(),
        }
    }

    #[test]
    fn std140_offsets_follow_gl_4_5_7_6_2_2() {
        let vec3 = Type::vector(BaseType::Float, 3);
        let mat4 = Type::Basic(vt(BaseType::Float, 4, 4));
        let s = st(vec![
            ("a", Type::FLOAT),
            ("b", vec3.clone()),
            ("c", Type::FLOAT),
            ("d", Type::Array(Box::new(Type::FLOAT), 3)),
            ("e", mat4),
            ("h", Type::scalar(BaseType::Sampler2D)),
            ("f", Type::vector(BaseType::Float, 2)),
        ]);
        // a@0, b@16 (vec3 aligns to 16), c@28 (packs after vec3), d@32 stride 16,
        // e@80 (4 columns × 16), h@144 (8-byte handle), f@152 (vec2 aligns to 8)
        assert_eq!(
            std140_member_offsets(&s, false),
            vec![0, 16, 28, 32, 80, 144, 152]
        );
        assert_eq!(
            std140_align_size(&Type::Struct(Rc::new(s)), false),
            (16, 160)
        );
        assert_eq!(std140_array_stride(&Type::FLOAT, false), 16);
        assert_eq!(std140_array_stride(&vec3, false), 16);
    }

    #[test]
    fn tight_words() {
        let m = Type::Basic(vt(BaseType::Float, 2, 3));
        assert_eq!(m.words(), 6);
        assert_eq!(Type::Array(Box::new(m), 2).words(), 12);
        assert_eq!(Type::scalar(BaseType::Sampler2D).words(), 2);
        assert_eq!(
            format!("{}", Type::Basic(vt(BaseType::Float, 2, 3))),
            "mat3x2"
        );
    }
}
