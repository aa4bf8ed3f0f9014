//! 3D-texture sampling (GL 4.5 core §8.14): the quad's λ from three coordinate
//! differences (eq. 8.7 with w), NEAREST and trilinear footprints across slices with the
//! r wrap, and the level plan of `filter::plan`. A 3D level is `depth` slices of width ×
//! height texels, one after another; depth halves with the level (eq. 8.12).
//!
//! Lane by lane (the 2D quad path reads one slice per level; a 3D footprint spans two).
//! Same operation order as the 2D reference: weights are exact fractions, lerps are
//! `a + t·(b − a)`, no FMA, so results are the same on every CPU.

use super::descriptor::{Descriptor, LevelLayout, MAX_LEVELS};
use super::filter::{final_lambda, lerp4, load, plan, split, wrap, Family, Plan};
use super::format::TexelLoad;
use super::lod::log2_f32;
use crate::sampler::descriptor::SampleFn;
use crate::sampler::request::{TexOp, TexRequest, TexResult};

/// λ_base of a 3D quad: lanes 0, 1, 2 are pixels (x, y), (x+1, y), (x, y+1); ρ² is the
/// squared length of (∂u, ∂v, ∂w) in texels of the base level. 0 outside a fragment quad.
pub(super) fn volume_lambda(d: &Descriptor, req: &TexRequest) -> f32 {
    if req.quad == 0 {
        return 0.0;
    }
    let base = &d.levels[(d.base_level as usize).min(MAX_LEVELS - 1)];
    let size = [base.width as f32, base.height as f32, base.depth as f32];
    let c = |l: usize| {
        [
            f32::from_bits(req.coord[0][l]),
            f32::from_bits(req.coord[1][l]),
            f32::from_bits(req.layer[l]),
        ]
    };
    let c0 = c(0);
    let rho2 = |l: usize| {
        let cl = c(l);
        let du = (cl[0] - c0[0]) * size[0];
        let dv = (cl[1] - c0[1]) * size[1];
        let dw = (cl[2] - c0[2]) * size[2];
        du * du + dv * dv + dw * dw
    };
    0.5 * log2_f32(rho2(1).max(rho2(2)))
}

/// Loads texel (x, y, z) of level `lv`, or the border colour when a wrap gave `None`.
#[inline(always)]
fn texel<F: TexelLoad>(
    d: &Descriptor,
    lv: &LevelLayout,
    x: Option<u32>,
    y: Option<u32>,
    z: Option<u32>,
) -> [f32; 4] {
    let (Some(x), Some(y), Some(z)) = (x, y, z) else {
        return d.border;
    };
    debug_assert!(z < lv.depth);
    let mut slice = *lv;
    let off = z as usize * lv.width as usize * lv.height as usize;
    // SAFETY: the level holds `depth` slices of width × height texels of `F`
    // (`Descriptor::build` checked its depth and format) and z < depth (wrapped), so
    // slice z starts inside it; `load` reads texel (x, y) of that slice, in range.
    slice.ptr = unsafe { lv.ptr.add(off * F::FORMAT.bytes_per_texel()) };
    load::<F>(&slice, x, y)
}

/// NEAREST or LINEAR (trilinear within the level) filtering of level `level` at (s, t, r).
#[inline(always)]
fn filter_level3<F: TexelLoad, const LINEAR: bool>(
    d: &Descriptor,
    level: u32,
    [s, t, r]: [f32; 3],
    off: [i32; 2],
) -> [f32; 4] {
    let lv = &d.levels[(level as usize).min(MAX_LEVELS - 1)];
    if lv.ptr.is_null() || lv.width == 0 || lv.height == 0 || lv.depth == 0 {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let u = s * lv.width as f32;
    let v = t * lv.height as f32;
    let w = r * lv.depth as f32;
    let ws = |i: i64| wrap(i, lv.width, d.wrap_s);
    let wt = |j: i64| wrap(j, lv.height, d.wrap_t);
    let wr = |k: i64| wrap(k, lv.depth, d.wrap_r);
    if !LINEAR {
        let i = split(u).0 + off[0] as i64;
        let j = split(v).0 + off[1] as i64;
        let k = split(w).0;
        return texel::<F>(d, lv, ws(i), wt(j), wr(k));
    }
    let (iu, a) = split(u - 0.5);
    let (jv, b) = split(v - 0.5);
    let (kw, c) = split(w - 0.5);
    let (i0, j0) = (iu + off[0] as i64, jv + off[1] as i64);
    let (x0, x1, y0, y1) = (ws(i0), ws(i0 + 1), wt(j0), wt(j0 + 1));
    let slice = |z: Option<u32>| {
        let t00 = texel::<F>(d, lv, x0, y0, z);
        let t10 = texel::<F>(d, lv, x1, y0, z);
        let t01 = texel::<F>(d, lv, x0, y1, z);
        let t11 = texel::<F>(d, lv, x1, y1, z);
        lerp4(lerp4(t00, t10, a), lerp4(t01, t11, a), b)
    };
    lerp4(slice(wr(kw)), slice(wr(kw + 1)), c)
}

/// The 3D routine: per lane, λ (`volume_lambda` plus bias, or the explicit LOD, then the
/// clamps), the level plan, and `filter_level3` on one or two levels.
// `out` is indexed `[component][lane]`: a range loop over lanes is the clear form.
#[allow(clippy::needless_range_loop)]
fn sample_volume<F: TexelLoad, const MAG: bool, const MIN: bool, const MIP: u8>(
    d: &Descriptor,
    req: &TexRequest,
    lanes: u32,
    out: &mut TexResult,
) {
    let explicit = req.op == TexOp::SampleLod as u32;
    let quad_lambda = if explicit { 0.0 } else { volume_lambda(d, req) };
    for lane in (0..4).filter(|l| lanes & (1 << l) != 0) {
        let arg = f32::from_bits(req.lod[lane]);
        let lam = if explicit {
            final_lambda(d, arg, 0.0)
        } else {
            final_lambda(d, quad_lambda, arg)
        };
        let str = [
            f32::from_bits(req.coord[0][lane]),
            f32::from_bits(req.coord[1][lane]),
            f32::from_bits(req.layer[lane]),
        ];
        let p: Plan = plan::<MAG, MIN, MIP>(d, lam);
        let level = |l: u32| {
            if p.linear {
                filter_level3::<F, true>(d, l, str, req.offset)
            } else {
                filter_level3::<F, false>(d, l, str, req.offset)
            }
        };
        let a = level(p.a);
        let v = if p.two { lerp4(a, level(p.b), p.w) } else { a };
        for c in 0..4 {
            out[c][lane] = v[c].to_bits();
        }
    }
}

/// The 3D routines.
pub(super) struct Volume;

impl Family for Volume {
    fn routine<F: TexelLoad, const MAG: bool, const MIN: bool, const MIP: u8>() -> SampleFn {
        sample_volume::<F, MAG, MIN, MIP>
    }
}
