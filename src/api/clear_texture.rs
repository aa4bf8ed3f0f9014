//! glClearTexImage and glClearTexSubImage (GL 4.5 core §8.21, ARB_clear_texture): one client
//! pixel converted to the level's internal format as glTexSubImage3D would convert it
//! (initial pixel-store state: the data is one pixel), then written over a box of the
//! level, every sample of a multisample texture included; null data fills with zero
//! bytes. The errors are the extension's list. Coordinates are glTexSubImage3D's: a 1D
//! array's layers are y, a cube map's faces and a cube map array's layer-faces are z.

use crate::api::context::{limits, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::TextureName;
use crate::api::pixels::{self, PixelStore};
use crate::gl::enums as gl;
use crate::sampler::TexKind;

gl_commands! {
    /// glClearTexImage (GL 4.5 core §8.21): all of level `level` of `texture` set to one
    /// pixel of `format`/`ty` (`None`: zeros).
    "glClearTexImage"
    fn clear_tex_image(texture: u32, level: i32, format: u32, ty: u32, data: Option<&[u8]>)
        = try_clear_tex_image;
    /// glClearTexSubImage (GL 4.5 core §8.21): the box `offset`, `size` of level `level`
    /// (glTexSubImage3D's coordinates) set to one pixel of `format`/`ty` (`None`: zeros).
    #[allow(clippy::too_many_arguments)]
    "glClearTexSubImage"
    fn clear_tex_sub_image(texture: u32, level: i32, offset: [i32; 3], size: [i32; 3], format: u32, ty: u32, data: Option<&[u8]>)
        = try_clear_tex_sub_image;
}

/// The base internal format classes the clear's `format` must match (§8.21's errors).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Base {
    Color,
    Depth,
    Stencil,
    DepthStencil,
}

impl Base {
    fn of(internal: u32, storage: crate::sampler::Format) -> Base {
        match internal {
            gl::DEPTH_STENCIL | gl::DEPTH24_STENCIL8 | gl::DEPTH32F_STENCIL8 => Base::DepthStencil,
            gl::STENCIL_INDEX | gl::STENCIL_INDEX8 => Base::Stencil,
            _ if storage.is_depth() => Base::Depth,
            _ => Base::Color,
        }
    }

    /// The error of a client `format` this base does not take, if it does not.
    fn check(self, format: u32) -> GlResult<()> {
        let ok = match self {
            Base::Depth => format == gl::DEPTH_COMPONENT,
            Base::Stencil => format == gl::STENCIL_INDEX,
            Base::DepthStencil => format == gl::DEPTH_STENCIL,
            Base::Color => !matches!(
                format,
                gl::DEPTH_COMPONENT | gl::STENCIL_INDEX | gl::DEPTH_STENCIL
            ),
        };
        if ok {
            return Ok(());
        }
        Err(GlError::InvalidOperation(match self {
            Base::Depth => "a depth texture is cleared with GL_DEPTH_COMPONENT data",
            Base::Stencil => "a stencil texture is cleared with GL_STENCIL_INDEX data",
            Base::DepthStencil => "a depth/stencil texture is cleared with GL_DEPTH_STENCIL data",
            Base::Color => "a colour texture is not cleared with depth or stencil data",
        }))
    }
}

/// The user's (x, y, z) box in a level's image coordinates (x, row, layer): a 1D array's
/// layers are its y (stored as one-row layers).
fn to_image(kind: TexKind, [x, y, z]: [i64; 3]) -> [i64; 3] {
    if kind == TexKind::D1Array {
        [x, z, y]
    } else {
        [x, y, z]
    }
}

impl Context {
    pub(crate) fn try_clear_tex_image(
        &mut self,
        texture: u32,
        level: i32,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> GlResult<()> {
        self.clear_texture(texture, level, None, format, ty, data)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_clear_tex_sub_image(
        &mut self,
        texture: u32,
        level: i32,
        offset: [i32; 3],
        size: [i32; 3],
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> GlResult<()> {
        self.clear_texture(texture, level, Some((offset, size)), format, ty, data)
    }

    /// Both commands: `region` is the sub-image box (`None`: the whole level).
    fn clear_texture(
        &mut self,
        texture: u32,
        level: i32,
        region: Option<([i32; 3], [i32; 3])>,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> GlResult<()> {
        let name = TextureName(texture);
        let t = match self.objs.textures.get(name) {
            Some(t) if texture != 0 && t.target.is_some() => t,
            Some(_) if texture != 0 => {
                return Err(GlError::InvalidOperation("the texture has no image yet"))
            }
            _ => {
                return Err(GlError::InvalidOperation(
                    "texture is zero or not the name of a texture object",
                ))
            }
        };
        let kind = t.kind();
        if kind == TexKind::Buffer {
            return Err(GlError::InvalidOperation(
                "a buffer texture cannot be cleared",
            ));
        }
        if level < 0 || level as usize >= limits::MAX_MIP_LEVELS {
            return Err(GlError::InvalidValue("level out of range"));
        }
        let lvl = level as usize;
        let Some(img) = t.levels[lvl].clone() else {
            return Err(GlError::InvalidOperation("the level has no image"));
        };
        // A multisample texture's level 0 is sample 0; the others are its planes.
        let mut images = vec![img.clone()];
        if kind.is_multisample() {
            images.extend(t.planes.iter().cloned());
        }
        let ifmt = t
            .level_format(lvl)
            .unwrap_or_else(|| pixels::InternalFormat::of_storage(img.format()));
        if crate::api::compressed::specific(ifmt.gl).is_some() {
            return Err(GlError::InvalidOperation(
                "a texture of a compressed internal format cannot be cleared",
            ));
        }
        Base::of(ifmt.gl, ifmt.storage).check(format)?;
        // The box in image coordinates, checked against the level (§8.21: outside it is
        // INVALID_OPERATION; softgl's textures have no border).
        let dims = [img.width(), img.height(), img.depth()].map(i64::from);
        let (at, size) = match region {
            None => ([0; 3], dims),
            Some((offset, size)) => (
                to_image(kind, offset.map(i64::from)),
                to_image(kind, size.map(i64::from)),
            ),
        };
        if (0..3).any(|i| at[i] < 0 || size[i] < 0 || at[i] + size[i] > dims[i]) {
            return Err(GlError::InvalidOperation(
                "the region is outside the texture image",
            ));
        }
        // One client pixel converted as glTexSubImage3D converts it (which also checks
        // `format` and `ty` against each other and the internal format).
        let one_pixel = pixels::client_size(1, 1, format, ty, &PixelStore::INITIAL);
        let zeros;
        let src = match data {
            Some(d) => d,
            None => {
                zeros = vec![0u8; one_pixel.unwrap_or(0)];
                &zeros[..]
            }
        };
        let texel = pixels::unpack_3d(ifmt, format, ty, [1, 1, 1], src, &PixelStore::INITIAL)?;
        let texel = if data.is_some() {
            texel
        } else {
            vec![0; texel.len()]
        };
        if size.contains(&0) {
            return Ok(());
        }
        let [x, y, z] = at.map(|v| v as usize);
        let [w, h, d] = size.map(|v| v as usize);
        let row = texel.repeat(w);
        let bpt = texel.len();
        let flushed = self.flush_raster();
        for img in &images {
            let (iw, ih) = (img.width() as usize, img.height() as usize);
            for layer in z..z + d {
                for r in y..y + h {
                    let off = ((layer * ih + r) * iw + x) * bpt;
                    img.write_bytes_flushed(&flushed, off, &row);
                }
            }
        }
        Ok(())
    }
}
