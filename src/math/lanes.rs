//! The GLSL maths built-ins that generated code computes inline (sin, cos, tan, asin, acos,
//! atan, atan2, sinh, cosh, tanh, asinh, acosh, atanh, exp, exp2, log, log2, pow, floor,
//! ceil, trunc, roundEven): each written once, as a straight-line sequence over the op set
//! [`Lanes`] — IEEE binary32 add, sub, mul, div and sqrt, compares, bit operations, integer
//! add/sub/shifts and a bit select; no FMA, no reciprocal estimates, no libm, no branches. The JIT instantiates a sequence
//! with Cranelift vector instructions (`jit::vmath`); the interpreter calls the scalar
//! instance ([`Scalar`], the `pub fn`s below). Both run the very same ops in the same
//! order, so they agree bit for bit on every x86-64 CPU (NaN results are always the
//! canonical quiet NaN `f32::NAN`).
//!
//! The f64 routines of the parent module stay as the accuracy oracle: `tests` below
//! measures every function here against them and asserts the bounds of the table in its
//! doc comment. The algorithms are those of Cephes (sinf, cosf, tanf via sin/cos, asinf,
//! acosf, atanf, expf, exp2f, sinhf, tanhf, asinhf, acoshf, atanhf) and musl (logf,
//! log2f), with our own special-value handling.
//!
//! Domain notes (GLSL leaves these undefined; ours are deterministic):
//! - sin/cos/tan: the argument is reduced with a 3-part Cody–Waite π/2, k split in two so
//!   that the products stay exact for |x| < 2^24 (absolute error about 2^-24 there).
//!   |x| >= 2^24 (every such f32 is an even integer) is folded to its mantissa scaled into
//!   [2^23, 2^24) first: a deterministic value in [-1, 1] that varies with x, not sin(x).
//!   ±inf and NaN give NaN.
//! - asin/acos/atanh of |x| > 1, acosh of x < 1: NaN. log/log2 of x < 0: NaN, of ±0: -inf. pow as
//!   exp2(y · log2 x) with the IEEE rules of that formula (x < 0 → NaN, 0^0 → NaN, ...).

/// The op set a sequence is written in. `V` is 32 bits per lane: a float's bits or an
/// integer; a mask is all ones (true) or all zeros per lane.
pub trait Lanes {
    /// One value: the bits of every lane.
    type V: Copy;
    /// The constant `bits` in every lane.
    fn k(&mut self, bits: u32) -> Self::V;
    /// IEEE binary32 `a + b`.
    fn add(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// IEEE binary32 `a - b`.
    fn sub(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// IEEE binary32 `a * b`.
    fn mul(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// IEEE binary32 `a / b`.
    fn div(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// IEEE binary32 square root.
    fn sqrt(&mut self, a: Self::V) -> Self::V;
    /// Mask of `a < b` (ordered).
    fn lt(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// Mask of `a == b` (ordered).
    fn eq(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// Mask of "a or b is NaN".
    fn unord(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// Bitwise and.
    fn and(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// Bitwise or.
    fn or(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// Bitwise xor.
    fn xor(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// Wrapping 32-bit integer add.
    fn iadd(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// Wrapping 32-bit integer sub.
    fn isub(&mut self, a: Self::V, b: Self::V) -> Self::V;
    /// Shift left by `n` (< 32).
    fn shl(&mut self, a: Self::V, n: u32) -> Self::V;
    /// Arithmetic shift right by `n` (< 32).
    fn sshr(&mut self, a: Self::V, n: u32) -> Self::V;
    /// Signed 32-bit integer to binary32, round to nearest even.
    fn itof(&mut self, a: Self::V) -> Self::V;
    /// Per bit: `m ? a : b`.
    fn sel(&mut self, m: Self::V, a: Self::V, b: Self::V) -> Self::V;
}

/// The scalar instance: one lane, `V` = the `u32` bits, each op the Rust `f32`/`u32`
/// operation (IEEE; Rust never contracts to FMA).
pub struct Scalar;

#[inline(always)]
fn f(b: u32) -> f32 {
    f32::from_bits(b)
}

#[inline(always)]
fn mask(c: bool) -> u32 {
    if c {
        u32::MAX
    } else {
        0
    }
}

impl Lanes for Scalar {
    type V = u32;
    #[inline(always)]
    fn k(&mut self, bits: u32) -> u32 {
        bits
    }
    #[inline(always)]
    fn add(&mut self, a: u32, b: u32) -> u32 {
        (f(a) + f(b)).to_bits()
    }
    #[inline(always)]
    fn sub(&mut self, a: u32, b: u32) -> u32 {
        (f(a) - f(b)).to_bits()
    }
    #[inline(always)]
    fn mul(&mut self, a: u32, b: u32) -> u32 {
        (f(a) * f(b)).to_bits()
    }
    #[inline(always)]
    fn div(&mut self, a: u32, b: u32) -> u32 {
        (f(a) / f(b)).to_bits()
    }
    #[inline(always)]
    fn sqrt(&mut self, a: u32) -> u32 {
        f(a).sqrt().to_bits()
    }
    #[inline(always)]
    fn lt(&mut self, a: u32, b: u32) -> u32 {
        mask(f(a) < f(b))
    }
    #[inline(always)]
    fn eq(&mut self, a: u32, b: u32) -> u32 {
        mask(f(a) == f(b))
    }
    #[inline(always)]
    fn unord(&mut self, a: u32, b: u32) -> u32 {
        mask(f(a).is_nan() || f(b).is_nan())
    }
    #[inline(always)]
    fn and(&mut self, a: u32, b: u32) -> u32 {
        a & b
    }
    #[inline(always)]
    fn or(&mut self, a: u32, b: u32) -> u32 {
        a | b
    }
    #[inline(always)]
    fn xor(&mut self, a: u32, b: u32) -> u32 {
        a ^ b
    }
    #[inline(always)]
    fn iadd(&mut self, a: u32, b: u32) -> u32 {
        a.wrapping_add(b)
    }
    #[inline(always)]
    fn isub(&mut self, a: u32, b: u32) -> u32 {
        a.wrapping_sub(b)
    }
    #[inline(always)]
    fn shl(&mut self, a: u32, n: u32) -> u32 {
        a << n
    }
    #[inline(always)]
    fn sshr(&mut self, a: u32, n: u32) -> u32 {
        ((a as i32) >> n) as u32
    }
    #[inline(always)]
    fn itof(&mut self, a: u32) -> u32 {
        (a as i32 as f32).to_bits()
    }
    #[inline(always)]
    fn sel(&mut self, m: u32, a: u32, b: u32) -> u32 {
        (m & a) | (!m & b)
    }
}

// ---------------------------------------------------------------------------------------
// Constants (bits of binary32 values)
// ---------------------------------------------------------------------------------------

const SIGN: u32 = 0x8000_0000;
const ABS: u32 = 0x7fff_ffff;
const QNAN: u32 = 0x7fc0_0000;
const INF: u32 = 0x7f80_0000;
const NEG_INF: u32 = 0xff80_0000;
const ONE: u32 = 0x3f80_0000;
const HALF: u32 = 0x3f00_0000;
const TWO: u32 = 0x4000_0000;
/// 2^23: adding it to a float in [0, 2^23) rounds to an integer.
const TWO_23: u32 = 0x4b00_0000;
/// 1.5 · 2^23: adding it to a float in (-2^22, 2^22) rounds to an integer n, and the sum's
/// bits are `MAGIC + n`.
const MAGIC: u32 = 0x4b40_0000;

/// |x| below which sin/cos/tan are computed exactly as before the reduction was extended
/// (k = round(|x| · 2/π) < 2^16, so k times each 8-bit part of π/2 is exact); the same
/// sequence goes on, just as accurate, up to 2^24 (see `sincos_parts`).
pub const TRIG_LIMIT: f32 = 98_304.0;
/// 2^24 (bits): sin/cos/tan fold |x| at or above it (see `sincos_parts`).
const TWO_24: u32 = 0x4b80_0000;
/// The mantissa bits of a binary32.
const MANT: u32 = 0x007f_ffff;
/// 1.5 · 2^35: adding it to an integer below 2^34 rounds to a multiple of 2^12.
const SPLIT_2_12: u32 = 0x5140_0000;
/// 2/π.
const FRAC_2_PI: u32 = 0x3f22_f983;
/// π/2 = P1 + P2 + P3 to within 2^-47: P1 and P2 have at most 8 significant bits.
const PIO2_P1: u32 = 0x3fc9_0000; // 1.5703125
const PIO2_P2: u32 = 0x39fe_0000; // 4.84466552734375e-4
const PIO2_P3: u32 = 0xb52b_bbd3; // -6.397578e-7
/// π and π/2 as binary32 (hi) plus the rounding error (lo).
const PI_HI: u32 = 0x4049_0fdb;
const PI_LO: u32 = 0xb3bb_bd2e;
const PIO2_HI: u32 = 0x3fc9_0fdb;
const PIO2_LO: u32 = 0xb33b_bd2e;
const PIO4: u32 = 0x3f49_0fdb;

/// tan(3π/8) and tan(π/8): the interval bounds of atan's reduction (Cephes).
#[allow(clippy::excessive_precision)]
const TAN_3PI_8: f32 = 2.414_213_562_373_095;
#[allow(clippy::excessive_precision)]
const TAN_PI_8: f32 = 0.414_213_562_373_095_0;
/// -2.12194440e-4: ln 2 - 355/512 (Cephes expf's C2).
const EXP_C2: u32 = (-2.121_944_4e-4_f32).to_bits();
/// musl logf's Lg1..Lg4 (bits).
const LG1: u32 = 0x3f2a_aaaa; // 0xaaaaaa.0p-24
const LG2: u32 = 0x3ecc_ce13; // 0xccce13.0p-25
const LG3: u32 = 0x3e91_e9ee; // 0x91e9ee.0p-25
const LG4: u32 = 0x3e78_9e26; // 0xf89e26.0p-26

fn kf<O: Lanes>(o: &mut O, v: f32) -> O::V {
    o.k(v.to_bits())
}

/// `c[0]·z^(n-1) + ... + c[n-1]` by Horner: `((c0·z + c1)·z + c2)...`.
fn horner<O: Lanes>(o: &mut O, z: O::V, c: &[f32]) -> O::V {
    let mut acc = kf(o, c[0]);
    for &ci in &c[1..] {
        let t = o.mul(acc, z);
        let k = kf(o, ci);
        acc = o.add(t, k);
    }
    acc
}

/// `horner` with coefficients given as bits.
fn horner_bits<O: Lanes>(o: &mut O, z: O::V, c: &[u32]) -> O::V {
    let mut acc = o.k(c[0]);
    for &ci in &c[1..] {
        let t = o.mul(acc, z);
        let k = o.k(ci);
        acc = o.add(t, k);
    }
    acc
}

/// NaN lanes of `m` become the canonical NaN.
fn nan_where<O: Lanes>(o: &mut O, m: O::V, r: O::V) -> O::V {
    let q = o.k(QNAN);
    o.sel(m, q, r)
}

/// `x < hi ? x : hi` (a NaN `x` becomes `hi`: callers mask NaN lanes afterwards).
fn min_k<O: Lanes>(o: &mut O, x: O::V, hi: f32) -> O::V {
    let h = kf(o, hi);
    let m = o.lt(x, h);
    o.sel(m, x, h)
}

/// `lo < x ? x : lo`.
fn max_k<O: Lanes>(o: &mut O, x: O::V, lo: f32) -> O::V {
    let l = kf(o, lo);
    let m = o.lt(l, x);
    o.sel(m, x, l)
}

// ---------------------------------------------------------------------------------------
// Rounding to integers
// ---------------------------------------------------------------------------------------

/// (|x|, round-half-even(|x|) (meaningful where small), mask of |x| < 2^23, sign of x).
fn round_parts<O: Lanes>(o: &mut O, x: O::V) -> (O::V, O::V, O::V, O::V) {
    let abs = o.k(ABS);
    let ax = o.and(x, abs);
    let sgn = o.k(SIGN);
    let s = o.and(x, sgn);
    let big = o.k(TWO_23);
    let small = o.lt(ax, big);
    let t = o.add(ax, big);
    let t = o.sub(t, big);
    (ax, t, small, s)
}

/// IEEE roundToIntegralTowardNegative: exact; ±0, ±inf, NaN and |x| >= 2^23 returned as is.
pub fn floor_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let (_, t, small, s) = round_parts(o, x);
    let r = o.or(t, s); // round-half-even(x), sign kept (-0.3 → -0)
    let above = o.lt(x, r);
    let one = o.k(ONE);
    let r1 = o.sub(r, one);
    let fl = o.sel(above, r1, r);
    o.sel(small, fl, x)
}

/// IEEE roundToIntegralTowardPositive (ceil(-0.5) = -0).
pub fn ceil_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let (_, t, small, s) = round_parts(o, x);
    let r = o.or(t, s);
    let below = o.lt(r, x);
    let one = o.k(ONE);
    let r1 = o.add(r, one);
    let c = o.sel(below, r1, r);
    // A result of +0 from a negative x is -0; nonzero results already carry x's sign.
    let c = o.or(c, s);
    o.sel(small, c, x)
}

/// IEEE roundToIntegralTowardZero.
pub fn trunc_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let (ax, t, small, s) = round_parts(o, x);
    let above = o.lt(ax, t);
    let one = o.k(ONE);
    let t1 = o.sub(t, one);
    let ta = o.sel(above, t1, t);
    let r = o.or(ta, s);
    o.sel(small, r, x)
}

/// IEEE roundToIntegralTiesToEven.
pub fn round_even_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let (_, t, small, s) = round_parts(o, x);
    let r = o.or(t, s);
    o.sel(small, r, x)
}

// ---------------------------------------------------------------------------------------
// sin, cos, tan
// ---------------------------------------------------------------------------------------

/// Cephes sinf: sin(r) = r + r·z·S(z), z = r², |r| <= π/4.
#[allow(clippy::excessive_precision)]
const SIN_C: [f32; 3] = [-1.951_529_589_1e-4, 8.332_160_873_6e-3, -1.666_665_461_1e-1];
/// Cephes cosf: cos(r) = 1 - z/2 + z²·C(z).
#[allow(clippy::excessive_precision)]
const COS_C: [f32; 3] = [
    2.443_315_711_809_948e-5,
    -1.388_731_625_493_765e-3,
    4.166_664_568_298_827e-2,
];

/// Reduces |x| to r with |x| = r + kπ/2 (|r| <= π/4 up to the rounding of |x|·2/π, which
/// lets |r| reach about 0.86 for |x| < 2^20 and 1.5 near 2^24); returns (sin r, cos r,
/// k mod 4 as an integer, the sign of x, mask of ±inf/NaN x).
///
/// k = round(|x|·2/π) < 2^24 is split as kh + kl (kh a multiple of 2^12, |kl| <= 2^11) so
/// that kh and kl times each 8-bit part of π/2 are exact, and so are the subtractions
/// (Cody–Waite): r carries only the rounding of k·P3 and of the last subtraction. Below
/// [`TRIG_LIMIT`] this gives the very bits of the unsplit 3-part sequence. |x| >= 2^24
/// (every such f32 is an even integer; a faithful reduction would need Payne–Hanek) is
/// first folded to |x|·2^-j in [2^23, 2^24) by keeping its mantissa: deterministic, in
/// [-1, 1], varying with x, but not sin(x).
fn sincos_parts<O: Lanes>(o: &mut O, x: O::V) -> [O::V; 5] {
    let abs = o.k(ABS);
    let ax = o.and(x, abs);
    let sgn = o.k(SIGN);
    let s = o.and(x, sgn);
    let d = o.sub(x, x);
    let bad = o.unord(d, d);
    // |x| >= 2^24 (and inf/NaN, whose lanes are masked at the end): fold into [2^23, 2^24).
    let lim = o.k(TWO_24);
    let inr = o.lt(ax, lim);
    let mant = o.k(MANT);
    let fm = o.and(ax, mant);
    let big = o.k(TWO_23);
    let folded = o.or(fm, big);
    let ax = o.sel(inr, ax, folded);
    let tp = o.k(FRAC_2_PI);
    let t = o.mul(ax, tp);
    // t < 2^24. Below 2^23 round it with the 2^23 trick (the sum's low bits are k mod 4);
    // at or above 2^23 it is an integer already and its own low bits are k mod 4.
    let small = o.lt(t, big);
    let m = o.add(t, big);
    let kk = o.sub(m, big);
    let m = o.sel(small, m, t);
    let kk = o.sel(small, kk, t);
    let three = o.k(3);
    let q = o.and(m, three);
    let split = o.k(SPLIT_2_12);
    let kh = o.add(kk, split);
    let kh = o.sub(kh, split);
    let kl = o.sub(kk, kh);
    let p1 = o.k(PIO2_P1);
    let p2 = o.k(PIO2_P2);
    let p3 = o.k(PIO2_P3);
    let a = o.mul(kh, p1);
    let r = o.sub(ax, a);
    let a = o.mul(kl, p1);
    let r = o.sub(r, a);
    let b = o.mul(kh, p2);
    let r = o.sub(r, b);
    let b = o.mul(kl, p2);
    let r = o.sub(r, b);
    let c = o.mul(kk, p3);
    let r = o.sub(r, c);
    let z = o.mul(r, r);
    // sin(r) = r + (r·z)·S(z)
    let ps = horner(o, z, &SIN_C);
    let rz = o.mul(r, z);
    let t = o.mul(rz, ps);
    let sn = o.add(r, t);
    // cos(r) = ((C(z)·z)·z - z/2) + 1
    let pc = horner(o, z, &COS_C);
    let t = o.mul(pc, z);
    let t = o.mul(t, z);
    let half = o.k(HALF);
    let hz = o.mul(z, half);
    let t = o.sub(t, hz);
    let one = o.k(ONE);
    let cs = o.add(t, one);
    [sn, cs, q, s, bad]
}

/// Mask of `q & 1` (an integer lane).
fn odd<O: Lanes>(o: &mut O, q: O::V) -> O::V {
    let t = o.shl(q, 31);
    o.sshr(t, 31)
}

/// `q & 2` moved to the sign bit.
fn sign_of_q<O: Lanes>(o: &mut O, q: O::V) -> O::V {
    let two = o.k(2);
    let t = o.and(q, two);
    o.shl(t, 30)
}

/// sin(x).
pub fn sin_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let [sn, cs, q, s, bad] = sincos_parts(o, x);
    let sw = odd(o, q);
    let v = o.sel(sw, cs, sn);
    let qs = sign_of_q(o, q);
    let sg = o.xor(qs, s);
    let r = o.xor(v, sg);
    nan_where(o, bad, r)
}

/// cos(x).
pub fn cos_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let [sn, cs, q, _, bad] = sincos_parts(o, x);
    let sw = odd(o, q);
    let v = o.sel(sw, sn, cs);
    let one = o.k(1);
    let q1 = o.iadd(q, one);
    let sg = sign_of_q(o, q1);
    let r = o.xor(v, sg);
    nan_where(o, bad, r)
}

/// tan(x) = sin r / cos r (even k) or -cos r / sin r (odd k).
pub fn tan_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let [sn, cs, q, s, bad] = sincos_parts(o, x);
    let sw = odd(o, q);
    let num = o.sel(sw, cs, sn);
    let den = o.sel(sw, sn, cs);
    let v = o.div(num, den);
    let sgn = o.k(SIGN);
    let neg = o.and(sw, sgn);
    let sg = o.xor(neg, s);
    let r = o.xor(v, sg);
    nan_where(o, bad, r)
}

// ---------------------------------------------------------------------------------------
// asin, acos, atan, atan2
// ---------------------------------------------------------------------------------------

/// Cephes asinf: asin(u) = u + u·z·P(z), z = u², |u| <= 0.5.
#[allow(clippy::excessive_precision)]
const ASIN_C: [f32; 5] = [
    4.216_319_904_8e-2,
    2.418_131_104_9e-2,
    4.547_002_599_8e-2,
    7.495_300_268_6e-2,
    1.666_675_242_2e-1,
];

/// (asin kernel k, mask |x| > 0.5, sign of x) where asin(|x|) = k for |x| <= 0.5 and
/// π/2 - 2k above (k = asin(sqrt((1 - |x|)/2))).
fn asin_parts<O: Lanes>(o: &mut O, x: O::V) -> [O::V; 3] {
    let abs = o.k(ABS);
    let ax = o.and(x, abs);
    let sgn = o.k(SIGN);
    let s = o.and(x, sgn);
    let half = o.k(HALF);
    let hi = o.lt(half, ax);
    let one = o.k(ONE);
    let om = o.sub(one, ax);
    let zh = o.mul(om, half);
    let sq = o.sqrt(zh);
    let u = o.sel(hi, sq, ax);
    let a2 = o.mul(ax, ax);
    let z = o.sel(hi, zh, a2);
    let p = horner(o, z, &ASIN_C);
    let t = o.mul(p, z);
    let t = o.mul(t, u);
    let k = o.add(t, u);
    [k, hi, s]
}

/// `(lo - v) + hi`: a constant hi + lo minus v, with the constant's low part kept.
fn const_minus<O: Lanes>(o: &mut O, hi: u32, lo: u32, v: O::V) -> O::V {
    let l = o.k(lo);
    let h = o.k(hi);
    let t = o.sub(l, v);
    o.add(t, h)
}

/// asin(x); |x| > 1 gives NaN.
pub fn asin_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let [k, hi, s] = asin_parts(o, x);
    let k2 = o.add(k, k);
    let big = const_minus(o, PIO2_HI, PIO2_LO, k2);
    let a = o.sel(hi, big, k);
    let r = o.xor(a, s);
    let nan = o.unord(r, r);
    nan_where(o, nan, r)
}

/// acos(x); |x| > 1 gives NaN.
pub fn acos_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let [k, hi, s] = asin_parts(o, x);
    let k2 = o.add(k, k);
    // x > 0.5: 2k; x < -0.5: π - 2k; else π/2 - asin(x).
    let neg_big = const_minus(o, PI_HI, PI_LO, k2);
    let neg = o.sshr(x, 31);
    let outer = o.sel(neg, neg_big, k2);
    let ks = o.xor(k, s);
    let inner = const_minus(o, PIO2_HI, PIO2_LO, ks);
    let r = o.sel(hi, outer, inner);
    let nan = o.unord(r, r);
    nan_where(o, nan, r)
}

/// Cephes atanf polynomial: atan(t) = t + t·z·P(z), z = t², |t| <= tan(π/8).
#[allow(clippy::excessive_precision)]
const ATAN_C: [f32; 4] = [
    8.053_744_495_38e-2,
    -1.387_768_560_32e-1,
    1.997_771_064_78e-1,
    -3.333_294_915_39e-1,
];

/// atan(a) for a >= 0 (or +inf): three intervals split at tan(π/8) and tan(3π/8).
fn atan_pos<O: Lanes>(o: &mut O, a: O::V) -> O::V {
    let t38 = kf(o, TAN_3PI_8);
    let t18 = kf(o, TAN_PI_8);
    let big = o.lt(t38, a);
    let mid = o.lt(t18, a);
    let one = o.k(ONE);
    let m1 = o.k(ONE | SIGN);
    let am = o.sub(a, one);
    let ap = o.add(a, one);
    let n = o.sel(mid, am, a);
    let num = o.sel(big, m1, n);
    let d = o.sel(mid, ap, one);
    let den = o.sel(big, a, d);
    let t = o.div(num, den);
    let pio2 = o.k(PIO2_HI);
    let pio4 = o.k(PIO4);
    let zero = o.k(0);
    let y0 = o.sel(mid, pio4, zero);
    let y0 = o.sel(big, pio2, y0);
    let z = o.mul(t, t);
    let p = horner(o, z, &ATAN_C);
    let v = o.mul(p, z);
    let v = o.mul(v, t);
    let v = o.add(v, t);
    o.add(y0, v)
}

/// atan(x) in [-π/2, π/2].
pub fn atan_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let abs = o.k(ABS);
    let ax = o.and(x, abs);
    let sgn = o.k(SIGN);
    let s = o.and(x, sgn);
    let a = atan_pos(o, ax);
    let r = o.xor(a, s);
    let nan = o.unord(x, x);
    nan_where(o, nan, r)
}

/// atan(y, x) in [-π, π] with the C99 special cases (atan2(±0, -0) = ±π,
/// atan2(±inf, ±inf) = ±π/4 or ±3π/4, ...).
pub fn atan2_g<O: Lanes>(o: &mut O, y: O::V, x: O::V) -> O::V {
    let abs = o.k(ABS);
    let ax = o.and(x, abs);
    let ay = o.and(y, abs);
    let q = o.div(ay, ax);
    let a = atan_pos(o, q);
    let inf = o.k(INF);
    let xi = o.eq(ax, inf);
    let yi = o.eq(ay, inf);
    let both_inf = o.and(xi, yi);
    let zero = o.k(0);
    let x0 = o.eq(ax, zero);
    let y0 = o.eq(ay, zero);
    let both_zero = o.and(x0, y0);
    let pio4 = o.k(PIO4);
    let a = o.sel(both_inf, pio4, a);
    let a = o.sel(both_zero, zero, a);
    let xneg = o.sshr(x, 31);
    let flipped = const_minus(o, PI_HI, PI_LO, a);
    let a = o.sel(xneg, flipped, a);
    let sgn = o.k(SIGN);
    let s = o.and(y, sgn);
    let r = o.or(a, s);
    let nan = o.unord(x, y);
    nan_where(o, nan, r)
}

// ---------------------------------------------------------------------------------------
// exp, exp2, log, log2, pow
// ---------------------------------------------------------------------------------------

/// Cephes exp2f: 2^f = 1 + f·P(f), |f| <= 0.5.
#[allow(clippy::excessive_precision)]
const EXP2_C: [f32; 7] = [
    1.535_336_188_319_500e-4,
    1.339_887_440_266_574e-3,
    9.618_437_357_674_640e-3,
    5.550_332_471_162_809e-2,
    2.402_264_791_363_012e-1,
    6.931_472_028_550_421e-1,
    1.0,
];
/// Cephes expf: e^r = (P(r)·r² + r) + 1, |r| <= ln2/2.
#[allow(clippy::excessive_precision)]
const EXP_C: [f32; 6] = [
    1.987_569_150_0e-4,
    1.398_199_950_7e-3,
    8.333_451_907_3e-3,
    4.166_579_589_4e-2,
    1.666_666_545_9e-1,
    5.000_000_120_1e-1,
];

/// Splits a float `t` with |t| < 2^22 into (n as an integer, n as a float) with
/// n = round-half-even(t).
fn split_int<O: Lanes>(o: &mut O, t: O::V) -> (O::V, O::V) {
    let mg = o.k(MAGIC);
    let m = o.add(t, mg);
    let nf = o.sub(m, mg);
    let n = o.isub(m, mg);
    (n, nf)
}

/// p · 2^n for an integer n in [-152, 130], in two exact power-of-two steps so that the
/// single rounding happens at the end (denormal results, overflow to inf).
fn scale<O: Lanes>(o: &mut O, p: O::V, n: O::V) -> O::V {
    let n1 = o.sshr(n, 1);
    let n2 = o.isub(n, n1);
    let bias = o.k(127);
    let e1 = o.iadd(n1, bias);
    let s1 = o.shl(e1, 23);
    let e2 = o.iadd(n2, bias);
    let s2 = o.shl(e2, 23);
    let t = o.mul(p, s1);
    o.mul(t, s2)
}

/// 2^x; exact for integer x (denormals included), +inf above 128, +0 below -150.
pub fn exp2_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let xc = max_k(o, x, -151.0);
    let xc = min_k(o, xc, 129.0);
    let (n, nf) = split_int(o, xc);
    let fr = o.sub(xc, nf);
    let p = horner(o, fr, &EXP2_C);
    let r = scale(o, p, n);
    let nan = o.unord(x, x);
    nan_where(o, nan, r)
}

/// e^x: n = round(x·log2 e), r = x - n·ln2 (Cody–Waite, 2 parts), e^r · 2^n.
pub fn exp_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let (p, n) = exp_parts(o, x, 89.0);
    let res = scale(o, p, n);
    let nan = o.unord(x, x);
    nan_where(o, nan, res)
}

/// (p, n) with e^x = p·2^n, x clamped to [-104, hi] first (hi <= 90).
fn exp_parts<O: Lanes>(o: &mut O, x: O::V, hi: f32) -> (O::V, O::V) {
    let xc = max_k(o, x, -104.0);
    let xc = min_k(o, xc, hi);
    let l2e = kf(o, std::f32::consts::LOG2_E);
    let t = o.mul(xc, l2e);
    let (n, nf) = split_int(o, t);
    let c1 = kf(o, 355.0 / 512.0); // 0.693359375: n·c1 is exact
    let c2 = o.k(EXP_C2);
    let a = o.mul(nf, c1);
    let r = o.sub(xc, a);
    let b = o.mul(nf, c2);
    let r = o.sub(r, b);
    let z = o.mul(r, r);
    let p = horner(o, r, &EXP_C);
    let p = o.mul(p, z);
    let p = o.add(p, r);
    let one = o.k(ONE);
    let p = o.add(p, one);
    (p, n)
}

/// musl logf/log2f: x = m·2^k with m in [√½, √2), f = m - 1, s = f/(2 + f);
/// returns (f, hfsq = f²/2, s·(hfsq + R(s²)), k as a float).
fn log_parts<O: Lanes>(o: &mut O, x: O::V) -> [O::V; 4] {
    // Denormals: scale by 2^25 first.
    let minn = o.k(0x0080_0000);
    let sub = o.lt(x, minn);
    let s25 = o.k(0x4c00_0000); // 2^25
    let xs = o.mul(x, s25);
    let xs = o.sel(sub, xs, x);
    let m25 = o.k((-25i32) as u32);
    let zero = o.k(0);
    let kadj = o.sel(sub, m25, zero);
    let off = o.k(0x3f80_0000 - 0x3f35_04f3);
    let ix = o.iadd(xs, off);
    let e = o.sshr(ix, 23);
    let b = o.k(0x7f);
    let e = o.isub(e, b);
    let e = o.iadd(e, kadj);
    let mm = o.k(0x007f_ffff);
    let mant = o.and(ix, mm);
    let base = o.k(0x3f35_04f3);
    let mb = o.iadd(mant, base);
    let one = o.k(ONE);
    let fr = o.sub(mb, one);
    let two = o.k(TWO);
    let d = o.add(two, fr);
    let s = o.div(fr, d);
    let z = o.mul(s, s);
    let w = o.mul(z, z);
    // t1 = w·(Lg2 + w·Lg4), t2 = z·(Lg1 + w·Lg3)
    let t1 = horner_bits(o, w, &[LG4, LG2]);
    let t1 = o.mul(w, t1);
    let t2 = horner_bits(o, w, &[LG3, LG1]);
    let t2 = o.mul(z, t2);
    let r = o.add(t2, t1);
    let half = o.k(HALF);
    let hf = o.mul(half, fr);
    let hfsq = o.mul(hf, fr);
    let sr = o.add(hfsq, r);
    let sr = o.mul(s, sr);
    let dk = o.itof(e);
    [fr, hfsq, sr, dk]
}

/// The special values of log/log2: x < 0 or NaN → NaN, ±0 → -inf, +inf → +inf.
fn log_special<O: Lanes>(o: &mut O, x: O::V, r: O::V) -> O::V {
    let zero = o.k(0);
    let z = o.eq(x, zero);
    let ninf = o.k(NEG_INF);
    let r = o.sel(z, ninf, r);
    let inf = o.k(INF);
    let i = o.eq(x, inf);
    let r = o.sel(i, inf, r);
    let neg = o.lt(x, zero);
    let nan = o.unord(x, x);
    let bad = o.or(neg, nan);
    nan_where(o, bad, r)
}

/// ln(x).
pub fn log_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let [fr, hfsq, sr, dk] = log_parts(o, x);
    let lo = o.k(0x3717_f7d1); // 9.0580006145e-6
    let hi = o.k(0x3f31_7180); // 6.9313812256e-1
                               // s·(hfsq + R) + dk·ln2_lo - hfsq + f + dk·ln2_hi
    let a = o.mul(dk, lo);
    let r = o.add(sr, a);
    let r = o.sub(r, hfsq);
    let r = o.add(r, fr);
    let b = o.mul(dk, hi);
    let r = o.add(r, b);
    log_special(o, x, r)
}

/// log2(x); exact for powers of two.
pub fn log2_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let r = log2_finite(o, x);
    log_special(o, x, r)
}

/// log2 of a positive finite x (garbage elsewhere).
fn log2_finite<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let [fr, hfsq, sr, dk] = log_parts(o, x);
    // hi = (f - hfsq) with its low 12 bits cleared; lo = f - hi - hfsq + s·(hfsq + R).
    let hi = o.sub(fr, hfsq);
    let km = o.k(0xffff_f000);
    let hi = o.and(hi, km);
    let lo = o.sub(fr, hi);
    let lo = o.sub(lo, hfsq);
    let lo = o.add(lo, sr);
    let ivhi = o.k(0x3fb8_b000); // 1.4428710938
    let ivlo = o.k(0xb938_9ad4); // -1.7605285393e-4
                                 // (lo + hi)·ivln2lo + lo·ivln2hi + hi·ivln2hi + k
    let sum = o.add(lo, hi);
    let r = o.mul(sum, ivlo);
    let b = o.mul(lo, ivhi);
    let r = o.add(r, b);
    let c = o.mul(hi, ivhi);
    let r = o.add(r, c);
    o.add(r, dk)
}

/// pow(x, y) = exp2(y · log2 x) (GLSL 4.60 §8.2), the IEEE rules of that formula for
/// special values: x < 0 or NaN → NaN; 0^y: y > 0 → 0, y < 0 → inf, y = 0 → NaN;
/// inf^y: y > 0 → inf, y < 0 → 0, y = 0 → NaN; 1^±inf → NaN.
pub fn pow_g<O: Lanes>(o: &mut O, x: O::V, y: O::V) -> O::V {
    let l = log2_g(o, x);
    let t = o.mul(y, l);
    exp2_g(o, t)
}

// ---------------------------------------------------------------------------------------
// sinh, cosh, tanh, asinh, acosh, atanh (Cephes sinhf, coshf, tanhf, asinhf, acoshf,
// atanhf, on our exp and log)
// ---------------------------------------------------------------------------------------

/// Cephes sinhf: sinh(a) = a + a·z·P(z), z = a², |a| <= 1.
#[allow(clippy::excessive_precision)]
const SINH_C: [f32; 3] = [
    2.037_219_129_45e-4,
    8.330_283_762_39e-3,
    1.666_671_602_11e-1,
];
/// Cephes tanhf: tanh(a) = a + a·z·P(z), |a| < 0.625.
#[allow(clippy::excessive_precision)]
const TANH_C: [f32; 5] = [
    -5.704_988_727_45e-3,
    2.063_908_879_54e-2,
    -5.373_971_555_31e-2,
    1.333_144_220_36e-1,
    -3.333_328_194_22e-1,
];
/// Cephes asinhf: asinh(a) = a + a·z·P(z), |a| < 0.5.
#[allow(clippy::excessive_precision)]
const ASINH_C: [f32; 4] = [
    2.012_200_330_9e-2,
    -4.269_934_097_2e-2,
    7.484_758_608_8e-2,
    -1.666_628_813_4e-1,
];
/// Cephes acoshf: acosh(1 + z) = sqrt(z)·P(z), z < 0.5.
#[allow(clippy::excessive_precision)]
const ACOSH_C: [f32; 5] = [
    1.759_688_107_1e-3,
    -7.527_288_671_3e-3,
    2.645_490_501_9e-2,
    -1.178_474_170_3e-1,
    1.414_213_526_3,
];
/// Cephes atanhf: atanh(a) = a + a·z·P(z), |a| < 0.5.
#[allow(clippy::excessive_precision)]
const ATANH_C: [f32; 5] = [
    1.817_400_783_49e-1,
    8.243_703_010_58e-2,
    1.466_914_317_30e-1,
    1.997_821_645_00e-1,
    3.333_373_003_03e-1,
];
/// ln 2 (binary32).
const LN2: u32 = 0x3f31_7218;

/// `a + a·z·P(z)` with z = a².
fn odd_series<O: Lanes>(o: &mut O, a: O::V, c: &[f32]) -> O::V {
    let z = o.mul(a, a);
    let p = horner(o, z, c);
    let t = o.mul(p, z);
    let t = o.mul(t, a);
    o.add(t, a)
}

/// (|x|, sign bit of x).
fn abs_sign<O: Lanes>(o: &mut O, x: O::V) -> (O::V, O::V) {
    let abs = o.k(ABS);
    let ax = o.and(x, abs);
    let sgn = o.k(SIGN);
    let s = o.and(x, sgn);
    (ax, s)
}

/// e^a / 2 for a >= 0 without overflowing before e^a / 2 does.
fn exp_half<O: Lanes>(o: &mut O, a: O::V) -> O::V {
    let (p, n) = exp_parts(o, a, 90.0);
    let one = o.k(1);
    let n = o.isub(n, one);
    scale(o, p, n)
}

/// sinh(x): the series below |x| = 1, e^a/2 - (1/4)/(e^a/2) above.
pub fn sinh_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let (a, s) = abs_sign(o, x);
    let small = odd_series(o, a, &SINH_C);
    let h = exp_half(o, a);
    let q = o.k(0x3e80_0000); // 0.25
    let r = o.div(q, h);
    let big = o.sub(h, r);
    let one = o.k(ONE);
    let lt1 = o.lt(a, one);
    let v = o.sel(lt1, small, big);
    let v = o.xor(v, s);
    let nan = o.unord(x, x);
    nan_where(o, nan, v)
}

/// cosh(x) = e^a/2 + (1/4)/(e^a/2).
pub fn cosh_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let (a, _) = abs_sign(o, x);
    let h = exp_half(o, a);
    let q = o.k(0x3e80_0000);
    let r = o.div(q, h);
    let v = o.add(h, r);
    let nan = o.unord(x, x);
    nan_where(o, nan, v)
}

/// tanh(x): the series below |x| = 0.625, 1 - 2/(e^2a + 1) above (±1 once e^2a overflows).
pub fn tanh_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let (a, s) = abs_sign(o, x);
    let small = odd_series(o, a, &TANH_C);
    let a2 = o.add(a, a);
    let e = exp_g(o, a2);
    let one = o.k(ONE);
    let two = o.k(TWO);
    let d = o.add(e, one);
    let q = o.div(two, d);
    let big = o.sub(one, q);
    let lim = kf(o, 0.625);
    let lt = o.lt(a, lim);
    let v = o.sel(lt, small, big);
    let v = o.xor(v, s);
    let nan = o.unord(x, x);
    nan_where(o, nan, v)
}

/// log(u) for u >= 0.5, plus ln 2 where `m` (log(2u) without overflowing 2u).
fn log_plus_ln2<O: Lanes>(o: &mut O, u: O::V, m: O::V) -> O::V {
    let l = log_g(o, u);
    let ln2 = o.k(LN2);
    let l2 = o.add(l, ln2);
    o.sel(m, l2, l)
}

/// asinh(x): the series below |x| = 0.5, log(a + sqrt(a² + 1)) up to 1500, log(a) + ln 2
/// beyond (where a² + 1 = a² to f32 precision).
pub fn asinh_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let (a, s) = abs_sign(o, x);
    let small = odd_series(o, a, &ASINH_C);
    let one = o.k(ONE);
    let a2 = o.mul(a, a);
    let t = o.add(a2, one);
    let t = o.sqrt(t);
    let u = o.add(a, t);
    let lim = kf(o, 1500.0);
    let huge = o.lt(lim, a);
    let u = o.sel(huge, a, u);
    let big = log_plus_ln2(o, u, huge);
    let half = o.k(HALF);
    let lt = o.lt(a, half);
    let v = o.sel(lt, small, big);
    let v = o.xor(v, s);
    let nan = o.unord(x, x);
    nan_where(o, nan, v)
}

/// acosh(x): sqrt(z)·P(z) for z = x - 1 < 0.5, log(x + sqrt(z (x + 1))) up to 1500,
/// log(x) + ln 2 beyond. x < 1 gives NaN.
pub fn acosh_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let one = o.k(ONE);
    let z = o.sub(x, one);
    let sz = o.sqrt(z);
    let p = horner(o, z, &ACOSH_C);
    let small = o.mul(p, sz);
    let xp = o.add(x, one);
    let t = o.mul(z, xp);
    let t = o.sqrt(t);
    let u = o.add(x, t);
    let lim = kf(o, 1500.0);
    let huge = o.lt(lim, x);
    let u = o.sel(huge, x, u);
    let big = log_plus_ln2(o, u, huge);
    let half = o.k(HALF);
    let lt = o.lt(z, half);
    let v = o.sel(lt, small, big);
    let below = o.lt(x, one);
    let nan = o.unord(x, x);
    let bad = o.or(below, nan);
    nan_where(o, bad, v)
}

/// atanh(x): the series below |x| = 0.5, log((1 + a)/(1 - a))/2 above; ±1 → ±inf,
/// |x| > 1 → NaN.
pub fn atanh_g<O: Lanes>(o: &mut O, x: O::V) -> O::V {
    let (a, s) = abs_sign(o, x);
    let small = odd_series(o, a, &ATANH_C);
    let one = o.k(ONE);
    let n = o.add(one, a);
    let d = o.sub(one, a);
    let q = o.div(n, d);
    let l = log_g(o, q);
    let half = o.k(HALF);
    let big = o.mul(l, half);
    let lt = o.lt(a, half);
    let v = o.sel(lt, small, big);
    let v = o.xor(v, s);
    let above = o.lt(one, a);
    let nan = o.unord(x, x);
    let bad = o.or(above, nan);
    nan_where(o, bad, v)
}

// ---------------------------------------------------------------------------------------
// Scalar entry points (the interpreter's)
// ---------------------------------------------------------------------------------------

macro_rules! scalar1 {
    ($($name:ident = $g:ident;)*) => {$(
        #[doc = concat!("Scalar instance of [`", stringify!($g), "`].")]
        pub fn $name(x: f32) -> f32 {
            f32::from_bits($g(&mut Scalar, x.to_bits()))
        }
    )*};
}

scalar1! {
    floor = floor_g;
    ceil = ceil_g;
    trunc = trunc_g;
    round_even = round_even_g;
    sin = sin_g;
    cos = cos_g;
    tan = tan_g;
    asin = asin_g;
    acos = acos_g;
    atan = atan_g;
    exp = exp_g;
    exp2 = exp2_g;
    log = log_g;
    log2 = log2_g;
    sinh = sinh_g;
    cosh = cosh_g;
    tanh = tanh_g;
    asinh = asinh_g;
    acosh = acosh_g;
    atanh = atanh_g;
}

/// Scalar instance of [`atan2_g`] (operands (y, x)).
pub fn atan2(y: f32, x: f32) -> f32 {
    f32::from_bits(atan2_g(&mut Scalar, y.to_bits(), x.to_bits()))
}

/// Scalar instance of [`pow_g`].
pub fn pow(x: f32, y: f32) -> f32 {
    f32::from_bits(pow_g(&mut Scalar, x.to_bits(), y.to_bits()))
}

#[cfg(test)]
pub(crate) mod tests {
    //! Accuracy of every sequence against the f64 oracle of the parent module (itself
    //! within 1 ULP of the correctly rounded result), on a table of special inputs, dense
    //! sweeps and random bit patterns. The bounds asserted are the measured maxima (in ULPs
    //! of the oracle's f32 result unless said otherwise), rounded up a little:
    //!
    //! | function | domain | measured max | bound asserted | GLSL 4.60 §4.7.1 asks |
    //! |---|---|---|---|---|
    //! | sin, cos | [-π, π] | 2 ULP | 2 ULP | abs 2^-11 |
    //! | sin, cos | abs(x) < 98304 | abs 2^-24 | abs 2^-23 | — |
    //! | sin, cos | 98304 <= abs(x) < 2^20 | abs 2^-23 | abs 2^-22 | — |
    //! | sin, cos | abs(x) >= 2^24 | folded (module doc) | in [-1, 1] | — |
    //! | tan | [-π, π] | 3 ULP | 3 ULP | from sin/cos |
    //! | asin, acos | [-1, 1] | 2, 1 ULP | 2 ULP | from atan |
    //! | atan | all | 3 ULP | 3 ULP | from the others |
    //! | atan2 | all pairs | 3 ULP | 3 ULP | from atan |
    //! | exp2, exp | all | 1 ULP | 1 ULP | (3 + 2·abs(x)) ULP |
    //! | log2, log | all | 1 ULP | 1 ULP | 3 ULP |
    //! | log2, log | [0.5, 2] | abs 2^-24 | abs 2^-23 | abs 2^-21 |
    //! | pow | t = y·log2 x | 1.18·(1 + abs(t)) ULP | (3 + 2·abs(t)) ULP | as exp2(t) |
    //! | sinh, cosh, tanh | all | 2, 1, 1 ULP | same | from exp |
    //! | asinh, acosh, atanh | all | 3, 2, 1 ULP | same | from log |
    //! | floor, ceil, trunc, roundEven | all | exact | exact | exact |
    //!
    //! (ULPs of the oracle's f32 result, which is itself within 1 ULP of the true value;
    //! pow's error grows with abs(t) because GLSL defines it as exp2(y·log2 x) and the
    //! rounding of t is amplified by exp2.)
    use super::*;
    use crate::math as oracle;

    /// A scalar float function.
    type F1 = fn(f32) -> f32;

    /// Distance in ULPs between two f32 (0 for equal, also across ±0).
    pub(crate) fn ulps(a: f32, b: f32) -> u64 {
        let key = |v: f32| {
            let b = v.to_bits();
            if b >> 31 == 1 {
                -((b & 0x7fff_ffff) as i64)
            } else {
                b as i64
            }
        };
        (key(a) - key(b)).unsigned_abs()
    }

    /// xorshift32: deterministic pseudo-random bit patterns.
    pub(crate) fn patterns(n: usize, seed: u32) -> impl Iterator<Item = u32> {
        let mut s = seed;
        (0..n).map(move |_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        })
    }

    fn specials() -> Vec<f32> {
        let mut v = vec![
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::from_bits(0x8000_0001),
            f32::from_bits(0x007f_ffff),
            f32::from_bits(0x0040_0000),
            f32::MAX,
            f32::MIN,
            f32::EPSILON,
            1.0,
            -1.0,
            0.5,
            -0.5,
            2.0,
            1.0 - f32::EPSILON / 2.0,
            1.0 + f32::EPSILON,
            8_388_608.0,
            8_388_607.5,
            -8_388_607.5,
            4_194_303.5,
            16_777_215.0,
            TRIG_LIMIT,
            -TRIG_LIMIT,
            f32::from_bits(TRIG_LIMIT.to_bits() - 1),
            88.72,
            88.73,
            -87.33,
            -103.97,
            -104.0,
            127.99,
            128.0,
            -126.0,
            -149.0,
            -149.5,
            -150.0,
        ];
        for k in -8..=8 {
            // Near multiples of π/4: the range-reduction boundaries.
            let c = k as f32 * std::f32::consts::FRAC_PI_4;
            for d in -3..=3 {
                v.push(f32::from_bits((c.to_bits() as i32 + d) as u32));
            }
        }
        for b in [
            0.414_213_57f32,
            2.414_213_5,
            0.5,
            1.0,
            std::f32::consts::SQRT_2,
        ] {
            for d in -3..=3 {
                v.push(f32::from_bits((b.to_bits() as i32 + d) as u32));
                v.push(-f32::from_bits((b.to_bits() as i32 + d) as u32));
            }
        }
        v.extend((-40..=40).map(|i| i as f32 * 0.25));
        v
    }

    /// Specials, a dense sweep over `[lo, hi]`, random bit patterns.
    fn inputs(lo: f32, hi: f32) -> Vec<f32> {
        let mut v = specials();
        let n = 200_000;
        v.extend((0..=n).map(|i| lo + (hi - lo) * (i as f32 / n as f32)));
        v.extend(patterns(200_000, 0x1234_5678).map(f32::from_bits));
        v
    }

    /// Worst ULP error of `ours` against `want` over the inputs in `[lo, hi]`; NaN where the
    /// oracle is NaN must be NaN here (canonical).
    fn worst(
        name: &str,
        ours: fn(f32) -> f32,
        want: fn(f32) -> f32,
        xs: &[f32],
        lo: f32,
        hi: f32,
    ) -> (u64, f32) {
        let mut w = (0, 0.0);
        for &x in xs {
            if x.is_nan() || x < lo || x > hi {
                continue;
            }
            let (g, e) = (ours(x), want(x));
            if e.is_nan() {
                assert_eq!(
                    g.to_bits(),
                    f32::NAN.to_bits(),
                    "{name}({x:e}) = {g:e}, want NaN"
                );
                continue;
            }
            let d = ulps(g, e);
            if d > w.0 {
                w = (d, x);
            }
        }
        w
    }

    /// Worst absolute error over `[lo, hi]`.
    fn worst_abs(
        ours: fn(f32) -> f32,
        want: fn(f32) -> f32,
        xs: &[f32],
        lo: f32,
        hi: f32,
    ) -> (f64, f32) {
        xs.iter()
            .filter(|x| **x >= lo && **x <= hi)
            .map(|&x| ((ours(x) as f64 - want(x) as f64).abs(), x))
            .fold((0.0, 0.0), |a, b| if b.0 > a.0 { b } else { a })
    }

    const PI: f32 = std::f32::consts::PI;
    const INF: f32 = f32::INFINITY;

    /// Asserts the worst ULP error over `[lo, hi]` is at most `bound`; returns it.
    fn ulp_bound(
        name: &str,
        ours: fn(f32) -> f32,
        want: fn(f32) -> f32,
        xs: &[f32],
        (lo, hi): (f32, f32),
        bound: u64,
    ) -> u64 {
        let (w, at) = worst(name, ours, want, xs, lo, hi);
        assert!(
            w <= bound,
            "{name} on [{lo}, {hi}]: {w} ulp at {at:e} (bound {bound})"
        );
        w
    }

    /// Asserts the worst absolute error over `[lo, hi]` is at most `bound`.
    fn abs_bound(
        name: &str,
        ours: fn(f32) -> f32,
        want: fn(f32) -> f32,
        xs: &[f32],
        (lo, hi): (f32, f32),
        bound: f64,
    ) {
        let (w, at) = worst_abs(ours, want, xs, lo, hi);
        assert!(
            w <= bound,
            "{name} on [{lo}, {hi}]: abs error {w:e} at {at:e} (bound {bound:e})"
        );
    }

    #[test]
    fn sin_cos_tan_accuracy() {
        let xs = inputs(-4.0 * PI, 4.0 * PI);
        let big = inputs(-TRIG_LIMIT, TRIG_LIMIT);
        let r = (-PI, PI);
        ulp_bound("sin", sin, oracle::sin, &xs, r, 2);
        ulp_bound("cos", cos, oracle::cos, &xs, r, 2);
        ulp_bound("tan", tan, oracle::tan, &xs, r, 3);
        // GLSL: absolute error <= 2^-11 on [-π, π]; we hold 2^-23 up to the limit.
        let below = (-TRIG_LIMIT * 0.9999, TRIG_LIMIT * 0.9999);
        abs_bound("sin", sin, oracle::sin, &big, below, (-23.0f64).exp2());
        abs_bound("cos", cos, oracle::cos, &big, below, (-23.0f64).exp2());
        // Exact symmetry and signed zeros.
        for &x in &xs {
            if x.is_finite() {
                assert_eq!(sin(-x).to_bits(), (-sin(x)).to_bits(), "sin(-{x:e})");
                assert_eq!(cos(-x).to_bits(), cos(x).to_bits(), "cos(-{x:e})");
            }
        }
        assert_eq!(sin(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(tan(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(cos(0.0), 1.0);
        assert_eq!(sin(f32::from_bits(1)), f32::from_bits(1));
        // inf and NaN give NaN.
        for x in [INF, -INF, f32::NAN] {
            for g in [sin, cos, tan] {
                assert_eq!(g(x).to_bits(), f32::NAN.to_bits());
            }
        }
    }

    #[test]
    fn sin_cos_large_arguments() {
        // 98304 <= |x| < 2^20: the split-k reduction keeps the absolute error at 2^-23.
        let (lo, hi) = (TRIG_LIMIT, 1_048_576.0f32);
        let mut xs: Vec<f32> = (0..=400_000)
            .map(|i| lo + (hi - lo) * (i as f32 / 400_000.0))
            .collect();
        xs.extend(
            patterns(400_000, 0x9e37_79b9)
                .map(|b| f32::from_bits(b & 0x7fff_ffff))
                .filter(|x| (lo..hi).contains(x)),
        );
        let neg: Vec<f32> = xs.iter().map(|x| -x).collect();
        xs.extend(neg);
        let (ws, at_s) = worst_abs(sin, oracle::sin, &xs, -hi, hi);
        let (wc, at_c) = worst_abs(cos, oracle::cos, &xs, -hi, hi);
        let b = (-22.0f64).exp2();
        assert!(ws <= b, "sin: abs error {ws:e} at {at_s:e}");
        assert!(wc <= b, "cos: abs error {wc:e} at {at_c:e}");
        // Every finite x, however large: a value in [-1, 1], odd/even symmetry, and the
        // same tan quadrant as sin/cos; |x| >= 2^24 is folded (documented), not sin(x).
        let mut all: Vec<f32> = patterns(300_000, 0x0bad_5eed)
            .map(f32::from_bits)
            .filter(|x| x.is_finite())
            .collect();
        all.extend([
            1e7,
            16_777_215.0,
            16_777_216.0,
            2_147_483_648.0,
            1e30,
            3e38,
            f32::MAX,
        ]);
        for &x in &all {
            let (s, c) = (sin(x), cos(x));
            assert!((-1.0..=1.0).contains(&s), "sin({x:e}) = {s:e}");
            assert!((-1.0..=1.0).contains(&c), "cos({x:e}) = {c:e}");
            assert_eq!(sin(-x).to_bits(), (-s).to_bits(), "sin(-{x:e})");
            assert_eq!(cos(-x).to_bits(), c.to_bits(), "cos(-{x:e})");
            let t = tan(x);
            assert!(
                t.is_nan() == (s / c).is_nan() && (t >= 0.0) == (s / c >= 0.0)
                    || s == 0.0
                    || c == 0.0,
                "tan({x:e}) = {t:e}, sin/cos {s:e}/{c:e}"
            );
        }
        // Up to 2^24 the quadrant is right: sin stays close to the oracle (|r| <= ~1.5).
        for x in [1e6f32, 4e6, 1e7, 13_176_796.0, 16_777_215.0] {
            let e = (sin(x) as f64 - oracle::sin(x) as f64).abs();
            assert!(e < 1e-5, "sin({x:e}) off by {e:e}");
        }
    }

    #[test]
    fn sin_hash_varies_over_pixels() {
        // The classic shader hash fract(sin(dot(p, vec2(12.9898, 78.233))) * 43758.5453)
        // with p in pixel coordinates: arguments up to about 1.4e5 must not collapse. (In
        // f32, sin·43758.5 has an ulp of up to 2^-8, so fract takes a few hundred values
        // per binade at most: 4096 pixels give about a thousand distinct values.)
        let (mut vals, mut beyond) = (vec![], vec![]);
        for y in 0..64 {
            for x in 0..64 {
                let p = (x as f32 * 30.0 + 0.5, y as f32 * 24.0 + 0.5);
                let d = p.0 * 12.9898 + p.1 * 78.233;
                let h = sin(d) * 43_758.547; // 43758.5453 as f32
                let v = h - floor(h);
                assert!((0.0..1.0).contains(&v), "hash at {p:?} = {v}");
                vals.push(v.to_bits());
                if d >= TRIG_LIMIT {
                    beyond.push(v.to_bits());
                }
            }
        }
        let nb = beyond.len();
        for v in [&mut vals, &mut beyond] {
            v.sort_unstable();
            v.dedup();
        }
        assert!(nb > 300, "only {nb} arguments beyond {TRIG_LIMIT}");
        assert!(
            beyond.len() > 200,
            "{} distinct of {nb} beyond",
            beyond.len()
        );
        assert!(vals.len() > 1000, "{} distinct of 4096", vals.len());
    }

    #[test]
    fn inverse_trig_accuracy() {
        let u = inputs(-1.0, 1.0);
        ulp_bound("asin", asin, oracle::asin, &u, (-1.0, 1.0), 2);
        ulp_bound("acos", acos, oracle::acos, &u, (-1.0, 1.0), 2);
        ulp_bound(
            "atan",
            atan,
            oracle::atan,
            &inputs(-20.0, 20.0),
            (-INF, INF),
            3,
        );
        assert_eq!(atan(INF), std::f32::consts::FRAC_PI_2);
        assert_eq!(atan(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(asin(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(acos(1.0), 0.0);
        assert_eq!(acos(-1.0), PI);
        assert_eq!(asin(1.0), std::f32::consts::FRAC_PI_2);
        for x in [1.5, -1.000_000_1, INF, f32::NAN] {
            assert_eq!(asin(x).to_bits(), f32::NAN.to_bits(), "asin({x})");
            assert_eq!(acos(x).to_bits(), f32::NAN.to_bits(), "acos({x})");
        }
    }

    #[test]
    fn atan2_accuracy() {
        let s = specials();
        let mut pairs: Vec<(f32, f32)> = s
            .iter()
            .flat_map(|&y| s.iter().map(move |&x| (y, x)))
            .collect();
        let mut bits = patterns(400_000, 0xdead_beef);
        for _ in 0..200_000 {
            pairs.push((
                f32::from_bits(bits.next().unwrap()),
                f32::from_bits(bits.next().unwrap()),
            ));
        }
        let mut w = 0;
        for (y, x) in pairs {
            let (g, e) = (atan2(y, x), oracle::atan2(y, x));
            if e.is_nan() {
                assert_eq!(g.to_bits(), f32::NAN.to_bits(), "atan2({y:e}, {x:e})");
                continue;
            }
            let d = ulps(g, e);
            assert!(d <= 3, "atan2({y:e}, {x:e}) = {g:e}, want {e:e}: {d} ulp");
            w = w.max(d);
        }
        assert!(w > 0, "the oracle and the sequence cannot agree everywhere");
        assert_eq!(atan2(0.0, -0.0), PI);
        assert_eq!(atan2(-0.0, -0.0), -PI);
        assert_eq!(atan2(-0.0, 0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(atan2(INF, -INF), 3.0 * std::f32::consts::FRAC_PI_4);
    }

    #[test]
    fn exp_exp2_accuracy() {
        let e = inputs(-160.0, 130.0);
        ulp_bound("exp2", exp2, oracle::exp2, &e, (-INF, INF), 1);
        ulp_bound(
            "exp",
            exp,
            oracle::exp,
            &inputs(-104.0, 89.0),
            (-INF, INF),
            1,
        );
        for i in -149..128 {
            assert_eq!(exp2(i as f32), oracle::exp2(i as f32), "exp2({i}) exact");
        }
        assert_eq!(exp2(128.0), INF);
        assert_eq!(exp2(-150.5), 0.0);
        assert_eq!(exp2(-INF), 0.0);
        assert_eq!(exp(-INF), 0.0);
        assert_eq!(exp(INF), INF);
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-0.0), 1.0);
        assert_eq!(exp(89.0), INF);
    }

    #[test]
    fn log_log2_accuracy() {
        let l = inputs(0.0, 4.0);
        ulp_bound("log2", log2, oracle::log2, &l, (-INF, INF), 1);
        ulp_bound("log", log, oracle::log, &l, (-INF, INF), 1);
        // GLSL: absolute error < 2^-21 on [0.5, 2].
        abs_bound(
            "log2",
            log2,
            oracle::log2,
            &l,
            (0.5, 2.0),
            (-23.0f64).exp2(),
        );
        abs_bound("log", log, oracle::log, &l, (0.5, 2.0), (-23.0f64).exp2());
        for i in -149..128 {
            let x = oracle::exp2(i as f32);
            assert_eq!(log2(x), i as f32, "log2(2^{i}) exact");
        }
        assert_eq!(log2(0.0), -INF);
        assert_eq!(log(-0.0), -INF);
        assert_eq!(log2(INF), INF);
        assert_eq!(log(1.0), 0.0);
        for x in [-1.0, -INF, -f32::MIN_POSITIVE, f32::NAN] {
            assert_eq!(log(x).to_bits(), f32::NAN.to_bits(), "log({x})");
            assert_eq!(log2(x).to_bits(), f32::NAN.to_bits(), "log2({x})");
        }
    }

    #[test]
    fn hyperbolic_accuracy() {
        let xs = inputs(-12.0, 12.0);
        let r = (-INF, INF);
        ulp_bound("sinh", sinh, oracle::sinh, &xs, r, 2);
        ulp_bound("cosh", cosh, oracle::cosh, &xs, r, 1);
        ulp_bound("tanh", tanh, oracle::tanh, &xs, r, 1);
        ulp_bound("asinh", asinh, oracle::asinh, &xs, r, 3);
        ulp_bound("acosh", acosh, oracle::acosh, &inputs(1.0, 12.0), r, 2);
        ulp_bound("atanh", atanh, oracle::atanh, &inputs(-1.0, 1.0), r, 1);
        assert_eq!(atanh(1.0), INF);
        assert_eq!(atanh(-1.0), -INF);
        assert_eq!(acosh(1.0), 0.0);
        assert_eq!(cosh(0.0), 1.0);
        assert_eq!(tanh(INF), 1.0);
        assert_eq!(tanh(-INF), -1.0);
        assert_eq!(sinh(-INF), -INF);
        assert_eq!(cosh(-INF), INF);
        assert_eq!(asinh(-INF), -INF);
        assert_eq!(acosh(INF), INF);
        for g in [sinh, tanh, asinh, atanh] {
            assert_eq!(g(-0.0).to_bits(), (-0.0f32).to_bits());
        }
        for x in [0.5, -1.0, -INF, f32::NAN] {
            assert_eq!(acosh(x).to_bits(), f32::NAN.to_bits(), "acosh({x})");
        }
        for x in [1.5, -1.000_000_1, INF, f32::NAN] {
            assert_eq!(atanh(x).to_bits(), f32::NAN.to_bits(), "atanh({x})");
        }
    }

    /// pow is exp2(y · log2 x) as GLSL defines it: the rounding of the product is amplified
    /// by |y · log2 x|, so the bound is in ULPs per unit of |y · log2 x| (measured below 1).
    #[test]
    fn pow_accuracy() {
        let mut bits = patterns(400_000, 0x9e37_79b9);
        let mut worst = 0.0f64;
        for _ in 0..200_000 {
            let x = f32::from_bits(bits.next().unwrap() & 0x7fff_ffff);
            let y = (bits.next().unwrap() as f32 / u32::MAX as f32 - 0.5) * 8.0;
            if !x.is_finite() || x == 0.0 {
                continue;
            }
            let (g, e) = (pow(x, y), oracle::pow(x, y));
            let t = (y as f64 * (x as f64).log2()).abs();
            let d = ulps(g, e) as f64;
            assert!(
                d <= 3.0 + 2.0 * t,
                "pow({x:e}, {y:e}) = {g:e}, want {e:e}: {d} ulp, |t| = {t}"
            );
            worst = worst.max(d / (1.0 + t));
        }
        println!("pow: worst ulp / (1 + |t|) = {worst}");
        assert!(worst > 0.0);
        for (x, y, want) in [
            (2.0f32, 10.0f32, 1024.0f32),
            (4.0, 0.5, 2.0),
            (1.0, 12345.0, 1.0),
            (0.0, 2.0, 0.0),
            (-0.0, 2.0, 0.0),
            (0.0, -1.0, INF),
            (INF, 2.0, INF),
            (INF, -2.0, 0.0),
            (10.0, 0.0, 1.0),
        ] {
            assert_eq!(pow(x, y), want, "pow({x}, {y})");
        }
        for (x, y) in [
            (-2.0f32, 2.0f32),
            (-INF, 1.0),
            (0.0, 0.0),
            (INF, 0.0),
            (1.0, INF),
            (f32::NAN, 1.0),
            (1.0, f32::NAN),
        ] {
            assert_eq!(
                pow(x, y).to_bits(),
                f32::NAN.to_bits(),
                "pow({x}, {y}) must be NaN"
            );
        }
    }

    /// The rounding sequences are IEEE roundToIntegral exactly (checked against Rust's
    /// std, which is IEEE): every input near integers and half-integers of every binade up
    /// to 2^24, plus the specials and random patterns. NaN in gives NaN out.
    #[test]
    fn rounding_is_exact() {
        let mut xs = specials();
        xs.extend(patterns(300_000, 0x0bad_cafe).map(f32::from_bits));
        for e in 0..25 {
            let base = (1u32 << e) as f32;
            for k in [base, base + 0.5, base * 1.5, base - 0.5] {
                for d in -3..=3 {
                    let x = f32::from_bits((k.to_bits() as i32 + d) as u32);
                    xs.extend([x, -x]);
                }
            }
        }
        xs.extend((0..20_000).map(|i| -50.0 + i as f32 * 0.005));
        let cases: [(&str, F1, F1); 4] = [
            ("floor", floor, f32::floor),
            ("ceil", ceil, f32::ceil),
            ("trunc", trunc, f32::trunc),
            ("round_even", round_even, f32::round_ties_even),
        ];
        for (name, ours, std) in cases {
            for &x in &xs {
                let (g, e) = (ours(x), std(x));
                assert!(
                    g.to_bits() == e.to_bits() || (g.is_nan() && e.is_nan()),
                    "{name}({x:e}) = {g:e}, want {e:e}"
                );
            }
        }
    }
}
