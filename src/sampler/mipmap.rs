//! Mipmap chains: level sizes, texture completeness (GL 4.5 core §8.17) and
//! `glGenerateMipmap` (§8.14.4). The per-texel encoding is `format.rs`'s.

use std::sync::Arc;

use super::format::{
    decode_color, decode_depth, decode_stencil, encode_color_linear, encode_depth, encode_stencil,
    srgb8_to_linear,
};
use super::image::{Format, Image};
use super::{SamplerState, TextureView};

/// Size of mip level `level` of a `w` × `h` base (GL 4.5 core eq. 8.12: floor halving,
/// never below 1).
pub fn mip_size(w: u32, h: u32, level: u32) -> (u32, u32) {
    let half = |v: u32| v.checked_shr(level).unwrap_or(0).max(1);
    (half(w), half(h))
}

/// floor(log2(max(w, h))): the last level index of a full chain (0 for a 0 or 1 size).
pub fn max_mip_level(w: u32, h: u32) -> u32 {
    let m = w.max(h);
    if m == 0 {
        0
    } else {
        31 - m.leading_zeros()
    }
}

/// The last level sampling may use (GL 4.5 core §8.14.3, "q"): the base level for
/// non-mipmap filters, else min(max_level, base + floor(log2(max size))). `None` when the
/// base level is missing or empty.
pub fn last_level(view: &TextureView, state: &SamplerState) -> Option<u32> {
    let base = view.levels.get(view.base_level as usize)?.as_ref()?;
    if base.width() == 0 || base.height() == 0 {
        return None;
    }
    if !state.min_filter.uses_mipmaps() {
        return Some(view.base_level);
    }
    // A 3D texture's chain ends with its largest dimension, depth included.
    let w = if view.kind == super::TexKind::D3 {
        base.width().max(base.depth())
    } else {
        base.width()
    };
    let p = view
        .base_level
        .saturating_add(max_mip_level(w, base.height()));
    Some(p.min(view.max_level))
}

/// Whether `state`'s filters may sample a texture of `format`: integer formats take only
/// NEAREST magnification and NEAREST or NEAREST_MIPMAP_NEAREST minification (GL 4.5 core
/// §8.17: otherwise the texture is incomplete).
pub fn filters_allowed(format: Format, state: &SamplerState) -> bool {
    use crate::gl::{MagFilter, MinFilter};
    !format.is_integer()
        || (state.mag_filter == MagFilter::Nearest
            && matches!(
                state.min_filter,
                MinFilter::Nearest | MinFilter::NearestMipmapNearest
            ))
}

/// Texture completeness (GL 4.5 core §8.17): the base level exists with a non-zero size;
/// its filters suit its format (`filters_allowed`); with a mipmap min filter, also base ≤
/// max level and every level base..=q exists with the halved size and the base's format
/// and layer count. Multisample textures: their storage exists.
pub fn is_complete(view: &TextureView, state: &SamplerState) -> bool {
    // A multisample texture has one level and no sampler state (GL 4.5 core §8.10,
    // §8.17): complete once its storage exists.
    // A buffer texture has one level and no sampler state either (GL 4.5 core §8.9).
    if view.kind.is_multisample() || view.kind == super::TexKind::Buffer {
        return view
            .levels
            .first()
            .and_then(|l| l.as_ref())
            .is_some_and(|b| b.width() > 0 && b.height() > 0);
    }
    let Some(q) = last_level(view, state) else {
        return false;
    };
    match view.levels.get(view.base_level as usize) {
        Some(Some(base)) if filters_allowed(base.format(), state) => {}
        _ => return false,
    }
    if !state.min_filter.uses_mipmaps() {
        return true;
    }
    if view.base_level > view.max_level {
        return false;
    }
    let Some(Some(base)) = view.levels.get(view.base_level as usize) else {
        return false;
    };
    (view.base_level..=q).all(|level| match view.levels.get(level as usize) {
        Some(Some(img)) => {
            let k = level - view.base_level;
            let (w, h) = mip_size(base.width(), base.height(), k);
            // Array layers and cube faces stay; 3D slices halve (eq. 8.12).
            let depth = if view.kind == super::TexKind::D3 {
                mip_size(base.depth(), 1, k).0
            } else {
                base.depth()
            };
            img.width() == w
                && img.height() == h
                && img.format() == base.format()
                && img.depth() == depth
        }
        _ => false,
    })
}

/// 1D weights of a box filter from `src` texels down to `dst` texels: destination texel i
/// covers source interval [i·src/dst, (i+1)·src/dst), and each source texel weighs by the
/// length it overlaps (exact integer overlaps, divided once). For even sizes that is the
/// 2-tap box; odd sizes get 3 taps so no source texel is dropped.
fn box_weights(src: u32, dst: u32) -> Vec<Vec<(u32, f32)>> {
    let (src, dst) = (src as u64, dst as u64);
    (0..dst)
        .map(|i| {
            // Units of 1/dst of a source texel.
            let (start, end) = (i * src, (i + 1) * src);
            let first = start / dst;
            let last = (end - 1) / dst;
            (first..=last)
                .map(|t| {
                    let overlap = end.min((t + 1) * dst) - start.max(t * dst);
                    (t as u32, overlap as f32 / src as f32)
                })
                .collect()
        })
        .collect()
}

/// Builds levels 1.. of a full chain from `base` (GL 4.5 core §8.14.4): each level is
/// filtered from the previous one with `box_weights` (a 2×2 box for even sizes). Colour is
/// averaged in linear space (sRGB decoded, then re-encoded exactly); sums run in a fixed
/// order in f32, so results are the same on every machine. Depth is averaged; stencil
/// takes the first covered texel. Returns the levels in order (empty for a 1×1 base).
pub fn generate_mipmaps(base: &Image) -> Vec<Image> {
    let format = base.format();
    let levels = max_mip_level(base.width(), base.height());
    let mut out: Vec<Image> = Vec::with_capacity(levels as usize);
    let mut prev_bytes = base.to_bytes();
    let (mut pw, mut ph) = (base.width(), base.height());
    for _ in 0..levels {
        let (w, h) = ((pw / 2).max(1), (ph / 2).max(1));
        let img = downsample(format, &prev_bytes, pw, ph, w, h);
        prev_bytes = img.to_bytes();
        out.push(img);
        (pw, ph) = (w, h);
    }
    out
}

fn downsample(format: Format, src: &[u8], sw: u32, sh: u32, w: u32, h: u32) -> Image {
    let bpt = format.bytes_per_texel();
    let wx = box_weights(sw, w);
    let wy = box_weights(sh, h);
    let texel = |x: u32, y: u32| {
        let off = (y as usize * sw as usize + x as usize) * bpt;
        &src[off..off + bpt]
    };
    let linear = |t: &[u8]| -> [f32; 4] {
        match format {
            Format::Srgb8Alpha8 => [
                srgb8_to_linear(t[0]),
                srgb8_to_linear(t[1]),
                srgb8_to_linear(t[2]),
                t[3] as f32 / 255.0,
            ],
            _ if format.is_depth() => [decode_depth(format, t), 0.0, 0.0, 0.0],
            _ => decode_color(format, t),
        }
    };
    let mut data = vec![0u8; w as usize * h as usize * bpt];
    for (y, ry) in wy.iter().enumerate() {
        for (x, rx) in wx.iter().enumerate() {
            let mut acc = [0.0f32; 4];
            for &(ty, fy) in ry {
                for &(tx, fx) in rx {
                    let v = linear(texel(tx, ty));
                    let f = fx * fy;
                    for c in 0..4 {
                        acc[c] += v[c] * f;
                    }
                }
            }
            let dst = &mut data[(y * w as usize + x) * bpt..(y * w as usize + x + 1) * bpt];
            if format.is_depth() {
                encode_depth(format, acc[0], dst);
                let first = texel(rx[0].0, ry[0].0);
                encode_stencil(format, decode_stencil(format, first), dst);
            } else {
                // `acc` is linear: sRGB formats re-encode, the others store it as is.
                encode_color_linear(format, acc, dst);
            }
        }
    }
    let mut img = Image::new(w, h, format);
    img.write_bytes(0, &data);
    img
}

/// Convenience for the API: a view whose levels are `base` followed by its generated
/// chain, keeping the view's level range.
pub fn with_generated_mipmaps(view: &TextureView) -> TextureView {
    let mut out = view.clone();
    let Some(Some(base)) = view.levels.get(view.base_level as usize) else {
        return out;
    };
    let top = view.base_level as usize;
    for (i, img) in generate_mipmaps(base).into_iter().enumerate() {
        let level = top + 1 + i;
        if level > view.max_level as usize {
            break;
        }
        if out.levels.len() <= level {
            out.levels.resize(level + 1, None);
        }
        out.levels[level] = Some(Arc::new(img));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gl::MinFilter;

    fn img(format: Format, w: u32, h: u32, data: &[u8]) -> Image {
        let mut i = Image::new(w, h, format);
        i.write_bytes(0, data);
        i
    }

    #[test]
    fn mip_sizes_floor_halve() {
        assert_eq!(mip_size(5, 3, 0), (5, 3));
        assert_eq!(mip_size(5, 3, 1), (2, 1));
        assert_eq!(mip_size(5, 3, 2), (1, 1));
        assert_eq!(mip_size(1024, 1, 10), (1, 1));
        assert_eq!(mip_size(7, 7, 40), (1, 1));
        assert_eq!(max_mip_level(5, 3), 2);
        assert_eq!(max_mip_level(1, 1), 0);
        assert_eq!(max_mip_level(0, 0), 0);
        assert_eq!(max_mip_level(16384, 2), 14);
    }

    #[test]
    fn box_weights_cover_every_texel_once() {
        assert_eq!(
            box_weights(4, 2),
            vec![vec![(0, 0.5), (1, 0.5)], vec![(2, 0.5), (3, 0.5)]]
        );
        assert_eq!(box_weights(1, 1), vec![vec![(0, 1.0)]]);
        // 5 → 2: each destination covers 2.5 source texels.
        assert_eq!(
            box_weights(5, 2),
            vec![
                vec![(0, 0.4), (1, 0.4), (2, 0.2)],
                vec![(2, 0.2), (3, 0.4), (4, 0.4)]
            ]
        );
        for (s, d) in [(3, 1), (7, 3), (9, 4), (2, 1)] {
            let w = box_weights(s, d);
            let mut per_src = vec![0.0f32; s as usize];
            for row in &w {
                let sum: f32 = row.iter().map(|p| p.1).sum();
                assert!((sum - 1.0).abs() < 1e-6);
                for &(t, f) in row {
                    per_src[t as usize] += f;
                }
            }
            for v in per_src {
                assert!((v - d as f32 / s as f32).abs() < 1e-6);
            }
        }
    }

    #[test]
    fn generate_sizes_and_values() {
        // 4×2 RGBA8: level 1 is 2×1, level 2 is 1×1.
        #[rustfmt::skip]
        let data = [
            0, 0, 0, 255,   100, 0, 0, 255,   0, 200, 0, 255,   0, 0, 40, 255,
            0, 0, 0, 255,   100, 0, 0, 255,   0, 200, 0, 255,   0, 0, 40, 255,
        ];
        let levels = generate_mipmaps(&img(Format::Rgba8, 4, 2, &data));
        assert_eq!(levels.len(), 2);
        assert_eq!((levels[0].width(), levels[0].height()), (2, 1));
        assert_eq!((levels[1].width(), levels[1].height()), (1, 1));
        assert_eq!(levels[0].to_bytes(), vec![50, 0, 0, 255, 0, 100, 20, 255]);
        assert_eq!(levels[1].to_bytes(), vec![25, 50, 10, 255]);
    }

    #[test]
    fn generate_odd_size_keeps_every_texel() {
        // 3×1 R8 → 1×1 weights 1/3 each.
        let levels = generate_mipmaps(&img(Format::R8, 3, 1, &[0, 0, 255]));
        assert_eq!(levels.len(), 1);
        assert_eq!(levels[0].to_bytes(), vec![85]);
    }

    #[test]
    fn generate_srgb_averages_in_linear() {
        // Black and white average to linear 0.5, which is sRGB code 188, not 128.
        let data = [0, 0, 0, 0, 255, 255, 255, 255];
        let levels = generate_mipmaps(&img(Format::Srgb8Alpha8, 2, 1, &data));
        assert_eq!(levels[0].to_bytes(), vec![188, 188, 188, 128]);
    }

    #[test]
    fn generate_is_deterministic_and_handles_floats_and_depth() {
        let vals: Vec<u8> = [1.0f32, 2.0, 3.0, 4.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let l = generate_mipmaps(&img(Format::R32F, 2, 2, &vals));
        assert_eq!(l[0].to_bytes(), 2.5f32.to_le_bytes().to_vec());
        let l = generate_mipmaps(&img(Format::Depth32F, 2, 2, &vals));
        assert_eq!(l[0].to_bytes(), 1.0f32.to_le_bytes().to_vec()); // clamped to [0, 1]
        let big: Vec<u8> = (0..(37 * 19 * 4)).map(|i| (i * 31 % 251) as u8).collect();
        let a = generate_mipmaps(&img(Format::Rgba8, 37, 19, &big));
        let b = generate_mipmaps(&img(Format::Rgba8, 37, 19, &big));
        // 37×19 → 18×9 → 9×4 → 4×2 → 2×1 → 1×1.
        assert_eq!(a.len(), 5);
        assert_eq!((a[0].width(), a[0].height()), (18, 9));
        assert_eq!((a[3].width(), a[3].height()), (2, 1));
        assert_eq!((a[4].width(), a[4].height()), (1, 1));
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.to_bytes(), y.to_bytes());
        }
    }

    fn view(levels: Vec<Option<Image>>, base: u32, max: u32) -> TextureView {
        TextureView {
            levels: levels.into_iter().map(|l| l.map(Arc::new)).collect(),
            base_level: base,
            max_level: max,
            kind: Default::default(),
        }
    }

    #[test]
    fn completeness() {
        let near = SamplerState {
            min_filter: MinFilter::Nearest,
            ..SamplerState::default()
        };
        let mip = SamplerState::default(); // NEAREST_MIPMAP_LINEAR
        let base_only = view(vec![Some(Image::new(4, 4, Format::Rgba8))], 0, 1000);
        assert!(is_complete(&base_only, &near));
        assert!(!is_complete(&base_only, &mip));
        let full = with_generated_mipmaps(&base_only);
        assert_eq!(full.levels.len(), 3);
        assert!(is_complete(&full, &mip));
        // Wrong size at level 1.
        let mut bad = full.clone();
        bad.levels[1] = Some(Arc::new(Image::new(3, 2, Format::Rgba8)));
        assert!(!is_complete(&bad, &mip));
        // Wrong format at level 2.
        let mut bad = full.clone();
        bad.levels[2] = Some(Arc::new(Image::new(1, 1, Format::R8)));
        assert!(!is_complete(&bad, &mip));
        // max_level 1 only needs levels 0..=1.
        let mut short = full.clone();
        short.levels[2] = None;
        short.max_level = 1;
        assert!(is_complete(&short, &mip));
        // base_level past max_level, missing base, zero size.
        let mut inverted = full.clone();
        inverted.base_level = 2;
        inverted.max_level = 1;
        assert!(!is_complete(&inverted, &mip));
        assert!(!is_complete(&view(vec![], 0, 1000), &near));
        assert!(!is_complete(
            &view(vec![Some(Image::new(0, 4, Format::Rgba8))], 0, 1000),
            &near
        ));
        assert!(!is_complete(&view(vec![None], 0, 1000), &near));
        // Base level 1 of a chain: level 1 is 2×2 and level 2 must be 1×1.
        let mut based = full.clone();
        based.base_level = 1;
        assert!(is_complete(&based, &mip));
        assert_eq!(last_level(&based, &mip), Some(2));
    }
}
