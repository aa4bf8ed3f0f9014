//! Draw validation and the draw snapshot (GL 4.5 core chapter 10, §11.1.3.11, §17.4.3):
//! checks every draw error, then builds a `raster::DrawCall` — vertex arrays from the VAO,
//! uniform words with sampler uniforms resolved to descriptor handles (bound units become
//! internal descriptors, DESIGN.md §4), uniform block ranges, the sample context, raster
//! state and target — and queues it. Also glClear.

use std::sync::Arc;

use crate::api::context::Context;
use crate::api::dispatch::gl_commands;
use crate::api::error::{DebugMessage, GlError, GlResult};
use crate::api::program::SamplerValue;
use crate::gl::enums as gl;
use crate::jit::StageData;
use crate::raster::{
    AttribMode, AttribSource, ClearCall, DrawCall, IndexSource, PrimState, Topology, VertexAttrib,
    VertexInput,
};
use crate::sampler::{SamplerState, TextureHandle};

/// A uniform block's bound range as `StageData` holds it: (store, offset, bytes).
type BlockRange = Option<(Arc<Vec<u8>>, usize, usize)>;

/// The vertices of one draw, as the entry point gave them.
struct DrawRange {
    mode: u32,
    first: i32,
    count: i32,
    /// (type, byte offset) for indexed draws.
    indices: Option<(u32, usize)>,
    instances: i32,
    base_vertex: i32,
    base_instance: u32,
}

gl_commands! {
    /// glDrawArrays.
    "glDrawArrays" fn draw_arrays(mode: u32, first: i32, count: i32) = try_draw_arrays;
    /// glClear (GL 4.5 core §17.4.3).
    "glClear" fn clear(mask: u32) = try_clear;
    /// glDrawArraysInstanced.
    "glDrawArraysInstanced"
    fn draw_arrays_instanced(mode: u32, first: i32, count: i32, instancecount: i32)
        = try_draw_arrays_instanced;
    /// glDrawArraysInstancedBaseInstance.
    "glDrawArraysInstancedBaseInstance"
    fn draw_arrays_instanced_base_instance(mode: u32, first: i32, count: i32, instancecount: i32, baseinstance: u32)
        = try_draw_arrays_instanced_base_instance;
    /// glDrawElements: `offset` is the byte offset into the element array buffer.
    "glDrawElements"
    fn draw_elements(mode: u32, count: i32, ty: u32, offset: usize) = try_draw_elements;
    /// glDrawElementsBaseVertex.
    "glDrawElementsBaseVertex"
    fn draw_elements_base_vertex(mode: u32, count: i32, ty: u32, offset: usize, basevertex: i32)
        = try_draw_elements_base_vertex;
    /// glDrawElementsInstanced.
    "glDrawElementsInstanced"
    fn draw_elements_instanced(mode: u32, count: i32, ty: u32, offset: usize, instancecount: i32)
        = try_draw_elements_instanced;
    /// glDrawElementsInstancedBaseVertex.
    "glDrawElementsInstancedBaseVertex"
    fn draw_elements_instanced_base_vertex(mode: u32, count: i32, ty: u32, offset: usize, instancecount: i32, basevertex: i32)
        = try_draw_elements_instanced_base_vertex;
    /// glDrawElementsInstancedBaseInstance.
    "glDrawElementsInstancedBaseInstance"
    fn draw_elements_instanced_base_instance(mode: u32, count: i32, ty: u32, offset: usize, instancecount: i32, baseinstance: u32)
        = try_draw_elements_instanced_base_instance;
    /// glDrawElementsInstancedBaseVertexBaseInstance.
    #[allow(clippy::too_many_arguments)]
    "glDrawElementsInstancedBaseVertexBaseInstance"
    fn draw_elements_instanced_base_vertex_base_instance(mode: u32, count: i32, ty: u32, offset: usize, instancecount: i32, basevertex: i32, baseinstance: u32)
        = try_draw_elements_instanced_base_vertex_base_instance;
    /// glDrawRangeElements (GL 4.5 core §10.4): `start`/`end` are a promise about the
    /// indices that softgl does not need; `end < start` is GL_INVALID_VALUE.
    "glDrawRangeElements"
    fn draw_range_elements(mode: u32, start: u32, end: u32, count: i32, ty: u32, offset: usize)
        = try_draw_range_elements;
    /// glDrawRangeElementsBaseVertex.
    #[allow(clippy::too_many_arguments)]
    "glDrawRangeElementsBaseVertex"
    fn draw_range_elements_base_vertex(mode: u32, start: u32, end: u32, count: i32, ty: u32, offset: usize, basevertex: i32)
        = try_draw_range_elements_base_vertex;
    /// glMultiDrawArrays: one glDrawArrays per element of `first` and `count` (same length).
    "glMultiDrawArrays"
    fn multi_draw_arrays(mode: u32, first: &[i32], count: &[i32]) = try_multi_draw_arrays;
    /// glMultiDrawElements: one glDrawElements per element of `count` and `offsets`.
    "glMultiDrawElements"
    fn multi_draw_elements(mode: u32, count: &[i32], ty: u32, offsets: &[usize])
        = try_multi_draw_elements;
    /// glMultiDrawElementsBaseVertex.
    "glMultiDrawElementsBaseVertex"
    fn multi_draw_elements_base_vertex(mode: u32, count: &[i32], ty: u32, offsets: &[usize], basevertex: &[i32])
        = try_multi_draw_elements_base_vertex;
    /// glDrawArraysIndirect (GL 4.5 core §10.4): one `DrawArraysIndirectCommand` at byte
    /// `offset` of the GL_DRAW_INDIRECT_BUFFER.
    "glDrawArraysIndirect"
    fn draw_arrays_indirect(mode: u32, offset: usize) = try_draw_arrays_indirect;
    /// glDrawElementsIndirect: one `DrawElementsIndirectCommand`.
    "glDrawElementsIndirect"
    fn draw_elements_indirect(mode: u32, ty: u32, offset: usize) = try_draw_elements_indirect;
    /// glMultiDrawArraysIndirect: `drawcount` commands `stride` bytes apart (0: packed).
    "glMultiDrawArraysIndirect"
    fn multi_draw_arrays_indirect(mode: u32, offset: usize, drawcount: i32, stride: i32)
        = try_multi_draw_arrays_indirect;
    /// glMultiDrawElementsIndirect.
    "glMultiDrawElementsIndirect"
    fn multi_draw_elements_indirect(mode: u32, ty: u32, offset: usize, drawcount: i32, stride: i32)
        = try_multi_draw_elements_indirect;
    /// glMultiDrawArraysIndirectCount (GL 4.6 §10.4): the draw count is the GLuint at
    /// byte `drawcount` of the GL_PARAMETER_BUFFER, at most `maxdrawcount`.
    "glMultiDrawArraysIndirectCount"
    fn multi_draw_arrays_indirect_count(mode: u32, offset: usize, drawcount: isize, maxdrawcount: i32, stride: i32)
        = try_multi_draw_arrays_indirect_count;
    /// glMultiDrawElementsIndirectCount.
    #[allow(clippy::too_many_arguments)]
    "glMultiDrawElementsIndirectCount"
    fn multi_draw_elements_indirect_count(mode: u32, ty: u32, offset: usize, drawcount: isize, maxdrawcount: i32, stride: i32)
        = try_multi_draw_elements_indirect_count;
    /// glPrimitiveRestartIndex (GL 4.5 core §10.3.6).
    "glPrimitiveRestartIndex" fn primitive_restart_index(index: u32) = try_primitive_restart_index;
    /// glPointParameterf / glPointParameteri (GL 4.5 core §14.4): GL_POINT_FADE_THRESHOLD_SIZE
    /// and GL_POINT_SPRITE_COORD_ORIGIN.
    "glPointParameterf" fn point_parameter_f(pname: u32, param: f32) = try_point_parameter;
    /// glPolygonMode (GL 4.5 core §14.6.4): GL_FRONT_AND_BACK only in the core profile.
    "glPolygonMode" fn polygon_mode(face: u32, mode: u32) = try_polygon_mode;
    /// glPolygonOffset (GL 4.5 core §14.6.5).
    "glPolygonOffset" fn polygon_offset(factor: f32, units: f32) = try_polygon_offset;
    /// glPolygonOffsetClamp (GL 4.6 §14.6.5, ARB_polygon_offset_clamp).
    "glPolygonOffsetClamp"
    fn polygon_offset_clamp(factor: f32, units: f32, clamp: f32) = try_polygon_offset_clamp;
}

/// Smallest and largest point size and line width (GL_POINT_SIZE_RANGE,
/// GL_ALIASED_LINE_WIDTH_RANGE): llvmpipe's limits (Mesa `lp_screen.c`, 255).
pub(crate) const POINT_SIZE_RANGE: [f32; 2] = [1.0, 255.0];
pub(crate) const LINE_WIDTH_RANGE: [f32; 2] = [1.0, 255.0];

/// State of primitive restart, point sprites and polygon mode (GL 4.5 core tables 23.4,
/// 23.9, 23.10), kept in the context's fixed state.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct PrimitiveFixed {
    /// GL_PRIMITIVE_RESTART and GL_PRIMITIVE_RESTART_FIXED_INDEX.
    pub restart: bool,
    pub restart_fixed: bool,
    /// GL_PRIMITIVE_RESTART_INDEX.
    pub restart_index: u32,
    /// GL_POINT_SPRITE_COORD_ORIGIN is GL_LOWER_LEFT.
    pub sprite_lower_left: bool,
    /// GL_POINT_FADE_THRESHOLD_SIZE: stored; it only matters to multisampled points.
    pub fade_threshold: f32,
    /// GL_POLYGON_MODE: GL_FILL, GL_LINE or GL_POINT.
    pub polygon_mode: u32,
    /// GL_POLYGON_OFFSET_FACTOR, _UNITS, _CLAMP.
    pub offset: [f32; 3],
    /// GL_POLYGON_OFFSET_FILL, _LINE, _POINT.
    pub offset_fill: bool,
    pub offset_line: bool,
    pub offset_point: bool,
}

/// The rasterizer's view of point, line and polygon-mode state: sizes clamped to the ranges.
pub(crate) fn derive_prims(f: &crate::api::context::FixedState) -> PrimState {
    PrimState {
        point_size: f.point_size.clamp(POINT_SIZE_RANGE[0], POINT_SIZE_RANGE[1]),
        program_point_size: f.program_point_size,
        sprite_lower_left: f.prims.sprite_lower_left,
        line_width: f.line_width.clamp(LINE_WIDTH_RANGE[0], LINE_WIDTH_RANGE[1]),
        polygon_mode: match f.prims.polygon_mode {
            gl::LINE => 1,
            gl::POINT => 2,
            _ => 0,
        },
        offset: f.prims.offset,
        offset_modes: f.prims.offset_fill as u8
            | (f.prims.offset_line as u8) << 1
            | (f.prims.offset_point as u8) << 2,
    }
}

impl PrimitiveFixed {
    pub const INITIAL: PrimitiveFixed = PrimitiveFixed {
        restart: false,
        restart_fixed: false,
        restart_index: 0,
        sprite_lower_left: false,
        fade_threshold: 1.0,
        polygon_mode: gl::FILL,
        offset: [0.0; 3],
        offset_fill: false,
        offset_line: false,
        offset_point: false,
    };

    /// The index that restarts primitives for indices of `index_bytes` bytes, if any: the
    /// fixed index (all bits set) wins over GL_PRIMITIVE_RESTART_INDEX (§10.3.6).
    pub fn restart_for(&self, index_bytes: u8) -> Option<u32> {
        if self.restart_fixed {
            Some(u32::MAX >> (32 - 8 * index_bytes as u32))
        } else {
            self.restart.then_some(self.restart_index)
        }
    }
}

/// Bytes of a `DrawArraysIndirectCommand` (count, instanceCount, first, baseInstance) and
/// of a `DrawElementsIndirectCommand` (count, instanceCount, firstIndex, baseVertex,
/// baseInstance), GL 4.5 core §10.4.
const ARRAYS_COMMAND_BYTES: usize = 16;
const ELEMENTS_COMMAND_BYTES: usize = 20;

/// Where the commands of an indirect draw are.
struct Indirect {
    /// GL_UNSIGNED_BYTE/SHORT/INT for glDraw*ElementsIndirect*.
    index_type: Option<u32>,
    offset: usize,
    drawcount: i32,
    stride: i32,
    /// The Count forms: the byte offset of the draw count in the GL_PARAMETER_BUFFER.
    count_at: Option<isize>,
}

/// The vertex count an indexed draw really walks (robust access, GL 4.5 core §10.3.10 and
/// KHR_robustness): indices past the end of the element array buffer read as 0, as
/// llvmpipe's draw module reads them (`eltMax`), so a triangle with two or more of them has
/// two equal vertices and no area. Dropping every element past the last index that the
/// buffer holds plus 2 keeps each triangle that can draw anything — the one that straddles
/// the end, with one or two real indices, in every topology — and turns
/// `glDrawElements(GL_TRIANGLES, INT_MAX, ...)` on a 24-byte buffer into an 8-index draw
/// that returns at once, with the image the unclamped draw would make.
///
/// glDrawArrays is not clamped: its vertices exist whatever the buffers hold (a shader may
/// draw from gl_VertexID alone), and attribute reads past a buffer's end give zeros
/// (`raster::fetch`), as in Mesa, which walks them too.
fn clamp_to_indices(count: u32, indices: Option<&IndexSource>) -> u32 {
    match indices {
        None => count,
        Some(ix) => {
            let held = ix.data.len().saturating_sub(ix.offset) / ix.index_bytes.max(1) as usize;
            count.min(u32::try_from(held.saturating_add(2)).unwrap_or(u32::MAX))
        }
    }
}

impl Context {
    pub(crate) fn try_primitive_restart_index(&mut self, index: u32) -> GlResult<()> {
        self.fixed.prims.restart_index = index;
        Ok(())
    }

    pub(crate) fn try_point_parameter(&mut self, pname: u32, param: f32) -> GlResult<()> {
        match pname {
            gl::POINT_FADE_THRESHOLD_SIZE => {
                if param.is_nan() || param < 0.0 {
                    return Err(GlError::InvalidValue(
                        "GL_POINT_FADE_THRESHOLD_SIZE must not be negative",
                    ));
                }
                self.fixed.prims.fade_threshold = param;
            }
            gl::POINT_SPRITE_COORD_ORIGIN => {
                self.fixed.prims.sprite_lower_left = match param as u32 {
                    gl::LOWER_LEFT if param == gl::LOWER_LEFT as f32 => true,
                    gl::UPPER_LEFT if param == gl::UPPER_LEFT as f32 => false,
                    _ => return Err(GlError::InvalidEnum("GL_POINT_SPRITE_COORD_ORIGIN")),
                };
                self.dirty |= crate::api::context::dirty::RASTER;
            }
            _ => return Err(GlError::BadEnum("point parameter", pname)),
        }
        Ok(())
    }

    pub(crate) fn try_polygon_mode(&mut self, face: u32, mode: u32) -> GlResult<()> {
        if face != gl::FRONT_AND_BACK {
            return Err(GlError::BadEnum(
                "polygon mode face (GL_FRONT_AND_BACK only)",
                face,
            ));
        }
        if ![gl::FILL, gl::LINE, gl::POINT].contains(&mode) {
            return Err(GlError::BadEnum("polygon mode", mode));
        }
        self.fixed.prims.polygon_mode = mode;
        self.dirty |= crate::api::context::dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_polygon_offset(&mut self, factor: f32, units: f32) -> GlResult<()> {
        self.try_polygon_offset_clamp(factor, units, 0.0)
    }

    pub(crate) fn try_polygon_offset_clamp(
        &mut self,
        factor: f32,
        units: f32,
        clamp: f32,
    ) -> GlResult<()> {
        self.fixed.prims.offset = [factor, units, clamp];
        self.dirty |= crate::api::context::dirty::RASTER;
        Ok(())
    }

    pub(crate) fn try_clear(&mut self, mask: u32) -> GlResult<()> {
        if mask & !(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT) != 0 {
            return Err(GlError::InvalidValue("unknown bits in the clear mask"));
        }
        self.update_derived();
        let target =
            self.derived.target.clone().map_err(|_| {
                GlError::InvalidFramebufferOperation("draw framebuffer is incomplete")
            })?;
        let f = &self.fixed;
        let call = ClearCall {
            target,
            color: (mask & gl::COLOR_BUFFER_BIT != 0).then_some(if f.framebuffer_srgb {
                crate::raster::ClearColor::Linear(f.clear_color)
            } else {
                crate::raster::ClearColor::Float(f.clear_color)
            }),
            color_mask: f.color_mask,
            depth: (mask & gl::DEPTH_BUFFER_BIT != 0 && f.depth_mask).then_some(f.clear_depth),
            // The stencil value is masked to the buffer's 8 bits (GL 4.5 core §17.4.3).
            stencil: (mask & gl::STENCIL_BUFFER_BIT != 0).then_some(f.clear_stencil as u8),
            stencil_mask: f.stencil.clear_mask(),
            scissor: f.scissor_test.then_some(f.scissor_box),
        };
        // Every layer of a layered framebuffer (framebuffer.rs).
        self.queue_clear_layers(call);
        Ok(())
    }

    pub(crate) fn try_draw_arrays(&mut self, mode: u32, first: i32, count: i32) -> GlResult<()> {
        self.try_draw_arrays_instanced_base_instance(mode, first, count, 1, 0)
    }

    pub(crate) fn try_draw_arrays_instanced(
        &mut self,
        mode: u32,
        first: i32,
        count: i32,
        instancecount: i32,
    ) -> GlResult<()> {
        self.try_draw_arrays_instanced_base_instance(mode, first, count, instancecount, 0)
    }

    pub(crate) fn try_draw_arrays_instanced_base_instance(
        &mut self,
        mode: u32,
        first: i32,
        count: i32,
        instancecount: i32,
        baseinstance: u32,
    ) -> GlResult<()> {
        self.draw(DrawRange {
            mode,
            first,
            count,
            indices: None,
            instances: instancecount,
            base_vertex: 0,
            base_instance: baseinstance,
        })
    }

    pub(crate) fn try_draw_elements(
        &mut self,
        mode: u32,
        count: i32,
        ty: u32,
        offset: usize,
    ) -> GlResult<()> {
        self.try_draw_elements_instanced_base_vertex(mode, count, ty, offset, 1, 0)
    }

    pub(crate) fn try_draw_elements_base_vertex(
        &mut self,
        mode: u32,
        count: i32,
        ty: u32,
        offset: usize,
        basevertex: i32,
    ) -> GlResult<()> {
        self.try_draw_elements_instanced_base_vertex(mode, count, ty, offset, 1, basevertex)
    }

    pub(crate) fn try_draw_elements_instanced(
        &mut self,
        mode: u32,
        count: i32,
        ty: u32,
        offset: usize,
        instancecount: i32,
    ) -> GlResult<()> {
        self.try_draw_elements_instanced_base_vertex(mode, count, ty, offset, instancecount, 0)
    }

    pub(crate) fn try_draw_elements_instanced_base_vertex(
        &mut self,
        mode: u32,
        count: i32,
        ty: u32,
        offset: usize,
        instancecount: i32,
        basevertex: i32,
    ) -> GlResult<()> {
        self.draw(DrawRange {
            mode,
            first: 0,
            count,
            indices: Some((ty, offset)),
            instances: instancecount,
            base_vertex: basevertex,
            base_instance: 0,
        })
    }

    pub(crate) fn try_draw_elements_instanced_base_instance(
        &mut self,
        mode: u32,
        count: i32,
        ty: u32,
        offset: usize,
        instancecount: i32,
        baseinstance: u32,
    ) -> GlResult<()> {
        self.try_draw_elements_instanced_base_vertex_base_instance(
            mode,
            count,
            ty,
            offset,
            instancecount,
            0,
            baseinstance,
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_draw_elements_instanced_base_vertex_base_instance(
        &mut self,
        mode: u32,
        count: i32,
        ty: u32,
        offset: usize,
        instancecount: i32,
        basevertex: i32,
        baseinstance: u32,
    ) -> GlResult<()> {
        self.draw(DrawRange {
            mode,
            first: 0,
            count,
            indices: Some((ty, offset)),
            instances: instancecount,
            base_vertex: basevertex,
            base_instance: baseinstance,
        })
    }

    pub(crate) fn try_draw_range_elements(
        &mut self,
        mode: u32,
        start: u32,
        end: u32,
        count: i32,
        ty: u32,
        offset: usize,
    ) -> GlResult<()> {
        self.try_draw_range_elements_base_vertex(mode, start, end, count, ty, offset, 0)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_draw_range_elements_base_vertex(
        &mut self,
        mode: u32,
        start: u32,
        end: u32,
        count: i32,
        ty: u32,
        offset: usize,
        basevertex: i32,
    ) -> GlResult<()> {
        if end < start {
            return Err(GlError::InvalidValue("end is less than start"));
        }
        self.try_draw_elements_instanced_base_vertex(mode, count, ty, offset, 1, basevertex)
    }

    /// The draws of a glMultiDraw* command in order; the first that fails stops the rest
    /// and its error is the command's (a negative drawcount is GL_INVALID_VALUE before
    /// anything is drawn, in the marshalling).
    pub(crate) fn try_multi_draw_arrays(
        &mut self,
        mode: u32,
        first: &[i32],
        count: &[i32],
    ) -> GlResult<()> {
        if first.len() != count.len() {
            return Err(GlError::InvalidValue("first and count differ in length"));
        }
        for (&f, &c) in first.iter().zip(count) {
            self.try_draw_arrays(mode, f, c)?;
        }
        Ok(())
    }

    pub(crate) fn try_multi_draw_elements(
        &mut self,
        mode: u32,
        count: &[i32],
        ty: u32,
        offsets: &[usize],
    ) -> GlResult<()> {
        if count.len() != offsets.len() {
            return Err(GlError::InvalidValue("count and indices differ in length"));
        }
        for (&c, &o) in count.iter().zip(offsets) {
            self.try_draw_elements(mode, c, ty, o)?;
        }
        Ok(())
    }

    pub(crate) fn try_multi_draw_elements_base_vertex(
        &mut self,
        mode: u32,
        count: &[i32],
        ty: u32,
        offsets: &[usize],
        basevertex: &[i32],
    ) -> GlResult<()> {
        if count.len() != offsets.len() || count.len() != basevertex.len() {
            return Err(GlError::InvalidValue(
                "count, indices and basevertex differ in length",
            ));
        }
        for ((&c, &o), &b) in count.iter().zip(offsets).zip(basevertex) {
            self.try_draw_elements_base_vertex(mode, c, ty, o, b)?;
        }
        Ok(())
    }

    pub(crate) fn try_draw_arrays_indirect(&mut self, mode: u32, offset: usize) -> GlResult<()> {
        self.draw_indirect(
            mode,
            Indirect {
                index_type: None,
                offset,
                drawcount: 1,
                stride: 0,
                count_at: None,
            },
        )
    }

    pub(crate) fn try_draw_elements_indirect(
        &mut self,
        mode: u32,
        ty: u32,
        offset: usize,
    ) -> GlResult<()> {
        self.draw_indirect(
            mode,
            Indirect {
                index_type: Some(ty),
                offset,
                drawcount: 1,
                stride: 0,
                count_at: None,
            },
        )
    }

    pub(crate) fn try_multi_draw_arrays_indirect(
        &mut self,
        mode: u32,
        offset: usize,
        drawcount: i32,
        stride: i32,
    ) -> GlResult<()> {
        self.draw_indirect(
            mode,
            Indirect {
                index_type: None,
                offset,
                drawcount,
                stride,
                count_at: None,
            },
        )
    }

    pub(crate) fn try_multi_draw_elements_indirect(
        &mut self,
        mode: u32,
        ty: u32,
        offset: usize,
        drawcount: i32,
        stride: i32,
    ) -> GlResult<()> {
        self.draw_indirect(
            mode,
            Indirect {
                index_type: Some(ty),
                offset,
                drawcount,
                stride,
                count_at: None,
            },
        )
    }

    pub(crate) fn try_multi_draw_arrays_indirect_count(
        &mut self,
        mode: u32,
        offset: usize,
        drawcount: isize,
        maxdrawcount: i32,
        stride: i32,
    ) -> GlResult<()> {
        self.draw_indirect(
            mode,
            Indirect {
                index_type: None,
                offset,
                drawcount: maxdrawcount,
                stride,
                count_at: Some(drawcount),
            },
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_multi_draw_elements_indirect_count(
        &mut self,
        mode: u32,
        ty: u32,
        offset: usize,
        drawcount: isize,
        maxdrawcount: i32,
        stride: i32,
    ) -> GlResult<()> {
        self.draw_indirect(
            mode,
            Indirect {
                index_type: Some(ty),
                offset,
                drawcount: maxdrawcount,
                stride,
                count_at: Some(drawcount),
            },
        )
    }

    /// The store of the buffer bound to `target` for an indirect draw: INVALID_OPERATION
    /// when none is bound or it is mapped (GL 4.5 core §10.4, §6.3.2).
    fn indirect_store(&self, target: u32, what: &'static str) -> GlResult<Arc<Vec<u8>>> {
        let buf = self
            .generic_buffers
            .get(&target)
            .and_then(|&n| self.objs.buffers.get(n))
            .ok_or(GlError::InvalidOperation(what))?;
        if buf.blocks_draws() {
            return Err(GlError::InvalidOperation(
                "an indirect draw's buffer is mapped",
            ));
        }
        Ok(buf.data.clone())
    }

    /// The glDraw*Indirect* commands (GL 4.5 core §10.4; GL 4.6 for the Count forms): every
    /// command's bytes are checked to lie inside the GL_DRAW_INDIRECT_BUFFER before any is
    /// read (INVALID_OPERATION otherwise: never a read past the store), then each runs as
    /// the direct draw it describes, in order. A command whose values do not fit the direct
    /// draw's signed parameters (a count, first or instance count past 2^31 − 1) draws
    /// nothing.
    fn draw_indirect(&mut self, mode: u32, ind: Indirect) -> GlResult<()> {
        if ind.drawcount < 0 {
            return Err(GlError::InvalidValue("negative drawcount"));
        }
        if ind.stride < 0 || ind.stride % 4 != 0 {
            return Err(GlError::InvalidValue("stride is not a multiple of 4"));
        }
        if !ind.offset.is_multiple_of(4) {
            return Err(GlError::InvalidValue("indirect is not a multiple of 4"));
        }
        let index_bytes = match ind.index_type {
            None => 0,
            Some(gl::UNSIGNED_BYTE) => 1,
            Some(gl::UNSIGNED_SHORT) => 2,
            Some(gl::UNSIGNED_INT) => 4,
            Some(t) => return Err(GlError::BadEnum("index type", t)),
        };
        let command_bytes = if ind.index_type.is_some() {
            ELEMENTS_COMMAND_BYTES
        } else {
            ARRAYS_COMMAND_BYTES
        };
        let stride = if ind.stride == 0 {
            command_bytes
        } else {
            ind.stride as usize
        };
        let data = self.indirect_store(
            gl::DRAW_INDIRECT_BUFFER,
            "no buffer bound to GL_DRAW_INDIRECT_BUFFER",
        )?;
        // The range checked is the most the command may draw (maxdrawcount for the Count
        // forms, as Mesa checks it).
        let mut drawcount = ind.drawcount as usize;
        if drawcount > 0 {
            let end = (drawcount - 1)
                .checked_mul(stride)
                .and_then(|x| x.checked_add(ind.offset))
                .and_then(|x| x.checked_add(command_bytes));
            if end.is_none_or(|e| e > data.len()) {
                return Err(GlError::InvalidOperation(
                    "the indirect commands run past the end of GL_DRAW_INDIRECT_BUFFER",
                ));
            }
        }
        if let Some(at) = ind.count_at {
            let at = usize::try_from(at)
                .map_err(|_| GlError::InvalidValue("negative drawcount offset"))?;
            if !at.is_multiple_of(4) {
                return Err(GlError::InvalidValue(
                    "drawcount offset is not a multiple of 4",
                ));
            }
            let params = self.indirect_store(
                gl::PARAMETER_BUFFER,
                "no buffer bound to GL_PARAMETER_BUFFER",
            )?;
            let word = params
                .get(at..at.saturating_add(4))
                .ok_or(GlError::InvalidOperation(
                    "the draw count lies past the end of GL_PARAMETER_BUFFER",
                ))?;
            let n = u32::from_le_bytes(word.try_into().expect("4 bytes"));
            drawcount = drawcount.min(n as usize);
        }
        for i in 0..drawcount {
            let at = ind.offset + i * stride;
            let word = |k: usize| {
                u32::from_le_bytes(
                    data[at + 4 * k..at + 4 * k + 4]
                        .try_into()
                        .expect("4 bytes"),
                )
            };
            let (count, instances) = (i32::try_from(word(0)), i32::try_from(word(1)));
            let (Ok(count), Ok(instances)) = (count, instances) else {
                continue;
            };
            let range = match ind.index_type {
                None => {
                    let Ok(first) = i32::try_from(word(2)) else {
                        continue;
                    };
                    DrawRange {
                        mode,
                        first,
                        count,
                        indices: None,
                        instances,
                        base_vertex: 0,
                        base_instance: word(3),
                    }
                }
                Some(ty) => {
                    let Some(offset) = (word(2) as usize).checked_mul(index_bytes) else {
                        continue;
                    };
                    DrawRange {
                        mode,
                        first: 0,
                        count,
                        indices: Some((ty, offset)),
                        instances,
                        base_vertex: word(3) as i32,
                        base_instance: word(4),
                    }
                }
            };
            self.draw(range)?;
        }
        Ok(())
    }

    /// Validates a draw (GL 4.5 core §10.4, §11.1.3.11, §9.4.4) and queues its snapshot.
    fn draw(&mut self, d: DrawRange) -> GlResult<()> {
        let topology = match d.mode {
            gl::POINTS => Topology::Points,
            gl::LINES => Topology::Lines,
            gl::LINE_STRIP => Topology::LineStrip,
            gl::LINE_LOOP => Topology::LineLoop,
            gl::TRIANGLES => Topology::Triangles,
            gl::TRIANGLE_STRIP => Topology::TriangleStrip,
            gl::TRIANGLE_FAN => Topology::TriangleFan,
            // No geometry shader: the adjacent vertices are ignored (GL 4.5 core §10.1.11).
            gl::LINES_ADJACENCY => Topology::LinesAdjacency,
            gl::LINE_STRIP_ADJACENCY => Topology::LineStripAdjacency,
            gl::TRIANGLES_ADJACENCY => Topology::TrianglesAdjacency,
            gl::TRIANGLE_STRIP_ADJACENCY => Topology::TriangleStripAdjacency,
            // Only with a tessellation evaluation stage (`tess::check_draw`).
            gl::PATCHES => Topology::Patches,
            _ => return Err(GlError::BadEnum("primitive mode", d.mode)),
        };
        if d.count < 0 || d.first < 0 || d.instances < 0 {
            return Err(GlError::InvalidValue(
                "negative first, count or instance count",
            ));
        }
        let index_bytes = match d.indices {
            None => None,
            Some((gl::UNSIGNED_BYTE, _)) => Some(1u8),
            Some((gl::UNSIGNED_SHORT, _)) => Some(2),
            Some((gl::UNSIGNED_INT, _)) => Some(4),
            Some(_) => return Err(GlError::InvalidEnum("index type")),
        };
        // With no current program, the bound pipeline's stages (GL 4.5 core §7.4).
        if !self.prepare_pipeline_draw()? {
            return Ok(());
        }
        let exe = self
            .current_executable()
            .ok_or(GlError::InvalidOperation("no current program"))?;
        if exe.compute.is_some() {
            return Err(GlError::InvalidOperation(
                "the current program has only a compute shader",
            ));
        }
        exe.check_sampler_units()?;
        crate::api::tess::check_draw(&exe.code, topology)?;
        crate::api::geometry::check_draw(&exe.code, topology, d.count, d.instances)?;
        self.check_xfb_draw(&exe.code, topology)?;
        self.check_dual_source_draw_buffers()?;
        let vao_name = self.vertex_array.ok_or(GlError::InvalidOperation(
            "no vertex array object bound (core profile)",
        ))?;
        let vao = self
            .vertex_arrays
            .get(vao_name)
            .ok_or(GlError::InvalidOperation("no vertex array object bound"))?;

        // Vertex arrays → attributes.
        let mut attribs = Vec::new();
        let mut input_words = exe.linked.vs_input_words.max(exe.code.vs.input_words());
        for a in &exe.linked.attributes {
            for i in a.fetch_offsets() {
                let loc = (a.location + i) as usize;
                let slot = a.slot_of(i);
                let Some(arr) = vao.array(loc) else {
                    continue;
                };
                let source = if arr.enabled {
                    let buf = arr.buffer.and_then(|b| self.objs.buffers.get(b)).ok_or(
                        GlError::InvalidOperation("an enabled attribute array has no buffer"),
                    )?;
                    if buf.blocks_draws() {
                        return Err(GlError::InvalidOperation("a vertex buffer is mapped"));
                    }
                    AttribSource::Array {
                        data: buf.data.clone(),
                        offset: arr.offset,
                        stride: arr.stride,
                        size: arr.size,
                        ty: arr.ty,
                        normalized: arr.normalized,
                        mode: arr.mode,
                        divisor: arr.divisor,
                    }
                } else {
                    let current = self.current_attribs[loc];
                    // A 3- or 4-component 64-bit input reads its second location's words
                    // from components 2 and 3 (GL 4.5 core §10.2.1).
                    let wide = a.ty.base == crate::ir::BaseType::Uint64 && a.ty.rows > 2;
                    if let Some(high) = current.high_words().filter(|_| wide) {
                        let source = AttribSource::Constant(high);
                        attribs.push(VertexAttrib {
                            slot: slot + 4,
                            source,
                        });
                        input_words = input_words.max(slot + 8);
                    }
                    AttribSource::Constant(current.words())
                };
                let words = if arr.enabled && arr.mode == AttribMode::Long {
                    2 * arr.size as u32
                } else {
                    4
                };
                input_words = input_words.max(slot + words);
                attribs.push(VertexAttrib { slot, source });
            }
        }
        let indices = match (d.indices, index_bytes) {
            (Some((_, offset)), Some(index_bytes)) => {
                let buf = vao
                    .element_buffer
                    .and_then(|b| self.objs.buffers.get(b))
                    .ok_or(GlError::InvalidOperation("no element array buffer bound"))?;
                if buf.blocks_draws() {
                    return Err(GlError::InvalidOperation(
                        "the element array buffer is mapped",
                    ));
                }
                Some(IndexSource {
                    data: buf.data.clone(),
                    offset,
                    index_bytes,
                    restart: self.fixed.prims.restart_for(index_bytes),
                })
            }
            _ => None,
        };

        let blocks = self.uniform_blocks_for_draw(exe)?;
        let storage = self.storage_for_draw(exe)?;
        let uses_images = exe.uses_images;
        let writes = exe.writes_storage;

        self.update_derived();
        let target =
            self.derived.target.clone().map_err(|_| {
                GlError::InvalidFramebufferOperation("draw framebuffer is incomplete")
            })?;
        if d.count == 0 || d.instances == 0 {
            return Ok(());
        }
        let images = self.images_for_draw(uses_images, writes)?;

        let words = self.uniform_words_for_draw(false)?;
        let exe = self
            .current_executable()
            .ok_or(GlError::InvalidOperation("no current program"))?;
        let program = exe.code.clone();
        let count = clamp_to_indices(d.count as u32, indices.as_ref());
        let vertices = VertexInput {
            attribs,
            input_words,
            indices,
            first: d.first as u32,
            count,
            instance_count: d.instances as u32,
            base_vertex: d.base_vertex,
            base_instance: d.base_instance,
        };
        let [vs_words, fs_words] = words;
        let [vs_blocks, fs_blocks] = blocks;
        let [vs_storage, fs_storage] = storage.stages;
        let loop_trips = self.loop_trip_flag(self.drawing_program());
        let select = selection(self, &program);
        let mut call = DrawCall {
            topology,
            vertices,
            program,
            vs_data: StageData {
                uniforms: vs_words,
                blocks: vs_blocks,
                storage: vs_storage,
                loop_trips: loop_trips.clone(),
            },
            fs_data: StageData {
                uniforms: fs_words,
                blocks: fs_blocks,
                storage: fs_storage,
                loop_trips,
            },
            sampler: images.sampler,
            state: self.derived.raster,
            target,
            samples: None,
            preshaded: None,
            select,
        };
        // Conditional rendering discards the whole draw, capture included (§10.9).
        if !self.queries.discards_rendering() {
            // Transform feedback, then GL_RASTERIZER_DISCARD (GL 4.5 core §13.3, §14.1).
            let keep = !self.fixed.rasterizer_discard;
            let captured = self.capture_draw(&mut call, keep)?;
            self.count_primitive_queries(&call, captured);
            if !self.fixed.rasterizer_discard {
                self.queue_draw(call);
            }
        }
        self.write_back_storage(storage.write_back);
        self.write_back_images(images.write_back);
        Ok(())
    }

    /// The uniform block ranges of `exe` per stage: the bound range must cover the block
    /// (GL 4.5 core §7.6.2). Draws and compute dispatches.
    pub(crate) fn uniform_blocks_for_draw(
        &self,
        exe: &crate::api::program::Executable,
    ) -> GlResult<[Vec<BlockRange>; 2]> {
        let mut blocks: [Vec<BlockRange>; 2] = [Vec::new(), Vec::new()];
        for (stage, b_out) in blocks.iter_mut().enumerate() {
            let n = exe
                .linked
                .blocks
                .iter()
                .filter_map(|b| b.stage_index[stage])
                .max()
                .map_or(0, |m| m as usize + 1);
            b_out.resize(n, None);
        }
        for (bi, b) in exe.linked.blocks.iter().enumerate() {
            // Bindings are below GL_MAX_UNIFORM_BUFFER_BINDINGS (the compiler and
            // glUniformBlockBinding check); a miss is "no buffer bound", never a panic.
            let binding = self
                .uniform_bindings
                .get(exe.block_bindings[bi] as usize)
                .copied()
                .unwrap_or_default();
            let buf = binding
                .buffer
                .and_then(|n| self.objs.buffers.get(n))
                .ok_or(GlError::InvalidOperation(
                    "a uniform block has no buffer bound",
                ))?;
            if buf.blocks_draws() {
                return Err(GlError::InvalidOperation("a uniform buffer is mapped"));
            }
            let avail = binding
                .size
                .unwrap_or(usize::MAX)
                .min(buf.data.len().saturating_sub(binding.offset));
            if avail < b.size as usize {
                return Err(GlError::InvalidOperation(
                    "uniform buffer range is smaller than the block",
                ));
            }
            for (stage_blocks, index) in blocks.iter_mut().zip(b.stage_index) {
                if let Some(i) = index {
                    stage_blocks[i as usize] = Some((buf.data.clone(), binding.offset, avail));
                }
            }
        }
        Ok(blocks)
    }

    /// The current program's default-block words per stage with every sampler uniform
    /// resolved to a handle (a texture unit's internal handle, or the bindless handle set).
    /// `compute`: the dispatch's executable (`compute_executable`), else the draw's.
    pub(crate) fn uniform_words_for_draw(&mut self, compute: bool) -> GlResult<[Vec<u32>; 2]> {
        let depth_range = self.fixed.depth_range;
        // Resolving units may create internal descriptors.
        let exe = if compute {
            self.compute_executable()?
        } else {
            self.current_executable()
                .ok_or(GlError::InvalidOperation("no current program"))?
        };
        let mut words = exe.words.clone();
        crate::api::viewport::write_depth_range_uniform(
            &exe.depth_range_slots,
            depth_range,
            &mut words,
        );
        // Each stage's subroutine selection (context state, `subroutine.rs`).
        self.write_subroutine_selection(&exe.subroutine_slots, &mut words);
        // (location, offsets, value, the unit binding the sampler type reads, an image)
        type SamplerUse = (
            u32,
            [Option<u32>; 2],
            SamplerValue,
            crate::sampler::TexKind,
            bool,
        );
        let samplers: Vec<SamplerUse> = exe
            .linked
            .uniforms
            .iter()
            .filter(|u| u.is_sampler())
            .flat_map(|u| {
                let array = crate::api::texture::sampler_kind(u.ty.base);
                let image = u.ty.base.is_image();
                (0..u.elements()).map(move |e| {
                    let offs = u.offsets.map(|o| o.map(|o| o + e * u.stride));
                    (u.location + e, offs, array, image)
                })
            })
            .map(|(loc, offs, array, image)| {
                (
                    loc,
                    offs,
                    exe.samplers
                        .get(&loc)
                        .copied()
                        .unwrap_or(SamplerValue::Unit(0)),
                    array,
                    image,
                )
            })
            .collect();
        for (_, offs, value, array, image) in samplers {
            let handle = match value {
                SamplerValue::Handle(h) => h.to_bits(),
                // An image uniform names an image unit (`api::image_unit`).
                SamplerValue::Unit(u) if image => crate::sampler::storage_image::unit_handle(u),
                SamplerValue::Unit(u) => self.unit_handle(u as usize, array).to_bits(),
            };
            for (stage, off) in offs.iter().enumerate() {
                if let Some(off) = off {
                    if let Some(w) = words[stage].get_mut(*off as usize..*off as usize + 2) {
                        w.copy_from_slice(&[handle as u32, (handle >> 32) as u32]);
                    }
                }
            }
        }
        Ok(words)
    }

    /// The internal descriptor handle for the texture (and sampler) bound to `unit` (its
    /// binding of the target the sampler type reads, `array`). An incomplete texture
    /// gets the incomplete descriptor, which samples (0, 0, 0, 1) (GL 4.5 core §11.1.3.5;
    /// integers for an integer texture).
    fn unit_handle(&mut self, unit: usize, array: crate::sampler::TexKind) -> TextureHandle {
        let tex_ref = self.unit_texture_for(unit, array);
        self.refresh_buffer_texture(tex_ref);
        let sampler = self.sampler_units.get(unit).copied().flatten();
        let (s_state, s_version) = match sampler.and_then(|s| self.objs.samplers.get(s)) {
            Some(s) => (Some(s.state), s.version),
            None => (None, 0),
        };
        let Some(tex) = self.texture(tex_ref) else {
            return TextureHandle::default();
        };
        // A sampler object replaces the sampler state; the swizzle is the texture's.
        let state = SamplerState {
            swizzle: tex.state.swizzle,
            ..s_state.unwrap_or(tex.state)
        };
        let version = tex.version;
        if let Some(&(_, _, _, h)) = tex
            .internal
            .iter()
            .find(|i| i.0 == sampler && i.1 == s_version && i.2 == version)
        {
            return h;
        }
        let view = tex.view();
        let Some(h) = self.descriptors.insert(view, state, true) else {
            self.errors.push(DebugMessage {
                source: gl::DEBUG_SOURCE_API,
                ty: gl::DEBUG_TYPE_PERFORMANCE,
                id: 2,
                severity: gl::DEBUG_SEVERITY_MEDIUM,
                message: format!("no descriptor for texture unit {unit}: it samples zeros"),
            });
            return TextureHandle::default();
        };
        let mut retired = Vec::new();
        if let Some(t) = self.texture_mut(tex_ref) {
            // Entries for an older version of this sampler are dead.
            t.internal.retain(|i| {
                let keep = i.0 != sampler;
                if !keep {
                    retired.push(i.3);
                }
                keep
            });
            t.internal.push((sampler, s_version, version, h));
        }
        self.retired_descriptors.extend(retired);
        h
    }
}

/// What a program whose last vertex stage writes gl_Layer or gl_ViewportIndex selects from
/// (`raster::Selection`); `None` for other programs, whose draws pay nothing for it.
fn selection(
    c: &Context,
    program: &crate::raster::ProgramCode,
) -> Option<Arc<crate::raster::Selection>> {
    let [layer, viewport] = program.select_slots();
    if layer.is_none() && viewport.is_none() {
        return None;
    }
    Some(Arc::new(crate::raster::Selection {
        layers: if layer.is_some() {
            c.draw_layers()
        } else {
            Vec::new()
        },
        viewports: if viewport.is_some() {
            c.viewport_states()
        } else {
            Vec::new()
        },
    }))
}
