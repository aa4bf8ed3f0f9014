//! Tests of the whole lookup path: `sample` through the descriptor table with real images:
//! filters, wraps, offsets, LOD selection, sRGB, texelFetch/textureSize, handle validation
//! and residency, made-up handles, and readers running while the API thread inserts.

use super::*;
use crate::gl::enums as gl;
use crate::gl::{MagFilter, MinFilter, Wrap};
use proptest::prelude::*;

fn image_f32(format: Format, w: u32, h: u32, texels: &[[f32; 4]]) -> Arc<Image> {
    let mut img = Image::new(w, h, format);
    let bpt = format.bytes_per_texel();
    let mut data = vec![0u8; (w * h) as usize * bpt];
    for (i, t) in texels.iter().enumerate() {
        encode_color(format, *t, &mut data[i * bpt..(i + 1) * bpt]);
    }
    img.write_bytes(0, &data);
    Arc::new(img)
}

fn r32f(w: u32, h: u32, vals: &[f32]) -> Arc<Image> {
    let t: Vec<[f32; 4]> = vals.iter().map(|&v| [v, 0.0, 0.0, 1.0]).collect();
    image_f32(Format::R32F, w, h, &t)
}

/// A sampler state from raw GL values (so the cases below also go through `from_gl`).
fn state(min: u32, mag: u32, wrap: u32) -> SamplerState {
    let wrap = Wrap::from_gl(wrap).unwrap();
    SamplerState {
        min_filter: MinFilter::from_gl(min).unwrap(),
        mag_filter: MagFilter::from_gl(mag).unwrap(),
        wrap_s: wrap,
        wrap_t: wrap,
        ..SamplerState::default()
    }
}

fn view_of(levels: Vec<Arc<Image>>) -> TextureView {
    TextureView {
        levels: levels.into_iter().map(Some).collect(),
        base_level: 0,
        max_level: 1000,
        kind: Default::default(),
    }
}

/// A context with one internal (residency-free) descriptor.
fn ctx_with(view: TextureView, st: SamplerState) -> (SampleContext, TextureHandle) {
    let table = Arc::new(DescriptorTable::new());
    let h = table.insert(view, st, true).unwrap();
    (
        SampleContext::new(table, Arc::default(), DebugSink::default()),
        h,
    )
}

fn request(
    op: TexOp,
    handles: [TextureHandle; 4],
    coord: [[f32; 2]; 4],
    lod: [f32; 4],
) -> TexRequest {
    let handles = handles.map(TextureHandle::to_bits);
    TexRequest {
        op: op as u32,
        mask: 0xF,
        quad: 0,
        offset: [0, 0],
        compare: 0,
        handle_lo: handles.map(|h| h as u32),
        handle_hi: handles.map(|h| (h >> 32) as u32),
        coord: [coord.map(|c| c[0].to_bits()), coord.map(|c| c[1].to_bits())],
        lod: lod.map(f32::to_bits),
        dref: [0; 4],
        layer: [0; 4],
        cube_layer: [0; 4],
        data: [[0; 4]; 4],
    }
}

fn lane(out: &TexResult, l: usize) -> [f32; 4] {
    [0, 1, 2, 3].map(|c| f32::from_bits(out[c][l]))
}

/// One non-quad lookup at (s, t) with explicit LOD 0 (or a bias for implicit).
fn at(ctx: &SampleContext, h: TextureHandle, s: f32, t: f32) -> [f32; 4] {
    let r = request(TexOp::SampleLod, [h; 4], [[s, t]; 4], [0.0; 4]);
    lane(&sample(ctx, &r), 0)
}

#[test]
fn shared_types_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<SampleContext>();
    send_sync::<DescriptorTable>();
    send_sync::<ResidentSet>();
    send_sync::<Image>();
}

#[test]
fn nearest_picks_exact_texels_and_repeats() {
    let img = image_f32(
        Format::Rgba8,
        2,
        2,
        &[
            [1.0, 0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0, 1.0],
            [0.0, 0.0, 1.0, 1.0],
            [1.0, 1.0, 1.0, 0.0],
        ],
    );
    let (ctx, h) = ctx_with(
        view_of(vec![img]),
        state(gl::NEAREST, gl::NEAREST, gl::REPEAT),
    );
    assert_eq!(at(&ctx, h, 0.25, 0.25), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(at(&ctx, h, 0.75, 0.25), [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(at(&ctx, h, 0.25, 0.75), [0.0, 0.0, 1.0, 1.0]);
    assert_eq!(at(&ctx, h, 0.75, 0.75), [1.0, 1.0, 1.0, 0.0]);
    assert_eq!(at(&ctx, h, 1.25, -0.75), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(at(&ctx, h, -0.25, 2.25), [0.0, 1.0, 0.0, 1.0]);
}

#[test]
fn linear_weights_and_wraps() {
    let img = r32f(2, 1, &[0.0, 1.0]);
    let lin = |wrap| {
        let (ctx, h) = ctx_with(
            view_of(vec![img.clone()]),
            state(gl::LINEAR, gl::LINEAR, wrap),
        );
        move |s: f32| at(&ctx, h, s, 0.5)[0]
    };
    let edge = lin(gl::CLAMP_TO_EDGE);
    assert_eq!(edge(0.5), 0.5);
    assert_eq!(edge(0.25), 0.0);
    assert_eq!(edge(0.375), 0.25);
    assert_eq!(edge(0.0), 0.0);
    assert_eq!(edge(1.0), 1.0);
    let rep = lin(gl::REPEAT);
    assert_eq!(rep(0.0), 0.5); // texel 1 and texel 0 half each
    assert_eq!(rep(0.25), 0.0);
    assert_eq!(rep(1.5), 0.5);
    let mir = lin(gl::MIRRORED_REPEAT);
    assert_eq!(mir(0.0), 0.0); // texel -1 mirrors to 0
    assert_eq!(mir(1.0), 1.0);
    // Border: black with alpha 0 beyond the edge blends in.
    let (ctx, h) = ctx_with(
        view_of(vec![img.clone()]),
        SamplerState {
            border_color: [0.5, 0.25, 0.0, 0.0],
            ..state(gl::LINEAR, gl::LINEAR, gl::CLAMP_TO_BORDER)
        },
    );
    // s = 0: texel -1 (border 0.5, channels fitted to R32F: (r, 0, 0, 1)) and texel 0.
    assert_eq!(at(&ctx, h, 0.0, 0.5), [0.25, 0.0, 0.0, 1.0]);
    // A constant region stays exactly constant under any weights.
    let c = r32f(2, 2, &[0.3; 4]);
    let (ctx, h) = ctx_with(view_of(vec![c]), state(gl::LINEAR, gl::LINEAR, gl::REPEAT));
    for s in [0.1f32, 0.33, 0.77, 0.9999] {
        assert_eq!(at(&ctx, h, s, s * 0.7)[0], 0.3);
    }
}

#[test]
fn bilinear_in_two_dimensions() {
    let img = r32f(2, 2, &[0.0, 1.0, 2.0, 3.0]);
    let (ctx, h) = ctx_with(
        view_of(vec![img]),
        state(gl::LINEAR, gl::LINEAR, gl::CLAMP_TO_EDGE),
    );
    assert_eq!(at(&ctx, h, 0.5, 0.5)[0], 1.5);
    // u − ½ = 0.25, v − ½ = 0.75: lerp(lerp(0, 1, ¼), lerp(2, 3, ¼), ¾) = 1.75.
    assert_eq!(at(&ctx, h, 0.375, 0.625)[0], 1.75);
    assert_eq!(at(&ctx, h, 0.25, 0.75)[0], 2.0);
}

#[test]
fn every_format_and_filter_combination_runs() {
    let mins = [
        gl::NEAREST,
        gl::LINEAR,
        gl::NEAREST_MIPMAP_NEAREST,
        gl::LINEAR_MIPMAP_NEAREST,
        gl::NEAREST_MIPMAP_LINEAR,
        gl::LINEAR_MIPMAP_LINEAR,
    ];
    for f in crate::sampler::format::tests_all() {
        // A constant texture (value 0.5 where the format stores it) filters to itself at
        // every level, whatever the filter.
        let texel = fit(f, [0.5, 0.5, 0.5, 0.5]);
        let base = image_f32(f, 4, 4, &[[0.5; 4]; 16]);
        let view = with_generated_mipmaps(&TextureView {
            levels: vec![Some(base)],
            base_level: 0,
            max_level: 1000,
            kind: Default::default(),
        });
        for min in mins {
            for mag in [gl::NEAREST, gl::LINEAR] {
                let (ctx, h) = ctx_with(view.clone(), state(min, mag, gl::REPEAT));
                for lod in [-1.0f32, 0.0, 0.7, 1.0, 1.5, 2.0, 5.0] {
                    let r = request(TexOp::SampleLod, [h; 4], [[0.3, 0.8]; 4], [lod; 4]);
                    let v = lane(&sample(&ctx, &r), 2);
                    let nearest = min == gl::NEAREST && mag == gl::NEAREST;
                    if f == Format::Srgb8Alpha8 && !nearest {
                        // Filtering sRGB runs on the 15-bit linear decode (filter8.rs):
                        // within half a step of the exact one, and encoding back gives the
                        // stored code.
                        for c in 0..3 {
                            let err = (v[c] - texel[c]).abs();
                            assert!(err <= 0.5 / 32640.0, "{f:?} min {min:#x} lod {lod}");
                            assert_eq!(linear_to_srgb8(v[c]), linear_to_srgb8(texel[c]));
                        }
                        assert_eq!(v[3], texel[3]);
                        continue;
                    }
                    assert_eq!(v, texel, "{f:?} min {min:#x} mag {mag:#x} lod {lod}");
                }
            }
        }
    }
}

/// What a format stores and samples back for `c` (sRGB decoded).
fn fit(f: Format, c: [f32; 4]) -> [f32; 4] {
    let mut b = [0u8; 16];
    encode_color(f, c, &mut b);
    decode_texel(f, &b)
}

#[test]
fn border_colour_is_fitted_to_the_format() {
    let img = image_f32(Format::Rgba8, 1, 1, &[[1.0; 4]]);
    let st = SamplerState {
        border_color: [2.0, 0.5, -1.0, 0.25],
        ..state(gl::NEAREST, gl::NEAREST, gl::CLAMP_TO_BORDER)
    };
    let (ctx, h) = ctx_with(view_of(vec![img]), st);
    assert_eq!(at(&ctx, h, 1.5, 0.5), [1.0, 0.5, 0.0, 0.25]); // unorm clamps
    assert_eq!(at(&ctx, h, 0.5, 0.5), [1.0; 4]);
    let r8 = image_f32(Format::R8, 1, 1, &[[0.0; 4]]);
    let (ctx, h) = ctx_with(view_of(vec![r8]), st);
    assert_eq!(at(&ctx, h, -0.5, 0.5), [1.0, 0.0, 0.0, 1.0]);
}

#[test]
fn nearest_mirrored_and_clamp_on_four_texels() {
    let img = r32f(4, 1, &[10.0, 11.0, 12.0, 13.0]);
    let pick = |wrap, s| {
        let (ctx, h) = ctx_with(
            view_of(vec![img.clone()]),
            state(gl::NEAREST, gl::NEAREST, wrap),
        );
        at(&ctx, h, s, 0.5)[0]
    };
    assert_eq!(pick(gl::MIRRORED_REPEAT, 1.1), 13.0); // i = 4 mirrors to 3
    assert_eq!(pick(gl::MIRRORED_REPEAT, 1.6), 11.0); // i = 6 → 1
    assert_eq!(pick(gl::MIRRORED_REPEAT, -0.1), 10.0); // i = -1 → 0
    assert_eq!(pick(gl::CLAMP_TO_EDGE, 7.0), 13.0);
    assert_eq!(pick(gl::CLAMP_TO_EDGE, -7.0), 10.0);
    assert_eq!(pick(gl::MIRROR_CLAMP_TO_EDGE, -0.6), 12.0); // i = -3 → 2
    assert_eq!(pick(gl::MIRROR_CLAMP_TO_EDGE, -9.0), 13.0);
}

#[test]
fn texture_offset_moves_whole_texels() {
    let img = r32f(4, 2, &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    let (ctx, h) = ctx_with(
        view_of(vec![img]),
        state(gl::NEAREST, gl::NEAREST, gl::REPEAT),
    );
    let mut r = request(TexOp::SampleLod, [h; 4], [[0.125, 0.25]; 4], [0.0; 4]);
    r.offset = [1, 1];
    assert_eq!(lane(&sample(&ctx, &r), 0)[0], 5.0);
    r.offset = [-1, 0];
    assert_eq!(lane(&sample(&ctx, &r), 0)[0], 3.0); // wraps to the last column
}

/// An 8×8 R32F texture whose level i is the constant i.
fn leveled(min: u32) -> (SampleContext, TextureHandle) {
    let levels = (0..4)
        .map(|i| {
            let n = 8 >> i;
            r32f(n, n, &vec![i as f32; (n * n) as usize])
        })
        .collect();
    ctx_with(view_of(levels), state(min, gl::NEAREST, gl::REPEAT))
}

/// A quad whose s advances by `ds` per pixel in x and `dt` per pixel in y.
fn quad(h: TextureHandle, ds: f32, dt: f32, op: TexOp, lod: f32) -> TexRequest {
    let (s, t) = (0.3, 0.3);
    let mut r = request(
        op,
        [h; 4],
        [[s, t], [s + ds, t], [s, t + dt], [s + ds, t + dt]],
        [lod; 4],
    );
    r.quad = 1;
    r
}

fn level_seen(ctx: &SampleContext, r: &TexRequest) -> f32 {
    lane(&sample(ctx, r), 3)[0]
}

#[test]
fn implicit_lod_selects_levels() {
    let (ctx, h) = leveled(gl::NEAREST_MIPMAP_NEAREST);
    let px = 1.0 / 8.0; // one base texel per pixel
    assert_eq!(
        level_seen(&ctx, &quad(h, px, px, TexOp::SampleImplicit, 0.0)),
        0.0
    );
    assert_eq!(
        level_seen(&ctx, &quad(h, 2.0 * px, 0.0, TexOp::SampleImplicit, 0.0)),
        1.0
    );
    assert_eq!(
        level_seen(&ctx, &quad(h, 0.0, 4.0 * px, TexOp::SampleImplicit, 0.0)),
        2.0
    );
    // ρ = 3: λ = 1.58, nearest level ⌈λ + ½⌉ − 1 = 2.
    assert_eq!(
        level_seen(&ctx, &quad(h, 3.0 * px, px, TexOp::SampleImplicit, 0.0)),
        2.0
    );
    // ρ = 1.3: λ = 0.38 ≤ ½ → base level.
    assert_eq!(
        level_seen(&ctx, &quad(h, 1.3 * px, px, TexOp::SampleImplicit, 0.0)),
        0.0
    );
    // Far beyond the chain: q = 3.
    assert_eq!(
        level_seen(&ctx, &quad(h, 100.0, 0.0, TexOp::SampleImplicit, 0.0)),
        3.0
    );
    // A shader bias of 1 moves one level down the chain.
    assert_eq!(
        level_seen(&ctx, &quad(h, 2.0 * px, 0.0, TexOp::SampleImplicit, 1.0)),
        2.0
    );
    // Vertex-stage lookups (quad = 0) use λ = 0.
    let mut r = quad(h, 4.0 * px, 0.0, TexOp::SampleImplicit, 0.0);
    r.quad = 0;
    assert_eq!(level_seen(&ctx, &r), 0.0);

    let (ctx, h) = leveled(gl::LINEAR_MIPMAP_LINEAR);
    // ρ = 2√2: λ = 1.5, halfway between levels 1 and 2.
    let v = level_seen(
        &ctx,
        &quad(h, 8.0f32.sqrt() * px, 0.0, TexOp::SampleImplicit, 0.0),
    );
    assert!((v - 1.5).abs() < 1e-5, "{v}");
    // No mipmaps: LINEAR min filter stays on the base level.
    let (ctx, h) = leveled(gl::LINEAR);
    assert_eq!(
        level_seen(&ctx, &quad(h, 4.0 * px, 0.0, TexOp::SampleImplicit, 0.0)),
        0.0
    );
}

#[test]
fn explicit_lod_bias_and_clamps() {
    let (ctx, h) = leveled(gl::LINEAR_MIPMAP_LINEAR);
    let lod = |l: f32| level_seen(&ctx, &quad(h, 0.0, 0.0, TexOp::SampleLod, l));
    assert_eq!(lod(1.25), 1.25);
    assert_eq!(lod(2.0), 2.0);
    assert_eq!(lod(9.0), 3.0);
    assert_eq!(lod(-4.0), 0.0);
    assert_eq!(lod(f32::NAN), 0.0);
    let levels: Vec<_> = (0..4)
        .map(|i| {
            let n = 8 >> i;
            r32f(n, n, &vec![i as f32; (n * n) as usize])
        })
        .collect();
    let mk = |st: SamplerState, base: u32, max: u32| {
        let mut v = view_of(levels.clone());
        v.base_level = base;
        v.max_level = max;
        ctx_with(v, st)
    };
    let st = state(gl::NEAREST_MIPMAP_NEAREST, gl::NEAREST, gl::REPEAT);
    // Texture LOD bias adds to explicit LOD (GL 4.5 core eq. 8.6).
    let (c, h) = mk(
        SamplerState {
            lod_bias: 1.0,
            ..st
        },
        0,
        1000,
    );
    assert_eq!(
        level_seen(&c, &quad(h, 0.0, 0.0, TexOp::SampleLod, 1.0)),
        2.0
    );
    // max_lod clamps λ; min_lod too.
    let (c, h) = mk(SamplerState { max_lod: 1.0, ..st }, 0, 1000);
    assert_eq!(
        level_seen(&c, &quad(h, 0.0, 0.0, TexOp::SampleLod, 3.0)),
        1.0
    );
    let (c, h) = mk(SamplerState { min_lod: 2.0, ..st }, 0, 1000);
    assert_eq!(
        level_seen(&c, &quad(h, 0.0, 0.0, TexOp::SampleLod, 0.0)),
        2.0
    );
    // min_lod > max_lod never panics.
    let (c, h) = mk(
        SamplerState {
            min_lod: 3.0,
            max_lod: 1.0,
            ..st
        },
        0,
        1000,
    );
    let _ = level_seen(&c, &quad(h, 0.0, 0.0, TexOp::SampleLod, 0.0));
    // Base level 1: λ = 0 is level 1, the chain ends at max_level 2.
    let (c, h) = mk(st, 1, 2);
    assert_eq!(
        level_seen(&c, &quad(h, 0.0, 0.0, TexOp::SampleLod, 0.0)),
        1.0
    );
    assert_eq!(
        level_seen(&c, &quad(h, 0.0, 0.0, TexOp::SampleLod, 5.0)),
        2.0
    );
}

#[test]
fn lod_uses_each_lanes_own_texture_size() {
    let big = view_of(
        (0..4)
            .map(|i| {
                let n = 8 >> i;
                r32f(n, n, &vec![i as f32; (n * n) as usize])
            })
            .collect(),
    );
    let small = view_of(
        (0..3)
            .map(|i| {
                let n = 4 >> i;
                r32f(n, n, &vec![10.0 + i as f32; (n * n) as usize])
            })
            .collect(),
    );
    let st = state(gl::NEAREST_MIPMAP_NEAREST, gl::NEAREST, gl::REPEAT);
    let table = Arc::new(DescriptorTable::new());
    let hb = table.insert(big, st, true).unwrap();
    let hs = table.insert(small, st, true).unwrap();
    let ctx = SampleContext::new(table, Arc::default(), DebugSink::default());
    // ds = 1/4 per pixel: 2 texels of the 8-wide texture (λ = 1), 1 of the 4-wide (λ = 0).
    let mut r = quad(hb, 0.25, 0.0, TexOp::SampleImplicit, 0.0);
    r.handle_lo[2] = hs.to_bits() as u32;
    r.handle_hi[2] = (hs.to_bits() >> 32) as u32;
    let out = sample(&ctx, &r);
    assert_eq!(lane(&out, 0)[0], 1.0);
    assert_eq!(lane(&out, 2)[0], 10.0);
}

#[test]
fn srgb_decodes_on_sample_and_depth_reads_as_red() {
    let mut img = Image::new(1, 1, Format::Srgb8Alpha8);
    img.write_bytes(0, &[128, 0, 255, 128]);
    let img = Arc::new(img);
    let (ctx, h) = ctx_with(
        view_of(vec![img.clone()]),
        state(gl::LINEAR, gl::LINEAR, gl::REPEAT),
    );
    let v = at(&ctx, h, 0.5, 0.5);
    // LINEAR filters the 15-bit linear decode (filter8.rs): half a step of 1/32640 from
    // the exact value at most, and it encodes back to the stored code.
    assert!((v[0] - srgb8_to_linear(128)).abs() <= 0.5 / 32640.0);
    assert!((v[0] - 0.215_860_5).abs() < 2e-5);
    assert_eq!(linear_to_srgb8(v[0]), 128);
    assert_eq!(v[1], 0.0);
    assert_eq!(v[2], 1.0);
    assert_eq!(v[3], 128.0 / 255.0); // alpha stays linear
                                     // NEAREST reads the exact decode.
    let (ctx, h) = ctx_with(
        view_of(vec![img]),
        state(gl::NEAREST, gl::NEAREST, gl::REPEAT),
    );
    let v = at(&ctx, h, 0.5, 0.5);
    assert_eq!(v[0], srgb8_to_linear(128));
    assert!((v[0] - 0.215_860_5).abs() < 1e-6);
    assert_eq!(v[3], 128.0 / 255.0);
    let mut d = Image::new(1, 1, Format::Depth32F);
    d.write_bytes(0, &0.625f32.to_le_bytes());
    let (ctx, h) = ctx_with(
        view_of(vec![Arc::new(d)]),
        state(gl::NEAREST, gl::NEAREST, gl::REPEAT),
    );
    assert_eq!(at(&ctx, h, 0.5, 0.5), [0.625, 0.0, 0.0, 1.0]);
    let hf = image_f32(Format::Rgba16F, 1, 1, &[[0.5, -2.0, 1024.0, 0.125]]);
    let (ctx, h) = ctx_with(
        view_of(vec![hf]),
        state(gl::NEAREST, gl::NEAREST, gl::REPEAT),
    );
    assert_eq!(at(&ctx, h, 0.5, 0.5), [0.5, -2.0, 1024.0, 0.125]);
}

fn fetch(ctx: &SampleContext, h: TextureHandle, x: i32, y: i32, lod: i32) -> [f32; 4] {
    let mut r = request(TexOp::Fetch, [h; 4], [[0.0; 2]; 4], [0.0; 4]);
    r.coord = [[x as u32; 4], [y as u32; 4]];
    r.lod = [lod as u32; 4];
    lane(&sample(ctx, &r), 1)
}

fn size(ctx: &SampleContext, h: TextureHandle, lod: i32) -> [i32; 2] {
    let mut r = request(TexOp::Size, [h; 4], [[0.0; 2]; 4], [0.0; 4]);
    r.lod = [lod as u32; 4];
    let out = sample(ctx, &r);
    [out[0][2] as i32, out[1][2] as i32]
}

#[test]
fn texel_fetch_and_size() {
    let l0 = r32f(4, 2, &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    let l1 = r32f(2, 1, &[8.0, 9.0]);
    let l2 = r32f(1, 1, &[10.0]);
    let (ctx, h) = ctx_with(
        view_of(vec![l0, l1, l2]),
        state(gl::NEAREST_MIPMAP_NEAREST, gl::NEAREST, gl::REPEAT),
    );
    assert_eq!(fetch(&ctx, h, 3, 1, 0), [7.0, 0.0, 0.0, 1.0]);
    assert_eq!(fetch(&ctx, h, 1, 0, 1), [9.0, 0.0, 0.0, 1.0]);
    assert_eq!(fetch(&ctx, h, 0, 0, 2), [10.0, 0.0, 0.0, 1.0]);
    // Robust access: out of range gives zeros, no wrapping.
    for (x, y, lod) in [
        (4, 0, 0),
        (-1, 0, 0),
        (0, 2, 0),
        (2, 0, 1),
        (0, 0, 3),
        (0, 0, -1),
    ] {
        assert_eq!(fetch(&ctx, h, x, y, lod), [0.0; 4], "{x} {y} {lod}");
    }
    assert_eq!(fetch(&ctx, h, i32::MIN, i32::MAX, i32::MAX), [0.0; 4]);
    assert_eq!(size(&ctx, h, 0), [4, 2]);
    assert_eq!(size(&ctx, h, 1), [2, 1]);
    assert_eq!(size(&ctx, h, 2), [1, 1]);
    assert_eq!(size(&ctx, h, 3), [0, 0]);
    assert_eq!(size(&ctx, h, -1), [0, 0]);
}

#[test]
fn incomplete_textures_sample_black_opaque() {
    // Default min filter needs mipmaps; only the base is given.
    let (ctx, h) = ctx_with(
        view_of(vec![r32f(4, 4, &[0.5; 16])]),
        SamplerState::default(),
    );
    assert_eq!(at(&ctx, h, 0.5, 0.5), [0.0, 0.0, 0.0, 1.0]);
    // texelFetch too (GL 4.5 core §11.1.3.5 covers every sampler access), at any
    // coordinate.
    assert_eq!(fetch(&ctx, h, 0, 0, 0), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(fetch(&ctx, h, 9, -3, 2), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(size(&ctx, h, 0), [4, 4]);
    let (ctx, h) = ctx_with(TextureView::default(), SamplerState::default());
    assert_eq!(at(&ctx, h, 0.5, 0.5), [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn residency_is_checked_per_lane_with_one_message() {
    let table = Arc::new(DescriptorTable::new());
    let st = state(gl::NEAREST, gl::NEAREST, gl::REPEAT);
    let h = table
        .insert(view_of(vec![r32f(1, 1, &[0.75])]), st, false)
        .unwrap();
    let debug = DebugSink::default();
    let ctx = SampleContext::new(table.clone(), Arc::default(), debug.clone());
    for _ in 0..5 {
        assert_eq!(at(&ctx, h, 0.5, 0.5), [0.0; 4]);
    }
    {
        let msgs = debug.lock().unwrap();
        assert_eq!(msgs.len(), 1, "{msgs:?}");
        assert!(
            msgs[0].contains(&format!("0x{:016x}", h.to_bits()))
                && msgs[0].contains("not resident")
        );
    }
    let mut res = ResidentSet::default();
    assert!(res.insert(h).unwrap());
    assert!(!res.insert(h).unwrap());
    let ctx2 = SampleContext::new(table.clone(), Arc::new(res.clone()), DebugSink::default());
    assert_eq!(at(&ctx2, h, 0.5, 0.5), [0.75, 0.0, 0.0, 1.0]);
    // The first context's snapshot does not see the later residency.
    assert_eq!(at(&ctx, h, 0.5, 0.5), [0.0; 4]);
    // Mixed lanes: only the resident one gets data; masked lanes stay zero.
    let other = table
        .insert(view_of(vec![r32f(1, 1, &[0.25])]), st, false)
        .unwrap();
    let mut r = request(TexOp::SampleLod, [h, other, h, h], [[0.5; 2]; 4], [0.0; 4]);
    r.mask = 0b0111;
    let out = sample(&ctx2, &r);
    assert_eq!(lane(&out, 0), [0.75, 0.0, 0.0, 1.0]);
    assert_eq!(lane(&out, 1), [0.0; 4]);
    assert_eq!(lane(&out, 2), [0.75, 0.0, 0.0, 1.0]);
    assert_eq!(lane(&out, 3), [0.0; 4]);
    assert!(res.remove(h));
    assert!(!res.remove(h));
    assert!(res.is_empty());
    // A deleted texture's handle misses even while still in the resident set.
    let mut res = ResidentSet::default();
    res.insert(h).unwrap();
    table.remove(h);
    let dbg = DebugSink::default();
    let ctx3 = SampleContext::new(table, Arc::new(res), dbg.clone());
    assert_eq!(at(&ctx3, h, 0.5, 0.5), [0.0; 4]);
    assert_eq!(at(&ctx3, h, 0.5, 0.5), [0.0; 4]);
    let msgs = dbg.lock().unwrap();
    assert_eq!(msgs.len(), 1);
    assert!(msgs[0].contains("not a valid handle"));
}

#[test]
fn stale_handle_never_reads_the_slots_next_texture() {
    let table = Arc::new(DescriptorTable::new());
    let st = state(gl::NEAREST, gl::NEAREST, gl::REPEAT);
    let old = table
        .insert(view_of(vec![r32f(1, 1, &[1.0])]), st, true)
        .unwrap();
    table.remove(old);
    // Insert until the slot comes back (reclamation waits for readers of other tests).
    let start = std::time::Instant::now();
    let new = loop {
        table.reclaim();
        let h = table
            .insert(view_of(vec![r32f(1, 1, &[2.0])]), st, true)
            .unwrap();
        if h.to_bits() as u32 == old.to_bits() as u32 {
            break h;
        }
        assert!(start.elapsed().as_secs() < 10);
        std::thread::yield_now();
    };
    assert_ne!(new, old);
    let ctx = SampleContext::new(table, Arc::default(), DebugSink::default());
    assert_eq!(at(&ctx, new, 0.5, 0.5), [2.0, 0.0, 0.0, 1.0]);
    assert_eq!(at(&ctx, old, 0.5, 0.5), [0.0; 4]);
}

#[test]
fn bad_ops_and_null_pointers_give_zeros() {
    let (ctx, h) = ctx_with(
        view_of(vec![r32f(1, 1, &[1.0])]),
        state(gl::NEAREST, gl::NEAREST, gl::REPEAT),
    );
    let mut r = request(TexOp::SampleLod, [h; 4], [[0.5; 2]; 4], [0.0; 4]);
    r.op = 77;
    assert_eq!(sample(&ctx, &r), [[0; 4]; 4]);
    let mut out: TexResult = [[9; 4]; 4];
    // SAFETY: null ctx/req are allowed by rt_texture's contract; `out` is a valid local.
    unsafe { rt_texture(std::ptr::null(), &r, &mut out) };
    assert_eq!(out, [[0; 4]; 4]);
    r.op = TexOp::SampleLod as u32;
    // SAFETY: all three point to live values of the right types.
    unsafe { rt_texture(&ctx as *const SampleContext as *const u8, &r, &mut out) };
    assert_eq!(lane(&out, 3), [1.0, 0.0, 0.0, 1.0]);
    // SAFETY: null `out` is allowed.
    unsafe {
        rt_texture(
            &ctx as *const SampleContext as *const u8,
            &r,
            std::ptr::null_mut(),
        )
    };
}

#[test]
fn a_pinned_context_pointer_samples_as_the_plain_one() {
    let (ctx, h) = ctx_with(
        view_of(vec![r32f(2, 1, &[1.0, 3.0])]),
        state(gl::LINEAR, gl::LINEAR, gl::REPEAT),
    );
    let bogus = TextureHandle::from_bits(0xDEAD_0000_0001);
    // The one-handle path, the grouping path (a lane with a bad handle) and a fetch.
    let quad = request(
        TexOp::SampleLod,
        [h; 4],
        [[0.1, 0.5], [0.5, 0.5], [0.6, 0.5], [0.9, 0.5]],
        [0.0; 4],
    );
    let mixed = request(
        TexOp::SampleLod,
        [h, bogus, h, h],
        [[0.25, 0.5]; 4],
        [0.0; 4],
    );
    let mut fetch = request(TexOp::Fetch, [h; 4], [[0.0; 2]; 4], [0.0; 4]);
    fetch.coord[0] = [0, 1, 2, 1];
    let pin = pin_span().expect("a live thread pins");
    let tagged = pinned_context_ptr(&ctx, &pin);
    assert_ne!(tagged, &ctx as *const SampleContext as *const u8);
    for r in [quad, mixed, fetch] {
        let mut plain: TexResult = [[7; 4]; 4];
        let mut pinned: TexResult = [[9; 4]; 4];
        // SAFETY: live context (plain and tagged while `pin` lives), request and result.
        unsafe {
            rt_texture(&ctx as *const SampleContext as *const u8, &r, &mut plain);
            rt_texture(tagged, &r, &mut pinned);
        }
        assert_eq!(plain, sample(&ctx, &r));
        assert_eq!(pinned, plain, "op {}", r.op);
    }
    drop(pin);
}

fn made_up_table() -> (Arc<DescriptorTable>, Vec<TextureHandle>) {
    let table = Arc::new(DescriptorTable::new());
    let mut hs = Vec::new();
    for (i, f) in [
        Format::Rgba8,
        Format::R8,
        Format::Rgba16F,
        Format::Depth24Stencil8,
    ]
    .into_iter()
    .enumerate()
    {
        let img = Arc::new(Image::new(3 + i as u32, 2, f));
        let v = TextureView {
            levels: vec![Some(img)],
            base_level: 0,
            max_level: 0,
            kind: Default::default(),
        };
        let st = state(gl::LINEAR_MIPMAP_LINEAR, gl::LINEAR, gl::CLAMP_TO_BORDER);
        hs.push(table.insert(v, st, false).unwrap());
    }
    (table, hs)
}

proptest! {
    #[test]
    fn made_up_handles_give_zeros(
        handles in proptest::array::uniform4(prop_oneof![
            Just(0u64), any::<u64>(), (0u64..8).prop_map(|i| 1 << 32 | i),
            (0u64..8).prop_map(|i| 3 << 32 | i), Just(u64::MAX), Just(MAX_HANDLES as u64 + 1),
        ]),
        op in 0u32..6, quad in 0u32..2, coords in proptest::array::uniform8(any::<u32>()),
        lods in proptest::array::uniform4(any::<u32>()),
    ) {
        let (table, _) = made_up_table();
        // Nothing is resident and nothing is internal: every lane must miss.
        let ctx = SampleContext::new(table, Arc::default(), DebugSink::default());
        let r = TexRequest {
            op, mask: 0xF, quad, offset: [0, 0], compare: 0,
            handle_lo: handles.map(|h| h as u32), handle_hi: handles.map(|h| (h >> 32) as u32),
            coord: [[coords[0], coords[1], coords[2], coords[3]], [coords[4], coords[5], coords[6], coords[7]]],
            lod: lods,
            dref: [0; 4],
            layer: [0; 4],
            cube_layer: [0; 4],
            data: [[0; 4]; 4],
        };
        prop_assert_eq!(sample(&ctx, &r), [[0; 4]; 4]);
        prop_assert!(ctx.debug.lock().unwrap().len() <= 4);
    }

    #[test]
    fn valid_handles_with_wild_inputs_never_panic(
        pick in proptest::array::uniform4(0usize..4), op in 0u32..4, quad in 0u32..2,
        coords in proptest::array::uniform8(prop_oneof![any::<u32>(), (-10.0f32..10.0).prop_map(f32::to_bits)]),
        lods in proptest::array::uniform4(any::<u32>()), offset in proptest::array::uniform2(-8i32..8),
    ) {
        let (table, hs) = made_up_table();
        let mut res = ResidentSet::default();
        for &h in &hs {
            res.insert(h).unwrap();
        }
        let ctx = SampleContext::new(table, Arc::new(res), DebugSink::default());
        let handles = pick.map(|i| hs[i]);
        let r = TexRequest {
            op, mask: 0xF, quad, offset, compare: 0,
            handle_lo: handles.map(|h| h.to_bits() as u32), handle_hi: handles.map(|h| (h.to_bits() >> 32) as u32),
            coord: [[coords[0], coords[1], coords[2], coords[3]], [coords[4], coords[5], coords[6], coords[7]]],
            lod: lods,
            dref: [0; 4],
            layer: [0; 4],
            cube_layer: [0; 4],
            data: [[0; 4]; 4],
        };
        let out = sample(&ctx, &r);
        // Images are zero-filled and the border is 0: filtered results are 0 or 1 in alpha.
        if op <= 1 {
            for l in 0..4 {
                let v = lane(&out, l);
                prop_assert!(v.iter().all(|c| c.is_finite()), "{:?}", v);
            }
        }
        prop_assert!(ctx.debug.lock().unwrap().is_empty());
    }
}

#[test]
fn readers_run_while_the_api_inserts_and_removes() {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let table = Arc::new(DescriptorTable::new());
    let st = state(gl::NEAREST, gl::NEAREST, gl::REPEAT);
    let tex = |v: f32| view_of(vec![r32f(2, 2, &[v; 4])]);
    // Long-lived handles the readers check, each with its own value.
    let fixed: Vec<(TextureHandle, f32)> = (0..8)
        .map(|i| (table.insert(tex(i as f32), st, true).unwrap(), i as f32))
        .collect();
    let stop = Arc::new(AtomicBool::new(false));
    // Lookups done by each reader, so the writer keeps churning until every reader has
    // really overlapped with it (on a busy 2-core machine threads may start late).
    let done: Arc<[AtomicU64; 3]> = Arc::new(Default::default());
    // Handles being churned: readers may see the right value or zeros, nothing else.
    let churn: Arc<Mutex<Vec<(TextureHandle, f32)>>> = Arc::default();
    let readers: Vec<_> = (0..3)
        .map(|t| {
            let (table, stop, churn, fixed, done) = (
                table.clone(),
                stop.clone(),
                churn.clone(),
                fixed.clone(),
                done.clone(),
            );
            std::thread::spawn(move || {
                let ctx = SampleContext::new(table, Arc::default(), DebugSink::default());
                let mut n = 0usize;
                while !stop.load(Ordering::Relaxed) {
                    let (h, v) = fixed[(n + t) % fixed.len()];
                    assert_eq!(at(&ctx, h, 0.3, 0.6), [v, 0.0, 0.0, 1.0]);
                    let c = churn.lock().unwrap().last().copied();
                    if let Some((h, v)) = c {
                        let got = at(&ctx, h, 0.3, 0.6);
                        assert!(
                            got == [v, 0.0, 0.0, 1.0] || got == [0.0; 4],
                            "{got:?} for {v}"
                        );
                    }
                    n += 1;
                    done[t].fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    let mut live: Vec<TextureHandle> = Vec::new();
    let mut i = 0u32;
    let start = std::time::Instant::now();
    while i < 3000 || done.iter().any(|d| d.load(Ordering::Relaxed) < 500) {
        assert!(start.elapsed().as_secs() < 60, "readers never ran");
        let v = 100.0 + i as f32;
        let h = table.insert(tex(v), st, true).unwrap();
        churn.lock().unwrap().push((h, v));
        live.push(h);
        if i.is_multiple_of(3) {
            let victim = live.remove(live.len() / 2);
            table.remove(victim);
        }
        // Keep the live set bounded so a slow start cannot fill the table.
        if live.len() > 2000 {
            table.remove(live.remove(0));
        }
        i += 1;
    }
    stop.store(true, Ordering::Relaxed);
    for r in readers {
        r.join().unwrap();
    }
    for (h, v) in fixed {
        let ctx = SampleContext::new(table.clone(), Arc::default(), DebugSink::default());
        assert_eq!(at(&ctx, h, 0.5, 0.5), [v, 0.0, 0.0, 1.0]);
    }
}

// ---- Differential tests: the quad (vector) path against the lane-by-lane reference. ----

mod differential {
    use super::super::descriptor::Descriptor;
    use super::super::filter::{select_sample_reference, VECTOR_HITS};
    use super::*;
    use proptest::test_runner::{Config, TestCaseError, TestRunner};

    const MINS: [u32; 6] = [
        gl::NEAREST,
        gl::LINEAR,
        gl::NEAREST_MIPMAP_NEAREST,
        gl::LINEAR_MIPMAP_NEAREST,
        gl::NEAREST_MIPMAP_LINEAR,
        gl::LINEAR_MIPMAP_LINEAR,
    ];
    const WRAPS: [u32; 5] = [
        gl::REPEAT,
        gl::MIRRORED_REPEAT,
        gl::CLAMP_TO_EDGE,
        gl::CLAMP_TO_BORDER,
        gl::MIRROR_CLAMP_TO_EDGE,
    ];
    const SIZES: [u32; 11] = [1, 2, 3, 4, 5, 7, 8, 13, 16, 17, 32];

    /// A texture-space coordinate: ordinary, on texel edges and centres, near the vector
    /// path's 2^22 limit, huge, and non-finite.
    fn coord() -> impl Strategy<Value = f32> {
        prop_oneof![
            6 => -3.0f32..3.0,
            2 => (-96i32..96).prop_map(|k| k as f32 / 32.0),
            // One ulp below a texel centre of a power-of-two level: u − ½ is a tiny
            // negative whose fraction rounds to 1 (the reference then uses weight 0).
            2 => (-4i32..4, 0u32..6).prop_map(|(k, e)| ((k as f32 + 0.5) / (1u32 << e) as f32).next_down()),
            1 => prop_oneof![1.0e5f32..1.0e7, -1.0e7f32..-1.0e5],
            1 => any::<u32>().prop_map(f32::from_bits),
            1 => prop_oneof![
                Just(f32::NAN), Just(f32::INFINITY), Just(f32::NEG_INFINITY), Just(-0.0),
                Just(1.0e30), Just(-1.0e30), Just(-1.0e-10), Just(0.999_999_94),
            ],
        ]
    }

    /// A per-pixel derivative of a coordinate.
    fn delta() -> impl Strategy<Value = f32> {
        prop_oneof![
            4 => -0.5f32..0.5,
            1 => Just(0.0),
            1 => -1.0e-6f32..1.0e-6,
            1 => prop_oneof![Just(1.0e9), Just(f32::NAN), Just(f32::INFINITY)],
        ]
    }

    /// LOD, bias, min/max LOD values.
    fn lod() -> impl Strategy<Value = f32> {
        prop_oneof![
            6 => -4.0f32..8.0,
            2 => (-8i32..16).prop_map(|k| k as f32 / 2.0),
            1 => any::<u32>().prop_map(f32::from_bits),
            1 => prop_oneof![
                Just(f32::NAN), Just(f32::INFINITY), Just(f32::NEG_INFINITY), Just(-0.0),
                Just(-1000.0), Just(1000.0),
            ],
        ]
    }

    #[derive(Clone, Debug)]
    struct Case {
        format: usize,
        size: (u32, u32),
        base_level: u32,
        levels: u32,
        extra_max_level: u32,
        seed: u64,
        wrap: (u32, u32),
        lod_bias: f32,
        min_lod: f32,
        max_lod: f32,
        op: TexOp,
        quad: u32,
        mask: u32,
        offset: [i32; 2],
        coords: [[f32; 4]; 2],
        lods: [f32; 4],
    }

    fn case() -> impl Strategy<Value = Case> {
        let tex = (
            0usize..9,
            (0usize..SIZES.len(), 0usize..SIZES.len()),
            0u32..3,
            1u32..8,
            prop_oneof![4 => Just(0u32), 1 => 0u32..20],
            any::<u64>(),
            (0usize..5, 0usize..5),
        );
        let state = (
            prop_oneof![3 => Just(0.0f32), 1 => lod()],
            prop_oneof![3 => Just(-1000.0f32), 1 => lod()],
            prop_oneof![3 => Just(1000.0f32), 1 => lod()],
        );
        // A quad (s, t at the top-left pixel plus derivatives), or 8 unrelated coordinates.
        let quad_coords = (coord(), coord(), delta(), delta(), delta(), delta()).prop_map(
            |(s, t, sx, sy, tx, ty)| {
                [
                    [s, s + sx, s + sy, s + sx + sy],
                    [t, t + tx, t + ty, t + tx + ty],
                ]
            },
        );
        let wild_coords = proptest::array::uniform4(proptest::array::uniform2(coord()))
            .prop_map(|c| [c.map(|l| l[0]), c.map(|l| l[1])]);
        let req = (
            prop_oneof![Just(TexOp::SampleImplicit), Just(TexOp::SampleLod)],
            prop_oneof![3 => Just(1u32), 1 => Just(0u32)],
            prop_oneof![3 => Just(0xFu32), 1 => 1u32..16],
            prop_oneof![
                3 => Just([0i32, 0]),
                2 => proptest::array::uniform2(-8i32..8),
                1 => proptest::array::uniform2(any::<i32>()),
            ],
            prop_oneof![3 => quad_coords, 1 => wild_coords],
            // One LOD for the quad (the vector path's case) or one per lane.
            prop_oneof![
                3 => lod().prop_map(|l| [l; 4]),
                1 => Just([0.0f32; 4]),
                1 => proptest::array::uniform4(lod()),
            ],
        );
        (tex, state, req).prop_map(|(tex, state, req)| Case {
            format: tex.0,
            size: (SIZES[tex.1 .0], SIZES[tex.1 .1]),
            base_level: tex.2,
            levels: tex.3,
            extra_max_level: tex.4,
            seed: tex.5,
            wrap: (WRAPS[tex.6 .0], WRAPS[tex.6 .1]),
            lod_bias: state.0,
            min_lod: state.1,
            max_lod: state.2,
            op: req.0,
            quad: req.1,
            mask: req.2,
            offset: req.3,
            coords: req.4,
            lods: req.5,
        })
    }

    /// Random bytes (xorshift) for a level: float formats get NaN, ∞ and denormal texels too.
    fn noise_image(format: Format, w: u32, h: u32, seed: &mut u64) -> Arc<Image> {
        let mut img = Image::new(w, h, format);
        let bytes: Vec<u8> = (0..(w * h) as usize * format.bytes_per_texel())
            .map(|_| {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                (*seed >> 24) as u8
            })
            .collect();
        img.write_bytes(0, &bytes);
        Arc::new(img)
    }

    /// Bits as compared: every bit of every non-NaN result; a NaN must meet a NaN, but its
    /// payload and sign are not compared. Rust leaves the payload of an arithmetic NaN
    /// unspecified (RFC 3514) and the compiler may commute `+`/`×` in the reference, so
    /// when two NaN texels meet (float formats only) even the reference has no fixed bits:
    /// a run found 0xFFD2… against 0xFFF7… from two NaN texels blended across levels.
    fn nan_policy(out: TexResult) -> TexResult {
        out.map(|c| {
            c.map(|b| {
                if f32::from_bits(b).is_nan() {
                    0x7FC0_0000
                } else {
                    b
                }
            })
        })
    }

    /// Runs every mag × min filter of the case's texture through both paths; results (and
    /// the untouched lanes) must match bit for bit.
    fn check(c: &Case) -> Result<(), TestCaseError> {
        let format = crate::sampler::format::tests_all()[c.format];
        let mut seed = c.seed | 1;
        let mut levels: Vec<Option<Arc<Image>>> = vec![None; c.base_level as usize];
        let chain = max_mip_level(c.size.0, c.size.1) + 1;
        for k in 0..c.levels.min(chain) {
            let (w, h) = mip_size(c.size.0, c.size.1, k);
            levels.push(Some(noise_image(format, w, h, &mut seed)));
        }
        let view = TextureView {
            levels,
            base_level: c.base_level,
            max_level: c.base_level + c.levels.min(chain) - 1 + c.extra_max_level,
            kind: Default::default(),
        };
        let req = TexRequest {
            op: c.op as u32,
            mask: c.mask,
            quad: c.quad,
            offset: c.offset,
            compare: 0,
            handle_lo: [0; 4],
            handle_hi: [0; 4],
            coord: c.coords.map(|v| v.map(f32::to_bits)),
            lod: c.lods.map(f32::to_bits),
            dref: [0; 4],
            layer: [0; 4],
            cube_layer: [0; 4],
            data: [[0; 4]; 4],
        };
        for min in MINS {
            for mag in [gl::NEAREST, gl::LINEAR] {
                let st = SamplerState {
                    min_filter: MinFilter::from_gl(min).unwrap(),
                    mag_filter: MagFilter::from_gl(mag).unwrap(),
                    wrap_s: Wrap::from_gl(c.wrap.0).unwrap(),
                    wrap_t: Wrap::from_gl(c.wrap.1).unwrap(),
                    border_color: [0.25, -1.0, 2.0, 0.5],
                    min_lod: c.min_lod,
                    max_lod: c.max_lod,
                    lod_bias: c.lod_bias,
                    ..SamplerState::default()
                };
                if !is_complete(&view, &st) {
                    continue;
                }
                let (d, _keep) = Descriptor::build(&view, &st, true);
                let reference = select_sample_reference(format, st.mag_filter, st.min_filter);
                // Lanes outside the mask must keep whatever `out` held.
                let mut fast_out: TexResult = [[0xDEAD_BEEF; 4]; 4];
                let mut ref_out = fast_out;
                (d.sample)(&d, &req, c.mask, &mut fast_out);
                reference(&d, &req, c.mask, &mut ref_out);
                prop_assert_eq!(
                    nan_policy(fast_out),
                    nan_policy(ref_out),
                    "{:?} min {:#x} mag {:#x}",
                    format,
                    min,
                    mag
                );
            }
        }
        Ok(())
    }

    #[test]
    fn quad_path_matches_the_reference_bit_for_bit() {
        let mut runner = TestRunner::new(Config {
            cases: 3000,
            failure_persistence: None,
            ..Config::default()
        });
        let before = VECTOR_HITS.with(|h| h.get());
        let result = runner.run(&case(), |c| check(&c));
        if let Err(e) = result {
            panic!("{e}");
        }
        // The generated cases mostly share one λ per quad and stay in range: the vector
        // path, not only its fallback, must have been compared.
        let hits = VECTOR_HITS.with(|h| h.get()) - before;
        assert!(hits > 2000, "vector path served only {hits} requests");
    }

    /// The bench's case: an RGBA8 trilinear quad is served by the vector path.
    #[test]
    fn trilinear_rgba8_quads_take_the_vector_path() {
        let mut seed = 7u64;
        let view = with_generated_mipmaps(&TextureView {
            levels: vec![Some(noise_image(Format::Rgba8, 64, 64, &mut seed))],
            base_level: 0,
            max_level: 1000,
            kind: Default::default(),
        });
        for wrap in [gl::REPEAT, gl::CLAMP_TO_EDGE, gl::MIRRORED_REPEAT] {
            let st = state(gl::LINEAR_MIPMAP_LINEAR, gl::LINEAR, wrap);
            let (d, _keep) = Descriptor::build(&view, &st, true);
            let reference = select_sample_reference(
                Format::Rgba8,
                MagFilter::Linear,
                MinFilter::LinearMipmapLinear,
            );
            for k in 0..64 {
                let (s, t) = (k as f32 * 0.173 - 2.0, k as f32 * 0.057);
                let px = 2.6 / 64.0;
                let mut r = request(
                    TexOp::SampleImplicit,
                    [TextureHandle::default(); 4],
                    [[s, t], [s + px, t], [s, t + px], [s + px, t + px]],
                    [0.0; 4],
                );
                r.quad = 1;
                let before = VECTOR_HITS.with(|h| h.get());
                let (mut a, mut b) = ([[0; 4]; 4], [[0; 4]; 4]);
                (d.sample)(&d, &r, 0xF, &mut a);
                assert_eq!(VECTOR_HITS.with(|h| h.get()), before + 1);
                reference(&d, &r, 0xF, &mut b);
                assert_eq!(a, b, "wrap {wrap:#x} k {k}");
            }
        }
    }
}

// ---- depth comparison (GL 4.5 core §8.23) ----

/// One shadow lookup at (s, t) with reference `dref`, explicit LOD `lod`.
fn shadow_at(ctx: &SampleContext, h: TextureHandle, s: f32, t: f32, dref: f32, lod: f32) -> f32 {
    let mut r = request(TexOp::SampleLod, [h; 4], [[s, t]; 4], [lod; 4]);
    r.compare = 1;
    r.dref = [dref.to_bits(); 4];
    let out = sample(ctx, &r);
    assert_eq!(lane(&out, 0)[1..], [0.0, 0.0, 1.0], "(R, 0, 0, 1)");
    f32::from_bits(out[0][0])
}

fn depth_image(format: Format, w: u32, h: u32, depths: &[f32]) -> Arc<Image> {
    let t: Vec<[f32; 4]> = depths.iter().map(|&d| [d, 0.0, 0.0, 1.0]).collect();
    image_f32(format, w, h, &t)
}

#[test]
fn compare_functions_follow_table_8_23() {
    use super::filter::compare_depth;
    let cases = [
        (gl::LEQUAL, [1.0, 1.0, 0.0]),
        (gl::GEQUAL, [0.0, 1.0, 1.0]),
        (gl::LESS, [1.0, 0.0, 0.0]),
        (gl::GREATER, [0.0, 0.0, 1.0]),
        (gl::EQUAL, [0.0, 1.0, 0.0]),
        (gl::NOTEQUAL, [1.0, 0.0, 1.0]),
        (gl::ALWAYS, [1.0, 1.0, 1.0]),
        (gl::NEVER, [0.0, 0.0, 0.0]),
    ];
    for (func, want) in cases {
        // D_ref below, equal to and above D_t = 0.5.
        let got = [0.25, 0.5, 0.75].map(|r| compare_depth(func, r, 0.5));
        assert_eq!(got, want, "func {func:#x}");
    }
    assert_eq!(compare_depth(gl::LEQUAL, f32::NAN, 0.5), 0.0);
    assert_eq!(compare_depth(gl::NOTEQUAL, f32::NAN, 0.5), 1.0);
}

#[test]
fn shadow_lookups_compare_each_texel_then_filter() {
    // 2×1: D_t 0.2 and 0.8.
    for format in [Format::Depth32F, Format::Depth24Stencil8] {
        let img = depth_image(format, 2, 1, &[0.2, 0.8]);
        let st = |min, mag| SamplerState {
            compare_mode: true,
            compare_func: crate::gl::CompareFunc::Lequal,
            ..state(min, mag, gl::CLAMP_TO_EDGE)
        };
        let (ctx, h) = ctx_with(view_of(vec![img.clone()]), st(gl::NEAREST, gl::NEAREST));
        assert_eq!(shadow_at(&ctx, h, 0.25, 0.5, 0.5, 0.0), 0.0);
        assert_eq!(shadow_at(&ctx, h, 0.75, 0.5, 0.5, 0.0), 1.0);
        // D24 clamps D_ref to [0, 1] (1.5 → 1.0 ≤ 0.8 fails either way; −1 → 0 passes).
        assert_eq!(shadow_at(&ctx, h, 0.25, 0.5, -1.0, 0.0), 1.0);
        let (ctx, h) = ctx_with(view_of(vec![img.clone()]), st(gl::LINEAR, gl::LINEAR));
        // Between the texel centres: results 0 and 1 blended, never the depths (a
        // depth-filtered 0.5 would compare as 0.5 ≤ 0.5 = 1).
        assert_eq!(shadow_at(&ctx, h, 0.5, 0.5, 0.5, 0.0), 0.5);
        assert_eq!(shadow_at(&ctx, h, 0.375, 0.5, 0.5, 0.0), 0.25);
        assert_eq!(shadow_at(&ctx, h, 0.5, 0.5, 0.1, 0.0), 1.0);
        assert_eq!(shadow_at(&ctx, h, 0.5, 0.5, 0.9, 0.0), 0.0);
    }
}

#[test]
fn shadow_lookups_blend_levels_and_use_the_border_depth() {
    // Level 0 (2×2) all 0.2, level 1 (1×1) 0.8; LINEAR_MIPMAP_LINEAR at λ = 0.25.
    let l0 = depth_image(Format::Depth32F, 2, 2, &[0.2; 4]);
    let l1 = depth_image(Format::Depth32F, 1, 1, &[0.8]);
    let st = SamplerState {
        compare_mode: true,
        compare_func: crate::gl::CompareFunc::Greater,
        ..state(gl::LINEAR_MIPMAP_LINEAR, gl::LINEAR, gl::REPEAT)
    };
    let (ctx, h) = ctx_with(view_of(vec![l0, l1]), st);
    // D_ref 0.5 > 0.2 on level 0 (1), not > 0.8 on level 1 (0): 0.75·1 + 0.25·0.
    assert_eq!(shadow_at(&ctx, h, 0.5, 0.5, 0.5, 0.25), 0.75);
    assert_eq!(shadow_at(&ctx, h, 0.5, 0.5, 0.5, 1.0), 0.0);
    // CLAMP_TO_BORDER: the border colour's red is the border depth.
    let img = depth_image(Format::Depth32F, 1, 1, &[0.2]);
    let st = SamplerState {
        compare_mode: true,
        border_color: [1.0, 1.0, 1.0, 1.0],
        ..state(gl::NEAREST, gl::NEAREST, gl::CLAMP_TO_BORDER)
    };
    let (ctx, h) = ctx_with(view_of(vec![img]), st);
    assert_eq!(
        shadow_at(&ctx, h, 0.5, 0.5, 0.5, 0.0),
        0.0,
        "0.5 ≤ 0.2 fails"
    );
    assert_eq!(
        shadow_at(&ctx, h, 1.5, 0.5, 0.5, 0.0),
        1.0,
        "0.5 ≤ border 1.0"
    );
}

#[test]
fn compare_mode_off_or_non_shadow_lookups_read_the_depth() {
    let img = depth_image(Format::Depth32F, 1, 1, &[0.3]);
    let on = SamplerState {
        compare_mode: true,
        ..state(gl::NEAREST, gl::NEAREST, gl::REPEAT)
    };
    // A plain lookup on a compare-mode texture (undefined in GL): the depth, as with
    // compare mode off.
    let (ctx, h) = ctx_with(view_of(vec![img.clone()]), on);
    assert_eq!(at(&ctx, h, 0.5, 0.5), [0.3, 0.0, 0.0, 1.0]);
    // A shadow lookup with compare mode off (undefined too): the depth.
    let (ctx, h) = ctx_with(
        view_of(vec![img]),
        state(gl::NEAREST, gl::NEAREST, gl::REPEAT),
    );
    let mut r = request(TexOp::SampleLod, [h; 4], [[0.5, 0.5]; 4], [0.0; 4]);
    r.compare = 1;
    r.dref = [0.9f32.to_bits(); 4];
    assert_eq!(lane(&sample(&ctx, &r), 0), [0.3, 0.0, 0.0, 1.0]);
}

/// Layers stacked into one 2D array level.
fn stack(layers: &[Image]) -> Image {
    let (w, h, f) = (layers[0].width(), layers[0].height(), layers[0].format());
    let mut img = Image::new_layers(w, h, layers.len() as u32, f);
    let bytes: Vec<u8> = layers.iter().flat_map(|l| l.to_bytes()).collect();
    img.write_bytes(0, &bytes);
    img
}

/// 2D array lookups (GL 4.5 core §8.14.2): each lane reads layer clamp(⌊r + ½⌋, 0, d − 1),
/// bit for bit what a 2D texture of that layer alone gives for the same request (the quad's
/// λ from all four lanes, the quad path and `filter8` included); texelFetch reads the
/// integer layer and zeros outside; textureSize reports the layers.
#[test]
fn array_layers_sample_like_their_own_2d_texture() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for format in [
        Format::Rgba8,
        Format::Srgb8Alpha8,
        Format::Rgba32F,
        Format::R8,
    ] {
        let n = 3usize;
        // Each layer: an 8×4 base of noise and its generated chain.
        let chains: Vec<Vec<Image>> = (0..n)
            .map(|_| {
                let texels: Vec<[f32; 4]> = (0..32)
                    .map(|_| [0, 1, 2, 3].map(|_| (rnd() % 256) as f32 / 255.0))
                    .collect();
                let base = image_f32(format, 8, 4, &texels);
                let mut chain = vec![Image::new(8, 4, format)];
                chain[0].write_bytes(0, &base.to_bytes());
                chain.extend(generate_mipmaps(&base));
                chain
            })
            .collect();
        let levels = chains[0].len();
        let array = view_of(
            (0..levels)
                .map(|l| {
                    Arc::new(stack(
                        &chains.iter().map(|c| clone(&c[l])).collect::<Vec<_>>(),
                    ))
                })
                .collect(),
        );
        for (min, mag) in [
            (gl::LINEAR_MIPMAP_LINEAR, gl::LINEAR),
            (gl::NEAREST_MIPMAP_NEAREST, gl::NEAREST),
            (gl::LINEAR, gl::LINEAR),
        ] {
            let st = state(min, mag, gl::REPEAT);
            let table = Arc::new(DescriptorTable::new());
            let ha = table.insert(array.clone(), st, true).unwrap();
            let h2: Vec<TextureHandle> = chains
                .iter()
                .map(|c| {
                    let v = view_of(c.iter().map(|i| Arc::new(clone(i))).collect());
                    table.insert(v, st, true).unwrap()
                })
                .collect();
            let ctx = SampleContext::new(table, Arc::default(), DebugSink::default());
            for _ in 0..64 {
                let s0 = (rnd() % 4096) as f32 / 1024.0 - 2.0;
                let t0 = (rnd() % 4096) as f32 / 1024.0 - 2.0;
                let d = (rnd() % 64) as f32 / 256.0;
                let coord = [[s0, t0], [s0 + d, t0], [s0, t0 + d], [s0 + d, t0 + d]];
                let layer = [0, 1, 2, 3].map(|_| (rnd() % 600) as f32 / 100.0 - 1.0);
                let mut req = request(TexOp::SampleImplicit, [ha; 4], coord, [0.0; 4]);
                req.quad = 1;
                req.layer = layer.map(f32::to_bits);
                let got = sample(&ctx, &req);
                for l in 0..4 {
                    let which = ((layer[l] + 0.5).floor() as i64).clamp(0, n as i64 - 1) as usize;
                    let mut r2 = request(TexOp::SampleImplicit, [h2[which]; 4], coord, [0.0; 4]);
                    r2.quad = 1;
                    let want = sample(&ctx, &r2);
                    for c in 0..4 {
                        assert_eq!(got[c][l], want[c][l], "{format:?} {min:#x} lane {l}");
                    }
                }
            }
            // texelFetch: layer z of texel (1, 1) at level 1; zeros outside the layers.
            let mut req = request(TexOp::Fetch, [ha; 4], [[0.0; 2]; 4], [0.0; 4]);
            req.coord = [[1; 4], [1; 4]];
            req.lod = [1; 4];
            req.layer = [0, 2, 3, (-1i32) as u32];
            let got = sample(&ctx, &req);
            for (l, &z) in [0usize, 2].iter().enumerate() {
                let bpt = format.bytes_per_texel();
                let lv = chains[z][1].to_bytes();
                let texel = decode_texel(format, &lv[(4 + 1) * bpt..(4 + 2) * bpt]);
                assert_eq!(lane(&got, l), texel, "{format:?} fetch layer {z}");
            }
            assert_eq!((lane(&got, 2), lane(&got, 3)), ([0.0; 4], [0.0; 4]));
            // textureSize: (8, 4, 3) at level 0, (4, 2, 3) at level 1.
            let mut req = request(TexOp::Size, [ha; 4], [[0.0; 2]; 4], [0.0; 4]);
            req.lod = [0, 1, 0, 1];
            let got = sample(&ctx, &req);
            assert_eq!([got[0][0], got[1][0], got[2][0]], [8, 4, 3]);
            assert_eq!([got[0][1], got[1][1], got[2][1]], [4, 2, 3]);
        }
    }
}

/// A copy of an image (tests build arrays and 2D textures from the same layers).
fn clone(img: &Image) -> Image {
    let mut c = Image::new_layers(img.width(), img.height(), img.depth(), img.format());
    c.write_bytes(0, &img.to_bytes());
    c
}

// ---- issue #13: rectangle, 1D, cube-map array, gather, textureQueryLod/Levels ----

/// `filter::sample_rect` divides s by the width (`unscale`) and the 2D routine multiplies
/// it back: for every width up to 4096 and every texel edge and centre, ⌊u⌋ is ⌊s⌋, so
/// NEAREST reads texel ⌊s⌋ as GL 4.5 core §8.14.2 says (u = s). A plain s / w · w fails
/// (13 / 22 · 22 = 12.999999).
#[test]
fn rect_coordinates_round_trip() {
    for w in 1..=4096u32 {
        let wf = w as f32;
        for k in 0..=w {
            for s in [k as f32, k as f32 + 0.5, -(k as f32)] {
                let u = super::filter::unscale(s, wf) * wf;
                assert_eq!(u.floor(), s.floor(), "w = {w}, s = {s}");
            }
        }
    }
}

fn view_kind(levels: Vec<Arc<Image>>, kind: TexKind) -> TextureView {
    TextureView {
        kind,
        ..view_of(levels)
    }
}

#[test]
fn rectangle_and_one_d_lookups() {
    // A 5×2 rectangle: texel (i, j) = 10j + i.
    let vals: Vec<f32> = (0..10).map(|i| (10 * (i / 5) + i % 5) as f32).collect();
    let (ctx, h) = ctx_with(
        view_kind(vec![r32f(5, 2, &vals)], TexKind::Rect),
        state(gl::NEAREST, gl::NEAREST, gl::CLAMP_TO_EDGE),
    );
    for (s, t, want) in [
        (0.0, 0.0, 0.0),
        (3.0, 1.0, 13.0),
        (4.99, 1.5, 14.0),
        (7.0, -2.0, 4.0),
    ] {
        assert_eq!(at(&ctx, h, s, t)[0], want, "({s}, {t})");
    }
    // LINEAR halfway between texels 1 and 2 of row 0: their mean.
    let (ctx, h) = ctx_with(
        view_kind(vec![r32f(5, 2, &vals)], TexKind::Rect),
        state(gl::LINEAR, gl::LINEAR, gl::CLAMP_TO_EDGE),
    );
    assert_eq!(at(&ctx, h, 2.0, 0.5)[0], 1.5);
    // A 1D texture ignores wrap_t (CLAMP_TO_BORDER would blend the border in otherwise).
    let (ctx, h) = ctx_with(
        view_kind(vec![r32f(4, 1, &[1.0, 2.0, 4.0, 8.0])], TexKind::D1),
        state(gl::LINEAR, gl::LINEAR, gl::CLAMP_TO_BORDER),
    );
    assert_eq!(at(&ctx, h, 0.5, 0.5)[0], 3.0);
}

#[test]
fn cube_arrays_pick_cubes_and_gather_reads_footprints() {
    // Two cubes of 1×1 faces: layer-face lf holds lf.
    let mut img = Image::new_layers(1, 1, 12, Format::R32F);
    let data: Vec<u8> = (0..12).flat_map(|v| (v as f32).to_le_bytes()).collect();
    img.write_bytes(0, &data);
    let (ctx, h) = ctx_with(
        view_kind(vec![Arc::new(img)], TexKind::CubeArray),
        state(gl::NEAREST, gl::NEAREST, gl::CLAMP_TO_EDGE),
    );
    let mut r = request(TexOp::SampleLod, [h; 4], [[0.0, 0.0]; 4], [0.0; 4]);
    // Directions −Y, +Z, −X, +X; cubes 0, 1, 1 (1.4 rounds to 1), 1 (9 clamps to 1).
    r.coord = [
        [0.1f32, 0.1, -1.0, 1.0].map(f32::to_bits),
        [-1.0f32, 0.2, 0.1, 0.2].map(f32::to_bits),
    ];
    r.layer = [0.2f32, 1.0, 0.3, 0.1].map(f32::to_bits);
    r.cube_layer = [0.0f32, 1.0, 1.4, 9.0].map(f32::to_bits);
    let out = sample(&ctx, &r);
    assert_eq!(out[0].map(f32::from_bits), [3.0, 10.0, 7.0, 6.0]);
    // textureSize: (1, 1, 2 cubes); textureQueryLevels 1.
    let mut r = request(TexOp::Size, [h; 4], [[0.0, 0.0]; 4], [0.0; 4]);
    r.lod = [0; 4];
    let out = sample(&ctx, &r);
    assert_eq!([out[0][0], out[1][0], out[2][0], out[3][0]], [1, 1, 2, 1]);

    // Gather on a 2×2 R32F (T(i, j) = 1 + i + 2j) at its centre: (T01, T11, T10, T00);
    // component 1 (G = 0); a shadow gather compares each texel with D_ref.
    let (ctx, h) = ctx_with(
        view_of(vec![r32f(2, 2, &[1.0, 2.0, 3.0, 4.0])]),
        state(gl::NEAREST, gl::NEAREST, gl::CLAMP_TO_EDGE),
    );
    let mut r = request(TexOp::Gather, [h; 4], [[0.5, 0.5]; 4], [0.0; 4]);
    r.lod = [0; 4];
    let out = sample(&ctx, &r);
    assert_eq!(lane(&out, 2), [3.0, 4.0, 2.0, 1.0]);
    r.lod = [3; 4];
    assert_eq!(lane(&sample(&ctx, &r), 0), [1.0; 4]);
    r.lod = [1; 4];
    assert_eq!(lane(&sample(&ctx, &r), 1), [0.0; 4]);
    r.lod = [0; 4];
    r.offset = [1, 0];
    assert_eq!(lane(&sample(&ctx, &r), 0), [4.0, 4.0, 2.0, 2.0]);
    r.offset = [0, 0];
    r.compare = 1;
    r.dref = [2.5f32.to_bits(); 4];
    // LEQUAL (the initial compare function): D_ref ≤ texel.
    assert_eq!(lane(&sample(&ctx, &r), 3), [1.0, 1.0, 0.0, 0.0]);
}

#[test]
fn query_lod_follows_the_min_filter() {
    // An 8×8 texture with its full chain (4 levels); the quad's s and t step `ds` per
    // pixel: ρ = 8·ds texels of the base level.
    let levels: Vec<Arc<Image>> = (0..4)
        .map(|l| r32f(8 >> l, 8 >> l, &vec![0.0; (64 >> (2 * l)) as usize]))
        .collect();
    let quad = |ds: f32| {
        let mut r = request(
            TexOp::QueryLod,
            [TextureHandle::default(); 4],
            [[0.0, 0.0], [ds, 0.0], [0.0, ds], [ds, ds]],
            [0.0; 4],
        );
        r.quad = 1;
        r
    };
    for (min, ds, want) in [
        // ds = 0.75: ρ = 6 texels, λ = log2 6 ≈ 2.585; LINEAR mipmaps: λ itself.
        (
            gl::LINEAR_MIPMAP_LINEAR,
            0.75f32,
            (6.0f32.log2(), 6.0f32.log2()),
        ),
        // NEAREST mipmaps: ⌈λ + ½⌉ − 1 = 3.
        (gl::NEAREST_MIPMAP_NEAREST, 0.75, (3.0, 6.0f32.log2())),
        // No mipmaps: 0; λ' still reported.
        (gl::LINEAR, 0.75, (0.0, 6.0f32.log2())),
        // Past the chain: clamped to q − base = 3; magnified: 0.
        (gl::LINEAR_MIPMAP_LINEAR, 4.0, (3.0, 5.0)),
        (gl::LINEAR_MIPMAP_LINEAR, 1.0 / 16.0, (0.0, -1.0)),
    ] {
        let (ctx, h) = ctx_with(view_of(levels.clone()), state(min, gl::LINEAR, gl::REPEAT));
        let mut r = quad(ds);
        r.handle_lo = [h.to_bits() as u32; 4];
        r.handle_hi = [(h.to_bits() >> 32) as u32; 4];
        let out = sample(&ctx, &r);
        let (x, y) = (f32::from_bits(out[0][0]), f32::from_bits(out[1][0]));
        assert!(
            (x - want.0).abs() < 1e-5 && (y - want.1).abs() < 1e-5,
            "{min:#x} {ds}: {x} {y}"
        );
    }
    // textureQueryLevels: the Size answer's fourth component, levels base..=q.
    let (ctx, h) = ctx_with(view_of(levels), state(gl::NEAREST, gl::NEAREST, gl::REPEAT));
    let mut r = request(TexOp::Size, [h; 4], [[0.0, 0.0]; 4], [0.0; 4]);
    r.lod = [0; 4];
    assert_eq!(sample(&ctx, &r)[3], [4; 4]);
}
