//! GL entry points of query objects, conditional rendering and sync objects (GL 4.5 core
//! §4.1–4.3, §10.9).

use super::*;

pub unsafe fn GenQueries(ctx: &mut Context, n: GLsizei, ids: *mut GLuint) {
    // SAFETY: `ids` is writable for `n` names (the caller's contract).
    unsafe { gen_with(ctx, n, ids, |c, n| c.gen_queries(n)) }
}

pub unsafe fn CreateQueries(ctx: &mut Context, target: GLenum, n: GLsizei, ids: *mut GLuint) {
    // SAFETY: `ids` is writable for `n` names (the caller's contract).
    unsafe { gen_with(ctx, n, ids, |c, n| c.create_queries(target, n)) }
}

pub unsafe fn DeleteQueries(ctx: &mut Context, n: GLsizei, ids: *const GLuint) {
    // SAFETY: `ids` is readable for `n` names (the caller's contract).
    unsafe { delete_with(ctx, n, ids, |c, s| c.delete_queries(s)) }
}

pub fn IsQuery(ctx: &mut Context, id: GLuint) -> GLboolean {
    gl_bool(ctx.is_query(id))
}

pub fn BeginQuery(ctx: &mut Context, target: GLenum, id: GLuint) {
    ctx.begin_query(target, id)
}

pub fn BeginQueryIndexed(ctx: &mut Context, target: GLenum, index: GLuint, id: GLuint) {
    ctx.begin_query_indexed(target, index, id)
}

pub fn EndQuery(ctx: &mut Context, target: GLenum) {
    ctx.end_query(target)
}

pub fn EndQueryIndexed(ctx: &mut Context, target: GLenum, index: GLuint) {
    ctx.end_query_indexed(target, index)
}

pub fn QueryCounter(ctx: &mut Context, id: GLuint, target: GLenum) {
    ctx.query_counter(id, target)
}

pub unsafe fn GetQueryiv(ctx: &mut Context, target: GLenum, pname: GLenum, params: *mut GLint) {
    // SAFETY: `params` is writable for one value (the caller's contract).
    unsafe { write_one_unless_failed(ctx, params, |c| c.get_queryiv(target, pname)) }
}

pub unsafe fn GetQueryIndexediv(
    ctx: &mut Context,
    target: GLenum,
    index: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: `params` is writable for one value (the caller's contract).
    unsafe { write_one_unless_failed(ctx, params, |c| c.get_query_indexediv(target, index, pname)) }
}

/// glGetQueryObject*: with a buffer bound to GL_QUERY_BUFFER, `params` is an offset into it
/// and the value goes there as `ty` (ARB_query_buffer_object, GL 4.5 core §4.2.3); else
/// it is written through `params`, saturated to `T` by `convert`, unless the call failed
/// or the result is not ready for GL_QUERY_RESULT_NO_WAIT.
///
/// # Safety
/// Without a query buffer, `params` is null or writable for one `T`.
unsafe fn get_query_object<T: Copy>(
    ctx: &mut Context,
    id: GLuint,
    pname: GLenum,
    params: *mut T,
    ty: GLenum,
    convert: impl FnOnce(u64) -> T,
) {
    if ctx.has_buffer_bound(gl::QUERY_BUFFER) {
        return ctx.get_query_object_into_buffer(id, 0, pname, params as isize, ty);
    }
    if let Some(v) = ctx.get_query_object(id, pname) {
        // SAFETY: forwarded.
        unsafe { write_one(params, convert(v)) }
    }
}

pub unsafe fn GetQueryObjectiv(ctx: &mut Context, id: GLuint, pname: GLenum, params: *mut GLint) {
    // SAFETY: forwarded from the caller's contract.
    unsafe {
        get_query_object(ctx, id, pname, params, gl::INT, |v| {
            v.min(i32::MAX as u64) as i32
        })
    }
}

pub unsafe fn GetQueryObjectuiv(ctx: &mut Context, id: GLuint, pname: GLenum, params: *mut GLuint) {
    // SAFETY: forwarded from the caller's contract.
    unsafe {
        get_query_object(ctx, id, pname, params, gl::UNSIGNED_INT, |v| {
            v.min(u32::MAX as u64) as u32
        })
    }
}

pub unsafe fn GetQueryObjecti64v(
    ctx: &mut Context,
    id: GLuint,
    pname: GLenum,
    params: *mut GLint64,
) {
    // SAFETY: forwarded from the caller's contract.
    unsafe {
        get_query_object(ctx, id, pname, params, gl::INT64_ARB, |v| {
            v.min(i64::MAX as u64) as i64
        })
    }
}

pub unsafe fn GetQueryObjectui64v(
    ctx: &mut Context,
    id: GLuint,
    pname: GLenum,
    params: *mut GLuint64,
) {
    // SAFETY: forwarded from the caller's contract.
    unsafe { get_query_object(ctx, id, pname, params, gl::UNSIGNED_INT64_ARB, |v| v) }
}

pub fn GetQueryBufferObjectiv(
    ctx: &mut Context,
    id: GLuint,
    buffer: GLuint,
    pname: GLenum,
    offset: GLintptr,
) {
    query_buffer_object(ctx, id, buffer, pname, offset, gl::INT)
}

pub fn GetQueryBufferObjectuiv(
    ctx: &mut Context,
    id: GLuint,
    buffer: GLuint,
    pname: GLenum,
    offset: GLintptr,
) {
    query_buffer_object(ctx, id, buffer, pname, offset, gl::UNSIGNED_INT)
}

pub fn GetQueryBufferObjecti64v(
    ctx: &mut Context,
    id: GLuint,
    buffer: GLuint,
    pname: GLenum,
    offset: GLintptr,
) {
    query_buffer_object(ctx, id, buffer, pname, offset, gl::INT64_ARB)
}

pub fn GetQueryBufferObjectui64v(
    ctx: &mut Context,
    id: GLuint,
    buffer: GLuint,
    pname: GLenum,
    offset: GLintptr,
) {
    query_buffer_object(ctx, id, buffer, pname, offset, gl::UNSIGNED_INT64_ARB)
}

/// glGetQueryBufferObject*: `buffer` must name a buffer (0 is not one here).
fn query_buffer_object(
    ctx: &mut Context,
    id: GLuint,
    buffer: GLuint,
    pname: GLenum,
    offset: GLintptr,
    ty: GLenum,
) {
    if buffer == 0 || !ctx.is_buffer(buffer) {
        return fail(ctx, GlError::InvalidOperation("not a buffer object"));
    }
    ctx.get_query_object_into_buffer(id, buffer, pname, offset, ty)
}

pub fn BeginConditionalRender(ctx: &mut Context, id: GLuint, mode: GLenum) {
    ctx.begin_conditional_render(id, mode)
}

pub fn EndConditionalRender(ctx: &mut Context) {
    ctx.end_conditional_render()
}

// Sync objects: a GLsync carries the fence's number in the share group (`api/sync.rs`);
// it is never dereferenced.

pub fn FenceSync(ctx: &mut Context, condition: GLenum, flags: GLbitfield) -> GLsync {
    ctx.fence_sync(condition, flags) as usize as GLsync
}

pub fn IsSync(ctx: &mut Context, sync: GLsync) -> GLboolean {
    gl_bool(ctx.is_sync(sync as usize as u64))
}

pub fn DeleteSync(ctx: &mut Context, sync: GLsync) {
    ctx.delete_sync(sync as usize as u64)
}

pub fn ClientWaitSync(
    ctx: &mut Context,
    sync: GLsync,
    flags: GLbitfield,
    timeout: GLuint64,
) -> GLenum {
    ctx.client_wait_sync(sync as usize as u64, flags, timeout)
}

pub fn WaitSync(ctx: &mut Context, sync: GLsync, flags: GLbitfield, timeout: GLuint64) {
    ctx.wait_sync(sync as usize as u64, flags, timeout)
}

pub unsafe fn GetSynciv(
    ctx: &mut Context,
    sync: GLsync,
    pname: GLenum,
    count: GLsizei,
    length: *mut GLsizei,
    values: *mut GLint,
) {
    if count < 0 {
        return fail(ctx, GlError::InvalidValue("negative bufSize"));
    }
    let before = ctx.errors_recorded();
    let v = ctx.get_synciv(sync as usize as u64, pname);
    if ctx.errors_recorded() != before {
        return;
    }
    let n = if count > 0 { 1 } else { 0 };
    // SAFETY: `values` is writable for `count` values and `length` for one (the caller's
    // contract); at most one value is written, and only when `count` > 0.
    unsafe {
        write_out(values, &[v][..n]);
        write_one(length, n as GLsizei);
    }
}
