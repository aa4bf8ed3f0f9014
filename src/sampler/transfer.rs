//! Pixel transfers between client memory and `Image` storage (GL 4.5 core §8.4–8.5 unpack,
//! §18.2 pack): GL format/type pairs, row alignment, component fill, and the internal
//! format a `glTexImage*` / `glTexStorage*` internalformat names. Per-texel encoding is
//! `format.rs`'s; this file only walks rows and pairs GL enums with it.

use super::format::{
    decode_color, decode_depth, decode_stencil, encode_color, encode_depth, encode_stencil,
    unorm24_from_f32, unorm24_to_f32, unorm8_from_f32, unorm8_to_f32,
};
use super::image::{Format, Image};
use crate::gl::enums as gl;

/// Why a pixel transfer was refused. Each maps to the GL error the API reports.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PixelTransferError {
    /// The format/type pair is not one we transfer (GL_INVALID_ENUM).
    #[error("unsupported pixel format/type 0x{format:04X}/0x{ty:04X}")]
    Unsupported { format: u32, ty: u32 },
    /// A colour format for a depth image or the reverse, or a type that does not go with
    /// the format (GL_INVALID_OPERATION, GL 4.5 core §8.4.4.2).
    #[error("pixel format 0x{format:04X} does not match the internal format {internal:?}")]
    Mismatch { format: u32, internal: Format },
    /// Alignment other than 1, 2, 4 or 8 (GL_INVALID_VALUE).
    #[error("pixel alignment {0} is not 1, 2, 4 or 8")]
    BadAlignment(u32),
    /// The client buffer holds fewer bytes than the transfer needs (GL_INVALID_OPERATION).
    #[error("pixel data has {got} bytes, the transfer needs {needed}")]
    TooShort { needed: usize, got: usize },
    /// The transfer is larger than memory can address (GL_OUT_OF_MEMORY).
    #[error("pixel transfer too large")]
    TooLarge,
}

impl PixelTransferError {
    /// The GL error code for this failure.
    pub fn gl_error(&self) -> u32 {
        match self {
            PixelTransferError::Unsupported { .. } => gl::INVALID_ENUM,
            PixelTransferError::Mismatch { .. } | PixelTransferError::TooShort { .. } => {
                gl::INVALID_OPERATION
            }
            PixelTransferError::BadAlignment(_) => gl::INVALID_VALUE,
            PixelTransferError::TooLarge => gl::OUT_OF_MEMORY,
        }
    }
}

/// The error of `convert_upload` (same enum as readback's).
pub type UploadError = PixelTransferError;

/// The internal format a GL internalformat enum names: the sized formats we store, and the
/// unsized/base ones with the format we pick for them (GL 4.5 core §8.5, table 8.11 lets the
/// implementation choose). GL_RGB / GL_RGB8 are stored as RGBA8 (and GL_SRGB / GL_SRGB8 as
/// SRGB8_ALPHA8) with alpha 1 written on upload; 16-bit depth formats are stored as
/// DEPTH24_STENCIL8 (more precision than asked is allowed).
pub fn internal_format_from_gl(internalformat: u32) -> Option<Format> {
    Some(match internalformat {
        gl::RGBA8 | gl::RGBA | gl::RGB8 | gl::RGB => Format::Rgba8,
        gl::SRGB8_ALPHA8 | gl::SRGB_ALPHA | gl::SRGB8 | gl::SRGB => Format::Srgb8Alpha8,
        gl::R8 | gl::RED => Format::R8,
        gl::RG8 | gl::RG => Format::Rg8,
        gl::RGBA16F => Format::Rgba16F,
        gl::RGBA32F => Format::Rgba32F,
        gl::R32F => Format::R32F,
        gl::DEPTH24_STENCIL8 | gl::DEPTH_STENCIL => Format::Depth24Stencil8,
        gl::DEPTH_COMPONENT16 | gl::DEPTH_COMPONENT24 => Format::Depth24Stencil8,
        gl::DEPTH_COMPONENT32F | gl::DEPTH_COMPONENT => Format::Depth32F,
        _ => return None,
    })
}

/// Which client components a GL colour format carries, and how many.
fn color_components(gl_format: u32) -> Option<usize> {
    match gl_format {
        gl::RED => Some(1),
        gl::RG => Some(2),
        gl::RGB => Some(3),
        gl::RGBA => Some(4),
        _ => None,
    }
}

/// Client layout of one pixel.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Client {
    /// `n` colour components of `ty` (UNSIGNED_BYTE, HALF_FLOAT or FLOAT).
    Color { n: usize, ty: u32 },
    /// DEPTH_COMPONENT of `ty` (FLOAT, UNSIGNED_INT, UNSIGNED_SHORT).
    Depth { ty: u32 },
    /// DEPTH_STENCIL as UNSIGNED_INT_24_8 (one u32).
    DepthStencil248,
    /// DEPTH_STENCIL as FLOAT_32_UNSIGNED_INT_24_8_REV (f32 then u32 with stencil in the
    /// low byte).
    DepthStencilF32,
    /// STENCIL_INDEX as UNSIGNED_BYTE.
    Stencil,
}

impl Client {
    fn parse(gl_format: u32, gl_type: u32) -> Result<Client, PixelTransferError> {
        let unsupported = PixelTransferError::Unsupported {
            format: gl_format,
            ty: gl_type,
        };
        if let Some(n) = color_components(gl_format) {
            return match gl_type {
                gl::UNSIGNED_BYTE | gl::HALF_FLOAT | gl::FLOAT => {
                    Ok(Client::Color { n, ty: gl_type })
                }
                _ => Err(unsupported),
            };
        }
        match (gl_format, gl_type) {
            (gl::DEPTH_COMPONENT, gl::FLOAT | gl::UNSIGNED_INT | gl::UNSIGNED_SHORT) => {
                Ok(Client::Depth { ty: gl_type })
            }
            (gl::DEPTH_STENCIL, gl::UNSIGNED_INT_24_8) => Ok(Client::DepthStencil248),
            (gl::DEPTH_STENCIL, gl::FLOAT_32_UNSIGNED_INT_24_8_REV) => Ok(Client::DepthStencilF32),
            (gl::STENCIL_INDEX, gl::UNSIGNED_BYTE) => Ok(Client::Stencil),
            // GL 4.5 core §8.4.4.2: DEPTH_STENCIL needs one of the packed types.
            (gl::DEPTH_STENCIL, _) => Err(PixelTransferError::Mismatch {
                format: gl_format,
                internal: Format::Depth24Stencil8,
            }),
            _ => Err(unsupported),
        }
    }

    /// Bytes of one pixel, and the size of one element for alignment (GL 4.5 core
    /// §8.4.4.1: packed types count as one element).
    fn sizes(self) -> (usize, usize) {
        let ty_size = |ty: u32| match ty {
            gl::UNSIGNED_BYTE => 1,
            gl::HALF_FLOAT | gl::UNSIGNED_SHORT => 2,
            _ => 4,
        };
        match self {
            Client::Color { n, ty } => (n * ty_size(ty), ty_size(ty)),
            Client::Depth { ty } => (ty_size(ty), ty_size(ty)),
            Client::DepthStencil248 => (4, 4),
            Client::DepthStencilF32 => (8, 8),
            Client::Stencil => (1, 1),
        }
    }

    fn is_color(self) -> bool {
        matches!(self, Client::Color { .. })
    }
}

/// Row stride in client memory (GL 4.5 core eq. 8.1): rows start at multiples of the
/// alignment when the element size is smaller than it.
fn row_stride(
    width: usize,
    pixel_bytes: usize,
    elem_bytes: usize,
    align: u32,
) -> Result<(usize, usize), PixelTransferError> {
    if !matches!(align, 1 | 2 | 4 | 8) {
        return Err(PixelTransferError::BadAlignment(align));
    }
    let row = width
        .checked_mul(pixel_bytes)
        .ok_or(PixelTransferError::TooLarge)?;
    let a = align as usize;
    let stride = if elem_bytes < a {
        row.div_ceil(a) * a
    } else {
        row
    };
    Ok((row, stride))
}

fn read_client_color(n: usize, ty: u32, px: &[u8]) -> [f32; 4] {
    // GL 4.5 core §8.4.4.4 (conversion to RGBA): missing G, B are 0, missing A is 1.
    let mut rgba = [0.0, 0.0, 0.0, 1.0];
    for (c, v) in rgba.iter_mut().enumerate().take(n) {
        *v = match ty {
            gl::UNSIGNED_BYTE => unorm8_to_f32(px[c]),
            gl::HALF_FLOAT => {
                half::f16::from_bits(u16::from_le_bytes([px[2 * c], px[2 * c + 1]])).to_f32()
            }
            _ => f32::from_le_bytes([px[4 * c], px[4 * c + 1], px[4 * c + 2], px[4 * c + 3]]),
        };
    }
    rgba
}

fn u32_at(px: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([px[at], px[at + 1], px[at + 2], px[at + 3]])
}

/// Converts client pixels (`width` × `height`, rows bottom-up as GL gives them, rows aligned
/// to `unpack_alignment`) to the tightly packed storage of `format`. Colour data goes to
/// colour formats, DEPTH_COMPONENT / DEPTH_STENCIL to depth formats (GL 4.5 core §8.4.4.2).
/// sRGB formats take their bytes as given (no conversion on unpack). A matching
/// RGBA/UNSIGNED_BYTE → RGBA8 (or SRGB8_ALPHA8) upload is a plain copy.
pub fn convert_upload(
    format: Format,
    gl_format: u32,
    gl_type: u32,
    width: u32,
    height: u32,
    src: &[u8],
    unpack_alignment: u32,
) -> Result<Vec<u8>, UploadError> {
    let client = Client::parse(gl_format, gl_type)?;
    if client.is_color() == format.is_depth() {
        return Err(PixelTransferError::Mismatch {
            format: gl_format,
            internal: format,
        });
    }
    let (w, h) = (width as usize, height as usize);
    let (pixel_bytes, elem_bytes) = client.sizes();
    let (row, stride) = row_stride(w, pixel_bytes, elem_bytes, unpack_alignment)?;
    let needed = if h == 0 || w == 0 {
        0
    } else {
        stride
            .checked_mul(h - 1)
            .and_then(|v| v.checked_add(row))
            .ok_or(PixelTransferError::TooLarge)?
    };
    if src.len() < needed {
        return Err(PixelTransferError::TooShort {
            needed,
            got: src.len(),
        });
    }
    let bpt = format.bytes_per_texel();
    let out_len = w
        .checked_mul(h)
        .and_then(|v| v.checked_mul(bpt))
        .ok_or(PixelTransferError::TooLarge)?;
    let mut out = vec![0u8; out_len];
    if w == 0 || h == 0 {
        return Ok(out);
    }
    let plain_copy = matches!(format, Format::Rgba8 | Format::Srgb8Alpha8)
        && client
            == Client::Color {
                n: 4,
                ty: gl::UNSIGNED_BYTE,
            };
    for y in 0..h {
        let src_row = &src[y * stride..y * stride + row];
        let dst_row = &mut out[y * w * bpt..(y + 1) * w * bpt];
        if plain_copy {
            dst_row.copy_from_slice(src_row);
            continue;
        }
        for x in 0..w {
            let px = &src_row[x * pixel_bytes..(x + 1) * pixel_bytes];
            let dst = &mut dst_row[x * bpt..(x + 1) * bpt];
            match client {
                Client::Color { n, ty } => encode_color(format, read_client_color(n, ty, px), dst),
                Client::Depth { ty } => {
                    let d = match ty {
                        gl::UNSIGNED_SHORT => u16::from_le_bytes([px[0], px[1]]) as f32 / 65535.0,
                        gl::UNSIGNED_INT => (u32_at(px, 0) as f64 / u32::MAX as f64) as f32,
                        _ => f32::from_bits(u32_at(px, 0)),
                    };
                    encode_depth(format, d, dst);
                }
                Client::DepthStencil248 => {
                    let v = u32_at(px, 0);
                    // Packed as depth in the high 24 bits, stencil in the low 8 (GL 4.5
                    // core table 8.8).
                    encode_depth(format, unorm24_to_f32(v >> 8), dst);
                    encode_stencil(format, v as u8, dst);
                }
                Client::DepthStencilF32 => {
                    encode_depth(format, f32::from_bits(u32_at(px, 0)), dst);
                    encode_stencil(format, px[4], dst);
                }
                Client::Stencil => encode_stencil(format, px[0], dst),
            }
        }
    }
    Ok(out)
}

/// Reads the rectangle (`x`, `y`, `w`, `h`) of `image` into client memory as `gl_format` /
/// `gl_type` (GL 4.5 core §18.2), rows bottom-up, each row padded to `pack_alignment`.
/// Pixels outside the image read as zero (GL leaves them undefined). Colour: RGBA, RGB, RG,
/// RED with UNSIGNED_BYTE (round(clamp(x) × 255)), HALF_FLOAT or FLOAT; no sRGB conversion.
/// Depth images: DEPTH_COMPONENT (FLOAT, UNSIGNED_INT, UNSIGNED_SHORT), DEPTH_STENCIL
/// (UNSIGNED_INT_24_8, FLOAT_32_UNSIGNED_INT_24_8_REV), STENCIL_INDEX (UNSIGNED_BYTE).
#[allow(clippy::too_many_arguments)]
pub fn read_pixels(
    image: &Image,
    x: i32,
    y: i32,
    w: u32,
    h: u32,
    gl_format: u32,
    gl_type: u32,
    pack_alignment: u32,
) -> Result<Vec<u8>, PixelTransferError> {
    let format = image.format();
    let client = Client::parse(gl_format, gl_type)?;
    if client.is_color() == format.is_depth() {
        return Err(PixelTransferError::Mismatch {
            format: gl_format,
            internal: format,
        });
    }
    let (pixel_bytes, elem_bytes) = client.sizes();
    let (row, stride) = row_stride(w as usize, pixel_bytes, elem_bytes, pack_alignment)?;
    let total = if w == 0 || h == 0 {
        0
    } else {
        stride
            .checked_mul(h as usize - 1)
            .and_then(|v| v.checked_add(row))
            .ok_or(PixelTransferError::TooLarge)?
    };
    let mut out = vec![0u8; total];
    if total == 0 {
        return Ok(out);
    }
    let bpt = format.bytes_per_texel();
    let (iw, ih) = (image.width() as i64, image.height() as i64);
    // The columns of the rectangle that lie inside the image.
    let x0 = (x as i64).max(0);
    let x1 = (x as i64 + w as i64).min(iw);
    let mut src_row = vec![0u8; (x1 - x0).max(0) as usize * bpt];
    for j in 0..h as usize {
        let sy = y as i64 + j as i64;
        if sy < 0 || sy >= ih || x0 >= x1 {
            continue;
        }
        // Only the texels read are copied out of the image, one row at a time.
        image.read_bytes((sy * iw + x0) as usize * bpt, &mut src_row);
        let dst_row = &mut out[j * stride..j * stride + row];
        for i in 0..w as usize {
            let sx = x as i64 + i as i64;
            if sx < x0 || sx >= x1 {
                continue;
            }
            let off = (sx - x0) as usize * bpt;
            let texel = &src_row[off..off + bpt];
            let dst = &mut dst_row[i * pixel_bytes..(i + 1) * pixel_bytes];
            match client {
                Client::Color { n, ty } => {
                    let rgba = decode_color(format, texel);
                    for c in 0..n {
                        match ty {
                            gl::UNSIGNED_BYTE => dst[c] = unorm8_from_f32(rgba[c]),
                            gl::HALF_FLOAT => dst[2 * c..2 * c + 2].copy_from_slice(
                                &half::f16::from_f32(rgba[c]).to_bits().to_le_bytes(),
                            ),
                            _ => dst[4 * c..4 * c + 4].copy_from_slice(&rgba[c].to_le_bytes()),
                        }
                    }
                }
                Client::Depth { ty } => {
                    let d = decode_depth(format, texel);
                    match ty {
                        gl::UNSIGNED_SHORT => {
                            let v = (d.clamp(0.0, 1.0) * 65535.0).round() as u16;
                            dst.copy_from_slice(&v.to_le_bytes());
                        }
                        gl::UNSIGNED_INT => {
                            let v = (d.clamp(0.0, 1.0) as f64 * u32::MAX as f64).round() as u32;
                            dst.copy_from_slice(&v.to_le_bytes());
                        }
                        _ => dst.copy_from_slice(&d.to_le_bytes()),
                    }
                }
                Client::DepthStencil248 => {
                    let d = unorm24_from_f32(decode_depth(format, texel));
                    let v = d << 8 | decode_stencil(format, texel) as u32;
                    dst.copy_from_slice(&v.to_le_bytes());
                }
                Client::DepthStencilF32 => {
                    dst[0..4].copy_from_slice(&decode_depth(format, texel).to_le_bytes());
                    dst[4..8]
                        .copy_from_slice(&(decode_stencil(format, texel) as u32).to_le_bytes());
                }
                Client::Stencil => dst[0] = decode_stencil(format, texel),
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn image_from(format: Format, w: u32, h: u32, data: &[u8]) -> Image {
        let img = Image::new(w, h, format);
        img.write_bytes(0, data);
        img
    }

    #[test]
    fn internal_formats_sized_and_unsized() {
        assert_eq!(internal_format_from_gl(gl::RGBA8), Some(Format::Rgba8));
        assert_eq!(internal_format_from_gl(gl::RGBA), Some(Format::Rgba8));
        assert_eq!(internal_format_from_gl(gl::RED), Some(Format::R8));
        assert_eq!(internal_format_from_gl(gl::RG), Some(Format::Rg8));
        assert_eq!(
            internal_format_from_gl(gl::SRGB8_ALPHA8),
            Some(Format::Srgb8Alpha8)
        );
        assert_eq!(
            internal_format_from_gl(gl::DEPTH_COMPONENT32F),
            Some(Format::Depth32F)
        );
        assert_eq!(
            internal_format_from_gl(gl::DEPTH24_STENCIL8),
            Some(Format::Depth24Stencil8)
        );
        assert_eq!(internal_format_from_gl(0x1234), None);
        for f in crate::sampler::format::tests_all() {
            assert_eq!(internal_format_from_gl(f.gl_internal_format()), Some(f));
        }
    }

    #[test]
    fn upload_rgb_unaligned_rows_fill_alpha() {
        // 3×2 RGB bytes: rows of 9 bytes padded to 12 with alignment 4.
        let mut src = vec![0u8; 12 + 9];
        for (i, v) in src.iter_mut().enumerate() {
            *v = i as u8;
        }
        let out = convert_upload(Format::Rgba8, gl::RGB, gl::UNSIGNED_BYTE, 3, 2, &src, 4).unwrap();
        assert_eq!(&out[0..8], &[0, 1, 2, 255, 3, 4, 5, 255]);
        assert_eq!(&out[12..16], &[12, 13, 14, 255]);
        // Same data with alignment 1 has no padding.
        let out1 = convert_upload(
            Format::Rgba8,
            gl::RGB,
            gl::UNSIGNED_BYTE,
            3,
            2,
            &src[..18],
            1,
        )
        .unwrap();
        assert_eq!(&out1[12..16], &[9, 10, 11, 255]);
        assert_eq!(
            convert_upload(
                Format::Rgba8,
                gl::RGB,
                gl::UNSIGNED_BYTE,
                3,
                2,
                &src[..20],
                4
            ),
            Err(PixelTransferError::TooShort {
                needed: 21,
                got: 20
            })
        );
    }

    #[test]
    fn upload_errors() {
        let src = [0u8; 64];
        let e = convert_upload(Format::Rgba8, gl::DEPTH_COMPONENT, gl::FLOAT, 1, 1, &src, 4);
        assert_eq!(e.unwrap_err().gl_error(), gl::INVALID_OPERATION);
        let e = convert_upload(Format::Depth32F, gl::RGBA, gl::FLOAT, 1, 1, &src, 4);
        assert_eq!(e.unwrap_err().gl_error(), gl::INVALID_OPERATION);
        let e = convert_upload(Format::Rgba8, gl::BGRA, gl::UNSIGNED_BYTE, 1, 1, &src, 4);
        assert_eq!(e.unwrap_err().gl_error(), gl::INVALID_ENUM);
        let e = convert_upload(Format::Rgba8, gl::RGBA, gl::UNSIGNED_BYTE, 1, 1, &src, 3);
        assert_eq!(e.unwrap_err().gl_error(), gl::INVALID_VALUE);
        let e = convert_upload(
            Format::Rgba8,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            u32::MAX,
            u32::MAX,
            &src,
            4,
        );
        assert!(e.is_err());
    }

    #[test]
    fn upload_float_to_unorm_and_half() {
        let src: Vec<u8> = [0.5f32, -1.0, 2.0, 0.25]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let out = convert_upload(Format::Rgba8, gl::RGBA, gl::FLOAT, 1, 1, &src, 4).unwrap();
        assert_eq!(out, vec![128, 0, 255, 64]);
        let out = convert_upload(Format::Rgba16F, gl::RGBA, gl::FLOAT, 1, 1, &src, 4).unwrap();
        assert_eq!(decode_color(Format::Rgba16F, &out), [0.5, -1.0, 2.0, 0.25]);
        let out = convert_upload(Format::R32F, gl::RED, gl::FLOAT, 1, 1, &src[..4], 4).unwrap();
        assert_eq!(out, 0.5f32.to_le_bytes().to_vec());
    }

    #[test]
    fn depth_upload_and_readback() {
        let src: Vec<u8> = [0.0f32, 0.5, 1.0, 0.25]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let data = convert_upload(
            Format::Depth24Stencil8,
            gl::DEPTH_COMPONENT,
            gl::FLOAT,
            2,
            2,
            &src,
            4,
        )
        .unwrap();
        let img = image_from(Format::Depth24Stencil8, 2, 2, &data);
        let back = read_pixels(&img, 0, 0, 2, 2, gl::DEPTH_COMPONENT, gl::FLOAT, 4).unwrap();
        let vals: Vec<f32> = back
            .chunks(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(vals[0], 0.0);
        assert_eq!(vals[2], 1.0);
        assert!((vals[1] - 0.5).abs() < 1e-7);
        let ds = (0x8000_0000u32 | 0x42).to_le_bytes();
        let data = convert_upload(
            Format::Depth24Stencil8,
            gl::DEPTH_STENCIL,
            gl::UNSIGNED_INT_24_8,
            1,
            1,
            &ds,
            4,
        )
        .unwrap();
        let img = image_from(Format::Depth24Stencil8, 1, 1, &data);
        let back = read_pixels(
            &img,
            0,
            0,
            1,
            1,
            gl::DEPTH_STENCIL,
            gl::UNSIGNED_INT_24_8,
            4,
        )
        .unwrap();
        assert_eq!(back, ds.to_vec());
        let st = read_pixels(&img, 0, 0, 1, 1, gl::STENCIL_INDEX, gl::UNSIGNED_BYTE, 1).unwrap();
        assert_eq!(st, vec![0x42]);
    }

    #[test]
    fn readback_rows_pad_and_clip() {
        let img = image_from(Format::R8, 2, 2, &[10, 20, 30, 40]);
        let out = read_pixels(&img, 0, 0, 2, 2, gl::RGB, gl::UNSIGNED_BYTE, 4).unwrap();
        assert_eq!(out, vec![10, 0, 0, 20, 0, 0, 0, 0, 30, 0, 0, 40, 0, 0]);
        // Outside the image reads zero; never panics.
        let out = read_pixels(&img, -1, 1, 3, 2, gl::RED, gl::UNSIGNED_BYTE, 1).unwrap();
        assert_eq!(out, vec![0, 30, 40, 0, 0, 0]);
        let out = read_pixels(&img, i32::MAX, i32::MIN, 2, 2, gl::RGBA, gl::FLOAT, 4).unwrap();
        assert!(out.iter().all(|&b| b == 0));
        assert_eq!(out.len(), 64);
    }

    proptest! {
        #[test]
        fn rgba8_upload_readback_round_trip(
            w in 1u32..7, h in 1u32..5, align in prop::sample::select(vec![1u32, 2, 4, 8]),
            seed in any::<u64>(),
        ) {
            let (_, stride) = row_stride(w as usize, 4, 1, align).unwrap();
            let len = stride * (h as usize - 1) + w as usize * 4;
            let src: Vec<u8> = (0..len).map(|i| (seed.wrapping_mul(i as u64 + 1) >> 13) as u8).collect();
            let data = convert_upload(Format::Rgba8, gl::RGBA, gl::UNSIGNED_BYTE, w, h, &src, align).unwrap();
            let img = image_from(Format::Rgba8, w, h, &data);
            let back = read_pixels(&img, 0, 0, w, h, gl::RGBA, gl::UNSIGNED_BYTE, align).unwrap();
            for y in 0..h as usize {
                prop_assert_eq!(&back[y * stride..y * stride + w as usize * 4], &src[y * stride..y * stride + w as usize * 4]);
            }
        }

        #[test]
        fn float_formats_round_trip(w in 1u32..5, h in 1u32..5, vals in proptest::collection::vec(-1.0e4f32..1.0e4, 64)) {
            for (format, comps) in [(Format::Rgba32F, 4usize), (Format::R32F, 1)] {
                let gl_format = if comps == 4 { gl::RGBA } else { gl::RED };
                let n = (w * h) as usize * comps;
                let src: Vec<u8> = vals[..n].iter().flat_map(|v| v.to_le_bytes()).collect();
                let data = convert_upload(format, gl_format, gl::FLOAT, w, h, &src, 4).unwrap();
                let img = image_from(format, w, h, &data);
                let back = read_pixels(&img, 0, 0, w, h, gl_format, gl::FLOAT, 4).unwrap();
                prop_assert_eq!(back, src);
            }
        }

        #[test]
        fn half_upload_is_exact_for_halves(bits in proptest::collection::vec(0u16..0x7C00, 4)) {
            let src: Vec<u8> = bits.iter().flat_map(|b| b.to_le_bytes()).collect();
            let data = convert_upload(Format::Rgba16F, gl::RGBA, gl::HALF_FLOAT, 1, 1, &src, 4).unwrap();
            prop_assert_eq!(&data, &src);
            let img = image_from(Format::Rgba16F, 1, 1, &data);
            let back = read_pixels(&img, 0, 0, 1, 1, gl::RGBA, gl::HALF_FLOAT, 4).unwrap();
            prop_assert_eq!(back, src);
        }

        #[test]
        fn transfers_never_panic(
            f in 0usize..9, gl_format in prop::sample::select(vec![gl::RGBA, gl::RGB, gl::RG, gl::RED, gl::DEPTH_COMPONENT, gl::DEPTH_STENCIL, gl::STENCIL_INDEX, 0]),
            gl_type in prop::sample::select(vec![gl::UNSIGNED_BYTE, gl::FLOAT, gl::HALF_FLOAT, gl::UNSIGNED_INT_24_8, gl::FLOAT_32_UNSIGNED_INT_24_8_REV, gl::UNSIGNED_INT, gl::UNSIGNED_SHORT, 0]),
            w in 0u32..6, h in 0u32..6, align in 0u32..10, len in 0usize..300,
            x in -4i32..4, y in -4i32..4,
        ) {
            let format = crate::sampler::format::tests_all()[f];
            let src = vec![0x5Au8; len];
            if let Ok(data) = convert_upload(format, gl_format, gl_type, w, h, &src, align) {
                prop_assert_eq!(data.len(), (w * h) as usize * format.bytes_per_texel());
            }
            let img = Image::new(3, 2, format);
            let _ = read_pixels(&img, x, y, w, h, gl_format, gl_type, align);
        }
    }
}
