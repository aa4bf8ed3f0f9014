//! The per-draw front end: vertex shading, primitive assembly (GL 4.5 core §10.1: strips
//! alternate winding, fans pivot on the first vertex, line loops close on it; the provoking
//! vertex follows glProvokingVertex, §13.6), clipping, setup and binning. Points and lines
//! become triangles here (`points.rs`, `lines.rs`), so everything after setup draws
//! triangles only; polygon mode LINE and POINT send a triangle's edges or vertices there.
//! Adjacency modes and primitive restart are rewritten into lists first (`restart.rs`). Large draws are cut into fixed
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
use super::{geometry, lines, points};

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

/// Number of primitives a topology makes of `count` vertices (GL 4.5 core §10.1).
pub fn prim_count(topology: Topology, count: u32) -> u32 {
    match topology {
        Topology::Points => count,
        Topology::Lines => count / 2,
        Topology::LineStrip => count.saturating_sub(1),
        Topology::LineLoop => {
            if count >= 2 {
                count
            } else {
                0
            }
        }
        Topology::Triangles => count / 3,
        Topology::TriangleStrip | Topology::TriangleFan => count.saturating_sub(2),
        Topology::LinesAdjacency => count / 4,
        Topology::LineStripAdjacency => count.saturating_sub(3),
        Topology::TrianglesAdjacency => count / 6,
        Topology::TriangleStripAdjacency => count.saturating_sub(4) / 2,
        // Patches never reach primitive assembly: tessellation makes the primitives
        // (`bin_geometry`).
        Topology::Patches => 0,
    }
}

/// Vertices per primitive of a list, strip, loop or fan topology.
pub fn prim_vertices(topology: Topology) -> usize {
    match topology {
        Topology::Points => 1,
        Topology::Lines | Topology::LineStrip | Topology::LineLoop => 2,
        _ => 3,
    }
}

/// The draw elements of primitive `i` (`prim_vertices` of them; the rest repeat the last),
/// in the order that keeps a strip's winding. `count` is the draw's vertex count (a line
/// loop closes on element 0). Adjacency topologies never get here (`restart::expand`).
#[inline]
pub fn prim_elements(topology: Topology, i: u32, count: u32) -> [u32; 3] {
    match topology {
        Topology::Points => [i; 3],
        Topology::Lines => [2 * i, 2 * i + 1, 2 * i + 1],
        Topology::LineStrip => [i, i + 1, i + 1],
        Topology::LineLoop => {
            let j = if i + 1 == count { 0 } else { i + 1 };
            [i, j, j]
        }
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
        _ => unreachable!("adjacency topologies are expanded to lists first"),
    }
}

/// Which of `prim_elements`' three vertices is the provoking one (GL 4.5 core §13.6,
/// table 13.2): the last under the default convention; under the first-vertex convention
/// vertex i of triangle i of a strip (position 0, or 1 where odd triangles swapped their first
/// two), vertex i + 1 of a fan (position 1), the first of a separate triangle.
#[inline]
pub fn provoking_position(topology: Topology, i: u32, first: bool) -> usize {
    match (topology, first) {
        (Topology::Points, _) => 0,
        (Topology::Lines | Topology::LineStrip | Topology::LineLoop, f) => !f as usize,
        (_, false) => 2,
        (Topology::TriangleStrip, true) => (i % 2) as usize,
        (Topology::TriangleFan, true) => 1,
        (_, true) => 0,
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

/// The elements primitives `prims` read (fans and line loops also read element 0).
fn window_elements(
    topology: Topology,
    prims: std::ops::Range<usize>,
    count: u32,
) -> std::ops::Range<u32> {
    let (p0, p1) = (prims.start as u32, prims.end as u32);
    match topology {
        Topology::Points => p0..p1,
        Topology::Lines => 2 * p0..2 * p1,
        Topology::LineStrip => p0..p1 + 1,
        Topology::LineLoop => p0..(p1 + 1).min(count),
        Topology::Triangles => 3 * p0..3 * p1,
        Topology::TriangleStrip => p0..p1 + 2,
        Topology::TriangleFan => p0 + 1..p1 + 2,
        _ => unreachable!("adjacency topologies are expanded to lists first"),
    }
}

/// Per-draw constants of point and line setup.
pub struct PrimParams {
    /// Fixed point size (glPointSize, clamped), or the record word of gl_PointSize.
    pub point_size: f32,
    pub size_at: Option<usize>,
    /// The varyings (indices into the draw's links) of gl_PointCoord.s and .t.
    pub sprite: [Option<usize>; 2],
    pub sprite_lower_left: bool,
    /// glLineWidth, clamped.
    pub line_width: f32,
    /// Polygon mode: 0 fill, 1 line, 2 point.
    pub polygon_mode: u8,
}

impl PrimParams {
    fn new(call: &DrawCall, stride: usize) -> PrimParams {
        let p = call.state.prims;
        let sprite = |slot: u32| call.program.varyings.iter().position(|l| l.vs_slot == slot);
        PrimParams {
            point_size: p.point_size,
            size_at: vertex::point_size_word(call).map(|_| stride - 1),
            sprite: [
                sprite(crate::ir::link::POINT_COORD_SLOT),
                sprite(crate::ir::link::POINT_COORD_SLOT + 1),
            ],
            sprite_lower_left: p.sprite_lower_left,
            line_width: p.line_width,
            polygon_mode: p.polygon_mode,
        }
    }
}

/// Shades, sets up and bins `call` into `scene`; returns the number of triangles binned.
/// Draws that cannot produce fragments (empty viewport or scissor, no vertices) are
/// dropped. `flush` is called between windows of a huge draw when the scene is full.
pub fn bin_draw(
    scene: &mut Scene,
    mut call: DrawCall,
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
    let float_depth = call
        .target
        .depth
        .as_ref()
        .is_some_and(|d| d.format() == crate::sampler::Format::Depth32F);
    // A fragment shader reading gl_PrimitiveID without a geometry shader needs each
    // primitive's number, which the primitive loop of `bin_geometry` gives.
    if call.program.gs.is_some()
        || call.program.tess.is_some()
        || call.program.vs_select_slots.iter().any(Option::is_some)
        || call.program.primitive_id_varying().is_some()
    {
        return bin_geometry(scene, call, interp, float_depth, scratch, flush);
    }
    let Some(mut ctx) = SetupCtx::new(&call.state, call.target.width, call.target.height, interp)
    else {
        return 0;
    };
    ctx.float_depth = float_depth;
    super::restart::expand(&mut call);
    let prims = prim_count(call.topology, call.vertices.count) as usize;
    if prims == 0 || call.vertices.instance_count == 0 {
        return 0;
    }
    let prog = &call.program;
    let early_depth =
        (!prog.uses_discard && prog.frag_depth_slot.is_none()) || prog.early_fragment_tests;
    let call = Arc::new(call);
    let stride = vertex::record_stride(&call);
    let planes = ClipPlanes::for_draw(
        call.state.viewport,
        &call.state.clip,
        vertex::clip_distance_words(&call),
    )
    .with_cull_distances(vertex::cull_distance_words(&call));
    let params = PrimParams::new(&call, stride);
    let pool = pool.filter(|p| p.current_num_threads() > 1);
    let mut total = 0;
    let window_prims = match scratch.window_prims {
        0 => WINDOW_PRIMS,
        n => n,
    };
    let list_of = |window: std::ops::Range<usize>| {
        let elems = window_elements(call.topology, window, call.vertices.count);
        let pivot = matches!(call.topology, Topology::TriangleFan | Topology::LineLoop);
        VertexList::new(&call, elems, pivot)
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
            let (tris, tri_planes) = scene.take_lists();
            let mut out = ChunkOut {
                tris,
                planes: tri_planes,
                bins: std::mem::take(&mut scratch.bins),
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
                        &call, &ctx, &planes, &params, list, records, stride, i as u32, clipper, o,
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
            total += push_binned(scene, &call, out, early_depth, None, scratch);
            if scene.is_full() {
                flush(scene);
            }
        }
    }
    total
}

/// Moves one window's triangles into the scene as a binned draw (into layer `layer` of
/// a layered framebuffer when a geometry shader chose one); returns how many.
fn push_binned(
    scene: &mut Scene,
    call: &Arc<DrawCall>,
    mut out: ChunkOut,
    early_depth: bool,
    layer: Option<u32>,
    scratch: &mut FrontScratch,
) -> usize {
    let bins = std::mem::take(&mut out.bins);
    let n = out.tris.len();
    if n != 0 {
        scene.cover(call.target.width, call.target.height);
        let draw = scene.draws.len() as u32;
        scene.triangles += n;
        scene.draws.push(Arc::new(BinnedDraw {
            call: call.clone(),
            tris: out.tris,
            planes: out.planes,
            early_depth,
            shared: Default::default(),
            layer,
        }));
        for &(tx, ty, tri) in &bins {
            scene.push(tx as usize, ty as usize, Command::Tri { draw, tri });
        }
    }
    scratch.bins = bins;
    n
}

/// `bin_draw` of a draw with a geometry shader (`geometry.rs`): instances in order, each
/// instance's input primitives in windows, the emitted primitives assembled, clipped, set
/// up and binned in their order on this thread. A draw without one whose vertex shader
/// writes gl_Layer or gl_ViewportIndex comes here too (`shade_selecting`): its primitives
/// are made as a pass-through geometry stage would emit them.
///
/// A shader that writes gl_ViewportIndex sets each primitive up with its provoking
/// vertex's viewport, depth range and scissor rectangle (GL 4.5 core §13.6.1; an index
/// outside 0..GL_MAX_VIEWPORTS picks viewport 0, as llvmpipe does). One that writes
/// gl_Layer into a layered framebuffer bins each primitive into its provoking vertex's
/// layer (§9.8; an index past the last layer, or negative, picks the last, as llvmpipe
/// clamps it): a window's primitives of one layer are one binned draw, in emission order;
/// different layers are different images, so their relative order changes no pixel.
fn bin_geometry(
    scene: &mut Scene,
    mut call: DrawCall,
    interp: Vec<crate::ir::Interpolation>,
    float_depth: bool,
    scratch: &mut FrontScratch,
    flush: &mut dyn FnMut(&mut Scene),
) -> usize {
    let g = call.program.gs.clone();
    let t = call.program.tess.clone();
    let [layer_slot, viewport_slot] = call.program.select_slots();
    let sel = call.select.clone();
    let viewports = match (&sel, viewport_slot) {
        (Some(s), Some(_)) if !s.viewports.is_empty() => s.viewports.clone(),
        _ => vec![super::draw::ViewportState {
            viewport: call.state.viewport,
            depth_range: call.state.depth_range,
            scissor: call.state.scissor,
        }],
    };
    let layers = match (&sel, layer_slot) {
        (Some(s), Some(_)) => s.layers.len() as u32,
        _ => 0,
    };
    // Setup and clip planes per viewport; None where nothing can be drawn.
    let views: Vec<Option<(SetupCtx, ClipPlanes)>> = viewports
        .iter()
        .map(|v| {
            let mut state = call.state;
            state.viewport = v.viewport;
            state.depth_range = v.depth_range;
            state.scissor = v.scissor;
            let mut ctx = SetupCtx::new(
                &state,
                call.target.width,
                call.target.height,
                interp.clone(),
            )?;
            ctx.float_depth = float_depth;
            let planes = ClipPlanes::for_draw(
                v.viewport,
                &call.state.clip,
                vertex::clip_distance_words(&call),
            )
            .with_cull_distances(vertex::cull_distance_words(&call));
            Some((ctx, planes))
        })
        .collect();
    if views.iter().all(Option::is_none) {
        return 0;
    }
    let prog = &call.program;
    let early_depth =
        (!prog.uses_discard && prog.frag_depth_slot.is_none()) || prog.early_fragment_tests;
    // The geometry stage's input primitives (`n` elements each), or the draw's own.
    let (elems, n, prims, window) = match (&g, &t) {
        // Tessellation: patches (a geometry shader after it is refused at link).
        (_, Some(_)) => {
            let elems = super::tess::input_patches(&call);
            let n = call.state.patch.vertices.max(1) as usize;
            let prims = elems.len() / n;
            (elems, n, prims, super::tess::WINDOW_PATCHES)
        }
        (Some(g), None) => {
            let elems = geometry::input_primitives(&call);
            let n = g.input.vertices() as usize;
            let prims = elems.len() / n;
            (elems, n, prims, geometry::window_prims(g))
        }
        (None, None) => {
            super::restart::expand(&mut call);
            let prims = prim_count(call.topology, call.vertices.count) as usize;
            (Vec::new(), 0, prims, SELECTING_WINDOW_PRIMS)
        }
    };
    if prims == 0 || call.vertices.instance_count == 0 {
        return 0;
    }
    let call = Arc::new(call);
    let stride = vertex::record_stride(&call);
    let params = PrimParams::new(&call, stride);
    let mut total = 0;
    let mut gs_out = geometry::GeometryOut::default();
    // Transform feedback's capture ran the shaders already: its windows, in this order.
    let mut kept = match call.preshaded.as_deref() {
        Some(super::draw::Preshaded::Geometry(outs)) => Some(outs.iter()),
        _ => None,
    };
    // Per layer used in the window, its output (in order of first use); `slot_of[l]` is
    // its index there.
    let mut outs: Vec<(Option<u32>, ChunkOut)> = Vec::new();
    let mut slot_of: Vec<u32> = vec![u32::MAX; layers as usize];
    // The flat word of gl_PrimitiveID when the rasterizer counts it: without a geometry
    // or tessellation stage each drawn primitive of `shade_selecting` is one of the draw
    // (tessellation writes the patch's number itself).
    let prim_id_at = call
        .program
        .primitive_id_varying()
        .filter(|_| g.is_none() && t.is_none());
    let mut flat_copy: Vec<f32> = Vec::new();
    for instance in 0..call.vertices.instance_count {
        for start in (0..prims).step_by(window) {
            let end = (start + window).min(prims);
            gs_out.records.clear();
            gs_out.prims.clear();
            gs_out.select.clear();
            match kept.as_mut().and_then(|k| k.next()) {
                Some(done) => {
                    gs_out.records.extend_from_slice(&done.records);
                    gs_out.prims.extend_from_slice(&done.prims);
                    gs_out.select.extend_from_slice(&done.select);
                }
                // gl_PrimitiveID counts patches from 0 in each instance.
                None if t.is_some() => super::tess::run(
                    &call,
                    instance,
                    &elems[start * n..end * n],
                    start as u32,
                    &mut gs_out,
                ),
                // gl_PrimitiveIDIn counts from 0 in each instance.
                None if g.is_some() => geometry::run(
                    &call,
                    instance,
                    &elems[start * n..end * n],
                    start as u32,
                    &mut gs_out,
                ),
                None => shade_selecting(&call, instance, start as u32..end as u32, &mut gs_out),
            }
            scratch.bins.clear();
            let (tris, tri_planes) = scene.take_lists();
            outs.clear();
            outs.push((
                None,
                ChunkOut {
                    tris,
                    planes: tri_planes,
                    bins: std::mem::take(&mut scratch.bins),
                },
            ));
            slot_of.fill(u32::MAX);
            // Only vertex stream 0 is rasterized (GL 4.5 core §11.3.4.3).
            for (k, p) in gs_out
                .prims
                .iter()
                .enumerate()
                .filter(|(_, p)| p.stream == 0)
            {
                let v = p
                    .records
                    .map(|r| &gs_out.records[r as usize * stride..(r as usize + 1) * stride]);
                let provoking = p.records[p.provoking as usize] as usize;
                let [layer, vp] = gs_out.select.get(provoking).copied().unwrap_or([0, 0]);
                let Some(Some((ctx, planes))) = views.get(vp as usize).or(views.first()) else {
                    continue;
                };
                let out = if layers == 0 {
                    &mut outs[0].1
                } else {
                    // Unsigned, so a negative layer is past the last one too.
                    let l = layer.min(layers - 1);
                    let k = &mut slot_of[l as usize];
                    if *k == u32::MAX {
                        if outs[0].0.is_none() {
                            outs[0].0 = Some(l);
                            *k = 0;
                        } else {
                            *k = outs.len() as u32;
                            outs.push((Some(l), ChunkOut::default()));
                        }
                    }
                    &mut outs[*k as usize].1
                };
                let mut flat = &v[p.provoking as usize][4..];
                if let Some(at) = prim_id_at {
                    flat_copy.clear();
                    flat_copy.extend_from_slice(flat);
                    flat_copy[at] = f32::from_bits((start + k) as u32);
                    flat = &flat_copy;
                }
                assemble_vertices(
                    ctx,
                    planes,
                    &params,
                    v,
                    p.n as usize,
                    flat,
                    stride,
                    &mut scratch.clipper,
                    out,
                );
            }
            for (layer, out) in outs.drain(..) {
                total += push_binned(scene, &call, out, early_depth, layer, scratch);
            }
            if scene.is_full() {
                flush(scene);
            }
        }
    }
    total
}

/// Primitives per window of a draw whose vertex shader selects layers or viewports.
const SELECTING_WINDOW_PRIMS: usize = 1 << 14;

/// The vertex stage of a draw without a geometry stage whose vertex shader writes gl_Layer
/// or gl_ViewportIndex (`ProgramCode::vs_select_slots`): primitives `prims` of `instance`
/// as records, primitives and selections, as `geometry::run` makes them of emitted
/// vertices (each vertex of the window shaded once; strips keep their winding and
/// provoking vertex, `prim_elements`, `provoking_position`).
fn shade_selecting(
    call: &DrawCall,
    instance: u32,
    prims: std::ops::Range<u32>,
    out: &mut geometry::GeometryOut,
) {
    let n = prim_vertices(call.topology);
    let mut ids: Vec<i64> = Vec::new();
    let mut seen: std::collections::HashMap<i64, u32> = std::collections::HashMap::new();
    let mut recs: Vec<u32> = Vec::with_capacity(prims.len() * n);
    for i in prims.clone() {
        for &e in &prim_elements(call.topology, i, call.vertices.count)[..n] {
            let id = super::fetch::vertex_id(&call.vertices, e);
            recs.push(*seen.entry(id).or_insert_with(|| {
                ids.push(id);
                ids.len() as u32 - 1
            }));
        }
    }
    let prog = &call.program;
    let words = prog.vs_output_words.max(prog.vs.output_words()) as usize;
    let mut shaded = vec![0u32; ids.len() * words];
    vertex::shade_words(call, &ids, instance, words, &mut shaded);
    let stride = vertex::record_stride(call);
    let filler = vertex::RecordFiller::new(call);
    let [layer, viewport] = prog.vs_select_slots;
    out.records.resize(ids.len() * stride, 0.0);
    for (rec, w) in out
        .records
        .chunks_exact_mut(stride)
        .zip(shaded.chunks_exact(words.max(1)))
    {
        let word = |s: u32| w.get(s as usize).copied().unwrap_or(0);
        filler.fill(rec, word);
        out.select
            .push([layer.map_or(0, word), viewport.map_or(0, word)]);
    }
    for (k, i) in prims.enumerate() {
        let r = &recs[k * n..(k + 1) * n];
        out.prims.push(geometry::OutPrim {
            records: [r[0], r[1.min(n - 1)], r[2.min(n - 1)]],
            n: n as u8,
            provoking: provoking_position(call.topology, i, call.state.provoking_first) as u8,
            stream: 0,
        });
    }
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
    params: &PrimParams,
    list: &VertexList,
    records: &[f32],
    stride: usize,
    i: u32,
    clipper: &mut Clipper,
    out: &mut ChunkOut,
) {
    let elems = prim_elements(call.topology, i, call.vertices.count);
    let v = elems.map(|e| {
        let r = list.record(e);
        &records[r * stride..(r + 1) * stride]
    });
    let n = prim_vertices(call.topology);
    let flat = &v[provoking_position(call.topology, i, call.state.provoking_first)][4..];
    assemble_vertices(ctx, planes, params, v, n, flat, stride, clipper, out);
}

/// Clips, sets up and bins the primitive of vertices `v[..n]` (a point, a line or a
/// triangle) whose flat varyings are `flat`.
#[allow(clippy::too_many_arguments)]
fn assemble_vertices(
    ctx: &SetupCtx,
    planes: &ClipPlanes,
    params: &PrimParams,
    v: [&[f32]; 3],
    n: usize,
    flat: &[f32],
    stride: usize,
    clipper: &mut Clipper,
    out: &mut ChunkOut,
) {
    // Non-finite positions have no meaningful clip result: drop the primitive.
    if v[..n].iter().any(|v| !v[..4].iter().all(|c| c.is_finite())) {
        return;
    }
    if planes.culls(&v[..n]) {
        return;
    }
    let first = out.tris.len();
    match n {
        1 => {
            points::setup_point(
                ctx,
                planes,
                params,
                v[0],
                flat,
                true,
                0.0,
                &mut out.tris,
                &mut out.planes,
            );
        }
        2 => {
            lines::setup_line(
                ctx,
                planes,
                params,
                [v[0], v[1]],
                stride,
                flat,
                true,
                0.0,
                clipper,
                &mut out.tris,
                &mut out.planes,
            );
        }
        _ if params.polygon_mode != 0 => {
            polygon_outline(ctx, planes, params, v, stride, flat, clipper, out);
        }
        _ => assemble_triangle(ctx, planes, v, stride, flat, clipper, out),
    }
    for t in first..out.tris.len() {
        bin_triangle(&out.tris[t], t as u32, &mut out.bins);
    }
}

/// Polygon mode GL_LINE / GL_POINT (GL 4.5 core §14.6.4): a triangle that culling keeps
/// draws its three edges as lines or its three vertices as points, all with the triangle's
/// facing and flat values. Facing comes from the window positions of the unclipped vertices
/// (a triangle with a vertex behind the eye (w <= 0) is dropped in these modes).
#[allow(clippy::too_many_arguments)]
fn polygon_outline(
    ctx: &SetupCtx,
    planes: &ClipPlanes,
    params: &PrimParams,
    v: [&[f32]; 3],
    stride: usize,
    flat: &[f32],
    clipper: &mut Clipper,
    out: &mut ChunkOut,
) {
    if v.iter().any(|v| v[3] <= 0.0) {
        return;
    }
    let Some(front) = ctx.facing(v) else {
        return;
    };
    let z_add = ctx.depth_offset(
        if params.polygon_mode == 2 { 4 } else { 2 },
        v.map(|v| ctx.window(v)),
    );
    if params.polygon_mode == 2 {
        for p in v {
            points::setup_point(
                ctx,
                planes,
                params,
                p,
                flat,
                front,
                z_add,
                &mut out.tris,
                &mut out.planes,
            );
        }
    } else {
        for k in 0..3 {
            lines::setup_line(
                ctx,
                planes,
                params,
                [v[k], v[(k + 1) % 3]],
                stride,
                flat,
                front,
                z_add,
                clipper,
                &mut out.tris,
                &mut out.planes,
            );
        }
    }
}

/// Clips and sets up triangle `v`.
fn assemble_triangle(
    ctx: &SetupCtx,
    planes: &ClipPlanes,
    v: [&[f32]; 3],
    stride: usize,
    flat: &[f32],
    clipper: &mut Clipper,
    out: &mut ChunkOut,
) {
    let codes = v.map(|v| planes.outcode(v));
    if codes[0] & codes[1] & codes[2] != 0 {
        return;
    }
    if codes[0] | codes[1] | codes[2] == 0 && ctx.depth_clamp.is_none() {
        setup::setup_triangle(ctx, v, flat, None, &mut out.tris, &mut out.planes);
    } else {
        let poly = clipper.clip(planes, v, stride, codes[0] | codes[1] | codes[2]);
        if ctx.depth_clamp.is_some() {
            let poly = poly.to_vec();
            return assemble_depth_clamped(ctx, &poly, stride, flat, out);
        }
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
}

/// GL_DEPTH_CLAMP with a depth range narrower than [0, 1] (GL 4.5 core §13.5): polygon
/// `poly` (already clipped, near and far planes excepted) is split where it crosses the
/// near and far planes; the parts beyond them get the plane's z, so every fragment there has
/// the clamped depth n or f exactly, and the part between keeps its own (window z is clamped
/// per vertex too, `SetupCtx::window`, for rounding at the cut).
fn assemble_depth_clamped(
    ctx: &SetupCtx,
    poly: &[f32],
    stride: usize,
    flat: &[f32],
    out: &mut ChunkOut,
) {
    let n = poly.len() / stride;
    if n < 3 {
        return;
    }
    let at = |k: usize| &poly[k * stride..(k + 1) * stride];
    let mut area = 0.0f64;
    for k in 0..n {
        let (a, b) = (ctx.window(at(k)), ctx.window(at((k + 1) % n)));
        area += a[0] * b[1] - b[0] * a[1];
    }
    if area.is_nan() || area == 0.0 {
        return;
    }
    let near = |v: &[f32]| v[2] - ctx.plane_z(false, v[3]);
    let far = |v: &[f32]| ctx.plane_z(true, v[3]) - v[2];
    let (rest, mut before) = super::clip::split_polygon(poly, stride, near);
    let (between, mut beyond) = super::clip::split_polygon(&rest, stride, far);
    for (part, far) in [(&mut before, false), (&mut beyond, true)] {
        for v in part.chunks_exact_mut(stride) {
            v[2] = ctx.plane_z(far, v[3]);
        }
    }
    for part in [&before, &between, &beyond] {
        let m = part.len() / stride;
        let at = |k: usize| &part[k * stride..(k + 1) * stride];
        for k in 1..m.saturating_sub(1) {
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
        assert_eq!(prim_elements(Topology::TriangleStrip, 0, 100), [0, 1, 2]);
        assert_eq!(prim_elements(Topology::TriangleStrip, 1, 100), [2, 1, 3]);
        assert_eq!(prim_elements(Topology::TriangleStrip, 2, 100), [2, 3, 4]);
        assert_eq!(prim_elements(Topology::TriangleFan, 2, 100), [0, 3, 4]);
        assert_eq!(prim_elements(Topology::Triangles, 1, 100), [3, 4, 5]);
        // First-vertex convention: strip triangle i → vertex i, fan triangle i → vertex i+1.
        let first = |t, i| prim_elements(t, i, 100)[provoking_position(t, i, true)];
        assert_eq!(first(Topology::TriangleStrip, 0), 0);
        assert_eq!(first(Topology::TriangleStrip, 1), 1);
        assert_eq!(first(Topology::TriangleStrip, 2), 2);
        assert_eq!(first(Topology::TriangleFan, 2), 3);
        assert_eq!(first(Topology::Triangles, 1), 3);
        assert_eq!(provoking_position(Topology::TriangleFan, 2, false), 2);
    }
}
