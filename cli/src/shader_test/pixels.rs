//! The pure pixel work of the runner, apart from GL so it is tested on its own: the
//! texture images the `texture` commands upload, the rectangles `draw rect` sends, and
//! probe comparison against a read-back framebuffer.

use super::parse::{Probe, ProbeRegion, PROBE_TOLERANCE};

/// An RGBA colour, components in [0, 1].
pub type Rgba = [f32; 4];

pub const RED: Rgba = [1.0, 0.0, 0.0, 1.0];
pub const GREEN: Rgba = [0.0, 1.0, 0.0, 1.0];
pub const BLUE: Rgba = [0.0, 0.0, 1.0, 1.0];
pub const WHITE: Rgba = [1.0, 1.0, 1.0, 1.0];

/// Sizes of a full mip chain from `width`×`height` down to 1×1 (GL 4.5 core §8.14.3:
/// each level halves each dimension, rounding down, never below 1).
pub fn mip_chain(width: i32, height: i32) -> Vec<(i32, i32)> {
    let (mut w, mut h) = (width.max(1), height.max(1));
    let mut out = vec![(w, h)];
    while w > 1 || h > 1 {
        w = (w / 2).max(1);
        h = (h / 2).max(1);
        out.push((w, h));
    }
    out
}

/// piglit's rgbw image, rows bottom-up (row 0 is t = 0): red where x < w/2 and y < h/2,
/// green where only y < h/2, blue where only x < w/2, white elsewhere. A level of one texel
/// in a dimension has no "low" half there (w/2 = 0), so a 1×1 level is white.
pub fn rgbw_image(width: i32, height: i32) -> Vec<Rgba> {
    let (hw, hh) = (width / 2, height / 2);
    let mut out = Vec::with_capacity((width * height).max(0) as usize);
    for y in 0..height {
        for x in 0..width {
            out.push(match (x < hw, y < hh) {
                (true, true) => RED,
                (false, true) => GREEN,
                (true, false) => BLUE,
                (false, false) => WHITE,
            });
        }
    }
    out
}

/// piglit's checkerboard with squares of width/2 × height/2 texels: `c1` where the square's
/// row and column have the same parity (bottom-left and top-right), `c2` elsewhere.
pub fn checkerboard_image(width: i32, height: i32, c1: Rgba, c2: Rgba) -> Vec<Rgba> {
    let (sw, sh) = ((width / 2).max(1), (height / 2).max(1));
    let mut out = Vec::with_capacity((width * height).max(0) as usize);
    for y in 0..height {
        for x in 0..width {
            out.push(if ((x / sw) ^ (y / sh)) & 1 == 0 {
                c1
            } else {
                c2
            });
        }
    }
    out
}

/// The solid colour of level `level` of a `texture miplevels` texture.
pub fn miplevel_color(level: usize) -> Rgba {
    const PALETTE: [Rgba; 7] = [
        RED,
        GREEN,
        BLUE,
        WHITE,
        [1.0, 1.0, 0.0, 1.0],
        [0.0, 1.0, 1.0, 1.0],
        [1.0, 0.0, 1.0, 1.0],
    ];
    PALETTE.get(level).copied().unwrap_or([0.5, 0.5, 0.5, 1.0])
}

/// Texels as the bytes of GL_RGBA / GL_FLOAT client data (native little-endian f32).
pub fn rgba_f32_bytes(texels: &[Rgba]) -> Vec<u8> {
    texels
        .iter()
        .flatten()
        .flat_map(|c| c.to_le_bytes())
        .collect()
}

/// The 6 vertices (two CCW triangles) of `draw rect`: per vertex `piglit_vertex`
/// (x, y, 0, 1) then `piglit_texcoord` (s, t). `ortho` rectangles are in window pixels and mapped to
/// NDC as piglit's `piglit_ortho_projection(W, H)` does.
pub fn rect_vertices(rect: [f32; 4], ortho: bool, width: u32, height: u32) -> [f32; 36] {
    let [mut x, mut y, mut w, mut h] = rect;
    if ortho {
        let (ww, wh) = (width as f32, height as f32);
        x = 2.0 * x / ww - 1.0;
        y = 2.0 * y / wh - 1.0;
        w = 2.0 * w / ww;
        h = 2.0 * h / wh;
    }
    let corner = |cx: f32, cy: f32, s: f32, t: f32| [cx, cy, 0.0, 1.0, s, t];
    let v00 = corner(x, y, 0.0, 0.0);
    let v10 = corner(x + w, y, 1.0, 0.0);
    let v11 = corner(x + w, y + h, 1.0, 1.0);
    let v01 = corner(x, y + h, 0.0, 1.0);
    let mut out = [0.0; 36];
    for (i, v) in [v00, v10, v11, v00, v11, v01].iter().enumerate() {
        out[i * 6..i * 6 + 6].copy_from_slice(v);
    }
    out
}

/// Checks a probe against bottom-up RGBA8 pixels of a `width`×`height` window. The error
/// names the first pixel that differs, what was expected and what it holds.
pub fn check_probe(pixels: &[u8], width: u32, height: u32, probe: &Probe) -> Result<(), String> {
    let (w, h) = (width as i32, height as i32);
    let (x0, y0, pw, ph) = match probe.region {
        ProbeRegion::Pixel { x, y } => (x, y, 1, 1),
        ProbeRegion::Relative { x, y } => ((x * w as f32) as i32, (y * h as f32) as i32, 1, 1),
        ProbeRegion::Rect { x, y, w, h } => (x, y, w, h),
        ProbeRegion::RelativeRect { x, y, w: rw, h: rh } => (
            (x * w as f32) as i32,
            (y * h as f32) as i32,
            (rw * w as f32) as i32,
            (rh * h as f32) as i32,
        ),
        ProbeRegion::All => (0, 0, w, h),
    };
    if x0 < 0 || y0 < 0 || pw < 1 || ph < 1 || x0 + pw > w || y0 + ph > h {
        return Err(format!(
            "probe region ({x0}, {y0}, {pw}, {ph}) is not inside the {width}x{height} window"
        ));
    }
    if pixels.len() < (w * h * 4) as usize {
        return Err(format!(
            "read back {} bytes, want {}",
            pixels.len(),
            w * h * 4
        ));
    }
    let channels = if probe.alpha { 4 } else { 3 };
    for y in y0..y0 + ph {
        for x in x0..x0 + pw {
            let at = ((y * w + x) * 4) as usize;
            let got = &pixels[at..at + 4];
            let bad = (0..channels)
                .any(|c| (got[c] as f32 / 255.0 - probe.expected[c]).abs() > PROBE_TOLERANCE);
            if bad {
                let fmt = |v: &[f32]| {
                    v[..channels]
                        .iter()
                        .map(|c| format!("{c:.3}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let got_f: Vec<f32> = got.iter().map(|&b| b as f32 / 255.0).collect();
                return Err(format!(
                    "probe {} at ({x}, {y}): expected ({}), got ({})",
                    if probe.alpha { "rgba" } else { "rgb" },
                    fmt(&probe.expected),
                    fmt(&got_f)
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mip_chains() {
        assert_eq!(mip_chain(4, 1), vec![(4, 1), (2, 1), (1, 1)]);
        assert_eq!(mip_chain(5, 3), vec![(5, 3), (2, 1), (1, 1)]);
        assert_eq!(mip_chain(1, 1), vec![(1, 1)]);
    }

    #[test]
    fn rgbw_quadrants() {
        let img = rgbw_image(4, 4);
        assert_eq!(img[0], RED); // (0, 0): s, t < ½
        assert_eq!(img[3], GREEN); // (3, 0)
        assert_eq!(img[12], BLUE); // (0, 3)
        assert_eq!(img[15], WHITE);
        assert_eq!(rgbw_image(1, 1), vec![WHITE]);
        // 2×1: no low half in t, so the row is blue, white.
        assert_eq!(rgbw_image(2, 1), vec![BLUE, WHITE]);
    }

    #[test]
    fn checkerboard_squares() {
        let img = checkerboard_image(4, 4, RED, BLUE);
        assert_eq!(img[0], RED);
        assert_eq!(img[1], RED);
        assert_eq!(img[2], BLUE);
        assert_eq!(img[8], BLUE);
        assert_eq!(img[10], RED);
        assert_eq!(img[15], RED);
    }

    #[test]
    fn rect_is_two_ccw_triangles() {
        let v = rect_vertices([0.0, 0.0, 125.0, 250.0], true, 250, 250);
        // First vertex at NDC (-1, -1), texcoord (0, 0); third at (0, 1), texcoord (1, 1).
        assert_eq!(&v[0..6], &[-1.0, -1.0, 0.0, 1.0, 0.0, 0.0]);
        assert_eq!(&v[12..18], &[0.0, 1.0, 0.0, 1.0, 1.0, 1.0]);
        for tri in 0..2 {
            let p = |i: usize| (v[(tri * 3 + i) * 6], v[(tri * 3 + i) * 6 + 1]);
            let (a, b, c) = (p(0), p(1), p(2));
            let area = (b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1);
            assert!(area > 0.0, "triangle {tri} is not counter-clockwise");
        }
    }

    #[test]
    fn probes_compare_with_tolerance() {
        // 2×1 window: pixel 0 = (255, 128, 0, 255), pixel 1 = (0, 0, 0, 0).
        let px = [255, 128, 0, 255, 0, 0, 0, 0];
        let p = |region, expected, alpha| Probe {
            region,
            expected,
            alpha,
        };
        let at0 = ProbeRegion::Pixel { x: 0, y: 0 };
        assert!(check_probe(&px, 2, 1, &p(at0, [1.0, 0.5, 0.0, 1.0], true)).is_ok());
        // 128/255 = 0.50196; 0.5 + one step passes, two steps fail.
        assert!(check_probe(&px, 2, 1, &p(at0, [1.0, 0.5 + 1.0 / 255.0, 0.0, 1.0], true)).is_ok());
        assert!(check_probe(&px, 2, 1, &p(at0, [1.0, 0.5 - 2.0 / 255.0, 0.0, 1.0], true)).is_err());
        // rgb probes ignore alpha.
        let at1 = ProbeRegion::Pixel { x: 1, y: 0 };
        assert!(check_probe(&px, 2, 1, &p(at1, [0.0, 0.0, 0.0, 1.0], false)).is_ok());
        let e = check_probe(&px, 2, 1, &p(at1, [0.0, 0.0, 0.0, 1.0], true)).unwrap_err();
        assert!(
            e.contains("(1, 0)") && e.contains("got (0.000, 0.000, 0.000, 0.000)"),
            "{e}"
        );
        // A rectangle names its first bad pixel; `all` covers everything.
        let e =
            check_probe(&px, 2, 1, &p(ProbeRegion::All, [1.0, 0.5, 0.0, 1.0], false)).unwrap_err();
        assert!(e.contains("(1, 0)"), "{e}");
        // Relative (0.5, 0) of a 2-pixel-wide window is pixel 1.
        let rel = ProbeRegion::Relative { x: 0.5, y: 0.0 };
        assert!(check_probe(&px, 2, 1, &p(rel, [0.0, 0.0, 0.0, 0.0], true)).is_ok());
        let out = ProbeRegion::Rect {
            x: 1,
            y: 0,
            w: 2,
            h: 1,
        };
        assert!(check_probe(&px, 2, 1, &p(out, [0.0; 4], true)).is_err());
    }
}
