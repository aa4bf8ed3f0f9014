//! Point setup (GL 4.5 core §14.4): a point becomes the square of side `size` centred on its
//! window position, as two triangles that share a diagonal, so the pixels covered are those
//! whose centres lie inside the square (ties on its edges by the top-left rule, like any
//! triangle edge). Every varying is constant over the square (the vertex's value, exactly:
//! 1/w is set to 1 so the perspective divide of smooth varyings is `x / 1`; gl_FragCoord.w
//! of a point is therefore 1), except gl_PointCoord (§14.4.1), whose planes run from 0 to
//! 1 across the square. Clipping (§13.5) discards a point whose centre is outside the clip
//! volume, as llvmpipe does (a wide point centred just off the viewport draws nothing; some
//! GPUs draw its visible part); a kept point's square is cut only by the viewport, scissor
//! and target.

use super::clip::ClipPlanes;
use super::fixed;
use super::front::PrimParams;
use super::setup::{self, Plane, SetupCtx, Triangle};

/// The size a point is drawn with: glPointSize, or gl_PointSize (record word `size_at`)
/// clamped to the supported range (`api::draw::POINT_SIZE_RANGE`, [1, 255]); a NaN size
/// draws at 1.
pub fn point_size(params: &PrimParams, v: &[f32]) -> f64 {
    let s = match params.size_at {
        Some(i) => v[i],
        None => params.point_size,
    };
    if s >= 1.0 {
        s.min(255.0) as f64
    } else {
        1.0
    }
}

/// Sets up point `v` (a clip-space vertex record) as two triangles; `flat` holds the flat
/// varyings, `front` the facing fragments see, `z_add` the polygon offset of a polygon
/// drawn in point mode (else 0). Appends to `tris` and `planes`.
#[allow(clippy::too_many_arguments)]
pub fn setup_point(
    ctx: &SetupCtx,
    clip: &ClipPlanes,
    params: &PrimParams,
    v: &[f32],
    flat: &[f32],
    front: bool,
    z_add: f64,
    tris: &mut Vec<Triangle>,
    planes: &mut Vec<Plane>,
) {
    // GL 4.5 core §13.5: -w <= x, y, z <= w (the outcode covers z and w).
    let w = v[3];
    if clip.outcode(v) != 0 || v[0] < -w || v[0] > w || v[1] < -w || v[1] > w {
        return;
    }
    let size = point_size(params, v);
    let c = ctx.window(v);
    if !c.iter().all(|x| x.is_finite()) {
        return;
    }
    let h = size / 2.0;
    let (x0, x1) = (fixed::snap(c[0] - h), fixed::snap(c[0] + h));
    let (y0, y1) = (fixed::snap(c[1] - h), fixed::snap(c[1] + h));
    // Counter-clockwise corners (y up): bottom left, bottom right, top right, top left.
    let q = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
    let one = fixed::ONE as f64;
    let value = |p: [i64; 2], k: usize| -> f64 {
        // GL 4.5 core §14.4.1: s = 1/2 + (x_f + 1/2 - x_w) / size, t likewise with y, and
        // t flipped for GL_UPPER_LEFT (window y grows upwards).
        if params.sprite[0] == Some(k) {
            0.5 + (p[0] as f64 / one - c[0]) / size
        } else if params.sprite[1] == Some(k) {
            let dy = (p[1] as f64 / one - c[1]) / size;
            if params.sprite_lower_left {
                0.5 + dy
            } else {
                0.5 - dy
            }
        } else {
            v[4 + k] as f64
        }
    };
    for tri in [[0, 1, 2], [0, 2, 3]] {
        let p = tri.map(|i| q[i]);
        setup::setup_snapped(
            ctx,
            p,
            [if z_add != 0.0 { c[2] + z_add } else { c[2] }; 3],
            [1.0; 3],
            &|corner, k| value(p[corner], k),
            flat,
            front,
            tris,
            planes,
        );
    }
}
