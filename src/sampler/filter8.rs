//! Integer filtering of RGBA8 and SRGB8_ALPHA8 textures (issue #9 item 4): bilinear and
//! mip-blend weights quantized to 8 bits and the lerps done in integer lanes, as GPUs and
//! llvmpipe's AoS path do. GL leaves the filter's arithmetic precision to the
//! implementation; `tests::integer_filter_is_within_a_step_of_the_exact_one` bounds ours
//! against an f64 filter with exact weights.
//!
//! Fixed point, chosen so every step fits SSE2's `pmaddwd` (i16 × i16 pairs summed in i32):
//!
//! ```text
//!  q15: a texel channel, 1.0 = TEXEL_ONE = 255·128   unorm c → c·128 (exact)
//!                                                     sRGB c → round(decode(c)·32640)
//!  w:   a weight, round(f·256) in [0, 256] for a fraction f in [0, 1)
//!  q23: a filtered value, 1.0 = RESULT_ONE = 255·128·256
//!
//!  row    = (t00·(256 − wa) + t10·wa + 128) >> 8                 q15 (≤ 32640)
//!  level  = row0·(256 − wb) + row1·wb                            q23 (≤ 2^23)
//!  mip    = q15(level a)·(256 − wλ) + q15(level b)·wλ            q23, q15(x) = (x + 128) >> 8
//!  result = f32(q23) / RESULT_ONE                                 one IEEE division
//! ```
//!
//! A texel taken whole (weight 0 or 256, a constant region, NEAREST inside a mip blend)
//! comes out as c·32768 / (255·32768), the correctly rounded c/255: exactly what the f32
//! path returns. sRGB channels are decoded through a 15-bit table before filtering (GL
//! filters sRGB textures in linear space, §8.24), so they differ from the exact f32 decode
//! by at most half a step of 1/32640. NEAREST without a mip blend keeps the exact f32 path.
//!
//! Two paths, bit-identical (the differential test in `sampler::tests` holds them
//! together): `sample_lanes8`, lane by lane (every wrap including CLAMP_TO_BORDER, lanes
//! with different λ, huge coordinates), and `sample_quad8`, the 4 lanes in SSE2 registers
//! (`simd::Q2`), with the wrap mode chosen when the descriptor is built (`WRAP_*`).

use super::descriptor::{Descriptor, LevelLayout, SampleFn, Wrap, MAX_LEVELS};
use super::filter::{
    filter_level, lane_lambdas, offsets4, plan, quad_start, quad_texels, split, wrap, wrap4,
    QuadStart, QuadTexels, FAST_OFFSET_LIMIT, MIP_LINEAR, MIP_NEAREST, MIP_NONE,
};
use super::format::{LoadRgba8, LoadSrgb8Alpha8, TexelLoad};
use super::simd::{bilerp_rgba8_rows, transpose_f4, Wt, F4, I4, Q2};
use super::srgb_tables::SRGB_DECODE_BITS;
use crate::sampler::request::{TexRequest, TexResult};

/// 1.0 in a q15 texel channel.
pub(crate) const TEXEL_ONE: i32 = 255 * 128;
/// 1.0 in a q23 filtered value.
pub(crate) const RESULT_ONE: i32 = TEXEL_ONE * 256;

/// sRGB code → linear in q15, rounded to nearest from the exact f32 decode (GL 4.5 core
/// eq. 8.17); computed at compile time with IEEE f32 arithmetic.
static SRGB_Q15: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        let linear = f32::from_bits(SRGB_DECODE_BITS[i]);
        t[i] = (linear * TEXEL_ONE as f32 + 0.5) as u16;
        i += 1;
    }
    t
};

/// The 8-bit weight of a fraction f in [0, 1): round(f·256), halves up, in [0, 256].
/// f·512 is exact (a power of two) and so is its truncation: no rounding mode involved.
#[inline(always)]
pub(crate) fn weight8(f: f32) -> i32 {
    ((f * 512.0) as i32 + 1) >> 1
}

/// `weight8` on 4 lanes.
#[inline(always)]
fn weight8x4(f: F4) -> I4 {
    f.mul(F4::splat(512.0)).trunc_i4().add(I4::splat(1)).shr1()
}

/// a·(256 − w) + b·w: q15 operands, q23 result.
#[inline(always)]
fn blend_wide(a: i32, b: i32, w: i32) -> i32 {
    a * (256 - w) + b * w
}

/// q23 → q15, rounded.
#[inline(always)]
fn narrow(v: i32) -> i32 {
    (v + 128) >> 8
}

/// q23 → the f32 GL sees.
#[inline(always)]
fn unit(v: i32) -> f32 {
    v as f32 / RESULT_ONE as f32
}

/// The two 8-bit formats: a stored texel (4 little-endian bytes, R lowest) in q15.
pub(crate) trait Texel8: TexelLoad {
    /// Whether a footprint row's two texels can be filtered straight from their 8 stored
    /// bytes (`simd::bilerp_rgba8_rows`): unorm channels, no decode table.
    const ROWS8: bool;
    fn q15(t: u32) -> [i32; 4];
    /// Four texels, one per sampler lane, as `[lanes 0 and 1, lanes 2 and 3]`.
    fn q15x4(t: [u32; 4]) -> [Q2; 2];
}

impl Texel8 for LoadRgba8 {
    const ROWS8: bool = true;
    #[inline(always)]
    fn q15(t: u32) -> [i32; 4] {
        [0, 8, 16, 24].map(|sh| ((t >> sh) & 0xFF) as i32 * 128)
    }
    #[inline(always)]
    fn q15x4(t: [u32; 4]) -> [Q2; 2] {
        Q2::from_rgba8x4(t)
    }
}

impl LoadSrgb8Alpha8 {
    /// The q15 channels as four i16 in a u64 (R lowest).
    #[inline(always)]
    fn packed(t: u32) -> u64 {
        let c = |sh: u32| SRGB_Q15[((t >> sh) & 0xFF) as usize] as u64;
        c(0) | c(8) << 16 | c(16) << 32 | ((t >> 24) as u64 * 128) << 48
    }
}

impl Texel8 for LoadSrgb8Alpha8 {
    const ROWS8: bool = false;
    #[inline(always)]
    fn q15(t: u32) -> [i32; 4] {
        let c = |sh: u32| SRGB_Q15[((t >> sh) & 0xFF) as usize] as i32;
        [c(0), c(8), c(16), (t >> 24) as i32 * 128]
    }
    #[inline(always)]
    fn q15x4(t: [u32; 4]) -> [Q2; 2] {
        Q2::from_q15x4(t.map(Self::packed))
    }
}

/// The stored bits of texel (x, y) of `lv`, which the caller has wrapped into range.
#[inline(always)]
fn load_bits(lv: &LevelLayout, x: u32, y: u32) -> u32 {
    debug_assert!(x < lv.width && y < lv.height && !lv.ptr.is_null());
    let off = (y as usize * lv.width as usize + x as usize) * 4;
    // SAFETY: x < width and y < height (every caller wraps first), so the 4 bytes lie inside
    // the level's `width × height × 4` bytes, kept alive and unwritten as in `filter::load`.
    u32::from_le(unsafe { std::ptr::read_unaligned(lv.ptr.add(off) as *const u32) })
}

// ---- Lane by lane (the reference of the quad path below). ----

/// One level of one lane in q23: NEAREST (the texel × 256) or LINEAR (GL 4.5 core
/// §8.14.2 with 8-bit weights); border texels are the border colour in q15.
#[inline(always)]
fn level_q23<F: Texel8, const LINEAR: bool>(
    d: &Descriptor,
    level: u32,
    s: f32,
    t: f32,
    offset: [i32; 2],
) -> [i32; 4] {
    let lv = &d.levels[(level as usize).min(MAX_LEVELS - 1)];
    if lv.ptr.is_null() {
        return [0, 0, 0, RESULT_ONE];
    }
    // Fitted to [0, 1] for these formats (`fit_to_format`); sRGB borders are linear.
    let border = d.border.map(|c| (c * TEXEL_ONE as f32 + 0.5) as i32);
    let texel = |x: Option<u32>, y: Option<u32>| match (x, y) {
        (Some(x), Some(y)) => F::q15(load_bits(lv, x, y)),
        _ => border,
    };
    let u = s * lv.width as f32;
    let v = t * lv.height as f32;
    if !LINEAR {
        let i = wrap(split(u).0 + offset[0] as i64, lv.width, d.wrap_s);
        let j = wrap(split(v).0 + offset[1] as i64, lv.height, d.wrap_t);
        return texel(i, j).map(|c| c << 8);
    }
    let (iu, a) = split(u - 0.5);
    let (jv, b) = split(v - 0.5);
    let (wa, wb) = (weight8(a), weight8(b));
    let i0 = iu + offset[0] as i64;
    let j0 = jv + offset[1] as i64;
    let (x0, x1) = (
        wrap(i0, lv.width, d.wrap_s),
        wrap(i0 + 1, lv.width, d.wrap_s),
    );
    let (y0, y1) = (
        wrap(j0, lv.height, d.wrap_t),
        wrap(j0 + 1, lv.height, d.wrap_t),
    );
    let (t00, t10, t01, t11) = (texel(x0, y0), texel(x1, y0), texel(x0, y1), texel(x1, y1));
    let mut out = [0; 4];
    for c in 0..4 {
        let row0 = narrow(blend_wide(t00[c], t10[c], wa));
        let row1 = narrow(blend_wide(t01[c], t11[c], wa));
        out[c] = blend_wide(row0, row1, wb);
    }
    out
}

/// One lane at λ: the level plan of `filter::sample_at`, with the integer filter wherever
/// a weight is involved.
#[inline(always)]
fn sample_at8<F: Texel8, const MAG_LINEAR: bool, const MIN_LINEAR: bool, const MIP: u8>(
    d: &Descriptor,
    s: f32,
    t: f32,
    off: [i32; 2],
    lam: f32,
) -> [f32; 4] {
    let p = plan::<MAG_LINEAR, MIN_LINEAR, MIP>(d, lam);
    if !p.two && !p.linear {
        return filter_level::<F, false>(d, p.a, s, t, off);
    }
    let level = |l: u32| {
        if p.linear {
            level_q23::<F, true>(d, l, s, t, off)
        } else {
            level_q23::<F, false>(d, l, s, t, off)
        }
    };
    let a = level(p.a);
    let r = if p.two {
        let b = level(p.b);
        let w = weight8(p.w);
        [0, 1, 2, 3].map(|c| blend_wide(narrow(a[c]), narrow(b[c]), w))
    } else {
        a
    };
    r.map(unit)
}

/// Filtered samples for the lanes in `lanes`, one at a time.
// `out` is indexed `[component][lane]`: a range loop over lanes is the clear form.
#[allow(clippy::needless_range_loop)]
fn sample_lanes8<F: Texel8, const MAG_LINEAR: bool, const MIN_LINEAR: bool, const MIP: u8>(
    d: &Descriptor,
    req: &TexRequest,
    lanes: u32,
    out: &mut TexResult,
) {
    let lams = lane_lambdas(d, req, lanes);
    for lane in 0..4 {
        if lanes & (1 << lane) == 0 {
            continue;
        }
        let s = f32::from_bits(req.coord[0][lane]);
        let t = f32::from_bits(req.coord[1][lane]);
        let v = sample_at8::<F, MAG_LINEAR, MIN_LINEAR, MIP>(d, s, t, req.offset, lams[lane]);
        for c in 0..4 {
            out[c][lane] = v[c].to_bits();
        }
    }
}

// ---- The quad path. ----

/// Wrap modes the quad path is compiled for, chosen once per descriptor (`wrap_kind`):
/// REPEAT on both axes of a power-of-two texture (a mask), CLAMP_TO_EDGE on both axes (a
/// clamp), or any other pair (`filter::wrap4`'s per-quad choice).
const WRAP_ANY: u8 = 0;
const WRAP_REPEAT_POT: u8 = 1;
const WRAP_CLAMP: u8 = 2;

/// The `WRAP_*` kind of a descriptor with these wraps and base size. Every level of a
/// power-of-two base is a power of two (halving, never below 1).
fn wrap_kind(wrap_s: Wrap, wrap_t: Wrap, base: [u32; 2]) -> u8 {
    match (wrap_s, wrap_t) {
        (Wrap::Repeat, Wrap::Repeat) if base[0].is_power_of_two() && base[1].is_power_of_two() => {
            WRAP_REPEAT_POT
        }
        (Wrap::ClampToEdge, Wrap::ClampToEdge) => WRAP_CLAMP,
        _ => WRAP_ANY,
    }
}

/// Integer coordinates wrapped into [0, n) by the descriptor's kind.
#[inline(always)]
fn wrap_k<const W: u8>(i: I4, n: u32, mode: Wrap) -> I4 {
    match W {
        WRAP_REPEAT_POT => i.and(I4::splat(n as i32 - 1)),
        WRAP_CLAMP => {
            let (zero, hi) = (I4::splat(0), I4::splat(n as i32 - 1));
            let i = i.gt(zero).select(i, zero);
            i.gt(hi).select(hi, i)
        }
        _ => wrap4(i, n, mode),
    }
}

/// Four texels (x[l], y[l]) of `lv`, wrapped into range, as q15 lane pairs.
#[inline(always)]
fn load4<F: Texel8>(lv: &LevelLayout, x: I4, y: I4) -> [Q2; 2] {
    let offs = offsets4::<F>(lv, x, y);
    // SAFETY: the wraps put every x in [0, width) and y in [0, height), so each texel's 4
    // bytes lie inside the level, kept alive and unwritten as in `filter::load`.
    let rd =
        |o: usize| u32::from_le(unsafe { std::ptr::read_unaligned(lv.ptr.add(o) as *const u32) });
    F::q15x4([rd(offs[0]), rd(offs[1]), rd(offs[2]), rd(offs[3])])
}

/// `level_q23` for the 4 lanes: each lane's q23 RGBA, or `None` when a texel-space
/// coordinate is out of the quad path's range (the caller then runs the lanes).
#[inline(always)]
fn level_q23x4<F: Texel8, const LINEAR: bool, const W: u8>(
    d: &Descriptor,
    level: u32,
    s: F4,
    t: F4,
    off: [i32; 2],
    active: I4,
) -> Option<[I4; 4]> {
    let (lv, i0, j0, a, b) = match quad_texels::<LINEAR>(d, level, s, t, off) {
        QuadTexels::Unbound => return Some([I4::new([0, 0, 0, RESULT_ONE]); 4]),
        QuadTexels::Slow => return None,
        QuadTexels::At { lv, i0, j0, a, b } => (lv, i0, j0, a, b),
    };
    let x0 = wrap_k::<W>(i0, lv.width, d.wrap_s);
    let y0 = wrap_k::<W>(j0, lv.height, d.wrap_t);
    if !LINEAR {
        let [p01, p23] = load4::<F>(lv, x0, y0);
        let ([l0, l1], [l2, l3]) = (p01.widen(), p23.widen());
        return Some([l0, l1, l2, l3]);
    }
    let one = I4::splat(1);
    let x1 = wrap_k::<W>(i0.add(one), lv.width, d.wrap_s);
    let y1 = wrap_k::<W>(j0.add(one), lv.height, d.wrap_t);
    if F::ROWS8 {
        if let Some(rows) = adjacent_rows(lv, x0, x1, y0, y1, active) {
            #[cfg(test)]
            ROW_HITS.with(|c| c.set(c.get() + 1));
            // SAFETY: `adjacent_rows` returns offsets of texels (x, y) with x + 1 < width
            // and y < height, so each offset's 8 bytes (texels x and x + 1) lie inside the
            // level's `width × height × 4` bytes, kept alive and unwritten as in
            // `filter::load`.
            return Some(unsafe { bilerp_rgba8_rows(lv.ptr, rows, weight8x4(a), weight8x4(b)) });
        }
    }
    let wa = weight8x4(a).weight_pairs();
    let wb = weight8x4(b).weight_pairs();
    let t00 = load4::<F>(lv, x0, y0);
    let t10 = load4::<F>(lv, x1, y0);
    let t01 = load4::<F>(lv, x0, y1);
    let t11 = load4::<F>(lv, x1, y1);
    let [l0, l1] = bilerp_pair(
        [t00[0], t10[0], t01[0], t11[0]],
        [wa[0], wa[1]],
        [wb[0], wb[1]],
    );
    let [l2, l3] = bilerp_pair(
        [t00[1], t10[1], t01[1], t11[1]],
        [wa[2], wa[3]],
        [wb[2], wb[3]],
    );
    Some([l0, l1, l2, l3])
}

#[cfg(test)]
thread_local! {
    /// Levels `bilerp_rgba8_rows` filtered (the tests check both row paths are taken).
    pub(super) static ROW_HITS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The byte offsets of each lane's texels (x0, y0) and (x0, y1) when every active lane's
/// footprint has adjacent columns (x1 = x0 + 1 after wrapping: not across a REPEAT seam
/// or a clamped edge), for `bilerp_rgba8_rows`; inactive lanes read column 0. `None`
/// otherwise, or when a dimension is past the 16-bit `madd_row` (never for GL's sizes).
#[inline(always)]
fn adjacent_rows(
    lv: &LevelLayout,
    x0: I4,
    x1: I4,
    y0: I4,
    y1: I4,
    active: I4,
) -> Option<[[usize; 4]; 2]> {
    if lv.width < 2 || lv.width > 0x7FFF || lv.height > 0x7FFF {
        return None;
    }
    let one = I4::splat(1);
    let x0 = active.select(x0, I4::splat(0));
    let x1 = active.select(x1, one);
    if !x1.eq(x0.add(one)).all() {
        return None;
    }
    let r0 = x0.madd_row(y0, lv.width).to_array();
    let r1 = x0.madd_row(y1, lv.width).to_array();
    // Non-negative (x, y < 2^15, w < 2^15): zero-extend, which x86-64 does for free.
    let bytes = |r: [i32; 4]| r.map(|o| o as u32 as usize * 4);
    Some([bytes(r0), bytes(r1)])
}

/// The bilinear blend of two lanes' 2×2 footprints (`[t00, t10, t01, t11]`, q15 lane
/// pairs) with their weight pairs along x (`wa`) and y (`wb`): the q23 RGBA of each lane.
/// A plain function, always inlined: as a closure it stayed an out-of-line call taking its
/// captures through the stack (11% of the trilinear workload, session 6).
#[inline(always)]
fn bilerp_pair(t: [Q2; 4], wa: [Wt; 2], wb: [Wt; 2]) -> [I4; 2] {
    let row0 = Q2::blend(t[0], t[1], wa[0], wa[1]);
    let row1 = Q2::blend(t[2], t[3], wa[0], wa[1]);
    Q2::blend_wide(row0, row1, wb[0], wb[1])
}

/// `filter::quad_start` for a filter that does not depend on λ: the same checks (no
/// CLAMP_TO_BORDER, small offsets) and coordinates (inactive lanes zeroed); `None` to
/// decline, `Some(None)` when no lane is active.
#[inline(always)]
fn quad_start_lod_free(d: &Descriptor, req: &TexRequest, lanes: u32) -> Option<Option<(F4, F4)>> {
    if d.wrap_s == Wrap::ClampToBorder
        || d.wrap_t == Wrap::ClampToBorder
        || req.offset[0].unsigned_abs() > FAST_OFFSET_LIMIT
        || req.offset[1].unsigned_abs() > FAST_OFFSET_LIMIT
    {
        return None;
    }
    if lanes & 0xF == 0 {
        return Some(None);
    }
    let active = I4::lane_mask(lanes);
    Some(Some((
        F4::from_bits(req.coord[0]).and_mask(active),
        F4::from_bits(req.coord[1]).and_mask(active),
    )))
}

/// The quad path: every active lane shares λ, so the plan, the weights' setup and the
/// level addressing happen once and the lanes go through SSE2 together. `false` (nothing
/// written) when it declines.
#[inline(always)]
fn sample_vector8<
    F: Texel8,
    const MAG_LINEAR: bool,
    const MIN_LINEAR: bool,
    const MIP: u8,
    const W: u8,
>(
    d: &Descriptor,
    req: &TexRequest,
    lanes: u32,
    out: &mut TexResult,
) -> bool {
    let (lam, s, t) = if MIP == MIP_NONE && MAG_LINEAR == MIN_LINEAR {
        // One filter on the base level whatever λ is (`plan` gives the same answer for
        // every λ, NaN included): no LOD to compute.
        match quad_start_lod_free(d, req, lanes) {
            None => return false,
            Some(None) => return true,
            Some(Some((s, t))) => (0.0, s, t),
        }
    } else {
        match quad_start(d, req, lanes) {
            QuadStart::Decline => return false,
            QuadStart::NoLane => return true,
            QuadStart::Go { lam, s, t } => (lam, s, t),
        }
    };
    let p = plan::<MAG_LINEAR, MIN_LINEAR, MIP>(d, lam);
    if !p.two && !p.linear {
        // NEAREST on one level: the exact f32 path's texels.
        return super::filter::sample_vector_with_plan::<F>(d, req, lanes, out, p, s, t);
    }
    let off = req.offset;
    let active = I4::lane_mask(lanes);
    let a = if p.linear {
        level_q23x4::<F, true, W>(d, p.a, s, t, off, active)
    } else {
        level_q23x4::<F, false, W>(d, p.a, s, t, off, active)
    };
    let Some(a) = a else {
        return false;
    };
    let q23 = if p.two {
        let b = if p.linear {
            level_q23x4::<F, true, W>(d, p.b, s, t, off, active)
        } else {
            level_q23x4::<F, false, W>(d, p.b, s, t, off, active)
        };
        let Some(b) = b else {
            return false;
        };
        let w = I4::splat(weight8(p.w)).weight_pairs()[0];
        let (a01, a23) = (Q2::narrow(a[0], a[1]), Q2::narrow(a[2], a[3]));
        let (b01, b23) = (Q2::narrow(b[0], b[1]), Q2::narrow(b[2], b[3]));
        let [l0, l1] = Q2::blend_wide(a01, b01, w, w);
        let [l2, l3] = Q2::blend_wide(a23, b23, w, w);
        [l0, l1, l2, l3]
    } else {
        a
    };
    let one = F4::splat(RESULT_ONE as f32);
    let res = transpose_f4(q23.map(|v| v.to_f4().div(one)));
    for (c, v) in res.iter().enumerate() {
        let bits = v.to_bits();
        if lanes & 0xF == 0xF {
            out[c] = bits;
        } else {
            for lane in (0..4).filter(|l| lanes & (1 << l) != 0) {
                out[c][lane] = bits[lane];
            }
        }
    }
    true
}

/// The routine descriptors of these formats get: the quad path, or the lanes.
fn sample_quad8<
    F: Texel8,
    const MAG_LINEAR: bool,
    const MIN_LINEAR: bool,
    const MIP: u8,
    const W: u8,
>(
    d: &Descriptor,
    req: &TexRequest,
    lanes: u32,
    out: &mut TexResult,
) {
    if sample_vector8::<F, MAG_LINEAR, MIN_LINEAR, MIP, W>(d, req, lanes, out) {
        #[cfg(test)]
        super::filter::VECTOR_HITS.with(|c| c.set(c.get() + 1));
    } else {
        sample_lanes8::<F, MAG_LINEAR, MIN_LINEAR, MIP>(d, req, lanes, out);
    }
}

/// The sample routine for format `F`, filters (mag linear, min linear, mip mode) and the
/// wrap pair on a base of size `base`: the quad path (`fast`) or the lanes alone.
pub(super) fn select8<F: Texel8>(
    filters: (bool, bool, u8),
    wraps: (Wrap, Wrap),
    base: [u32; 2],
    fast: bool,
) -> SampleFn {
    macro_rules! pick {
        ($mag:literal, $min:literal, $mip:expr) => {
            if !fast {
                sample_lanes8::<F, $mag, $min, $mip>
            } else {
                match wrap_kind(wraps.0, wraps.1, base) {
                    WRAP_REPEAT_POT => sample_quad8::<F, $mag, $min, $mip, WRAP_REPEAT_POT>,
                    WRAP_CLAMP => sample_quad8::<F, $mag, $min, $mip, WRAP_CLAMP>,
                    _ => sample_quad8::<F, $mag, $min, $mip, WRAP_ANY>,
                }
            }
        };
    }
    match filters {
        (false, false, MIP_NONE) => pick!(false, false, MIP_NONE),
        (false, false, MIP_NEAREST) => pick!(false, false, MIP_NEAREST),
        (false, false, _) => pick!(false, false, MIP_LINEAR),
        (false, true, MIP_NONE) => pick!(false, true, MIP_NONE),
        (false, true, MIP_NEAREST) => pick!(false, true, MIP_NEAREST),
        (false, true, _) => pick!(false, true, MIP_LINEAR),
        (true, false, MIP_NONE) => pick!(true, false, MIP_NONE),
        (true, false, MIP_NEAREST) => pick!(true, false, MIP_NEAREST),
        (true, false, _) => pick!(true, false, MIP_LINEAR),
        (true, true, MIP_NONE) => pick!(true, true, MIP_NONE),
        (true, true, MIP_NEAREST) => pick!(true, true, MIP_NEAREST),
        (true, true, _) => pick!(true, true, MIP_LINEAR),
    }
}

/// Formats served here.
pub(super) fn select_for_format(
    format: super::image::Format,
    filters: (bool, bool, u8),
    wraps: (Wrap, Wrap),
    base: [u32; 2],
    fast: bool,
) -> Option<SampleFn> {
    use super::image::Format;
    match format {
        Format::Rgba8 => Some(select8::<LoadRgba8>(filters, wraps, base, fast)),
        Format::Srgb8Alpha8 => Some(select8::<LoadSrgb8Alpha8>(filters, wraps, base, fast)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::descriptor::Descriptor;
    use super::super::image::{Format, Image};
    use super::super::mipmap::with_generated_mipmaps;
    use super::super::{SamplerState, TextureView};
    use super::*;
    use crate::gl::{MagFilter, MinFilter};
    use crate::sampler::request::TexOp;
    use std::sync::Arc;

    #[test]
    fn weights_round_half_up_in_eighths_of_a_texel() {
        assert_eq!(weight8(0.0), 0);
        assert_eq!(weight8(0.5), 128);
        assert_eq!(weight8(0.25), 64);
        assert_eq!(weight8(1.0 / 512.0), 1); // exactly half a step: up
        assert_eq!(weight8(1.0 / 512.0 - 1e-7), 0);
        assert_eq!(weight8(3.0 / 512.0), 2);
        assert_eq!(weight8(1.0f32.next_down()), 256);
        assert_eq!(weight8(511.0 / 512.0), 256);
        assert_eq!(weight8(510.9 / 512.0), 255);
        // Every weight is round(f·256) and the vector form agrees.
        for k in 0..=4096u32 {
            let f = k as f32 / 4097.0;
            let w = weight8(f);
            assert!((w as f64 - f as f64 * 256.0).abs() <= 0.5, "{f}");
            let v = weight8x4(F4::splat(f)).to_array();
            assert_eq!(v, [w; 4]);
        }
    }

    #[test]
    fn whole_texels_come_out_exactly_as_the_f32_path() {
        // A texel at weight 0 or 256, or a constant region, is c·32768 / (255·32768): the
        // correctly rounded c/255, as `unorm8_to_f32` gives.
        for c in 0..=255 {
            let q = c * 128;
            for w in [0, 1, 77, 128, 255, 256] {
                let row = narrow(blend_wide(q, q, w));
                assert_eq!(row, q);
                let v = unit(blend_wide(row, row, w));
                assert_eq!(v.to_bits(), (c as f32 / 255.0).to_bits(), "{c} {w}");
            }
            assert_eq!(unit(blend_wide(q, 0, 0)), c as f32 / 255.0);
            assert_eq!(unit(blend_wide(0, q, 256)), c as f32 / 255.0);
        }
    }

    #[test]
    fn srgb_table_is_the_rounded_decode() {
        assert_eq!(SRGB_Q15[0], 0);
        assert_eq!(SRGB_Q15[255] as i32, TEXEL_ONE);
        for c in 0..256 {
            let exact = f32::from_bits(SRGB_DECODE_BITS[c]) as f64 * TEXEL_ONE as f64;
            assert!((SRGB_Q15[c] as f64 - exact).abs() <= 0.5, "{c}");
            if c > 0 {
                assert!(SRGB_Q15[c] > SRGB_Q15[c - 1], "{c}");
            }
        }
        // Dark codes keep ≥ 12 bits: code 1 is ~10 steps, not 0.
        assert!(SRGB_Q15[1] >= 9);
    }

    #[test]
    fn lane_pairs_match_the_scalar_steps() {
        let mut x = 0x9E37_79B9u32;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        for _ in 0..2000 {
            let a: [u32; 4] = [next(), next(), next(), next()];
            let b: [u32; 4] = [next(), next(), next(), next()];
            let w = [next() % 257, next() % 257, next() % 257, next() % 257].map(|v| v as i32);
            let wp = I4::new(w).weight_pairs();
            let (qa, qb) = (LoadSrgb8Alpha8::q15x4(a), LoadSrgb8Alpha8::q15x4(b));
            let (ra, rb) = (LoadRgba8::q15x4(a), LoadRgba8::q15x4(b));
            for p in 0..2 {
                for (fa, fb, sa, sb) in [
                    (
                        qa[p],
                        qb[p],
                        LoadSrgb8Alpha8::q15 as fn(u32) -> [i32; 4],
                        true,
                    ),
                    (ra[p], rb[p], LoadRgba8::q15 as fn(u32) -> [i32; 4], false),
                ] {
                    let _ = sb;
                    let lanes = [2 * p, 2 * p + 1];
                    let wide = Q2::blend_wide(fa, fb, wp[lanes[0]], wp[lanes[1]]);
                    let nar = Q2::narrow(wide[0], wide[1]).widen();
                    for (k, &l) in lanes.iter().enumerate() {
                        let (ta, tb) = (sa(a[l]), sa(b[l]));
                        let want: [i32; 4] = [0, 1, 2, 3].map(|c| blend_wide(ta[c], tb[c], w[l]));
                        assert_eq!(wide[k].to_array(), want);
                        assert_eq!(nar[k].to_array(), want.map(|v| narrow(v) << 8));
                    }
                }
            }
        }
    }

    /// The 8-byte row path (`bilerp_rgba8_rows`) against the lanes, bit for bit, on
    /// sizes, wraps and offsets where footprints do and do not straddle a seam or an
    /// edge, with partial masks; both row paths must have run.
    #[test]
    fn adjacent_rows_match_the_lanes_bit_for_bit() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let before = ROW_HITS.with(|c| c.get());
        let mut general = 0;
        for (w, h) in [(2u32, 2u32), (3, 5), (16, 16), (17, 9), (64, 32), (1, 8)] {
            let mut bytes = vec![0u8; (w * h * 4) as usize];
            bytes.iter_mut().for_each(|b| *b = (next() >> 24) as u8);
            let mut img = Image::new(w, h, Format::Rgba8);
            img.write_bytes(0, &bytes);
            let view = with_generated_mipmaps(&TextureView {
                levels: vec![Some(Arc::new(img))],
                base_level: 0,
                max_level: 1000,
                kind: Default::default(),
            });
            for wrap in [Wrap::Repeat, Wrap::ClampToEdge, Wrap::MirroredRepeat] {
                for (min, mag) in [
                    (MinFilter::LinearMipmapLinear, MagFilter::Linear),
                    (MinFilter::Linear, MagFilter::Linear),
                    (MinFilter::LinearMipmapNearest, MagFilter::Nearest),
                ] {
                    let st = SamplerState {
                        min_filter: min,
                        mag_filter: mag,
                        wrap_s: wrap,
                        wrap_t: wrap,
                        ..SamplerState::default()
                    };
                    let (fast, _k1) = Descriptor::build(&view, &st, true);
                    let (lanes, _k2) = Descriptor::build(&view, &st, false);
                    for k in 0..400 {
                        let v = next();
                        let r = |sh: u32| ((v >> sh) & 0xFFFF) as f32 / 65536.0;
                        let (s, t) = (r(0) * 4.0 - 1.5, r(16) * 4.0 - 1.5);
                        let (dx, dy) = (r(32) * 0.3 - 0.1, r(48) * 0.3 - 0.1);
                        let mut req = TexRequest {
                            op: TexOp::SampleImplicit as u32,
                            mask: 0xF,
                            quad: 1,
                            offset: [0, 0],
                            compare: 0,
                            handle_lo: [0; 4],
                            handle_hi: [0; 4],
                            coord: [
                                [s, s + dx, s, s + dx].map(f32::to_bits),
                                [t, t, t + dy, t + dy].map(f32::to_bits),
                            ],
                            lod: [0; 4],
                            dref: [0; 4],
                            layer: [0; 4],
                            cube_layer: [0; 4],
                            data: [[0; 4]; 4],
                        };
                        if k % 5 == 1 {
                            req.offset = [(next() % 7) as i32 - 3, (next() % 7) as i32 - 3];
                        }
                        let mask = if k % 3 == 2 {
                            (next() % 15 + 1) as u32
                        } else {
                            0xF
                        };
                        let before_rows = ROW_HITS.with(|c| c.get());
                        let (mut a, mut b) = ([[0xDEAD_BEEFu32; 4]; 4], [[0xDEAD_BEEFu32; 4]; 4]);
                        (fast.sample)(&fast, &req, mask, &mut a);
                        (lanes.sample)(&lanes, &req, mask, &mut b);
                        assert_eq!(a, b, "{w}x{h} {wrap:?} {min:?} {req:?} mask {mask:#x}");
                        if ROW_HITS.with(|c| c.get()) == before_rows {
                            general += 1;
                        }
                    }
                }
            }
        }
        let rows = ROW_HITS.with(|c| c.get()) - before;
        assert!(rows > 5000, "row path ran {rows} times");
        assert!(general > 1000, "general path ran {general} times");
    }

    // ---- The bound against an exact filter. ----

    fn noise_level(format: Format, w: u32, h: u32, seed: &mut u64, smooth: bool) -> Image {
        let mut bytes = Vec::with_capacity((w * h * 4) as usize);
        for y in 0..h {
            for x in 0..w {
                for c in 0..4u32 {
                    *seed ^= *seed << 13;
                    *seed ^= *seed >> 7;
                    *seed ^= *seed << 17;
                    // A triangle wave periodic over the 32×16 base (no seam under
                    // REPEAT): neighbours differ by at most 16 codes.
                    let tri = |k: u32| {
                        if k % 512 < 256 {
                            k % 512
                        } else {
                            511 - k % 512
                        }
                    };
                    bytes.push(if smooth {
                        ((tri(x * 16 + c * 128) + tri(y * 32 + c * 64)) / 2) as u8
                    } else {
                        (*seed >> 24) as u8
                    });
                }
            }
        }
        let mut img = Image::new(w, h, format);
        img.write_bytes(0, &bytes);
        img
    }

    /// The texel GL specifies, in f64: c/255, or the sRGB decode (the exact table).
    fn texel_f64(d: &Descriptor, level: u32, x: u32, y: u32, srgb: bool) -> [f64; 4] {
        let t = load_bits(&d.levels[level as usize], x, y);
        let c = |sh: u32| ((t >> sh) & 0xFF) as usize;
        let dec = |i: usize| {
            if srgb {
                f32::from_bits(SRGB_DECODE_BITS[i]) as f64
            } else {
                i as f64 / 255.0
            }
        };
        [dec(c(0)), dec(c(8)), dec(c(16)), c(24) as f64 / 255.0]
    }

    /// Bilinear filtering of one level in f64; `q` quantizes each weight (identity for the
    /// exact filter, `weight8 / 256` for the same-weights one).
    fn bilinear_f64(
        d: &Descriptor,
        level: u32,
        s: f32,
        t: f32,
        srgb: bool,
        q: &dyn Fn(f32) -> f64,
    ) -> [f64; 4] {
        let lv = &d.levels[level as usize];
        let (iu, a) = split(s * lv.width as f32 - 0.5);
        let (jv, b) = split(t * lv.height as f32 - 0.5);
        let (a, b) = (q(a), q(b));
        let xs = [iu, iu + 1].map(|i| wrap(i, lv.width, d.wrap_s).unwrap());
        let ys = [jv, jv + 1].map(|j| wrap(j, lv.height, d.wrap_t).unwrap());
        let tx = |i: usize, j: usize| texel_f64(d, level, xs[i], ys[j], srgb);
        let (t00, t10, t01, t11) = (tx(0, 0), tx(1, 0), tx(0, 1), tx(1, 1));
        [0, 1, 2, 3].map(|c| {
            let r0 = t00[c] * (1.0 - a) + t10[c] * a;
            let r1 = t01[c] * (1.0 - a) + t11[c] * a;
            r0 * (1.0 - b) + r1 * b
        })
    }

    /// Largest |softgl − f64 filter| over random trilinear and bilinear lookups, against
    /// the exact filter and against the filter with the same 8-bit weights.
    fn worst_errors(format: Format, smooth: bool) -> (f64, f64, f64) {
        let srgb = format == Format::Srgb8Alpha8;
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let base = noise_level(format, 32, 16, &mut seed, smooth);
        let view = with_generated_mipmaps(&TextureView {
            levels: vec![Some(Arc::new(base))],
            base_level: 0,
            max_level: 1000,
            kind: Default::default(),
        });
        let (mut same_w, mut exact_bi, mut exact_tri) = (0.0f64, 0.0f64, 0.0f64);
        for wrap in [Wrap::Repeat, Wrap::ClampToEdge, Wrap::MirroredRepeat] {
            let st = SamplerState {
                min_filter: MinFilter::LinearMipmapLinear,
                mag_filter: MagFilter::Linear,
                wrap_s: wrap,
                wrap_t: wrap,
                ..SamplerState::default()
            };
            let (d, _keep) = Descriptor::build(&view, &st, true);
            for k in 0..3000u32 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let r = |sh: u32| ((seed >> sh) & 0xFFFF) as f32 / 65536.0;
                let (s, t) = (r(0) * 3.0 - 1.0, r(16) * 3.0 - 1.0);
                // λ in [0, 4]: a blend of levels ⌊λ⌋ and ⌊λ⌋ + 1 (the chain has 6).
                let lam = r(32) * 4.0;
                let mut req = TexRequest {
                    op: TexOp::SampleLod as u32,
                    mask: 0xF,
                    quad: 0,
                    offset: [0, 0],
                    compare: 0,
                    handle_lo: [0; 4],
                    handle_hi: [0; 4],
                    coord: [[s.to_bits(); 4], [t.to_bits(); 4]],
                    lod: [lam.to_bits(); 4],
                    dref: [0; 4],
                    layer: [0; 4],
                    cube_layer: [0; 4],
                    data: [[0; 4]; 4],
                };
                // Every other request goes lane by lane (per-lane λ), the rest through
                // the quad path: both are bounded.
                if k % 2 == 1 {
                    req.lod[3] = 0.0f32.to_bits();
                }
                let mut out = [[0u32; 4]; 4];
                (d.sample)(&d, &req, 0xF, &mut out);
                let got = |out: &TexResult, c: usize| f32::from_bits(out[c][0]) as f64;
                let (l0, w) = (lam.floor() as u32, lam - lam.floor());
                let q8 = |f: f32| weight8(f) as f64 / 256.0;
                let exact = |f: f32| f as f64;
                let tri = |q: &dyn Fn(f32) -> f64| {
                    let a = bilinear_f64(&d, l0, s, t, srgb, q);
                    let b = bilinear_f64(&d, l0 + 1, s, t, srgb, q);
                    let w = q(w);
                    [0, 1, 2, 3].map(|c| a[c] * (1.0 - w) + b[c] * w)
                };
                let (same, ex) = (tri(&q8), tri(&exact));
                for c in 0..4 {
                    same_w = same_w.max((got(&out, c) - same[c]).abs());
                    exact_tri = exact_tri.max((got(&out, c) - ex[c]).abs());
                }
                // Bilinear alone: magnification (λ = 0) on the base level.
                req.lod = [0.0f32.to_bits(); 4];
                (d.sample)(&d, &req, 0xF, &mut out);
                let ex = bilinear_f64(&d, 0, s, t, srgb, &exact);
                let same = bilinear_f64(&d, 0, s, t, srgb, &q8);
                for c in 0..4 {
                    same_w = same_w.max((got(&out, c) - same[c]).abs());
                    exact_bi = exact_bi.max((got(&out, c) - ex[c]).abs());
                }
            }
        }
        (same_w, exact_bi, exact_tri)
    }

    /// The integer filter against f64 ones: with the same 8-bit weights it is off by its
    /// roundings only (q15 rows and mip levels, the 15-bit sRGB decode: < 2^-14); against
    /// exact weights each weight step adds at most half a step (1/512) times the texel
    /// contrast (≤ 1): bilinear ≤ 2/512 + 2^-14, within one 8-bit step (1/255), trilinear
    /// ≤ 3/512 + 2^-14 (1.5 steps) in the worst case. Smooth images are far inside that.
    #[test]
    fn integer_filter_is_within_a_step_of_the_exact_one() {
        for format in [Format::Rgba8, Format::Srgb8Alpha8] {
            let (same, bi, tri) = worst_errors(format, false);
            let slack = 1.0 / 16384.0;
            assert!(same < slack, "{format:?}: {same}");
            assert!(
                bi <= 2.0 / 512.0 + slack && bi <= 1.0 / 255.0,
                "{format:?}: {bi}"
            );
            assert!(tri <= 3.0 / 512.0 + slack, "{format:?}: {tri}");
            // A smooth image (neighbours 16 codes apart on the base, 32 and 64 on the
            // next levels, more in linear for sRGB near white) stays within half a step.
            let (_, bi, tri) = worst_errors(format, true);
            assert!(bi.max(tri) < 0.5 / 255.0, "{format:?}: smooth {bi} {tri}");
        }
    }
}
