//! Multisample state and queries (GL 4.5 core §14.3.1, §17.3.3, §22.3): sample positions
//! (glGetMultisamplefv), the sample mask (glSampleMaski), the supported sample counts
//! (glGetInternalformativ) and the draw framebuffer's GL_SAMPLES / GL_SAMPLE_BUFFERS.
//! Multisample storage lives in `framebuffer.rs`, its rasterization in `raster::multisample`,
//! resolves in `blit.rs`.

use crate::api::context::{dirty, limits, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::pixels;
use crate::api::texture::color_renderable;
use crate::gl::enums as gl;
use crate::raster::multisample::{self, SAMPLE_COUNTS};

gl_commands! {
    /// glGetMultisamplefv (GL 4.5 core §14.3.1.1): GL_SAMPLE_POSITION of sample `index`
    /// of the draw framebuffer, in [0, 1]² from the pixel's lower-left corner.
    "glGetMultisamplefv"
    fn get_multisamplefv(pname: u32, index: u32) -> [f32; 2] = try_get_multisamplefv;
    /// glSampleMaski (GL 4.5 core §17.3.3): word `mask_number` of the sample mask.
    "glSampleMaski" fn sample_maski(mask_number: u32, mask: u32) = try_sample_maski;
    /// glGetInternalformativ (GL 4.5 core §22.3) for GL_NUM_SAMPLE_COUNTS, GL_SAMPLES and
    /// GL_INTERNALFORMAT_SUPPORTED; at most `buf_size` values.
    "glGetInternalformativ"
    fn get_internalformativ(target: u32, internalformat: u32, pname: u32, buf_size: i32) -> Vec<i32>
        = try_get_internalformativ;
}

impl Context {
    /// GL_SAMPLES of the draw framebuffer (0 when single-sample or incomplete).
    pub(crate) fn draw_samples(&self) -> u32 {
        self.framebuffer_buffers(self.draw_framebuffer, false)
            .map_or(0, |b| b.samples)
    }

    pub(crate) fn try_get_multisamplefv(&mut self, pname: u32, index: u32) -> GlResult<[f32; 2]> {
        if pname != gl::SAMPLE_POSITION {
            return Err(GlError::BadEnum("multisample parameter", pname));
        }
        let n = self.draw_samples();
        // A single-sample framebuffer has its one sample at the centre (as Mesa answers).
        if index >= n.max(1) {
            return Err(GlError::InvalidValue(
                "sample index not below GL_SAMPLES of the draw framebuffer",
            ));
        }
        Ok(multisample::position(n, index))
    }

    pub(crate) fn try_sample_maski(&mut self, mask_number: u32, mask: u32) -> GlResult<()> {
        if mask_number >= limits::MAX_SAMPLE_MASK_WORDS {
            return Err(GlError::InvalidValue(
                "mask number not below GL_MAX_SAMPLE_MASK_WORDS",
            ));
        }
        self.fixed.sample_mask = mask;
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_get_internalformativ(
        &mut self,
        target: u32,
        internalformat: u32,
        pname: u32,
        buf_size: i32,
    ) -> GlResult<Vec<i32>> {
        if buf_size < 0 {
            return Err(GlError::InvalidValue("negative buffer size"));
        }
        if !matches!(
            target,
            gl::RENDERBUFFER
                | gl::TEXTURE_2D
                | gl::TEXTURE_2D_ARRAY
                | gl::TEXTURE_2D_MULTISAMPLE
                | gl::TEXTURE_2D_MULTISAMPLE_ARRAY
        ) {
            return Err(GlError::BadEnum("internal format query target", target));
        }
        // Sample counts apply to renderable formats of multisample-capable targets; softgl
        // has multisample renderbuffers only (no multisample textures yet).
        let renderable = pixels::internal_format(internalformat)
            .is_some_and(|f| color_renderable(f.storage) || f.storage.is_depth())
            || internalformat == gl::STENCIL_INDEX8;
        let counts: &[u32] = if renderable && target == gl::RENDERBUFFER {
            &SAMPLE_COUNTS
        } else {
            &[]
        };
        let values: Vec<i32> = match pname {
            gl::NUM_SAMPLE_COUNTS => vec![counts.len() as i32],
            gl::SAMPLES => counts.iter().map(|&n| n as i32).collect(),
            gl::INTERNALFORMAT_SUPPORTED => {
                vec![(pixels::internal_format(internalformat).is_some()
                    || internalformat == gl::STENCIL_INDEX8) as i32]
            }
            _ => {
                return Err(GlError::InvalidOperation(
                    "glGetInternalformativ: softgl answers GL_NUM_SAMPLE_COUNTS, GL_SAMPLES and GL_INTERNALFORMAT_SUPPORTED only",
                ))
            }
        };
        Ok(values.into_iter().take(buf_size as usize).collect())
    }
}
