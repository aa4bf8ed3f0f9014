//! GL entry points of compressed texture images (GL 4.5 core §8.7, §8.11.4).

use super::*;
use crate::api::compressed::{Dest, Source};

/// The compressed bytes of an upload: `image_size` bytes at `data`, or with a
/// GL_PIXEL_UNPACK_BUFFER bound that many at the offset `data` gives (§8.4.4). A null
/// `data` with no buffer bound specifies the level without contents (zero blocks), as
/// glTexImage* with null pixels does.
///
/// # Safety
/// `data` is null or readable for `image_size` bytes.
unsafe fn upload_source<'a>(
    ctx: &Context,
    image_size: GLsizei,
    data: *const c_void,
    zeros: &'a mut Vec<u8>,
) -> GlResult<Source<'a>> {
    if image_size < 0 {
        return Err(GlError::InvalidValue("negative imageSize"));
    }
    let size = image_size as usize;
    if ctx.has_buffer_bound(gl::PIXEL_UNPACK_BUFFER) {
        return Ok(Source::Buffer {
            offset: data as usize,
            size,
        });
    }
    if data.is_null() {
        zeros.resize(size, 0);
        return Ok(Source::Client(&zeros[..]));
    }
    // SAFETY: non-null and readable for `image_size` bytes by the caller's contract.
    Ok(Source::Client(unsafe {
        std::slice::from_raw_parts(data as *const u8, size)
    }))
}

pub unsafe fn CompressedTexImage2D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    border: GLint,
    image_size: GLsizei,
    data: *const c_void,
) {
    let mut zeros = Vec::new();
    // SAFETY: `data` holds `image_size` bytes (GL 4.5 core §8.7).
    match unsafe { upload_source(ctx, image_size, data, &mut zeros) } {
        Ok(src) => {
            ctx.compressed_tex_image_2d(target, level, internalformat, width, height, border, src)
        }
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn CompressedTexImage3D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    border: GLint,
    image_size: GLsizei,
    data: *const c_void,
) {
    let mut zeros = Vec::new();
    // SAFETY: `data` holds `image_size` bytes (GL 4.5 core §8.7).
    match unsafe { upload_source(ctx, image_size, data, &mut zeros) } {
        Ok(src) => ctx.compressed_tex_image_3d(
            target,
            level,
            internalformat,
            [width, height, depth],
            border,
            src,
        ),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn CompressedTexSubImage2D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    image_size: GLsizei,
    data: *const c_void,
) {
    let mut zeros = Vec::new();
    // SAFETY: `data` holds `image_size` bytes (GL 4.5 core §8.7).
    match unsafe { upload_source(ctx, image_size, data, &mut zeros) } {
        Ok(src) => ctx.compressed_sub_image_2d(
            "glCompressedTexSubImage2D",
            (target, None),
            level,
            [xoffset, yoffset],
            [width, height],
            format,
            src,
        ),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn CompressedTextureSubImage2D(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    image_size: GLsizei,
    data: *const c_void,
) {
    let mut zeros = Vec::new();
    // SAFETY: `data` holds `image_size` bytes (GL 4.5 core §8.7).
    match unsafe { upload_source(ctx, image_size, data, &mut zeros) } {
        Ok(src) => ctx.compressed_sub_image_2d(
            "glCompressedTextureSubImage2D",
            (0, Some(texture)),
            level,
            [xoffset, yoffset],
            [width, height],
            format,
            src,
        ),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn CompressedTexSubImage3D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    format: GLenum,
    image_size: GLsizei,
    data: *const c_void,
) {
    let mut zeros = Vec::new();
    // SAFETY: `data` holds `image_size` bytes (GL 4.5 core §8.7).
    match unsafe { upload_source(ctx, image_size, data, &mut zeros) } {
        Ok(src) => ctx.compressed_sub_image_3d(
            "glCompressedTexSubImage3D",
            (target, None),
            level,
            [xoffset, yoffset, zoffset],
            [width, height, depth],
            format,
            src,
        ),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn CompressedTextureSubImage3D(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    format: GLenum,
    image_size: GLsizei,
    data: *const c_void,
) {
    let mut zeros = Vec::new();
    // SAFETY: `data` holds `image_size` bytes (GL 4.5 core §8.7).
    match unsafe { upload_source(ctx, image_size, data, &mut zeros) } {
        Ok(src) => ctx.compressed_sub_image_3d(
            "glCompressedTextureSubImage3D",
            (0, Some(texture)),
            level,
            [xoffset, yoffset, zoffset],
            [width, height, depth],
            format,
            src,
        ),
        Err(e) => fail(ctx, e),
    }
}

/// The destination of a compressed download: the bound GL_PIXEL_PACK_BUFFER at the offset
/// `pixels` gives, or client memory at `pixels`.
///
/// # Safety
/// Without a pack buffer, `pixels` is writable for the image's size (bounded by bufSize in
/// the robust forms, which the Context checks before asking for the memory).
unsafe fn download_dest<'o>(ctx: &Context, pixels: *mut c_void) -> Dest<'o> {
    if ctx.has_buffer_bound(gl::PIXEL_PACK_BUFFER) {
        return Dest::Buffer(pixels as usize);
    }
    // SAFETY: the caller provides room for the compressed image, `len` bytes.
    Dest::Client(Box::new(move |len| unsafe { client_out(pixels, len) }))
}

pub unsafe fn GetCompressedTexImage(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    img: *mut c_void,
) {
    // SAFETY: `img` is writable for the level's compressed size (GL 4.5 core §8.11.4).
    let dest = unsafe { download_dest(ctx, img) };
    let which = (target, None);
    ctx.get_compressed_image("glGetCompressedTexImage", which, level, None, None, dest)
}

pub unsafe fn GetnCompressedTexImage(
    ctx: &mut Context,
    target: GLenum,
    lod: GLint,
    buf_size: GLsizei,
    pixels: *mut c_void,
) {
    // SAFETY: `pixels` is writable for `buf_size` bytes.
    let dest = unsafe { download_dest(ctx, pixels) };
    let limit = Some(buf_size.max(0) as usize);
    let name = "glGetnCompressedTexImage";
    ctx.get_compressed_image(name, (target, None), lod, None, limit, dest)
}

pub unsafe fn GetCompressedTextureImage(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    buf_size: GLsizei,
    pixels: *mut c_void,
) {
    // SAFETY: `pixels` is writable for `buf_size` bytes.
    let dest = unsafe { download_dest(ctx, pixels) };
    let limit = Some(buf_size.max(0) as usize);
    let name = "glGetCompressedTextureImage";
    ctx.get_compressed_image(name, (0, Some(texture)), level, None, limit, dest)
}

pub unsafe fn GetCompressedTextureSubImage(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    buf_size: GLsizei,
    pixels: *mut c_void,
) {
    // SAFETY: `pixels` is writable for `buf_size` bytes.
    let dest = unsafe { download_dest(ctx, pixels) };
    let limit = Some(buf_size.max(0) as usize);
    let sub = Some(([xoffset, yoffset, zoffset], [width, height, depth]));
    let name = "glGetCompressedTextureSubImage";
    ctx.get_compressed_image(name, (0, Some(texture)), level, sub, limit, dest)
}

pub fn CompressedTexImage1D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    internalformat: GLenum,
    width: GLsizei,
    border: GLint,
    image_size: GLsizei,
    _data: *const c_void,
) {
    // No 1D compressed format exists: the call is an error whatever `data` holds, which
    // is never read.
    ctx.compressed_tex_image_1d(target, level, internalformat, width, border, image_size)
}

pub fn CompressedTexSubImage1D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    xoffset: GLint,
    width: GLsizei,
    format: GLenum,
    image_size: GLsizei,
    _data: *const c_void,
) {
    // As CompressedTexImage1D: always an error, `data` never read.
    ctx.compressed_tex_sub_image_1d(target, level, xoffset, width, format, image_size)
}

pub fn CompressedTextureSubImage1D(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    width: GLsizei,
    format: GLenum,
    image_size: GLsizei,
    _data: *const c_void,
) {
    // As CompressedTexImage1D: always an error, `data` never read.
    ctx.compressed_texture_sub_image_1d(texture, level, xoffset, width, format, image_size)
}
