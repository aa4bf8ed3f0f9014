//! Fixed-point geometry of setup: snapping window coordinates to 8 sub-pixel bits, 64-bit
//! edge functions with the top-left fill rule, evaluated at pixel centres (+0.5).
//!
//! Window coordinates are GL's: x right, y up, row 0 at the bottom (GL 4.5 core §14.6.1).

/// Sub-pixel bits of snapped vertex positions (DESIGN.md §5).
pub const SUBPIXEL_BITS: u32 = 8;
/// One pixel in fixed-point units.
pub const ONE: i64 = 1 << SUBPIXEL_BITS;
/// Half a pixel: pixel centres sit at `x * ONE + HALF` (GL 4.5 core §14.6.1).
pub const HALF: i64 = ONE / 2;

/// Largest window coordinate magnitude (pixels) a snapped vertex may have. Clipping keeps
/// vertices inside the guard band (`clip.rs`), and snapping clamps to this as a last line of
/// defence. Overflow bound: fixed coordinates stay below 2^29, edge deltas below 2^30, so an
/// edge function term `delta * coord` stays below 2^59 and the sum of three below 2^61.
pub const MAX_WINDOW_COORD: f64 = (1u32 << 20) as f64;

/// Snaps a window coordinate to fixed point (round to nearest, ties away from zero).
/// NaN snaps to 0; callers drop non-finite vertices before this.
pub fn snap(v: f64) -> i64 {
    let c = v.clamp(-MAX_WINDOW_COORD, MAX_WINDOW_COORD);
    if c.is_nan() {
        return 0;
    }
    (c * ONE as f64).round() as i64
}

/// Whether the directed edge `(dx, dy)` of a counter-clockwise triangle (y up) is a top or a
/// left edge. The interior lies to the left of each edge: left edges run downward, top edges
/// run horizontally to the left (the D3D/GL-implementations' top-left rule).
pub fn is_top_left(dx: i64, dy: i64) -> bool {
    dy < 0 || (dy == 0 && dx < 0)
}

/// An edge function in pixel units: `e(px, py) = a * px + b * py + c` is the (biased)
/// signed area at the centre of pixel `(px, py)`; the pixel is on the inner side when
/// `e >= 0`. The bias (-1 for edges that are not top-left) folds the fill rule into the sign.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub a: i64,
    pub b: i64,
    pub c: i64,
}

impl Edge {
    /// The edge from `p0` to `p1` (fixed point) of a counter-clockwise triangle.
    pub fn new(p0: [i64; 2], p1: [i64; 2]) -> Edge {
        let dx = p1[0] - p0[0];
        let dy = p1[1] - p0[1];
        // E(p) = dx * (p.y - y0) - dy * (p.x - x0) with p = (px * ONE + HALF, py * ONE + HALF).
        let bias = if is_top_left(dx, dy) { 0 } else { -1 };
        Edge {
            a: -dy * ONE,
            b: dx * ONE,
            c: dx * (HALF - p0[1]) - dy * (HALF - p0[0]) + bias,
        }
    }
    /// The value at the centre of pixel `(px, py)`.
    #[inline]
    pub fn eval(&self, px: i32, py: i32) -> i64 {
        self.a * px as i64 + self.b * py as i64 + self.c
    }
    /// The largest value over the pixel centres of the rectangle `x0..=x1, y0..=y1`
    /// (a linear function peaks at a corner).
    #[inline]
    pub fn max_over(&self, x0: i32, y0: i32, x1: i32, y1: i32) -> i64 {
        let x = if self.a > 0 { x1 } else { x0 };
        let y = if self.b > 0 { y1 } else { y0 };
        self.eval(x, y)
    }
    /// The smallest value over the pixel centres of the rectangle.
    #[inline]
    pub fn min_over(&self, x0: i32, y0: i32, x1: i32, y1: i32) -> i64 {
        let x = if self.a > 0 { x0 } else { x1 };
        let y = if self.b > 0 { y0 } else { y1 };
        self.eval(x, y)
    }
}

/// Twice the signed area of a fixed-point triangle (positive when counter-clockwise, y up).
pub fn area2(p: &[[i64; 2]; 3]) -> i64 {
    (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Independent brute-force rule: the exact signed area at the pixel centre, with ties
    /// resolved by the top-left rule.
    fn inside_ref(p0: [i64; 2], p1: [i64; 2], px: i32, py: i32) -> bool {
        let cx = px as i64 * 256 + 128;
        let cy = py as i64 * 256 + 128;
        let e = (p1[0] - p0[0]) * (cy - p0[1]) - (p1[1] - p0[1]) * (cx - p0[0]);
        let dx = p1[0] - p0[0];
        let dy = p1[1] - p0[1];
        e > 0 || (e == 0 && (dy < 0 || (dy == 0 && dx < 0)))
    }

    #[test]
    fn snap_rounds_to_eighth_bits() {
        assert_eq!(snap(0.0), 0);
        assert_eq!(snap(1.0), 256);
        assert_eq!(snap(0.5), 128);
        assert_eq!(snap(1.0 / 512.0), 1); // half a step rounds away from zero
        assert_eq!(snap(0.9 / 512.0), 0);
        assert_eq!(snap(-1.25), -320);
        assert_eq!(snap(f64::NAN), 0);
        assert_eq!(snap(1e30), (MAX_WINDOW_COORD as i64) * 256);
        assert_eq!(snap(-1e30), -(MAX_WINDOW_COORD as i64) * 256);
    }

    #[test]
    fn top_left_classification() {
        // CCW triangle (0,0) (4,0) (0,4): bottom edge, hypotenuse (right), left edge.
        assert!(!is_top_left(4, 0)); // bottom
        assert!(!is_top_left(-4, 4)); // right side going up
        assert!(is_top_left(0, -4)); // left edge going down
        assert!(is_top_left(-4, 0)); // top edge going left
    }

    #[test]
    fn edge_matches_reference_and_fill_rule() {
        // A pixel-aligned square split on the diagonal: centres fall exactly on edges.
        let a = [0, 0];
        let b = [4 * 256, 0];
        let c = [4 * 256, 4 * 256];
        let d = [0, 4 * 256];
        // Edges through pixel centres: vertical line x = 1.5.
        let e_left = [[384, 1024], [384, 0]]; // goes down: left edge, centres on it are in
        let e_right = [[384, 0], [384, 1024]]; // goes up: right edge, centres are out
        let l = Edge::new(e_left[0], e_left[1]);
        let r = Edge::new(e_right[0], e_right[1]);
        assert!(l.eval(1, 2) >= 0);
        assert!(r.eval(1, 2) < 0);
        for (p0, p1) in [
            (a, b),
            (b, c),
            (c, d),
            (d, a),
            (a, c),
            (c, a),
            (b, d),
            (d, b),
        ] {
            let e = Edge::new(p0, p1);
            for py in -2..6 {
                for px in -2..6 {
                    assert_eq!(e.eval(px, py) >= 0, inside_ref(p0, p1, px, py));
                }
            }
            let (mx, mn) = (e.max_over(-2, -2, 5, 5), e.min_over(-2, -2, 5, 5));
            for py in -2..6 {
                for px in -2..6 {
                    assert!(e.eval(px, py) <= mx && e.eval(px, py) >= mn);
                }
            }
        }
    }

    #[test]
    fn horizontal_shared_edge_goes_to_one_side() {
        // Pixel centres on y = 2.5: the triangle above owns them when its edge is a bottom
        // edge? No: the edge at y = 2.5 is the top edge of the lower triangle (runs left).
        let lower_top = Edge::new([1024, 640], [0, 640]);
        let upper_bottom = Edge::new([0, 640], [1024, 640]);
        assert!(lower_top.eval(1, 2) >= 0);
        assert!(upper_bottom.eval(1, 2) < 0);
    }

    #[test]
    fn area_sign() {
        assert!(area2(&[[0, 0], [256, 0], [0, 256]]) > 0);
        assert!(area2(&[[0, 0], [0, 256], [256, 0]]) < 0);
        assert_eq!(area2(&[[0, 0], [256, 256], [512, 512]]), 0);
    }
}
