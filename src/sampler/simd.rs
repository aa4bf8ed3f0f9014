//! 4-wide f32 / i32 vectors for the sampler's quad fast path (`filter.rs`): SSE2 on x86-64
//! (part of the x86-64 baseline, so no runtime detection), plain arrays on other targets.
//!
//! Every operation is the exact IEEE operation the scalar reference performs on one lane
//! (`+ − × ÷` on f32, truncating conversion, two's-complement i32), so a lane computed here
//! has the same bits as the scalar code — no reciprocal or rsqrt estimates, no FMA. The
//! integer conversions are only used on values the caller has range-checked (|x| < 2^22).

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Runs register-only SSE/SSE2 intrinsics (no memory access).
#[cfg(target_arch = "x86_64")]
macro_rules! sse {
    ($($body:tt)*) => {
        // SAFETY: SSE and SSE2 are part of the x86-64 baseline, so every CPU this code can
        // run on has them; the intrinsics wrapped here only compute on values in registers
        // (loads and stores through pointers get their own blocks).
        unsafe { $($body)* }
    };
}

/// Four f32 lanes.
#[cfg(target_arch = "x86_64")]
#[derive(Copy, Clone, Debug)]
pub(crate) struct F4(__m128);

/// Four i32 lanes (also used as lane masks: all ones = true).
#[cfg(target_arch = "x86_64")]
#[derive(Copy, Clone, Debug)]
pub(crate) struct I4(__m128i);

#[cfg(target_arch = "x86_64")]
impl F4 {
    #[inline(always)]
    pub fn splat(x: f32) -> F4 {
        sse! {
            F4(_mm_set1_ps(x))
        }
    }
    #[inline(always)]
    pub fn new(a: [f32; 4]) -> F4 {
        sse! {
            F4(_mm_set_ps(a[3], a[2], a[1], a[0]))
        }
    }
    #[inline(always)]
    pub fn from_bits(a: [u32; 4]) -> F4 {
        sse! {
            F4(_mm_castsi128_ps(_mm_set_epi32(
                a[3] as i32,
                a[2] as i32,
                a[1] as i32,
                a[0] as i32,
            )))
        }
    }
    #[inline(always)]
    pub fn to_bits(self) -> [u32; 4] {
        sse! {
            let a = I4(_mm_castps_si128(self.0)).to_array();
            [a[0] as u32, a[1] as u32, a[2] as u32, a[3] as u32]
        }
    }
    #[inline(always)]
    pub fn add(self, o: F4) -> F4 {
        sse! {
            F4(_mm_add_ps(self.0, o.0))
        }
    }
    #[inline(always)]
    pub fn sub(self, o: F4) -> F4 {
        sse! {
            F4(_mm_sub_ps(self.0, o.0))
        }
    }
    #[inline(always)]
    pub fn mul(self, o: F4) -> F4 {
        sse! {
            F4(_mm_mul_ps(self.0, o.0))
        }
    }
    /// Lane mask of `self < o` (false where either is NaN).
    #[inline(always)]
    pub fn lt(self, o: F4) -> I4 {
        sse! {
            I4(_mm_castps_si128(_mm_cmplt_ps(self.0, o.0)))
        }
    }
    /// Lane mask of `self > o` (false where either is NaN).
    #[inline(always)]
    pub fn gt(self, o: F4) -> I4 {
        sse! {
            I4(_mm_castps_si128(_mm_cmpgt_ps(self.0, o.0)))
        }
    }
    /// |x| (clears the sign bit).
    #[inline(always)]
    pub fn abs(self) -> F4 {
        sse! {
            F4(_mm_andnot_ps(_mm_set1_ps(-0.0), self.0))
        }
    }
    /// `self` where `m` is set, +0 elsewhere.
    #[inline(always)]
    pub fn and_mask(self, m: I4) -> F4 {
        sse! {
            F4(_mm_and_ps(self.0, _mm_castsi128_ps(m.0)))
        }
    }
    #[inline(always)]
    pub fn div(self, o: F4) -> F4 {
        sse! {
            F4(_mm_div_ps(self.0, o.0))
        }
    }
    /// Truncation toward zero (`as i32`); the caller keeps |x| < 2^31.
    #[inline(always)]
    pub fn trunc_i4(self) -> I4 {
        sse! {
            I4(_mm_cvttps_epi32(self.0))
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl I4 {
    #[inline(always)]
    pub fn splat(x: i32) -> I4 {
        sse! {
            I4(_mm_set1_epi32(x))
        }
    }
    #[inline(always)]
    pub fn new(a: [i32; 4]) -> I4 {
        sse! {
            I4(_mm_set_epi32(a[3], a[2], a[1], a[0]))
        }
    }
    #[inline(always)]
    pub fn to_array(self) -> [i32; 4] {
        let mut a = [0i32; 4];
        // SAFETY: `a` is 16 writable bytes; `storeu` needs no alignment.
        unsafe { _mm_storeu_si128(a.as_mut_ptr() as *mut __m128i, self.0) };
        a
    }
    /// Wrapping add.
    #[inline(always)]
    pub fn add(self, o: I4) -> I4 {
        sse! {
            I4(_mm_add_epi32(self.0, o.0))
        }
    }
    #[inline(always)]
    pub fn and(self, o: I4) -> I4 {
        sse! {
            I4(_mm_and_si128(self.0, o.0))
        }
    }
    /// Lane mask of `self > o` (signed).
    #[inline(always)]
    pub fn gt(self, o: I4) -> I4 {
        sse! {
            I4(_mm_cmpgt_epi32(self.0, o.0))
        }
    }
    /// `a` where `self` (a mask) is set, `b` elsewhere.
    #[inline(always)]
    pub fn select(self, a: I4, b: I4) -> I4 {
        sse! {
            I4(_mm_or_si128(
                _mm_and_si128(self.0, a.0),
                _mm_andnot_si128(self.0, b.0),
            ))
        }
    }
    /// Exact for |x| < 2^24.
    #[inline(always)]
    pub fn to_f4(self) -> F4 {
        sse! {
            F4(_mm_cvtepi32_ps(self.0))
        }
    }
    /// Whether every lane of a mask is set.
    #[inline(always)]
    pub fn all(self) -> bool {
        self.bits() == 0xF
    }

    /// The sign bit of each lane as bits 0..3 (lane l → bit l): a mask's lanes as a `u32`.
    #[inline(always)]
    pub fn bits(self) -> u32 {
        sse! {
            _mm_movemask_ps(_mm_castsi128_ps(self.0)) as u32
        }
    }

    /// The lane mask of bits 0..3 of `lanes` (all ones where bit l is set): one compare
    /// instead of four scalar shifts and an insert each.
    #[inline(always)]
    pub fn lane_mask(lanes: u32) -> I4 {
        sse! {
            let bit = _mm_set_epi32(8, 4, 2, 1);
            I4(_mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32(lanes as i32), bit), bit))
        }
    }
    /// Arithmetic shift right by 1 (floor of x / 2).
    #[inline(always)]
    pub fn shr1(self) -> I4 {
        sse! {
            I4(_mm_srai_epi32::<1>(self.0))
        }
    }
    /// Lane mask of `self == o`.
    #[inline(always)]
    pub fn eq(self, o: I4) -> I4 {
        sse! {
            I4(_mm_cmpeq_epi32(self.0, o.0))
        }
    }
    /// y·w + x per lane for `self` = x, in one `pmaddwd`: the caller keeps x, y and w in
    /// [0, 32767] (16-bit signed operands, so the product pairs are exact).
    #[inline(always)]
    pub fn madd_row(self, y: I4, w: u32) -> I4 {
        sse! {
            let xy = _mm_or_si128(self.0, _mm_slli_epi32::<16>(y.0));
            I4(_mm_madd_epi16(xy, _mm_set1_epi32((1 | (w << 16)) as i32)))
        }
    }
    /// Each lane's weight pair (256 − w, w), for `Q2::blend` (w in [0, 256]).
    #[inline(always)]
    pub fn weight_pairs(self) -> [Wt; 4] {
        sse! {
            let w = self.0;
            let pair = _mm_or_si128(_mm_slli_epi32::<16>(w), _mm_sub_epi32(_mm_set1_epi32(256), w));
            [
                Wt(_mm_shuffle_epi32::<0x00>(pair)),
                Wt(_mm_shuffle_epi32::<0x55>(pair)),
                Wt(_mm_shuffle_epi32::<0xAA>(pair)),
                Wt(_mm_shuffle_epi32::<0xFF>(pair)),
            ]
        }
    }
}

/// Eight i16 lanes: the q15 RGBA channels (see `filter8.rs`) of two sampler lanes,
/// `[r g b a]` of the first then of the second. Every channel is in [0, 32640].
#[cfg(target_arch = "x86_64")]
#[derive(Copy, Clone, Debug)]
pub(crate) struct Q2(__m128i);

/// One sampler lane's weight pair (256 − w, w), repeated for the 4 channels: the layout
/// `pmaddwd` multiplies an interleaved (a, b) channel pair with.
#[cfg(target_arch = "x86_64")]
#[derive(Copy, Clone, Debug)]
pub(crate) struct Wt(__m128i);

#[cfg(target_arch = "x86_64")]
impl Q2 {
    /// Four RGBA8 texels (one per sampler lane, R in the low byte) as q15 (c·128):
    /// `[lanes 0 and 1, lanes 2 and 3]`.
    #[inline(always)]
    pub fn from_rgba8x4(t: [u32; 4]) -> [Q2; 2] {
        sse! {
            let v = _mm_set_epi32(t[3] as i32, t[2] as i32, t[1] as i32, t[0] as i32);
            let z = _mm_setzero_si128();
            [
                Q2(_mm_slli_epi16::<7>(_mm_unpacklo_epi8(v, z))),
                Q2(_mm_slli_epi16::<7>(_mm_unpackhi_epi8(v, z))),
            ]
        }
    }
    /// Four lanes' q15 channels, each packed as four little-endian i16 in a u64 (R lowest).
    #[inline(always)]
    pub fn from_q15x4(q: [u64; 4]) -> [Q2; 2] {
        sse! {
            [
                Q2(_mm_set_epi64x(q[1] as i64, q[0] as i64)),
                Q2(_mm_set_epi64x(q[3] as i64, q[2] as i64)),
            ]
        }
    }
    /// a·(256 − w) + b·w per channel, exact in i32 (≤ 32640·256): the q23 RGBA of the
    /// first lane (weights `w0`) and of the second (`w1`).
    #[inline(always)]
    pub fn blend_wide(a: Q2, b: Q2, w0: Wt, w1: Wt) -> [I4; 2] {
        sse! {
            [
                I4(_mm_madd_epi16(_mm_unpacklo_epi16(a.0, b.0), w0.0)),
                I4(_mm_madd_epi16(_mm_unpackhi_epi16(a.0, b.0), w1.0)),
            ]
        }
    }
    /// q23 → q15 for two lanes: (x + 128) >> 8, packed (never saturates: ≤ 32640).
    #[inline(always)]
    pub fn narrow(x: I4, y: I4) -> Q2 {
        sse! {
            let r = _mm_set1_epi32(128);
            Q2(_mm_packs_epi32(
                _mm_srai_epi32::<8>(_mm_add_epi32(x.0, r)),
                _mm_srai_epi32::<8>(_mm_add_epi32(y.0, r)),
            ))
        }
    }
    /// `narrow(blend_wide(..))`: the q15 blend (a·(256 − w) + b·w + 128) >> 8.
    #[inline(always)]
    pub fn blend(a: Q2, b: Q2, w0: Wt, w1: Wt) -> Q2 {
        let [x, y] = Q2::blend_wide(a, b, w0, w1);
        Q2::narrow(x, y)
    }
    /// q15 → q23 (× 256) for the two lanes.
    #[inline(always)]
    pub fn widen(self) -> [I4; 2] {
        sse! {
            // (0, x) pairs are x << 16 as i32; shifting back by 8 leaves x << 8 (x ≥ 0).
            let z = _mm_setzero_si128();
            [
                I4(_mm_srai_epi32::<8>(_mm_unpacklo_epi16(z, self.0))),
                I4(_mm_srai_epi32::<8>(_mm_unpackhi_epi16(z, self.0))),
            ]
        }
    }
}

/// Four lanes' RGBA vectors turned into channel vectors (a 4×4 transpose).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn transpose_f4(v: [F4; 4]) -> [F4; 4] {
    sse! {
        let (mut a, mut b, mut c, mut d) = (v[0].0, v[1].0, v[2].0, v[3].0);
        _MM_TRANSPOSE4_PS(&mut a, &mut b, &mut c, &mut d);
        [F4(a), F4(b), F4(c), F4(d)]
    }
}

/// Bilinear filtering of RGBA8 for 4 lanes whose 2×2 footprints have adjacent columns:
/// `rows[0][l]` and `rows[1][l]` are the byte offsets of lane l's texel (x0, y0) and
/// (x0, y1), and the texel at x0 + 1 follows each in memory, so one 8-byte load reads a
/// footprint row. `wa`, `wb` are the 8-bit weights (in [0, 256]) along x and y. Returns
/// each lane's q23 RGBA, the same integers as `filter8`'s q15 steps (there, a channel c is
/// c·128 and a row (c0·128·(256 − wa) + c1·128·wa + 128) >> 8; that is (S + 1) >> 1 with
/// S = c0·(256 − wa) + c1·wa ≤ 255·256, which fits 16 unsigned bits: `pmullw`, `paddw`
/// and `pavgw` against zero compute it exactly).
///
/// # Safety
/// For every lane l, the 8 bytes at `p + rows[0][l]` and at `p + rows[1][l]` are readable.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn bilerp_rgba8_rows(
    p: *const u8,
    rows: [[usize; 4]; 2],
    wa: I4,
    wb: I4,
) -> [I4; 4] {
    // SAFETY: the caller's contract: 8 readable bytes at each offset; `loadl` needs no
    // alignment.
    // (Written out: an index `map` here stayed an out-of-line call.)
    let t: [[__m128i; 2]; 4] = unsafe {
        let ld = |o: usize| _mm_loadl_epi64(p.add(o) as *const __m128i);
        let [r0, r1] = rows;
        [
            [ld(r0[0]), ld(r1[0])],
            [ld(r0[1]), ld(r1[1])],
            [ld(r0[2]), ld(r1[2])],
            [ld(r0[3]), ld(r1[3])],
        ]
    };
    sse! {
        let z = _mm_setzero_si128();
        let c256 = _mm_set1_epi32(256);
        // (256 − w) in the low and w in the high 16 bits of each lane.
        let pa = _mm_or_si128(_mm_sub_epi32(c256, wa.0), _mm_slli_epi32::<16>(wa.0));
        let pb = _mm_or_si128(_mm_sub_epi32(c256, wb.0), _mm_slli_epi32::<16>(wb.0));
        let lane = |[t0, t1]: [__m128i; 2], wa2: __m128i, wb2: __m128i| {
            // [c(x0) ×4, c(x0 + 1) ×4] of each row as u16, times [256 − wa ×4, wa ×4].
            let wa4 = _mm_shufflehi_epi16::<0x55>(_mm_shufflelo_epi16::<0x00>(wa2));
            let p0 = _mm_mullo_epi16(_mm_unpacklo_epi8(t0, z), wa4);
            let p1 = _mm_mullo_epi16(_mm_unpacklo_epi8(t1, z), wa4);
            let s = _mm_add_epi16(_mm_unpacklo_epi64(p0, p1), _mm_unpackhi_epi64(p0, p1));
            // [row0 ×4, row1 ×4] in q15, then (row0, row1) channel pairs · (256 − wb, wb).
            let r = _mm_avg_epu16(s, z);
            I4(_mm_madd_epi16(_mm_unpacklo_epi16(r, _mm_unpackhi_epi64(r, r)), wb2))
        };
        [
            lane(t[0], _mm_shuffle_epi32::<0x00>(pa), _mm_shuffle_epi32::<0x00>(pb)),
            lane(t[1], _mm_shuffle_epi32::<0x55>(pa), _mm_shuffle_epi32::<0x55>(pb)),
            lane(t[2], _mm_shuffle_epi32::<0xAA>(pa), _mm_shuffle_epi32::<0xAA>(pb)),
            lane(t[3], _mm_shuffle_epi32::<0xFF>(pa), _mm_shuffle_epi32::<0xFF>(pb)),
        ]
    }
}

/// Four RGBA8 texels (little-endian `u32`s, R in the low byte) as channel vectors of
/// unorm values c / 255 (GL 4.5 core eq. 2.1, the same IEEE division as `unorm8_to_f32`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn unorm8x4(texels: [u32; 4]) -> [F4; 4] {
    sse! {
        let t = texels;
        let v = _mm_set_epi32(t[3] as i32, t[2] as i32, t[1] as i32, t[0] as i32);
        let ff = _mm_set1_epi32(0xFF);
        let k = _mm_set1_ps(255.0);
        let r = _mm_and_si128(v, ff);
        let g = _mm_and_si128(_mm_srli_epi32::<8>(v), ff);
        let b = _mm_and_si128(_mm_srli_epi32::<16>(v), ff);
        let a = _mm_srli_epi32::<24>(v);
        let un = |c: __m128i| F4(_mm_div_ps(_mm_cvtepi32_ps(c), k));
        [un(r), un(g), un(b), un(a)]
    }
}

/// Four RGBA texels (one per lane) turned into channel vectors.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn transpose(t: [[f32; 4]; 4]) -> [F4; 4] {
    sse! {
        let (mut a, mut b) = (F4::new(t[0]).0, F4::new(t[1]).0);
        let (mut c, mut d) = (F4::new(t[2]).0, F4::new(t[3]).0);
        _MM_TRANSPOSE4_PS(&mut a, &mut b, &mut c, &mut d);
        [F4(a), F4(b), F4(c), F4(d)]
    }
}

// ---- Portable fallback: the same operations lane by lane. ----

#[cfg(not(target_arch = "x86_64"))]
#[derive(Copy, Clone, Debug)]
pub(crate) struct F4([f32; 4]);

#[cfg(not(target_arch = "x86_64"))]
#[derive(Copy, Clone, Debug)]
pub(crate) struct I4([i32; 4]);

#[cfg(not(target_arch = "x86_64"))]
fn mask(b: bool) -> i32 {
    if b {
        -1
    } else {
        0
    }
}

#[cfg(not(target_arch = "x86_64"))]
impl F4 {
    #[inline(always)]
    pub fn splat(x: f32) -> F4 {
        F4([x; 4])
    }
    #[inline(always)]
    pub fn new(a: [f32; 4]) -> F4 {
        F4(a)
    }
    #[inline(always)]
    pub fn from_bits(a: [u32; 4]) -> F4 {
        F4(a.map(f32::from_bits))
    }
    #[inline(always)]
    pub fn to_bits(self) -> [u32; 4] {
        self.0.map(f32::to_bits)
    }
    #[inline(always)]
    fn zip(self, o: F4, f: impl Fn(f32, f32) -> f32) -> F4 {
        F4([0, 1, 2, 3].map(|i| f(self.0[i], o.0[i])))
    }
    #[inline(always)]
    pub fn add(self, o: F4) -> F4 {
        self.zip(o, |a, b| a + b)
    }
    #[inline(always)]
    pub fn sub(self, o: F4) -> F4 {
        self.zip(o, |a, b| a - b)
    }
    #[inline(always)]
    pub fn mul(self, o: F4) -> F4 {
        self.zip(o, |a, b| a * b)
    }
    #[inline(always)]
    pub fn lt(self, o: F4) -> I4 {
        I4([0, 1, 2, 3].map(|i| mask(self.0[i] < o.0[i])))
    }
    #[inline(always)]
    pub fn gt(self, o: F4) -> I4 {
        I4([0, 1, 2, 3].map(|i| mask(self.0[i] > o.0[i])))
    }
    #[inline(always)]
    pub fn abs(self) -> F4 {
        F4(self.0.map(f32::abs))
    }
    #[inline(always)]
    pub fn and_mask(self, m: I4) -> F4 {
        F4([0, 1, 2, 3].map(|i| f32::from_bits(self.0[i].to_bits() & m.0[i] as u32)))
    }
    #[inline(always)]
    pub fn div(self, o: F4) -> F4 {
        self.zip(o, |a, b| a / b)
    }
    #[inline(always)]
    pub fn trunc_i4(self) -> I4 {
        I4(self.0.map(|x| x as i32))
    }
}

#[cfg(not(target_arch = "x86_64"))]
impl I4 {
    #[inline(always)]
    pub fn splat(x: i32) -> I4 {
        I4([x; 4])
    }
    #[inline(always)]
    pub fn new(a: [i32; 4]) -> I4 {
        I4(a)
    }
    #[inline(always)]
    pub fn to_array(self) -> [i32; 4] {
        self.0
    }
    #[inline(always)]
    pub fn add(self, o: I4) -> I4 {
        I4([0, 1, 2, 3].map(|i| self.0[i].wrapping_add(o.0[i])))
    }
    #[inline(always)]
    pub fn and(self, o: I4) -> I4 {
        I4([0, 1, 2, 3].map(|i| self.0[i] & o.0[i]))
    }
    #[inline(always)]
    pub fn gt(self, o: I4) -> I4 {
        I4([0, 1, 2, 3].map(|i| mask(self.0[i] > o.0[i])))
    }
    #[inline(always)]
    pub fn select(self, a: I4, b: I4) -> I4 {
        I4([0, 1, 2, 3].map(|i| (self.0[i] & a.0[i]) | (!self.0[i] & b.0[i])))
    }
    #[inline(always)]
    pub fn to_f4(self) -> F4 {
        F4(self.0.map(|x| x as f32))
    }
    #[inline(always)]
    pub fn all(self) -> bool {
        self.0.iter().all(|&m| m == -1)
    }
    #[inline(always)]
    pub fn bits(self) -> u32 {
        (0..4).fold(0, |b, l| b | ((self.0[l] < 0) as u32) << l)
    }
    #[inline(always)]
    pub fn lane_mask(lanes: u32) -> I4 {
        I4([0, 1, 2, 3].map(|l| mask(lanes & (1 << l) != 0)))
    }
    #[inline(always)]
    pub fn shr1(self) -> I4 {
        I4(self.0.map(|x| x >> 1))
    }
    #[inline(always)]
    pub fn eq(self, o: I4) -> I4 {
        I4([0, 1, 2, 3].map(|i| mask(self.0[i] == o.0[i])))
    }
    #[inline(always)]
    pub fn madd_row(self, y: I4, w: u32) -> I4 {
        I4([0, 1, 2, 3].map(|i| y.0[i] * w as i32 + self.0[i]))
    }
    #[inline(always)]
    pub fn weight_pairs(self) -> [Wt; 4] {
        self.0.map(Wt)
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[derive(Copy, Clone, Debug)]
pub(crate) struct Q2([i32; 8]);

/// The weight w itself (the pair is implied).
#[cfg(not(target_arch = "x86_64"))]
#[derive(Copy, Clone, Debug)]
pub(crate) struct Wt(i32);

#[cfg(not(target_arch = "x86_64"))]
impl Q2 {
    #[inline(always)]
    pub fn from_rgba8x4(t: [u32; 4]) -> [Q2; 2] {
        let ch = |l: usize, c: usize| ((t[l] >> (8 * c)) & 0xFF) as i32 * 128;
        let pair = |l: usize| Q2([0, 1, 2, 3, 4, 5, 6, 7].map(|i| ch(l + i / 4, i % 4)));
        [pair(0), pair(2)]
    }
    #[inline(always)]
    pub fn from_q15x4(q: [u64; 4]) -> [Q2; 2] {
        let ch = |l: usize, c: usize| (q[l] >> (16 * c)) as u16 as i16 as i32;
        let pair = |l: usize| Q2([0, 1, 2, 3, 4, 5, 6, 7].map(|i| ch(l + i / 4, i % 4)));
        [pair(0), pair(2)]
    }
    #[inline(always)]
    pub fn blend_wide(a: Q2, b: Q2, w0: Wt, w1: Wt) -> [I4; 2] {
        let f = |k: usize, w: i32| a.0[k] * (256 - w) + b.0[k] * w;
        [
            I4([0, 1, 2, 3].map(|c| f(c, w0.0))),
            I4([0, 1, 2, 3].map(|c| f(4 + c, w1.0))),
        ]
    }
    #[inline(always)]
    pub fn narrow(x: I4, y: I4) -> Q2 {
        let n = |v: i32| (v + 128) >> 8;
        Q2([0, 1, 2, 3, 4, 5, 6, 7].map(|i| n(if i < 4 { x.0[i] } else { y.0[i - 4] })))
    }
    #[inline(always)]
    pub fn blend(a: Q2, b: Q2, w0: Wt, w1: Wt) -> Q2 {
        let [x, y] = Q2::blend_wide(a, b, w0, w1);
        Q2::narrow(x, y)
    }
    #[inline(always)]
    pub fn widen(self) -> [I4; 2] {
        [
            I4([0, 1, 2, 3].map(|c| self.0[c] << 8)),
            I4([0, 1, 2, 3].map(|c| self.0[4 + c] << 8)),
        ]
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn transpose_f4(v: [F4; 4]) -> [F4; 4] {
    [0, 1, 2, 3].map(|c| F4([v[0].0[c], v[1].0[c], v[2].0[c], v[3].0[c]]))
}

/// See the x86-64 form.
///
/// # Safety
/// As the x86-64 form.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) unsafe fn bilerp_rgba8_rows(
    p: *const u8,
    rows: [[usize; 4]; 2],
    wa: I4,
    wb: I4,
) -> [I4; 4] {
    [0, 1, 2, 3].map(|l| {
        // SAFETY: the caller's contract: 8 readable bytes at each offset.
        let rd =
            |o: usize| u64::from_le(unsafe { std::ptr::read_unaligned(p.add(o) as *const u64) });
        let (t0, t1) = (rd(rows[0][l]), rd(rows[1][l]));
        let c = |t: u64, k: u32| ((t >> (8 * k)) & 0xFF) as i32;
        let (a, b) = (wa.0[l], wb.0[l]);
        let row = |t: u64, ch: u32| (c(t, ch) * (256 - a) + c(t, ch + 4) * a + 1) >> 1;
        I4([0, 1, 2, 3].map(|ch| row(t0, ch) * (256 - b) + row(t1, ch) * b))
    })
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn unorm8x4(texels: [u32; 4]) -> [F4; 4] {
    [0, 8, 16, 24].map(|sh| F4(texels.map(|t| ((t >> sh) & 0xFF) as f32 / 255.0)))
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn transpose(t: [[f32; 4]; 4]) -> [F4; 4] {
    [0, 1, 2, 3].map(|c| F4([t[0][c], t[1][c], t[2][c], t[3][c]]))
}

/// a + t·(b − a) per lane, the reference's operation order (`filter.rs::lerp4`).
#[inline(always)]
pub(crate) fn lerp(a: F4, b: F4, t: F4) -> F4 {
    a.add(t.mul(b.sub(a)))
}

/// (floor(x), x − floor(x)) per lane, bit-identical to `filter.rs::split` for |x| < 2^22
/// (the caller checks): truncate, step down where truncation rounded up; a fraction that
/// rounds to 1 (x a tiny negative) becomes 0 as in the reference.
#[inline(always)]
pub(crate) fn split4(x: F4) -> (I4, F4) {
    let t = x.trunc_i4();
    // All-ones (−1) where the truncation lies above x.
    let i = t.add(t.to_f4().gt(x));
    let f = x.sub(i.to_f4());
    (i, f.and_mask(f.lt(F4::splat(1.0))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unorm8_matches_the_division() {
        let all: Vec<u32> = (0..=255u32).collect();
        for q in all.chunks(4) {
            let t = [q[0], q[1] << 8, q[2] << 16, q[3] << 24];
            let v = unorm8x4(t);
            for (c, lane) in [(0, 0), (1, 1), (2, 2), (3, 3)] {
                assert_eq!(v[c].to_bits()[lane], (q[lane] as f32 / 255.0).to_bits());
            }
        }
    }

    #[test]
    fn lane_masks_and_bits_round_trip() {
        for lanes in 0..32u32 {
            let m = I4::lane_mask(lanes);
            let want = [0, 1, 2, 3].map(|l| if lanes & (1 << l) != 0 { -1 } else { 0 });
            assert_eq!(m.to_array(), want, "{lanes:#x}");
            assert_eq!(m.bits(), lanes & 0xF);
            assert_eq!(m.all(), lanes & 0xF == 0xF);
        }
        assert_eq!(I4::new([i32::MIN, 0, -1, 1]).bits(), 0b0101);
    }

    #[test]
    fn split4_floors() {
        let xs = [-3.5f32, -1e-10, -0.0, 2.75];
        let (i, f) = split4(F4::new(xs));
        assert_eq!(i.to_array(), [-4, -1, 0, 2]);
        assert_eq!(f.to_bits(), [0.5f32, 0.0, -0.0, 0.75].map(f32::to_bits));
    }

    #[test]
    fn transpose_swaps_axes() {
        let t = transpose([
            [1.0, 2.0, 3.0, 4.0],
            [5.0, 6.0, 7.0, 8.0],
            [9.0; 4],
            [0.0; 4],
        ]);
        assert_eq!(t[1].to_bits(), [2.0f32, 6.0, 9.0, 0.0].map(f32::to_bits));
    }
}
