//! Level of detail (GL 4.5 core §8.14.1): λ_base of a fragment quad from its coordinate
//! differences, once per quad in f32, with our own f32 log2 — integer bit manipulation and
//! IEEE `+ − × ÷` only (no libm, no FMA), so λ has the same bits on every CPU. The bias and
//! clamps that follow (eqs. 8.5–8.6) and the level choice stay in `filter.rs`.

use super::descriptor::{Descriptor, MAX_LEVELS};
use super::simd::F4;
use crate::sampler::request::TexRequest;

/// Mantissa bits that index the tables: 1 + k/128 for k in 0..128.
const TABLE_BITS: u32 = 7;
const TABLE_LEN: usize = 1 << TABLE_BITS;

/// log2(1 + k/128) as f32, and 1/(1 + k/128) as f32, computed at compile time in f64
/// (Rust's const evaluation is IEEE arithmetic, the same on every host): log2 y =
/// 2·atanh(u)/ln 2 with u = (y − 1)/(y + 1) ≤ 1/3, 40 terms (far past f64 precision).
static LOG2_TABLE: [f32; TABLE_LEN] = {
    let mut t = [0.0f32; TABLE_LEN];
    let mut k = 0;
    while k < TABLE_LEN {
        let y = 1.0 + k as f64 / TABLE_LEN as f64;
        let u = (y - 1.0) / (y + 1.0);
        let (mut term, mut sum, mut n) = (u, 0.0f64, 0);
        while n < 40 {
            sum += term / (2 * n + 1) as f64;
            term *= u * u;
            n += 1;
        }
        t[k] = (2.0 * sum / std::f64::consts::LN_2) as f32;
        k += 1;
    }
    t
};
static INV_TABLE: [f32; TABLE_LEN] = {
    let mut t = [0.0f32; TABLE_LEN];
    let mut k = 0;
    while k < TABLE_LEN {
        t[k] = (TABLE_LEN as f64 / (TABLE_LEN + k) as f64) as f32;
        k += 1;
    }
    t
};

/// log2(x) in f32 for the LOD: 0 → −∞, +∞ → +∞, NaN or x < 0 → NaN. Exact for powers of two
/// (λ of an exact 2:1 minification is exactly 1); elsewhere within 2·10⁻⁷ of the true value
/// plus 2 ulp (`tests::log2_is_accurate`), far below the 1/256 step of the mip weight.
///
/// x = 2^e · m with m in [1, 2); the top 7 bits of m pick c = 1 + k/128 ≤ m; then
/// log2 x = e + log2 c + log2(1 + r) with r = (m − c)/c in [0, 1/128)
/// and log2(1 + r) = (r − r²/2 + r³/3)/ln 2 (next term < 10⁻⁹). No division, one table
/// read per table, a dependency chain of about ten operations: this runs once per quad.
#[inline(always)]
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
    let k = ((bits >> (23 - TABLE_BITS)) as usize) & (TABLE_LEN - 1);
    let m_bits = (bits & 0x007F_FFFF) | 0x3F80_0000;
    let m = f32::from_bits(m_bits);
    // c keeps m's top 7 mantissa bits: m − c is exact (c ≤ m < 2c), so r is rounded once,
    // and a power of two gives r = 0, LOG2_TABLE[0] = 0 and an exact integer.
    let c = f32::from_bits(m_bits & !((1 << (23 - TABLE_BITS)) - 1));
    let r = (m - c) * INV_TABLE[k];
    let p = r * (1.0 + r * (-0.5 + r * (1.0 / 3.0)));
    e as f32 + (LOG2_TABLE[k] + p * std::f32::consts::LOG2_E)
}

/// λ_base of a quad (GL 4.5 core eq. 8.7 with ρ = max of the two lengths): lanes 0, 1, 2
/// are pixels (x, y), (x+1, y), (x, y+1); sizes are the descriptor's base level. GL allows
/// one λ per quad. log2 √m = ½·log2 m, and √ is monotonic, so λ = ½·log2(max(ρx², ρy²))
/// without a square root. The vertex stage (`req.quad == 0`) has no derivatives: λ = 0
/// (GLSL 4.60 §8.9). Inlined into the quad paths: as a call it was 81 instructions and 13%
/// of trilinear_1024's time (perf, 1 thread), the latency of its chain with nothing to
/// overlap it; inlined, the quad's independent setup runs beside it.
#[inline(always)]
pub(crate) fn implicit_lambda(d: &Descriptor, req: &TexRequest) -> f32 {
    if req.quad == 0 {
        return 0.0;
    }
    let base = &d.levels[(d.base_level as usize).min(MAX_LEVELS - 1)];
    let (w, h) = (base.width as f32, base.height as f32);
    let (rho2_x, rho2_y) = rho2(&req.coord, w, h);
    // `max` drops a NaN operand, as the max of the two lengths did.
    0.5 * log2_f32(rho2_x.max(rho2_y))
}

/// The squared lengths (ρx², ρy²) of the quad's coordinate differences in texels: lanes
/// 0, 1, 2 of `coord` are pixels (x, y), (x+1, y), (x, y+1).
///
/// Lane l of `du` is (u_l − u_0)·w, so lane 1 is ∂u/∂x and lane 2 ∂u/∂y (lanes 0 and 3 are
/// unused): the same IEEE operations in the same order as one derivative at a time
/// (`tests::rho2_matches_the_scalar_form`). Whole-vector loads because generated code
/// writes each coordinate vector with one 16-byte store, and the scalar form compiled to a
/// load straddling two of them, which the CPU cannot forward from its store buffer. That
/// was not what made `implicit_lambda` 13% of trilinear_1024 (session 6): it stayed 14%
/// after this, so the cost is the latency of the chain up to λ (log2 included).
#[inline(always)]
fn rho2(coord: &[[u32; 4]; 2], w: f32, h: f32) -> (f32, f32) {
    let u0 = F4::splat(f32::from_bits(coord[0][0]));
    let v0 = F4::splat(f32::from_bits(coord[1][0]));
    let du = F4::from_bits(coord[0]).sub(u0).mul(F4::splat(w));
    let dv = F4::from_bits(coord[1]).sub(v0).mul(F4::splat(h));
    let r = du.mul(du).add(dv.mul(dv)).to_bits();
    (f32::from_bits(r[1]), f32::from_bits(r[2]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rho2_matches_the_scalar_form() {
        let scalar = |coord: &[[u32; 4]; 2], w: f32, h: f32| {
            let c = |comp: usize, lane: usize| f32::from_bits(coord[comp][lane]);
            let dudx = (c(0, 1) - c(0, 0)) * w;
            let dvdx = (c(1, 1) - c(1, 0)) * h;
            let dudy = (c(0, 2) - c(0, 0)) * w;
            let dvdy = (c(1, 2) - c(1, 0)) * h;
            (dudx * dudx + dvdx * dvdx, dudy * dudy + dvdy * dvdy)
        };
        let specials = [0.0f32, -0.0, 1.0, 0.5, 1e-40, 3e38, f32::INFINITY, f32::NAN];
        let mut state = 0x9E37_79B9u32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        for i in 0..20_000 {
            let mut coord = [[0u32; 4]; 2];
            for c in coord.iter_mut().flatten() {
                let r = next();
                // Mostly nearby coordinates, as a quad has; some arbitrary bits and specials.
                *c = match r % 8 {
                    0 => r,
                    1 => specials[(r >> 8) as usize % specials.len()].to_bits(),
                    _ => (0.37f32 + (r >> 12) as f32 * 1e-6).to_bits(),
                };
            }
            let (w, h) = ((1 + i % 4096) as f32, (1 + (i * 7) % 2048) as f32);
            let (a, b) = (rho2(&coord, w, h), scalar(&coord, w, h));
            // Bits, except that any NaN is as good as another (λ turns every NaN into the
            // same NaN, and LLVM may order a commutative operation's operands either way).
            let same = |x: f32, y: f32| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
            assert!(
                same(a.0, b.0) && same(a.1, b.1),
                "{coord:?} {w} {h}: {a:?} {b:?}"
            );
        }
    }

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
