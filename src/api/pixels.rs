//! Pixel transfer on the API thread (GL 4.5 core §8.4, §18.2): unpacking client data into
//! image storage for TexImage/TexSubImage, packing images out for ReadPixels, and the box
//! filter of GenerateMipmap. Conversions go through f32 with GL's unorm rules
//! (`round(clamp(x) * 255)`), so they are exact for 8-bit data.
//!
//! The sampler owns the same conversions for its own use; this file covers what the API
//! needs so that uploads and readback work without it.

use half::f16;

use crate::api::enums as gl;
use crate::api::error::{GlError, GlResult};
use crate::sampler::{Format, Image};

/// The storage format for a TexImage/RenderbufferStorage internal format (sized formats and
/// the unsized base formats, GL 4.5 core tables 8.11–8.13). RGB formats are stored with
/// alpha = 1, which is what sampling them returns.
pub fn internal_format(internal: u32) -> Option<Format> {
    Some(match internal {
        gl::RGBA8 | gl::RGBA | gl::RGB8 | gl::RGB => Format::Rgba8,
        gl::SRGB8_ALPHA8 | gl::SRGB_ALPHA | gl::SRGB8 | gl::SRGB => Format::Srgb8Alpha8,
        gl::R8 | gl::RED => Format::R8,
        gl::RG8 | gl::RG => Format::Rg8,
        gl::RGBA16F => Format::Rgba16F,
        gl::RGBA32F => Format::Rgba32F,
        gl::R32F => Format::R32F,
        gl::DEPTH24_STENCIL8 | gl::DEPTH_STENCIL | gl::DEPTH_COMPONENT24 => Format::Depth24Stencil8,
        gl::DEPTH_COMPONENT32F | gl::DEPTH_COMPONENT => Format::Depth32F,
        _ => return None,
    })
}

/// A zero-filled image, or GL_OUT_OF_MEMORY when its storage cannot be had (probed with a
/// fallible reservation first: `Image::new` itself aborts on allocation failure).
pub fn new_image(w: u32, h: u32, format: Format) -> GlResult<Image> {
    let bytes = (w as usize)
        .checked_mul(h as usize)
        .and_then(|n| n.checked_mul(format.bytes_per_texel()))
        .ok_or(GlError::OutOfMemory("image size overflows"))?;
    let mut probe: Vec<u8> = Vec::new();
    probe
        .try_reserve_exact(bytes)
        .map_err(|_| GlError::OutOfMemory("image storage"))?;
    drop(probe);
    Ok(Image::new(w, h, format))
}

/// Whether `internal` is a sized internal format (TexStorage accepts only those).
pub fn is_sized(internal: u32) -> bool {
    !matches!(
        internal,
        gl::RGBA
            | gl::RGB
            | gl::RG
            | gl::RED
            | gl::SRGB
            | gl::SRGB_ALPHA
            | gl::DEPTH_STENCIL
            | gl::DEPTH_COMPONENT
    ) && internal_format(internal).is_some()
}

/// Components of a client pixel format.
fn components(format: u32) -> GlResult<usize> {
    Ok(match format {
        gl::RGBA => 4,
        gl::RGB => 3,
        gl::RG => 2,
        gl::RED | gl::DEPTH_COMPONENT | gl::DEPTH_STENCIL => 1,
        _ => return Err(GlError::InvalidEnum("unsupported pixel format")),
    })
}

/// Bytes of one component of a client pixel type (the whole pixel for packed types).
fn type_bytes(ty: u32) -> GlResult<usize> {
    Ok(match ty {
        gl::UNSIGNED_BYTE => 1,
        gl::HALF_FLOAT => 2,
        gl::FLOAT | gl::UNSIGNED_INT_24_8 => 4,
        _ => return Err(GlError::InvalidEnum("unsupported pixel type")),
    })
}

/// Checks a format/type pair against the storage format (GL 4.5 core §8.4.4: depth data
/// only into depth formats and back; UNSIGNED_INT_24_8 only with DEPTH_STENCIL).
fn check_pair(storage: Format, format: u32, ty: u32) -> GlResult<usize> {
    let n = components(format)?;
    let size = type_bytes(ty)?;
    let depth_client = matches!(format, gl::DEPTH_COMPONENT | gl::DEPTH_STENCIL);
    if depth_client != storage.is_depth() {
        return Err(GlError::InvalidOperation(
            "pixel format does not match the depth-ness of the internal format",
        ));
    }
    if (ty == gl::UNSIGNED_INT_24_8) != (format == gl::DEPTH_STENCIL) {
        return Err(GlError::InvalidOperation(
            "GL_UNSIGNED_INT_24_8 goes with GL_DEPTH_STENCIL only",
        ));
    }
    Ok(if ty == gl::UNSIGNED_INT_24_8 {
        4
    } else {
        n * size
    })
}

/// Row stride in bytes of `width` pixels of `pixel_bytes`, padded to `alignment`
/// (GL 4.5 core §8.4.4.1).
pub fn row_stride(width: usize, pixel_bytes: usize, alignment: usize) -> usize {
    let row = width * pixel_bytes;
    row.div_ceil(alignment.max(1)) * alignment.max(1)
}

/// Bytes a client image of `w`×`h` takes (the last row unpadded).
pub fn client_size(w: usize, h: usize, format: u32, ty: u32, alignment: usize) -> GlResult<usize> {
    let pixel = components(format)? * type_bytes(ty)?;
    let pixel = if ty == gl::UNSIGNED_INT_24_8 {
        4
    } else {
        pixel
    };
    Ok(if w == 0 || h == 0 {
        0
    } else {
        row_stride(w, pixel, alignment) * (h - 1) + w * pixel
    })
}

/// Reads client component `c` of a pixel as f32 (unorm for bytes).
fn read_component(src: &[u8], ty: u32, c: usize) -> f32 {
    match ty {
        gl::UNSIGNED_BYTE => src.get(c).map_or(0.0, |&b| b as f32 / 255.0),
        gl::HALF_FLOAT => src
            .get(c * 2..c * 2 + 2)
            .map_or(0.0, |b| f16::from_le_bytes([b[0], b[1]]).to_f32()),
        _ => src
            .get(c * 4..c * 4 + 4)
            .map_or(0.0, |b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
    }
}

fn unorm8(x: f32) -> u8 {
    // NaN clamps to 0 (GL 4.5 core §2.3.5.1 leaves it undefined; we choose 0).
    let x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    (x * 255.0).round_ties_even() as u8
}

/// Encodes an RGBA (or depth in `.0`) value into one texel of `format`.
pub fn encode_texel(format: Format, v: [f32; 4], stencil: u8, out: &mut [u8]) {
    match format {
        Format::Rgba8 | Format::Srgb8Alpha8 => {
            for c in 0..4 {
                out[c] = unorm8(v[c]);
            }
        }
        Format::R8 => out[0] = unorm8(v[0]),
        Format::Rg8 => {
            out[0] = unorm8(v[0]);
            out[1] = unorm8(v[1]);
        }
        Format::Rgba16F => {
            for c in 0..4 {
                out[c * 2..c * 2 + 2].copy_from_slice(&f16::from_f32(v[c]).to_le_bytes());
            }
        }
        Format::Rgba32F => {
            for c in 0..4 {
                out[c * 4..c * 4 + 4].copy_from_slice(&v[c].to_le_bytes());
            }
        }
        Format::R32F | Format::Depth32F => out[..4].copy_from_slice(&v[0].to_le_bytes()),
        Format::Depth24Stencil8 => {
            let d = if v[0].is_nan() {
                0.0
            } else {
                v[0].clamp(0.0, 1.0)
            };
            let d = (d as f64 * 16_777_215.0).round() as u32;
            out[..4].copy_from_slice(&(d | (stencil as u32) << 24).to_le_bytes());
        }
    }
}

/// Decodes one texel into RGBA (depth in `.0`; missing colour components are (0, 0, 0, 1),
/// GL 4.5 core table 8.10).
pub fn decode_texel(format: Format, b: &[u8]) -> [f32; 4] {
    let f = |i: usize| f32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    match format {
        Format::Rgba8 | Format::Srgb8Alpha8 => [0, 1, 2, 3].map(|c| b[c] as f32 / 255.0),
        Format::R8 => [b[0] as f32 / 255.0, 0.0, 0.0, 1.0],
        Format::Rg8 => [b[0] as f32 / 255.0, b[1] as f32 / 255.0, 0.0, 1.0],
        Format::Rgba16F => {
            [0, 1, 2, 3].map(|c| f16::from_le_bytes([b[c * 2], b[c * 2 + 1]]).to_f32())
        }
        Format::Rgba32F => [f(0), f(4), f(8), f(12)],
        Format::R32F => [f(0), 0.0, 0.0, 1.0],
        Format::Depth32F => [f(0), 0.0, 0.0, 0.0],
        Format::Depth24Stencil8 => {
            let w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            [
                (w & 0xFF_FFFF) as f32 / 16_777_215.0,
                (w >> 24) as f32,
                0.0,
                0.0,
            ]
        }
    }
}

/// Converts client pixels into `format` storage bytes (tightly packed rows).
pub fn unpack(
    format: Format,
    gl_format: u32,
    ty: u32,
    w: usize,
    h: usize,
    src: &[u8],
    alignment: usize,
) -> GlResult<Vec<u8>> {
    let pixel = check_pair(format, gl_format, ty)?;
    let n = components(gl_format)?;
    if src.len() < client_size(w, h, gl_format, ty, alignment)? {
        return Err(GlError::InvalidValue(
            "pixel data is shorter than the image",
        ));
    }
    let bpt = format.bytes_per_texel();
    let mut out = Vec::new();
    out.try_reserve_exact(w * h * bpt)
        .map_err(|_| GlError::OutOfMemory("texture image"))?;
    out.resize(w * h * bpt, 0);
    let stride = row_stride(w, pixel, alignment);
    let direct = ty == gl::UNSIGNED_BYTE
        && gl_format == gl::RGBA
        && matches!(format, Format::Rgba8 | Format::Srgb8Alpha8);
    for y in 0..h {
        let row = &src[y * stride..];
        if direct {
            out[y * w * 4..(y + 1) * w * 4].copy_from_slice(&row[..w * 4]);
            continue;
        }
        for x in 0..w {
            let p = &row[x * pixel..(x + 1) * pixel];
            let (v, stencil) = if ty == gl::UNSIGNED_INT_24_8 {
                let word = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
                // GL packs depth in the high 24 bits, stencil in the low 8.
                (
                    [(word >> 8) as f32 / 16_777_215.0, 0.0, 0.0, 0.0],
                    word as u8,
                )
            } else {
                let mut v = [0.0, 0.0, 0.0, 1.0];
                for (c, slot) in v.iter_mut().enumerate().take(n) {
                    *slot = read_component(p, ty, c);
                }
                (v, 0)
            };
            let o = (y * w + x) * bpt;
            encode_texel(format, v, stencil, &mut out[o..o + bpt]);
        }
    }
    Ok(out)
}

/// Reads a rectangle of `image` into client memory (GL 4.5 core §18.2): GL_RGBA with
/// GL_UNSIGNED_BYTE or GL_FLOAT, GL_RGB/GL_RED likewise, GL_DEPTH_COMPONENT with GL_FLOAT.
/// Pixels outside the image read as zero. Every row is padded to `alignment`.
#[allow(clippy::too_many_arguments)]
pub fn pack(
    image: &Image,
    x: i32,
    y: i32,
    w: usize,
    h: usize,
    gl_format: u32,
    ty: u32,
    alignment: usize,
) -> GlResult<Vec<u8>> {
    let n = components(gl_format)?;
    if !matches!(ty, gl::UNSIGNED_BYTE | gl::FLOAT) || gl_format == gl::DEPTH_STENCIL {
        return Err(GlError::InvalidEnum("unsupported ReadPixels format/type"));
    }
    if (gl_format == gl::DEPTH_COMPONENT) != image.format().is_depth() {
        return Err(GlError::InvalidOperation(
            "ReadPixels format does not match the read buffer",
        ));
    }
    let pixel = n * type_bytes(ty)?;
    let stride = row_stride(w, pixel, alignment);
    let mut out = Vec::new();
    out.try_reserve_exact(stride * h)
        .map_err(|_| GlError::OutOfMemory("ReadPixels"))?;
    out.resize(stride * h, 0);
    let bytes = image.to_bytes();
    let bpt = image.format().bytes_per_texel();
    let (iw, ih) = (image.width() as i64, image.height() as i64);
    for row in 0..h {
        for col in 0..w {
            let (sx, sy) = (x as i64 + col as i64, y as i64 + row as i64);
            if sx < 0 || sy < 0 || sx >= iw || sy >= ih {
                continue;
            }
            let t = ((sy * iw + sx) as usize) * bpt;
            let v = decode_texel(image.format(), &bytes[t..t + bpt]);
            let o = row * stride + col * pixel;
            for c in 0..n {
                match ty {
                    gl::UNSIGNED_BYTE => out[o + c] = unorm8(v[c]),
                    _ => out[o + c * 4..o + c * 4 + 4].copy_from_slice(&v[c].to_le_bytes()),
                }
            }
        }
    }
    Ok(out)
}

/// The next mip level of `src` (GL 4.5 core §8.14.4): each size halved with floor, at least 1;
/// each texel the mean of the 2×2 (or fewer, at odd edges) texels it covers. sRGB images are
/// averaged in their encoded values (a known deviation: GL recommends linear averaging).
pub fn next_level(src: &Image) -> Image {
    let (sw, sh) = (src.width() as usize, src.height() as usize);
    let (w, h) = ((sw / 2).max(1), (sh / 2).max(1));
    let f = src.format();
    let bpt = f.bytes_per_texel();
    let bytes = src.to_bytes();
    let mut out = vec![0u8; w * h * bpt];
    for y in 0..h {
        for x in 0..w {
            let mut sum = [0.0f32; 4];
            let mut count = 0.0f32;
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let (tx, ty) = (2 * x + dx, 2 * y + dy);
                if tx < sw && ty < sh {
                    let t = (ty * sw + tx) * bpt;
                    let v = decode_texel(f, &bytes[t..t + bpt]);
                    for c in 0..4 {
                        sum[c] += v[c];
                    }
                    count += 1.0;
                }
            }
            let o = (y * w + x) * bpt;
            encode_texel(f, sum.map(|s| s / count), 0, &mut out[o..o + bpt]);
        }
    }
    let img = Image::new(w as u32, h as u32, f);
    img.write_bytes(0, &out);
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unpack_honours_alignment_and_formats() {
        // 3×2 RGB bytes with UNPACK_ALIGNMENT 4: rows of 9 bytes padded to 12.
        let mut src = vec![0u8; 12 + 9];
        src[0..3].copy_from_slice(&[255, 0, 0]);
        src[12..15].copy_from_slice(&[0, 255, 0]);
        let out = unpack(Format::Rgba8, gl::RGB, gl::UNSIGNED_BYTE, 3, 2, &src, 4).unwrap();
        assert_eq!(&out[0..4], &[255, 0, 0, 255]);
        assert_eq!(&out[12..16], &[0, 255, 0, 255]);
        assert!(unpack(
            Format::Rgba8,
            gl::RGB,
            gl::UNSIGNED_BYTE,
            3,
            2,
            &src[..20],
            4
        )
        .is_err());
        let f = unpack(
            Format::Rgba8,
            gl::RED,
            gl::FLOAT,
            1,
            1,
            &0.5f32.to_le_bytes(),
            4,
        )
        .unwrap();
        assert_eq!(f, vec![128, 0, 0, 255]);
        assert_eq!(
            unpack(
                Format::Rgba8,
                gl::DEPTH_COMPONENT,
                gl::FLOAT,
                1,
                1,
                &[0; 4],
                4
            ),
            Err(GlError::InvalidOperation(
                "pixel format does not match the depth-ness of the internal format"
            ))
        );
    }

    #[test]
    fn pack_pads_rows_and_converts() {
        let img = Image::new(2, 2, Format::Rgba8);
        img.write_bytes(0, &[10, 20, 30, 40, 50, 60, 70, 80, 1, 2, 3, 4, 5, 6, 7, 8]);
        let rgb = pack(&img, 0, 0, 2, 2, gl::RGB, gl::UNSIGNED_BYTE, 4).unwrap();
        assert_eq!(rgb.len(), 16);
        assert_eq!(&rgb[0..6], &[10, 20, 30, 50, 60, 70]);
        assert_eq!(&rgb[8..14], &[1, 2, 3, 5, 6, 7]);
        let f = pack(&img, 1, 1, 1, 1, gl::RGBA, gl::FLOAT, 4).unwrap();
        assert_eq!(f32::from_le_bytes([f[0], f[1], f[2], f[3]]), 5.0 / 255.0);
        // Outside the image: zeros.
        assert_eq!(
            pack(&img, 5, 5, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, 1).unwrap(),
            vec![0; 4]
        );
    }

    #[test]
    fn next_level_box_filters_with_floor_sizes() {
        let img = Image::new(3, 1, Format::R8);
        img.write_bytes(0, &[0, 255, 100]);
        let l1 = next_level(&img);
        assert_eq!((l1.width(), l1.height()), (1, 1));
        assert_eq!(l1.to_bytes(), vec![128]);
    }
}
