//! Image units (GL 4.5 core §8.26): the GL_MAX_IMAGE_UNITS bindings that
//! glBindImageTexture and glBindImageTextures set (texture, level, layered, layer, access,
//! format), their glGetIntegeri_v / glGetBooleani_v queries (table 23.45), the formats
//! an image unit may name (table 8.26) with the size and class the format-compatibility
//! rules compare, and what a draw or dispatch makes of the units: one
//! `sampler::storage_image::ImageView` per usable unit (a copy of the bound level's layers
//! in the texture's format, as 32-bit words), handed to the shaders in the draw's
//! `SampleContext`, and written back into the texture after a draw whose program writes
//! (`images_for_draw`, `write_back_images`; the memory model is `storage_image`'s).

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use crate::api::context::Context;
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::{BufferName, TextureName};
use crate::gl::enums as gl;
use crate::sampler::storage_image::{unit_handle, ImageFormat, ImageSet, ImageView};
use crate::sampler::{Format, Image, SampleContext};

/// GL_MAX_IMAGE_UNITS (GL 4.5 core table 23.64's minimum), as gl_MaxImageUnits says.
pub const MAX_IMAGE_UNITS: u32 = crate::glsl::builtin_constants::MAX_IMAGE_UNITS;

/// One image unit's state; the initial values are table 23.45's.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ImageUnit {
    pub texture: Option<TextureName>,
    pub level: i32,
    pub layered: bool,
    pub layer: i32,
    pub access: u32,
    pub format: u32,
}

impl Default for ImageUnit {
    fn default() -> Self {
        ImageUnit {
            texture: None,
            level: 0,
            layered: false,
            layer: 0,
            access: gl::READ_ONLY,
            format: gl::R8,
        }
    }
}

/// How texels of a format compare for image format compatibility (GL 4.5 core §8.26.1):
/// by size in bits, or by class (the bits of each component).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ImageFormatInfo {
    pub bits: u32,
    /// Table 8.27's class: `[r, g, b, a]` component sizes.
    pub class: [u8; 4],
}

/// Table 8.26: the formats of image units, each with its texel size and class.
pub(crate) fn image_format(format: u32) -> Option<ImageFormatInfo> {
    let c = |bits, class| Some(ImageFormatInfo { bits, class });
    match format {
        gl::RGBA32F | gl::RGBA32UI | gl::RGBA32I => c(128, [32, 32, 32, 32]),
        gl::RGBA16F | gl::RGBA16UI | gl::RGBA16I | gl::RGBA16 | gl::RGBA16_SNORM => {
            c(64, [16, 16, 16, 16])
        }
        gl::RG32F | gl::RG32UI | gl::RG32I => c(64, [32, 32, 0, 0]),
        gl::RG16F | gl::RG16UI | gl::RG16I | gl::RG16 | gl::RG16_SNORM => c(32, [16, 16, 0, 0]),
        gl::R11F_G11F_B10F => c(32, [11, 11, 10, 0]),
        gl::R32F | gl::R32UI | gl::R32I => c(32, [32, 0, 0, 0]),
        gl::R16F | gl::R16UI | gl::R16I | gl::R16 | gl::R16_SNORM => c(16, [16, 0, 0, 0]),
        gl::RGB10_A2UI | gl::RGB10_A2 => c(32, [10, 10, 10, 2]),
        gl::RGBA8UI | gl::RGBA8I | gl::RGBA8 | gl::RGBA8_SNORM => c(32, [8, 8, 8, 8]),
        gl::RG8UI | gl::RG8I | gl::RG8 | gl::RG8_SNORM => c(16, [8, 8, 0, 0]),
        gl::R8UI | gl::R8I | gl::R8 | gl::R8_SNORM => c(8, [8, 0, 0, 0]),
        _ => None,
    }
}

/// Whether a texture's target has layers an image unit may bind whole (`layered`): array,
/// cube map, cube map array and 3D textures (GL 4.5 core §8.26).
pub(crate) fn is_layered_target(target: Option<u32>) -> bool {
    matches!(
        target,
        Some(
            gl::TEXTURE_1D_ARRAY
                | gl::TEXTURE_2D_ARRAY
                | gl::TEXTURE_3D
                | gl::TEXTURE_CUBE_MAP
                | gl::TEXTURE_CUBE_MAP_ARRAY
                | gl::TEXTURE_2D_MULTISAMPLE_ARRAY
        )
    )
}

gl_commands! {
    /// glBindImageTexture (GL 4.5 core §8.26).
    #[allow(clippy::too_many_arguments)]
    "glBindImageTexture"
    fn bind_image_texture(
        unit: u32,
        texture: u32,
        level: i32,
        layered: bool,
        layer: i32,
        access: u32,
        format: u32
    ) = try_bind_image_texture;
    /// glBindImageTextures (GL 4.5 core §8.26, ARB_multi_bind): `textures` None unbinds the
    /// `count` units.
    "glBindImageTextures"
    fn bind_image_textures(first: u32, count: i32, textures: Option<&[u32]>)
        = try_bind_image_textures;
}

impl Context {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_bind_image_texture(
        &mut self,
        unit: u32,
        texture: u32,
        level: i32,
        layered: bool,
        layer: i32,
        access: u32,
        format: u32,
    ) -> GlResult<()> {
        if unit >= MAX_IMAGE_UNITS {
            return Err(GlError::InvalidValue("unit past GL_MAX_IMAGE_UNITS"));
        }
        let name = TextureName(texture);
        if texture != 0 && self.objs.textures.get(name).is_none() {
            return Err(GlError::InvalidValue(
                "texture is not the name of an existing texture object",
            ));
        }
        if level < 0 {
            return Err(GlError::InvalidValue("negative level"));
        }
        if layer < 0 {
            return Err(GlError::InvalidValue("negative layer"));
        }
        if !matches!(access, gl::READ_ONLY | gl::WRITE_ONLY | gl::READ_WRITE) {
            return Err(GlError::BadEnum("image access", access));
        }
        if image_format(format).is_none() {
            return Err(GlError::InvalidValue("format is not an image unit format"));
        }
        self.image_units[unit as usize] = if texture == 0 {
            ImageUnit::default()
        } else {
            ImageUnit {
                texture: Some(name),
                level,
                layered,
                layer,
                access,
                format,
            }
        };
        Ok(())
    }

    pub(crate) fn try_bind_image_textures(
        &mut self,
        first: u32,
        count: i32,
        textures: Option<&[u32]>,
    ) -> GlResult<()> {
        if count < 0 {
            return Err(GlError::InvalidValue("negative count"));
        }
        let n = count as usize;
        if first as u64 + n as u64 > MAX_IMAGE_UNITS as u64 {
            return Err(GlError::InvalidOperation(
                "first + count past GL_MAX_IMAGE_UNITS",
            ));
        }
        if textures.is_some_and(|t| t.len() < n) {
            return Err(GlError::InvalidValue("textures shorter than count"));
        }
        // Each entry binds level 0, the whole texture when it has layers, READ_WRITE, in
        // level 0's internal format; an entry that fails leaves its unit alone and the
        // others are still bound, the first error is the command's (GL 4.5 core §8.26).
        let mut first_error = None;
        for k in 0..n {
            let unit = first as usize + k;
            let texture = textures.map_or(0, |t| t[k]);
            if texture == 0 {
                self.image_units[unit] = ImageUnit::default();
                continue;
            }
            let name = TextureName(texture);
            let Some(t) = self.objs.textures.get(name) else {
                first_error.get_or_insert(GlError::InvalidOperation(
                    "a texture is not the name of an existing texture object",
                ));
                continue;
            };
            let format = t.level_format(0).map(|f| f.gl);
            let Some(format) = format.filter(|f| image_format(*f).is_some()) else {
                first_error.get_or_insert(GlError::InvalidOperation(
                    "a texture's level 0 has no image unit format",
                ));
                continue;
            };
            self.image_units[unit] = ImageUnit {
                texture: Some(name),
                level: 0,
                layered: is_layered_target(t.target),
                layer: 0,
                access: gl::READ_WRITE,
                format,
            };
        }
        first_error.map_or(Ok(()), Err)
    }

    /// glGetIntegeri_v / glGetBooleani_v of the GL_IMAGE_BINDING_* state (table 23.45),
    /// `None` for other names.
    pub(crate) fn image_binding_value(&self, pname: u32, index: u32) -> Option<GlResult<i64>> {
        let pick = |u: &ImageUnit| -> i64 {
            match pname {
                gl::IMAGE_BINDING_NAME => u.texture.map_or(0, |t| t.0 as i64),
                gl::IMAGE_BINDING_LEVEL => u.level as i64,
                gl::IMAGE_BINDING_LAYERED => u.layered as i64,
                gl::IMAGE_BINDING_LAYER => u.layer as i64,
                gl::IMAGE_BINDING_ACCESS => u.access as i64,
                _ => u.format as i64,
            }
        };
        match pname {
            gl::IMAGE_BINDING_NAME
            | gl::IMAGE_BINDING_LEVEL
            | gl::IMAGE_BINDING_LAYERED
            | gl::IMAGE_BINDING_LAYER
            | gl::IMAGE_BINDING_ACCESS
            | gl::IMAGE_BINDING_FORMAT => Some(
                self.image_units
                    .get(index as usize)
                    .map(pick)
                    .ok_or(GlError::InvalidValue("index past GL_MAX_IMAGE_UNITS")),
            ),
            _ => None,
        }
    }

    /// A deleted texture leaves every image unit it was bound to (GL 4.5 core §5.1.2).
    pub(crate) fn unbind_image_units(&mut self, name: TextureName) {
        for u in &mut self.image_units {
            if u.texture == Some(name) {
                *u = ImageUnit::default();
            }
        }
    }
}

/// Where a draw's copy of an image goes back to after a draw that writes.
#[derive(Clone, Debug, PartialEq)]
enum ImageDest {
    /// Layers `first..first + layers` of `level` (every sample of a multisample texture),
    /// stored as `stored`, whose texels the copy holds as `canonical`.
    Level {
        texture: TextureName,
        level: usize,
        first: u32,
        layers: u32,
        canonical: ImageFormat,
    },
    /// A buffer texture's range of its buffer (its bytes are the texels as they are).
    Buffer {
        name: BufferName,
        offset: usize,
        len: usize,
    },
}

/// One copy of image texels a draw reaches, with where it goes back.
pub(crate) struct ImageCopy {
    dest: ImageDest,
    words: Arc<[AtomicU32]>,
    /// The words as copied, for a draw that may write: only texels the shaders changed go
    /// back, so a unit the draw does not store to (or texels it leaves alone) never undo
    /// what the same draw rendered into that texture, or what later commands wrote.
    original: Vec<u32>,
}

/// What a draw or dispatch gets from the image units (`Context::images_for_draw`).
pub(crate) struct ImagesForDraw {
    /// The context's sample context, with the draw's images when it has any.
    pub sampler: Arc<SampleContext>,
    /// The copies to write back after the draw has run (empty unless the program writes).
    pub write_back: Vec<ImageCopy>,
}

/// `bytes` as 32-bit words (the last one zero-padded); GL_OUT_OF_MEMORY when they cannot be
/// had.
fn words_of(bytes: &[u8]) -> GlResult<Arc<[AtomicU32]>> {
    let n = bytes.len().div_ceil(4);
    let mut v: Vec<AtomicU32> = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| GlError::OutOfMemoryFor(bytes.len() as u64, "bytes"))?;
    v.extend(bytes.chunks(4).map(|c| {
        let mut w = [0u8; 4];
        w[..c.len()].copy_from_slice(c);
        AtomicU32::new(u32::from_le_bytes(w))
    }));
    Ok(v.into())
}

/// The bytes of `words` (as many as `len`).
/// The little-endian bytes of a copy's original words, `len` of them.
fn original_bytes(words: &[u32], len: usize) -> Vec<u8> {
    let mut out: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    out.resize(len, 0);
    out
}

fn bytes_of(words: &[AtomicU32], len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len);
    for w in words {
        out.extend_from_slice(&w.load(Ordering::Relaxed).to_le_bytes());
    }
    out.truncate(len);
    out
}

/// A stored texel of `stored` as `canonical`'s bits (the texture's internal format, which
/// softgl may store widened: RG16 as RGBA32F, R16F as RGBA16F, ...).
fn to_canonical(stored: Format, canonical: ImageFormat, texel: &[u8], out: &mut [u8]) {
    // A snorm texture's stored words are table 8.27's snorm layout (R8_SNORM … RGBA16_SNORM;
    // the RGB ones have no image format), RGB10_A2UI's word is `rgb10_a2ui`'s: copied, so
    // -128 stays -128.
    if matches!(stored, Format::Snorm(_) | Format::Rgb10A2ui) {
        let n = out.len().min(texel.len());
        out[..n].copy_from_slice(&texel[..n]);
        return;
    }
    let v = match stored {
        Format::Int(f) => crate::sampler::decode_int(f, texel),
        _ => crate::sampler::decode_color(stored, texel).map(f32::to_bits),
    };
    canonical.encode(v, out);
}

/// The reverse of `to_canonical`.
fn from_canonical(stored: Format, canonical: ImageFormat, texel: &[u8], out: &mut [u8]) {
    if matches!(stored, Format::Snorm(_) | Format::Rgb10A2ui) {
        let n = out.len().min(texel.len());
        out[..n].copy_from_slice(&texel[..n]);
        return;
    }
    let v = canonical.decode(texel);
    match stored {
        Format::Int(f) => crate::sampler::encode_int(f, v, out),
        _ => crate::sampler::encode_color(stored, v.map(f32::from_bits), out),
    }
}

impl Context {
    /// The sample context of a draw or dispatch of a program that uses images (`uses`):
    /// every image unit with a usable binding becomes a view (GL 4.5 core §8.26: the level
    /// exists, the texture's internal format is one of table 8.27's and has the unit
    /// format's texel size; anything else reads zero and drops stores), and when `writes`
    /// the copies come back for `write_back_images`. Flushes first: queued draws may render
    /// into the textures copied here.
    pub(crate) fn images_for_draw(&mut self, uses: bool, writes: bool) -> GlResult<ImagesForDraw> {
        let base = self.derived.sampler.clone();
        // Handles may reach a shader without an image uniform (uvec2 constructors, blocks).
        if !uses && self.resident_images.is_empty() {
            return Ok(ImagesForDraw {
                sampler: base,
                write_back: Vec::new(),
            });
        }
        let _ = self.flush_raster();
        let mut views = Vec::new();
        let mut copies: Vec<ImageCopy> = Vec::new();
        // Bound units, then resident bindless image handles (`bindless_image`).
        let units =
            (0..MAX_IMAGE_UNITS).map(|unit| (unit_handle(unit), self.image_units[unit as usize]));
        let all: Vec<(u64, ImageUnit)> = units.chain(self.resident_image_units()).collect();
        for (handle, u) in all {
            if let Some((dest, view)) = self.unit_view(&u, &copies)? {
                if !copies.iter().any(|c| c.dest == dest) {
                    copies.push(ImageCopy {
                        dest,
                        words: view.words.clone(),
                        original: if writes {
                            view.words
                                .iter()
                                .map(|w| w.load(Ordering::Relaxed))
                                .collect()
                        } else {
                            Vec::new()
                        },
                    });
                }
                views.push((handle, view));
            }
        }
        let sampler = Arc::new(SampleContext {
            images: Arc::new(ImageSet::new(views)),
            ..(*base).clone()
        });
        Ok(ImagesForDraw {
            sampler,
            write_back: if writes { copies } else { Vec::new() },
        })
    }

    /// The view of image unit `u`, and where its copy came from; `None` for an unusable
    /// unit. A copy already made for another unit of the same texels is shared, so two
    /// units bound to one level alias as in GL.
    fn unit_view(
        &self,
        u: &ImageUnit,
        copies: &[ImageCopy],
    ) -> GlResult<Option<(ImageDest, ImageView)>> {
        let Some(format) = ImageFormat::from_gl(u.format) else {
            return Ok(None);
        };
        let Some(tex) = u
            .texture
            .and_then(|n| self.objs.textures.get(n).map(|t| (n, t)))
        else {
            return Ok(None);
        };
        let (name, tex) = tex;
        let shared = |dest: &ImageDest| {
            copies
                .iter()
                .find(|c| c.dest == *dest)
                .map(|c| c.words.clone())
        };
        if let Some(b) = &tex.buffer {
            let Some(canonical) = ImageFormat::from_gl(b.internal_format) else {
                return Ok(None);
            };
            let Some(buf) = self.objs.buffers.get(b.name) else {
                return Ok(None);
            };
            if canonical.texel_bytes() != format.texel_bytes() || buf.blocks_draws() {
                return Ok(None);
            }
            let end = b
                .size
                .map_or(buf.data.len(), |n| (b.offset + n).min(buf.data.len()));
            let start = b.offset.min(end);
            let tb = format.texel_bytes() as usize;
            let texels = (end - start) / tb;
            let dest = ImageDest::Buffer {
                name: b.name,
                offset: start,
                len: texels * tb,
            };
            let words = match shared(&dest) {
                Some(w) => w,
                None => words_of(&buf.data[start..start + texels * tb])?,
            };
            let view = ImageView {
                words,
                width: texels as u32,
                height: 1,
                depth: 1,
                samples: 1,
                format,
                cube_array: false,
            };
            return Ok(Some((dest, view)));
        }
        // GL 4.5 core §8.26: an access through a unit whose level lies outside the
        // texture's base..=max levels, or whose texture is not complete, is invalid. As
        // Mesa reads it: the base level needs base-level completeness, the others mipmap
        // completeness; images are not filtered, so the filters take no part.
        let (base_level, max_level) = tex.level_range();
        if u.level < base_level || u.level > max_level {
            return Ok(None);
        }
        let base_only = crate::sampler::SamplerState {
            min_filter: crate::gl::MinFilter::Nearest,
            mag_filter: crate::gl::MagFilter::Nearest,
            ..tex.state
        };
        let mipmapped = crate::sampler::SamplerState {
            min_filter: crate::gl::MinFilter::NearestMipmapNearest,
            ..base_only
        };
        let complete = if u.level == base_level {
            tex.is_complete(&base_only)
        } else {
            tex.is_complete(&mipmapped)
        };
        if !complete {
            return Ok(None);
        }
        let level = u.level.max(0) as usize;
        let (Some(Some(img)), Some(Some(ifmt))) = (tex.levels.get(level), tex.formats.get(level))
        else {
            return Ok(None);
        };
        let Some(canonical) = ImageFormat::from_gl(ifmt.gl) else {
            return Ok(None);
        };
        // GL 4.5 core §8.26.1: formats compatible by size (every texture here reports
        // GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE).
        if canonical.texel_bytes() != format.texel_bytes() {
            return Ok(None);
        }
        let layered_target = is_layered_target(tex.target);
        let (first, layers) = if u.layered && layered_target {
            (0, img.depth())
        } else if layered_target {
            if u.layer as u32 >= img.depth() {
                return Ok(None);
            }
            (u.layer as u32, 1)
        } else {
            (0, img.depth())
        };
        let samples: Vec<&Image> = if tex.samples > 0 && level == 0 {
            std::iter::once(&**img)
                .chain(tex.planes.iter().map(|p| &**p))
                .collect()
        } else {
            vec![&**img]
        };
        let dest = ImageDest::Level {
            texture: name,
            level,
            first,
            layers,
            canonical,
        };
        let words = match shared(&dest) {
            Some(w) => w,
            None => {
                let stored = img.format();
                let sb = stored.bytes_per_texel();
                let tb = canonical.texel_bytes() as usize;
                let layer_texels = img.width() as usize * img.height() as usize;
                let n = layer_texels * layers as usize * samples.len();
                let mut bytes = Vec::new();
                bytes
                    .try_reserve_exact(n * tb)
                    .map_err(|_| GlError::OutOfMemoryFor((n * tb) as u64, "bytes"))?;
                bytes.resize(n * tb, 0);
                let mut src = vec![0u8; layer_texels * sb];
                let mut at = 0;
                for s in &samples {
                    for z in first..first + layers {
                        s.read_bytes(z as usize * img.layer_bytes(), &mut src);
                        for texel in src.chunks(sb) {
                            to_canonical(stored, canonical, texel, &mut bytes[at..at + tb]);
                            at += tb;
                        }
                    }
                }
                words_of(&bytes)?
            }
        };
        let view = ImageView {
            words,
            width: img.width(),
            height: img.height(),
            depth: layers,
            samples: samples.len() as u32,
            format,
            cube_array: tex.target == Some(gl::TEXTURE_CUBE_MAP_ARRAY) && layers > 1,
        };
        Ok(Some((dest, view)))
    }

    /// After a draw or dispatch that writes images was queued: runs it, then writes each
    /// copy back into its texture level (in place, as glTexSubImage does) or buffer
    /// (copy-on-write, as SSBO write-back does).
    pub(crate) fn write_back_images(&mut self, copies: Vec<ImageCopy>) {
        if copies.is_empty() {
            return;
        }
        let flushed = self.flush_raster();
        for c in copies {
            match c.dest {
                ImageDest::Buffer { name, offset, len } => {
                    let Some(buf) = self.objs.buffers.get_mut(name) else {
                        continue;
                    };
                    let bytes = bytes_of(&c.words, len);
                    let before = original_bytes(&c.original, len);
                    let store = Arc::make_mut(&mut buf.data);
                    if let Some(dst) = store.get_mut(offset..offset + len) {
                        for ((d, now), was) in dst.iter_mut().zip(&bytes).zip(&before) {
                            if now != was {
                                *d = *now;
                            }
                        }
                    }
                }
                ImageDest::Level {
                    texture,
                    level,
                    first,
                    layers,
                    canonical,
                } => {
                    let Some(tex) = self.objs.textures.get(texture) else {
                        continue;
                    };
                    let Some(Some(img)) = tex.levels.get(level) else {
                        continue;
                    };
                    let mut samples = vec![img.clone()];
                    if tex.samples > 0 && level == 0 {
                        samples.extend(tex.planes.iter().cloned());
                    }
                    let stored = img.format();
                    let sb = stored.bytes_per_texel();
                    let tb = canonical.texel_bytes() as usize;
                    let layer_texels = img.width() as usize * img.height() as usize;
                    let all = bytes_of(&c.words, c.words.len() * 4);
                    let before = original_bytes(&c.original, all.len());
                    let mut row = vec![0u8; layer_texels * sb];
                    let mut at = 0;
                    for s in &samples {
                        for z in first..first + layers {
                            if z >= s.depth() {
                                break;
                            }
                            // Start from what is stored, so channels the canonical
                            // format lacks keep their bytes.
                            s.read_bytes(z as usize * s.layer_bytes(), &mut row);
                            for texel in row.chunks_mut(sb) {
                                let src = all.get(at..at + tb);
                                if let Some(src) =
                                    src.filter(|s| before.get(at..at + tb) != Some(*s))
                                {
                                    from_canonical(stored, canonical, src, texel);
                                }
                                at += tb;
                            }
                            s.write_bytes_flushed(&flushed, z as usize * s.layer_bytes(), &row);
                        }
                    }
                }
            }
        }
    }
}

/// The image-uniform limits of GL 4.5 core §7.13 (table 23.64), checked at link:
/// GL_MAX_<stage>_IMAGE_UNIFORMS per stage and GL_MAX_COMBINED_IMAGE_UNIFORMS over the
/// program's stages, each array element counting once. Bindless images
/// (`layout(bindless_image)`) reach no unit and do not count, as in Mesa. Returns the
/// info-log lines of the limits passed.
pub(crate) fn check_image_uniforms(
    stages: &[(crate::ir::Stage, Option<&crate::ir::Module>)],
) -> Result<(), String> {
    use crate::glsl::builtin_constants::MAX_STAGE_IMAGE_UNIFORMS;
    let mut log = String::new();
    let mut combined = 0u64;
    for (stage, m) in stages {
        let Some(m) = m else { continue };
        let used: u64 = m
            .uniforms
            .iter()
            .filter(|u| matches!(u.ty.base, crate::ir::BaseType::Image(_)) && !u.bindless)
            .map(|u| u.array_len.unwrap_or(1) as u64)
            .sum();
        if used > MAX_STAGE_IMAGE_UNIFORMS as u64 {
            log.push_str(&format!(
                "error: the {} shader uses {used} image uniforms, more than GL_MAX_{}_IMAGE_UNIFORMS ({MAX_STAGE_IMAGE_UNIFORMS})\n",
                stage_upper(*stage).to_lowercase().replace('_', " "),
                stage_upper(*stage),
            ));
        }
        combined += used;
    }
    if combined > MAX_STAGE_IMAGE_UNIFORMS as u64 && log.is_empty() {
        log.push_str(&format!(
            "error: the program's shaders use {combined} image uniforms, more than GL_MAX_COMBINED_IMAGE_UNIFORMS ({MAX_STAGE_IMAGE_UNIFORMS})\n"
        ));
    }
    if log.is_empty() {
        Ok(())
    } else {
        Err(log)
    }
}

/// The stage's word in GL's limit names (GL_MAX_<STAGE>_...).
fn stage_upper(stage: crate::ir::Stage) -> &'static str {
    use crate::ir::Stage;
    match stage {
        Stage::Vertex => "VERTEX",
        Stage::TessControl => "TESS_CONTROL",
        Stage::TessEval => "TESS_EVALUATION",
        Stage::Geometry => "GEOMETRY",
        Stage::Fragment => "FRAGMENT",
        Stage::Compute => "COMPUTE",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_table_sizes_and_classes() {
        assert_eq!(image_format(gl::RGBA32F).map(|f| f.bits), Some(128));
        assert_eq!(
            image_format(gl::R11F_G11F_B10F).map(|f| f.class),
            Some([11, 11, 10, 0])
        );
        assert_eq!(
            image_format(gl::RGBA8).map(|f| f.bits),
            image_format(gl::R32UI).map(|f| f.bits)
        );
        assert_ne!(
            image_format(gl::RGBA8).map(|f| f.class),
            image_format(gl::R32UI).map(|f| f.class)
        );
        // Not in table 8.26: sRGB, RGB, depth and compressed formats.
        for f in [
            gl::SRGB8_ALPHA8,
            gl::RGB8,
            gl::DEPTH_COMPONENT32F,
            gl::RGB32F,
        ] {
            assert!(image_format(f).is_none(), "{f:#x}");
        }
    }
}
