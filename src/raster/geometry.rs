//! The geometry stage of a draw (GL 4.5 core §11.3): the draw's elements cut into the
//! geometry shader's input primitives (adjacency kept, primitive restart honoured), the
//! vertex shader run on their vertices, the geometry shader run one lane per input
//! primitive and invocation (`jit::run`, 4 lanes a call), and its emitted vertices turned
//! into records and primitives (points, line strips, triangle strips as separate lines and
//! triangles with the strip's winding and provoking vertex) for the front end to clip,
//! set up and bin. Output order is input primitive order, then invocation order, then
//! emission order, whatever the thread count: this stage runs on the draw's thread. Each
//! primitive carries its vertex stream: the front end bins stream 0's only, transform
//! feedback captures every stream's (GL 4.5 core §11.3.4.3).

use std::collections::HashMap;

use super::draw::{DrawCall, GeometryCode, Topology};
use super::fetch;
use super::vertex;
use crate::ir::geometry::{self as geo, InputSource, OutputPrimitive};
use crate::ir::Builtin;
use crate::jit::{self, BoundEnv};

/// Vertices one window of input primitives may emit (max_vertices × invocations × its
/// primitives): the memory a geometry draw needs before its records reach the scene.
const WINDOW_VERTICES: usize = 1 << 16;

/// One primitive the geometry shader made: records (indices into `GeometryOut::records`)
/// in the order that keeps the strip's winding, how many it uses (1 point, 2 line, 3
/// triangle), which of them is the provoking vertex, and its vertex stream.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OutPrim {
    pub records: [u32; 3],
    pub n: u8,
    pub provoking: u8,
    pub stream: u8,
}

/// What one window of input primitives produced.
#[derive(Clone, Default)]
pub struct GeometryOut {
    /// Records of `vertex::record_stride` floats, as vertex shading makes them.
    pub records: Vec<f32>,
    pub prims: Vec<OutPrim>,
    /// When `Some`, every emitted vertex's output words too (`vertex_words` each, in
    /// record order): what transform feedback captures (`raster::feedback`).
    pub words: Option<Vec<u32>>,
    /// Per record, the gl_Layer and gl_ViewportIndex the vertex was emitted with, when the
    /// shader writes either (`GeometryCode::layer_slot`, `viewport_slot`); else empty.
    pub select: Vec<[u32; 2]>,
}

/// The topology the rasterizer sees from a geometry shader's output.
pub fn output_topology(g: &GeometryCode) -> Topology {
    match g.output {
        OutputPrimitive::Points => Topology::Points,
        OutputPrimitive::LineStrip => Topology::LineStrip,
        OutputPrimitive::TriangleStrip => Topology::TriangleStrip,
    }
}

/// Input primitives per window.
pub fn window_prims(g: &GeometryCode) -> usize {
    let per = (g.max_vertices.max(1) as usize).saturating_mul(g.invocations.max(1) as usize);
    (WINDOW_VERTICES / per).max(1)
}

/// The draw elements of every input primitive, `vertices()` per primitive, in the
/// order GL 4.5 core §10.1 and table 10.1 give the geometry shader (strips keep their
/// winding: odd triangles swap their first two vertices). Primitive restart splits the
/// elements into runs first (§10.3.6).
pub fn input_primitives(call: &DrawCall) -> Vec<u32> {
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
            segment(call.topology, run_start, e, &mut out);
            run_start = e + 1;
        }
    }
    out
}

/// Appends the primitives of elements `a..b` (one restart-free run).
fn segment(t: Topology, a: u32, b: u32, out: &mut Vec<u32>) {
    let n = b.saturating_sub(a);
    let s = |i: u32| a + i;
    match t {
        // A geometry shader's input is never patches (tessellation comes first).
        Topology::Points | Topology::Patches => out.extend(a..b),
        Topology::Lines => out.extend(a..a + n - n % 2),
        Topology::LineStrip | Topology::LineLoop => {
            for i in 0..n.saturating_sub(1) {
                out.extend([s(i), s(i + 1)]);
            }
            if t == Topology::LineLoop && n >= 2 {
                out.extend([s(n - 1), s(0)]);
            }
        }
        Topology::Triangles => out.extend(a..a + n - n % 3),
        Topology::TriangleStrip => {
            for i in 0..n.saturating_sub(2) {
                if i.is_multiple_of(2) {
                    out.extend([s(i), s(i + 1), s(i + 2)]);
                } else {
                    out.extend([s(i + 1), s(i), s(i + 2)]);
                }
            }
        }
        Topology::TriangleFan => {
            for i in 0..n.saturating_sub(2) {
                out.extend([s(0), s(i + 1), s(i + 2)]);
            }
        }
        Topology::LinesAdjacency => out.extend(a..a + n - n % 4),
        Topology::LineStripAdjacency => {
            for i in 0..n.saturating_sub(3) {
                out.extend([s(i), s(i + 1), s(i + 2), s(i + 3)]);
            }
        }
        Topology::TrianglesAdjacency => out.extend(a..a + n - n % 6),
        Topology::TriangleStripAdjacency => {
            // GL 4.5 core table 10.1 (0-based): triangle i is (2i, 2i+2, 2i+4), odd i with
            // the first two swapped; the adjacent vertices follow each edge.
            let tris = n.saturating_sub(4) / 2;
            for i in 0..tris {
                let j = 2 * i;
                let prim = if tris == 1 {
                    [s(0), s(1), s(2), s(5), s(4), s(3)]
                } else if i == 0 {
                    [s(0), s(1), s(2), s(6), s(4), s(3)]
                } else if i == tris - 1 {
                    if i % 2 == 1 {
                        [s(j + 2), s(j - 2), s(j), s(j + 3), s(j + 4), s(j + 5)]
                    } else {
                        [s(j), s(j - 2), s(j + 2), s(j + 5), s(j + 4), s(j + 3)]
                    }
                } else if i % 2 == 1 {
                    [s(j + 2), s(j - 2), s(j), s(j + 3), s(j + 4), s(j + 6)]
                } else {
                    [s(j), s(j - 2), s(j + 2), s(j + 6), s(j + 4), s(j + 3)]
                };
                out.extend(prim);
            }
        }
    }
}

/// Runs the vertex and geometry shaders over input primitives `elems` (`vertices()`
/// elements each; the first is primitive `first_prim` of the draw) of `instance`, and
/// appends the records and primitives they make to `out`.
pub fn run(call: &DrawCall, instance: u32, elems: &[u32], first_prim: u32, out: &mut GeometryOut) {
    let Some(g) = call.program.gs.as_deref() else {
        return;
    };
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
    run_on(
        call,
        g,
        &shaded,
        vs_words,
        &recs,
        PrimIds::From(first_prim),
        out,
    );
}

/// The gl_PrimitiveIDIn of each input primitive of a window.
#[derive(Copy, Clone)]
pub enum PrimIds<'a> {
    /// The window's primitives are numbers `first ..` of the draw's instance.
    From(u32),
    /// Each primitive's own (after tessellation: its patch's, GL 4.5 core §11.3.4.4).
    Each(&'a [u32]),
}

/// The geometry shader over input primitives whose vertices are `recs` (`vertices()`
/// each, indices of vertices in `shaded`, `words` output words each: the vertex
/// shader's, or the tessellation evaluation shader's), appending what it emits to `out`.
pub fn run_on(
    call: &DrawCall,
    g: &GeometryCode,
    shaded: &[u32],
    vs_words: usize,
    recs: &[u32],
    ids: PrimIds<'_>,
    out: &mut GeometryOut,
) {
    let n = g.input.vertices() as usize;
    // The geometry shader, 4 lanes (primitive, invocation) a call.
    let env = BoundEnv::new(&call.vs_data, &call.sampler);
    let in_words = g.inputs.len().max(g.code.input_words() as usize);
    let vw = g.vertex_words;
    let out_words =
        (geo::record_words(g.max_vertices, vw) as usize).max(g.code.output_words() as usize);
    let mut inputs = vec![0u32; in_words * 4];
    let mut outputs = vec![0u32; out_words * 4];
    let builtins = [0u32; Builtin::COUNT * 4];
    let stride = vertex::record_stride(call);
    let filler = vertex::RecordFiller::new(call);
    let selects = g.layer_slot.is_some() || g.viewport_slot.is_some();
    let lanes: Vec<(usize, u32)> = (0..recs.len() / n)
        .flat_map(|p| (0..g.invocations).map(move |i| (p, i)))
        .collect();
    for batch in lanes.chunks(4) {
        for (lane, &(p, inv)) in batch.iter().enumerate() {
            for (w, src) in g.inputs.iter().enumerate() {
                inputs[w * 4 + lane] = match *src {
                    InputSource::Vertex { vertex, word } => {
                        let r = recs[p * n + vertex as usize] as usize;
                        shaded
                            .get(r * vs_words + word as usize)
                            .copied()
                            .unwrap_or(0)
                    }
                    InputSource::Zero => 0,
                    InputSource::PrimitiveId => match ids {
                        PrimIds::From(first) => first.wrapping_add(p as u32),
                        PrimIds::Each(list) => list.get(p).copied().unwrap_or(0),
                    },
                    InputSource::InvocationId => inv,
                };
            }
        }
        outputs.fill(0);
        let mask = (1u32 << batch.len()) - 1;
        jit::run(
            g.code.as_ref(),
            &env,
            &inputs,
            &builtins,
            &mut outputs,
            mask,
        );
        for lane in 0..batch.len() {
            let word = |slot: u32| outputs.get(slot as usize * 4 + lane).copied().unwrap_or(0);
            let count = (word(0) as i32).clamp(0, g.max_vertices as i32) as u32;
            let mut strip = 0u32;
            for k in 0..count {
                let at = geo::vertex_at(k, vw);
                let (starts, stream) = geo::read_vertex_flags(word(at));
                // Streams other than 0 come only with points (a link error otherwise), so
                // a strip's records are consecutive.
                if stream != 0 && g.output != OutputPrimitive::Points {
                    continue;
                }
                if starts {
                    strip = 0;
                }
                let r = (out.records.len() / stride) as u32;
                let start = out.records.len();
                out.records.resize(start + stride, 0.0);
                filler.fill(&mut out.records[start..], |s| {
                    if s < vw {
                        word(at + 1 + s)
                    } else {
                        0
                    }
                });
                if selects {
                    let pick = |slot: Option<u32>| slot.map_or(0, |s| word(at + 1 + s));
                    out.select.push([pick(g.layer_slot), pick(g.viewport_slot)]);
                }
                if let Some(words) = out.words.as_mut() {
                    words.extend((0..vw).map(|s| word(at + 1 + s)));
                }
                strip += 1;
                assemble(
                    g.output,
                    r,
                    strip,
                    call.state.provoking_first,
                    stream as u8,
                    &mut out.prims,
                );
            }
        }
    }
}

/// The primitive record `r` (of vertex stream `stream`) completes as vertex `strip`
/// (1-based) of its strip.
fn assemble(
    o: OutputPrimitive,
    r: u32,
    strip: u32,
    first: bool,
    stream: u8,
    prims: &mut Vec<OutPrim>,
) {
    match o {
        OutputPrimitive::Points => prims.push(OutPrim {
            records: [r; 3],
            n: 1,
            provoking: 0,
            stream,
        }),
        OutputPrimitive::LineStrip if strip >= 2 => prims.push(OutPrim {
            records: [r - 1, r, r],
            n: 2,
            provoking: !first as u8,
            stream,
        }),
        // GL 4.5 core §10.1.3, table 13.2: triangle i of a strip is (i, i+1, i+2), odd ones
        // with their first two swapped; it provokes with i+2, or i under the first-vertex
        // convention.
        OutputPrimitive::TriangleStrip if strip >= 3 => {
            let i = strip - 3;
            let (a, b, c) = (r - 2, r - 1, r);
            let (records, p0) = if i.is_multiple_of(2) {
                ([a, b, c], 0)
            } else {
                ([b, a, c], 1)
            };
            prims.push(OutPrim {
                records,
                n: 3,
                provoking: if first { p0 } else { 2 },
                stream,
            });
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_with_adjacency_follow_table_10_1() {
        let mut out = Vec::new();
        segment(Topology::TriangleStripAdjacency, 0, 6, &mut out);
        assert_eq!(out, [0, 1, 2, 5, 4, 3]);
        out.clear();
        // Three triangles: first, middle (odd), last (even).
        segment(Topology::TriangleStripAdjacency, 0, 10, &mut out);
        assert_eq!(out, [0, 1, 2, 6, 4, 3, 4, 0, 2, 5, 6, 8, 4, 2, 6, 9, 8, 7]);
        out.clear();
        segment(Topology::LineStripAdjacency, 0, 5, &mut out);
        assert_eq!(out, [0, 1, 2, 3, 1, 2, 3, 4]);
        out.clear();
        segment(Topology::TriangleStrip, 2, 6, &mut out);
        assert_eq!(out, [2, 3, 4, 4, 3, 5]);
    }

    #[test]
    fn triangle_strips_keep_winding_and_provoking_vertex() {
        let mut prims = Vec::new();
        for (k, r) in (10..14).enumerate() {
            assemble(
                OutputPrimitive::TriangleStrip,
                r,
                k as u32 + 1,
                true,
                0,
                &mut prims,
            );
        }
        assert_eq!(
            prims,
            [
                OutPrim {
                    records: [10, 11, 12],
                    n: 3,
                    provoking: 0,
                    stream: 0
                },
                OutPrim {
                    records: [12, 11, 13],
                    n: 3,
                    provoking: 1,
                    stream: 0
                }
            ]
        );
    }
}
