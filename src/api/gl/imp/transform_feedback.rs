//! GL entry points of transform feedback (GL 4.5 core §13.3, §7.13 varyings, §10.4
//! glDrawTransformFeedback*, ARB_transform_feedback2/3/instanced, GL 4.5 DSA).

use super::*;

pub unsafe fn TransformFeedbackVaryings(
    ctx: &mut Context,
    program: GLuint,
    count: GLsizei,
    varyings: *const *const GLchar,
    buffer_mode: GLenum,
) {
    // SAFETY: `varyings` holds `count` string pointers (GL 4.5 core §11.1.2.1).
    let ptrs = match unsafe { slice(varyings, count, "negative count") } {
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
    ctx.transform_feedback_varyings(program, &refs, buffer_mode)
}

pub unsafe fn GetTransformFeedbackVarying(
    ctx: &mut Context,
    program: GLuint,
    index: GLuint,
    buf_size: GLsizei,
    length: *mut GLsizei,
    size: *mut GLsizei,
    r#type: *mut GLenum,
    name: *mut GLchar,
) {
    if buf_size < 0 {
        return fail(ctx, GlError::InvalidValue("negative bufSize"));
    }
    let before = ctx.errors_recorded();
    let (size_v, ty_v, name_v) = ctx.get_transform_feedback_varying(program, index);
    if ctx.errors_recorded() != before {
        return;
    }
    // SAFETY: each out-pointer is null or writable (the caller's contract).
    unsafe {
        write_one(size, size_v);
        write_one(r#type, ty_v);
        return_string(ctx, &name_v, buf_size, length, name);
    }
}

pub fn BeginTransformFeedback(ctx: &mut Context, primitive_mode: GLenum) {
    ctx.begin_transform_feedback(primitive_mode)
}

pub fn EndTransformFeedback(ctx: &mut Context) {
    ctx.end_transform_feedback()
}

pub fn PauseTransformFeedback(ctx: &mut Context) {
    ctx.pause_transform_feedback()
}

pub fn ResumeTransformFeedback(ctx: &mut Context) {
    ctx.resume_transform_feedback()
}

pub unsafe fn GenTransformFeedbacks(ctx: &mut Context, n: GLsizei, ids: *mut GLuint) {
    // SAFETY: `ids` is writable for `n` names (the caller's contract).
    unsafe { gen_with(ctx, n, ids, |c, n| c.gen_transform_feedbacks(n)) }
}

pub unsafe fn CreateTransformFeedbacks(ctx: &mut Context, n: GLsizei, ids: *mut GLuint) {
    // SAFETY: `ids` is writable for `n` names (the caller's contract).
    unsafe { gen_with(ctx, n, ids, |c, n| c.create_transform_feedbacks(n)) }
}

pub unsafe fn DeleteTransformFeedbacks(ctx: &mut Context, n: GLsizei, ids: *const GLuint) {
    // SAFETY: `ids` is readable for `n` names (the caller's contract).
    unsafe { delete_with(ctx, n, ids, |c, s| c.delete_transform_feedbacks(s)) }
}

pub fn BindTransformFeedback(ctx: &mut Context, target: GLenum, id: GLuint) {
    ctx.bind_transform_feedback(target, id)
}

pub fn IsTransformFeedback(ctx: &mut Context, id: GLuint) -> GLboolean {
    gl_bool(ctx.is_transform_feedback(id))
}

pub fn TransformFeedbackBufferBase(ctx: &mut Context, xfb: GLuint, index: GLuint, buffer: GLuint) {
    ctx.transform_feedback_buffer_base(xfb, index, buffer)
}

pub fn TransformFeedbackBufferRange(
    ctx: &mut Context,
    xfb: GLuint,
    index: GLuint,
    buffer: GLuint,
    offset: GLintptr,
    size: GLsizeiptr,
) {
    ctx.transform_feedback_buffer_range(xfb, index, buffer, offset, size)
}

pub unsafe fn GetTransformFeedbackiv(
    ctx: &mut Context,
    xfb: GLuint,
    pname: GLenum,
    param: *mut GLint,
) {
    // SAFETY: `param` is writable for one value (the caller's contract).
    unsafe { write_one_unless_failed(ctx, param, |c| c.get_transform_feedbackiv(xfb, pname)) }
}

pub unsafe fn GetTransformFeedbacki_v(
    ctx: &mut Context,
    xfb: GLuint,
    pname: GLenum,
    index: GLuint,
    param: *mut GLint,
) {
    // SAFETY: `param` is writable for one value (the caller's contract).
    unsafe {
        write_one_unless_failed(ctx, param, |c| {
            c.get_transform_feedbacki_v(xfb, pname, index)
        })
    }
}

pub unsafe fn GetTransformFeedbacki64_v(
    ctx: &mut Context,
    xfb: GLuint,
    pname: GLenum,
    index: GLuint,
    param: *mut GLint64,
) {
    // SAFETY: `param` is writable for one value (the caller's contract).
    unsafe {
        write_one_unless_failed(ctx, param, |c| {
            c.get_transform_feedbacki64_v(xfb, pname, index)
        })
    }
}

pub fn DrawTransformFeedback(ctx: &mut Context, mode: GLenum, id: GLuint) {
    ctx.draw_transform_feedback(mode, id)
}

pub fn DrawTransformFeedbackInstanced(
    ctx: &mut Context,
    mode: GLenum,
    id: GLuint,
    instancecount: GLsizei,
) {
    ctx.draw_transform_feedback_instanced(mode, id, instancecount)
}

pub fn DrawTransformFeedbackStream(ctx: &mut Context, mode: GLenum, id: GLuint, stream: GLuint) {
    ctx.draw_transform_feedback_stream(mode, id, stream)
}

pub fn DrawTransformFeedbackStreamInstanced(
    ctx: &mut Context,
    mode: GLenum,
    id: GLuint,
    stream: GLuint,
    instancecount: GLsizei,
) {
    ctx.draw_transform_feedback_stream_instanced(mode, id, stream, instancecount)
}
