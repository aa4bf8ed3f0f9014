//! Per-draw-buffer blending and colour masks (ARB_draw_buffers_blend, GL 4.5 core §17.3.6
//! and §17.4.2): glEnablei/glDisablei(GL_BLEND), glBlendFunc(Separate)i,
//! glBlendEquation(Separate)i, glColorMaski, and their indexed glGet values; glLogicOp
//! (§17.3.11); the draw-time limit of dual-source blending (§17.3.6.3,
//! ARB_blend_func_extended). The state of
//! every draw buffer lives in `FixedState::blend` / `color_mask`; a draw sees it as
//! `RasterState::per_buffer` only when the buffers differ, so programs that never use the
//! indexed forms run exactly as before.

use crate::api::context::{dirty, limits, Context, FixedState};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::gl::enums as gl;
use crate::raster::BufferBlend;

const N: usize = limits::MAX_DRAW_BUFFERS as usize;

/// The per-buffer state a draw needs: `None` when every draw buffer has draw buffer 0's
/// (then `RasterState::blend` / `color_mask` apply to all).
pub(crate) fn per_buffer(f: &FixedState) -> Option<[BufferBlend; N]> {
    let uniform = f.blend.iter().all(|b| *b == f.blend[0])
        && f.color_mask.iter().all(|m| *m == f.color_mask[0]);
    (!uniform).then(|| {
        std::array::from_fn(|i| BufferBlend {
            blend: f.blend[i],
            color_mask: f.color_mask[i],
        })
    })
}

/// The indexed glGet value `pname` of draw buffer `i` (GL 4.5 core table 23.24/23.25):
/// integers as i64, or the colour mask's booleans.
pub(crate) fn indexed_value(f: &FixedState, pname: u32, i: usize) -> Result<Vec<i64>, Vec<bool>> {
    let b = &f.blend[i];
    let e = |v: u32| Ok(vec![v as i64]);
    match pname {
        gl::BLEND_SRC_RGB => e(b.src_rgb.to_gl()),
        gl::BLEND_DST_RGB => e(b.dst_rgb.to_gl()),
        gl::BLEND_SRC_ALPHA => e(b.src_alpha.to_gl()),
        gl::BLEND_DST_ALPHA => e(b.dst_alpha.to_gl()),
        gl::BLEND_EQUATION_RGB => e(b.eq_rgb.to_gl()),
        gl::BLEND_EQUATION_ALPHA => e(b.eq_alpha.to_gl()),
        _ => Err(f.color_mask[i].to_vec()),
    }
}

/// A draw buffer index of an indexed blend command (INVALID_VALUE past the limit).
fn buffer(index: u32) -> GlResult<usize> {
    if index < limits::MAX_DRAW_BUFFERS {
        Ok(index as usize)
    } else {
        Err(GlError::InvalidValue("index past GL_MAX_DRAW_BUFFERS"))
    }
}

gl_commands! {
    /// glEnablei: GL_BLEND of one draw buffer, GL_SCISSOR_TEST of one viewport.
    "glEnablei" fn enablei(cap: u32, index: u32) = try_enablei;
    /// glDisablei.
    "glDisablei" fn disablei(cap: u32, index: u32) = try_disablei;
    /// glBlendFunci.
    "glBlendFunci" fn blend_funci(buf: u32, src: u32, dst: u32) = try_blend_funci;
    /// glBlendFuncSeparatei.
    "glBlendFuncSeparatei"
    fn blend_func_separatei(buf: u32, src_rgb: u32, dst_rgb: u32, src_a: u32, dst_a: u32)
        = try_blend_func_separatei;
    /// glBlendEquationi.
    "glBlendEquationi" fn blend_equationi(buf: u32, mode: u32) = try_blend_equationi;
    /// glBlendEquationSeparatei.
    "glBlendEquationSeparatei"
    fn blend_equation_separatei(buf: u32, mode_rgb: u32, mode_alpha: u32)
        = try_blend_equation_separatei;
    /// glColorMaski.
    "glColorMaski" fn color_maski(buf: u32, r: bool, g: bool, b: bool, a: bool) = try_color_maski;
    /// glLogicOp (GL 4.5 core §17.3.11): the operation GL_COLOR_LOGIC_OP applies.
    "glLogicOp" fn logic_op(opcode: u32) = try_logic_op;
}

impl Context {
    /// glEnable/glDisable(GL_BLEND): every draw buffer.
    pub(crate) fn try_enablei_all(&mut self, cap: u32, on: bool) -> GlResult<()> {
        debug_assert_eq!(cap, gl::BLEND);
        for b in &mut self.fixed.blend {
            b.enabled = on;
        }
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    fn set_enabledi(&mut self, cap: u32, index: u32, on: bool) -> GlResult<()> {
        match cap {
            gl::BLEND => {
                self.fixed.blend[buffer(index)?].enabled = on;
                self.dirty |= dirty::RASTER;
                Ok(())
            }
            gl::SCISSOR_TEST => self.set_scissor_test(Some(index), on),
            _ => Err(GlError::BadEnum("indexed capability", cap)),
        }
    }

    pub(crate) fn try_enablei(&mut self, cap: u32, index: u32) -> GlResult<()> {
        self.set_enabledi(cap, index, true)
    }

    pub(crate) fn try_disablei(&mut self, cap: u32, index: u32) -> GlResult<()> {
        self.set_enabledi(cap, index, false)
    }

    pub(crate) fn try_blend_funci(&mut self, buf: u32, src: u32, dst: u32) -> GlResult<()> {
        self.try_blend_func_separatei(buf, src, dst, src, dst)
    }

    pub(crate) fn try_blend_func_separatei(
        &mut self,
        buf: u32,
        src_rgb: u32,
        dst_rgb: u32,
        src_a: u32,
        dst_a: u32,
    ) -> GlResult<()> {
        let i = buffer(buf)?;
        let [a, b, c, d] = [
            Self::check_blend_factor(src_rgb)?,
            Self::check_blend_factor(dst_rgb)?,
            Self::check_blend_factor(src_a)?,
            Self::check_blend_factor(dst_a)?,
        ];
        let bl = &mut self.fixed.blend[i];
        (bl.src_rgb, bl.dst_rgb, bl.src_alpha, bl.dst_alpha) = (a, b, c, d);
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_blend_equationi(&mut self, buf: u32, mode: u32) -> GlResult<()> {
        self.try_blend_equation_separatei(buf, mode, mode)
    }

    pub(crate) fn try_blend_equation_separatei(
        &mut self,
        buf: u32,
        mode_rgb: u32,
        mode_alpha: u32,
    ) -> GlResult<()> {
        let i = buffer(buf)?;
        let (a, b) = (
            Self::check_blend_equation(mode_rgb)?,
            Self::check_blend_equation(mode_alpha)?,
        );
        let bl = &mut self.fixed.blend[i];
        (bl.eq_rgb, bl.eq_alpha) = (a, b);
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_logic_op(&mut self, opcode: u32) -> GlResult<()> {
        // GL_CLEAR … GL_SET are 16 consecutive values (table 17.3).
        if !(gl::CLEAR..=gl::SET).contains(&opcode) {
            return Err(GlError::BadEnum("logic op", opcode));
        }
        self.fixed.logic_op = opcode;
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_color_maski(
        &mut self,
        buf: u32,
        r: bool,
        g: bool,
        b: bool,
        a: bool,
    ) -> GlResult<()> {
        self.fixed.color_mask[buffer(buf)?] = [r, g, b, a];
        self.dirty |= dirty::RASTER;
        Ok(())
    }
}

impl Context {
    /// GL 4.5 core §17.3.6.3: a draw with blending on for a draw buffer whose factors read
    /// the second source colour (SRC1_*) fails with INVALID_OPERATION when more draw buffers
    /// than GL_MAX_DUAL_SOURCE_DRAW_BUFFERS (1) are active (not GL_NONE), as Mesa checks it.
    pub(crate) fn check_dual_source_draw_buffers(&self) -> GlResult<()> {
        use crate::gl::BlendFactor as F;
        let src1 = |f: F| {
            matches!(
                f,
                F::Src1Color | F::OneMinusSrc1Color | F::Src1Alpha | F::OneMinusSrc1Alpha
            )
        };
        let dual = self.fixed.blend.iter().any(|b| {
            b.enabled
                && [b.src_rgb, b.dst_rgb, b.src_alpha, b.dst_alpha]
                    .into_iter()
                    .any(src1)
        });
        if !dual {
            return Ok(());
        }
        let active = match self.draw_framebuffer.and_then(|n| self.framebuffers.get(n)) {
            Some(fb) => fb.draw_buffers.iter().filter(|&&b| b != gl::NONE).count(),
            None => 1,
        };
        if active > crate::ir::link::MAX_DUAL_SOURCE_DRAW_BUFFERS as usize {
            return Err(GlError::InvalidOperation(
                "a blend factor reads the second source colour (SRC1_*) with more draw \
                 buffers than GL_MAX_DUAL_SOURCE_DRAW_BUFFERS (1)",
            ));
        }
        Ok(())
    }
}
