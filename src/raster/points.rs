//! Point setup (GL 4.5 core §14.4): a point becomes the square of side `size` centred on its
//! window position, as two triangles that share a diagonal, so the pixels covered are those
//! whose centres lie inside the square (ties on its edges by the top-left rule, like any
//! triangle edge). Every varying is constant over the square (the vertex's value, exactly:
//! 1/w is set to 1 so the perspective divide of smooth varyings is `x / 1`; gl_FragCoord.w
//! of a point is therefore 1), except gl_PointCoord (§14.4.1), whose planes run from 0 to
//! 1 across the square. Clipping (§13.5) keeps a point whose centre is inside the near, far
//! and w planes; a point whose centre is off the viewport but inside the x/y guard band still
//! draws the part of its square that is on it, as llvmpipe and GPUs do.

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
/// varyings, `front` the facing fragments see. Appends to `tris` and `planes`.
#[allow(clippy::too_many_arguments)]
pub fn setup_point(
    ctx: &SetupCtx,
    clip: &ClipPlanes,
    params: &PrimParams,
    v: &[f32],
    flat: &[f32],
    front: bool,
    tris: &mut Vec<Triangle>,
    planes: &mut Vec<Plane>,
) {
    if clip.outcode(v) != 0 {
        // Outside the near, far or w planes, or past the guard band (where no part of a
        // square of at most 255 pixels can reach the viewport).
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
            [c[2]; 3],
            [1.0; 3],
            &|corner, k| value(p[corner], k),
            flat,
            front,
            tris,
            planes,
        );
    }
}
