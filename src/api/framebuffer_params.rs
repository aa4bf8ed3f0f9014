//! Framebuffer parameters and framebuffers with no attachments (GL 4.5 core §9.2.1, §9.4.2,
//! ARB_framebuffer_no_attachments): glFramebufferParameteri, glNamedFramebufferParameteri,
//! glGetFramebufferParameteriv and glGetNamedFramebufferParameteriv, the
//! FRAMEBUFFER_DEFAULT_* state they set, and what it gives a framebuffer object that has
//! no image attached: its size and sample count (`framebuffer_buffers`), so that
//! rasterization, fragment shaders, their storage writes and occlusion queries run as for
//! any framebuffer; only nothing is stored. The completeness rule that uses it lives with
//! the others in `framebuffer.rs` (`framebuffer_status`).

use crate::api::context::{dirty, limits, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::FramebufferName;
use crate::gl::enums as gl;

/// GL_MAX_FRAMEBUFFER_WIDTH and _HEIGHT: the largest renderbuffer (GL 4.5 core table 23.64's
/// minimum is 16384).
pub const MAX_FRAMEBUFFER_SIZE: i32 = limits::MAX_RENDERBUFFER_SIZE;
/// GL_MAX_FRAMEBUFFER_LAYERS: the most layers a texture has (minimum 2048).
pub const MAX_FRAMEBUFFER_LAYERS: i32 = limits::MAX_ARRAY_TEXTURE_LAYERS;
/// GL_MAX_FRAMEBUFFER_SAMPLES: the most samples an attachment has (minimum 4).
pub const MAX_FRAMEBUFFER_SAMPLES: i32 = limits::MAX_SAMPLES;

/// The FRAMEBUFFER_DEFAULT_* parameters of a framebuffer object (GL 4.5 core table 23.70):
/// what a framebuffer with no attachment has in their place.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FramebufferDefaults {
    pub width: u32,
    pub height: u32,
    pub layers: u32,
    /// As set; a framebuffer with no attachment uses the next sample count softgl has
    /// (`samples_in_use`).
    pub samples: u32,
    pub fixed_sample_locations: bool,
}

impl FramebufferDefaults {
    /// GL_SAMPLES of a framebuffer with no attachment: 0, or the smallest sample count
    /// softgl renders with that is at least the one set (GL 4.5 core §9.2.1: "the
    /// effective number of samples", rounded up as for renderbuffers).
    pub fn samples_in_use(&self) -> u32 {
        crate::raster::multisample::supported_count(self.samples)
            .unwrap_or(MAX_FRAMEBUFFER_SAMPLES as u32)
    }
}

gl_commands! {
    /// glFramebufferParameteri (GL 4.5 core §9.2.1): a FRAMEBUFFER_DEFAULT_* parameter of
    /// the framebuffer object bound to `target`.
    "glFramebufferParameteri"
    fn framebuffer_parameteri(target: u32, pname: u32, param: i32) = try_framebuffer_parameteri;
    /// glNamedFramebufferParameteri (GL 4.5 core §9.2.1, DSA).
    "glNamedFramebufferParameteri"
    fn named_framebuffer_parameteri(framebuffer: u32, pname: u32, param: i32)
        = try_named_framebuffer_parameteri;
    /// glGetFramebufferParameteriv (GL 4.5 core §9.2.3): a FRAMEBUFFER_DEFAULT_* parameter,
    /// or one of table 23.74's (DOUBLEBUFFER, IMPLEMENTATION_COLOR_READ_FORMAT/_TYPE,
    /// SAMPLES, SAMPLE_BUFFERS, STEREO) of the framebuffer bound to `target`.
    "glGetFramebufferParameteriv"
    fn get_framebuffer_parameteriv(target: u32, pname: u32) -> i32
        = try_get_framebuffer_parameteriv;
    /// glGetNamedFramebufferParameteriv (GL 4.5 core §9.2.3, DSA; 0 is the default
    /// framebuffer).
    "glGetNamedFramebufferParameteriv"
    fn get_named_framebuffer_parameteriv(framebuffer: u32, pname: u32) -> i32
        = try_get_named_framebuffer_parameteriv;
}

/// Whether `pname` is one of the FRAMEBUFFER_DEFAULT_* parameters.
fn is_default_param(pname: u32) -> bool {
    matches!(
        pname,
        gl::FRAMEBUFFER_DEFAULT_WIDTH
            | gl::FRAMEBUFFER_DEFAULT_HEIGHT
            | gl::FRAMEBUFFER_DEFAULT_LAYERS
            | gl::FRAMEBUFFER_DEFAULT_SAMPLES
            | gl::FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS
    )
}

impl Context {
    /// The framebuffer bound to `target` (None: the default framebuffer).
    fn parameter_target(&self, target: u32) -> GlResult<Option<FramebufferName>> {
        match target {
            gl::FRAMEBUFFER | gl::DRAW_FRAMEBUFFER => Ok(self.draw_framebuffer),
            gl::READ_FRAMEBUFFER => Ok(self.read_framebuffer),
            _ => Err(GlError::BadEnum("framebuffer target", target)),
        }
    }

    /// The framebuffer a glNamedFramebufferParameteri-style command names: 0 is the
    /// default framebuffer, a name glGenFramebuffers never returned is INVALID_OPERATION
    /// (GL 4.5 core §9.2.1's DSA errors).
    fn parameter_named(&self, framebuffer: u32) -> GlResult<Option<FramebufferName>> {
        self.dsa_framebuffer_or_default(framebuffer)
    }

    pub(crate) fn try_framebuffer_parameteri(
        &mut self,
        target: u32,
        pname: u32,
        param: i32,
    ) -> GlResult<()> {
        let fb = self.parameter_target(target)?;
        self.set_framebuffer_parameter(fb, pname, param)
    }

    pub(crate) fn try_named_framebuffer_parameteri(
        &mut self,
        framebuffer: u32,
        pname: u32,
        param: i32,
    ) -> GlResult<()> {
        let fb = self.parameter_named(framebuffer)?;
        self.set_framebuffer_parameter(fb, pname, param)
    }

    fn set_framebuffer_parameter(
        &mut self,
        fb: Option<FramebufferName>,
        pname: u32,
        param: i32,
    ) -> GlResult<()> {
        if !is_default_param(pname) {
            return Err(GlError::BadEnum("framebuffer parameter", pname));
        }
        let Some(name) = fb else {
            return Err(GlError::InvalidOperation(
                "the default framebuffer has no FRAMEBUFFER_DEFAULT_* parameters",
            ));
        };
        let max = match pname {
            gl::FRAMEBUFFER_DEFAULT_WIDTH | gl::FRAMEBUFFER_DEFAULT_HEIGHT => MAX_FRAMEBUFFER_SIZE,
            gl::FRAMEBUFFER_DEFAULT_LAYERS => MAX_FRAMEBUFFER_LAYERS,
            gl::FRAMEBUFFER_DEFAULT_SAMPLES => MAX_FRAMEBUFFER_SAMPLES,
            _ => i32::MAX,
        };
        if param < 0 || param > max {
            return Err(GlError::InvalidValue(
                "param is negative or past its GL_MAX_FRAMEBUFFER_* limit",
            ));
        }
        if self.draw_framebuffer == Some(name) {
            self.flush_texture_renders();
        }
        let f = self
            .framebuffers
            .get_mut(name)
            .ok_or(GlError::InvalidOperation("no framebuffer"))?;
        let d = &mut f.defaults;
        let v = param as u32;
        match pname {
            gl::FRAMEBUFFER_DEFAULT_WIDTH => d.width = v,
            gl::FRAMEBUFFER_DEFAULT_HEIGHT => d.height = v,
            gl::FRAMEBUFFER_DEFAULT_LAYERS => d.layers = v,
            gl::FRAMEBUFFER_DEFAULT_SAMPLES => d.samples = v,
            _ => d.fixed_sample_locations = param != 0,
        }
        // The size and sample count a draw derives may change.
        self.dirty |= dirty::TARGET;
        Ok(())
    }

    pub(crate) fn try_get_framebuffer_parameteriv(
        &mut self,
        target: u32,
        pname: u32,
    ) -> GlResult<i32> {
        let fb = self.parameter_target(target)?;
        self.framebuffer_parameter(fb, pname)
    }

    pub(crate) fn try_get_named_framebuffer_parameteriv(
        &mut self,
        framebuffer: u32,
        pname: u32,
    ) -> GlResult<i32> {
        let fb = self.parameter_named(framebuffer)?;
        self.framebuffer_parameter(fb, pname)
    }

    /// One value of glGetFramebufferParameteriv for `fb` (None: the default framebuffer,
    /// which has table 23.74's values but no FRAMEBUFFER_DEFAULT_* ones).
    fn framebuffer_parameter(&mut self, fb: Option<FramebufferName>, pname: u32) -> GlResult<i32> {
        if is_default_param(pname) {
            let Some(name) = fb else {
                return Err(GlError::InvalidOperation(
                    "the default framebuffer has no FRAMEBUFFER_DEFAULT_* parameters",
                ));
            };
            let d = self
                .framebuffers
                .get(name)
                .ok_or(GlError::InvalidOperation("no framebuffer"))?
                .defaults;
            return Ok(match pname {
                gl::FRAMEBUFFER_DEFAULT_WIDTH => d.width as i32,
                gl::FRAMEBUFFER_DEFAULT_HEIGHT => d.height as i32,
                gl::FRAMEBUFFER_DEFAULT_LAYERS => d.layers as i32,
                gl::FRAMEBUFFER_DEFAULT_SAMPLES => d.samples as i32,
                _ => d.fixed_sample_locations as i32,
            });
        }
        // Table 23.74: the framebuffer-dependent values glGetIntegerv reports for the bound
        // draw framebuffer, here for `fb`.
        match pname {
            gl::DOUBLEBUFFER | gl::STEREO => Ok(0),
            gl::SAMPLES | gl::SAMPLE_BUFFERS => {
                let samples = self.framebuffer_buffers(fb, false).map_or(0, |b| b.samples) as i32;
                Ok(if pname == gl::SAMPLES {
                    samples
                } else {
                    (samples > 0) as i32
                })
            }
            gl::IMPLEMENTATION_COLOR_READ_FORMAT | gl::IMPLEMENTATION_COLOR_READ_TYPE => {
                // The pair glReadPixels takes without conversion from the read buffer:
                // integers as RGBA_INTEGER, floats as FLOAT, the rest as unsigned bytes.
                let format = self
                    .framebuffer_buffers(fb, true)
                    .ok()
                    .and_then(|b| b.colors.into_iter().next().flatten())
                    .map(|img| img.format());
                let (f, t) = match format {
                    Some(crate::sampler::Format::Rgb10A2ui) => {
                        (gl::RGBA_INTEGER, gl::UNSIGNED_INT_2_10_10_10_REV)
                    }
                    Some(crate::sampler::Format::Int(i)) => (
                        gl::RGBA_INTEGER,
                        if i.signed { gl::INT } else { gl::UNSIGNED_INT },
                    ),
                    Some(
                        crate::sampler::Format::Rgba32F
                        | crate::sampler::Format::R32F
                        | crate::sampler::Format::Rgba16F,
                    ) => (gl::RGBA, gl::FLOAT),
                    _ => (gl::RGBA, gl::UNSIGNED_BYTE),
                };
                Ok(if pname == gl::IMPLEMENTATION_COLOR_READ_FORMAT {
                    f
                } else {
                    t
                } as i32)
            }
            _ => Err(GlError::BadEnum("framebuffer parameter", pname)),
        }
    }
}
