//! The tessellation stages of a draw (GL 4.5 core §11.2): the draw's elements cut into
//! patches of glPatchParameteri(GL_PATCH_VERTICES) vertices, the vertex shader run on their
//! vertices, the control shader run one lane per patch (`ir::tess::lower_control` runs
//! every invocation of the patch in that lane), the fixed-function tessellator
//! (`ir::tess::tessellate`) on the patch's levels, and the evaluation shader run one lane
//! per generated vertex (`jit::run`, 4 lanes a call). The evaluated vertices become records
//! and primitives (triangles, lines or points) in a `GeometryOut`, as a geometry shader's
//! emitted vertices do, so the front end, transform feedback and the primitive queries
//! take them the same way. Output order is patch order, then the tessellator's order,
//! whatever the thread count: this stage runs on the draw's thread.

use std::collections::HashMap;

use super::draw::{DrawCall, TessCode, Topology};
use super::fetch;
use super::geometry::{GeometryOut, OutPrim};
use super::vertex;
use crate::ir::tess::{self as tess, TessSource};
use crate::ir::Builtin;
use crate::jit::{self, BoundEnv};

/// Patches per window: bounds the vertices a window holds (at level 64 a quad patch
/// makes 4,225 vertices).
pub const WINDOW_PATCHES: usize = 64;

/// The topology the rasterizer sees from the tessellator's output.
pub fn output_topology(t: &TessCode) -> Topology {
    match tess::prim_vertices(t.mode, t.point_mode) {
        1 => Topology::Points,
        2 => Topology::Lines,
        _ => Topology::Triangles,
    }
}

/// The draw elements of every whole patch, `patch_vertices` each (a partial last patch
/// is ignored, GL 4.5 core §10.1.15), primitive restart splitting runs (§10.3.6).
pub fn input_patches(call: &DrawCall) -> Vec<u32> {
    let n = call.state.patch.vertices.max(1);
    let input = &call.vertices;
    let restart = input.indices.as_ref().and_then(|i| i.restart);
    let mut out = Vec::new();
    let mut run_start = 0u32;
    for e in 0..=input.count {
        let cut = e == input.count
            || restart.is_some_and(|r| {
                let src = input.indices.as_ref();
                src.is_some_and(|s| fetch::raw_index(s, input.first as u64 + e as u64) == r)
            });
        if cut {
            let len = e - run_start;
            out.extend(run_start..run_start + len - len % n);
            run_start = e + 1;
        }
    }
    out
}

/// The word an input link gives, for patch `p` of the window.
struct PatchWords<'a> {
    shaded: &'a [u32],
    vs_words: usize,
    recs: &'a [u32],
    pv: usize,
    control: &'a [u32],
    control_words: usize,
    defaults: [u32; 6],
    first_patch: u32,
    patch_vertices_out: u32,
}

impl PatchWords<'_> {
    fn word(&self, src: TessSource, p: usize) -> u32 {
        match src {
            TessSource::Vertex { vertex, word } if (vertex as usize) < self.pv => {
                let r = self.recs[p * self.pv + vertex as usize] as usize;
                self.shaded
                    .get(r * self.vs_words + word as usize)
                    .copied()
                    .unwrap_or(0)
            }
            TessSource::Control { word } => self
                .control
                .get(p * self.control_words + word as usize)
                .copied()
                .unwrap_or(0),
            TessSource::DefaultLevel(k) => self.defaults[k as usize],
            TessSource::PatchVertices => self.patch_vertices_out,
            TessSource::PrimitiveId => self.first_patch.wrapping_add(p as u32),
            _ => 0,
        }
    }
}

/// Runs the vertex, control and evaluation shaders over patches `elems` (the first is
/// patch `first_patch` of the draw's instance) of `instance`, and appends the records and
/// primitives they make to `out` (and, when `out.words` is set, each evaluated vertex's
/// output words for transform feedback).
pub fn run(call: &DrawCall, instance: u32, elems: &[u32], first_patch: u32, out: &mut GeometryOut) {
    let Some(t) = call.program.tess.as_deref() else {
        return;
    };
    let pv = call.state.patch.vertices.max(1) as usize;
    let patches = elems.len() / pv;
    // The vertex shader, once per unique vertex of the window (first-seen order).
    let mut ids: Vec<i64> = Vec::new();
    let mut seen: HashMap<i64, u32> = HashMap::new();
    let recs: Vec<u32> = elems
        .iter()
        .map(|&e| {
            let id = fetch::vertex_id(&call.vertices, e);
            *seen.entry(id).or_insert_with(|| {
                ids.push(id);
                ids.len() as u32 - 1
            })
        })
        .collect();
    let vs_words = (call
        .program
        .vs_output_words
        .max(call.program.vs.output_words())) as usize;
    let mut shaded = vec![0u32; ids.len() * vs_words];
    vertex::shade_words(call, &ids, instance, vs_words, &mut shaded);

    let env = BoundEnv::new(&call.vs_data, &call.sampler);
    let builtins = [0u32; Builtin::COUNT * 4];
    let defaults = {
        let p = &call.state.patch;
        let mut d = [0u32; 6];
        for (w, l) in d.iter_mut().zip(p.outer.iter().chain(&p.inner)) {
            *w = l.to_bits();
        }
        d
    };
    let mut words = PatchWords {
        shaded: &shaded,
        vs_words,
        recs: &recs,
        pv,
        control: &[],
        control_words: 0,
        defaults,
        first_patch,
        patch_vertices_out: pv as u32,
    };

    // The control shader, 4 patches a call.
    let mut control = Vec::new();
    if let Some(tcs) = &t.control {
        let cw = (t.control_words as usize).max(tcs.output_words() as usize);
        let in_words = t.inputs.control.len().max(tcs.input_words() as usize);
        let mut inputs = vec![0u32; in_words * 4];
        let mut outputs = vec![0u32; cw * 4];
        control = vec![0u32; patches * cw];
        for start in (0..patches).step_by(4) {
            let lanes = (patches - start).min(4);
            for lane in 0..lanes {
                for (w, &src) in t.inputs.control.iter().enumerate() {
                    inputs[w * 4 + lane] = words.word(src, start + lane);
                }
            }
            outputs.fill(0);
            jit::run(
                tcs.as_ref(),
                &env,
                &inputs,
                &builtins,
                &mut outputs,
                (1u32 << lanes) - 1,
            );
            for lane in 0..lanes {
                let rec = &mut control[(start + lane) * cw..(start + lane + 1) * cw];
                for (w, r) in rec.iter_mut().enumerate() {
                    *r = outputs[w * 4 + lane];
                }
            }
        }
        words.control_words = cw;
        words.patch_vertices_out = t.vertices;
    }
    words.control = &control;

    // The tessellator and the evaluation shader, 4 vertices a call.
    let tes = t.eval.as_ref();
    let in_words = t.inputs.eval.len().max(tes.input_words() as usize);
    let out_words = (tes.output_words() as usize).max(t.eval_words as usize);
    let mut inputs = vec![0u32; in_words * 4];
    let mut outputs = vec![0u32; out_words * 4];
    let coord_words: Vec<(usize, usize)> = t
        .inputs
        .eval
        .iter()
        .enumerate()
        .filter_map(|(w, s)| match *s {
            TessSource::Coord(k) => Some((w, k as usize)),
            _ => None,
        })
        .collect();
    let stride = vertex::record_stride(call);
    let filler = vertex::RecordFiller::new(call);
    let first = call.state.provoking_first;
    // With a geometry shader after tessellation, the evaluated vertices and primitives of
    // the window are its input (`geometry::run_on`), each primitive with its patch's id.
    let gs = call.program.gs.as_deref();
    let mut gs_words: Vec<u32> = Vec::new();
    let mut gs_recs: Vec<u32> = Vec::new();
    let mut gs_ids: Vec<u32> = Vec::new();
    let level = |p: usize, slot: Option<u32>, k: usize, default: f32| -> f32 {
        match (slot, t.control.is_some()) {
            (Some(s), true) => {
                f32::from_bits(words.word(TessSource::Control { word: s + k as u32 }, p))
            }
            _ => default,
        }
    };
    for p in 0..patches {
        let outer: [f32; 4] =
            std::array::from_fn(|k| level(p, t.outer_slot, k, call.state.patch.outer[k]));
        let inner: [f32; 2] =
            std::array::from_fn(|k| level(p, t.inner_slot, k, call.state.patch.inner[k]));
        let Some(mesh) = tess::tessellate(t.mode, t.spacing, t.cw, t.point_mode, outer, inner)
        else {
            continue;
        };
        // The patch's words are the same for every vertex: filled once per patch.
        for (w, &src) in t.inputs.eval.iter().enumerate() {
            let v = words.word(src, p);
            inputs[w * 4..w * 4 + 4].fill(v);
        }
        let base = match gs {
            Some(_) => (gs_words.len() / out_words.max(1)) as u32,
            None => (out.records.len() / stride) as u32,
        };
        for chunk in mesh.coords.chunks(4) {
            for (lane, c) in chunk.iter().enumerate() {
                for &(w, k) in &coord_words {
                    inputs[w * 4 + lane] = c[k].to_bits();
                }
            }
            outputs.fill(0);
            jit::run(
                tes,
                &env,
                &inputs,
                &builtins,
                &mut outputs,
                (1u32 << chunk.len()) - 1,
            );
            for lane in 0..chunk.len() {
                // gl_PrimitiveID in a fragment shader after tessellation alone: the
                // patch's number (`link::PRIMITIVE_ID_SLOT`).
                let word = |s: u32| match s {
                    crate::ir::link::PRIMITIVE_ID_SLOT => first_patch.wrapping_add(p as u32),
                    _ => outputs.get(s as usize * 4 + lane).copied().unwrap_or(0),
                };
                if gs.is_some() {
                    gs_words.extend((0..out_words as u32).map(word));
                    continue;
                }
                let at = out.records.len();
                out.records.resize(at + stride, 0.0);
                filler.fill(&mut out.records[at..], word);
                if let Some(ws) = out.words.as_mut() {
                    ws.extend((0..out_words as u32).map(word));
                }
            }
        }
        let n = mesh.per_prim as usize;
        if gs.is_some() {
            gs_recs.extend(mesh.indices.iter().map(|&i| base + i));
            let id = first_patch.wrapping_add(p as u32);
            gs_ids.extend(std::iter::repeat_n(id, mesh.indices.len() / n));
            continue;
        }
        for prim in mesh.indices.chunks_exact(n) {
            let r = |k: usize| base + prim[k.min(n - 1)];
            out.prims.push(OutPrim {
                records: [r(0), r(1), r(2)],
                n: n as u8,
                provoking: if first { 0 } else { n as u8 - 1 },
                stream: 0,
            });
        }
    }
    finish_window(call, &gs_words, out_words, &gs_recs, &gs_ids, out);
}

/// Runs the geometry shader (when the program has one) on what the window's patches
/// made.
fn finish_window(
    call: &DrawCall,
    words: &[u32],
    per_vertex: usize,
    recs: &[u32],
    ids: &[u32],
    out: &mut GeometryOut,
) {
    if let Some(g) = call.program.gs.as_deref() {
        super::geometry::run_on(
            call,
            g,
            words,
            per_vertex,
            recs,
            super::geometry::PrimIds::Each(ids),
            out,
        );
    }
}

/// Output words per evaluated vertex in `GeometryOut::words` (what transform feedback
/// indexes by output slot).
pub fn vertex_words(call: &DrawCall) -> usize {
    call.program.tess.as_deref().map_or(0, |t| {
        (t.eval.output_words() as usize).max(t.eval_words as usize)
    })
}
