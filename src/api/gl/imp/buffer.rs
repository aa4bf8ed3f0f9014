//! GL entry points of buffer objects (GL 4.5 core chapter 6).

use super::*;

pub unsafe fn GenBuffers(ctx: &mut Context, n: GLsizei, buffers: *mut GLuint) {
    // SAFETY: `buffers` holds `n` names.
    unsafe { gen_with(ctx, n, buffers, Context::gen_buffers) }
}

pub unsafe fn CreateBuffers(ctx: &mut Context, n: GLsizei, buffers: *mut GLuint) {
    // SAFETY: `buffers` holds `n` names.
    unsafe { gen_with(ctx, n, buffers, Context::create_buffers) }
}

pub unsafe fn DeleteBuffers(ctx: &mut Context, n: GLsizei, buffers: *const GLuint) {
    // SAFETY: `buffers` holds `n` names.
    unsafe { delete_with(ctx, n, buffers, Context::delete_buffers) }
}

pub fn IsBuffer(ctx: &mut Context, buffer: GLuint) -> GLboolean {
    gl_bool(ctx.is_buffer(buffer))
}

pub fn BindBuffer(ctx: &mut Context, target: GLenum, buffer: GLuint) {
    ctx.bind_buffer(target, buffer)
}

pub fn BindBufferBase(ctx: &mut Context, target: GLenum, index: GLuint, buffer: GLuint) {
    ctx.bind_buffer_base(target, index, buffer)
}

pub fn BindBufferRange(
    ctx: &mut Context,
    target: GLenum,
    index: GLuint,
    buffer: GLuint,
    offset: GLintptr,
    size: GLsizeiptr,
) {
    ctx.bind_buffer_range(target, index, buffer, offset, size)
}

/// `size` bytes at `data`, or None for a null `data` (allocation only); a negative size is
/// left to the Context to reject.
///
/// # Safety
/// `data` is null or readable for `size` bytes.
unsafe fn buffer_bytes<'a>(data: *const c_void, size: GLsizeiptr) -> Option<&'a [u8]> {
    if data.is_null() || size <= 0 {
        return None;
    }
    // SAFETY: non-null and readable for `size` bytes by the caller's contract.
    Some(unsafe { std::slice::from_raw_parts(data as *const u8, size as usize) })
}

pub unsafe fn BufferData(
    ctx: &mut Context,
    target: GLenum,
    size: GLsizeiptr,
    data: *const c_void,
    usage: GLenum,
) {
    // SAFETY: `data` is null or holds `size` bytes (GL 4.5 core §6.2).
    let bytes = unsafe { buffer_bytes(data, size) };
    ctx.buffer_data(target, size, bytes, usage)
}

pub unsafe fn BufferStorage(
    ctx: &mut Context,
    target: GLenum,
    size: GLsizeiptr,
    data: *const c_void,
    flags: GLbitfield,
) {
    // SAFETY: `data` is null or holds `size` bytes (GL 4.5 core §6.2).
    let bytes = unsafe { buffer_bytes(data, size) };
    ctx.buffer_storage(target, size, bytes, flags)
}

pub unsafe fn BufferSubData(
    ctx: &mut Context,
    target: GLenum,
    offset: GLintptr,
    size: GLsizeiptr,
    data: *const c_void,
) {
    if size < 0 {
        return fail(ctx, GlError::InvalidValue("negative size"));
    }
    // SAFETY: `data` holds `size` bytes (GL 4.5 core §6.2.1).
    match unsafe { slice_len(data as *const u8, size as usize) } {
        Ok(d) => ctx.buffer_sub_data(target, offset, d),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn GetBufferSubData(
    ctx: &mut Context,
    target: GLenum,
    offset: GLintptr,
    size: GLsizeiptr,
    data: *mut c_void,
) {
    let v = ctx.get_buffer_sub_data(target, offset, size);
    if !v.is_empty() && data.is_null() {
        return fail(ctx, GlError::InvalidValue("null data pointer"));
    }
    // SAFETY: `data` is writable for `size` bytes; `v` has `size` bytes or none.
    unsafe { write_out(data as *mut u8, &v) }
}

pub fn MapBufferRange(
    ctx: &mut Context,
    target: GLenum,
    offset: GLintptr,
    length: GLsizeiptr,
    access: GLbitfield,
) -> *mut c_void {
    ctx.map_buffer_range(target, offset, length, access) as *mut c_void
}

pub fn MapBuffer(ctx: &mut Context, target: GLenum, access: GLenum) -> *mut c_void {
    ctx.map_buffer(target, access) as *mut c_void
}

pub fn FlushMappedBufferRange(
    ctx: &mut Context,
    target: GLenum,
    offset: GLintptr,
    length: GLsizeiptr,
) {
    ctx.flush_mapped_buffer_range(target, offset, length)
}

pub fn UnmapBuffer(ctx: &mut Context, target: GLenum) -> GLboolean {
    gl_bool(ctx.unmap_buffer(target))
}

pub unsafe fn GetBufferParameteriv(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_buffer_parameteriv(target, pname);
    // SAFETY: `params` is null or writable for one value.
    unsafe { write_one(params, v) }
}
