//! Triangle setup (GL 4.5 core §14.6): viewport transform and depth range, snapping to fixed
//! point, facing and culling, edge functions, the bounding box, and plane equations for
//! window z, 1/w and the varyings (pre-divided by w for perspective-correct interpolation,
//! screen-linear for `noperspective`, the provoking vertex's bits for `flat`).

use super::draw::RasterState;
use super::fixed::{self, Edge, ONE};
use crate::gl::{CullFace, FrontFace};
use crate::ir::Interpolation;

/// `value(px, py) = c + a * (px - x0) + b * (py - y0)` at the centre of pixel (px, py), where
/// (x0, y0) is the triangle's `origin` pixel. Evaluating relative to a nearby integer pixel
/// keeps f32 exact in the step terms; `c` is computed in f64. `#[repr(C)]`: the fragment
/// variant's block entry reads a triangle's planes in place (`jit::abi::FragBlock::planes`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Plane {
    pub a: f32,
    pub b: f32,
    pub c: f32,
}

// Generated code reads planes as `[a, b, c]` f32 (`jit::abi::PLANE_SIZE`).
const _: () = {
    assert!(std::mem::size_of::<Plane>() == crate::jit::abi::PLANE_SIZE as usize);
    assert!(std::mem::offset_of!(Plane, a) == 0);
    assert!(std::mem::offset_of!(Plane, b) == 4);
    assert!(std::mem::offset_of!(Plane, c) == 8);
};

impl Plane {
    #[inline]
    pub fn eval(&self, dx: f32, dy: f32) -> f32 {
        self.c + self.a * dx + self.b * dy
    }
}

/// A set-up triangle, ready for any tile.
#[derive(Clone, Debug)]
pub struct Triangle {
    /// Counter-clockwise edges (v0→v1, v1→v2, v2→v0) with the fill rule folded in.
    pub edges: [Edge; 3],
    /// Inclusive pixel bounds `[x0, y0, x1, y1]`, already limited to the draw's raster rect.
    pub bbox: [i32; 4],
    /// The integer pixel the planes are relative to.
    pub origin: [i32; 2],
    /// Window z (depth range applied).
    pub z: Plane,
    /// 1 / clip w.
    pub inv_w: Plane,
    /// Index of the first of this triangle's varying planes in the draw's plane list.
    pub varyings: u32,
    pub front: bool,
}

/// Per-draw constants of setup.
#[derive(Clone, Debug)]
pub struct SetupCtx {
    /// Window x = ndc x * scale[0] + offset[0], and so on for y, z (GL 4.5 core §13.6.1).
    scale: [f64; 3],
    offset: [f64; 3],
    /// Inclusive pixel rect fragments may land in: viewport ∩ scissor ∩ target.
    pub rect: [i32; 4],
    cull: Option<CullFace>,
    front_ccw: bool,
    pub interp: Vec<Interpolation>,
    /// Polygon offset factor, units, clamp and modes (`PrimState`).
    depth_offset: [f32; 3],
    offset_modes: u8,
    /// The depth buffer holds floats: the offset's unit r depends on the depth (§14.6.5).
    pub float_depth: bool,
    /// GL_DEPTH_CLAMP with a depth range other than [0, 1]: window z clamps to
    /// [min(n, f), max(n, f)] (the depth test's own saturation clamps to [0, 1]), and
    /// triangles are split where they cross the near and far planes (`front.rs`).
    pub depth_clamp: Option<[f64; 2]>,
    /// glClipControl's GL_ZERO_TO_ONE: the near plane is z = 0.
    zero_to_one: bool,
    /// The sample pass's move of snapped positions, in sub-pixel units
    /// (`multisample::shift`; 0 for single-sample targets).
    sample_shift: [i64; 2],
}

impl SetupCtx {
    /// None when nothing can be drawn (empty viewport, scissor or target).
    pub fn new(
        state: &RasterState,
        width: u32,
        height: u32,
        interp: Vec<Interpolation>,
    ) -> Option<SetupCtx> {
        let [vx, vy, vw, vh] = state.viewport;
        if vw <= 0 || vh <= 0 {
            return None;
        }
        let mut rect = [
            vx.max(0),
            vy.max(0),
            (vx as i64 + vw as i64 - 1).min(width as i64 - 1) as i32,
            (vy as i64 + vh as i64 - 1).min(height as i64 - 1) as i32,
        ];
        if let Some(s) = state.scissor {
            rect = intersect(rect, scissor_rect(s)?);
        }
        if rect[0] > rect[2] || rect[1] > rect[3] {
            return None;
        }
        let [n, f] = state.depth_range.map(|d| d.clamp(0.0, 1.0));
        let clip = state.clip;
        // GL 4.5 core §13.6.1: z_w = (f − n)/2 · z_d + (n + f)/2, or (f − n) · z_d + n under
        // GL_ZERO_TO_ONE; y_w = ±(h/2) · y_d + o_y, negated under GL_UPPER_LEFT.
        let (z_scale, z_offset) = if clip.zero_to_one {
            (f - n, n)
        } else {
            ((f - n) / 2.0, (n + f) / 2.0)
        };
        let y_scale = if clip.upper_left {
            -(vh as f64) / 2.0
        } else {
            vh as f64 / 2.0
        };
        Some(SetupCtx {
            scale: [vw as f64 / 2.0, y_scale, z_scale],
            offset: [
                vx as f64 + vw as f64 / 2.0,
                vy as f64 + vh as f64 / 2.0,
                z_offset,
            ],
            rect,
            cull: state.cull_face,
            // §14.6.1: the sign of the area is reversed under GL_UPPER_LEFT, so a triangle
            // keeps its facing when clip control flips the window.
            front_ccw: (state.front_face == FrontFace::Ccw) != clip.upper_left,
            interp,
            depth_offset: state.prims.offset,
            offset_modes: state.prims.offset_modes,
            float_depth: false,
            depth_clamp: (clip.depth_clamp && [n.min(f), n.max(f)] != [0.0, 1.0])
                .then_some([n.min(f), n.max(f)]),
            zero_to_one: clip.zero_to_one,
            sample_shift: state.multisample.shift.map(i64::from),
        })
    }

    /// The facing of triangle `v` (clip space, w > 0) from its snapped window area (GL 4.5
    /// core §14.6.1), or None when it has no area or culling removes it.
    pub fn facing(&self, v: [&[f32]; 3]) -> Option<bool> {
        let win = v.map(|v| self.window(v));
        if !win.iter().flatten().all(|c| c.is_finite()) {
            return None;
        }
        let p = win.map(|w| [fixed::snap(w[0]), fixed::snap(w[1])]);
        let area = fixed::area2(&p);
        if area == 0 {
            return None;
        }
        let front = (area > 0) == self.front_ccw;
        match self.cull {
            Some(CullFace::FrontAndBack) => None,
            Some(CullFace::Front) if front => None,
            Some(CullFace::Back) if !front => None,
            _ => Some(front),
        }
    }

    /// The polygon offset (GL 4.5 core §14.6.5) of the triangle with window coordinates
    /// `win`, when offset is on for `mode` (bit 0 fill, 1 line, 2 point), else 0:
    /// `m * factor + r * units`, m the larger of |dz/dx| and |dz/dy|, r 2^-24 for a
    /// fixed-point depth buffer (24 bits) and 2^(e - 23) for a float one, e the exponent of
    /// the largest |z|; limited by a non-zero clamp (GL 4.6).
    pub fn depth_offset(&self, mode: u8, win: [[f64; 3]; 3]) -> f64 {
        if self.offset_modes & mode == 0 {
            return 0.0;
        }
        let [factor, units, clamp] = self.depth_offset.map(|v| v as f64);
        let (dx1, dy1, dz1) = (
            win[1][0] - win[0][0],
            win[1][1] - win[0][1],
            win[1][2] - win[0][2],
        );
        let (dx2, dy2, dz2) = (
            win[2][0] - win[0][0],
            win[2][1] - win[0][1],
            win[2][2] - win[0][2],
        );
        let det = dx1 * dy2 - dx2 * dy1;
        let m = if det == 0.0 {
            0.0
        } else {
            let a = (dz1 * dy2 - dz2 * dy1) / det;
            let b = (dz2 * dx1 - dz1 * dx2) / det;
            a.abs().max(b.abs())
        };
        let r = if self.float_depth {
            let z = win
                .iter()
                .fold(0.0f64, |z, w| z.max((w[2] as f32).abs() as f64));
            let e = ((z.to_bits() >> 52) & 0x7ff) as i64 - 1023;
            // 2^(e - 23) from its bits (exact); z = 0 gives the smallest normal's step.
            f64::from_bits((((e - 23).max(-1022) + 1023) as u64) << 52)
        } else {
            1.0 / (1u32 << 24) as f64
        };
        let o = m * factor + r * units;
        let o = if clamp > 0.0 {
            o.min(clamp)
        } else if clamp < 0.0 {
            o.max(clamp)
        } else {
            o
        };
        if o.is_finite() {
            o
        } else {
            0.0
        }
    }

    /// Window coordinates of a clip-space position (w > 0 after clipping).
    pub fn window(&self, v: &[f32]) -> [f64; 3] {
        let inv = 1.0 / v[3] as f64;
        let z = v[2] as f64 * inv * self.scale[2] + self.offset[2];
        [
            v[0] as f64 * inv * self.scale[0] + self.offset[0],
            v[1] as f64 * inv * self.scale[1] + self.offset[1],
            match self.depth_clamp {
                Some([lo, hi]) => z.clamp(lo, hi),
                None => z,
            },
        ]
    }

    /// The clip-space z of the near (`far` false) or far plane at `w`: -w (0 under
    /// GL_ZERO_TO_ONE) or w.
    pub fn plane_z(&self, far: bool, w: f32) -> f32 {
        match (far, self.zero_to_one) {
            (true, _) => w,
            (false, false) => -w,
            (false, true) => 0.0,
        }
    }
}

/// A scissor box `[x, y, w, h]` as an inclusive rect; None when empty.
pub fn scissor_rect(s: [i32; 4]) -> Option<[i32; 4]> {
    if s[2] <= 0 || s[3] <= 0 {
        return None;
    }
    Some([
        s[0],
        s[1],
        (s[0] as i64 + s[2] as i64 - 1).min(i32::MAX as i64) as i32,
        (s[1] as i64 + s[3] as i64 - 1).min(i32::MAX as i64) as i32,
    ])
}

/// Intersection of inclusive rects (may come out empty: x0 > x1 or y0 > y1).
pub fn intersect(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    [
        a[0].max(b[0]),
        a[1].max(b[1]),
        a[2].min(b[2]),
        a[3].min(b[3]),
    ]
}

/// The snapped fixed-point window position of a clip-space vertex (shared with tests so
/// that brute-force references snap exactly as setup does).
pub fn snap_vertex(ctx: &SetupCtx, v: &[f32]) -> [i64; 2] {
    let w = ctx.window(v);
    [fixed::snap(w[0]), fixed::snap(w[1])]
}

/// Sets up the triangle `v` (clip-space vertices after clipping, each x y z w + varyings);
/// `flat` holds the provoking vertex's varyings. `winding` is the orientation (true:
/// counter-clockwise) of the polygon a clipped triangle came from: its pieces share that
/// facing, and a sliver that snapping flipped is dropped. Appends to `tris` and `planes`;
/// returns false when the triangle is culled, degenerate or outside the rect.
pub fn setup_triangle(
    ctx: &SetupCtx,
    v: [&[f32]; 3],
    flat: &[f32],
    winding: Option<bool>,
    tris: &mut Vec<Triangle>,
    planes: &mut Vec<Plane>,
) -> bool {
    let win = v.map(|v| ctx.window(v));
    // Overflowing clip coordinates can still make non-finite window positions.
    if !win.iter().flatten().all(|c| c.is_finite()) {
        return false;
    }
    let p = win.map(|w| [fixed::snap(w[0]), fixed::snap(w[1])]);
    let area = fixed::area2(&p);
    if area == 0 {
        return false;
    }
    // GL 4.5 core §14.6.1: the sign of the window-space area decides the facing.
    let ccw = area > 0;
    if winding.is_some_and(|w| w != ccw) {
        return false;
    }
    let front = ccw == ctx.front_ccw;
    match ctx.cull {
        Some(CullFace::FrontAndBack) => return false,
        Some(CullFace::Front) if front => return false,
        Some(CullFace::Back) if !front => return false,
        _ => {}
    }
    // Walk the edges counter-clockwise whatever the winding.
    let order = if ccw { [0, 1, 2] } else { [0, 2, 1] };
    let z_add = ctx.depth_offset(1, win);
    let inv_w = order.map(|i| 1.0 / v[i][3] as f64);
    let interp = &ctx.interp;
    let value = |c: usize, k: usize| -> f64 {
        let f = v[order[c]][4 + k] as f64;
        match interp[k] {
            Interpolation::Smooth => f * inv_w[c],
            _ => f,
        }
    };
    setup_snapped(
        ctx,
        order.map(|i| p[i]),
        // No offset: the vertices' z as they are (+ 0.0 would turn -0.0 into +0.0).
        order.map(|i| {
            if z_add != 0.0 {
                win[i][2] + z_add
            } else {
                win[i][2]
            }
        }),
        inv_w,
        &value,
        flat,
        front,
        tris,
        planes,
    )
}

/// Sets up a counter-clockwise triangle of snapped window positions `p` whose window z, 1/w
/// and varying plane values (`value(corner, k)`: pre-divided by w for smooth varyings) are
/// given per corner; `flat` holds the flat varyings. Points and lines come here with their
/// own corners (`points.rs`, `lines.rs`). Returns false when it covers no pixel centre of
/// the rect.
#[allow(clippy::too_many_arguments)]
pub fn setup_snapped(
    ctx: &SetupCtx,
    p: [[i64; 2]; 3],
    z: [f64; 3],
    inv_w: [f64; 3],
    value: &dyn Fn(usize, usize) -> f64,
    flat: &[f32],
    front: bool,
    tris: &mut Vec<Triangle>,
    planes: &mut Vec<Plane>,
) -> bool {
    // A sample pass tests its sample's position at pixel centres (`multisample`).
    let [sx, sy] = ctx.sample_shift;
    let p = p.map(|q| [q[0] + sx, q[1] + sy]);
    let (mut lo, mut hi) = (p[0], p[0]);
    for q in &p[1..] {
        lo = [lo[0].min(q[0]), lo[1].min(q[1])];
        hi = [hi[0].max(q[0]), hi[1].max(q[1])];
    }
    // Pixels whose centres (px * ONE + ONE / 2) can lie inside the bounds.
    let first = |m: i64| -((fixed::HALF - m).div_euclid(ONE)) as i32;
    let last = |m: i64| (m - fixed::HALF).div_euclid(ONE) as i32;
    let bbox = intersect(
        [first(lo[0]), first(lo[1]), last(hi[0]), last(hi[1])],
        ctx.rect,
    );
    if bbox[0] > bbox[2] || bbox[1] > bbox[3] {
        return false;
    }
    let edges = [
        Edge::new(p[0], p[1]),
        Edge::new(p[1], p[2]),
        Edge::new(p[2], p[0]),
    ];

    // Plane equations over the snapped positions (f64), relative to the bbox corner.
    let pos = p.map(|q| [q[0] as f64 / ONE as f64, q[1] as f64 / ONE as f64]);
    let (dx1, dy1) = (pos[1][0] - pos[0][0], pos[1][1] - pos[0][1]);
    let (dx2, dy2) = (pos[2][0] - pos[0][0], pos[2][1] - pos[0][1]);
    let det = dx1 * dy2 - dx2 * dy1;
    let origin = [bbox[0], bbox[1]];
    let ox = origin[0] as f64 + 0.5 - pos[0][0];
    let oy = origin[1] as f64 + 0.5 - pos[0][1];
    let plane = |f: [f64; 3]| -> Plane {
        let (df1, df2) = (f[1] - f[0], f[2] - f[0]);
        let a = (df1 * dy2 - df2 * dy1) / det;
        let b = (df2 * dx1 - df1 * dx2) / det;
        Plane {
            a: a as f32,
            b: b as f32,
            c: (f[0] + a * ox + b * oy) as f32,
        }
    };
    let z = plane(z);
    let inv_w_plane = plane(inv_w);
    let first_plane = planes.len() as u32;
    for (k, interp) in ctx.interp.iter().enumerate() {
        planes.push(match interp {
            Interpolation::Flat => Plane {
                a: 0.0,
                b: 0.0,
                c: flat[k],
            },
            _ => plane([value(0, k), value(1, k), value(2, k)]),
        });
    }
    tris.push(Triangle {
        edges,
        bbox,
        origin,
        z,
        inv_w: inv_w_plane,
        varyings: first_plane,
        front,
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn state(w: i32, h: i32) -> RasterState {
        RasterState::initial(w, h)
    }

    #[test]
    fn viewport_and_depth_range() {
        let mut st = state(100, 50);
        st.viewport = [10, 20, 100, 50];
        st.depth_range = [0.25, 0.75];
        let ctx = SetupCtx::new(&st, 200, 200, vec![]).unwrap();
        assert_eq!(ctx.window(&[0.0, 0.0, 0.0, 1.0]), [60.0, 45.0, 0.5]);
        assert_eq!(ctx.window(&[-2.0, 2.0, -2.0, 2.0]), [10.0, 70.0, 0.25]);
        assert_eq!(ctx.rect, [10, 20, 109, 69]);
        st.scissor = Some([0, 0, 15, 25]);
        let ctx = SetupCtx::new(&st, 200, 200, vec![]).unwrap();
        assert_eq!(ctx.rect, [10, 20, 14, 24]);
        st.scissor = Some([0, 0, 0, 25]);
        assert!(SetupCtx::new(&st, 200, 200, vec![]).is_none());
        st.viewport = [0, 0, 0, 10];
        st.scissor = None;
        assert!(SetupCtx::new(&st, 200, 200, vec![]).is_none());
    }

    #[test]
    fn culling_and_facing() {
        let ccw: [&[f32]; 3] = [
            &[-1.0, -1.0, 0.0, 1.0],
            &[1.0, -1.0, 0.0, 1.0],
            &[-1.0, 1.0, 0.0, 1.0],
        ];
        let cw: [&[f32]; 3] = [ccw[0], ccw[2], ccw[1]];
        for (cull, front_face, want_ccw, want_cw) in [
            (None, FrontFace::Ccw, Some(true), Some(false)),
            (Some(CullFace::Back), FrontFace::Ccw, Some(true), None),
            (Some(CullFace::Front), FrontFace::Ccw, None, Some(false)),
            (Some(CullFace::Back), FrontFace::Cw, None, Some(true)),
            (Some(CullFace::FrontAndBack), FrontFace::Ccw, None, None),
        ] {
            let mut st = state(16, 16);
            st.cull_face = cull;
            st.front_face = front_face;
            let ctx = SetupCtx::new(&st, 16, 16, vec![]).unwrap();
            for (tri, want) in [(ccw, want_ccw), (cw, want_cw)] {
                let (mut t, mut p) = (vec![], vec![]);
                let kept = setup_triangle(&ctx, tri, &[], None, &mut t, &mut p);
                assert_eq!(kept.then(|| t[0].front), want, "{cull:?} {front_face:?}");
            }
        }
    }

    #[test]
    fn planes_reproduce_vertex_values() {
        let ctx = SetupCtx::new(
            &state(64, 64),
            64,
            64,
            vec![Interpolation::NoPerspective, Interpolation::Flat],
        )
        .unwrap();
        // Vertices at pixel centres (4.5, 4.5), (60.5, 4.5), (4.5, 40.5).
        let ndc = |x: f32, y: f32| [x / 32.0 - 1.0, y / 32.0 - 1.0];
        let a = ndc(4.5, 4.5);
        let b = ndc(60.5, 4.5);
        let c = ndc(4.5, 40.5);
        let v0 = [a[0], a[1], 0.0, 1.0, 1.0, 7.0];
        let v1 = [b[0], b[1], 0.5, 1.0, 2.0, 8.0];
        let v2 = [c[0], c[1], 1.0, 1.0, 3.0, 9.0];
        let (mut t, mut p) = (vec![], vec![]);
        assert!(setup_triangle(
            &ctx,
            [&v0, &v1, &v2],
            &v2[4..],
            None,
            &mut t,
            &mut p
        ));
        let t = &t[0];
        let at = |pl: &Plane, x: i32, y: i32| {
            pl.eval((x - t.origin[0]) as f32, (y - t.origin[1]) as f32)
        };
        assert!((at(&t.z, 4, 4) - 0.5).abs() < 1e-6);
        assert!((at(&t.z, 60, 4) - 0.75).abs() < 1e-6);
        assert!((at(&t.z, 4, 40) - 1.0).abs() < 1e-6);
        assert!((at(&p[0], 60, 4) - 2.0).abs() < 1e-5);
        assert!((at(&p[0], 4, 40) - 3.0).abs() < 1e-5);
        assert_eq!(at(&p[1], 30, 10), 9.0);
        assert_eq!(t.bbox, [4, 4, 60, 40]);
    }
}
