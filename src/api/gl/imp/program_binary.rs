//! GL entry points of hints, shader precision, program and shader binaries, program
//! parameters and the double uniform getters (GL 4.5 core §7.2, §7.5, §7.9, §21.5).

use super::*;

pub fn Hint(ctx: &mut Context, target: GLenum, mode: GLenum) {
    ctx.hint(target, mode)
}

pub fn ReleaseShaderCompiler(ctx: &mut Context) {
    ctx.release_shader_compiler()
}

pub unsafe fn GetShaderPrecisionFormat(
    ctx: &mut Context,
    shadertype: GLenum,
    precisiontype: GLenum,
    range: *mut GLint,
    precision: *mut GLint,
) {
    let before = ctx.errors_recorded();
    let (r, p) = ctx.get_shader_precision_format(shadertype, precisiontype);
    if ctx.errors_recorded() == before {
        // SAFETY: `range` holds 2 values and `precision` one (or they are null).
        unsafe {
            write_out(range, &r);
            write_one(precision, p);
        }
    }
}

pub unsafe fn ShaderBinary(
    ctx: &mut Context,
    count: GLsizei,
    shaders: *const GLuint,
    binaryFormat: GLenum,
    _binary: *const c_void,
    length: GLsizei,
) {
    if length < 0 {
        return fail(ctx, GlError::InvalidValue("negative length"));
    }
    // SAFETY: `shaders` holds `count` names. The binary is never read: no format exists.
    match unsafe { slice(shaders, count, "negative count") } {
        Ok(s) => ctx.shader_binary(s, binaryFormat, &[]),
        Err(e) => fail(ctx, e),
    }
}

pub fn ProgramBinary(
    ctx: &mut Context,
    program: GLuint,
    binaryFormat: GLenum,
    _binary: *const c_void,
    length: GLsizei,
) {
    if length < 0 {
        return fail(ctx, GlError::InvalidValue("negative length"));
    }
    // The binary is never read: no format exists.
    ctx.program_binary(program, binaryFormat, &[])
}

pub unsafe fn GetProgramBinary(
    ctx: &mut Context,
    program: GLuint,
    bufSize: GLsizei,
    length: *mut GLsizei,
    _binaryFormat: *mut GLenum,
    _binary: *mut c_void,
) {
    // SAFETY: `length` is null or writable for one value.
    unsafe { write_one_unless_failed(ctx, length, |c| c.get_program_binary(program, bufSize)) }
}

pub fn ProgramParameteri(ctx: &mut Context, program: GLuint, pname: GLenum, value: GLint) {
    ctx.program_parameteri(program, pname, value)
}

pub unsafe fn GetUniformdv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    params: *mut GLdouble,
) {
    let v = ctx.get_uniformdv(program, location);
    // SAFETY: `params` has room for the uniform's components.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetnUniformdv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    bufSize: GLsizei,
    params: *mut GLdouble,
) {
    let v = ctx.getn_uniformdv(program, location, bufSize);
    // SAFETY: `params` has room for `bufSize` bytes; `v` fits them (empty on error).
    unsafe { write_out(params, &v) }
}
