//! glBlitFramebuffer (GL 4.5 core §18.3.1): copying a rectangle from the read framebuffer to
//! the draw framebuffer, scaled and flipped, NEAREST or LINEAR, with colour format conversion
//! and raw depth/stencil copies. Owns the blit's validation, its coordinate mapping and the
//! copy loops. Finding attachment images and framebuffer completeness stay in
//! `framebuffer.rs`; how each format stores a texel stays in `sampler::format`.
//!
//! With multisample buffers (§18.3.1): a multisample source into a single-sample destination
//! is resolved (`resolve_box`: integer rounding for unorm bytes, a fixed summation order for
//! floats, sample 0 for integer colour and depth/stencil); into a multisample destination
//! each sample is copied from the same sample, or from the single-sample source.
//!
//! Two deliberate choices where the spec leaves results undefined, both so that a blit is
//! deterministic:
//! - a destination pixel whose source texel (the one containing the mapped position) lies
//!   outside the source buffers is left unwritten;
//! - the source texels a blit needs are copied into a temporary before any destination is
//!   written, so an overlapping blit within one image reads the image as it was before.

use std::sync::Arc;

use crate::api::context::Context;
use crate::api::dispatch::Group;
use crate::api::error::{GlError, GlResult};
use crate::api::framebuffer::incomplete;
use crate::api::names::FramebufferName;
use crate::gl::enums as gl;
use crate::raster::Rasterizer;
use crate::sampler::{
    decode_color, decode_int, decode_texel, encode_color, encode_color_linear, encode_int, Flushed,
    Format, Image,
};

/// Where one destination pixel reads along one axis: texels `i0` and `i1` weighted
/// `1 - frac` and `frac`. NEAREST taps have `i0 == i1` and `frac == 0`.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Tap {
    i0: u32,
    i1: u32,
    frac: f32,
}

/// The taps of destination pixels `lo..hi` along one axis, `None` where the texel containing
/// the source position is outside `0..src_size` (left unwritten, see the module docs).
/// LINEAR clamps its texels to the source buffers, not to the source rectangle
/// (CLAMP_TO_EDGE; §18.3.1 lets texels outside the rectangle but inside the buffer be used).
///
/// The centre of destination pixel `d` maps to source position
/// `s0 + (d + 1/2 - d0) · (s1 - s0) / (d1 - d0)` (texel centres at i + 1/2; lower bounds
/// inclusive, upper exclusive, a reversed rectangle mirrors: GL 4.5 core §18.3.1). It is
/// evaluated as one exact fraction in i128, `num / den` with `den = 2 (d1 - d0)`, so texel
/// indices are exact for every i32 input (an f64 product of two 32-bit extents can round);
/// only the LINEAR weight is rounded, once, to f32. `d0 != d1`.
fn map_axis(
    lo: i64,
    hi: i64,
    (s0, s1): (i32, i32),
    (d0, d1): (i32, i32),
    src_size: u32,
    linear: bool,
) -> Vec<Option<Tap>> {
    let (s0, s1, d0, d1) = (s0 as i128, s1 as i128, d0 as i128, d1 as i128);
    let mut den = 2 * (d1 - d0);
    let sign = if den < 0 { -1 } else { 1 };
    den *= sign;
    let last = src_size as i128 - 1;
    (lo..hi)
        .map(|d| {
            // pos = s0 + num / den, den > 0.
            let num = (2 * (d as i128 - d0) + 1) * (s1 - s0) * sign;
            let texel = s0 + num.div_euclid(den);
            if !(0..=last).contains(&texel) {
                return None;
            }
            if !linear {
                return Some(Tap {
                    i0: texel as u32,
                    i1: texel as u32,
                    frac: 0.0,
                });
            }
            // Bilinear between the two texel centres around pos (GL 4.5 core §8.14.2's
            // LINEAR rule with u = pos - 1/2 = s0 + (num - den/2) / den). When the sizes
            // match, pos is a texel centre and frac is exactly 0: "no filtering is applied"
            // (§18.3.1).
            let u = num - den / 2;
            let i = s0 + u.div_euclid(den);
            Some(Tap {
                i0: i.clamp(0, last) as u32,
                i1: (i + 1).clamp(0, last) as u32,
                frac: (u.rem_euclid(den) as f64 / den as f64) as f32,
            })
        })
        .collect()
}

/// `a` and `b` weighted `1 - t` and `t`; exactly `a` when `t` is 0, so unfiltered taps never
/// touch the second texel (an infinite float texel there would otherwise give NaN).
fn lerp(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
    if t == 0.0 {
        return a;
    }
    [0, 1, 2, 3].map(|c| a[c] * (1.0 - t) + b[c] * t)
}

/// The source texels a blit reads, copied out of the source image before anything is
/// written (so overlapping blits within one image are deterministic).
struct SourceBox {
    format: Format,
    x0: u32,
    y0: u32,
    w: u32,
    bytes: Vec<u8>,
}

impl SourceBox {
    /// Copies the texels the taps reach; `None` when no tap is valid.
    fn read(img: &Image, xs: &[Option<Tap>], ys: &[Option<Tap>]) -> Option<SourceBox> {
        let range = |taps: &[Option<Tap>]| {
            taps.iter()
                .flatten()
                .map(|t| (t.i0.min(t.i1), t.i0.max(t.i1)))
                .reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)))
        };
        let (x0, x1) = range(xs)?;
        let (y0, y1) = range(ys)?;
        let bpt = img.format().bytes_per_texel();
        let (w, h) = ((x1 - x0 + 1) as usize, (y1 - y0 + 1) as usize);
        let mut bytes = vec![0u8; w * h * bpt];
        for (r, row) in bytes.chunks_exact_mut(w * bpt).enumerate() {
            let off = ((y0 as usize + r) * img.width() as usize + x0 as usize) * bpt;
            img.read_bytes(off, row);
        }
        Some(SourceBox {
            format: img.format(),
            x0,
            y0,
            w: w as u32,
            bytes,
        })
    }

    /// Byte offset of texel (x, y) of the source image (inside the box by construction).
    fn index(&self, x: u32, y: u32) -> usize {
        let bpt = self.format.bytes_per_texel();
        ((y - self.y0) as usize * self.w as usize + (x - self.x0) as usize) * bpt
    }

    fn texel(&self, x: u32, y: u32) -> &[u8] {
        let i = self.index(x, y);
        &self.bytes[i..i + self.format.bytes_per_texel()]
    }

    /// The colour at one destination pixel: the stored encoding decoded to RGBA f32
    /// (sRGB decoded to linear when `srgb`: GL_FRAMEBUFFER_SRGB on, §18.3.1; otherwise it
    /// stays encoded), filtered across x first, then y.
    fn sample(&self, tx: Tap, ty: Tap, srgb: bool) -> [f32; 4] {
        let decode = |b: &[u8]| {
            if srgb {
                decode_texel(self.format, b)
            } else {
                decode_color(self.format, b)
            }
        };
        let row = |y| {
            let a = decode(self.texel(tx.i0, y));
            if tx.frac == 0.0 {
                return a;
            }
            lerp(a, decode(self.texel(tx.i1, y)), tx.frac)
        };
        let a = row(ty.i0);
        if ty.frac == 0.0 {
            return a;
        }
        lerp(a, row(ty.i1), ty.frac)
    }
}

/// A validated blit, ready to run once queued rendering has landed.
struct Plan {
    /// First destination column and row written; `xs`/`ys` cover the clipped rectangle.
    x_lo: u32,
    y_lo: u32,
    xs: Vec<Option<Tap>>,
    ys: Vec<Option<Tap>>,
    /// Source column = destination column + a constant (same extent, same direction): rows
    /// may be copied as byte runs when the formats match.
    unit_x: bool,
    /// GL_FRAMEBUFFER_SRGB (§18.3.1): sRGB sources are decoded to linear and sRGB
    /// destinations encoded (`encode_color_linear`); otherwise both keep their encoding.
    srgb: bool,
    color: Option<(Arc<Image>, Vec<Arc<Image>>)>,
    /// Depth/stencil copies: source, destination, and which bits of the 32-bit texel move.
    bits: Vec<(Arc<Image>, Arc<Image>, u32)>,
    /// A resolve: samples 1.. of the colour source, averaged with `color`'s source
    /// (`resolve_box`); empty for a plain copy.
    resolve: Vec<Arc<Image>>,
    /// Samples 1.. of a multisample destination, each its own copy (from the same sample of
    /// a multisample source, or from the single-sample source).
    more: Vec<Pass>,
}

/// One sample's copy into a multisample destination: colour (source, destinations) and
/// depth/stencil jobs, as `Plan::color` and `Plan::bits`.
type Pass = (Option<(Arc<Image>, Vec<Arc<Image>>)>, Vec<ZsJob>);

/// The bits of a depth/stencil texel that hold depth (`Depth24Stencil8`: bits 0..24,
/// `Depth32F`: all) or stencil (bits 24..32).
fn depth_bits(f: Format) -> u32 {
    match f {
        Format::Depth24Stencil8 => 0x00FF_FFFF,
        _ => 0xFFFF_FFFF,
    }
}
const STENCIL_BITS: u32 = 0xFF00_0000;

/// A depth/stencil copy: source, destination, and which bits of the 32-bit texel move.
type ZsJob = (Arc<Image>, Arc<Image>, u32);
/// A buffer bit with its source and destination images, either possibly missing.
type ZsPair<'a> = (u32, &'a Option<Arc<Image>>, &'a Option<Arc<Image>>);

/// The depth/stencil copies of a blit for `mask` from `(bit, source, destination)` pairs: a
/// buffer missing from either side drops its bit silently (§18.3.1); formats that differ
/// are INVALID_OPERATION; one image holding both depth and stencil is one job.
fn zs_jobs(mask: u32, pairs: [ZsPair<'_>; 2]) -> GlResult<Vec<ZsJob>> {
    let mut bits: Vec<ZsJob> = Vec::new();
    for (bit, s, d) in pairs {
        let (Some(s), Some(d)) = (s, d) else { continue };
        if mask & bit == 0 {
            continue;
        }
        if s.format() != d.format() {
            return Err(GlError::InvalidOperation(
                "source and destination depth/stencil formats differ",
            ));
        }
        let m = if bit == gl::DEPTH_BUFFER_BIT {
            depth_bits(s.format())
        } else {
            STENCIL_BITS
        };
        match bits
            .iter_mut()
            .find(|(bs, bd, _)| Arc::ptr_eq(bs, s) && Arc::ptr_eq(bd, d))
        {
            Some(job) => job.2 |= m,
            None => bits.push((s.clone(), d.clone(), m)),
        }
    }
    Ok(bits)
}

/// Rows of one job of the parallel resolve (`resolve_rows`): small enough to spread a
/// 1080p resolve over 16 workers, large enough that a job is not dominated by its setup.
const RESOLVE_BAND: usize = 16;

impl Plan {
    fn run(&self, flushed: &Flushed, raster: &Rasterizer) {
        if let Some((src, dsts)) = &self.color {
            if self.resolve.is_empty() {
                copy_color(self, src, dsts, true, flushed);
            } else if !self.resolve_rows(src, dsts, flushed, raster) {
                let mut samples = vec![src.clone()];
                samples.extend(self.resolve.iter().cloned());
                if let Some(sb) = resolve_box(&samples, &self.xs, &self.ys) {
                    copy_box(self, &sb, dsts, true, flushed);
                }
            }
        }
        for (src, dst, m) in &self.bits {
            copy_bits(self, src, dst, *m, flushed);
        }
        for (color, bits) in &self.more {
            if let Some((src, dsts)) = color {
                copy_color(self, src, dsts, true, flushed);
            }
            for (src, dst, m) in bits {
                copy_bits(self, src, dst, *m, flushed);
            }
        }
    }
}

impl Plan {
    /// The resolve of an 8-bit unorm colour buffer into destinations of its own format,
    /// 1:1 along x (a multisample blit's rectangles have one size; flips along y allowed):
    /// each destination row is the integer mean `(sum + n/2) / n` of the samples' source
    /// row, exactly `resolve_box`'s, computed on the raster workers in bands of rows and
    /// written straight into the destination, without copying the source boxes first.
    /// Returns false (nothing done) for any other resolve, which `resolve_box` handles.
    fn resolve_rows(
        &self,
        src: &Arc<Image>,
        dsts: &[Arc<Image>],
        flushed: &Flushed,
        raster: &Rasterizer,
    ) -> bool {
        let f = src.format();
        let n = self.resolve.len() + 1;
        let unorm8 = matches!(
            f,
            Format::Rgba8 | Format::Srgb8Alpha8 | Format::R8 | Format::Rg8
        );
        let (Some(a), Some(b)) = (
            self.xs.iter().position(Option::is_some),
            self.xs.iter().rposition(Option::is_some),
        ) else {
            return true;
        };
        let same_size = self
            .resolve
            .iter()
            .all(|s| s.format() == f && s.width() == src.width() && s.height() == src.height());
        if !unorm8
            || !n.is_power_of_two()
            || !self.unit_x
            || !same_size
            || dsts.iter().any(|d| d.format() != f)
            || self.ys.iter().flatten().any(|t| t.frac != 0.0)
            || self.xs.iter().flatten().any(|t| t.frac != 0.0)
        {
            return false;
        }
        let Some(sx) = self.xs[a].map(|t| t.i0) else {
            return false;
        };
        let bpt = f.bytes_per_texel();
        let run = (b - a + 1) * bpt;
        let shift = n.trailing_zeros();
        let samples: Vec<&Arc<Image>> = std::iter::once(src).chain(&self.resolve).collect();
        let rows: Vec<(usize, u32)> = self
            .ys
            .iter()
            .enumerate()
            .filter_map(|(j, t)| t.map(|t| (self.y_lo as usize + j, t.i0)))
            .collect();
        let band = |k: usize| {
            let mut sum = vec![0u16; run];
            let mut row = vec![0u8; run];
            for &(y, sy) in rows.iter().skip(k * RESOLVE_BAND).take(RESOLVE_BAND) {
                let s_off = (sy as usize * src.width() as usize + sx as usize) * bpt;
                sum.fill(n as u16 / 2);
                for s in &samples {
                    s.read_bytes(s_off, &mut row);
                    for (acc, &v) in sum.iter_mut().zip(&row) {
                        *acc += u16::from(v);
                    }
                }
                for (out, &acc) in row.iter_mut().zip(&sum) {
                    *out = (acc >> shift) as u8;
                }
                for d in dsts {
                    let d_off = (y * d.width() as usize + self.x_lo as usize + a) * bpt;
                    // Each band writes its own rows of the destinations, which are never
                    // one of the samples read (a resolve's destination is single-sample).
                    d.write_bytes_flushed(flushed, d_off, &row);
                }
            }
        };
        raster.run_parallel(rows.len().div_ceil(RESOLVE_BAND), &band);
        true
    }
}

/// Writes the colour of every mapped destination pixel into each destination image.
/// `allow_fast` enables the byte-run copy for same-format 1:1 rows (off in the test that
/// checks it against the general path).
fn copy_color(p: &Plan, src: &Image, dsts: &[Arc<Image>], allow_fast: bool, flushed: &Flushed) {
    if let Some(sb) = SourceBox::read(src, &p.xs, &p.ys) {
        copy_box(p, &sb, dsts, allow_fast, flushed);
    }
}

/// The resolved source texels of a multisample colour buffer (`samples`: one image per
/// sample, all of one format and size), in the source format, deterministically: unorm
/// bytes average as integers, `(sum + n/2) / n`; float texels are decoded, summed in sample
/// order and scaled by 1/n (exact: n is a power of two), then stored back in the source
/// format; integer texels take sample 0 (GL 4.5 core §18.3.1: one sample's value).
fn resolve_box(
    samples: &[Arc<Image>],
    xs: &[Option<Tap>],
    ys: &[Option<Tap>],
) -> Option<SourceBox> {
    let mut boxes = samples.iter().map(|img| SourceBox::read(img, xs, ys));
    let mut out = boxes.next()??;
    let rest: Vec<SourceBox> = boxes.collect::<Option<_>>()?;
    let n = samples.len() as u32;
    match out.format {
        Format::Int(_) | Format::Rgb10A2ui => {}
        Format::Rgba8 | Format::Srgb8Alpha8 | Format::R8 | Format::Rg8 => {
            for (i, b) in out.bytes.iter_mut().enumerate() {
                let sum = u32::from(*b) + rest.iter().map(|r| u32::from(r.bytes[i])).sum::<u32>();
                *b = ((sum + n / 2) / n) as u8;
            }
        }
        f => {
            let bpt = f.bytes_per_texel();
            let scale = 1.0 / n as f32;
            for t in (0..out.bytes.len()).step_by(bpt) {
                let mut acc = decode_color(f, &out.bytes[t..t + bpt]);
                for r in &rest {
                    let c = decode_color(f, &r.bytes[t..t + bpt]);
                    acc = [0, 1, 2, 3].map(|k| acc[k] + c[k]);
                }
                encode_color(f, acc.map(|v| v * scale), &mut out.bytes[t..t + bpt]);
            }
        }
    }
    Some(out)
}

/// Writes the colour of every mapped destination pixel, read from `sb`, into each
/// destination image.
fn copy_box(p: &Plan, sb: &SourceBox, dsts: &[Arc<Image>], allow_fast: bool, flushed: &Flushed) {
    // With `unit_x` the valid taps are one contiguous run (the source image clips a shifted
    // range to an interval).
    let first = p.xs.iter().position(Option::is_some);
    let last = p.xs.iter().rposition(Option::is_some);
    let mut rgba: Vec<Option<[f32; 4]>> = Vec::with_capacity(p.xs.len());
    for (j, ty) in p.ys.iter().enumerate() {
        let Some(ty) = *ty else { continue };
        let y = p.y_lo as usize + j;
        rgba.clear();
        for dst in dsts {
            let bpt = dst.format().bytes_per_texel();
            let off = (y * dst.width() as usize + p.x_lo as usize) * bpt;
            let mut row = vec![0u8; p.xs.len() * bpt];
            dst.read_bytes(off, &mut row);
            let fast = allow_fast
                && p.unit_x
                && ty.frac == 0.0
                && dst.format() == sb.format
                && !(p.srgb && sb.format == Format::Srgb8Alpha8);
            match (first, last) {
                (Some(a), Some(b)) if fast => {
                    // Same format, 1:1 along x, no filtering along y: the stored bytes are
                    // what decode + encode would give (tested against the general path).
                    let Some(tx) = p.xs[a] else { continue };
                    let start = sb.index(tx.i0, ty.i0);
                    let n = (b - a + 1) * bpt;
                    row[a * bpt..a * bpt + n].copy_from_slice(&sb.bytes[start..start + n]);
                }
                _ if sb.format.is_integer() && dst.format().is_integer() => {
                    // Integer to integer of the same signedness (checked when planning),
                    // NEAREST: the integers themselves, clamped to the destination's range
                    // (f32 would round 32-bit values).
                    // RGB10_A2UI reads and writes as the unsigned 32-bit integers its
                    // fields hold.
                    let unpack = |f: Format, b: &[u8]| match f {
                        Format::Int(f) => decode_int(f, b),
                        _ => crate::sampler::format::decode_rgb10a2ui(b),
                    };
                    for (i, tx) in p.xs.iter().enumerate() {
                        if let Some(tx) = tx {
                            let v = unpack(sb.format, sb.texel(tx.i0, ty.i0));
                            let out = &mut row[i * bpt..(i + 1) * bpt];
                            match dst.format() {
                                Format::Int(df) => encode_int(df, v, out),
                                _ => out[..4].copy_from_slice(
                                    &crate::sampler::format::pack_rgb10a2ui(v).to_le_bytes(),
                                ),
                            }
                        }
                    }
                }
                _ => {
                    if rgba.is_empty() {
                        rgba.extend(p.xs.iter().map(|tx| tx.map(|tx| sb.sample(tx, ty, p.srgb))));
                    }
                    for (i, c) in rgba.iter().enumerate() {
                        if let Some(c) = c {
                            let out = &mut row[i * bpt..(i + 1) * bpt];
                            if p.srgb {
                                encode_color_linear(dst.format(), *c, out);
                            } else {
                                encode_color(dst.format(), *c, out);
                            }
                        }
                    }
                }
            }
            dst.write_bytes_flushed(flushed, off, &row);
        }
    }
}

/// Copies the bits `m` of each mapped depth/stencil texel from `src` to `dst` (both 32-bit
/// formats of the same kind, checked when planning), keeping the destination's other bits.
fn copy_bits(p: &Plan, src: &Image, dst: &Image, m: u32, flushed: &Flushed) {
    let Some(sb) = SourceBox::read(src, &p.xs, &p.ys) else {
        return;
    };
    let word = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    for (j, ty) in p.ys.iter().enumerate() {
        let Some(ty) = *ty else { continue };
        let off = ((p.y_lo as usize + j) * dst.width() as usize + p.x_lo as usize) * 4;
        let mut row = vec![0u8; p.xs.len() * 4];
        dst.read_bytes(off, &mut row);
        for (i, tx) in p.xs.iter().enumerate() {
            let Some(tx) = tx else { continue };
            let out = &mut row[i * 4..i * 4 + 4];
            let v = (word(out) & !m) | (word(sb.texel(tx.i0, ty.i0)) & m);
            out.copy_from_slice(&v.to_le_bytes());
        }
        dst.write_bytes_flushed(flushed, off, &row);
    }
}

/// The colour format conversions a blit cannot make (GL 4.5 core §18.3.1, INVALID_OPERATION):
/// a fixed- or floating-point read buffer into an integer draw buffer, an integer one into
/// anything but integers of its signedness, and LINEAR filtering of integers.
fn check_color_formats(src: Format, dsts: &[Arc<Image>], linear: bool) -> GlResult<()> {
    let kind = |f: Format| match f {
        Format::Int(i) => Some(i.signed),
        Format::Rgb10A2ui => Some(false),
        _ => None,
    };
    if linear && src.is_integer() {
        return Err(GlError::InvalidOperation(
            "LINEAR blit of an integer colour buffer",
        ));
    }
    if dsts.iter().any(|d| kind(d.format()) != kind(src)) {
        return Err(GlError::InvalidOperation(
            "blit between integer and non-integer colour buffers, or signed and unsigned ones",
        ));
    }
    Ok(())
}

impl Context {
    /// Validates a blit and finds its images (under the share-group lock). `Ok(None)`: a
    /// valid blit with nothing to copy.
    fn plan_blit(
        &self,
        [read_fb, draw_fb]: [Option<FramebufferName>; 2],
        src: [i32; 4],
        dst: [i32; 4],
        mask: u32,
        filter: u32,
    ) -> GlResult<Option<Plan>> {
        let ds = gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT;
        if mask & !(gl::COLOR_BUFFER_BIT | ds) != 0 {
            return Err(GlError::InvalidValue(
                "BlitFramebuffer mask has unknown bits",
            ));
        }
        if !matches!(filter, gl::NEAREST | gl::LINEAR) {
            return Err(GlError::BadEnum("BlitFramebuffer filter", filter));
        }
        let linear = filter == gl::LINEAR;
        if linear && mask & ds != 0 {
            return Err(GlError::InvalidOperation(
                "LINEAR blits of depth or stencil are not allowed",
            ));
        }
        let read = self
            .framebuffer_buffers(read_fb, true)
            .map_err(|status| incomplete(status, true))?;
        let draw = self
            .framebuffer_buffers(draw_fb, false)
            .map_err(|status| incomplete(status, false))?;
        let draw_colors: Vec<Arc<Image>> = draw.colors.iter().flatten().cloned().collect();
        if let (Some(Some(s)), true) = (read.colors.first(), mask & gl::COLOR_BUFFER_BIT != 0) {
            check_color_formats(s.format(), &draw_colors, linear)?;
        }
        // §18.3.1 with multisample buffers, as Mesa checks it: equal sample counts when both
        // sides are multisample, and rectangles of one size (flips allowed); the filter is
        // then ignored.
        if read.samples > 0 && draw.samples > 0 && read.samples != draw.samples {
            return Err(GlError::InvalidOperation(
                "read and draw framebuffers have different sample counts",
            ));
        }
        let ms = read.samples > 0 || draw.samples > 0;
        let extent = |a: i32, b: i32| (b as i64 - a as i64).abs();
        if ms
            && (extent(src[0], src[2]) != extent(dst[0], dst[2])
                || extent(src[1], src[3]) != extent(dst[1], dst[3]))
        {
            return Err(GlError::InvalidOperation(
                "a multisample blit's source and destination rectangles differ in size",
            ));
        }
        let linear = linear && !ms;

        // A buffer missing from either side drops its bit silently (§18.3.1). Depth and
        // stencil formats that differ are INVALID_OPERATION.
        let bits = zs_jobs(
            mask,
            [
                (gl::DEPTH_BUFFER_BIT, &read.depth, &draw.depth),
                (gl::STENCIL_BUFFER_BIT, &read.stencil, &draw.stencil),
            ],
        )?;
        let color = match (read.colors.first(), mask & gl::COLOR_BUFFER_BIT != 0) {
            (Some(Some(s)), true) if !draw_colors.is_empty() => Some((s.clone(), draw_colors)),
            _ => None,
        };
        // A resolve averages the read buffer's samples; depth and stencil take sample 0
        // (as Mesa does; §18.3.1 lets any value between the samples' be written).
        let resolve: Vec<Arc<Image>> = if read.samples > 0 && draw.samples == 0 {
            read.planes
                .iter()
                .filter_map(|p| p.colors.first().cloned().flatten())
                .collect()
        } else {
            Vec::new()
        };
        // Into a multisample destination each sample is a copy of its own.
        let mut more = Vec::new();
        for (i, dp) in draw.planes.iter().enumerate() {
            let sp = read.planes.get(i);
            let pick = |plane: Option<&Option<Arc<Image>>>, base: &Option<Arc<Image>>| {
                if read.samples > 0 {
                    plane.cloned().flatten()
                } else {
                    base.clone()
                }
            };
            let s_color = pick(
                sp.and_then(|p| p.colors.first()),
                &read.colors.first().cloned().flatten(),
            );
            let d_colors: Vec<Arc<Image>> = dp.colors.iter().flatten().cloned().collect();
            let c = match (s_color, color.is_some()) {
                (Some(s), true) if !d_colors.is_empty() => Some((s, d_colors)),
                _ => None,
            };
            let s_depth = pick(sp.map(|p| &p.depth), &read.depth);
            let s_stencil = pick(sp.map(|p| &p.stencil), &read.stencil);
            let b = zs_jobs(
                mask,
                [
                    (gl::DEPTH_BUFFER_BIT, &s_depth, &dp.depth),
                    (gl::STENCIL_BUFFER_BIT, &s_stencil, &dp.stencil),
                ],
            )?;
            more.push((c, b));
        }

        // The regions are limited to the intersection of the buffers transferred, on each
        // side; the mapping ignores those limits (§18.3.1).
        let srcs: Vec<&Arc<Image>> = color
            .iter()
            .map(|c| &c.0)
            .chain(bits.iter().map(|b| &b.0))
            .collect();
        let dsts: Vec<&Arc<Image>> = color
            .iter()
            .flat_map(|c| c.1.iter())
            .chain(bits.iter().map(|b| &b.1))
            .collect();
        let size = |imgs: &[&Arc<Image>]| {
            imgs.iter()
                .map(|i| (i.width(), i.height()))
                .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1)))
        };
        let (Some((sw, sh)), Some((dw, dh))) = (size(&srcs), size(&dsts)) else {
            return Ok(None);
        };
        let [sx0, sy0, sx1, sy1] = src;
        let [dx0, dy0, dx1, dy1] = dst;
        if sx0 == sx1 || sy0 == sy1 || dx0 == dx1 || dy0 == dy1 {
            return Ok(None);
        }
        // Pixel ownership: the destination images; then the scissor test, the only
        // per-fragment operation a blit passes through (§18.3.1).
        let (mut x_lo, mut x_hi) = (dx0.min(dx1) as i64, dx0.max(dx1) as i64);
        let (mut y_lo, mut y_hi) = (dy0.min(dy1) as i64, dy0.max(dy1) as i64);
        x_lo = x_lo.max(0);
        y_lo = y_lo.max(0);
        x_hi = x_hi.min(dw as i64);
        y_hi = y_hi.min(dh as i64);
        if self.fixed.scissor_test {
            let [x, y, w, h] = self.fixed.scissor_box.map(|v| v as i64);
            x_lo = x_lo.max(x);
            y_lo = y_lo.max(y);
            x_hi = x_hi.min(x + w);
            y_hi = y_hi.min(y + h);
        }
        if x_lo >= x_hi || y_lo >= y_hi {
            return Ok(None);
        }
        Ok(Some(Plan {
            x_lo: x_lo as u32,
            y_lo: y_lo as u32,
            xs: map_axis(x_lo, x_hi, (sx0, sx1), (dx0, dx1), sw, linear),
            ys: map_axis(y_lo, y_hi, (sy0, sy1), (dy0, dy1), sh, linear),
            unit_x: sx1 as i64 - sx0 as i64 == dx1 as i64 - dx0 as i64,
            srgb: self.fixed.framebuffer_srgb,
            color,
            bits,
            resolve,
            more,
        }))
    }

    /// glBlitFramebuffer (GL 4.5 core §18.3.1): copies the rectangle (src_x0, src_y0) –
    /// (src_x1, src_y1) of the read framebuffer to (dst_x0, dst_y0) – (dst_x1, dst_y1) of
    /// the draw framebuffer, for the buffers in `mask`. Colour converts between formats
    /// (NEAREST or LINEAR); depth and stencil copy bits (NEAREST, formats must match). Only
    /// the scissor test applies; queued rendering is flushed first.
    #[allow(clippy::too_many_arguments)]
    pub fn blit_framebuffer(
        &mut self,
        src_x0: i32,
        src_y0: i32,
        src_x1: i32,
        src_y1: i32,
        dst_x0: i32,
        dst_y0: i32,
        dst_x1: i32,
        dst_y1: i32,
        mask: u32,
        filter: u32,
    ) {
        // As in read_pixels: images are found under the share-group lock; the flush and the
        // copy happen after it is released.
        self.dispatch(
            "glBlitFramebuffer",
            Group::ByBody,
            || (),
            |this| {
                let plan = this.with_group(|this| {
                    this.plan_blit(
                        [this.read_framebuffer, this.draw_framebuffer],
                        [src_x0, src_y0, src_x1, src_y1],
                        [dst_x0, dst_y0, dst_x1, dst_y1],
                        mask,
                        filter,
                    )
                })?;
                if let Some(p) = plan {
                    let flushed = this.flush_raster();
                    p.run(&flushed, &this.raster);
                }
                Ok(())
            },
        )
    }
}

impl Context {
    /// glBlitNamedFramebuffer (GL 4.5 core §18.3.1, DSA): glBlitFramebuffer from
    /// `read_framebuffer` to `draw_framebuffer` (0: the default framebuffer), whatever is
    /// bound.
    #[allow(clippy::too_many_arguments)]
    pub fn blit_named_framebuffer(
        &mut self,
        read_framebuffer: u32,
        draw_framebuffer: u32,
        src: [i32; 4],
        dst: [i32; 4],
        mask: u32,
        filter: u32,
    ) {
        self.dispatch(
            "glBlitNamedFramebuffer",
            Group::ByBody,
            || (),
            |this| {
                let plan = this.with_group(|this| {
                    let read = this.dsa_framebuffer_or_default(read_framebuffer)?;
                    let draw = this.dsa_framebuffer_or_default(draw_framebuffer)?;
                    this.plan_blit([read, draw], src, dst, mask, filter)
                })?;
                if let Some(p) = plan {
                    let flushed = this.flush_raster();
                    p.run(&flushed, &this.raster);
                }
                Ok(())
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sampler::encode_color;

    /// A real flush token: these tests write images no rasterizer has queued work for.
    fn flushed() -> Flushed {
        crate::raster::Rasterizer::new(1).flush()
    }

    fn nearest(lo: i64, hi: i64, s: (i32, i32), d: (i32, i32), size: u32) -> Vec<Option<u32>> {
        map_axis(lo, hi, s, d, size, false)
            .into_iter()
            .map(|t| t.map(|t| t.i0))
            .collect()
    }

    #[test]
    fn mapping_copies_flips_and_scales() {
        let s = |v: &[u32]| v.iter().map(|&i| Some(i)).collect::<Vec<_>>();
        // 1:1 with an offset.
        assert_eq!(nearest(2, 6, (0, 4), (2, 6), 8), s(&[0, 1, 2, 3]));
        // Flipped by the source or by the destination; flipped twice is a plain copy.
        assert_eq!(nearest(0, 4, (4, 0), (0, 4), 8), s(&[3, 2, 1, 0]));
        assert_eq!(nearest(0, 4, (0, 4), (4, 0), 8), s(&[3, 2, 1, 0]));
        assert_eq!(nearest(0, 4, (4, 0), (4, 0), 8), s(&[0, 1, 2, 3]));
        // 2× magnify: each source texel twice; 2× minify: every other texel (centres 1, 3).
        assert_eq!(nearest(0, 6, (1, 4), (0, 6), 8), s(&[1, 1, 2, 2, 3, 3]));
        assert_eq!(nearest(0, 3, (0, 6), (0, 3), 8), s(&[1, 3, 5]));
        // Odd sizes: 3 → 5 maps centres to 0.3, 0.9, 1.5, 2.1, 2.7; 5 → 3 to 5/6, 2.5, 25/6.
        assert_eq!(nearest(0, 5, (0, 3), (0, 5), 8), s(&[0, 0, 1, 2, 2]));
        assert_eq!(nearest(0, 3, (0, 5), (0, 3), 8), s(&[0, 2, 4]));
        // 7 → 3 maps centres to 7/6, 3.5, 35/6: texels 1, 3, 5.
        assert_eq!(nearest(0, 3, (0, 7), (0, 3), 8), s(&[1, 3, 5]));
        // Extreme coordinates stay exact: a 1:1 blit spanning all of i32 maps pixel i to
        // texel i, and LINEAR sees texel centres exactly (frac 0, no filtering).
        let full = (i32::MIN, i32::MAX);
        assert_eq!(nearest(0, 2, full, full, 8), s(&[0, 1]));
        for t in map_axis(0, 8, full, full, 8, true).into_iter().flatten() {
            assert_eq!(t.frac, 0.0);
        }
        // Texels outside the source image are not mapped (left unwritten).
        assert_eq!(
            nearest(0, 4, (-1, 3), (0, 4), 2),
            vec![None, Some(0), Some(1), None]
        );
    }

    #[test]
    fn linear_taps_weights_and_clamping() {
        // 4 → 2 minify: centres at 1.0 and 3.0 are halfway between texels 0|1 and 2|3.
        let t = map_axis(0, 2, (0, 4), (0, 2), 4, true);
        assert_eq!(
            t,
            vec![
                Some(Tap {
                    i0: 0,
                    i1: 1,
                    frac: 0.5
                }),
                Some(Tap {
                    i0: 2,
                    i1: 3,
                    frac: 0.5
                }),
            ]
        );
        // 2 → 4 magnify: positions 0.25, 0.75, 1.25, 1.75; the ends clamp to the edge.
        let t = map_axis(0, 4, (0, 2), (0, 4), 2, true);
        let got: Vec<_> = t.iter().map(|t| t.map(|t| (t.i0, t.i1, t.frac))).collect();
        assert_eq!(
            got,
            vec![
                Some((0, 0, 0.75)),
                Some((0, 1, 0.25)),
                Some((0, 1, 0.75)),
                Some((1, 1, 0.25)),
            ]
        );
        // Equal sizes: no filtering, flipped or not.
        for (s, d) in [((0, 3), (0, 3)), ((3, 0), (0, 3))] {
            for t in map_axis(0, 3, s, d, 3, true).into_iter().flatten() {
                assert_eq!(t.frac, 0.0);
            }
        }
        assert_eq!(
            lerp([0.0, 1.0, 2.0, 3.0], [4.0; 4], 0.25),
            [1.0, 1.75, 2.5, 3.25]
        );
        assert_eq!(lerp([1.0; 4], [f32::INFINITY; 4], 0.0), [1.0; 4]);
    }

    fn image(w: u32, h: u32, f: Format, px: impl Fn(u32, u32) -> [f32; 4]) -> Arc<Image> {
        let mut img = Image::new(w, h, f);
        let bpt = f.bytes_per_texel();
        for y in 0..h {
            for x in 0..w {
                let mut b = vec![0u8; bpt];
                encode_color(f, px(x, y), &mut b);
                img.write_bytes(((y * w + x) as usize) * bpt, &b);
            }
        }
        Arc::new(img)
    }

    fn plan(src: [i32; 4], dst: [i32; 4], sw: u32, sh: u32, dw: u32, dh: u32) -> Plan {
        let (x_lo, x_hi) = (dst[0].min(dst[2]).max(0), dst[0].max(dst[2]).min(dw as i32));
        let (y_lo, y_hi) = (dst[1].min(dst[3]).max(0), dst[1].max(dst[3]).min(dh as i32));
        Plan {
            x_lo: x_lo as u32,
            y_lo: y_lo as u32,
            xs: map_axis(
                x_lo as i64,
                x_hi as i64,
                (src[0], src[2]),
                (dst[0], dst[2]),
                sw,
                false,
            ),
            ys: map_axis(
                y_lo as i64,
                y_hi as i64,
                (src[1], src[3]),
                (dst[1], dst[3]),
                sh,
                false,
            ),
            unit_x: src[2] - src[0] == dst[2] - dst[0],
            srgb: false,
            color: None,
            bits: vec![],
            resolve: vec![],
            more: vec![],
        }
    }

    /// The parallel row resolve (`Plan::resolve_rows`) writes exactly what `resolve_box` +
    /// `copy_box` write, for 2, 4 and 8 samples of every 8-bit format, with offsets, a
    /// source partly outside the image and a y flip, on 1 and 3 workers; and it declines
    /// what it does not handle (floats, x flips).
    #[test]
    fn parallel_resolve_equals_the_reference_resolve() {
        for f in [Format::Rgba8, Format::Srgb8Alpha8, Format::Rg8, Format::R8] {
            for n in [2u32, 4, 8] {
                let samples: Vec<Arc<Image>> = (0..n)
                    .map(|s| {
                        image(70, 45, f, move |x, y| {
                            let h = (x * 37 + y * 101 + s * 59) % 256;
                            [h as f32 / 255.0, ((h * 7) % 256) as f32 / 255.0, 0.5, 1.0]
                        })
                    })
                    .collect();
                for (s, d) in [
                    ([-3, 2, 60, 44], [0, 0, 63, 42]),
                    ([0, 45, 70, 0], [1, 0, 71, 45]),
                ] {
                    for threads in [1, 3] {
                        let mut p = plan(s, d, 70, 45, 72, 47);
                        p.resolve = samples[1..].to_vec();
                        let fast = [image(72, 47, f, |_, _| [0.25; 4])];
                        let slow = [image(72, 47, f, |_, _| [0.25; 4])];
                        let raster = crate::raster::Rasterizer::new(threads);
                        assert!(p.resolve_rows(&samples[0], &fast, &flushed(), &raster));
                        let sb = resolve_box(&samples, &p.xs, &p.ys).unwrap();
                        copy_box(&p, &sb, &slow, false, &flushed());
                        assert!(
                            fast[0].to_bytes() == slow[0].to_bytes(),
                            "{f:?}, {n} samples, {s:?} -> {d:?}, {threads} threads"
                        );
                    }
                }
            }
        }
        let raster = crate::raster::Rasterizer::new(1);
        let floats: Vec<Arc<Image>> = (0..4)
            .map(|_| image(8, 8, Format::Rgba16F, |_, _| [0.5; 4]))
            .collect();
        let mut p = plan([0, 0, 8, 8], [0, 0, 8, 8], 8, 8, 8, 8);
        p.resolve = floats[1..].to_vec();
        let dst = [image(8, 8, Format::Rgba16F, |_, _| [0.0; 4])];
        assert!(!p.resolve_rows(&floats[0], &dst, &flushed(), &raster));
        let bytes: Vec<Arc<Image>> = (0..4)
            .map(|_| image(8, 8, Format::Rgba8, |_, _| [0.5; 4]))
            .collect();
        let mut p = plan([8, 0, 0, 8], [0, 0, 8, 8], 8, 8, 8, 8);
        p.resolve = bytes[1..].to_vec();
        let dst = [image(8, 8, Format::Rgba8, |_, _| [0.0; 4])];
        assert!(!p.resolve_rows(&bytes[0], &dst, &flushed(), &raster));
    }

    #[test]
    fn byte_copy_fast_path_equals_general_path() {
        let px = |x: u32, y: u32| {
            [
                x as f32 / 7.0,
                y as f32 / 5.0,
                (x * y) as f32 / 35.0,
                0.5 + x as f32 * 0.01,
            ]
        };
        for f in [
            Format::Rgba8,
            Format::Rg8,
            Format::Rgba16F,
            Format::Rgba32F,
            Format::R32F,
        ] {
            let src = image(7, 5, f, px);
            // 1:1 with offsets and partly outside the source, and a y-flipped 1:1 copy.
            for (s, d) in [([-2, 1, 5, 5], [0, 0, 7, 4]), ([0, 5, 7, 0], [1, 0, 8, 5])] {
                let p = plan(s, d, 7, 5, 9, 6);
                assert!(p.unit_x);
                let fast = [image(9, 6, f, |_, _| [0.25; 4])];
                let slow = [image(9, 6, f, |_, _| [0.25; 4])];
                copy_color(&p, &src, &fast, true, &flushed());
                copy_color(&p, &src, &slow, false, &flushed());
                assert_eq!(fast[0].to_bytes(), slow[0].to_bytes(), "{f:?} {s:?}");
                assert_ne!(
                    fast[0].to_bytes(),
                    image(9, 6, f, |_, _| [0.25; 4]).to_bytes()
                );
            }
        }
    }

    #[test]
    fn every_colour_format_converts_to_every_other() {
        use crate::sampler::format::tests_all;
        let colour: Vec<Format> = tests_all().into_iter().filter(|f| !f.is_depth()).collect();
        let px = |x: u32, y: u32| [0.1 + x as f32 * 0.3, y as f32 * 0.45, 0.7, 0.2 * x as f32];
        for &sf in &colour {
            let src = image(3, 2, sf, px);
            for &df in &colour {
                // 1:1, shifted by (+1, +1) into a 4×3 destination that starts zeroed.
                let p = plan([0, 0, 3, 2], [1, 1, 4, 3], 3, 2, 4, 3);
                let dst = [Arc::new(Image::new(4, 3, df))];
                copy_color(&p, &src, &dst, true, &flushed());
                let (sb, db) = (sf.bytes_per_texel(), df.bytes_per_texel());
                let (got, src_bytes) = (dst[0].to_bytes(), src.to_bytes());
                for y in 0..3usize {
                    for x in 0..4usize {
                        let mut want = vec![0u8; db];
                        if x >= 1 && y >= 1 {
                            let i = ((y - 1) * 3 + x - 1) * sb;
                            encode_color(df, decode_color(sf, &src_bytes[i..i + sb]), &mut want);
                        }
                        let i = (y * 4 + x) * db;
                        assert_eq!(&got[i..i + db], &want[..], "{sf:?} → {df:?} ({x}, {y})");
                    }
                }
            }
        }
        // sRGB is copied as its stored encoding with GL_FRAMEBUFFER_SRGB off (`plan`).
        let mut src = Image::new(1, 1, Format::Srgb8Alpha8);
        src.write_bytes(0, &[10, 20, 30, 40]);
        let dst = [Arc::new(Image::new(1, 1, Format::Rgba8))];
        copy_color(
            &plan([0, 0, 1, 1], [0, 0, 1, 1], 1, 1, 1, 1),
            &src,
            &dst,
            true,
            &flushed(),
        );
        assert_eq!(dst[0].to_bytes(), vec![10, 20, 30, 40]);
        // With it on, decoded to linear into RGBA8 and back into sRGB unchanged.
        let mut p = plan([0, 0, 1, 1], [0, 0, 1, 1], 1, 1, 1, 1);
        p.srgb = true;
        copy_color(&p, &src, &dst, true, &flushed());
        let lin = |c: u8| float_to_unorm_byte(crate::sampler::srgb8_to_linear(c));
        assert_eq!(dst[0].to_bytes(), vec![lin(10), lin(20), lin(30), 40]);
        let back = [Arc::new(Image::new(1, 1, Format::Srgb8Alpha8))];
        copy_color(&p, &src, &back, true, &flushed());
        assert_eq!(back[0].to_bytes(), vec![10, 20, 30, 40]);
    }

    /// RGBA8's conversion of a float (`sampler::encode_color`).
    fn float_to_unorm_byte(v: f32) -> u8 {
        let mut b = [0u8; 4];
        encode_color(Format::Rgba8, [v; 4], &mut b);
        b[0]
    }

    #[test]
    fn overlapping_blit_reads_the_image_as_it_was() {
        // Shift a 4×1 row right by one inside one image: a texel-by-texel in-place copy
        // would smear texel 0 across the row.
        let img = image(4, 1, Format::R8, |x, _| [x as f32 * 0.25, 0.0, 0.0, 1.0]);
        let p = plan([0, 0, 3, 1], [1, 0, 4, 1], 4, 1, 4, 1);
        copy_color(&p, &img, std::slice::from_ref(&img), true, &flushed());
        assert_eq!(img.to_bytes(), vec![0, 0, 64, 128]);
        let img = image(4, 1, Format::R8, |x, _| [x as f32 * 0.25, 0.0, 0.0, 1.0]);
        copy_color(&p, &img, std::slice::from_ref(&img), false, &flushed());
        assert_eq!(img.to_bytes(), vec![0, 0, 64, 128]);
    }

    #[test]
    fn stencil_and_depth_masks_through_the_context() {
        use crate::api::names::RenderbufferName;
        use crate::sampler::format::unorm24_from_f32;
        let mut c = Context::with_threads(4, 4, 1);
        let rb = c.gen_renderbuffers(2);
        let fb = c.gen_framebuffers(2);
        for (i, (depth, stencil)) in [(0.25, 0x5A), (1.0, 0x11)].into_iter().enumerate() {
            c.bind_renderbuffer(gl::RENDERBUFFER, rb[i]);
            c.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH24_STENCIL8, 2, 2);
            c.bind_framebuffer(gl::FRAMEBUFFER, fb[i]);
            c.framebuffer_renderbuffer(
                gl::FRAMEBUFFER,
                gl::DEPTH_STENCIL_ATTACHMENT,
                gl::RENDERBUFFER,
                rb[i],
            );
            c.clear_depth(depth);
            c.clear_stencil(stencil);
            c.clear(gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT);
        }
        c.bind_framebuffer(gl::READ_FRAMEBUFFER, fb[0]);
        c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, fb[1]);
        let img = c
            .with_group(|this| {
                this.objs
                    .renderbuffers
                    .get(RenderbufferName(rb[1]))
                    .and_then(|r| r.image.clone())
            })
            .expect("storage");
        let words = |img: &Image| -> Vec<u32> {
            img.to_bytes()
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        };
        // Stencil only: the stencil byte arrives, the depth bits stay 1.0.
        c.blit_framebuffer(0, 0, 2, 2, 0, 0, 2, 2, gl::STENCIL_BUFFER_BIT, gl::NEAREST);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(words(&img), vec![0x5A << 24 | 0xFF_FFFF; 4]);
        // Depth only (from a source with another stencil): the depth arrives, stencil stays.
        c.bind_framebuffer(gl::FRAMEBUFFER, fb[0]);
        c.clear_stencil(0x33);
        c.clear(gl::STENCIL_BUFFER_BIT);
        c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, fb[1]);
        c.blit_framebuffer(0, 0, 2, 2, 0, 0, 2, 2, gl::DEPTH_BUFFER_BIT, gl::NEAREST);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(words(&img), vec![0x5A << 24 | unorm24_from_f32(0.25); 4]);
    }

    #[test]
    fn depth_stencil_bits_move_separately() {
        let word = |d: u32, s: u32| (d | s << 24).to_le_bytes();
        let mut src = Image::new(2, 1, Format::Depth24Stencil8);
        src.write_bytes(0, &[word(0x12_3456, 0xAB), word(0x65_4321, 0xCD)].concat());
        let p = plan([0, 0, 2, 1], [0, 0, 2, 1], 2, 1, 2, 1);
        for (m, want) in [
            (0x00FF_FFFF, [word(0x12_3456, 0x77), word(0x65_4321, 0x77)]),
            (STENCIL_BITS, [word(0x11_1111, 0xAB), word(0x11_1111, 0xCD)]),
        ] {
            let mut dst = Image::new(2, 1, Format::Depth24Stencil8);
            dst.write_bytes(0, &[word(0x11_1111, 0x77), word(0x11_1111, 0x77)].concat());
            copy_bits(&p, &src, &dst, m, &flushed());
            assert_eq!(dst.to_bytes(), want.concat(), "mask {m:08x}");
        }
    }
}
