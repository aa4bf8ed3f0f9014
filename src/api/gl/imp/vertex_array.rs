//! GL entry points of vertex arrays, attribute formats and vertex buffer bindings (GL 4.5
//! core chapter 10); the current attribute values are `attrib_value.rs`'.

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

pub unsafe fn GetVertexAttribiv(
    ctx: &mut Context,
    index: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    if pname == gl::CURRENT_VERTEX_ATTRIB {
        // Four values, read as floats and converted to integers (GL 4.5 core §10.5).
        let v = ctx.get_vertex_attribfv(index, pname);
        let v: Vec<GLint> = v.iter().map(|&x| x as GLint).collect();
        // SAFETY: `params` has room for 4 values.
        return unsafe { write_out(params, &v) };
    }
    // SAFETY: `params` is null or writable for one value.
    unsafe { write_one_unless_failed(ctx, params, |c| c.get_vertex_attribiv(index, pname)) }
}

pub fn BindVertexBuffer(
    ctx: &mut Context,
    bindingindex: GLuint,
    buffer: GLuint,
    offset: GLintptr,
    stride: GLsizei,
) {
    ctx.bind_vertex_buffer(bindingindex, buffer, offset, stride)
}

/// The buffer names (None: reset every binding), offsets and strides of a multi-bind.
type VertexBufferArrays<'a> = (Option<&'a [u32]>, &'a [isize], &'a [i32]);

/// The arrays of glBindVertexBuffers / glVertexArrayVertexBuffers: None for a null
/// `buffers` (the bindings are reset, `offsets` and `strides` ignored).
///
/// # Safety
/// Each non-null pointer holds `count` elements.
unsafe fn vertex_buffer_arrays<'a>(
    count: GLsizei,
    buffers: *const GLuint,
    offsets: *const GLintptr,
    strides: *const GLsizei,
) -> GlResult<VertexBufferArrays<'a>> {
    if count < 0 {
        return Err(GlError::InvalidValue("negative count"));
    }
    if buffers.is_null() {
        return Ok((None, &[], &[]));
    }
    // SAFETY: the caller's contract.
    unsafe {
        Ok((
            Some(slice(buffers, count, "negative count")?),
            slice(offsets, count, "negative count")?,
            slice(strides, count, "negative count")?,
        ))
    }
}

pub unsafe fn BindVertexBuffers(
    ctx: &mut Context,
    first: GLuint,
    count: GLsizei,
    buffers: *const GLuint,
    offsets: *const GLintptr,
    strides: *const GLsizei,
) {
    // SAFETY: each non-null array holds `count` elements (ARB_multi_bind).
    match unsafe { vertex_buffer_arrays(count, buffers, offsets, strides) } {
        Ok((b, o, s)) => ctx.bind_vertex_buffers(first, count, b, o, s),
        Err(e) => fail(ctx, e),
    }
}

pub fn VertexAttribFormat(
    ctx: &mut Context,
    attribindex: GLuint,
    size: GLint,
    r#type: GLenum,
    normalized: GLboolean,
    relativeoffset: GLuint,
) {
    ctx.vertex_attrib_format(attribindex, size, r#type, b(normalized), relativeoffset)
}

pub fn VertexAttribIFormat(
    ctx: &mut Context,
    attribindex: GLuint,
    size: GLint,
    r#type: GLenum,
    relativeoffset: GLuint,
) {
    ctx.vertex_attrib_i_format(attribindex, size, r#type, relativeoffset)
}

pub fn VertexAttribLFormat(
    ctx: &mut Context,
    attribindex: GLuint,
    size: GLint,
    r#type: GLenum,
    relativeoffset: GLuint,
) {
    ctx.vertex_attrib_l_format(attribindex, size, r#type, relativeoffset)
}

pub fn VertexAttribBinding(ctx: &mut Context, attribindex: GLuint, bindingindex: GLuint) {
    ctx.vertex_attrib_binding(attribindex, bindingindex)
}

pub fn VertexBindingDivisor(ctx: &mut Context, bindingindex: GLuint, divisor: GLuint) {
    ctx.vertex_binding_divisor(bindingindex, divisor)
}

pub fn VertexArrayVertexBuffer(
    ctx: &mut Context,
    vaobj: GLuint,
    bindingindex: GLuint,
    buffer: GLuint,
    offset: GLintptr,
    stride: GLsizei,
) {
    ctx.vertex_array_vertex_buffer(vaobj, bindingindex, buffer, offset, stride)
}

pub unsafe fn VertexArrayVertexBuffers(
    ctx: &mut Context,
    vaobj: GLuint,
    first: GLuint,
    count: GLsizei,
    buffers: *const GLuint,
    offsets: *const GLintptr,
    strides: *const GLsizei,
) {
    // SAFETY: each non-null array holds `count` elements (GL 4.5 core §10.3.1).
    match unsafe { vertex_buffer_arrays(count, buffers, offsets, strides) } {
        Ok((b, o, s)) => ctx.vertex_array_vertex_buffers(vaobj, first, count, b, o, s),
        Err(e) => fail(ctx, e),
    }
}

pub fn VertexArrayAttribFormat(
    ctx: &mut Context,
    vaobj: GLuint,
    attribindex: GLuint,
    size: GLint,
    r#type: GLenum,
    normalized: GLboolean,
    relativeoffset: GLuint,
) {
    let n = b(normalized);
    ctx.vertex_array_attrib_format(vaobj, attribindex, size, r#type, n, relativeoffset)
}

pub fn VertexArrayAttribIFormat(
    ctx: &mut Context,
    vaobj: GLuint,
    attribindex: GLuint,
    size: GLint,
    r#type: GLenum,
    relativeoffset: GLuint,
) {
    ctx.vertex_array_attrib_i_format(vaobj, attribindex, size, r#type, relativeoffset)
}

pub fn VertexArrayAttribLFormat(
    ctx: &mut Context,
    vaobj: GLuint,
    attribindex: GLuint,
    size: GLint,
    r#type: GLenum,
    relativeoffset: GLuint,
) {
    ctx.vertex_array_attrib_l_format(vaobj, attribindex, size, r#type, relativeoffset)
}

pub fn VertexArrayAttribBinding(
    ctx: &mut Context,
    vaobj: GLuint,
    attribindex: GLuint,
    bindingindex: GLuint,
) {
    ctx.vertex_array_attrib_binding(vaobj, attribindex, bindingindex)
}

pub fn VertexArrayBindingDivisor(
    ctx: &mut Context,
    vaobj: GLuint,
    bindingindex: GLuint,
    divisor: GLuint,
) {
    ctx.vertex_array_binding_divisor(vaobj, bindingindex, divisor)
}

pub fn VertexArrayElementBuffer(ctx: &mut Context, vaobj: GLuint, buffer: GLuint) {
    ctx.vertex_array_element_buffer(vaobj, buffer)
}

pub fn EnableVertexArrayAttrib(ctx: &mut Context, vaobj: GLuint, index: GLuint) {
    ctx.enable_vertex_array_attrib(vaobj, index)
}

pub fn DisableVertexArrayAttrib(ctx: &mut Context, vaobj: GLuint, index: GLuint) {
    ctx.disable_vertex_array_attrib(vaobj, index)
}

pub unsafe fn GetVertexArrayiv(ctx: &mut Context, vaobj: GLuint, pname: GLenum, param: *mut GLint) {
    // SAFETY: `param` is null or writable for one value.
    unsafe { write_one_unless_failed(ctx, param, |c| c.get_vertex_arrayiv(vaobj, pname)) }
}

pub unsafe fn GetVertexArrayIndexediv(
    ctx: &mut Context,
    vaobj: GLuint,
    index: GLuint,
    pname: GLenum,
    param: *mut GLint,
) {
    let get = |c: &mut Context| c.get_vertex_array_indexediv(vaobj, index, pname);
    // SAFETY: `param` is null or writable for one value.
    unsafe { write_one_unless_failed(ctx, param, get) }
}

pub unsafe fn GetVertexArrayIndexed64iv(
    ctx: &mut Context,
    vaobj: GLuint,
    index: GLuint,
    pname: GLenum,
    param: *mut GLint64,
) {
    let get = |c: &mut Context| c.get_vertex_array_indexed64iv(vaobj, index, pname);
    // SAFETY: `param` is null or writable for one value.
    unsafe { write_one_unless_failed(ctx, param, get) }
}
