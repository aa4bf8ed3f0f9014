//! Geometry shaders (GL 3.2 core §11.3, GLSL 1.50 §8.10) in the IR: the layout qualifiers,
//! the rewrite of `EmitVertex()` / `EndPrimitive()` into plain array stores (so the JIT and
//! the interpreter run a geometry shader like any other stage, one lane per input primitive
//! and invocation), the output record the rewrite leaves, and the link of the vertex
//! shader's outputs to the geometry shader's inputs. Running it over a draw is the
//! rasterizer's job (`raster::geometry`).
//!
//! Output record of one lane (words):
//! ```text
//!   0                 number of EmitVertex() / EmitStreamVertex() calls, all streams
//!                     together (the vertices past max_vertices are not stored: readers
//!                     take min(count, max_vertices))
//!   1 + k·(W+1)       flags of vertex k: bit 0 set when it starts a new strip (first
//!                     vertex, or EndPrimitive() came before it), bits 1..2 its vertex
//!                     stream (`vertex_flags`)
//!   2 + k·(W+1) + w   output word w of vertex k (W = `GeometryLayout::vertex_words`, the
//!                     words the module's `outputs` describe; every output is stored, the
//!                     reader takes those of the vertex's stream)
//! ```
//!
//! Vertex streams (GLSL 4.00 §4.3.8.2, GL 4.5 core §11.3.4.3): every output belongs to one
//! stream (`GeometryLayout::streams`), `EmitStreamVertex(n)` tags its vertex with stream
//! n, and max_vertices bounds the vertices of all streams together (GLSL 4.60 §4.4.2.3:
//! "the maximum number of vertices this shader will ever emit in a single invocation").
//! A shader that emits to a stream other than 0 must output points (a link error
//! otherwise), so strips, and `EndStreamPrimitive`, only matter for stream 0.

use std::collections::HashMap;

use super::link::LinkError;
use super::{
    ArrayDecl, ArrayId, BinaryOp, BuiltinOutput, InterfaceVar, Label, Module, Op, Scalar,
    ScalarKind, Stage, Stmt, Var,
};

/// `GL_MAX_GEOMETRY_OUTPUT_VERTICES` (llvmpipe's 1024).
pub const MAX_OUTPUT_VERTICES: u32 = 1024;
/// `GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS` (llvmpipe's 1024): max_vertices times the
/// components of one vertex.
pub const MAX_TOTAL_OUTPUT_COMPONENTS: u32 = 1024;
/// `GL_MAX_GEOMETRY_OUTPUT_COMPONENTS` (llvmpipe's 128).
pub const MAX_OUTPUT_COMPONENTS: u32 = 128;
/// `GL_MAX_GEOMETRY_INPUT_COMPONENTS` (llvmpipe's 64).
pub const MAX_INPUT_COMPONENTS: u32 = 64;
/// `GL_MAX_GEOMETRY_SHADER_INVOCATIONS` (llvmpipe's 32).
pub const MAX_INVOCATIONS: u32 = 32;
/// `GL_MAX_VERTEX_STREAMS` (GL 4.5 core table 23.62's minimum, llvmpipe's 4).
pub const MAX_VERTEX_STREAMS: u32 = 4;
/// Words of one `gl_in[]` element: gl_Position (4), gl_PointSize (1), gl_ClipDistance[8].
pub const PER_VERTEX_WORDS: u32 = 13;

/// `layout(...) in;` of a geometry shader.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum InputPrimitive {
    Points,
    Lines,
    LinesAdjacency,
    Triangles,
    TrianglesAdjacency,
}

impl InputPrimitive {
    /// Vertices per input primitive: the size of the input arrays (GLSL 1.50 §4.3.8.1).
    pub fn vertices(self) -> u32 {
        match self {
            InputPrimitive::Points => 1,
            InputPrimitive::Lines => 2,
            InputPrimitive::LinesAdjacency => 4,
            InputPrimitive::Triangles => 3,
            InputPrimitive::TrianglesAdjacency => 6,
        }
    }
    /// The layout qualifier's name.
    pub fn name(self) -> &'static str {
        match self {
            InputPrimitive::Points => "points",
            InputPrimitive::Lines => "lines",
            InputPrimitive::LinesAdjacency => "lines_adjacency",
            InputPrimitive::Triangles => "triangles",
            InputPrimitive::TrianglesAdjacency => "triangles_adjacency",
        }
    }
}

/// `layout(...) out;` of a geometry shader.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OutputPrimitive {
    Points,
    LineStrip,
    TriangleStrip,
}

/// A geometry shader's layout qualifiers, and the record its rewrite writes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GeometryLayout {
    pub input: Option<InputPrimitive>,
    pub output: Option<OutputPrimitive>,
    pub max_vertices: Option<u32>,
    /// `invocations = N`; `None` means 1.
    pub invocations: Option<u32>,
    /// Words of one emitted vertex, once `lower_emits` has rewritten the function.
    pub vertex_words: Option<u32>,
    /// The outputs of a vertex stream other than 0 (`layout(stream = N)`, GLSL 4.00
    /// §4.3.8.2), by output name; every other output is stream 0's.
    pub streams: Vec<(String, u32)>,
    /// Bit n: the shader calls `EmitStreamVertex(n)` (`EmitVertex()` is stream 0); set by
    /// `lower_emits`.
    pub emitted_streams: u8,
}

impl GeometryLayout {
    /// Invocations per input primitive.
    pub fn invocation_count(&self) -> u32 {
        self.invocations.unwrap_or(1)
    }

    /// The vertex stream of output `name` (0 unless `layout(stream = N)` chose another).
    pub fn stream_of(&self, name: &str) -> u32 {
        self.streams
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |&(_, s)| s)
    }
}

/// The flags word of an emitted vertex (see the module docs).
pub fn vertex_flags(starts_strip: bool, stream: u32) -> u32 {
    starts_strip as u32 | (stream & 3) << 1
}

/// (starts a strip, vertex stream) of a flags word.
pub fn read_vertex_flags(flags: u32) -> (bool, u32) {
    (flags & 1 != 0, (flags >> 1) & 3)
}

/// Output words per lane of a rewritten geometry shader (see the module docs).
pub fn record_words(max_vertices: u32, vertex_words: u32) -> u32 {
    1 + max_vertices * (vertex_words + 1)
}

/// First word of emitted vertex `k` (its strip flag; its outputs follow).
pub fn vertex_at(k: u32, vertex_words: u32) -> u32 {
    1 + k * (vertex_words + 1)
}

/// Rewrites a geometry module's `EmitVertex` / `EndPrimitive` into stores to per-output
/// arrays of `max_vertices` entries (out-of-range stores are dropped, which discards the
/// vertices past max_vertices as GLSL 1.50 §8.10 allows), wraps `main` so that `return`
/// still reaches the copy of those arrays into the output record, and records the vertex
/// size and the streams emitted to. A vertex of stream n > 0 stores the flags word
/// `vertex_flags(false, n)` and leaves stream 0's pending strip start alone;
/// `EndStreamPrimitive(n > 0)` does nothing (such streams are points). Does nothing
/// without a `max_vertices` (a link error then).
pub fn lower_emits(m: &mut Module) {
    let Some(maxv) = m.geometry.max_vertices else {
        return;
    };
    let f = &mut m.func;
    let vertex_words = f.outputs.len() as u32;
    let new_var = |vars: &mut Vec<ScalarKind>, k: ScalarKind| {
        vars.push(k);
        Var(vars.len() as u32 - 1)
    };
    let arrays: Vec<ArrayId> = f
        .outputs
        .iter()
        .map(|v| {
            f.arrays.push(ArrayDecl {
                kind: f.vars[v.0 as usize],
                len: maxv,
            });
            ArrayId(f.arrays.len() as u32 - 1)
        })
        .collect();
    f.arrays.push(ArrayDecl {
        kind: ScalarKind::I32,
        len: maxv,
    });
    let starts = ArrayId(f.arrays.len() as u32 - 1);
    let count = new_var(&mut f.vars, ScalarKind::I32);
    let pending = new_var(&mut f.vars, ScalarKind::I32);
    let one = new_var(&mut f.vars, ScalarKind::I32);
    let zero = new_var(&mut f.vars, ScalarKind::I32);
    // The flags of a vertex of stream n > 0 (a constant each).
    let tags: Vec<Var> = (1..MAX_VERTEX_STREAMS)
        .map(|_| new_var(&mut f.vars, ScalarKind::I32))
        .collect();
    let emits: Vec<Vec<Stmt>> = (0..MAX_VERTEX_STREAMS as usize)
        .map(|stream| {
            let stores = arrays
                .iter()
                .zip(&f.outputs)
                .map(|(&array, &value)| Stmt::StoreArray {
                    array,
                    index: count,
                    value,
                });
            let flags = match stream {
                0 => vec![
                    Stmt::StoreArray {
                        array: starts,
                        index: count,
                        value: pending,
                    },
                    Stmt::Assign {
                        dst: pending,
                        op: Op::Copy(zero),
                    },
                ],
                n => vec![Stmt::StoreArray {
                    array: starts,
                    index: count,
                    value: tags[n - 1],
                }],
            };
            stores
                .chain(flags)
                .chain([Stmt::Assign {
                    dst: count,
                    op: Op::Binary(BinaryOp::IAdd, count, one),
                }])
                .collect()
        })
        .collect();
    let end = vec![Stmt::Assign {
        dst: pending,
        op: Op::Copy(one),
    }];
    let label = Label(max_label(&f.body).map_or(0, |l| l + 1));
    let mut body = std::mem::take(&mut f.body);
    let mut emitted = 0u8;
    rewrite(&mut body, &emits, &end, label, &mut emitted);
    let mut out = vec![
        Stmt::Assign {
            dst: one,
            op: Op::Const(Scalar::I32(1)),
        },
        Stmt::Assign {
            dst: pending,
            op: Op::Const(Scalar::I32(1)),
        },
    ];
    for (n, &tag) in tags.iter().enumerate() {
        out.push(Stmt::Assign {
            dst: tag,
            op: Op::Const(Scalar::I32(vertex_flags(false, n as u32 + 1) as i32)),
        });
    }
    out.push(Stmt::Block { label, body });
    let mut outputs = vec![count];
    for k in 0..maxv {
        let index = new_var(&mut f.vars, ScalarKind::I32);
        out.push(Stmt::Assign {
            dst: index,
            op: Op::Const(Scalar::I32(k as i32)),
        });
        for array in std::iter::once(starts).chain(arrays.iter().copied()) {
            let kind = f.arrays[array.0 as usize].kind;
            let v = new_var(&mut f.vars, kind);
            out.push(Stmt::Assign {
                dst: v,
                op: Op::LoadArray { array, index },
            });
            outputs.push(v);
        }
    }
    f.body = out;
    f.outputs = outputs;
    f.output_rows.clear();
    m.geometry.vertex_words = Some(vertex_words);
    m.geometry.emitted_streams = emitted;
}

/// The highest label of `body`, nested lists included.
fn max_label(body: &[Stmt]) -> Option<u32> {
    let mut best = None;
    let mut pending: Vec<&[Stmt]> = vec![body];
    while let Some(list) = pending.pop() {
        for s in list {
            if let Stmt::Loop { label, .. } | Stmt::Block { label, .. } = s {
                best = best.max(Some(label.0));
            }
            pending.extend(s.children());
        }
    }
    best
}

/// Replaces the emits (`emits[stream]`), ends and returns of `body` (nested lists
/// included); sets bit n of `emitted` for each stream n emitted to. The front end only
/// makes streams below MAX_VERTEX_STREAMS; another is stream 0.
fn rewrite(body: &mut Vec<Stmt>, emits: &[Vec<Stmt>], end: &[Stmt], exit: Label, emitted: &mut u8) {
    let old = std::mem::take(body);
    for mut s in old {
        match &mut s {
            Stmt::EmitVertex(stream) => {
                let n = if *stream < MAX_VERTEX_STREAMS {
                    *stream
                } else {
                    0
                };
                *emitted |= 1 << n;
                body.extend_from_slice(&emits[n as usize]);
                continue;
            }
            Stmt::EndPrimitive(stream) => {
                if *stream == 0 {
                    body.extend_from_slice(end);
                }
                continue;
            }
            Stmt::Return => {
                body.push(Stmt::Leave(exit));
                continue;
            }
            Stmt::If {
                then_body,
                else_body,
                ..
            } => {
                rewrite(then_body, emits, end, exit, emitted);
                rewrite(else_body, emits, end, exit, emitted);
            }
            Stmt::Loop {
                body: b,
                continuing,
                ..
            } => {
                rewrite(b, emits, end, exit, emitted);
                rewrite(continuing, emits, end, exit, emitted);
            }
            Stmt::Block { body: b, .. } => rewrite(b, emits, end, exit, emitted),
            _ => {}
        }
        body.push(s);
    }
}

/// Where the draw takes one input word of the geometry shader from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InputSource {
    /// Output word `word` of the vertex shader for vertex `vertex` of the input primitive.
    Vertex { vertex: u32, word: u32 },
    /// Nothing writes it (gl_in[].gl_PointSize of a vertex shader that does not write it,
    /// clip distances past the vertex shader's array): 0.
    Zero,
    /// gl_PrimitiveIDIn: the input primitive's number in the draw (per instance).
    PrimitiveId,
    /// gl_InvocationID.
    InvocationId,
}

/// The geometry shader's inputs, one entry per input word.
pub fn link_inputs(vs: &Module, gs: &Module, errors: &mut Vec<LinkError>) -> Vec<InputSource> {
    let n = gs.geometry.input.map_or(1, |p| p.vertices());
    let words = gs
        .inputs
        .iter()
        .map(|v| v.slot + v.words)
        .max()
        .unwrap_or(0);
    let mut out = vec![InputSource::Zero; words as usize];
    let builtin = |b: BuiltinOutput| vs.outputs.iter().find(|o| o.builtin == Some(b));
    let vs_user: Vec<&InterfaceVar> = vs.outputs.iter().filter(|o| o.builtin.is_none()).collect();
    for input in &gs.inputs {
        let at = input.slot as usize;
        match input.builtin {
            Some(BuiltinOutput::PrimitiveIdIn) => out[at] = InputSource::PrimitiveId,
            Some(BuiltinOutput::InvocationId) => out[at] = InputSource::InvocationId,
            Some(BuiltinOutput::PerVertexIn) => {
                let pos = builtin(BuiltinOutput::Position);
                let size = builtin(BuiltinOutput::PointSize);
                let clip = builtin(BuiltinOutput::ClipDistance);
                for j in 0..n {
                    let base = at + (j * PER_VERTEX_WORDS) as usize;
                    let from = |o: Option<&InterfaceVar>, k: u32| match o {
                        Some(o) if k < o.words => InputSource::Vertex {
                            vertex: j,
                            word: o.slot + k,
                        },
                        _ => InputSource::Zero,
                    };
                    for k in 0..4 {
                        out[base + k as usize] = from(pos, k);
                    }
                    out[base + 4] = from(size, 0);
                    for k in 0..8 {
                        out[base + 5 + k as usize] = from(clip, k);
                    }
                }
            }
            Some(_) => {}
            None => {
                let by_loc = input
                    .location
                    .and_then(|l| vs_user.iter().find(|o| o.location == Some(l)));
                // As fragment inputs (`link::link_varyings`): a location matches only that
                // location, a name only where the input has no location.
                let by_name = || {
                    vs_user
                        .iter()
                        .find(|o| input.location.is_none() && o.name == input.name)
                };
                let Some(src) = by_loc.or_else(by_name) else {
                    // GLSL 1.50 §4.3.4 (and GL 4.5 core §7.4.1): only an input the shader
                    // statically reads must be written by the previous stage; one it never
                    // reads stays zero.
                    if reads_input(gs, input.slot, input.words) {
                        errors.push(LinkError::GeometryInputMissing {
                            name: input.name.clone(),
                        });
                    }
                    continue;
                };
                let per = input.words / n.max(1);
                if src.ty != input.ty || src.words != per {
                    errors.push(LinkError::GeometryInputType {
                        name: input.name.clone(),
                    });
                    continue;
                }
                for j in 0..n {
                    for w in 0..per {
                        out[at + (j * per + w) as usize] = InputSource::Vertex {
                            vertex: j,
                            word: src.slot + w,
                        };
                    }
                }
            }
        }
    }
    out
}

/// Whether `m`'s code reads any of the input words `slot .. slot + words` (static use).
fn reads_input(m: &Module, slot: u32, words: u32) -> bool {
    let mut pending: Vec<&[Stmt]> = vec![&m.func.body];
    while let Some(list) = pending.pop() {
        for s in list {
            if let Stmt::Assign {
                op: Op::Input(k), ..
            } = s
            {
                if (slot..slot.saturating_add(words)).contains(k) {
                    return true;
                }
            }
            pending.extend(s.children());
        }
    }
    false
}

/// The layout checks of a geometry stage at link time (GLSL 1.50 §4.3.8: the input and
/// output layouts must be declared), and the output size limits.
pub fn check_layout(gs: &Module, errors: &mut Vec<LinkError>) {
    let g = &gs.geometry;
    if g.input.is_none() {
        errors.push(LinkError::GeometryLayout {
            what: "an input primitive type (layout(triangles) in;)",
        });
    }
    if g.output.is_none() {
        errors.push(LinkError::GeometryLayout {
            what: "an output primitive type (layout(triangle_strip) out;)",
        });
    }
    if g.max_vertices.is_none() || g.vertex_words.is_none() {
        errors.push(LinkError::GeometryLayout {
            what: "max_vertices (layout(max_vertices = N) out;)",
        });
    }
    // GLSL 4.00 §8.12 (ARB_gpu_shader5): a shader that emits to several streams outputs
    // points.
    if g.emitted_streams & !1 != 0 && g.output.is_some_and(|o| o != OutputPrimitive::Points) {
        errors.push(LinkError::GeometryStreamsNeedPoints);
    }
    if let (Some(maxv), Some(w)) = (g.max_vertices, g.vertex_words) {
        if w > MAX_OUTPUT_COMPONENTS
            || (maxv as u64) * (w as u64) > MAX_TOTAL_OUTPUT_COMPONENTS as u64
        {
            errors.push(LinkError::GeometryOutputTooBig {
                components: w,
                vertices: maxv,
            });
        }
    }
}

/// Only vertex stream 0 is rasterized (GL 4.5 core §11.3.4.3): a fragment shader input
/// that an output of another stream would feed is a link error (as in Mesa).
fn check_fragment_streams(gs: &Module, fs: &Module, errors: &mut Vec<LinkError>) {
    if gs.geometry.streams.is_empty() {
        return;
    }
    let user: Vec<&InterfaceVar> = gs.outputs.iter().filter(|o| o.builtin.is_none()).collect();
    for input in fs.inputs.iter().filter(|i| i.builtin.is_none()) {
        let by_loc = input
            .location
            .and_then(|l| user.iter().find(|o| o.location == Some(l)));
        let Some(out) = by_loc.or_else(|| user.iter().find(|o| o.name == input.name)) else {
            continue;
        };
        let stream = gs.geometry.stream_of(&out.name);
        if stream != 0 {
            errors.push(LinkError::GeometryStreamInput {
                name: input.name.clone(),
                stream,
            });
        }
    }
}

/// The vertex shader as the link of a geometry program sees it (GL 4.5 core §7.3): the
/// geometry shader's default-block uniforms, uniform blocks and storage blocks are added to
/// the vertex stage's (a name both declare is one uniform or block, and must match), so
/// the geometry shader runs with the vertex stage's data. Returns that module and the
/// geometry module with its uniform offsets and block indices moved to match.
pub fn merge_into_vertex(
    vs: &Module,
    gs: &Module,
    errors: &mut Vec<LinkError>,
) -> (Module, Module) {
    let mut merged = vs.clone();
    let mut gs = gs.clone();
    // Default block: (gs start, gs end, new start) per uniform.
    let mut moves: Vec<(u32, u32, u32)> = Vec::new();
    let by_name: HashMap<String, usize> = merged
        .uniforms
        .iter()
        .enumerate()
        .map(|(i, u)| (u.name.clone(), i))
        .collect();
    for d in &gs.uniforms {
        let size = d.stride.max(d.ty.words()) * d.array_len.unwrap_or(1);
        match by_name.get(&d.name) {
            Some(&i) => {
                let u = &mut merged.uniforms[i];
                if u.ty != d.ty || u.array_len != d.array_len {
                    errors.push(LinkError::UniformType {
                        name: d.name.clone(),
                    });
                    continue;
                }
                super::link::merge_init(&mut u.init, &d.init, &d.name, errors);
                super::link::merge_location(&mut u.location, d.location, &d.name, errors);
                moves.push((d.offset, d.offset + size, u.offset));
            }
            None => {
                let mut nd = d.clone();
                nd.offset = merged.uniform_words;
                merged.uniform_words += size;
                moves.push((d.offset, d.offset + size, nd.offset));
                merged.uniforms.push(nd);
            }
        }
    }
    let block_map = merge_blocks(&mut merged.blocks, &gs.blocks, errors);
    let storage_map = merge_blocks(&mut merged.storage_blocks, &gs.storage_blocks, errors);
    merged.global_bindless_sampler |= gs.global_bindless_sampler;
    merged.global_bound_sampler |= gs.global_bound_sampler;
    let moved = |off: u32| {
        moves
            .iter()
            .find(|(a, b, _)| (*a..*b).contains(&off))
            .map_or(off, |(a, _, to)| off - a + to)
    };
    remap(&mut gs.func.body, &moved, &block_map, &storage_map);
    gs.uniform_words = merged.uniform_words;
    gs.blocks = merged.blocks.clone();
    gs.storage_blocks = merged.storage_blocks.clone();
    (merged, gs)
}

/// Adds `from` to `into` by name; returns each `from` block's index in `into`.
fn merge_blocks(
    into: &mut Vec<super::BlockDecl>,
    from: &[super::BlockDecl],
    errors: &mut Vec<LinkError>,
) -> Vec<u32> {
    from.iter()
        .map(|b| match into.iter().position(|o| o.name == b.name) {
            Some(i) if super::atomic_counter::is_counter_buffer(b) => {
                let binding = b.binding.unwrap_or(0);
                super::atomic_counter::merge_counters(
                    &mut into[i].members,
                    &b.members,
                    binding,
                    errors,
                );
                into[i].size = super::atomic_counter::buffer_size(&into[i].members);
                i as u32
            }
            Some(i) => {
                if into[i].members != b.members || into[i].size != b.size {
                    errors.push(LinkError::BlockMismatch {
                        name: b.name.clone(),
                    });
                }
                i as u32
            }
            None => {
                into.push(b.clone());
                into.len() as u32 - 1
            }
        })
        .collect()
}

fn remap(body: &mut [Stmt], moved: &dyn Fn(u32) -> u32, blocks: &[u32], storage: &[u32]) {
    let map = |m: &[u32], b: &mut u32| {
        if let Some(&n) = m.get(*b as usize) {
            *b = n;
        }
    };
    for s in body {
        match s {
            Stmt::Assign { op, .. } => match op {
                Op::Uniform { offset, .. } => *offset = moved(*offset),
                Op::BlockLoad { block, .. } => map(blocks, block),
                Op::StorageLoad { block, .. } | Op::StorageSize { block } => map(storage, block),
                _ => {}
            },
            Stmt::Storage { block, .. } => map(storage, block),
            Stmt::If {
                then_body,
                else_body,
                ..
            } => {
                remap(then_body, moved, blocks, storage);
                remap(else_body, moved, blocks, storage);
            }
            Stmt::Loop {
                body, continuing, ..
            } => {
                remap(body, moved, blocks, storage);
                remap(continuing, moved, blocks, storage);
            }
            Stmt::Block { body, .. } => remap(body, moved, blocks, storage),
            _ => {}
        }
    }
}

/// A linked vertex + geometry + fragment program.
pub struct GeometryLink {
    /// The program interface: attributes from the vertex shader, varyings from the geometry
    /// shader's outputs (`VaryingLink::vs_slot` is a word of the emitted vertex), uniforms
    /// and blocks of the vertex and geometry stages together as stage 0.
    pub linked: super::link::Linked,
    /// The geometry module with uniform offsets and block indices of stage 0.
    pub gs: Module,
    /// Where each geometry input word comes from.
    pub inputs: Vec<InputSource>,
}

/// Links a vertex, a geometry and a fragment module (GL 4.5 core §7.3, §11.3). All errors
/// are collected for the info log.
pub fn link_geometry(
    vs: &Module,
    gs: &Module,
    fs: &Module,
    opts: &super::link::LinkOptions,
) -> Result<GeometryLink, Vec<LinkError>> {
    let mut errors = Vec::new();
    if gs.stage != Stage::Geometry {
        return Err(vec![LinkError::WrongStage {
            expected: Stage::Geometry,
            found: gs.stage,
        }]);
    }
    check_layout(gs, &mut errors);
    check_fragment_streams(gs, fs, &mut errors);
    let mut input_errors = Vec::new();
    let inputs = link_inputs(vs, gs, &mut input_errors);
    // Separate shader objects (GL 4.5 core §7.4.1): an input of an open interface that no
    // output matches reads 0 (`InputSource::Zero`, what `link_inputs` leaves there).
    if !opts.open_interfaces {
        errors.append(&mut input_errors);
    }
    let (mut merged, gs) = merge_into_vertex(vs, gs, &mut errors);
    // The fragment shader reads what the geometry shader emits.
    merged.outputs = gs.outputs.clone();
    merged.version = gs.version;
    match super::link::link(&merged, fs, opts) {
        Err(mut e) => {
            errors.append(&mut e);
            Err(errors)
        }
        Ok(_) if !errors.is_empty() => Err(errors),
        Ok(linked) => Ok(GeometryLink { linked, gs, inputs }),
    }
}
