//! GL entry points of shader subroutines (GL 4.5 core §7.10): the queries of a program's
//! subroutines and subroutine uniforms, and the context's selection.

use super::*;

pub unsafe fn GetSubroutineUniformLocation(
    ctx: &mut Context,
    program: GLuint,
    shadertype: GLenum,
    name: *const GLchar,
) -> GLint {
    // SAFETY: `name` is null or NUL-terminated.
    match unsafe { name_arg(name) } {
        Ok(n) => ctx.get_subroutine_uniform_location(program, shadertype, &n),
        Err(e) => {
            fail(ctx, e);
            -1
        }
    }
}

pub unsafe fn GetSubroutineIndex(
    ctx: &mut Context,
    program: GLuint,
    shadertype: GLenum,
    name: *const GLchar,
) -> GLuint {
    // SAFETY: `name` is null or NUL-terminated.
    match unsafe { name_arg(name) } {
        Ok(n) => ctx.get_subroutine_index(program, shadertype, &n),
        Err(e) => {
            fail(ctx, e);
            gl::INVALID_INDEX
        }
    }
}

pub unsafe fn GetActiveSubroutineUniformiv(
    ctx: &mut Context,
    program: GLuint,
    shadertype: GLenum,
    index: GLuint,
    pname: GLenum,
    values: *mut GLint,
) {
    let v = ctx.get_active_subroutine_uniformiv(program, shadertype, index, pname);
    // SAFETY: `values` is null or writable for the values `pname` returns (one, or
    // NUM_COMPATIBLE_SUBROUTINES of them for COMPATIBLE_SUBROUTINES); `v` is empty on error.
    unsafe { write_out(values, &v) }
}

pub unsafe fn GetActiveSubroutineUniformName(
    ctx: &mut Context,
    program: GLuint,
    shadertype: GLenum,
    index: GLuint,
    bufsize: GLsizei,
    length: *mut GLsizei,
    name: *mut GLchar,
) {
    // SAFETY: forwarded.
    unsafe {
        return_name(ctx, bufsize, length, name, |c| {
            c.get_active_subroutine_uniform_name(program, shadertype, index)
        })
    }
}

pub unsafe fn GetActiveSubroutineName(
    ctx: &mut Context,
    program: GLuint,
    shadertype: GLenum,
    index: GLuint,
    bufsize: GLsizei,
    length: *mut GLsizei,
    name: *mut GLchar,
) {
    // SAFETY: forwarded.
    unsafe {
        return_name(ctx, bufsize, length, name, |c| {
            c.get_active_subroutine_name(program, shadertype, index)
        })
    }
}

pub unsafe fn UniformSubroutinesuiv(
    ctx: &mut Context,
    shadertype: GLenum,
    count: GLsizei,
    indices: *const GLuint,
) {
    // SAFETY: `indices` holds `count` values (GL 4.5 core §7.10).
    match unsafe { slice(indices, count, "negative count") } {
        Ok(v) => ctx.uniform_subroutinesuiv(shadertype, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn GetUniformSubroutineuiv(
    ctx: &mut Context,
    shadertype: GLenum,
    location: GLint,
    params: *mut GLuint,
) {
    // SAFETY: `params` is null or writable for one value.
    unsafe {
        write_one_unless_failed(ctx, params, |c| {
            c.get_uniform_subroutineuiv(shadertype, location)
        })
    }
}
