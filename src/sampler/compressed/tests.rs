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
