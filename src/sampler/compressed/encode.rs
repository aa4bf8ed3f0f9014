//! Block encoders for the formats GL compresses itself: glTexImage* / glTexSubImage* of
//! uncompressed texels into an RGTC or S3TC internal format (GL 4.5 core §8.5: "the GL
//! compresses the image"). The encoders are simple (bounding-box endpoints, nearest palette
//! entry); what matters is that the stored texels are exactly the decode of the blocks
//! glGetCompressedTexImage returns. The palette comes from the decoder itself, so the two
//! cannot disagree. Integer arithmetic, plus IEEE f32 sub/mul for signed RGTC's float
//! storage: the same blocks on every CPU.

use super::{Compressed, BLOCK};

/// How a DXT colour block's palette is chosen (`bc1_colors`' two flags).
#[derive(Copy, Clone, PartialEq, Eq)]
enum ColorMode {
    /// DXT1 without alpha: c0 <= c1 gives three colours and opaque black.
    Opaque,
    /// DXT1 with alpha: code 3 of a three-colour block is transparent black.
    Alpha,
    /// DXT3/DXT5: always four colours.
    Four,
}

impl Compressed {
    /// Blocks for a `w`×`h` image of tightly packed [`Compressed::storage`] texels, or None
    /// for the formats softgl does not compress itself (BPTC, ETC2/EAC: their levels keep
    /// the texels as given and no blocks) or when the size overflows.
    pub fn encode(self, w: usize, h: usize, texels: &[u8]) -> Option<Vec<u8>> {
        let bpp = self.storage().bytes_per_texel();
        if texels.len() < w.checked_mul(h)?.checked_mul(bpp)? {
            return None;
        }
        let mut out = Vec::new();
        out.try_reserve_exact(self.image_bytes(w, h)?).ok()?;
        for by in (0..h).step_by(BLOCK) {
            for bx in (0..w).step_by(BLOCK) {
                // The block's texels, None past the image's edge.
                let px: [Option<&[u8]>; 16] = std::array::from_fn(|i| {
                    let (x, y) = (bx + i % BLOCK, by + i / BLOCK);
                    (x < w && y < h).then(|| &texels[(y * w + x) * bpp..(y * w + x + 1) * bpp])
                });
                match self {
                    Compressed::Rgtc1 { signed } => {
                        out.extend_from_slice(&rgtc_block(&channel(&px, 0, signed), signed));
                    }
                    Compressed::Rgtc2 { signed } => {
                        for k in 0..2 {
                            out.extend_from_slice(&rgtc_block(&channel(&px, k, signed), signed));
                        }
                    }
                    Compressed::Bc1 { alpha, .. } => {
                        let mode = if alpha {
                            ColorMode::Alpha
                        } else {
                            ColorMode::Opaque
                        };
                        out.extend_from_slice(&color_block(&px, mode));
                    }
                    Compressed::Bc2 { .. } => {
                        let mut a = 0u64;
                        for (i, t) in px.iter().enumerate() {
                            let a4 = t.map_or(0, |t| (u64::from(t[3]) * 15 + 127) / 255);
                            a |= a4 << (4 * i);
                        }
                        out.extend_from_slice(&a.to_le_bytes());
                        out.extend_from_slice(&color_block(&px, ColorMode::Four));
                    }
                    Compressed::Bc3 { .. } => {
                        let a = px.map(|t| t.map(|t| f32::from(t[3])));
                        out.extend_from_slice(&rgtc_block(&a, false));
                        out.extend_from_slice(&color_block(&px, ColorMode::Four));
                    }
                    _ => return None,
                }
            }
        }
        Some(out)
    }
}

/// Channel `k` of each texel: an 8-bit value (unsigned RGTC's R8/RG8 storage) or the f32
/// of signed RGTC's float storage.
fn channel(px: &[Option<&[u8]>; 16], k: usize, signed: bool) -> [Option<f32>; 16] {
    px.map(|t| {
        t.map(|t| {
            if signed {
                f32::from_le_bytes(t[4 * k..4 * k + 4].try_into().unwrap())
            } else {
                f32::from(t[k])
            }
        })
    })
}

/// An RGTC channel block for values in 0..=255 (unsigned) or −1..=1 (signed): the largest
/// and smallest values' codes as endpoints (eight-value mode), each texel the nearest of the
/// palette the decoder gives those endpoints.
fn rgtc_block(vals: &[Option<f32>; 16], signed: bool) -> [u8; 8] {
    let code = |v: f32| -> i32 {
        if signed {
            (v.clamp(-1.0, 1.0) * 127.0).round() as i32
        } else {
            v.clamp(0.0, 255.0).round() as i32
        }
    };
    let codes: Vec<i32> = vals.iter().flatten().map(|&v| code(v)).collect();
    let (Some(&hi), Some(&lo)) = (codes.iter().max(), codes.iter().min()) else {
        return [0; 8];
    };
    let byte = |c: i32| if signed { c as i8 as u8 } else { c as u8 };
    let mut b = [byte(hi), byte(lo), 0, 0, 0, 0, 0, 0];
    if hi == lo {
        return b;
    }
    // The palette: a block whose first eight texels use codes 0..8.
    let mut probe = b;
    let codes_0_to_7: u64 = (0..8).fold(0, |acc, i| acc | (i << (3 * i)));
    probe[2..].copy_from_slice(&codes_0_to_7.to_le_bytes()[..6]);
    let mut texels = [[0u8; 16]; 16];
    Compressed::Rgtc1 { signed }.decode_block(&probe, &mut texels);
    let palette: [f32; 8] = std::array::from_fn(|i| {
        if signed {
            f32::from_le_bytes(texels[i][..4].try_into().unwrap())
        } else {
            f32::from(texels[i][0])
        }
    });
    let mut bits = 0u64;
    for (i, v) in vals.iter().enumerate() {
        if let Some(v) = v {
            let v = if signed {
                v.clamp(-1.0, 1.0)
            } else {
                v.clamp(0.0, 255.0)
            };
            bits |= nearest(&palette, |p| (p - v).abs()) << (3 * i);
        }
    }
    b[2..].copy_from_slice(&bits.to_le_bytes()[..6]);
    b
}

/// The index of the entry of `palette` with the smallest `dist` (the first on a tie);
/// NaN distances never win.
fn nearest<T: Copy>(palette: &[T], dist: impl Fn(T) -> f32) -> u64 {
    let mut best = (0, f32::INFINITY);
    for (i, &p) in palette.iter().enumerate() {
        let d = dist(p);
        if d < best.1 {
            best = (i as u64, d);
        }
    }
    best.0
}

/// A 5:6:5 colour of an 8-bit RGB one, each channel rounded to nearest.
fn to565(c: [u8; 3]) -> u16 {
    let q = |v: u8, max: u32| ((u32::from(v) * max + 127) / 255) as u16;
    (q(c[0], 31) << 11) | (q(c[1], 63) << 5) | q(c[2], 31)
}

/// A DXT colour block of 8-bit RGBA texels: endpoints at opposite corners of the opaque
/// texels' bounding box (the one of its four diagonals that encodes the block with the least
/// squared error), each texel the nearest palette colour; transparent texels take code 3 of
/// a three-colour block in DXT1-with-alpha.
fn color_block(px: &[Option<&[u8]>; 16], mode: ColorMode) -> [u8; 8] {
    let transparent = |t: &[u8]| mode == ColorMode::Alpha && t[3] < 128;
    let opaque: Vec<[u8; 3]> = px
        .iter()
        .flatten()
        .filter(|t| !transparent(t))
        .map(|t| [t[0], t[1], t[2]])
        .collect();
    let any_transparent = px.iter().flatten().any(|t| transparent(t));
    let corner = |f: fn(u8, u8) -> u8, init: u8| {
        opaque
            .iter()
            .fold([init; 3], |a, c| std::array::from_fn(|k| f(a[k], c[k])))
    };
    let (hi, lo) = if opaque.is_empty() {
        ([0; 3], [0; 3])
    } else {
        (corner(u8::max, 0), corner(u8::min, 255))
    };
    let mut best: Option<(i64, [u8; 8])> = None;
    for flip in 0..4 {
        let pick =
            |k: usize, a: [u8; 3], b: [u8; 3]| if flip >> (k - 1) & 1 == 1 { b[k] } else { a[k] };
        let e0 = to565([hi[0], pick(1, hi, lo), pick(2, hi, lo)]);
        let e1 = to565([lo[0], pick(1, lo, hi), pick(2, lo, hi)]);
        // Three colours plus transparent black need c0 <= c1; four colours c0 > c1 (equal
        // endpoints give one colour either way).
        let (c0, c1) = if any_transparent {
            (e0.min(e1), e0.max(e1))
        } else {
            (e0.max(e1), e0.min(e1))
        };
        let (block, err) = color_block_with(px, mode, c0, c1, &transparent);
        if best.is_none_or(|(e, _)| err < e) {
            best = Some((err, block));
        }
    }
    best.map_or([0; 8], |(_, b)| b)
}

/// The DXT colour block of endpoints `c0`, `c1` and the texels' nearest codes, with its
/// total squared error over the opaque texels.
fn color_block_with(
    px: &[Option<&[u8]>; 16],
    mode: ColorMode,
    c0: u16,
    c1: u16,
    transparent: &dyn Fn(&[u8]) -> bool,
) -> ([u8; 8], i64) {
    let four = mode == ColorMode::Four || c0 > c1;
    let mut b = [0u8; 8];
    b[..2].copy_from_slice(&c0.to_le_bytes());
    b[2..4].copy_from_slice(&c1.to_le_bytes());
    let mut probe = b;
    probe[4] = 0b1110_0100; // texels 0..4 use codes 0, 1, 2, 3
    let palette = super::bc1_colors(probe, mode == ColorMode::Opaque, mode == ColorMode::Four);
    let usable = if four { 4 } else { 3 };
    let (mut bits, mut err) = (0u32, 0i64);
    for (i, t) in px.iter().enumerate() {
        let Some(t) = t else { continue };
        let dist = |p: [u8; 4]| {
            let d = |k: usize| i64::from(p[k]) - i64::from(t[k]);
            d(0) * d(0) + d(1) * d(1) + d(2) * d(2)
        };
        let code = if transparent(t) {
            3
        } else {
            let code = nearest(&palette[..usable], |p| dist(p) as f32) as usize;
            err += dist(palette[code]);
            code as u32
        };
        bits |= code << (2 * i);
    }
    b[4..].copy_from_slice(&bits.to_le_bytes());
    (b, err)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Encodes then decodes a `w`×`h` image, returning the blocks and the decoded texels.
    fn round_trip(c: Compressed, w: usize, h: usize, texels: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let blocks = c.encode(w, h, texels).expect("an encoder");
        assert_eq!(blocks.len(), c.image_bytes(w, h).unwrap());
        let back = c.decode(w, h, &blocks).unwrap();
        (blocks, back)
    }

    #[test]
    fn rgtc1_keeps_the_extremes_and_lands_within_a_step() {
        let c = Compressed::Rgtc1 { signed: false };
        let texels: Vec<u8> = (0..16).map(|i| 40 + i * 10).collect();
        let (blocks, back) = round_trip(c, 4, 4, &texels);
        assert_eq!(blocks[..2], [190, 40], "endpoints are the extremes");
        assert_eq!((back[0], back[15]), (40, 190));
        // Palette steps are 150/7 ≈ 21.4: every texel within half a step.
        for (a, b) in texels.iter().zip(&back) {
            assert!((*a as i32 - *b as i32).abs() <= 11, "{a} → {b}");
        }
    }

    #[test]
    fn signed_rgtc2_round_trips_its_endpoints_exactly() {
        let c = Compressed::Rgtc2 { signed: true };
        let mut texels = Vec::new();
        for i in 0..16 {
            let r = -1.0 + i as f32 * (2.0 / 15.0);
            for v in [r, -r, 0.0, 1.0] {
                texels.extend_from_slice(&f32::to_le_bytes(v));
            }
        }
        let (_, back) = round_trip(c, 4, 4, &texels);
        let f = |t: usize, k: usize| {
            f32::from_le_bytes(back[16 * t + 4 * k..][..4].try_into().unwrap())
        };
        assert_eq!((f(0, 0), f(15, 0)), (-1.0, 1.0));
        assert_eq!((f(0, 1), f(15, 1)), (1.0, -1.0));
    }

    #[test]
    fn dxt1_two_colour_block_is_exact_and_alpha_gets_code_3() {
        // Pure red and pure blue: both are exact 5:6:5 colours.
        let red = [255, 0, 0, 255];
        let blue = [0, 0, 255, 255];
        let texels: Vec<u8> = (0..16)
            .flat_map(|i| if i % 3 == 0 { red } else { blue })
            .collect();
        let c = Compressed::Bc1 {
            alpha: false,
            srgb: false,
        };
        let (_, back) = round_trip(c, 4, 4, &texels);
        assert_eq!(back, texels);
        // With alpha: transparent texels decode to transparent black.
        let mut t2 = texels.clone();
        t2[4..8].copy_from_slice(&[10, 20, 30, 0]);
        let c = Compressed::Bc1 {
            alpha: true,
            srgb: false,
        };
        let (blocks, back) = round_trip(c, 4, 4, &t2);
        assert!(
            u16::from_le_bytes([blocks[0], blocks[1]])
                <= u16::from_le_bytes([blocks[2], blocks[3]])
        );
        assert_eq!(back[4..8], [0, 0, 0, 0]);
        assert_eq!(back[..4], red);
        assert_eq!(back[8..12], blue);
    }

    #[test]
    fn dxt3_and_dxt5_alpha_and_partial_edge_blocks() {
        // A 6×5 image: the second column and row of blocks are partial.
        let (w, h) = (6, 5);
        let texels: Vec<u8> = (0..w * h)
            .flat_map(|i| [(i * 8) as u8, 128, 64, (i * 8) as u8])
            .collect();
        for c in [
            Compressed::Bc2 { srgb: false },
            Compressed::Bc3 { srgb: false },
        ] {
            let (blocks, back) = round_trip(c, w, h, &texels);
            assert_eq!(blocks.len(), 4 * 16);
            for (i, (a, b)) in texels.chunks(4).zip(back.chunks(4)).enumerate() {
                // DXT3 alpha steps are 17, DXT5's at most 255/7 / 2 away here.
                assert!(
                    (a[3] as i32 - b[3] as i32).abs() <= 12,
                    "texel {i} alpha {a:?} → {b:?}"
                );
                assert_eq!(b[1], 130, "green 128 → 6 bits → 130");
            }
        }
    }

    #[test]
    fn formats_without_an_encoder_say_so() {
        assert!(Compressed::Bc7 { srgb: false }
            .encode(4, 4, &[0; 64])
            .is_none());
        let etc = Compressed::Etc2 {
            punchthrough: false,
            srgb: false,
        };
        assert!(etc.encode(4, 4, &[0; 64]).is_none());
    }
}
