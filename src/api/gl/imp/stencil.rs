//! GL entry points of the stencil state (GL 4.5 core §17.3.5; `api/stencil.rs`).

use super::*;

pub fn StencilFunc(ctx: &mut Context, func: GLenum, r: GLint, mask: GLuint) {
    ctx.stencil_func(func, r, mask)
}

pub fn StencilFuncSeparate(ctx: &mut Context, face: GLenum, func: GLenum, r: GLint, mask: GLuint) {
    ctx.stencil_func_separate(face, func, r, mask)
}

pub fn StencilOp(ctx: &mut Context, fail: GLenum, zfail: GLenum, zpass: GLenum) {
    ctx.stencil_op(fail, zfail, zpass)
}

pub fn StencilOpSeparate(
    ctx: &mut Context,
    face: GLenum,
    sfail: GLenum,
    dpfail: GLenum,
    dppass: GLenum,
) {
    ctx.stencil_op_separate(face, sfail, dpfail, dppass)
}

pub fn StencilMask(ctx: &mut Context, mask: GLuint) {
    ctx.stencil_mask(mask)
}

pub fn StencilMaskSeparate(ctx: &mut Context, face: GLenum, mask: GLuint) {
    ctx.stencil_mask_separate(face, mask)
}
