//! Decoder tests for the compressed formats: blocks built bit by bit from the format
//! definitions, with the texels each must decode to worked out by hand (the arithmetic is in
//! the comments), and consistency checks of the transcribed BPTC tables.

use super::*;

/// Writes fields from the least significant bit up, as the block formats store them.
struct Writer {
    v: u128,
    at: u32,
}

impl Writer {
    fn new() -> Self {
        Writer { v: 0, at: 0 }
    }
    fn put(&mut self, value: u32, bits: u32) -> &mut Self {
        assert!(bits == 32 || value < (1 << bits), "{value} in {bits} bits");
        self.v |= (value as u128) << self.at;
        self.at += bits;
        self
    }
    fn bytes(&self) -> [u8; 16] {
        self.v.to_le_bytes()
    }
}

fn decode(c: Compressed, block: &[u8]) -> [[u8; 16]; 16] {
    let mut out = [[0u8; 16]; 16];
    c.decode_block(block, &mut out);
    out
}

fn rgba(t: &[u8; 16]) -> [u8; 4] {
    [t[0], t[1], t[2], t[3]]
}

fn half(t: &[u8; 16], c: usize) -> u16 {
    u16::from_le_bytes([t[2 * c], t[2 * c + 1]])
}

#[test]
fn bc1_four_colour_block() {
    // c0 = pure red 0xF800, c1 = pure blue 0x001F (c0 > c1: four colours). Texel i takes
    // code i % 4.
    let mut b = [0u8; 8];
    b[..2].copy_from_slice(&0xF800u16.to_le_bytes());
    b[2..4].copy_from_slice(&0x001Fu16.to_le_bytes());
    b[4..].copy_from_slice(&0xE4E4_E4E4u32.to_le_bytes()); // codes 0,1,2,3 per byte
    let t = decode(
        Compressed::Bc1 {
            alpha: false,
            srgb: false,
        },
        &b,
    );
    // Thirds: (2·255 + 0) / 3 = 170, (255 + 0) / 3 = 85.
    let want = [
        [255, 0, 0, 255],
        [0, 0, 255, 255],
        [170, 0, 85, 255],
        [85, 0, 170, 255],
    ];
    for i in 0..16 {
        assert_eq!(rgba(&t[i]), want[i % 4], "texel {i}");
    }
}

#[test]
fn bc1_three_colour_block_and_its_black() {
    // c0 = 0x0000 <= c1 = 0xFFFF: three colours and black. 5:6:5 white expands to 255.
    let mut b = [0u8; 8];
    b[2..4].copy_from_slice(&0xFFFFu16.to_le_bytes());
    b[4..].copy_from_slice(&0xE4E4_E4E4u32.to_le_bytes());
    // Half of 255 rounds up to 128.
    let opaque = decode(
        Compressed::Bc1 {
            alpha: false,
            srgb: false,
        },
        &b,
    );
    let clear = decode(
        Compressed::Bc1 {
            alpha: true,
            srgb: false,
        },
        &b,
    );
    assert_eq!(rgba(&opaque[0]), [0, 0, 0, 255]);
    assert_eq!(rgba(&opaque[1]), [255, 255, 255, 255]);
    assert_eq!(rgba(&opaque[2]), [128, 128, 128, 255]);
    assert_eq!(rgba(&opaque[3]), [0, 0, 0, 255]);
    assert_eq!(rgba(&clear[3]), [0, 0, 0, 0]);
    assert_eq!(rgba(&clear[2]), [128, 128, 128, 255]);
}

#[test]
fn bc1_channel_expansion_replicates_the_top_bits() {
    // c0 = r 16, g 32, b 1 (0x8401) > c1 = 0: r = 16<<3 | 16>>2 = 132, g = 32<<2 | 32>>4 = 130,
    // b = 1<<3 | 0 = 8.
    let mut b = [0u8; 8];
    b[..2].copy_from_slice(&0x8401u16.to_le_bytes());
    let t = decode(
        Compressed::Bc1 {
            alpha: false,
            srgb: false,
        },
        &b,
    );
    assert_eq!(rgba(&t[0]), [132, 130, 8, 255]);
}

#[test]
fn bc2_explicit_alpha_and_four_colours_always() {
    let mut b = [0u8; 16];
    // Alpha nibble of texel i is i: 0x..FEDCBA9876543210.
    b[..8].copy_from_slice(&0xFEDC_BA98_7654_3210u64.to_le_bytes());
    // c0 = 0 <= c1 = white would mean three colours in DXT1; DXT3 always uses four.
    b[10..12].copy_from_slice(&0xFFFFu16.to_le_bytes());
    b[12..].copy_from_slice(&0xAAAA_AAAAu32.to_le_bytes()); // code 2 everywhere
    let t = decode(Compressed::Bc2 { srgb: false }, &b);
    for (i, t) in t.iter().enumerate() {
        // Code 2 = (2·0 + 255) / 3 = 85; alpha i·17.
        assert_eq!(rgba(t), [85, 85, 85, i as u8 * 17], "texel {i}");
    }
}

/// An RGTC channel block with endpoints `r0`, `r1` and texel i taking code `codes[i]`.
fn rgtc(r0: u8, r1: u8, codes: [u8; 16]) -> [u8; 8] {
    let mut bits = 0u64;
    for (i, c) in codes.iter().enumerate() {
        bits |= (*c as u64) << (3 * i);
    }
    let mut b = [0u8; 8];
    b[0] = r0;
    b[1] = r1;
    b[2..].copy_from_slice(&bits.to_le_bytes()[..6]);
    b
}

const CODES: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7];

#[test]
fn rgtc1_unsigned_sevenths_and_fifths() {
    // r0 = 255 > r1 = 0: code k (2..7) is (8 − k)/7 of 255: 218.57, 182.14, 145.71, 109.29,
    // 72.86, 36.43 → 219, 182, 146, 109, 73, 36.
    let t = decode(Compressed::Rgtc1 { signed: false }, &rgtc(255, 0, CODES));
    let got: Vec<u8> = t[..8].iter().map(|t| t[0]).collect();
    assert_eq!(got, [255, 0, 219, 182, 146, 109, 73, 36]);
    // r0 = 0 <= r1 = 255: fifths (51, 102, 153, 204), then 0 and 255.
    let t = decode(Compressed::Rgtc1 { signed: false }, &rgtc(0, 255, CODES));
    let got: Vec<u8> = t[..8].iter().map(|t| t[0]).collect();
    assert_eq!(got, [0, 255, 51, 102, 153, 204, 0, 255]);
    // The second half of the block repeats the codes.
    assert_eq!(t[15][0], 255);
}

#[test]
fn rgtc1_signed_treats_minus_128_as_minus_127() {
    let t = decode(Compressed::Rgtc1 { signed: true }, &rgtc(0x80, 127, CODES));
    let f = |i: usize| f32::from_le_bytes(t[i][..4].try_into().unwrap());
    // −128 acts as −127 = −1.0; with r0 (−127) <= r1 (127): fifths, then −1 and 1.
    assert_eq!(f(0), -1.0);
    assert_eq!(f(1), 1.0);
    // Code 2: (4·(−127) + 127)/5 /127 = −381/635 = −0.6 (the nearest f32).
    assert_eq!(f(2), -381.0f32 / 635.0);
    assert_eq!(f(6), -1.0);
    assert_eq!(f(7), 1.0);
}

#[test]
fn rgtc2_decodes_both_channels() {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&rgtc(10, 20, [0; 16]));
    b[8..].copy_from_slice(&rgtc(30, 40, [1; 16]));
    let t = decode(Compressed::Rgtc2 { signed: false }, &b);
    assert_eq!(&t[5][..2], &[10, 40]);
    let s = decode(Compressed::Rgtc2 { signed: true }, &b);
    let f = |c: usize| f32::from_le_bytes(s[5][4 * c..4 * c + 4].try_into().unwrap());
    assert_eq!(
        [f(0), f(1), f(2), f(3)],
        [10.0 / 127.0, 40.0 / 127.0, 0.0, 1.0]
    );
}

#[test]
fn bc3_alpha_uses_the_rgtc_palette() {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&rgtc(255, 0, CODES));
    b[8..10].copy_from_slice(&0xFFFFu16.to_le_bytes());
    let t = decode(Compressed::Bc3 { srgb: false }, &b);
    assert_eq!(rgba(&t[2]), [255, 255, 255, 219]);
}

#[test]
fn bptc_partition_tables_have_the_spec_shape() {
    // Every partition starts in subset 0; two-subset partitions use subsets {0, 1} and their
    // anchor texel is in subset 1; three-subset ones use {0, 1, 2} with anchors in 1 and 2.
    for p in 0..64 {
        assert_eq!(subset_of(2, p, 0), 0);
        assert_eq!(subset_of(3, p, 0), 0);
        assert_eq!(subset_of(2, p, A2[p] as usize), 1, "P2 {p}");
        assert_eq!(subset_of(3, p, A3A[p] as usize), 1, "P3 {p}");
        assert_eq!(subset_of(3, p, A3B[p] as usize), 2, "P3 {p}");
        for i in 0..16 {
            assert!(subset_of(2, p, i) < 2);
            assert!(subset_of(3, p, i) < 3);
        }
    }
}

#[test]
fn bc6h_layouts_place_every_bit_once() {
    // Table.F transcribed: each endpoint component gets each of its bits exactly once (e0 the
    // endpoint bits, the others the delta bits), the mode field its 2 or 5 bits, and the
    // header ends where the partition number (82 − 5) or the indices (65) begin.
    for &(mode, _, two, epb, delta, layout) in &BC6H_MODES {
        let mut seen = [[0u32; 3]; 4];
        let mut at = 0;
        let mut mode_bits = 0;
        for field in layout.split(',') {
            let (name, range) = field.split_once('[').unwrap();
            let range = range.trim_end_matches(']');
            let (a, b) = match range.split_once(':') {
                Some((a, b)) => (a.parse::<u32>().unwrap(), b.parse::<u32>().unwrap()),
                None => (range.parse().unwrap(), range.parse().unwrap()),
            };
            for bit in a.min(b)..=a.max(b) {
                at += 1;
                if name == "m" {
                    mode_bits += 1;
                    continue;
                }
                let nb = name.as_bytes();
                let e = (nb[1] - b'0') as usize;
                let c = match nb[0] {
                    b'r' => 0,
                    b'g' => 1,
                    _ => 2,
                };
                assert_eq!(
                    seen[e][c] & (1 << bit),
                    0,
                    "mode {mode}: {name}[{bit}] twice"
                );
                seen[e][c] |= 1 << bit;
            }
        }
        assert_eq!(mode_bits, if mode < 2 { 2 } else { 5 }, "mode {mode}");
        assert_eq!(at, if two { 77 } else { 65 }, "mode {mode}");
        let ends = if two { 4 } else { 2 };
        for (e, s) in seen.iter().enumerate() {
            for (c, &bits) in s.iter().enumerate() {
                let want = if e >= ends {
                    0
                } else if e == 0 || mode == 3 || mode == 30 {
                    // The base, and the untransformed modes' endpoints: full width.
                    (1u32 << epb) - 1
                } else {
                    (1u32 << delta[c]) - 1
                };
                assert_eq!(bits, want, "mode {mode}: endpoint {e} channel {c}");
            }
        }
    }
}

#[test]
fn bc7_mode6_single_subset_with_p_bits() {
    // Mode 6: bit 6 set, then 7-bit R, G, B, A for both endpoints, per-endpoint P-bits,
    // 4-bit indices (the anchor, texel 0, has 3).
    let mut w = Writer::new();
    w.put(1 << 6, 7);
    // e0 = (10, 20, 30, 127) and e1 = (100, 90, 80, 0), channel-major.
    for (a, b) in [(10, 100), (20, 90), (30, 80), (127, 0)] {
        w.put(a, 7).put(b, 7);
    }
    w.put(1, 1).put(0, 1); // P-bits: e0 1, e1 0
    w.put(0, 3); // texel 0: index 0
    for i in 1..16 {
        w.put(i, 4);
    }
    assert_eq!(w.at, 128);
    let t = decode(Compressed::Bc7 { srgb: false }, &w.bytes());
    // e0 = (10<<1|1, ...) = (21, 41, 61, 255); e1 = (200, 180, 160, 0): 8 bits already.
    assert_eq!(rgba(&t[0]), [21, 41, 61, 255]);
    assert_eq!(rgba(&t[15]), [200, 180, 160, 0]);
    // Index 8 has weight 34: (30·21 + 34·200 + 32) >> 6 = 7462 >> 6 = 116;
    // (30·41 + 34·180 + 32) >> 6 = 7382 >> 6 = 115; (30·61 + 34·160 + 32) >> 6 = 7302 >> 6
    // = 114; (30·255 + 32) >> 6 = 7682 >> 6 = 120.
    assert_eq!(rgba(&t[8]), [116, 115, 114, 120]);
}

#[test]
fn bc7_mode1_two_subsets_shared_p_bits_and_anchor() {
    // Mode 1, partition 13 (top half subset 0, bottom half subset 1; anchor of subset 1 is
    // texel 15). 6-bit colours, one shared P-bit per subset, 3-bit indices.
    let mut w = Writer::new();
    w.put(0b10, 2).put(13, 6);
    // Per channel: subset 0 (e0, e1), subset 1 (e0, e1).
    for _ in 0..3 {
        w.put(0, 6).put(63, 6).put(32, 6).put(16, 6);
    }
    w.put(0, 1).put(1, 1); // shared P-bits
    for i in 0..16u32 {
        let anchor = i == 0 || i == 15;
        w.put(if anchor { 3 } else { 7 }, if anchor { 2 } else { 3 });
    }
    assert_eq!(w.at, 128);
    let t = decode(Compressed::Bc7 { srgb: false }, &w.bytes());
    // Subset 0: e0 = 0; e1 = 63<<1|0 = 126 in 7 bits → 126<<1 | 252>>7 = 253.
    // Texel 0 (anchor, 2 bits) has index 3, weight 27: (27·253 + 32) >> 6 = 6863 >> 6 = 107.
    assert_eq!(rgba(&t[0]), [107, 107, 107, 255]);
    // Texel 1 (subset 0) index 7: e1.
    assert_eq!(rgba(&t[1]), [253, 253, 253, 255]);
    // Subset 1: e0 = 32<<1|1 = 65 → 130 | 1 = 131; e1 = 16<<1|1 = 33 → 66 | 0 = 66.
    // Texel 8 index 7 → 66; texel 15 (anchor, index 3 → weight 27):
    // (37·131 + 27·66 + 32) >> 6 = (4847 + 1782 + 32) >> 6 = 6661 >> 6 = 104.
    assert_eq!(rgba(&t[8]), [66, 66, 66, 255]);
    assert_eq!(rgba(&t[15]), [104, 104, 104, 255]);
}

#[test]
fn bc7_mode4_rotation_and_index_selection() {
    // Mode 4: rotation 1 (swap R and A), index selection 1 (colour uses the 3-bit
    // secondary indices, alpha the 2-bit primary ones). 5-bit colour, 6-bit alpha.
    let mut w = Writer::new();
    w.put(1 << 4, 5).put(1, 2).put(1, 1);
    w.put(0, 5).put(31, 5); // R
    w.put(0, 5).put(0, 5); // G
    w.put(31, 5).put(31, 5); // B
    w.put(63, 6).put(0, 6); // A
    for i in 0..16 {
        w.put(if i == 0 { 1 } else { 3 }, if i == 0 { 1 } else { 2 });
    }
    for i in 0..16 {
        w.put(if i == 0 { 3 } else { 7 }, if i == 0 { 2 } else { 3 });
    }
    assert_eq!(w.at, 128);
    let t = decode(Compressed::Bc7 { srgb: false }, &w.bytes());
    // Texel 1: colour index 7 (3-bit, weight 64) → R = 255, G = 0, B = 255; alpha index 3
    // (2-bit, weight 64) → 0. Rotation 1 swaps R and A: (0, 0, 255, 255).
    assert_eq!(rgba(&t[1]), [0, 0, 255, 255]);
    // Texel 0: colour index 3 (weight 27): R = (27·255 + 32) >> 6 = 6917 >> 6 = 108; alpha
    // index 1 (weight 21): (43·255 + 32) >> 6 = 10 997 >> 6 = 171. Swapped: (171, 0, 255, 108).
    assert_eq!(rgba(&t[0]), [171, 0, 255, 108]);
}

#[test]
fn bc7_reserved_mode_is_transparent_black() {
    let t = decode(Compressed::Bc7 { srgb: false }, &[0u8; 16]);
    assert!(t.iter().all(|t| rgba(t) == [0; 4]));
}

#[test]
fn bc6h_mode3_unsigned_endpoints_and_interpolation() {
    // Mode 3 (0b00011): untransformed 10-bit endpoints, one subset, 4-bit indices.
    let mut w = Writer::new();
    w.put(3, 5);
    w.put(0, 10).put(0, 10).put(0, 10); // e0 = 0
    w.put(1023, 10).put(512, 10).put(1, 10); // e1
    assert_eq!(w.at, 65);
    w.put(0, 3);
    for i in 1..16 {
        w.put(i, 4);
    }
    let t = decode(Compressed::Bc6h { signed: false }, &w.bytes());
    // Texel 15 is e1: 1023 is the maximum → 0xFFFF → ·31 >> 6 = 0x7BFF (65504).
    // 512: ((512 << 15) + 0x4000) >> 9 = (16 777 216 + 16 384) >> 9 = 32 800 → ·31 >> 6 =
    // 15 887. 1: ((1 << 15) + 0x4000) >> 9 = 96 → 96·31 >> 6 = 46.
    assert_eq!(
        [half(&t[15], 0), half(&t[15], 1), half(&t[15], 2)],
        [0x7BFF, 15887, 46]
    );
    assert_eq!(half(&t[15], 3), 0x3C00);
    assert_eq!([half(&t[0], 0), half(&t[0], 1), half(&t[0], 2)], [0, 0, 0]);
    // Texel 8: weight 34: (34·65535 + 32) >> 6 = 2 228 222 >> 6 = 34 815 → ·31 >> 6 = 16 863.
    assert_eq!(half(&t[8], 0), 16863);
}

#[test]
fn bc6h_transformed_signed_endpoints() {
    // Mode 7 (0b00111): 11-bit base and 9-bit deltas; signed format.
    // r0 = −3 (11 bits: 0x7FD), r1 delta = +5 → r1 = 2. g0 = 100, delta −1 → 99. b0 = 0,
    // delta 0.
    let r0 = 0x7FDu32;
    let mut w = Writer::new();
    w.put(7, 5);
    w.put(r0 & 0x3FF, 10).put(100, 10).put(0, 10);
    w.put(5, 9).put(r0 >> 10, 1);
    w.put(0x1FF, 9).put(0, 1);
    w.put(0, 9).put(0, 1);
    assert_eq!(w.at, 65);
    w.put(0, 3);
    for i in 1..16 {
        w.put(if i == 15 { 15 } else { 0 }, 4);
    }
    let t = decode(Compressed::Bc6h { signed: true }, &w.bytes());
    // Signed unquantize at 11 bits: x → ((|x| << 15) + 0x4000) >> 10, sign restored:
    // −3 → −(114 688 >> 10) = −112; 2 → 81 920 >> 10 = 80; 100 → 3 293 184 >> 10 = 3216;
    // 99 → 3 260 416 >> 10 = 3184. Finish: |x|·31 >> 5, sign in bit 15:
    // −112 → 108 | 0x8000; 80 → 77; 3216 → 3115; 3184 → 3084.
    assert_eq!(
        [half(&t[0], 0), half(&t[0], 1), half(&t[0], 2)],
        [0x8000 | 108, 3115, 0]
    );
    assert_eq!(
        [half(&t[15], 0), half(&t[15], 1), half(&t[15], 2)],
        [77, 3084, 0]
    );
}

#[test]
fn bc6h_two_subset_mode_reads_the_partition() {
    // Mode 30 (0b11110): untransformed 6-bit endpoints, 2 subsets, partition 13 (bottom
    // half is subset 1, anchor texel 15), 3-bit indices. Unsigned.
    // Set r3 = 63 (subset 1, e1) and leave the rest 0: r3's bits are r3[5:0] at the end of
    // the layout (bits 71..76).
    let mut w = Writer::new();
    w.put(30, 5);
    w.put(0, 32).put(0, 32).put(0, 2); // bits 5..70
    w.put(63, 6); // r3
    assert_eq!(w.at, 77);
    w.put(13, 5);
    for i in 0..16 {
        let anchor = i == 0 || i == 15;
        w.put(if anchor { 3 } else { 7 }, if anchor { 2 } else { 3 });
    }
    assert_eq!(w.at, 128);
    let t = decode(Compressed::Bc6h { signed: false }, &w.bytes());
    // Subset 0 is all zero. Subset 1: e1.r = 63 = max → 0xFFFF → 0x7BFF at index 7; the
    // anchor (index 3 → weight 27): (27·65535 + 32) >> 6 = 1 769 477 >> 6 = 27 648 →
    // ·31 >> 6 = 13 392.
    assert_eq!(half(&t[1], 0), 0);
    assert_eq!(half(&t[8], 0), 0x7BFF);
    assert_eq!(half(&t[15], 0), 13392);
}

#[test]
fn bc6h_reserved_mode_is_opaque_black() {
    let mut w = Writer::new();
    w.put(0b10011, 5);
    let t = decode(Compressed::Bc6h { signed: false }, &w.bytes());
    assert!(t
        .iter()
        .all(|t| [half(t, 0), half(t, 1), half(t, 2), half(t, 3)] == [0, 0, 0, 0x3C00]));
}

#[test]
fn images_decode_partial_blocks_and_refuse_short_data() {
    // A 5×3 RGTC1 image is 2×1 blocks. Block 0 all 10, block 1 all 20.
    let c = Compressed::Rgtc1 { signed: false };
    assert_eq!(c.image_bytes(5, 3), Some(16));
    let mut src = rgtc(10, 0, [0; 16]).to_vec();
    src.extend_from_slice(&rgtc(20, 0, [0; 16]));
    let img = c.decode(5, 3, &src).unwrap();
    assert_eq!(
        img,
        [10, 10, 10, 10, 20, 10, 10, 10, 10, 20, 10, 10, 10, 10, 20]
    );
    assert_eq!(c.decode(5, 3, &src[..15]), None);
    assert_eq!(c.image_bytes(usize::MAX, 5), None);
}

/// ETC2 index bits: texel i (x-major) gets index `idx(i)`: MSB at bit 16 + i, LSB at bit i.
fn etc_indices(idx: impl Fn(usize) -> u64) -> u64 {
    (0..16).fold(0, |v, i| v | (idx(i) >> 1) << (16 + i) | (idx(i) & 1) << i)
}

/// A block as the 8 big-endian bytes the format stores.
fn be(v: u64) -> [u8; 8] {
    v.to_be_bytes()
}

/// The texel at (x, y) of a decoded block.
fn at(t: &[[u8; 16]; 16], x: usize, y: usize) -> [u8; 4] {
    rgba(&t[y * 4 + x])
}

const ETC2: Compressed = Compressed::Etc2 {
    punchthrough: false,
    srgb: false,
};

#[test]
fn etc2_individual_mode_with_modifier_tables() {
    // diff 0, flip 0: left half R1 = 8 (→ 136), right half R2 = 4 (→ 68); G = B = 0.
    // Codewords 0 ([2, 8]) and 7 ([47, 183]). Texel index = (x + y) % 4.
    let v = 8u64 << 60 | 4 << 56 | 7 << 34 | etc_indices(|i| ((i / 4 + i % 4) % 4) as u64);
    let t = decode(ETC2, &be(v));
    // (0,0) index 0: +2. (1,0) index 1: +8. (0,2) index 2: −2. (1,2) index 3: −8 → G, B 0.
    assert_eq!(at(&t, 0, 0), [138, 2, 2, 255]);
    assert_eq!(at(&t, 1, 0), [144, 8, 8, 255]);
    assert_eq!(at(&t, 0, 2), [134, 0, 0, 255]);
    assert_eq!(at(&t, 1, 2), [128, 0, 0, 255]);
    // (2,0) right half index 2: 68 − 47 = 21; (3,0) index 3: 68 − 183 → 0; (2,3) index 1:
    // 68 + 183 = 251, G and B 183.
    assert_eq!(at(&t, 2, 0), [21, 0, 0, 255]);
    assert_eq!(at(&t, 3, 0), [0, 0, 0, 255]);
    assert_eq!(at(&t, 2, 3), [251, 183, 183, 255]);
}

#[test]
fn etc2_differential_mode_and_flip() {
    // diff 1, flip 1 (top and bottom halves). R = 10, dR = −2 → 8; G = 20, dG = +3 → 23;
    // B = 0, dB = 0. 5-bit widening: 10 → 82, 8 → 66, 20 → 165, 23 → 189. Codewords 0, 0;
    // every index 0 (+2).
    let v = 10u64 << 59 | 0b110 << 56 | 20 << 51 | 0b011 << 48 | 1 << 33 | 1 << 32;
    let t = decode(ETC2, &be(v));
    assert_eq!(at(&t, 3, 1), [84, 167, 2, 255]);
    assert_eq!(at(&t, 0, 2), [68, 191, 2, 255]);
}

#[test]
fn etc2_t_mode() {
    // R = 0b11111 with dR = +2 overflows: T mode. R1 = bits 60..59 (11) and 57..56 (10) =
    // 14 → 238; G1 = 1 → 17; B1 = 2 → 34; R2 = 0, G2 = 15 → 255, B2 = 8 → 136. Distance
    // index 0b01 (bits 35..34) and 1 (bit 32) = 3 → 16. Index = texel number % 4.
    let v = 0b111u64 << 61
        | 0b11 << 59
        | 0b10 << 56
        | 1 << 52
        | 2 << 48
        | 15 << 40
        | 8 << 36
        | 0b01 << 34
        | 1 << 33
        | 1 << 32
        | etc_indices(|i| (i % 4) as u64);
    let t = decode(ETC2, &be(v));
    // x-major texel i = x·4 + y, so (0, y) has index y.
    assert_eq!(at(&t, 0, 0), [238, 17, 34, 255]);
    assert_eq!(at(&t, 0, 1), [16, 255, 152, 255]);
    assert_eq!(at(&t, 0, 2), [0, 255, 136, 255]);
    assert_eq!(at(&t, 0, 3), [0, 239, 120, 255]);
}

#[test]
fn etc2_h_mode() {
    // R = 8 (bits 63..59 = 01000), dR = 3: in range. G = 31 (bits 55..51), dG = 1: overflow,
    // so H mode. R1 = 8 → 136; G1 = 011 then bit 52 (1) = 7 → 119; B1 = bit 51 (1) then bits
    // 49..47 (010) = 10 → 170. R2 = 2 → 34, G2 = 4 → 68, B2 = 6 → 102. c1 ≥ c2 sets the
    // distance's low bit: bit 34 (1), bit 32 (0), 1 = 5 → 32.
    let v = 0b01000u64 << 59
        | 0b011 << 56
        | 0b11111 << 51
        | 0b010 << 47
        | 2 << 43
        | 4 << 39
        | 6 << 35
        | 1 << 34
        | 1 << 33
        | etc_indices(|i| (i % 4) as u64);
    let t = decode(ETC2, &be(v));
    assert_eq!(at(&t, 0, 0), [168, 151, 202, 255]);
    assert_eq!(at(&t, 0, 1), [104, 87, 138, 255]);
    assert_eq!(at(&t, 0, 2), [66, 100, 134, 255]);
    assert_eq!(at(&t, 0, 3), [2, 36, 70, 255]);
}

#[test]
fn etc2_planar_mode() {
    // R = 0, G = 0 in range; B = 0b11111 with dB = 1 overflows: planar. O = (0, 0, BO) with
    // BO = bit 48 (0), bits 44..43 (11), bits 41..39 (010) = 26 → 105. H = (63 → 255, 0, 0),
    // V = (0, 127 → 255, 0).
    let v =
        0b111u64 << 45 | 0b11 << 43 | 0b010 << 39 | 0b11111 << 34 | 1 << 33 | 1 << 32 | 127 << 6;
    let t = decode(ETC2, &be(v));
    // R = (255x + 2) >> 2, G = (255y + 2) >> 2, B = (422 − 105(x + y)) >> 2 clamped.
    assert_eq!(at(&t, 0, 0), [0, 0, 105, 255]);
    assert_eq!(at(&t, 1, 0), [64, 0, 79, 255]);
    assert_eq!(at(&t, 3, 2), [191, 128, 0, 255]);
    assert_eq!(at(&t, 2, 3), [128, 191, 0, 255]);
}

#[test]
fn etc2_punchthrough_alpha() {
    // Bit 33 clear: not opaque. Differential R = 16, G = B = 0, codewords 0; index 2 is
    // transparent black, index 0 adds nothing, 1 adds 8, 3 subtracts 8.
    let v = 16u64 << 59 | etc_indices(|i| (i % 4) as u64);
    let pt = Compressed::Etc2 {
        punchthrough: true,
        srgb: false,
    };
    let t = decode(pt, &be(v));
    // 16 → 132.
    assert_eq!(at(&t, 0, 0), [132, 0, 0, 255]);
    assert_eq!(at(&t, 0, 1), [140, 8, 8, 255]);
    assert_eq!(at(&t, 0, 2), [0, 0, 0, 0]);
    assert_eq!(at(&t, 0, 3), [124, 0, 0, 255]);
    // With the opaque bit set, the same block is an ordinary differential one.
    let t = decode(pt, &be(v | 1 << 33));
    assert_eq!(at(&t, 0, 2), [130, 0, 0, 255]);
}

/// An EAC block: base, multiplier, table, and texel i (x-major) taking index `idx(i)`.
fn eac(base: u8, mul: u64, table: u64, idx: impl Fn(usize) -> u64) -> u64 {
    let bits = (0..16).fold(0u64, |v, i| v | idx(i) << (45 - 3 * i));
    (base as u64) << 56 | mul << 52 | table << 48 | bits
}

#[test]
fn etc2_eac_alpha() {
    // Base 128, multiplier 2, table 0 ([−3, −6, −9, −15, 2, 5, 8, 14]); index = i % 8.
    let mut b = be(eac(128, 2, 0, |i| (i % 8) as u64)).to_vec();
    b.extend_from_slice(&be(1 << 33));
    let t = decode(Compressed::Etc2Eac { srgb: false }, &b);
    // (0, 3) is x-major texel 3: 128 − 30 = 98; (1, 3) is texel 7: 128 + 28 = 156.
    assert_eq!(at(&t, 0, 3)[3], 98);
    assert_eq!(at(&t, 1, 3)[3], 156);
    assert_eq!(at(&t, 0, 0)[3], 122);
}

#[test]
fn eac_r11_unsigned_and_signed() {
    let f = |t: &[[u8; 16]; 16], x: usize, y: usize, c: usize| {
        f32::from_le_bytes(t[y * 4 + x][4 * c..4 * c + 4].try_into().unwrap())
    };
    // Unsigned, multiplier 0 (counts as 1/8): 255·8 + 4 + m. Index 7 (+14) → 2058 → 2047;
    // index 0 (−3) → 2041.
    let v = eac(255, 0, 0, |i| if i == 0 { 0 } else { 7 });
    let t = decode(
        Compressed::Eac11 {
            channels: 1,
            signed: false,
        },
        &be(v),
    );
    assert_eq!(f(&t, 0, 0, 0), 2041.0 / 2047.0);
    assert_eq!(f(&t, 1, 0, 0), 1.0);
    // Signed: base −128 acts as −127; multiplier 1: −1016 + 8·m. Index 3 (−15) → −1136 →
    // −1023 = −1.0; index 4 (+2) → −1000.
    let s = eac(0x80, 1, 0, |i| if i == 0 { 3 } else { 4 });
    let mut two = be(s).to_vec();
    two.extend_from_slice(&be(eac(0, 1, 0, |_| 7)));
    let t = decode(
        Compressed::Eac11 {
            channels: 2,
            signed: true,
        },
        &two,
    );
    assert_eq!(f(&t, 0, 0, 0), -1.0);
    assert_eq!(f(&t, 0, 1, 0), -1000.0 / 1023.0);
    // Second channel: 0 + 8·14 = 112.
    assert_eq!(f(&t, 2, 2, 1), 112.0 / 1023.0);
    assert_eq!([f(&t, 2, 2, 2), f(&t, 2, 2, 3)], [0.0, 1.0]);
}
