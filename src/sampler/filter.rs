//! The texture routines a descriptor points to (GL 4.5 core §8.14 filtering and LOD,
//! §11.1.3.2 texelFetch, textureSize): monomorphized per format and per filter choice, and
//! picked by `select_*` when the descriptor is created.
//!
//! Float, depth, R8 and RG8 formats: plain f32 in a fixed operation order, never fused:
//! bilinear weights are the exact fractions of the texel-space coordinate, interpolation is
//! `a + t·(b − a)` so a constant region stays exactly constant. RGBA8 and SRGB8_ALPHA8 filter
//! in integer lanes with 8-bit weights instead (`filter8.rs`, issue #9); they share the λ,
//! the level plan (`plan`) and the NEAREST path with this file. λ is computed once per quad
//! in f32 (`lod.rs`, our own log2).
//!
//! Two paths, chosen per request (issue #2):
//! - **Quad path** (`sample_quad` → `sample_vector`): when every active lane ends with the
//!   same λ — implicit LOD with one bias for the quad, or one explicit LOD — the level plan
//!   (`plan`) is made once and the 4 lanes go through coordinate scaling, floor/fraction,
//!   wrap, texel decode and the lerps together in `simd::F4`/`I4` vectors (SSE2 on x86-64;
//!   RGBA8 decodes by integer unpack + one division per channel). The result lands in
//!   `out[component][lane]`, which is already lane-major.
//! - **Reference** (`sample_lanes` → `sample_at`, unchanged): lane by lane, for everything
//!   the quad path declines — lanes with different λ, CLAMP_TO_BORDER, texel-space
//!   coordinates of magnitude ≥ 2^22 or non-finite, textureOffset beyond ±2^20.
//!
//! The quad path performs the reference's IEEE operations in the reference's order on each
//! lane (no FMA, no reciprocal estimates), so results are bit-identical;
//! `sampler::tests::differential` checks that over random formats, sizes, level chains,
//! filters, wraps, LOD state and coordinates (NaN, ∞ and huge ones included). One caveat:
//! where two NaN texels of a float format meet, the result is NaN on both paths but its
//! payload may differ — Rust does not fix NaN payloads (RFC 3514), so neither does the
//! reference.
//!
//! Measured (`cargo bench --bench sampler`, trilinear RGBA8 fill 1024², 2 threads on a
//! shared 2-core machine, so indicative only), the two runs back to back at a load average
//! near 3: reference 108.4 ms per frame, quad path 86.1 ms (−21%). Issue #9 then moved
//! RGBA8/sRGB to `filter8.rs` and λ to `lod.rs`: see `filter8.rs` for its figures.

use super::descriptor::{Descriptor, LevelLayout, Wrap, MAX_LEVELS, MAX_TEXTURE_LOD_BIAS};
use super::filter8;
use super::format::{
    LoadD24S8, LoadD32F, LoadInt, LoadR32F, LoadR8, LoadRg8, LoadRgb10A2ui, LoadRgba16F,
    LoadRgba32F, LoadRgba8, LoadSnorm, LoadSrgb8Alpha8, TexelLoad,
};
use super::image::{Format, IntFormat};
use super::lod::implicit_lambda;
use super::mipmap::{max_mip_level, mip_size};
use super::simd::{lerp, split4, F4, I4};
use crate::gl::enums as gl;
use crate::gl::{MagFilter, MinFilter};
use crate::sampler::request::{TexOp, TexRequest, TexResult};
use crate::sampler::SamplerState;

use super::descriptor::{FetchFn, SampleFn};

/// Mipmap modes, as const-generic parameters.
pub(super) const MIP_NONE: u8 = 0;
pub(super) const MIP_NEAREST: u8 = 1;
pub(super) const MIP_LINEAR: u8 = 2;

/// Texel-space coordinates beyond ±2^40 are clamped before the integer conversion: no
/// texture is that large, and it keeps `+ offset` and `+ 1` far from overflow.
const COORD_LIMIT: f32 = (1u64 << 40) as f32;

/// (floor(x), x − floor(x)) without calling `floorf` (a libm call on baseline x86-64):
/// truncate, then step down when truncation rounded up. x is first clamped to ±2^40; NaN
/// gives (0, 0). The fraction is exact (both operands are multiples of ulp(x)) and lies in
/// [0, 1); it is 0 for |x| ≥ 2^23, where every f32 is an integer.
#[inline(always)]
pub(super) fn split(x: f32) -> (i64, f32) {
    let c = x.clamp(-COORD_LIMIT, COORD_LIMIT);
    let t = c as i64; // NaN → 0
    let i = if (t as f32) > c { t - 1 } else { t };
    let f = c - i as f32;
    (i, if (0.0..1.0).contains(&f) { f } else { 0.0 })
}

/// floor(x) as an integer (see `split`).
#[inline(always)]
fn floor_i64(x: f32) -> i64 {
    split(x).0
}

/// Fractional part in [0, 1) (see `split`); NaN and infinities give 0.
#[inline(always)]
fn frac(x: f32) -> f32 {
    split(x).1
}

/// mirror(a) of GL 4.5 core eq. 8.10.
#[inline(always)]
fn mirror(a: i64) -> i64 {
    if a >= 0 {
        a
    } else {
        -(1 + a)
    }
}

/// Wraps integer texel coordinate `i` into [0, size) (GL 4.5 core table 8.20), or `None`
/// for a border texel.
#[inline(always)]
pub(super) fn wrap(i: i64, size: u32, mode: Wrap) -> Option<u32> {
    let n = size as i64;
    // Fast path: coordinates already inside the texture are the same under every mode
    // (saves a 64-bit division per texel, the largest cost of a bilinear tap).
    if (i as u64) < n as u64 {
        return Some(i as u32);
    }
    let v = match mode {
        // Two's complement makes the mask a Euclidean remainder for powers of two.
        Wrap::Repeat if size.is_power_of_two() => i & (n - 1),
        Wrap::Repeat => i.rem_euclid(n),
        Wrap::MirroredRepeat => (n - 1) - mirror(i.rem_euclid(2 * n) - n),
        Wrap::ClampToEdge => i.clamp(0, n - 1),
        Wrap::ClampToBorder => {
            if i < 0 || i >= n {
                return None;
            }
            i
        }
        Wrap::MirrorClampToEdge => mirror(i).clamp(0, n - 1),
    };
    Some(v as u32)
}

/// Loads texel (x, y) of `lv`, which the caller has wrapped into range.
#[inline(always)]
pub(super) fn load<F: TexelLoad>(lv: &LevelLayout, x: u32, y: u32) -> [f32; 4] {
    debug_assert!(x < lv.width && y < lv.height && !lv.ptr.is_null());
    let off = (y as usize * lv.width as usize + x as usize) * F::FORMAT.bytes_per_texel();
    // SAFETY: x < width and y < height (every caller wraps or bounds-checks first), so the
    // texel lies inside the level's `width × height × bpt` bytes; the table keeps the image
    // alive while the reading thread is pinned (epoch.rs), and the Image protocol keeps
    // writers away while draws that read it run.
    unsafe { F::load(lv.ptr.add(off)) }
}

#[inline(always)]
fn texel_or_border<F: TexelLoad>(
    d: &Descriptor,
    lv: &LevelLayout,
    x: Option<u32>,
    y: Option<u32>,
) -> [f32; 4] {
    match (x, y) {
        (Some(x), Some(y)) => load::<F>(lv, x, y),
        _ => d.border,
    }
}

#[inline(always)]
pub(super) fn lerp4(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
    [
        a[0] + t * (b[0] - a[0]),
        a[1] + t * (b[1] - a[1]),
        a[2] + t * (b[2] - a[2]),
        a[3] + t * (b[3] - a[3]),
    ]
}

/// The texels a lookup at (s, t) of level `lv` reads (GL 4.5 core §8.14.2), wrapped (`None`:
/// the border). NEAREST: the one texel at `x[0]`, `y[0]` (the rest unused). LINEAR: the 2×2
/// block `x[0..2]` × `y[0..2]` and the weights `w` of its second column and row.
struct Footprint {
    x: [Option<u32>; 2],
    y: [Option<u32>; 2],
    w: [f32; 2],
}

#[inline(always)]
fn footprint<const LINEAR: bool>(
    d: &Descriptor,
    lv: &LevelLayout,
    s: f32,
    t: f32,
    offset: [i32; 2],
) -> Footprint {
    let u = s * lv.width as f32;
    let v = t * lv.height as f32;
    if !LINEAR {
        let i = wrap(floor_i64(u) + offset[0] as i64, lv.width, d.wrap_s);
        let j = wrap(floor_i64(v) + offset[1] as i64, lv.height, d.wrap_t);
        return Footprint {
            x: [i, None],
            y: [j, None],
            w: [0.0; 2],
        };
    }
    let (iu, a) = split(u - 0.5);
    let (jv, b) = split(v - 0.5);
    let i0 = iu + offset[0] as i64;
    let j0 = jv + offset[1] as i64;
    Footprint {
        x: [
            wrap(i0, lv.width, d.wrap_s),
            wrap(i0 + 1, lv.width, d.wrap_s),
        ],
        y: [
            wrap(j0, lv.height, d.wrap_t),
            wrap(j0 + 1, lv.height, d.wrap_t),
        ],
        w: [a, b],
    }
}

/// NEAREST or LINEAR filtering of one level (GL 4.5 core §8.14.2).
#[inline(always)]
pub(super) fn filter_level<F: TexelLoad, const LINEAR: bool>(
    d: &Descriptor,
    level: u32,
    s: f32,
    t: f32,
    offset: [i32; 2],
) -> [f32; 4] {
    let lv = &d.levels[(level as usize).min(MAX_LEVELS - 1)];
    if lv.ptr.is_null() {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let fp = footprint::<LINEAR>(d, lv, s, t, offset);
    let ([x0, x1], [y0, y1], [a, b]) = (fp.x, fp.y, fp.w);
    if !LINEAR {
        return texel_or_border::<F>(d, lv, x0, y0);
    }
    let t00 = texel_or_border::<F>(d, lv, x0, y0);
    let t10 = texel_or_border::<F>(d, lv, x1, y0);
    let t01 = texel_or_border::<F>(d, lv, x0, y1);
    let t11 = texel_or_border::<F>(d, lv, x1, y1);
    lerp4(lerp4(t00, t10, a), lerp4(t01, t11, a), b)
}

/// The final λ (GL 4.5 core eqs. 8.5–8.6): λ_base (the quad's, or the lane's explicit LOD)
/// plus the clamped sum of texture and shader bias, clamped to [min_lod, max_lod]. A NaN
/// λ_base ends as min_lod (`max` drops NaN).
#[inline(always)]
pub(super) fn final_lambda(d: &Descriptor, base: f32, shader_bias: f32) -> f32 {
    let bias = (d.lod_bias + shader_bias).clamp(-MAX_TEXTURE_LOD_BIAS, MAX_TEXTURE_LOD_BIAS);
    // max/min (not clamp): never panics when min_lod > max_lod.
    (base + bias).max(d.min_lod).min(d.max_lod)
}

/// A filtered sample of one lane at λ, specialized like `sample_lanes`.
#[inline(always)]
fn sample_at<F: TexelLoad, const MAG_LINEAR: bool, const MIN_LINEAR: bool, const MIP: u8>(
    d: &Descriptor,
    s: f32,
    t: f32,
    off: [i32; 2],
    lam: f32,
) -> [f32; 4] {
    // GL 4.5 core §8.15: λ ≤ 0 magnifies, λ > 0 minifies (NaN magnifies).
    if lam.is_nan() || lam <= 0.0 {
        return filter_level::<F, MAG_LINEAR>(d, d.base_level, s, t, off);
    }
    let base = d.base_level;
    let q = d.mip_last;
    match MIP {
        MIP_NONE => filter_level::<F, MIN_LINEAR>(d, base, s, t, off),
        MIP_NEAREST => {
            // GL 4.5 core eq. 8.13.
            let level_f = base as f32 + lam;
            let level = if lam <= 0.5 {
                base
            } else if level_f <= q as f32 + 0.5 {
                // ⌈level_f + ½⌉ − 1, with level_f + ½ > 1 here.
                let (i, f) = split(level_f + 0.5);
                if f == 0.0 {
                    (i - 1) as u32
                } else {
                    i as u32
                }
            } else {
                q
            };
            filter_level::<F, MIN_LINEAR>(d, level.min(q), s, t, off)
        }
        _ => {
            // GL 4.5 core eqs. 8.14–8.15: blend two levels, or use q past it.
            let level_f = base as f32 + lam;
            if level_f >= q as f32 {
                return filter_level::<F, MIN_LINEAR>(d, q, s, t, off);
            }
            let d1 = floor_i64(level_f) as u32;
            let w = frac(lam);
            let t1 = filter_level::<F, MIN_LINEAR>(d, d1, s, t, off);
            let t2 = filter_level::<F, MIN_LINEAR>(d, d1 + 1, s, t, off);
            lerp4(t1, t2, w)
        }
    }
}

/// Filtered samples for the lanes in `lanes`, specialized by format, mag filter, min filter
/// and mipmap mode. The quad's λ_base is computed once: every lane here shares the
/// descriptor, hence the texture size.
// `out` is indexed `[component][lane]`: a range loop over lanes is the clear form.
#[allow(clippy::needless_range_loop)]
fn sample_lanes<F: TexelLoad, const MAG_LINEAR: bool, const MIN_LINEAR: bool, const MIP: u8>(
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
        let v = sample_at::<F, MAG_LINEAR, MIN_LINEAR, MIP>(d, s, t, req.offset, lams[lane]);
        for c in 0..4 {
            out[c][lane] = v[c].to_bits();
        }
    }
}

/// The final λ of each lane in `lanes` (others 0): the quad's λ_base (computed once,
/// `lod::implicit_lambda`) plus the lane's shader bias, or the lane's explicit LOD; then
/// the texture bias and LOD clamps (`final_lambda`).
#[inline(always)]
pub(super) fn lane_lambdas(d: &Descriptor, req: &TexRequest, lanes: u32) -> [f32; 4] {
    let explicit = req.op == TexOp::SampleLod as u32;
    let quad_lambda = if explicit {
        0.0
    } else {
        implicit_lambda(d, req)
    };
    let mut lams = [0.0f32; 4];
    for (lane, lam) in lams.iter_mut().enumerate() {
        if lanes & (1 << lane) != 0 {
            let arg = f32::from_bits(req.lod[lane]);
            *lam = if explicit {
                final_lambda(d, arg, 0.0)
            } else {
                final_lambda(d, quad_lambda, arg)
            };
        }
    }
    lams
}

// ---- The quad fast path: 4 lanes at once (see the module docs). ----

/// Texel-space coordinates the vector path takes: below 2^22 in magnitude the i32 floor,
/// the `+ offset` and the `+ 1` are exact and equal the reference's i64 ones.
pub(super) const FAST_COORD_LIMIT: f32 = (1u32 << 22) as f32;

/// Largest |textureOffset| the vector path takes (GLSL's are within ±8); with
/// `FAST_COORD_LIMIT` it keeps every integer coordinate far inside i32.
pub(super) const FAST_OFFSET_LIMIT: u32 = 1 << 20;

/// What `sample_at` does for one λ: filter level `a` (LINEAR or NEAREST per `linear`),
/// and when `two`, also level `b` and blend the two with weight `w`.
#[derive(Copy, Clone, Debug)]
pub(super) struct Plan {
    pub a: u32,
    pub b: u32,
    pub w: f32,
    pub two: bool,
    pub linear: bool,
}

/// The level choice of `sample_at` for λ `lam`, in the same operations (GL 4.5 core
/// §8.14.3, §8.15; the differential test holds the two together).
#[inline(always)]
pub(super) fn plan<const MAG_LINEAR: bool, const MIN_LINEAR: bool, const MIP: u8>(
    d: &Descriptor,
    lam: f32,
) -> Plan {
    let one = |level: u32, linear: bool| Plan {
        a: level,
        b: level,
        w: 0.0,
        two: false,
        linear,
    };
    if lam.is_nan() || lam <= 0.0 {
        return one(d.base_level, MAG_LINEAR);
    }
    let base = d.base_level;
    let q = d.mip_last;
    match MIP {
        MIP_NONE => one(base, MIN_LINEAR),
        MIP_NEAREST => {
            let level_f = base as f32 + lam;
            let level = if lam <= 0.5 {
                base
            } else if level_f <= q as f32 + 0.5 {
                let (i, f) = split(level_f + 0.5);
                if f == 0.0 {
                    (i - 1) as u32
                } else {
                    i as u32
                }
            } else {
                q
            };
            one(level.min(q), MIN_LINEAR)
        }
        _ => {
            let level_f = base as f32 + lam;
            if level_f >= q as f32 {
                return one(q, MIN_LINEAR);
            }
            // 0 < λ ≤ level_f < q ≤ 15 here: truncation is the floor, and λ − ⌊λ⌋ is
            // exact, so these are `floor_i64` and `frac` without their range handling.
            let d1 = level_f as u32;
            Plan {
                a: d1,
                b: d1 + 1,
                w: lam - (lam as u32) as f32,
                two: true,
                linear: MIN_LINEAR,
            }
        }
    }
}

/// `wrap` for 4 lanes of in-range (|i| < 2^23) coordinates; never a border (the caller
/// excludes CLAMP_TO_BORDER), always in [0, n) for n ≥ 1. REPEAT on a power of two and
/// CLAMP_TO_EDGE are vector ops; the other modes go through the reference `wrap` per lane.
#[inline(always)]
pub(super) fn wrap4(i: I4, n: u32, mode: Wrap) -> I4 {
    match mode {
        Wrap::Repeat if n.is_power_of_two() => i.and(I4::splat(n as i32 - 1)),
        Wrap::ClampToEdge => {
            let (zero, hi) = (I4::splat(0), I4::splat(n as i32 - 1));
            let i = i.gt(zero).select(i, zero);
            i.gt(hi).select(hi, i)
        }
        _ => I4::new(
            i.to_array()
                .map(|x| wrap(x as i64, n, mode).unwrap_or(0) as i32),
        ),
    }
}

/// Byte offsets of texels (x[l], y[l]) of `lv`, wrapped into range by `wrap4`.
#[inline(always)]
pub(super) fn offsets4<F: TexelLoad>(lv: &LevelLayout, x: I4, y: I4) -> [usize; 4] {
    let (x, y) = (x.to_array(), y.to_array());
    let (w, bpt) = (lv.width as usize, F::FORMAT.bytes_per_texel());
    let at = |l: usize| {
        debug_assert!((x[l] as u32) < lv.width && (y[l] as u32) < lv.height);
        (y[l] as usize * w + x[l] as usize) * bpt
    };
    [at(0), at(1), at(2), at(3)]
}

/// Loads 4 texels of `lv` (one per lane) as channel vectors.
#[inline(always)]
fn load4<F: TexelLoad>(lv: &LevelLayout, x: I4, y: I4) -> [F4; 4] {
    let offs = offsets4::<F>(lv, x, y);
    // SAFETY: `wrap4` put every x in [0, width) and y in [0, height), so each texel lies
    // inside the level's `width × height × bpt` bytes, kept alive and unwritten as in `load`.
    unsafe { F::load4(lv.ptr, offs) }
}

/// Where the 4 lanes of a quad fall in one level, as both quad paths (this f32 one and
/// `filter8`'s integer one) start: the unwrapped integer texel of each lane (`offset`
/// added; for LINEAR the lower-left of its 2×2 footprint) and the fractions `a`, `b`.
pub(super) enum QuadTexels<'a> {
    /// The level has no image: every lane reads (0, 0, 0, 1).
    Unbound,
    /// A zero dimension, or a coordinate outside `FAST_COORD_LIMIT` (NaN, ±∞, huge): the
    /// caller runs the reference.
    Slow,
    At {
        lv: &'a LevelLayout,
        i0: I4,
        j0: I4,
        a: F4,
        b: F4,
    },
}

#[inline(always)]
pub(super) fn quad_texels<const LINEAR: bool>(
    d: &Descriptor,
    level: u32,
    s: F4,
    t: F4,
    off: [i32; 2],
) -> QuadTexels<'_> {
    let lv = &d.levels[(level as usize).min(MAX_LEVELS - 1)];
    if lv.ptr.is_null() {
        return QuadTexels::Unbound;
    }
    if lv.width == 0 || lv.height == 0 {
        return QuadTexels::Slow;
    }
    let u = s.mul(F4::splat(lv.width as f32));
    let v = t.mul(F4::splat(lv.height as f32));
    let (u, v) = if LINEAR {
        let half = F4::splat(0.5);
        (u.sub(half), v.sub(half))
    } else {
        (u, v)
    };
    let lim = F4::splat(FAST_COORD_LIMIT);
    if !u.abs().lt(lim).and(v.abs().lt(lim)).all() {
        return QuadTexels::Slow;
    }
    let (iu, a) = split4(u);
    let (jv, b) = split4(v);
    QuadTexels::At {
        lv,
        i0: iu.add(I4::splat(off[0])),
        j0: jv.add(I4::splat(off[1])),
        a,
        b,
    }
}

/// `filter_level` for 4 lanes, or `None` when a lane's texel-space coordinate is outside
/// `FAST_COORD_LIMIT` (NaN, ±∞, huge) or the level has a zero dimension: the caller then
/// runs the reference for the whole request.
#[inline(always)]
fn filter_level4<F: TexelLoad, const LINEAR: bool>(
    d: &Descriptor,
    level: u32,
    s: F4,
    t: F4,
    off: [i32; 2],
) -> Option<[F4; 4]> {
    let (lv, i0, j0, a, b) = match quad_texels::<LINEAR>(d, level, s, t, off) {
        QuadTexels::Unbound => return Some([0.0, 0.0, 0.0, 1.0].map(F4::splat)),
        QuadTexels::Slow => return None,
        QuadTexels::At { lv, i0, j0, a, b } => (lv, i0, j0, a, b),
    };
    let x0 = wrap4(i0, lv.width, d.wrap_s);
    let y0 = wrap4(j0, lv.height, d.wrap_t);
    if !LINEAR {
        return Some(load4::<F>(lv, x0, y0));
    }
    let x1 = wrap4(i0.add(I4::splat(1)), lv.width, d.wrap_s);
    let y1 = wrap4(j0.add(I4::splat(1)), lv.height, d.wrap_t);
    let t00 = load4::<F>(lv, x0, y0);
    let t10 = load4::<F>(lv, x1, y0);
    let t01 = load4::<F>(lv, x0, y1);
    let t11 = load4::<F>(lv, x1, y1);
    let bl = |c: usize| lerp(lerp(t00[c], t10[c], a), lerp(t01[c], t11[c], a), b);
    Some([bl(0), bl(1), bl(2), bl(3)])
}

/// How a quad path starts (see `quad_start`).
pub(super) enum QuadStart {
    /// The request needs the lane-by-lane reference.
    Decline,
    /// No active lane: nothing to write.
    NoLane,
    /// Every active lane has λ `lam`; `s`, `t` are the coordinates, with inactive lanes
    /// zeroed (they filter at (0, 0), always in range, and are never written).
    Go { lam: f32, s: F4, t: F4 },
}

/// The checks and λ every quad path shares: the wraps are not CLAMP_TO_BORDER, the offsets
/// are small, and every active lane has the same λ (the implicit-LOD case without per-lane
/// bias, and uniform explicit LODs).
#[inline(always)]
pub(super) fn quad_start(d: &Descriptor, req: &TexRequest, lanes: u32) -> QuadStart {
    if d.wrap_s == Wrap::ClampToBorder
        || d.wrap_t == Wrap::ClampToBorder
        || req.offset[0].unsigned_abs() > FAST_OFFSET_LIMIT
        || req.offset[1].unsigned_abs() > FAST_OFFSET_LIMIT
    {
        return QuadStart::Decline;
    }
    if lanes & 0xF == 0 {
        return QuadStart::NoLane;
    }
    let first = lanes.trailing_zeros() as usize;
    let arg_bits = req.lod[first];
    let active = I4::lane_mask(lanes);
    // Lanes whose bias (or LOD) has the bits of the first active lane's, as a mask.
    let same = I4::new(req.lod.map(|b| b as i32)).eq(I4::splat(arg_bits as i32));
    let lam = if (same.bits() | !lanes) & 0xF == 0xF {
        // One bias (or explicit LOD) for the quad, the usual case: λ once. Equal inputs
        // give equal bits, so this is `lane_lambdas` without the repeats.
        let arg = f32::from_bits(arg_bits);
        if req.op == TexOp::SampleLod as u32 {
            final_lambda(d, arg, 0.0)
        } else {
            final_lambda(d, implicit_lambda(d, req), arg)
        }
    } else {
        let lams = lane_lambdas(d, req, lanes);
        let lam = lams[first];
        if (0..4).any(|l| lanes & (1 << l) != 0 && lams[l].to_bits() != lam.to_bits()) {
            return QuadStart::Decline;
        }
        lam
    };
    QuadStart::Go {
        lam,
        s: F4::from_bits(req.coord[0]).and_mask(active),
        t: F4::from_bits(req.coord[1]).and_mask(active),
    }
}

/// `sample_lanes` for the whole quad at once when every active lane has the same λ (the
/// implicit-LOD case without per-lane bias, and uniform explicit LODs), the wraps are not
/// CLAMP_TO_BORDER and the coordinates are in range; `false` (nothing written) otherwise.
#[inline(always)]
fn sample_vector<F: TexelLoad, const MAG_LINEAR: bool, const MIN_LINEAR: bool, const MIP: u8>(
    d: &Descriptor,
    req: &TexRequest,
    lanes: u32,
    out: &mut TexResult,
) -> bool {
    let (lam, s, t) = match quad_start(d, req, lanes) {
        QuadStart::Decline => return false,
        QuadStart::NoLane => return true,
        QuadStart::Go { lam, s, t } => (lam, s, t),
    };
    let p = plan::<MAG_LINEAR, MIN_LINEAR, MIP>(d, lam);
    sample_vector_with_plan::<F>(d, req, lanes, out, p, s, t)
}

/// The f32 quad path once the plan is made: `s`, `t` are the coordinates of
/// `quad_start`. `false` (nothing written) when a coordinate is out of range.
#[inline(always)]
pub(super) fn sample_vector_with_plan<F: TexelLoad>(
    d: &Descriptor,
    req: &TexRequest,
    lanes: u32,
    out: &mut TexResult,
    p: Plan,
    s: F4,
    t: F4,
) -> bool {
    let level = |l: u32| {
        if p.linear {
            filter_level4::<F, true>(d, l, s, t, req.offset)
        } else {
            filter_level4::<F, false>(d, l, s, t, req.offset)
        }
    };
    let Some(ta) = level(p.a) else {
        return false;
    };
    let res = if p.two {
        let Some(tb) = level(p.b) else {
            return false;
        };
        let w = F4::splat(p.w);
        [
            lerp(ta[0], tb[0], w),
            lerp(ta[1], tb[1], w),
            lerp(ta[2], tb[2], w),
            lerp(ta[3], tb[3], w),
        ]
    } else {
        ta
    };
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

/// The routine descriptors get: the quad vector path, or the lane-by-lane reference
/// (`sample_lanes`) for what the vector path does not take.
fn sample_quad<F: TexelLoad, const MAG_LINEAR: bool, const MIN_LINEAR: bool, const MIP: u8>(
    d: &Descriptor,
    req: &TexRequest,
    lanes: u32,
    out: &mut TexResult,
) {
    if sample_vector::<F, MAG_LINEAR, MIN_LINEAR, MIP>(d, req, lanes, out) {
        #[cfg(test)]
        VECTOR_HITS.with(|c| c.set(c.get() + 1));
    } else {
        sample_lanes::<F, MAG_LINEAR, MIN_LINEAR, MIP>(d, req, lanes, out);
    }
}

#[cfg(test)]
thread_local! {
    /// Requests the quad path served on this thread: the differential tests check that
    /// they exercise it, not only the fallback.
    pub(crate) static VECTOR_HITS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// An incomplete texture samples as (0, 0, 0, 1) (GL 4.5 core §11.1.3.5).
pub(crate) fn sample_incomplete(_: &Descriptor, _: &TexRequest, lanes: u32, out: &mut TexResult) {
    for lane in (0..4).filter(|l| lanes & (1 << l) != 0) {
        out[0][lane] = 0;
        out[1][lane] = 0;
        out[2][lane] = 0;
        out[3][lane] = 1.0f32.to_bits();
    }
}

/// An incomplete texture read through an integer sampler: (0, 0, 0, 1) as integers.
pub(crate) fn sample_incomplete_int(
    _: &Descriptor,
    _: &TexRequest,
    lanes: u32,
    out: &mut TexResult,
) {
    for lane in (0..4).filter(|l| lanes & (1 << l) != 0) {
        out[0][lane] = 0;
        out[1][lane] = 0;
        out[2][lane] = 0;
        out[3][lane] = 1;
    }
}

/// The layer a 2D array lookup reads (GL 4.5 core §8.14.2, eq. 8.9): clamp(⌊r + ½⌋, 0,
/// layers − 1); NaN reads layer 0.
#[inline(always)]
pub(super) fn array_layer(r: f32, layers: u32) -> u32 {
    split(r + 0.5).0.clamp(0, layers.max(1) as i64 - 1) as u32
}

/// The routine of a 2D array texture: each lane's layer from `req.layer`, then the format's
/// 2D routine (`layer_sample`) on that layer, once per group of lanes that share one (the
/// quad's λ comes from all four lanes' coordinates, as for 2D).
pub(crate) fn sample_array(d: &Descriptor, req: &TexRequest, lanes: u32, out: &mut TexResult) {
    let layer_of = |lane: usize| array_layer(f32::from_bits(req.layer[lane]), d.layers);
    let mut pending = lanes & 0xF;
    while pending != 0 {
        let first = pending.trailing_zeros() as usize;
        let layer = layer_of(first);
        let group = (first..4)
            .filter(|&l| pending & (1 << l) != 0 && layer_of(l) == layer)
            .fold(0u32, |g, l| g | 1 << l);
        pending &= !group;
        let dl = d.at_layer(layer);
        (d.layer_sample)(&dl, req, group, out);
    }
}

/// The routine of a rectangle texture (GL 4.5 core §8.14.2: u = s, v = t, unnormalized):
/// the coordinates divided by the level size (one IEEE division each), then the format's
/// 2D routine (`layer_sample`), which multiplies them back. s / w · w is s again for the
/// texel centres and edges of every size up to MAX_RECTANGLE_TEXTURE_SIZE
/// (`tests::rect_coordinates_round_trip`), so NEAREST picks texel ⌊s⌋ as GL says.
pub(crate) fn sample_rect(d: &Descriptor, req: &TexRequest, lanes: u32, out: &mut TexResult) {
    let r = normalized_rect(d, req);
    (d.layer_sample)(d, &r, lanes, out);
}

/// `req` with a rectangle texture's unnormalized (s, t) divided by the base level's size.
fn normalized_rect(d: &Descriptor, req: &TexRequest) -> TexRequest {
    let base = &d.levels[(d.base_level as usize).min(MAX_LEVELS - 1)];
    let (w, h) = (base.width.max(1) as f32, base.height.max(1) as f32);
    let mut r = *req;
    for lane in 0..4 {
        r.coord[0][lane] = unscale(f32::from_bits(req.coord[0][lane]), w).to_bits();
        r.coord[1][lane] = unscale(f32::from_bits(req.coord[1][lane]), h).to_bits();
    }
    r
}

/// s / n, moved one ulp when the 2D routine's s / n · n would miss s (13 / 22 · 22 is
/// 12.999999 in f32): the neighbouring float then multiplies back to s or just past
/// it, so ⌊u⌋ is ⌊s⌋. IEEE divisions, multiplications and integer steps only.
pub(super) fn unscale(s: f32, n: f32) -> f32 {
    let q = s / n;
    if !q.is_finite() || q == 0.0 {
        return q;
    }
    let back = q * n;
    // One ulp away from zero or towards it (q is finite and non-zero here).
    let step = |q: f32, up: bool| {
        let away = up == (q > 0.0);
        f32::from_bits(if away {
            q.to_bits() + 1
        } else {
            q.to_bits() - 1
        })
    };
    // The smallest quotient whose product is at least s: up when the product falls short,
    // down only while the product stays at or above s (a product an ulp above an integer s
    // floors to s; one stepped below it would not).
    if back < s {
        step(q, true)
    } else if back > s {
        let down = step(q, false);
        if down * n >= s {
            down
        } else {
            q
        }
    } else {
        q
    }
}

/// The routine of a cube-map array: each lane's cube from `req.cube_layer` (eq. 8.9 with
/// the cube count), then the cube routine (`layer_sample`) on that cube's six faces, once
/// per group of lanes that share a cube.
pub(crate) fn sample_cube_array(d: &Descriptor, req: &TexRequest, lanes: u32, out: &mut TexResult) {
    let cubes = d.layers / 6;
    if cubes == 0 {
        return sample_incomplete(d, req, lanes, out);
    }
    let cube_of = |lane: usize| array_layer(f32::from_bits(req.cube_layer[lane]), cubes);
    let mut pending = lanes & 0xF;
    while pending != 0 {
        let first = pending.trailing_zeros() as usize;
        let cube = cube_of(first);
        let group = (first..4)
            .filter(|&l| pending & (1 << l) != 0 && cube_of(l) == cube)
            .fold(0u32, |g, l| g | 1 << l);
        pending &= !group;
        let dl = d.at_layer(6 * cube);
        (d.layer_sample)(&dl, req, group, out);
    }
}

/// One texel of the base level of `d` (a 2D descriptor: one layer or face) for gather,
/// or the border colour when the wrap gave `None`. Reads through the descriptor's fetch
/// routine, which bounds-checks again.
#[inline]
fn gather_texel(d: &Descriptor, x: Option<u32>, y: Option<u32>) -> [f32; 4] {
    match (x, y) {
        (Some(x), Some(y)) => (d.fetch)(d, x as i32, y as i32, 0),
        _ => d.border,
    }
}

/// textureGather (GLSL 4.60 §8.9.4, GL 4.5 core §8.14.2): for each lane the 2×2 footprint
/// LINEAR filtering would read from the base level (offsets and wraps included; cube maps
/// seamless across faces), returned as (T_i0j1, T_i1j1, T_i1j0, T_i0j0) of the component
/// `lod` names after the swizzle; with `compare`, each texel's depth comparison with the
/// lane's D_ref (1.0 or 0.0; D_ref is not clamped to [0, 1] here). No arithmetic on the
/// texels, so the result is exact.
// `out` is indexed `[component][lane]`: a range loop over lanes is the clear form.
#[allow(clippy::needless_range_loop)]
pub(crate) fn gather(d: &Descriptor, req: &TexRequest, lanes: u32, out: &mut TexResult) {
    let base = d
        .levels
        .get(d.base_level as usize)
        .copied()
        .unwrap_or(LevelLayout::EMPTY);
    if base.ptr.is_null() || base.width == 0 || base.height == 0 {
        for lane in (0..4).filter(|l| lanes & (1 << l) != 0) {
            for c in 0..4 {
                out[c][lane] = 0;
            }
        }
        return;
    }
    for lane in (0..4).filter(|l| lanes & (1 << l) != 0) {
        let (s, t) = (
            f32::from_bits(req.coord[0][lane]),
            f32::from_bits(req.coord[1][lane]),
        );
        let quad: [[f32; 4]; 4] = if d.kind.is_cube() {
            let cube = if d.kind == super::TexKind::CubeArray {
                array_layer(f32::from_bits(req.cube_layer[lane]), (d.layers / 6).max(1))
            } else {
                0
            };
            let dir = (s, t, f32::from_bits(req.layer[lane]));
            super::cube::gather_footprint(d, base.width, dir, |face, x, y| {
                gather_texel(&d.at_layer(6 * cube + face), Some(x), Some(y))
            })
        } else {
            let layered;
            let dl = if d.layers > 1 {
                layered = d.at_layer(array_layer(f32::from_bits(req.layer[lane]), d.layers));
                &layered
            } else {
                d
            };
            let (u, v) = if d.kind == super::TexKind::Rect {
                (s, t)
            } else {
                (s * base.width as f32, t * base.height as f32)
            };
            let (iu, _) = split(u - 0.5);
            let (jv, _) = split(v - 0.5);
            let i0 = iu + req.offset[0] as i64;
            let j0 = jv + req.offset[1] as i64;
            let x = [
                wrap(i0, base.width, d.wrap_s),
                wrap(i0 + 1, base.width, d.wrap_s),
            ];
            let y = [
                wrap(j0, base.height, d.wrap_t),
                wrap(j0 + 1, base.height, d.wrap_t),
            ];
            [
                gather_texel(dl, x[0], y[1]),
                gather_texel(dl, x[1], y[1]),
                gather_texel(dl, x[1], y[0]),
                gather_texel(dl, x[0], y[0]),
            ]
        };
        let comp = (req.lod[lane] & 3) as usize;
        let dref = f32::from_bits(req.dref[lane]);
        for (c, texel) in quad.iter().enumerate() {
            out[c][lane] = if req.compare != 0 {
                compare_depth(d.compare_func, dref, texel[0]).to_bits()
            } else {
                match d.swizzle[comp] {
                    k @ 0..=3 => texel[k as usize].to_bits(),
                    super::SWIZZLE_ONE => d.one,
                    _ => 0,
                }
            };
        }
    }
}

/// textureQueryLod (GLSL 4.60 §8.9.1, ARB_texture_query_lod's pseudo-code): out[1] is λ'
/// = λ_base + the texture's bias; out[0] the level a lookup would access relative to the
/// base: λ' clamped to [min_lod, max_lod] and to [0, q − base], then 0 without mipmaps,
/// ⌈λ + ½⌉ − 1 for *_MIPMAP_NEAREST, λ itself for *_MIPMAP_LINEAR. 0 and 0 outside a
/// fragment quad, as every implicit λ is there.
pub(crate) fn query_lod(d: &Descriptor, req: &TexRequest, lanes: u32, out: &mut TexResult) {
    let lam_base = match d.kind {
        _ if req.quad == 0 => 0.0,
        super::TexKind::Cube | super::TexKind::CubeArray => super::cube::cube_lambda(d, req),
        super::TexKind::D3 => super::volume::volume_lambda(d, req),
        super::TexKind::Rect => implicit_lambda(d, &normalized_rect(d, req)),
        _ => implicit_lambda(d, req),
    };
    let bias = d
        .lod_bias
        .clamp(-MAX_TEXTURE_LOD_BIAS, MAX_TEXTURE_LOD_BIAS);
    let lam = lam_base + bias;
    let max_level = d.mip_last.saturating_sub(d.base_level) as f32;
    let clamped = lam.max(d.min_lod).min(d.max_lod).max(0.0).min(max_level);
    let accessed = match d.mip_mode as u8 {
        MIP_NONE => 0.0,
        MIP_NEAREST => {
            // ⌈λ + ½⌉ − 1 (eq. 8.13's level choice), exact for λ ≥ 0.
            let (i, f) = split(clamped + 0.5);
            (if f == 0.0 { i - 1 } else { i }).max(0) as f32
        }
        _ => clamped,
    };
    for lane in (0..4).filter(|l| lanes & (1 << l) != 0) {
        out[0][lane] = accessed.to_bits();
        out[1][lane] = lam.to_bits();
        out[2][lane] = 0;
        out[3][lane] = 0;
    }
}

// ---- Depth comparison (GL 4.5 core §8.23): shadow lookups of a depth texture whose
// compare mode is COMPARE_REF_TO_TEXTURE. Lane by lane: each texel a filter would read is
// compared with the lane's D_ref first (1.0 or 0.0), then those results are filtered with
// the ordinary weights and level blend (§8.23.1 allows it; Mesa and the GPUs do it). ----

/// The comparison of GL 4.5 core table 8.23: 1.0 when `dref` OP `dt` holds, else 0.0 (a
/// NaN on either side fails every test but NOTEQUAL). `func` is the GL enum.
#[inline(always)]
pub(super) fn compare_depth(func: u32, dref: f32, dt: f32) -> f32 {
    let pass = match func {
        gl::LEQUAL => dref <= dt,
        gl::GEQUAL => dref >= dt,
        gl::LESS => dref < dt,
        gl::GREATER => dref > dt,
        gl::EQUAL => dref == dt,
        gl::NOTEQUAL => dref != dt,
        gl::ALWAYS => true,
        _ => false,
    };
    if pass {
        1.0
    } else {
        0.0
    }
}

/// `filter_level` with each texel (or the border colour's depth) replaced by its
/// comparison with `dref` before the bilinear weights apply.
#[inline(always)]
fn compare_level<F: TexelLoad, const LINEAR: bool>(
    d: &Descriptor,
    level: u32,
    s: f32,
    t: f32,
    offset: [i32; 2],
    dref: f32,
) -> f32 {
    let lv = &d.levels[(level as usize).min(MAX_LEVELS - 1)];
    if lv.ptr.is_null() {
        return 0.0;
    }
    let cmp = |x: Option<u32>, y: Option<u32>| {
        compare_depth(d.compare_func, dref, texel_or_border::<F>(d, lv, x, y)[0])
    };
    let fp = footprint::<LINEAR>(d, lv, s, t, offset);
    let ([x0, x1], [y0, y1], [a, b]) = (fp.x, fp.y, fp.w);
    if !LINEAR {
        return cmp(x0, y0);
    }
    let (t00, t10) = (cmp(x0, y0), cmp(x1, y0));
    let (t01, t11) = (cmp(x0, y1), cmp(x1, y1));
    let lo = t00 + a * (t10 - t00);
    let hi = t01 + a * (t11 - t01);
    lo + b * (hi - lo)
}

/// The reference depth as the comparison sees it: clamped to [0, 1] for the fixed-point
/// depth format (GL 4.5 core §8.23.1); D32F compares unclamped.
#[inline(always)]
pub(super) fn clamp_dref<F: TexelLoad>(dref: f32) -> f32 {
    if F::FORMAT == Format::Depth24Stencil8 {
        dref.clamp(0.0, 1.0)
    } else {
        dref
    }
}

/// The routine of a depth texture with compare mode on: a shadow lookup (`req.compare`)
/// returns (R, 0, 0, 1) with R the filtered comparison; a lookup through a non-shadow
/// sampler (undefined in GL 4.5 core §8.23) samples the depth as if compare mode were off.
/// The level choice is `plan`'s, which the differential test holds equal to `sample_at`'s.
// `out` is indexed `[component][lane]`: a range loop over lanes is the clear form.
#[allow(clippy::needless_range_loop)]
fn sample_shadow<F: TexelLoad, const MAG_LINEAR: bool, const MIN_LINEAR: bool, const MIP: u8>(
    d: &Descriptor,
    req: &TexRequest,
    lanes: u32,
    out: &mut TexResult,
) {
    if req.compare == 0 {
        sample_lanes::<F, MAG_LINEAR, MIN_LINEAR, MIP>(d, req, lanes, out);
        return;
    }
    let lams = lane_lambdas(d, req, lanes);
    for lane in 0..4 {
        if lanes & (1 << lane) == 0 {
            continue;
        }
        let s = f32::from_bits(req.coord[0][lane]);
        let t = f32::from_bits(req.coord[1][lane]);
        let dref = clamp_dref::<F>(f32::from_bits(req.dref[lane]));
        let p = plan::<MAG_LINEAR, MIN_LINEAR, MIP>(d, lams[lane]);
        let level = |l: u32| {
            if p.linear {
                compare_level::<F, true>(d, l, s, t, req.offset, dref)
            } else {
                compare_level::<F, false>(d, l, s, t, req.offset, dref)
            }
        };
        let ra = level(p.a);
        let r = if p.two {
            let rb = level(p.b);
            ra + p.w * (rb - ra)
        } else {
            ra
        };
        out[0][lane] = r.to_bits();
        out[1][lane] = 0;
        out[2][lane] = 0;
        out[3][lane] = 1.0f32.to_bits();
    }
}

/// `$pick!(mag, min, mip)` with the const generics of a runtime filter choice: magnification
/// and minification linear or not, and the mip mode (`MIP_NONE`, `MIP_NEAREST`, else linear).
macro_rules! by_filter {
    ($pick:ident, $mag:expr, $min:expr, $mip:expr) => {
        match ($mag, $min, $mip) {
            (false, false, MIP_NONE) => $pick!(false, false, MIP_NONE),
            (false, false, MIP_NEAREST) => $pick!(false, false, MIP_NEAREST),
            (false, false, _) => $pick!(false, false, MIP_LINEAR),
            (false, true, MIP_NONE) => $pick!(false, true, MIP_NONE),
            (false, true, MIP_NEAREST) => $pick!(false, true, MIP_NEAREST),
            (false, true, _) => $pick!(false, true, MIP_LINEAR),
            (true, false, MIP_NONE) => $pick!(true, false, MIP_NONE),
            (true, false, MIP_NEAREST) => $pick!(true, false, MIP_NEAREST),
            (true, false, _) => $pick!(true, false, MIP_LINEAR),
            (true, true, MIP_NONE) => $pick!(true, true, MIP_NONE),
            (true, true, MIP_NEAREST) => $pick!(true, true, MIP_NEAREST),
            (true, true, _) => $pick!(true, true, MIP_LINEAR),
        }
    };
}

/// Picks the shadow routine of a depth format (`sample_shadow`), per filter choice.
fn select_shadow_for<F: TexelLoad>(mag_linear: bool, min_linear: bool, mip: u8) -> SampleFn {
    macro_rules! pick {
        ($mag:literal, $min:literal, $mip:expr) => {
            sample_shadow::<F, $mag, $min, $mip>
        };
    }
    by_filter!(pick, mag_linear, min_linear, mip)
}

/// texelFetch from an incomplete texture: (0, 0, 0, 1), like every other access to it
/// (GL 4.5 core §11.1.3.5; Mesa and NVIDIA agree).
pub(crate) fn fetch_incomplete(_: &Descriptor, _: i32, _: i32, _: i32) -> [f32; 4] {
    [0.0, 0.0, 0.0, 1.0]
}

/// texelFetch from an incomplete texture through an integer sampler: (0, 0, 0, 1) as
/// integers (the lanes carry integer bits).
pub(crate) fn fetch_incomplete_int(_: &Descriptor, _: i32, _: i32, _: i32) -> [f32; 4] {
    [0.0, 0.0, 0.0, f32::from_bits(1)]
}

/// texelFetch (GL 4.5 core §11.1.3.2 / GLSL 4.60 §8.9.2): level base + lod, integer
/// coordinates; anything out of range gives zeros (robust access), never a read.
fn fetch_texel<F: TexelLoad>(d: &Descriptor, x: i32, y: i32, lod: i32) -> [f32; 4] {
    if lod < 0 {
        return [0.0; 4];
    }
    let level = d.base_level as i64 + lod as i64;
    if level > d.fetch_last as i64 {
        return [0.0; 4];
    }
    let lv = &d.levels[level as usize];
    if x < 0 || y < 0 || x as u32 >= lv.width || y as u32 >= lv.height || lv.ptr.is_null() {
        return [0.0; 4];
    }
    load::<F>(lv, x as u32, y as u32)
}

/// textureSize: the size of level base + lod from the base size (GL 4.5 core eq. 8.12);
/// zeros for a negative lod or one past the full chain.
pub(crate) fn size_of_level(d: &Descriptor, lod: i32) -> [i32; 2] {
    let base = &d.levels[(d.base_level as usize).min(MAX_LEVELS - 1)];
    let (w, h) = (base.width, base.height);
    // A multisample texture has one level (its "levels" are samples, `TexKind`).
    if d.kind.is_multisample() {
        return if lod == 0 {
            [w as i32, h as i32]
        } else {
            [0, 0]
        };
    }
    // A 3D texture's chain runs until its depth is 1 as well.
    let longest = if d.kind == super::TexKind::D3 {
        w.max(base.depth)
    } else {
        w
    };
    if lod < 0 || w == 0 || h == 0 || lod as u32 > max_mip_level(longest, h) {
        return [0, 0];
    }
    let (lw, lh) = mip_size(w, h, lod as u32);
    [lw as i32, lh as i32]
}

/// The routine for format `F`: the quad path (`fast`) or the lane-by-lane reference.
fn select_for<F: TexelLoad>(mag_linear: bool, min_linear: bool, mip: u8, fast: bool) -> SampleFn {
    macro_rules! pick {
        ($mag:literal, $min:literal, $mip:expr) => {
            if fast {
                sample_quad::<F, $mag, $min, $mip>
            } else {
                sample_lanes::<F, $mag, $min, $mip>
            }
        };
    }
    by_filter!(pick, mag_linear, min_linear, mip)
}

/// Picks the sample routine for a format, filter state, wrap pair and base level size
/// (the last two only matter to the 8-bit formats' quad path, `filter8.rs`).
///
/// With `compare` (GL_TEXTURE_COMPARE_MODE = COMPARE_REF_TO_TEXTURE) a depth format gets
/// the depth-comparison routine (`sample_shadow`); compare mode on a colour format has no
/// effect (GL 4.5 core §8.23).
pub(crate) fn select_sample(
    format: Format,
    mag_filter: MagFilter,
    min_filter: MinFilter,
    wraps: (Wrap, Wrap),
    base: [u32; 2],
    compare: bool,
) -> SampleFn {
    if compare && format.is_depth() {
        let (mag_linear, (min_linear, mip)) =
            (mag_filter == MagFilter::Linear, min_filter_mode(min_filter));
        return match format {
            Format::Depth32F => select_shadow_for::<LoadD32F>(mag_linear, min_linear, mip),
            _ => select_shadow_for::<LoadD24S8>(mag_linear, min_linear, mip),
        };
    }
    select_sample_impl(format, mag_filter, min_filter, wraps, base, true)
}

/// `$pick!(CH, B, S)` with the const generics of an integer format.
macro_rules! by_int_format {
    ($pick:ident, $f:expr) => {
        match ($f.channels, $f.bytes, $f.signed) {
            (1, 1, true) => $pick!(1, 1, true),
            (1, 1, false) => $pick!(1, 1, false),
            (1, 2, true) => $pick!(1, 2, true),
            (1, 2, false) => $pick!(1, 2, false),
            (1, _, true) => $pick!(1, 4, true),
            (1, _, false) => $pick!(1, 4, false),
            (2, 1, true) => $pick!(2, 1, true),
            (2, 1, false) => $pick!(2, 1, false),
            (2, 2, true) => $pick!(2, 2, true),
            (2, 2, false) => $pick!(2, 2, false),
            (2, _, true) => $pick!(2, 4, true),
            (2, _, false) => $pick!(2, 4, false),
            (3, 1, true) => $pick!(3, 1, true),
            (3, 1, false) => $pick!(3, 1, false),
            (3, 2, true) => $pick!(3, 2, true),
            (3, 2, false) => $pick!(3, 2, false),
            (3, _, true) => $pick!(3, 4, true),
            (3, _, false) => $pick!(3, 4, false),
            (_, 1, true) => $pick!(4, 1, true),
            (_, 1, false) => $pick!(4, 1, false),
            (_, 2, true) => $pick!(4, 2, true),
            (_, 2, false) => $pick!(4, 2, false),
            (_, _, true) => $pick!(4, 4, true),
            (_, _, false) => $pick!(4, 4, false),
        }
    };
}

/// `$pick!(LoadSnorm<CH, B>)` for a snorm format (R, RG, RGB, RGBA × 8, 16 bits).
macro_rules! by_snorm_format {
    ($pick:ident, $f:expr) => {
        match ($f.channels, $f.bytes) {
            (1, 1) => $pick!(LoadSnorm<1, 1>),
            (1, _) => $pick!(LoadSnorm<1, 2>),
            (2, 1) => $pick!(LoadSnorm<2, 1>),
            (2, _) => $pick!(LoadSnorm<2, 2>),
            (3, 1) => $pick!(LoadSnorm<3, 1>),
            (3, _) => $pick!(LoadSnorm<3, 2>),
            (_, 1) => $pick!(LoadSnorm<4, 1>),
            (_, _) => $pick!(LoadSnorm<4, 2>),
        }
    };
}

/// The routine of an integer format: NEAREST only (completeness refuses the others, GL 4.5
/// core §8.17), lane by lane, so the integers move as bits and never meet arithmetic.
fn select_int(f: IntFormat, min_filter: MinFilter) -> SampleFn {
    let mip = if min_filter.uses_mipmaps() {
        MIP_NEAREST
    } else {
        MIP_NONE
    };
    macro_rules! pick {
        ($ch:literal, $b:literal, $s:literal) => {
            if mip == MIP_NONE {
                sample_lanes::<LoadInt<$ch, $b, $s>, false, false, MIP_NONE>
            } else {
                sample_lanes::<LoadInt<$ch, $b, $s>, false, false, MIP_NEAREST>
            }
        };
    }
    by_int_format!(pick, f)
}

/// The routine of RGB10_A2UI: `select_int`'s, with its packed loader.
fn select_rgb10a2ui(min_filter: MinFilter) -> SampleFn {
    if min_filter.uses_mipmaps() {
        sample_lanes::<LoadRgb10A2ui, false, false, MIP_NEAREST>
    } else {
        sample_lanes::<LoadRgb10A2ui, false, false, MIP_NONE>
    }
}

/// texelFetch of an integer format.
fn select_int_fetch(f: IntFormat) -> FetchFn {
    macro_rules! pick {
        ($ch:literal, $b:literal, $s:literal) => {
            fetch_texel::<LoadInt<$ch, $b, $s>>
        };
    }
    by_int_format!(pick, f)
}

/// A family of sample routines monomorphized like `sample_lanes` (format, mag filter, min
/// filter, mipmap mode): cube maps (`cube.rs`) and 3D textures (`volume.rs`). `select_family`
/// picks the member for a format and filter state.
pub(super) trait Family {
    fn routine<F: TexelLoad, const MAG: bool, const MIN: bool, const MIP: u8>() -> SampleFn;
}

/// The member of `R` for `format` and the filters of `state` (integer formats: NEAREST,
/// as completeness requires, GL 4.5 core §8.17).
pub(super) fn select_family<R: Family>(format: Format, state: &SamplerState) -> SampleFn {
    let mag_linear = state.mag_filter == MagFilter::Linear;
    let (min_linear, mip) = min_filter_mode(state.min_filter);
    if let Format::Int(f) = format {
        let mip = if mip == MIP_NONE {
            MIP_NONE
        } else {
            MIP_NEAREST
        };
        macro_rules! pick {
            ($ch:literal, $b:literal, $s:literal) => {
                if mip == MIP_NONE {
                    R::routine::<LoadInt<$ch, $b, $s>, false, false, MIP_NONE>()
                } else {
                    R::routine::<LoadInt<$ch, $b, $s>, false, false, MIP_NEAREST>()
                }
            };
        }
        return by_int_format!(pick, f);
    }
    if format == Format::Rgb10A2ui {
        return if mip == MIP_NONE {
            R::routine::<LoadRgb10A2ui, false, false, MIP_NONE>()
        } else {
            R::routine::<LoadRgb10A2ui, false, false, MIP_NEAREST>()
        };
    }
    fn for_format<R: Family, F: TexelLoad>(a: bool, b: bool, c: u8) -> SampleFn {
        macro_rules! pick {
            ($mag:literal, $min:literal, $mip:expr) => {
                R::routine::<F, $mag, $min, $mip>()
            };
        }
        by_filter!(pick, a, b, c)
    }
    let (a, b, c) = (mag_linear, min_linear, mip);
    match format {
        Format::Rgba8 => for_format::<R, LoadRgba8>(a, b, c),
        Format::Srgb8Alpha8 => for_format::<R, LoadSrgb8Alpha8>(a, b, c),
        Format::R8 => for_format::<R, LoadR8>(a, b, c),
        Format::Rg8 => for_format::<R, LoadRg8>(a, b, c),
        Format::Rgba16F => for_format::<R, LoadRgba16F>(a, b, c),
        Format::Rgba32F => for_format::<R, LoadRgba32F>(a, b, c),
        Format::R32F => for_format::<R, LoadR32F>(a, b, c),
        Format::Depth24Stencil8 => for_format::<R, LoadD24S8>(a, b, c),
        Format::Depth32F => for_format::<R, LoadD32F>(a, b, c),
        Format::Snorm(f) => {
            macro_rules! pick {
                ($load:ty) => {
                    for_format::<R, $load>(a, b, c)
                };
            }
            by_snorm_format!(pick, f)
        }
        Format::Int(_) | Format::Rgb10A2ui => unreachable!("integer formats returned above"),
    }
}

/// The routine of a cube map (`cube::sample_cube`; its depth comparison is on when
/// compare mode is and the format is depth).
pub(crate) fn select_cube(format: Format, state: &SamplerState) -> SampleFn {
    if state.compare_mode && format.is_depth() {
        select_family::<super::cube::CubeShadow>(format, state)
    } else {
        select_family::<super::cube::Cube>(format, state)
    }
}

/// The routine of a 3D texture (`volume::sample_volume`).
pub(crate) fn select_volume(format: Format, state: &SamplerState) -> SampleFn {
    select_family::<super::volume::Volume>(format, state)
}

/// (min filter is LINEAR, mipmap mode) of a min filter.
pub(super) fn min_filter_mode(min_filter: MinFilter) -> (bool, u8) {
    match min_filter {
        MinFilter::Nearest => (false, MIP_NONE),
        MinFilter::Linear => (true, MIP_NONE),
        MinFilter::NearestMipmapNearest => (false, MIP_NEAREST),
        MinFilter::LinearMipmapNearest => (true, MIP_NEAREST),
        MinFilter::NearestMipmapLinear => (false, MIP_LINEAR),
        MinFilter::LinearMipmapLinear => (true, MIP_LINEAR),
    }
}

/// The lane-by-lane reference routine `select_sample` would otherwise pick: what the
/// differential tests compare the quad path against.
#[cfg(test)]
pub(crate) fn select_sample_reference(
    format: Format,
    mag_filter: MagFilter,
    min_filter: MinFilter,
) -> SampleFn {
    let wraps = (Wrap::Repeat, Wrap::Repeat);
    select_sample_impl(format, mag_filter, min_filter, wraps, [1, 1], false)
}

fn select_sample_impl(
    format: Format,
    mag_filter: MagFilter,
    min_filter: MinFilter,
    wraps: (Wrap, Wrap),
    base: [u32; 2],
    fast: bool,
) -> SampleFn {
    if let Format::Int(f) = format {
        return select_int(f, min_filter);
    }
    if format == Format::Rgb10A2ui {
        return select_rgb10a2ui(min_filter);
    }
    let mag_linear = mag_filter == MagFilter::Linear;
    let (min_linear, mip) = min_filter_mode(min_filter);
    if let Some(f) =
        filter8::select_for_format(format, (mag_linear, min_linear, mip), wraps, base, fast)
    {
        return f;
    }
    let (a, b, c) = (mag_linear, min_linear, mip);
    match format {
        Format::Rgba8 => select_for::<LoadRgba8>(a, b, c, fast),
        Format::Srgb8Alpha8 => select_for::<LoadSrgb8Alpha8>(a, b, c, fast),
        Format::R8 => select_for::<LoadR8>(a, b, c, fast),
        Format::Rg8 => select_for::<LoadRg8>(a, b, c, fast),
        Format::Rgba16F => select_for::<LoadRgba16F>(a, b, c, fast),
        Format::Rgba32F => select_for::<LoadRgba32F>(a, b, c, fast),
        Format::R32F => select_for::<LoadR32F>(a, b, c, fast),
        Format::Depth24Stencil8 => select_for::<LoadD24S8>(a, b, c, fast),
        Format::Depth32F => select_for::<LoadD32F>(a, b, c, fast),
        Format::Snorm(f) => {
            macro_rules! pick {
                ($load:ty) => {
                    select_for::<$load>(a, b, c, fast)
                };
            }
            by_snorm_format!(pick, f)
        }
        Format::Int(f) => select_int(f, min_filter),
        Format::Rgb10A2ui => select_rgb10a2ui(min_filter),
    }
}

/// Picks the texelFetch routine for a format.
pub(crate) fn select_fetch(format: Format) -> FetchFn {
    match format {
        Format::Rgba8 => fetch_texel::<LoadRgba8>,
        Format::Srgb8Alpha8 => fetch_texel::<LoadSrgb8Alpha8>,
        Format::R8 => fetch_texel::<LoadR8>,
        Format::Rg8 => fetch_texel::<LoadRg8>,
        Format::Rgba16F => fetch_texel::<LoadRgba16F>,
        Format::Rgba32F => fetch_texel::<LoadRgba32F>,
        Format::R32F => fetch_texel::<LoadR32F>,
        Format::Depth24Stencil8 => fetch_texel::<LoadD24S8>,
        Format::Depth32F => fetch_texel::<LoadD32F>,
        Format::Snorm(f) => {
            macro_rules! pick {
                ($load:ty) => {
                    fetch_texel::<$load>
                };
            }
            by_snorm_format!(pick, f)
        }
        Format::Int(f) => select_int_fetch(f),
        Format::Rgb10A2ui => fetch_texel::<LoadRgb10A2ui>,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_modes_match_table_8_20() {
        let r: Vec<_> = (-5..9).map(|i| wrap(i, 4, Wrap::Repeat).unwrap()).collect();
        assert_eq!(r, [3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0]);
        let m: Vec<_> = (-5..9)
            .map(|i| wrap(i, 4, Wrap::MirroredRepeat).unwrap())
            .collect();
        // ... 3 2 1 0 | 0 1 2 3 | 3 2 1 0 | 0 ...
        assert_eq!(m, [3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0]);
        let c: Vec<_> = (-2..6)
            .map(|i| wrap(i, 4, Wrap::ClampToEdge).unwrap())
            .collect();
        assert_eq!(c, [0, 0, 0, 1, 2, 3, 3, 3]);
        let b: Vec<_> = (-2..6).map(|i| wrap(i, 4, Wrap::ClampToBorder)).collect();
        assert_eq!(
            b,
            [None, None, Some(0), Some(1), Some(2), Some(3), None, None]
        );
        let mc: Vec<_> = (-6..6)
            .map(|i| wrap(i, 4, Wrap::MirrorClampToEdge).unwrap())
            .collect();
        assert_eq!(mc, [3, 3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 3]);
        assert_eq!(
            wrap(i64::MIN / 4, 3, Wrap::MirroredRepeat).map(|v| v < 3),
            Some(true)
        );
    }

    #[test]
    fn array_layer_rounds_and_clamps() {
        // GL 4.5 core §8.14.2: clamp(⌊r + ½⌋, 0, d − 1).
        let got: Vec<u32> = [-3.0f32, -0.6, -0.4, 0.49, 0.5, 1.5, 2.49, 7.0, f32::NAN]
            .iter()
            .map(|&r| array_layer(r, 3))
            .collect();
        assert_eq!(got, [0, 0, 0, 0, 1, 2, 2, 2, 0]);
        assert_eq!(array_layer(f32::INFINITY, 4), 3);
    }

    #[test]
    fn floor_and_frac_are_total() {
        for x in [
            -3.5f32,
            -1.0,
            -0.25,
            -0.0,
            0.0,
            0.3,
            1.0,
            2.75,
            1.0e7 + 0.5,
            3.0e9,
            -3.0e9,
        ] {
            assert_eq!(floor_i64(x), x.floor() as i64, "{x}");
            assert_eq!(frac(x), x - x.floor(), "{x}");
        }
        assert_eq!(floor_i64(f32::NAN), 0);
        assert_eq!(floor_i64(f32::INFINITY), 1i64 << 40);
        assert_eq!(floor_i64(-0.5), -1);
        assert_eq!(frac(f32::INFINITY), 0.0);
        assert_eq!(frac(-0.25), 0.75);
    }
}
