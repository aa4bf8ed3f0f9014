//! The vertex stage: which vertices a draw shades (each unique index once per instance),
//! running the vertex shader 4 vertices per call through `jit::run`, and keeping of each
//! shaded vertex what later stages need: the clip position and the linked varyings.

use super::draw::DrawCall;
use super::fetch;
use crate::ir::Builtin;
use crate::jit::{self, BoundEnv};

/// Floats per post-shading vertex record: x, y, z, w, then one word per varying link
/// (varying bits stored as f32 bit patterns; flat integer varyings are never computed on).
pub fn record_stride(draw: &DrawCall) -> usize {
    4 + draw.program.varyings.len()
}

/// The vertices of one instance to shade, and how draw elements map to them.
pub struct VertexList {
    /// `gl_VertexID` of each record to shade.
    pub ids: Vec<i64>,
    /// For indexed draws, `elem_to_record[i]` is the record of element `i`; non-indexed
    /// draws map element `i` to record `i`.
    pub elem_to_record: Option<Vec<u32>>,
}

impl VertexList {
    /// Lists the unique vertices of a draw: each index is shaded once per instance.
    pub fn new(draw: &DrawCall) -> VertexList {
        let input = &draw.vertices;
        let count = input.count;
        if input.indices.is_none() {
            return VertexList {
                ids: (0..count).map(|i| fetch::vertex_id(input, i)).collect(),
                elem_to_record: None,
            };
        }
        let elems: Vec<i64> = (0..count).map(|i| fetch::vertex_id(input, i)).collect();
        let mut ids = Vec::new();
        let mut map = Vec::with_capacity(count as usize);
        let (lo, hi) = elems
            .iter()
            .fold((i64::MAX, i64::MIN), |(lo, hi), &e| (lo.min(e), hi.max(e)));
        let span = hi.saturating_sub(lo);
        if span >= 0 && span <= 2 * count as i64 + 1024 {
            // Compact index ranges (the common case): a direct lookup table.
            let mut table = vec![u32::MAX; span as usize + 1];
            for &id in &elems {
                let slot = &mut table[(id - lo) as usize];
                if *slot == u32::MAX {
                    ids.push(id);
                    *slot = (ids.len() - 1) as u32;
                }
                map.push(*slot);
            }
        } else {
            let mut seen: std::collections::HashMap<i64, u32> = std::collections::HashMap::new();
            for &id in &elems {
                let rec = *seen.entry(id).or_insert_with(|| {
                    ids.push(id);
                    (ids.len() - 1) as u32
                });
                map.push(rec);
            }
        }
        VertexList {
            ids,
            elem_to_record: Some(map),
        }
    }

    /// The record of draw element `i`.
    #[inline]
    pub fn record(&self, i: u32) -> usize {
        match &self.elem_to_record {
            Some(m) => m[i as usize] as usize,
            None => i as usize,
        }
    }
}

/// Shades the vertices `ids` of `instance` into `out` (`ids.len()` records of `stride`
/// floats, see `record_stride`).
pub fn shade(draw: &DrawCall, ids: &[i64], instance: u32, out: &mut [f32]) {
    let prog = &draw.program;
    let stride = record_stride(draw);
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
            for (c, r) in rec[..4].iter_mut().enumerate() {
                *r = f32::from_bits(word(&outputs, prog.position_slot + c as u32, lane));
            }
            for (k, link) in prog.varyings.iter().enumerate() {
                rec[4 + k] = f32::from_bits(word(&outputs, link.vs_slot, lane));
            }
        }
    }
}
