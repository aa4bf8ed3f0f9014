//! Viewport arrays, depth clamp, clip control and the clip-distance enables (GL 4.5 core
//! §13.5, §13.6.1, §14.9.2; ARB_viewport_array, ARB_depth_clamp, ARB_clip_control): the
//! indexed viewport, depth range and scissor commands and their glGet values, glClipControl,
//! and what of them a draw snapshots (`raster::ClipState`). Index 0 of each array lives in
//! `FixedState`'s plain fields (`viewport`, `depth_range`, `scissor_box`, `scissor_test`),
//! which the non-indexed commands, clears and blits read; this file keeps indices 1..16.
//! Draws use index 0 unless a geometry shader selects others with gl_ViewportIndex
//! (`viewport_states`, `raster::front::bin_geometry`); clears use index 0's scissor.

use crate::api::context::{dirty, limits, Context, FixedState};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::gl::enums as gl;
use crate::raster::{ClipState, ViewportState};

/// The others of the 16 viewports (index 1..16; index 0 is in `FixedState`'s plain fields).
const OTHERS: usize = limits::MAX_VIEWPORTS - 1;

/// Viewports 1..16 and the clipping state of GL 4.5 core §13.5 and §13.6.
#[derive(Clone, Debug)]
pub(crate) struct ClipFixed {
    pub viewports: [[i32; 4]; OTHERS],
    /// Every viewport (index 0 too) as specified, after the clamps of §13.6.1 and before
    /// rounding to whole pixels: what glGetFloati_v/glGetDoublei_v/glGetFloatv return
    /// (table 23.8 keeps the viewport as reals). Rasterization reads the rounded
    /// integers (`viewports`, `FixedState::viewport`; GL_VIEWPORT_SUBPIXEL_BITS is 0).
    pub viewport_floats: [[f32; 4]; limits::MAX_VIEWPORTS],
    pub depth_ranges: [[f64; 2]; OTHERS],
    pub scissors: [[i32; 4]; OTHERS],
    pub scissor_tests: [bool; OTHERS],
    /// GL_DEPTH_CLAMP.
    pub depth_clamp: bool,
    /// glClipControl: origin GL_UPPER_LEFT (else LOWER_LEFT) and depth mode GL_ZERO_TO_ONE
    /// (else NEGATIVE_ONE_TO_ONE).
    pub upper_left: bool,
    pub zero_to_one: bool,
    /// GL_CLIP_DISTANCE0..7.
    pub clip_distances: [bool; 8],
}

impl ClipFixed {
    /// GL's initial state: viewports and scissors 0×0 until a surface sets them, depth ranges
    /// [0, 1], no scissor test, no clamp, LOWER_LEFT and NEGATIVE_ONE_TO_ONE, no clip
    /// distance enabled.
    pub const INITIAL: ClipFixed = ClipFixed {
        viewports: [[0; 4]; OTHERS],
        viewport_floats: [[0.0; 4]; limits::MAX_VIEWPORTS],
        depth_ranges: [[0.0, 1.0]; OTHERS],
        scissors: [[0; 4]; OTHERS],
        scissor_tests: [false; OTHERS],
        depth_clamp: false,
        upper_left: false,
        zero_to_one: false,
        clip_distances: [false; 8],
    };

    /// What a draw snapshots (`RasterState::clip`).
    pub fn derive(&self) -> ClipState {
        ClipState {
            depth_clamp: self.depth_clamp,
            upper_left: self.upper_left,
            zero_to_one: self.zero_to_one,
            distances: self
                .clip_distances
                .iter()
                .enumerate()
                .fold(0, |m, (i, &on)| m | (on as u8) << i),
        }
    }
}

gl_commands! {
    /// glViewportIndexedf (GL 4.5 core §13.6.1): sizes clamp to GL_MAX_VIEWPORT_DIMS, the
    /// origin to GL_VIEWPORT_BOUNDS_RANGE; values are rounded to whole pixels
    /// (GL_VIEWPORT_SUBPIXEL_BITS is 0).
    "glViewportIndexedf"
    fn viewport_indexedf(index: u32, x: f32, y: f32, w: f32, h: f32) = try_viewport_indexedf;
    /// glViewportArrayv: viewports `first..first + v.len() / 4`.
    "glViewportArrayv" fn viewport_arrayv(first: u32, v: &[f32]) = try_viewport_arrayv;
    /// glScissorIndexed (§14.9.2).
    "glScissorIndexed"
    fn scissor_indexed(index: u32, x: i32, y: i32, w: i32, h: i32) = try_scissor_indexed;
    /// glScissorArrayv: boxes `first..first + v.len() / 4`.
    "glScissorArrayv" fn scissor_arrayv(first: u32, v: &[i32]) = try_scissor_arrayv;
    /// glDepthRangeIndexed (§13.6.1): values clamp to [0, 1].
    "glDepthRangeIndexed"
    fn depth_range_indexed(index: u32, n: f64, f: f64) = try_depth_range_indexed;
    /// glDepthRangeArrayv: ranges `first..first + v.len() / 2`.
    "glDepthRangeArrayv" fn depth_range_arrayv(first: u32, v: &[f64]) = try_depth_range_arrayv;
    /// glClipControl (GL 4.5 core §13.5): the window origin and the clip-space depth mode.
    "glClipControl" fn clip_control(origin: u32, depth: u32) = try_clip_control;
}

/// `first..first + count` inside the viewport array, else GL_INVALID_VALUE (§13.6.1).
fn check_range(first: u32, count: usize) -> GlResult<usize> {
    let first = first as usize;
    if first.saturating_add(count) > limits::MAX_VIEWPORTS {
        return Err(GlError::InvalidValue(
            "viewport index past GL_MAX_VIEWPORTS",
        ));
    }
    Ok(first)
}

impl Context {
    /// Sets viewport `i` (< MAX_VIEWPORTS) from float values.
    pub(crate) fn set_viewport(&mut self, i: usize, [x, y, w, h]: [f32; 4]) -> GlResult<()> {
        if w < 0.0 || h < 0.0 {
            return Err(GlError::InvalidValue("negative viewport size"));
        }
        let m = limits::MAX_VIEWPORT_DIMS as f32;
        let [lo, hi] = limits::VIEWPORT_BOUNDS_RANGE.map(|b| b as f32);
        // NaN becomes 0, then the limits apply (the bounds and dimensions are exact in f32).
        let num = |v: f32| if v.is_nan() { 0.0 } else { v };
        let f = [
            num(x).clamp(lo, hi),
            num(y).clamp(lo, hi),
            num(w).min(m),
            num(h).min(m),
        ];
        // Whole pixels for rasterization; every value is within i32 after the clamps.
        let v = f.map(|c| c.round() as i32);
        self.fixed.clip.viewport_floats[i] = f;
        match i {
            0 => self.fixed.viewport = v,
            i => self.fixed.clip.viewports[i - 1] = v,
        }
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    /// Sets depth range `i`, each value clamped to [0, 1].
    pub(crate) fn set_depth_range(&mut self, i: usize, [n, f]: [f64; 2]) {
        let r = [n.clamp(0.0, 1.0), f.clamp(0.0, 1.0)];
        match i {
            0 => self.fixed.depth_range = r,
            i => self.fixed.clip.depth_ranges[i - 1] = r,
        }
        self.dirty |= dirty::RASTER;
    }

    /// Sets scissor box `i`.
    pub(crate) fn set_scissor(&mut self, i: usize, b: [i32; 4]) -> GlResult<()> {
        if b[2] < 0 || b[3] < 0 {
            return Err(GlError::InvalidValue("negative scissor size"));
        }
        match i {
            0 => self.fixed.scissor_box = b,
            i => self.fixed.clip.scissors[i - 1] = b,
        }
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    /// glEnable/glDisable(GL_SCISSOR_TEST) (every index) and glEnablei/glDisablei (one).
    pub(crate) fn set_scissor_test(&mut self, index: Option<u32>, on: bool) -> GlResult<()> {
        match index {
            None => {
                self.fixed.scissor_test = on;
                self.fixed.clip.scissor_tests = [on; OTHERS];
            }
            Some(0) => self.fixed.scissor_test = on,
            Some(i) if (i as usize) < limits::MAX_VIEWPORTS => {
                self.fixed.clip.scissor_tests[i as usize - 1] = on
            }
            Some(_) => return Err(GlError::InvalidValue("scissor index past GL_MAX_VIEWPORTS")),
        }
        self.dirty |= dirty::RASTER;
        Ok(())
    }

    /// Every viewport with its depth range and scissor rectangle (when its scissor test is
    /// on), for a geometry shader's gl_ViewportIndex (`raster::Selection::viewports`).
    pub(crate) fn viewport_states(&self) -> Vec<ViewportState> {
        let f = &self.fixed;
        let first = ViewportState {
            viewport: f.viewport,
            depth_range: f.depth_range,
            scissor: f.scissor_test.then_some(f.scissor_box),
        };
        let c = &f.clip;
        std::iter::once(first)
            .chain((0..OTHERS).map(|i| ViewportState {
                viewport: c.viewports[i],
                depth_range: c.depth_ranges[i],
                scissor: c.scissor_tests[i].then_some(c.scissors[i]),
            }))
            .collect()
    }

    /// glIsEnabledi(GL_SCISSOR_TEST, index).
    pub(crate) fn scissor_test_enabled(&self, index: u32) -> GlResult<bool> {
        match index as usize {
            0 => Ok(self.fixed.scissor_test),
            i if i < limits::MAX_VIEWPORTS => Ok(self.fixed.clip.scissor_tests[i - 1]),
            _ => Err(GlError::InvalidValue("scissor index past GL_MAX_VIEWPORTS")),
        }
    }

    /// GL_VIEWPORT, GL_SCISSOR_BOX or GL_DEPTH_RANGE of index `index` (glGet*i_v), as f64.
    pub(crate) fn viewport_indexed_value(&self, pname: u32, index: u32) -> GlResult<Vec<f64>> {
        let i = index as usize;
        if i >= limits::MAX_VIEWPORTS {
            return Err(GlError::InvalidValue(
                "viewport index past GL_MAX_VIEWPORTS",
            ));
        }
        let f = &self.fixed;
        let ints = |v: [i32; 4]| v.iter().map(|&x| x as f64).collect();
        Ok(match (pname, i) {
            (gl::VIEWPORT, i) => f.clip.viewport_floats[i]
                .iter()
                .map(|&x| x as f64)
                .collect(),
            (gl::SCISSOR_BOX, 0) => ints(f.scissor_box),
            (gl::SCISSOR_BOX, i) => ints(f.clip.scissors[i - 1]),
            (gl::DEPTH_RANGE, 0) => f.depth_range.to_vec(),
            (gl::DEPTH_RANGE, i) => f.clip.depth_ranges[i - 1].to_vec(),
            _ => return Err(GlError::BadEnum("indexed glGet parameter", pname)),
        })
    }

    pub(crate) fn try_viewport_indexedf(
        &mut self,
        index: u32,
        x: f32,
        y: f32,
        w: f32,
        h: f32,
    ) -> GlResult<()> {
        let i = check_range(index, 1)?;
        self.set_viewport(i, [x, y, w, h])
    }

    pub(crate) fn try_viewport_arrayv(&mut self, first: u32, v: &[f32]) -> GlResult<()> {
        let first = check_range(first, v.len() / 4)?;
        // GL 4.5 core §13.6.1: a negative size anywhere is INVALID_VALUE, and nothing changes.
        if v.chunks_exact(4).any(|b| b[2] < 0.0 || b[3] < 0.0) {
            return Err(GlError::InvalidValue("negative viewport size"));
        }
        for (k, b) in v.chunks_exact(4).enumerate() {
            self.set_viewport(first + k, [b[0], b[1], b[2], b[3]])?;
        }
        Ok(())
    }

    pub(crate) fn try_scissor_indexed(
        &mut self,
        index: u32,
        x: i32,
        y: i32,
        w: i32,
        h: i32,
    ) -> GlResult<()> {
        let i = check_range(index, 1)?;
        self.set_scissor(i, [x, y, w, h])
    }

    pub(crate) fn try_scissor_arrayv(&mut self, first: u32, v: &[i32]) -> GlResult<()> {
        let first = check_range(first, v.len() / 4)?;
        if v.chunks_exact(4).any(|b| b[2] < 0 || b[3] < 0) {
            return Err(GlError::InvalidValue("negative scissor size"));
        }
        for (k, b) in v.chunks_exact(4).enumerate() {
            self.set_scissor(first + k, [b[0], b[1], b[2], b[3]])?;
        }
        Ok(())
    }

    pub(crate) fn try_depth_range_indexed(&mut self, index: u32, n: f64, f: f64) -> GlResult<()> {
        let i = check_range(index, 1)?;
        self.set_depth_range(i, [n, f]);
        Ok(())
    }

    pub(crate) fn try_depth_range_arrayv(&mut self, first: u32, v: &[f64]) -> GlResult<()> {
        let first = check_range(first, v.len() / 2)?;
        for (k, r) in v.chunks_exact(2).enumerate() {
            self.set_depth_range(first + k, [r[0], r[1]]);
        }
        Ok(())
    }

    pub(crate) fn try_clip_control(&mut self, origin: u32, depth: u32) -> GlResult<()> {
        let upper_left = match origin {
            gl::LOWER_LEFT => false,
            gl::UPPER_LEFT => true,
            _ => return Err(GlError::BadEnum("clip control origin", origin)),
        };
        let zero_to_one = match depth {
            gl::NEGATIVE_ONE_TO_ONE => false,
            gl::ZERO_TO_ONE => true,
            _ => return Err(GlError::BadEnum("clip control depth mode", depth)),
        };
        self.fixed.clip.upper_left = upper_left;
        self.fixed.clip.zero_to_one = zero_to_one;
        self.dirty |= dirty::RASTER;
        Ok(())
    }
}

/// GL_CLIP_ORIGIN and GL_CLIP_DEPTH_MODE (glGet).
pub(crate) fn clip_control_value(f: &FixedState, pname: u32) -> Option<u32> {
    match pname {
        gl::CLIP_ORIGIN => Some(if f.clip.upper_left {
            gl::UPPER_LEFT
        } else {
            gl::LOWER_LEFT
        }),
        gl::CLIP_DEPTH_MODE => Some(if f.clip.zero_to_one {
            gl::ZERO_TO_ONE
        } else {
            gl::NEGATIVE_ONE_TO_ONE
        }),
        _ => None,
    }
}

/// One word of `gl_DepthRange` in a program: the leaf (`glsl::depth_range::LEAVES`), the
/// stage and the word offset in that stage's default block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DepthRangeSlot {
    leaf: u8,
    stage: u8,
    offset: u32,
}

/// The words of `gl_DepthRange` among a linked program's `uniforms` (none for most
/// programs). A program pipeline renames uniforms with their program's name
/// (`"7\u{1f}gl_DepthRange.near"`), so the name is matched after the last separator.
pub(crate) fn depth_range_slots(uniforms: &[crate::ir::link::Uniform]) -> Vec<DepthRangeSlot> {
    let mut slots = Vec::new();
    for u in uniforms {
        let own = u.name.rsplit('\u{1f}').next().unwrap_or(&u.name);
        let Some(leaf) = crate::glsl::depth_range::LEAVES
            .iter()
            .position(|l| *l == own)
        else {
            continue;
        };
        for (stage, off) in u.offsets.iter().enumerate() {
            if let Some(offset) = *off {
                slots.push(DepthRangeSlot {
                    leaf: leaf as u8,
                    stage: stage as u8,
                    offset,
                });
            }
        }
    }
    slots
}

/// Writes `gl_DepthRange` (GLSL 4.60 §7.4: viewport 0's range, `glsl::depth_range`) into
/// each stage's default-block `words` at the program's `slots`: near, far and
/// diff = far − near as f32 (the one IEEE subtraction, so every machine agrees).
pub(crate) fn write_depth_range_uniform(
    slots: &[DepthRangeSlot],
    [near, far]: [f64; 2],
    words: &mut [Vec<u32>; 2],
) {
    if slots.is_empty() {
        return;
    }
    let (n, f) = (near as f32, far as f32);
    let values = [n, f, f - n];
    for s in slots {
        if let Some(w) = words[s.stage as usize].get_mut(s.offset as usize) {
            *w = values[s.leaf as usize].to_bits();
        }
    }
}
