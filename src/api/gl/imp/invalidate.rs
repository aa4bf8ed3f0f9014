//! GL entry points of the invalidation commands (GL 4.5 core §6.5, §8.20, §17.4.4).

use super::*;

pub unsafe fn InvalidateFramebuffer(
    ctx: &mut Context,
    target: GLenum,
    num_attachments: GLsizei,
    attachments: *const GLenum,
) {
    // SAFETY: `attachments` holds `num_attachments` enums.
    match unsafe { slice(attachments, num_attachments, "negative count") } {
        Ok(a) => ctx.invalidate_framebuffer(target, a),
        Err(e) => fail(ctx, e),
    }
}

#[allow(clippy::too_many_arguments)]
pub unsafe fn InvalidateSubFramebuffer(
    ctx: &mut Context,
    target: GLenum,
    num_attachments: GLsizei,
    attachments: *const GLenum,
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
) {
    // SAFETY: `attachments` holds `num_attachments` enums.
    match unsafe { slice(attachments, num_attachments, "negative count") } {
        Ok(a) => ctx.invalidate_sub_framebuffer(target, a, x, y, width, height),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn InvalidateNamedFramebufferData(
    ctx: &mut Context,
    framebuffer: GLuint,
    num_attachments: GLsizei,
    attachments: *const GLenum,
) {
    // SAFETY: `attachments` holds `num_attachments` enums.
    match unsafe { slice(attachments, num_attachments, "negative count") } {
        Ok(a) => ctx.invalidate_named_framebuffer_data(framebuffer, a),
        Err(e) => fail(ctx, e),
    }
}

#[allow(clippy::too_many_arguments)]
pub unsafe fn InvalidateNamedFramebufferSubData(
    ctx: &mut Context,
    framebuffer: GLuint,
    num_attachments: GLsizei,
    attachments: *const GLenum,
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
) {
    // SAFETY: `attachments` holds `num_attachments` enums.
    match unsafe { slice(attachments, num_attachments, "negative count") } {
        Ok(a) => ctx.invalidate_named_framebuffer_sub_data(framebuffer, a, x, y, width, height),
        Err(e) => fail(ctx, e),
    }
}

pub fn InvalidateTexImage(ctx: &mut Context, texture: GLuint, level: GLint) {
    ctx.invalidate_tex_image(texture, level)
}

#[allow(clippy::too_many_arguments)]
pub fn InvalidateTexSubImage(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
) {
    ctx.invalidate_tex_sub_image(
        texture,
        level,
        [xoffset, yoffset, zoffset],
        [width, height, depth],
    )
}

pub fn InvalidateBufferData(ctx: &mut Context, buffer: GLuint) {
    ctx.invalidate_buffer_data(buffer)
}

pub fn InvalidateBufferSubData(
    ctx: &mut Context,
    buffer: GLuint,
    offset: GLintptr,
    length: GLsizeiptr,
) {
    ctx.invalidate_buffer_sub_data(buffer, offset, length)
}
