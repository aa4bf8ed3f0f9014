//! GL entry points of KHR_debug (GL 4.5 core chapter 20): the callback, message control and log, groups and object labels.

use super::*;

pub unsafe fn DebugMessageCallback(
    ctx: &mut Context,
    callback: GLDEBUGPROC,
    user_param: *const c_void,
) {
    let param = user_param as usize;
    let cb = callback.map(|f| {
        Box::new(move |m: &DebugMessage| {
            let Ok(text) = std::ffi::CString::new(m.message.replace('\0', "")) else {
                return;
            };
            // SAFETY: the application registered `f` as a GLDEBUGPROC; the message lives
            // for the call (KHR_debug: valid only during the callback), the user parameter
            // is handed back unchanged.
            unsafe {
                f(
                    m.source,
                    m.ty,
                    m.id,
                    m.severity,
                    text.as_bytes().len() as GLsizei,
                    text.as_ptr(),
                    param as *const c_void,
                )
            }
        }) as crate::api::error::DebugCallback
    });
    let fn_addr = callback.map_or(0, |f| f as usize);
    ctx.debug_message_callback_with_pointers(cb, fn_addr, param);
}

pub unsafe fn DebugMessageControl(
    ctx: &mut Context,
    source: GLenum,
    r#type: GLenum,
    severity: GLenum,
    count: GLsizei,
    ids: *const GLuint,
    enabled: GLboolean,
) {
    // SAFETY: `ids` holds `count` ids (GL 4.5 core §20.4).
    match unsafe { slice(ids, count, "negative id count") } {
        Ok(ids) => ctx.debug_message_control(source, r#type, severity, ids, b(enabled)),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn DebugMessageInsert(
    ctx: &mut Context,
    source: GLenum,
    r#type: GLenum,
    id: GLuint,
    severity: GLenum,
    length: GLsizei,
    buf: *const GLchar,
) {
    if buf.is_null() {
        return fail(ctx, GlError::InvalidValue("null message"));
    }
    // SAFETY: `buf` holds `length` bytes, or is NUL-terminated when `length` < 0.
    let text = unsafe { c_string(buf, length) };
    ctx.debug_message_insert(source, r#type, id, severity, &text)
}

pub unsafe fn GetDebugMessageLog(
    ctx: &mut Context,
    count: GLuint,
    buf_size: GLsizei,
    sources: *mut GLenum,
    types: *mut GLenum,
    ids: *mut GLuint,
    severities: *mut GLenum,
    lengths: *mut GLsizei,
    message_log: *mut GLchar,
) -> GLuint {
    if buf_size < 0 && !message_log.is_null() {
        fail(ctx, GlError::InvalidValue("negative bufSize"));
        return 0;
    }
    let room = (!message_log.is_null()).then_some(buf_size as usize);
    let msgs = ctx.get_debug_message_log(count, room);
    let mut at = 0usize;
    for (i, m) in msgs.iter().enumerate() {
        // SAFETY: each array, when given, holds `count` ≥ msgs.len() entries; the text
        // buffer holds `buf_size` bytes, and `get_debug_message_log` only returned
        // messages whose text and NUL fit.
        unsafe {
            if !sources.is_null() {
                *sources.add(i) = m.source;
            }
            if !types.is_null() {
                *types.add(i) = m.ty;
            }
            if !ids.is_null() {
                *ids.add(i) = m.id;
            }
            if !severities.is_null() {
                *severities.add(i) = m.severity;
            }
            if !lengths.is_null() {
                *lengths.add(i) = m.message.len() as GLsizei + 1;
            }
            if !message_log.is_null() {
                let dst = (message_log as *mut u8).add(at);
                std::ptr::copy_nonoverlapping(m.message.as_ptr(), dst, m.message.len());
                *dst.add(m.message.len()) = 0;
                at += m.message.len() + 1;
            }
        }
    }
    msgs.len() as GLuint
}

pub unsafe fn PushDebugGroup(
    ctx: &mut Context,
    source: GLenum,
    id: GLuint,
    length: GLsizei,
    message: *const GLchar,
) {
    if message.is_null() {
        return fail(ctx, GlError::InvalidValue("null message"));
    }
    // SAFETY: `message` holds `length` bytes, or is NUL-terminated when `length` < 0.
    let text = unsafe { c_string(message, length) };
    ctx.push_debug_group(source, id, &text)
}

pub fn PopDebugGroup(ctx: &mut Context) {
    ctx.pop_debug_group()
}

pub unsafe fn ObjectLabel(
    ctx: &mut Context,
    identifier: GLenum,
    name: GLuint,
    length: GLsizei,
    label: *const GLchar,
) {
    let text = if label.is_null() {
        None
    } else {
        // SAFETY: `label` holds `length` bytes, or is NUL-terminated when `length` < 0.
        Some(unsafe { c_string(label, length) })
    };
    ctx.object_label(identifier, name, text.as_deref())
}

pub unsafe fn GetObjectLabel(
    ctx: &mut Context,
    identifier: GLenum,
    name: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    label: *mut GLchar,
) {
    let s = ctx.get_object_label(identifier, name);
    // SAFETY: forwarded from the caller.
    unsafe { return_string(ctx, &s, buf_size, length, label) }
}

pub unsafe fn GetPointerv(ctx: &mut Context, pname: GLenum, params: *mut *mut c_void) {
    let v = ctx.get_pointerv(pname);
    // SAFETY: `params` is null or writable for one pointer.
    unsafe { write_one(params, v as *mut c_void) }
}

// Sync objects are the only objects ObjectPtrLabel names (GL 4.5 core §20.7); softgl has
// none yet, so every pointer is "not the name of a sync object": INVALID_VALUE.

pub fn ObjectPtrLabel(
    ctx: &mut Context,
    _ptr: *const c_void,
    _length: GLsizei,
    _label: *const GLchar,
) {
    fail(
        ctx,
        GlError::InvalidValue("not a sync object (softgl has no sync objects)"),
    )
}

pub fn GetObjectPtrLabel(
    ctx: &mut Context,
    _ptr: *const c_void,
    _buf_size: GLsizei,
    _length: *mut GLsizei,
    _label: *mut GLchar,
) {
    fail(
        ctx,
        GlError::InvalidValue("not a sync object (softgl has no sync objects)"),
    )
}
