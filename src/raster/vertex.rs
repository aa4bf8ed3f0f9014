//! The vertex stage: which vertices a draw shades (each unique index once per instance),
//! running the vertex shader 4 vertices per call through `jit::run`, and keeping of each
//! shaded vertex what later stages need: the clip position and the linked varyings.

use super::draw::{DrawCall, Topology};
use super::fetch;
use crate::ir::Builtin;
use crate::jit::{self, BoundEnv};

/// Floats per post-shading vertex record: x, y, z, w, then one word per varying link
/// (varying bits stored as f32 bit patterns; flat integer varyings are never computed on),
/// then gl_ClipDistance[] when the draw clips by it (`clip_distance_words`), then
/// gl_CullDistance[] when the vertex shader writes it (`cull_distance_words`), then
/// gl_PointSize when points take it (`point_size_word`, the last word).
pub fn record_stride(draw: &DrawCall) -> usize {
    4 + draw.program.varyings.len()
        + clip_distance_words(draw).map_or(0, |(_, n)| n as usize)
        + draw.program.cull_distances.map_or(0, |(_, n)| n as usize)
        + point_size_word(draw).is_some() as usize
}

/// Where the record keeps gl_CullDistance[] and how many it holds, when the vertex shader
/// writes it (cull distances have no enable; a draw without them pays nothing).
pub fn cull_distance_words(draw: &DrawCall) -> Option<(usize, u32)> {
    let (_, n) = draw.program.cull_distances?;
    let at =
        4 + draw.program.varyings.len() + clip_distance_words(draw).map_or(0, |(_, n)| n as usize);
    Some((at, n))
}

/// Where the record keeps gl_ClipDistance[] and how many it holds, when the vertex shader
/// writes it and a GL_CLIP_DISTANCEi it writes is enabled (else the distances cost nothing).
pub fn clip_distance_words(draw: &DrawCall) -> Option<(usize, u32)> {
    let (_, n) = draw.program.clip_distances?;
    let written = if n >= 8 { 0xFF } else { (1u32 << n) - 1 };
    (draw.state.clip.distances as u32 & written != 0)
        .then_some((4 + draw.program.varyings.len(), n))
}

/// The vertex output word of gl_PointSize when the draw's points take their size from it
/// (GL_PROGRAM_POINT_SIZE on, GL 4.5 core §14.4): the draw makes points (GL_POINTS or
/// polygon mode GL_POINT) and the vertex shader writes it.
pub fn point_size_word(draw: &DrawCall) -> Option<u32> {
    // With a geometry shader or tessellation, what they make is what gets rasterized.
    let topology = draw.program.last_topology(draw.topology);
    let points = topology == Topology::Points
        || (draw.state.prims.polygon_mode == 2 && topology.is_triangles());
    if points && draw.state.prims.program_point_size {
        draw.program.point_size_slot
    } else {
        None
    }
}

/// The vertices of one window of a draw's elements to shade, and how elements map to them.
pub struct VertexList {
    /// `gl_VertexID` of each record to shade.
    pub ids: Vec<i64>,
    /// First element of the window.
    base: u32,
    /// `map[e - base]` is the record of element `e`; None for non-indexed draws, whose
    /// element `e` is record `e - base`.
    map: Option<Vec<u32>>,
    /// Record of element 0 when the window does not start there (fans pivot on it).
    pivot: Option<u32>,
}

impl VertexList {
    /// Lists the unique vertices of elements `elems` (plus element 0 when `pivot` is set):
    /// each index is shaded once per instance and window.
    pub fn new(draw: &DrawCall, elems: std::ops::Range<u32>, pivot: bool) -> VertexList {
        let input = &draw.vertices;
        let count = elems.len();
        let mut ids: Vec<i64> = Vec::with_capacity(count);
        let map = if input.indices.is_none() {
            ids.extend(elems.clone().map(|i| fetch::vertex_id(input, i)));
            None
        } else {
            let vids: Vec<i64> = elems.clone().map(|i| fetch::vertex_id(input, i)).collect();
            let mut map = Vec::with_capacity(count);
            let (lo, hi) = vids
                .iter()
                .fold((i64::MAX, i64::MIN), |(lo, hi), &e| (lo.min(e), hi.max(e)));
            let span = hi.saturating_sub(lo);
            if span >= 0 && span <= 2 * count as i64 + 1024 {
                // Compact index ranges (the common case): a direct lookup table.
                let mut table = vec![u32::MAX; span as usize + 1];
                for &id in &vids {
                    let slot = &mut table[(id - lo) as usize];
                    if *slot == u32::MAX {
                        ids.push(id);
                        *slot = (ids.len() - 1) as u32;
                    }
                    map.push(*slot);
                }
            } else {
                let mut seen: std::collections::HashMap<i64, u32> =
                    std::collections::HashMap::new();
                for &id in &vids {
                    let rec = *seen.entry(id).or_insert_with(|| {
                        ids.push(id);
                        (ids.len() - 1) as u32
                    });
                    map.push(rec);
                }
            }
            Some(map)
        };
        let pivot = (pivot && elems.start > 0).then(|| {
            ids.push(fetch::vertex_id(input, 0));
            (ids.len() - 1) as u32
        });
        VertexList {
            ids,
            base: elems.start,
            map,
            pivot,
        }
    }

    /// The record of draw element `e` (in the window, or element 0 of a fan).
    #[inline]
    pub fn record(&self, e: u32) -> usize {
        if e < self.base {
            return self.pivot.unwrap_or(0) as usize;
        }
        let k = (e - self.base) as usize;
        match &self.map {
            Some(m) => m[k] as usize,
            None => k,
        }
    }
}

/// Shades the vertices `ids` of `instance` into `out` (`ids.len()` records of `stride`
/// floats, see `record_stride`). Vertices transform feedback already shaded for the draw
/// (`DrawCall::preshaded`) are filled from its words, not shaded again.
pub fn shade(draw: &DrawCall, ids: &[i64], instance: u32, out: &mut [f32]) {
    let Some(pre) = draw.preshaded.as_deref() else {
        return shade_fresh(draw, ids, instance, out);
    };
    let stride = record_stride(draw);
    let filler = RecordFiller::new(draw);
    let mut missing = Vec::new();
    for (k, &id) in ids.iter().enumerate() {
        match pre.vertex_words(instance, id) {
            Some(w) => filler.fill(&mut out[k * stride..(k + 1) * stride], |s| {
                w.get(s as usize).copied().unwrap_or(0)
            }),
            None => missing.push(k),
        }
    }
    if missing.is_empty() {
        return;
    }
    let miss_ids: Vec<i64> = missing.iter().map(|&k| ids[k]).collect();
    let mut recs = vec![0.0f32; miss_ids.len() * stride];
    shade_fresh(draw, &miss_ids, instance, &mut recs);
    for (j, &k) in missing.iter().enumerate() {
        out[k * stride..(k + 1) * stride].copy_from_slice(&recs[j * stride..(j + 1) * stride]);
    }
}

/// `shade` running the vertex shader on every vertex.
fn shade_fresh(draw: &DrawCall, ids: &[i64], instance: u32, out: &mut [f32]) {
    let prog = &draw.program;
    let stride = record_stride(draw);
    let filler = RecordFiller::new(draw);
    let env = BoundEnv::new(&draw.vs_data, &draw.sampler);
    let in_words = (draw.vertices.input_words.max(prog.vs.input_words())) as usize;
    let out_words = (prog.vs_output_words.max(prog.vs.output_words())) as usize;
    let mut vertex = vec![0u32; in_words];
    let mut inputs = vec![0u32; in_words * 4];
    let mut outputs = vec![0u32; out_words * 4];
    let mut builtins = [0u32; Builtin::COUNT * 4];
    let word = |outputs: &[u32], slot: u32, lane: usize| -> u32 {
        outputs.get(slot as usize * 4 + lane).copied().unwrap_or(0)
    };
    for (batch, ids4) in ids.chunks(4).enumerate() {
        for (lane, &id) in ids4.iter().enumerate() {
            fetch::fetch_vertex(&draw.vertices, id, instance, &mut vertex);
            for (w, &v) in vertex.iter().enumerate() {
                inputs[w * 4 + lane] = v;
            }
            builtins[Builtin::VertexId.index() * 4 + lane] = id as i32 as u32;
            builtins[Builtin::InstanceId.index() * 4 + lane] = instance;
        }
        let mask = (1u32 << ids4.len()) - 1;
        outputs.fill(0);
        jit::run(
            prog.vs.as_ref(),
            &env,
            &inputs,
            &builtins,
            &mut outputs,
            mask,
        );
        for lane in 0..ids4.len() {
            let rec = &mut out[(batch * 4 + lane) * stride..(batch * 4 + lane + 1) * stride];
            filler.fill(rec, |slot| word(&outputs, slot, lane));
        }
    }
}

/// Fills records (`record_stride` floats each) from the output words of the stage before
/// rasterization: the vertex shader's, or a geometry shader's emitted vertex. The per-draw
/// lookups are made once (`new`); `fill` is generic over the word source, so each record
/// costs direct loads, not a call per word.
pub struct RecordFiller<'a> {
    prog: &'a super::draw::ProgramCode,
    stride: usize,
    size_word: Option<u32>,
    distances: Option<((usize, u32), (u32, u32))>,
    culls: Option<((usize, u32), (u32, u32))>,
}

impl<'a> RecordFiller<'a> {
    pub fn new(draw: &'a DrawCall) -> RecordFiller<'a> {
        RecordFiller {
            prog: &draw.program,
            stride: record_stride(draw),
            size_word: point_size_word(draw),
            distances: clip_distance_words(draw).zip(draw.program.clip_distances),
            culls: cull_distance_words(draw).zip(draw.program.cull_distances),
        }
    }

    /// Fills `rec` with output word `word(slot)` of each slot the record keeps.
    #[inline]
    pub fn fill(&self, rec: &mut [f32], word: impl Fn(u32) -> u32) {
        let prog = self.prog;
        for (c, r) in rec[..4].iter_mut().enumerate() {
            *r = f32::from_bits(word(prog.position_slot + c as u32));
        }
        for (k, link) in prog.varyings.iter().enumerate() {
            rec[4 + k] = f32::from_bits(word(link.vs_slot));
        }
        for ((at, n), (slot, _)) in self.distances.into_iter().chain(self.culls) {
            for k in 0..n {
                rec[at + k as usize] = f32::from_bits(word(slot + k));
            }
        }
        if let Some(w) = self.size_word {
            rec[self.stride - 1] = f32::from_bits(word(w));
        }
    }
}

/// Shades the vertices `ids` of `instance` for a geometry shader: every output word of
/// each (`words` per vertex, into `out`), not records.
pub fn shade_words(draw: &DrawCall, ids: &[i64], instance: u32, words: usize, out: &mut [u32]) {
    let prog = &draw.program;
    let env = BoundEnv::new(&draw.vs_data, &draw.sampler);
    let in_words = (draw.vertices.input_words.max(prog.vs.input_words())) as usize;
    let out_words = words.max(prog.vs.output_words() as usize);
    let mut vertex = vec![0u32; in_words];
    let mut inputs = vec![0u32; in_words * 4];
    let mut outputs = vec![0u32; out_words * 4];
    let mut builtins = [0u32; Builtin::COUNT * 4];
    for (batch, ids4) in ids.chunks(4).enumerate() {
        for (lane, &id) in ids4.iter().enumerate() {
            fetch::fetch_vertex(&draw.vertices, id, instance, &mut vertex);
            for (w, &v) in vertex.iter().enumerate() {
                inputs[w * 4 + lane] = v;
            }
            builtins[Builtin::VertexId.index() * 4 + lane] = id as i32 as u32;
            builtins[Builtin::InstanceId.index() * 4 + lane] = instance;
        }
        let mask = (1u32 << ids4.len()) - 1;
        outputs.fill(0);
        jit::run(
            prog.vs.as_ref(),
            &env,
            &inputs,
            &builtins,
            &mut outputs,
            mask,
        );
        for lane in 0..ids4.len() {
            let v = batch * 4 + lane;
            for w in 0..words {
                out[v * words + w] = outputs[w * 4 + lane];
            }
        }
    }
}
