//! One marshalling function per GL command softgl exposes through the C ABI: `fn Name` is
//! `glName`, its parameters after `ctx` exactly the registry's C types (`build.rs` checks
//! them against gl.xml and generates the `extern "system"` shims from this file). Each
//! turns C pointers and lengths into the slices and strings `Context` takes: a negative
//! count or size is the GL error the spec names, a null pointer where data is needed is
//! `GL_INVALID_VALUE` (never a dereference), a null out-pointer is skipped.
//!
//! Functions taking pointers are `unsafe fn`: their contract is the GL command's (pointers
//! valid for the sizes the spec derives from the other arguments).

#![allow(non_snake_case, clippy::too_many_arguments, clippy::missing_safety_doc)]

use std::collections::HashMap;
use std::ffi::{c_void, CStr};
use std::sync::{Mutex, OnceLock};

use crate::api::error::{DebugMessage, GlError, GlResult};
use crate::api::Context;
use crate::gl::enums as gl;

// The registry's basic types (gl.xml `<types>`), as the generated shims spell them.
pub type GLenum = u32;
pub type GLboolean = u8;
pub type GLbitfield = u32;
pub type GLbyte = i8;
pub type GLubyte = u8;
pub type GLshort = i16;
pub type GLushort = u16;
pub type GLint = i32;
pub type GLuint = u32;
pub type GLsizei = i32;
pub type GLfloat = f32;
pub type GLclampf = f32;
pub type GLdouble = f64;
pub type GLclampd = f64;
pub type GLchar = std::ffi::c_char;
pub type GLintptr = isize;
pub type GLsizeiptr = isize;
pub type GLint64 = i64;
pub type GLuint64 = u64;
pub type GLint64EXT = i64;
pub type GLuint64EXT = u64;
pub type GLsync = *mut c_void;
/// `typedef void (APIENTRY *GLDEBUGPROC)(GLenum source, GLenum type, GLuint id, GLenum
/// severity, GLsizei length, const GLchar *message, const void *userParam)`.
pub type GLDEBUGPROC = Option<
    unsafe extern "system" fn(
        GLenum,
        GLenum,
        GLuint,
        GLenum,
        GLsizei,
        *const GLchar,
        *const c_void,
    ),
>;

// ---- helpers ----

fn fail(ctx: &mut Context, e: GlError) {
    ctx.errors.record(e);
}

/// `n` elements at `p`: negative → INVALID_VALUE, zero → empty, null with n > 0 →
/// INVALID_VALUE.
///
/// # Safety
/// When `p` is not null it points to `n` readable `T`s that live for `'a`.
unsafe fn slice<'a, T>(p: *const T, n: GLsizei, what: &'static str) -> GlResult<&'a [T]> {
    if n < 0 {
        return Err(GlError::InvalidValue(what));
    }
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(GlError::InvalidValue("null pointer with a nonzero count"));
    }
    // SAFETY: non-null and, by the caller's contract, valid for `n` elements.
    Ok(unsafe { std::slice::from_raw_parts(p, n as usize) })
}

/// Like [`slice`] with a size in elements already known to be non-negative.
///
/// # Safety
/// As [`slice`].
unsafe fn slice_len<'a, T>(p: *const T, n: usize) -> GlResult<&'a [T]> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(GlError::InvalidValue("null pointer with a nonzero size"));
    }
    // SAFETY: non-null and, by the caller's contract, valid for `n` elements.
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

/// Copies `vals` to `p` (a null `p` is skipped: nowhere to write).
///
/// # Safety
/// When `p` is not null it is writable for `vals.len()` elements.
unsafe fn write_out<T: Copy>(p: *mut T, vals: &[T]) {
    if !p.is_null() && !vals.is_empty() {
        // SAFETY: the caller's contract; the regions cannot overlap (`vals` is ours).
        unsafe { std::ptr::copy_nonoverlapping(vals.as_ptr(), p, vals.len()) };
    }
}

/// Writes one value to `p` unless it is null.
///
/// # Safety
/// When `p` is not null it is writable.
unsafe fn write_one<T: Copy>(p: *mut T, v: T) {
    // SAFETY: forwarded.
    unsafe { write_out(p, &[v]) }
}

/// Runs the query `get` and writes its value to `p` only when it recorded no GL error
/// (a failed command has no side effects, GL 4.5 core §2.3.1, so `p` keeps its contents).
///
/// # Safety
/// As [`write_one`].
unsafe fn write_one_unless_failed<T: Copy>(
    ctx: &mut Context,
    p: *mut T,
    get: impl FnOnce(&mut Context) -> T,
) {
    let before = ctx.errors_recorded();
    let v = get(ctx);
    if ctx.errors_recorded() == before {
        // SAFETY: forwarded.
        unsafe { write_one(p, v) }
    }
}

/// A C string of `len` bytes, or NUL-terminated when `len` < 0 (the KHR_debug and
/// ShaderSource convention). Invalid UTF-8 is replaced, not trusted.
///
/// # Safety
/// `p` is not null and valid for `len` bytes, or NUL-terminated when `len` < 0.
unsafe fn c_string(p: *const GLchar, len: GLsizei) -> String {
    if len < 0 {
        // SAFETY: the caller's contract: NUL-terminated.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    } else {
        // SAFETY: the caller's contract: `len` readable bytes.
        let b = unsafe { std::slice::from_raw_parts(p as *const u8, len as usize) };
        String::from_utf8_lossy(b).into_owned()
    }
}

/// A NUL-terminated name argument (GetUniformLocation, ...); null → INVALID_VALUE.
///
/// # Safety
/// `p` is null or NUL-terminated.
unsafe fn name_arg(p: *const GLchar) -> GlResult<String> {
    if p.is_null() {
        return Err(GlError::InvalidValue("null name"));
    }
    // SAFETY: non-null and NUL-terminated by the caller's contract.
    Ok(unsafe { c_string(p, -1) })
}

/// The GL convention for returning a string (GL 4.5 core §7.13 GetShaderInfoLog and
/// others): at most `buf_size - 1` bytes and a NUL into `buf`, the count without the NUL
/// into `length`. A negative `buf_size` is INVALID_VALUE.
///
/// # Safety
/// `buf` (when not null) is writable for `buf_size` bytes; `length` is null or writable.
unsafe fn return_string(
    ctx: &mut Context,
    s: &str,
    buf_size: GLsizei,
    length: *mut GLsizei,
    buf: *mut GLchar,
) {
    if buf_size < 0 {
        return fail(ctx, GlError::InvalidValue("negative bufSize"));
    }
    let n = if buf.is_null() || buf_size == 0 {
        0
    } else {
        s.len().min(buf_size as usize - 1)
    };
    if !buf.is_null() && buf_size > 0 {
        // SAFETY: `buf` holds `buf_size` > n bytes by the caller's contract.
        unsafe {
            std::ptr::copy_nonoverlapping(s.as_ptr(), buf as *mut u8, n);
            *buf.add(n) = 0;
        }
    }
    // SAFETY: forwarded.
    unsafe { write_one(length, n as GLsizei) };
}

/// A string glGetString returns: it must stay valid for the context's life, so each
/// distinct string is interned once for the process (a handful: vendor, renderer per
/// thread count, versions, extension names).
fn interned(s: &str) -> *const GLubyte {
    static TABLE: OnceLock<Mutex<HashMap<String, &'static CStr>>> = OnceLock::new();
    let table = TABLE.get_or_init(Default::default);
    let mut t = match table.lock() {
        Ok(t) => t,
        Err(p) => p.into_inner(),
    };
    if let Some(c) = t.get(s) {
        return c.as_ptr() as *const GLubyte;
    }
    let owned = std::ffi::CString::new(s.replace('\0', "")).unwrap_or_default();
    let leaked: &'static CStr = Box::leak(owned.into_boxed_c_str());
    t.insert(s.to_string(), leaked);
    leaked.as_ptr() as *const GLubyte
}

fn b(v: GLboolean) -> bool {
    v != 0
}

fn gl_bool(v: bool) -> GLboolean {
    v as GLboolean
}

/// `n` names to generate or create: negative is INVALID_VALUE (GL 4.5 core §2.2.2).
///
/// # Safety
/// `out` is null or writable for `n` names.
unsafe fn gen_names(ctx: &mut Context, n: GLsizei, out: *mut GLuint, names: Vec<u32>) {
    if n > 0 && out.is_null() {
        return fail(ctx, GlError::InvalidValue("null names pointer"));
    }
    // SAFETY: forwarded (the Context returns exactly `n` names, or none on error).
    unsafe { write_out(out, &names) }
}

/// Runs a name-generating command after checking its arguments.
///
/// # Safety
/// `out` is null or writable for `n` names.
unsafe fn gen_with(
    ctx: &mut Context,
    n: GLsizei,
    out: *mut GLuint,
    f: impl FnOnce(&mut Context, i32) -> Vec<u32>,
) {
    if n > 0 && out.is_null() {
        return fail(ctx, GlError::InvalidValue("null names pointer"));
    }
    let names = f(ctx, n);
    // SAFETY: forwarded.
    unsafe { gen_names(ctx, n, out, names) }
}

/// Runs a delete command on `n` names at `p`.
///
/// # Safety
/// `p` is null or readable for `n` names.
unsafe fn delete_with(
    ctx: &mut Context,
    n: GLsizei,
    p: *const GLuint,
    f: impl FnOnce(&mut Context, &[u32]),
) {
    // SAFETY: forwarded.
    match unsafe { slice(p, n, "negative count") } {
        Ok(s) => f(ctx, s),
        Err(e) => fail(ctx, e),
    }
}

// ---- errors, state, queries ----

pub fn GetError(ctx: &mut Context) -> GLenum {
    ctx.get_error()
}

pub fn Finish(ctx: &mut Context) {
    ctx.finish()
}

pub fn Flush(ctx: &mut Context) {
    ctx.flush()
}

pub fn Enable(ctx: &mut Context, cap: GLenum) {
    ctx.enable(cap)
}

pub fn Disable(ctx: &mut Context, cap: GLenum) {
    ctx.disable(cap)
}

pub fn IsEnabled(ctx: &mut Context, cap: GLenum) -> GLboolean {
    gl_bool(ctx.is_enabled(cap))
}

pub fn GetString(ctx: &mut Context, name: GLenum) -> *const GLubyte {
    match ctx.get_string(name) {
        Some(s) => interned(&s),
        None => std::ptr::null(),
    }
}

pub fn GetStringi(ctx: &mut Context, name: GLenum, index: GLuint) -> *const GLubyte {
    match ctx.get_stringi(name, index) {
        Some(s) => interned(&s),
        None => std::ptr::null(),
    }
}

pub unsafe fn GetIntegerv(ctx: &mut Context, pname: GLenum, data: *mut GLint) {
    let v = ctx.get_integerv(pname);
    // SAFETY: the caller provides room for pname's value count.
    unsafe { write_out(data, &v) }
}

pub unsafe fn GetInteger64v(ctx: &mut Context, pname: GLenum, data: *mut GLint64) {
    let v: Vec<i64> = ctx.get_integerv(pname).into_iter().map(i64::from).collect();
    // SAFETY: the caller provides room for pname's value count.
    unsafe { write_out(data, &v) }
}

pub unsafe fn GetFloatv(ctx: &mut Context, pname: GLenum, data: *mut GLfloat) {
    let v = ctx.get_floatv(pname);
    // SAFETY: the caller provides room for pname's value count.
    unsafe { write_out(data, &v) }
}

pub unsafe fn GetDoublev(ctx: &mut Context, pname: GLenum, data: *mut GLdouble) {
    let v: Vec<f64> = ctx.get_floatv(pname).into_iter().map(f64::from).collect();
    // SAFETY: the caller provides room for pname's value count.
    unsafe { write_out(data, &v) }
}

pub unsafe fn GetBooleanv(ctx: &mut Context, pname: GLenum, data: *mut GLboolean) {
    let v: Vec<u8> = ctx.get_booleanv(pname).into_iter().map(gl_bool).collect();
    // SAFETY: the caller provides room for pname's value count.
    unsafe { write_out(data, &v) }
}

pub fn Viewport(ctx: &mut Context, x: GLint, y: GLint, width: GLsizei, height: GLsizei) {
    ctx.viewport(x, y, width, height)
}

pub fn DepthRange(ctx: &mut Context, n: GLdouble, f: GLdouble) {
    ctx.depth_range(n, f)
}

pub fn DepthRangef(ctx: &mut Context, n: GLfloat, f: GLfloat) {
    ctx.depth_range(f64::from(n), f64::from(f))
}

pub fn Scissor(ctx: &mut Context, x: GLint, y: GLint, width: GLsizei, height: GLsizei) {
    ctx.scissor(x, y, width, height)
}

pub fn ClearColor(ctx: &mut Context, r: GLfloat, g: GLfloat, b: GLfloat, a: GLfloat) {
    ctx.clear_color(r, g, b, a)
}

pub fn ClearDepth(ctx: &mut Context, depth: GLdouble) {
    ctx.clear_depth(depth)
}

pub fn ClearDepthf(ctx: &mut Context, d: GLfloat) {
    ctx.clear_depthf(d)
}

pub fn ClearStencil(ctx: &mut Context, s: GLint) {
    ctx.clear_stencil(s)
}

pub fn DepthFunc(ctx: &mut Context, func: GLenum) {
    ctx.depth_func(func)
}

pub fn DepthMask(ctx: &mut Context, flag: GLboolean) {
    ctx.depth_mask(b(flag))
}

pub fn ColorMask(ctx: &mut Context, r: GLboolean, g: GLboolean, bl: GLboolean, a: GLboolean) {
    ctx.color_mask(b(r), b(g), b(bl), b(a))
}

pub fn BlendFunc(ctx: &mut Context, sfactor: GLenum, dfactor: GLenum) {
    ctx.blend_func(sfactor, dfactor)
}

pub fn BlendFuncSeparate(
    ctx: &mut Context,
    src_rgb: GLenum,
    dst_rgb: GLenum,
    src_a: GLenum,
    dst_a: GLenum,
) {
    ctx.blend_func_separate(src_rgb, dst_rgb, src_a, dst_a)
}

pub fn BlendEquation(ctx: &mut Context, mode: GLenum) {
    ctx.blend_equation(mode)
}

pub fn BlendEquationSeparate(ctx: &mut Context, mode_rgb: GLenum, mode_alpha: GLenum) {
    ctx.blend_equation_separate(mode_rgb, mode_alpha)
}

pub fn BlendColor(ctx: &mut Context, r: GLfloat, g: GLfloat, b: GLfloat, a: GLfloat) {
    ctx.blend_color(r, g, b, a)
}

pub fn CullFace(ctx: &mut Context, mode: GLenum) {
    ctx.cull_face(mode)
}

pub fn FrontFace(ctx: &mut Context, mode: GLenum) {
    ctx.front_face(mode)
}

pub fn ProvokingVertex(ctx: &mut Context, mode: GLenum) {
    ctx.provoking_vertex(mode)
}

pub fn PixelStorei(ctx: &mut Context, pname: GLenum, param: GLint) {
    ctx.pixel_storei(pname, param)
}

// ---- KHR_debug (GL 4.5 core chapter 20) ----

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

// ---- drawing ----

pub fn Clear(ctx: &mut Context, mask: GLbitfield) {
    ctx.clear(mask)
}

pub fn DrawArrays(ctx: &mut Context, mode: GLenum, first: GLint, count: GLsizei) {
    ctx.draw_arrays(mode, first, count)
}

pub fn DrawArraysInstanced(
    ctx: &mut Context,
    mode: GLenum,
    first: GLint,
    count: GLsizei,
    instancecount: GLsizei,
) {
    ctx.draw_arrays_instanced(mode, first, count, instancecount)
}

pub fn DrawArraysInstancedBaseInstance(
    ctx: &mut Context,
    mode: GLenum,
    first: GLint,
    count: GLsizei,
    instancecount: GLsizei,
    baseinstance: GLuint,
) {
    ctx.draw_arrays_instanced_base_instance(mode, first, count, instancecount, baseinstance)
}

// Indices are offsets into the bound GL_ELEMENT_ARRAY_BUFFER: the core profile has no
// client-side index arrays (GL 4.5 core §10.3.10), so the pointer is only a number here.

pub fn DrawElements(
    ctx: &mut Context,
    mode: GLenum,
    count: GLsizei,
    r#type: GLenum,
    indices: *const c_void,
) {
    ctx.draw_elements(mode, count, r#type, indices as usize)
}

pub fn DrawElementsBaseVertex(
    ctx: &mut Context,
    mode: GLenum,
    count: GLsizei,
    r#type: GLenum,
    indices: *const c_void,
    basevertex: GLint,
) {
    ctx.draw_elements_base_vertex(mode, count, r#type, indices as usize, basevertex)
}

pub fn DrawElementsInstanced(
    ctx: &mut Context,
    mode: GLenum,
    count: GLsizei,
    r#type: GLenum,
    indices: *const c_void,
    instancecount: GLsizei,
) {
    ctx.draw_elements_instanced(mode, count, r#type, indices as usize, instancecount)
}

pub fn DrawElementsInstancedBaseVertex(
    ctx: &mut Context,
    mode: GLenum,
    count: GLsizei,
    r#type: GLenum,
    indices: *const c_void,
    instancecount: GLsizei,
    basevertex: GLint,
) {
    ctx.draw_elements_instanced_base_vertex(
        mode,
        count,
        r#type,
        indices as usize,
        instancecount,
        basevertex,
    )
}

pub unsafe fn ReadPixels(
    ctx: &mut Context,
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    r#type: GLenum,
    pixels: *mut c_void,
) {
    let data = ctx.read_pixels(x, y, width, height, format, r#type);
    if data.is_empty() {
        return;
    }
    if pixels.is_null() {
        return fail(ctx, GlError::InvalidValue("null pixels pointer"));
    }
    // SAFETY: the caller provides room for width×height pixels of format/type at the
    // current pack alignment, which is what `read_pixels` packed.
    unsafe { write_out(pixels as *mut u8, &data) }
}

// ---- buffers (GL 4.5 core chapter 6) ----

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

// ---- vertex arrays (GL 4.5 core chapter 10) ----

pub unsafe fn GenVertexArrays(ctx: &mut Context, n: GLsizei, arrays: *mut GLuint) {
    // SAFETY: `arrays` holds `n` names.
    unsafe { gen_with(ctx, n, arrays, Context::gen_vertex_arrays) }
}

pub unsafe fn CreateVertexArrays(ctx: &mut Context, n: GLsizei, arrays: *mut GLuint) {
    // SAFETY: `arrays` holds `n` names.
    unsafe { gen_with(ctx, n, arrays, Context::create_vertex_arrays) }
}

pub unsafe fn DeleteVertexArrays(ctx: &mut Context, n: GLsizei, arrays: *const GLuint) {
    // SAFETY: `arrays` holds `n` names.
    unsafe { delete_with(ctx, n, arrays, Context::delete_vertex_arrays) }
}

pub fn IsVertexArray(ctx: &mut Context, array: GLuint) -> GLboolean {
    gl_bool(ctx.is_vertex_array(array))
}

pub fn BindVertexArray(ctx: &mut Context, array: GLuint) {
    ctx.bind_vertex_array(array)
}

// The pointer argument is an offset into the bound GL_ARRAY_BUFFER (core profile: no
// client-side arrays, GL 4.5 core §10.3.9).

pub fn VertexAttribPointer(
    ctx: &mut Context,
    index: GLuint,
    size: GLint,
    r#type: GLenum,
    normalized: GLboolean,
    stride: GLsizei,
    pointer: *const c_void,
) {
    ctx.vertex_attrib_pointer(index, size, r#type, b(normalized), stride, pointer as usize)
}

pub fn VertexAttribIPointer(
    ctx: &mut Context,
    index: GLuint,
    size: GLint,
    r#type: GLenum,
    stride: GLsizei,
    pointer: *const c_void,
) {
    ctx.vertex_attrib_i_pointer(index, size, r#type, stride, pointer as usize)
}

pub fn VertexAttribLPointer(
    ctx: &mut Context,
    index: GLuint,
    size: GLint,
    r#type: GLenum,
    stride: GLsizei,
    pointer: *const c_void,
) {
    ctx.vertex_attrib_l_pointer(index, size, r#type, stride, pointer as usize)
}

pub fn EnableVertexAttribArray(ctx: &mut Context, index: GLuint) {
    ctx.enable_vertex_attrib_array(index)
}

pub fn DisableVertexAttribArray(ctx: &mut Context, index: GLuint) {
    ctx.disable_vertex_attrib_array(index)
}

pub fn VertexAttribDivisor(ctx: &mut Context, index: GLuint, divisor: GLuint) {
    ctx.vertex_attrib_divisor(index, divisor)
}

pub fn VertexAttrib1f(ctx: &mut Context, index: GLuint, x: GLfloat) {
    ctx.vertex_attrib_1f(index, x)
}

pub fn VertexAttrib2f(ctx: &mut Context, index: GLuint, x: GLfloat, y: GLfloat) {
    ctx.vertex_attrib_2f(index, x, y)
}

pub fn VertexAttrib3f(ctx: &mut Context, index: GLuint, x: GLfloat, y: GLfloat, z: GLfloat) {
    ctx.vertex_attrib_3f(index, x, y, z)
}

pub fn VertexAttrib4f(
    ctx: &mut Context,
    index: GLuint,
    x: GLfloat,
    y: GLfloat,
    z: GLfloat,
    w: GLfloat,
) {
    ctx.vertex_attrib_4f(index, x, y, z, w)
}

pub unsafe fn VertexAttrib4fv(ctx: &mut Context, index: GLuint, v: *const GLfloat) {
    // SAFETY: `v` holds 4 floats.
    match unsafe { slice_len(v, 4) } {
        Ok(v) => ctx.vertex_attrib_4fv(index, v),
        Err(e) => fail(ctx, e),
    }
}

pub fn VertexAttribI4i(ctx: &mut Context, index: GLuint, x: GLint, y: GLint, z: GLint, w: GLint) {
    ctx.vertex_attrib_i4i(index, x, y, z, w)
}

pub fn VertexAttribI4ui(
    ctx: &mut Context,
    index: GLuint,
    x: GLuint,
    y: GLuint,
    z: GLuint,
    w: GLuint,
) {
    ctx.vertex_attrib_i4ui(index, x, y, z, w)
}

pub fn VertexAttribL1ui64ARB(ctx: &mut Context, index: GLuint, x: GLuint64EXT) {
    ctx.vertex_attrib_l1ui64_arb(index, x)
}

pub unsafe fn VertexAttribL1ui64vARB(ctx: &mut Context, index: GLuint, v: *const GLuint64EXT) {
    // SAFETY: `v` holds one value.
    match unsafe { slice_len(v, 1) } {
        Ok(v) => ctx.vertex_attrib_l1ui64v_arb(index, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn GetVertexAttribLui64vARB(
    ctx: &mut Context,
    index: GLuint,
    pname: GLenum,
    params: *mut GLuint64EXT,
) {
    let v = ctx.get_vertex_attrib_lui64v_arb(index, pname);
    // SAFETY: `params` is null or writable for one value.
    unsafe { write_one(params, v) }
}

pub unsafe fn GetVertexAttribfv(
    ctx: &mut Context,
    index: GLuint,
    pname: GLenum,
    params: *mut GLfloat,
) {
    let v = ctx.get_vertex_attribfv(index, pname);
    // SAFETY: `params` has room for pname's values.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetVertexAttribiv(
    ctx: &mut Context,
    index: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_vertex_attribiv(index, pname);
    // SAFETY: `params` is null or writable for one value.
    unsafe { write_one(params, v) }
}

// ---- shaders and programs (GL 4.5 core chapter 7) ----

pub fn CreateShader(ctx: &mut Context, r#type: GLenum) -> GLuint {
    ctx.create_shader(r#type)
}

pub unsafe fn ShaderSource(
    ctx: &mut Context,
    shader: GLuint,
    count: GLsizei,
    string: *const *const GLchar,
    length: *const GLint,
) {
    // SAFETY: `string` holds `count` string pointers (GL 4.5 core §7.1).
    let ptrs = match unsafe { slice(string, count, "negative count") } {
        Ok(p) => p,
        Err(e) => return fail(ctx, e),
    };
    let lens = if length.is_null() {
        None
    } else {
        // SAFETY: a non-null `length` holds `count` lengths (GL 4.5 core §7.1).
        Some(unsafe { std::slice::from_raw_parts(length, ptrs.len()) })
    };
    let mut strings = Vec::with_capacity(ptrs.len());
    for (i, &p) in ptrs.iter().enumerate() {
        if p.is_null() {
            return fail(ctx, GlError::InvalidValue("null source string"));
        }
        let len = lens.map_or(-1, |l| l[i]);
        // SAFETY: string `i` holds `len` bytes, or is NUL-terminated when `len` < 0.
        strings.push(unsafe { c_string(p, len) });
    }
    let refs: Vec<&str> = strings.iter().map(String::as_str).collect();
    ctx.shader_source(shader, &refs)
}

pub unsafe fn GetShaderSource(
    ctx: &mut Context,
    shader: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    source: *mut GLchar,
) {
    let s = ctx.get_shader_source(shader);
    // SAFETY: forwarded.
    unsafe { return_string(ctx, &s, buf_size, length, source) }
}

pub fn CompileShader(ctx: &mut Context, shader: GLuint) {
    ctx.compile_shader(shader)
}

pub fn DeleteShader(ctx: &mut Context, shader: GLuint) {
    ctx.delete_shader(shader)
}

pub fn IsShader(ctx: &mut Context, shader: GLuint) -> GLboolean {
    gl_bool(ctx.is_shader(shader))
}

pub unsafe fn GetShaderiv(ctx: &mut Context, shader: GLuint, pname: GLenum, params: *mut GLint) {
    let v = ctx.get_shaderiv(shader, pname);
    // SAFETY: `params` is null or writable for one value.
    unsafe { write_one(params, v) }
}

pub unsafe fn GetShaderInfoLog(
    ctx: &mut Context,
    shader: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    info_log: *mut GLchar,
) {
    let s = ctx.get_shader_info_log(shader);
    // SAFETY: forwarded.
    unsafe { return_string(ctx, &s, buf_size, length, info_log) }
}

pub fn CreateProgram(ctx: &mut Context) -> GLuint {
    ctx.create_program()
}

pub fn IsProgram(ctx: &mut Context, program: GLuint) -> GLboolean {
    gl_bool(ctx.is_program(program))
}

pub fn AttachShader(ctx: &mut Context, program: GLuint, shader: GLuint) {
    ctx.attach_shader(program, shader)
}

pub fn DetachShader(ctx: &mut Context, program: GLuint, shader: GLuint) {
    ctx.detach_shader(program, shader)
}

pub unsafe fn GetAttachedShaders(
    ctx: &mut Context,
    program: GLuint,
    max_count: GLsizei,
    count: *mut GLsizei,
    shaders: *mut GLuint,
) {
    if max_count < 0 {
        return fail(ctx, GlError::InvalidValue("negative maxCount"));
    }
    let v = ctx.get_attached_shaders(program);
    let n = if shaders.is_null() {
        0
    } else {
        v.len().min(max_count as usize)
    };
    // SAFETY: `shaders` holds `max_count` ≥ n names; `count` is null or writable.
    unsafe {
        write_out(shaders, &v[..n]);
        write_one(count, n as GLsizei);
    }
}

pub fn DeleteProgram(ctx: &mut Context, program: GLuint) {
    ctx.delete_program(program)
}

pub unsafe fn BindAttribLocation(
    ctx: &mut Context,
    program: GLuint,
    index: GLuint,
    name: *const GLchar,
) {
    // SAFETY: `name` is null or NUL-terminated.
    match unsafe { name_arg(name) } {
        Ok(n) => ctx.bind_attrib_location(program, index, &n),
        Err(e) => fail(ctx, e),
    }
}

pub fn LinkProgram(ctx: &mut Context, program: GLuint) {
    ctx.link_program(program)
}

pub fn UseProgram(ctx: &mut Context, program: GLuint) {
    ctx.use_program(program)
}

pub fn ValidateProgram(ctx: &mut Context, program: GLuint) {
    ctx.validate_program(program)
}

pub unsafe fn GetProgramiv(ctx: &mut Context, program: GLuint, pname: GLenum, params: *mut GLint) {
    let v = ctx.get_programiv(program, pname);
    // SAFETY: `params` is null or writable for one value.
    unsafe { write_one(params, v) }
}

pub unsafe fn GetProgramInfoLog(
    ctx: &mut Context,
    program: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    info_log: *mut GLchar,
) {
    let s = ctx.get_program_info_log(program);
    // SAFETY: forwarded.
    unsafe { return_string(ctx, &s, buf_size, length, info_log) }
}

pub unsafe fn GetUniformLocation(ctx: &mut Context, program: GLuint, name: *const GLchar) -> GLint {
    // SAFETY: `name` is null or NUL-terminated.
    match unsafe { name_arg(name) } {
        Ok(n) => ctx.get_uniform_location(program, &n),
        Err(e) => {
            fail(ctx, e);
            -1
        }
    }
}

pub unsafe fn GetAttribLocation(ctx: &mut Context, program: GLuint, name: *const GLchar) -> GLint {
    // SAFETY: `name` is null or NUL-terminated.
    match unsafe { name_arg(name) } {
        Ok(n) => ctx.get_attrib_location(program, &n),
        Err(e) => {
            fail(ctx, e);
            -1
        }
    }
}

/// GetActiveUniform / GetActiveAttrib's outputs.
///
/// # Safety
/// As those commands: each out-pointer null or writable, `name` for `buf_size` bytes.
unsafe fn active_out(
    ctx: &mut Context,
    (size_v, ty_v, name_v): (i32, u32, String),
    buf_size: GLsizei,
    length: *mut GLsizei,
    size: *mut GLint,
    r#type: *mut GLenum,
    name: *mut GLchar,
) {
    if buf_size < 0 {
        return fail(ctx, GlError::InvalidValue("negative bufSize"));
    }
    if ty_v == 0 {
        // The Context recorded why (no such program or index).
        return;
    }
    // SAFETY: forwarded.
    unsafe {
        write_one(size, size_v);
        write_one(r#type, ty_v);
        return_string(ctx, &name_v, buf_size, length, name);
    }
}

pub unsafe fn GetActiveUniform(
    ctx: &mut Context,
    program: GLuint,
    index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    size: *mut GLint,
    r#type: *mut GLenum,
    name: *mut GLchar,
) {
    let v = ctx.get_active_uniform(program, index);
    // SAFETY: forwarded.
    unsafe { active_out(ctx, v, buf_size, length, size, r#type, name) }
}

pub unsafe fn GetActiveAttrib(
    ctx: &mut Context,
    program: GLuint,
    index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    size: *mut GLint,
    r#type: *mut GLenum,
    name: *mut GLchar,
) {
    let v = ctx.get_active_attrib(program, index);
    // SAFETY: forwarded.
    unsafe { active_out(ctx, v, buf_size, length, size, r#type, name) }
}

pub unsafe fn GetUniformBlockIndex(
    ctx: &mut Context,
    program: GLuint,
    uniform_block_name: *const GLchar,
) -> GLuint {
    // SAFETY: the name is null or NUL-terminated.
    match unsafe { name_arg(uniform_block_name) } {
        Ok(n) => ctx.get_uniform_block_index(program, &n),
        Err(e) => {
            fail(ctx, e);
            gl::INVALID_INDEX
        }
    }
}

pub fn UniformBlockBinding(
    ctx: &mut Context,
    program: GLuint,
    uniform_block_index: GLuint,
    uniform_block_binding: GLuint,
) {
    ctx.uniform_block_binding(program, uniform_block_index, uniform_block_binding)
}

pub unsafe fn GetActiveUniformBlockiv(
    ctx: &mut Context,
    program: GLuint,
    uniform_block_index: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_active_uniform_blockiv(program, uniform_block_index, pname);
    // SAFETY: `params` is null or writable for the values `pname` returns (one, or
    // UNIFORM_BLOCK_ACTIVE_UNIFORMS of them for the indices).
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetActiveUniformBlockName(
    ctx: &mut Context,
    program: GLuint,
    uniform_block_index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    uniform_block_name: *mut GLchar,
) {
    let s = ctx.get_active_uniform_block_name(program, uniform_block_index);
    if s.is_empty() {
        // Block names are never empty: the Context recorded why (no program or index).
        return;
    }
    // SAFETY: forwarded.
    unsafe { return_string(ctx, &s, buf_size, length, uniform_block_name) }
}

pub unsafe fn GetActiveUniformName(
    ctx: &mut Context,
    program: GLuint,
    uniform_index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    uniform_name: *mut GLchar,
) {
    let (_, ty, s) = ctx.get_active_uniform(program, uniform_index);
    if ty == 0 {
        // The Context recorded why (no such program or index).
        return;
    }
    // SAFETY: forwarded.
    unsafe { return_string(ctx, &s, buf_size, length, uniform_name) }
}

pub unsafe fn GetUniformIndices(
    ctx: &mut Context,
    program: GLuint,
    uniform_count: GLsizei,
    uniform_names: *const *const GLchar,
    uniform_indices: *mut GLuint,
) {
    // SAFETY: `uniform_names` holds `uniform_count` string pointers (GL 4.5 core §7.3.1.1).
    let ptrs = match unsafe { slice(uniform_names, uniform_count, "negative uniformCount") } {
        Ok(p) => p,
        Err(e) => return fail(ctx, e),
    };
    let mut names = Vec::with_capacity(ptrs.len());
    for &p in ptrs {
        // SAFETY: each name is null or NUL-terminated.
        match unsafe { name_arg(p) } {
            Ok(n) => names.push(n),
            Err(e) => return fail(ctx, e),
        }
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let v = ctx.get_uniform_indices(program, &refs);
    // SAFETY: `uniform_indices` is writable for `uniform_count` values; `v` is empty on error.
    unsafe { write_out(uniform_indices, &v) }
}

pub unsafe fn GetActiveUniformsiv(
    ctx: &mut Context,
    program: GLuint,
    uniform_count: GLsizei,
    uniform_indices: *const GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: `uniform_indices` holds `uniform_count` indices.
    let idx = match unsafe { slice(uniform_indices, uniform_count, "negative uniformCount") } {
        Ok(p) => p,
        Err(e) => return fail(ctx, e),
    };
    let v = ctx.get_active_uniformsiv(program, idx, pname);
    // SAFETY: `params` is writable for `uniform_count` values; `v` is empty on error.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetUniformfv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    params: *mut GLfloat,
) {
    let v = ctx.get_uniformfv(program, location);
    // SAFETY: `params` has room for the uniform's components.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetUniformiv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    params: *mut GLint,
) {
    let v = ctx.get_uniformiv(program, location);
    // SAFETY: `params` has room for the uniform's components.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetUniformuiv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    params: *mut GLuint,
) {
    let v = ctx.get_uniformuiv(program, location);
    // SAFETY: `params` has room for the uniform's components.
    unsafe { write_out(params, &v) }
}

// ---- uniforms (GL 4.5 core §7.6.1) ----

/// `count` elements of `per` components at `value`.
///
/// # Safety
/// `value` holds `count * per` components.
unsafe fn uniform_values<'a, T>(value: *const T, count: GLsizei, per: usize) -> GlResult<&'a [T]> {
    if count < 0 {
        return Err(GlError::InvalidValue("negative count"));
    }
    // SAFETY: forwarded.
    unsafe { slice_len(value, count as usize * per) }
}

pub fn Uniform1f(ctx: &mut Context, location: GLint, v0: GLfloat) {
    ctx.uniform_1f(location, v0)
}

pub fn ProgramUniform1f(ctx: &mut Context, program: GLuint, location: GLint, v0: GLfloat) {
    ctx.program_uniform_1f(program, location, v0)
}

pub fn Uniform2f(ctx: &mut Context, location: GLint, v0: GLfloat, v1: GLfloat) {
    ctx.uniform_2f(location, v0, v1)
}

pub fn ProgramUniform2f(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    v0: GLfloat,
    v1: GLfloat,
) {
    ctx.program_uniform_2f(program, location, v0, v1)
}

pub fn Uniform3f(ctx: &mut Context, location: GLint, v0: GLfloat, v1: GLfloat, v2: GLfloat) {
    ctx.uniform_3f(location, v0, v1, v2)
}

pub fn ProgramUniform3f(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    v0: GLfloat,
    v1: GLfloat,
    v2: GLfloat,
) {
    ctx.program_uniform_3f(program, location, v0, v1, v2)
}

pub fn Uniform4f(
    ctx: &mut Context,
    location: GLint,
    v0: GLfloat,
    v1: GLfloat,
    v2: GLfloat,
    v3: GLfloat,
) {
    ctx.uniform_4f(location, v0, v1, v2, v3)
}

pub fn ProgramUniform4f(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    v0: GLfloat,
    v1: GLfloat,
    v2: GLfloat,
    v3: GLfloat,
) {
    ctx.program_uniform_4f(program, location, v0, v1, v2, v3)
}

pub unsafe fn Uniform1fv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` × 1 components.
    match unsafe { uniform_values(value, count, 1) } {
        Ok(v) => ctx.uniform_1fv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform1fv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` × 1 components.
    match unsafe { uniform_values(value, count, 1) } {
        Ok(v) => ctx.program_uniform_1fv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn Uniform2fv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` × 2 components.
    match unsafe { uniform_values(value, count, 2) } {
        Ok(v) => ctx.uniform_2fv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform2fv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` × 2 components.
    match unsafe { uniform_values(value, count, 2) } {
        Ok(v) => ctx.program_uniform_2fv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn Uniform3fv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` × 3 components.
    match unsafe { uniform_values(value, count, 3) } {
        Ok(v) => ctx.uniform_3fv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform3fv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` × 3 components.
    match unsafe { uniform_values(value, count, 3) } {
        Ok(v) => ctx.program_uniform_3fv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn Uniform4fv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` × 4 components.
    match unsafe { uniform_values(value, count, 4) } {
        Ok(v) => ctx.uniform_4fv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform4fv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` × 4 components.
    match unsafe { uniform_values(value, count, 4) } {
        Ok(v) => ctx.program_uniform_4fv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub fn Uniform1i(ctx: &mut Context, location: GLint, v0: GLint) {
    ctx.uniform_1i(location, v0)
}

pub fn ProgramUniform1i(ctx: &mut Context, program: GLuint, location: GLint, v0: GLint) {
    ctx.program_uniform_1i(program, location, v0)
}

pub fn Uniform2i(ctx: &mut Context, location: GLint, v0: GLint, v1: GLint) {
    ctx.uniform_2i(location, v0, v1)
}

pub fn ProgramUniform2i(ctx: &mut Context, program: GLuint, location: GLint, v0: GLint, v1: GLint) {
    ctx.program_uniform_2i(program, location, v0, v1)
}

pub fn Uniform3i(ctx: &mut Context, location: GLint, v0: GLint, v1: GLint, v2: GLint) {
    ctx.uniform_3i(location, v0, v1, v2)
}

pub fn ProgramUniform3i(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    v0: GLint,
    v1: GLint,
    v2: GLint,
) {
    ctx.program_uniform_3i(program, location, v0, v1, v2)
}

pub fn Uniform4i(ctx: &mut Context, location: GLint, v0: GLint, v1: GLint, v2: GLint, v3: GLint) {
    ctx.uniform_4i(location, v0, v1, v2, v3)
}

pub fn ProgramUniform4i(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    v0: GLint,
    v1: GLint,
    v2: GLint,
    v3: GLint,
) {
    ctx.program_uniform_4i(program, location, v0, v1, v2, v3)
}

pub unsafe fn Uniform1iv(ctx: &mut Context, location: GLint, count: GLsizei, value: *const GLint) {
    // SAFETY: `value` holds `count` × 1 components.
    match unsafe { uniform_values(value, count, 1) } {
        Ok(v) => ctx.uniform_1iv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform1iv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLint,
) {
    // SAFETY: `value` holds `count` × 1 components.
    match unsafe { uniform_values(value, count, 1) } {
        Ok(v) => ctx.program_uniform_1iv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn Uniform2iv(ctx: &mut Context, location: GLint, count: GLsizei, value: *const GLint) {
    // SAFETY: `value` holds `count` × 2 components.
    match unsafe { uniform_values(value, count, 2) } {
        Ok(v) => ctx.uniform_2iv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform2iv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLint,
) {
    // SAFETY: `value` holds `count` × 2 components.
    match unsafe { uniform_values(value, count, 2) } {
        Ok(v) => ctx.program_uniform_2iv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn Uniform3iv(ctx: &mut Context, location: GLint, count: GLsizei, value: *const GLint) {
    // SAFETY: `value` holds `count` × 3 components.
    match unsafe { uniform_values(value, count, 3) } {
        Ok(v) => ctx.uniform_3iv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform3iv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLint,
) {
    // SAFETY: `value` holds `count` × 3 components.
    match unsafe { uniform_values(value, count, 3) } {
        Ok(v) => ctx.program_uniform_3iv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn Uniform4iv(ctx: &mut Context, location: GLint, count: GLsizei, value: *const GLint) {
    // SAFETY: `value` holds `count` × 4 components.
    match unsafe { uniform_values(value, count, 4) } {
        Ok(v) => ctx.uniform_4iv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform4iv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLint,
) {
    // SAFETY: `value` holds `count` × 4 components.
    match unsafe { uniform_values(value, count, 4) } {
        Ok(v) => ctx.program_uniform_4iv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub fn Uniform1ui(ctx: &mut Context, location: GLint, v0: GLuint) {
    ctx.uniform_1ui(location, v0)
}

pub fn ProgramUniform1ui(ctx: &mut Context, program: GLuint, location: GLint, v0: GLuint) {
    ctx.program_uniform_1ui(program, location, v0)
}

pub fn Uniform2ui(ctx: &mut Context, location: GLint, v0: GLuint, v1: GLuint) {
    ctx.uniform_2ui(location, v0, v1)
}

pub fn ProgramUniform2ui(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    v0: GLuint,
    v1: GLuint,
) {
    ctx.program_uniform_2ui(program, location, v0, v1)
}

pub fn Uniform3ui(ctx: &mut Context, location: GLint, v0: GLuint, v1: GLuint, v2: GLuint) {
    ctx.uniform_3ui(location, v0, v1, v2)
}

pub fn ProgramUniform3ui(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    v0: GLuint,
    v1: GLuint,
    v2: GLuint,
) {
    ctx.program_uniform_3ui(program, location, v0, v1, v2)
}

pub fn Uniform4ui(
    ctx: &mut Context,
    location: GLint,
    v0: GLuint,
    v1: GLuint,
    v2: GLuint,
    v3: GLuint,
) {
    ctx.uniform_4ui(location, v0, v1, v2, v3)
}

pub fn ProgramUniform4ui(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    v0: GLuint,
    v1: GLuint,
    v2: GLuint,
    v3: GLuint,
) {
    ctx.program_uniform_4ui(program, location, v0, v1, v2, v3)
}

pub unsafe fn Uniform1uiv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLuint,
) {
    // SAFETY: `value` holds `count` × 1 components.
    match unsafe { uniform_values(value, count, 1) } {
        Ok(v) => ctx.uniform_1uiv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform1uiv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLuint,
) {
    // SAFETY: `value` holds `count` × 1 components.
    match unsafe { uniform_values(value, count, 1) } {
        Ok(v) => ctx.program_uniform_1uiv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn Uniform2uiv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLuint,
) {
    // SAFETY: `value` holds `count` × 2 components.
    match unsafe { uniform_values(value, count, 2) } {
        Ok(v) => ctx.uniform_2uiv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform2uiv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLuint,
) {
    // SAFETY: `value` holds `count` × 2 components.
    match unsafe { uniform_values(value, count, 2) } {
        Ok(v) => ctx.program_uniform_2uiv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn Uniform3uiv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLuint,
) {
    // SAFETY: `value` holds `count` × 3 components.
    match unsafe { uniform_values(value, count, 3) } {
        Ok(v) => ctx.uniform_3uiv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform3uiv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLuint,
) {
    // SAFETY: `value` holds `count` × 3 components.
    match unsafe { uniform_values(value, count, 3) } {
        Ok(v) => ctx.program_uniform_3uiv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn Uniform4uiv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLuint,
) {
    // SAFETY: `value` holds `count` × 4 components.
    match unsafe { uniform_values(value, count, 4) } {
        Ok(v) => ctx.uniform_4uiv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform4uiv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLuint,
) {
    // SAFETY: `value` holds `count` × 4 components.
    match unsafe { uniform_values(value, count, 4) } {
        Ok(v) => ctx.program_uniform_4uiv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix2fv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 2 matrices.
    match unsafe { uniform_values(value, count, 4) } {
        Ok(v) => ctx.uniform_matrix_2fv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix2fv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 2 matrices.
    match unsafe { uniform_values(value, count, 4) } {
        Ok(v) => ctx.program_uniform_matrix_2fv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix3fv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 3 matrices.
    match unsafe { uniform_values(value, count, 9) } {
        Ok(v) => ctx.uniform_matrix_3fv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix3fv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 3 matrices.
    match unsafe { uniform_values(value, count, 9) } {
        Ok(v) => ctx.program_uniform_matrix_3fv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix4fv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 4 matrices.
    match unsafe { uniform_values(value, count, 16) } {
        Ok(v) => ctx.uniform_matrix_4fv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix4fv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 4 matrices.
    match unsafe { uniform_values(value, count, 16) } {
        Ok(v) => ctx.program_uniform_matrix_4fv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix2x3fv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 2x3 matrices.
    match unsafe { uniform_values(value, count, 6) } {
        Ok(v) => ctx.uniform_matrix_2x3fv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix2x3fv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 2x3 matrices.
    match unsafe { uniform_values(value, count, 6) } {
        Ok(v) => ctx.program_uniform_matrix_2x3fv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix3x2fv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 3x2 matrices.
    match unsafe { uniform_values(value, count, 6) } {
        Ok(v) => ctx.uniform_matrix_3x2fv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix3x2fv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 3x2 matrices.
    match unsafe { uniform_values(value, count, 6) } {
        Ok(v) => ctx.program_uniform_matrix_3x2fv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix2x4fv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 2x4 matrices.
    match unsafe { uniform_values(value, count, 8) } {
        Ok(v) => ctx.uniform_matrix_2x4fv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix2x4fv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 2x4 matrices.
    match unsafe { uniform_values(value, count, 8) } {
        Ok(v) => ctx.program_uniform_matrix_2x4fv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix4x2fv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 4x2 matrices.
    match unsafe { uniform_values(value, count, 8) } {
        Ok(v) => ctx.uniform_matrix_4x2fv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix4x2fv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 4x2 matrices.
    match unsafe { uniform_values(value, count, 8) } {
        Ok(v) => ctx.program_uniform_matrix_4x2fv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix3x4fv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 3x4 matrices.
    match unsafe { uniform_values(value, count, 12) } {
        Ok(v) => ctx.uniform_matrix_3x4fv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix3x4fv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 3x4 matrices.
    match unsafe { uniform_values(value, count, 12) } {
        Ok(v) => ctx.program_uniform_matrix_3x4fv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix4x3fv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 4x3 matrices.
    match unsafe { uniform_values(value, count, 12) } {
        Ok(v) => ctx.uniform_matrix_4x3fv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix4x3fv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLfloat,
) {
    // SAFETY: `value` holds `count` 4x3 matrices.
    match unsafe { uniform_values(value, count, 12) } {
        Ok(v) => ctx.program_uniform_matrix_4x3fv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub fn Uniform1ui64ARB(ctx: &mut Context, location: GLint, x: GLuint64) {
    ctx.uniform_1ui64_arb(location, x)
}

pub unsafe fn Uniform1ui64vARB(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLuint64,
) {
    // SAFETY: `value` holds `count` × 1 values.
    match unsafe { uniform_values(value, count, 1) } {
        Ok(v) => ctx.uniform_1ui64v_arb(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub fn Uniform2ui64ARB(ctx: &mut Context, location: GLint, x: GLuint64, y: GLuint64) {
    ctx.uniform_2ui64_arb(location, x, y)
}

pub unsafe fn Uniform2ui64vARB(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLuint64,
) {
    // SAFETY: `value` holds `count` × 2 values.
    match unsafe { uniform_values(value, count, 2) } {
        Ok(v) => ctx.uniform_2ui64v_arb(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub fn Uniform3ui64ARB(ctx: &mut Context, location: GLint, x: GLuint64, y: GLuint64, z: GLuint64) {
    ctx.uniform_3ui64_arb(location, x, y, z)
}

pub unsafe fn Uniform3ui64vARB(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLuint64,
) {
    // SAFETY: `value` holds `count` × 3 values.
    match unsafe { uniform_values(value, count, 3) } {
        Ok(v) => ctx.uniform_3ui64v_arb(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub fn Uniform4ui64ARB(
    ctx: &mut Context,
    location: GLint,
    x: GLuint64,
    y: GLuint64,
    z: GLuint64,
    w: GLuint64,
) {
    ctx.uniform_4ui64_arb(location, x, y, z, w)
}

pub unsafe fn Uniform4ui64vARB(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLuint64,
) {
    // SAFETY: `value` holds `count` × 4 values.
    match unsafe { uniform_values(value, count, 4) } {
        Ok(v) => ctx.uniform_4ui64v_arb(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub fn UniformHandleui64ARB(ctx: &mut Context, location: GLint, value: GLuint64) {
    ctx.uniform_handle_ui64_arb(location, value)
}

pub unsafe fn UniformHandleui64vARB(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLuint64,
) {
    // SAFETY: `value` holds `count` handles.
    match unsafe { uniform_values(value, count, 1) } {
        Ok(v) => ctx.uniform_handle_ui64v_arb(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub fn ProgramUniformHandleui64ARB(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    value: GLuint64,
) {
    ctx.program_uniform_handle_ui64_arb(program, location, value)
}

pub unsafe fn ProgramUniformHandleui64vARB(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    values: *const GLuint64,
) {
    // SAFETY: `values` holds `count` handles.
    match unsafe { uniform_values(values, count, 1) } {
        Ok(v) => ctx.program_uniform_handle_ui64v_arb(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

// ---- ARB_bindless_texture ----

pub fn GetTextureHandleARB(ctx: &mut Context, texture: GLuint) -> GLuint64 {
    ctx.get_texture_handle_arb(texture)
}

pub fn GetTextureSamplerHandleARB(ctx: &mut Context, texture: GLuint, sampler: GLuint) -> GLuint64 {
    ctx.get_texture_sampler_handle_arb(texture, sampler)
}

pub fn MakeTextureHandleResidentARB(ctx: &mut Context, handle: GLuint64) {
    ctx.make_texture_handle_resident_arb(handle)
}

pub fn MakeTextureHandleNonResidentARB(ctx: &mut Context, handle: GLuint64) {
    ctx.make_texture_handle_non_resident_arb(handle)
}

pub fn IsTextureHandleResidentARB(ctx: &mut Context, handle: GLuint64) -> GLboolean {
    gl_bool(ctx.is_texture_handle_resident_arb(handle))
}

// ---- textures, samplers, framebuffers, renderbuffers (GL 4.5 core chapters 8, 9) ----

pub unsafe fn GenTextures(ctx: &mut Context, n: GLsizei, textures: *mut GLuint) {
    // SAFETY: `textures` holds `n` names.
    unsafe { gen_with(ctx, n, textures, Context::gen_textures) }
}

pub unsafe fn DeleteTextures(ctx: &mut Context, n: GLsizei, textures: *const GLuint) {
    // SAFETY: `textures` holds `n` names.
    unsafe { delete_with(ctx, n, textures, Context::delete_textures) }
}

pub fn IsTexture(ctx: &mut Context, texture: GLuint) -> GLboolean {
    gl_bool(ctx.is_texture(texture))
}

pub unsafe fn GenSamplers(ctx: &mut Context, count: GLsizei, samplers: *mut GLuint) {
    // SAFETY: `samplers` holds `count` names.
    unsafe { gen_with(ctx, count, samplers, Context::gen_samplers) }
}

pub unsafe fn CreateSamplers(ctx: &mut Context, n: GLsizei, samplers: *mut GLuint) {
    // SAFETY: `samplers` holds `n` names.
    unsafe { gen_with(ctx, n, samplers, Context::create_samplers) }
}

pub unsafe fn DeleteSamplers(ctx: &mut Context, count: GLsizei, samplers: *const GLuint) {
    // SAFETY: `samplers` holds `count` names.
    unsafe { delete_with(ctx, count, samplers, Context::delete_samplers) }
}

pub fn IsSampler(ctx: &mut Context, sampler: GLuint) -> GLboolean {
    gl_bool(ctx.is_sampler(sampler))
}

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

pub unsafe fn CreateTextures(ctx: &mut Context, target: GLenum, n: GLsizei, textures: *mut GLuint) {
    // SAFETY: `textures` holds `n` names.
    unsafe { gen_with(ctx, n, textures, |c, n| c.create_textures(target, n)) }
}

pub fn ActiveTexture(ctx: &mut Context, texture: GLenum) {
    ctx.active_texture(texture)
}

pub fn BindTexture(ctx: &mut Context, target: GLenum, texture: GLuint) {
    ctx.bind_texture(target, texture)
}

/// The client bytes of a `width`×`height` image of `format`/`type` at `pixels` (GL 4.5
/// core §8.4.4), or None when `pixels` is null or the arguments are ones the Context will
/// reject itself (it then records the right error).
///
/// # Safety
/// `pixels` is null or readable for the image's size at the unpack alignment.
unsafe fn client_image<'a>(
    ctx: &Context,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) -> Option<&'a [u8]> {
    if pixels.is_null() || width < 0 || height < 0 {
        return None;
    }
    let n = crate::api::pixels::client_size(
        width as usize,
        height as usize,
        format,
        r#type,
        ctx.unpack_alignment,
    )
    .ok()?;
    // SAFETY: non-null and holding the image by the caller's contract; `n` > 0 here only
    // when width and height are.
    Some(unsafe { std::slice::from_raw_parts(pixels as *const u8, n) })
}

pub unsafe fn TexImage2D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    internalformat: GLint,
    width: GLsizei,
    height: GLsizei,
    border: GLint,
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) {
    // SAFETY: `pixels` is null or holds the image (GL 4.5 core §8.5).
    let data = unsafe { client_image(ctx, width, height, format, r#type, pixels) };
    ctx.tex_image_2d(
        target,
        level,
        internalformat,
        width,
        height,
        border,
        format,
        r#type,
        data,
    )
}

pub fn TexStorage2D(
    ctx: &mut Context,
    target: GLenum,
    levels: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
) {
    ctx.tex_storage_2d(target, levels, internalformat, width, height)
}

pub unsafe fn TexSubImage2D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) {
    let nonempty = width > 0 && height > 0;
    if nonempty && pixels.is_null() {
        return fail(ctx, GlError::InvalidValue("null pixels pointer"));
    }
    // SAFETY: `pixels` holds the image (GL 4.5 core §8.6).
    let data = unsafe { client_image(ctx, width, height, format, r#type, pixels) };
    ctx.tex_sub_image_2d(
        target,
        level,
        xoffset,
        yoffset,
        width,
        height,
        format,
        r#type,
        data.unwrap_or(&[]),
    )
}

pub fn GenerateMipmap(ctx: &mut Context, target: GLenum) {
    ctx.generate_mipmap(target)
}

/// How many values a `*Parameter*v` call reads for `pname` (GL 4.5 core table 23.18: the
/// border colour and swizzle vector have four, everything else one).
fn param_count(pname: GLenum) -> usize {
    match pname {
        gl::TEXTURE_BORDER_COLOR | gl::TEXTURE_SWIZZLE_RGBA => 4,
        _ => 1,
    }
}

pub fn TexParameteri(ctx: &mut Context, target: GLenum, pname: GLenum, param: GLint) {
    ctx.tex_parameter_i(target, pname, param)
}

pub fn TexParameterf(ctx: &mut Context, target: GLenum, pname: GLenum, param: GLfloat) {
    ctx.tex_parameter_f(target, pname, param)
}

pub unsafe fn TexParameteriv(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *const GLint,
) {
    // SAFETY: `params` holds pname's values.
    match unsafe { slice_len(params, param_count(pname)) } {
        Ok(v) => ctx.tex_parameter_iv(target, pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn TexParameterfv(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *const GLfloat,
) {
    // SAFETY: `params` holds pname's values.
    match unsafe { slice_len(params, param_count(pname)) } {
        Ok(v) => ctx.tex_parameter_fv(target, pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn GetTexParameteriv(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_tex_parameteriv(target, pname);
    // SAFETY: `params` is null or writable for one value.
    unsafe { write_one(params, v) }
}

pub unsafe fn GetTexLevelParameteriv(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_tex_level_parameteriv(target, level, pname);
    // SAFETY: `params` is null or writable for one value.
    unsafe { write_one(params, v) }
}

pub fn BindSampler(ctx: &mut Context, unit: GLuint, sampler: GLuint) {
    ctx.bind_sampler(unit, sampler)
}

pub fn SamplerParameteri(ctx: &mut Context, sampler: GLuint, pname: GLenum, param: GLint) {
    ctx.sampler_parameter_i(sampler, pname, param)
}

pub fn SamplerParameterf(ctx: &mut Context, sampler: GLuint, pname: GLenum, param: GLfloat) {
    ctx.sampler_parameter_f(sampler, pname, param)
}

pub unsafe fn SamplerParameteriv(
    ctx: &mut Context,
    sampler: GLuint,
    pname: GLenum,
    param: *const GLint,
) {
    // SAFETY: `param` holds pname's values.
    match unsafe { slice_len(param, param_count(pname)) } {
        Ok(v) => ctx.sampler_parameter_iv(sampler, pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn SamplerParameterfv(
    ctx: &mut Context,
    sampler: GLuint,
    pname: GLenum,
    param: *const GLfloat,
) {
    // SAFETY: `param` holds pname's values.
    match unsafe { slice_len(param, param_count(pname)) } {
        Ok(v) => ctx.sampler_parameter_fv(sampler, pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub fn BindFramebuffer(ctx: &mut Context, target: GLenum, framebuffer: GLuint) {
    ctx.bind_framebuffer(target, framebuffer)
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
    _zoffset: GLint,
) {
    ctx.framebuffer_texture_3d(target, attachment, textarget, texture, level)
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

// ---- framebuffer blits (GL 4.5 core §18.3.1) ----

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
