//! Transform feedback layout qualifiers of vertex and geometry outputs (GLSL 4.40
//! §4.4.2.1): `xfb_buffer`, `xfb_offset` and `xfb_stride` on output variables, output
//! blocks and their members, and `layout(xfb_buffer = N, xfb_stride = S) out;` as the
//! default buffer and a buffer's stride. What the front end checks here is each value
//! (buffer below gl_MaxTransformFeedbackBuffers, offsets and strides multiples of 4, one
//! stride per buffer, a member in its block's buffer); the offsets each output gets are
//! recorded in `ir::XfbDecls`, and overlaps and strides too small for their outputs are
//! link errors (`api::transform_feedback`), since several units may declare them.

use crate::ir::Stage;

use super::ast::{self, Qualifiers, Storage};
use super::builtin_constants::{
    MAX_TRANSFORM_FEEDBACK_BUFFERS, MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS,
};
use super::lower::{bail, Lowerer, R};

/// The largest stride: 4 bytes per interleaved component (GL 4.5 core §11.1.2.1).
const MAX_STRIDE_BYTES: i64 = 4 * MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS as i64;

/// Whether `name` is a transform feedback layout qualifier.
pub(super) fn is_xfb_qualifier(name: &str) -> bool {
    matches!(name, "xfb_buffer" | "xfb_offset" | "xfb_stride")
}

impl Lowerer {
    /// A transform feedback qualifier's value, checked: GLSL 4.40, a non-negative
    /// constant, a buffer below gl_MaxTransformFeedbackBuffers, offsets and strides
    /// multiples of 4 (softgl's outputs have no doubles), strides within the maximum.
    fn xfb_value(&mut self, l: &ast::LayoutQual) -> R<u32> {
        if self.version < 440 {
            bail!(self, l.span, "`{}' requires GLSL 4.40", l.name);
        }
        if !matches!(self.stage, Stage::Vertex | Stage::Geometry) {
            bail!(
                self,
                l.span,
                "`{}' is only valid on vertex and geometry shader outputs",
                l.name
            );
        }
        let v = self.layout_int(l)?;
        match l.name.as_str() {
            "xfb_buffer" if v >= MAX_TRANSFORM_FEEDBACK_BUFFERS as i64 => bail!(
                self,
                l.span,
                "`xfb_buffer = {v}': the buffer must be below gl_MaxTransformFeedbackBuffers ({})",
                MAX_TRANSFORM_FEEDBACK_BUFFERS
            ),
            "xfb_offset" | "xfb_stride" if v % 4 != 0 => {
                bail!(self, l.span, "`{} = {v}' is not a multiple of 4", l.name)
            }
            "xfb_offset" | "xfb_stride" if v > MAX_STRIDE_BYTES => bail!(
                self,
                l.span,
                "`{} = {v}' is past the largest stride, {MAX_STRIDE_BYTES} bytes",
                l.name
            ),
            _ => Ok(v as u32),
        }
    }

    /// The value of qualifier `name` in `q`, checked; the last one counts (GLSL 4.40
    /// §4.4).
    fn xfb_qualifier(&mut self, q: &Qualifiers, name: &str) -> R<Option<u32>> {
        match q.layout.iter().rev().find(|l| l.name == name) {
            Some(l) => self.xfb_value(l).map(Some),
            None => Ok(None),
        }
    }

    /// Records `xfb_stride = stride` for `buffer`: a buffer has one stride.
    fn xfb_stride(&mut self, q: &Qualifiers, buffer: u32) -> R<()> {
        let Some(stride) = self.xfb_qualifier(q, "xfb_stride")? else {
            return Ok(());
        };
        match self.xfb.strides.iter().find(|s| s.0 == buffer) {
            Some(&(_, old)) if old != stride => bail!(
                self,
                q.span,
                "`xfb_stride = {stride}' for buffer {buffer}, which has xfb_stride {old}"
            ),
            Some(_) => Ok(()),
            None => {
                self.xfb.strides.push((buffer, stride));
                Ok(())
            }
        }
    }

    /// `layout(xfb_buffer = N, xfb_stride = S) out;`: N becomes the default buffer of the
    /// declarations after it, S the stride of the buffer named (or the default one).
    pub(super) fn xfb_global(&mut self, q: &Qualifiers) -> R<()> {
        if q.storage != Some(Storage::Out) {
            if let Some(l) = q.layout.iter().find(|l| is_xfb_qualifier(&l.name)) {
                bail!(self, l.span, "`{}' is only valid on outputs", l.name);
            }
            return Ok(());
        }
        if let Some(l) = q.layout.iter().find(|l| l.name == "xfb_offset") {
            bail!(
                self,
                l.span,
                "`xfb_offset' qualifies variables, blocks and block members, not `out;'"
            );
        }
        if let Some(b) = self.xfb_qualifier(q, "xfb_buffer")? {
            self.xfb_buffer = b;
        }
        self.xfb_stride(q, self.xfb_buffer)
    }

    /// The buffer and first byte offset of an output declared with `q` (no offset: not
    /// captured). A block member is in its block's buffer (its own `xfb_buffer` must be
    /// that one) and, without its own `xfb_offset`, follows the member before it when
    /// the block has one. Also records the declaration's `xfb_stride`.
    pub(super) fn output_xfb(&mut self, q: &Qualifiers, in_block: bool) -> R<(u32, Option<u32>)> {
        if !matches!(self.stage, Stage::Vertex | Stage::Geometry) {
            // `xfb_value` refuses them on other stages' outputs.
            if let Some(l) = q.layout.iter().find(|l| is_xfb_qualifier(&l.name)) {
                self.xfb_value(l)?;
            }
            return Ok((0, None));
        }
        let own = self.xfb_qualifier(q, "xfb_buffer")?;
        let (buffer, next) = match self.xfb_block.filter(|_| in_block) {
            Some((b, next)) => {
                if own.is_some_and(|o| o != b) {
                    bail!(
                        self,
                        q.span,
                        "a block member's `xfb_buffer = {}' differs from its block's buffer {b}",
                        own.unwrap_or(b)
                    );
                }
                (b, next)
            }
            None => (own.unwrap_or(self.xfb_buffer), None),
        };
        self.xfb_stride(q, buffer)?;
        let offset = self.xfb_qualifier(q, "xfb_offset")?.or(next);
        Ok((buffer, offset))
    }

    /// Assigns consecutive offsets from `offset` in `buffer` to the outputs declared since
    /// `first` (an index of `outputs`): the leaves of a struct or the elements of an array
    /// in order, 4 bytes a component. In a block with `xfb_offset`, the next member
    /// follows.
    pub(super) fn set_output_xfb(&mut self, first: usize, buffer: u32, offset: Option<u32>) {
        let Some(mut at) = offset else {
            return;
        };
        for o in &self.outputs[first..] {
            self.xfb.captures.push((o.var.name.clone(), buffer, at));
            at += 4 * o.var.words;
        }
        if let Some((_, Some(next))) = &mut self.xfb_block {
            *next = at;
        }
    }

    /// Before the members of output block `b`: its buffer (its `xfb_buffer`, else the
    /// default), its `xfb_stride`, and its `xfb_offset`, which gives every member an
    /// offset. `end_xfb_block` undoes it.
    pub(super) fn begin_xfb_block(&mut self, b: &ast::BlockDecl) -> R<()> {
        if !matches!(self.stage, Stage::Vertex | Stage::Geometry) {
            return Ok(());
        }
        let buffer = self
            .xfb_qualifier(&b.quals, "xfb_buffer")?
            .unwrap_or(self.xfb_buffer);
        self.xfb_stride(&b.quals, buffer)?;
        let offset = self.xfb_qualifier(&b.quals, "xfb_offset")?;
        self.xfb_block = Some((buffer, offset));
        Ok(())
    }

    pub(super) fn end_xfb_block(&mut self) {
        self.xfb_block = None;
    }
}
