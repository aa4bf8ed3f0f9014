//! Level of detail (GL 4.5 core §8.14.1): λ_base of a fragment quad from its coordinate
//! differences, once per quad in f32, with our own f32 log2 — integer bit manipulation and
//! IEEE `+ − × ÷` only (no libm, no FMA), so λ has the same bits on every CPU. The bias and
//! clamps that follow (eqs. 8.5–8.6) and the level choice stay in `filter.rs`.

use super::descriptor::{Descriptor, MAX_LEVELS};
use crate::sampler::request::TexRequest;

/// √2 rounded down to f32: mantissas above it are halved so the polynomial argument stays
/// in [√½, √2].
const SQRT_2: f32 = std::f32::consts::SQRT_2;

/// log2(x) in f32 for the LOD: 0 → −∞, +∞ → +∞, NaN or x < 0 → NaN. Exact for powers of two
/// (λ of an exact 2:1 minification is exactly 1); elsewhere within 2·10⁻⁷ of the true value
/// plus 2 ulp (`tests::log2_is_accurate`), far below the 1/256 step of the mip weight.
///
/// x = 2^e · m with m in [√½, √2]; log2(m) = 2/ln 2 · atanh(t) with t = (m − 1)/(m + 1),
/// |t| ≤ 0.1716, and atanh(t) = t + t³/3 + t⁵/5 + t⁷/7 + t⁹/9 (next term < 4·10⁻¹⁰).
pub(crate) fn log2_f32(x: f32) -> f32 {
    if x.is_nan() || x < 0.0 {
        return f32::NAN;
    }
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x == f32::INFINITY {
        return x;
    }
    let (mut bits, mut e) = (x.to_bits(), 0i32);
    if bits < 0x0080_0000 {
        // Denormal: scale by 2^23 (exact) to get a normal number.
        bits = (x * 8_388_608.0).to_bits();
        e = -23;
    }
    e += (bits >> 23) as i32 - 127;
    let mut m = f32::from_bits((bits & 0x007F_FFFF) | 0x3F80_0000);
    if m > SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    // m − 1 is exact (Sterbenz); m = 1 gives t = 0 and an exact integer result.
    let t = (m - 1.0) / (m + 1.0);
    let t2 = t * t;
    let p = t2 * (1.0 / 3.0 + t2 * (1.0 / 5.0 + t2 * (1.0 / 7.0 + t2 * (1.0 / 9.0))));
    // 2/ln 2 = 2·log2(e).
    let log2_m = (t + t * p) * (2.0 * std::f32::consts::LOG2_E);
    e as f32 + log2_m
}

/// λ_base of a quad (GL 4.5 core eq. 8.7 with ρ = max of the two lengths): lanes 0, 1, 2
/// are pixels (x, y), (x+1, y), (x, y+1); sizes are the descriptor's base level. GL allows
/// one λ per quad. log2 √m = ½·log2 m, and √ is monotonic, so λ = ½·log2(max(ρx², ρy²))
/// without a square root. The vertex stage (`req.quad == 0`) has no derivatives: λ = 0
/// (GLSL 4.60 §8.9).
pub(crate) fn implicit_lambda(d: &Descriptor, req: &TexRequest) -> f32 {
    if req.quad == 0 {
        return 0.0;
    }
    let base = &d.levels[(d.base_level as usize).min(MAX_LEVELS - 1)];
    let (w, h) = (base.width as f32, base.height as f32);
    let c = |comp: usize, lane: usize| f32::from_bits(req.coord[comp][lane]);
    let dudx = (c(0, 1) - c(0, 0)) * w;
    let dvdx = (c(1, 1) - c(1, 0)) * h;
    let dudy = (c(0, 2) - c(0, 0)) * w;
    let dvdy = (c(1, 2) - c(1, 0)) * h;
    let rho2_x = dudx * dudx + dvdx * dvdx;
    let rho2_y = dudy * dudy + dvdy * dvdy;
    // `max` drops a NaN operand, as the max of the two lengths did.
    0.5 * log2_f32(rho2_x.max(rho2_y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log2_edges_and_powers_of_two() {
        assert_eq!(log2_f32(0.0), f32::NEG_INFINITY);
        assert_eq!(log2_f32(-0.0), f32::NEG_INFINITY);
        assert_eq!(log2_f32(f32::INFINITY), f32::INFINITY);
        assert!(log2_f32(f32::NAN).is_nan());
        assert!(log2_f32(-1.0).is_nan());
        for k in -149..128 {
            let x = 2.0f64.powi(k) as f32;
            assert_eq!(log2_f32(x), k as f32, "2^{k}");
        }
        assert_eq!(log2_f32(f32::MAX), 128.0);
    }

    #[test]
    fn log2_is_accurate() {
        // Every 97th f32 from the smallest denormal to the largest finite value, against
        // the f64 oracle (test-only host maths).
        let mut worst = 0.0f64;
        let mut bits = 1u32;
        while bits < 0x7F80_0000 {
            let x = f32::from_bits(bits);
            let exact = (x as f64).log2();
            let got = log2_f32(x) as f64;
            let err = (got - exact).abs();
            let allowed = 2.0e-7 + 2.0 * (exact.abs() * f32::EPSILON as f64);
            assert!(err <= allowed, "log2({x:e}) = {got}, exact {exact}");
            worst = worst.max(err);
            bits += 97;
        }
        assert!(worst > 0.0);
    }

    #[test]
    fn log2_is_monotonic_near_one() {
        // The LOD's level boundaries sit near integers and half-integers of λ, i.e. near
        // powers of two and their √2 multiples: no inversions around them.
        for centre in [
            1.0f32,
            std::f32::consts::SQRT_2,
            2.0,
            2.0 * std::f32::consts::SQRT_2,
        ] {
            let mut x = centre;
            for _ in 0..64 {
                x = x.next_down();
            }
            let mut prev = log2_f32(x);
            for _ in 0..128 {
                x = x.next_up();
                let v = log2_f32(x);
                assert!(v >= prev, "{x:e}");
                prev = v;
            }
        }
    }
}
