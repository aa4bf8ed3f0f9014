//! GL entry points of vertex arrays and vertex attributes (GL 4.5 core chapter 10).

use super::*;

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
