//! GL entry points of errors, enable/disable, state setters and glGet* (GL 4.5 core chapters 2, 14, 17 and 22).

use super::*;

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
    let v: Vec<i64> = ctx.get_integer64v(pname);
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

pub unsafe fn GetIntegeri_v(ctx: &mut Context, target: GLenum, index: GLuint, data: *mut GLint) {
    let v = ctx.get_integeri_v(target, index);
    // SAFETY: the caller provides room for target's value count.
    unsafe { write_out(data, &v) }
}

pub unsafe fn GetInteger64i_v(
    ctx: &mut Context,
    target: GLenum,
    index: GLuint,
    data: *mut GLint64,
) {
    let v = ctx.get_integer64i_v(target, index);
    // SAFETY: the caller provides room for target's value count.
    unsafe { write_out(data, &v) }
}

pub unsafe fn GetBooleani_v(
    ctx: &mut Context,
    target: GLenum,
    index: GLuint,
    data: *mut GLboolean,
) {
    let v: Vec<u8> = ctx
        .get_booleani_v(target, index)
        .into_iter()
        .map(gl_bool)
        .collect();
    // SAFETY: the caller provides room for target's value count.
    unsafe { write_out(data, &v) }
}

pub unsafe fn GetFloati_v(ctx: &mut Context, target: GLenum, index: GLuint, data: *mut GLfloat) {
    let v = ctx.get_floati_v(target, index);
    // SAFETY: the caller provides room for target's value count.
    unsafe { write_out(data, &v) }
}

pub unsafe fn GetDoublei_v(ctx: &mut Context, target: GLenum, index: GLuint, data: *mut GLdouble) {
    let v: Vec<f64> = ctx
        .get_floati_v(target, index)
        .into_iter()
        .map(f64::from)
        .collect();
    // SAFETY: the caller provides room for target's value count.
    unsafe { write_out(data, &v) }
}

pub fn IsEnabledi(ctx: &mut Context, target: GLenum, index: GLuint) -> GLboolean {
    gl_bool(ctx.is_enabledi(target, index))
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

pub fn ColorMaski(
    ctx: &mut Context,
    index: GLuint,
    r: GLboolean,
    g: GLboolean,
    bl: GLboolean,
    a: GLboolean,
) {
    ctx.color_maski(index, b(r), b(g), b(bl), b(a))
}

pub fn LogicOp(ctx: &mut Context, opcode: GLenum) {
    ctx.logic_op(opcode)
}

pub fn Enablei(ctx: &mut Context, target: GLenum, index: GLuint) {
    ctx.enablei(target, index)
}

pub fn Disablei(ctx: &mut Context, target: GLenum, index: GLuint) {
    ctx.disablei(target, index)
}

pub fn BlendFunci(ctx: &mut Context, buf: GLuint, src: GLenum, dst: GLenum) {
    ctx.blend_funci(buf, src, dst)
}

pub fn BlendFuncSeparatei(
    ctx: &mut Context,
    buf: GLuint,
    src_rgb: GLenum,
    dst_rgb: GLenum,
    src_alpha: GLenum,
    dst_alpha: GLenum,
) {
    ctx.blend_func_separatei(buf, src_rgb, dst_rgb, src_alpha, dst_alpha)
}

pub fn BlendEquationi(ctx: &mut Context, buf: GLuint, mode: GLenum) {
    ctx.blend_equationi(buf, mode)
}

pub fn BlendEquationSeparatei(
    ctx: &mut Context,
    buf: GLuint,
    mode_rgb: GLenum,
    mode_alpha: GLenum,
) {
    ctx.blend_equation_separatei(buf, mode_rgb, mode_alpha)
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

pub fn PointSize(ctx: &mut Context, size: GLfloat) {
    ctx.point_size(size)
}

pub fn LineWidth(ctx: &mut Context, width: GLfloat) {
    ctx.line_width(width)
}

pub fn PixelStorei(ctx: &mut Context, pname: GLenum, param: GLint) {
    ctx.pixel_storei(pname, param)
}

pub fn PixelStoref(ctx: &mut Context, pname: GLenum, param: GLfloat) {
    // GL 4.5 core §8.4.1: a boolean parameter is true when the value is not 0.0; an integer
    // one takes the value rounded to the nearest integer.
    let boolean = matches!(
        pname,
        gl::UNPACK_SWAP_BYTES | gl::UNPACK_LSB_FIRST | gl::PACK_SWAP_BYTES | gl::PACK_LSB_FIRST
    );
    let v = if boolean {
        (param != 0.0) as GLint
    } else {
        param.round() as GLint
    };
    ctx.pixel_storei(pname, v)
}

pub fn ClampColor(ctx: &mut Context, target: GLenum, clamp: GLenum) {
    ctx.clamp_color(target, clamp)
}

pub fn ClipControl(ctx: &mut Context, origin: GLenum, depth: GLenum) {
    ctx.clip_control(origin, depth)
}

pub fn ViewportIndexedf(
    ctx: &mut Context,
    index: GLuint,
    x: GLfloat,
    y: GLfloat,
    w: GLfloat,
    h: GLfloat,
) {
    ctx.viewport_indexedf(index, x, y, w, h)
}

pub unsafe fn ViewportIndexedfv(ctx: &mut Context, index: GLuint, v: *const GLfloat) {
    // SAFETY: `v` holds 4 floats (GL 4.5 core §13.6.1).
    match unsafe { slice_len(v, 4) } {
        Ok(v) => ctx.viewport_indexedf(index, v[0], v[1], v[2], v[3]),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ViewportArrayv(ctx: &mut Context, first: GLuint, count: GLsizei, v: *const GLfloat) {
    // SAFETY: `v` holds 4 floats per viewport.
    match unsafe { slice(v, count.saturating_mul(4), "negative count") } {
        Ok(v) => ctx.viewport_arrayv(first, v),
        Err(e) => fail(ctx, e),
    }
}

pub fn ScissorIndexed(
    ctx: &mut Context,
    index: GLuint,
    left: GLint,
    bottom: GLint,
    width: GLsizei,
    height: GLsizei,
) {
    ctx.scissor_indexed(index, left, bottom, width, height)
}

pub unsafe fn ScissorIndexedv(ctx: &mut Context, index: GLuint, v: *const GLint) {
    // SAFETY: `v` holds 4 integers (GL 4.5 core §14.9.2).
    match unsafe { slice_len(v, 4) } {
        Ok(v) => ctx.scissor_indexed(index, v[0], v[1], v[2], v[3]),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn ScissorArrayv(ctx: &mut Context, first: GLuint, count: GLsizei, v: *const GLint) {
    // SAFETY: `v` holds 4 integers per scissor box.
    match unsafe { slice(v, count.saturating_mul(4), "negative count") } {
        Ok(v) => ctx.scissor_arrayv(first, v),
        Err(e) => fail(ctx, e),
    }
}

pub fn DepthRangeIndexed(ctx: &mut Context, index: GLuint, n: GLdouble, f: GLdouble) {
    ctx.depth_range_indexed(index, n, f)
}

pub unsafe fn DepthRangeArrayv(
    ctx: &mut Context,
    first: GLuint,
    count: GLsizei,
    v: *const GLdouble,
) {
    // SAFETY: `v` holds 2 doubles per depth range.
    match unsafe { slice(v, count.saturating_mul(2), "negative count") } {
        Ok(v) => ctx.depth_range_arrayv(first, v),
        Err(e) => fail(ctx, e),
    }
}
