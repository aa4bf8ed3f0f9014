//! GL entry points of ARB_bindless_texture: texture and image handles and their residency.

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

pub fn GetImageHandleARB(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    layered: GLboolean,
    layer: GLint,
    format: GLenum,
) -> GLuint64 {
    ctx.get_image_handle_arb(texture, level, layered != 0, layer, format)
}

pub fn MakeImageHandleResidentARB(ctx: &mut Context, handle: GLuint64, access: GLenum) {
    ctx.make_image_handle_resident_arb(handle, access)
}

pub fn MakeImageHandleNonResidentARB(ctx: &mut Context, handle: GLuint64) {
    ctx.make_image_handle_non_resident_arb(handle)
}

pub fn IsImageHandleResidentARB(ctx: &mut Context, handle: GLuint64) -> GLboolean {
    gl_bool(ctx.is_image_handle_resident_arb(handle))
}
