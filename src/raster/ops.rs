//! The reference per-fragment operations (fragment variants in `jit/fragment.rs` generate
//! the same operations; the tile loop uses these for interpreted shaders, and clears): the
//! stencil and depth tests with the stencil operations (GL 4.5 core §17.3.5, `depth_stencil`
//! on one depth/stencil texel), blending (§17.3.6) and the conversion of colours and
//! depths to and from the storage formats of render targets (§17.3.8, unorm conversion per
//! §2.3.5.2 with round-to-nearest).
//!
//! Blending has two exact forms, picked by the attachment's format (`blend_and_pack`):
//! - *8-bit unorm* (RGBA8, SRGB8_ALPHA8, R8, RG8) blends in integers, as llvmpipe does and
//!   GL allows (§17.3.6.1: "precision and dynamic range no lower than that used to represent
//!   destination components"): the source is converted to unorm8 first (`float_to_unorm`,
//!   exact round-to-nearest), every factor is an integer 0..=255, and each component is
//!   `round(clamp(s·sf ± d·df, 0, 255²) / 255)` with one rounding (`div255`). Generated
//!   code does the same in 16-bit vector lanes (`pmaddwd` for the two products and their
//!   sum), so the pair is fast and bit-identical.
//! - *Float formats* blend in f32 with a fixed operation order and no fused multiply-add.
//!
//! Integer attachments (R8I … RGBA32UI) never blend (§17.3.6: blending applies only to
//! fixed- and floating-point buffers): the shader's output words are taken as integers
//! (`pack_int`).

use super::draw::{BlendState, StencilFace};
use crate::gl::{CompareFunc, StencilOp};
pub use crate::sampler::format::{is_unorm, DEPTH24_MAX};
use crate::sampler::{Format, IntFormat};

/// Whether a fragment with depth `frag` passes against `stored` under `func` (GL 4.5 core
/// §17.3.5).
#[inline]
pub fn depth_pass<T: PartialOrd>(func: CompareFunc, frag: T, stored: T) -> bool {
    match func {
        CompareFunc::Never => false,
        CompareFunc::Less => frag < stored,
        CompareFunc::Equal => frag == stored,
        CompareFunc::Lequal => frag <= stored,
        CompareFunc::Greater => frag > stored,
        CompareFunc::Notequal => frag != stored,
        CompareFunc::Gequal => frag >= stored,
        CompareFunc::Always => true,
    }
}

/// Whether a fragment passes the stencil test of `face` against the stored value `s`
/// (GL 4.5 core §17.3.5: the masked reference is compared with the masked stored value,
/// the reference on the left: LESS passes when `ref & mask < s & mask`).
#[inline]
pub fn stencil_pass(face: &StencilFace, s: u8) -> bool {
    let m = face.value_mask;
    depth_pass(face.func, face.reference & m, s & m)
}

/// The stencil value `op` makes of the stored `s` (GL 4.5 core table 17.4): INCR and DECR
/// saturate at 0 and 2^8 − 1, the _WRAP forms wrap; REPLACE takes the reference.
#[inline]
pub fn stencil_op(op: StencilOp, s: u8, reference: u8) -> u8 {
    match op {
        StencilOp::Keep => s,
        StencilOp::Zero => 0,
        StencilOp::Replace => reference,
        StencilOp::Incr => s.saturating_add(1),
        StencilOp::Decr => s.saturating_sub(1),
        StencilOp::Invert => !s,
        StencilOp::IncrWrap => s.wrapping_add(1),
        StencilOp::DecrWrap => s.wrapping_sub(1),
    }
}

/// The depth test as one fragment sees it on its depth/stencil texel: the function and
/// whether a pass writes (glDepthMask), for a texel of `format`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DepthTest {
    pub format: Format,
    pub func: CompareFunc,
    pub write: bool,
}

/// The stencil test, the depth test and the stencil operations of one fragment on its
/// depth/stencil texel `word` (GL 4.5 core §17.3.5; a 32-bit word: D24S8 with the stencil
/// in the top byte, or D32F): returns the new word and whether the fragment passed both
/// tests. `depth` is None when the depth test is off or there is no depth buffer (it then
/// passes and writes nothing); `stencil` the face the fragment's triangle uses, None when
/// the stencil test is off or there is no stencil buffer (it then passes and nothing is
/// modified). The stencil value written is `(s & !write_mask) | (op(s) & write_mask)`, op
/// chosen by which test failed (sfail, dpfail) or none (dppass). `z` is the fragment's
/// window z, clamped here. Fragment variants generate exactly these steps.
#[inline]
pub fn depth_stencil(
    word: u32,
    depth: Option<DepthTest>,
    stencil: Option<&StencilFace>,
    z: f32,
) -> (u32, bool) {
    let (mut out, mut pass) = (word, true);
    let s = (word >> 24) as u8;
    if let Some(face) = stencil {
        if !stencil_pass(face, s) {
            let new = stencil_op(face.sfail, s, face.reference);
            let w = face.write_mask;
            let st = (s & !w) | (new & w);
            return ((word & DEPTH24_MAX) | (st as u32) << 24, false);
        }
    }
    if let Some(d) = depth {
        let z = saturate(z);
        let (p, new) = match d.format {
            Format::Depth24Stencil8 => {
                let frag = depth_to_d24(z);
                (
                    depth_pass(d.func, frag, word & DEPTH24_MAX),
                    (word & !DEPTH24_MAX) | frag,
                )
            }
            _ => (depth_pass(d.func, z, f32::from_bits(word)), z.to_bits()),
        };
        pass = p;
        if p && d.write {
            out = new;
        }
    }
    if let Some(face) = stencil {
        let op = if pass { face.dppass } else { face.dpfail };
        let new = stencil_op(op, s, face.reference);
        let w = face.write_mask;
        let st = (s & !w) | (new & w);
        out = (out & DEPTH24_MAX) | (st as u32) << 24;
    }
    (out, pass)
}

/// The minimum of every per-fragment operation: a NaN `a` gives `b`, otherwise
/// `b < a ? b : a` (so a NaN `b` gives `a`, and of +0 and -0 the first wins). Spelled out
/// rather than `f32::min`, whose choice between equal zeros the standard library leaves
/// open; this is what `f32::min` gives on x86-64 today, so pixels did not change when it
/// was pinned, and it is what fragment variants generate (`jit/fragment.rs`).
#[inline]
pub fn fmin(a: f32, b: f32) -> f32 {
    if a.is_nan() || b < a {
        b
    } else {
        a
    }
}

/// The maximum counterpart of `fmin`: a NaN `a` gives `b`, otherwise `b > a ? b : a`.
#[inline]
pub fn fmax(a: f32, b: f32) -> f32 {
    if a.is_nan() || b > a {
        b
    } else {
        a
    }
}

/// Clamps to [0, 1], mapping NaN to 0 (`f32::clamp` would keep NaN); -0 stays -0.
#[inline]
pub fn saturate(v: f32) -> f32 {
    fmin(fmax(v, 0.0), 1.0)
}

/// Unorm conversion of a float in [0, 1] to `bits` bits: round to nearest (GL 4.5 core
/// §2.3.5.2), NaN to 0.
#[inline]
pub fn float_to_unorm(v: f32, max: u32) -> u32 {
    let c = saturate(v);
    // The operand is non-negative, so truncation is floor (and no libm call on SSE2).
    (c as f64 * max as f64 + 0.5) as u32
}

/// `float_to_unorm(v, 255)` without f64, in the integer steps fragment variants emit
/// (`jit::fragment`'s `unorm8_bits`, 10 vector instructions against the 22 of the f32
/// tie-fixing form it replaced). With `c = saturate(v)` the answer is
/// `n = ⌊255c + ½⌋ = ⌊(255Y + 2^30) / 2^31⌋` for `Y = c·2^31`, which is an integer
/// whenever c ≥ 2^−8 (24 significant bits, the lowest worth ≥ 2^−31). Writing
/// `Y = 256Z + r` (r < 256), `255Y = 2^8·(Y − Y/256)` gives
/// `n = ⌊(Y + 2^22 − Y/256) / 2^23⌋ = (Y + 2^22 − ⌈Y/256⌉) >> 23`: subtracting the
/// fraction r/256 ∈ (0, 1) from an integer moves the floor exactly as subtracting 1 does,
/// so `⌈Y/256⌉ = (Y + 255) >> 8` takes its place. Below 2^−8, `Y` may carry a half (c in
/// [2^−9, 2^−8)) or more (below), where only `n = [255c ≥ ½]` matters; truncating `Y`
/// would lose exactly one value, `c·2^31 = 4210752.5` (just above 2^30/255 = 4210752.25),
/// so the conversion truncates `c·2^31 + ¼` instead: a tie there rounds the half up to the
/// even integer above, while values ≥ 2^23 (spacing 1) stay unchanged. c = 1 gives
/// `Y = 2^31` (x86's cvttps2dq returns the same 0x8000_0000 for anything larger) and 255.
/// Equal to the f64 form for every f32 (`unorm8_conversion_is_exact_for_every_float`; all
/// 2^32 bit patterns were checked when this was written).
#[inline]
pub fn float_to_unorm8(v: f32) -> u32 {
    let c = saturate(v);
    // c·2^31 is exact; + ¼ rounds once; the truncation is exact below 2^31 and c = 1
    // converts 2^31 itself (no saturation reached).
    let y = (c * 2_147_483_648.0 + 0.25) as u32;
    (y + (1 << 22) - ((y + 255) >> 8)) >> 23
}

/// `round(x / 255)` for `x` in 0..=255² (the product of two unorm8 values, or a clamped
/// sum of two): the classic `(y + (y >> 8)) >> 8` with `y = x + 128`, exact over that
/// whole range (`div255_is_rounded_division` checks every value); `x / 255` is never a
/// half-integer, so there are no ties to break.
#[inline]
pub fn div255(x: u32) -> u32 {
    debug_assert!(x <= 255 * 255);
    let y = x + 128;
    (y + (y >> 8)) >> 8
}

/// Depth value in the D24 representation: `float_to_unorm(z, DEPTH24_MAX)`, the exact
/// `floor(c·(2^24 − 1) + 0.5)` of the clamped `c`, computed in f32 only (fragment variants
/// emit the same steps, so neither needs f64). `x = c·(2^24 − 1) = a − c` with `a = 2^24·c`
/// exact; `q = fl(a − c)` and its exact error `t = x − q = (a − q) − c` (Fast2Sum: `a − q`
/// is exact by Sterbenz, and `|a| ≥ |c|`). `q` rounds to the nearest integer `n` (ties to
/// even; the 2^23 trick below 2^23, where `q` may have a fraction, and `q` itself above,
/// where it is an integer); that is the answer unless `q` is a half-integer, where the sign
/// of `t` decides: `x` is above `q` (or equal to it, rounding half up) moves `n` up from
/// `q − ½`, below moves it down from `q + ½`. Every f32 in [0, 1] gives the f64 result
/// (`d24_conversion_is_exact_for_every_float`).
#[inline]
pub fn depth_to_d24(z: f32) -> u32 {
    const MAGIC: f32 = 8_388_608.0;
    let c = saturate(z);
    let a = c * 16_777_216.0;
    let q = a - c;
    let t = (a - q) - c;
    let n = if q < MAGIC { (q + MAGIC) - MAGIC } else { q };
    let d = q - n;
    let up = (d == 0.5 && t >= 0.0) as u32;
    let down = (d == -0.5 && t < 0.0) as u32;
    // `n` is an integer in [0, 2^24]; `down` needs n ≥ 1 (q = n − ½ ≥ ½).
    n as u32 + up - down
}

/// Reads a colour texel as RGBA floats. Missing components read as (0, 0, 0, 1)
/// (GL 4.5 core table 8.11 conversion to RGBA).
pub fn unpack_color(format: Format, b: &[u8]) -> [f32; 4] {
    let un = |v: u8| v as f32 / 255.0;
    let f32_at = |i: usize| f32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let f16_at = |i: usize| half::f16::from_le_bytes([b[i], b[i + 1]]).to_f32();
    match format {
        Format::Rgba8 | Format::Srgb8Alpha8 => [un(b[0]), un(b[1]), un(b[2]), un(b[3])],
        Format::R8 => [un(b[0]), 0.0, 0.0, 1.0],
        Format::Rg8 => [un(b[0]), un(b[1]), 0.0, 1.0],
        Format::Rgba16F => [f16_at(0), f16_at(2), f16_at(4), f16_at(6)],
        Format::Rgba32F => [f32_at(0), f32_at(4), f32_at(8), f32_at(12)],
        Format::R32F => [f32_at(0), 0.0, 0.0, 1.0],
        Format::Snorm(f) => crate::sampler::format::decode_snorm(f, b),
        // Integer targets are not colour-renderable in softgl yet (framebuffers with one
        // are incomplete), so no fragment reaches one.
        Format::Depth24Stencil8 | Format::Depth32F | Format::Int(_) | Format::Rgb10A2ui => [0.0; 4],
    }
}

/// Reads an 8-bit unorm texel (`is_unorm`) as its four stored integers; missing components
/// read as (0, 0, 0, 255), the unorm form of `unpack_color`'s (0, 0, 0, 1).
pub fn unpack_unorm8(format: Format, b: &[u8]) -> [u32; 4] {
    match format {
        Format::R8 => [b[0] as u32, 0, 0, 255],
        Format::Rg8 => [b[0] as u32, b[1] as u32, 0, 255],
        _ => [b[0] as u32, b[1] as u32, b[2] as u32, b[3] as u32],
    }
}

/// Writes the components that `mask` enables of the unorm8 colour `c` (each ≤ 255) into an
/// 8-bit unorm texel (`is_unorm`).
pub fn pack_unorm8(format: Format, c: [u32; 4], mask: [bool; 4], b: &mut [u8]) {
    let n = match format {
        Format::R8 => 1,
        Format::Rg8 => 2,
        _ => 4,
    };
    for i in 0..n {
        if mask[i] {
            b[i] = c[i] as u8;
        }
    }
}

/// The per-draw colour operations after blending (GL 4.5 core §17.3.9 sRGB conversion,
/// §17.3.11 logical operation). The default (both off) is what every draw did before
/// they existed.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ColorOps {
    /// GL_FRAMEBUFFER_SRGB: SRGB8_ALPHA8 attachments blend in linear space (the stored
    /// value decoded) and store the result encoded (`sampler::format`'s exact tables).
    pub framebuffer_srgb: bool,
    /// glLogicOp when GL_COLOR_LOGIC_OP is on, as `logic_op` takes it (`op - GL_CLEAR`).
    /// It replaces blending on every draw buffer; float buffers store the source.
    pub logic_op: Option<u8>,
}

/// Logical operation `op` (`GL_CLEAR` … `GL_SET` minus `GL_CLEAR`, GL 4.5 core table 17.3) of
/// source `s` and destination `d`, bitwise. The 16 enums are the 16 truth tables in order:
/// bit 0 of `op` is the result where s = 1 and d = 1, bit 1 where s = 1 and d = 0, bit 2
/// where s = 0 and d = 1, bit 3 where s = 0 and d = 0 (GL_AND = 1: s ∧ d; GL_NOR = 8).
#[inline]
pub fn logic_op(op: u8, s: u32, d: u32) -> u32 {
    let term = |bit: u8, v: u32| if op & bit != 0 { v } else { 0 };
    term(1, s & d) | term(2, s & !d) | term(4, !s & d) | term(8, !s & !d)
}

/// The colour step of one fragment: blends `src` (the shader's output) with the texel `t`
/// when `blend` is given, and stores the components `mask` enables. 8-bit unorm formats go
/// through the integer path (the module docs), the others through f32.
#[inline]
pub fn blend_and_pack(
    format: Format,
    blend: Option<&PreparedBlend>,
    src: [f32; 4],
    mask: [bool; 4],
    t: &mut [u8],
) {
    color_and_pack(format, blend, ColorOps::default(), src, mask, t)
}

/// `blend_and_pack` with the operations of `ops`: on SRGB8_ALPHA8 with
/// `framebuffer_srgb`, the blend runs in f32 on the decoded destination (clamped, as for
/// unorm targets) and RGB is stored encoded, alpha as unorm; a logic op (which replaces
/// blending) combines the stored bits of unorm and integer texels with the source's
/// converted bits (after sRGB encoding, §17.3 orders it last). Fragment variants generate
/// the same steps (`ColorKey::srgb`, `ColorKey::logic_op`).
#[inline]
pub fn color_and_pack(
    format: Format,
    blend: Option<&PreparedBlend>,
    ops: ColorOps,
    src: [f32; 4],
    mask: [bool; 4],
    t: &mut [u8],
) {
    color_and_pack_dual(format, blend, ops, src, [0.0; 4], mask, t)
}

/// `color_and_pack` with the second source colour `src1` (the fragment shader's index-1
/// output, dual-source blending) that the SRC1_* factors read; zeros where there is none.
#[inline]
pub fn color_and_pack_dual(
    format: Format,
    blend: Option<&PreparedBlend>,
    ops: ColorOps,
    src: [f32; 4],
    src1: [f32; 4],
    mask: [bool; 4],
    t: &mut [u8],
) {
    let blend = blend.filter(|_| ops.logic_op.is_none());
    if format == Format::Rgb10A2ui {
        // As integer formats: the output words unconverted, clamped to each field, no
        // blending; the logic op works on the packed word.
        let word = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let mut s = crate::sampler::format::pack_rgb10a2ui(src.map(f32::to_bits));
        if let Some(op) = ops.logic_op {
            s = logic_op(op, s, word(t));
        }
        return pack_rgb10a2ui_masked(s, mask, t);
    }
    if let Format::Int(f) = format {
        // The output words are the shader's integers (ivec4/uvec4 bits): no conversion,
        // no blending (GL 4.5 core §17.3.6).
        let Some(op) = ops.logic_op else {
            return pack_int(f, src.map(f32::to_bits), mask, t);
        };
        let n = f.bytes as usize * f.channels as usize;
        let mut s = [0u8; 16];
        crate::sampler::format::encode_int(f, src.map(f32::to_bits), &mut s[..n]);
        // Bitwise, so byte by byte on the stored little-endian bytes.
        for (i, b) in s[..n].iter_mut().enumerate() {
            *b = logic_op(op, *b as u32, t[i] as u32) as u8;
        }
        let w = f.bytes as usize;
        for c in 0..f.channels as usize {
            if mask[c] {
                t[c * w..c * w + w].copy_from_slice(&s[c * w..c * w + w]);
            }
        }
    } else if format == Format::Srgb8Alpha8 && ops.framebuffer_srgb {
        use crate::sampler::format::{linear_to_srgb8, srgb8_to_linear};
        let c = match blend {
            Some(b) => {
                let d = [
                    srgb8_to_linear(t[0]),
                    srgb8_to_linear(t[1]),
                    srgb8_to_linear(t[2]),
                    t[3] as f32 / 255.0,
                ];
                b.apply_dual(src, src1, d)
            }
            None => src,
        };
        let mut s = [
            linear_to_srgb8(c[0]) as u32,
            linear_to_srgb8(c[1]) as u32,
            linear_to_srgb8(c[2]) as u32,
            float_to_unorm8(c[3]),
        ];
        if let Some(op) = ops.logic_op {
            s = std::array::from_fn(|i| logic_op(op, s[i], t[i] as u32) & 0xFF);
        }
        pack_unorm8(format, s, mask, t);
    } else if is_unorm(format) {
        let s = src.map(float_to_unorm8);
        let d = unpack_unorm8(format, t);
        let c = match (blend, ops.logic_op) {
            (_, Some(op)) => std::array::from_fn(|i| logic_op(op, s[i], d[i]) & 0xFF),
            (Some(b), None) => b.apply_unorm8_dual(s, src1.map(|v| float_to_unorm(v, 255)), d),
            (None, None) => s,
        };
        pack_unorm8(format, c, mask, t);
    } else {
        let c = match blend {
            Some(b) => b.apply_dual(src, src1, unpack_color(format, t)),
            None => src,
        };
        pack_color(format, c, mask, t);
    }
}

/// Writes the components `mask` enables of the integers `v` (i32 bits for a signed format,
/// u32 for an unsigned one) into an integer texel, each clamped to the format's range, as
/// Mesa converts integers into narrower integer formats (GL 4.5 core §17.3.8 leaves values
/// that do not fit undefined). Fragment variants generate the same clamps.
pub fn pack_int(f: IntFormat, v: [u32; 4], mask: [bool; 4], t: &mut [u8]) {
    let n = f.bytes as usize;
    let mut all = [0u8; 16];
    crate::sampler::format::encode_int(f, v, &mut all[..n * f.channels as usize]);
    for c in 0..f.channels as usize {
        if mask[c] {
            t[c * n..c * n + n].copy_from_slice(&all[c * n..c * n + n]);
        }
    }
}

/// Writes the fields of the RGB10_A2UI word `w` that `mask` enables into the texel `t`.
pub fn pack_rgb10a2ui_masked(w: u32, mask: [bool; 4], t: &mut [u8]) {
    let fields = [0x3FFu32, 0x3FF << 10, 0x3FF << 20, 3 << 30];
    let keep = (0..4)
        .filter(|&c| !mask[c])
        .fold(0u32, |k, c| k | fields[c]);
    let old = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
    t[..4].copy_from_slice(&((old & keep) | (w & !keep)).to_le_bytes());
}

/// The value a clear writes into colour buffers (GL 4.5 core §17.4.3): floats from glClear
/// and glClearBufferfv, integers from glClearBufferiv (`signed`) and glClearBufferuiv.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum ClearColor {
    Float([f32; 4]),
    /// Floats with GL_FRAMEBUFFER_SRGB on: sRGB attachments store them encoded (§17.4.3
    /// clears pass through the sRGB conversion of §17.3.9).
    Linear([f32; 4]),
    Int {
        bits: [u32; 4],
        signed: bool,
    },
}

impl ClearColor {
    /// The value as integers of the signedness of `f`, clamped to its range. A float
    /// value (glClear on an integer buffer, whose result §17.4.3.1 leaves undefined)
    /// converts like Rust's `as`: truncated, saturated, NaN to 0.
    fn int_bits(self, f: IntFormat) -> [u32; 4] {
        let (lo, hi) = f.range();
        let wide: [i64; 4] = match self {
            ClearColor::Float(c) | ClearColor::Linear(c) => c.map(|v| v as i64),
            ClearColor::Int { bits, signed: true } => bits.map(|v| v as i32 as i64),
            ClearColor::Int {
                bits,
                signed: false,
            } => bits.map(|v| v as i64),
        };
        wide.map(|v| v.clamp(lo, hi) as u32)
    }

    /// The value as floats: integers (glClearBufferiv/uiv on a fixed- or floating-point
    /// buffer, undefined by §17.4.3.1 and not an error) convert to the nearest float.
    fn floats(self) -> [f32; 4] {
        match self {
            ClearColor::Float(c) | ClearColor::Linear(c) => c,
            ClearColor::Int { bits, signed: true } => bits.map(|v| v as i32 as f32),
            ClearColor::Int {
                bits,
                signed: false,
            } => bits.map(|v| v as f32),
        }
    }
}

/// Writes the components `mask` enables of the clear value `c` into a colour texel of
/// `format`: integers into integer formats (`ClearColor::int_bits`), floats into the
/// others (`pack_color`).
pub fn pack_clear(format: Format, c: ClearColor, mask: [bool; 4], b: &mut [u8]) {
    match (format, c) {
        (Format::Int(f), _) => pack_int(f, c.int_bits(f), mask, b),
        (Format::Rgb10A2ui, _) => {
            let v = c.int_bits(crate::sampler::format::RGBA32UI);
            pack_rgb10a2ui_masked(crate::sampler::format::pack_rgb10a2ui(v), mask, b)
        }
        (Format::Srgb8Alpha8, ClearColor::Linear(v)) => {
            let ops = ColorOps {
                framebuffer_srgb: true,
                logic_op: None,
            };
            color_and_pack(format, None, ops, v, mask, b)
        }
        _ => pack_color(format, c.floats(), mask, b),
    }
}

/// Writes the components of `c` that `mask` enables into a colour texel. sRGB attachments
/// store linear values: GL_FRAMEBUFFER_SRGB is not supported, so no encoding happens
/// (GL 4.5 core §17.3.7 applies it only when that is enabled).
pub fn pack_color(format: Format, c: [f32; 4], mask: [bool; 4], b: &mut [u8]) {
    let un = |v: f32| float_to_unorm(v, 255) as u8;
    match format {
        Format::Rgba8 | Format::Srgb8Alpha8 => {
            for i in 0..4 {
                if mask[i] {
                    b[i] = un(c[i]);
                }
            }
        }
        Format::R8 => {
            if mask[0] {
                b[0] = un(c[0]);
            }
        }
        Format::Rg8 => {
            for i in 0..2 {
                if mask[i] {
                    b[i] = un(c[i]);
                }
            }
        }
        Format::Rgba16F => {
            for i in 0..4 {
                if mask[i] {
                    b[2 * i..2 * i + 2].copy_from_slice(&half::f16::from_f32(c[i]).to_le_bytes());
                }
            }
        }
        Format::Rgba32F => {
            for i in 0..4 {
                if mask[i] {
                    b[4 * i..4 * i + 4].copy_from_slice(&c[i].to_le_bytes());
                }
            }
        }
        Format::R32F => {
            if mask[0] {
                b[..4].copy_from_slice(&c[0].to_le_bytes());
            }
        }
        Format::Int(f) => pack_int(f, ClearColor::Float(c).int_bits(f), mask, b),
        Format::Rgb10A2ui => pack_clear(format, ClearColor::Float(c), mask, b),
        // Not colour-renderable (`api::texture::color_renderable`), but encoded as GL would.
        Format::Snorm(f) => {
            let n = f.bytes as usize;
            let mut t = [0u8; 8];
            crate::sampler::format::encode_snorm(f, c, &mut t);
            for i in 0..f.channels as usize {
                if mask[i] {
                    b[i * n..i * n + n].copy_from_slice(&t[i * n..i * n + n]);
                }
            }
        }
        Format::Depth24Stencil8 | Format::Depth32F => {}
    }
}

/// Table index of the first dual-source factor (SRC1_COLOR; `BlendFactor` order).
pub const FIRST_SRC1_FACTOR: u8 = crate::gl::BlendFactor::Src1Color as u8;

/// A blend state resolved once per draw and target format: factors and equations become
/// table indices, so the per-fragment code has no branches on GL enums. Measured reason: on
/// the 1080p blended fill, matching the enums per component and fragment took 58% of the
/// frame.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PreparedBlend {
    unorm: bool,
    src: [u8; 4],
    dst: [u8; 4],
    eq: [u8; 4],
    /// The constant colour, clamped for unorm targets.
    k: [f32; 4],
    /// The constant colour in unorm8 (`float_to_unorm`), for the integer path.
    k8: [u32; 4],
}

impl PreparedBlend {
    /// Resolves `state` for a target that is unorm (`unorm`) or not.
    pub fn new(state: &BlendState, unorm: bool) -> Self {
        // Both enums list their variants in table order (GL 4.5 core tables 17.1 and 17.2).
        let per = |rgb: u8, alpha: u8| [rgb, rgb, rgb, alpha];
        PreparedBlend {
            unorm,
            src: per(state.src_rgb as u8, state.src_alpha as u8),
            dst: per(state.dst_rgb as u8, state.dst_alpha as u8),
            eq: per(state.eq_rgb as u8, state.eq_alpha as u8),
            k: if unorm {
                state.color.map(saturate)
            } else {
                state.color
            },
            k8: state.color.map(float_to_unorm8),
        }
    }

    /// The factor and equation table indices (source factors, destination factors,
    /// equations; RGB in 0..2, alpha in 3), for code generated from this state
    /// (`jit::fragment::BlendKey`).
    pub fn indices(&self) -> ([u8; 4], [u8; 4], [u8; 4]) {
        (self.src, self.dst, self.eq)
    }

    /// Whether a factor reads the second source colour (SRC1_*: table index 15 and up), so
    /// the draw must supply the fragment shader's index-1 output (dual-source blending).
    pub fn uses_src1(&self) -> bool {
        self.src
            .iter()
            .chain(&self.dst)
            .any(|&f| f >= FIRST_SRC1_FACTOR)
    }

    /// The constant colour as blending uses it (clamped for unorm targets).
    pub fn constant(&self) -> [f32; 4] {
        self.k
    }

    /// The constant colour as the unorm8 path uses it (`float_to_unorm` of each component).
    pub fn constant_unorm8(&self) -> [u32; 4] {
        self.k8
    }

    /// Blends the unorm8 source `s` over the unorm8 destination `d` (each component ≤ 255):
    /// the factors of GL 4.5 core table 17.2 as integers 0..=255 (`1 - x` is `255 - x`),
    /// then per component `div255(clamp(s·sf + d·df, 0, 255²))` for FUNC_ADD, with `-` for
    /// the subtractions (one rounding, of the exact sum), and the plain minimum/maximum of
    /// `s` and `d` for MIN/MAX. Integer arithmetic: the same on every CPU.
    #[inline]
    pub fn apply_unorm8(&self, s: [u32; 4], d: [u32; 4]) -> [u32; 4] {
        self.apply_unorm8_dual(s, [0; 4], d)
    }

    /// `apply_unorm8` with the second source colour `s1` (unorm8) of dual-source blending
    /// for the SRC1_* factors.
    #[inline]
    pub fn apply_unorm8_dual(&self, s: [u32; 4], s1: [u32; 4], d: [u32; 4]) -> [u32; 4] {
        let k = self.k8;
        std::array::from_fn(|i| {
            let factors = [
                0,
                255,
                s[i],
                255 - s[i],
                d[i],
                255 - d[i],
                s[3],
                255 - s[3],
                d[3],
                255 - d[3],
                k[i],
                255 - k[i],
                k[3],
                255 - k[3],
                if i == 3 { 255 } else { s[3].min(255 - d[3]) },
                s1[i],
                255 - s1[i],
                s1[3],
                255 - s1[3],
            ];
            let a = (s[i] * factors[self.src[i] as usize]) as i32;
            let b = (d[i] * factors[self.dst[i] as usize]) as i32;
            let sum = match self.eq[i] {
                0 => a + b,
                1 => a - b,
                2 => b - a,
                3 => return s[i].min(d[i]),
                _ => return s[i].max(d[i]),
            };
            div255(sum.clamp(0, 255 * 255) as u32)
        })
    }

    /// Blends `src` over `dst` in f32 (float targets; unorm8 targets take `apply_unorm8`).
    /// For unorm targets source and destination are clamped to [0, 1] first (GL 4.5 core §17.3.6). Always the same operations in the same order,
    /// with no fused multiply-add: results do not depend on the CPU.
    #[inline]
    pub fn apply(&self, src: [f32; 4], dst: [f32; 4]) -> [f32; 4] {
        self.apply_dual(src, [0.0; 4], dst)
    }

    /// `apply` with the second source colour `src1` of dual-source blending for the SRC1_*
    /// factors (clamped like the source for unorm targets: it is a factor, §17.3.6.1).
    #[inline]
    pub fn apply_dual(&self, src: [f32; 4], src1: [f32; 4], dst: [f32; 4]) -> [f32; 4] {
        let (s, s1, d, k) = if self.unorm {
            (
                src.map(saturate),
                src1.map(saturate),
                dst.map(saturate),
                self.k,
            )
        } else {
            (src, src1, dst, self.k)
        };
        let mut out = [0.0; 4];
        for (i, o) in out.iter_mut().enumerate() {
            // Every factor of table 17.2 for component i; the prepared index picks one.
            let factors = [
                0.0,
                1.0,
                s[i],
                1.0 - s[i],
                d[i],
                1.0 - d[i],
                s[3],
                1.0 - s[3],
                d[3],
                1.0 - d[3],
                k[i],
                1.0 - k[i],
                k[3],
                1.0 - k[3],
                if i == 3 { 1.0 } else { fmin(s[3], 1.0 - d[3]) },
                s1[i],
                1.0 - s1[i],
                s1[3],
                1.0 - s1[3],
            ];
            let sf = factors[self.src[i] as usize];
            let df = factors[self.dst[i] as usize];
            let results = [
                s[i] * sf + d[i] * df,
                s[i] * sf - d[i] * df,
                d[i] * df - s[i] * sf,
                fmin(s[i], d[i]),
                fmax(s[i], d[i]),
            ];
            *o = results[self.eq[i] as usize];
        }
        out
    }
}

/// Blends `src` over `dst` under `state` (see `PreparedBlend`, which callers blending many
/// fragments should keep instead).
pub fn blend(state: &BlendState, unorm: bool, src: [f32; 4], dst: [f32; 4]) -> [f32; 4] {
    PreparedBlend::new(state, unorm).apply(src, dst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gl::enums as gl;
    use crate::gl::{BlendEquation, BlendFactor};

    /// A blend state from raw GL values, so the tables below also check `from_gl`.
    fn state(src: u32, dst: u32, eq: u32) -> BlendState {
        let (src, dst) = (
            BlendFactor::from_gl(src).unwrap(),
            BlendFactor::from_gl(dst).unwrap(),
        );
        let eq = BlendEquation::from_gl(eq).unwrap();
        BlendState {
            enabled: true,
            src_rgb: src,
            dst_rgb: dst,
            src_alpha: src,
            dst_alpha: dst,
            eq_rgb: eq,
            eq_alpha: eq,
            color: [0.25, 0.5, 0.75, 0.125],
        }
    }

    #[test]
    fn every_factor_matches_the_table() {
        let s = [0.5, 0.25, 1.0, 0.75];
        let d = [0.125, 0.5, 0.0, 0.25];
        let k = [0.25, 0.5, 0.75, 0.125];
        // (factor, expected value for component 0 and for alpha)
        let table: [(u32, f32, f32); 15] = [
            (gl::ZERO, 0.0, 0.0),
            (gl::ONE, 1.0, 1.0),
            (gl::SRC_COLOR, s[0], s[3]),
            (gl::ONE_MINUS_SRC_COLOR, 1.0 - s[0], 1.0 - s[3]),
            (gl::DST_COLOR, d[0], d[3]),
            (gl::ONE_MINUS_DST_COLOR, 1.0 - d[0], 1.0 - d[3]),
            (gl::SRC_ALPHA, s[3], s[3]),
            (gl::ONE_MINUS_SRC_ALPHA, 1.0 - s[3], 1.0 - s[3]),
            (gl::DST_ALPHA, d[3], d[3]),
            (gl::ONE_MINUS_DST_ALPHA, 1.0 - d[3], 1.0 - d[3]),
            (gl::CONSTANT_COLOR, k[0], k[3]),
            (gl::ONE_MINUS_CONSTANT_COLOR, 1.0 - k[0], 1.0 - k[3]),
            (gl::CONSTANT_ALPHA, k[3], k[3]),
            (gl::ONE_MINUS_CONSTANT_ALPHA, 1.0 - k[3], 1.0 - k[3]),
            (gl::SRC_ALPHA_SATURATE, 0.75, 1.0), // min(0.75, 1 - 0.25) for rgb
        ];
        for (f, want0, want3) in table {
            // src * f + dst * 0 isolates the source factor.
            let out = blend(&state(f, gl::ZERO, gl::FUNC_ADD), true, s, d);
            assert_eq!(out[0], s[0] * want0, "src factor {f:#x}");
            assert_eq!(out[3], s[3] * want3, "src factor {f:#x} alpha");
            // src * 0 + dst * f isolates the destination factor.
            let out = blend(&state(gl::ZERO, f, gl::FUNC_ADD), true, s, d);
            assert_eq!(out[0], d[0] * want0, "dst factor {f:#x}");
            assert_eq!(out[3], d[3] * want3, "dst factor {f:#x} alpha");
        }
    }

    /// The dual-source factors (ARB_blend_func_extended) read the second source colour,
    /// clamped for unorm targets; without one (`apply`) they read zeros.
    #[test]
    fn src1_factors_read_the_second_source() {
        let s = [0.5, 0.25, 1.0, 0.75];
        let s1 = [0.25, 2.0, 0.5, 0.125];
        let d = [0.125, 0.5, 0.0, 0.25];
        let table: [(u32, f32, f32); 4] = [
            (gl::SRC1_COLOR, s1[1], s1[3]),
            (gl::ONE_MINUS_SRC1_COLOR, 1.0 - s1[1], 1.0 - s1[3]),
            (gl::SRC1_ALPHA, s1[3], s1[3]),
            (gl::ONE_MINUS_SRC1_ALPHA, 1.0 - s1[3], 1.0 - s1[3]),
        ];
        for (f, want1, want3) in table {
            let p = PreparedBlend::new(&state(f, gl::ZERO, gl::FUNC_ADD), false);
            assert!(p.uses_src1());
            let out = p.apply_dual(s, s1, d);
            assert_eq!(out[1], s[1] * want1, "src factor {f:#x}");
            assert_eq!(out[3], s[3] * want3, "src factor {f:#x} alpha");
            let p = PreparedBlend::new(&state(gl::ZERO, f, gl::FUNC_ADD), false);
            let out = p.apply_dual(s, s1, d);
            assert_eq!(out[1], d[1] * want1, "dst factor {f:#x}");
            assert_eq!(out[3], d[3] * want3, "dst factor {f:#x} alpha");
        }
        // Unorm targets clamp the second colour too: SRC1_COLOR of 2.0 is 1.0.
        let p = PreparedBlend::new(&state(gl::SRC1_COLOR, gl::ZERO, gl::FUNC_ADD), true);
        assert_eq!(p.apply_dual(s, s1, d)[1], s[1]);
        // No second colour: zeros.
        assert_eq!(p.apply(s, d), [0.0; 4]);
        let plain = PreparedBlend::new(&state(gl::SRC_ALPHA, gl::ONE, gl::FUNC_ADD), true);
        assert!(!plain.uses_src1());
    }

    #[test]
    fn equations_and_clamping() {
        let s = [0.5, 2.0, -1.0, 0.5];
        let d = [0.25, 0.5, 0.75, 1.0];
        let st = |eq| state(gl::ONE, gl::ONE, eq);
        assert_eq!(blend(&st(gl::FUNC_ADD), true, s, d), [0.75, 1.5, 0.75, 1.5]);
        assert_eq!(
            blend(&st(gl::FUNC_ADD), false, s, d),
            [0.75, 2.5, -0.25, 1.5]
        );
        assert_eq!(
            blend(&st(gl::FUNC_SUBTRACT), true, s, d),
            [0.25, 0.5, -0.75, -0.5]
        );
        assert_eq!(
            blend(&st(gl::FUNC_REVERSE_SUBTRACT), true, s, d),
            [-0.25, -0.5, 0.75, 0.5]
        );
        assert_eq!(blend(&st(gl::MIN), true, s, d), [0.25, 0.5, 0.0, 0.5]);
        assert_eq!(blend(&st(gl::MAX), false, s, d), [0.5, 2.0, 0.75, 1.0]);
        // The classic over operator.
        let over = state(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA, gl::FUNC_ADD);
        let out = blend(&over, true, [1.0, 0.0, 0.0, 0.25], [0.0, 0.0, 1.0, 1.0]);
        assert_eq!(out, [0.25, 0.0, 0.75, 0.25 * 0.25 + 0.75]);
    }

    /// The 16 ops against GL 4.5 core table 17.3, written out.
    #[test]
    fn logic_ops_match_the_table() {
        let (s, d) = (0b1100u32, 0b1010u32);
        let table: [(u32, u32); 16] = [
            (gl::CLEAR, 0),
            (gl::AND, s & d),
            (gl::AND_REVERSE, s & !d),
            (gl::COPY, s),
            (gl::AND_INVERTED, !s & d),
            (gl::NOOP, d),
            (gl::XOR, s ^ d),
            (gl::OR, s | d),
            (gl::NOR, !(s | d)),
            (gl::EQUIV, !(s ^ d)),
            (gl::INVERT, !d),
            (gl::OR_REVERSE, s | !d),
            (gl::COPY_INVERTED, !s),
            (gl::OR_INVERTED, !s | d),
            (gl::NAND, !(s & d)),
            (gl::SET, !0),
        ];
        for (e, want) in table {
            assert_eq!(logic_op((e - gl::CLEAR) as u8, s, d), want, "{e:#x}");
        }
    }

    /// Integer texels: unconverted, clamped to narrow formats, masked, never blended; the
    /// logic op works on the stored bits.
    #[test]
    fn integer_texels_clamp_mask_and_ignore_blending() {
        let f8 = IntFormat::from_gl(gl::RGBA8I).unwrap();
        let mut t = [9u8; 4];
        let src = [-200i32, 100, 127, -1].map(|v| f32::from_bits(v as u32));
        let add = PreparedBlend::new(&state(gl::ONE, gl::ONE, gl::FUNC_ADD), false);
        blend_and_pack(
            Format::Int(f8),
            Some(&add),
            src,
            [true, true, false, true],
            &mut t,
        );
        assert_eq!(t, [(-128i8) as u8, 100, 9, 0xFF]);
        let xor = ColorOps {
            framebuffer_srgb: false,
            logic_op: Some((gl::XOR - gl::CLEAR) as u8),
        };
        color_and_pack(Format::Int(f8), None, xor, src, [true; 4], &mut t);
        assert_eq!(t, [0, 0, 127 ^ 9, 0]);
        let f32u = IntFormat::from_gl(gl::R32UI).unwrap();
        let mut t = [0u8; 4];
        pack_int(f32u, [0xFFFF_FFFE, 0, 0, 0], [true; 4], &mut t);
        assert_eq!(u32::from_le_bytes(t), 0xFFFF_FFFE);
        // Clears: integers of either signedness clamp, floats truncate.
        let mut t = [0u8; 4];
        let neg = ClearColor::Int {
            bits: [-5i32 as u32, 300, 0, 0],
            signed: true,
        };
        let u8x4 = Format::Int(IntFormat::from_gl(gl::RGBA8UI).unwrap());
        pack_clear(u8x4, neg, [true; 4], &mut t);
        assert_eq!(t, [0, 255, 0, 0]);
        pack_clear(
            u8x4,
            ClearColor::Float([2.9, -1.0, 1e9, 7.0]),
            [true; 4],
            &mut t,
        );
        assert_eq!(t, [2, 0, 255, 7]);
    }

    /// GL_FRAMEBUFFER_SRGB: sources encoded with the exact curve, destinations decoded
    /// for blending, clears encoded; with it off SRGB8_ALPHA8 stores like RGBA8.
    #[test]
    fn srgb_encoding_and_linear_blending() {
        use crate::sampler::format::{linear_to_srgb8, srgb8_to_linear};
        let on = ColorOps {
            framebuffer_srgb: true,
            logic_op: None,
        };
        let src = [0.5, srgb8_to_linear(128), 1.5, 0.5];
        let mut t = [0u8; 4];
        color_and_pack(Format::Srgb8Alpha8, None, on, src, [true; 4], &mut t);
        assert_eq!(t, [188, 128, 255, 128]);
        let mut plain = [0u8; 4];
        blend_and_pack(Format::Srgb8Alpha8, None, src, [true; 4], &mut plain);
        assert_eq!(plain, [128, 55, 255, 128]);
        // Half-and-half over a stored sRGB 255/0: the average in linear light.
        let over = PreparedBlend::new(
            &state(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA, gl::FUNC_ADD),
            true,
        );
        let mut t = [255u8, 0, 188, 255];
        color_and_pack(
            Format::Srgb8Alpha8,
            Some(&over),
            on,
            [0.0, 1.0, 0.5, 0.5],
            [true; 4],
            &mut t,
        );
        let mix = |s: f32, d: u8| linear_to_srgb8(s * 0.5 + srgb8_to_linear(d) * 0.5);
        assert_eq!(t[..3], [mix(0.0, 255), mix(1.0, 0), mix(0.5, 188)]);
        assert_eq!(t[..2], [188, 188]);
        let mut t = [0u8; 4];
        pack_clear(
            Format::Srgb8Alpha8,
            ClearColor::Linear([0.5; 4]),
            [true; 4],
            &mut t,
        );
        assert_eq!(t, [188, 188, 188, 128]);
        pack_clear(
            Format::Rgba8,
            ClearColor::Linear([0.5; 4]),
            [true; 4],
            &mut t,
        );
        assert_eq!(t, [128; 4]);
        // Replacing a texel by its own decoded value (blits with GL_FRAMEBUFFER_SRGB, a
        // blend of ONE, ZERO) keeps every code.
        for c in 0..=255u8 {
            assert_eq!(linear_to_srgb8(srgb8_to_linear(c)), c);
        }
    }

    #[test]
    fn div255_is_rounded_division() {
        for x in 0..=255 * 255u32 {
            assert_eq!(div255(x), (x as f64 / 255.0).round() as u32, "{x}");
        }
    }

    /// The integer path against exact rational arithmetic: every factor and equation on
    /// values that include 0, 255 and the rounding edges.
    #[test]
    fn unorm8_blend_is_exactly_rounded() {
        let vals = [0u32, 1, 2, 64, 127, 128, 129, 200, 254, 255];
        let mut st = state(gl::ONE, gl::ONE, gl::FUNC_ADD);
        st.color = [0.25, 0.5, 0.75, 0.125];
        for (fi, &src) in BlendFactor::ALL.iter().enumerate() {
            for &eq in BlendEquation::ALL {
                st.src_rgb = src;
                st.src_alpha = src;
                st.dst_rgb = BlendFactor::ALL[(fi * 7 + 3) % BlendFactor::ALL.len()];
                st.dst_alpha = st.dst_rgb;
                st.eq_rgb = eq;
                st.eq_alpha = eq;
                let p = PreparedBlend::new(&st, true);
                for (n, &a) in vals.iter().enumerate() {
                    let s = [
                        a,
                        vals[(n + 3) % 10],
                        vals[(n + 5) % 10],
                        vals[(n + 7) % 10],
                    ];
                    let d = [
                        vals[(n + 1) % 10],
                        a,
                        vals[(n + 9) % 10],
                        vals[(n + 2) % 10],
                    ];
                    // The second source colour of dual-source blending (SRC1_* factors).
                    let s1 = [
                        vals[(n + 4) % 10],
                        vals[(n + 6) % 10],
                        vals[(n + 8) % 10],
                        vals[(n + 1) % 10],
                    ];
                    let got = p.apply_unorm8_dual(s, s1, d);
                    // The same blend in exact f64 (every term is an integer below 2^17).
                    let un = |v: [u32; 4]| v.map(|v| v as f32 / 255.0);
                    let f = p.apply_dual(un(s), un(s1), un(d));
                    for i in 0..4 {
                        let (sf, df) = (p.src[i] as usize, p.dst[i] as usize);
                        let k = p.k8;
                        let fac = |idx: usize| -> f64 {
                            let t = [
                                0,
                                255,
                                s[i],
                                255 - s[i],
                                d[i],
                                255 - d[i],
                                s[3],
                                255 - s[3],
                                d[3],
                                255 - d[3],
                                k[i],
                                255 - k[i],
                                k[3],
                                255 - k[3],
                                if i == 3 { 255 } else { s[3].min(255 - d[3]) },
                                s1[i],
                                255 - s1[i],
                                s1[3],
                                255 - s1[3],
                            ];
                            t[idx] as f64
                        };
                        let (x, y) = (s[i] as f64 * fac(sf), d[i] as f64 * fac(df));
                        let want = match p.eq[i] {
                            0 => ((x + y) / 255.0).clamp(0.0, 255.0).round(),
                            1 => ((x - y) / 255.0).clamp(0.0, 255.0).round(),
                            2 => ((y - x) / 255.0).clamp(0.0, 255.0).round(),
                            3 => s[i].min(d[i]) as f64,
                            _ => s[i].max(d[i]) as f64,
                        };
                        assert_eq!(got[i] as f64, want, "{st:?} s {s:?} d {d:?} i {i}");
                        // And within one step of the f32 path.
                        let fl = float_to_unorm(saturate(f[i]), 255) as i32;
                        assert!((fl - got[i] as i32).abs() <= 1, "{st:?} {s:?} {d:?} {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn depth_funcs() {
        let cases = [
            (gl::NEVER, [false, false, false]),
            (gl::LESS, [true, false, false]),
            (gl::EQUAL, [false, true, false]),
            (gl::LEQUAL, [true, true, false]),
            (gl::GREATER, [false, false, true]),
            (gl::NOTEQUAL, [true, false, true]),
            (gl::GEQUAL, [false, true, true]),
            (gl::ALWAYS, [true, true, true]),
        ];
        for (f, want) in cases {
            let func = CompareFunc::from_gl(f).unwrap();
            let got = [0u32, 5, 9].map(|z| depth_pass(func, z, 5));
            assert_eq!(got, want, "func {f:#x}");
        }
    }

    /// `depth_to_d24` against the f64 `float_to_unorm` on every f32 in [0, 1] (and the
    /// values `saturate` sends there).
    #[test]
    fn d24_conversion_is_exact_for_every_float() {
        for bits in 0..=1.0f32.to_bits() {
            let z = f32::from_bits(bits);
            assert_eq!(
                depth_to_d24(z),
                float_to_unorm(z, DEPTH24_MAX),
                "{z:e} ({bits:#x})"
            );
        }
        for z in [
            -0.0,
            -1e-30,
            -1.0,
            1.0 + f32::EPSILON,
            2.0,
            f32::INFINITY,
            f32::NAN,
        ] {
            assert_eq!(depth_to_d24(z), float_to_unorm(z, DEPTH24_MAX), "{z:e}");
        }
        assert_eq!(depth_to_d24(0.5), 1 << 23);
    }

    /// `float_to_unorm8` against the f64 `float_to_unorm(v, 255)` on every f32 in [0, 1]
    /// and on the values `saturate` sends there; `float_to_unorm8`'s ¼ is needed (plain
    /// truncation misses the one value its comment names).
    #[test]
    fn unorm8_conversion_is_exact_for_every_float() {
        for bits in 0..=1.0f32.to_bits() {
            let v = f32::from_bits(bits);
            assert_eq!(
                float_to_unorm8(v),
                float_to_unorm(v, 255),
                "{v:e} ({bits:#x})"
            );
        }
        for v in [
            -0.0,
            -1e-30,
            -1.0,
            1.0 + f32::EPSILON,
            2.0,
            3e9,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
        ] {
            assert_eq!(float_to_unorm8(v), float_to_unorm(v, 255), "{v:e}");
        }
        let lone = (4_210_752.5f64 / 2_147_483_648.0) as f32;
        assert_eq!(lone as f64 * 2_147_483_648.0, 4_210_752.5);
        assert_eq!(float_to_unorm(lone, 255), 1);
        let y = (lone * 2_147_483_648.0) as u32;
        assert_eq!(
            (y + (1 << 22) - ((y + 255) >> 8)) >> 23,
            0,
            "truncation alone"
        );
        assert_eq!(float_to_unorm8(lone), 1);
    }

    #[test]
    fn unorm_rounding_and_formats() {
        assert_eq!(float_to_unorm(0.5, 255), 128);
        assert_eq!(float_to_unorm(0.5 / 255.0, 255), 1);
        assert_eq!(float_to_unorm(0.49 / 255.0, 255), 0);
        assert_eq!(float_to_unorm(-3.0, 255), 0);
        assert_eq!(float_to_unorm(7.0, 255), 255);
        assert_eq!(float_to_unorm(f32::NAN, 255), 0);
        assert_eq!(depth_to_d24(1.0), DEPTH24_MAX);
        for format in [
            Format::Rgba8,
            Format::R8,
            Format::Rg8,
            Format::Rgba16F,
            Format::Rgba32F,
            Format::R32F,
        ] {
            let mut b = vec![0u8; format.bytes_per_texel()];
            let c = [0.2, 0.4, 0.6, 0.8];
            pack_color(format, c, [true; 4], &mut b);
            let back = unpack_color(format, &b);
            let n = match format {
                Format::R8 | Format::R32F => 1,
                Format::Rg8 => 2,
                _ => 4,
            };
            for i in 0..n {
                assert!((back[i] - c[i]).abs() < 1.0 / 255.0, "{format:?} {i}");
            }
            if n < 4 {
                assert_eq!(back[3], 1.0);
            }
            // The colour mask leaves masked components alone.
            let before = b.clone();
            pack_color(format, [0.9; 4], [false; 4], &mut b);
            assert_eq!(b, before);
        }
    }
}
