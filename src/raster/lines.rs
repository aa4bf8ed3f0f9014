//! Line setup (GL 4.5 core §14.5): a segment, clipped in clip space (§13.5), becomes a
//! parallelogram drawn as two triangles that share a diagonal.
//!
//! What is drawn, exactly (the aliased rules of §14.5.1 and §14.5.2.1, approximated as
//! llvmpipe does): an x-major segment (|dx| >= |dy|) covers, in each pixel column whose
//! centre lies in its half-open x extent [start, end), the pixels whose centres lie within
//! width/2 vertically of the line (a centre exactly on a long edge goes by the top-left
//! rule of that edge); a y-major one likewise with rows and horizontal extent. The start column is in, the end
//! column out, whichever way the segment runs, so strips never draw their joints twice. The
//! diamond-exit rule of width-1 lines is followed at the ends: an endpoint inside its pixel's
//! diamond (|x - xc| + |y - yc| < 1/2) is moved along the line to that pixel's centre
//! column (row), so that the segment draws the pixel it starts in and not the one it ends
//! in. In between, columns and rows are those of a segment of the rectangle rule, which
//! matches the diamond rule except where the line passes within a sub-pixel step of a
//! diamond's corner.
//!
//! Varyings, depth and 1/w are interpolated by t, the position of the fragment centre
//! projected onto the segment (§14.5.1, eq. 14.2), perspective-correct for smooth varyings.

use super::clip::{ClipPlanes, Clipper};
use super::fixed::{self, ONE};
use super::front::PrimParams;
use super::setup::{self, Plane, SetupCtx, Triangle};
use crate::ir::Interpolation;

/// Sets up segment `v` (clip-space vertex records of `stride` floats); `flat` holds the flat
/// varyings, `front` the facing fragments see. Appends to `tris` and `planes`.
#[allow(clippy::too_many_arguments)]
pub fn setup_line(
    ctx: &SetupCtx,
    clip: &ClipPlanes,
    params: &PrimParams,
    v: [&[f32]; 2],
    stride: usize,
    flat: &[f32],
    front: bool,
    clipper: &mut Clipper,
    tris: &mut Vec<Triangle>,
    planes: &mut Vec<Plane>,
) {
    let codes = v.map(|v| clip.outcode(v));
    if codes[0] & codes[1] != 0 {
        return;
    }
    let ends;
    let v = if codes[0] | codes[1] == 0 {
        v
    } else {
        ends = clipper.clip_line(clip, v, stride, codes[0] | codes[1]);
        if ends.len() < 2 * stride {
            return;
        }
        [&ends[..stride], &ends[stride..2 * stride]]
    };
    let w = v.map(|v| ctx.window(v));
    if !w.iter().flatten().all(|c| c.is_finite()) {
        return;
    }
    let (dx, dy) = (w[1][0] - w[0][0], w[1][1] - w[0][1]);
    if dx == 0.0 && dy == 0.0 {
        return;
    }
    // Major axis m, minor axis n.
    let (m, n) = if dx.abs() >= dy.abs() { (0, 1) } else { (1, 0) };
    let d = [dx, dy];
    // Ends inside their pixel's diamond move along the line to the pixel centre's column
    // (x-major) or row (y-major).
    let end = |p: [f64; 3]| -> [f64; 2] {
        let c = [p[0].floor() + 0.5, p[1].floor() + 0.5];
        if (p[0] - c[0]).abs() + (p[1] - c[1]).abs() < 0.5 {
            let s = (c[m] - p[m]) / d[m];
            let mut q = [p[0] + s * dx, p[1] + s * dy];
            q[m] = c[m];
            q
        } else {
            [p[0], p[1]]
        }
    };
    let (a, b) = (end(w[0]), end(w[1]));
    let dir = d[m].signum();
    if (b[m] - a[m]) * dir <= 0.0 {
        return;
    }
    let h = params.line_width as f64 / 2.0;
    let snap = |p: [f64; 2], off: f64| -> [i64; 2] {
        let mut q = p;
        q[n] += off;
        let mut s = [fixed::snap(q[0]), fixed::snap(q[1])];
        // The top-left rule includes left and top edges; the start end must be in and the
        // far end out: moving both ends one step along +x (leftward x-major lines) or -y
        // (upward y-major lines) turns "left/top in" into "start in" on the fixed grid,
        // where pixel centres lie.
        if m == 0 && dir < 0.0 {
            s[0] += 1;
        } else if m == 1 && dir > 0.0 {
            s[1] -= 1;
        }
        s
    };
    let mut q = [snap(a, -h), snap(b, -h), snap(b, h), snap(a, h)];
    if fixed::area2(&[q[0], q[1], q[2]]) < 0 {
        q.reverse();
    }
    // t of a point: its projection onto the segment (GL 4.5 core eq. 14.2).
    let len2 = dx * dx + dy * dy;
    let t_of = |p: [i64; 2]| -> f64 {
        let (px, py) = (p[0] as f64 / ONE as f64, p[1] as f64 / ONE as f64);
        ((px - w[0][0]) * dx + (py - w[0][1]) * dy) / len2
    };
    let inv_w = v.map(|v| 1.0 / v[3] as f64);
    let lerp = |f: [f64; 2], t: f64| f[0] + t * (f[1] - f[0]);
    for tri in [[0, 1, 2], [0, 2, 3]] {
        let p = tri.map(|i| q[i]);
        let t = p.map(t_of);
        let value = |corner: usize, k: usize| -> f64 {
            let f = v.map(|v| v[4 + k] as f64);
            match ctx.interp[k] {
                Interpolation::Smooth => lerp([f[0] * inv_w[0], f[1] * inv_w[1]], t[corner]),
                _ => lerp(f, t[corner]),
            }
        };
        setup::setup_snapped(
            ctx,
            p,
            t.map(|t| lerp([w[0][2], w[1][2]], t)),
            t.map(|t| lerp(inv_w, t)),
            &value,
            flat,
            front,
            tris,
            planes,
        );
    }
}
