//! GL entry points of framebuffers, renderbuffers and blits (GL 4.5 core chapter 9 and §18.3).

use super::*;

pub unsafe fn GenFramebuffers(ctx: &mut Context, n: GLsizei, framebuffers: *mut GLuint) {
    // SAFETY: `framebuffers` holds `n` names.
    unsafe { gen_with(ctx, n, framebuffers, Context::gen_framebuffers) }
}

pub unsafe fn DeleteFramebuffers(ctx: &mut Context, n: GLsizei, framebuffers: *const GLuint) {
    // SAFETY: `framebuffers` holds `n` names.
    unsafe { delete_with(ctx, n, framebuffers, Context::delete_framebuffers) }
}

pub unsafe fn CreateFramebuffers(ctx: &mut Context, n: GLsizei, framebuffers: *mut GLuint) {
    // SAFETY: `framebuffers` holds `n` names.
    unsafe { gen_with(ctx, n, framebuffers, Context::create_framebuffers) }
}

pub fn IsFramebuffer(ctx: &mut Context, framebuffer: GLuint) -> GLboolean {
    gl_bool(ctx.is_framebuffer(framebuffer))
}

pub unsafe fn GenRenderbuffers(ctx: &mut Context, n: GLsizei, renderbuffers: *mut GLuint) {
    // SAFETY: `renderbuffers` holds `n` names.
    unsafe { gen_with(ctx, n, renderbuffers, Context::gen_renderbuffers) }
}

pub unsafe fn DeleteRenderbuffers(ctx: &mut Context, n: GLsizei, renderbuffers: *const GLuint) {
    // SAFETY: `renderbuffers` holds `n` names.
    unsafe { delete_with(ctx, n, renderbuffers, Context::delete_renderbuffers) }
}

pub unsafe fn CreateRenderbuffers(ctx: &mut Context, n: GLsizei, renderbuffers: *mut GLuint) {
    // SAFETY: `renderbuffers` holds `n` names.
    unsafe { gen_with(ctx, n, renderbuffers, Context::create_renderbuffers) }
}

pub fn IsRenderbuffer(ctx: &mut Context, renderbuffer: GLuint) -> GLboolean {
    gl_bool(ctx.is_renderbuffer(renderbuffer))
}

pub fn BindFramebuffer(ctx: &mut Context, target: GLenum, framebuffer: GLuint) {
    ctx.bind_framebuffer(target, framebuffer)
}

pub fn TextureBarrier(ctx: &mut Context) {
    ctx.texture_barrier()
}

pub fn FramebufferTexture2D(
    ctx: &mut Context,
    target: GLenum,
    attachment: GLenum,
    textarget: GLenum,
    texture: GLuint,
    level: GLint,
) {
    ctx.framebuffer_texture_2d(target, attachment, textarget, texture, level)
}

pub fn FramebufferRenderbuffer(
    ctx: &mut Context,
    target: GLenum,
    attachment: GLenum,
    renderbuffertarget: GLenum,
    renderbuffer: GLuint,
) {
    ctx.framebuffer_renderbuffer(target, attachment, renderbuffertarget, renderbuffer)
}

pub fn CheckFramebufferStatus(ctx: &mut Context, target: GLenum) -> GLenum {
    ctx.check_framebuffer_status(target)
}

pub fn CheckNamedFramebufferStatus(
    ctx: &mut Context,
    framebuffer: GLuint,
    target: GLenum,
) -> GLenum {
    ctx.check_named_framebuffer_status(framebuffer, target)
}

pub fn DrawBuffer(ctx: &mut Context, buf: GLenum) {
    ctx.draw_buffer(buf)
}

pub fn NamedFramebufferDrawBuffer(ctx: &mut Context, framebuffer: GLuint, buf: GLenum) {
    ctx.named_framebuffer_draw_buffer(framebuffer, buf)
}

pub fn NamedFramebufferReadBuffer(ctx: &mut Context, framebuffer: GLuint, src: GLenum) {
    ctx.named_framebuffer_read_buffer(framebuffer, src)
}

pub unsafe fn NamedFramebufferDrawBuffers(
    ctx: &mut Context,
    framebuffer: GLuint,
    n: GLsizei,
    bufs: *const GLenum,
) {
    // SAFETY: `bufs` holds `n` enums.
    match unsafe { slice(bufs, n, "negative count") } {
        Ok(v) => ctx.named_framebuffer_draw_buffers(framebuffer, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn DrawBuffers(ctx: &mut Context, n: GLsizei, bufs: *const GLenum) {
    // SAFETY: `bufs` holds `n` enums.
    match unsafe { slice(bufs, n, "negative count") } {
        Ok(v) => ctx.draw_buffers(v),
        Err(e) => fail(ctx, e),
    }
}

pub fn ReadBuffer(ctx: &mut Context, src: GLenum) {
    ctx.read_buffer(src)
}

pub fn BindRenderbuffer(ctx: &mut Context, target: GLenum, renderbuffer: GLuint) {
    ctx.bind_renderbuffer(target, renderbuffer)
}

pub fn RenderbufferStorage(
    ctx: &mut Context,
    target: GLenum,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
) {
    ctx.renderbuffer_storage(target, internalformat, width, height)
}

pub fn RenderbufferStorageMultisample(
    ctx: &mut Context,
    target: GLenum,
    samples: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
) {
    ctx.renderbuffer_storage_multisample(target, samples, internalformat, width, height)
}

pub unsafe fn GetRenderbufferParameteriv(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: `params` is null or writable for one value.
    unsafe {
        write_one_unless_failed(ctx, params, |c| {
            c.get_renderbuffer_parameteriv(target, pname)
        })
    }
}

pub fn FramebufferTexture1D(
    ctx: &mut Context,
    target: GLenum,
    attachment: GLenum,
    textarget: GLenum,
    texture: GLuint,
    level: GLint,
) {
    ctx.framebuffer_texture_1d(target, attachment, textarget, texture, level)
}

pub fn FramebufferTexture3D(
    ctx: &mut Context,
    target: GLenum,
    attachment: GLenum,
    textarget: GLenum,
    texture: GLuint,
    level: GLint,
    zoffset: GLint,
) {
    ctx.framebuffer_texture_3d(target, attachment, textarget, texture, level, zoffset)
}

pub fn FramebufferTextureLayer(
    ctx: &mut Context,
    target: GLenum,
    attachment: GLenum,
    texture: GLuint,
    level: GLint,
    layer: GLint,
) {
    ctx.framebuffer_texture_layer(target, attachment, texture, level, layer)
}

pub fn NamedFramebufferTextureLayer(
    ctx: &mut Context,
    framebuffer: GLuint,
    attachment: GLenum,
    texture: GLuint,
    level: GLint,
    layer: GLint,
) {
    ctx.named_framebuffer_texture_layer(framebuffer, attachment, texture, level, layer)
}

pub fn FramebufferTexture(
    ctx: &mut Context,
    target: GLenum,
    attachment: GLenum,
    texture: GLuint,
    level: GLint,
) {
    ctx.framebuffer_texture(target, attachment, texture, level)
}

pub fn NamedFramebufferTexture(
    ctx: &mut Context,
    framebuffer: GLuint,
    attachment: GLenum,
    texture: GLuint,
    level: GLint,
) {
    ctx.named_framebuffer_texture(framebuffer, attachment, texture, level)
}

pub fn NamedFramebufferRenderbuffer(
    ctx: &mut Context,
    framebuffer: GLuint,
    attachment: GLenum,
    renderbuffertarget: GLenum,
    renderbuffer: GLuint,
) {
    ctx.named_framebuffer_renderbuffer(framebuffer, attachment, renderbuffertarget, renderbuffer)
}

pub unsafe fn GetNamedFramebufferAttachmentParameteriv(
    ctx: &mut Context,
    framebuffer: GLuint,
    attachment: GLenum,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: `params` is null or writable for one value.
    unsafe {
        write_one_unless_failed(ctx, params, |c| {
            c.get_named_framebuffer_attachment_parameteriv(framebuffer, attachment, pname)
        })
    }
}

pub unsafe fn GetFramebufferAttachmentParameteriv(
    ctx: &mut Context,
    target: GLenum,
    attachment: GLenum,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: `params` is null or writable for one value.
    unsafe {
        write_one_unless_failed(ctx, params, |c| {
            c.get_framebuffer_attachment_parameteriv(target, attachment, pname)
        })
    }
}

pub fn BlitFramebuffer(
    ctx: &mut Context,
    src_x0: GLint,
    src_y0: GLint,
    src_x1: GLint,
    src_y1: GLint,
    dst_x0: GLint,
    dst_y0: GLint,
    dst_x1: GLint,
    dst_y1: GLint,
    mask: GLbitfield,
    filter: GLenum,
) {
    ctx.blit_framebuffer(
        src_x0, src_y0, src_x1, src_y1, dst_x0, dst_y0, dst_x1, dst_y1, mask, filter,
    )
}

/// Values a glClearBuffer* `value` pointer holds for `buffer`: 4 for GL_COLOR, 1 otherwise.
fn clear_values(buffer: GLenum) -> usize {
    if buffer == gl::COLOR {
        4
    } else {
        1
    }
}

pub unsafe fn ClearBufferiv(
    ctx: &mut Context,
    buffer: GLenum,
    drawbuffer: GLint,
    value: *const GLint,
) {
    // SAFETY: `value` holds the values `buffer` takes (GL 4.5 core §17.4.3.1).
    match unsafe { slice_len(value, clear_values(buffer)) } {
        Ok(v) => ctx.clear_bufferiv(buffer, drawbuffer, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ClearBufferuiv(
    ctx: &mut Context,
    buffer: GLenum,
    drawbuffer: GLint,
    value: *const GLuint,
) {
    // SAFETY: `value` holds the values `buffer` takes (GL 4.5 core §17.4.3.1).
    match unsafe { slice_len(value, clear_values(buffer)) } {
        Ok(v) => ctx.clear_bufferuiv(buffer, drawbuffer, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ClearBufferfv(
    ctx: &mut Context,
    buffer: GLenum,
    drawbuffer: GLint,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds the values `buffer` takes (GL 4.5 core §17.4.3.1).
    match unsafe { slice_len(value, clear_values(buffer)) } {
        Ok(v) => ctx.clear_bufferfv(buffer, drawbuffer, v),
        Err(e) => fail(ctx, e),
    }
}

pub fn ClearBufferfi(
    ctx: &mut Context,
    buffer: GLenum,
    drawbuffer: GLint,
    depth: GLfloat,
    stencil: GLint,
) {
    ctx.clear_bufferfi(buffer, drawbuffer, depth, stencil)
}

pub fn NamedRenderbufferStorage(
    ctx: &mut Context,
    renderbuffer: GLuint,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
) {
    ctx.named_renderbuffer_storage(renderbuffer, internalformat, width, height)
}

pub fn NamedRenderbufferStorageMultisample(
    ctx: &mut Context,
    renderbuffer: GLuint,
    samples: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
) {
    ctx.named_renderbuffer_storage_multisample(renderbuffer, samples, internalformat, width, height)
}

pub unsafe fn GetMultisamplefv(ctx: &mut Context, pname: GLenum, index: GLuint, val: *mut GLfloat) {
    let before = ctx.errors_recorded();
    let v = ctx.get_multisamplefv(pname, index);
    if ctx.errors_recorded() == before {
        // SAFETY: `val` is null or writable for two floats (GL_SAMPLE_POSITION's x and y).
        unsafe { write_out(val, &v) }
    }
}

pub fn SampleMaski(ctx: &mut Context, maskNumber: GLuint, mask: GLbitfield) {
    ctx.sample_maski(maskNumber, mask)
}

pub fn SampleCoverage(ctx: &mut Context, value: GLfloat, invert: GLboolean) {
    ctx.sample_coverage(value, b(invert))
}

pub unsafe fn GetInternalformativ(
    ctx: &mut Context,
    target: GLenum,
    internalformat: GLenum,
    pname: GLenum,
    count: GLsizei,
    params: *mut GLint,
) {
    let v = ctx.get_internalformativ(target, internalformat, pname, count);
    // SAFETY: `params` is null or writable for `count` values; `v` holds at most `count`.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetInternalformati64v(
    ctx: &mut Context,
    target: GLenum,
    internalformat: GLenum,
    pname: GLenum,
    count: GLsizei,
    params: *mut GLint64,
) {
    let v = ctx.get_internalformati64v(target, internalformat, pname, count);
    // SAFETY: `params` is null or writable for `count` values; `v` holds at most `count`.
    unsafe { write_out(params, &v) }
}

pub fn TexImage2DMultisample(
    ctx: &mut Context,
    target: GLenum,
    samples: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    fixedsamplelocations: GLboolean,
) {
    ctx.tex_image_2d_multisample(
        target,
        samples,
        internalformat,
        width,
        height,
        fixedsamplelocations != 0,
    )
}

#[allow(clippy::too_many_arguments)]
pub fn TexImage3DMultisample(
    ctx: &mut Context,
    target: GLenum,
    samples: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    fixedsamplelocations: GLboolean,
) {
    ctx.tex_image_3d_multisample(
        target,
        samples,
        internalformat,
        width,
        height,
        depth,
        fixedsamplelocations != 0,
    )
}

pub fn TexStorage2DMultisample(
    ctx: &mut Context,
    target: GLenum,
    samples: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    fixedsamplelocations: GLboolean,
) {
    ctx.tex_storage_2d_multisample(
        target,
        samples,
        internalformat,
        width,
        height,
        fixedsamplelocations != 0,
    )
}

#[allow(clippy::too_many_arguments)]
pub fn TexStorage3DMultisample(
    ctx: &mut Context,
    target: GLenum,
    samples: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    fixedsamplelocations: GLboolean,
) {
    ctx.tex_storage_3d_multisample(
        target,
        samples,
        internalformat,
        width,
        height,
        depth,
        fixedsamplelocations != 0,
    )
}

pub fn TextureStorage2DMultisample(
    ctx: &mut Context,
    texture: GLuint,
    samples: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    fixedsamplelocations: GLboolean,
) {
    ctx.texture_storage_2d_multisample(
        texture,
        samples,
        internalformat,
        width,
        height,
        fixedsamplelocations != 0,
    )
}

#[allow(clippy::too_many_arguments)]
pub fn TextureStorage3DMultisample(
    ctx: &mut Context,
    texture: GLuint,
    samples: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    fixedsamplelocations: GLboolean,
) {
    ctx.texture_storage_3d_multisample(
        texture,
        samples,
        internalformat,
        width,
        height,
        depth,
        fixedsamplelocations != 0,
    )
}

pub fn MinSampleShading(ctx: &mut Context, value: GLfloat) {
    ctx.min_sample_shading(value)
}

#[allow(clippy::too_many_arguments)]
pub fn BlitNamedFramebuffer(
    ctx: &mut Context,
    read_framebuffer: GLuint,
    draw_framebuffer: GLuint,
    src_x0: GLint,
    src_y0: GLint,
    src_x1: GLint,
    src_y1: GLint,
    dst_x0: GLint,
    dst_y0: GLint,
    dst_x1: GLint,
    dst_y1: GLint,
    mask: GLbitfield,
    filter: GLenum,
) {
    ctx.blit_named_framebuffer(
        read_framebuffer,
        draw_framebuffer,
        [src_x0, src_y0, src_x1, src_y1],
        [dst_x0, dst_y0, dst_x1, dst_y1],
        mask,
        filter,
    )
}

pub unsafe fn ClearNamedFramebufferiv(
    ctx: &mut Context,
    framebuffer: GLuint,
    buffer: GLenum,
    drawbuffer: GLint,
    value: *const GLint,
) {
    // SAFETY: `value` holds the values `buffer` takes (GL 4.5 core §17.4.3.1).
    match unsafe { slice_len(value, clear_values(buffer)) } {
        Ok(v) => ctx.clear_named_framebufferiv(framebuffer, buffer, drawbuffer, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ClearNamedFramebufferuiv(
    ctx: &mut Context,
    framebuffer: GLuint,
    buffer: GLenum,
    drawbuffer: GLint,
    value: *const GLuint,
) {
    // SAFETY: `value` holds the values `buffer` takes (GL 4.5 core §17.4.3.1).
    match unsafe { slice_len(value, clear_values(buffer)) } {
        Ok(v) => ctx.clear_named_framebufferuiv(framebuffer, buffer, drawbuffer, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ClearNamedFramebufferfv(
    ctx: &mut Context,
    framebuffer: GLuint,
    buffer: GLenum,
    drawbuffer: GLint,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds the values `buffer` takes (GL 4.5 core §17.4.3.1).
    match unsafe { slice_len(value, clear_values(buffer)) } {
        Ok(v) => ctx.clear_named_framebufferfv(framebuffer, buffer, drawbuffer, v),
        Err(e) => fail(ctx, e),
    }
}

pub fn ClearNamedFramebufferfi(
    ctx: &mut Context,
    framebuffer: GLuint,
    buffer: GLenum,
    drawbuffer: GLint,
    depth: GLfloat,
    stencil: GLint,
) {
    ctx.clear_named_framebufferfi(framebuffer, buffer, drawbuffer, depth, stencil)
}

pub unsafe fn GetNamedRenderbufferParameteriv(
    ctx: &mut Context,
    renderbuffer: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: `params` is null or writable for one value.
    unsafe {
        write_one_unless_failed(ctx, params, |c| {
            c.get_named_renderbuffer_parameteriv(renderbuffer, pname)
        })
    }
}
