//! GL 4.5's direct-state-access framebuffer commands that act on a named framebuffer or
//! renderbuffer instead of a binding: glClearNamedFramebuffer{iv,uiv,fv,fi} and
//! glGetNamedRenderbufferParameteriv (glBlitNamedFramebuffer is in `api/blit.rs`).

use crate::api::context::{dirty, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::GlResult;
use crate::api::names::{FramebufferName, RenderbufferName};

gl_commands! {
    /// glClearNamedFramebufferiv: glClearBufferiv on `framebuffer` (0: the default one).
    "glClearNamedFramebufferiv"
    fn clear_named_framebufferiv(framebuffer: u32, buffer: u32, drawbuffer: i32, value: &[i32])
        = try_clear_named_framebufferiv;
    /// glClearNamedFramebufferuiv.
    "glClearNamedFramebufferuiv"
    fn clear_named_framebufferuiv(framebuffer: u32, buffer: u32, drawbuffer: i32, value: &[u32])
        = try_clear_named_framebufferuiv;
    /// glClearNamedFramebufferfv.
    "glClearNamedFramebufferfv"
    fn clear_named_framebufferfv(framebuffer: u32, buffer: u32, drawbuffer: i32, value: &[f32])
        = try_clear_named_framebufferfv;
    /// glClearNamedFramebufferfi.
    #[allow(clippy::too_many_arguments)]
    "glClearNamedFramebufferfi"
    fn clear_named_framebufferfi(framebuffer: u32, buffer: u32, drawbuffer: i32, depth: f32, stencil: i32)
        = try_clear_named_framebufferfi;
    /// glGetNamedRenderbufferParameteriv (GL 4.5 core §9.2.6, DSA).
    "glGetNamedRenderbufferParameteriv"
    fn get_named_renderbuffer_parameteriv(renderbuffer: u32, pname: u32) -> i32
        = try_get_named_renderbuffer_parameteriv;
}

impl Context {
    /// Makes `fb` the draw framebuffer as glBindFramebuffer does (queued renders into
    /// textures flushed when it changes).
    fn switch_draw_framebuffer(&mut self, fb: Option<FramebufferName>) {
        if self.draw_framebuffer != fb {
            self.flush_texture_renders();
            self.draw_framebuffer = fb;
            self.dirty |= dirty::TARGET;
        }
    }

    /// Runs the bound-framebuffer command `f` on `framebuffer` (0: the default one) as the
    /// draw framebuffer, then restores the binding, failed or not.
    fn on_draw_framebuffer<T>(
        &mut self,
        framebuffer: u32,
        f: impl FnOnce(&mut Self) -> GlResult<T>,
    ) -> GlResult<T> {
        let fb = self.dsa_framebuffer_or_default(framebuffer)?;
        let bound = self.draw_framebuffer;
        self.switch_draw_framebuffer(fb);
        let r = f(self);
        self.switch_draw_framebuffer(bound);
        r
    }

    pub(crate) fn try_clear_named_framebufferiv(
        &mut self,
        framebuffer: u32,
        buffer: u32,
        drawbuffer: i32,
        value: &[i32],
    ) -> GlResult<()> {
        self.on_draw_framebuffer(framebuffer, |c| {
            c.try_clear_bufferiv(buffer, drawbuffer, value)
        })
    }

    pub(crate) fn try_clear_named_framebufferuiv(
        &mut self,
        framebuffer: u32,
        buffer: u32,
        drawbuffer: i32,
        value: &[u32],
    ) -> GlResult<()> {
        self.on_draw_framebuffer(framebuffer, |c| {
            c.try_clear_bufferuiv(buffer, drawbuffer, value)
        })
    }

    pub(crate) fn try_clear_named_framebufferfv(
        &mut self,
        framebuffer: u32,
        buffer: u32,
        drawbuffer: i32,
        value: &[f32],
    ) -> GlResult<()> {
        self.on_draw_framebuffer(framebuffer, |c| {
            c.try_clear_bufferfv(buffer, drawbuffer, value)
        })
    }

    pub(crate) fn try_clear_named_framebufferfi(
        &mut self,
        framebuffer: u32,
        buffer: u32,
        drawbuffer: i32,
        depth: f32,
        stencil: i32,
    ) -> GlResult<()> {
        self.on_draw_framebuffer(framebuffer, |c| {
            c.try_clear_bufferfi(buffer, drawbuffer, depth, stencil)
        })
    }

    pub(crate) fn try_get_named_renderbuffer_parameteriv(
        &mut self,
        renderbuffer: u32,
        pname: u32,
    ) -> GlResult<i32> {
        self.renderbuffer_parameter_of(RenderbufferName(renderbuffer), pname)
    }
}

#[cfg(test)]
mod tests {
    use crate::api::Context;
    use crate::gl::enums as gl;

    /// A framebuffer with a `w`×`h` RGBA8 renderbuffer as colour attachment 0.
    fn fbo(c: &mut Context, w: i32, h: i32) -> (u32, u32) {
        let rb = c.create_renderbuffers(1)[0];
        c.named_renderbuffer_storage(rb, gl::RGBA8, w, h);
        let fb = c.create_framebuffers(1)[0];
        c.named_framebuffer_renderbuffer(fb, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb);
        (fb, rb)
    }

    #[test]
    fn named_clear_and_blit_leave_the_bindings_alone() {
        let mut c = Context::new(8, 8);
        let (a, rb) = fbo(&mut c, 4, 4);
        let (b, _) = fbo(&mut c, 4, 4);
        c.clear_named_framebufferfv(a, gl::COLOR, 0, &[1.0, 0.0, 0.0, 1.0]);
        assert_eq!(c.get_integerv(gl::DRAW_FRAMEBUFFER_BINDING), vec![0]);
        c.blit_named_framebuffer(
            a,
            b,
            [0, 0, 4, 4],
            [0, 0, 4, 4],
            gl::COLOR_BUFFER_BIT,
            gl::NEAREST,
        );
        assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.debug_messages());
        c.bind_framebuffer(gl::READ_FRAMEBUFFER, b);
        let px = c.read_pixels(1, 1, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE);
        assert_eq!(px, vec![255, 0, 0, 255]);
        assert_eq!(
            c.get_named_renderbuffer_parameteriv(rb, gl::RENDERBUFFER_WIDTH),
            4
        );
        assert_eq!(
            c.get_named_renderbuffer_parameteriv(rb, gl::RENDERBUFFER_INTERNAL_FORMAT),
            gl::RGBA8 as i32
        );
        // Unknown names: INVALID_OPERATION, and the binding is still the default.
        c.clear_named_framebufferfv(999, gl::COLOR, 0, &[0.0; 4]);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.get_named_renderbuffer_parameteriv(999, gl::RENDERBUFFER_WIDTH);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        // A bad drawbuffer fails and still restores the binding.
        c.clear_named_framebufferfv(a, gl::COLOR, 99, &[0.0; 4]);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        assert_eq!(c.get_integerv(gl::DRAW_FRAMEBUFFER_BINDING), vec![0]);
    }
}
