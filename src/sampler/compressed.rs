//! Compressed texture formats, decoded when they are uploaded: RGTC (BC4/BC5, GL 3.0 core),
//! S3TC (DXT1/3/5, EXT_texture_compression_s3tc), BPTC (BC7 and BC6H, GL 4.2 core) and
//! ETC2/EAC (GL 4.3 core, appendix C.1). Each
//! 4×4 block becomes texels of one of softgl's uncompressed storage formats, so sampling,
//! filtering and the sampler's fast paths need nothing new. Integer arithmetic only: the
//! result is the same on every CPU.
//!
//! Where a format leaves rounding open (S3TC's thirds, RGTC's sevenths and fifths stored into
//! 8 bits), the decode rounds to nearest, half up. BPTC is defined to the bit by its spec and
//! decodes exactly.

use super::image::Format;

/// A compressed internal format softgl decodes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Compressed {
    /// COMPRESSED_RED_RGTC1 / COMPRESSED_SIGNED_RED_RGTC1.
    Rgtc1 { signed: bool },
    /// COMPRESSED_RG_RGTC2 / COMPRESSED_SIGNED_RG_RGTC2.
    Rgtc2 { signed: bool },
    /// DXT1: `alpha` for COMPRESSED_RGBA_S3TC_DXT1 (code 3 of a three-colour block is
    /// transparent black), else opaque black.
    Bc1 { alpha: bool, srgb: bool },
    /// DXT3: explicit 4-bit alpha.
    Bc2 { srgb: bool },
    /// DXT5: interpolated alpha.
    Bc3 { srgb: bool },
    /// COMPRESSED_RGBA_BPTC_UNORM / COMPRESSED_SRGB_ALPHA_BPTC_UNORM.
    Bc7 { srgb: bool },
    /// COMPRESSED_RGB_BPTC_SIGNED_FLOAT / _UNSIGNED_FLOAT.
    Bc6h { signed: bool },
    /// COMPRESSED_RGB8_ETC2 / SRGB8_ETC2, and with `punchthrough` the
    /// RGB8_PUNCHTHROUGH_ALPHA1 forms (one bit of alpha).
    Etc2 { punchthrough: bool, srgb: bool },
    /// COMPRESSED_RGBA8_ETC2_EAC / SRGB8_ALPHA8_ETC2_EAC: an EAC alpha block, then ETC2 RGB.
    Etc2Eac { srgb: bool },
    /// COMPRESSED_R11_EAC / SIGNED_R11_EAC (`channels` 1) and RG11 (`channels` 2).
    Eac11 { channels: u8, signed: bool },
}

/// The block is 4×4 texels for every format here.
pub const BLOCK: usize = 4;

impl Compressed {
    /// Bytes of one 4×4 block.
    pub const fn block_bytes(self) -> usize {
        match self {
            Compressed::Rgtc1 { .. }
            | Compressed::Bc1 { .. }
            | Compressed::Etc2 { .. }
            | Compressed::Eac11 { channels: 1, .. } => 8,
            _ => 16,
        }
    }

    /// Bytes of a `w`×`h` image (GL 4.5 core §8.7: whole blocks, partial ones included);
    /// None on overflow.
    pub fn image_bytes(self, w: usize, h: usize) -> Option<usize> {
        w.div_ceil(BLOCK)
            .checked_mul(h.div_ceil(BLOCK))?
            .checked_mul(self.block_bytes())
    }

    /// The uncompressed storage format the texels decode into. Signed RGTC and the 11-bit
    /// EAC formats decode to f32 (softgl has no snorm or 16-bit storage); the two-channel
    /// ones to RGBA f32 with blue and alpha 0 and 1, as GL reads an RG texel.
    pub const fn storage(self) -> Format {
        match self {
            Compressed::Rgtc1 { signed: false } => Format::R8,
            Compressed::Rgtc1 { signed: true } => Format::R32F,
            Compressed::Rgtc2 { signed: false } => Format::Rg8,
            Compressed::Rgtc2 { signed: true } => Format::Rgba32F,
            Compressed::Eac11 { channels: 1, .. } => Format::R32F,
            Compressed::Eac11 { .. } => Format::Rgba32F,
            Compressed::Bc1 { srgb, .. }
            | Compressed::Bc2 { srgb }
            | Compressed::Bc3 { srgb }
            | Compressed::Bc7 { srgb }
            | Compressed::Etc2 { srgb, .. }
            | Compressed::Etc2Eac { srgb } => {
                if srgb {
                    Format::Srgb8Alpha8
                } else {
                    Format::Rgba8
                }
            }
            Compressed::Bc6h { .. } => Format::Rgba16F,
        }
    }

    /// Decodes a `w`×`h` image of whole blocks, row of blocks after row of blocks, into
    /// tightly packed texels of [`Compressed::storage`]. None when `src` is shorter than
    /// [`Compressed::image_bytes`] (the caller raises the GL error) or the size overflows.
    pub fn decode(self, w: usize, h: usize, src: &[u8]) -> Option<Vec<u8>> {
        let need = self.image_bytes(w, h)?;
        if src.len() < need {
            return None;
        }
        let bpp = self.storage().bytes_per_texel();
        let mut out = Vec::new();
        out.try_reserve_exact(w.checked_mul(h)?.checked_mul(bpp)?)
            .ok()?;
        out.resize(w * h * bpp, 0);
        let bw = w.div_ceil(BLOCK);
        let mut texels = [[0u8; 16]; 16];
        for (b, block) in src[..need].chunks_exact(self.block_bytes()).enumerate() {
            let (bx, by) = (b % bw * BLOCK, b / bw * BLOCK);
            self.decode_block(block, &mut texels);
            for j in 0..BLOCK.min(h - by) {
                for i in 0..BLOCK.min(w - bx) {
                    let at = ((by + j) * w + bx + i) * bpp;
                    out[at..at + bpp].copy_from_slice(&texels[j * BLOCK + i][..bpp]);
                }
            }
        }
        Some(out)
    }

    /// One block into 16 texels (x-major within the block), each the storage format's bytes
    /// at the start of its 16-byte slot.
    pub fn decode_block(self, block: &[u8], out: &mut [[u8; 16]; 16]) {
        match self {
            Compressed::Rgtc1 { signed } => {
                let r = rgtc_channel(block[..8].try_into().unwrap(), signed);
                for (t, v) in out.iter_mut().zip(r) {
                    write_rgtc(t, 0, v, signed);
                }
            }
            Compressed::Rgtc2 { signed } => {
                let r = rgtc_channel(block[..8].try_into().unwrap(), signed);
                let g = rgtc_channel(block[8..16].try_into().unwrap(), signed);
                for (t, (r, g)) in out.iter_mut().zip(r.into_iter().zip(g)) {
                    write_rgtc(t, 0, r, signed);
                    write_rgtc(t, 1, g, signed);
                    if signed {
                        t[8..12].copy_from_slice(&0f32.to_le_bytes());
                        t[12..16].copy_from_slice(&1f32.to_le_bytes());
                    }
                }
            }
            Compressed::Bc1 { alpha, .. } => {
                let c = bc1_colors(block[..8].try_into().unwrap(), !alpha, false);
                for (t, c) in out.iter_mut().zip(c) {
                    t[..4].copy_from_slice(&c);
                }
            }
            Compressed::Bc2 { .. } => {
                let c = bc1_colors(block[8..16].try_into().unwrap(), false, true);
                let a = u64::from_le_bytes(block[..8].try_into().unwrap());
                for (i, (t, c)) in out.iter_mut().zip(c).enumerate() {
                    t[..3].copy_from_slice(&c[..3]);
                    t[3] = ((a >> (4 * i)) & 15) as u8 * 17;
                }
            }
            Compressed::Bc3 { .. } => {
                let c = bc1_colors(block[8..16].try_into().unwrap(), false, true);
                let a = rgtc_channel(block[..8].try_into().unwrap(), false);
                for (t, (c, a)) in out.iter_mut().zip(c.into_iter().zip(a)) {
                    t[..3].copy_from_slice(&c[..3]);
                    t[3] = unorm8_of(a);
                }
            }
            Compressed::Bc7 { .. } => {
                let c = bc7_block(u128::from_le_bytes(block[..16].try_into().unwrap()));
                for (t, c) in out.iter_mut().zip(c) {
                    t[..4].copy_from_slice(&c);
                }
            }
            Compressed::Bc6h { signed } => {
                let c = bc6h_block(u128::from_le_bytes(block[..16].try_into().unwrap()), signed);
                for (t, c) in out.iter_mut().zip(c) {
                    for (k, h) in c.into_iter().enumerate() {
                        t[2 * k..2 * k + 2].copy_from_slice(&h.to_le_bytes());
                    }
                }
            }
            Compressed::Etc2 { punchthrough, .. } => {
                let c = etc2_rgb(
                    u64::from_be_bytes(block[..8].try_into().unwrap()),
                    punchthrough,
                );
                for (t, c) in out.iter_mut().zip(c) {
                    t[..4].copy_from_slice(&c);
                }
            }
            Compressed::Etc2Eac { .. } => {
                let a = eac_alpha(u64::from_be_bytes(block[..8].try_into().unwrap()));
                let c = etc2_rgb(u64::from_be_bytes(block[8..16].try_into().unwrap()), false);
                for (t, (c, a)) in out.iter_mut().zip(c.into_iter().zip(a)) {
                    t[..3].copy_from_slice(&c[..3]);
                    t[3] = a;
                }
            }
            Compressed::Eac11 { channels, signed } => {
                let scale = if signed { 1023.0f32 } else { 2047.0 };
                for c in 0..channels as usize {
                    let raw = block[8 * c..8 * c + 8].try_into().unwrap();
                    let v = eac11(u64::from_be_bytes(raw), signed);
                    for (t, v) in out.iter_mut().zip(v) {
                        t[4 * c..4 * c + 4].copy_from_slice(&(v as f32 / scale).to_le_bytes());
                    }
                }
                if channels == 2 {
                    for t in out.iter_mut() {
                        t[8..12].copy_from_slice(&0f32.to_le_bytes());
                        t[12..16].copy_from_slice(&1f32.to_le_bytes());
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// RGTC (and DXT5's alpha)

/// One RGTC channel value as an exact fraction: `num / den` of the unsigned (0..=255) or
/// signed (−127..=127) range.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Frac {
    num: i32,
    den: i32,
}

/// An RGTC channel block (ARB_texture_compression_rgtc): two 8-bit endpoints, then 16
/// 3-bit codes. With r0 > r1 the six codes between are sevenths; otherwise fifths and the
/// two extremes. Signed endpoints of −128 act as −127.
fn rgtc_channel(b: [u8; 8], signed: bool) -> [Frac; 16] {
    let ep = |v: u8| -> i32 {
        if signed {
            (v as i8).max(-127) as i32
        } else {
            v as i32
        }
    };
    let (r0, r1) = (ep(b[0]), ep(b[1]));
    let (lo, hi) = if signed { (-127, 127) } else { (0, 255) };
    let palette: [Frac; 8] = if r0 > r1 {
        let mut p = [Frac { num: 0, den: 7 }; 8];
        p[0].num = 7 * r0;
        p[1].num = 7 * r1;
        for (k, e) in p.iter_mut().enumerate().skip(2) {
            let w = k as i32 - 1;
            e.num = (7 - w) * r0 + w * r1;
        }
        p
    } else {
        let mut p = [Frac { num: 0, den: 5 }; 8];
        p[0].num = 5 * r0;
        p[1].num = 5 * r1;
        for (k, e) in p.iter_mut().enumerate().take(6).skip(2) {
            let w = k as i32 - 1;
            e.num = (5 - w) * r0 + w * r1;
        }
        p[6].num = 5 * lo;
        p[7].num = 5 * hi;
        p
    };
    let bits = u64::from_le_bytes(b) >> 16;
    std::array::from_fn(|i| palette[((bits >> (3 * i)) & 7) as usize])
}

/// The nearest 8-bit value of an unsigned fraction of 255 (half up).
fn unorm8_of(f: Frac) -> u8 {
    ((2 * f.num + f.den) / (2 * f.den)) as u8
}

/// Stores channel `c` of an RGTC texel: 8-bit unorm, or the f32 of the signed fraction
/// (one IEEE division, the same everywhere).
fn write_rgtc(t: &mut [u8; 16], c: usize, f: Frac, signed: bool) {
    if signed {
        let v = f.num as f32 / (f.den * 127) as f32;
        t[4 * c..4 * c + 4].copy_from_slice(&v.to_le_bytes());
    } else {
        t[c] = unorm8_of(f);
    }
}

// ---------------------------------------------------------------------------------------
// S3TC colour blocks

/// A 5:6:5 colour expanded to 8 bits per channel by bit replication.
fn rgb565(c: u16) -> [i32; 3] {
    let (r, g, b) = ((c >> 11) as i32, ((c >> 5) & 63) as i32, (c & 31) as i32);
    [
        (r << 3) | (r >> 2),
        (g << 2) | (g >> 4),
        (b << 3) | (b >> 2),
    ]
}

/// The 16 colours of a DXT colour block. `four` forces the four-colour palette (DXT3/5);
/// otherwise c0 <= c1 selects three colours and black, opaque when `opaque_black`.
fn bc1_colors(b: [u8; 8], opaque_black: bool, four: bool) -> [[u8; 4]; 16] {
    let c0 = u16::from_le_bytes([b[0], b[1]]);
    let c1 = u16::from_le_bytes([b[2], b[3]]);
    let (e0, e1) = (rgb565(c0), rgb565(c1));
    let mix = |w0: i32, w1: i32, d: i32| -> [u8; 4] {
        let c = |k: usize| ((2 * (w0 * e0[k] + w1 * e1[k]) + d) / (2 * d)) as u8;
        [c(0), c(1), c(2), 255]
    };
    let palette = if four || c0 > c1 {
        [mix(1, 0, 1), mix(0, 1, 1), mix(2, 1, 3), mix(1, 2, 3)]
    } else {
        let black = [0, 0, 0, if opaque_black { 255 } else { 0 }];
        [mix(1, 0, 1), mix(0, 1, 1), mix(1, 1, 2), black]
    };
    let idx = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
    std::array::from_fn(|i| palette[((idx >> (2 * i)) & 3) as usize])
}

// ---------------------------------------------------------------------------------------
// BPTC (ARB_texture_compression_bptc; GL 4.5 core appendix C.2)

/// Reads a block's bits from the least significant up.
struct Bits {
    v: u128,
    at: u32,
}

impl Bits {
    fn take(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        let r = ((self.v >> self.at) & ((1u128 << n) - 1)) as u32;
        self.at += n;
        r
    }
}

/// Table.P2: the subset of each texel for the 64 two-subset partitions (2 bits per texel,
/// texel 0 in the low bits).
const P2: [u32; 64] = pack_partitions(&[
    "0011001100110011",
    "0001000100010001",
    "0111011101110111",
    "0001001100110111",
    "0000000100010011",
    "0011011101111111",
    "0001001101111111",
    "0000000100110111",
    "0000000000010011",
    "0011011111111111",
    "0000000101111111",
    "0000000000010111",
    "0001011111111111",
    "0000000011111111",
    "0000111111111111",
    "0000000000001111",
    "0000100011101111",
    "0111000100000000",
    "0000000010001110",
    "0111001100010000",
    "0011000100000000",
    "0000100011001110",
    "0000000010001100",
    "0111001100110001",
    "0011000100010000",
    "0000100010001100",
    "0110011001100110",
    "0011011001101100",
    "0001011111101000",
    "0000111111110000",
    "0111000110001110",
    "0011100110011100",
    "0101010101010101",
    "0000111100001111",
    "0101101001011010",
    "0011001111001100",
    "0011110000111100",
    "0101010110101010",
    "0110100101101001",
    "0101101010100101",
    "0111001111001110",
    "0001001111001000",
    "0011001001001100",
    "0011101111011100",
    "0110100110010110",
    "0011110011000011",
    "0110011010011001",
    "0000011001100000",
    "0100111001000000",
    "0010011100100000",
    "0000001001110010",
    "0000010011100100",
    "0110110010010011",
    "0011011011001001",
    "0110001110011100",
    "0011100111000110",
    "0110110011001001",
    "0110001100111001",
    "0111111010000001",
    "0001100011100111",
    "0000111100110011",
    "0011001111110000",
    "0010001011101110",
    "0100010001110111",
]);

/// Table.P3: the subset of each texel for the 64 three-subset partitions.
const P3: [u32; 64] = pack_partitions(&[
    "0011001102212222",
    "0001001122112221",
    "0000200122112211",
    "0222002200110111",
    "0000000011221122",
    "0011001100220022",
    "0022002211111111",
    "0011001122112211",
    "0000000011112222",
    "0000111111112222",
    "0000111122222222",
    "0012001200120012",
    "0112011201120112",
    "0122012201220122",
    "0011011211221222",
    "0011200122002220",
    "0001001101121122",
    "0111001120012200",
    "0000112211221122",
    "0022002200221111",
    "0111011102220222",
    "0001000122212221",
    "0000001101220122",
    "0000110022102210",
    "0122012200110000",
    "0012001211222222",
    "0110122112210110",
    "0000011012211221",
    "0022110211020022",
    "0110011020022222",
    "0011012201220011",
    "0000200022112221",
    "0000000211221222",
    "0222002200120011",
    "0011001200220222",
    "0120012001200120",
    "0000111122220000",
    "0120120120120120",
    "0120201212010120",
    "0011220011220011",
    "0011112222000011",
    "0101010122222222",
    "0000000021212121",
    "0022112200221122",
    "0022001100220011",
    "0220122102201221",
    "0101222222220101",
    "0000212121212121",
    "0101010101012222",
    "0222011102220111",
    "0002111200021112",
    "0000211221122112",
    "0222011101110222",
    "0002111211120002",
    "0110011001102222",
    "0000000021122112",
    "0110011022222222",
    "0022001100110022",
    "0022112211220022",
    "0000000000002112",
    "0002000100020001",
    "0222122202221222",
    "0101222222222222",
    "0111201122012220",
]);

/// Table.A2: the anchor texel of subset 1 in two-subset partitions.
const A2: [u8; 64] = [
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2, 8, 2, 2, 8, 8, 15, 2, 8,
    2, 2, 8, 8, 2, 2, 15, 15, 6, 8, 2, 8, 15, 15, 2, 8, 2, 2, 2, 15, 15, 6, 6, 2, 6, 8, 15, 15, 2,
    2, 15, 15, 15, 15, 15, 2, 2, 15,
];

/// Table.A3a: the anchor texel of subset 1 in three-subset partitions.
const A3A: [u8; 64] = [
    3, 3, 15, 15, 8, 3, 15, 15, 8, 8, 6, 6, 6, 5, 3, 3, 3, 3, 8, 15, 3, 3, 6, 10, 5, 8, 8, 6, 8, 5,
    15, 15, 8, 15, 3, 5, 6, 10, 8, 15, 15, 3, 15, 5, 15, 15, 15, 15, 3, 15, 5, 5, 5, 8, 5, 10, 5,
    10, 8, 13, 15, 12, 3, 3,
];

/// Table.A3b: the anchor texel of subset 2 in three-subset partitions.
const A3B: [u8; 64] = [
    15, 8, 8, 3, 15, 15, 3, 8, 15, 15, 15, 15, 15, 15, 15, 8, 15, 8, 15, 3, 15, 8, 15, 8, 3, 15, 6,
    10, 15, 15, 10, 8, 15, 3, 15, 10, 10, 8, 9, 10, 6, 15, 8, 15, 3, 6, 6, 8, 15, 3, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 3, 15, 15, 8,
];

/// Packs the partition rows (one digit per texel) into 2 bits per texel.
const fn pack_partitions(rows: &[&str; 64]) -> [u32; 64] {
    let mut out = [0u32; 64];
    let mut r = 0;
    while r < 64 {
        let s = rows[r].as_bytes();
        let mut i = 0;
        while i < 16 {
            out[r] |= ((s[i] - b'0') as u32) << (2 * i);
            i += 1;
        }
        r += 1;
    }
    out
}

/// The subset of texel `i` for `subsets` subsets and partition `p`.
fn subset_of(subsets: usize, p: usize, i: usize) -> usize {
    match subsets {
        2 => ((P2[p] >> (2 * i)) & 3) as usize,
        3 => ((P3[p] >> (2 * i)) & 3) as usize,
        _ => 0,
    }
}

/// Whether texel `i` is an anchor (its index has one bit less).
fn is_anchor(subsets: usize, p: usize, i: usize) -> bool {
    i == 0
        || match subsets {
            2 => i == A2[p] as usize,
            3 => i == A3A[p] as usize || i == A3B[p] as usize,
            _ => false,
        }
}

/// The 6-bit interpolation weights of 2-, 3- and 4-bit indices.
fn weight(bits: u32, index: u32) -> i32 {
    const W2: [i32; 4] = [0, 21, 43, 64];
    const W3: [i32; 8] = [0, 9, 18, 27, 37, 46, 55, 64];
    const W4: [i32; 16] = [0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64];
    match bits {
        2 => W2[index as usize],
        3 => W3[index as usize],
        _ => W4[index as usize],
    }
}

/// `e0` to `e1` at weight `w` of 64, rounded.
fn interpolate(e0: i32, e1: i32, w: i32) -> i32 {
    ((64 - w) * e0 + w * e1 + 32) >> 6
}

/// Reads 16 indices of `bits` bits each (anchors one bit less).
fn read_indices(r: &mut Bits, bits: u32, subsets: usize, p: usize) -> [u32; 16] {
    std::array::from_fn(|i| r.take(bits - is_anchor(subsets, p, i) as u32))
}

/// One BC7 block (Table.M).
fn bc7_block(v: u128) -> [[u8; 4]; 16] {
    /// (subsets, partition bits, rotation bits, index-selection bits, colour bits, alpha
    /// bits, endpoint P-bits, shared P-bits, index bits, secondary index bits)
    type Mode = (usize, u32, u32, u32, u32, u32, u32, u32, u32, u32);
    const MODES: [Mode; 8] = [
        (3, 4, 0, 0, 4, 0, 1, 0, 3, 0),
        (2, 6, 0, 0, 6, 0, 0, 1, 3, 0),
        (3, 6, 0, 0, 5, 0, 0, 0, 2, 0),
        (2, 6, 0, 0, 7, 0, 1, 0, 2, 0),
        (1, 0, 2, 1, 5, 6, 0, 0, 2, 3),
        (1, 0, 2, 0, 7, 8, 0, 0, 2, 2),
        (1, 0, 0, 0, 7, 7, 1, 0, 4, 0),
        (2, 6, 0, 0, 5, 5, 1, 0, 2, 0),
    ];
    let mode = (v as u8).trailing_zeros();
    if mode >= 8 {
        // The reserved mode (a zero low byte): transparent black.
        return [[0; 4]; 16];
    }
    let (ns, pb, rb, isb, cb, ab, epb, spb, ib, ib2) = MODES[mode as usize];
    let mut r = Bits { v, at: mode + 1 };
    let part = r.take(pb) as usize;
    let rotation = r.take(rb);
    let index_sel = r.take(isb);
    // Endpoints [subset][end][channel], as read (channel bits, then the P-bit).
    let mut ep = [[[0u32; 4]; 2]; 3];
    for c in 0..3 {
        for s in ep.iter_mut().take(ns) {
            for e in s.iter_mut() {
                e[c] = r.take(cb);
            }
        }
    }
    for s in ep.iter_mut().take(ns) {
        for e in s.iter_mut() {
            e[3] = if ab > 0 { r.take(ab) } else { 0 };
        }
    }
    let mut pbits = [[0u32; 2]; 3];
    if epb > 0 {
        for s in pbits.iter_mut().take(ns) {
            for p in s.iter_mut() {
                *p = r.take(1);
            }
        }
    } else if spb > 0 {
        for s in pbits.iter_mut().take(ns) {
            let b = r.take(1);
            *s = [b, b];
        }
    }
    let has_p = epb > 0 || spb > 0;
    // Scale to 8 bits: the P-bit below the colour bits, then the top bits replicated.
    let expand = |value: u32, bits: u32, p: u32| -> i32 {
        let (value, bits) = if has_p {
            ((value << 1) | p, bits + 1)
        } else {
            (value, bits)
        };
        let x = value << (8 - bits);
        (x | (x >> bits)) as i32
    };
    let mut e8 = [[[0i32; 4]; 2]; 3];
    for s in 0..ns {
        for e in 0..2 {
            for c in 0..3 {
                e8[s][e][c] = expand(ep[s][e][c], cb, pbits[s][e]);
            }
            e8[s][e][3] = if ab > 0 {
                expand(ep[s][e][3], ab, pbits[s][e])
            } else {
                255
            };
        }
    }
    let primary = read_indices(&mut r, ib, ns, part);
    let secondary = if ib2 > 0 {
        read_indices(&mut r, ib2, ns, part)
    } else {
        [0; 16]
    };
    std::array::from_fn(|i| {
        let s = subset_of(ns, part, i);
        // Colour from the secondary index when the selection bit is set; alpha from the
        // secondary index when there is one and the bit is clear.
        let (ci, cbits) = if ib2 > 0 && index_sel == 1 {
            (secondary[i], ib2)
        } else {
            (primary[i], ib)
        };
        let (ai, abits) = if ib2 > 0 && index_sel == 0 {
            (secondary[i], ib2)
        } else {
            (primary[i], ib)
        };
        let (wc, wa) = (weight(cbits, ci), weight(abits, ai));
        let [e0, e1] = e8[s];
        let mut c = [
            interpolate(e0[0], e1[0], wc) as u8,
            interpolate(e0[1], e1[1], wc) as u8,
            interpolate(e0[2], e1[2], wc) as u8,
            interpolate(e0[3], e1[3], wa) as u8,
        ];
        if rotation > 0 {
            c.swap(3, rotation as usize - 1);
        }
        c
    })
}

/// One row of Table.MF with its Table.F layout: (mode number, transformed, partitioned,
/// endpoint bits, delta bits per channel, the bit layout as the spec writes it).
type Bc6hMode = (u32, bool, bool, u32, [u32; 3], &'static str);

/// Table.MF and Table.F, one entry per BC6H mode.
const BC6H_MODES: [Bc6hMode; 14] = [
    (0, true, true, 10, [5, 5, 5], "m[1:0],g2[4],b2[4],b3[4],r0[9:0],g0[9:0],b0[9:0],r1[4:0],g3[4],g2[3:0],g1[4:0],b3[0],g3[3:0],b1[4:0],b3[1],b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]"),
    (1, true, true, 7, [6, 6, 6], "m[1:0],g2[5],g3[4],g3[5],r0[6:0],b3[0],b3[1],b2[4],g0[6:0],b2[5],b3[2],g2[4],b0[6:0],b3[3],b3[5],b3[4],r1[5:0],g2[3:0],g1[5:0],g3[3:0],b1[5:0],b2[3:0],r2[5:0],r3[5:0]"),
    (2, true, true, 11, [5, 4, 4], "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[4:0],r0[10],g2[3:0],g1[3:0],g0[10],b3[0],g3[3:0],b1[3:0],b0[10],b3[1],b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]"),
    (6, true, true, 11, [4, 5, 4], "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[3:0],r0[10],g3[4],g2[3:0],g1[4:0],g0[10],g3[3:0],b1[3:0],b0[10],b3[1],b2[3:0],r2[3:0],b3[0],b3[2],r3[3:0],g2[4],b3[3]"),
    (10, true, true, 11, [4, 4, 5], "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[3:0],r0[10],b2[4],g2[3:0],g1[3:0],g0[10],b3[0],g3[3:0],b1[4:0],b0[10],b2[3:0],r2[3:0],b3[1],b3[2],r3[3:0],b3[4],b3[3]"),
    (14, true, true, 9, [5, 5, 5], "m[4:0],r0[8:0],b2[4],g0[8:0],g2[4],b0[8:0],b3[4],r1[4:0],g3[4],g2[3:0],g1[4:0],b3[0],g3[3:0],b1[4:0],b3[1],b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]"),
    (18, true, true, 8, [6, 5, 5], "m[4:0],r0[7:0],g3[4],b2[4],g0[7:0],b3[2],g2[4],b0[7:0],b3[3],b3[4],r1[5:0],g2[3:0],g1[4:0],b3[0],g3[3:0],b1[4:0],b3[1],b2[3:0],r2[5:0],r3[5:0]"),
    (22, true, true, 8, [5, 6, 5], "m[4:0],r0[7:0],b3[0],b2[4],g0[7:0],g2[5],g2[4],b0[7:0],g3[5],b3[4],r1[4:0],g3[4],g2[3:0],g1[5:0],g3[3:0],b1[4:0],b3[1],b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]"),
    (26, true, true, 8, [5, 5, 6], "m[4:0],r0[7:0],b3[1],b2[4],g0[7:0],b2[5],g2[4],b0[7:0],b3[5],b3[4],r1[4:0],g3[4],g2[3:0],g1[4:0],b3[0],g3[3:0],b1[5:0],b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]"),
    (30, false, true, 6, [6, 6, 6], "m[4:0],r0[5:0],g3[4],b3[0],b3[1],b2[4],g0[5:0],g2[5],b2[5],b3[2],g2[4],b0[5:0],g3[5],b3[3],b3[5],b3[4],r1[5:0],g2[3:0],g1[5:0],g3[3:0],b1[5:0],b2[3:0],r2[5:0],r3[5:0]"),
    (3, false, false, 10, [10, 10, 10], "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[9:0],g1[9:0],b1[9:0]"),
    (7, true, false, 11, [9, 9, 9], "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[8:0],r0[10],g1[8:0],g0[10],b1[8:0],b0[10]"),
    (11, true, false, 12, [8, 8, 8], "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[7:0],r0[10:11],g1[7:0],g0[10:11],b1[7:0],b0[10:11]"),
    (15, true, false, 16, [4, 4, 4], "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[3:0],r0[10:15],g1[3:0],g0[10:15],b1[3:0],b0[10:15]"),
];

/// Reads a Table.F layout: fields `v[a:b]` in block order, each moving its bits from
/// position b toward a (so `r0[9:0]` is ascending and `r0[10:15]` is reversed). Returns
/// the endpoints [endpoint][channel] and the number of bits read.
fn read_bc6h_fields(layout: &str, v: u128) -> ([[i32; 3]; 4], u32) {
    let mut e = [[0i32; 3]; 4];
    let mut at = 0u32;
    for field in layout.split(',') {
        let (name, range) = field.split_once('[').expect("Table.F field");
        let range = range.trim_end_matches(']');
        let (a, b) = match range.split_once(':') {
            Some((a, b)) => (a.parse::<i32>().unwrap(), b.parse::<i32>().unwrap()),
            None => {
                let a = range.parse::<i32>().unwrap();
                (a, a)
            }
        };
        let step = if a >= b { 1 } else { -1 };
        let mut pos = b;
        loop {
            let bit = ((v >> at) & 1) as i32;
            at += 1;
            let nb = name.as_bytes();
            if nb[0] != b'm' {
                let ch = match nb[0] {
                    b'r' => 0,
                    b'g' => 1,
                    _ => 2,
                };
                e[(nb[1] - b'0') as usize][ch] |= bit << pos;
            }
            if pos == a {
                break;
            }
            pos += step;
        }
    }
    (e, at)
}

/// Sign-extends the low `bits` bits of `x`.
fn sign_extend(x: i32, bits: u32) -> i32 {
    let s = 32 - bits;
    (x << s) >> s
}

/// The spec's endpoint unquantization.
fn bc6h_unquantize(x: i32, epb: u32, signed: bool) -> i32 {
    if !signed {
        if epb >= 15 {
            x
        } else if x == 0 {
            0
        } else if x == (1 << epb) - 1 {
            0xFFFF
        } else {
            ((x << 15) + 0x4000) >> (epb - 1)
        }
    } else if epb >= 16 {
        x
    } else {
        let (neg, m) = (x < 0, x.abs());
        let u = if m == 0 {
            0
        } else if m >= (1 << (epb - 1)) - 1 {
            0x7FFF
        } else {
            ((m << 15) + 0x4000) >> (epb - 1)
        };
        if neg {
            -u
        } else {
            u
        }
    }
}

/// The final unquantization to half-float bits.
fn bc6h_finish(x: i32, signed: bool) -> u16 {
    if !signed {
        ((x * 31) >> 6) as u16
    } else if x < 0 {
        ((((-x) * 31) >> 5) as u16) | 0x8000
    } else {
        ((x * 31) >> 5) as u16
    }
}

/// One BC6H block: RGBA half-float bits (alpha 1.0).
fn bc6h_block(v: u128, signed: bool) -> [[u16; 4]; 16] {
    const ONE: u16 = 0x3C00;
    let low2 = (v & 3) as u32;
    let mode = if low2 < 2 { low2 } else { (v & 31) as u32 };
    let Some(&(_, transformed, two, epb, delta, layout)) = BC6H_MODES.iter().find(|m| m.0 == mode)
    else {
        // A reserved mode decodes as (0, 0, 0, 1).
        return [[0, 0, 0, ONE]; 16];
    };
    let (mut e, header) = read_bc6h_fields(layout, v);
    let mut r = Bits { v, at: header };
    let part = if two { r.take(5) as usize } else { 0 };
    let ns = if two { 2 } else { 1 };
    let ends = 2 * ns;
    for c in 0..3 {
        if signed {
            e[0][c] = sign_extend(e[0][c], epb);
        }
        if signed || transformed {
            let bits = if transformed { delta[c] } else { epb };
            for x in e.iter_mut().take(ends).skip(1) {
                x[c] = sign_extend(x[c], bits);
            }
        }
        if transformed {
            let mask = (1 << epb) - 1;
            for k in 1..ends {
                let t = (e[0][c] + e[k][c]) & mask;
                e[k][c] = if signed { sign_extend(t, epb) } else { t };
            }
        }
        for x in e.iter_mut().take(ends) {
            x[c] = bc6h_unquantize(x[c], epb, signed);
        }
    }
    let ib = if two { 3 } else { 4 };
    let idx = read_indices(&mut r, ib, ns, part);
    std::array::from_fn(|i| {
        let s = subset_of(ns, part, i);
        let w = weight(ib, idx[i]);
        let (e0, e1) = (e[2 * s], e[2 * s + 1]);
        let c = |k: usize| bc6h_finish(interpolate(e0[k], e1[k], w), signed);
        [c(0), c(1), c(2), ONE]
    })
}

// ---------------------------------------------------------------------------------------
// ETC2 and EAC (GL 4.5 core appendix C.1). Blocks are big-endian 64-bit words; bit 63 is the
// first byte's top bit. Texel (x, y) of a block is texel `x * 4 + y` of its index fields.

/// The ETC1 intensity modifier tables: [small, large] per codeword.
const ETC_MODIFIERS: [[i32; 2]; 8] = [
    [2, 8],
    [5, 17],
    [9, 29],
    [13, 42],
    [18, 60],
    [24, 80],
    [33, 106],
    [47, 183],
];

/// The T and H modes' distances.
const ETC_DISTANCES: [i32; 8] = [3, 6, 11, 16, 23, 32, 41, 64];

/// The EAC modifier tables.
const EAC_MODIFIERS: [[i32; 8]; 16] = [
    [-3, -6, -9, -15, 2, 5, 8, 14],
    [-3, -7, -10, -13, 2, 6, 9, 12],
    [-2, -5, -8, -13, 1, 4, 7, 12],
    [-2, -4, -6, -13, 1, 3, 5, 12],
    [-3, -6, -8, -12, 2, 5, 7, 11],
    [-3, -7, -9, -11, 2, 6, 8, 10],
    [-4, -7, -8, -11, 3, 6, 7, 10],
    [-3, -5, -8, -11, 2, 4, 7, 10],
    [-2, -6, -8, -10, 1, 5, 7, 9],
    [-2, -5, -8, -10, 1, 4, 7, 9],
    [-2, -4, -8, -10, 1, 3, 7, 9],
    [-2, -5, -7, -10, 1, 4, 6, 9],
    [-3, -4, -7, -10, 2, 3, 6, 9],
    [-1, -2, -3, -10, 0, 1, 2, 9],
    [-4, -6, -8, -9, 3, 5, 7, 8],
    [-3, -5, -7, -9, 2, 4, 6, 8],
];

/// Bits `hi..=lo` of `v`.
fn field(v: u64, hi: u32, lo: u32) -> i32 {
    ((v >> lo) & ((1u64 << (hi - lo + 1)) - 1)) as i32
}

/// An `n`-bit colour component widened to 8 bits by replicating its top bits.
fn widen(x: i32, n: u32) -> i32 {
    let y = x << (8 - n);
    y | (y >> n)
}

/// The 2-bit index of texel `i` (x-major numbering) in an ETC colour block.
fn etc_index(v: u64, i: usize) -> usize {
    (((v >> (16 + i)) & 1) << 1 | ((v >> i) & 1)) as usize
}

/// `c` plus `d` on each channel, clamped to 0..=255, opaque.
fn offset(c: [i32; 3], d: i32) -> [u8; 4] {
    let ch = |k: usize| (c[k] + d).clamp(0, 255) as u8;
    [ch(0), ch(1), ch(2), 255]
}

/// One ETC2 RGB block (RGB8, or RGB8 with punch-through alpha when `punch`: bit 33 is then
/// the opaque flag instead of the differential flag, and an index of 2 in a non-opaque
/// block is transparent black). Texels in x-major order converted to the row order
/// [`Compressed::decode_block`] returns.
fn etc2_rgb(v: u64, punch: bool) -> [[u8; 4]; 16] {
    let bit33 = (v >> 33) & 1 == 1;
    let (differential, opaque) = if punch { (true, bit33) } else { (bit33, true) };
    let mut xmajor = [[0u8; 4]; 16];
    if !differential {
        // Individual mode: two 4-bit colours.
        let c1 = [field(v, 63, 60), field(v, 55, 52), field(v, 47, 44)].map(|x| widen(x, 4));
        let c2 = [field(v, 59, 56), field(v, 51, 48), field(v, 43, 40)].map(|x| widen(x, 4));
        etc_subblocks(v, c1, c2, true, &mut xmajor);
    } else {
        let base = [field(v, 63, 59), field(v, 55, 51), field(v, 47, 43)];
        let delta = [field(v, 58, 56), field(v, 50, 48), field(v, 42, 40)].map(|d| (d << 29) >> 29);
        let second = [0, 1, 2].map(|k| base[k] + delta[k]);
        let outside = |k: usize| !(0..32).contains(&second[k]);
        if outside(0) {
            etc_t_mode(v, opaque, &mut xmajor);
        } else if outside(1) {
            etc_h_mode(v, opaque, &mut xmajor);
        } else if outside(2) {
            etc_planar(v, &mut xmajor);
        } else {
            let c1 = base.map(|x| widen(x, 5));
            let c2 = second.map(|x| widen(x, 5));
            etc_subblocks(v, c1, c2, opaque, &mut xmajor);
        }
    }
    std::array::from_fn(|i| xmajor[(i % 4) * 4 + i / 4])
}

/// The individual and differential modes: two half-blocks (side by side, or one above the
/// other when the flip bit is set), each a base colour moved by its modifier table.
fn etc_subblocks(v: u64, c1: [i32; 3], c2: [i32; 3], opaque: bool, out: &mut [[u8; 4]; 16]) {
    let flip = (v >> 32) & 1 == 1;
    let tables = [field(v, 39, 37) as usize, field(v, 36, 34) as usize];
    for (i, t) in out.iter_mut().enumerate() {
        let (x, y) = (i / 4, i % 4);
        let second = if flip { y >= 2 } else { x >= 2 };
        let (c, [small, large]) = if second {
            (c2, ETC_MODIFIERS[tables[1]])
        } else {
            (c1, ETC_MODIFIERS[tables[0]])
        };
        let index = etc_index(v, i);
        *t = match (index, opaque) {
            (2, false) => [0; 4],
            (0, false) => offset(c, 0),
            (0, true) => offset(c, small),
            (1, _) => offset(c, large),
            (2, true) => offset(c, -small),
            _ => offset(c, -large),
        };
    }
}

/// The T mode: one colour, and a second moved by ± a distance.
fn etc_t_mode(v: u64, opaque: bool, out: &mut [[u8; 4]; 16]) {
    let r1 = field(v, 60, 59) << 2 | field(v, 57, 56);
    let c1 = [r1, field(v, 55, 52), field(v, 51, 48)].map(|x| widen(x, 4));
    let c2 = [field(v, 47, 44), field(v, 43, 40), field(v, 39, 36)].map(|x| widen(x, 4));
    let d = ETC_DISTANCES[(field(v, 35, 34) << 1 | field(v, 32, 32)) as usize];
    let paint = [offset(c1, 0), offset(c2, d), offset(c2, 0), offset(c2, -d)];
    etc_paint(v, paint, opaque, out);
}

/// The H mode: two colours, each moved by ± a distance whose lowest bit is the order of the
/// two colours.
fn etc_h_mode(v: u64, opaque: bool, out: &mut [[u8; 4]; 16]) {
    let c1 = [
        field(v, 62, 59),
        field(v, 58, 56) << 1 | field(v, 52, 52),
        field(v, 51, 51) << 3 | field(v, 49, 47),
    ]
    .map(|x| widen(x, 4));
    let c2 = [field(v, 46, 43), field(v, 42, 39), field(v, 38, 35)].map(|x| widen(x, 4));
    let key = |c: [i32; 3]| c[0] << 16 | c[1] << 8 | c[2];
    let order = (key(c1) >= key(c2)) as i32;
    let d = ETC_DISTANCES[(field(v, 34, 34) << 2 | field(v, 32, 32) << 1 | order) as usize];
    let paint = [offset(c1, d), offset(c1, -d), offset(c2, d), offset(c2, -d)];
    etc_paint(v, paint, opaque, out);
}

/// T and H modes: each texel's index picks a paint colour; 2 is transparent when the block
/// is not opaque.
fn etc_paint(v: u64, paint: [[u8; 4]; 4], opaque: bool, out: &mut [[u8; 4]; 16]) {
    for (i, t) in out.iter_mut().enumerate() {
        let index = etc_index(v, i);
        *t = if index == 2 && !opaque {
            [0; 4]
        } else {
            paint[index]
        };
    }
}

/// The planar mode: origin, horizontal and vertical colours extrapolated over the block.
fn etc_planar(v: u64, out: &mut [[u8; 4]; 16]) {
    let o = [
        widen(field(v, 62, 57), 6),
        widen(field(v, 56, 56) << 6 | field(v, 54, 49), 7),
        widen(
            field(v, 48, 48) << 5 | field(v, 44, 43) << 3 | field(v, 41, 39),
            6,
        ),
    ];
    let h = [
        widen(field(v, 38, 34) << 1 | field(v, 32, 32), 6),
        widen(field(v, 31, 25), 7),
        widen(field(v, 24, 19), 6),
    ];
    let vv = [
        widen(field(v, 18, 13), 6),
        widen(field(v, 12, 6), 7),
        widen(field(v, 5, 0), 6),
    ];
    for (i, t) in out.iter_mut().enumerate() {
        let (x, y) = ((i / 4) as i32, (i % 4) as i32);
        let ch = |k: usize| {
            ((x * (h[k] - o[k]) + y * (vv[k] - o[k]) + 4 * o[k] + 2) >> 2).clamp(0, 255) as u8
        };
        *t = [ch(0), ch(1), ch(2), 255];
    }
}

/// The EAC index of texel `i` (x-major numbering): 3 bits, the first texel highest.
fn eac_index(v: u64, i: usize) -> usize {
    ((v >> (45 - 3 * i)) & 7) as usize
}

/// An EAC alpha block (RGBA8_ETC2_EAC), in row order.
fn eac_alpha(v: u64) -> [u8; 16] {
    let base = field(v, 63, 56);
    let mul = field(v, 55, 52);
    let table = EAC_MODIFIERS[field(v, 51, 48) as usize];
    std::array::from_fn(|i| {
        let xi = (i % 4) * 4 + i / 4;
        (base + table[eac_index(v, xi)] * mul).clamp(0, 255) as u8
    })
}

/// An 11-bit EAC block (R11/RG11, signed or not), in row order: values in 0..=2047, or
/// −1023..=1023 when signed (a base of −128 acts as −127). A multiplier of 0 counts as 1/8.
fn eac11(v: u64, signed: bool) -> [i32; 16] {
    let mul = field(v, 55, 52);
    let table = EAC_MODIFIERS[field(v, 51, 48) as usize];
    std::array::from_fn(|i| {
        let m = table[eac_index(v, (i % 4) * 4 + i / 4)];
        let step = if mul == 0 { m } else { m * mul * 8 };
        if signed {
            let base = (field(v, 63, 56) as u8 as i8).max(-127) as i32;
            (base * 8 + step).clamp(-1023, 1023)
        } else {
            (field(v, 63, 56) * 8 + 4 + step).clamp(0, 2047)
        }
    })
}

mod encode;

#[cfg(test)]
mod tests;
