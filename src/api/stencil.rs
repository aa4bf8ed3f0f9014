//! Stencil state (GL 4.5 core §17.3.5, state table 23.10): glStencilFunc(Separate),
//! glStencilOp(Separate), glStencilMask(Separate), the GL_STENCIL_TEST capability's value,
//! the glGet values of all of it, and what a draw takes of it (`raster::StencilState`).
//! The per-fragment test itself is `raster::ops::depth_stencil` and the fragment variants.

use crate::api::context::{dirty, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::gl::enums as gl;
use crate::gl::{CompareFunc, StencilOp};
use crate::raster::{StencilFace, StencilState};

/// One face's state as the application set it (table 23.10): the reference unclamped and
/// the masks with all 32 bits, as glGet returns them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct FaceGl {
    pub func: CompareFunc,
    pub reference: i32,
    pub value_mask: u32,
    pub sfail: StencilOp,
    pub dpfail: StencilOp,
    pub dppass: StencilOp,
    pub write_mask: u32,
}

impl FaceGl {
    /// GL's initial values: ALWAYS, 0, all ones, KEEP ×3, all ones.
    const INITIAL: FaceGl = FaceGl {
        func: CompareFunc::Always,
        reference: 0,
        value_mask: u32::MAX,
        sfail: StencilOp::Keep,
        dpfail: StencilOp::Keep,
        dppass: StencilOp::Keep,
        write_mask: u32::MAX,
    };

    /// The face as a draw applies it to an 8-bit stencil buffer: the reference clamped to
    /// [0, 2^8 − 1] (§17.3.5), the masks cut to 8 bits.
    fn derive(&self) -> StencilFace {
        StencilFace {
            func: self.func,
            sfail: self.sfail,
            dpfail: self.dpfail,
            dppass: self.dppass,
            reference: self.reference.clamp(0, 255) as u8,
            value_mask: self.value_mask as u8,
            write_mask: self.write_mask as u8,
        }
    }
}

/// The stencil part of the context's fixed-function state.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct StencilGl {
    /// GL_STENCIL_TEST.
    pub test: bool,
    pub front: FaceGl,
    pub back: FaceGl,
}

impl StencilGl {
    pub(crate) const INITIAL: StencilGl = StencilGl {
        test: false,
        front: FaceGl::INITIAL,
        back: FaceGl::INITIAL,
    };

    /// What a draw snapshots: the state when the test is on.
    pub(crate) fn derive(&self) -> Option<StencilState> {
        self.test.then(|| StencilState {
            front: self.front.derive(),
            back: self.back.derive(),
        })
    }

    /// The stencil bits a clear writes (GL 4.5 core §17.4.3: the front write mask).
    pub(crate) fn clear_mask(&self) -> u8 {
        self.front.write_mask as u8
    }

    /// The glGet value of `pname` when it is a stencil state value (GL_STENCIL_TEST is a
    /// boolean and answered by the capability table).
    pub(crate) fn get(&self, pname: u32) -> Option<i32> {
        let (f, name) = match pname {
            gl::STENCIL_FUNC
            | gl::STENCIL_REF
            | gl::STENCIL_VALUE_MASK
            | gl::STENCIL_FAIL
            | gl::STENCIL_PASS_DEPTH_FAIL
            | gl::STENCIL_PASS_DEPTH_PASS
            | gl::STENCIL_WRITEMASK => (&self.front, pname),
            gl::STENCIL_BACK_FUNC => (&self.back, gl::STENCIL_FUNC),
            gl::STENCIL_BACK_REF => (&self.back, gl::STENCIL_REF),
            gl::STENCIL_BACK_VALUE_MASK => (&self.back, gl::STENCIL_VALUE_MASK),
            gl::STENCIL_BACK_FAIL => (&self.back, gl::STENCIL_FAIL),
            gl::STENCIL_BACK_PASS_DEPTH_FAIL => (&self.back, gl::STENCIL_PASS_DEPTH_FAIL),
            gl::STENCIL_BACK_PASS_DEPTH_PASS => (&self.back, gl::STENCIL_PASS_DEPTH_PASS),
            gl::STENCIL_BACK_WRITEMASK => (&self.back, gl::STENCIL_WRITEMASK),
            _ => return None,
        };
        Some(match name {
            gl::STENCIL_FUNC => f.func.to_gl() as i32,
            gl::STENCIL_REF => f.reference,
            gl::STENCIL_VALUE_MASK => f.value_mask as i32,
            gl::STENCIL_FAIL => f.sfail.to_gl() as i32,
            gl::STENCIL_PASS_DEPTH_FAIL => f.dpfail.to_gl() as i32,
            gl::STENCIL_PASS_DEPTH_PASS => f.dppass.to_gl() as i32,
            _ => f.write_mask as i32,
        })
    }
}

gl_commands! {
    /// glStencilFunc: both faces' function, reference and value mask.
    "glStencilFunc" fn stencil_func(func: u32, reference: i32, mask: u32) = try_stencil_func;
    /// glStencilFuncSeparate (GL 4.5 core §17.3.5): `face` FRONT, BACK or FRONT_AND_BACK.
    "glStencilFuncSeparate"
    fn stencil_func_separate(face: u32, func: u32, reference: i32, mask: u32)
        = try_stencil_func_separate;
    /// glStencilOp: both faces' sfail, dpfail, dppass operations.
    "glStencilOp" fn stencil_op(sfail: u32, dpfail: u32, dppass: u32) = try_stencil_op;
    /// glStencilOpSeparate.
    "glStencilOpSeparate"
    fn stencil_op_separate(face: u32, sfail: u32, dpfail: u32, dppass: u32)
        = try_stencil_op_separate;
    /// glStencilMask: both faces' write mask (it masks stencil clears too, §17.4.3).
    "glStencilMask" fn stencil_mask(mask: u32) = try_stencil_mask;
    /// glStencilMaskSeparate.
    "glStencilMaskSeparate" fn stencil_mask_separate(face: u32, mask: u32) = try_stencil_mask_separate;
}

/// The faces a `face` argument names, or its GL_INVALID_ENUM.
fn faces(face: u32) -> GlResult<(bool, bool)> {
    match face {
        gl::FRONT => Ok((true, false)),
        gl::BACK => Ok((false, true)),
        gl::FRONT_AND_BACK => Ok((true, true)),
        _ => Err(GlError::BadEnum("stencil face", face)),
    }
}

fn op(v: u32) -> GlResult<StencilOp> {
    StencilOp::from_gl(v).ok_or(GlError::BadEnum("stencil operation", v))
}

impl Context {
    /// Applies `set` to the faces `face` names, and marks the draw state dirty.
    fn set_stencil_faces(&mut self, face: u32, set: impl Fn(&mut FaceGl)) -> GlResult<()> {
        let (front, back) = faces(face)?;
        let s = &mut self.fixed.stencil;
        if front {
            set(&mut s.front);
        }
        if back {
            set(&mut s.back);
        }
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_stencil_func(
        &mut self,
        func: u32,
        reference: i32,
        mask: u32,
    ) -> GlResult<()> {
        self.try_stencil_func_separate(gl::FRONT_AND_BACK, func, reference, mask)
    }

    pub(crate) fn try_stencil_func_separate(
        &mut self,
        face: u32,
        func: u32,
        reference: i32,
        mask: u32,
    ) -> GlResult<()> {
        faces(face)?;
        let func = CompareFunc::from_gl(func).ok_or(GlError::BadEnum("stencil function", func))?;
        self.set_stencil_faces(face, |f| {
            f.func = func;
            f.reference = reference;
            f.value_mask = mask;
        })
    }

    pub(crate) fn try_stencil_op(&mut self, sfail: u32, dpfail: u32, dppass: u32) -> GlResult<()> {
        self.try_stencil_op_separate(gl::FRONT_AND_BACK, sfail, dpfail, dppass)
    }

    pub(crate) fn try_stencil_op_separate(
        &mut self,
        face: u32,
        sfail: u32,
        dpfail: u32,
        dppass: u32,
    ) -> GlResult<()> {
        faces(face)?;
        let (a, b, c) = (op(sfail)?, op(dpfail)?, op(dppass)?);
        self.set_stencil_faces(face, |f| {
            (f.sfail, f.dpfail, f.dppass) = (a, b, c);
        })
    }

    pub(crate) fn try_stencil_mask(&mut self, mask: u32) -> GlResult<()> {
        self.try_stencil_mask_separate(gl::FRONT_AND_BACK, mask)
    }

    pub(crate) fn try_stencil_mask_separate(&mut self, face: u32, mask: u32) -> GlResult<()> {
        self.set_stencil_faces(face, |f| f.write_mask = mask)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Initial values (table 23.10), each setter on the faces it names, the back forms of
    /// glGet, and the errors of bad enums (which change nothing).
    #[test]
    fn state_setters_and_queries() {
        let mut c = Context::new(2, 2);
        let get = |c: &mut Context, p| c.get_integerv(p)[0];
        assert!(!c.is_enabled(gl::STENCIL_TEST));
        assert_eq!(get(&mut c, gl::STENCIL_FUNC), gl::ALWAYS as i32);
        assert_eq!(get(&mut c, gl::STENCIL_BACK_VALUE_MASK), -1);
        assert_eq!(get(&mut c, gl::STENCIL_WRITEMASK), -1);
        assert_eq!(
            get(&mut c, gl::STENCIL_BACK_PASS_DEPTH_PASS),
            gl::KEEP as i32
        );
        c.enable(gl::STENCIL_TEST);
        assert!(c.is_enabled(gl::STENCIL_TEST));
        assert_eq!(c.get_booleanv(gl::STENCIL_TEST), vec![true]);

        c.stencil_func_separate(gl::BACK, gl::LESS, 300, 0x0F);
        c.stencil_op_separate(gl::FRONT, gl::ZERO, gl::INCR_WRAP, gl::INVERT);
        c.stencil_mask_separate(gl::BACK, 0x3C);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(get(&mut c, gl::STENCIL_FUNC), gl::ALWAYS as i32);
        assert_eq!(get(&mut c, gl::STENCIL_BACK_FUNC), gl::LESS as i32);
        // The reference reads back as set; draws clamp it to the buffer's range.
        assert_eq!(get(&mut c, gl::STENCIL_BACK_REF), 300);
        assert_eq!(get(&mut c, gl::STENCIL_BACK_VALUE_MASK), 0x0F);
        assert_eq!(get(&mut c, gl::STENCIL_FAIL), gl::ZERO as i32);
        assert_eq!(
            get(&mut c, gl::STENCIL_PASS_DEPTH_FAIL),
            gl::INCR_WRAP as i32
        );
        assert_eq!(get(&mut c, gl::STENCIL_PASS_DEPTH_PASS), gl::INVERT as i32);
        assert_eq!(get(&mut c, gl::STENCIL_BACK_FAIL), gl::KEEP as i32);
        assert_eq!(get(&mut c, gl::STENCIL_BACK_WRITEMASK), 0x3C);
        assert_eq!(get(&mut c, gl::STENCIL_WRITEMASK), -1);
        let d = c.fixed.stencil.derive().expect("test on");
        assert_eq!(d.back.reference, 255);
        assert_eq!((d.back.value_mask, d.back.write_mask), (0x0F, 0x3C));

        c.stencil_func(gl::EQUAL, -4, 0xFF);
        c.stencil_op(gl::REPLACE, gl::DECR, gl::INCR);
        c.stencil_mask(0x81);
        for p in [gl::STENCIL_FUNC, gl::STENCIL_BACK_FUNC] {
            assert_eq!(get(&mut c, p), gl::EQUAL as i32);
        }
        for p in [gl::STENCIL_FAIL, gl::STENCIL_BACK_FAIL] {
            assert_eq!(get(&mut c, p), gl::REPLACE as i32);
        }
        assert_eq!(get(&mut c, gl::STENCIL_BACK_WRITEMASK), 0x81);
        assert_eq!(c.fixed.stencil.derive().expect("on").front.reference, 0);
        assert_eq!(c.fixed.stencil.clear_mask(), 0x81);

        // Bad enums: INVALID_ENUM, nothing changes, the message names the call.
        let before = c.fixed.stencil;
        c.stencil_func(0x1234, 1, 1);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.stencil_func_separate(gl::FRONT_LEFT, gl::LESS, 1, 1);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.stencil_op(gl::KEEP, gl::KEEP, gl::LESS);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.stencil_op_separate(gl::BACK, gl::INCR, gl::LEQUAL, gl::KEEP);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.stencil_mask_separate(gl::NONE, 0);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        assert_eq!(c.fixed.stencil, before);
        let log = c.debug_messages();
        assert!(
            log.iter()
                .any(|m| m.message.contains("glStencilOpSeparate")),
            "{log:?}"
        );
        c.disable(gl::STENCIL_TEST);
        assert!(c.fixed.stencil.derive().is_none());
    }
}
