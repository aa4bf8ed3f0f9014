//! GL entry points of GL_KHR_robustness (GL 4.5 core §2.3.1, §7.6.3? and §18.2.6):
//! glGetGraphicsResetStatus, glReadnPixels, glGetnUniform{f,i,ui}v. The logic is in
//! `api/robustness.rs`.

use super::*;

pub fn GetGraphicsResetStatus(ctx: &mut Context) -> GLenum {
    ctx.get_graphics_reset_status()
}

pub unsafe fn ReadnPixels(
    ctx: &mut Context,
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    r#type: GLenum,
    bufSize: GLsizei,
    data: *mut c_void,
) {
    if bufSize < 0 {
        return fail(ctx, GlError::InvalidValue("negative bufSize"));
    }
    ctx.read_pixels_with(x, y, width, height, format, r#type, |len| {
        if len == 0 {
            return Ok(&mut []);
        }
        if len > bufSize as usize {
            return Err(GlError::InvalidOperation(
                "the image is larger than bufSize bytes",
            ));
        }
        if data.is_null() {
            return Err(GlError::InvalidValue("null data pointer"));
        }
        // SAFETY: the caller provides `bufSize` writable bytes at `data` (KHR_robustness),
        // and `len` is at most that; nothing else refers to them during the call.
        Ok(unsafe { std::slice::from_raw_parts_mut(data as *mut u8, len) })
    })
}

pub unsafe fn GetnUniformfv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    bufSize: GLsizei,
    params: *mut GLfloat,
) {
    let v = ctx.getn_uniformfv(program, location, bufSize);
    // SAFETY: `params` has room for `bufSize` bytes; `v` fits them (empty on error).
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetnUniformiv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    bufSize: GLsizei,
    params: *mut GLint,
) {
    let v = ctx.getn_uniformiv(program, location, bufSize);
    // SAFETY: `params` has room for `bufSize` bytes; `v` fits them (empty on error).
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetnUniformuiv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    bufSize: GLsizei,
    params: *mut GLuint,
) {
    let v = ctx.getn_uniformuiv(program, location, bufSize);
    // SAFETY: `params` has room for `bufSize` bytes; `v` fits them (empty on error).
    unsafe { write_out(params, &v) }
}
