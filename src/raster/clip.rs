//! Clipping in clip space (GL 4.5 core §13.5): near and far planes (z >= -w, or z >= 0
//! under glClipControl's GL_ZERO_TO_ONE; neither under GL_DEPTH_CLAMP), a w > epsilon plane,
//! x/y planes at a large guard band, so that triangles poking out of the viewport are not cut
//! (the tile rectangle and the viewport limit rasterization) but no vertex can overflow the
//! fixed-point range of setup (`fixed::MAX_WINDOW_COORD`), and the enabled clip distances
//! (gl_ClipDistance[i] >= 0 is inside, read from the vertex record). Varyings of new vertices
//! are interpolated linearly in clip space, which is perspective-correct; clip distances too
//! (§13.5: they interpolate like the position).

use super::draw::ClipState;

/// Smallest w a vertex keeps after clipping: keeps 1/w finite.
pub const W_EPSILON: f32 = 1e-6;

/// The fixed planes: near, far, w, then four guard-band planes.
const FIXED: usize = 7;
/// Every plane: the fixed ones, then GL_CLIP_DISTANCE0..7.
pub const PLANES: usize = FIXED + 8;

/// The clip planes of one draw: `dot(plane, (x, y, z, w)) >= 0` is inside; plane
/// `FIXED + i` is clip distance i, record word `dist_at + i`.
#[derive(Copy, Clone, Debug)]
pub struct ClipPlanes {
    planes: [[f32; 4]; FIXED],
    /// The planes tested (bit i: plane i).
    active: u32,
    /// Record word of gl_ClipDistance[0].
    dist_at: usize,
    /// Record word of gl_CullDistance[0] and how many there are (0: no culling).
    cull_at: usize,
    cull_n: u32,
}

/// Guard band half-size in window pixels. Half of `fixed::MAX_WINDOW_COORD`, leaving room for
/// the viewport offset.
const GUARD_PX: f64 = (1u32 << 19) as f64;

impl ClipPlanes {
    /// Planes for a viewport `[x, y, width, height]` (width and height > 0) under GL's
    /// initial clip state.
    pub fn new(viewport: [i32; 4]) -> ClipPlanes {
        ClipPlanes::for_draw(viewport, &ClipState::default(), None)
    }

    /// The planes of a draw: `distances` is the record word of gl_ClipDistance[0] and how
    /// many the vertex shader writes, when it writes any. An enabled clip distance the
    /// shader does not write is left out (GL 4.5 core §13.5 calls its value undefined).
    pub fn for_draw(
        viewport: [i32; 4],
        clip: &ClipState,
        distances: Option<(usize, u32)>,
    ) -> ClipPlanes {
        // Largest |ndc| whose window coordinate stays inside the guard band, per axis.
        let guard = |origin: i32, size: i32| -> f32 {
            let half = (size.max(1) as f64) / 2.0;
            let room = GUARD_PX - (origin as f64).abs() - half;
            (room / half).max(1.0) as f32
        };
        let gx = guard(viewport[0], viewport[2]);
        let gy = guard(viewport[1], viewport[3]);
        let (dist_at, written) = distances.unwrap_or((0, 0));
        let written = if written >= 8 {
            0xFF
        } else {
            (1u32 << written) - 1
        };
        let depth = if clip.depth_clamp { 0 } else { 0b11 };
        ClipPlanes {
            active: depth | 0b111_1100 | ((clip.distances as u32 & written) << FIXED),
            dist_at,
            cull_at: 0,
            cull_n: 0,
            planes: [
                // near: z >= -w, or z >= 0 under GL_ZERO_TO_ONE
                [0.0, 0.0, 1.0, if clip.zero_to_one { 0.0 } else { 1.0 }],
                [0.0, 0.0, -1.0, 1.0], // far: z <= w
                [0.0, 0.0, 0.0, 1.0],  // w >= epsilon (distance offset below)
                [-1.0, 0.0, 0.0, gx],  // x <= gx * w
                [1.0, 0.0, 0.0, gx],   // x >= -gx * w
                [0.0, -1.0, 0.0, gy],  // y <= gy * w
                [0.0, 1.0, 0.0, gy],   // y >= -gy * w
            ],
        }
    }

    /// The same planes, culling by the `n` cull distances at record word `at` when the vertex
    /// shader writes gl_CullDistance (`vertex::cull_distance_words`).
    pub fn with_cull_distances(mut self, culls: Option<(usize, u32)>) -> ClipPlanes {
        (self.cull_at, self.cull_n) = culls.unwrap_or((0, 0));
        self
    }

    /// Whether the primitive of vertex records `v` is culled (GL 4.5 core §13.5,
    /// GL_ARB_cull_distance): all its vertices have a negative value for the same cull
    /// distance. NaN is not negative, so it never culls.
    #[inline]
    pub fn culls(&self, v: &[&[f32]]) -> bool {
        (0..self.cull_n as usize).any(|i| v.iter().all(|v| v[self.cull_at + i] < 0.0))
    }

    /// Signed distance of `v` from plane `i` (inside when >= 0).
    #[inline]
    pub fn dist(&self, i: usize, v: &[f32]) -> f32 {
        if i >= FIXED {
            return v[self.dist_at + i - FIXED];
        }
        let p = &self.planes[i];
        let d = p[0] * v[0] + p[1] * v[1] + p[2] * v[2] + p[3] * v[3];
        if i == 2 {
            d - W_EPSILON
        } else {
            d
        }
    }

    /// Bit i set when `v` is outside active plane i. NaN counts as outside everything.
    ///
    /// The fixed planes are tested all at once, without branches: each distance is the
    /// same IEEE sum of products as `dist`'s, in the same order (a plane's zero
    /// coefficients included), so every bit is the one `dist` gives (`tests::outcodes`
    /// compares them). The loop over active planes it replaces was 11% of the instructions of
    /// `tris_200k_depth`.
    #[inline]
    pub fn outcode(&self, v: &[f32]) -> u32 {
        let [x, y, z, w] = [v[0], v[1], v[2], v[3]];
        let mut code = 0;
        for (i, p) in self.planes.iter().enumerate() {
            let d = p[0] * x + p[1] * y + p[2] * z + p[3] * w;
            // `dist`'s offset of the w plane; x − 0.0 is x for every other plane.
            let d = d - if i == 2 { W_EPSILON } else { 0.0 };
            code |= u32::from(d.is_nan() || d < 0.0) << i;
        }
        code &= self.active;
        let mut distances = self.active >> FIXED;
        while distances != 0 {
            let i = distances.trailing_zeros() as usize;
            distances &= distances - 1;
            let d = v[self.dist_at + i];
            if d.is_nan() || d < 0.0 {
                code |= 1 << (FIXED + i);
            }
        }
        code
    }

    /// `outcode` one active plane at a time through `dist` (the reference it is tested
    /// against).
    #[cfg(test)]
    fn outcode_by_dist(&self, v: &[f32]) -> u32 {
        let mut code = 0;
        let mut planes = self.active;
        while planes != 0 {
            let i = planes.trailing_zeros() as usize;
            planes &= planes - 1;
            let d = self.dist(i, v);
            if d.is_nan() || d < 0.0 {
                code |= 1 << i;
            }
        }
        code
    }
}

/// Reusable buffers of the polygon clipper (no allocation once warm).
#[derive(Default)]
pub struct Clipper {
    a: Vec<f32>,
    b: Vec<f32>,
}

impl Clipper {
    /// Clips segment `v` (each `stride` floats) against the planes in `codes_or`
    /// (parametric, GL 4.5 core §13.5); returns its two endpoints, `stride` floats each, or
    /// nothing when no part is inside. New endpoints interpolate every word linearly in clip
    /// space, as polygon clipping does.
    pub fn clip_line<'s>(
        &'s mut self,
        planes: &ClipPlanes,
        v: [&[f32]; 2],
        stride: usize,
        codes_or: u32,
    ) -> &'s [f32] {
        self.a.clear();
        let (mut t0, mut t1) = (0.0f32, 1.0f32);
        for plane in 0..PLANES {
            if codes_or & (1 << plane) == 0 {
                continue;
            }
            let (d0, d1) = (planes.dist(plane, v[0]), planes.dist(plane, v[1]));
            if d0 < 0.0 && d1 < 0.0 {
                return &self.a;
            }
            if d0 < 0.0 {
                t0 = t0.max(d0 / (d0 - d1));
            } else if d1 < 0.0 {
                t1 = t1.min(d0 / (d0 - d1));
            }
        }
        if t0.is_nan() || t1.is_nan() || t0 >= t1 {
            return &self.a;
        }
        for t in [t0, t1] {
            for (&a, &b) in v[0][..stride].iter().zip(&v[1][..stride]) {
                // The endpoint itself where t is 0 or 1, bit for bit.
                self.a.push(if t == 0.0 {
                    a
                } else if t == 1.0 {
                    b
                } else {
                    a + t * (b - a)
                });
            }
        }
        &self.a
    }

    /// Clips triangle `v` (each `stride` floats: x, y, z, w, then varyings) against the planes
    /// in `codes_or`. Returns the polygon's vertices, `stride` floats each (possibly empty).
    pub fn clip<'s>(
        &'s mut self,
        planes: &ClipPlanes,
        v: [&[f32]; 3],
        stride: usize,
        codes_or: u32,
    ) -> &'s [f32] {
        self.a.clear();
        for vert in v {
            self.a.extend_from_slice(&vert[..stride]);
        }
        for plane in 0..PLANES {
            if codes_or & (1 << plane) == 0 {
                continue;
            }
            self.b.clear();
            let n = self.a.len() / stride;
            for i in 0..n {
                let cur = &self.a[i * stride..(i + 1) * stride];
                let next = &self.a[((i + 1) % n) * stride..((i + 1) % n + 1) * stride];
                let dc = planes.dist(plane, cur);
                let dn = planes.dist(plane, next);
                let cur_in = dc >= 0.0;
                let next_in = dn >= 0.0;
                if cur_in {
                    self.b.extend_from_slice(cur);
                }
                if cur_in != next_in {
                    // Always interpolate from the inside vertex, so that an edge shared by
                    // two triangles (walked in opposite directions) gets the same new vertex.
                    let (vin, vout, din, dout) = if cur_in {
                        (cur, next, dc, dn)
                    } else {
                        (next, cur, dn, dc)
                    };
                    let t = din / (din - dout);
                    for k in 0..stride {
                        self.b.push(vin[k] + t * (vout[k] - vin[k]));
                    }
                }
            }
            std::mem::swap(&mut self.a, &mut self.b);
            if self.a.len() < 3 * stride {
                self.a.clear();
                break;
            }
        }
        &self.a
    }
}

/// Splits polygon `poly` (vertices of `stride` floats) by the plane `dist(v) = 0` into the
/// part where `dist >= 0` and the part where it is negative (either may be empty). New
/// vertices interpolate from the inside vertex, so both parts share them bit for bit.
pub fn split_polygon(
    poly: &[f32],
    stride: usize,
    dist: impl Fn(&[f32]) -> f32,
) -> (Vec<f32>, Vec<f32>) {
    let (mut inside, mut outside) = (Vec::new(), Vec::new());
    let n = poly.len() / stride;
    for i in 0..n {
        let cur = &poly[i * stride..(i + 1) * stride];
        let next = &poly[((i + 1) % n) * stride..((i + 1) % n + 1) * stride];
        let (dc, dn) = (dist(cur), dist(next));
        let (cur_in, next_in) = (dc >= 0.0, dn >= 0.0);
        if cur_in {
            inside.extend_from_slice(cur);
        } else {
            outside.extend_from_slice(cur);
        }
        if cur_in != next_in {
            let (vin, vout, din, dout) = if cur_in {
                (cur, next, dc, dn)
            } else {
                (next, cur, dn, dc)
            };
            let t = din / (din - dout);
            for k in 0..stride {
                let x = vin[k] + t * (vout[k] - vin[k]);
                inside.push(x);
                outside.push(x);
            }
        }
    }
    for part in [&mut inside, &mut outside] {
        if part.len() < 3 * stride {
            part.clear();
        }
    }
    (inside, outside)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcodes() {
        let p = ClipPlanes::new([0, 0, 100, 100]);
        assert_eq!(p.outcode(&[0.0, 0.0, 0.0, 1.0]), 0);
        assert_eq!(p.outcode(&[0.0, 0.0, -2.0, 1.0]), 1);
        assert_eq!(p.outcode(&[0.0, 0.0, 2.0, 1.0]), 2);
        // Outside the viewport but inside the guard band: no x/y clipping.
        assert_eq!(p.outcode(&[50.0, -50.0, 0.0, 1.0]), 0);
        assert_ne!(p.outcode(&[1e6, 0.0, 0.0, 1.0]), 0);
        assert_eq!(p.outcode(&[f32::NAN, 0.0, 0.0, 1.0]), 0x7F);
        // Depth clamp: no near or far plane; zero-to-one: near at z = 0.
        let clamp = ClipState {
            depth_clamp: true,
            ..ClipState::default()
        };
        let p = ClipPlanes::for_draw([0, 0, 100, 100], &clamp, None);
        assert_eq!(p.outcode(&[0.0, 0.0, -2.0, 1.0]), 0);
        assert_eq!(p.outcode(&[0.0, 0.0, 2.0, 1.0]), 0);
        // Behind the eye: the w plane (and the guard band) still clip, near and far do not.
        assert_eq!(p.outcode(&[0.0, 0.0, 5.0, -1.0]), 0x7C);
        let zo = ClipState {
            zero_to_one: true,
            ..ClipState::default()
        };
        let p = ClipPlanes::for_draw([0, 0, 100, 100], &zo, None);
        assert_eq!(p.outcode(&[0.0, 0.0, -0.5, 1.0]), 1);
        assert_eq!(p.outcode(&[0.0, 0.0, 0.5, 1.0]), 0);
        // Clip distances 0 and 2 enabled, the shader writes 2: only distance 0 clips.
        let cd = ClipState {
            distances: 0b101,
            ..ClipState::default()
        };
        let p = ClipPlanes::for_draw([0, 0, 100, 100], &cd, Some((4, 2)));
        assert_eq!(p.outcode(&[0.0, 0.0, 0.0, 1.0, -1.0, -1.0]), 1 << 7);
        assert_eq!(p.outcode(&[0.0, 0.0, 0.0, 1.0, 0.0, -1.0]), 0);
    }

    #[test]
    fn outcodes_match_the_plane_by_plane_reference() {
        let specials = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            W_EPSILON,
            -W_EPSILON,
            1e-30,
            3e38,
            -3e38,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let mut state = 0x2545_F491u32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        let states = [
            ClipState::default(),
            ClipState {
                depth_clamp: true,
                distances: 0b1011,
                ..ClipState::default()
            },
            ClipState {
                zero_to_one: true,
                distances: 0xFF,
                ..ClipState::default()
            },
        ];
        for (k, st) in states.iter().enumerate() {
            let p = ClipPlanes::for_draw([-30, 7, 1920, 1080], st, Some((4, 3 + k as u32 * 2)));
            for _ in 0..20_000 {
                let mut v = [0.0f32; 12];
                for c in v.iter_mut() {
                    let r = next();
                    *c = if r % 4 == 0 {
                        specials[(r >> 8) as usize % specials.len()]
                    } else {
                        // Mostly near the planes: |x| up to a few times w, and the guard.
                        let scale = [2.0, 600.0, 1e6][(r >> 4) as usize % 3];
                        ((r >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0) * scale
                    };
                }
                assert_eq!(p.outcode(&v), p.outcode_by_dist(&v), "{v:?} {st:?}");
            }
        }
    }

    #[test]
    fn one_vertex_behind_near_gives_a_quad_with_interpolated_varyings() {
        let p = ClipPlanes::new([0, 0, 100, 100]);
        // Varying = z, so interpolation can be checked against the plane position.
        let v0 = [0.0, 0.0, -3.0, 1.0, -3.0];
        let v1 = [1.0, 0.0, 0.5, 1.0, 0.5];
        let v2 = [0.0, 1.0, 0.5, 1.0, 0.5];
        let codes = p.outcode(&v0) | p.outcode(&v1) | p.outcode(&v2);
        let mut c = Clipper::default();
        let poly = c.clip(&p, [&v0, &v1, &v2], 5, codes).to_vec();
        assert_eq!(poly.len(), 4 * 5);
        for v in poly.chunks(5) {
            assert!(v[2] >= -v[3] - 1e-6, "{v:?}");
            assert_eq!(v[2], v[4]); // the varying followed the interpolation
        }
        // The new vertices lie on the near plane.
        let on_plane = poly
            .chunks(5)
            .filter(|v| (v[2] + v[3]).abs() < 1e-6)
            .count();
        assert_eq!(on_plane, 2);
    }

    #[test]
    fn segments_clip_to_the_planes_and_keep_inside_ends_exactly() {
        let p = ClipPlanes::new([0, 0, 100, 100]);
        let mut c = Clipper::default();
        // From z = 0 to z = 3 (varying = z): cut at the far plane z = w = 1.
        let (a, b) = ([0.1f32, 0.2, 0.0, 1.0, 0.0], [0.1f32, 0.2, 3.0, 1.0, 3.0]);
        let codes = p.outcode(&a) | p.outcode(&b);
        let seg = c.clip_line(&p, [&a, &b], 5, codes).to_vec();
        assert_eq!(&seg[..5], &a);
        assert!((seg[7] - 1.0).abs() < 1e-6 && seg[7] == seg[9], "{seg:?}");
        // Both ends beyond the near plane: nothing.
        let (a, b) = ([0.0f32, 0.0, -2.0, 1.0], [1.0f32, 0.0, -3.0, 1.0]);
        let codes = p.outcode(&a) | p.outcode(&b);
        assert!(c.clip_line(&p, [&a, &b], 4, codes).is_empty());
    }

    #[test]
    fn split_polygon_shares_the_cut_vertices() {
        // A triangle cut by x = 0.25: a quad-less triangle outside, a quad inside.
        let tri = [0.0f32, 0.0, 1.0, 0.0, 0.0, 1.0];
        let (inside, outside) = split_polygon(&tri, 2, |v| v[0] - 0.25);
        assert_eq!(inside.len(), 3 * 2);
        assert_eq!(outside.len(), 4 * 2);
        let cut: Vec<&[f32]> = inside.chunks(2).filter(|v| v[0] == 0.25).collect();
        assert_eq!(cut.len(), 2);
        for v in cut {
            assert!(outside.chunks(2).any(|o| o == v), "{v:?} in both parts");
        }
        // All on one side: the other part is empty.
        let (inside, outside) = split_polygon(&tri, 2, |v| v[0] + 1.0);
        assert_eq!((inside.len(), outside.len()), (6, 0));
    }

    #[test]
    fn fully_outside_gives_nothing() {
        let p = ClipPlanes::new([0, 0, 100, 100]);
        let v = [0.0, 0.0, 5.0, 1.0];
        let mut c = Clipper::default();
        let codes = p.outcode(&v);
        assert!(c.clip(&p, [&v, &v, &v], 4, codes).is_empty());
    }
}
