//! Transform feedback capture (GL 4.5 core §13.3): the output words of the last vertex
//! processing stage (the vertex shader, or the vertices a geometry shader emits), one
//! primitive at a time in draw order — instances in order, each instance's primitives in
//! order, a geometry shader's in input primitive, invocation and emission order — with
//! strips, loops and fans decomposed into independent primitives (§13.3.2) and adjacent
//! vertices dropped. Which words go where in which buffer is the API's business
//! (`api::transform_feedback`): this file hands each primitive's vertices, with its vertex
//! stream (0 without a geometry shader, GL 4.5 core §11.3.4.3), to a sink.
//!
//! Capture runs on the draw's thread, before (and apart from) binning the draw, so its order
//! never depends on the thread count. For a draw that is also rasterized it keeps what it
//! shaded (`Preshaded`: each vertex's output words, or each window's geometry output), and
//! the front end uses that instead of running the shaders again, so their side effects
//! (storage writes, atomics) happen once; the cost is holding the draw's shaded vertices
//! until it is binned.

use std::collections::HashMap;

use super::draw::{DrawCall, Preshaded, Topology};
use super::fetch;
use super::geometry::{self, GeometryOut};
use super::vertex;

/// Input primitives per window: bounds the shaded words held at once.
const WINDOW_PRIMS: usize = 1 << 14;

/// Vertices per primitive that transform feedback records for a draw: 1 (points), 2
/// (lines) or 3 (triangles), from the geometry shader's output or the draw mode (GL 4.5
/// core §13.3.1, table 13.1).
pub fn captured_vertices(call: &DrawCall) -> usize {
    match call.program.last_topology(call.topology) {
        Topology::Points => 1,
        Topology::Lines
        | Topology::LineStrip
        | Topology::LineLoop
        | Topology::LinesAdjacency
        | Topology::LineStripAdjacency => 2,
        _ => 3,
    }
}

/// Where the words of each (instance, vertex id) start in a `Preshaded::Vertices`, in
/// vertices.
type VertexIndex = HashMap<(u32, i64), u32>;

/// Primitives per vertex stream (PRIMITIVES_GENERATED of each, GL 4.5 core §13.4).
pub type StreamCounts = [u64; crate::ir::geometry::MAX_VERTEX_STREAMS as usize];

/// Runs the vertex processing stages of `call` and calls `sink` with the vertex stream
/// and the output words of every vertex of every primitive they produce, in order (1, 2
/// or 3 vertices; each slice holds the stage's output words, indexed by output slot).
/// Returns the number of primitives produced per stream (PRIMITIVES_GENERATED, GL 4.5
/// core §13.4), and with `keep` what it shaded, for the front end (`Preshaded`); a vertex
/// shared by several windows is then shaded once too.
pub fn capture(
    call: &DrawCall,
    keep_shaded: bool,
    sink: &mut dyn FnMut(u32, &[&[u32]]),
) -> (StreamCounts, Option<Preshaded>) {
    if call.program.gs.is_some() || call.program.tess.is_some() {
        return capture_geometry(call, keep_shaded, sink);
    }
    let elems = geometry::input_primitives(call);
    let per = match call.topology {
        Topology::Points => 1,
        Topology::Lines | Topology::LineStrip | Topology::LineLoop => 2,
        Topology::LinesAdjacency | Topology::LineStripAdjacency => 4,
        Topology::TrianglesAdjacency | Topology::TriangleStripAdjacency => 6,
        _ => 3,
    };
    // The vertices of each primitive that are not adjacency (GL 4.5 core §10.1.11–14).
    let keep: &[usize] = match per {
        1 => &[0],
        2 => &[0, 1],
        4 => &[1, 2],
        6 => &[0, 2, 4],
        _ => &[0, 1, 2],
    };
    // Odd triangles of a strip come with their first two vertices swapped (kept winding,
    // `geometry::input_primitives`): (i+1, i, i+2), the order Mesa records under the
    // last-vertex convention. Under the first-vertex convention it records (i, i+2, i+1),
    // the same winding with the provoking vertex first.
    let strip = matches!(call.topology, Topology::TriangleStrip);
    let first = call.state.provoking_first;
    let words = (call
        .program
        .vs_output_words
        .max(call.program.vs.output_words())) as usize;
    // With `keep_shaded`: every vertex shaded so far, by (instance, id).
    let mut kept: Option<(VertexIndex, Vec<u32>)> = keep_shaded.then(Default::default);
    let prims = elems.len() / per;
    let mut generated = 0u64;
    let mut shaded: Vec<u32> = Vec::new();
    let mut ids: Vec<i64> = Vec::new();
    let mut seen: HashMap<i64, u32> = HashMap::new();
    let mut recs: Vec<u32> = Vec::new();
    for instance in 0..call.vertices.instance_count {
        for start in (0..prims).step_by(WINDOW_PRIMS) {
            let end = (start + WINDOW_PRIMS).min(prims);
            let window = &elems[start * per..end * per];
            ids.clear();
            seen.clear();
            recs.clear();
            for &e in window {
                let id = fetch::vertex_id(&call.vertices, e);
                let r = *seen.entry(id).or_insert_with(|| {
                    ids.push(id);
                    ids.len() as u32 - 1
                });
                recs.push(r);
            }
            shaded.clear();
            match kept.as_mut() {
                None => {
                    shaded.resize(ids.len() * words, 0);
                    vertex::shade_words(call, &ids, instance, words, &mut shaded);
                }
                Some((index, data)) => {
                    let fresh: Vec<i64> = ids
                        .iter()
                        .copied()
                        .filter(|&id| !index.contains_key(&(instance, id)))
                        .collect();
                    let mut out = vec![0u32; fresh.len() * words];
                    vertex::shade_words(call, &fresh, instance, words, &mut out);
                    for (k, &id) in fresh.iter().enumerate() {
                        index.insert((instance, id), (data.len() / words.max(1)) as u32);
                        data.extend_from_slice(&out[k * words..(k + 1) * words]);
                    }
                    for id in &ids {
                        let at = index[&(instance, *id)] as usize * words;
                        shaded.extend_from_slice(&data[at..at + words]);
                    }
                }
            }
            for (p, prim) in window.chunks_exact(per).enumerate() {
                let at = |k: usize| {
                    let r = recs[p * per + keep[k]] as usize;
                    &shaded[r * words..(r + 1) * words]
                };
                generated += 1;
                match keep.len() {
                    1 => sink(0, &[at(0)]),
                    2 => sink(0, &[at(0), at(1)]),
                    _ => {
                        if strip && first && prim[0] > prim[1] {
                            sink(0, &[at(1), at(2), at(0)])
                        } else {
                            sink(0, &[at(0), at(1), at(2)])
                        }
                    }
                }
            }
        }
    }
    let mut counts = StreamCounts::default();
    counts[0] = generated;
    let kept = kept.map(|(index, data)| Preshaded::Vertices { words, index, data });
    (counts, kept)
}

/// `capture` of a draw with a geometry shader: the emitted vertices' words; with `keep`,
/// each window's output.
fn capture_geometry(
    call: &DrawCall,
    keep: bool,
    sink: &mut dyn FnMut(u32, &[&[u32]]),
) -> (StreamCounts, Option<Preshaded>) {
    let mut generated = StreamCounts::default();
    let gs = call.program.gs.as_deref();
    let (elems, n, window, vw) = match (gs, call.program.tess.is_some()) {
        (_, true) => (
            super::tess::input_patches(call),
            call.state.patch.vertices.max(1) as usize,
            super::tess::WINDOW_PATCHES,
            // A geometry shader after tessellation emits the captured vertices.
            gs.map_or(super::tess::vertex_words(call), |g| g.vertex_words as usize),
        ),
        (Some(g), false) => (
            geometry::input_primitives(call),
            g.input.vertices() as usize,
            geometry::window_prims(g),
            g.vertex_words as usize,
        ),
        (None, false) => return (generated, None),
    };
    let tess = call.program.tess.is_some();
    let mut kept = Vec::new();
    let prims = elems.len() / n;
    let first = call.state.provoking_first;
    let mut out = GeometryOut {
        words: Some(Vec::new()),
        ..GeometryOut::default()
    };
    for instance in 0..call.vertices.instance_count {
        for start in (0..prims).step_by(window) {
            let end = (start + window).min(prims);
            out.records.clear();
            out.prims.clear();
            if let Some(w) = out.words.as_mut() {
                w.clear();
            }
            let run = if tess {
                super::tess::run
            } else {
                geometry::run
            };
            run(
                call,
                instance,
                &elems[start * n..end * n],
                start as u32,
                &mut out,
            );
            let words = out.words.as_deref().unwrap_or(&[]);
            let at = |r: u32| {
                let r = r as usize;
                words.get(r * vw..(r + 1) * vw).unwrap_or(&[])
            };
            for p in &out.prims {
                let s = p.stream as u32;
                generated[p.stream as usize] += 1;
                let [a, b, c] = p.records;
                match p.n {
                    1 => sink(s, &[at(a)]),
                    2 => sink(s, &[at(a), at(b)]),
                    // An odd triangle of the strip arrives as (i+1, i, i+2), provoking
                    // position 1 under the first-vertex convention: record (i, i+2, i+1).
                    _ if first && p.provoking == 1 => sink(s, &[at(b), at(c), at(a)]),
                    _ => sink(s, &[at(a), at(b), at(c)]),
                }
            }
            if keep {
                kept.push(GeometryOut {
                    records: out.records.clone(),
                    prims: out.prims.clone(),
                    select: out.select.clone(),
                    words: None,
                });
            }
        }
    }
    (generated, keep.then_some(Preshaded::Geometry(kept)))
}
