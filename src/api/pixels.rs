//! Pixel transfer on the API thread (GL 4.5 core §8.4, §18.2): unpacking client data into
//! image storage for TexImage/TexSubImage, packing images out for ReadPixels, and the box
//! filter of GenerateMipmap. Conversions go through f32 with GL's unorm rules
//! (`round(clamp(x) * 255)`), so they are exact for 8-bit data.
//!
//! This is the only pixel-transfer code: the GL format/type enums are paired with storage
//! here, in the one layer that sees raw enums; per-texel encodings are `sampler::format`'s.

use half::f16;

use crate::api::context::Context;
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::gl::enums as gl;
use crate::sampler::{Format, Image};

/// A GL internal format and how it is stored. Formats the sampler has no storage for are
/// kept in a wider storage format (GL 4.5 core §8.5.1 lets the stored resolution exceed the
/// request) with the GL semantics applied at upload: missing channels read (0, 0, 1)
/// (GL 4.5 core table 8.10) and components are quantized to the requested bits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InternalFormat {
    /// The GL enum as requested (reported by GL_TEXTURE_INTERNAL_FORMAT).
    pub gl: u32,
    pub storage: Format,
    /// Real colour channels: 1 (R), 2 (RG), 3 (RGB) or 4 (RGBA).
    pub channels: u8,
    /// Bits per channel to quantize unorm values to; 0 keeps the storage precision.
    pub bits: [u8; 4],
    /// A sized format (TexStorage and renderbuffers accept only those).
    pub sized: bool,
}

/// The internal formats accepted by TexImage/TexStorage/RenderbufferStorage (GL 4.5 core
/// tables 8.11–8.13): the unsized and sized colour, depth and stencil formats, the signed
/// normalized and integer ones (stored as GL lays them out), and the compressed ones.
pub fn internal_format(internal: u32) -> Option<InternalFormat> {
    use Format::*;
    let f = |storage, channels, bits, sized| {
        Some(InternalFormat {
            gl: internal,
            storage,
            channels,
            bits,
            sized,
        })
    };
    const N: [u8; 4] = [0; 4];
    match internal {
        gl::RGBA8 => f(Rgba8, 4, N, true),
        gl::RGB8 => f(Rgba8, 3, N, true),
        gl::RGBA => f(Rgba8, 4, N, false),
        gl::RGB => f(Rgba8, 3, N, false),
        gl::RGBA4 => f(Rgba8, 4, [4; 4], true),
        gl::RGB5_A1 => f(Rgba8, 4, [5, 5, 5, 1], true),
        gl::RGB565 => f(Rgba8, 3, [5, 6, 5, 0], true),
        gl::R8 => f(R8, 1, N, true),
        gl::RED => f(R8, 1, N, false),
        gl::RG8 => f(Rg8, 2, N, true),
        gl::RG => f(Rg8, 2, N, false),
        gl::SRGB8_ALPHA8 => f(Srgb8Alpha8, 4, N, true),
        gl::SRGB8 => f(Srgb8Alpha8, 3, N, true),
        gl::SRGB_ALPHA => f(Srgb8Alpha8, 4, N, false),
        gl::SRGB => f(Srgb8Alpha8, 3, N, false),
        gl::RGB10_A2 => f(Rgba32F, 4, [10, 10, 10, 2], true),
        gl::RGB10_A2UI => f(Rgb10A2ui, 4, [10, 10, 10, 2], true),
        // The unsized snorm formats (GL 3.1's, from EXT_texture_snorm): 8 bits a channel.
        gl::RED_SNORM | gl::RG_SNORM | gl::RGB_SNORM | gl::RGBA_SNORM => {
            let channels = match internal {
                gl::RED_SNORM => 1,
                gl::RG_SNORM => 2,
                gl::RGB_SNORM => 3,
                _ => 4,
            };
            let sn = crate::sampler::SnormFormat { channels, bytes: 1 };
            f(Snorm(sn), channels, N, false)
        }
        gl::R16 => f(Rgba32F, 1, [16; 4], true),
        gl::RG16 => f(Rgba32F, 2, [16; 4], true),
        gl::RGB16 => f(Rgba32F, 3, [16; 4], true),
        gl::RGBA16 => f(Rgba32F, 4, [16; 4], true),
        gl::R16F => f(Rgba16F, 1, N, true),
        gl::RG16F => f(Rgba16F, 2, N, true),
        gl::RGB16F | gl::R11F_G11F_B10F => f(Rgba16F, 3, N, true),
        gl::RGBA16F => f(Rgba16F, 4, N, true),
        gl::R32F => f(R32F, 1, N, true),
        gl::RG32F => f(Rgba32F, 2, N, true),
        gl::RGB32F => f(Rgba32F, 3, N, true),
        gl::RGBA32F => f(Rgba32F, 4, N, true),
        gl::DEPTH24_STENCIL8 | gl::DEPTH_COMPONENT24 | gl::DEPTH_COMPONENT16 => {
            f(Depth24Stencil8, 1, N, true)
        }
        gl::DEPTH_STENCIL => f(Depth24Stencil8, 1, N, false),
        gl::DEPTH_COMPONENT32F | gl::DEPTH_COMPONENT32 => f(Depth32F, 1, N, true),
        gl::DEPTH_COMPONENT => f(Depth32F, 1, N, false),
        // The generic compressed formats may be stored uncompressed (GL 4.5 core §8.7);
        // softgl does, and reports them uncompressed.
        gl::COMPRESSED_RED => f(R8, 1, N, false),
        gl::COMPRESSED_RG => f(Rg8, 2, N, false),
        gl::COMPRESSED_RGB => f(Rgba8, 3, N, false),
        gl::COMPRESSED_RGBA => f(Rgba8, 4, N, false),
        gl::COMPRESSED_SRGB => f(Srgb8Alpha8, 3, N, false),
        gl::COMPRESSED_SRGB_ALPHA => f(Srgb8Alpha8, 4, N, false),
        e if crate::api::compressed::specific(e).is_some() => {
            crate::api::compressed::internal_format(e)
        }
        e => {
            if let Some(sn) = crate::sampler::SnormFormat::from_gl(e) {
                return f(Format::Snorm(sn), sn.channels, N, true);
            }
            let i = crate::sampler::IntFormat::from_gl(e)?;
            f(Format::Int(i), i.channels, N, true)
        }
    }
}

impl InternalFormat {
    /// The format a level without a recorded internal format is treated as.
    pub fn of_storage(storage: Format) -> InternalFormat {
        InternalFormat {
            gl: storage.gl_internal_format(),
            storage,
            channels: 4,
            bits: [0; 4],
            sized: true,
        }
    }

    /// Applies the format's channel defaults and quantization to a decoded colour.
    fn apply(&self, mut v: [f32; 4]) -> [f32; 4] {
        if self.storage.is_depth() {
            // Fixed-point depth formats clamp to [0, 1] (GL 4.5 core §8.4.4.2, §2.3.5.2);
            // only DEPTH_COMPONENT32F keeps its floats. DEPTH_COMPONENT32 is stored as f32.
            if self.gl != gl::DEPTH_COMPONENT32F {
                v[0] = if v[0].is_nan() {
                    0.0
                } else {
                    v[0].clamp(0.0, 1.0)
                };
            }
            return v;
        }
        for (c, x) in v.iter_mut().enumerate() {
            if c >= self.channels as usize {
                *x = if c == 3 { 1.0 } else { 0.0 };
            } else if self.bits[c] != 0 {
                let max = ((1u32 << self.bits[c]) - 1) as f32;
                let clamped = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
                *x = (clamped * max).round_ties_even() / max;
            }
        }
        v
    }

    /// Bits of red, green, blue, alpha, depth and stencil as stored (GL 4.5 core §9.2.5's
    /// RENDERBUFFER_*_SIZE, §9.2.3's FRAMEBUFFER_ATTACHMENT_*_SIZE, §8.11's TEXTURE_*_SIZE:
    /// the actual resolution, which may exceed the request).
    pub fn component_sizes(&self) -> [i32; 6] {
        use Format::*;
        match self.storage {
            Depth24Stencil8 => match self.gl {
                gl::DEPTH24_STENCIL8 | gl::DEPTH_STENCIL => [0, 0, 0, 0, 24, 8],
                // A stencil-only renderbuffer kept in D24S8 storage (`api/framebuffer.rs`).
                gl::STENCIL_INDEX8 => [0, 0, 0, 0, 0, 8],
                _ => [0, 0, 0, 0, 24, 0],
            },
            Depth32F => [
                0,
                0,
                0,
                0,
                if self.gl == gl::DEPTH_COMPONENT32F {
                    32
                } else {
                    24
                },
                0,
            ],
            storage => {
                let full = match storage {
                    Rgba16F => 16,
                    Rgba32F | R32F => 32,
                    Int(f) => f.bytes as i32 * 8,
                    Snorm(f) => f.bytes as i32 * 8,
                    _ => 8,
                };
                let mut out = [0; 6];
                for (c, o) in out.iter_mut().take(4).enumerate() {
                    // Alpha exists only in four-channel formats.
                    let present = if c == 3 {
                        self.channels == 4
                    } else {
                        c < self.channels as usize
                    };
                    if present {
                        *o = if self.bits[c] != 0 {
                            self.bits[c] as i32
                        } else {
                            full
                        };
                    }
                }
                out
            }
        }
    }

    /// GL_FLOAT, GL_UNSIGNED_NORMALIZED, GL_SIGNED_NORMALIZED, GL_INT or GL_UNSIGNED_INT:
    /// the type of the stored components (FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE,
    /// TEXTURE_*_TYPE). Quantized formats kept in float storage (RGB10_A2, R16...) are
    /// normalized.
    pub fn component_type(&self) -> u32 {
        if let Format::Int(f) = self.storage {
            return if f.signed { gl::INT } else { gl::UNSIGNED_INT };
        }
        if self.storage == Format::Rgb10A2ui {
            return gl::UNSIGNED_INT;
        }
        if let Format::Snorm(_) = self.storage {
            return gl::SIGNED_NORMALIZED;
        }
        let float = match self.storage {
            Format::Depth32F => self.gl == gl::DEPTH_COMPONENT32F,
            Format::Rgba16F | Format::Rgba32F | Format::R32F => self.bits == [0; 4],
            _ => false,
        };
        if float {
            gl::FLOAT
        } else {
            gl::UNSIGNED_NORMALIZED
        }
    }

    /// GL_SRGB or GL_LINEAR (FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING).
    pub fn color_encoding(&self) -> u32 {
        if self.storage == Format::Srgb8Alpha8 {
            gl::SRGB
        } else {
            gl::LINEAR
        }
    }

    /// Whether uploads are a plain byte copy of RGBA8 data.
    fn is_plain_rgba8(&self) -> bool {
        self.channels == 4
            && self.bits == [0; 4]
            && matches!(self.storage, Format::Rgba8 | Format::Srgb8Alpha8)
    }
}

/// Internal formats GL 4.5 requires that softgl has no storage for yet, with the reason
/// (so the error names them instead of calling a valid enum invalid).
pub fn unsupported_internal_format(internal: u32) -> Option<GlError> {
    match internal {
        gl::DEPTH32F_STENCIL8 => Some(GlError::InvalidOperation(
            "GL_DEPTH32F_STENCIL8 is not supported by softgl yet (no 32F+8 storage; use \
             GL_DEPTH24_STENCIL8 or GL_DEPTH_COMPONENT32F)",
        )),
        gl::STENCIL_INDEX8 => Some(GlError::InvalidOperation(
            "GL_STENCIL_INDEX8 textures are not supported by softgl yet",
        )),
        _ => None,
    }
}

/// A zero-filled image, or GL_OUT_OF_MEMORY when its storage cannot be had (probed with a
/// fallible reservation first: `Image::new` itself aborts on allocation failure).
pub fn new_image(w: u32, h: u32, format: Format) -> GlResult<Image> {
    new_image_layers(w, h, 1, format)
}

/// `new_image` of `d` layers (a 2D array texture level).
pub fn new_image_layers(w: u32, h: u32, d: u32, format: Format) -> GlResult<Image> {
    let bytes = (w as usize)
        .checked_mul(h as usize)
        .and_then(|n| n.checked_mul(d as usize))
        .and_then(|n| n.checked_mul(format.bytes_per_texel()))
        .ok_or(GlError::OutOfMemory("image size overflows"))?;
    let mut probe: Vec<u8> = Vec::new();
    probe
        .try_reserve_exact(bytes)
        .map_err(|_| GlError::OutOfMemoryFor(bytes as u64, "bytes of image storage"))?;
    drop(probe);
    Ok(Image::new_layers(w, h, d, format))
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
            | gl::RED_SNORM
            | gl::RG_SNORM
            | gl::RGB_SNORM
            | gl::RGBA_SNORM
    ) && internal_format(internal).is_some()
}

/// Components of a client pixel format.
fn components(format: u32) -> GlResult<usize> {
    Ok(match format {
        gl::RGBA => 4,
        gl::RGB => 3,
        gl::RG => 2,
        gl::RED | gl::DEPTH_COMPONENT | gl::DEPTH_STENCIL | gl::STENCIL_INDEX => 1,
        gl::RGBA_INTEGER => 4,
        gl::RGB_INTEGER => 3,
        gl::RG_INTEGER => 2,
        gl::RED_INTEGER => 1,
        _ => return Err(GlError::BadEnum("unsupported pixel format", format)),
    })
}

/// Bytes of one component of a client pixel type (the whole pixel for packed types): the
/// multiple a pixel buffer offset must be (GL 4.5 core §8.4.4.1).
pub fn type_size(ty: u32) -> GlResult<usize> {
    type_bytes(ty)
}

/// Bytes of one component of a client pixel type (the whole pixel for packed types).
fn type_bytes(ty: u32) -> GlResult<usize> {
    Ok(match ty {
        gl::UNSIGNED_BYTE | gl::BYTE => 1,
        gl::UNSIGNED_SHORT | gl::SHORT | gl::HALF_FLOAT => 2,
        gl::FLOAT
        | gl::UNSIGNED_INT
        | gl::INT
        | gl::UNSIGNED_INT_24_8
        | gl::UNSIGNED_INT_2_10_10_10_REV => 4,
        gl::FLOAT_32_UNSIGNED_INT_24_8_REV => 8,
        _ => return Err(GlError::BadEnum("unsupported pixel type", ty)),
    })
}

/// Checks a client `format`/`type` pair against GL 4.5 core §8.4.4 (tables 8.2, 8.3 and
/// 8.5), before softgl's own narrower support: an enum that is no pixel format or type is
/// GL_INVALID_ENUM; a valid pair the table forbids is GL_INVALID_OPERATION (a packed type
/// with a format of another component count, such as GL_RGBA with
/// GL_UNSIGNED_SHORT_5_6_5; DEPTH_STENCIL with a type that is not a depth/stencil packing;
/// an integer format with a floating-point type); a valid pair softgl does not convert yet
/// is GL_INVALID_OPERATION naming it as unsupported (DESIGN.md §6), never GL_INVALID_ENUM.
pub fn check_format_type(format: u32, ty: u32) -> GlResult<()> {
    let integer = matches!(
        format,
        gl::RED_INTEGER
            | gl::GREEN_INTEGER
            | gl::BLUE_INTEGER
            | gl::RG_INTEGER
            | gl::RGB_INTEGER
            | gl::RGBA_INTEGER
            | gl::BGR_INTEGER
            | gl::BGRA_INTEGER
    );
    if !integer
        && !matches!(
            format,
            gl::STENCIL_INDEX
                | gl::DEPTH_COMPONENT
                | gl::DEPTH_STENCIL
                | gl::RED
                | gl::GREEN
                | gl::BLUE
                | gl::RG
                | gl::RGB
                | gl::RGBA
                | gl::BGR
                | gl::BGRA
        )
    {
        return Err(GlError::BadEnum("pixel format", format));
    }
    // Table 8.5: the formats each packed type goes with; None for the unpacked types.
    let packed_formats: Option<&[u32]> = match ty {
        gl::UNSIGNED_BYTE
        | gl::BYTE
        | gl::UNSIGNED_SHORT
        | gl::SHORT
        | gl::UNSIGNED_INT
        | gl::INT
        | gl::HALF_FLOAT
        | gl::FLOAT => None,
        gl::UNSIGNED_BYTE_3_3_2
        | gl::UNSIGNED_BYTE_2_3_3_REV
        | gl::UNSIGNED_SHORT_5_6_5
        | gl::UNSIGNED_SHORT_5_6_5_REV => Some(&[gl::RGB, gl::RGB_INTEGER]),
        gl::UNSIGNED_SHORT_4_4_4_4
        | gl::UNSIGNED_SHORT_4_4_4_4_REV
        | gl::UNSIGNED_SHORT_5_5_5_1
        | gl::UNSIGNED_SHORT_1_5_5_5_REV
        | gl::UNSIGNED_INT_8_8_8_8
        | gl::UNSIGNED_INT_8_8_8_8_REV
        | gl::UNSIGNED_INT_10_10_10_2
        | gl::UNSIGNED_INT_2_10_10_10_REV => {
            Some(&[gl::RGBA, gl::BGRA, gl::RGBA_INTEGER, gl::BGRA_INTEGER])
        }
        gl::UNSIGNED_INT_10F_11F_11F_REV | gl::UNSIGNED_INT_5_9_9_9_REV => Some(&[gl::RGB]),
        gl::UNSIGNED_INT_24_8 | gl::FLOAT_32_UNSIGNED_INT_24_8_REV => Some(&[gl::DEPTH_STENCIL]),
        _ => return Err(GlError::BadEnum("pixel type", ty)),
    };
    if let Some(formats) = packed_formats {
        if !formats.contains(&format) {
            return Err(GlError::BadPair(
                "packed pixel type with a format it does not fit (GL 4.5 core table 8.5)",
                ("format", format),
                ("type", ty),
            ));
        }
    } else if format == gl::DEPTH_STENCIL {
        return Err(GlError::BadPair(
            "GL_DEPTH_STENCIL takes GL_UNSIGNED_INT_24_8 or GL_FLOAT_32_UNSIGNED_INT_24_8_REV",
            ("format", format),
            ("type", ty),
        ));
    }
    if integer && matches!(ty, gl::FLOAT | gl::HALF_FLOAT) {
        return Err(GlError::BadPair(
            "integer pixel format with a floating-point type",
            ("format", format),
            ("type", ty),
        ));
    }
    // What softgl converts today: the integer formats with the plain integer types, ...
    if integer {
        let supported = (matches!(
            format,
            gl::RED_INTEGER | gl::RG_INTEGER | gl::RGB_INTEGER | gl::RGBA_INTEGER
        ) && is_int_type(ty))
            || (format == gl::RGBA_INTEGER && ty == gl::UNSIGNED_INT_2_10_10_10_REV);
        if !supported {
            return Err(GlError::BadPair(
                "pixel format/type pair valid in GL but not supported by softgl yet",
                ("format", format),
                ("type", ty),
            ));
        }
        return Ok(());
    }
    // ... and these.
    let supported = matches!(
        format,
        gl::RGBA
            | gl::RGB
            | gl::RG
            | gl::RED
            | gl::DEPTH_COMPONENT
            | gl::DEPTH_STENCIL
            | gl::STENCIL_INDEX
    ) && matches!(
        ty,
        gl::UNSIGNED_BYTE
            | gl::BYTE
            | gl::UNSIGNED_SHORT
            | gl::SHORT
            | gl::UNSIGNED_INT
            | gl::INT
            | gl::HALF_FLOAT
            | gl::FLOAT
            | gl::UNSIGNED_INT_24_8
            | gl::FLOAT_32_UNSIGNED_INT_24_8_REV
    ) || (format == gl::RGBA && ty == gl::UNSIGNED_INT_2_10_10_10_REV);
    if !supported {
        return Err(GlError::BadPair(
            "pixel format/type pair valid in GL but not supported by softgl yet",
            ("format", format),
            ("type", ty),
        ));
    }
    Ok(())
}

/// The unpacked integer types (GL 4.5 core table 8.2) integer formats move.
fn is_int_type(ty: u32) -> bool {
    matches!(
        ty,
        gl::UNSIGNED_BYTE | gl::BYTE | gl::UNSIGNED_SHORT | gl::SHORT | gl::UNSIGNED_INT | gl::INT
    )
}

/// Whether a client pixel format is one of the *_INTEGER ones.
fn is_integer_format(format: u32) -> bool {
    matches!(
        format,
        gl::RED_INTEGER
            | gl::GREEN_INTEGER
            | gl::BLUE_INTEGER
            | gl::RG_INTEGER
            | gl::RGB_INTEGER
            | gl::RGBA_INTEGER
            | gl::BGR_INTEGER
            | gl::BGRA_INTEGER
    )
}

/// Checks a format/type pair against the storage format (GL 4.5 core §8.4.4: depth data
/// only into depth formats and back; UNSIGNED_INT_24_8 only with DEPTH_STENCIL; integer
/// client formats exactly for integer internal formats, §8.5 INVALID_OPERATION).
fn check_pair(storage: Format, format: u32, ty: u32) -> GlResult<usize> {
    check_format_type(format, ty)?;
    let n = components(format)?;
    let size = type_bytes(ty)?;
    if is_integer_format(format) != storage.is_integer() {
        return Err(GlError::InvalidOperation(
            "an integer internal format takes an *_INTEGER pixel format, and only it does",
        ));
    }
    let depth_client = matches!(format, gl::DEPTH_COMPONENT | gl::DEPTH_STENCIL);
    if depth_client != storage.is_depth() {
        return Err(GlError::InvalidOperation(
            "pixel format does not match the depth-ness of the internal format",
        ));
    }
    if is_packed_depth_stencil(ty) != (format == gl::DEPTH_STENCIL) {
        return Err(GlError::BadPair(
            "GL_UNSIGNED_INT_24_8 and GL_FLOAT_32_UNSIGNED_INT_24_8_REV go with \
             GL_DEPTH_STENCIL only",
            ("format", format),
            ("type", ty),
        ));
    }
    Ok(
        if is_packed_depth_stencil(ty) || ty == gl::UNSIGNED_INT_2_10_10_10_REV {
            size
        } else {
            n * size
        },
    )
}

/// The packed depth/stencil types (GL 4.5 core table 8.8): one client pixel is one
/// 4-byte (UNSIGNED_INT_24_8) or 8-byte (FLOAT_32_UNSIGNED_INT_24_8_REV) group.
fn is_packed_depth_stencil(ty: u32) -> bool {
    matches!(
        ty,
        gl::UNSIGNED_INT_24_8 | gl::FLOAT_32_UNSIGNED_INT_24_8_REV
    )
}

gl_commands! {
    /// glClampColor(GL_CLAMP_READ_COLOR, GL_TRUE | GL_FALSE | GL_FIXED_ONLY) (GL 4.5 core
    /// §18.2.6): whether glReadPixels clamps colours to [0, 1]. moderngl calls it before
    /// every read.
    "glClampColor" fn clamp_color(target: u32, clamp: u32) = try_clamp_color;
}

impl Context {
    pub(crate) fn try_clamp_color(&mut self, target: u32, clamp: u32) -> GlResult<()> {
        if target != gl::CLAMP_READ_COLOR {
            return Err(GlError::BadEnum("glClampColor target", target));
        }
        if !matches!(clamp, gl::TRUE | gl::FALSE | gl::FIXED_ONLY) {
            return Err(GlError::BadEnum("glClampColor clamp", clamp));
        }
        self.clamp_read_color = clamp;
        Ok(())
    }

    /// How glReadPixels packs: 2D, clamping colours under GL_CLAMP_READ_COLOR GL_TRUE.
    /// GL_FIXED_ONLY clamps only fixed-point buffers, whose values are in [0, 1] already.
    pub(crate) fn read_pack_mode(&self) -> PackMode {
        PackMode {
            three_d: false,
            clamp: self.clamp_read_color == gl::TRUE,
        }
    }
}

/// The pixel-store state of one direction (glPixelStorei, GL 4.5 core §8.4.4.1 table 8.1 for
/// unpacking, §18.2.2 table 18.1 for packing): where in client memory the pixels of an image
/// are, and whether their bytes are swapped. LSB_FIRST only orders the bits of GL_BITMAP
/// data, which the core profile does not have: it is stored and reported, nothing more.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PixelStore {
    pub swap_bytes: bool,
    pub lsb_first: bool,
    /// Pixels per row in client memory; 0: the image's width.
    pub row_length: u32,
    /// Rows per image of a 3D transfer; 0: the image's height.
    pub image_height: u32,
    pub skip_rows: u32,
    pub skip_pixels: u32,
    /// Images skipped before a 3D transfer's first (2D transfers ignore it and image_height).
    pub skip_images: u32,
    /// Row alignment in bytes: 1, 2, 4 or 8.
    pub alignment: u32,
    /// COMPRESSED_BLOCK_WIDTH, _HEIGHT, _DEPTH and _SIZE: with them set, compressed
    /// transfers honour the row, skip and image parameters (GL 4.5 core §8.7).
    pub compressed_block: [u32; 4],
}

impl PixelStore {
    /// GL's initial state: everything 0 or false, alignment 4.
    pub const INITIAL: PixelStore = PixelStore {
        swap_bytes: false,
        lsb_first: false,
        row_length: 0,
        image_height: 0,
        skip_rows: 0,
        skip_pixels: 0,
        skip_images: 0,
        alignment: 4,
        compressed_block: [0; 4],
    };

    /// The store a transfer of `three_d` dimensions uses: IMAGE_HEIGHT and SKIP_IMAGES
    /// apply to 3D transfers only (GL 4.5 core §8.4.4.1).
    pub fn for_dims(self, three_d: bool) -> PixelStore {
        if three_d {
            self
        } else {
            PixelStore {
                image_height: 0,
                skip_images: 0,
                ..self
            }
        }
    }

    /// The initial state with another alignment.
    pub const fn aligned(alignment: u32) -> PixelStore {
        PixelStore {
            alignment,
            ..PixelStore::INITIAL
        }
    }
}

/// Whether uploads to and downloads from a texture of `target` are 3D transfers.
pub fn is_3d_target(target: Option<u32>) -> bool {
    matches!(
        target,
        Some(gl::TEXTURE_3D | gl::TEXTURE_2D_ARRAY | gl::TEXTURE_CUBE_MAP_ARRAY)
    )
}

/// One parameter of a `PixelStore` (the same for GL_PACK_* and GL_UNPACK_*).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StoreField {
    SwapBytes,
    LsbFirst,
    RowLength,
    ImageHeight,
    SkipRows,
    SkipPixels,
    SkipImages,
    Alignment,
    /// COMPRESSED_BLOCK_WIDTH, _HEIGHT, _DEPTH, _SIZE (0..4).
    CompressedBlock(usize),
}

/// The pixel-store parameter `pname` names: (whether it is a GL_PACK_* one, which), or None
/// when it names none (GL 4.5 core table 8.1 and 18.1).
pub fn store_param(pname: u32) -> Option<(bool, StoreField)> {
    use StoreField::*;
    Some(match pname {
        gl::UNPACK_SWAP_BYTES => (false, SwapBytes),
        gl::UNPACK_LSB_FIRST => (false, LsbFirst),
        gl::UNPACK_ROW_LENGTH => (false, RowLength),
        gl::UNPACK_IMAGE_HEIGHT => (false, ImageHeight),
        gl::UNPACK_SKIP_ROWS => (false, SkipRows),
        gl::UNPACK_SKIP_PIXELS => (false, SkipPixels),
        gl::UNPACK_SKIP_IMAGES => (false, SkipImages),
        gl::UNPACK_ALIGNMENT => (false, Alignment),
        gl::PACK_SWAP_BYTES => (true, SwapBytes),
        gl::PACK_LSB_FIRST => (true, LsbFirst),
        gl::PACK_ROW_LENGTH => (true, RowLength),
        gl::PACK_IMAGE_HEIGHT => (true, ImageHeight),
        gl::PACK_SKIP_ROWS => (true, SkipRows),
        gl::PACK_SKIP_PIXELS => (true, SkipPixels),
        gl::PACK_SKIP_IMAGES => (true, SkipImages),
        gl::PACK_ALIGNMENT => (true, Alignment),
        gl::UNPACK_COMPRESSED_BLOCK_WIDTH => (false, CompressedBlock(0)),
        gl::UNPACK_COMPRESSED_BLOCK_HEIGHT => (false, CompressedBlock(1)),
        gl::UNPACK_COMPRESSED_BLOCK_DEPTH => (false, CompressedBlock(2)),
        gl::UNPACK_COMPRESSED_BLOCK_SIZE => (false, CompressedBlock(3)),
        gl::PACK_COMPRESSED_BLOCK_WIDTH => (true, CompressedBlock(0)),
        gl::PACK_COMPRESSED_BLOCK_HEIGHT => (true, CompressedBlock(1)),
        gl::PACK_COMPRESSED_BLOCK_DEPTH => (true, CompressedBlock(2)),
        gl::PACK_COMPRESSED_BLOCK_SIZE => (true, CompressedBlock(3)),
        _ => return None,
    })
}

impl PixelStore {
    /// glPixelStorei of one field (GL 4.5 core §8.4.1): a negative length or skip is
    /// GL_INVALID_VALUE, so is an alignment other than 1, 2, 4 or 8; booleans are any
    /// non-zero value.
    pub fn set(&mut self, field: StoreField, param: i32) -> GlResult<()> {
        use StoreField::*;
        if field == Alignment {
            if ![1, 2, 4, 8].contains(&param) {
                return Err(GlError::InvalidValue("alignment must be 1, 2, 4 or 8"));
            }
            self.alignment = param as u32;
            return Ok(());
        }
        if param < 0 && !matches!(field, SwapBytes | LsbFirst) {
            return Err(GlError::InvalidValue("negative pixel-store value"));
        }
        let v = param as u32;
        match field {
            SwapBytes => self.swap_bytes = param != 0,
            LsbFirst => self.lsb_first = param != 0,
            RowLength => self.row_length = v,
            ImageHeight => self.image_height = v,
            SkipRows => self.skip_rows = v,
            SkipPixels => self.skip_pixels = v,
            SkipImages => self.skip_images = v,
            CompressedBlock(k) => self.compressed_block[k] = v,
            Alignment => unreachable!("handled above"),
        }
        Ok(())
    }

    /// The value glGet reports for `field`.
    pub fn get(&self, field: StoreField) -> i32 {
        use StoreField::*;
        let v = match field {
            SwapBytes => self.swap_bytes as u32,
            LsbFirst => self.lsb_first as u32,
            RowLength => self.row_length,
            ImageHeight => self.image_height,
            SkipRows => self.skip_rows,
            SkipPixels => self.skip_pixels,
            SkipImages => self.skip_images,
            Alignment => self.alignment,
            CompressedBlock(k) => self.compressed_block[k],
        };
        v as i32
    }
}

/// Where the pixels of a `w`×`h`×`d` client box lie (GL 4.5 core §8.4.4.1): pixel (x, y, z)
/// starts at byte `start + z·image_stride + y·row_stride + x·pixel` of the client memory
/// (byte 0 is the application's pointer or the pixel buffer offset); `len` is how many bytes
/// from byte 0 the box reaches (its last row unpadded; 0 for an empty box), the size a pixel
/// buffer is checked against.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ClientLayout {
    pub pixel: usize,
    pub row_stride: usize,
    pub image_stride: usize,
    pub start: usize,
    pub len: usize,
    /// Bytes each byte swap reverses (GL_*_SWAP_BYTES on, components wider than a byte):
    /// the component, or the whole packed group; 0 for none.
    pub swap: usize,
}

impl ClientLayout {
    /// Byte offset of the first pixel of row `y` of image `z`.
    #[inline]
    pub fn row(&self, y: usize, z: usize) -> usize {
        self.start + z * self.image_stride + y * self.row_stride
    }

    /// Reverses the bytes of each swap unit of `bytes` (whole pixels), when swapping.
    pub fn swap_in_place(&self, bytes: &mut [u8]) {
        if self.swap > 1 {
            for unit in bytes.chunks_exact_mut(self.swap) {
                unit.reverse();
            }
        }
    }
}

/// The layout of a `[w, h, d]` client box of `format`/`ty` under `store` (d = 1 for 2D
/// transfers, which ignore IMAGE_HEIGHT and SKIP_IMAGES). Sizes no address space holds are
/// GL_OUT_OF_MEMORY.
pub fn client_layout(
    store: &PixelStore,
    [w, h, d]: [usize; 3],
    format: u32,
    ty: u32,
    three_d: bool,
) -> GlResult<ClientLayout> {
    check_format_type(format, ty)?;
    let size = type_bytes(ty)?;
    let pixel = if ty == gl::UNSIGNED_INT_2_10_10_10_REV {
        size
    } else {
        components(format)? * size
    };
    let overflow = || GlError::OutOfMemory("client image size overflows");
    let row_px = if store.row_length > 0 {
        store.row_length as usize
    } else {
        w
    };
    // GL 4.5 core eq. 8.2: with s ≥ a the rows are whole components anyway; with s < a they
    // are padded to a multiple of a (component and group sizes are powers of two or 3·s).
    let align = (store.alignment as usize).max(1);
    let row_stride = row_px
        .checked_mul(pixel)
        .and_then(|r| r.checked_next_multiple_of(align))
        .ok_or_else(overflow)?;
    let (image_rows, skip_images) = if three_d {
        let ih = if store.image_height > 0 {
            store.image_height as usize
        } else {
            h
        };
        (ih, store.skip_images as usize)
    } else {
        (h, 0)
    };
    let image_stride = image_rows.checked_mul(row_stride).ok_or_else(overflow)?;
    let start = (store.skip_pixels as usize)
        .checked_mul(pixel)
        .zip((store.skip_rows as usize).checked_mul(row_stride))
        .and_then(|(a, b)| a.checked_add(b))
        .zip(skip_images.checked_mul(image_stride))
        .and_then(|(a, b)| a.checked_add(b))
        .ok_or_else(overflow)?;
    let len = if w == 0 || h == 0 || d == 0 {
        0
    } else {
        (d - 1)
            .checked_mul(image_stride)
            .zip((h - 1).checked_mul(row_stride))
            .and_then(|(a, b)| a.checked_add(b))
            .zip(w.checked_mul(pixel))
            .and_then(|(a, b)| a.checked_add(b))
            .and_then(|n| n.checked_add(start))
            .ok_or_else(overflow)?
    };
    let swap = if !store.swap_bytes {
        0
    } else if ty == gl::FLOAT_32_UNSIGNED_INT_24_8_REV {
        // Two 32-bit words (table 8.8): each is swapped.
        4
    } else {
        size
    };
    Ok(ClientLayout {
        pixel,
        row_stride,
        image_stride,
        start,
        len,
        swap,
    })
}

/// Row stride in bytes of `width` pixels of `pixel_bytes`, padded to `alignment`
/// (GL 4.5 core §8.4.4.1).
pub fn row_stride(width: usize, pixel_bytes: usize, alignment: usize) -> usize {
    let row = width * pixel_bytes;
    row.div_ceil(alignment.max(1)) * alignment.max(1)
}

/// Bytes of client memory a 2D transfer of `w`×`h` reaches under `store` (skipped rows and
/// pixels included, the last row unpadded): what a pixel buffer must hold past its offset.
pub fn client_size(
    w: usize,
    h: usize,
    format: u32,
    ty: u32,
    store: &PixelStore,
) -> GlResult<usize> {
    Ok(client_layout(store, [w, h, 1], format, ty, false)?.len)
}

/// `client_size` of a 3D transfer (TexImage3D and friends, GetTexImage of layered levels):
/// IMAGE_HEIGHT and SKIP_IMAGES count too.
pub fn client_size_3d(
    size: [usize; 3],
    format: u32,
    ty: u32,
    store: &PixelStore,
) -> GlResult<usize> {
    Ok(client_layout(store, size, format, ty, true)?.len)
}

/// Reads client component `c` of a pixel as f32: the unsigned integer types as unorm
/// (GL 4.5 core eq. 2.1), the signed ones as snorm (eq. 2.2, §8.4.4.2), floats as they are.
fn read_component(src: &[u8], ty: u32, c: usize) -> f32 {
    use crate::sampler::format::snorm_to_f32;
    if ty == gl::UNSIGNED_INT_2_10_10_10_REV {
        // One word, R in the low bits (table 8.7), each field unorm (eq. 2.1).
        let v = crate::sampler::format::decode_rgb10a2ui(src);
        let max = if c == 3 { 3.0 } else { 1023.0 };
        return v.get(c).map_or(0.0, |&x| x as f32 / max);
    }
    match ty {
        gl::UNSIGNED_BYTE => src.get(c).map_or(0.0, |&b| b as f32 / 255.0),
        gl::BYTE => src
            .get(c)
            .map_or(0.0, |&b| snorm_to_f32(b as i8 as i32, i8::MAX as i32)),
        gl::SHORT => src.get(c * 2..c * 2 + 2).map_or(0.0, |b| {
            snorm_to_f32(i16::from_le_bytes([b[0], b[1]]) as i32, i16::MAX as i32)
        }),
        // Eq. 2.2 with b = 32, in f64 as UNSIGNED_INT below.
        gl::INT => src.get(c * 4..c * 4 + 4).map_or(0.0, |b| {
            let w = i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64;
            (w / i32::MAX as f64).max(-1.0) as f32
        }),
        gl::UNSIGNED_SHORT => src
            .get(c * 2..c * 2 + 2)
            .map_or(0.0, |b| u16::from_le_bytes([b[0], b[1]]) as f32 / 65535.0),
        gl::HALF_FLOAT => src
            .get(c * 2..c * 2 + 2)
            .map_or(0.0, |b| f16::from_le_bytes([b[0], b[1]]).to_f32()),
        // GL 4.5 core eq. 2.1 with b = 32, in f64 so the division is exact before the one
        // rounding to f32.
        gl::UNSIGNED_INT => src.get(c * 4..c * 4 + 4).map_or(0.0, |b| {
            (u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64 / u32::MAX as f64) as f32
        }),
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

/// unorm16 encode (GL 4.5 core eq. 2.3 with b = 16); NaN → 0.
fn unorm16(x: f32) -> u16 {
    let x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    (x * 65535.0).round_ties_even() as u16
}

/// unorm32 encode (GL 4.5 core eq. 2.3 with b = 32), computed in f64 (one rounding of a
/// 56-bit product, deterministic); NaN → 0.
fn unorm32(x: f32) -> u32 {
    let x = if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, 1.0) as f64
    };
    (x * u32::MAX as f64).round_ties_even() as u32
}

/// snorm encode of a client component (GL 4.5 core eq. 2.4 with b = 8, 16 or 32, §18.2.8),
/// the 32-bit one in f64 as `unorm32`; NaN → 0.
fn snorm_client(x: f32, bits: u32) -> i64 {
    let x = if x.is_nan() { 0.0 } else { x.clamp(-1.0, 1.0) };
    let max = ((1u64 << (bits - 1)) - 1) as f64;
    (x as f64 * max).round() as i64
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
        Format::Int(_) | Format::Snorm(_) | Format::Rgb10A2ui => {
            crate::sampler::encode_color(format, v, out)
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
        Format::Int(_) | Format::Snorm(_) | Format::Rgb10A2ui => {
            crate::sampler::decode_color(format, b)
        }
    }
}

/// Reads client component `c` of an integer pixel of type `ty` as i64.
fn read_int_component(src: &[u8], ty: u32, c: usize) -> i64 {
    if ty == gl::UNSIGNED_INT_2_10_10_10_REV {
        return crate::sampler::format::decode_rgb10a2ui(src)
            .get(c)
            .map_or(0, |&x| x as i64);
    }
    let n = type_bytes(ty).unwrap_or(1);
    let Some(b) = src.get(c * n..c * n + n) else {
        return 0;
    };
    match ty {
        gl::BYTE => b[0] as i8 as i64,
        gl::UNSIGNED_BYTE => b[0] as i64,
        gl::SHORT => i16::from_le_bytes([b[0], b[1]]) as i64,
        gl::UNSIGNED_SHORT => u16::from_le_bytes([b[0], b[1]]) as i64,
        gl::INT => i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64,
        _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64,
    }
}

/// Writes `v` as client component `c` of type `ty`, clamped to the type's range.
fn write_int_component(dst: &mut [u8], ty: u32, c: usize, v: i64) {
    let n = type_bytes(ty).unwrap_or(1);
    let (lo, hi) = match ty {
        gl::BYTE => (i8::MIN as i64, i8::MAX as i64),
        gl::UNSIGNED_BYTE => (0, u8::MAX as i64),
        gl::SHORT => (i16::MIN as i64, i16::MAX as i64),
        gl::UNSIGNED_SHORT => (0, u16::MAX as i64),
        gl::INT => (i32::MIN as i64, i32::MAX as i64),
        _ => (0, u32::MAX as i64),
    };
    let bytes = (v.clamp(lo, hi) as u64).to_le_bytes();
    if let Some(d) = dst.get_mut(c * n..c * n + n) {
        d.copy_from_slice(&bytes[..n]);
    }
}

/// One client integer pixel → one stored integer texel: missing channels (0, 0, 0, 1),
/// each value clamped to the format's range (GL 4.5 core §8.4.4; as Mesa converts).
fn unpack_int_texel(f: crate::sampler::IntFormat, p: &[u8], ty: u32, n: usize, out: &mut [u8]) {
    let mut v = [0i64, 0, 0, 1];
    for (c, slot) in v.iter_mut().enumerate().take(n) {
        *slot = read_int_component(p, ty, c);
    }
    let (lo, hi) = f.range();
    let bits = v.map(|x| x.clamp(lo, hi) as i32 as u32);
    crate::sampler::encode_int(f, bits, out);
}

/// Converts a 2D client image (`w`×`h` under `store`) into `format` storage bytes (tightly
/// packed rows).
pub fn unpack(
    ifmt: InternalFormat,
    gl_format: u32,
    ty: u32,
    w: usize,
    h: usize,
    src: &[u8],
    store: &PixelStore,
) -> GlResult<Vec<u8>> {
    unpack_box(ifmt, gl_format, ty, [w, h, 1], src, store, false)
}

/// Converts a 3D client box (`[w, h, d]` under `store`, IMAGE_HEIGHT and SKIP_IMAGES
/// included) into `format` storage bytes, image after image.
pub fn unpack_3d(
    ifmt: InternalFormat,
    gl_format: u32,
    ty: u32,
    size: [usize; 3],
    src: &[u8],
    store: &PixelStore,
) -> GlResult<Vec<u8>> {
    unpack_box(ifmt, gl_format, ty, size, src, store, true)
}

fn unpack_box(
    ifmt: InternalFormat,
    gl_format: u32,
    ty: u32,
    [w, h, d]: [usize; 3],
    src: &[u8],
    store: &PixelStore,
    three_d: bool,
) -> GlResult<Vec<u8>> {
    let format = ifmt.storage;
    let pixel = check_pair(format, gl_format, ty)?;
    let n = components(gl_format)?;
    let layout = client_layout(store, [w, h, d], gl_format, ty, three_d)?;
    debug_assert_eq!(layout.pixel, pixel);
    if src.len() < layout.len {
        return Err(GlError::InvalidValue(
            "pixel data is shorter than the image",
        ));
    }
    let bpt = format.bytes_per_texel();
    let size = w
        .checked_mul(h)
        .and_then(|n| n.checked_mul(d))
        .and_then(|n| n.checked_mul(bpt))
        .ok_or(GlError::OutOfMemory("texture image size overflows"))?;
    let mut out = Vec::new();
    out.try_reserve_exact(size)
        .map_err(|_| GlError::OutOfMemoryFor(size as u64, "bytes of texture image"))?;
    out.resize(size, 0);
    if size == 0 {
        return Ok(out);
    }
    let direct = ty == gl::UNSIGNED_BYTE && gl_format == gl::RGBA && ifmt.is_plain_rgba8();
    // One pixel with its bytes swapped (GL_UNPACK_SWAP_BYTES): at most 4 components of 4
    // bytes, or a packed group of 8.
    let mut swapped = [0u8; 16];
    for z in 0..d {
        for y in 0..h {
            let row = &src[layout.row(y, z)..];
            let texel_row = (z * h + y) * w;
            if direct {
                out[texel_row * 4..(texel_row + w) * 4].copy_from_slice(&row[..w * 4]);
                continue;
            }
            for x in 0..w {
                let mut p = &row[x * pixel..(x + 1) * pixel];
                if layout.swap > 1 {
                    swapped[..pixel].copy_from_slice(p);
                    layout.swap_in_place(&mut swapped[..pixel]);
                    p = &swapped[..pixel];
                }
                let o = (texel_row + x) * bpt;
                unpack_texel(ifmt, p, ty, n, &mut out[o..o + bpt]);
            }
        }
    }
    Ok(out)
}

/// The snorm format of `format` when client components of `ty` are its own words (BYTE for
/// 8-bit, SHORT for 16-bit snorm): those move as they are, so every word, -128 and -32768
/// included, round-trips bit for bit (converting through eq. 2.2 and 2.4 would turn the
/// most negative word into -max).
fn snorm_words(format: Format, ty: u32) -> Option<crate::sampler::SnormFormat> {
    match (format, ty) {
        (Format::Snorm(f), gl::BYTE) if f.bytes == 1 => Some(f),
        (Format::Snorm(f), gl::SHORT) if f.bytes == 2 => Some(f),
        _ => None,
    }
}

/// One client pixel of `n` snorm words → one stored texel: the words copied, channels the
/// client lacks filled with (0, 0, 0, 1) (GL 4.5 core table 8.10; 1 is the word `max`).
fn unpack_snorm_words(f: crate::sampler::SnormFormat, p: &[u8], n: usize, out: &mut [u8]) {
    let b = f.bytes as usize;
    for c in 0..f.channels as usize {
        let dst = &mut out[c * b..c * b + b];
        match p.get(c * b..c * b + b) {
            Some(src) if c < n => dst.copy_from_slice(src),
            _ => {
                let w: i32 = if c == 3 { f.max() } else { 0 };
                dst.copy_from_slice(&w.to_le_bytes()[..b]);
            }
        }
    }
}

/// One client pixel `p` (`n` components of `ty`) → one stored texel of `ifmt`.
fn unpack_texel(ifmt: InternalFormat, p: &[u8], ty: u32, n: usize, out: &mut [u8]) {
    let format = ifmt.storage;
    if let Format::Int(f) = format {
        unpack_int_texel(f, p, ty, n, out);
        return;
    }
    if format == Format::Rgb10A2ui {
        // The packed type is the stored word; other integer types fill (0, 0, 0, 1) and
        // clamp each value to its field.
        let mut v = [0u32, 0, 0, 1];
        for (c, slot) in v.iter_mut().enumerate().take(n) {
            *slot = read_int_component(p, ty, c).clamp(0, u32::MAX as i64) as u32;
        }
        let w = crate::sampler::format::pack_rgb10a2ui(v);
        out[..4].copy_from_slice(&w.to_le_bytes());
        return;
    }
    if let Some(f) = snorm_words(format, ty) {
        unpack_snorm_words(f, p, n, out);
        return;
    }
    let (v, stencil) = if ty == gl::UNSIGNED_INT_24_8 {
        let word = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
        // GL packs depth in the high 24 bits, stencil in the low 8.
        (
            [(word >> 8) as f32 / 16_777_215.0, 0.0, 0.0, 0.0],
            word as u8,
        )
    } else if ty == gl::FLOAT_32_UNSIGNED_INT_24_8_REV {
        // GL 4.5 core table 8.8: a float depth word, then a word whose low 8 bits
        // are the stencil index (the other 24 unused).
        let d = f32::from_le_bytes([p[0], p[1], p[2], p[3]]);
        (ifmt.apply([d, 0.0, 0.0, 0.0]), p[4])
    } else {
        let mut v = [0.0, 0.0, 0.0, 1.0];
        for (c, slot) in v.iter_mut().enumerate().take(n) {
            *slot = read_component(p, ty, c);
        }
        (ifmt.apply(v), 0)
    };
    encode_texel(format, v, stencil, out);
}

/// How a pack treats the box and its values beyond the pixel store: a 3D transfer (IMAGE_HEIGHT
/// and SKIP_IMAGES count) and GL_CLAMP_READ_COLOR.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PackMode {
    pub three_d: bool,
    /// Clamp colour values to [0, 1] before they are packed (glClampColor(GL_CLAMP_READ_COLOR)
    /// GL_TRUE, GL 4.5 core §18.2.8); fixed-point values are in range already, so only float
    /// images read as GL_FLOAT see it.
    pub clamp: bool,
}

/// Reads a rectangle of `image` into client memory (GL 4.5 core §18.2): GL_RGBA with
/// GL_UNSIGNED_BYTE or GL_FLOAT, GL_RGB/GL_RED likewise, GL_DEPTH_COMPONENT with GL_FLOAT.
/// Pixels outside the image read as zero. Rows are laid out by `store`; the buffer
/// returned reaches the end of the last row padded to the alignment.
#[allow(clippy::too_many_arguments)]
pub fn pack(
    image: &Image,
    x: i32,
    y: i32,
    w: usize,
    h: usize,
    gl_format: u32,
    ty: u32,
    store: &PixelStore,
    mode: PackMode,
) -> GlResult<Vec<u8>> {
    let mut out = Vec::new();
    let align = (store.alignment as usize).max(1);
    pack_box(
        image,
        [x, y, 0],
        [w, h, 1],
        gl_format,
        ty,
        store,
        mode,
        |len| {
            // The last row padded too: `len` rounded up to the alignment.
            let whole = len.div_ceil(align) * align;
            out.try_reserve_exact(whole)
                .map_err(|_| GlError::OutOfMemory("ReadPixels"))?;
            out.resize(whole, 0);
            Ok(&mut out[..])
        },
    )?;
    Ok(out)
}

/// [`pack_box`] of a 2D rectangle, with no clamping (downloads of one layer).
#[allow(clippy::too_many_arguments)]
pub fn pack_with<'o>(
    image: &Image,
    x: i32,
    y: i32,
    w: usize,
    h: usize,
    gl_format: u32,
    ty: u32,
    store: &PixelStore,
    out: impl FnOnce(usize) -> GlResult<&'o mut [u8]>,
) -> GlResult<()> {
    pack_box(
        image,
        [x, y, 0],
        [w, h, 1],
        gl_format,
        ty,
        store,
        PackMode::default(),
        out,
    )
}

/// Packs the box at `[x, y, z]` of `[w, h, d]` texels of `image` (z and d count its layers)
/// into memory the caller provides: `out(len)` is asked once, after every format/type check
/// passed, for the client memory of `len` bytes (`client_layout`'s: skips included, the last
/// row unpadded). Only the pixels of the box are written; the padding and skipped bytes are
/// not touched, as in GL. RGBA/UNSIGNED_BYTE from an 8-bit RGBA image copies each row's span
/// in one go.
#[allow(clippy::too_many_arguments)]
pub fn pack_box<'o>(
    image: &Image,
    origin: [i32; 3],
    size: [usize; 3],
    gl_format: u32,
    ty: u32,
    store: &PixelStore,
    mode: PackMode,
    out: impl FnOnce(usize) -> GlResult<&'o mut [u8]>,
) -> GlResult<()> {
    let n = components(gl_format)?;
    let walk = |pixel| Walk {
        origin,
        size,
        layout_of: (store, gl_format, ty, mode.three_d),
        pixel,
    };
    if matches!(gl_format, gl::DEPTH_STENCIL | gl::STENCIL_INDEX) || ty == gl::UNSIGNED_INT_24_8 {
        return pack_stencil(image, walk, gl_format, ty, out);
    }
    if is_integer_format(gl_format) != image.format().is_integer() {
        // GL 4.5 core §18.2.8 (ReadPixels) and §8.11.4 (GetTexImage): INVALID_OPERATION.
        return Err(GlError::InvalidOperation(
            "an integer image reads with an *_INTEGER format, and only it does",
        ));
    }
    if image.format() == Format::Rgb10A2ui {
        check_format_type(gl_format, ty)?;
        let packed = ty == gl::UNSIGNED_INT_2_10_10_10_REV;
        let pixel = if packed { 4 } else { n * type_bytes(ty)? };
        if packed {
            return pack_texels(image, walk(pixel), None, out);
        }
        return pack_texels(
            image,
            walk(pixel),
            Some(&mut |texel: &[u8], out: &mut [u8]| {
                let v = crate::sampler::format::decode_rgb10a2ui(texel);
                for (c, &x) in v.iter().enumerate().take(n) {
                    write_int_component(out, ty, c, x as i64);
                }
            }),
            out,
        );
    }
    if let Format::Int(f) = image.format() {
        check_format_type(gl_format, ty)?;
        let pixel = n * type_bytes(ty)?;
        return pack_texels(
            image,
            walk(pixel),
            Some(&mut |texel: &[u8], out: &mut [u8]| {
                let v = crate::sampler::decode_int(f, texel);
                for (c, &word) in v.iter().enumerate().take(n) {
                    let x = if f.signed {
                        word as i32 as i64
                    } else {
                        word as i64
                    };
                    write_int_component(out, ty, c, x);
                }
            }),
            out,
        );
    }
    let packed_rgba = gl_format == gl::RGBA && ty == gl::UNSIGNED_INT_2_10_10_10_REV;
    let plain = matches!(
        ty,
        gl::UNSIGNED_BYTE
            | gl::BYTE
            | gl::UNSIGNED_SHORT
            | gl::SHORT
            | gl::UNSIGNED_INT
            | gl::INT
            | gl::HALF_FLOAT
            | gl::FLOAT
    );
    if !plain && !packed_rgba {
        return Err(GlError::InvalidEnum("unsupported ReadPixels format/type"));
    }
    if (gl_format == gl::DEPTH_COMPONENT) != image.format().is_depth() {
        return Err(GlError::InvalidOperation(
            "ReadPixels format does not match the read buffer",
        ));
    }
    let pixel = if ty == gl::UNSIGNED_INT_2_10_10_10_REV {
        4
    } else {
        n * type_bytes(ty)?
    };
    // RGBA/UNSIGNED_BYTE from an 8-bit RGBA image: decode + unorm8 gives back the stored
    // bytes (every one of the 256 values; tested), so rows are copied as they are.
    let stored = matches!(image.format(), Format::Rgba8 | Format::Srgb8Alpha8)
        && gl_format == gl::RGBA
        && ty == gl::UNSIGNED_BYTE;
    if stored {
        return pack_texels(image, walk(pixel), None, out);
    }
    let format = image.format();
    // A snorm image read as its own word type: the words as stored (see `snorm_words`).
    if let Some(f) = snorm_words(format, ty) {
        let b = f.bytes as usize;
        return pack_texels(
            image,
            walk(pixel),
            Some(&mut |texel: &[u8], out: &mut [u8]| {
                for c in 0..n {
                    let dst = &mut out[c * b..c * b + b];
                    match texel.get(c * b..c * b + b) {
                        Some(src) if c < f.channels as usize => dst.copy_from_slice(src),
                        _ => {
                            let w: i32 = if c == 3 { f.max() } else { 0 };
                            dst.copy_from_slice(&w.to_le_bytes()[..b]);
                        }
                    }
                }
            }),
            out,
        );
    }
    let clamp = mode.clamp && !format.is_depth();
    pack_texels(
        image,
        walk(pixel),
        Some(&mut |texel: &[u8], out: &mut [u8]| {
            let v = decode_texel(format, texel);
            if ty == gl::UNSIGNED_INT_2_10_10_10_REV {
                // Eq. 2.3 per field, R in the low bits (table 8.7).
                let field = |x: f32, max: f32| {
                    let x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
                    (x * max).round_ties_even() as u32
                };
                let w = field(v[0], 1023.0)
                    | field(v[1], 1023.0) << 10
                    | field(v[2], 1023.0) << 20
                    | field(v[3], 3.0) << 30;
                out[..4].copy_from_slice(&w.to_le_bytes());
                return;
            }
            for c in 0..n {
                match ty {
                    gl::UNSIGNED_BYTE => out[c] = unorm8(v[c]),
                    gl::BYTE => out[c] = snorm_client(v[c], 8) as i8 as u8,
                    gl::SHORT => out[c * 2..c * 2 + 2]
                        .copy_from_slice(&(snorm_client(v[c], 16) as i16).to_le_bytes()),
                    gl::INT => out[c * 4..c * 4 + 4]
                        .copy_from_slice(&(snorm_client(v[c], 32) as i32).to_le_bytes()),
                    gl::HALF_FLOAT => {
                        let x = if clamp { v[c].clamp(0.0, 1.0) } else { v[c] };
                        out[c * 2..c * 2 + 2].copy_from_slice(&f16::from_f32(x).to_le_bytes())
                    }
                    gl::UNSIGNED_SHORT => {
                        out[c * 2..c * 2 + 2].copy_from_slice(&unorm16(v[c]).to_le_bytes())
                    }
                    gl::UNSIGNED_INT => {
                        out[c * 4..c * 4 + 4].copy_from_slice(&unorm32(v[c]).to_le_bytes())
                    }
                    _ => {
                        // NaN stays NaN under clamping to [0, 1] (f32::clamp), as Mesa's.
                        let x = if clamp { v[c].clamp(0.0, 1.0) } else { v[c] };
                        out[c * 4..c * 4 + 4].copy_from_slice(&x.to_le_bytes())
                    }
                }
            }
        }),
        out,
    )
}

/// Converts one stored texel into one client pixel.
type PutTexel<'a> = &'a mut dyn FnMut(&[u8], &mut [u8]);

/// The box a pack walks and how its client memory is laid out.
struct Walk<'s> {
    origin: [i32; 3],
    size: [usize; 3],
    /// Pixel store, format, type and whether the transfer is 3D: `client_layout`'s inputs.
    layout_of: (&'s PixelStore, u32, u32, bool),
    /// Bytes per client pixel.
    pixel: usize,
}

/// The walk every packer shares: `d` images of `h` rows of `w` pixels of `pixel` bytes,
/// placed by the pixel store, written into the memory `out(len)` gives, with `put(texel
/// bytes, pixel bytes)` called for each pixel inside the image; pixels outside it are
/// zeroed, the padding is left alone. With no `put` the client pixel is the stored texel
/// (`pixel` = bytes per texel) and each row's span inside the image is one copy. Only the
/// rows and columns read are copied out of the image; with SWAP_BYTES each row's pixels are
/// swapped after they are written.
fn pack_texels<'o>(
    image: &Image,
    walk: Walk<'_>,
    mut put: Option<PutTexel<'_>>,
    out: impl FnOnce(usize) -> GlResult<&'o mut [u8]>,
) -> GlResult<()> {
    let Walk {
        origin: [x, y, z],
        size: [w, h, d],
        layout_of: (store, format, ty, three_d),
        pixel,
    } = walk;
    let layout = client_layout(store, [w, h, d], format, ty, three_d)?;
    let layout = ClientLayout { pixel, ..layout };
    let len = layout.len;
    let out = out(len)?;
    if len == 0 {
        return Ok(());
    }
    let out = out
        .get_mut(..len)
        .ok_or(GlError::InvalidOperation("the pixel buffer is too small"))?;
    let row_bytes = w * pixel;
    let bpt = image.format().bytes_per_texel();
    debug_assert!(
        put.is_some() || pixel == bpt,
        "a raw copy needs the stored layout"
    );
    // The layers of a 2D array level are stacked: layer l's row r is image row l·height + r.
    let (iw, ih, layers) = (
        image.width() as i64,
        image.height() as i64,
        image.depth() as i64,
    );
    // The columns of the rectangle inside the image: [c0, c1).
    let c0 = (-(x as i64)).clamp(0, w as i64) as usize;
    let c1 = (iw - x as i64).clamp(c0 as i64, w as i64) as usize;
    let mut span = Vec::new();
    for l in 0..d {
        let layer = z as i64 + l as i64;
        for row in 0..h {
            let at = layout.row(row, l);
            let dst = &mut out[at..at + row_bytes];
            let sy = y as i64 + row as i64;
            if sy < 0 || sy >= ih || layer < 0 || layer >= layers || c0 == c1 {
                dst.fill(0);
                continue;
            }
            dst[..c0 * pixel].fill(0);
            dst[c1 * pixel..].fill(0);
            let inside = &mut dst[c0 * pixel..c1 * pixel];
            let src = (((layer * ih + sy) * iw + x as i64 + c0 as i64) as usize) * bpt;
            match put.as_mut() {
                None => {
                    image.read_bytes(src, inside);
                }
                Some(put) => {
                    span.resize((c1 - c0) * bpt, 0);
                    image.read_bytes(src, &mut span);
                    for (texel, px) in span.chunks_exact(bpt).zip(inside.chunks_exact_mut(pixel)) {
                        put(texel, px);
                    }
                }
            }
            layout.swap_in_place(dst);
        }
    }
    Ok(())
}

/// ReadPixels of stencil indices (UNSIGNED_BYTE or FLOAT) or packed depth/stencil
/// (DEPTH_STENCIL with UNSIGNED_INT_24_8: depth in bits 31..8, stencil in 7..0, GL 4.5 core
/// table 8.8) from a D24S8 image.
fn pack_stencil<'o, 's>(
    image: &Image,
    walk: impl FnOnce(usize) -> Walk<'s>,
    gl_format: u32,
    ty: u32,
    out: impl FnOnce(usize) -> GlResult<&'o mut [u8]>,
) -> GlResult<()> {
    let pixel = match (gl_format, ty) {
        (gl::DEPTH_STENCIL, gl::UNSIGNED_INT_24_8) => 4,
        (gl::STENCIL_INDEX, gl::UNSIGNED_BYTE) => 1,
        (gl::STENCIL_INDEX, gl::FLOAT) => 4,
        // GL 4.5 core §18.2.2: DEPTH_STENCIL takes only the packed types, and the packed
        // types only DEPTH_STENCIL; FLOAT_32_UNSIGNED_INT_24_8_REV needs a 32F+8 buffer,
        // which softgl does not have.
        (gl::DEPTH_STENCIL, _) | (_, gl::UNSIGNED_INT_24_8) => {
            return Err(GlError::InvalidOperation(
                "DEPTH_STENCIL goes with UNSIGNED_INT_24_8 only",
            ))
        }
        _ => return Err(GlError::InvalidEnum("unsupported ReadPixels format/type")),
    };
    if image.format() != Format::Depth24Stencil8 {
        return Err(GlError::InvalidOperation(
            "the read framebuffer has no stencil buffer",
        ));
    }
    pack_texels(
        image,
        walk(pixel),
        Some(&mut |t: &[u8], out: &mut [u8]| {
            let word = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
            let (depth, stencil) = (word & 0xFF_FFFF, word >> 24);
            match (gl_format, ty) {
                (gl::DEPTH_STENCIL, _) => {
                    out.copy_from_slice(&((depth << 8) | stencil).to_le_bytes())
                }
                (_, gl::UNSIGNED_BYTE) => out[0] = stencil as u8,
                _ => out.copy_from_slice(&(stencil as f32).to_le_bytes()),
            }
        }),
        out,
    )
}

/// The next mip level of `src` (GL 4.5 core §8.14.4): each size halved with floor, at least 1;
/// each texel the mean of the 2×2 (or fewer, at odd edges) texels it covers. sRGB images are
/// averaged in their encoded values (a known deviation: GL recommends linear averaging).
pub fn next_level(src: &Image) -> Image {
    let (sw, sh) = (src.width() as usize, src.height() as usize);
    let (w, h) = ((sw / 2).max(1), (sh / 2).max(1));
    let f = src.format();
    let bpt = f.bytes_per_texel();
    let all = src.to_bytes();
    let layers = src.depth() as usize;
    let mut out = vec![0u8; w * h * bpt * layers];
    // Each layer of a 2D array is filtered on its own (GL 4.5 core §8.14.4).
    for layer in 0..layers {
        let bytes = &all[layer * sw * sh * bpt..(layer + 1) * sw * sh * bpt];
        let out = &mut out[layer * w * h * bpt..(layer + 1) * w * h * bpt];
        next_layer(bytes, out, f, [sw, sh], [w, h]);
    }
    let mut img = Image::new_layers(w as u32, h as u32, layers as u32, f);
    img.write_bytes(0, &out);
    img
}

/// One layer of `next_level`.
fn next_layer(bytes: &[u8], out: &mut [u8], f: Format, [sw, sh]: [usize; 2], [w, h]: [usize; 2]) {
    let bpt = f.bytes_per_texel();
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
        let out = unpack(
            internal_format(gl::RGBA8).unwrap(),
            gl::RGB,
            gl::UNSIGNED_BYTE,
            3,
            2,
            &src,
            &PixelStore::aligned(4),
        )
        .unwrap();
        assert_eq!(&out[0..4], &[255, 0, 0, 255]);
        assert_eq!(&out[12..16], &[0, 255, 0, 255]);
        assert!(unpack(
            internal_format(gl::RGBA8).unwrap(),
            gl::RGB,
            gl::UNSIGNED_BYTE,
            3,
            2,
            &src[..20],
            &PixelStore::aligned(4)
        )
        .is_err());
        let f = unpack(
            internal_format(gl::RGBA8).unwrap(),
            gl::RED,
            gl::FLOAT,
            1,
            1,
            &0.5f32.to_le_bytes(),
            &PixelStore::aligned(4),
        )
        .unwrap();
        assert_eq!(f, vec![128, 0, 0, 255]);
        assert_eq!(
            unpack(
                internal_format(gl::RGBA8).unwrap(),
                gl::DEPTH_COMPONENT,
                gl::FLOAT,
                1,
                1,
                &[0; 4],
                &PixelStore::aligned(4)
            ),
            Err(GlError::InvalidOperation(
                "pixel format does not match the depth-ness of the internal format"
            ))
        );
    }

    #[test]
    fn emulated_formats_default_and_quantize() {
        let px: Vec<u8> = [0.6f32, 0.4, 0.2, 0.8]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let rgb8 = internal_format(gl::RGB8).unwrap();
        let out = unpack(
            rgb8,
            gl::RGBA,
            gl::FLOAT,
            1,
            1,
            &px,
            &PixelStore::aligned(4),
        )
        .unwrap();
        assert_eq!(out, vec![153, 102, 51, 255], "RGB8 reads alpha 1");
        let r16f = internal_format(gl::R16F).unwrap();
        let out = unpack(
            r16f,
            gl::RGBA,
            gl::FLOAT,
            1,
            1,
            &px,
            &PixelStore::aligned(4),
        )
        .unwrap();
        assert_eq!(
            decode_texel(Format::Rgba16F, &out),
            [f16::from_f32(0.6).to_f32(), 0.0, 0.0, 1.0]
        );
        let rgba4 = internal_format(gl::RGBA4).unwrap();
        let px: Vec<u8> = [0.5f32, 0.0, 1.0, 0.3]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let out = unpack(
            rgba4,
            gl::RGBA,
            gl::FLOAT,
            1,
            1,
            &px,
            &PixelStore::aligned(4),
        )
        .unwrap();
        // 0.5 → 8/15 → 136; 0.3 → 4/15 (round(4.5) to even = 4) → 68.
        assert_eq!(out, vec![136, 0, 255, 68]);
        let snorm = internal_format(gl::RGB16_SNORM).unwrap();
        assert!(snorm.sized);
        assert_eq!(snorm.component_type(), gl::SIGNED_NORMALIZED);
        assert_eq!(snorm.component_sizes(), [16, 16, 16, 0, 0, 0]);
        assert!(!internal_format(gl::RGBA).unwrap().sized);
    }

    #[test]
    fn stored_rgba8_readback_equals_the_conversion() {
        // The raw-copy path rests on this: every byte decodes and re-encodes to itself.
        for b in 0..=255u8 {
            assert_eq!(unorm8(decode_texel(Format::Rgba8, &[b, 0, 0, 0])[0]), b);
        }
        // Stored path (RGBA/UNSIGNED_BYTE) against the general one (RGB then padded by hand),
        // for a rectangle hanging over every edge of the image.
        let mut img = Image::new(3, 2, Format::Rgba8);
        let bytes: Vec<u8> = (0..24).map(|i| i * 10 + 1).collect();
        img.write_bytes(0, &bytes);
        let got = pack(
            &img,
            -1,
            -1,
            5,
            4,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            &PixelStore::aligned(4),
            PackMode::default(),
        )
        .unwrap();
        let rgb = pack(
            &img,
            -1,
            -1,
            5,
            4,
            gl::RGB,
            gl::UNSIGNED_BYTE,
            &PixelStore::aligned(1),
            PackMode::default(),
        )
        .unwrap();
        assert_eq!(got.len(), 5 * 4 * 4);
        for row in 0..4 {
            for col in 0..5 {
                let inside = (1..4).contains(&col) && (1..3).contains(&row);
                let px = &got[(row * 5 + col) * 4..][..4];
                let want: Vec<u8> = if inside {
                    bytes[((row - 1) * 3 + col - 1) * 4..][..4].to_vec()
                } else {
                    vec![0; 4]
                };
                assert_eq!(px, &want[..], "({col}, {row})");
                assert_eq!(&px[..3], &rgb[(row * 5 + col) * 3..][..3]);
            }
        }
        // Entirely outside: all zeros, no panic.
        assert_eq!(
            pack(
                &img,
                10,
                0,
                2,
                2,
                gl::RGBA,
                gl::UNSIGNED_BYTE,
                &PixelStore::aligned(4),
                PackMode::default()
            )
            .unwrap(),
            vec![0; 16]
        );
    }

    #[test]
    fn pack_pads_rows_and_converts() {
        let mut img = Image::new(2, 2, Format::Rgba8);
        img.write_bytes(0, &[10, 20, 30, 40, 50, 60, 70, 80, 1, 2, 3, 4, 5, 6, 7, 8]);
        let rgb = pack(
            &img,
            0,
            0,
            2,
            2,
            gl::RGB,
            gl::UNSIGNED_BYTE,
            &PixelStore::aligned(4),
            PackMode::default(),
        )
        .unwrap();
        assert_eq!(rgb.len(), 16);
        assert_eq!(&rgb[0..6], &[10, 20, 30, 50, 60, 70]);
        assert_eq!(&rgb[8..14], &[1, 2, 3, 5, 6, 7]);
        let f = pack(
            &img,
            1,
            1,
            1,
            1,
            gl::RGBA,
            gl::FLOAT,
            &PixelStore::aligned(4),
            PackMode::default(),
        )
        .unwrap();
        assert_eq!(f32::from_le_bytes([f[0], f[1], f[2], f[3]]), 5.0 / 255.0);
        // Outside the image: zeros.
        assert_eq!(
            pack(
                &img,
                5,
                5,
                1,
                1,
                gl::RGBA,
                gl::UNSIGNED_BYTE,
                &PixelStore::aligned(1),
                PackMode::default()
            )
            .unwrap(),
            vec![0; 4]
        );
    }

    /// GL 4.5 core §8.4.4.1: where each row and image of a client box starts, and how far
    /// the box reaches, under every parameter.
    #[test]
    fn client_layout_counts_skips_row_length_and_image_height() {
        let store = PixelStore {
            row_length: 10,
            image_height: 6,
            skip_rows: 2,
            skip_pixels: 3,
            skip_images: 1,
            alignment: 8,
            swap_bytes: true,
            lsb_first: false,
            compressed_block: [0; 4],
        };
        // RGB bytes: rows of 30 bytes padded to 32; images of 6 rows.
        let l = client_layout(&store, [4, 3, 2], gl::RGB, gl::UNSIGNED_BYTE, true).unwrap();
        assert_eq!((l.pixel, l.row_stride, l.image_stride), (3, 32, 192));
        assert_eq!(l.start, 192 + 2 * 32 + 3 * 3);
        assert_eq!(l.len, l.start + 192 + 2 * 32 + 4 * 3);
        assert_eq!(l.row(1, 1), l.start + 192 + 32);
        assert_eq!(l.swap, 1, "bytes are not swapped");
        // 2D: IMAGE_HEIGHT and SKIP_IMAGES do not count.
        let l2 = client_layout(&store, [4, 3, 1], gl::RGB, gl::UNSIGNED_BYTE, false).unwrap();
        assert_eq!(l2.start, 2 * 32 + 3 * 3);
        // Shorts swap per component; an empty box reaches nothing.
        let l = client_layout(&store, [1, 1, 1], gl::RG, gl::UNSIGNED_SHORT, false).unwrap();
        assert_eq!(l.swap, 2);
        let mut px = [1, 2, 3, 4];
        l.swap_in_place(&mut px);
        assert_eq!(px, [2, 1, 4, 3]);
        let l = client_layout(&store, [0, 3, 1], gl::RGBA, gl::FLOAT, false).unwrap();
        assert_eq!(l.len, 0);
        // Unpack reads through the layout: a 1×2 RED/UNSIGNED_BYTE box of a 3-wide image.
        let s = PixelStore {
            row_length: 3,
            skip_pixels: 1,
            skip_rows: 1,
            alignment: 1,
            ..PixelStore::INITIAL
        };
        let src = [0, 1, 2, 10, 11, 12, 20, 21, 22];
        let r8 = internal_format(gl::R8).unwrap();
        assert_eq!(
            unpack(r8, gl::RED, gl::UNSIGNED_BYTE, 1, 2, &src, &s).unwrap(),
            vec![11, 21]
        );
        assert!(unpack(r8, gl::RED, gl::UNSIGNED_BYTE, 1, 2, &src[..7], &s).is_err());
    }

    #[test]
    fn next_level_box_filters_with_floor_sizes() {
        let mut img = Image::new(3, 1, Format::R8);
        img.write_bytes(0, &[0, 255, 100]);
        let l1 = next_level(&img);
        assert_eq!((l1.width(), l1.height()), (1, 1));
        assert_eq!(l1.to_bytes(), vec![128]);
    }

    /// Image sizes from the application are checked and allocated fallibly: a size no
    /// memory holds is GL_OUT_OF_MEMORY naming it, at once.
    #[test]
    fn image_sizes_past_memory_are_out_of_memory() {
        assert_eq!(
            new_image(1 << 30, 1 << 30, Format::Rgba8).map(|_| ()),
            Err(GlError::OutOfMemoryFor(1 << 62, "bytes of image storage"))
        );
        assert!(matches!(
            new_image(u32::MAX, u32::MAX, Format::Rgba8),
            Err(GlError::OutOfMemory(_)) | Err(GlError::OutOfMemoryFor(..))
        ));
        assert!(matches!(
            client_size(
                usize::MAX / 2,
                3,
                gl::RGBA,
                gl::FLOAT,
                &PixelStore::aligned(4)
            ),
            Err(GlError::OutOfMemory(_))
        ));
        assert_eq!(
            client_size(3, 2, gl::RGB, gl::UNSIGNED_BYTE, &PixelStore::aligned(4)),
            Ok(12 + 9)
        );
    }

    /// GL 4.5 core §8.4.4 table 8.5, every packed type against every format class.
    #[test]
    fn format_type_table() {
        let code = |f, t| check_format_type(f, t).map_err(GlError::code);
        assert_eq!(
            code(gl::RGBA, gl::UNSIGNED_SHORT_5_6_5),
            Err(gl::INVALID_OPERATION)
        );
        // The messages name both values (issue #10 item 3).
        assert_eq!(
            check_format_type(gl::RGB, gl::UNSIGNED_SHORT_5_6_5)
                .unwrap_err()
                .to_string(),
            "GL_INVALID_OPERATION: pixel format/type pair valid in GL but not supported by \
             softgl yet: format GL_RGB, type GL_UNSIGNED_SHORT_5_6_5"
        );
        assert_eq!(
            check_format_type(gl::RGBA, gl::UNSIGNED_SHORT_5_6_5)
                .unwrap_err()
                .to_string(),
            "GL_INVALID_OPERATION: packed pixel type with a format it does not fit (GL 4.5 \
             core table 8.5): format GL_RGBA, type GL_UNSIGNED_SHORT_5_6_5"
        );
        for ty in [
            gl::UNSIGNED_BYTE_3_3_2,
            gl::UNSIGNED_SHORT_5_6_5_REV,
            gl::UNSIGNED_INT_5_9_9_9_REV,
        ] {
            for f in [gl::RGBA, gl::RG, gl::RED, gl::BGRA, gl::DEPTH_COMPONENT] {
                assert_eq!(code(f, ty), Err(gl::INVALID_OPERATION), "{f:#x} {ty:#x}");
            }
        }
        for ty in [
            gl::UNSIGNED_SHORT_4_4_4_4,
            gl::UNSIGNED_INT_8_8_8_8_REV,
            gl::UNSIGNED_INT_2_10_10_10_REV,
        ] {
            for f in [gl::RGB, gl::RG, gl::RED, gl::BGR, gl::STENCIL_INDEX] {
                assert_eq!(code(f, ty), Err(gl::INVALID_OPERATION), "{f:#x} {ty:#x}");
            }
        }
        for ty in [gl::UNSIGNED_INT_24_8, gl::FLOAT_32_UNSIGNED_INT_24_8_REV] {
            assert_eq!(code(gl::RGBA, ty), Err(gl::INVALID_OPERATION));
        }
        assert_eq!(code(gl::DEPTH_STENCIL, gl::UNSIGNED_INT_24_8), Ok(()));
        assert_eq!(
            code(gl::DEPTH_STENCIL, gl::FLOAT),
            Err(gl::INVALID_OPERATION)
        );
        assert_eq!(
            code(gl::RGBA_INTEGER, gl::HALF_FLOAT),
            Err(gl::INVALID_OPERATION)
        );
        assert_eq!(code(gl::RGBA, gl::UNSIGNED_BYTE), Ok(()));
        assert_eq!(code(gl::RED, gl::FLOAT), Ok(()));
        // The signed types (snorm data, GL 4.5 core §8.4.4.2).
        for ty in [gl::BYTE, gl::SHORT, gl::INT] {
            assert_eq!(code(gl::RG, ty), Ok(()), "{ty:#x}");
        }
        assert_eq!(code(gl::RGBA, gl::TEXTURE_2D), Err(gl::INVALID_ENUM));
        assert_eq!(
            code(gl::TEXTURE_2D, gl::UNSIGNED_BYTE),
            Err(gl::INVALID_ENUM)
        );
    }
}
