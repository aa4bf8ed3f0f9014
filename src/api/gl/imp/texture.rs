//! GL entry points of textures and samplers (GL 4.5 core chapter 8).

use super::*;

pub unsafe fn GenTextures(ctx: &mut Context, n: GLsizei, textures: *mut GLuint) {
    // SAFETY: `textures` holds `n` names.
    unsafe { gen_with(ctx, n, textures, Context::gen_textures) }
}

pub unsafe fn DeleteTextures(ctx: &mut Context, n: GLsizei, textures: *const GLuint) {
    // SAFETY: `textures` holds `n` names.
    unsafe { delete_with(ctx, n, textures, Context::delete_textures) }
}

pub fn IsTexture(ctx: &mut Context, texture: GLuint) -> GLboolean {
    gl_bool(ctx.is_texture(texture))
}

pub unsafe fn GenSamplers(ctx: &mut Context, count: GLsizei, samplers: *mut GLuint) {
    // SAFETY: `samplers` holds `count` names.
    unsafe { gen_with(ctx, count, samplers, Context::gen_samplers) }
}

pub unsafe fn CreateSamplers(ctx: &mut Context, n: GLsizei, samplers: *mut GLuint) {
    // SAFETY: `samplers` holds `n` names.
    unsafe { gen_with(ctx, n, samplers, Context::create_samplers) }
}

pub unsafe fn DeleteSamplers(ctx: &mut Context, count: GLsizei, samplers: *const GLuint) {
    // SAFETY: `samplers` holds `count` names.
    unsafe { delete_with(ctx, count, samplers, Context::delete_samplers) }
}

pub fn IsSampler(ctx: &mut Context, sampler: GLuint) -> GLboolean {
    gl_bool(ctx.is_sampler(sampler))
}

pub unsafe fn CreateTextures(ctx: &mut Context, target: GLenum, n: GLsizei, textures: *mut GLuint) {
    // SAFETY: `textures` holds `n` names.
    unsafe { gen_with(ctx, n, textures, |c, n| c.create_textures(target, n)) }
}

pub fn ActiveTexture(ctx: &mut Context, texture: GLenum) {
    ctx.active_texture(texture)
}

pub fn BindTexture(ctx: &mut Context, target: GLenum, texture: GLuint) {
    ctx.bind_texture(target, texture)
}

/// The client bytes of a `width`×`height` image of `format`/`type` at `pixels` (GL 4.5
/// core §8.4.4), or None when `pixels` is null or the arguments are ones the Context will
/// reject itself (it then records the right error).
///
/// # Safety
/// `pixels` is null or readable for the image's size at the unpack alignment.
unsafe fn client_image<'a>(
    ctx: &Context,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) -> Option<&'a [u8]> {
    if pixels.is_null() || width < 0 || height < 0 {
        return None;
    }
    let n = crate::api::pixels::client_size(
        width as usize,
        height as usize,
        format,
        r#type,
        &ctx.unpack.for_dims(false),
    )
    .ok()?;
    // SAFETY: non-null and holding the image by the caller's contract; `n` > 0 here only
    // when width and height are.
    Some(unsafe { std::slice::from_raw_parts(pixels as *const u8, n) })
}

pub unsafe fn TexImage2D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    internalformat: GLint,
    width: GLsizei,
    height: GLsizei,
    border: GLint,
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) {
    if ctx.has_buffer_bound(gl::PIXEL_UNPACK_BUFFER) {
        // `pixels` is an offset into the unpack buffer, never read as a pointer (§8.4.4).
        return ctx.tex_image_2d_from_buffer(
            target,
            level,
            internalformat,
            width,
            height,
            border,
            format,
            r#type,
            pixels as usize,
        );
    }
    // SAFETY: `pixels` is null or holds the image (GL 4.5 core §8.5).
    let data = unsafe { client_image(ctx, width, height, format, r#type, pixels) };
    ctx.tex_image_2d(
        target,
        level,
        internalformat,
        width,
        height,
        border,
        format,
        r#type,
        data,
    )
}

pub fn TexStorage2D(
    ctx: &mut Context,
    target: GLenum,
    levels: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
) {
    ctx.tex_storage_2d(target, levels, internalformat, width, height)
}

pub unsafe fn TexSubImage2D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) {
    if ctx.has_buffer_bound(gl::PIXEL_UNPACK_BUFFER) {
        // `pixels` is an offset into the unpack buffer, never read as a pointer (§8.4.4).
        return ctx.tex_sub_image_2d_from_buffer(
            target,
            level,
            xoffset,
            yoffset,
            width,
            height,
            format,
            r#type,
            pixels as usize,
        );
    }
    let nonempty = width > 0 && height > 0;
    if nonempty && pixels.is_null() {
        return fail(ctx, GlError::InvalidValue("null pixels pointer"));
    }
    // SAFETY: `pixels` holds the image (GL 4.5 core §8.6).
    let data = unsafe { client_image(ctx, width, height, format, r#type, pixels) };
    ctx.tex_sub_image_2d(
        target,
        level,
        xoffset,
        yoffset,
        width,
        height,
        format,
        r#type,
        data.unwrap_or(&[]),
    )
}

pub unsafe fn TextureSubImage2D(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) {
    if ctx.has_buffer_bound(gl::PIXEL_UNPACK_BUFFER) {
        // `pixels` is an offset into the unpack buffer, never read as a pointer (§8.4.4).
        return ctx.texture_sub_image_2d_from_buffer(
            texture,
            level,
            xoffset,
            yoffset,
            width,
            height,
            format,
            r#type,
            pixels as usize,
        );
    }
    let nonempty = width > 0 && height > 0;
    if nonempty && pixels.is_null() {
        return fail(ctx, GlError::InvalidValue("null pixels pointer"));
    }
    // SAFETY: `pixels` holds the image (GL 4.5 core §8.6).
    let data = unsafe { client_image(ctx, width, height, format, r#type, pixels) };
    ctx.texture_sub_image_2d(
        texture,
        level,
        xoffset,
        yoffset,
        width,
        height,
        format,
        r#type,
        data.unwrap_or(&[]),
    )
}

pub fn GenerateMipmap(ctx: &mut Context, target: GLenum) {
    ctx.generate_mipmap(target)
}

/// How many values a `*Parameter*v` call reads for `pname` (GL 4.5 core table 23.18: the
/// border colour and swizzle vector have four, everything else one).
fn param_count(pname: GLenum) -> usize {
    match pname {
        gl::TEXTURE_BORDER_COLOR | gl::TEXTURE_SWIZZLE_RGBA => 4,
        _ => 1,
    }
}

pub fn TexParameteri(ctx: &mut Context, target: GLenum, pname: GLenum, param: GLint) {
    ctx.tex_parameter_i(target, pname, param)
}

pub fn TexParameterf(ctx: &mut Context, target: GLenum, pname: GLenum, param: GLfloat) {
    ctx.tex_parameter_f(target, pname, param)
}

pub unsafe fn TexParameteriv(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *const GLint,
) {
    // SAFETY: `params` holds pname's values.
    match unsafe { slice_len(params, param_count(pname)) } {
        Ok(v) => ctx.tex_parameter_iv(target, pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn TexParameterfv(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *const GLfloat,
) {
    // SAFETY: `params` holds pname's values.
    match unsafe { slice_len(params, param_count(pname)) } {
        Ok(v) => ctx.tex_parameter_fv(target, pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn GetTexParameteriv(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_tex_parameteriv_all(target, pname);
    // SAFETY: `params` is null or writable for the pname's values (4 for a border colour).
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetTexParameterfv(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *mut GLfloat,
) {
    let v = ctx.get_tex_parameterfv(target, pname);
    // SAFETY: `params` is null or writable for the pname's values.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetSamplerParameteriv(
    ctx: &mut Context,
    sampler: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_sampler_parameteriv(sampler, pname);
    // SAFETY: `params` is null or writable for the pname's values.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetSamplerParameterfv(
    ctx: &mut Context,
    sampler: GLuint,
    pname: GLenum,
    params: *mut GLfloat,
) {
    let v = ctx.get_sampler_parameterfv(sampler, pname);
    // SAFETY: `params` is null or writable for the pname's values.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetSamplerParameterIiv(
    ctx: &mut Context,
    sampler: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_sampler_parameter_iiv(sampler, pname);
    // SAFETY: `params` is null or writable for the pname's values.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetSamplerParameterIuiv(
    ctx: &mut Context,
    sampler: GLuint,
    pname: GLenum,
    params: *mut GLuint,
) {
    let v = ctx.get_sampler_parameter_iuiv(sampler, pname);
    // SAFETY: `params` is null or writable for the pname's values.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetTexLevelParameteriv(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_tex_level_parameteriv(target, level, pname);
    // SAFETY: `params` is null or writable for one value.
    unsafe { write_one(params, v) }
}

pub fn BindSampler(ctx: &mut Context, unit: GLuint, sampler: GLuint) {
    ctx.bind_sampler(unit, sampler)
}

pub fn SamplerParameteri(ctx: &mut Context, sampler: GLuint, pname: GLenum, param: GLint) {
    ctx.sampler_parameter_i(sampler, pname, param)
}

pub fn SamplerParameterf(ctx: &mut Context, sampler: GLuint, pname: GLenum, param: GLfloat) {
    ctx.sampler_parameter_f(sampler, pname, param)
}

pub unsafe fn SamplerParameteriv(
    ctx: &mut Context,
    sampler: GLuint,
    pname: GLenum,
    param: *const GLint,
) {
    // SAFETY: `param` holds pname's values.
    match unsafe { slice_len(param, param_count(pname)) } {
        Ok(v) => ctx.sampler_parameter_iv(sampler, pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn SamplerParameterfv(
    ctx: &mut Context,
    sampler: GLuint,
    pname: GLenum,
    param: *const GLfloat,
) {
    // SAFETY: `param` holds pname's values.
    match unsafe { slice_len(param, param_count(pname)) } {
        Ok(v) => ctx.sampler_parameter_fv(sampler, pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn TexParameterIiv(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *const GLint,
) {
    // SAFETY: `params` holds pname's values.
    match unsafe { slice_len(params, param_count(pname)) } {
        Ok(v) => ctx.tex_parameter_iiv(target, pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn TexParameterIuiv(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *const GLuint,
) {
    // SAFETY: `params` holds pname's values.
    match unsafe { slice_len(params, param_count(pname)) } {
        Ok(v) => ctx.tex_parameter_iuiv(target, pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn GetTexParameterIiv(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_tex_parameter_iiv(target, pname);
    // SAFETY: `params` is null or writable for the pname's values.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetTexParameterIuiv(
    ctx: &mut Context,
    target: GLenum,
    pname: GLenum,
    params: *mut GLuint,
) {
    let v = ctx.get_tex_parameter_iuiv(target, pname);
    // SAFETY: `params` is null or writable for the pname's values.
    unsafe { write_out(params, &v) }
}

pub unsafe fn SamplerParameterIiv(
    ctx: &mut Context,
    sampler: GLuint,
    pname: GLenum,
    param: *const GLint,
) {
    // SAFETY: `param` holds pname's values.
    match unsafe { slice_len(param, param_count(pname)) } {
        Ok(v) => ctx.sampler_parameter_iiv(sampler, pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn SamplerParameterIuiv(
    ctx: &mut Context,
    sampler: GLuint,
    pname: GLenum,
    param: *const GLuint,
) {
    // SAFETY: `param` holds pname's values.
    match unsafe { slice_len(param, param_count(pname)) } {
        Ok(v) => ctx.sampler_parameter_iuiv(sampler, pname, v),
        Err(e) => fail(ctx, e),
    }
}

// ---- 2D array textures (GL 4.5 core §8.5, §8.6, §8.19) ----

/// The client bytes of a `width`×`height`×`depth` box under the unpack pixel store, as
/// `client_image` does for 2D.
///
/// # Safety
/// `pixels` is null or readable for the box's size at the unpack alignment.
unsafe fn client_box<'a>(
    ctx: &Context,
    [width, height, depth]: [GLsizei; 3],
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) -> Option<&'a [u8]> {
    if pixels.is_null() || width < 0 || depth < 0 || height < 0 {
        return None;
    }
    let size = [width, height, depth].map(|v| v as usize);
    // 3D: IMAGE_HEIGHT and SKIP_IMAGES count (GL 4.5 core §8.4.4.1).
    let n = crate::api::pixels::client_size_3d(size, format, r#type, &ctx.unpack).ok()?;
    // SAFETY: non-null and holding the box by the caller's contract; `n` > 0 here only when
    // every size is.
    Some(unsafe { std::slice::from_raw_parts(pixels as *const u8, n) })
}

pub unsafe fn TexImage3D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    internalformat: GLint,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    border: GLint,
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) {
    if ctx.has_buffer_bound(gl::PIXEL_UNPACK_BUFFER) {
        // `pixels` is an offset into the unpack buffer, never read as a pointer (§8.4.4).
        return ctx.tex_image_3d_from_buffer(
            target,
            level,
            internalformat,
            width,
            height,
            depth,
            border,
            format,
            r#type,
            pixels as usize,
        );
    }
    // SAFETY: `pixels` is null or holds the image (GL 4.5 core §8.5).
    let data = unsafe { client_box(ctx, [width, height, depth], format, r#type, pixels) };
    ctx.tex_image_3d(
        target,
        level,
        internalformat,
        width,
        height,
        depth,
        border,
        format,
        r#type,
        data,
    )
}

pub fn TexStorage3D(
    ctx: &mut Context,
    target: GLenum,
    levels: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
) {
    ctx.tex_storage_3d(target, levels, internalformat, width, height, depth)
}

pub fn TextureStorage3D(
    ctx: &mut Context,
    texture: GLuint,
    levels: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
) {
    ctx.texture_storage_3d(texture, levels, internalformat, width, height, depth)
}

pub fn TextureStorage2D(
    ctx: &mut Context,
    texture: GLuint,
    levels: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
    height: GLsizei,
) {
    ctx.texture_storage_2d(texture, levels, internalformat, width, height)
}

/// The box data of a TexSubImage3D-like call: `None` after recording an error.
///
/// # Safety
/// `pixels` holds the box (GL 4.5 core §8.6).
unsafe fn sub_box<'a>(
    ctx: &mut Context,
    size: [GLsizei; 3],
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) -> Option<&'a [u8]> {
    let nonempty = size.iter().all(|&v| v > 0);
    if nonempty && pixels.is_null() {
        fail(ctx, GlError::InvalidValue("null pixels pointer"));
        return None;
    }
    // SAFETY: `pixels` holds the box by the caller's contract.
    Some(unsafe { client_box(ctx, size, format, r#type, pixels) }.unwrap_or(&[]))
}

pub unsafe fn TexSubImage3D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) {
    let (o, s) = ([xoffset, yoffset, zoffset], [width, height, depth]);
    if ctx.has_buffer_bound(gl::PIXEL_UNPACK_BUFFER) {
        return ctx.tex_sub_image_3d_from_buffer(
            target,
            level,
            o,
            s,
            format,
            r#type,
            pixels as usize,
        );
    }
    // SAFETY: `pixels` holds the box (GL 4.5 core §8.6).
    if let Some(data) = unsafe { sub_box(ctx, s, format, r#type, pixels) } {
        ctx.tex_sub_image_3d(target, level, o, s, format, r#type, data)
    }
}

pub unsafe fn TextureSubImage3D(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) {
    let (o, s) = ([xoffset, yoffset, zoffset], [width, height, depth]);
    if ctx.has_buffer_bound(gl::PIXEL_UNPACK_BUFFER) {
        return ctx.texture_sub_image_3d_from_buffer(
            texture,
            level,
            o,
            s,
            format,
            r#type,
            pixels as usize,
        );
    }
    // SAFETY: `pixels` holds the box (GL 4.5 core §8.6).
    if let Some(data) = unsafe { sub_box(ctx, s, format, r#type, pixels) } {
        ctx.texture_sub_image_3d(texture, level, o, s, format, r#type, data)
    }
}

// ---- downloads (GL 4.5 core §8.11.4) ----

/// The download commands' common body: into the pack buffer when one is bound (`pixels`
/// is then an offset), else into the caller's memory at `pixels`.
///
/// # Safety
/// Without a pack buffer, `pixels` is null or writable for the packed box (at most
/// `limit` bytes when given).
#[allow(clippy::too_many_arguments)]
unsafe fn download(
    ctx: &mut Context,
    name: &'static str,
    which: (GLenum, Option<GLuint>),
    level: GLint,
    offset: [GLint; 3],
    size: Option<[GLsizei; 3]>,
    format_type: (GLenum, GLenum),
    limit: Option<usize>,
    pixels: *mut c_void,
) {
    if ctx.has_buffer_bound(gl::PIXEL_PACK_BUFFER) {
        return ctx.get_texture_sub_image_to_buffer(
            name,
            which,
            level,
            offset,
            size,
            format_type,
            limit,
            pixels as usize,
        );
    }
    ctx.get_texture_sub_image_with(
        name,
        which,
        level,
        offset,
        size,
        format_type,
        limit,
        // SAFETY: the caller provides room for the packed image, `len` bytes (checked
        // against bufSize first by the robust forms).
        |len| unsafe { client_out(pixels, len) },
    )
}

pub unsafe fn GetTexImage(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    format: GLenum,
    r#type: GLenum,
    pixels: *mut c_void,
) {
    let which = (target, None);
    // SAFETY: `pixels` is writable for the level's image (GL 4.5 core §8.11.4).
    unsafe {
        download(
            ctx,
            "glGetTexImage",
            which,
            level,
            [0; 3],
            None,
            (format, r#type),
            None,
            pixels,
        )
    }
}

pub unsafe fn GetnTexImage(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    format: GLenum,
    r#type: GLenum,
    buf_size: GLsizei,
    pixels: *mut c_void,
) {
    let (which, limit) = ((target, None), Some(buf_size.max(0) as usize));
    // SAFETY: `pixels` is writable for `buf_size` bytes (GL 4.5 core §8.11.4).
    unsafe {
        download(
            ctx,
            "glGetnTexImage",
            which,
            level,
            [0; 3],
            None,
            (format, r#type),
            limit,
            pixels,
        )
    }
}

pub unsafe fn GetTextureImage(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    format: GLenum,
    r#type: GLenum,
    buf_size: GLsizei,
    pixels: *mut c_void,
) {
    let (which, limit) = ((0, Some(texture)), Some(buf_size.max(0) as usize));
    let ft = (format, r#type);
    // SAFETY: `pixels` is writable for `buf_size` bytes (GL 4.5 core §8.11.4).
    unsafe {
        download(
            ctx,
            "glGetTextureImage",
            which,
            level,
            [0; 3],
            None,
            ft,
            limit,
            pixels,
        )
    }
}

pub unsafe fn GetTextureSubImage(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    width: GLsizei,
    height: GLsizei,
    depth: GLsizei,
    format: GLenum,
    r#type: GLenum,
    buf_size: GLsizei,
    pixels: *mut c_void,
) {
    let (which, limit) = ((0, Some(texture)), Some(buf_size.max(0) as usize));
    let (o, s) = ([xoffset, yoffset, zoffset], Some([width, height, depth]));
    let ft = (format, r#type);
    // SAFETY: `pixels` is writable for `buf_size` bytes (GL 4.5 core §8.11.4).
    unsafe {
        download(
            ctx,
            "glGetTextureSubImage",
            which,
            level,
            o,
            s,
            ft,
            limit,
            pixels,
        )
    }
}

pub unsafe fn TextureParameteriv(
    ctx: &mut Context,
    texture: GLuint,
    pname: GLenum,
    param: *const GLint,
) {
    // SAFETY: `param` holds pname's values.
    match unsafe { slice_len(param, param_count(pname)) } {
        Ok(v) => ctx.texture_parameter_iv(texture, pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn TextureParameterfv(
    ctx: &mut Context,
    texture: GLuint,
    pname: GLenum,
    param: *const GLfloat,
) {
    // SAFETY: `param` holds pname's values.
    match unsafe { slice_len(param, param_count(pname)) } {
        Ok(v) => ctx.texture_parameter_fv(texture, pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn TextureParameterIiv(
    ctx: &mut Context,
    texture: GLuint,
    pname: GLenum,
    param: *const GLint,
) {
    // SAFETY: `param` holds pname's values.
    match unsafe { slice_len(param, param_count(pname)) } {
        Ok(v) => ctx.texture_parameter_iiv(texture, pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn TextureParameterIuiv(
    ctx: &mut Context,
    texture: GLuint,
    pname: GLenum,
    param: *const GLuint,
) {
    // SAFETY: `param` holds pname's values.
    match unsafe { slice_len(param, param_count(pname)) } {
        Ok(v) => ctx.texture_parameter_iuiv(texture, pname, v),
        Err(e) => fail(ctx, e),
    }
}

pub fn TextureParameteri(ctx: &mut Context, texture: GLuint, pname: GLenum, param: GLint) {
    ctx.texture_parameter_i(texture, pname, param)
}

pub fn TextureParameterf(ctx: &mut Context, texture: GLuint, pname: GLenum, param: GLfloat) {
    ctx.texture_parameter_f(texture, pname, param)
}

#[allow(clippy::too_many_arguments)]
pub fn CopyTexImage2D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    internalformat: GLenum,
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
    border: GLint,
) {
    ctx.copy_tex_image_2d(target, level, internalformat, x, y, width, height, border)
}

#[allow(clippy::too_many_arguments)]
pub fn CopyTexSubImage2D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
) {
    ctx.copy_tex_sub_image_2d(target, level, [xoffset, yoffset], [x, y, width, height])
}

#[allow(clippy::too_many_arguments)]
pub fn CopyTexSubImage3D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
) {
    let o = [xoffset, yoffset, zoffset];
    ctx.copy_tex_sub_image_3d(target, level, o, [x, y, width, height])
}

#[allow(clippy::too_many_arguments)]
pub fn CopyTextureSubImage2D(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
) {
    ctx.copy_texture_sub_image_2d(texture, level, [xoffset, yoffset], [x, y, width, height])
}

#[allow(clippy::too_many_arguments)]
pub fn CopyTextureSubImage3D(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    yoffset: GLint,
    zoffset: GLint,
    x: GLint,
    y: GLint,
    width: GLsizei,
    height: GLsizei,
) {
    let o = [xoffset, yoffset, zoffset];
    ctx.copy_texture_sub_image_3d(texture, level, o, [x, y, width, height])
}

// ---- 1D textures and buffer textures (issue #13) ----

#[allow(clippy::too_many_arguments)]
pub unsafe fn TexImage1D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    internalformat: GLint,
    width: GLsizei,
    border: GLint,
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) {
    if ctx.has_buffer_bound(gl::PIXEL_UNPACK_BUFFER) {
        // A one-row 2D unpack from the buffer, then the 1D command on its bytes.
        let bytes = match ctx.unpack_buffer_bytes_3d([width, 1, 1], format, r#type, pixels as usize)
        {
            Ok(b) => b,
            Err(e) => return fail(ctx, e),
        };
        let data = Some(&bytes[..]);
        return ctx.tex_image_1d(
            target,
            level,
            internalformat,
            width,
            border,
            format,
            r#type,
            data,
        );
    }
    // SAFETY: `pixels` is null or holds the one-row image (GL 4.5 core §8.5).
    let data = unsafe { client_image(ctx, width, 1, format, r#type, pixels) };
    ctx.tex_image_1d(
        target,
        level,
        internalformat,
        width,
        border,
        format,
        r#type,
        data,
    )
}

pub fn TexStorage1D(
    ctx: &mut Context,
    target: GLenum,
    levels: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
) {
    ctx.tex_storage_1d(target, levels, internalformat, width)
}

pub fn TextureStorage1D(
    ctx: &mut Context,
    texture: GLuint,
    levels: GLsizei,
    internalformat: GLenum,
    width: GLsizei,
) {
    ctx.texture_storage_1d(texture, levels, internalformat, width)
}

/// glTexSubImage1D and glTextureSubImage1D (`texture`).
///
/// # Safety
/// `pixels` is an unpack-buffer offset, or null / readable for the one-row image.
#[allow(clippy::too_many_arguments)]
unsafe fn sub_image_1d(
    ctx: &mut Context,
    target: GLenum,
    texture: Option<GLuint>,
    level: GLint,
    xoffset: GLint,
    width: GLsizei,
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) {
    let bytes;
    let data: &[u8] = if ctx.has_buffer_bound(gl::PIXEL_UNPACK_BUFFER) {
        bytes = match ctx.unpack_buffer_bytes_3d([width, 1, 1], format, r#type, pixels as usize) {
            Ok(b) => b,
            Err(e) => return fail(ctx, e),
        };
        &bytes
    } else {
        if width > 0 && pixels.is_null() {
            return fail(ctx, GlError::InvalidValue("null pixels pointer"));
        }
        // SAFETY: `pixels` holds the one-row image (GL 4.5 core §8.6).
        unsafe { client_image(ctx, width, 1, format, r#type, pixels) }.unwrap_or(&[])
    };
    ctx.tex_sub_image_1d(target, texture, level, xoffset, width, format, r#type, data)
}

#[allow(clippy::too_many_arguments)]
pub unsafe fn TexSubImage1D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    xoffset: GLint,
    width: GLsizei,
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) {
    // SAFETY: the caller's contract is `sub_image_1d`'s.
    unsafe {
        sub_image_1d(
            ctx, target, None, level, xoffset, width, format, r#type, pixels,
        )
    }
}

#[allow(clippy::too_many_arguments)]
pub unsafe fn TextureSubImage1D(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    width: GLsizei,
    format: GLenum,
    r#type: GLenum,
    pixels: *const c_void,
) {
    // SAFETY: the caller's contract is `sub_image_1d`'s.
    unsafe {
        sub_image_1d(
            ctx,
            0,
            Some(texture),
            level,
            xoffset,
            width,
            format,
            r#type,
            pixels,
        )
    }
}

pub fn TexBuffer(ctx: &mut Context, target: GLenum, internalformat: GLenum, buffer: GLuint) {
    ctx.tex_buffer(target, internalformat, buffer)
}

pub fn TexBufferRange(
    ctx: &mut Context,
    target: GLenum,
    internalformat: GLenum,
    buffer: GLuint,
    offset: GLintptr,
    size: GLsizeiptr,
) {
    ctx.tex_buffer_range(target, internalformat, buffer, offset, size)
}

pub fn TextureBuffer(ctx: &mut Context, texture: GLuint, internalformat: GLenum, buffer: GLuint) {
    ctx.texture_buffer(texture, internalformat, buffer)
}

pub fn TextureBufferRange(
    ctx: &mut Context,
    texture: GLuint,
    internalformat: GLenum,
    buffer: GLuint,
    offset: GLintptr,
    size: GLsizeiptr,
) {
    ctx.texture_buffer_range(texture, internalformat, buffer, offset, size)
}

#[allow(clippy::too_many_arguments)]
pub fn CopyTexImage1D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    internalformat: GLenum,
    x: GLint,
    y: GLint,
    width: GLsizei,
    border: GLint,
) {
    ctx.copy_tex_image_1d(target, level, internalformat, x, y, width, border)
}

pub fn CopyTexSubImage1D(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    xoffset: GLint,
    x: GLint,
    y: GLint,
    width: GLsizei,
) {
    ctx.copy_tex_sub_image_1d(target, None, level, xoffset, [x, y, width])
}

pub fn CopyTextureSubImage1D(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    xoffset: GLint,
    x: GLint,
    y: GLint,
    width: GLsizei,
) {
    ctx.copy_tex_sub_image_1d(0, Some(texture), level, xoffset, [x, y, width])
}

pub fn BindTextureUnit(ctx: &mut Context, unit: GLuint, texture: GLuint) {
    ctx.bind_texture_unit(unit, texture)
}

pub unsafe fn BindTextures(
    ctx: &mut Context,
    first: GLuint,
    count: GLsizei,
    textures: *const GLuint,
) {
    if textures.is_null() {
        return ctx.bind_textures(first, count, None);
    }
    // SAFETY: `textures` holds `count` names (GL 4.5 core §8.1).
    match unsafe { slice(textures, count, "negative count") } {
        Ok(t) => ctx.bind_textures(first, count, Some(t)),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn BindSamplers(
    ctx: &mut Context,
    first: GLuint,
    count: GLsizei,
    samplers: *const GLuint,
) {
    if samplers.is_null() {
        return ctx.bind_samplers(first, count, None);
    }
    // SAFETY: `samplers` holds `count` names (GL 4.5 core §8.2).
    match unsafe { slice(samplers, count, "negative count") } {
        Ok(s) => ctx.bind_samplers(first, count, Some(s)),
        Err(e) => fail(ctx, e),
    }
}

pub fn GenerateTextureMipmap(ctx: &mut Context, texture: GLuint) {
    ctx.generate_texture_mipmap(texture)
}

pub unsafe fn GetTextureParameteriv(
    ctx: &mut Context,
    texture: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_texture_parameteriv(texture, pname);
    // SAFETY: `params` is null or writable for the pname's values.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetTextureParameterfv(
    ctx: &mut Context,
    texture: GLuint,
    pname: GLenum,
    params: *mut GLfloat,
) {
    let v = ctx.get_texture_parameterfv(texture, pname);
    // SAFETY: `params` is null or writable for the pname's values.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetTextureParameterIiv(
    ctx: &mut Context,
    texture: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_texture_parameter_iiv(texture, pname);
    // SAFETY: `params` is null or writable for the pname's values.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetTextureParameterIuiv(
    ctx: &mut Context,
    texture: GLuint,
    pname: GLenum,
    params: *mut GLuint,
) {
    let v = ctx.get_texture_parameter_iuiv(texture, pname);
    // SAFETY: `params` is null or writable for the pname's values.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetTextureLevelParameteriv(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    pname: GLenum,
    params: *mut GLint,
) {
    // SAFETY: `params` is null or writable for one value.
    unsafe {
        write_one_unless_failed(ctx, params, |c| {
            c.get_texture_level_parameteriv(texture, level, pname)
        })
    }
}

pub unsafe fn GetTextureLevelParameterfv(
    ctx: &mut Context,
    texture: GLuint,
    level: GLint,
    pname: GLenum,
    params: *mut GLfloat,
) {
    // SAFETY: `params` is null or writable for one value.
    unsafe {
        write_one_unless_failed(ctx, params, |c| {
            c.get_texture_level_parameterfv(texture, level, pname)
        })
    }
}

pub unsafe fn GetTexLevelParameterfv(
    ctx: &mut Context,
    target: GLenum,
    level: GLint,
    pname: GLenum,
    params: *mut GLfloat,
) {
    // SAFETY: `params` is null or writable for one value.
    unsafe {
        write_one_unless_failed(ctx, params, |c| {
            c.get_tex_level_parameterfv(target, level, pname)
        })
    }
}

pub fn TextureView(
    ctx: &mut Context,
    texture: GLuint,
    target: GLenum,
    origtexture: GLuint,
    internalformat: GLenum,
    minlevel: GLuint,
    numlevels: GLuint,
    minlayer: GLuint,
    numlayers: GLuint,
) {
    ctx.texture_view(
        texture,
        target,
        origtexture,
        internalformat,
        minlevel,
        numlevels,
        minlayer,
        numlayers,
    )
}

pub fn BindImageTexture(
    ctx: &mut Context,
    unit: GLuint,
    texture: GLuint,
    level: GLint,
    layered: GLboolean,
    layer: GLint,
    access: GLenum,
    format: GLenum,
) {
    ctx.bind_image_texture(unit, texture, level, layered != 0, layer, access, format)
}

pub unsafe fn BindImageTextures(
    ctx: &mut Context,
    first: GLuint,
    count: GLsizei,
    textures: *const GLuint,
) {
    if textures.is_null() {
        return ctx.bind_image_textures(first, count, None);
    }
    // SAFETY: `textures` holds `count` names (ARB_multi_bind).
    match unsafe { slice(textures, count, "negative count") } {
        Ok(t) => ctx.bind_image_textures(first, count, Some(t)),
        Err(e) => fail(ctx, e),
    }
}
