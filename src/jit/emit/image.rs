//! Emits `Stmt::Image` (imageLoad, imageStore, imageSize, imageSamples, imageAtomic*): one
//! `TexOp::Image` request through the texture helper, so the sampler's
//! `storage_image::access` does every bounds check in Rust, as the interpreter's does.

use cranelift_codegen::ir::{types, InstBuilder};

use super::{Emitter, I32X4};
use crate::ir::{Stage, Var};
use crate::jit::CompileError;
use crate::sampler::request as req;
use crate::sampler::storage_image::{ImageDim, ImageOp};

impl Emitter<'_, '_> {
    /// One image instruction: fill a `TexRequest` (op, dimensionality, handle, coordinates,
    /// sample, data), call the helper, write `dst` from the answer under `exec`. Stores and
    /// atomics ask only for the lanes that may write (`writers`: not fragment helper lanes);
    /// the others get zeros, as in the interpreter.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn emit_image(
        &mut self,
        op: ImageOp,
        dim: ImageDim,
        handle: &[Var; 2],
        coord: &[Option<Var>; 3],
        sample: Option<Var>,
        data: &[Option<Var>; 4],
        dst: &[Option<Var>; 4],
    ) -> Result<(), CompileError> {
        let slot = self.tex_req;
        let exec = self.b.use_var(self.exec);
        let any = self.b.ins().vhigh_bits(types::I32, exec);
        // No active lane: no call, as in the interpreter, which skips a statement list once
        // its mask is empty.
        let call_blk = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().brif(any, call_blk, &[], done, &[]);
        self.b.switch_to_block(call_blk);
        let lanes = match self.writers {
            Some(w) if op.writes() => self.b.ins().band(exec, w),
            _ => exec,
        };
        let mask = self.b.ins().vhigh_bits(types::I32, lanes);
        let quad = (self.module.stage == Stage::Fragment) as i64;
        let scalars = [
            (req::TEX_OP, req::TexOp::Image as i64),
            (req::TEX_QUAD, quad),
            (req::TEX_OFFSET, op as i64),
            (req::TEX_OFFSET + 4, dim as i64),
            (req::TEX_COMPARE, 0),
        ];
        self.b
            .ins()
            .stack_store(self.ptr, mask, slot, req::TEX_MASK);
        for (off, v) in scalars {
            let v = self.b.ins().iconst(types::I32, v);
            self.b.ins().stack_store(self.ptr, v, slot, off);
        }
        let zero_v = self.vconst([0; 4]);
        let value = |e: &mut Self, v: Option<Var>| match v {
            Some(v) => e.var_value(v),
            None => Ok(zero_v),
        };
        let vectors = [
            (req::TEX_HANDLE_LO, Some(handle[0])),
            (req::TEX_HANDLE_HI, Some(handle[1])),
            (req::TEX_COORD, coord[0]),
            (req::TEX_COORD + 16, coord[1]),
            (req::TEX_LOD, sample),
            (req::TEX_DREF, None),
            (req::TEX_LAYER, coord[2]),
            (req::TEX_CUBE_LAYER, None),
            (req::TEX_DATA, data[0]),
            (req::TEX_DATA + 16, data[1]),
            (req::TEX_DATA + 32, data[2]),
            (req::TEX_DATA + 48, data[3]),
        ];
        for (off, v) in vectors {
            let v = value(self, v)?;
            self.b.ins().stack_store(self.ptr, v, slot, off);
        }
        let req_addr = self.b.ins().stack_addr(self.ptr, slot, 0);
        let out_addr = self.b.ins().stack_addr(self.ptr, self.tex_out, 0);
        self.b
            .ins()
            .call(self.helpers.texture, &[self.sampler, req_addr, out_addr]);
        for (c, d) in dst.iter().enumerate() {
            let Some(d) = d else {
                continue;
            };
            let v = self
                .b
                .ins()
                .stack_load(self.ptr, I32X4, self.tex_out, (c * 16) as i32);
            self.assign(*d, v)?;
        }
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        Ok(())
    }
}
