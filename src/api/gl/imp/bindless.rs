//! GL entry points of ARB_bindless_texture: texture handles and their residency.

use super::*;

pub fn GetTextureHandleARB(ctx: &mut Context, texture: GLuint) -> GLuint64 {
    ctx.get_texture_handle_arb(texture)
}

pub fn GetTextureSamplerHandleARB(ctx: &mut Context, texture: GLuint, sampler: GLuint) -> GLuint64 {
    ctx.get_texture_sampler_handle_arb(texture, sampler)
}

pub fn MakeTextureHandleResidentARB(ctx: &mut Context, handle: GLuint64) {
    ctx.make_texture_handle_resident_arb(handle)
}

pub fn MakeTextureHandleNonResidentARB(ctx: &mut Context, handle: GLuint64) {
    ctx.make_texture_handle_non_resident_arb(handle)
}

pub fn IsTextureHandleResidentARB(ctx: &mut Context, handle: GLuint64) -> GLboolean {
    gl_bool(ctx.is_texture_handle_resident_arb(handle))
}
