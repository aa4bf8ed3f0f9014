//! The reference per-fragment operations (fragment variants in `jit/fragment.rs` generate
//! the same operations; the tile loop uses these for interpreted shaders, and clears): the depth test (GL 4.5 core
//! §17.3.5), blending (§17.3.6) in f32 with a fixed operation order, and the conversion of
//! colours and depths to and from the storage formats of render targets (§17.3.8, unorm
//! conversion per §2.3.5.2 with round-to-nearest).

use super::draw::BlendState;
use crate::gl::CompareFunc;
pub use crate::sampler::format::{is_unorm, DEPTH24_MAX};
use crate::sampler::Format;

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

/// Depth value in the D24 representation.
#[inline]
pub fn depth_to_d24(z: f32) -> u32 {
    float_to_unorm(z, DEPTH24_MAX)
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
        Format::Depth24Stencil8 | Format::Depth32F => [0.0; 4],
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
        Format::Depth24Stencil8 | Format::Depth32F => {}
    }
}

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
        }
    }

    /// The factor and equation table indices (source factors, destination factors,
    /// equations; RGB in 0..2, alpha in 3), for code generated from this state
    /// (`jit::fragment::BlendKey`).
    pub fn indices(&self) -> ([u8; 4], [u8; 4], [u8; 4]) {
        (self.src, self.dst, self.eq)
    }

    /// The constant colour as blending uses it (clamped for unorm targets).
    pub fn constant(&self) -> [f32; 4] {
        self.k
    }

    /// Blends `src` over `dst`. For unorm targets source and destination are clamped to
    /// [0, 1] first (GL 4.5 core §17.3.6). Always the same operations in the same order,
    /// with no fused multiply-add: results do not depend on the CPU.
    #[inline]
    pub fn apply(&self, src: [f32; 4], dst: [f32; 4]) -> [f32; 4] {
        let (s, d, k) = if self.unorm {
            (src.map(saturate), dst.map(saturate), self.k)
        } else {
            (src, dst, self.k)
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
