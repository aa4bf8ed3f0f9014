//! Texture views (GL 4.5 core §8.18, ARB_texture_view): glTextureView and the
//! TEXTURE_VIEW_* queries. A view is an ordinary texture object whose level images are
//! views of the original's (`Image::layers_view_as`): the same `Arc`'d byte storage at an
//! offset (its first layer) read in the view's format, so writes through either texture
//! (uploads, clears, draws, image stores) are seen by the other, and the storage lives
//! until the last texture that references it is deleted. Everything else (sampling,
//! attachments, bindless handles, completeness) sees an immutable texture like any other.
//!
//! Reinterpretation needs the two formats' bytes to line up. softgl keeps some internal
//! formats in wider storage than GL's (RGB8 in RGBA8, RGB10_A2 and the 16-bit normalized
//! formats in floats, …), so a view between two formats of one view class whose storage
//! differs is refused with GL_INVALID_OPERATION naming that limit; same-format views and
//! the classes whose storages match (RGBA8 / SRGB8_ALPHA8 / RGBA8UI / RGBA8I, R32F / R32UI /
//! R32I, RGBA32F / RGBA32UI / RGBA32I, RGBA16F / RGBA16UI / RGBA16I, RG8 / RG8UI / RG8I,
//! R8 / R8UI / R8I, …) work.

use std::sync::Arc;

use crate::api::context::{limits, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::TextureName;
use crate::api::texture::{kind_of_target, Texture};
use crate::gl::enums as gl;
use crate::sampler::{Format, IntFormat, SnormFormat, TexKind};

/// Which part of its original's storage a view covers (TEXTURE_VIEW_MIN_LEVEL and the
/// others, relative to the storage's first texture, as GL reports them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ViewRange {
    pub min_level: u32,
    pub num_levels: u32,
    pub min_layer: u32,
    pub num_layers: u32,
}

gl_commands! {
    /// glTextureView (GL 4.5 core §8.18): makes `texture` (a name never bound) a view of
    /// levels `minlevel..` and layers `minlayer..` of the immutable `origtexture`, as
    /// `target` in `internalformat`.
    #[allow(clippy::too_many_arguments)]
    "glTextureView"
    fn texture_view(texture: u32, target: u32, origtexture: u32, internalformat: u32, minlevel: u32, numlevels: u32, minlayer: u32, numlayers: u32)
        = try_texture_view;
}

/// GL 4.5 core table 8.21: the targets a view of an `orig` texture may have.
fn target_compatible(orig: u32, view: u32) -> bool {
    use gl::*;
    let ok: &[u32] = match orig {
        TEXTURE_1D | TEXTURE_1D_ARRAY => &[TEXTURE_1D, TEXTURE_1D_ARRAY],
        TEXTURE_2D => &[TEXTURE_2D, TEXTURE_2D_ARRAY],
        TEXTURE_3D => &[TEXTURE_3D],
        TEXTURE_CUBE_MAP | TEXTURE_2D_ARRAY | TEXTURE_CUBE_MAP_ARRAY => &[
            TEXTURE_CUBE_MAP,
            TEXTURE_2D,
            TEXTURE_2D_ARRAY,
            TEXTURE_CUBE_MAP_ARRAY,
        ],
        TEXTURE_RECTANGLE => &[TEXTURE_RECTANGLE],
        TEXTURE_2D_MULTISAMPLE | TEXTURE_2D_MULTISAMPLE_ARRAY => {
            &[TEXTURE_2D_MULTISAMPLE, TEXTURE_2D_MULTISAMPLE_ARRAY]
        }
        _ => &[],
    };
    ok.contains(&view)
}

/// GL 4.5 core table 8.22: the view class of an internal format (formats of one class may
/// view each other; a format in no class only itself).
fn view_class(f: u32) -> Option<u8> {
    use gl::*;
    Some(match f {
        RGBA32F | RGBA32UI | RGBA32I => 128,
        RGB32F | RGB32UI | RGB32I => 96,
        RGBA16F | RG32F | RGBA16UI | RG32UI | RGBA16I | RG32I | RGBA16 | RGBA16_SNORM => 64,
        RGB16 | RGB16_SNORM | RGB16F | RGB16UI | RGB16I => 48,
        RG16F | R11F_G11F_B10F | R32F | RGB10_A2UI | RGBA8UI | RG16UI | R32UI | RGBA8I | RG16I
        | R32I | RGB10_A2 | RGBA8 | RG16 | RGBA8_SNORM | RG16_SNORM | SRGB8_ALPHA8 | RGB9_E5 => 32,
        RGB8 | RGB8_SNORM | SRGB8 | RGB8UI | RGB8I => 24,
        R16F | RG8UI | R16UI | RG8I | R16I | RG8 | R16 | RG8_SNORM | R16_SNORM => 16,
        R8UI | R8I | R8 | R8_SNORM => 8,
        COMPRESSED_RED_RGTC1 | COMPRESSED_SIGNED_RED_RGTC1 => 1,
        COMPRESSED_RG_RGTC2 | COMPRESSED_SIGNED_RG_RGTC2 => 2,
        COMPRESSED_RGBA_BPTC_UNORM | COMPRESSED_SRGB_ALPHA_BPTC_UNORM => 3,
        COMPRESSED_RGB_BPTC_SIGNED_FLOAT | COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT => 4,
        _ => return None,
    })
}

/// Whether softgl's storage of one format can be read as the other's: the same storage,
/// or byte layouts that line up texel for texel (packed 8-bit RGBA with its sRGB and
/// integer forms, 32-bit floats with 32-bit integers, half floats with 16-bit integers,
/// integers of one shape whatever their sign).
fn storage_compatible(a: Format, b: Format) -> bool {
    /// (channels, bytes per channel) of a storage whose channels are plain words.
    fn shape(f: Format) -> Option<(u8, u8)> {
        Some(match f {
            Format::Rgba8 | Format::Srgb8Alpha8 => (4, 1),
            Format::R8 => (1, 1),
            Format::Rg8 => (2, 1),
            Format::Rgba16F => (4, 2),
            Format::Rgba32F => (4, 4),
            Format::R32F => (1, 4),
            Format::Int(IntFormat {
                channels, bytes, ..
            }) => (channels, bytes),
            Format::Snorm(SnormFormat { channels, bytes }) => (channels, bytes),
            _ => return None,
        })
    }
    // RGB10_A2UI's packed word lines up with any 4-byte plain storage (RGBA8, R32F,
    // RGBA8UI, RG16UI, RGBA8_SNORM, ...): a view reads the same 32 bits.
    let packed = |f: Format, g: Format| {
        f == Format::Rgb10A2ui && shape(g).is_some() && g.bytes_per_texel() == 4
    };
    a == b
        || matches!((shape(a), shape(b)), (Some(x), Some(y)) if x == y)
        || packed(a, b)
        || packed(b, a)
}

impl Context {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_texture_view(
        &mut self,
        texture: u32,
        target: u32,
        origtexture: u32,
        internalformat: u32,
        minlevel: u32,
        numlevels: u32,
        minlayer: u32,
        numlayers: u32,
    ) -> GlResult<()> {
        if texture == 0 {
            return Err(GlError::InvalidValue("texture is zero"));
        }
        let orig = match self.objs.textures.get(TextureName(origtexture)) {
            Some(t) if origtexture != 0 && t.target.is_some() => t,
            _ => return Err(GlError::InvalidValue("origtexture is not a texture")),
        };
        if !orig.immutable {
            return Err(GlError::InvalidOperation(
                "origtexture's format is not immutable (made by glTexStorage*)",
            ));
        }
        let name = TextureName(texture);
        if !self.objs.textures.is_name(name) {
            return Err(GlError::InvalidOperation(
                "texture is not a name glGenTextures returned",
            ));
        }
        if self
            .objs
            .textures
            .get(name)
            .is_some_and(|t| t.target.is_some())
        {
            return Err(GlError::InvalidOperation(
                "texture was bound already (it has a target)",
            ));
        }
        let orig_target = orig.target.unwrap_or(gl::TEXTURE_2D);
        let Some(kind) = kind_of_target(target) else {
            return Err(GlError::BadEnum("texture view target", target));
        };
        if !target_compatible(orig_target, target) {
            return Err(GlError::InvalidOperation(
                "the view's target is not compatible with origtexture's (table 8.21)",
            ));
        }
        let orig_fmt = orig
            .level_format(0)
            .ok_or(GlError::InvalidOperation("origtexture has no storage"))?;
        if internalformat != orig_fmt.gl
            && (view_class(internalformat).is_none()
                || view_class(internalformat) != view_class(orig_fmt.gl))
        {
            return Err(GlError::InvalidOperation(
                "the internal formats are not of one view class (table 8.22)",
            ));
        }
        let view_fmt = if internalformat == orig_fmt.gl {
            orig_fmt
        } else {
            crate::api::texture::storage_format(internalformat)
                .map_err(|_| GlError::InvalidOperation("internalformat cannot be stored"))?
        };
        if !storage_compatible(orig_fmt.storage, view_fmt.storage) {
            return Err(GlError::InvalidOperation(
                "softgl stores these two formats differently and cannot reinterpret one \
                 as the other yet",
            ));
        }
        let orig_range = orig.view_range();
        if minlevel >= orig_range.num_levels {
            return Err(GlError::InvalidValue(
                "minlevel past origtexture's last level",
            ));
        }
        if minlayer >= orig_range.num_layers {
            return Err(GlError::InvalidValue(
                "minlayer past origtexture's last layer",
            ));
        }
        let levels = numlevels.min(orig_range.num_levels - minlevel);
        let layers = numlayers.min(orig_range.num_layers - minlayer);
        match kind {
            TexKind::Cube if layers != 6 => {
                return Err(GlError::InvalidValue("a cube map view has 6 layers"))
            }
            TexKind::CubeArray if !layers.is_multiple_of(6) => {
                return Err(GlError::InvalidValue(
                    "a cube map array view has a multiple of 6 layer-faces",
                ))
            }
            TexKind::D1 | TexKind::D2 | TexKind::D3 | TexKind::Rect | TexKind::D2Multisample
                if numlayers != 1 =>
            {
                return Err(GlError::InvalidValue(
                    "a view of a non-array target has one layer",
                ))
            }
            _ => {}
        }
        let base = orig.levels[minlevel as usize]
            .clone()
            .ok_or(GlError::InvalidOperation("origtexture has no storage"))?;
        if matches!(kind, TexKind::Cube | TexKind::CubeArray) && base.width() != base.height() {
            return Err(GlError::InvalidOperation(
                "a cube map view needs square levels",
            ));
        }
        // The level images: layers minlayer.. of each level (a 3D level's slices all), in
        // the view's format.
        let volume = orig.kind() == TexKind::D3;
        let view_of = |img: &crate::sampler::Image| {
            let (first, count) = if volume {
                (0, img.depth())
            } else {
                (minlayer, layers)
            };
            img.layers_view_as(first, count, view_fmt.storage)
                .map(Arc::new)
        };
        let mut t = Texture::of_target(target);
        for l in 0..levels as usize {
            let img = orig.levels[minlevel as usize + l]
                .as_deref()
                .and_then(view_of)
                .ok_or(GlError::InvalidOperation("origtexture has no storage"))?;
            t.levels[l] = Some(img);
            t.formats[l] = Some(view_fmt);
        }
        t.planes = orig
            .planes
            .iter()
            .map(|p| view_of(p).ok_or(GlError::InvalidOperation("origtexture has no storage")))
            .collect::<GlResult<_>>()?;
        t.samples = orig.samples;
        t.fixed_sample_locations = orig.fixed_sample_locations;
        t.cube_faces = vec![0x3F; limits::MAX_MIP_LEVELS];
        t.immutable = true;
        t.immutable_levels = orig.immutable_levels;
        t.view = Some(ViewRange {
            min_level: orig_range.min_level + minlevel,
            num_levels: levels,
            min_layer: orig_range.min_layer + minlayer,
            num_layers: layers,
        });
        self.objs.textures.ensure(name, Texture::default);
        if let Some(slot) = self.objs.textures.get_mut(name) {
            *slot = t;
        }
        Ok(())
    }
}

impl Texture {
    /// TEXTURE_VIEW_MIN_LEVEL, _NUM_LEVELS, _MIN_LAYER and _NUM_LAYERS: a view's own, an
    /// immutable texture's whole storage (GL 4.5 core §8.19: levels, and the layers of
    /// its target), zeros for a mutable texture.
    pub(crate) fn view_range(&self) -> ViewRange {
        if let Some(v) = self.view {
            return v;
        }
        if !self.immutable {
            return ViewRange {
                min_level: 0,
                num_levels: 0,
                min_layer: 0,
                num_layers: 0,
            };
        }
        let layers = match self.kind() {
            TexKind::D1Array
            | TexKind::D2Array
            | TexKind::Cube
            | TexKind::CubeArray
            | TexKind::D2MultisampleArray => self.levels[0].as_ref().map_or(1, |i| i.depth()),
            _ => 1,
        };
        ViewRange {
            min_level: 0,
            num_levels: self.immutable_levels.max(0) as u32,
            min_layer: 0,
            num_layers: layers,
        }
    }
}
