//! GLSL's `fma(float, float, float)` (GLSL 4.60 §8.3, ARB_gpu_shader5): the correctly
//! rounded binary32 fused multiply-add, computed from IEEE binary64 add, sub and mul and
//! integer bit operations only — never the host FMA instruction or libm's `fmaf`, so the
//! bits are the same on every CPU, with or without FMA3. The interpreter runs
//! [`fma_f32`]; the JIT inlines the very same sequence on `f64x2` (`jit::double`,
//! `emit_fma_f32`). `double` fma is `math::fp64::fma`.
//!
//! Why it is exact (a, b, c finite binary32):
//!
//! 1. `p = a * b` in binary64 is exact: the significands have 24 bits each, so the
//!    product has at most 48 ≤ 53, and 2^-298 ≤ |p| < 2^256 (or p = 0) lies inside the
//!    normal binary64 range.
//! 2. The exact sum x = p + c is a multiple of 2^-298 (every binary32 is a multiple of
//!    2^-149) and |x| < 2^257, so binary64 round-to-nearest never overflows and never
//!    loses bits to underflow here. `s = RN64(x)` then, and Knuth's TwoSum
//!    (`bb = s - p; e = (p - (s - bb)) + (c - bb)`, six operations, no branch) gives the
//!    rounding error exactly: x = s + e (Knuth, TAOCP vol. 2 §4.2.2, Theorem B; it holds
//!    for any binary format with round to nearest and no overflow).
//! 3. Round to odd: RO64(x) is x when x is a binary64 (e = 0), and otherwise the binary64
//!    next to x toward zero with its last significand bit forced to 1. s is a neighbour of
//!    x; if e has s's sign, |x| > |s| and the neighbour toward zero is s; if not,
//!    |s| - ulp < |x| < |s| (a round-to-nearest error is at most half an ulp, also below a
//!    power of two, where the ulp below is half the size) and it is the binary64 whose
//!    bits are s's minus one. Either way RO64(x) = (bits(s) - [signs differ]) | 1. s is not
//!    zero when e is not (x ≠ 0 is at least 2^-298, which rounds to itself), so the
//!    integer step never crosses zero.
//! 4. Boldo and Melquiond (IEEE Trans. Computers 57(4), 2008, Theorem 1): rounding to
//!    odd at p bits and then to nearest at q bits equals rounding to nearest at q bits
//!    once, when p ≥ q + 2 — here 53 ≥ 24 + 2. The reason is that every tie point and
//!    every rounding boundary of the 24-bit format has at most 25 significant bits, so it
//!    is a binary64 with an even last bit, and an odd RO64(x) is never equal to one: it
//!    lies on the same side of every such point as x. That holds for binary32 subnormal
//!    results too (their boundaries are multiples of 2^-150, far coarser than binary64's
//!    ulp at |x| < 2^-126) and for overflow (the boundary 2^128 - 2^103 has 25 bits), so
//!    `cvtsd2ss` of RO64(x) is RN32(x).
//!
//! Infinities and NaN: when a, b or c is not finite, or the product is ∞ · 0, s is ±∞ or
//! NaN and no round-to-odd step applies (`|s| < ∞` gates it); ±∞ comes out as IEEE says.
//! Every NaN result is the canonical quiet NaN (`f32::NAN`), never a payload that depends
//! on which operand the CPU propagates.

const SIGN: u64 = 1 << 63;
const INF: u64 = 0x7ff0_0000_0000_0000;

/// `a * b + c` rounded once to the nearest binary32, ties to even (IEEE 754
/// fusedMultiplyAdd), NaN results canonical. See the module doc for the proof.
pub fn fma_f32(a: f32, b: f32, c: f32) -> f32 {
    let (a, b, c) = (f64::from(a), f64::from(b), f64::from(c));
    let p = a * b;
    let s = p + c;
    let bb = s - p;
    let e = (p - (s - bb)) + (c - bb);
    let sb = s.to_bits();
    // Inexact and finite; NaN e (from a non-finite s) fails the second test.
    let inexact = e != 0.0 && (sb & !SIGN) < INF;
    let ro = if inexact {
        let differ = (sb ^ e.to_bits()) >> 63;
        (sb - differ) | 1
    } else {
        sb
    };
    let r = f64::from_bits(ro) as f32;
    if r.is_nan() {
        f32::NAN
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sign, integer significand and exponent of a finite nonzero f32: |x| = m · 2^e.
    fn parts(x: f32) -> (bool, u128, i32) {
        let bits = x.to_bits();
        let exp = ((bits >> 23) & 0xff) as i32;
        let frac = (bits & 0x7f_ffff) as u128;
        let (m, e) = if exp == 0 {
            (frac, -149)
        } else {
            (frac | 1 << 23, exp - 150)
        };
        (bits >> 31 != 0, m, e)
    }

    /// (-1)^sign · m · 2^e (m ≥ 0, its low bit possibly a sticky bit standing for nonzero
    /// bits below it) rounded to the nearest binary32, ties to even, in integers.
    fn round32(sign: bool, m: u128, e: i32) -> f32 {
        let sign_bit = (sign as u32) << 31;
        if m == 0 {
            return f32::from_bits(sign_bit);
        }
        let len = 128 - m.leading_zeros() as i32;
        let q = (e + len - 24).max(-149);
        let s = q - e;
        let mut k = if s <= 0 {
            m << (-s) as u32
        } else if s >= 128 {
            0 // below half the smallest subnormal
        } else {
            let keep = m >> s as u32;
            let rem = m & ((1u128 << s as u32) - 1);
            let half = 1u128 << (s - 1) as u32;
            keep + (rem > half || (rem == half && keep & 1 == 1)) as u128
        };
        let mut q = q;
        if k == 1 << 24 {
            k >>= 1;
            q += 1;
        }
        if k < 1 << 23 {
            return f32::from_bits(sign_bit | k as u32);
        }
        let biased = q + 23 + 127;
        if biased >= 255 {
            return f32::from_bits(sign_bit | 0x7f80_0000);
        }
        f32::from_bits(sign_bit | (biased as u32) << 23 | (k - (1 << 23)) as u32)
    }

    /// The soft reference: the exact a·b + c in integers (the 48-bit product and the
    /// addend aligned with 64 guard bits and a sticky bit), rounded once. Finite inputs.
    fn fma_ref(a: f32, b: f32, c: f32) -> f32 {
        let prod_zero = a == 0.0 || b == 0.0;
        let sp = (a.is_sign_negative()) ^ (b.is_sign_negative());
        if prod_zero && c == 0.0 {
            // IEEE 754 §6.3: x + y = ±0 is -0 only when both are -0.
            let neg = sp && c.is_sign_negative();
            return if neg { -0.0 } else { 0.0 };
        }
        if prod_zero {
            return c;
        }
        let (_, ma, ea) = parts(a);
        let (_, mb, eb) = parts(b);
        let (mp, ep) = (ma * mb, ea + eb);
        if c == 0.0 {
            return round32(sp, mp, ep);
        }
        let (sc, mc, ec) = parts(c);
        // Put both on the grid 2^(min exponent), capped: a term more than 64 bits below
        // the other's lowest bit only contributes a sticky bit.
        let lo = ep.min(ec);
        let hi = ep.max(ec);
        let base = lo.max(hi - 64);
        let align = |m: u128, e: i32| -> u128 {
            if e >= base {
                m << (e - base) as u32
            } else {
                let d = (base - e) as u32;
                if d >= 100 {
                    (m != 0) as u128
                } else {
                    (m >> d) | (m & ((1u128 << d) - 1) != 0) as u128
                }
            }
        };
        // The larger term has at most 48 + 64 bits; a sticky bit 64 bits below its lowest
        // one never reaches a rounding boundary of a 24-bit result.
        let (xp, xc) = (align(mp, ep), align(mc, ec));
        if sp == sc {
            round32(sp, xp + xc, base)
        } else if xp >= xc {
            let m = xp - xc;
            if m == 0 {
                return 0.0; // exact cancellation: +0 in round to nearest
            }
            round32(sp, m, base)
        } else {
            round32(sc, xc - xp, base)
        }
    }

    fn same(a: f32, b: f32) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    fn specials() -> Vec<f32> {
        let mut v = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            3.0,
            1.0 + f32::EPSILON,
            1.0 - f32::EPSILON / 2.0,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::from_bits(0x8000_0001),
            f32::from_bits(0x007f_ffff),
            f32::MAX,
            f32::MIN,
            16_777_216.0,
            16_777_215.0,
            1.0e-20,
            1.0e20,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        v.extend(v.clone().iter().map(|x| -x));
        v
    }

    /// xorshift64: the same stream on every machine.
    fn next(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    /// A random binary32: a third uniform bits (denormals, NaN and ∞ included), a third
    /// near 1 (heavy cancellation against the other two), a third denormal or tiny.
    fn random_f32(s: &mut u64) -> f32 {
        let r = next(s);
        let bits = r as u32;
        match (r >> 40) % 3 {
            0 => f32::from_bits(bits),
            1 => f32::from_bits((bits & 0x807f_ffff) | (((r >> 48) % 6 + 124) as u32) << 23),
            _ => f32::from_bits(bits & 0x80ff_ffff),
        }
    }

    #[test]
    fn reference_agrees_with_the_ieee_cases_it_was_written_for() {
        // The reference itself against known answers (so the oracle can fail too).
        assert_eq!(fma_ref(2.0, 3.0, 1.0), 7.0);
        assert_eq!(fma_ref(2.0, 3.0, -6.0).to_bits(), 0);
        let e = f32::EPSILON;
        // (1 + e)(1 - e) - 1 = -e^2: the unfused form gives 0.
        assert_eq!(fma_ref(1.0 + e, 1.0 - e, -1.0), -e * e);
        assert_eq!(
            fma_ref(f32::MIN_POSITIVE, 0.5, 0.0),
            f32::MIN_POSITIVE / 2.0
        );
        assert_eq!(fma_ref(f32::MAX, 2.0, -f32::MAX), f32::MAX);
    }

    #[test]
    fn fma_f32_edge_cases_equal_the_soft_reference() {
        let v = specials();
        let mut n = 0;
        for &a in &v {
            for &b in &v {
                for &c in &v {
                    let got = fma_f32(a, b, c);
                    if !(a.is_finite() && b.is_finite() && c.is_finite()) {
                        // IEEE: ∞·0 and ∞ - ∞ are NaN, NaN propagates, ∞ wins otherwise.
                        let want = f64::from(a) * f64::from(b) + f64::from(c);
                        assert!(same(got, want as f32), "fma({a:e}, {b:e}, {c:e})");
                        if got.is_nan() {
                            assert_eq!(got.to_bits(), f32::NAN.to_bits());
                        }
                        continue;
                    }
                    let want = fma_ref(a, b, c);
                    assert!(
                        same(got, want),
                        "fma({a:e}, {b:e}, {c:e}) = {got:e}, want {want:e}"
                    );
                    n += 1;
                }
            }
        }
        assert!(n > 30_000);
        // Double rounding would get this wrong: 24929 · 673 = 2^24 + 1, so a·b is exactly
        // 1 + 2^-24 (a binary32 tie) and a·b + 2^-60 lies just above it. RN64 drops the
        // 2^-60 and lands on the tie, which RN32 rounds to 1 (even); fused, it is 1 + 2^-23.
        let (a, b, c) = (24929.0 / 32768.0, 673.0 / 512.0, 2f32.powi(-60));
        assert_eq!((f64::from(a) * f64::from(b) + f64::from(c)) as f32, 1.0);
        assert_eq!(fma_ref(a, b, c), 1.0 + f32::EPSILON);
        assert_eq!(fma_f32(a, b, c), 1.0 + f32::EPSILON);
        assert_eq!(fma_f32(-a, b, -c), -1.0 - f32::EPSILON);
    }

    #[test]
    fn fma_f32_equals_the_soft_reference_on_random_triples() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut finite = 0;
        for i in 0..100_000 {
            let a = random_f32(&mut s);
            let b = random_f32(&mut s);
            // Every fourth addend cancels most of the product.
            let c = if i % 4 == 0 {
                -((f64::from(a) * f64::from(b)) as f32)
            } else {
                random_f32(&mut s)
            };
            let got = fma_f32(a, b, c);
            if !(a.is_finite() && b.is_finite() && c.is_finite()) {
                // Exact in binary64 (a finite product never overflows it): ∞ or NaN.
                let want = (f64::from(a) * f64::from(b) + f64::from(c)) as f32;
                assert!(same(got, want), "fma({a:e}, {b:e}, {c:e})");
                continue;
            }
            finite += 1;
            let want = fma_ref(a, b, c);
            assert!(
                same(got, want),
                "fma({a:e}, {b:e}, {c:e}) = {got:e}, want {want:e}"
            );
            // The host's fmaf (glibc: correctly rounded) as a second opinion.
            assert!(same(want, a.mul_add(b, c)), "reference vs host fmaf");
        }
        assert!(finite > 90_000, "{finite} finite triples");
    }
}
