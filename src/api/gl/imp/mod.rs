//! The C marshalling of every GL command softgl exposes, one file per GL chapter (mirroring
//! `api/`): `fn Name` is `glName`, its parameters after `ctx` exactly the registry's C types
//! (`build.rs` reads every file of this folder, checks them against gl.xml and generates the
//! `extern "system"` shims). This file holds the registry's types and the helpers. Each
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

mod attrib_value;
mod bindless;
mod buffer;
mod buffer_dsa;
mod clear_texture;
mod compressed;
mod copy_image;
mod debug;
mod draw;
mod framebuffer;
mod framebuffer_params;
mod invalidate;
mod pipeline;
mod program;
mod program_binary;
mod query;
mod robustness;
mod state;
mod stencil;
mod storage;
mod subroutine;
mod texture;
mod transform_feedback;
mod uniform;
mod vertex_array;

pub use attrib_value::*;
pub use bindless::*;
pub use buffer::*;
pub use buffer_dsa::*;
pub use clear_texture::*;
pub use compressed::*;
pub use copy_image::*;
pub use debug::*;
pub use draw::*;
pub use framebuffer::*;
pub use framebuffer_params::*;
pub use invalidate::*;
pub use pipeline::*;
pub use program::*;
pub use program_binary::*;
pub use query::*;
pub use robustness::*;
pub use state::*;
pub use stencil::*;
pub use storage::*;
pub use subroutine::*;
pub use texture::*;
pub use transform_feedback::*;
pub use uniform::*;
pub use vertex_array::*;

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

/// The C caller's memory at `p` as the `len` bytes a download command asks for once its
/// checks have passed: empty for 0 bytes, GL_INVALID_VALUE for a null pointer.
///
/// # Safety
/// For `len` > 0, `p` is null or writable for `len` bytes that nothing else refers to
/// during the call (the command's contract: room for the packed image, checked against
/// bufSize first by the robust forms).
unsafe fn client_out<'o>(p: *mut c_void, len: usize) -> GlResult<&'o mut [u8]> {
    if len == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(GlError::InvalidValue("null pixels pointer"));
    }
    // SAFETY: non-null and writable for `len` bytes by the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts_mut(p as *mut u8, len) })
}

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

/// The C side of the name queries that check `buf_size` first (glGetProgramResourceName,
/// glGetActiveSubroutine(Uniform)Name): a negative size is INVALID_VALUE; otherwise
/// `get` answers, and an empty answer (names never are) means it recorded its error.
///
/// # Safety
/// As `return_string`.
unsafe fn return_name(
    ctx: &mut Context,
    buf_size: GLsizei,
    length: *mut GLsizei,
    buf: *mut GLchar,
    get: impl FnOnce(&mut Context) -> String,
) {
    if buf_size < 0 {
        return fail(ctx, GlError::InvalidValue("negative bufSize"));
    }
    let s = get(ctx);
    if s.is_empty() {
        return;
    }
    // SAFETY: forwarded.
    unsafe { return_string(ctx, &s, buf_size, length, buf) }
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
