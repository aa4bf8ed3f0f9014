//! GL entry points of glClearTexImage / glClearTexSubImage (GL 4.5 core §8.21).

use super::buffer_dsa::clear_pixel;
use super::*;

pub unsafe fn ClearTexImage(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    format: GLenum,
    r#type: GLenum,
    data: *const c_void,
) {
    // SAFETY: `data` is null or one pixel of `format`/`type` (GL 4.5 core §8.21).
    let px = unsafe { clear_pixel(data, format, r#type) };
    ctx.clear_tex_image(texture, level, format, r#type, px)
}

pub unsafe fn ClearTexSubImage(
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
    r#type: GLenum,
    data: *const c_void,
) {
    // SAFETY: `data` is null or one pixel of `format`/`type` (GL 4.5 core §8.21).
    let px = unsafe { clear_pixel(data, format, r#type) };
    ctx.clear_tex_sub_image(
        texture,
        level,
        [xoffset, yoffset, zoffset],
        [width, height, depth],
        format,
        r#type,
        px,
    )
}
