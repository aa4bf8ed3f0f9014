//! The 1D compressed texture commands (GL 4.5 core §8.7): glCompressedTexImage1D,
//! glCompressedTexSubImage1D and glCompressedTextureSubImage1D. GL defines no
//! one-dimensional compressed format (every specific format of table 8.14 is 2D or 3D) and
//! softgl adds none, so no call can succeed: each checks its arguments in the spec's
//! order and raises the error it reaches, ending with GL_INVALID_ENUM for the format,
//! which is never a supported 1D compressed format. The data is never read.

use crate::api::context::{limits, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::TextureName;
use crate::gl::enums as gl;

gl_commands! {
    /// glCompressedTexImage1D (GL 4.5 core §8.7): always an error (no 1D compressed
    /// format exists).
    #[allow(clippy::too_many_arguments)]
    "glCompressedTexImage1D"
    fn compressed_tex_image_1d(target: u32, level: i32, internalformat: u32, width: i32, border: i32, image_size: i32)
        = try_compressed_tex_image_1d;
    /// glCompressedTexSubImage1D (GL 4.5 core §8.7): always an error.
    #[allow(clippy::too_many_arguments)]
    "glCompressedTexSubImage1D"
    fn compressed_tex_sub_image_1d(target: u32, level: i32, xoffset: i32, width: i32, format: u32, image_size: i32)
        = try_compressed_tex_sub_image_1d;
    /// glCompressedTextureSubImage1D (GL 4.5 core §8.7, DSA): always an error.
    #[allow(clippy::too_many_arguments)]
    "glCompressedTextureSubImage1D"
    fn compressed_texture_sub_image_1d(texture: u32, level: i32, xoffset: i32, width: i32, format: u32, image_size: i32)
        = try_compressed_texture_sub_image_1d;
}

/// The checks the three commands share after their target: level and sizes, then
/// `format`, which is never a 1D compressed format.
fn check_rest(level: i32, width: i32, image_size: i32, format: u32) -> GlResult<()> {
    if level < 0 || level as usize >= limits::MAX_MIP_LEVELS {
        return Err(GlError::InvalidValue("level out of range"));
    }
    if width < 0 || image_size < 0 {
        return Err(GlError::InvalidValue("negative width or imageSize"));
    }
    Err(GlError::BadEnum(
        "compressed format (GL has no 1D compressed format)",
        format,
    ))
}

impl Context {
    pub(crate) fn try_compressed_tex_image_1d(
        &mut self,
        target: u32,
        level: i32,
        internalformat: u32,
        width: i32,
        border: i32,
        image_size: i32,
    ) -> GlResult<()> {
        if !matches!(target, gl::TEXTURE_1D | gl::PROXY_TEXTURE_1D) {
            return Err(GlError::BadEnum(
                "target (GL_TEXTURE_1D or its proxy)",
                target,
            ));
        }
        if border != 0 {
            return Err(GlError::InvalidValue("border must be 0"));
        }
        check_rest(level, width, image_size, internalformat)
    }

    pub(crate) fn try_compressed_tex_sub_image_1d(
        &mut self,
        target: u32,
        level: i32,
        _xoffset: i32,
        width: i32,
        format: u32,
        image_size: i32,
    ) -> GlResult<()> {
        if target != gl::TEXTURE_1D {
            return Err(GlError::BadEnum("target (GL_TEXTURE_1D)", target));
        }
        check_rest(level, width, image_size, format)
    }

    pub(crate) fn try_compressed_texture_sub_image_1d(
        &mut self,
        texture: u32,
        level: i32,
        _xoffset: i32,
        width: i32,
        format: u32,
        image_size: i32,
    ) -> GlResult<()> {
        // INVALID_OPERATION unless `texture` exists; a texture of another target is the
        // INVALID_ENUM of a bad target.
        match self
            .objs
            .textures
            .get(TextureName(texture))
            .map(|t| t.target)
        {
            Some(Some(gl::TEXTURE_1D)) => {}
            Some(Some(t)) => return Err(GlError::BadEnum("texture target (GL_TEXTURE_1D)", t)),
            _ => {
                return Err(GlError::InvalidOperation(
                    "not the name of a texture object",
                ))
            }
        }
        check_rest(level, width, image_size, format)
    }
}

#[cfg(test)]
mod tests {
    use crate::api::Context;
    use crate::gl::enums as gl;

    #[test]
    fn every_call_is_an_error_and_the_right_one() {
        let mut c = Context::with_threads(1, 1, 1);
        let s3tc = gl::COMPRESSED_RGBA_S3TC_DXT5_EXT;
        c.compressed_tex_image_1d(gl::TEXTURE_2D, 0, s3tc, 4, 0, 16);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.compressed_tex_image_1d(gl::TEXTURE_1D, 0, s3tc, 4, 1, 16);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.compressed_tex_image_1d(gl::TEXTURE_1D, -1, s3tc, 4, 0, 16);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.compressed_tex_image_1d(gl::PROXY_TEXTURE_1D, 0, s3tc, 4, 0, 16);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.compressed_tex_sub_image_1d(gl::TEXTURE_1D, 0, 0, -4, s3tc, 16);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.compressed_tex_sub_image_1d(gl::TEXTURE_1D, 0, 0, 4, s3tc, 16);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.compressed_texture_sub_image_1d(77, 0, 0, 4, s3tc, 16);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        let t = c.create_textures(gl::TEXTURE_2D, 1)[0];
        c.compressed_texture_sub_image_1d(t, 0, 0, 4, s3tc, 16);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        let t = c.create_textures(gl::TEXTURE_1D, 1)[0];
        c.compressed_texture_sub_image_1d(t, 0, 0, 4, s3tc, 16);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        assert_eq!(c.get_error(), gl::NO_ERROR);
    }
}
