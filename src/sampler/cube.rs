//! Cube-map sampling (GL 4.5 core §8.13): face selection and the face coordinates of
//! table 8.19, the quad's λ on the selected face, and seamless filtering (§8.13.1: GL 4.5
//! core cube maps are always seamless), where a bilinear footprint that leaves its face
//! takes the texels across the edge from the neighbouring face. The level choice is
//! `filter::plan`'s, the texel decode `format.rs`'s; the descriptor's levels hold the six
//! faces as layers 0..6 (+X, −X, +Y, −Y, +Z, −Z).
//!
//! Lane by lane: each lane may pick another face, so the 2D quad path (one level layout
//! for four lanes) does not apply. Face selection and projection are IEEE-exact (one
//! division per coordinate, no reciprocal), so results are the same on every CPU.

use super::descriptor::{Descriptor, LevelLayout, MAX_LEVELS};
use super::filter::{
    clamp_dref, compare_depth, final_lambda, lerp4, load, plan, split, Family, Plan,
};
use super::format::TexelLoad;
use super::lod::log2_f32;
use crate::sampler::descriptor::SampleFn;
use crate::sampler::request::{TexOp, TexRequest, TexResult};

/// The face a direction selects (GL 4.5 core table 8.19) and its (s_c, t_c, m_a): the
/// largest magnitude picks the axis (ties go to x, then y, as Mesa does), its sign the
/// face. NaN directions select −Z or +Z (every comparison fails) and sample as NaN
/// coordinates do (texel 0).
#[inline(always)]
pub(super) fn select_face(x: f32, y: f32, z: f32) -> (u32, f32, f32, f32) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    if ax >= ay && ax >= az {
        if x >= 0.0 {
            (0, -z, -y, x)
        } else {
            (1, z, -y, x)
        }
    } else if ay >= az {
        if y >= 0.0 {
            (2, x, z, y)
        } else {
            (3, x, -z, y)
        }
    } else if z >= 0.0 {
        (4, x, -y, z)
    } else {
        (5, -x, -y, z)
    }
}

/// (s_c, t_c, m_a) of a direction on a given face (table 8.19), for the λ of a quad whose
/// lanes are measured on lane 0's face.
#[inline(always)]
fn on_face(face: u32, x: f32, y: f32, z: f32) -> (f32, f32, f32) {
    match face {
        0 => (-z, -y, x),
        1 => (z, -y, x),
        2 => (x, z, y),
        3 => (x, -z, y),
        4 => (x, -y, z),
        _ => (-x, -y, z),
    }
}

/// s = ½(s_c / |m_a| + 1), t likewise (GL 4.5 core eq. 8.11): an IEEE division each.
#[inline(always)]
pub(super) fn face_st(sc: f32, tc: f32, ma: f32) -> (f32, f32) {
    let m = ma.abs();
    (0.5 * (sc / m + 1.0), 0.5 * (tc / m + 1.0))
}

/// The face and texel that texel (i, j) of face `face` (size n × n) is, when (i, j) lies
/// one texel outside the face on one axis: the texel across the edge on the neighbouring
/// face (§8.13.1). `None` for a corner (outside on both axes).
///
/// Texel centres as integer points of the cube [−n, n]³ (doubled texel units): texel
/// (i, j) of a face sits at s_c = 2i + 1 − n, t_c = 2j + 1 − n on the face's plane
/// |m_a| = n. One texel past an edge, |s_c| = n + 1; the neighbour's texel next to that
/// edge is at s_c = ±n (the neighbour's plane) and one texel in from the edge, m_a =
/// ±(n − 1). Table 8.19 read backwards gives its face and (i, j). Integer arithmetic only.
pub(super) fn neighbour(face: u32, i: i64, j: i64, n: u32) -> Option<(u32, u32, u32)> {
    let n = n as i64;
    let (out_i, out_j) = (!(0..n).contains(&i), !(0..n).contains(&j));
    if out_i && out_j {
        return None;
    }
    if !out_i && !out_j {
        return Some((face, i as u32, j as u32));
    }
    let mut sc = 2 * i + 1 - n;
    let mut tc = 2 * j + 1 - n;
    let ma = n - 1;
    if out_i {
        sc = sc.signum() * n;
    } else {
        tc = tc.signum() * n;
    }
    // The point on the cube (x, y, z), from table 8.19 forwards.
    let p = match face {
        0 => [ma, -tc, -sc],
        1 => [-ma, -tc, sc],
        2 => [sc, ma, tc],
        3 => [sc, -ma, -tc],
        4 => [sc, -tc, ma],
        _ => [-sc, -tc, -ma],
    };
    // The coordinate of magnitude n names the new face; table 8.19 backwards.
    let (f, sc, tc) = if p[0].abs() == n {
        if p[0] > 0 {
            (0, -p[2], -p[1])
        } else {
            (1, p[2], -p[1])
        }
    } else if p[1].abs() == n {
        if p[1] > 0 {
            (2, p[0], p[2])
        } else {
            (3, p[0], -p[2])
        }
    } else if p[2] > 0 {
        (4, p[0], -p[1])
    } else {
        (5, -p[0], -p[1])
    };
    let (i, j) = ((sc + n - 1) / 2, (tc + n - 1) / 2);
    debug_assert!(
        (0..n).contains(&i) && (0..n).contains(&j),
        "{face} {i} {j} {n}"
    );
    Some((f, i.clamp(0, n - 1) as u32, j.clamp(0, n - 1) as u32))
}

/// Face `face` of level `lv` for format `F`.
#[inline(always)]
fn face_level_of<F: TexelLoad>(lv: &LevelLayout, face: u32) -> LevelLayout {
    debug_assert!(face < 6 && face < lv.depth);
    let off = face as usize * lv.width as usize * lv.height as usize;
    let mut f = *lv;
    // SAFETY: a cube level holds 6 faces of width × height texels of `F` (`Descriptor::
    // build` checked its depth and format) and face < 6, so face `face` starts inside it;
    // nothing is read here.
    f.ptr = unsafe { lv.ptr.add(off * F::FORMAT.bytes_per_texel()) };
    f
}

/// One level of a lane's lookup: NEAREST or seamless LINEAR at (s, t) of `face`, each
/// texel passed through `texel` (decode, or decode and compare).
#[inline(always)]
fn filter_face<F: TexelLoad>(
    d: &Descriptor,
    level: u32,
    face: u32,
    s: f32,
    t: f32,
    linear: bool,
    texel: &impl Fn([f32; 4]) -> [f32; 4],
) -> [f32; 4] {
    let lv = &d.levels[(level as usize).min(MAX_LEVELS - 1)];
    if lv.ptr.is_null() || lv.width == 0 || lv.depth < 6 {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let n = lv.width;
    let at = |f: u32, x: u32, y: u32| texel(load::<F>(&face_level_of::<F>(lv, f), x, y));
    let nf = n as f32;
    if !linear {
        // s, t ∈ [0, 1]: ⌊s·n⌋ clamped (s = 1 is the last texel).
        let i = split(s * nf).0.clamp(0, n as i64 - 1) as u32;
        let j = split(t * nf).0.clamp(0, n as i64 - 1) as u32;
        return at(face, i, j);
    }
    let (i0, a) = split(s * nf - 0.5);
    let (j0, b) = split(t * nf - 0.5);
    // The footprint's corner is at most one texel outside the face.
    let (i0, j0) = (i0.clamp(-1, n as i64 - 1), j0.clamp(-1, n as i64 - 1));
    let get = |i: i64, j: i64| neighbour(face, i, j, n).map(|(f, x, y)| at(f, x, y));
    let mut q = [
        get(i0, j0),
        get(i0 + 1, j0),
        get(i0, j0 + 1),
        get(i0 + 1, j0 + 1),
    ];
    // At a cube corner one of the four has no texel: the average of the other three
    // (§8.13.1's recommended choice), in a fixed order.
    if let Some(k) = q.iter().position(|v| v.is_none()) {
        let others: Vec<[f32; 4]> = q.iter().flatten().copied().collect();
        let avg =
            |c: usize| others.iter().fold(0.0f32, |acc, v| acc + v[c]) / others.len().max(1) as f32;
        q[k] = Some([avg(0), avg(1), avg(2), avg(3)]);
    }
    let [t00, t10, t01, t11] = q.map(|v| v.unwrap_or([0.0; 4]));
    lerp4(lerp4(t00, t10, a), lerp4(t01, t11, a), b)
}

/// textureGather's footprint on a cube map of face size `n` (GL 4.5 core §8.13.1): the
/// face and (s, t) the direction selects, then the 2×2 LINEAR footprint of the base level,
/// taking texels across edges from the neighbouring faces; at a corner the missing texel
/// is the average of the other three, as `filter_face` does. Returned in gather order
/// (T_i0j1, T_i1j1, T_i1j0, T_i0j0); `texel(face, x, y)` reads one texel.
pub(super) fn gather_footprint(
    _d: &Descriptor,
    n: u32,
    (x, y, z): (f32, f32, f32),
    texel: impl Fn(u32, u32, u32) -> [f32; 4],
) -> [[f32; 4]; 4] {
    let (face, sc, tc, ma) = select_face(x, y, z);
    let (s, t) = face_st(sc, tc, ma);
    let nf = n as f32;
    let (i0, _) = split(s * nf - 0.5);
    let (j0, _) = split(t * nf - 0.5);
    let (i0, j0) = (i0.clamp(-1, n as i64 - 1), j0.clamp(-1, n as i64 - 1));
    let get = |i: i64, j: i64| neighbour(face, i, j, n).map(|(f, x, y)| texel(f, x, y));
    let mut q = [
        get(i0, j0 + 1),
        get(i0 + 1, j0 + 1),
        get(i0 + 1, j0),
        get(i0, j0),
    ];
    if let Some(k) = q.iter().position(|v| v.is_none()) {
        let others: Vec<[f32; 4]> = q.iter().flatten().copied().collect();
        let avg =
            |c: usize| others.iter().fold(0.0f32, |acc, v| acc + v[c]) / others.len().max(1) as f32;
        q[k] = Some([avg(0), avg(1), avg(2), avg(3)]);
    }
    q.map(|v| v.unwrap_or([0.0; 4]))
}

/// λ_base of a cube quad: the four lanes measured on lane 0's face (so the differences are
/// continuous across its edges), then eq. 8.7 with the face size, as `lod::implicit_lambda`
/// does for 2D. 0 outside a fragment quad.
pub(super) fn cube_lambda(d: &Descriptor, req: &TexRequest) -> f32 {
    if req.quad == 0 {
        return 0.0;
    }
    let dir = |l: usize| {
        (
            f32::from_bits(req.coord[0][l]),
            f32::from_bits(req.coord[1][l]),
            f32::from_bits(req.layer[l]),
        )
    };
    let (x0, y0, z0) = dir(0);
    let (face, ..) = select_face(x0, y0, z0);
    let st = |l: usize| {
        let (x, y, z) = dir(l);
        let (sc, tc, ma) = on_face(face, x, y, z);
        face_st(sc, tc, ma)
    };
    let base = &d.levels[(d.base_level as usize).min(MAX_LEVELS - 1)];
    let n = base.width as f32;
    let (s0, t0) = st(0);
    let rho2 = |l: usize| {
        let (s, t) = st(l);
        let (du, dv) = ((s - s0) * n, (t - t0) * n);
        du * du + dv * dv
    };
    0.5 * log2_f32(rho2(1).max(rho2(2)))
}

/// The cube routine: per lane, face and (s, t), λ (`cube_lambda` plus bias, or the
/// explicit LOD, then the clamps), the level plan, and `filter_face` on one or two levels.
/// With `CMP` (compare mode on a depth format) and a shadow lookup, each texel is the
/// comparison with the lane's D_ref (GL 4.5 core §8.23) and the result is (R, 0, 0, 1).
// `out` is indexed `[component][lane]`: a range loop over lanes is the clear form.
#[allow(clippy::needless_range_loop)]
fn sample_cube<F: TexelLoad, const MAG: bool, const MIN: bool, const MIP: u8, const CMP: bool>(
    d: &Descriptor,
    req: &TexRequest,
    lanes: u32,
    out: &mut TexResult,
) {
    let explicit = req.op == TexOp::SampleLod as u32;
    let quad_lambda = if explicit { 0.0 } else { cube_lambda(d, req) };
    let compare = CMP && req.compare != 0;
    for lane in (0..4).filter(|l| lanes & (1 << l) != 0) {
        let arg = f32::from_bits(req.lod[lane]);
        let lam = if explicit {
            final_lambda(d, arg, 0.0)
        } else {
            final_lambda(d, quad_lambda, arg)
        };
        let (x, y, z) = (
            f32::from_bits(req.coord[0][lane]),
            f32::from_bits(req.coord[1][lane]),
            f32::from_bits(req.layer[lane]),
        );
        let (face, sc, tc, ma) = select_face(x, y, z);
        let (s, t) = face_st(sc, tc, ma);
        let p: Plan = plan::<MAG, MIN, MIP>(d, lam);
        let v = if compare {
            let dref = clamp_dref::<F>(f32::from_bits(req.dref[lane]));
            let f = d.compare_func;
            let cmp = move |v: [f32; 4]| [compare_depth(f, dref, v[0]), 0.0, 0.0, 1.0];
            two_levels::<F>(d, p, face, s, t, &cmp)
        } else {
            two_levels::<F>(d, p, face, s, t, &|v| v)
        };
        for c in 0..4 {
            out[c][lane] = v[c].to_bits();
        }
    }
}

/// `filter_face` on the plan's level, or on its two levels blended.
#[inline(always)]
fn two_levels<F: TexelLoad>(
    d: &Descriptor,
    p: Plan,
    face: u32,
    s: f32,
    t: f32,
    texel: &impl Fn([f32; 4]) -> [f32; 4],
) -> [f32; 4] {
    let a = filter_face::<F>(d, p.a, face, s, t, p.linear, texel);
    if p.two {
        let b = filter_face::<F>(d, p.b, face, s, t, p.linear, texel);
        lerp4(a, b, p.w)
    } else {
        a
    }
}

/// The cube routines without depth comparison.
pub(super) struct Cube;
/// The cube routines of a depth format with compare mode on.
pub(super) struct CubeShadow;

impl Family for Cube {
    fn routine<F: TexelLoad, const MAG: bool, const MIN: bool, const MIP: u8>() -> SampleFn {
        sample_cube::<F, MAG, MIN, MIP, false>
    }
}

impl Family for CubeShadow {
    fn routine<F: TexelLoad, const MAG: bool, const MIN: bool, const MIP: u8>() -> SampleFn {
        sample_cube::<F, MAG, MIN, MIP, true>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_follow_table_8_19() {
        // The centre of each face.
        let dirs = [
            (1.0, 0.0, 0.0),
            (-1.0, 0.0, 0.0),
            (0.0, 1.0, 0.0),
            (0.0, -1.0, 0.0),
            (0.0, 0.0, 1.0),
            (0.0, 0.0, -1.0),
        ];
        for (f, &(x, y, z)) in dirs.iter().enumerate() {
            let (face, sc, tc, ma) = select_face(x, y, z);
            assert_eq!(face, f as u32);
            assert_eq!(face_st(sc, tc, ma), (0.5, 0.5));
        }
        // +X: s grows towards −z, t towards −y.
        let (face, sc, tc, ma) = select_face(1.0, -0.5, -0.5);
        assert_eq!((face, face_st(sc, tc, ma)), (0, (0.75, 0.75)));
        // −Y: s grows with x, t towards +z... table 8.19: t_c = −r_z.
        let (face, sc, tc, ma) = select_face(0.5, -1.0, 0.5);
        assert_eq!((face, face_st(sc, tc, ma)), (3, (0.75, 0.25)));
        // Ties: x before y before z.
        assert_eq!(select_face(1.0, 1.0, 1.0).0, 0);
        assert_eq!(select_face(0.0, -1.0, 1.0).0, 3);
    }

    /// Every texel one step past every edge maps to a texel of another face that is next
    /// to the edge, and stepping back from there returns to the first face: the adjacency
    /// is symmetric. Checked with directions too: the neighbour's centre direction selects
    /// the neighbour's face.
    #[test]
    fn neighbours_are_symmetric_and_adjacent() {
        for n in [1u32, 2, 3, 8] {
            for face in 0..6 {
                for k in 0..n as i64 {
                    for (i, j) in [(-1, k), (n as i64, k), (k, -1), (k, n as i64)] {
                        let (f2, x, y) = neighbour(face, i, j, n).unwrap();
                        assert_ne!(f2, face);
                        let on_edge = x == 0 || y == 0 || x == n - 1 || y == n - 1;
                        assert!(on_edge, "n {n} face {face} ({i},{j}) -> {f2} ({x},{y})");
                        // Some step out of (x, y) on f2 comes back to (face, clamp(i), clamp(j)).
                        let back = [(-1, y as i64), (n as i64, y as i64)]
                            .into_iter()
                            .chain([(x as i64, -1), (x as i64, n as i64)])
                            .filter_map(|(a, b)| neighbour(f2, a, b, n))
                            .any(|(f3, a, b)| {
                                f3 == face
                                    && a as i64 == i.clamp(0, n as i64 - 1)
                                    && b as i64 == j.clamp(0, n as i64 - 1)
                            });
                        assert!(back, "n {n} face {face} ({i},{j}) -> {f2} ({x},{y})");
                        // The neighbour texel's centre direction selects its face.
                        let c = |v: u32| (2 * v as i64 + 1 - n as i64) as f32;
                        let (sc, tc, m) = (c(x), c(y), n as f32);
                        let p = match f2 {
                            0 => (m, -tc, -sc),
                            1 => (-m, -tc, sc),
                            2 => (sc, m, tc),
                            3 => (sc, -m, -tc),
                            4 => (sc, -tc, m),
                            _ => (-sc, -tc, -m),
                        };
                        assert_eq!(select_face(p.0, p.1, p.2).0, f2);
                    }
                }
                assert_eq!(neighbour(face, -1, -1, n), None);
                assert_eq!(neighbour(face, n as i64, -1, n), None);
            }
        }
        // +X's right edge (i = n) is −Z's left column; its top (j = −1) is +Y's right column.
        assert_eq!(neighbour(0, 4, 1, 4), Some((5, 0, 1)));
        assert_eq!(neighbour(0, 1, -1, 4), Some((2, 3, 2)));
    }
}
