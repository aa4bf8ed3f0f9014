//! The per-draw front end: vertex shading, primitive assembly (GL 4.5 core §10.1: strips
//! alternate winding, fans pivot on the first vertex; the provoking vertex is the last one,
//! §13.6 LAST_VERTEX_CONVENTION), clipping, setup and binning. Large draws are cut into fixed
//! chunks of vertices and of primitives that run in parallel on the rasterizer's pool and are
//! merged in primitive order; the chunk size never depends on the thread count, so neither
//! do the results.

use std::sync::Arc;

use rayon::prelude::*;

use super::clip::{ClipPlanes, Clipper};
use super::draw::{DrawCall, Topology};
use super::scene::{BinnedDraw, Command, Scene, TILE, TILE_SHIFT};
use super::setup::{self, Plane, SetupCtx, Triangle};
use super::vertex::{self, VertexList};

/// Vertices per shading chunk.
const VERTEX_CHUNK: usize = 1024;
/// Primitives per setup/binning chunk.
const PRIM_CHUNK: usize = 1024;

/// Output of one chunk of primitives.
#[derive(Default)]
struct ChunkOut {
    tris: Vec<Triangle>,
    planes: Vec<Plane>,
    /// (tile x, tile y, triangle index in `tris`), in primitive order.
    bins: Vec<(u32, u32, u32)>,
}

/// Number of triangles a topology makes of `count` vertices.
pub fn prim_count(topology: Topology, count: u32) -> u32 {
    match topology {
        Topology::Triangles => count / 3,
        Topology::TriangleStrip | Topology::TriangleFan => count.saturating_sub(2),
    }
}

/// The draw elements of triangle `i`, provoking vertex last.
#[inline]
pub fn prim_elements(topology: Topology, i: u32) -> [u32; 3] {
    match topology {
        Topology::Triangles => [3 * i, 3 * i + 1, 3 * i + 2],
        // GL 4.5 core §10.1.3: odd triangles swap their first two vertices so that every
        // triangle of the strip has the same winding.
        Topology::TriangleStrip => {
            if i.is_multiple_of(2) {
                [i, i + 1, i + 2]
            } else {
                [i + 1, i, i + 2]
            }
        }
        Topology::TriangleFan => [0, i + 1, i + 2],
    }
}

/// Which of `prim_elements`' three vertices is the provoking one (GL 4.5 core §13.6,
/// table 13.2): the last under the default convention; under the first-vertex convention
/// vertex i of triangle i of a strip (position 0, or 1 where odd triangles swapped their first
/// two), vertex i + 1 of a fan (position 1), the first of a separate triangle.
#[inline]
pub fn provoking_position(topology: Topology, i: u32, first: bool) -> usize {
    if !first {
        return 2;
    }
    match topology {
        Topology::Triangles => 0,
        Topology::TriangleStrip => (i % 2) as usize,
        Topology::TriangleFan => 1,
    }
}

/// Buffers of the front end kept from draw to draw (a draw's triangles and planes move into
/// the scene; these do not).
#[derive(Default)]
pub struct FrontScratch {
    /// Primitives per window; 0 means `WINDOW_PRIMS` (tests set small windows).
    pub window_prims: usize,
    records: Vec<f32>,
    bins: Vec<(u32, u32, u32)>,
    clipper: Clipper,
}

/// Primitives per window: a draw is shaded and set up one window at a time, so the
/// memory it needs before the scene can flush is bounded whatever its size.
const WINDOW_PRIMS: usize = 1 << 18;

/// The elements primitives `prims` read (fans also read element 0).
fn window_elements(topology: Topology, prims: std::ops::Range<usize>) -> std::ops::Range<u32> {
    let (p0, p1) = (prims.start as u32, prims.end as u32);
    match topology {
        Topology::Triangles => 3 * p0..3 * p1,
        Topology::TriangleStrip => p0..p1 + 2,
        Topology::TriangleFan => p0 + 1..p1 + 2,
    }
}

/// Shades, sets up and bins `call` into `scene`; returns the number of triangles binned.
/// Draws that cannot produce fragments (empty viewport or scissor, no vertices) are
/// dropped. `flush` is called between windows of a huge draw when the scene is full.
pub fn bin_draw(
    scene: &mut Scene,
    call: DrawCall,
    pool: Option<&rayon::ThreadPool>,
    scratch: &mut FrontScratch,
    flush: &mut dyn FnMut(&mut Scene),
) -> usize {
    let interp = call
        .program
        .varyings
        .iter()
        .map(|l| l.interpolation)
        .collect();
    let Some(ctx) = SetupCtx::new(&call.state, call.target.width, call.target.height, interp)
    else {
        return 0;
    };
    let prims = prim_count(call.topology, call.vertices.count) as usize;
    if prims == 0 || call.vertices.instance_count == 0 {
        return 0;
    }
    let prog = &call.program;
    let early_depth =
        (!prog.uses_discard && prog.frag_depth_slot.is_none()) || prog.early_fragment_tests;
    let call = Arc::new(call);
    let planes = ClipPlanes::new(call.state.viewport);
    let stride = vertex::record_stride(&call);
    let pool = pool.filter(|p| p.current_num_threads() > 1);
    let mut total = 0;
    let window_prims = match scratch.window_prims {
        0 => WINDOW_PRIMS,
        n => n,
    };
    let list_of = |window: std::ops::Range<usize>| {
        let elems = window_elements(call.topology, window);
        VertexList::new(&call, elems, call.topology == Topology::TriangleFan)
    };
    // One window (the common case): list the vertices once for every instance.
    let single = (prims <= window_prims).then(|| list_of(0..prims));
    // GL 4.5 core §10.5: instances in order, each instance's primitives in order.
    for instance in 0..call.vertices.instance_count {
        for window in (0..prims).step_by(window_prims) {
            let window = window..(window + window_prims).min(prims);
            let owned;
            let list = match &single {
                Some(l) => l,
                None => {
                    owned = list_of(window.clone());
                    &owned
                }
            };
            let records = &mut scratch.records;
            records.clear();
            records.resize(list.ids.len() * stride, 0.0);
            scratch.bins.clear();
            let mut out = ChunkOut {
                bins: std::mem::take(&mut scratch.bins),
                ..ChunkOut::default()
            };
            let chunks = list.ids.len().div_ceil(VERTEX_CHUNK);
            match pool {
                Some(pool) if chunks > 1 => pool.install(|| {
                    records
                        .par_chunks_mut(VERTEX_CHUNK * stride)
                        .zip(list.ids.par_chunks(VERTEX_CHUNK))
                        .for_each(|(rec, ids)| vertex::shade(&call, ids, instance, rec));
                }),
                _ => vertex::shade(&call, &list.ids, instance, records),
            }
            let records = &records[..];
            let run = |range: std::ops::Range<usize>, o: &mut ChunkOut, clipper: &mut Clipper| {
                for i in range {
                    assemble(
                        &call, &ctx, &planes, list, records, stride, i as u32, clipper, o,
                    );
                }
            };
            let chunks = window.len().div_ceil(PRIM_CHUNK);
            match pool {
                Some(pool) if chunks > 1 => {
                    let parts: Vec<ChunkOut> = pool.install(|| {
                        (0..chunks)
                            .into_par_iter()
                            .map(|c| {
                                let mut o = ChunkOut::default();
                                let mut clipper = Clipper::default();
                                let start = window.start + c * PRIM_CHUNK;
                                run(
                                    start..(start + PRIM_CHUNK).min(window.end),
                                    &mut o,
                                    &mut clipper,
                                );
                                o
                            })
                            .collect()
                    });
                    for p in parts {
                        merge(&mut out, p);
                    }
                }
                // Small draws: straight into the draw's lists, no merge.
                _ => run(window.clone(), &mut out, &mut scratch.clipper),
            }
            let bins = std::mem::take(&mut out.bins);
            if !out.tris.is_empty() {
                total += out.tris.len();
                scene.cover(call.target.width, call.target.height);
                let draw = scene.draws.len() as u32;
                scene.triangles += out.tris.len();
                scene.draws.push(Arc::new(BinnedDraw {
                    call: call.clone(),
                    tris: out.tris,
                    planes: out.planes,
                    early_depth,
                }));
                for &(tx, ty, tri) in &bins {
                    scene.push(tx as usize, ty as usize, Command::Tri { draw, tri });
                }
            }
            scratch.bins = bins;
            if scene.is_full() {
                flush(scene);
            }
        }
    }
    total
}

fn merge(out: &mut ChunkOut, part: ChunkOut) {
    let tri_base = out.tris.len() as u32;
    let plane_base = out.planes.len() as u32;
    out.tris.extend(part.tris.into_iter().map(|mut t| {
        t.varyings += plane_base;
        t
    }));
    out.planes.extend(part.planes);
    out.bins
        .extend(part.bins.into_iter().map(|(x, y, t)| (x, y, t + tri_base)));
}

/// Assembles, clips, sets up and bins primitive `i`.
#[allow(clippy::too_many_arguments)]
fn assemble(
    call: &DrawCall,
    ctx: &SetupCtx,
    planes: &ClipPlanes,
    list: &VertexList,
    records: &[f32],
    stride: usize,
    i: u32,
    clipper: &mut Clipper,
    out: &mut ChunkOut,
) {
    let elems = prim_elements(call.topology, i);
    let v = elems.map(|e| {
        let r = list.record(e);
        &records[r * stride..(r + 1) * stride]
    });
    // Non-finite positions have no meaningful clip result: drop the primitive.
    if v.iter().any(|v| !v[..4].iter().all(|c| c.is_finite())) {
        return;
    }
    let flat = &v[provoking_position(call.topology, i, call.state.provoking_first)][4..];
    let codes = v.map(|v| planes.outcode(v));
    if codes[0] & codes[1] & codes[2] != 0 {
        return;
    }
    let first = out.tris.len();
    if codes[0] | codes[1] | codes[2] == 0 {
        setup::setup_triangle(ctx, v, flat, None, &mut out.tris, &mut out.planes);
    } else {
        let poly = clipper.clip(planes, v, stride, codes[0] | codes[1] | codes[2]);
        let n = poly.len() / stride;
        let at = |k: usize| &poly[k * stride..(k + 1) * stride];
        // The polygon's orientation (shoelace over window positions) gives every piece the
        // same facing, whatever snapping does to thin pieces.
        let mut area = 0.0f64;
        for k in 0..n {
            let (a, b) = (ctx.window(at(k)), ctx.window(at((k + 1) % n)));
            area += a[0] * b[1] - b[0] * a[1];
        }
        if area.is_nan() || area == 0.0 {
            return;
        }
        for k in 1..n.saturating_sub(1) {
            setup::setup_triangle(
                ctx,
                [at(0), at(k), at(k + 1)],
                flat,
                Some(area > 0.0),
                &mut out.tris,
                &mut out.planes,
            );
        }
    }
    for t in first..out.tris.len() {
        bin_triangle(&out.tris[t], t as u32, &mut out.bins);
    }
}

/// Lists the tiles triangle `t` may cover: those its bbox touches that no edge rejects.
fn bin_triangle(tri: &Triangle, t: u32, bins: &mut Vec<(u32, u32, u32)>) {
    let [x0, y0, x1, y1] = tri.bbox;
    for ty in (y0 >> TILE_SHIFT)..=(y1 >> TILE_SHIFT) {
        for tx in (x0 >> TILE_SHIFT)..=(x1 >> TILE_SHIFT) {
            let r = setup::intersect(
                [
                    tx * TILE,
                    ty * TILE,
                    tx * TILE + TILE - 1,
                    ty * TILE + TILE - 1,
                ],
                tri.bbox,
            );
            if tri
                .edges
                .iter()
                .all(|e| e.max_over(r[0], r[1], r[2], r[3]) >= 0)
            {
                bins.push((tx as u32, ty as u32, t));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_and_fan_assembly_keep_winding_and_provoking_vertex() {
        assert_eq!(prim_count(Topology::Triangles, 7), 2);
        assert_eq!(prim_count(Topology::TriangleStrip, 5), 3);
        assert_eq!(prim_count(Topology::TriangleFan, 1), 0);
        assert_eq!(prim_elements(Topology::TriangleStrip, 0), [0, 1, 2]);
        assert_eq!(prim_elements(Topology::TriangleStrip, 1), [2, 1, 3]);
        assert_eq!(prim_elements(Topology::TriangleStrip, 2), [2, 3, 4]);
        assert_eq!(prim_elements(Topology::TriangleFan, 2), [0, 3, 4]);
        assert_eq!(prim_elements(Topology::Triangles, 1), [3, 4, 5]);
        // First-vertex convention: strip triangle i → vertex i, fan triangle i → vertex i+1.
        let first = |t, i| prim_elements(t, i)[provoking_position(t, i, true)];
        assert_eq!(first(Topology::TriangleStrip, 0), 0);
        assert_eq!(first(Topology::TriangleStrip, 1), 1);
        assert_eq!(first(Topology::TriangleStrip, 2), 2);
        assert_eq!(first(Topology::TriangleFan, 2), 3);
        assert_eq!(first(Topology::Triangles, 1), 3);
        assert_eq!(provoking_position(Topology::TriangleFan, 2, false), 2);
    }
}
