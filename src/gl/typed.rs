//! Typed GL enums: the API turns a raw `GLenum` into one of these once, when the command
//! that names it is called (an unknown value is that command's GL_INVALID_ENUM), and stores
//! the typed value; raster, sampler and jit only ever see these. `to_gl` gives the enum back
//! for glGet*.
//!
//! Each enum lists its variants in the order of the spec's table where one exists, so that
//! `variant as u8` can index such a table (blend factors: GL 4.5 core table 17.2).

use super::enums;

/// Declares a typed GL enum: its variants, each with the GL enum value it stands for, plus
/// `from_gl` (None for any other value) and `to_gl`.
macro_rules! gl_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $($(#[$vmeta:meta])* $variant:ident = $value:ident,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The typed value of a raw GL enum, or None when `value` is not one of these.
            pub const fn from_gl(value: u32) -> Option<Self> {
                match value {
                    $(enums::$value => Some($name::$variant),)+
                    _ => None,
                }
            }

            /// The GL enum value (what glGet* returns).
            pub const fn to_gl(self) -> u32 {
                match self {
                    $($name::$variant => enums::$value,)+
                }
            }
        }
    };
}

gl_enum! {
    /// Depth and stencil (and later texture compare) functions, GL 4.5 core §17.3.5.
    pub enum CompareFunc {
        Never = NEVER,
        Less = LESS,
        Equal = EQUAL,
        Lequal = LEQUAL,
        Greater = GREATER,
        Notequal = NOTEQUAL,
        Gequal = GEQUAL,
        Always = ALWAYS,
    }
}

gl_enum! {
    /// Stencil operations, GL 4.5 core §17.3.5 (glStencilOp).
    pub enum StencilOp {
        Keep = KEEP,
        Zero = ZERO,
        Replace = REPLACE,
        Incr = INCR,
        Decr = DECR,
        Invert = INVERT,
        IncrWrap = INCR_WRAP,
        DecrWrap = DECR_WRAP,
    }
}

gl_enum! {
    /// Blend factors in the order of GL 4.5 core table 17.2 (`factor as u8` indexes it),
    /// the dual-source ones (SRC1_*, ARB_blend_func_extended) last.
    pub enum BlendFactor {
        Zero = ZERO,
        One = ONE,
        SrcColor = SRC_COLOR,
        OneMinusSrcColor = ONE_MINUS_SRC_COLOR,
        DstColor = DST_COLOR,
        OneMinusDstColor = ONE_MINUS_DST_COLOR,
        SrcAlpha = SRC_ALPHA,
        OneMinusSrcAlpha = ONE_MINUS_SRC_ALPHA,
        DstAlpha = DST_ALPHA,
        OneMinusDstAlpha = ONE_MINUS_DST_ALPHA,
        ConstantColor = CONSTANT_COLOR,
        OneMinusConstantColor = ONE_MINUS_CONSTANT_COLOR,
        ConstantAlpha = CONSTANT_ALPHA,
        OneMinusConstantAlpha = ONE_MINUS_CONSTANT_ALPHA,
        SrcAlphaSaturate = SRC_ALPHA_SATURATE,
        Src1Color = SRC1_COLOR,
        OneMinusSrc1Color = ONE_MINUS_SRC1_COLOR,
        Src1Alpha = SRC1_ALPHA,
        OneMinusSrc1Alpha = ONE_MINUS_SRC1_ALPHA,
    }
}

gl_enum! {
    /// Blend equations in the order of GL 4.5 core table 17.1 (`eq as u8` indexes it).
    pub enum BlendEquation {
        Add = FUNC_ADD,
        Subtract = FUNC_SUBTRACT,
        ReverseSubtract = FUNC_REVERSE_SUBTRACT,
        Min = MIN,
        Max = MAX,
    }
}

gl_enum! {
    /// Which faces glCullFace culls (GL 4.5 core §14.6.1).
    pub enum CullFace {
        Front = FRONT,
        Back = BACK,
        FrontAndBack = FRONT_AND_BACK,
    }
}

gl_enum! {
    /// The winding glFrontFace calls front-facing (GL 4.5 core §14.6.1).
    pub enum FrontFace {
        Cw = CW,
        Ccw = CCW,
    }
}

gl_enum! {
    /// Texture coordinate wrap modes (GL 4.5 core §8.14.2, table 8.20). `repr(u32)`: the
    /// sampler's `#[repr(C)]` descriptor holds it.
    #[repr(u32)]
    pub enum Wrap {
        Repeat = REPEAT,
        MirroredRepeat = MIRRORED_REPEAT,
        ClampToEdge = CLAMP_TO_EDGE,
        ClampToBorder = CLAMP_TO_BORDER,
        MirrorClampToEdge = MIRROR_CLAMP_TO_EDGE,
    }
}

gl_enum! {
    /// Minification filters (GL 4.5 core §8.14.2); the first two use no mipmaps.
    pub enum MinFilter {
        Nearest = NEAREST,
        Linear = LINEAR,
        NearestMipmapNearest = NEAREST_MIPMAP_NEAREST,
        LinearMipmapNearest = LINEAR_MIPMAP_NEAREST,
        NearestMipmapLinear = NEAREST_MIPMAP_LINEAR,
        LinearMipmapLinear = LINEAR_MIPMAP_LINEAR,
    }
}

gl_enum! {
    /// Magnification filters (GL 4.5 core §8.15).
    pub enum MagFilter {
        Nearest = NEAREST,
        Linear = LINEAR,
    }
}

gl_enum! {
    /// Vertex attribute component types (GL 4.5 core §10.3.1, table 10.3), including
    /// ARB_bindless_texture's 64-bit unsigned handles.
    pub enum AttribType {
        Byte = BYTE,
        UnsignedByte = UNSIGNED_BYTE,
        Short = SHORT,
        UnsignedShort = UNSIGNED_SHORT,
        Int = INT,
        UnsignedInt = UNSIGNED_INT,
        HalfFloat = HALF_FLOAT,
        Float = FLOAT,
        Double = DOUBLE,
        Fixed = FIXED,
        Int2101010Rev = INT_2_10_10_10_REV,
        UnsignedInt2101010Rev = UNSIGNED_INT_2_10_10_10_REV,
        UnsignedInt10f11f11fRev = UNSIGNED_INT_10F_11F_11F_REV,
        UnsignedInt64 = UNSIGNED_INT64_ARB,
    }
}

impl MinFilter {
    /// Whether the filter reads mipmap levels other than the base.
    pub const fn uses_mipmaps(self) -> bool {
        !matches!(self, MinFilter::Nearest | MinFilter::Linear)
    }
}

impl AttribType {
    /// Whether one 32-bit word holds all four components (GL 4.5 core §10.3.2).
    pub const fn is_packed(self) -> bool {
        matches!(
            self,
            AttribType::Int2101010Rev
                | AttribType::UnsignedInt2101010Rev
                | AttribType::UnsignedInt10f11f11fRev
        )
    }

    /// Bytes of one component (packed types: of the whole 4-component word).
    pub const fn size_bytes(self) -> u32 {
        match self {
            AttribType::Byte | AttribType::UnsignedByte => 1,
            AttribType::Short | AttribType::UnsignedShort | AttribType::HalfFloat => 2,
            AttribType::Int
            | AttribType::UnsignedInt
            | AttribType::Float
            | AttribType::Fixed
            | AttribType::Int2101010Rev
            | AttribType::UnsignedInt2101010Rev
            | AttribType::UnsignedInt10f11f11fRev => 4,
            AttribType::Double | AttribType::UnsignedInt64 => 8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trips<T: Copy + PartialEq + std::fmt::Debug>(
        all: &[T],
        to: fn(T) -> u32,
        from: fn(u32) -> Option<T>,
    ) {
        for &v in all {
            assert_eq!(from(to(v)), Some(v), "{v:?}");
        }
        // Distinct GL values, and a value that is none of them maps to None.
        let mut values: Vec<u32> = all.iter().map(|&v| to(v)).collect();
        values.sort();
        values.dedup();
        assert_eq!(values.len(), all.len());
        assert_eq!(from(0xFFFF_FFFF), None);
    }

    #[test]
    fn every_typed_enum_round_trips_through_its_gl_value() {
        round_trips(CompareFunc::ALL, CompareFunc::to_gl, CompareFunc::from_gl);
        round_trips(BlendFactor::ALL, BlendFactor::to_gl, BlendFactor::from_gl);
        round_trips(
            BlendEquation::ALL,
            BlendEquation::to_gl,
            BlendEquation::from_gl,
        );
        round_trips(CullFace::ALL, CullFace::to_gl, CullFace::from_gl);
        round_trips(FrontFace::ALL, FrontFace::to_gl, FrontFace::from_gl);
        round_trips(Wrap::ALL, Wrap::to_gl, Wrap::from_gl);
        round_trips(MinFilter::ALL, MinFilter::to_gl, MinFilter::from_gl);
        round_trips(MagFilter::ALL, MagFilter::to_gl, MagFilter::from_gl);
        round_trips(AttribType::ALL, AttribType::to_gl, AttribType::from_gl);
    }

    #[test]
    fn table_orders_hold() {
        // GL 4.5 core table 17.2 / 17.1 order, which the blend tables index.
        assert_eq!(BlendFactor::Zero as u8, 0);
        assert_eq!(BlendFactor::SrcAlphaSaturate as u8, 14);
        assert_eq!(BlendEquation::Max as u8, 4);
        // The compare functions are consecutive GL values NEVER..=ALWAYS.
        for (i, f) in CompareFunc::ALL.iter().enumerate() {
            assert_eq!(f.to_gl(), enums::NEVER + i as u32);
        }
    }

    #[test]
    fn filters_know_their_mipmaps() {
        assert!(!MinFilter::Linear.uses_mipmaps());
        assert!(MinFilter::NearestMipmapLinear.uses_mipmaps());
        assert_eq!(AttribType::UnsignedInt64.size_bytes(), 8);
    }
}
