//! Multisampling (GL 4.5 core §14.3.1): the standard sample positions, the sample planes of a
//! multisample target, and the per-sample loop that runs a draw or a clear once per sample.
//!
//! A multisample image is stored as N sample planes, each in the single-sample layout. A draw
//! into it runs the whole pipeline once per sample `s`, with the snapped window-space vertices
//! moved by `pixel centre − position(s)` (a multiple of 1/16 pixel, so an exact whole number
//! of the 8-bit sub-pixel units) and plane `s` as the target. The edge functions, still
//! evaluated at pixel centres, then test exactly sample `s`'s position; depth, stencil and
//! blending are per sample because each plane has its own; the shader runs per sample (GL
//! allows sample-rate shading) with its inputs interpolated at the sample, and gl_FragCoord.xy
//! stays the pixel centre. A single-sample target takes none of this (no planes, shift 0).

use super::draw::{ClearCall, DrawCall, RenderTarget};
use crate::sampler::Image;
use std::sync::Arc;

/// The sample counts softgl supports, largest first (glGetInternalformativ's GL_SAMPLES
/// order). GL_MAX_SAMPLES is the first.
pub const SAMPLE_COUNTS: [u32; 3] = [8, 4, 2];

/// The standard (D3D) sample positions in 1/16 pixel from the pixel centre, x then y, for 2,
/// 4 and 8 samples; llvmpipe reports the 4-sample ones as `0.5 + v / 16` with y as given,
/// and so does softgl (`position`).
const POS2: [[i32; 2]; 2] = [[4, 4], [-4, -4]];
const POS4: [[i32; 2]; 4] = [[-2, -6], [6, -2], [-6, 2], [2, 6]];
const POS8: [[i32; 2]; 8] = [
    [1, -3],
    [-1, 3],
    [5, 1],
    [-3, -5],
    [-5, 5],
    [-7, -1],
    [3, 7],
    [7, -7],
];

/// The sample count storage gets for a request of `samples` (GL 4.5 core §9.2.4: the
/// smallest supported count at least `samples`; 0 stays single-sample), or None past
/// GL_MAX_SAMPLES.
pub fn supported_count(samples: u32) -> Option<u32> {
    if samples == 0 {
        return Some(0);
    }
    SAMPLE_COUNTS.iter().rev().copied().find(|&n| n >= samples)
}

/// Offsets of the samples of an `n`-sample pixel from its centre, in 1/16 pixel (`n` one of
/// `SAMPLE_COUNTS`; anything else has the one sample at the centre).
fn offsets(n: u32) -> &'static [[i32; 2]] {
    match n {
        2 => &POS2,
        4 => &POS4,
        8 => &POS8,
        _ => &[[0, 0]],
    }
}

/// glGetMultisamplefv(GL_SAMPLE_POSITION): where sample `s` of an `n`-sample pixel lies, in
/// [0, 1]² from the pixel's lower-left corner (exact: multiples of 1/16).
pub fn position(n: u32, s: u32) -> [f32; 2] {
    let o = offsets(n).get(s as usize).copied().unwrap_or_default();
    o.map(|v| 0.5 + v as f32 / 16.0)
}

/// How far a draw's snapped vertices move for sample `s` of an `n`-sample target, in
/// sub-pixel units (`fixed::ONE` per pixel): `pixel centre − position(s)`, so that a pixel
/// centre of the moved primitive is sample `s` of the original.
pub fn shift(n: u32, s: u32) -> [i32; 2] {
    let step = super::fixed::ONE as i32 / 16;
    let o = offsets(n).get(s as usize).copied().unwrap_or_default();
    o.map(|v| -v * step)
}

/// The images of one further sample of a multisample target, in the target's layout: one
/// per draw buffer (`None` where the target has none), depth and stencil.
#[derive(Clone, Debug, Default)]
pub struct SamplePlane {
    pub colors: Vec<Option<Arc<Image>>>,
    pub depth: Option<Arc<Image>>,
    pub stencil: Option<Arc<Image>>,
}

/// Multisample rasterization state (GL 4.5 core §14.3.1, §17.3.3); a single-sample target
/// ignores it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MultisampleState {
    /// GL_MULTISAMPLE: off, every sample takes the pixel-centre result.
    pub enabled: bool,
    /// The samples written: GL_SAMPLE_MASK_VALUE when GL_SAMPLE_MASK is on, else all.
    pub mask: u32,
    /// Set by the per-sample loop for the pass it makes: the vertices' move in sub-pixel
    /// units (`shift`); 0 for single-sample targets.
    pub shift: [i32; 2],
}

impl MultisampleState {
    /// GL's initial state: multisampling on, every sample written.
    pub const INITIAL: MultisampleState = MultisampleState {
        enabled: true,
        mask: !0,
        shift: [0, 0],
    };
}

impl super::Rasterizer {
    /// Runs `job(i)` for every `i` in `0..jobs` on the worker pool (on the caller with one
    /// thread or no pool) and returns when all have run. For work the API does between
    /// flushes (the resolve of a multisample blit, `api::blit`): each job must write only
    /// its own part of the output, so the result does not depend on the thread count.
    pub fn run_parallel(&self, jobs: usize, job: &(dyn Fn(usize) + Sync)) {
        use rayon::prelude::*;
        match &self.pool {
            Some(pool) if self.threads > 1 && jobs > 1 => {
                pool.install(|| (0..jobs).into_par_iter().for_each(job))
            }
            _ => (0..jobs).for_each(job),
        }
    }
}

/// Sample `s`'s images of `t` as a single-sample target (`s` = 0: `t`'s own images). Draw
/// buffers `t` leaves out (`None`) stay out in every plane.
fn plane_target(t: &RenderTarget, s: u32) -> RenderTarget {
    let mut out = RenderTarget {
        colors: t.colors.clone(),
        depth: t.depth.clone(),
        stencil: t.stencil.clone(),
        width: t.width,
        height: t.height,
        samples: 0,
        planes: Vec::new(),
    };
    if s > 0 {
        if let Some(p) = t.planes.get(s as usize - 1) {
            for (k, c) in out.colors.iter_mut().enumerate() {
                if c.is_some() {
                    *c = p.colors.get(k).cloned().flatten();
                }
            }
            out.depth = p.depth.clone();
            out.stencil = p.stencil.clone();
        }
    }
    out
}

/// The single-sample draws a draw into `call.target` becomes: one per sample the sample
/// mask keeps, each into its plane with its vertex shift (none when the target is
/// single-sample: the call itself).
pub fn per_sample_draws(call: DrawCall) -> Vec<DrawCall> {
    let n = call.target.samples;
    if n == 0 {
        return vec![call];
    }
    let ms = call.state.multisample;
    (0..n)
        .filter(|&s| s >= 32 || ms.mask & (1 << s) != 0)
        .map(|s| {
            let mut state = call.state;
            state.multisample.shift = if ms.enabled { shift(n, s) } else { [0, 0] };
            // Each layer a geometry shader may pick, as sample s's images.
            let select = match &call.select {
                Some(sel) if s > 0 && !sel.layers.is_empty() => {
                    Some(Arc::new(super::draw::Selection {
                        layers: sel
                            .layers
                            .iter()
                            .map(|l| {
                                let t = plane_target(
                                    &RenderTarget {
                                        colors: l.colors.clone(),
                                        depth: l.depth.clone(),
                                        stencil: l.stencil.clone(),
                                        width: call.target.width,
                                        height: call.target.height,
                                        samples: n,
                                        planes: l.planes.clone(),
                                    },
                                    s,
                                );
                                super::draw::LayerImages {
                                    colors: t.colors,
                                    depth: t.depth,
                                    stencil: t.stencil,
                                    planes: Vec::new(),
                                }
                            })
                            .collect(),
                        viewports: sel.viewports.clone(),
                    }))
                }
                other => other.clone(),
            };
            DrawCall {
                topology: call.topology,
                vertices: call.vertices.clone(),
                program: call.program.clone(),
                vs_data: call.vs_data.clone(),
                fs_data: call.fs_data.clone(),
                sampler: call.sampler.clone(),
                state,
                target: plane_target(&call.target, s),
                samples: call.samples.clone(),
                preshaded: call.preshaded.clone(),
                select,
            }
        })
        .collect()
}

/// The single-sample clears a clear of `call.target` becomes: one per sample plane (clears
/// ignore the sample mask, GL 4.5 core §17.4.3 lists the masks that apply).
pub fn per_sample_clears(call: ClearCall) -> Vec<ClearCall> {
    let n = call.target.samples;
    if n == 0 {
        return vec![call];
    }
    (0..n)
        .map(|s| ClearCall {
            target: plane_target(&call.target, s),
            ..call.clone()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_round_up_to_supported_ones() {
        assert_eq!(supported_count(0), Some(0));
        assert_eq!(supported_count(1), Some(2));
        assert_eq!(supported_count(2), Some(2));
        assert_eq!(supported_count(3), Some(4));
        assert_eq!(supported_count(4), Some(4));
        assert_eq!(supported_count(5), Some(8));
        assert_eq!(supported_count(8), Some(8));
        assert_eq!(supported_count(9), None);
    }

    #[test]
    fn positions_are_the_standard_ones_and_shifts_undo_them() {
        // llvmpipe's lp_sample_pos_4x.
        let want = [
            [0.375, 0.125],
            [0.875, 0.375],
            [0.125, 0.625],
            [0.625, 0.875],
        ];
        for (s, w) in want.iter().enumerate() {
            assert_eq!(position(4, s as u32), *w);
        }
        for n in SAMPLE_COUNTS {
            let mut seen = Vec::new();
            for s in 0..n {
                let p = position(n, s);
                assert!(p.iter().all(|v| (0.0..1.0).contains(v)));
                assert!(!seen.contains(&p), "{n} samples: {p:?} twice");
                seen.push(p);
                // pixel centre + shift / ONE == position exactly.
                let sh = shift(n, s);
                for c in 0..2 {
                    let moved = 0.5 - sh[c] as f32 / super::super::fixed::ONE as f32;
                    assert_eq!(moved, p[c]);
                }
            }
        }
    }
}
