//! Double-precision operations that are not one IEEE instruction (GLSL 4.60 §8.3 on
//! `double`, ARB_gpu_shader_fp64): the roundings as exact add/compare sequences, and a
//! correctly rounded fused multiply-add in integer arithmetic. The interpreter runs these;
//! the JIT inlines the same rounding sequence on `f64x2` (`jit::ops`) and calls [`fma`]
//! on CPUs without FMA3, so both give the same bits on every machine. No host libm.

/// 2^52: from here on every double is an integer.
const TWO_52: f64 = 4_503_599_627_370_496.0;

/// IEEE roundToIntegralTiesToEven: for |x| < 2^52, `(|x| + 2^52) - 2^52` rounds to an
/// integer at unit spacing with ties to even (both ops exact but the one rounding); the
/// sign comes back from `x` (so -0.3 → -0.0). Larger values, infinities and NaN are
/// returned as they are.
pub fn round_even(x: f64) -> f64 {
    let a = f64::from_bits(x.to_bits() & !SIGN);
    if !is_small(a) {
        return x;
    }
    with_sign((a + TWO_52) - TWO_52, x)
}

/// IEEE roundToIntegralTowardNegative: `round_even(x)`, minus one where that rounded up.
/// The sign of a zero result is `x`'s (floor(-0.0) = -0.0).
pub fn floor(x: f64) -> f64 {
    let r = round_even(x);
    if !is_small(f64::from_bits(x.to_bits() & !SIGN)) {
        return x;
    }
    with_sign(if r > x { r - 1.0 } else { r }, x)
}

/// IEEE roundToIntegralTowardPositive (ceil(-0.5) = -0.0).
pub fn ceil(x: f64) -> f64 {
    let r = round_even(x);
    if !is_small(f64::from_bits(x.to_bits() & !SIGN)) {
        return x;
    }
    with_sign(if r < x { r + 1.0 } else { r }, x)
}

/// IEEE roundToIntegralTowardZero: `floor(|x|)` with `x`'s sign.
pub fn trunc(x: f64) -> f64 {
    with_sign(floor(f64::from_bits(x.to_bits() & !SIGN)), x)
}

const SIGN: u64 = 1 << 63;

/// Whether |x| (given as `a`) is below 2^52, where the roundings have work to do; false
/// for NaN.
fn is_small(a: f64) -> bool {
    a < TWO_52
}

/// `v` with the sign bit of `s` (for the integers the roundings produce, whose sign
/// always equals the argument's).
fn with_sign(v: f64, s: f64) -> f64 {
    f64::from_bits((v.to_bits() & !SIGN) | (s.to_bits() & SIGN))
}

/// `a * b + c` with one rounding (IEEE 754 fusedMultiplyAdd, round to nearest even),
/// computed exactly in integers: the 106-bit product and the addend are aligned in 126
/// bits with a sticky bit, added, and rounded once (subnormal results included).
pub fn fma(a: f64, b: f64, c: f64) -> f64 {
    if !a.is_finite() || !b.is_finite() || a == 0.0 || b == 0.0 {
        // The product is exact (0, ±inf or NaN), so one rounding is the addition's.
        return a * b + c;
    }
    if !c.is_finite() {
        // A finite product does not change an infinite or NaN addend (even if the
        // rounded product would overflow).
        return c + 0.0 * a;
    }
    let (sa, ma, ea) = parts(a);
    let (sb, mb, eb) = parts(b);
    let (sp, mut mp, mut ep) = (sa ^ sb, ma as u128 * mb as u128, ea + eb);
    normalize(&mut mp, &mut ep);
    if c == 0.0 {
        return round(sp, mp, ep);
    }
    let (sc, mc, ec) = parts(c);
    let (mut mc, mut ec) = (mc as u128, ec);
    normalize(&mut mc, &mut ec);
    // big: the operand with the larger exponent; the other is shifted right onto it.
    let ((sg, mg, eg), (ss, ms, es)) = if ep >= ec {
        ((sp, mp, ep), (sc, mc, ec))
    } else {
        ((sc, mc, ec), (sp, mp, ep))
    };
    let d = (eg - es) as u32;
    let ms = if d >= 128 {
        (ms != 0) as u128
    } else {
        let lost = ms & ((1u128 << d) - 1);
        (ms >> d) | (lost != 0) as u128
    };
    if sg == ss {
        return round(sg, mg + ms, eg);
    }
    // Cancellation is exact: a sticky bit appears only for d >= 2, and then at most one
    // leading bit goes, leaving far more than the 53 + 2 bits that rounding needs.
    if mg >= ms {
        let m = mg - ms;
        if m == 0 {
            return 0.0;
        }
        round(sg, m, eg)
    } else {
        round(ss, ms - mg, eg)
    }
}

/// Sign, integer significand and exponent of a finite nonzero double: |x| = m · 2^e.
fn parts(x: f64) -> (bool, u64, i32) {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1 << 52) - 1);
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), exp - 1075)
    };
    (bits >> 63 != 0, m, e)
}

/// Shifts `m` (nonzero, below 2^126) so that its top bit is bit 125, keeping m · 2^e.
fn normalize(m: &mut u128, e: &mut i32) {
    let len = 128 - m.leading_zeros() as i32;
    let s = 126 - len;
    *m <<= s;
    *e -= s;
}

/// (-1)^sign · m · 2^e (m nonzero, below 2^127, its low bit possibly a sticky bit that
/// stands for nonzero bits below it) rounded to the nearest double, ties to even.
fn round(sign: bool, m: u128, e: i32) -> f64 {
    let len = 128 - m.leading_zeros() as i32;
    // The result's unit: 53 significant bits, but never finer than the subnormal 2^-1074.
    let q = (e + len - 53).max(-1074);
    let s = q - e;
    let mut k = if s <= 0 {
        (m << (-s) as u32) as u64
    } else if s >= 128 {
        0
    } else {
        let keep = m >> s as u32;
        let rem = m & ((1u128 << s as u32) - 1);
        let half = 1u128 << (s - 1) as u32;
        let up = rem > half || (rem == half && keep & 1 == 1);
        (keep + up as u128) as u64
    };
    let mut q = q;
    if k == 1 << 53 {
        k >>= 1;
        q += 1;
    }
    let sign_bit = (sign as u64) << 63;
    if k < 1 << 52 {
        // Subnormal (q is -1074) or zero.
        return f64::from_bits(sign_bit | k);
    }
    let biased = q + 52 + 1023;
    if biased >= 2047 {
        return f64::from_bits(sign_bit | 0x7ff0_0000_0000_0000);
    }
    f64::from_bits(sign_bit | (biased as u64) << 52 | (k - (1 << 52)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Doubles that stress every path: signed zeros, subnormals, the integer limit 2^52,
    /// halves (ties), huge values, infinities and NaN.
    fn specials() -> Vec<f64> {
        let mut v = vec![
            0.0,
            -0.0,
            0.3,
            -0.3,
            0.5,
            -0.5,
            1.5,
            2.5,
            -2.5,
            0.49999999999999994,
            -0.49999999999999994,
            TWO_52 - 0.5,
            -(TWO_52 - 0.5),
            TWO_52,
            TWO_52 + 1.0,
            1e300,
            -1e300,
            f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
            f64::MAX,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            123456.789,
            -987654.321,
        ];
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let exp = (s >> 52) % 70 + 1000; // magnitudes around 2^-23 .. 2^46
            v.push(f64::from_bits(
                (s & ((1 << 52) - 1)) | exp << 52 | (s & SIGN),
            ));
            v.push(f64::from_bits(s));
        }
        v
    }

    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    #[test]
    fn roundings_equal_ieee() {
        for x in specials() {
            // Rust's own f64 roundings are exact IEEE operations: the oracle here.
            assert!(same(round_even(x), x.round_ties_even()), "roundEven({x:e})");
            assert!(same(floor(x), x.floor()), "floor({x:e})");
            assert!(same(ceil(x), x.ceil()), "ceil({x:e})");
            assert!(same(trunc(x), x.trunc()), "trunc({x:e})");
        }
    }

    #[test]
    fn fma_is_correctly_rounded() {
        // The host's fused multiply-add (correctly rounded by IEEE 754) is the oracle.
        let v = specials();
        let mut n = 0;
        for (i, &a) in v.iter().enumerate() {
            for j in [i * 7 + 1, i * 13 + 5, i + 3] {
                let b = v[j % v.len()];
                for k in [i * 3 + 2, j * 5 + 1, i + j] {
                    let c = v[k % v.len()];
                    let want = a.mul_add(b, c);
                    assert!(same(fma(a, b, c), want), "fma({a:e}, {b:e}, {c:e})");
                    // The addend that cancels the product leaves the rounding error alone.
                    let p = a * b;
                    assert!(
                        same(fma(a, b, -p), a.mul_add(b, -p)),
                        "fma({a:e}, {b:e}, -p)"
                    );
                    n += 2;
                }
            }
        }
        assert!(n > 20_000);
        // One rounding, not two: 0.1 * 10 - 1 is 2^-54 fused and 0 unfused.
        assert_eq!(fma(0.1, 10.0, -1.0), 5.551115123125783e-17);
        // Subnormal results and exact cancellation to +0.
        assert_eq!(fma(f64::MIN_POSITIVE, 0.5, 0.0), f64::MIN_POSITIVE / 2.0);
        assert_eq!(fma(2.0, 3.0, -6.0).to_bits(), 0.0f64.to_bits());
        assert_eq!(fma(f64::MAX, 2.0, -f64::INFINITY), f64::NEG_INFINITY);
    }
}
