//! GL entry points of uniforms and uniform blocks (GL 4.5 core §7.6).

use super::*;
use crate::api::names::ProgramObjectName;
use crate::api::program::ProgramObject;

/// The `count` elements of `per` components at `value` that a glUniform*v or
/// glProgramUniform*v at `location` of `program` (None: the current program) uses, so that
/// neither the slice over the application's array nor any allocation is sized by elements
/// GL ignores: `glUniform1fv(location_of_float[4], 1 << 30, v)` is legal and reads 4.
///
/// # Safety
/// `value` holds `used_count(..)` × `per` components (at most `count * per`).
unsafe fn uniform_values<'a, T>(
    ctx: &Context,
    program: Option<GLuint>,
    location: GLint,
    value: *const T,
    count: GLsizei,
    per: usize,
) -> GlResult<&'a [T]> {
    if count < 0 {
        return Err(GlError::InvalidValue("negative count"));
    }
    let used = used_count(ctx, program, location, count as usize);
    // SAFETY: forwarded; `used` ≤ `count`.
    unsafe { slice_len(value, used * per) }
}

/// How many of `count` elements a uniform upload at `location` can use (GL 4.5 core
/// §7.6.1: "if count is greater than the number of elements remaining in the array, the
/// excess elements are ignored"): the array's elements from `location`'s to its end. A
/// non-array keeps up to 2, so that the command still reports "count > 1 for a non-array
/// uniform"; a location the command will refuse or ignore (-1, not linked, no program)
/// keeps at most 1: the command reports that error, or ignores the call, without reading.
fn used_count(ctx: &Context, program: Option<GLuint>, location: GLint, count: usize) -> usize {
    let Some(program) = program.or(ctx.uniform_program()) else {
        return count.min(1);
    };
    let room = ctx.read_group(|o| {
        let Some(ProgramObject::Program(p)) = o.programs.get(ProgramObjectName(program)) else {
            return None;
        };
        let linked = &p.exe.as_ref()?.linked;
        let (ui, elem) = linked.uniform_at(location)?;
        let u = linked.uniforms.get(ui as usize)?;
        Some(match u.array_len {
            Some(n) => n.saturating_sub(elem).max(1) as usize,
            None => 2,
        })
    });
    count.min(room.unwrap_or(1))
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
    match unsafe { uniform_values(ctx, None, location, value, count, 1) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 1) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 2) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 2) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 3) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 3) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 4) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 4) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 1) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 1) } {
        Ok(v) => ctx.program_uniform_1iv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn Uniform2iv(ctx: &mut Context, location: GLint, count: GLsizei, value: *const GLint) {
    // SAFETY: `value` holds `count` × 2 components.
    match unsafe { uniform_values(ctx, None, location, value, count, 2) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 2) } {
        Ok(v) => ctx.program_uniform_2iv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn Uniform3iv(ctx: &mut Context, location: GLint, count: GLsizei, value: *const GLint) {
    // SAFETY: `value` holds `count` × 3 components.
    match unsafe { uniform_values(ctx, None, location, value, count, 3) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 3) } {
        Ok(v) => ctx.program_uniform_3iv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn Uniform4iv(ctx: &mut Context, location: GLint, count: GLsizei, value: *const GLint) {
    // SAFETY: `value` holds `count` × 4 components.
    match unsafe { uniform_values(ctx, None, location, value, count, 4) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 4) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 1) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 1) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 2) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 2) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 3) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 3) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 4) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 4) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 4) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 4) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 9) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 9) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 16) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 16) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 6) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 6) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 6) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 6) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 8) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 8) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 8) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 8) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 12) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 12) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 12) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 12) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 1) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 2) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 3) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 4) } {
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
    match unsafe { uniform_values(ctx, None, location, value, count, 1) } {
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
    match unsafe { uniform_values(ctx, Some(program), location, values, count, 1) } {
        Ok(v) => ctx.program_uniform_handle_ui64v_arb(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

// ---- doubles (GL 4.0 §7.6.1): glUniform*d, glUniformMatrix*dv and their glProgramUniform twins ----

pub fn Uniform1d(ctx: &mut Context, location: GLint, x: GLdouble) {
    ctx.uniform_1d(location, x)
}

pub fn ProgramUniform1d(ctx: &mut Context, program: GLuint, location: GLint, x: GLdouble) {
    ctx.program_uniform_1d(program, location, x)
}

pub fn Uniform2d(ctx: &mut Context, location: GLint, x: GLdouble, y: GLdouble) {
    ctx.uniform_2d(location, x, y)
}

pub fn ProgramUniform2d(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    x: GLdouble,
    y: GLdouble,
) {
    ctx.program_uniform_2d(program, location, x, y)
}

pub fn Uniform3d(ctx: &mut Context, location: GLint, x: GLdouble, y: GLdouble, z: GLdouble) {
    ctx.uniform_3d(location, x, y, z)
}

pub fn ProgramUniform3d(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    x: GLdouble,
    y: GLdouble,
    z: GLdouble,
) {
    ctx.program_uniform_3d(program, location, x, y, z)
}

pub fn Uniform4d(
    ctx: &mut Context,
    location: GLint,
    x: GLdouble,
    y: GLdouble,
    z: GLdouble,
    w: GLdouble,
) {
    ctx.uniform_4d(location, x, y, z, w)
}

pub fn ProgramUniform4d(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    x: GLdouble,
    y: GLdouble,
    z: GLdouble,
    w: GLdouble,
) {
    ctx.program_uniform_4d(program, location, x, y, z, w)
}

pub unsafe fn Uniform1dv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` × 1 components.
    match unsafe { uniform_values(ctx, None, location, value, count, 1) } {
        Ok(v) => ctx.uniform_1dv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform1dv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` × 1 components.
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 1) } {
        Ok(v) => ctx.program_uniform_1dv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn Uniform2dv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` × 2 components.
    match unsafe { uniform_values(ctx, None, location, value, count, 2) } {
        Ok(v) => ctx.uniform_2dv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform2dv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` × 2 components.
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 2) } {
        Ok(v) => ctx.program_uniform_2dv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn Uniform3dv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` × 3 components.
    match unsafe { uniform_values(ctx, None, location, value, count, 3) } {
        Ok(v) => ctx.uniform_3dv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform3dv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` × 3 components.
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 3) } {
        Ok(v) => ctx.program_uniform_3dv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn Uniform4dv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` × 4 components.
    match unsafe { uniform_values(ctx, None, location, value, count, 4) } {
        Ok(v) => ctx.uniform_4dv(location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniform4dv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` × 4 components.
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 4) } {
        Ok(v) => ctx.program_uniform_4dv(program, location, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix2dv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 2 matrices.
    match unsafe { uniform_values(ctx, None, location, value, count, 4) } {
        Ok(v) => ctx.uniform_matrix_2dv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix2dv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 2 matrices.
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 4) } {
        Ok(v) => ctx.program_uniform_matrix_2dv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix3dv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 3 matrices.
    match unsafe { uniform_values(ctx, None, location, value, count, 9) } {
        Ok(v) => ctx.uniform_matrix_3dv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix3dv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 3 matrices.
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 9) } {
        Ok(v) => ctx.program_uniform_matrix_3dv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix4dv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 4 matrices.
    match unsafe { uniform_values(ctx, None, location, value, count, 16) } {
        Ok(v) => ctx.uniform_matrix_4dv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix4dv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 4 matrices.
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 16) } {
        Ok(v) => ctx.program_uniform_matrix_4dv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix2x3dv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 2x3 matrices.
    match unsafe { uniform_values(ctx, None, location, value, count, 6) } {
        Ok(v) => ctx.uniform_matrix_2x3dv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix2x3dv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 2x3 matrices.
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 6) } {
        Ok(v) => ctx.program_uniform_matrix_2x3dv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix3x2dv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 3x2 matrices.
    match unsafe { uniform_values(ctx, None, location, value, count, 6) } {
        Ok(v) => ctx.uniform_matrix_3x2dv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix3x2dv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 3x2 matrices.
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 6) } {
        Ok(v) => ctx.program_uniform_matrix_3x2dv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix2x4dv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 2x4 matrices.
    match unsafe { uniform_values(ctx, None, location, value, count, 8) } {
        Ok(v) => ctx.uniform_matrix_2x4dv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix2x4dv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 2x4 matrices.
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 8) } {
        Ok(v) => ctx.program_uniform_matrix_2x4dv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix4x2dv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 4x2 matrices.
    match unsafe { uniform_values(ctx, None, location, value, count, 8) } {
        Ok(v) => ctx.uniform_matrix_4x2dv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix4x2dv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 4x2 matrices.
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 8) } {
        Ok(v) => ctx.program_uniform_matrix_4x2dv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix3x4dv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 3x4 matrices.
    match unsafe { uniform_values(ctx, None, location, value, count, 12) } {
        Ok(v) => ctx.uniform_matrix_3x4dv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix3x4dv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 3x4 matrices.
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 12) } {
        Ok(v) => ctx.program_uniform_matrix_3x4dv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn UniformMatrix4x3dv(
    ctx: &mut Context,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 4x3 matrices.
    match unsafe { uniform_values(ctx, None, location, value, count, 12) } {
        Ok(v) => ctx.uniform_matrix_4x3dv(location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ProgramUniformMatrix4x3dv(
    ctx: &mut Context,
    program: GLuint,
    location: GLint,
    count: GLsizei,
    transpose: GLboolean,
    value: *const GLdouble,
) {
    // SAFETY: `value` holds `count` 4x3 matrices.
    match unsafe { uniform_values(ctx, Some(program), location, value, count, 12) } {
        Ok(v) => ctx.program_uniform_matrix_4x3dv(program, location, b(transpose), v),
        Err(e) => fail(ctx, e),
    }
}
