//! GL entry points of the named buffer commands, buffer copies and clears, the 64-bit and
//! pointer buffer queries and the buffer multi-bind commands (GL 4.5 core chapter 6).

use super::*;
use crate::api::pixels::{self, PixelStore};

/// `size` bytes at `data`, or None for a null `data`.
///
/// # Safety
/// `data` is null or readable for `size` bytes.
unsafe fn bytes_or_none<'a>(data: *const c_void, size: GLsizeiptr) -> Option<&'a [u8]> {
    if data.is_null() || size <= 0 {
        return None;
    }
    // SAFETY: non-null and readable for `size` bytes by the caller's contract.
    Some(unsafe { std::slice::from_raw_parts(data as *const u8, size as usize) })
}

pub unsafe fn NamedBufferData(
    ctx: &mut Context,
    buffer: GLuint,
    size: GLsizeiptr,
    data: *const c_void,
    usage: GLenum,
) {
    // SAFETY: `data` is null or holds `size` bytes (GL 4.5 core §6.2).
    let bytes = unsafe { bytes_or_none(data, size) };
    ctx.named_buffer_data(buffer, size, bytes, usage)
}

pub unsafe fn NamedBufferStorage(
    ctx: &mut Context,
    buffer: GLuint,
    size: GLsizeiptr,
    data: *const c_void,
    flags: GLbitfield,
) {
    // SAFETY: `data` is null or holds `size` bytes (GL 4.5 core §6.2).
    let bytes = unsafe { bytes_or_none(data, size) };
    ctx.named_buffer_storage(buffer, size, bytes, flags)
}

pub unsafe fn NamedBufferSubData(
    ctx: &mut Context,
    buffer: GLuint,
    offset: GLintptr,
    size: GLsizeiptr,
    data: *const c_void,
) {
    if size < 0 {
        return fail(ctx, GlError::InvalidValue("negative size"));
    }
    // SAFETY: `data` holds `size` bytes (GL 4.5 core §6.2.1).
    match unsafe { slice_len(data as *const u8, size as usize) } {
        Ok(d) => ctx.named_buffer_sub_data(buffer, offset, d),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn GetNamedBufferSubData(
    ctx: &mut Context,
    buffer: GLuint,
    offset: GLintptr,
    size: GLsizeiptr,
    data: *mut c_void,
) {
    let v = ctx.get_named_buffer_sub_data(buffer, offset, size);
    if !v.is_empty() && data.is_null() {
        return fail(ctx, GlError::InvalidValue("null data pointer"));
    }
    // SAFETY: `data` is writable for `size` bytes; `v` has `size` bytes or none.
    unsafe { write_out(data as *mut u8, &v) }
}

pub fn MapNamedBuffer(ctx: &mut Context, buffer: GLuint, access: GLenum) -> *mut c_void {
    ctx.map_named_buffer(buffer, access) as *mut c_void
}

pub fn MapNamedBufferRange(
    ctx: &mut Context,
    buffer: GLuint,
    offset: GLintptr,
    length: GLsizeiptr,
    access: GLbitfield,
) -> *mut c_void {
    ctx.map_named_buffer_range(buffer, offset, length, access) as *mut c_void
}

pub fn UnmapNamedBuffer(ctx: &mut Context, buffer: GLuint) -> GLboolean {
    gl_bool(ctx.unmap_named_buffer(buffer))
}

pub fn FlushMappedNamedBufferRange(
    ctx: &mut Context,
    buffer: GLuint,
    offset: GLintptr,
    length: GLsizeiptr,
) {
    ctx.flush_mapped_named_buffer_range(buffer, offset, length)
}

pub unsafe fn GetNamedBufferParameteriv(
    ctx: &mut Context,
    buffer: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    let get = |c: &mut Context| c.get_named_buffer_parameteriv(buffer, pname);
    // SAFETY: `params` is null or writable for one value.
    unsafe { write_one_unless_failed(ctx, params, get) }
}

pub unsafe fn GetNamedBufferParameteri64v(
    ctx: &mut Context,
    buffer: GLuint,
    pname: GLenum,
    params: *mut GLint64,
) {
    let get = |c: &mut Context| c.get_named_buffer_parameteri64v(buffer, pname);
    // SAFETY: `params` is null or writable for one value.
    unsafe { write_one_unless_failed(ctx, params, get) }
}

pub unsafe fn GetBufferParameteri64v(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *mut GLint64,
) {
    let get = |c: &mut Context| c.get_buffer_parameteri64v(target, pname);
    // SAFETY: `params` is null or writable for one value.
    unsafe { write_one_unless_failed(ctx, params, get) }
}

pub unsafe fn GetBufferPointerv(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *mut *mut c_void,
) {
    let get = |c: &mut Context| c.get_buffer_pointerv(target, pname) as *mut c_void;
    // SAFETY: `params` is null or writable for one pointer.
    unsafe { write_one_unless_failed(ctx, params, get) }
}

pub unsafe fn GetNamedBufferPointerv(
    ctx: &mut Context,
    buffer: GLuint,
    pname: GLenum,
    params: *mut *mut c_void,
) {
    let get = |c: &mut Context| c.get_named_buffer_pointerv(buffer, pname) as *mut c_void;
    // SAFETY: `params` is null or writable for one pointer.
    unsafe { write_one_unless_failed(ctx, params, get) }
}

pub fn CopyBufferSubData(
    ctx: &mut Context,
    readTarget: GLenum,
    writeTarget: GLenum,
    readOffset: GLintptr,
    writeOffset: GLintptr,
    size: GLsizeiptr,
) {
    ctx.copy_buffer_sub_data(readTarget, writeTarget, readOffset, writeOffset, size)
}

pub fn CopyNamedBufferSubData(
    ctx: &mut Context,
    readBuffer: GLuint,
    writeBuffer: GLuint,
    readOffset: GLintptr,
    writeOffset: GLintptr,
    size: GLsizeiptr,
) {
    ctx.copy_named_buffer_sub_data(readBuffer, writeBuffer, readOffset, writeOffset, size)
}

/// The one pixel of `format`/`type` at `data` a buffer clear repeats: None for a null
/// pointer (zeros) or a format/type pair the Context will refuse.
///
/// # Safety
/// `data` is null or readable for one pixel of `format`/`type`.
pub(super) unsafe fn clear_pixel<'a>(
    data: *const c_void,
    format: GLenum,
    ty: GLenum,
) -> Option<&'a [u8]> {
    let n = pixels::client_size(1, 1, format, ty, &PixelStore::INITIAL).ok()?;
    // SAFETY: forwarded (n bytes: one pixel).
    unsafe { bytes_or_none(data, n as GLsizeiptr) }
}

pub unsafe fn ClearBufferData(
    ctx: &mut Context,
    target: GLenum,
    internalformat: GLenum,
    format: GLenum,
    r#type: GLenum,
    data: *const c_void,
) {
    // SAFETY: `data` is null or one pixel of `format`/`type` (GL 4.5 core §6.5).
    let px = unsafe { clear_pixel(data, format, r#type) };
    ctx.clear_buffer_data(target, internalformat, format, r#type, px)
}

pub unsafe fn ClearBufferSubData(
    ctx: &mut Context,
    target: GLenum,
    internalformat: GLenum,
    offset: GLintptr,
    size: GLsizeiptr,
    format: GLenum,
    r#type: GLenum,
    data: *const c_void,
) {
    // SAFETY: `data` is null or one pixel of `format`/`type` (GL 4.5 core §6.5).
    let px = unsafe { clear_pixel(data, format, r#type) };
    ctx.clear_buffer_sub_data(target, internalformat, offset, size, format, r#type, px)
}

pub unsafe fn ClearNamedBufferData(
    ctx: &mut Context,
    buffer: GLuint,
    internalformat: GLenum,
    format: GLenum,
    r#type: GLenum,
    data: *const c_void,
) {
    // SAFETY: `data` is null or one pixel of `format`/`type` (GL 4.5 core §6.5).
    let px = unsafe { clear_pixel(data, format, r#type) };
    ctx.clear_named_buffer_data(buffer, internalformat, format, r#type, px)
}

pub unsafe fn ClearNamedBufferSubData(
    ctx: &mut Context,
    buffer: GLuint,
    internalformat: GLenum,
    offset: GLintptr,
    size: GLsizeiptr,
    format: GLenum,
    r#type: GLenum,
    data: *const c_void,
) {
    // SAFETY: `data` is null or one pixel of `format`/`type` (GL 4.5 core §6.5).
    let px = unsafe { clear_pixel(data, format, r#type) };
    ctx.clear_named_buffer_sub_data(buffer, internalformat, offset, size, format, r#type, px)
}

pub unsafe fn BindBuffersBase(
    ctx: &mut Context,
    target: GLenum,
    first: GLuint,
    count: GLsizei,
    buffers: *const GLuint,
) {
    if buffers.is_null() {
        return ctx.bind_buffers_base(target, first, count, None);
    }
    // SAFETY: `buffers` holds `count` names (ARB_multi_bind).
    match unsafe { slice(buffers, count, "negative count") } {
        Ok(b) => ctx.bind_buffers_base(target, first, count, Some(b)),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn BindBuffersRange(
    ctx: &mut Context,
    target: GLenum,
    first: GLuint,
    count: GLsizei,
    buffers: *const GLuint,
    offsets: *const GLintptr,
    sizes: *const GLsizeiptr,
) {
    if buffers.is_null() {
        return ctx.bind_buffers_range(target, first, count, None, &[], &[]);
    }
    // SAFETY: each array holds `count` elements (ARB_multi_bind).
    let arrays = unsafe {
        slice(buffers, count, "negative count").and_then(|b| {
            Ok((
                b,
                slice(offsets, count, "negative count")?,
                slice(sizes, count, "negative count")?,
            ))
        })
    };
    match arrays {
        Ok((b, o, s)) => ctx.bind_buffers_range(target, first, count, Some(b), o, s),
        Err(e) => fail(ctx, e),
    }
}
