//! The invalidation commands (GL 4.5 core §6.5 glInvalidateBuffer(Sub)Data, §8.20
//! glInvalidateTex(Sub)Image, §17.4.4 glInvalidate(Sub)Framebuffer and the DSA
//! glInvalidateNamedFramebuffer(Sub)Data): each is validated as the spec says and then
//! discards nothing. Invalidation only allows contents to become undefined; keeping them is
//! a valid (and deterministic) answer, and a software target gains nothing from dropping
//! them.

use crate::api::context::{limits, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::{BufferName, FramebufferName, TextureName};
use crate::gl::enums as gl;

gl_commands! {
    /// glInvalidateFramebuffer (GL 4.5 core §17.4.4): validated, contents kept.
    "glInvalidateFramebuffer"
    fn invalidate_framebuffer(target: u32, attachments: &[u32]) = try_invalidate_framebuffer;
    /// glInvalidateSubFramebuffer (GL 4.5 core §17.4.4): validated, contents kept.
    "glInvalidateSubFramebuffer"
    fn invalidate_sub_framebuffer(target: u32, attachments: &[u32], x: i32, y: i32, width: i32, height: i32)
        = try_invalidate_sub_framebuffer;
    /// glInvalidateNamedFramebufferData (GL 4.5 core §17.4.4, DSA; 0 is the default
    /// framebuffer): validated, contents kept.
    "glInvalidateNamedFramebufferData"
    fn invalidate_named_framebuffer_data(framebuffer: u32, attachments: &[u32])
        = try_invalidate_named_framebuffer_data;
    /// glInvalidateNamedFramebufferSubData (GL 4.5 core §17.4.4, DSA): validated, contents
    /// kept.
    "glInvalidateNamedFramebufferSubData"
    fn invalidate_named_framebuffer_sub_data(framebuffer: u32, attachments: &[u32], x: i32, y: i32, width: i32, height: i32)
        = try_invalidate_named_framebuffer_sub_data;
    /// glInvalidateTexImage (GL 4.5 core §8.20): validated, contents kept.
    "glInvalidateTexImage"
    fn invalidate_tex_image(texture: u32, level: i32) = try_invalidate_tex_image;
    /// glInvalidateTexSubImage (GL 4.5 core §8.20): validated, contents kept.
    "glInvalidateTexSubImage"
    fn invalidate_tex_sub_image(texture: u32, level: i32, offset: [i32; 3], size: [i32; 3])
        = try_invalidate_tex_sub_image;
    /// glInvalidateBufferData (GL 4.5 core §6.5): validated, contents kept.
    "glInvalidateBufferData"
    fn invalidate_buffer_data(buffer: u32) = try_invalidate_buffer_data;
    /// glInvalidateBufferSubData (GL 4.5 core §6.5): validated, contents kept.
    "glInvalidateBufferSubData"
    fn invalidate_buffer_sub_data(buffer: u32, offset: isize, length: isize)
        = try_invalidate_buffer_sub_data;
}

impl Context {
    pub(crate) fn try_invalidate_framebuffer(
        &mut self,
        target: u32,
        attachments: &[u32],
    ) -> GlResult<()> {
        let fb = self.invalidate_target(target)?;
        self.check_invalidate_attachments(fb, attachments)
    }

    pub(crate) fn try_invalidate_sub_framebuffer(
        &mut self,
        target: u32,
        attachments: &[u32],
        _x: i32,
        _y: i32,
        width: i32,
        height: i32,
    ) -> GlResult<()> {
        let fb = self.invalidate_target(target)?;
        self.check_invalidate_attachments(fb, attachments)?;
        check_region(width, height)
    }

    pub(crate) fn try_invalidate_named_framebuffer_data(
        &mut self,
        framebuffer: u32,
        attachments: &[u32],
    ) -> GlResult<()> {
        let fb = self.invalidate_named(framebuffer)?;
        self.check_invalidate_attachments(fb, attachments)
    }

    pub(crate) fn try_invalidate_named_framebuffer_sub_data(
        &mut self,
        framebuffer: u32,
        attachments: &[u32],
        _x: i32,
        _y: i32,
        width: i32,
        height: i32,
    ) -> GlResult<()> {
        let fb = self.invalidate_named(framebuffer)?;
        self.check_invalidate_attachments(fb, attachments)?;
        check_region(width, height)
    }

    /// The framebuffer bound to `target` (None: the default one).
    fn invalidate_target(&self, target: u32) -> GlResult<Option<FramebufferName>> {
        match target {
            gl::FRAMEBUFFER | gl::DRAW_FRAMEBUFFER => Ok(self.draw_framebuffer),
            gl::READ_FRAMEBUFFER => Ok(self.read_framebuffer),
            _ => Err(GlError::BadEnum("framebuffer target", target)),
        }
    }

    /// The framebuffer a DSA invalidation names: 0 is the default framebuffer, anything
    /// else must be an existing framebuffer object (INVALID_OPERATION).
    fn invalidate_named(&self, framebuffer: u32) -> GlResult<Option<FramebufferName>> {
        if framebuffer == 0 {
            return Ok(None);
        }
        let name = FramebufferName(framebuffer);
        self.framebuffers
            .get(name)
            .map(|_| Some(name))
            .ok_or(GlError::InvalidOperation(
                "not the name of an existing framebuffer object",
            ))
    }

    /// §17.4.4: a framebuffer object takes COLOR_ATTACHMENTi (INVALID_OPERATION at or past
    /// MAX_COLOR_ATTACHMENTS) and the depth/stencil attachment points; the default
    /// framebuffer takes COLOR, DEPTH and STENCIL; anything else is INVALID_ENUM.
    fn check_invalidate_attachments(
        &self,
        fb: Option<FramebufferName>,
        attachments: &[u32],
    ) -> GlResult<()> {
        for &a in attachments {
            match (fb, a) {
                (None, gl::COLOR | gl::DEPTH | gl::STENCIL) => {}
                (
                    Some(_),
                    gl::DEPTH_ATTACHMENT | gl::STENCIL_ATTACHMENT | gl::DEPTH_STENCIL_ATTACHMENT,
                ) => {}
                (Some(_), a)
                    if (gl::COLOR_ATTACHMENT0..gl::COLOR_ATTACHMENT0 + 32).contains(&a) =>
                {
                    if a - gl::COLOR_ATTACHMENT0 >= limits::MAX_COLOR_ATTACHMENTS {
                        return Err(GlError::InvalidOperation("past GL_MAX_COLOR_ATTACHMENTS"));
                    }
                }
                _ => return Err(GlError::BadEnum("attachment to invalidate", a)),
            }
        }
        Ok(())
    }

    pub(crate) fn try_invalidate_tex_image(&mut self, texture: u32, level: i32) -> GlResult<()> {
        self.invalidate_level(texture, level).map(|_| ())
    }

    pub(crate) fn try_invalidate_tex_sub_image(
        &mut self,
        texture: u32,
        level: i32,
        offset: [i32; 3],
        size: [i32; 3],
    ) -> GlResult<()> {
        let dims = self.invalidate_level(texture, level)?;
        // §8.20: the region must lie inside the level (no borders in core GL).
        for ((o, s), d) in offset.into_iter().zip(size).zip(dims) {
            if s < 0 {
                return Err(GlError::InvalidValue("negative size"));
            }
            if o < 0 || i64::from(o) + i64::from(s) > i64::from(d) {
                return Err(GlError::InvalidValue("region outside the level"));
            }
        }
        Ok(())
    }

    /// §8.20's checks of an invalidated texture level: an existing texture (INVALID_VALUE
    /// otherwise, as for 0), a level in range (only 0 for single-level targets). Returns the
    /// level's width, height and depth (layers or faces; 0s for a level never specified).
    fn invalidate_level(&self, texture: u32, level: i32) -> GlResult<[u32; 3]> {
        let t = (texture != 0)
            .then(|| self.objs.textures.get(TextureName(texture)))
            .flatten()
            .filter(|t| t.target.is_some())
            .ok_or(GlError::InvalidValue("not the name of an existing texture"))?;
        let single = matches!(
            t.target,
            Some(
                gl::TEXTURE_RECTANGLE
                    | gl::TEXTURE_BUFFER
                    | gl::TEXTURE_2D_MULTISAMPLE
                    | gl::TEXTURE_2D_MULTISAMPLE_ARRAY
            )
        );
        if level < 0 || level as usize >= limits::MAX_MIP_LEVELS || (single && level != 0) {
            return Err(GlError::InvalidValue("level out of range"));
        }
        Ok(t.levels
            .get(level as usize)
            .and_then(|l| l.as_ref())
            .map_or([0; 3], |img| [img.width(), img.height(), img.depth()]))
    }

    pub(crate) fn try_invalidate_buffer_data(&mut self, buffer: u32) -> GlResult<()> {
        let b = self
            .objs
            .buffers
            .get(BufferName(buffer))
            .ok_or(GlError::InvalidValue("not the name of an existing buffer"))?;
        // §6.5: not while mapped, unless the mapping is persistent.
        if b.blocks_draws() {
            return Err(GlError::InvalidOperation("the buffer is mapped"));
        }
        Ok(())
    }

    pub(crate) fn try_invalidate_buffer_sub_data(
        &mut self,
        buffer: u32,
        offset: isize,
        length: isize,
    ) -> GlResult<()> {
        let b = self
            .objs
            .buffers
            .get(BufferName(buffer))
            .ok_or(GlError::InvalidValue("not the name of an existing buffer"))?;
        if offset < 0 || length < 0 {
            return Err(GlError::InvalidValue("negative offset or length"));
        }
        let (offset, length) = (offset as usize, length as usize);
        if offset
            .checked_add(length)
            .is_none_or(|end| end > b.data.len())
        {
            return Err(GlError::InvalidValue("range past the end of the buffer"));
        }
        // §6.5: not a range that overlaps a (non-persistent) mapping.
        if let Some(m) = b.mapping.filter(|_| b.blocks_draws()) {
            if offset < m.offset + m.length && m.offset < offset + length {
                return Err(GlError::InvalidOperation("the range is mapped"));
            }
        }
        Ok(())
    }
}

/// A sub-region's size: INVALID_VALUE when negative (§17.4.4).
fn check_region(width: i32, height: i32) -> GlResult<()> {
    if width < 0 || height < 0 {
        return Err(GlError::InvalidValue("negative width or height"));
    }
    Ok(())
}
