//! GL entry points of the framebuffer parameters (GL 4.5 core §9.2.1, §9.2.3).

use super::*;

pub fn FramebufferParameteri(ctx: &mut Context, target: GLenum, pname: GLenum, param: GLint) {
    ctx.framebuffer_parameteri(target, pname, param)
}

pub fn NamedFramebufferParameteri(
    ctx: &mut Context,
    framebuffer: GLuint,
    pname: GLenum,
    param: GLint,
) {
    ctx.named_framebuffer_parameteri(framebuffer, pname, param)
}

pub unsafe fn GetFramebufferParameteriv(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: `params` is null or writable for one value.
    unsafe {
        write_one_unless_failed(ctx, params, |c| {
            c.get_framebuffer_parameteriv(target, pname)
        })
    }
}

pub unsafe fn GetNamedFramebufferParameteriv(
    ctx: &mut Context,
    framebuffer: GLuint,
    pname: GLenum,
    param: *mut GLint,
) {
    // SAFETY: `param` is null or writable for one value.
    unsafe {
        write_one_unless_failed(ctx, param, |c| {
            c.get_named_framebuffer_parameteriv(framebuffer, pname)
        })
    }
}
