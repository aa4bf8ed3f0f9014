//! The geometry stage's language (GLSL 1.50 §4.3.8.1–2, §7.1, §8.10): the input and
//! output layout qualifiers (`layout(triangles) in;`, `layout(triangle_strip,
//! max_vertices = 3) out;`, `invocations`), input arrays sized by the input primitive,
//! the built-ins `gl_in[]`, `gl_PrimitiveIDIn`, `gl_InvocationID` and the outputs
//! `gl_PrimitiveID`, `gl_Layer` and `gl_ViewportIndex` (also the fragment inputs that
//! read them), `EmitVertex()` / `EndPrimitive()` and their stream forms, and the vertex
//! stream of each output (`layout(stream = N)`, GLSL 4.00 §4.3.8.2). What the emits
//! become is `ir::geometry`'s business; here they are checked and emitted as
//! `Stmt::EmitVertex(stream)` / `Stmt::EndPrimitive(stream)`.

use std::rc::Rc;

use crate::ir::geometry::{self as geo, InputPrimitive, OutputPrimitive};
use crate::ir::{BaseType, BuiltinOutput, InterfaceVar, Interpolation, Stage, Stmt, Var};

use super::ast::{self, Expr};
use super::diag::Span;
use super::lower::{bail, Lowerer, PendingOutput, Root, Sym, Value, VarSym, R};
use super::per_vertex::MAX_IN_CLIP_DISTANCES;
use super::types::{vt, StructDef, Type};

impl Lowerer {
    /// `layout(points | lines | lines_adjacency | triangles | triangles_adjacency,
    /// invocations = N) in;` and `layout(points | line_strip | triangle_strip,
    /// max_vertices = N) out;` (GLSL 1.50 §4.3.8.1–2, GLSL 4.00 invocations): every
    /// declaration of the stage must agree.
    pub(super) fn geometry_layout(&mut self, q: &ast::Qualifiers) -> R<()> {
        let is_in = q.storage == Some(ast::Storage::In);
        for l in &q.layout {
            let name = l.name.as_str();
            match (name, is_in) {
                (
                    "points" | "lines" | "lines_adjacency" | "triangles" | "triangles_adjacency",
                    true,
                ) => {
                    let Some(p) = input_primitive(name) else {
                        unreachable!("the arm matched an input primitive's name")
                    };
                    match self.geometry.input {
                        Some(old) if old != p => bail!(
                            self,
                            l.span,
                            "input primitive `{name}' differs from `{}' declared before",
                            old.name()
                        ),
                        _ => self.geometry.input = Some(p),
                    }
                    let sized = std::mem::take(&mut self.geometry_sized_inputs);
                    for (n, len, span) in sized {
                        if len != p.vertices() {
                            self.error(
                                span,
                                format!(
                                    "input `{n}' has size {len}, but the input primitive `{name}' has {} vertices",
                                    p.vertices()
                                ),
                            );
                        }
                    }
                }
                ("invocations", true) => {
                    if self.version < 400 {
                        bail!(self, l.span, "`invocations' requires GLSL 4.00");
                    }
                    let v = self.layout_int(l)?;
                    if v < 1 || v > geo::MAX_INVOCATIONS as i64 {
                        bail!(
                            self,
                            l.span,
                            "`invocations' is {v}: it must be 1 to gl_MaxGeometryShaderInvocations ({})",
                            geo::MAX_INVOCATIONS
                        );
                    }
                    match self.geometry.invocations {
                        Some(old) if old != v as u32 => bail!(
                            self,
                            l.span,
                            "`invocations = {v}' differs from {old} declared before"
                        ),
                        _ => self.geometry.invocations = Some(v as u32),
                    }
                }
                ("points" | "line_strip" | "triangle_strip", false) => {
                    let p = match name {
                        "points" => OutputPrimitive::Points,
                        "line_strip" => OutputPrimitive::LineStrip,
                        _ => OutputPrimitive::TriangleStrip,
                    };
                    match self.geometry.output {
                        Some(old) if old != p => bail!(
                            self,
                            l.span,
                            "output primitive `{name}' differs from the one declared before"
                        ),
                        _ => self.geometry.output = Some(p),
                    }
                }
                ("max_vertices", false) => {
                    let v = self.layout_int(l)?;
                    if v > geo::MAX_OUTPUT_VERTICES as i64 {
                        bail!(
                            self,
                            l.span,
                            "`max_vertices' is {v}: more than gl_MaxGeometryOutputVertices ({})",
                            geo::MAX_OUTPUT_VERTICES
                        );
                    }
                    match self.geometry.max_vertices {
                        Some(old) if old != v as u32 => bail!(
                            self,
                            l.span,
                            "`max_vertices = {v}' differs from {old} declared before"
                        ),
                        _ => self.geometry.max_vertices = Some(v as u32),
                    }
                }
                // `layout(stream = N) out;`: the stream of the outputs declared after it.
                ("stream", false) => self.geometry_stream = self.stream_value(l)?,
                // `layout(xfb_buffer = N, xfb_stride = S) out;` (`xfb.rs`).
                ("xfb_buffer" | "xfb_stride", false) => {}
                (n, _) => bail!(
                    self,
                    l.span,
                    "layout qualifier `{n}' is not valid on a geometry shader `{}'",
                    if is_in { "in" } else { "out" }
                ),
            }
        }
        Ok(())
    }

    /// The input primitive of the stage's units, read before anything is lowered: an
    /// unsized input array may be declared before `layout(triangles) in;` and takes its
    /// size from it (GLSL 1.50 §4.3.8.1: unsized inputs are sized by the input layout;
    /// Mesa sizes them when the layout comes). Only the first primitive named is taken;
    /// `geometry_layout` still checks every declaration against it in order.
    pub(super) fn prescan_geometry_input(&mut self, units: &[Vec<ast::External>]) {
        if self.stage != Stage::Geometry {
            return;
        }
        let first = first_default_layout(units, ast::Storage::In, |l| input_primitive(&l.name));
        if self.geometry.input.is_none() {
            self.geometry.input = first;
        }
    }

    /// The size of a geometry shader input array declared `in T name[]` or `in T
    /// name[N]` (GLSL 1.50 §4.3.4: every input is an array with one element per vertex
    /// of the input primitive). `declared` is the explicit size, if any.
    pub(super) fn geometry_input_len(
        &mut self,
        name: &str,
        declared: Option<u32>,
        span: Span,
    ) -> R<u32> {
        let known = self.geometry.input.map(|p| p.vertices());
        match (declared, known) {
            (Some(n), Some(k)) if n != k => bail!(
                self,
                span,
                "input `{name}' has size {n}, but the input primitive has {k} vertices"
            ),
            (Some(n), None) => {
                self.geometry_sized_inputs.push((name.to_string(), n, span));
                Ok(n)
            }
            (_, Some(k)) => Ok(k),
            // A unit compiled on its own may leave the layout to another unit of the stage
            // (GLSL 1.50 §4.3.8.1: sizes must agree in the program, a link-time check);
            // the link lowers the units together and sizes it then. Until then it has the
            // largest size an input primitive gives, so the unit can be checked.
            (None, None) if !self.linking => Ok(InputPrimitive::TrianglesAdjacency.vertices()),
            (None, None) => bail!(
                self,
                span,
                "unsized input `{name}' declared before the input primitive type (layout(triangles) in;)"
            ),
        }
    }

    /// `in Block { ... } inst[];` of a geometry or tessellation shader, and `out Block {
    /// ... } inst[];` of a tessellation control shader (GLSL 1.50 §4.3.7): each member is
    /// an input array `Block.member` of the input primitive's size, as a vertex shader's
    /// `out Block { ... }` names it; the instance is an array of structs over their vars
    /// (element-major, as arrays of structs are laid out).
    pub(super) fn geometry_input_block(&mut self, b: &ast::BlockDecl) -> R<()> {
        let is_in = b.quals.storage == Some(ast::Storage::In);
        let Some((inst, dims)) = &b.instance else {
            bail!(
                self,
                b.span,
                "per-vertex {} blocks must be arrays ({} {} {{ ... }} name[];)",
                if is_in { "input" } else { "output" },
                if is_in { "in" } else { "out" },
                b.name
            );
        };
        let declared = match dims.as_slice() {
            [None] => None,
            [Some(e)] => Some(self.array_size(e)?),
            _ => bail!(
                self,
                b.span,
                "geometry shader input blocks must be arrays of one dimension"
            ),
        };
        let n = if self.stage == Stage::Geometry {
            self.geometry_input_len(inst, declared, b.span)?
        } else {
            self.tess_array_len(inst, is_in, declared, b.span)?
        };
        let mut members: Vec<(String, Type)> = Vec::new();
        let mut per_member: Vec<(Rc<[Var]>, u32)> = Vec::new();
        for m in &b.members {
            let mt = self.resolve_type(&m.ty)?;
            let mut q = m.quals.clone();
            q.storage = b.quals.storage;
            if q.interp.is_none() {
                q.interp = b.quals.interp;
            }
            for (name, mdims, sp) in &m.names {
                let t = self.apply_dims(mt.clone(), mdims, None, *sp)?;
                let arr = Type::Array(Box::new(t.clone()), n);
                let vars = if is_in {
                    self.block_member_input(b, &q, name, &arr, *sp)?
                } else {
                    self.block_member_output(b, &q, name, &arr, *sp)?
                };
                per_member.push((vars, t.words()));
                members.push((name.clone(), t));
            }
        }
        let mut vars = Vec::new();
        for j in 0..n as usize {
            for (v, w) in &per_member {
                let w = *w as usize;
                vars.extend_from_slice(&v[j * w..(j + 1) * w]);
            }
        }
        let def = Rc::new(StructDef {
            name: b.name.clone(),
            members,
        });
        let sym = VarSym {
            ty: Type::Array(Box::new(Type::Struct(def)), n),
            root: Root::Vars(vars.into()),
            base: 0,
            writable: !is_in,
            konst: None,
        };
        self.declare(inst, b.span, Sym::Var(Rc::new(sym)))
    }

    /// The geometry built-ins (GLSL 1.50 §7.1); `None` for other names.
    pub(super) fn geometry_builtin_var(&mut self, name: &str) -> Option<Sym> {
        let (ty, vars, writable): (Type, Vec<Var>, bool) = match (name, self.stage) {
            ("gl_in", Stage::Geometry | Stage::TessControl | Stage::TessEval) => {
                let n = if self.stage == Stage::Geometry {
                    self.geometry.input?.vertices()
                } else {
                    crate::ir::tess::MAX_PATCH_VERTICES
                };
                let def = Rc::new(StructDef {
                    name: "gl_PerVertex".into(),
                    members: vec![
                        ("gl_Position".into(), Type::vector(BaseType::Float, 4)),
                        ("gl_PointSize".into(), Type::FLOAT),
                        (
                            "gl_ClipDistance".into(),
                            Type::Array(Box::new(Type::FLOAT), MAX_IN_CLIP_DISTANCES),
                        ),
                    ],
                });
                let ty = Type::Array(Box::new(Type::Struct(def)), n);
                let vars = self.builtin_inputs(name, BuiltinOutput::PerVertexIn, &ty, Some(n));
                match self.per_vertex_in.clone() {
                    None => (ty, vars, false),
                    // `in gl_PerVertex { ... } gl_in[];` (per_vertex.rs): the members it
                    // names, at their own sizes, over the same input words.
                    Some(members) => {
                        let mut picked = Vec::new();
                        for j in 0..n {
                            let base = j * geo::PER_VERTEX_WORDS;
                            for (m, t) in &members {
                                let first = match m.as_str() {
                                    "gl_Position" => 0,
                                    "gl_PointSize" => 4,
                                    _ => 5,
                                };
                                let at = (base + first) as usize;
                                picked.extend_from_slice(&vars[at..at + t.words() as usize]);
                            }
                        }
                        let def = Rc::new(StructDef {
                            name: "gl_PerVertex".into(),
                            members,
                        });
                        (Type::Array(Box::new(Type::Struct(def)), n), picked, false)
                    }
                }
            }
            ("gl_PrimitiveIDIn", Stage::Geometry) => {
                let vars =
                    self.builtin_inputs(name, BuiltinOutput::PrimitiveIdIn, &Type::INT, None);
                (Type::INT, vars, false)
            }
            ("gl_InvocationID", Stage::Geometry | Stage::TessControl) => {
                let vars = self.builtin_inputs(name, BuiltinOutput::InvocationId, &Type::INT, None);
                (Type::INT, vars, false)
            }
            ("gl_PrimitiveID", Stage::Fragment) => {
                let vars = self.builtin_inputs(name, BuiltinOutput::PrimitiveId, &Type::INT, None);
                (Type::INT, vars, false)
            }
            ("gl_PrimitiveID", Stage::Geometry) => {
                let vars = self.new_vars_for(&Type::INT);
                self.outputs.push(PendingOutput {
                    var: InterfaceVar {
                        name: name.to_string(),
                        ty: vt(BaseType::Int, 1, 1),
                        array_len: None,
                        location: None,
                        slot: 0,
                        words: 1,
                        interpolation: Interpolation::Flat,
                        builtin: Some(BuiltinOutput::PrimitiveId),
                    },
                    vars: vars.clone().into(),
                });
                (Type::INT, vars, true)
            }
            // GLSL 1.50 §7.1 gl_Layer; GLSL 4.10 (GL_ARB_viewport_array) gl_ViewportIndex;
            // in a vertex shader with GL_ARB_shader_viewport_layer_array or the AMD
            // extensions. Per vertex like any output; the provoking vertex's value selects
            // (`raster::front::bin_selecting`).
            ("gl_Layer" | "gl_ViewportIndex", Stage::Geometry | Stage::Vertex)
                if self.may_write_layer_or_viewport(name) =>
            {
                let b = if name == "gl_Layer" {
                    BuiltinOutput::Layer
                } else {
                    BuiltinOutput::ViewportIndex
                };
                let vars = self.new_vars_for(&Type::INT);
                self.outputs.push(PendingOutput {
                    var: InterfaceVar {
                        name: name.to_string(),
                        ty: vt(BaseType::Int, 1, 1),
                        array_len: None,
                        location: None,
                        slot: 0,
                        words: 1,
                        interpolation: Interpolation::Flat,
                        builtin: Some(b),
                    },
                    vars: vars.clone().into(),
                });
                (Type::INT, vars, true)
            }
            // GLSL 4.30 (GL_ARB_fragment_layer_viewport): what the geometry shader wrote, 0
            // when it wrote nothing (`ir::link` links it to `link::ZERO_SLOT` then).
            ("gl_Layer" | "gl_ViewportIndex", Stage::Fragment)
                if self.version >= 430 || self.fragment_layer_viewport =>
            {
                let b = if name == "gl_Layer" {
                    BuiltinOutput::Layer
                } else {
                    BuiltinOutput::ViewportIndex
                };
                let vars = self.builtin_inputs(name, b, &Type::INT, None);
                (Type::INT, vars, false)
            }
            _ => return None,
        };
        let sym = Sym::Var(Rc::new(VarSym {
            ty,
            root: Root::Vars(vars.into()),
            base: 0,
            writable,
            konst: None,
        }));
        self.scopes[0].insert(name.to_string(), sym.clone());
        Some(sym)
    }

    /// Whether this stage may write gl_Layer or gl_ViewportIndex (`name`).
    pub(super) fn may_write_layer_or_viewport(&self, name: &str) -> bool {
        let layer = name == "gl_Layer";
        match self.stage {
            Stage::Geometry => layer || self.version >= 410 || self.viewport_array,
            Stage::Vertex => self.vertex_layer_viewport[usize::from(!layer)],
            _ => false,
        }
    }

    /// Input words of a built-in input the draw fills (`ir::geometry::link_inputs`).
    pub(super) fn builtin_inputs(
        &mut self,
        name: &str,
        builtin: BuiltinOutput,
        ty: &Type,
        array_len: Option<u32>,
    ) -> Vec<Var> {
        let vars = self.new_vars_for(ty);
        let slot = self.read_input_words(&vars);
        self.inputs.push(InterfaceVar {
            name: name.to_string(),
            ty: if ty.words() == 1 {
                vt(BaseType::Int, 1, 1)
            } else {
                vt(BaseType::Float, 1, 1)
            },
            array_len,
            location: None,
            slot,
            words: ty.words(),
            interpolation: Interpolation::Flat,
            builtin: Some(builtin),
        });
        vars
    }

    /// The value of a `stream = N` layout qualifier (GLSL 4.00 §4.3.8.2): 0 to
    /// gl_MaxVertexStreams − 1, and streams other than 0 need GLSL 4.00 (softgl has no
    /// GL_ARB_gpu_shader5; stream 0 is what every output has anyway).
    fn stream_value(&mut self, l: &ast::LayoutQual) -> R<u32> {
        let v = self.layout_int(l)?;
        if v >= geo::MAX_VERTEX_STREAMS as i64 {
            bail!(
                self,
                l.span,
                "`stream = {v}': the stream must be below gl_MaxVertexStreams ({})",
                geo::MAX_VERTEX_STREAMS
            );
        }
        if v != 0 && self.version < 400 {
            bail!(
                self,
                l.span,
                "vertex streams other than 0 require GLSL 4.00"
            );
        }
        Ok(v as u32)
    }

    /// The vertex stream of an output declared with qualifiers `q`: its own `layout(stream
    /// = N)`, else the current default (`geometry_stream`); 0 outside geometry shaders. In
    /// an output block the default is the block's stream, and a member's own stream must
    /// be that one (GLSL 4.00 §4.3.8.2).
    pub(super) fn output_stream(&mut self, q: &ast::Qualifiers, in_block: bool) -> R<u32> {
        if self.stage != Stage::Geometry {
            return Ok(0);
        }
        let Some(l) = q.layout.iter().find(|l| l.name == "stream") else {
            return Ok(self.geometry_stream);
        };
        let v = self.stream_value(l)?;
        if in_block && v != self.geometry_stream {
            bail!(
                self,
                l.span,
                "a block member's `stream = {v}' differs from its block's stream {}",
                self.geometry_stream
            );
        }
        Ok(v)
    }

    /// Records stream `stream` for the outputs declared since `first` (an index of
    /// `outputs`).
    pub(super) fn set_output_streams(&mut self, first: usize, stream: u32) {
        if stream == 0 {
            return;
        }
        for o in &self.outputs[first..] {
            self.geometry.streams.push((o.var.name.clone(), stream));
        }
    }

    /// `EmitVertex()`, `EndPrimitive()` and their stream forms (GLSL 1.50 §8.10, GLSL
    /// 4.00 §8.12); `None` for other names.
    pub(super) fn geometry_call(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<R<Value>> {
        let (stmt, stream): (fn(u32) -> Stmt, bool) = match name {
            "EmitVertex" => (Stmt::EmitVertex, false),
            "EndPrimitive" => (Stmt::EndPrimitive, false),
            "EmitStreamVertex" => (Stmt::EmitVertex, true),
            "EndStreamPrimitive" => (Stmt::EndPrimitive, true),
            _ => return None,
        };
        Some(self.emit_call(name, stmt, stream, args, span))
    }

    fn emit_call(
        &mut self,
        name: &str,
        stmt: fn(u32) -> Stmt,
        stream: bool,
        args: &[Expr],
        span: Span,
    ) -> R<Value> {
        if self.stage != Stage::Geometry {
            bail!(self, span, "{name}() is only available in geometry shaders");
        }
        if stream {
            if self.version < 400 {
                bail!(self, span, "{name}() requires GLSL 4.00");
            }
            let [a] = args else {
                bail!(self, span, "{name}() takes one argument, the stream");
            };
            // GLSL 4.00 §8.12: a constant integral expression naming a stream.
            let n = match self.const_eval(a).and_then(|c| c.as_index()) {
                Some(n) if (0..geo::MAX_VERTEX_STREAMS as i64).contains(&n) => n as u32,
                Some(n) => bail!(
                    self,
                    span,
                    "{name}({n}): the stream must be 0 to gl_MaxVertexStreams − 1 ({})",
                    geo::MAX_VERTEX_STREAMS - 1
                ),
                None => bail!(
                    self,
                    span,
                    "the stream of {name}() must be a constant integer"
                ),
            };
            self.emit(stmt(n));
        } else if !args.is_empty() {
            bail!(self, span, "{name}() takes no arguments");
        } else {
            self.emit(stmt(0));
        }
        Ok(Value {
            ty: Type::Void,
            vars: Vec::new(),
        })
    }
}

/// The input primitive a layout qualifier names (GLSL 1.50 §4.3.8.1), if any.
fn input_primitive(name: &str) -> Option<InputPrimitive> {
    Some(match name {
        "points" => InputPrimitive::Points,
        "lines" => InputPrimitive::Lines,
        "lines_adjacency" => InputPrimitive::LinesAdjacency,
        "triangles" => InputPrimitive::Triangles,
        "triangles_adjacency" => InputPrimitive::TrianglesAdjacency,
        _ => return None,
    })
}

/// The first layout qualifier that `take` accepts among the stage's default-qualifier
/// declarations of `storage` (`layout(...) in;` / `layout(...) out;`), in unit order: what
/// the prescans read before anything is lowered (`prescan_geometry_input`,
/// `prescan_tess_vertices`).
pub(super) fn first_default_layout<T>(
    units: &[Vec<ast::External>],
    storage: ast::Storage,
    mut take: impl FnMut(&ast::LayoutQual) -> Option<T>,
) -> Option<T> {
    units.iter().flatten().find_map(|ext| match ext {
        ast::External::Qualifiers(q, names) if names.is_empty() && q.storage == Some(storage) => {
            q.layout.iter().find_map(&mut take)
        }
        _ => None,
    })
}
