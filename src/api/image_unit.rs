//! Image units (GL 4.5 core §8.26): the GL_MAX_IMAGE_UNITS bindings that
//! glBindImageTexture and glBindImageTextures set (texture, level, layered, layer, access,
//! format), their glGetIntegeri_v / glGetBooleani_v queries (table 23.45), and the formats
//! an image unit may name (table 8.26) with the size and class the format-compatibility
//! rules compare. What shaders do with a unit (image types, imageLoad/imageStore, the
//! draw-time checks) is not here yet: GL_ARB_shader_image_load_store stays unlisted.

use crate::api::context::Context;
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::TextureName;
use crate::gl::enums as gl;

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
fn is_layered_target(target: Option<u32>) -> bool {
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
