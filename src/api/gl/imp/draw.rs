//! GL entry points that draw and clear (GL 4.5 core chapters 10 and 17) and glReadPixels (chapter 18).

use super::*;

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

pub fn DrawElementsInstancedBaseInstance(
    ctx: &mut Context,
    mode: GLenum,
    count: GLsizei,
    r#type: GLenum,
    indices: *const c_void,
    instancecount: GLsizei,
    baseinstance: GLuint,
) {
    ctx.draw_elements_instanced_base_instance(
        mode,
        count,
        r#type,
        indices as usize,
        instancecount,
        baseinstance,
    )
}

pub fn DrawElementsInstancedBaseVertexBaseInstance(
    ctx: &mut Context,
    mode: GLenum,
    count: GLsizei,
    r#type: GLenum,
    indices: *const c_void,
    instancecount: GLsizei,
    basevertex: GLint,
    baseinstance: GLuint,
) {
    ctx.draw_elements_instanced_base_vertex_base_instance(
        mode,
        count,
        r#type,
        indices as usize,
        instancecount,
        basevertex,
        baseinstance,
    )
}

pub fn DrawRangeElements(
    ctx: &mut Context,
    mode: GLenum,
    start: GLuint,
    end: GLuint,
    count: GLsizei,
    r#type: GLenum,
    indices: *const c_void,
) {
    ctx.draw_range_elements(mode, start, end, count, r#type, indices as usize)
}

pub fn DrawRangeElementsBaseVertex(
    ctx: &mut Context,
    mode: GLenum,
    start: GLuint,
    end: GLuint,
    count: GLsizei,
    r#type: GLenum,
    indices: *const c_void,
    basevertex: GLint,
) {
    ctx.draw_range_elements_base_vertex(
        mode,
        start,
        end,
        count,
        r#type,
        indices as usize,
        basevertex,
    )
}

pub unsafe fn MultiDrawArrays(
    ctx: &mut Context,
    mode: GLenum,
    first: *const GLint,
    count: *const GLsizei,
    drawcount: GLsizei,
) {
    // SAFETY: `first` and `count` hold `drawcount` values each.
    let r = unsafe {
        slice(first, drawcount, "negative drawcount")
            .and_then(|f| Ok((f, slice(count, drawcount, "negative drawcount")?)))
    };
    match r {
        Ok((f, c)) => ctx.multi_draw_arrays(mode, f, c),
        Err(e) => fail(ctx, e),
    }
}

/// The index offsets of a glMultiDrawElements* call (pointers into the element array
/// buffer, so numbers here: GL 4.5 core §10.3.10).
///
/// # Safety
/// `indices` holds `drawcount` pointers when `drawcount` > 0.
unsafe fn index_offsets(indices: *const *const c_void, drawcount: GLsizei) -> GlResult<Vec<usize>> {
    // SAFETY: forwarded.
    let p = unsafe { slice(indices, drawcount, "negative drawcount")? };
    Ok(p.iter().map(|&o| o as usize).collect())
}

pub unsafe fn MultiDrawElements(
    ctx: &mut Context,
    mode: GLenum,
    count: *const GLsizei,
    r#type: GLenum,
    indices: *const *const c_void,
    drawcount: GLsizei,
) {
    // SAFETY: `count` and `indices` hold `drawcount` values each.
    let r = unsafe {
        slice(count, drawcount, "negative drawcount")
            .and_then(|c| Ok((c, index_offsets(indices, drawcount)?)))
    };
    match r {
        Ok((c, o)) => ctx.multi_draw_elements(mode, c, r#type, &o),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn MultiDrawElementsBaseVertex(
    ctx: &mut Context,
    mode: GLenum,
    count: *const GLsizei,
    r#type: GLenum,
    indices: *const *const c_void,
    drawcount: GLsizei,
    basevertex: *const GLint,
) {
    // SAFETY: `count`, `indices` and `basevertex` hold `drawcount` values each.
    let r = unsafe {
        slice(count, drawcount, "negative drawcount").and_then(|c| {
            Ok((
                c,
                index_offsets(indices, drawcount)?,
                slice(basevertex, drawcount, "negative drawcount")?,
            ))
        })
    };
    match r {
        Ok((c, o, b)) => ctx.multi_draw_elements_base_vertex(mode, c, r#type, &o, b),
        Err(e) => fail(ctx, e),
    }
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
    if ctx.has_buffer_bound(gl::PIXEL_PACK_BUFFER) {
        // `pixels` is an offset into the pack buffer, never written as a pointer (§18.2).
        return ctx.read_pixels_to_buffer(x, y, width, height, format, r#type, pixels as usize);
    }
    // SAFETY: the caller provides room for the client image of width×height pixels of
    // format/type at the current pack alignment, which is `len` bytes (GL 4.5 core
    // §8.4.3.1; the last row unpadded).
    ctx.read_pixels_with(x, y, width, height, format, r#type, |len| unsafe {
        client_out(pixels, len)
    })
}

// The indirect draws: `indirect` is a byte offset into the GL_DRAW_INDIRECT_BUFFER (the
// core profile has no client-memory commands, GL 4.5 core §10.4), never dereferenced.

pub fn DrawArraysIndirect(ctx: &mut Context, mode: GLenum, indirect: *const c_void) {
    ctx.draw_arrays_indirect(mode, indirect as usize)
}

pub fn DrawElementsIndirect(
    ctx: &mut Context,
    mode: GLenum,
    r#type: GLenum,
    indirect: *const c_void,
) {
    ctx.draw_elements_indirect(mode, r#type, indirect as usize)
}

pub fn MultiDrawArraysIndirect(
    ctx: &mut Context,
    mode: GLenum,
    indirect: *const c_void,
    drawcount: GLsizei,
    stride: GLsizei,
) {
    ctx.multi_draw_arrays_indirect(mode, indirect as usize, drawcount, stride)
}

pub fn MultiDrawElementsIndirect(
    ctx: &mut Context,
    mode: GLenum,
    r#type: GLenum,
    indirect: *const c_void,
    drawcount: GLsizei,
    stride: GLsizei,
) {
    ctx.multi_draw_elements_indirect(mode, r#type, indirect as usize, drawcount, stride)
}

pub fn MultiDrawArraysIndirectCount(
    ctx: &mut Context,
    mode: GLenum,
    indirect: *const c_void,
    drawcount: GLintptr,
    maxdrawcount: GLsizei,
    stride: GLsizei,
) {
    ctx.multi_draw_arrays_indirect_count(mode, indirect as usize, drawcount, maxdrawcount, stride)
}

pub fn MultiDrawElementsIndirectCount(
    ctx: &mut Context,
    mode: GLenum,
    r#type: GLenum,
    indirect: *const c_void,
    drawcount: GLintptr,
    maxdrawcount: GLsizei,
    stride: GLsizei,
) {
    ctx.multi_draw_elements_indirect_count(
        mode,
        r#type,
        indirect as usize,
        drawcount,
        maxdrawcount,
        stride,
    )
}

pub fn PrimitiveRestartIndex(ctx: &mut Context, index: GLuint) {
    ctx.primitive_restart_index(index)
}

pub fn PatchParameteri(ctx: &mut Context, pname: GLenum, value: GLint) {
    ctx.patch_parameteri(pname, value)
}

pub unsafe fn PatchParameterfv(ctx: &mut Context, pname: GLenum, values: *const GLfloat) {
    // The outer levels are 4 values, the inner ones 2; another pname reads none.
    let n = match pname {
        gl::PATCH_DEFAULT_OUTER_LEVEL => 4,
        gl::PATCH_DEFAULT_INNER_LEVEL => 2,
        _ => 0,
    };
    // SAFETY: by glPatchParameterfv's contract `values` holds the `n` levels of `pname`.
    match unsafe { slice_len(values, n) } {
        Ok(v) => ctx.patch_parameterfv(pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub fn PointParameterf(ctx: &mut Context, pname: GLenum, param: GLfloat) {
    ctx.point_parameter_f(pname, param)
}

pub fn PointParameteri(ctx: &mut Context, pname: GLenum, param: GLint) {
    ctx.point_parameter_f(pname, param as GLfloat)
}

pub unsafe fn PointParameterfv(ctx: &mut Context, pname: GLenum, params: *const GLfloat) {
    // SAFETY: both point parameters take one value.
    match unsafe { slice_len(params, 1) } {
        Ok(v) => ctx.point_parameter_f(pname, v[0]),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn PointParameteriv(ctx: &mut Context, pname: GLenum, params: *const GLint) {
    // SAFETY: both point parameters take one value.
    match unsafe { slice_len(params, 1) } {
        Ok(v) => ctx.point_parameter_f(pname, v[0] as GLfloat),
        Err(e) => fail(ctx, e),
    }
}

pub fn PolygonOffset(ctx: &mut Context, factor: GLfloat, units: GLfloat) {
    ctx.polygon_offset(factor, units)
}

pub fn PolygonOffsetClamp(ctx: &mut Context, factor: GLfloat, units: GLfloat, clamp: GLfloat) {
    ctx.polygon_offset_clamp(factor, units, clamp)
}

pub fn PolygonMode(ctx: &mut Context, face: GLenum, mode: GLenum) {
    ctx.polygon_mode(face, mode)
}
