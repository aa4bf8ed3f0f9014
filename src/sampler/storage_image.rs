//! Shader image load/store (GL 4.5 core §8.26, GLSL 4.60 §8.12): the image formats of
//! table 8.27 with their bit layouts and conversions, the per-draw image views a draw's
//! image units and resident image handles become (`ImageView`, `ImageSet`), and the one
//! routine both the JIT and the interpreter reach through `rt_texture` for `imageLoad`,
//! `imageStore`, `imageSize`/`imageSamples` and `imageAtomic*` (`access`).
//!
//! Memory model (as `api::storage_buffer` does for SSBOs): a draw that uses images gets,
//! per image unit or resident image handle, a copy of the bound level's texels (the bound
//! layer, or every layer when the unit is layered) in the *texture's* format, as 32-bit
//! atomic words. Invocations on any worker read and write those words; the unit's format
//! decides how a texel's bits are read and written (§8.26.1). A draw that can write images
//! runs at once and its views are written back into the textures. Every access is checked
//! here against the view's size: coordinates outside it, unknown handles, and units without
//! a usable texture read zero and drop stores.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use super::request::{TexRequest, TexResult};

/// Declares [`ImageFormat`] and its [`ImageFormat::ALL`] from one list, so that the two
/// cannot disagree.
macro_rules! image_formats {
    ($($f:ident),* $(,)?) => {
        /// The image formats of GLSL 4.60 §4.4.6.2 / GL 4.5 core table 8.27.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum ImageFormat {
            $($f),*
        }

        impl ImageFormat {
            /// Every format, in table 8.27's order.
            pub const ALL: [ImageFormat; [$(ImageFormat::$f),*].len()] = [$(ImageFormat::$f),*];
        }
    };
}

image_formats!(
    Rgba32f,
    Rgba16f,
    Rg32f,
    Rg16f,
    R11fG11fB10f,
    R32f,
    R16f,
    Rgba32ui,
    Rgba16ui,
    Rgb10A2ui,
    Rgba8ui,
    Rg32ui,
    Rg16ui,
    Rg8ui,
    R32ui,
    R16ui,
    R8ui,
    Rgba32i,
    Rgba16i,
    Rgba8i,
    Rg32i,
    Rg16i,
    Rg8i,
    R32i,
    R16i,
    R8i,
    Rgba16,
    Rgb10A2,
    Rgba8,
    Rg16,
    Rg8,
    R16,
    R8,
    Rgba16Snorm,
    Rgba8Snorm,
    Rg16Snorm,
    Rg8Snorm,
    R16Snorm,
    R8Snorm,
);

/// How a format's components are numbers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Num {
    Float,
    Unorm,
    Snorm,
    Uint,
    Sint,
}

/// A format's texel layout: `n` components of `bits` each, or one of the packed layouts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Layout {
    Comps { n: u8, bits: u8, num: Num },
    R11G11B10F,
    Rgb10A2(Num),
}

/// What an image format's loads return: floats, signed or unsigned integers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ImageClass {
    Float,
    Int,
    Uint,
}

impl ImageFormat {
    /// The layout qualifier's name (GLSL 4.60 §4.4.6.2).
    pub const fn glsl_name(self) -> &'static str {
        use ImageFormat::*;
        match self {
            Rgba32f => "rgba32f",
            Rgba16f => "rgba16f",
            Rg32f => "rg32f",
            Rg16f => "rg16f",
            R11fG11fB10f => "r11f_g11f_b10f",
            R32f => "r32f",
            R16f => "r16f",
            Rgba32ui => "rgba32ui",
            Rgba16ui => "rgba16ui",
            Rgb10A2ui => "rgb10_a2ui",
            Rgba8ui => "rgba8ui",
            Rg32ui => "rg32ui",
            Rg16ui => "rg16ui",
            Rg8ui => "rg8ui",
            R32ui => "r32ui",
            R16ui => "r16ui",
            R8ui => "r8ui",
            Rgba32i => "rgba32i",
            Rgba16i => "rgba16i",
            Rgba8i => "rgba8i",
            Rg32i => "rg32i",
            Rg16i => "rg16i",
            Rg8i => "rg8i",
            R32i => "r32i",
            R16i => "r16i",
            R8i => "r8i",
            Rgba16 => "rgba16",
            Rgb10A2 => "rgb10_a2",
            Rgba8 => "rgba8",
            Rg16 => "rg16",
            Rg8 => "rg8",
            R16 => "r16",
            R8 => "r8",
            Rgba16Snorm => "rgba16_snorm",
            Rgba8Snorm => "rgba8_snorm",
            Rg16Snorm => "rg16_snorm",
            Rg8Snorm => "rg8_snorm",
            R16Snorm => "r16_snorm",
            R8Snorm => "r8_snorm",
        }
    }

    /// The format a layout qualifier names (case-sensitive, as GLSL's qualifiers are).
    pub fn from_glsl(name: &str) -> Option<ImageFormat> {
        Self::ALL.into_iter().find(|f| f.glsl_name() == name)
    }

    /// The GL internal format enum (glBindImageTexture's `format`).
    pub const fn gl(self) -> u32 {
        use crate::gl::enums as gl;
        use ImageFormat::*;
        match self {
            Rgba32f => gl::RGBA32F,
            Rgba16f => gl::RGBA16F,
            Rg32f => gl::RG32F,
            Rg16f => gl::RG16F,
            R11fG11fB10f => gl::R11F_G11F_B10F,
            R32f => gl::R32F,
            R16f => gl::R16F,
            Rgba32ui => gl::RGBA32UI,
            Rgba16ui => gl::RGBA16UI,
            Rgb10A2ui => gl::RGB10_A2UI,
            Rgba8ui => gl::RGBA8UI,
            Rg32ui => gl::RG32UI,
            Rg16ui => gl::RG16UI,
            Rg8ui => gl::RG8UI,
            R32ui => gl::R32UI,
            R16ui => gl::R16UI,
            R8ui => gl::R8UI,
            Rgba32i => gl::RGBA32I,
            Rgba16i => gl::RGBA16I,
            Rgba8i => gl::RGBA8I,
            Rg32i => gl::RG32I,
            Rg16i => gl::RG16I,
            Rg8i => gl::RG8I,
            R32i => gl::R32I,
            R16i => gl::R16I,
            R8i => gl::R8I,
            Rgba16 => gl::RGBA16,
            Rgb10A2 => gl::RGB10_A2,
            Rgba8 => gl::RGBA8,
            Rg16 => gl::RG16,
            Rg8 => gl::RG8,
            R16 => gl::R16,
            R8 => gl::R8,
            Rgba16Snorm => gl::RGBA16_SNORM,
            Rgba8Snorm => gl::RGBA8_SNORM,
            Rg16Snorm => gl::RG16_SNORM,
            Rg8Snorm => gl::RG8_SNORM,
            R16Snorm => gl::R16_SNORM,
            R8Snorm => gl::R8_SNORM,
        }
    }

    /// The format of a GL internal format enum, if it is one of table 8.27's.
    pub fn from_gl(e: u32) -> Option<ImageFormat> {
        Self::ALL.into_iter().find(|f| f.gl() == e)
    }

    fn layout(self) -> Layout {
        use ImageFormat::*;
        let c = |n, bits, num| Layout::Comps { n, bits, num };
        match self {
            Rgba32f => c(4, 32, Num::Float),
            Rgba16f => c(4, 16, Num::Float),
            Rg32f => c(2, 32, Num::Float),
            Rg16f => c(2, 16, Num::Float),
            R11fG11fB10f => Layout::R11G11B10F,
            R32f => c(1, 32, Num::Float),
            R16f => c(1, 16, Num::Float),
            Rgba32ui => c(4, 32, Num::Uint),
            Rgba16ui => c(4, 16, Num::Uint),
            Rgb10A2ui => Layout::Rgb10A2(Num::Uint),
            Rgba8ui => c(4, 8, Num::Uint),
            Rg32ui => c(2, 32, Num::Uint),
            Rg16ui => c(2, 16, Num::Uint),
            Rg8ui => c(2, 8, Num::Uint),
            R32ui => c(1, 32, Num::Uint),
            R16ui => c(1, 16, Num::Uint),
            R8ui => c(1, 8, Num::Uint),
            Rgba32i => c(4, 32, Num::Sint),
            Rgba16i => c(4, 16, Num::Sint),
            Rgba8i => c(4, 8, Num::Sint),
            Rg32i => c(2, 32, Num::Sint),
            Rg16i => c(2, 16, Num::Sint),
            Rg8i => c(2, 8, Num::Sint),
            R32i => c(1, 32, Num::Sint),
            R16i => c(1, 16, Num::Sint),
            R8i => c(1, 8, Num::Sint),
            Rgba16 => c(4, 16, Num::Unorm),
            Rgb10A2 => Layout::Rgb10A2(Num::Unorm),
            Rgba8 => c(4, 8, Num::Unorm),
            Rg16 => c(2, 16, Num::Unorm),
            Rg8 => c(2, 8, Num::Unorm),
            R16 => c(1, 16, Num::Unorm),
            R8 => c(1, 8, Num::Unorm),
            Rgba16Snorm => c(4, 16, Num::Snorm),
            Rgba8Snorm => c(4, 8, Num::Snorm),
            Rg16Snorm => c(2, 16, Num::Snorm),
            Rg8Snorm => c(2, 8, Num::Snorm),
            R16Snorm => c(1, 16, Num::Snorm),
            R8Snorm => c(1, 8, Num::Snorm),
        }
    }

    /// What loads of this format return.
    pub fn class(self) -> ImageClass {
        match self.layout() {
            Layout::Comps { num: Num::Uint, .. } | Layout::Rgb10A2(Num::Uint) => ImageClass::Uint,
            Layout::Comps { num: Num::Sint, .. } => ImageClass::Int,
            _ => ImageClass::Float,
        }
    }

    /// Bytes of one texel (1, 2, 4, 8 or 16).
    pub fn texel_bytes(self) -> u32 {
        match self.layout() {
            Layout::Comps { n, bits, .. } => n as u32 * bits as u32 / 8,
            Layout::R11G11B10F | Layout::Rgb10A2(_) => 4,
        }
    }

    /// Reads one texel (`bytes`, at least `texel_bytes` long) as the four 32-bit values a
    /// load returns: f32 bits for float, unorm and snorm formats, i32/u32 bits for integer
    /// ones, components the format lacks filled with (0, 0, 0, 1) (GL 4.5 core §8.26).
    pub fn decode(self, bytes: &[u8]) -> [u32; 4] {
        let word = |i: usize| -> u32 {
            let mut w = [0u8; 4];
            for (k, b) in w.iter_mut().enumerate() {
                *b = bytes.get(i + k).copied().unwrap_or(0);
            }
            u32::from_le_bytes(w)
        };
        let one_f = 1.0f32.to_bits();
        match self.layout() {
            Layout::Comps { n, bits, num } => {
                let one = if matches!(num, Num::Uint | Num::Sint) {
                    1
                } else {
                    one_f
                };
                let mut out = [0, 0, 0, one];
                let nb = bits as usize / 8;
                for (c, o) in out.iter_mut().enumerate().take(n as usize) {
                    let mut raw = 0u32;
                    for k in 0..nb {
                        raw |= (bytes.get(c * nb + k).copied().unwrap_or(0) as u32) << (8 * k);
                    }
                    *o = decode_comp(raw, bits as u32, num);
                }
                out
            }
            Layout::R11G11B10F => {
                let w = word(0);
                [
                    ufloat_to_f32(w & 0x7FF, 6).to_bits(),
                    ufloat_to_f32((w >> 11) & 0x7FF, 6).to_bits(),
                    ufloat_to_f32(w >> 22, 5).to_bits(),
                    one_f,
                ]
            }
            Layout::Rgb10A2(num) => {
                let w = word(0);
                let f = [w & 0x3FF, (w >> 10) & 0x3FF, (w >> 20) & 0x3FF, w >> 30];
                let bits = [10, 10, 10, 2];
                [0, 1, 2, 3].map(|c| decode_comp(f[c], bits[c], num))
            }
        }
    }

    /// Writes the four 32-bit values a store passes (f32 bits for float, unorm and snorm
    /// formats; i32/u32 bits for integer ones) as one texel of this format into `out` (at
    /// least `texel_bytes` long; a shorter slice is left untouched). Conversions: floats to
    /// f16 round to nearest even; unorm round(clamp(x, 0, 1)·(2^b − 1)), snorm
    /// round(clamp(x, −1, 1)·(2^(b−1) − 1)) (GL 4.5 core §2.3.5), NaN as 0; integers are
    /// clamped to the component's range, as integer uploads are.
    pub fn encode(self, v: [u32; 4], out: &mut [u8]) {
        let tb = self.texel_bytes() as usize;
        if out.len() < tb {
            return;
        }
        match self.layout() {
            Layout::Comps { n, bits, num } => {
                let nb = bits as usize / 8;
                for c in 0..n as usize {
                    let raw = encode_comp(v[c], bits as u32, num);
                    for k in 0..nb {
                        out[c * nb + k] = (raw >> (8 * k)) as u8;
                    }
                }
            }
            Layout::R11G11B10F => {
                let f = |c: usize| f32::from_bits(v[c]);
                let w = f32_to_ufloat(f(0), 6)
                    | f32_to_ufloat(f(1), 6) << 11
                    | f32_to_ufloat(f(2), 5) << 22;
                out[..4].copy_from_slice(&w.to_le_bytes());
            }
            Layout::Rgb10A2(num) => {
                let bits = [10, 10, 10, 2];
                let f = [0, 1, 2, 3].map(|c| encode_comp(v[c], bits[c], num));
                let w = f[0] | f[1] << 10 | f[2] << 20 | f[3] << 30;
                out[..4].copy_from_slice(&w.to_le_bytes());
            }
        }
    }
}

/// One component's raw `bits`-bit value as a load returns it.
fn decode_comp(raw: u32, bits: u32, num: Num) -> u32 {
    let max = if bits == 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    };
    match num {
        Num::Float if bits == 32 => raw,
        Num::Float => half::f16::from_bits(raw as u16).to_f32().to_bits(),
        Num::Unorm => (raw as f32 / max as f32).to_bits(),
        Num::Snorm => {
            let s = sign_extend(raw, bits);
            let m = (max >> 1) as f32;
            let x = s as f32 / m;
            (if x < -1.0 { -1.0 } else { x }).to_bits()
        }
        Num::Uint => raw,
        Num::Sint => sign_extend(raw, bits) as u32,
    }
}

/// One component's store value as its raw `bits`-bit field.
fn encode_comp(v: u32, bits: u32, num: Num) -> u32 {
    let max = if bits == 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    };
    let f = f32::from_bits(v);
    match num {
        Num::Float if bits == 32 => v,
        Num::Float => half::f16::from_f32(f).to_bits() as u32,
        Num::Unorm => {
            if f.is_nan() {
                0
            } else {
                (f.clamp(0.0, 1.0) * max as f32).round() as u32
            }
        }
        Num::Snorm => {
            if f.is_nan() {
                0
            } else {
                let m = (max >> 1) as f32;
                ((f.clamp(-1.0, 1.0) * m).round() as i32 as u32) & max
            }
        }
        Num::Uint => v.min(max),
        Num::Sint => {
            let half = (max >> 1) as i64;
            ((v as i32 as i64).clamp(-half - 1, half) as u32) & max
        }
    }
}

fn sign_extend(raw: u32, bits: u32) -> i32 {
    let s = 32 - bits;
    ((raw << s) as i32) >> s
}

/// An unsigned small float (5 exponent bits, `mbits` mantissa bits: 6 for the 11-bit,
/// 5 for the 10-bit components of R11F_G11F_B10F, GL 4.5 core §2.3.4.3, 2.3.4.4) as f32.
/// Exact: every such value is an f32.
fn ufloat_to_f32(v: u32, mbits: u32) -> f32 {
    let e = v >> mbits;
    let m = v & ((1 << mbits) - 1);
    match e {
        0 => {
            // m · 2^(−14 − mbits): an exact product by a power of two.
            m as f32 * f32::from_bits((127 - 14 - mbits) << 23)
        }
        31 if m == 0 => f32::INFINITY,
        31 => f32::NAN,
        _ => f32::from_bits((e + 127 - 15) << 23 | m << (23 - mbits)),
    }
}

/// f32 → unsigned small float, rounded to nearest even in integers: negative values (and
/// −0) give 0, NaN a NaN, +∞ and values past the largest finite one the largest finite one
/// (+∞ itself stays +∞).
fn f32_to_ufloat(x: f32, mbits: u32) -> u32 {
    let max_finite = (30 << mbits) | ((1 << mbits) - 1);
    if x.is_nan() {
        return (31 << mbits) | 1;
    }
    if x.is_sign_negative() || x == 0.0 {
        return 0;
    }
    if x.is_infinite() {
        return 31 << mbits;
    }
    let bits = x.to_bits();
    let exp = ((bits >> 23) & 0xFF) as i32;
    // f32 denormals are far below the smallest small-float denormal: they round to 0.
    if exp == 0 {
        return 0;
    }
    let mant = (bits & 0x7F_FFFF) | 0x80_0000; // 1.m in 24 bits
    let e = exp - 127 + 15; // the small float's biased exponent
    let shift = if e > 0 {
        23 - mbits as i32
    } else {
        23 - mbits as i32 + 1 - e
    };
    if shift > 24 {
        return 0;
    }
    let shift = shift as u32;
    let half = 1u32 << (shift - 1);
    let lsb = (mant >> shift) & 1;
    let rounded = (mant + half - 1 + lsb) >> shift;
    let v = if e > 0 {
        ((e as u32) << mbits) + rounded - (1 << mbits)
    } else {
        rounded
    };
    v.min(max_finite)
}

/// The GLSL image dimensionality (GLSL 4.60 §4.1.7.2), as the request's `offset[1]` names
/// it: it says which coordinate components are x, y, layer and how `imageSize` answers.
#[repr(u32)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ImageDim {
    D1 = 0,
    D2 = 1,
    D3 = 2,
    Rect = 3,
    Cube = 4,
    Buffer = 5,
    D1Array = 6,
    D2Array = 7,
    CubeArray = 8,
    D2Ms = 9,
    D2MsArray = 10,
}

impl ImageDim {
    pub const ALL: [ImageDim; 11] = [
        ImageDim::D1,
        ImageDim::D2,
        ImageDim::D3,
        ImageDim::Rect,
        ImageDim::Cube,
        ImageDim::Buffer,
        ImageDim::D1Array,
        ImageDim::D2Array,
        ImageDim::CubeArray,
        ImageDim::D2Ms,
        ImageDim::D2MsArray,
    ];
    /// Components of the coordinate argument (int, ivec2 or ivec3).
    pub const fn coord_comps(self) -> u8 {
        match self {
            ImageDim::D1 | ImageDim::Buffer => 1,
            ImageDim::D2 | ImageDim::Rect | ImageDim::D1Array | ImageDim::D2Ms => 2,
            _ => 3,
        }
    }
    /// Components of imageSize's answer.
    pub const fn size_comps(self) -> u8 {
        match self {
            ImageDim::D1 | ImageDim::Buffer => 1,
            ImageDim::D2 | ImageDim::Rect | ImageDim::Cube | ImageDim::D1Array | ImageDim::D2Ms => {
                2
            }
            _ => 3,
        }
    }
    /// Whether the image is multisample (imageLoad/Store take a sample number).
    pub const fn is_ms(self) -> bool {
        matches!(self, ImageDim::D2Ms | ImageDim::D2MsArray)
    }
    /// The name's middle part: `image{suffix}`.
    pub const fn suffix(self) -> &'static str {
        match self {
            ImageDim::D1 => "1D",
            ImageDim::D2 => "2D",
            ImageDim::D3 => "3D",
            ImageDim::Rect => "2DRect",
            ImageDim::Cube => "Cube",
            ImageDim::Buffer => "Buffer",
            ImageDim::D1Array => "1DArray",
            ImageDim::D2Array => "2DArray",
            ImageDim::CubeArray => "CubeArray",
            ImageDim::D2Ms => "2DMS",
            ImageDim::D2MsArray => "2DMSArray",
        }
    }
}

/// The image operation of a `TexOp::Image` request (its `lod`-free `offset[0]` word).
#[repr(u32)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ImageOp {
    Load = 0,
    Store = 1,
    /// out[0..3]: imageSize's components; out[3]: imageSamples.
    Size = 2,
    AtomicAdd = 3,
    AtomicMinU = 4,
    AtomicMinI = 5,
    AtomicMaxU = 6,
    AtomicMaxI = 7,
    AtomicAnd = 8,
    AtomicOr = 9,
    AtomicXor = 10,
    AtomicExchange = 11,
    AtomicCompSwap = 12,
}

impl ImageOp {
    pub const ALL: [ImageOp; 13] = [
        ImageOp::Load,
        ImageOp::Store,
        ImageOp::Size,
        ImageOp::AtomicAdd,
        ImageOp::AtomicMinU,
        ImageOp::AtomicMinI,
        ImageOp::AtomicMaxU,
        ImageOp::AtomicMaxI,
        ImageOp::AtomicAnd,
        ImageOp::AtomicOr,
        ImageOp::AtomicXor,
        ImageOp::AtomicExchange,
        ImageOp::AtomicCompSwap,
    ];
    pub fn from_u32(v: u32) -> Option<ImageOp> {
        Self::ALL.into_iter().find(|o| *o as u32 == v)
    }
    /// Whether the op may change memory (stores and atomics).
    pub const fn writes(self) -> bool {
        !matches!(self, ImageOp::Load | ImageOp::Size)
    }
}

/// The handle a shader sees for image unit `unit` (bound images: the draw writes it into
/// the image uniform's words, as bound samplers get internal texture handles). Bindless
/// image handles (`api::bindless`) use `IMAGE_HANDLE_BASE` upward.
pub const fn unit_handle(unit: u32) -> u64 {
    UNIT_HANDLE_BASE | unit as u64
}
/// Handles of bound image units: `UNIT_HANDLE_BASE + unit`.
pub const UNIT_HANDLE_BASE: u64 = 0xFFFF_FFFE << 32;
/// The first bindless image handle (`glGetImageHandleARB`); handles count up from here.
pub const IMAGE_HANDLE_BASE: u64 = 0xFFFF_FFFD << 32;

/// One image a draw's shaders can reach: the texels of the bound level (one layer, or all
/// of them when layered; every sample of a multisample texture), in the texture's format,
/// read and written through the unit's `format`.
#[derive(Clone, Debug)]
pub struct ImageView {
    /// The texels, tightly packed: texel (x, y, layer, sample) starts at byte
    /// `(((sample · depth + layer) · height + y) · width + x) · format.texel_bytes()`.
    pub words: Arc<[AtomicU32]>,
    pub width: u32,
    pub height: u32,
    /// Layers (array layers, cube faces, 3D slices) the view holds; 1 when not layered.
    pub depth: u32,
    /// Samples of a multisample texture; 1 otherwise (imageSamples answers 0 then? no:
    /// GLSL's imageSamples is only for multisample images, whose count this is).
    pub samples: u32,
    /// How bits are read and written (the unit's format, §8.26.1).
    pub format: ImageFormat,
    /// The texture is a cube-map array bound layered: imageSize's third component counts
    /// cubes.
    pub cube_array: bool,
}

impl ImageView {
    /// Bytes the texels take.
    pub fn len_bytes(&self) -> usize {
        self.width as usize
            * self.height as usize
            * self.depth as usize
            * self.samples as usize
            * self.format.texel_bytes() as usize
    }

    /// The byte offset of texel (x, y, z, sample), None outside the view.
    fn texel_offset(&self, x: i32, y: i32, z: i32, s: i32) -> Option<usize> {
        let inside = |v: i32, n: u32| v >= 0 && (v as u32) < n;
        if !(inside(x, self.width)
            && inside(y, self.height)
            && inside(z, self.depth)
            && inside(s, self.samples))
        {
            return None;
        }
        let idx = ((s as usize * self.depth as usize + z as usize) * self.height as usize
            + y as usize)
            * self.width as usize
            + x as usize;
        let off = idx * self.format.texel_bytes() as usize;
        (off + self.format.texel_bytes() as usize <= self.words.len() * 4).then_some(off)
    }

    /// The texel's bytes (up to 16).
    fn read(&self, off: usize) -> [u8; 16] {
        let mut out = [0u8; 16];
        let tb = self.format.texel_bytes() as usize;
        for (i, b) in out.iter_mut().enumerate().take(tb) {
            let byte = off + i;
            let w = self.words[byte / 4].load(Ordering::Relaxed);
            *b = (w >> (8 * (byte % 4))) as u8;
        }
        out
    }

    /// Writes the texel's bytes: whole words as plain (relaxed atomic) stores; a texel of 1
    /// or 2 bytes by a compare-and-swap on its word, so neighbours written by other
    /// invocations at the same time keep their bytes.
    fn write(&self, off: usize, bytes: &[u8]) {
        let tb = self.format.texel_bytes() as usize;
        if tb >= 4 {
            for (k, chunk) in bytes[..tb].chunks(4).enumerate() {
                let w = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
                self.words[off / 4 + k].store(w, Ordering::Relaxed);
            }
            return;
        }
        let shift = 8 * (off % 4) as u32;
        let mask = if tb == 1 { 0xFFu32 } else { 0xFFFF } << shift;
        let mut v = bytes[0] as u32;
        if tb == 2 {
            v |= (bytes[1] as u32) << 8;
        }
        let v = v << shift;
        let _ = self.words[off / 4].fetch_update(Ordering::Relaxed, Ordering::Relaxed, |w| {
            Some((w & !mask) | v)
        });
    }

    /// imageSize's components for an image of dimensionality `dim`, and the sample count.
    fn size(&self, dim: ImageDim) -> [u32; 4] {
        let (w, h, d) = (self.width, self.height, self.depth);
        let size = match dim {
            ImageDim::D1 | ImageDim::Buffer => [w, 0, 0],
            ImageDim::D1Array => [w, d, 0],
            ImageDim::D2 | ImageDim::Rect | ImageDim::Cube | ImageDim::D2Ms => [w, h, 0],
            ImageDim::CubeArray if self.cube_array => [w, h, d / 6],
            _ => [w, h, d],
        };
        [size[0], size[1], size[2], self.samples]
    }
}

/// The images one draw's shaders can reach, by handle (bound units first, then resident
/// bindless image handles), sorted by handle.
#[derive(Clone, Debug, Default)]
pub struct ImageSet {
    views: Vec<(u64, ImageView)>,
}

impl ImageSet {
    /// A set of `(handle, view)` pairs (a handle given twice keeps its first view).
    pub fn new(mut views: Vec<(u64, ImageView)>) -> ImageSet {
        views.sort_by_key(|v| v.0);
        views.dedup_by_key(|v| v.0);
        ImageSet { views }
    }
    /// The view `handle` names, if any.
    pub fn get(&self, handle: u64) -> Option<&ImageView> {
        let i = self.views.binary_search_by_key(&handle, |v| v.0).ok()?;
        Some(&self.views[i].1)
    }
    pub fn is_empty(&self) -> bool {
        self.views.is_empty()
    }
}

/// Answers one image request (`TexOp::Image`): `req.offset[0]` is the `ImageOp`,
/// `req.offset[1]` the `ImageDim`; per lane the handle, coordinates in `coord[0]`,
/// `coord[1]` and `layer` (i32 bits, the components the dimensionality has), the sample in
/// `lod`, and the data in `data` (a store's four components; an atomic's operand in
/// `data[0]`, CompSwap's compare in `data[0]` and value in `data[1]`). Lanes are done in
/// order, lane 0 first. Loads and atomics write their result to `out` (atomics: the
/// texel's previous value in `out[0]`); lanes that miss (no such handle, outside the view,
/// an atomic on a texel that is not one 32-bit word) change nothing and get zeros, but a
/// load outside a view gets a zero texel decoded (alpha 1 in formats without it).
// Lanes index the inner dimension of `out` (`out[component][lane]`), as in the sampler.
#[allow(clippy::needless_range_loop)]
pub fn access(images: &ImageSet, req: &TexRequest, out: &mut TexResult) {
    *out = [[0; 4]; 4];
    let (Some(op), Some(&dim)) = (
        ImageOp::from_u32(req.offset[0] as u32),
        ImageDim::ALL.get(req.offset[1] as usize),
    ) else {
        return;
    };
    for lane in 0..4 {
        if req.mask & (1 << lane) == 0 {
            continue;
        }
        let handle = (req.handle_hi[lane] as u64) << 32 | req.handle_lo[lane] as u64;
        let Some(view) = images.get(handle) else {
            continue;
        };
        if op == ImageOp::Size {
            let s = view.size(dim);
            for c in 0..4 {
                out[c][lane] = s[c];
            }
            continue;
        }
        let c = |i: usize| req.coord[i][lane] as i32;
        let z = req.layer[lane] as i32;
        let (x, y, z) = match dim {
            ImageDim::D1 | ImageDim::Buffer => (c(0), 0, 0),
            ImageDim::D1Array => (c(0), 0, c(1)),
            ImageDim::D2 | ImageDim::Rect | ImageDim::D2Ms => (c(0), c(1), 0),
            _ => (c(0), c(1), z),
        };
        let s = if dim.is_ms() { req.lod[lane] as i32 } else { 0 };
        let Some(off) = view.texel_offset(x, y, z, s) else {
            // GL 4.5 core §8.26: an invalid load returns 0 in R, G and B and an undefined
            // A; this gives what a texel of zero bits decodes to in the unit's format (A
            // = 1 where the format has no alpha), as llvmpipe does.
            if op == ImageOp::Load {
                let v = view.format.decode(&[0; 16]);
                for c in 0..4 {
                    out[c][lane] = v[c];
                }
            }
            continue;
        };
        match op {
            ImageOp::Load => {
                let v = view.format.decode(&view.read(off));
                for c in 0..4 {
                    out[c][lane] = v[c];
                }
            }
            ImageOp::Store => {
                let mut bytes = [0u8; 16];
                let v = [0, 1, 2, 3].map(|c| req.data[c][lane]);
                view.format.encode(v, &mut bytes);
                view.write(off, &bytes);
            }
            ImageOp::Size => {}
            _ => {
                if view.format.texel_bytes() != 4 {
                    continue;
                }
                let w = &view.words[off / 4];
                out[0][lane] = atomic(w, op, req.data[0][lane], req.data[1][lane]);
            }
        }
    }
}

/// One atomic read-modify-write on a texel word; returns the previous value. Relaxed, as
/// SSBO atomics are: each word's updates are totally ordered, nothing else is.
fn atomic(w: &AtomicU32, op: ImageOp, x: u32, y: u32) -> u32 {
    let ord = Ordering::Relaxed;
    let rmw = |f: &dyn Fn(u32) -> u32| w.fetch_update(ord, ord, |o| Some(f(o))).unwrap_or(0);
    match op {
        ImageOp::AtomicAdd => w.fetch_add(x, ord),
        ImageOp::AtomicMinU => w.fetch_min(x, ord),
        ImageOp::AtomicMaxU => w.fetch_max(x, ord),
        ImageOp::AtomicMinI => rmw(&|o| (o as i32).min(x as i32) as u32),
        ImageOp::AtomicMaxI => rmw(&|o| (o as i32).max(x as i32) as u32),
        ImageOp::AtomicAnd => w.fetch_and(x, ord),
        ImageOp::AtomicOr => w.fetch_or(x, ord),
        ImageOp::AtomicXor => w.fetch_xor(x, ord),
        ImageOp::AtomicExchange => w.swap(x, ord),
        ImageOp::AtomicCompSwap => match w.compare_exchange(x, y, ord, ord) {
            Ok(o) | Err(o) => o,
        },
        ImageOp::Load | ImageOp::Store | ImageOp::Size => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_round_trips_its_own_texels() {
        // Every bit pattern of 1- and 2-byte formats, and a spread of patterns for wider
        // ones, decodes and re-encodes to itself (NaN payloads of float formats aside).
        for f in ImageFormat::ALL {
            assert_eq!(ImageFormat::from_gl(f.gl()), Some(f));
            assert_eq!(ImageFormat::from_glsl(f.glsl_name()), Some(f));
            let tb = f.texel_bytes() as usize;
            let samples: Vec<u64> = if tb <= 2 {
                (0..1u64 << (8 * tb)).collect()
            } else {
                (0..4096u64)
                    .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - 8 * tb.min(8)))
                    .collect()
            };
            for s in samples {
                let mut bytes = [0u8; 16];
                bytes[..tb.min(8)].copy_from_slice(&s.to_le_bytes()[..tb.min(8)]);
                let v = f.decode(&bytes);
                if f.class() == ImageClass::Float && v.iter().any(|c| f32::from_bits(*c).is_nan()) {
                    continue;
                }
                let mut back = [0u8; 16];
                f.encode(v, &mut back);
                // −0 of snorm formats (the most negative value reads as −1 too) is the
                // one many-to-one case: −2^(b−1) and −(2^(b−1) − 1) both read −1.
                let same = back[..tb] == bytes[..tb];
                let snorm_min = matches!(
                    f.layout(),
                    Layout::Comps {
                        num: Num::Snorm,
                        ..
                    }
                );
                assert!(same || snorm_min, "{f:?} {bytes:?} -> {v:?} -> {back:?}");
            }
        }
    }

    #[test]
    fn conversions_follow_gl() {
        let f = |x: f32| x.to_bits();
        let mut b = [0u8; 16];
        ImageFormat::Rgba8.encode([f(0.5), f(-1.0), f(2.0), f(f32::NAN)], &mut b);
        assert_eq!(&b[..4], &[128, 0, 255, 0]);
        ImageFormat::R8Snorm.encode([f(-1.0), 0, 0, 0], &mut b);
        assert_eq!(b[0], 0x81);
        ImageFormat::R8i.encode([300, 0, 0, 0], &mut b);
        assert_eq!(b[0], 127);
        ImageFormat::R8i.encode([(-300i32) as u32, 0, 0, 0], &mut b);
        assert_eq!(b[0] as i8, -128);
        ImageFormat::R16ui.encode([70000, 0, 0, 0], &mut b);
        assert_eq!(&b[..2], &[0xFF, 0xFF]);
        assert_eq!(
            ImageFormat::R8.decode(&[255]),
            [f(1.0), 0, 0, f(1.0)],
            "missing components are (0, 0, 1)"
        );
        assert_eq!(ImageFormat::Rg8ui.decode(&[1, 2]), [1, 2, 0, 1]);
        // R11F_G11F_B10F: 1.0, 0.5 and 65024 (the largest finite 11-bit value) are exact;
        // 1 + 2^-7 rounds to even (1.0); negatives are 0.
        for (x, want) in [
            (1.0f32, 1.0f32),
            (0.5, 0.5),
            (65024.0, 65024.0),
            (1e9, 65024.0),
        ] {
            ImageFormat::R11fG11fB10f.encode([f(x), f(-x), f(x), 0], &mut b);
            let v = ImageFormat::R11fG11fB10f.decode(&b);
            assert_eq!(f32::from_bits(v[0]), want);
            assert_eq!(f32::from_bits(v[1]), 0.0);
        }
        ImageFormat::R11fG11fB10f.encode([f(1.0 + 1.0 / 128.0), 0, 0, 0], &mut b);
        assert_eq!(f32::from_bits(ImageFormat::R11fG11fB10f.decode(&b)[0]), 1.0);
    }

    fn view(format: ImageFormat, w: u32, h: u32, d: u32) -> ImageView {
        let n = (w * h * d * format.texel_bytes()).div_ceil(4) as usize;
        ImageView {
            words: (0..n).map(|_| AtomicU32::new(0)).collect(),
            width: w,
            height: h,
            depth: d,
            samples: 1,
            format,
            cube_array: false,
        }
    }

    fn req(op: ImageOp, dim: ImageDim, handle: u64, xyz: [[i32; 4]; 3]) -> TexRequest {
        TexRequest {
            op: super::super::request::TexOp::Image as u32,
            mask: 0xF,
            quad: 0,
            offset: [op as i32, dim as i32],
            compare: 0,
            handle_lo: [handle as u32; 4],
            handle_hi: [(handle >> 32) as u32; 4],
            coord: [xyz[0].map(|v| v as u32), xyz[1].map(|v| v as u32)],
            lod: [0; 4],
            dref: [0; 4],
            layer: xyz[2].map(|v| v as u32),
            cube_layer: [0; 4],
            data: [[0; 4]; 4],
        }
    }

    #[test]
    fn stores_land_loads_read_and_everything_outside_is_zero() {
        let h = unit_handle(3);
        let set = ImageSet::new(vec![(h, view(ImageFormat::R8ui, 3, 2, 2))]);
        let mut out = [[0; 4]; 4];
        // Lanes store 10..13 at (0,0,0), (2,1,1), (3,0,0) (outside), (0,0,-1) (outside).
        let xyz = [[0, 2, 3, 0], [0, 1, 0, 0], [0, 1, 0, -1]];
        let mut r = req(ImageOp::Store, ImageDim::D2Array, h, xyz);
        r.data[0] = [10, 11, 12, 13];
        access(&set, &r, &mut out);
        let r = req(ImageOp::Load, ImageDim::D2Array, h, xyz);
        access(&set, &r, &mut out);
        assert_eq!(out[0], [10, 11, 0, 0]);
        assert_eq!(out[1], [0; 4]);
        assert_eq!(out[2], [0; 4]);
        // R8ui has no alpha: 1 inside, and outside too (a zero texel decoded, §8.26).
        assert_eq!(out[3], [1, 1, 1, 1]);
        // Another handle reads zeros and stores nothing.
        let r = req(ImageOp::Load, ImageDim::D2Array, unit_handle(2), xyz);
        access(&set, &r, &mut out);
        assert_eq!(out, [[0; 4]; 4]);
        let r = req(ImageOp::Size, ImageDim::D2Array, h, xyz);
        access(&set, &r, &mut out);
        assert_eq!([out[0][0], out[1][0], out[2][0]], [3, 2, 2]);
        // Neighbouring bytes of one word keep their values.
        let words: Vec<u32> = set
            .get(h)
            .unwrap()
            .words
            .iter()
            .map(|w| w.load(Ordering::Relaxed))
            .collect();
        assert_eq!(words[0], 10);
        assert_eq!(words[2] >> 24, 11);
    }

    #[test]
    fn atomics_return_the_previous_value_and_need_32_bit_texels() {
        let h = unit_handle(0);
        let set = ImageSet::new(vec![
            (h, view(ImageFormat::R32i, 2, 1, 1)),
            (unit_handle(1), view(ImageFormat::Rgba16i, 2, 1, 1)),
        ]);
        let mut out = [[0; 4]; 4];
        let xyz = [[0, 0, 1, 5], [0; 4], [0; 4]];
        let mut r = req(ImageOp::AtomicAdd, ImageDim::D2, h, xyz);
        r.data[0] = [1, 2, (-7i32) as u32, 9];
        access(&set, &r, &mut out);
        assert_eq!(out[0], [0, 1, 0, 0]);
        let mut r = req(ImageOp::AtomicMinI, ImageDim::D2, h, xyz);
        r.data[0] = [0, 0, 0, 0];
        access(&set, &r, &mut out);
        assert_eq!(out[0], [3, 0, (-7i32) as u32, 0]);
        let mut r = req(ImageOp::AtomicCompSwap, ImageDim::D2, h, xyz);
        r.data[0] = [0, 5, 0, 0];
        r.data[1] = [42, 43, 44, 0];
        access(&set, &r, &mut out);
        assert_eq!(out[0], [0, 42, 0xFFFF_FFF9, 0]);
        let r = req(ImageOp::Load, ImageDim::D2, h, xyz);
        access(&set, &r, &mut out);
        assert_eq!(out[0], [42, 42, 0xFFFF_FFF9, 0]);
        let mut r = req(ImageOp::AtomicAdd, ImageDim::D2, unit_handle(1), xyz);
        r.data[0] = [1; 4];
        access(&set, &r, &mut out);
        assert_eq!(out[0], [0; 4]);
    }
}
